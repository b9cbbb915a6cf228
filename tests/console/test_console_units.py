"""The console without a terminal: session, pacing, and the app through a pipe input."""

import contextlib
import re
from collections.abc import Iterator

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tests.support.fake_clock import FakeClock
from univac_ttt.console.app import KEY_LINES, ConsoleApp, ConsoleSettings
from univac_ttt.console.side_panel import lamp_for, render_panel
from univac_ttt.desk.pacing import TypewriterPacer
from univac_ttt.desk.paper import PrintedChunk
from univac_ttt.desk.session import GameSession
from univac_ttt.machine.word import from_text, to_int
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.tictactoe import load_tictactoe, results_in
from univac_ttt.packs.tictactoe.board import printed_board

WORDS = load_tictactoe().image.words
TTT = shipped_pack("tictactoe")
F1, F2, F3, F4 = "\x1bOP", "\x1bOQ", "\x1bOR", "\x1bOS"
CTRL_Q, CTRL_D, CTRL_C = "\x11", "\x04", "\x03"


def board_words(session):
    base = load_tictactoe().program.address_of("BRD")
    return [to_int(session.machine.mem[base + k]) for k in range(1, 10)]


# ---- session ---------------------------------------------------------------------------

def test_session_starts_waiting_for_the_keyboard():
    session = GameSession(WORDS)
    assert session.waiting_for_keyboard and "NEW GAME" in session.paper


def test_session_refuses_missing_keys_without_touching_the_machine():
    session = GameSession(WORDS)
    before = session.machine.snapshot()
    result = session.submit("5!")
    assert not result.accepted and "'!'" in result.message
    assert session.machine.snapshot() == before and session.refusals == 1


def test_session_counts_the_score_from_the_paper():
    session = GameSession.from_pack(TTT)
    session.submit("2")
    session.submit("8")  # X on opposite edges: a blunder
    for square in "1234567":  # taken squares just get a warning
        session.submit(square)
        if session.score.games:
            break
    assert session.score.univac_wins == 1 and session.score.games == 1


def test_the_game_figures_stay_the_finished_game_s_until_the_next_first_word():
    """After a result the panel goes on showing the game just played ("last game"),
    not a fresh game's zeros; the next game's first word starts its figures."""
    session = GameSession.from_pack(TTT)
    total = session.game.instructions  # the boot's run to the first keyboard wait
    for square in "28134567":
        session.submit(square)
        total += session.last_move.instructions
        if session.score.games:
            break
    assert session.score.games == 1 and session.game_over
    assert session.game.instructions == total > session.last_move.instructions
    panel = render_panel(session, False, False, pack=TTT)
    assert re.search(r"last game +[1-9][\d,]* +[\d.]+ m?s", re.sub(r"\x1b\[[\d;]*m", "", panel))
    session.submit("5")
    assert not session.game_over
    assert session.game.instructions == session.last_move.instructions > 0
    assert "this game" in render_panel(session, False, False, pack=TTT)


def test_session_new_game_clears_the_board():
    session = GameSession(WORDS)
    session.submit("5")
    session.new_game()
    assert board_words(session) == [0] * 9 and session.waiting_for_keyboard


def test_session_reports_an_error_stop():
    session = GameSession({0: from_text("I00000000000")})
    assert session.error and "invalid instruction" in session.error
    assert not session.submit("5").accepted
    assert lamp_for(session, typing=False).label == "ERROR STOP"


def test_session_reports_a_normal_stop():
    session = GameSession({0: from_text("900000000000")})
    assert session.halted and lamp_for(session, False).label == "STOPPED"


def test_results_are_read_from_the_program_text():
    assert results_in("THE UNIVAC WINS. ... THE GAME IS A DRAW.") == ["univac", "draw"]
    assert results_in("YOU WIN. CONGRATULATIONS") == ["opponent"]
    assert results_in("WINDOW") == []
    for text in ("THE UNIVAC WINS. ... THE GAME IS A DRAW.", "YOU WIN. CONGRATULATIONS",
                 "WINDOW", "YOU WINNER"):  # the pack's phrases read as the module's pattern
        assert TTT.results_in(text) == results_in(text)


def test_a_session_without_a_pack_scores_nothing():
    session = GameSession(WORDS)  # an image: no pack
    session.submit("2")
    session.submit("8")
    for square in "1234567":
        session.submit(square)
    assert "THE UNIVAC WINS" in session.paper and session.score.games == 0


