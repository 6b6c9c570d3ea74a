"""Strict RIFF/WAVE decoder (PCM 8/16/24/32-bit, IEEE float, extensible) with precise error messages."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from audio.errors import AudioFormatError

_PCM, _FLOAT, _EXTENSIBLE = 0x0001, 0x0003, 0xFFFE
_UNKNOWN_SIZES = (0, 0xFFFFFFFF)  # written by streaming recorders that never patch the header
_CONVERT_HINT = "convert it, e.g.: sox input.wav -b 16 -c 1 -r 16000 output.wav"
_TRIM_HINT = "cut it into shorter turns, e.g.: sox input.wav output.wav trim 0 60"
MIN_RATE, MAX_RATE = 4_000, 384_000  # Hz: below is not speech, above is no sound card; 1 Hz once ran out of memory
MAX_SECONDS = 3600.0  # a voice turn is seconds long; an hour is surely a mistake
MAX_BYTES = 256 << 20  # read into memory whole (and widened to float while decoding)
_FORMAT_NAMES = {0x0002: "MS ADPCM", 0x0006: "A-law", 0x0007: "mu-law", 0x0011: "IMA ADPCM", 0x0055: "MP3"}


@dataclass(frozen=True)
class WavData:
    """Decoded audio: float32 samples in [-1, 1], shape (frames, channels)."""

    samples: npt.NDArray[np.float32]
    sample_rate: int
    channels: int
    bits: int
    is_float: bool

    @property
    def duration_s(self) -> float:
        return len(self.samples) / self.sample_rate


def _fail(code: str, name: str, problem: str, hint: str | None = None) -> AudioFormatError:
    return AudioFormatError(code, f"{name}: {problem}", hint=hint)


def read_wav_bytes(path: str | Path) -> bytes:
    """Read a file's bytes, turning OS errors into AudioFormatError."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES and p.is_file():
            raise _fail("wav.too_long", str(p), f"{size / 2**20:.0f} MiB is too big for a voice turn "
                        f"(at most {MAX_BYTES >> 20} MiB)", _TRIM_HINT)
        return p.read_bytes()
    except FileNotFoundError as e:
        raise _fail("wav.not_found", str(p), "no such file") from e
    except IsADirectoryError as e:
        raise _fail("wav.unreadable", str(p), "is a directory, not a WAV file") from e
    except OSError as e:
        raise _fail("wav.unreadable", str(p), f"cannot be read ({e.strerror or e})") from e


def decode_wav(data: bytes, name: str = "<bytes>") -> WavData:
    """Decode a complete WAV file held in memory; ``name`` is used in error messages."""
    if not data:
        raise _fail("wav.empty", name, "file is empty (0 bytes)")
    if len(data) < 12:
        raise _fail(
            "wav.truncated" if data[:4] == b"RIFF" else "wav.not_wav",
            name,
            f"only {len(data)} bytes, too short for a WAV header",
        )
    if data[:4] in (b"RF64", b"BW64"):
        raise _fail(
            "wav.unsupported", name, f"{data[:4].decode()} (64-bit WAV) is not supported", _CONVERT_HINT
        )
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise _fail("wav.not_wav", name, f"not a WAV file (starts with {data[:12]!r}, expected RIFF....WAVE)")
    fmt: tuple[int, int, int, int, int] | None = None
    pos = 12
    while pos + 8 <= len(data):
        chunk_id, size = data[pos : pos + 4], struct.unpack_from("<I", data, pos + 4)[0]
        body = pos + 8
        if chunk_id == b"fmt ":
            if size < 16 or body + size > len(data):
                raise _fail(
                    "wav.corrupt" if size < 16 else "wav.truncated",
                    name,
                    f"'fmt ' chunk is {size} bytes but {len(data) - body} remain (need >= 16)",
                )
            fmt = _parse_fmt(data[body : body + size], name)
        elif chunk_id == b"data":
            if fmt is None:
                raise _fail("wav.corrupt", name, "'data' chunk comes before the 'fmt ' chunk")
            available = len(data) - body
            if size in _UNKNOWN_SIZES and available > 0:
                size = available
            elif size > available:
                raise _fail(
                    "wav.truncated",
                    name,
                    f"data chunk declares {size} bytes but only {available} are present (the file was cut short)",
                )
            return _decode_samples(data[body : body + size], fmt, name)
        pos = body + size + (size & 1)
    if fmt is None:
        raise _fail("wav.corrupt", name, "no 'fmt ' chunk found (RIFF header present but no audio format)")
    raise _fail("wav.truncated" if pos > len(data) else "wav.corrupt", name, "no 'data' chunk found")


