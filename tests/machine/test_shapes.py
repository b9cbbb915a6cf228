"""Blocks sharing the code of their shape (machine/shapes.py): the code a block runs is the
code of its own source, and self-modifying code whose blocks share it runs as the
reference CPU does."""

from __future__ import annotations

import dis
import opcode
from types import CodeType

import pytest

from tests.machine.test_differential import same, twin
from tests.support.reference_cpu import reference_run
from univac_ttt.machine import (
    Machine,
    MachineOptions,
    PaperPrinter,
    QueueKeyboard,
    StopKind,
    blockgen,
    compiled,
    shapes,
)
from univac_ttt.machine.word import from_int, instruction

_JUMPS = set(dis.hasjrel) | set(dis.hasjabs)


def _steps(code: CodeType) -> list[tuple[str, object]]:
    """What ``code`` does, instruction by instruction: each operation with the value it
    loads or names, a jump with the instruction it goes to (not its offset: a longer
    table of constants moves offsets by its EXTENDED_ARGs)."""
    instructions = [i for i in dis.get_instructions(code) if i.opname != "EXTENDED_ARG"]
    index = {i.offset: n for n, i in enumerate(instructions)}
    steps: list[tuple[str, object]] = []
    for i in instructions:
        if i.opcode in _JUMPS:
            steps.append((i.opname, index[i.argval]))
        elif i.opcode in dis.hasconst:
            steps.append((i.opname, (type(i.argval), repr(i.argval))))
        else:
            steps.append((i.opname, i.argval))
    return steps


def _own(source: str) -> CodeType:
    module = compile(source, "<string>", "exec")
    return next(c for c in module.co_consts if isinstance(c, CodeType))


@pytest.fixture()
def made_blocks(monkeypatch) -> list[tuple[str, dict[str, object]]]:
    """Every block source (and namespace) compiled from now on, blocks hot sooner."""
    monkeypatch.setattr(blockgen, "HOT_RUNS", 60)
    for tables in compiled.TABLES.values():
        tables.forget()
    made: list[tuple[str, dict[str, object]]] = []
    real = compiled._function_of

    def kept(source: str, namespace: dict[str, object]):  # type: ignore[no-untyped-def]
        made.append((source, dict(namespace)))
        return real(source, namespace)

    monkeypatch.setattr(compiled, "_function_of", kept)
    return made


def test_the_opcodes_the_check_relies_on_are_this_pythons():
    assert opcode.opmap["LOAD_CONST"] in opcode.hasconst


def test_every_block_of_the_game_runs_what_its_own_source_compiles_to(made_blocks):
    """Games of the tic-tac-toe program (its table scans write their own instructions):
    every block's code, from its shape, does what compiling its own source gives, and the
    game's blocks share fewer shapes than they have sources."""
    from univac_ttt.packs.tictactoe import load_tictactoe

    keyboard, printer = QueueKeyboard(), PaperPrinter()
    machine = Machine(keyboard=keyboard, printer=printer)
    machine.load(load_tictactoe().image.words)
    for move in ["5", "9", "7", "2", "6", "1", "3", "8", "4"] * 6:
        assert machine.run(2_000_000).kind is StopKind.KEYBOARD
        keyboard.type_line(move)
    assert len(made_blocks) > 60  # (fewer since stepped addresses are read at run time)
    skeletons = set()
    for source, namespace in made_blocks:
        function = shapes.function(source, dict(namespace), compiled._code_of)
        assert function is not None, source  # every block of it can share its shape's code
        code, own = function.__code__, _own(source)
        assert _steps(code) == _steps(own)
        assert (code.co_names, code.co_varnames) == (own.co_names, own.co_varnames)
        skeletons.add(shapes.split(source)[0])
    # (a stepped address read at run time makes no block a word: fewer blocks to share)
    assert len(skeletons) < len(made_blocks) * 2 / 3


def test_the_first_block_of_a_shape_runs_exactly_the_bytecode_of_its_own_source():
    """The block's own equalities make the shape's table of constants, so there are no
    more EXTENDED_ARGs than in its own code (fewer instructions run)."""
    source = ("def block(m, room):\n mem = m.mem\n n = 11\n ra = mem[457]\n"
              " if mem[11] != 'ABC':\n  return 4107\n m._a = ra\n return n + 4096\n")
    function = shapes.function(source, {}, compiled._code_of)
    assert function is not None
    own = _own(source)
    assert function.__code__.co_code == own.co_code
    assert function.__code__.co_consts == own.co_consts


