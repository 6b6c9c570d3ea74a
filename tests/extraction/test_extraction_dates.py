"""Table tests for resolving time expressions against a turn's timestamp."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from memory.extraction.dates import birthday, exact_number, month_day, resolve, shift_months, tense, words_of

AT = datetime(2026, 6, 2, 18, 30, tzinfo=UTC)  # a Tuesday


def d(y: int, m: int, day: int) -> datetime:
    return datetime(y, m, day, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "when", "grain"),
    [
        ("We moved yesterday.", d(2026, 6, 1), "day"),
        # ahead by days: tomorrow, a week on from a day, a count of days or weeks ahead (a day)
        ("The plumber's coming tomorrow.", d(2026, 6, 3), "day"),
        ("the day after tomorrow", d(2026, 6, 4), "day"),
        ("It's Grace's birthday a week tomorrow.", d(2026, 6, 10), "day"),
        ("The fair's a week on Friday.", d(2026, 6, 12), "day"),
        ("The fair's a week from Thursday.", d(2026, 6, 11), "day"),
        # "<weekday> week": the same (everyday80: "I start … on Monday week" had been the coming Monday)
        ("Our Jack goes back on Thursday week.", d(2026, 6, 11), "day"),
        ("Friday week's the deadline for the forms.", d(2026, 6, 12), "day"),
        # more weeks on from a day, the one after the coming one, two back, a day by its place in a month
        ("The party's a fortnight on Saturday.", d(2026, 6, 20), "day"),
        ("We'll go Saturday fortnight.", d(2026, 6, 20), "day"),
        ("Three weeks on Friday we fly.", d(2026, 6, 26), "day"),
        ("The exam's the Monday after next.", d(2026, 6, 15), "day"),
        ("It happened the weekend before last.", d(2026, 5, 23), "weekend"),
        ("I start on the first of next month.", d(2026, 7, 1), "day"),
        ("Her wedding is the last Saturday in July.", d(2026, 7, 25), "day"),  # not "last Saturday"
        ("The fête is the second Sunday of June.", d(2026, 6, 14), "day"),
        ("We had our first Diwali in the new house last night.", d(2026, 6, 1), "day"),
        # a week back from a day (everyday88: "Opened a week ago yesterday" had been the week before)
        ("The café opened a week ago yesterday.", d(2026, 5, 25), "day"),
        ("Mum's hip was done a week yesterday.", d(2026, 5, 25), "day"),
        ("We got the keys a week ago today.", d(2026, 5, 26), "day"),
        ("Gran came home a fortnight ago yesterday.", d(2026, 5, 18), "day"),
        # a date with its weekday said before it; a day of the month said as a word, at a clause's end
        ("The plumber's coming Tuesday the first of December.", d(2026, 12, 1), "day"),
        ("Chimney sweep's booked for the twelfth, first thing in the morning.", d(2026, 6, 12), "day"),
        ("The sweep's coming for the 12th.", d(2026, 6, 12), "day"),
        ("The school fair's in a fortnight.", d(2026, 6, 16), "day"),
        ("We fly out in three days.", d(2026, 6, 5), "day"),
        ("The results are out in two months.", d(2026, 8, 2), "month"),
        ("the day before yesterday", d(2026, 5, 31), "day"),
        ("Today was my first day", d(2026, 6, 2), "day"),
        ("Anna moved to Lisbon last week.", d(2026, 5, 26), "week"),
        ("I left Saint Mary's last month.", d(2026, 5, 2), "month"),
        ("I started this month", d(2026, 6, 1), "month"),
        ("this year", d(2026, 1, 1), "year"),
        ("We married two years ago.", d(2024, 6, 2), "year"),
        ("three weeks ago", d(2026, 5, 12), "week"),
        ("a couple of months ago", d(2026, 4, 2), "month"),
        ("10 days ago", d(2026, 5, 23), "day"),
        ("I've lived here for five years", d(2021, 6, 2), "year"),
        ("We met in 2019.", d(2019, 1, 1), "year"),
        ("I have worked there since March.", d(2026, 3, 1), "month"),
        ("since September", d(2025, 9, 1), "month"),
        ("in March 2020", d(2020, 3, 1), "month"),
        ("last Friday", d(2026, 5, 29), "day"),
        ("on the ninth of August", d(2026, 8, 9), "day"),  # no tense: the nearer (ahead, not ten months back)
        ("on May 3rd", d(2026, 5, 3), "day"),
        ("on 14 July 2021", d(2021, 7, 14), "day"),
        ("next month", d(2026, 7, 2), "month"),
        # seasons (meteorological, northern): 2 June is in summer, so "last summer" is the one before
        ("We went camping last summer.", d(2025, 6, 1), "season"),
        ("last spring", d(2026, 3, 1), "season"),
        ("I'm skiing this winter", d(2026, 12, 1), "season"),
        ("this summer", d(2026, 6, 1), "season"),
        ("next autumn", d(2026, 9, 1), "season"),
        ("last fall", d(2025, 9, 1), "season"),
        # ahead of the turn, counted from it
        ("Probably around six months from now.", d(2026, 12, 2), "month"),
        ("two weeks from now", d(2026, 6, 16), "week"),
        ("The play is in three weeks' time.", d(2026, 6, 23), "week"),
        ("We got her a fortnight ago.", d(2026, 5, 19), "week"),
        # weekends counted, to their Saturday (2 June 2026 is a Tuesday: last weekend's Saturday is 30 May)
        ("I went hiking two weekends ago.", d(2026, 5, 23), "weekend"),
        ("a couple of weekends from now", d(2026, 6, 13), "weekend"),
        # "after next": two ahead, at its grain
        ("We're driving up the week after next.", d(2026, 6, 16), "week"),
        ("the weekend after next", d(2026, 6, 13), "weekend"),
        ("the month after next", d(2026, 8, 2), "month"),
        # a month named with which one (said on 2 June): the next after this month, the last before it, this year's
        ("Signed up for the London marathon next April.", d(2027, 4, 1), "month"),
        ("We're off next July.", d(2026, 7, 1), "month"),
        ("I saw her last October.", d(2025, 10, 1), "month"),
        ("We met last June.", d(2025, 6, 1), "month"),
        ("The clocks change this March.", d(2026, 3, 1), "month"),
        # a date or month without a year, and which year after it
        ("Lou is getting married on 12 June next year.", d(2027, 6, 12), "day"),
        ("We moved in June last year.", d(2025, 6, 1), "month"),
        # a month said by its part (said on 2 June; past unless said ahead)
        ("We met at the end of January.", d(2026, 1, 1), "month"),
        ("Things have been mad since the start of March.", d(2026, 3, 1), "month"),
        ("I saw her early May.", d(2026, 5, 1), "month"),
        ("We met in late April 2019.", d(2019, 4, 1), "month"),
        # a month something was moved to: the next one (said on 2 June), or the year said
        ("They've moved the wedding to August because the venue flooded.", d(2026, 8, 1), "month"),
        ("The gig got pushed back to March.", d(2027, 3, 1), "month"),
        ("We postponed the party until June 2027.", d(2027, 6, 1), "month"),
    ],
)
def test_resolve(text: str, when: datetime, grain: str) -> None:
    ref = resolve(text, AT)
    assert ref is not None
    assert (ref.when, ref.grain) == (when, grain)


@pytest.mark.parametrize(("text", "direction", "when"), [
    ("My last shift's on the 30th.", None, d(2026, 6, 30)),  # said in the present: ahead, this month
    ("The party is on the 1st.", None, d(2026, 7, 1)),  # the 1st has passed this month: next month's
    ("We moved in on the 1st.", "past", d(2026, 6, 1)),
    ("It arrived on the 20th.", "past", d(2026, 5, 20)),  # not yet this month: last month's
    ("The scan is on the 9th of July.", None, d(2026, 7, 9)),  # a month said: read as a date with its month,
    # the nearer of its years when no tense tells (not the July of last year)
])
def test_a_day_of_the_month_said_alone(text: str, direction: str | None, when: datetime) -> None:
    ref = resolve(text, AT, direction=direction)  # type: ignore[arg-type]
    assert ref is not None and ref.when == when


@pytest.mark.parametrize("text", ["We're on the third floor.", "It was for the first time.", "on the second go"])
def test_an_ordinal_said_of_something_else_is_no_day_of_the_month(text: str) -> None:
    assert resolve(text, AT) is None


@pytest.mark.parametrize("text", ["I talked to May about it.", "They moved it to may be later."])
def test_a_month_name_after_to_is_no_time_unless_something_was_moved_to_it(text: str) -> None:
    assert resolve(text, AT) is None


@pytest.mark.parametrize(("text", "direction", "when"), [
    ("The do is on Christmas Eve.", "future", d(2026, 12, 24)),
    ("Nan passed away on Boxing Day.", "past", d(2025, 12, 26)),
    ("We're at my sister's for Christmas.", "future", d(2026, 12, 25)),
    ("Booked the restaurant for Valentine’s Day.", "future", d(2027, 2, 14)),
    ("It was St. Patrick's Day, the parade was mad.", "past", d(2026, 3, 17)),
    # days that move with Easter (Easter Sunday: 5 April 2026, 28 March 2027), "next" the coming one
    ("The christening's next Easter Sunday.", None, d(2027, 3, 28)),
    ("We walked up Slieve Donard on Good Friday.", "past", d(2026, 4, 3)),
    ("The shop shuts over Easter.", "future", d(2027, 3, 28)),
    ("Mam had us all round last Easter.", None, d(2026, 4, 5)),
    ("The derby's on Easter Monday.", "future", d(2027, 3, 29)),
])
def test_a_day_of_the_year_said_by_its_name(text: str, direction: str, when: datetime) -> None:
    ref = resolve(text, AT, direction=direction)  # type: ignore[arg-type]
    assert ref is not None and ref.when == when


@pytest.mark.parametrize("text", ["I love the Christmas jumper she knitted.", "He's a proper Halloweener.",
                                  "Got the new Boxing gloves.", "The kids ate every Easter egg in the house."])
def test_a_word_of_a_day_s_name_that_names_no_day(text: str) -> None:
    assert resolve(text, AT, direction="future") is None


def test_a_day_the_month_lacks_is_no_time() -> None:
    assert resolve("on the 31st", datetime(2026, 6, 2, tzinfo=UTC), direction="future") is None


@pytest.mark.parametrize(
    "text",
    ["I live in Porto.", "I drink three cups every morning.", "for ten minutes please", "March on!", "",
     "This may take a while.", "Next, march them out.", "It's late, may I go?", "At the end of may be a twist.",
     "By the end of may be.",
     # the final night of a stay is no yesterday (everyday89: "on the last night the instructor…" read as yesterday)
     "On the last night we had a ceilidh in the village hall.", "That last night in Rome was magic."],
)
def test_no_time(text: str) -> None:
    assert resolve(text, AT) is None


def test_first_expression_wins_and_naive_is_utc() -> None:
    ref = resolve("yesterday, not last week", datetime(2026, 6, 2, 18, 30))
    assert ref is not None and ref.when == d(2026, 6, 1) and ref.text == "yesterday"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my birthday is on the ninth of August", "August 9"),
        ("it's August 9th", "August 9"),
        ("9 Aug", "August 9"),
        ("the twenty-first of March", "March 21"),
        ("the 31st of December", "December 31"),
        ("October the first", "October 1"),
        ("the thirty-first of February", None),
        ("sometime in August", None),
    ],
)
def test_birthday(text: str, expected: str | None) -> None:
    assert birthday(text) == expected


def test_month_day_returns_words() -> None:
    assert month_day("born on the 2nd of May, 1990") == (5, 2, "the 2nd of May")


def test_shift_months_clamps() -> None:
    assert shift_months(d(2026, 3, 31), -1) == d(2026, 2, 28)
    assert shift_months(d(2026, 1, 15), -13) == d(2024, 12, 15)


TUE = datetime(2026, 7, 14, 19, 0, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(("sentence", "expected"), [
    ("I passed my driving test on Friday!", "past"),  # a regular past verb after its subject
    ("I'm seeing her on Friday.", "future"),  # an arrangement
    ("We're getting married in June.", "future"),
    ("I will fly out on Monday.", "future"),
    ("I'm going to Rome this Saturday.", "future"),
    ("I booked a table for Saturday.", "future"),  # the booking is past, what it arranges is not
    ("They've rebooked the flight for the 4th of July.", "future"),  # so is a booking made again
    ("Got tickets for the Arctic Monkeys in July!", "future"),  # so are tickets got
    ("We had tickets for the match on Saturday but it was called off.", None),  # both: not clear
    ("I was at the park on Sunday.", "past"),
    # an arrangement with its "I'm" left out; not a noun in -ing, nor a doing that "was"
    ("Moving in on the 1st of May.", "future"),
    ("Flying out to Oslo on Friday.", "future"),
    ("Nothing beats a Stilton at Christmas.", None),
    ("Running the half on Sunday was brutal.", "past"),
    ("I'm so excited about Friday!", None),  # an adjective after "am" is no past verb
    ("We have an old cat.", None),
    ("I went there yesterday and I'm going back next week.", None),  # both: not clear
    # "a bit" is no past of "bite": the arrangement stands (it gave a June already gone)
    ("I'm having knee surgery on the 2nd of June, a bit nervous.", "future"),
    # a timetable's present ("I start in May"); not a noun after a determiner
    ("I start at Monzo in May.", "future"),
    ("We fly out on Friday.", "future"),
    ("I started in May.", "past"),
    ("A fresh start in May would be nice.", None),
    # what is expected is ahead ("should be", "due"); what should have been is not
    ("The puppy is due in April.", "future"),
    ("Exchange should be in February.", "future"),
    ("I should have called in April.", None),
    # a timetable's present or a past, said of someone by name or of a thing after its article
    ("My son Arlo starts school on Monday.", "future"),
    ("Arlo started school on Monday.", "past"),
    ("The course begins on Friday.", "future"),
    # an age turned, a retirement or a move on a day: the timetable's present too
    ("Mum turns seventy on the 14th of March.", "future"),
    ("Mum turned seventy in March.", "past"),
    ("Dad retires in June.", "future"),
    ("We move on the 3rd of June.", "future"),
    # "'ve got" is had now: what it has on a day is to come; got back is a past
    ("I've got the dentist on Wednesday morning, dreading it.", "future"),
    ("I've got back from Paris on Friday.", "past"),
    ("I got a new bike on Friday.", "past"),
    # a short past in "-ed" untagged ("died" is no "-ed" form of four letters or more)
    ("The boiler died on Wednesday.", "past"),
    ("The cat bled all over the rug on Sunday.", "past"),
    # signed up for what begins later, or a start said of it: ahead (everyday74's Welsh class "Tuesday nights from
    # September", said in August, had been last September)
    ("Enrolled at the tech for plumbing, Monday evenings from October.", "future"),
    ("I've registered for a first aid course starting in March.", "future"),
    ("I signed up for the gym in January.", "past"),
    ("I was starting to panic on Friday.", "past"),
    # a past that opens with its "I" left out, with its object (everyday89: "Passed my Day Skipper practical on
    # Friday!" gave no time); not an adjective ("Excited for Friday!") nor a name ("United play on Saturday")
    ("Passed my theory test on Friday!", "past"),
    ("Finished the last coat of paint on Sunday.", "past"),
    ("Picked up the new car on Saturday.", "past"),
    ("Excited for Friday!", None),
    ("United play on Saturday.", None),
    ("Mixed feelings about Friday.", None),
])
def test_tense_from_words(sentence: str, expected: str | None) -> None:
    assert tense(words_of(sentence)) == expected


def test_tense_reads_tags_when_there_are_some() -> None:
    assert tense([("I", "PRP"), ("ran", "VBD"), ("on", "IN"), ("Sunday", "NNP")]) == "past"
    # a past that opens with its "I" left out, tagged a participle ("Started at the plant on Monday")
    assert tense([("Started", "VBN"), ("at", "IN"), ("the", "DT"), ("plant", "NN"), ("on", "IN"),
                  ("Monday", "NNP")]) == "past"
    assert tense([("It", "PRP"), ("'s", "VBZ"), ("broken", "VBN"), ("since", "IN"), ("Monday", "NNP")]) is None
    # a plan word that names a kind of thing ("a planning officer") says nothing of the time
    assert tense([("Started", "VBN"), ("at", "IN"), ("the", "DT"), ("council", "NN"), ("on", "IN"), ("Monday", "NNP"),
                  (",", ","), ("as", "IN"), ("a", "DT"), ("planning", "NN"), ("officer", "NN")]) == "past"
    assert tense([("I", "PRP"), ("'m", "VBP"), ("planning", "VBG"), ("a", "DT"), ("party", "NN")]) == "future"
    assert tense([("I", ""), ("ran", ""), ("on", ""), ("Sunday", "")]) == "past"  # an irregular verb, untagged
    assert tense([("I", ""), ("finally", ""), ("passed", ""), ("it", "")]) == "past"  # an adverb between
    assert tense([("I", ""), ("run", ""), ("on", ""), ("Sundays", "")]) is None


@pytest.mark.parametrize(("sentence", "direction", "expected"), [
    ("I passed my driving test on Friday!", "past", date(2026, 7, 10)),
    ("I'm seeing her on Friday.", "future", date(2026, 7, 17)),
    ("We met on Tuesday.", "past", date(2026, 7, 7)),  # said on a Tuesday: the one before
    ("I passed my driving test on Friday!", None, None),  # which Friday is not clear: not resolved
    ("Every Friday I swim.", "past", None),
    ("In June my cousin and I are flying to Rome.", "future", date(2027, 6, 1)),  # June is over this year
    ("Mei is running the Berlin marathon in September.", "future", date(2026, 9, 1)),
    ("I moved here in September.", "past", date(2025, 9, 1)),
    ("I moved here in September.", None, date(2025, 9, 1)),  # no tense given, but a word of a past: the past
    ("The fête's in September.", None, date(2026, 9, 1)),  # no word of a past: the nearer
    ("Results are out at the end of August.", None, date(2026, 8, 1)),  # "the" may be left out, below
    ("Results are out end of August.", None, date(2026, 8, 1)),
    ("We're getting married on 3 August.", "future", date(2026, 8, 3)),
    ("We got married on 3 August.", "past", date(2025, 8, 3)),
    ("Salsa's Thursday nights from September.", "future", date(2026, 9, 1)),  # a repeat's weekday is no day
])
def test_weekdays_and_dates_without_a_year_point_the_way_of_the_tense(sentence: str, direction: str | None,
                                                                       expected: date | None) -> None:
    ref = resolve(sentence, TUE, direction=direction)
    assert (ref.when.date() if ref else None) == expected


def test_next_weekday_is_that_day_of_next_week() -> None:
    friday, monday = d(2026, 10, 30), d(2026, 10, 26)
    for said_on in (friday, monday):  # said on a Monday, not in three days' time
        ref = resolve("Dentist appointment next Thursday at 9.", said_on, direction="future")
        assert ref is not None and ref.when == d(2026, 11, 5) and ref.grain == "day"


def test_a_day_of_the_month_mended_is_of_the_month_said() -> None:
    """"We leave on the 8th of September — no, sorry, the 9th, the 8th was the flight we didn't book", said in March:
    the 9th of September to come (everyday86: "9 March 2026"), though a later clause is in the past."""
    from memory.periods import named_time

    march = datetime(2026, 3, 3, 10, 0, tzinfo=UTC)
    for said in ("We leave on the 8th of September — no, sorry, the 9th, the 8th was the flight we didn't book.",
                 "We leave on the 8th of September — no wait, it's the 9th."):
        found = named_time(said, march)
        assert found is not None and found[1].when.date() == date(2026, 9, 9), said
    found = named_time("Sports day is on the twelfth — no, it's the nineteenth.", march)
    assert found is not None and found[1].when.date() == date(2026, 3, 19)  # no month said: the one it is said in


def test_a_time_fixed_for_is_to_come() -> None:
    """"It's fixed for the 12th of April", said in January: the April to come (everyday86: an arangetram and a griha
    pravesh "fixed for" a day were dated the year before, and "When was our griha pravesh?" answered wrong); a thing
    fixed on a day is past."""
    from memory.periods import named_time

    january = datetime(2026, 1, 18, 10, 0, tzinfo=UTC)
    for said, meant in [("It's fixed for the 12th of April at the sabha.", date(2026, 4, 12)),
                        ("Griha pravesh is fixed for the 19th of February, panditji says.", date(2026, 2, 19)),
                        ("The christening's pencilled in for the 3rd of March.", date(2026, 3, 3)),
                        ("The boiler was fixed on the 12th of December.", date(2025, 12, 12))]:
        found = named_time(said, january)
        assert found is not None and found[1].when.date() == meant, said


def test_a_time_is_read_in_the_tense_of_its_own_clause() -> None:
    """"We've had an offer accepted, completion should be in January", said in October: the January after, though
    the sentence opens in the past; a clause that does not tell leaves the sentence's tense."""
    from memory.periods import named_time

    october = datetime(2026, 10, 10, 12, 0, tzinfo=UTC)
    found = named_time("We've had our offer on the barn accepted, the move should be in February.", october)
    assert found is not None and found[1].when.date() == date(2027, 2, 1)
    found = named_time("We sold the flat, and we moved out in February.", october)
    assert found is not None and found[1].when.date() == date(2026, 2, 1)
    found = named_time("I had a scan, the twins are due in March!", october)
    assert found is not None and found[1].when.date() == date(2027, 3, 1)
    # a clause in the present of "be" names the day to come, whatever the rest of the sentence did
    tuesday = datetime(2026, 6, 9, 18, 0, tzinfo=UTC)
    found = named_time("It's my nan Peggy's hundredth birthday on Saturday, she got a card from the King.", tuesday)
    assert found is not None and found[1].when.date() == date(2026, 6, 13)
    found = named_time("It was my nan's birthday on Saturday, she got a card from the King.", tuesday)
    assert found is not None and found[1].when.date() == date(2026, 6, 6)
    # a sentence that opens in the present of "be" and says nothing else of its tense: the date to come
    november = datetime(2026, 11, 10, 18, 0, tzinfo=UTC)
    found = named_time("My hip operation is on the 14th of January.", november)
    assert found is not None and found[1].when.date() == date(2027, 1, 14)
    found = named_time("My hip operation went fine on the 14th of January.", november)
    assert found is not None and found[1].when.date() == date(2026, 1, 14)
    # a time denied in one clause, another said in the next: the other
    found = named_time("She's not coming in on the 3rd now, it's Saturday the 5th.", november)
    assert found is not None and found[1].when.date() == date(2026, 12, 5)
    found = named_time("So it's not tomorrow now, it's Tuesday the first of December.", november)
    assert found is not None and found[1].when.date() == date(2026, 12, 1)
    found = named_time("The party's on the 3rd, not the 5th.", november)
    assert found is not None and found[1].when.date() == date(2026, 12, 3)
    # a time mended in the same breath: the one said after (everyday78's charger fitter, "Thursday the fifth — no,
    # hang on, Friday the sixth", had been answered the fifth)
    found = named_time("The gas man's coming Monday the 16th — no, wait, Tuesday the 17th, it's on the calendar.",
                       november)
    assert found is not None and found[1].when.date() == date(2026, 11, 17)
    # the mend may open "it's …" and say the day of the month alone (everyday80: "on Sunday the fourteenth — no
    # wait, it's the twenty-first" had been the fourteenth)
    found = named_time("The christening's on Saturday the 14th, no, hang on, it's the 21st, I'm sure.", november)
    assert found is not None and found[1].when.date() == date(2026, 11, 21)
    found = named_time("Bin day's moved to the nineteenth — sorry, make that the twentieth.", november)
    assert found is not None and found[1].when.date() == date(2026, 11, 20)
    found = named_time("Viewing's on Wednesday, sorry, Thursday at ten.", november)
    assert found is not None and found[1].when.date() == date(2026, 11, 12)
    found = named_time("We're off to Rome on Friday, no idea what to pack.", november)
    assert found is not None and found[1].when.date() == date(2026, 11, 13)
    # a day of the month said in words, its clause parted from the next by "and" and a subject of its own
    # (everyday79: "Niamh's debs is on the fourteenth and the dress came in at…" had named no time)
    found = named_time("Grandad's ninetieth is on the twentieth and the cake cost a fortune.", november)
    assert found is not None and found[1].when.date() == date(2026, 11, 20)
    # a day of the year said by its name later in the sentence is no day of the month's rival (the check of stop 61:
    # "…debs is on the fourteenth … till Christmas" had been Christmas)
    found = named_time("The christening's on the twentieth and we're skint till Christmas.", november)
    assert found is not None and found[1].when.date() == date(2026, 11, 20)
    # that day of the week after next (everyday78: "the Tuesday of the week after next" had been next week's)
    found = named_time("Parents' evening is on the Thursday of the week after next.", november)  # a Tuesday
    assert found is not None and found[1].when.date() == date(2026, 11, 26)
    found = named_time("The MOT is Monday the week after next.", november)
    assert found is not None and found[1].when.date() == date(2026, 11, 23)
    # of two tenses in one sentence, the clause's own (everyday80: "He starts in three weeks and he's already
    # bought the fleece", asked "When was he starting?", named no time)
    found = named_time("She moves in a fortnight and she's already packed half the flat.", november,
                       tense_else="past")
    assert found is not None and found[1].when.date() == date(2026, 11, 24)
    # a date without a year, no tense to tell: the nearer of its years (everyday80: "he can't start till the ninth
    # of February", said in late January, had been the February gone)
    found = named_time("The electrician can't come till the 3rd of December because of his backlog.", november)
    assert found is not None and found[1].when.date() == date(2026, 12, 3)
    found = named_time("Bonfire night, the 5th of November, the dog hid under the bed.", november)
    assert found is not None and found[1].when.date() == date(2026, 11, 5)
    # a month reckoned now: one to come; not a month spoken of
    found = named_time("Course the extension's not done. Dave's now saying February.", november)
    assert found is not None and found[1].when.date() == date(2027, 2, 1)
    assert named_time("She says February is grim.", november) is None
    # booked for a day is when, not how long
    found = named_time("Chimney sweep's booked for the twelfth, first thing in the morning.",
                       datetime(2026, 10, 1, 9, 0, tzinfo=UTC))
    assert found is not None and found[1].when.date() == date(2026, 10, 12)
    assert named_time("I lived there for five years.", november) is None
    # asked when something started, the sentence that says it starts, with its weekday's year
    found = named_time("Letter on the mat this morning, I've been called up for jury service. Starts Monday the "
                       "ninth of November at Snaresbrook.", datetime(2026, 10, 5, 8, 0, tzinfo=UTC), tense_else="past",
                       topic={"juri", "servic", "start"})
    assert found is not None and found[1].when.date() == date(2026, 11, 9)
    found = named_time("I didn't go on Friday, I went on Saturday.", november)
    assert found is not None and found[1].when.date() == date(2026, 11, 7)
    # an "'s" of whose, before a past verb, opens in no "be": not the day to come
    found = named_time("My sister's little girl arrived on Saturday, they've called her Ivy.", tuesday,
                       tense_else="past")
    assert found is not None and found[1].when.date() == date(2026, 6, 6)


