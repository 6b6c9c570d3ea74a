"""What recall hands the model: the asked relation found without generated Cypher, and dates only when asked."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from memory.graph import TemporalGraph
from memory.model import USER_ID, Arc, spoken_day
from memory.recall.intent import analyse
from memory.recall.recall import Recaller
from tests.conftest import T0


@pytest.fixture
def memory(graph: TemporalGraph) -> TemporalGraph:
    graph.assert_fact("Anna", "sister_of", USER_ID, now=T0)
    graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
    graph.assert_fact("Anna", "lives_in", "Lisbon", now=T0 + timedelta(days=30))
    graph.assert_fact(USER_ID, "has_pet", "Biscuit", now=T0)
    graph.assert_fact("Biscuit", "is_a", "dog", now=T0)
    return graph


def _no_cypher(*args: Any) -> tuple[list[Arc], list[str], list[str]]:
    raise AssertionError("the fast path should have answered this without generated Cypher")


@pytest.mark.parametrize(("question", "when"), [
    ("When did Anna move to Lisbon?", True), ("How long has Anna lived there?", True),
    ("What did I do two days ago?", True), ("Where does Anna live now?", False), ("What is my dog called?", False),
    # a "when" after another question word says of which time it asks (everyday84: "How old was Bridie when she
    # passed away?" was answered with the day she died)
    ("How old was Bridie when she passed away?", False), ("What did I eat when I was in Rome?", False),
    ("So when is the party?", True), ("How many years was I there when I left?", True),
    # a rate is no time asked (everyday84: the most sheep "in one day" read the best match first, the old tally)
    ("What's the most sheep Hemi's ever shorn in one day?", False), ("How many miles a week do I run?", False),
    ("What did I do every day in Rome?", False), ("How many days a week am I in the office?", True),
    # a thing of a time, or which one of them, is no time asked (everyday86/87: "Which year's Massey did I take?" was
    # answered with the day of the run, "Which wedding anniversary are we celebrating?" refused for want of a date)
    ("Which year's Massey did I take on the tractor run?", False), ("What's this year's budget?", False),
    ("Which wedding anniversary are Dave and I celebrating?", False), ("When is our anniversary?", True),
    ("What year did we move to Leeds?", True),
])
def test_time_questions_are_recognised(question: str, when: bool) -> None:
    assert analyse(question).when is when


@pytest.mark.parametrize("question", ["Where did I go on holiday?", "Where did Mia spend her vacation?",
                                      "Which trips did I take?", "Have I been abroad this year?"])
def test_the_everyday_words_for_a_trip_ask_for_visits(question: str) -> None:
    assert "visited" in analyse(question).relations


@pytest.mark.parametrize(("question", "relation"), [
    ("Am I still a student?", "studies_at"), ("Where did Ana go to uni?", "studies_at"),
    ("What degree is Sam doing?", "studies"), ("What motorbike do I ride?", "drives"),
    ("Does Tom still ride a scooter?", "drives"),
])
def test_everyday_words_for_studying_and_vehicles(question: str, relation: str) -> None:
    assert relation in analyse(question).relations


@pytest.mark.parametrize(("question", "owns"), [
    # "have" as an auxiliary: a participle follows its subject (and an adverb)
    ("What types of yoga has Maria practiced?", False), ("Have I ever been to Japan?", False),
    ("What has Jo taken up recently?", False), ("Has Mary Jane finally sold her flat?", False),
    ("Have you heard from my brother?", False),
    # "have" as possession, a past participle later in the sentence or not
    ("What pets does Maria have?", True), ("Have I got a bike?", True), ("Do I have a car?", True),
    ("Does Maria have a shared allotment?", True), ("Has Ned a red kayak?", True),
])
def test_have_asks_about_possession_unless_it_is_an_auxiliary(question: str, owns: bool) -> None:
    assert ("owns" in analyse(question).relations) is owns


@pytest.mark.parametrize("question", ["What sports do I do?", "What exercise does Anna do?", "How do I keep fit?"])
def test_sport_and_exercise_ask_for_what_is_practised_too(question: str) -> None:
    assert {"plays", "practices"} <= set(analyse(question).relations)  # spin and yoga as well as squash


@pytest.mark.parametrize(("question", "job", "home"), [
    ("What does Sunil do?", True, False), ("What do you do now?", True, False),
    ("What does Sunil do for a living?", True, False),  # a living is no home
    ("What does Sunil do on Saturdays?", False, False), ("What did I do last weekend?", False, False),
    ("Where is Sunil living now?", False, True),
])
def test_what_someone_does_asked_alone_is_their_job(question: str, job: bool, home: bool) -> None:
    rels = analyse(question).relations
    assert ("works_as" in rels) is job and ("lives_in" in rels) is home


def test_a_name_question_about_a_role_asks_for_the_kinship_arc() -> None:
    assert analyse("What is my sister's name?").relations == ("sister_of",)


@pytest.mark.parametrize(("question", "roles", "asked"), [
    # a role the speaker has, asked without "my": the role is what is asked ("children" -> child_of, narrower too)
    ("How many children do I have?", ("child",), ("child_of", "daughter_of", "son_of")),
    ("Have I got any cousins?", ("cousin",), ("cousin_of",)),
    # "my": who holds it is asked about, not the kinship
    ("Where does my sister live?", ("sister",), ("lives_in",)),
    # someone else's, or no role at all
    ("How many kids does Anna have?", (), None),
    ("What did I have for dinner?", (), None),
])
def test_roles_asked_about(question: str, roles: tuple[str, ...], asked: tuple[str, ...] | None) -> None:
    intent = analyse(question)
    assert intent.role_words == roles
    if asked is not None:
        assert intent.relations == asked


def test_still_asks_about_what_was_and_is() -> None:
    assert analyse("Am I still vegan?").history and analyse("Does Anna still live in Porto?").history


def test_tell_me_about_a_role_is_about_the_person_not_the_kinship(memory: TemporalGraph) -> None:
    assert analyse("Tell me about my sister.").relations == ()
    r = Recaller(memory).recall("Tell me about my sister.", now=T0 + timedelta(days=40))
    assert {"sister_of", "lives_in"} <= {a.relation for a in r.facts}


def test_first_person_question_about_an_entity_also_looks_from_the_user(memory: TemporalGraph) -> None:
    r = Recaller(memory, cypher=_no_cypher).recall("Do I have a dog?", now=T0 + timedelta(days=40))
    assert r.targeted >= 1
    assert any(a.relation == "has_pet" and a.object == "Biscuit" for a in r.facts)


def test_a_role_question_also_says_who_holds_the_role(memory: TemporalGraph) -> None:
    r = Recaller(memory, cypher=_no_cypher).recall("Where does my sister live?", now=T0 + timedelta(days=40))
    assert {(a.relation, a.object) for a in r.facts} == {("lives_in", "Lisbon"), ("sister_of", "Sam")}


def test_role_name_question_needs_no_generated_cypher(memory: TemporalGraph) -> None:
    r = Recaller(memory, cypher=_no_cypher).recall("What is my sister's name?", now=T0 + timedelta(days=40))
    assert [(a.subject, a.relation) for a in r.facts] == [("Anna", "sister_of")]


def test_dates_reach_the_model_only_for_questions_about_time(memory: TemporalGraph) -> None:
    later = T0 + timedelta(days=40)
    plain = Recaller(memory).recall("Where does Anna live?", now=later).statements()
    assert plain == ["Anna lives in Lisbon"]
    dated = Recaller(memory).recall("Since when does Anna live in Lisbon?", now=later).statements()
    assert any("Lisbon" in s and spoken_day(T0 + timedelta(days=30)) in s for s in dated)  # as people say it
    history = Recaller(memory).recall("Where did Anna live before?", now=later).statements()
    assert any("Porto" in s and "until" in s for s in history)  # ended facts always keep their span


class _ScriptedLLM:
    """Answers every request with one fixed query (the model's output is not what is tested here)."""

    def __init__(self, query: str) -> None:
        self.query = query

    def complete(self, messages: Any, **kw: Any) -> str:
        return self.query


def test_a_count_over_utterances_reaches_the_answer_as_a_note(graph: TemporalGraph) -> None:
    from memory.episodes import Episodes
    from memory.recall.cypher_gen import CypherRecall
    from memory.transcripts import Turn

    episodes = Episodes(graph)
    said = ["I went climbing at the gym.", "Climbing again today, my arms hurt!", "I baked bread.",
            "We climbed in the Peak District."]
    episodes.add([Turn("c", T0 + timedelta(days=i), "user", text, i) for i, text in enumerate(said)])
    llm = _ScriptedLLM("MATCH (e:Episode) WHERE e.speaker = 'user' AND e.terms CONTAINS 'climb' "
                       "AND e.at >= $year_start RETURN count(e) AS times")
    recaller = Recaller(graph, cypher=CypherRecall(graph, llm), episodes=episodes)  # type: ignore[arg-type]
    result = recaller.recall("How many times did I go climbing this year?", now=T0 + timedelta(days=10))
    assert result.notes == ["Counted in memory: times = 3"]
    assert result.cypher and result.cypher_facts == 1
    # a count of nothing is not a note: the model took "times = 0" for a memory
    none = Recaller(graph, cypher=CypherRecall(graph, _ScriptedLLM(
        "MATCH (e:Episode) WHERE e.terms CONTAINS 'canberra' RETURN count(e) AS times")),
        episodes=episodes)  # type: ignore[arg-type]
    assert none.recall("How many times did I go to Canberra?", now=T0 + timedelta(days=10)).notes == []
    # a query that writes is refused by the guard: nothing counted, nothing changed
    bad = Recaller(graph, cypher=CypherRecall(graph, _ScriptedLLM("MATCH (e:Episode) DETACH DELETE e")),
                   episodes=episodes)  # type: ignore[arg-type]
    assert bad.recall("How many times did I go climbing?", now=T0 + timedelta(days=10)).notes == []
    assert episodes.count() == len(said)


@pytest.mark.parametrize(("question", "objects"), [
    # some of the facts found name the question's topic: those are what was asked
    ("What kinds of yoga does Maria practise?", {"aerial yoga"}),
    ("When did Maria start practising aerial yoga?", {"aerial yoga"}),
    # none names it, or the topic is what the answer is not: every fact found
    ("What are Maria's hobbies?", {"aerial yoga", "camping", "pottery"}),
    ("What does Maria practise besides yoga?", {"aerial yoga", "camping", "pottery"}),
    ("What did Maria practise after yoga?", {"aerial yoga", "camping", "pottery"}),
])
def test_facts_that_name_the_topic_leave_out_those_found_with_them(graph: TemporalGraph, question: str,
                                                                   objects: set[str]) -> None:
    for i, hobby in enumerate(("aerial yoga", "camping", "pottery")):
        graph.assert_fact("Maria", "practices", hobby, now=T0 + timedelta(days=i))
    r = Recaller(graph).recall(question, now=T0 + timedelta(days=10))
    assert {a.object for a in r.facts if a.relation == "practices"} == objects


def test_facts_of_another_relation_stay_beside_those_that_name_the_topic(graph: TemporalGraph) -> None:
    """"Who is coming to Rome with me?": the cousin found with the trip does not name Rome, and is the answer;
    the other trip found with it is not."""
    graph.assert_fact(USER_ID, "plans_trip_to", "Rome", now=T0)
    graph.assert_fact(USER_ID, "plans_trip_to", "Oslo", now=T0)
    graph.assert_fact("Bea", "cousin_of", USER_ID, now=T0)
    later = T0 + timedelta(days=1)
    bea = graph.find_entity("Bea")
    assert bea is not None
    arcs = [*graph.lookup_many([USER_ID], "plans_trip_to", at=later),
            *graph.lookup_many([bea.id], "cousin_of", at=later)]

    def query(*args: Any) -> tuple[list[Arc], list[str], list[str]]:  # a generated query that found all three
        return arcs, ["MATCH …"], []
    found = [(a.relation, a.object) for a in Recaller(graph, cypher=query, cypher_mode="always").recall(
        "Who is coming to Rome with me?", now=later).facts]
    assert ("plans_trip_to", "Rome") in found and ("plans_trip_to", "Oslo") not in found
    assert "cousin_of" in {r for r, _ in found}


def test_a_statement_generates_no_query(memory: TemporalGraph) -> None:
    """Told something ("I moved to Tallinn for a job at Bolt."), the reply needs no generated query: it cost 4-7 s
    of model time before a statement's reply. Asked the same relation, with no fact of it, the query runs."""
    from collections.abc import Iterator

    from assistant.pipeline import Pipeline

    calls: list[str] = []

    def query(question: str, *args: Any) -> tuple[list[Arc], list[str], list[str]]:
        calls.append(question)
        return [], [], []

    class Model:
        def stream(self, messages: Any, **kw: Any) -> Iterator[str]:
            yield "Good luck in Tallinn!"

        def complete(self, messages: Any, **kw: Any) -> str:
            return '{"answers": "no"}'

    later = T0 + timedelta(days=40)
    pipeline = Pipeline(memory, Recaller(memory, cypher=query), lambda: Model())  # type: ignore[arg-type]
    told = pipeline.answer("I moved to Tallinn for a job at Bolt.", now=later)
    assert told.text == "Good luck in Tallinn!" and calls == []
    pipeline.answer("Where does my cousin work?", now=later)
    assert calls == ["Where does my cousin work?"]


def test_a_statement_reply_says_the_users_we_as_you(memory: TemporalGraph) -> None:
    """A reply to what the user told says their "we" and "our" back as "you" and "your" (the model echoed "our
    neighbour keeps bees" in the user's words); its own "I" stays, and so does "the US"."""
    from collections.abc import Iterator

    from assistant.pipeline import Pipeline

    class Model:
        def stream(self, messages: Any, **kw: Any) -> Iterator[str]:
            yield from ["I", "'m", " glad", " our", " friends", " and", " we", "'re", " off", " to", " the", " US",
                        " with", " us", "!"]

        def complete(self, messages: Any, **kw: Any) -> str:
            return '{"answers": "no"}'

    pipeline = Pipeline(memory, Recaller(memory), lambda: Model())  # type: ignore[arg-type]
    told = pipeline.answer("Our friends and we are off to the US in May.", now=T0 + timedelta(days=3))
    assert told.text == "I'm glad your friends and you're off to the US with you!"
