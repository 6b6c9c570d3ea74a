"""Score extracted facts against benchmarks/data/extraction_holdout.jsonl (pure: no model, no graph).

    score(predicted, gold) -> {"precision", "recall", "f1", "tp", "fp", "fn", ...}

`gold` is the holdout's rows (dicts with id, speaker, facts, must_not); `predicted` is rows
{"id", "facts": [{"subject", "predicate", "object", "op"?, "when"?}]}, one per utterance scored (an
utterance with no row predicted nothing). A predicted fact is right when, after normalisation, its subject
and object match a gold fact's and its predicate is the gold predicate, one of its alt_predicates, or shares
its stem; a prediction that matches a `must_not` is wrong even where it would loosely match a gold fact.

Normalisation: case, accents, punctuation and the articles a/an/the are dropped, hyphens split words;
'I', 'me', 'myself', 'user' and the speaker's name are the same person, 'my X' / 'our X' is "<speaker>'s X";
a multiword subject or object matches one whose words it contains or is contained in (plurals folded).
Predicates: vocabulary aliases (loves -> likes, moved_to -> lives_in...) are folded, then two predicates
share a stem when their words match once suffixes (-s, -es, -ed, -ing) and auxiliaries (has, is, was...)
are dropped, prepositions kept (lives_in is not lives_with; volunteers matches volunteers_at).
`op` counts: a prediction without one asserts; a past-tense assertion ("worked_at", "used_to_play")
matches a gold `end` (the same fact, told as history). A must_not matches only an assertion, with its
object equal (not merely contained), so "owns hand" is wrong where "owns hand-painted bowl" is right.
Gold facts are matched one to one (maximum matching); a second prediction of an already matched gold fact
is a duplicate, neither right nor wrong. `kind` does not decide a match; `when` is reported apart
(`when_right` of `when_scored`: matched facts whose gold has a date, the dates agreeing to the coarser one).

    python benchmarks/holdout_score.py                 # validate the holdout, print its counts
    python benchmarks/holdout_score.py PREDICTED.jsonl  # score predictions against it
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memory.vocabulary import ALIASES, RELATIONS

HOLDOUT = Path(__file__).resolve().parent / "data" / "extraction_holdout.jsonl"

FIRST_PERSON = {"i", "me", "myself", "speaker", "the speaker"}
POSSESSIVE_FIRST = {"my", "our"}
ARTICLES = {"a", "an", "the"}
AUX = {"has", "have", "had", "is", "are", "was", "were", "be", "been", "does", "did", "do", "get", "gets", "got"}
PREPS = {"to", "of", "in", "at", "for", "on", "with", "from", "by", "about", "as", "into", "out", "up"}
IRREGULAR_PAST = {"had", "was", "were", "did", "ran", "read", "went", "grew", "got", "made", "built", "saw", "took",
                  "met", "left", "quit", "lost", "sold", "taught", "drove", "flew", "wrote", "won", "bought",
                  "split", "broke", "gave", "came", "began", "fell", "kept", "spent", "sang", "swam", "rode"}
KINDS = ("state", "event", "plan")
OPS = ("assert", "end")
FACT_KEYS = ("subject", "predicate", "object", "kind", "op", "when", "duration", "alt_predicates")
ROW_KEYS = ("id", "source", "speaker", "at", "context", "text", "facts", "must_not")

# Common spellings of the vocabulary's relations: the one table in memory/vocabulary.py.
_ALIASES: dict[str, str] = dict(ALIASES)


# ---------------------------------------------------------------- normalisation

def _plain(text: str) -> str:
    text = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    return text.lower().replace("’", "'").replace("-", " ").replace("_", " ")


def _fold(tok: str) -> str:
    """Plural folding for entity words: dogs -> dog, classes -> class; possessives and short words kept."""
    if "'" in tok or len(tok) <= 3 or tok.endswith("ss"):
        return tok
    if tok.endswith("ies") and len(tok) > 4:
        return tok[:-3] + "y"
    if tok.endswith(("sses", "shes", "ches", "xes")):
        return tok[:-2]
    return tok[:-1] if tok.endswith("s") else tok


def entity_tokens(text: str, speaker: str = "user") -> tuple[str, ...]:
    """A subject or object as comparable words; first person and the speaker's name become one token.

    A possessive keeps its "'s" ("anna's mum" is not "anna"); 'my' / 'our' / "<speaker>'s" at the start
    become "<spk>'s".
    """
    spk = " ".join(re.findall(r"[a-z0-9']+", _plain(speaker))) or "user"
    s = " ".join(re.findall(r"[a-z0-9']+", _plain(text)))
    if s in FIRST_PERSON or s == spk or (spk == "user" and s == "the user"):
        return ("<spk>",)
    out: list[str] = []
    for i, w in enumerate(s.split()):
        if w in ARTICLES:
            continue
        if i == 0 and (w in POSSESSIVE_FIRST or w == f"{spk}'s"):
            out.append("<spk>'s")
        elif w in FIRST_PERSON or w == spk:
            out.append("<spk>")
        else:
            out.append(w if w.endswith("'s") else _fold(w.replace("'", "")))
    return tuple(out) or ("",)


def _loose(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Apostrophes dropped: "st luke's" and "st lukes" are the same name."""
    return tuple(t if t.startswith("<") else _fold(t.replace("'", "")) for t in tokens)


