"""The real VoiceLoop runner driven by scripted audio and scripted stage behaviour, for liveness checks.

Used by tests/loop/test_liveness.py (random sequences, a soak) and benchmarks/liveness.py (the figures).
Audio is synthetic and generated lazily (an hour costs no memory): silence, speech, steady noise, noise
bursts, and a wake marker the fake detector recognises. Each stage (STT, recall/LLM, TTS, playback) follows a
script of outcomes: fine, empty, a typed error, an unexpected error, a stream that breaks half-way, a
speaker that never reports the end of playback.
"""

from __future__ import annotations

import random
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from assistant.loop.machine import LoopMachine, State
from assistant.loop.runner import VoiceLoop
from assistant.pipeline import Answer
from audio.errors import AudioModelError
from audio.protocols import SAMPLE_RATE, SpeechChunk, Transcript, WakeEvent
from audio.vad import Endpointer, SegmenterConfig
from audio.wakeword import Refractory
from memory.errors import MemoryStoreError
from memory.transcripts import TranscriptStore

FRAME = 512
WAKE_MARK = 7777  # frames holding this sample value are the wake phrase
T0 = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
SEGMENTS = ("silence", "speech", "noise", "bursts", "wake")
OUTCOMES = ("ok", "empty", "typed_error", "crash")
STREAMS = ("ok", "typed_error", "crash", "breaks")
PLAYBACK = ("instant", "short", "stuck")


@dataclass(frozen=True)
class Segment:
    kind: str  # one of SEGMENTS
    seconds: float


@dataclass
class Script:
    """What the stages do, turn after turn (cycled)."""

    stt: Sequence[str] = ("ok",)
    llm: Sequence[str] = ("ok",)
    tts: Sequence[str] = ("ok",)
    playback: Sequence[str] = ("instant",)


class ScriptSource:
    """AudioSource over segments, generated frame by frame (nothing is held in memory)."""

    sample_rate = SAMPLE_RATE
    frame_samples = FRAME

    def __init__(self, segments: Sequence[Segment], seed: int = 0) -> None:
        self.segments, self.seed = list(segments), seed
        self.wake_times: list[float] = []  # stream times at which the detector fires (the frame after a phrase)

    def frames(self) -> Iterator[np.ndarray]:
        rng = np.random.default_rng(self.seed)
        frame_s = FRAME / SAMPLE_RATE
        t = 0.0
        for seg in self.segments:
            n = max(1, round(seg.seconds / frame_s))
            for i in range(n):
                t += frame_s
                if seg.kind == "silence":
                    yield np.zeros(FRAME, dtype=np.int16)
                elif seg.kind == "speech":
                    yield np.full(FRAME, 5000, dtype=np.int16)
                elif seg.kind == "noise":
                    yield rng.integers(-4000, 4000, FRAME, dtype=np.int16)
                elif seg.kind == "bursts":  # 0.25 s on, 0.6 s off: short enough to end utterances
                    on = (i * frame_s) % 0.85 < 0.25
                    yield rng.integers(-4000, 4000, FRAME, dtype=np.int16) if on else np.zeros(FRAME, np.int16)
                elif seg.kind == "wake":
                    if i == n - 1:
                        self.wake_times.append(round(t + frame_s, 6))
                    yield np.full(FRAME, WAKE_MARK, dtype=np.int16)
                else:
                    raise ValueError(seg.kind)

    def close(self) -> None: ...


class Loudness:
    """SpeechDetector stand-in: loud frames are speech."""

    frame_samples = FRAME

    def probability(self, frame: np.ndarray) -> float:
        return 1.0 if int(np.abs(frame.astype(np.int32)).max()) > 1000 else 0.0

    def reset(self) -> None: ...


class MarkWake:
    """WakeDetector stand-in that behaves like a streaming model: it fires on the first frame after a run of
    wake-marker frames while its window (the last 0.5 s it was fed) still holds them, at most once per
    refractory period; only ``reset()`` clears the window."""

    name = "mark"

    def __init__(self, refractory_s: float = 2.0) -> None:
        self._window: deque[bool] = deque(maxlen=16)
        self.refractory = Refractory(refractory_s)

    def process(self, frame: np.ndarray, at: float) -> WakeEvent | None:
        mark = bool(frame[0] == WAKE_MARK)
        fired = not mark and any(self._window) and self.refractory.admit(at)
        self._window.append(mark)
        return WakeEvent(self.name, at, 1.0) if fired else None

    def reset(self) -> None:
        self._window.clear()


class _Cycle:
    def __init__(self, items: Sequence[str]) -> None:
        self.items, self.i = list(items) or ["ok"], 0

    def next(self) -> str:
        item = self.items[self.i % len(self.items)]
        self.i += 1
        return item


class ScriptedSTT:
    def __init__(self, outcomes: Sequence[str]) -> None:
        self.outcomes, self.calls = _Cycle(outcomes), 0

    def transcribe(self, pcm: np.ndarray, *, hotwords: Sequence[str] = (),
                   initial_prompt: str | None = None) -> Transcript:
        self.calls += 1
        o = self.outcomes.next()
        if o == "typed_error":
            raise AudioModelError("stt.failed", "transcription failed")
        if o == "crash":
            raise RuntimeError("stt exploded")
        return Transcript("" if o == "empty" else f"question {self.calls}", len(pcm) / SAMPLE_RATE, 0.01)


