"""Plans asked about: "When am I going to Lisbon?" is the time the plan was told with, without the model; a plan
whose time is over is not one still to come; a place never spoken of is not answered with another's time."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from assistant.pipeline import Pipeline
from memory.episodes import Episodes
from memory.extraction.rules import RuleExtractor
from memory.graph import TemporalGraph
from memory.kglite_store import KgliteStore
from memory.learning import Learner, RulesExtractor
from memory.recall.recall import Recaller
from memory.transcripts import TranscriptStore, Turn

TOLD = datetime(2026, 3, 10, 19, tzinfo=UTC)


class Model:
    def __init__(self, reply: str = "Some time.") -> None:
        self.reply, self.asked = reply, 0

    def stream(self, messages: Any, **kw: Any) -> Iterator[str]:
        self.asked += 1
        yield self.reply

    def complete(self, messages: Any, **kw: Any) -> str:
        return '{"answers": "no"}'


@pytest.fixture(scope="module")
def parser() -> RuleExtractor:
    return RuleExtractor()


@pytest.fixture
def learned(tmp_path: Path, parser: RuleExtractor) -> Iterator[tuple[TemporalGraph, Pipeline, Model]]:
    """A real memory that learned, through the rules, two plans told on 10 March 2026."""
    store = KgliteStore(tmp_path / "g.kgl")
    g = TemporalGraph(store)
    g.ensure_user(TOLD)
    ts = TranscriptStore(tmp_path / "t.sqlite3")
    ep = Episodes(g)
    turns = [Turn("c1", TOLD, "user", "I'm flying to Lisbon next month for a conference.", 0),
             Turn("c1", TOLD.replace(minute=1), "user", "We're driving to Cornwall the week after next.", 1)]
    Learner(g, ts, RulesExtractor(parser), episodes=ep).ingest(turns, source="test")
    model = Model()
    tagger = lambda q: [t for s in parser.parse(q) for t in s]  # noqa: E731
    try:
        yield g, Pipeline(g, Recaller(g, episodes=ep, episode_limit=4), lambda: model, tagger=tagger), model
    finally:
        ts.close()
        store.close()


def test_when_a_plan_is_for_is_the_time_it_was_told_with(learned: tuple[TemporalGraph, Pipeline, Model]) -> None:
    _, p, model = learned
    later = datetime(2026, 3, 12, 9, tzinfo=UTC)
    assert p.answer("When am I going to Lisbon?", now=later).text == "April 2026."
    assert p.answer("When are we going to Cornwall?", now=later).text == "The week of 23 March 2026."
    assert model.asked == 0


def test_a_place_never_spoken_of_gets_no_other_plans_time(learned: tuple[TemporalGraph, Pipeline, Model]) -> None:
    _, p, model = learned
    ans = p.answer("When am I going to Madrid?", now=datetime(2026, 3, 12, 9, tzinfo=UTC))
    assert "April" not in ans.text and "March" not in ans.text and model.asked == 0


def test_a_plan_whose_time_is_over_is_not_still_coming(learned: tuple[TemporalGraph, Pipeline, Model]) -> None:
    g, p, _ = learned
    may = datetime(2026, 5, 4, 9, tzinfo=UTC)
    user = g.require_entity("user").id
    assert [a.object for a in g.lookup(user, "plans_trip_to", at=may)] == []
    ask = "What trips have I got planned?"
    before = p.recall(ask, now=datetime(2026, 3, 20, 9, tzinfo=UTC)).statements()
    assert any("Lisbon (planned for April 2026)" in s for s in before), before
    after = p.recall(ask, now=may).statements()  # told as a plan that was, if at all
    assert not any("Lisbon (planned for" in s for s in after), after


def test_the_words_of_a_plan_whose_time_passed_are_still_found(learned: tuple[TemporalGraph, Pipeline, Model]) -> None:
    """Its time passing contradicts nothing it said ("for a conference"), unlike a fact that changed."""
    _, p, _ = learned
    recall = p.recall("Why was I going to Lisbon?", now=datetime(2026, 6, 1, 9, tzinfo=UTC))
    assert recall.episodes_relevant and "conference" in recall.episodes[0].text


def test_a_trip_booked_today_has_no_time_of_its_own(parser: RuleExtractor) -> None:
    """'today' is when it was booked: the plan has no time (it would be over tomorrow)."""
    (f,) = parser.extract("I booked my first trip to Seoul today.", at=TOLD)
    assert (f.relation, f.object, f.extra["kind"], f.extra["when"]) == ("plans_trip_to", "Seoul", "plan", None)
