"""The pure endpointing logic, driven by (seconds, is_speech) tables and a fake speech detector."""

from __future__ import annotations

import numpy as np
import pytest

from audio.errors import AudioFormatError
from audio.vad import (
    Endpointer,
    Hysteresis,
    NoSpeech,
    Partial,
    Pause,
    Resume,
    Segmenter,
    SegmenterConfig,
    SpeechEnd,
    SpeechStart,
    Utterance,
)

F = 0.032  # one 512-sample frame


def run(pattern: str, config: SegmenterConfig | None = None) -> list[tuple[int, object]]:
    """Feed one observation per character ('S' speech, '.' silence) at frame ends; return (index, event)."""
    seg = Segmenter(config or SegmenterConfig())
    out: list[tuple[int, object]] = []
    for i, ch in enumerate(pattern):
        ev = seg.update(round((i + 1) * F, 6), ch == "S")
        if ev is not None:
            out.append((i, ev))
    return out


def test_speech_starts_after_three_frames_and_reports_when_it_began() -> None:
    assert run("..SS") == []
    events = run("..SSS")
    assert [(i, type(e)) for i, e in events] == [(4, SpeechStart)]
    assert isinstance(events[0][1], SpeechStart) and events[0][1].at == pytest.approx(2 * F)


def test_short_blips_do_not_start_an_utterance() -> None:
    assert run(".SS.SS.S..SS." * 5) == []


def test_end_after_configured_silence_with_last_speech_time() -> None:
    cfg = SegmenterConfig(end_silence_s=0.5)
    silence_needed = int(np.ceil(0.5 / F))  # 16 frames
    events = run("SSSSSS" + "." * (silence_needed - 1), cfg)
    assert [type(e) for _, e in events] == [SpeechStart]
    events = run("SSSSSS" + "." * silence_needed, cfg)
    (_, start), (idx, end) = events
    assert isinstance(start, SpeechStart)
    assert isinstance(end, SpeechEnd) and end.reason == "silence"
    assert idx == 5 + silence_needed
    assert end.start == pytest.approx(0.0) and end.end == pytest.approx(6 * F)


def test_pause_shorter_than_end_silence_keeps_one_utterance() -> None:
    events = run("SSSS" + "." * 10 + "SSSS" + "." * 20)
    assert [type(e) for _, e in events] == [SpeechStart, SpeechEnd]
    end = events[1][1]
    assert isinstance(end, SpeechEnd) and end.end == pytest.approx(18 * F)


@pytest.mark.parametrize(("end_silence", "frames"), [(0.3, 10), (0.5, 16), (1.0, 32)])
def test_end_silence_is_configurable(end_silence: float, frames: int) -> None:
    events = run("SSSS" + "." * 40, SegmenterConfig(end_silence_s=end_silence))
    assert events[1][0] == 3 + frames


def test_max_utterance_cuts_long_speech_then_restarts() -> None:
    cfg = SegmenterConfig(max_utterance_s=1.0)
    events = run("S" * 65, cfg)
    kinds = [(type(e).__name__, getattr(e, "reason", None)) for _, e in events]
    assert kinds == [
        ("SpeechStart", None),
        ("SpeechEnd", "max_length"),
        ("SpeechStart", None),
        ("SpeechEnd", "max_length"),
    ]
    first_end = events[1][1]
    assert isinstance(first_end, SpeechEnd) and first_end.end - first_end.start == pytest.approx(1.0, abs=F)


def test_no_speech_timeout_fires_once() -> None:
    cfg = SegmenterConfig(no_speech_timeout_s=0.2)
    events = run("." * 20, cfg)
    assert len(events) == 1 and isinstance(events[0][1], NoSpeech) and events[0][0] == 6


