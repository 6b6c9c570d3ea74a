"""Contract of TemporalGraph over every available GraphStore backend, with a fixed clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory.errors import InvalidInput, NotFound, UnknownRelation
from memory.graph import TemporalGraph
from tests.conftest import T0

D = timedelta(days=1)


def current(g: TemporalGraph, subject: str, rel: str, at=None) -> list[str]:
    e = g.require_entity(subject)
    # what is believed today (record time day 400) about world time `at`
    return sorted(a.object for a in g.lookup(e.id, rel, at=at or T0 + 400 * D, now=T0 + 400 * D))


def test_user_is_addressable_in_any_case(graph: TemporalGraph) -> None:
    for name in ("user", "USER", "User", "me", "Sam", "sam"):
        e = graph.find_entity(name)
        assert e is not None and e.is_user, name


def test_add_then_reinforce_raises_strength_from_decayed_value(graph: TemporalGraph) -> None:
    [c1] = graph.assert_fact("user", "likes", "coffee", now=T0, conversation="c1")
    assert c1.kind == "added"
    [c2] = graph.assert_fact("User", "likes", "Coffee", now=T0 + 10 * D, conversation="c2")
    assert c2.kind == "reinforced" and c2.arc_id == c1.arc_id
    a = graph.arc(c1.arc_id, now=T0 + 10 * D)
    decayed = graph.decay.weight(1.0, 0.05, T0.timestamp(), (T0 + 10 * D).timestamp())  # likes: volatile
    assert a.strength == pytest.approx(decayed + 1.0, rel=1e-6)
    assert a.reinforcements == 1 and a.conversations == 2
    # a second conversation slows decay (long-term memory)
    assert a.decay_rate == pytest.approx(0.05 * 0.5)


def test_weight_is_computed_from_now_not_stored(graph: TemporalGraph) -> None:
    [c] = graph.assert_fact("user", "likes", "tea", now=T0)
    w0 = graph.arc(c.arc_id, now=T0).weight
    w30 = graph.arc(c.arc_id, now=T0 + 30 * D).weight
    assert w0 == pytest.approx(1.0)
    assert w30 == pytest.approx(1.0 * 2.718281828 ** (-0.05 * 30), rel=1e-4)
    # reading did not rewrite anything
    assert graph.arc(c.arc_id, now=T0).weight == pytest.approx(1.0)


def test_single_valued_relation_closes_previous_value_and_keeps_history(graph: TemporalGraph) -> None:
    graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    moved = T0 + 60 * D
    changes = graph.assert_fact("Anna", "lives_in", "Lisbon", now=moved + 7 * D, valid_from=moved)
    assert [c.kind for c in changes] == ["closed", "added"]
    assert current(graph, "Anna", "lives_in") == ["Lisbon"]
    assert current(graph, "Anna", "lives_in", at=T0 + 10 * D) == ["Porto"]
    hist = graph.history("Anna", "lives_in", now=moved + 8 * D)
    assert [(a.object, a.valid_to) for a in hist] == [("Porto", moved), ("Lisbon", None)]


def test_multi_valued_relations_coexist(graph: TemporalGraph) -> None:
    graph.assert_fact("user", "likes", "olives", now=T0)
    graph.assert_fact("user", "likes", "sushi", now=T0 + D)
    assert current(graph, "user", "likes") == ["olives", "sushi"]


def test_opposite_relation_closes_the_other(graph: TemporalGraph) -> None:
    graph.assert_fact("user", "likes", "coffee", now=T0)
    graph.assert_fact("user", "dislikes", "coffee", now=T0 + 5 * D)
    assert current(graph, "user", "likes") == []
    assert current(graph, "user", "dislikes") == ["coffee"]


def test_past_value_told_later_is_stored_as_history(graph: TemporalGraph) -> None:
    graph.assert_fact("user", "lives_in", "Krakow", now=T0 + 100 * D, valid_from=T0 + 50 * D)
    changes = graph.assert_fact("user", "lives_in", "Toronto", now=T0 + 101 * D, valid_from=T0)
    assert [c.kind for c in changes] == ["added"]
    assert current(graph, "user", "lives_in") == ["Krakow"]
    assert current(graph, "user", "lives_in", at=T0 + 10 * D) == ["Toronto"]


def test_close_and_retract(graph: TemporalGraph) -> None:
    graph.assert_fact("user", "plays", "chess", now=T0)
    graph.assert_fact("user", "lives_in", "Austin", now=T0)
    closed = graph.close_fact("user", "plays", "chess", now=T0 + 20 * D)
    assert [c.kind for c in closed] == ["closed"]
    retracted = graph.retract_fact("user", "lives_in", "Austin", now=T0 + 1 * D)
    assert [c.kind for c in retracted] == ["retracted"]
    assert current(graph, "user", "plays") == []
    assert current(graph, "user", "lives_in", at=T0 + 2 * D) == []
    # what we believed before the retraction is still answerable (bi-temporal)
    before = graph.facts_at(T0 + 0.5 * D, now=T0 + 0.5 * D, entity="user")
    assert "Austin" in [a.object for a in before]
    hist = graph.history("user", now=T0 + 30 * D)
    assert {a.object for a in hist} == {"chess", "Austin"}


def test_facts_at_hides_a_close_not_yet_learned(graph: TemporalGraph) -> None:
    graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    graph.assert_fact("Anna", "lives_in", "Lisbon", now=T0 + 60 * D, valid_from=T0 + 50 * D)
    # at day 55, as known at day 55, we did not yet know she had moved
    known = graph.facts_at(T0 + 55 * D, now=T0 + 55 * D, entity="Anna")
    assert [a.object for a in known if a.relation == "lives_in"] == ["Porto"]
    # as known today, on day 55 she already lived in Lisbon
    today = graph.facts_at(T0 + 55 * D, now=T0 + 70 * D, entity="Anna")
    assert [a.object for a in today if a.relation == "lives_in"] == ["Lisbon"]


def test_symmetric_relation_matches_either_direction(graph: TemporalGraph) -> None:
    graph.assert_fact("Tom", "friend_of", "user", now=T0)
    [c] = graph.assert_fact("user", "friend_of", "Tom", now=T0 + D, conversation="c2")
    assert c.kind == "reinforced"


def test_neighbourhood_ranks_by_decayed_weight(graph: TemporalGraph) -> None:
    graph.assert_fact("Anna", "sister_of", "user", now=T0)
    graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    graph.assert_fact("Anna", "teaches", "chemistry", now=T0)
    for i in range(3):
        graph.assert_fact("Anna", "teaches", "chemistry", now=T0 + i * D, conversation=f"c{i}")
    user = graph.require_entity("user")
    arcs = graph.neighbourhood([user.id], at=T0 + 5 * D, hops=2, limit=10)
    assert [a.relation for a in arcs][0] == "teaches"  # reinforced most
    assert {a.object for a in arcs} == {"Sam", "Porto", "chemistry"}
    one_hop = graph.neighbourhood([user.id], at=T0 + 5 * D, hops=1, limit=10)
    assert [a.relation for a in one_hop] == ["sister_of"]


def test_lookup_of_any_relation_returns_the_strongest_true_arcs_in_order(graph: TemporalGraph) -> None:
    """Around one entity (the traversal's step, ranked in two reads): the ``limit`` strongest arcs true now, by
    decayed weight, strongest first, with all their fields — from either end."""
    graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    graph.assert_fact("Anna", "works_at", "Sonae", now=T0)
    graph.assert_fact("Anna", "works_at", "Galp", now=T0 + 20 * D)  # Sonae ends: not true on day 30
    for i in range(4):
        graph.assert_fact("Anna", "likes", "jazz", now=T0 + i * D, conversation=f"c{i}")  # reinforced most
    graph.assert_fact("Anna", "likes", "opera", now=T0 + 29 * D)  # new: barely decayed
    graph.assert_fact("Tom", "knows", "Anna", now=T0)
    anna, at = graph.require_entity("Anna"), T0 + 30 * D
    out = graph.lookup(anna.id, None, None, at=at, limit=3)
    assert [a.object for a in out] == ["jazz", "opera", "Galp"]
    assert [a.weight for a in out] == sorted((a.weight or 0.0 for a in out), reverse=True)
    assert all(a.subject == "Anna" and a.relation and a.valid_from for a in out)
    everything = graph.lookup(anna.id, None, None, at=at, limit=10)
    assert {a.object for a in everything} == {"jazz", "opera", "Galp", "Porto"}  # the ended job is not true
    assert [(a.subject, a.relation) for a in graph.lookup(None, None, anna.id, at=at)] == [("Tom", "knows")]


def test_the_traversal_expands_neighbours_but_not_a_hub(graph: TemporalGraph) -> None:
    """Two hops from a seed: a neighbour's facts are reached; a hub's (more arcs than ``hub``) are not, though the hub
    is a neighbour, and a hub that is itself asked about is walked."""
    graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    graph.assert_fact("Anna", "friend_of", "Rui", now=T0)
    graph.assert_fact("Rui", "plays", "cello", now=T0)
    for i in range(6):
        graph.assert_fact(f"Person {i}", "lives_in", "Porto", now=T0)
    anna, porto, at = graph.require_entity("Anna"), graph.require_entity("Porto"), T0 + D
    both = {a.subject for a in graph.around([anna.id], at=at, hub=100, limit=20)}
    assert {"Rui", "Person 0"} <= both
    capped = graph.around([anna.id], at=at, hub=5, limit=20)  # Porto has 7 arcs, Rui 2
    assert ("Rui", "plays", "cello") in {(a.subject, a.relation, a.object) for a in capped}
    assert not any(a.subject.startswith("Person") for a in capped)
    walked = graph.around([porto.id], at=at, hub=5, limit=20)  # asked about, a hub is walked
    assert len([a for a in walked if a.object == "Porto"]) == 7


def test_temporal_index_increases_with_each_write(graph: TemporalGraph) -> None:
    [a] = graph.assert_fact("user", "owns", "bike", now=T0)
    [b] = graph.assert_fact("user", "owns", "kayak", now=T0)
    ta = graph.arc(a.arc_id, now=T0).t_index
    tb = graph.arc(b.arc_id, now=T0).t_index
    assert tb > ta > 0


def test_forget_entity_deletes_its_arcs(graph: TemporalGraph) -> None:
    graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    [k] = graph.assert_fact("Anna", "sister_of", "user", now=T0)
    deleted = graph.forget_entity("anna")
    assert k.arc_id in deleted and len(deleted) == 2
    assert graph.find_entity("Anna") is None
    with pytest.raises(NotFound):
        graph.arc(k.arc_id, now=T0)


def test_forget_arc(graph: TemporalGraph) -> None:
    [c] = graph.assert_fact("user", "likes", "jazz", now=T0)
    assert graph.forget_arc(c.arc_id) == [c.arc_id]
    with pytest.raises(NotFound):
        graph.forget_arc(c.arc_id)


def test_consolidate_prunes_only_faded_associations(graph: TemporalGraph) -> None:
    graph.assert_fact("user", "related_to", "jazz festival", now=T0, label="went to")
    graph.assert_fact("user", "born_in", "Turin", now=T0)
    graph.assert_fact("user", "likes", "olives", now=T0)
    report = graph.consolidate(now=T0 + 400 * D, threshold=0.05)
    assert len(report.pruned_arcs) == 1
    assert graph.find_entity("jazz festival") is None  # orphan removed
    assert current(graph, "user", "born_in") == ["Turin"]
    assert current(graph, "user", "likes") == ["olives"]  # faded but still believed


def test_consolidate_prunes_in_batches_and_leaves_what_its_time_budget_did_not_reach(graph: TemporalGraph) -> None:
    for i in range(5):
        graph.assert_fact("user", "related_to", f"stall {i}", now=T0, label="walked past")
        graph.assert_fact(f"stall {i}", "related_to", f"market {i}", now=T0, label="part of")
    graph.assert_fact("user", "born_in", "Turin", now=T0)
    late = T0 + 400 * D
    deferred = graph.consolidate(now=late, threshold=0.05, merge=False, prune_budget_s=0.0)
    assert deferred.pruned_arcs == [] and deferred.prune_deferred == 10  # nothing lost, all left for later
    report = graph.consolidate(now=late, threshold=0.05, merge=False, prune_batch=3)  # 4 transactions
    assert len(report.pruned_arcs) == 10 and report.prune_deferred == 0
    assert graph.find_entity("stall 2") is None and current(graph, "user", "born_in") == ["Turin"]


def test_consolidate_prunes_the_cheapest_arcs_first_those_at_hubs_last(graph: TemporalGraph) -> None:
    hub = [graph.assert_fact("Anna", "related_to", f"stall {i}", now=T0, label="walked past")[0].arc_id
           for i in range(6)]
    [leaf] = graph.assert_fact("Zoe", "related_to", "market", now=T0, label="part of")  # sorts after Anna
    for i in range(4):  # believed facts: never pruned, but they make Anna a bigger hub
        graph.assert_fact("Anna", "likes", f"dish {i}", now=T0)
    report = graph.consolidate(now=T0 + 400 * D, threshold=0.05, merge=False, prune_batch=1)
    assert report.pruned_arcs[0] == leaf.arc_id  # in the order deleted, one a transaction
    assert sorted(report.pruned_arcs[1:]) == sorted(hub) and report.prune_deferred == 0


@pytest.mark.parametrize("args, err", [
    (("user", "flies to Mars!", "Mars"), UnknownRelation),
    (("user", "is", "happy"), UnknownRelation),
    (("", "likes", "tea"), InvalidInput),
    (("user", "likes", "  "), InvalidInput),
    (("user", "related_to", "x"), InvalidInput),  # needs a label
    (("user", "likes", "user"), InvalidInput),
])
def test_bad_input_is_refused_and_changes_nothing(graph: TemporalGraph, args, err) -> None:
    before = graph.stats(now=T0)
    with pytest.raises(err):
        graph.assert_fact(*args, now=T0)
    assert graph.stats(now=T0)["arcs"] == before["arcs"]


def test_open_predicates_are_stored_reinforced_and_exported(graph: TemporalGraph) -> None:
    from memory.export import export_json

    [c] = graph.assert_fact("user", "keeps", "bees", now=T0)
    assert c.kind == "added" and c.relation == "keeps"
    [again] = graph.assert_fact("user", "Keeps", "bees", now=T0 + D)  # spelled differently, the same fact
    assert again.kind == "reinforced"
    graph.assert_fact("user", "keeps", "goats", now=T0 + D)  # multi-valued: bees stay
    graph.assert_fact("user", "went to", "Peru", now=T0 + D)  # an alias of a vocabulary relation
    assert current(graph, "user", "keeps") == ["bees", "goats"]
    assert current(graph, "user", "visited") == ["Peru"] and current(graph, "user", "lives_in") == []
    assert graph.open_predicates() == ["keeps"]
    user = graph.require_entity("user")
    assert {a.relation for a in graph.arcs_of_entity(user.id, now=T0 + D)} >= {"keeps", "visited"}
    assert '"keeps"' in export_json(graph.store)


def test_future_valid_from_is_refused(graph: TemporalGraph) -> None:
    with pytest.raises(InvalidInput, match="future"):
        graph.assert_fact("user", "likes", "tea", now=T0, valid_from=T0 + D)


def test_failed_write_leaves_no_half_update(graph: TemporalGraph) -> None:
    graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    before = graph.stats(now=T0)
    with pytest.raises(RuntimeError), graph.store.transaction() as tx:
        tx.run("MATCH (e:Entity) WHERE e.name = 'Anna' SET e.name = 'Changed'")
        raise RuntimeError("crash mid-update")
    assert graph.find_entity("Anna") is not None
    assert graph.stats(now=T0) == before
