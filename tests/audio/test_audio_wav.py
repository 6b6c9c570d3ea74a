"""WAV decoding/conversion, resampling, WavSource and WavSink."""

from __future__ import annotations

import shutil
import struct
import subprocess
import wave
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from audio.errors import AudioError, AudioFormatError
from audio.resample import Resampler, resample
from audio.wav import ArraySource, MemorySink, WavSink, WavSource, load_wav, read_wav, to_mono_16k, write_wav

RATE = 16_000


def tone(freq: float, rate: int, seconds: float, amp: float = 0.5) -> np.ndarray:
    t = np.arange(int(rate * seconds)) / rate
    return amp * np.sin(2 * np.pi * freq * t)


def corr_with_tone(pcm: np.ndarray, freq: float) -> float:
    """Correlation of 16 kHz audio with a reference sine (phase-free), ignoring the edges."""
    x = pcm.astype(np.float64)[400:-400]
    t = np.arange(400, 400 + len(x)) / RATE
    s, c = np.sin(2 * np.pi * freq * t), np.cos(2 * np.pi * freq * t)
    proj = np.hypot(x @ s, x @ c) / np.sqrt((s @ s) * (x @ x) + 1e-12)
    return float(proj)


@pytest.mark.parametrize(
    ("rate", "channels", "bits", "is_float", "extensible"),
    [
        (16_000, 1, 16, False, False),
        (44_100, 2, 16, False, False),
        (48_000, 1, 24, False, False),
        (8_000, 1, 8, False, False),
        (22_050, 1, 32, False, False),
        (44_100, 2, 32, True, False),
        (32_000, 1, 64, True, False),
        (48_000, 2, 24, False, True),
        (11_025, 3, 16, False, False),
    ],
)
def test_any_pcm_wav_becomes_16k_mono_int16(
    tmp_path: Path,
    make_wav: Callable[..., bytes],
    rate: int,
    channels: int,
    bits: int,
    is_float: bool,
    extensible: bool,
) -> None:
    sig = tone(440.0, rate, 0.5)
    cols = [sig * (1.0 if ch == 0 else 0.9) for ch in range(channels)]
    x = np.stack(cols, axis=1)
    if is_float:
        raw = x
    elif bits == 8:
        raw = np.round(x * 127 + 128)
    else:
        raw = np.round(x * (2 ** (bits - 1) - 1))
    path = tmp_path / "in.wav"
    path.write_bytes(make_wav(raw, rate, bits=bits, is_float=is_float, extensible=extensible))

    info = load_wav(path)
    assert (info.sample_rate, info.channels, info.bits, info.is_float) == (rate, channels, bits, is_float)
    pcm = read_wav(path)
    assert pcm.dtype == np.int16 and pcm.ndim == 1
    assert abs(len(pcm) - RATE * 0.5) <= 1
    expected_peak = 0.5 * (1 + 0.9 * (channels - 1)) / channels * 32767
    assert np.max(np.abs(pcm[800:-800])) == pytest.approx(expected_peak, rel=0.04 if bits > 8 else 0.06)
    assert corr_with_tone(pcm, 440.0) > (0.98 if bits > 8 else 0.95)


def test_stereo_channels_are_averaged(tmp_path: Path, make_wav: Callable[..., bytes]) -> None:
    left = np.full(1600, 10000)
    right = np.full(1600, -2000)
    path = tmp_path / "st.wav"
    path.write_bytes(make_wav(np.stack([left, right], axis=1), RATE))
    assert np.all(read_wav(path) == 4000)


def test_8bit_is_unsigned_with_128_as_zero(tmp_path: Path, make_wav: Callable[..., bytes]) -> None:
    path = tmp_path / "u8.wav"
    path.write_bytes(make_wav(np.array([128, 255, 0, 192]), RATE, bits=8))
    assert read_wav(path).tolist() == [0, 32511, -32767, 16384]


def test_24bit_sign_extension(tmp_path: Path, make_wav: Callable[..., bytes]) -> None:
    path = tmp_path / "s24.wav"
    path.write_bytes(make_wav(np.array([0, 2**23 - 1, -(2**23), -256]), RATE, bits=24))
    assert read_wav(path).tolist() == [0, 32767, -32767, -1]


def test_skips_unknown_chunks_and_odd_padding(tmp_path: Path, make_wav: Callable[..., bytes]) -> None:
    extra = b"LIST" + (3).to_bytes(4, "little") + b"abc\x00"
    path = tmp_path / "list.wav"
    path.write_bytes(make_wav(np.array([1000, -1000, 500]), RATE, extra_chunks=extra))
    assert read_wav(path).tolist() == [1000, -1000, 500]


