"""The answering model's first token against the utterance budget, on a memory holding a LoCoMo conversation.

    GLIBC_TUNABLES=glibc.rtld.optional_static_tls=65536 .venv/bin/python benchmarks/prompt_budget.py \
        [CONV.json] [--n 10] [--budgets 1200 600 300] [--data-dir D]

The conversation is fed as `benchmarks/locomo.py` does (learned with the rules; `--data-dir` keeps it for the
next run); then `n` of its questions (categories 1-4, sampled with a fixed seed) are typed into
`Pipeline.stream` with `recall.episode_chars` set to each budget, with the bundled model. Prints, per budget,
the median prompt length after the cached system part and the median time to the model's first token.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402

from benchmarks.common import machine  # noqa: E402
from benchmarks.locomo import DEFAULT, feed, turns_of  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("conversation", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--budgets", type=int, nargs="+", default=[1200, 600, 300])
    ap.add_argument("--seed", type=int, default=20240610)
    ap.add_argument("--data-dir", type=Path, help="keep (and reuse) the fed memory here")
    args = ap.parse_args()
    con = Console()

    from assistant.answer import user_prompt
    from assistant.compose import Hearth
    from assistant.settings import Settings

    conv = json.loads(args.conversation.read_text())
    turns = turns_of(conv, args.conversation.stem)
    last = max(t.at for t in turns)
    data = args.data_dir or Path(tempfile.mkdtemp(prefix="hearth-budget-"))
    app = Hearth(Settings(), data)
    app.clock = lambda: last
    if app.transcripts.turn_count() == 0:
        feed(app, args.conversation.stem, turns, learn="rules", con=con)
    pool = [q["question"] for q in conv["qa"] if int(q["category"]) in (1, 2, 3, 4)]
    questions = random.Random(args.seed).sample(pool, min(args.n, len(pool)))
    pipeline = app.pipeline
    pipeline.answer("Hello.", now=last)  # start and warm the model
    con.print(f"{args.conversation.stem}, {len(questions)} questions, {machine()}")
    con.print("| utterance budget | prompt chars p50 | first token p50 |\n|---|---|---|")
    try:
        for budget in args.budgets:
            pipeline.episode_chars = budget
            first, chars = [], []
            for q in questions:
                pieces, ans = pipeline.stream(q, now=last)
                "".join(pieces)  # the whole answer, as speech would take it
                if "llm_first_token" in ans.timings_ms and ans.recall is not None:
                    first.append(ans.timings_ms["llm_first_token"])
                    chars.append(len(user_prompt(q, ans.recall, last, budget_chars=budget)))
            if first:
                con.print(f"| {budget} | {statistics.median(chars):.0f} | {statistics.median(first) / 1000:.1f} s |")
            else:
                con.print(f"| {budget} | - | the model answered none ({len(questions)} asked) |")
    finally:
        app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
