"""Episodes: every utterance, as a node in the graph, found again by words, meaning and the entities it names.

An episode is one turn (any speaker): text, speaker, time, conversation, turn number. Its id is the turn's
source id (``conversation#idx``), the same id facts list in their ``sources`` — so a fact links to the
episodes it came from, and an episode found by search brings the facts learned from it (Graphiti's
episodes, RecallM's raw context). Search is hybrid: the graph store's full-text index over stemmed terms
(BM25) and its vector index over sentence embeddings, fused by reciprocal rank with the episodes that
mention the entities a question names.
"""

from __future__ import annotations

import functools
import logging
import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memory import queries as Q
from memory.embed import Embedder
from memory.errors import MemoryStoreError
from memory.extraction.rules_lexicon import KIND_OF_PET, PETS, SOFT
from memory.graph import TemporalGraph
from memory.model import USER_ID, Arc
from memory.periods import Period, asked_period, time_terms, within
from memory.search import TERMS_VERSION, query_terms, relative_fusion, terms, terms_text
from memory.timeutil import from_epoch, iso, to_epoch
from memory.transcripts import Turn, turn_id
from memory.words import (
    AUXILIARIES,
    FIRST_PERSON,
    FIRST_PERSON_RE,
    MY,
    PAST_FORMS,
    POSSESSIVES,
    ROLES,
    SECOND_PERSON_RE,
    WH_WORDS,
    news_told,
    told_as,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Episode:
    id: str
    conversation: str
    turn: int
    speaker: str
    text: str
    at: datetime
    score: float = 0.0
    matched: str = ""  # which searches found it: "t" text, "v" vector, "m" mentions

    @classmethod
    def from_row(cls, row: dict[str, Any], score: float = 0.0, matched: str = "") -> Episode:
        at = from_epoch(row.get("at"))
        assert at is not None
        return cls(str(row["id"]), str(row.get("conversation") or ""), int(row.get("turn") or 0),
                   str(row.get("speaker") or ""), str(row.get("text") or ""), at, score, matched)

    def to_json(self) -> dict[str, Any]:
        return {"speaker": self.speaker, "at": iso(self.at), "text": self.text, "conversation": self.conversation}


@dataclass
class EpisodeSearch:
    episodes: list[Episode]
    relevant: bool  # something matched a topic word of the question, or its meaning closely
    timings_ms: dict[str, float]
    # asked about someone who speaks here: how much better the question matches someone else's words than
    # theirs (``elsewhere_margin``; 0 when not asked about a speaker), and the best of those other words
    elsewhere: Episode | None = None
    elsewhere_margin: float = 0.0
    asked: str = ""  # the speaker the question is about, when attribution applied
    # the asked person's turn that ``elsewhere`` replied to, when it told what the reply took up ("Congrats on
    # your degree!" after "I finished my degree"): the topic is theirs after all, and this turn is its evidence
    prompted: Episode | None = None


class Episodes:
    """Writes and searches episodes in the graph store; the embedder is optional (text search still works)."""

    def __init__(self, graph: TemporalGraph, embedder: Embedder | None = None, *, min_similarity: float = 0.8,
                 pool: int = 30, text_weight: float = 1.0, vector_weight: float = 0.6) -> None:
        self.graph, self.embedder = graph, embedder
        self._backend = graph.store.backend  # where vectors live differs (memory/queries.py: VECTORS)
        # words are the sharper signal for a 4-bit small embedding model; meaning catches paraphrases
        self.text_weight, self.vector_weight = text_weight, vector_weight
        self.speaker_bonus = 1.0  # the words of the one asked about rank above anyone else's
        # a question about someone who speaks: only their own words, or words that name them, are evidence
        self.attribution = True
        self.min_similarity = min_similarity  # e5 cosine: unrelated sentences sit around 0.70–0.76
        self._speakers: set[str] | None = None  # who has spoken (read once, then kept up to date by add)
        self.pool = pool
        self.period_weight = 1.0  # words about the period a question names ("last weekend") rank up by this

    # -- writing ----------------------------------------------------------------------------------
    def add(self, turns: Sequence[Turn], *, mentions: dict[str, list[str]] | None = None) -> int:
        """Write the turns as episodes (idempotent: the id is the turn's source id). Returns how many."""
        turns = [t for t in turns if t.text.strip()]
        if not turns:
            return 0
        rows = [{"id": t.source_id, "conversation": t.conversation, "turn": t.idx, "speaker": t.speaker,
                 "text": t.text, "terms": terms_text(t.text), "at": to_epoch(t.at)} for t in turns]
        with self.graph.store.transaction() as tx:
            t_index = self.graph._tick(tx)
            tx.run(Q.UPSERT_EPISODES, {"rows": rows, "t": t_index})
            if mentions:
                tx.run(Q.LINK_MENTIONS, {"rows": [{"id": k, "entities": v} for k, v in mentions.items() if v]})
        self.graph.store.refresh_indexes()  # kglite: a backfill of 1000+ turns would leave text search stale
        if self._speakers is not None:
            self._speakers |= {t.speaker for t in turns}
        self.embed([(t.source_id, t.text) for t in turns])
        return len(rows)

    def embed(self, items: Sequence[tuple[str, str]]) -> int:
        """Store vectors for (episode id, text); an embedder failure leaves them for the next backfill."""
        if self.embedder is None or not items:
            return 0
        try:
            vectors = self.embedder.passages([text for _, text in items])
        except Exception as e:  # the model is optional for correctness: text search still finds them
            log.warning("embedding %d episodes failed: %s", len(items), e)
            return 0
        rows = [{"id": i, "embedding": v} for (i, _), v in zip(items, vectors, strict=True)]
        with self.graph.store.transaction() as tx:
            tx.run(Q.VECTORS[self._backend]["set"], {"rows": rows})
        return len(rows)

    def link(self, mentions: dict[str, list[str]]) -> None:
        """(episode id -> entity ids it names) as MENTIONS arcs."""
        rows = [{"id": k, "entities": v} for k, v in mentions.items() if v]
        if rows:
            with self.graph.store.transaction() as tx:
                tx.run(Q.LINK_MENTIONS, {"rows": rows})

    def missing(self, turns: Iterable[Turn]) -> list[Turn]:
        """Turns that have no episode yet (written before episodes existed, or while the graph was away)."""
        have = {r["id"] for r in self.graph.store.read(Q.EPISODE_IDS)}
        return [t for t in turns if t.source_id not in have]

    def backfill(self, turns: Iterable[Turn], *, batch: int = 64) -> int:
        """Episodes for stored turns that lack one, and vectors for episodes that lack one."""
        todo = self.missing(turns)
        for i in range(0, len(todo), batch):
            self.add(todo[i:i + batch])
        if self.embedder is not None:
            rows = self.graph.store.read(Q.VECTORS[self._backend]["missing"])
            for i in range(0, len(rows), batch):
                self.embed([(r["id"], r["text"]) for r in rows[i:i + batch]])
        return len(todo)

    def reterm(self, *, batch: int = 500) -> int:
        """Every episode's terms worked out again when the memory's were made by an older stemmer
        (``memory.search.TERMS_VERSION``): a query is stemmed by today's, and would miss words that the two stem
        differently ("made" once stood for "make" but not for "makes"). Returns how many episodes were redone."""
        rows = self.graph.store.read(Q.TERMS_VERSION)
        if rows and rows[0]["v"] == TERMS_VERSION:
            return 0
        todo = self.graph.store.read(Q.EPISODE_TEXTS)
        if todo:
            log.info("working out the search terms of %d episodes again (the stemmer changed)", len(todo))
        for i in range(0, len(todo), batch):
            with self.graph.store.transaction() as tx:
                tx.run(Q.SET_EPISODE_TERMS, {"rows": [{"id": r["id"], "terms": terms_text(str(r["text"]))}
                                                      for r in todo[i:i + batch]]})
        with self.graph.store.transaction() as tx:
            tx.run(Q.SET_TERMS_VERSION, {"v": TERMS_VERSION})
        if todo:
            self.graph.store.refresh_indexes()
        return len(todo)

    # -- reading ----------------------------------------------------------------------------------
    def of_conversation(self, conversation: str) -> list[Episode]:
        return [Episode.from_row(r) for r in self.graph.store.read(Q.EPISODES_OF_CONVERSATION,
                                                                   {"conversation": conversation})]

    def around(self, episode: Episode) -> list[Episode]:
        """The turns just before and after ``episode`` in its conversation (those that exist): what it replies
        to and what answers it, which say what it is about when it does not ("Coconut milk ice cream is at the
        top of my list", after "What's your favourite dish from the show?")."""
        return self.by_ids([turn_id(episode.conversation, episode.turn + d) for d in (-1, 1)])

    def by_ids(self, ids: Sequence[str]) -> list[Episode]:
        """These episodes (those that exist), in the order asked."""
        rows = {str(r["id"]): r for r in self.graph.store.read(Q.EPISODES_BY_IDS, {"ids": list(ids)})} if ids else {}
        return [Episode.from_row(rows[i]) for i in dict.fromkeys(ids) if i in rows]

    def speakers(self) -> set[str]:
        """Everyone who has said something here (the user, guests, the people of an imported conversation)."""
        if self._speakers is None:
            self._speakers = {str(r["speaker"]) for r in self.graph.store.read(Q.EPISODE_SPEAKERS)}
        return self._speakers

    def warm_up(self) -> None:
        """What the first search would otherwise pay: who speaks here (a scan of every episode: ~0.2 s at 100k)
        and the embedding model's load. A failure here only leaves that work to the first search (which copes)."""
        try:
            self.speakers()
            if self.embedder is not None:
                self.embedder.query("warm up")
        except Exception as e:  # a broken model or store never stops the assistant from starting
            log.warning("episode warm-up failed: %s", e)

    def count(self) -> int:
        rows = self.graph.store.read(Q.COUNT_EPISODES)
        return int(rows[0]["n"]) if rows else 0

    def meaning_soon(self, question: str, entities: Mapping[str, str] | None = None) -> Future[list[float]] | None:
        """Start working out the question's embedding on the background thread (~15–20 ms of native code that lets
        go of the GIL), so the caller's graph reads run meanwhile; ``search(meaning=...)`` takes it. Without the
        names of people who speak here (theirs greet them: "Hey Gina!"), with the names of people only talked
        about (the words that mention them are the ones wanted). None without an embedder."""
        if self.embedder is None:
            return None
        return _background().submit(self.embedder.query, without_names(question, self._speaking(entities)))

    def _speaking(self, entities: Mapping[str, str] | None) -> list[str]:
        """The names among ``entities`` (but the user) of people who speak in memory."""
        named = [n for i, n in (entities or {}).items() if i != USER_ID]
        return [n for n in named if n in self.speakers()] if named else []

    def search(self, question: str, *, now: datetime, limit: int = 8, entities: Mapping[str, str] | None = None,
               meaning: Future[list[float]] | None = None, people: Collection[str] = ()) -> EpisodeSearch:
        """The utterances most related to ``question`` said up to ``now``, best first (assistant turns never).

        ``entities``: the entities the question names (id -> name). Their names leave the word query (a name
        matches every greeting of that person; the topic words are what select) and instead rank up the
        utterances they said or that name them — graph distance as a reranker, as Graphiti does. Only people's names
        leave it (``people``: the ids of those known as persons, and anyone who speaks): a place or thing a fact
        made an entity ("Jon visited Paris", "…attended fair") is the topic."""
        import time

        t0 = time.perf_counter()
        epoch = to_epoch(now)
        named = {i: n for i, n in (entities or {}).items() if i != USER_ID}
        speaking = self._speaking(entities)
        persons = [*speaking, *(n for i, n in named.items() if i in people)]
        name_terms = {t for n in persons for t in query_terms(n).split()}
        arms: list[dict[str, float]] = []
        weights: list[float] = []
        matched: dict[str, str] = {}
        text: dict[str, float] = {}
        vector: dict[str, float] = {}
        relevant = False
        # the question's embedding is worked out while the text index is searched (or was started by the caller)
        pending = meaning if meaning is not None else self.meaning_soon(question, entities)
        # (a kind of pet is told as "pets" too: "Do I have a dog?" of "We don't have any pets"; and by its breeds
        # and young: "What's our dog called?" of "Mabel's had three teeth out… Daft lurcher.")
        words = set(re.findall(r"[a-z]+", question.lower()))
        said_as = told_as(question) + [
            "pets" for x in words if x in PETS] + [breed for breed, kind in KIND_OF_PET.items() if kind in words]
        q = " ".join(t for t in query_terms(" ".join([question, *said_as])).split() if t not in name_terms)
        asked = asked_period(question, now)
        timely = time_terms(question)
        on_topic = " ".join(t for t in q.split() if t not in timely)
        if asked is not None and on_topic:  # the period is searched by date: the words search the topic only
            q = on_topic
        if q:
            try:
                rows = self.graph.store.read(Q.SEARCH_EPISODES_TEXT, {
                    "query": q, "now": epoch, "limit": self.pool, "pre": self.pool * 4})
            except MemoryStoreError as e:
                log.warning("episode text search failed: %s", e)
                rows = []
            text = {r["id"]: float(r["score"]) for r in rows}
            arms.append(text)
            weights.append(self.text_weight)
            relevant = relevant or bool(rows)
            for r in rows:
                matched[r["id"]] = matched.get(r["id"], "") + "t"
        t1 = time.perf_counter()
        if pending is not None:
            try:
                qvec = pending.result()
                rows = self.graph.store.read(Q.VECTORS[self._backend]["search"], {
                    "vector": qvec, "k": self.pool * 2, "now": epoch, "limit": self.pool})
            except Exception as e:  # a broken model or index never costs the answer
                log.warning("episode vector search failed: %s", e)
                rows = []
            close = {r["id"] for r in rows if float(r["score"]) >= self.min_similarity}
            relevant = relevant or bool(close)
            vector = {r["id"]: float(r["score"]) for r in rows}
            arms.append(vector)
            weights.append(self.vector_weight)
            for r in rows:
                if r["id"] in close:
                    matched[r["id"]] = matched.get(r["id"], "") + "v"
        t2 = time.perf_counter()
        if named and not q:  # "tell me about Karl": no topic words, so what names Karl, newest first
            rows = self.graph.store.read(Q.EPISODES_MENTIONING, {"ids": list(named), "now": epoch,
                                                                 "limit": self.pool})
            arms.append({r["id"]: 1.0 / (1 + i) for i, r in enumerate(rows)})  # newest first
            weights.append(0.5)
            for r in rows:
                matched[r["id"]] = matched.get(r["id"], "") + "m"
        read: dict[str, dict[str, Any]] = {}  # episode rows read so far, by id: each is read once
        if asked is not None:  # "What did I do last weekend?": the words about that weekend, wherever said
            # the words about it, and those said in it of another time (news told that day, a plan for later)
            inside, then = self._about_period(*asked, now, read)
            if inside or then:
                arms.append(dict.fromkeys([*inside, *then], 1.0))
                weights.append(self.period_weight)
            for i in inside:
                matched[i] = matched.get(i, "") + "d"
        fused = relative_fusion(arms, weights)
        replied = self._replies(fused, matched, set(q.split()), limit, read)
        elsewhere: tuple[str, float] | None = None
        prompted: dict[str, Any] | None = None
        own: set[str] = set()
        if named and fused:
            about = self.graph.store.read(Q.EPISODES_ABOUT, {"ids": list(fused), "names": list(named.values()),
                                                              "entities": list(named)})
            for r in about:  # said by the one asked about, or naming them: a step closer to the question
                # only saying their name to them ("Thanks, Jon!") is talking to them, not about them
                r["named"] = r["named"] and not all(addressed(str(r.get("text") or ""), n) for n in named.values())
                bonus = self.speaker_bonus if r["spoke"] else self.speaker_bonus / 2 if r["named"] else 0.0
                if bonus:
                    fused[r["id"]] += bonus
                    if r["id"] in matched and "m" not in matched[r["id"]]:
                        matched[r["id"]] += "m"
            if self.attribution and any(r["spoke"] for r in about):
                # the one asked about speaks here: what someone else said of themselves is not about them
                own = {r["id"] for r in about if r["spoke"]}
                elsewhere = attributed_elsewhere(own, text, vector)
                kept = {r["id"] for r in about if r["spoke"] or r["named"]}
                kept |= {q for r, q in replied.items() if r in kept}  # a question they answered: its context
                fused = {i: fused[i] for i in kept}
        # a vector neighbour that is not close in meaning, and matched nothing else, is noise
        ranked = [i for i in sorted(fused, key=lambda i: (-fused[i], i)) if matched.get(i)]
        if any("d" in matched[i] for i in ranked) and not on_topic:
            # asked about a period and nothing else ("What did I do last weekend?"), with words about it found:
            # words about another time only mislead (the weekend before, listed first in time order). A question
            # with a topic keeps them: the period only ranks up (an event told later without its date is still
            # evidence: "Why did Maria sit with the girl at the February event?")
            ranked = [i for i in ranked if "d" in matched[i]]
        best = ranked[:limit + 2]
        others = _others(own, text, vector)[:ELSEWHERE_READ] if elsewhere is not None else []
        mine = _ranked(own & {*text, *vector}, text, vector)[:ELSEWHERE_READ] if elsewhere is not None else []
        rows = self._read([*best, *others, *mine], read)  # one read for all three
        # the question itself (stored as a turn before it is answered) is not evidence for its answer, nor
        # someone else's words it would match better than anything
        said = " ".join(question.lower().split())
        by_id = {r["id"]: r for r in rows if " ".join(str(r["text"]).lower().split()) != said}
        if elsewhere is not None:
            # Someone else's words are only evidence that the asked person did not say it when they are not the
            # question itself, nor a question to them ("When are you opening the studio?" is answered by the
            # asked person's next turn, not said by the asker).
            # Nor are words on the topic said *to* the asked person ("Congrats on finishing your degree!"): in a
            # talk between two, those are about them. Their own words to the other on it ("Which team did you
            # sign with?", "Do you have a favourite movie?") are likewise none of theirs.
            topic = set(q.split())  # the question's terms without the names asked about
            told = {i for i in others if i in by_id and not asks(str(by_id[i]["text"]), topic)
                    and not to_listener(str(by_id[i]["text"]), topic)}
            heard = {i for i in mine if i in by_id and to_listener(str(by_id[i]["text"]), topic)}
            keep = told | {i for i in {*text, *vector} if i not in others}  # beyond the read: scored as before
            keep = {i for i in keep | own if i not in heard}
            elsewhere = attributed_elsewhere(own, {i: v for i, v in text.items() if i in keep},
                                             {i: v for i, v in vector.items() if i in keep})
            if elsewhere is not None and elsewhere[0] not in told:
                elsewhere = None  # every candidate read was a question or the question itself
            prompted = self._prompted_by(by_id[elsewhere[0]], speaking, topic, read) if elsewhere else None
        # what the user asked the assistant tells nothing (its reply, the assistant's, is never evidence)
        best = [i for i in best if i in by_id and not (by_id[i]["speaker"] == USER_ID and only_asks(
            str(by_id[i]["text"])))][:limit]
        relevant = bool(best)  # every one kept matched words, meaning closely, or names
        found = [Episode.from_row(by_id[i], round(fused[i], 5), matched.get(i, "")) for i in best if i in by_id]
        other = Episode.from_row(by_id[elsewhere[0]]) if elsewhere is not None and elsewhere[0] in by_id else None
        t3 = time.perf_counter()
        return EpisodeSearch(found, relevant, {"text": _ms(t0, t1), "vector": _ms(t1, t2), "fuse": _ms(t2, t3)},
                             other, elsewhere[1] if other is not None and elsewhere else 0.0,
                             speaking[0] if other is not None and speaking else "",
                             Episode.from_row(prompted, matched="r") if other is not None and prompted else None)

    def _about_period(self, period: Period, said: Period, now: datetime,
                      read: dict[str, dict[str, Any]]) -> tuple[list[str], list[str]]:
        """The episodes about ``period`` among those said in ``said`` (at most ``pool`` × 5, the first): said in
        it and naming no other time, or naming a time in it ("on Saturday", said the Monday after); and, apart,
        those said in it that name another time ("I joined a gym last week", told on the day asked about: "What
        news did Maria share on 16 June?" asks what was said that day)."""
        try:
            rows = self.graph.store.read(Q.EPISODES_SAID_BETWEEN, {
                "start": to_epoch(said[0]), "end": to_epoch(said[1]), "now": to_epoch(now),
                "limit": self.pool * 5})
        except MemoryStoreError as e:
            log.warning("episode search by date failed: %s", e)
            return [], []
        about, then = [], []
        for r in rows:
            read[r["id"]] = r
            at = from_epoch(r.get("at"))
            if at is None:
                continue
            if within(str(r.get("text") or ""), at, period):
                about.append(str(r["id"]))
            elif period[0] <= at < period[1]:
                then.append(str(r["id"]))
        return about, then

    def _read(self, ids: Sequence[str], read: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
        """The rows of these episodes (those that exist), reading only the ones not in ``read`` yet."""
        missing = [i for i in dict.fromkeys(ids) if i not in read]
        if missing:
            read.update({r["id"]: r for r in self.graph.store.read(Q.EPISODES_BY_IDS, {"ids": missing})})
        return [read[i] for i in dict.fromkeys(ids) if i in read]

    def _prompted_by(self, reply: Mapping[str, Any], speakers: Sequence[str], topic: set[str],
                     read: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
        """The turn just before ``reply`` when one of ``speakers`` said it and it told (not asked) something of
        ``topic`` that ``reply`` took up (a topic term both share), of their own: not words to the listener about
        the listener's things ("…all the amazing times you've had with basketball. How did you get into the
        game?" makes the reply's basketball no more theirs); else None."""
        before = self._read([turn_id(reply['conversation'], int(reply['turn']) - 1)], read)
        if not before or before[0]["speaker"] not in speakers:
            return None
        text = str(before[0]["text"])
        shared = topic & set(terms(text)) & set(terms(str(reply["text"])))
        return before[0] if shared and not asks(text, topic) and not to_listener(text, topic) else None

    def _replies(self, fused: dict[str, float], matched: dict[str, str], topic: set[str], limit: int,
                 read: dict[str, dict[str, Any]]) -> dict[str, str]:
        """A question found on the topic ("When are you opening the studio?") brings the turn that answers it
        (the next one, by someone else), ranked just below it: the answer often shares no word with what was
        asked ("Around six months from now"), and without it the question alone only says the topic came up.
        Returns reply id -> question id."""
        top = [i for i in sorted(fused, key=lambda i: (-fused[i], i)) if matched.get(i)][:limit]
        if not topic or not top:
            return {}
        # the turn after each one found, read at once: the reply to a question, or the listener's question back
        after = {turn_id(r['conversation'], int(r['turn']) + 1): r for r in self._read(top, read)}
        replied: dict[str, str] = {}
        followed: dict[str, dict[str, Any]] = {}
        for r in self._read(list(after), read):
            said = after[r["id"]]
            if r["speaker"] in (said["speaker"], "assistant"):
                continue
            if asks(str(said["text"]), topic):
                if not matched.get(r["id"]):
                    fused[r["id"]] = max(fused.get(r["id"], 0.0), fused[said["id"]] - 1e-4)
                    matched[r["id"]] = "r"  # the reply to a question that matched
                    replied[r["id"]] = str(said["id"])
            elif "?" in str(r["text"]):
                # something told on the topic that the listener asks more about ("I got promoted at work!"
                # "Congrats! How did you feel?") goes on in the teller's next turn, which may share no word with
                # the question ("now that I'm an assistant manager"): that turn is brought too, just below it
                followed[turn_id(r['conversation'], int(r['turn']) + 1)] = said
        for r in self._read([i for i in followed if not matched.get(i)], read):
            teller = followed[r["id"]]
            if r["speaker"] == teller["speaker"]:
                fused[r["id"]] = max(fused.get(r["id"], 0.0), fused[teller["id"]] - 2e-4)
                matched[r["id"]] = "r"
        return replied

    def facts_from(self, episode_ids: Sequence[str], *, now: datetime) -> list[Arc]:
        """Facts learned from these episodes (their provenance), still believed at ``now``."""
        return self.graph.arcs_from_sources(episode_ids, now=now)


@functools.cache
def _background() -> ThreadPoolExecutor:
    """One worker thread for the question's embedding (created on first use, shared by every search)."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="hearth-embed")


def without_names(question: str, names: Iterable[str]) -> str:
    """The question with the names it asks about taken out ("What did Ann's sister bake?" -> "What did sister
    bake?"): a name is near every greeting of that person in meaning, so it would pull the embedding search
    towards "Hi Ann!" rather than the topic."""
    out = question
    for name in names:
        for part in name.split():
            out = re.sub(rf"\b{re.escape(part)}(?:'s|s')?\b", " ", out, flags=re.I)
    return " ".join(out.split())


# Words said to someone before or after their name ("Hey Jon!", "Thanks, Gina.", "Congrats Nate on the win!")
_TO_THEM = ("hey hi hello hiya heya yo thanks thank thx ty congrats congratulations cheers wow whoa woah oh ooh "
            "aw aww awww ah yes yeah yep yup no nope sorry dear ok okay great nice cool awesome amazing bye "
            "morning evening night afternoon haha lol omg welcome")
_ADDRESS_BEFORE = re.compile(rf"(?:^|[.!?…,;:—-]|\b(?:{'|'.join(_TO_THEM.split())}))\s*,?\s*$", re.I)
_ADDRESS_AFTER = re.compile(r"^\s*(?:[.!?…,;:—-]|$)")


def addressed(text: str, name: str) -> bool:
    """Every time ``name`` is said in ``text`` it is said to them — set off like an address ("Hey Jon!",
    "Thanks, Gina.", "That's great, Nate!", "Jon, you did it!"), not about them ("Jon's studio opened"). In a
    talk between two people each one's words name the other all the time; that makes them no evidence of
    what the other did. False when the name is not said at all."""
    parts = [p for p in name.split() if p] or [name]
    found = False
    for part in parts:
        for m in re.finditer(rf"\b{re.escape(part)}\b", text, re.I):
            found = True
            before, after = text[: m.start()], text[m.end():]
            greeted = bool(re.search(rf"\b(?:{'|'.join(_TO_THEM.split())})\s*,?\s*$", before, re.I))
            if not (greeted or (_ADDRESS_BEFORE.search(before) and _ADDRESS_AFTER.match(after))):
                return False
    return found


_LEAD_INS = frozenset(_TO_THEM.split())  # "Wow, finally finished it!", "Yeah, got the job"

ELSEWHERE_READ = 5  # the best other speakers' episodes read to check that they are not questions


def _ranked(ids: Iterable[str], text: Mapping[str, float], vector: Mapping[str, float]) -> list[str]:
    """``ids`` best first, in the order ``attributed_elsewhere`` picks its top: meaning, then words."""
    return sorted(ids, key=lambda i: (-vector.get(i, 0.0), -text.get(i, 0.0), i))


def _others(own: set[str], text: Mapping[str, float], vector: Mapping[str, float]) -> list[str]:
    """Episodes found that are not the asked person's, best first."""
    return _ranked({*text, *vector} - own, text, vector)


_SENTENCE = re.compile(r"[^.!?…]+[.!?…]*")


def _on_topic(text: str, topic: set[str]) -> list[str]:
    """The sentences of ``text`` sharing the most terms (memory.search.terms) with ``topic``; none when no
    sentence shares one."""
    shared = [(len(topic & set(terms(s))), s.strip()) for s in _SENTENCE.findall(text)]
    most = max((n for n, _ in shared), default=0)
    return [s for n, s in shared if n == most] if most else []


def only_asks(text: str) -> bool:
    """Every sentence of ``text`` is a question, from its first word ("Where does Kemal live?", "Do I own a car?";
    not "Rex is limping, should I worry?", which tells something first, nor "Did you hear Tom got engaged?")."""
    said = [s.strip() for s in _SENTENCE.findall(text) if s.strip()]
    return bool(said) and all(s.endswith("?") and s.split()[0].lower().split("'")[0].split("’")[0] in _ASKING
                              and not news_told(s) for s in said)  # not "Did I tell you Hugo got engaged?"


_ASKING = frozenset(WH_WORDS) | frozenset(AUXILIARIES)  # the words a question opens with


def asks(text: str, topic: set[str]) -> bool:
    """What ``text`` says of ``topic`` is asked, not told: the sentences sharing the most terms with it end with
    "?" ("Wow! When are you opening the studio? Can't wait to see the studio.")."""
    said = _on_topic(text, topic)
    return bool(said) and all(s.endswith("?") for s in said)


def to_listener(text: str, topic: set[str]) -> bool:
    """What ``text`` says of ``topic`` is about the one spoken to: the sentences sharing the most terms with it
    have no first-person word, and either one of them says "you" ("That's so cool of your teammates!") or the
    whole turn does and never says "I" ("Congrats! That's great news about the internship. So proud of you.").
    False when no sentence shares a term."""
    said = _on_topic(text, topic)
    return _unowned(said, topic) and _said_to_you(text, said)


def about_listener(text: str, topic: set[str]) -> bool:
    """What ``text`` says of ``topic`` belongs to the one spoken to: asked of them ("Cool! What position are you
    playing for the team?") or told to them (``to_listener``), with no first-person word in those sentences (a
    "?" after "I" is doubt or a rhetorical question: "…try kayaking and maybe bungee jumping?" is the speaker's
    own). A speaker's words of this kind say nothing of the speaker."""
    said = _on_topic(text, topic)
    return _unowned(said, topic) and (all(s.endswith("?") for s in said) or _said_to_you(text, said))


def _unowned(said: Sequence[str], topic: set[str]) -> bool:
    """Sentences on a topic were found, and none of them says "I", aloud or by leaving it out, of it: "I hope I
    can hear you play the violin some day" says "I", but the violin is the listener's (``_yours``)."""
    return bool(said) and not any((FIRST_PERSON_RE.search(s) or opens_without_i(s)) and not _yours(s, topic)
                                  for s in said)


_PERSON_WORD = re.compile(rf"{FIRST_PERSON_RE.pattern}|{SECOND_PERSON_RE.pattern}", re.I)
# what follows a "you" that is an object ("send you the video", "show you how", "give you a hand"), not the one doing
# what comes next ("hear you play the violin", "you're great at it")
_AFTER_OBJECT_YOU = POSSESSIVES | frozenset(WH_WORDS) | frozenset(
    "a an the this that these those some any all both every each it them me us him i for to with about on in at "
    "from of by guys so too and or again back up out more much very".split())


def _yours(sentence: str, topic: set[str]) -> bool:
    """Each time a word of ``topic`` is said in ``sentence``, the nearest person word before it is the listener's
    and reaches it: "your" a word or two before ("I love your violin"), or a "you" that does what follows ("I hope
    I can hear you play the violin", "I bet you're great at chess"); not a "you" that is given or told something
    ("I'll send you the violin video", "Thank you for the violin tips"), nor one of another clause ("I took your
    recommendation and watched the trilogy")."""
    words = list(_WORD.finditer(sentence))
    at = [k for k, m in enumerate(words) if (t := terms(m.group(0))) and t[0] in topic]
    return bool(at) and all(_listeners_at(sentence, words, k) for k in at)


def _listeners_at(sentence: str, words: Sequence[re.Match[str]], at: int) -> bool:
    for k in range(at - 1, -1, -1):
        word = words[k].group(0).lower()
        if not _PERSON_WORD.fullmatch(word):
            continue
        if FIRST_PERSON_RE.fullmatch(word):
            return False
        if _CLAUSE_BREAK.search(sentence[words[k].end():words[at].start()]):
            return False
        if word in ("you", "u", "ya"):
            before = words[k - 1].group(0).lower() if k else ""
            after = words[k + 1].group(0).lower() if k + 1 < len(words) else ""
            return before != "thank" and after not in _AFTER_OBJECT_YOU and at - k <= 5
        return at - k <= 3  # "your" owns its own noun phrase only
    return False


# what ends the reach of a person word: "I took your recommendation and watched the trilogy" (she watched it)
_CLAUSE_BREAK = re.compile(r"[,;:—–]|\b(?:and|but|so|then|because)\b", re.I)


_WORD = re.compile(r"[A-Za-z]+")


def opens_without_i(sentence: str) -> bool:
    """Chat English drops the "I" before a past form ("Just started doing aerial yoga, it's great.", "Been busy
    at the shelter", "Finally finished my degree!"): the sentence is the speaker's own. Not when it says "you"
    ("Loved your photos!", "Excited for you!" are about the one spoken to), nor a question."""
    if sentence.rstrip().endswith("?"):
        return False
    # a denial opening the sentence, its "I" left out ("Couldn't uproot the kids, and once you take the move into
    # account…": the "you" of a later clause is anyone's)
    first = _CLAUSE.split(sentence, maxsplit=1)[0]
    if _DENIAL_OPENS.match(sentence) and not SECOND_PERSON_RE.search(first):
        return True
    if SECOND_PERSON_RE.search(sentence):
        return False
    words = [w.lower() for w in _WORD.findall(sentence)]
    for k, word in enumerate(words[:4]):
        if word in SOFT or word in _LEAD_INS:
            continue
        # "Planning a trip there next month.", "Loving the new job!": an "I'm" left out, the verb's object or
        # place after it; not a gerund that is the subject of a verb after it ("Exploring new places can be fun"),
        # nor an adjective before its noun ("Exciting news!")
        progressive = (word.endswith("ing") and not word.endswith("thing") and k + 1 < len(words)
                       and words[k + 1] in _OPENS_AN_OBJECT
                       and not any(w in AUXILIARIES or w in _BE for w in words[k + 1:]))
        return progressive or word in PAST_FORMS or word == "been" or (
            len(word) > 4 and word.endswith("ed") and not word.endswith("eed"))
    return False


_DENIAL_OPENS = re.compile(r"^\W*(?:(?:just|really|honestly|still|so)\s+)?(?:could|can|did|do|would|should|have|had|"
                           r"wo|ca)n['’]?t\s+(?!you\b|he\b|she\b|it\b|they\b|we\b|i\b)[a-z]", re.I)
_CLAUSE = re.compile(r"[,;:]|\s(?:and|but|so|because|once|when|if)\s", re.I)
# besides AUXILIARIES: "be", and what is left of a contracted verb ("it's", "we're", "I'll", "can't")
_BE = frozenset({"be", "s", "re", "m", "ll", "d", "ca", "wo", "t"})
_OPENS_AN_OBJECT = frozenset("a an the my our some this that these those his her their it them him to on at with for "
                             "in into out up off around back over".split())


def of_someone_else(text: str) -> bool:
    """Words in which the speaker is only the owner of another person: each first-person word is "my" or "our"
    before one of their people ("My dad's a massive Leeds fan, he's had a season ticket for thirty years", "Our
    kids love Cornwall"); not the speaker's own ("My dad and I go to Leeds games", "My team is Leeds")."""
    if opens_without_i(text):  # "Got tickets to see Coldplay with my sister": the speaker's own, "I" left out
        return False
    found = list(_OWN_WORD.finditer(text))
    words = [m.group(0).lower() for m in found]
    # "I", "my", and their contractions ("we're", "I’ve"): the first-person table, read before the apostrophe
    mine = [k for k, w in enumerate(words) if re.split(r"['’]", w)[0] in FIRST_PERSON]
    return bool(mine) and all(words[k] in MY and any(_role_word(w) for w in words[k + 1 : k + 3]) and (
        # as the one who does it, opening a clause: not "… went with my sister", "… for my dad"
        k == 0 or words[k - 1] in _OPENS or bool(_CLAUSE_END.search(text[found[k - 1].end() : found[k].start()])))
        for k in mine)


def _role_word(word: str) -> bool:
    """A word for one of someone's people, said alone or many ("dad's", "kids", "children")."""
    w = re.sub(r"['’]s$", "", word)
    return any(x in ROLES for x in (w, w.removesuffix("s"), w.removesuffix("ren"), w.removesuffix("es")))


_OWN_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_OPENS = frozenset({"and", "but", "so", "because", "while", "when", "since", "though", "although"})
_CLAUSE_END = re.compile(r"[,.;:!?—–]")


def _said_to_you(text: str, said: Sequence[str]) -> bool:
    """One of the sentences on the topic says "you", or the whole turn does and never says "I"."""
    return any(SECOND_PERSON_RE.search(s) for s in said) or (
        bool(SECOND_PERSON_RE.search(text)) and not FIRST_PERSON_RE.search(text))


def attributed_elsewhere(own: set[str], text: Mapping[str, float],
                         vector: Mapping[str, float]) -> tuple[str, float] | None:
    """How much better the question matches words the asked-about person did not say (nor was named in) than
    theirs: ``(best other episode id, margin)``, or None when no one else's words were found.

    The margin adds the embedding arm's lead (cosine, ×10) and the text arm's (log ratio of BM25 scores, +1
    smoothed). An arm's best for a side that the search pool missed is taken as the pool's lowest score: a
    lower bound, so the margin errs towards the asked person. A question that puts one person's words in
    another's mouth ("what did Ann learn from…" when Ben said it) scores high: LoCoMo's adversarial questions.
    """
    others = [i for i in {*text, *vector} if i not in own]
    if not others:
        return None

    def best(arm: Mapping[str, float], ids: Iterable[str]) -> float:
        return max((arm[i] for i in ids if i in arm), default=min(arm.values(), default=0.0))

    mine = [i for i in {*text, *vector} if i in own]
    margin = 10 * (best(vector, others) - best(vector, mine)) if vector else 0.0
    if text:
        margin += math.log((best(text, others) + 1) / (best(text, mine) + 1))
    top = _others(own, text, vector)[0]
    return top, round(margin, 4)


def _ms(a: float, b: float) -> float:
    return round((b - a) * 1000, 2)
