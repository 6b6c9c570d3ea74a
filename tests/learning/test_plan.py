"""The learning pass's plan (memory/learning.py: to_apply): which extracted facts are applied, in what order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory.extraction.types import ExtractedFact
from memory.learning import to_apply
from memory.transcripts import Turn

T = datetime(2025, 3, 1, 12, tzinfo=UTC)
TURNS = [Turn("c", T, "user", "I live in Ghent.", 0), Turn("c", T + timedelta(seconds=5), "assistant", "Nice!", 1),
         Turn("c", T + timedelta(seconds=9), "Anna", "I moved to Porto, not Lisbon.", 2),
         Turn("c", T + timedelta(seconds=20), "user", "I like tea.", 3)]


def fact(turn: int, obj: str, op: str = "assert") -> ExtractedFact:
    return ExtractedFact("user", "lives_in", obj, op=op, turn=turn)  # type: ignore[arg-type]


def test_only_pending_turns_said_by_people_in_the_order_said() -> None:
    facts = [fact(3, "tea"), fact(1, "Nice"), fact(2, "Porto"), fact(2, "Lisbon", "retract"), fact(0, "Ghent"),
             fact(7, "Nowhere")]
    plan = to_apply(facts, TURNS, pending=TURNS[1:])
    assert [(f.turn, f.object, f.op) for f in plan] == [(2, "Lisbon", "retract"), (2, "Porto", "assert"),
                                                         (3, "tea", "assert")]


def test_nothing_pending_plans_nothing() -> None:
    assert to_apply([fact(0, "Ghent")], TURNS, pending=[]) == []