def test_panel_renders_the_lamp_and_the_score():
    session = GameSession.from_pack(TTT)
    text = re.sub(r"\x1b\[[0-9;]*m", "", render_panel(session, typing=False, authentic=False,
                                                      pack=TTT))
    assert "INPUT READY" in text and "UNIVAC 0  draws 0  you 0" in text and "1 │ 2 │ 3" in text
    assert max(len(line) for line in text.splitlines()) <= 30  # fits the panel column


# ---- pacing ----------------------------------------------------------------------------

def test_fast_pacing_shows_everything_at_once():
    pacer = TypewriterPacer(authentic=False)
    pacer.add("HELLO\n")
    assert pacer.text == "HELLO\n" and not pacer.busy


def test_authentic_pacing_types_ten_characters_a_second():
    clock = FakeClock()
    start = clock.now
    pacer = TypewriterPacer(authentic=True, clock=clock)
    pacer.add("ABCDE\nXY")  # A at 0.0 s ... E at 0.4, return at 0.5 (0.3 s), X 0.8, Y 0.9
    expected = [(0.0, "A"), (0.25, "ABC"), (0.45, "ABCDE"), (0.55, "ABCDE\n"),
                (0.75, "ABCDE\n"), (0.85, "ABCDE\nX"), (5.0, "ABCDE\nXY")]
    for at, text in expected:
        clock.now = start + at
        pacer.advance()
        assert pacer.text == text, at
    assert not pacer.busy


def test_authentic_pacing_waits_for_the_decision_time():
    clock = FakeClock()
    pacer = TypewriterPacer(authentic=True, clock=clock)
    pacer.add("AB", not_before=clock.now + 0.5)
    pacer.advance()
    assert pacer.text == ""
    clock.now += 0.5
    pacer.advance()
    assert pacer.text == "A"


def test_switching_to_fast_finishes_the_typing():
    clock = FakeClock()
    pacer = TypewriterPacer(authentic=True, clock=clock)
    pacer.add("A LONG LINE\n")
    pacer.set_authentic(False)
    assert pacer.text == "A LONG LINE\n" and not pacer.busy


# ---- the application through a pipe ------------------------------------------------------

def run_console(keys, settings=None, words=WORDS):
    settings = settings or ConsoleSettings()
    with create_pipe_input() as pipe:
        console = ConsoleApp(lambda on_print: GameSession(words, on_print=on_print), settings,
                             input=pipe, output=DummyOutput())
        pipe.send_text(keys)
        code = console.run()
    return console, code


def test_typing_a_move_plays_it():
    console, code = run_console("5\r" + CTRL_Q + CTRL_Q)
    assert code == 0
    assert printed_board(console.session.paper.split("9\n", 1)[1]) == (
        -1, 0, 0, 0, 1, 0, 0, 0, 0)
    assert console.paper_buffer.text == console.session.paper


def test_keys_the_univac_lacks_are_refused_on_the_spot():
    console, _ = run_console("!é" + CTRL_Q + CTRL_Q)
    assert console.keyboard_buffer.text == ""
    assert console.session.words_typed == 0


@pytest.mark.parametrize(("keys", "name"), [("\t", "Tab"), ("\x1b[15~", "F5"),
                                           ("\x1b[2~", "Insert"), ("\x1b[24~", "F12")])
def test_other_keys_the_univac_lacks_are_refused_with_a_hint(keys, name, monkeypatch):
    """Tab, Insert and F5-F12 were taken by prompt_toolkit's defaults without a word (the
    hint of an earlier refusal stayed, naming another key)."""
    said = []
    monkeypatch.setattr(ConsoleApp, "refuse", lambda self, key: said.append(key))
    console, _ = run_console("5" + keys + CTRL_Q + CTRL_Q)
    assert said == [name] and console.keyboard_buffer.text == "5"


def test_lower_case_letters_type_capitals():
    console, _ = run_console("a" + CTRL_Q + CTRL_Q)
    assert console.keyboard_buffer.text == "A"


def test_bad_code_reaches_the_program_which_warns_politely():
    console, _ = run_console("0\r" + CTRL_Q + CTRL_Q)
    assert "NOT A SQUARE CODE" in console.session.paper