def test_literals_the_compiler_folds_keep_a_source_its_own_code():
    """A sum of two constants, a constant tested by ``if`` and one in a tuple are not
    loaded as they are: such a shape is refused, and the block compiled from its source."""
    for body in (" return 3 + 4\n", " if 0:\n  return 5\n return 6\n",
                 " return m in (1, 2)\n", " return 'ab' 'cd'\n", " return -(7)\n",
                 # the same literals loaded elsewhere too: the fold must still be seen
                 " n = 11\n x = 4096\n return 11 + 4096 + n\n",
                 " n = 0\n if 0:\n  n = 5\n return n\n",
                 " n = 12\n return n % 10 if 12 % 10 else n\n"):
        source = "def block(m, room):\n" + body
        assert shapes.function(source, {}, compiled._code_of) is None, body
        assert compiled._function_of(source, {})(1, 0) == _run(source)


def _run(source: str) -> object:
    namespace: dict[str, object] = {}
    exec(compile(source, "<test>", "exec"), namespace)  # noqa: S102
    return namespace["block"](1, 0)  # type: ignore[operator]


def _compiled() -> int:
    """Sources compiled so far (shapes and sources, kept in compiled.CODE)."""
    return sum(1 for code in compiled.CODE.values() if code.co_name == "<module>")


def _start(source: str) -> int:
    """The address of a block's first pair (its first ``t += ((A - t // 91) ...``)."""
    return int(source.split("t += ((", 1)[1].split(" ", 1)[0])


def _rotating_scan(operands: list[int]) -> dict[int, str]:
    """A loop whose first pair is taken each pass from a table at 200 (B of one of
    ``operands``, A 060), which it then rotates: the words at 010 cycle through the
    table, each a block of the same shape, some of whose operands equal other literals
    of the block (061, the sum it stores; 010 itself)."""
    table = [instruction("B", a) + instruction("A", 60) for a in operands]
    memory = {0: instruction("00", 0) + instruction("U", 10), 10: table[-1],
              11: instruction("H", 61) + instruction("U", 20),
              20: instruction("B", 200) + instruction("H", 10)}
    for i in range(len(table) - 1):
        memory[21 + i] = instruction("B", 201 + i) + instruction("H", 200 + i)
    memory[20 + len(table)] = instruction("B", 10) + instruction("H", 199 + len(table))
    memory[21 + len(table)] = instruction("00", 0) + instruction("U", 10)
    memory.update({200 + i: word for i, word in enumerate(table)})
    memory.update({60: from_int(7), 61: from_int(0)})
    memory.update({40 + i: from_int(1000 + i) for i in range(10)})
    return memory


def test_a_self_writing_loop_shares_its_shape_and_matches_the_reference(made_blocks,
                                                                        monkeypatch):
    """Eight words cycle through 010; their blocks (and, once the place is hot, their
    followed blocks) share a few shapes, and every run stops where the reference does."""
    monkeypatch.setattr(blockgen, "SHARE_BY_ADDRESS", True)  # the place's count shared
    memory = _rotating_scan([40, 41, 61, 42, 43, 10, 44, 45])
    before = _compiled()
    fast, ref = twin(MachineOptions(), memory, [])
    for steps in (3000, 1, 3, 29, 500, 7, 2001, 4000):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    at_ten = [source for source, _ in made_blocks if _start(source) == 10]
    assert len(at_ten) >= 8
    assert compiled.TABLES[False].hot(10)
    assert _compiled() - before < len(made_blocks) / 2  # the shapes compiled, not each block


def test_shared_shapes_leave_exactly_after_deposits_breakpoints_and_restores(made_blocks):
    """The same loop, with words deposited into the table and the loop between runs, a
    breakpoint on the rotating pair, and a restore to an earlier state."""
    from tests.machine.test_differential import replay

    memory = _rotating_scan([40, 41, 42, 43])
    fast, ref = twin(MachineOptions(), memory, [])
    same(fast, ref, fast[0].run(3000), reference_run(ref[0], 3000))
    saved = [fast[0].snapshot()]
    events = [("deposit", 201, instruction("B", 61) + instruction("A", 60)), ("run", 333),
              ("deposit", 10, instruction("B", 10) + instruction("A", 60)), ("run", 1),
              ("run", 101), ("restore", 0), ("run", 77), ("break", 10), ("run", 50),
              ("resume",), ("run", 50), ("restore", 0), ("run", 999)]
    replay(fast, ref, events, saved)
