"""The relation vocabulary: every arc type the graph knows, with its cardinality and decay class."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from memory.errors import UnknownRelation


class EntityType(StrEnum):
    PERSON = "PERSON"
    PLACE = "PLACE"
    ORG = "ORG"
    THING = "THING"
    ACTIVITY = "ACTIVITY"
    FOOD = "FOOD"
    ANIMAL = "ANIMAL"
    DATE = "DATE"
    ROLE = "ROLE"
    TOPIC = "TOPIC"


class DecayClass(StrEnum):
    """How fast an arc fades when nothing reinforces it (rates live in config)."""

    STABLE = "stable"  # identity facts: kinship, birthplace, allergies
    DURABLE = "durable"  # situation facts: home, job, car, pets, memberships
    VOLATILE = "volatile"  # tastes and passing associations


@dataclass(frozen=True)
class Relation:
    name: str
    description: str
    single_valued: bool = False  # a new object closes the subject's current arc of this relation
    symmetric: bool = False  # friend_of(a, b) is the same fact as friend_of(b, a)
    decay: DecayClass = DecayClass.DURABLE
    object_type: EntityType | None = None
    # Relations that contradict this one for the same subject and object (likes vs dislikes).
    opposite: str | None = None


_S, _D, _V = DecayClass.STABLE, DecayClass.DURABLE, DecayClass.VOLATILE
_P, _PL, _O = EntityType.PERSON, EntityType.PLACE, EntityType.ORG

RELATIONS: dict[str, Relation] = {
    r.name: r
    for r in [
        # where and what
        Relation("lives_in", "subject lives in the place", single_valued=True, object_type=_PL),
        Relation("grew_up_in", "subject grew up in the place", single_valued=True, decay=_S, object_type=_PL),
        Relation("born_in", "subject was born in the place", single_valued=True, decay=_S, object_type=_PL),
        Relation("born_on", "subject's birthday / date of birth", single_valued=True, decay=_S,
                 object_type=EntityType.DATE),
        Relation("works_at", "subject is employed by the organisation", single_valued=True, object_type=_O),
        Relation("works_as", "subject's occupation or role", single_valued=True, object_type=EntityType.ROLE),
        Relation("studies_at", "subject studies at the school", single_valued=True, object_type=_O),
        Relation("studies", "subject studies the subject matter", object_type=EntityType.TOPIC),
        Relation("teaches", "subject teaches the subject matter", object_type=EntityType.TOPIC),
        Relation("reports_to", "subject's manager or boss is the object", single_valued=True, object_type=_P),
        Relation("member_of", "subject belongs to the group, club or team", object_type=_O),
        Relation("speaks", "subject speaks the language", decay=_S),
        # possessions
        Relation("drives", "subject's current car or vehicle", single_valued=True, object_type=EntityType.THING),
        Relation("owns", "subject owns the thing", object_type=EntityType.THING),
        Relation("has_pet", "the object is the subject's pet", object_type=EntityType.ANIMAL),
        Relation("is_a", "subject is a kind of / breed / category the object", decay=_S),
        # tastes and activities
        Relation("likes", "subject likes / loves / enjoys the object", decay=_V, opposite="dislikes"),
        Relation("dislikes", "subject dislikes / hates the object", decay=_V, opposite="likes"),
        Relation("plays", "subject plays the instrument, sport or game", decay=_V,
                 object_type=EntityType.ACTIVITY),
        Relation("practices", "subject does the hobby or activity", decay=_V, object_type=EntityType.ACTIVITY),
        Relation("allergic_to", "subject is allergic to the object", decay=_S),
        Relation("visited", "subject visited the place", decay=_V, object_type=_PL),
        # people: "X sister_of Y" reads "X is Y's sister"
        Relation("spouse_of", "subject is married to the object", single_valued=True, symmetric=True,
                 decay=_S, object_type=_P),
        Relation("partner_of", "subject is the object's partner", single_valued=True, symmetric=True,
                 object_type=_P),
        Relation("sister_of", "subject is the object's sister", decay=_S, object_type=_P),
        Relation("brother_of", "subject is the object's brother", decay=_S, object_type=_P),
        Relation("sibling_of", "subject is the object's sibling", symmetric=True, decay=_S, object_type=_P),
        Relation("mother_of", "subject is the object's mother", decay=_S, object_type=_P),
        Relation("father_of", "subject is the object's father", decay=_S, object_type=_P),
        Relation("parent_of", "subject is the object's parent", decay=_S, object_type=_P),
        Relation("daughter_of", "subject is the object's daughter", decay=_S, object_type=_P),
        Relation("son_of", "subject is the object's son", decay=_S, object_type=_P),
        Relation("child_of", "subject is the object's child", decay=_S, object_type=_P),
        Relation("grandparent_of", "subject is the object's grandparent", decay=_S, object_type=_P),
        Relation("grandchild_of", "subject is the object's grandchild", decay=_S, object_type=_P),
        Relation("aunt_of", "subject is the object's aunt", decay=_S, object_type=_P),
        Relation("uncle_of", "subject is the object's uncle", decay=_S, object_type=_P),
        Relation("cousin_of", "subject is the object's cousin", symmetric=True, decay=_S, object_type=_P),
        Relation("niece_of", "subject is the object's niece", decay=_S, object_type=_P),
        Relation("nephew_of", "subject is the object's nephew", decay=_S, object_type=_P),
        Relation("friend_of", "subject is the object's friend", symmetric=True, object_type=_P),
        Relation("neighbour_of", "subject is the object's neighbour", symmetric=True, object_type=_P),
        Relation("colleague_of", "subject works with the object", symmetric=True, object_type=_P),
        Relation("knows", "subject knows the object", symmetric=True, decay=_V, object_type=_P),
        # anything else, with a free-text label
        Relation("related_to", "generic association; the label says how", decay=_V),
    ]
}

KINSHIP = frozenset(
    n for n in RELATIONS
    if n.endswith("_of") and n not in {"member_of", "friend_of", "neighbour_of", "colleague_of"}
)

# Common spellings people (and models) use for the same relation.
ALIASES: dict[str, str] = {
    "live_in": "lives_in", "resides_in": "lives_in", "lives_at": "lives_in", "moved_to": "lives_in",
    "works_for": "works_at", "employed_by": "works_at", "employed_at": "works_at", "work_at": "works_at",
    "job": "works_as", "occupation": "works_as", "is_employed_as": "works_as",
    "love": "likes", "loves": "likes", "enjoys": "likes", "like": "likes", "prefers": "likes",
    "hates": "dislikes", "dislike": "dislikes", "hate": "dislikes",
    "birthday": "born_on", "birth_date": "born_on", "birthplace": "born_in", "born_at": "born_in",
    "married_to": "spouse_of", "wife_of": "spouse_of", "husband_of": "spouse_of",
    "girlfriend_of": "partner_of", "boyfriend_of": "partner_of",
    "neighbor_of": "neighbour_of", "owns_pet": "has_pet", "pet": "has_pet", "drive": "drives",
    "play": "plays", "manager": "reports_to", "managed_by": "reports_to", "breed": "is_a", "type_of": "is_a",
}


def relation(name: str) -> Relation:
    """Look a relation up by name or common alias; unknown names raise with the vocabulary."""
    key = name.strip().lower().replace(" ", "_").replace("-", "_")
    key = ALIASES.get(key, key)
    try:
        return RELATIONS[key]
    except KeyError:
        known = ", ".join(sorted(RELATIONS))
        raise UnknownRelation(
            f"unknown relation {name!r}",
            hint=f"use one of: {known} (or related_to with a label)",
        ) from None


def is_relation(name: str) -> bool:
    try:
        relation(name)
    except UnknownRelation:
        return False
    return True
