"""Liveness of the voice loop: random event sequences and an hour's soak through the real runner.

    .venv/bin/python benchmarks/liveness.py [--sequences 1000] [--hours 1]

The runner is the real VoiceLoop (state machine, endpointer, speculation threads, transcript store);
audio, wake word, speech detection and the stages are the scripted fakes of tests/loop/loop_harness.py:
every stage fails in every way at random (typed errors, crashes, broken streams, empty transcripts,
playback that never ends), and the audio mixes silence, speech, steady noise, noise bursts and wake
phrases. Printed: sequences run, the longest time the loop could not hear the wake word, stuck runs (a
final wake word after a quiet spell not heard), hours soaked, threads and RSS before/after.
"""

from __future__ import annotations

import argparse
import gc
import logging
import random
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.progress import track

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "loop"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loop_harness import (
    OUTCOMES,
    PLAYBACK,
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

from benchmarks.common import machine

QUIET_S = 26.0  # a wake, 5 s without speech, 20 s of speech: the longest the loop may be deaf


def sequences(n: int, con: Console) -> dict[str, float]:
    rng = random.Random(2026)
    longest, stuck, turns, seconds = 0.0, 0, 0, 0.0
    with tempfile.TemporaryDirectory() as d:
        for i in track(range(n), description="random sequences", console=con):
            plan = random_segments(rng, rng.randint(1, 12))
            plan += [Segment("silence", QUIET_S), Segment("wake", 0.4), Segment("silence", 1.0)]
            script = Script(stt=rng.choices(OUTCOMES, k=rng.randint(1, 4)),
                            llm=rng.choices(STREAMS, k=rng.randint(1, 4)),
                            tts=rng.choices(["ok", "ok", "typed_error", "crash"], k=rng.randint(1, 4)),
                            playback=rng.choices(PLAYBACK, k=rng.randint(1, 3)))
            activation = rng.choice(["wake_word", "always"])
            tmp = Path(d) / str(i)
            tmp.mkdir()
            src = ScriptSource(plan, seed=i)
            loop = build(tmp, script, activation=activation, speculative=rng.random() < 0.7)
            run = drive(loop, src)
            longest = max(longest, run.longest_deaf_s)
            heard_last = bool(run.heard_wakes) and abs(run.heard_wakes[-1] - src.wake_times[-1]) < 1e-6
            stuck += int(run.longest_deaf_s > QUIET_S or (activation == "wake_word" and not heard_last))
            turns += len(loop.records)
            seconds += sum(s.seconds for s in plan)
            loop.transcripts.close()
    return {"sequences": n, "longest_deaf_s": longest, "stuck": stuck, "turns": turns, "audio_h": seconds / 3600}


def soak(hours: float) -> dict[str, float]:
    rng = random.Random(7)
    plan: list[Segment] = []
    while sum(s.seconds for s in plan) < hours * 3600:
        plan += random_segments(rng, 8)
    script = Script(stt=("ok", "ok", "empty", "ok", "typed_error", "ok", "crash"),
                    llm=("ok", "ok", "breaks", "ok", "typed_error", "crash"),
                    tts=("ok",) * 9 + ("typed_error",), playback=("instant", "short", "instant", "stuck"))
    with tempfile.TemporaryDirectory() as d:
        loop = build(Path(d), script)
        count = {"turns": 0, "errors": 0}

        def on_turn(rec: object) -> None:
            count["turns"] += 1
            count["errors"] += int(bool(getattr(rec, "error", None)))

        loop.on_turn = on_turn
        threads0 = threads_now()
        drive(loop, ScriptSource([Segment("wake", 0.4), Segment("speech", 1.0), Segment("silence", 8.0)] * 20))
        count.update(turns=0, errors=0)
        gc.collect()
        rss0 = rss_kib()
        t0 = time.perf_counter()
        run = drive(loop, ScriptSource(plan, seed=7))
        wall = time.perf_counter() - t0
        time.sleep(0.2)
        gc.collect()
        return {"hours": sum(s.seconds for s in plan) / 3600, "wall_s": wall, "frames": run.frames,
                "turns": count["turns"], "errors": count["errors"], "longest_deaf_s": run.longest_deaf_s,
                "threads_before": threads0, "threads_after": threads_now(),
                "rss_before_mib": rss0 / 1024, "rss_after_mib": rss_kib() / 1024}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sequences", type=int, default=1000)
    ap.add_argument("--hours", type=float, default=1.0)
    args = ap.parse_args()
    logging.disable(logging.CRITICAL)  # every stage fails on purpose: the tracebacks are the point, not news
    con = Console()
    con.print(f"machine: {machine()}")
    s = sequences(args.sequences, con)
    con.print(f"random sequences: {s['sequences']} ({s['audio_h']:.1f} h of audio, {s['turns']} turns); "
              f"longest time not hearing the wake word {s['longest_deaf_s']:.2f} s (bound {QUIET_S:.0f} s); "
              f"stuck runs {s['stuck']}")
    with con.status(f"soaking {args.hours:g} h of mixed audio…"):
        k = soak(args.hours)
    con.print(f"soak: {k['hours']:.2f} h of audio in {k['wall_s']:.1f} s ({k['frames']} frames); "
              f"longest deaf {k['longest_deaf_s']:.2f} s; {k['turns']} turns, {k['errors']} of them failed on purpose; "
              f"threads {k['threads_before']} -> {k['threads_after']}; "
              f"RSS {k['rss_before_mib']:.1f} -> {k['rss_after_mib']:.1f} MiB")


if __name__ == "__main__":
    main()
