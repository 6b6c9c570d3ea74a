"""A question that puts one speaker's words in another's mouth: "Gina didn't mention that", and who said it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from assistant.pipeline import Pipeline
from memory.episodes import addressed
from tests.episode_sample import SAID, heard

T0 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


class Model:
    """Stands in for the answering model: records that it was asked, answers with a marker and the first words
    it was given (an answer grounded in them, as the pipeline requires)."""

    def __init__(self) -> None:
        self.asked = 0

    def stream(self, messages, **kw):  # type: ignore[no-untyped-def]
        self.asked += 1
        said = re.search(r'said: "([^"]+)"', messages[-1]["content"])
        yield f"MODEL, {said.group(1) if said else ''}"


@contextmanager
def conversation(path: Path, said: list[tuple[str, str]], margin: float) -> Iterator[tuple[Pipeline, Model]]:
    """A memory of Gina and Jon that heard ``said``, and a pipeline over it with a stand-in model."""
    model = Model()
    with heard(path, said, ("Gina", "Jon"), T0, model, margin=margin) as p:
        yield p, model


@pytest.fixture
def pipeline(tmp_path: Path):
    with conversation(tmp_path, SAID, 0.3) as both:
        yield both


def test_someone_elses_words_are_not_an_answer_about_her(pipeline: tuple[Pipeline, Model]) -> None:
    p, model = pipeline
    ans = p.answer("Why did Gina lose her job as a banker?", now=T0 + timedelta(days=1))
    assert ans.text.startswith("Gina didn't mention that, as far as I know.") and "Jon said" in ans.text
    assert "banker" in ans.text and model.asked == 0


def test_her_own_words_still_go_to_the_model(pipeline: tuple[Pipeline, Model]) -> None:
    p, model = pipeline
    assert p.answer("Why did Jon lose his job as a banker?", now=T0 + timedelta(days=1)).text.startswith("MODEL")
    p.elsewhere_margin = None  # off: the model answers from whatever was found
    ans = p.answer("Why did Gina lose her job as a banker?", now=T0 + timedelta(days=1))
    assert model.asked == 2
    # it answered from her "Sorry about your job, Jon!": words about Jon's job, told to him, are no answer about her
    assert ans.text.startswith("Gina didn't mention that")


ASKED = [
    ("Gina", "Wow, Jon! When are you opening the studio? I can't wait to see the studio."),
    ("Jon", "Probably around six months from now, once the lease is signed."),
    ("Gina", "I'd love to come to the grand opening!"),
]


def test_a_question_to_them_is_not_someone_elses_words(tmp_path: Path) -> None:
    """Gina asked Jon about the studio; Jon's reply shares few words with the question. Gina's question is not
    her saying it: the model answers (the old rule said "Jon didn't mention that. Gina said: 'When are you…'")."""
    with conversation(tmp_path, ASKED, 0.0) as (p, model):
        ans = p.answer("When is Jon opening his studio?", now=T0 + timedelta(days=1))
        # asked when: the time Jon's reply means ("six months from now", said at T0), read without the model
        assert ans.text == f"{(T0 + timedelta(days=183)).strftime('%B %Y')}." and model.asked == 0
        assert ans.recall is not None
        # Jon's reply comes with the question it answers (context; the prompt lists them in time order), though
        # it shares no word with the question asked now
        said = {(e.speaker, e.text[:20]) for e in ans.recall.episodes}
        assert {("Gina", "Wow, Jon! When are y"), ("Jon", "Probably around six ")} <= said


def test_asks_reads_the_sentences_that_match() -> None:
    from memory.episodes import asks
    from memory.search import terms

    topic = set(terms("When is opening his studio?"))
    assert asks("Wow, Jon! When are you opening the studio?", topic)
    assert asks("When are you opening the studio? Can't wait to see the studio.", topic)  # the best match asks
    assert not asks("Opening the studio in May! Are you coming to the studio?", topic)
    assert not asks("Nothing about it here?", topic)  # matches nothing


@pytest.mark.parametrize(("text", "expected"), [
    ("Hey Jon! I got a trophy at a dance contest.", True),
    ("Thanks, Jon.", True),
    ("That is great, Jon!", True),
    ("Jon, you did it!", True),
    ("Congrats Jon on the win!", True),
    ("Jon's studio opened last week.", False),  # about him
    ("I met Jon at the fair.", False),
    ("Hey Jon! Jon's mum called.", False),  # said to him, then about him
    ("I told Jon, and he laughed.", False),
    ("Nothing about anyone.", False),  # not said at all
])
def test_a_name_said_to_someone_is_an_address(text: str, expected: bool) -> None:
    assert addressed(text, "Jon") is expected


def test_words_said_to_someone_are_not_about_them(tmp_path: Path) -> None:
    """In a talk between two people each one's words name the other ("Hey Jon!"); Gina's trophy is not Jon's.
    Words that only address him are not evidence about him (LoCoMo's adversarial questions swap the two)."""
    said = [("Gina", "Hey Jon! I won a trophy at a dance contest last week."),
            ("Jon", "Nice one! I opened my studio today."),
            ("Gina", "Jon's studio looks amazing, everyone at the contest talked about it.")]
    with conversation(tmp_path, said, 0.0) as (p, _):
        p.elsewhere_margin = None  # what reaches the model, not the shortcut answer
        episodes = p.recaller.episodes
        assert episodes is not None
        jon = p.graph.find_entity("Jon")
        assert jon is not None
        episodes.link({"s1#0": [jon.id], "s1#2": [jon.id]})  # as learning links every name said
        ans = p.answer("What did Jon win at a dance contest?", now=T0 + timedelta(days=1))
        assert ans.recall is not None
        given = {e.text[:12] for e in ans.recall.episodes}
        assert "Hey Jon! I w" not in given and "Jon's studio" in given


def test_a_reply_on_their_topic_leaves_the_topic_theirs(tmp_path: Path) -> None:
    """Jon told Gina he finished his degree; her congratulations match "finish" and "degree" better than his own
    words. Her reply takes up what he had just said, so it is his topic: the model answers from his turn (the
    old rule said "Jon didn't mention that. Gina said: 'Congrats on finishing your degree'")."""
    said = [("Gina", "Hey Jon! The store had a busy week, lots of new orders."),
            ("Jon", "Good to hear! Since we last talked I wrapped up my studies: the politics degree is done."),
            ("Gina", "Congrats on finishing your degree, Jon! That must feel great.")]
    with conversation(tmp_path, said, 0.0) as (p, model):
        ans = p.answer("Which degree did Jon finish?", now=T0 + timedelta(days=1))
        assert ans.text.startswith("MODEL") and model.asked == 1
        assert ans.recall is not None and ans.recall.episodes[0].text.startswith("Good to hear!")


def test_a_reply_to_what_they_told_of_the_listeners_things_is_still_someone_elses(tmp_path: Path) -> None:
    """Gina praised Jon's degree and asked how he chose it; his answer takes up her words, but what she told was
    his, not hers: asked how she got into politics, it is still that she never said."""
    said = [("Gina", "That diploma is special. It shows all the work you put into your politics degree. "
                     "How did you pick it?"),
            ("Jon", "Thanks! I got into politics as a kid, my dad took me to debates and I loved the politics."),
            ("Gina", "The store had a busy week.")]
    with conversation(tmp_path, said, 0.0) as (p, model):
        ans = p.answer("How did Gina get into politics?", now=T0 + timedelta(days=1))
        assert ans.text.startswith("Gina didn't mention that") and model.asked == 0


def test_their_plan_told_after_asking_the_listener_is_theirs(tmp_path: Path) -> None:
    """Gina asked Jon whether he had been to the Eden Project, then told her plan with its "I'm" left out; his
    reply says more of the place, but the plan is hers: the model answers from her turn."""
    said = [("Gina", "Love trying new recipes. By the way, have you been to the Eden Project? "
                     "Planning a trip there next month."),
            ("Jon", "Not yet, but I've heard great things about the Eden Project, it's on my bucket list."),
            ("Jon", "The studio had a busy week.")]
    with conversation(tmp_path, said, 0.0) as (p, _model):
        ans = p.answer("When is Gina planning a trip to the Eden Project?", now=T0 + timedelta(days=1))
        assert ans.text == "June 2023."  # "next month", said in May


def test_a_reply_to_their_question_is_still_someone_elses(tmp_path: Path) -> None:
    """Gina asked about the degree and Jon answered: that Gina asked does not make the degree hers."""
    said = [("Gina", "How is the degree going, Jon?"),
            ("Jon", "I finished my degree last week, political science!"),
            ("Gina", "The store had a busy week.")]
    with conversation(tmp_path, said, 0.0) as (p, model):
        ans = p.answer("When did Gina finish her degree?", now=T0 + timedelta(days=1))
        assert ans.text.startswith("Gina didn't mention that") and model.asked == 0


@pytest.mark.parametrize(("text", "expected"), [
    ("Congrats on finishing your degree! That must feel great.", True),  # the topic sentence says "your"
    ("Which team did you sign with?", True),
    ("Congrats! That's great news about the degree. So proud of you.", True),  # the turn says "you", never "I"
    ("I finished my degree last week.", False),
    ("Your degree reminds me: I finished my degree too.", False),  # the best sentence is the speaker's
    ("That's great news about the degree. I hope it helps.", False),  # no "you" anywhere: whose is unclear
    ("Nice weather today, you lucky thing.", False),  # matches nothing
    # the speaker's own news with the "I" left out, in a turn that asks the listener something after it
    ("Just signed with the team, so happy. How are you?", False),
    ("Finally finished the degree! What have you been up to?", False),
    # an "I" in the sentence, but the one doing what the topic says is "you"
    ("I really hope I can watch you finish the degree this year.", True),
    ("So glad I got to see your degree ceremony.", True),
    ("I'll send you the degree photos I took.", False),  # a "you" given something: the photos are the speaker's
    ("I took your advice and finished the degree!", False),  # "your" reaches its own noun only
])
def test_words_to_the_listener(text: str, expected: bool) -> None:
    from memory.episodes import to_listener
    from memory.search import terms

    assert to_listener(text, set(terms("When did she finish the degree and sign with the team?"))) is expected


def test_their_words_to_the_other_are_not_theirs(tmp_path: Path) -> None:
    """Jon asked Gina which team she signed with; that he asked makes the signing no more his (LoCoMo's
    adversarial "Which team did Tim sign with?" was answered from Tim's own question to John)."""
    said = [("Jon", "Woohoo! Congrats on the new team. Which team did you sign with?"),
            ("Gina", "I signed with the Minnesota Wolves, a two-year deal!"),
            ("Jon", "The studio is busy this week.")]
    with conversation(tmp_path, said, 0.0) as (p, model):
        ans = p.answer("Which team did Jon sign with?", now=T0 + timedelta(days=1))
        assert ans.text.startswith("Jon didn't mention that") and model.asked == 0
        assert p.answer("Which team did Gina sign with?", now=T0 + timedelta(days=1)).text.startswith("MODEL")


def test_words_said_to_them_are_about_them(tmp_path: Path) -> None:
    """Gina's congratulations on Jon's new job match the question better than Jon's own news, said in other
    words a day before. Said to him, they are evidence that it is his, not that he never said it."""
    said = [("Jon", "Big news: since Monday I bake bread at Crumbs on Main Street."),
            ("Gina", "Wow, that's so cool!"),
            ("Gina", "The store had a busy week, lots of orders."),
            ("Gina", "Congrats again on the new job at the bakery! So proud of you.")]
    with conversation(tmp_path, said, 0.0) as (p, model):
        ans = p.answer("Where did Jon get a new job?", now=T0 + timedelta(days=1))
        assert ans.text.startswith("MODEL") and model.asked == 1


def test_facts_of_the_asked_relation_do_not_outweigh_a_plain_mismatch(tmp_path: Path) -> None:
    """Jon has a pet (a fact), but the childhood dog asked about is Gina's: her words match the question far
    better than any of his. The fact answers "Does Jon have a dog?", not what he remembers of Max."""
    said = [("Gina", "Max was my childhood dog, we took long walks by the river every weekend when I was a kid."),
            ("Jon", "Toby is my new puppy, he chews everything in the flat!"),
            ("Gina", "The store had a busy week.")]
    with conversation(tmp_path, said, 0.2) as (p, model):
        p.graph.assert_fact("Jon", "has_pet", "Toby", now=T0, source="s1#1")
        question, later = "What does Jon remember about walks with his childhood dog Max?", T0 + timedelta(days=1)
        recall = p.recall(question, now=later)
        assert recall.targeted >= 1 and recall.elsewhere_margin >= 0.8  # the premise of this test
        p.elsewhere_over_facts = 0.8
        assert p.answer(question, now=later).text.startswith("Jon didn't mention that") and model.asked == 0
        p.elsewhere_over_facts = None  # facts always let the model answer (its answer is checked after)
        p.answer(question, now=later)
        assert model.asked == 1


FOLLOWED = [
    ("Jon", "Oh, and big news since we last spoke: I got promoted at work!"),
    ("Gina", "Wow, congrats! How did you feel when you found out?"),
    ("Jon", "Over the moon. All that hustle paid off, now that I'm the shift lead at the depot."),
    ("Gina", "My store is busy too, lots of new orders this week."),
    ("Jon", "Glad to hear it. Tell me about the new orders."),
]


def test_what_is_asked_about_something_told_brings_the_tellers_next_turn(tmp_path: Path) -> None:
    """Jon told Gina he was promoted; she asked how he felt; his answer says to what, in words the question
    does not share ("promoted" is not in it). His next turn comes with the one that matched, just below it."""
    with conversation(tmp_path, FOLLOWED, 0.0) as (p, _):
        p.elsewhere_margin = None
        assert p.recaller.episodes is not None
        p.recaller.episodes.min_similarity = 0.99  # words only: in five turns every one is close in meaning
        rec = p.recall("What did Jon get promoted to?", now=T0 + timedelta(days=1))
        given = [e.text[:13] for e in rec.episodes]
        assert "Over the moon" in given
        assert given.index("Over the moon") == given.index("Oh, and big n") + 1
        # a turn that asked nothing back brings no continuation: Gina's store talk stays out of Jon's topic
        rec = p.recall("What did Jon say about his orders?", now=T0 + timedelta(days=1))
        assert all(not e.text.startswith("Over the moon") for e in rec.episodes)


@pytest.mark.parametrize(("sentence", "own"), [
    ("Just started doing aerial yoga, it's great.", True),
    ("Been busy volunteering at the shelter.", True),
    ("Wow, finally finished it!", True),
    ("Got the keys to the new flat today.", True),
    ("Loved your photos!", False),  # says "you": about the one spoken to
    ("Excited for you!", False),
    ("Started a new job?", False),  # a question
    ("Sounds great.", False),  # not a past form
    ("Need a break.", False),
    ("The dogs had a blast at the beach.", False),  # a subject of its own
    ("", False),
    # an "I'm" left out before a verb and its object or place; not a gerund that is a subject, nor an adjective
    ("Planning a trip there next month.", True),
    ("Loving the new flat!", True),
    ("Honestly, working on my novel most nights.", True),
    ("Exploring new places can be so much fun.", False),
    ("Exciting news!", False),
    ("Nothing beats a long walk.", False),
    ("Heading to Rome tomorrow?", False),
    # a denial opening the sentence; a "you" in a later clause is anyone's, in its own clause the listener's
    ("Couldn't uproot the kids, and the money's no better once you take the move into account.", True),
    ("Can't wait to see you!", False),
    ("Didn't you say that?", False),
    ("Wasn't great, the weather.", False),  # what was, not who
])
def test_a_sentence_that_leaves_out_its_i_is_the_speakers(sentence: str, own: bool) -> None:
    from memory.episodes import opens_without_i
    assert opens_without_i(sentence) is own


@pytest.mark.parametrize(("text", "theirs"), [
    ("My dad's a massive Leeds fan, he's had a season ticket for thirty years.", True),
    ("Lovely day. Our kids love Cornwall.", True),
    ("My wife sings in a choir and my son plays drums.", True),
    ("My dad and I go to Leeds games.", False),  # the speaker too
    ("My team is Leeds.", False),  # no one else
    ("Got tickets to see Coldplay with my sister.", False),  # "I" left out: the speaker's own
    ("We went to Leeds with my dad.", False),
    ("He plays for Leeds.", False),  # no first person at all: not told as someone else's
])
def test_words_only_of_another_of_the_speakers(text: str, theirs: bool) -> None:
    from memory.episodes import of_someone_else

    assert of_someone_else(text) is theirs
