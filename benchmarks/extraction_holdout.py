"""Extraction precision/recall on the annotated holdout (benchmarks/data/extraction_holdout.jsonl, issue 10).

    .venv/bin/python benchmarks/extraction_holdout.py [--paths rules,llm,shipped,choose,choose+rules]
                                                      [--limit N] [--ids a,b] [--out DIR]

Each utterance is learned as its own conversation: its `context` turns ("Name: text") first, then the
utterance itself by its `speaker` ("user" for the user's rows, a name for LoCoMo and guests) at its `at`;
only the facts of the last turn are scored (benchmarks/holdout_score.py). Paths:
- `rules`: the spaCy rules alone (RulesExtractor);
- `llm`: the model alone (the LLM extractor, no rule facts given to it);
- `shipped`: today's shipped path, GroundedExtractor (rules + the model's triples) as compose builds it;
  after `llm` in the same run it reuses the model's answers (given without the rules' facts as a hint;
  `--exact` calls the model again with the hint, exactly as the learner does);
- `choose`: the model choosing and labelling among spaCy's candidate spans (memory/extraction/choose.py),
  one call for the utterance (its context turns give names only: the learner would call for them too);
- `choose+rules`: that plus what the rules are certain of (ChoiceWithRules; `extraction.method: choose`),
  reusing the `choose` answers when run after it.
The bundled model is started once (shared server, HEARTH_MODELS_DIR, default ~/.local/share/hearth/models).
Predictions and scores go to DIR (default /tmp/hearth-holdout): `<path>.jsonl` and `<path>.score.json`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: E402

from benchmarks.common import machine, pct  # noqa: E402
from benchmarks.holdout_score import HOLDOUT, load, score  # noqa: E402
from memory.extraction.types import ExtractedFact  # noqa: E402
from memory.learning import ConversationExtractor, Extraction  # noqa: E402
from memory.llm import LLMError  # noqa: E402
from memory.timeutil import parse_time  # noqa: E402
from memory.transcripts import Turn  # noqa: E402


def turns_for(row: dict[str, Any]) -> list[Turn]:
    """The row as a conversation: its context turns ("Name: text"), then the utterance by its speaker."""
    at = parse_time(row["at"])
    turns = []
    ctx = list(row.get("context") or [])
    for i, line in enumerate(ctx):
        speaker, _, text = line.partition(": ")
        if not text:
            speaker, text = row["speaker"], line
        turns.append(Turn(str(row["id"]), at - timedelta(minutes=len(ctx) - i), speaker, text, idx=i))
    turns.append(Turn(str(row["id"]), at, row["speaker"], row["text"], idx=len(ctx)))
    return turns


def as_prediction(f: ExtractedFact) -> dict[str, Any]:
    """An extracted fact in the scorer's shape (a retraction withdraws a value: `end`)."""
    when = f.valid_from or f.valid_to
    pred = f.relation
    if f.relation == "related_to" and f.label:
        pred = f.label
    pred = str((f.extra or {}).get("predicate") or pred)
    out: dict[str, Any] = {"subject": f.subject, "predicate": pred, "object": f.object,
                           "op": "assert" if f.op == "assert" else "end",
                           "when": when.date().isoformat() if isinstance(when, datetime) else None}
    if (f.extra or {}).get("kind"):
        out["kind"] = f.extra["kind"]
    return out


