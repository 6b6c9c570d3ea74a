"""Merging duplicate entities in the graph: find them (memory/merging.py decides), apply, list and undo.

Each merge is one transaction: the loser's arcs move to the survivor under their own ids, a current fact
both held is folded into the survivor's copy (the loser's copy kept as a :FoldedArc node), the loser's name
becomes an alias, its utterance links follow, and a :Merge node keeps everything undoing needs. Undo is one
transaction too: the loser comes back with its arcs as they are now (reinforced or closed since, not as
they were), folded copies come back, and the survivor loses the names and provenance the merge gave it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memory import queries as Q
from memory.errors import InvalidInput, NotFound
from memory.merging import (
    KIN_CLASS,
    PLACEHOLDER_ROLES,
    Candidate,
    Decision,
    find_candidates,
    fold,
    judge,
    merged_aliases,
    merged_type,
    pick,
    plan_arcs,
)
from memory.model import USER_ID, Arc, Entity
from memory.names import new_id, normalize
from memory.redact import MARKER
from memory.store import GraphTx, Row
from memory.summaries import drop
from memory.timeutil import from_epoch, iso, to_epoch
from memory.vocabulary import RELATIONS, EntityType

if TYPE_CHECKING:
    from memory.graph import Progress, TemporalGraph


@dataclass(frozen=True)
class MergeRecord:
    id: str
    at: datetime
    rule: str
    evidence: tuple[str, ...]
    survivor_id: str
    survivor: str
    loser_id: str
    loser: str
    arcs_moved: int
    arcs_folded: int
    undone_at: datetime | None = None

    @classmethod
    def from_row(cls, r: Row) -> MergeRecord:
        return cls(id=r["id"], at=from_epoch(r["at"]), rule=r["rule"],  # type: ignore[arg-type]
                   evidence=tuple(r.get("evidence") or ()), survivor_id=r["survivor_id"],
                   survivor=r["survivor_name"], loser_id=r["loser_id"], loser=r["loser_name"],
                   arcs_moved=len(r.get("moved_out") or ()) + len(r.get("moved_in") or ()),
                   arcs_folded=len(r.get("folded") or ()), undone_at=from_epoch(r.get("undone_at")))

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "at": iso(self.at), "rule": self.rule, "evidence": list(self.evidence),
                "survivor": self.survivor, "survivor_id": self.survivor_id, "loser": self.loser,
                "loser_id": self.loser_id, "arcs_moved": self.arcs_moved, "arcs_folded": self.arcs_folded,
                "undone_at": iso(self.undone_at)}

    def describe(self) -> str:
        return f"{self.loser} → {self.survivor} ({self.rule}: {'; '.join(self.evidence)})"


# -- finding ---------------------------------------------------------------------------------------
def role_holders(graph: TemporalGraph) -> dict[str, list[str]]:
    """Kin and partners of the user now: relation -> holder ids (for "my sister" placeholders)."""
    rels = sorted(KIN_CLASS)
    out: dict[str, list[str]] = {}
    rows = graph.store.read(Q.ROLE_HOLDERS, {"user": USER_ID, "relations": rels})
    sym = [r for r in rels if r in RELATIONS and RELATIONS[r].symmetric]
    rows += graph.store.read(Q.ROLE_HOLDERS_SYMMETRIC, {"user": USER_ID, "relations": sym})
    for r in rows:
        out.setdefault(r["relation"], [])
        if r["id"] not in out[r["relation"]]:
            out[r["relation"]].append(r["id"])
    return out


def find_merges(graph: TemporalGraph, *, now: datetime) -> list[Decision]:
    """Every candidate pair, judged on its facts as believed at ``now``: merges first, then those left alone."""
    unique, ambiguous = find_candidates(graph.entities(), role_holders(graph), user_names=[graph.user_name])
    decisions = _judged(graph, unique, now=now)
    by_loser: dict[str, list[str]] = {}
    for c in ambiguous:
        by_loser.setdefault(c.loser.id, []).append(c.survivor.name)
    decisions += [Decision(c, False, c.evidence, reason=f"'{c.loser.name}' could be any of "
                                                         f"{', '.join(sorted(by_loser[c.loser.id]))}")
                  for c in ambiguous]
    return sorted(decisions, key=lambda d: not d.merge)


def _judged(graph: TemporalGraph, candidates: Sequence[Candidate], *, now: datetime) -> list[Decision]:
    """Each candidate judged on its facts as believed at ``now``; one the user split again is left alone."""
    split = {(r["survivor_id"], r["loser_id"]): from_epoch(r["undone_at"]) for r in graph.store.read(Q.MERGES_UNDONE)}
    decisions = []
    for c in candidates:
        when = split.get((c.survivor.id, c.loser.id))
        if when is not None:  # the user said they are two
            decisions.append(Decision(c, False, c.evidence, reason=f"you undid this merge on {when.date()}"))
            continue
        decisions.append(judge(c, graph.arcs_of_entity(c.survivor.id, now=now),
                               graph.arcs_of_entity(c.loser.id, now=now)))
    return decisions


def merge_placeholders(graph: TemporalGraph, told: Iterable[str], *, now: datetime) -> list[MergeRecord]:
    """A relative or partner learned before a name ("My partner's a paramedic": `my partner`), folded at once into
    the one of ``told`` (names just learned) who now holds that role toward the user by name ("Jess, my partner,
    is on nights"): the nightly merge would, a day late, and "What does Jess do?" asked now had no answer. Only
    those placeholders are read, not every entity; the same judge as at night (conflicting facts keep them
    apart), and a merge the user undid is not made again."""
    holders = role_holders(graph)
    ids = {e.id for n in told if (e := graph.find_entity(n)) is not None}
    held = {rel for rel, who in holders.items() if ids & set(who)}
    places = [e for w, rel in PLACEHOLDER_ROLES.items() if rel in held
              for owner in ("my", "our") if (e := graph.find_entity(f"{owner} {w}")) is not None]
    if not places:
        return []
    people = [e for i in {i for rel in held for i in holders[rel]} if (e := graph.find_entity(i)) is not None]
    unique, _ = find_candidates([*people, *places], holders, user_names=[graph.user_name])
    return [apply_merge(graph, d, now=now) for d in pick(_judged(graph, unique, now=now))]


def merge_duplicates(graph: TemporalGraph, *, now: datetime,
                     progress: Progress | None = None) -> tuple[list[MergeRecord], list[Decision]]:
    """Find and apply this night's merges; returns (applied, left alone)."""
    decisions = find_merges(graph, now=now)
    chosen = pick(decisions)
    left = [d for d in decisions if d not in chosen]
    done: list[MergeRecord] = []
    for i, d in enumerate(chosen):
        if progress is not None:
            progress("merge duplicates", i, len(chosen))
        done.append(apply_merge(graph, d, now=now))
    if progress is not None:
        progress("merge duplicates", len(chosen), len(chosen))
    return done, left


# -- applying --------------------------------------------------------------------------------------
def _entity(tx: GraphTx, eid: str) -> Entity | None:
    rows = tx.run(Q.ENTITY_BY_ID, {"id": eid})
    return Entity.from_row(rows[0]) if rows else None


def _arcs(tx: GraphTx, eid: str, now: float) -> list[Arc]:
    p = {"id": eid, "now": now}
    return [Arc.from_row(r) for r in tx.run(Q.ARCS_OUT, p) + tx.run(Q.ARCS_IN, p)]


def _keys(name: str, aliases: Sequence[str]) -> list[str]:
    return sorted({normalize(name), *(normalize(a) for a in aliases)} - {""})


def apply_merge(graph: TemporalGraph, d: Decision, *, now: datetime) -> MergeRecord:
    """Fold ``d``'s loser into its survivor in one transaction (re-read inside it: the graph may have moved)."""
    if not d.merge:
        raise InvalidInput(f"{d.candidate.loser.name} and {d.candidate.survivor.name} are not to be merged: "
                           f"{d.reason}")
    n = to_epoch(now)
    with graph.store.transaction() as tx:
        t = int(tx.run(Q.NEXT_T_INDEX)[0]["t"])
        drop(tx)  # summaries name the two entities; moved arcs keep their index, so drop rather than trust
        s, lo = _entity(tx, d.candidate.survivor.id), _entity(tx, d.candidate.loser.id)
        if s is None or lo is None or s.is_user or lo.is_user:
            raise NotFound("one of the two entities is gone (or is the user); nothing merged")
        raw = {r["id"]: r for r in tx.run(Q.ARCS_RAW_OUT, {"id": lo.id}) + tx.run(Q.ARCS_RAW_IN, {"id": lo.id})}
        moves = plan_arcs(s.id, lo.id, _arcs(tx, s.id, n), _arcs(tx, lo.id, n))
        out_ids = [i for i, r in raw.items() if r["subject_id"] == lo.id]
        in_ids = [i for i, r in raw.items() if r["subject_id"] != lo.id]
        tx.run(Q.DELETE_ARCS_OUT_BY_IDS, {"id": lo.id, "ids": out_ids})
        tx.run(Q.DELETE_ARCS_IN_BY_IDS, {"id": lo.id, "ids": in_ids})
        mid = new_id("m")
        moved = [m for m in moves if m.into is None and m.subject_id != m.object_id]
        if moved:
            tx.run(Q.BULK_CREATE_ARCS, {"rows": [raw[m.arc.id] | {"subject_id": m.subject_id,
                                                                  "object_id": m.object_id} for m in moved]})
        folded = [m for m in moves if m not in moved]
        for m in folded:  # a fact both held (or an arc between the two, which a merge cannot keep)
            into = m.into
            before: dict[str, Any] = {f"before_{k}": None for k in Q.FOLD_BEFORE}
            if into is not None:
                f = fold(into, m.arc, now=now)
                before = {"before_strength": into.strength, "before_decay_rate": into.decay_rate,
                          "before_last_reinforced": to_epoch(into.last_reinforced),
                          "before_reinforcements": into.reinforcements,
                          "before_conversation_ids": list(into.conversation_ids),
                          "before_conversations": into.conversations, "before_sources": list(into.sources),
                          "before_valid_from": to_epoch(into.valid_from),
                          "before_recorded_at": to_epoch(into.recorded_at), "before_confidence": into.confidence}
                tx.run(Q.SET_FOLDED, {"subject_id": into.subject_id, "id": into.id, "t": t, **asdict(f)})
            tx.run(Q.CREATE_FOLDED_ARC, {**raw[m.arc.id], **before, "merge": mid,
                                         "into": into.id if into else None,
                                         "into_subject": into.subject_id if into else None})
        eps = [r["id"] for r in tx.run(Q.EPISODES_MENTIONING_ENTITY, {"id": lo.id})]
        have = {r["id"] for r in tx.run(Q.EPISODES_MENTIONING_ENTITY, {"id": s.id})}
        eps_moved = [e for e in eps if e not in have]
        if eps_moved:
            tx.run(Q.LINK_MENTIONS, {"rows": [{"id": e, "entities": [s.id]} for e in eps_moved]})
        added = merged_aliases(s, lo)
        aliases = sorted({*s.aliases, *added})
        tx.run(Q.SET_ENTITY_MERGED, {
            "id": s.id, "aliases": aliases, "keys": _keys(s.name, aliases), "type": merged_type(s, lo),
            "mentions": s.mentions + lo.mentions, "t": t,
            "last_seen": max(to_epoch(x) for x in (s.last_seen, lo.last_seen) if x is not None)
            if (s.last_seen or lo.last_seen) else None})
        lrow = tx.run(Q.ENTITY_RAW, {"id": lo.id})[0]
        tx.run(Q.DELETE_ENTITY, {"id": lo.id})
        tx.run(Q.CREATE_MERGE, {
            "id": mid, "at": n, "t_index": t, "rule": d.candidate.rule, "evidence": list(d.evidence),
            "survivor_id": s.id, "survivor_name": s.name, "loser_id": lo.id, "loser_name": lo.name,
            "loser_key": lrow["key"], "loser_type": lo.type, "loser_aliases": list(lo.aliases),
            "loser_keys": list(lrow["keys"] or []), "loser_created_at": lrow["created_at"],
            "loser_last_seen": lrow["last_seen"], "loser_mentions": lo.mentions, "aliases_added": added,
            "survivor_type_before": s.type,
            "moved_out": [m.arc.id for m in moved if m.arc.subject_id == lo.id],
            "moved_in": [m.arc.id for m in moved if m.arc.subject_id != lo.id],
            "folded": [m.arc.id for m in folded], "episodes": eps, "episodes_moved": eps_moved, "undone_at": None})
        return MergeRecord.from_row(tx.run(Q.MERGE_BY_ID, {"id": mid})[0])


# -- reading and undoing ---------------------------------------------------------------------------
def merges(graph: TemporalGraph, *, limit: int = 50) -> list[MergeRecord]:
    """Newest first, undone ones included (they say when)."""
    return [MergeRecord.from_row(r) for r in graph.store.read(Q.MERGES_RECENT, {"limit": limit})]


def _forgotten_in(row: Row) -> bool:
    vals = [v for x in row.values() for v in (x if isinstance(x, list) else [x])]
    return any(isinstance(v, str) and MARKER in v for v in vals)


def _without(current: Sequence[str], before: Sequence[str], folded: Sequence[str]) -> list[str]:
    """``current`` less what only the folded copy brought."""
    return [x for x in current if x in before or x not in folded]


def undo_merge(graph: TemporalGraph, merge_id: str, *, now: datetime) -> MergeRecord:
    """Split the merge again: the loser and its arcs come back (as they are now), the survivor's gains go."""
    n = to_epoch(now)
    with graph.store.transaction() as tx:
        t = int(tx.run(Q.NEXT_T_INDEX)[0]["t"])
        drop(tx)  # summaries name the two entities; moved arcs keep their index, so drop rather than trust
        rows = tx.run(Q.MERGE_BY_ID, {"id": merge_id})
        if not rows:
            raise NotFound(f"no merge {merge_id!r}", hint="`assistant consolidate --report` lists the merges")
        m = rows[0]
        if m["undone_at"] is not None:
            raise InvalidInput(f"merge {merge_id} was already undone ({iso(from_epoch(m['undone_at']))})")
        if _forgotten_in(m):
            raise InvalidInput(f"merge {merge_id} cannot be undone: a name in it was forgotten since")
        later = tx.run(Q.LATER_MERGE_INTO, {"id": m["survivor_id"], "t": m["t_index"]})
        if later:
            raise InvalidInput(f"{m['survivor_name']} was merged again since",
                               hint=f"undo merge {later[0]['id']} first")
        s = _entity(tx, m["survivor_id"])
        if s is None:
            raise NotFound(f"{m['survivor_name']} was forgotten since; merge {merge_id} cannot be undone")
        if _entity(tx, m["loser_id"]) is not None:
            raise InvalidInput(f"an entity with id {m['loser_id']} exists again; nothing undone")
        tx.run(Q.RESTORE_ENTITY, {"id": m["loser_id"], "name": m["loser_name"], "key": m["loser_key"],
                                  "type": m["loser_type"], "aliases": m["loser_aliases"] or [],
                                  "keys": m["loser_keys"] or [], "created_at": m["loser_created_at"],
                                  "last_seen": m["loser_last_seen"], "mentions": m["loser_mentions"] or 1, "t": t})
        rows_back: list[Row] = []
        for ids, read, delete, end in ((m["moved_out"] or [], Q.ARCS_RAW_OUT_BY_IDS, Q.DELETE_ARCS_OUT_BY_IDS,
                                        "subject_id"),
                                       (m["moved_in"] or [], Q.ARCS_RAW_IN_BY_IDS, Q.DELETE_ARCS_IN_BY_IDS,
                                        "object_id")):
            if not ids:
                continue
            found = tx.run(read, {"id": s.id, "ids": ids})  # those forgotten or pruned since stay gone
            tx.run(delete, {"id": s.id, "ids": [r["id"] for r in found]})
            rows_back += [r | {end: m["loser_id"]} for r in found]
        for fr in tx.run(Q.FOLDED_OF_MERGE, {"merge": merge_id}):
            f = fr["props"]
            rows_back.append({k: f.get(k) for k in ("subject_id", "object_id", *Q.ARC_PROPS)})
            if f.get("into"):
                _unfold(tx, f, merge_t=int(m["t_index"]), t=t)
        tx.run(Q.DELETE_FOLDED_OF_MERGE, {"merge": merge_id})
        if rows_back:
            tx.run(Q.BULK_CREATE_ARCS, {"rows": rows_back})
        added = set(m["aliases_added"] or [])
        aliases = [a for a in s.aliases if a not in added]
        typ = s.type  # a THING that took the loser's type goes back to being a THING
        if m["survivor_type_before"] == EntityType.THING.value and s.type == m["loser_type"]:
            typ = EntityType.THING.value
        tx.run(Q.SET_ENTITY_MERGED, {"id": s.id, "aliases": aliases, "keys": _keys(s.name, aliases), "type": typ,
                                     "mentions": max(1, s.mentions - int(m["loser_mentions"] or 0)), "t": t,
                                     "last_seen": to_epoch(s.last_seen) if s.last_seen else None})
        if m["episodes"]:
            tx.run(Q.LINK_MENTIONS, {"rows": [{"id": e, "entities": [m["loser_id"]]} for e in m["episodes"]]})
        if m["episodes_moved"]:
            tx.run(Q.UNLINK_MENTIONS, {"entity": s.id, "ids": m["episodes_moved"]})
        tx.run(Q.MARK_MERGE_UNDONE, {"id": merge_id, "now": n})
        return MergeRecord.from_row(tx.run(Q.MERGE_BY_ID, {"id": merge_id})[0])


def _unfold(tx: GraphTx, f: dict[str, Any], *, merge_t: int, t: int) -> None:
    """The survivor's copy as before the fold if untouched since; else it only loses the folded provenance."""
    rows = tx.run(Q.ARCS_RAW_OUT_BY_IDS, {"id": f["into_subject"], "ids": [f["into"]]})
    if not rows:
        return  # forgotten or pruned since
    cur = rows[0]
    if int(cur["t_index"] or 0) == merge_t:
        vals = {k: f.get(f"before_{k}") for k in Q.FOLD_BEFORE}
    else:
        convs = _without(cur["conversation_ids"] or [], f.get("before_conversation_ids") or [],
                         f.get("conversation_ids") or [])
        vals = {k: cur[k] for k in Q.FOLD_BEFORE} | {
            "conversation_ids": convs, "conversations": len(convs),
            "sources": _without(cur["sources"] or [], f.get("before_sources") or [], f.get("sources") or [])}
    vals["conversation_ids"] = list(vals["conversation_ids"] or [])
    vals["sources"] = list(vals["sources"] or [])
    tx.run(Q.SET_FOLDED, {"subject_id": f["into_subject"], "id": f["into"], "t": t, **vals})


__all__ = ["MergeRecord", "apply_merge", "find_merges", "merge_duplicates", "merge_placeholders", "merges",
           "role_holders", "undo_merge"]
