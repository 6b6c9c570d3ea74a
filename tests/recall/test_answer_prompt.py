"""The answer prompt (pure): facts with validity, utterances with dates and speakers in a budget, dates resolved."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from assistant.answer import messages, said_lines, speakable, user_prompt
from assistant.when import dated, no_longer, when_answer, when_note
from memory.episodes import Episode
from memory.model import USER_ID, Arc
from memory.recall.intent import analyse
from memory.recall.recall import RecallResult
from memory.search import focus

AT = datetime(2023, 1, 20, 16, 4, tzinfo=UTC)


def _result(episodes: list[Episode], relevant: bool = True,
            question: str = "Why did Jon lose his job?") -> RecallResult:
    r = RecallResult(question, analyse(question), [], [], "now")
    r.episodes, r.episodes_relevant = episodes, relevant
    return r


def test_relative_dates_are_resolved_against_when_they_were_said() -> None:
    assert when_note("Lost my job as a banker yesterday, so...", AT) == "yesterday = 19 January 2023"
    assert when_note("We went camping last week", AT) == "last week = the week before 20 January 2023"
    assert when_note("See you next month!", AT) == "next month = February 2023"
    assert when_note("We went hiking last weekend.", AT) == "last weekend = the weekend before 20 January 2023"
    assert when_note("I got her two weeks ago.", AT) == "two weeks ago = two weeks before 20 January 2023"
    assert when_note("Max and I went camping last summer.", AT) == "last summer = the summer of 2022"
    assert when_note("I have lived here for three years", AT) is None  # a duration, not a date
    assert when_note("Nothing about time.", AT) is None


def test_the_date_goes_right_after_the_words_that_mean_it() -> None:
    said = "I'm also hosting a dance competition next month to showcase local talent. Come join us!"
    assert dated(said, AT) == ("I'm also hosting a dance competition next month (February 2023) to showcase local "
                               "talent. Come join us!")
    assert dated("Nothing about time.", AT) == "Nothing about time."
    assert dated("We met on 3 January 2023.", AT) == "We met on 3 January 2023."  # already a date


def test_a_weekday_or_month_is_dated_the_way_its_sentence_points() -> None:
    """20 January 2023 was a Friday: "on Monday" is the Monday before for what happened, after for what will."""
    assert dated("I passed my driving test on Monday!", AT) == "I passed my driving test on Monday (16 January 2023)!"
    assert dated("I'm seeing her on Monday.", AT) == "I'm seeing her on Monday (23 January 2023)."
    assert dated("Mei is running the Berlin marathon in September.", AT) == (
        "Mei is running the Berlin marathon in September (September 2023).")
    # each sentence in its own tense: the first that names a time is dated
    assert dated("Hi! I'm so tired. We're flying to Rome on Monday.", AT) == (
        "Hi! I'm so tired. We're flying to Rome on Monday (23 January 2023).")
    assert dated("About Monday: any news?", AT) == "About Monday: any news?"  # no tense to tell which Monday
    assert dated("We spoke on Monday.", AT) == "We spoke on Monday (16 January 2023)."  # an irregular past


def test_each_sentence_that_names_a_time_is_dated() -> None:
    """Only the first time had been dated: "Passed my Day Skipper on Friday! … on the last night (11 May)" was read
    as passed on the 11th (everyday89). 20 January 2023 was a Friday."""
    assert dated("Got the keys on Monday! The removal van comes next week.", AT) == (
        "Got the keys on Monday (16 January 2023)! The removal van comes next week (the week after 20 January 2023).")
    # a day of the month said alone is of the month a sentence before named (everyday88's "Umrah in December.
    # Flying … on the 9th" had been the coming 9th)
    assert dated("We're off to Goa in April. The flight's on the 12th, from Gatwick.", AT) == (
        "We're off to Goa in April (April 2023). The flight's on the 12th (12 April 2023), from Gatwick.")
    # unless it falls in that month, or the month before, anyway: the 29th after "the 3rd of February" is January's
    assert dated("The funeral's on the 3rd of February. I'm flying out on the 29th.", AT) == (
        "The funeral's on the 3rd of February (3 February 2023). I'm flying out on the 29th (29 January 2023).")
    # a count done in a span, or a best over it, is no time ahead
    assert dated("Did six hundred and ten (610) pallets in a day, a record. Best we've done in four years.", AT) == (
        "Did six hundred and ten (610) pallets in a day, a record. Best we've done in four years.")


def test_each_time_a_sentence_names_is_dated() -> None:
    """"I'm doing the head of the lion this year for the dance on the 17th": only "this year" had been dated, and
    the model answered "When is the lion dance?" with "2026" (everyday91). Every time named is dated, those after
    the first read in the sentence's tense where their own words give none. 20 January 2023 was a Friday."""
    # a year, then a day in it: the day is the time the sentence names; after a month, the day is of that month
    assert dated("I'm doing the lion's head this year for the dance on the 24th.", AT) == (
        "I'm doing the lion's head this year for the dance on the 24th (24 January 2023).")
    assert dated("This year the fair is in May, and I'm judging on the 24th.", AT) == (
        "This year (2023) the fair is in May (May 2023), and I'm judging on the 24th (24 May 2023).")
    assert dated("Flew out on Monday and I'm flying back on Thursday.", AT) == (  # each in its own tense
        "Flew out on Monday (16 January 2023) and I'm flying back on Thursday (26 January 2023).")


def test_a_season_then_a_day_in_it_names_the_day_and_a_start_on_a_day_is_to_come() -> None:
    """"I've signed up for a violin-making course in Cremona this summer, starting on the 8th of June" (said in
    April): "When does my violin-making course start?" "The summer of 2026." (everyday92): the day in the season is
    the time named, and a start "on the 8th of June" after signing up is ahead (it had been the June before)."""
    april = datetime(2026, 4, 12, 9, 0, tzinfo=UTC)
    assert dated("I've signed up for a course in Cremona this summer, starting on the 8th of June.", april) == (
        "I've signed up for a course in Cremona this summer, starting on the 8th of June (8 June 2026).")
    assert dated("Signed up for choir, starting on the 3rd of May.", april) == (
        "Signed up for choir, starting on the 3rd of May (3 May 2026).")
    assert dated("I started on the 8th of March.", april) == "I started on the 8th of March (8 March 2026)."


def test_a_thing_named_with_a_word_before_it_starts_on_a_day_to_come() -> None:
    """"The new cleaner starts on Thursday" (said on Monday 3 August 2026) had been the Thursday before: a noun with
    its article and a word between is a subject whose timetable's present is ahead, as "the cleaner" is."""
    monday = datetime(2026, 8, 3, 9, 0, tzinfo=UTC)
    assert dated("The new cleaner starts on Thursday.", monday) == "The new cleaner starts on Thursday (6 August 2026)."
    assert dated("The old boiler broke on Thursday.", monday) == "The old boiler broke on Thursday (30 July 2026)."


def test_a_weekday_with_its_day_of_the_month_is_that_date_whatever_the_tense() -> None:
    """"Completion's slipped a week because the solicitor went on holiday, so we get the keys on Friday now, the
    27th" (said on Wednesday 25 March 2026) had been the Friday before, the 20th: the weekday and the day of the
    month say the date together, and a past elsewhere in the sentence does not move it. "Completion's meant to be
    the 20th of March" (said in February) had been March a year before: what is meant to be is to come."""
    wed = datetime(2026, 3, 25, 18, 0, tzinfo=UTC)
    assert dated("It slipped a week because he went on holiday, so we get the keys on Friday now, the 27th.", wed) == (
        "It slipped a week because he went on holiday, so we get the keys on Friday now, the 27th (27 March 2026).")
    assert dated("Completion's meant to be the 20th of March.", datetime(2026, 2, 26, tzinfo=UTC)) == (
        "Completion's meant to be the 20th of March (20 March 2026).")
    assert dated("The exam is supposed to be on the 2nd of March.", datetime(2026, 2, 26, tzinfo=UTC)) == (
        "The exam is supposed to be on the 2nd of March (2 March 2026).")


def test_utterances_are_dated_attributed_and_oldest_first() -> None:
    eps = [Episode("c#2", "c", 2, "Jon", "Lost my job as a banker yesterday.", AT, 0.9, "t"),
           Episode("c#1", "c", 1, "user", "I moved to Ghent.", AT - timedelta(days=30), 0.5, "t")]
    lines = said_lines(_result(eps))
    assert lines == ['- On 21 December 2022 the user said: "I moved to Ghent."',
                     '- On 20 January 2023 Jon said: "Lost my job as a banker yesterday (19 January 2023)."']


def test_a_number_said_in_words_is_given_its_figure() -> None:
    """The small model read "two hundred and ten quid" as "200 pounds": the figure goes beside the words."""
    eps = [Episode("c#1", "c", 1, "user", "New diverter valve, two hundred and ten quid, but we've got hot water.",
                   AT, 0.9, "t")]
    assert "two hundred and ten (210) quid" in said_lines(_result(eps))[0]
    eps = [Episode("c#1", "c", 1, "user", "Dentist next Tuesday at ten past nine.", AT, 0.9, "t")]
    assert "ten past nine (9:10)" in said_lines(_result(eps))[0]  # read as "10:00 AM"
    eps = [Episode("c#1", "c", 1, "user", "Best fiver I've ever spent, a record player.", AT, 0.9, "t")]
    assert "Best fiver (5) I've" in said_lines(_result(eps))[0]  # read as "$100"


@pytest.mark.parametrize(("question", "weekday"), [
    ("What day do I work at the garden centre?", True),
    ("Which days is the gym open?", True),
    ("What night do I do my Samaritans shift?", True),  # everyday87: "4 February 2026", the day it was told
    ("Which evenings are the kids at swimming?", True),
    ("What day did I start at the garden centre?", False),  # a date
    ("When do I work at the garden centre?", False),
])
def test_asked_which_day_of_the_week(question: str, weekday: bool) -> None:
    """"What day do I work at the garden centre?" "17 October 2026." (the day it was told): a day of the week is
    asked, so no date is given with the words, and the model is told what is asked."""
    from memory.recall.intent import asks_a_weekday
    assert asks_a_weekday(question) is weekday
    assert analyse(question).when is not weekday
    prompt = messages(question, _result([], question=question), AT, [])[-1]["content"]
    assert ("(a day of the week)" in prompt) is weekday


@pytest.mark.parametrize(("question", "reason"), [
    ("Why did Rajesh and I move?", True), ("why is Dad in hospital", True),
    ("How come the ferry was cancelled?", True),  # the recall's "why" reader and the prompt's are one
    ("Where did Rajesh and I move?", False), ("How did I hurt my ankle?", False),
])
def test_asked_why_the_model_is_told_a_reason_is_asked(question: str, reason: bool) -> None:
    """"Why did Rajesh and I move?" "Because we decided to sell the flat in Pune and move to Bengaluru.": the small
    model said back what happened for why. Told that the reason is asked, it answered 36 of 49 why-questions of the
    everyday holdouts (everyday60–85) where it had answered 33 (stop 63)."""
    prompt = messages(question, _result([], question=question), AT, [])[-1]["content"]
    assert ("(the reason: what made it happen)" in prompt) is reason


def test_asked_how_or_why_the_words_come_before_the_facts() -> None:
    """"How did I hurt my ankle?" "You injured your ankle on 29 September 2026.": the fact read first was said
    back; the words say how."""
    eps = [Episode("c#1", "c", 1, "user", "Went and sprained my ankle falling off a banana boat.", AT, 0.9, "t")]
    for question, words_first in [("Why did I turn the job down?", True),
                                   ("What did I hurt?", False), ("How many times did I fall?", False)]:
        r = _result(eps, question=question)
        r.facts = [_fact("user", "injured", "ankle")]
        prompt = user_prompt(question, r, AT)
        assert (prompt.index("Things said before") < prompt.index("Remembered facts")) is words_first


@pytest.mark.parametrize(("question", "way"), [
    ("How did I break my ankle?", True), ("How did Pip die?", True), ("how did Tom and Ana meet", True),
    ("How did John get introduced to basketball?", True),
    ("How did the interview go?", False), ("How did I do in the exam?", False),  # how it went
    ("How did Joanna feel about it?", False), ("How did our horse get on at Newbury?", False),
    ("How do I get to work?", False), ("How was the wedding?", False),  # a habit now; how it was
    ("How come the ferry was late?", False), ("How many times did I fall?", False), ("When did I break it?", False),
])
def test_asked_the_way_a_deed_happened_the_words_go_alone_and_undated(question: str, way: bool) -> None:
    """"How did I break my ankle?" "On 15 March 2026.", "How did Pip die?" "Pip died last night (12 June 2026).":
    the small model gave the date of a fact, or the one put in the words, whatever the question said. Asked the way
    a past deed happened, the words go without the facts (which say only that and when) and without dates put in;
    it then said "…while paragliding", "A gelatinous cube…" (everyday81, everyday89)."""
    from memory.recall.intent import asks_how_it_happened
    assert asks_how_it_happened(question) is way
    eps = [Episode("c#1", "c", 1, "user", "Pip died last night. A gelatinous cube got him.", AT, 0.9, "t")]
    r = _result(eps, question=question)
    r.facts = [_fact("pip", "died_on", "2023-01-19")]
    prompt = user_prompt(question, r, AT)
    assert ("Remembered facts" in prompt) is not way
    assert ("(19 January 2023)" in prompt) is not way  # "last night" dated in the words
    assert ("(the way it happened, not when)" in prompt) is way


def test_asked_when_the_best_utterance_comes_first() -> None:
    """The small model took the date of whichever utterance came first or last: asked when, the best is first."""
    eps = [Episode("c#2", "c", 2, "Jon", "Lost my job as a banker yesterday.", AT, 0.9, "t"),
           Episode("c#1", "c", 1, "user", "I moved to Ghent.", AT - timedelta(days=30), 0.5, "t")]
    lines = said_lines(_result(eps, question="When did Jon lose his job?"))
    assert lines[0].startswith("- On 20 January 2023 Jon said") and "Ghent" in lines[1]


def test_asked_when_newer_words_that_move_its_time_come_first() -> None:
    """"When is my brother's wedding?": the old date matched best and came first, though later words moved it."""
    eps = [Episode("c#1", "c", 1, "user", "My brother's wedding is on 12 June.", AT - timedelta(days=80), 0.9, "t"),
           Episode("c#2", "c", 2, "user", "Nice weather for it.", AT - timedelta(days=40), 0.6, "t"),
           Episode("c#3", "c", 3, "user", "They've moved the wedding to August because the venue flooded.", AT, 0.7,
                   "t")]
    assert "August" in said_lines(_result(eps, question="When is my brother's wedding?"))[0]
    # words that move something else leave the best match first
    eps[2] = Episode("c#3", "c", 3, "user", "They've moved the match to Sunday.", AT, 0.7, "t")
    assert "12 June" in said_lines(_result(eps, question="When is my brother's wedding?"))[0]


def test_a_yes_no_question_about_today_reads_the_newest_first() -> None:
    """"Do I drink coffee?": the small model answered from the first line, the old "I don't drink coffee"."""
    eps = [Episode("c#1", "c", 1, "user", "I don't drink coffee, just tea.", AT - timedelta(days=200), 0.9, "t"),
           Episode("c#2", "c", 2, "user", "I'm a proper coffee person now.", AT, 0.8, "t")]
    assert "coffee person" in said_lines(_result(eps, question="Do I drink coffee?"))[0]
    assert "just tea" in said_lines(_result(eps, question="Did I drink coffee last year?"))[0]  # the past
    assert "coffee person" in said_lines(_result(eps, question="What do I drink?"))[0]  # what holds now
    assert "just tea" in said_lines(_result(eps, question="What did I drink?"))[0]  # not now: oldest first


def test_the_budget_keeps_the_best_utterances() -> None:
    long = "word " * 100
    eps = [Episode(f"c#{i}", "c", i, "Jon", f"{i} {long}", AT + timedelta(minutes=i), 1.0 - i / 10, "t")
           for i in range(6)]
    lines = said_lines(_result(eps), budget_chars=1100)
    assert len(lines) == 3 and lines[0].startswith('- On 20 January 2023 Jon said: "0 ')
    assert all(len(x) < 360 for x in lines)  # each one cut at a word, not mid-word


def test_irrelevant_utterances_never_reach_the_model() -> None:
    eps = [Episode("c#1", "c", 1, "Jon", "Sounds great!", AT, 0.1, "")]
    prompt = user_prompt("Which mountain did Jon climb?", _result(eps, relevant=False), AT)
    assert "Sounds great" not in prompt and "nothing relevant" in prompt


def test_a_long_utterance_keeps_the_sentences_that_bear_on_the_question() -> None:
    said = ("Hey Gina! Thanks for asking. I've been looking at different places and picturing how the space "
            "would look. I even found a place with great natural light! Oh, I went to Paris yesterday! It was "
            "sooo cool. Anyway, how is the store going? Any new lines this month?")
    kept = focus(said, "When was Jon in Paris?", 80)
    assert "I went to Paris yesterday!" in kept and "It was sooo cool." in kept  # the match, then its context
    assert kept.startswith("…") and len(kept) <= 80 and "Hey Gina" not in kept
    assert focus("Short enough.", "When was Jon in Paris?", 80) == "Short enough."
    # the date note is worked out on what was kept
    r = _result([Episode("c#1", "c", 1, "Jon", said, AT, 0.9, "t")])
    r.question = "When was Jon in Paris?"
    (line,) = said_lines(r, max_chars=80)
    assert "Paris yesterday (19 January 2023)!" in line


@pytest.mark.parametrize(("said", "spoken"), [
    ("On 2020.", "In 2020."),  # a year is "in"
    ("On May 2023, after the move.", "In May 2023, after the move."),  # so is a month
    ("On 5 May 2023.", "On 5 May 2023."),  # a day keeps "on"
    ("On May 5, 2023.", "On May 5, 2023."),
    ("He ran on 2000 metres of track.", "He ran on 2000 metres of track."),  # not where a date answer starts
    ("**On 2019**", "In 2019"),  # after the markdown goes
])
def test_a_year_or_a_month_is_said_with_in(said: str, spoken: str) -> None:
    assert speakable(said) == spoken


def _said(question: str, *said: tuple[str, str, datetime]) -> RecallResult:
    r = RecallResult(question, analyse(question), [], [], "now", asked="John")
    r.episodes = [Episode(f"c#{i}", "c", i, who, text, at) for i, (who, text, at) in enumerate(said)]
    r.episodes_relevant = True
    return r


MAY20 = datetime(2023, 5, 20, 10, tzinfo=UTC)


@pytest.mark.parametrize(("text", "answer", "expected"), [
    ("Last year, I helped renovate a rundown community center back home.", "On 20 May 2023.", "In 2022."),
    ("Yesterday I helped renovate the community center.", "On 20 May 2023, John did.", "On 19 May 2023."),
    ("I helped renovate the community center last week!", "20 May 2023", "The week before 20 May 2023."),
    ("Last month I helped renovate the community center.", "On 20 May 2023.", "In April 2023."),
    # the model's date is right: the words were said the day it happened, or name no other time
    ("Today I helped renovate the community center.", "On 20 May 2023.", None),
    ("I helped renovate the community center!", "On 20 May 2023.", None),
    # the time named is in a sentence about something else
    ("Last year I went to Paris. I helped renovate the community center.", "On 20 May 2023.", None),
    # another day's words, or no date in the answer
    ("Last year, I helped renovate a rundown community center back home.", "On 21 May 2023.", None),
    ("Last year, I helped renovate a rundown community center back home.", "In 2022.", None),
])
def test_the_day_words_were_said_is_not_the_day_they_mean(text: str, answer: str, expected: str | None) -> None:
    from assistant.when import redated

    r = _said("When did John help renovate his hometown community center?", ("John", text, MAY20))
    assert redated(answer, r) == expected


def test_a_day_whose_words_mean_two_times_is_left_alone() -> None:
    from assistant.when import redated

    r = _said("When did John renovate the community center?",
              ("John", "Last year we started to renovate the community center.", MAY20),
              ("John", "Yesterday the community center renovation was finished!", MAY20 + timedelta(hours=1)))
    assert redated("On 20 May 2023.", r) is None
    assert redated("On 20 May 2023.", _said("Where did John renovate?", ("John", "Last year I renovated it.",
                                                                         MAY20))) is None  # not asked when


@pytest.mark.parametrize(("answer", "spoken"), [
    ("2 letters.", "Two letters."),
    ("She got 2.", "She got two."),
    ("12 times, on 5 May 2023 the last.", "Twelve times, on 5 May 2023 the last."),  # the date stays
    ("Since May 5.", "Since May 5."),
    ("About 2.5 hours.", "About 2.5 hours."),
    ("3-4 times a week.", "3-4 times a week."),
    ("At 10:30.", "At 10:30."),
    ("13 turtles.", "13 turtles."),  # a larger number reads as well in digits
    ("In 2022.", "In 2022."),
])
def test_a_small_count_is_said_as_a_word(answer: str, spoken: str) -> None:
    from assistant.answer import counted

    assert counted(answer, "How many letters has Joanna received?") == spoken
    assert counted(answer, "What did Joanna receive?") == answer  # not asked to count


def _heard(question: str, said: list[tuple[str, str, datetime]], relevant: bool = True) -> RecallResult:
    r = RecallResult(question, analyse(question), [], [], "now")
    r.episodes = [Episode(f"e{i}", "c1", i, who, text, at) for i, (who, text, at) in enumerate(said)]
    r.episodes_relevant, r.asked = relevant, "John"
    return r


MAY_20 = datetime(2023, 5, 20, 14, 0, tzinfo=UTC)
JUNE_3 = datetime(2023, 6, 3, 9, 0, tzinfo=UTC)


