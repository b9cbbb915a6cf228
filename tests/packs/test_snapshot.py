"""A shipped pack's snapshot.json: what a full read of its folder gives, used only while the
files it records are unchanged (packs/snapshot.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from univac_ttt.packs import HERE, read_shipped_folder, shipped_names, snapshot
from univac_ttt.packs.snapshot import SNAPSHOT_FILE, load_snapshot, snapshot_text


@pytest.mark.parametrize("name", shipped_names())
def test_the_committed_snapshot_is_what_a_full_read_gives_now(name):
    folder = Path(HERE) / name
    assert (folder / SNAPSHOT_FILE).is_file(), "write it: python -m univac_ttt.packs.snapshot"
    fresh = snapshot_text(folder, read_shipped_folder(name))
    committed = (folder / SNAPSHOT_FILE).read_text(encoding="utf-8")
    assert committed == fresh, "rebuild it: python -m univac_ttt.packs.snapshot"


@pytest.mark.parametrize("name", shipped_names())
def test_a_pack_from_its_snapshot_is_the_pack_read_in_full(name):
    full, quick = read_shipped_folder(name), load_snapshot(Path(HERE) / name)
    assert quick is not None
    assert quick == full  # every field pack.toml gives
    assert quick.words == full.words
    assert quick.boot_tape().blocks == full.boot_tape().blocks
    assert {u: r.blocks for u, r in quick.reels().items()} == \
        {u: r.blocks for u, r in full.reels().items()}
    assert [t.blocks for t in quick.tapes] == [t.blocks for t in full.tapes]
    assert all(quick.label_address(label) == address  # from the snapshot, not assembled
               for label, address in full.program.symbols.items())
    assert quick.label_address("NO SUCH LABEL") is None
    program, assembled = quick.program, full.program  # assembled when first asked for
    assert program is not None and assembled is not None
    assert program.symbols == assembled.symbols
    assert program.image.remarks == assembled.image.remarks
    assert quick.caption_addresses() == full.caption_addresses()


@pytest.fixture
def package_copy(tmp_path, monkeypatch):
    """univac_ttt's tic-tac-toe folder and loader copied, the snapshot reading from there."""
    root = tmp_path / "univac_ttt"
    shutil.copytree(Path(HERE) / "tictactoe", root / "packs" / "tictactoe",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / "program").mkdir()
    shutil.copy(Path(snapshot.PACKAGE_ROOT) / snapshot.LOADER, root / snapshot.LOADER)
    monkeypatch.setattr(snapshot, "PACKAGE_ROOT", root)
    return root


def test_the_snapshot_is_used_while_its_files_are_unchanged(package_copy):
    assert load_snapshot(package_copy / "packs" / "tictactoe") is not None


@pytest.mark.parametrize("changed", ["packs/tictactoe/tictactoe.ucs",
                                     "packs/tictactoe/pack.toml",
                                     "packs/tictactoe/tictactoe.tape",
                                     "program/loader.ucs"])
def test_any_changed_file_sends_the_read_to_the_folder(package_copy, changed):
    path = package_copy / changed
    path.write_bytes(path.read_bytes() + b"\n")
    assert load_snapshot(package_copy / "packs" / "tictactoe") is None


@pytest.mark.parametrize("damage", [b"", b"{not json", b'{"format": 999}', b"[]",
                                    f'{{"format": {snapshot.FORMAT}, "files": {{}}}}'.encode()])
def test_a_damaged_or_foreign_snapshot_is_not_used(package_copy, damage):
    folder = package_copy / "packs" / "tictactoe"
    (folder / SNAPSHOT_FILE).write_bytes(damage)
    assert load_snapshot(folder) is None


def test_a_folder_without_a_snapshot_has_none(package_copy):
    folder = package_copy / "packs" / "tictactoe"
    (folder / SNAPSHOT_FILE).unlink()
    assert load_snapshot(folder) is None


@pytest.mark.parametrize("text", [
    (Path(HERE) / "tictactoe" / SNAPSHOT_FILE).read_text(encoding="utf-8"),
    ' \n{"a": [1, -2.5e3, "x\\u00e9\\n", null, true, false, {}], "b": {"c": []}}\t\r\n', "[]",
    '"only a string"', "12"])
def test_a_snapshot_is_read_as_json_reads_it(text):
    import json

    assert snapshot._parsed(text.encode("utf-8")) == json.loads(text)


@pytest.mark.parametrize("text", ["", "  ", "{not json", "[] []", '{"a": 1} x', "[1,]",
                                  '{"a": 1', "nul"])
def test_what_json_refuses_the_snapshot_reader_refuses(text):
    import json

    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        snapshot._parsed(text.encode("utf-8"))


def test_a_scanner_that_wants_more_of_the_stand_in_is_json_read_instead(monkeypatch):
    """The snapshot reader hands _json's C scanner a stand-in for json's decoder; should a
    later Python's scanner ask it for more, the snapshot is read by json itself (not a
    last-guard internal error at every play and verify)."""
    import _json
    import json

    def wants_more(context: object) -> object:
        raise AttributeError("'_Scanning' has no attribute 'array_hook'")

    monkeypatch.setattr(_json, "make_scanner", wants_more)
    text = (Path(HERE) / "tictactoe" / SNAPSHOT_FILE).read_text(encoding="utf-8")
    assert snapshot._parsed(text.encode("utf-8")) == json.loads(text)
