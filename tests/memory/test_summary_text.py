"""Entity summaries, pure: salience order and the line composed from an entity's current facts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.model import USER_ID, Arc
from memory.summary_text import Salience, clause, compose, most_salient, undated

NOW = datetime(2026, 6, 1, tzinfo=UTC)
D = timedelta(days=1)
ANNA = "e-anna"


def arc(s: tuple[str, str], rel: str, o: tuple[str, str], *, weight: float = 1.0, since: datetime = NOW - 90 * D,
        until: datetime | None = None, retracted: bool = False, label: str | None = None,
        recorded: datetime | None = None) -> Arc:
    return Arc(id=f"a-{s[0]}-{rel}-{o[0]}", subject_id=s[0], subject=s[1], relation=rel, object_id=o[0],
               object=o[1], label=label, strength=weight, decay_rate=0.01, reinforcements=0, conversations=1,
               last_reinforced=since, valid_from=since, valid_to=until, recorded_at=recorded or since,
               closed_at=until, expired_at=NOW - D if retracted else None, t_index=1, confidence=1.0,
               weight=weight)


A, U = (ANNA, "Anna"), (USER_ID, "Sam")
PORTO, LISBON, BW, FELIX = ("e-porto", "Porto"), ("e-lisbon", "Lisbon"), ("e-bw", "Brightwave"), ("e-felix", "Felix")
JONAS = ("e-jonas", "Jonas")


@pytest.mark.parametrize("a, expected", [
    (arc(A, "sister_of", U), "the user's sister"),
    (arc(A, "friend_of", FELIX), "Felix's friend"),
    (arc(FELIX, "friend_of", A), "Felix's friend"),  # symmetric: the same from either end
    (arc(A, "colleague_of", JONAS), "Jonas' colleague"),
    (arc(U, "brother_of", A), "the user is Anna's brother"),  # a role held toward Anna
    (arc(A, "lives_in", PORTO, since=datetime(2024, 3, 9, tzinfo=UTC)), "lives in Porto (since 2024-03)"),
    (arc(A, "likes", ("e-tea", "green tea")), "likes green tea"),  # many-valued: no date
    (arc(A, "related_to", FELIX, label="met at"), "met at Felix"),
    (arc(A, "plays_in_band_with", FELIX), "plays in band with Felix"),  # an open predicate
    (arc(U, "works_at", A), "the user works at Anna"),  # Anna as the object: the sentence with her name
    (arc(U, "lives_with", A), "lives with the user"),  # symmetric, not a role
    (arc(FELIX, "likes", PORTO), None),  # not about Anna
])
def test_clause(a: Arc, expected: str | None) -> None:
    assert clause(a, ANNA, "Anna") == expected


def test_compose_keeps_current_facts_only_the_user_first_then_by_weight() -> None:
    arcs = [
        arc(A, "lives_in", LISBON, since=datetime(2022, 1, 1, tzinfo=UTC), until=datetime(2024, 3, 1, tzinfo=UTC)),
        arc(A, "lives_in", PORTO, since=datetime(2024, 3, 1, tzinfo=UTC), weight=3.0),
        arc(A, "works_at", BW, weight=2.0, since=datetime(2025, 9, 1, tzinfo=UTC)),
        arc(A, "likes", ("e-jazz", "jazz"), retracted=True, weight=9.0),  # found to be wrong
        arc(A, "visited", ("e-rome", "Rome"), until=NOW + 3 * D),  # ends by itself: would go stale
        arc(A, "sister_of", U, weight=0.5),
        arc(A, "owns", ("e-boat", "a boat"), since=NOW + D),  # not yet true
        arc(A, "plays", ("e-chess", "chess"), recorded=NOW + D),  # not yet known
    ]
    assert compose(ANNA, "Anna", "PERSON", arcs, now=NOW) == (
        "Anna (person): the user's sister; lives in Porto (since 2024-03); works at Brightwave (since 2025-09).")


@pytest.mark.parametrize("kwargs, expected", [
    ({"max_facts": 2}, "Anna: likes a; likes b."),
    ({"max_chars": 32}, "Anna: likes a; likes b; likes c."),  # exactly 32 characters
    ({"max_chars": 31}, "Anna: likes a; likes b."),  # stops before the line passes the budget
    ({"max_chars": 5}, "Anna: likes a."),  # one clause at least
])
def test_compose_budget(kwargs: dict[str, int], expected: str) -> None:
    arcs = [arc(A, "likes", (f"e-{c}", c), weight=w) for c, w in (("a", 5), ("b", 4), ("c", 3), ("d", 2), ("e", 1))]
    assert compose(ANNA, "Anna", "THING", arcs, now=NOW, **kwargs) == expected  # THING: type unknown, not said


def test_compose_nothing_current_is_no_line() -> None:
    gone = arc(A, "lives_in", LISBON, until=NOW - D)
    assert compose(ANNA, "Anna", "PERSON", [gone], now=NOW) is None
    assert compose(ANNA, "Anna", "PERSON", [], now=NOW) is None


def test_most_salient_weighs_facts_and_conversations() -> None:
    found = [
        Salience("hub", weight=6.0, arcs=400),  # many weak associations, never talked about
        Salience("sister", weight=2.0, arcs=3, episodes=60, conversations=40),
        Salience("cafe", weight=0.5, arcs=1, episodes=1, conversations=1),
        Salience("b", weight=1.0), Salience("a", weight=1.0),  # ties: by id
    ]
    assert [s.id for s in most_salient(found, 4)] == ["sister", "hub", "cafe", "a"]
    assert most_salient(found, 0) == []


@pytest.mark.parametrize("line, expected", [
    ("Anna (person): the user's sister; lives in Porto (since 2024-03); works at Brightwave (since 2025-09).",
     "Anna (person): the user's sister; lives in Porto; works at Brightwave."),
    ("Kai: likes the band (since 1999) (since 2024-03).", "Kai: likes the band (since 1999)."),  # only our dates
])
def test_undated(line: str, expected: str) -> None:
    assert undated(line) == expected
