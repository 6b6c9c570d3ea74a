"""The GraphStore boundary: run named Cypher reads, atomic write transactions, and guarded reads."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import Any, Protocol

Row = dict[str, Any]


class GraphTx(Protocol):
    def run(self, query: str, params: Mapping[str, Any] | None = None) -> list[Row]: ...


class GraphStore(Protocol):
    """A Neo4j-dialect graph. Implementations: KgliteStore (embedded), Neo4jStore (server)."""

    backend: str

    def read(self, query: str, params: Mapping[str, Any] | None = None) -> list[Row]: ...

    def transaction(self) -> AbstractContextManager[GraphTx]:
        """All statements run inside commit together or not at all."""
        ...

    def read_only(
        self, query: str, params: Mapping[str, Any] | None = None, *, timeout_ms: int, row_limit: int
    ) -> list[Row]:
        """Run untrusted Cypher read-only with a deadline and a row cap (kglite: in a killable child)."""
        ...

    def warm_read_only(self) -> None:
        """Get ``read_only`` ready ahead of the first question (kglite starts its sandbox worker)."""
        ...

    def explain(self, query: str) -> None:
        """Parse and plan without running; raises QueryFailed when the engine refuses it."""
        ...

    def refresh_indexes(self) -> None:
        """Bring the search indexes up to date with every commit (after bulk writes; a no-op where they are)."""
        ...

    def checkpoint(self) -> None:
        """Make what was committed durable in the store's own files (after a forget: rewrite them)."""
        ...

    def close(self) -> None: ...

