"""Entity resolution: names, role phrases ("my sister") and near-exact variants map to one entity."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memory.graph import TemporalGraph
from memory.model import USER_ID, Arc
from memory.names import normalize
from memory.vocabulary import KINSHIP, NARROWER
from memory.words import MY, POSSESSIVES, ROLE_RELATIONS, USER_KEYS

USER = "user"
# Words too common to identify anything on their own ("Clinic" must not match "Riverside Clinic").
GENERIC = POSSESSIVES | frozenset("""
hospital clinic school university college bank company inc ltd llc co corp corporation group labs lab
the of and street road city town centre center office shop store cafe restaurant bakery team club a an
""".split())

def tokens(name: str) -> set[str]:
    return set(normalize(name).split())


def near_match(a: str, b: str, *, person: bool = False) -> bool:
    """Same entity under a shorter or longer name ("Saint Mary's" / "Saint Mary's Hospital").

    The shorter name must be distinctive and the longer may only add generic words — so "tea" is not
    "tea cake" and "Clinic" is not "Riverside Clinic". For people, a first name matches the full name.
    """
    ta, tb = normalize(a).split(), normalize(b).split()
    if not ta or not tb:
        return False
    if ta == tb:
        return True
    short, long_ = (ta, tb) if len(ta) <= len(tb) else (tb, ta)
    if not set(short) - GENERIC or not set(short) <= set(long_):
        return False
    extra = set(long_) - set(short)
    if extra <= GENERIC:
        return True
    return person and len(short) == 1 and long_[0] == short[0]


def role_relation(phrase: str) -> str | None:
    """'my sister' -> 'sister_of'; 'my best friend' -> 'friend_of'; None for anything else."""
    words = normalize(phrase.replace("'s", "")).split()
    said = phrase.strip().lower().split()
    if words and said[0] in MY:
        return ROLE_RELATIONS.get(said[-1].strip(".,!?")) or ROLE_RELATIONS.get(words[-1])  # "my brother-in-law"
    return None


@dataclass
class Resolver:
    graph: TemporalGraph

    def role_holders(self, rel: str, *, at: datetime) -> list[str]:
        """Names of who currently holds a role toward the user ('sister_of' -> ['Clara']; 'child_of' -> sons
        and daughters too)."""
        arcs = [a for r in (rel, *NARROWER.get(rel, ())) for a in self.graph.role_arcs(r, at=at)]
        return list(dict.fromkeys(a.subject if a.object_id == USER_ID else a.object for a in arcs))

    def resolve(self, name: str, *, at: datetime) -> str:
        """The canonical name to store under: 'user', an existing entity's name, or the name as said."""
        if normalize(name) in USER_KEYS or name == USER:
            return USER
        rel = role_relation(name)
        if rel:
            holders = self.role_holders(rel, at=at)
            if len(holders) == 1:
                return holders[0]
        existing = self.graph.find_entity(name)
        if existing is not None:
            return USER if existing.is_user else existing.name
        candidates = [r for r in self.graph.entity_keys()
                      if near_match(name, r["name"], person=r.get("type") == "PERSON")]
        if len({c["id"] for c in candidates}) == 1:
            return str(candidates[0]["name"])
        return name

    def match_in(self, name: str, arcs: Sequence[Arc], *, reverse: bool = False, head: bool = False) -> list[Arc]:
        """Arcs whose object is this name or a near-exact variant of it (scoped: never a shared common word).
        ``reverse``: their subject instead (a symmetric arc read from its other end: "User lives_with Rory" is what
        "Rory lives_with User" ends). ``head``: a one-word name also means the one object said with words before
        it ("coffee" ends a taste for "strong black coffee"; not "coffee cake")."""
        key = normalize(name)
        end = (lambda a: a.subject) if reverse else (lambda a: a.object)
        exact = [a for a in arcs if normalize(end(a)) == key]
        if exact:
            return exact
        near = [a for a in arcs if near_match(name, end(a))]
        if not near and head and len(key.split()) == 1:
            near = [a for a in arcs if normalize(end(a)).split()[-1:] == [key]]
        return near if len(near) == 1 else []  # ambiguous: close nothing rather than the wrong thing


__all__ = ["GENERIC", "KINSHIP", "Resolver", "near_match", "role_relation"]
