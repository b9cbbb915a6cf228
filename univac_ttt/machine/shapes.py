"""One code object for every block of the same shape: blocks that differ only in constants.

Code that writes its own instructions (an address stepped through a table) makes many
blocks whose sources differ only in their literals: operand addresses, the words compared
before each pair, the clock's offsets. Compiling is most of what making a block costs, so
a block's source is split into its shape (the text with every literal replaced by a
placeholder of the same type, one for each distinct literal) and its literals; the shape is
compiled once (``compiled.CODE``, kept by hostio/block_cache.py like any source), and each
block gets a copy of its code object whose constants are the block's own literals.

That copy runs exactly what compiling the block's own source would run, provided the
compiler used each placeholder only as a value to load: ``bindable`` checks the bytecode
(every placeholder is loaded by LOAD_CONST and by nothing else; one the compiler folded
into another constant, or tested and dropped, is missing from the loads), and a shape that
fails runs from its block's own source. tests/machine/test_shapes.py compares the two
forms' instructions for every block of the tic-tac-toe program and the differential tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import CodeType, FunctionType

# A literal: a string as repr writes it, or a decimal integer not part of a name or a
# number's sign (``-5`` is folded by the compiler into one constant: it stays in the shape).
_LITERAL = re.compile(r"""((?=['"\d])(?:'[^'\\\n]*(?:\\.[^'\\\n]*)*'|"""  # (the lookahead:
                      r""""[^"\\\n]*(?:\\.[^"\\\n]*)*"|"""  # a faster scan)
                      r"""(?<![\w.\-])\d+(?![\w.])))""")
_INT_BASE = 7 * 10**40  # placeholder ints: _INT_BASE + i; strings: "\x7f" + i (no word has \x7f)
_INTS: list[str] = []  # placeholder texts by index, made once
_STRINGS: list[str] = []
_SLOTS: dict[CodeType, tuple[CodeType, tuple[int, ...]] | None] = {}  # module code -> binding
_SLOTS_LIMIT = 4096
# A skeleton (the text with its literals' places marked) -> its compiled variants: (the
# variant's classes, the first occurrence standing for each, the code and its slots).
Variant = tuple[list[int], list[int], CodeType, tuple[int, ...]]
_VARIANTS: dict[str, list[Variant]] = {}
_VARIANTS_LIMIT = 2048
_PER_SKELETON = 6  # variants before one with a class for every occurrence (fits any block)


def _placeholder_texts(count: int) -> None:
    while len(_INTS) < count:
        i = len(_INTS)
        _INTS.append(str(_INT_BASE + i))
        _STRINGS.append(repr(f"\x7f{i}"))


def split(source: str) -> tuple[str, list[str], list[str]]:
    """(skeleton, the text between literals, the literals): the skeleton is the source with
    each literal's place marked by its type only, the key of the blocks that may share code."""
    parts = _LITERAL.split(source)
    literals = parts[1::2]
    parts[1::2] = ["\x01" if literal[0] in "'\"" else "\x02" for literal in literals]
    return "".join(parts), parts[0::2], literals


def classes(literals: list[str]) -> list[int]:
    """Each occurrence's class: the first occurrence of the same literal."""
    first: dict[str, int] = {}
    return [first.setdefault(literal, j) for j, literal in enumerate(literals)]


def shape(texts: list[str], literals: list[str], cls: list[int]) -> tuple[str, list[int]]:
    """The compilable shape for the classes ``cls``: a placeholder for each class (the i-th
    class to appear by placeholder i), and the first occurrence of each class in order. With
    the block's own classes the compiler's table of constants has exactly the shape of the
    block's own (the same size and order, hence the same bytecode)."""
    rank: dict[int, int] = {}
    for c in cls:
        if c not in rank:
            rank[c] = len(rank)
    _placeholder_texts(len(rank))
    parts = [texts[0]]
    for j, c in enumerate(cls):
        parts.append(_STRINGS[rank[c]] if literals[j][0] in "'\"" else _INTS[rank[c]])
        parts.append(texts[j + 1])
    return "".join(parts), list(rank)


def function(source: str, namespace: dict[str, object],
             code_of: Callable[[str], CodeType]) -> FunctionType | None:
    """The block function of ``source`` with ``namespace`` as its globals, from the code of
    a shape of the same skeleton whose classes fit its literals (compiled here, through
    ``code_of``, when none fits), or None when the compiler did more with a placeholder
    than load it (the caller compiles the source itself)."""
    skeleton, texts, literals = split(source)
    variants = _VARIANTS.get(skeleton)
    if variants is None:
        if len(_VARIANTS) >= _VARIANTS_LIMIT:
            _VARIANTS.clear()
        variants = _VARIANTS[skeleton] = []
    for cls, firsts, code, slots in variants:
        if list(map(literals.__getitem__, cls)) == literals:  # equal wherever cls says
            return bind(code, slots, [literals[j] for j in firsts], namespace)
    own = classes(literals)
    if not variants:
        cls = own
    elif len(variants) < _PER_SKELETON:  # finer than the last and this block: fits both
        cls = classes([f"{a} {b}" for a, b in zip(own, variants[-1][0], strict=True)])
    else:
        cls = list(range(len(literals)))
    text, firsts = shape(texts, literals, cls)
    uses: dict[int, int] = {}
    for c in cls:
        uses[c] = uses.get(c, 0) + 1
    if "finally:" in text:  # (a finally body is compiled twice: its loads count double)
        return None
    binding = bindable(code_of(text), [uses[j] for j in firsts])
    if binding is None:
        return None
    variants.append((cls, firsts, *binding))
    return bind(*binding, [literals[j] for j in firsts], namespace)


_VALUES: dict[str, int | str] = {}  # literal -> its value (the same words come back)
_VALUES_LIMIT = 8192


def _value(literal: str) -> int | str:
    value = _VALUES.get(literal)
    if value is not None:
        return value
    if literal[0] not in "'\"":
        value = int(literal)
    else:
        value = literal[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
        if repr(value) != literal:  # (a character repr leaves as it is, beyond Latin-1)
            raise ValueError(literal)
    if len(_VALUES) >= _VALUES_LIMIT:
        _VALUES.clear()
    _VALUES[literal] = value
    return value


def _loaded(code: CodeType) -> tuple[dict[int, int], set[int]]:
    """How often LOAD_CONST loads each co_consts index in ``code``, and the indexes other
    instructions use (KW_NAMES' tuples, say). Found by searching the opcodes (a CACHE entry
    is all zeros, so no byte there is taken for an opcode), not by a loop over them all:
    a shape brought from the block cache is checked in every new process."""
    import opcode  # (only when a shape is first used in a process: not at start-up)

    raw = code.co_code
    ops, args = raw[0::2], raw[1::2]
    extended_arg = opcode.EXTENDED_ARG

    def arg_at(k: int) -> int:
        arg, shift = args[k], 8
        while k > 0 and ops[k - 1] == extended_arg:
            k -= 1
            arg |= args[k] << shift
            shift += 8
        return arg

    loaded: dict[int, int] = {}
    other: set[int] = set()
    for op in opcode.hasconst:
        k = ops.find(op)
        while k >= 0:
            index = arg_at(k)
            if op == opcode.opmap["LOAD_CONST"]:
                loaded[index] = loaded.get(index, 0) + 1
            else:
                other.add(index)
            k = ops.find(op, k + 1)
    return loaded, other


def bindable(module: CodeType, uses: list[int]) -> tuple[CodeType, tuple[int, ...]] | None:
    """(the function's code, the co_consts index of each placeholder) for a shape compiled
    as a module defining one function, whose placeholder i stands in ``uses[i]`` places of
    its text; None when the compiler did anything with a placeholder but load it where the
    text has it (folded into another constant, tested and dropped, put in a tuple): each
    must be loaded by LOAD_CONST at least as often as the text names it, by nothing else,
    and no other constant may be made from one. Then the block runs from its own source."""
    known = _SLOTS.get(module, False)
    if known is not False:
        return known  # type: ignore[return-value]
    functions = [c for c in module.co_consts if isinstance(c, CodeType)]
    found: tuple[CodeType, tuple[int, ...]] | None = None
    if len(functions) == 1:
        code = functions[0]
        count = len(uses)
        marks = {_INT_BASE + i for i in range(count)} | {f"\x7f{i}" for i in range(count)}
        where = {value: index for index, value in enumerate(code.co_consts)
                 if value.__class__ in (int, str) and value in marks}
        loaded, other = _loaded(code)
        slots = []
        for i in range(count):
            index = where.get(_INT_BASE + i, where.get(f"\x7f{i}"))
            if index is None or loaded.get(index, 0) < uses[i] or index in other:
                break
            slots.append(index)
        else:
            if not any(_derived(c, marks) for c in code.co_consts):
                found = (code, tuple(slots))
    if len(_SLOTS) >= _SLOTS_LIMIT:
        _SLOTS.clear()
    _SLOTS[module] = found
    return found


def _derived(value: object, marks: set[object]) -> bool:
    """Whether a constant holds a placeholder, or was made from one by the compiler."""
    if isinstance(value, (tuple, frozenset)):
        return any(_derived(item, marks) or item in marks for item in value)
    if isinstance(value, CodeType):
        return any(_derived(item, marks) or item in marks for item in value.co_consts)
    if value.__class__ is int:
        return value not in marks and abs(value) >= _INT_BASE // 2  # type: ignore[arg-type]
    if value.__class__ is str:
        return value not in marks and "\x7f" in value  # type: ignore[operator]
    return False


def bind(code: CodeType, slots: tuple[int, ...], literals: list[str],
         namespace: dict[str, object]) -> FunctionType:
    """The block's function: ``code`` with ``literals`` in its ``slots`` of constants, and
    ``namespace`` as its globals."""
    consts = list(code.co_consts)
    for index, literal in zip(slots, literals, strict=True):
        consts[index] = _value(literal)
    return FunctionType(code.replace(co_consts=tuple(consts)), namespace)