def entities_match(pred: str, gold: str, speaker: str, exact: bool = False) -> bool:
    """Equal words, or (multiword, not `exact`) one's words all inside the other's."""
    p, g = entity_tokens(pred, speaker), entity_tokens(gold, speaker)
    if p == g or _loose(p) == _loose(g):
        return True
    if exact or (len(p) == 1 and len(g) == 1):
        return False
    return set(p) <= set(g) or set(g) <= set(p)


def _stem(tok: str) -> str:
    for suf in ("ing", "ed", "es", "s"):
        if tok.endswith(suf) and len(tok) - len(suf) >= 3:
            tok = tok[: -len(suf)]
            break
    return tok.rstrip("e") or tok


def predicate_key(pred: str) -> str:
    key = "_".join(_plain(pred).split())
    return _ALIASES.get(key, key)


def _signature(pred: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    words = [w for w in predicate_key(pred).split("_") if w]
    if words[:2] == ["used", "to"]:
        words = words[2:]
    content = tuple(_stem(w) for w in words if w not in AUX and w not in PREPS)
    preps = tuple(dict.fromkeys(w for w in words if w in PREPS))  # "plans_to_move_to" is "plans_move_to"
    return content, preps


def predicates_match(pred: str, gold: str, alts: Iterable[str] = ()) -> bool:
    p = predicate_key(pred)
    if p in {predicate_key(g) for g in (gold, *alts)}:
        return True
    (pc, pp), (gc, gp) = _signature(pred), _signature(gold)
    return bool(pc) and pc == gc and (pp == gp or not pp or not gp)


def is_past_form(pred: str) -> bool:
    """'worked_at', 'used_to_play', 'had', 'former_member_of': the predicate itself says it is over."""
    words = predicate_key(pred).split("_")
    head = words[0]
    return (words[:2] == ["used", "to"] or head in {"former", "ex", "formerly", "previously"}
            or head in IRREGULAR_PAST or (head.endswith("ed") and len(head) > 4))


def ops_match(pred: dict[str, Any], gold: dict[str, Any]) -> bool:
    p_op, g_op = pred.get("op") or "assert", gold.get("op") or "assert"
    if p_op == g_op:
        return True
    return g_op == "end" and p_op == "assert" and is_past_form(str(pred.get("predicate", "")))


def fact_matches(pred: dict[str, Any], gold: dict[str, Any], speaker: str) -> bool:
    """Ends, predicate and op agree; a symmetric vocabulary relation (spouse_of, friend_of…) reads both ways:
    "Idris spouse_of user" is the fact "user spouse_of Idris"."""
    subject, obj = str(pred.get("subject", "")), str(pred.get("object", ""))
    if not (predicates_match(str(pred.get("predicate", "")), gold["predicate"], gold.get("alt_predicates") or ())
            and ops_match(pred, gold)):
        return False
    if entities_match(subject, gold["subject"], speaker) and entities_match(obj, gold["object"], speaker):
        return True
    return (_symmetric(str(pred.get("predicate", ""))) and entities_match(obj, gold["subject"], speaker)
            and entities_match(subject, gold["object"], speaker))


def _symmetric(pred: str) -> bool:
    rel = RELATIONS.get(predicate_key(pred))
    return rel is not None and rel.symmetric


def forbidden(pred: dict[str, Any], bad: dict[str, Any], speaker: str) -> bool:
    """The prediction asserts a must_not fact (objects equal, not merely overlapping).

    A past-tense prediction ("worked_at") is history, not the present assertion a must_not forbids
    ("works_at"), unless the must_not is itself in the past tense ("won").
    """
    op = pred.get("op") or "assert"
    p_pred = str(pred.get("predicate", ""))
    if op == "assert" and is_past_form(p_pred) and not is_past_form(str(bad["predicate"])):
        op = "end"
    if op != (bad.get("op") or "assert"):
        return False
    return (
        entities_match(str(pred.get("subject", "")), bad["subject"], speaker)
        and entities_match(str(pred.get("object", "")), bad["object"], speaker, exact=True)
        and predicates_match(str(pred.get("predicate", "")), bad["predicate"])
    )


def _when_right(pred: dict[str, Any], gold: dict[str, Any]) -> bool:
    p, g = str(pred.get("when") or ""), str(gold.get("when") or "")
    return bool(p) and (p.startswith(g) or g.startswith(p))


# ---------------------------------------------------------------- scoring

def _max_matching(edges: list[list[int]], n_gold: int) -> list[int]:
    """Kuhn's augmenting paths: for each gold index, the matched prediction index or -1."""
    owner = [-1] * n_gold

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            if owner[j] == -1 or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(edges)):
        augment(i, set())
    return owner


