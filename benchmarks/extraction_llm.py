"""Extraction P/R/F1 of the LLM path (pure LLM, and the shipped grounded LLM+rules) on the extraction set.

    .venv/bin/python benchmarks/extraction_llm.py [--data tests/data/extraction_set.jsonl] [--limit N]

Starts the bundled model once (HEARTH_MODELS_DIR, default ~/.local/share/hearth/models); each utterance is
a one-turn conversation (its context as earlier user turns), like the learner sees it.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.progress import track  # noqa: E402

from memory.extraction.scoring import Scores, load_examples, score  # noqa: E402
from memory.extraction.types import ExtractedFact  # noqa: E402
from memory.learning import ConversationExtractor, GroundedExtractor, RulesExtractor  # noqa: E402
from memory.transcripts import Turn  # noqa: E402


def as_fn(ex: ConversationExtractor, times: list[float]):  # type: ignore[no-untyped-def]
    def run(text: str, at: datetime, context: Sequence[str]) -> list[ExtractedFact]:
        turns = [Turn("x", at - timedelta(minutes=len(context) - i), "user", c, idx=i) for i, c in enumerate(context)]
        turns.append(Turn("x", at, "user", text, idx=len(context)))
        t0 = time.perf_counter()
        facts = [f for f in ex.extract(turns).facts if f.turn == len(context)]
        times.append(time.perf_counter() - t0)
        return facts
    return run


class _Memo:
    """Caches the LLM's extraction per conversation so the grounded path reuses the same answer."""

    def __init__(self, inner: ConversationExtractor) -> None:
        self.inner, self.cache = inner, {}  # type: ignore[var-annotated]

    def extract(self, turns: Sequence[Turn], *, known: Sequence[ExtractedFact] = ()):  # type: ignore[no-untyped-def]
        key = tuple((t.idx, t.text) for t in turns)
        if key not in self.cache:
            self.cache[key] = self.inner.extract(turns)  # no hints: measures the LLM alone
        return self.cache[key]


def show(con: Console, name: str, s: Scores, times: list[float]) -> str:
    times = sorted(times)
    p50 = times[len(times) // 2] if times else 0.0
    line = (f"| {name} | {s.precision:.3f} | {s.recall:.3f} | {s.f1:.3f} | {p50:.2f} s |")
    con.print(f"[bold]{name}[/]: P {s.precision:.3f} R {s.recall:.3f} F1 {s.f1:.3f} (median {p50:.2f} s/utterance)")
    return line


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(ROOT / "tests" / "data" / "extraction_set.jsonl"))
    ap.add_argument("--limit", type=int)
    args = ap.parse_args()
    con = Console()
    examples = load_examples(args.data)[: args.limit]
    from assistant.llm import start_llm
    from memory.extraction.llm_extractor import LLMExtractor
    from memory.extraction.rules import RuleExtractor

    models = Path(os.environ.get("HEARTH_MODELS_DIR", str(Path.home() / ".local/share/hearth/models")))
    from assistant.compose import default_cache_dir

    llm, close = start_llm("bundled", models_dir=models, logs_dir=Path(tempfile.mkdtemp()), keep_alive_s=600,
                           run_dir=default_cache_dir() / "run", timeout_s=300)
    rows = []
    try:
        rules = RuleExtractor()
        llm_only = _Memo(LLMExtractor(llm, rules))  # one model call per utterance serves both paths
        grounded = GroundedExtractor(llm_only, RulesExtractor(rules), entities=rules.entities)
        for name, ex in (("LLM only", llm_only), ("LLM + rules (grounded, shipped)", grounded)):
            times: list[float] = []
            fn = as_fn(ex, times)
            wrapped = [e for e in track(examples, description=name, console=con)]
            s = score(fn, wrapped)
            rows.append(show(con, name, s, times))
            for miss in s.misses[:8]:
                con.print(f"  [dim]miss:[/] {miss}")
            for fp in s.false_positives[:8]:
                con.print(f"  [dim]false positive:[/] {fp}")
    finally:
        close()
    con.print("\n| path | P | R | F1 | median time |\n|---|---|---|---|---|\n" + "\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
