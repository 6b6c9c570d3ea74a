"""A question's premises must be in what memory found, or the answer would accept them: the premise finder (pure,
table-tested on tagged words) and the pipeline's check (real graph, embedder and parser, a stand-in model)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from assistant.answer import KIND_SYSTEM
from assistant.pipeline import Pipeline
from memory.extraction.rules import RuleExtractor
from memory.extraction.rules_tokens import Tok
from memory.recall.intent import Kind, asked_kind, premises
from tests.episode_sample import heard

T0 = datetime(2026, 4, 14, 19, 0, tzinfo=UTC)


def tagged(spec: str) -> list[Tok]:
    """'What/PRON is/AUX Jon/PROPN 's/PART/POS style/NOUN ?/PUNCT' -> tokens (the tag defaults to the pos)."""
    out = []
    for i, item in enumerate(spec.split()):
        text, pos, *tag = item.split("/")
        out.append(Tok(i, text, text.lower(), pos, tag[0] if tag else pos, "", "", 0))
    return out


@pytest.mark.parametrize(("spec", "expected"), [
    # the category asked for is what the answer fills; what it is of stays a premise
    ("What/PRON is/AUX Jon/PROPN 's/PART/POS favorite/ADJ style/NOUN of/ADP painting/NOUN ?/PUNCT", ["painting"]),
    ("What/PRON did/AUX Maria/PROPN donate/VERB to/ADP a/DET luxury/NOUN store/NOUN ?/PUNCT", ["luxury", "store"]),
    ("Which/DET city/NOUN have/AUX they/PRON visited/VERB ?/PUNCT", []),
    ("What/DET types/NOUN of/ADP yoga/NOUN has/AUX she/PRON practiced/VERB ?/PUNCT", ["yoga"]),
    ("What/PRON 's/AUX my/PRON/PRP$ favourite/ADJ dish/NOUN ?/PUNCT", []),
    # relation cue words are said by facts in their own words; vague nouns are no premise
    ("What/PRON is/AUX my/PRON/PRP$ job/NOUN ?/PUNCT", []),
    ("How/SCONJ often/ADV does/AUX John/PROPN take/VERB his/PRON/PRP$ kids/NOUN to/ADP the/DET library/NOUN "
     "this/DET year/NOUN ?/PUNCT", ["library"]),  # kids: a role's word
    ("Where/SCONJ does/AUX my/PRON/PRP$ sister/NOUN live/VERB ?/PUNCT", []),
    # what follows the question is an instruction, not a premise
    ("Was/AUX it/PRON a/DET good/ADJ month/NOUN for/ADP work/NOUN ?/PUNCT Answer/NOUN yes/INTJ or/CCONJ "
     "no/INTJ ./PUNCT", []),
    # a choice offered is one premise: one of its nouns must be mentioned, not each
    ("Does/AUX John/PROPN live/VERB close/ADV to/ADP a/DET beach/NOUN or/CCONJ the/DET mountains/NOUN ?/PUNCT",
     ["beach|mountains"]),
    ("Did/AUX Ana/PROPN drive/VERB a/DET van/NOUN or/CCONJ ride/VERB a/DET bike/NOUN ?/PUNCT", ["van", "bike"]),
    ("Is/AUX her/PRON/PRP$ van/NOUN ,/PUNCT boat/NOUN or/CCONJ bike/NOUN older/ADJ ?/PUNCT", ["van|boat|bike"]),
    ("Is/AUX it/PRON her/PRON/PRP$ van/NOUN or/CCONJ her/PRON/PRP$ car/NOUN ?/PUNCT", []),  # car: a cue word
    ("Did/AUX she/PRON bake/VERB bread/NOUN ,/PUNCT cakes/NOUN and/CCONJ pies/NOUN ?/PUNCT",
     ["bread", "cakes", "pies"]),
    # a part of a time says when: no premise ("the beginning of November"); a part of a thing is one
    ("Which/DET game/NOUN did/AUX Nate/PROPN win/VERB at/ADP the/DET beginning/NOUN of/ADP November/PROPN ?/PUNCT",
     []),
    ("What/PRON did/AUX Ana/PROPN do/VERB for/ADP the/DET rest/NOUN of/ADP 2022/NUM ?/PUNCT", []),
    ("What/PRON did/AUX Ana/PROPN plant/VERB at/ADP the/DET end/NOUN of/ADP the/DET garden/NOUN ?/PUNCT",
     ["end", "garden"]),
])
def test_premises(spec: str, expected: list[str]) -> None:
    assert premises(tagged(spec)) == expected


