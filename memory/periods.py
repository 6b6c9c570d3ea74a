"""Periods of time a question names ("What did I do last weekend?", "… in March?"), and whether some words
were about one (pure: time is an argument). Episode search ranks the words about the period asked up."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from memory.extraction.dates import TimeRef, resolve, shift_months, tense, words_of

Period = tuple[datetime, datetime]  # [start, end)
_SENTENCE = re.compile(r"[^.!?…]+[.!?…]*")


def period_of(ref: TimeRef) -> Period:
    """The stretch of time a resolved expression covers: a day, a weekend, a week, a month, a season, a year."""
    w = ref.when
    if ref.grain == "day":
        return w, w + timedelta(days=1)
    if ref.grain == "weekend" or (ref.grain == "week" and "weekend" in ref.text.lower()):
        saturday = w if ref.grain == "weekend" else w + timedelta(days=(5 - w.weekday()) % 7)
        return saturday, saturday + timedelta(days=2)
    if ref.grain == "week":
        return w, w + timedelta(days=7)
    if ref.grain == "month":
        first = w.replace(day=1)
        return first, shift_months(first, 1)
    if ref.grain == "season":
        return w, shift_months(w, 3)
    first = w.replace(month=1, day=1)
    return first, first.replace(year=first.year + 1)


def _named_time(text: str, at: datetime) -> TimeRef | None:
    """The first time ``text`` names, read in its sentence's tense; a duration ("for three years") is none."""
    for sentence in _SENTENCE.findall(text) or [text]:
        ref = resolve(sentence, at, direction=tense(words_of(sentence)))
        if ref is not None:
            return None if ref.text.lower().startswith("for ") else ref
    return None


def asked_period(question: str, now: datetime) -> Period | None:
    """The period a question names ("last weekend", "in March", "on 3 May 2023"), read as past unless the
    question is about what is to come; None when it names none."""
    ref = resolve(question, now, direction=tense(words_of(question)) or "past")
    if ref is None or ref.text.lower().startswith("for "):
        return None
    return period_of(ref)


def within(text: str, at: datetime, period: Period) -> bool:
    """Words said at ``at`` are about ``period``: the first time they name falls in it ("Spent Saturday
    bouldering", said on Monday), or, naming none, they were said in it."""
    ref = _named_time(text, at)
    if ref is None:
        return period[0] <= at < period[1]
    start, end = period_of(ref)
    return start < period[1] and period[0] < end
