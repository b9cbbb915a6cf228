"""One browser tab's UNIVAC: its own desk, the keys it sends, the paper and lamps it shows.

A tab sends keys (a square code, ERASE, WORD RELEASE, NEW GAME); everything it shows comes
from the desk: paper pieces as the typewriter typed them (with the UNIVAC time the program
spent before each, so the page can type at the typewriter's pace) and the lamps, the board
kept in memory, the time of the last move and the score. ``GameTab`` is a class's tab (a
GameSession); ``MuseumTab`` is the exhibit's, driven by the museum controller (attract
mode, idle reset, captions, tally, printouts, staff PIN).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..desk.neons import neons_for
from ..desk.paper import PrintedChunk
from ..desk.session import GameSession
from ..desk.transcript import Transcript
from ..machine import MachineOptions
from ..machine.charset import KEYBOARD_KEYS
from ..machine.timing import format_time, pulses_to_us
from ..museum.controller import DEMONSTRATION, Kiosk, KioskSettings, Mode
from .program import WebProgram

Message = dict[str, Any]
Send = Callable[[Message], None]

RESULT_NAMES = ("univac", "draw", "opponent")  # in the order of results()
WORD_CHARACTERS = 12  # a UNIVAC word: the keyboard line holds at most this many keys
RUN_CHUNK = 20_000  # instructions run between looks at the event loop (a long reply)
COMMANDS = ("Enter", "Backspace", "NewGame", "Staff", "Escape")
STILL_TYPING = "The UNIVAC is still typing. Wait for INPUT READY."
NO_SUCH_KEY = "The UNIVAC keyboard has no key for {key!r}."
WORD_FULL = "A word is twelve characters: press WORD RELEASE or ERASE."
YOUR_TURN = "Your move. The UNIVAC's last step: {step}"  # the caption at INPUT READY


def your_turn(caption: str) -> str:
    """The caption once the UNIVAC waits for the player: their turn, then the step that
    led there (it read as what the UNIVAC was still doing)."""
    if len(caption) > 1 and caption[1].islower():
        caption = caption[0].lower() + caption[1:]
    return YOUR_TURN.format(step=caption)


def paper_message(chunk: PrintedChunk) -> Message:
    """A piece of paper for the page: the text and the UNIVAC time before it was typed."""
    return {"t": "paper", "text": chunk.text, "keyed": chunk.keyed,
            "delay": round(pulses_to_us(chunk.since_release) / 1_000_000, 6)}


class GameTab:
    """A class's tab: one player at their own desk."""

    museum = False

    def __init__(self, program: WebProgram, send: Send, *, authentic: bool,
                 transcript: Path | None = None,
                 options: MachineOptions | None = None) -> None:
        self.program = program
        self.send = send
        self.authentic = authentic
        self.line = ""
        self.hint = ""
        self.staff_exit = False
        self.transcript = Transcript(transcript) if transcript is not None else None
        self._scored = (0, 0, 0)  # the score the page was last sent
        self._live = False
        self.caption = ""  # what the UNIVAC's last decision was, from the captions' addresses
        self.session = GameSession.from_pack(program.pack, options, self._printed,
                                             program.caption_addresses())

    def _printed(self, chunk: PrintedChunk) -> None:
        if self.transcript is not None:
            self.transcript.write(chunk.text)
        if self._live:  # (the greeting typed while the desk was built goes in greeting())
            self.send(paper_message(chunk))

    def hello(self) -> Message:
        program = self.program
        return {"t": "hello", "name": program.name, "title": program.title,
                "help": program.help, "key_hint": program.key_hint,
                "authentic": self.authentic, "museum": self.museum,
                "word": WORD_CHARACTERS}

    def greeting(self) -> list[Message]:
        """What a new tab is sent first: the greeting already typed, then the state."""
        self._live = True
        return [{"t": "paper", "text": self.session.paper, "keyed": False, "delay": 0.0},
                self.state()]

    def results(self) -> tuple[int, int, int]:
        return self.session.score.game_results()

    # ---- keys ------------------------------------------------------------------------

    async def key(self, key: str) -> None:
        """One key from the page (a character or one of COMMANDS)."""
        self.hint = ""
        if key == "Enter":
            await self._release(self.line)
        elif key == "Backspace":
            self.line = self.line[:-1]
        elif key == "NewGame":
            self.line = ""
            self.caption = ""
            self.session.new_game()
        elif key in ("Staff", "Escape"):
            pass
        else:
            self._type(key)
        self.send(self.state())

    def _type(self, key: str) -> None:
        if key not in KEYBOARD_KEYS:
            self.hint = NO_SUCH_KEY.format(key=key)
        elif len(self.line) >= WORD_CHARACTERS:
            self.hint = WORD_FULL
        else:
            self.line += key.upper()

    async def _release(self, text: str) -> None:
        submission = self.session.release(text)
        if not submission.accepted:
            self.hint = submission.message
            return
        self.line = ""
        while not self.session.run_reply(RUN_CHUNK):
            await asyncio.sleep(0)  # a long run lets every other tab be served
        if self.session.noticed:
            self.caption = self.session.noticed[-1]

    async def pin(self, pin: str) -> None:
        self.hint = "There is no staff PIN here."
        self.send(self.state())

    def tick(self) -> bool:
        return False

    def close(self) -> None:
        self.session.desk.stop_key()
        if self.transcript is not None:
            self.transcript.close()

    # ---- what the page shows ---------------------------------------------------------

    def state(self) -> Message:
        """Lamps and figures. ``after`` is shown once the paper before it is typed."""
        session = self.session
        scores = self.results()
        ended = [name for name, now, before in zip(RESULT_NAMES, scores, self._scored,
                                                   strict=True) if now > before]
        self._scored = scores
        figures = session.last_move
        neons = neons_for(session.stop)
        message = {"t": "state", "line": self.line, "hint": self.hint,
                   "caption": self.caption, "mode": "playing", "after": {
                       "ready": session.waiting_for_keyboard, "neons": neons.lit(),
                       "error": session.error or "",
                       "board": self.program.board(session.machine.mem),
                       "move": format_time(figures.time_us) if figures.instructions else "",
                       "instructions": figures.instructions,
                       "score": list(scores), "result": ended[-1] if ended else None}}
        if ended and not self.museum:
            # The caption explains the game's last decision while its end is typed; once
            # the next game's greeting is typed (``after``) it is that game's: none yet,
            # as at the first game (it stayed until the next move).
            message["after"]["caption"] = self.caption = ""
        elif self.caption and session.waiting_for_keyboard and not self.museum:
            # once the reply is typed and INPUT READY is lit, it is the player's turn: the
            # caption says so first (the museum's says "Your move" over its keys)
            message["after"]["caption"] = your_turn(self.caption)
        return message


