"""Time between two things said, or since one: "How many weeks passed between adopting Miso and Tofu?", "How many
days after my first lesson did I pass the theory test?", "How long has it been since I moved to Ghent?", "How long
has Theo been at nursery?".

Pure: ``parse`` turns the question into one or two "when" questions to look up (the pipeline looks each up as it
does any "when" question), and ``between`` / ``since`` say the time between the moments found, as people round it.
The small model cannot count weeks between two dates it is handed (it said "One week" to every question here)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from assistant.answer import said_to_you
from assistant.when import amount
from memory.extraction.dates import (
    LENGTH_WORDS,
    MONTHS,
    NUMBERS,
    ORDINALS,
    TENS,
    UNITS,
    VAGUE_NUMBERS,
    WEEKDAYS,
    exact_number,
)
from memory.recall.intent import Tagged
from memory.search import terms
from memory.words import FIRST_PERSON, POINTING_BACK, POSSESSIVES, alternation

_UNIT = r"how (?:many (?P<unit>days|weeks|months|years)|long)"
_LINK = (r"(?:\s+(?:had\s+)?(?:passed|went by|gone by|elapsed|were there|was there|was it|is it|has it been|had it "
         r"been|did it take))?")
_BETWEEN = re.compile(rf"^{_UNIT}{_LINK}\s+between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)$", re.I)
# "How many days after my first lesson did I pass the test?" (or before: the time between is the same)
_AFTER = re.compile(rf"^{_UNIT}\s+(?:after|before)\s+(?P<a>.+?)\s+(?:did|do|does|was|were|had|has|have)\s+(?P<b>.+)$",
                    re.I)
_SINCE = re.compile(rf"^{_UNIT}\s+(?:(?:has|had|is|was) it been\s+|(?:have|has) (?:passed|gone by)\s+)?since\s+"
                    r"(?P<a>.+)$", re.I)
# "How long have I been in the club?", "How long has Theo had his bike?": since it began (unless a duration is said)
_HELD = re.compile(r"^(?:how long|since when) (?:have|has)\s+(?P<a>(?!it\b).+)$", re.I)
# a start said as a time of life or an event, not a date ("vegetarian since I was fifteen", "since Mum died")
_WHO = alternation(POINTING_BACK | FIRST_PERSON | POSSESSIVES)  # whose time of life: "since I was", "since Mum died"
_SINCE_WORDS = re.compile(rf"\bsince\s+((?:{_WHO}|[A-Z]\w+)\b[^,.;!?]*?"
                          r"\b(?:was|were|am|is|are|'d|had|got|left|moved|started|turned|retired|came|met|became|"
                          r"died|passed|married|born)\b[^,.;!?]*)", re.I)
_AS_OF = re.compile(r",?\s+as of\s+(?P<d>[^,?]+?)\s*$", re.I)
# "I've been dancing for 14 years": the words say how long, and the model reads them
_VERB_SHAPE = re.compile(r"^\w+(?:ing|ed)$", re.I)


@dataclass(frozen=True)
class SpanAsk:
    first: str  # a "when" question for the one thing ("When did Maria adopting Coco?": its words are what count)
    second: str | None  # the other; None: from the first until now (or ``as_of``)
    unit: str | None  # "days", "weeks", "months", "years"; None: as people round it
    as_of: str | None = None  # "November 2023" in "…, as of November 2023?"
    held: bool = False  # asked how long a state has held: a duration said in the words answers it instead


def parse(question: str, tagger: Callable[[str], Sequence[Tagged]] | None = None) -> SpanAsk | None:
    """What to look up to answer a question about the time between two things or since one; None: not one."""
    q = " ".join(question.split()).rstrip(" ?.!")
    as_of = None
    if (m := _AS_OF.search(q)) is not None:
        as_of, q = m.group("d"), q[:m.start()]
    if (m := _BETWEEN.match(q)) is not None:
        a, b = m.group("a").strip(), m.group("b").strip()
        return SpanAsk(_when(a), _when(_complete(a, b, tagger)), _unit(m), as_of)
    if (m := _AFTER.match(q)) is not None:  # the second is a clause of its own ("did I hear back")
        return SpanAsk(_when(m.group("a")), _when(m.group("b")), _unit(m), as_of)
    if (m := _SINCE.match(q)) is not None:
        return SpanAsk(_when(m.group("a")), None, _unit(m), as_of)
    if (m := _HELD.match(q)) is not None:
        return SpanAsk(_when(m.group("a")), None, None, as_of, held=True)
    return None


def since_words(texts: Sequence[tuple[str, bool]], question: str) -> tuple[str, int] | None:
    """Asked how long a state has held, when no date names its start: the start as the words said it, to the user
    ("I've been vegetarian since I was fifteen" -> "Since you were fifteen."). ``texts``: (words, said by the user)
    best first; only words on the question's topic (one of its terms) count. With the answer, which words it is from."""
    topic = set(terms(question))
    for n, (text, mine) in enumerate(texts):
        m = _SINCE_WORDS.search(text)
        if m is None or not topic & set(terms(text[: m.start()])):
            continue
        said = m.group(1).strip()
        if mine:  # the user's own words said to them: "I was fifteen" -> "you were fifteen"
            said = said_to_you(said, question)
            said = said[:1].lower() + said[1:] if said.startswith("You") else said
        return f"Since {said}.", n
    return None


