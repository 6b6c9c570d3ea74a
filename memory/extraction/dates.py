"""Resolve time expressions ("last month", "since March", "the ninth of August") against a turn's time."""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from memory.words import PAST_FORMS, POSSESSIVES, TIME_MOVED

MONTHS: dict[str, int] = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
MONTHS["sept"] = 9
WEEKDAYS: dict[str, int] = {name.lower(): i for i, name in enumerate(calendar.day_name)}

UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
NUMBERS: dict[str, int] = {w: i + 1 for i, w in enumerate(UNITS)}


def in_words(n: int) -> str:
    """A count as people say it: "three" up to twelve, figures above ("14")."""
    return UNITS[n - 1] if 1 <= n <= len(UNITS) else str(n)


NUMBERS.update(
    {
        "a": 1,
        "an": 1,
        "a couple of": 2,
        "a couple": 2,
        "couple of": 2,
        "a few": 3,
        "few": 3,
        "several": 3,
        "fifteen": 15,
    }
)
# the tens said in words, alone or before a unit ("fifty-one"); counts take them up to sixty
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
NUMBERS.update({w: n for w, n in TENS.items() if n <= 60})
# the counts that are no exact number ("a few years", "a couple of months")
VAGUE_NUMBERS = frozenset({"a", "an", "a couple of", "a couple", "couple of", "a few", "few", "several"})

_ORD = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
)
ORDINALS: dict[str, int] = {w: i + 1 for i, w in enumerate(_ORD)}
for _i, _w in enumerate(_ORD[:9]):
    ORDINALS[f"twenty-{_w}"] = ORDINALS[f"twenty {_w}"] = 21 + _i
ORDINALS.update({"thirtieth": 30, "thirty-first": 31, "thirty first": 31})


@dataclass(frozen=True)
class TimeRef:
    """A resolved expression: the moment it points at, the words, and its grain (day, weekend — its Saturday —,
    week, month, season or year)."""

    when: datetime
    text: str
    grain: str


def _day(t: datetime) -> datetime:
    return t.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def shift_months(t: datetime, months: int) -> datetime:
    """Calendar arithmetic: the same day `months` later (clamped to the month's end)."""
    total = t.year * 12 + (t.month - 1) + months
    year, month = divmod(total, 12)
    day = min(t.day, calendar.monthrange(year, month + 1)[1])
    return t.replace(year=year, month=month + 1, day=day)


def number(word: str) -> int:
    """A count said in digits or words ("3", "three", "a couple of")."""
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def exact_number(word: str) -> int | None:
    """An exact count said in digits (with a suffix: "10th") or words, a compound one whole ("fifty-one" 51,
    "twenty five" 25, "forty" 40, "ten" 10); None for a vague count ("a few") or none."""
    tens, _, unit = word.lower().replace(" ", "-").partition("-")
    if tens in TENS and (not unit or unit in UNITS[:9]):
        return TENS[tens] + (UNITS.index(unit) + 1 if unit else 0)
    if word.lower() in VAGUE_NUMBERS:
        return None
    return NUMBERS.get(word.lower()) or _TEENS.get(word.lower()) or int(re.sub(r"\D", "", word) or 0) or None


