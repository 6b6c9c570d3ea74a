"""The nightly re-learning (issue 13): a thorough extractor over learned conversations, through the same belief
update — what it adds is new, what was learned from the same words is not counted twice, ends are left alone."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from assistant.compose import Hearth
from assistant.settings import load_settings
from assistant.upkeep import relearn, run_consolidation
from memory.graph import TemporalGraph
from memory.learning import Learner
from memory.transcripts import TranscriptStore
from tests.learning.test_learner import T0, D, Scripted, env, now_objects, turns

__all__ = ["env"]  # the fixture, shared

FAST = Scripted({"I live in Ghent and I keep bees.": [("user", "lives_in", "Ghent", "assert")],
                 "My sister Anna plays the cello.": []})
THOROUGH = Scripted({"I live in Ghent and I keep bees.": [("user", "lives_in", "Ghent", "assert"),
                                                          ("user", "keeps", "bees", "assert")],
                     "My sister Anna plays the cello.": [("Anna", "plays", "cello", "assert"),
                                                         ("user", "lives_in", "Ghent", "end")]})


def test_relearning_adds_what_the_fast_path_missed_and_counts_nothing_twice(
        env: tuple[TemporalGraph, TranscriptStore]) -> None:
    graph, ts = env
    learner = Learner(graph, ts, FAST)
    learner.ingest(turns("c1", T0, "I live in Ghent and I keep bees.", "My sister Anna plays the cello."), source="t")
    home = graph.lookup(graph.require_entity("user").id, "lives_in", at=T0 + D)[0]

    r = learner.relearn("c1", THOROUGH, now=T0 + D)
    assert sorted((c.kind, c.subject, c.relation, c.object) for c, _, _ in r.changes) == [
        ("added", "Anna", "plays", "cello"), ("added", "User", "keeps", "bees")]
    assert now_objects(graph, "user", "keeps", T0 + D) == ["bees"]
    assert now_objects(graph, "user", "lives_in", T0 + D) == ["Ghent"]  # an end found only at night is not applied
    again = graph.lookup(graph.require_entity("user").id, "lives_in", at=T0 + D)[0]
    assert (again.reinforcements, again.strength) == (home.reinforcements, home.strength)  # not counted twice
    conv = ts.conversation("c1")
    assert conv is not None and conv.learn_status == "relearned"
    assert {c["object"] for c in ts.changes("c1")} >= {"bees", "cello"}

    assert learner.relearn("c1", THOROUGH, now=T0 + 2 * D).changes == []  # a second night: nothing new


def test_a_conversation_not_learned_yet_is_left_to_learning(env: tuple[TemporalGraph, TranscriptStore]) -> None:
    graph, ts = env
    ts.add_turns(turns("c2", T0, "I live in Ghent and I keep bees."), source="t")
    assert Learner(graph, ts, FAST).relearn("c2", THOROUGH, now=T0 + D).skipped
    assert graph.stats(now=T0)["arcs"]["total"] == 0


def _app(tmp_path: Path, text: str) -> Hearth:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(text)
    return Hearth(load_settings(cfg), data_dir=tmp_path / "data", clock=lambda: T0)


@pytest.mark.parametrize("cfg,expected", [
    ("extraction:\n  use_llm: false\n", "skipped: learning uses the rules only"),
    ("memory:\n  consolidation:\n    relearn_hours: 0\n", "off: relearn_hours is 0"),
])
def test_the_night_says_why_it_did_not_relearn(tmp_path: Path, cfg: str, expected: str) -> None:
    app = _app(tmp_path, cfg)
    try:
        assert relearn(app, now=T0).status.startswith(expected)
    finally:
        app.close()


def test_the_night_relearns_recent_conversations_and_reports_it(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app(tmp_path, "extraction:\n  use_llm: false\n")
    try:
        said = (turns("old", T0 - 3 * D, "I live in Ghent and I keep bees.")
                + turns("new", T0 - timedelta(hours=2), "My sister Anna plays the cello."))
        Learner(app.graph, app.transcripts, FAST, episodes=app.episodes).ingest(said, source="t")
        monkeypatch.setattr(Hearth, "relearning_extractor", lambda self: THOROUGH)
        steps: list[tuple[str, int, int]] = []
        report = run_consolidation(app, progress=lambda s, d, t: steps.append((s, d, t)))
        assert report["relearning"].startswith("re-learned 1 conversation(s) from the last 24 h: 1 fact(s) added")
        assert [(a["subject"], a["relation"], a["object"]) for a in report["added"]] == [("Anna", "plays", "cello")]
        assert ("re-learn the day's conversations", 1, 1) in steps
        assert now_objects(app.graph, "user", "keeps", T0) == []  # "old" ended 3 days ago: not re-learned
    finally:
        app.close()


def test_a_model_that_is_down_stops_the_relearning_and_the_night_goes_on(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from memory.extraction.choose import ChoiceWithRules

    app = _app(tmp_path, "extraction:\n  use_llm: false\n")
    try:
        said = (turns("a", T0 - timedelta(hours=3), "I live in Ghent and I keep bees.")
                + turns("b", T0 - timedelta(hours=2), "My sister Anna plays the cello."))
        Learner(app.graph, app.transcripts, FAST, episodes=app.episodes).ingest(said, source="t")
        down = ChoiceWithRules(Scripted({}, fail=True), Scripted({}))  # the model breaks; the rules find nothing
        monkeypatch.setattr(Hearth, "relearning_extractor", lambda self: down)
        report = run_consolidation(app)
        assert report["relearning"].startswith("stopped after 0 of 2 conversations: LLM extraction failed")
        assert report["added"] == [] and report["id"]  # the rest of the night ran and was reported
        assert now_objects(app.graph, "user", "lives_in", T0) == ["Ghent"]  # nothing learned was lost
        conv = app.transcripts.conversation("a")
        assert conv is not None and conv.learn_status == "learned"
    finally:
        app.close()