def test_quit_needs_two_presses_and_another_key_cancels():
    console, _ = run_console(CTRL_Q + "5" + CTRL_D + CTRL_D)
    assert console.keyboard_buffer.text == "5"  # the first Ctrl-Q was cancelled by "5"


def test_ctrl_c_asks_before_quitting():
    console, code = run_console(CTRL_C + CTRL_C)
    assert code == 0 and console.quit_armed


def test_f2_starts_a_new_game():
    console, _ = run_console("5\r" + F2 + CTRL_Q + CTRL_Q)
    assert board_words(console.session) == [0] * 9
    assert console.session.paper.count("NEW GAME") == 2  # the paper goes on: a second greeting


def test_f3_toggles_authentic_typing():
    console, _ = run_console(F3 + CTRL_Q + CTRL_Q)
    assert console.pacer.authentic


def test_f4_saves_the_paper(tmp_path):
    console, _ = run_console("5\r" + F4 + CTRL_Q + CTRL_Q,
                             ConsoleSettings(save_directory=tmp_path))
    saved = list(tmp_path.glob("univac-paper-*.txt"))
    assert len(saved) == 1 and saved[0].read_text() == console.session.paper


def test_f4_that_cannot_save_names_the_folder(tmp_path):
    """Started in a folder where no file can be made (/proc), F4 said only "Could not save
    the paper: No such file or directory.", naming neither the folder nor the rule."""
    gone = tmp_path / "gone"
    console, _ = run_console("5\r" + F4 + CTRL_Q + CTRL_Q, ConsoleSettings(save_directory=gone))
    said = [line for line in console.hint_log if "Could not save" in line]
    assert said and str(gone) in said[-1] and "folder where univac-ttt was started" in said[-1]
    assert not gone.exists()


def test_f1_shows_help_and_enter_closes_it():
    console, _ = run_console(F1 + CTRL_Q + CTRL_Q)
    assert console.show_help
    console, _ = run_console(F1 + "\r" + CTRL_Q + CTRL_Q)
    assert not console.show_help and console.session.words_typed == 0


def test_a_pasted_flood_plays_its_lines_up_to_200_keys():
    """Each line end is WORD RELEASE, as on the class page (the console typed only the
    first line); at most 200 keys, and the hint says what became of the rest."""
    flood = "\x1b[200~" + "\n".join(["5", "9", "1"] * 50) + "\x1b[201~"
    console, _ = run_console(flood + CTRL_Q + CTRL_Q)
    assert console.session.words_typed == 100  # 100 lines of a key and a line end
    assert console.keyboard_buffer.text == ""
    assert ("Of the 299 characters pasted, 200 were typed: a paste types at most 200 "
            "characters.") in console.hint_log


def test_transcript_keeps_the_paper(tmp_path):
    path = tmp_path / "paper.txt"
    console, _ = run_console("5\r9\r" + CTRL_Q + CTRL_Q, ConsoleSettings(transcript=path))
    text = path.read_text()
    assert "univac-ttt session" in text and console.session.paper in text


def test_without_a_transcript_the_pacer_takes_the_paper_s_pieces_itself(tmp_path):
    """The pacer is the paper's listener when nothing else wants the pieces (one call a
    typed word fewer, every word of every served reply); with a transcript the console
    writes it first, then hands the piece on."""
    console, _ = run_console("5\r" + CTRL_Q + CTRL_Q)
    assert console.session.desk.paper.listeners == [console.pacer.add_printed]
    assert console.pacer.text == console.session.paper
    kept, _ = run_console("5\r" + CTRL_Q + CTRL_Q,
                          ConsoleSettings(transcript=tmp_path / "paper.txt"))
    assert kept.session.desk.paper.listeners == [kept._printed]
    assert kept.pacer.text == kept.session.paper


def test_transcript_in_a_missing_directory_is_a_clear_error(tmp_path):
    from univac_ttt.desk.transcript import TranscriptError
    with pytest.raises(TranscriptError, match="cannot write"):
        run_console(CTRL_Q + CTRL_Q, ConsoleSettings(transcript=tmp_path / "no" / "p.txt"))


def test_enter_while_the_typewriter_is_busy_is_held_back():
    clock = FakeClock()
    console, _ = run_console("5\r9\r" + CTRL_Q + CTRL_Q,
                             ConsoleSettings(authentic=True, clock=clock))
    # the clock never moves, so the greeting is still being typed: nothing is sent
    assert console.session.words_typed == 0 and console.pacer.busy
    assert any("still typing" in said for said in console.hint_log)


