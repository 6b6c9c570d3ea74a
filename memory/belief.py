"""Belief update as pure decisions (ERASE, scoped to a subject and relation): what a telling does to the arcs it meets.

No store and no clock here. The graph reads the arcs a telling touches, asks ``plan_assert`` / ``plan_end``
what to do, and runs the steps in its transaction; learning plans a conversation's facts with ``plan_facts``.
Every rule of belief update lives in this module, so it is table-tested without a database
(tests/memory/test_belief.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from memory.model import Arc
from memory.timeutil import to_epoch
from memory.vocabulary import Relation


@dataclass(frozen=True)
class Telling:
    """One telling of a fact, in epoch seconds."""

    now: float  # record time: when we heard it
    told: float  # when it was said: the decay clock
    valid_from: float
    valid_to: float | None
    sources: tuple[str, ...] = ()
    conversation: str | None = None
    confidence: float = 1.0
    label: str | None = None
    planned_for: str | None = None  # a plan's time, an ISO date at its grain


@dataclass(frozen=True)
class Reinforce:
    arc: Arc


@dataclass(frozen=True)
class Create:
    valid_to: float | None  # None: current; a time: stored as history


@dataclass(frozen=True)
class Close:
    arc: Arc
    valid_to: float
    reason: str


@dataclass(frozen=True)
class Expire:  # a retraction: it was never true
    arc: Arc
    reason: str


Step = Reinforce | Create | Close | Expire


def _close(a: Arc, valid_to: float, reason: str) -> Close:
    # never end a fact before it began: a correction told the same instant closes at its start
    return Close(a, max(valid_to, to_epoch(a.valid_from)), reason)


def plan_assert(existing: Sequence[Arc], opposite: Sequence[Arc], *, s_id: str, o_id: str, o_name: str,
                rel: Relation, p: Telling) -> list[Step]:
    """What telling ``s rel o`` does, given the subject's arcs of ``rel`` (for a symmetric relation also the
    object's arcs back to the subject) and the subject's arcs of the relation's opposite.

    - the same open fact (same ends, and for related_to the same label) is reinforced; a past fact whose span
      covers the new start is reinforced too; the same words heard again (a replay after a crash) change nothing;
    - otherwise it is created; for a single-valued relation the current other value is closed where the new
      one starts — unless that value started later, then the new one is history, closed at that start;
    - a current opposite (likes → dislikes) of the same object is closed.
    Steps come in the order they are to be run."""
    # an open fact's label says which fact it is; a role's ("husband" for spouse_of) only how it was said
    own = rel.name == "related_to"
    same = [a for a in existing if {a.subject_id, a.object_id} == {s_id, o_id} and (
        not own or (a.label or None) == p.label)]
    open_same = [a for a in same if a.valid_to is None]
    covering = [a for a in same if a.valid_to is not None and p.valid_to is not None
                and to_epoch(a.valid_from) <= p.valid_from < to_epoch(a.valid_to)]
    target = open_same[0] if open_same and p.valid_to is None else (covering[0] if covering else None)
    if target is not None and p.sources and set(p.sources) <= set(target.sources):
        return []
    steps: list[Step] = []
    if target is not None:
        steps.append(Reinforce(target))
    else:
        valid_to = p.valid_to
        others = [a for a in existing if a.valid_to is None and a.object_id != o_id]
        if rel.single_valued and valid_to is None:
            later = [a for a in others if to_epoch(a.valid_from) > p.valid_from]
            if later:  # a past value told after the current one: store it as history
                valid_to = min(to_epoch(a.valid_from) for a in later)
            else:
                steps += [_close(a, p.valid_from, f"{rel.name} is single-valued; now {o_name}") for a in others]
        steps.append(Create(valid_to))
    if rel.opposite and p.valid_to is None:
        steps += [_close(a, p.valid_from, f"now {rel.name}") for a in opposite
                  if a.object_id == o_id and a.valid_to is None]
    return steps


def plan_end(arcs: Iterable[Arc], *, object_ids: Iterable[str] | None, retract: bool, valid_to: float,
             reason: str) -> list[Step]:
    """Ending (``retract=False``: it was true until ``valid_to``) or taking back (``retract=True``: it was never
    true) the arcs that join the subject to one of ``object_ids`` (None: any object). An arc already ended is
    not ended again; a retraction also takes back a fact that has ended. Each arc at most once."""
    wanted = None if object_ids is None else set(object_ids)
    steps: list[Step] = []
    seen: set[str] = set()
    for a in arcs:
        if a.id in seen or (wanted is not None and not wanted & {a.object_id, a.subject_id}):
            continue
        seen.add(a.id)
        if retract:
            steps.append(Expire(a, reason))
        elif a.valid_to is None:
            steps.append(_close(a, valid_to, reason))
    return steps


# -- a conversation's facts ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Dates:
    valid_from: datetime | None
    valid_to: datetime | None


def dates_at(valid_from: datetime | None, valid_to: datetime | None, at: datetime) -> Dates:
    """A fact's world time as told at ``at``: nothing starts or ends after it was said; an end at or before the
    start (both clamped to ``at``) keeps the end and drops the start."""
    vf = min(valid_from, at) if valid_from else None
    vt = min(valid_to, at) if valid_to else None
    if vf and vt and vt <= vf:
        vf = None
    return Dates(vf, vt)


_OP_ORDER = {"retract": 0, "end": 1, "assert": 2}  # within a turn: take back, then end, then add


def order_key(at: datetime, turn: int, op: str) -> tuple[datetime, int, int]:
    """Facts are applied in the order they were said; within a turn, take back, then end, then add."""
    return (at, turn, _OP_ORDER.get(op, 3))
