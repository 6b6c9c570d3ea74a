"""The model chooses and labels facts among spaCy's candidate spans (issue 10), one turn per call.

    CandidateExtractor(llm, nlp).extract(turns) -> Extraction

Per turn: candidates (memory/extraction/candidates.py) are listed with keys; the JSON schema makes subject,
object and date enums of those keys, kind/op enums, the predicate a short snake_case word group and the list
short (`maxItems`), so the model classifies instead of writing. Every chosen fact is then verified against
its sentence (`verify`): types that fit the predicate, no fact from a question, a wish, a hypothetical or a
negated clause, no object outside this turn. The prompt's fixed part (instructions + few-shot examples,
written for this project, none from the evaluation data) comes first so llama.cpp's prompt cache keeps it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memory.errors import UnknownRelation
from memory.extraction.candidates import Candidate, candidate_lines, propose
from memory.extraction.llm_extractor import facts_list
from memory.extraction.types import USER, ExtractedFact
from memory.learning import Extraction
from memory.llm import LLM, LLMBadOutput
from memory.timeutil import grain_span
from memory.vocabulary import EntityType, converge, relation
from memory.words import ROLE_RELATIONS

KINDS = ("state", "event", "plan")
OPS = ("assert", "end")
MAX_FACTS = 6
PREDICATE_PATTERN = r"^[a-z]{2,14}(_[a-z]{1,12}){0,3}$"

# Words that make a clause not a statement of fact (a wish, a hypothetical, a hedge). Data, not code paths.
HEDGES = frozenset({"wish", "hope", "would", "could", "might", "maybe", "perhaps", "dream", "imagine",
                    "if", "unless", "whether", "should", "consider", "thinking", "want", "wanna"})
# Predicates whose object is a place a person is or goes to (never a person, date, value or activity).
PLACE_PREDICATES = frozenset({"lives_in", "grew_up_in", "born_in", "visited", "plans_trip_to"})
_PERSONISH = frozenset({"PERSON", "NAME"})
_NOT_SUBJECTS = frozenset({"DATE", "VALUE", "ACTIVITY"})
# Words one of which the sentence must contain for the model's predicate to stand (lemmas, lower case): the
# check that a fact is *said*, not guessed. Kinship and social roles come from words.ROLES. An open
# predicate outside this table needs one of its own content words in the sentence ("keeps" <- "keep").
# Data, extended as phrasings are seen; never written for particular test sentences.
PREDICATE_CUES: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "lives_in": "live home house flat apartment move relocate rent stay settle based reside",
    "lives_with": "live home house flat apartment move rent share housemate flatmate roommate together",
    "grew_up_in": "grow raise childhood", "born_in": "bear born birth", "born_on": "bear born birthday birth",
    "works_at": "work job employ hire join start quit leave retire career intern office",
    "works_as": "work job employ hire career profession retire qualify promote intern",
    "studies_at": "study student school college university uni course degree enrol attend",
    "studies": "study student course degree major learn", "teaches": "teach teacher tutor coach lecture",
    "member_of": "member join team club band choir group league society", "speaks": "speak fluent language",
    "owns": "own buy bought have got", "drives": "drive car buy bought ride",
    "has_pet": "pet dog cat puppy kitten adopt rescue hamster rabbit parrot horse fish tortoise",
    "likes": "like love enjoy fan favourite favorite adore passion into obsess keen hooked",
    "dislikes": "hate dislike stand loathe", "plays": "play player",
    "practices": "practice practise do take train hobby start class lesson", "allergic_to": "allergic allergy",
    "visited": "visit go went been back trip holiday travel return spend land tour stay fly see",
    "plans_trip_to": "go fly travel trip holiday head off visit drive book plan leave take",
    "spouse_of": "marry married wedding", "partner_of": "date",
    "engaged_to": "engage engaged propose fiance fiancee", "is_a": "be breed kind",
    "diet": "vegan vegetarian pescatarian eat diet meat gluten dairy keto",
}.items()}
_FUNCTION = frozenset({"to", "of", "in", "at", "for", "on", "with", "from", "by", "about", "as", "is", "has",
                       "have", "be", "the", "a", "an", "got", "get", "was", "does", "did", "plans", "plan"})


def cues_for(predicate: str) -> frozenset[str] | None:
    roles = frozenset(w for w, r in ROLE_RELATIONS.items() if r == predicate)
    return PREDICATE_CUES.get(predicate, frozenset()) | roles or None


def _stem(word: str) -> str:
    for suf in ("ing", "ed", "es", "s"):
        if word.endswith(suf) and len(word) - len(suf) >= 3:
            return word[: -len(suf)].rstrip("e")
    return word.rstrip("e") or word


def supported(predicate: str, sentence: Any) -> bool:
    """The sentence has a word that says the predicate: a cue from PREDICATE_CUES (or a role word for
    kinship), or for an open predicate one of its content words (stemmed: "keeps" <- "kept", "keeping")."""
    words = {t.lemma_.lower() for t in sentence} | {t.lower_ for t in sentence}
    cues = cues_for(predicate)
    if cues is not None:
        return bool(cues & words)
    content = [w for w in predicate.split("_") if w not in _FUNCTION]
    stems = {_stem(w) for w in words}
    return bool(content) and any(_stem(w) in stems for w in content)


# A past-event predicate chosen for something still to come, and what it means as a plan.
FUTURE_OF = {"visited": "plans_trip_to", "attended": "plans_to_attend"}
# Plan words make a future-looking clause a plan, not a hedge ("I'm going to", "planning to").
PLAN_WORDS = frozenset({"plan", "planning", "going", "booked", "will", "gonna", "off", "flying", "leaving",
                        "heading", "moving", "starting"})

SYSTEM = """You choose the facts worth remembering from what a person just said.
You get the words said, and numbered candidate spans taken from them. A fact is
subject -> predicate -> object, where subject and object are candidate keys. S is the speaker ("I", "me", "my", "we").

