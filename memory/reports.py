"""Consolidation reports, kept in the graph: forgetting a name scrubs them as it scrubs everything else."""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memory import queries as Q
from memory.names import new_id
from memory.timeutil import iso, to_epoch

if TYPE_CHECKING:
    from memory.graph import TemporalGraph

KEEP = 60  # two months of nights


def save_report(graph: TemporalGraph, report: dict[str, Any], *, now: datetime) -> str:
    """Store one report (JSON text, names as written so redaction finds them); keep the newest ``KEEP``."""
    rid = new_id("r")
    text = json.dumps({"id": rid, "at": iso(now), **report}, ensure_ascii=False)
    with graph.store.transaction() as tx:
        t = int(tx.run(Q.NEXT_T_INDEX)[0]["t"])
        tx.run(Q.CREATE_REPORT, {"id": rid, "at": to_epoch(now), "t": t, "report": text})
        tx.run(Q.PRUNE_REPORTS, {"keep": KEEP})
    return rid


def reports(graph: TemporalGraph, *, limit: int = 20) -> list[dict[str, Any]]:
    """Newest first."""
    out = []
    for r in graph.store.read(Q.REPORTS_RECENT, {"limit": limit}):
        try:
            data = json.loads(r["report"])
        except (TypeError, ValueError):
            continue
        if isinstance(data, dict):
            out.append(data)
    return out