def test_table_with_irregular_timestamps() -> None:
    seg = Segmenter(SegmenterConfig(start_speech_s=0.1, end_silence_s=0.5))
    table = [
        (0.10, False),
        (0.15, True),
        (0.20, True),
        (0.26, True),
        (0.40, True),
        (0.70, False),
        (0.95, True),
    ]
    table += [(1.2, False), (1.44, False), (1.46, False)]
    events = [(t, seg.update(t, s)) for t, s in table]
    fired = [(t, e) for t, e in events if e is not None]
    assert fired == [(0.20, SpeechStart(0.10)), (1.46, SpeechEnd(0.10, 0.95, "silence"))]


def test_reset_sets_new_origin() -> None:
    seg = Segmenter(SegmenterConfig(no_speech_timeout_s=1.0))
    seg.reset(origin=10.0)
    assert seg.update(10.5, False) is None
    assert seg.update(11.0, False) == NoSpeech(11.0)


def test_hysteresis() -> None:
    gate = Hysteresis(on=0.5, off=0.3)
    probs = [0.1, 0.45, 0.55, 0.4, 0.31, 0.29, 0.45, 0.6]
    assert [gate(p) for p in probs] == [False, False, True, True, True, False, False, True]
    with pytest.raises(ValueError):
        Hysteresis(on=0.3, off=0.5)


class LoudnessDetector:
    """Fake SpeechDetector: a frame is speech when its RMS is above a level."""

    frame_samples = 512

    def __init__(self) -> None:
        self.resets = 0

    def probability(self, frame: np.ndarray) -> float:
        return 1.0 if np.sqrt(np.mean(frame.astype(np.float64) ** 2)) > 1000 else 0.0

    def reset(self) -> None:
        self.resets += 1


def _signal(parts: list[tuple[float, bool]]) -> np.ndarray:
    out = []
    for seconds, loud in parts:
        n = round(seconds * 16000)
        out.append(np.full(n, 5000 if loud else 0, dtype=np.int16))
    return np.concatenate(out)


@pytest.mark.parametrize("chunk", [512, 160, 1600])
def test_endpointer_returns_utterance_with_pre_and_post_roll(chunk: int) -> None:
    cfg = SegmenterConfig(pre_roll_s=0.2, post_roll_s=0.1, end_silence_s=0.5)
    ep = Endpointer(LoudnessDetector(), cfg)
    audio = _signal([(1.024, False), (1.024, True), (1.0, False)])
    events = []
    for i in range(0, len(audio), chunk):
        events += ep.push(audio[i : i + chunk])
    kinds = [type(e) for e in events]
    assert kinds == [SpeechStart, Utterance]
    utt = events[1]
    assert isinstance(utt, Utterance) and utt.reason == "silence"
    assert utt.start == pytest.approx(1.024) and utt.end == pytest.approx(2.048)
    assert utt.duration_s == pytest.approx(0.2 + 1.024 + 0.1, abs=1e-3)
    loud = np.flatnonzero(utt.pcm)
    assert loud[0] == pytest.approx(0.2 * 16000, abs=1) and len(loud) == int(1.024 * 16000)


def test_endpointer_time_comes_from_samples_and_origin() -> None:
    ep = Endpointer(LoudnessDetector(), SegmenterConfig(no_speech_timeout_s=1.0))
    ep.reset(origin=5.0)
    events = []
    for _ in range(40):
        events += ep.push(np.zeros(512, dtype=np.int16))
    assert len(events) == 1 and isinstance(events[0], NoSpeech)
    assert events[0].at == pytest.approx(5.0 + 32 * F)
    assert ep.time == pytest.approx(5.0 + 40 * F)


def test_endpointer_max_length_and_reset_detector() -> None:
    det = LoudnessDetector()
    ep = Endpointer(det, SegmenterConfig(max_utterance_s=0.5, pre_roll_s=0.0, post_roll_s=0.0))
    assert det.resets == 1
    events = ep.push(_signal([(1.0, True)]))
    utts = [e for e in events if isinstance(e, Utterance)]
    assert utts and utts[0].reason == "max_length"
    assert utts[0].duration_s == pytest.approx(0.5, abs=F + 1e-6)


