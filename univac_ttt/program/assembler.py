"""The assembler: a coding sheet (docs/coding-sheet.md) to a memory image and a symbol table.

A coding sheet line is ``[address] [LABEL:] body [remark]``. Bodies: an instruction pair
``OP ADDR OP ADDR``, a number ``= VALUE``, a word of text ``"12 CHARACTERS"``, a message
``MSG "any length"`` (padded with ignore), or ``RESERVE n`` words of zeros. Lines starting
``##`` name the section the following words belong to; other ``#`` lines are comments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..hostio.bounded_input import NumberError, parse_number
from ..hostio.text_files import TextFileError, read_text_file
from ..machine.charset import BY_GLYPH, FROM_GLYPHS, IGNORE
from ..machine.ops import BAD_ADDRESS, INVALID, decode
from ..machine.word import MEMORY_WORDS, MODULUS, WORD_LENGTH, from_int
from .address import AddressError, evaluate
from .image import MemoryImage

LABEL_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")
MAX_SHEET_BYTES = 2_000_000


class AssemblyError(ValueError):
    def __init__(self, reason: str, line: int, source: str = "coding sheet") -> None:
        super().__init__(f"{source}, line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass
class Program:
    """An assembled program: its image and what the coding sheet says about each word."""

    image: MemoryImage
    symbols: dict[str, int] = field(default_factory=dict)
    labels: dict[int, str] = field(default_factory=dict)  # address -> label
    remarks: dict[int, str] = field(default_factory=dict)  # address -> remark
    sections: dict[int, str] = field(default_factory=dict)  # address -> section title
    kinds: dict[int, str] = field(default_factory=dict)  # "code", "number", "text", "reserve"

    @property
    def size(self) -> int:
        return len(self.image.words)

    def address_of(self, label: str) -> int:
        return self.symbols[label]


@dataclass
class _Item:
    line: int
    address: int
    label: str | None
    kind: str
    operands: list[str]
    remark: str
    section: str
    words: int


def _tokens(text: str, line: int, source: str) -> list[str]:
    """Whitespace-separated tokens, a double-quoted string being one token (quotes kept)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        if text[i] == '"':
            end = text.find('"', i + 1)
            if end < 0:
                raise AssemblyError("a text has no closing quote", line, source)
            out.append(text[i:end + 1])
            i = end + 1
        else:
            j = i
            while j < len(text) and not text[j].isspace():
                j += 1
            out.append(text[i:j])
            i = j
    return out


def _split_body(tokens: list[str], line: int, source: str) -> tuple[str, list[str], int]:
    """(kind, operands, tokens used) for the body at the front of ``tokens``."""
    if not tokens:
        raise AssemblyError("the line has a label or address but no word", line, source)
    first = tokens[0]
    if first == "=":
        if len(tokens) < 2:
            raise AssemblyError("'=' needs a value", line, source)
        return "number", [tokens[1]], 2
    if first.startswith('"'):
        return "text", [first], 1
    if first.upper() == "MSG":
        if len(tokens) < 2 or not tokens[1].startswith('"'):
            raise AssemblyError("MSG needs a quoted text", line, source)
        return "message", [tokens[1]], 2
    if first.upper() == "RESERVE":
        if len(tokens) < 2:
            raise AssemblyError("RESERVE needs a count of words, 1 to 1000", line, source)
        _number(tokens[1], "the count of RESERVE (1 to 1000 words)", line, source, 1, 1000)
        return "reserve", [tokens[1]], 2
    if len(tokens) < 4:
        raise AssemblyError(
            "an instruction word needs two instructions: OP ADDRESS OP ADDRESS", line, source)
    return "code", tokens[:4], 4


def _number(text: str, what: str, line: int, source: str, low: int | None = None,
            high: int | None = None, digits: int = 18) -> int:
    """A bounded whole number from the sheet; AssemblyError saying ``what`` otherwise."""
    try:
        return parse_number(text, what, low, high, digits)
    except NumberError as exc:
        raise AssemblyError(str(exc), line, source) from None


def _text_glyphs(quoted: str, line: int, source: str) -> str:
    body = quoted[1:-1].replace(" ", "Δ")
    for ch in body:
        if ch not in BY_GLYPH:
            raise AssemblyError(f"{ch!r} is not a UNIVAC character", line, source)
    return body.translate(FROM_GLYPHS)


