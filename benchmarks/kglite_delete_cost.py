"""What deleting arcs costs in kglite, on the synthetic memory saved and opened again: the prune statement of
consolidation, and deletes at the biggest hub (the user) with the statement and the commit timed apart.

The saved graph is kept in --base (built when missing: the 1M graph takes minutes to load), and each
measurement runs on a fresh copy of it."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from benchmarks.common import machine  # noqa: E402
from benchmarks.graph_bench import bulk_load  # noqa: E402
from benchmarks.synth import NOW, generate  # noqa: E402
from memory import queries as Q  # noqa: E402
from memory.errors import QueryFailed  # noqa: E402
from memory.graph import PRUNABLE  # noqa: E402
from memory.kglite_store import KgliteStore  # noqa: E402
from memory.timeutil import DAY  # noqa: E402


def copy(base: Path, work: Path, name: str) -> KgliteStore:
    shutil.copytree(base, work / name)
    return KgliteStore(work / name / "graph.kgl")


def timed_tx(store: KgliteStore, query: str, params: dict[str, object]) -> tuple[float, float, int]:
    """(statement s, commit s, rows)."""
    with store.transaction() as tx:
        t = time.perf_counter()
        n = len(tx.run(query, params))
        t1 = time.perf_counter()
    return t1 - t, time.perf_counter() - t1, n


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--entities", type=int, default=100_000)
    p.add_argument("--arcs", type=int, default=1_000_000)
    p.add_argument("--base", type=Path, required=True, help="where the saved graph is kept between runs")
    p.add_argument("--hub-deletes", type=int, nargs="+", default=[200, 2000])
    p.add_argument("--skip-prune", action="store_true")
    a = p.parse_args(argv)
    print(f"machine: {machine()}, load average {os.getloadavg()[0]:.2f}")
    if not (a.base / "graph.kgl").exists():
        store = KgliteStore(a.base / "graph.kgl")
        t = time.perf_counter()
        bulk_load(store, generate(a.entities, a.arcs, seed=7), 50_000)
        store.checkpoint()
        store.close()
        print(f"built {a.base}: {a.arcs:,} arcs in {time.perf_counter() - t:.0f} s")
    work = Path(tempfile.mkdtemp(prefix="kglite-delete-", dir=a.base.parent))
    try:
        if not a.skip_prune:
            store = copy(a.base, work, "prune")
            params = {"now": NOW + 30 * DAY, "threshold": 0.02, "prunable": PRUNABLE, "min_confidence": 0.3}
            t = time.perf_counter()
            try:
                s, c, n = timed_tx(store, Q.PRUNE_WEAK, params)
                print(f"PRUNE_WEAK: {n:,} arcs, statement {s:.2f} s, commit {c:.2f} s")
            except QueryFailed as e:
                print(f"PRUNE_WEAK failed after {time.perf_counter() - t:.0f} s: {str(e)[:100]}")
            store.close()
        store = copy(a.base, work, "hub")
        out = [r["id"] for r in store.read(Q.ARCS_RAW_OUT, {"id": "user"})]
        print(f"the user: {len(out):,} out-arcs")
        done = 0
        for k in a.hub_deletes:
            ids = out[len(out) - done - k:len(out) - done]  # the last listed, not deleted yet
            done += k
            s, c, n = timed_tx(store, Q.DELETE_ARCS_OUT_BY_IDS, {"id": "user", "ids": ids})
            print(f"delete {n:,} of the user's out-arcs: statement {s:.2f} s, commit {c:.2f} s")
        store.close()
        print(f"load average now {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
