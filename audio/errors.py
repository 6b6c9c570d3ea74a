"""Errors raised by the audio library, each carrying a stable machine-readable code."""

from __future__ import annotations

from hearth_errors import HearthError


class AudioError(HearthError):
    """Base of every audio error: ``code`` is stable (e.g. ``wav.truncated``), ``message`` is for people."""

    code = "audio_error"

    def __init__(self, code: str, message: str, *, hint: str | None = None) -> None:
        super().__init__(message, code=code, hint=hint)


class AudioFormatError(AudioError):
    """A file or array is not audio we can read: corrupt, truncated, empty, unsupported encoding."""


class AudioDeviceError(AudioError):
    """No usable microphone/speaker, or the device failed mid-stream."""


class AudioDependencyError(AudioError):
    """An optional package needed by an adapter is not installed."""


class AudioModelError(AudioError):
    """A model is missing, fails to load, or fails while running."""


DEVICE_HINT = ("list devices with `assistant devices` and pick one with --input-device/--output-device, "
               "or use a recording: `assistant run --wav FILE` / `--stream FILE`")


def missing_dependency(package: str, feature: str, error: ImportError) -> AudioDependencyError:
    """Build the error for a lazily imported package that is not installed."""
    return AudioDependencyError(
        "dependency.missing",
        f"{feature} needs the Python package '{package}', which could not be imported ({error})",
        hint=f"install it into the venv: .venv/bin/pip install {package}",
    )
