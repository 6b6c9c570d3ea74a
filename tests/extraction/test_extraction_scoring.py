"""Tests for the extraction scorer and the test-set loader."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from memory.extraction.scoring import canonical, load_examples, score
from memory.extraction.types import ExtractedFact

DATA = Path(__file__).resolve().parents[1] / "data" / "extraction_set.jsonl"


def _write(tmp_path: Path, rows: list[dict[str, object]]) -> Path:
    p = tmp_path / "set.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return p


ROWS: list[dict[str, object]] = [
    {
        "id": "a",
        "at": "2026-01-01T10:00:00Z",
        "text": "My friend Tom plays the guitar.",
        "context": [],
        "expected": [
            {"subject": "Tom", "relation": "friend_of", "object": "user", "op": "assert"},
            {"subject": "Tom", "relation": "plays", "object": "guitar", "op": "assert"},
        ],
    },
    {"id": "b", "at": "2026-01-01T10:00:00Z", "text": "Tell me a joke.", "context": [], "expected": []},
]


def test_canonical_normalises_names_aliases_and_symmetry() -> None:
    assert canonical("The Saint Mary's  Hospital", "works_for", "x", "assert")[:2] == (
        "saint marys hospital",
        "works_at",
    )
    assert canonical("user", "friend_of", "Tom", "assert") == canonical("Tom", "friend_of", "user", "assert")
    assert canonical("user", "sister_of", "Anna", "assert") != canonical(
        "Anna", "sister_of", "user", "assert"
    )


def test_score_counts_and_lists_errors(tmp_path: Path) -> None:
    examples = load_examples(_write(tmp_path, ROWS))

    def fake(text: str, at: datetime, context: Sequence[str]) -> list[ExtractedFact]:
        if "guitar" in text:  # one right (symmetric order flipped), one wrong object
            return [ExtractedFact("user", "friend_of", "Tom"), ExtractedFact("Tom", "plays", "the piano")]
        return [ExtractedFact("user", "likes", "jokes")]

    s = score(fake, examples)
    assert (s.tp, s.fp, s.fn) == (1, 2, 1)
    assert abs(s.precision - 1 / 3) < 1e-9 and s.recall == 0.5
    assert abs(s.f1 - 0.4) < 1e-9
    assert s.per_relation["plays"].fn == 1 and s.per_relation["plays"].fp == 1
    assert s.per_relation["friend_of"].tp == 1
    assert ("b", "Tell me a joke.", ("user", "likes", "jokes", "assert")) in s.false_positives
    assert [m[2] for m in s.misses] == [("tom", "plays", "guitar", "assert")]


def test_op_matters_and_crashes_count_as_empty(tmp_path: Path) -> None:
    examples = load_examples(_write(tmp_path, ROWS[:1]))

    def ended(text: str, at: datetime, context: Sequence[str]) -> list[ExtractedFact]:
        return [ExtractedFact("Tom", "plays", "guitar", "end")]

    assert score(ended, examples).tp == 0

    def boom(text: str, at: datetime, context: Sequence[str]) -> list[ExtractedFact]:
        raise RuntimeError("no model")

    s = score(boom, examples)
    assert s.fn == 2 and s.errors and "no model" in s.errors[0][1]


def test_empty_is_perfect_by_convention() -> None:
    s = score(lambda text, at, context: [], [])
    assert (s.precision, s.recall, s.examples) == (1.0, 1.0, 0)


def test_the_shipped_set_is_well_formed() -> None:
    examples = load_examples(DATA)
    assert len(examples) >= 80
    assert len({e.id for e in examples}) == len(examples)
    assert sum(1 for e in examples if not e.expected) >= 15
    assert sum(1 for e in examples if e.context) >= 5
    ops = {k[3] for e in examples for k in e.expected}
    assert ops == {"assert", "end", "retract"}
    for e in examples:
        assert e.at.tzinfo is not None
