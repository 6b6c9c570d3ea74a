"""The relation vocabulary: every arc type the graph knows, with its cardinality and decay class."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from memory.errors import UnknownRelation
from memory.words import PAST_FORMS


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
    # Something that happened (a trip), not a state: it is said "on <date>", never "still true".
    event: bool = False
    # True as long as its subject exists (a birthday, a birthplace, a breed): the day it was told is no start
    timeless: bool = False


_S, _D, _V = DecayClass.STABLE, DecayClass.DURABLE, DecayClass.VOLATILE
_P, _PL, _O = EntityType.PERSON, EntityType.PLACE, EntityType.ORG

RELATIONS: dict[str, Relation] = {
    r.name: r
    for r in [
        # where and what
        Relation("lives_in", "subject lives in the place", single_valued=True, object_type=_PL),
        Relation("grew_up_in", "subject grew up in the place", single_valued=True, decay=_S, object_type=_PL),
        Relation("born_in", "subject was born in the place", single_valued=True, decay=_S, object_type=_PL,
                 timeless=True),
        Relation("born_on", "subject's birthday / date of birth", single_valued=True, decay=_S,
                 object_type=EntityType.DATE, timeless=True),
        Relation("died_on", "when the subject died", single_valued=True, decay=_S, object_type=EntityType.DATE,
                 timeless=True),
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
        Relation("is_a", "subject is a kind of / breed / category the object", decay=_S, timeless=True),
        # tastes and activities
        Relation("likes", "subject likes / loves / enjoys the object", decay=_V, opposite="dislikes"),
        Relation("dislikes", "subject dislikes / hates the object", decay=_V, opposite="likes"),
        Relation("plays", "subject plays the instrument, sport or game", decay=_V,
                 object_type=EntityType.ACTIVITY),
        Relation("practices", "subject does the hobby or activity", decay=_V, object_type=EntityType.ACTIVITY),
        Relation("allergic_to", "subject is allergic to the object", decay=_S),
        Relation("visited", "subject visited the place", decay=_V, object_type=_PL, event=True),
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
        # the label says which ("brother-in-law"): kin by marriage, no brother
        Relation("in_law_of", "subject is the object's in-law (brother-, sister-, mother-in-law...)", decay=_S,
                 object_type=_P),
        Relation("friend_of", "subject is the object's friend", symmetric=True, object_type=_P),
        Relation("neighbour_of", "subject is the object's neighbour", symmetric=True, object_type=_P),
        Relation("colleague_of", "subject works with the object", symmetric=True, object_type=_P),
        Relation("knows", "subject knows the object", symmetric=True, decay=_V, object_type=_P),
        Relation("lives_with", "subject shares a home with the object", symmetric=True, object_type=_P),
        Relation("engaged_to", "subject is engaged to the object", single_valued=True, symmetric=True,
                 object_type=_P),
        # one diet at a time: "I've gone vegan" ends "vegetarian"
        Relation("diet", "subject's diet (vegan, vegetarian, pescatarian...)", single_valued=True),
        # anything else, with a free-text label
        Relation("related_to", "generic association; the label says how", decay=_V),
    ]
}

KINSHIP = frozenset(
    n for n in RELATIONS
    if n.endswith("_of") and n not in {"member_of", "friend_of", "neighbour_of", "colleague_of"}
)
# A relation and the narrower ones that are cases of it: "my parents" are a mother and a father, though each
# was stored as mother_of or father_of; a spouse is a partner ("Jess and I split up" ends a marriage too).
NARROWER: dict[str, tuple[str, ...]] = {
    "parent_of": ("mother_of", "father_of"), "sibling_of": ("sister_of", "brother_of"),
    "child_of": ("daughter_of", "son_of"), "partner_of": ("spouse_of",),
}

# Where someone lives, and where they only go: a trip is a visit, never a home ("Just got back from Peru" is no
# answer to "Where do I live?").
HOMES = frozenset({"lives_in"})
SHARED_HOME = frozenset({"lives_with"})  # whom a home is shared with: of the home too
TRIPS = frozenset({"visited", "plans_trip_to"})
# A plan and the state it changes once done: until then the state holds ("House is sold! We move to Lancaster on
# the 18th of December" ends no home yet)
PLAN_CHANGES: dict[str, str] = {"plans_to_move_to": "lives_in"}

# A value that ends the subject's other relations when it is held: someone retired works for no one now ("Dad
# drives buses for Arriva", then "Dad retired on Friday"); someone who graduated studies nowhere now. (relation,
# value) -> the relations it ends; the value "" is any value.
ENDS_OTHERS: dict[tuple[str, str], tuple[str, ...]] = {("works_as", "retired"): ("works_at",),
                                                       ("graduated_from", ""): ("studies_at",)}

# An end that ends, with it, what the same words told beside it: studies at a place that end end the subject
# studied there ("Zara's studying law at Durham", then "Zara graduated": no longer studying law either).
ENDS_TOLD_WITH: dict[str, tuple[str, ...]] = {"studies_at": ("studies",)}

# A couple's end ends the home the two share ("Kieran and Saoirse have split up. He's back at Mam's": he no longer
# lives with her). relation ended -> the relation between the same two that ends with it.
ENDS_SHARED: dict[str, str] = {"partner_of": "lives_with", "spouse_of": "lives_with"}

# An event of the object that ends others' holding of it: a pet that died is had by no one ("Ewan got a leopard
# gecko, he's called it Pringle", then "Pringle died": Ewan has it no more). relation asserted -> relations to the
# subject that end.
ENDS_HOLDING: dict[str, tuple[str, ...]] = {"died_on": ("has_pet",)}

# Common spellings people (and models) use for the same relation.
ALIASES: dict[str, str] = {
    "live_in": "lives_in", "resides_in": "lives_in", "lives_at": "lives_in", "moved_to": "lives_in",
    "works_for": "works_at", "employed_by": "works_at", "employed_at": "works_at", "work_at": "works_at",
    "job": "works_as", "occupation": "works_as", "is_employed_as": "works_as",
    "love": "likes", "loves": "likes", "enjoys": "likes", "like": "likes", "prefers": "likes",
    "hates": "dislikes", "dislike": "dislikes", "hate": "dislikes",
    "birthday": "born_on", "birth_date": "born_on", "birthplace": "born_in", "born_at": "born_in",
    "died": "died_on", "passed_away": "died_on", "death_date": "died_on",
    "married_to": "spouse_of", "wife_of": "spouse_of", "husband_of": "spouse_of",
    "girlfriend_of": "partner_of", "boyfriend_of": "partner_of",
    "neighbor_of": "neighbour_of", "owns_pet": "has_pet", "pet": "has_pet", "drive": "drives",
    "play": "plays", "manager": "reports_to", "managed_by": "reports_to", "breed": "is_a", "type_of": "is_a",
}


# Open predicates (issue 10): anything outside the vocabulary is stored under a short snake_case name.
# Spellings that mean the same converge on one name here; this table is data, extended as phrasings are seen.
OPEN_ALIASES: dict[str, str] = {
    # trips are visits, never homes
    "went_to": "visited", "been_to": "visited", "travelled_to": "visited", "traveled_to": "visited",
    "trip_to": "visited", "got_back_from": "visited", "returned_from": "visited", "back_from": "visited",
    "holidayed_in": "visited", "vacationed_in": "visited", "visits": "visited", "visit": "visited",
    "toured": "visited", "went_on_trip_to": "visited",
    # plans to travel
    "plans_to_visit": "plans_trip_to", "going_to": "plans_trip_to", "flying_to": "plans_trip_to",
    "travelling_to": "plans_trip_to", "traveling_to": "plans_trip_to", "will_visit": "plans_trip_to",
    "planning_trip_to": "plans_trip_to", "plans_to_go_to": "plans_trip_to", "heading_to": "plans_trip_to",
    # homes shared with people
    "shares_home_with": "lives_with", "housemate_of": "lives_with", "flatmate_of": "lives_with",
    "roommate_of": "lives_with", "lives_together_with": "lives_with", "moved_in_with": "lives_with",
    "live_with": "lives_with", "shares_flat_with": "lives_with", "shares_house_with": "lives_with",
    # life events and the state they give
    "got_engaged_to": "engaged_to", "fiance_of": "engaged_to", "fiancee_of": "engaged_to",
    "got_married_to": "spouse_of", "wed": "spouse_of", "married": "spouse_of", "got_married": "spouse_of",
    # memberships, learning, diets, events
    "on_team": "member_of_team", "part_of_team": "member_of_team", "in_team": "member_of_team",
    "member_of_the_team": "member_of_team", "joined_team": "member_of_team",
    "is_learning": "learns", "learning": "learns", "learn": "learns", "studying": "studies",
    "follows_diet": "diet", "has_diet": "diet",
    "went_to_event": "attended", "attends": "attended", "attending": "attended", "went_to_concert": "attended",
    "reading": "read", "reads": "read", "finished_reading": "read",
    "has_child": "parent_of", "has_daughter": "parent_of", "has_son": "parent_of",
    "keep": "keeps", "raises": "keeps", "is_named": "named", "called": "named", "name": "named",
}

_OPEN_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+){0,4}")
_NOT_PREDICATES = frozenset({"is", "was", "be", "has", "have", "had", "do", "does", "did", "said", "says",
                             "thinks", "feels", "glad", "happy", "wants", "wishes", "hopes", "related",
                             "fact", "none", "other", "unknown", "null"})


# Past participles that name a state, not something done once ("interested_in", "married_to", "based_in")
_STATE_PARTICIPLES = frozenset({
    "interested", "engaged", "married", "retired", "related", "excited", "involved", "based", "located",
    "qualified", "named", "called", "obsessed", "addicted", "scared", "tired", "used", "supposed", "employed",
    "divorced", "separated", "worried", "allergic", "trained", "skilled", "experienced", "licensed", "certified"})


def is_event(name: str) -> bool:
    """The relation records something that happened once (a trip, "attended", "graduated_from", "ran"), not a state
    that holds: the vocabulary's events, and open predicates told in the past tense."""
    r = RELATIONS.get(name)
    if r is not None:
        return r.event
    head = name.split("_", 1)[0]
    return head in PAST_FORMS or (head.endswith("ed") and len(head) > 4 and head not in _STATE_PARTICIPLES)


