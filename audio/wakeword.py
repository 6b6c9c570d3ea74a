"""Wake detection: microWakeWord adapter, push-to-talk, always-listening, and the pure refractory rule."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from audio.errors import AudioError, AudioFormatError, AudioModelError, missing_dependency
from audio.protocols import Pcm, WakeDetector, WakeEvent

BUILTIN_WAKE_MODELS = ("hey_jarvis", "okay_nabu", "hey_mycroft", "alexa")
PUSH_TO_TALK, ALWAYS = "push_to_talk", "always"


class Refractory:
    """After an accepted detection at time t, reject detections until t + ``period_s`` (pure, time as data)."""

    def __init__(self, period_s: float = 2.0) -> None:
        if period_s < 0:
            raise ValueError("refractory period must be >= 0")
        self.period_s = period_s
        self.last: float | None = None

    def admit(self, at: float) -> bool:
        """True (and remember ``at``) if a detection at ``at`` is outside the refractory window."""
        if self.last is not None and self.last <= at < self.last + self.period_s:
            return False
        self.last = at
        return True

    def reset(self) -> None:
        self.last = None


class MicroWakeWordDetector:
    """WakeDetector over pymicro-wakeword's TFLite models (``hey_jarvis`` by default, or a JSON config path).

    ``threshold`` overrides the model's probability cutoff; firings within ``refractory_s`` are merged.
    """

    def __init__(
        self, model: str | Path = "hey_jarvis", *, threshold: float | None = None, refractory_s: float = 2.0
    ) -> None:
        try:
            from pymicro_wakeword import MicroWakeWord, MicroWakeWordFeatures, Model
        except ImportError as e:
            raise missing_dependency("pymicro-wakeword", "wake word detection", e) from e
        try:
            if str(model) in BUILTIN_WAKE_MODELS:
                self._mww: Any = MicroWakeWord.from_builtin(Model(str(model)))
            elif Path(model).suffix == ".json" and Path(model).is_file():
                self._mww = MicroWakeWord.from_config(Path(model))
            else:
                raise AudioModelError(
                    "wake.unknown_model",
                    f"unknown wake word model {str(model)!r}",
                    hint=f"use one of {', '.join(BUILTIN_WAKE_MODELS)}, '{PUSH_TO_TALK}', '{ALWAYS}', "
                    "or a microWakeWord JSON config path",
                )
        except AudioError:
            raise
        except Exception as e:  # ctypes/TFLite loading errors
            raise AudioModelError("wake.load_failed", f"cannot load wake word model {model!r}: {e}") from e
        self._features_cls = MicroWakeWordFeatures
        self._features: Any = MicroWakeWordFeatures()
        self.threshold = float(threshold if threshold is not None else self._mww.probability_cutoff)
        self.refractory = Refractory(refractory_s)
        self.phrase: str = self._mww.wake_word
        self._name = Path(str(model)).stem
        self.last_score = 0.0

    @property
    def name(self) -> str:
        return self._name

    def process(self, frame: Pcm, at: float) -> WakeEvent | None:
        data = np.asarray(frame)
        if data.dtype != np.int16:
            raise AudioFormatError("wake.bad_frame", f"wake detector needs int16 samples, got {data.dtype}")
        event: WakeEvent | None = None
        for features in self._features.process_streaming(data.astype("<i2").tobytes()):
            prob = self._mww.process_streaming_prob(features)
            if prob is None:
                continue
            self.last_score = float(prob)
            if event is None and prob > self.threshold and self.refractory.admit(at):
                event = WakeEvent(self._name, at, float(prob))
        return event

    def reset(self) -> None:
        """Clear audio features, model state and probabilities (refractory memory is kept: it is about time)."""
        self._features = self._features_cls()
        self._mww.reset()


class PushToTalk:
    """WakeDetector fired by ``trigger()`` (thread-safe, e.g. from a key handler) or a ``pressed`` poll."""

    def __init__(self, pressed: Callable[[], bool] | None = None) -> None:
        self._event = threading.Event()
        self._pressed = pressed

    @property
    def name(self) -> str:
        return PUSH_TO_TALK

    def trigger(self) -> None:
        self._event.set()

    def process(self, frame: Pcm, at: float) -> WakeEvent | None:
        fired = self._event.is_set() or (self._pressed is not None and self._pressed())
        self._event.clear()
        return WakeEvent(PUSH_TO_TALK, at) if fired else None

    def reset(self) -> None:
        self._event.clear()


class AlwaysListening:
    """WakeDetector that is always awake: every frame offered while idle starts listening."""

    @property
    def name(self) -> str:
        return ALWAYS

    def process(self, frame: Pcm, at: float) -> WakeEvent | None:
        return WakeEvent(ALWAYS, at)

    def reset(self) -> None:
        """Stateless."""


def create_wake_detector(
    kind: str = "hey_jarvis", *, threshold: float | None = None, refractory_s: float = 2.0
) -> WakeDetector:
    """Build a detector from a config string: a builtin model name, a JSON path, 'push_to_talk' or 'always'."""
    if kind == PUSH_TO_TALK:
        return PushToTalk()
    if kind == ALWAYS:
        return AlwaysListening()
    return MicroWakeWordDetector(kind, threshold=threshold, refractory_s=refractory_s)
