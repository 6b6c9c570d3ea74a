"""Utterance endpointing: a pure (time, is_speech) segmenter, an audio-buffering Endpointer, and Silero VAD."""

from __future__ import annotations

import importlib.util
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from audio.errors import AudioFormatError, AudioModelError, missing_dependency
from audio.protocols import SAMPLE_RATE, Pcm, SpeechDetector


@dataclass(frozen=True)
class SegmenterConfig:
    """Endpointing knobs, all in seconds (probability thresholds excepted)."""

    start_speech_s: float = 0.09  # continuous speech needed before an utterance starts
    end_silence_s: float = 0.5  # trailing silence that ends an utterance
    pre_roll_s: float = 0.3  # audio kept from before the detected start
    post_roll_s: float = 0.15  # audio kept after the last speech
    max_utterance_s: float | None = 15.0  # cut here even if speech continues (None: the caller cuts, see cut())
    no_speech_timeout_s: float | None = None  # emit NoSpeech if nothing starts within this long
    pause_s: float | None = None  # emit Pause after this much trailing silence (None: never); < end_silence_s
    threshold: float = 0.5  # probability that switches speech on
    neg_threshold: float = 0.35  # probability below which speech switches off (hysteresis)


@dataclass(frozen=True)
class SpeechStart:
    at: float


@dataclass(frozen=True)
class SpeechEnd:
    start: float
    end: float
    reason: Literal["silence", "max_length"]


@dataclass(frozen=True)
class NoSpeech:
    at: float


@dataclass(frozen=True)
class Pause:
    """Speech has been silent for ``pause_s`` and may be over: a cue to start work early, not an end."""

    at: float
    start: float
    end: float  # the last speech so far


@dataclass(frozen=True)
class Resume:
    """Speech came back after a Pause: whatever was started on the Pause is stale."""

    at: float


@dataclass(frozen=True)
class Utterance:
    """A finished utterance: 16 kHz int16 audio (with pre/post roll) and its speech times."""

    pcm: Pcm
    start: float
    end: float
    reason: Literal["silence", "max_length"]

    @property
    def duration_s(self) -> float:
        return len(self.pcm) / SAMPLE_RATE


@dataclass(frozen=True)
class Partial:
    """The audio of an utterance up to a Pause: ending ``post_roll_s`` after the last speech, as the
    Utterance will if the silence holds; the speaker may yet go on."""

    pcm: Pcm
    start: float
    end: float


SegmentEvent = SpeechStart | SpeechEnd | NoSpeech | Pause | Resume
VadEvent = SpeechStart | Utterance | NoSpeech | Partial | Resume


class Segmenter:
    """Pure streaming endpointer over ``(t, is_speech)`` observations; ``t`` = stream time at frame end."""

    def __init__(self, config: SegmenterConfig | None = None, *, origin: float = 0.0) -> None:
        self.config = config or SegmenterConfig()
        self.reset(origin)

    def reset(self, origin: float = 0.0) -> None:
        self._origin = origin
        self._prev_t: float | None = None
        self._run_start: float | None = None
        self._utt_start: float | None = None
        self._last_speech: float = origin
        self._timed_out = False
        self._paused = False

    @property
    def in_speech(self) -> bool:
        return self._utt_start is not None

    def update(self, t: float, is_speech: bool) -> SegmentEvent | None:
        cfg = self.config
        frame_start = self._prev_t if self._prev_t is not None else min(self._origin, t)
        self._prev_t = t
        if self._utt_start is None:
            if not is_speech:
                self._run_start = None
                timeout = cfg.no_speech_timeout_s
                if timeout is not None and not self._timed_out and t - self._origin >= timeout:
                    self._timed_out = True
                    return NoSpeech(t)
                return None
            if self._run_start is None:
                self._run_start = frame_start
            if t - self._run_start + 1e-9 >= cfg.start_speech_s:
                self._utt_start, self._last_speech = self._run_start, t
                return SpeechStart(self._run_start)
            return None
        start = self._utt_start
        if is_speech:
            self._last_speech = t
            if self._paused:
                self._paused = False
                if cfg.max_utterance_s is None or t - start + 1e-9 < cfg.max_utterance_s:
                    return Resume(t)
        if t - self._last_speech + 1e-9 >= cfg.end_silence_s:
            self._end()
            return SpeechEnd(start, self._last_speech, "silence")
        if cfg.max_utterance_s is not None and t - start + 1e-9 >= cfg.max_utterance_s:
            return self.cut(t)
        pause = cfg.pause_s
        if pause is not None and not self._paused and t - self._last_speech + 1e-9 >= pause:
            self._paused = True
            return Pause(t, start, self._last_speech)
        return None

    def cut(self, t: float) -> SpeechEnd | None:
        """End the utterance in progress now, even though speech goes on (None if there is none)."""
        start = self._utt_start
        if start is None:
            return None
        self._end()
        return SpeechEnd(start, t, "max_length")

    def _end(self) -> None:
        self._utt_start, self._run_start, self._paused = None, None, False


