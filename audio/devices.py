"""Microphone and speaker adapters over sounddevice (PortAudio), with clear errors when there is no device."""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Iterator
from typing import Any

import numpy as np

from audio.errors import DEVICE_HINT, AudioDependencyError, AudioDeviceError
from audio.protocols import FRAME_SAMPLES, SAMPLE_RATE, DeviceInfo, Pcm
from audio.resample import Resampler, resample
from audio.wav import float_to_pcm16, pcm16_to_float


def load_backend() -> Any:
    """Import sounddevice (PortAudio bindings) lazily."""
    try:
        import sounddevice
    except ImportError as e:
        raise AudioDependencyError(
            "dependency.missing",
            f"audio devices need the 'sounddevice' package ({e})",
            hint=".venv/bin/pip install sounddevice",
        ) from e
    except OSError as e:  # the package is there but the PortAudio shared library is not
        raise AudioDependencyError(
            "dependency.portaudio",
            f"PortAudio library not found ({e})",
            hint="install it (Debian/Ubuntu: apt-get install libportaudio2), or " + DEVICE_HINT,
        ) from e
    return sounddevice


def list_devices(backend: Any = None) -> list[DeviceInfo]:
    """Every device PortAudio reports (empty on a machine without a sound card)."""
    sd = backend or load_backend()
    try:
        raw = list(sd.query_devices())
        hostapis = [h.get("name", "") for h in sd.query_hostapis()]
    except Exception as e:
        raise AudioDeviceError(
            "device.query_failed", f"cannot list audio devices: {e}", hint=DEVICE_HINT
        ) from e
    try:
        default_in, default_out = (int(x) for x in sd.default.device)
    except Exception:
        default_in = default_out = -1
    out = []
    for i, d in enumerate(raw):
        api = int(d.get("hostapi", -1))
        out.append(
            DeviceInfo(
                index=int(d.get("index", i)),
                name=str(d.get("name", f"device {i}")),
                max_input_channels=int(d.get("max_input_channels", 0)),
                max_output_channels=int(d.get("max_output_channels", 0)),
                default_samplerate=float(d.get("default_samplerate", 0.0)),
                hostapi=hostapis[api] if 0 <= api < len(hostapis) else "",
                is_default_input=i == default_in,
                is_default_output=i == default_out,
            )
        )
    return out


def _resolve(sd: Any, device: int | str | None, kind: str) -> tuple[Any, float]:
    """(device id for PortAudio, its default rate); AudioDeviceError when there is no such device."""
    channels_key = f"max_{kind}_channels"
    devices = list_devices(sd)
    if not any(getattr(d, channels_key) > 0 for d in devices):
        raise AudioDeviceError(
            f"device.no_{kind}", f"no audio {kind} device found (no sound card?)", hint=DEVICE_HINT
        )
    try:
        info = sd.query_devices(device, kind)
    except Exception as e:
        names = ", ".join(f"{d.index}: {d.name}" for d in devices if getattr(d, channels_key) > 0)
        raise AudioDeviceError(
            f"device.{kind}_not_found",
            f"no {kind} device {device!r} ({e}); available: {names}",
            hint=DEVICE_HINT,
        ) from e
    return (device if device is not None else info.get("index")), float(info["default_samplerate"])


def _pick_rate(sd: Any, device: Any, kind: str, wanted: int, fallback: float) -> int:
    check = sd.check_input_settings if kind == "input" else sd.check_output_settings
    try:
        check(device=device, samplerate=wanted, channels=1, dtype="int16")
        return wanted
    except Exception:
        return int(fallback)


