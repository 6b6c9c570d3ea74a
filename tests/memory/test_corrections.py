"""The user's corrections on a real store: recorded with what they changed, and the last one undone."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory.corrections import correct_fact, corrections, end_fact, undo_last
from memory.errors import InvalidInput, NotFound
from memory.graph import TemporalGraph
from tests.conftest import T0

D = timedelta(days=1)
NOW = T0 + 30 * D


def lives(g: TemporalGraph, at=NOW) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Where Anna lives per arc status, as believed at ``at``."""
    out = {}
    for a in g.history("Anna", "lives_in", now=at):
        out[a.object] = "retracted" if a.expired_at else ("ended" if a.valid_to else "current")
    return out


def test_undo_restores_the_corrected_fact_and_retracts_the_correction(graph: TemporalGraph) -> None:
    [porto] = graph.assert_fact("Anna", "lives_in", "Porto", now=T0, source="c1#0", conversation="c1")
    rec, changes = correct_fact(graph, graph.arc(porto.arc_id, now=NOW), "lives_in", "Braga", label=None, now=NOW,
                                source="user-review")
    assert [c.kind for c in changes] == ["retracted", "added"] and rec.kind == "corrected"
    assert rec.summary == "Anna lives_in Porto → lives_in Braga"
    assert lives(graph) == {"Porto": "retracted", "Braga": "current"}
    undone, back = undo_last(graph, now=NOW + D)
    assert undone.id == rec.id and undone.undone_at == NOW + D
    assert [(c.kind, c.object) for c in back] == [("retracted", "Braga"), ("added", "Porto")]
    assert lives(graph, NOW + D) == {"Porto": "current", "Braga": "retracted"}  # history keeps the correction
    assert graph.arc(porto.arc_id, now=NOW + D).sources == ("c1#0", "user-review")
    assert [c.undone_at for c in corrections(graph)] == [NOW + D]
    with pytest.raises(NotFound, match="no correction to undo"):
        undo_last(graph, now=NOW + 2 * D)


def test_undo_walks_back_one_correction_at_a_time(graph: TemporalGraph) -> None:
    [tea] = graph.assert_fact("user", "likes", "tea", now=T0)
    [porto] = graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    end_fact(graph, tea.arc_id, now=NOW, valid_to=None, source="user-review")
    correct_fact(graph, graph.arc(porto.arc_id, now=NOW), "lives_in", "Faro", label=None, now=NOW + D,
                 source="user-review")
    assert undo_last(graph, now=NOW + 2 * D)[0].kind == "corrected"
    assert graph.arc(tea.arc_id, now=NOW + 2 * D).valid_to is not None  # the older one is still in force
    rec, back = undo_last(graph, now=NOW + 3 * D)
    assert rec.kind == "ended" and [(c.kind, c.object) for c in back] == [("added", "tea")]
    assert graph.arc(tea.arc_id, now=NOW + 3 * D).current


def test_undo_refuses_when_a_later_fact_took_the_place(graph: TemporalGraph) -> None:
    [porto] = graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    correct_fact(graph, graph.arc(porto.arc_id, now=NOW), "lives_in", "Braga", label=None, now=NOW,
                 source="user-review")
    graph.assert_fact("Anna", "lives_in", "Lisbon", now=NOW + D)  # moved since: Braga closed, Lisbon current
    with pytest.raises(InvalidInput, match="Lisbon holds that place now"):
        undo_last(graph, now=NOW + 2 * D)
    assert lives(graph, NOW + 2 * D) == {"Porto": "retracted", "Braga": "ended", "Lisbon": "current"}
    assert corrections(graph)[0].undone_at is None


def test_a_correction_that_fails_leaves_nothing_behind(graph: TemporalGraph) -> None:
    [porto] = graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    with pytest.raises(InvalidInput):
        correct_fact(graph, graph.arc(porto.arc_id, now=NOW), "lives_in", "Anna", label=None, now=NOW,
                     source="user-review")  # "Anna lives in Anna" is refused after the retraction ran
    assert lives(graph) == {"Porto": "current"} and corrections(graph) == []