@pytest.mark.parametrize(("spec", "expected"), [
    # the kind named after the question word, through "type of"; whose it is is no part of it
    ("What/DET type/NOUN of/ADP drink/NOUN did/AUX Ana/PROPN order/VERB ?/PUNCT", Kind("drink", ("drink",))),
    ("Which/DET two/NUM crime/NOUN novels/NOUN does/AUX Ola/PROPN like/VERB ?/PUNCT",
     Kind("crime novels", ("crime", "novels"))),
    ("What/PRON is/AUX Jon/PROPN 's/PART/POS favorite/ADJ dish/NOUN ?/PUNCT", Kind("favorite dish", ("dish",))),
    ("What/PRON are/AUX Ana/PROPN 's/PART/POS dogs/NOUN '/PART/POS names/NOUN ?/PUNCT", Kind("names", ("names",))),
    ("What/DET kind/NOUN of/ADP old/ADJ car/NOUN does/AUX he/PRON drive/VERB ?/PUNCT ", Kind("old car", ("car",))),
    # no kind: none named, a vague one, or the question word is what a preposition at the end governs
    ("What/PRON did/AUX Ana/PROPN bake/VERB ?/PUNCT", None),
    ("What/DET things/NOUN did/AUX she/PRON buy/VERB ?/PUNCT", None),
    ("What/PRON is/AUX her/PRON/PRP$ favourite/ADJ book/NOUN about/ADP ?/PUNCT", None),
    ("Where/SCONJ does/AUX Ana/PROPN live/VERB ?/PUNCT", None),
    ("What/PRON is/AUX Andrew/PROPN planning/NOUN to/PART do/VERB ?/PUNCT", None),  # a verb tagged as a noun
    ("", None),
    ("What/PRON type/NOUN of/ADP", None),  # cut off
])
def test_asked_kind(spec: str, expected: Kind | None) -> None:
    assert asked_kind(tagged(spec)) == expected


KNOWN = {"maria", "berlin", "new york"}


@pytest.mark.parametrize(("spec", "expected"), [
    # a name memory never heard of is a premise; names it knows are who or what is asked about
    ("When/SCONJ am/AUX I/PRON going/VERB to/ADP Madrid/PROPN ?/PUNCT", ["madrid"]),
    ("When/SCONJ am/AUX I/PRON going/VERB to/ADP Berlin/PROPN ?/PUNCT", []),
    ("Did/AUX Maria/PROPN visit/VERB New/PROPN York/PROPN in/ADP May/PROPN ?/PUNCT", []),  # a month is a time
    ("Did/AUX Maria/PROPN meet/VERB Tomasz/PROPN at/ADP the/DET gym/NOUN ?/PUNCT", ["tomasz", "gym"]),
])
def test_names_memory_never_heard_of_are_premises(spec: str, expected: list[str]) -> None:
    assert premises(tagged(spec), known_name=lambda name: name.lower() in KNOWN) == expected


class Model:
    """Answers with ``reply``; asked whether a sentence answers the question, says ``verdict``; whether the answer
    is of the kind asked for, ``kind``."""

    def __init__(self, reply: str, verdict: str = "no", kind: str | list[str] = "yes") -> None:
        self.reply, self.verdict, self.kind, self.asked, self.checked = reply, verdict, kind, 0, 0
        self.read: list[str] = []  # the messages of each check, to see what it was given

    def stream(self, messages: Any, **kw: Any) -> Iterator[str]:
        self.asked += 1
        yield self.reply

    def complete(self, messages: Any, **kw: Any) -> str:
        self.checked += 1
        self.read.append(messages[-1]["content"])
        if messages[0]["content"] == KIND_SYSTEM:
            return f'{{"answer": "{self.kind}"}}'
        return f'{{"answers": "{self.verdict}"}}'


@pytest.fixture(scope="module")
def parser() -> RuleExtractor:
    return RuleExtractor()


SAID = [("Maria", "I donated my old car to a homeless shelter I volunteer at yesterday."),
        ("John", "That's so generous, Maria! We took the kids to the zoo on Sunday."),
        ("user", "I work at Bolt as a designer these days.")]


@contextmanager
def memory(path: Path, reply: str, tagger: Any, verdict: str = "no") -> Iterator[tuple[Pipeline, Model]]:
    model = Model(reply, verdict)
    with heard(path, SAID, ("Maria", "John"), T0, model, tagger=tagger) as p:
        yield p, model


def words_of(parser: RuleExtractor) -> Any:
    return lambda q: [t for sentence in parser.parse(q) for t in sentence]


