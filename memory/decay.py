"""Strength, reinforcement and decay of arcs: w(now) = a·exp(−b·(now − last_reinforced)).

One exponential cannot tell working memory from long-term memory (the seed's own caveat), so the
rate ``b`` is not fixed: it starts from the relation's decay class and falls by ``consolidation``
each time a *different conversation* reinforces the arc (spacing effect), down to ``min_rate``.
A fact heard once fades within weeks; one repeated across several conversations lasts years.
Decay ranks and prunes associations; it never decides truth (validity does that).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from memory.timeutil import DAY
from memory.vocabulary import DecayClass


@dataclass(frozen=True)
class DecayModel:
    initial_strength: float = 1.0
    increment: float = 1.0  # Hebbian: each reinforcement adds this to the decayed strength
    max_strength: float = 10.0
    # base rates per day by decay class; half-life = ln 2 / rate
    rates: dict[DecayClass, float] = field(
        default_factory=lambda: {
            DecayClass.STABLE: 0.001,
            DecayClass.DURABLE: 0.01,
            DecayClass.VOLATILE: 0.05,
        }
    )
    consolidation: float = 0.5  # rate multiplier per reinforcing conversation after the first
    min_rate: float = 0.0002

    def initial_rate(self, cls: DecayClass) -> float:
        return self.rates[cls]

    def weight(self, strength: float, rate: float, last_reinforced: float, now: float) -> float:
        """Effective weight at ``now`` (epoch seconds); never grows when asked about the past."""
        age_days = max(0.0, (now - last_reinforced) / DAY)
        return strength * math.exp(-rate * age_days)

    def reinforce(
        self, strength: float, rate: float, last_reinforced: float, now: float, *, new_conversation: bool
    ) -> tuple[float, float]:
        """New (strength, rate) after one more mention at ``now``."""
        decayed = self.weight(strength, rate, last_reinforced, now)
        new_strength = min(self.max_strength, decayed + self.increment)
        new_rate = max(self.min_rate, rate * self.consolidation) if new_conversation else rate
        return new_strength, new_rate

    def half_life_days(self, rate: float) -> float:
        return math.log(2) / rate if rate > 0 else math.inf


# The same formula as DecayModel.weight, for use inside Cypher with $now in epoch seconds.
WEIGHT_CYPHER = (
    "{a}.strength * exp(-{a}.decay_rate * "
    "(CASE WHEN $now > {a}.last_reinforced THEN $now - {a}.last_reinforced ELSE 0.0 END) / 86400.0)"
)
