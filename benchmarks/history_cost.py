"""What the conversation so far costs the model's first token: questions asked one after another in one
conversation, as the voice loop and `assistant chat` ask them (the last four messages kept).

    GLIBC_TUNABLES=glibc.rtld.optional_static_tls=65536 .venv/bin/python benchmarks/history_cost.py

Three passes over the same questions on the 7-fact memory of benchmarks/voice_latency.py: the earlier messages
never sent, always sent, and sent as shipped (only with words that point back to them, `answer.points_back`).
The first question of each pass is left out (it has no history, and the server's cache holds it after the first
pass). Figures: the model's first token after recall, median and p95, in ms.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine, pct  # noqa: E402
from benchmarks.voice_latency import FACTS, QUESTIONS  # noqa: E402


def main() -> int:
    import assistant.answer as answer
    import assistant.pipeline as pipeline
    from assistant.compose import Hearth
    from assistant.settings import Settings
    from memory.transcripts import Turn

    tmp = Path(tempfile.mkdtemp(prefix="hearth-history-bench-"))
    app = Hearth(Settings.model_validate({}), tmp / "data")
    app.models_dir_override = Path(os.environ.get("HEARTH_MODELS_DIR", str(Path.home() / ".local/share/hearth/models")))
    now = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
    app.clock = lambda: now
    app.learner(use_llm=False).ingest([Turn("setup", now, "user", f, idx=i) for i, f in enumerate(FACTS)],
                                      source="bench")
    app.pipeline.warm_up()
    shipped = answer.points_back
    rows = []
    for mode, leans in (("never sent", lambda q: False), ("always sent", lambda q: True), ("shipped", shipped)):
        answer.points_back = leans  # what messages() consults
        history: list[Any] = []
        firsts: list[float] = []
        sent = 0
        for i, q in enumerate(QUESTIONS):
            pieces, ans = app.pipeline.stream(q, now=now, history=list(history))
            text = "".join(pieces)
            if i and "llm_first_token" in ans.timings_ms:
                firsts.append(ans.timings_ms["llm_first_token"] - ans.timings_ms.get("recall", 0.0))
                sent += bool(history) and leans(q)
            history += [{"role": "user", "content": q}, {"role": "assistant", "content": text}]
            del history[:-4]  # the last four messages, as the loop keeps them
        rows.append((mode, statistics.median(firsts), pct(firsts, 0.95), len(firsts), sent))
    answer.points_back = shipped
    app.close()
    assert pipeline.messages is answer.messages
    print(f"History cost — {machine()}, {datetime.now(UTC).date()}, bundled Qwen2.5-Coder-1.5B Q4_K_M, "
          f"{len(QUESTIONS)} questions in one conversation, 7-fact memory")
    print("| earlier messages | first token p50 | p95 | questions | sent with history |")
    print("|---|---|---|---|---|")
    for mode, p50, p95, n, sent in rows:
        print(f"| {mode} | {p50:.0f} ms | {p95:.0f} ms | {n} | {sent} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
