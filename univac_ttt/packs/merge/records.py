"""The merge pack's record layout in Python: making reels, reading them back, and the
shipped input reels (run ``python -m univac_ttt.packs.merge.records`` to rewrite them).

The layout is merge.ucs's (docs/merge.md): a record is 10 words, six to a 60-word block;
word 1 the key, word 2 the amount, words 3-10 carried along; an end record of ten words of
nines after the last record, its block filled out with zero words. Nothing here runs the
merge: the UNIVAC does that, and the tests compare what it wrote with Python's own merge.
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...hostio.atomic_files import atomic_write
from ...machine.tape import BLOCK_WORDS, Reel
from ...machine.word import ZERO, from_int, from_text, to_int
from ...program.reel import format_reel

RECORD_WORDS = 10
RECORDS_PER_BLOCK = BLOCK_WORDS // RECORD_WORDS  # 6: no record straddles two blocks
END_WORD = from_text("999999999999")
END_RECORD = (END_WORD,) * RECORD_WORDS
MAX_KEY = 99_999_999_998  # 99,999,999,999 would compare equal to the end record's key
REEL_A_NAME = "input-a.tape"
REEL_B_NAME = "input-b.tape"


@dataclass(frozen=True)
class Record:
    """One item: a key, an amount in cents, and eight words carried along unchanged."""

    key: int
    amount: int
    rest: tuple[str, ...] = (ZERO,) * (RECORD_WORDS - 2)

    def words(self) -> tuple[str, ...]:
        if not 0 <= self.key <= MAX_KEY:
            raise ValueError(f"a key is 0 to {MAX_KEY:,}, not {self.key}")
        if len(self.rest) != RECORD_WORDS - 2:
            raise ValueError("a record carries exactly eight more words")
        return (from_int(self.key), from_int(self.amount), *self.rest)


def text_words(*texts: str) -> tuple[str, ...]:
    """Text padded with spaces into words, the rest of a record's eight words zero."""
    words = [from_text(t.ljust(12)[:12]) for t in texts]
    return tuple(words) + (ZERO,) * (RECORD_WORDS - 2 - len(words))


def reel_of(records: Iterable[Record], name: str = "reel", writable: bool = False) -> Reel:
    """The reel for these records, in the order given, then the end record."""
    words: list[str] = []
    for record in records:
        words.extend(record.words())
    words.extend(END_RECORD)
    words.extend([ZERO] * (-len(words) % BLOCK_WORDS))
    blocks = [tuple(words[i:i + BLOCK_WORDS]) for i in range(0, len(words), BLOCK_WORDS)]
    return Reel(blocks, writable=writable, name=name)


class ReelLayoutError(ValueError):
    """A reel that does not follow the merge's layout."""


def records_of(reel: Reel) -> list[tuple[str, ...]]:
    """The records on a reel, as word tuples, up to its end record; the end record's block
    must be the reel's last and its words after the end record zero (as merge.ucs writes)."""
    words = [word for block in reel.blocks for word in block]
    records = []
    for start in range(0, len(words), RECORD_WORDS):
        record = tuple(words[start:start + RECORD_WORDS])
        if record == END_RECORD:
            tail = words[start + RECORD_WORDS:]
            if len(tail) >= BLOCK_WORDS or any(word != ZERO for word in tail):
                raise ReelLayoutError("words after the end record's block or not zero")
            return records
        records.append(record)
    raise ReelLayoutError("no end record")


def key_of(record: Sequence[str]) -> int:
    value = to_int(record[0])
    if value is None:
        raise ReelLayoutError("a key that is not a number")
    return value


def amount_of(record: Sequence[str]) -> int:
    value = to_int(record[1])
    if value is None:
        raise ReelLayoutError("an amount that is not a number")
    return value


def python_merge(a: Sequence[Record], b: Sequence[Record]) -> list[tuple[str, ...]]:
    """What the merge should write: heapq.merge is stable, so equal keys keep reel A's
    records first."""
    return [r.words() for r in heapq.merge(a, b, key=lambda r: r.key)]