def test_endpointer_without_a_length_limit_is_cut_by_its_caller() -> None:
    ep = Endpointer(LoudnessDetector(), SegmenterConfig(max_utterance_s=None, pre_roll_s=0.0, post_roll_s=0.0))
    assert ep.cut() is None  # no speech yet: nothing to cut
    events = ep.push(_signal([(3.0, True)]))
    assert not [e for e in events if isinstance(e, Utterance)]  # never cut by itself
    utt = ep.cut()
    assert utt is not None and utt.reason == "max_length" and not ep.in_speech
    assert utt.duration_s == pytest.approx(3.0, abs=2 * F)
    assert ep.cut() is None  # and the next utterance starts afresh


def test_endpointer_rejects_non_int16() -> None:
    ep = Endpointer(LoudnessDetector())
    with pytest.raises(AudioFormatError):
        ep.push(np.zeros(512, dtype=np.float32))


# -- pauses: the cue to start a turn before its end is certain ----------------------------------------


def test_pause_comes_before_the_end_and_once_per_silence() -> None:
    cfg = SegmenterConfig(end_silence_s=0.5, pause_s=0.1)
    events = run("SSSSSS" + "." * 20, cfg)
    kinds = [type(e) for _, e in events]
    assert kinds == [SpeechStart, Pause, SpeechEnd]
    (ip, pause), (ie, end) = events[1], events[2]
    assert isinstance(pause, Pause) and isinstance(end, SpeechEnd)
    assert ip == 5 + 4 and pause.end == end.end  # 4 silent frames >= 0.1 s; same last speech as the end
    assert ie > ip


def test_speech_after_a_pause_resumes_and_a_later_pause_comes_again() -> None:
    cfg = SegmenterConfig(end_silence_s=0.5, pause_s=0.1)
    events = run("SSSSSS" + "....." + "SSS" + "." * 20, cfg)
    kinds = [type(e) for _, e in events]
    assert kinds == [SpeechStart, Pause, Resume, Pause, SpeechEnd]
    first, second, end = events[1][1], events[3][1], events[4][1]
    assert isinstance(first, Pause) and isinstance(second, Pause) and isinstance(end, SpeechEnd)
    assert second.end == end.end > first.end


def test_no_pause_events_unless_configured() -> None:
    assert [type(e) for _, e in run("SSSSSS" + "." * 20)] == [SpeechStart, SpeechEnd]


def test_partial_audio_on_a_pause_is_the_utterance_if_the_silence_holds() -> None:
    cfg = SegmenterConfig(pre_roll_s=0.2, post_roll_s=0.1, end_silence_s=0.5, pause_s=0.15)
    ep = Endpointer(LoudnessDetector(), cfg)
    events = ep.push(_signal([(0.5, False), (1.0, True), (1.0, False)]))
    assert [type(e) for e in events] == [SpeechStart, Partial, Utterance]
    part, utt = events[1], events[2]
    assert isinstance(part, Partial) and isinstance(utt, Utterance)
    assert part.end == utt.end and np.array_equal(part.pcm, utt.pcm)


def test_a_partial_then_more_speech_gives_a_longer_utterance() -> None:
    cfg = SegmenterConfig(pre_roll_s=0.0, post_roll_s=0.0, end_silence_s=0.5, pause_s=0.15)
    ep = Endpointer(LoudnessDetector(), cfg)
    events = ep.push(_signal([(0.5, False), (0.6, True), (0.3, False), (0.6, True), (1.0, False)]))
    assert [type(e) for e in events] == [SpeechStart, Partial, Resume, Partial, Utterance]
    first, utt = events[1], events[-1]
    assert isinstance(first, Partial) and isinstance(utt, Utterance)
    assert len(first.pcm) < len(utt.pcm) and np.count_nonzero(utt.pcm) == pytest.approx(1.2 * 16000, abs=600)
