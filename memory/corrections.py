"""The user's own corrections (review page, API): applied in one transaction with a record, and undone.

A correction retracts the wrong fact and asserts the right one; "no longer true" closes a fact. Each
keeps a :Correction node listing what it changed (kind and arc id, in order). Undoing the last one plays
that list backwards: a retracted arc is believed again, an added one is retracted (it stays in the
history, as every retraction does), a closed one is open again. A reinforcement cannot be told apart from
the tellings around it and stays. The record stays too, with when it was undone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memory import queries as Q
from memory.errors import InvalidInput, NotFound
from memory.model import Arc, Change
from memory.names import new_id
from memory.store import GraphTx, Row
from memory.timeutil import from_epoch, iso, to_epoch
from memory.vocabulary import relation

if TYPE_CHECKING:
    from memory.graph import TemporalGraph


@dataclass(frozen=True)
class Correction:
    id: str
    at: datetime
    kind: str  # "corrected" or "ended"
    arc_id: str  # the fact the user corrected or ended
    summary: str
    changes: tuple[tuple[str, str], ...]  # (kind, arc id) as applied
    undone_at: datetime | None = None

    @classmethod
    def from_row(cls, r: Row) -> Correction:
        return cls(id=r["id"], at=from_epoch(r["at"]), kind=r["kind"], arc_id=r["arc_id"],  # type: ignore[arg-type]
                   summary=r["summary"], changes=tuple(zip(r.get("kinds") or [], r.get("arcs") or [], strict=True)),
                   undone_at=from_epoch(r.get("undone_at")))

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "at": iso(self.at), "kind": self.kind, "arc_id": self.arc_id, "summary": self.summary,
                "changes": [{"kind": k, "arc_id": a} for k, a in self.changes], "undone_at": iso(self.undone_at)}


def _record(tx: GraphTx, kind: str, arc: Arc, summary: str, changes: list[Change], *, now: datetime) -> Correction:
    t = int(tx.run(Q.NEXT_T_INDEX)[0]["t"])
    cid = new_id("k")
    tx.run(Q.CREATE_CORRECTION, {"id": cid, "at": to_epoch(now), "t_index": t, "kind": kind, "arc_id": arc.id,
                                 "summary": summary, "kinds": [c.kind for c in changes],
                                 "arcs": [c.arc_id for c in changes], "undone_at": None})
    return Correction.from_row(tx.run(Q.CORRECTION_BY_ID, {"id": cid})[0])


def correct_fact(graph: TemporalGraph, old: Arc, rel: str, obj: str, *, label: str | None, now: datetime,
                 source: str) -> tuple[Correction, list[Change]]:
    """``old`` was wrong: retract it and assert ``rel obj`` from the same start, as one unit with its record."""
    with graph.store.transaction() as tx:
        changes = [graph.end_arc(old.id, now=now, retract=True, source=source,
                                 reason=f"corrected by the user: {rel} {obj}")]
        changes += graph.assert_fact(old.subject, rel, obj, now=now, valid_from=min(old.valid_from, now),
                                     valid_to=old.valid_to, told_at=now, label=label, source=source, confidence=1.0)
        summary = f"{old.subject} {old.relation} {old.object} → {rel} {obj}"
        return _record(tx, "corrected", old, summary, changes, now=now), changes


def end_fact(graph: TemporalGraph, arc_id: str, *, now: datetime, valid_to: datetime | None,
             source: str) -> tuple[Correction, Change]:
    """The user says the fact is no longer true: close it, with a record so it can be undone."""
    a = graph.arc(arc_id, now=now)
    with graph.store.transaction() as tx:
        ch = graph.end_arc(arc_id, now=now, valid_to=valid_to, source=source,
                           reason="the user said it is no longer true")
        return _record(tx, "ended", a, f"{a.subject} {a.relation} {a.object}: no longer true", [ch], now=now), ch


def corrections(graph: TemporalGraph, *, limit: int = 20) -> list[Correction]:
    """Newest first, undone ones included."""
    return [Correction.from_row(r) for r in graph.store.read(Q.CORRECTIONS_RECENT, {"limit": limit})]


def _arc(graph: TemporalGraph, arc_id: str, now: datetime) -> Arc | None:
    try:
        return graph.arc(arc_id, now=now)
    except NotFound:
        return None


def undo_last(graph: TemporalGraph, *, now: datetime) -> tuple[Correction, list[Change]]:
    """Undo the newest correction not undone yet; refuses when a later fact took the restored one's place."""
    rows = graph.store.read(Q.LAST_CORRECTION)
    if not rows:
        raise NotFound("there is no correction to undo", hint="corrections made on the review page are listed there")
    c = Correction.from_row(rows[0])
    arcs = {i: _arc(graph, i, now) for _, i in c.changes}
    plan: list[tuple[str, Arc]] = []
    for kind, i in reversed(c.changes):
        a = arcs[i]
        if a is None:
            if kind == "retracted":
                raise InvalidInput(f"the corrected fact ({c.summary}) was forgotten since; nothing to restore")
            continue  # an added fact forgotten since: nothing to take back
        if kind == "retracted" and a.expired_at is not None:
            plan.append(("restored", a))
        elif kind == "added" and a.expired_at is None:
            plan.append(("retracted", a))
        elif kind == "closed" and a.valid_to is not None and a.expired_at is None:
            plan.append(("reopened", a))
    going = {a.id for k, a in plan if k == "retracted"}
    for k, a in plan:  # a single-valued fact comes back only where nothing else holds its place now
        if k in ("restored", "reopened") and (a.valid_to is None or k == "reopened"):
            _check_free(graph, a, going | {x.id for _, x in plan}, now)
    changes: list[Change] = []
    with graph.store.transaction() as tx:
        t = int(tx.run(Q.NEXT_T_INDEX)[0]["t"])
        for k, a in plan:
            p = {"subject_id": a.subject_id, "id": a.id, "t": t}
            if k == "restored":
                tx.run(Q.UNEXPIRE_ARC, p)
            elif k == "retracted":
                tx.run(Q.EXPIRE_ARC, p | {"now": to_epoch(now), "sources": []})
            else:
                tx.run(Q.REOPEN_ARC, p)
            changes.append(Change("retracted" if k == "retracted" else "added", a.id, a.subject, a.relation, a.object,
                                  reason=f"undo of the correction {c.summary!r}: {k}"))
        tx.run(Q.MARK_CORRECTION_UNDONE, {"id": c.id, "now": to_epoch(now)})
    return Correction.from_row(graph.store.read(Q.CORRECTION_BY_ID, {"id": c.id})[0]), changes


def _check_free(graph: TemporalGraph, a: Arc, leaving: set[str], now: datetime) -> None:
    try:
        single = relation(a.relation).single_valued
    except InvalidInput:
        return
    if not single:
        return
    others = [x for x in graph.history_of(a.subject_id, a.relation, now=now)
              if x.id not in leaving and x.current and x.object_id != a.object_id]
    if others:
        raise InvalidInput(f"cannot undo: {a.subject} {a.relation} {others[0].object} holds that place now",
                           hint="correct that fact instead")


__all__ = ["Correction", "correct_fact", "corrections", "end_fact", "undo_last"]
