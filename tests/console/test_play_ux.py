"""The player's and the museum's part of issue 13, without a terminal: keyed entries on the
paper, paced plain output, scrolling, control keys, type-ahead, another program's panel,
the kiosk's captions, keyed X and staff PIN lockout."""

import io

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tests.support.fake_clock import FakeClock
from univac_ttt.console.app import ConsoleApp, ConsoleSettings
from univac_ttt.console.plain import PlainConsole
from univac_ttt.console.side_panel import figures_text, render_panel
from univac_ttt.desk import Desk
from univac_ttt.desk.paper import KEYED_MARK
from univac_ttt.desk.session import GameSession
from univac_ttt.kiosk.app import KioskApp
from univac_ttt.kiosk.bigboard import big_board, board_size
from univac_ttt.machine.charset import KEYBOARD_KEYS
from univac_ttt.museum.controller import (
    GREETING,
    NEW_GAME,
    WELCOME,
    Kiosk,
    KioskSettings,
    Mode,
)
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.tictactoe import load_tictactoe

SHIPPED = load_tictactoe()
TTT = shipped_pack("tictactoe")
WORDS = SHIPPED.image.words
CTRL_Q, CTRL_C, CTRL_Z = "\x11", "\x03", "\x1a"
PAGE_UP, PAGE_DOWN = "\x1b[5~", "\x1b[6~"


# ---- the keyed entry on the paper -------------------------------------------------------

def test_the_keyed_mark_is_no_character_the_typewriter_has():
    assert ">" not in KEYBOARD_KEYS and KEYED_MARK == "> "


def test_a_keyed_entry_is_its_own_marked_line_between_the_univacs_text():
    session = GameSession(WORDS)
    session.submit("5")
    lines = session.paper.splitlines()
    keyed = [line for line in lines if line.startswith(KEYED_MARK)]
    assert keyed == ["> 5"]
    at = lines.index("> 5")
    assert lines[at - 1] == "   7   8   9" and lines[at + 2] == "   O   2   3"
    typed = session.desk.paper.typed_since(0)
    assert "> 5" not in typed and "NEW GAME" in typed


def test_an_entry_that_spells_a_result_never_counts_as_one():
    session = GameSession(WORDS)
    session.submit("YOU WIN")  # the program warns; the keyed line holds the phrase
    assert "> YOU WIN" in session.paper and "NOT A SQUARE CODE" in session.paper
    assert session.score.games == 0


def test_blanks_at_the_ends_of_a_line_are_not_keyed_and_blanks_inside_are():
    """"5 " got the program's NOT A SQUARE CODE though the paper showed "> 5" (the seventh
    round's trial); the monitor's type had always dropped them. The program still judges
    what is keyed: a blank between two keys reaches it."""
    session = GameSession(WORDS)
    session.submit("5 ")
    assert "NOT A SQUARE CODE" not in session.paper and "   O   2   3" in session.paper
    assert session.paper.splitlines().count("> 5") == 1
    session.submit(" \t9")  # a tab at an end is a blank too, not a refused key
    assert "NOT A SQUARE CODE" not in session.paper
    session.submit("3 7")
    assert "> 3 7" in session.paper and "NOT A SQUARE CODE" in session.paper


def test_a_refused_entry_leaves_the_paper_as_it_was():
    session = GameSession(WORDS)
    before = session.paper
    assert not session.submit("é").accepted
    assert session.paper == before


# ---- the plain console ------------------------------------------------------------------

class Pipe(io.StringIO):
    def isatty(self):
        return False


class Tty(io.StringIO):
    def isatty(self):
        return True


def plain(stdin, authentic=False, sleeps=None):
    out, err = io.StringIO(), io.StringIO()
    console = PlainConsole(Desk(WORDS), stdin, out, err, authentic=authentic,
                           sleep=(sleeps.append if sleeps is not None else lambda s: None))
    result = console.run()
    return out.getvalue(), err.getvalue(), result


