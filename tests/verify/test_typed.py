"""The referee's typewriter (verify/typed.py) reads each reply as the desk's paper does."""

from __future__ import annotations

from univac_ttt.desk.paper import StampedTypewriter
from univac_ttt.machine import StopKind
from univac_ttt.verify.referee import Referee


def _booted() -> Referee:
    referee = Referee()
    assert referee.desk.load_tape(referee.tape) is None
    assert referee.desk.run().kind is StopKind.KEYBOARD
    return referee


def _on_paper(referee: Referee, line: str) -> tuple[str, int | None]:
    """A reply read from the desk's own stamped paper: its text and its decision time."""
    desk = referee.desk
    paper = desk.paper
    typewriter = StampedTypewriter(paper, desk._clock)
    typewriter.upper = referee.typed.upper
    desk.typewriter = referee.machine.printer = typewriter
    mark = paper.end
    desk.release(line)
    assert desk.run().kind is StopKind.KEYBOARD
    pieces = paper.pieces_since(mark)
    return "".join(p.text for p in pieces), pieces[0].since_release if pieces else None


def test_each_reply_types_what_the_desks_paper_shows_at_the_same_decision_time():
    lines = ["5", "0", "1", "9", "3", "7", "4"]  # moves, a bad code, a taken square
    judged, papered = _booted(), _booted()
    for line in lines:
        text, back = judged._reply(line)
        assert back
        assert (text, judged.decision) == _on_paper(papered, line), line
        assert text and judged.decision is not None and judged.decision > 0
    assert papered.desk.paper.characters > 200  # (the boards were typed)

