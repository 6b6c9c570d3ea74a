"""Time between two things said, or since one: the question read into "when" look-ups (pure), the time between
said as people round it, and the whole path through a real memory, with no model call."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from assistant import spans
from assistant.pipeline import Pipeline
from tests.episode_sample import told


@pytest.mark.parametrize(("question", "first", "second", "unit", "held"), [
    ("How many weeks passed between adopting Rufus and Bean?", "When did adopting Rufus?",
     "When did adopting Bean?", "weeks", False),  # the second said without its verb takes the first's
    ("How long was it between my Rome trip and my Paris trip?", "When did my Rome trip?",
     "When did my Paris trip?", None, False),  # no verb in either: each stays as it is
    ("How many days after the interview did I hear back?", "When did the interview?", "When did I hear back?",
     "days", False),
    ("how many months before the wedding did we book the venue", "When did the wedding?",
     "When did we book the venue?", "months", False),
    ("How long has it been since I quit my job?", "When did I quit my job?", None, None, False),
    ("How many years since we met?", "When did we met?", None, "years", False),
    ("How long have I had my bike?", "When did I had my bike?", None, None, True),
])
def test_questions_about_time_between_become_when_lookups(question: str, first: str, second: str | None,
                                                          unit: str | None, held: bool) -> None:
    ask = spans.parse(question)
    assert ask is not None
    assert (ask.first, ask.second, ask.unit, ask.held) == (first, second, unit, held)


@pytest.mark.parametrize("question", [
    "How long ago did I move?",  # the "when" path counts back from now
    "How long was Max part of the family?",  # a duration said, for the model
    "How many dogs do I have?",
    "When did I meet Tom?",
    "How long has it rained?".replace("has it", "has it been"),  # "has it been" alone, no "since": no span
])
def test_other_questions_are_no_span(question: str) -> None:
    assert spans.parse(question) is None


def test_as_of_names_the_day_counted_to() -> None:
    ask = spans.parse("How long has it been since Ann adopted her first pet, as of November 2023?")
    assert ask is not None and ask.as_of == "November 2023" and ask.first == "When did Ann adopted her first pet?"


@pytest.mark.parametrize(("days", "unit", "said"), [
    (47, "weeks", "About seven weeks"), (14, "weeks", "Two weeks"), (18, "days", "18 days"), (3, None, "Three days"),
    (232, None, "About eight months"), (800, None, "About two years"), (2, "weeks", "Less than a week"),
    (0, "days", "The same day"), (31, "months", "About one month"),
])
def test_the_time_between_is_said_as_people_round_it(days: int, unit: str | None, said: str) -> None:
    a = datetime(2026, 1, 1, tzinfo=UTC)
    b = datetime.fromordinal(a.toordinal() + days).replace(tzinfo=UTC)
    assert spans.between(b, a, unit, ("later", "earlier")).startswith(said)
    if days:
        assert spans.between(b, a, unit, ("later", "earlier")).endswith("(earlier to later).")  # earlier first
    assert spans.since(a, b, unit, "then") == f"{said} (since then)."


def test_a_duration_said_is_recognised() -> None:
    assert spans.says_how_long("I've been dancing for 14 years now")
    assert spans.says_how_long("We've had her for a few months")
    assert not spans.says_how_long("I got my bike for my birthday last May")
    assert spans.says_how_long("Godfrey's retiring after thirty-one years and his do is a week on Friday")
    assert not spans.says_how_long("Knackered after a long day")


SAID = [
    (datetime(2026, 2, 3, 19, tzinfo=UTC), "We adopted a beagle called Miso on Saturday."),
    (datetime(2026, 3, 20, 19, tzinfo=UTC), "Got a second dog yesterday, a rescue greyhound named Tofu."),
    (datetime(2026, 6, 8, 19, tzinfo=UTC), "We got married on Saturday in the old town hall!"),
    (datetime(2026, 7, 1, 19, tzinfo=UTC), "I've played the banjo for twelve years and still love it."),
    (datetime(2026, 7, 2, 19, tzinfo=UTC), "I've been into pottery since I was a kid."),
    (datetime(2026, 8, 25, 19, tzinfo=UTC), "I start coaching the junior rowing squad next month."),
]


class NoModel:
    def stream(self, messages, **kw):  # type: ignore[no-untyped-def]
        raise AssertionError("the time between is worked out, not asked of the model")


@pytest.fixture
def pipeline(tmp_path: Path) -> Iterator[Pipeline]:
    with told(tmp_path, SAID, NoModel()) as p:
        yield p


def test_the_time_between_two_things_said_is_worked_out(pipeline: Pipeline) -> None:
    now = datetime(2026, 9, 1, 9, tzinfo=UTC)
    ans = pipeline.answer("How many weeks passed between adopting Miso and Tofu?", now=now)
    assert ans.text == "About seven weeks (31 January 2026 to 19 March 2026)." and not ans.llm_used
    assert ans.recall is not None and [e.text for e in ans.recall.episodes] == [SAID[0][1], SAID[1][1]]  # cited
    ans = pipeline.answer("How long has it been since we got married?", now=now)
    assert ans.text == "About three months (since 6 June 2026)."
    ans = pipeline.answer("How long has it been since Miso came, as of April 2026?", now=now)
    assert ans.text == "About two months (since 31 January 2026)."  # to mid-April, not to September


def test_either_thing_not_found_is_not_known(pipeline: Pipeline) -> None:
    now = datetime(2026, 9, 1, 9, tzinfo=UTC)
    # the wedding is found, the honeymoon is not: the wedding's own words are no answer for the second
    ans = pipeline.answer("How many weeks between our wedding and the honeymoon?", now=now)
    assert "don't know" in ans.text


def test_a_duration_said_goes_to_the_model(pipeline: Pipeline) -> None:
    with pytest.raises(AssertionError, match="worked out"):
        pipeline.answer("How long have I played the banjo?", now=datetime(2026, 9, 1, 9, tzinfo=UTC))
    # a state whose start is said as a time of life: the day it was mentioned is no start; the words are said back,
    # asked how long or since when
    for q in ("How long have I been into pottery?", "Since when have I been into pottery?"):
        ans = pipeline.answer(q, now=datetime(2026, 9, 1, 9, tzinfo=UTC))
        assert ans.text == "Since you were a kid." and not ans.llm_used
        assert ans.recall is not None and [e.text for e in ans.recall.episodes] == [SAID[4][1]]  # cited


def test_a_start_said_as_a_time_of_life_is_said_back() -> None:
    asked = "How long has Tom played guitar?"
    assert spans.since_words([("Tom has played guitar since he was six.", False)], asked) == ("Since he was six.", 0)
    assert spans.since_words([("Dad's been on his own since Mum died.", True)],
                             "How long has Dad been on his own?") == ("Since Mum died.", 0)
    assert spans.since_words([("We've had the allotment since we moved here.", True)],
                             "How long have we had the allotment?") == ("Since you moved here.", 0)
    assert spans.since_words([("I've loved guitar since forever.", True)], asked) is None  # no time of life
    assert spans.since_words([("I've been happy since I moved.", True)], asked) is None  # not on the topic
    assert spans.parse("Since when has Tom played guitar?") == spans.SpanAsk(
        "When did Tom played guitar?", None, None, None, held=True)


def test_a_question_about_no_ones_life_goes_to_the_model(pipeline: Pipeline) -> None:
    with pytest.raises(AssertionError, match="worked out"):  # the model is asked: general knowledge
        pipeline.answer("How many years passed between the first moon landing and the fall of the Berlin Wall?",
                        now=datetime(2026, 9, 1, 9, tzinfo=UTC))


def test_bad_input_is_read_safely() -> None:
    # a tagger that breaks: the phrase is read by the shape of its words
    def broken(text: str) -> list[object]:
        raise RuntimeError("parser gone")
    ask = spans.parse("How many weeks passed between adopting Miso and Tofu?", broken)  # type: ignore[arg-type]
    assert ask is not None and ask.second == "When did adopting Tofu?"
    # a huge or odd question is read in one pass, whatever it holds
    huge = "How many weeks between " + " and ".join(["x"] * 5000) + "?"
    ask = spans.parse(huge)
    assert ask is not None and ask.first == "When did x?"
    odd = spans.parse("How long has \x00\u202e it been since ??? ")  # read as asked, looked up like any words
    assert odd is not None and odd.first == "When did \x00\u202e it been since?" and odd.held
    assert spans.parse("") is None
    # odd or cut-off words for a start said as a time of life: no answer, and no error, in one pass
    for text in ("", "since", "since I", "since I was", "\x00since\u202e I was\x00", "since " + "I was " * 5000):
        assert spans.since_words([(text, True)], "How long have I been here?") is None
    assert spans.years_marked("years married years together " * 2000) is None


def test_a_span_question_through_the_pipeline_with_nothing_remembered(tmp_path: Path) -> None:
    with told(tmp_path, [(datetime(2026, 1, 5, 9, tzinfo=UTC), "Hello there.")], NoModel()) as p:
        ans = p.answer("How many weeks between my wedding and my honeymoon?", now=datetime(2026, 9, 1, tzinfo=UTC))
        assert "don't know" in ans.text  # no guess, and no model call


def test_since_a_start_still_to_come_is_not_known(pipeline: Pipeline) -> None:
    """"How long have I coached the rowing squad?" when the coaching starts next month: not "About one week
    (since September 2026)", a time since something that has not begun."""
    ans = pipeline.answer("How long have I been coaching the rowing squad?", now=datetime(2026, 9, 1, 9, tzinfo=UTC))
    assert "don't know" in ans.text and not ans.llm_used
    ans = pipeline.answer("How long have I been coaching the rowing squad?", now=datetime(2026, 11, 1, 9, tzinfo=UTC))
    assert ans.text.endswith("(since September 2026).")  # begun by then


def test_a_duration_said_beside_a_time_to_come_goes_to_the_model(tmp_path: Path) -> None:
    """"How long have Tom's parents been married?" after "Tom's mum and dad's ruby wedding do is a week on Saturday"
    and "Forty years married and they still argue": the time found is to come, and other words say how long it has
    held (everyday84 had refused it); with no such words, still "I don't know"."""
    at = datetime(2026, 9, 9, 19, tzinfo=UTC)
    said = [(at, "Tom's mum and dad's wedding do is a week on Saturday, at the rugby club."),
            (at, "Forty years married and they still argue about the toilet roll.")]
    with told(tmp_path / "a", said, NoModel()) as p, pytest.raises(AssertionError, match="worked out"):
        p.answer("How long have Tom's mum and dad been married?", now=at + timedelta(days=5))
    with told(tmp_path / "b", said[:1], NoModel()) as p:
        ans = p.answer("How long have Tom's mum and dad been married?", now=at + timedelta(days=5))
        assert "don't know" in ans.text and not ans.llm_used