def run_path(name: str, ex: ConversationExtractor, rows: Sequence[dict[str, Any]], progress: Progress,
             memo: Memo | None = None, *, deadline: float = float("inf"), sink: Path | None = None,
             ) -> tuple[list[dict[str, Any]], list[float], list[str]]:
    """Predictions for `rows` in order; stops before a row once `deadline` (perf_counter) has passed, so a
    run on a busy machine still scores the rows it did (a prefix of the shuffled order: a fair sample)."""
    preds: list[dict[str, Any]] = []
    times: list[float] = []
    notes: list[str] = []
    task = progress.add_task(name, total=len(rows))
    if sink is not None:
        sink.write_text("")
    for row in rows:
        if time.perf_counter() > deadline:
            break
        turns = turns_for(row)
        t0 = time.perf_counter()
        try:
            extraction = ex.extract(turns)
        except LLMError as e:  # the model alone has no fallback: a broken answer is an empty prediction
            extraction = Extraction([], "failed", [f"failed: {e.message}"])
        times.append(time.perf_counter() - t0 + (memo.replayed if memo else 0.0))
        if memo:
            memo.replayed = 0.0
        last = turns[-1].idx
        preds.append({"id": row["id"], "facts": [as_prediction(f) for f in extraction.facts if f.turn == last],
                      "seconds": round(times[-1], 3)})
        notes += [f"{row['id']}: {n}" for n in extraction.notes]
        if sink is not None:
            with sink.open("a") as fh:
                fh.write(json.dumps(preds[-1]) + "\n")
        progress.advance(task)
    return preds, times, notes


def report(name: str, s: dict[str, Any], times: list[float]) -> str:
    mean = sum(times) / len(times) if times else 0.0
    p50 = pct(times, 0.5) if times else 0.0
    return (f"| {name} | {len(times)} | {s['precision']:.3f} | {s['recall']:.3f} | {s['f1']:.3f} | "
            f"{s['tp']} / {s['fp']} / {s['fn']} | {s['must_not_hits']} | {p50:.2f} s / {mean:.2f} s |")


class Memo:
    """The model's answer per conversation, kept so that the shipped path reuses the LLM-only call.

    The shipped path's time then counts that call's time too (the rules' time is measured anew)."""

    def __init__(self, inner: ConversationExtractor) -> None:
        self.inner = inner
        self.cache: dict[tuple[tuple[int, str], ...], tuple[Extraction | LLMError, float]] = {}
        self.replayed = 0.0  # seconds of cached calls replayed since the last reset
        self.done: set[str] = set()  # conversations answered

    def extract(self, turns: Sequence[Turn], *, known: Sequence[ExtractedFact] = ()) -> Extraction:
        key = tuple((t.idx, t.text) for t in turns)
        if key in self.cache:
            result, took = self.cache[key]
            self.replayed += took
        else:
            t0 = time.perf_counter()
            try:
                result = self.inner.extract(turns)  # no hint: the same answer serves both paths
            except LLMError as e:
                result = e
            self.cache[key] = (result, time.perf_counter() - t0)
            self.done.add(turns[-1].conversation)
        if isinstance(result, LLMError):
            raise result
        return Extraction(list(result.facts), result.method, list(result.notes))


def build(paths: Sequence[str], exact: bool) -> tuple[dict[str, Callable[[], ConversationExtractor]],
                                                      Callable[[], None]]:
    from assistant.compose import Hearth
    from assistant.settings import Settings
    from memory.learning import GroundedExtractor, RulesExtractor

    app = Hearth(Settings(), Path(tempfile.mkdtemp(prefix="hearth-holdout-")))
    app.models_dir_override = Path(os.environ.get("HEARTH_MODELS_DIR", str(Path.home() / ".local/share/hearth/models")))
    memo: Memo | None = None

    def llm_only() -> ConversationExtractor:
        nonlocal memo
        from memory.extraction.llm_extractor import LLMExtractor

        memo = Memo(LLMExtractor(app.llm, app.rules))
        return memo

    def shipped() -> ConversationExtractor:
        if memo is None or exact:
            return app.extractor(use_llm=True)
        # what compose builds, over the model's (cached) unhinted answer
        return GroundedExtractor(memo, RulesExtractor(app.rules), entities=app.rules.entities)

    choose_memo: Memo | None = None

    def choose() -> ConversationExtractor:
        nonlocal choose_memo
        from memory.extraction.choose import CandidateExtractor

        choose_memo = Memo(CandidateExtractor(app.llm, app.rules.nlp, only_last=True))
        return choose_memo

    def choose_rules() -> ConversationExtractor:
        from memory.extraction.choose import CandidateExtractor, ChoiceWithRules

        model = choose_memo or CandidateExtractor(app.llm, app.rules.nlp, only_last=True)
        return ChoiceWithRules(model, RulesExtractor(app.rules))

    makers: dict[str, Callable[[], ConversationExtractor]] = {
        "rules": lambda: RulesExtractor(app.rules), "llm": llm_only, "shipped": shipped,
        "choose": choose, "choose+rules": choose_rules,
    }
    return {p: makers[p] for p in paths}, app.close


