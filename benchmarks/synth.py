"""Deterministic synthetic temporal knowledge graph (entities + arcs) for the graph-store benchmark."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from memory.decay import DecayModel
from memory.model import USER_ID
from memory.names import normalize
from memory.timeutil import DAY
from memory.vocabulary import RELATIONS
from memory.words import USER_KEYS

Row = dict[str, Any]

NOW = 1_767_225_600.0  # 2026-01-01T00:00:00Z: "now" of the synthetic history
SPAN = 730 * DAY  # arcs start anywhere in the two years before NOW

TYPE_MIX: dict[str, float] = {
    "PERSON": 0.34, "PLACE": 0.10, "ORG": 0.08, "THING": 0.12, "ACTIVITY": 0.06, "FOOD": 0.08,
    "ANIMAL": 0.05, "DATE": 0.04, "ROLE": 0.04, "TOPIC": 0.09,
}
# Relative frequency of each relation: associations and tastes dominate, identity facts are rarer.
REL_MIX: dict[str, float] = {
    "knows": 14, "related_to": 12, "likes": 10, "friend_of": 7, "visited": 6, "colleague_of": 5,
    "dislikes": 3, "owns": 4, "practices": 3, "plays": 2, "member_of": 3, "lives_in": 3, "works_at": 3,
    "works_as": 2, "studies": 2, "neighbour_of": 2, "is_a": 3, "speaks": 2, "has_pet": 1.5, "drives": 1,
    "teaches": 1, "reports_to": 1, "studies_at": 1, "allergic_to": 0.5, "born_in": 0.5, "born_on": 0.5,
    "grew_up_in": 0.5, "spouse_of": 0.5, "partner_of": 0.5, "sibling_of": 0.7, "sister_of": 0.5,
    "brother_of": 0.5, "mother_of": 0.4, "father_of": 0.4, "parent_of": 0.3, "daughter_of": 0.3,
    "son_of": 0.3, "child_of": 0.3, "cousin_of": 0.5, "aunt_of": 0.2, "uncle_of": 0.2, "niece_of": 0.2,
    "nephew_of": 0.2, "grandparent_of": 0.2, "grandchild_of": 0.2,
}
# Object types for relations the vocabulary leaves untyped.
UNTYPED_OBJECTS: dict[str, tuple[str, ...]] = {
    "likes": ("FOOD", "ACTIVITY", "THING", "TOPIC", "PLACE", "PERSON"),
    "dislikes": ("FOOD", "ACTIVITY", "THING", "TOPIC"),
    "speaks": ("TOPIC",),
    "is_a": ("THING", "TOPIC", "ANIMAL"),
    "allergic_to": ("FOOD", "ANIMAL"),
    "related_to": tuple(TYPE_MIX),
}
SUBJECT_TYPES: dict[str, tuple[str, ...]] = {
    "is_a": ("ANIMAL", "THING", "FOOD", "PLACE"),
    "related_to": tuple(TYPE_MIX),
    "member_of": ("PERSON", "ORG"),
}
LABELS = ("part of", "near", "reminds of", "gift from", "used for", "mentioned with", "bought at")
FIRST = ("Ada", "Ben", "Chloe", "Dev", "Eva", "Finn", "Gita", "Hugo", "Ines", "Jon", "Kai", "Lena", "Mo",
         "Nia", "Omar", "Pia", "Raj", "Sara", "Tom", "Uma", "Vik", "Wen", "Yara", "Zoe")
LAST = ("Abbott", "Berg", "Costa", "Dahl", "Ek", "Fox", "Gray", "Holm", "Ito", "Jansen", "Khan", "Lund",
        "Meyer", "Novak", "Okafor", "Park", "Quinn", "Rossi", "Silva", "Tan", "Ueda", "Vogel", "Wong")
ZIPF = 1.0  # exponent of the rank-weighted endpoint choice: a few hubs, a long tail of leaves
CLOSED_SHARE = 0.20
RETRACTED_SHARE = 0.01


@dataclass
class SynthGraph:
    """Column arrays of one synthetic graph; rows are built lazily, batch by batch."""

    entity_ids: list[str]
    names: list[str]
    types: np.ndarray
    degree: np.ndarray
    arcs: dict[str, np.ndarray]
    relations: list[str]
    now: float = NOW
    first_seen: np.ndarray = field(default_factory=lambda: np.empty(0))
    last_seen: np.ndarray = field(default_factory=lambda: np.empty(0))

    @property
    def n_entities(self) -> int:
        return len(self.entity_ids)

    @property
    def n_arcs(self) -> int:
        return len(self.arcs["subject"])

    def entity_rows(self, batch: int) -> Iterator[list[Row]]:
        for lo in range(0, self.n_entities, batch):
            yield [self._entity_row(i) for i in range(lo, min(lo + batch, self.n_entities))]

    def arc_rows(self, batch: int) -> Iterator[list[Row]]:
        for lo in range(0, self.n_arcs, batch):
            cols = {k: v[lo:lo + batch].tolist() for k, v in self.arcs.items()}
            n = len(cols["subject"])
            yield [_arc_row(lo + j, cols, j, self.entity_ids, self.relations) for j in range(n)]

    def _entity_row(self, i: int) -> Row:
        name = self.names[i]
        return {"id": self.entity_ids[i], "name": name, "type": TYPES[int(self.types[i])], "aliases": [],
                "keys": [normalize(name)] if i else sorted({*USER_KEYS, "user"}),
                "is_user": i == 0, "created_at": float(self.first_seen[i]),
                "last_seen": float(self.last_seen[i]),
                "mentions": int(self.degree[i]) + 1, "t_index": 0}

    def finish(self) -> SynthGraph:
        """Per-entity first and last mention, from the arcs (created_at / last_seen)."""
        first = np.full(self.n_entities, np.inf)
        last = np.full(self.n_entities, -np.inf)
        for end in ("subject", "object"):
            np.minimum.at(first, self.arcs[end], self.arcs["recorded_at"])
            np.maximum.at(last, self.arcs[end], self.arcs["last_reinforced"])
        self.first_seen = np.where(np.isfinite(first), first, self.now - SPAN)
        self.last_seen = np.where(np.isfinite(last), last, self.first_seen)
        return self


TYPES = list(TYPE_MIX)


def _arc_row(i: int, c: dict[str, list[Any]], j: int, ids: list[str], rels: list[str]) -> Row:
    rel = rels[c["relation"][j]]
    conv = c["conversations"][j]
    vt, ca, ea = c["valid_to"][j], c["closed_at"][j], c["expired_at"][j]
    return {
        "id": f"a-{i:07d}", "subject_id": ids[c["subject"][j]], "object_id": ids[c["object"][j]],
        "relation": rel, "label": LABELS[i % len(LABELS)] if rel == "related_to" else None,
        "strength": c["strength"][j], "decay_rate": c["decay_rate"][j],
        "reinforcements": c["reinforcements"][j], "conversations": conv,
        "conversation_ids": [f"c-{(i * 7 + k) % 50_000:05d}" for k in range(conv)],
        "last_reinforced": c["last_reinforced"][j], "valid_from": c["valid_from"][j],
        "valid_to": None if vt != vt else vt, "recorded_at": c["recorded_at"][j],
        "closed_at": None if ca != ca else ca, "expired_at": None if ea != ea else ea,
        "t_index": i + 1, "confidence": c["confidence"][j], "sources": [f"conv:c-{i % 50_000:05d}"],
    }


def _names(rng: np.random.Generator, types: np.ndarray) -> list[str]:
    out = ["User"]
    for i in range(1, len(types)):
        t = TYPES[int(types[i])]
        if t == "PERSON":
            out.append(f"{FIRST[int(rng.integers(len(FIRST)))]} {LAST[int(rng.integers(len(LAST)))]} {i}")
        else:
            out.append(f"{t.title()} {i}")
    return out


def _rank_weights(rng: np.random.Generator, members: np.ndarray) -> np.ndarray:
    """Zipf-like weights over a random ranking of ``members`` (the user, if present, ranks first)."""
    order = rng.permutation(len(members))
    if len(members) and members[0] == 0:  # pools are sorted: the user heads PERSON and ranks first
        top = int(np.argmin(order))
        order[[0, top]] = order[[top, 0]]
    w = 1.0 / (order + 1.0) ** ZIPF
    return w / w.sum()


def _endpoints(rng: np.random.Generator, types: np.ndarray, rel_idx: np.ndarray,
               rels: list[str]) -> tuple[np.ndarray, np.ndarray]:
    pools = {t: np.flatnonzero(types == k) for k, t in enumerate(TYPES)}
    weights = {t: _rank_weights(rng, pools[t]) for t in TYPES}
    subj = np.empty(len(rel_idx), dtype=np.int64)
    obj = np.empty(len(rel_idx), dtype=np.int64)
    for r, name in enumerate(rels):
        sel = np.flatnonzero(rel_idx == r)
        subj[sel] = _pick(rng, SUBJECT_TYPES.get(name, ("PERSON",)), pools, weights, len(sel))
        ot = RELATIONS[name].object_type
        obj[sel] = _pick(rng, (ot.value,) if ot else UNTYPED_OBJECTS[name], pools, weights, len(sel))
    loops = np.flatnonzero(subj == obj)
    obj[loops] = (obj[loops] + 1) % len(types)  # no self-arcs (assert_fact refuses them)
    return subj, obj


def _pick(rng: np.random.Generator, allowed: tuple[str, ...], pools: dict[str, np.ndarray],
          weights: dict[str, np.ndarray], n: int) -> np.ndarray:
    kinds = rng.integers(len(allowed), size=n)
    out = np.empty(n, dtype=np.int64)
    for k, t in enumerate(allowed):
        sel = np.flatnonzero(kinds == k)
        out[sel] = rng.choice(pools[t], size=len(sel), p=weights[t])
    return out


def _times(rng: np.random.Generator, m: int, now: float) -> dict[str, np.ndarray]:
    valid_from = now - rng.uniform(DAY, SPAN, m)
    lag = np.minimum(rng.exponential(3 * DAY, m), now - valid_from)
    recorded = valid_from + lag * (rng.random(m) < 0.3)  # most facts are told as they happen
    last = recorded + (now - recorded) * rng.random(m) ** 2
    return {"valid_from": valid_from, "recorded_at": recorded, "last_reinforced": last}


def _close_history(a: dict[str, np.ndarray], single: np.ndarray, rng: np.random.Generator,
                   now: float) -> None:
    """Single-valued relations keep one open value per subject; then close at random up to ~20%."""
    m = len(a["subject"])
    order = np.lexsort((a["valid_from"], a["relation"], a["subject"]))
    same = (a["subject"][order][1:] == a["subject"][order][:-1]) & (
        a["relation"][order][1:] == a["relation"][order][:-1])
    superseded = order[:-1][same & single[a["relation"][order][:-1]]]
    valid_to = np.full(m, np.nan)
    valid_to[superseded] = a["valid_from"][order[1:][same & single[a["relation"][order][:-1]]]]
    extra = max(0.0, CLOSED_SHARE - len(superseded) / m)
    more = np.isnan(valid_to) & (rng.random(m) < extra / max(1e-9, 1 - len(superseded) / m))
    start = a["valid_from"][more]
    valid_to[more] = start + (now - start) * rng.uniform(0.05, 0.95, len(start))
    valid_to = np.where(valid_to <= a["valid_from"], a["valid_from"] + 60.0, valid_to)
    a["valid_to"] = valid_to
    told = np.maximum(valid_to, a["recorded_at"]) + rng.exponential(DAY, m)
    a["closed_at"] = np.where(np.isnan(valid_to), np.nan, np.minimum(told, now))
    retracted = rng.random(m) < RETRACTED_SHARE
    a["expired_at"] = np.where(retracted, a["recorded_at"] + (now - a["recorded_at"]) * rng.random(m), np.nan)


def _strength(rng: np.random.Generator, a: dict[str, np.ndarray], base_rate: np.ndarray) -> None:
    m = len(a["subject"])
    model = DecayModel()
    reinf = rng.geometric(0.45, m) - 1
    conv = np.minimum(reinf + 1, rng.integers(1, 6, m))
    a["reinforcements"] = reinf
    a["conversations"] = conv
    a["strength"] = np.minimum(model.max_strength, 1.0 + reinf * rng.uniform(0.3, 1.0, m))
    rate = base_rate[a["relation"]] * model.consolidation ** (conv - 1)
    a["decay_rate"] = np.maximum(model.min_rate, rate)
    a["confidence"] = np.where(rng.random(m) < 0.85, 1.0, np.round(rng.uniform(0.15, 0.95, m), 2))


def generate(n_entities: int, n_arcs: int, seed: int = 7, now: float = NOW) -> SynthGraph:
    """A graph with a power-law-ish degree distribution, two years of history, ~20% closed arcs."""
    rng = np.random.default_rng(seed)
    types = rng.choice(len(TYPES), size=n_entities, p=np.array(list(TYPE_MIX.values())))
    types[0] = TYPES.index("PERSON")
    rels = list(REL_MIX)
    p = np.array(list(REL_MIX.values()))
    rel_idx = rng.choice(len(rels), size=n_arcs, p=p / p.sum())
    subj, obj = _endpoints(rng, types, rel_idx, rels)
    arcs: dict[str, np.ndarray] = {"subject": subj, "object": obj, "relation": rel_idx,
                                   **_times(rng, n_arcs, now)}
    single = np.array([RELATIONS[r].single_valued for r in rels])
    _close_history(arcs, single, rng, now)
    model = DecayModel()
    _strength(rng, arcs, np.array([model.initial_rate(RELATIONS[r].decay) for r in rels]))
    order = np.argsort(arcs["recorded_at"], kind="stable")  # t_index follows record time
    arcs = {k: v[order] for k, v in arcs.items()}
    degree = np.bincount(subj, minlength=n_entities) + np.bincount(obj, minlength=n_entities)
    ids = [USER_ID] + [f"e-{i:06d}" for i in range(1, n_entities)]
    return SynthGraph(ids, _names(rng, types), types, degree, arcs, rels, now).finish()
