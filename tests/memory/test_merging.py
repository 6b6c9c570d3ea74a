"""Which entities are one (memory/merging.py): pure tables, no store."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from itertools import count

import pytest

from memory.merging import (
    Candidate,
    find_candidates,
    fold,
    judge,
    merged_aliases,
    pick,
    placeholder_role,
    plan_arcs,
)
from memory.model import USER_ID, Arc, Entity

T0 = datetime(2026, 1, 5, tzinfo=UTC)
D = timedelta(days=1)
USER = Entity(USER_ID, "Sam", "PERSON", is_user=True)
_ids = count()


def person(name: str, type: str = "PERSON", aliases: Sequence[str] = ()) -> Entity:
    return Entity(f"e-{name.lower().replace(' ', '-')}", name, type, tuple(aliases), mentions=1)


def arc(s: Entity, rel: str, o: Entity, *, start: int = 0, end: int | None = None, expired: bool = False,
        sources: Sequence[str] = (), weight: float = 1.0) -> Arc:
    return Arc(id=f"a-{next(_ids)}", subject_id=s.id, subject=s.name, relation=rel, object_id=o.id, object=o.name,
               label=None, strength=weight, decay_rate=0.01, reinforcements=0, conversations=1,
               last_reinforced=T0 + start * D, valid_from=T0 + start * D,
               valid_to=None if end is None else T0 + end * D, recorded_at=T0 + start * D, closed_at=None,
               expired_at=T0 + 50 * D if expired else None, t_index=0, confidence=1.0, sources=tuple(sources),
               weight=weight, conversation_ids=("c1",))


def candidates(*entities: Entity, holders: dict[str, list[str]] | None = None) -> tuple[list[Candidate],
                                                                                     list[Candidate]]:
    return find_candidates([USER, *entities], holders or {}, user_names=["Sam"])


def pair(c: Candidate) -> tuple[str, str, str]:
    return c.loser.name, c.survivor.name, c.rule


# -- names ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, role", [
    ("my sister", "sister_of"), ("My Sister", "sister_of"), ("user's mum", "mother_of"), ("Sam's brother",
                                                                                           "brother_of"),
    ("our daughter", "daughter_of"), ("my wife", "spouse_of"),
    ("my friend", None),  # a friend is rarely the only one: never a placeholder
    ("sister", None), ("Anna's sister", None), ("my big sister", None), ("Anna", None),
])
def test_placeholder_names(name: str, role: str | None) -> None:
    assert placeholder_role(name, ["Sam"]) == role


ANNA, ANNA_S, ANNA_B = person("Anna"), person("Anna Schmidt"), person("Anna Berg")
BOB, ROBERT, BOB_SMITH, ROBERT_SMITH = person("Bob"), person("Robert"), person("Bob Smith"), person("Robert Smith")


@pytest.mark.parametrize("entities, holders, unique, ambiguous", [
    # a first name and the only full name starting with it
    ([ANNA, ANNA_S], {}, [("Anna", "Anna Schmidt", "first_name")], []),
    # two full names share the first name: nothing says which Anna
    ([ANNA, ANNA_S, ANNA_B], {}, [], [("Anna", "Anna Berg", "first_name"), ("Anna", "Anna Schmidt", "first_name")]),
    # nicknames, alone or with the same surname
    ([BOB, ROBERT], {}, [("Bob", "Robert", "nickname")], []),
    ([BOB_SMITH, ROBERT_SMITH], {}, [("Bob Smith", "Robert Smith", "nickname")], []),
    ([BOB, ROBERT_SMITH], {}, [("Bob", "Robert Smith", "nickname")], []),
    # different surnames are different people
    ([BOB_SMITH, person("Robert Jones")], {}, [], []),
    # a place and a person never match; nor two unrelated names
    ([person("Paris", "PLACE"), person("Paris Hilton")], {}, [], []),
    ([person("Anna"), person("Hannah Schmidt")], {}, [], []),
    # an entity whose name another lists as an alias
    ([person("Bobby", "THING"), person("Robert", aliases=["Bobby"])], {}, [("Bobby", "Robert", "alias")], []),
    # "my sister" and the one sister the user has
    ([person("my sister"), ANNA_S], {"sister_of": [ANNA_S.id]}, [("my sister", "Anna Schmidt", "placeholder")], []),
    # ... two sisters: it could be either
    ([person("my sister"), ANNA_S, ANNA_B], {"sister_of": [ANNA_S.id, ANNA_B.id]}, [],
     [("my sister", "Anna Berg", "placeholder"), ("my sister", "Anna Schmidt", "placeholder")]),
    # a brother is not a sister
    ([person("my sister"), ANNA_S], {"brother_of": [ANNA_S.id]}, [], []),
])
def test_candidates_from_names(entities: list[Entity], holders: dict[str, list[str]],
                               unique: list[tuple[str, str, str]], ambiguous: list[tuple[str, str, str]]) -> None:
    u, a = candidates(*entities, holders=holders)
    assert [pair(c) for c in u] == unique
    assert sorted(pair(c) for c in a) == ambiguous


def test_the_user_is_never_a_candidate() -> None:
    u, a = candidates(person("Sam Smith"), person("Sam"))
    assert [pair(c) for c in u] == [("Sam", "Sam Smith", "first_name")]  # the entity called Sam, not the user
    assert all(USER_ID not in (c.loser.id, c.survivor.id) for c in u + a)


# -- facts ------------------------------------------------------------------------------------------------
PORTO, LISBON, ACME = person("Porto", "PLACE"), person("Lisbon", "PLACE"), person("Acme", "ORG")


def decide(loser: Entity, survivor: Entity, rule: str, l_arcs: list[Arc], s_arcs: list[Arc]):  # type: ignore[no-untyped-def]
    c = Candidate(survivor, loser, rule, (f"{loser.name} ~ {survivor.name}",))  # type: ignore[arg-type]
    return judge(c, s_arcs, l_arcs)


def test_same_first_name_with_a_shared_fact_merges() -> None:
    d = decide(ANNA, ANNA_S, "first_name", [arc(ANNA, "sister_of", USER)], [arc(ANNA_S, "sister_of", USER)])
    assert d.merge and "both: sister_of Sam" in d.evidence


def test_same_first_name_with_nothing_shared_is_left_alone() -> None:
    d = decide(ANNA, ANNA_S, "first_name", [arc(ANNA, "likes", ACME)], [arc(ANNA_S, "works_at", ACME)])
    assert not d.merge and d.reason == "the names match but no fact is shared yet"


@pytest.mark.parametrize("loser_arcs, survivor_arcs, why", [
    # two homes at the same time: two different Annas
    ([arc(ANNA, "sister_of", USER), arc(ANNA, "lives_in", PORTO)],
     [arc(ANNA_S, "sister_of", USER), arc(ANNA_S, "lives_in", LISBON, start=30)], "lives_in: Lisbon"),
    # a sister and a brother
    ([arc(ANNA, "sister_of", USER)], [arc(ANNA_S, "brother_of", USER), arc(ANNA_S, "friend_of", USER)], "f and m"),
    # the user's mother and the user's sister
    ([arc(ANNA, "mother_of", USER), arc(ANNA, "friend_of", USER)],
     [arc(ANNA_S, "sister_of", USER), arc(ANNA_S, "friend_of", USER)], "Sam's parent"),
    # one is the other's sister
    ([arc(ANNA, "sister_of", ANNA_S), arc(ANNA, "friend_of", USER)], [arc(ANNA_S, "friend_of", USER)],
     "an arc links the two"),
])
def test_conflicting_facts_block_the_merge(loser_arcs: list[Arc], survivor_arcs: list[Arc], why: str) -> None:
    d = decide(ANNA, ANNA_S, "first_name", loser_arcs, survivor_arcs)
    assert not d.merge and d.reason.startswith("conflicting facts") and why in d.reason


def test_a_home_that_ended_before_the_other_began_is_no_conflict() -> None:
    sister = person("my sister")
    d = decide(sister, ANNA_S, "placeholder", [arc(sister, "lives_in", PORTO, end=30)],
               [arc(ANNA_S, "sister_of", USER), arc(ANNA_S, "lives_in", LISBON, start=30)])
    assert d.merge


def test_retracted_facts_neither_conflict_nor_support() -> None:
    d = decide(ANNA, ANNA_S, "first_name",
               [arc(ANNA, "lives_in", PORTO, expired=True), arc(ANNA, "friend_of", USER, expired=True)],
               [arc(ANNA_S, "lives_in", LISBON), arc(ANNA_S, "friend_of", USER)])
    assert not d.merge and d.reason == "the names match but no fact is shared yet"


def test_a_placeholder_needs_no_shared_fact_but_still_no_conflict() -> None:
    sister = person("my sister")
    assert decide(sister, ANNA_S, "placeholder", [arc(sister, "lives_in", PORTO)],
                  [arc(ANNA_S, "sister_of", USER)]).merge
    blocked = decide(sister, ANNA_S, "placeholder", [arc(sister, "lives_in", PORTO)],
                     [arc(ANNA_S, "sister_of", USER), arc(ANNA_S, "lives_in", LISBON)])
    assert not blocked.merge


def test_each_entity_is_in_one_merge_a_night() -> None:
    def d(lo: Entity, s: Entity):  # type: ignore[no-untyped-def]
        return decide(lo, s, "alias", [], [])

    chosen = pick([d(ANNA, ANNA_S), d(ANNA_S, ANNA_B), d(BOB, ROBERT)])
    assert [(x.candidate.loser.name, x.candidate.survivor.name) for x in chosen] == [("Anna", "Anna Schmidt"),
                                                                                      ("Bob", "Robert")]


# -- the arcs of a merge ----------------------------------------------------------------------------------
def test_arcs_move_to_the_survivor_and_a_shared_current_fact_folds() -> None:
    lo_sister, lo_home, lo_old = arc(ANNA, "sister_of", USER), arc(ANNA, "lives_in", PORTO, end=10), arc(
        ANNA, "friend_of", USER, end=5)
    s_sister = arc(ANNA_S, "sister_of", USER)
    knows = arc(BOB, "knows", ANNA)  # the loser as object
    moves = {m.arc.id: m for m in plan_arcs(ANNA_S.id, ANNA.id, [s_sister], [lo_sister, lo_home, lo_old, knows])}
    assert moves[lo_sister.id].into == s_sister
    assert moves[lo_home.id].into is None and (moves[lo_home.id].subject_id, moves[lo_home.id].object_id) == (
        ANNA_S.id, PORTO.id)
    assert moves[lo_old.id].into is None  # history is moved as it is, never folded
    assert (moves[knows.id].subject_id, moves[knows.id].object_id) == (BOB.id, ANNA_S.id)


def test_a_symmetric_fact_folds_whichever_way_it_was_stored() -> None:
    mine, theirs = arc(USER, "friend_of", ANNA), arc(ANNA_S, "friend_of", USER)
    [m] = plan_arcs(ANNA_S.id, ANNA.id, [theirs], [mine])
    assert m.into == theirs


def test_fold_keeps_both_tellings() -> None:
    a = arc(ANNA_S, "sister_of", USER, start=10, sources=["c2#0"], weight=0.5)
    b = arc(ANNA, "sister_of", USER, start=3, sources=["c1#0"], weight=0.8)
    f = fold(a, b, now=T0 + 20 * D)
    assert f.sources == ["c2#0", "c1#0"] and f.reinforcements == 1
    assert f.valid_from == (T0 + 3 * D).timestamp() and f.strength == 0.8  # the stronger one's decay state
    assert f.last_reinforced == (T0 + 3 * D).timestamp()


def test_the_loser_names_become_aliases() -> None:
    assert merged_aliases(person("Robert", aliases=["Rob"]), person("Bob", aliases=["rob", "Bobby"])) == ["Bob",
                                                                                                        "Bobby"]
