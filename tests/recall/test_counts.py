"""How many of a kind the user has now, counted from the pets memory holds by name (assistant.counts)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from assistant.counts import one_of, pets_now
from assistant.when import when_answer
from memory.episodes import Episodes
from memory.graph import TemporalGraph
from memory.kglite_store import KgliteStore
from memory.recall.recall import Recaller
from memory.transcripts import Turn

T0 = datetime(2026, 2, 7, 10, 0, tzinfo=UTC)
LATER = T0 + timedelta(days=30)


@pytest.fixture
def graph(tmp_path: Path) -> Iterator[tuple[TemporalGraph, Episodes]]:
    store = KgliteStore(tmp_path / "g.kgl")
    g = TemporalGraph(store)
    g.ensure_user(T0)
    yield g, Episodes(g)
    store.close()


def _guinea_pigs(g: TemporalGraph, ep: Episodes, first: str) -> None:
    ep.add([Turn("c1", T0, "user", first, 0),
            Turn("c2", LATER, "user", "Awful morning. Custard didn't make it through the night, the vet reckons it "
                                      "was his heart. Crumble's on her own now.", 0)])
    for name in ("Custard", "Crumble"):
        g.assert_fact("user", "has_pet", name, now=T0, source="c1#0")
        g.assert_fact(name, "is_a", "guinea pig", now=T0, source="c1#0")
    g.assert_fact("Custard", "died_on", "13 September 2026", now=LATER, source="c2#0")
    g.close_fact("user", "has_pet", "Custard", now=LATER, source="c2#0")


def test_pets_known_by_name_are_counted_when_one_is_gone(graph: tuple[TemporalGraph, Episodes]) -> None:
    """"How many guinea pigs have we got?" "You have two guinea pigs." (the model, handed "User has pet Crumble"
    and the words "two guinea pigs, Custard and Crumble"): memory counts the one left."""
    g, ep = graph
    _guinea_pigs(g, ep, "We've come home with two guinea pigs, Custard and Crumble.")
    r = Recaller(g, episodes=ep, episode_limit=4).recall("How many guinea pigs have we got?", now=LATER)
    assert pets_now(r) == "One: Crumble."
    assert when_answer(r) == "One: Crumble."  # said without the model


def test_more_told_of_than_named_is_left_to_the_words(graph: tuple[TemporalGraph, Episodes]) -> None:
    """"Four guinea pigs, Custard and Crumble among them": memory does not know them all, so it does not count."""
    g, ep = graph
    _guinea_pigs(g, ep, "We've come home with four guinea pigs, Custard and Crumble among them.")
    r = Recaller(g, episodes=ep, episode_limit=4).recall("How many guinea pigs have we got?", now=LATER)
    assert pets_now(r) is None


def test_nothing_gone_or_not_asked_so_is_none(graph: tuple[TemporalGraph, Episodes]) -> None:
    g, ep = graph
    ep.add([Turn("c1", T0, "user", "We've got two rabbits, Salt and Pepper.", 0)])
    for name in ("Salt", "Pepper"):
        g.assert_fact("user", "has_pet", name, now=T0, source="c1#0")
        g.assert_fact(name, "is_a", "rabbit", now=T0, source="c1#0")
    rec = Recaller(g, episodes=ep, episode_limit=4)
    assert pets_now(rec.recall("How many rabbits have we got?", now=LATER)) is None  # none gone: the model's
    assert pets_now(rec.recall("What are our rabbits called?", now=LATER)) is None


@pytest.mark.parametrize(("kind", "one"), [("guinea pigs", "guinea pig"), ("ponies", "pony"), ("Foxes", "fox"),
                                           ("goat", "goat"), ("geese", "geese")])
def test_a_kind_said_as_one(kind: str, one: str) -> None:
    assert one_of(kind) == one
