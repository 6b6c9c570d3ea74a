"""Score an extractor on annotated utterances: P/R/F1 over normalised (subject, relation, object, op)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from memory.extraction.types import ExtractedFact
from memory.names import normalize
from memory.timeutil import parse_time
from memory.vocabulary import RELATIONS, is_relation, relation

Key = tuple[str, str, str, str]
ExtractFn = Callable[[str, datetime, Sequence[str]], Sequence[ExtractedFact]]


@dataclass(frozen=True)
class Example:
    """One annotated utterance."""

    id: str
    at: datetime
    text: str
    context: tuple[str, ...]
    expected: tuple[Key, ...]


@dataclass
class Counts:
    """True positives, false positives and false negatives, with the ratios."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class Scores(Counts):
    """Overall counts plus a per-relation breakdown and the individual errors."""

    per_relation: dict[str, Counts] = field(default_factory=dict)
    misses: list[tuple[str, str, Key]] = field(default_factory=list)  # (example id, text, expected key)
    false_positives: list[tuple[str, str, Key]] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(
        default_factory=list
    )  # (example id, exception) when extract_fn raised
    examples: int = 0


def _norm(name: str) -> str:
    return normalize(name) or name.strip().lower()


def canonical(subject: str, rel: str, obj: str, op: str) -> Key:
    """Normalise names and relation aliases; symmetric relations get a fixed argument order."""
    name = relation(rel).name if is_relation(rel) else rel
    s, o = _norm(subject), _norm(obj)
    if name in RELATIONS and RELATIONS[name].symmetric and o < s:
        s, o = o, s
    return (s, name, o, op)


def fact_key(f: ExtractedFact) -> Key:
    return canonical(f.subject, f.relation, f.object, f.op)


def load_examples(path: str | Path) -> list[Example]:
    """Read the JSONL test set (one utterance per line)."""
    out: list[Example] = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        d = json.loads(line)
        exp = tuple(
            canonical(e["subject"], e["relation"], e["object"], e.get("op", "assert"))
            for e in d.get("expected", [])
        )
        out.append(
            Example(str(d.get("id", n)), parse_time(d["at"]), d["text"], tuple(d.get("context", [])), exp)
        )
    return out


def score(extract_fn: ExtractFn, examples: Iterable[Example]) -> Scores:
    """Run `extract_fn(text, at, context)` on every example and compare typed triples."""
    s = Scores()
    for ex in examples:
        s.examples += 1
        try:
            got = {fact_key(f) for f in extract_fn(ex.text, ex.at, ex.context)}
        except Exception as e:  # a crashing extractor scores as extracting nothing
            s.errors.append((ex.id, f"{type(e).__name__}: {e}"))
            got = set()
        want = set(ex.expected)
        for key in got | want:
            c = s.per_relation.setdefault(key[1], Counts())
            if key in got and key in want:
                s.tp += 1
                c.tp += 1
            elif key in got:
                s.fp += 1
                c.fp += 1
                s.false_positives.append((ex.id, ex.text, key))
            else:
                s.fn += 1
                c.fn += 1
                s.misses.append((ex.id, ex.text, key))
    return s
