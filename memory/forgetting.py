"""`memory forget`: remove a name, or a whole conversation, from every store — and from their free pages.

Forgetting a NAME (an entity, its aliases, or just words in the transcripts):
  graph        the entity and its arcs are deleted; then every property of every node and arc (any label:
               Entity, Episode, ...) that names it is redacted — text gets ``[forgotten]``, lists (aliases,
               keys) lose the element;
  transcripts  the change records of the deleted arcs are deleted; every turn, change reason/evidence,
               note, source and id that names it is redacted in place (the rest of the sentence stays,
               so other facts keep their provenance); ``[forgotten]`` is never learned as a name;
  files        kglite is saved (the file is rewritten from live data and its log emptied); SQLite runs
               with secure_delete, then VACUUM and a TRUNCATE checkpoint.
Forgetting the user (`forget user`) keeps today's meaning: every fact about them goes, their words stay.

Forgetting a CONVERSATION: its turns and change records are deleted; arcs learned only from it are
deleted (and entities left with no arc); arcs also told elsewhere lose only its support (its id, its turn
sources, its reinforcements) and a close or retraction it caused is undone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memory import queries as Q
from memory.errors import NotFound
from memory.graph import TemporalGraph
from memory.model import Arc
from memory.redact import Redactor, check_name
from memory.summaries import drop
from memory.timeutil import to_epoch
from memory.transcripts import TranscriptStore
from memory.vocabulary import relation

STRUCTURAL_PROPS = ("type", "relation", "is_user")  # vocabulary codes, never someone's words


@dataclass
class ForgetReport:
    what: str
    deleted_arcs: list[str] = field(default_factory=list)
    deleted_entities: list[str] = field(default_factory=list)
    deleted_nodes: list[str] = field(default_factory=list)  # other labels (episodes, ...)
    graph_properties_redacted: int = 0
    arcs_updated: int = 0
    turns_redacted: int = 0
    turns_deleted: int = 0
    changes_deleted: int = 0
    changes_redacted: int = 0
    files_scrubbed: bool = True

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}

    def describe(self) -> str:
        parts = [f"{len(self.deleted_arcs)} fact(s) deleted"]
        if self.deleted_entities:
            parts.append(f"{len(self.deleted_entities)} entit{'y' if len(self.deleted_entities) == 1 else 'ies'} "
                         "deleted")
        if self.deleted_nodes:
            parts.append(f"{len(self.deleted_nodes)} other record(s) deleted")
        if self.arcs_updated:
            parts.append(f"{self.arcs_updated} fact(s) lost this support")
        if self.graph_properties_redacted:
            parts.append(f"{self.graph_properties_redacted} mention(s) in memory redacted")
        if self.turns_deleted:
            parts.append(f"{self.turns_deleted} turn(s) deleted")
        if self.turns_redacted:
            parts.append(f"{self.turns_redacted} turn(s) redacted")
        if self.changes_deleted or self.changes_redacted:
            parts.append(f"{self.changes_deleted} change record(s) deleted, {self.changes_redacted} redacted")
        text = f"Forgot {self.what}: " + ", ".join(parts) + "."
        if not self.files_scrubbed:
            text += " (Another process holds the transcripts open: its write-ahead log is emptied when it closes.)"
        return text


# -- forget a name ------------------------------------------------------------------------------
def forget_name(graph: TemporalGraph, transcripts: TranscriptStore, name: str) -> ForgetReport:
    entity = graph.find_entity(name)
    if entity is not None and entity.is_user:
        arcs = graph.forget_entity(entity.id)
        report = ForgetReport("what you told me about yourself", deleted_arcs=arcs)
        report.changes_deleted = transcripts.forget_arcs(arcs)
        return _scrub(graph, transcripts, report)
    clean = check_name(name)
    names = [clean] + ([entity.name, *entity.aliases] if entity is not None else [])
    redactor = Redactor(names)
    if entity is None and not _graph_mentions(graph, redactor) and not any(transcripts.mentions(redactor).values()):
        raise NotFound(f"nothing in memory or in the transcripts mentions {clean!r}",
                       hint="`assistant memory show` lists what is known")
    report = ForgetReport(entity.name if entity is not None else clean)
    report.deleted_arcs, deleted, report.graph_properties_redacted = redact_graph(
        graph, redactor, entity_id=entity.id if entity is not None else None)
    report.deleted_entities = [i for i, label in deleted if label == "Entity"]
    report.deleted_nodes = [i for i, label in deleted if label != "Entity"]
    report.changes_deleted = transcripts.forget_arcs(report.deleted_arcs)
    counts = transcripts.redact(redactor)
    report.turns_redacted, report.changes_redacted = counts["turns"], counts["changes"]
    return _scrub(graph, transcripts, report)


def _graph_mentions(graph: TemporalGraph, redactor: Redactor) -> int:
    rows = graph.store.read(Q.ALL_NODE_PROPS) + graph.store.read(Q.ALL_REL_PROPS)
    return sum(1 for r in rows if redactor.updates(r["props"] or {}, skip=STRUCTURAL_PROPS))


def named_after(redactor: Redactor, labels: list[str], props: dict[str, Any]) -> bool:
    """A node whose identity names the forgotten thing goes whole: its id (kglite ids cannot be changed,
    and entity ids carry a slug of the name), or an entity's name ("University of Lisbon"). Never the user."""
    if props.get("is_user"):
        return False
    return redactor.mentions(props.get("id")) or ("Entity" in labels and redactor.mentions(props.get("name")))


