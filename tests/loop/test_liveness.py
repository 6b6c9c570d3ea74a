"""Liveness of the real runner: whatever happens, the loop is soon back where the wake word is heard.

The runner is the real VoiceLoop with the real Endpointer/Segmenter; audio, wake detection, speech
detection and the stages are scripted fakes (see loop_harness.py).
"""

from __future__ import annotations

import gc
import random
import time
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loop_harness import (
    OUTCOMES,
    PLAYBACK,
    SEGMENTS,
    STREAMS,
    Script,
    ScriptSource,
    Segment,
    build,
    drive,
    random_segments,
    rss_kib,
    threads_now,
)

from assistant.loop.machine import State

# Deaf = listening or thinking. Bound: a wake, 5 s of silence before speech starts, 20 s of speech.
BOUND_S = 5 + 20 + 0.5


def test_a_false_wake_then_silence_does_not_make_the_loop_deaf(tmp_path: Path) -> None:
    """The issue's reproduction: a false wake at 1 s, silence; a real wake at 30 s must be heard."""
    src = ScriptSource([Segment("silence", 0.6), Segment("wake", 0.4), Segment("silence", 29.0),
                        Segment("wake", 0.4), Segment("speech", 1.5), Segment("silence", 3.0)])
    run = drive(build(tmp_path, Script()), src)
    assert run.heard_wakes == src.wake_times  # both wakes accepted
    assert run.longest_listening_s <= 5.1  # the silent wake gave up after listen_timeout_s
    assert [r.heard for r in run.loop.records] == ["question 1"]  # the real one was answered


def test_steady_noise_after_a_wake_is_cut_and_the_wake_word_heard_again(tmp_path: Path) -> None:
    src = ScriptSource([Segment("wake", 0.4), Segment("noise", 60.0), Segment("wake", 0.4),
                        Segment("silence", 6.0)])
    run = drive(build(tmp_path, Script()), src)
    assert run.longest_deaf_s <= BOUND_S and run.longest_listening_s <= BOUND_S
    assert run.heard_wakes and run.heard_wakes[-1] == src.wake_times[-1]


def test_noise_bursts_in_the_follow_up_window_do_not_hold_the_loop(tmp_path: Path) -> None:
    src = ScriptSource([Segment("wake", 0.4), Segment("speech", 1.0), Segment("silence", 1.0),
                        Segment("bursts", 40.0), Segment("silence", 1.0)])
    loop = build(tmp_path, Script(stt=("ok", "empty")))
    run = drive(loop, src)
    assert run.longest_deaf_s <= BOUND_S
    assert loop.machine.state == State.IDLE  # the window was not renewed by what was heard as nothing


segments = st.lists(st.tuples(st.sampled_from(SEGMENTS), st.sampled_from([0.15, 0.3, 0.6, 1.5, 3.0, 7.0, 26.0])),
                    min_size=1, max_size=10)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(segs=segments,
       stt=st.lists(st.sampled_from(OUTCOMES), min_size=1, max_size=4),
       llm=st.lists(st.sampled_from(STREAMS), min_size=1, max_size=4),
       tts=st.lists(st.sampled_from(["ok", "ok", "typed_error", "crash"]), min_size=1, max_size=4),
       playback=st.lists(st.sampled_from(PLAYBACK), min_size=1, max_size=3),
       activation=st.sampled_from(["wake_word", "always"]),
       speculative=st.booleans())
def test_random_sequences_always_get_back_to_the_wake_word(  # type: ignore[no-untyped-def]
        tmp_path_factory, segs, stt, llm, tts, playback, activation, speculative) -> None:
    tmp = tmp_path_factory.mktemp("live")
    plan = [Segment(k, 0.4 if k == "wake" else s) for k, s in segs]
    plan += [Segment("silence", BOUND_S), Segment("wake", 0.4), Segment("silence", 1.0)]
    src = ScriptSource(plan, seed=len(segs))
    loop = build(tmp, Script(stt=stt, llm=llm, tts=tts, playback=playback), activation=activation,
                 speculative=speculative)
    run = drive(loop, src)
    assert run.longest_deaf_s <= BOUND_S, run.deaf_spans
    assert run.longest_listening_s <= BOUND_S  # no capture outlives its limits
    if activation == "wake_word":  # the last wake, after a quiet spell as long as the bound, is heard
        assert run.heard_wakes and abs(run.heard_wakes[-1] - src.wake_times[-1]) < 1e-6
    for rec in loop.records:  # every turn ended: answered or reported
        assert rec.answer or rec.error


def test_soak_an_hour_of_mixed_audio(tmp_path: Path) -> None:
    """An hour in accelerated time: nothing stuck, no threads left behind, memory flat."""
    rng = random.Random(7)
    plan: list[Segment] = []
    while sum(s.seconds for s in plan) < 3600:
        plan += random_segments(rng, 8)
    script = Script(stt=("ok", "ok", "empty", "ok", "typed_error", "ok", "crash"),
                    llm=("ok", "ok", "breaks", "ok", "typed_error", "crash"),
                    tts=("ok",) * 9 + ("typed_error",), playback=("instant", "short", "instant", "stuck"))
    loop = build(tmp_path, script)
    threads0 = threads_now()
    warm = [Segment("wake", 0.4), Segment("speech", 1.0), Segment("silence", 8.0)] * 20
    drive(loop, ScriptSource(warm))  # caches, sqlite pages, numpy pools warmed before the baseline
    gc.collect()
    rss0 = rss_kib()
    t0 = time.perf_counter()
    src = ScriptSource(plan, seed=7)
    run = drive(loop, src)
    time.sleep(0.2)  # dropped early starts finish their last piece
    gc.collect()
    grown_kib = rss_kib() - rss0
    assert run.frames >= 3600 * 16000 // 512
    assert run.longest_deaf_s <= BOUND_S and run.longest_listening_s <= BOUND_S
    assert len(loop.records) > 50 and any(r.error for r in loop.records) and any(r.answer for r in loop.records)
    assert threads_now() <= threads0
    assert grown_kib < 16 * 1024, grown_kib
    assert time.perf_counter() - t0 < 240
    assert np.isfinite(run.longest_deaf_s)
