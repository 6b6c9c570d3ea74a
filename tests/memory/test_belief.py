"""Belief update rules as tables (memory/belief.py): no store, no clock — arcs in, steps out."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.belief import Close, Create, Expire, Reinforce, Telling, dates_at, order_key, plan_assert, plan_end
from memory.model import Arc
from memory.vocabulary import relation

DAY = 86400.0
T0 = datetime(2025, 1, 1, tzinfo=UTC).timestamp()


def arc(id: str, s: str, o: str, *, rel: str = "lives_in", start: float = 0.0, end: float | None = None,
        sources: tuple[str, ...] = (), label: str | None = None) -> Arc:
    def t(x: float | None) -> datetime | None:
        return None if x is None else datetime.fromtimestamp(T0 + x * DAY, UTC)

    return Arc(id=id, subject_id=s, subject=s, relation=rel, object_id=o, object=o, label=label, strength=1.0,
               decay_rate=0.01, reinforcements=0, conversations=1, last_reinforced=t(start),  # type: ignore[arg-type]
               valid_from=t(start), valid_to=t(end), recorded_at=t(start), closed_at=t(end),  # type: ignore[arg-type]
               expired_at=None, t_index=0, confidence=1.0, sources=sources)


def told(day: float, *, to: float | None = None, sources: tuple[str, ...] = ("c2#0",),
         label: str | None = None) -> Telling:
    return Telling(now=T0 + day * DAY, told=T0 + day * DAY, valid_from=T0 + day * DAY,
                   valid_to=None if to is None else T0 + to * DAY, sources=sources, label=label)


def kinds(steps: list) -> list[tuple[str, str | None]]:
    return [(type(s).__name__, getattr(getattr(s, "arc", None), "id", None)) for s in steps]


LISBON = arc("a1", "u", "lisbon", start=0, sources=("c1#0",))
OLD_HOME = arc("a0", "u", "ghent", start=-400, end=0, sources=("c0#0",))
LATER = arc("a2", "u", "porto", start=50, sources=("c3#0",))

# (case, existing arcs, object id, telling, relation, expected steps as (kind, arc id))
ASSERT_CASES = [
    ("a new fact is created", [], "lisbon", told(10), "lives_in", [("Create", None)]),
    ("the same open fact is reinforced", [LISBON], "lisbon", told(10), "lives_in", [("Reinforce", "a1")]),
    ("the same words again (a replay) change nothing", [LISBON], "lisbon", told(10, sources=("c1#0",)),
     "lives_in", []),
    ("a new home closes the current one", [LISBON, OLD_HOME], "porto", told(10), "lives_in",
     [("Close", "a1"), ("Create", None)]),
    ("a past home told after the current one is history", [LATER], "lisbon", told(10), "lives_in",
     [("Create", None)]),
    ("a multi-valued relation closes nothing", [arc("l1", "u", "jazz", rel="likes")], "tea", told(10), "likes",
     [("Create", None)]),
    ("a past span covering the start is reinforced", [OLD_HOME], "ghent", told(-100, to=-50), "lives_in",
     [("Reinforce", "a0")]),
    ("a past span told again after it ended is a new arc", [OLD_HOME], "ghent", told(10, to=20), "lives_in",
     [("Create", None)]),
    ("another label is another fact", [arc("r1", "u", "anna", rel="related_to", label="neighbour")], "anna",
     told(10, label="coach"), "related_to", [("Create", None)]),
    # the word said for a role is how it was said, not another fact: "my husband Tariq" after "I married Tariq"
    ("a role's word is the same fact", [arc("s1", "u", "tariq", rel="spouse_of")], "tariq",
     told(10, label="husband"), "spouse_of", [("Reinforce", "s1")]),
]


@pytest.mark.parametrize("case,existing,obj,p,rel,expected", ASSERT_CASES, ids=[c[0] for c in ASSERT_CASES])
def test_plan_assert(case: str, existing: list[Arc], obj: str, p: Telling, rel: str,
                     expected: list[tuple[str, str | None]]) -> None:
    steps = plan_assert(existing, [], s_id="u", o_id=obj, o_name=obj, rel=relation(rel), p=p)
    assert kinds(steps) == expected


def test_history_ends_where_the_later_value_starts() -> None:
    (create,) = plan_assert([LATER], [], s_id="u", o_id="lisbon", o_name="Lisbon", rel=relation("lives_in"),
                            p=told(10))
    assert isinstance(create, Create) and create.valid_to == T0 + 50 * DAY


def test_a_close_never_ends_a_fact_before_it_began() -> None:
    just_started = arc("a1", "u", "lisbon", start=10)
    close, _ = plan_assert([just_started], [], s_id="u", o_id="porto", o_name="Porto", rel=relation("lives_in"),
                           p=told(10))  # corrected the same instant it was told
    assert isinstance(close, Close) and close.valid_to == T0 + 10 * DAY
    assert "now Porto" in close.reason
    (ended,) = plan_end([just_started], object_ids=None, retract=False, valid_to=T0 + 2 * DAY, reason="r")
    assert isinstance(ended, Close) and ended.valid_to == T0 + 10 * DAY


def test_the_opposite_of_a_taste_is_closed_and_only_for_that_object() -> None:
    dislikes = [arc("d1", "u", "tea", rel="dislikes"), arc("d2", "u", "jazz", rel="dislikes"),
                arc("d3", "u", "tea", rel="dislikes", start=-20, end=-10)]
    steps = plan_assert([], dislikes, s_id="u", o_id="tea", o_name="tea", rel=relation("likes"), p=told(3))
    assert kinds(steps) == [("Create", None), ("Close", "d1")]


def test_a_symmetric_fact_told_the_other_way_round_is_the_same_fact() -> None:
    back = arc("f1", "anna", "u", rel="friend_of", sources=("c1#0",))
    steps = plan_assert([back], [], s_id="u", o_id="anna", o_name="Anna", rel=relation("friend_of"), p=told(3))
    assert kinds(steps) == [("Reinforce", "f1")]


END_ARCS = [LISBON, OLD_HOME, arc("a3", "u", "porto", start=5)]


@pytest.mark.parametrize("retract,objects,expected", [
    (False, None, [("Close", "a1"), ("Close", "a3")]),  # the ended one is not ended again
    (True, None, [("Expire", "a1"), ("Expire", "a0"), ("Expire", "a3")]),  # never true: ended ones too
    (False, ["porto"], [("Close", "a3")]),
    (True, ["ghent"], [("Expire", "a0")]),
    (False, ["rome"], []),
])
def test_plan_end(retract: bool, objects: list[str] | None, expected: list[tuple[str, str]]) -> None:
    steps = plan_end([*END_ARCS, LISBON], object_ids=objects, retract=retract, valid_to=T0 + 30 * DAY,
                     reason="r")
    assert kinds(steps) == expected
    assert all(isinstance(s, Expire | Close) and s.reason == "r" for s in steps)


def test_an_end_is_where_it_was_said_unless_told_otherwise() -> None:
    (close,) = plan_end([LISBON], object_ids=None, retract=False, valid_to=T0 + 7 * DAY, reason="r")
    assert isinstance(close, Close) and close.valid_to == T0 + 7 * DAY


AT = datetime(2025, 6, 1, tzinfo=UTC)


@pytest.mark.parametrize("vf,vt,expected", [
    (None, None, (None, None)),
    (datetime(2025, 1, 1, tzinfo=UTC), None, (datetime(2025, 1, 1, tzinfo=UTC), None)),
    (datetime(2026, 1, 1, tzinfo=UTC), None, (AT, None)),  # nothing starts after it was said
    (None, datetime(2026, 1, 1, tzinfo=UTC), (None, AT)),  # ... or ends after
    (datetime(2025, 5, 1, tzinfo=UTC), datetime(2025, 4, 1, tzinfo=UTC), (None, datetime(2025, 4, 1, tzinfo=UTC))),
    (datetime(2025, 3, 1, tzinfo=UTC), datetime(2025, 4, 1, tzinfo=UTC),
     (datetime(2025, 3, 1, tzinfo=UTC), datetime(2025, 4, 1, tzinfo=UTC))),
])
def test_dates_as_told(vf: datetime | None, vt: datetime | None,
                       expected: tuple[datetime | None, datetime | None]) -> None:
    d = dates_at(vf, vt, AT)
    assert (d.valid_from, d.valid_to) == expected


def test_order_is_as_said_and_within_a_turn_take_back_end_add() -> None:
    facts = [(AT, 2, "assert"), (AT, 1, "assert"), (AT, 1, "end"), (AT, 1, "retract"),
             (datetime(2025, 1, 1, tzinfo=UTC), 9, "assert")]
    ordered = sorted(facts, key=lambda f: order_key(*f))
    assert ordered == [(datetime(2025, 1, 1, tzinfo=UTC), 9, "assert"), (AT, 1, "retract"), (AT, 1, "end"),
                       (AT, 1, "assert"), (AT, 2, "assert")]


def test_reinforce_and_expire_carry_the_arc() -> None:
    assert isinstance(plan_assert([LISBON], [], s_id="u", o_id="lisbon", o_name="Lisbon", rel=relation("lives_in"),
                                  p=told(1))[0], Reinforce)


@pytest.mark.parametrize("rel,label,said", [
    ("spouse_of", "husband", "tariq husband of u"),  # the word said, not the relation's
    ("partner_of", "girlfriend", "tariq girlfriend of u"),
    ("spouse_of", "sister", "tariq spouse of u"),  # a word of another relation is not this one's
    ("spouse_of", None, "tariq spouse of u"),
    ("related_to", "keeps", "tariq keeps u"),
])
def test_statement_says_the_role_word(rel: str, label: str | None, said: str) -> None:
    a = arc("a1", "tariq", "u", rel=rel, label=label)
    assert a.statement(dates=False) == said