def test_float_nan_and_overrange_are_clipped(tmp_path: Path, make_wav: Callable[..., bytes]) -> None:
    path = tmp_path / "f.wav"
    path.write_bytes(make_wav(np.array([np.nan, 2.0, -3.0, 0.5]), RATE, bits=32, is_float=True))
    assert read_wav(path).tolist() == [0, 32767, -32767, 16384]


def test_streaming_writer_unknown_size_reads_to_end(tmp_path: Path, make_wav: Callable[..., bytes]) -> None:
    path = tmp_path / "stream.wav"
    path.write_bytes(make_wav(np.arange(10) * 100, RATE, data_size=0xFFFFFFFF))
    assert read_wav(path).tolist() == list(range(0, 1000, 100))


BAD_NAMES = [
    "empty",
    "text",
    "tiny",
    "mp3",
    "truncated",
    "header_only",
    "no_data",
    "no_fmt",
    "zero_frames",
    "alaw",
    "bad_bits",
    "bad_align",
    "zero_channels",
    "rf64",
    "rate_1hz",
    "rate_huge",
]


def _bad_files(make_wav: Callable[..., bytes]) -> dict[str, tuple[bytes, str, str]]:
    good = make_wav(np.arange(100), RATE)
    cases = [
        ("empty", b"", "wav.empty", "empty"),
        ("text", b"hello, I am not audio at all", "wav.not_wav", "not a WAV"),
        ("tiny", b"RIFF\x00", "wav.truncated", "too short"),
        ("mp3", b"ID3\x03\x00\x00\x00\x00\x00\x00" + b"\x00" * 100, "wav.not_wav", "not a WAV"),
        ("truncated", good[:-50], "wav.truncated", "cut short"),
        ("header_only", good[:44], "wav.truncated", "cut short"),
        ("no_data", good[:36], "wav.corrupt", "no 'data'"),
        ("no_fmt", b"RIFF\x10\x00\x00\x00WAVEdata\x04\x00\x00\x00\x00\x00\x00\x00", "wav.corrupt", "before"),
        ("zero_frames", make_wav(np.zeros(0), RATE), "wav.empty", "no audio"),
        ("alaw", good[:20] + b"\x06\x00" + good[22:], "wav.unsupported", "A-law"),
        ("bad_bits", good[:34] + b"\x0c\x00" + good[36:], "wav.unsupported", "12-bit"),
        ("bad_align", good[:32] + b"\x07\x00" + good[34:], "wav.corrupt", "block align"),
        ("zero_channels", good[:22] + b"\x00\x00" + good[24:], "wav.corrupt", "0 channels"),
        ("rf64", b"RF64" + good[4:], "wav.unsupported", "64-bit"),
        # a 1 Hz header once made resampling to 16 kHz raise MemoryError
        ("rate_1hz", good[:24] + struct.pack("<I", 1) + good[28:], "wav.unsupported", "sample rate 1 Hz"),
        ("rate_huge", good[:24] + struct.pack("<I", 10**9) + good[28:], "wav.unsupported", "outside"),
    ]
    return {name: (data, code, words) for name, data, code, words in cases}


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_files_raise_clear_errors(tmp_path: Path, make_wav: Callable[..., bytes], name: str) -> None:
    data, code, words = _bad_files(make_wav)[name]
    path = tmp_path / f"{name}.wav"
    path.write_bytes(data)
    with pytest.raises(AudioFormatError) as info:
        read_wav(path)
    assert info.value.code == code, (name, str(info.value))
    assert str(path) in str(info.value)
    assert words in str(info.value)