def is_symmetric(name: str) -> bool:
    """The relation reads the same both ways (``Relation.symmetric``: friend_of, lives_with)."""
    r = RELATIONS.get(name)
    return r is not None and r.symmetric


def is_timeless(name: str) -> bool:
    """The relation holds for as long as its subject exists (``Relation.timeless``); open predicates never do."""
    r = RELATIONS.get(name)
    return r is not None and r.timeless


def predicate_name(name: str) -> str:
    """The normalised spelling: lower snake_case, aliases folded ("Went to" -> visited, loves -> likes)."""
    key = re.sub(r"[\s\-]+", "_", name.strip().lower()).strip("_")
    key = OPEN_ALIASES.get(key, key)
    return ALIASES.get(key, key)


def is_open_name(name: str) -> bool:
    """A well-formed open predicate: short snake_case words, not an empty verb like `is` or `glad`."""
    key = predicate_name(name)
    return (key not in RELATIONS and len(key) <= 40 and _OPEN_NAME.fullmatch(key) is not None
            and key not in _NOT_PREDICATES)


def open_relation(name: str) -> Relation:
    """An open predicate as a relation: multi-valued, durable decay, not symmetric, no contradiction."""
    return Relation(predicate_name(name), "open predicate (outside the vocabulary)")


def relation(name: str) -> Relation:
    """Look a relation up by name or alias; an unknown well-formed snake_case name is an open relation.

    Names that are not short snake_case words (or are empty verbs like `is`) raise with the vocabulary."""
    key = predicate_name(name)
    if key in RELATIONS:
        return RELATIONS[key]
    if is_open_name(key):
        return open_relation(key)
    known = ", ".join(sorted(RELATIONS))
    raise UnknownRelation(
        f"unknown relation {name!r}",
        hint=f"use one of: {known}, or a short snake_case predicate such as keeps or member_of_team",
    )


