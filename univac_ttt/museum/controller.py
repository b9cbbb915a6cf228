"""The kiosk's behaviour, apart from any screen: modes, idle timing, demonstrations, tallies.

Driven by a clock it is given and by ``tick()``, so tests run attract mode, idle resets and
staff exit with a fake clock and no waiting.
"""

from __future__ import annotations

import hmac
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from ..desk.pacing import TypewriterPacer
from ..desk.paper import KEYED_MARK, PrintedChunk
from ..desk.score import RESULT_COUNTERS
from ..desk.session import GameSession
from ..hostio.wording import count
from ..machine import MachineOptions
from ..machine.tape import Reel
from ..packs.tictactoe import (
    BAD_CODE_PHRASE,
    DEMO_GAMES,
    NEW_GAME_PHRASE,
    RESULT_PATTERN,
    results_in,
    tictactoe_pack,
)
from ..packs.tictactoe.board import last_printed_board
from ..program.assembler import Program
from .printouts import save_printout
from .stats import TallyFile

log = logging.getLogger("univac_ttt.kiosk")
WELCOME = "Your move: type a square code, 1 to 9, and press Enter."
YOUR_MOVE = WELCOME  # the line over the keyboard once INPUT READY is lit
GREETING = "The UNIVAC is typing its greeting. Wait for INPUT READY."
NEW_GAME = "New game! Your move: type a square code, 1 to 9, and press Enter."
STILL_TYPING = "The UNIVAC is still typing. Wait for INPUT READY."  # a key too early
REPLYING = "You keyed your move. The UNIVAC is thinking and typing its answer."
ATTRACT = "The UNIVAC is playing itself a demonstration. Press any key to play!"
DEMONSTRATION = "DEMONSTRATION: the UNIVAC is playing itself. Press any key to play!"
WOKEN = "That key woke the UNIVAC. Type your move at INPUT READY."
MIN_PIN_LENGTH = 4  # shorter staff PINs are refused at start
FREE_PIN_TRIES = 2  # wrong PINs allowed before the PIN is locked
PIN_LOCK_SECONDS = 30.0  # the first lockout; each further wrong PIN doubles it
PIN_LOCK_LIMIT = 900.0  # the longest lockout (15 minutes)
BOARD_TAIL = 2_000  # characters at the end of the visible paper that hold the last board
GAME_PAPER_LIMIT = 50_000  # characters of one game's printout (a visitor typing 0 for hours)


def pin_refusal(pin: str, min_length: int = MIN_PIN_LENGTH) -> str:
    """Why the staff PIN cannot be used, or '' if it can (the kiosk's and the page's)."""
    if not pin:
        return ("the kiosk needs a staff PIN: --pin PIN or UNIVAC_TTT_STAFF_PIN "
                "(docs/museum.md)")
    if not pin.strip() or not pin.isprintable():
        return ("the staff PIN must be printable characters, not only spaces "
                "(docs/museum.md)")
    if len(pin) < min_length:
        return (f"the staff PIN is too short: use at least {min_length} characters "
                "(docs/museum.md)")
    return ""


class Mode(Enum):
    PLAYING = "playing"
    ATTRACT = "attract"
    STAFF = "staff"


@dataclass
class KioskSettings:
    pin: str
    printouts: Path
    stats: Path
    idle_seconds: float  # the one default is the command line's (cli/kiosk.py)
    authentic: bool = True
    demo_pause: float = 2.5  # after a demonstration reply is typed, before the next move
    demo_end_pause: float = 8.0  # after a demonstration game ends
    staff_timeout: float = 30.0
    first_demo: int | None = None  # None: start somewhere different each time
    clock: Callable[[], float] = time.monotonic
    options: MachineOptions = field(default_factory=MachineOptions)


def _captions(program: Program | None) -> dict[int, str]:
    """The pack's captions by address, for the labels this program has."""
    if program is None:
        return {}
    return {program.symbols[label]: text for label, text in tictactoe_pack().captions.items()
            if label in program.symbols}


