"""Which facts are events (something done once, said "on" a day) and which are states (said "from" a day)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from memory.model import Arc
from memory.vocabulary import is_event

DAY = datetime(2023, 4, 24, tzinfo=UTC)


@pytest.mark.parametrize(("name", "event"), [
    ("visited", True), ("attended", True), ("graduated_from", True), ("ran", True), ("won", True),
    ("signed_up_for", True), ("watched", True),
    ("lives_in", False), ("keeps", False), ("plans_trip_to", False), ("interested_in", False),
    ("married_to", False), ("used_to_play", False), ("based_in", False),
])
def test_open_predicates_told_in_the_past_are_events(name: str, event: bool) -> None:
    assert is_event(name) is event


def _arc(relation: str) -> Arc:
    return Arc("a1", "e1", "Jon", relation, "e2", "fair", None, 1.0, 0.0, 0, 1, DAY, DAY, None, DAY, None, None, 1, 1.0)


def test_an_event_is_said_on_its_day_not_as_still_true() -> None:
    assert _arc("attended").statement() == "Jon attended fair (on 24 April 2023)"
    assert _arc("keeps").statement() == "Jon keeps fair (from 24 April 2023, still true)"


def test_a_fact_true_for_as_long_as_its_subject_is_said_without_the_day_it_was_told() -> None:
    """A birthday told on 24 April is not "from 24 April, still true" (the small model then gave it that year)."""
    assert _arc("born_on").statement() == "Jon born on fair"
    assert _arc("born_in").statement(dates=True) == "Jon born in fair"
    ended = dataclasses.replace(_arc("born_on"), valid_to=DAY)  # corrected: the span stays, as for any fact
    assert "until" in ended.statement()


def test_a_fact_that_reads_both_ways_names_the_user_first() -> None:
    """"Declan lives with User" was said back as "You live with User.": a symmetric fact with the user as its
    object is said with the user first; one that does not read both ways stays as it was learned."""
    shared = dataclasses.replace(_arc("lives_with"), subject="Declan", object_id="user", object="User")
    assert shared.statement(dates=False) == "User lives with Declan"
    sister = dataclasses.replace(_arc("sister_of"), subject="Ada", object_id="user", object="User")
    assert sister.statement(dates=False) == "Ada sister of User"
    cousin = dataclasses.replace(_arc("cousin_of"), subject="Bea", object_id="user", object="User")
    assert cousin.statement(dates=False) == "Bea cousin of User"  # what someone is to the user: as learned
