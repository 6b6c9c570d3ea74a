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
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
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
    longest, longest_capture, stuck, turns, seconds = 0.0, 0.0, 0, 0, 0.0
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
            longest_capture = max(longest_capture, run.longest_listening_s)
            heard_last = bool(run.heard_wakes) and abs(run.heard_wakes[-1] - src.wake_times[-1]) < 1e-6
            stuck += int(max(run.longest_deaf_s, run.longest_listening_s) > QUIET_S
                         or (activation == "wake_word" and not heard_last))
            turns += len(loop.records)
            seconds += sum(s.seconds for s in plan)
            loop.transcripts.close()
    return {"sequences": n, "longest_deaf_s": longest, "longest_capture_s": longest_capture, "stuck": stuck,
            "turns": turns, "audio_h": seconds / 3600}


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
                "longest_capture_s": run.longest_listening_s,
                "threads_before": threads0, "threads_after": threads_now(),
                "rss_before_mib": rss0 / 1024, "rss_after_mib": rss_kib() / 1024}


class _Discard:
    """AudioSink that plays nothing and keeps nothing."""

    playing = False

    def play(self, pcm: Any, sample_rate: int) -> None: ...

    def drain(self) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


def real_soak(hours: float, con: Console) -> dict[str, Any]:
    """The real audio stages (Silero VAD, micro-wake-word, Whisper, Piper) on an hour of spoken and noisy audio;
    the LLM is switched off (answers come from memory with the template), so this measures the loop."""
    from assistant.compose import Hearth
    from assistant.settings import Settings
    from assistant.voice import build_loop
    from audio.tts import PiperSynthesizer
    from audio.wav import to_mono_16k

    voice = PiperSynthesizer(seed=5)

    def say(text: str) -> np.ndarray:
        chunks = list(voice.synthesize(text))
        return to_mono_16k(np.concatenate([c.pcm for c in chunks]), chunks[0].sample_rate)

    wake = say("Hey Jarvis.")
    questions = [say(q) for q in ("Where does Anna live?", "What is my sister's name?", "Do I have a dog?")]
    chatter = [say(t) for t in ("The weather will be cloudy with some rain in the afternoon.",
                                "And now the news. The council approved the new bridge on Tuesday.",
                                "Could you pass me the salt, please?")]
    rng = np.random.default_rng(11)

    def pink(seconds: float) -> np.ndarray:
        n = int(seconds * 16000)
        spec = np.fft.rfft(rng.standard_normal(n)) / np.sqrt(np.arange(1, n // 2 + 2))
        x = np.fft.irfft(spec, n)
        return (x / (np.abs(x).max() + 1e-9) * 6000).astype(np.int16)

    plan: list[tuple[str, np.ndarray]] = []
    total = 0.0
    pick = random.Random(3)
    while total < hours * 3600:
        kind = pick.choices(["silence", "noise", "chatter", "ask", "silent_wake"], [3, 2, 2, 2, 1])[0]
        if kind == "silence":
            clip = np.zeros(int(pick.uniform(2, 40) * 16000), dtype=np.int16)
        elif kind == "noise":
            clip = pink(pick.uniform(2, 30))
        elif kind == "chatter":
            clip = pick.choice(chatter)
        elif kind == "ask":
            clip = np.concatenate([wake, np.zeros(8000, np.int16), pick.choice(questions),
                                   np.zeros(16000 * 3, np.int16)])
        else:  # a wake word and then nothing: the case that used to make the loop deaf
            clip = np.concatenate([wake, np.zeros(16000 * 10, np.int16)])
        plan.append((kind, clip))
        total += len(clip) / 16000

    class Clips:
        sample_rate, frame_samples = 16000, 512

        def frames(self) -> Any:
            buf = np.zeros(0, np.int16)
            for _, clip in plan:
                buf = np.concatenate([buf, clip])
                while len(buf) >= 512:
                    yield buf[:512]
                    buf = buf[512:]

        def close(self) -> None: ...

    with tempfile.TemporaryDirectory() as d:
        settings = Settings.model_validate({"llm": {"provider": "openai", "base_url": "http://127.0.0.1:9/v1",
                                                    "api_key_env": None, "timeout_s": 1, "retries": 0}})
        app = Hearth(settings, Path(d))
        app.graph.assert_fact("Anna", "sister_of", "user", now=app.now(), source="bench")
        app.graph.assert_fact("Anna", "lives_in", "Porto", now=app.now(), source="bench")
        loop = build_loop(app, _Discard(), live=True)  # a MemorySink would keep every reply: not the loop's memory
        loop.learn = None
        deaf: list[float] = []
        since: list[float] = []
        t = [0.0]
        m = loop.machine

        samples: list[tuple[int, float, int]] = []  # (stream minute, RSS MiB, threads)

        def on_tick() -> None:
            t[0] += 512 / 16000
            if t[0] // 600 > len(samples) - 1:  # every 10 minutes of audio
                samples.append((int(t[0] // 60), rss_kib() / 1024, threads_now()))
            if not m.hears_wake and not since:
                since.append(t[0])
            elif m.hears_wake and since:
                deaf.append(t[0] - since.pop())

        threads0, rss0 = threads_now(), rss_kib()
        t0 = time.perf_counter()
        count = {"turns": 0, "answered": 0}

        def on_turn(rec: Any) -> None:
            count["turns"] += 1
            count["answered"] += int(bool(rec.answer))

        loop.on_turn = on_turn
        wakes = [0]
        inner = loop.wake
        assert inner is not None

        class Counting:
            name = "counting"

            def process(self, frame: np.ndarray, at: float) -> Any:
                ev = inner.process(frame, at)
                wakes[0] += ev is not None
                return ev

            def reset(self) -> None:
                inner.reset()

        loop.wake = Counting()
        loop.run(Clips(), on_tick=on_tick)  # type: ignore[arg-type]
        wall = time.perf_counter() - t0
        gc.collect()
        out = {"hours": total / 3600, "wall_s": wall, "wake_phrases": sum(k in ("ask", "silent_wake") for k, _ in plan),
               "asked": sum(k == "ask" for k, _ in plan), "wakes": wakes[0], "turns": count["turns"],
               "answered": count["answered"], "longest_deaf_s": max(deaf, default=0.0),
               "threads_before": threads0, "threads_after": threads_now(), "rss_before_mib": rss0 / 1024,
               "rss_after_mib": rss_kib() / 1024, "samples": samples,
               "threads": sorted(th.name for th in threading.enumerate())}
        app.close()
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sequences", type=int, default=1000)
    ap.add_argument("--hours", type=float, default=1.0)
    ap.add_argument("--real-hours", type=float, default=0.0, help="also soak the real audio stages this long")
    args = ap.parse_args()
    logging.disable(logging.CRITICAL)  # every stage fails on purpose: the tracebacks are the point, not news
    con = Console()
    con.print(f"machine: {machine()}")
    s = sequences(args.sequences, con)
    con.print(f"random sequences: {s['sequences']} ({s['audio_h']:.1f} h of audio, {s['turns']} turns); "
              f"longest time not hearing the wake word {s['longest_deaf_s']:.2f} s, longest capture "
              f"{s['longest_capture_s']:.2f} s (bound {QUIET_S:.0f} s); "
              f"stuck runs {s['stuck']}")
    with con.status(f"soaking {args.hours:g} h of mixed audio…"):
        k = soak(args.hours)
    con.print(f"soak: {k['hours']:.2f} h of audio in {k['wall_s']:.1f} s ({k['frames']} frames); "
              f"longest deaf {k['longest_deaf_s']:.2f} s, longest capture {k['longest_capture_s']:.2f} s; "
              f"{k['turns']} turns, {k['errors']} of them failed on purpose; "
              f"threads {k['threads_before']} -> {k['threads_after']}; "
              f"RSS {k['rss_before_mib']:.1f} -> {k['rss_after_mib']:.1f} MiB")
    if args.real_hours:
        with con.status(f"soaking the real audio stages on {args.real_hours:g} h of audio…"):
            r = real_soak(args.real_hours, con)
        con.print(f"real soak: {r['hours']:.2f} h of audio in {r['wall_s']:.0f} s; wake phrases {r['wake_phrases']} "
                  f"({r['asked']} with a question), wakes accepted {r['wakes']}, turns {r['turns']}, "
                  f"answered {r['answered']}; longest deaf {r['longest_deaf_s']:.2f} s; "
                  f"threads {r['threads_before']} -> {r['threads_after']}; "
                  f"RSS {r['rss_before_mib']:.0f} -> {r['rss_after_mib']:.0f} MiB")
        con.print("  every 10 min of audio (minute, RSS MiB, threads): "
                  + ", ".join(f"({a}, {b:.0f}, {c})" for a, b, c in r["samples"]))
        con.print(f"  threads at the end: {r['threads']}")


if __name__ == "__main__":
    main()