def redact_graph(graph: TemporalGraph, redactor: Redactor, *,
                 entity_id: str | None = None) -> tuple[list[str], list[tuple[str, str]], int]:
    """One transaction: delete the entity (and any node named after it) with their arcs, then redact every
    remaining node's and arc's properties, whatever their label.

    Returns (arc ids, (node id, first label) of the deleted nodes, properties redacted)."""
    arcs: list[str] = []
    nodes: list[tuple[str, str]] = []
    n = 0
    with graph.store.transaction() as tx:
        tx.run(Q.NEXT_T_INDEX)
        drop(tx)  # summaries name other entities: they go whole (the next consolidation composes them again)
        if entity_id is not None:
            rows = tx.run(Q.DELETE_ENTITY, {"id": entity_id})
            arcs += [i for i in (rows[0]["arcs"] if rows else []) if i]
            nodes.append((entity_id, "Entity"))
        keep = []
        for row in tx.run(Q.ALL_NODE_PROPS):
            props = row["props"] or {}
            if named_after(redactor, row["labels"] or [], props):
                arcs += [i for r in tx.run(Q.DELETE_NODE, {"eid": row["eid"]}) for i in r["arcs"] if i]
                nodes.append((str(props.get("id", row["eid"])), (row["labels"] or [""])[0]))
            else:
                keep.append(row)
        for write, rows in ((Q.SET_NODE_PROPS, keep), (Q.SET_REL_PROPS, tx.run(Q.ALL_REL_PROPS))):
            for row in rows:
                upd = redactor.updates(row["props"] or {}, skip=STRUCTURAL_PROPS)
                if upd:
                    tx.run(write, {"eid": row["eid"], "props": upd})
                    n += len(upd)
    return arcs, nodes, n


# -- forget a conversation ------------------------------------------------------------------------
@dataclass(frozen=True)
class ArcEdit:
    """What an arc keeps when one conversation's support is taken away."""

    id: str
    conversation_ids: list[str]
    sources: list[str]
    reinforcements: int
    reopen: bool  # the conversation closed it
    unretract: bool  # the conversation retracted it


@dataclass
class ConversationPlan:
    delete: list[str] = field(default_factory=list)
    edits: list[ArcEdit] = field(default_factory=list)


def plan_conversation_forget(cid: str, arcs: Sequence[Arc], changes: Sequence[dict[str, Any]]) -> ConversationPlan:
    """Pure: which arcs go (told only in ``cid``) and what the others keep.

    ``arcs``: those that cite ``cid`` in ``conversation_ids`` or a ``cid#N`` source; ``changes``: the
    conversation's change records (kind, arc_id). An arc is told in a conversation when it is in its
    ``conversation_ids``; a source without ``#`` (``cli``) is a telling outside any conversation.
    """
    prefix = cid + "#"
    kinds: dict[str, Counter[str]] = {}
    for c in changes:
        kinds.setdefault(c["arc_id"], Counter())[c["kind"]] += 1
    plan = ConversationPlan()
    for a in arcs:
        others = [c for c in a.conversation_ids if c != cid]
        told_elsewhere = bool(others) or any("#" not in s for s in a.sources)
        if cid in a.conversation_ids and not told_elsewhere:
            plan.delete.append(a.id)
            continue
        k = kinds.get(a.id, Counter())
        plan.edits.append(ArcEdit(
            a.id, others, [s for s in a.sources if not s.startswith(prefix)],
            max(0, a.reinforcements - k["reinforced"] - (1 if k["added"] else 0)),
            reopen=bool(k["closed"]), unretract=bool(k["retracted"])))
    return plan


def forget_arc(graph: TemporalGraph, transcripts: TranscriptStore, arc_id: str) -> ForgetReport:
    """One fact and its change records; the files are rewritten so the freed pages keep nothing."""
    ids = graph.forget_arc(arc_id)
    report = ForgetReport(f"arc {arc_id}", deleted_arcs=ids)
    report.changes_deleted = transcripts.forget_arcs(ids)
    graph.store.checkpoint()
    report.files_scrubbed = transcripts.scrub()
    return report