def test_piped_entries_are_echoed_after_the_prompt_and_the_end_has_its_own_line():
    out, _, result = plain(Pipe("5\n"))
    assert "> 5\n\n   O   2   3" in out
    assert out.endswith("> \n") and result.stop is None


def test_a_piped_line_with_a_trailing_blank_is_played():
    out, err, _ = plain(Pipe("5 \n"))
    assert "   O   2   3" in out and "NOT A SQUARE CODE" not in out and err == ""


def test_a_terminal_has_echoed_the_entry_itself():
    out, _, _ = plain(Tty("5\n"))
    assert "> 5" not in out and "> \n   O   2   3" in out


def test_authentic_plain_output_is_paced_by_the_typewriter():
    sleeps = []
    out, _, _ = plain(Pipe("5\n"), authentic=True, sleeps=sleeps)
    fast, _, _ = plain(Pipe("5\n"))
    assert out == fast
    typed = out[:-len("> \n")].replace("> 5\n", "")  # the UNIVAC's text only
    assert sleeps.count(0.3) == typed.count("\n")  # a carriage return takes longer
    assert sleeps.count(0.1) == len(typed) - typed.count("\n")
    assert 0 < sum(s for s in sleeps if s not in (0.1, 0.3)) < 1  # the UNIVAC's decisions


def test_the_transcript_sink_gets_the_keyed_entries():
    out, err = io.StringIO(), io.StringIO()
    console = PlainConsole(Desk(WORDS), Tty("5\n"), out, err)
    kept = []
    console.also_print_to(kept.append)
    console.run()
    assert "> 5\n" in "".join(kept)


# ---- the full-screen console ------------------------------------------------------------

def run_console(keys, settings=None, words=WORDS, output=None):
    settings = settings or ConsoleSettings(pack=TTT)
    with create_pipe_input() as pipe:
        def session(on_print):
            if settings.pack.folder:
                return GameSession.from_pack(settings.pack, on_print=on_print)
            return GameSession(words, on_print=on_print)

        console = ConsoleApp(session, settings,
                             input=pipe, output=output or DummyOutput())
        pipe.send_text(keys)
        code = console.run()
    return console, code


def test_ctrl_z_is_refused_as_it_is_typed_and_cancels_a_quit():
    console, code = run_console(CTRL_Z + CTRL_C + CTRL_Z + CTRL_Q + CTRL_Q)
    assert code == 0 and console.keyboard_buffer.text == ""
    assert sum("no Ctrl-Z key" in said for said in console.hint_log) == 2
    # Ctrl-C armed the quit, Ctrl-Z disarmed it: only the two Ctrl-Q quit
    assert console.hint_log.count("Press Ctrl-Q again to quit; any other key goes on "
                                  "playing.") == 1


def test_the_full_screen_console_plays_a_line_with_a_trailing_blank():
    console, _ = run_console("5 \r" + CTRL_Q + CTRL_Q)
    assert "\n> 5\n" in console.paper_buffer.text
    assert "   O   2   3" in console.paper_buffer.text
    assert "NOT A SQUARE CODE" not in console.paper_buffer.text


def test_the_keyboard_line_holds_200_keys_typed_or_pasted():
    """A 200,000-key paste sent as keys (tmux paste-buffer, a terminal without bracketed
    paste) grew the line without end: each key redrew it, and the console passed 900 MB."""
    from univac_ttt.console.app import LINE_FULL

    console, _ = run_console("9" * 260 + "\r" + CTRL_Q + CTRL_Q)
    keyed = [line for line in console.paper_buffer.text.split("\n")
             if line.startswith(KEYED_MARK)]
    assert keyed == [KEYED_MARK + "9" * 200]
    assert LINE_FULL in console.hint_log and "200 keys" in LINE_FULL
    console, _ = run_console("1" * 150 + "\x1b[200~" + "9" * 100 + "\x1b[201~"
                             + CTRL_Q + CTRL_Q)
    assert console.keyboard_buffer.text == "1" * 150 + "9" * 50
    assert any("holds 200 keys" in said for said in console.hint_log)


