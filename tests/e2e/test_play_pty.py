"""Issue 13 in a real pseudo-terminal (pexpect + pyte): what the player and the museum see.

The kiosk's caption wraps at words; wrong staff PINs lock the PIN; the player's move is on
the paper and in the transcript; the console's paper scrolls back with PageUp and the wheel.
"""

import contextlib
import shutil

import pytest
from support.terminal import Terminal, fast_typewriter

COMMAND = shutil.which("univac-ttt") or "univac-ttt is not installed: pip install '.[test]'"
ENTER, CTRL_Q, F12, ESC = "\r", "\x11", "\x1b[24~", "\x1b"
PAGE_UP, PAGE_DOWN = "\x1b[5~", "\x1b[6~"
WHEEL_UP = "\x1b[<64;10;5M"  # SGR mouse report: the wheel turned up over the paper
FAST = 4  # the typewriter's speed-up where a test reads the paper back while it types
OPENING = "The opening: a centre move is answered by a corner, any other by the centre."


def kiosk(tmp_path, columns, rows, *extra):
    terminal = Terminal([COMMAND, "kiosk", "--pin", "2468", "--data", str(tmp_path),
                         "--speed", "fast", *extra], columns=columns, rows=rows)
    terminal.wait_for("INPUT READY >")
    return terminal


def caption_lines(screen: str, width: int) -> list[str]:
    """The caption under the big board: the left column's lines after the board."""
    lines = [line[:width] for line in screen.splitlines()]
    last_rule = max(i for i, line in enumerate(lines) if "┼" in line)
    after = lines[last_rule + 1:]
    start = next(i for i, line in enumerate(after) if line.startswith(" The"))
    caption = []
    for line in after[start:]:
        if not line.strip() or line.startswith(" Your move"):  # (the line over the keyboard)
            break
        caption.append(line.rstrip())
    return caption


def test_the_kiosk_caption_is_wrapped_at_words_at_80x24_and_160x48(tmp_path):
    for columns, rows, width in ((80, 24, 32), (160, 48, 59)):
        terminal = kiosk(tmp_path, columns, rows)
        terminal.send("5" + ENTER)
        screen = terminal.wait_for("The opening")
        lines = caption_lines(screen, width)
        assert " ".join(line.strip() for line in lines) == OPENING, lines
        assert all(line.startswith(" ") and not line.startswith("  ") for line in lines)
        assert len(lines) >= 2  # it did wrap, at words
        if columns == 160:  # the board is drawn large: its square codes sit further right
            assert any("│" in line and line.index("│") > 15 for line in screen.splitlines())
        terminal.child.terminate(force=True)


def test_wrong_staff_pins_lock_the_pin(tmp_path):
    terminal = kiosk(tmp_path, 100, 30)
    for _ in range(3):
        terminal.send(F12)
        terminal.wait_for("STAFF PIN")
        terminal.send("9999" + ENTER)
        terminal.wait_for("not right")
    assert "locked for 30 s" in terminal.text()
    terminal.send(F12)
    screen = terminal.wait_for("try again in")
    assert "STAFF PIN >" not in screen  # no PIN may be typed while it is locked
    assert "STAFF PIN LOCKED" in screen
    terminal.send("2468" + ENTER)  # dropped: not on the paper, not a bad code
    screen = terminal.wait_for("INPUT READY >")
    assert "2468" not in screen and "SORRY" not in screen
    terminal.send("5" + ENTER)  # the game goes on, its paper holding only the move
    screen = terminal.wait_for("The opening")
    assert "> 5" in screen and "2468" not in screen
    terminal.child.terminate(force=True)
    tally = tmp_path / "tally.json"  # written only once something is counted
    assert not tally.exists() or '"bad_codes": 0' in tally.read_text()
    log = (tmp_path / "kiosk.log").read_text()
    assert "kiosk started" in log and "PIN locked for 30 s" in log


def test_the_players_move_is_on_the_paper_and_in_the_transcript(tmp_path):
    transcript = tmp_path / "paper.txt"
    terminal = Terminal([COMMAND, "--transcript", str(transcript)], columns=100, rows=34)
    terminal.wait_for("INPUT READY")
    terminal.send("5" + ENTER)
    screen = terminal.wait_for("> 5")
    lines = [line[:60].rstrip() for line in screen.splitlines()]
    at = lines.index("> 5")
    assert lines[at - 1] == "   7   8   9" and "   O   2   3" in lines[at:at + 3]
    terminal.send(CTRL_Q + CTRL_Q)
    assert terminal.close() == 0
    text = transcript.read_text()
    assert "   7   8   9\n> 5\n\n   O   2   3" in text


