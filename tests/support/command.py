"""The command as a user runs it: a real process, pipes, an exit status, a time limit.

By default the process is a fork of the test's own interpreter that runs
``univac_ttt.cli.main`` on its own standard streams (the pipes), its own signals and its
own exit status: everything ``python -m univac_ttt`` does except starting an interpreter
and importing the package again, which cost ~0.1 s of CPU a run and were a sixth of the
suite's CPU. ``--long`` (or ``UNIVAC_TTT_TEST_FRESH=1``) runs every one of them as a
fresh ``python -m univac_ttt`` instead; the pty tests fork the same way
(support/terminal.py), calling the installed script's ``launch.main``.
"""

from __future__ import annotations

import atexit
import io
import os
import signal
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable

FRESH_VARIABLE = "UNIVAC_TTT_TEST_FRESH"
SIGNALS_RESET = [getattr(signal, name) for name in (
    "SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGCHLD", "SIGWINCH", "SIGQUIT")
    if hasattr(signal, name)]


def fresh_processes() -> bool:
    """True where every run starts a new interpreter (``--long`` sets it for the run)."""
    return os.environ.get(FRESH_VARIABLE, "") not in ("", "0")


def univac(*args: str, stdin: str = "", timeout: float = 60, cwd: str | None = None,
           together: bool = False, env: dict[str, str] | None = None,
           ) -> subprocess.CompletedProcess[str]:
    """``python -m univac_ttt ARGS`` with ``stdin`` typed in; stdout and stderr read
    (with ``together`` stderr goes where stdout goes, as ``2>&1``). ``env`` is the whole
    environment, for variables the command reads as it runs (a staff PIN); one the
    interpreter reads at start-up (a locale) needs a fresh interpreter (support/hostile.py)."""
    argv = [sys.executable, "-m", "univac_ttt", *args]
    if fresh_processes():
        return subprocess.run(argv, input=stdin, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT if together else subprocess.PIPE,
                              text=True, timeout=timeout, cwd=cwd, env=env)

    def environment() -> None:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
    code, out, err = _forked(argv, list(args), stdin.encode(), timeout, cwd, together,
                             environment)
    return subprocess.CompletedProcess(argv, code, out.decode(errors="replace"),
                                       err.decode(errors="replace"))


def univac_process(*args: str, **popen: object) -> subprocess.Popen[str]:
    """``python -m univac_ttt ARGS`` running beside the test (a server it talks to), as
    ``subprocess.Popen(..., text=True, **popen)`` starts it; by default its process is a fork
    of this interpreter that runs ``univac_ttt.cli.main`` (as :func:`univac`'s is), ``--long``
    a fresh interpreter. The pipes, ``env``, ``cwd`` and ``start_new_session`` are kept."""
    argv = [sys.executable, "-m", "univac_ttt", *args]
    kind = subprocess.Popen if fresh_processes() else ForkedProcess
    return kind(argv, text=True, **popen)  # type: ignore[call-overload, no-any-return]


class ForkedProcess(subprocess.Popen):  # type: ignore[type-arg]
    """subprocess.Popen whose child, instead of executing a new interpreter, is a fork that
    runs ``univac_ttt.cli.main`` on the pipes (``python -m univac_ttt`` less the start)."""

    def _execute_child(self, args, executable, preexec_fn, close_fds, pass_fds, cwd,  # type: ignore[no-untyped-def, override]
                       env, startupinfo, creationflags, shell, p2cread, p2cwrite, c2pread,
                       c2pwrite, errread, errwrite, restore_signals, gid, gids, uid, umask,
                       start_new_session, process_group):
        from tests.support.terminal import _as_after_exec
        from univac_ttt.cli import main  # imported here once, then shared by every fork

        command = [str(a) for a in args[3:]]  # after python -m univac_ttt
        pid = os.fork()
        if pid == 0:  # the child: never returns into the test
            try:
                if start_new_session:
                    os.setsid()
                for fd, standard in ((p2cread, 0), (c2pwrite, 1), (errwrite, 2)):
                    if fd != -1:  # -1: the test's own stream, inherited
                        os.dup2(fd, standard)
                for fd in {p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite} - {
                        -1, 0, 1, 2}:
                    os.close(fd)
                _as_after_exec()  # no copy of the test's other descriptors kept open
                if cwd is not None:
                    os.chdir(cwd)
                if env is not None:
                    os.environ.clear()
                    os.environ.update(env)
            except BaseException:  # noqa: BLE001 - never back into the test
                os._exit(1)
            become_command(lambda: main(command), ["univac_ttt", *command])
        self.pid = pid
        self._child_created = True
        self._close_pipe_fds(p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite)


