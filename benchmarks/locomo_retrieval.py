"""LoCoMo retrieval, without the language model: does recall hand over the utterances that answer a question?

    PYTHONPATH=. .venv/bin/python benchmarks/locomo_retrieval.py [CONV.json ...] [--data-dir DIR] [--out F]

For every question of every conversation (all of them: no model time is spent), Hearth's recall runs as in
`assistant ask` and the utterances it would put in the answer prompt are compared with the question's
evidence (the dataset's ``evidence`` turn ids), beside BM25 over all utterances with the same number of
utterances. Figures per category:

- ``evidence@k``: share of questions (categories 1–4) with at least one evidence utterance handed over;
- ``all@k``: share with every evidence utterance handed over;
- for category 5 (adversarial: asked about things the person never said), ``abstain``: share where recall
  hands over nothing relevant, so the pipeline says it does not know without asking the model — and for
  categories 1–4 the same share is the cost (answerable questions refused).

The conversations are fed as in ``benchmarks/locomo.py`` (learning with the rules). ``--data-dir`` keeps each
conversation's memory so a second run only measures.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.progress import Progress  # noqa: E402
from rich.table import Table  # noqa: E402

from benchmarks.bm25 import bm25_top  # noqa: E402
from benchmarks.common import machine  # noqa: E402
from benchmarks.locomo import CATEGORIES, DEFAULT, feed, turns_of  # noqa: E402


def dia_of(source_id: str) -> str:
    """'conv-30-s3#4' (session 3, turn index 4) -> 'D3:5', the dataset's turn id."""
    conv, idx = source_id.rsplit("#", 1)
    return f"D{conv.rsplit('-s', 1)[1]}:{int(idx) + 1}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("conversations", nargs="*", type=Path, default=[DEFAULT])
    ap.add_argument("--data-dir", type=Path, help="keep (and reuse) each conversation's memory here")
    ap.add_argument("--out", type=Path, help="write every question with what was retrieved as JSON")
    args = ap.parse_args()
    con = Console()

    from assistant.compose import Hearth
    from assistant.settings import load_settings

    rows: list[dict[str, Any]] = []
    con.print(f"[bold]LoCoMo retrieval[/] on {machine()}")
    for path in args.conversations:
        conv = json.loads(path.read_text())
        name = path.stem
        turns = turns_of(conv, name)
        now = max(t.at for t in turns).replace(hour=12, minute=0, second=0) + timedelta(days=1)
        data_dir = args.data_dir / name if args.data_dir else Path(tempfile.mkdtemp(prefix=f"locomo-{name}-"))
        app = Hearth(load_settings(None), data_dir, clock=lambda now=now: now)
        try:
            if app.episodes.count() == 0:
                con.print(feed(app, name, turns, learn="rules", con=con))
            recaller = app.pipeline.recaller
            recaller.cypher = None  # generated Cypher needs the model: this measures retrieval alone
            docs = [t.text for t in turns]
            dia = [t.dia_id for t in turns]
            k = app.settings.recall.episodes
            with Progress(console=con, transient=True) as prog:
                task = prog.add_task(f"{name}: {len(conv['qa'])} questions", total=len(conv["qa"]))
                for q in conv["qa"]:
                    t0 = time.perf_counter()
                    r = recaller.recall(q["question"], now=now)
                    ms = (time.perf_counter() - t0) * 1000
                    handed = [dia_of(e.id) for e in r.episodes] if r.episodes_relevant else []
                    gold = {e.strip() for e in q.get("evidence", []) if e.strip()}
                    top = bm25_top(q["question"], docs, k)
                    bm = [dia[docs.index(d)] for d in top]
                    rows.append({"conversation": name, "category": int(q["category"]), "question": q["question"],
                                 "evidence": sorted(gold), "hearth": handed, "bm25": bm,
                                 "facts": len(r.facts), "abstain": not r.found_anything,
                                 "elsewhere": r.elsewhere_margin if r.elsewhere else None, "ms": round(ms, 1)})
                    prog.advance(task)
        finally:
            app.close()

    table = Table(title=f"LoCoMo retrieval: {len(rows)} questions, {len(args.conversations)} conversation(s)")
    for col in ("category", "n", "hearth evidence@k", "bm25 evidence@k", "hearth all@k", "bm25 all@k",
                "hearth abstains"):
        table.add_column(col)
    by: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by[r["category"]].append(r)

    def share(rs: list[dict[str, Any]], pred: Any) -> str:
        return f"{sum(1 for r in rs if pred(r)) / len(rs):.2f}" if rs else "-"

    for c in sorted(by):
        rs = by[c]
        ev = [r for r in rs if r["evidence"]]
        table.add_row(f"{c} {CATEGORIES[c]}", str(len(rs)),
                      share(ev, lambda r: set(r["hearth"]) & set(r["evidence"])),
                      share(ev, lambda r: set(r["bm25"]) & set(r["evidence"])),
                      share(ev, lambda r: set(r["evidence"]) <= set(r["hearth"])),
                      share(ev, lambda r: set(r["evidence"]) <= set(r["bm25"])),
                      share(rs, lambda r: r["abstain"]))
    con.print(table)
    ms = sorted(r["ms"] for r in rows)
    if ms:
        con.print(f"recall time per question: p50 {ms[len(ms) // 2]:.0f} ms, p95 {ms[int(len(ms) * 0.95)]:.0f} ms")
    if args.out:
        args.out.write_text(json.dumps({"machine": machine(), "rows": rows}, indent=1))
        con.print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