@pytest.mark.parametrize(("sentence", "direction", "expected"), [
    # a weekday with its day of the month: the nearest date that is both, whatever the tense (said on Tuesday 14
    # July 2026; 2 August is a Sunday, 2 September a Wednesday)
    ("Parents' evening's on Wednesday the 2nd.", None, date(2026, 9, 2)),
    ("It's been moved to Thursday the 23rd.", "future", date(2026, 7, 23)),
    ("We met on Friday the 3rd.", "past", date(2026, 7, 3)),
    # with its month: the date, read whole, in the year it is that weekday (2 September 2025 was a Tuesday)
    ("Book club is Wednesday 2nd September.", None, date(2026, 9, 2)),
    ("Book club is Wednesday 2nd September.", "future", date(2026, 9, 2)),
])
def test_a_weekday_with_its_day_of_the_month_is_that_day(sentence: str, direction: str | None,
                                                        expected: date) -> None:
    ref = resolve(sentence, TUE, direction=direction)
    assert ref is not None and ref.when.date() == expected


def test_a_day_of_the_month_said_alone_is_of_the_month_named_before() -> None:
    """"…on Umrah in December. Flying Manchester to Jeddah on the 9th", said on 1 September, asked when the flight is:
    9 December (everyday88's answer, read without the model, had been 9 September); not when, read alone, it falls
    in that month or the one before ("the funeral's on the 3rd of October. I fly out on the 29th": September's)."""
    from memory.periods import named_time
    from memory.search import terms

    at = datetime(2026, 9, 1, 10, 0, tzinfo=UTC)
    said = "We're off to Goa in December, the four of us. The flight's on the 12th, from Gatwick."
    found = named_time(said, at, topic=set(terms("When is our flight?")))
    assert found is not None and found[1].when.date() == date(2026, 12, 12)
    said = "The funeral's back home on the 3rd of October. I'm flying out with Keisha on the 29th."
    found = named_time(said, datetime(2026, 9, 14, 10, 0, tzinfo=UTC), topic=set(terms("When am I flying out?")))
    assert found is not None and found[1].when.date() == date(2026, 9, 29)


