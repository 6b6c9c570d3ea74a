"""How many of a kind the user has now, counted from what memory holds rather than read by the model.

"How many guinea pigs have we got?" after "we've come home with two guinea pigs, Custard and Crumble" and, later,
"Custard didn't make it through the night": the small model, handed "User has pet Crumble" and the words, said "You
have two guinea pigs." Memory knows each of them by name, and that one of them is gone: it counts those still held.
Pure logic over a recall's facts and words."""

from __future__ import annotations

import re

from memory.extraction.dates import NUMBERS, exact_number, in_words
from memory.model import USER_ID
from memory.recall.recall import RecallResult
from memory.words import alternation

# "How many guinea pigs have we got?", "How many goats do we have now?"
_HOW_MANY_HAD = re.compile(r"^\s*how\s+many\s+(?P<kind>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+"
                           r"(?:do\s+(?:i|we)\s+have|have\s+(?:i|we)\s+got|(?:i|we)['’]ve\s+got)\b", re.I)
# "two guinea pigs", "three pygmy goats"
_COUNT_SAID = rf"\b(\d+|{alternation(w for w in NUMBERS if w not in ('a', 'an'))})\s+(?:[\w-]+\s+){{0,2}}?"


def one_of(kind: str) -> str:
    """A kind said as one ("guinea pigs" guinea pig, "ponies" pony, "foxes" fox), in lower case."""
    kind = " ".join(kind.lower().split())
    for many, one in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("xes", "x"), ("s", "")):
        if kind.endswith(many) and len(kind) > len(many) + 1:
            return kind[: -len(many)] + one
    return kind


def pets_now(recall: RecallResult) -> str | None:
    """Asked how many animals of a kind the user has, when memory holds each of them by name and some of them are
    gone (died, or no longer theirs): how many are held now, and their names ("One: Crumble."). None when not so
    asked, when none of the kind is gone or none is left, or when the words found say more of them than memory has
    names for ("four Indian Runners", of which none was named): the model reads the words then."""
    m = _HOW_MANY_HAD.match(recall.question)
    if m is None:
        return None
    kind = one_of(m.group("kind"))
    of_kind = {a.subject_id for a in recall.facts if a.relation == "is_a" and one_of(a.object) == kind}
    held = {a.object_id: a.object for a in recall.facts
            if a.relation == "has_pet" and a.subject_id == USER_ID and a.current and a.object_id in of_kind}
    gone = {a.subject_id for a in recall.facts if a.relation == "died_on" and a.subject_id in of_kind} | {
        a.object_id for a in recall.facts
        if a.relation == "has_pet" and a.subject_id == USER_ID and not a.current and a.object_id in of_kind}
    gone -= set(held)
    if not held or not gone:
        return None
    plural = re.compile(_COUNT_SAID + re.escape(m.group("kind")) + r"\b", re.I)
    said = [exact_number(n) for e in recall.episodes for n in plural.findall(e.text)]
    if any(n is not None and n > len(held) + len(gone) for n in said):
        return None  # more of them were told of than memory knows by name
    names = sorted(held.values())
    return f"{in_words(len(names)).capitalize()}: {listed(names)}."


def listed(names: list[str]) -> str:
    """Names as said in a sentence: "Salt", "Salt and Pepper", "Salt, Pepper and Mustard"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
