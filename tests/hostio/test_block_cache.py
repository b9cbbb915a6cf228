"""The compiled blocks kept between runs (hostio/block_cache.py): what a good file brings
back, and that no bad file, unwritable folder or switched-off cache ever costs a run."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys

import pytest

from univac_ttt import machine
from univac_ttt.hostio import block_cache
from univac_ttt.hostio.block_cache import BlockCache, cache_file, read_codes, write_codes

SOURCE = "def block(m, room):\n return room + 1\n"
MACHINE = os.path.dirname(machine.__file__)  # the code that makes and calls blocks


def _codes() -> dict:
    return {SOURCE: compile(SOURCE, "<string>", "exec")}


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(block_cache.DISABLE, raising=False)
    return tmp_path


def test_written_code_reads_back_and_runs(cache_home):
    path = cache_file("verify")
    assert path is not None and path.startswith(str(cache_home))
    assert write_codes(path, _codes())
    codes = read_codes(path)
    assert list(codes) == [SOURCE]
    namespace: dict = {}
    exec(codes[SOURCE], namespace)  # noqa: S102 - the test's own source
    assert namespace["block"](None, 41) == 42
    assert os.listdir(os.path.dirname(path)) == [os.path.basename(path)]  # no temporary


@pytest.mark.parametrize("damage", [
    b"", b"garbage", block_cache.HEADER, block_cache.HEADER + b"\0\0\0\0" + b"x",
    b"cut", b"wrong types", b"foreign magic",
])
def test_a_bad_file_is_ignored(cache_home, damage):
    path = cache_file("play")
    assert path is not None and write_codes(path, _codes())
    with open(path, "rb") as handle:
        good = handle.read()
    head = block_cache.HEADER + block_cache._magic()
    data = {b"cut": good[:len(good) // 2],
            b"wrong types": head + marshal.dumps({SOURCE: "not code", 3: 4}),
            b"foreign magic": block_cache.HEADER + b"\1\2\r\n" + good[len(head):]}.get(damage,
                                                                                    damage)
    with open(path, "wb") as handle:
        handle.write(data)
    assert read_codes(path) == {}


def test_a_missing_file_or_a_folder_in_its_place_is_ignored(cache_home):
    path = cache_file("play")
    assert read_codes(path) == {}
    os.makedirs(path)
    assert read_codes(path) == {}
    assert not write_codes(path, _codes())  # a folder where the file goes: not written


@pytest.mark.parametrize("errno", [28, 30, 13])  # a full disk, read-only, no permission
def test_a_failed_write_leaves_no_file_and_raises_nothing(cache_home, monkeypatch, errno):
    def failing_replace(source, target):
        raise OSError(errno, os.strerror(errno))

    monkeypatch.setattr(os, "replace", failing_replace)
    path = cache_file("play")
    assert not write_codes(path, _codes())
    assert os.listdir(os.path.dirname(path)) == []  # the temporary was removed


def test_a_path_through_a_file_is_not_written(cache_home):
    (cache_home / "univac-ttt").write_text("a file where the folder should be")
    assert not write_codes(cache_file("play"), _codes())


def test_switched_off_or_without_a_home_there_is_no_cache(monkeypatch, tmp_path):
    monkeypatch.setenv(block_cache.DISABLE, "1")
    assert cache_file("play") is None
    monkeypatch.delenv(block_cache.DISABLE)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # XDG: ignored, home used
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_file("play") == str(tmp_path / ".cache" / "univac-ttt" /
                                     f"blocks-play-{sys.implementation.cache_tag}.marshal")


def test_saved_only_when_something_new_was_compiled(cache_home):
    codes: dict = {}
    compiled = [0]
    cache = BlockCache("verify", codes, set(), lambda: compiled[0], MACHINE)
    cache.load()
    assert not cache.save() and not os.path.exists(cache.path)
    codes.update(_codes())
    compiled[0] += 1
    assert cache.save() and read_codes(cache.path, cache.stamp).keys() == {SOURCE}
    assert read_codes(cache.path) == {}  # kept under the machine's stamp only
    again = BlockCache("verify", {}, set(), lambda: 0, MACHINE)
    assert again.load() == 1 and not again.save()


@pytest.mark.parametrize("stamp", [b"c357858c\n", b"a0000000\n", b"f0000000\n"])
def test_a_file_read_under_another_stamp_is_never_unmarshalled(cache_home, monkeypatch, stamp):
    """Read without its stamp, a file's stamp digits come first in the body; marshal took
    a code object's or a list's length from them and allocated gigabytes (10 s) before it
    failed. The body must open a dict before marshal sees it."""
    path = cache_file("verify")
    assert path is not None and write_codes(path, _codes(), stamp)
    assert read_codes(path, stamp).keys() == {SOURCE}

    def refuse(data: bytes) -> object:
        raise AssertionError("marshal.loads reached")

    monkeypatch.setattr(block_cache.marshal, "loads", refuse)
    assert read_codes(path) == {}


def test_a_full_cache_keeps_only_what_the_run_used(cache_home, monkeypatch):
    monkeypatch.setattr(block_cache, "KEPT", 2)
    codes = {f"x = {n}\n": compile(f"x = {n}\n", "<string>", "exec") for n in range(5)}
    compiled = [0]
    cache = BlockCache("play", codes, {"x = 3\n"}, lambda: compiled[0], MACHINE)
    cache.load()
    compiled[0] = 1
    assert cache.save()
    assert list(read_codes(cache.path, cache.stamp)) == ["x = 3\n"]


def test_a_cache_written_by_another_build_of_the_machine_is_not_read(cache_home, tmp_path):
    """The same source can be called otherwise by another machine (a block, a shape given
    its constants): another checkout's or release's file is ignored, and replaced."""
    ours = tmp_path / "ours"
    ours.mkdir()
    (ours / "compiled.py").write_text("# one build\n")
    codes = _codes()
    compiled = [0]
    written = BlockCache("play", codes, set(codes), lambda: compiled[0], str(ours))
    written.load()
    compiled[0] = 1
    assert written.save()
    assert BlockCache("play", {}, set(), lambda: 0, str(ours)).load() == 1
    (ours / "compiled.py").write_text("# another build\n")
    other = BlockCache("play", {}, set(), lambda: 0, str(ours))
    assert other.load() == 0 and other.stamp != written.stamp
    unreadable = BlockCache("play", {}, set(), lambda: 0, str(tmp_path / "gone"))
    assert unreadable.load() == 0 and not unreadable.save()


def _verify(env: dict) -> str:
    result = subprocess.run([sys.executable, "-m", "univac_ttt", "verify"], env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return "\n".join(line for line in result.stdout.splitlines()
                     if not line.startswith("wall time"))


def test_the_proof_is_the_same_with_no_cache_a_new_one_a_kept_one_and_a_corrupt_one(
        tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    cold = _verify(env)
    path = cache_file_in(tmp_path, "verify")
    assert os.path.getsize(path) > 0  # written by the first run
    assert _verify(env) == cold  # run from the kept code
    with open(path, "r+b") as handle:  # damaged in the middle
        handle.seek(os.path.getsize(path) // 2)
        handle.write(b"\xff" * 64)
    assert _verify(env) == cold
    assert _verify({**env, block_cache.DISABLE: "1"}) == cold
    assert "PERFECT PLAY PROVED" in cold


def cache_file_in(home, kind: str) -> str:
    return str(home / "univac-ttt" / f"blocks-{kind}-{sys.implementation.cache_tag}.marshal")


def test_the_machine_compiles_a_block_source_once_and_notes_it_used():
    from univac_ttt.machine import compiled

    source = "def block(m, room):\n return 'compiled once, by this test'\n"
    before = compiled.compiled_now
    first, again = compiled._code_of(source), compiled._code_of(source)
    assert first is again and compiled.CODE[source] is first
    assert compiled.compiled_now == before + 1 and source in compiled.USED


def test_the_machines_stamp_follows_its_sources_as_their_bytecode_does(tmp_path):
    """The stamp changes when a source of the machine is edited (a new modification time,
    even at the same size), added or renamed, as Python's check of a module's .pyc does."""
    generator_stamp = block_cache.generator_stamp
    (tmp_path / "compiled.py").write_text("x = 1\n")
    (tmp_path / "notes.txt").write_text("not a source\n")
    first = generator_stamp(str(tmp_path))
    assert first is not None and generator_stamp(str(tmp_path)) == first
    (tmp_path / "notes.txt").write_text("still not a source\n")
    assert generator_stamp(str(tmp_path)) == first
    status = os.stat(tmp_path / "compiled.py")
    (tmp_path / "compiled.py").write_text("x = 2\n")  # the same size
    os.utime(tmp_path / "compiled.py", ns=(status.st_atime_ns, status.st_mtime_ns + 1))
    edited = generator_stamp(str(tmp_path))
    assert edited not in (None, first)
    (tmp_path / "compiled.py").rename(tmp_path / "blocks.py")
    assert generator_stamp(str(tmp_path)) not in (None, first, edited)
    assert generator_stamp(str(tmp_path / "gone")) is None