def test_asked_when_about_no_one_words_sharing_one_word_give_no_day() -> None:
    """"When did the dinosaurs die out?" is not the day "My nephew Oscar is obsessed with dinosaurs" was said: asked
    about no one, the words must tell what happened too."""
    obsessed = ("user", "My nephew Oscar is obsessed with dinosaurs.", JUNE_3)
    r = _heard("When did the dinosaurs die out?", [obsessed])
    r.asked = ""
    assert when_answer(r) is None
    told = ("user", "We went to see the dinosaurs at the museum with Oscar.", JUNE_3)
    r = _heard("When did we see the dinosaurs?", [told])
    r.asked, r.personal = "", True
    assert when_answer(r) == "3 June 2023."


def test_asked_when_the_time_the_best_words_mean_without_the_model() -> None:
    renovated = ("John", "I haven't volunteered much lately. Last year I helped renovate a community center back "
                         "home, it took a lot of work.", MAY_20)
    assert when_answer(_heard("When did John help renovate the community center?", [renovated])) == "2022."
    # the best words name no time, the next do: the time named
    plain = ("John", "Community work keeps me going, honestly.", JUNE_3)
    assert when_answer(_heard("When did John help renovate the community center?", [plain, renovated])) == "2022."
    # none names a time: the day the best was told
    got = ("John", "Guess what, I adopted a puppy from the shelter!", JUNE_3)
    assert when_answer(_heard("When did John adopt his puppy?", [got])) == "3 June 2023."
    assert when_answer(_heard("In which month did John adopt his puppy?", [got])) == "3 June 2023."
    # nor the day of words that share nothing with what is asked but who did it (not what was done: "Meet Max!"
    # is the day for "When did John adopt Max?")
    tester = ("John", "Sol is a tester at Kinetica.", JUNE_3)
    assert when_answer(_heard("When did John and Sol meet?", [tester])) is None
    pup = ("John", "Meet Max, our new pup!", JUNE_3)
    assert when_answer(_heard("When did John adopt Max?", [pup])) == "3 June 2023."
    # heard as "I finally pass my test on Friday" (speech to text drops the -ed): asked about the past, the
    # Friday is the one before
    misheard = ("John", "I finally pass my driving test on Friday!", datetime(2023, 5, 22, 19, tzinfo=UTC))
    assert when_answer(_heard("When did John pass his driving test?", [misheard])) == "19 May 2023."
    # a time named that cannot be read: not the day it was said either
    every = ("John", "Every Friday the test centre is open, and I passed there.", JUNE_3)
    assert when_answer(_heard("When did John pass his driving test?", [every])) is None
    # a week counted back, in the words people use
    assert when_answer(_heard("When did John adopt his puppy?", [
        ("John", "I adopted a puppy two weeks ago!", JUNE_3)])) == "Two weeks before 3 June 2023."
    # a vague count is no date: said as vaguely as it was, from when it was said (not "2020")
    assert when_answer(_heard("When did John get his tattoo?", [
        ("John", "Got the tattoo a few years ago, it means a lot.", JUNE_3)])) == "A few years before 3 June 2023."
    assert when_answer(_heard("When did John move?", [
        ("John", "We moved here several months ago.", JUNE_3)])) == "Several months before 3 June 2023."
    # weekends counted, as said
    assert when_answer(_heard("When did John go hiking?", [
        ("John", "I went hiking two weekends ago, so fun.", JUNE_3)])) == "Two weekends before 3 June 2023."


def test_asked_when_a_question_or_a_plan_names_no_day() -> None:
    asked = ("Maria", "Wow John! When are you opening the studio?", MAY_20)
    planned = ("John", "I'm opening my studio with a big party, can't wait!", MAY_20)
    assert when_answer(_heard("When is John opening his studio?", [asked, planned])) is None  # the model's
    weekly = ("John", "Every Tuesday evening I have a Spanish lesson with Lucia.", MAY_20)
    assert when_answer(_heard("On which day is John's lesson?", [weekly])) == "Every Tuesday evening."
    # asked when, in the present, of something done every week: how often, as said (not the day it was said)
    assert when_answer(_heard("When does John have his lesson?", [weekly])) == "Every Tuesday evening."
    assert when_answer(_heard("When did John have his lesson?", [weekly])) is None  # one lesson: the model's
    # asked which night, of a repeat said as a plural day beside the night it began (everyday78: "Which night do I
    # do life drawing?" after "First life drawing class … tonight, twelve quid a session, Wednesdays" was "tonight")
    weekly = ("user", "First pottery lesson at the community centre tonight, ten pounds a go, Thursdays.", MAY_20)
    assert when_answer(_heard("Which night do I do pottery?", [weekly])) == "Thursdays."
    weekly = ("user", "Signed up for choir at the church, Monday evenings from October.", MAY_20)
    assert when_answer(_heard("What evening is my choir?", [weekly])) == "Monday evenings."
    weekly = ("user", "Ollie's in the under-elevens now, training Monday and Wednesday nights.", MAY_20)
    assert when_answer(_heard("What nights does Ollie train?", [weekly])) == "Monday and Wednesday nights."
    told = ("John", "Probably around six months from now, once the lease is signed.", MAY_20)
    assert when_answer(_heard("When is John opening his studio?", [asked, told])) == "November 2023."
    # asked what day, a repeat that names no day is no answer (everyday84: "What day does the black bin go out
    # now?" "Every single week.", from "Bin day's Monday round here and I forget every single week")
    weekly = ("user", "Bin day's Monday round here and I forget every single week.", MAY_20)
    assert when_answer(_heard("What day does the black bin go out?", [weekly])) != "Every single week."
    weekly = ("user", "The bins go out every Monday night round here.", MAY_20)
    assert when_answer(_heard("What day does the black bin go out?", [weekly])) == "Every Monday night."


def test_not_asked_when_or_nothing_bears_on_it() -> None:
    said = [("John", "Last year I helped renovate a community center.", MAY_20)]
    assert when_answer(_heard("Why did John renovate the community center?", said)) is None
    assert when_answer(_heard("How long did the renovation take?", said)) is None
    assert when_answer(_heard("When did John renovate the community center?", said, relevant=False)) is None
    assert when_answer(_heard("When did John renovate the community center?", [])) is None


def test_a_birthday_told_but_not_learned_is_the_day_said_without_a_year() -> None:
    birthday = [("John", "My birthday is on the ninth of August, come to the party!", MAY_20)]
    assert when_answer(_heard("When is John's birthday?", birthday)) == "On 9 August."  # every year: no 2022
    assert when_answer(_heard("When is Maria's birthday?", birthday)) is None  # John's, not hers
    wife = [("user", "It's Jess's birthday on the 3rd of March, she's my wife, I need flowers.", MAY_20)]
    assert when_answer(_heard("When is my wife's birthday?", wife)) == "On 3 March."
    assert when_answer(_heard("When is my birthday?", wife)) is None  # hers, not the user's
    mine = [("user", "I was born on 14 July, a proper summer baby.", MAY_20)]
    assert when_answer(_heard("When is my birthday?", mine)) == "On 14 July."
    month = [("user", "We're off to Porto for my birthday in October.", MAY_20)]
    assert when_answer(_heard("When is my birthday?", month)) == "In October."  # the month is all that was said



def _born_on(who_id: str, day: str) -> Arc:
    return Arc(f"a-{who_id}", who_id, who_id.title(), "born_on", f"d-{day}", day, None, 1.0, 0.0, 0, 1, MAY_20,
               MAY_20, None, MAY_20, None, None, 1, 1.0)


def test_asked_when_a_birthday_is_the_day_the_fact_holds_without_a_year() -> None:
    r = _heard("When is John's birthday?", [])
    r.seeds, r.facts = ["john"], [_born_on("john", "August 9")]
    assert when_answer(r) == "On 9 August."
    r.facts.append(_born_on("maria", "March 2"))  # someone else's: not the one asked about
    assert when_answer(r) == "On 9 August."
    r.facts.append(_born_on("john", "August 19"))  # two days for one person: the model reads them
    assert when_answer(r) is None


def _talk(question: str, asked: str, said: list[tuple[str, str]]) -> RecallResult:
    """What recall found for ``question`` about ``asked``: the utterances ``said`` (speaker, text), in order."""
    r = RecallResult(question, analyse(question), [], [], "now", asked=asked, personal=True)
    r.episodes = [Episode(f"e{i}", "c", i, who, text, AT) for i, (who, text) in enumerate(said, 1)]
    r.episodes_relevant = True
    return r


def _two_speakers(question: str, asked: str = "") -> RecallResult:
    return _talk(question, asked, [
        ("Omar", "Sounds like you and Bo had a great time! Camping with dogs is the best."),
        ("Lina", "Bo and I camped by the lake. It was peaceful and awesome, honestly."),
    ])


@pytest.mark.parametrize(("question", "answer", "asked", "borrowed"), [
    # asked how Omar put it: Lina's words given as his are no answer
    ("How does Omar describe the camping trip with Bo?", "Omar described it as peaceful and awesome.", "Omar", True),
    ("How did Lina describe the camping trip with Bo?", "Peaceful and awesome.", "Lina", False),  # her own words
    # the name before the verb says whose words, when the question names two people
    ("What does Omar say about Lina's camping trip?", "Peaceful and awesome.", "", True),
    # asked about anyone who speaks: their words, or words to them or naming them, not someone else's
    ("Where did Lina and Bo camp?", "By the lake, peaceful and awesome.", "Lina", False),
    ("Where did Omar camp?", "By the lake.", "Omar", True),  # Lina's camping, not his
    ("What did Lina have with Bo?", "A great time.", "Lina", False),  # said to her ("you and Bo")
    ("What does Omar think of camping with dogs?", "The best.", "Omar", False),
    ("Where did Omar camp?", "By the lake.", "", False),  # no one asked about who speaks here
    ("How does Omar describe the camping trip?", "Great time.", "Omar", False),  # his own
    ("How does Lina describe her time with Bo?", "Great, the best.", "Lina", True),  # said to her, not hers
])
def test_words_put_in_someone_elses_mouth(question: str, answer: str, asked: str, borrowed: bool) -> None:
    from assistant.answer import borrowed as is_borrowed
    assert is_borrowed(answer, question, _two_speakers(question, asked)) is borrowed


def _asked_of_the_listener(question: str, asked: str) -> RecallResult:
    return _talk(question, asked, [
        ("Omar", "Congrats on the new job! Which bakery did you join?"),
        ("Lina", "I started at Crumb and Co last week, early shifts but I love it."),
        ("Omar", "Wow, such a varied menu at your place. Do you bake the sourdough too?"),
        ("Omar", "I might learn to bake sourdough myself, maybe at a weekend class?"),
    ])


@pytest.mark.parametrize(("question", "answer", "asked", "borrowed"), [
    # what Omar asks Lina or tells her of her own things says nothing of Omar
    ("Which bakery did Omar join?", "He joined a new job.", "Omar", True),
    ("What is on the menu at Omar's bakery?", "A varied menu.", "Omar", True),
    ("Where does Lina work?", "Crumb and Co, on early shifts.", "Lina", False),  # her own words
    # a "?" after "I" is his own doubt, not a question to her
    ("What might Omar learn?", "To bake sourdough at a weekend class.", "Omar", False),
    # asked what he asked, his questions are his words
    ("What did Omar ask Lina about the bakery?", "Which bakery she joined after the new job.", "Omar", False),
])
def test_what_someone_asks_or_tells_the_listener_is_the_listeners(question: str, answer: str, asked: str,
                                                                   borrowed: bool) -> None:
    from assistant.answer import borrowed as is_borrowed
    assert is_borrowed(answer, question, _asked_of_the_listener(question, asked)) is borrowed


def _news_then_a_question(question: str, asked: str) -> RecallResult:
    return _talk(question, asked, [
        ("Lina", "Fun weekend! I took the pups to the lake and they loved it."),
        ("Lina", "The pups had a blast paddling at the lake! Have you been there lately?"),
        ("Omar", "We hiked up to the old fort and had a picnic with a view."),
    ])


@pytest.mark.parametrize(("question", "answer", "asked", "borrowed"), [
    # her news told in two turns, the second asking him something after it: two words of the answer in one
    # of her own make it hers
    ("What did Lina do with her pups at the weekend?", "She took them to the lake and they had a blast paddling.",
     "Lina", False),
    # his weekend given as hers: one word of hers by chance ("had") does not
    ("What did Lina do at the weekend?", "She hiked up to the old fort and had a picnic.", "Lina", True),
])
def test_words_in_one_of_their_own_turns_are_theirs(question: str, answer: str, asked: str,
                                                   borrowed: bool) -> None:
    from assistant.answer import borrowed as is_borrowed
    assert is_borrowed(answer, question, _news_then_a_question(question, asked)) is borrowed


@pytest.mark.parametrize(("question", "asked", "borrowed"), [
    # "according to" asks for someone's own words, as "say" and "describe" do: hers, though they say "your"
    ("What is the film about, according to Lina?", "Lina", False),
    ("According to Omar, what is the film about?", "Omar", True),  # her words, not his
])
def test_according_to_asks_for_their_own_words(question: str, asked: str, borrowed: bool) -> None:
    from assistant.answer import borrowed as is_borrowed
    r = _talk(question, asked, [
        ("Lina", "I finally saw Paper Boats. It's a gentle story about grief, friendship and following your heart."),
        ("Omar", "Nice, I still haven't seen it. How was the weekend otherwise?"),
    ])
    assert is_borrowed("A gentle story about grief, friendship and following your heart.", question, r) is borrowed


def _fact(subject_id: str, relation: str, obj: str, until: datetime | None = None) -> Arc:
    return dataclasses.replace(_born_on(subject_id, obj), id=f"a-{obj}", relation=relation, valid_to=until)


def test_asked_whether_a_post_still_holds_a_newer_employer_puts_it_in_doubt() -> None:
    """"Am I still a postie?" "Yes." after "Started on the line at the Jaguar plant on Monday" (everyday70's first
    run): the post went with the old work. A newer post at the same employer (a promotion) is no doubt on it."""
    q = "Am I still a postie?"
    post = _fact("user", "works_as", "postie")
    plant = dataclasses.replace(_fact("user", "works_at", "Jaguar plant"), id="a-plant",
                                valid_from=MAY_20 + timedelta(days=60))
    r = RecallResult(q, analyse(q), ["user"], [post, plant], "now")
    assert no_longer(r) == "Maybe not: you started at Jaguar plant on 19 July 2023."
    r.facts = [post, dataclasses.replace(plant, valid_from=MAY_20 - timedelta(days=60))]  # the employer then
    assert no_longer(r) is None
    q = "Do I still work at Jaguar plant?"
    r = RecallResult(q, analyse(q), ["user"], [dataclasses.replace(plant, valid_from=MAY_20 - timedelta(days=60)),
                                               dataclasses.replace(post, valid_from=MAY_20)], "now")
    assert no_longer(r) is None


def test_asked_of_the_user_without_still_an_end_is_said() -> None:
    """"Am I pescatarian?" after the diet ended: memory had said "You haven't told me anything about it"."""
    q = "Am I pescatarian?"
    assert analyse(q).history  # what ended is read too
    r = RecallResult(q, analyse(q), ["user"], [_fact("user", "diet", "pescatarian", until=JUNE_3)], "history")
    assert no_longer(r) == "No, not since 3 June 2023."
    r.facts = [_fact("user", "diet", "pescatarian")]  # it holds: the model answers
    assert no_longer(r) is None
    r.episodes = [Episode("e1", "c2", 0, "user", "New pescatarian cookbook arrived, so glad I switched.", JUNE_3)]
    r.episodes_relevant = True
    assert no_longer(r) is None  # words of a change are read only when asked "still"
    assert not analyse("Is it vegetarian?").history  # of no one


def test_asked_of_someone_named_without_still_an_end_is_said() -> None:
    """"Does Tamsin go to Oakridge Primary?" after she was taken out: "I don't know that" (neither the ended school
    nor its kind were read); of someone of the user's, too ("Is my brother vegan?")."""
    q = "Does Tamsin go to Oakridge Primary?"
    assert analyse(q).history and "studies_at" in analyse(q).relations
    r = RecallResult(q, analyse(q), ["e-tamsin"], [_fact("e-tamsin", "studies_at", "Oakridge Primary", until=JUNE_3)],
                     "history")
    assert no_longer(r) == "No, not since 3 June 2023."
    assert analyse("Is my brother vegan?").history and analyse("Is Anna pescatarian?").history
    assert "studies_at" in analyse("Is Kai at Hillside High?").relations
    assert "studies_at" not in analyse("How high is Ben Nevis?").relations


def test_a_pet_of_another_kind_gone_is_no_end_of_the_kind_asked() -> None:
    """"Do we have a dog?" after the hamster Nibbles died was "No, not since 5 September 2026." (as if a dog had gone);
    asked of a pet, or of a hamster, the end is said."""
    pet = _fact("user", "has_pet", "Nibbles", until=JUNE_3)
    kind = dataclasses.replace(_fact("nibbles", "is_a", "hamster"), subject="Nibbles")
    pet = dataclasses.replace(pet, object_id="nibbles")
    for q, said in (("Do we have a dog?", None), ("Do we have a pet?", "No, not since 3 June 2023."),
                    ("Do I have a hamster?", "No, not since 3 June 2023.")):
        r = RecallResult(q, analyse(q), ["user"], [pet, kind], "history")
        assert no_longer(r) == said, q
    # a breed is no other kind: "a retired greyhound" gone is the dog asked of (everyday62 in stop 57's gate)
    breed = dataclasses.replace(kind, object="retired greyhound")
    r = RecallResult("Do we have a dog?", analyse("Do we have a dog?"), ["user"], [pet, breed], "history")
    assert no_longer(r) == "No, not since 3 June 2023."


def test_still_asked_in_the_words_a_fact_was_learned_from() -> None:
    """"Does my dad still drive buses?" when the only fact of it, `works_at Arriva`, was learned from "My dad drives
    buses for Arriva" and has ended: the words it came from say what was asked, so its end is said. A fact learned
    from words that say another thing is not what was asked."""
    q = "Does my dad still drive buses?"
    said = Episode("c1#0", "c1", 0, "user", "My dad drives buses for Arriva.", MAY_20)
    job = dataclasses.replace(_fact("dad", "works_at", "Arriva", until=JUNE_3), sources=("c1#0",))
    r = RecallResult(q, analyse(q), ["dad"], [job], "history", episodes=[said], episodes_relevant=True)
    assert no_longer(r) == "No, not since 3 June 2023."
    r.episodes = [dataclasses.replace(said, text="My dad works for Arriva.")]  # says neither driving nor buses
    assert no_longer(r) is None
    # the topic in one clause, the fact in another: no fact of what was asked (everyday79's first run: "Do I like
    # spicy food?" was answered "No, not since…" from a trip to Penang ended, told beside "never one for spicy food")
    q = "Do I still like spicy food?"
    said = Episode("c1#0", "c1", 0, "user", "I can't stand spicy food, so I'm dreading this work trip to Chennai.",
                   MAY_20)
    trip = dataclasses.replace(_fact("user", "plans_trip_to", "Chennai", until=JUNE_3), sources=("c1#0",))
    r = RecallResult(q, analyse(q), ["user"], [trip], "history", episodes=[said], episodes_relevant=True)
    assert no_longer(r) is None


def test_a_diet_held_now_says_no_to_a_food_it_leaves_out() -> None:
    """"Do I eat meat?" with "User diet pescatarian" held: no (the model had said "Yes."). A diet that ended is no
    answer either way ("Do I eat fish?" after going back to it), nor one that leaves the food in."""
    from assistant.when import diet_leaves_out

    q = "Do I eat meat?"
    r = RecallResult(q, analyse(q), ["user"], [_fact("user", "diet", "pescatarian")], "history")
    assert diet_leaves_out(r) == "No, you are pescatarian."
    assert when_answer(r) == "No, you are pescatarian."
    q = "Do I eat fish?"
    r = RecallResult(q, analyse(q), ["user"], [_fact("user", "diet", "pescatarian")], "history")
    assert diet_leaves_out(r) is None
    r.facts = [_fact("user", "diet", "vegetarian", until=JUNE_3)]
    assert diet_leaves_out(r) is None and no_longer(r) is None
    q = "Did I eat meat?"  # of then: not said from a diet held now
    assert diet_leaves_out(RecallResult(q, analyse(q), ["user"], [_fact("user", "diet", "vegan")], "history")) is None
    # the words keep a food beside the diet: not the table's no
    q = "Do I eat fish?"
    kept = Episode("e1", "c1", 0, "user", "I went vegetarian last year but I still eat fish.", JUNE_3)
    r = RecallResult(q, analyse(q), ["user"], [_fact("user", "diet", "vegetarian")], "history", episodes=[kept],
                     episodes_relevant=True)
    assert diet_leaves_out(r) is None
    r.episodes = [dataclasses.replace(kept, text="I went vegetarian last year, but I don't eat fish either.")]
    assert diet_leaves_out(r) == "No, you are vegetarian."