Predicates. Use one of these when it fits:
lives_in (their home town or city), lives_with (shares a home with a person), works_at, works_as, studies_at,
studies, member_of, speaks, owns, has_pet, is_a, likes, dislikes, plays, practices, allergic_to,
visited (a trip, a holiday, "been to", "got back from" - never lives_in), born_in, grew_up_in, born_on,
spouse_of, partner_of, engaged_to, friend_of, neighbour_of, colleague_of, sister_of, brother_of, mother_of,
father_of, daughter_of, son_of, cousin_of, aunt_of, uncle_of, niece_of, nephew_of, grandparent_of.
"X sister_of Y" means X is Y's sister. Otherwise write a short snake_case predicate such as keeps, diet,
learns, member_of_team, plans_trip_to, attended, read, named, volunteers_at, teaches.

kind: state (true for a while), event (happened once), plan (intended, in the future).
op: assert; end when a state stopped or is over ("used to", "quit", "moved out", "no longer", "split up").
when: the key of the DATE candidate that says when, or "none".

Only what the speaker states as true. No facts from questions, greetings, thanks, compliments, wishes,
hypotheticals, other people's opinions, passing feelings, or descriptions of things and photos
("hand-knitted" or "lovely" is not a taste). A shared home is lives_in PLACE plus lives_with PERSON,
never lives_in PERSON. Return {"facts": []} when nothing lasting was said."""

# Few-shot examples: (speaker, date, words, the facts as (subject, predicate, object, kind, op, when)).
# Keys follow propose()'s order for these sentences; tests check that they still do.
EXAMPLES: list[tuple[str, str, str, list[tuple[str, str, str, str, str, str]]]] = [
    ("user", "2026-02-09", "My flatmate Tariq and I share a little house in Derby.",
     [("S", "lives_in", "Derby", "state", "assert", "none"), ("S", "lives_with", "Tariq", "state", "assert", "none")]),
    ("user", "2026-05-04", "Got back from Portugal on Sunday, what a trip!",
     [("S", "visited", "Portugal", "event", "assert", "Sunday")]),
    ("user", "2026-01-20", "My cousin Lena moved to Berlin last year and she works for Siemens.",
     [("Lena", "cousin_of", "S", "state", "assert", "none"),
      ("Lena", "lives_in", "Berlin", "state", "assert", "last year"),
      ("Lena", "works_at", "Siemens", "state", "assert", "none")]),
    ("user", "2026-03-02", "I'm taking my nephew Sami to Paris in July.",
     [("S", "plans_trip_to", "Paris", "plan", "assert", "July"),
      ("Sami", "nephew_of", "S", "state", "assert", "none")]),
    ("user", "2026-04-15", "I used to play rugby but these days I do climbing. My uncle keeps chickens.",
     [("S", "plays", "rugby", "state", "end", "none"), ("S", "practices", "climbing", "state", "assert", "none"),
      ("uncle", "keeps", "chickens", "state", "assert", "none")]),
    ("user", "2026-06-07", "Jess and I got engaged at the weekend! Could you remind me to book the venue?",
     [("S", "engaged_to", "Jess", "state", "assert", "none")]),
    ("user", "2026-02-11", "Thanks! My sister's hand-painted mug is so cute, and I wish I could go to Japan.", []),
    ("Omar", "2026-09-21", "I teach maths at Hillview School, and I've been learning Welsh since March.",
     [("S", "works_at", "Hillview School", "state", "assert", "none"),
      ("S", "teaches", "maths", "state", "assert", "none"), ("S", "learns", "Welsh", "state", "assert", "March")]),
]


@dataclass(frozen=True)
class Choice:
    """One fact as the model chose it: keys into the turn's candidates."""

    subject: str
    predicate: str
    object: str
    kind: str
    op: str
    when: str


