"""`assistant consolidate` prints what the night did, in words (assistant/commands/misc.py: describe_report)."""

from __future__ import annotations

from assistant.commands.misc import describe_report

REPORT = {"id": "r-1", "at": "2026-11-23T03:30:00Z", "pruned_arcs": 12, "removed_entities": 1, "merged": [],
          "left_alone": [], "closed": [], "prune_deferred": 40, "summaries": 7,
          "added": [{"kind": "added", "subject": "Priya", "relation": "keeps", "object": "bees"}],
          "relearning": "re-learned 1 conversation(s) from the last 24 h: 1 fact(s) added, 0 reinforced",
          "timings_s": {"relearn": 3.0, "prune": 0.5}}


def test_the_night_in_words() -> None:
    text = "\n".join(describe_report(REPORT))
    assert "pruned 12 faded arc(s)" in text and "added 1." in text
    assert "re-learning: re-learned 1 conversation(s)" in text
    assert "learned again from the day: Priya keeps bees" in text
    assert "left for the next night: 40 faded arc(s)" in text
    assert "summarised the 7 most salient entit(ies)" in text
    quiet = "\n".join(describe_report(REPORT | {"added": [], "prune_deferred": 0, "summaries": 0}))
    assert "learned again" not in quiet and "next night" not in quiet and "summarised" not in quiet
