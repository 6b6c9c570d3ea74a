"""Periods a question names, and whether some words were about one (pure)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.periods import asked_period, recurrence, says_when, time_terms, within
from memory.search import terms

TUESDAY = datetime(2026, 5, 19, 9, 0, tzinfo=UTC)


def d(m: int, day: int, y: int = 2026) -> datetime:
    return datetime(y, m, day, tzinfo=UTC)


@pytest.mark.parametrize(("question", "period"), [
    ("What did I do last weekend?", (d(5, 16), d(5, 18))),
    ("What did I do at the weekend?", (d(5, 16), d(5, 18))),
    ("What did I do in March?", (d(3, 1), d(4, 1))),
    ("Who did I have dinner with on May 3, 2023?", (d(5, 3, 2023), d(5, 4, 2023))),
    ("What did I do yesterday?", (d(5, 18), d(5, 19))),
    ("What am I doing next month?", (d(6, 1), d(7, 1))),
    ("What did I get up to last summer?", (d(6, 1, 2025), d(9, 1, 2025))),
    # told from a date the question names, not from today (Saturday 8 April 2023 before Monday 10 April)
    ("What did Ana run in last weekend before April 10, 2023?", (d(4, 8, 2023), d(4, 10, 2023))),
    ("What did Ana do the week before August 3, 2023 with her kids?", (d(7, 27, 2023), d(8, 3, 2023))),
    ("Which pup did she get two weeks before 11 August 2023?", (d(7, 28, 2023), d(8, 4, 2023))),
    ("What did I cook the day after 5 May?", (d(5, 6), d(5, 7))),
    ("Where was I the weekend after March 4, 2026?", (d(3, 7), d(3, 9))),
    ("What did I do the month before 3 February 2026?", (d(1, 1), d(2, 1))),
])
def test_the_period_a_question_names(question: str, period: tuple[datetime, datetime]) -> None:
    asked = asked_period(question, TUESDAY)
    assert asked is not None and asked[0] == period


def test_when_words_about_it_may_have_been_said() -> None:
    # a weekend: in it or the week after, never after now; a month: in it or the month after; ahead: the month
    # before now, when plans for it were told
    assert asked_period("What did I do last weekend?", TUESDAY) == ((d(5, 16), d(5, 18)), (d(5, 16), TUESDAY))
    assert asked_period("What did I do in March?", TUESDAY) == ((d(3, 1), d(4, 1)), (d(3, 1), d(5, 2)))
    assert asked_period("What am I doing next month?", TUESDAY) == ((d(6, 1), d(7, 1)), (d(4, 18, 2026)
                                                                                          .replace(hour=9), TUESDAY))


@pytest.mark.parametrize("question", ["What do I do for work?", "How long have I lived here for?", "Where is Anna?",
                                      "What did I do last year?",  # a year is too long to read through
                                      "What did I do the day after my birthday?"])  # no date to count from
def test_no_period(question: str) -> None:
    assert asked_period(question, TUESDAY) is None


def test_words_are_about_the_time_they_name_else_the_time_they_were_said() -> None:
    weekend = (d(5, 9), d(5, 11))
    monday = datetime(2026, 5, 11, 19, 0, tzinfo=UTC)
    assert within("Spent Saturday bouldering at the climbing wall.", monday, weekend)  # said after it
    assert not within("Next month we're bouldering in Spain.", datetime(2026, 5, 4, tzinfo=UTC), weekend)  # June
    assert within("We're going bouldering on Saturday!", datetime(2026, 5, 6, tzinfo=UTC), weekend)  # said before
    assert within("Bouldering is great fun.", datetime(2026, 5, 9, 15, tzinfo=UTC), weekend)  # said in it
    assert not within("Bouldering is great fun.", monday, weekend)
    assert not within("I've been climbing for three years.", monday, weekend)  # a duration is no time named


@pytest.mark.parametrize(("text", "says"), [("See you on Friday!", True), ("Back in June we met.", True),
                                            ("A while ago.", True), ("I may come.", False),
                                            ("This is great, last one!", False), ("Got the keys yesterday.", True),
                                            ("We fly out next week.", True), ("The last week was hard.", False)])
def test_words_that_say_when(text: str, says: bool) -> None:
    assert says_when(text) is says


def test_the_time_words_of_a_question_by_their_index_terms() -> None:
    # read on the words: a stem would not be known as a time ("february" -> "februar", "spring" -> "spr")
    q = "What did I plant with Jo in the spring, back in February?"
    assert set(terms("spring February")) <= time_terms(q)
    assert not set(terms("plant Jo")) & time_terms(q)


@pytest.mark.parametrize(("text", "said"), [
    ("I've got yoga every Tuesday evening at the leisure centre.", "every Tuesday evening"),
    ("On Saturdays I volunteer at the food bank.", "On Saturdays"),
    ("I swim on Mondays and Thursdays.", "on Mondays and Thursdays"),
    ("Our choir rehearses on Thursday evenings in the church hall.", "on Thursday evenings"),
    ("I run on Tuesday mornings and Saturdays.", "on Tuesday mornings and Saturdays"),
    ("I saw him on Tuesday evening.", None),  # one evening
    ("Twice a month I help out at the shelter.", "Twice a month"),
    ("We meet up weekly for a curry.", "weekly"),
    ("Every other weekend the kids are with their dad.", "Every other weekend"),
    ("I saw him on Tuesday.", None),  # one day, not a repeat
    ("Every time I call she's out.", None),
    ("I went there last week.", None),
])
def test_how_often_words_say_something_is_done(text: str, said: str | None) -> None:
    assert recurrence(text) == said
