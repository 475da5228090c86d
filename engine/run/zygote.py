"""Page processes forked from a warm one: a process that has imported what every page imports
(the prelude's modules and the child's) forks each page's process, so a page no longer pays
for ``import jax`` (`nox -s bench` times a small page both ways). Nothing that depends on the
page runs before the fork: JAX's backend starts in the page's own process, on its first
computation, under the page's settings.

Linux only (``os.pidfd_open``, ``socket.send_fds``); elsewhere, or with a device that admits one
process, ``start`` returns None and ``run_page`` starts the child as before. Run as
``python -m engine.run.zygote`` with the socket's file descriptor as its argument.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import os
import signal
import socket
import subprocess
import sys
import threading

from engine.run import child
from engine.run.child import ONE_PROCESS_VARIABLE
from engine.run.execute import PRELUDE

MESSAGE_BYTES = 4096
IDLE_KEPT = 4  # zygotes kept for later pages; one per worker of a build, and a few spare


def available() -> bool:
    return hasattr(os, "pidfd_open") and hasattr(socket, "send_fds") and hasattr(os, "fork")


class Forked:
    """A page process from a zygote: the part of ``subprocess.Popen`` that ``run_page`` and the
    build use. The zygote reaps it only once this side knows its exit status, so until then its
    pid names it (and its process group, its session) and no other process."""

    def __init__(self, zygote: Zygote, pid: int, stdin, stdout, stderr) -> None:
        self.zygote, self.pid = zygote, pid
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self._receive(block=False)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self._receive(block=True, timeout=timeout)
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:  # not reaped yet, so the pid is still this process's
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)

    def _receive(self, block: bool, timeout: float | None = None) -> None:
        message = self.zygote.receive(block, timeout)
        if message is not None:
            self.returncode = message["returncode"]
            self.zygote.send({"reap": self.pid})  # the pid may be used again from now on
            self.zygote.release()


class Zygote:
    """One warm process, started in ``project`` with ``env``; it forks one page at a time."""

    def __init__(self, key: tuple, project, env: dict) -> None:
        self.key = key
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.socket = ours
        self.process = subprocess.Popen(
            [sys.executable, "-m", "engine.run.zygote", str(theirs.fileno())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            cwd=project,
            env=env,
            pass_fds=[theirs.fileno()],
            start_new_session=True,  # a Ctrl-C in the terminal is for the build, not for it
        )
        theirs.close()
        self._lock = threading.Lock()

    def send(self, message: dict, fds: list[int] = ()) -> None:
        socket.send_fds(self.socket, [json.dumps(message).encode()], list(fds))

    def receive(self, block: bool, timeout: float | None = None) -> dict | None:
        self.socket.settimeout(timeout if block else 0.0)
        try:
            data = self.socket.recv(MESSAGE_BYTES)
        except (BlockingIOError, TimeoutError):
            if block:
                raise subprocess.TimeoutExpired("page process", timeout) from None
            return None
        if not data:
            raise RuntimeError(f"the zygote (pid {self.process.pid}) ended; see its stderr above")
        return json.loads(data)

    def fork(self, extra: dict) -> Forked:
        """A page process, its standard streams piped here as ``Popen``'s are in text mode."""
        pipes = [os.pipe() for _ in range(3)]
        theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
        try:
            self.send({"environment": extra}, theirs)
        finally:
            for fd in theirs:
                os.close(fd)
        pid = self.receive(block=True)["pid"]
        text = {"encoding": "utf-8", "errors": "backslashreplace"}
        return Forked(
            self,
            pid,
            io.TextIOWrapper(open(pipes[0][1], "wb"), **text),
            io.TextIOWrapper(open(pipes[1][0], "rb"), **text),
            io.TextIOWrapper(open(pipes[2][0], "rb"), **text),
        )

    def release(self) -> None:
        """Kept for the next page, unless its modules are out of date; the one idle longest
        makes room (another project's, or another environment's)."""
        with _lock:
            stale = [self] if self.key[0] != _modules_from else []
            if not stale:
                _idle.append(self)
                stale, _idle[:] = _idle[:-IDLE_KEPT], _idle[-IDLE_KEPT:]
        for zygote in stale:
            zygote.close()

    def close(self) -> None:
        self.socket.close()  # the zygote ends when its socket does
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_lock = threading.Lock()
_idle: list[Zygote] = []
_modules_from = ""  # what the modules of zygotes started now come from (a build says)


def modules_from(state: dict) -> None:
    """Told by each build what the modules a page imports come from (what is installed, the
    engine's code): after a change (``uv sync`` or an edit while ``mkdocs serve`` runs), its
    pages fork from new zygotes, which import them again."""
    global _modules_from
    stamp = json.dumps(state, sort_keys=True)
    with _lock:
        if stamp == _modules_from:
            return
        _modules_from, stale = stamp, list(_idle)
        _idle.clear()
    for zygote in stale:
        zygote.close()


def start(project, env: dict, per_run: tuple[str, ...] = ()) -> Forked | None:
    """A page process with ``env``, forked from an idle zygote started in ``project`` with the
    same environment but for the ``per_run`` variables (set after the fork); None where zygotes
    are not available."""
    if not available() or env.get(ONE_PROCESS_VARIABLE):  # the page imports JAX with the chip
        return None
    base = {name: value for name, value in env.items() if name not in per_run}
    key = (_modules_from, str(project), tuple(sorted(base.items())))
    with _lock:
        zygote = next((z for z in reversed(_idle) if z.key == key), None)  # the warmest
        if zygote:
            _idle.remove(zygote)
    extra = {name: env.get(name) for name in per_run}
    if zygote:
        try:
            return zygote.fork(extra)
        except (OSError, RuntimeError):  # it ended while idle (killed, out of memory)
            zygote.close()
    return Zygote(key, project, base).fork(extra)


@atexit.register
def _close_all() -> None:
    with _lock:
        idle = list(_idle)
        _idle.clear()
    for zygote in idle:
        zygote.close()


# ---------------------------------------------------------------- the zygote's side


def serve(connection: socket.socket) -> None:
    """Fork a page process for each request; report its pid, then its exit status (read without
    reaping it), and reap it when told. Ends when the other side closes the socket."""
    while True:
        data, fds, _, _ = socket.recv_fds(connection, MESSAGE_BYTES, 3)
        if not data:
            return
        request = json.loads(data)
        if "reap" in request:
            os.waitpid(request["reap"], 0)
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            connection.close()
            _become_page(fds, request["environment"])
        for fd in fds:
            os.close(fd)
        connection.send(json.dumps({"pid": pid}).encode())
        status = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
        code = -status.si_status if status.si_code != os.CLD_EXITED else status.si_status
        connection.send(json.dumps({"returncode": code}).encode())


def _become_page(fds: list[int], extra: dict) -> None:
    """In the forked process: what ``python -m engine.run.child`` with the page's streams and
    environment, leading its own session, would be."""
    status = 1
    try:
        os.setsid()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        for name, value in extra.items():
            os.environ.pop(name, None) if value is None else os.environ.update({name: value})
        import tempfile

        tempfile.tempdir = None  # read again from TMPDIR: the page's own scratch folder
        sys.argv = [child.__file__]
        status = child.main()
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def main() -> None:
    connection = socket.socket(fileno=int(sys.argv[1]))
    with contextlib.suppress(Exception):  # each page then fails at the same import, and says so
        exec(compile(PRELUDE, "<prelude>", "exec"), {})  # what every page imports first
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the build ended meanwhile
        serve(connection)


if __name__ == "__main__":
    main()
