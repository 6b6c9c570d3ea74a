"""A role with many holders ("my friends") is followed only as far as the answer can use."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.graph import TemporalGraph
from memory.kglite_store import KgliteStore
from memory.recall.recall import Recaller

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


def test_role_holders_followed_are_capped_at_the_fact_limit(tmp_path: Path) -> None:
    store = KgliteStore(tmp_path / "g.kgl")
    g = TemporalGraph(store)
    g.ensure_user(T0)
    for i in range(30):
        g.assert_fact(f"Friend{i:02d}", "friend_of", "user", now=T0)
        g.assert_fact(f"Friend{i:02d}", "lives_in", f"Town{i:02d}", now=T0)
    r = Recaller(g, limit=5).recall("Where do my friends live?", now=T0 + timedelta(days=1))
    assert len(r.seeds) == 5
    assert len([a for a in r.facts if a.relation == "lives_in"]) == 5  # still an answer, from the ones followed
    store.close()


def test_asked_for_the_role_itself_the_answer_is_the_users_holders_not_theirs(tmp_path: Path) -> None:
    """'Who are my friends?': the user's friend arcs, not each friend's own friends (they share the relation)."""
    store = KgliteStore(tmp_path / "g.kgl")
    try:
        g = TemporalGraph(store)
        g.ensure_user(T0)
        for name in ("Anna", "Tom"):
            g.assert_fact(name, "friend_of", "user", now=T0)
        g.assert_fact("Anna", "friend_of", "Ben", now=T0)
        g.assert_fact("Tom", "friend_of", "Carla", now=T0)
        r = Recaller(g).recall("Who are my friends?", now=T0 + timedelta(days=1))
        said = {(a.subject, a.object) for a in r.facts if a.relation == "friend_of"}
        assert said == {("Anna", "User"), ("Tom", "User")} and r.targeted == 2
    finally:
        store.close()


def test_asked_who_someone_is_their_roles_come_before_what_else_is_known(tmp_path: Path) -> None:
    """'Who is Dev?': the model reads "Dev neighbour of User" before the job said the day before (it answered "A
    paramedic." with the job first); asked something else of him, the facts keep their time order."""
    store = KgliteStore(tmp_path / "g.kgl")
    try:
        g = TemporalGraph(store)
        g.ensure_user(T0)
        g.assert_fact("Dev", "works_as", "paramedic", now=T0)
        g.assert_fact("Dev", "neighbour_of", "user", now=T0 + timedelta(days=1))
        later = T0 + timedelta(days=2)
        asked = [a.relation for a in Recaller(g).recall("Who is Dev?", now=later).facts]
        assert asked[:2] == ["neighbour_of", "works_as"]
        other = [a.relation for a in Recaller(g).recall("What does Dev do for work?", now=later).facts]
        assert other[0] == "works_as"
    finally:
        store.close()


def test_a_kind_asked_of_in_the_plural_links_the_kind_held(tmp_path: Path) -> None:
    """'Which of the guinea pigs died?': the plural links the kind, so the death of one of that kind is found."""
    store = KgliteStore(tmp_path / "g.kgl")
    try:
        g = TemporalGraph(store)
        g.ensure_user(T0)
        for name in ("Custard", "Crumble"):
            g.assert_fact("user", "has_pet", name, now=T0)
            g.assert_fact(name, "is_a", "guinea pig", now=T0)
        g.assert_fact("Custard", "died_on", "13 September", now=T0)
        g.close_fact("user", "has_pet", "Custard", now=T0)  # had no more: not beside the user now
        r = Recaller(g).recall("Which of the guinea pigs died?", now=T0 + timedelta(days=1))
        assert [a.subject for a in r.facts if a.relation == "died_on"] == ["Custard"]
        assert Recaller(g).recall("What are the bosses called?", now=T0).seeds == ["user"]  # no kind: none
    finally:
        store.close()


def test_what_is_found_had_comes_with_its_death(tmp_path: Path) -> None:
    """"Does Ewan still have his gecko?": `Ewan has_pet Pringle` is found; `Pringle died_on …` comes with it."""
    store = KgliteStore(tmp_path / "g.kgl")
    try:
        g = TemporalGraph(store)
        g.ensure_user(T0)
        g.assert_fact("Ewan", "has_pet", "Pringle", now=T0)
        g.assert_fact("Pringle", "is_a", "leopard gecko", now=T0)
        g.assert_fact("Pringle", "died_on", "14 September 2026", now=T0)
        r = Recaller(g).recall("Does Ewan still have his gecko?", now=T0 + timedelta(days=1))
        assert r.targeted >= 1 and [a.subject for a in r.facts if a.relation == "died_on"] == ["Pringle"]
    finally:
        store.close()