def test_a_condition_held_now_says_no_to_a_food_it_leaves_out() -> None:
    """"Can Sarah eat gluten?" of a friend who is coeliac: no (the model had said "Yes."); not a food the condition
    leaves in, nor a condition that ended."""
    from assistant.when import diet_leaves_out

    q = "Can Sarah eat gluten?"
    coeliac = dataclasses.replace(_fact("sarah", "has_condition", "coeliac disease"), subject="Sarah")
    r = RecallResult(q, analyse(q), ["sarah"], [coeliac], "history")
    assert diet_leaves_out(r) == "No, Sarah has coeliac disease."
    q = "Can Sarah eat rice?"
    assert diet_leaves_out(RecallResult(q, analyse(q), ["sarah"], [coeliac], "history")) is None
    q = "Can I have cheese?"
    lactose = _fact("user", "has_condition", "lactose intolerance")
    assert diet_leaves_out(RecallResult(q, analyse(q), ["user"], [lactose], "history")) == (
        "No, you have lactose intolerance.")
    ended = _fact("user", "has_condition", "lactose intolerance", until=JUNE_3)
    assert diet_leaves_out(RecallResult(q, analyse(q), ["user"], [ended], "history")) is None


@pytest.mark.parametrize(("question", "allergy", "said"), [
    ("Can I eat prawns?", "shellfish", "No, you are allergic to shellfish."),  # a food of the kind
    ("Can I eat shellfish?", "shellfish", "No, you are allergic to shellfish."),  # the kind itself
    ("Can I have a satay skewer?", "peanuts", "No, you are allergic to peanuts."),
    ("Can I eat rice?", "shellfish", None),  # not of the kind
    ("Can I eat prawns?", "wasps", None),  # no food
    ("Am I allergic to shellfish?", "shellfish", None),  # the allergy itself is asked (it had been "No, you are…")
])
def test_an_allergy_held_now_says_no_to_a_food_of_its_kind(question: str, allergy: str, said: str | None) -> None:
    """"Can I eat prawns?" after "I'm allergic to shellfish" had been "I don't know" (the premise "prawns" was in
    nothing found); memory.words.ALLERGEN_FOODS is the table."""
    from assistant.answer import unfounded
    from assistant.when import diet_leaves_out

    r = RecallResult(question, analyse(question), ["user"], [_fact("user", "allergic_to", allergy)], "now")
    assert diet_leaves_out(r) == said
    if said is not None:
        assert unfounded(["prawns"] if "prawns" in question else [], question, r) == []
    assert "allergic_to" in analyse(question).relations  # what may be eaten asks what cannot be


@pytest.mark.parametrize(("question", "said"), [
    ("Can Rob eat bread?", "No, Rob is gluten-free."),  # a food of the kind
    ("Can Rob have a pint of beer?", None),  # not in the table: the model's to answer
    ("Can Rob eat rice?", None),
    ("Does Rob eat pasta?", "No, Rob is gluten-free."),
    ("Is Rob gluten-free?", None),  # the state itself is asked: the model says yes
])
def test_a_food_gone_without_says_no_to_a_food_of_its_kind(question: str, said: str | None) -> None:
    """"Can Rob eat bread?" after "My husband Rob has gone gluten-free" had been "I don't know"."""
    from assistant.answer import unfounded
    from assistant.when import diet_leaves_out

    rob = dataclasses.replace(_fact("rob", "avoids", "gluten"), subject="Rob")
    r = RecallResult(question, analyse(question), ["rob"], [rob], "now")
    assert diet_leaves_out(r) == said
    if said is not None:  # the food asked is no premise memory lacks: what is gone without speaks of it
        assert unfounded(["bread"] if "bread" in question else ["pasta"], question, r) == []
    assert "avoids" in analyse("Can Rob eat bread?").relations and "avoids" in analyse("Is Rob gluten-free?").relations


def test_asked_about_now_when_every_fact_of_it_ended() -> None:
    """"What car do I drive?" after "Sold the Corsa": the car's end is said, with the words that ended it when they
    were found (the model, handed them, said "A Corsa"); not when words said after the end may name another car,
    nor when a value held now says why it ended (retired: the model says so), nor when asked when."""
    from assistant.when import none_now

    q = "What car do I drive?"
    sold = dataclasses.replace(_fact("user", "drives", "Vauxhall Corsa", until=JUNE_3), closed_at=JUNE_3)
    r = RecallResult(q, analyse(q), ["user"], [], "now", ended=[sold])
    assert none_now(r) == "Not now, as far as I know: Vauxhall Corsa until 3 June 2023."
    r.episodes = [Episode("e1", "c2", 0, "user", "Sold the Corsa, I cycle everywhere now.", JUNE_3)]
    r.episodes_relevant = True
    assert none_now(r) == ('Not Vauxhall Corsa now, as far as I know: on 3 June 2023 you said "Sold the Corsa, I cycle '
                           'everywhere now."')
    r.episodes.append(Episode("e2", "c3", 0, "user", "Picked up a little Kia yesterday.", JUNE_3 + timedelta(days=9)))
    assert none_now(r) is None  # the model reads what was said since
    for q in ("Why did I sell my car?", "What car was I driving?", "How did I get rid of the car?"):
        assert none_now(RecallResult(q, analyse(q), ["user"], [], "now", ended=[sold])) is None  # no "now" asked
    q = "Where does Greg work?"
    left = dataclasses.replace(_fact("greg", "works_at", "Arriva", until=JUNE_3), subject_id="greg", closed_at=JUNE_3)
    retired = dataclasses.replace(_fact("greg", "works_as", "retired"), subject_id="greg")
    assert none_now(RecallResult(q, analyse(q), ["greg"], [retired], "now", ended=[left])) is None
    assert none_now(RecallResult(q, analyse(q), ["greg"], [], "now", ended=[left])) is not None


def test_asked_whether_something_still_holds_when_it_ended() -> None:
    r = RecallResult("Am I still vegan?", analyse("Am I still vegan?"), ["e-vegan"], [], "history")
    r.facts = [_fact("user", "diet", "vegan", until=JUNE_3)]
    assert no_longer(r) == "No, not since 3 June 2023."
    assert when_answer(r) == "No, not since 3 June 2023."
    r.facts = [_fact("user", "diet", "vegan")]  # still holds: the model says so
    assert no_longer(r) is None
    r.facts = [_fact("anna", "diet", "vegan", until=JUNE_3)]  # someone else's ended
    assert no_longer(r) is None
    q = "Do I still live in Leeds?"
    r = RecallResult(q, analyse(q), ["user"], [_fact("user", "lives_in", "Leeds", until=MAY_20),
                                              _fact("user", "lives_in", "Toronto")], "history")
    assert no_longer(r) == "No, not since 20 May 2023."
    # what ended named by two of its words ("the Crown and Anchor" for "Crown and Anchor pub"); one word shared
    # names another place
    q = "Do I still manage the Crown and Anchor?"
    r = RecallResult(q, analyse(q), ["user"], [_fact("user", "works_at", "Crown and Anchor pub", until=MAY_20)],
                     "history")
    assert no_longer(r) == "No, not since 20 May 2023."
    q = "Do I still manage the Crown Hotel?"  # one word shared: another place
    r = RecallResult(q, analyse(q), ["user"], [_fact("user", "works_at", "Crown and Anchor pub", until=MAY_20)],
                     "history")
    assert no_longer(r) is None
    # still held, but words said later on it say something changed: those words, not "yes"
    q = "Do I still work at the bakery?"
    r = RecallResult(q, analyse(q), ["user"], [_fact("user", "works_at", "bakery")], "history")
    left = Episode("e1", "c2", 0, "user", "New job's going well, so glad I left the bakery.", JUNE_3)
    r.episodes, r.episodes_relevant = [left], True
    assert no_longer(r) == f'Maybe not: on 3 June 2023 you said "{left.text}"'
    r.episodes = [dataclasses.replace(left, text="The bakery does great sourdough.")]  # no change said
    assert no_longer(r) is None
    r.episodes = [dataclasses.replace(left, at=datetime(2023, 5, 1, tzinfo=UTC))]  # before the fact: no news
    assert no_longer(r) is None
    # a symmetric fact held from the other side is the user's ("Elena partner_of User")
    q = "Am I still with Elena?"
    r = RecallResult(q, analyse(q), ["user"], [dataclasses.replace(
        _fact("elena", "partner_of", "User", until=JUNE_3), object_id="user", subject="Elena")], "history")
    assert no_longer(r) == "No, not since 3 June 2023."
    r.facts = [dataclasses.replace(r.facts[0], relation="reports_to")]  # not symmetric: Elena's, not the user's
    assert no_longer(r) is None
    r = RecallResult("Where do I still go?", analyse("Where do I still go?"), ["user"],
                     [_fact("user", "visits", "go", until=MAY_20)], "history")
    assert no_longer(r) is None  # not a yes/no question


@pytest.mark.parametrize(("question", "said", "otherwise"), [
    # the newest words on the topic say it did not happen, ended or does not hold: those words, not "yes"
    ("Have I been to Japan?", [("user", "I've never been to Japan but it's top of my list.", MAY_20)], True),
    ("Am I going to Crete?", [("user", "We're going to Crete in August.", MAY_20),
                              ("user", "We had to cancel Crete, the car broke down.", JUNE_3)], True),
    ("Do we have a cat?", [("user", "Isla is allergic to cats so we can't get one.", MAY_20)], True),
    # a diet said leaves out the foods it does not eat; one said with the food is read by its own words
    ("Do I eat meat?", [("user", "I went vegetarian at New Year, so far so good.", MAY_20)], True),
    ("Do I eat fish?", [("user", "I'm vegetarian but I still eat fish.", MAY_20)], False),
    ("Do I eat meat?", [("user", "I planted tomatoes and peas this spring.", MAY_20)], False),
    # a car said by its model
    ("Do I have a car?", [("user", "We sold the Yaris when we moved to the city.", MAY_20)], True),
    ("Do I have a car?", [("user", "The Yaris failed its MOT, it won't be cheap.", MAY_20)], False),
    # a diet by another of its names
    ("Am I vegetarian?", [("user", "I went vegetarian in January.", MAY_20),
                          ("user", "We both quit the veggie diet in March, too much hassle.", JUNE_3)], True),
    # a denial in the same sentence about something else denies nothing
    ("Do I have a dog?", [("user", "My dog Rex hates the rain, he won't go out.", MAY_20)], False),
    ("Do I have a cat?", [("user", "Our cat Miso won't touch the new food.", MAY_20)], False),  # denial after it
    # a "not" in the main clause is not of what a clause opened by "since" or "until" says
    ("Did I hurt my knee?", [("user", "I haven't played tennis since I hurt my knee.", MAY_20)], False),
    ("Do I play tennis?", [("user", "I haven't played tennis since I hurt my knee.", MAY_20)], True),
    ("Do I drink tea?", [("user", "I can't get going in the morning without a mug of tea.", MAY_20)], False),
    ("Do I drink tea?", [("user", "I never leave the house without a flask of tea.", MAY_20)], False),
    ("Do I drink tea?", [("user", "I don't drink tea, I can't stand it.", MAY_20)], True),
    ("Is the concert on?", [("user", "The concert got cancelled, the singer is ill.", MAY_20)], True),  # an end
    # a thing tried said not to have worked out, after it: ended
    ("Is Jodie still in New Zealand?", [("user", "Jodie's emigrating to New Zealand in March.", MAY_20),
                                        ("user", "Jodie's back!! New Zealand didn't work out.", JUNE_3)], True),
    ("Is Jodie still in New Zealand?", [("user", "Jodie loves New Zealand, the job worked out.", JUNE_3)], False),
    # the newest says it holds again: the yes stands
    ("Am I going to Crete?", [("user", "We had to cancel Crete, the car broke down.", MAY_20),
                              ("user", "Crete is back on, we booked new flights!", JUNE_3)], False),
    # the words asked are no end of themselves: "retired" said of someone asked about
    ("Is Des retired?", [("user", "My uncle Des is a retired fireman.", MAY_20)], False),
    ("Is Des still working?", [("user", "My uncle Des retired from the fire service in May.", MAY_20)], True),
    # an animal said by its young: a pet lost, then a young one of its kind got
    ("Do we have a cat?", [("user", "Our old cat Smudge died last month, the house feels empty.", MAY_20),
                           ("user", "We've adopted a rescue kitten called Pickle!", JUNE_3)], False),
    ("Do I have a dog?", [("user", "We never got the puppy in the end, the flat's too small.", MAY_20)], True),
    ("Did I pass my driving test?", [("user", "Passed my driving test on the second go! Couldn't believe it.",
                                      MAY_20)], False),  # a denial in another sentence is not about it
    ("Have I been to Japan?", [("Omar", "I've never been to Japan.", MAY_20)], False),  # someone else's words
    # a subject dropped ends studying it
    ("Is Anjali still doing maths A level?", [("user", "Anjali's taken chemistry, biology and maths for A levels.",
                                               MAY_20),
                                              ("user", "Anjali has dropped maths, she was drowning, poor thing.",
                                               JUNE_3)], True),
    # the outcome asked, said the other way round
    ("Did Megan pass her driving test?", [("user", "Megan's driving test is on the 9th of July.", MAY_20),
                                          ("user", "Megan failed, bless her. She's rebooked for September.",
                                           JUNE_3)], True),
    ("Did we win the quiz?", [("user", "We lost the quiz by two points, gutted.", MAY_20)], True),
    ("Did Megan pass her driving test?", [("user", "Megan passed! First time too.", JUNE_3)], False),
    ("Did Megan pass her theory?", [("user", "Megan failed her practical but she's rebooked.", JUNE_3)], False),
    ("What do I drink?", [("user", "I don't drink coffee.", MAY_20)], False),  # not a yes/no question
    ("Do I still sing in the choir?", [("user", "I've jacked in the choir, Thursday nights were killing me.",
                                        JUNE_3)], True),
    ("Do I own a car?", [("user", "Scrapped the Astra, got ninety quid for it, we'll get the bus.", JUNE_3)], True),
    # asked about a taste: distaste said of the topic denies it; said of something else beside it, it does not
    ("Do I like mushrooms?", [("user", "Mushrooms are vile, slimy little things.", MAY_20)], True),
    ("Am I a fan of opera?", [("user", "Went to the opera with Dad, honestly it was dreadful.", MAY_20)], True),
    ("Did I get into Oxford?", [("user", "The Oxford interview was awful.", MAY_20)], False),  # no taste asked
    ("Do I like mushrooms?", [("user", "The weather was awful but the mushroom risotto was perfect.", MAY_20)],
     False),
    ("Do I have mushrooms?", [("user", "Mushrooms are vile, slimy little things.", MAY_20)], False),  # no taste
    # a pastime said by a part of its name: the gear sold ends it (everyday82: "Sold the kite and the board" for
    # "Do I still go kitesurfing?")
    ("Do I still go paddleboarding?", [("user", "Paddleboarding on the lake at dawn is my happy place.", MAY_20),
                                       ("user", "Sold the paddle and the inflatable, the shoulder won't take it.",
                                        JUNE_3)], True),
    ("Do I still go paddleboarding?", [("user", "Paddleboarding on the lake at dawn is my happy place.", MAY_20),
                                       ("user", "Bought a new paddle, carbon, weighs nothing.", JUNE_3)], False),
    # an animal put down (everyday83: "Have I still got Dolly?" was "Yes." with the words of her death)
    ("Have I still got Biscuit?", [("user", "We had to have Biscuit put down on Friday, she was seventeen.",
                                    JUNE_3)], True),
])
def test_a_yes_that_the_newest_words_deny_is_not_said(question: str, said: list[tuple[str, str, datetime]],
                                                      otherwise: bool) -> None:
    from assistant.when import said_otherwise
    r = _heard(question, said)
    instead = said_otherwise("Yes.", r)
    assert (instead or "").startswith("Maybe not: on ") is otherwise
    if otherwise:
        assert instead is not None and said[-1][1][:20] in instead
    assert said_otherwise("No, you haven't.", r) is None  # only a yes is checked


def test_a_yes_about_the_users_life_that_no_fact_backs_is_what_they_said() -> None:
    """"Do I have a cat?" after "We're looking after my neighbour's cat": no fact says the user has one, so the
    words are said, not a yes. A fact held now, about the user or what is theirs, backs it; about someone else,
    the question is not the user's to judge."""
    from assistant.when import said_otherwise
    said = [("user", "We're looking after my neighbour's cat Pip while she's away.", MAY_20)]
    r = _heard("Do I have a cat?", said)
    assert said_otherwise("Yes.", r) == f'On 20 May 2023 you said "{said[0][1]}"'
    pip = dataclasses.replace(_fact("user", "has_pet", "Pip"), object_id="pip")
    r.facts = [pip, dataclasses.replace(_fact("pip", "is_a", "cat"), subject="Pip")]
    assert said_otherwise("Yes.", r) is None  # the user's pet is a cat
    r.facts = [dataclasses.replace(pip, valid_to=JUNE_3), r.facts[1]]  # no longer theirs
    assert said_otherwise("Yes.", r) is not None
    r.facts = [_fact("user", "likes", "cat videos")]  # a fact on the topic, about the user
    assert said_otherwise("Yes.", r) is None
    john = _heard("Does John have a cat?", [("John", "We're looking after my neighbour's cat.", MAY_20)])
    assert said_otherwise("Yes.", john) is None


@pytest.mark.parametrize(("question", "said", "opens"), [
    ("Am I lactose intolerant?", "I've been lactose intolerant since I was a kid.", "Yes. On"),
    ("Do I drink tea?", "I started drinking tea again after the holiday.", "Yes. On"),
    ("Do I have a rabbit?", "I've got a lop-eared rabbit called Dot.", "Yes. On"),
    ("Do I have a rabbit?", "We're minding my brother's rabbit Dot this week.", "On"),  # someone else's
    ("Do I have a rabbit?", "We're minding a rabbit for the school this week.", "On"),  # no having said
    ("Have I climbed Snowdon?", "I've booked a guide for Snowdon in May.", "On"),  # not the asked verb
    ("Do I still row?", "I used to row at uni but these days I mostly cycle.", "On"),  # so then, not now
    ("Do I row?", "When I was at uni I rowed for my college, up at six every morning.", "On"),  # a time gone
    ("Do I play the trumpet?", "Back in school I played the trumpet in the band.", "On"),
    ("Did I row at uni?", "When I was at uni I rowed for my college.", "Yes. On"),  # asked of then
    ("Do I play chess?", "I played chess as a kid and I still play every week.", "Yes. On"),  # and still
    # said only of someone else: no yes of the user's at all
    ("Do I drink tea?", "My mum drinks tea all day long.", "Not that you've told me. On"),
    ("Am I pregnant?", "My sister Jo is pregnant with twins!", "Not that you've told me. On"),
])
def test_a_yes_the_users_own_words_say_back_stands(question: str, said: str, opens: str) -> None:
    """No fact backs it, but the user's newest words on it say the question back as so, in a clause of their own:
    the yes is said, with those words ("Am I gluten-free?" "Yes. On … you said "I've been gluten-free for two years
    now""). Otherwise the words alone are said, for the user to judge; when they say it only of someone else, they
    are said as no yes ("Am I engaged?" after "My mate Hannah got engaged": "Not that you've told me. On …")."""
    from assistant.when import said_otherwise
    r = _heard(question, [("user", said, MAY_20)])
    instead = said_otherwise("Yes.", r)
    assert instead is not None and said[:20] in instead
    assert instead.startswith(f"{opens} 20 May 2023 you said")


@pytest.mark.parametrize(("question", "answer", "yes"), [
    ("Am I enjoying the course?", "You are enjoying the course.", True),
    ("Do I live in Ghent?", "You live in Ghent.", True),
    ("Do I live in Ghent?", "Yes, in Ghent.", True),
    ("Do I live in Ghent?", "You don't live in Ghent.", False),
    ("Do I live in Ghent?", "You live in Bruges.", False),  # words of its own: another answer
    ("Is Mira still at the bakery?", "No, Mira is not at the bakery.", False),
    ("Where do I live?", "You live in Ghent.", False),  # not a yes/no question
])
def test_the_question_said_back_as_so_is_a_yes(question: str, answer: str, yes: bool) -> None:
    from assistant.answer import affirms
    assert affirms(answer, question) is yes


def test_a_yes_said_as_the_question_back_is_checked_like_a_yes() -> None:
    """"Am I going to the festival?" "You are going to the festival." after "We had to cancel the festival": the
    words, not the yes."""
    from assistant.answer import vetted
    question = "Am I going to the festival?"
    r = _heard(question, [("user", "We had to cancel the festival, the car broke down.", MAY_20)])
    instead = vetted("You are going to the festival.", question, r)
    assert instead is not None and instead.startswith("Maybe not: on ") and "cancel the festival" in instead
    assert vetted("You are not going to the festival.", question, r) is None


@pytest.mark.parametrize(("said", "answer", "theirs"), [
    ("Kit's moved out to live with his girlfriend, so it's just me now.", "Girlfriend.", True),
    ("Kit's moved out to live with his girlfriend, so it's just me now.", "Your girlfriend.", True),
    ("I moved in with my girlfriend and her sister.", "Your girlfriend.", False),  # said of the user's own
    ("Kit's moved out to live with his girlfriend.", "Kit.", False),  # a name, not a role: other checks' to judge
])
def test_a_role_said_of_someone_else_is_not_the_users(said: str, answer: str, theirs: bool) -> None:
    from assistant.answer import anothers_role
    r = _heard("Who do I live with?", [("user", said, MAY_20)])
    assert anothers_role(answer, "Who do I live with?", r) is theirs


def test_a_blank_or_odd_question_is_never_denied() -> None:
    from assistant.when import said_otherwise, yes_no
    assert yes_no("") is None and yes_no("   ") is None and yes_no("Do I?") is not None
    for q in ["", "   ", "?!", "Do", "Do I " + "x" * 5000 + "?"]:
        r = _heard(q, [("user", "I've never been to Japan; \x00 {}[] MATCH (n) DETACH DELETE n", MAY_20)])
        assert said_otherwise("Yes.", r) is None