class MicSource:
    """AudioSource from a microphone: 16 kHz mono int16 frames (resampled if the device cannot do 16 kHz).

    Raises AudioDeviceError when there is no input device, the stream cannot open, or it stops delivering
    audio for ``timeout_s`` (device unplugged).
    """

    def __init__(
        self,
        device: int | str | None = None,
        *,
        frame_samples: int = FRAME_SAMPLES,
        timeout_s: float = 2.0,
        max_queue_s: float = 5.0,
        backend: Any = None,
    ) -> None:
        self._sd = backend or load_backend()
        self._device, default_rate = _resolve(self._sd, device, "input")
        self.device_rate = _pick_rate(self._sd, self._device, "input", SAMPLE_RATE, default_rate)
        self._resampler = Resampler(self.device_rate, SAMPLE_RATE)
        self._frame = frame_samples
        self.timeout_s = timeout_s
        blocks = max(4, int(max_queue_s * self.device_rate / max(1, frame_samples)))
        self._queue: queue.Queue[Pcm] = queue.Queue(maxsize=blocks)
        self._stream: Any = None
        self._failed: str | None = None
        self._closed = False
        self.overflows = 0
        self.dropped_blocks = 0

    @property
    def sample_rate(self) -> int:
        return SAMPLE_RATE

    @property
    def frame_samples(self) -> int:
        return self._frame

    def _callback(self, indata: Any, frames: int, time_info: Any, status: Any) -> None:
        if status and getattr(status, "input_overflow", False):
            self.overflows += 1
        block = np.array(indata, dtype=np.int16).reshape(len(indata), -1)[:, 0].copy()
        try:
            self._queue.put_nowait(block)
        except queue.Full:
            self.dropped_blocks += 1

    def _finished(self) -> None:
        if not self._closed:
            self._failed = "the input stream stopped (device unplugged or taken by another program?)"

    def _open(self) -> None:
        try:
            self._stream = self._sd.InputStream(
                device=self._device,
                samplerate=self.device_rate,
                channels=1,
                dtype="int16",
                blocksize=int(self._frame * self.device_rate / SAMPLE_RATE),
                callback=self._callback,
                finished_callback=self._finished,
            )
            self._stream.start()
        except Exception as e:
            raise AudioDeviceError(
                "device.open_failed", f"cannot open microphone {self._device!r}: {e}", hint=DEVICE_HINT
            ) from e

    def frames(self) -> Iterator[Pcm]:
        if self._stream is None:
            self._open()
        pending = np.zeros(0, dtype=np.int16)
        while not self._closed:
            try:
                block = self._queue.get(timeout=self.timeout_s)
            except queue.Empty:
                if self._closed:
                    return
                why = self._failed or f"no audio from the microphone for {self.timeout_s:.1f} s"
                raise AudioDeviceError("device.lost", f"microphone lost: {why}", hint=DEVICE_HINT) from None
            if self._resampler.passthrough:
                data = block
            else:
                data = float_to_pcm16(self._resampler.process(pcm16_to_float(block)))
            pending = np.concatenate([pending, data])
            while len(pending) >= self._frame:
                frame, pending = pending[: self._frame], pending[self._frame :]
                yield frame

    def close(self) -> None:
        self._closed = True
        if self._stream is not None:
            try:
                self._stream.stop()
                self._stream.close()
            except Exception:
                pass  # closing a dead device must not mask the original error
            self._stream = None


class SpeakerSink:
    """AudioSink to a speaker; ``play`` queues audio and returns, ``drain`` waits, ``stop`` cuts it off."""

    def __init__(
        self, device: int | str | None = None, *, drain_timeout_s: float = 120.0, backend: Any = None
    ) -> None:
        self._sd = backend or load_backend()
        self._device, self._default_rate = _resolve(self._sd, device, "output")
        self.drain_timeout_s = drain_timeout_s
        self.stream_rate: int | None = None
        self._stream: Any = None
        self._chunks: deque[Pcm] = deque()
        self._offset = 0
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._failed: str | None = None
        self._closing = False

    def _callback(self, outdata: Any, frames: int, time_info: Any, status: Any) -> None:
        out = np.zeros(frames, dtype=np.int16)
        filled = 0
        with self._lock:
            while filled < frames and self._chunks:
                chunk = self._chunks[0]
                take = min(frames - filled, len(chunk) - self._offset)
                out[filled : filled + take] = chunk[self._offset : self._offset + take]
                filled += take
                self._offset += take
                if self._offset >= len(chunk):
                    self._chunks.popleft()
                    self._offset = 0
            if not self._chunks:
                self._idle.set()
        outdata[:] = out.reshape(-1, 1)

    def _finished(self) -> None:
        if not self._closing:
            self._failed = "the output stream stopped (device unplugged?)"
        self._idle.set()

    def _open(self, rate: int) -> None:
        self.stream_rate = _pick_rate(self._sd, self._device, "output", rate, self._default_rate)
        try:
            self._stream = self._sd.OutputStream(
                device=self._device,
                samplerate=self.stream_rate,
                channels=1,
                dtype="int16",
                callback=self._callback,
                finished_callback=self._finished,
            )
            self._stream.start()
        except Exception as e:
            self._stream = None
            raise AudioDeviceError(
                "device.open_failed", f"cannot open speaker {self._device!r}: {e}", hint=DEVICE_HINT
            ) from e

    def play(self, pcm: Pcm, sample_rate: int) -> None:
        if self._failed:
            raise AudioDeviceError("device.lost", f"speaker lost: {self._failed}", hint=DEVICE_HINT)
        if self._stream is None:
            self._open(int(sample_rate))
        data = np.asarray(pcm)
        data = data.astype(np.int16) if data.dtype == np.int16 else float_to_pcm16(data)
        if sample_rate != self.stream_rate:
            data = float_to_pcm16(
                resample(pcm16_to_float(data), int(sample_rate), int(self.stream_rate or 0))
            )
        if len(data) == 0:
            return
        with self._lock:
            self._chunks.append(data.reshape(-1))
            self._idle.clear()

    @property
    def playing(self) -> bool:
        return not self._idle.is_set()

    def drain(self) -> None:
        if not self._idle.wait(self.drain_timeout_s):
            raise AudioDeviceError(
                "device.lost", f"speaker did not finish within {self.drain_timeout_s} s", hint=DEVICE_HINT
            )
        if self._failed:
            raise AudioDeviceError("device.lost", f"speaker lost: {self._failed}", hint=DEVICE_HINT)

    def stop(self) -> None:
        with self._lock:
            self._chunks.clear()
            self._offset = 0
            self._idle.set()

    def close(self) -> None:
        self._closing = True
        self.stop()
        if self._stream is not None:
            try:
                self._stream.stop()
                self._stream.close()
            except Exception:
                pass
            self._stream = None
