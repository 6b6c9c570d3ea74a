"""Conversions between aware datetimes (the API) and epoch seconds (what the store keeps), and sane bounds.

Every time a person or a model writes passes ``parse_time``, which refuses years outside 1900–2199 (a
year-1 time with an offset cannot even be shown back in UTC). Whether a time may lie in the future is
the caller's decision: ``not_after`` checks it against a ``now`` the caller passes in.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from memory.errors import InvalidInput

DAY = 86400.0
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)  # exclusive
CLOCK_SKEW = timedelta(minutes=5)  # how far ahead of our clock another machine's timestamps may be
_HINT = "use ISO-8601, e.g. 2026-03-10 or 2026-03-10T08:30:00Z"


def to_epoch(t: datetime) -> float:
    if t.tzinfo is None:
        t = t.replace(tzinfo=UTC)
    return t.timestamp()


_MIN_EPOCH = datetime(1, 1, 2, tzinfo=UTC).timestamp()  # a day inside the range, so float rounding stays in
_MAX_EPOCH = datetime(9999, 12, 30, tzinfo=UTC).timestamp()


def from_epoch(s: float | None) -> datetime | None:
    """A stored time; one outside what a datetime can hold (written before times were checked) is clamped,
    so listing and exporting old data never crash on it."""
    if s is None:
        return None
    x = float(s)
    x = _MIN_EPOCH if x != x else min(max(x, _MIN_EPOCH), _MAX_EPOCH)  # NaN too
    return datetime.fromtimestamp(x, tz=UTC)


def in_range(t: datetime) -> bool:
    return EARLIEST <= t < LATEST


def parse_time(text: str) -> datetime:
    """Parse ISO-8601 (a trailing Z, a bare date); naive times are UTC. Raises InvalidInput, also for years
    outside 1900–2199."""
    raw = text.strip()
    try:
        t = datetime.fromisoformat(raw.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise InvalidInput(f"cannot read {text!r} as a time", hint=_HINT) from None
    t = t if t.tzinfo else t.replace(tzinfo=UTC)
    if t >= LATEST:
        raise InvalidInput(f"{text!r} is too far in the future (after {LATEST.year - 1})", hint=_HINT)
    if t < EARLIEST:
        raise InvalidInput(f"{text!r} is before {EARLIEST.year}", hint=_HINT)
    return t


def not_after(t: datetime, now: datetime, *, skew: timedelta = CLOCK_SKEW, what: str = "the time") -> datetime:
    """``t`` unless it is later than ``now`` + ``skew``: then InvalidInput (a future time would be believed)."""
    if t > now + skew:
        raise InvalidInput(f"{what} {iso(t)} is in the future (now is {iso(now)})",
                           hint="times are when something was said or became true: now or in the past")
    return t


def iso(t: datetime | float | None) -> str | None:
    if t is None:
        return None
    if isinstance(t, (int, float)):
        t = from_epoch(t)
        assert t is not None
    return t.astimezone(UTC).isoformat().replace("+00:00", "Z")


_GRAIN = re.compile(r"(\d{4})(?:-(\d\d)(?:-(\d\d))?|-W(\d\d))?")


def grain_span(text: str | None) -> tuple[datetime, datetime] | None:
    """An ISO date at its grain ("2026", "2026-06", "2026-W21", "2026-06-14") as the time it covers, [start, end)
    in UTC; None for anything else (a plan's time as extraction writes it: memory/extraction/candidates.py)."""
    m = _GRAIN.fullmatch((text or "").strip())
    if m is None:
        return None
    year = int(m.group(1))
    try:
        if m.group(4):
            start = datetime.fromisocalendar(year, int(m.group(4)), 1).replace(tzinfo=UTC)
            end = start + timedelta(days=7)
        elif m.group(3):
            start = datetime(year, int(m.group(2)), int(m.group(3)), tzinfo=UTC)
            end = start + timedelta(days=1)
        elif m.group(2):
            start = datetime(year, int(m.group(2)), 1, tzinfo=UTC)
            end = datetime(year + (start.month == 12), start.month % 12 + 1, 1, tzinfo=UTC)
        else:
            start, end = datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)
    except ValueError:  # month 13, 30 February, week 60
        return None
    return (start, end) if in_range(start) and end <= LATEST else None


def spoken_grain(text: str) -> str:
    """A time at its grain as it is said: "2026", "June 2026", "the week of 18 May 2026", "14 June 2026"."""
    span = grain_span(text)
    if span is None:
        return text
    start, _ = span
    if "W" in text:
        return f"the week of {start.day} {start:%B} {start.year}"
    parts = text.strip().count("-")
    if parts == 0:
        return str(start.year)
    if parts == 1:
        return f"{start:%B} {start.year}"
    return f"{start.day} {start:%B} {start.year}"
