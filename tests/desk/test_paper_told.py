"""A reply's typed words reach the paper's listeners in one piece at the end of a run, at
the same UNIVAC times and in the same order as when each word was told as it was typed."""

from __future__ import annotations

from tests.support.fake_clock import FakeClock
from univac_ttt.desk.desk import Desk
from univac_ttt.desk.pacing import TypewriterPacer
from univac_ttt.desk.paper import PrintedChunk
from univac_ttt.desk.run_limits import Limits
from univac_ttt.desk.session import GameSession
from univac_ttt.machine import StopKind
from univac_ttt.machine.timing import pulses_to_us
from univac_ttt.packs import shipped_pack

TTT = shipped_pack("tictactoe")
MOVES = ["5", "1", "0", "9", "3", "7", "4", "5"]  # moves, a bad code, a taken square


class CountingPacer(TypewriterPacer):
    """A pacer that counts how the paper reaches it."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.batches: list[int] = []
        self.singles = 0

    def add_pieces(self, pieces: list) -> None:  # type: ignore[override,type-arg]
        self.batches.append(len(pieces))
        super().add_pieces(pieces)

    def add_printed(self, chunk: PrintedChunk) -> None:
        self.singles += 1
        super().add_printed(chunk)


def test_a_reply_s_words_reach_a_pacer_in_one_call_and_show_what_the_paper_holds():
    pacer = CountingPacer()
    session = GameSession.from_pack(TTT, on_print=pacer.add_printed)
    assert len(pacer.batches) == 1 and pacer.singles == 0  # the greeting, in one piece
    for move in MOVES[:3]:
        mark = session.desk.paper.end
        before = len(pacer.batches), pacer.singles
        session.submit(move)
        typed = [p for p in session.desk.paper.pieces_since(mark) if not p.keyed]
        assert len(typed) > 5
        assert len(pacer.batches) == before[0] + 1  # the whole reply in one call
        assert pacer.batches[-1] == len(typed)
        assert pacer.singles == before[1] + 1  # the operator's entry, told as it is keyed
    assert pacer.text == session.paper
    assert session.desk.paper.untold == []


def _schedule(pacer: TypewriterPacer, clock: FakeClock, until: float) -> list[tuple[float, str]]:
    """What the pacer shows at each 10 ms of the fake clock from now until ``until`` s on."""
    start = clock.now
    shown = []
    for step in range(int(until * 100) + 1):
        clock.now = start + step / 100
        pacer.advance()
        shown.append((round(step / 100, 2), pacer.text))
    return shown


def test_authentic_typing_shows_each_word_when_the_univac_clock_reaches_it_told_in_one_piece():
    """Faithful speed: a pacer told a reply in one piece (the desk's path) types every
    character at the same wall time as one told each word as it was typed (a listener
    that is not a pacer's ``add_printed`` is still told piece by piece), and the reply's
    first character waits for the program's decision time, stamped on the paper."""
    clocks = FakeClock(), FakeClock()
    whole = TypewriterPacer(authentic=True, clock=clocks[0])
    each = TypewriterPacer(authentic=True, clock=clocks[1])
    told: list[PrintedChunk] = []

    def one_by_one(chunk: PrintedChunk) -> None:
        told.append(chunk)
        each.add_printed(chunk)

    sessions = (GameSession.from_pack(TTT, on_print=whole.add_printed),
                GameSession.from_pack(TTT, on_print=one_by_one))
    greeting = len(sessions[0].paper) * 0.3 + 1
    assert _schedule(whole, clocks[0], greeting) == _schedule(each, clocks[1], greeting)
    for move in MOVES[:5]:
        mark = sessions[0].desk.paper.end
        for session, pacer in zip(sessions, (whole, each), strict=True):
            pacer.start_reply()
            session.submit(move)
        typed = [p for p in sessions[0].desk.paper.pieces_since(mark) if not p.keyed]
        assert typed and typed == [c for c in told if not c.keyed][-len(typed):]
        decision = pulses_to_us(typed[0].since_release) / 1_000_000
        text = "".join(p.text for p in typed)
        until = decision + 0.3 * len(text) + 0.5
        shown = _schedule(whole, clocks[0], until)
        assert shown == _schedule(each, clocks[1], until), move
        first = next(at for at, now in shown if len(now) > len(shown[0][1]))
        assert decision <= first < decision + 0.011, (move, decision, first)
        assert shown[-1][1].endswith(text) and not whole.busy


def test_the_listeners_hear_every_piece_in_the_paper_s_order_keyed_entries_between():
    """A run in several chunks (``check_every``) tells each chunk's pieces as it ends: a
    pacer gets more than one call a reply, and a listener one piece at a time hears every
    piece, the operator's entries among them, in the paper's order."""
    desk = Desk(limits=Limits(check_every=4))
    pacer = CountingPacer()
    heard: list[PrintedChunk] = []
    desk.paper.listeners += [pacer.add_printed, heard.append]
    desk.echo_keys = True
    assert desk.load_tape(TTT.boot_tape()) is None
    desk.run()
    for move in MOVES:
        before = len(pacer.batches)
        desk.release(move)
        assert desk.run().kind is StopKind.KEYBOARD
        assert len(pacer.batches) > before + 1 and desk.paper.untold == []
    assert heard == desk.paper.pieces_since(0)
    assert any(c.keyed for c in heard) and len(heard) > 100
    assert pacer.text == desk.paper.text


def test_a_watched_run_tells_each_word_before_its_instruction_is_seen():
    """The monitor's trace runs one instruction at a time: what an instruction typed is
    heard before ``after_each`` sees that instruction (a trace shows the two in order)."""
    desk = Desk()
    assert desk.load_tape(TTT.boot_tape()) is None
    events: list[str] = []
    desk.paper.listeners.append(lambda chunk: events.append(f"typed {chunk.text!r}"))
    end = [desk.paper.end]

    def after_each(address: int, half: str, instruction: str) -> bool:
        del address, half
        if desk.paper.end > end[0]:  # this instruction typed a piece
            end[0] = desk.paper.end
            events.append(f"seen {instruction}")
        return False

    assert desk.run(after_each=after_each).kind is StopKind.KEYBOARD
    assert len(events) > 20 and len(events) % 2 == 0
    assert all(e.startswith("typed") for e in events[::2])  # each word told before its
    assert all(e.startswith("seen") for e in events[1::2])  # instruction is seen


def test_in_fast_speed_a_run_told_in_one_piece_shows_what_word_by_word_showed():
    """``add_pieces`` writes ``add_printed``'s fast path out: the same text kept (cut to
    the limit at the same points) over more pieces than are kept apart."""
    from univac_ttt.desk.pacing import SHOWN_PIECES

    session = GameSession.from_pack(TTT)
    for move in MOVES:
        session.submit(move)
    pieces = [(c.text, c.pulses, c.since_release, c.keyed)
              for c in session.desk.paper.pieces_since(0)]
    assert len(pieces) > SHOWN_PIECES and any(keyed for *_, keyed in pieces)
    whole, each = TypewriterPacer(), TypewriterPacer()
    whole.shown_limit = each.shown_limit = 150
    whole.add_pieces(pieces)
    for piece in pieces:
        each.add_printed(PrintedChunk(*piece))
    assert whole.text == each.text and len(whole.text) >= 150
    assert whole.text.endswith(session.desk.paper.text[-40:])