def univac_bytes(*args: str, stdin: bytes = b"", timeout: float = 60,
                 preexec_fn: Callable[[], None] | None = None,
                 ) -> subprocess.CompletedProcess[bytes]:
    """As :func:`univac`, with bytes in and out (hostile input is not text), and
    ``preexec_fn`` run in the child just before the command, as subprocess runs it just
    before the new program (a file-size limit, say)."""
    argv = [sys.executable, "-m", "univac_ttt", *args]
    if fresh_processes():
        return subprocess.run(argv, input=stdin, capture_output=True, timeout=timeout,
                              preexec_fn=preexec_fn)
    code, out, err = _forked(argv, list(args), stdin, timeout, None, False, preexec_fn)
    return subprocess.CompletedProcess(argv, code, out, err)


def _forked(argv: list[str], args: list[str], stdin: bytes, timeout: float, cwd: str | None,
            together: bool, preexec_fn: Callable[[], None] | None,
            ) -> tuple[int, bytes, bytes]:
    from univac_ttt.cli import main  # imported here once, then shared by every fork

    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the test
        _child(main, args, cwd, in_read, out_write, out_write if together else err_write,
               (in_write, out_read, err_read, err_write), preexec_fn)
    for fd in (in_read, out_write, err_write):
        os.close(fd)
    streams: dict[int, bytes] = {}

    def read(fd: int) -> None:
        chunks = []
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
        os.close(fd)
        streams[fd] = b"".join(chunks)

    def write() -> None:
        try:
            _write_all(in_write, stdin)
        except BrokenPipeError:  # the command stopped reading: as subprocess.run allows
            pass
        finally:
            os.close(in_write)

    threads = [threading.Thread(target=read, args=(fd,), daemon=True)
               for fd in (out_read, err_read)]
    threads.append(threading.Thread(target=write, daemon=True))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    if any(thread.is_alive() for thread in threads):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise subprocess.TimeoutExpired(argv, timeout)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return code, streams[out_read], streams[err_read]


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _child(main, args: list[str], cwd: str | None, stdin: int, stdout: int, stderr: int,
           others: tuple[int, ...], preexec_fn: Callable[[], None] | None = None) -> None:
    """Become the command: its streams on fds 0-2, default signals, no test's exit hooks;
    run main and leave with its status as ``sys.exit(main())`` would."""
    try:
        os.dup2(stdin, 0)
        os.dup2(stdout, 1)
        os.dup2(stderr, 2)
        for fd in {stdin, stdout, stderr, *others}:
            os.close(fd)
        if cwd is not None:
            os.chdir(cwd)
    except BaseException:  # noqa: BLE001 - never back into the test
        os._exit(1)
    become_command(lambda: main(args), ["univac_ttt", *args], preexec_fn)


def become_command(run: Callable[[], object], argv: list[str],
                   preexec_fn: Callable[[], None] | None = None) -> None:
    """In a forked child whose fds 0-2 are the command's streams: default signals, no test's
    exit hooks, fresh standard streams and ``sys.argv``; ``run()`` and leave with its status
    as ``sys.exit(run())`` would. Never returns."""
    code = 1
    try:
        for signum in SIGNALS_RESET:
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as Python starts
        atexit._clear()  # the test run's exit hooks are not the command's
        sys.stdin = sys.__stdin__ = open(0, closefd=False)  # noqa: SIM115
        sys.stdout = sys.__stdout__ = open(1, "w", closefd=False)  # noqa: SIM115
        sys.stderr = sys.__stderr__ = io.TextIOWrapper(  # as Python makes it
            open(2, "wb", buffering=0, closefd=False), errors="backslashreplace",  # noqa: SIM115
            line_buffering=True)
        sys.argv = argv
        if preexec_fn is not None:
            preexec_fn()
        try:
            code = _exit_status(run())
        except SystemExit as leaving:
            code = _exit_status(leaving.code)
        except BaseException:  # noqa: BLE001 - what the interpreter would print
            traceback.print_exc()
            code = 1
        atexit._run_exitfuncs()
        threading._shutdown()  # type: ignore[attr-defined] - non-daemon threads, as at exit
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                code = 120 if code == 0 else code
    finally:
        os._exit(code if isinstance(code, int) else 1)


def _exit_status(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    sys.stderr.write(f"{value}\n")
    return 1


def read_line(process: subprocess.Popen[str], timeout: float = 60.0) -> str:
    """The next line ``process`` writes to its stdout pipe ("" at its end), waiting at most
    ``timeout`` seconds: a server that hangs before it announces its ports is killed and
    fails the test, rather than hang the run."""
    assert process.stdout is not None
    stdout = process.stdout
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    if reader.is_alive():
        process.kill()  # its end of the pipe closes: the reader's readline returns
        reader.join(5)
        raise AssertionError(f"the command wrote no line in {timeout:g} s")
    return line[0]
