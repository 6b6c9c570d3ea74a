"""Generated Cypher runs in a killable, memory-capped child: deadlines, memory cap, freshness, no writes, no files."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory.errors import QueryFailed
from memory.kglite_store import KgliteStore
from memory.sandbox import ReadSandbox

MARGIN_S = 1.0  # the deadline plus this: kill, reap, and a loaded 2-core CI machine
SEED = (
    "UNWIND range(1, 60) AS i CREATE (:Entity {id: 'e' + toString(i), name: 'N' + toString(i), type: 'thing'})"
)
LINKS = (  # e1 -> e2 -> e3 ... and e1 -> e3 -> e5 ...: the number of paths grows like Fibonacci's numbers
    "MATCH (a:Entity), (b:Entity) WHERE toInteger(substring(a.id, 1)) + $step = toInteger(substring(b.id, 1)) "
    "CREATE (a)-[:ARC {id: a.id + '>' + b.id, relation: 'knows', strength: 0.5}]->(b)"
)
COUNT = "MATCH (n) OPTIONAL MATCH (n)-[r]->() RETURN count(DISTINCT n) AS nodes, count(r) AS arcs"
HEAVY = {
    "reduce over a long range": "RETURN reduce(s = 0, x IN range(1, 8000000) | s + x) AS id",
    "reduce growing a list": "RETURN size(reduce(s = [], x IN range(1, 100000) | s + [x])) AS id",
    "cross join": "MATCH (a:Entity), (b:Entity), (c:Entity), (d:Entity), (e:Entity) RETURN count(*) AS id",
    "path explosion": "MATCH p = (a:Entity)-[*..40]-(b:Entity) RETURN count(p) AS id",
}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[KgliteStore]:
    s = KgliteStore(tmp_path / "g.kgl")
    with s.transaction() as tx:
        tx.run(SEED)
        tx.run(LINKS, {"step": 1})
        tx.run(LINKS, {"step": 2})
    yield s
    s.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie still answers kill(0): look at its state
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (OSError, IndexError):
        return False


def _gone_within(pid: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return not _alive(pid)


def test_normal_queries_return_correct_json_rows(store: KgliteStore) -> None:
    rows = store.read_only(
        "MATCH (a:Entity {id: $id})-[r:ARC]->(b:Entity) RETURN a.name AS a, b.name AS b, r.strength AS s, "
        "[1, 2.5, null, 'x'] AS l, {k: [true]} AS m, $now AS now",
        {"id": "e7", "now": 1700000000}, timeout_ms=2000, row_limit=10,
    )
    rows = [r for r in rows if r["b"] == "N8"]
    assert rows == [{"a": "N7", "b": "N8", "s": 0.5, "l": [1, 2.5, None, "x"], "m": {"k": [True]},
                     "now": 1700000000}]
    many = store.read_only("MATCH (n:Entity) RETURN n.id AS id ORDER BY id", timeout_ms=2000, row_limit=5)
    assert len(many) == 5


@pytest.mark.parametrize("name", list(HEAVY))
def test_a_runaway_query_ends_at_the_deadline_and_the_worker_comes_back(store: KgliteStore, name: str) -> None:
    store.read_only("RETURN 1 AS x", timeout_ms=2000, row_limit=1)  # warm
    t0 = time.monotonic()
    with pytest.raises(QueryFailed) as e:
        store.read_only(HEAVY[name], timeout_ms=1000, row_limit=10)
    took = time.monotonic() - t0
    assert took < 1.0 + MARGIN_S, f"{name}: {took:.2f} s for a 1000 ms limit"
    assert "longer than 1000 ms" in e.value.message or "memory cap" in e.value.message or "work" in e.value.message
    t1 = time.monotonic()
    assert store.read_only("MATCH (n:Entity {id: 'e3'}) RETURN n.name AS n", timeout_ms=5000,
                           row_limit=1) == [{"n": "N3"}]
    assert time.monotonic() - t1 < 5.0


def test_the_deadline_kills_and_replaces_the_worker(tmp_path: Path) -> None:
    KgliteStore(tmp_path / "g.kgl").close()
    sb = ReadSandbox(tmp_path / "g.kgl")
    try:
        sb.run("RETURN 1 AS x", timeout_ms=2000, row_limit=1)
        first = sb.pid
        assert first is not None
        with pytest.raises(QueryFailed, match="longer than 300 ms"):
            sb.run(HEAVY["reduce growing a list"], timeout_ms=300, row_limit=1)
        assert _gone_within(first, 5.0)
        assert sb.pid not in (None, first) and sb.restarts == 1  # already started again, warm for the next
        assert sb.run("RETURN 2 AS x", timeout_ms=2000, row_limit=1) == [{"x": 2}]
    finally:
        sb.close()


def test_the_gil_is_free_while_a_query_runs(store: KgliteStore) -> None:
    store.read_only("RETURN 1 AS x", timeout_ms=2000, row_limit=1)
    ticks, stop = [0], threading.Event()

    def tick() -> None:
        while not stop.is_set():
            time.sleep(0.01)
            ticks[0] += 1

    th = threading.Thread(target=tick)
    th.start()
    t0 = time.monotonic()
    with pytest.raises(QueryFailed):
        # ten times the fuzz list's range: on a quiet machine that one can end inside the limit
        store.read_only("RETURN reduce(s = 0, x IN range(1, 80000000) | s + x) AS id", timeout_ms=1000, row_limit=1)
    took = time.monotonic() - t0
    stop.set()
    th.join()
    # kglite in-process: 2 ticks in 8 s (it holds the GIL); a free GIL gives about one per 10 ms
    assert ticks[0] > took * 100 * 0.3, f"{ticks[0]} ticks in {took:.2f} s"


@pytest.mark.parametrize("bomb", [
    "RETURN size(reduce(s = 'x', i IN range(1, 40) | s + s)) AS id",
    "UNWIND range(1, 4000000) AS x WITH collect(x) AS a, collect(x) AS b, collect(x) AS c RETURN size(a) AS id",
])
def test_a_memory_bomb_is_stopped_by_the_cap_and_the_parent_is_unharmed(tmp_path: Path, bomb: str) -> None:
    store = KgliteStore(tmp_path / "g.kgl", read_only_memory_mb=256)
    try:
        store.read_only("RETURN 1 AS x", timeout_ms=2000, row_limit=1)
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        with pytest.raises(QueryFailed, match="256 MiB memory cap"):
            store.read_only(bomb, timeout_ms=20000, row_limit=1)
        assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before < 50 * 1024  # KiB
        assert store.read_only("RETURN 3 AS x", timeout_ms=5000, row_limit=1) == [{"x": 3}]
        with store.transaction() as tx:  # the owner's handle is intact
            tx.run("CREATE (:Entity {id: 'after'})")
        assert store.read("MATCH (n:Entity {id: 'after'}) RETURN n.id AS id") == [{"id": "after"}]
    finally:
        store.close()


@pytest.mark.parametrize("query", [
    "CREATE (:Entity {id: 'evil'}) RETURN 1 AS x",
    "MATCH (n:Entity {id: 'e1'}) SET n.name = 'evil' RETURN n.name AS x",
    "MATCH (n:Entity {id: 'e1'}) DETACH DELETE n RETURN 1 AS x",
    "MERGE (n:Entity {id: 'evil'}) RETURN n.id AS x",
    "MATCH (n:Entity {id: 'e1'}) REMOVE n.name RETURN 1 AS x",
])
def test_a_write_is_refused_without_the_guard(store: KgliteStore, query: str) -> None:
    before = store.read(COUNT), store.read("MATCH (n:Entity {id: 'e1'}) RETURN n.name AS n")
    with pytest.raises(QueryFailed):
        store.read_only(query, timeout_ms=2000, row_limit=5)
    assert (store.read(COUNT), store.read("MATCH (n:Entity {id: 'e1'}) RETURN n.name AS n")) == before
    reopened = ReadSandbox(store.path)  # nothing reached the file either
    try:
        assert reopened.run(COUNT, timeout_ms=2000, row_limit=1) == [{"nodes": 60, "arcs": 117}]
    finally:
        reopened.close()


def test_no_file_can_be_read_even_without_the_guard(store: KgliteStore, tmp_path: Path) -> None:
    secret = tmp_path / "secret.csv"
    secret.write_text("name\nsecret-7d1f\n")
    for q in (f"LOAD CSV FROM 'file://{secret}' AS l RETURN l[0] AS x",
              f"LOAD CSV WITH HEADERS FROM 'file://{secret}' AS l RETURN l.name AS x"):
        with pytest.raises(QueryFailed, match="open"):
            store.read_only(q, timeout_ms=2000, row_limit=5)


def test_reads_see_every_commit(store: KgliteStore) -> None:
    q = "MATCH (n:Entity) RETURN count(n) AS n"
    assert store.read_only(q, timeout_ms=2000, row_limit=1) == [{"n": 60}]
    with store.transaction() as tx:
        tx.run("CREATE (:Entity {id: 'new'})")
    assert store.read_only(q, timeout_ms=2000, row_limit=1) == [{"n": 61}]
    mtime = store.path.stat().st_mtime_ns
    assert store.read_only(q, timeout_ms=2000, row_limit=1) == [{"n": 61}]
    assert store.path.stat().st_mtime_ns == mtime  # no write since: no new checkpoint


def test_a_store_reopened_after_a_crash_checkpoints_its_log_before_the_first_sandboxed_read(tmp_path: Path) -> None:
    script = (
        "import os, sys; from pathlib import Path; from memory.kglite_store import KgliteStore\n"
        f"s = KgliteStore(Path({str(tmp_path / 'g.kgl')!r}))\n"
        "with s.transaction() as tx: tx.run(\"CREATE (:Entity {id: 'logged'})\")\n"
        "os._exit(0)  # no close, no checkpoint: the commit is in the write-ahead log only\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, cwd=Path(__file__).parents[2])
    store = KgliteStore(tmp_path / "g.kgl")
    try:
        assert store.read_only("MATCH (n:Entity {id: 'logged'}) RETURN n.id AS id", timeout_ms=2000,
                               row_limit=1) == [{"id": "logged"}]
    finally:
        store.close()


def test_warm_start_close_and_no_orphan(store: KgliteStore, tmp_path: Path) -> None:
    store.warm_read_only()
    pid = store._sandbox.pid
    assert pid is not None
    store.read_only("RETURN 1 AS x", timeout_ms=2000, row_limit=1)
    assert store._sandbox.pid == pid  # the warmed worker answered
    store._sandbox.close()
    assert _gone_within(pid, 5.0)
    # the owner dies by SIGKILL: its worker follows (no orphan holding a GiB)
    script = (
        "import sys, time; from pathlib import Path; from memory.sandbox import ReadSandbox\n"
        f"sb = ReadSandbox(Path({str(store.path)!r})); sb.run('RETURN 1 AS x', timeout_ms=5000, row_limit=1)\n"
        "print(sb.pid, flush=True); time.sleep(60)\n"
    )
    owner = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                             cwd=Path(__file__).parents[2])
    assert owner.stdout is not None
    child = int(owner.stdout.readline())
    assert _alive(child)
    owner.send_signal(signal.SIGKILL)
    owner.wait()
    assert _gone_within(child, 5.0)


def test_memory_cap_is_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least 128"):
        ReadSandbox(tmp_path / "g.kgl", memory_mb=100)  # Python and kglite alone need about 96 MiB


def test_writes_are_checkpointed_in_the_background_once_the_sandbox_runs(tmp_path: Path) -> None:
    store = KgliteStore(tmp_path / "g.kgl", checkpoint_delay_s=0.2)
    try:
        with store.transaction() as tx:
            tx.run("CREATE (:Entity {id: 'a'})")
        time.sleep(0.6)
        assert store._writes != store._saved  # no sandbox yet: no background save (a CLI write pays nothing)
        store.warm_read_only()
        assert store._writes == store._saved
        mtime = store.path.stat().st_mtime_ns
        for i in range(3):  # learning writes fact by fact: one save after the last
            with store.transaction() as tx:
                tx.run("CREATE (:Entity {id: $id})", {"id": f"b{i}"})
        deadline = time.monotonic() + 5.0
        while store._writes != store._saved and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store._writes == store._saved and store.path.stat().st_mtime_ns != mtime
        assert store.read_only("MATCH (n:Entity) RETURN count(n) AS n", timeout_ms=2000, row_limit=1) == [{"n": 4}]
    finally:
        store.close()


def test_a_memory_file_larger_than_the_cap_is_a_query_failure_that_says_which_setting(tmp_path: Path) -> None:
    store = KgliteStore(tmp_path / "g.kgl")
    with store.transaction() as tx:  # 64 MiB of text beside Python and kglite's ~96 MiB: over a 128 MiB cap
        tx.run("CREATE (:Entity {id: 'big', blob: $blob})", {"blob": "x" * (64 << 20)})
    store.checkpoint()
    store.close()
    sb = ReadSandbox(tmp_path / "g.kgl", memory_mb=128)
    try:
        with pytest.raises(QueryFailed, match="could not load") as e:
            sb.run("RETURN 1 AS x", timeout_ms=2000, row_limit=1)
        assert "cypher_memory_mb" in (e.value.hint or "")
    finally:
        sb.close()


def test_parameters_that_are_not_json_are_refused_clearly(store: KgliteStore) -> None:
    with pytest.raises(QueryFailed, match="JSON values"):
        store.read_only("RETURN $x AS x", {"x": object()}, timeout_ms=2000, row_limit=1)


def test_the_generated_cypher_stage_runs_through_the_sandbox_and_repairs_after_a_runaway(tmp_path: Path) -> None:
    """CypherRecall on kglite: a runaway first query ends at the limit, its error goes back to the model, the
    repaired query answers."""
    from datetime import UTC, datetime, timedelta

    from memory.graph import TemporalGraph
    from memory.recall.cypher_gen import CypherRecall
    from memory.recall.intent import analyse
    from memory.recall.linking import Linked

    t0 = datetime(2026, 1, 5, tzinfo=UTC)
    store = KgliteStore(tmp_path / "g.kgl")
    graph = TemporalGraph(store)
    graph.assert_fact("Noor", "works_at", "Bluefin Labs", now=t0)
    replies = iter([
        "RETURN size(reduce(s = [], x IN range(1, 200000) | s + [x])) AS id",
        "MATCH (s:Entity)-[a:ARC {relation: 'works_at'}]->(o:Entity) RETURN a.id AS id",
    ])
    seen: list[str] = []

    class Scripted:
        def complete(self, messages: list[dict[str, str]], **_: object) -> str:
            seen.append(messages[-1]["content"])
            return next(replies)

    try:
        stage = CypherRecall(graph, Scripted(), timeout_ms=800)  # type: ignore[arg-type]
        started = time.monotonic()
        arcs, tried, _ = stage("Who works at Bluefin Labs?", Linked(), analyse("Who works at Bluefin Labs?"),
                               t0 + timedelta(days=1))
        took = time.monotonic() - started
        assert len(tried) == 2 and "took longer than 800 ms" in seen[1]
        assert [(a.subject, a.relation, a.object) for a in arcs] == [("Noor", "works_at", "Bluefin Labs")]
        assert took < 0.8 + MARGIN_S + 1.0  # the runaway's limit, then a fresh worker loads and answers
    finally:
        store.close()
