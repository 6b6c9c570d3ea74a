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
        """Run untrusted Cypher in a read-only transaction with a deadline and a row cap."""
        ...

    def explain(self, query: str) -> None:
        """Parse and plan without running; raises QueryFailed when the engine refuses it."""
        ...

    def close(self) -> None: ...