def schema(cands: Sequence[Candidate]) -> dict[str, Any]:
    """Subject/object/date as enums of this turn's keys; at most MAX_FACTS facts."""
    keys = [c.key for c in cands]
    date_keys = [c.key for c in cands if c.type == "DATE"]
    return {
        "type": "object",
        "properties": {"facts": {"type": "array", "maxItems": MAX_FACTS, "items": {
            "type": "object",
            "properties": {
                "subject": {"type": "string", "enum": keys},
                "predicate": {"type": "string", "pattern": PREDICATE_PATTERN},
                "object": {"type": "string", "enum": keys},
                "kind": {"type": "string", "enum": list(KINDS)},
                "op": {"type": "string", "enum": list(OPS)},
                "when": {"type": "string", "enum": [*date_keys, "none"]},
            },
            "required": ["subject", "predicate", "object", "kind", "op", "when"],
            "additionalProperties": False,
        }}},
        "required": ["facts"],
        "additionalProperties": False,
    }


def render(speaker: str, at: datetime, text: str, cands: Sequence[Candidate], known: Sequence[str] = ()) -> str:
    day = at.strftime("%Y-%m-%d (%A)")
    out = f"Speaker: {speaker}, on {day}\nSaid: {json.dumps(text, ensure_ascii=False)}\nCandidates:\n"
    out += candidate_lines(cands)
    if known:
        out += "\nPredicates already in memory (reuse one when it means the same): " + ", ".join(known)
    return out


def parse(raw: str, cands: Sequence[Candidate]) -> list[Choice]:
    """The model's JSON as choices; keys not among the candidates are dropped. LLMBadOutput if not JSON."""
    items = facts_list(raw)
    keys = {c.key for c in cands}
    out = []
    for it in items[:MAX_FACTS]:
        if not isinstance(it, dict):
            continue
        ch = Choice(*(str(it.get(k) or "") for k in ("subject", "predicate", "object", "kind", "op", "when")))
        if ch.subject in keys and ch.object in keys and ch.kind in KINDS and ch.op in OPS:
            out.append(ch)
    return out


