"""Belief revision by the model: which older facts a turn is checked against, and what a verdict does."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memory.extraction.types import ExtractedFact
from memory.graph import TemporalGraph
from memory.kglite_store import KgliteStore
from memory.learning import Extraction, Learner
from memory.llm import LLMUnavailable
from memory.revision import Reviser, candidates, says_a_change, says_an_end
from memory.transcripts import TranscriptStore, Turn

T0 = datetime(2026, 1, 12, 18, 0, tzinfo=UTC)
LATER = T0 + timedelta(days=120)


class Verdicts:
    """Stands in for the model: answers each prompt by the first of ``table``'s keys found in it."""

    def __init__(self, table: dict[str, str], *, down: bool = False) -> None:
        self.table, self.down = table, down
        self.prompts: list[str] = []

    def complete(self, messages: Sequence[Any], **kw: Any) -> str:
        if self.down:
            raise LLMUnavailable("no model here")
        text = messages[-1]["content"]
        self.prompts.append(text)
        verdict = next((v for k, v in self.table.items() if k in text), "still_true")
        return json.dumps({"verdict": verdict})

    def stream(self, messages: Sequence[Any], **kw: Any):  # type: ignore[no-untyped-def]
        yield ""


class Nothing:
    """The rules found nothing in these turns (the phrasings are beyond them): only revision can act."""

    def extract(self, turns: Sequence[Turn], *, known: Sequence[ExtractedFact] = ()) -> Extraction:
        return Extraction([], "scripted")


@pytest.fixture
def env(tmp_path: Path):
    store = KgliteStore(tmp_path / "g.kgl")
    graph = TemporalGraph(store)
    graph.ensure_user(T0)
    graph.assert_fact("user", "likes", "true crime podcasts", now=T0, source="c0#0")
    graph.assert_fact("user", "lives_in", "Glasgow", now=T0, source="c0#1")
    graph.assert_fact("user", "drives", "Golf", now=T0, source="c0#2")
    ts = TranscriptStore(tmp_path / "t.sqlite3")
    yield graph, ts
    ts.close()
    store.close()


def said(text: str, idx: int = 0, at: datetime = LATER) -> Turn:
    return Turn("c1", at, "user", text, idx)


@pytest.mark.parametrize(("text", "change"), [
    ("Honestly I'm over true crime now.", True),
    ("Traded the Fiesta in last week.", True),
    ("Halcyon made me redundant on Friday.", True),
    ("My knees are wrecked, I had to give up squash.", True),  # said in more than one word
    ("The Golf failed its MOT again.", False),  # talk about a fact, no word of a change
    ("Scored twice at football last night!", False),
])
def test_only_turns_that_say_something_changed_are_checked(text: str, change: bool) -> None:
    assert says_a_change(text) is change


@pytest.mark.parametrize(("text", "end"), [
    ("We had to cancel Crete, the car needed a gearbox.", True),
    ("I've never been to Japan.", True),
    ("Mum finally retired on Friday.", True),
    ("We said goodbye to Biscuit this week.", True),
    ("Grandad passed away in March.", True),
    ("I'm a proper coffee person now.", False),  # a change towards a state says it holds
    ("Passed my driving test on the second go!", False),  # passed, not passed away
    ("Started pottery on Tuesdays.", False),
    ("I've let the allotment go. Bit sad.", True),  # around what ended
    ("They let him go at work.", True),
    ("Let's go to the pub.", False),
    ("We let the kids go to the park.", False),
    # given up, said the British way (everyday80: "I've jacked in the rowing" was a yes to "Do I still row?")
    ("Jacked in the choir last month.", True),
    ("She's packed it in at the bakery.", True),
    ("We packed the van on Friday.", False),
    # a car scrapped or written off (everyday80: "Scrapped the Fabia" was a yes to "Have I got a car?")
    ("Scrapped the Astra, the sills were gone.", True),
    ("The Polo's a write-off after the crash.", True),
    # an animal gone to live with others (everyday85: "We've rehomed Juno" was a yes to "Have we still got Juno?")
    ("We've rehomed Juno.", True), ("The cat's been re-homed with my aunt.", True),
    ("We're rehoming two hens from a battery farm.", False),  # taken in
])
def test_words_that_say_something_ended_or_does_not_hold(text: str, end: bool) -> None:
    assert says_an_end(text) is end


