"""Review page latency: the page's API calls against a real `Service` (uvicorn, kglite, SQLite) at N conversations.

    python -m benchmarks.service_latency --conversations 10000 --turns 6 --repeat 40

Conversations are stored (not learned: the page's cost is reading them); a few hundred facts are added so
entity pages have something to show. Prints p50/p95 per endpoint in milliseconds, over HTTP on loopback.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
import urllib.parse
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

from assistant.compose import Hearth
from assistant.service.server import Service
from assistant.settings import Settings
from memory.transcripts import Turn

# The page never reads vectors: without them the build takes seconds instead of half an hour at 10k, and no
# embedding backfill runs beside the measurement.
SETTINGS = Settings.model_validate({"recall": {"embeddings": False}})
NAMES = ["Anna", "Felix", "Maria", "Tom", "Lena", "Omar", "Ines", "Raj", "Yuki", "Sam"]
PLACES = ["Porto", "Ghent", "Utrecht", "Lisbon", "Braga", "Leeds", "Oslo", "Kyoto"]


def build(data_dir: Path, conversations: int, turns: int, seed: int = 7) -> None:
    rnd = random.Random(seed)
    app = Hearth(SETTINGS, data_dir)
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    batch: list[Turn] = []
    for c in range(conversations):
        start = t0 + timedelta(minutes=37 * c)
        for i in range(turns):
            who = "user" if i % 2 == 0 else "assistant"
            text = (f"{rnd.choice(NAMES)} went to {rnd.choice(PLACES)} on day {c}." if who == "user"
                    else "That sounds lovely, tell me more.")
            batch.append(Turn(f"conv-{c:06d}", start + timedelta(seconds=20 * i), who, text))
        if len(batch) >= 5000:
            app.transcripts.add_turns(batch, source="bench")
            batch = []
    if batch:
        app.transcripts.add_turns(batch, source="bench")
    now = t0 + timedelta(minutes=37 * conversations)
    for i in range(300):
        app.graph.assert_fact(rnd.choice(NAMES), "visited", rnd.choice(PLACES), now=now - timedelta(days=300 - i))
    app.close()


def timed(url: str, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        with urllib.request.urlopen(url, timeout=60) as r:
            json.loads(r.read())
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--conversations", type=int, default=10_000)
    ap.add_argument("--turns", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=40)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        data = Path(d)
        t = time.perf_counter()
        build(data, args.conversations, args.turns)
        print(f"built {args.conversations} conversations x {args.turns} turns in {time.perf_counter() - t:.1f} s")
        service = Service(Hearth(SETTINGS, data), port=0)
        info = service.start_in_thread()
        try:
            mid = f"conv-{args.conversations // 2:06d}"
            calls = {
                "list (newest 50)": "/api/conversations",
                "search text": "/api/conversations?" + urllib.parse.urlencode({"q": "Kyoto on day 77"}),
                "search text, common": "/api/conversations?" + urllib.parse.urlencode({"q": "Porto"}),
                "search text, no match": "/api/conversations?" + urllib.parse.urlencode({"q": "Reykjavik"}),
                "filter speaker+dates": "/api/conversations?speaker=user&since=2024-03-01&until=2024-04-01",
                "one conversation": f"/api/conversations/{mid}",
                "entities": "/api/entities",
                "entity page": "/api/entities/Anna",
                "health": "/health",
            }
            print(f"{'endpoint':24} {'p50 ms':>8} {'p95 ms':>8}")
            for name, path in calls.items():
                ms = timed(info.url + path, args.repeat)
                p95 = statistics.quantiles(ms, n=20)[18]
                print(f"{name:24} {statistics.median(ms):8.1f} {p95:8.1f}")
        finally:
            service.stop()


if __name__ == "__main__":
    main()
