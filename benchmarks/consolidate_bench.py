"""Nightly consolidation on a synthetic memory: the whole `TemporalGraph.consolidate` (decay-and-prune, orphans,
duplicate merging, entity summaries, the report) with each step's time; then what recall pays for summary lines.

The graph is bulk-loaded, saved and opened again, so it is served from its checkpoint as a store that has been
running a while is (kglite's mapped form; deleting arcs there costs more than in a freshly loaded graph). With
--base the saved graph is kept there and reused by later runs (the 1M graph takes minutes to load); each run
works on a copy."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from benchmarks.common import machine  # noqa: E402
from benchmarks.graph_bench import bulk_load  # noqa: E402
from benchmarks.synth import generate  # noqa: E402
from memory.errors import QueryFailed  # noqa: E402
from memory.graph import TemporalGraph  # noqa: E402
from memory.kglite_store import KgliteStore  # noqa: E402
from memory.summaries import summaries_for  # noqa: E402
from memory.timeutil import DAY  # noqa: E402

console = Console()


def load(base: Path, entities: int, arcs: int, seed: int) -> float:
    """Generate and bulk-load the graph into ``base``, save it; returns the graph's "now"."""
    g = generate(entities, arcs, seed=seed)
    if (base / "graph.kgl").exists():  # kept from an earlier run with the same --entities/--arcs/--seed
        return g.now
    store = KgliteStore(base / "graph.kgl")
    t = time.perf_counter()
    bulk_load(store, g, 50_000)
    store.checkpoint()
    console.print(f"loaded {arcs:,} arcs in {time.perf_counter() - t:.1f} s")
    store.close()
    return g.now


def fresh(base: Path, work: Path, name: str) -> KgliteStore:
    d = work / name
    shutil.copytree(base, d)
    return KgliteStore(d / "graph.kgl")


def consolidate(store: KgliteStore, now: float, threshold: float, budget: float | None,
                batch_s: float | None = None) -> dict[str, object]:
    graph = TemporalGraph(store, user_name="User")
    t = time.perf_counter()
    kw: dict[str, float] = {} if budget is None else {"prune_budget_s": budget}
    if batch_s is not None:
        kw["prune_batch_s"] = batch_s
    longest = 0.0
    last = [time.perf_counter()]

    def step(name: str, done: int, total: int) -> None:  # the longest prune transaction (a write holds the GIL)
        nonlocal longest
        now_ = time.perf_counter()
        if name.startswith("prune") and done:
            longest = max(longest, now_ - last[0])
        last[0] = now_

    r = graph.consolidate(now=datetime.fromtimestamp(now, UTC), threshold=threshold, progress=step, **kw)
    return {"s": round(time.perf_counter() - t, 2), "longest_prune_tx_s": round(longest, 2),
            "pruned": len(r.pruned_arcs), "orphans": len(r.removed_entities),
            "deferred": r.prune_deferred, "merged": len(r.merged), "left_alone": len(r.left_alone),
            "summaries": r.summaries,
            **{f"{k}_s": v for k, v in r.timings_s.items()}}


def summary_lines(store: KgliteStore, now: float, runs: int = 20) -> dict[str, object]:
    """What recall pays for the summary lines (two entities a question names), after the consolidation: lines as
    stored, and composed again (asked about the day before they were composed); the most and least salient."""
    graph = TemporalGraph(store, user_name="User")
    rows = store.read("MATCH (e:Entity) WHERE e.summary IS NOT NULL RETURN e.id AS id, e.mentions AS m "
                      "ORDER BY m DESC, id")
    out: dict[str, object] = {}
    for label, ids in (("hubs", [r["id"] for r in rows[:2]]), ("least salient", [r["id"] for r in rows[-2:]])):
        for how, at in (("stored", now), ("composed", now - DAY)):
            ms = []
            for _ in range(runs):
                t = time.perf_counter()
                summaries_for(graph, ids, now=datetime.fromtimestamp(at, UTC))
                ms.append((time.perf_counter() - t) * 1000)
            out[f"{label}, {how}: median ms"] = round(sorted(ms)[len(ms) // 2], 2)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--entities", type=int, default=100_000)
    p.add_argument("--arcs", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--threshold", type=float, default=0.02)
    p.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()))
    p.add_argument("--base", type=Path, help="keep the saved graph here and reuse it (built when missing)")
    p.add_argument("--prune-budget", type=float, help="consolidate's prune_budget_s (default: its own)")
    p.add_argument("--prune-batch-s", type=float, help="consolidate's prune_batch_s (default: its own)")
    p.add_argument("--nights", type=int, default=1,
                   help="consolidate this many times on the same store: a backlog left for the next nights")
    a = p.parse_args(argv)
    console.print(f"machine: {machine()}, load average {os.getloadavg()[0]:.2f}")
    work = Path(tempfile.mkdtemp(prefix="consolidate-bench-", dir=a.workdir))
    try:
        base = a.base or work / "base"
        now = load(base, a.entities, a.arcs, a.seed) + 30 * DAY
        rows = {}
        store = fresh(base, work, "run")
        try:
            for night in range(1, a.nights + 1):
                name = "consolidate" if a.nights == 1 else f"night {night}"
                rows[name] = consolidate(store, now, a.threshold, a.prune_budget, a.prune_batch_s)
                console.print(name, rows[name])
                if not rows[name]["deferred"]:
                    break
            rows["summary lines at question time"] = summary_lines(store, now)
        except QueryFailed as e:  # kglite's 180 s deadline per statement
            rows["consolidate"] = {"failed": str(e)[:160]}
        finally:
            store.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    t = Table(title=f"consolidation, {a.entities:,} entities / {a.arcs:,} arcs (load average now "
                    f"{os.getloadavg()[0]:.2f})")
    t.add_column("variant")
    t.add_column("result")
    for k, v in rows.items():
        t.add_row(k, ", ".join(f"{x}={y}" for x, y in v.items()))
    console.print(t)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
