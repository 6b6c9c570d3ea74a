"""Hearth audio stack: sources/sinks, VAD endpointing, wake word, speech-to-text and text-to-speech."""

from audio.errors import (
    AudioDependencyError,
    AudioDeviceError,
    AudioError,
    AudioFormatError,
    AudioModelError,
)
from audio.protocols import (
    FRAME_SAMPLES,
    SAMPLE_RATE,
    AudioSink,
    AudioSource,
    DeviceInfo,
    Segment,
    SpeechChunk,
    SpeechDetector,
    Synthesizer,
    Transcriber,
    Transcript,
    WakeDetector,
    WakeEvent,
)

__all__ = [
    "FRAME_SAMPLES",
    "SAMPLE_RATE",
    "AudioDependencyError",
    "AudioDeviceError",
    "AudioError",
    "AudioFormatError",
    "AudioModelError",
    "AudioSink",
    "AudioSource",
    "DeviceInfo",
    "Segment",
    "SpeechChunk",
    "SpeechDetector",
    "Synthesizer",
    "Transcriber",
    "Transcript",
    "WakeDetector",
    "WakeEvent",
]