def _clause_blocked(doc: Any, c: Candidate, op: str, kind: str) -> str | None:
    """Why the clause around candidate `c` is not a statement of fact, or None when it is one."""
    if c.start < 0 or doc is None:
        return None
    tok = doc[c.start]
    sent = tok.sent
    if sent.text.strip().endswith("?"):
        return "a question"
    chain = [tok, *tok.ancestors]
    for t in chain:
        if t.lemma_.lower() in HEDGES or t.lower_ in HEDGES:
            if kind == "plan" and any(w.lower_ in PLAN_WORDS for w in sent):
                continue
            return f"hedged by '{t.text}'"
        kids = list(t.children)
        if any(k.lower_ in HEDGES and k.dep_ in ("mark", "aux", "advmod") for k in kids) and not (
                kind == "plan" and any(w.lower_ in PLAN_WORDS for w in sent)):
            return f"hedged in '{t.text}'"
        if op == "assert" and t.pos_ in ("VERB", "AUX") and any(k.dep_ == "neg" for k in kids):
            return f"negated at '{t.text}'"
    return None


def verify(ch: Choice, cands: Sequence[Candidate], doc: Any = None) -> str | None:
    """Why a chosen fact is refused (a sentence), or None when it stands.

    The object must be said in this turn (the speaker may be the object of a relation between people);
    its type must fit the predicate; its clause must state something (not asked, wished or negated)."""
    by_key = {c.key: c for c in cands}
    s, o = by_key[ch.subject], by_key[ch.object]
    if s.key == o.key:
        return "subject and object are the same"
    try:
        rel = relation(ch.predicate)
    except UnknownRelation:
        return f"predicate {ch.predicate!r} is not a usable name"
    person_rel = rel.object_type is EntityType.PERSON
    if o.key == "S" and not person_rel:
        return "only a relation between people can have the speaker as its object"
    if o.key != "S" and o.sentence < 0:
        return "the object was not said in this turn"
    if s.type in _NOT_SUBJECTS:
        return f"a {s.type.lower()} cannot be a subject"
    if o.type == "DATE" and rel.name != "born_on":
        return "a date is a when, not an object"
    if rel.name in PLACE_PREDICATES and (o.key == "S" or o.type in ("PERSON", "DATE", "VALUE", "ACTIVITY")
                                         or (o.type != "PLACE" and not o.text[:1].isupper())):
        return f"{rel.name} needs a place, not a {o.type.lower()}"
    if rel.object_type is not None and not person_rel and o.type == "PERSON" and rel.name not in PLACE_PREDICATES:
        return f"{rel.name} needs a {rel.object_type.value.lower()}, not a person"
    if person_rel and not _person_like(o):
        return f"{rel.name} needs a person, not a {o.type.lower()}"
    if person_rel and not _person_like(s):
        return f"{rel.name} needs a person as subject, not a {s.type.lower()}"
    if doc is not None and o.start >= 0:
        sentence = doc[o.start].sent
        if not supported(relation(converge(ch.predicate)).name, sentence):
            return f"nothing in the sentence says {rel.name}"
    for c in (o, s):
        why = _clause_blocked(doc, c, ch.op, ch.kind)
        if why:
            return why
    return None


def _person_like(c: Candidate) -> bool:
    """The speaker, a person, a relative ("my uncle"), or a capitalised name spaCy typed otherwise."""
    if c.key == "S" or c.owner or c.type in _PERSONISH:
        return True
    return c.type in ("ORG", "PLACE", "THING", "GROUP") and c.text[:1].isupper()


