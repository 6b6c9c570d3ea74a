"""First person is the speaker in every extractor: a guest's "I live in Berlin" never closes the user's home."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memory.extraction.llm_extractor import LLMExtractor, parse_facts
from memory.extraction.types import ExtractedFact
from memory.graph import TemporalGraph
from memory.kglite_store import KgliteStore
from memory.learning import Extraction, GroundedExtractor, Learner, RulesExtractor
from memory.transcripts import TranscriptStore, Turn

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
TURNS = [Turn("c1", T0, "user", "I live in Porto.", idx=0),
         Turn("c1", T0 + timedelta(seconds=20), "Tom", "I live in Berlin, and my sister Anna lives in Rome.", idx=1)]


def fact(turn: int, s: str, r: str, o: str) -> dict[str, Any]:
    return {"turn": turn, "subject": s, "relation": r, "object": o, "op": "assert", "since": None}


class FakeLLM:
    """Answers every extraction call with the facts a careless model gives: the guest's "I" as "user"."""

    def __init__(self, facts: list[dict[str, Any]]) -> None:
        self.reply = json.dumps({"facts": facts})

    def complete(self, messages: Sequence[Mapping[str, str]], **kw: Any) -> str:
        return self.reply

    def stream(self, messages: Sequence[Mapping[str, str]], **kw: Any) -> Iterator[str]:
        yield self.reply


class NoRules:
    def extract(self, turns: Sequence[Turn], *, known: Sequence[ExtractedFact] = ()) -> Extraction:
        return Extraction([], "rules")


class SentenceRules:
    """A per-sentence extractor that, like spaCy's rules, writes first person as "user"."""

    def extract(self, text: str, *, at: datetime, turn: int = 0, context: Sequence[str] = (),
                known_name: Callable[[str], bool] | None = None) -> list[ExtractedFact]:
        if text.startswith("I live in "):
            return [ExtractedFact("user", "lives_in", text.removeprefix("I live in ").split(",")[0].rstrip("."),
                                  turn=turn, evidence=text)]
        return []


@pytest.mark.parametrize("first_person", ["user", "I", "me", "User"])
def test_parse_facts_gives_a_guests_first_person_to_the_guest(first_person: str) -> None:
    raw = json.dumps({"facts": [fact(1, first_person, "lives_in", "Berlin"), fact(1, "Anna", "sister_of", "my"),
                                fact(0, first_person, "lives_in", "Porto")]})
    got = {(f.subject, f.relation, f.object) for f in parse_facts(raw, TURNS)}
    assert got == {("Tom", "lives_in", "Berlin"), ("Anna", "sister_of", "Tom"), ("user", "lives_in", "Porto")}


@pytest.fixture
def env(tmp_path: Path) -> Iterator[tuple[TemporalGraph, TranscriptStore]]:
    store = KgliteStore(tmp_path / "g.kgl")
    graph = TemporalGraph(store)
    graph.ensure_user(T0)
    ts = TranscriptStore(tmp_path / "t.sqlite3")
    yield graph, ts
    ts.close()
    store.close()


def homes(graph: TemporalGraph, who: str, at: datetime) -> list[str]:
    e = graph.require_entity(who)
    return sorted(a.object for a in graph.lookup(e.id, "lives_in", at=at, now=at))


@pytest.mark.parametrize("path", ["llm", "rules"])
def test_a_guest_saying_i_live_in_berlin_keeps_the_users_home(env: tuple[TemporalGraph, TranscriptStore],
                                                              path: str) -> None:
    graph, ts = env
    llm = FakeLLM([fact(0, "user", "lives_in", "Porto"), fact(1, "user", "lives_in", "Berlin")])
    extractor = (GroundedExtractor(LLMExtractor(llm), NoRules()) if path == "llm"  # type: ignore[arg-type]
                 else RulesExtractor(SentenceRules()))
    Learner(graph, ts, extractor).ingest(TURNS, source="test")
    later = T0 + timedelta(minutes=5)
    assert homes(graph, "user", later) == ["Porto"]
    assert homes(graph, "Tom", later) == ["Berlin"]
