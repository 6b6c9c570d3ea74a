"""TemporalGraph: the memory's operations over any GraphStore — upsert, reinforce, close, history, recall."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from memory import queries as Q
from memory.belief import Close, Create, Reinforce, Step, Telling, plan_assert, plan_end
from memory.decay import DecayModel
from memory.errors import InvalidInput, NotFound
from memory.model import USER_ID, Arc, Change, Entity
from memory.names import clean_name, new_id, normalize
from memory.pruning import Pacer, by_cost
from memory.redact import MARKER, refuse_marker
from memory.store import GraphStore, GraphTx
from memory.summaries import drop, refresh
from memory.text import require_text
from memory.timeutil import grain_span, to_epoch
from memory.vocabulary import RELATIONS, EntityType, Relation, relation
from memory.words import USER_KEYS

PRUNABLE = ["related_to", "knows"]  # associations; believed facts are never pruned
Progress = Callable[[str, int, int], None]  # (step, done, total)


@dataclass
class ConsolidationReport:
    """What one consolidation did: pruned, merged (with evidence), closed, added; and how long each step took."""

    id: str | None = None  # once stored in the graph (memory/reports.py)
    pruned_arcs: list[str] = field(default_factory=list)
    removed_entities: list[str] = field(default_factory=list)
    merged: list[dict[str, Any]] = field(default_factory=list)  # MergeRecord.to_json()
    left_alone: list[dict[str, Any]] = field(default_factory=list)  # candidates not merged, with the reason
    closed: list[dict[str, Any]] = field(default_factory=list)  # Change.to_json() of facts it ended
    added: list[dict[str, Any]] = field(default_factory=list)  # ... and of facts it learned
    relearning: str = "skipped: re-learning the day's conversations needs the language model"
    prune_deferred: int = 0  # faded arcs left for the next night when the time budget ran out
    summaries: int = 0  # salient entities whose recall summary was composed again
    timings_s: dict[str, float] = field(default_factory=dict)

    @property
    def merged_entities(self) -> list[tuple[str, str]]:
        return [(m["loser"], m["survivor"]) for m in self.merged]

    def summary(self) -> dict[str, Any]:
        """Counts only (no names): what /health and `assistant doctor` show."""
        return {"report": self.id, "pruned_arcs": len(self.pruned_arcs),
                "removed_entities": len(self.removed_entities), "merged": len(self.merged),
                "left_alone": len(self.left_alone), "closed": len(self.closed), "added": len(self.added),
                "prune_deferred": self.prune_deferred, "summaries": self.summaries, "timings_s": self.timings_s}

    def to_json(self) -> dict[str, Any]:
        return {"pruned_arcs": len(self.pruned_arcs), "prune_deferred": self.prune_deferred,
                "removed_entities": len(self.removed_entities),
                "merged": self.merged, "left_alone": self.left_alone, "closed": self.closed, "added": self.added,
                "relearning": self.relearning, "summaries": self.summaries, "timings_s": self.timings_s}


@dataclass(frozen=True)
class Relearning:
    """What the nightly re-learning did: a line for the report, the changes it made, how long it took."""

    status: str
    changes: tuple[Change, ...] = ()
    seconds: float = 0.0


def _entity_type(value: str | None, default: EntityType = EntityType.THING) -> str:
    if not value:
        return default.value
    try:
        return EntityType(value.upper()).value
    except ValueError:
        return default.value


class TemporalGraph:
    """All writes are transactions; every temporal argument is explicit (``now`` is never read here)."""

    def __init__(self, store: GraphStore, decay: DecayModel | None = None, *, user_name: str = "User") -> None:
        self.store = store
        self.decay = decay or DecayModel()
        self.user_name = user_name

    # -- entities ---------------------------------------------------------------------------
    def ensure_user(self, now: datetime) -> Entity:
        rows = self.store.read(Q.ENTITY_BY_ID, {"id": USER_ID})
        if rows:
            return Entity.from_row(rows[0])
        with self.store.transaction() as tx:
            t = self._tick(tx)
            keys = sorted({*USER_KEYS, normalize(self.user_name)})
            row = tx.run(Q.CREATE_ENTITY, {"id": USER_ID, "name": self.user_name, "type": "PERSON",
                                           "key": normalize(self.user_name), "aliases": [], "keys": keys,
                                           "is_user": True,
                                           "now": to_epoch(now), "t": t})[0]
        return Entity.from_row(row)

    def find_entity(self, name_or_id: str) -> Entity | None:
        """By id, name or alias (normalised); ``user``/``me``/``I`` in any case is the user."""
        if not name_or_id or not name_or_id.strip():
            return None
        rows = self.store.read(Q.ENTITY_BY_ID, {"id": name_or_id.strip()})
        if not rows:
            key = normalize(name_or_id)
            rows = (self.store.read(Q.ENTITY_BY_NAME_KEY, {"key": key})
                    or self.store.read(Q.ENTITY_BY_KEY, {"key": key})) if key else []
        return Entity.from_row(rows[0]) if rows else None

    def names_someone(self, word: str) -> bool:
        """``word`` is the name (or an alias) of a person or an animal in memory, not the user's."""
        e = self.find_entity(word) if word.strip().lower() not in USER_KEYS else None
        return e is not None and not e.is_user and e.type in ("PERSON", "ANIMAL")

    def require_entity(self, name_or_id: str) -> Entity:
        e = self.find_entity(name_or_id)
        if e is None:
            raise NotFound(f"nothing in memory is called {name_or_id!r}",
                           hint="`assistant memory show` lists what is known")
        return e

    def entities(self) -> list[Entity]:
        return [Entity.from_row(r) for r in self.store.read(Q.ALL_ENTITIES)]

    def entity_keys(self) -> list[dict[str, Any]]:
        return self.store.read(Q.ENTITY_KEYS)

    def upsert_entity(
        self, name: str, *, now: datetime, type: str | None = None, aliases: Iterable[str] = ()
    ) -> Entity:
        with self.store.transaction() as tx:
            return self._upsert(tx, name, now=now, type=type, aliases=aliases, t=self._tick(tx))

    def _upsert(
        self, tx: GraphTx, name: str, *, now: datetime, type: str | None, aliases: Iterable[str], t: int
    ) -> Entity:
        name = clean_name(require_text(name, "an entity name"))
        refuse_marker(name)
        key = normalize(name)
        if not key:
            raise InvalidInput("an entity needs a name", hint="empty or punctuation-only names are refused")
        if key in USER_KEYS or key == normalize(self.user_name):
            rows = tx.run(Q.ENTITY_BY_ID, {"id": USER_ID})
        else:  # the indexed canonical key first; aliases (a list property) only when that misses
            rows = tx.run(Q.ENTITY_BY_NAME_KEY, {"key": key}) or tx.run(Q.ENTITY_BY_KEY, {"key": key})
        alias_set = {clean_name(a) for a in aliases if normalize(a) and MARKER not in a}
        if rows:
            old = Entity.from_row(rows[0])
            if name != old.name and not old.is_user and normalize(name) != normalize(old.name):
                alias_set.add(name)
            merged = tuple(sorted(set(old.aliases) | {a for a in alias_set if a != old.name}))
            keys = sorted({normalize(old.name), *(normalize(a) for a in merged),
                           *(USER_KEYS if old.is_user else ())})
            new_type = old.type
            if type and (old.type == EntityType.THING.value or not old.type):
                new_type = _entity_type(type)
            row = tx.run(Q.TOUCH_ENTITY, {"id": old.id, "name": old.name, "aliases": list(merged),
                                          "keys": keys, "type": new_type, "now": to_epoch(now), "t": t})[0]
            return Entity.from_row(row)
        merged = tuple(sorted(a for a in alias_set if a != name))
        keys = sorted({key, *(normalize(a) for a in merged)})
        row = tx.run(Q.CREATE_ENTITY, {"id": new_id("e", name), "name": name, "type": _entity_type(type),
                                       "key": key, "aliases": list(merged), "keys": keys, "is_user": False,
                                       "now": to_epoch(now), "t": t})[0]
        return Entity.from_row(row)

    # -- arcs -------------------------------------------------------------------------------
    def assert_fact(
        self,
        subject: str,
        rel: str,
        obj: str,
        *,
        now: datetime,
        valid_from: datetime | None = None,
        valid_to: datetime | None = None,
        source: str | None = None,
        conversation: str | None = None,
        confidence: float = 1.0,
        label: str | None = None,
        subject_type: str | None = None,
        object_type: str | None = None,
        subject_aliases: Sequence[str] = (),
        object_aliases: Sequence[str] = (),
        told_at: datetime | None = None,
        planned_for: str | None = None,
    ) -> list[Change]:
        """Add the fact or reinforce it; a single-valued relation closes the subject's previous value.

        ``now`` is record time (when we heard it); ``valid_from`` is when it became true (default now).
        ``told_at`` is when it was said (default now): decay counts from there, so a fact told a year ago
        and typed in today has already faded by a year.
        A fact that starts before the current value of a single-valued relation is history: it is
        stored closed at the current value's start instead of closing the current value.
        ``planned_for``: the fact is a plan for that time, an ISO date at its grain ("2026-06", "2026-W21");
        consolidation closes it once that time has passed.
        """
        r = relation(rel)
        if label:
            require_text(label, "the label")
        if r.name == "related_to" and not (label and label.strip()):
            raise InvalidInput("related_to needs a label saying how the two are related")
        vf = valid_from or now
        if valid_to is not None and valid_to <= vf:
            raise InvalidInput("a fact cannot end before it starts")
        if vf > now:
            raise InvalidInput(
                f"the fact would start in the future ({vf.isoformat()} is after {now.isoformat()})",
                hint="facts are recorded when they are true or were true; give --at in the past",
            )
        if not 0.0 <= confidence <= 1.0:
            raise InvalidInput("confidence must be between 0 and 1")
        if planned_for is not None and grain_span(planned_for) is None:
            raise InvalidInput(f"cannot read {planned_for!r} as a planned time",
                               hint="an ISO date at its grain: 2026, 2026-06, 2026-W21 or 2026-06-14")
        told = told_at or now
        if told > now:
            raise InvalidInput(f"a fact cannot be told in the future ({told.isoformat()} is after {now.isoformat()})")
        p = Telling(now=to_epoch(now), told=to_epoch(told), valid_from=to_epoch(vf),
                    valid_to=None if valid_to is None else to_epoch(valid_to),
                    sources=(source,) if source else (), conversation=conversation,
                    confidence=confidence, label=label.strip() if label else None,
                    planned_for=planned_for.strip() if planned_for else None)
        with self.store.transaction() as tx:
            t = self._tick(tx)
            s = self._upsert(tx, subject, now=now, type=subject_type, aliases=subject_aliases, t=t)
            o = self._upsert(tx, obj, now=now,
                             type=object_type or (r.object_type.value if r.object_type else None),
                             aliases=object_aliases, t=t)
            if s.id == o.id:
                raise InvalidInput(f"{s.name} cannot be {r.name} itself")
            return self._assert(tx, s, r, o, p, t)

    def _arcs_of(self, tx: GraphTx, subject_id: str, rel: str, now: float) -> list[Arc]:
        return [Arc.from_row(x) for x in tx.run(Q.ARCS_OF, {"subject_id": subject_id, "relation": rel,
                                                            "now": now})]

    def _assert(self, tx: GraphTx, s: Entity, r: Relation, o: Entity, p: Telling, t: int) -> list[Change]:
        existing = self._arcs_of(tx, s.id, r.name, p.now)
        if r.symmetric:
            existing += [a for a in self._arcs_of(tx, o.id, r.name, p.now) if a.object_id == s.id]
        opposite = self._arcs_of(tx, s.id, r.opposite, p.now) if r.opposite else []
        return self._run(tx, plan_assert(existing, opposite, s_id=s.id, o_id=o.id, o_name=o.name, rel=r, p=p),
                         p, t, s=s, r=r, o=o)

    def _run(self, tx: GraphTx, steps: Sequence[Step], p: Telling, t: int, *, s: Entity | None = None,
             r: Relation | None = None, o: Entity | None = None) -> list[Change]:
        """Run a belief update's steps (memory/belief.py decides them) in the caller's transaction."""
        changes: list[Change] = []
        for step in steps:
            if isinstance(step, Reinforce):
                changes.append(self._reinforce(tx, step.arc, p, t))
            elif isinstance(step, Create):
                assert s is not None and r is not None and o is not None
                changes.append(self._create(tx, s, r, o, p, t, step.valid_to))
            elif isinstance(step, Close):
                a = step.arc
                tx.run(Q.CLOSE_ARC, {"subject_id": a.subject_id, "id": a.id, "valid_to": step.valid_to,
                                     "now": p.now, "t": t, "sources": list(p.sources)})
                changes.append(Change("closed", a.id, a.subject, a.relation, a.object, reason=step.reason))
            else:
                a = step.arc
                tx.run(Q.EXPIRE_ARC, {"subject_id": a.subject_id, "id": a.id, "now": p.now, "t": t,
                                      "sources": list(p.sources)})
                changes.append(Change("retracted", a.id, a.subject, a.relation, a.object, reason=step.reason))
        return changes

    def _create(self, tx: GraphTx, s: Entity, r: Relation, o: Entity, p: Telling, t: int,
                valid_to: float | None) -> Change:
        row = tx.run(Q.CREATE_ARC, {
            "subject_id": s.id, "object_id": o.id, "id": new_id("a"), "relation": r.name, "label": p.label,
            "strength": self.decay.initial_strength * p.confidence,
            "decay_rate": self.decay.initial_rate(r.decay), "conversations": 1 if p.conversation else 0,
            "conversation_ids": [p.conversation] if p.conversation else [], "now": p.now, "told": p.told,
            "valid_from": p.valid_from, "valid_to": valid_to, "closed_at": None if valid_to is None else p.now,
            "t": t, "confidence": p.confidence, "sources": list(p.sources), "planned_for": p.planned_for,
        })[0]
        return Change("added", row["id"], s.name, r.name, o.name,
                      reason="" if valid_to is None else "as history")

    def _reinforce(self, tx: GraphTx, a: Arc, p: Telling, t: int) -> Change:
        conv_ids = list(a.conversation_ids)
        new_conv = p.conversation is not None and p.conversation not in conv_ids
        last = to_epoch(a.last_reinforced)
        strength, rate = self.decay.reinforce(a.strength, a.decay_rate, last, p.told,
                                              new_conversation=new_conv and bool(conv_ids))
        if p.conversation is not None and new_conv:
            conv_ids.append(p.conversation)
        sources = list(a.sources) + [x for x in p.sources if x not in a.sources]
        tx.run(Q.REINFORCE_ARC, {"subject_id": a.subject_id, "id": a.id, "strength": strength,
                                 "decay_rate": rate, "now": p.now, "told": max(last, p.told),
                                 "conversations": len(conv_ids),
                                 "conversation_ids": conv_ids, "sources": sources, "t": t,
                                 "confidence": max(a.confidence, p.confidence), "planned_for": p.planned_for})
        return Change("reinforced", a.id, a.subject, a.relation, a.object,
                      extra={"strength": round(strength, 3)})

    def close_fact(
        self, subject: str, rel: str, obj: str | None, *, now: datetime, valid_to: datetime | None = None,
        source: str | None = None, reason: str = "no longer true",
    ) -> list[Change]:
        """End the open arc(s) of subject+relation(+object) at ``valid_to`` (default now); keep them."""
        return self._end(subject, rel, obj, now=now, valid_to=valid_to, source=source, reason=reason,
                         retract=False)

    def retract_fact(
        self, subject: str, rel: str, obj: str | None, *, now: datetime, source: str | None = None,
        reason: str = "retracted",
    ) -> list[Change]:
        """Mark the arc(s) as never having been true (a correction); history keeps them, recall doesn't."""
        return self._end(subject, rel, obj, now=now, valid_to=None, source=source, reason=reason,
                         retract=True)

    def end_arc(self, arc_id: str, *, now: datetime, valid_to: datetime | None = None, retract: bool = False,
                source: str | None = None, reason: str = "no longer true") -> Change:
        """Close one arc at ``valid_to`` (default now), or retract it (it was never true); history keeps it."""
        a = self.arc(arc_id, now=now)
        if a.expired_at is not None:
            raise InvalidInput(f"the fact {a.subject} {a.relation} {a.object} was already retracted")
        if not retract and a.valid_to is not None:
            raise InvalidInput(f"the fact {a.subject} {a.relation} {a.object} already ended "
                               f"({a.valid_to.date().isoformat()})")
        if valid_to is not None and valid_to > now:
            raise InvalidInput("a fact cannot be ended in the future")
        return self.end_arcs([a], now=now, valid_to=valid_to, retract=retract, source=source, reason=reason)[0]

    def end_arcs(self, arcs: Sequence[Arc], *, now: datetime, valid_to: datetime | None = None,
                 retract: bool = False, source: str | None = None, reason: str = "no longer true") -> list[Change]:
        """End these arcs at ``valid_to`` (default now) or retract them, in one transaction; an arc already
        ended is not ended again (memory/belief.py: plan_end)."""
        p = _telling_now(now, source)
        vt = to_epoch(valid_to) if valid_to else p.now
        with self.store.transaction() as tx:
            t = self._tick(tx)
            return self._run(tx, plan_end(arcs, object_ids=None, retract=retract, valid_to=vt, reason=reason), p, t)

    def _end(self, subject: str, rel: str, obj: str | None, *, now: datetime, valid_to: datetime | None,
             source: str | None, reason: str, retract: bool) -> list[Change]:
        r = relation(rel)
        s = self.find_entity(subject)
        o = self.find_entity(obj) if obj else None
        if s is None or (obj and o is None):
            return []
        p = _telling_now(now, source)
        with self.store.transaction() as tx:
            t = self._tick(tx)
            arcs = self._arcs_of(tx, s.id, r.name, p.now)
            if r.symmetric and o is not None:
                arcs += [a for a in self._arcs_of(tx, o.id, r.name, p.now) if a.object_id == s.id]
            steps = plan_end(arcs, object_ids=None if o is None else [o.id], retract=retract,
                             valid_to=to_epoch(valid_to) if valid_to else p.now, reason=reason)
            return self._run(tx, steps, p, t)

    def _tick(self, tx: GraphTx) -> int:
        return int(tx.run(Q.NEXT_T_INDEX)[0]["t"])

    # -- reading ----------------------------------------------------------------------------
    def arc(self, arc_id: str, *, now: datetime) -> Arc:
        rows = self.store.read(Q.ARC_BY_ID, {"id": arc_id, "now": to_epoch(now)})
        if not rows:
            raise NotFound(f"no arc with id {arc_id!r}")
        return Arc.from_row(rows[0])

    def arcs_of_entity(self, entity_id: str, *, now: datetime) -> list[Arc]:
        p = {"id": entity_id, "now": to_epoch(now)}
        return [Arc.from_row(r) for r in self.store.read(Q.ARCS_OUT, p) + self.store.read(Q.ARCS_IN, p)]

    def all_arcs(self, *, now: datetime) -> list[Arc]:
        return [Arc.from_row(r) for r in self.store.read(Q.ALL_ARCS, {"now": to_epoch(now)})]

    def history(self, subject: str, rel: str | None = None, *, now: datetime) -> list[Arc]:
        """Every arc of the subject (and relation), closed and retracted included, oldest first."""
        s = self.require_entity(subject)
        relname = relation(rel).name if rel else None
        return [Arc.from_row(r) for r in self.store.read(
            Q.HISTORY, {"subject_id": s.id, "relation": relname, "now": to_epoch(now)})]

    def history_of(self, subject_id: str, rel: str | None, *, now: datetime) -> list[Arc]:
        """history() by entity id, as known at record time ``now`` (closes learned later are hidden)."""
        relname = relation(rel).name if rel else None
        arcs = [Arc.from_row(r) for r in self.store.read(
            Q.HISTORY, {"subject_id": subject_id, "relation": relname, "now": to_epoch(now)})]
        return [_plan_over(_as_known(a, now), now) for a in arcs if a.recorded_at <= now]

    def history_to(self, object_id: str, rel: str, *, now: datetime) -> list[Arc]:
        """history_of() of the arcs of one relation into an entity ("Marcus partner_of User"), as known at ``now``."""
        arcs = [Arc.from_row(r) for r in self.store.read(
            Q.HISTORY_TO, {"object_id": object_id, "relation": relation(rel).name, "now": to_epoch(now)})]
        return [_plan_over(_as_known(a, now), now) for a in arcs if a.recorded_at <= now]

    def facts_at(self, at: datetime, *, now: datetime | None = None, entity: str | None = None) -> list[Arc]:
        """Facts true in the world at ``at``, as believed at record time ``now`` (default: ``at``)."""
        p = {"at": to_epoch(at), "now": to_epoch(now or at)}
        if entity is None:
            rows = self.store.read(Q.FACTS_AT, p)
        else:
            rows = self.store.read(Q.FACTS_OF_AT, {**p, "id": self.require_entity(entity).id})
        return _true_at([_as_known(Arc.from_row(r), now or at) for r in rows], at)

    def lookup(
        self, subject_id: str | None = None, rel: str | None = None, object_id: str | None = None, *,
        at: datetime, now: datetime | None = None, limit: int = 50,
    ) -> list[Arc]:
        """Partial-triplet query (RET-LLM): any slot may be None."""
        p = {"subject_id": subject_id, "relation": relation(rel).name if rel else None,
             "object_id": object_id, "at": to_epoch(at), "now": to_epoch(now or at), "limit": limit}
        if bool(subject_id) != bool(object_id) and not rel:  # everything around one entity: ids, then fields
            ids_q, winners_q = ((Q.LOOKUP_S_ANY_IDS, Q.LOOKUP_S_ANY_WINNERS) if subject_id
                                else (Q.LOOKUP_O_ANY_IDS, Q.LOOKUP_O_ANY_WINNERS))
            ids = [r["id"] for r in self.store.read(ids_q, p)]
            rows = self.store.read(winners_q, p | {"ids": ids}) if ids else []
            return _true_at([_as_known(Arc.from_row(r), now or at) for r in rows], at)
        if subject_id and object_id:
            q = Q.LOOKUP_SO if rel else Q.LOOKUP_SO_ANY
        elif subject_id:
            q = Q.LOOKUP_S
        elif object_id:
            q = Q.LOOKUP_O
        elif rel:
            q = Q.LOOKUP_R
        else:
            raise InvalidInput("a lookup needs at least one of subject, relation, object")
        return _true_at([_as_known(Arc.from_row(r), now or at) for r in self.store.read(q, p)], at)

    def lookup_many(self, ids: Sequence[str], rel: str, *, incoming: bool = False, at: datetime,
                    now: datetime | None = None, limit: int = 50) -> list[Arc]:
        """``lookup`` of one relation from (or, ``incoming``, to) each of ``ids``, in one read: the strongest
        ``limit`` per entity asked (at most), strongest first."""
        if not ids:
            return []
        unique = list(dict.fromkeys(ids))
        p = {"ids": unique, "relation": relation(rel).name, "at": to_epoch(at), "now": to_epoch(now or at),
             "limit": limit * len(unique)}
        rows = self.store.read(Q.LOOKUP_O_MANY if incoming else Q.LOOKUP_S_MANY, p)
        return _true_at([_as_known(Arc.from_row(r), now or at) for r in rows], at)

    def role_arcs(self, rel: str, *, at: datetime) -> list[Arc]:
        """The arcs by which someone holds a role toward the user ('sister_of' -> Anna sister_of user): a
        symmetric role read both ways; reports_to is the user's own arc (the user reports to the boss)."""
        r = relation(rel).name
        if r == "reports_to":
            return self.lookup(USER_ID, r, None, at=at)
        arcs = self.lookup(None, r, USER_ID, at=at)
        return arcs + self.lookup(USER_ID, r, None, at=at) if relation(r).symmetric else arcs

    def arcs_from_sources(self, source_ids: Sequence[str], *, now: datetime) -> list[Arc]:
        """Facts whose provenance includes one of these episodes, as believed at ``now``: found through the
        entities the episodes are linked to (MENTIONS), which learning sets for the ends of every fact."""
        if not source_ids:
            return []
        rows = self.store.read(Q.ARCS_FROM_EPISODES, {"ids": list(source_ids), "now": to_epoch(now),
                                                      "user": USER_ID})
        return [_plan_over(_as_known(Arc.from_row(r), now), now) for r in rows]

    def neighbourhood(
        self, entity_ids: Sequence[str], *, at: datetime, now: datetime | None = None, hops: int = 2,
        limit: int = 10,
    ) -> list[Arc]:
        """Arcs within ``hops`` (1 or 2) of the seeds, true at ``at``, by decayed weight."""
        if not entity_ids:
            return []
        q = Q.NEIGHBOURHOOD_1 if hops <= 1 else Q.NEIGHBOURHOOD_2
        p = {"ids": list(entity_ids), "at": to_epoch(at), "now": to_epoch(now or at), "limit": limit}
        return _true_at([_as_known(Arc.from_row(r), now or at) for r in self.store.read(q, p)], at)

    def around(
        self, entity_ids: Sequence[str], *, at: datetime, now: datetime | None = None, hops: int = 2,
        limit: int = 10, beam: int = 4, per_node: int = 12, hub: int = 500,
    ) -> list[Arc]:
        """λ-hop recall with a beam: each hop expands only the ``beam`` strongest new neighbours.

        Bounded cost (2 + 2·beam index-anchored queries for two hops) even around hubs such as the user,
        where the exact ``neighbourhood`` walks everything; ranked by decayed weight like it. A neighbour with more
        than ``hub`` arcs is not expanded (its strongest facts are about others, and ranking them walks them all:
        ~25 ms for one with 7k arcs at 100k); the seeds always are.
        """
        found: dict[str, Arc] = {}
        frontier = list(dict.fromkeys(entity_ids))
        if len(frontier) > 1 and USER_ID in frontier:
            frontier.remove(USER_ID)  # the hub: its facts come from relation-filtered lookups instead
        seen = set(frontier)
        for hop in range(max(1, hops)):
            layer: list[Arc] = []
            for e in frontier:
                layer += self.lookup(e, None, None, at=at, now=now, limit=per_node)
                layer += self.lookup(None, None, e, at=at, now=now, limit=per_node)
            for a in layer:
                found.setdefault(a.id, a)
            if hop + 1 >= hops:
                break
            nxt: dict[str, float] = {}
            for a in sorted(layer, key=lambda a: -(a.weight or 0.0)):
                for other in (a.subject_id, a.object_id):
                    if other not in seen and other != USER_ID:
                        nxt[other] = max(nxt.get(other, 0.0), a.weight or 0.0)
            ranked = sorted(nxt, key=lambda i: -nxt[i])[: beam * 3]
            degree = {r["id"]: r["n"] for r in self.store.read(Q.DEGREES, {"ids": ranked})} if ranked else {}
            frontier = [i for i in ranked if degree.get(i, 0) <= hub][:beam]
            seen.update(frontier)
        return sorted(found.values(), key=lambda a: -(a.weight or 0.0))[:limit]

    # -- forgetting and housekeeping ---------------------------------------------------------
    def forget_entity(self, name_or_id: str) -> list[str]:
        """Hard delete (privacy): the entity, its arcs and their provenance. Returns deleted arc ids."""
        e = self.require_entity(name_or_id)
        with self.store.transaction() as tx:
            self._tick(tx)
            drop(tx)  # a line of another entity may name it
            if e.is_user:  # the user stays; everything known about them goes
                return [r["id"] for r in tx.run(Q.DELETE_ARCS_OF, {"id": USER_ID})]
            rows = tx.run(Q.DELETE_ENTITY, {"id": e.id})
        return [i for i in (rows[0]["arcs"] if rows else []) if i]

    def forget_arc(self, arc_id: str) -> list[str]:
        with self.store.transaction() as tx:
            self._tick(tx)
            drop(tx)  # a deleted arc leaves no newer index behind: the lines that said it would look fresh
            n = tx.run(Q.DELETE_ARC, {"id": arc_id})
        if not n or not n[0].get("n"):
            raise NotFound(f"no arc with id {arc_id!r}", hint="`assistant memory show ENTITY --json` lists ids")
        return [arc_id]

    def consolidate(self, *, now: datetime, threshold: float = 0.02, min_confidence: float = 0.3,
                    merge: bool = True, progress: Progress | None = None, prune_batch: int = 2000,
                    prune_budget_s: float = 18.0, prune_batch_s: float = 0.1,
                    relearned: Relearning | None = None, summaries: int = 50) -> ConsolidationReport:
        """Nightly tidy-up: prune faded associations and disbelieved arcs, drop orphans, merge duplicates, and
        compose the recall summaries of the ``summaries`` most salient entities again (memory/summaries.py).

        ``progress(step, done, total)`` is told as each step starts and ends (a progress bar, a log). Faded arcs
        are deleted cheapest first (memory/pruning.py), at most ``prune_batch`` and about ``prune_batch_s`` of
        work per transaction; what is left when ``prune_budget_s`` is spent waits for the next night
        (``report.prune_deferred``). ``relearned``: what re-learning the day's conversations did just before
        (the caller's: it needs a language model), for the report."""
        from memory.merges import merge_duplicates  # late: both import this module
        from memory.reports import save_report

        def step(name: str, done: int, total: int) -> None:
            if progress is not None:
                progress(name, done, total)

        report = ConsolidationReport()
        if relearned is not None:
            report.relearning = relearned.status
            report.added = [c.to_json() for c in relearned.changes if c.kind == "added"]
            report.closed = [c.to_json() for c in relearned.changes if c.kind in ("closed", "retracted")]
            report.timings_s["relearn"] = round(relearned.seconds, 3)
        t0 = time.perf_counter()
        rows = self.store.read(Q.PRUNE_CANDIDATES, {
            "now": to_epoch(now), "threshold": threshold, "prunable": PRUNABLE, "min_confidence": min_confidence})
        ends = sorted({str(r[k]) for r in rows for k in ("subject", "object")})
        degrees = {str(r["id"]): int(r["degree"]) for r in self.store.read(Q.ARC_DEGREES, {"ids": ends})}
        todo = by_cost(rows, degrees)
        pacer = Pacer(budget_s=prune_budget_s, batch_s=prune_batch_s, max_arcs=prune_batch)
        at = 0
        step("prune faded arcs", 0, len(todo))
        while n := pacer.take(todo[at:at + prune_batch], time.perf_counter() - t0):
            batch = todo[at:at + n]
            tb = time.perf_counter()
            with self.store.transaction() as tx:
                self._tick(tx)
                report.pruned_arcs += [r["id"] for r in tx.run(Q.PRUNE_ARCS, {
                    "subjects": sorted({f.subject for f in batch}), "ids": [f.id for f in batch]})]
            pacer.done(batch, time.perf_counter() - tb)
            at += n
            step("prune faded arcs", at, len(todo))
        report.prune_deferred = len(todo) - at
        step("close passed plans", 0, 1)
        report.closed += [c.to_json() for c in self.close_passed_plans(now=now)]
        step("close passed plans", 1, 1)
        step("drop orphans", 0, 1)
        with self.store.transaction() as tx:
            self._tick(tx)
            report.removed_entities = [r["id"] for r in tx.run(Q.DELETE_ORPHANS)]
        step("drop orphans", 1, 1)
        t1 = time.perf_counter()
        report.timings_s["prune"] = round(t1 - t0, 3)
        if merge:
            step("merge duplicates", 0, 1)
            done, left = merge_duplicates(self, now=now, progress=progress)
            report.merged = [m.to_json() for m in done]
            report.left_alone = [d.to_json() for d in left]
            report.timings_s["merge"] = round(time.perf_counter() - t1, 3)
        t2 = time.perf_counter()
        step("summarise salient entities", 0, 1)
        report.summaries = refresh(self, now=now, n=summaries)
        step("summarise salient entities", 1, 1)
        report.timings_s["summaries"] = round(time.perf_counter() - t2, 3)
        report.id = save_report(self, report.to_json(), now=now)
        return report

    def close_passed_plans(self, *, now: datetime) -> list[Change]:
        """A plan whose time is over ("flying to Rome in June", now July) is no longer a plan: it is closed at
        the end of its time, kept as history; whether it happened is what was said afterwards."""
        changes: list[Change] = []
        for row in self.store.read(Q.OPEN_PLANS, {"now": to_epoch(now)}):
            a = Arc.from_row(row)
            over = _plan_over(a, now).valid_to  # the end of its time, once that is past
            if over is not None:
                changes += self.end_arcs([a], now=now, valid_to=over, reason="its planned time passed")
        return changes

    def open_predicates(self) -> list[str]:
        """Predicates in the graph outside the vocabulary (keeps, member_of_team...), most used first."""
        rows = sorted(self.store.read(Q.RELATION_COUNTS), key=lambda r: -int(r["n"]))
        return [str(r["relation"]) for r in rows if r["relation"] not in RELATIONS]

    def stats(self, *, now: datetime) -> dict[str, Any]:
        arcs = self.store.read(Q.COUNT_ARCS)[0]
        weights = self.store.read(Q.WEIGHT_SUMMARY, {"now": to_epoch(now)})[0]
        return {
            "backend": self.store.backend,
            "entities": self.store.read(Q.COUNT_ENTITIES)[0]["n"],
            "arcs": {k: int(arcs.get(k) or 0) for k in ("total", "current", "closed", "retracted")},
            "relations": {r["relation"]: r["n"] for r in self.store.read(Q.RELATION_COUNTS)},
            "weight": {k: (None if v is None else round(float(v), 4)) for k, v in weights.items()
                       if k != "arcs"},
        }


