"""Questions about time through a real memory: a period named ("What did I do last weekend?") finds the words
about it, however they name it; "how long ago" is counted, not left to the model."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from assistant.pipeline import Pipeline
from tests.episode_sample import told

SAID = [  # (when said, words): a test passed, a Monday naming the Saturday before, a Sunday naming no time
    (datetime(2026, 3, 16, 19, tzinfo=UTC), "I finally passed my driving test on Friday!"),
    (datetime(2026, 5, 1, 19, tzinfo=UTC), "Bouldering with Jo is the best thing I do."),
    (datetime(2026, 5, 4, 19, tzinfo=UTC), "What a lovely weekend of gardening."),
    (datetime(2026, 5, 11, 19, tzinfo=UTC), "Spent Saturday bouldering at the climbing wall with Jo."),
    (datetime(2026, 5, 17, 15, tzinfo=UTC), "A quiet day, I mostly read in the garden."),
    (datetime(2026, 5, 20, 19, tzinfo=UTC), "My weekend plans fell through, sadly."),
]


class Model:
    def __init__(self) -> None:
        self.prompts: list[str] = []

    def stream(self, messages, **kw):  # type: ignore[no-untyped-def]
        self.prompts.append(messages[-1]["content"])
        said = re.search(r'said: "([^"]+)"', messages[-1]["content"])
        yield said.group(1) if said else "Nothing."


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[tuple[Pipeline, Model]]:
    model = Model()
    with told(tmp_path, SAID, model) as pipeline:
        yield pipeline, model


def test_a_period_named_finds_the_words_about_it(memory: tuple[Pipeline, Model]) -> None:
    p, model = memory
    # asked on Tuesday 12 May: "last weekend" is 9-10 May, named on Monday as "Saturday" (no word in common)
    r = p.recall("What did I do last weekend?", now=datetime(2026, 5, 12, 9, tzinfo=UTC))
    assert r.episodes_relevant and r.episodes[0].text.startswith("Spent Saturday bouldering")
    # a week later: the words said in that weekend's days, not the earlier weekend's nor the mere word "weekend"
    r = p.recall("What did I do last weekend?", now=datetime(2026, 5, 21, 9, tzinfo=UTC))
    assert r.episodes[0].text.startswith("A quiet day")
    # words about another time only mislead, even when they share a word with the question ("weekend")
    assert not any("Spent Saturday" in e.text or "plans fell through" in e.text for e in r.episodes)
    # a question with a topic: the words search the topic, the period ranks up; words about other times on the
    # topic stay (they may tell of it undated), a time word alone ("weekend") finds nothing
    r = p.recall("Who did I go bouldering with last weekend?", now=datetime(2026, 5, 12, 9, tzinfo=UTC))
    found = [e.text for e in r.episodes]
    assert {"Spent Saturday bouldering at the climbing wall with Jo.", "Bouldering with Jo is the best thing I do."} \
        <= set(found) and not any("gardening" in t for t in found)
    ans = p.answer("What did I do in March?", now=datetime(2026, 7, 1, 9, tzinfo=UTC))
    assert "driving test" in ans.text and model.prompts


def test_how_long_ago_is_counted_from_the_time_meant(memory: tuple[Pipeline, Model]) -> None:
    p, model = memory
    ans = p.answer("How long ago did I pass my driving test?", now=datetime(2026, 9, 1, 9, tzinfo=UTC))
    assert ans.text == "About six months ago (13 March 2026)." and not model.prompts and not ans.llm_used
    ans = p.answer("When did I pass my driving test?", now=datetime(2026, 9, 1, 9, tzinfo=UTC))
    assert ans.text == "13 March 2026." and not model.prompts


def test_a_store_that_fails_the_date_read_costs_only_the_period(memory: tuple[Pipeline, Model],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The read by date failing (a broken store, a backend without it) leaves the words search as it was."""
    from memory import queries as Q
    from memory.errors import MemoryStoreError

    p, _ = memory
    store = p.graph.store
    read = store.read

    def failing(query, params=None):  # type: ignore[no-untyped-def]
        if query == Q.EPISODES_SAID_BETWEEN:
            raise MemoryStoreError("disk gone")
        return read(query, params)
    monkeypatch.setattr(store, "read", failing)
    r = p.recall("Who did I go bouldering with last weekend?", now=datetime(2026, 5, 12, 9, tzinfo=UTC))
    assert r.episodes_relevant and all("d" not in e.matched for e in r.episodes)
    assert any(e.text.startswith("Bouldering with Jo") for e in r.episodes)


