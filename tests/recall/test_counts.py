"""How many of a kind the user has now, counted from the pets memory holds by name (assistant.counts)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from assistant.counts import count_after, count_now, one_of, pets_now
from assistant.when import when_answer
from memory.episodes import Episodes
from memory.graph import TemporalGraph
from memory.kglite_store import KgliteStore
from memory.recall.recall import Recaller
from memory.transcripts import Turn

T0 = datetime(2026, 2, 7, 10, 0, tzinfo=UTC)
LATER = T0 + timedelta(days=30)


@pytest.fixture
def graph(tmp_path: Path) -> Iterator[tuple[TemporalGraph, Episodes]]:
    store = KgliteStore(tmp_path / "g.kgl")
    g = TemporalGraph(store)
    g.ensure_user(T0)
    yield g, Episodes(g)
    store.close()


def _guinea_pigs(g: TemporalGraph, ep: Episodes, first: str) -> None:
    ep.add([Turn("c1", T0, "user", first, 0),
            Turn("c2", LATER, "user", "Awful morning. Custard didn't make it through the night, the vet reckons it "
                                      "was his heart. Crumble's on her own now.", 0)])
    for name in ("Custard", "Crumble"):
        g.assert_fact("user", "has_pet", name, now=T0, source="c1#0")
        g.assert_fact(name, "is_a", "guinea pig", now=T0, source="c1#0")
    g.assert_fact("Custard", "died_on", "13 September 2026", now=LATER, source="c2#0")
    g.close_fact("user", "has_pet", "Custard", now=LATER, source="c2#0")


def test_pets_known_by_name_are_counted_when_one_is_gone(graph: tuple[TemporalGraph, Episodes]) -> None:
    """"How many guinea pigs have we got?" "You have two guinea pigs." (the model, handed "User has pet Crumble"
    and the words "two guinea pigs, Custard and Crumble"): memory counts the one left."""
    g, ep = graph
    _guinea_pigs(g, ep, "We've come home with two guinea pigs, Custard and Crumble.")
    r = Recaller(g, episodes=ep, episode_limit=4).recall("How many guinea pigs have we got?", now=LATER)
    assert pets_now(r) == "One: Crumble."
    assert when_answer(r) == "One: Crumble."  # said without the model


def test_more_told_of_than_named_is_left_to_the_words(graph: tuple[TemporalGraph, Episodes]) -> None:
    """"Four guinea pigs, Custard and Crumble among them": memory does not know them all, so it does not count."""
    g, ep = graph
    _guinea_pigs(g, ep, "We've come home with four guinea pigs, Custard and Crumble among them.")
    r = Recaller(g, episodes=ep, episode_limit=4).recall("How many guinea pigs have we got?", now=LATER)
    assert pets_now(r) is None


def test_nothing_gone_or_not_asked_so_is_none(graph: tuple[TemporalGraph, Episodes]) -> None:
    g, ep = graph
    ep.add([Turn("c1", T0, "user", "We've got two rabbits, Salt and Pepper.", 0)])
    for name in ("Salt", "Pepper"):
        g.assert_fact("user", "has_pet", name, now=T0, source="c1#0")
        g.assert_fact(name, "is_a", "rabbit", now=T0, source="c1#0")
    rec = Recaller(g, episodes=ep, episode_limit=4)
    assert pets_now(rec.recall("How many rabbits have we got?", now=LATER)) is None  # none gone: the model's
    assert pets_now(rec.recall("What are our rabbits called?", now=LATER)) is None


@pytest.mark.parametrize(("kind", "one"), [("guinea pigs", "guinea pig"), ("ponies", "pony"), ("Foxes", "fox"),
                                           ("goat", "goat"), ("geese", "geese")])
def test_a_kind_said_as_one(kind: str, one: str) -> None:
    assert one_of(kind) == one


def _told(g: TemporalGraph, ep: Episodes, *said: str) -> Recaller:
    ep.add([Turn(f"c{i}", T0 + timedelta(days=20 * i), "user", text, 0) for i, text in enumerate(said)])
    return Recaller(g, episodes=ep, episode_limit=4)


@pytest.mark.parametrize(("said", "question", "answer", "held"), [
    # a count of nothing named, in words that name the kind: the later count held
    (["We keep six hens at the bottom of the garden, all ex-battery girls.",
      "Lost one of the hens to the heat last week, so five left now."],
     "How many hens do we have?", "You have six hens.", "Five: on 27 February 2026 you said \"Lost one of the hens to "
                                                         "the heat last week, so five left now.\""),
    # the count names the kind by its last part ("goats" of "pygmy goats"), said in figures
    (["Eight goats on the croft at the moment, the pygmy ones mostly.",
      "11 goats now, after the kidding, and I'm knackered."],
     "How many pygmy goats have we got?", "Eight.", "Eleven: on 27 February 2026 you said \"11 goats now, after the "
                                                    "kidding, and I'm knackered.\""),
    # an answer with no count at all is answered so
    (["Three lambs so far this spring, all healthy.", "Up to seven lambs now, one of them a bottle baby."],
     "How many lambs have we got?", "We've got lambs!", "Seven: on 27 February 2026 you said \"Up to seven lambs now, "
                                                        "one of them a bottle baby.\""),
    # a teen said in words (everyday89's "Thanksgiving's down to thirteen" had counted nothing)
    (["Eleven lambs so far this spring, all healthy.", "Up to seventeen lambs now, one of them a bottle baby."],
     "How many lambs have we got?", "Eleven.", "17: on 27 February 2026 you said \"Up to seventeen lambs now, one "
                                               "of them a bottle baby.\""),
])
def test_a_count_held_later_is_said(graph: tuple[TemporalGraph, Episodes], said: list[str], question: str,
                                    answer: str, held: str) -> None:
    """Asked how many are held, the small model read the first count told ("You have seven hedgehogs" when the
    later words said nine "now"): the count held last is said, with its words."""
    g, ep = graph
    r = _told(g, ep, *said).recall(question, now=T0 + timedelta(days=60))
    assert count_now(answer, r) == held


@pytest.mark.parametrize(("said", "question", "answer"), [
    # the answer gives the count held last
    (["Six hens, all ex-battery girls.", "Lost one of the hens, so five left now."], "How many hens do we have?",
     "Five."),
    # more come in is no count held ("two more"), nor a weight "up to" ("six hundred grams")
    (["Seven hedgehogs in at the moment.", "Two more hedgehogs came in on Saturday; Spike's up to six hundred grams."],
     "How many hedgehogs have I got?", "Seven."),
    # asked of a time gone by
    (["Six hens, all ex-battery girls.", "Lost one of the hens, so five left now."],
     "How many hens did we have at first?", "Six."),
    # the answer's count is said later than the held count
    (["Lost one of the hens, so five left now.",
      "The fox came back; six hens are at my sister's till the run's fixed."],
     "How many hens do we have?", "Six."),
    # a count held of another thing named ("three cockerels left") is none of the hens'
    (["Six hens, all ex-battery girls.", "The hens are laying again, and three cockerels left now."],
     "How many hens do we have?", "Six."),
])
def test_no_later_count_is_none(graph: tuple[TemporalGraph, Episodes], said: list[str], question: str,
                                answer: str) -> None:
    g, ep = graph
    r = _told(g, ep, *said).recall(question, now=T0 + timedelta(days=60))
    assert count_now(answer, r) is None


def test_a_count_held_in_a_sentence_on_what_is_asked_is_said(graph: tuple[TemporalGraph, Episodes]) -> None:
    """"How many people are coming for Hogmanay?" after "Only nine coming for Hogmanay now": the kind ("people") is
    not said, what it is of is; what the count does ("coming") names no other thing."""
    g, ep = graph
    r = _told(g, ep, "Fourteen people for Hogmanay at ours, God help me.",
              "Only nine coming for Hogmanay now, the Aberdeen lot have flu.").recall(
        "How many people are coming for Hogmanay?", now=T0 + timedelta(days=60))
    assert count_now("Fourteen people are coming.", r) == (
        "Nine: on 27 February 2026 you said \"Only nine coming for Hogmanay now, the Aberdeen lot have flu.\"")


@pytest.mark.parametrize(("said", "question", "answer", "now"), [
    # some of them taken, by a number of them (everyday90's koi, counted by the words "nine fish")
    (["The koi pond is finished! Nine fish in it, and the kids named the big orange one Sunny.",
      "A heron had two of my koi this morning, including Sunny. There's a net over the pond now."],
     "How many koi do I have now?", "You have nine koi now.",
     "Seven: nine before, and on 27 February 2026 you said \"A heron had two of my koi this morning, including "
     "Sunny.\""),
    # one of those counted by name gone (everyday82's goats, everyday75's hens)
    (["We've got goats. Three pygmy goats off a smallholding — Salt, Pepper and Mustard.",
      "Sad news on the goat front. We lost Mustard on Sunday, bloat."],
     "How many goats do we have now?", "You have three pygmy goats.",
     "Two: three before, and on 27 February 2026 you said \"We lost Mustard on Sunday, bloat.\""),
    # one more, by its number (everyday85's alpacas)
    (["We've got alpacas! Two boys, Gordon and Ramsay, from a breeder near Ballymena.",
      "Alpaca number three has landed, a wee fawn girl called Nigella."],
     "How many alpacas have we got?", "Two.",
     "Three: two before, and on 27 February 2026 you said \"Alpaca number three has landed, a wee fawn girl called "
     "Nigella.\""),
])
def test_a_count_changed_later_is_said(graph: tuple[TemporalGraph, Episodes], said: list[str], question: str,
                                       answer: str, now: str) -> None:
    """Asked how many are held, the small model gave the count told first ("You have nine koi now") when later
    words said some went ("A heron had two of my koi") or one more came ("Alpaca number three has landed"): the
    count after, with the words that changed it."""
    g, ep = graph
    r = _told(g, ep, *said).recall(question, now=T0 + timedelta(days=60))
    assert count_after(answer, r) == now


@pytest.mark.parametrize(("said", "question", "answer"), [
    # a name counted beside what is no loss ("had her first egg", "ate a slug")
    (["Three hens: Dolly, Tammy and Loretta.", "Dolly had her first egg today! Tammy ate a slug."],
     "How many hens have we got now?", "Three."),
    # "had two of my friends round": not of the kind
    (["Nine koi in the pond.", "Lost my keys at the pond, and had two of my friends round."],
     "How many koi do I have now?", "Nine."),
    # the answer's count is the one after ("so seven left")
    (["Nine koi in the pond.", "A heron had two of my koi, so seven koi left."], "How many koi do I have now?",
     "Seven."),
    # wanting another is no more come ("The kids want another one")
    (["Two goats, Salt and Pepper.", "The kids want another goat already, number three, I've said not yet."],
     "How many goats do we have now?", "Two."),
    # asked of a time gone by
    (["Nine koi in the pond.", "A heron had two of my koi."], "How many koi did I have at first?", "Nine."),
])
def test_no_change_to_the_count_is_none(graph: tuple[TemporalGraph, Episodes], said: list[str], question: str,
                                        answer: str) -> None:
    g, ep = graph
    r = _told(g, ep, *said).recall(question, now=T0 + timedelta(days=60))
    assert count_after(answer, r) is None
