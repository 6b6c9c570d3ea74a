"""The plain retrieval baseline: the same local model answering from the top-k stored utterances (BM25), no graph."""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

_TOKEN = re.compile(r"[a-z0-9']+")
STOP = frozenset([
    "the", "a", "an", "of", "to", "in", "at", "on", "is", "are", "was", "were", "do", "does", "did", "i", "my",
    "me", "you", "your", "and", "or", "it", "for", "what", "where", "who", "which", "how", "when",
])


def tokens(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text.lower()) if t not in STOP]


def bm25_top(query: str, docs: list[str], k: int = 3, k1: float = 1.5, b: float = 0.75) -> list[str]:
    toks = [tokens(d) for d in docs]
    n = len(docs)
    if n == 0:
        return []
    avg = sum(len(t) for t in toks) / n
    df = Counter(w for t in toks for w in set(t))
    scores = []
    for i, t in enumerate(toks):
        tf = Counter(t)
        s = 0.0
        for w in tokens(query):
            if w not in tf:
                continue
            idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
            s += idf * tf[w] * (k1 + 1) / (tf[w] + k1 * (1 - b + b * len(t) / max(avg, 1e-9)))
        scores.append((s, -i, docs[i]))  # ties: the most recent utterance first
    return [d for s, _, d in sorted(scores, reverse=True)[:k] if s > 0]


SYSTEM = ("You are a voice assistant. Answer the user's question in one short sentence using only the past "
          "things the user said, given below with their dates. If they don't answer it, say you don't know.")


class BM25Baseline:
    """Stores user utterances with their dates; answers each probe from the k most similar ones."""

    def __init__(self, llm: Any, k: int = 3) -> None:
        self.llm, self.k, self.docs = llm, k, []  # type: ignore[var-annotated]

    def ingest(self, conv: dict[str, Any]) -> None:
        for t in conv["turns"]:
            if t["speaker"] == "user":
                self.docs.append(f"[{t['at'][:10]}] {t['text']}")

    def ask(self, q: str, at: str) -> dict[str, Any]:
        top = bm25_top(q, self.docs, self.k)
        said = "\n".join(top or ["(nothing)"])
        prompt = f"Past things the user said:\n{said}\nToday is {at[:10]}.\nQuestion: {q}"
        answer = self.llm.complete([{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}],
                                   max_tokens=60, temperature=0.0)
        return {"answer": answer, "facts": []}

    def close(self) -> None:
        pass