def forget_conversation(graph: TemporalGraph, transcripts: TranscriptStore, cid: str, *,
                        now: datetime) -> ForgetReport:
    conv = transcripts.conversation(cid)
    arcs = [Arc.from_row(r) for r in graph.store.read(Q.ARCS_OF_CONVERSATION, {"cid": cid, "prefix": cid + "#",
                                                                               "now": to_epoch(now)})]
    if conv is None and not arcs and not any(
            conversation_updates(cid, r["labels"] or [], r["props"] or {}) != {}
            for r in graph.store.read(Q.ALL_NODE_PROPS)):
        raise NotFound(f"no conversation {cid!r}", hint="`assistant transcripts` lists them")
    plan = plan_conversation_forget(cid, arcs, transcripts.changes(cid) if conv is not None else [])
    report = ForgetReport(f"conversation {cid}")
    by_id = {a.id: a for a in arcs}
    with graph.store.transaction() as tx:
        t = int(tx.run(Q.NEXT_T_INDEX)[0]["t"])
        drop(tx)  # a deleted arc leaves no newer index behind: the summaries that said it would look fresh
        report.deleted_arcs = [r["id"] for r in tx.run(Q.DELETE_ARCS_BY_IDS, {"ids": plan.delete})]
        # its episodes first: their MENTIONS would keep an entity told only in this conversation alive
        report.deleted_nodes, report.graph_properties_redacted = _drop_conversation_nodes(tx, cid)
        ends = {e for i in plan.delete for e in (by_id[i].subject_id, by_id[i].object_id)}
        report.deleted_entities = [r["id"] for r in tx.run(Q.DELETE_ORPHANS_AMONG, {"ids": sorted(ends)})]
        for e in plan.edits:
            a = by_id[e.id]
            valid_to, closed_at = a.valid_to, a.closed_at
            if e.reopen and valid_to is not None and _may_reopen(tx, a, set(plan.delete), to_epoch(now)):
                valid_to = closed_at = None
            tx.run(Q.SET_ARC_SUPPORT, {
                "id": e.id, "conversation_ids": e.conversation_ids, "conversations": len(e.conversation_ids),
                "sources": e.sources, "reinforcements": e.reinforcements, "t": t,
                "valid_to": None if valid_to is None else to_epoch(valid_to),
                "closed_at": None if closed_at is None else to_epoch(closed_at),
                "expired_at": None if (e.unretract or a.expired_at is None) else to_epoch(a.expired_at)})
        report.arcs_updated = len(plan.edits)
    report.turns_deleted = len(conv.turns) if conv is not None else 0
    report.changes_deleted = len(transcripts.changes(cid)) if conv is not None else 0
    transcripts.forget_conversation(cid, report.deleted_arcs)
    return _scrub(graph, transcripts, report)


def cites(cid: str, value: object) -> bool:
    """``value`` names the conversation: its id, or one of its turns (``cid#n``)."""
    return isinstance(value, str) and (value == cid or value.startswith(cid + "#"))


def conversation_updates(cid: str, labels: list[str], props: dict[str, Any]) -> dict[str, Any] | None:
    """Pure, for any node other than an entity: None when it belongs to the conversation (a property is
    its id or a turn of it: an episode of that conversation) and goes whole; else the lists that cite it,
    without it."""
    if "Entity" in labels:
        return {}
    if any(cites(cid, v) for v in props.values()):
        return None
    return {k: [x for x in v if not cites(cid, x)] for k, v in props.items()
            if isinstance(v, (list, tuple)) and any(cites(cid, x) for x in v)}


def _drop_conversation_nodes(tx: Any, cid: str) -> tuple[list[str], int]:
    """Nodes of any label (episodes, ...) that belong to the conversation go; others lose its id."""
    gone: list[str] = []
    n = 0
    for row in tx.run(Q.ALL_NODE_PROPS):
        props = row["props"] or {}
        upd = conversation_updates(cid, row["labels"] or [], props)
        if upd is None:
            tx.run(Q.DELETE_NODE, {"eid": row["eid"]})
            gone.append(str(props.get("id", row["eid"])))
        elif upd:
            tx.run(Q.SET_NODE_PROPS, {"eid": row["eid"], "props": upd})
            n += len(upd)
    return gone, n


def _may_reopen(tx: Any, a: Arc, deleted: set[str], now: float) -> bool:
    """A single-valued fact reopens only if no other value of it is current (else it stays history)."""
    if not relation(a.relation).single_valued:
        return True
    rows = tx.run(Q.ARCS_OF, {"subject_id": a.subject_id, "relation": a.relation, "now": now})
    return not any(r["id"] != a.id and r["id"] not in deleted and r["valid_to"] is None for r in rows)


# -- files ------------------------------------------------------------------------------------------
def _scrub(graph: TemporalGraph, transcripts: TranscriptStore, report: ForgetReport) -> ForgetReport:
    graph.store.refresh_indexes()  # the text index holds the redacted words until it folds the changes in
    graph.store.checkpoint()
    report.files_scrubbed = transcripts.scrub()
    return report