def test_of_several_times_the_one_moved_to_or_on_the_topic_is_read() -> None:
    """"Parents' evening's on Wednesday the 2nd. Oh, hang on, … it's been moved to Thursday the 3rd": the time moved
    to (the first run said 25 November); "The boiler died on Wednesday… The engineer can't come till Thursday",
    asked when the engineer comes: the sentence on it (the first run said the Wednesday after)."""
    from memory.periods import named_time
    from memory.search import terms

    tuesday = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)
    said = ("Parents' evening's on Wednesday the 2nd. Oh, hang on, the school's just texted, it's been moved to "
            "Thursday the 3rd.")
    found = named_time(said, tuesday, tense_else="future")
    assert found is not None and found[1].when.date() == date(2026, 12, 3)
    found = named_time("We moved to Leeds in 2019. Then on the 3rd of May we got a dog.", tuesday)
    assert found is not None and found[1].when.date() == date(2019, 1, 1)  # a home moved to moves no time
    monday = datetime(2026, 11, 9, 18, 0, tzinfo=UTC)
    said = ("The boiler died on Wednesday, so that's five days of kettle washes now. The engineer can't come till "
            "Thursday.")
    found = named_time(said, monday, tense_else="future", topic=set(terms("When is the boiler engineer coming?")))
    assert found is not None and found[1].when.date() == date(2026, 11, 12)
    found = named_time(said, monday, tense_else="future", topic=set(terms("When did the boiler die?")))
    assert found is not None and found[1].when.date() == date(2026, 11, 4)
    found = named_time(said, monday, tense_else="future")  # no topic: the first
    assert found is not None and found[1].when.date() == date(2026, 11, 4)
    # asked of what is to come, a time ahead, not when it was arranged ("When is Mam's hip operation?")
    wednesday = datetime(2026, 10, 21, 20, 0, tzinfo=UTC)
    said = "Mam's getting the hip done, they rang this morning. It's on the 6th, in the Mater."
    found = named_time(said, wednesday, tense_else="future", topic=set(terms("When is Mam's hip operation?")),
                       ahead=True)
    assert found is not None and found[1].when.date() == date(2026, 11, 6)
    found = named_time(said, wednesday, topic=set(terms("When did the hospital ring about Mam's hip?")))
    assert found is not None and found[1].when.date() == date(2026, 10, 21)
    # a question's time, of nothing asked about, is no time of what was told
    monday = datetime(2026, 10, 19, 11, 0, tzinfo=UTC)
    said = "Gordon rang to say he's retiring from the surgery at Christmas. Anyway, is it going to rain tomorrow?"
    found = named_time(said, monday, topic=set(terms("When is Gordon retiring?")), ahead=True)  # Christmas, a day
    assert found is not None and found[1].when.date() == date(2026, 12, 25)  # of the year said by its name
    said = "Gordon rang to say he's retiring from the surgery. Anyway, is it going to rain tomorrow?"
    assert named_time(said, monday, topic=set(terms("When is Gordon retiring?")), ahead=True) is None
    found = named_time("Shall we meet on Friday?", monday, topic=set(terms("When are we meeting?")))
    assert found is not None and found[1].when.date() == date(2026, 10, 23)


