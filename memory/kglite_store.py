"""GraphStore on kglite: an embedded, durable (write-ahead logged) graph file under the data dir."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from memory import queries as Q
from memory.errors import QueryFailed, StoreCorrupt, StoreLocked
from memory.sandbox import ReadSandbox
from memory.store import Row


def _rows(result: Any) -> list[Row]:
    return list(result.to_list()) if hasattr(result, "to_list") else []


class _Tx:
    def __init__(self, tx: Any, errors: tuple[type[BaseException], ...]) -> None:
        self._tx, self._errors = tx, errors

    def run(self, query: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        try:
            return _rows(self._tx.cypher(query, params=dict(params or {})))
        except self._errors as e:  # the transaction is rolled back by transaction()
            raise QueryFailed(f"graph query failed: {e}") from e


class _ReadWriteLock:
    """Reads at once, or one writer (re-entrant in its thread, which may also read): kglite runs reads on one handle
    side by side with the GIL released, and makes them wait for a running write; a transaction is one writer. A
    writer waiting goes before new reads (reads one after another would otherwise keep learning out for ever)."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._readers = 0
        self._writer: int | None = None
        self._depth = 0
        self._waiting = 0  # writers waiting

    @contextmanager
    def reading(self) -> Iterator[None]:
        me = threading.get_ident()
        with self._cond:
            mine = self._writer == me
            if not mine:
                while self._writer is not None or self._waiting:
                    self._cond.wait()
                self._readers += 1
        try:
            yield
        finally:
            if not mine:
                with self._cond:
                    self._readers -= 1
                    if not self._readers:
                        self._cond.notify_all()

    @contextmanager
    def writing(self) -> Iterator[None]:
        me = threading.get_ident()
        with self._cond:
            if self._writer != me:
                self._waiting += 1
                try:
                    while self._writer is not None or self._readers:
                        self._cond.wait()
                finally:
                    self._waiting -= 1
                self._writer = me
            self._depth += 1
        try:
            yield
        finally:
            with self._cond:
                self._depth -= 1
                if not self._depth:
                    self._writer = None
                    self._cond.notify_all()