# ---- the shipped reels ------------------------------------------------------------------

_SURNAMES = ("ADAMS", "BAKER", "CLARK", "DAVIS", "EVANS", "FOSTER", "GRANT", "HAYES",
             "IRWIN", "JONES", "KELLY", "LEWIS", "MASON", "NOLAN", "OWENS", "PRICE",
             "QUINN", "REED", "SMITH", "TAYLOR", "UPTON", "VANCE", "WELLS", "YOUNG")
_TOWNS = ("PHILADELPHIA", "NEW YORK", "WASHINGTON", "DAYTON", "CHICAGO", "LOUISVILLE",
          "SCHENECTADY", "PITTSBURGH")


def _keys(first: int, count: int, salt: int) -> list[int]:
    """Keys rising by 7 to 61, from a fixed formula (no random generator whose sequence
    could change between Python versions)."""
    keys, key = [], first
    for i in range(count):
        key += 7 + (i * 37 + salt * 11) % 55
        keys.append(key)
    return keys


def _accounts(keys: Sequence[int], salt: int) -> list[Record]:
    """Deterministic accounts: amounts of $0.01 to $9,999.99, a name, an initial, a town."""
    records = []
    for i, key in enumerate(keys):
        amount = 1 + (key * 7919 + (i + salt) * 104_729) % 999_999
        name = _SURNAMES[(key // 7) % len(_SURNAMES)]
        town = _TOWNS[(key // 3) % len(_TOWNS)]
        records.append(Record(key, amount, text_words(name, f"{chr(65 + key % 26)}.", town)))
    return records


def shipped_a() -> list[Record]:
    """Reel A: 20 accounts, four blocks (the end record is the 21st item)."""
    return _accounts(_keys(1_000_000, 20, 1), 1)


def shipped_b() -> list[Record]:
    """Reel B: 13 accounts, three blocks; two share a key with reel A (A's goes first)."""
    a_keys = _keys(1_000_000, 20, 1)
    keys = sorted(set(_keys(1_000_020, 11, 2)) | {a_keys[3], a_keys[12]})
    return _accounts(keys, 2)


def reel_text(records: Sequence[Record], title: str) -> str:
    """A shipped reel's file: a header, a remark on each record's key and amount."""
    reel = reel_of(records, title)
    remarks: dict[tuple[int, int], str] = {}
    for n, record in enumerate(records):
        block, offset = divmod(n * RECORD_WORDS, BLOCK_WORDS)
        remarks[(block, offset)] = f"record {n + 1}: key"
        remarks[(block, offset + 1)] = f"amount ${record.amount / 100:,.2f}"
    block, offset = divmod(len(records) * RECORD_WORDS, BLOCK_WORDS)
    remarks[(block, offset)] = "the end record: ten words of nines"
    total = sum(r.amount for r in records)
    header = (f"{title}: {len(records)} records in key order, control total "
              f"{total} (${total / 100:,.2f}).\n"
              "One record = 10 words (key, amount, name, initial, town, five zero words),\n"
              "six records a block, then the end record (docs/merge.md).\n"
              "Generated by `python -m univac_ttt.packs.merge.records`; do not edit.")
    return format_reel(reel, header, remarks)


def shipped_texts() -> dict[str, str]:
    return {REEL_A_NAME: reel_text(shipped_a(), "REEL A of the merge pack (Uniservo 2)"),
            REEL_B_NAME: reel_text(shipped_b(), "REEL B of the merge pack (Uniservo 3)")}


def main() -> int:
    here = Path(__file__).parent
    for name, text in shipped_texts().items():
        atomic_write(here / name, text)
        print(f"wrote {here / name}")
    from ..snapshot import main as write_snapshots  # the snapshots record the new reels

    return write_snapshots()


if __name__ == "__main__":
    sys.exit(main())
