"""Deterministic recall (RecallM + RET-LLM): linked entities, partial-triplet lookups, history, λ-hop traversal."""

from __future__ import annotations

import calendar
import functools
import math
import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from memory.episodes import Episode, Episodes, of_someone_else, without_names
from memory.extraction.rules_lexicon import PETS
from memory.graph import TemporalGraph
from memory.model import USER_ID, Arc, spoken_day
from memory.names import new_name, normalize
from memory.periods import says_when, time_terms
from memory.recall.cypher_gen import RECORDS
from memory.recall.intent import NAME_ASKED, Intent, analyse, asks_why, names_someone_said, speaks_to
from memory.recall.linking import Linked, Linker
from memory.search import STOPWORDS, terms
from memory.summaries import summaries_for
from memory.summary_text import undated
from memory.timeutil import DAY
from memory.transcripts import turn_id
from memory.vocabulary import HOMES, SHARED_HOME, TRIPS, is_relation, relation
from memory.words import (
    BESIDES,
    FOR_A_WHILE,
    FORMER_ROLE,
    HELD_BESIDE,
    KIN_TITLES,
    MY,
    ROLE_KIND_OF,
    ROLE_RELATION_NAMES,
    ROLES,
    alternation,
    same_role,
)

SUMMARY_SEEDS = 6  # the first seeds looked up for a summary line: "my friends" may hold a dozen
_COUNTING = re.compile(r"\bhow (many|often)\b", re.I)
_WHO_IS = re.compile(r"^\s*(?i:who)(?:'s|\s+is|\s+was)\s+(?!(?i:my|your|our|the|a|an)\b)[A-Z]")  # "Who is Dev?"
_BESIDES = re.compile(rf"\b(?:{alternation(BESIDES)}|before|after)\b", re.I)  # "…before Lyon": other values


@dataclass
class RecallResult:
    question: str
    intent: Intent
    seeds: list[str]
    facts: list[Arc]  # chronological; closed facts carry their valid_to
    mode: str  # "now" | "history"
    notes: list[str] = field(default_factory=list)  # derived statements ("before Lyon: Valencia")
    cypher: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    targeted: int = 0  # how many facts came from lookups on the asked relation (not the neighbourhood)
    cypher_facts: int = 0  # how many the generated query found
    diagnostics: list[str] = field(default_factory=list)  # why a generated query was dropped, etc.
    episodes: list[Episode] = field(default_factory=list)  # what was said that bears on it, best first
    episodes_relevant: bool = False  # an utterance matched a topic word or the meaning closely
    personal: bool = False  # about the speaker or someone/something memory knows (not general knowledge)
    # the words found were set aside as naming only the topic of a general question (``only_the_topic``): of
    # someone of the user's life after all, they stand
    topic_only: bool = False
    summaries: list[str] = field(default_factory=list)  # one line each on the salient entities asked about
    # asked about someone who speaks in memory: the best words someone else said, and by how much the question
    # matches them better than anything the one asked about said (memory.episodes.attributed_elsewhere)
    elsewhere: Episode | None = None
    elsewhere_margin: float = 0.0
    prompted: Episode | None = None  # the asked person's words ``elsewhere`` replied to, on the topic asked
    asked: str = ""  # whose words were searched when the question is about someone who speaks in memory
    # asked for the one before now ("Where did I live before?"): the facts of the asked relation that hold now,
    # left out of ``facts`` (they are not the answer, and an answer that names one is wrong)
    held_now: list[Arc] = field(default_factory=list)
    # asked a relation about someone named, no fact holds it, and what was said only names them ("Where does
    # Pavel live?" — all there is: "my uncle Pavel plays the accordion"): nothing remembered answers it
    unsaid: bool = False
    # asked about a relative or friend by role ("Where does my sister live?") when no one holds that role, someone
    # else who is something to the user was found, and nothing said found mentions the role: the role word, so the
    # answer can say what it was never told
    role_unheld: str = ""
    # asked about now, and no fact of the asked relation holds: the ones of it that ended
    # ("What car do I drive?" after "Sold the Corsa"), newest first. Not in ``facts``: an ended fact among them
    # tempts the small model into saying it as current. Read when first asked for (``ended_facts``): the answer
    # needs them only on its way to the model, and recall stays as fast as before (~8 ms at p95 at 100k arcs)
    ended: list[Arc] | None = None
    ended_read: Callable[[], list[Arc]] | None = field(default=None, repr=False)

    def ended_facts(self) -> list[Arc]:
        if self.ended is None:
            self.ended = self.ended_read() if self.ended_read is not None else []
        return self.ended

    @property
    def found_anything(self) -> bool:
        return bool(self.facts or self.notes or self.episodes_relevant)

    @property
    def about_time(self) -> bool:
        """The question asks about time: facts and summary lines keep their dates (each costs prompt tokens)."""
        return self.intent.history or self.intent.when

    def statements(self, *, dates: bool | None = None) -> list[str]:
        """Facts as the LLM reads them; by default, start dates only when the question is about time."""
        dated = self.about_time if dates is None else dates
        return [a.statement(dates=dated) for a in self.facts] + self.notes

    def summary_lines(self, *, dates: bool | None = None) -> list[str]:
        """The entities' summary lines as the LLM reads them: their "since" dates only when asked about time."""
        dated = self.about_time if dates is None else dates
        return list(self.summaries) if dated else [undated(s) for s in self.summaries]