def rescore(con: Console, out: Path, paths: Sequence[str], rows: Sequence[dict[str, Any]]) -> int:
    saved = {p: [json.loads(ln) for ln in (out / f"{p}.jsonl").read_text().splitlines() if ln.strip()]
             for p in paths}
    common = set.intersection(*({r["id"] for r in v} for v in saved.values()))
    gold = [r for r in rows if r["id"] in common]
    lines = [report(p, score([r for r in v if r["id"] in common], gold),
                    [float(r.get("seconds", 0.0)) for r in v if r["id"] in common]) for p, v in saved.items()]
    con.print(f"{len(gold)} utterances done by every path ({sum(len(r['facts']) for r in gold)} gold facts)\n"
              "| path | utterances | P | R | F1 | TP / FP / FN | must_not hits | time per utterance (median / mean) |\n"
              "|---|---|---|---|---|---|---|---|\n" + "\n".join(lines))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--paths", default="rules,llm,shipped")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--ids", help="comma-separated row ids to run (debugging)")
    ap.add_argument("--data", type=Path, default=HOLDOUT,
                    help="annotated rows (default: the holdout; benchmarks/data/extraction_dev.jsonl to tune on)")
    ap.add_argument("--out", default="/tmp/hearth-holdout")
    ap.add_argument("--rescore", action="store_true",
                    help="no run: score the paths' saved predictions in --out on the rows all of them did")
    ap.add_argument("--minutes", type=float, help="time budget per path: score the rows done by then")
    ap.add_argument("--seed", type=int, default=10,
                    help="rows in a fixed shuffled order (so a partial run is a fair sample); 0: file order")
    ap.add_argument("--exact", action="store_true",
                    help="shipped path calls the model itself (with the rules' facts as a hint) even after llm")
    args = ap.parse_args(argv)
    con = Console()
    rows = load(args.data)
    if args.ids:
        wanted = set(args.ids.split(","))
        rows = [r for r in rows if r["id"] in wanted]
    if args.seed:
        rows = sorted(rows, key=lambda r: hashlib.sha256(f"{args.seed}:{r['id']}".encode()).hexdigest())
    rows = rows[: args.limit]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if args.rescore:
        return rescore(con, out, paths, rows)
    makers, close = build(paths, args.exact)
    lines = []
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=con) as progress:
            for name in paths:
                ex = makers[name]()
                memo = getattr(ex, "llm", None) or getattr(ex, "model", None)
                if isinstance(memo, Memo) and memo.done:  # replaying a path cut by its budget: its rows only
                    rows = [r for r in rows if r["id"] in memo.done]
                deadline = time.perf_counter() + 60 * args.minutes if args.minutes else float("inf")
                preds, times, notes = run_path(name, ex, rows, progress, memo if isinstance(memo, Memo) else None,
                                               deadline=deadline, sink=out / f"{name}.jsonl")
                done = {p["id"] for p in preds}
                s = score(preds, [r for r in rows if r["id"] in done])
                (out / f"{name}.score.json").write_text(json.dumps(s | {"times": times, "notes": notes}, indent=1,
                                                                   default=str))
                lines.append(report(name, s, times))
                progress.console.print(lines[-1])
    finally:
        close()
    con.print(f"\n{len(rows)} utterances, {machine()}\n"
              "| path | utterances | P | R | F1 | TP / FP / FN | must_not hits | time per utterance (median / mean) |\n"
              "|---|---|---|---|---|---|---|---|\n" + "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