class KgliteStore:
    """One writer process per file; kglite's lease names the holder when a second one tries."""

    backend = "kglite"

    def __init__(self, path: Path, *, durability: Literal["full", "normal"] = "normal",
                 read_only_memory_mb: int = 1024, read_only_max_work_units: int | None = None,
                 checkpoint_delay_s: float = 2.0) -> None:
        import kglite  # late: native library, keep `import memory` light

        # kglite prints planner hints to stderr ("MATCH references unknown node label 'Episode'" before the
        # first episode exists): not for the people using the assistant
        kglite.set_query_warning_policy("silent")

        self._kglite = kglite
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self._g: Any = kglite.open(str(self.path), durable=durability)
        except kglite.WriterLeaseHeldError as e:
            holder = getattr(e, "holder", {}) or {}
            pid, since = holder.get("pid"), holder.get("since")
            who = f"process {pid}" if pid else "another process"
            raise StoreLocked(
                f"the memory file {self.path} is in use by {who}" + (f" since {since}" if since else ""),
                hint="stop the other assistant (e.g. `kill "
                + (str(pid) if pid else "<pid>")
                + "` if it is stuck), or use another --data-dir",
            ) from e
        except (kglite.FileFormatError, kglite.InternalError) as e:
            raise StoreCorrupt(
                f"the memory file {self.path} is unreadable ({e}); it was left untouched",
                hint="restore it from a backup or move it aside to start an empty memory",
            ) from e
        except ValueError as e:  # e.g. a write-ahead log that cannot be replayed
            raise StoreCorrupt(f"cannot open {self.path}: {e}", hint="the file was left untouched") from e
        # kglite's handle has one owner at a time: transactions (background learning runs beside the voice loop's
        # recall) and saves are serialised; plain reads run side by side (recall reads the graph and searches what
        # was said at once)
        self._lock = _ReadWriteLock()
        self._local = threading.local()  # the transaction this thread has open, if any
        # untrusted reads run in a child on the last checkpoint; the write-ahead log may hold commits the
        # checkpoint lacks, so the first sandboxed read saves first (then again after each write)
        self._sandbox = ReadSandbox(self.path, memory_mb=read_only_memory_mb,
                                    max_work_units=read_only_max_work_units)
        self._writes, self._saved = 1, 0
        # once the sandbox runs, writes are checkpointed in the background checkpoint_delay_s after the last
        # one (learning writes fact by fact), so a question after learning does not pay the save
        self._checkpoint_delay_s = checkpoint_delay_s
        self._timer: threading.Timer | None = None
        with self._lock.writing():
            for ddl in Q.SCHEMA_KGLITE:
                self._run(ddl, {})
        if self._run(Q.HAS_OLD_VECTOR_INDEX, {}):  # written before the embedding store: once
            with self.transaction() as tx:
                tx.run(Q.DROP_OLD_VECTOR_INDEX)
                if tx.run(Q.COUNT_OLD_VECTORS)[0]["n"]:
                    for q in Q.MOVE_OLD_VECTORS:
                        tx.run(q)
        self.refresh_indexes()  # a write-ahead log replayed at open may hold more changes than a query folds in

    def refresh_indexes(self) -> None:
        with self._lock.writing():  # the text index folds changes in: no read beside it
            for q in Q.REFRESH_KGLITE:
                self._run(q, {})

    def _run(self, query: str, params: Mapping[str, Any], **kw: Any) -> list[Row]:
        open_tx = getattr(self._local, "tx", None)  # inside a unit of work: read what it wrote so far
        try:
            if open_tx is not None and not kw:  # this thread holds the write lock
                return _rows(open_tx.cypher(query, params=dict(params)))
            with self._lock.reading() if not kw else self._lock.writing():
                return _rows(self._g.cypher(query, params=dict(params), **kw))
        except self._kglite.KgError as e:
            raise QueryFailed(f"graph query failed: {e}") from e
        except ValueError as e:
            raise QueryFailed(f"graph query failed: {e}") from e

    def read(self, query: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        return self._run(query, params or {})

    @contextmanager
    def transaction(self) -> Iterator[_Tx]:
        """Re-entrant per thread: a transaction opened inside another is part of it (one unit, one commit)."""
        outer = getattr(self._local, "tx", None)
        if outer is not None:
            yield _Tx(outer, (self._kglite.KgError, ValueError))
            return
        with self._lock.writing():
            tx = self._g.begin()
            self._local.tx = tx
            try:
                yield _Tx(tx, (self._kglite.KgError, ValueError))
            except BaseException:
                self._local.tx = None
                tx.rollback()
                raise
            self._local.tx = None
            self._writes += 1  # before the commit: a failed commit may still have written
            try:
                tx.commit()
            except self._kglite.KgError as e:
                raise QueryFailed(f"could not commit to the memory file: {e}") from e
            if self._sandbox.pid is not None:
                self._schedule_checkpoint()

    def _schedule_checkpoint(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(self._checkpoint_delay_s, self._background_checkpoint)
        self._timer.daemon = True
        self._timer.start()

    def _background_checkpoint(self) -> None:
        try:
            with self._lock.writing():
                if self._g is not None and self._writes != self._saved:
                    self.checkpoint()
        except (self._kglite.KgError, OSError):  # the next sandboxed read saves again and raises it
            pass

    def read_only(
        self, query: str, params: Mapping[str, Any] | None = None, *, timeout_ms: int, row_limit: int
    ) -> list[Row]:
        """Untrusted Cypher in the sandbox child (memory/sandbox.py), on a checkpoint that has every commit.

        The worker's own kglite read transaction has ``write_scope=[]``, a third layer under the guard and
        the read-only load."""
        if self._writes != self._saved:
            self.checkpoint()
        return self._sandbox.run(query, params, timeout_ms=timeout_ms, row_limit=row_limit)

    def warm_read_only(self) -> None:
        """Start the sandbox worker now, so the first generated query does not pay its start."""
        if self._writes != self._saved:
            self.checkpoint()
        self._sandbox.start()

    def explain(self, query: str) -> None:
        try:
            self._g.cypher("EXPLAIN " + query)
        except (self._kglite.KgError, ValueError) as e:
            raise QueryFailed(str(e)) from e

    def disk_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*") if p.is_file())

    def checkpoint(self) -> None:
        with self._lock.writing(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # MappedFallbackWarning for list columns: harmless in memory mode
            writes = self._writes
            self._g.save()
            self._saved = writes

    def close(self) -> None:
        timer: threading.Timer | None = getattr(self, "_timer", None)
        if timer is not None:
            timer.cancel()
        if getattr(self, "_sandbox", None) is not None:
            self._sandbox.close()
        if getattr(self, "_g", None) is not None:
            try:
                self.checkpoint()
            finally:
                with self._lock.writing():  # no read is left running on the handle
                    self._g.close()
                    self._g = None
