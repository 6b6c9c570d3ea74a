"""The small interfaces between audio stages, plus the plain data they exchange."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

SAMPLE_RATE = 16_000
"""Every source, VAD, wake detector and transcriber in this package works at 16 kHz mono int16."""

FRAME_SAMPLES = 512
"""Default frame: 512 samples = 32 ms at 16 kHz (what Silero VAD consumes)."""

Pcm = npt.NDArray[np.int16]
"""Mono signed 16-bit samples."""


@dataclass(frozen=True)
class Segment:
    """A piece of a transcript with times in seconds from the start of the audio."""

    start: float
    end: float
    text: str


@dataclass(frozen=True)
class Transcript:
    """What a Transcriber heard: text plus timing (audio length and compute time)."""

    text: str
    audio_s: float
    elapsed_s: float
    segments: tuple[Segment, ...] = ()
    no_speech_prob: float = 0.0
    avg_logprob: float = 0.0

    @property
    def real_time_factor(self) -> float:
        """Compute seconds per audio second (< 1 is faster than real time)."""
        return self.elapsed_s / self.audio_s if self.audio_s > 0 else 0.0


@dataclass(frozen=True)
class SpeechChunk:
    """Synthesized audio for one sentence."""

    pcm: Pcm
    sample_rate: int
    text: str = ""

    @property
    def duration_s(self) -> float:
        return len(self.pcm) / self.sample_rate


@dataclass(frozen=True)
class WakeEvent:
    """A wake detection at stream time ``at`` (seconds of audio since the source started)."""

    name: str
    at: float
    score: float = 1.0


@dataclass(frozen=True)
class DeviceInfo:
    """One audio device as reported by the host audio API."""

    index: int
    name: str
    max_input_channels: int
    max_output_channels: int
    default_samplerate: float
    hostapi: str = ""
    is_default_input: bool = False
    is_default_output: bool = False
    extra: dict[str, object] = field(default_factory=dict)


@runtime_checkable
class AudioSource(Protocol):
    """Yields 16 kHz mono int16 frames of exactly ``frame_samples`` samples until the input ends."""

    @property
    def sample_rate(self) -> int: ...

    @property
    def frame_samples(self) -> int: ...

    def frames(self) -> Iterator[Pcm]: ...

    def close(self) -> None: ...


@runtime_checkable
class AudioSink(Protocol):
    """Plays PCM; ``drain`` waits until everything queued was heard, ``stop`` discards it (barge-in)."""

    def play(self, pcm: Pcm, sample_rate: int) -> None: ...

    def drain(self) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class SpeechDetector(Protocol):
    """Per-frame speech probability (0..1) for 16 kHz int16 frames of ``frame_samples`` samples."""

    @property
    def frame_samples(self) -> int: ...

    def probability(self, frame: Pcm) -> float: ...

    def reset(self) -> None: ...


@runtime_checkable
class WakeDetector(Protocol):
    """Consumes frames; returns a WakeEvent when the assistant should start listening.

    ``at`` is the stream time in seconds at the end of ``frame``; detectors never read a clock.
    """

    @property
    def name(self) -> str: ...

    def process(self, frame: Pcm, at: float) -> WakeEvent | None: ...

    def reset(self) -> None: ...


@runtime_checkable
class Transcriber(Protocol):
    """Speech to text for one utterance of 16 kHz mono int16 audio."""

    def transcribe(
        self, pcm: Pcm, *, hotwords: Sequence[str] = (), initial_prompt: str | None = None
    ) -> Transcript: ...


@runtime_checkable
class Synthesizer(Protocol):
    """Text to speech, one SpeechChunk per sentence, yielded as soon as each is ready."""

    @property
    def sample_rate(self) -> int: ...

    def synthesize(self, text: str) -> Iterator[SpeechChunk]: ...