def test_a_count_of_days_told_in_the_past_is_how_long_not_when() -> None:
    """"I painted the shed in three days": how long it took; "…in three days" ahead only when not told as past."""
    assert resolve("I painted the shed in three days.", AT, direction="past") is None
    ref = resolve("I'll paint the shed in three days.", AT, direction="future")
    assert ref is not None and ref.when == d(2026, 6, 5)


@pytest.mark.parametrize(("word", "value"), [
    ("three", 3), ("12", 12), ("twenty-six", 26), ("twenty six", 26), ("forty", 40), ("10th", 10),
    # every teen (everyday89: "Thanksgiving's down to thirteen" counted nothing)
    ("thirteen", 13), ("fourteen", 14), ("fifteen", 15), ("sixteen", 16), ("seventeen", 17), ("eighteen", 18),
    ("nineteen", 19), ("a few", None), ("fifty-fifty", None),
])
def test_an_exact_number_said_in_figures_or_words(word: str, value: int | None) -> None:
    assert exact_number(word) == value


@pytest.mark.parametrize(("text", "values"), [
    ("Sold it for a hundred and twenty quid.", [120]),
    ("New valve, two hundred and ten quid.", [210]),
    ("Three thousand five hundred on the clock.", [3500]),
    ("A hundred and forty thousand miles on it.", [140000]),
    ("Nine hundred and ninety-nine, twelve hundred.", [999, 1200]),
    ("Two hundred, and ten more.", [200]),  # a new clause: not one number
    ("Hundreds of people came.", []),
    # its "a" left out (everyday81: "for the whole hundred and fifteen kilometres" grounded no 115)
    ("She moaned for the whole hundred and forty miles.", [140]),
    ("Forty-eight out of fifty.", []),  # under a hundred: read where counts are
])
def test_numbers_of_a_hundred_or_more_said_in_words(text: str, values: list[int]) -> None:
    from memory.extraction.dates import big_numbers
    assert [v for _, _, v in big_numbers(text)] == values


