"""A conversation's facts reach the graph as one unit: a crash in the middle leaves none of them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import pytest

from memory.extraction.types import ExtractedFact
from memory.graph import TemporalGraph
from memory.learning import Extraction, Learner
from memory.transcripts import TranscriptStore, Turn
from tests.conftest import T0

FACTS = [ExtractedFact("user", "lives_in", "Ghent", turn=0), ExtractedFact("Anna", "sister_of", "user", turn=0),
         ExtractedFact("Anna", "lives_in", "Porto", turn=1)]


class Fixed:
    def extract(self, turns: Sequence[Turn], *, known: Sequence[ExtractedFact] = ()) -> Extraction:
        return Extraction(list(FACTS), "fixed")


class Crash(Exception):
    pass


def _arcs(graph: TemporalGraph) -> set[tuple[str, str, str]]:
    return {(a.subject, a.relation, a.object) for a in graph.all_arcs(now=T0 + timedelta(days=1))}


def test_a_crash_mid_conversation_leaves_no_fact_of_it_and_the_replay_learns_all(
        graph: TemporalGraph, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    transcripts = TranscriptStore(tmp_path / "t.sqlite3")
    turns = [Turn("c1", T0, "user", "I live in Ghent. My sister Anna...", 0),
             Turn("c1", T0 + timedelta(seconds=5), "user", "...lives in Porto.", 1)]
    transcripts.add_turns(turns, source="test")
    learner = Learner(graph, transcripts, Fixed())
    apply, calls = learner.apply, []

    def dies_on_the_third(f: ExtractedFact, turn: Turn):  # type: ignore[no-untyped-def]
        calls.append(f)
        if len(calls) == 3:
            raise Crash("the process dies here")
        return apply(f, turn)

    monkeypatch.setattr(learner, "apply", dies_on_the_third)
    with pytest.raises(Crash):
        learner.learn("c1")
    assert _arcs(graph) == set()  # the first two facts were rolled back with the unit
    assert transcripts.pending_conversations() == ["c1"]
    monkeypatch.setattr(learner, "apply", apply)
    result = learner.learn_pending()[0]
    me = graph.user_name
    assert _arcs(graph) == {(me, "lives_in", "Ghent"), ("Anna", "sister_of", me), ("Anna", "lives_in", "Porto")}
    assert [c.kind for c, _, _ in result.changes] == ["added"] * 3 and transcripts.pending_conversations() == []


def test_each_turn_is_linked_to_the_facts_it_gave_even_those_it_does_not_name(
        graph: TemporalGraph, tmp_path: Path) -> None:
    from memory.episodes import Episodes

    transcripts = TranscriptStore(tmp_path / "t.sqlite3")
    turns = [Turn("c1", T0, "user", "I live in Ghent. My sister Anna...", 0),
             Turn("c1", T0 + timedelta(seconds=5), "user", "...and that is where she is now.", 1)]
    transcripts.add_turns(turns, source="test")
    episodes = Episodes(graph)
    Learner(graph, transcripts, Fixed(), episodes=episodes).learn("c1")
    later = T0 + timedelta(days=1)
    # turn 1 names neither Anna nor "lives_in": its fact is found from it all the same
    assert {(a.subject, a.object) for a in episodes.facts_from(["c1#1"], now=later)} == {("Anna", "Porto")}
    assert {(a.relation, a.object) for a in episodes.facts_from(["c1#0"], now=later)} == {
        ("lives_in", "Ghent"), ("sister_of", graph.user_name)}