class Kiosk:
    def __init__(self, words: dict[int, str], program: Program | None,
                 settings: KioskSettings, tape: Reel | None = None) -> None:
        self.settings = settings
        self.clock = settings.clock
        self.pacer = TypewriterPacer(settings.authentic, settings.clock)
        # Each game boots ``tape`` (the shipped tictactoe.tape) by INITIAL READ.
        self.session = GameSession(words, settings.options, self._printed,
                                   _captions(program), tape=tape, results=results_in)
        self.tally = TallyFile(settings.stats)
        self.mode = Mode.PLAYING
        self._mode_before_staff = Mode.PLAYING
        self.last_activity = self.clock()
        self.caption = WELCOME
        self.hint = ""
        self.game_paper = self.session.paper  # the current game's paper, for its printout
        self.visitor_words = 0  # words typed in the current game
        count = len(DEMO_GAMES)
        self.demo_index = (settings.first_demo if settings.first_demo is not None
                           else int(time.time()) % count) % count
        self.demo_move = 0
        self.next_demo_at = 0.0
        self._demo_waiting_for_typing = False
        self.staff_since = 0.0
        self.wrong_pins = 0  # wrong PINs since the last right one
        self.pin_locked_until = 0.0
        self.keyed_square: int | None = None  # the visitor's entry while the reply is typed
        self._keyed_on: tuple[int, ...] | None = None  # the board it was keyed on
        self._game_over = False  # a visitor game ended; the next one's greeting is typing
        self._fresh = True  # the UNIVAC sits at a new game's greeting: no move made in it
        self.waking = False  # a key woke the kiosk; an empty Enter after it is no entry
        self.staff_locked = False  # F12 was pressed while the PIN is locked: no PIN is typed
        self._board_read: tuple[int, ...] | None = None  # the last board the paper showed

    # ---- paper and board -------------------------------------------------------------

    def _printed(self, chunk: PrintedChunk) -> None:
        self.pacer.add_printed(chunk)

    @property
    def board(self) -> tuple[int, ...] | None:
        """The last board typed so far on the visible paper (only its tail is read, so a
        redraw costs the same after a month as after a minute; keyed lines are skipped).
        A tail with no board (some thirty bad codes in a row push it out) keeps the last
        board read: the big board went blank while the game still held its moves. Once
        a new game's greeting is being typed, the board is the new game's (none yet: an
        empty one), as on the paper, not the last visitor's finished one."""
        tail = self.pacer.text[-BOARD_TAIL:]
        tail = tail[tail.find("\n") + 1:] if len(tail) == BOARD_TAIL else tail
        typed = "\n".join(line for line in tail.split("\n")
                          if not line.startswith(KEYED_MARK))
        greeting = typed.rfind(NEW_GAME_PHRASE)
        if greeting >= 0:  # this game's paper only: its greeting on
            self._board_read = None
            typed = typed[greeting:]
        found = last_printed_board(typed)
        if found is not None:
            self._board_read = found
        return self._board_read

    @property
    def shown_keyed(self) -> int | None:
        """The square the visitor keyed, while the UNIVAC's reply to it is being typed and
        the big board is still the one it was keyed on (a game's last X is not drawn on
        the next game's board while its greeting is typed)."""
        if not self.pacer.busy or self.mode is not Mode.PLAYING:
            return None
        return self.keyed_square if self.board == self._keyed_on else None

    @property
    def shown_caption(self) -> str:
        """The caption, true at this moment: a welcome only once the visitor can type."""
        if self.mode is not Mode.PLAYING or not self.pacer.busy:
            return WELCOME if self.caption == REPLYING else self.caption
        if self._game_over or self.caption in (WELCOME, NEW_GAME):
            return GREETING
        return self.caption

    @property
    def input_ready(self) -> bool:
        """INPUT READY is lit: a visitor's game, the typewriter silent, the UNIVAC waiting."""
        return (self.mode is Mode.PLAYING and not self.pacer.busy
                and self.session.waiting_for_keyboard)

    @property
    def demonstrating(self) -> bool:
        """A demonstration is on (also under a staff prompt opened during one), so the
        screen can say so the whole time, whatever the caption explains."""
        return self.mode is Mode.ATTRACT or (self.mode is Mode.STAFF
                                             and self._mode_before_staff is Mode.ATTRACT)

    @property
    def error_stop(self) -> str:
        """The desk's error neons when the UNIVAC has stopped on an error ("" otherwise), so
        a visitor sees the lamp the operator saw; F2 boots a fresh game."""
        if self.session.error is None or not self.session.desk.neons.error:
            return ""
        return (f"ERROR STOP: the {', '.join(self.session.desk.neons.error)} neon is lit. "
                "Press F2 for a new game.")

    @property
    def your_move(self) -> str:
        """The line over the keyboard: "Your move: ..." once INPUT READY is lit, while the
        caption keeps explaining the UNIVAC's last decision ("" when the caption already
        asks for the move, or input is not ready)."""
        if not self.input_ready or "Your move" in self.shown_caption:
            return ""
        return YOUR_MOVE

    # ---- visitors --------------------------------------------------------------------

    def activity(self) -> bool:
        """A key was pressed. True if it only woke the kiosk (the key is then used up)."""
        self.last_activity = self.clock()
        if self.mode is Mode.ATTRACT:
            self._start_visitor_game(wake=True)
            self.waking = True
            self.hint = WOKEN
            return True
        return False

    def submit(self, text: str) -> bool:
        """The visitor pressed Enter with ``text`` on the keyboard line. The Enter that
        follows the key that woke the kiosk, with nothing typed since, is no entry (and no
        bad code): the visitor meant to play, not to send the UNIVAC an empty word."""
        if self.activity():
            self.waking = False  # this Enter was the key that woke the kiosk
            return False
        if self.mode is not Mode.PLAYING:
            return False
        if self.waking:
            self.waking = False
            if not text.strip():
                self.hint = WOKEN
                return False
        if self.pacer.busy:
            self.hint = STILL_TYPING
            return False
        self._game_over = False
        self._keyed_on = self.board
        accepted = self._send(text, demo=False)
        if accepted:
            if not self._game_over:  # (a word that ended the game begins no new one)
                self.visitor_words += 1
            entry = text.strip()
            self.keyed_square = int(entry) if len(entry) == 1 and entry in "123456789" \
                else None
            if self.caption in (WELCOME, NEW_GAME):
                self.caption = REPLYING
        return accepted

    def new_game(self) -> None:
        if self.activity():  # it woke the kiosk, which has already set up a fresh game
            return
        if self.mode is Mode.PLAYING:
            if self.visitor_words:
                self.tally.today().abandoned += 1
                self._save_tally()
            self._start_visitor_game()

    def _start_visitor_game(self, wake: bool = False) -> None:
        """A fresh game for a visitor. Woken from a demonstration, a UNIVAC that already
        sits at a new game's greeting (a demonstration just ended, or none began) is not
        restarted: that would type a second greeting under the first."""
        self.mode = Mode.PLAYING
        self.pacer.finish()
        self.waking = False
        if not (wake and self._fresh):
            self._restart_program()
        self.visitor_words = 0
        self.caption = WELCOME
        self.hint = ""

    def _restart_program(self) -> None:
        self.pacer.start_reply()
        paper = self.session.desk.paper
        mark = paper.end
        self.session.new_game()
        self.game_paper = paper.since(mark)  # the new greeting
        self.visitor_words = 0
        self._fresh = True

    def _send(self, text: str, demo: bool) -> bool:
        session = self.session
        mark = session.desk.paper.end
        self.pacer.start_reply()
        result = session.submit(text)
        if not result.accepted:
            self.hint = result.message
            return False
        self.hint = ""
        if session.noticed:
            self.caption = session.noticed[-1]
        paper = session.desk.paper
        typed = paper.typed_since(mark)
        self._account(paper.since(mark), typed, demo)
        self._fresh = bool(results_in(typed))  # a game ended: the next greeting is typed
        return True

    def _account(self, new_text: str, typed: str, demo: bool) -> None:
        """Count what the UNIVAC typed (``typed``); file the paper (``new_text``, with the
        visitor's keyed lines) of each game that ended."""
        today = self.tally.today()
        changed = False
        if not demo:
            bad = typed.count(BAD_CODE_PHRASE)
            if bad:
                today.bad_codes += bad
                changed = True
        paper = (self.game_paper + new_text)[-GAME_PAPER_LIMIT:]
        for result in results_in(typed):
            match = _typed_result(paper)
            end = paper.find("\n", match.end()) if match else len(paper)
            end = len(paper) if end < 0 else end + 1
            game_paper, paper = paper[:end], paper[end:]
            changed = True
            if demo:
                today.demonstrations += 1
                continue
            today.games += 1
            self._game_over = True
            today[RESULT_COUNTERS[result]] += 1
            self.visitor_words = 0
            try:
                path = save_printout(self.settings.printouts, game_paper)
                log.info("game %s: printout %s", result, path)
            except OSError as exc:
                log.error("printout not saved: %s", exc)
        self.game_paper = paper
        if changed:
            self._save_tally()

    def _save_tally(self) -> None:
        try:
            self.tally.save()
        except OSError as exc:
            log.error("tally not saved: %s", exc)

    # ---- time passing ----------------------------------------------------------------

    def tick(self) -> bool:
        """Advance typing and the modes; True when the screen should be redrawn."""
        changed = self.pacer.advance()
        now = self.clock()
        if self.hint == STILL_TYPING and not self.pacer.busy:  # INPUT READY: wait no more
            self.hint = ""
            changed = True
        if self._game_over and not self.pacer.busy and self.mode is Mode.PLAYING:
            self._game_over = False
            self.caption = NEW_GAME
            changed = True
        if self.mode is Mode.PLAYING and not self.pacer.busy \
                and now - self.idle_since() >= self.settings.idle_seconds:
            if self.visitor_words:
                self.tally.today().abandoned += 1
                self._save_tally()
                log.info("game abandoned after %s", count(self.visitor_words, "word"))
            self._start_attract()
            return True
        if self.mode is Mode.ATTRACT:
            return self._drive_demo(now) or changed
        if self.mode is Mode.STAFF and now - self.staff_since >= self.settings.staff_timeout:
            self.mode = self._mode_before_staff
            self.hint = ""
            self.staff_locked = False
            self.last_activity = now
            return True
        return changed

    def idle_since(self) -> float:
        """When the visitor was last busy: their last key, or INPUT READY (the moment the
        typewriter finished, however late the tick that noticed it)."""
        return max(self.last_activity, self.pacer.finished_at)

    def _start_attract(self) -> None:
        self.mode = Mode.ATTRACT
        self.pacer.finish()
        self.waking = False
        if self.visitor_words:  # a game was begun: start afresh (else the board is fresh)
            self._restart_program()
        self.caption = ATTRACT
        self.hint = ""  # a hint for the visitor who left (a wrong key) is not the demo's
        self.demo_move = 0
        self.next_demo_at = self.clock() + self.settings.demo_pause
        self._demo_waiting_for_typing = False

    def _drive_demo(self, now: float) -> bool:
        if self.pacer.busy:
            self._demo_waiting_for_typing = True
            return False
        if self._demo_waiting_for_typing:
            self._demo_waiting_for_typing = False
            self.next_demo_at = now + (self.settings.demo_end_pause if self.demo_move == 0
                                       else self.settings.demo_pause)
        if now < self.next_demo_at:
            return False
        moves, _expected = DEMO_GAMES[self.demo_index]
        games_before = self.tally.today().demonstrations
        self._send(moves[self.demo_move], demo=True)
        self.demo_move += 1
        if self.tally.today().demonstrations > games_before or self.demo_move >= len(moves):
            self.demo_index = (self.demo_index + 1) % len(DEMO_GAMES)
            self.demo_move = 0
            self.next_demo_at = now + self.settings.demo_end_pause
        else:
            self.next_demo_at = now + self.settings.demo_pause
        self._demo_waiting_for_typing = self.pacer.busy
        return True

    # ---- staff -----------------------------------------------------------------------

    def pin_lock_left(self) -> float:
        """Seconds until the staff PIN may be tried again (0: it may be tried now)."""
        return max(0.0, self.pin_locked_until - self.clock())

    def staff_begin(self) -> None:
        """F12: the masked PIN prompt; while the PIN is locked, a notice of how long is
        left that takes every key until Esc, Enter or the staff time-out, so nothing typed
        after F12 (a PIN least of all) reaches the visitor's game, paper or tally."""
        if self.mode is not Mode.STAFF:
            self._mode_before_staff = self.mode
            self.mode = Mode.STAFF
        self.staff_since = self.clock()
        left = self.pin_lock_left()
        self.staff_locked = left > 0
        if self.staff_locked:
            self.hint = (f"Staff PIN locked after {self.wrong_pins} wrong tries: try again in "
                         f"{_seconds(left)}. Esc or Enter to go back.")
        else:
            self.hint = "Staff: type the PIN and press Enter (Esc to cancel)."

    def staff_cancel(self) -> None:
        if self.mode is Mode.STAFF:
            self.mode = self._mode_before_staff
            self.hint = ""
            self.last_activity = self.clock()
        self.staff_locked = False

    def staff_pin(self, pin: str) -> bool:
        """True for the right PIN (the kiosk may then exit). After ``FREE_PIN_TRIES`` wrong
        PINs the PIN is locked, 30 s at first and twice as long after each further wrong
        one (at most 15 minutes); while it is locked, or if the prompt was opened while it
        was, no PIN is even compared."""
        left = self.pin_lock_left()
        if left > 0 or self.staff_locked:
            self.staff_cancel()
            self.hint = (f"Staff PIN locked after {self.wrong_pins} wrong tries: try again in "
                         f"{_seconds(left)}." if left > 0 else
                         "The staff PIN lock is over: press F12 to type the PIN.")
            return False
        if hmac.compare_digest(pin.encode(), self.settings.pin.encode()):
            log.info("staff exit")
            self.wrong_pins = 0
            return True
        self.wrong_pins += 1
        self.staff_cancel()
        over = self.wrong_pins - FREE_PIN_TRIES
        if over <= 0:
            log.warning("wrong staff PIN entered (%s in a row)", self.wrong_pins)
            self.hint = "That PIN is not right."
            return False
        lock = min(PIN_LOCK_SECONDS * 2 ** (over - 1), PIN_LOCK_LIMIT)
        self.pin_locked_until = self.clock() + lock
        log.warning("wrong staff PIN entered (%s in a row): PIN locked for %s",
                    self.wrong_pins, _seconds(lock))
        self.hint = f"That PIN is not right. The staff PIN is locked for {_seconds(lock)}."
        return False


def _typed_result(paper: str) -> re.Match[str] | None:
    """The first result on ``paper`` that the UNIVAC typed (not on a keyed line)."""
    for match in RESULT_PATTERN.finditer(paper):
        start = paper.rfind("\n", 0, match.start()) + 1
        if not paper.startswith(KEYED_MARK, start):
            return match
    return None


def _seconds(seconds: float) -> str:
    whole = int(seconds + 0.999)
    return f"{whole} s" if whole < 120 else f"{(whole + 59) // 60} min"