def _parse_fmt(body: bytes, name: str) -> tuple[int, int, int, int, int]:
    tag, channels, rate, _byte_rate, block_align, bits = struct.unpack_from("<HHIIHH", body, 0)
    if tag == _EXTENSIBLE:
        if len(body) < 40:
            raise _fail("wav.corrupt", name, f"extensible 'fmt ' chunk is {len(body)} bytes, expected 40")
        tag = struct.unpack_from("<H", body, 24)[0]  # first two bytes of the SubFormat GUID
    if tag not in (_PCM, _FLOAT):
        kind = _FORMAT_NAMES.get(tag, f"format tag 0x{tag:04x}")
        raise _fail(
            "wav.unsupported",
            name,
            f"compressed/unsupported encoding ({kind}); only PCM and float",
            _CONVERT_HINT,
        )
    if channels < 1:
        raise _fail("wav.corrupt", name, "header says 0 channels")
    if rate < 1:
        raise _fail("wav.corrupt", name, "header says sample rate 0")
    if not MIN_RATE <= rate <= MAX_RATE:  # a 1 Hz header would make resampling to 16 kHz allocate gigabytes
        raise _fail("wav.unsupported", name, f"sample rate {rate} Hz is outside {MIN_RATE}–{MAX_RATE} Hz",
                    _CONVERT_HINT)
    allowed = (8, 16, 24, 32) if tag == _PCM else (32, 64)
    if bits not in allowed:
        raise _fail(
            "wav.unsupported",
            name,
            f"{bits}-bit {'PCM' if tag == _PCM else 'float'} is not supported",
            _CONVERT_HINT,
        )
    if block_align != channels * bits // 8:
        raise _fail(
            "wav.corrupt",
            name,
            f"block align {block_align} does not match {channels} channel(s) x {bits} bits",
        )
    return tag, channels, rate, bits, block_align


def _decode_samples(raw: bytes, fmt: tuple[int, int, int, int, int], name: str) -> WavData:
    tag, channels, rate, bits, block_align = fmt
    frames = len(raw) // block_align
    if frames == 0:
        raise _fail("wav.empty", name, "contains no audio samples (data chunk is empty)")
    if frames / rate > MAX_SECONDS:
        raise _fail("wav.too_long", name, f"{frames / rate:.0f} s of audio; a turn may be at most "
                    f"{MAX_SECONDS:.0f} s", _TRIM_HINT)
    raw = raw[: frames * block_align]  # a partial trailing frame is dropped
    x: npt.NDArray[np.float64]
    if tag == _FLOAT:
        x = np.frombuffer(raw, dtype="<f4" if bits == 32 else "<f8").astype(np.float64)
        x = np.clip(np.nan_to_num(x, nan=0.0, posinf=1.0, neginf=-1.0), -1.0, 1.0)
    elif bits == 8:
        x = (np.frombuffer(raw, dtype=np.uint8).astype(np.float64) - 128.0) / 128.0
    elif bits == 16:
        x = np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0
    elif bits == 24:
        b = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        v = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        x = np.where(v >= 1 << 23, v - (1 << 24), v).astype(np.float64) / float(1 << 23)
    else:
        x = np.frombuffer(raw, dtype="<i4").astype(np.float64) / float(1 << 31)
    return WavData(x.reshape(frames, channels).astype(np.float32), rate, channels, bits, tag == _FLOAT)
