"""The composition root: the one place that reads config, the environment and the clock, and builds parts."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

from assistant.pipeline import Pipeline
from assistant.settings import ConfigError, Settings
from memory.decay import DecayModel
from memory.episodes import Episodes
from memory.errors import MemoryStoreError
from memory.graph import TemporalGraph
from memory.learning import ConversationExtractor, Extraction, GroundedExtractor, Learner, RulesExtractor
from memory.llm import LLM, LLMError, LLMUnavailable
from memory.model import Arc
from memory.recall.intent import Intent
from memory.recall.linking import Linked
from memory.recall.recall import Recaller
from memory.store import GraphStore
from memory.transcripts import TranscriptStore
from memory.vocabulary import DecayClass

log = logging.getLogger(__name__)


def default_data_dir(env: dict[str, str] | None = None) -> Path:
    env = dict(os.environ) if env is None else env
    if env.get("HEARTH_DATA_DIR"):
        return Path(env["HEARTH_DATA_DIR"]).expanduser()
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "hearth"


def default_cache_dir(env: dict[str, str] | None = None) -> Path:
    env = dict(os.environ) if env is None else env
    return Path(env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")).expanduser() / "hearth"


def resolve_data_dir(settings: Settings, cli_value: str | None) -> Path:
    if cli_value:
        path = Path(cli_value).expanduser()
    elif os.environ.get("HEARTH_DATA_DIR"):
        path = Path(os.environ["HEARTH_DATA_DIR"]).expanduser()
    elif settings.data_dir:
        path = Path(settings.data_dir).expanduser()
    else:
        path = default_data_dir()
    if path.exists() and not path.is_dir():
        raise ConfigError(f"the data dir {path} is a file, not a directory",
                          hint="pass --data-dir DIR (or set HEARTH_DATA_DIR) to a directory")
    return path


def utc_now() -> datetime:
    return datetime.now(UTC)


def decay_model(s: Settings) -> DecayModel:
    d, st = s.memory.decay, s.memory.strength
    return DecayModel(
        initial_strength=st.initial, increment=st.increment, max_strength=st.max,
        rates={DecayClass.STABLE: d.rates.stable, DecayClass.DURABLE: d.rates.durable,
               DecayClass.VOLATILE: d.rates.volatile},
        consolidation=d.consolidation, min_rate=d.min_rate,
    )


class Hearth:
    """Builds each part on first use; ``close()`` releases what was built."""

    def __init__(self, settings: Settings, data_dir: Path, *, clock: Callable[[], datetime] = utc_now) -> None:
        self.settings = settings
        self.data_dir = data_dir
        self.clock = clock
        self._closers: list[Callable[[], Any]] = []
        self._llm_error: LLMError | None = None

    def now(self) -> datetime:
        return self.clock()

    models_dir_override: Path | None = None

    @property
    def models_dir(self) -> Path:
        return self.models_dir_override or self.data_dir / "models"

    @property
    def logs_dir(self) -> Path:
        return self.data_dir / "logs"

    @cached_property
    def store(self) -> GraphStore:
        s = self.settings.store
        store: GraphStore
        if s.backend == "neo4j":
            from memory.neo4j_store import Neo4jStore

            store = Neo4jStore(s.uri, s.user, os.environ.get(s.password_env), database=s.database)
        else:
            from memory.kglite_store import KgliteStore

            self.data_dir.mkdir(parents=True, exist_ok=True)
            r = self.settings.recall
            store = KgliteStore(self.data_dir / s.path, durability=s.durability,
                                read_only_memory_mb=r.cypher_memory_mb,
                                read_only_max_work_units=r.cypher_max_work_units or None)
        self._closers.append(store.close)
        return store

    @cached_property
    def graph(self) -> TemporalGraph:
        g = TemporalGraph(self.store, decay_model(self.settings), user_name=self.settings.user.name)
        g.ensure_user(self.now())
        return g

    @cached_property
    def transcripts(self) -> TranscriptStore:
        store = TranscriptStore(self.data_dir / "transcripts.sqlite3")
        store.listeners.append(lambda turns: self.episodes.add(turns))  # every stored turn is an episode
        self._closers.append(store.close)
        return store

    @cached_property
    def episodes(self) -> Episodes:
        embedder = None
        if self.settings.recall.embeddings:
            from memory.embed import E5Embedder

            embedder = E5Embedder()
        return Episodes(self.graph, embedder)

    def backfill_episodes(self) -> int:
        """Turns stored before episodes existed (or while the graph was held elsewhere) become episodes; episodes
        indexed by an older stemmer get their search terms again."""
        self.episodes.reterm()
        if self.episodes.count() >= self.transcripts.turn_count():
            return 0
        return self.episodes.backfill(self.transcripts.search_turns())

    @cached_property
    def rules(self) -> Any:
        from memory.extraction.rules import RuleExtractor

        return RuleExtractor()

    def extractor(self, *, use_llm: bool | None = None, method: str | None = None) -> ConversationExtractor:
        rules = RulesExtractor(self.rules, known_name=self.graph.names_someone)
        if not (self.settings.extraction.use_llm if use_llm is None else use_llm):
            return rules
        if (method or self.settings.extraction.method) == "choose":
            from memory.extraction.choose import CandidateExtractor, ChoiceWithRules

            return ChoiceWithRules(_LazyExtractor(lambda: CandidateExtractor(
                self.llm, self.rules.nlp, known_predicates=self.graph.open_predicates)), rules)
        from memory.extraction.llm_extractor import LLMExtractor

        return GroundedExtractor(_LazyExtractor(lambda: LLMExtractor(self.llm, self.rules)), rules,
                                 entities=self.rules.entities)

    def relearning_extractor(self) -> ConversationExtractor | None:
        """The nightly, thorough pass: the model path that learning after each conversation did not run (with
        the default `grounded`, the model choosing among spaCy's spans one turn at a time), so the night adds
        what the fast path missed. None when learning uses the rules only."""
        if not self.settings.extraction.use_llm:
            return None
        return self.extractor(method="grounded" if self.settings.extraction.method == "choose" else "choose")

    def learner(self, *, use_llm: bool | None = None) -> Learner:
        """``use_llm=False``: no model at all (neither extraction nor the check of older facts)."""
        reviser = None
        if self.settings.extraction.check_changes and use_llm is not False:
            from memory.revision import Reviser

            reviser = Reviser(lambda: self.llm)
        return Learner(self.graph, self.transcripts, self.extractor(use_llm=use_llm), episodes=self.episodes,
                       reviser=reviser)

    @cached_property
    def pipeline(self) -> Pipeline:
        r = self.settings.recall
        cypher = None
        if r.generated_cypher != "off":
            from memory.recall.cypher_gen import CypherRecall

            cypher = _LazyCypher(lambda: CypherRecall(self.graph, self.llm, timeout_ms=r.cypher_timeout_ms,
                                                      row_limit=r.cypher_row_limit))
        recaller = Recaller(self.graph, hops=r.hops, limit=r.limit, alpha=r.alpha, cypher=cypher,
                            cypher_mode=r.generated_cypher, episodes=self.episodes, episode_limit=r.episodes,
                            summaries=r.summaries)
        try:
            self.backfill_episodes()
        except MemoryStoreError as e:  # recall still works on facts and what is found
            log.warning("could not index older turns as episodes: %s", e)
        return Pipeline(self.graph, recaller, lambda: self.llm, self.transcripts, episode_chars=r.episode_chars,
                        elsewhere_margin=r.elsewhere_margin, elsewhere_over_facts=r.elsewhere_over_facts,
                        tagger=lambda q: [t for sentence in self.rules.parse(q) for t in sentence])

    def bundled_model_status(self) -> str:
        from assistant.llm.weights import get_spec, is_verified

        spec = get_spec(self.settings.llm.bundled_model)
        for d in (self.models_dir, default_data_dir() / "models"):
            if is_verified(d / spec.filename, spec):
                return f"weights verified at {d / spec.filename}"
        return "weights not assembled yet (assembled from their packages on first use)"

    def ping_llm(self) -> float:
        import time

        t0 = time.perf_counter()
        self.llm.complete([{"role": "user", "content": "Say OK."}], max_tokens=2)
        return time.perf_counter() - t0

    @cached_property
    def llm(self) -> LLM:
        """Started on first use; a failure to start is remembered so later turns fail fast, not slowly."""
        if self._llm_error is not None:
            raise self._llm_error
        from assistant.llm import start_llm

        s = self.settings.llm
        key_env = s.key_env()
        key = os.environ.get(key_env) if key_env else None
        try:
            llm, closer = start_llm(
                s.provider, model_name=s.bundled_model, models_dir=self.models_dir, logs_dir=self.logs_dir,
                base_url=s.base_url or ("https://api.openai.com/v1" if s.provider == "openai" else None),
                model=s.model, api_key=key, timeout_s=s.timeout_s, retries=s.retries, threads=s.threads,
                ctx=s.context, keep_alive_s=s.keep_alive_s, start_timeout_s=s.start_timeout_s,
                run_dir=default_cache_dir() / "run", reuse_models_from=default_data_dir() / "models",
                client=s.client)
        except LLMError as e:
            self._llm_error = e
            raise
        except Exception as e:  # weights missing, server crashed on start, ...
            self._llm_error = LLMUnavailable(f"could not start the language model: {e}".splitlines()[0],
                                             hint="`assistant doctor --llm` shows what is wrong")
            raise self._llm_error from e
        self._closers.append(closer)
        return llm

    def close(self) -> None:
        while self._closers:
            fn = self._closers.pop()
            try:
                fn()
            except Exception:  # closing must not mask the error that got us here
                pass


class _LazyCypher:
    """Builds the Cypher stage (and so the LLM) only when a question actually needs it."""

    def __init__(self, build: Callable[[], Any]) -> None:
        self._build = build
        self._stage: Any = None

    def __call__(self, question: str, linked: Linked, intent: Intent,
                 now: datetime) -> tuple[list[Arc], list[str], list[str]]:
        try:
            if self._stage is None:
                self._stage = self._build()
            return self._stage(question, linked, intent, now)
        except LLMError as e:
            return [], [], [f"(no generated query: {e.message})"]


class _LazyExtractor:
    """Starts the LLM only when a conversation is actually learned from."""

    def __init__(self, build: Callable[[], Any]) -> None:
        self._build = build
        self._ex: Any = None

    def extract(self, turns: Any, **kw: Any) -> Extraction:
        if self._ex is None:
            self._ex = self._build()
        result: Extraction = self._ex.extract(turns, **kw)
        return result