def _ended_by_now(arcs: list[Arc], now: datetime) -> list[Arc]:
    """Those that ended by ``now`` (not retracted, not a plan whose time passed), newest end first."""
    gone = [a for a in arcs if a.expired_at is None and a.valid_to is not None and a.valid_to <= now and not a.lapsed]
    return sorted(gone, key=lambda a: a.valid_to or now, reverse=True)


def fact_terms(a: Arc) -> set[str]:
    """A fact's index terms: its relation (or an open fact's label; a role's word as well as the relation) and
    both ends."""
    named = "" if a.relation == "related_to" else a.relation.replace("_", " ")
    return set(terms(f"{a.subject} {a.relation_words} {named} {a.object}"))


# A generated-Cypher stage plugs in here: (question, linked, now) -> (arcs, cypher strings, notes).
CypherStage = Callable[[str, Linked, Intent, datetime], tuple[list[Arc], list[str], list[str]]]


# a question after what held before the present one ("Where did I live before?", "What was my previous job?"); not
# before something named ("Where did Pavel live before Lyon?": the home now dates the one before it)
_BEFORE_NOW = re.compile(r"\b(?:before|previously|formerly)\W*$|\b(?:previous|used to)\b", re.I)
# words that ask what memory holds, whatever it is about ("What do you know about Canada?")
_ASKS_MEMORY = re.compile(r"\b(you|we)\b.*\b(know|remember|recall|told|tell|said|say|mention(ed)?|talk(ed)?)\b", re.I)


def only_the_topic(question: str, episodes: Sequence[Episode]) -> bool:
    """Asked who or what, the words found share with the question one run of two or more of its words only (a thing
    named: "Pride and Prejudice", "the solar system"), and the question asks more of it that none of them says ("who
    wrote", "the largest planet"): they speak of the topic, not of what is asked. Asked when, how long or what day
    ("When does half term start?", "How long was the power cut?"), the words that name the event hold its time; one
    word alone ("Miso", "the match") is someone's or something of memory's."""
    if not _WHO_OR_WHAT.match(question):
        return False
    said = {t for e in episodes for t in terms(e.text)}
    hits = "".join("1" if t in said else "0" for t in terms(question))
    run = hits.strip("0")
    # a doing in the run is something happening in someone's life, not a thing named ("What's the plumber coming
    # to fix?" after "The plumber's coming Thursday to sort that leak")
    doing = any(w.islower() and w.endswith("ing") and said & set(terms(w)) for w in re.findall(r"[\w'’]+", question))
    # nor is one named as whose it is, and named in the words ("What was the score in Róisín's final?" after
    # "Róisín's team won the county final"): someone's, not a thing known to all
    whose = any(said & set(terms(m.group(1))) for m in re.finditer(r"\b([A-Z][\w-]*)['’]s\b", question))
    # nor one the words name, asked its name ("What's the new cleaner called?" after "Marisol, the new cleaner,
    # starts on Thursday"): someone of the user's life
    named = bool(NAME_ASKED.search(question)) and _named_with(
        [t for t, hit in zip(terms(question), hits, strict=True) if hit == "1"], episodes)
    return len(run) >= 2 and run != hits and "0" not in run and not doing and not whose and not named


_CALENDAR_NAMES = frozenset(w.lower() for w in (*calendar.day_name, *calendar.month_name) if w)


def _named_with(run: Sequence[str], episodes: Sequence[Episode]) -> bool:
    """A sentence of the words says all of ``run`` (terms) and a name: a capitalised word, not "I" nor a day's or a
    month's, nor a common word opening the sentence ("The", "We")."""
    for e in episodes:
        for sentence in re.split(r"(?<=[.!?])\s+", e.text):
            if set(run) <= set(terms(sentence)) and any(
                    w != "I" and w.lower() not in _CALENDAR_NAMES and w.lower() not in STOPWORDS
                    for w in re.findall(r"\b[A-Z][a-z]+\b", sentence)):
                return True
    return False


def named_otherwise(question: str, episodes: Sequence[Episode]) -> bool:
    """The words found share with the question only a name of it, and say that name, every time, as part of a longer
    one: another thing ("What year did the Titanic sink?" after "Took the grandkids round Titanic Belfast": a museum;
    "Who founded Liverpool?" after "met him at Liverpool Street")."""
    asked = _name_runs(question, skip_first=True)
    if not asked or not episodes:
        return False
    said = {t for e in episodes for t in terms(e.text)}
    shared = said & set(terms(question))
    in_names = {t: run for run in asked for t in terms(" ".join(run))}
    if not shared or not shared <= in_names.keys():
        return False
    for t in shared:
        for e in episodes:
            for run in (part for whole in _name_runs(e.text) for part in _after_owners(whole)):
                if t in terms(" ".join(run)) and len(run) <= len(in_names[t]):
                    return False  # the name said as asked
    return True


def _after_owners(run: list[str]) -> list[list[str]]:
    """A run of names and the parts of it after each owner's name ("Astra's MOT": the MOT, the Astra's own)."""
    return [run, *(run[i + 1:] for i, w in enumerate(run[:-1]) if re.search(r"['’]s$", w))]


def _name_runs(text: str, *, skip_first: bool = False) -> list[list[str]]:
    """Runs of capitalised words ("Titanic Belfast", "Liverpool Street"); "I" is none."""
    runs: list[list[str]] = []
    words = re.findall(r"[\w'’-]+|[^\w\s]", text)
    run: list[str] = []
    for n, w in enumerate(words):
        if w[:1].isupper() and w != "I" and not (skip_first and n == 0):
            run.append(w)
            continue
        if run:
            runs.append(run)
        run = []
    return [*runs, run] if run else runs