class Hysteresis:
    """Probability -> speech flag with two thresholds, so the flag does not flicker near one value."""

    def __init__(self, on: float = 0.5, off: float = 0.35) -> None:
        if off > on:
            raise ValueError(f"off threshold {off} must not exceed on threshold {on}")
        self.on, self.off = on, off
        self.active = False

    def __call__(self, probability: float) -> bool:
        self.active = probability >= (self.off if self.active else self.on)
        return self.active


class Endpointer:
    """Feeds frames through a SpeechDetector and the Segmenter, buffering audio to return Utterances.

    Stream time is counted from the samples pushed (starting at ``origin``), never from a clock.
    """

    def __init__(self, detector: SpeechDetector, config: SegmenterConfig | None = None) -> None:
        self.detector = detector
        self.config = config or SegmenterConfig()
        self.segmenter = Segmenter(self.config)
        self.reset()

    def reset(self, origin: float = 0.0) -> None:
        """Start afresh at stream time ``origin`` (e.g. the time the wake word fired)."""
        self.segmenter.reset(origin)
        self.detector.reset()
        self._gate = Hysteresis(self.config.threshold, self.config.neg_threshold)
        self._samples = 0
        self._origin = origin
        self._pending = np.zeros(0, dtype=np.int16)
        keep = self.config.pre_roll_s + self.config.start_speech_s + 0.1
        self._ring: deque[tuple[float, Pcm]] = deque(maxlen=max(1, int(keep * SAMPLE_RATE / self._n) + 2))
        self._utt: list[Pcm] = []
        self._utt_t0 = 0.0
        self.last_probability = 0.0

    @property
    def _n(self) -> int:
        return self.detector.frame_samples

    @property
    def time(self) -> float:
        return self._origin + self._samples / SAMPLE_RATE

    @property
    def in_speech(self) -> bool:
        return self.segmenter.in_speech

    def push(self, frame: Pcm) -> list[VadEvent]:
        """Consume any number of samples; return the events they completed (usually none)."""
        data = np.asarray(frame)
        if data.dtype != np.int16 or data.ndim != 1:
            raise AudioFormatError(
                "vad.bad_frame", f"expected 1-D int16 samples, got {data.dtype} {data.shape}"
            )
        self._pending = np.concatenate([self._pending, data]) if len(self._pending) else data
        events: list[VadEvent] = []
        while len(self._pending) >= self._n:
            chunk, self._pending = self._pending[: self._n], self._pending[self._n :]
            events.extend(self._step(chunk))
        return events

    def _step(self, chunk: Pcm) -> list[VadEvent]:
        self.last_probability = self.detector.probability(chunk)
        self._samples += len(chunk)
        t = self.time
        if self.segmenter.in_speech:
            self._utt.append(chunk)
        else:
            self._ring.append((t, chunk))
        ev = self.segmenter.update(t, self._gate(self.last_probability))
        if isinstance(ev, SpeechStart):
            keep_from = ev.at - self.config.pre_roll_s
            frames = [(te, f) for te, f in self._ring if te > keep_from]
            self._ring.clear()
            self._utt = [f for _, f in frames]
            first_end = frames[0][0] if frames else t
            self._utt_t0 = first_end - self._n / SAMPLE_RATE
            cut = max(0, round((keep_from - self._utt_t0) * SAMPLE_RATE))
            if cut and self._utt:
                self._utt[0] = self._utt[0][cut:]
                self._utt_t0 += cut / SAMPLE_RATE
            return [ev]
        if isinstance(ev, SpeechEnd):
            pcm = self._audio_until(ev.end)
            self._utt = []
            return [Utterance(pcm, ev.start, ev.end, ev.reason)]
        if isinstance(ev, Pause):
            return [Partial(self._audio_until(ev.end), ev.start, ev.end)]
        if isinstance(ev, NoSpeech | Resume):
            return [ev]
        return []

    def cut(self) -> Utterance | None:
        """End the utterance in progress here (the caller's length limit); None if no speech has started."""
        ev = self.segmenter.cut(self.time)
        if ev is None:
            return None
        pcm = np.concatenate(self._utt) if self._utt else np.zeros(0, dtype=np.int16)
        self._utt = []
        return Utterance(pcm, ev.start, ev.end, ev.reason)

    def _audio_until(self, end: float) -> Pcm:
        """The utterance's audio so far, cut ``post_roll_s`` after ``end`` (speech time)."""
        pcm = np.concatenate(self._utt) if self._utt else np.zeros(0, dtype=np.int16)
        stop = round((end + self.config.post_roll_s - self._utt_t0) * SAMPLE_RATE)
        return pcm[: max(0, stop)]