def test_the_console_paper_scrolls_back_with_pageup_and_the_wheel(tmp_path):
    terminal = Terminal([COMMAND], columns=100, rows=20)
    terminal.wait_for("INPUT READY")
    for move in "5901":  # a move, a move, a bad code, a taken square: no game ends
        terminal.send(move + ENTER)
        terminal.wait_for(f"> {move}")
    terminal.wait_until(lambda screen: "NEW GAME" not in screen, 10, "greeting out of view")
    assert "NEW GAME" not in terminal.text()  # the greeting has scrolled out of view
    terminal.send(PAGE_UP)
    terminal.send(PAGE_UP)
    assert "NEW GAME. YOU ARE X" in terminal.wait_for("NEW GAME")
    terminal.send("1")  # typing still goes to the keyboard line while scrolled back
    terminal.send(PAGE_DOWN + PAGE_DOWN + PAGE_DOWN)
    terminal.wait_until(lambda screen: "NEW GAME. YOU ARE X" not in screen
                        and "> 1" in screen, 10, "paged down")
    assert "NEW GAME. YOU ARE X" not in terminal.text() and "> 1" in terminal.text()
    terminal.send(WHEEL_UP * 30)
    terminal.wait_for("NEW GAME")
    terminal.send(CTRL_Q + CTRL_Q)
    assert terminal.close() == 0


F1, F4 = "\x1bOP", "\x1bOS"


def whole_words(screen: str, *phrases: str) -> None:
    """Each phrase is on the screen, wrapped (if at all) at a space, never inside a word."""
    flat = " ".join(line.strip() for line in screen.splitlines())
    for phrase in phrases:
        assert phrase in flat, (phrase, screen)


def test_at_80_columns_the_help_and_the_hints_wrap_at_words(tmp_path):
    terminal = Terminal([COMMAND, "play", "--speed", "authentic"], columns=80, rows=24,
                        cwd=str(tmp_path), env=fast_typewriter(FAST))  # wrapped as at 1x
    screen = terminal.wait_for("tape time.", timeout=20)
    whole_words(screen, "18 blocks in 1.8 s of tape time.")
    terminal.send("\x1bOR")  # F3: the rest of the greeting at once
    terminal.wait_for("INPUT READY ▸", timeout=30)
    terminal.send(F1)
    screen = terminal.wait_for("Esc or Enter")
    assert not any(line.rstrip().endswith("entri") for line in screen.splitlines())
    whole_words(screen, "Up/Down earlier entries", "Esc or Enter close this help")
    terminal.send(ESC)
    terminal.send(F4)
    screen = terminal.wait_for("was started).")
    saved = next(tmp_path.glob("univac-paper-*.txt"))
    whole_words(screen.replace(" ", "").replace("\n", ""), str(saved.resolve()))
    whole_words(screen, "(F4 saves in the folder where univac-ttt was started).")
    terminal.send(CTRL_Q + CTRL_Q)
    assert terminal.close() == 0


def test_paper_scrolled_back_while_the_univac_types_comes_back_when_it_finishes(tmp_path):
    # the typewriter's clock runs FAST times the wall's; pauses below are in its seconds
    terminal = Terminal([COMMAND], columns=100, rows=20, cwd=str(tmp_path),
                        env=fast_typewriter(FAST))
    terminal.wait_for("INPUT READY")
    for move in "5901":
        terminal.send(move + ENTER)
        terminal.wait_for(f"> {move}")
    terminal.send("\x1bOR")  # F3: the typewriter's own speed
    terminal.wait_for("authentic (10 char/s)")
    greetings = terminal.text().count("NEW GAME")
    terminal.send("\x1bOQ")  # F2: a new game, its greeting typed at ten characters a second
    terminal.wait_until(lambda screen: screen.count("NEW GAME") > greetings, 20, "a greeting")
    terminal.pump(0.5 / FAST)  # a little more of it typed
    terminal.hold_typewriter()  # mid-greeting, however slow this machine is today
    for _ in range(10):  # as a reader would, pressed again if a loaded machine missed it
        terminal.send(PAGE_UP + PAGE_UP)
        with contextlib.suppress(AssertionError):
            terminal.wait_until(lambda screen: "ALREADY TAKEN" not in screen, 1.0)
            break
    assert "ALREADY TAKEN" not in terminal.text()  # scrolled back
    terminal.hold_typewriter()  # and on it types
    terminal.pump(1.0 / FAST)
    assert "ALREADY TAKEN" not in terminal.text()  # reading back while it types
    terminal.hurry_typewriter()  # the rest of the greeting: only its end is looked at
    terminal.wait_for("INPUT READY ▸", timeout=60)
    terminal.settle()
    lines = [line[:60].rstrip() for line in terminal.text().splitlines()]
    greeting = max(i for i, line in enumerate(lines) if line.startswith("NEW GAME. YOU ARE X"))
    assert "ALREADY TAKEN" in terminal.text()  # the newest lines are back in view
    assert "   7   8   9" in lines[greeting:]
    terminal.send(CTRL_Q + CTRL_Q)
    assert terminal.close() == 0