def _as_known(a: Arc, now: datetime) -> Arc:
    """Hide an end we only learned after ``now``: at that record time the fact was still open."""
    if a.closed_at is not None and a.closed_at > now:
        return replace(a, valid_to=None, closed_at=None)
    return a


def _plan_over(a: Arc, at: datetime) -> Arc:
    """A plan whose time is over at ``at`` ends there, as the nightly consolidation will close it (so a plan for
    February is not read as still coming in April before that night)."""
    end = a.planned_until
    if end is not None and a.valid_to is None and a.expired_at is None and a.valid_from < end <= at:
        return replace(a, valid_to=end)
    return a


def _true_at(arcs: Sequence[Arc], at: datetime) -> list[Arc]:
    """The arcs still true at ``at`` once plans whose time is over are read as ended."""
    return [a for a in (_plan_over(x, at) for x in arcs) if a.valid_to is None or a.valid_to > at]


def _telling_now(now: datetime, source: str | None) -> Telling:
    """An end or a retraction told at ``now``, from ``source`` (an utterance) if any."""
    return Telling(now=to_epoch(now), told=to_epoch(now), valid_from=to_epoch(now), valid_to=None,
                   sources=(source,) if source else ())


__all__ = ["RELATIONS", "ConsolidationReport", "Relearning", "TemporalGraph"]