@pytest.mark.parametrize("question", ["Would John enjoy Japan?", "Is it likely that John has been to Japan?"])
def test_a_question_that_asks_to_reason_keeps_its_yes(question: str) -> None:
    from assistant.answer import vetted
    r = _heard(question, [("John", "I've never been to Japan but I can't wait.", MAY_20)])
    r.personal = True
    assert vetted("Yes, he would.", question, r) is None
    plain = _heard("Has John been to Japan?", [("John", "I've never been to Japan but I can't wait.", MAY_20)])
    plain.personal = True
    assert (vetted("Yes.", plain.question, plain) or "").startswith("Maybe not")


def test_still_asked_of_a_relative_reads_their_facts() -> None:
    q = "Does my mum still work?"
    r = RecallResult(q, analyse(q), ["mum"], [dataclasses.replace(_fact("mum", "works_as", "midwife"),
                                                                  valid_from=MAY_20)], "history")
    r.episodes = [Episode("e1", "c2", 0, "user", "Mum finally retired on Friday after thirty years.", JUNE_3)]
    r.episodes_relevant = True
    assert no_longer(r) == f'Maybe not: on 3 June 2023 you said "{r.episodes[0].text}"'


@pytest.mark.parametrize(("question", "answer", "asked", "told"), [
    # drawn from what Omar asks Lina or tells her of her own things: nothing of his
    ("What is on the menu at Omar's bakery?", "A varied menu.", "Omar", True),
    ("What did Omar get congratulated on?", "The new job.", "Omar", True),
    # his own words, a doubt with an "I" included
    ("What might Omar learn?", "To bake sourdough at a weekend class.", "Omar", False),
    ("Where does Lina work?", "Crumb and Co, on early shifts.", "Lina", False),
    # asked what he asked or said, his questions are the answer
    ("What did Omar ask Lina about the menu?", "Whether she bakes the sourdough.", "Omar", False),
    ("What did Omar say about the menu?", "Such a varied menu.", "Omar", False),
    ("What is on the menu?", "A varied menu.", "", False),  # no one asked about
])
def test_an_answer_from_what_someone_asks_the_listener_is_not_theirs(question: str, answer: str, asked: str,
                                                                     told: bool) -> None:
    from assistant.answer import told_the_listener
    assert told_the_listener(answer, question, _asked_of_the_listener(question, asked)) is told


@pytest.mark.parametrize(("said", "borrowed"), [
    # Omar's own news, only greeting Lina by name: nothing of hers
    ("Hey Lina! I'm hunting for a flat with a big kitchen in Leith.", True),
    # words about her, by name: hers
    ("Lina's new flat in Leith has a big kitchen, lucky her.", False),
])
def test_a_name_said_only_to_greet_someone_does_not_make_the_words_theirs(said: str, borrowed: bool) -> None:
    from assistant.answer import borrowed as is_borrowed
    q = "What kind of flat is Lina looking for?"
    r = _talk(q, "Lina", [("Omar", said), ("Lina", "Good luck, Omar! Work has been so busy for me lately.")])
    assert is_borrowed("One with a big kitchen in Leith.", q, r) is borrowed


def test_news_told_without_its_i_is_the_speakers_own() -> None:
    """Lina's "Just started doing pottery" asks Omar something after it, and never says "I": the news is still
    hers (a right "Aerial yoga" was turned down as the listener's)."""
    from assistant.answer import borrowed as is_borrowed
    from assistant.answer import told_the_listener
    q = "What class did Lina start?"
    r = _talk(q, "Lina", [("Lina", "Been so busy lately. Just started a pottery class, it's great. Have you tried "
                                   "any classes?"),
                          ("Omar", "Not yet! Pottery sounds fun though.")])
    assert not is_borrowed("A pottery class.", q, r) and not told_the_listener("A pottery class.", q, r)
    asked = _talk(q, "Lina", [("Lina", "Have you started a pottery class? It's great."),
                              ("Omar", "Not yet! Work has been so busy.")])
    assert told_the_listener("A pottery class.", q, asked)


@pytest.mark.parametrize(("said", "told"), [
    ("Wow! I hope I can hear you play the cello some day. How long have you had lessons?", True),
    ("I'll send you a video of me playing the cello. It's been a fun year.", False),
    ("I took your advice and started the cello last month! Do you still have lessons?", False),
])
def test_what_someone_hopes_to_see_the_listener_do_is_the_listeners(said: str, told: bool) -> None:
    """Omar's "I hope I can hear you play the cello" says "I", but the cello is Lina's (LoCoMo's adversarial "What
    instrument is John learning?" was answered "The violin." from John's hope to hear Tim play it)."""
    from assistant.answer import told_the_listener
    q = "What instrument is Omar learning?"
    r = _talk(q, "Omar", [("Omar", said), ("Lina", "Work has been so busy for me lately.")])
    assert told_the_listener("The cello.", q, r) is told


def test_what_they_told_of_themselves_elsewhere_keeps_an_answer_from_words_said_to_the_listener() -> None:
    """Lina's best-matching turn asks Omar something and never says "I", but her own news a turn before says the
    same: the answer is hers (Audrey's beach trip with her dogs had been turned down)."""
    from assistant.answer import told_the_listener
    q = "What did Lina do with her dogs at the weekend?"
    news = ("Lina", "Had a lovely weekend! I took my dogs to the lake and they went swimming all afternoon.")
    asked = ("Lina", "The dogs loved swimming in the lake! Have you been to the lake lately?")
    answer = "Her dogs loved swimming in the lake."
    assert not told_the_listener(answer, q, _talk(q, "Lina", [news, ("Omar", "Sounds fun!"), asked]))
    assert told_the_listener(answer, q, _talk(q, "Lina", [("Omar", "Sounds fun!"), asked]))


@pytest.mark.parametrize(("question", "answer", "other"), [
    ("What is Lina's second novel about?", "Omar said it was about lighthouses.", True),
    ("Which cake did Lina bake?", "Omar's lemon drizzle.", True),
    ("Which cake did Lina bake?", "A lemon drizzle, Omar's favourite.", False),  # opens on the answer
    ("Who helped Lina move?", "Omar helped her.", False),  # asked who: a name is the answer
    ("What did Lina borrow from Omar?", "Omar's camping stove.", False),  # the question names him
    ("Where does Lina walk Bo?", "Bo loves the lake path.", False),  # Bo never speaks here
    ("What did Lina bake?", "Lina baked a lemon drizzle.", False),
])
def test_an_answer_that_says_it_was_someone_elses(question: str, answer: str, other: bool) -> None:
    from assistant.answer import someone_else
    r = _talk(question, "Lina", [("Omar", "I wrote a novel about lighthouses, and I bake a mean lemon drizzle."),
                                 ("Lina", "Bo and I moved flats last week, so tired.")])
    assert someone_else(answer, question, r) is other


def test_a_name_inside_another_word_is_not_the_name() -> None:
    from assistant.answer import borrowed as is_borrowed
    q = "Where did Tim go climbing?"
    r = _talk(q, "Tim", [("John", "Sometimes I go climbing at the Red Rock gym."),
                         ("Tim", "Work has been so busy for me lately.")])
    assert is_borrowed("At the Red Rock gym.", q, r)  # John's climbing: "sometimes" does not name Tim


@pytest.mark.parametrize(("question", "said", "borrowed"), [
    # a guest's "I" is the guest: asked about the user, their words are someone else's
    ("Where do I work?", [("Ines", "I'm Ines, his cousin, I work at the docks in Rotterdam.")], True),
    ("Where do I work?", [("user", "Still at the docks in Rotterdam, same as ever."),
                          ("Ines", "I work at the docks in Rotterdam too.")], False),
    # words to the user are about the user
    ("Where do I work?", [("Ines", "You still work at the docks, don't you?")], False),
    # asked by role, the relative may be the guest
    ("Where does my cousin work?", [("Ines", "I'm Ines, his cousin, I work at the docks in Rotterdam.")], False),
])
def test_asked_about_the_user_a_guests_own_words_are_not_theirs(question: str, said: list[tuple[str, str]],
                                                                borrowed: bool) -> None:
    from assistant.answer import borrowed as is_borrowed
    r = _talk(question, "", said)
    assert is_borrowed("At the docks in Rotterdam.", question, r) is borrowed


def test_what_memory_learned_of_the_user_is_theirs_beside_a_guests_words() -> None:
    from assistant.answer import borrowed as is_borrowed
    q = "Where do I work?"
    r = _talk(q, "", [("Ines", "I work at the docks in Rotterdam.")])
    r.facts = [dataclasses.replace(_fact("ines", "works_at", "docks"), subject="Ines")]
    assert is_borrowed("At the docks.", q, r)  # what memory learned of the guest is no more the user's
    r.facts = [_fact("user", "works_at", "docks")]
    assert not is_borrowed("At the docks.", q, r)


@pytest.mark.parametrize(("answer", "said"), [
    ("The sister of the user.", "Your sister."),
    ("Leah is the older sister of the user.", "Leah is your older sister."),
    ("Leah, the sister-in-law of user", "Leah, your sister-in-law"),
    ("The theory of everything.", "The theory of everything."),
    ("The user's oldest friend.", "Your oldest friend."),
    ("She is the user's boss.", "She is your boss."),
    ("Best friend of the user.", "Your best friend."),
    ("Leah is a close friend of the user.", "Leah is a close friend of yours."),
    ("Nephew of User.", "Your nephew."),  # the user named as the facts name them
    ("Kieran is the nephew of User.", "Kieran is your nephew."),
    ("Leah, an old colleague of user", "Leah, an old colleague of yours"),
    ("Theory of everything.", "Theory of everything."),
])
def test_the_user_as_the_facts_name_them_is_said_to_them(answer: str, said: str) -> None:
    from assistant.answer import to_you
    assert to_you(answer, "Who is Leah?") == said


@pytest.mark.parametrize(("question", "answer", "said"), [
    ("Who is moving in with us?", "Your mother-in-law is moving in with us in January.",
     "Your mother-in-law is moving in with you in January."),
    ("Where are we flying to?", "The US, with our cousins.", "The US, with your cousins."),
    ("Who lives with Anna?", "Anna lives with us.", "Anna lives with us."),  # not asked with "we": as said
])
def test_asked_with_we_their_we_is_said_as_you(question: str, answer: str, said: str) -> None:
    from assistant.answer import to_you
    assert to_you(answer, question) == said


@pytest.mark.parametrize(("question", "newest_first"), [
    ("Where does my dad live?", True), ("What bike do I ride?", True), ("Who's my dentist?", True),
    ("What kind of tea do I drink?", True), ("Do I cycle to work?", True),
    ("Where did I live before?", False), ("When do we fly?", False), ("How many cats did I have?", False),
    # how many there are now: the newest words, where the number told changed
    ("How many cats do I have?", True), ("How many hens have we got now?", True),
    ("How much do I pay for the gym?", True), ("How many did Maria buy?", False),
    ("Where does Maria live?", False),  # not the user's life: the order of the talk, as it was
    # of anyone, asked of today in so many words (everyday78: "Where's Jordan based now?" answered with the old place)
    ("Where's Kieran working now?", True), ("What does Maria do now?", True),
    ("What did Maria do now?", False),
    # a record is beaten by a newer one, and what is next was said after what came before (everyday84/85: the old
    # tally and the old best score were said)
    ("What's my highest ever Scrabble score?", True), ("What's the most sheep Hemi has ever shorn?", True),
    ("What's Dad's personal best for the marathon?", True), ("What's my next stained glass piece going to be?", True),
    ("What was my best day out this summer?", False), ("What was the most fun?", False),
])
def test_what_holds_now_in_the_users_life_reads_the_newest_words_first(question: str, newest_first: bool) -> None:
    from assistant.answer import asks_now
    assert asks_now(question) is newest_first
    r = _heard(question, [("user", "Old news on it.", MAY_20), ("user", "New news on it.", JUNE_3)])
    lines = said_lines(r)
    assert ("New news" in lines[0]) is newest_first


def test_a_yes_from_words_that_do_not_say_the_topic_is_said_as_those_words() -> None:
    """"Do we own a dog?" answered "Yes" from "We're fostering a lurcher…": no word of it says a dog, and no fact
    holds one, so the words are said for the user to judge; found by words alone (not by meaning), the yes is not
    the model's reading of them, and stands."""
    from assistant.when import said_otherwise
    fostering = "We're fostering a lurcher called Moss until the charity rehomes him."
    r = _heard("Do we own a dog?", [("user", fostering, MAY_20)])
    r.episodes = [dataclasses.replace(r.episodes[0], matched="v")]
    assert said_otherwise("Yes.", r) == f'On 20 May 2023 you said "{fostering}"'
    r.facts = [dataclasses.replace(_fact("user", "has_pet", "Moss"), object_id="moss"),
               dataclasses.replace(_fact("moss", "is_a", "dog"), subject="Moss")]
    assert said_otherwise("Yes.", r) is None  # memory holds a dog of theirs
    john = _heard("Does John own a dog?", [("John", fostering, MAY_20)])
    john.episodes = [dataclasses.replace(john.episodes[0], matched="v")]
    assert said_otherwise("Yes.", john) is None  # not the user's own life
    # a guest's words on it, by word or by meaning: said as theirs
    tomcat = "Hi, I'm Sofia from upstairs, I've got a fat old cat called Biscuit."
    guest = _heard("Do I have a cat?", [("Sofia", tomcat, MAY_20)])
    assert said_otherwise("Yes.", guest) == f'On 20 May 2023 Sofia said "{tomcat}"'


@pytest.mark.parametrize(("question", "answer", "refused"), [
    ("Who do I live with?", "Priya.", True),  # the user's own name
    ("Who do I live with?", "Tom.", False),
    ("Who is my partner?", "Priya", True),
    ("Who am I?", "Priya.", False),  # asked who they are, their name is the answer
    ("What's my name?", "Priya.", False),
])
def test_the_name_the_user_gave_themselves_is_no_one_else_in_their_life(question: str, answer: str,
                                                                        refused: bool) -> None:
    from assistant.answer import self_named
    r = _talk(question, "", [("user", "Hello, I'm Priya. Tom and I have just got a cottage in Settle.")])
    assert self_named(answer, question, r) is refused


@pytest.mark.parametrize("odd", ["", "   ", "?!", "\x00 {}[] MATCH (n) DETACH DELETE n", "Who " + "x" * 5000 + " my?"])
def test_this_stops_checks_take_odd_text_without_harm(odd: str) -> None:
    """Blank, odd or hostile text through the checks added for guests, self-names and the user's words: no error,
    and nothing turned down or rewritten that says nothing of the user."""
    from assistant.answer import borrowed as is_borrowed
    from assistant.answer import self_named, to_you, unrestated
    from memory.episodes import only_asks
    r = _talk(odd, "", [("user", odd), ("Ines", odd)])
    assert not self_named(odd, odd, r)
    assert not is_borrowed(odd, odd, r)
    assert to_you(odd, odd) == odd
    assert isinstance(unrestated(odd, odd), str)
    assert only_asks(odd) is odd.startswith("Who")  # only a question in form is one
    from assistant.answer import someone_else
    from memory.episodes import opens_without_i
    assert not someone_else(odd, odd, _talk(odd, "Ines", [("Omar", odd), ("Ines", odd)]))
    assert not opens_without_i(odd)


@pytest.mark.parametrize(("other", "quoted"), [
    ("I finally signed a deal with a climbing gear brand!", True),  # on the topic asked: whose words they are
    ("Take care! Can't wait to catch up. Talk soon!", False),  # found by meaning alone: no sense quoted
])
def test_someone_elses_words_are_quoted_only_when_they_speak_of_the_topic(other: str, quoted: bool) -> None:
    from assistant.answer import said_elsewhere
    q = "What kind of deal did Lina get in December?"
    r = _talk(q, "Lina", [("Lina", "Work has been slow this winter.")])
    r.elsewhere = Episode("e9", "c", 9, "Omar", other, AT)
    said = said_elsewhere(r)
    assert said.startswith("Lina didn't mention that, as far as I know.")
    assert ('Omar said: "' in said) is quoted and (other in said) is quoted


def test_a_statement_is_replied_to_without_the_words_said_before() -> None:
    """Told something, the model replies to it: it is not handed earlier words to read back (the sentence just
    said is among them, as an episode of the conversation)."""
    eps = [Episode("c#1", "c", 1, "user", "I took up pottery at the community centre.", AT, 0.9, "")]
    told = user_prompt("I took up pottery at the community centre.", _result(eps), AT)
    asked = user_prompt("What did I take up?", _result(eps, question="What did I take up?"), AT)
    assert "community centre" in asked and told.count("community centre") == 1
    assert told.splitlines()[-2].startswith("The user tells you: I took up pottery")


@pytest.mark.parametrize(("question", "leans"), [
    ("Where does she work now?", True), ("Who else lives there?", True), ("What did you just say?", True),
    ("Why?", True), ("And Bram?", True), ("What's his wife called?", True), ("She’s a nurse, isn’t she?", True),
    ("Where does Bram work now?", False), ("What instrument did I play at school?", False),
    ("My brother Karl moved to Tallinn.", False),
])
def test_the_conversation_so_far_goes_only_with_words_that_lean_on_it(question: str, leans: bool) -> None:
    history = [{"role": "user", "content": "Where does Bram live?"}, {"role": "assistant", "content": "In Ghent."}]
    sent = messages(question, _result([], question=question), AT, history)
    assert (sent[1:3] == history) is leans and len(sent) == (4 if leans else 2)
    assert sent[0]["role"] == "system" and question in sent[-1]["content"]


@pytest.mark.parametrize(("question", "answer", "lent"), [
    ("Is Priya vegan?", "Yes.", True),  # only the user said they were
    ("Is Priya vegan?", "Yes, Priya is vegan.", True),
    ("Does Priya live in Leeds?", "Yes.", False),  # a fact about her says it
    ("Is Priya getting married?", "Yes, in June.", False),  # words naming her say it
    ("Is Priya vegan?", "No.", False),  # not a yes: said_otherwise and the model's own reading
    ("Am I vegan?", "Yes.", False),  # about the user: no one else's state to borrow
])
def test_a_yes_about_someone_needs_words_of_them(question: str, answer: str, lent: bool) -> None:
    """"Is Lena vegetarian?" was answered "Yes." when only the user had said "I'm vegetarian these days": a yes
    about someone by name must be said of them, in a fact about them or in words by or naming them."""
    from assistant.answer import yes_of_another
    r = _talk(question, "", [("user", "I've been vegan since January."),
                             ("user", "My friend Priya is getting married in June.")])
    r.facts = [dataclasses.replace(_fact("priya", "lives_in", "Leeds"), subject="Priya"),
               dataclasses.replace(_fact("user", "diet", "vegan"), subject="User")]
    assert yes_of_another(answer, question, r) is lent


def test_a_number_about_the_user_is_not_grounded_by_the_day_of_a_facts_date() -> None:
    """"How old am I?" "You are 27 years old." with only facts told on 27 November in memory: the day of their
    dates is no ground for an age."""
    from assistant.answer import ungrounded
    q = "How old am I?"
    r = RecallResult(q, analyse(q), ["user"], [dataclasses.replace(
        _fact("user", "diet", "vegetarian"), subject="User", valid_from=datetime(2026, 11, 27, tzinfo=UTC))],
        "now", personal=True)
    assert "27" in " ".join(r.statements())  # the date is what the model read
    assert ungrounded("You are 27 years old.", q, r)
    assert not ungrounded("You are vegetarian.", "What do I eat?", r)


def test_goes_is_no_word_of_an_answers_own() -> None:
    """"What day does the black bin go out now?" "The black bin goes out on Friday." was turned down: "goes" was read
    as a word of the answer's own, where "go" is no topic word (everyday84)."""
    from assistant.answer import ungrounded
    q = "What day does the black bin go out now?"
    r = _talk(q, "", [("user", "Thursday's the recycling one, the black bin's Friday.")])
    assert not ungrounded("The black bin goes out on Friday.", q, r)
    assert ungrounded("The black bin goes out at the depot.", q, r)


@pytest.mark.parametrize(("question", "said", "answer", "guess"), [
    # a number said as memory said it grounds the answer, whatever verb comes with it (everyday87's first run turned
    # down all of these as guesses: "I don't know that; nothing I remember says.")
    ("How long was my Samaritans training?", "Finished my Samaritans training. Eight weeks of role plays.",
     "Your Samaritans training lasted 8 weeks.", "Your Samaritans training lasted in Cork."),
    ("How much of the dock is Rick paying for?", "Dock's rebuilt. My brother-in-law Rick's paying a third.",
     "Rick is paying a third of the dock's cost.", "Rick is paying for the decking."),
    ("How much did we pay for the chapel?", "Offer accepted on the chapel! Two hundred and sixty thousand.",
     "We paid 260,000 pounds for the chapel.", "We paid with a mortgage for the chapel."),
    # a place said in words is its figure, a count its place
    ("What floor is our new flat on?", "Our flat in Kondapur, eleventh floor, you can see the lake.",
     "The new flat is on the 11th floor.", "The new flat is on the ground floor."),
    # (the place read wherever it stands in the words: "on the eleventh now")
    ("What floor is our new flat on?", "We're on the eleventh now, you can see the lake from the balcony.",
     "Your flat is on the 11th storey.", "Your flat is on the top storey."),
    ("Which wedding anniversary are Dave and I celebrating?", "Twenty-five years married in September!",
     "Dave and I are celebrating our 25th wedding anniversary.", "Dave and I are celebrating our ruby anniversary."),
    # asked who, one of the family by another of its words ("Mammy" for "your mother")
    ("Who did I do the Lough Derg pilgrimage for?", "Mammy did it every summer, so I'm doing Lough Derg for her.",
     "You did the Lough Derg pilgrimage for your mother.", "You did the Lough Derg pilgrimage for your aunt."),
])
def test_an_answer_grounded_by_a_number_or_a_word_for_the_same(question: str, said: str, answer: str,
                                                              guess: str) -> None:
    from assistant.answer import ungrounded
    r = _talk(question, "", [("user", said)])
    r.personal = True
    assert not ungrounded(answer, question, r)
    assert ungrounded(guess, question, r)