def test_too_long_files_are_refused(tmp_path: Path, make_wav: Callable[..., bytes],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import audio.wavfile

    path = tmp_path / "long.wav"
    path.write_bytes(make_wav(np.zeros(2 * RATE), RATE))
    monkeypatch.setattr(audio.wavfile, "MAX_SECONDS", 1.0)
    with pytest.raises(AudioFormatError, match="2 s of audio") as info:
        read_wav(path)
    assert info.value.code == "wav.too_long"
    monkeypatch.setattr(audio.wavfile, "MAX_BYTES", 1000)  # refused before it is read into memory
    with pytest.raises(AudioFormatError, match="too big") as info:
        read_wav(path)
    assert info.value.code == "wav.too_long" and str(info.value).count("wav.too_long") == 1


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(AudioFormatError, match="no such file") as info:
        read_wav(tmp_path / "nope.wav")
    assert info.value.code == "wav.not_found"
    with pytest.raises(AudioError, match="directory") as info2:
        WavSource(tmp_path)
    assert info2.value.code == "wav.unreadable"


@pytest.mark.skipif(shutil.which("sox") is None, reason="sox not installed")
@pytest.mark.parametrize(
    "args", [["-b", "8", "-e", "unsigned"], ["-b", "24"], ["-e", "float", "-b", "32"], ["-c", "2"]]
)
def test_files_written_by_sox_decode(tmp_path: Path, args: list[str]) -> None:
    src = write_wav(tmp_path / "src.wav", tone(1000.0, RATE, 0.3), RATE)
    out = tmp_path / "out.wav"
    subprocess.run(["sox", str(src), *args, "-r", "44100", str(out)], check=True, capture_output=True)
    pcm = read_wav(out)
    assert abs(len(pcm) - 4800) <= 2
    assert corr_with_tone(pcm, 1000.0) > 0.97


@pytest.mark.parametrize(
    ("src", "dst"), [(44_100, 16_000), (48_000, 16_000), (8_000, 16_000), (22_050, 16_000)]
)
def test_resampler_is_accurate_and_streams_identically(src: int, dst: int) -> None:
    x = tone(1000.0, src, 1.0)
    y = resample(x, src, dst)
    assert len(y) == int(np.ceil(len(x) * dst / src))
    ref = tone(1000.0, dst, len(y) / dst)[: len(y)]
    mid = slice(len(y) // 10, -len(y) // 10)
    assert np.max(np.abs(y[mid] - ref[mid])) < 2e-3
    r = Resampler(src, dst)
    streamed = np.concatenate([*(r.process(x[i : i + 333]) for i in range(0, len(x), 333)), r.flush()])
    np.testing.assert_allclose(streamed, y, atol=1e-6)


def test_resampler_rejects_aliasing() -> None:
    x = tone(10_000.0, 44_100, 1.0)  # above the 8 kHz Nyquist of 16 kHz: must vanish, not fold to 6 kHz
    y = resample(x, 44_100, 16_000)
    assert np.sqrt(np.mean(y[1000:-1000] ** 2)) < 0.01


def test_to_mono_16k_accepts_int16_and_1d() -> None:
    pcm = np.array([0, 16384, -16384], dtype=np.int16)
    assert to_mono_16k(pcm, RATE).tolist() == [0, 16384, -16384]


def test_array_source_frames_and_padding() -> None:
    src = ArraySource(np.arange(1200, dtype=np.int16), frame_samples=512, pad_silence_s=0.01)
    frames = list(src.frames())
    assert [len(f) for f in frames] == [512, 512, 512]
    assert frames[1][0] == 512 and frames[2][175] == 1199 and not frames[2][176:].any()
    assert src.sample_rate == RATE and src.frame_samples == 512


def test_array_source_realtime_pacing_uses_injected_clock() -> None:
    now = [100.0]
    sleeps: list[float] = []

    def sleep(s: float) -> None:
        sleeps.append(round(s, 4))
        now[0] += s

    src = ArraySource(np.zeros(2048, dtype=np.int16), realtime=True, clock=lambda: now[0], sleep=sleep)
    assert len(list(src.frames())) == 4
    assert sleeps == [0.032, 0.032, 0.032]


def test_close_stops_iteration() -> None:
    src = ArraySource(np.zeros(5120, dtype=np.int16))
    it = src.frames()
    next(it)
    src.close()
    assert list(it) == []


def test_wav_source_reads_file(tmp_path: Path) -> None:
    path = write_wav(tmp_path / "a.wav", np.full(1024, 7, dtype=np.int16), RATE)
    with WavSource(path) as src:
        frames = list(src.frames())
    assert len(frames) == 2 and all((f == 7).all() for f in frames)


def test_wav_sink_writes_and_resamples(tmp_path: Path) -> None:
    path = tmp_path / "out.wav"
    with WavSink(path) as sink:
        sink.play(np.full(22_050, 1000, dtype=np.int16), 22_050)
        sink.play(tone(440.0, RATE, 0.5).astype(np.float32), RATE)  # float input, other rate
        sink.stop()
        sink.drain()
    with wave.open(str(path)) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (22_050, 1, 2)
        assert abs(w.getnframes() - int(22_050 * 1.5)) <= 2
    assert sink.stops == 1
    assert sink.duration_s == pytest.approx(1.5, abs=1e-3)
    with pytest.raises(AudioError, match="after close"):
        sink.play(np.zeros(10, dtype=np.int16), RATE)


def test_wav_sink_close_without_audio_leaves_valid_empty_wav(tmp_path: Path) -> None:
    path = tmp_path / "silent.wav"
    WavSink(path).close()
    with wave.open(str(path)) as w:
        assert w.getnframes() == 0


def test_memory_sink_records() -> None:
    sink = MemorySink()
    sink.play(np.zeros(1600, dtype=np.int16), RATE)
    sink.stop()
    assert sink.duration_s == pytest.approx(0.1) and sink.stops == 1