def test_words_said_on_the_day_asked_rank_up_though_they_name_another_time(tmp_path: Path) -> None:
    """"What news did I share on 20 May?": the news told that day names the week before ("I joined a choir last
    week"), so it is not about 20 May; that it was said then still ranks it up."""
    said = [(datetime(2026, 4, 2, 19, tzinfo=UTC), "Big news, family news: my sister got engaged, what news!"),
            (datetime(2026, 5, 20, 19, tzinfo=UTC), "Some news, good news: I joined a choir last week!"),
            (datetime(2026, 5, 21, 19, tzinfo=UTC), "Some news: the boiler is fixed at last!")]
    with told(tmp_path, said, Model()) as p:
        r = p.recall("What news did I share on 20 May?", now=datetime(2026, 6, 1, 9, tzinfo=UTC))
        assert r.episodes[0].text.startswith("Some news, good news: I joined a choir")


def test_a_time_moved_later_is_the_answer_not_the_first_one_said(tmp_path: Path) -> None:
    """"When is my brother's wedding?" was "12 June 2026." (the best match, said first) after "They've moved the
    wedding to August because the venue flooded"; words that move something else leave the first date."""
    said = [(datetime(2026, 1, 12, 18, tzinfo=UTC), "My brother's wedding is on 12 June."),
            (datetime(2026, 2, 2, 18, tzinfo=UTC), "We went to the cinema."),
            (datetime(2026, 4, 3, 18, tzinfo=UTC), "They've moved the wedding to August because the venue flooded.")]
    with told(tmp_path / "a", said, Model()) as p:
        assert p.answer("When is my brother's wedding?", now=datetime(2026, 4, 20, 9, tzinfo=UTC)).text == \
            "August 2026."
    said[2] = (datetime(2026, 4, 3, 18, tzinfo=UTC), "They've moved the football to August.")
    with told(tmp_path / "b", said, Model()) as p:
        assert p.answer("When is my brother's wedding?", now=datetime(2026, 4, 20, 9, tzinfo=UTC)).text == \
            "12 June 2026."



def test_a_time_said_moved_then_told_apart_from_a_denied_one_is_the_answer(tmp_path: Path) -> None:
    """"When does Hannah arrive?" was "3 December 2026." after "Change of plan, Hannah's flight's been moved. She's
    not coming in on the 3rd now, it's Saturday the 5th": said moved with no "to", the newer words go first, and of
    a time denied and another said, the other is meant."""
    said = [(datetime(2026, 11, 20, 18, tzinfo=UTC), "Hannah lands from Vancouver on the 3rd and she's staying with "
                                                     "us three weeks over Christmas."),
            (datetime(2026, 11, 26, 18, tzinfo=UTC), "Change of plan, Hannah's flight's been moved. She's not coming "
                                                     "in on the 3rd now, it's Saturday the 5th.")]
    with told(tmp_path / "a", said, Model()) as p:
        assert p.answer("When does Hannah arrive?", now=datetime(2026, 11, 29, 9, tzinfo=UTC)).text == \
            "5 December 2026."


def test_a_time_reckoned_anew_is_the_answer_not_the_first_reckoning(tmp_path: Path) -> None:
    """"When is next door's extension meant to be finished?" after "Dave's reckoning it'll all be done by the end of
    October", then "Course the extension's not done. Dave's now saying February": the newer reckoning."""
    said = [(datetime(2026, 6, 16, 12, tzinfo=UTC), "Next door are having an extension put on. Builders start Monday "
                                                    "and Dave's reckoning it'll all be done by the end of October."),
            (datetime(2026, 11, 5, 7, tzinfo=UTC), "Course the extension's not done. Dave's now saying February, "
                                                   "because the steel beams turned up six weeks late. Drilling at "
                                                   "half seven every single morning, I'm losing the will.")]
    with told(tmp_path / "a", said, Model()) as p:
        assert p.answer("When is next door's extension meant to be finished?",
                        now=datetime(2026, 11, 29, 9, tzinfo=UTC)).text == "February 2027."


