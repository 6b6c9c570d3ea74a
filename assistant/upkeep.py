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
