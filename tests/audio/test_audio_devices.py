"""Mic/speaker adapters against a fake sounddevice backend, plus the real one on this machine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from audio.devices import MicSource, SpeakerSink, list_devices
from audio.errors import AudioDeviceError
from audio.protocols import AudioSink, AudioSource

MIC = {
    "name": "USB Mic",
    "hostapi": 0,
    "max_input_channels": 1,
    "max_output_channels": 0,
    "default_samplerate": 48000.0,
}
SPK = {
    "name": "Speakers",
    "hostapi": 0,
    "max_input_channels": 0,
    "max_output_channels": 2,
    "default_samplerate": 48000.0,
}


class FakeStream:
    def __init__(self, backend: FakeSD, **kw: Any) -> None:
        self.kw = kw
        self.backend = backend
        self.callback: Callable[..., None] = kw["callback"]
        self.finished: Callable[[], None] = kw["finished_callback"]
        self.started = self.closed = False

    def start(self) -> None:
        self.started = True
        for block in self.backend.mic_blocks:  # the "audio thread" delivers what was recorded
            self.callback(block.reshape(-1, 1), len(block), None, None)
        if self.backend.unplug_after_blocks:
            self.finished()

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


class FakeSD:
    """Just enough of the sounddevice module."""

    def __init__(self, devices: list[dict[str, Any]], rates: tuple[int, ...] = (16000, 22050)) -> None:
        self.devices = devices
        self.rates = rates
        self.default = type("D", (), {"device": (0, 1)})()
        self.mic_blocks: list[np.ndarray] = []
        self.unplug_after_blocks = False
        self.streams: list[FakeStream] = []

    def query_devices(self, device: Any = None, kind: str | None = None) -> Any:
        if kind is None:
            return self.devices
        index = self.default.device[0 if kind == "input" else 1] if device is None else device
        if isinstance(index, str):
            index = next((i for i, d in enumerate(self.devices) if index in d["name"]), -1)
        if not 0 <= index < len(self.devices) or self.devices[index][f"max_{kind}_channels"] == 0:
            raise ValueError(f"No {kind} device matching {device!r}")
        return {**self.devices[index], "index": index}

    def query_hostapis(self) -> list[dict[str, str]]:
        return [{"name": "ALSA"}]

    def check_input_settings(self, *, device: Any, samplerate: int, channels: int, dtype: str) -> None:
        if samplerate not in self.rates:
            raise ValueError("Invalid sample rate")

    check_output_settings = check_input_settings

    def InputStream(self, **kw: Any) -> FakeStream:
        self.streams.append(FakeStream(self, **kw))
        return self.streams[-1]

    OutputStream = InputStream


def test_list_devices_maps_fields() -> None:
    devs = list_devices(FakeSD([MIC, SPK]))
    assert [(d.index, d.name, d.max_input_channels, d.hostapi) for d in devs] == [
        (0, "USB Mic", 1, "ALSA"),
        (1, "Speakers", 0, "ALSA"),
    ]
    assert devs[0].is_default_input and devs[1].is_default_output


def test_no_devices_says_what_to_do() -> None:
    for cls in (MicSource, SpeakerSink):
        with pytest.raises(AudioDeviceError) as info:
            cls(backend=FakeSD([]))
        assert info.value.code in ("device.no_input", "device.no_output")
        assert "--wav" in str(info.value) and "device" in str(info.value)


def test_unknown_device_lists_available_ones() -> None:
    with pytest.raises(AudioDeviceError, match="USB Mic") as info:
        MicSource("Blue Yeti", backend=FakeSD([MIC, SPK]))
    assert info.value.code == "device.input_not_found"


def test_mic_yields_fixed_frames_at_16k() -> None:
    sd = FakeSD([MIC, SPK])
    sd.mic_blocks = [np.full(700, i, dtype=np.int16) for i in range(1, 5)]  # 2800 samples
    mic = MicSource(backend=sd, timeout_s=0.05)
    assert isinstance(mic, AudioSource) and mic.device_rate == 16000
    it = mic.frames()
    frames = [next(it) for _ in range(5)]
    assert all(len(f) == 512 for f in frames)
    assert np.concatenate(frames).tolist() == np.concatenate(sd.mic_blocks)[:2560].tolist()
    assert sd.streams[0].kw["samplerate"] == 16000 and sd.streams[0].kw["dtype"] == "int16"
    mic.close()
    assert sd.streams[0].closed and list(it) == []


def test_mic_resamples_when_device_cannot_do_16k() -> None:
    sd = FakeSD([MIC, SPK], rates=(48000,))
    t = np.arange(48000) / 48000
    sd.mic_blocks = [(np.sin(2 * np.pi * 440 * t) * 10000).astype(np.int16)]
    mic = MicSource(backend=sd, timeout_s=0.05)
    assert mic.device_rate == 48000
    it = mic.frames()
    frames = [next(it) for _ in range(30)]
    assert np.max(np.abs(np.concatenate(frames)[2000:])) == pytest.approx(10000, rel=0.02)


def test_mic_unplugged_mid_stream_raises_device_lost() -> None:
    sd = FakeSD([MIC, SPK])
    sd.mic_blocks = [np.zeros(1024, dtype=np.int16)]
    sd.unplug_after_blocks = True
    mic = MicSource(backend=sd, timeout_s=0.05)
    got = []
    with pytest.raises(AudioDeviceError) as info:
        for frame in mic.frames():
            got.append(frame)
    assert len(got) == 2
    assert info.value.code == "device.lost" and "unplugged" in str(info.value) and "--wav" in str(info.value)


def test_mic_open_failure_is_wrapped() -> None:
    sd = FakeSD([MIC, SPK])

    def broken(**kw: Any) -> FakeStream:
        raise OSError("Device unavailable")

    sd.InputStream = broken  # type: ignore[method-assign]
    with pytest.raises(AudioDeviceError, match="Device unavailable") as info:
        next(MicSource(backend=sd).frames())
    assert info.value.code == "device.open_failed" and isinstance(info.value.__cause__, OSError)


def test_speaker_plays_drains_and_stops() -> None:
    sd = FakeSD([MIC, SPK])
    spk = SpeakerSink(backend=sd, drain_timeout_s=0.05)
    assert isinstance(spk, AudioSink)
    spk.play(np.arange(1000, dtype=np.int16), 22050)
    stream = sd.streams[0]
    assert stream.kw["samplerate"] == 22050 and spk.playing
    out = np.zeros((600, 1), dtype=np.int16)
    stream.callback(out, 600, None, None)
    assert out[:, 0].tolist() == list(range(600))
    with pytest.raises(AudioDeviceError, match="did not finish"):
        spk.drain()
    stream.callback(out, 600, None, None)
    assert out[:400, 0].tolist() == list(range(600, 1000)) and not out[400:].any()
    spk.drain()  # everything was heard
    spk.play(np.ones(5000, dtype=np.int16), 22050)
    spk.stop()  # barge-in
    stream.callback(out, 600, None, None)
    assert not out.any() and not spk.playing
    spk.close()
    assert stream.closed


def test_speaker_resamples_to_a_rate_the_device_supports() -> None:
    sd = FakeSD([MIC, SPK], rates=(48000,))
    spk = SpeakerSink(backend=sd)
    spk.play(np.zeros(22050, dtype=np.int16), 22050)
    assert spk.stream_rate == 48000
    out = np.zeros((100000, 1), dtype=np.int16)
    sd.streams[0].callback(out, 100000, None, None)
    assert not spk.playing


def test_speaker_lost_mid_playback() -> None:
    sd = FakeSD([MIC, SPK])
    spk = SpeakerSink(backend=sd)
    spk.play(np.zeros(100, dtype=np.int16), 16000)
    sd.streams[0].finished()
    with pytest.raises(AudioDeviceError) as info:
        spk.play(np.zeros(100, dtype=np.int16), 16000)
    assert info.value.code == "device.lost"


def test_real_backend_on_this_machine() -> None:
    devices = list_devices()
    if any(d.max_input_channels for d in devices):
        pytest.skip("this machine has a microphone")
    with pytest.raises(AudioDeviceError) as info:
        MicSource()
    assert info.value.code == "device.no_input" and "--wav" in str(info.value)