class MuseumTab(GameTab):
    """The exhibit's tab: the museum controller runs the game, demonstrations and tally."""

    museum = True

    def __init__(self, program: WebProgram, send: Send, settings: KioskSettings,
                 transcript: Path | None = None) -> None:
        self.program = program
        self.send = send
        self.authentic = settings.authentic
        self.line = ""
        self.hint = ""
        self.staff_exit = False
        self.transcript = Transcript(transcript) if transcript is not None else None
        self._scored = (0, 0, 0)
        self._live = False
        self.caption = ""
        self.kiosk = Kiosk(program.words, program.program, settings, program.boot_tape())
        self.session = self.kiosk.session
        self.session.desk.paper.listeners.append(self._printed)
        self._shown: tuple[Any, ...] = ()

    def hello(self) -> Message:
        return {**super().hello(), "idle": self.kiosk.settings.idle_seconds}

    async def key(self, key: str) -> None:
        kiosk = self.kiosk
        if key == "Staff":
            kiosk.staff_begin()
        elif key == "Escape":
            kiosk.staff_cancel()
        elif kiosk.mode is Mode.STAFF:
            pass  # only the PIN box, Esc or its time-out end the staff prompt
        elif key == "NewGame":
            self.line = ""
            kiosk.new_game()
        elif kiosk.activity():
            self.line = ""  # the key woke the exhibit: a fresh game, the key used up
        elif key == "Enter":
            if kiosk.submit(self.line):
                self.line = ""
        elif key == "Backspace":
            self.line = self.line[:-1]
        elif kiosk.pacer.busy:
            kiosk.hint = STILL_TYPING  # keys typed ahead would land in the next game
        elif key not in "123456789" or len(key) != 1:
            kiosk.hint = "Only square codes: the digits 1 to 9."
        elif len(self.line) >= WORD_CHARACTERS:
            kiosk.hint = WORD_FULL
        else:
            self.line += key
            kiosk.hint = ""
        self.send(self.state())

    async def pin(self, pin: str) -> None:
        kiosk = self.kiosk
        if kiosk.mode is not Mode.STAFF:
            kiosk.staff_begin()
        if kiosk.mode is Mode.STAFF and kiosk.staff_pin(pin):
            self.staff_exit = True
        self.send(self.state())

    def tick(self) -> bool:
        """Time passing: typing, idle reset, attract mode; True when the page was sent news."""
        before = self.kiosk.mode
        changed = self.kiosk.tick() or self.kiosk.mode is not before
        shown = self._visible()
        if changed or shown != self._shown:
            if self.kiosk.mode is not Mode.PLAYING:
                self.line = ""
            self.send(self.state())
            return True
        return False

    def _visible(self) -> tuple[Any, ...]:
        kiosk = self.kiosk
        return (kiosk.mode, kiosk.shown_caption, kiosk.hint, kiosk.your_move,
                kiosk.input_ready)

    def state(self) -> Message:
        message = super().state()
        kiosk = self.kiosk
        self._shown = self._visible()
        today = kiosk.tally.today()
        # The whole time a demonstration plays, the line over the keys says so, as the
        # terminal kiosk's key bar does: its captions soon explain moves like a visitor's.
        demonstrating = kiosk.mode is Mode.ATTRACT and not kiosk.hint
        message.update(hint=DEMONSTRATION if demonstrating else kiosk.hint,
                       caption=kiosk.shown_caption, mode=kiosk.mode.value,
                       your_move=kiosk.your_move, pin_locked=round(kiosk.pin_lock_left()),
                       tally={"games": today.games, "univac_wins": today.univac_wins,
                              "draws": today.draws, "opponent_wins": today.opponent_wins,
                              "demonstrations": today.demonstrations})
        message["after"]["ready"] = (kiosk.mode is Mode.PLAYING
                                     and self.session.waiting_for_keyboard)
        return message
