"""The extraction holdout parses and has its fields; its scorer matches facts the way its docstring says."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from benchmarks.holdout_score import HOLDOUT, counts, load, score, score_row, validate
from memory.vocabulary import is_relation


def F(s: str, p: str, o: str, op: str = "assert", **kw: Any) -> dict[str, Any]:
    return {"subject": s, "predicate": p, "object": o, "op": op, **kw}


def G(s: str, p: str, o: str, op: str = "assert", kind: str = "state", alt: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"subject": s, "predicate": p, "object": o, "kind": kind, "op": op, "when": None, "duration": None,
            "alt_predicates": list(alt)}


def row(
    facts: list[dict[str, Any]], must_not: tuple[dict[str, Any], ...] = (), speaker: str = "user"
) -> dict[str, Any]:
    return {"id": "r", "speaker": speaker, "facts": facts, "must_not": list(must_not)}


def test_holdout_parses_and_covers_what_it_must() -> None:
    rows = load()
    assert validate(rows) == []
    c = counts(rows)
    assert c["utterances"] >= 150 and c["locomo"] >= 80 and c["written"] >= 70
    assert {"state", "event", "plan"} <= set(c["by_kind"]) and c["by_op"].get("end", 0) >= 10
    assert c["with_when"] >= 20 and c["with_duration"] >= 3
    assert sum(not r["facts"] for r in rows) >= 40  # chit-chat and hard negatives yield nothing
    open_preds = {f["predicate"] for r in rows for f in r["facts"] if not is_relation(f["predicate"])}
    assert len(open_preds) >= 30  # facts outside the vocabulary
    # every fact scores as right against itself, and no gold fact is one of its row's must_nots
    s = score([{"id": r["id"], "facts": r["facts"]} for r in rows], rows)
    assert (s["precision"], s["recall"], s["must_not_hits"]) == (1.0, 1.0, 0)


def test_first_person_articles_aliases_and_containment() -> None:
    gold = row([G("user", "lives_in", "Leeds"), G("Callum", "partner_of", "user", alt=("boyfriend_of",)),
                G("user", "owns", "hand-painted bowl")])
    res = score_row([F("I", "live_in", "a flat in Leeds"), F("my boyfriend Callum", "boyfriend_of", "me"),
                     F("me", "has", "the hand painted bowl")], gold)
    assert len(res["tp"]) == 2 and res["fp"] == [F("me", "has", "the hand painted bowl")]


def test_must_not_is_wrong_even_where_it_overlaps_a_gold_fact() -> None:
    gold = row([G("user", "owns", "hand-painted bowl"), G("user", "lives_with", "Callum")],
               (F("user", "likes", "hand"), F("user", "lives_in", "Callum")))
    res = score_row([F("I", "loves", "hand"), F("I", "lives_in", "Callum"), F("I", "owns", "hand-painted bowl")], gold)
    assert len(res["must_not_hits"]) == 2 and len(res["tp"]) == 1
    assert res["fn"] == [gold["facts"][1]]  # lives_in is not lives_with


def test_a_symmetric_relation_reads_both_ways_and_no_other_does() -> None:
    gold = row([G("user", "spouse_of", "Idris", alt=("married_to",)), G("Maeve", "sister_of", "user")])
    res = score_row([F("Idris", "spouse_of", "me"), F("me", "sister_of", "Maeve")], gold)
    assert [p["subject"] for p, _ in res["tp"]] == ["Idris"]  # spouse_of is symmetric in the vocabulary
    assert res["fp"] == [F("me", "sister_of", "Maeve")]  # sister_of is not: the flipped fact is another


def test_op_and_past_tense() -> None:
    gold = row([G("user", "plays", "cello", op="end", alt=("played",)), G("user", "works_at", "Sainsbury's", op="end")],
               (F("user", "works_at", "Sainsbury's"),))
    res = score_row([F("user", "plays", "cello"), F("user", "worked_at", "Sainsburys")], gold)
    assert [p["predicate"] for p, _ in res["tp"]] == ["worked_at"]
    assert res["fp"] == [F("user", "plays", "cello")] and res["must_not_hits"] == []
    assert len(score_row([F("user", "plays", "cello", op="end")], gold)["tp"]) == 1


def test_guest_speaker_and_counts() -> None:
    gold = row([G("Priya", "lives_in", "Bristol")], (F("user", "lives_in", "Bristol"),), speaker="Priya")
    res = score_row([F("I", "lives_in", "Bristol"), F("user", "lives_in", "Bristol")], gold)
    assert len(res["tp"]) == 1 and len(res["must_not_hits"]) == 1
    s = score([{"id": "r", "facts": [F("I", "lives_in", "Bristol"), F("me", "resides_in", "Bristol, England"),
                                     F("I", "likes", "Bristol")]}], [gold])
    assert (s["tp"], s["fp"], s["fn"], s["duplicates"]) == (1, 1, 0, 1)
    assert s["precision"] == 0.5 and s["recall"] == 1.0 and abs(s["f1"] - 2 / 3) < 1e-9
    assert score([], [gold])["recall"] == 0.0


def test_locomo_turns_are_the_seeded_picks() -> None:
    spec = importlib.util.spec_from_file_location("pick_holdout", HOLDOUT.parent / "pick_holdout.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    try:
        folder = mod.locomo_dir()
    except SystemExit:
        pytest.skip("LoCoMo files not on this machine")
    picked = mod.pick(folder)
    mine = [r for r in load() if r["source"] != "written"]
    assert [(r["id"], r["text"], r["at"]) for r in picked] == [(r["id"], r["text"], r["at"]) for r in mine]


def test_an_infinitive_to_is_no_second_preposition() -> None:
    """"plans_to_move_to" and "plans_move_to" say one thing; "lives_in" is still not "lives_with"."""
    gold = row([G("Marisa", "plans_move_to", "Porto", kind="plan"), G("user", "lives_with", "Callum")])
    res = score_row([F("Marisa", "plans_to_move_to", "Porto"), F("user", "lives_in", "Callum")], gold)
    assert [p["predicate"] for p, _ in res["tp"]] == ["plans_to_move_to"]
    assert res["fp"] == [F("user", "lives_in", "Callum")]