@pytest.mark.parametrize(("text", "times"), [
    ("Dentist next Tuesday at ten past nine.", ["9:10"]),
    ("Quarter to three, then half nine.", ["2:45", "9:30"]),
    ("Pick-up at six o'clock or twenty-five past 4.", ["6:00", "4:25"]),
    ("Half the time I forget.", []),
    ("Ten years later.", []),
])
def test_times_of_day_said_in_words(text: str, times: list[str]) -> None:
    from memory.extraction.dates import clock_times
    assert [t for _, _, t in clock_times(text)] == times


@pytest.mark.parametrize(("text", "direction", "expected"), [
    # a date said with its weekday is in a year where that date is that weekday (said on 30 April 2026)
    ("The wedding's moved to Saturday the 12th of June.", "past", date(2027, 6, 12)),  # moved to: ahead
    ("We're getting married on Saturday the 22nd of May next year.", None, date(2027, 5, 22)),
    ("The party's on Friday 3rd July.", "future", date(2026, 7, 3)),
    ("They moved it to the 3rd of March.", "past", date(2027, 3, 3)),
    ("We moved to Leeds on the 3rd of March.", "past", date(2026, 3, 3)),  # a home moved to moves no time
    # a date said month first after "for" is the day, not the month (everyday86: "We set the court of honor for August
    # 15th" was read "for August")
    ("We set the court of honor for August 15th at the church.", "future", date(2026, 8, 15)),
    ("In June we go, and we're back on the 3rd of July.", "future", date(2026, 6, 1)),
])
def test_a_date_with_its_weekday_or_moved_to(text: str, direction: str | None, expected: date) -> None:
    ref = resolve(text, datetime(2026, 4, 30, 17, 0, tzinfo=UTC), direction=direction)  # type: ignore[arg-type]
    assert ref is not None and ref.when.date() == expected