def default_silero_path() -> Path:
    """The Silero VAD v6 ONNX file bundled with faster-whisper (found without importing it)."""
    spec = importlib.util.find_spec("faster_whisper")
    if spec is None or not spec.submodule_search_locations:
        raise missing_dependency(
            "faster-whisper", "Silero VAD (bundled model file)", ImportError("not found")
        )
    return Path(next(iter(spec.submodule_search_locations))) / "assets" / "silero_vad_v6.onnx"


class SileroVad:
    """SpeechDetector running Silero VAD (ONNX) on 512-sample frames, carrying context and LSTM state."""

    frame_samples = 512
    _context = 64

    def __init__(self, model_path: str | Path | None = None, *, threads: int = 1) -> None:
        try:
            import onnxruntime as ort
        except ImportError as e:
            raise missing_dependency("onnxruntime", "Silero VAD", e) from e
        self.model_path = Path(model_path) if model_path else default_silero_path()
        if not self.model_path.is_file():
            raise AudioModelError("vad.model_missing", f"Silero VAD model not found at {self.model_path}")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 4
        try:
            self._session: Any = ort.InferenceSession(
                str(self.model_path), sess_options=opts, providers=["CPUExecutionProvider"]
            )
        except Exception as e:  # onnxruntime raises its own untyped errors
            raise AudioModelError("vad.load_failed", f"cannot load {self.model_path}: {e}") from e
        self.reset()

    def reset(self) -> None:
        self._h = np.zeros((1, 1, 128), dtype=np.float32)
        self._c = np.zeros((1, 1, 128), dtype=np.float32)
        self._ctx = np.zeros(self._context, dtype=np.float32)

    def probability(self, frame: Pcm) -> float:
        x = np.asarray(frame)
        if x.shape != (self.frame_samples,):
            raise AudioFormatError(
                "vad.bad_frame", f"Silero VAD needs {self.frame_samples} samples, got {x.shape}"
            )
        audio = x.astype(np.float32) / 32768.0 if x.dtype == np.int16 else x.astype(np.float32)
        inp = np.concatenate([self._ctx, audio])[None, :]
        try:
            prob, self._h, self._c = self._session.run(None, {"input": inp, "h": self._h, "c": self._c})
        except Exception as e:
            raise AudioModelError("vad.inference_failed", f"Silero VAD failed: {e}") from e
        self._ctx = audio[-self._context :]
        return float(np.asarray(prob).reshape(-1)[0])