def test_enter_after_the_merge_has_stopped_says_so_in_a_sentence():
    """The hint read "the UNIVAC is not waiting for the keyboard" (the session's words,
    lower case, no stop) after the tape merge's final stop."""
    console, _ = run_console("5\r" + CTRL_Q + CTRL_Q,
                             ConsoleSettings(pack=shipped_pack("merge")))
    assert "The UNIVAC is not waiting for the keyboard; nothing was sent." in console.hint_log
    session = GameSession(WORDS)
    assert session.submit("é").message == ("The UNIVAC keyboard has no key for 'é'; nothing "
                                            "was sent.")


def test_the_keyed_entry_shows_on_the_console_paper():
    console, _ = run_console("5\r" + CTRL_Q + CTRL_Q)
    assert "\n> 5\n" in console.paper_buffer.text


def test_type_ahead_from_a_finished_game_is_not_played_in_the_next():
    # 2 8 1 loses at once to the UNIVAC; 3 7 arrive in the same burst, typed ahead
    console, _ = run_console("2\r8\r1\r3\r7\r" + CTRL_Q + CTRL_Q,
                             ConsoleSettings(clock=FakeClock(), pack=TTT))
    assert console.session.score.univac_wins == 1
    assert console.session.words_typed == 3
    new_game = console.session.paper.rsplit("NEW GAME", 1)[1]
    assert KEYED_MARK not in new_game  # nothing was keyed into the new game
    assert any("before the new game began" in said for said in console.hint_log)


def test_f2_drops_the_keys_typed_for_the_old_game():
    """A 5 typed while the UNIVAC was still typing (refused at Enter) stayed on the keyboard
    line across F2: the new game's first 5 was keyed as 55, a bad code. The monitor's boot
    and the kiosk's demonstrations drop such a line; F2 now does too."""
    f2 = "\x1bOQ"
    console, _ = run_console("7" + f2 + "5\r" + CTRL_Q + CTRL_Q,
                             ConsoleSettings(clock=FakeClock(), pack=TTT))
    assert console.session.words_typed == 1
    keyed = [line for line in console.session.paper.splitlines()
             if line.startswith(KEYED_MARK)]
    assert keyed == [KEYED_MARK + "5"]
    assert "NOT A SQUARE CODE" not in console.session.paper


def test_after_the_pause_the_next_game_takes_keys_again():
    clock = FakeClock()
    console = None
    with create_pipe_input() as pipe:
        console = ConsoleApp(lambda on_print: GameSession.from_pack(TTT, on_print=on_print),
                             ConsoleSettings(clock=clock, pack=TTT), input=pipe,
                             output=DummyOutput())
        for move in "281":
            console.keyboard_buffer.text = move
            console.submit()
        assert console.holding()
        clock.now += 1.0
        assert not console.holding()
        console.keyboard_buffer.text = "5"
        console.submit()
    assert console.session.words_typed == 4


def test_another_program_shows_no_game_title_square_codes_or_score():
    # what the console shows depends on the pack, not on reading the program
    console, _ = run_console(CTRL_Q + CTRL_Q, ConsoleSettings())
    panel = render_panel(console.session, False, False)
    assert "square codes" not in panel and "draws" not in panel and "INPUT READY" in panel
    assert "TIC-TAC-TOE" not in console.layout.title_text()[0][1]
    assert "square code" not in console.layout.panel_text().value
    ttt, _ = run_console(CTRL_Q + CTRL_Q)
    assert "TIC-TAC-TOE" in ttt.layout.title_text()[0][1]


