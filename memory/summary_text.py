"""Entity summaries for recall prompts, pure: who is salient, and one short line from their current facts."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from memory.model import USER_ID, Arc
from memory.vocabulary import KINSHIP, RELATIONS

MAX_FACTS = 5
MAX_CHARS = 200  # ~50 prompt tokens a line; recall puts at most two lines in a prompt
# "X friend_of Y" reads "Y's friend": the relations that name a role one person has for another
ROLES = KINSHIP | {"friend_of", "neighbour_of", "colleague_of"}
_SINCE = re.compile(r" \(since \d{4}-\d{2}\)")


@dataclass(frozen=True)
class Salience:
    """How much memory holds on one entity: decayed weight of its current facts, and how often it came up."""

    id: str
    weight: float = 0.0  # sum of the decayed weights of its current arcs
    arcs: int = 0
    episodes: int = 0  # utterances that mention it
    conversations: int = 0  # distinct conversations among those

    @property
    def score(self) -> float:
        """Weight counts fully; being talked about counts by its logarithm (a hub of weak associations does not
        outrank a sister mentioned in forty conversations)."""
        return self.weight + math.log1p(self.episodes) + 2.0 * math.log1p(self.conversations)


def most_salient(found: Iterable[Salience], n: int) -> list[Salience]:
    """The ``n`` highest scores; ties broken by id so two nights with the same memory pick the same."""
    return sorted(found, key=lambda s: (-s.score, s.id))[: max(0, n)]


def _who(entity_id: str, name: str) -> str:
    return "the user" if entity_id == USER_ID else name


def _possessive(entity_id: str, name: str) -> str:
    return "the user's" if entity_id == USER_ID else (f"{name}'" if name.endswith("s") else f"{name}'s")


def _since(a: Arc) -> str:
    """A single-valued fact's start, to the month ("lives in Porto (since 2024-03)"): when it changed matters."""
    r = RELATIONS.get(a.relation)
    return f" (since {a.valid_from:%Y-%m})" if r is not None and r.single_valued and not r.symmetric else ""


def clause(a: Arc, entity_id: str, entity_name: str) -> str | None:
    """One fact as said about the entity: 'the user's sister', 'lives in Porto (since 2024-03)',
    'the user works at Brightwave'. None for an arc that does not touch the entity."""
    r = RELATIONS.get(a.relation)
    if a.subject_id == entity_id:
        other_id, other, outgoing = a.object_id, a.object, True
    elif a.object_id == entity_id:
        other_id, other, outgoing = a.subject_id, a.subject, False
    else:
        return None
    if a.relation in ROLES:
        role = a.relation.removesuffix("_of").replace("_", " ")
        if outgoing or (r is not None and r.symmetric):
            return f"{_possessive(other_id, other)} {role}"
        return f"{_who(other_id, other)} is {_possessive(entity_id, entity_name)} {role}"
    if outgoing or (r is not None and r.symmetric):
        return f"{a.relation_words} {_who(other_id, other)}{_since(a) if outgoing else ''}"
    return f"{_who(other_id, other)} {a.relation_words} {entity_name}"


def current(arcs: Iterable[Arc], now: datetime) -> list[Arc]:
    """Facts believed now with no end at all: an end set ahead ("in Paris until Friday") would let the line go
    stale by itself, so such facts stay out of summaries (recall still finds them)."""
    return [a for a in arcs if a.valid_to is None and a.expired_at is None and a.valid_from <= now
            and a.recorded_at <= now]


def compose(entity_id: str, name: str, type: str | None, arcs: Sequence[Arc], *, now: datetime,
            max_facts: int = MAX_FACTS, max_chars: int = MAX_CHARS) -> str | None:
    """'Anna (person): the user's sister; lives in Porto (since 2024-03); works at Brightwave.'

    From the current facts only, those with the user first (who someone is to the user), then by decayed
    weight; at most ``max_facts`` clauses and about ``max_chars`` characters. None when nothing is current."""
    facts = sorted(current(arcs, now), key=lambda a: (USER_ID not in (a.subject_id, a.object_id),
                                                      -(a.weight or 0.0), a.relation, a.id))
    head = f"{name} ({type.lower()})" if type and type != "THING" else name  # THING: type unknown
    clauses: list[str] = []
    for a in facts:
        c = clause(a, entity_id, name)
        if c is None or c in clauses:
            continue
        if clauses and len(_line(head, [*clauses, c])) > max_chars:
            break
        clauses.append(c)
        if len(clauses) >= max_facts:
            break
    return _line(head, clauses) if clauses else None


def _line(head: str, clauses: list[str]) -> str:
    return f"{head}: {'; '.join(clauses)}."


def undated(line: str) -> str:
    """The line without its "(since 2024-03)" parts: for a question not about time, as facts are given without
    their dates (every prompt token costs the small model ~20 ms on a small CPU)."""
    return _SINCE.sub("", line)


__all__ = ["MAX_CHARS", "MAX_FACTS", "Salience", "clause", "compose", "current", "most_salient", "undated"]
