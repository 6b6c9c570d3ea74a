"""Shared fixtures for the audio tests: WAV builders, and (slow) real piper/whisper models."""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator

import numpy as np
import pytest


def wav_bytes(
    frames: np.ndarray,
    rate: int,
    *,
    bits: int = 16,
    is_float: bool = False,
    extensible: bool = False,
    extra_chunks: bytes = b"",
    data_size: int | None = None,
) -> bytes:
    """Build a WAV file by hand (independent of the decoder under test). ``frames``: (n, channels) raw ints/floats."""
    frames = np.asarray(frames)
    if frames.ndim == 1:
        frames = frames[:, None]
    channels = frames.shape[1]
    if is_float:
        raw = frames.astype("<f4" if bits == 32 else "<f8").tobytes()
    elif bits == 8:
        raw = frames.astype(np.uint8).tobytes()
    elif bits == 16:
        raw = frames.astype("<i2").tobytes()
    elif bits == 24:
        v = frames.astype(np.int64).reshape(-1) & 0xFFFFFF
        raw = np.stack([v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF], axis=1).astype(np.uint8).tobytes()
    else:
        raw = frames.astype("<i4").tobytes()
    block = channels * bits // 8
    tag = 3 if is_float else 1
    if extensible:
        guid_tail = b"\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"
        fmt = struct.pack("<HHIIHHHHI", 0xFFFE, channels, rate, rate * block, block, bits, 22, bits, 0)
        fmt += struct.pack("<H", tag) + guid_tail
    else:
        fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * block, block, bits)
    size = len(raw) if data_size is None else data_size
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + extra_chunks
    body += b"data" + struct.pack("<I", size) + raw + (b"\x00" if len(raw) & 1 else b"")
    return b"RIFF" + struct.pack("<I", len(body)) + body


@pytest.fixture
def make_wav() -> Callable[..., bytes]:
    return wav_bytes


@pytest.fixture(scope="session")
def piper() -> Iterator[object]:
    from audio.tts import PiperSynthesizer

    synth = PiperSynthesizer(sentence_silence_s=0.0, seed=1234)
    synth.load()
    yield synth


@pytest.fixture(scope="session")
def speak(piper: object) -> Callable[..., np.ndarray]:
    """Speak text with the bundled piper voice; returns 16 kHz mono int16 (optionally slower/faster)."""
    from audio.tts import PiperSynthesizer
    from audio.wav import to_mono_16k

    voices: dict[float, PiperSynthesizer] = {}

    def _speak(text: str, length_scale: float | None = None) -> np.ndarray:
        synth = piper
        if length_scale is not None:
            synth = voices.setdefault(
                length_scale, PiperSynthesizer(length_scale=length_scale, sentence_silence_s=0.0)
            )
        assert isinstance(synth, PiperSynthesizer)
        chunks = list(synth.synthesize(text))
        assert chunks, f"piper produced no audio for {text!r}"
        return to_mono_16k(np.concatenate([c.pcm for c in chunks]), synth.sample_rate)

    return _speak


@pytest.fixture(scope="session")
def whisper() -> Iterator[object]:
    from audio.stt import WhisperTranscriber

    stt = WhisperTranscriber()
    stt.load()
    yield stt
