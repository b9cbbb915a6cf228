"""Any bytes on the plain console's stdin end cleanly (issue 16, part A).
"""


from hypothesis import given
from hypothesis import strategies as st

from univac_ttt.packs.tictactoe import load_tictactoe

SHIPPED = load_tictactoe()


@given(st.lists(st.binary(max_size=300) | st.sampled_from([b"5", b"1", b"\xff", b"\r"]),
                max_size=20))
def test_any_bytes_on_the_plain_consoles_stdin_end_cleanly(pieces):
    import io

    from univac_ttt.console.plain import PlainConsole
    from univac_ttt.desk import Desk

    stdin = io.TextIOWrapper(io.BytesIO(b"\n".join(pieces)), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    result = PlainConsole(Desk(SHIPPED.image.words), stdin, out, err).run()
    assert result.exit_code in (0, 1)
    assert all(line.startswith("refused: ") for line in err.getvalue().splitlines())


def test_an_arrow_key_in_a_typed_line_is_refused_in_words_and_the_next_move_goes_on():
    import io

    from univac_ttt.console.plain import PlainConsole
    from univac_ttt.desk import Desk

    stdin = io.StringIO("\x1b[A\n5\n")
    out, err = io.StringIO(), io.StringIO()
    PlainConsole(Desk(SHIPPED.image.words), stdin, out, err).run()
    assert err.getvalue() == ("refused: arrow and function keys are not keys of the UNIVAC "
                              "keyboard (the line held an escape code); nothing was sent to "
                              "the UNIVAC\n")
    assert "   O   2   3" in out.getvalue()  # the 5 after it was played
