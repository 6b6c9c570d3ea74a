"""What a question that names a period costs (issue 11 item 3): the period arm of episode search at scale.

    .venv/bin/python benchmarks/period_search.py --data-dir DIR [--runs 7]

DIR is a store built by benchmarks/recall_scale.py (100k arcs + 100k episodes); a copy is opened, so the
original stays as it was. For questions naming a weekend, a month, a season (and one naming none), prints
the median time of `Episodes._about_period` (the range read and the filter of what names a time in the
period) and how many episodes it read and kept. The rest of the search is measured by recall_scale.py.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine  # noqa: E402

QUESTIONS = ["What did I do last weekend?", "What did I do last month?", "What did I do in March?",
             "What did I get up to last summer?", "What did I say about climbing?"]


def main() -> int:
    from memory.episodes import Episodes
    from memory.graph import TemporalGraph
    from memory.kglite_store import KgliteStore
    from memory.periods import asked_period
    from memory.timeutil import from_epoch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", type=Path, required=True, help="a store built by recall_scale.py")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for f in args.data_dir.glob("graph.kgl*"):
            if not f.name.endswith((".lock", ".lock-owner")):
                shutil.copy(f, Path(tmp) / f.name)
        store = KgliteStore(Path(tmp) / "graph.kgl")
        try:
            episodes = Episodes(TemporalGraph(store))
            info = store.read("MATCH (e:Episode) RETURN max(e.at) AS hi, count(e) AS n")[0]
            now = from_epoch(info["hi"]) + timedelta(days=1)  # type: ignore[operator]
            print(f"{machine()}; {info['n']} episodes; now = {now.date()}")
            for q in QUESTIONS:
                times, kept, read = [], 0, 0
                for _ in range(args.runs):
                    t = time.perf_counter()
                    asked = asked_period(q, now)
                    rows: dict[str, dict[str, object]] = {}
                    kept = len(episodes._about_period(*asked, now, rows)) if asked else 0
                    times.append((time.perf_counter() - t) * 1000)
                    read = len(rows)
                print(f"{q:<36} period arm p50 {statistics.median(times):6.1f} ms  read {read:4d}  kept {kept:4d}")
        finally:
            store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
