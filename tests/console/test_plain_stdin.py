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