def to_fact(ch: Choice, cands: Sequence[Candidate], *, speaker: str, turn: int, text: str,
            known_predicates: Sequence[str] = (), at: datetime | None = None) -> ExtractedFact:
    """A verified choice as a fact: names, the predicate converged on the graph's, the date as valid_from/to."""
    by_key = {c.key: c for c in cands}
    me = USER if speaker == USER else speaker

    def name(c: Candidate) -> str:
        if c.key == "S":
            return me
        return f"{me}'s {c.text}" if c.owner else c.text

    rel = relation(converge(ch.predicate, known_predicates))
    when_c = by_key.get(ch.when)
    when = when_c.when if when_c is not None and when_c.type == "DATE" else None
    span = grain_span(when)
    start = span[0] if span is not None else None
    kind = ch.kind
    if start is not None and at is not None and start > at:
        kind = "plan"  # dated after the turn: intended, not done
    if kind == "plan" and rel.name in FUTURE_OF:
        rel = relation(FUTURE_OF[rel.name])  # "visited" on Saturday still to come is a trip planned
    o = by_key[ch.object]
    return ExtractedFact(
        subject=name(by_key[ch.subject]), relation=rel.name, object=name(o), op=ch.op,  # type: ignore[arg-type]
        valid_from=start if ch.op == "assert" and kind != "plan" else None,
        valid_to=start if ch.op == "end" else None,
        subject_type=EntityType.PERSON.value if ch.subject == "S" else None,
        object_type=(rel.object_type.value if rel.object_type else None) or _graph_type(o),
        confidence=0.85, evidence=text, turn=turn,
        extra={"kind": kind, "when": when, "predicate": rel.name})


def _graph_type(c: Candidate) -> str | None:
    return {"PERSON": "PERSON", "NAME": None, "PLACE": "PLACE", "ORG": "ORG", "DATE": "DATE",
            "ACTIVITY": "ACTIVITY"}.get(c.type)


def _example_messages(nlp: Any) -> list[dict[str, str]]:
    """The few-shot examples as chat turns, their keys from propose() on the same sentences."""
    msgs: list[dict[str, str]] = []
    for speaker, day, text, facts in EXAMPLES:
        at = datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC)
        cands = propose(nlp(text), speaker=speaker, at=at)
        key = {c.text.lower(): c.key for c in cands} | {"s": "S"}
        answer = []
        for s, p, o, kind, op, when in facts:
            answer.append({"subject": key.get(s.lower(), s), "predicate": p, "object": key.get(o.lower(), o),
                           "kind": kind, "op": op, "when": key.get(when.lower(), "none")})
        msgs.append({"role": "user", "content": render(speaker, at, text, cands)})
        # compact, as the schema grammar writes it: a spaced example makes the constrained model skip to []
        msgs.append({"role": "assistant", "content": json.dumps({"facts": answer}, separators=(",", ":"))})
    return msgs


def example_problems(nlp: Any) -> list[str]:
    """Example facts whose words are not candidates of their sentence (the examples must stay choosable)."""
    problems = []
    for speaker, day, text, facts in EXAMPLES:
        at = datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC)
        cands = propose(nlp(text), speaker=speaker, at=at)
        words = {c.text.lower() for c in cands} | {"s"}
        for s, _, o, _, _, when in facts:
            problems += [f"{text!r}: {w!r} is not a candidate" for w in (s, o) if w.lower() not in words]
            if when != "none" and when.lower() not in words:
                problems.append(f"{text!r}: date {when!r} is not a candidate")
    return problems