def score_row(predicted: list[dict[str, Any]], row: dict[str, Any]) -> dict[str, Any]:
    """One utterance: which predictions are right, wrong (and why) or duplicates; which gold facts missed."""
    speaker = row.get("speaker") or "user"
    gold = row.get("facts") or []
    seen: set[tuple[Any, ...]] = set()
    preds: list[dict[str, Any]] = []
    for f in predicted:
        key = (entity_tokens(str(f.get("subject", "")), speaker), predicate_key(str(f.get("predicate", ""))),
               entity_tokens(str(f.get("object", "")), speaker), f.get("op") or "assert")
        if key not in seen:
            seen.add(key)
            preds.append(f)
    banned = [any(forbidden(p, b, speaker) for b in row.get("must_not") or []) for p in preds]
    edges = [[] if banned[i] else [j for j, g in enumerate(gold) if fact_matches(p, g, speaker)]
             for i, p in enumerate(preds)]
    owner = _max_matching(edges, len(gold))
    matched = {i for i in owner if i >= 0}
    dupes = [i for i, e in enumerate(edges) if e and i not in matched]
    return {
        "tp": [(preds[i], gold[j]) for j, i in enumerate(owner) if i >= 0],
        "fp": [p for i, p in enumerate(preds) if not edges[i] or banned[i]],
        "must_not_hits": [p for i, p in enumerate(preds) if banned[i]],
        "duplicates": [preds[i] for i in dupes],
        "fn": [g for j, g in enumerate(gold) if owner[j] < 0],
    }


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def score(predicted: list[dict[str, Any]], gold: list[dict[str, Any]]) -> dict[str, Any]:
    """Precision, recall and F1 of `predicted` rows ({"id", "facts"}) against holdout rows `gold`."""
    by_id = {str(r["id"]): list(r.get("facts") or []) for r in predicted}
    tp = fp = fn = wrong = dup = when_total = when_ok = 0
    kind_tp: Counter[str] = Counter()
    kind_all: Counter[str] = Counter()
    false_positives: list[tuple[str, dict[str, Any]]] = []
    misses: list[tuple[str, dict[str, Any]]] = []
    for row in gold:
        rid = str(row["id"])
        res = score_row(by_id.get(rid, []), row)
        tp, fp, fn = tp + len(res["tp"]), fp + len(res["fp"]), fn + len(res["fn"])
        wrong, dup = wrong + len(res["must_not_hits"]), dup + len(res["duplicates"])
        false_positives += [(rid, p) for p in res["fp"]]
        misses += [(rid, g) for g in res["fn"]]
        for g in row.get("facts") or []:
            kind_all[g.get("kind", "state")] += 1
        for p, g in res["tp"]:
            kind_tp[g.get("kind", "state")] += 1
            if g.get("when"):
                when_total += 1
                when_ok += _when_right(p, g)
    precision, recall, f1 = _prf(tp, fp, fn)
    return {
        "precision": precision, "recall": recall, "f1": f1,
        "tp": tp, "fp": fp, "fn": fn, "must_not_hits": wrong, "duplicates": dup,
        "recall_by_kind": {k: (kind_tp[k] / kind_all[k] if kind_all[k] else None) for k in KINDS},
        "when_right": when_ok, "when_scored": when_total,
        "false_positives": false_positives, "misses": misses,
    }


