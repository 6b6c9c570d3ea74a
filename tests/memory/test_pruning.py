"""Pruning's order and pacing (memory/pruning.py): pure logic, elapsed times given as data."""

from __future__ import annotations

import pytest

from memory.pruning import Faded, Pacer, by_cost


def arcs(*costs: int) -> list[Faded]:
    return [Faded(f"a{i}", f"s{i}", c) for i, c in enumerate(costs)]


def test_cheapest_arcs_come_first_and_ties_keep_a_subject_together() -> None:
    rows = [{"id": "hub-leaf", "subject": "hub", "object": "leaf1"},
            {"id": "x2", "subject": "b", "object": "leaf2"},
            {"id": "x1", "subject": "a", "object": "leaf3"},
            {"id": "x0", "subject": "b", "object": "leaf3"}]
    degrees = {"hub": 1000, "leaf1": 1, "leaf2": 1, "leaf3": 2, "a": 3, "b": 2}
    assert [f.id for f in by_cost(rows, degrees)] == ["x2", "x0", "x1", "hub-leaf"]
    assert by_cost(rows, degrees)[-1].cost == 1001


@pytest.mark.parametrize("costs, unit_s, batch_s, max_arcs, want", [
    ((10,) * 50, 1e-3, 0.1, 2000, 10),  # 10 ms an arc, 0.1 s a batch
    ((10,) * 50, 1e-3, 0.1, 4, 4),  # ... but never more than max_arcs
    ((1, 1, 1000, 1000), 1e-3, 0.1, 2000, 2),  # a hub arc would overrun the batch
    ((1000, 1000), 1e-3, 0.1, 2000, 1),  # a batch holds at least one arc
])
def test_a_batch_is_about_batch_s_of_work(costs, unit_s, batch_s, max_arcs, want) -> None:
    pacer = Pacer(budget_s=100, batch_s=batch_s, max_arcs=max_arcs, unit_s=unit_s)
    assert pacer.take(arcs(*costs), elapsed_s=0) == want


def test_nothing_is_taken_once_the_budget_is_spent_or_when_the_next_arc_would_overrun_it() -> None:
    pacer = Pacer(budget_s=10, batch_s=5, unit_s=1e-3)
    assert pacer.take(arcs(100, 100), elapsed_s=10) == 0
    assert pacer.take(arcs(100, 100), elapsed_s=9.95) == 0  # 0.1 s an arc, 0.05 s left
    assert pacer.take(arcs(100, 100), elapsed_s=9.85) == 1  # the batch shrinks to what is left
    assert pacer.take([], elapsed_s=0) == 0


def test_the_cost_per_unit_is_learnt_from_the_last_batch() -> None:
    pacer = Pacer(budget_s=100, batch_s=1.0, unit_s=1e-6)
    todo = arcs(*(1000,) * 100)
    assert pacer.take(todo, elapsed_s=0) == 100  # guessed 1 ms an arc
    pacer.done(todo[:10], seconds=1.0)  # it took 100 ms an arc
    assert pacer.unit_s == pytest.approx(1e-4)
    assert pacer.take(todo, elapsed_s=1) == 10