def test_one_who_does_what_was_said_is_grounded_by_it() -> None:
    """"What is Darragh training to be?" "Darragh is training to be a plumber." from "He's doing a plumbing course"
    was turned down as a guess (everyday71's first run); a doer of something else is still one."""
    from assistant.answer import ungrounded
    q = "What is Darragh training to be?"
    r = _talk(q, "", [("user", "Darragh's given up the lorries! He's doing a plumbing course at the college.")])
    r.personal = True
    assert not ungrounded("Darragh is training to be a plumber.", q, r)
    assert not ungrounded("A swimmer.", "What is Darragh?", _talk("What is Darragh?", "", [
        ("user", "Darragh goes swimming every day.")]))
    assert ungrounded("Darragh is training to be an electrician.", q, r)


def test_a_number_never_said_about_someone_is_a_guess() -> None:
    """"How old is my sister?" "Rhian is 11 years old." when all that was said is "gluten-free for two years" and
    where she lives: "years" is in memory, the number is not; a year said, or a question that counts, may give one."""
    from assistant.answer import ungrounded
    q = "How old is my sister?"
    r = _talk(q, "", [("user", "I've been gluten-free for two years now."),
                      ("user", "My sister Rhian lives in Swansea.")])
    assert ungrounded("Rhian is 11 years old.", q, r)
    assert not ungrounded("Rhian lives in Swansea.", q, r)
    r.episodes[1] = dataclasses.replace(r.episodes[1], text="My sister Rhian was born in 2015, in Swansea.")
    assert not ungrounded("Rhian is 11 years old.", q, r)  # worked out from the year
    r = _talk("How many years have I been gluten-free?", "", [("user", "I've been gluten-free since 2024.")])
    assert not ungrounded("Two years.", r.question, r)
    # a number said in words grounds its figure ("She reckons he's about sixty." for the tortoise's age)
    q = "How old is Sheldon?"
    r = _talk(q, "", [("user", "So Sheldon's living in our conservatory now."),
                      ("user", "She reckons he's about sixty.")])
    assert not ungrounded("Sheldon is 60 years old.", q, r)
    assert ungrounded("Sheldon is 70 years old.", q, r)
    r = _talk("How much did I sell it for?", "", [("user", "Sold Nana's piano for a hundred and twenty quid.")])
    assert not ungrounded("For 120 quid.", r.question, r)
    # the past of the verb asked is no word of the answer's own ("paid" for "pay"), and a sum said by a word of its
    # own grounds its figure
    r = _talk("How much did I pay for the bike?", "", [
        ("user", "Bought a bike for three hundred and fifty quid. No wait, it was three seventy-five.")])
    assert not ungrounded("You paid £375 for the bike.", r.question, r)
    assert ungrounded("You paid £375 for the helmet.", r.question, r)
    r = _talk("How much did I pay for the lamp?", "", [("user", "Best fiver I've spent, the lamp.")])
    assert not ungrounded("You paid £5 for the lamp.", r.question, r)
    assert ungrounded("You paid $100 for the lamp.", r.question, r)  # no number to work another out from
    r = _talk("How much did I pay for the record player?", "", [
        ("user", "Best fiver I've ever spent. Picked up a sixties record player at the car boot this morning.")])
    assert ungrounded("$100.", r.question, r) and not ungrounded("£5.", r.question, r)  # a decade is no number
    # an age said as its place: a number to work from
    q = "How old is Peggy?"
    r = _talk(q, "", [("user", "It's my nan Peggy's hundredth birthday on Saturday.")])
    assert not ungrounded("Peggy is 100 years old.", q, r)
    r = _talk(q, "", [("user", "My nan Peggy loves a birthday party.")])
    assert ungrounded("Peggy is 100 years old.", q, r)


def test_a_reflexive_pronoun_said_back_is_no_word_of_the_answers_own() -> None:
    """"Did I cut myself?" "Yes, you cut yourself." from "I cut my thumb on the mandoline": "yourself" is the
    question's "myself" said back, not a guess; a word none of memory says still is."""
    from assistant.answer import ungrounded
    q = "Did I cut myself?"
    r = _talk(q, "", [("user", "I cut my thumb on the mandoline last night.")])
    assert not ungrounded("Yes, you cut yourself.", q, r)
    assert ungrounded("Yes, you cut yourself shaving.", q, r)


def test_the_prompts_word_for_the_speaker_is_no_word_of_the_answers_own() -> None:
    """"What is my book club reading?" "The user's book club is reading Tomorrow, and Tomorrow, and Tomorrow this
    month." from the user's own words: the rest of it is the title, all of it words of time; "user" is how the prompt
    names the speaker, no guess. A title no words of memory hold still is one."""
    from assistant.answer import ungrounded
    q = "What is my book club reading?"
    r = _talk(q, "", [("user", "Our book club is reading Tomorrow, and Tomorrow, and Tomorrow this month.")])
    assert not ungrounded("The user's book club is reading Tomorrow, and Tomorrow, and Tomorrow this month.", q, r)
    assert ungrounded("The user's book club is reading Dune.", q, r)


def test_an_answer_whose_only_known_words_name_whom_it_asks_about_is_a_guess() -> None:
    """"Where does my grandma live?" "Your Iris grandparent lives in the same place as the user." when all that is
    known is "Iris grandparent of User" and that she turns ninety: the words found only name her; where she lives
    is the model's guess. Asked who, a name is the answer."""
    from assistant.answer import ungrounded
    q = "Where does my grandma live?"
    r = _talk(q, "", [("user", "My grandma Iris turns ninety next month.")])
    r.seeds = ["iris"]
    r.facts = [dataclasses.replace(_fact("iris", "grandparent_of", "User"), object_id=USER_ID)]
    assert ungrounded("Your Iris grandparent lives in the same place as the user.", q, r)
    assert not ungrounded("Iris turns ninety next month.", q, r)  # words of what was said
    assert not ungrounded("Iris.", "Who is my grandma?", r)
    assert not ungrounded("Your grandma Iris.", "What is my grandma called?", r)


@pytest.mark.parametrize(("answer", "turned_down"), [
    ("You are User.", True),
    ("Your name is the user.", True),
    ("You're called User.", True),
    ("Ruth.", False),
])
def test_the_user_is_never_named_user(answer: str, turned_down: bool) -> None:
    """"What is my name?" with no name told was answered "You are User.": how the facts name the one who asks."""
    from assistant.answer import vetted
    q = "What is my name?"
    r = _talk(q, "", [("user", "Hi! I'm Ruth, by the way.")])
    assert (vetted(answer, q, r) is not None) is turned_down


def test_a_home_only_planned_is_said_as_a_plan() -> None:
    """"Where does my mum live?" "Harrogate." when all that is known is that she is moving there next month: said as
    the plan it is; asked where she is moving, or with a home of hers known, the answer stands."""
    from assistant.answer import vetted
    q = "Where does my mum live?"
    r = _talk(q, "", [("user", "My mum's moving into a care home in Harrogate next month.")])
    r.seeds = ["my-mum"]
    plan = dataclasses.replace(_fact("my-mum", "plans_to_move_to", "Harrogate"), subject="my mum")
    r.facts = [plan]
    assert vetted("Harrogate.", q, r) == "I only know that your mum plans to move to Harrogate."
    moving = "Where is my mum moving to?"
    r2 = _talk(moving, "", [("user", "My mum's moving into a care home in Harrogate next month.")])
    r2.seeds, r2.facts = ["my-mum"], [plan]
    assert vetted("Harrogate.", moving, r2) is None
    r.facts = [plan, dataclasses.replace(_fact("my-mum", "lives_in", "Leeds"), subject="my mum")]
    assert vetted("Leeds.", q, r) is None


def test_a_yes_to_a_home_only_planned_is_said_as_the_plan_with_its_time() -> None:
    """"Do we live in Exeter?" "Yes, we live in Exeter." from "We're moving to Exeter on the 3rd of January": the yes
    was turned down ("I don't know that"), though memory holds the move and its day."""
    from assistant.answer import vetted
    q = "Do we live in Exeter?"
    r = _talk(q, "", [("user", "We're moving to Exeter on the 3rd of January.")])
    r.seeds = ["exeter"]
    r.facts = [dataclasses.replace(_fact(USER_ID, "plans_to_move_to", "Exeter"), planned_for="2027-01-03")]
    assert vetted("Yes, we live in Exeter.", q, r) == \
        "Not yet, as far as I know: you plan to move to Exeter (3 January 2027)."
    r.facts.append(_fact(USER_ID, "lives_in", "Exeter"))  # once the home is held, the yes stands
    assert vetted("Yes, we live in Exeter.", q, r) is None


@pytest.mark.parametrize(("question", "answer", "subject", "died", "said"), [
    ("Is my aunt Mary alive?", "Yes, your aunt Mary is alive.", "Mary", "20 October 2026",
     "No, Mary died on 20 October 2026."),
    ("Is my nan still alive?", "Yes.", "my nan", "by 1 June 2026", "No, your nan died (you told me on 1 June 2026)."),
    ("Is Grandad alive?", "Grandad is alive.", "Grandad", "May 2025", "No, Grandad died in May 2025."),
    ("Is my aunt Mary alive?", "No, she passed away.", "Mary", "20 October 2026", None),  # no yes: it stands
    ("Is Mary dead?", "Yes.", "Mary", "20 October 2026", None),  # asked otherwise: the yes is right
])
def test_a_yes_to_someone_alive_whose_death_memory_holds_says_the_death(
        question: str, answer: str, subject: str, died: str, said: str | None) -> None:
    """"Is my aunt Mary alive?" "Yes." beside `Mary died_on 20 October 2026` and the words that told it."""
    from assistant.answer import died_told
    r = _talk(question, "", [("user", "She passed away on Tuesday.")])
    sid = subject.lower().replace(" ", "-")
    r.seeds = [sid]
    r.facts = [dataclasses.replace(_fact(sid, "died_on", died), subject=subject, object=died)]
    assert died_told(answer, question, r) == said


@pytest.mark.parametrize(("question", "answer", "said"), [
    ("Which of the guinea pigs died?", "Crumble died on 13 September 2026.", "Custard died on 13 September 2026."),
    ("Which of the guinea pigs died?", "Custard.", None),  # the one held dead: it stands
    ("Who passed away?", "Your nan.", "Custard died on 13 September 2026."),
    ("Which guinea pig is ginger?", "Crumble.", None),  # no death asked
])
def test_asked_who_died_an_answer_naming_another_says_the_death_held(question: str, answer: str,
                                                                     said: str | None) -> None:
    """"Which of the guinea pigs died?" "Crumble died…" beside `Custard died_on 13 September 2026` (everyday74)."""
    from assistant.answer import dead_named
    r = _talk(question, "", [("user", "Custard didn't make it through the night.")])
    r.facts = [dataclasses.replace(_fact("custard", "died_on", "13 September 2026"), subject="Custard"),
               dataclasses.replace(_fact("crumble", "is_a", "guinea pig"), subject="Crumble")]
    assert dead_named(answer, question, r) == said


@pytest.mark.parametrize(("question", "answer", "alive", "said"), [
    ("Do the kids have a hamster?", "Yes, the kids have a hamster named Nibbles.", [],
     "No, Nibbles died on 5 September 2026."),
    ("Have we still got any hamsters?", "Yes.", [], "No, Nibbles died on 5 September 2026."),
    ("Does Ava have a hamster?", "Yes.", [], "No, Nibbles died on 5 September 2026."),
    ("Does Ava still have her hamster?", "Yes.", [], "No, Nibbles died on 5 September 2026."),  # said by whose
    ("Do the kids have a hamster?", "No, Nibbles died.", [], None),  # no yes: it stands
    ("Did the kids have a hamster?", "Yes, Nibbles.", [], None),  # asked of the past: the yes is right
    ("Do the kids have a dog?", "Yes.", [], None),  # another kind: not this check's
    ("Do the kids have a hamster?", "Yes.", [("Peanut", "is_a", "hamster")], None),  # another hamster, alive
    ("Do the kids have a hamster?", "Yes.", [("User", "has_pet", "Peanut")], None),  # a pet of no known kind
])
def test_a_yes_to_having_a_kind_of_pet_when_every_one_found_died_says_the_death(
        question: str, answer: str, alive: list[tuple[str, str, str]], said: str | None) -> None:
    """"Do the kids have a hamster?" "Yes." beside `Nibbles is_a hamster` and `Nibbles died_on 5 September 2026`
    (the household's pet had ended; everyday67's first run)."""
    from assistant.answer import died_told
    r = _talk(question, "", [("user", "Nibbles died at the weekend, the kids were heartbroken.")])
    r.seeds = ["nibbles"]
    ended = dataclasses.replace(_fact(USER_ID, "has_pet", "Nibbles"), object_id="nibbles",
                                valid_to=datetime(2026, 9, 5, tzinfo=UTC))
    r.facts = [dataclasses.replace(_fact("nibbles", "is_a", "hamster"), subject="Nibbles"),
               dataclasses.replace(_fact("nibbles", "died_on", "5 September 2026"), subject="Nibbles"), ended]
    for s, rel, o in alive:
        sid = USER_ID if s == "User" else s.lower()
        r.facts.append(dataclasses.replace(_fact(sid, rel, o), subject=s, object_id=o.lower()))
    assert died_told(answer, question, r) == said


def _held(subject: str, relation: str, obj: str, *, label: str | None = None, ended: bool = False) -> Arc:
    sid = USER_ID if subject == "User" else subject.lower()
    oid = USER_ID if obj == "User" else obj.lower()
    return Arc(f"a-{sid}-{relation}-{oid}", sid, subject, relation, oid, obj, label, 1.0, 0.0, 0, 1, MAY_20,
               MAY_20, JUNE_3 if ended else None, MAY_20, None, None, 1, 1.0)


@pytest.mark.parametrize("question, answer, facts, said", [
    # who they are to the user comes first; the answer's own words follow
    ("Who is Dev?", "A paramedic.", [_held("Dev", "works_as", "paramedic"), _held("Dev", "neighbour_of", "User")],
     "Your neighbour, a paramedic."),
    ("who's dev", "Dev works nights.", [_held("Dev", "neighbour_of", "User")], "Your neighbour. Dev works nights."),
    ("Who is Tariq?", "A pilot.", [_held("Tariq", "spouse_of", "User", label="husband")], "Your husband, a pilot."),
    ("Who is Kyle?", "An electrician.", [_held("Kyle", "partner_of", "Amy", label="boyfriend"),
                                        _held("Amy", "daughter_of", "User")], "Amy's boyfriend, an electrician."),
    ("Who is Karen?", "I don't know.", [_held("User", "reports_to", "Karen")], "Your manager."),
    ("Who is Kez?", "A teacher.", [_held("User", "friend_of", "Kez")], "Your friend, a teacher."),
    # said already, in any of its words; a role that ended, or someone else asked about: the answer stands
    ("Who is Tariq?", "Your spouse.", [_held("Tariq", "spouse_of", "User", label="husband")], None),
    ("Who is Gav?", "Your brother-in-law.", [_held("Gav", "in_law_of", "User", label="brother-in-law")], None),
    ("Who is Gav?", "A plumber.", [_held("Gav", "in_law_of", "User", label="brother-in-law")],
     "Your brother-in-law, a plumber."),
    ("Who is Aoife?", "Liam's wife, a midwife.", [_held("Aoife", "spouse_of", "Liam")], None),
    ("Who is Gareth?", "A plumber.", [_held("Gareth", "spouse_of", "User", ended=True)], None),
    ("Who is Dev?", "A paramedic.", [_held("Sam", "neighbour_of", "User")], None),
    ("Who is my neighbour?", "Dev.", [_held("Dev", "neighbour_of", "User")], None),
])
def test_asked_who_someone_is_who_they_are_to_the_user_is_said(question: str, answer: str, facts: list[Arc],
                                                               said: str | None) -> None:
    from assistant.answer import who_they_are
    r = RecallResult(question, analyse(question), [], [], "now", personal=True)
    r.facts = facts
    assert who_they_are(answer, question, r) == said


def test_asked_who_someone_is_an_answer_of_nothing_new_gives_way_to_who_they_are() -> None:
    """"Who is Edith?" "Edith.": turned down, and what memory holds of her is said instead of "I don't know"."""
    from assistant.answer import vetted
    q = "Who is Edith?"
    r = RecallResult(q, analyse(q), [], [_held("Edith", "grandparent_of", "User", label="nan")], "now", personal=True)
    assert vetted("Edith.", q, r) == "Your nan."
    assert vetted("Edith.", q, RecallResult(q, analyse(q), [], [], "now", personal=True)) == (
        "I don't know that; nothing I remember says.")


def test_the_user_named_as_facts_name_them_is_you() -> None:
    from assistant.answer import said_to_you
    assert said_to_you("Dave is User's brother-in-law.", "Who is Dave?") == "Dave is your brother-in-law."
    assert said_to_you("User's brother-in-law.", "Who is Dave?") == "Your brother-in-law."
    assert said_to_you("Userspace's on.", "Who is Dave?") == "Userspace's on."


@pytest.mark.parametrize("question, answer, facts, said", [
    ("Is Carys my sister?", "Yes.", [_held("Carys", "in_law_of", "User", label="sister-in-law")],
     "No, Carys is your sister-in-law."),
    ("Is Raj my husband?", "Yes, he is.", [_held("Raj", "friend_of", "User")], "No, Raj is your friend."),
    ("Is Tariq my partner?", "Yes.", [_held("Tariq", "spouse_of", "User", label="husband")], None),  # a case of it
    ("Is Tariq my husband?", "Yes.", [_held("Tariq", "partner_of", "User")], None),  # might be: not denied
    ("Is Carys my sister?", "No.", [_held("Carys", "in_law_of", "User", label="sister-in-law")], None),
    ("Is Carys my sister?", "Yes.", [], None),  # nothing held: the other checks decide
])
def test_asked_whether_someone_holds_a_role_another_held_says_no(question: str, answer: str, facts: list[Arc],
                                                                 said: str | None) -> None:
    from assistant.answer import another_role
    r = RecallResult(question, analyse(question), [], [], "now", personal=True)
    r.facts = facts
    assert another_role(answer, question, r) == said


def test_a_role_word_of_what_is_held_grounds_an_answer() -> None:
    """"Gareth hubby of User": "the husband of the user" and "Yes" to "Is Gareth my partner?" are grounded."""
    from assistant.answer import ungrounded, yes_of_another
    r = RecallResult("Who is Gareth?", analyse("Who is Gareth?"), [], [], "now", personal=True)
    r.facts = [_held("Gareth", "spouse_of", "User", label="hubby")]
    assert not ungrounded("Gareth is the husband of the user.", "Who is Gareth?", r)
    assert ungrounded("Gareth is a plumber.", "Who is Gareth?", r)
    assert not yes_of_another("Yes.", "Is Gareth my partner?", r)
    assert yes_of_another("Yes.", "Is Gareth vegetarian?", r)


def test_words_that_turn_a_taste_round_deny_nothing_the_fact_holds() -> None:
    """"I used to hate sprouts but these days I can't get enough of them": a denial and a distaste in its words, but
    the taste they told is held now (learned from them): the yes stands. Without that fact, the words deny it."""
    from assistant.when import said_otherwise
    from memory.model import Arc

    def _likes(told: datetime, source: str) -> Arc:
        return Arc(id="a1", subject_id="user", subject="User", relation="likes", object_id="e-sprouts",
                   object="sprouts", label=None, strength=1.0, decay_rate=0.0, reinforcements=0, conversations=1,
                   last_reinforced=told, valid_from=told, valid_to=None, recorded_at=told, closed_at=None,
                   expired_at=None, t_index=1, confidence=1.0, sources=[source])

    words = ("user", "I used to hate sprouts but these days I can't get enough of them.", MAY_20)
    r = _heard("Do I like sprouts?", [words])
    assert (said_otherwise("Yes.", r) or "").startswith("Maybe not: on ")
    r.facts = [_likes(MAY_20, "e0")]
    assert said_otherwise("Yes.", r) is None
    r.facts = [_likes(MAY_20 - timedelta(days=90), "old")]
    assert (said_otherwise("Yes.", r) or "").startswith("Maybe not: on ")  # a taste told before the words that deny it


def _role_arc(subject: str, relation: str, obj: str, *, label: str | None = None, ended: bool = False) -> Arc:
    ids = {"User": USER_ID}
    return Arc(id=f"a-{subject}-{obj}", subject_id=ids.get(subject, f"e-{subject}"), subject=subject, relation=relation,
               object_id=ids.get(obj, f"e-{obj}"), object=obj, label=label, strength=1.0, decay_rate=0.0,
               reinforcements=0, conversations=1, last_reinforced=MAY_20, valid_from=MAY_20,
               valid_to=JUNE_3 if ended else None, recorded_at=MAY_20, closed_at=JUNE_3 if ended else None,
               expired_at=None, t_index=1, confidence=1.0, sources=[])


