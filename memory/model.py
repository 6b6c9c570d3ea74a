"""Value objects that cross the memory boundary: entities, arcs and what a write changed."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from memory.timeutil import from_epoch, grain_span, iso, spoken_grain
from memory.vocabulary import is_event, is_symmetric, is_timeless
from memory.words import ROLE_RELATIONS

USER_ID = "user"


def spoken_day(d: datetime) -> str:
    """'5 January 2026': a day as it is said."""
    return f"{d.day} {d.strftime('%B')} {d.year}"


@dataclass(frozen=True)
class Entity:
    id: str
    name: str
    type: str
    aliases: tuple[str, ...] = ()
    is_user: bool = False
    created_at: datetime | None = None
    last_seen: datetime | None = None
    mentions: int = 0
    t_index: int = 0

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Entity:
        return cls(
            id=row["id"],
            name=row["name"],
            type=row.get("type") or "THING",
            aliases=tuple(row.get("aliases") or ()),
            is_user=bool(row.get("is_user")),
            created_at=from_epoch(row.get("created_at")),
            last_seen=from_epoch(row.get("last_seen")),
            mentions=int(row.get("mentions") or 0),
            t_index=int(row.get("t_index") or 0),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "type": self.type, "aliases": list(self.aliases),
            "is_user": self.is_user, "created_at": iso(self.created_at), "last_seen": iso(self.last_seen),
            "mentions": self.mentions, "t_index": self.t_index,
        }


@dataclass(frozen=True)
class Arc:
    """One typed relation between two entities, bi-temporal.

    World time: ``valid_from``..``valid_to`` (None = still true).
    Record time: ``recorded_at`` (we learned it), ``closed_at`` (we learned it ended),
    ``expired_at`` (we stopped believing it was ever true: a retraction or correction).
    """

    id: str
    subject_id: str
    subject: str
    relation: str
    object_id: str
    object: str
    label: str | None
    strength: float
    decay_rate: float
    reinforcements: int
    conversations: int
    last_reinforced: datetime
    valid_from: datetime
    valid_to: datetime | None
    recorded_at: datetime
    closed_at: datetime | None
    expired_at: datetime | None
    t_index: int
    confidence: float
    sources: tuple[str, ...] = ()
    weight: float | None = None  # decayed weight at the query's $now, when the query computed it
    conversation_ids: tuple[str, ...] = ()
    planned_for: str | None = None  # a plan's time, an ISO date at its grain ("2026-06"); None: no plan

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Arc:
        def t(key: str) -> datetime | None:
            return from_epoch(row.get(key))

        return cls(
            id=row["id"], subject_id=row["subject_id"], subject=row["subject"], relation=row["relation"],
            object_id=row["object_id"], object=row["object"], label=row.get("label"),
            strength=float(row["strength"]), decay_rate=float(row["decay_rate"]),
            reinforcements=int(row.get("reinforcements") or 0),
            conversations=int(row.get("conversations") or 0),
            last_reinforced=t("last_reinforced"), valid_from=t("valid_from"),  # type: ignore[arg-type]
            valid_to=t("valid_to"), recorded_at=t("recorded_at"),  # type: ignore[arg-type]
            closed_at=t("closed_at"), expired_at=t("expired_at"), t_index=int(row.get("t_index") or 0),
            confidence=float(row["confidence"]) if row.get("confidence") is not None else 1.0,
            sources=tuple(row.get("sources") or ()),
            weight=None if row.get("weight") is None else float(row["weight"]),
            conversation_ids=tuple(row.get("conversation_ids") or ()),
            planned_for=str(row["planned_for"]) if row.get("planned_for") else None,
        )

    @property
    def current(self) -> bool:
        return self.valid_to is None and self.expired_at is None

    @property
    def planned_until(self) -> datetime | None:
        """When a plan's time is over (the end of ``planned_for``); None for anything else."""
        span = grain_span(self.planned_for) if self.planned_for else None
        return None if span is None else span[1]

    @property
    def lapsed(self) -> bool:
        """A plan that ended because its time passed (not one called off): its words are not out of date."""
        end = self.planned_until
        return end is not None and self.valid_to is not None and self.valid_to >= end

    def true_at(self, t: datetime) -> bool:
        return (
            self.expired_at is None
            and self.valid_from <= t
            and (self.valid_to is None or t < self.valid_to)
        )

    @property
    def relation_words(self) -> str:
        """The relation as said: an open fact's own label ("keeps bees"); a role by the word said for it
        ("husband of", not "spouse of"); else the name ("lives in")."""
        if self.label and self.relation == "related_to":
            return self.label
        if self.label and ROLE_RELATIONS.get(self.label.lower()) == self.relation and self.relation.endswith("_of"):
            return f"{self.label.lower()} of"
        return self.relation.replace("_", " ")

    def statement(self, *, dates: bool = True) -> str:
        """'Anna lives in Porto (from 5 January 2026 until 3 March 2026)' — how facts reach the LLM, dated as
        people say dates (the small model copied ISO dates into spoken answers: "On 2023-08-17").

        ``dates=False`` says a fact that is still true plainly ('Anna lives in Lisbon'): every token of a
        date costs the model ~20 ms of prompt reading on a small CPU, worth paying only when the question
        is about time. Ended facts keep their span either way.
        """
        if self.object_id == USER_ID != self.subject_id and is_symmetric(self.relation) and not self.relation.endswith(
                "_of"):
            # the user first in what they do with someone: "Declan lives with User" was said back as "You live with
            # User."; what someone is to them stays as it was learned ("Bea cousin of User": turned, the model
            # answered "Who is coming to Rome with me?" with "The user is coming to Rome with me.")
            return replace(self, subject=self.object, subject_id=self.object_id, object=self.subject,
                           object_id=self.subject_id).statement(dates=dates)
        rel = self.relation_words
        if self.planned_for and self.expired_at is None:  # a plan is said with its time, not its start
            when = spoken_grain(self.planned_for)
            if self.valid_to is None:
                return f"{self.subject} {rel} {self.object} (planned for {when})"
            return f"{self.subject} {rel} {self.object} (was planned for {when}; not since {spoken_day(self.valid_to)})"
        if self.relation.startswith("plans_") and self.current:  # a plan with no time said: when it was told
            told = f" (told on {spoken_day(self.valid_from)})" if dates else ""
            return f"{self.subject} {rel} {self.object}{told}"
        if self.valid_to is None and self.expired_at is None and is_timeless(self.relation):
            return f"{self.subject} {rel} {self.object}"  # a birthday: not "from the day it was told"
        span = f"from {spoken_day(self.valid_from)}"
        if self.valid_to is None and self.expired_at is None and is_event(self.relation):
            return f"{self.subject} {rel} {self.object}" + (f" (on {spoken_day(self.valid_from)})" if dates else "")
        if self.valid_to is not None:
            span += f" until {spoken_day(self.valid_to)}"
        elif dates:
            span += ", still true"
        elif self.expired_at is None:
            return f"{self.subject} {rel} {self.object}"
        else:
            span = "still true"
        if self.expired_at is not None:
            span += "; later found to be wrong"
        return f"{self.subject} {rel} {self.object} ({span})"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "subject": self.subject, "subject_id": self.subject_id,
            "relation": self.relation, "object": self.object, "object_id": self.object_id,
            "label": self.label, "strength": round(self.strength, 4), "decay_rate": self.decay_rate,
            "weight": None if self.weight is None else round(self.weight, 4),
            "reinforcements": self.reinforcements, "conversations": self.conversations,
            "last_reinforced": iso(self.last_reinforced), "valid_from": iso(self.valid_from),
            "valid_to": iso(self.valid_to), "recorded_at": iso(self.recorded_at),
            "closed_at": iso(self.closed_at), "expired_at": iso(self.expired_at),
            "t_index": self.t_index, "confidence": self.confidence, "sources": list(self.sources),
            "planned_for": self.planned_for,
        }


ChangeKind = Literal["added", "reinforced", "closed", "retracted", "deleted"]


@dataclass(frozen=True)
class Change:
    """One effect a write had on memory, recorded against the conversation that caused it."""

    kind: ChangeKind
    arc_id: str
    subject: str
    relation: str
    object: str
    reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        d = {"kind": self.kind, "arc_id": self.arc_id, "subject": self.subject,
             "relation": self.relation, "object": self.object, "reason": self.reason}
        d.update(self.extra)
        return d

    def describe(self) -> str:
        return f"{self.kind}: {self.subject} {self.relation} {self.object}" + (
            f" ({self.reason})" if self.reason else ""
        )