def test_a_time_denied_and_another_told_is_read_first_when_asked_when(tmp_path: Path) -> None:
    """"When is the plumber coming?" was "19 November 2026." (the Thursday first said) after "the plumber's rung to
    say he's put his back out, so it's not tomorrow now, it's Tuesday the first of December"."""
    said = [(datetime(2026, 11, 16, 8, tzinfo=UTC), "The plumber's coming Thursday to sort that leak under the bath."),
            (datetime(2026, 11, 18, 18, tzinfo=UTC), "Well, surprise surprise, the plumber's rung to say he's put his "
                                                     "back out, so it's not tomorrow now, it's Tuesday the first of "
                                                     "December.")]
    with told(tmp_path / "a", said, Model()) as p:
        assert p.answer("When is the plumber coming?", now=datetime(2026, 11, 29, 9, tzinfo=UTC)).text == \
            "1 December 2026."


_APRIL_1, _MARCH_10 = datetime(2026, 4, 1, 9, tzinfo=UTC), datetime(2026, 3, 10, 18, tzinfo=UTC)


@pytest.mark.parametrize(("said", "question", "now", "meant"), [
    # a time put off "till … now": the newer time (everyday82: a move put back had been answered with the first date)
    ([(datetime(2026, 2, 10, 18, tzinfo=UTC), "Mags starts at the library on the 2nd of March, she's buzzing."),
      (datetime(2026, 2, 25, 18, tzinfo=UTC), "The council's lost her paperwork, so she's not starting till the 20th "
                                              "of April now. Honestly.")],
     "When does Mags start at the library?", datetime(2026, 3, 1, 9, tzinfo=UTC), "20 April 2026."),
    # a burial is told as the funeral, and its time is read from the words that name the funeral ("When was Uncle
    # Paddy buried?" was answered with the day he died, everyday83)
    ([(_MARCH_10, "My gran passed away on Sunday, peacefully. The funeral will be next Thursday at St Brigid's, then "
                  "back to the hotel.")],
     "When was my gran buried?", _APRIL_1, "19 March 2026."),
    # the funeral's sentence is kept when the utterance is cut to what bears on the question (Paddy's had been given
    # "Uncle Paddy died on Sunday" and its next sentence only)
    ([(_MARCH_10, "Auntie Rose died on Sunday. She was eighty-eight and still doing the crossword in pen every single "
                  "morning, God love her, right up to the end of it all, and she beat every one of us at cards over "
                  "Christmas without even looking at her hand. I'll miss her terribly, we all will, the house is so "
                  "quiet without her. The funeral's the day after tomorrow at the parish church. I'm doing one of the "
                  "readings.")],
     "When was Auntie Rose buried?", _APRIL_1, "12 March 2026."),
    # asked of what is to come, a time still to come that the words found name goes before one gone ("When are Aoife
    # and Tomás getting married?" was the Saturday he proposed, everyday82)
    ([(datetime(2026, 5, 25, 18, tzinfo=UTC), "Nell's engaged! Sami proposed on the beach at Inch on Saturday."),
      (datetime(2026, 7, 14, 18, tzinfo=UTC), "Nell and Sami have set a date, the 5th of June next year, in the "
                                              "church in Dingle.")],
     "When are Nell and Sami getting married?", datetime(2026, 11, 1, 9, tzinfo=UTC), "5 June 2027."),
])
def test_the_time_meant_is_read_from_the_words_that_tell_it(tmp_path: Path, said: list[tuple[datetime, str]],
                                                            question: str, now: datetime, meant: str) -> None:
    with told(tmp_path / "a", said, Model()) as p:
        assert p.answer(question, now=now).text == meant


def test_asked_when_of_someone_called_by_their_role_the_role_s_fact_carries_no_time(tmp_path: Path) -> None:
    """"When was Uncle Paddy buried?" went to the model with `Paddy uncle_of User` found as the asked relation's
    fact, and the model said the day he died (everyday83): who someone is carries no time of what is asked of them."""
    from memory.model import USER_ID

    said = [(_MARCH_10, "Auntie Rose died on Sunday. The funeral will be next Thursday at St Brigid's, then back to "
                        "the hotel.")]
    model = Model()
    with told(tmp_path / "a", said, model) as p:
        p.graph.assert_fact("Rose", "aunt_of", USER_ID, now=said[0][0])
        assert p.answer("When was Auntie Rose buried?", now=_APRIL_1).text == "19 March 2026."
        assert not model.prompts  # worked out, not read by the model
