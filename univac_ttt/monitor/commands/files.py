"""The host's files: save, restore, do, log (refused where files are off, e.g. served)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ...limits import JsonError, load_json
from ...safefile import atomic_write
from ...textfile import TextFileError, check_write_target, read_text_file
from ..sessionlog import SessionLog, SessionLogError
from ..statefile import StateFileError, restore_state, save_state
from .registry import COMMAND_LINE_LIMIT, MonitorError, command

if TYPE_CHECKING:
    from ..core import Monitor

MAX_DO_DEPTH = 8
FILE_LIMIT = 2_000_000  # bytes of a do script or a saved state


@command("save", usage="save FILE", summary="save the whole machine state as JSON", files=True)
def save(mon: Monitor, rest: str) -> list[str]:
    if not rest:
        raise MonitorError("save FILE")
    try:
        check_write_target(rest)
    except TextFileError as exc:
        raise MonitorError(f"cannot write {rest!r}: it {exc.reason}") from None
    data = save_state(mon.desk)
    try:
        atomic_write(rest, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    except OSError as exc:
        raise MonitorError(f"cannot write {rest}: {exc.strerror or exc}") from None
    return [f"saved the machine to {rest}"]


@command("restore", usage="restore FILE", summary="restore a state saved with save",
         files=True)
def restore(mon: Monitor, rest: str) -> list[str]:
    if not rest:
        raise MonitorError("restore FILE")
    try:
        data = load_json(read_text_file(rest, FILE_LIMIT), rest, FILE_LIMIT, max_digits=19)
    except TextFileError as exc:
        raise MonitorError(f"{rest}: {exc.reason}") from None
    except JsonError as exc:
        raise MonitorError(f"not a saved machine: {exc}") from None
    try:
        restore_state(mon.desk, data)
    except StateFileError as exc:
        raise MonitorError(str(exc)) from None
    mon.timeline.forget()
    return [f"restored the machine from {rest}", mon.describe_stop()]


@command("do", usage="do FILE", summary="run the monitor commands in FILE", files=True)
def do(mon: Monitor, rest: str) -> list[str]:
    if not rest:
        raise MonitorError("do FILE")
    if mon.do_depth >= MAX_DO_DEPTH:
        raise MonitorError("do files nested too deeply")
    try:
        lines = read_text_file(rest, FILE_LIMIT).split("\n")
    except TextFileError as exc:
        raise MonitorError(f"{rest}: {exc.reason}") from None
    out: list[str] = []
    mon.do_depth += 1
    try:
        for number, line in enumerate(lines, start=1):
            if mon.finished:
                break
            if not line.strip() or line.strip().startswith("#"):
                continue
            if mon.interrupted():
                out.append(f"?? STOP was pressed: {rest} was left at line {number}")
                break
            if not mon.spend(out):
                break
            if len(line) > COMMAND_LINE_LIMIT:
                out.append(f"?? {rest}, line {number}: longer than "
                           f"{COMMAND_LINE_LIMIT:,} characters; not run")
                continue
            out.append(f"monitor> {line.strip()}")
            out += mon.execute_one(line)
            out += mon.run_actions()
    finally:
        mon.do_depth -= 1
    return out


@command("log", usage="log [FILE | off]",
         summary="append every command and what it printed to FILE; off closes it", files=True)
def log(mon: Monitor, rest: str) -> list[str]:
    if not rest:
        return [f"logging to {mon.log.path}" if mon.log else "no log"]
    if rest == "off":
        if mon.log is None:
            raise MonitorError("no log is open")
        path = mon.log.path
        mon.log.close()
        mon.log = None
        return [f"log {path} closed"]
    try:
        opened = SessionLog(rest)
    except SessionLogError as exc:
        raise MonitorError(str(exc)) from None
    if mon.log is not None:
        mon.log.close()
    mon.log = opened
    return [f"logging to {rest} (appending; log off closes it)"]