def test_candidates_are_the_older_facts_a_turn_touches(env) -> None:
    graph, _ = env
    facts = graph.arcs_of_entity(graph.find_entity("user").id, now=LATER)
    objects = lambda t: [a.object for a in candidates(facts, t, before=LATER)]  # noqa: E731
    assert objects(said("Honestly I'm over true crime now, it's all history for me.")) == ["true crime podcasts"]
    assert objects(said("We moved out last month, the new flat is tiny.")) == ["Glasgow"]  # a cue of lives_in
    assert objects(said("The Golf failed its MOT again.")) == []  # no change said
    assert objects(said("I'm over the moon about the puppy now.")) == []  # touches no fact
    # a fact learned in this same conversation is not revised by it
    assert [a.object for a in candidates(facts, said("Over true crime now."), before=T0)] == []


def test_a_turn_that_ends_a_fact_closes_it_and_keeps_history(env) -> None:
    graph, ts = env
    model = Verdicts({"true crime": "no_longer_true"})
    learner = Learner(graph, ts, Nothing(), reviser=Reviser(lambda: model))
    result = learner.ingest([said("Honestly I'm over true crime now, it's all history podcasts for me."),
                             said("Glasgow is grey again now.", 1, LATER + timedelta(minutes=1))], source="test")[0]
    assert len(model.prompts) == 2  # each touched fact asked once
    likes = graph.history("user", "likes", now=LATER + timedelta(days=1))
    assert [(a.object, a.valid_to) for a in likes] == [("true crime podcasts", LATER)]
    assert "c1#0" in likes[0].sources  # the words that ended it
    assert [c.kind for c, _, _ in result.changes] == ["closed"]
    assert graph.lookup(graph.find_entity("user").id, "lives_in", None, at=LATER)  # "still true": unchanged


def test_a_statement_learned_mid_conversation_is_checked_when_the_conversation_ends(env) -> None:
    """Learned mid-conversation with ``check=False`` (the next question waits on the one model server), the facts
    said are applied and no check is asked; the conversation's end checks the turns so learned."""
    from memory.learning import SO_FAR

    graph, ts = env
    model = Verdicts({"true crime": "no_longer_true"})
    learner = Learner(graph, ts, Nothing(), reviser=Reviser(lambda: model))
    ts.add_turns([said("Honestly I'm over true crime now, it's all history podcasts for me.")], source="chat")
    first = learner.learn("c1", check=False)
    assert model.prompts == [] and not first.changes
    assert ts.conversation("c1").learn_status == SO_FAR
    assert learner.learn("c1", check=False).skipped  # nothing new told: nothing to do
    ts.add_turns([Turn("c1", LATER + timedelta(minutes=1), "assistant", "Noted.", 1)], source="chat")
    last = learner.learn("c1")  # the conversation's end: only the reply is new, the told turn is checked now
    assert len(model.prompts) == 1 and [c.kind for c, _, _ in last.changes] == ["closed"]
    assert ts.conversation("c1").learn_status == "learned"
    assert learner.learn("c1").skipped  # checked once


def test_at_most_limit_checks_and_a_model_that_is_down_loses_nothing(env) -> None:
    graph, ts = env
    model = Verdicts({"": "no_longer_true"})
    learner = Learner(graph, ts, Nothing(), reviser=Reviser(lambda: model, limit=1))
    learner.ingest([said("Over true crime now, and we moved from Glasgow, and sold the Golf.")], source="t")
    assert len(model.prompts) == 1
    down = Learner(graph, ts, Nothing(), reviser=Reviser(lambda: Verdicts({}, down=True)))
    result = down.ingest([Turn("c2", LATER, "user", "We moved from Glasgow now.", 0)], source="t")[0]
    assert any("not checked" in n for n in result.notes) and not result.changes
    assert ts.unlearned("c2") == []  # the conversation is learned all the same


