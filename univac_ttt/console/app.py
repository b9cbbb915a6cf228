"""The full-screen Supervisory Control console (prompt_toolkit), a thin shell over a session.

Layout: the printer paper on the left, the side panel (square codes, lamp, figures, score)
on the right when the terminal is wide enough, a hint line, the keyboard line and a key bar.
All game text on the paper comes from the program; the console only shows it, with the
operator's keyed entries marked apart. The paper scrolls back (PageUp/PageDown, the mouse
wheel); Up/Down recall earlier entries.

As in ptpython, the state and its actions are here (ConsoleApp), the layout in
app_layout.py and the key bindings in app_keys.py; the screen is drawn by the rows of
app_rows.py, only those that changed (tui/row_renderer.py).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import merge_key_bindings
from prompt_toolkit.output import Output

from ..desk.pacing import TypewriterPacer
from ..desk.paper import PrintedChunk
from ..desk.session import GameSession
from ..desk.tapelamps import loaded_note, tape_lamp, tape_seconds, unit_lines, work_note
from ..desk.transcript import Transcript
from ..hostio.atomic_files import create_new
from ..hostio.stdin_lines import KEYBOARD_LINE
from ..machine.charset import KEYBOARD_KEYS
from ..machine.timing import pulses_to_us, us_to_pulses
from ..program.pack import NO_PACK, Pack
from ..tui.guard import run_guarded, run_guarded_async
from ..tui.history import BoundedHistory, RecallBuffer
from ..tui.row_renderer import RowRenderer
from ..tui.shared import (
    basic_bindings,
    built_with_shared_defaults,
    merged_style,
    share_default_bindings,
)
from ..tui.static_layout import StaticLayout, StaticLayoutApplication
from .app_keys import console_bindings
from .app_layout import STYLE, ConsoleLayout
from .app_rows import ConsoleRows
from .paper_rows import PaperRows
from .paste import Paste
from .side_panel import PANEL_WIDTH

STILL_TYPING = "The UNIVAC is still typing; wait for the INPUT READY lamp."
REPLY_CHUNK = 200_000  # instructions run at once in a key handler (a reply takes ~1,600)
KEY_LINES = 200  # lines Up and Down recall (a served console or a kiosk types all day)
TYPEAHEAD_GRACE = 0.5  # seconds after a new game is shown in which older keys are dropped
LINE_FULL = (f"The keyboard line is full ({KEYBOARD_LINE} keys); a word keeps only the "
             "last twelve. Press Enter or Backspace.")


@dataclass
class ConsoleSettings:
    authentic: bool = False
    transcript: Path | None = None
    save_directory: Path | None = field(default_factory=Path.cwd)  # None: F4 saves nothing
    pack: Pack = NO_PACK  # the program's pack: title, help, card, key hint (none: --image)
    clock: Callable[[], float] = time.monotonic


class ConsoleApp:
    """The console's state and actions: the session, the pacer, the hint, the keyboard
    line, help and quitting; the prompt_toolkit application is built from its layout and
    key bindings."""

    def __init__(self, session_factory: Callable[[Callable[[PrintedChunk], None]], GameSession],
                 settings: ConsoleSettings, input: Input | None = None,
                 output: Output | None = None) -> None:
        self.settings = settings
        self.pacer = TypewriterPacer(settings.authentic, settings.clock)
        self.transcript = Transcript(settings.transcript) if settings.transcript else None
        self._transcript_said = False
        self._boot_started = settings.clock()  # the program tape is read from now on
        self._lamp = ""  # the Uniservo lamp on the hint line while the tape is read
        # Without a transcript the pacer itself takes the paper's pieces (a served reply's
        # twenty-odd words each went through one more call here).
        self.session = session_factory(self._printed if self.transcript is not None
                                       else self.pacer.add_printed)
        self.hint = ""
        self.hint_is_warning = False
        self.hint_log: deque[str] = deque(maxlen=50)  # what the hint line said, newest last
        self.running = False  # a reply longer than REPLY_CHUNK is running in the background
        self.quit_armed = False
        self.show_help = False
        self.help_top = 0  # the first help line shown when the screen is too short for all
        self.paper = PaperRows()
        self._hold_until: float | None = None  # a game ended: older type-ahead is dropped
        self._paste: Paste | None = None  # a paste's lines still to type (paste.py)
        self.keyboard_buffer = RecallBuffer(multiline=False, history=BoundedHistory(KEY_LINES))
        self._speed_changed = asyncio.Event()  # wakes the ticker, asleep in fast speed
        self.layout = ConsoleLayout(self)
        # The application's layout is the keyboard line alone, for focus and key bindings
        # (the screen is app_rows.py's rows; app_layout.py). It never changes:
        # prompt_toolkit's walks of it after every redraw are done once (tui/static_layout.py).
        with built_with_shared_defaults():  # one table for a server's hundreds of terminals
            self.app: Application[int] = StaticLayoutApplication(
                layout=StaticLayout(self.layout.keys_container(),
                                    focused_element=self.keyboard_buffer),
                key_bindings=merge_key_bindings([basic_bindings(), console_bindings()]),
                style=STYLE, full_screen=True, mouse_support=True,  # the wheel scrolls paper
                input=input, output=output, after_render=lambda _app: None,
                # A size change comes by SIGWINCH (play) or by the telnet or ssh session's
                # own notice (serve): no poll twice a second for every seated terminal.
                terminal_size_polling_interval=None,
            )
        self.app.console = self  # type: ignore[attr-defined]  # the bindings' (app_keys.py)
        share_default_bindings(self.app)
        # Drawn by rows that changed, not by prompt_toolkit's whole-screen pass (app_rows.py).
        self.rows = ConsoleRows(self)
        self.app.renderer = RowRenderer(merged_style(STYLE), self.app.output,
                                        self.rows.frame, mouse_support=True)
        self._sync_paper()

    # ---- paper -----------------------------------------------------------------------

    def _printed(self, chunk: PrintedChunk) -> None:
        if self.transcript is not None:
            self.transcript.write(chunk.text)
        self.pacer.add_printed(chunk)

    def _sync_paper(self) -> None:
        self.paper.sync(self.pacer.text)

    @property
    def paper_buffer(self) -> Buffer:
        """The paper in a read-only buffer (paper_rows.py fills it when it is read)."""
        return self.paper.buffer

    @property
    def typing(self) -> bool:
        return self.pacer.busy

    # ---- actions ---------------------------------------------------------------------

    def say(self, text: str, warning: bool = False) -> None:
        self.hint, self.hint_is_warning = text, warning
        if text:
            self.hint_log.append(text)

    def holding(self) -> bool:
        """True while keys typed ahead of a new game are dropped: from the end of a game
        until its reply and the new greeting are typed, and a moment after."""
        if self._hold_until is None:
            return False
        now = self.settings.clock()
        if self.typing:
            self._hold_until = now + TYPEAHEAD_GRACE
            return True
        if now < self._hold_until:
            return True
        self._hold_until = None
        return False

    def _dropped(self) -> None:
        self.say("That key was typed before the new game began; it was not used. "
                 "Type your first move now.", True)

    def _game_ended(self) -> None:
        """A result was typed: the program begins the next game by itself, so keys typed
        ahead (a paste, a fast typist) belong to the game that ended and are dropped until
        the new game is shown (``holding``). Function keys and quitting still work."""
        self.keyboard_buffer.reset()
        self._hold_until = self.settings.clock() + TYPEAHEAD_GRACE

    def submit(self, own: bool = True) -> bool:
        """Enter: release the keyboard line. True when the UNIVAC took it. Enter pressed by
        the player (``own``) drops what is left of a paste."""
        if own:
            self._paste = None
        text = self.keyboard_buffer.text
        if self.holding():
            self.keyboard_buffer.reset()
            self._dropped()
            return False
        if self.typing:
            self.say(STILL_TYPING, True)
            return False
        if self.session.error:
            self.say("The UNIVAC has stopped on an error. Press F2 for a new game.", True)
            return False
        if self.running:
            self.say("The UNIVAC is still running; Esc or Ctrl-C stops it (STOP).", True)
            return False
        self.pacer.start_reply()
        games = self.session.score.games
        result = self.session.release(text)
        if result.accepted:
            self.keyboard_buffer.append_to_history()
            self.keyboard_buffer.reset()
            self.paper.to_end()
            self.say("")
            if not self.session.run_reply(REPLY_CHUNK):
                self._run_on()  # a long reply: finish it without freezing the keys
            elif self.session.score.games > games:
                self._game_ended()
        else:
            self.say(result.message, True)
        if self.transcript is not None and self.transcript.error and not self._transcript_said:
            self._transcript_said = True  # said once here; cli says it again at exit
            error = self.transcript.error
            self.say(f"{error[:1].upper()}{error[1:]}; the game goes on.", True)
        self._sync_paper()
        return result.accepted

    def _run_on(self) -> None:
        self.running = True
        self.say("The UNIVAC is running a long time; Esc or Ctrl-C stops it (STOP).")

        async def finish() -> None:
            try:
                while not self.session.run_reply(REPLY_CHUNK):
                    await asyncio.sleep(0)  # let Esc and Ctrl-C in between chunks
            finally:
                self.running = False
            if self.session.error:
                self.say(f"The UNIVAC stopped: {self.session.error}. F2 starts a new game.",
                         True)
            self._sync_paper()
            self.paste_on()
            self.app.invalidate()

        self.app.create_background_task(finish())

    def stop_run(self) -> bool:
        """Esc or Ctrl-C during a long reply: the desk's STOP. False if nothing runs."""
        if not self.running:
            return False
        self.session.desk.stop_key()
        return True

    def _drop_paste(self) -> str:
        """A key of one's own: what is left of a paste is dropped; what it typed and why
        not the rest ("" if nothing was left of it)."""
        paste, self._paste = self._paste, None
        if paste is None or not paste.lines:
            return ""
        paste.lines.clear()
        paste.own = True
        return paste.note(KEYBOARD_LINE)

    def _say_dropped(self, note: str) -> None:
        if note:
            self.say(note, True)

    def type_key(self, data: str) -> None:
        dropped = self._drop_paste()
        if self.holding():
            self._dropped()
            return
        if data in KEYBOARD_KEYS:
            if len(self.keyboard_buffer.text) >= KEYBOARD_LINE:
                self.say(LINE_FULL, True)  # a paste sent as keys: each key redrew it all
                return
            self.keyboard_buffer.insert_text(data.upper())
            if self.hint_is_warning:
                self.say("")
            self._say_dropped(dropped)
        else:
            self.refuse(repr(data) if data.isprintable()
                        else f"U+{ord(data[0]):04X}" if data else "'?'")

    def refuse(self, key: str) -> None:
        """A key the UNIVAC keyboard lacks: refused on the spot, nothing typed."""
        self._paste = None
        hint = self.settings.pack.key_hint
        then = f" {hint[:1].upper()}{hint[1:]}." if hint else ""
        self.say(f"The UNIVAC keyboard has no {key} key.{then}", True)

    def paste(self, data: str) -> None:
        """A paste types its lines one after another, as the class page does (paste.py)."""
        if self.holding():
            self._dropped()
            return
        self._paste = Paste(data)
        self.paste_on()

    def paste_on(self) -> None:
        """Type what is left of a paste while the UNIVAC waits for its keyboard: a line to
        release once the last reply is typed (INPUT READY), a last line without a line end
        at once. The ticker calls it when a reply is typed, and a long run when it ends."""
        paste = self._paste
        if paste is not None and paste.left is not None \
                and paste.left != self.keyboard_buffer.text:
            self._say_dropped(self._drop_paste())  # the player edited the line meanwhile
            return
        while paste is not None and paste.lines:
            if self.holding():  # a game ended: the rest was for it
                paste.ended = True
                paste.lines.clear()
                break
            keys, released = paste.lines[0]
            if released and (self.typing or self.running or self.session.error
                             or not self.session.waiting_for_keyboard):
                paste.left = self.keyboard_buffer.text
                return  # the next line waits for INPUT READY
            paste.lines.popleft()
            room = max(0, KEYBOARD_LINE - len(self.keyboard_buffer.text))
            self.keyboard_buffer.insert_text(paste.type_line(keys, room))
            if released:
                if not self.submit(own=False):
                    paste.refused = self.hint
                    paste.lines.clear()
                    break
                paste.used += 1
        if paste is not None and not paste.lines:
            self._paste = None
            note = paste.note(KEYBOARD_LINE)
            if note:
                self.say(note, True)

    def new_game(self) -> None:
        if self.running:
            self.say("The UNIVAC is still running; Esc stops it first.", True)
            return
        self.pacer.finish()
        self.pacer.start_reply()
        self._boot_started = self.settings.clock()
        self.keyboard_buffer.reset()  # keys typed for the old game are not the new one's
        self._paste = None
        self.session.new_game()
        self._hold_until = None
        self.paper.to_end()
        self.say("A new game has started." if self.settings.pack.scores
                 else "The program was loaded again and started.")
        self._sync_paper()

    def toggle_speed(self) -> None:
        authentic = not self.pacer.authentic
        self.pacer.set_authentic(authentic)
        self.say("Typing at the typewriter's own speed." if authentic else "Typing at once.")
        self._sync_paper()
        self.paste_on()  # typed at once: a paste's next line need not wait for the ticker
        self._speed_changed.set()

    def save_paper(self) -> Path | None:
        if self.settings.save_directory is None:
            self.say("This terminal cannot save files; ask for the printout instead.", True)
            return None
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        try:  # whole, and never over an earlier save from the same second
            path = create_new(self.settings.save_directory, f"univac-paper-{stamp}", ".txt",
                              self.session.paper)
        except OSError as exc:
            folder = self.settings.save_directory.resolve()
            self.say(f"Could not save the paper in {folder} (F4 saves in the folder where "
                     f"univac-ttt was started): {exc.strerror or exc}.", True)
            return None
        self.say(f"The paper was saved to {path.resolve()} (F4 saves in the folder where "
                 "univac-ttt was started).")
        return path

    def request_quit(self, key: str) -> None:
        if self.quit_armed:
            self.app.exit(result=0)
            return
        self.quit_armed = True
        self.say(f"Press {key} again to quit; any other key goes on playing.", True)

    def show_tape_lamp(self) -> bool:
        """In authentic speed, while a tape moves (as the machine's clock timed it: the
        program tape at the boot, then any reel the program reads or writes), the hint line
        shows the Uniservos' lamps block by block, then a note of the load, or of the
        program's tape work. True when the hint changed. In fast speed it is all instant."""
        if not self.pacer.authentic or not self.session.boot_moves:
            return False
        moves = self.session.desk.tape_moves
        lamp = tape_lamp(moves, self._replay_seconds())
        if lamp == self._lamp:
            return False
        if lamp:
            # "Press Ctrl-Q again to quit" stays until answered, and a warning about the
            # player's own key (Enter while the tape is read: "still typing") until the next
            # key: the next block's lamp wrote over it within a tenth of a second
            if not self.quit_armed and not self.hint_is_warning:
                self.say(lamp)
        elif self.hint == self._lamp:  # the tapes are at rest and nothing else was said since
            boot_end = self.session.boot_pulses
            work = work_note([m for m in moves if m.start >= boot_end])
            self.say(work or loaded_note(self.session.boot_moves, self.session.tape.name))
        self._lamp = lamp
        return True

    def _replay_seconds(self) -> float:
        """The UNIVAC time the screen shows now: in authentic speed the run since the boot
        is replayed at its own pace (tapes go on moving after the machine stops: a rewind
        runs beside the computer); in fast speed the present, with every tape that is
        still moving already at rest, as everything is instant there."""
        if not self.pacer.authentic:
            present = pulses_to_us(self.session.machine.pulses) / 1_000_000
            return max(present, tape_seconds(self.session.desk.tape_moves) + 1e-6)
        return self.settings.clock() - self._boot_started

    def uniservo_lines(self) -> list[str]:
        """The panel's Uniservo lines for a program with reels of its own (not just the
        program tape on Uniservo 1), as the lamps stand at the time shown."""
        views = [v for v in self.session.desk.tape_units() if v.unit != 1]
        if not views:
            return []
        pulses = us_to_pulses(self._replay_seconds() * 1_000_000)
        return unit_lines([(v.unit, v.reel, v.blocks) for v in views],
                          self.session.desk.tape_moves, pulses, PANEL_WIDTH)

    async def _ticker(self) -> None:
        """Type paced text as it falls due; sleep longer when nothing is typing. Paper
        scrolled back stays put while the UNIVAC types, and comes back to the newest line
        when the typing ends (INPUT READY). In fast speed everything is typed at once and
        tapes are at rest at once, so nothing falls due: the ticker sleeps until F3 (a
        seated terminal at rest costs nothing, not five wake-ups a second)."""
        try:
            while True:
                typing = self.pacer.busy
                if self.pacer.advance() | self.show_tape_lamp():
                    self._sync_paper()
                    if typing and not self.pacer.busy:
                        self.paper.to_end()  # the reply is typed: its newest line shows
                        if self.hint == STILL_TYPING:  # INPUT READY: the wait is over
                            self.say("")
                        self.paste_on()  # a paste's next line
                    self.app.invalidate()
                if self.pacer.busy:
                    await asyncio.sleep(0.03)
                elif self.pacer.authentic:
                    await asyncio.sleep(0.2)  # the tapes' lamps, which run on after a stop
                else:
                    self._speed_changed.clear()
                    await self._speed_changed.wait()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - end the app cleanly, never a traceback
            self.app.exit(exception=exc)

    async def run_async(self) -> int:
        """Run on the caller's event loop (a server's connection): no signal or loop handlers."""
        def start() -> None:
            self.app.create_background_task(self._ticker())

        try:
            result = await run_guarded_async(self.app, start)
        finally:
            if self.transcript is not None:
                self.transcript.close()
        return int(result or 0)

    def run(self) -> int:
        def start() -> None:
            self.app.create_background_task(self._ticker())

        try:
            result = run_guarded(self.app, start)
        finally:
            if self.transcript is not None:
                self.transcript.close()
        return int(result or 0)
