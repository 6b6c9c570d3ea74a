"""Periods of time a question names ("What did I do last weekend?", "… in March?"), and whether some words
were about one (pure: time is an argument). Episode search ranks the words about the period asked up."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from memory.extraction.dates import (
    COUNT,
    DAY_NAME_WORDS,
    LENGTH_WORDS,
    MONTHS,
    NUMBER_SAID,
    NUMBERS,
    ORDINALS,
    SEASONS,
    WEEKDAYS,
    Tense,
    TimeRef,
    month_day,
    number,
    past_word,
    resolve,
    saturday,
    shift_months,
    tense,
    words_of,
)
from memory.search import SENTENCE_END, terms
from memory.words import (
    DENYING,
    MOMENT_VERBS,
    PAST_FORMS,
    POSSESSIVES,
    REPAIR_LEAD,
    REPAIR_WORDS,
    SELF_REPAIR,
    TIME_MOVED,
    alternation,
)

Period = tuple[datetime, datetime]  # [start, end)
# a word without which no time is named: most words said name none, and are read in a regex instead of a parse
_TIME_WORD = re.compile(r"\d|\b(" + "|".join(sorted({*MONTHS, *WEEKDAYS, *SEASONS, *ORDINALS, *DAY_NAME_WORDS, *"""
yesterday today tonight tomorrow morning afternoon evening last next this ago weekend week weeks month months year
years day days fortnight fortnights weekends time""".split()}, key=len, reverse=True)) + r")\b", re.I)


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


def names_a_time(text: str) -> bool:
    """A word without which no time is named (a day, a month, "last", "ago", a number…): a quick test before
    any date parsing. Loose: "this" and "may" pass it."""
    return bool(_TIME_WORD.search(text))


def time_terms(question: str) -> set[str]:
    """The index terms (memory.search.terms) of the question's words that name a time: what a search by words
    leaves out when the period is searched by date. Read on the words, not on their stems ("February" is
    "februar" once stemmed, "spring" "spr")."""
    return set(terms(" ".join(w for w in question.split() if names_a_time(w))))


# words that say when something happened, read or not: a weekday, a month by its full name ("May" aside, a
# verb too), a season, "ago", a weekend, a day or a week said from today ("yesterday", "last week")
_WHEN_WORD = re.compile(r"\b(" + "|".join(sorted({*WEEKDAYS, *(m for m in MONTHS if len(m) > 3 and m != "sept"),
                                                  *SEASONS, *DAY_NAME_WORDS, "ago", "weekend", "yesterday",
                                                  "tomorrow", "tonight"})) + r")\b"
                        r"|(?<!\bthe\s)\b(?:last|next)\s+(?:week|month|year|night)\b", re.I)


_DAYS = "|".join(sorted((d for d in WEEKDAYS if len(d) > 3), key=len, reverse=True))  # full names, no "sat"
_PART = r"(?:\s+(?:morning|afternoon|evening|night|lunchtime)s?)?"
# "Thursdays", "Thursday evenings", "Tuesday mornings": a day said as many, by itself or by a part of it
_DAYS_PLURAL = rf"(?:(?:{_DAYS})s{_PART}|(?:{_DAYS})\s+(?:morning|afternoon|evening|night|lunchtime)s)"
_RECURRING = re.compile(
    rf"\b(?:(?:every|each)\s+(?:other\s+|single\s+)?(?:(?:{_DAYS}|day|morning|afternoon|evening|night|"
    rf"weekday|weekend|week|fortnight|month|year|summer|winter|spring|autumn){_PART})"
    # "on Saturdays", "Wednesdays", "Tuesday nights", "Tuesday and Thursday nights", "Mondays, Wednesdays and Fridays"
    rf"|(?:on\s+)?(?:(?:{_DAYS})s?(?:\s*,\s*|\s+and\s+))*{_DAYS_PLURAL}(?:\s+and\s+{_DAYS_PLURAL})?"
    rf"|(?:once|twice|three times|four times|\d+ times)\s+(?:a|per|every)\s+(?:day|week|fortnight|month|year)"
    rf"|(?:daily|weekly|fortnightly|monthly|yearly|annually))\b", re.I)


def recurrence(text: str) -> str | None:
    """How often something said is done, as said ("every Tuesday evening", "on Saturdays", "twice a month"),
    or None when the words name no repeating time."""
    m = _RECURRING.search(text)
    return None if m is None else m.group(0)


def says_when(text: str) -> bool:
    """The words name a day, a month, a season or a time ago ("on Friday", "in June", "a while ago"), whether
    or not it could be resolved."""
    return bool(_WHEN_WORD.search(text))


def named_time(text: str, at: datetime, *, tense_else: Tense = None, topic: frozenset[str] | set[str] = frozenset(),
               ahead: bool = False) -> tuple[str, TimeRef] | None:
    """The first sentence of ``text`` said at ``at`` that names a time, and the time, read in the sentence's own
    tense ("on Friday": the one before, or after), or in ``tense_else`` when its words do not tell ("I finally
    pass my test on Friday", as heard, asked "When did I pass…?"). A duration ("for three years") is none.
    Of several that name one, a later one that moves the time ("…it's been moved to Thursday the 3rd") is read,
    else the first that shares most words with ``topic`` ("The boiler died on Wednesday… The engineer can't come
    till Thursday", asked when the engineer comes); asked of what is to come (``ahead``), of those ahead of ``at``
    if any are."""
    if not names_a_time(text):
        return None
    # a question's time, of nothing asked about, is no time of what was told ("Gordon's retiring at Christmas.
    # Anyway, is it going to rain tomorrow?")
    read = [(i, s, found) for i, s in enumerate(SENTENCE_END.split(text)) if (found := _named_in(s, at, tense_else))
            and not (topic and s.rstrip().endswith("?") and not topic & set(terms(s)))]
    if not read or lasting(read[0][2][1]):
        return None
    read = [r for r in read if not lasting(r[2][1])]
    month = ""  # a day of the month said alone is of the month a sentence before named ("…Umrah in December.
    for k, (i, s, found) in enumerate(read):  # Flying to Jeddah on the 9th")
        if (put := in_month_said(s, found[1], month)) is not None and (
                again := _named_in(put, at, tense_else)) is not None:
            read[k] = (i, s, (s, again[1]))
        month = month_named(found[1], month)
    if ahead:  # asked of what is to come: a time ahead, not when it was arranged ("They rang this morning. It's on
        read = [r for r in read if r[2][1].when.date() > at.date()] or read  # the 6th.")
    moved = [r for r in read[1:] if _moved_to(r[1], r[2][1])]
    moment = topic & MOMENT_TERMS  # the moment asked ("start"), said, weighs over the words naming the thing
    best = moved[-1] if moved else max(read, key=lambda r: (
        len(topic & set(terms(r[1]))) + 2 * len(moment & set(terms(r[1]))), -r[0]))
    return best[2]


def lasting(ref: TimeRef) -> bool:
    """The time said is how long something lasted ("for three years"), not when ("booked for the twelfth")."""
    return ref.text.lower().startswith("for ") and _LENGTH.search(ref.text) is not None


_LENGTH = re.compile(rf"\b{LENGTH_WORDS}\b", re.I)
_MOVED = re.compile(TIME_MOVED, re.I)
MOMENT_TERMS = frozenset(terms(" ".join(MOMENT_VERBS), stop=frozenset()))  # "start", "finish"…, as terms


def _moved_to(sentence: str, ref: TimeRef) -> bool:
    """The sentence moves something to the time it names ("it's been moved to Thursday the 3rd"; not "we moved to
    Leeds in 2019")."""
    return any(sentence[m.end() :].lstrip().lower().startswith(ref.text.lower()) for m in _MOVED.finditer(sentence))


def _named_in(sentence: str, at: datetime, tense_else: Tense) -> tuple[str, TimeRef] | None:
    """The time one sentence names, read in its own tense or the tense of the clause it is in."""
    said = tense(words_of(sentence))
    ref = resolve(sentence, at, direction=said or tense_else)
    clauses = _CLAUSE_CUT.split(sentence)
    md = month_day(sentence) if said is None and tense_else is not None and ref is not None else None
    if md is not None and ref is not None and md[2] in ref.text:
        own_clause = next((c for c in clauses if md[2] in c), sentence)
        if not past_word(own_clause):
            # a date whose own words (its clause's) give no tense is the nearer of its years, whatever the
            # question's ("When was the roofer starting?" of "he can't start till the ninth of February", said in
            # late January)
            ref = resolve(own_clause, at) or ref
    if ref is None and said is None:  # of two tenses, the clause's own: "He starts in three weeks and he's already
        ref = next((r for c in clauses  # bought the fleece"
                    if (own := tense(words_of(c))) is not None and (r := resolve(c, at, direction=own)) is not None),
                   None)
    if ref is None:
        return None
    # the tense of the clause the time is in, when it tells: "We've had an offer accepted, completion should
    # be in January" (said in October: the January after)
    clause = next((c for c in clauses if ref.text.lower() in c.lower()), "")
    apart = bool(clause) and clause != sentence
    own = tense(words_of(clause)) if apart else None
    opens = _OPENS_IN_BE.match(clause or sentence)
    if own is None and ref.grain in ("day", "weekend") and opens is not None and (apart or said is None) and (
            not _done_before(opens.string[opens.end() :], ref.text)):
        # "It's Peggy's hundredth on Saturday, she got a card from the King", "My hip operation is on the 14th
        # of January" (said in November): the day to come
        own = "future"
    if own is not None and own != said:
        ref = resolve(clause, at, direction=own) or ref
    # a time denied, then another said ("She's not coming on the 3rd now, it's Saturday the 5th"), or mended in the
    # same breath ("Thursday the fifth — no, hang on, Friday the sixth"): the other
    cut = sentence.lower().find(ref.text.lower())
    tail = _SAME_TIME.match(sentence, cut + len(ref.text)) if cut >= 0 else None  # "on Thursday| the fifth"
    mended = SELF_REPAIR.match(sentence[tail.end() :]) if tail is not None else None
    rest = sentence[tail.end() + mended.end() :] if tail is not None and mended is not None else ""
    rest = _MEND_LEAD.sub("", rest, count=1)  # "— no wait, it's the twenty-first": a day of the month said alone
    if (day := _BARE_DAY.match(rest)) is not None:  # "on the 8th of September — no, sorry, the 9th": of September
        month = _MONTH_SAID.search(ref.text)
        rest = f"on {day.group(0)}{f' of {month.group(0)}' if month else ''}{rest[day.end():]}"
    same: Tense = "future" if ref.when > at else "past"  # a time mended points the way the first one did
    if rest and mended is not None and mended.group(0).strip(" ,—–-.…") and (
            other := resolve(rest, at, direction=said or same)) is not None and (
            0 <= rest.lower().find(other.text.lower()) < 12):  # the mend says the time at once
        ref = other
    elif apart and cut >= 0 and DENYING.search(sentence[:cut].split(",")[-1]):
        rest = sentence[cut + len(ref.text) :]
        if (other := resolve(rest, at, direction=said or tense_else)) is not None:
            ref = other
    return sentence, ref


# words of a time said on a clock or a calendar ("half four", "Friday the sixth"), for a time mended
_SAID_TIME_WORDS = frozenset({"half", "quarter", "noon", "midnight", "o'clock", "o’clock", "am", "pm", "tomorrow",
                              "tonight", "morning", "evening", "afternoon", *(w.lower() for w in (*MONTHS, *WEEKDAYS)),
                              *ORDINALS, *NUMBERS})
_MEND = re.compile(r"\b(?P<prep>at|on|for|by|from|until|till)\s+"
                   r"(?P<x>(?:(?!(?:at|on|for|by|from|until|till)\s)(?:[\w'’:-]|\.(?=\w))+\s+){0,3}?[\w'’:.-]+?)\s*"
                   rf"(?P<mark>(?:[—–-]+|,)\s*{REPAIR_WORDS}(?:{REPAIR_LEAD})?)(?P<y>(?:[\w'’:.]+(?:-\w+)?\s*){{1,3}})",
                   re.I)
_MEND_LEAD = re.compile(rf"^{REPAIR_LEAD}", re.I)
_BARE_DAY = re.compile(rf"the\s+(?:\d{{1,2}}(?:st|nd|rd|th)|{alternation(ORDINALS)})\b", re.I)


_MONTH_SAID = re.compile(rf"\b(?:{alternation(m for m in MONTHS if len(m) > 4 or m in ('june', 'july'))}|(?-i:May))\b",
                         re.I)
_TIME_LEADS = frozenset({"the", "this", "next", "at", "on", "about", "around"})
_DAY_ALONE = re.compile(rf"^(?:(?:on|for|to|until|till)\s+)?{_BARE_DAY.pattern}$", re.I)  # "on the 9th", "the twelfth"


def month_named(ref: TimeRef, month: str) -> str:
    """The month a time names ("in December", "on the 3rd of October"), else ``month`` (the one named before)."""
    named = _MONTH_SAID.search(ref.text) if ref.grain in ("day", "month") else None
    return named.group(0) if named is not None else month


def in_month_said(sentence: str, ref: TimeRef, month: str) -> str | None:
    """The sentence with its day of the month said alone ("on the 9th") put in the month a sentence before named
    ("…on Umrah in December. Flying to Jeddah on the 9th": "on the 9th of December", not the coming 9th). None when
    no month was named, the time is no day alone, or read alone it falls in that month or the month before (the
    29th said after "the 3rd of October", in mid-September: the flight out before the funeral, September's)."""
    if not month or _DAY_ALONE.match(ref.text.strip(" .,!?")) is None:
        return None
    named = MONTHS[month.lower()]
    if ref.when.month in (named, (named - 2) % 12 + 1):
        return None
    return sentence.replace(ref.text, f"{ref.text} of {month}", 1)


def _opens_a_time(words: str) -> bool:
    """The words open with a time ("half ten", "the 9th", "next Friday"), not a thing ("sleep the first night")."""
    first = re.findall(r"[\w'’:.]+", words)[:3]
    while first and first[0].lower() in _TIME_LEADS:
        first = first[1:]
    return bool(first) and _timely(first[0])


def _timely(words: str) -> bool:
    return any(w.lower() in _SAID_TIME_WORDS or w[:1].isdigit() for w in re.findall(r"[\w'’:]+", words))


def mended(text: str) -> str:
    """The words with a time the speaker mended in the same breath said as mended: "booked for Saturday at half
    four — no, quarter past four" -> "booked for Saturday at quarter past four" (the small model read the first); and
    a clause taken back with a dash for another said whole: "Black bin's Thursday now — no, hang on, Thursday's the
    recycling one, the black bin's Friday" -> "Thursday's the recycling one, the black bin's Friday"."""
    def put(m: re.Match[str]) -> str:
        x, y = m.group("x"), m.group("y")
        if not (_timely(x) and _opens_a_time(y)):  # "Three days, no sleep the first night": no mend
            return m.group(0)
        # "on the 8th of September — no, sorry, the 9th": the day mended in the month said
        month = _MONTH_SAID.search(x)
        day = y.rstrip(" ,.!?;")
        if month is not None and _BARE_DAY.fullmatch(day) is not None:
            y = f"{day} of {month.group(0)}{y[len(day):]}"
        return f"{m.group('prep')} {y}"
    text = _NUMBER_MEND.sub(_put_number, _MEND.sub(put, text))
    return _CLAUSE_MEND.sub(lambda m: m.group("y")[:1].upper() + m.group("y")[1:], text)


# a number mended in the same breath, with its unit said once or twice: "Budget is eighteen lakh — sorry, sixteen
# lakh", "I paid seven thousand — no, sorry, seven thousand eight hundred"
_NUMBER_MEND = re.compile(rf"(?P<x>{NUMBER_SAID})(?P<unit>\s+[a-z]+)?\s*(?:[—–-]+|,)\s*{REPAIR_WORDS}"
                          rf"(?P<y>{NUMBER_SAID})(?P<yunit>\s+[a-z]+)?", re.I)


def _put_number(m: re.Match[str]) -> str:
    unit, yunit = (m.group(k) or "" for k in ("unit", "yunit"))
    if unit and yunit and unit.strip().lower().rstrip("s") != yunit.strip().lower().rstrip("s"):
        return m.group(0)  # "three kids, no, two dogs": not one number mended
    return m.group("y") + (yunit or unit)


# a clause from a sentence's start, a dash and the words that take it back, and a clause said whole in its place
# (one opening with "<something>'s", "it's", "we're"…: not a word or a number mended, "seven thousand — no, sorry,
# seven thousand eight hundred", whose clause is kept by the time mend or read as said)
_CLAUSE_MEND = re.compile(r"(?:^|(?<=[.!?]\s))(?P<x>[^.!?—–]{3,120}?)\s*[—–]\s*(?:(?:ah|oh)\s+)?"
                          + REPAIR_WORDS + r"(?P<y>(?:[\w-]+['’]s|(?:it|that|he|she|we|they|I)['’](?:s|re|m|ve|ll))\s)",
                          re.I)


# the rest of one time said ("on Thursday| the fifth", "on Saturday| at half four"), before a mend
_SAME_TIME = re.compile(r"(?:\s+(?:the|at|of|in|half|quarter|past|to|o['’]clock|\d[\d:.]*(?:st|nd|rd|th|am|pm)?|"
                        + alternation(ORDINALS) + "|" + alternation(NUMBERS) + r")\b){0,4}", re.I)


def _done_before(rest: str, time_said: str) -> bool:
    """A past verb between the opening "'s" and the time: the "'s" was whose, not "is" ("My brother's little boy
    arrived on Saturday": the Saturday before)."""
    cut = rest.lower().find(time_said.lower())
    words = re.findall(r"[a-z]+", rest[: cut if cut >= 0 else len(rest)].lower())
    return any(w in PAST_FORMS or (w.endswith("ed") and len(w) > 4) for w in words)


# a clause that opens in the present of "be" ("It's my nan's birthday on Saturday", "The party is on Friday")
_OPENS_IN_BE = re.compile(r"^\s*(?:(?:so|and|but|then|well)\s+)?"
                          rf"(?:it|that|this|(?:the|{alternation(POSSESSIVES)}|[A-Z][\w-]*['’]s)"
                          r"(?:\s+[\w-]+){1,3})?\s*(?:['’]s|is|are|['’]re)\b", re.I)
_SUBJECT_PRONOUNS = frozenset({"i", "we", "he", "she", "they"})
# where a sentence's clauses part, for the tense of the one a time is named in
_CLAUSE_CUT = re.compile(r"\s*[,;:–—]\s*|\s+(?:but|and then|so|because|though|although)\s+|"
                         # what was said, in its own tense ("Gordon rang to say he's retiring at Christmas")
                         r"\s+(?:to\s+say|said|says|saying|reckons|thinks)\s+(?:that\s+)?"
                         rf"(?=[a-z]+['’]|{alternation(_SUBJECT_PRONOUNS | {'it'})}\s)|"
                         rf"\s+and\s+(?=(?:the|{alternation(POSSESSIVES | _SUBJECT_PRONOUNS)})(?:\s|['’]))", re.I)


def said_window(ref_period: Period, grain: str, now: datetime) -> Period:
    """When words about a period may have been said: in it, or soon after ("on Saturday", said on Monday; "last
    month", said early the next); for a period still to come, the month before now (plans)."""
    start, end = ref_period
    if start > now:
        return now - timedelta(days=31), now
    after = timedelta(days=8) if grain in ("day", "weekend", "week") else timedelta(days=31)
    return start, min(end + after, now)


def asked_period(question: str, now: datetime) -> tuple[Period, Period] | None:
    """The period a question names ("last weekend", "in March", "on 3 May 2023"), read as past unless the
    question is about what is to come, and when words about it may have been said (``said_window``); None
    when it names none, or a whole year (too long to be read through)."""
    ref = anchored(question, now) or resolve(question, now, direction=tense(words_of(question)) or "past")
    if ref is None or lasting(ref) or ref.grain == "year":
        return None
    period = period_of(ref)
    return period, said_window(period, ref.grain, now)


_ANCHORED = re.compile(rf"\b(?:(?P<n>{COUNT})\s+(?P<unit>days?|weeks?|months?)|(?:the|last|that)\s+"
                       r"(?P<span>day|weekend|week|month))\s+(?P<dir>before|after)\s+(?P<date>\S.*)$", re.I)


def anchored(question: str, now: datetime) -> TimeRef | None:
    """A time told from a date the question names rather than from today ("the week before August 3, 2023",
    "last weekend before 10 April 2023", "two weeks before August 11, 2023", "the day after 5 May"): the period
    meant, at its grain. None when the question names no such time, or the date cannot be read."""
    m = _ANCHORED.search(question)
    if m is None:
        return None
    date = resolve(m.group("date"), now, direction="past")
    if date is None or date.grain != "day" or not m.group("date").lower().startswith(date.text.lower()[:3]):
        return None
    day, sign = date.when, (-1 if m.group("dir").lower() == "before" else 1)
    said = m.group(0)[: m.end("dir") - m.start()] + " " + date.text
    if m.group("n"):
        n = number(m.group("n"))
        unit = m.group("unit").lower().rstrip("s")
        if unit == "month":
            return TimeRef(shift_months(day, sign * n), said, "month")
        return TimeRef(day + timedelta(days=sign * n * (7 if unit == "week" else 1)), said, unit)
    span = m.group("span").lower()
    if span == "day":
        return TimeRef(day + timedelta(days=sign), said, "day")
    if span == "weekend":  # the Saturday before the day (or after it)
        return TimeRef(saturday(day, sign), said, "weekend")
    if span == "week":
        return TimeRef(day - timedelta(days=7) if sign < 0 else day + timedelta(days=1), said, "week")
    return TimeRef(shift_months(day, sign), said, "month")


def within(text: str, at: datetime, period: Period) -> bool:
    """Words said at ``at`` are about ``period``: the first time they name falls in it ("Spent Saturday
    bouldering", said on Monday), or, naming none, they were said in it."""
    named = named_time(text, at)
    if named is None:
        return period[0] <= at < period[1]
    start, end = period_of(named[1])
    return start < period[1] and period[0] < end
