"""Candidate proposal, date resolution, verification and predicate normalisation (issue 10), no model."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memory.errors import UnknownRelation
from memory.extraction.candidates import Candidate, propose, resolve_when
from memory.extraction.choose import CandidateExtractor, Choice, example_problems, parse, schema, verify
from memory.extraction.rules import RuleExtractor
from memory.llm import LLMBadOutput
from memory.transcripts import Turn
from memory.vocabulary import converge, is_relation, predicate_name, relation

AT = datetime(2026, 3, 11, 9, 0, tzinfo=UTC)  # a Wednesday


@pytest.fixture(scope="module")
def nlp() -> Any:
    return RuleExtractor().nlp


def cands(nlp: Any, text: str, speaker: str = "user") -> tuple[Any, list[Candidate]]:
    doc = nlp(text)
    return doc, propose(doc, speaker=speaker, at=AT)


def by_text(cs: Sequence[Candidate], text: str) -> Candidate:
    return next(c for c in cs if c.text == text)


# ---------------------------------------------------------------- candidates

def test_speaker_first_then_spans_from_the_sentence(nlp: Any) -> None:
    _, cs = cands(nlp, "My housemate Joel and I rent a tiny flat in Brighton.")
    assert cs[0].key == "S" and cs[0].text == "user"
    texts = [c.text for c in cs]
    assert "Joel" in texts and "Brighton" in texts and "tiny flat" in texts
    assert by_text(cs, "Joel").type == "PERSON"  # a role word names a person
    assert "housemate" not in texts and "my housemate" not in texts  # the role stays in the sentence
    assert len({c.key for c in cs}) == len(cs)


def test_unnamed_relative_belongs_to_the_speaker(nlp: Any) -> None:
    _, cs = cands(nlp, "My uncle keeps chickens.", speaker="Omar")
    uncle = by_text(cs, "uncle")
    assert uncle.owner == "Omar" and uncle.name == "Omar's uncle"
    assert by_text(cs, "chickens").owner is None


def test_vague_nouns_pronouns_and_numbers_are_not_candidates(nlp: Any) -> None:
    _, cs = cands(nlp, "We had a lot of fun that day and I met three people.")
    assert [c.text for c in cs] == ["user"]


def test_dates_are_candidates_with_their_resolved_value(nlp: Any) -> None:
    _, cs = cands(nlp, "I'm off to Rome with my cousin on Friday.")
    fri = next(c for c in cs if c.type == "DATE")
    assert fri.when == "2026-03-13"
    _, cs = cands(nlp, "I've been learning Welsh since January.")
    assert next(c for c in cs if c.type == "DATE").when == "2026-01"


@pytest.mark.parametrize("text, past, want", [
    ("Friday", False, "2026-03-13"), ("on Friday", True, "2026-03-06"), ("next Monday", False, "2026-03-16"),
    ("June", False, "2026-06"), ("June", True, "2025-06"), ("February", False, "2027-02"),
    ("last month", True, "2026-02"), ("2019", True, "2019"), ("two weeks ago", True, "2026-02-25"),
    ("the weather", True, None),
])
def test_resolve_when_against_the_turn_time(text: str, past: bool, want: str | None) -> None:
    assert resolve_when(text, AT, past=past) == want


# ---------------------------------------------------------------- verification

def ch(s: str, p: str, o: str, kind: str = "state", op: str = "assert", when: str = "none") -> Choice:
    return Choice(s, p, o, kind, op, when)


def key(cs: Sequence[Candidate], text: str) -> str:
    return by_text(cs, text).key


def test_a_shared_home_is_a_place_plus_a_person_never_a_person_as_home(nlp: Any) -> None:
    doc, cs = cands(nlp, "My housemate Joel and I rent a tiny flat in Brighton.")
    assert verify(ch("S", "lives_in", key(cs, "Brighton")), cs, doc) is None
    assert verify(ch("S", "lives_with", key(cs, "Joel")), cs, doc) is None
    assert "needs a place" in (verify(ch("S", "lives_in", key(cs, "Joel")), cs, doc) or "")


def test_questions_wishes_and_negations_give_no_fact(nlp: Any) -> None:
    doc, cs = cands(nlp, "Have you ever been to Lisbon?")
    assert verify(ch("S", "visited", key(cs, "Lisbon"), "event"), cs, doc) == "a question"
    doc, cs = cands(nlp, "I wish I could move to Canada.")
    assert "hedged" in (verify(ch("S", "lives_in", key(cs, "Canada")), cs, doc) or "")
    doc, cs = cands(nlp, "I don't play the piano.")
    assert "negated" in (verify(ch("S", "plays", key(cs, "piano")), cs, doc) or "")
    # the same words as a stopped state are fine: the negation is what `end` says
    assert verify(ch("S", "plays", key(cs, "piano"), op="end"), cs, doc) is None


def test_a_plan_is_not_a_hedge(nlp: Any) -> None:
    doc, cs = cands(nlp, "I'm going to fly to Rome in June.")
    assert verify(ch("S", "plans_trip_to", key(cs, "Rome"), "plan"), cs, doc) is None


def test_types_must_fit_the_predicate(nlp: Any) -> None:
    doc, cs = cands(nlp, "My sister Nadia started running in Galway last month.")
    run, date = key(cs, "running"), next(c.key for c in cs if c.type == "DATE")
    assert verify(ch("S", "lives_in", date), cs, doc) == "a date is a when, not an object"
    assert "needs a place" in (verify(ch("S", "lives_in", run), cs, doc) or "")
    assert verify(ch(run, "likes", "S"), cs, doc) is not None  # an activity is no subject
    assert verify(ch(key(cs, "Nadia"), "practices", run), cs, doc) is None
    assert "needs a person" in (verify(ch(key(cs, "Nadia"), "sister_of", run), cs, doc) or "")
    assert verify(ch(key(cs, "Nadia"), "sister_of", "S"), cs, doc) is None
    assert verify(ch("S", "likes", "S"), cs, doc) == "subject and object are the same"
    assert "speaker as its object" in (verify(ch(key(cs, "Nadia"), "keeps", "S"), cs, doc) or "")


def test_objects_from_earlier_turns_are_refused(nlp: Any) -> None:
    doc = nlp("He moved there last year.")
    cs = propose(doc, speaker="user", at=AT, context_people=["Ravi"])
    ravi = by_text(cs, "Ravi")
    assert ravi.sentence == -1
    assert verify(ch("S", "friend_of", ravi.key), cs, doc) == "the object was not said in this turn"


# ---------------------------------------------------------------- predicates

def test_open_predicates_are_relations_of_their_own() -> None:
    r = relation("keeps")
    assert r.name == "keeps" and not r.single_valued and not r.symmetric and r.decay.value == "durable"
    assert relation("Member of team").name == "member_of_team"
    assert not is_relation("keeps") and is_relation("lives_in")
    for bad in ("is", "glad", "x y z!!", "", "a_b_c_d_e_f_g"):
        with pytest.raises(UnknownRelation):
            relation(bad)


def test_spellings_that_mean_the_same_converge() -> None:
    assert predicate_name("Went to") == "visited" and predicate_name("got_back_from") == "visited"
    assert predicate_name("housemate_of") == "lives_with" and relation("loves").name == "likes"
    assert converge("keeping", ["keeps"]) == "keeps"
    assert converge("is_learning_to_play", ["learns_to_play"]) == "learns_to_play"
    assert converge("volunteers_at", ["volunteers_with"]) == "volunteers_at"  # prepositions differ
    assert converge("lives_with", ["lives_in"]) == "lives_with"  # the vocabulary's names stand
    assert converge("bakes", []) == "bakes"


# ---------------------------------------------------------------- the model's answer

def test_schema_offers_only_this_turns_keys(nlp: Any) -> None:
    _, cs = cands(nlp, "I moved to Leeds in May.")
    sch = schema(cs)["properties"]["facts"]
    assert sch["maxItems"] >= 1
    props = sch["items"]["properties"]
    assert props["subject"]["enum"] == [c.key for c in cs]
    assert props["when"]["enum"] == [*(c.key for c in cs if c.type == "DATE"), "none"]


def test_parse_drops_unknown_keys_and_refuses_non_json(nlp: Any) -> None:
    _, cs = cands(nlp, "I moved to Leeds.")
    leeds = key(cs, "Leeds")
    raw = json.dumps({"facts": [{"subject": "S", "predicate": "lives_in", "object": leeds, "kind": "state",
                                 "op": "assert", "when": "none"},
                                {"subject": "S", "predicate": "lives_in", "object": "Q", "kind": "state",
                                 "op": "assert", "when": "none"}]})
    assert [c.object for c in parse(raw, cs)] == [leeds]
    with pytest.raises(LLMBadOutput):
        parse("{not json", cs)


def test_few_shot_examples_stay_choosable(nlp: Any) -> None:
    assert example_problems(nlp) == []


class FakeLLM:
    def __init__(self, answers: list[Any]) -> None:
        self.answers, self.calls = answers, []  # type: ignore[var-annotated]

    def complete(self, messages: Any, *, json_schema: Any = None, **kw: Any) -> str:
        self.calls.append((messages, json_schema))
        a = self.answers.pop(0)
        return a(messages) if callable(a) else a

    def stream(self, *a: Any, **kw: Any) -> Any:
        raise NotImplementedError


def test_extractor_keeps_verified_choices_and_says_why_it_refused(nlp: Any) -> None:
    def answer(messages: Any) -> str:
        keys = {ln.split(" = ")[1].split(" [")[0]: ln.split(" = ")[0]
                for ln in messages[-1]["content"].splitlines() if " = " in ln}

        def f(p: str, o: str) -> dict[str, str]:
            return {"subject": "S", "predicate": p, "object": keys[o], "kind": "state", "op": "assert",
                    "when": "none"}
        return json.dumps({"facts": [f("lives_in", "Exeter"), f("lives_with", "Maya"), f("lives_in", "Maya")]})
    llm = FakeLLM([answer])
    turns = [Turn("c", AT, "assistant", "Hello!", idx=0),
             Turn("c", AT, "Ines", "I share a flat in Exeter with my friend Maya.", idx=1),
             Turn("c", AT, "Ines", "Thanks!", idx=2)]
    ex = CandidateExtractor(llm, nlp, known_predicates=lambda: ["keeps"])
    out = ex.extract(turns)
    assert len(llm.calls) == 1  # the assistant turn and a turn with nothing to choose make no call
    assert [(f.subject, f.relation, f.object) for f in out.facts] == [("Ines", "lives_in", "Exeter"),
                                                                       ("Ines", "lives_with", "Maya")]
    assert any("needs a place" in n for n in out.notes)
    assert out.facts[0].extra["kind"] == "state" and out.facts[0].turn == 1
    prompt = llm.calls[0][0]
    assert prompt[0]["role"] == "system" and "keeps" in prompt[-1]["content"]  # fixed prefix, then the turn


def test_a_person_is_no_vehicle_and_a_visit_to_come_is_a_plan(nlp: Any) -> None:
    from memory.extraction.choose import to_fact

    doc, cs = cands(nlp, "I'm driving to Bath with my aunt Meg on Saturday.")
    meg = next(c.key for c in cs if c.text == "Meg")
    assert "not a person" in (verify(ch("S", "drives", meg), cs, doc) or "")
    bath, sat = next(c.key for c in cs if c.text == "Bath"), next(c.key for c in cs if c.type == "DATE")
    f = to_fact(ch("S", "visited", bath, "event", when=sat), cs, speaker="user", turn=0, text="", at=AT)
    assert (f.relation, f.extra["kind"], f.extra["when"], f.valid_from) == ("plans_trip_to", "plan", "2026-03-14", None)
    done = to_fact(ch("S", "visited", bath, "event"), cs, speaker="user", turn=0, text="", at=AT)
    assert (done.relation, done.extra["kind"]) == ("visited", "event")


def test_learning_stores_open_predicates_and_the_next_turn_reuses_them(nlp: Any, tmp_path: Any) -> None:
    """Through the real Learner, kglite graph and SQLite transcripts: a chosen open fact survives into the
    graph, a rule-certain end still applies, and the graph's open predicates reach the next prompt."""
    from memory.extraction.choose import ChoiceWithRules
    from memory.graph import TemporalGraph
    from memory.kglite_store import KgliteStore
    from memory.learning import Learner, RulesExtractor
    from memory.transcripts import TranscriptStore

    def answer(messages: Any) -> str:
        keys = {ln.split(" = ")[1].split(" [")[0]: ln.split(" = ")[0]
                for ln in messages[-1]["content"].splitlines() if " = " in ln}
        if "goats" not in keys:
            return '{"facts":[]}'
        return json.dumps({"facts": [{"subject": keys["Dora"], "predicate": "keeping", "object": keys["goats"],
                                      "kind": "state", "op": "assert", "when": "none"}]})

    store = KgliteStore(tmp_path / "g.kgl")
    graph = TemporalGraph(store)
    graph.ensure_user(AT)
    ts = TranscriptStore(tmp_path / "t.sqlite3")
    try:
        graph.assert_fact("Dora", "keeps", "bees", now=AT)
        llm = FakeLLM([answer, answer])
        ex = ChoiceWithRules(CandidateExtractor(llm, nlp, known_predicates=graph.open_predicates),
                             RulesExtractor(RuleExtractor()))
        turns = [Turn("c1", AT, "user", "My neighbour Dora keeps goats.", idx=0),
                 Turn("c1", AT, "user", "I don't like jazz anymore.", idx=1)]
        Learner(graph, ts, ex).ingest(turns, source="test")
        dora = graph.require_entity("Dora")
        now = AT + timedelta(minutes=1)
        assert sorted(a.object for a in graph.lookup(dora.id, "keeps", at=now, now=now)) == ["bees", "goats"]
        assert "keeps" in llm.calls[0][0][-1]["content"]  # the graph's open predicates, offered to the model
    finally:
        ts.close()
        store.close()


def test_a_predicate_must_be_said_by_some_word_of_its_sentence(nlp: Any) -> None:
    from memory.extraction.choose import supported

    def said(p: str, text: str) -> bool:
        return supported(p, next(nlp(text).sents))

    assert said("keeps", "My neighbour kept bees for years.") and said("keeps", "She's keeping hens.")
    assert said("likes", "I absolutely love sushi.") and not said("likes", "Congrats on the new job!")
    assert said("sister_of", "My sister Nadia is here.") and not said("sister_of", "Nadia is here.")
    assert said("visited", "We got back from Peru.") and not said("has_pet", "My sister had a baby girl.")
    assert not said("gives_advice", "Take the leap, you won't regret it.")
    doc, cs = cands(nlp, "Congrats on the new job, Sam!")
    job = next(c.key for c in cs if "job" in c.text)
    assert "nothing in the sentence says likes" in (verify(ch("S", "likes", job), cs, doc) or "")