def is_relation(name: str) -> bool:
    """In the vocabulary (a name or common alias); open predicates are not."""
    return predicate_name(name) in RELATIONS


_AUX = frozenset({"has", "have", "had", "is", "are", "was", "were", "be", "been", "does", "did", "do", "get",
                  "gets", "got", "the", "a", "an"})
_PREPS = frozenset({"to", "of", "in", "at", "for", "on", "with", "from", "by", "about", "as", "into"})


def _stem(word: str) -> str:
    for suf in ("ing", "ed", "es", "s"):
        if word.endswith(suf) and len(word) - len(suf) >= 3:
            return word[: -len(suf)].rstrip("e")
    return word.rstrip("e") or word


def predicate_signature(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Content words stemmed and the prepositions kept: keeps ~ keep ~ keeping, lives_in != lives_with."""
    words = [w for w in predicate_name(name).split("_") if w]
    return (tuple(_stem(w) for w in words if w not in _AUX and w not in _PREPS),
            tuple(w for w in words if w in _PREPS))


def converge(name: str, known: Iterable[str] = ()) -> str:
    """The name a new predicate is stored under: its normalised spelling, or a predicate already in the
    graph that means the same (same content words once stemmed and auxiliaries dropped, same prepositions)."""
    key = predicate_name(name)
    if key in RELATIONS:
        return key
    sig = predicate_signature(key)
    for k in known:
        other = predicate_name(k)
        if other != key and sig[0] and predicate_signature(other) == sig:
            return other
    return key