@pytest.mark.parametrize(("question", "facts", "said"), [
    ("Who is my wife?", [("User", "spouse_of", "Sophie", "wife")], "Sophie."),
    ("Who's my boss?", [("User", "reports_to", "Deborah", "boss")], "Deborah."),
    ("Who is my sister?", [("Anna", "sister_of", "User", None), ("Maya", "sister_of", "User", None)], "Anna and Maya."),
    ("Who is my mum?", [("User", "mother_of", "Lily", None)], None),  # the user is Lily's mum
    ("Who is my husband?", [("User", "spouse_of", "Sophie", "wife")], None),  # the word kept is another
    ("Who is my mum?", [("my mum", "mother_of", "User", None)], None),  # never named
    ("Who was my boss?", [("User", "reports_to", "Deborah", "boss")], None),  # asked about before
    ("Who is my neighbour?", [], None),
    # the holder asked by name ("Sorry, I mean Pat, not Pete": the model had said the name first told)
    ("What is my neighbour called?", [("Pat", "neighbour_of", "User", None)], "Pat."),
    ("What's my boss's name?", [("User", "reports_to", "Deborah", "boss")], "Deborah."),
    ("What's the name of my sister?", [("Anna", "sister_of", "User", None)], "Anna."),
    ("What is my sister called?", [], None),
    ("What is my sister's job?", [("Anna", "sister_of", "User", None)], None),  # not asked who
])
def test_who_holds_a_role_is_said_from_the_facts(question: str, facts: list[tuple[str, str, str, str | None]],
                                                 said: str | None) -> None:
    from assistant.when import role_holder

    r = _heard(question, [])
    r.facts = [_role_arc(s, rel, o, label=label) for s, rel, o, label in facts]
    assert role_holder(r) == said


def test_a_role_that_ended_is_not_said_as_held() -> None:
    from assistant.when import role_holder

    r = _heard("Who is my boyfriend?", [])
    r.facts = [_role_arc("Marcus", "partner_of", "User", label="boyfriend", ended=True)]
    assert role_holder(r) is None


@pytest.mark.parametrize(("question", "answer", "refused"), [
    ("Where will I be working?", "A planning officer.", True),  # the job known, not the employer
    ("Where does Niamh study?", "Nursing.", True),  # what is studied is no where
    ("Where will I be working?", "At the council, as a planning officer.", False),  # says a where too
    ("Where do I live?", "Planning officer.", True),
    ("What do I do?", "A planning officer.", False),  # asked what: the job is the answer
    ("Where does Niamh study?", "Nursing at Cardiff.", False),
    ("Where does Aisha work?", "A midwife.", True),  # a trade alone, no fact of it found
    ("Where does Aisha work?", "Aisha works as a midwife.", True),
    ("Where does Aisha work?", "A midwife at the Royal.", False),
])
def test_asked_where_a_job_or_a_subject_alone_is_no_answer(question: str, answer: str, refused: bool) -> None:
    from assistant.answer import not_a_place
    r = RecallResult(question, analyse(question), ["user"],
                     [_fact("user", "works_as", "planning officer"), _fact("niamh", "studies", "nursing")], "now")
    assert not_a_place(answer, question, r) is refused


@pytest.mark.parametrize(("question", "said", "denied"), [
    # their own "I don't…" of what is asked, and nothing of theirs says they do it
    ("How does Lina feel while surfing?", [("Lina", "I don't surf, but a good book helps me escape.")], True),
    ("Where does Lina go skiing?", [("Lina", "I've never skied, my knees wouldn't cope.")], True),
    # said of the one they speak to, not of themselves: no "yes" of theirs
    ("How does Lina feel while surfing?", [("Lina", "I don't surf, but a good book helps me escape."),
                                          ("Lina", "A comfy chair is bliss, same as surfing is for you.")], True),
    # their own words say they do it too
    ("How does Lina feel while surfing?", [("Lina", "I don't surf much in winter."),
                                          ("Lina", "I surf every summer, it makes me feel so free.")], False),
    # someone else's denial; a denial of something else; asked yes or no (said_otherwise's)
    ("How does Lina feel while surfing?", [("Omar", "I don't surf, it scares me.")], False),
    ("How does Lina feel while surfing?", [("Lina", "I don't swim, but surfing with a board is fine.")], False),
    ("Does Lina surf?", [("Lina", "I don't surf, but a good book helps me escape.")], False),
    # one thing of it denied, not the doing ("What does Lina drink?" had been "I don't know")
    ("What does Lina drink?", [("Lina", "I don't drink coffee at all, just builder's tea.")], False),
    ("Where does Lina go skiing?", [("Lina", "I never ski any more, not since the knee.")], True),
])
def test_what_the_one_asked_about_says_they_do_not_do_has_no_answer(question: str, said: list[tuple[str, str]],
                                                                    denied: bool) -> None:
    from assistant.when import they_deny
    assert (they_deny(question, _talk(question, "Lina", said)) is not None) is denied


def test_what_one_says_they_do_not_do_is_said_instead_of_an_answer() -> None:
    """Of someone else: they did not say it. Of the user: their own words, for them to judge."""
    from assistant.answer import vetted
    q = "How does Lina feel while surfing?"
    assert vetted("Free and happy.", q, _talk(q, "Lina", [("Lina", "I don't surf, it scares me.")])) == (
        "Lina didn't mention that, as far as I know.")
    mine = "Where do I go skiing?"
    said = "I've never skied, my knees wouldn't cope."
    r = _talk(mine, "", [("user", said)])
    assert vetted("In the Alps.", mine, r) == f'On 20 January 2023 you said "{said}"'


@pytest.mark.parametrize(("answer", "refused"), [
    ("York, near the Minster.", True),  # the home held now
    ("You live in York.", True),
    ("Leeds before.", False),
    ("Leeds, before York.", True),  # names the one now too: turned down, on the safe side
])
def test_asked_for_the_one_before_now_the_one_held_now_is_no_answer(answer: str, refused: bool) -> None:
    from assistant.answer import still_held
    question = "Where did I live before?"
    r = RecallResult(question, analyse(question), ["user"], [], "history")
    r.held_now = [_fact("user", "lives_in", "York")]
    assert still_held(answer, question, r) is refused
    r.held_now = []
    assert not still_held(answer, question, r)


@pytest.mark.parametrize(("question", "said", "denied"), [
    ("Is Dan married?", "My brother Dan is getting married to Chloe next June in Bath.", True),  # not yet
    ("Am I retired?", "I'll be retired by Christmas, can't wait!", True),
    ("Is Dan getting married?", "My brother Dan is getting married to Chloe next June in Bath.", False),  # the plan
    ("Is Dan married?", "My brother Dan got married to Chloe last June.", False),  # so now
    # the verb asked of, said of a time to come; not one gone by
    ("Am I retired?", "I retire from the post office next spring, can't wait.", True),
    ("Have we moved?", "We're moving to Hull in two months.", True),
    ("Am I retired?", "I retired from the post office last spring.", False),
])
def test_a_yes_from_words_that_put_it_ahead_is_not_said(question: str, said: str, denied: bool) -> None:
    """"Is Dan married?" "Yes." from "Dan is getting married next June": what is asked is still to come."""
    from assistant.when import said_otherwise
    r = _heard(question, [("user", said, MAY_20)])
    instead = said_otherwise("Yes.", r)
    assert (instead is not None and instead.startswith("Maybe not: on 20 May 2023")) is denied


def test_the_thing_asked_is_no_end_of_itself() -> None:
    """"Am I retired?" after "Before I retired I was a postman": "retired" is what is asked, not an end of it."""
    from assistant.when import said_otherwise
    r = _heard("Am I retired?", [("user", "Before I retired I was a postman for thirty years.", MAY_20)])
    instead = said_otherwise("Yes.", r)
    assert instead is None or not instead.startswith("Maybe not")
    r = _heard("Am I retired?", [("user", "I never retired, I still do a few shifts.", MAY_20)])
    assert (said_otherwise("Yes.", r) or "").startswith("Maybe not")  # a denial before it still denies


def test_a_value_held_of_someone_stands_against_one_from_words_not_theirs() -> None:
    """"Where does Noor live now?" with `Noor lives_in Krakow` held: "Bordeaux now." came from the user's own "I live
    in Bordeaux now", words that do not speak of Noor; what is held is said. Words that name Noor may tell a newer
    home learning missed: then the answer stands."""
    from assistant.answer import held_instead

    q = "Where does Noor live now?"
    home = dataclasses.replace(_fact("noor", "lives_in", "Krakow"), subject="Noor")
    mine = Episode("e1", "c2", 0, "user", "We finally finished moving, I live in Bordeaux now.", JUNE_3)
    r = RecallResult(q, analyse(q), ["noor"], [home], "now", episodes=[mine], episodes_relevant=True)
    assert held_instead("Bordeaux now.", q, r) == "Krakow."
    assert held_instead("Krakow.", q, r) is None  # the answer says what is held
    assert held_instead("Noor didn't mention that.", q, r) is None  # a doubt is weighed elsewhere
    assert held_instead("I don't know.", q, r) is None
    r.episodes = [dataclasses.replace(mine, text="Noor's moved on again, she's in Bordeaux now.")]
    assert held_instead("Bordeaux now.", q, r) is None  # her words: maybe newer than the fact
    q = "Does Noor live in Bordeaux?"  # asked yes or no: the answer checks of yes and no read it
    assert held_instead("Yes.", q, RecallResult(q, analyse(q), ["noor"], [home], "now")) is None
    q = "Where did Noor live before Krakow?"  # a value held before, as a fact of theirs: the answer stands
    before = dataclasses.replace(_fact("noor", "lives_in", "Hamburg", until=JUNE_3), subject="Noor")
    assert held_instead("Hamburg.", q, RecallResult(q, analyse(q), ["noor"], [before, home], "history")) is None
    q = "Where does Sam live now?"  # someone else asked: what Noor holds is no answer
    assert held_instead("Bordeaux now.", q, RecallResult(q, analyse(q), ["noor"], [home], "now")) is None
    # asked how old, the relation named in the question's clause is not what is asked (everyday84: "How old was
    # Bridie when she passed away?" "94 years old." was put back to the day she died)
    q = "How old was Bridie when she passed away?"
    died = dataclasses.replace(_fact("bridie", "died_on", "7 June 2026"), subject="Bridie")
    said = Episode("e1", "c1", 0, "user", "My godmother Bridie died on Sunday. Ninety-four, sharp to the end.", JUNE_3)
    r = RecallResult(q, analyse(q), ["bridie"], [died], "now", episodes=[said], episodes_relevant=True)
    assert held_instead("Bridie was 94 years old.", q, r) is None


def test_caffeine_gone_without_says_no_to_coffee() -> None:
    """"Do I drink coffee?" after "I've cut out caffeine completely": the question reads what is gone without
    (`avoids`), and caffeine leaves coffee and tea out; not a food it leaves in."""
    from assistant.when import diet_leaves_out

    q = "Do I drink coffee?"
    assert "avoids" in analyse(q).relations
    assert "avoids" not in analyse("Do I have a dog?").relations
    r = RecallResult(q, analyse(q), ["user"], [_fact("user", "avoids", "caffeine")], "history")
    assert diet_leaves_out(r) == "No, you are caffeine-free."
    q = "Do I drink orange juice?"
    assert diet_leaves_out(RecallResult(q, analyse(q), ["user"], [_fact("user", "avoids", "caffeine")], "history")) \
        is None


def test_asked_when_a_thing_is_the_day_words_were_said_is_no_answer() -> None:
    """"When is my dentist appointment?" "19 October 2026." from "Must remember to book the dentist", said that
    day: words that name no time give no day for what is or will be. Asked about the past, or with words that name
    the day, the answer stands."""
    from assistant.when import said_day_ahead

    said = datetime(2026, 10, 19, 18, 0, tzinfo=UTC)
    r = _heard("When is my dentist appointment?", [("user", "Must remember to book the dentist.", said)])
    assert said_day_ahead("19 October 2026.", r)
    assert not said_day_ahead("I don't know.", r)
    r = _heard("When is my dentist appointment?", [("user", "Dentist today at four, wish me luck.", said)])
    assert not said_day_ahead("19 October 2026.", r)  # "today" is that day
    r = _heard("When did I go to the dentist?", [("user", "Been to the dentist, two fillings.", said)])
    assert not said_day_ahead("19 October 2026.", r)  # the day it was told may be the day it was done
    # not asked when (a day named in the question), or asked when something was planned: the answer stands
    r = _heard("What classes did I start on 19 October?", [("user", "I just started salsa classes.", said)])
    assert not said_day_ahead("Salsa classes on 19 October 2026.", r)
    r = _heard("When did I plan on going to the dentist?", [("user", "Must remember to book the dentist.", said)])
    assert not said_day_ahead("19 October 2026.", r)


def test_asked_a_name_an_answer_with_no_name_is_none() -> None:
    """"What's my manager's name?" 'Keeps booking meetings at 8am".' from "My manager keeps booking meetings at
    8am": no word the words found write as a name. A name they write, or a fact's, is an answer."""
    from assistant.answer import no_name_given

    q = "What's my manager's name?"
    r = _heard(q, [("user", "My manager keeps booking meetings at 8am.", MAY_20)])
    assert no_name_given('Keeps booking meetings at 8am".', q, r)
    assert no_name_given("My manager.", q, r)
    r = _heard(q, [("user", "My manager Dave keeps booking meetings at 8am.", MAY_20)])
    assert not no_name_given("Your manager is called Dave.", q, r)
    q = "What's our cat called?"
    assert not no_name_given("Sooty.", q, _heard(q, [("user", "Sooty is lovely.", MAY_20)]))
    r = _heard(q, [])
    r.facts = [_fact("user", "has_pet", "Sooty")]
    assert not no_name_given("Sooty.", q, r)
    # a name made of the words' common words is made up, not said
    q = "What's Olamide's salon called?"
    r = _heard(q, [("user", "My best mate Olamide's opened her own hair salon in Woolwich, braids and locs mostly.",
                    MAY_20)])
    assert no_name_given("Woolwich Hair Salon.", q, r)
    r = _heard(q, [("user", "Olamide's opened her own hair salon in Woolwich, it's called Crown and Glory.", MAY_20)])
    assert not no_name_given("It's called Crown and Glory.", q, r)
    q = "Where does my manager live?"  # no name asked: not this check's
    assert not no_name_given("Leeds.", q, _heard(q, [("user", "My manager lives in leeds.", MAY_20)]))
    # asked the name of someone or something the words found never name (everyday78/79's first run: "The surgery."
    # for the nurse's name, "The Edinburgh Fringe." for a show's)
    q = "What's the name of the physio who sorted my knee?"
    r = _heard(q, [("user", "The physio at the Royal Infirmary reckons my knee just needs strengthening.", MAY_20)])
    assert no_name_given("The Royal Infirmary.", q, r)
    assert no_name_given("The physio.", q, r)
    q = "What's Bronagh's play called?"
    r = _heard(q, [("user", "My niece Bronagh has a part in a play at the Lyric Theatre in Belfast in May.", MAY_20)])
    assert no_name_given("The Lyric Theatre.", q, r)
    # the one asked about, said back with the place, names nothing asked (the check at stop 61: "Padraig's show is
    # called the Edinburgh Fringe." had passed on "Padraig")
    assert no_name_given("Bronagh's play is called the Lyric Theatre.", q, r)
    r = _heard(q, [("user", "Bronagh's in Dancing at Lughnasa at the Lyric Theatre in May.", MAY_20)])
    assert not no_name_given("Bronagh's play is called Dancing at Lughnasa.", q, r)
    assert not no_name_given("Dancing at Lughnasa.", q, r)
    q = "What's the pub called?"  # a place asked: a place is its answer
    r = _heard(q, [("user", "The reunion's at the Crown on Friday.", MAY_20)])
    assert not no_name_given("The Crown.", q, r)
    q = "What's my sister's husband called?"
    r = _heard(q, [("user", "My sister's married to Tom, they live in Leeds.", MAY_20)])
    assert not no_name_given("Tom.", q, r)
    # a person's name asked: a place is none, whatever it follows (everyday82: "Bath." for the friend who lent a flat)
    q = "What's the name of the neighbour who fed the cat?"
    r = _heard(q, [("user", "We were in Galway for the week and the neighbour fed the cat.", MAY_20)])
    assert no_name_given("Galway.", q, r)
    r = _heard(q, [("user", "The neighbour, Aoife, fed the cat while we were in Galway.", MAY_20)])
    assert not no_name_given("Aoife.", q, r)
    q = "What's Mrs Okafor's granddaughter called?"  # a name said with its "'s" (everyday77 at this stop's code)
    r = _heard(q, [("user", "Mrs Okafor's granddaughter Ada's got into Oxford to read law.", MAY_20)])
    assert not no_name_given("Ada.", q, r)
    # people asked of by what they do: a name said only as where they are from is none (everyday85: "Bristol." for
    # the new owners of the pub, "Some couple from Bristol have bought it")
    q = "What are the new pub owners called?"
    r = _heard(q, [("user", "The Red Lion's been sold. Some couple from Bristol have bought it.", MAY_20)])
    assert no_name_given("Bristol.", q, r)
    r = _heard(q, [("user", "The Red Lion's been sold to the Dunnes, a couple from Bristol.", MAY_20)])
    assert not no_name_given("The Dunnes.", q, r)
    q = "What's the band called?"  # a thing's name may follow "from" ("a song from Hamilton")
    r = _heard(q, [("user", "Saw a band from Sheffield doing covers from Hamilton.", MAY_20)])
    assert not no_name_given("Hamilton.", q, r)
    # common words made a name beside the name given whole (everyday84: "the Ultimate Frisbee team called the
    # Huckleberry Flings" was turned down as a name made up)
    q = "What's my frisbee team called?"
    r = _heard(q, [("user", "I've joined an ultimate frisbee team called the Huckleberry Flings.", MAY_20)])
    assert not no_name_given("The Ultimate Frisbee team called the Huckleberry Flings.", q, r)
    assert no_name_given("The Ultimate Frisbee Team.", q, r)
    # a name said only beside what is asked the name of, not as its name (everyday87: "The Kruger camp." for the camp
    # "on the edge of the Kruger", "RNIB." for "an RNIB volunteer")
    q = "What's the name of the camp Josh is at?"
    r = _heard(q, [("user", "Josh flies out for six months at a camp on the edge of the Kruger.", MAY_20)])
    assert no_name_given("The Kruger camp.", q, r)
    r = _heard(q, [("user", "Josh is at a camp called Umlani, on the edge of the Kruger.", MAY_20)])
    assert not no_name_given("Umlani.", q, r)
    q = "What's the name of Mum's Braille volunteer?"
    r = _heard(q, [("user", "Mum's learning Braille with an RNIB volunteer, Tuesday mornings at hers.", MAY_20)])
    assert no_name_given("RNIB.", q, r)
    r = _heard(q, [("user", "Mum's learning Braille with Carol, an RNIB volunteer.", MAY_20)])
    assert not no_name_given("Carol.", q, r)
    # a name said only as where a thing sails from (everyday89: "The thirty-four-foot yacht out of Split.")
    q = "What's the name of the narrowboat we're hiring?"
    r = _heard(q, [("user", "We're hiring a sixty-foot narrowboat out of Skipton for a week in May.", MAY_20)])
    assert no_name_given("The sixty-foot narrowboat out of Skipton.", q, r)
    q = "What's the name of our new team?"  # of a thing, a name before its word is its own
    r = _heard(q, [("user", "We're the Harbour Hawks team now.", MAY_20)])
    assert not no_name_given("The Harbour Hawks.", q, r)


def test_my_thing_with_the_i_left_out_is_the_users_own() -> None:
    """"Do I have an allotment?" after "Finally got my allotment! Plot 14.": "my" just before the thing says it is
    theirs though "I" is left out (it had said "Not that you've told me."); "my mum" before the words does not."""
    from assistant.when import _of_their_own, _said_so
    from memory.search import terms

    topic = set(terms("allotment"))
    assert _said_so("Finally got my allotment! Plot 14.", "Do I have an allotment?", topic)
    assert _of_their_own("Finally got my allotment! Plot 14.", topic)
    assert not _said_so("My mate Hannah got an allotment.", "Do I have an allotment?", topic)
    assert not _of_their_own("My mum drinks tea all day long.", set(terms("drink tea")))


def test_an_anniversary_said_with_its_number_marks_the_years_before() -> None:
    """"How long have we been married?" after "It's our tenth wedding anniversary on Friday": the Friday is ten
    years after the start, not the start (it said "About seven months")."""
    from assistant.spans import years_marked

    assert years_marked("It's our tenth wedding anniversary on Friday.") == 10
    assert years_marked("Happy 25th anniversary to us!") == 25
    assert years_marked("We went out for our anniversary.") is None
    # said by the years married or together, in figures or words; a vague count or another span is none
    assert years_marked("Gran and Grandad celebrate 60 years married next month.") == 60
    assert years_marked("Twelve years together this June!") == 12
    assert years_marked("A few years together now.") is None
    assert years_marked("I worked there 30 years.") is None
    # a compound number whole ("twenty-five" is no five), and the years with the time they are reached at
    assert years_marked("Twenty-five years together this June!") == 25
    assert years_marked("Petra and I have been best friends since reception class. Fifty-one years this September!") \
        == 51
    assert years_marked("It'll be 40 years on Saturday.") == 40
    assert years_marked("I worked there ten years in London.") is None  # a place, not a time reached


def test_asked_when_a_thing_is_a_weekday_said_is_the_next() -> None:
    """"When is our anniversary?" after "It's our tenth wedding anniversary on Friday" (said on Monday 4 May 2026):
    the Friday after, not a day the model makes up."""
    from assistant.when import time_meant

    said = datetime(2026, 5, 4, 18, 0, tzinfo=UTC)
    r = _heard("When is our anniversary?", [("user", "It's our tenth wedding anniversary on Friday.", said)])
    found = time_meant(r)
    assert found is not None and found[1] == "8 May 2026"


