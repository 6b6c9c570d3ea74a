"""Running a consolidation with the app's settings, and the last one's summary (when, and how much it did) in
the data dir for `/health` and `assistant doctor`. Full reports, names and all, live in the graph
(memory/reports.py), where forgetting a name scrubs them."""

from __future__ import annotations

import json
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory.timeutil import iso

if TYPE_CHECKING:
    from assistant.compose import Hearth
    from memory.graph import Progress, Relearning
    from memory.model import Change

LAST_CONSOLIDATION = "last-consolidation.json"


def run_consolidation(app: Hearth, *, progress: Progress | None = None) -> dict[str, Any]:
    """Consolidate now with the configured thresholds; record the summary; return the full report."""
    c = app.settings.memory.consolidation
    now = app.now()
    relearned = relearn(app, now=now, progress=progress)
    report = app.graph.consolidate(now=now, threshold=c.prune_threshold, min_confidence=c.min_confidence,
                                   prune_budget_s=c.prune_budget_s, progress=progress, relearned=relearned,
                                   summaries=c.summaries)
    record_consolidation(app.data_dir, now, report.summary())
    return {"id": report.id, "at": iso(now), **report.to_json()}


def relearn(app: Hearth, *, now: datetime, progress: Progress | None = None) -> Relearning:
    """Re-learn the conversations that ended in the last `relearn_hours` with the thorough model path, through
    the normal belief update (memory/learning.py: Learner.relearn). Stops at the first sign that the model
    is unavailable: the night's other work does not wait on it."""
    from memory.graph import Relearning

    hours = app.settings.memory.consolidation.relearn_hours
    extractor = app.relearning_extractor() if hours > 0 else None
    if extractor is None:
        return Relearning("off: relearn_hours is 0" if hours <= 0 else
                          "skipped: learning uses the rules only (extraction.use_llm is false)")
    t0 = time.perf_counter()
    learner = app.learner()
    todo = app.transcripts.ended_since(now - timedelta(hours=hours))
    changes: list[Change] = []
    done = 0
    for i, cid in enumerate(todo):
        if progress is not None:
            progress("re-learn the day's conversations", i, len(todo))
        result = learner.relearn(cid, extractor, now=now)
        failed = [n for n in result.notes if "LLM extraction failed" in n]
        if failed:
            return Relearning(f"stopped after {done} of {len(todo)} conversations: {failed[0]}", tuple(changes),
                              time.perf_counter() - t0)
        done += not result.skipped
        changes += [c for c, _, _ in result.changes]
    if progress is not None:
        progress("re-learn the day's conversations", len(todo), len(todo))
    added = sum(c.kind == "added" for c in changes)
    return Relearning(f"re-learned {done} conversation(s) from the last {hours:g} h: {added} fact(s) added, "
                      f"{sum(c.kind == 'reinforced' for c in changes)} reinforced", tuple(changes),
                      time.perf_counter() - t0)


def record_consolidation(data_dir: Path, at: datetime, summary: dict[str, Any]) -> None:
    path = data_dir / LAST_CONSOLIDATION
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"at": iso(at), **summary}) + "\n")
    tmp.replace(path)


def last_consolidation(data_dir: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((data_dir / LAST_CONSOLIDATION).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def nightly(app: Hearth) -> Any:
    """Nightly consolidation inside the service: `schedule` decides when (checked from the voice loop's ticks,
    or by `tick_in_thread` under `assistant serve`); the work runs on a thread of its own so the loop keeps
    listening and requests keep being served; one at a time, a failure is logged."""
    import logging
    import threading

    import schedule

    c = app.settings.memory.consolidation
    lock = threading.Lock()

    def work() -> None:
        if not lock.acquire(blocking=False):
            return  # the previous night's run is still going
        try:
            run_consolidation(app)  # the report is kept for the page and `consolidate --report`
        except Exception as e:  # the loop must not die of a bad night
            logging.getLogger(__name__).warning("nightly consolidation failed: %s", e)
        finally:
            lock.release()

    def job() -> None:
        threading.Thread(target=work, name="consolidate", daemon=True).start()

    sched = schedule.Scheduler()
    sched.every().day.at(c.at).do(job)
    return sched


def tick_in_thread(scheduler: Any, stop: Any, *, every_s: float = 30.0) -> Any:
    """Run ``scheduler.run_pending`` every ``every_s`` seconds on a daemon thread until ``stop`` (an Event) is set."""
    import threading

    def tick() -> None:
        while not stop.wait(every_s):
            scheduler.run_pending()

    t = threading.Thread(target=tick, name="nightly-schedule", daemon=True)
    t.start()
    return t
