"""Running a consolidation with the app's settings, and the last one's summary (when, and how much it did) in
the data dir for `/health` and `assistant doctor`. Full reports, names and all, live in the graph
(memory/reports.py), where forgetting a name scrubs them."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory.timeutil import iso

if TYPE_CHECKING:
    from assistant.compose import Hearth
    from memory.graph import Progress

LAST_CONSOLIDATION = "last-consolidation.json"


def run_consolidation(app: Hearth, *, progress: Progress | None = None) -> dict[str, Any]:
    """Consolidate now with the configured thresholds; record the summary; return the full report."""
    c = app.settings.memory.consolidation
    now = app.now()
    report = app.graph.consolidate(now=now, threshold=c.prune_threshold, min_confidence=c.min_confidence,
                                   progress=progress)
    record_consolidation(app.data_dir, now, report.summary())
    return {"id": report.id, "at": iso(now), **report.to_json()}


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
