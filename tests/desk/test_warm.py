"""desk/warm.py: the demonstrations fill the process's block tables before a server
listens, so the class's games compile nothing the demonstrations reached."""

import pytest

from univac_ttt.desk.session import GameSession
from univac_ttt.desk.warm import warm_blocks
from univac_ttt.machine import compiled
from univac_ttt.packs import shipped_pack
from univac_ttt.program.pack import NO_PACK

TTT = shipped_pack("tictactoe")


@pytest.fixture
def fresh_tables(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Empty block tables for this test (the process's are shared), and a count of the
    blocks compiled meanwhile."""
    monkeypatch.setattr(compiled, "TABLES", {False: compiled.Tables(False),
                                             True: compiled.Tables(True)})
    made = [0]
    compile_block = compiled.compile_block

    def counting(*args: object, **kwargs: object) -> object:
        made[0] += 1
        return compile_block(*args, **kwargs)  # type: ignore[arg-type]
    monkeypatch.setattr(compiled, "compile_block", counting)
    return made


def play(entries: tuple[str, ...]) -> GameSession:
    session = GameSession.from_pack(TTT)
    for entry in entries:
        session.submit(entry)
    return session


def test_after_warming_a_demonstration_game_compiles_nothing(
        fresh_tables: list[int]) -> None:
    first = TTT.demonstrations[0]
    assert warm_blocks(TTT) == sum(len(d.entries) + 1 for d in TTT.demonstrations)
    assert fresh_tables[0] > 100  # the warming made the blocks ...
    fresh_tables[0] = 0
    session = play(first.entries)
    assert fresh_tables[0] == 0  # ... and a game the demonstrations played finds them
    assert session.score.game_results() == ((1, 0, 0) if first.result == "univac"
                                            else (0, 1, 0))


def test_a_repeated_entry_is_warmed_too(fresh_tables: list[int]) -> None:
    warm_blocks(TTT)
    fresh_tables[0] = 0
    session = play(("5", "5"))  # a taken square: the program says so
    assert "TAKEN" in session.paper.upper()
    assert fresh_tables[0] == 0


def test_a_pack_without_demonstrations_is_only_booted(fresh_tables: list[int]) -> None:
    assert warm_blocks(NO_PACK) == 0