def test_an_internal_error_ends_the_app_instead_of_printing_a_traceback():
    with create_pipe_input() as pipe:
        console = ConsoleApp(lambda on_print: GameSession(WORDS, on_print=on_print),
                             ConsoleSettings(), input=pipe, output=DummyOutput())

        def broken(text):
            raise ZeroDivisionError("injected")

        console.session.release = broken
        pipe.send_text("5\r")
        with pytest.raises(ZeroDivisionError, match="injected"):
            console.run()


def test_pacer_waits_the_univac_time_since_the_word_release():
    clock = FakeClock()
    pacer = TypewriterPacer(authentic=True, clock=clock)
    pacer.start_reply()
    pacer.add_printed(PrintedChunk("AB", 1_000 + 450_000, 450_000))  # 0.2 s of UNIVAC time
    clock.now += 0.19
    pacer.advance()
    assert pacer.text == ""
    clock.now += 0.02
    pacer.advance()
    assert pacer.text == "A"


def test_a_transcript_that_fails_mid_game_is_reported_and_the_game_goes_on(tmp_path):
    path = tmp_path / "paper.txt"
    with create_pipe_input() as pipe:
        console = ConsoleApp(lambda on_print: GameSession(WORDS, on_print=on_print),
                             ConsoleSettings(transcript=path), input=pipe,
                             output=DummyOutput())

        def full(text):
            raise OSError(28, "No space left on device")

        console.transcript._file.write = full
        pipe.send_text("5\r9\r" + CTRL_Q + CTRL_Q)
        console.run()
    assert any("transcript stopped: No space left" in said for said in console.hint_log)
    assert console.session.words_typed == 2  # the game went on


def test_esc_or_ctrl_c_stops_a_long_reply_and_keeps_the_keys_alive():
    from univac_ttt.machine import StopKind

    # 10 reads a word into 010, then the program loops for ever: a runaway reply
    runaway = {0: from_text("100010U00001"), 1: from_text("000000U00001")}
    for key in ("\x1b", "\x03"):
        console, code = run_console("5\r" + key + CTRL_Q + CTRL_Q, words=runaway)
        stop = console.session.stop
        assert code == 0 and stop is not None and stop.kind is StopKind.INTERRUPT, stop
        assert console.session.desk.machine.instructions < console.session.desk.limits.cap
        assert console.session.error and not console.running


def test_a_served_console_offers_no_f4_in_its_key_bar_or_help():
    from univac_ttt.console.served import build_application

    with create_pipe_input() as pipe:
        console = build_application(pipe, DummyOutput(), pack=TTT).console
        bar = "".join(text for _style, text in console.layout.bar_text())
        assert "F1" in bar and "F2" in bar and "F4" not in bar and "save" not in bar
        help_text = "\n".join(console.layout.help_lines())
        assert "F2 new game" in help_text and "F4" not in help_text
    with create_pipe_input() as pipe:  # a console at home still saves with F4
        home = ConsoleApp(lambda on_print: GameSession(WORDS, on_print=on_print),
                          ConsoleSettings(), pipe, DummyOutput())
        assert "F4" in "".join(text for _style, text in home.layout.bar_text())
        assert "F4 save the paper" in "\n".join(home.layout.help_lines())


def test_the_keyboard_line_recalls_a_bounded_history():
    """A served console or a kiosk types all day: Up and Down recall the newest KEY_LINES
    lines only, so an Enter costs the same at the end of the day (tui/history.py)."""
    with create_pipe_input() as pipe:
        console = ConsoleApp(lambda on_print: GameSession(WORDS, on_print=on_print),
                             ConsoleSettings(), input=pipe, output=DummyOutput())
    buffer = console.keyboard_buffer
    for number in range(3 * KEY_LINES):  # as the Enter key does
        buffer.text = str(number % 9 + 1)
        buffer.append_to_history()
        buffer.reset()
    strings = buffer.history.get_strings()
    assert len(strings) == KEY_LINES and strings[-1] == str((3 * KEY_LINES - 1) % 9 + 1)


