"""The scenario harness runs each scenario on a memory of its own, even when two sets reuse an id."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _scenario(said: list[str], expect: list[str], stale: list[str]) -> str:
    turns = [{"at": "2026-03-01T10:00:00Z", "speaker": "user", "text": t} for t in said]
    return json.dumps({"id": "home", "conversations": [{"id": "c1", "turns": turns}],
                       "probes": [{"after": "c1", "at": "2026-03-02T10:00:00Z", "question": "Where do I live?",
                                   "expect": expect, "stale": stale}]}) + "\n"


def test_a_reused_scenario_id_does_not_share_the_memory(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(_scenario(["I live in Leeds."], ["Leeds"], []))
    second.write_text(_scenario(["I had toast for breakfast."], ["know"], ["Leeds"]))  # nothing said of a home
    out = tmp_path / "out.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "eval_scenarios.py"), str(first), str(second),
                          "--no-llm", "--json-out", str(out)], capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    results = json.loads(out.read_text())
    assert [(r["file"], r["ok"]) for r in results] == [("a.jsonl", True), ("b.jsonl", True)], results
