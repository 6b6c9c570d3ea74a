"""The last consolidation (when, and what it did), kept in the data dir for `/health` and `assistant doctor`."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from memory.timeutil import iso

LAST_CONSOLIDATION = "last-consolidation.json"


def record_consolidation(data_dir: Path, at: datetime, report: dict[str, Any]) -> None:
    path = data_dir / LAST_CONSOLIDATION
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"at": iso(at), **report}) + "\n")
    tmp.replace(path)


def last_consolidation(data_dir: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((data_dir / LAST_CONSOLIDATION).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