@pytest.mark.parametrize(("said", "meant"), [
    # a time mended in the same breath is given to the model as mended (everyday79's first run: a taxi "booked for
    # Saturday at half four — no, quarter past four" was answered 4:30)
    ("The dentist's at ten — sorry, half ten, on Monday.", "The dentist's at half ten, on Monday."),
    ("The vet's on Tuesday, no, Wednesday.", "The vet's on Wednesday."),
    ("Parents' evening is at 6, no wait, 6.40.", "Parents' evening is at 6.40."),
    ("Sports day is on the twelfth — no, it's the nineteenth, the twelfth's the fair.",
     "Sports day is on the nineteenth, the twelfth's the fair."),
    # not a time, or a time not mended: as said
    ("We met at the pub, sorry, the club, at nine.", "We met at the pub, sorry, the club, at nine."),
    ("I love Tom, no, I adore him.", "I love Tom, no, I adore him."),
    ("Home by ten, no later.", "Home by ten, no later."),
    # a clause taken back with a dash for another said whole (everyday84: "Black bin's Thursday now — no, hang on,
    # Thursday's the blue recycling one, the black bin's Friday" was answered "Every single week.")
    ("Rounds changed. Black bin's Thursday now — no, hang on, Thursday's the recycling one, the black bin's Friday.",
     "Rounds changed. Thursday's the recycling one, the black bin's Friday."),
    ("We're going Tuesday — no, wait, we're going Wednesday.", "We're going Wednesday."),
    # a number mended in the same breath, its unit said once or twice (everyday86: "Budget is eighteen lakh — sorry,
    # sixteen lakh" was answered "eighteen lakh")
    ("I paid seven thousand — no, sorry, seven thousand eight hundred.", "I paid seven thousand eight hundred."),
    ("Budget is eighteen lakh — sorry, sixteen lakh, the sponsor pulled out.",
     "Budget is sixteen lakh, the sponsor pulled out."),
    ("It cost £250, no wait, £260.", "It cost £260."), ("It was 5 minutes, no, 10.", "It was 10 minutes."),
    ("We had three kids, no, two dogs.", "We had three kids, no, two dogs."),  # not one number mended
    ("Two eggs, no sugar.", "Two eggs, no sugar."),
    # a day of the month mended is of the month said (everyday86: "We leave on the 8th of September — no, sorry, the
    # 9th" was answered "9 March", the month it was said in); "no" before a thing mends no time (everyday86: "Back from
    # Lough Derg. Three days, no sleep the first night" was given to the model as "Back from sleep the first night")
    ("We leave on the 8th of September — no, sorry, the 9th, the 8th was the flight.",
     "We leave on the 9th of September, the 8th was the flight."),
    ("It's on the 3rd of May, no, the 4th.", "It's on the 4th of May."),
    ("Back from Lough Derg. Three days, no sleep the first night.",
     "Back from Lough Derg. Three days, no sleep the first night."),
    ("Off on Friday, no fuss.", "Off on Friday, no fuss."),
    # not a clause said whole, or no words that take it back: as said
    ("It was great — no, honestly, it's the best thing I've done.",
     "It was great — no, honestly, it's the best thing I've done."),
])
def test_a_time_mended_in_the_same_breath_is_said_as_mended(said: str, meant: str) -> None:
    from memory.periods import mended

    assert mended(said) == meant