def test_the_kiosk_keeps_the_decision_and_asks_for_the_move_once_input_is_ready(tmp_path):
    terminal = kiosk(tmp_path, 80, 24)
    first = terminal.text()
    assert first.count("Your move") == 1  # the caption asks once, before the first move
    terminal.send("5" + ENTER)
    terminal.wait_for("INPUT READY >")
    screen = terminal.wait_for("Your move: type a square code, 1 to 9, and press Enter.")
    lines = caption_lines(screen, 32)
    assert " ".join(line.strip() for line in lines) == OPENING  # the decision stays
    ready = next(line for line in screen.splitlines() if "Your move" in line)
    below = screen.splitlines()[screen.splitlines().index(ready) + 1]
    assert "INPUT READY >" in below  # the line right over the keyboard
    terminal.child.terminate(force=True)


def test_ctrl_c_in_plain_authentic_mode_types_the_rest_without_a_caret_mid_line():
    terminal = Terminal([COMMAND, "play", "--plain", "--speed", "authentic"], columns=100,
                        rows=24, env=fast_typewriter(10))
    terminal.wait_for("NEW GAME. YOU", timeout=20)
    # Held mid-line across Ctrl-C: the terminal's interrupt discards output written but
    # not yet read, so the typewriter goes on only once the terminal has dealt with it (its
    # echo of the key comes after the discard); otherwise a loaded machine loses letters.
    terminal.hold_typewriter()
    terminal.settle()
    mark = len(terminal.raw)
    terminal.send("\x03")  # Ctrl-C while the typewriter types: the rest at once
    terminal.wait_until(lambda screen: b"\x03" in terminal.raw[mark:], 10, "Ctrl-C taken")
    terminal.hold_typewriter()
    screen = terminal.wait_for("   7   8   9")
    assert "^C" not in screen
    assert "NEW GAME. YOU ARE X, THE UNIVAC IS O." in screen.splitlines()
    terminal.hurry_typewriter()  # the reply below is looked at whole, not as it is typed
    terminal.send("5" + ENTER)  # the next word is answered: no STOP was left pending
    screen = terminal.wait_for("   4   X   6", timeout=20)
    assert "STOP was pressed" not in screen
    terminal.child.terminate(force=True)


@pytest.mark.parametrize("key", ["\x03", "\x1c"], ids=["ctrl-c", "ctrl-backslash"])
@pytest.mark.parametrize("argv", [["play", "--plain"], ["run", "--program", "tictactoe"]])
def test_ctrl_c_at_the_plain_prompt_says_the_score_and_ends_interrupted(argv, key):
    """Ctrl-C at the prompt ends the session as Ctrl-D does, the score said first; so does
    the terminal's quit key, Ctrl-\\ (SIGQUIT), not with its status 131 and a core dump (a
    user trial's finding)."""
    terminal = Terminal([COMMAND, *argv], columns=80, rows=24)
    terminal.wait_for("YOU MOVE FIRST", timeout=20)
    for move in "5927":  # a draw: 1 in the score
        terminal.send(move + ENTER)
    terminal.wait_until(lambda screen: "CONGRATULATIONS" in screen
                        and screen.rstrip().endswith("7   8   9\n>"), 20, "the next game")
    terminal.send(key)
    screen = terminal.wait_for("univac-ttt: interrupted", timeout=20)
    lines = [line.rstrip() for line in screen.splitlines() if line.strip()]
    assert lines[-2:] == ["univac-ttt: score: UNIVAC 0, draws 1, you 0",
                          "univac-ttt: interrupted"]
    assert "Traceback" not in screen and "core dumped" not in screen
    assert terminal.close() == 130
    assert terminal.child.signalstatus is None  # it ended itself, not a signal's default


def test_a_kiosk_log_that_cannot_be_made_is_named_in_plain_words(tmp_path):
    """The message was Python's own: "cannot write the kiosk log: [Errno 2] No such file or
    directory: '/proc/x'"; it names the log the staff gave and says why, as every other."""
    where = "/proc/univac-ttt-test/kiosk.log"  # a folder no one can make there
    terminal = Terminal([COMMAND, "kiosk", "--pin", "2468", "--data", str(tmp_path),
                         "--log", where], columns=100, rows=24)
    terminal.wait_for("cannot write the kiosk log", 30)
    screen = terminal.settle(0.2)
    assert terminal.close() == 2
    said = screen.replace("\n", "")
    assert f"cannot write the kiosk log {where}: No such file or directory" in said
    assert "Errno" not in screen
