"""Conversions between aware datetimes (the API) and epoch seconds (what the store keeps)."""

from __future__ import annotations

from datetime import UTC, datetime

from memory.errors import InvalidInput

DAY = 86400.0


def to_epoch(t: datetime) -> float:
    if t.tzinfo is None:
        t = t.replace(tzinfo=UTC)
    return t.timestamp()


def from_epoch(s: float | None) -> datetime | None:
    return None if s is None else datetime.fromtimestamp(float(s), tz=UTC)


def parse_time(text: str) -> datetime:
    """Parse ISO-8601 (a trailing Z, a bare date); naive times are UTC. Raises InvalidInput."""
    raw = text.strip()
    try:
        t = datetime.fromisoformat(raw.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise InvalidInput(
            f"cannot read {text!r} as a time", hint="use ISO-8601, e.g. 2026-03-10 or 2026-03-10T08:30:00Z"
        ) from None
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def iso(t: datetime | float | None) -> str | None:
    if t is None:
        return None
    if isinstance(t, (int, float)):
        t = datetime.fromtimestamp(float(t), tz=UTC)
    return t.astimezone(UTC).isoformat().replace("+00:00", "Z")
