"""Pure helpers for text search: index terms (a light stemmer) and reciprocal rank fusion.

Both backends' full-text indexes (kglite's BM25, Neo4j's Lucene) split on non-word characters and fold case
but do not stem, so "hiked" never finds "hiking". Episodes therefore carry a ``terms`` property — the same
light stemming applied to the stored text and to every query — and the index is built over it. A query is
reduced to bare terms, so no user text can reach the engine's query syntax.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from memory.words import AUXILIARIES, FIRST_PERSON, POSSESSIVES, WH_WORDS

K = TypeVar("K")

_WORD = re.compile(r"[a-z0-9]+")
# where one sentence ends and the next starts: after . ! ? … (or a bracket closing a photo caption) and a space
SENTENCE_END = re.compile(r"(?<=[.!?…\]])\s+")
# Words that carry no topic: dropped from queries (they would match every utterance) and from terms.
STOPWORDS = frozenset({*WH_WORDS, *AUXILIARIES, *FIRST_PERSON, *POSSESSIVES, *"""
a an the and or but if then so of to in on at by for with from about as into over after before up down out
be been being doing having must you yours he him she hers it they them theirs this that these those there here
yourself yourselves himself herself itself themselves
not no yes just also very really too much many more most some any all each other such own same than only
again still ever tell told say said know knew think thought remember like get got go goes went""".split()})
_IRREGULAR = {"went": "go", "gone": "go", "ran": "run", "ate": "eat", "bought": "buy", "taught": "teach",
              "thought": "think", "took": "take", "made": "make", "met": "meet", "saw": "see", "seen": "see",
              "began": "begin", "wrote": "write", "written": "write", "read": "read", "left": "leave",
              "felt": "feel", "found": "find", "gave": "give", "kept": "keep", "lost": "lose", "won": "win",
              "flew": "fly", "drove": "drive", "spoke": "speak", "sang": "sing", "swam": "swim",
              "paid": "pay", "sold": "sell", "spent": "spend", "brought": "bring", "caught": "catch", "sent": "send",
              "built": "build", "heard": "hear", "broke": "break", "broken": "break", "chose": "choose",
              "chosen": "choose", "grew": "grow", "grown": "grow", "wore": "wear", "worn": "wear", "taken": "take",
              "given": "give", "eaten": "eat", "driven": "drive", "forgot": "forget", "forgotten": "forget",
              "slept": "sleep", "lent": "lend", "fought": "fight", "begun": "begin", "sung": "sing", "swum": "swim",
              "children": "child", "kids": "kid", "people": "person", "women": "woman", "men": "man"}


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).lower().replace("’", "'").replace("'s", "")


# Bumped whenever ``stem`` changes: episodes store their terms, and a memory indexed by an older stemmer has them
# worked out again when it is opened (``memory.episodes.Episodes.reterm``), or a query's terms would miss them.
TERMS_VERSION = 3


def stem(word: str) -> str:
    """A light, deterministic suffix stripper: hiking/hiked/hikes/hike -> hik; studies/studied/study -> studi;
    an irregular form as its base's stem (made -> mak, as make). A final "y" after a consonant becomes "i" rather
    than going: "party" is not "part", nor "story" "store"."""
    word = _IRREGULAR.get(word, word)
    if len(word) <= 3 or word.isdigit():
        return word
    for suffix in ("ies", "ied", "ing", "ed", "es", "s", "e"):
        if not word.endswith(suffix) or len(word) - len(suffix) < 3 or (suffix == "s" and word.endswith("ss")):
            continue
        base = word[: len(word) - len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
        if suffix in ("ing", "ed") and len(base) > 3 and base[-1] == base[-2] and base[-1] not in "lsz":
            base = base[:-1]  # running -> run, planned -> plan
        word = base
        break
    if len(word) > 3 and word.endswith("y") and word[-2] not in "aeiou":
        word = word[:-1] + "i"
    return word


def terms(text: str, *, stop: frozenset[str] = STOPWORDS) -> list[str]:
    """The index terms of ``text``, in order (duplicates kept: term frequency counts)."""
    return [stem(w) for w in _WORD.findall(fold(text)) if w not in stop]


def terms_text(text: str) -> str:
    return " ".join(terms(text))


def query_terms(text: str) -> str:
    """A query as bare, de-duplicated terms; empty when the question has no topic words."""
    seen: dict[str, None] = {}
    for t in terms(text):
        seen.setdefault(t, None)
    return " ".join(seen)


def rrf(rankings: Iterable[Sequence[K]], *, k: int = 60, weights: Sequence[float] | None = None) -> dict[K, float]:
    """Reciprocal rank fusion: Σ w / (k + rank) over the lists an item appears in (rank from 1)."""
    scores: dict[K, float] = {}
    for i, ranking in enumerate(rankings):
        w = weights[i] if weights is not None else 1.0
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + w / (k + rank)
    return scores


def relative_fusion(arms: Sequence[dict[K, float]], weights: Sequence[float]) -> dict[K, float]:
    """Relative score fusion: each arm's scores min-max scaled to 0..1 over what it returned, weighted, summed.

    Unlike rank fusion it keeps how far ahead an arm's best hit is: a BM25 hit that matches three rare
    words of the question stays ahead of ten vector neighbours that are all about equally close."""
    out: dict[K, float] = {}
    for arm, w in zip(arms, weights, strict=True):
        if not arm:
            continue
        lo, hi = min(arm.values()), max(arm.values())
        span = hi - lo
        for item, s in arm.items():
            out[item] = out.get(item, 0.0) + w * ((s - lo) / span if span > 0 else 1.0)
    return out


_BESIDE_CHARS = 120  # the longest sentence ``focus`` adds past its budget for what ``beside`` looks for


def focus(text: str, question: str, max_chars: int, *, beside: Callable[[str], bool] | None = None) -> str:
    """An utterance longer than ``max_chars`` keeps the sentences that share the most words with the question,
    then those next to them, in their order, "…" where some were left out: the part that answers is often not
    the first ("Hey! Thanks for asking. … Oh, I was in Paris yesterday!"). A sentence right beside one that
    shares a word, of the kind ``beside`` looks for (one that names a time, asked when), counts as sharing one:
    "I thought I was dying on Sunday. Worst pain of my life… it turns out it's a kidney stone"."""
    text = " ".join(text.split())
    if len(text) <= max_chars:
        return text
    sentences = SENTENCE_END.split(text)
    asked = set(terms(question))
    shared: list[float] = [len(asked & set(terms(s))) for s in sentences]
    if beside is not None:
        near_hit = {j for i, n in enumerate(shared) if n for j in (i - 1, i + 1)}
        shared = [n or 0.5 * (i in near_hit and beside(s)) for i, (n, s) in enumerate(zip(shared, sentences,
                                                                                               strict=True))]
    hits = [i for i, n in enumerate(shared) if n] or [0]

    def near(i: int) -> tuple[int, bool]:  # the sentence after one that matched is its context ("So cool!")
        d = min(abs(i - j) for j in hits)
        return d, i - d not in hits

    def joined(keep: set[int]) -> str:
        parts: list[str] = []
        for i in sorted(keep):
            if i > 0 and i - 1 not in keep:
                parts.append("…")
            parts.append(sentences[i])
        if max(keep) < len(sentences) - 1:
            parts.append("…")
        return " ".join(parts)

    keep: set[int] = set()
    for i in sorted(range(len(sentences)), key=lambda i: (-shared[i], near(i), i)):
        if not keep or len(joined(keep | {i})) <= max_chars:
            keep.add(i)
    if beside is not None and not any(beside(sentences[i]) for i in keep):
        # none kept tells what ``beside`` looks for: a short one beside those kept does, past the budget
        told = [i for i in range(len(sentences)) if i not in keep and {i - 1, i + 1} & keep
                and len(sentences[i]) <= _BESIDE_CHARS and beside(sentences[i])]
        keep |= set(told[:1])
        max_chars += len(sentences[told[0]]) + 2 if told else 0
    out = joined(keep)
    return out if len(out) <= max_chars else out[: max_chars - 1].rsplit(" ", 1)[0] + "…"
