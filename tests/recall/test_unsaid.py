"""An answer must come from what was remembered: not a guess, not another relation's value (real graph, real
embedder, a stand-in model)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from assistant.answer import ungrounded
from assistant.pipeline import Pipeline
from memory.episodes import Episode
from memory.recall.intent import analyse, speaks_to
from memory.recall.recall import RecallResult
from tests.episode_sample import heard

T0 = datetime(2026, 4, 14, 19, 0, tzinfo=UTC)


class Model:
    def __init__(self, reply: str) -> None:
        self.reply, self.asked = reply, 0

    def stream(self, messages, **kw):  # type: ignore[no-untyped-def]
        self.asked += 1
        yield self.reply


@contextmanager
def memory(path: Path, said: list[str], reply: str) -> Iterator[tuple[Pipeline, Model]]:
    model = Model(reply)
    with heard(path, [("user", t) for t in said], ("Pavel", "Ines"), T0, model) as p:
        yield p, model


def test_words_that_only_name_someone_do_not_answer_a_relation_about_them(tmp_path: Path) -> None:
    with memory(tmp_path, ["My uncle Pavel plays the accordion in a folk band."], "Uncle.") as (p, model):
        ans = p.answer("Where does Pavel live?", now=T0 + timedelta(days=1))
        assert ans.text.startswith("I don't know") and model.asked == 0
        assert ans.recall is not None and ans.recall.unsaid


def test_words_on_the_asked_topic_still_go_to_the_model(tmp_path: Path) -> None:
    said = ["My uncle Pavel plays the accordion in a folk band.", "Pavel's flat is right by the harbour in Gdansk."]
    with memory(tmp_path, said, "In Gdansk.") as (p, model):
        ans = p.answer("Where does Pavel live?", now=T0 + timedelta(days=1))
        assert ans.text == "In Gdansk." and model.asked == 1


class FailingPassages:
    """Embeds questions, then fails on passages (a model that broke after the search ran)."""

    def __init__(self, real: object) -> None:
        self.real = real

    def query(self, text: str) -> list[float]:
        return self.real.query(text)  # type: ignore[attr-defined, no-any-return]

    def passages(self, texts: list[str]) -> list[list[float]]:
        raise RuntimeError("model file is corrupt")


def test_a_broken_embedder_leaves_the_question_to_the_model(tmp_path: Path) -> None:
    """The meaning check cannot run: recall does not fail, and nothing is refused on its account."""
    with memory(tmp_path, ["My uncle Pavel plays the accordion in a folk band."], "In a folk band.") as (p, model):
        episodes = p.recaller.episodes
        assert episodes is not None
        episodes.embedder = FailingPassages(episodes.embedder)  # type: ignore[assignment]
        ans = p.answer("Where does Pavel live?", now=T0 + timedelta(days=1))
        assert ans.recall is not None and not ans.recall.unsaid and model.asked == 1


def test_a_guess_nothing_remembered_supports_is_not_said(tmp_path: Path) -> None:
    with memory(tmp_path, ["My neighbour Ines bakes bread for the whole street."], "A teacher.") as (p, model):
        ans = p.answer("What does Ines bake for the street?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and "teacher" not in ans.text and "know" in ans.text


SPEAKS = [
    ("Where does Anna live?", "Anna moved to Porto last week.", True),  # a cue word of lives_in
    ("What instrument does Tim play?", "Tim has been practising the violin.", True),
    ("What does Gerald keep in his garden?", "Gerald keeps bees in his back garden.", True),  # topic words
    ("Where does Pavel live?", "My uncle Pavel plays the accordion.", False),  # only the name
    ("Where does Joe work?", "My friend Joe lives in Cork.", False),  # another relation's words
]


@pytest.mark.parametrize(("question", "text", "expected"), SPEAKS)
def test_speaks_to(question: str, text: str, expected: bool) -> None:
    assert speaks_to(text, question, analyse(question).relations) is expected


def _recall(question: str, said: str) -> RecallResult:
    e = Episode("e1", "c1", 0, "user", said, T0)
    return RecallResult(question, analyse(question), [], [], "now", episodes=[e], episodes_relevant=True,
                        personal=True)


def test_grounded_answers() -> None:
    r = _recall("What does Lena do?", "My cousin Lena lives in Munich and teaches maths.")
    assert not ungrounded("She teaches maths.", r.question, r)  # its words are in what was said
    assert not ungrounded("On 3 May 2026.", r.question, r)  # a date the model works out
    assert not ungrounded("Twice, on Mondays.", r.question, r)  # and a count
    assert ungrounded("A nurse.", r.question, r)
    guess = _recall("What job might Lena like?", "My cousin Lena lives in Munich and teaches maths.")
    assert not ungrounded("Perhaps tutoring.", guess.question, guess)  # asked to reason, not to remember
    general = _recall("How far is the moon?", "")
    general.personal = False
    assert not ungrounded("About 384,000 km.", general.question, general)  # general knowledge