class CandidateExtractor:
    """One schema-constrained call per non-assistant turn with candidates; verified facts out.

    `known_predicates()` (optional) gives the open predicates already in the graph, so that the model and the
    normalisation reuse them instead of writing near-duplicates."""

    def __init__(self, llm: LLM, nlp: Any, *, known_predicates: Any = None, max_tokens: int = 260,
                 timeout_s: float = 240.0, only_last: bool = False) -> None:
        """`only_last`: the earlier turns are context only (names for "he"/"she"), no call for them — how
        benchmarks/extraction_holdout.py scores one utterance with its context."""
        self.llm, self.nlp, self.only_last = llm, nlp, only_last
        self.known_predicates = known_predicates
        self.max_tokens, self.timeout_s = max_tokens, timeout_s
        self._prefix: list[dict[str, str]] | None = None

    def prefix(self) -> list[dict[str, str]]:
        if self._prefix is None:
            self._prefix = [{"role": "system", "content": SYSTEM}, *_example_messages(self.nlp)]
        return self._prefix

    def extract(self, turns: Sequence[Any], *, known: Sequence[ExtractedFact] = ()) -> Extraction:
        facts: list[ExtractedFact] = []
        notes: list[str] = []
        people: list[str] = []
        preds = list(self.known_predicates() if self.known_predicates else [])
        for i, t in enumerate(turns):
            doc = self.nlp(t.text)
            if t.speaker != "assistant" and (not self.only_last or i == len(turns) - 1):
                facts += self._turn(t, doc, people, preds, notes)
            for ent in doc.ents:
                if ent.label_ == "PERSON" and ent.text not in people:
                    people.append(ent.text)
        return Extraction(facts, "llm-choose", notes)

    def _turn(self, t: Any, doc: Any, people: Sequence[str], preds: Sequence[str], notes: list[str],
              ) -> list[ExtractedFact]:
        at = t.at if t.at.tzinfo else t.at.replace(tzinfo=UTC)
        cands = propose(doc, speaker=t.speaker, at=at, context_people=people[-4:])
        if not any(c.sentence >= 0 for c in cands) or all(s.text.strip().endswith("?") for s in doc.sents):
            return []
        messages = [*self.prefix(), {"role": "user", "content": render(t.speaker, at, t.text, cands, preds)}]
        try:
            raw = self.llm.complete(messages, json_schema=schema(cands), max_tokens=self.max_tokens,
                                    temperature=0.0, timeout_s=self.timeout_s)
            choices = parse(raw, cands)
        except LLMBadOutput as e:
            notes.append(f"turn {t.idx}: {e.message}")
            return []
        out = []
        for ch in choices:
            why = verify(ch, cands, doc)
            if why:
                notes.append(f"turn {t.idx}: refused {ch.subject} {ch.predicate} {ch.object}: {why}")
                continue
            out.append(to_fact(ch, cands, speaker=t.speaker, turn=t.idx, text=t.text, known_predicates=preds,
                               at=at))
        return out


_VOLATILE_RULES = frozenset({"likes", "dislikes", "plays", "practices", "knows", "related_to"})


class ChoiceWithRules:
    """The shipped combination: the model's verified choices, plus what the rules are certain of.

    The rules keep their stopped states and corrections (op end/retract: negation, "anymore", "I meant") and
    their non-taste assertions; a model assertion that the rules end or take back in the same turn goes.
    Rule tastes (likes, plays...) are left to the model: on sentences outside their patterns they misfire
    ("likes skills"). A model failure (down, broken answers) leaves the rules' facts and a note.
    """

    def __init__(self, model: Any, rules: Any) -> None:
        self.model, self.rules = model, rules

    def extract(self, turns: Sequence[Any], *, known: Sequence[ExtractedFact] = ()) -> Extraction:
        from memory.llm import LLMError
        from memory.names import normalize

        ruled = self.rules.extract(turns)
        try:
            chosen = self.model.extract(turns)
        except LLMError as e:
            ruled.notes.append(f"LLM extraction failed ({e.message}); learned with the spaCy rules instead")
            return ruled

        def k(f: ExtractedFact) -> tuple[int, str, str, str]:
            return f.turn, normalize(f.subject), f.relation, normalize(f.object)

        stopped = {k(f) for f in ruled.facts if f.op != "assert"}
        facts = [f for f in chosen.facts if not (f.op == "assert" and k(f) in stopped)]
        seen = {(*k(f), f.op) for f in facts}
        for f in ruled.facts:
            if f.op == "assert" and f.relation in _VOLATILE_RULES:
                continue
            if (*k(f), f.op) not in seen:
                seen.add((*k(f), f.op))
                facts.append(f)
        return Extraction(facts, "llm-choose+rules", ruled.notes + chosen.notes)
