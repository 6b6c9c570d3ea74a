"""Conversation state for the rules: who was mentioned last, named roles, unnamed pets, facts so far."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from memory.extraction.rules_tokens import SubjectRef
from memory.extraction.types import USER, ExtractedFact
from memory.names import normalize
from memory.words import KIN_TITLES, ROLES

PRONOUN_GENDER = {"she": "f", "her": "f", "he": "m", "him": "m", "his": "m"}


@dataclass
class Entity:
    """A resolved participant: a name (or USER), its type, and a gender when a role word gave one."""

    name: str
    type: str = "PERSON"
    gender: str | None = None
    unresolved: bool = False  # "my sister" with no name known yet


@dataclass
class Discourse:
    """What earlier sentences (and context utterances) established."""

    referents: list[Entity] = field(default_factory=list)
    roles: dict[str, str] = field(default_factory=dict)  # role word -> name ("sister" -> "Anna")
    pending_pet: str | None = None  # species of a pet mentioned without a name
    # the kind of several pets just got, not named: names said alone in the next sentence are theirs ("We've come
    # home with two guinea pigs. Custard and Crumble.")
    pets_unnamed: str | None = None
    # someone else's pet just got, not named ("Ewan got a leopard gecko"): named next ("he's called it Pringle")
    pet_of: tuple[Entity, str] | None = None
    pending_role: str | None = None  # role of a person mentioned without a name ("my new neighbour")
    facts: list[ExtractedFact] = field(default_factory=list)
    unnamed_pets: list[tuple[str, ExtractedFact]] = field(default_factory=list)
    dropped: list[ExtractedFact] = field(default_factory=list)  # superseded within the utterance
    # a baby someone had, not yet named ("My sister had a baby girl"): its parent and, when said, its gender; the
    # name said next ("they called her Maeve") is the baby's, not the parent's
    newborn: tuple[Entity, str | None] | None = None
    # a name memory already holds for someone or a pet, asked of a capitalised word the tagger did not read as a name
    # ("Nibbles died at the weekend", months after "Our hamster is called Nibbles"); None: memory is not asked
    known_name: Callable[[str], bool] | None = None

    def is_name(self, word: str) -> bool:
        """``word`` names someone or a pet met earlier in this conversation, or one memory holds."""
        if any(r.name == word and r.type in ("PERSON", "ANIMAL") for r in self.referents):
            return True
        return self.known_name is not None and self.known_name(word)

    def mention(self, ent: Entity) -> None:
        """Make `ent` the most recent referent."""
        if ent.name == USER:
            return
        self.referents = [r for r in self.referents if normalize(r.name) != normalize(ent.name)]
        self.referents.append(ent)

    def name_role(self, role: str, name: str) -> Entity:
        """Record that `role` ("sister") is `name`, and mention that person."""
        self.roles[role] = name
        if self.pending_role == role:  # named now, whichever way ("My uncle moved in, he's called Bram")
            self.pending_role = None
        gender = ROLES[role].gender if role in ROLES else None
        known = self.find(name)
        ent = Entity(name, known.type if known else "PERSON", gender or (known.gender if known else None))
        self.mention(ent)
        return ent

    def find(self, name: str) -> Entity | None:
        key = normalize(name)
        for r in reversed(self.referents):
            if normalize(r.name) == key:
                return r
        return None

    def pronoun(self, word: str) -> Entity | None:
        """she/he/it/they -> the latest referent that fits."""
        want = PRONOUN_GENDER.get(word)
        latest_first = self.referents[::-1]
        for k, r in enumerate(latest_first):
            if word in ("it", "its"):
                if r.type == "ANIMAL":
                    return r
                continue
            if word in ("they", "their"):
                return None
            if want is not None and r.gender is None and r.type == "PERSON" and any(
                    o.type == "PERSON" and o.gender in (None, want) for o in latest_first[k + 1 :]):
                return None  # "Neil and Carla are splitting up, he's moved…": which one "he" is, is not known
            if want is None or r.gender in (None, want):
                return r
        return None

    def resolve(self, ref: SubjectRef | None, inherited: Entity | None) -> Entity | None:
        """Turn a subject reference into an entity (or None when it cannot be resolved)."""
        if ref is None:
            return inherited
        if ref.kind == "user":
            return Entity(USER)
        if ref.kind in ("pronoun", "poss_pronoun"):
            return self.pronoun(ref.text)
        if ref.kind == "name" and ref.text.lower() in KIN_TITLES and not self.find(ref.text):
            ref = SubjectRef("role", ref.text.lower(), ref.start)  # "Dad's birthday…": the speaker's dad
        if ref.kind == "name":
            known = self.find(ref.text)
            if ref.role_name and ref.role_name in ROLES:
                return self.name_role(ref.role_name, ref.text)
            ent = known or Entity(ref.text)
            self.mention(ent)
            return ent
        if ref.kind == "role":
            if ref.text in self.roles:
                return self.find(self.roles[ref.text]) or Entity(self.roles[ref.text])
            if ref.text in ROLES:
                ent = Entity(f"my {ref.text}", "PERSON", ROLES[ref.text].gender, unresolved=True)
                self.mention(ent)
                return ent
            return None
        return None

    def last_object(self, value: str) -> ExtractedFact | None:
        """The latest asserted fact whose object is `value` (after normalisation; prefix matches count)."""
        key = normalize(value)
        if not key:
            return None
        for f in reversed(self.facts):
            obj = normalize(f.object)
            if f.op == "assert" and (obj == key or obj.startswith(key + " ") or key.startswith(obj + " ")):
                return f
        return None
