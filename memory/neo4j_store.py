"""GraphStore on a Neo4j server through the official driver; the same Cypher as kglite."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from memory import queries as Q
from memory.errors import QueryFailed, StoreUnavailable
from memory.store import Row


class _Tx:
    def __init__(self, tx: Any) -> None:
        self._tx = tx

    def run(self, query: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        return [r.data() for r in self._tx.run(query, dict(params or {}))]


class Neo4jStore:
    backend = "neo4j"

    def __init__(self, uri: str, user: str, password: str | None, *, database: str = "neo4j") -> None:
        try:
            import neo4j
        except ImportError as e:  # pragma: no cover - it is a hard dependency
            raise StoreUnavailable("the neo4j driver is not installed", hint="pip install neo4j") from e
        self._neo4j = neo4j
        self._local = threading.local()  # the transaction this thread has open, if any
        self.database = database
        self.uri = uri
        try:
            self._driver = neo4j.GraphDatabase.driver(
                uri, auth=(user, password or ""), connection_timeout=5.0, max_transaction_retry_time=5.0
            )
            self._driver.verify_connectivity()
        except (neo4j.exceptions.ServiceUnavailable, neo4j.exceptions.AuthError, OSError, ValueError) as e:
            raise StoreUnavailable(
                f"cannot reach the Neo4j server at {uri}: {str(e).splitlines()[0] if str(e) else e}",
                hint="start the server, check store.uri / store.user and the password variable, "
                "or set store.backend: kglite",
            ) from e
        for ddl in Q.SCHEMA_NEO4J:
            self.read(ddl)

    def read(self, query: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        open_tx = getattr(self._local, "tx", None)  # inside a unit of work: read what it wrote so far
        if open_tx is not None:
            return _Tx(open_tx).run(query, params)
        try:
            with self._driver.session(database=self.database) as s:
                return [r.data() for r in s.run(query, dict(params or {}))]
        except self._neo4j.exceptions.ServiceUnavailable as e:
            raise StoreUnavailable(f"lost the Neo4j server at {self.uri}") from e
        except self._neo4j.exceptions.Neo4jError as e:
            raise QueryFailed(f"graph query failed: {e.message}") from e

    @contextmanager
    def transaction(self) -> Iterator[_Tx]:
        """Re-entrant per thread: a transaction opened inside another is part of it (one unit, one commit)."""
        outer = getattr(self._local, "tx", None)
        if outer is not None:
            yield _Tx(outer)
            return
        with self._driver.session(database=self.database) as s:
            tx = s.begin_transaction()
            self._local.tx = tx
            try:
                yield _Tx(tx)
            except BaseException:
                self._local.tx = None
                tx.rollback()
                raise
            self._local.tx = None
            tx.commit()

    def read_only(
        self, query: str, params: Mapping[str, Any] | None = None, *, timeout_ms: int, row_limit: int
    ) -> list[Row]:
        neo4j = self._neo4j

        def work(tx: Any) -> list[Row]:
            out: list[Row] = []
            for rec in tx.run(query, dict(params or {})):
                out.append(rec.data())
                if len(out) >= row_limit:
                    break
            return out

        try:
            with self._driver.session(database=self.database, default_access_mode=neo4j.READ_ACCESS) as s:
                fn = neo4j.unit_of_work(timeout=timeout_ms / 1000.0)(work)
                return s.execute_read(fn)
        except neo4j.exceptions.Neo4jError as e:
            raise QueryFailed(e.message or str(e)) from e

    def warm_read_only(self) -> None:
        """Nothing to start: the server enforces the transaction timeout."""

    def explain(self, query: str) -> None:
        self.read_only("EXPLAIN " + query, {}, timeout_ms=5000, row_limit=1)

    def refresh_indexes(self) -> None:
        """Nothing to do: the server keeps its full-text and vector indexes up to date itself."""

    def checkpoint(self) -> None:
        """Nothing to do from a client: the server commits durably and manages its own files and logs."""

    def close(self) -> None:
        self._driver.close()
