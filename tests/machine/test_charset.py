from univac_ttt.machine import charset
from univac_ttt.machine.charset import BY_GLYPH, CHARACTERS, Kind


def test_all_64_codes_once_with_unique_glyphs():
    assert [c.code for c in CHARACTERS] == list(range(64))
    assert len({c.glyph for c in CHARACTERS}) == 64


def test_digits_are_excess_three():
    for d in range(10):
        assert BY_GLYPH[str(d)].code == d + 3


def test_letters_follow_the_reference_chart():
    expected = {"A": 0o24, "I": 0o34, "J": 0o44, "R": 0o54, "S": 0o65, "Z": 0o74,
                "B": 0b010101, "L": 0b100110, "Q": 0b101011, "U": 0b110111, "X": 0b111010}
    for glyph, code in expected.items():
        assert BY_GLYPH[glyph].code == code


def test_symbols_placed_as_in_the_reference():
    expected = {"-": 0o02, "(": 0o17, ",": 0o21, ".": 0o22, ";": 0o23, "#": 0o35, ")": 0o43,
                "$": 0o55, "+": 0o63, "/": 0o64, "%": 0o75, "=": 0o62, "?": 0o57}
    for glyph, code in expected.items():
        assert BY_GLYPH[glyph].code == code


def test_the_high_speed_printer_split_51_printable_and_13_not():
    """S-HSP: 63 characters, 51 printable; the printer controls and ignore, space, the
    typewriter codes and the unused one make the other 13 (57 is fast feed III, written ?)."""
    printable = [c for c in CHARACTERS if c.kind in (Kind.DIGIT, Kind.LETTER, Kind.SYMBOL)
                 and c.code != 0o36]  # the cent sign: typed, but the HSP shows a stand-in
    assert len(printable) == 51
    assert BY_GLYPH["?"].kind is Kind.PRINTER and BY_GLYPH["?"].typed == ""
    assert CHARACTERS[0o76].name == "fast feed IV" and CHARACTERS[0o62].kind is Kind.SYMBOL


def test_ignore_space_and_unused():
    assert CHARACTERS[0].kind is Kind.IGNORE and CHARACTERS[0].typed == ""
    assert CHARACTERS[1].glyph == "Δ" and CHARACTERS[1].typed == " "
    assert CHARACTERS[0o77].kind is Kind.UNUSED


def test_odd_parity_check_bit():
    assert CHARACTERS[0o03].check_bit == 1  # 0 = 1 000011 (S-GMICH)
    assert CHARACTERS[0o04].check_bit == 0  # 1 = 0 000100
    assert CHARACTERS[0o00].check_bit == 1  # ignore = 1 000000
    for c in CHARACTERS:
        assert (bin(c.code).count("1") + c.check_bit) % 2 == 1


def test_glyph_round_trip():
    text = "".join(c.glyph for c in CHARACTERS)
    assert charset.glyphs(charset.from_glyphs(text)) == text


def test_assumed_rows_are_marked():
    assumed = {c.glyph for c in CHARACTERS if c.assumed}
    assert "⏎" in assumed and "'" in assumed
    assert "A" not in assumed


def test_keyboard_keys_exclude_controls():
    assert "⏎" not in charset.KEYBOARD_KEYS
    assert charset.KEYBOARD_KEYS["a"] == charset.KEYBOARD_KEYS["A"]
    assert charset.KEYBOARD_KEYS[" "] == charset.SPACE
    assert "!" not in charset.KEYBOARD_KEYS and ":" not in charset.KEYBOARD_KEYS


def _doc_rows(part: str) -> list[list[str]]:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "fidelity.md").read_text()
    section = text.split("## Character code", 1)[1].split("\n## ", 1)[0]
    section = section.split("### The other reading", 1)[0 if part == "main" else 1]
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in section.splitlines()
            if line.startswith("| ") and line[2:4].isdigit()]


def _check_row(row: list[str], c: charset.Character) -> None:
    typed_names = {"": "nothing", "\n": "a new line", "\t": "a tab", " ": "a space"}
    octal, glyph, name, kind, typed, basis = row
    assert octal == c.octal and glyph == f"`{c.glyph}`", row
    assert name == c.name and kind == c.kind.value, row
    assert typed == typed_names.get(c.typed, f"`{c.typed}`"), row
    # A row is "assumed" in the code exactly when the page tags it inference or our choice.
    assert basis.startswith(("[I]", "[C]")) == c.assumed, row


def test_the_table_in_the_fidelity_page_is_this_table():
    """docs/fidelity.md lists all 64 codes; each row must say what charset.py says."""
    rows = _doc_rows("main")
    assert len(rows) == 64
    for row, c in zip(rows, CHARACTERS, strict=True):
        _check_row(row, c)


def test_the_other_reading_in_the_fidelity_page_is_the_label_reading():
    """The disputed codes under --code-reading label, as the page's second table has them;
    the switch refills every table in place, and switching back restores the default."""
    rows = _doc_rows("other")
    assert [int(row[0], 8) for row in rows] == [0o37, 0o62, 0o76]
    try:
        charset.use_reading("label")
        for row in rows:
            _check_row(row, charset.CHARACTERS[int(row[0], 8)])
        assert charset.from_glyphs("=") == chr(0o76) and charset.glyphs(chr(0o62)) == "@"
        assert charset.TYPED[0o76] == "=" and charset.TYPED[0o62] == ""
        assert "=" in charset.KEYBOARD_KEYS and "@" not in charset.KEYBOARD_KEYS
    finally:
        charset.use_reading("stand-in")
    assert charset.from_glyphs("=") == chr(0o62) and charset.TYPED[0o76] == ""
    assert charset.KEYBOARD_KEYS["="] == chr(0o62) and len(charset.BY_GLYPH) == 64
