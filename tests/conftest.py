"""Shared fixtures: a real kglite store per test, and Neo4j when NEO4J_URI is set."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.graph import TemporalGraph
from memory.store import GraphStore

T0 = datetime(2026, 1, 5, 19, 0, tzinfo=UTC)

BACKENDS = ["kglite", "neo4j"]


def _open(backend: str, tmp_path: Path) -> GraphStore:
    if backend == "kglite":
        from memory.kglite_store import KgliteStore

        return KgliteStore(tmp_path / "graph.kgl")
    uri = os.environ.get("NEO4J_URI")
    if not uri:
        pytest.skip("Neo4j contract tests need a server: set NEO4J_URI (and NEO4J_USER, NEO4J_PASSWORD)")
    from memory.neo4j_store import Neo4jStore

    store = Neo4jStore(uri, os.environ.get("NEO4J_USER", "neo4j"), os.environ.get("NEO4J_PASSWORD"))
    store.read("MATCH (n) WHERE n:Entity OR n:Meta DETACH DELETE n")
    return store


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GraphStore]:
    s = _open(request.param, tmp_path)
    yield s
    s.close()


@pytest.fixture
def graph(store: GraphStore) -> TemporalGraph:
    g = TemporalGraph(store, user_name="Sam")
    g.ensure_user(T0)
    return g


@pytest.fixture(scope="session")
def bundled_llm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """The real bundled model, started once for the whole session (assembled once per machine)."""
    from assistant.llm import start_llm

    models = Path(os.environ.get("HEARTH_TEST_MODELS_DIR", str(Path.home() / ".cache" / "hearth-test" / "models")))
    llm, close = start_llm("bundled", models_dir=models, logs_dir=tmp_path_factory.mktemp("llm-logs"),
                           progress=False)
    yield llm
    close()
