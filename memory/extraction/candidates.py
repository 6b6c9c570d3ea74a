"""Candidate spans for the model to choose among (issue 10): spaCy proposes, the model labels.

A 1.5B model writing facts freely invents objects and loops; choosing among spans that are in the sentence
is classification, which it does well. Candidates are the speaker, named entities, noun chunks (the
determiners and possessives cut off), adjective complements ("gone vegan"), gerunds ("started running"),
people named in the context turns (for "he", "she"), and dates resolved against the turn's time.

Pure: `propose(doc, ...)` works on a parsed spaCy Doc; nothing here reads the clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from memory.extraction import dates
from memory.words import MY, POSSESSIVES, VAGUE

# spaCy entity labels -> the graph's entity types
ENTITY_TYPES = {"PERSON": "PERSON", "GPE": "PLACE", "LOC": "PLACE", "FAC": "PLACE", "ORG": "ORG",
                "NORP": "GROUP", "PRODUCT": "THING", "WORK_OF_ART": "TITLE", "EVENT": "EVENT",
                "LANGUAGE": "LANGUAGE", "DATE": "DATE", "TIME": "DATE"}
_SKIP_ENTS = frozenset({"CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"})
_CUT_WORDS = POSSESSIVES | frozenset({"a", "an", "the", "this", "that", "these", "those", "some", "any", "every",
                                     "each", "another", "such", "own", "all", "both", "no", "what", "which",
                                     "whose"})
# Heads that never make a fact's object on their own (too vague to remember).
_WEEKDAY = re.compile(r"\b(?:(next|last|this|on)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b",
                      re.I)


@dataclass(frozen=True)
class Candidate:
    """A span the model may choose as a subject, an object or a date."""

    key: str  # the id shown to the model ("S", "A", "B", ...)
    text: str  # the words as said, determiners cut
    type: str  # PERSON, PLACE, ORG, DATE, VALUE, ACTIVITY, THING, ...
    sentence: int  # index of its sentence in the turn; -1 for the speaker and context people
    when: str | None = None  # a DATE's ISO value at its grain (2026-03-13, 2026-06, 2026-W37, 2019)
    start: int = -1  # token span in the turn's Doc (-1: not in this turn)
    end: int = -1
    owner: str | None = None  # "my uncle": the speaker's uncle, stored as "<speaker>'s uncle"

    @property
    def name(self) -> str:
        """What a fact stores: the words, or "<owner>'s <role>" for an unnamed relative."""
        return f"{self.owner}'s {self.text}" if self.owner else self.text


def _keys() -> Iterator[str]:
    letters = "ABCDEFGHIJKLMNOPQRTUVWXYZ"  # S is the speaker
    yield from letters
    for a in letters:
        for b in letters:
            yield a + b


def iso_at_grain(when: datetime, grain: str) -> str:
    if grain == "year":
        return f"{when.year:04d}"
    if grain in ("month", "season"):  # a season by the month it starts in
        return f"{when.year:04d}-{when.month:02d}"
    if grain == "week":
        y, w, _ = when.isocalendar()
        return f"{y:04d}-W{w:02d}"
    return when.date().isoformat()


def resolve_when(text: str, at: datetime, *, past: bool = True) -> str | None:
    """A time expression as an ISO date at its grain, against the turn's time `at`.

    `past`: the sentence is in the past tense, so "on Friday" / "in June" are the last ones; otherwise the
    coming ones. Other expressions ("last month", "two weeks ago", "in 2019") go through dates.py."""
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    low = text.lower().strip()
    day = at.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    m = _WEEKDAY.search(low)
    if m and m.group(1) != "last" and "ago" not in low:
        target = list(dates.WEEKDAYS).index(m.group(2))
        if past and m.group(1) != "next":
            back = (day.weekday() - target) % 7 or 7
            return (day - timedelta(days=back)).date().isoformat()
        ahead = (target - day.weekday()) % 7 or 7
        return (day + timedelta(days=ahead)).date().isoformat()
    m = re.fullmatch(r"(?:(?:in|this|next|last)\s+)?(" + "|".join(dates.MONTHS) + r")\.?(?:\s+(\d{4}))?", low)
    if m:
        month = dates.MONTHS[m.group(1)]
        if m.group(2):
            year = int(m.group(2))
        elif past or low.startswith("last"):
            year = at.year if month <= at.month else at.year - 1
        else:
            year = at.year if month >= at.month else at.year + 1
        return f"{year:04d}-{month:02d}"
    m = re.fullmatch(r"(?:in\s+)?((?:19|20)\d\d)", low)
    if m:
        return m.group(1)
    ref = dates.resolve(text, at) or dates.resolve(f"in {text}", at)
    if ref is None:
        return None
    grain = "day" if ref.grain == "week" and "ago" in low else ref.grain  # "two weeks ago": that day
    return iso_at_grain(ref.when, grain)


def is_past(sent: Any) -> bool:
    """The sentence's main verb is in the past tense (VBD, or a perfect: "have been", "got back")."""
    root = sent.root
    if root.tag_ == "VBD":
        return True
    return any(c.lemma_ == "have" and c.dep_ == "aux" for c in root.children)


def _trim(span: Any) -> tuple[str, Any, Any] | None:
    """The span without leading determiners/possessives/pronouns; None when nothing is left."""
    toks = list(span)
    while toks and (toks[0].lower_ in _CUT_WORDS or toks[0].pos_ in ("DET", "PRON", "PUNCT")
                    or toks[0].tag_ == "POS"):
        toks = toks[1:]
    while toks and (toks[-1].pos_ in ("PUNCT", "PART") or toks[-1].tag_ == "POS"):
        toks = toks[:-1]
    if not toks:
        return None
    doc = toks[0].doc
    text = doc[toks[0].i: toks[-1].i + 1].text
    return text, toks[0], toks[-1]