# ---------------------------------------------------------------- the file

def load(path: Path = HOLDOUT) -> list[dict[str, Any]]:
    return [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]


def validate(rows: list[dict[str, Any]]) -> list[str]:
    """Problems with the rows' shape; empty when every row has its fields with the right values."""
    problems: list[str] = []
    ids = Counter(str(r.get("id")) for r in rows)
    problems += [f"duplicate id {i}" for i, n in ids.items() if n > 1]
    for r in rows:
        rid = r.get("id")
        problems += [f"{rid}: missing {k}" for k in ROW_KEYS if k not in r]
        if not isinstance(r.get("context"), list) or len(r.get("context") or []) > 2:
            problems.append(f"{rid}: context must be a list of at most 2 turns")
        if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?([+-]\d\d:\d\d|Z)", str(r.get("at", ""))):
            problems.append(f"{rid}: at is not ISO-8601 with an offset")
        for f in r.get("facts") or []:
            problems += [f"{rid}: fact missing {k}" for k in FACT_KEYS if k not in f]
            if f.get("kind") not in KINDS or f.get("op") not in OPS:
                problems.append(f"{rid}: bad kind/op in {f}")
            if not re.fullmatch(r"[a-z][a-z0-9_]*", str(f.get("predicate", ""))):
                problems.append(f"{rid}: predicate not snake_case: {f.get('predicate')}")
            if not isinstance(f.get("alt_predicates"), list):
                problems.append(f"{rid}: alt_predicates must be a list")
            when = f.get("when")
            if when is not None and not re.fullmatch(r"\d{4}(-\d\d(-\d\d(T\d\d:\d\d)?)?|-W\d\d)?", str(when)):
                problems.append(f"{rid}: when not an ISO date: {when}")
            dur = f.get("duration")
            if dur is not None and not re.fullmatch(r"P(\d+[YMWD])+", str(dur)):
                problems.append(f"{rid}: duration not ISO-8601: {dur}")
        for b in r.get("must_not") or []:
            problems += [f"{rid}: must_not missing {k}" for k in ("subject", "predicate", "object") if k not in b]
    return problems


def counts(rows: list[dict[str, Any]]) -> dict[str, Any]:
    facts = [f for r in rows for f in r["facts"]]
    return {
        "utterances": len(rows),
        "locomo": sum(str(r["source"]).startswith("locomo:") for r in rows),
        "written": sum(r["source"] == "written" for r in rows),
        "with_facts": sum(bool(r["facts"]) for r in rows),
        "facts": len(facts),
        "must_not": sum(len(r["must_not"]) for r in rows),
        "by_kind": dict(Counter(f["kind"] for f in facts)),
        "by_op": dict(Counter(f["op"] for f in facts)),
        "with_when": sum(f["when"] is not None for f in facts),
        "with_duration": sum(f["duration"] is not None for f in facts),
        "predicates": len({f["predicate"] for f in facts}),
    }


def main(argv: list[str]) -> int:
    rows = load()
    problems = validate(rows)
    for p in problems:
        print("PROBLEM", p)
    if len(argv) < 2:
        print(json.dumps(counts(rows), indent=1))
        return 1 if problems else 0
    predicted = [json.loads(ln) for ln in Path(argv[1]).read_text(encoding="utf-8").splitlines() if ln.strip()]
    s = score(predicted, rows)
    print(json.dumps({k: v for k, v in s.items() if k not in ("false_positives", "misses")}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
