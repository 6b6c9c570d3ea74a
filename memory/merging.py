"""Which two entities are one: nickname, alias, first name, or "my sister" later named — decided from data.

Pure: entities and arcs in, decisions out (no store, no clock). Precision first: a pair is merged only when
its names match under one rule, the match is unique (one possible survivor for the loser), and nothing the
two hold contradicts it (two values of a single-valued fact at the same time, a sister and a brother, a
mother and a sister of the same person, an arc between them). A first-name or nickname match needs more:
one fact both already share. Everything else is reported as a candidate left alone, with the reason.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal

from memory.errors import UnknownRelation
from memory.model import Arc, Entity
from memory.names import normalize
from memory.timeutil import to_epoch
from memory.vocabulary import RELATIONS, EntityType, relation
from memory.words import MY, ROLE_RELATIONS, ROLES

Rule = Literal["alias", "nickname", "first_name", "placeholder"]
STRONG: frozenset[str] = frozenset({"alias", "placeholder"})  # the rest need a fact both share

# nickname -> the formal first name (both directions are looked up through this table); data, extend freely
NICKNAMES: dict[str, str] = {
    "bob": "robert", "bobby": "robert", "rob": "robert", "robbie": "robert", "bert": "robert",
    "bill": "william", "billy": "william", "will": "william", "willy": "william", "liam": "william",
    "jim": "james", "jimmy": "james", "jamie": "james", "mike": "michael", "mikey": "michael",
    "mick": "michael", "dick": "richard", "rick": "richard", "ricky": "richard", "rich": "richard",
    "tom": "thomas", "tommy": "thomas", "tony": "anthony", "ant": "anthony", "dave": "david",
    "davy": "david", "dan": "daniel", "danny": "daniel", "joe": "joseph", "joey": "joseph",
    "chris": "christopher", "kit": "christopher", "steve": "stephen", "stevie": "stephen",
    "ed": "edward", "eddie": "edward", "ted": "edward", "ned": "edward", "sam": "samuel", "sammy": "samuel",
    "ben": "benjamin", "benny": "benjamin", "matt": "matthew", "nick": "nicholas", "nicky": "nicholas",
    "alex": "alexander", "sandy": "alexander", "andy": "andrew", "drew": "andrew", "pete": "peter",
    "greg": "gregory", "jon": "jonathan", "jack": "john", "johnny": "john", "charlie": "charles",
    "chuck": "charles", "fred": "frederick", "freddie": "frederick", "harry": "henry", "hank": "henry",
    "larry": "lawrence", "len": "leonard", "lenny": "leonard", "phil": "philip", "ray": "raymond",
    "ron": "ronald", "ronnie": "ronald", "tim": "timothy", "timmy": "timothy", "vince": "vincent",
    "liz": "elizabeth", "lizzie": "elizabeth", "beth": "elizabeth", "betty": "elizabeth",
    "eliza": "elizabeth", "libby": "elizabeth", "kate": "katherine", "katie": "katherine",
    "kathy": "katherine", "kat": "katherine", "cathy": "catherine", "peggy": "margaret",
    "maggie": "margaret", "meg": "margaret", "marge": "margaret", "jenny": "jennifer", "jen": "jennifer",
    "jess": "jessica", "jessie": "jessica", "sue": "susan", "susie": "susan", "suzy": "susan",
    "pat": "patricia", "patty": "patricia", "trish": "patricia", "becky": "rebecca", "becca": "rebecca",
    "vicky": "victoria", "tori": "victoria", "abby": "abigail", "debbie": "deborah", "deb": "deborah",
    "mandy": "amanda", "manda": "amanda", "annie": "anna", "nancy": "ann", "ellie": "eleanor",
    "nell": "eleanor", "nellie": "eleanor", "sophie": "sophia", "mia": "maria", "molly": "mary",
    "polly": "mary", "lucy": "lucia", "lou": "louise", "tina": "christina", "chrissy": "christina",
    "dottie": "dorothy", "dot": "dorothy", "gabby": "gabriella", "nat": "natalie", "ally": "alison",
    "steph": "stephanie", "sandra": "alexandra", "lexi": "alexandra", "jo": "joanna",
}

# Kin who must be the same generation to be one person (a mother is never the same person's sister).
KIN_CLASS: dict[str, str] = {
    "sister_of": "sibling", "brother_of": "sibling", "sibling_of": "sibling",
    "mother_of": "parent", "father_of": "parent", "parent_of": "parent",
    "daughter_of": "child", "son_of": "child", "child_of": "child",
    "grandparent_of": "grandparent", "grandchild_of": "grandchild",
    "aunt_of": "aunt or uncle", "uncle_of": "aunt or uncle", "niece_of": "niece or nephew",
    "nephew_of": "niece or nephew", "cousin_of": "cousin", "in_law_of": "in-law",
    "spouse_of": "partner", "partner_of": "partner", "engaged_to": "partner",
}


def _relation_gender() -> dict[str, str]:
    """sister_of -> f, brother_of -> m: relations whose every role word has the same gender (from ROLES)."""
    seen: dict[str, set[str | None]] = defaultdict(set)
    for rel, gender in ROLES.values():
        seen[rel].add(gender)
    return {rel: next(iter(g)) for rel, g in seen.items() if len(g) == 1 and None not in g}  # type: ignore[misc]


REL_GENDER = _relation_gender()
# "my sister": a placeholder for a relative or partner (a "friend" or "colleague" is rarely the only one)
PLACEHOLDER_ROLES: dict[str, str] = {w: rel for w, rel in ROLE_RELATIONS.items() if rel in KIN_CLASS}
_PERSONISH = frozenset({EntityType.PERSON.value, EntityType.THING.value})


@dataclass(frozen=True)
class Candidate:
    """Two names for one entity: ``loser`` will be folded into ``survivor`` (its name kept as an alias)."""

    survivor: Entity
    loser: Entity
    rule: Rule
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Decision:
    candidate: Candidate
    merge: bool
    evidence: tuple[str, ...]  # the name rule, then what supports or contradicts it
    reason: str = ""  # why it is left alone

    def to_json(self) -> dict[str, Any]:
        c = self.candidate
        return {"survivor": c.survivor.name, "survivor_id": c.survivor.id, "loser": c.loser.name,
                "loser_id": c.loser.id, "rule": c.rule, "merge": self.merge, "evidence": list(self.evidence),
                "reason": self.reason}


# -- names ---------------------------------------------------------------------------------------
def formal(first: str) -> str:
    return NICKNAMES.get(first, first)


def placeholder_role(name: str, user_names: Iterable[str] = ()) -> str | None:
    """'my sister' / "user's sister" / "Sam's sister" -> 'sister_of'; None for anything else."""
    words = name.replace("’", "'").lower().split()
    if len(words) != 2:
        return None
    owner, role = words
    owners = MY | {normalize(u) + "'s" for u in user_names} | {"user's"}
    return PLACEHOLDER_ROLES.get(role) if owner in owners else None


def _compatible_types(a: Entity, b: Entity, *, person: bool) -> bool:
    if person:
        return {a.type, b.type} <= _PERSONISH and EntityType.PERSON.value in {a.type, b.type}
    return a.type == b.type or EntityType.THING.value in (a.type, b.type)


def _keys(e: Entity) -> set[str]:
    return {normalize(x) for x in (e.name, *e.aliases)} - {""}


def find_candidates(entities: Sequence[Entity], role_holders: Mapping[str, Sequence[str]], *,
                    user_names: Iterable[str] = ()) -> tuple[list[Candidate], list[Candidate]]:
    """(unique candidates, ambiguous ones) over every pair of entities whose names say they may be one.

    ``role_holders``: relation -> ids of the entities holding it toward the user now (``sister_of`` -> [Anna]).
    A loser with more than one possible survivor is ambiguous: nothing says which one it is.
    """
    users = tuple(user_names)
    kin = {i for ids in role_holders.values() for i in ids}  # kin of the user are people, whatever their type
    people = [replace(e, type=EntityType.PERSON.value) if e.id in kin and e.type == EntityType.THING.value else e
              for e in entities if not e.is_user]
    by_id = {e.id: e for e in people}
    placeholders = {e.id for e in people if placeholder_role(e.name, users)}
    by_key: dict[str, list[Entity]] = defaultdict(list)
    by_first: dict[str, list[Entity]] = defaultdict(list)  # multi-word person names by formal first name
    by_words: dict[tuple[str, ...], list[Entity]] = defaultdict(list)
    for e in people:
        if e.id in placeholders:
            continue
        by_words[tuple(normalize(e.name).split())].append(e)
        for k in _keys(e):
            by_key[k].append(e)
        words = normalize(e.name).split()
        if len(words) > 1 and e.type in _PERSONISH:
            by_first[formal(words[0])].append(e)
    found: dict[str, list[Candidate]] = defaultdict(list)  # loser id -> candidates

    def add(survivor: Entity, loser: Entity, rule: Rule, why: str) -> None:
        if survivor.id != loser.id and all(c.survivor.id != survivor.id for c in found[loser.id]):
            found[loser.id].append(Candidate(survivor, loser, rule, (why,)))

    for e in people:
        if e.id in placeholders:
            rel = placeholder_role(e.name, users)
            assert rel is not None
            for hid in role_holders.get(rel, ()):
                h = by_id.get(hid)
                if h is not None and h.id not in placeholders and {h.type, e.type} <= _PERSONISH:
                    add(h, e, "placeholder", f"'{e.name}' was learned before a name: {h.name} holds {rel} "
                                             "toward the user")
            continue
        words = normalize(e.name).split()
        for other in by_key.get(normalize(e.name), []):  # e's name is another entity's alias
            if other.id != e.id and normalize(e.name) != normalize(other.name) and _compatible_types(
                    other, e, person=False):
                add(other, e, "alias", f"'{e.name}' is another name of {other.name}")
        if not words or e.type not in _PERSONISH:
            continue
        if len(words) == 1:  # a first name (or its nickname) of a full name
            for other in by_first.get(formal(words[0]), []):
                if not _compatible_types(other, e, person=True):
                    continue
                first = normalize(other.name).split()[0]
                if first == words[0]:
                    add(other, e, "first_name", f"'{e.name}' is the first name of {other.name}")
                else:
                    add(other, e, "nickname", f"'{e.name}' is a short form of '{first}' ({other.name})")
        if words[0] in NICKNAMES:  # a nickname of another person's first name, the rest the same
            for other in by_words.get((formal(words[0]), *words[1:]), []):
                if other.id != e.id and _compatible_types(other, e, person=True):
                    add(other, e, "nickname", f"'{e.name}' is a short form of {other.name}")
    unique: list[Candidate] = []
    ambiguous: list[Candidate] = []
    for cands in found.values():
        (unique if len(cands) == 1 else ambiguous).extend(cands)
    def key(c: Candidate) -> tuple[str, str]:
        return c.survivor.name, c.loser.name

    return sorted(unique, key=key), sorted(ambiguous, key=key)


# -- facts ---------------------------------------------------------------------------------------
def _believed(arcs: Iterable[Arc]) -> list[Arc]:
    return [a for a in arcs if a.expired_at is None]


def _other(a: Arc, eid: str) -> str:
    return a.object_id if a.subject_id == eid else a.subject_id


def _held(a: Arc, eid: str) -> bool:
    """``eid`` is the one the relation says something about (the subject; either end if symmetric)."""
    return a.subject_id == eid or (_symmetric(a.relation) and a.object_id == eid)


def _symmetric(rel: str) -> bool:
    r = RELATIONS.get(rel)
    return r is not None and r.symmetric


def _single(rel: str) -> bool:
    try:
        return relation(rel).single_valued
    except UnknownRelation:  # a malformed stored predicate is simply not single-valued
        return False


def _overlap(a: Arc, b: Arc) -> bool:
    inf = float("inf")
    a0, b0 = to_epoch(a.valid_from), to_epoch(b.valid_from)
    a1 = inf if a.valid_to is None else to_epoch(a.valid_to)
    b1 = inf if b.valid_to is None else to_epoch(b.valid_to)
    return a0 < b1 and b0 < a1


def conflicts(s: Entity, s_arcs: Sequence[Arc], lo: Entity, l_arcs: Sequence[Arc]) -> list[str]:
    """What says the two are different people or things (empty: nothing does)."""
    out: list[str] = []
    sa, la = _believed(s_arcs), _believed(l_arcs)
    for a in sa + la:
        if {a.subject_id, a.object_id} == {s.id, lo.id}:
            out.append(f"{a.subject} {a.relation} {a.object}: an arc links the two")
    for a in sa:
        if not _held(a, s.id) or not _single(a.relation):
            continue
        for b in la:
            if (b.relation == a.relation and _held(b, lo.id) and _other(a, s.id) != _other(b, lo.id)
                    and normalize(_name(a, s.id)) != normalize(_name(b, lo.id)) and _overlap(a, b)):
                out.append(f"{a.relation}: {_name(a, s.id)} ({s.name}) and {_name(b, lo.id)} ({lo.name}) "
                           "at the same time")
    genders = [{REL_GENDER[a.relation] for a in arcs if a.subject_id == e.id and a.relation in REL_GENDER}
               for e, arcs in ((s, sa), (lo, la))]
    if len(genders[0] | genders[1]) > 1:
        out.append(f"{s.name} and {lo.name} are described as {' and '.join(sorted(genders[0] | genders[1]))}")
    kin_s = {(a.object_id, KIN_CLASS[a.relation]) for a in sa if a.subject_id == s.id and a.relation in KIN_CLASS}
    for b in la:
        if b.subject_id != lo.id or b.relation not in KIN_CLASS:
            continue
        for target, cls in kin_s:
            if target == b.object_id and cls != KIN_CLASS[b.relation]:
                out.append(f"{s.name} is {b.object}'s {cls}, {lo.name} {b.object}'s {KIN_CLASS[b.relation]}")
    return list(dict.fromkeys(out))


def _name(a: Arc, eid: str) -> str:
    return a.object if a.subject_id == eid else a.subject


def _own_label(a: Arc) -> str | None:
    """What tells one fact of a relation from another: an open fact's label ("keeps" bees); a role's word
    ("husband" for spouse_of) is only how it was said."""
    return (a.label or None) if a.relation == "related_to" else None


def shared_facts(s: Entity, s_arcs: Sequence[Arc], lo: Entity, l_arcs: Sequence[Arc]) -> list[str]:
    """Facts both hold about the same third entity ('both: sister_of User'): support for a weak name match."""
    def sig(a: Arc, eid: str) -> tuple[str, str, str | None, bool]:
        return (a.relation, _other(a, eid), _own_label(a), _held(a, eid))

    mine = {sig(a, s.id): a for a in _believed(s_arcs) if lo.id not in (a.subject_id, a.object_id)}
    out = []
    for b in _believed(l_arcs):
        a = mine.get(sig(b, lo.id))
        if a is not None:
            other = _name(a, s.id)
            out.append(f"both: {a.relation} {other}" if _held(a, s.id) else f"both: {other} {a.relation} them")
    return list(dict.fromkeys(out))


def judge(c: Candidate, survivor_arcs: Sequence[Arc], loser_arcs: Sequence[Arc]) -> Decision:
    """Merge or leave alone, with the evidence either way."""
    bad = conflicts(c.survivor, survivor_arcs, c.loser, loser_arcs)
    shared = shared_facts(c.survivor, survivor_arcs, c.loser, loser_arcs)
    evidence = (*c.evidence, *shared)
    if bad:
        return Decision(c, False, (*evidence, *bad), reason="conflicting facts: " + "; ".join(bad))
    if c.rule not in STRONG and not shared:
        return Decision(c, False, evidence, reason="the names match but no fact is shared yet")
    return Decision(c, True, evidence)


# -- the arcs of a merge -------------------------------------------------------------------------
@dataclass(frozen=True)
class ArcMove:
    """One arc of the loser: re-attached to the survivor as it is, or folded into the same fact it has."""

    arc: Arc
    subject_id: str
    object_id: str
    into: Arc | None = None


def plan_arcs(survivor_id: str, loser_id: str, survivor_arcs: Sequence[Arc],
              loser_arcs: Sequence[Arc]) -> list[ArcMove]:
    """Every arc of the loser with its new ends; a current one the survivor already holds is folded into it."""
    def ends(a: Arc) -> tuple[str, str]:
        return (survivor_id if a.subject_id == loser_id else a.subject_id,
                survivor_id if a.object_id == loser_id else a.object_id)

    def same(a: Arc, s: str, o: str, b: Arc) -> bool:
        pair = (b.subject_id, b.object_id)
        return (a.relation == b.relation and _own_label(a) == _own_label(b)
                and (pair == (s, o) or (_symmetric(a.relation) and pair == (o, s))))

    current = [b for b in survivor_arcs if b.valid_to is None and b.expired_at is None]
    moves = []
    for a in loser_arcs:
        s, o = ends(a)
        into = None
        if a.valid_to is None and a.expired_at is None:
            into = next((b for b in current if same(a, s, o, b)), None)
        moves.append(ArcMove(a, s, o, into))
    return moves


@dataclass(frozen=True)
class Fold:
    """The fields of the survivor's arc after it absorbs the loser's copy of the same fact."""

    strength: float
    decay_rate: float
    last_reinforced: float
    reinforcements: int
    conversation_ids: list[str]
    conversations: int
    sources: list[str]
    valid_from: float
    recorded_at: float
    confidence: float


def fold(into: Arc, other: Arc, *, now: datetime) -> Fold:
    """Both tellings count: provenance is the union, the decay state is the stronger one's at ``now``."""
    strong = other if (other.weight or 0.0) > (into.weight or 0.0) else into
    convs = list(dict.fromkeys([*into.conversation_ids, *other.conversation_ids]))
    return Fold(strength=strong.strength, decay_rate=strong.decay_rate,
                last_reinforced=to_epoch(strong.last_reinforced),
                reinforcements=into.reinforcements + other.reinforcements + 1,
                conversation_ids=convs, conversations=len(convs),
                sources=list(dict.fromkeys([*into.sources, *other.sources])),
                valid_from=to_epoch(min(into.valid_from, other.valid_from)),
                recorded_at=to_epoch(min(into.recorded_at, other.recorded_at)),
                confidence=max(into.confidence, other.confidence))


def merged_aliases(survivor: Entity, loser: Entity) -> list[str]:
    """The names the survivor gains: the loser's name and aliases it does not already answer to."""
    have = _keys(survivor)
    out: list[str] = []
    for n in (loser.name, *loser.aliases):
        if normalize(n) and normalize(n) not in have:
            have.add(normalize(n))
            out.append(n)
    return out


def merged_type(survivor: Entity, loser: Entity) -> str:
    return loser.type if survivor.type == EntityType.THING.value else survivor.type


def pick(decisions: Iterable[Decision]) -> list[Decision]:
    """The merges to apply this run: each entity in at most one (a chain waits for the next night)."""
    used: set[str] = set()
    out = []
    for d in decisions:
        ids = {d.candidate.survivor.id, d.candidate.loser.id}
        if d.merge and not ids & used:
            used |= ids
            out.append(d)
    return out


__all__ = ["NICKNAMES", "ArcMove", "Candidate", "Decision", "Fold", "conflicts", "find_candidates", "fold",
           "judge", "merged_aliases", "merged_type", "pick", "placeholder_role", "plan_arcs", "shared_facts"]
