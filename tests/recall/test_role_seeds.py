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
