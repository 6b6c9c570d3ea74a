"""The child process of memory/sandbox.py: runs untrusted read-only Cypher on a read-only load of the graph.

Run as a file (``python sandbox_worker.py PATH MEMORY_BYTES``), it imports nothing from the project. It
caps its own address space before loading anything, opens the last checkpoint of the graph read-only
(``kglite.load``: no writer lease, no write-ahead log, no write back), can open no file while a query runs,
and answers one JSON line per request
on stdin with one JSON line on stdout. It reloads the checkpoint when the file changed since the last load.
A query that runs away is not its business: the parent kills the process at its deadline.
"""

from __future__ import annotations

import json
import math
import os
import resource
import sys
from typing import Any

MAX_REPLY = 4 << 20  # bytes of one JSON reply; a larger result is refused, not sent


def _cap_memory(limit: int) -> None:
    if limit > 0:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # an abort at the cap must not dump a GiB core


def _seal(sealed: bool) -> None:
    """Sealed, the process cannot open a file (``RLIMIT_NOFILE`` at the lowest free descriptor): a query that
    gets past the guard still reads no file (kglite's ``LOAD CSV`` fails with "Too many open files").
    Unsealed (the hard limit) only while the worker itself loads the graph."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if not sealed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return
    fd = os.open(os.devnull, os.O_RDONLY)
    os.close(fd)
    resource.setrlimit(resource.RLIMIT_NOFILE, (fd, hard))


def _die_with_parent() -> None:
    try:  # Linux: SIGKILL this process when the parent goes, even in the middle of a query
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def plain(v: Any, depth: int = 0) -> Any:
    """A JSON-able copy of a kglite value: scalars as they are, containers recursively, the rest as text."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else str(v)
    if depth > 32:
        return str(v)
    if isinstance(v, dict):
        return {str(k): plain(x, depth + 1) for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [plain(x, depth + 1) for x in v]
    return str(v)


class Worker:
    def __init__(self, path: str) -> None:
        import kglite

        self.kglite, self.path = kglite, path
        self.graph: Any = None
        self.stamp: tuple[int, int, int] | None = None

    def _fresh(self) -> Any:
        st = os.stat(self.path)
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        if stamp != self.stamp or self.graph is None:
            self.graph = None  # drop the old snapshot before loading the new one (memory cap)
            _seal(False)
            try:
                self.graph = self.kglite.load(self.path)
            finally:
                _seal(True)
            self.stamp = stamp
        return self.graph

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        if req.get("op") == "ping":
            self._fresh()
            return {"ok": []}
        graph = self._fresh()
        row_limit = int(req["row_limit"])
        tx = graph.begin_read(timeout_ms=int(req["timeout_ms"]))
        try:
            result = tx.cypher(req["query"], params=req.get("params") or {}, timeout_ms=int(req["timeout_ms"]),
                               max_work_units=req.get("max_work_units") or None, row_limit=row_limit,
                               write_scope=[])
            rows = list(result.to_list()) if hasattr(result, "to_list") else []
        finally:
            tx.rollback()
        return {"ok": [plain(r) for r in rows[:row_limit]]}


def _error(e: BaseException) -> dict[str, Any]:
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    return {"error": type(e).__name__, "message": text[:2000]}


def main(argv: list[str]) -> int:
    path, limit = argv[1], int(argv[2])
    _die_with_parent()
    _cap_memory(limit)
    out = sys.stdout.buffer
    try:
        worker = Worker(path)
        worker.handle({"op": "ping"})
        reply: dict[str, Any] = {"ready": os.getpid()}
    except BaseException as e:  # told to the parent, which raises it as its own error
        worker, reply = None, {"fatal": f"{type(e).__name__}: {e}".splitlines()[0][:2000]}
    out.write(json.dumps(reply).encode() + b"\n")
    out.flush()
    if worker is None:
        return 1
    for line in sys.stdin.buffer:
        try:
            reply = worker.handle(json.loads(line))
            data = json.dumps(reply).encode()
            if len(data) > MAX_REPLY:
                reply = {"error": "TooLarge", "message": f"the result is larger than {MAX_REPLY >> 20} MiB"}
                data = json.dumps(reply).encode()
        except MemoryError:
            worker.graph = None
            data = json.dumps({"error": "MemoryError", "message": "out of memory"}).encode()
        except Exception as e:  # every query error goes back as data
            data = json.dumps(_error(e)).encode()
        out.write(data + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