def test_up_recalls_the_last_line_entered_and_down_clears_it():
    """The console draws its keyboard line itself (app_rows), so it must load the buffer's
    history as prompt_toolkit's own drawing does; without it Up recalled nothing."""
    import asyncio

    async def play() -> tuple[str, str]:
        with create_pipe_input() as pipe:
            console = ConsoleApp(lambda on_print: GameSession(WORDS, on_print=on_print),
                                 ConsoleSettings(), input=pipe, output=DummyOutput())
            running = asyncio.ensure_future(console.app.run_async())

            async def until(condition) -> None:
                for _ in range(2000):
                    if condition():
                        return
                    await asyncio.sleep(0.005)
                raise AssertionError("the console never got there")

            buffer = console.keyboard_buffer
            pipe.send_text("5\r")
            await until(lambda: buffer.history.get_strings() == ["5"] and buffer.text == ""
                        and buffer._load_history_task is not None
                        and buffer._load_history_task.done())
            pipe.send_text("\x1b[A")  # Up
            await until(lambda: buffer.text == "5")
            recalled = buffer.text
            pipe.send_text("\x1b[B")  # Down
            await until(lambda: buffer.text == "")
            after_down = buffer.text
            console.app.exit(result=0)
            await running
        return recalled, after_down

    assert asyncio.run(asyncio.wait_for(play(), 30)) == ("5", "")


def test_the_still_typing_hint_goes_once_input_ready_lights():
    """Enter while the greeting types says to wait; once it is typed (the lamp lit) the
    hint no longer says so (it stayed, over a lit INPUT READY)."""
    import asyncio

    from tests.support.serving import until
    from univac_ttt.console.app import STILL_TYPING

    async def play() -> tuple[str, str]:
        clock = FakeClock()
        with create_pipe_input() as pipe:
            console = ConsoleApp(lambda on_print: GameSession(WORDS, on_print=on_print),
                                 ConsoleSettings(authentic=True, clock=clock), input=pipe,
                                 output=DummyOutput())
            running = asyncio.ensure_future(console.run_async())
            pipe.send_text("5\r")
            await until(lambda: console.hint == STILL_TYPING)
            during = console.hint
            clock.now += 3600  # the greeting is typed out
            await until(lambda: not console.pacer.busy)
            await until(lambda: console.hint != STILL_TYPING)
            after = console.hint
            console.app.exit(result=0)
            await running
        return during, after

    during, after = asyncio.run(asyncio.wait_for(play(), 30))
    assert during == STILL_TYPING and after == ""


@contextlib.contextmanager
def reading_the_program_tape() -> Iterator[tuple[ConsoleApp, FakeClock]]:
    """A console at authentic speed on a fake clock, its Uniservo's lamp lit by the tape."""
    clock = FakeClock()
    with create_pipe_input() as pipe:
        console = ConsoleApp(lambda on_print: GameSession.from_pack(TTT, on_print=on_print),
                             ConsoleSettings(authentic=True, clock=clock, pack=TTT),
                             input=pipe, output=DummyOutput())
        clock.now += 0.3
        assert console.show_tape_lamp() and console.hint.startswith("UNISERVO 1 READING")
        yield console, clock


def test_a_warning_about_a_key_is_not_covered_by_the_tape_lamps():
    """Enter while the program tape is read (authentic speed) says the UNIVAC is still
    typing; the Uniservo's next block no longer writes over it at once (the player saw no
    answer to the Enter), and the next key clears it, the lamp showing again."""
    from univac_ttt.console.app import STILL_TYPING

    with reading_the_program_tape() as (console, clock):
        console.keyboard_buffer.text = "5"
        console.submit()
        for _ in range(3):  # the next blocks go by
            clock.now += 0.3
            console.show_tape_lamp()
            assert console.hint == STILL_TYPING
        console.type_key("5")
        clock.now += 0.3
        console.show_tape_lamp()
        assert console.hint.startswith("UNISERVO 1 READING")


def test_the_quit_question_is_not_covered_by_the_tape_lamps():
    """Ctrl-Q while the program tape is read (authentic speed): the hint asks to press it
    again, and the Uniservo's lamp, block by block, does not write over the question."""
    with reading_the_program_tape() as (console, clock):
        console.request_quit("Ctrl-Q")
        question = console.hint
        for _ in range(5):  # the next blocks go by
            clock.now += 0.3
            console.show_tape_lamp()
            assert console.hint == question == (
                "Press Ctrl-Q again to quit; any other key goes on playing.")
