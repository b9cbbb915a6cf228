"""The full-screen monitor's modes in a real pseudo-terminal (issue 13 follow-up): after a
boot the command line is the monitor's again, and keyboard mode says how to answer."""


from support.terminal import quit_monitor, start_monitor

CTRL_Q = "\x11"



def prompt_line(screen: str) -> str:
    return next(line for line in reversed(screen.splitlines())
                if "monitor>" in line or "KEYBOARD ▸" in line)


def test_boot_after_a_keyboard_wait_returns_to_the_monitor_prompt():
    terminal = start_monitor()
    terminal.send("go\r")
    screen = terminal.wait_for("type the keys and Enter; :command for the monitor")
    assert "UNIVAC KEYBOARD ▸" in prompt_line(screen) and "type TEXT" not in screen
    terminal.send(":boot\r")
    screen = terminal.wait_for("INITIAL READ: block 1")
    assert prompt_line(screen).lstrip().startswith("monitor>")
    terminal.send("show tapes\r")  # a command again, not a keyboard word
    screen = terminal.wait_for("Uniservo 1  tictactoe")
    assert "keyboard word" not in screen
    quit_monitor(terminal)


# ---- panes: the paper's whole lines, memory labels whole, every pane listed ---------------

F2, F3, F4, F6 = "\x1bOQ", "\x1bOR", "\x1bOS", "\x1b[17~"
LONGEST = "YOU MOVE FIRST. TYPE A SQUARE CODE, 1 TO 9."  # the paper's longest line, 43 characters


def memory_rows(screen: str) -> list[str]:
    """The memory pane's word lines (left of its rule)."""
    return [line.split("│")[0] for line in screen.splitlines()[2:]
            if "│" in line and line[1:4].isdigit()]


def test_the_paper_pane_has_the_width_of_its_pane():
    terminal = start_monitor(120, 40)
    terminal.send("go\r")
    assert LONGEST in terminal.wait_for("keyboard wait")  # whole, not cut before "9."
    quit_monitor(terminal)
    terminal = start_monitor(100, 30)
    terminal.send(F2 + F2 + "go\r")  # memory off: registers, board and paper
    assert LONGEST in terminal.wait_for("keyboard wait")
    quit_monitor(terminal)


def test_memory_labels_are_whole_and_narrow_is_narrower():
    from univac_ttt.packs.tictactoe import load_tictactoe

    symbols = set(load_tictactoe().program.symbols)
    for columns, rows in ((80, 24), (100, 30)):
        terminal = start_monitor(columns, rows)
        terminal.send("go\r")
        wide = memory_rows(terminal.wait_for("keyboard wait"))
        terminal.send(F2 + "w")  # narrow; the "w" typed after it shows that F2 was taken
        terminal.wait_until(lambda screen: any(  # (at 80 columns F2 changes nothing shown)
            line.lstrip().startswith("UNIVAC KEYBOARD") and line.rstrip().endswith(" w")
            for line in screen.splitlines()), 10, "the w typed after F2")
        narrow = memory_rows(terminal.settle())
        quit_monitor(terminal)
        assert len(wide) > 5 and len(narrow) > 5
        for line in wide + narrow:
            for token in line.split()[2:6]:  # the instructions' operations, addresses, labels
                name = token.removesuffix(":")
                assert len(token) == 2 or name.isdigit() or name in symbols, (line, token)
        if columns == 100:
            assert len(narrow[0]) < len(wide[0])  # narrower: its rule moved left


def test_pane_lists_every_pane_and_all_off_gives_the_output_the_screen():
    terminal = start_monitor(100, 30)
    terminal.send(F3 + F4 + F6)
    terminal.send("pane\r")
    terminal.wait_for("panes: memory wide, registers off, board off, paper off")
    terminal.send(F2 + F2)  # memory wide -> narrow -> off: no pane left
    terminal.send("help\r")

    def whole(screen: str) -> bool:
        """The help at its start, the output with the screen under the state line and
        filled by the help (a frame still being drawn is waited out)."""
        lines = screen.splitlines()
        return ("step [n]" in screen and lines[1].lstrip().startswith("state:")
                and lines[3].startswith("monitor> help")
                and sum(1 for line in lines if line.strip()) >= 26)

    terminal.wait_until(whole, 10, "the help at its start, filling the screen")
    quit_monitor(terminal)
