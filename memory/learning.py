"""Learning from a conversation: store it, extract facts, resolve entities, update beliefs, record changes."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from memory.belief import dates_at, order_key
from memory.episodes import Episodes
from memory.errors import MemoryStoreError, QueryFailed
from memory.extraction.resolve import Resolver, role_relation
from memory.extraction.types import USER, ExtractedFact, for_speaker
from memory.graph import TemporalGraph
from memory.llm import LLMError
from memory.merges import merge_placeholders
from memory.merging import KIN_CLASS
from memory.model import Arc, Change
from memory.names import normalize
from memory.recall.linking import Linker
from memory.timeutil import grain_span
from memory.transcripts import TranscriptStore, Turn
from memory.vocabulary import (
    ENDS_HOLDING,
    ENDS_OTHERS,
    ENDS_SHARED,
    ENDS_TOLD_WITH,
    NARROWER,
    PLAN_CHANGES,
    RELATIONS,
    DecayClass,
    EntityType,
    relation,
)
from memory.words import DIET_EXCLUDES, USER_KEYS

if TYPE_CHECKING:
    from memory.revision import Reviser


@dataclass
class Extraction:
    facts: list[ExtractedFact]
    method: str  # "llm" | "rules"
    notes: list[str] = field(default_factory=list)


class ConversationExtractor(Protocol):
    def extract(self, turns: Sequence[Turn], *, known: Sequence[ExtractedFact] = ()) -> Extraction:
        """Facts stated by the speakers in ``turns`` (assistant turns are context, never evidence).

        ``known``: facts another extractor already found; an extractor may skip repeating them."""
        ...


class SentenceExtractor(Protocol):
    def extract(self, text: str, *, at: datetime, turn: int = 0, context: Sequence[str] = (),
                known_name: Callable[[str], bool] | None = None) -> list[ExtractedFact]:
        ...


class RulesExtractor:
    """Runs a per-sentence (spaCy) extractor over each non-assistant turn with the earlier turns as context."""

    def __init__(self, rules: SentenceExtractor, *, known_name: Callable[[str], bool] | None = None) -> None:
        """``known_name``: whether memory holds a word as the name of someone or a pet (asked of capitalised words
        the tagger did not read as names; each word once per conversation)."""
        self.rules = rules
        self.known_name = known_name

    def extract(self, turns: Sequence[Turn], *, known: Sequence[ExtractedFact] = ()) -> Extraction:
        facts: list[ExtractedFact] = []
        context: dict[str, list[str]] = {}
        asked = None if self.known_name is None else functools.lru_cache(maxsize=256)(self.known_name)
        for t in turns:
            if t.speaker == "assistant":
                continue
            ctx = context.setdefault(t.speaker, [])
            for f in self.rules.extract(t.text, at=t.at, turn=t.idx, context=tuple(ctx), known_name=asked):
                facts.append(for_speaker(f, t.speaker))
            ctx.append(t.text)
        return Extraction(facts, "rules")


class FallbackExtractor:
    """The LLM first; if it is down or breaks the schema (after its own retry), the rules — and say so."""

    def __init__(self, primary: ConversationExtractor, fallback: ConversationExtractor) -> None:
        self.primary, self.fallback = primary, fallback

    def extract(self, turns: Sequence[Turn], *, known: Sequence[ExtractedFact] = ()) -> Extraction:
        try:
            return self.primary.extract(turns, known=known)
        except LLMError as e:
            out = self.fallback.extract(turns)
            out.notes.append(f"LLM extraction failed ({e.message}); learned with the spaCy rules instead")
            return out


class GroundedExtractor:
    """The LLM path, grounded: per turn, the rules' facts stand; the LLM adds facts the rules did not cover.

    An LLM fact is kept only if its subject+relation is not already decided by a rule fact for that turn
    (the rules see negation and tense exactly; a 1.5B model sometimes flips "don't like X anymore" into a
    like) and its object is words the speaker actually said (no invented entities).
    """

    def __init__(self, llm: ConversationExtractor, rules: ConversationExtractor,
                 entities: Callable[[str], list[tuple[str, str]]] | None = None) -> None:
        self.llm, self.rules, self.entities = llm, rules, entities

    def extract(self, turns: Sequence[Turn], *, known: Sequence[ExtractedFact] = ()) -> Extraction:
        ruled = self.rules.extract(turns)
        try:
            extra = self.llm.extract(turns, known=ruled.facts)
        except LLMError as e:
            ruled.notes.append(f"LLM extraction failed ({e.message}); learned with the spaCy rules instead")
            return ruled
        by_turn = {t.idx: t for t in turns}
        decided = {(f.turn, normalize(f.subject), f.relation) for f in ruled.facts}
        decided_obj = {(f.turn, normalize(f.object)) for f in ruled.facts}
        facts = list(ruled.facts)
        for f in extra.facts:
            t = by_turn.get(f.turn)
            if t is None or (f.turn, normalize(f.subject), f.relation) in decided:
                continue
            if f.op != "assert" and (f.turn, normalize(f.object)) in decided_obj:
                continue
            words = " ".join(x.text for x in turns if x.speaker == t.speaker and x.idx <= t.idx)
            said = normalize(words)
            first_person = (USER, t.speaker)  # "I" said by this turn's speaker
            if not _grounded(f.object, said) or (f.subject not in first_person and not _grounded(f.subject, said)):
                continue
            if not self._plausible(f, words):
                continue
            facts.append(f)
        return Extraction(facts, "llm+rules", ruled.notes + extra.notes)

    def _plausible(self, f: ExtractedFact, words: str) -> bool:
        """A place, organisation or person must be a name the speaker said, not any phrase.

        "It rained all day here" once gave `lives_in "all day"` — and lives_in is single-valued, so it
        would have closed the user's real home. A job (works_as) is never an organisation's name.
        """
        kind = relation(f.relation).object_type
        labels = {normalize(n): lab for n, lab in (self.entities(words) if self.entities else [])}
        label = labels.get(normalize(f.object))
        if f.relation == "works_as" and (label == "ORG" or _proper(f.object, words)):
            return False
        if kind is None or kind.value not in ("PLACE", "ORG", "PERSON"):
            return True
        if label is not None and label.upper() in _NOT_NAMES:  # "all day" is a DATE, never a home
            return False
        return label is not None or _proper(f.object, words)


# A conversation's learning status while its turns are learned without the model's check of older facts
SO_FAR = "learned so far"
_NOT_NAMES = frozenset({"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"})
_WORDS = re.compile(r"[a-z]+(?:-[a-z]+)*")  # the words of a stored object, for the word tables


def _proper(name: str, text: str) -> bool:
    """Said as a proper noun: each significant word capitalised where it occurs in the text."""
    m = re.search(r"\b" + re.escape(name) + r"\b", text, re.I)
    if m is None:
        return False
    significant = [w for w in m.group(0).split() if w.lower() not in ("of", "the", "and", "de", "la", "von")]
    return bool(significant) and all(w[0].isupper() for w in significant)


def _grounded(name: str, said: str) -> bool:
    words = normalize(name).split()
    return bool(words) and all(f" {w} " in f" {said} " for w in words)


@dataclass
class LearnResult:
    conversation: str
    method: str
    changes: list[tuple[Change, int, str]] = field(default_factory=list)  # (change, turn idx, evidence)
    facts: list[ExtractedFact] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "conversation": self.conversation, "method": self.method, "skipped": self.skipped,
            "added": [c.to_json() | {"turn": i, "evidence": e} for c, i, e in self.changes if c.kind == "added"],
            "reinforced": [c.to_json() | {"turn": i} for c, i, _ in self.changes if c.kind == "reinforced"],
            "closed": [c.to_json() | {"turn": i, "evidence": e} for c, i, e in self.changes
                       if c.kind in ("closed", "retracted")],
            "notes": self.notes,
        }


# What one leaves by name ("I've left X", "quit X"): the one of these that holds X is what ended
_LEFT = ("works_at", "member_of", "studies_at")


class Learner:
    def __init__(self, graph: TemporalGraph, transcripts: TranscriptStore, extractor: ConversationExtractor,
                 *, clock: Callable[[], datetime] | None = None, episodes: Episodes | None = None,
                 reviser: Reviser | None = None) -> None:
        self.graph = graph
        self.transcripts = transcripts
        self.extractor = extractor
        self.resolver = Resolver(graph)
        self.clock = clock
        self.episodes = episodes
        self.reviser = reviser  # the model's check of older facts against what was said (None: rules only)

    def ingest(self, turns: Sequence[Turn], *, source: str) -> list[LearnResult]:
        """Store the turns, then learn from each conversation that got new turns, oldest first."""
        new = self.transcripts.add_turns(turns, source=source)
        seen: dict[str, datetime] = {}
        for t in new:
            seen.setdefault(t.conversation, t.at)
        results = [self.learn(cid) for cid, _ in sorted(seen.items(), key=lambda kv: kv[1])]
        for t in turns:
            if t.conversation not in seen:
                seen[t.conversation] = t.at
                if self.transcripts.unlearned(t.conversation):  # stored, but learning never finished
                    results.append(self.learn(t.conversation))
                    continue
                results.append(LearnResult(t.conversation, "none", skipped=True,
                                           notes=["already ingested; nothing changed"]))
        return results

    def learn_pending(self) -> list[LearnResult]:
        """Conversations stored but not (completely) learned — a crash, a kill, a shutdown mid-way.

        Replaying is safe: a fact already applied from the same turn is not counted again."""
        return [self.learn(cid) for cid in self.transcripts.pending_conversations()]

    def learn(self, conversation: str, *, check: bool = True) -> LearnResult:
        """Learn the turns not learned yet. ``check=False`` (a statement learned mid-conversation, the next question
        waiting on the one model server): the facts said are applied, but the model's check of older facts against
        the turns waits for a learning pass with ``check`` (the conversation's end), which checks every turn of a
        conversation learned so far without it."""
        conv = self.transcripts.conversation(conversation)
        pending = self.transcripts.unlearned(conversation)
        unchecked = conv is not None and conv.learn_status == SO_FAR and check and self.reviser is not None
        if conv is None or not (pending or unchecked):
            return LearnResult(conversation, "none", skipped=True)
        result = LearnResult(conversation, "none")
        told = any(t.speaker != "assistant" for t in pending)
        if told:
            extraction = self.extractor.extract(conv.turns)  # the whole conversation is context
            result.method, result.notes = extraction.method, list(extraction.notes)
            by_idx = {t.idx: t for t in conv.turns}
            facts = result.facts = to_apply(extraction.facts, conv.turns, pending)
            changes, notes = self._apply_unit(facts, by_idx)
            result.changes += changes
            result.notes += notes
            result.notes += self._merge_placeholders(changes, at=max(t.at for t in pending))
        if self.reviser is not None and check and (told or unchecked):
            result.changes += self._revise(conv.turns if unchecked else pending, result.notes)
        if self.episodes is not None:
            try:
                self._index_episodes(conv.turns, pending, result.changes)
            except MemoryStoreError as e:  # episodes can be rebuilt from the transcript; facts stand
                result.notes.append(f"could not index the turns as episodes: {e.message}")
        status = "learned" if not any("failed" in n for n in result.notes) else "learned_with_fallback"
        if self.reviser is not None and not check and (told or conv.learn_status == SO_FAR):
            status = SO_FAR  # the check of older facts is still to come
        self.transcripts.record_learning(conversation, pending, result.changes, at=conv.ended_at, status=status,
                                         note="; ".join(result.notes))
        return result

    def _merge_placeholders(self, changes: Sequence[tuple[Change, int, str]], *, at: datetime) -> list[str]:
        """Someone just told by name in a role the user spoke of before naming them ("Jess, my partner…" after "My
        partner's a paramedic"): the two are one now (memory/merges.py: merge_placeholders), each noted."""
        told = {n for c, _, _ in changes if c.kind == "added" and c.relation in KIN_CLASS
                for n in (c.subject, c.object)}  # either end: a partner may be stored from the user's side
        if not told:
            return []
        try:
            done = merge_placeholders(self.graph, sorted(told), now=at)
        except MemoryStoreError as e:  # the nightly merge tries again; the facts learned stand
            return [f"could not merge a role told before its name: {e.message}"]
        return [f"merged {m.loser} into {m.survivor}" for m in done]

    def relearn(self, conversation: str, extractor: ConversationExtractor, *, now: datetime) -> LearnResult:
        """Learn a learned conversation again with a slower, more thorough extractor (the nightly run).

        Only what it finds beyond what was learned counts: the same fact from the same words is not counted
        again (the replay guard), and only assertions are applied — ends and corrections are the rules' to
        decide, at once, and an old "no longer" applied months later could end a fact told again since.
        New facts go through the same belief update as any other (a past home told after the current one is
        history). What changed is recorded with the conversation, as "relearned"."""
        conv = self.transcripts.conversation(conversation)
        if conv is None or self.transcripts.unlearned(conversation):  # not learned yet: `learn` comes first
            return LearnResult(conversation, "none", skipped=True)
        extraction = extractor.extract(conv.turns)
        result = LearnResult(conversation, extraction.method, notes=list(extraction.notes))
        by_idx = {t.idx: t for t in conv.turns}
        facts = result.facts = [f for f in to_apply(extraction.facts, conv.turns, conv.turns) if f.op == "assert"]
        changes, notes = self._apply_unit(facts, by_idx)
        result.changes, result.notes = changes, result.notes + notes
        if self.episodes is not None and changes:
            try:
                said = {i for _, i, _ in changes}
                self._index_episodes(conv.turns, [t for t in conv.turns if t.idx in said], changes)
            except MemoryStoreError as e:
                result.notes.append(f"could not index the turns as episodes: {e.message}")
        if changes:
            self.transcripts.record_learning(conversation, (), changes, at=now, status="relearned",
                                             note="; ".join(result.notes))
        return result

    def _revise(self, pending: Sequence[Turn], notes: list[str]) -> list[tuple[Change, int, str]]:
        """Older facts that a turn of this conversation says have ended, closed at that turn (memory/revision.py).
        A model that is down or slow costs only this check: the facts learned stand."""
        assert self.reviser is not None
        said = [t for t in pending if t.speaker != "assistant"]
        if not said:
            return []
        before, latest = min(t.at for t in said), max(t.at for t in said)
        facts_of: dict[str, list[Arc]] = {}
        for who in {t.speaker for t in said}:
            e = self.graph.find_entity(USER if who == "user" else who)
            if e is not None:
                # theirs, read from either end of a symmetric relation ("Lena partner_of user" is the user's too)
                facts_of[who] = [a for a in self.graph.arcs_of_entity(e.id, now=latest) if a.subject_id == e.id
                                 or (a.object_id == e.id and a.relation in RELATIONS
                                     and RELATIONS[a.relation].symmetric)]
        changes: list[tuple[Change, int, str]] = []
        try:
            # a plan told in a turn says the state it will change still holds ("We move to Lancaster on the 18th")
            planned = {(a.subject_id, PLAN_CHANGES[a.relation], s) for arcs in facts_of.values() for a in arcs
                       if a.relation in PLAN_CHANGES for s in a.sources}
            for a, t in self.reviser.checks(facts_of, said, before=before):
                if (a.subject_id, a.relation, t.source_id) in planned:
                    continue  # the turn tells a change still to come ("We move to Lancaster on the 18th")
                if self.reviser.ends(a, t):
                    changes += [(c, t.idx, t.text) for c in self.graph.end_arcs(
                        [a], now=t.at, valid_to=t.at, source=t.source_id, reason="what was said later ends it")]
        except LLMError as e:
            notes.append(f"older facts not checked against this conversation: {e.message}")
        return changes

    def _apply_unit(self, facts: Sequence[ExtractedFact],
                    by_idx: dict[int, Turn]) -> tuple[list[tuple[Change, int, str]], list[str]]:
        """A conversation's facts are one unit: all of them reach the graph, or none do."""
        try:
            with self.graph.store.transaction():
                return self._apply_all(facts, by_idx, unit=True)
        except MemoryStoreError as e:  # the unit failed to commit: fact by fact (a replay counts none twice)
            changes, notes = self._apply_all(facts, by_idx)
            return changes, [f"applied fact by fact ({e.message})", *notes]

    def _apply_all(self, facts: Sequence[ExtractedFact], by_idx: dict[int, Turn], *,
                   unit: bool = False) -> tuple[list[tuple[Change, int, str]], list[str]]:
        changes: list[tuple[Change, int, str]] = []
        notes: list[str] = []
        for f in facts:
            try:
                changes += [(c, f.turn, f.evidence) for c in self.apply(f, by_idx[f.turn])]
            except QueryFailed:
                if unit:  # the engine failed mid-unit: the transaction may be unusable, redo fact by fact
                    raise
                notes.append(f"turn {f.turn}: skipped {f.subject} {f.relation} {f.object}: the store refused it")
            except MemoryStoreError as e:  # one bad fact never loses the rest of the conversation
                notes.append(f"turn {f.turn}: skipped {f.subject} {f.relation} {f.object}: {e.message}")
        return changes, notes

    def _index_episodes(self, turns: Sequence[Turn], pending: Sequence[Turn],
                        changes: Sequence[tuple[Change, int, str]] = ()) -> None:
        """Every turn an episode (any missing ones written now), each linked to the entities it names and to
        the ends of the facts learned from it (recall finds a found utterance's facts through these links).

        Named speakers become people in memory ("Caroline" can be asked about even before a fact about her
        is learned); names are linked against the entities known after this conversation's facts."""
        assert self.episodes is not None
        self.episodes.add(self.episodes.missing(turns))
        at = pending[-1].at if pending else turns[-1].at
        for who in sorted({t.speaker for t in pending if t.speaker not in ("user", "assistant")}):
            if self.graph.find_entity(who) is None:
                self.graph.upsert_entity(who, now=at, type="PERSON")
        linker = Linker(self.graph)
        mentions = {t.source_id: list(linker.link(t.text, fuzzy=False).ids) for t in pending
                    if t.speaker != "assistant"}
        source_of = {t.idx: t.source_id for t in pending}
        for c, idx, _ in changes:
            if idx not in source_of:
                continue
            for name in (c.subject, c.object):
                e = self.graph.find_entity(name)
                linked = mentions.setdefault(source_of[idx], [])
                if e is not None and not e.is_user and e.id not in linked:
                    linked.append(e.id)
        self.episodes.link(mentions)

    def apply(self, f: ExtractedFact, turn: Turn) -> list[Change]:
        """One belief update (ERASE, scoped to the subject and relation the fact names): the names said are
        resolved to entities in memory, then the graph decides by memory/belief.py's rules."""
        at = turn.at
        rel = relation(f.relation)
        subject = self.resolver.resolve(f.subject, at=at)
        obj = self.resolver.resolve(f.object, at=at) if f.object else ""
        if obj and obj.casefold() == subject.casefold():
            return []  # a guest's "Hi, I'm Tomasz" said by Tomasz: nothing of one to itself
        if f.op == "assert":
            when = dates_at(f.valid_from, f.valid_to, at)
            aliases = (f.extra or {}).get("aliases") or {}
            planned = (f.extra or {}).get("when") if (f.extra or {}).get("kind") == "plan" else None
            left_out = self._tastes_left_out(subject, obj, at, turn) if rel.name == "diet" and not planned else []
            ended = ENDS_OTHERS.get((rel.name, obj.casefold())) or ENDS_OTHERS.get((rel.name, ""))
            if not planned and ended:
                left_out += self._ended_by(subject, obj, ended, at, turn, since=when.valid_from)
            if rel.name in ENDS_HOLDING:
                left_out += self._held_no_more(subject, ENDS_HOLDING[rel.name], at, turn, since=when.valid_from)
            return left_out + self.graph.assert_fact(
                subject, rel.name, obj, now=at, source=turn.source_id, valid_from=when.valid_from,
                valid_to=when.valid_to, conversation=turn.conversation, confidence=f.confidence, label=f.label,
                subject_type=f.subject_type, object_type=f.object_type,
                subject_aliases=_aliases_for(aliases, f.subject, subject),
                object_aliases=_aliases_for(aliases, f.object, obj),
                planned_for=str(planned) if planned and grain_span(str(planned)) else None)
        subj = self.graph.find_entity(subject)
        if subj is None:
            return []
        # an end of a relation ends its narrower cases too ("we split up" ends a marriage): NARROWER
        names = (rel.name, *NARROWER.get(rel.name, ())) if f.op == "end" else (rel.name,)
        current = [a for r in names for a in self.graph.lookup(subj.id, r, None, at=at, now=at, limit=100)]
        other_end = [a for r in names for a in self.graph.lookup(None, r, subj.id, at=at, now=at, limit=100)
                     if a.subject_id != subj.id] if rel.symmetric else []
        # an end said by the last word of what is held: a taste ("gone off coffee" for "strong black coffee"), or
        # one held at a time ("given up nursing": the nurse of "district nurse"; "sold the Corsa": the Vauxhall
        # Corsa driven). Not a name of a place or a firm: "Clinic" is not the Juniper Clinic
        by_last_word = f.op == "end" and ((rel.decay == DecayClass.VOLATILE and not rel.event) or (
            rel.single_valued and (obj.islower() or rel.object_type == EntityType.THING)))
        targets = (self.resolver.match_in(obj, current, head=by_last_word)
                   + self.resolver.match_in(obj, other_end, reverse=True) if obj else current + other_end)
        if f.op == "end" and obj and not targets and rel.single_valued and rel.object_type == EntityType.THING:
            # one thing held at a time, said by its make ("Sold the Mini" of the Mini Cooper driven)
            said = obj.casefold().split()
            targets = [a for a in current if a.relation == rel.name and said == a.object.casefold().split()[:len(said)]]
        if f.op == "end" and obj and not targets and rel.name in _LEFT:
            # "I've quit The Rusty Nails" read as a job left: the band it names is what was left
            held = [a for r in _LEFT if r != rel.name for a in self.graph.lookup(subj.id, r, None, at=at, now=at)]
            targets = self.resolver.match_in(obj, held)
            named = [a for a in current if a.relation == rel.name and not a.object.islower()]
            if not targets and obj.islower() and len(named) == 1:
                # "Leah has left the bank" of the one place held by its name (Barclays): the kind says that one
                targets = named
        if f.op == "end":
            targets = self._with_told(subj.id, targets, at)
            targets += self._shared_with(subj.id, rel.name, obj, targets, at)
            return self.graph.end_arcs(targets, now=at, valid_to=dates_at(None, f.valid_to, at).valid_to,
                                       source=turn.source_id, reason="user said it ended")
        return self.graph.end_arcs(targets, now=at, retract=True, source=turn.source_id, reason="user took it back")

    def _shared_with(self, subject_id: str, relation_name: str, other: str, ending: list[Arc],
                     at: datetime) -> list[Arc]:
        """What ends with a couple's end between the same two (vocabulary.ENDS_SHARED: the home they share), whether
        or not the couple was held ("Kieran lives with Saoirse", then "Kieran and Saoirse have split up")."""
        shared = ENDS_SHARED.get(relation_name)
        if shared is None or not other:
            return []
        held = [*self.graph.lookup(subject_id, shared, None, at=at, now=at, limit=100),
                *self.graph.lookup(None, shared, subject_id, at=at, now=at, limit=100)]
        mine = [a for a in held if a.subject_id == subject_id]
        theirs = [a for a in held if a.subject_id != subject_id]
        ids = {a.id for a in ending}
        found = self.resolver.match_in(other, mine) + self.resolver.match_in(other, theirs, reverse=True)
        return list({a.id: a for a in found if a.id not in ids}.values())

    def _held_no_more(self, subject: str, relations: Sequence[str], at: datetime, turn: Turn, *,
                      since: datetime | None) -> list[Change]:
        """Whoever holds the subject by one of ``relations`` holds it no more (vocabulary.ENDS_HOLDING: a pet that
        died), from when the event was."""
        subj = self.graph.find_entity(subject)
        if subj is None:
            return []
        held = [a for r in relations for a in self.graph.lookup(None, r, subj.id, at=at, now=at, limit=100)]
        return self.graph.end_arcs(held, now=at, valid_to=since, source=turn.source_id, reason="user said it ended")

    def _ended_by(self, subject: str, value: str, relations: Sequence[str], at: datetime, turn: Turn, *,
                  since: datetime | None) -> list[Change]:
        """A value held that ends the subject's other relations (vocabulary.ENDS_OTHERS: retired ends works_at),
        from when it holds ("retired on Friday": that Friday)."""
        subj = self.graph.find_entity(subject)
        if subj is None:
            return []
        held = [a for r in relations for a in self.graph.lookup(subj.id, r, None, at=at, now=at, limit=100)
                if since is None or a.valid_from <= since]  # not a later one ("graduated in 2009": not this course)
        held = self._with_told(subj.id, held, at)
        return self.graph.end_arcs(held, now=at, valid_to=since, source=turn.source_id,
                                   reason=f"{value} now") if held else []

    def _with_told(self, subject_id: str, ending: list[Arc], at: datetime) -> list[Arc]:
        """The arcs that end, and what the same words told beside them that ends with them (vocabulary.
        ENDS_TOLD_WITH: the subject studied at a place whose studies end)."""
        told = {s for a in ending if a.relation in ENDS_TOLD_WITH for s in a.sources}
        if not told:
            return ending
        kept = {a.id for a in ending}
        return ending + [a for r in {r for a in ending for r in ENDS_TOLD_WITH.get(a.relation, ())}
                         for a in self.graph.lookup(subject_id, r, None, at=at, now=at, limit=100)
                         if told.intersection(a.sources) and a.id not in kept]

    def _tastes_left_out(self, subject: str, diet: str, at: datetime, turn: Turn) -> list[Change]:
        """A diet taken up ends the subject's tastes for the foods it leaves out ("Nothing beats a good steak",
        then "I've gone pescatarian": the steak is not eaten now). The table is memory.words.DIET_EXCLUDES."""
        subj = self.graph.find_entity(subject)
        if subj is None:
            return []
        diet = diet.lower()
        tastes = [a for a in self.graph.lookup(subj.id, "likes", None, at=at, now=at, limit=100)
                  if any(diet in DIET_EXCLUDES.get(w, ()) for w in _WORDS.findall(a.object.lower()))]
        if not tastes:
            return []
        return self.graph.end_arcs(tastes, now=at, source=turn.source_id, reason=f"a {diet} diet leaves it out")


def to_apply(facts: Sequence[ExtractedFact], turns: Sequence[Turn], pending: Sequence[Turn]) -> list[ExtractedFact]:
    """The plan of a learning pass: the facts of the turns not yet learned, said by a person (an assistant's
    words are context, never evidence), in the order they were said (memory/belief.py: order_key)."""
    by_idx = {t.idx: t for t in turns}
    todo = {t.idx for t in pending if t.speaker != "assistant"}
    keep = [f for f in facts if f.turn in todo and f.turn in by_idx]
    return sorted(keep, key=lambda f: order_key(by_idx[f.turn].at, f.turn, f.op))


def _aliases_for(aliases: dict[str, Any], said: str, canonical: str) -> list[str]:
    """Other names for the entity; role phrases ("my friend") are not names — kin arcs resolve those."""
    out = [str(a) for a in aliases.get(said, []) if isinstance(a, str)]
    if said and canonical and said != canonical and said != USER and canonical != USER:
        out.append(said)
    return [a for a in out if role_relation(a) is None and a.strip().lower() not in USER_KEYS]