def test_figures_never_run_together():
    session = GameSession(WORDS)
    session.last_move.instructions = 5_000_000
    session.last_move.pulses = 10**13
    lines = figures_text(session).plain.splitlines()
    last = next(i for i, line in enumerate(lines) if line.startswith("last move"))
    assert lines[last].split() == ["last", "move", "5,000,000"]
    assert lines[last + 1].strip().endswith(" s")  # the long time on a line of its own
    assert all(len(line) <= 30 for line in lines)
    assert lines[last + 2].split()[:2] == ["this", "game"]


def test_f4_names_the_whole_path(tmp_path):
    console, _ = run_console("5\r\x1bOS" + CTRL_Q + CTRL_Q,
                             ConsoleSettings(save_directory=tmp_path, pack=TTT))
    said = next(s for s in console.hint_log if "saved" in s)
    saved = next(tmp_path.glob("univac-paper-*.txt"))
    assert str(saved.resolve()) in said
    assert "> 5" in saved.read_text()


# ---- the kiosk ----------------------------------------------------------------------------

@pytest.fixture
def kiosk(tmp_path):
    clock = FakeClock()
    settings = KioskSettings(pin="2468", printouts=tmp_path / "printouts",
                             stats=tmp_path / "tally.json", idle_seconds=60, authentic=True,
                             first_demo=0, clock=clock)
    return Kiosk(WORDS, SHIPPED.program, settings)


def type_out(kiosk):
    while kiosk.pacer.busy:
        kiosk.settings.clock.now += 0.5
        kiosk.tick()


def test_the_caption_says_the_univac_is_typing_until_the_visitor_can_type(kiosk):
    assert kiosk.pacer.busy and kiosk.shown_caption == GREETING
    type_out(kiosk)
    assert kiosk.shown_caption == WELCOME


def test_the_visitors_x_is_on_the_big_board_when_enter_is_pressed(kiosk):
    type_out(kiosk)
    assert kiosk.submit("5")
    assert kiosk.pacer.busy and kiosk.board == (0,) * 9  # the reply is not typed yet
    assert kiosk.shown_keyed == 5
    drawn = big_board(kiosk.board, 1, kiosk.shown_keyed)
    assert drawn != big_board(kiosk.board) and "5" not in "".join(drawn[6:11])
    type_out(kiosk)
    assert kiosk.shown_keyed is None and kiosk.board[4] == 1  # now from the UNIVAC's paper


def test_a_keyed_square_already_taken_is_not_drawn(kiosk):
    type_out(kiosk)
    kiosk.submit("5")
    type_out(kiosk)
    board = kiosk.board
    kiosk.submit("1")  # O took 1
    assert big_board(board, 1, kiosk.shown_keyed) == big_board(board)


def test_after_a_game_the_caption_says_a_new_one_has_begun(kiosk):
    type_out(kiosk)
    for move in "281":
        kiosk.submit(move)
        type_out(kiosk)
    assert kiosk.tally.today().univac_wins == 1
    assert kiosk.shown_caption == NEW_GAME


def test_wrong_pins_lock_the_pin_for_longer_each_time(kiosk, caplog):
    clock = kiosk.settings.clock
    for _ in range(2):
        kiosk.staff_begin()
        assert not kiosk.staff_pin("0000")
    assert kiosk.pin_lock_left() == 0
    kiosk.staff_begin()
    assert not kiosk.staff_pin("0000")
    assert kiosk.pin_lock_left() == 30
    kiosk.staff_begin()  # a notice that takes every key: no PIN can be typed
    assert kiosk.mode is Mode.STAFF and kiosk.staff_locked and "locked" in kiosk.hint
    assert not kiosk.staff_pin("2468")  # even the right PIN waits out the lock
    assert kiosk.mode is Mode.PLAYING and "locked" in kiosk.hint
    clock.now += 31
    kiosk.staff_begin()
    assert not kiosk.staff_pin("1111")
    assert kiosk.pin_lock_left() == 60  # doubled
    clock.now += 61
    kiosk.staff_begin()
    assert kiosk.staff_pin("2468") and kiosk.wrong_pins == 0
    assert any("locked for 30 s" in r.getMessage() for r in caplog.records)


