"""The one application interface: what the CLI, the HTTP API and the review page ask of Hearth.

Every method takes and returns plain JSON-ready values (times as ISO-8601 text), so the same calls work on
the store directly (``LocalAPI``) and through a running service (``assistant.service.client.RemoteAPI``).
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any, Protocol

from assistant.compose import Hearth
from memory.decay import DecayModel
from memory.errors import InvalidInput, NotFound
from memory.model import Arc
from memory.text import require_text
from memory.timeutil import DAY, iso, not_after, parse_time, to_epoch
from memory.vocabulary import relation as vocab_relation

JSON = dict[str, Any]
REVIEW_SOURCE = "user-review"  # how a correction made on the page (or its API) is cited in an arc's sources
MAX_LIMIT = 500


class HearthAPI(Protocol):
    def health(self) -> JSON: ...
    def conversations(self, *, q: str | None = None, speaker: str | None = None, since: str | None = None,
                      until: str | None = None, limit: int = 50, offset: int = 0) -> JSON: ...
    def conversation(self, cid: str) -> JSON: ...
    def entities(self) -> JSON: ...
    def entity(self, ref: str) -> JSON: ...
    def facts(self, *, entity: str | None = None, at: str | None = None, history: bool = False) -> JSON: ...
    def ask(self, question: str, *, at: str | None = None) -> JSON: ...
    def add_fact(self, subject: str, relation: str, obj: str, *, at: str | None = None,
                 label: str | None = None) -> JSON: ...
    def end_fact(self, arc_id: str, *, at: str | None = None) -> JSON: ...
    def correct_fact(self, arc_id: str, *, obj: str, relation: str | None = None) -> JSON: ...
    def forget_fact(self, arc_id: str) -> JSON: ...
    def forget_entity(self, ref: str) -> JSON: ...
    def forget_conversation(self, cid: str) -> JSON: ...
    def stats(self) -> JSON: ...
    def export(self, fmt: str = "json") -> JSON: ...
    def export_transcripts(self) -> JSON: ...
    def consolidate(self) -> JSON: ...
    def consolidations(self, *, limit: int = 20) -> JSON: ...
    def merges(self, *, limit: int = 50) -> JSON: ...
    def undo_merge(self, merge_id: str) -> JSON: ...
    def corrections(self, *, limit: int = 20) -> JSON: ...
    def undo_last_correction(self) -> JSON: ...


def weight_samples(decay: DecayModel, a: Arc, now: datetime, *, ahead_days: float = 90.0,
                   points: int = 24) -> list[list[Any]]:
    """[[iso time, weight], ...] from the last reinforcement to ``ahead_days`` after ``now``.

    Only that span is known exactly: earlier reinforcements are folded into ``strength``.
    """
    start = to_epoch(a.last_reinforced)
    end = max(to_epoch(now) + ahead_days * DAY, start + DAY)
    step = (end - start) / max(1, points - 1)
    return [[iso(start + i * step), round(decay.weight(a.strength, a.decay_rate, start, start + i * step), 4)]
            for i in range(points)]


def arc_status(a: Arc) -> str:
    return "retracted" if a.expired_at else ("ended" if a.valid_to else "current")


def _text(value: Any, what: str, *, required: bool = True) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise InvalidInput(f"{what} is missing")
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be text")
    return require_text(value.strip(), what)


class LocalAPI:
    """HearthAPI on the store this process owns; the clock is read once per call, through ``app.now``."""

    def __init__(self, app: Hearth) -> None:
        self.app = app

    # -- reading -----------------------------------------------------------------------------
    def health(self) -> JSON:
        from assistant.upkeep import last_consolidation

        return {"pid": None, "port": None, "uptime_s": None,
                "pending_learning": len(self.app.transcripts.pending_conversations()),
                "last_consolidation": last_consolidation(self.app.data_dir), "store": self.app.settings.store.backend}

    def conversations(self, *, q: str | None = None, speaker: str | None = None, since: str | None = None,
                      until: str | None = None, limit: int = 50, offset: int = 0) -> JSON:
        if not 1 <= int(limit) <= MAX_LIMIT or int(offset) < 0:
            raise InvalidInput(f"limit must be 1..{MAX_LIMIT} and offset 0 or more")
        t0 = parse_time(since) if since else None
        t1 = parse_time(until) if until else None
        if t0 is not None and t1 is not None and t1 <= t0:
            raise InvalidInput("until must be after since")
        rows = self.app.transcripts.find_conversations(
            text=_text(q, "the search text", required=False), speaker=_text(speaker, "the speaker", required=False),
            since=t0, until=t1, limit=int(limit), offset=int(offset))
        return {"conversations": [r | {"started_at": iso(r["started_at"]), "ended_at": iso(r["ended_at"])}
                                  for r in rows]}

    def conversation(self, cid: str) -> JSON:
        ts = self.app.transcripts
        conv = ts.conversation(cid)
        if conv is None:
            raise NotFound(f"no conversation {cid!r}", hint="`assistant transcripts` lists them")
        now = self.app.now()
        changes = []
        for c in ts.changes(conv.id):
            arc = self._arc_or_none(c["arc_id"], now)
            changes.append(c | {"at": iso(c["at"]), "arc": None if arc is None else arc.to_json() | {
                "status": arc_status(arc)}})
        return {"id": conv.id, "learned_at": iso(conv.learned_at), "learn_status": conv.learn_status,
                "learn_note": conv.learn_note,
                "turns": [t.to_json() | {"idx": t.idx} for t in conv.turns], "changes": changes}

    def _arc_or_none(self, arc_id: str, now: datetime) -> Arc | None:
        try:
            return self.app.graph.arc(arc_id, now=now)
        except NotFound:
            return None

    def entities(self) -> JSON:
        g = self.app.graph
        now = self.app.now()
        current: Counter[str] = Counter()
        for a in g.all_arcs(now=now):
            if a.current:
                current[a.subject_id] += 1
                current[a.object_id] += 1
        return {"entities": [e.to_json() | {"current_facts": current[e.id]} for e in g.entities()]}

    def entity(self, ref: str) -> JSON:
        g = self.app.graph
        now = self.app.now()
        e = g.require_entity(ref)
        arcs = sorted(g.arcs_of_entity(e.id, now=now), key=lambda a: (a.relation, a.valid_from, a.recorded_at))
        return {"entity": e.to_json(), "now": iso(now),
                "facts": [self._arc_page(a, now) for a in arcs]}

    def _arc_page(self, a: Arc, now: datetime) -> JSON:
        ts = self.app.transcripts
        sources = []
        for s in a.sources:
            t = ts.turn_by_source(s)
            sources.append({"id": s, "conversation": t.conversation if t else None, "at": iso(t.at) if t else None,
                            "speaker": t.speaker if t else None, "text": t.text if t else None})
        return a.to_json() | {"status": arc_status(a), "sources": sources,
                              "weight_samples": weight_samples(self.app.graph.decay, a, now)}

    def facts(self, *, entity: str | None = None, at: str | None = None, history: bool = False) -> JSON:
        """`memory show`: facts true at ``at`` (default now) as known now, or every fact ever held."""
        g = self.app.graph
        now = self.app.now()
        when = not_after(parse_time(at), now, skew=timedelta(0), what="--at") if at else now
        if history:
            if entity:
                e = g.require_entity(entity)
                arcs = sorted(g.arcs_of_entity(e.id, now=now), key=lambda a: (a.relation, a.valid_from))
            else:
                arcs = g.all_arcs(now=now)
        else:
            arcs = g.facts_at(when, now=now, entity=entity)
        return {"at": iso(when), "history": history, "facts": [a.to_json() for a in arcs]}

    def ask(self, question: str, *, at: str | None = None) -> JSON:
        from assistant.pipeline import answer_json

        if not isinstance(question, str):  # an empty one is answered ("Sorry, I didn't catch a question.")
            raise InvalidInput("the question is missing" if question is None else "the question must be text")
        q = require_text(question, "the question")
        now = parse_time(at) if at else self.app.now()
        ans = self.app.pipeline.answer(q, now=now)
        ts = self.app.transcripts

        def source(sid: str) -> dict[str, str | None]:
            t = ts.turn_by_source(sid)
            return {"id": sid, "at": iso(t.at) if t else None, "text": t.text if t else None}

        return answer_json(ans, sources=source)

    def stats(self) -> JSON:
        st = self.app.graph.stats(now=self.app.now())
        disk = getattr(self.app.store, "disk_bytes", None)
        if disk is not None:
            st["disk_bytes"] = disk()
        return st

    def export(self, fmt: str = "json") -> JSON:
        """The whole graph as the text `memory export` writes: JSON, or Cypher statements one a line."""
        from memory.export import export_cypher, export_json

        if fmt == "json":
            return {"format": fmt, "text": export_json(self.app.store) + "\n"}
        if fmt == "cypher":
            return {"format": fmt, "text": "".join(stmt + "\n" for stmt in export_cypher(self.app.store))}
        raise InvalidInput(f"unknown export format {fmt!r}", hint="json or cypher")

    def export_transcripts(self) -> JSON:
        from memory.exchange import to_jsonl

        return {"jsonl": to_jsonl(self.app.transcripts.search_turns())}

    # -- writing: each one the user's own statement or correction ------------------------------
    def add_fact(self, subject: str, relation: str, obj: str, *, at: str | None = None,
                 label: str | None = None) -> JSON:
        now = self.app.now()
        when = not_after(parse_time(at), now, skew=timedelta(0), what="--at") if at else now
        changes = self.app.graph.assert_fact(
            _text(subject, "the subject") or "", _text(relation, "the relation") or "", _text(obj, "the object") or "",
            now=now, valid_from=when, told_at=when, label=_text(label, "the label", required=False),
            source="cli", confidence=1.0)
        return {"changes": [c.to_json() for c in changes]}

    def end_fact(self, arc_id: str, *, at: str | None = None) -> JSON:
        from memory.corrections import end_fact

        now = self.app.now()
        when = not_after(parse_time(at), now, skew=timedelta(0), what="the end time") if at else None
        rec, ch = end_fact(self.app.graph, arc_id, now=now, valid_to=when, source=REVIEW_SOURCE)
        return {"changes": [ch.to_json()], "correction": rec.to_json()}

    def correct_fact(self, arc_id: str, *, obj: str, relation: str | None = None) -> JSON:
        """The fact was wrong: it is retracted (kept in history) and the corrected one holds from the same start."""
        from memory.corrections import correct_fact

        g = self.app.graph
        now = self.app.now()
        old = g.arc(arc_id, now=now)
        new_obj = _text(obj, "the corrected value")
        assert new_obj is not None
        rel = vocab_relation(_text(relation, "the relation", required=False) or old.relation).name
        if (rel, new_obj.casefold()) == (old.relation, old.object.casefold()):
            raise InvalidInput("the correction is the same as the fact", hint="give a different value")
        if old.expired_at is not None:
            raise InvalidInput(f"the fact {old.subject} {old.relation} {old.object} was already retracted")
        label = old.label if rel == old.relation else None
        if rel == "related_to" and not label:
            raise InvalidInput("related_to needs a label; correct it with `assistant memory add --label`")
        rec, changes = correct_fact(g, old, rel, new_obj, label=label, now=now, source=REVIEW_SOURCE)
        return {"changes": [c.to_json() for c in changes], "correction": rec.to_json()}

    def corrections(self, *, limit: int = 20) -> JSON:
        from memory.corrections import corrections

        if not 1 <= int(limit) <= MAX_LIMIT:
            raise InvalidInput(f"limit must be 1..{MAX_LIMIT}")
        return {"corrections": [c.to_json() for c in corrections(self.app.graph, limit=int(limit))]}

    def undo_last_correction(self) -> JSON:
        """Undo the newest correction (or "no longer true") not undone yet; its record stays, marked undone."""
        from memory.corrections import undo_last

        rec, changes = undo_last(self.app.graph, now=self.app.now())
        return {"correction": rec.to_json(), "changes": [c.to_json() for c in changes]}

    # -- consolidation --------------------------------------------------------------------------
    def consolidate(self) -> JSON:
        from assistant.upkeep import run_consolidation

        return run_consolidation(self.app)

    def consolidations(self, *, limit: int = 20) -> JSON:
        """The consolidation reports, newest first, each merge with whether it was undone since."""
        from memory.merges import merges
        from memory.reports import reports

        if not 1 <= int(limit) <= MAX_LIMIT:
            raise InvalidInput(f"limit must be 1..{MAX_LIMIT}")
        undone = {m.id: iso(m.undone_at) for m in merges(self.app.graph, limit=MAX_LIMIT) if m.undone_at}
        out = reports(self.app.graph, limit=int(limit))
        for r in out:
            r["merged"] = [m | {"undone_at": undone.get(m.get("id", ""), m.get("undone_at"))}
                           for m in r.get("merged") or []]
        return {"reports": out}

    def merges(self, *, limit: int = 50) -> JSON:
        from memory.merges import merges

        if not 1 <= int(limit) <= MAX_LIMIT:
            raise InvalidInput(f"limit must be 1..{MAX_LIMIT}")
        return {"merges": [m.to_json() for m in merges(self.app.graph, limit=int(limit))]}

    def undo_merge(self, merge_id: str) -> JSON:
        from memory.merges import undo_merge

        mid = _text(merge_id, "the merge id")
        assert mid is not None
        return {"merge": undo_merge(self.app.graph, mid, now=self.app.now()).to_json()}

    def forget_fact(self, arc_id: str) -> JSON:
        from memory.forgetting import forget_arc

        return forget_arc(self.app.graph, self.app.transcripts, arc_id).to_json()

    def forget_entity(self, ref: str) -> JSON:
        """Everything that names it: the entity, its facts, and its name in every utterance and record."""
        from memory.forgetting import forget_name

        e = self.app.graph.find_entity(ref)
        report = forget_name(self.app.graph, self.app.transcripts, e.name if e is not None else ref)
        return report.to_json() | {"entity": e.name if e is not None else ref}

    def forget_conversation(self, cid: str) -> JSON:
        from memory.forgetting import forget_conversation

        return forget_conversation(self.app.graph, self.app.transcripts, cid, now=self.app.now()).to_json()
