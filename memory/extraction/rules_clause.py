"""A clause under analysis: its tokens, noun phrases, time, and how facts are built from it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import cast

from memory.extraction import dates
from memory.extraction.candidates import iso_at_grain
from memory.extraction.rules_discourse import Discourse, Entity
from memory.extraction.rules_lexicon import ENTERED_FOR, category
from memory.extraction.rules_tokens import Phrase, Tok, noun_phrase
from memory.extraction.rules_tokens import conjuncts as _conjuncts
from memory.extraction.types import USER, ExtractedFact, Op
from memory.vocabulary import RELATIONS
from memory.words import ROLES, VAGUE

MULTI = frozenset(
    {
        "likes",
        "dislikes",
        "allergic_to",
        "plays",
        "practices",
        "speaks",
        "owns",
        "teaches",
        "studies",
        "visited",
        "lives_with",
    }
)
_PERSON_NOUNS = frozenset(
    ("woman", "man", "guy", "girl", "lady", "person", "someone", "chap", "bloke", "fellow", "boy", "lad", "lass",
     "fella", "gent", "gentleman")
)
# Objects that are no taste: the vague nouns, and what people say they like in passing ("I love your
# suggestion", "I like my job")
NOT_A_TASTE = VAGUE | frozenset(
    {"job", "work", "life", "suggestion", "suggestions", "answer", "answers", "help", "joke", "jokes"}
)
_TYPES = {
    "food": "FOOD",
    "activity": "ACTIVITY",
    "sport": "ACTIVITY",
    "game": "ACTIVITY",
    "instrument": "ACTIVITY",
    "car": "THING",
    "pet": "ANIMAL",
    "language": "TOPIC",
    "group": "ORG",
}


@dataclass
class Clause:
    """One clause of a sentence with what the handlers need around it."""

    source: str
    toks: list[Tok]
    lo: int
    hi: int
    evidence: str
    at: datetime
    turn: int
    disc: Discourse
    force_op: str | None = None
    out: list[ExtractedFact] = field(default_factory=list)

    @property
    def words(self) -> list[str]:
        return [t.lower for t in self.toks[self.lo : self.hi]]

    def text(self) -> str:
        return self.source[self.toks[self.lo].idx : self.toks[self.hi - 1].end]

    def time(self) -> dates.TimeRef | None:
        if self.hi <= self.lo:
            return None
        said = self.toks[self.lo : self.hi]
        return dates.resolve(self.text(), self.at, direction=dates.tense([(t.text, t.tag) for t in said]))

    def phrases(self, start: int, multi: bool) -> list[Phrase]:
        first = noun_phrase(self.source, self.toks, start, self.hi)
        if first is None:
            return []
        found = _conjuncts(self.source, self.toks, first, self.hi) if multi else [first]
        return [self.named(p) for p in found]

    def named(self, p: Phrase) -> Phrase:
        """'a woman named Helga' -> 'Helga'; 'an old Renault' -> 'Renault'."""
        t = self.toks
        if p.head.lower in _PERSON_NOUNS and p.end + 1 < self.hi and t[p.end].lower in ("named", "called"):
            q = noun_phrase(self.source, t, p.end + 1, self.hi)
            if q is not None and q.proper:
                return q
        if p.head.pos == "PROPN" and any(x.lower in ROLES for x in t[p.start : p.end - 1]):
            k = max(i for i in range(p.start, p.end - 1) if t[i].lower in ROLES) + 1  # "friend Ottilie"
            return Phrase(self.source[t[k].idx : t[p.end - 1].end], k, p.end, p.head)
        if p.head.pos == "PROPN":
            k = p.start
            while k < p.end - 1 and (t[k].text.islower() or t[k].tag == "HYPH") and (
                    t[k].pos == "ADJ" or (t[k].tag == "VBN" and t[k].dep == "amod") or t[k].tag == "HYPH"
                    or t[k + 1].tag == "HYPH" or (k > p.start and t[k - 1].tag == "HYPH")):  # "battered", "second-hand"
                k += 1
            if k > p.start:
                return Phrase(self.source[t[k].idx : t[p.end - 1].end], k, p.end, p.head)
        return p

    def emit(
        self,
        subj: Entity | str,
        rel: str,
        obj: str,
        op: str = "assert",
        *,
        obj_type: str | None = None,
        conf: float = 0.9,
        when: dates.TimeRef | None = None,
        timeless: bool = False,
        kind: str | None = None,
        label: str | None = None,
        every: bool = False,
    ) -> ExtractedFact | None:
        """Build a fact with types, time and evidence; record it in the discourse. `kind` "plan": intended, its
        time (if said) kept as `extra["when"]`, not as when it became true. `every`: an end without an object of a
        relation held with many (a death ends whom someone lived with)."""
        ent = subj if isinstance(subj, Entity) else Entity(subj, "PERSON")
        if ent.name.lower() == obj.lower() or (not obj.strip() and not (
                op == "end" and rel in RELATIONS and (RELATIONS[rel].single_valued or every))):
            return None  # an end without an object ends whatever the single value was ("I quit my job")
        when = None if timeless else when or self.time()
        if self.force_op:
            op = self.force_op
        if when is not None and when.when > self.at and op == "assert" and rel in ENTERED_FOR:
            kind = "plan"  # "Signed up for the London marathon next April": April is the marathon's
        plan = kind == "plan" and op == "assert"
        started = rel in ("works_at", "works_as") and any(  # ("First shift at Morrisons tomorrow")
            t.lem in ("start", "begin", "first") for t in self.toks[self.lo : self.hi])
        if when is not None and when.when > self.at and op == "assert" and not plan and not started:
            return None  # a plan, not a fact yet; a job started ahead ("I start at Screwfix on Monday") is one
        extra: dict[str, object] = {}
        if plan:
            extra |= {"kind": "plan", "when": iso_at_grain(when.when, when.grain) if when is not None else None}
            when = None
        vf = when.when if when is not None and op == "assert" else None
        vt = when.when if when is not None and op == "end" else None
        if obj_type is None:
            cat = category(obj)
            default = RELATIONS[rel].object_type if rel in RELATIONS else None
            obj_type = (
                _TYPES.get(cat or "") if rel in ("likes", "dislikes", "allergic_to", "is_a", "owns") else None
            ) or (str(default) if default else None)
        if ent.unresolved:
            extra["unresolved_role"] = ent.name
            conf = min(conf, 0.5)
        stype = ent.type if ent.name != USER else "PERSON"
        fact = ExtractedFact(
            ent.name,
            rel,
            obj,
            cast(Op, op),
            vf,
            vt,
            stype,
            obj_type,
            label,
            conf,
            self.evidence,
            self.turn,
            extra,
        )
        self.out.append(fact)
        self.disc.facts.append(fact)
        return fact
