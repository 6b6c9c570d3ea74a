"""The decay clock starts when a fact was told: `memory add --at` a year ago is a year faded today."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from assistant.cli import main
from memory.decay import DecayModel
from memory.graph import TemporalGraph
from memory.timeutil import iso
from memory.vocabulary import relation

YEAR = timedelta(days=365)


def expected(rel: str, days: float) -> float:
    d = DecayModel()
    return d.initial_strength * math.exp(-d.initial_rate(relation(rel).decay) * days)


def test_memory_add_at_a_year_ago_has_decayed_by_a_year(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    told = datetime.now(UTC) - YEAR
    at = iso(told) or ""
    assert main(["--data-dir", str(tmp_path), "memory", "add", "user", "lives_in", "Porto", "--at", at]) == 0
    capsys.readouterr()
    assert main(["--data-dir", str(tmp_path), "memory", "show", "user", "--json"]) == 0
    (f,) = json.loads(capsys.readouterr().out)["facts"]
    assert f["last_reinforced"] == iso(told)
    assert f["weight"] == pytest.approx(expected("lives_in", 365), abs=2e-4)  # was 1.0: the clock started today


def test_told_at_sets_the_clock_and_an_older_telling_never_winds_it_back(graph: TemporalGraph) -> None:
    now = datetime(2027, 1, 5, tzinfo=UTC)
    graph.assert_fact("Anna", "lives_in", "Porto", now=now, valid_from=now - YEAR, told_at=now - YEAR)
    (a,) = graph.history("Anna", "lives_in", now=now)
    assert a.last_reinforced == now - YEAR and a.weight == pytest.approx(expected("lives_in", 365), rel=1e-6)
    graph.assert_fact("Anna", "lives_in", "Porto", now=now, told_at=now - 2 * YEAR)  # an older telling, typed in late
    (a,) = graph.history("Anna", "lives_in", now=now)
    assert a.last_reinforced == now - YEAR and a.reinforcements == 1
    with pytest.raises(Exception, match="told in the future"):
        graph.assert_fact("Anna", "likes", "tea", now=now, told_at=now + timedelta(days=1))
