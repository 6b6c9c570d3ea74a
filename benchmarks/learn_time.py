"""Time to learn from a 10-turn conversation with the bundled model (grounded LLM + rules), and rules only.

    .venv/bin/python benchmarks/learn_time.py [--runs 3]

The model server is started first and warmed (as in a running assistant); each run learns a fresh
10-turn conversation (6 user turns, 4 assistant turns) into an empty memory. Target: <= 15 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402

from benchmarks.common import machine  # noqa: E402

CONVERSATIONS = [
    ["My cousin Marta just moved to Valencia.", "Oh nice, Spain!", "She works at a startup called Lumen Labs.",
     "Sounds exciting.", "I've started learning the guitar, by the way.", "Great hobby.",
     "I don't really like jazz anymore though.", "Tastes change.", "We adopted a cat named Pixel last week.",
     "I'm allergic to shellfish, remember that."],
    ["I work as a teacher at Hillside Primary.", "That must keep you busy.", "My brother Leo lives in Oslo.",
     "Cold up there!", "He drives a Tesla now.", "Fancy.", "I sold my Ford and bought a bike.",
     "Good for the planet.", "My friend Sam plays the drums in a band.", "I was born in Lyon."],
    ["Can you set a timer?", "Sure.", "My neighbour Ines grew up in Lisbon.", "Lovely city.",
     "I love green tea and dark chocolate.", "Good combination.", "My sister Julia got a job at Ridgeway Bank.",
     "Congratulations to her.", "Tell me a joke.", "I don't eat meat anymore."],
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=len(CONVERSATIONS))
    ap.add_argument("--method", choices=("grounded", "choose"), default="grounded", help="extraction.method")
    args = ap.parse_args()
    con = Console()
    from assistant.compose import Hearth
    from assistant.settings import Settings
    from memory.transcripts import Turn

    tmp = Path(tempfile.mkdtemp(prefix="hearth-learn-"))
    base = Hearth(Settings(), tmp / "base")
    default_models = str(Path.home() / ".local/share/hearth/models")
    base.models_dir_override = Path(os.environ.get("HEARTH_MODELS_DIR", default_models))
    t0 = time.perf_counter()
    llm = base.llm
    base.pipeline.warm_up()
    con.print(f"model server ready and warm in {time.perf_counter() - t0:.1f} s")
    llm_name = "grounded LLM + rules" if args.method == "grounded" else "LLM choosing among spans + rules"
    rows: dict[str, list[float]] = {llm_name: [], "rules only": []}
    facts: dict[str, list[int]] = {k: [] for k in rows}
    for i in range(args.runs):
        texts = CONVERSATIONS[i % len(CONVERSATIONS)]
        at = datetime(2026, 6, 1, 18, tzinfo=UTC)
        turns = [Turn(f"c{i}", at + timedelta(seconds=20 * j), "user" if j % 2 == 0 or j == 9 else "assistant", t)
                 for j, t in enumerate(texts)]
        for name, use_llm in ((llm_name, True), ("rules only", False)):
            app = Hearth(Settings.model_validate({"extraction": {"method": args.method}}), tmp / f"{name[:5]}-{i}")
            app.__dict__["llm"] = llm
            app.graph  # noqa: B018 - open the store outside the timed part
            app.rules.extract("warm up", at=at)
            s = time.perf_counter()
            [r] = app.learner(use_llm=use_llm).ingest(turns, source="bench")
            rows[name].append(time.perf_counter() - s)
            facts[name].append(len(r.changes))
            con.print(f"run {i + 1} {name}: {rows[name][-1]:.1f} s, {len(r.changes)} changes "
                      f"({', '.join(c.describe() for c, _, _ in r.changes)})")
            app.close()
    base.close()
    lines = ["## Learning time (issue 3)", "",
             f"Command: `.venv/bin/python benchmarks/learn_time.py --runs {args.runs} --method {args.method}` — "
             f"{machine()}, "
             f"{datetime.now(UTC).date()}; a 10-turn conversation (6 user, 4 assistant) into an empty memory, "
             "bundled Qwen2.5-Coder-1.5B already warm.", "",
             "| path | median | max | changes (median) |", "|---|---|---|---|"]
    for name, ts in rows.items():
        med = statistics.median(facts[name])
        lines.append(f"| {name} | {statistics.median(ts):.1f} s | {max(ts):.1f} s | {med:.0f} |")
    con.print("\n".join(lines))
    out = "learn.md" if args.method == "grounded" else f"learn-{args.method}.md"
    (ROOT / "docs" / "bench" / out).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
