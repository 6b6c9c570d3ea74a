"""Untrusted (LLM-written) Cypher runs in a warm child process that can be killed and has a memory cap.

kglite's own limits do not hold everywhere: its timeout is not checked inside ``reduce`` (8 s for a 2 s limit),
a ``reduce`` that grows a list ran past 60 s under both the timeout and a work budget, an allocation that
fails aborts the whole process, and it holds the GIL throughout (the voice loop froze). So the query runs in
``sandbox_worker.py``: a child that caps its address space (``RLIMIT_AS``), opens the graph's last checkpoint
read-only, and answers JSON lines. This side waits in ``select`` (the GIL is free meanwhile), kills the child
at the deadline and starts a fresh one at once, so the next query finds it warm.

The child sees the last checkpoint only: the owner of the graph saves before a sandboxed read when it wrote
since (``KgliteStore.read_only``).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from memory.errors import QueryFailed
from memory.store import Row

WORKER = Path(__file__).with_name("sandbox_worker.py")
_HINT = "anchor the query on an entity id and avoid cross joins, long ranges and unbounded paths"


class _Proc:
    """One worker process and what it has written so far."""

    def __init__(self, path: Path, memory_bytes: int) -> None:
        self.stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the process
        env = {**os.environ, "RUST_BACKTRACE": "0", "MALLOC_ARENA_MAX": "2", "PYTHONDONTWRITEBYTECODE": "1"}
        self.popen = subprocess.Popen(
            [sys.executable, "-I", str(WORKER), str(path), str(memory_bytes)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, env=env, close_fds=True,
            cwd=str(path.parent),
        )
        assert self.popen.stdin is not None and self.popen.stdout is not None
        self.stdin, self.fd = self.popen.stdin, self.popen.stdout.fileno()
        self.buf = b""
        self.ready = False

    def read_line(self, deadline: float) -> bytes | None:
        """The next line, or None at the deadline; b"" when the process closed its output (it died)."""
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.fd], [], [], left)  # releases the GIL while it waits
            if not r:
                return None
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                return b""
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def why_dead(self, memory_mb: int) -> str:
        rc = self.popen.wait()
        self.stderr.seek(0)
        tail = self.stderr.read()[-4000:].decode("utf-8", "replace")
        if "memory allocation" in tail or "MemoryError" in tail or rc == -signal.SIGABRT:
            return f"query stopped: it needed more than its {memory_mb} MiB memory cap"
        last = next((x for x in reversed(tail.splitlines()) if x.strip()), "")
        return f"query process ended ({_rc(rc)})" + (f": {last[:300]}" if last else "")

    def kill(self) -> None:
        """SIGKILL now; reaped on a daemon thread (unmapping a GiB takes a while and the caller need not wait)."""
        if self.popen.poll() is None:
            self.popen.kill()

        def reap() -> None:
            self.popen.wait()
            self.close_files()

        threading.Thread(target=reap, name="sandbox-reap", daemon=True).start()

    def close_files(self) -> None:
        for f in (self.stdin, self.popen.stdout, self.stderr):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass


def _rc(rc: int) -> str:
    if rc < 0:
        try:
            return signal.Signals(-rc).name
        except ValueError:
            return f"signal {-rc}"
    return f"exit status {rc}"


class ReadSandbox:
    """Runs read-only Cypher on ``path``'s last checkpoint in one warm, killable, memory-capped child."""

    def __init__(self, path: Path, *, memory_mb: int = 1024, start_timeout_s: float = 30.0,
                 grace_ms: int = 150, max_work_units: int | None = None) -> None:
        if memory_mb < 128:  # Python and kglite alone need about 96 MiB of address space
            raise ValueError(f"memory_mb must be at least 128, not {memory_mb}")
        self.path = Path(path)
        self.memory_mb, self.start_timeout_s, self.grace_ms = memory_mb, start_timeout_s, grace_ms
        self.max_work_units = max_work_units
        self._proc: _Proc | None = None
        self._lock = threading.Lock()
        self.restarts = 0  # workers killed or found dead (for tests and reports)

    @property
    def pid(self) -> int | None:
        return self._proc.popen.pid if self._proc is not None else None

    def start(self) -> None:
        """Start the worker if none runs; returns at once (it loads the graph in the background)."""
        with self._lock:
            self._spawn()

    def _spawn(self) -> _Proc:
        if self._proc is None or self._proc.popen.poll() is not None:
            if self._proc is not None:
                self._proc.kill()
            self._proc = _Proc(self.path, self.memory_mb << 20)
        return self._proc

    def _discard(self, proc: _Proc, *, restart: bool) -> None:
        proc.kill()
        self._proc = None
        self.restarts += 1
        if restart:
            self._spawn()  # warm again before the next question

    def _ready(self, proc: _Proc) -> None:
        if proc.ready:
            return
        line = proc.read_line(time.monotonic() + self.start_timeout_s)
        # a QueryFailed, like any failed generated query: recall goes on without it and says why
        hint = (f"the memory file must fit in recall.cypher_memory_mb ({self.memory_mb} MiB) with room for a "
                "query: raise it for a large memory")
        if not line:
            why = (f"did not start within {self.start_timeout_s:g} s" if line is None
                   else proc.why_dead(self.memory_mb))
            self._discard(proc, restart=False)
            raise QueryFailed(f"the query sandbox could not load {self.path.name}: {why}", hint=hint)
        msg = json.loads(line)
        if "fatal" in msg:
            self._discard(proc, restart=False)
            raise QueryFailed(f"the query sandbox could not load {self.path.name}: {msg['fatal']}", hint=hint)
        proc.ready = True

    def run(self, query: str, params: Mapping[str, Any] | None = None, *, timeout_ms: int,
            row_limit: int) -> list[Row]:
        try:
            request = json.dumps({"query": query, "params": dict(params or {}), "timeout_ms": timeout_ms,
                                  "row_limit": row_limit, "max_work_units": self.max_work_units},
                                 allow_nan=False).encode()
        except (TypeError, ValueError) as e:
            raise QueryFailed(f"query parameters must be JSON values (numbers, strings, lists, maps): {e}") from e
        with self._lock:
            proc = self._spawn()
            self._ready(proc)
            try:
                proc.stdin.write(request + b"\n")
                proc.stdin.flush()
            except (BrokenPipeError, OSError):
                why = proc.why_dead(self.memory_mb)
                self._discard(proc, restart=True)
                raise QueryFailed(why) from None
            line = proc.read_line(time.monotonic() + (timeout_ms + self.grace_ms) / 1000)
            if line is None:
                self._discard(proc, restart=True)
                raise QueryFailed(f"query took longer than {timeout_ms} ms", hint=_HINT)
            if not line:
                why = proc.why_dead(self.memory_mb)
                self._discard(proc, restart=True)
                raise QueryFailed(why, hint=_HINT)
        reply = json.loads(line)
        if "ok" in reply:
            rows: list[Row] = reply["ok"]
            return rows[:row_limit]
        if reply.get("error") == "CypherTimeoutError":
            raise QueryFailed(f"query took longer than {timeout_ms} ms", hint=_HINT)
        if reply.get("error") == "MemoryError":
            raise QueryFailed(f"query stopped: it needed more than its {self.memory_mb} MiB memory cap", hint=_HINT)
        raise QueryFailed(str(reply.get("message") or reply.get("error") or "query failed"))

    def close(self) -> None:
        with self._lock:
            proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            proc.stdin.close()  # the worker's loop ends at end of input
            proc.popen.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        proc.kill()