def test_the_lock_never_exceeds_fifteen_minutes(kiosk):
    for _ in range(20):
        kiosk.settings.clock.now += 1000
        kiosk.staff_begin()
        kiosk.staff_pin("0000")
    assert kiosk.pin_lock_left() == 900


def app_at(kiosk, columns, rows):
    from prompt_toolkit.data_structures import Size

    class Sized(DummyOutput):
        def get_size(self):
            return Size(rows=rows, columns=columns)

    with create_pipe_input() as pipe:
        return KioskApp(kiosk, input=pipe, output=Sized())


@pytest.mark.parametrize("columns, rows, scale", [(80, 24, 1), (160, 48, 2)])
def test_captions_wrap_at_words_with_one_indent(kiosk, columns, rows, scale):
    app = app_at(kiosk, columns, rows)
    assert app.scale() == scale and app.left_width() == board_size(scale)[0] + 3
    kiosk.caption = ("Scanning for an element with one O and two blanks: a move that forces "
                     "a reply.")
    type_out(kiosk)
    lines = app.caption_lines()
    words = kiosk.caption.split()
    assert " ".join(line.strip() for line in lines).split() == words  # no word cut
    assert all(line.startswith(" ") and not line.startswith("  ") for line in lines)
    assert all(len(line) <= app.left_width() - 2 for line in lines)
    body = rows - 4
    assert board_size(scale)[1] + len(lines) <= body  # the board and caption fit


@pytest.mark.parametrize("columns, rows", [(100, 41), (70, 24), (160, 48)])
def test_the_paper_beside_the_board_wraps_at_words(kiosk, columns, rows):
    """Beside the large board at 100x41 (and the small one at 70 columns) the paper's column
    is narrower than the typewriter's lines: they wrap at words, none cut mid-word."""
    app = app_at(kiosk, columns, rows)
    type_out(kiosk)
    assert kiosk.submit("5")
    type_out(kiosk)
    app._sync()
    width = app.paper_width()
    assert width == columns - app.left_width() - 2
    shown, typed = app.paper_buffer.text.split("\n"), kiosk.pacer.text
    assert all(len(line) <= width for line in shown)
    assert " ".join(shown).split() == typed.split()  # every word whole, none lost
    assert any(len(line) > width for line in typed.split("\n")) == (len(shown) > len(
        typed.split("\n")))


@pytest.mark.parametrize("close, still_open", [("", True), ("\r", False), ("\x1b", False)])
def test_kiosk_help_says_how_to_close_it_and_those_keys_do(kiosk, close, still_open):
    from univac_ttt.kiosk.app import KIOSK_HELP

    assert KIOSK_HELP.endswith("Press Enter or Esc to close this help.")
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=DummyOutput())
        pipe.send_text("\x1bOP" + close + "\x1b[24~" + "2468\r")  # F1, the key, F12, PIN
        assert app.run() == 0
    assert app.show_help is still_open


def test_kiosk_keys_typed_while_the_univac_types_are_not_kept(kiosk):
    assert kiosk.pacer.busy  # the greeting is being typed (the fake clock stands still)
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=DummyOutput())
        pipe.send_text("37\r" + "\x1b[24~" + "2468\r")
        assert app.run() == 0
    assert app.keyboard_buffer.text == "" and kiosk.session.words_typed == 0


def test_the_still_typing_hint_goes_once_input_ready_lights(kiosk):
    """A move keyed while the greeting types is refused with a hint to wait; once the
    greeting is typed (INPUT READY) the hint goes and "Your move" shows (found by a user
    trial: the hint stayed over the lit lamp)."""
    from univac_ttt.museum.controller import STILL_TYPING

    assert kiosk.pacer.busy
    assert not kiosk.submit("5")
    assert kiosk.hint == STILL_TYPING
    type_out(kiosk)
    assert kiosk.hint == "" and "Your move" in (kiosk.your_move or kiosk.shown_caption)
