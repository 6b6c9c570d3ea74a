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
from memory.llm import LLMUnavailable
from memory.recall.intent import analyse, speaks_to
from memory.recall.recall import RecallResult
from tests.episode_sample import heard

T0 = datetime(2026, 4, 14, 19, 0, tzinfo=UTC)


class Model:
    """Answers with ``reply``; asked whether a sentence answers the question, says ``verdict``."""

    def __init__(self, reply: str, verdict: str = "no") -> None:
        self.reply, self.verdict, self.asked, self.checked = reply, verdict, 0, 0

    def stream(self, messages, **kw):  # type: ignore[no-untyped-def]
        self.asked += 1
        yield self.reply

    def complete(self, messages, **kw):  # type: ignore[no-untyped-def]
        self.checked += 1
        if self.verdict == "down":
            raise LLMUnavailable("the model server is not running")
        return f'{{"answers": "{self.verdict}"}}'


@contextmanager
def memory(path: Path, said: list[str], reply: str, verdict: str = "no") -> Iterator[tuple[Pipeline, Model]]:
    model = Model(reply, verdict)
    with heard(path, [("user", t) for t in said], ("Pavel", "Ines"), T0, model) as p:
        yield p, model


def test_words_that_only_name_someone_do_not_answer_a_relation_about_them(tmp_path: Path) -> None:
    with memory(tmp_path, ["My uncle Pavel plays the accordion in a folk band."], "Uncle.") as (p, model):
        ans = p.answer("Where does Pavel live?", now=T0 + timedelta(days=1))
        assert ans.text.startswith("I don't know") and model.asked == 0
        assert ans.recall is not None and ans.recall.unsaid


@pytest.mark.parametrize(("verdict", "answered"), [("yes", True), ("no", False), ("down", False)])
def test_a_paraphrase_the_model_reads_as_an_answer_goes_to_the_model(tmp_path: Path, verdict: str,
                                                                      answered: bool) -> None:
    """No cue word of the asked relation nor topic word is said ("started beekeeping" for a hobby taken up): the
    model reads the sentence and says whether it answers. Said "no", or the model down: not answered."""
    with memory(tmp_path, ["My uncle Pavel has started beekeeping on his allotment."], "Beekeeping.",
                verdict) as (p, model):
        ans = p.answer("What hobby did Pavel take up?", now=T0 + timedelta(days=1))
        assert ans.recall is not None and ans.recall.unsaid and model.checked >= 1
        assert (ans.text == "Beekeeping.") is answered and (model.asked == 1) is answered


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
    # a number with nothing to work it out from is a guess; counted, or from a number said, it is not
    r = _recall("How old is my dad?", "My dad loves fishing on the Tay.")
    assert ungrounded("35", r.question, r)
    assert ungrounded("He is thirty-five.", r.question, r)
    r = _recall("How old is Arthur?", "My grandad Arthur turns ninety next week.")
    assert not ungrounded("89", r.question, r)
    r = _recall("How many times did I go climbing?", "I went climbing with Sam again.")
    assert not ungrounded("Twice.", r.question, r)
    assert not ungrounded("Twice, on Mondays.", r.question, r)  # and a count
    assert ungrounded("A nurse.", r.question, r)
    # a "no" said in the model's own negation is no new fact; a thing named that nothing said still is
    r = _recall("Do I like coriander?", "Honestly I can't stand coriander, it tastes like soap.")
    assert not ungrounded("No, you don't like coriander.", r.question, r)
    assert not ungrounded("No, never.", r.question, r)
    assert ungrounded("No, you don't like parsley.", r.question, r)
    guess = _recall("What job might Lena like?", "My cousin Lena lives in Munich and teaches maths.")
    assert not ungrounded("Perhaps tutoring.", guess.question, guess)  # asked to reason, not to remember
    general = _recall("How far is the moon?", "")
    general.personal = False
    assert not ungrounded("About 384,000 km.", general.question, general)  # general knowledge


def test_the_dates_of_facts_are_no_number_to_work_from(tmp_path: Path) -> None:
    """A fact's start date is in the prompt when the question is about the past ("how old" reads as one): its
    digits are no age. "How old is my dad?" answered "35" is a guess."""
    with memory(tmp_path, [], "35") as (p, _):
        p.graph.assert_fact("my dad", "likes", "fishing", now=T0, subject_type="PERSON")
        [fact] = p.graph.all_arcs(now=T0)
    r = _recall("How old is my dad?", "My dad loves fishing on the Tay.")
    r.facts = [fact]
    assert any("2026" in s for s in r.statements())  # the date is there for the model to read
    assert ungrounded("35", r.question, r)