class ScriptedAnswers:
    def __init__(self, outcomes: Sequence[str]) -> None:
        self.outcomes = _Cycle(outcomes)

    def stream(self, question: str, *, now: datetime, history: Any = None) -> tuple[Iterator[str], Answer]:
        o = self.outcomes.next()
        if o == "typed_error":
            raise MemoryStoreError("store down")
        if o == "crash":
            raise KeyError("recall bug")

        def pieces() -> Iterator[str]:
            yield "Here is "
            if o == "breaks":
                raise ConnectionError("the model's stream broke")
            yield "the answer."

        return pieces(), Answer(question, "", None)


class ScriptedVoice:
    def __init__(self, outcomes: Sequence[str]) -> None:
        self.outcomes = _Cycle(outcomes)
        self.said: list[str] = []

    def synthesize(self, text: str) -> Iterator[SpeechChunk]:
        o = self.outcomes.next()
        if o in ("typed_error", "crash"):
            raise AudioModelError("tts.failed", "voice failed") if o == "typed_error" else OSError("tts died")
        self.said.append(text)
        yield SpeechChunk(np.zeros(160, dtype=np.int16), SAMPLE_RATE, text)


class ScriptedSpeaker:
    """``playing`` stays true for a number of checks (one per frame) after each play; 'stuck' never ends."""

    def __init__(self, outcomes: Sequence[str]) -> None:
        self.outcomes = _Cycle(outcomes)
        self._left = 0
        self.stops = 0

    def play(self, pcm: np.ndarray, sample_rate: int) -> None:
        o = self.outcomes.next()
        self._left = {"instant": 0, "short": 40, "stuck": 10**9}[o]

    @property
    def playing(self) -> bool:
        if self._left > 0:
            self._left -= 1
            return True
        return False

    def drain(self) -> None: ...

    def stop(self) -> None:
        self.stops += 1
        self._left = 0

    def close(self) -> None: ...


@dataclass
class Run:
    """What a run observed, frame by frame."""

    loop: VoiceLoop
    source: ScriptSource
    deaf_spans: list[tuple[float, float]] = field(default_factory=list)  # (start, end) not hearing the wake
    heard_wakes: list[float] = field(default_factory=list)
    frames: int = 0
    longest_listening_s: float = 0.0  # the longest capture (one LISTENING, from its start)

    @property
    def longest_deaf_s(self) -> float:
        return max((b - a for a, b in self.deaf_spans), default=0.0)


def build(tmp: Path, script: Script, *, activation: str = "wake_word", speculative: bool = True) -> VoiceLoop:
    machine = LoopMachine(activation=activation, follow_up_s=6, conversation_timeout_s=60,  # type: ignore[arg-type]
                          max_utterance_s=20, listen_timeout_s=5, speculative=speculative)
    clock = _Clock()
    return VoiceLoop(pipeline=ScriptedAnswers(script.llm), transcriber=ScriptedSTT(script.stt),  # type: ignore[arg-type]
                     synthesizer=ScriptedVoice(script.tts), sink=ScriptedSpeaker(script.playback),
                     machine=machine, transcripts=TranscriptStore(tmp / "t.sqlite3"), clock=clock,
                     wake=MarkWake(), endpointer=Endpointer(Loudness(), SegmenterConfig(
                         end_silence_s=0.5, pause_s=0.1, max_utterance_s=None)),
                     chime=np.zeros(160, dtype=np.int16), learn=lambda cid: None)


class _Clock:
    """Wall-clock stand-in that moves a little on each call, so transcript times are distinct."""

    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> datetime:
        self.t += timedelta(milliseconds=5)
        return self.t


def drive(loop: VoiceLoop, source: ScriptSource) -> Run:
    """Run the loop over the source, recording when the wake word could not be heard."""
    run = Run(loop, source)
    m = loop.machine
    frame_s = FRAME / SAMPLE_RATE
    t = 0.0
    deaf_since: float | None = None

    def on_tick() -> None:
        nonlocal t, deaf_since
        t += frame_s
        run.frames += 1
        if m.state == State.LISTENING:
            run.longest_listening_s = max(run.longest_listening_s, t - m.state_since)
        deaf = not m.hears_wake
        if deaf and deaf_since is None:
            deaf_since = t
        elif not deaf and deaf_since is not None:
            run.deaf_spans.append((deaf_since, t))
            deaf_since = None

    spy = _WakeSpy(loop)
    loop.run(source, on_tick=on_tick)
    if deaf_since is not None:
        run.deaf_spans.append((deaf_since, t))
    run.heard_wakes = spy.times
    return run


class _WakeSpy:
    """Records the stream times at which the machine accepted a wake word."""

    def __init__(self, loop: VoiceLoop) -> None:
        self.times: list[float] = []
        inner = loop.wake
        assert inner is not None
        spy = self

        class Spy:
            name = "spy"

            def process(self, frame: np.ndarray, at: float) -> WakeEvent | None:
                ev = inner.process(frame, at)
                if ev is not None:
                    spy.times.append(round(at, 6))
                return ev

            def reset(self) -> None:
                inner.reset()

        loop.wake = Spy()


def random_segments(rng: random.Random, n: int, *, max_s: float = 26.0) -> list[Segment]:
    out = []
    for _ in range(n):
        kind = rng.choice(SEGMENTS)
        seconds = 0.4 if kind == "wake" else rng.choice([0.15, 0.3, 0.6, 1.5, 3.0, 7.0, max_s])
        out.append(Segment(kind, seconds))
    return out


def threads_now() -> int:
    return threading.active_count()


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0