@pytest.mark.parametrize(("question", "said", "answer"), [
    # asked when someone was born, words of the birth that say no birthday: the day they mean (the model said the
    # day the words were said, 21 September)
    ("When was Solomon born?", "He's here! Our grandson Solomon arrived at 3am on Thursday, 8lb 2oz.",
     "17 September 2026."),
    # words that say no birth give no day: not the day something else happened
    ("When was Solomon born?", "Solomon started nursery on Thursday.", None),
    # asked when a birthday is, the birthday only
    ("When is Solomon's birthday?", "He's here! Our grandson Solomon arrived at 3am on Thursday, 8lb 2oz.", None),
])
def test_asked_when_someone_was_born_the_time_words_of_the_birth_mean(question: str, said: str,
                                                                      answer: str | None) -> None:
    from assistant.when import when_answer

    monday = datetime(2026, 9, 21, 18, 0, tzinfo=UTC)
    r = _heard(question, [("user", said, monday)])
    r.personal, r.asked = True, "Solomon"
    assert when_answer(r) == answer


def test_a_baby_due_is_answered_from_the_plan_of_it() -> None:
    """"When is the baby due?" with `Amy expecting baby` planned for March 2027: the plan's time; "Is Amy pregnant?"
    reads the same relation."""
    from assistant.when import planned_for

    q = "When is the baby due?"
    assert "expecting" in analyse(q).relations and "expecting" in analyse("Is Amy pregnant?").relations
    due = dataclasses.replace(_fact("amy", "expecting", "baby"), subject="Amy", planned_for="2027-03")
    assert planned_for(RecallResult(q, analyse(q), ["amy"], [due], "now")) == "March 2027."


def test_years_of_a_state_held_are_counted_whole() -> None:
    """"How long have we been married?" at ten and a half years: "Over ten years", not "About eleven years"; at
    ten years to the day, "Ten years"; time since an event is rounded as before."""
    from assistant.when import amount

    assert amount(3857, completed=True) == "Over ten years"
    assert amount(3652, completed=True) == "Ten years"
    assert amount(3857) == "About eleven years"
    assert amount(200, completed=True) == "About seven months"


def test_a_yes_is_backed_by_a_relation_said_in_other_words() -> None:
    """"Is Amy pregnant?" "Yes, Amy is pregnant." with `Amy expecting baby` held: the relation's words
    (memory.words.SAID_OF_RELATION) back the yes, which had been turned down as lent from someone else."""
    from assistant.answer import yes_of_another

    q = "Is Amy pregnant?"
    due = dataclasses.replace(_fact("amy", "expecting", "baby"), subject="Amy")
    assert not yes_of_another("Yes, Amy is pregnant.", q, RecallResult(q, analyse(q), ["amy"], [due], "now"))
    other = dataclasses.replace(_fact("amy", "likes", "babies"), subject="Amy")
    assert yes_of_another("Yes, Amy is pregnant.", q, RecallResult(q, analyse(q), ["amy"], [other], "now"))


@pytest.mark.parametrize("odd", ["", "   ", "?", "What's", "When is", "\x00\ufffd", "'; DROP TABLE arcs; --",
                                 "tenth anniversary " * 200])
def test_this_stops_answer_checks_take_odd_text_without_harm(odd: str) -> None:
    """Blank, cut-off or hostile questions and answers through the name, day-said and anniversary checks: no
    error, nothing turned into an answer."""
    from assistant.answer import no_name_given
    from assistant.spans import years_marked
    from assistant.when import said_day_ahead

    r = _heard(odd, [("user", odd, MAY_20)])
    assert no_name_given(odd, odd, r) is False  # no name asked
    assert said_day_ahead(odd, r) is False  # no date in the answer: nothing to turn down
    assert years_marked(odd) == (10 if "anniversary" in odd else None)


@pytest.mark.parametrize("odd", ["", "   ", "?", "Is", "alive", "\x00\ufffd", "'; DROP TABLE arcs; --", "two two two",
                                 "moved it to " * 200, "1 stone"])
def test_stop_56s_answer_checks_take_odd_text_without_harm(odd: str) -> None:
    """Blank, cut-off or hostile questions and answers through the count, death, planned-home and moved-time
    checks: no error, nothing said instead."""
    from assistant.answer import _home_to_come, died_told, miscounted
    from assistant.when import time_moved_first

    r = _heard(odd, [("user", odd, MAY_20)])
    assert miscounted(odd, odd, r) is None  # the answer's counts are the words' own
    assert died_told(odd, odd, r) is None and _home_to_come(odd, odd, r) is None  # no fact of either
    assert time_moved_first(r) == r.episodes


@pytest.mark.parametrize("odd", ["", "   ", "?", "Who", "Do the kids have a", "Wednesday the 99th", "\x00\ufffd",
                                 "'; DROP TABLE arcs; --", "fifty-fifty years this May", "Am I still a " * 100])
def test_stop_57s_readers_and_checks_take_odd_text_without_harm(odd: str) -> None:
    """Blank, cut-off or hostile text through this stop's time, number, topic, death-of-a-kind and employer
    checks: no error, nothing said instead."""
    from assistant.answer import died_told, ungrounded
    from assistant.when import no_longer
    from memory.extraction.dates import exact_number, resolve
    from memory.periods import named_time
    from memory.recall.recall import only_the_topic

    r = _heard(odd, [("user", odd, MAY_20)])
    assert died_told("Yes.", odd, r) is None  # no death held
    assert no_longer(r) is None  # no fact held
    assert not only_the_topic(odd, r.episodes)  # every word found, or none asked
    if "99th" in odd:  # no such day of a month
        assert resolve(odd, MAY_20, direction="future") is None and named_time(odd, MAY_20) is None
    named_time(odd, MAY_20, topic=set(odd.split()))  # no error
    assert exact_number("fifty-fifty") is None and exact_number("a few") is None  # no unit after the tens; vague
    ungrounded(odd, odd, r)  # no error


@pytest.mark.parametrize("odd", ["", "   ", "?", "Which", "Who died", "Tuesday the 99th of Nonember", "\x00\ufffd",
                                 "'; DROP TABLE arcs; --", "fiver fiver tenner", "not now, it's " * 100,
                                 "the user the user's the user is"])
def test_stop_59s_readers_and_checks_take_odd_text_without_harm(odd: str) -> None:
    """Blank, cut-off or hostile text through this stop's death, money, "the user", moved-time and plural readers:
    no error, nothing said instead where nothing is held."""
    from assistant.answer import dead_named, figured, to_you
    from assistant.when import time_moved_first
    from memory.extraction.dates import slang_money
    from memory.periods import named_time
    from memory.recall.linking import _singular

    r = _heard(odd, [("user", odd, MAY_20)])
    assert dead_named("Custard.", odd, r) is None  # no death held
    assert time_moved_first(r) == r.episodes  # one utterance: nothing to move first
    assert all(v in (5, 10) for _, _, v in slang_money(odd))
    assert figured(odd).count("(") - odd.count("(") == len(slang_money(odd))
    assert isinstance(to_you(odd, "Why did I " + odd), str)
    named_time(odd, MAY_20, topic={"start"})  # no error
    assert _singular(odd.strip().lower()) in ("", odd.strip().lower()[:-1], odd.strip().lower()[:-3] + "y")


@pytest.mark.parametrize(("question", "answer", "said"), [
    ("How much weight have I lost?", "1 stone since January 2026.", True),  # "two stone" misread
    ("How much weight have I lost?", "Two stone since January.", False),
    ("How much weight have I lost?", "2 stone.", False),  # the same count in digits
    ("How many stone have I lost?", "Three stone.", False),  # asked to count: a sum is the model's
    ("What did I do in January?", "You went on a diet.", False),  # no count said
    ("How much weight have I lost?", "Two hundred and two stone.", True),  # a count in words, whole
])
def test_an_answer_that_miscounts_what_was_said_says_the_words_instead(question: str, answer: str,
                                                                        said: bool) -> None:
    """"How much weight have I lost?" "1 stone since January 2026." from "Down two stone since January, feeling
    great.": a wrong fact said aloud; the words that say the count are said instead."""
    from assistant.answer import vetted
    r = _talk(question, "", [("user", "Down two stone since January, feeling great."),
                             ("user", "Made a lovely stew tonight.")])
    out = vetted(answer, question, r)
    assert (out is not None and "Down two stone since January" in out) is said


def test_the_words_said_instead_of_a_miscount_keep_the_number_beside() -> None:
    """"How much are we trying to raise for the roof altogether?" "18,250 pounds." (the sum raised, told later): the
    words said instead were cut to their first sentence and left out the target said beside it (everyday85)."""
    from assistant.answer import vetted
    question = "How much are we trying to raise for the roof altogether?"
    r = _talk(question, "", [("user", "The church roof appeal's on eleven thousand four hundred pounds after the "
                                      "Easter fair. Target's twenty-five thousand, so we're not even halfway, and the "
                                      "lead's been nicked twice now.")])
    out = vetted("18250 pounds.", question, r)
    assert out is not None and "Target's twenty-five thousand" in out


@pytest.mark.parametrize(("answer", "said"), [("210 quid.", False), ("Two hundred and ten quid.", False),
                                              ("200 quid.", True)])
def test_a_count_said_in_words_of_a_hundred_or_more_is_read_whole(answer: str, said: bool) -> None:
    """"two hundred and ten quid" is 210 quid: an answer of 210 is the words' own; 200 misreads them."""
    from assistant.answer import vetted
    question = "How much did the boiler repair cost?"
    r = _talk(question, "", [("user", "Engineer's been. New diverter valve, two hundred and ten quid, but we've got "
                                      "hot water again.")])
    out = vetted(answer, question, r)
    assert (out is not None and "two hundred and ten quid" in out) is said


@pytest.mark.parametrize("odd", ["", "   ", "?", "hundred and", "half", "ten past", "RIP", "in a fortnight" * 300,
                                 "\x00\ufffd", "'; DROP TABLE arcs; --", "Saturday the 31st of February",
                                 "What day " * 200])
def test_stop_58s_readers_take_odd_text_without_harm(odd: str) -> None:
    """Blank, cut-off or hostile text through this stop's number, clock, weekday-date and prompt readers: no error,
    and nothing read that is not there."""
    from assistant.answer import figured
    from memory.extraction.dates import big_numbers, clock_times, resolve
    from memory.recall.intent import asks_a_weekday, names_said

    assert big_numbers(odd) == [] and clock_times(odd) == []
    assert figured(odd) == odd
    resolve(odd, MAY_20, direction="future")  # no error ("31st of February" is no day)
    assert not asks_a_weekday(odd)  # "What day What day…" asks no day of the week
    assert not names_said([odd], [odd]) or len(odd.strip()) > 1
    r = _heard(odd, [("user", odd, MAY_20)])
    prompt = user_prompt(odd, r, MAY_20)
    assert "Question:" in prompt or "The user tells you:" in prompt


def test_asked_when_the_sentence_beside_that_names_the_time_is_kept() -> None:
    """"When did my migraine start?" after "I was sure I was having a stroke on Friday. … turns out it's a migraine":
    the sentence that names the day shares no word asked, and the long one that does filled the budget (everyday80's
    first run answered the day it was said). Kept beside it, past the budget, when it is short."""
    from memory.periods import says_when

    said = ("Honestly, what a week. I was sure I was having a stroke on Friday. Flashing lights in one eye, half my "
            "face tingling, couldn't get a word out, and by the time the ambulance came it had eased off and it turns "
            "out it's a migraine, a migraine with aura, which the consultant said like that was a treat. The cat "
            "was fine.")
    kept = focus(said, "When did my migraine start?", 260, beside=says_when)
    assert "on Friday" in kept and "migraine with aura" in kept and "what a week" not in kept
    assert "on Friday" not in focus(said, "When did my migraine start?", 260)


@pytest.mark.parametrize(("answer", "nouns", "back"), [
    ("A dog breed.", ("breed",), True),  # everyday80's first run: "What breed is Biscuit?" (never said)
    ("Some sort of breed.", ("breed",), True),
    ("A border collie.", ("breed",), False),
    ("The Cotswolds one.", ("walk",), False),
    ("A long walk in the hills on Sunday with the dog.", ("walk",), False),  # an answer that says more
    ("Breed.", (), False),
])
def test_an_answer_that_ends_on_the_kind_asked_names_none(answer: str, nouns: tuple[str, ...], back: bool) -> None:
    from assistant.answer import kind_said_back

    assert kind_said_back(answer, nouns) is back


def test_asked_when_something_started_the_time_said_with_the_start_is_read() -> None:
    """"When was the plasterer starting?" after "a plasterer… he's popping round tomorrow to measure up" (found first)
    and then "he can't start till the twelfth of March" (said in late February, no tense of its own): the time said
    with the start, of the year nearer, whatever the question's past tense (everyday80's first run: the day he came
    to look). And a sentence of two tenses whose time is in the clause of the start ("…and she's already…")."""
    from assistant.when import time_meant

    feb = datetime(2026, 2, 25, 18, 0, tzinfo=UTC)
    r = _heard("When was the plasterer starting?", [
        ("user", "Found a plasterer, my cousin swears by him, he's popping round tomorrow to measure up.", feb),
        ("user", "He's quoted eight hundred and he can't start till the twelfth of March, he's that busy.",
         feb + timedelta(days=2))])
    r.asked = ""
    found = time_meant(r)
    assert found is not None and found[1] == "12 March 2026"
    r = _heard("When was Jo starting at the bakery?", [
        ("user", "Jo's got the bakery job! She starts in three weeks and she's already bought the whites.", feb)])
    found = time_meant(r)
    assert found is not None and found[1] == "18 March 2026"


def test_a_weekday_or_a_thing_of_a_year_asked_is_no_date_read_without_the_model() -> None:
    """"What night do I do my Samaritans shift?" "4 February 2026." (the day of "tonight" in the same words), and
    "Which year's Massey did I take on the tractor run?" "19 April 2026." (the day of the run): the when-reader gave a
    date for a day of the week and for a thing of a year (everyday87/86's first run); the model reads the words."""
    feb = datetime(2026, 2, 4, 21, 0, tzinfo=UTC)
    r = _heard("What night do I do my Samaritans shift?", [
        ("user", "Finished my Samaritans training tonight. My first proper shift's the Thursday overnight.", feb)])
    assert when_answer(r) is None
    r = _heard("Which year's Massey did I take on the tractor run?", [
        ("user", "The tractor run's on a week on Sunday. I'll be bringing the old Massey, the 1959 one.", feb)])
    assert when_answer(r) is None
    r = _heard("What night was the Samaritans party?", [("user", "The Samaritans party was on Friday night.", feb)])
    assert when_answer(r) == "30 January 2026."  # a night gone: its date, as before
    r = _heard("What day is the Samaritans party?", [("user", "The Samaritans party is on the 14th of March.", feb)])
    assert when_answer(r) == "14 March 2026."  # one day, not a habit: its date


def test_asked_when_a_time_said_on_the_topic_outweighs_one_beside_it() -> None:
    """"When was our griha pravesh?" after "Griha pravesh is fixed for the 19th of February" and then "Griha pravesh
    is done! … Now only the small matter of shifting the furniture on the 1st" (found first): the day of the griha
    pravesh, not of the furniture (everyday87's first run: "1 February 2026")."""
    jan, feb = datetime(2026, 1, 25, 12, 0, tzinfo=UTC), datetime(2026, 2, 21, 12, 0, tzinfo=UTC)
    r = _heard("When was our griha pravesh?", [
        ("user", "Griha pravesh is done! Two hundred people came. Now only the small matter of shifting the furniture "
                 "on the 1st.", feb),
        ("user", "We got the flat! Griha pravesh is fixed for the 19th of February, panditji says.", jan)])
    assert when_answer(r) == "19 February 2026."


def test_asked_in_the_past_a_time_said_with_no_tense_is_the_nearer() -> None:
    """"When was the rugby club's Burns supper?" after "I've been asked to do the Address at the rugby club's Burns
    supper on the 24th", said on 12 January: the 24th of January, not of the December before (everyday87's first
    run), though the question is in the past."""
    from assistant.when import time_meant

    jan = datetime(2026, 1, 12, 18, 0, tzinfo=UTC)
    r = _heard("When was the rugby club's Burns supper?", [
        ("user", "I've been asked to do the Address to a Haggis at the rugby club's Burns supper on the 24th.", jan)])
    found = time_meant(r)
    assert found is not None and found[1] == "24 January 2026"


def test_a_word_spelt_the_other_way_grounds_the_answer() -> None:
    """"How far did I walk on the Camino?" "You walked 115 kilometers…" from "a hundred and fifteen kilometres": the
    model's American spelling is the user's British word (everyday81: turned down as ungrounded)."""
    from assistant.answer import ungrounded

    q = "How far did I walk on the Camino?"
    r = _heard(q, [("user", "Did the last stretch of the Camino, a hundred and fifteen kilometres in five days.",
                    MAY_20)])
    r.asked, r.personal = "", True
    assert not ungrounded("You walked 115 kilometers on the Camino.", q, r)
    q = "What colour is the new sofa?"
    r = _heard(q, [("user", "The new sofa's a lovely dark green colour, Jim hates it.", MAY_20)])
    r.asked, r.personal = "", True
    assert not ungrounded("It's a dark green color.", q, r)


@pytest.mark.parametrize(("question", "said", "answer", "instead"), [
    # renamed in newer words that say the old name, or a word of the question: the new name
    ("What's my boat called?", ["I bought a dinghy and the old owner had named her Salty Sue.",
                                "I finally renamed the boat. Salty Sue got too many jokes at the club, so she's "
                                "Sea Biscuit now."], "Salty Sue.", "Sea Biscuit."),
    ("What's our band called?", ["Me and the lads started a band, we're calling it the Damp Squibs.",
                                 "We've changed the band's name because a band in Leeds had it already, it's "
                                 "Static Parade now."], "The Damp Squibs.", "Static Parade."),
    ("What's my choir called?", ["I've joined a choir, the Friday Larks.",
                                 "We changed our name. The Friday Larks was too twee, we're now called Night Shift."],
     "The Friday Larks.", "Night Shift."),
    # a new name decided on (everyday87: "Gary's a girl. She laid a clutch of eggs… Mason's decided she's Gabby now")
    ("What's Mason's bearded dragon called?", ["Mason's got his bearded dragon. He's called him Gary.",
                                               "Plot twist: Gary's a girl. Mason's decided she's Gabby now."],
     "Gary", "Gabby."),
    ("What's Mason's bearded dragon called?", ["Mason's got his bearded dragon. He's called him Gary.",
                                               "Mason's decided she's happier in the big tank now."], "Gary", None),
    # the answer is the new name already; or the renaming is older than the name answered; or of something else
    ("What's my boat called?", ["I bought a dinghy and the old owner had named her Salty Sue.",
                                "I finally renamed the boat, she's Sea Biscuit now."], "Sea Biscuit.", None),
    ("What's my boat called?", ["My cousin renamed his café, it's Bean There now.",
                                "I bought a dinghy and the old owner had named her Salty Sue."], "Salty Sue.", None),
    ("What's my boat called?", ["I bought a dinghy and the old owner had named her Salty Sue.",
                                "My cousin renamed his café, it's Bean There now."], "Salty Sue.", None),
])
def test_a_name_given_anew_in_newer_words_is_the_answer(question: str, said: list[str], answer: str,
                                                         instead: str | None) -> None:
    """Asked what something is called, the small model read the first name in the words ("Wet Blanket was getting
    too many laughs… She's Second Wind now": everyday82 said the old name of a kayak, a shop and a quartet)."""
    from assistant.answer import renamed_since

    r = _heard(question, [("user", text, MAY_20 + timedelta(days=30 * i)) for i, text in enumerate(said)])
    assert renamed_since(answer, question, r) == instead


@pytest.mark.parametrize("odd", ["", "?", "renamed", "It's Now now", "changed the name " * 100, "\x00\ufffd",
                                 "'; DROP TABLE arcs; --"])
def test_stop_62s_name_reader_takes_odd_text_without_harm(odd: str) -> None:
    from assistant.answer import renamed_since
    from memory.names import new_name

    assert new_name(odd) in (None, "Now")
    r = _heard(odd, [("user", odd, MAY_20)])
    assert renamed_since(odd, odd, r) is None


@pytest.mark.parametrize("odd", ["", "   ", "?", "Why", "How old when", "\x00\ufffd", "'; DROP TABLE arcs; --",
                                 "a — no, " * 500, " — " * 500, "Black bin's — no, hang on, it's " * 50])
def test_stop_63s_readers_and_checks_take_odd_text_without_harm(odd: str) -> None:
    """Blank, cut-off or hostile text through this stop's readers (a clause mended, a number said, a "when" clause,
    a record asked, the names of people asked, a miscount's words): no error, nothing said instead of nothing."""
    from assistant.answer import asks_now, no_name_given, says_a_number, vetted
    from memory.periods import mended

    assert isinstance(mended(odd), str) and len(mended(odd)) <= len(odd)
    assert says_a_number(odd) is False
    analyse(odd)  # no error
    asks_now(odd)
    r = _heard(odd, [("user", odd, MAY_20)])
    assert not no_name_given(odd, odd, r)  # no name asked
    vetted(odd or "?", odd, r)  # no error


@pytest.mark.parametrize("odd", ["", "   ", "?", "How many", "How many  have we got?", "\x00\ufffd",
                                 "'; DROP TABLE arcs; --", "eighteen — sorry, " * 400, "on the 8th — no, the " * 300,
                                 "fixed for " * 500, "What night do " * 200])
