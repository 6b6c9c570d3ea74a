"""Entity summaries on a real graph: consolidation stores the salient ones, recall never shows an ended fact,
forgetting drops them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from assistant.answer import user_prompt
from memory import queries as Q
from memory.corrections import end_fact, undo_last
from memory.graph import TemporalGraph
from memory.model import Arc
from memory.recall.recall import Recaller
from memory.summaries import fresh
from tests.conftest import T0

D = timedelta(days=1)


def _stored(graph: TemporalGraph) -> dict[str, str]:
    rows = graph.store.read("MATCH (e:Entity) WHERE e.summary IS NOT NULL RETURN e.name AS name, e.summary AS s")
    return {r["name"]: r["s"] for r in rows}


def _anna(graph: TemporalGraph) -> None:
    graph.assert_fact("Anna", "sister_of", "user", now=T0, subject_type="PERSON", conversation="c1")
    graph.assert_fact("Anna", "lives_in", "Porto", now=T0, valid_from=T0 - 300 * D, conversation="c1")
    graph.assert_fact("Anna", "works_at", "Brightwave", now=T0 + D, conversation="c2")
    graph.assert_fact("Anna", "lives_in", "Porto", now=T0 + 2 * D, conversation="c3")  # reinforced
    graph.assert_fact("Felix", "likes", "chess", now=T0)


def test_consolidation_stores_the_most_salient_entities_lines(graph: TemporalGraph) -> None:
    _anna(graph)
    report = graph.consolidate(now=T0 + 3 * D, summaries=1)
    assert report.summaries == 1 and report.to_json()["summaries"] == 1 and "summaries" in report.timings_s
    assert _stored(graph) == {"Anna": "Anna (person): the user's sister; lives in Porto (since 2025-03); "
                                      "works at Brightwave (since 2026-01)."}
    assert graph.consolidate(now=T0 + 4 * D, summaries=3).summaries == 3
    assert set(_stored(graph)) == {"Anna", "Porto", "Brightwave"}
    assert graph.consolidate(now=T0 + 5 * D, summaries=0).summaries == 0 and _stored(graph) == {}


def test_recall_gives_the_line_and_never_an_ended_fact(graph: TemporalGraph) -> None:
    _anna(graph)
    graph.consolidate(now=T0 + 3 * D, summaries=5)
    recaller = Recaller(graph)
    r = recaller.recall("Where does Anna work?", now=T0 + 4 * D)
    assert r.summaries == [_stored(graph)["Anna"]]
    prompt = user_prompt("Where does Anna work?", r, T0 + 4 * D).splitlines()
    assert "- Anna (person): the user's sister; lives in Porto; works at Brightwave." in prompt  # not about time
    r = recaller.recall("Since when does Anna work at Brightwave?", now=T0 + 4 * D)
    assert "- " + r.summaries[0] in user_prompt("Since when?", r, T0 + 4 * D).splitlines()

    graph.assert_fact("Anna", "lives_in", "Lisbon", now=T0 + 5 * D)  # closes Porto: the stored line is stale
    assert "Porto" in _stored(graph)["Anna"]
    (line,) = recaller.recall("Where does Anna work?", now=T0 + 6 * D).summaries
    assert "Porto" not in line and "lives in Lisbon (since 2026-01)" in line
    graph.retract_fact("Anna", "works_at", "Brightwave", now=T0 + 7 * D)
    (line,) = recaller.recall("Who is Anna?", now=T0 + 8 * D).summaries
    assert "Brightwave" not in line
    # asked as of a day before the line was composed: composed for that day
    (line,) = recaller.recall("Who is Anna?", now=T0 + 2 * D).summaries
    assert "Porto" in line and "Lisbon" not in line


def test_recall_gives_at_most_the_configured_lines(graph: TemporalGraph) -> None:
    _anna(graph)
    graph.consolidate(now=T0 + 3 * D, summaries=5)
    q = "Do Anna, Felix and Brightwave know Porto?"
    assert len(Recaller(graph).recall(q, now=T0 + 4 * D).summaries) == 2
    assert len(Recaller(graph, summaries=3).recall(q, now=T0 + 4 * D).summaries) == 3
    assert Recaller(graph, summaries=0).recall(q, now=T0 + 4 * D).summaries == []
    assert Recaller(graph).recall("Who is Tom?", now=T0 + 4 * D).summaries == []  # not in memory


def test_deleting_a_fact_drops_the_lines(graph: TemporalGraph) -> None:
    _anna(graph)
    graph.consolidate(now=T0 + 3 * D, summaries=5)
    (works,) = [a for a in graph.arcs_of_entity(graph.require_entity("Anna").id, now=T0 + 3 * D)
                if a.relation == "works_at"]
    graph.forget_arc(works.id)  # a deletion leaves no newer index: the line would look fresh
    assert _stored(graph) == {}
    assert Recaller(graph).recall("Where does Anna live?", now=T0 + 4 * D).summaries == []
    graph.consolidate(now=T0 + 4 * D, summaries=5)
    assert "Brightwave" not in _stored(graph)["Anna"]
    assert graph.store.read(Q.SUMMARIES_OF, {"ids": ["nobody"]}) == []


def _fresh(graph: TemporalGraph, name: str, now: datetime) -> bool:
    (row,) = graph.store.read(Q.SUMMARIES_OF, {"ids": [graph.require_entity(name).id]})
    return fresh(row, now)


@pytest.mark.parametrize("change", [
    lambda g: g.close_fact("Anna", "works_at", "Brightwave", now=T0 + 4 * D),
    lambda g: g.retract_fact("Anna", "lives_in", None, now=T0 + 4 * D),
    lambda g: g.end_arc(_arc(g, "works_at").id, now=T0 + 4 * D),
    lambda g: g.assert_fact("Anna", "works_at", "Brightwave", now=T0 + 4 * D),  # reinforced: another order
    lambda g: g.assert_fact("Tom", "friend_of", "Anna", now=T0 + 4 * D),  # Anna as the object
    lambda g: end_fact(g, _arc(g, "lives_in").id, now=T0 + 4 * D, valid_to=None, source="test"),
    lambda g: (end_fact(g, _arc(g, "lives_in").id, now=T0 + 4 * D, valid_to=None, source="test"),
               graph_consolidated(g), undo_last(g, now=T0 + 6 * D)),  # the undo reopens it
])
def test_every_change_to_a_fact_makes_the_stored_line_stale(graph: TemporalGraph,
                                                             change: Callable[[TemporalGraph], object]) -> None:
    _anna(graph)
    graph.consolidate(now=T0 + 3 * D, summaries=5)
    assert _fresh(graph, "Anna", T0 + 3 * D) and _fresh(graph, "Felix", T0 + 3 * D)
    assert not _fresh(graph, "Anna", T0 + 2 * D)  # asked about a day before it was composed
    change(graph)
    assert not _fresh(graph, "Anna", T0 + 7 * D)
    assert _fresh(graph, "Felix", T0 + 7 * D)  # untouched


def _arc(graph: TemporalGraph, rel: str) -> Arc:
    (a,) = [a for a in graph.arcs_of_entity(graph.require_entity("Anna").id, now=T0 + 3 * D)
            if a.relation == rel and a.current]
    return a


def graph_consolidated(graph: TemporalGraph) -> None:
    graph.consolidate(now=T0 + 5 * D, summaries=5)
