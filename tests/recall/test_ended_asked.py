"""Asked about now when all that memory holds of it has ended: "What car do I drive?" after "Sold the Corsa" is
said to be so without the model (which, handed the words, said "A Corsa")."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
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

TOLD = datetime(2026, 2, 1, 19, tzinfo=UTC)
SOLD = datetime(2026, 9, 15, 19, tzinfo=UTC)
ASKED = datetime(2026, 11, 22, 9, tzinfo=UTC)


class Model:
    def __init__(self) -> None:
        self.asked = 0

    def stream(self, messages: Any, **kw: Any) -> Iterator[str]:
        self.asked += 1
        yield "A Corsa."

    def complete(self, messages: Any, **kw: Any) -> str:
        return '{"answers": "yes"}'


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[tuple[Learner, Pipeline, Model]]:
    yield from _memory(tmp_path, "I drive a red Vauxhall Corsa.", "Sold the Corsa, I cycle everywhere now.")


def _memory(tmp_path: Path, first: str, then: str) -> Iterator[tuple[Learner, Pipeline, Model]]:
    store = KgliteStore(tmp_path / "g.kgl")
    g = TemporalGraph(store)
    g.ensure_user(TOLD)
    ts = TranscriptStore(tmp_path / "t.sqlite3")
    ep = Episodes(g)
    parser = RuleExtractor()
    learner = Learner(g, ts, RulesExtractor(parser), episodes=ep)
    learner.ingest([Turn("c1", TOLD, "user", first, 0)], source="test")
    learner.ingest([Turn("c2", SOLD, "user", then, 0)], source="test")
    model = Model()
    tagger = lambda q: [t for s in parser.parse(q) for t in s]  # noqa: E731
    try:
        yield learner, Pipeline(g, Recaller(g, episodes=ep, episode_limit=4), lambda: model, tagger=tagger), model
    finally:
        ts.close()
        store.close()


def test_a_car_sold_is_said_to_be_gone(memory: Any) -> None:
    """(Here no search by meaning finds "Sold the Corsa" for "car": the fact and its end are said; the words that
    ended it, when found, are in tests/recall/test_answer_prompt.py.) Memory had said "You haven't told me"."""
    _, pipeline, model = memory
    ans = pipeline.answer("What car do I drive?", now=ASKED)
    assert ans.text == "Not now, as far as I know: Vauxhall Corsa until 15 September 2026."
    assert model.asked == 0
    assert [a.object for a in ans.recall.ended_facts()] == ["Vauxhall Corsa"]


def test_words_said_since_go_to_the_model(memory: Any) -> None:
    """A new car told in words learning did not read: the model reads them, not the old end."""
    learner, pipeline, model = memory
    learner.ingest([Turn("c3", SOLD + timedelta(days=30), "user", "Treated myself to a little electric car.", 0)],
                   source="test")
    ans = pipeline.answer("What car do I drive?", now=ASKED)
    assert model.asked == 1 and not ans.text.startswith("Not now")


def test_a_role_no_one_holds_now_is_said_to_have_ended(tmp_path: Path) -> None:
    """"Who is my boyfriend?" after "Marcus and I broke up": the one who held it, and until when (memory had said
    "You haven't told me anything about it"); with a boyfriend now, the model answers."""
    for learner, pipeline, model in _memory(tmp_path, "My boyfriend Marcus is taking me to Paris.",
                                            "Marcus and I broke up, it was for the best."):
        ans = pipeline.answer("Who is my boyfriend?", now=ASKED)
        assert ans.text == "Not now, as far as I know: Marcus until 15 September 2026."
        assert model.asked == 0
        learner.ingest([Turn("c3", ASKED - timedelta(days=3), "user", "My boyfriend Theo is a nurse.", 0)],
                       source="test")
        assert not pipeline.answer("Who is my boyfriend?", now=ASKED).text.startswith("Not now")


def test_the_relation_asked_first_is_the_one_said_to_have_ended(tmp_path: Path) -> None:
    """"Who do I live with?" after the housemate moved out, the home still known: the housemate's end (the home, a
    fact of the broader "live", is no answer to whom)."""
    for _, pipeline, model in _memory(tmp_path, "I share a flat in Brighton with my mate Dom.",
                                      "Dom moved out, got the place to myself now."):
        ans = pipeline.answer("Who do I live with?", now=ASKED)
        assert ans.text == "Not now, as far as I know: Dom until 15 September 2026."
        assert model.asked == 0
        assert [a.object for a in ans.recall.facts if a.relation == "lives_in"] == ["Brighton"]
