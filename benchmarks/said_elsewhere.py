"""Would the pipeline answer "X didn't mention that" — for every question of LoCoMo conversations, recall only.

    GLIBC_TUNABLES=glibc.rtld.optional_static_tls=65536 PYTHONPATH=. .venv/bin/python benchmarks/said_elsewhere.py \
        MEMDIR conv-30 conv-41 [--out FILE.jsonl]

MEMDIR holds the memories `benchmarks/locomo.py --data-dir MEMDIR` learned (one folder per conversation; use a
copy while a run holds them). No answering model is asked: the figure is whether ``Pipeline._said_elsewhere``
holds (and no turn of the asked person prompted the other's), for the adversarial questions (category 5: the
more the better) and for the answerable ones (categories 1-4: each one a wrong refusal). Both sides of a change
to attribution show on all the questions, not only on the sample the end-to-end run answers. (A question whose
generated Cypher returns rows is not refused; that stage asks the model, when it is running.)
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("memdir", type=Path)
    ap.add_argument("conversations", nargs="+", help="conversation ids, e.g. conv-30")
    ap.add_argument("--locomo", type=Path, default=None, help="folder of the conversations (default: locomo.py's)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()

    from rich.console import Console
    from rich.progress import track

    from assistant.compose import Hearth
    from assistant.settings import load_settings
    from benchmarks.common import machine
    from benchmarks.locomo import DEFAULT, turns_of

    folder = args.locomo or DEFAULT.parent

    rows = []
    for conv in args.conversations:
        data = json.loads((folder / f"{conv}.json").read_text())
        turns = turns_of(data, conv)
        now = max(t.at for t in turns).replace(hour=12, minute=0, second=0) + timedelta(days=1)
        app = Hearth(load_settings(None), args.memdir / conv, clock=lambda now=now: now)
        try:
            p = app.pipeline
            for qa in track(data["qa"], description=conv):
                q = " ".join(qa["question"].split())
                rec = p.recall(q, now=now)
                refused = p._said_elsewhere(rec) and rec.prompted is None
                rows.append({"conversation": conv, "category": qa["category"], "question": q, "refused": refused,
                             "margin": rec.elsewhere_margin, "asked": rec.asked})
        finally:
            app.close()
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    five = [r for r in rows if r["category"] == 5]
    answerable = [r for r in rows if r["category"] != 5]
    Console().print(f"{machine()}: adversarial refused {sum(r['refused'] for r in five)} / {len(five)}, "
                    f"answerable refused {sum(r['refused'] for r in answerable)} / {len(answerable)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