def parse_sheet(text: str, source: str = "coding sheet") -> list[_Item]:
    items: list[_Item] = []
    next_address = 0
    section = ""
    labels_seen: dict[str, int] = {}
    for number, raw in enumerate(text.split("\n"), start=1):  # as editors count lines
        stripped = raw.strip()
        if stripped.startswith("##"):
            section = stripped.lstrip("#").strip()
            continue
        if not stripped or stripped.startswith("#"):
            continue
        tokens = _tokens(stripped, number, source)
        address = next_address
        if re.fullmatch(r"\d{3}", tokens[0]):
            address = int(tokens.pop(0))
            if address < next_address:
                raise AssemblyError(
                    f"address {address:03d} overlaps words already placed (next free is "
                    f"{next_address:03d})", number, source)
        label = None
        if tokens and tokens[0].endswith(":"):
            label = tokens.pop(0)[:-1]
            if not LABEL_RE.match(label):
                raise AssemblyError(f"{label!r} is not a label (capital letter first, then "
                                    "capitals, digits or _)", number, source)
            if label in labels_seen:
                raise AssemblyError(f"label {label} is already defined on line "
                                    f"{labels_seen[label]}", number, source)
            labels_seen[label] = number
        kind, operands, used = _split_body(tokens, number, source)
        remark_tokens = tokens[used:]
        remark = stripped
        # Keep the remark as written (its spacing), i.e. the text after the body tokens.
        if remark_tokens:
            position = 0
            for token in tokens[:used]:
                position = stripped.index(token, position) + len(token)
            remark = stripped[position:].strip()
        else:
            remark = ""
        if kind == "message":
            size = max(1, -(-len(_text_glyphs(operands[0], number, source)) // WORD_LENGTH))
        elif kind == "reserve":
            size = int(operands[0])
        else:
            size = 1
        if address + size > MEMORY_WORDS:
            raise AssemblyError(f"the program runs past address 999 (this needs words "
                                f"{address:03d}-{address + size - 1})", number, source)
        items.append(_Item(number, address, label, kind, operands, remark, section, size))
        next_address = address + size
    return items


def assemble(text: str, source: str = "coding sheet") -> Program:
    """Assemble a coding sheet; AssemblyError names the first mistake and its line."""
    items = parse_sheet(text, source)
    symbols = {item.label: item.address for item in items if item.label}
    program = Program(MemoryImage(), symbols)

    def value(expr: str, line: int) -> int:
        try:
            return evaluate(expr, symbols)
        except AddressError as exc:
            raise AssemblyError(exc.reason, line, source) from None

    def address(expr: str, line: int) -> int:
        result = value(expr, line)
        if not 0 <= result < MEMORY_WORDS:
            raise AssemblyError(f"address {expr} = {result} is outside 000-999", line, source)
        return result

    for item in items:
        words: list[str] = []
        if item.kind == "code":
            halves = []
            for op_text, addr_text in (item.operands[:2], item.operands[2:]):
                halves.append(encode_instruction(op_text, address(addr_text, item.line),
                                           item.line, source))
            words = ["".join(halves)]
        elif item.kind == "number":
            operand = item.operands[0]
            if re.fullmatch(r"[+-]?\d+", operand):
                if len(operand.lstrip("+-")) > 11:
                    raise AssemblyError(f"{operand[:20]}... does not fit in a word (11 digits "
                                        "and a sign)", item.line, source)
                number = _number(operand, "the number", item.line, source)
            else:
                number = value(operand, item.line)
            if abs(number) >= MODULUS:
                raise AssemblyError(f"{number} does not fit in a word (11 digits and a sign)",
                                    item.line, source)
            words = [from_int(number)]
        elif item.kind == "text":
            glyphs = _text_glyphs(item.operands[0], item.line, source)
            if len(glyphs) != WORD_LENGTH:
                raise AssemblyError(f"a text word has exactly 12 characters, not "
                                    f"{len(glyphs)} (use MSG for longer or shorter text)",
                                    item.line, source)
            words = [glyphs]
        elif item.kind == "message":
            glyphs = _text_glyphs(item.operands[0], item.line, source)
            padded = glyphs + IGNORE * (-len(glyphs) % WORD_LENGTH or 0)
            if not padded:
                padded = IGNORE * WORD_LENGTH
            words = [padded[i:i + WORD_LENGTH] for i in range(0, len(padded), WORD_LENGTH)]
        else:
            words = [from_int(0)] * item.words
        for offset, word in enumerate(words):
            where = item.address + offset
            program.image.words[where] = word
            program.kinds[where] = item.kind
            if item.section:
                program.sections[where] = item.section
        if item.label:
            program.labels[item.address] = item.label
        if item.remark:
            program.remarks[item.address] = item.remark
        listing = " ".join(p for p in (f"{item.label}:" if item.label else "", item.remark) if p)
        if listing:
            program.image.remarks[item.address] = listing
    return program


def encode_instruction(op_text: str, addr: int, line: int = 0, source: str = "") -> str:
    """Six characters for ``OP`` and an address; AssemblyError for an unknown operation."""
    op = op_text if len(op_text) == 2 else op_text + "0"
    if len(op_text) not in (1, 2) or any(ch not in BY_GLYPH for ch in op):
        raise AssemblyError(f"unknown operation {op_text!r}", line, source)
    text = f"{op}0{addr:03d}".translate(FROM_GLYPHS)
    operation, _ = decode(text)
    if operation is INVALID or operation is BAD_ADDRESS:
        raise AssemblyError(f"unknown operation {op_text!r}", line, source)
    return text


def assemble_file(path: str | Path) -> Program:
    try:
        text = read_text_file(path, MAX_SHEET_BYTES)
    except TextFileError as exc:
        raise AssemblyError(exc.reason, exc.line or 0, str(path)) from None
    return assemble(text, str(path))
