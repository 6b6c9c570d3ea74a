"""What learning a statement mid-conversation costs the next question: a statement that touches older facts is
told, learned beside the answer (as the voice loop and `assistant chat` learn it), and a question is asked at once.

    GLIBC_TUNABLES=glibc.rtld.optional_static_tls=65536 .venv/bin/python benchmarks/told_then_asked.py

Two passes, each on a fresh 7-fact memory (benchmarks/voice_latency.py's): the statement learned with the model's
check of older facts (as before stop 44), and without it (`Learner.learn(check=False)`, as shipped: the check runs
when the conversation ends). The model server has one slot, so a check asked while the question waits is answered
first, and its prompt takes the slot's cache. Figures: the question's first token after recall, and the time the
statement's learning took, in ms; then how many facts the learning changed mid-conversation and at its end.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine, pct  # noqa: E402
from benchmarks.voice_latency import FACTS  # noqa: E402

# (a statement that says a change touching an older fact, the question asked right after it)
PAIRS = [  # said in words the rules do not read, so only the model's check can end the fact
    ("Honestly, dark chocolate does nothing for me now.", "Where does my sister live?"),
    ("The Volvo is my wife's now, I cycle everywhere.", "What does Anna teach?"),
    ("Meridian Health is all behind me now, new chapter.", "Where does Tomas work?"),
    ("Biscuit stays with my parents now, we couldn't cope.", "What does Priya play?"),
    ("Chocolate of any kind is history for me now.", "Where does Noor live?"),
    ("The Volvo went to my nephew in the end.", "Who is my cousin?"),
]


def _timed(work: Callable[[], Any], took: list[float], changed: list[int]) -> None:
    t0 = time.perf_counter()
    changed.append(len(work().changes))
    took.append((time.perf_counter() - t0) * 1000)


def run(check: bool, models: Path) -> tuple[list[float], list[float], int, int]:
    from assistant.compose import Hearth
    from assistant.settings import Settings
    from memory.transcripts import Turn

    tmp = Path(tempfile.mkdtemp(prefix="hearth-told-bench-"))
    app = Hearth(Settings.model_validate({}), tmp / "data")
    app.models_dir_override = models
    now = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
    app.clock = lambda: now
    app.learner(use_llm=False).ingest([Turn("setup", now - timedelta(days=30), "user", f, idx=i)
                                       for i, f in enumerate(FACTS)], source="bench")
    app.pipeline.warm_up()
    firsts: list[float] = []
    learning: list[float] = []
    changed: list[int] = []
    cid = f"told-{check}"
    for i, (told, asked) in enumerate(PAIRS):
        at = now + timedelta(minutes=2 * i)
        app.transcripts.add_turns([Turn(cid, at, "user", told, idx=2 * i)], source="bench")
        took: list[float] = []
        th = threading.Thread(target=_timed, args=(lambda: app.learner().learn(cid, check=check), took, changed))
        th.start()
        pieces, ans = app.pipeline.stream(asked, now=at + timedelta(seconds=5))
        "".join(pieces)
        th.join()
        firsts.append(ans.timings_ms["llm_first_token"] - ans.timings_ms.get("recall", 0.0))
        learning.append(took[0])
        app.transcripts.add_turns([Turn(cid, at + timedelta(seconds=6), "assistant", "ok", idx=2 * i + 1)],
                                  source="bench")
    end = app.learner().learn(cid)  # the conversation's end: the check, if not done yet
    app.close()
    return firsts, learning, sum(changed), len(end.changes)


def main() -> int:
    models = Path(os.environ.get("HEARTH_MODELS_DIR", str(Path.home() / ".local/share/hearth/models")))
    rows = []
    for check, label in ((True, "with the check (before)"), (False, "without it, checked at the end (shipped)")):
        firsts, learning, mid, at_end = run(check, models)
        rows.append((label, statistics.median(firsts), pct(firsts, 0.95), statistics.median(learning), mid, at_end))
    print(f"Told, then asked — {machine()}, {datetime.now(UTC).date()}, bundled Qwen2.5-Coder-1.5B Q4_K_M, "
          f"{len(PAIRS)} statements each followed at once by a question, 7-fact memory")
    print("| statement learned mid-conversation | next question's first token p50 | p95 | statement's learning p50 "
          "| changes mid-conversation | at its end |")
    print("|---|---|---|---|---|---|")
    for label, p50, p95, lp50, mid, at_end in rows:
        print(f"| {label} | {p50:.0f} ms | {p95:.0f} ms | {lp50:.0f} ms | {mid} | {at_end} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
