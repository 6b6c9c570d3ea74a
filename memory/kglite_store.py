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
from memory.store import Row


def _rows(result: Any) -> list[Row]:
    return list(result.to_list()) if hasattr(result, "to_list") else []


class _Tx:
    def __init__(self, tx: Any) -> None:
        self._tx = tx

    def run(self, query: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        return _rows(self._tx.cypher(query, params=dict(params or {})))


class KgliteStore:
    """One writer process per file; kglite's lease names the holder when a second one tries."""

    backend = "kglite"

    def __init__(self, path: Path, *, durability: Literal["full", "normal"] = "normal") -> None:
        import kglite  # late: native library, keep `import memory` light

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
        # kglite's handle has one owner at a time: serialise reads and transactions across threads
        # (background learning runs beside the voice loop's recall)
        self._lock = threading.RLock()
        for ddl in Q.SCHEMA_KGLITE:
            self._run(ddl, {})

    def _run(self, query: str, params: Mapping[str, Any], **kw: Any) -> list[Row]:
        try:
            with self._lock:
                return _rows(self._g.cypher(query, params=dict(params), **kw))
        except self._kglite.KgError as e:
            raise QueryFailed(f"graph query failed: {e}") from e
        except ValueError as e:
            raise QueryFailed(f"graph query failed: {e}") from e

    def read(self, query: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        return self._run(query, params or {})

    @contextmanager
    def transaction(self) -> Iterator[_Tx]:
        with self._lock:
            tx = self._g.begin()
            try:
                yield _Tx(tx)
            except BaseException:
                tx.rollback()
                raise
            try:
                tx.commit()
            except self._kglite.KgError as e:
                raise QueryFailed(f"could not commit to the memory file: {e}") from e

    def read_only(
        self, query: str, params: Mapping[str, Any] | None = None, *, timeout_ms: int, row_limit: int
    ) -> list[Row]:
        with self._lock:
            tx = self._g.begin_read(timeout_ms=timeout_ms)
        try:
            # write_scope=[]: a third layer under the guard and the read transaction — no type may be written
            result = tx.cypher(query, params=dict(params or {}), timeout_ms=timeout_ms, row_limit=row_limit,
                               write_scope=[])
            return _rows(result)[:row_limit]
        except self._kglite.CypherTimeoutError as e:
            raise QueryFailed(f"query took longer than {timeout_ms} ms") from e
        except (self._kglite.KgError, ValueError, TypeError) as e:
            raise QueryFailed(str(e).splitlines()[0] if str(e) else type(e).__name__) from e
        finally:
            tx.rollback()

    def explain(self, query: str) -> None:
        try:
            self._g.cypher("EXPLAIN " + query)
        except (self._kglite.KgError, ValueError) as e:
            raise QueryFailed(str(e)) from e

    def disk_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*") if p.is_file())

    def checkpoint(self) -> None:
        with self._lock, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # MappedFallbackWarning for list columns: harmless in memory mode
            self._g.save()

    def close(self) -> None:
        if getattr(self, "_g", None) is not None:
            try:
                self.checkpoint()
            finally:
                self._g.close()
                self._g = None