def test_stop_64s_readers_and_checks_take_odd_text_without_harm(odd: str) -> None:
    """Blank, cut-off or hostile text through this stop's readers (a number or a day mended, a time fixed for, a
    count of pets, a reason or a weekday asked): no error, nothing said instead of nothing."""
    from assistant.answer import ungrounded
    from assistant.counts import one_of, pets_now
    from memory.periods import mended, named_time
    from memory.recall.intent import asks_a_weekday, asks_why

    assert isinstance(mended(odd), str) and len(mended(odd)) <= len(odd) + len(" of September")
    named_time(odd, AT)  # no error
    one_of(odd)
    asks_why(odd), asks_a_weekday(odd)
    r = _heard(odd, [("user", odd, MAY_20)])
    assert pets_now(r) is None  # no animals, nothing counted
    when_answer(r)  # no error
    ungrounded(odd or "?", odd, r)  # no error


@pytest.mark.parametrize("question, answer, facts, said, other", [
    # the user's sister, never said to be the instructor (everyday88: "What was my tandem instructor's name?"
    # "Leanne", the sister who watched from the sand)
    ("What was my tandem instructor's name?", "Leanne", [_held("Leanne", "sibling_of", "User", label="sister")],
     "My sister Leanne says she'll watch from the sand.", True),
    ("Who's my mentor at the court?", "Dev.", [_held("Dev", "neighbour_of", "User")],
     "Dev next door says the court's a zoo on Mondays.", True),
    ("What's my driving instructor called?", "Tom.", [_held("Tom", "spouse_of", "User", label="husband")],
     "Tom says I'm ready for the test.", True),
    # said with what is asked, or what is held is what is asked: the answer stands
    ("What was my tandem instructor's name?", "Leanne", [_held("Leanne", "sibling_of", "User", label="sister")],
     "My sister Leanne was my instructor, would you believe.", False),
    ("What's my sister called?", "Leanne.", [_held("Leanne", "sibling_of", "User", label="sister")],
     "My sister Leanne says she'll watch from the sand.", False),
    ("Who's my manager?", "Karen.", [_held("User", "reports_to", "Karen")], "Karen wants the report by Friday.",
     False),
    # someone memory holds no role of is left to the other checks
    ("What was my tandem instructor's name?", "Gill.", [_held("Leanne", "sibling_of", "User", label="sister")],
     "Gill strapped me in and we jumped.", False),
])
def test_a_name_held_in_another_role_is_no_answer(question: str, answer: str, facts: list[Arc], said: str,
                                                  other: bool) -> None:
    from assistant.answer import held_another_role
    r = _talk(question, "", [("user", said)])
    r.facts = facts
    assert held_another_role(answer, question, r) is other


@pytest.mark.parametrize(("question", "facts", "newest_first"), [
    # one of the user's own people asked by name is asked as "my brother" is (everyday89: "Where does Vikram live?"
    # answered with Toronto, read first, after "to Calgary, not Toronto; he moved west")
    ("Where does Vikram live?", [_held("Vikram", "sibling_of", "User", label="brother")], True),
    ("What does Shona do?", [_held("User", "friend_of", "Shona")], True),
    ("Where did Vikram live?", [_held("Vikram", "sibling_of", "User", label="brother")], False),  # asked of the past
    ("Where does Vikram live?", [_held("Vikram", "sibling_of", "User", label="brother", ended=True)], False),
    ("Where does Vikram live?", [_held("Vikram", "friend_of", "Maria")], False),  # someone else's
    ("Where does Vikram live?", [], False),
])
def test_one_of_the_users_people_asked_by_name_reads_the_newest_words_first(question: str, facts: list[Arc],
                                                                            newest_first: bool) -> None:
    from assistant.answer import asks_now
    r = RecallResult(question, analyse(question), [], [], "now", personal=True)
    r.facts = facts
    assert asks_now(question, r) is newest_first


def test_few_utterances_found_are_given_longer() -> None:
    """One utterance found may be given beyond the usual cut, within the budget: the sentence that answers shares
    no word with the question ("How long will the parcel take?" after the parcel's contents, then "…the courier
    reckons about six weeks"), and had been cut (everyday88)."""
    contents = ("Finally sealed the parcel for Gran in Kochi — tea, two jars of marmalade, a cardigan she will say is "
                "too warm, knitting needles, three paperbacks, photos of the twins at sports day and a calendar of "
                "Cornish harbours that she asked for by name. ")
    told = ("The courier collects from ours on Friday morning, and the man on the phone reckons about six weeks by "
            "sea, so it should just make her birthday in March.")
    q = "How long will the parcel take to get there?"
    one = said_lines(_heard(q, [("user", contents + told, MAY_20)]))
    assert "six weeks" in one[0]
    many = said_lines(_heard(q, [("user", contents + told, MAY_20)] + [("user", contents, JUNE_3)] * 3))
    assert not any("six weeks" in line for line in many)  # many found: each cut to what shares the question's words


@pytest.mark.parametrize("odd", ["", "   ", "?", "How many", "How many  are there?", "\x00\ufffd",
                                 "'; DROP TABLE arcs; --", "down to three now, " * 400,
                                 "on the 9th. In December. " * 300, "a week ago yesterday " * 300, "What's my  called?",
                                 "Who's my " * 200])
def test_stop_65s_readers_and_checks_take_odd_text_without_harm(odd: str) -> None:
    """Blank, cut-off or hostile text through this stop's readers (a count held now, each sentence dated, a day of
    the month said alone, a name held in another role, a span "in a day"): no error, and nothing said of no count."""
    from assistant.answer import held_another_role
    from assistant.counts import count_now
    from memory.extraction.dates import exact_number, in_figures, resolve

    assert isinstance(dated(odd, AT), str) and len(dated(odd, AT)) >= len(odd)
    resolve(odd, AT), exact_number(odd[:40]), in_figures(odd)  # no error
    r = _heard(odd, [("user", odd, MAY_20)])
    assert count_now(odd, r) is None  # no kind asked, no count held of it
    assert held_another_role(odd or "?", odd, r) is False  # no role held by anyone
    hens = _heard("How many hens do we have?", [("user", odd, MAY_20)])
    assert count_now("Six.", hens) is None  # no words of hens, nor of anything else asked


def test_asked_what_holds_now_an_answer_from_words_later_ones_overtake_is_asked_again_on_those() -> None:
    """"What's my Go rank now?" "You are currently at 3 kyu." from "I'm 3 kyu now", with "they've promoted me to 1
    kyu!" said since and listed first: the small model took the older words (five of everyday90/91's first run);
    handed the later words alone it answered all five. Only later words on the same thing (a word of the source's
    shared), only when the answer says what they do not, only asked of now."""
    from assistant.answer import overtaken_by
    old = ("user", "I'm 3 kyu now at the Go club in Manchester, two years of Wednesday nights.", MAY_20)
    new = ("user", "Went undefeated at the Go tournament in Leamington and they've promoted me to 1 kyu!", JUNE_3)
    aside = ("user", "The boiler's broken again.", JUNE_3)
    q = "What's my Go rank now?"
    r = _heard(q, [old, new, aside])
    r.personal = True
    found = overtaken_by("You are currently at 3 kyu.", q, r)
    assert found is not None and [e.text for e in found.later] == [new[1]] and "manchester" in found.topic
    assert overtaken_by("You are at 1 kyu.", q, r) is None  # the later words say it
    assert overtaken_by("I don't know.", q, r) is None
    assert overtaken_by("You are currently at 3 kyu.", "What was my Go rank in May?", _heard(
        "What was my Go rank in May?", [old, new])) is None  # asked of a past
    assert overtaken_by("You are currently at 3 kyu.", q, _heard(q, [old, aside])) is None  # nothing on the thing
    # numbers in words count as their figures: "thirty-three" does not say "thirty-one" again
    q2 = "How many countries have I been to?"
    r2 = _heard(q2, [("user", "I've been to thirty-one countries now, the scratch map says.", MAY_20),
                     ("user", "Bhutan and Nepal done! Two new countries, so that's thirty-three.", JUNE_3)])
    r2.personal = True
    assert overtaken_by("You have been to thirty-one countries.", q2, r2) is not None
    # of utterances sharing as many of the answer's words, the older is its source ("thirty-one" and "two new
    # ones, so that's thirty-three" share "thirty" and "one" word by word)
    r3 = _heard(q2, [("user", "Bhutan and Nepal done! Two new ones, so that's thirty-three.", JUNE_3),
                     ("user", "I've been to thirty-one countries now, the scratch map says.", MAY_20)])
    r3.personal = True
    assert overtaken_by("You have been to thirty-one countries.", q2, r3) is not None


def test_an_answer_asked_again_on_later_words_stands_only_on_words_that_go_on_with_the_thing() -> None:
    """The answer asked again on the later words is said only when it is one, stands on them, and is said in or
    beside a sentence that goes on with the old words' thing: "What position does Oisín play?" "Corner-back." (from
    "picked for the Mayo minors! Corner-back.") had been turned into "Full-forward." from "Oisín kept their
    full-forward scoreless", said of a final lost (everyday89)."""
    from assistant.answer import _content, answer_on_later

    def topic(said: str) -> frozenset[str]:
        return frozenset(_content(said))

    q = "What's my Go rank now?"
    later = _heard(q, [("user", "Went undefeated at the Go tournament and they've promoted me to 1 kyu!", JUNE_3)])
    later.personal = True
    go = topic("I'm 3 kyu now at the Go club in Manchester.")
    assert answer_on_later("You are currently at 1 kyu. Well done!", q, later, go) == "You are currently at 1 kyu."
    assert answer_on_later("I don't know.", q, later, go) is None
    assert answer_on_later("You are 3 kyu.", q, later, go) is None  # not what the later words say
    q2 = "How many countries have I been to?"
    later2 = _heard(q2, [("user", "Bhutan and Nepal done! Two new ones, so that's thirty-three.", JUNE_3)])
    later2.personal = True
    assert answer_on_later("You have been to 33 countries.", q2, later2, topic(
        "I've been to thirty-one countries now, the scratch map says.")) == (
        "You have been to 33 countries.")
    q3 = "What position does Oisín play?"
    final = _heard(q3, [("user", "Connacht minor final today in Tuam and we lost to Galway by two points. Two points! "
                                 "Oisín kept their full-forward scoreless, mind you.", JUNE_3)])
    final.personal = True
    picked = topic("Oisín's been picked for the Mayo minors! Corner-back. Training's Tuesday and Friday nights in "
                   "Castlebar.") - {"oisin"}
    assert answer_on_later("Full-forward.", q3, final, picked) is None
    traded = _heard("What team does Ethan play for?", [(
        "user", "Plot twist: Ethan got traded to the Moose Jaw Warriors. So he's billeting in Moose Jaw now.", JUNE_3)])
    traded.personal = True
    assert answer_on_later("The Moose Jaw Warriors.", "What team does Ethan play for?", traded, topic(
        "Ethan got drafted by the Brandon Wheat Kings. He'll billet with a family from the fall.") - {"ethan"}) == (
        "The Moose Jaw Warriors.")


def test_asked_when_the_one_event_is_a_repeat_beside_its_date_is_no_answer() -> None:
    """"When is the Stray Kids concert?" "Every morning.", from "It's Stray Kids in the truck every morning now, and
    I've got us two tickets for their show on the 13th of June" (everyday90): asked when the one thing is, a repeat
    said in a clause without it, beside a date, is not its time. Asked of the user's own class, a repeat stands."""
    truck = ("user", "It's Stray Kids in the truck every morning now, and I've got us two tickets for their show in "
                     "Dallas on the 13th of June.", MAY_20)
    assert when_answer(_heard("When is the Stray Kids concert?", [truck])) == "13 June 2023."
    yoga = ("user", "I've got yoga every Tuesday evening, starting on the 3rd of June.", MAY_20)
    assert when_answer(_heard("When is my yoga class?", [yoga])) == "Every Tuesday evening."


@pytest.mark.parametrize(("question", "position"), [
    ("Where did Lachie finish in the Camel Cup?", True), ("Where did I come in the parkrun?", True),
    ("where does Mia rank in the county", True),
    ("Where did Lachie ride in the Camel Cup?", False), ("Where did I finish?", False),  # no race named
    ("What place did I finish in?", False),  # a place in the order asked in its own words
])
def test_asked_where_someone_finished_a_place_in_the_order_is_asked(question: str, position: bool) -> None:
    """"Where did Lachie finish in the Camel Cup?" "Alice Springs." (everyday90): the small model gave the town;
    told a place in the order is asked, "Lachie finished fourth"."""
    from memory.recall.intent import asks_a_position
    assert asks_a_position(question) is position
    prompt = messages(question, _result([], question=question), AT, [])[-1]["content"]
    assert ("(a place in the order: first, second…)" in prompt) is position


@pytest.mark.parametrize("odd", ["", "   ", "?", "How did", "Where did  finish in", "\x00\ufffd",
                                 "'; DROP TABLE arcs; --", "number three " * 400, "on Friday now, the " * 300,
                                 "How many koi do I have now? lost two of my " * 200, "Salt, Pepper and " * 300])
def test_stop_66s_readers_and_checks_take_odd_text_without_harm(odd: str) -> None:
    """Blank, cut-off or hostile text through this stop's readers (a way or a place in the order asked, words
    overtaken, a count changed, a weekday with its day, a repeat beside a date): no error, nothing said of nothing."""
    from assistant.answer import answer_on_later, overtaken_by
    from assistant.counts import count_after
    from memory.extraction.dates import resolve
    from memory.recall.intent import asks_a_day_of_it, asks_a_position, asks_how_it_happened

    asks_how_it_happened(odd), asks_a_position(odd), asks_a_day_of_it(odd)
    resolve(odd, AT)
    assert isinstance(dated(odd, AT), str)
    r = _heard(odd or "?", [("user", odd, MAY_20), ("user", odd, JUNE_3)])
    r.personal = True
    overtaken_by(odd, odd, r)
    assert answer_on_later(odd, odd, r, frozenset({odd})) is None or odd.strip()
    assert count_after(odd, r) is None  # no count said of nothing
    from assistant.counts import priced_from_nothing, sums_said
    assert isinstance(sums_said(odd), set) and isinstance(priced_from_nothing(odd, [odd]), bool)
    when_answer(r)  # no error


def test_an_answer_in_figures_is_overtaken_by_later_words_as_one_in_words() -> None:
    """"How many Munros have I done?" "23 Munros." from "Munro number twenty-three for me", with "Three more ticked
    off in Glen Coe, so I'm on twenty-six now" said since (everyday88): the answer's "23" is the words'
    "twenty-three", so its source is found and the later words overtake it."""
    from assistant.answer import overtaken_by
    q = "How many Munros have I done?"
    r = _heard(q, [("user", "Ben Lawers yesterday with Bracken, Munro number twenty-three for me.", MAY_20),
                   ("user", "Three more ticked off in Glen Coe with Bracken, so I'm on twenty-six now.", JUNE_3)])
    r.personal = True
    found = overtaken_by("23 Munros.", q, r)
    assert found is not None and len(found.later) == 1


def test_an_old_value_named_later_as_ended_is_not_said_again() -> None:
    """"What's my favourite board game?" "Catan." with "I've gone right off Catan… Wingspan's my game these days"
    said since (everyday92; "I've retired Dancing Queen for good", everyday93): the later words name the old value
    only to end it, so they overtake the answer. Named as holding still, they do not."""
    from assistant.answer import overtaken_by
    q = "What's my favourite board game?"
    old = ("user", "Board game night at Kofi's, Catan, obviously. It's my favourite game.", MAY_20)
    for later, overtaken in [("Honestly, I've gone right off Catan. Wingspan's my game now, Kofi says.", True),
                             ("I've retired Catan for good. Wingspan's my game now, Kofi says.", True),
                             ("Catan again at Kofi's, still my favourite game.", False),
                             # ended in one clause, named again in another (everyday94's "I've packed in tennis for
                             # pickleball… Tennis can keep its sore elbows"): still ended
                             ("I've gone off Catan for Wingspan at Kofi's. Catan can keep its sheep.", True)]:
        r = _heard(q, [old, ("user", later, JUNE_3)])
        r.personal = True
        assert (overtaken_by("Catan.", q, r) is not None) is overtaken


def test_asked_how_many_a_count_nothing_said_gives_is_a_guess() -> None:
    """"How many people came to my TEDx talk?" "You said 16 people came to your TEDx talk." when only "eleven
    minutes" was said (everyday92): a count above what a list names, that no number said is or makes, is a guess.
    One said, or worked out from two said ("nine", then "two of my koi"), stands; so does a small count of a list."""
    from assistant.answer import ungrounded
    q = "How many people came to my TEDx talk?"
    r = _heard(q, [("user", "Gave my TEDx talk on Friday, eleven minutes on mangroves, and a full hall.", MAY_20)])
    r.personal = True
    assert ungrounded("You said 16 people came to your TEDx talk.", q, r)
    assert not ungrounded("12 people came to your TEDx talk.", q, r)  # eleven and one more: the model's to work out
    q2 = "How many koi do I have now?"
    r2 = _heard(q2, [("user", "Nineteen koi in the pond!", MAY_20), ("user", "A heron had two of my koi.", JUNE_3)])
    r2.personal = True
    assert not ungrounded("17 koi.", q2, r2) and not ungrounded("19 koi.", q2, r2)
    assert ungrounded("40 koi.", q2, r2)


def test_words_of_anyone_at_all_are_not_asked_again_on_later_ones() -> None:
    """Asked of someone who is none of the user's, without "now" (LoCoMo's "What organization is John teaming up
    with for his charity work?"), the answer from older words stands: asked again on later words, two of three such
    answers of the LoCoMo sample were lost. Asked of a best time, the newest words hold it."""
    from assistant.answer import overtaken_by
    old = ("John", "I'm teaming up with a local organization that helps kids with sports.", MAY_20)
    new = ("John", "The charity work is about giving young athletes more chances, kids and sports.", JUNE_3)
    q = "What organization is John teaming up with for his charity work?"
    r = _heard(q, [old, new])
    r.personal = True
    assert overtaken_by("A local organization that helps kids with sports.", q, r) is None
    q2 = "What's Zayan's best time on the Rubik's cube?"
    r2 = _heard(q2, [("user", "Zayan's Rubik's cube best is 14.2 seconds, at the competition in Leicester.", MAY_20),
                     ("user", "Zayan smashed it, 11.8 seconds at the Nottingham competition!", JUNE_3)])
    r2.personal = True
    assert overtaken_by("14.2 seconds.", q2, r2) is not None


def test_asked_what_something_cost_a_sum_no_words_said_is_a_guess() -> None:
    """"How much did the surf camp cost?" "Approximately 400 times." when only "fell off about four hundred times"
    was said (everyday93): asked a price, a number said of no money is no answer. A sum said in any way ("eighteen
    hundred quid", "£1,800", "two grand"), or made of sums said ("forty quid each" for four), stands."""
    from assistant.answer import ungrounded
    surf = [("user", "A week at surf camp in Taghazout: stood up on day three, then fell off about four hundred times.",
             MAY_20)]
    q = "How much did the surf camp cost?"
    r = _heard(q, surf)
    r.personal = True
    assert ungrounded("Approximately 400 times.", q, r) and ungrounded("£400.", q, r)
    boat = [("user", "Picked up a Hobie 16 for eighteen hundred quid off a fella in Wexford.", MAY_20)]
    q2 = "What did the catamaran cost me?"
    r2 = _heard(q2, boat)
    r2.personal = True
    for said in ("£1,800.", "1800 pounds.", "1,800.", "Eighteen hundred quid."):
        assert not ungrounded(said, q2, r2), said
    assert ungrounded("£2,000.", q2, r2)
    gig = [("user", "Tickets for the Fontaines gig were forty quid each and there were four of us going.", MAY_20)]
    q3 = "How much did we spend on the Fontaines tickets?"
    r3 = _heard(q3, gig)
    r3.personal = True
    assert not ungrounded("£160.", q3, r3) and not ungrounded("£40 each.", q3, r3)


@pytest.mark.parametrize(("text", "sums"), [("eighteen hundred quid", {1800}), ("it was £1,250 all in", {1250}),
                                            ("cost me 2.5k", {2500}), ("forty-five euros each", {45}),
                                            ("best fiver I ever spent", {5}), ("R350 at the door", {350}),
                                            ("fell off about four hundred times", set()), ("3 kids, 2 dogs", set()),
                                            ("two grand", {2000}), ("£12.50 for the pair", {12})])
def test_sums_of_money_are_read_as_said(text: str, sums: set[int]) -> None:
    from assistant.counts import sums_said
    assert sums_said(text) == sums


@pytest.mark.parametrize(("question", "day_of_it"), [
    ("On which day of surf camp did I first stand up?", True), ("What day of the trek did it snow?", True),
    ("which night of the festival did we lose the tent", True),
    ("Which day of the week is bin day?", False), ("What day of the month is rent due?", False),
    ("Which day did I fly out?", False), ("What day do I work at the garden centre?", False),
])
def test_asked_which_day_of_a_stretch_of_days_its_place_is_asked(question: str, day_of_it: bool) -> None:
    """"On which day of surf camp did I first stand up?" answered with a date (everyday93): the day's place in the
    camp is asked ("the third"), not when it was; "which day of the week" or "of the month" is no such place."""
    from memory.recall.intent import analyse, asks_a_day_of_it
    assert asks_a_day_of_it(question) is day_of_it
    if day_of_it:
        assert not analyse(question).when
    prompt = messages(question, _result([], question=question), AT, [])[-1]["content"]
    assert ("(which day of it: the first, second…, not a date)" in prompt) is day_of_it
