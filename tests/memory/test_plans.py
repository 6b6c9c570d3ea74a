"""Plans keep the time they are for ("flying to Rome in June"), and close once it has passed, on every backend."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.errors import InvalidInput
from memory.graph import TemporalGraph
from memory.timeutil import grain_span, spoken_grain
from tests.conftest import T0


@pytest.mark.parametrize(("text", "start", "end", "said"), [
    ("2026", datetime(2026, 1, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC), "2026"),
    ("2026-06", datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC), "June 2026"),
    ("2026-12", datetime(2026, 12, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC), "December 2026"),
    ("2026-W21", datetime(2026, 5, 18, tzinfo=UTC), datetime(2026, 5, 25, tzinfo=UTC), "the week of 18 May 2026"),
    ("2026-06-14", datetime(2026, 6, 14, tzinfo=UTC), datetime(2026, 6, 15, tzinfo=UTC), "14 June 2026"),
])
def test_a_time_at_its_grain_covers_its_whole_span(text: str, start: datetime, end: datetime, said: str) -> None:
    assert grain_span(text) == (start, end)
    assert spoken_grain(text) == said


@pytest.mark.parametrize("bad", ["", "June", "2026-13", "2026-02-30", "2026-W60", "1066", "2026-06-14T10:00", None])
def test_what_is_no_time_at_a_grain_is_none(bad: str | None) -> None:
    assert grain_span(bad) is None


def test_a_plan_is_stored_with_its_time_reinforced_and_closed_after_it(graph: TemporalGraph) -> None:
    [made] = graph.assert_fact("Anna", "plans_trip_to", "Rome", now=T0, planned_for="2026-02")
    graph.assert_fact("Anna", "plans_trip_to", "Oslo", now=T0, planned_for="2026-12")
    graph.assert_fact("Anna", "likes", "tea", now=T0)
    [again] = graph.assert_fact("Anna", "plans_trip_to", "Rome", now=T0 + timedelta(days=2))  # said again, no time
    assert again.kind == "reinforced" and graph.arc(made.arc_id, now=T0 + timedelta(days=2)).planned_for == "2026-02"
    march = datetime(2026, 3, 3, tzinfo=UTC)
    closed = graph.close_passed_plans(now=march)
    assert [(c.object, c.reason) for c in closed] == [("Rome", "its planned time passed")]
    assert graph.arc(made.arc_id, now=march).valid_to == datetime(2026, 3, 1, tzinfo=UTC)
    assert sorted(a.object for a in graph.facts_at(march, entity="Anna")) == ["Oslo", "tea"]
    assert graph.close_passed_plans(now=march) == []  # nothing twice


def test_a_planned_time_that_cannot_be_read_is_refused(graph: TemporalGraph) -> None:
    with pytest.raises(InvalidInput, match="planned time"):
        graph.assert_fact("Anna", "plans_trip_to", "Rome", now=T0, planned_for="next June")
    assert graph.find_entity("Anna") is None  # nothing half-written


def test_a_plan_whose_time_is_over_reads_as_ended_before_the_night_closes_it(graph: TemporalGraph) -> None:
    graph.assert_fact("Anna", "plans_trip_to", "Rome", now=T0, planned_for="2026-02")
    anna = graph.require_entity("Anna").id
    feb = datetime(2026, 2, 20, tzinfo=UTC)
    assert [a.object for a in graph.lookup(anna, "plans_trip_to", at=feb)] == ["Rome"]
    april = datetime(2026, 4, 2, tzinfo=UTC)
    assert graph.lookup(anna, "plans_trip_to", at=april) == [] and graph.facts_at(april, entity="Anna") == []
    (past,) = graph.history_of(anna, "plans_trip_to", now=april)
    assert past.valid_to == datetime(2026, 3, 1, tzinfo=UTC) and past.statement().startswith(
        "Anna plans trip to Rome (was planned for February 2026")
