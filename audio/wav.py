"""WAV files as audio sources and sinks: any PCM/float WAV in, 16 kHz mono int16 out, and back to disk."""

from __future__ import annotations

import time
import wave
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt

from audio.errors import AudioFormatError
from audio.protocols import FRAME_SAMPLES, SAMPLE_RATE, Pcm
from audio.resample import resample
from audio.wavfile import WavData, decode_wav, read_wav_bytes


def float_to_pcm16(x: npt.ArrayLike) -> Pcm:
    """Float samples in [-1, 1] to int16 with rounding and clipping."""
    a = np.asarray(x, dtype=np.float64)
    return np.clip(np.round(a * 32767.0), -32768, 32767).astype(np.int16)


def pcm16_to_float(pcm: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """int16 samples to float32 in [-1, 1)."""
    return np.asarray(pcm, dtype=np.float32) / 32768.0


def to_mono_16k(samples: npt.ArrayLike, sample_rate: int) -> Pcm:
    """Downmix (mean of channels, shape (frames, channels) or (frames,)) and resample to 16 kHz int16."""
    a = np.asarray(samples)
    if a.dtype == np.int16:
        a = pcm16_to_float(a)
    a = a.astype(np.float32)
    mono = a.mean(axis=1) if a.ndim == 2 else a.reshape(-1)
    if sample_rate != SAMPLE_RATE:
        mono = resample(mono, sample_rate, SAMPLE_RATE)
    return float_to_pcm16(mono)


def load_wav(path: str | Path) -> WavData:
    """Decode a WAV file as-is (native rate and channels), raising AudioFormatError on any problem."""
    return decode_wav(read_wav_bytes(path), str(path))


def read_wav(path: str | Path) -> Pcm:
    """Any PCM (8/16/24/32-bit) or float WAV, any rate and channel count -> 16 kHz mono int16."""
    data = load_wav(path)
    return to_mono_16k(data.samples, data.sample_rate)


def write_wav(path: str | Path, pcm: npt.ArrayLike, sample_rate: int = SAMPLE_RATE) -> Path:
    """Write mono audio (int16, or float in [-1, 1]) as a 16-bit PCM WAV; returns the path."""
    a = np.asarray(pcm)
    data = a.astype(np.int16) if a.dtype == np.int16 else float_to_pcm16(a)
    p = Path(path)
    with wave.open(str(p), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(int(sample_rate))
        w.writeframes(data.reshape(-1).astype("<i2").tobytes())
    return p


def _as_pcm16(pcm: npt.ArrayLike) -> Pcm:
    a = np.asarray(pcm)
    return a.astype(np.int16).reshape(-1) if a.dtype == np.int16 else float_to_pcm16(a).reshape(-1)


class ArraySource:
    """AudioSource over 16 kHz mono int16 samples in memory; the last frame is zero-padded.

    ``realtime=True`` paces frames at the speed of speech (as a microphone would); ``clock``/``sleep``
    are injectable for tests. ``pad_silence_s`` appends silence so end-of-utterance can be detected.
    """

    def __init__(
        self,
        pcm: npt.ArrayLike,
        *,
        frame_samples: int = FRAME_SAMPLES,
        realtime: bool = False,
        pad_silence_s: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if frame_samples <= 0:
            raise ValueError("frame_samples must be positive")
        samples = _as_pcm16(pcm)
        pad = round(pad_silence_s * SAMPLE_RATE)
        if pad > 0:
            samples = np.concatenate([samples, np.zeros(pad, dtype=np.int16)])
        self._pcm = samples
        self._frame = frame_samples
        self._realtime = realtime
        self._clock, self._sleep = clock, sleep
        self._closed = False

    @property
    def sample_rate(self) -> int:
        return SAMPLE_RATE

    @property
    def frame_samples(self) -> int:
        return self._frame

    @property
    def duration_s(self) -> float:
        return len(self._pcm) / SAMPLE_RATE

    def frames(self) -> Iterator[Pcm]:
        start = self._clock()
        frame_s = self._frame / SAMPLE_RATE
        for i, pos in enumerate(range(0, len(self._pcm), self._frame)):
            if self._closed:
                return
            if self._realtime:
                wait = start + i * frame_s - self._clock()
                if wait > 0:
                    self._sleep(wait)
            frame = self._pcm[pos : pos + self._frame]
            if len(frame) < self._frame:
                frame = np.concatenate([frame, np.zeros(self._frame - len(frame), dtype=np.int16)])
            yield frame

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> ArraySource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class WavSource(ArraySource):
    """AudioSource reading a WAV file (any format ``read_wav`` accepts)."""

    def __init__(
        self,
        path: str | Path,
        *,
        frame_samples: int = FRAME_SAMPLES,
        realtime: bool = False,
        pad_silence_s: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.path = Path(path)
        super().__init__(
            read_wav(path),
            frame_samples=frame_samples,
            realtime=realtime,
            pad_silence_s=pad_silence_s,
            clock=clock,
            sleep=sleep,
        )


class WavSink:
    """AudioSink that writes everything played to a 16-bit mono WAV (resampled to the first rate seen)."""

    def __init__(self, path: str | Path, sample_rate: int | None = None) -> None:
        self.path = Path(path)
        self.sample_rate = sample_rate
        self.stops = 0
        self.samples_written = 0
        self._writer: wave.Wave_write | None = None
        self._closed = False

    def play(self, pcm: npt.ArrayLike, sample_rate: int) -> None:
        if self._closed:
            raise AudioFormatError("sink.closed", f"{self.path}: play() after close()")
        data = _as_pcm16(pcm)
        if self._writer is None:
            rate = self.sample_rate or int(sample_rate)
            self.sample_rate = rate
            try:
                self._writer = wave.open(str(self.path), "wb")  # noqa: SIM115 - kept open across play() calls
            except OSError as e:
                raise AudioFormatError("wav.unwritable", f"{self.path}: cannot write ({e})") from e
            self._writer.setnchannels(1)
            self._writer.setsampwidth(2)
            self._writer.setframerate(rate)
        if sample_rate != self.sample_rate:
            data = float_to_pcm16(
                resample(pcm16_to_float(data), int(sample_rate), int(self.sample_rate or 0))
            )
        self._writer.writeframes(data.astype("<i2").tobytes())
        self.samples_written += len(data)

    @property
    def duration_s(self) -> float:
        return self.samples_written / self.sample_rate if self.sample_rate else 0.0

    def drain(self) -> None:
        """Nothing is queued: a file 'plays' instantly."""

    def stop(self) -> None:
        """Counted (for tests of barge-in); what was written stays written."""
        self.stops += 1

    def close(self) -> None:
        if self._writer is None and not self._closed:
            write_wav(self.path, np.zeros(0, dtype=np.int16), self.sample_rate or SAMPLE_RATE)
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self._closed = True

    def __enter__(self) -> WavSink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MemorySink:
    """AudioSink that keeps played chunks in memory (for tests and headless runs)."""

    def __init__(self) -> None:
        self.chunks: list[tuple[Pcm, int]] = []
        self.stops = 0
        self.drains = 0

    def play(self, pcm: npt.ArrayLike, sample_rate: int) -> None:
        self.chunks.append((_as_pcm16(pcm), int(sample_rate)))

    def drain(self) -> None:
        self.drains += 1

    def stop(self) -> None:
        self.stops += 1

    def close(self) -> None:
        """Nothing to release."""

    @property
    def duration_s(self) -> float:
        return sum(len(p) / r for p, r in self.chunks)