def says_how_long(text: str) -> bool:
    """The words give a duration ("for three years"), not a start."""
    return _DURATION.search(text) is not None


_ANNIVERSARY = re.compile(
    r"\b(" + "|".join(sorted(ORDINALS, key=len, reverse=True)) + r"|\d{1,2}(?:st|nd|rd|th))\s+(?:wedding\s+)?"
    r"anniversary\b", re.I)
# the same said by the years ("celebrate 40 years married on Saturday", "twenty-five years together this June")
_EXACT_NUMBERS = {w: n for w, n in NUMBERS.items() if w not in VAGUE_NUMBERS}
_COUNT = (r"(\d{1,2}|(?:" + "|".join(TENS) + r")(?:[- ](?:" + "|".join(UNITS[:9]) + r"))?|"
          + "|".join(sorted(_EXACT_NUMBERS, key=len, reverse=True)) + r")")
# (or with the time they are reached at: "Fifty-one years this September!", "40 years on Saturday")
_YEARS_TOGETHER = re.compile(
    r"(?<![\w-])" + _COUNT + r"\s+years?\s+(?:(?:of\s+)?(?:marriage|married|wed|together)\b|"
    r"(?=(?:this|next|on|in)\s+(?:" + "|".join(sorted((*MONTHS, *WEEKDAYS), key=len, reverse=True)) + r")\b))", re.I)


# how long, said: "for three years", "retiring after thirty-one years"
_DURATION = re.compile(r"\b(?:for (?:the (?:last|past) )?(?:a|an|a few|several|many|" + _COUNT + r")|after "
                       + _COUNT + r")(?: \w+)? " + LENGTH_WORDS + r"\b", re.I)


def years_marked(text: str) -> int | None:
    """The years an anniversary said with its number marks ("our tenth wedding anniversary on Friday": 10;
    "fifty-one years this September": 51): the time it names is that many years after the start, not the start."""
    m = _ANNIVERSARY.search(text)
    if m is not None:
        return ORDINALS.get(m.group(1).lower()) or exact_number(m.group(1))
    m = _YEARS_TOGETHER.search(text)
    return exact_number(m.group(1)) if m is not None else None


def between(first: datetime, second: datetime, unit: str | None, said: tuple[str, str]) -> str:
    """'About seven weeks (31 January 2026 to 19 March 2026).' — earlier first, whichever was asked first."""
    (start, s_said), (end, e_said) = sorted(((first, said[0]), (second, said[1])), key=lambda p: p[0])
    return f"{amount((end.date() - start.date()).days, unit)} ({s_said} to {e_said})."


def since(then: datetime, now: datetime, unit: str | None, said: str, *, held: bool = False) -> str:
    """'About eight months (since 12 January 2026).'; of a state held, whole years gone by ("Over ten years")."""
    return f"{amount((now.date() - then.date()).days, unit, completed=held)} (since {said})."


def _unit(m: re.Match[str]) -> str | None:
    unit = m.group("unit")
    return unit.lower() if unit else None


def _when(phrase: str) -> str:
    return f"When did {phrase.strip()}?"


def _complete(a: str, b: str, tagger: Callable[[str], Sequence[Tagged]] | None) -> str:
    """The second thing said without its verb takes the first's ("between adopting Miso and Tofu": adopting Tofu).
    One that has a verb, or a first without one ("my Lisbon trip and my Oslo trip"), stays as it is."""
    if _verb_end(b, tagger) is not None:
        return b
    end = _verb_end(a, tagger)
    return b if end is None else f"{a[:end]} {b}"


def _verb_end(text: str, tagger: Callable[[str], Sequence[Tagged]] | None) -> int | None:
    """Where the last verb of ``text`` ends (a character offset), or None when it has none."""
    words = [(m.group(), m.end()) for m in re.finditer(r"[\w'’]+", text)]
    if tagger is not None:
        try:
            tags = [t.pos for t in tagger(text)]
        except Exception:  # an untaggable phrase is read by the shape of its words
            tags = []
        if len(tags) == len(words):
            ends = [end for (_, end), pos in zip(words, tags, strict=True) if pos == "VERB"]
            return ends[-1] if ends else None
    ends = [end for w, end in words if _VERB_SHAPE.match(w)]
    return ends[-1] if ends else None
