"""Latency of generated Cypher through the query sandbox (memory/sandbox.py), cold and warm.

    .venv/bin/python benchmarks/sandbox_bench.py [--sizes 1000:5000,10000:100000] [--runs 50]

Per graph size (synthetic, `synth.generate`, loaded like `graph_bench.py`): the checkpoint a sandboxed read
needs after writes; the first query of a fresh store with no warm-up (checkpoint + worker start + load +
query); the first query after `warm_read_only()` (what the voice loop does at start); warm queries p50/p95; the
same query in-process (`store.read`) for the overhead; the next query after a runaway one was killed; the
worker's resident memory.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import machine, pct
from synth import generate

from memory import queries as Q
from memory.errors import QueryFailed
from memory.kglite_store import KgliteStore

QUERY = ("MATCH (s:Entity {id: $id})-[a:ARC]->(o:Entity) WHERE a.valid_from <= $now "
         "AND (a.valid_to IS NULL OR a.valid_to > $now) RETURN a.id AS id LIMIT 50")
RUNAWAY = "RETURN size(reduce(s = [], x IN range(1, 200000) | s + [x])) AS id"


def _load(path: Path, n_entities: int, n_arcs: int) -> tuple[str, float]:
    g = generate(n_entities, n_arcs)
    store = KgliteStore(path)
    for rows in g.entity_rows(50_000):
        with store.transaction() as tx:
            tx.run(Q.BULK_CREATE_ENTITIES, {"rows": rows})
    for rows in g.arc_rows(50_000):
        with store.transaction() as tx:
            tx.run(Q.BULK_CREATE_ARCS, {"rows": rows})
    store.close()
    return g.entity_ids[0], g.now


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


def _rss_mib(pid: int | None) -> float:
    if pid is None:
        return 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def bench(n_entities: int, n_arcs: int, runs: int) -> dict[str, float]:
    d = Path(tempfile.mkdtemp(prefix="hearth-sandbox-"))
    user, now = _load(d / "g.kgl", n_entities, n_arcs)
    params = {"id": user, "now": now}
    out: dict[str, float] = {}

    store = KgliteStore(d / "g.kgl")  # a fresh process's store: the log may hold commits, so it saves first
    t0 = time.perf_counter()
    rows = store.read_only(QUERY, params, timeout_ms=5000, row_limit=50)
    out["first query, no warm-up (ms)"] = _ms(t0)
    out["rows"] = len(rows)
    with store.transaction() as tx:
        tx.run("MATCH (e:Entity {id: $id}) SET e.bench = 1", {"id": user})
    t0 = time.perf_counter()
    store.checkpoint()
    out["checkpoint after a write (ms)"] = _ms(t0)
    store.close()

    store = KgliteStore(d / "g.kgl")
    t0 = time.perf_counter()
    store.warm_read_only()
    out["warm_read_only() returns (ms)"] = _ms(t0)
    time.sleep(3.0)  # the voice loop's warm-up runs while the model loads; the worker is ready by then
    t0 = time.perf_counter()
    store.read_only(QUERY, params, timeout_ms=5000, row_limit=50)
    out["first query after warm-up (ms)"] = _ms(t0)
    warm: list[float] = []
    inproc: list[float] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        store.read_only(QUERY, params, timeout_ms=5000, row_limit=50)
        warm.append(_ms(t0))
        t0 = time.perf_counter()
        store.read(QUERY, params)
        inproc.append(_ms(t0))
    out["warm query p50 (ms)"], out["warm query p95 (ms)"] = statistics.median(warm), pct(warm, 0.95)
    out["in-process query p50 (ms)"] = statistics.median(inproc)
    out["worker RSS (MiB)"] = _rss_mib(store._sandbox.pid)
    t0 = time.perf_counter()
    try:
        store.read_only(RUNAWAY, timeout_ms=1000, row_limit=1)
    except QueryFailed:
        pass
    out["runaway query ends after (ms, limit 1000)"] = _ms(t0)
    t0 = time.perf_counter()
    store.read_only(QUERY, params, timeout_ms=5000, row_limit=50)
    out["next query after the kill (ms)"] = _ms(t0)
    store.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000:5000,10000:100000", help="entities:arcs, comma separated")
    ap.add_argument("--runs", type=int, default=50)
    args = ap.parse_args()
    print(f"machine: {machine()}, Python {sys.version.split()[0]}")
    for size in args.sizes.split(","):
        e, a = (int(x) for x in size.split(":"))
        res = bench(e, a, args.runs)
        print(f"\n{e:,} entities / {a:,} arcs")
        for k, v in res.items():
            print(f"  {k:45} {v:10.1f}")


if __name__ == "__main__":
    main()