REPLIER = "assistant"  # the speaker of the assistant's own replies in a conversation
SHORT_TURN_WORDS = 8  # a turn this short is often begun, not finished: the speaker's next turn goes on with it
_WORDS = re.compile(r"[\w'’-]+")
_WHO_OR_WHAT = re.compile(r"^\s*(?:who|what|which)\b(?!\s+(?:time|day|date|year|month|week)s?\b)", re.I)


@functools.cache
def _searcher() -> ThreadPoolExecutor:
    """One worker thread for the search of what was said (created on first use, shared by every recall)."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="hearth-search")


class Recaller:
    def __init__(self, graph: TemporalGraph, *, hops: int = 2, limit: int = 12, alpha: float = 0.3,
                 cypher: CypherStage | None = None, cypher_mode: str = "fallback",
                 episodes: Episodes | None = None, episode_limit: int = 6, summaries: int = 2) -> None:
        self.graph, self.hops, self.limit, self.alpha = graph, hops, limit, alpha
        self.linker = Linker(graph)
        self.cypher, self.cypher_mode = cypher, cypher_mode
        self.episodes, self.episode_limit = episodes, episode_limit
        self.summaries = summaries

    def _continued(self, episodes: list[Episode], asked: set[str], *, look: int = 3,
                   why: bool = False, when: bool = False) -> list[Episode]:
        """A short turn found among the best (a few words: "We've had to move Iceland.") with the speaker's next turn
        of the same conversation after it, where people go on with what they began: the why and the when ("Alasdair's
        mum had a fall… so it's the eighth of October now") that share no word with the question. Asked why, the
        best two turns bring theirs whatever their length ("we're leaving Brisbane for Toowoomba", then "Shaz has
        landed the deputy principal job up there"). Asked when, the best two that name no time bring a next turn that
        does ("Dad's getting married again! … engaged to Maureen", then "It's the registry office in Cork on the third
        of October"). Only a turn that says a word asked, not only its time ("It rained all day here." for "Which
        foods do I like these days?"), goes on."""
        if self.episodes is None:
            return episodes
        out = list(episodes)
        have = {e.id for e in episodes}
        for n, e in enumerate(episodes[:look]):
            goes_on = len(_WORDS.findall(e.text)) <= SHORT_TURN_WORDS or (why and n < 2)
            untimed = when and n < 2 and not says_when(e.text)  # its time may be in the next turn
            if not (goes_on or untimed) or not asked & set(terms(e.text)):
                continue
            after = self.episodes.by_ids([turn_id(e.conversation, e.turn + d) for d in (1, 2)])
            if after and after[0].speaker == REPLIER:  # the assistant's reply between: the speaker's turn after it
                after = after[1:]
            nxt = [x for x in after[:1] if x.speaker == e.speaker and x.turn <= e.turn + 2 and (
                goes_on or says_when(x.text))]
            if nxt and nxt[0].id not in have:
                have.add(nxt[0].id)
                out.insert(out.index(e) + 1, replace(nxt[0], score=e.score, matched="c"))
        return out

    def _renamed(self, episodes: list[Episode], now: datetime, *, look: int = 2) -> list[Episode]:
        """Asked what something is called: newer words that give a name said in the best utterances anew join them,
        after the best ("We've changed the quartet's name… the Tuesday Tenors was a lie — we're Close Harmony
        Crisis now" shares no word with "What's my singing group called?", only the old name)."""
        if self.episodes is None or not episodes:
            return episodes
        best = episodes[:look]
        names = {w for e in best for w in _WRITTEN_NAME.findall(e.text)}
        if not names:
            return episodes
        have, first = {e.id for e in episodes}, min(e.at for e in best)
        found = self.episodes.search(" ".join(sorted(names)), now=now, limit=4).episodes
        renamed = [e for e in found if e.id not in have and e.at > first and new_name(e.text) is not None
                   and names & set(_WRITTEN_NAME.findall(e.text))]
        return [*episodes[:1], *renamed[:1], *episodes[1:]]

    def warm_up(self) -> None:
        """Load what the first question would wait for: the linker's name index, the episodes' speakers and
        the embedding model."""
        self.linker.link("warm up")
        if self.episodes is not None:
            self.episodes.warm_up()

    def _ended(self, asked: Sequence[str], ids: Sequence[str], now: datetime) -> list[Arc]:
        """The ended facts of the asked relations, of these entities (newest end first): states, not events, and not
        tastes (a taste gone is no answer to what is liked)."""
        rels = [r for r in asked if is_relation(r) and not relation(r).event and relation(r).name not in (
            "likes", "dislikes")]
        return _ended_by_now([a for s in dict.fromkeys(ids) for r in rels for a in (
            self.graph.history_of(s, r, now=now) + (
                self.graph.history_to(s, r, now=now) if relation(r).symmetric else []))], now)  # "Dom lives_with User"

    def _roles_ended(self, intent: Intent, now: datetime) -> list[Arc]:
        """The ended arcs by which someone held an asked role toward the user (newest end first)."""
        return _ended_by_now([a for rel in intent.roles for a in (
            self.graph.history_to(USER_ID, rel, now=now) + (self.graph.history_of(USER_ID, rel, now=now) if (
                relation(rel).symmetric or relation(rel).name in ("reports_to", "has_pet")) else []))], now)

    def seeds(self, intent: Intent, linked: Linked, *, now: datetime,
              role_arcs: list[Arc] | None = None) -> list[str]:
        """Who the question is about; ``role_arcs``: the user's kinship arcs for ``intent.roles``, if read."""
        seeds: list[str] = []
        for a in self._roles(intent, now) if role_arcs is None else role_arcs:
            other = a.subject_id if a.object_id == USER_ID else a.object_id
            if other not in seeds and other != USER_ID and len(seeds) < self.limit:
                seeds.append(other)  # "my friends": the answer holds ``limit`` facts; each seed costs lookups
        seeds += [i for i in linked.ids if i not in seeds]
        if not seeds or (linked.first_person and not intent.roles and not linked.ids):
            seeds.append(USER_ID)
        return seeds

    def _roles(self, intent: Intent, now: datetime) -> list[Arc]:
        return [a for rel in intent.roles for a in self.graph.role_arcs(rel, at=now)]

    def recall(self, question: str, *, now: datetime, generate: bool = True) -> RecallResult:
        """What memory holds on ``question``. ``generate=False``: no query is generated (the words are something
        told, not asked: a generated query costs seconds of model time before the reply)."""
        t0 = time.perf_counter()
        intent = analyse(question)
        linked = self.linker.link(question)
        # the question's meaning is worked out on a thread (native code) while the graph is read below
        utterances = self.episodes if self.episode_limit else None
        meaning = utterances.meaning_soon(question, linked.names) if utterances is not None else None
        # and what was said is searched on another thread, beside the graph reads below (kglite runs reads side by
        # side with the GIL released: at 100k facts the search and a walk around the user take ~25 ms each)
        searching = _searcher().submit(
            utterances.search, question, now=now, limit=self.episode_limit, entities=linked.names, meaning=meaning,
            people={i for i, t in linked.types.items() if t == "PERSON"}) if utterances is not None else None
        t1 = time.perf_counter()
        role_arcs = self._roles(intent, now)
        seeds = self.seeds(intent, linked, now=now, role_arcs=role_arcs)
        mode = "history" if intent.history else "now"
        found: dict[str, tuple[float, Arc]] = {}

        def add(arcs: list[Arc], boost: float) -> None:
            for a in arcs:
                if a.expired_at is not None:
                    continue
                score = boost + self._score(a, now)
                if a.id not in found or found[a.id][0] < score:
                    found[a.id] = (score, a)

        def look(ids: list[str]) -> None:
            for rel in intent.relations:
                if mode == "history":
                    for s in ids:
                        add([a for a in self.graph.history_of(s, rel, now=now)], 10.0)
                elif rel in intent.roles and role_arcs:
                    # "who are my friends?": the role's own arcs answer it; the same relation around each friend
                    # finds their friends (at 100k arcs, 1,100 of them for 12 friends, every one in the prompt)
                    add([a for a in role_arcs if a.relation == rel], 10.0)
                else:  # one read for every seed (a role's holders are up to `limit` people)
                    add(self.graph.lookup_many(ids, rel, at=now), 10.0)
                    # the user is never a place or a car
                    ends = [s for s in ids if not (s == USER_ID and _never_a_person(rel))]
                    add(self.graph.lookup_many(ends, rel, incoming=True, at=now), 9.0)

        look(seeds)
        on_seeds = len(found)
        if linked.first_person and intent.relations and not intent.roles and USER_ID not in seeds:
            look([USER_ID])  # "do I have a dog?": "dog" links an entity, but the asked relation hangs off the user
        targeted = len(found)
        # the relation asked first (the most particular cue: "live with" before "live") holds nothing now
        primary = relation(intent.relations[0]).name if intent.relations and is_relation(intent.relations[0]) else ""
        primary_unheld = bool(primary) and not any(a.relation == primary for _, a in found.values())
        if targeted:  # what the things found are ("Mochi is a cat" beside "User has_pet Mochi", for "How many cats…"):
            # of the strongest found, as many as the answer holds (12 sisters' 400 tastes: 800 reads, none kept)
            strongest = sorted(found.values(), key=lambda x: -x[0])[: self.limit]
            things = list(dict.fromkeys(a.object_id for _, a in strongest if a.object_id != USER_ID))
            add(self.graph.lookup_many(things, "is_a", at=now), 5.0)
            # and whether they died ("Does Ewan still have his gecko?": `Pringle died_on 14 September`, two steps
            # from Ewan, was not found, and the model said "Yes.")
            add(self.graph.lookup_many(things, "died_on", at=now), 5.0)
        if intent.roles and targeted:  # "where does my friend work": say who the friend is, too
            about = {x for _, a in found.values() for x in (a.subject_id, a.object_id)}
            add([a for a in role_arcs if a.subject_id in about or a.object_id in about], 5.0)
        t2 = time.perf_counter()
        # The neighbourhood, unless the asked relation was found (context would only cost time). When what was
        # said answers a question that names no one and asks no relation ("who got engaged?"), the neighbourhood
        # is dropped below, so it is walked only after the search says so (around the user hub it was the
        # slowest stage of recall: ~90 ms at 100k arcs); otherwise it is walked first, while the question's
        # meaning is still being worked out.
        walk = not (intent.relations and on_seeds)
        named_or_found = bool(linked.ids or intent.roles or targeted)
        walked_ms = 0.0

        def neighbourhood() -> None:
            nonlocal walked_ms
            t = time.perf_counter()
            add(self.graph.around(seeds, at=now, hops=self.hops, limit=self.limit), 0.0)
            walked_ms = _ms(t, time.perf_counter())

        if walk and named_or_found:
            neighbourhood()
        t3 = time.perf_counter()
        hits = searching.result() if searching is not None else None
        t3a = time.perf_counter()
        said_answers = hits is not None and hits.relevant and not named_or_found
        if walk and not named_or_found and not said_answers:
            neighbourhood()
        t3b = time.perf_counter()
        result = RecallResult(question, intent, seeds, [], mode, targeted=targeted)
        if mode == "now" and not targeted and intent.roles and not role_arcs:  # "Who is my boyfriend?", after
            result.ended_read = lambda: self._roles_ended(intent, now)  # a split
        elif mode == "now" and primary_unheld:  # ("Who do I live with?" when the home is known, not the housemate)
            mine = linked.first_person and not intent.roles  # "What car do I drive?", not "…does my dad drive?"
            ids = [*seeds, *([USER_ID] if mine else [])]
            result.ended_read = lambda: self._ended(intent.relations[:1], ids, now)
        # asked a relation of life (a home, a job, a taste) about someone named in what was said, though no
        # fact made them an entity: personal too ("Who wrote Hamlet?" after "we saw Hamlet" stays general)
        # asked what a place or thing named in memory is, by no one's words ("What is the capital of Canada?" after
        # "I'm off to Canada in the spring"): general knowledge, the facts beside it, not "I don't know"
        a_thing = bool(linked.ids) and all(linked.types.get(i) not in (None, "PERSON") for i in linked.ids) and (
            intent.relations in ((), ("is_a",)) and not _ASKS_MEMORY.search(question))
        result.personal = bool(linked.first_person or (linked.ids and not a_thing) or intent.roles) or (
            bool(intent.relations) and not a_thing and hits is not None
            and names_someone_said(question, [e.text for e in hits.episodes]))
        if self.episodes is not None and hits is not None:
            # facts learned from the utterances found by words or names (their provenance)
            # (read for every utterance found: those found by meaning alone give no facts, but an ended fact
            # still marks their words as out of date, below)
            said_by = self.episodes.facts_from([e.id for e in hits.episodes], now=now)
            by_words = {e.id for e in hits.episodes if "t" in e.matched or "m" in e.matched}
            learned = [a for a in said_by if by_words.intersection(a.sources)]
            # Added only when the asked relation was not found as facts (else they are distractors: "who does
            # my brother work for?" answered with his friend's employer), and, asked about now, only those still
            # true (an ended one tempts the model: "you work at" a past job; it still marks old words, below).
            if not targeted:
                add([a for a in learned if mode == "history" or a.valid_to is None or a.valid_to > now], 6.0)
            episodes = hits.episodes
            if mode == "now":
                # words whose fact has since ended ("my sister lives in Naples", before she moved) are out of
                # date: the facts say what holds now, and the old words would only contradict them
                known = [*said_by, *(a for _, a in found.values())]
                ended: dict[str, datetime] = {}  # episode id -> when the last fact it gave ended
                asked_ended: set[str] = set()  # those whose ended fact is of an asked relation
                gave: set[str] = set()  # those that first told a fact since ended: not the words that ended it
                # asked where someone lives, whom they lived with is of the home too ("Josh still lives at home
                # with us", before "Josh has moved out": the old words said he lives at home)
                of_asked = set(intent.relations) | (SHARED_HOME if HOMES & set(intent.relations) else set())
                # (only of whom the question asks, when it asks of someone: "Dad lives on his own in Swansea since
                # Mum died" is out of date about Dad, who has moved, not about Mum)
                # (the user too, asked in the first person, and what is of a kind asked of: "How many rabbits do I
                # have?" is of the rabbits had)
                mine = linked.first_person and not intent.roles and all(
                    linked.types.get(i) != "PERSON" for i in linked.ids)
                about = {*seeds, *([USER_ID] if mine else []), *(
                    a.subject_id for a in known if a.relation == "is_a" and a.object_id in seeds)}
                for a in known:  # (a plan whose time passed has not been contradicted: its words stand)
                    if a.valid_to is not None and a.valid_to <= now and not a.lapsed and (
                            not about or a.subject_id in about or a.object_id in about):
                        for s in a.sources:
                            ended[s] = max(ended.get(s, a.valid_to), a.valid_to)
                            if a.relation in of_asked:
                                asked_ended.add(s)
                        gave.update(a.sources[:1])
                # words that also say something still true stand, unless what has ended is what was asked: what
                # still holds of them is in the facts, and the small model reads the old words over the facts' "until"
                # ("My sister lives in Naples and works at a bakery", asked where she works once she works
                # elsewhere; "We've got two cats, Mochi and Pudding", asked about the cats once Pudding died: "two
                # cats" was said, with "Pudding … until 27 November" among the facts)
                for a in known:
                    if a.valid_to is None:
                        for s in a.sources:
                            if s not in asked_ended:
                                ended.pop(s, None)  # it also says something still true
                # the words that ended it ("I've gone off sushi") were said when it ended: not out of date. (Not
                # the words that told it, though said as late: an end dated before it was told, "Pudding died last
                # week" of a cat told of today, is put at the telling.)
                episodes = [e for e in episodes if e.id not in ended or (e.id not in gave and e.at >= ended[e.id])]
            if primary in HOMES and mode == "now" and not targeted:
                # asked where someone lives and no home is known: words memory read as a trip only ("Back from
                # Lisbon last night, what a city") are no answer, and the small model gave the trip's place as the
                # home (the "Just got back from Peru" -> "You live in Peru")
                trips = {s for a in said_by if a.relation in TRIPS for s in a.sources}
                other = {s for a in said_by if a.relation not in TRIPS for s in a.sources}
                # and words of the same place that memory read nothing from ("Booked it! Ljubljana for my fortieth",
                # before "Home from Ljubljana") are of the trip too
                places = [set(terms(a.object)) for a in said_by if a.relation in TRIPS and terms(a.object)]
                episodes = [e for e in episodes if not (e.id in trips and e.id not in other) and not (
                    e.id not in other and any(p <= set(terms(e.text)) for p in places))]
            if targeted:
                # the asked relation was found as facts: words found by meaning alone that memory already read as
                # another relation only ("I live in Bristol" for "Where did I travel recently?") are a distractor,
                # and a small model takes them over the fact (the home town given for the trip)
                asked = set(intent.relations)
                other = {s for a in said_by if a.relation not in asked for s in a.sources}
                same = {s for a in said_by if a.relation in asked for s in a.sources}
                episodes = [e for e in episodes if not (e.matched == "v" and e.id in other and e.id not in same)]
            if linked.first_person and not intent.roles and not set(linked.ids) - {USER_ID} and not (
                    _PET_ASKED.search(question)):  # (whose pet the words speak of is read below, and said)
                # asked of the user alone: words that speak only of another of theirs are no answer ("Which team do
                # I support?" was answered "Leeds." from "My dad's a massive Leeds fan")
                episodes = [e for e in episodes if not of_someone_else(e.text)]
            result.episodes, result.episodes_relevant = episodes, hits.relevant and bool(episodes)
            if result.episodes_relevant and not result.personal and intent.relations in ((), ("is_a",)) and (
                    not _ASKS_MEMORY.search(question)) and (
                    only_the_topic(question, episodes) or named_otherwise(question, episodes)):
                # "Who wrote Pride and Prejudice?" after "Hugo's doing Pride and Prejudice for his GCSE": the words
                # name the book, and say nothing of what is asked of it
                result.episodes_relevant, result.topic_only = False, True
            if result.episodes_relevant:  # (what was found is judged as found; the turns that go on with it follow)
                result.episodes = self._continued(episodes, set(terms(question)) - time_terms(question),
                                                  why=asks_why(question), when=intent.when)
                if NAME_ASKED.search(question):
                    result.episodes = self._renamed(result.episodes, now)
            result.elsewhere, result.elsewhere_margin, result.asked = hits.elsewhere, hits.elsewhere_margin, hits.asked
            result.prompted = hits.prompted
        t4 = time.perf_counter()
        # generated Cypher: when asked to always, or when the asked relation was not found and no utterance
        # matched the question's words either (aggregations and odd phrasings; it costs seconds of model time)
        counting = bool(_COUNTING.search(question))  # "how many times…": an aggregation only a query answers
        run_cypher = generate and self.cypher is not None and (
            self.cypher_mode == "always" or (self.cypher_mode == "fallback" and targeted == 0 and (
                counting or (intent.relations and not result.episodes_relevant))))
        if run_cypher and self.cypher is not None:
            arcs, queries, notes = self.cypher(question, linked, intent, now)
            add(arcs, 8.0)
            records = [n.removeprefix(RECORDS) for n in notes if n.startswith(RECORDS)]
            result.notes += [f"Counted in memory: {r}" for r in records]
            result.cypher, result.cypher_facts = queries, len(arcs) + len(records)
            result.diagnostics = [n for n in notes if not n.startswith(RECORDS)]
        named = {i: n for i, n in linked.names.items() if i != USER_ID}
        if intent.relations and not result.targeted and not result.cypher_facts and result.episodes and named:
            result.unsaid = not self._speaks_to(question, list(named.values()), intent, result.episodes[:3])
        t5 = time.perf_counter()
        # who the named (or role-found) entities are, in a line each: only the salient ones have one
        result.summaries = summaries_for(self.graph, seeds[:SUMMARY_SEEDS], now=now, limit=self.summaries)
        t6 = time.perf_counter()
        if result.episodes_relevant and not (linked.ids or intent.roles or result.targeted):
            # what was said answers it; the user's general neighbourhood would only distract the model
            found = {k: v for k, v in found.items() if v[0] >= 5.0}
        elif result.episodes_relevant:
            # asked about a topic that what was said answers: a neighbourhood fact sharing none of its words
            # ("Maria likes freedom" for "when did Maria join a gym?") only costs prompt time and tempts the model
            names = {t for n in linked.names.values() for t in terms(n)}
            topic = set(terms(question)) - names
            if topic:
                found = {k: v for k, v in found.items() if v[0] >= 5.0 or topic & fact_terms(v[1])}
        if not intent.history and not _BESIDES.search(question):
            # facts found for the question (asked, learned from its words, queried) of which some name its topic
            # ("aerial yoga" for "What types of yoga has Maria practiced?"): the others of the same relation found
            # with them ("Maria practices camping") are not what was asked, and a small model lists them too. Other
            # relations stay: "Bea cousin_of User" answers "Who is coming to Rome with me?" beside the trip.
            people = {t for i, n in linked.names.items() if linked.types.get(i) == "PERSON" for t in terms(n)}
            topic = set(terms(question)) - people
            asked_for = {k for k, (s, _) in found.items() if s >= 6.0}
            naming = {k for k in asked_for if topic & set(terms(found[k][1].object))}
            kinds = {found[k][1].relation for k in naming}
            found = {k: v for k, v in found.items()
                     if k in naming or k not in asked_for or v[1].relation not in kinds}
        if intent.history and _BEFORE_NOW.search(question):
            # asked for the one before now ("Where did I work before?"): a fact of the asked relation still true is
            # not it; with none ended, the words said are the evidence (handed only the job held now, the model
            # said "A trainee electrician from 30 May 2026 until 21 November 2026", the day asked)
            held = {k for k, v in found.items() if v[1].relation in intent.relations and v[1].current
                    and is_relation(v[1].relation) and not relation(v[1].relation).event}
            # a state; "Have I been to Japan before?" keeps the visit
            if held and self.episodes is not None and not result.episodes_relevant and not any(
                    v[1].relation in intent.relations and not v[1].current for v in found.values()):
                # nothing ended and no words found: those the one held now was learned from often tell the one
                # before ("We left Leeds in March and we're settled in York now")
                told = self.episodes.by_ids([s for k in held for s in found[k][1].sources[:1]])
                result.episodes, result.episodes_relevant = told, bool(told)
            result.held_now = [found[k][1] for k in held]
            found = {k: v for k, v in found.items() if k not in held}
        ranked = sorted(found.values(), key=lambda x: -x[0])[: max(self.limit, targeted)]
        # "Who is Dev?": who they are to the user or to their people comes first ("Dev neighbour of User" before
        # "Dev works as paramedic"; the model answered "A paramedic." with the job first)
        who = _WHO_IS.match(question) is not None
        result.facts = sorted((a for _, a in ranked), key=lambda a: (
            not (who and a.relation in ROLE_RELATION_NAMES), a.valid_from, a.recorded_at))
        result.notes += self._before_after(question, result.facts)
        unheld = bool(intent.roles) and not role_arcs and not intent.history  # a role asked that no one holds
        if unheld and not set(intent.roles) <= HELD_BESIDE and (
                self._someone_else(result.facts, result.episodes if result.episodes_relevant else [], now,
                                   intent.roles)):
            # someone else who is something to the user was found (a brother, for "my sister"): what is known of
            # them would be said of the one asked about, unless what was said speaks of that one too
            result.role_unheld = _role_unmentioned(intent.role_words, result.episodes)
        elif unheld and result.episodes_relevant and (former := _only_former(intent.role_words, result.episodes)):
            # "Who is my husband?" with only "my ex-husband Gareth" ever said: the model said "Gareth is your husband"
            result.role_unheld = former
        elif (pet := _PET_ASKED.search(question)) and result.episodes_relevant and self._someone_elses_pet(
                pet.group(1), result.episodes, now):
            # "What's my dog called?" with only the neighbour's dog ever told of: "Neighbour's dog." was said
            result.role_unheld = _role_unmentioned([pet.group(1).lower()], result.episodes)
        result.timings_ms = {"link": _ms(t0, t1), "lookups": _ms(t1, t2), "traversal": round(walked_ms, 2),
                             "episodes": round(_ms(t3, t3a) + _ms(t3b, t4), 2), "cypher": _ms(t4, t5),
                             "summaries": _ms(t5, t6),
                             "total": _ms(t0, time.perf_counter())}
        return result

    def _someone_else(self, facts: Sequence[Arc], episodes: Sequence[Episode], now: datetime,
                      asked: Sequence[str] = ()) -> bool:
        """These facts, or these utterances by name or by another role of the speaker's ("my son has piano
        lessons", asked of a daughter), are about someone who is something else to the user (a brother, an uncle,
        a friend)."""
        about = {i for a in facts for i in (a.subject_id, a.object_id)} - {USER_ID}
        if not about and not episodes:
            return False
        if asked and any(not any(same_role(ROLES[w.lower()].relation, r) for r in asked) for e in episodes
                         for pair in _MY_ROLE.findall(e.text) for w in pair if w.lower() in ROLES):
            return True
        around = self.graph.neighbourhood([USER_ID], at=now, hops=1, limit=200)
        held = [a for a in around if a.relation in ROLE_RELATION_NAMES]
        if any({a.subject_id, a.object_id} & about for a in held):
            return True
        names = {n for a in held for n in (a.subject, a.object) if n and n[:1].isupper() and n.lower() != "user"}
        return any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", e.text) for n in names for e in episodes)

    def _someone_elses_pet(self, pet: str, episodes: Sequence[Episode], now: datetime) -> bool:
        """What was said speaks of someone else's ``pet`` ("my neighbour's dog", "her cat") and memory holds no
        pet of the user's."""
        theirs = re.compile(rf"\b(?:\w+['’]s|his|her|their)\s+(?:\w+\s+)?{re.escape(pet)}s?\b", re.I)
        if not any(theirs.search(e.text) for e in episodes):
            return False
        return not any(a.relation == "has_pet" and a.subject_id == USER_ID
                       for a in self.graph.neighbourhood([USER_ID], at=now, hops=1, limit=200))

    def _speaks_to(self, question: str, names: list[str], intent: Intent, episodes: list[Episode]) -> bool:
        """Whether any of these utterances bears on what is asked, beyond naming who: a cue word of the asked
        relation or a topic word (``intent.speaks_to``), or, failing words, close in meaning to the question
        with the names taken out (e5 cosine at the episode search's closeness bar)."""
        if any(speaks_to(e.text, question, intent.relations) for e in episodes):
            return True
        if self.episodes is None or self.episodes.embedder is None:
            return True  # no way to tell: leave it to the answer
        embedder, bar = self.episodes.embedder, self.episodes.min_similarity
        try:
            q = embedder.query(without_names(question, names))
            return any(_cosine(q, v) >= bar for v in embedder.passages([e.text for e in episodes]))
        except Exception:  # a broken model never costs the answer: leave it to the model
            return True

    def _score(self, a: Arc, now: datetime) -> float:
        """Decayed strength plus α·recency (RecallM's ranking), squashed to 0..1 each."""
        w = a.weight if a.weight is not None else 0.0
        age_days = max(0.0, (now - a.last_reinforced).total_seconds() / DAY)
        return (1 - math.exp(-w)) + self.alpha * math.exp(-age_days / 30.0)

    @staticmethod
    def _before_after(question: str, facts: list[Arc]) -> list[str]:
        """'Where did Pavel live before Lyon?': name the value that came right before (or after) the one asked."""
        m = re.search(r"\b(before|after)\s+(.+?)[?.!]*$", question.strip(), re.I)
        if not m:
            return []
        which, target = m.group(1).lower(), normalize(m.group(2))
        notes = []
        chains: dict[tuple[str, str], list[Arc]] = {}
        for a in facts:
            chains.setdefault((a.subject_id, a.relation), []).append(a)
        for chain in chains.values():
            chain.sort(key=lambda a: a.valid_from)
            for i, a in enumerate(chain):
                if normalize(a.object) != target:
                    continue
                j = i - 1 if which == "before" else i + 1
                if 0 <= j < len(chain):
                    b = chain[j]
                    notes.append(f"{which.capitalize()} {a.object}, {b.subject} {b.relation.replace('_', ' ')} "
                                 f"{b.object} (from {spoken_day(b.valid_from)}"
                                 + (f" until {spoken_day(b.valid_to)})" if b.valid_to else ", still true)"))
        return notes


def _cosine(a: Any, b: Any) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def _never_a_person(rel: str) -> bool:
    from memory.vocabulary import EntityType, relation

    kind = relation(rel).object_type
    return kind is not None and kind != EntityType.PERSON


def _ms(a: float, b: float) -> float:
    return round((b - a) * 1000, 2)


def facts_json(result: RecallResult, *, sources: Callable[[str], Any] | None = None) -> list[dict[str, Any]]:
    """The facts block of `assistant ask --json`."""
    from memory.timeutil import iso

    return [{"subject": a.subject, "relation": a.relation, "object": a.object, "valid_from": iso(a.valid_from),
             "valid_to": iso(a.valid_to), "weight": None if a.weight is None else round(a.weight, 4),
             "sources": [sources(s) if sources else s for s in a.sources]} for a in result.facts]


_PET_ASKED = re.compile(rf"\b(?:my|our)\s+(?:\w+\s+)?({alternation(PETS)})s?\b", re.I)  # "my dog", "our cats"


def _only_former(words: Sequence[str], episodes: Sequence[Episode]) -> str:
    """The first role word of one held for a while ("husband", "manager") that these utterances say only as what
    someone was ("my ex-husband Gareth", "my old manager Deborah"), or ""."""
    for w in words:
        if w not in ROLES or ROLES[w].relation not in FOR_A_WHILE:
            continue
        before = re.compile(rf"\b(?:my|our)\s+(?:(\w+)(?:\s+|-))?{re.escape(w)}s?\b", re.I)
        said = [m.group(1) for e in episodes for m in before.finditer(e.text)]
        if said and all(m is not None and m.lower() in FORMER_ROLE for m in said):
            return w
    return ""


# "my son", "our little girl"; not one of a role's own ("my brother's little boy" may be the nephew asked about)
_MY_ROLE = re.compile(rf"\b(?:{alternation(MY)})\s+(\w+)\b(?!['’])(?:\s+(\w+)\b(?!['’]))?", re.I)


# a word written with a capital that is no sentence's first ("the Tuesday Tenors", "named her Salty Sue")
_WRITTEN_NAME = re.compile(r"(?<=[\w,;'’\"] )(?!I\b)[A-Z][\w'’-]+")


def _role_unmentioned(words: Sequence[str], episodes: Sequence[Episode]) -> str:
    """The first role word ("sister") that none of these utterances says as the speaker's ("my sister", "our
    kids"; not "my brother has three kids"; a parent called by the role as by a name, "Mum's moved in with us"), or
    "" when one says each."""
    for w in words:
        if not any(_role_said(v, e.text) for v in _said_as(w) for e in episodes):
            return w
    return ""


def _said_as(role: str) -> list[str]:
    """The role words that say someone of a role: itself, and, for a role of kinds, each kind's ("my parents" are
    said as "Mum and Dad", "my kids" as "my son")."""
    relation = ROLES[role].relation if role in ROLES else ""
    return [role, *(w for w, r in ROLES.items() if w != role and relation and ROLE_KIND_OF.get(r.relation) == relation)]


def _role_said(role: str, text: str) -> bool:
    """The words say someone of the role as the speaker's: "my sister", "our kids", or a parent called by the role as
    by a name ("Mum's moved in with us")."""
    if re.search(rf"\b(my|our)\s+(\w+\s+)?{re.escape(role)}(s|es|ren)?\b", text, re.I):
        return True
    # one spoken of said to be of the kind ("Juno's been over the fence again. She's a husky")
    if re.search(rf"\b(?:she|he|it)(?:['’]s|\s+is|\s+was)\s+an?\s+(?:\w+\s+)?{re.escape(role)}\b", text, re.I):
        return True
    return role in KIN_TITLES and re.search(rf"\b{re.escape(role.capitalize())}\b", text) is not None
