"""Pruning faded arcs inside a time budget: cheapest first, in transactions sized by the cost measured so far.

Deleting an arc in kglite walks its ends' arc lists (and the write-ahead log names a parallel arc by walking its
subject's), so an arc costs about the number of arcs at its two ends: at the user, with ~100k arcs, ~20 ms; at a
leaf, ~10 µs. Ordering by that cost prunes most of a backlog in seconds and leaves the hubs' arcs for last;
sizing each transaction by cost keeps one from holding the store for minutes (2,000 arcs at the user took 40 s).
Pure logic: the elapsed times are passed in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

UNIT_S = 2e-7  # first guess of seconds per arc-at-an-end (the user's deletes on 2 cores), learnt per batch after


@dataclass(frozen=True)
class Faded:
    id: str
    subject: str
    cost: int  # arcs at its subject + arcs at its object


def by_cost(rows: Iterable[Mapping[str, object]], degrees: Mapping[str, int]) -> list[Faded]:
    """Candidates (id, subject, object) cheapest first; ties by subject, so a batch touches few subjects."""
    out = [Faded(str(r["id"]), str(r["subject"]),
                 degrees.get(str(r["subject"]), 0) + degrees.get(str(r["object"]), 0)) for r in rows]
    return sorted(out, key=lambda f: (f.cost, f.subject, f.id))


class Pacer:
    """How many of the next arcs to delete in one transaction: about ``batch_s`` of work by the cost per unit
    learnt from the batches done, at most ``max_arcs``, none once ``budget_s`` is spent or when even the next
    arc would not fit in what is left of it."""

    def __init__(self, *, budget_s: float, batch_s: float = 1.0, max_arcs: int = 2000,
                 unit_s: float = UNIT_S) -> None:
        self.budget_s, self.batch_s, self.max_arcs = budget_s, batch_s, max(1, max_arcs)
        self.unit_s = unit_s

    def take(self, todo: Sequence[Faded], elapsed_s: float) -> int:
        left = self.budget_s - elapsed_s
        if left <= 0 or not todo or self._seconds(todo[0]) > left:
            return 0
        allowed = min(self.batch_s, left)
        n, spent = 0, 0.0
        for f in todo[:self.max_arcs]:
            spent += self._seconds(f)
            if n and spent > allowed:
                break
            n += 1
        return n

    def done(self, batch: Sequence[Faded], seconds: float) -> None:
        """Learn from a batch: its time (statement and commit) over its cost."""
        units = sum(_units(f) for f in batch)
        if units and seconds > 0:
            self.unit_s = seconds / units

    def _seconds(self, f: Faded) -> float:
        return _units(f) * self.unit_s


def _units(f: Faded) -> int:
    return max(1, f.cost)


__all__ = ["Faded", "Pacer", "by_cost"]
