"""End to end on the bundled LLM: learning with the grounded extractor, answers, generated Cypher."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from assistant.compose import Hearth
from assistant.settings import Settings
from memory.extraction.llm_extractor import LLMExtractor
from memory.transcripts import Turn

pytestmark = [pytest.mark.slow, pytest.mark.llm]

T0 = datetime(2026, 2, 3, 19, 0, tzinfo=UTC)


@pytest.fixture
def app(tmp_path: Path, bundled_llm: object):
    a = Hearth(Settings(), tmp_path / "data", clock=lambda: T0 + timedelta(days=30))
    a.__dict__["llm"] = bundled_llm  # share the session's server
    yield a
    a.close()


def test_llm_extractor_returns_schema_valid_typed_facts(app: Hearth) -> None:
    turns = [Turn("c1", T0, "user", "My brother Felix lives in Ghent and works at Brightwave Studios.", idx=0),
             Turn("c1", T0, "assistant", "Nice!", idx=1),
             Turn("c1", T0, "user", "I have a cat called Miso.", idx=2)]
    facts = LLMExtractor(app.llm, app.rules).extract(turns).facts
    keys = {(f.subject, f.relation, f.object) for f in facts}
    assert ("Felix", "lives_in", "Ghent") in keys
    assert all(f.turn in (0, 2) for f in facts)  # never from the assistant's turn


def test_learn_and_answer_with_the_model(app: Hearth) -> None:
    turns = [Turn("c1", T0, "user", "My sister Clara lives in Naples. She works at Old Mill Bakery.", idx=0),
             Turn("c2", T0 + timedelta(days=20), "user", "Clara moved to Turin last week.", idx=0)]
    for cid in ("c1", "c2"):
        app.learner().ingest([t for t in turns if t.conversation == cid], source="test")
    ans = app.pipeline.answer("Where does my sister live now?", now=T0 + timedelta(days=21))
    assert ans.llm_used and "Turin" in ans.text and "*" not in ans.text
    current = [a.object for a in ans.recall.facts if a.valid_to is None and a.relation == "lives_in"]
    assert current == ["Turin"]
    before = app.pipeline.answer("Where did Clara live before Turin?", now=T0 + timedelta(days=21))
    assert "Naples" in before.text


def test_generated_cypher_is_guarded_and_answers(app: Hearth) -> None:
    from memory.recall.cypher_gen import CypherRecall
    from memory.recall.intent import analyse

    app.graph.assert_fact("Noor", "works_at", "Bluefin Labs", now=T0)
    app.graph.assert_fact("user", "works_at", "Bluefin Labs", now=T0)
    stage = CypherRecall(app.graph, app.llm)
    q = "Who works at Bluefin Labs?"
    linked = app.pipeline.recaller.linker.link(q)
    arcs, queries, _ = stage(q, linked, analyse(q), T0 + timedelta(days=1))
    assert queries, "the model wrote no query"
    # the 1.5B model's query may be refused and dropped, but what comes back is never a wrong fact
    assert {(a.subject, a.relation, a.object) for a in arcs} <= {("Noor", "works_at", "Bluefin Labs"),
                                                                ("User", "works_at", "Bluefin Labs")}