def test_someone_only_named_in_what_was_said_is_asked_about_personally(tmp_path: Path) -> None:
    """No fact made Arthur an entity, but he was named: a question about his life is about someone's life, and a
    guess about it is not said ("What does Arthur do for a living?" "A grandfather.")."""
    with memory(tmp_path, ["My grandad Arthur turns ninety next week."], "A grandfather.") as (p, model):
        ans = p.answer("What does Arthur do for a living?", now=T0 + timedelta(days=1))
        assert ans.recall is not None and ans.recall.personal
        assert model.asked == 1 and "grandfather" not in ans.text and "know" in ans.text


def test_a_general_question_naming_something_said_stays_general(tmp_path: Path) -> None:
    with memory(tmp_path, ["We saw Hamlet at the Globe last night."], "William Shakespeare.") as (p, _):
        ans = p.answer("Who wrote Hamlet?", now=T0 + timedelta(days=1))
        assert ans.recall is not None and not ans.recall.personal
        assert ans.text == "William Shakespeare."  # something said bears on it: no claim it is general knowledge


def test_a_general_question_nothing_said_bears_on_says_so(tmp_path: Path) -> None:
    with memory(tmp_path, ["I live in Bath."], "Ottawa.") as (p, _):
        ans = p.answer("What is the capital of Canada?", now=T0 + timedelta(days=1))
        assert ans.recall is not None and not ans.recall.personal and not ans.recall.episodes_relevant
        assert ans.text == "From general knowledge: Ottawa."


@pytest.mark.parametrize(("question", "general"), [
    ("What is the capital of Norway?", True),  # a place memory knows, asked what it is: still general knowledge
    ("What do you know about Norway?", False),  # asked what memory holds
    ("When am I going to Norway?", False),  # the user's own
])
def test_a_place_memory_knows_asked_about_in_general(tmp_path: Path, question: str, general: bool) -> None:
    with memory(tmp_path, ["We're flying to Norway in the spring for a cousin's wedding."], "Oslo.") as (p, _):
        p.graph.assert_fact("user", "plans_trip_to", "Norway", now=T0, object_type="PLACE", source="s1#0")
        ans = p.answer(question, now=T0 + timedelta(days=1))
        assert ans.recall is not None and ans.recall.personal is not general
        if general:
            assert "Oslo" in ans.text and "know" not in ans.text


def test_a_general_answer_that_says_so_already_is_not_said_twice(tmp_path: Path) -> None:
    with memory(tmp_path, ["I live in Bath."], "As far as I know, Mars has two moons.") as (p, _):
        assert p.answer("How many moons does Mars have?", now=T0).text == "As far as I know, Mars has two moons."


def test_a_message_that_the_model_is_down_is_not_general_knowledge(tmp_path: Path) -> None:
    with memory(tmp_path, ["I live in Bath."], "", verdict="down") as (p, _):
        p._llm = lambda: (_ for _ in ()).throw(LLMUnavailable("no server"))  # type: ignore[method-assign]
        text = p.answer("How many moons does Mars have?", now=T0).text
        assert "unavailable" in text and not text.startswith("From general knowledge")


def test_a_premise_told_in_other_words_is_said_by_them() -> None:
    """"How much weight have I lost?" after "Down two stone since January, feeling great.": "weight" is told in its
    units (memory.words.ASKED_AS_TOLD), so the premise is said and the answer is not turned down."""
    from assistant.answer import unsaid_in
    assert unsaid_in(["weight"], ["Down two stone since January, feeling great."]) == []
    assert unsaid_in(["weight"], ["Ran my first 10k on Sunday."]) == ["weight"]
    assert unsaid_in(["bakery"], ["Down two stone since January."]) == ["bakery"]  # others as before
    # a party told as a "do", an anniversary by its name, each as a whole (everyday84: "When's the anniversary party
    # for Tom's parents?" was refused of "Tom's mum and dad's ruby wedding do is a week on Saturday")
    do = "Tom's mum and dad's ruby wedding do is a week on Saturday."
    assert unsaid_in(["anniversary", "party"], [do]) == []
    assert unsaid_in(["party"], ["The wedding is a week on Saturday, what will I do?"]) == ["party"]
    assert unsaid_in(["anniversary"], ["We went to a wedding in Ruby's village."]) == ["anniversary"]
    # searched, words of more than one are left out: "wedding" alone is no party
    from memory.words import told_as
    assert "bash" in told_as("When's the party?") and not any(" " in w for w in told_as("When's the party?"))