_TEENS = {w: 13 + i for i, w in enumerate("thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_SMALL_WORDS = {**{w: i + 1 for i, w in enumerate(UNITS)}, **_TEENS, **TENS}
_SMALL_ALONE = "|".join(sorted(_SMALL_WORDS, key=len, reverse=True))
_SMALL = rf"(?:(?:{'|'.join(TENS)})(?:[- ](?:{'|'.join(UNITS[:9])}))?|{_SMALL_ALONE})"
_HUNDREDS = rf"(?:a|{_SMALL})\s+hundred"
_THOUSANDS = rf"(?:{_HUNDREDS}(?:\s+and\s+{_SMALL})?|a|{_SMALL})\s+thousand"
_BIG = re.compile(rf"\b(?:{_THOUSANDS}(?:,?\s+(?:and\s+)?{_HUNDREDS})?|{_HUNDREDS}"
                  rf"|hundred(?=\s+and\s+{_SMALL}\b))"  # "the whole hundred and fifteen kilometres": its "a" left out
                  rf"(?:\s+and\s+{_SMALL}(?![- ]\w*(?:hundred|thousand)))?\b", re.I)


# a number said, in figures (after a currency sign) or in words, for a regex read without case: "£260", "sixteen",
# "two hundred and sixty thousand"
NUMBER_SAID = rf"(?:[£$€]?\d(?:[\d,.]*\d)?(?!\w|[.,]\d)|{_BIG.pattern}|\b{_SMALL}\b)"
SMALL_NUMBER_SAID = _SMALL  # one to ninety-nine in words, for a regex read without case


def big_numbers(text: str) -> list[tuple[int, int, int]]:
    """The numbers of a hundred or more said in words, each (start, end, value): "a hundred and twenty" 120, "two
    hundred and ten" 210, "three thousand five hundred" 3500 (a small model reading "two hundred and ten quid" said
    "200 pounds")."""
    found = []
    for m in _BIG.finditer(text):
        total = current = 0
        for w in re.split(r"[\s,-]+", m.group(0).lower()):
            if w == "hundred":
                current = (current or 1) * 100
            elif w == "thousand":
                total, current = total + (current or 1) * 1000, 0
            elif w != "and":
                current += 1 if w == "a" else _SMALL_WORDS[w]
        found.append((m.start(), m.end(), total + current))
    return found


def in_figures(text: str) -> str:
    """The words with each number of a hundred or more said in words put in figures: "two hundred and ten quid"
    -> "210 quid"."""
    for start, end, value in reversed(big_numbers(text)):
        text = f"{text[:start]}{value}{text[end:]}"
    return text


# money said by a word of its own: "a fiver", "a tenner"
_SLANG_MONEY = {"fiver": 5, "tenner": 10}
_SLANG = re.compile(rf"\b({'|'.join(_SLANG_MONEY)})s?\b", re.I)


def slang_money(text: str) -> list[tuple[int, int, int]]:
    """Sums said by a word of their own, each (start, end, value): "Best fiver I've ever spent" 5."""
    return [(m.start(), m.end(), _SLANG_MONEY[m.group(1).lower()]) for m in _SLANG.finditer(text)]


_HOUR = rf"({'|'.join(UNITS)}|1[0-2]|[1-9])"
_MINUTES = {"quarter": 15, "half": 30, "five": 5, "ten": 10, "twenty": 20, "twenty-five": 25, "twenty five": 25}
_CLOCK = re.compile(rf"\b(?:(?:a\s+)?(quarter|half|twenty[- ]five|five|ten|twenty)\s+(past|to)\s+{_HOUR}"
                    rf"|{_HOUR}\s+o['’]clock|half\s+{_HOUR})\b"
                    r"(?!\s*(?:years?|months?|weeks?|days?|times?|people|of)\b)", re.I)


def clock_times(text: str) -> list[tuple[int, int, str]]:
    """Times of day said in words, each (start, end, "H:MM"): "ten past nine" 9:10, "quarter to three" 2:45,
    "half nine" 9:30 (as said in Britain), "six o'clock" 6:00 (a small model heard "ten past nine" as 10:00)."""
    found = []
    for m in _CLOCK.finditer(text):
        if m.group(1):
            h, minutes = number(m.group(3)), _MINUTES[m.group(1).lower().replace("-", " ")]
            if m.group(2).lower() == "to":
                h, minutes = (h - 2) % 12 + 1, 60 - minutes
        elif m.group(4):
            h, minutes = number(m.group(4)), 0
        else:
            h, minutes = number(m.group(5)), 30
        found.append((m.start(), m.end(), f"{h}:{minutes:02d}"))
    return found


def saturday(day: datetime, step: int) -> datetime:
    """The Saturday ``step`` weekends before ``day`` (negative) or after it (positive), never ``day`` itself."""
    if step < 0:
        return day - timedelta(days=((day.weekday() - 5) % 7 or 7) + 7 * (-step - 1))
    return day + timedelta(days=((5 - day.weekday()) % 7 or 7) + 7 * (step - 1))


def _grain(unit: str) -> str:
    """"weeks" -> "week"; a fortnight is counted in weeks."""
    unit = unit.rstrip("s")
    return "week" if unit == "fortnight" else unit


def _ago(n: int, unit: str, at: datetime) -> datetime:
    if unit.rstrip("s") == "fortnight":
        n, unit = 2 * n, "week"
    unit = unit.rstrip("s")
    if unit == "day":
        return _day(at) - timedelta(days=n)
    if unit == "week":
        return _day(at) - timedelta(weeks=n)
    if unit == "month":
        return shift_months(_day(at), -n)
    return shift_months(_day(at), -12 * n)


# the month each season starts in (meteorological, northern hemisphere: winter 2022 is December 2022 to February)
SEASONS: dict[str, int] = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}


def _season(start_month: int, which: str, at: datetime) -> datetime:
    """The first day of the season meant by "last/this/next summer" said at ``at``: "last" is the one before the
    season now under way (or the one most recently over), "this" the one under way or else the coming one (the
    one gone by is "last"), "next" the one after."""
    today = _day(at)
    starts = [datetime(at.year + k, start_month, 1, tzinfo=UTC) for k in (-2, -1, 0, 1)]
    latest = max(s for s in starts if s <= today)
    under_way = today < shift_months(latest, 3)
    following = shift_months(latest, 12)
    if which == "last":
        return shift_months(latest, -12) if under_way else latest
    if which == "next":
        return following
    return latest if under_way else following


def _past_month(month: int, at: datetime, year: int | None = None) -> datetime:
    """The first of the most recent `month` not after `at` (or of the given year)."""
    if year is None:
        year = at.year if month <= at.month else at.year - 1
    return datetime(year, month, 1, tzinfo=UTC)


COUNT = r"\d+|" + "|".join(sorted(NUMBERS, key=len, reverse=True))  # a count in digits or words, in a regex
_NUM = rf"({COUNT})"
_MON = r"(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_ORDW = "|".join(sorted(ORDINALS, key=len, reverse=True))
_DAYNUM = r"(\d{1,2})(?:st|nd|rd|th)?"
TIME_UNITS = ("day", "week", "fortnight", "month", "year")  # what a length of time is counted in: "three weeks"
_UNIT = "(" + "|".join(f"{u}s?" for u in TIME_UNITS) + ")"
# a length said, in a regex: the units a date counts in and decades ("for two decades")
LENGTH_WORDS = "(?:" + "|".join(f"{u}s?" for u in (*TIME_UNITS, "decade")) + ")"

# "the ninth of August", "9th of August", "9 August", "August 9th", "August the ninth"
_MONTH_DAY = [
    (re.compile(rf"\b(?:the\s+)?({_ORDW}|{_DAYNUM})\s+(?:of\s+)?{_MON}(?!\w)", re.I), "dm"),
    (re.compile(rf"\b{_MON}\s+(?:the\s+)?({_ORDW}|{_DAYNUM})(?!\w)", re.I), "md"),
]


def _day_number(word: str) -> int | None:
    w = word.lower().strip()
    if w in ORDINALS:
        return ORDINALS[w]
    m = re.match(r"(\d{1,2})", w)
    return int(m.group(1)) if m else None


def month_day(text: str) -> tuple[int, int, str] | None:
    """Find a day of the year in the text: (month, day, matched words), or None. A day of the year said by its name
    ("on Christmas Eve", "Boxing Day", "for Halloween") is one too."""
    for rx, order in _MONTH_DAY:
        for m in rx.finditer(text):
            if order == "dm":
                day_word, month_word = m.group(1), m.group(3)
            else:
                month_word, day_word = m.group(1), m.group(2)
            month = MONTHS.get(month_word.lower().rstrip("."))
            day = _day_number(day_word)
            if month and day and 1 <= day <= calendar.monthrange(2000, month)[1]:
                return month, day, m.group(0)
    named = _NAMED_DAY.search(text)
    if named is not None:
        said = named.group(1) or named.group(2)
        month, day = NAMED_DAYS[" ".join(said.lower().replace("’", "'").replace(".", "").split())]
        return month, day, said
    return None


# days of the year said by their names (fixed in the calendar; Easter moves, and is not here); "Christmas" alone only
# after a word of when ("at Christmas", "for Christmas": not "the Christmas jumper")
NAMED_DAYS: dict[str, tuple[int, int]] = {
    "new year's day": (1, 1), "valentine's day": (2, 14), "valentine's": (2, 14),
    "st david's day": (3, 1), "st patrick's day": (3, 17), "paddy's day": (3, 17), "st george's day": (4, 23),
    "halloween": (10, 31), "bonfire night": (11, 5), "guy fawkes night": (11, 5), "st andrew's day": (11, 30),
    "christmas eve": (12, 24), "christmas day": (12, 25), "boxing day": (12, 26), "new year's eve": (12, 31),
    "hogmanay": (12, 31), "christmas": (12, 25),
}
# days that move with Easter, by their distance in days from Easter Sunday; "Easter" alone only after a word of
# when ("at Easter", "next Easter": not "an Easter egg")
MOVABLE_DAYS: dict[str, int] = {
    "shrove tuesday": -47, "pancake day": -47, "ash wednesday": -46, "palm sunday": -7, "maundy thursday": -3,
    "good friday": -2, "holy saturday": -1, "easter saturday": -1, "easter sunday": 0, "easter day": 0,
    "easter monday": 1,
}
# words of those names for a quick test that a time may be named (the others say "day" or a weekday, which that
# test knows)
DAY_NAME_WORDS = frozenset({"christmas", "halloween", "hogmanay", "valentine", "boxing", "bonfire", "fawkes", "easter",
                            "shrove", "pancake"})
_DAY_NAME = "|".join(sorted((re.escape(n).replace("'", "['’]").replace(r"st\ ", r"st\.?\s+").replace(r"\ ", r"\s+")
                             for n in NAMED_DAYS if n != "christmas"), key=len, reverse=True))
_NAMED_DAY = re.compile(rf"\b({_DAY_NAME})(?!\w)|\b(?:at|for|over|on|by|until|till|since|before|after|this|last|next)"
                        r"\s+(Christmas)\b(?!\s+(?:Eve|Day)\b)", re.I)


def birthday(text: str) -> str | None:
    """The month and day of a birthday as 'August 9' (no year), or None."""
    found = month_day(text)
    if found is None:
        return None
    month, day, _ = found
    return f"{calendar.month_name[month]} {day}"


# Which way a weekday or a month without a year points depends on the tense: "I passed my test on Friday"
# (the Friday before), "I'm flying to Rome on Friday" / "in June" (the next one). Word tables, not branches.
_BE_NOW = frozenset({"am", "is", "are", "'m", "’m", "'re", "’re", "'s", "’s"})
_WILL = frozenset({"will", "'ll", "’ll", "shall", "gonna", "wo"})  # "wo" of "won't"
_AHEAD = frozenset({"tomorrow", "next", "upcoming", "soon", "planning", "plan", "plans", "hoping", "intend",
                    "booked", "rebooked", "scheduled", "rescheduled", "tickets", "ticket"})
# a time arranged for: "It's fixed for the 12th of April", "the hearing is set for the 3rd" (not "fixed on Monday")
_FIXED_FOR = frozenset({"fixed", "set", "arranged", "pencilled", "penciled", "slated", "planned", "earmarked"})


def _fixed_for(after: Sequence[str]) -> bool:
    """The words after "fixed", "pencilled"…: "for" or "in for" a time."""
    return after[:1] == ["for"] or after[:2] == ["in", "for"]


# what is got for a time to come: the verb that gets it is no past of that time ("Got tickets to see Coldplay in
# August", "bought two tickets for the match on Saturday")
_TICKETS = frozenset({"tickets", "ticket"})
_ARRANGED_BY = frozenset({"got", "was", "were", "been", "get", "gets"})  # a passive's helper: "got booked for"
_FINED = frozenset({"parking", "speeding", "traffic", "penalty"})  # "a parking ticket": a fine, for nothing ahead
# what is expected of what is to come: "completion should be in January", "the baby is due in March"
_EXPECTED = frozenset({"should", "due"})
_MEANT = frozenset({"meant", "supposed"})  # "Completion's meant to be the 20th of March": expected, not past
_BACK = frozenset({"was", "were", "did", "had", "yesterday", "ago", "last"})
_SOFT_ADVERBS = frozenset({"also", "just", "really", "finally", "actually", "still", "even", "probably", "not",
                           "n't", "definitely", "only", "all", "both"})
# Verbs of a timetable, said in the present of what is arranged ahead ("I start in May", "we fly on Friday")
# ("Mum turns seventy on the 14th of March", "Tom retires in June", "we move on the 3rd")
_SCHEDULED = frozenset({"start", "starts", "begin", "begins", "fly", "flies", "leave", "leaves", "arrive",
                        "arrives", "return", "returns", "finish", "finishes", "open", "opens", "turn", "turns",
                        "retire", "retires", "graduate", "graduates", "move", "moves", "land", "lands", "depart",
                        "departs", "sail", "sails"})
_DETERMINERS = frozenset({"a", "an", "the", "this", "that", "fresh"}) | POSSESSIVES
Tense = str | None  # "past" | "future" | None (not clear)


def tense(words: Sequence[tuple[str, str]]) -> Tense:
    """The tense of a sentence from its words and their Penn tags (a tag may be "" when untagged): "future" for
    "will"/"going to", an arrangement ("I'm flying to Rome", "we're getting married") or a plan word, "past" for
    a past-tense verb ("passed", "went"), None when neither or both. Untagged, a past verb is seen only as a
    regular "-ed" form after its subject ("I passed"), never after "am/is/are" ("I'm excited")."""
    low = [w.lower() for w, _ in words]
    low = ["fine" if w in _TICKETS and i and low[i - 1] in _FINED else w for i, w in enumerate(low)]
    tags = [t for _, t in words]
    future = past = elided = False
    for i, w in enumerate(low):
        nxt = [x for x in low[i + 1:i + 4] if x not in _SOFT_ADVERBS]
        modifier = tags[i] == "NN" and i + 1 < len(tags) and tags[i + 1].startswith("NN")  # "a planning officer"
        if w in _WILL or (w in _AHEAD and not modifier) or (
                w == "going" and nxt[:1] == ["to"] and i and low[i - 1] in _BE_NOW) or (
                w in _EXPECTED and nxt[:1] not in (["have"], ["'ve"], ["’ve"])) or (
                w in _MEANT and nxt[:1] == ["to"] and not (i and low[i - 1] in _BACK)) or (
                w in _FIXED_FOR and _fixed_for(low[i + 1 : i + 3])):
            future = True
        elif w in _BE_NOW and nxt and ((nxt[0].endswith("ing") and len(nxt[0]) > 4) or nxt[:2] == ["off", "to"]):
            future = True  # "I'm flying", "we're getting", "we're off to": an arrangement, when a day or month is named
        elif i == 0 and w.endswith("ing") and len(w) > 4 and w not in _ING_NOUNS and tags[0] in ("", "VBG"):
            elided = True  # the same with "I'm" left out: "Moving in on the 1st of May", "Flying out on Friday"
        if w in _AHEAD or _TICKETS.intersection(nxt) or (w in _FIXED_FOR and _fixed_for(low[i + 1 : i + 3])) or (
                w in _MEANT and nxt[:1] == ["to"]):
            continue  # "I booked a table for Friday", "fixed for the 12th": the verb is past, what it arranges is not
        if w in _ARRANGED_BY and nxt[:1] and nxt[0] in _AHEAD | _FIXED_FOR and _fixed_for(low[i + 2 : i + 4]):
            continue  # "the op got booked for the 8th of June", "it was set for the 3rd": arranged, not past
        if w in _SIGNED and _starts_ahead(low):  # "Signed up for the Welsh class, Tuesday nights from September",
            future = True  # "enrolled on a course starting in October": what was joined begins then
            continue
        if w in _STARTING and nxt[:1] != ["to"] and _starts_ahead(low[i:]):
            future = True  # "a pottery course starting in October" (not "starting to")
            continue
        before = [x for x in low[:i] if x not in _SOFT_ADVERBS][-1:]  # "I finally passed": its subject
        # its subject: a pronoun, a name ("Isla starts nursery on Monday") or a noun after its article ("the course
        # begins…"; not "a fresh start")
        named = bool(before) and (before[0] in _SUBJECTS or bool(i and words[i - 1][0][:1].isupper()))
        thing = i >= 2 and bool(before) and before[0] not in _DETERMINERS and (  # "the course", "the new cleaner"
            low[i - 2] in _DETERMINERS or (i >= 3 and low[i - 3] in _DETERMINERS and low[i - 2] not in _DETERMINERS))
        if w in _SCHEDULED and (named or thing) and tags[i] in ("", "VBP", "VBZ"):
            future = True  # "I start in May": a timetable's present
        if before and before[0] in _DETERMINERS:
            continue  # "a bit", "a fresh start": a noun, not a verb
        if w == "got" and before and before[0] in _HAVE and (not nxt or nxt[0] not in _GOT_MOVED):
            future = True  # "I've got the dentist on Wednesday": had now, for a day to come (not "I've got back")
            continue
        opening = not [x for x in low[:i] if x not in _SOFT_ADVERBS]  # "Started at the plant on Monday": the
        # tagger calls a past that opens with its "I" left out a participle
        if w in _BACK or tags[i] == "VBD" or (tags[i] == "VBN" and opening) or (not tags[i] and (w in PAST_FORMS or (
                w.endswith("ed") and len(w) > 4 and (named or (opening and _DONE_TO.intersection(nxt[:1])))))):
            past = True
    future = future or (elided and not past)  # "Running the half on Sunday was brutal": its "was" says past
    return None if future == past else ("future" if future else "past")


# a past of signing up whose course or class begins later, and a start said of what is to come
_SIGNED = frozenset({"signed", "enrolled", "registered", "enrol", "enroll"})
_STARTING = frozenset({"starting", "beginning", "commencing"})
_MONTH_OR_DAY = frozenset(w.lower() for w in (*MONTHS, *WEEKDAYS))


def _starts_ahead(low: Sequence[str]) -> bool:
    """The words say a start from a month or day: "from September", "starting in October", "beginning on Monday",
    "starting on the 8th of June"."""
    return any(w in ("from", "starting", "beginning", "commencing", "starts", "begins") and any(
        x in _MONTH_OR_DAY for x in low[k + 1 : k + (6 if low[k + 1 : k + 3] == ["on", "the"] else 3)])
        for k, w in enumerate(low))  # (a day of a month after "on the": "starting on the 8th of June")


# words in -ing that open a sentence as nouns or glue, not as an arrangement with its "I'm" left out
_ING_NOUNS = frozenset({"morning", "evening", "nothing", "something", "anything", "everything", "spring", "thing",
                        "things", "wedding", "building", "ceiling", "meeting", "during", "bring", "string",
                        "sibling", "darling", "pudding", "clothing", "feeling", "being", "king", "ring", "wing"})
_SUBJECTS = frozenset({"i", "we", "he", "she", "they", "you", "it"})
# what follows a past that opens with its "I" left out, untagged ("Passed my Day Skipper on Friday", "Finished the
# course on Monday", "Picked up the keys"): its object or particle (not "Excited for Friday", "United play Saturday")
_DONE_TO = (_DETERMINERS - {"fresh"}) | frozenset({"it", "him", "her", "them", "us", "up", "out", "off", "back",
                                                  "home", "in", "down", "over"})
_HAVE = frozenset({"'ve", "’ve", "have", "has", "'s", "’s"})
_GOT_MOVED = frozenset({"back", "home", "in", "to", "up", "off", "out", "into", "there", "here", "through", "over"})
_WORDS = re.compile(r"[A-Za-z]+(?:['’][a-z]+)?|['’][a-z]+")


def words_of(text: str) -> list[tuple[str, str]]:
    """Untagged words for ``tense`` ("I'm" -> "I", "'m")."""
    out: list[tuple[str, str]] = []
    for m in _WORDS.finditer(text):
        w = m.group(0)
        j = max(w.find("'"), w.find("’"))
        if j > 0:
            out += [(w[:j], ""), (w[j:], "")]
        else:
            out.append((w, ""))
    return out


# "Wednesday the 2nd", "on Friday now, the 27th" (a word of a change between)
_NTH_AFTER = re.compile(r",?\s+(?:(?:now|then|instead)\s*,?\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b", re.I)
_MONTH_NEXT = re.compile(r"\s+(?:of\s+)?(?:" + "|".join(MONTHS) + r")\b", re.I)


def _weekday(text: str, at: datetime, direction: Tense) -> TimeRef | None:
    """A bare weekday ("on Friday", "this Saturday") in a sentence whose tense says which way it points; with the
    day of the month after it ("on Wednesday the 2nd"), that day, which needs no tense (before a month, "Wednesday
    2nd December", the date is read whole, not here)."""
    m = re.search(r"\b(?:(on|this)\s+)?(" + "|".join(WEEKDAYS) + r")\b(?!\s+(?:morning|afternoon|evening|night)s\b)",
                  text, re.I)  # "Tuesday nights": a repeat, not a day
    if not m or re.search(r"\b(last|next|every|each)\s+$", text[: m.start()], re.I):
        return None
    nth = _NTH_AFTER.match(text, m.end())
    if nth is not None:
        if _MONTH_NEXT.match(text, nth.end()):
            return None
        said = text[m.start() : nth.end()]
        return _weekday_the(WEEKDAYS[m.group(2).lower()], int(nth.group(1)), at, said) or _day_of_month(
            int(nth.group(1)), at, direction, said)
    day = WEEKDAYS[m.group(2).lower()]
    if (m.group(1) or "").lower() == "this" and (day > at.weekday() or (day < at.weekday() and direction != "future")):
        # "this Thursday": of this week, whatever the tense ("brought forward to this Thursday", said on a Tuesday);
        # one gone already this week is the coming one when the words look ahead
        return TimeRef(_day(at) + timedelta(days=day - at.weekday()), m.group(0), "day")
    if direction is None:
        return None
    if direction == "past":
        back = (at.weekday() - day) % 7 or 7
        return TimeRef(_day(at) - timedelta(days=back), m.group(0), "day")
    ahead = (day - at.weekday()) % 7 or 7
    return TimeRef(_day(at) + timedelta(days=ahead), m.group(0), "day")


def _weekday_the(weekday: int, day: int, at: datetime, words: str) -> TimeRef | None:
    """"Friday the 27th": of the months around, the day that is that weekday, the nearest (the weekday tells the
    month, whatever the tense: "slipped a week…, so we get the keys on Friday now, the 27th"). None: no month near
    has it."""
    first = _day(at).replace(day=1)
    days = []
    for k in range(-2, 3):
        month = shift_months(first, k)
        if day <= calendar.monthrange(month.year, month.month)[1] and month.replace(day=day).weekday() == weekday:
            days.append(month.replace(day=day))
    if not days:
        return None
    return TimeRef(min(days, key=lambda d: abs(d - _day(at))), words, "day")


def _weekend(text: str, at: datetime, direction: Tense) -> TimeRef | None:
    """"At/over/on the weekend", "this weekend": the one before when the sentence is past, the coming one when
    it is about the future; its Saturday, at the grain "weekend"."""
    m = re.search(r"\b(?:(?:at|over|on) the|this) weekend\b", text, re.I)
    if not m or direction is None:
        return None
    day = _day(at)
    if direction == "past":
        return TimeRef(day - timedelta(days=(day.weekday() - 5) % 7), m.group(0), "weekend")
    return TimeRef(day + timedelta(days=(5 - day.weekday()) % 7), m.group(0), "weekend")


def _relative(text: str, at: datetime) -> TimeRef | None:
    t = text.lower()
    simple: list[tuple[str, datetime, str]] = [
        (r"\bthe day before yesterday\b", _day(at) - timedelta(days=2), "day"),
        # (not "on the last night" of a stay: its final one)
        (r"\b(?:yesterday|(?<!the )(?<!that )(?<!our )(?<!my )(?<!their )last night)\b", _day(at) - timedelta(days=1),
         "day"),
        (r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", _day(at), "day"),
        (r"\bthe day after tomorrow\b", _day(at) + timedelta(days=2), "day"),
        (r"\btomorrow\b", _day(at) + timedelta(days=1), "day"),
        (r"\blast week(?:end)?\b", _day(at) - timedelta(days=7), "week"),
        (r"\bthis week\b", _day(at) - timedelta(days=at.weekday()), "week"),
        (r"\blast month\b", shift_months(_day(at), -1), "month"),
        (r"\bthis month\b", _day(at).replace(day=1), "month"),
        (r"\blast year\b", shift_months(_day(at), -12), "year"),
        (r"\bthis year\b", _day(at).replace(month=1, day=1), "year"),
        (r"\bnext week\b", _day(at) + timedelta(days=7), "week"),
        (r"\bnext month\b", shift_months(_day(at), 1), "month"),
        (r"\bnext year\b", shift_months(_day(at), 12), "year"),
        (r"\b(?:the )?week after next\b", _day(at) + timedelta(days=14), "week"),
        (r"\b(?:the )?month after next\b", shift_months(_day(at), 2), "month"),
        (r"\b(?:the )?year after next\b", shift_months(_day(at), 24), "year"),
        (r"\b(?:the )?weekend after next\b", saturday(_day(at), 2), "weekend"),
    ]
    best: TimeRef | None = None
    best_pos = len(t) + 1
    for rx, when, grain in simple:
        m = re.search(rx, t)
        if m and m.start() < best_pos:
            best, best_pos = TimeRef(when, text[m.start() : m.end()], grain), m.start()
    # so many weeks on from today or tomorrow, or back from today or yesterday: "the fitters come three weeks
    # tomorrow", "Grace's birthday is a week tomorrow", "Opened a week ago yesterday", "two weeks yesterday"
    for m in re.finditer(r"\b(a|one|two|three|four|five|six)\s+(weeks?|fortnights?)\s+(ago\s+)?(today|tonight|tomorrow|"
                         r"yesterday)\b", t):
        back = bool(m.group(3)) or m.group(4) == "yesterday"
        if m.start() >= best_pos or (back and m.group(4) == "tomorrow"):
            continue
        span = NUMBERS[m.group(1)] * (14 if m.group(2).startswith("fortnight") else 7)
        when = _day(at) + timedelta(days=(-span if back else span) + (1 if m.group(4) == "tomorrow" else 0)
                                    - (1 if m.group(4) == "yesterday" else 0))
        best, best_pos = TimeRef(when, text[m.start() : m.end()], "day"), m.start()
    for m in re.finditer(rf"\b(?:(?:for|about|around|almost|nearly|over)\s+)?{_NUM}\s+{_UNIT}(\s+ago)?\b", t):
        is_ago = bool(m.group(3))
        is_for = m.group(0).startswith("for ")
        if (is_ago or is_for) and m.start() < best_pos:
            n = number(m.group(1))
            best, best_pos = TimeRef(_ago(n, m.group(2), at), text[m.start() : m.end()], _grain(m.group(2))), \
                m.start()
    # ahead, at the grain said: "around six months from now", "in two weeks' time"
    ahead = rf"\b(?:(?:about|around|almost|nearly|roughly|in)\s+)?{_NUM}\s+{_UNIT}(?:\s+from now|['’]?\s+time)\b"
    for m in re.finditer(ahead, t):
        if m.start() < best_pos:
            n = number(m.group(1))
            best, best_pos = TimeRef(_ago(-n, m.group(2), at), text[m.start() : m.end()], _grain(m.group(2))), \
                m.start()
    # weekends counted: "two weekends ago" (its Saturday), "a couple of weekends from now"
    for m in re.finditer(rf"\b{_NUM}\s+weekends?\s+(ago|from now)\b", t):
        if m.start() < best_pos:
            n = number(m.group(1))
            sat = saturday(_day(at), -n if m.group(2) == "ago" else n)
            best, best_pos = TimeRef(sat, text[m.start() : m.end()], "weekend"), m.start()
    m = re.search(r"\b(last|this|next) (" + "|".join(SEASONS) + r")\b", t)
    if m and m.start() < best_pos:
        best, best_pos = TimeRef(_season(SEASONS[m.group(2)], m.group(1), at), text[m.start() : m.end()],
                                 "season"), m.start()
    days = "|".join(WEEKDAYS)
    m = re.search(rf"\b(?:(a|one|two|three|four) (weeks?|fortnights?) (?:on|from) ({days})|(?:on )?({days}) "
                  r"(week|fortnight))\b", t)
    if m and m.start() < best_pos:  # "a week on Friday", "a fortnight on Saturday", "on Monday week", "Saturday
        # fortnight": so many weeks after the coming one
        n = NUMBERS[m.group(1)] if m.group(1) else 1
        weeks = n * (2 if (m.group(2) or m.group(5)).startswith("fortnight") else 1)
        coming = (WEEKDAYS[m.group(3) or m.group(4)] - at.weekday()) % 7 or 7
        best, best_pos = TimeRef(_day(at) + timedelta(days=coming + 7 * weeks), text[m.start() : m.end()], "day"), \
            m.start()
    m = re.search(rf"\b(?:the )?({days}) after next\b", t)
    if m and m.start() < best_pos:  # "the Monday after next": not the coming one, the one after it
        coming = (WEEKDAYS[m.group(1)] - at.weekday()) % 7 or 7
        best, best_pos = TimeRef(_day(at) + timedelta(days=coming + 7), text[m.start() : m.end()], "day"), m.start()
    m = re.search(r"\b(?:the )?(week|weekend) before last\b", t)
    if m and m.start() < best_pos:  # "the weekend before last": two back
        when = saturday(_day(at), -2) if m.group(1) == "weekend" else _day(at) - timedelta(days=14)
        best, best_pos = TimeRef(when, text[m.start() : m.end()], m.group(1)), m.start()
    m = re.search(r"\b(?:the )?(" + "|".join(WEEKDAYS) + r") (?:of )?the week after next\b", t)
    if m and m.start() < best_pos:  # "the Tuesday of the week after next": that day of the week after next week's
        monday = _day(at) + timedelta(days=7 - at.weekday() + 7)
        best, best_pos = TimeRef(monday + timedelta(days=WEEKDAYS[m.group(1)]), text[m.start() : m.end()],
                                 "day"), m.start()
    m = re.search(r"\blast (" + "|".join(WEEKDAYS) + r")\b", t)
    if m and m.start() < best_pos:
        back = (at.weekday() - WEEKDAYS[m.group(1)]) % 7 or 7
        best = TimeRef(_day(at) - timedelta(days=back), text[m.start() : m.end()], "day")
    m = re.search(r"\bnext (" + "|".join(WEEKDAYS) + r")\b", t)
    if m and m.start() < best_pos:  # that day of next week ("next Thursday", said on a Monday: not in 3 days)
        monday = _day(at) + timedelta(days=7 - at.weekday())
        best = TimeRef(monday + timedelta(days=WEEKDAYS[m.group(1)]), text[m.start() : m.end()], "day")
    return best


# "on the 30th", "booked for the 12th"; said in words only where nothing follows it but the clause's end or when
# in the day ("booked for the twelfth, first thing"; not "on the third floor", "for the first time")
_DAY_OF_MONTH = re.compile(rf"\b(?:on|for) the (?:(\d{{1,2}})(?:st|nd|rd|th)\b(?!\s+of\b)|({_ORDW})"
                           r"(?=\s*(?:[,.;!?—–]|$|\s+(?:at|first|in\s+the|so|and|but)\b)))"
                           # moved "to the twenty-fourth" (not "to the 3rd floor"): at a clause's end only
                           rf"|\b(?:to|until|till) the (?:(\d{{1,2}})(?:st|nd|rd|th)|({_ORDW}))"
                           r"(?=\s*(?:[,.;!?—–]|$|\s+(?:so|and|but|instead|now)\b))", re.I)


def _day_of_month(day: int, at: datetime, direction: Tense, words: str) -> TimeRef | None:
    """A day of the month said alone ("on the 30th"): this month's, unless the tense says it has passed or is
    ahead; said in the present ("my last shift's on the 30th"), a day already gone is next month's."""
    y, mo = at.year, at.month
    if direction == "past" and day > at.day:
        y, mo = (y, mo - 1) if mo > 1 else (y - 1, 12)
    elif direction != "past" and day < at.day:
        y, mo = (y, mo + 1) if mo < 12 else (y + 1, 1)
    try:
        return TimeRef(datetime(y, mo, day, tzinfo=UTC), words, "day")
    except ValueError:  # "the 31st" of a shorter month
        return None


def _which_year(text: str, words: str, at: datetime) -> int | None:
    """The year said right after a date or month without one: "12 June next year", "in March last year"."""
    m = re.search(rf"{re.escape(words)},?\s+(next|last|this)\s+year\b", text, re.I)
    if m is None:
        return None
    return at.year + {"next": 1, "last": -1, "this": 0}[m.group(1).lower()]


_WHICH_MONTH = re.compile(r"\b(next|last|this)\s+(" + "|".join(n for n in calendar.month_name if n) + r")\b(?!\s+\d)",
                          re.I)


def _named_month(text: str, at: datetime) -> tuple[int, TimeRef] | None:
    """"next April" (the first April after the month it is said in), "last April" (the one before), "this April" (this
    year's). The month must be written as a name ("this may be" is no month)."""
    m = _WHICH_MONTH.search(text)
    if m is None or not m.group(2)[0].isupper():
        return None
    which, month = m.group(1).lower(), MONTHS[m.group(2).lower()]
    if which == "next":
        year = at.year if month > at.month else at.year + 1
    elif which == "last":
        year = at.year if month < at.month else at.year - 1
    else:
        year = at.year
    return m.start(), TimeRef(datetime(year, month, 1, tzinfo=UTC), m.group(0), "month")


# a month, after a word of when or said by its part ("in June", "since early May", "at the end of May", "late July")
_AFTER_A_WHEN_WORD = re.compile(rf"(?:in|since|from|during|by|for)\s+(?:early\s+|late\s+|mid-?\s*)?{_MON}", re.I)
_IN_MONTH = re.compile(
    rf"\b(?:(?:in|since|from|during|by|for)\s+(?:early\s+|late\s+|mid-?\s*)?|(?:(?:at|by|in|towards|until|till|since|from)\s+)?"
    rf"(?:the\s+)?(?:start|beginning|end|middle)\s+of\s+|(?:early|late|mid-?)\s*(?=\w))"
    rf"{_MON}(?:\s+(\d{{4}}))?(?!\w)",
    re.I,
)


# a month something was moved to ("They've moved the wedding to August"), or is reckoned now ("Dave's now saying
# February"): one to come, unless a year is said
_RECKONED = r"\b(?:saying|says|reckons|reckoning|thinks|expecting|looking\s+at)"
_MOVED_TO_MONTH = re.compile(rf"(?:{TIME_MOVED}|{_RECKONED})\s+{_MON}(?:\s+(\d{{4}}))?(?!\w)"
                             r"(?!\s+(?:is|was|are|were)\b)", re.I)  # "she says February is grim": no time


_MOVED_UNTIL = re.compile(rf"{TIME_MOVED}$", re.I)
_MOVED_BEFORE = re.compile(rf"{TIME_MOVED}\s+(?:(?:on|for)\s+)?(?:[A-Za-z]+day\s*,?\s+)?$", re.I)
_IN_COUNT = re.compile(rf"\bin\s+{_NUM}\s+{_UNIT}\b(?!['’]?\s+time|\s+from now)", re.I)
# what makes "in three days" a span, not a time ahead: a count of things done in it ("four hundred and twelve ewes in
# a day"), or a best, a first or a perfect looked back over it ("the best they've been in four years", "the first
# time in ten years")
_SPAN_BEFORE = re.compile(rf"(?:\b(?:\d[\d,]*\)?|{_NUM})\s+[a-z]+\s*|\b(?:first\s+time|most|best|worst|least|been|ever|"
                          r"biggest|highest|lowest|longest|fastest|hottest|coldest|wettest|busiest|largest|happiest|"
                          r"quietest)\b[^,.;!?—–]*)$", re.I)


def _year_of_weekday(text: str, words: str, date: tuple[int, int, int], at: datetime, direction: Tense) -> int:
    """The year of a date said with its weekday and no year ("moved to Saturday the 12th of June"): of the years
    around the one read, the nearest in which that date is that weekday, ahead of ``at`` or before it as the
    sentence points; the year read when none is."""
    year, month, day = date
    before = text[: text.find(words)].rstrip(" ,").lower().split()
    named = before[-1] if before and before[-1] != "the" else before[-2] if len(before) > 1 else ""
    if named not in WEEKDAYS:
        return year
    for y in sorted(range(year - 3, year + 4), key=lambda y: abs(y - year)):
        if _weekday_of(y, month, day) == WEEKDAYS[named] and (
                direction is None or (datetime(y, month, day, tzinfo=UTC) >= _day(at)) == (direction == "future")):
            return y
    # none that way: the weekday said outweighs the way the tense points ("Starts Monday the ninth of November", read
    # in the past of "When did it start?", said in October: this November's)
    return next((y for y in (at.year, at.year + 1, at.year - 1)
                 if _weekday_of(y, month, day) == WEEKDAYS[named]), year)


def _on(year: int, month: int, day: int) -> datetime:
    """The day, or the last of its month where the year has none (29 February)."""
    return datetime(year, month, min(day, calendar.monthrange(year, month)[1]), tzinfo=UTC)


def _weekday_of(year: int, month: int, day: int) -> int | None:
    try:
        return datetime(year, month, day, tzinfo=UTC).weekday()
    except ValueError:  # 29 February
        return None


def resolve(text: str, at: datetime, *, direction: Tense = None) -> TimeRef | None:
    """The first time expression in the text, resolved against `at` (aware; UTC assumed if naive).

    ``direction`` (``tense``: "past", "future" or None) says which way a weekday or a date without a year
    points; a weekday is resolved only when it is known, a date without a year is taken as past unless the
    sentence is about the future ("in June" said in March: this June for a plan, last June after a past), and as
    the nearer of its years when neither is known and no word may be a past ("The scan is on the 9th of July")."""
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    rel = _relative(text, at)
    found: list[tuple[int, TimeRef]] = []
    if rel is not None:
        found.append((text.lower().find(rel.text.lower()), rel))
    # "in a fortnight", "in three days": ahead, unless told in the past ("I painted it in three days": how long)
    inn = _IN_COUNT.search(text) if direction != "past" else None
    if inn is not None and _SPAN_BEFORE.search(text[: inn.start()]):  # "412 ewes in a day", "the best in four years"
        inn = None
    if inn is not None and (rel is None or rel.text.lower() not in inn.group(0).lower()):
        unit = inn.group(2).lower()  # a count of days or weeks ahead lands on a day ("in a fortnight": 4 December)
        found.append((inn.start(), TimeRef(_ago(-number(inn.group(1).lower()), unit, at), inn.group(0),
                                           "day" if unit.startswith(("day", "week", "fortnight")) else _grain(unit))))
    we = _weekend(text, at, direction)
    if we is not None:
        found.append((text.lower().find(we.text.lower()), we))
    wd = _weekday(text, at, direction)
    if wd is not None and (rel is None or (rel.text.lower() not in wd.text.lower()
                                           and wd.text.lower() not in rel.text.lower())):  # "on Monday week"
        found.append((text.lower().find(wd.text.lower()), wd))
    md = month_day(text)
    if md is not None:
        month, day, words = md
        # moved to a date: ahead, whatever the tense of the moving ("the wedding's moved to Saturday the 12th of June")
        if _MOVED_BEFORE.search(text[: max(text.find(words), 0)]):
            direction = "future"
        if direction == "future":
            year = at.year if (month, day) >= (at.month, at.day) else at.year + 1
        else:
            year = at.year if (month, day) <= (at.month, at.day) else at.year - 1
        if direction is None and not past_word(text):  # no tense to tell, and no word of a past: the nearer ("he
            # can't start till the ninth of February", said late in January: this February's)
            year = min((at.year - 1, at.year, at.year + 1), key=lambda y: abs((_on(y, month, day) - at).days))
        ym = re.search(rf"{re.escape(words)},?\s+(\d{{4}})\b", text)
        if ym:
            year = int(ym.group(1))
        elif (which := _which_year(text, words, at)) is not None:
            year = which  # "on 12 June next year"
        else:
            year = _year_of_weekday(text, words, (year, month, day), at, direction)
        found.append((text.find(words), TimeRef(datetime(year, month, day, tzinfo=UTC), words, "day")))
    if wd is not None and md is not None:  # "Tuesday the first of December": the date, its weekday said with it
        w_at, m_at = text.lower().find(wd.text.lower()), text.find(md[2])
        if 0 <= w_at < m_at and not text[w_at + len(wd.text) : m_at].strip(" ,"):
            found = [f for f in found if f[1] is not wd]
    dm = _DAY_OF_MONTH.search(text)
    if dm is not None and md is not None and (at_md := text.find(md[2])) < dm.end() and dm.start() < at_md + len(md[2]):
        dm = None  # the day of a date said whole ("on the 14th of March"); not another day beside it ("on the
        # fourteenth … till Christmas")
    if dm is not None and (dm.group(3) or dm.group(4)) and not _MOVED_UNTIL.search(
            text[: dm.start()] + dm.group(0).split()[0]):
        dm = None  # "to the fifth" is a day only where something is moved to it
    digits, word = (dm.group(1) or dm.group(3), dm.group(2) or dm.group(4)) if dm is not None else (None, None)
    nth = int(digits) if digits else ORDINALS[word.lower()] if word else None
    dom = _day_of_month(nth, at, direction, dm.group(0)) if dm is not None and nth is not None else None
    if dom is not None:  # "on the 30th": this month's, or the next or last as the tense says
        found.append((text.find(dom.text), dom))
    m = _IN_MONTH.search(text)
    if m and not m.group(1)[0].isupper() and not _AFTER_A_WHEN_WORD.match(m.group(0)):
        m = None  # "late may…", "the end of may be…" without a capital: no month named
    if m and md is not None and (md_at := text.find(md[2])) < m.end() and m.start() < md_at + len(md[2]):
        m = None  # the month of a date said whole ("for August 15th": not "for August")
    if m:
        month = MONTHS[m.group(1).lower().rstrip(".")]
        in_year = int(m.group(2)) if m.group(2) else _which_year(text, m.group(0), at)  # "in June next year"
        if in_year is None and direction == "future" and not m.group(0).lower().startswith("since"):
            in_year = at.year if month >= at.month else at.year + 1
        elif in_year is None and direction is None and not past_word(text) and not m.group(0).lower().startswith(
                "since"):
            # no tense to tell: the nearer ("The results come out at the end of August", said in June), the one gone
            # when as near
            in_year = min((at.year - 1, at.year, at.year + 1),
                          key=lambda y: abs((datetime(y, month, 15, tzinfo=UTC) - at).days))
        found.append((m.start(), TimeRef(_past_month(month, at, in_year), m.group(0), "month")))
    mv = _MOVED_TO_MONTH.search(text) if m is None else None
    if mv is not None and mv.group(1)[0].isupper():  # "moved it to may" is no month
        month = MONTHS[mv.group(1).lower().rstrip(".")]
        year = int(mv.group(2)) if mv.group(2) else at.year if month >= at.month else at.year + 1
        to = mv.group(0)[mv.group(0).lower().rfind(mv.group(1).lower()) :]
        found.append((mv.end() - len(to), TimeRef(datetime(year, month, 1, tzinfo=UTC), to, "month")))
    nm = _named_month(text, at)
    if nm is not None:
        found.append(nm)
    m = re.search(r"\b(?:in|since|from|during|by|back in)\s+((?:19|20)\d\d)\b", text, re.I)
    if m:
        found.append((m.start(), TimeRef(datetime(int(m.group(1)), 1, 1, tzinfo=UTC), m.group(0), "year")))
    said = _day_in_month(text, at, direction) or _movable_day(text, at, direction)
    if said is not None:  # "the last Saturday in July", "the 3rd of next month": not "last Saturday", "next month"
        found = [f for f in found if f[1].text.lower() not in said[1].text.lower()] + [said]
    if not found:
        return None
    first = min(found, key=lambda p: p[0])[1]
    # a year or a season, then a day in it and no month between ("I'm doing the lion's head this year for the dance
    # on the 17th", "a course this summer, starting on the 8th of June"): the day
    if first.grain not in ("year", "season") or any(r.grain == "month" for _, r in found):
        return first
    end = datetime(first.when.year + 1, 1, 1, tzinfo=UTC) if first.grain == "year" else shift_months(first.when, 3)
    within = [(i, r) for i, r in found if r.grain in ("day", "weekend") and first.when <= r.when < end]
    return min(within, key=lambda p: p[0])[1] if within else first


def past_word(text: str) -> bool:
    """A word that may be a past ("retired", "went"), though the tense could not be told ("My mum retired in June",
    its verb tagged an adjective): the date is not taken as the nearer, which may be ahead."""
    return any(w in PAST_FORMS or (w.endswith("ed") and len(w) > 4 and not w.endswith("eed") and w != "hundred")
               for w in re.findall(r"[a-z]+", text.lower()))  # (not "speed", "need", "hundred")


_MOVABLE = re.compile(r"\b(?:(next|last|this)\s+)?(" + "|".join(n.replace(" ", r"\s+") for n in MOVABLE_DAYS)
                      + r")\b|\b(?:(?:at|for|over|by|until|till|since|before|after|on)\s+|(next|last|this)\s+)"
                      r"(easter)\b(?!\s+(?:saturday|sunday|monday|day)\b)", re.I)


def easter_sunday(year: int) -> datetime:
    """Easter Sunday of a year in the Gregorian calendar (the anonymous algorithm, as Meeus gives it)."""
    a, (b, c) = year % 19, divmod(year, 100)
    d, e = divmod(b, 4)
    g = (b - (b + 8) // 25 + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    el = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * el) // 451
    month, day = divmod(h + el - 7 * m + 114, 31)
    return datetime(year, month, day + 1, tzinfo=UTC)


def _movable_day(text: str, at: datetime, direction: Tense) -> tuple[int, TimeRef] | None:
    """A day that moves with Easter ("next Easter Saturday", "on Good Friday", "over Easter"): "next" is the coming
    one, "last" the one gone, "this" this year's; else the tense's way, or the nearer when no tense tells."""
    m = _MOVABLE.search(text)
    if m is None:
        return None
    which = (m.group(1) or m.group(3) or "").lower()
    name = " ".join((m.group(2) or m.group(4)).lower().split())
    shift = timedelta(days=MOVABLE_DAYS.get(name, 0))
    days = {y: easter_sunday(y) + shift for y in (at.year - 1, at.year, at.year + 1)}
    today = _day(at)
    if which == "this":
        day = days[at.year]
    elif which == "next" or (not which and direction == "future"):
        day = min(d for d in days.values() if d >= today)
    elif which == "last" or (not which and (direction == "past" or past_word(text))):
        day = max(d for d in days.values() if d <= today)
    else:
        day = min(days.values(), key=lambda d: abs((d - at).days))
    return m.start(), TimeRef(day, m.group(0).strip(), "day")


_NTH_WEEKDAY = re.compile(rf"\b(?:the\s+)?(first|second|third|fourth|last)\s+({'|'.join(WEEKDAYS)})\s+(?:in|of)\s+"
                          rf"{_MON}(?!\w)", re.I)
_NTH_OF_MONTH = re.compile(rf"\b(?:the\s+)?({_ORDW}|\d{{1,2}}(?:st|nd|rd|th))\s+of\s+(next|this|last)\s+month\b",
                           re.I)


def _day_in_month(text: str, at: datetime, direction: Tense) -> tuple[int, TimeRef] | None:
    """A day said by its place in a month ("the last Saturday in July", "the second Tuesday of March": that month's
    year as a date's is read) or by its number in a month said from now ("the 3rd of next month")."""
    m = _NTH_OF_MONTH.search(text)
    if m is not None:
        first = shift_months(_day(at).replace(day=1), {"next": 1, "this": 0, "last": -1}[m.group(2).lower()])
        day = _day_number(m.group(1))
        if day is None or day > calendar.monthrange(first.year, first.month)[1]:
            return None
        return m.start(), TimeRef(first.replace(day=day), m.group(0), "day")
    m = _NTH_WEEKDAY.search(text)
    if m is None or not m.group(3)[0].isupper():
        return None
    month, wd, nth = MONTHS[m.group(3).lower().rstrip(".")], WEEKDAYS[m.group(2).lower()], m.group(1).lower()

    def on(year: int) -> datetime:
        days = [d for d in range(1, calendar.monthrange(year, month)[1] + 1) if _weekday_of(year, month, d) == wd]
        return datetime(year, month, days[-1] if nth == "last" else days[ORDINALS[nth] - 1], tzinfo=UTC)

    years = [at.year - 1, at.year, at.year + 1]
    if direction == "future":
        years = [y for y in years if on(y) >= _day(at)]
    elif direction == "past":
        years = [y for y in years if on(y) <= _day(at)]
    year = min(years, key=lambda y: abs((on(y) - at).days))
    return m.start(), TimeRef(on(year), m.group(0).rstrip("."), "day")
