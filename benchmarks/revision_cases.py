"""Belief revision by the model (memory/revision.py), case by case: does what was said later end the fact?

    GLIBC_TUNABLES=glibc.rtld.optional_static_tls=65536 .venv/bin/python benchmarks/revision_cases.py \
        [benchmarks/data/revision_cases.jsonl] [--split dev|holdout]

Each case is a fact believed since a day, a sentence said later, and whether that sentence ends the fact
("ended") or not ("holds"). The fact is stored in a real graph, and the shipped ``Reviser`` asks the bundled
model. Printed per split: how many verdicts are right, how many of the facts that ended were closed (recall) and
how many of the closes were right (precision): a wrong close loses a true fact from "now" answers.
Whether a turn is checked at all (``says_a_change``, ``candidates``) is reported beside the verdict.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _day(s: str) -> datetime:
    return datetime.strptime(s, "%d %B %Y").replace(hour=12, tzinfo=UTC)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="?", default=str(Path(__file__).parent / "data" / "revision_cases.jsonl"))
    ap.add_argument("--split", choices=["dev", "holdout"], default=None)
    args = ap.parse_args()

    from rich.console import Console
    from rich.progress import track
    from rich.table import Table

    from assistant.compose import default_cache_dir, default_data_dir
    from assistant.llm import start_llm
    from benchmarks.common import machine
    from memory.graph import TemporalGraph
    from memory.kglite_store import KgliteStore
    from memory.revision import Reviser, candidates
    from memory.transcripts import Turn

    rows = [json.loads(line) for line in Path(args.cases).read_text().splitlines() if line.strip()]
    rows = [r for r in rows if args.split in (None, r["split"])]
    tmp = Path(tempfile.mkdtemp(prefix="hearth-revision-"))
    llm, close = start_llm("bundled", models_dir=default_data_dir() / "models", logs_dir=tmp / "logs",
                           run_dir=default_cache_dir() / "run", progress=False)
    reviser = Reviser(lambda: llm)
    results = []
    try:
        for i, r in enumerate(track(rows, description="cases")):
            store = KgliteStore(tmp / f"g{i}.kgl")
            try:
                g = TemporalGraph(store)
                since, said_on = _day(r["since"]), _day(r["said_on"])
                g.ensure_user(since)
                g.assert_fact(r["subject"], r["relation"], r["object"], now=since, source="c0#0")
                speaker = "user" if "user" in (r["subject"], r["object"]) else r["subject"]
                turn = Turn("c1", said_on, speaker, r["said"], 0)
                owner = g.find_entity(speaker)
                assert owner is not None
                facts = [a for a in g.arcs_of_entity(owner.id, now=said_on)]
                checked = bool(candidates(facts, turn, before=said_on))
                t0 = time.perf_counter()
                ended = reviser.ends(facts[0], turn)
                results.append({**r, "ended": ended, "checked": checked,
                                "seconds": round(time.perf_counter() - t0, 2)})
            finally:
                store.close()
    finally:
        close()

    console = Console()
    table = Table(title=f"Belief revision by the model ({machine()})")
    for col in ("split", "cases", "right", "ends closed (recall)", "closes right (precision)",
                "checked: ends / holds", "shipped: ends closed / wrong closes", "s per check (median)"):
        table.add_column(col)
    for split in sorted({r["split"] for r in results}):
        rs = [r for r in results if r["split"] == split]
        ends = [r for r in rs if r["expect"] == "ended"]
        closed = [r for r in rs if r["ended"]]
        shipped = [r for r in rs if r["ended"] and r["checked"]]
        secs = sorted(r["seconds"] for r in rs)
        table.add_row(split, str(len(rs)), str(sum(r["ended"] == (r["expect"] == "ended") for r in rs)),
                      f"{sum(r['ended'] for r in ends)}/{len(ends)}",
                      f"{sum(r['expect'] == 'ended' for r in closed)}/{len(closed)}",
                      f"{sum(r['checked'] for r in ends)} / {sum(r['checked'] for r in rs if r not in ends)}",
                      f"{sum(r['expect'] == 'ended' for r in shipped)} / "
                      f"{sum(r['expect'] != 'ended' for r in shipped)}",
                      f"{secs[len(secs) // 2]:.1f}")
    console.print(table)
    for r in results:
        if r["ended"] != (r["expect"] == "ended"):
            console.print(f"  wrong: {r['subject']} {r['relation']} {r['object']} | {r['said']} "
                          f"-> {'ended' if r['ended'] else 'holds'} (checked: {r['checked']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