@pytest.mark.parametrize(("said", "on", "meant"), [
    # so many weeks on from tomorrow or today, back from yesterday or today (everyday94: "the fitters come three
    # weeks tomorrow" was read as tomorrow)
    ("The fitters come three weeks tomorrow.", d(2026, 9, 14), date(2026, 10, 6)),
    ("The results are out two weeks today.", d(2026, 9, 14), date(2026, 9, 28)),
    ("The shop opened three weeks ago today.", d(2026, 3, 3), date(2026, 2, 10)),
    ("I met her two weeks yesterday.", d(2026, 3, 3), date(2026, 2, 16)),
    ("The fair's a fortnight tomorrow.", d(2026, 3, 3), date(2026, 3, 18)),
    # "this Thursday", of this week whatever the tense (everyday95: "brought forward to this Thursday" was the
    # Thursday before)
    ("My op's been brought forward to this Thursday.", d(2026, 3, 3), date(2026, 3, 5)),
    ("I saw the consultant this Monday.", d(2026, 3, 4), date(2026, 3, 2)),
    ("We're going this Monday.", d(2026, 3, 4), date(2026, 3, 9)),  # gone this week, and looked ahead: the coming
    # a parking ticket is a fine, not a ticket for a day ahead (everyday94: "Got a parking ticket… on Monday" was
    # read as the coming Monday, then as none)
    ("Got a sixty-five pound parking ticket outside Mum's in Leicester on Monday.", d(2026, 8, 12), date(2026, 8, 10)),
    # booked for a day, by a passive's helper: the day is to come (everyday94: "got booked for the 8th of June",
    # said in February, was the June before); booked on a day is not
    ("Her knee replacement got booked for the 8th of June.", d(2026, 2, 26), date(2026, 6, 8)),
    ("The hall was set for the 3rd of May.", d(2026, 2, 26), date(2026, 5, 3)),
    ("Our homestay student lands on Thursday.", d(2026, 8, 30), date(2026, 9, 3)),  # a timetable's present
])
def test_weeks_on_from_a_day_this_weekday_and_times_booked_for(said: str, on: datetime, meant: date) -> None:
    from memory.periods import named_time

    found = named_time(said, on.replace(hour=12))
    assert found is not None and found[1].when.date() == meant, said


def test_a_thing_booked_on_a_day_is_not_read_as_to_come() -> None:
    from memory.periods import named_time

    found = named_time("It was booked on Monday.", d(2026, 2, 26).replace(hour=12))
    assert found is None or found[1].when.date() != date(2026, 3, 2)