def test_a_premise_nothing_found_mentions_is_not_accepted(tmp_path: Path, parser: RuleExtractor) -> None:
    with memory(tmp_path, "Her old car.", words_of(parser)) as (p, model):
        ans = p.answer("What did Maria donate to a luxury store?", now=T0 + timedelta(days=1))
        assert ans.text == "Maria didn't mention that, as far as I know." and model.asked == 0
        assert model.checked >= 1  # the model read what was found, and said it does not answer


def test_a_premise_said_in_other_words_is_read_by_the_model(tmp_path: Path, parser: RuleExtractor) -> None:
    """'Where was Maria's wedding?' when she said they tied the knot at a chapel: no word says 'wedding', the
    model reads the sentence and says it answers."""
    said = [("Maria", "Tom and I tied the knot on Saturday at a little chapel by the sea.")]
    model = Model("At a little chapel by the sea.", "yes")
    with heard(tmp_path, said, ("Maria",), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("Where was Maria's wedding?", now=T0 + timedelta(days=1))
        assert model.checked >= 1 and model.asked == 1 and ans.text == "At a little chapel by the sea."


@pytest.mark.parametrize(("question", "reply"), [
    ("What did Maria donate to the homeless shelter?", "Her old car."),  # the premise is what was said
    ("What is my job?", "A designer at Bolt."),  # a relation's cue word: facts and utterances say it their own way
    ("What might Maria donate to a luxury store next?", "Clothes."),  # asks to reason: the model's own
])
def test_a_question_whose_premises_were_said_goes_to_the_model(tmp_path: Path, parser: RuleExtractor,
                                                               question: str, reply: str) -> None:
    with memory(tmp_path, reply, words_of(parser)) as (p, model):
        ans = p.answer(question, now=T0 + timedelta(days=1))
        assert model.asked == 1 and ans.text == reply


def test_only_content_words_are_premises(tmp_path: Path, parser: RuleExtractor) -> None:
    """A hyphenated noun splits into words, some of them glue ("call-out" -> call, out): glue is never missing."""
    said = [("Maria", "My first call-out as a volunteer was on Sunday, a kitchen fire.")]
    model = Model("A kitchen fire.")
    with heard(tmp_path, said, ("Maria",), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("What was Maria's first call-out?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and ans.text == "A kitchen fire."


def test_a_broken_parser_leaves_the_question_to_the_model(tmp_path: Path) -> None:
    def broken(q: str) -> list[Tok]:
        raise RuntimeError("spaCy model missing")

    with memory(tmp_path, "Her old car.", broken) as (p, model):
        ans = p.answer("What did Maria donate to a luxury store?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and ans.text == "Her old car."


def test_facts_of_the_asked_relation_are_what_the_model_reads_for_a_missing_premise(tmp_path: Path,
                                                                                  parser: RuleExtractor) -> None:
    """Speech recognition mishears ("Where does my sister life?"): 'life' is a noun nothing found mentions, but
    the facts found for the asked relation answer the question; the model reads them (not the utterances) and
    says so. A premise they leave out ("What is Anna's favourite style of painting?" when Anna likes dancing)
    is read the same way, and refused when the model says they do not answer it."""
    from memory.model import USER_ID

    said = [("user", "My sister Anna lives in Porto now.")]
    model = Model("Anna lives in Porto.", verdict="yes")
    with heard(tmp_path, said, ("Anna",), T0, model, tagger=words_of(parser)) as p:
        p.graph.assert_fact("Anna", "sister_of", USER_ID, now=T0)
        p.graph.assert_fact("Anna", "lives_in", "Porto", now=T0)
        ans = p.answer("Where does my sister life?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and ans.text == "Anna lives in Porto."
        assert model.checked == 1 and "Anna lives in Porto" in model.read[0]  # the fact, not the utterance
        p.graph.assert_fact("Anna", "likes", "dancing", now=T0)
        model.verdict = "no"
        ans = p.answer("What is Anna's favourite style of painting?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and ans.text == "I don't know that; nothing I remember says."
        assert "Anna likes dancing" in model.read[-1]


@pytest.mark.parametrize(("said", "question", "answered"), [
    # a brother is no sister: his home would be said as hers
    ("My brother Kofi lives in Accra.", "Where does my sister live?", False),
    ("My brother Kofi lives in Accra.", "What's my sister called?", False),
    # the role held: the model answers
    ("My brother Kofi lives in Accra.", "Where does my brother live?", True),
    # no one holds it in the graph, but what was said speaks of her: the model reads it
    ("My sister's flat is right by the harbour in Gdansk.", "Where does my sister live?", True),
    # no one holds it and no one else who is something to the user was found: what was said is read by the model
    ("I'm sharing a garden flat in Brighton with my old uni mate Callum.", "Who's my flatmate?", True),
    # a role asked without "my": held by a narrower one (sons are children; "children" is no unsaid premise)
    ("My brother Kofi lives in Accra.", "How many brothers do I have?", True),
    ("My brother Kofi lives in Accra.", "How many sisters have I got?", False),
    # found only in what was said, by the name of someone who is something else to the user (an uncle)
    ("My uncle Bram runs a bike shop in Ghent.", "What does my aunt do?", False),
    # a friend may be the flatmate asked about (roles held beside another), never the sister
    ("Me and my mate Callum share a garden flat in Brighton.", "Who's my flatmate?", True),
    ("Me and my mate Callum share a garden flat in Brighton.", "Where does my sister live?", False),
    # the role said only as what someone was: no one is it now
    ("My ex-husband Gareth still lives in Newport.", "Who is my husband?", False),
    ("I ran into my old supervisor Deborah at the shops.", "Who is my supervisor?", False),
    ("My supervisor Deborah is off sick this week.", "Who is my supervisor?", True),
    ("My old friend Deborah is off sick this week.", "Who is my friend?", True),  # an old friend is one still
    # a parent called by the role as by a name is the user's, told of ("Mum's…" with an uncle beside)
    ("Mum's moved in with us, and my uncle Bram runs a bike shop in Ghent.", "Where does my mum live?", True),
    ("My uncle Bram says his mum's moved in with him.", "Where does my mum live?", False),  # his mum, not the user's
    # a role of kinds is told of by its kinds: "my parents" as "Mum and Dad", "my kids" as "my son"
    ("Mum and Dad are off to Lanzarote, and my uncle Bram runs a bike shop in Ghent.", "Where are my parents going?",
     True),
    ("My son's started at the bike shop my uncle Bram runs in Ghent.", "Where do my kids work?", True),
    ("My uncle Bram runs a bike shop in Ghent.", "Where do my parents live?", False),
])
def test_a_role_no_one_holds_is_not_answered_from_someone_else(tmp_path: Path, parser: RuleExtractor, said: str,
                                                               question: str, answered: bool) -> None:
    from memory.model import USER_ID

    model = Model("Accra.")
    with heard(tmp_path, [("user", said)], ("Kofi",), T0, model, tagger=words_of(parser)) as p:
        if "Kofi" in said:
            p.graph.assert_fact("Kofi", "brother_of", USER_ID, now=T0)
            p.graph.assert_fact("Kofi", "lives_in", "Accra", now=T0)
        if "Bram" in said:
            p.graph.assert_fact("Bram", "uncle_of", USER_ID, now=T0)
        if "Callum" in said:
            p.graph.assert_fact("Callum", "friend_of", USER_ID, now=T0)
        ans = p.answer(question, now=T0 + timedelta(days=1))
        assert (model.asked == 1) is answered
        assert ans.recall is not None and bool(ans.recall.role_unheld) is not answered
        if not answered:
            assert ans.text.startswith("I don't know. You haven't told me about your") and "Accra" not in ans.text


def test_children_asked_for_are_said_by_facts_of_sons(tmp_path: Path, parser: RuleExtractor) -> None:
    from memory.model import USER_ID

    model = Model("Two: Finn and Oscar.")
    with heard(tmp_path, [("user", "My boys love football.")], ("Finn", "Oscar"), T0, model,
               tagger=words_of(parser)) as p:
        for son in ("Finn", "Oscar"):
            p.graph.assert_fact(son, "son_of", USER_ID, now=T0)
        ans = p.answer("How many children do I have?", now=T0 + timedelta(days=1))
        assert ans.text == "Two: Finn and Oscar." and model.checked == 0
        assert ans.recall is not None and {a.subject for a in ans.recall.facts} >= {"Finn", "Oscar"}


def test_a_name_with_regex_characters_is_read_as_words(tmp_path: Path) -> None:
    """Names reach the role check's search as text, never as a pattern: a brother called "Jo (JJ)*[" is matched
    in what was said, and nothing breaks."""
    from memory.model import USER_ID

    name = "Jo (JJ)*["
    model = Model("Leeds.")
    with heard(tmp_path, [("user", f"My brother {name} lives in Leeds.")], (name,), T0, model) as p:
        p.graph.assert_fact(name, "brother_of", USER_ID, now=T0)
        ans = p.answer("Where does my sister live?", now=T0 + timedelta(days=1))
        assert ans.text == "I don't know. You haven't told me about your sister." and model.asked == 0


@pytest.mark.parametrize(("said", "question", "pet", "answered"), [
    # only someone else's dog was told of: "Neighbour's dog." was said as the name of the user's
    ("My neighbour's dog barks all night.", "What's my dog called?", False, False),
    ("Her cat keeps sleeping in our shed.", "What's my cat called?", False, False),
    # the user's own told of too, or held as a fact: the model reads it
    ("My neighbour's dog barks at our dog all night.", "What's my dog called?", False, True),
    ("My neighbour's dog barks all night.", "What's my dog called?", True, True),
])
def test_a_pet_no_one_told_of_is_not_answered_from_someone_elses(tmp_path: Path, parser: RuleExtractor, said: str,
                                                                 question: str, pet: bool, answered: bool) -> None:
    from memory.model import USER_ID

    model = Model("Neighbour's dog.")
    with heard(tmp_path, [("user", said)], (), T0, model, tagger=words_of(parser)) as p:
        if pet:
            p.graph.assert_fact(USER_ID, "has_pet", "Rex", now=T0)
        ans = p.answer(question, now=T0 + timedelta(days=1))
        assert ans.recall is not None and bool(ans.recall.role_unheld) is not answered
        if not answered:
            assert ans.text.startswith("I don't know. You haven't told me about your")


# --- the answer's own source must speak of what the question takes as given ---------------------------------------

class Checker(Model):
    """Answers with ``reply``; asked whether the answer's source speaks of a premise, says ``verdict``; whether the
    answer is of the kind asked for, ``kind``."""

    def complete(self, messages: Any, **kw: Any) -> str:
        self.checked += 1
        self.read.append(messages[-1]["content"])
        if messages[0]["content"] != KIND_SYSTEM:
            return f'{{"answer": "{self.verdict}"}}'
        kind = self.kind.pop(0) if isinstance(self.kind, list) else self.kind  # one verdict, or one per asking
        return f'{{"answer": "{kind}"}}'


FLOOD = [("John", "My old area was hit by a nasty flood last week, lots of homes were ruined."),
         ("Maria", "Oh no, John, that's awful! Is your family safe?"),
         ("John", "We're fine, thanks. The neighbours are helping each other out."),
         ("Maria", "Glad to hear it. How is your dad doing?"),
         ("John", "He's good, though last summer's drought was hard on his farm.")]


def test_an_answer_drawn_from_words_about_something_else_is_turned_down(tmp_path: Path,
                                                                      parser: RuleExtractor) -> None:
    """A drought was said, but of his dad's farm: the answer comes from John's words about a flood, which the
    model reads against the premise and says do not speak of a drought."""
    model = Checker("Lots of homes were ruined.", "no")
    with heard(tmp_path, FLOOD, ("John", "Maria"), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("How did the drought affect the homes in John's old area?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and ans.text == "John didn't mention that, as far as I know."
        assert model.checked == 1 and "drought" in model.read[0] and "flood" in model.read[0]


def test_a_source_that_speaks_of_the_premise_in_other_words_keeps_the_answer(tmp_path: Path,
                                                                           parser: RuleExtractor) -> None:
    model = Checker("Lots of homes were ruined.", "yes")
    with heard(tmp_path, FLOOD, ("John", "Maria"), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("How did the storm affect the homes in John's old area?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and model.checked >= 1 and ans.text == "Lots of homes were ruined."


def test_a_premise_said_in_the_turn_before_the_source_needs_no_check(tmp_path: Path, parser: RuleExtractor) -> None:
    said = [("Joanna", "What's your favourite dish from the cooking show you hosted?"),
            ("Nate", "Coconut milk ice cream is at the top of my list, so creamy.")]
    model = Checker("Coconut milk ice cream.", "no")
    with heard(tmp_path, said, ("Nate", "Joanna"), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("What is Nate's favorite dish from the cooking show he hosted?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and model.checked == 0 and ans.text == "Coconut milk ice cream."


SPOT = [("Andrew", "I tried this new spot in town that serves sushi and it was great."),
        ("Audrey", "Sounds yummy! I had a mango smoothie at the farmers market.")]


@pytest.mark.parametrize(("kind", "expected"), [(["no", "no"], "Andrew didn't mention that, as far as I know."),
                                                (["yes"], "Sushi."),
                                                (["no", "yes"], "Sushi.")])
def test_an_answer_of_another_kind_than_asked_is_turned_down(tmp_path: Path, parser: RuleExtractor,
                                                             kind: list[str], expected: str) -> None:
    """Asked what drink Andrew tried, "Sushi": no word of the source says it is a drink, so the model is asked
    whether the answer is one, with the question and without; only two noes turn the answer down."""
    model = Checker("Sushi.", "yes")
    model.kind = kind
    with heard(tmp_path, SPOT, ("Andrew", "Audrey"), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("What type of drink did Andrew try at the new spot in town?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and ans.text == expected and model.kind == []
        assert any('"Sushi."' in r and "a drink?" in r for r in model.read)


def test_a_source_that_names_the_kind_needs_no_kind_check(tmp_path: Path, parser: RuleExtractor) -> None:
    said = [("Andrew", "Best drink I had this summer was the cold brew at the new spot in town.")]
    model = Checker("The cold brew.", "yes")
    model.kind = "no"
    with heard(tmp_path, said, ("Andrew", "Audrey"), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("What drink did Andrew have at the new spot in town?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and ans.text == "The cold brew."
        assert not any("a drink?" in r for r in model.read)


def test_an_answer_named_as_its_source_names_it_is_not_put_to_the_model(tmp_path: Path,
                                                                        parser: RuleExtractor) -> None:
    """The small model cannot tell the kind of a name it never heard of: a band's name is kept."""
    said = [("Ola", "Saw Fontaines D.C. at Glastonbury, best gig of my life."),
            ("Ben", "Jealous! I only caught the highlights on TV.")]
    model = Checker("Fontaines D.C.", "yes")
    model.kind = ["no", "no"]
    with heard(tmp_path, said, ("Ola", "Ben"), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("Which band did Ola see at Glastonbury?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and ans.text == "Fontaines D.C." and model.kind == ["no", "no"]


def test_the_users_own_life_is_not_put_to_the_kind_check(tmp_path: Path, parser: RuleExtractor) -> None:
    """Of their own life the user knows what they said: the answer is given, without a model call first."""
    said = [("user", "Tried the new ramen place on Leith Walk last night, the tonkotsu was unreal.")]
    model = Checker("Tonkotsu ramen.", "yes")
    model.kind = ["no", "no"]
    with heard(tmp_path, said, ("user",), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("What type of drink did I try at the new place?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and model.kind == ["no", "no"] and "tonkotsu" in ans.text.lower()


def test_someone_elses_life_told_by_the_user_is_put_to_the_kind_check(tmp_path: Path, parser: RuleExtractor) -> None:
    """"What car does Priyanka drive?" "Mondays and Wednesdays." (from "She drives Mondays and Wednesdays"): asked of
    someone else, not the user, the answer is checked as for a speaker named; a day is no name of a thing."""
    said = [("user", "Me and Priyanka from accounts have started lift-sharing. She drives Mondays and Wednesdays "
                     "and I do the rest.")]
    model = Checker("Mondays and Wednesdays.", "yes")
    model.kind = ["no", "no"]
    with heard(tmp_path, said, ("user",), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("What car does Priyanka drive?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and model.kind == [] and "Monday" not in ans.text


def test_someone_the_tagger_knows_for_a_person_named_in_words_found_is_no_general_question(
        tmp_path: Path, parser: RuleExtractor) -> None:
    """"What's Hazel's teacher called?" after "Hazel's got her first nativity": no fact made Hazel an entity, but
    she is someone of the user's, so the model's "Mrs. Smith." is no answer from general knowledge."""
    said = [("user", "Hazel's got her first nativity next month and she's a sheep.")]
    model = Checker("Mrs. Smith.", "no")
    with heard(tmp_path, said, ("user",), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("What's Hazel's teacher called?", now=T0 + timedelta(days=1))
        assert ans.recall is not None and ans.recall.personal and "Smith" not in ans.text


@pytest.mark.parametrize(("answer", "question", "source", "named"), [
    ("Fontaines D.C.", "Which band did I see?", "Saw Fontaines D.C. at Glastonbury.", True),
    ("The Lean Startup", "What book is Jon reading?", 'I\'m reading "The Lean Startup" these days.', True),
    ("Sushi.", "What drink did Andrew try?", "I tried this new spot that serves sushi.", False),
    ("Sushi.", "What drink did Andrew try?", "Sushi was great. We went back twice.", False),  # a sentence's start
    ("Andrew's sushi.", "What drink did Andrew try?", "Then Andrew ordered sushi.", False),  # the question's name
    ("", "What drink?", "", False),
    ("Mondays and Wednesdays.", "What car does she drive?", "She drives Mondays and Wednesdays.", False),
    ("In June.", "When is the party?", "The party is in June, I think.", False),
])
def test_named_in(answer: str, question: str, source: str, named: bool) -> None:
    from assistant.answer import named_in
    assert named_in(answer, question, source) is named


class Broken(Checker):
    """Answers with ``reply``; every check it is asked for fails (the server went away after the answer)."""

    def complete(self, messages: Any, **kw: Any) -> str:
        raise RuntimeError("server gone")


@pytest.mark.parametrize(("said", "people", "reply", "question"), [
    (FLOOD, ("John", "Maria"), "Lots of homes were ruined.",
     "How did the drought affect the homes in John's old area?"),  # the premise check
    (SPOT, ("Andrew", "Audrey"), "Sushi.", "What type of drink did Andrew try at the new spot in town?"),  # the kind
])
def test_a_model_that_fails_a_check_leaves_the_answer(tmp_path: Path, parser: RuleExtractor,
                                                      said: list[tuple[str, str]], people: tuple[str, ...],
                                                      reply: str, question: str) -> None:
    model = Broken(reply)
    with heard(tmp_path, said, people, T0, model, tagger=words_of(parser)) as p:
        ans = p.answer(question, now=T0 + timedelta(days=1))
        assert model.asked == 1 and ans.text == reply


def test_a_tagger_that_fails_leaves_the_question_answered(tmp_path: Path) -> None:
    """No premises and no kind can be read: the answer is given unchecked, not lost."""
    def broken(question: str) -> list[Tok]:
        raise RuntimeError("parser gone")

    model = Checker("Sushi.", "no")
    model.kind = "no"
    with heard(tmp_path, SPOT, ("Andrew", "Audrey"), T0, model, tagger=broken) as p:
        ans = p.answer("What type of drink did Andrew try at the new spot in town?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and ans.text == "Sushi." and model.checked == 0


def test_the_source_of_an_answer() -> None:
    from assistant.answer import source_of
    from memory.episodes import Episode
    from memory.model import Arc
    from memory.recall.intent import analyse
    from memory.recall.recall import RecallResult

    q = "What did John adopt?"
    r = RecallResult(q, analyse(q), [], [], "now", personal=True)
    flood = Episode("c#0", "c", 0, "John", "My old area was hit by a flood.", T0)
    pup = Episode("c#1", "c", 1, "John", "We adopted a puppy called Max from the shelter.", T0)
    r.episodes, r.episodes_relevant = [flood, pup], True
    assert source_of("A puppy, Max.", q, r) is pup
    assert source_of("A kitten.", q, r) is None  # no word of the answer's own was said
    assert source_of("John adopted.", q, r) is None  # only the question's words
    r.facts = [Arc("a1", "john", "John", "has_pet", "max", "Max", None, 1.0, 0.0, 0, 1, T0, T0, None, T0, None, None,
                   1, 1.0)]
    assert source_of("Max.", q, r) is None  # a fact says it as well: the answer came from the facts


def test_a_diet_speaks_of_what_it_leaves_out(tmp_path: Path, parser: RuleExtractor) -> None:
    """'Do I drink beer?' after 'I've been teetotal since Easter': no word says beer, but the diet held leaves
    it out. Asked yes or no, the diet answers without the model; asked otherwise, the premise is said and the model
    answers from the diet. Without the diet fact, it is unsaid."""
    from memory.model import USER_ID

    said = [("user", "I've been teetotal since Easter, never felt better.")]
    model = Model("You don't drink beer.")
    with heard(tmp_path, said, (), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("Do I drink beer?", now=T0 + timedelta(days=1))
        assert model.asked == 0 and ans.text.startswith("I don't know that")
        p.graph.assert_fact(USER_ID, "diet", "teetotal", now=T0)
        ans = p.answer("Do I drink beer?", now=T0 + timedelta(days=1))
        assert model.asked == 0 and ans.text == "No, you are teetotal."
        ans = p.answer("How often do I drink beer?", now=T0 + timedelta(days=1))
        assert model.asked == 1 and ans.text == "You don't drink beer."


@pytest.mark.parametrize(("said", "question", "refused"), [
    # another of the user's people, said by role, is not the one asked about
    ("My son has piano lessons on Thursdays.", "What instrument does my daughter play?", True),
    ("Our eldest daughter has piano lessons on Thursdays.", "What instrument does my son play?", True),
    # the same person by a plainer word, or the one asked: the model reads it
    ("My kid has piano lessons on Thursdays.", "What instrument does my son play?", False),
    ("My daughter has piano lessons on Thursdays.", "What instrument does my daughter play?", False),
    ("My brother's boy has piano lessons on Thursdays.", "What instrument does my nephew play?", False),  # one of his
])
def test_a_role_asked_is_not_answered_from_anothers_words(tmp_path: Path, parser: RuleExtractor, said: str,
                                                          question: str, refused: bool) -> None:
    model = Model("Piano.")
    with heard(tmp_path, [("user", said)], (), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer(question, now=T0 + timedelta(days=1))
        assert ans.text.startswith("I don't know") is refused and (ans.text == "Piano.") is not refused


@pytest.mark.parametrize(("said", "answered"), [
    ("My dad's supported Leeds all his life, he's had a season ticket for thirty years.", False),
    ("Our kids support Leeds, they never miss a game.", False),
    ("My dad and I support Leeds, we never miss a game.", True),  # the user's too
    ("My whole family supports Leeds, always has.", True),
])
def test_words_only_of_another_of_the_users_are_no_answer_about_the_user(
        tmp_path: Path, parser: RuleExtractor, said: str, answered: bool) -> None:
    model = Model("Leeds.")
    with heard(tmp_path, [("user", said)], (), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("Which football team do I support?", now=T0 + timedelta(days=1))
        assert (ans.text == "Leeds.") is answered


def test_a_home_held_of_someone_named_stands_against_the_users_own(tmp_path: Path, parser: RuleExtractor) -> None:
    """"Where does Noor live now?" with `Noor lives_in Krakow` held: the model's "Bordeaux now." came from the user's
    own "I live in Bordeaux now" (the long sample, seen once); what memory holds of Noor is said."""
    model = Model("Bordeaux now.")
    with heard(tmp_path, [("user", "We finally finished moving, I live in Bordeaux now.")], ("Noor",), T0, model,
               tagger=words_of(parser)) as p:
        p.graph.assert_fact("Noor", "lives_in", "Krakow", now=T0)
        assert p.answer("Where does Noor live now?", now=T0 + timedelta(days=1)).text == "Krakow."


def test_a_thing_named_with_the_is_no_one_said() -> None:
    """"How many stages does the Tour de France have?" after "Watching the Tour de France every evening": a thing
    named with "the", not someone whose life is asked about; a family said with "the" still is ("the Khans")."""
    from memory.recall.intent import names_someone_said

    said = ["Watching the Tour de France every evening this month.", "The Khans have moved to Birmingham."]
    assert not names_someone_said("How many stages does the Tour de France have?", said)
    assert names_someone_said("Where do the Khans live now?", said)
    assert names_someone_said("What does Arthur do?", ["My grandad Arthur turns ninety."])
    assert names_someone_said("What is Arthur's job?", ["My grandad Arthur turns ninety."])


def test_words_naming_someones_thing_asked_of_are_no_general_topic(tmp_path: Path, parser: RuleExtractor) -> None:
    """"What's wrong with Gerry's fence?" after "Gerry has put up a new fence and it's a foot over onto our side":
    the words name only "Gerry's fence" of the question, as the words of a book name it for "Who wrote…?", but Gerry
    is someone of the user's: they are the answer, not set aside ("I don't know that yet")."""
    said = [("user", "Your man next door, Gerry, has put up a new fence and it's a good foot over onto our side.")]
    model = Checker("It's a foot over onto your side.", "yes")
    with heard(tmp_path, said, ("user",), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("What's wrong with Gerry's fence?", now=T0 + timedelta(days=1))
        assert ans.recall is not None and ans.recall.episodes_relevant and "foot" in ans.text


@pytest.mark.parametrize(("question", "people"), [
    ("Which planet is Cillian making?", ["Cillian"]),  # a name the tagger's model does not know, doing what is asked
    ("What's wrong with Gerry's fence?", ["Gerry"]),
    ("Who wrote Pride and Prejudice?", []),  # a title, done to
    ("What did Apple release?", []),  # a company
    ("What year did the Romans invade Britain?", []),  # a people (after "I've been reading about the Romans")
])
def test_people_named_in_a_question(parser: RuleExtractor, question: str, people: list[str]) -> None:
    from memory.recall.intent import people_named
    assert people_named(words_of(parser)(question)) == people


def test_a_name_the_tagger_does_not_know_doing_what_is_asked_is_someone_of_the_users(
        tmp_path: Path, parser: RuleExtractor) -> None:
    """"Which planet is Cillian making?" after "He's making Saturn out of a polystyrene ball": the words are the
    answer, not general knowledge ("From general knowledge: I don't know.")."""
    said = [("user", "Cillian's doing a project on the solar system. He's making Saturn out of a polystyrene ball.")]
    model = Checker("Saturn.", "yes")
    with heard(tmp_path, said, ("user",), T0, model, tagger=words_of(parser)) as p:
        ans = p.answer("Which planet is Cillian making?", now=T0 + timedelta(days=1))
        assert ans.recall is not None and ans.recall.personal and ans.text == "Saturn."
