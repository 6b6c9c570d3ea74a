"""Wake detection logic that needs no model: refractory period, push-to-talk, always-listening, factory."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from audio.errors import AudioModelError
from audio.protocols import WakeDetector, WakeEvent
from audio.wakeword import AlwaysListening, PushToTalk, Refractory, create_wake_detector

FRAME = np.zeros(512, dtype=np.int16)


@pytest.mark.parametrize(
    ("period", "times", "admitted"),
    [
        (2.0, [1.0, 1.5, 2.9, 3.0, 3.1, 5.5], [True, False, False, True, False, True]),
        (0.0, [1.0, 1.0, 1.01], [True, True, True]),
        (1.0, [0.0, 0.99, 1.98, 2.0], [True, False, True, False]),
        (2.0, [5.0, 4.0], [True, True]),  # time going backwards (new stream) is not suppressed
    ],
)
def test_refractory_table(period: float, times: list[float], admitted: list[bool]) -> None:
    r = Refractory(period)
    assert [r.admit(t) for t in times] == admitted


def test_refractory_reset_and_validation() -> None:
    r = Refractory(2.0)
    assert r.admit(1.0) and not r.admit(1.5)
    r.reset()
    assert r.admit(1.5)
    with pytest.raises(ValueError):
        Refractory(-1.0)


def test_push_to_talk_fires_once_per_trigger() -> None:
    ptt = PushToTalk()
    assert ptt.process(FRAME, 0.1) is None
    t = threading.Thread(target=ptt.trigger)
    t.start()
    t.join()
    assert ptt.process(FRAME, 0.2) == WakeEvent("push_to_talk", 0.2)
    assert ptt.process(FRAME, 0.3) is None
    ptt.trigger()
    ptt.reset()
    assert ptt.process(FRAME, 0.4) is None


def test_push_to_talk_polls_a_key_state() -> None:
    pressed = iter([False, True, False])
    ptt = PushToTalk(lambda: next(pressed))
    assert [ptt.process(FRAME, t) is not None for t in (1.0, 2.0, 3.0)] == [False, True, False]


def test_always_listening_fires_every_frame() -> None:
    a = AlwaysListening()
    assert a.process(FRAME, 1.5) == WakeEvent("always", 1.5)
    assert a.process(FRAME, 1.6) == WakeEvent("always", 1.6)


def test_factory_and_protocol() -> None:
    assert isinstance(create_wake_detector("push_to_talk"), PushToTalk)
    assert isinstance(create_wake_detector("always"), AlwaysListening)
    for det in (PushToTalk(), AlwaysListening()):
        assert isinstance(det, WakeDetector)
    with pytest.raises(AudioModelError, match="unknown wake word model") as info:
        create_wake_detector("hey_computer")
    assert info.value.code == "wake.unknown_model" and "hey_jarvis" in (info.value.hint or "")
