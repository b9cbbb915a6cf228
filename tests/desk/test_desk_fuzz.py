"""The desk under abuse: fuzzed keyboard entries never break the game, and random memory
images always end in a documented state. `pytest --long` runs 2,000 examples a property.
"""


from hypothesis import given
from hypothesis import strategies as st

from tests.support.entries import entries
from univac_ttt.desk import Desk, Limits
from univac_ttt.desk.session import GameSession
from univac_ttt.machine import KeyboardEntryError, MachineOptions, StopKind, keys_to_word
from univac_ttt.machine.word import from_int, to_int
from univac_ttt.packs.tictactoe import load_tictactoe

SHIPPED = load_tictactoe()


BRD = SHIPPED.program.address_of("BRD")


SQUARE_WORDS = {from_int(k): k for k in range(1, 10)}




def board_of(session):
    return [to_int(session.machine.mem[BRD + k]) for k in range(1, 10)]


codes = st.integers(min_value=0, max_value=63).map(chr)


words = st.text(alphabet=codes, min_size=12, max_size=12)


documented = {StopKind.HALT, StopKind.BREAKPOINT, StopKind.KEYBOARD, StopKind.STEP_LIMIT,
              StopKind.ERROR}


@given(st.lists(entries, min_size=1, max_size=12))
def test_keyboard_fuzz_never_breaks_the_game(typed):
    session = GameSession(SHIPPED.image.words)
    for text in typed:
        before_board = board_of(session)
        before_state = session.machine.snapshot()
        try:
            word = keys_to_word(text.strip())  # a line's end blanks are not keyed
        except KeyboardEntryError:
            word = None
        result = session.submit(text)
        assert session.waiting_for_keyboard, "the game must always go on"
        if word is None:
            assert not result.accepted
            assert session.machine.snapshot() == before_state
            continue
        assert result.accepted
        square = SQUARE_WORDS.get(word)
        if square is None or before_board[square - 1] != 0:
            assert board_of(session) == before_board  # a warning, and nothing changed
            assert "NOT A SQUARE CODE" in session.paper[-200:] or "TAKEN" in session.paper[-200:]


@given(st.dictionaries(st.integers(0, 999), words, max_size=60),
       st.lists(words, max_size=5), st.booleans(), st.sampled_from(["transfer", "stop"]),
       st.sampled_from(["latency", "average"]), st.booleans())
def test_random_memory_images_always_end_in_a_documented_state(
        memory, typed, right_half, overflow, timing, switch):
    options = MachineOptions(right_half_after_transfer=right_half, overflow=overflow,
                             timing=timing, breakpoint_switch=switch)
    desk = Desk(memory, options, Limits(cap=600))
    desk.keyboard.replace_pending(list(reversed(typed)))
    machine = desk.machine
    for _ in range(5):  # start again after each stop, as an operator would
        stop = desk.run()
        assert stop.kind in documented
        assert 0 <= stop.address <= 999 and stop.half in ("left", "right")
        assert stop.reason
    state = machine.snapshot()
    for word in (*state.mem, state.a, state.x, state.l, state.f, *state.v, *state.y, state.cr):
        assert len(word) == 12 and all(ord(ch) < 64 for ch in word)
    assert 0 <= state.cc <= 999 and state.half in (0, 1)