def test_a_fact_of_the_speaker_read_from_the_other_end_is_theirs_too(env) -> None:
    """"Lena partner_of user" is the user's fact as much as Lena's (a symmetric relation)."""
    graph, ts = env
    graph.assert_fact("Lena", "partner_of", "user", now=T0, source="c0#3")
    model = Verdicts({"Lena": "no_longer_true"})
    Learner(graph, ts, Nothing(), reviser=Reviser(lambda: model)).ingest(
        [said("Lena and I called it quits last month, it was mutual.")], source="t")
    assert any("Lena partner of User" in p for p in model.prompts)
    assert not graph.lookup(None, "partner_of", graph.find_entity("user").id, at=LATER + timedelta(days=1))


def test_common_words_names_and_the_cue_itself_make_no_candidate(env) -> None:
    graph, _ = env
    graph.assert_fact("Nate", "has_pet", "new pup", now=T0, source="c0#4")
    graph.assert_fact("Nate", "likes", "Joanna's films", now=T0, source="c0#5")
    graph.assert_fact("Nate", "lives_in", "Austin", now=T0, source="c0#6")
    nate = graph.find_entity("Nate")
    facts = [a for a in graph.arcs_of_entity(nate.id, now=LATER) if a.subject_id == nate.id]

    def objects(text: str) -> list[str]:
        return [a.object for a in candidates(facts, Turn("c1", LATER, "Nate", text, 0), before=LATER,
                                             speakers=frozenset({"nate", "joanna"}))]

    assert objects("Thanks Joanna, I'm trying a new recipe now!") == []  # "new" is the cue; Joanna a speaker
    assert objects("I'd love that, films are my thing now.") == ["Joanna's films"]
    # one at a time: a cue word of the relation is enough; "likes" needs its own words
    assert objects("We're moving house in May, so much to pack now.") == ["Austin"]


def test_news_of_someone_else_checks_none_of_the_speakers_facts(env) -> None:
    """"Dmitri lives in Turin now" says nothing of the user's home; "Noor moved to Leeds" does not end being
    cousins (the long shared scenario lost the user's home and "my cousin" to these before this rule)."""
    graph, _ = env
    graph.assert_fact("Noor", "cousin_of", "user", now=T0, source="c0#7")
    user = graph.find_entity("user")
    facts = graph.arcs_of_entity(user.id, now=LATER)
    for text in ("Dmitri lives in Turin now.", "Noor moved to Leeds."):
        assert candidates(facts, said(text), before=LATER) == []
    assert [a.object for a in candidates(facts, said("We moved house now, a flat by the sea."),
                                         before=LATER)] == ["Glasgow"]


class Garbled(Verdicts):
    """A model that answers something no schema allows (a remote endpoint without structured output)."""

    def complete(self, messages: Sequence[Any], **kw: Any) -> str:
        super().complete(messages, **kw)
        return "no_longer_true, I think"


def test_an_unreadable_verdict_changes_nothing(env) -> None:
    graph, ts = env
    model = Garbled({})
    result = Learner(graph, ts, Nothing(), reviser=Reviser(lambda: model)).ingest(
        [said("Honestly I'm over true crime now.")], source="t")[0]
    assert model.prompts and not result.changes  # asked, and not read as an end
    assert graph.lookup(graph.find_entity("user").id, "likes", None, at=LATER + timedelta(days=1))


def test_a_change_still_to_come_ends_nothing_yet(env) -> None:
    """"House is sold! We move to Lancaster on the 18th of December.": the rules read a plan to move; the home held
    now is not asked about (the model had closed it, and "Where do I live?" was then answered "Not now")."""
    from memory.extraction.rules import RuleExtractor
    from memory.learning import RulesExtractor

    graph, ts = env
    model = Verdicts({"Glasgow": "no_longer_true"})  # a model that would close the home
    learner = Learner(graph, ts, RulesExtractor(RuleExtractor()), reviser=Reviser(lambda: model))
    learner.ingest([said("House is sold! We move to Lancaster on the 18th of December.")], source="test")
    assert [a.object for a in graph.lookup(graph.find_entity("user").id, "lives_in", None, at=LATER)] == ["Glasgow"]
    assert not any("Glasgow" in p for p in model.prompts)
    # a move said as done is still checked
    learner.ingest([Turn("c2", LATER + timedelta(days=60), "user", "We moved out last month, the new flat is tiny.",
                         0)], source="test")
    assert any("Glasgow" in p for p in model.prompts)
