"""Merging duplicate entities on a real store: consolidation merges with evidence, and every merge undoes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from memory import queries as Q
from memory.episodes import Episodes
from memory.errors import InvalidInput, NotFound
from memory.graph import TemporalGraph
from memory.merges import merges, undo_merge
from memory.transcripts import Turn
from tests.conftest import T0

D = timedelta(days=1)
NOW = T0 + 100 * D


def snapshot(g: TemporalGraph) -> dict[str, Any]:
    """Everything a merge may touch, by id: entities (names, aliases, type), arcs (ends and provenance)."""
    ents = {e.id: (e.name, sorted(e.aliases), e.type) for e in g.entities()}
    arcs = {a.id: (a.subject_id, a.relation, a.object_id, a.valid_to, a.expired_at, sorted(a.sources),
                   sorted(a.conversation_ids), a.reinforcements, round(a.strength, 6))
            for a in g.all_arcs(now=NOW)}
    return {"entities": ents, "arcs": arcs}


def sister_story(g: TemporalGraph) -> None:
    """'My sister' told in January (a home that ended), her name and a new home in March."""
    g.assert_fact("my sister", "lives_in", "Porto", now=T0, valid_from=T0, source="c1#0", conversation="c1")
    g.assert_fact("my sister", "likes", "climbing", now=T0, source="c1#0", conversation="c1")
    g.close_fact("my sister", "lives_in", "Porto", now=T0 + 60 * D, valid_to=T0 + 59 * D, source="c2#0")
    g.assert_fact("Anna Schmidt", "sister_of", "user", now=T0 + 60 * D, source="c2#0", conversation="c2")
    g.assert_fact("Anna Schmidt", "lives_in", "Lisbon", now=T0 + 60 * D, source="c2#0", conversation="c2")
    g.assert_fact("Anna Schmidt", "likes", "climbing", now=T0 + 61 * D, source="c2#1", conversation="c2")


def test_my_sister_is_merged_into_her_name_and_the_merge_undoes(graph: TemporalGraph) -> None:
    sister_story(graph)
    before = snapshot(graph)
    placeholder = graph.require_entity("my sister")
    report = graph.consolidate(now=NOW, threshold=0.0)
    [m] = report.merged
    assert (m["loser"], m["survivor"], m["rule"]) == ("my sister", "Anna Schmidt", "placeholder")
    assert any("sister_of" in e for e in m["evidence"]) and "both: likes climbing" in m["evidence"]
    anna = graph.require_entity("Anna Schmidt")
    assert "my sister" in anna.aliases and graph.require_entity("my sister").id == anna.id
    assert graph.find_entity(placeholder.id) is None
    # her facts are Anna's now, under the same arc ids; the shared one is one fact told twice
    hist = {(a.relation, a.object): a for a in graph.arcs_of_entity(anna.id, now=NOW)}
    porto_id = next(i for i, a in before["arcs"].items() if a[2] == graph.require_entity("Porto").id)
    assert hist[("lives_in", "Porto")].id == porto_id and hist[("lives_in", "Porto")].valid_to is not None
    assert hist[("lives_in", "Lisbon")].valid_to is None
    climbing = hist[("likes", "climbing")]
    assert set(climbing.sources) == {"c1#0", "c2#1"} and set(climbing.conversation_ids) == {"c1", "c2"}
    assert len([a for a in graph.all_arcs(now=NOW) if a.relation == "likes"]) == 1
    [rec] = merges(graph)
    assert rec.id == m["id"] and rec.undone_at is None and rec.arcs_moved == 1 and rec.arcs_folded == 1

    undone = undo_merge(graph, rec.id, now=NOW + D)
    assert undone.undone_at == NOW + D
    assert snapshot(graph) == before  # the same entities, arcs, ids, provenance and weights as before
    assert graph.require_entity("my sister").id == placeholder.id
    with pytest.raises(InvalidInput, match="already undone"):
        undo_merge(graph, rec.id, now=NOW + D)
    assert merges(graph)[0].undone_at == NOW + D  # the record stays: history is kept
    again = graph.consolidate(now=NOW + 2 * D, threshold=0.0)  # and the pair is never merged again
    assert again.merged == [] and again.left_alone[0]["reason"] == f"you undid this merge on {(NOW + D).date()}"


def test_what_changed_after_the_merge_survives_its_undo(graph: TemporalGraph) -> None:
    sister_story(graph)
    climbing = next(a for a in graph.all_arcs(now=NOW) if a.relation == "likes" and a.subject == "my sister")
    graph.consolidate(now=NOW, threshold=0.0)
    [rec] = merges(graph)
    graph.assert_fact("my sister", "lives_in", "Lisbon", now=NOW + D, source="c3#0", conversation="c3")  # Anna now
    graph.assert_fact("Anna Schmidt", "likes", "climbing", now=NOW + D, source="c3#1", conversation="c3")
    undo_merge(graph, rec.id, now=NOW + 2 * D)
    sister, anna = graph.require_entity("my sister"), graph.require_entity("Anna Schmidt")
    lisbon = [a for a in graph.arcs_of_entity(anna.id, now=NOW) if a.relation == "lives_in"]
    assert [(a.object, sorted(a.sources)) for a in lisbon] == [("Lisbon", ["c2#0", "c3#0"])]  # reinforced, kept
    likes = {a.subject_id: a for a in graph.all_arcs(now=NOW) if a.relation == "likes"}
    assert likes.keys() == {sister.id, anna.id}
    assert likes[sister.id].sources == ("c1#0",) and likes[sister.id].id == climbing.id
    # Anna's copy was touched since the merge: it keeps its new telling and loses only what the fold gave it
    assert set(likes[anna.id].sources) == {"c2#1", "c3#1"} and "c1" not in likes[anna.id].conversation_ids


def test_two_people_with_one_first_name_and_two_homes_are_not_merged(graph: TemporalGraph) -> None:
    graph.assert_fact("Anna", "sister_of", "user", now=T0)
    graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    # "Anna Berg" would be resolved to "Anna" by learning; a second Anna made another way (an import, the LLM)
    graph.assert_fact("Anna Berg", "lives_in", "Lisbon", now=T0 + D)
    with graph.store.transaction() as tx:
        tx.run("MATCH (e:Entity {name: 'Anna Berg'}) SET e.keys = ['anna berg']")
    graph.assert_fact("Anna Berg", "sister_of", "user", now=T0 + D)
    before = snapshot(graph)
    report = graph.consolidate(now=T0 + 2 * D, threshold=0.0)
    assert report.merged == [] and snapshot(graph) == before
    [left] = report.left_alone
    assert (left["loser"], left["survivor"]) == ("Anna", "Anna Berg")
    assert "lives_in" in left["reason"] and "Porto" in left["reason"] and "Lisbon" in left["reason"]


def test_mentions_follow_the_merge_and_come_back(graph: TemporalGraph) -> None:
    graph.assert_fact("Bob", "friend_of", "user", now=T0, source="c1#0", conversation="c1", subject_type="PERSON")
    graph.assert_fact("Robert", "friend_of", "user", now=T0 + D, source="c2#0", conversation="c2",
                      subject_type="PERSON")
    graph.assert_fact("Robert", "works_at", "Acme", now=T0 + D, source="c2#0", conversation="c2")
    bob, robert = graph.require_entity("Bob"), graph.require_entity("Robert")
    Episodes(graph).add([Turn("c1", T0, "user", "My friend Bob plays chess."),
                         Turn("c2", T0 + D, "user", "Robert, my friend, works at Acme.")],
                        mentions={"c1#0": [bob.id], "c2#0": [robert.id]})

    def mentioned(eid: str) -> list[str]:
        return sorted(r["id"] for r in graph.store.read(Q.EPISODES_MENTIONING_ENTITY, {"id": eid}))

    [m] = graph.consolidate(now=T0 + 2 * D, threshold=0.0).merged
    assert (m["loser"], m["survivor"], m["rule"]) == ("Bob", "Robert", "nickname")
    assert mentioned(robert.id) == ["c1#0", "c2#0"]
    undo_merge(graph, m["id"], now=T0 + 3 * D)
    assert mentioned(bob.id) == ["c1#0"] and mentioned(robert.id) == ["c2#0"]


def test_undo_refuses_what_it_cannot_do(graph: TemporalGraph) -> None:
    with pytest.raises(NotFound):
        undo_merge(graph, "m-nope", now=NOW)
    sister_story(graph)
    [m] = graph.consolidate(now=NOW, threshold=0.0).merged
    graph.forget_entity("Anna Schmidt")
    with pytest.raises(NotFound, match="forgotten"):
        undo_merge(graph, m["id"], now=NOW + D)


def test_consolidating_again_merges_nothing_more(graph: TemporalGraph) -> None:
    sister_story(graph)
    assert len(graph.consolidate(now=NOW, threshold=0.0).merged) == 1
    again = graph.consolidate(now=NOW + D, threshold=0.0)
    assert again.merged == [] and again.left_alone == []
