"""Link a question to entities in memory: names, aliases, near-misses, role phrases and "I"/"me"."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from memory import queries as Q
from memory.graph import TemporalGraph
from memory.model import USER_ID
from memory.names import normalize
from memory.words import FIRST_PERSON, FIRST_PERSON_RE, POSSESSIVES, WH_WORDS

_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b", re.I)
# Words that never name an entity alone ("will" and "may" can: the modal auxiliaries are not here).
_STOP = frozenset({*WH_WORDS, *FIRST_PERSON, *POSSESSIVES, *"""is are was were do does did the a an of to in at on
for with you he she it they them now then still before after ever live lives work works like likes and or not be
been has have had this that there here these those about tell know any anything some something called name
names""".split()})


def _singular(gram: str) -> str:
    """The words with the last one made singular ("guinea pigs" -> "guinea pig", "puppies" -> "puppy"): a kind asked
    of in the plural ("Which of the guinea pigs died?") links the kind memory holds; "" when not plural."""
    if len(gram) < 4 or not gram.endswith("s") or gram.endswith("ss"):
        return ""
    return gram[:-3] + "y" if gram.endswith("ies") else gram[:-1]


@dataclass
class Linked:
    ids: list[str] = field(default_factory=list)  # named entities mentioned, in order of appearance
    first_person: bool = False
    names: dict[str, str] = field(default_factory=dict)  # id -> canonical name
    types: dict[str, str] = field(default_factory=dict)  # id -> entity type (PERSON, PLACE…), where known


class Linker:
    """Keeps an in-memory key index, rebuilt only when the graph's temporal index moved."""

    def __init__(self, graph: TemporalGraph, *, max_ngram: int = 4) -> None:
        self.graph = graph
        self.max_ngram = max_ngram
        self._t: int | None = None
        self._keys: dict[str, list[tuple[str, str, str]]] = {}

    def _index(self) -> dict[str, list[tuple[str, str, str]]]:
        rows = self.graph.store.read(Q.CURRENT_T_INDEX)
        t = int(rows[0]["t"]) if rows else 0
        if t != self._t:
            keys: dict[str, list[tuple[str, str, str]]] = {}
            for r in self.graph.entity_keys():
                for k in r.get("keys") or [normalize(r["name"])]:
                    keys.setdefault(k, []).append((r["id"], r["name"], str(r.get("type") or "")))
            self._keys, self._t = keys, t
        return self._keys

    def link(self, question: str, *, fuzzy: bool = True) -> Linked:
        index = self._index()
        words = normalize(_POSSESSIVE.sub("", question)).split()  # "Jon's" names Jon
        out = Linked(first_person=bool(FIRST_PERSON_RE.search(question)))
        used = [False] * len(words)
        for n in range(min(self.max_ngram, len(words)), 0, -1):
            for i in range(len(words) - n + 1):
                if any(used[i:i + n]):
                    continue
                gram = " ".join(words[i:i + n])
                if n == 1 and gram in _STOP:
                    continue
                for eid, name, kind in index.get(gram) or index.get(_singular(gram), []):
                    if eid == USER_ID:
                        continue
                    if eid not in out.names:
                        out.ids.append(eid)
                        out.names[eid] = name
                        out.types[eid] = kind
                    for j in range(i, i + n):
                        used[j] = True
        # near misses for capitalised words the index did not know (a mis-heard or mis-typed name)
        caps = [w for w in re.findall(r"\b[A-Z][a-z]{2,}\b", question) if w.lower() not in _STOP] if fuzzy else []
        for w in caps:
            if normalize(w) in index:
                continue
            for key in difflib.get_close_matches(normalize(w), [k for k in index if " " not in k], n=1, cutoff=0.8):
                for eid, name, kind in index[key]:
                    if eid != USER_ID and eid not in out.names:
                        out.ids.append(eid)
                        out.names[eid] = name
                        out.types[eid] = kind
        return out