def propose(doc: Any, *, speaker: str, at: datetime, context_people: Sequence[str] = ()) -> list[Candidate]:
    """Candidates for one turn (a parsed spaCy Doc), the speaker first as `S`."""
    out: list[Candidate] = [Candidate("S", speaker, "PERSON", -1)]
    keys = _keys()
    seen: set[str] = {speaker.lower()}
    covered: set[int] = set()
    sent_of = {}
    for si, sent in enumerate(doc.sents):
        for t in sent:
            sent_of[t.i] = si

    def add(text: str, typ: str, sent: int, when: str | None = None, span: tuple[int, int] = (-1, -1),
            owner: str | None = None) -> None:
        text = text.strip(" ,.;:!?\"'")
        if not text or text.lower() in seen or len(text) > 60:
            return
        seen.add(text.lower())
        out.append(Candidate(next(keys), text, typ, sent, when, span[0], span[1], owner))

    for ent in doc.ents:
        if ent.label_ in _SKIP_ENTS:
            continue
        trimmed = _trim(ent)
        if trimmed is None:
            continue
        text, first, last = trimmed
        if ent.label_ in ("DATE", "TIME"):
            prev = doc[ent.start - 1].lower_ if ent.start > 0 else ""
            when = resolve_when(ent.text, at, past=is_past(first.sent) or prev in ("since", "ago"))
            if when is None:
                continue
            add(ent.text, "DATE", sent_of[first.i], when, (ent.start, ent.end))
        else:
            typ = ENTITY_TYPES.get(ent.label_, "THING")
            before = doc[first.i - 1] if first.i > 0 else None
            if before is not None and before.pos_ == "NOUN" and (
                    before.dep_ in ("compound", "nmod", "appos") or ent.root.dep_ == "appos"):
                typ = "PERSON"  # "my boyfriend Callum", "my housemate, Priya": a role names a person
            add(text, typ, sent_of[first.i], span=(first.i, last.i + 1))
        covered.update(range(ent.start, ent.end))
    for chunk in doc.noun_chunks:
        if chunk.root.pos_ == "PRON" or chunk.root.lower_ in VAGUE or chunk.root.i in covered:
            continue
        if chunk.root.ent_type_ in ("DATE", "TIME") or chunk.root.like_num:
            continue
        trimmed = _trim(chunk)
        if trimmed is None:
            continue
        text, first, last = trimmed
        words = [t for t in doc[first.i: last.i + 1] if t.i not in covered]
        names = [t for t in words if t.pos_ == "PROPN"]
        if names and names[-1].i == last.i and len(names) < len(words):
            # "my housemate Joel": the name is the candidate; the role word stays in the sentence
            add(" ".join(t.text for t in names), "PERSON", sent_of[first.i], span=(names[0].i, last.i + 1))
            continue
        if len(words) < last.i + 1 - first.i and not names and words:
            continue  # "my boyfriend Callum" with Callum an entity: skip the role word
        if not words or words[-1].lower_ in VAGUE:
            continue
        nxt = doc[last.i + 1] if last.i + 1 < len(doc) else None
        if nxt is not None and (nxt.ent_type_ == "PERSON" or nxt.pos_ == "PROPN") and not names:
            continue  # "my neighbour Dora": Dora is the candidate
        contiguous = words[-1].i - words[0].i + 1 == len(words)
        text = doc[words[0].i: words[-1].i + 1].text if contiguous else " ".join(t.text for t in words)
        owner = speaker if chunk[0].lower_ in MY and len(words) == 1 and not names else None
        typ = "NAME" if names and len(names) == len(words) else "THING"
        if typ == "NAME" and chunk.root.dep_ == "appos" and chunk.root.head.pos_ == "NOUN":
            typ = "PERSON"  # "my housemate Joel"
        add(text, typ, sent_of[first.i], span=(words[0].i, words[-1].i + 1), owner=owner)
    for t in doc:
        if t.i in covered:
            continue
        if t.pos_ == "ADJ" and t.dep_ in ("acomp", "oprd") and t.head.lemma_ in ("be", "go", "become", "turn",
                                                                                 "get", "stay", "remain"):
            add(t.text, "VALUE", sent_of[t.i], span=(t.i, t.i + 1))
        elif t.tag_ == "VBG" and t.dep_ in ("xcomp", "dobj", "pcomp") and t.lemma_ not in ("do", "go", "get"):
            objs = [c for c in t.children if c.dep_ == "dobj" and c.i not in covered]
            end = objs[0].i + 1 if objs and objs[0].i - t.i <= 3 else t.i + 1
            add(doc[t.i: end].text, "ACTIVITY", sent_of[t.i], span=(t.i, end))
    for name in context_people:
        add(name, "PERSON", -1)
    return out


def candidate_lines(cands: Sequence[Candidate]) -> str:
    """How the candidates are shown to the model, one a line."""
    lines = []
    for c in cands:
        if c.key == "S":
            lines.append(f"S = {c.text} (the speaker: I, me, my, we)")
        elif c.type == "DATE":
            lines.append(f"{c.key} = {c.text} [DATE {c.when}]")
        else:
            said = f"my {c.text}" if c.owner else c.text
            lines.append(f"{c.key} = {said} [{c.type}]" + (" (earlier)" if c.sentence < 0 else ""))
    return "\n".join(lines)
