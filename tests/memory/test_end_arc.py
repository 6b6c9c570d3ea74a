"""Ending or retracting one arc by its id (what the review page does), on every backend."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory.errors import InvalidInput, NotFound
from memory.graph import TemporalGraph
from tests.conftest import T0


def test_end_one_arc_keeps_it_in_history(graph: TemporalGraph) -> None:
    [ch] = graph.assert_fact("Anna", "works_at", "Acme", now=T0)
    graph.assert_fact("Anna", "likes", "tea", now=T0)
    later = T0 + timedelta(days=30)
    closed = graph.end_arc(ch.arc_id, now=later, valid_to=T0 + timedelta(days=10), source="user-review")
    assert closed.kind == "closed"
    a = graph.arc(ch.arc_id, now=later)
    assert a.valid_to == T0 + timedelta(days=10) and a.closed_at == later and "user-review" in a.sources
    assert [x.object for x in graph.facts_at(later, entity="Anna")] == ["tea"]  # the other fact is untouched
    assert {x.object for x in graph.facts_at(T0 + timedelta(days=5), now=later, entity="Anna")} == {"Acme", "tea"}
    with pytest.raises(InvalidInput, match="already ended"):
        graph.end_arc(ch.arc_id, now=later)


def test_retract_one_arc_and_refusals(graph: TemporalGraph) -> None:
    [ch] = graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    later = T0 + timedelta(days=1)
    with pytest.raises(InvalidInput, match="future"):
        graph.end_arc(ch.arc_id, now=later, valid_to=later + timedelta(days=1))
    assert graph.end_arc(ch.arc_id, now=later, retract=True).kind == "retracted"
    assert graph.arc(ch.arc_id, now=later).expired_at == later
    assert graph.facts_at(later, entity="Anna") == []
    assert [a.object for a in graph.history("Anna", "lives_in", now=later)] == ["Porto"]
    with pytest.raises(InvalidInput, match="already retracted"):
        graph.end_arc(ch.arc_id, now=later, retract=True)
    with pytest.raises(NotFound):
        graph.end_arc("a-nope", now=later)
