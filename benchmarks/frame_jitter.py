"""Audio frame lateness and wake-word latency while memory work runs in the same process (issue 13).

    nice -n 19 .venv/bin/python benchmarks/frame_jitter.py [--arcs 100000] [--conversations 60] [--frame-ms 80]

A reader thread consumes a real-time stream the way the voice loop does (``VoiceLoop.run``: frames arrive at
the speed of speech and each goes to the real microWakeWord detector, ``hey_jarvis``), and records for every
frame how late its processing finished after the frame arrived (a microphone queues what is not read yet, so
a stall shows as lateness of every frame behind it, and wake words are heard late). The stream is a WAV:
quiet noise with "Hey Jarvis." every 3 s, spoken by the bundled piper voice (the project has no recorded one;
its end-to-end tests use piper too). Wake latency: from the end of the spoken phrase to the detection.

While it reads, the main thread of the same process runs, in turn:
  idle             sleeps;
  learning         `Learner.ingest` of a batch of 10-turn conversations, rules only (extraction.use_llm false),
                   through the app's composition root (episodes with their embeddings included);
  consolidation    `TemporalGraph.consolidate` of synthetic graphs (consolidate_bench.py's, bulk-loaded first;
                   three fresh copies one after another, for more wake words during it);
  cypher sandbox   a heavy generated query (a 4-way cross join) through `read_only`: a child process;
  cypher in-proc   a ~2 s query (a reduce over 8M numbers) run in this process (`store.read`), for contrast
                   with the sandbox (docs/benchmarks.md measured kglite holding the GIL through such a query).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine  # noqa: E402

RATE = 16_000
WAKE_EVERY_S = 3.0
SETTLE_S = 1.0  # the reader runs this long before and after each piece of work
HEAVY = "MATCH (a:Entity), (b:Entity), (c:Entity), (d:Entity) RETURN count(*) AS id"
IN_PROCESS = "RETURN reduce(s = 0, x IN range(1, 8000000) | s + x) AS n"  # ~2 s (docs/benchmarks.md)


@dataclass
class Run:
    """What the reader saw: (due, done) perf_counter times per frame, and detections (stream s, done)."""

    start: float = 0.0
    frames: list[tuple[float, float]] = field(default_factory=list)
    wakes: list[tuple[float, float]] = field(default_factory=list)


@dataclass
class Phases:
    """A piece of work's result, with when each of its steps started (the last one runs to the end)."""

    what: str
    marks: list[tuple[str, float]]

    def __str__(self) -> str:
        return self.what


def stream(phrase: np.ndarray, seconds: float, seed: int = 0) -> tuple[np.ndarray, list[float]]:
    """Quiet noise with the phrase every WAKE_EVERY_S; returns the audio and the stream times the phrases end."""
    rng = np.random.default_rng(seed)
    audio = rng.normal(0, 120, int(seconds * RATE)).astype(np.int16)
    loud = np.flatnonzero(np.abs(phrase.astype(np.int32)) > 500)
    speech_end = (loud[-1] + 1) / RATE if len(loud) else len(phrase) / RATE
    ends = []
    at = 1.0
    while at + len(phrase) / RATE < seconds - 0.5:
        i = int(at * RATE)
        audio[i:i + len(phrase)] = np.clip(audio[i:i + len(phrase)].astype(np.int32) + phrase, -32768, 32767)
        ends.append(at + speech_end)
        at += WAKE_EVERY_S
    return audio, ends


def read(audio: np.ndarray, frame: int, detector: Any, run: Run, stop: threading.Event) -> None:
    """The loop's consumer: frame i is there at start + (i+1)·frame; wait for it, then hand it to the detector."""
    frame_s = frame / RATE
    run.start = time.perf_counter()
    for i, pos in enumerate(range(0, len(audio) - frame + 1, frame)):
        if stop.is_set():
            return
        due = run.start + (i + 1) * frame_s
        wait = due - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        ev = detector.process(audio[pos:pos + frame], (i + 1) * frame_s)
        done = time.perf_counter()
        run.frames.append((due, done))
        if ev is not None:
            run.wakes.append((ev.at, done))


def measure(name: str, work: Callable[[], object], audio: np.ndarray, ends: list[float], frame: int,
            detector: Any) -> dict[str, Any]:
    detector.reset()
    detector.refractory.reset()
    run, stop = Run(), threading.Event()
    reader = threading.Thread(target=read, args=(audio, frame, detector, run, stop), name="audio", daemon=True)
    reader.start()
    time.sleep(SETTLE_S)
    w0 = time.perf_counter()
    what = work()
    w1 = time.perf_counter()
    time.sleep(SETTLE_S)
    stop.set()
    reader.join()
    late = [(done - due) * 1000 for due, done in run.frames if w0 <= due <= w1]
    frame_ms = frame / RATE * 1000
    heard = []
    missed = 0
    for end in ends:
        at = run.start + end
        if not w0 <= at <= w1:
            continue
        hits = [done for s, done in run.wakes if end - 1.0 <= s <= end + 1.5]
        if hits:
            heard.append((hits[0] - at) * 1000)
        else:
            missed += 1
    if isinstance(what, Phases):  # lateness of the frames due during each step
        bounds = [t for _, t in what.marks[1:]] + [w1]
        by_step: dict[str, list[float]] = {}
        for (step, t0), t1 in zip(what.marks, bounds, strict=True):
            by_step.setdefault(step, []).extend((done - due) * 1000 for due, done in run.frames if t0 <= due <= t1)
        what.what += "\n  frame lateness by step (frames, max ms, frames > 100 ms): " + "; ".join(
            f"{step}: {len(lat)}, {max(lat, default=0.0):.0f}, {sum(1 for x in lat if x > 100)}"
            for step, lat in by_step.items())
    q = statistics.quantiles(late, n=100, method="inclusive") if len(late) >= 2 else [late[0] if late else 0.0] * 99
    return {"scenario": name, "work_s": round(w1 - w0, 2), "frames": len(late),
            "p50": q[49], "p95": q[94], "p99": q[98], "max": max(late, default=0.0),
            "over_frame": sum(1 for x in late if x > frame_ms), "over_100": sum(1 for x in late if x > 100),
            "wakes": len(heard), "missed": missed,
            "wake_p50": statistics.median(heard) if heard else None, "wake_max": max(heard) if heard else None,
            "what": what}


def speak_wake() -> np.ndarray:
    from audio.tts import PiperSynthesizer
    from audio.wav import to_mono_16k

    synth = PiperSynthesizer(sentence_silence_s=0.0, seed=1234)
    synth.load()
    return to_mono_16k(np.concatenate([c.pcm for c in synth.synthesize("Hey Jarvis.")]), synth.sample_rate)


def learning(work: Path, n: int) -> tuple[Callable[[], object], Callable[[], None]]:
    from assistant.compose import Hearth
    from assistant.settings import Settings
    from benchmarks.learn_time import CONVERSATIONS
    from memory.transcripts import Turn

    app = Hearth(Settings.model_validate({"extraction": {"use_llm": False}}), work / "learn")
    at = datetime(2026, 6, 1, 18, tzinfo=UTC)
    app.graph  # noqa: B018 - open the store, load spaCy and the embedder outside the measured part
    app.rules.extract("warm up", at=at)
    app.episodes.search("warm up", now=at, limit=1)
    learner = app.learner(use_llm=False)
    batches = [[Turn(f"c{i}", at + timedelta(hours=i, seconds=20 * j), "user" if j % 2 == 0 else "assistant", t)
                for j, t in enumerate(CONVERSATIONS[i % len(CONVERSATIONS)])] for i in range(n)]

    def work() -> object:
        changes = 0
        for turns in batches:
            changes += sum(len(r.changes) for r in learner.ingest(turns, source="bench"))
        return f"{n} conversations, {changes} changes"

    return work, app.close


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arcs", type=int, default=100_000)
    ap.add_argument("--conversations", type=int, default=60)
    ap.add_argument("--consolidations", type=int, default=3, help="fresh copies consolidated one after another")
    ap.add_argument("--prune-batch", type=int, default=2000, help="consolidate(prune_batch=...)")
    ap.add_argument("--frame-ms", type=float, default=80.0, help="80 ms; the loop's own frames are 32 ms")
    ap.add_argument("--idle-s", type=float, default=15.0)
    ap.add_argument("--cypher-timeout-ms", type=int, default=2000)
    ap.add_argument("--skip", nargs="*", default=[], choices=["learning", "consolidation", "cypher"])
    a = ap.parse_args(argv)

    from audio.wakeword import MicroWakeWordDetector
    from benchmarks.consolidate_bench import load
    from memory.graph import TemporalGraph
    from memory.kglite_store import KgliteStore
    from memory.timeutil import DAY

    frame = round(a.frame_ms * RATE / 1000)
    print(f"machine: {machine()}, load average {os.getloadavg()[0]:.2f} (before); frames of {a.frame_ms:g} ms",
          flush=True)
    phrase = speak_wake()
    detector = MicroWakeWordDetector("hey_jarvis")
    audio, ends = stream(phrase, 600.0)
    work = Path(tempfile.mkdtemp(prefix="frame-jitter-"))
    rows = []
    try:
        rows.append(measure("idle", lambda: time.sleep(a.idle_s), audio, ends, frame, detector))
        if "learning" not in a.skip:
            learn, close = learning(work, a.conversations)
            rows.append(measure("learning (rules only)", learn, audio, ends, frame, detector))
            close()
        if "consolidation" not in a.skip or "cypher" not in a.skip:
            now = load(work / "base", a.arcs // 10, a.arcs, 7) + 30 * DAY
            for i in range(a.consolidations):  # fresh copies, each consolidated once (the first serves cypher)
                shutil.copytree(work / "base", work / f"run{i}")
            stores = [KgliteStore(work / f"run{i}" / "graph.kgl", read_only_max_work_units=5_000_000)
                      for i in range(max(1, a.consolidations))]
            store = stores[0]
            if "consolidation" not in a.skip:
                def consolidate() -> object:
                    marks: list[tuple[str, float]] = []
                    done = []

                    def progress(step: str, n: int, total: int) -> None:
                        if n == 0 and step != marks[-1][0]:
                            marks.append((step, time.perf_counter()))

                    for st in stores:
                        marks.append(("find faded arcs", time.perf_counter()))
                        r = TemporalGraph(st, user_name="User").consolidate(
                            now=datetime.fromtimestamp(now, UTC), progress=progress, prune_batch=a.prune_batch)
                        marks.append(("report", time.perf_counter()))
                        done.append(f"pruned {len(r.pruned_arcs)}, summaries {r.summaries}, steps {r.timings_s}")
                    return Phases(f"{len(stores)} × {a.arcs:,} arcs: " + "; ".join(done), marks)

                rows.append(measure("consolidation", consolidate, audio, ends, frame, detector))
            if "cypher" not in a.skip:
                store.warm_read_only()
                time.sleep(2.0)

                def sandboxed() -> object:
                    try:
                        return store.read_only(HEAVY, timeout_ms=a.cypher_timeout_ms, row_limit=50)
                    except Exception as e:  # refused or killed at the limit: the point is the stall, not rows
                        return f"{type(e).__name__}: {str(e)[:80]}"

                def in_process() -> object:
                    return store.read(IN_PROCESS)

                rows.append(measure("cypher, sandboxed", sandboxed, audio, ends, frame, detector))
                rows.append(measure("cypher, in process", in_process, audio, ends, frame, detector))
            for st in stores:
                st.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"\nload average after: {os.getloadavg()[0]:.2f}; lateness = frame processed (wake model run) minus "
          f"frame arrived, ms")
    print("| scenario | work | frames | p50 | p95 | p99 | max | > frame | > 100 ms | wakes heard / missed | "
          "wake latency p50 / max |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        wake = (f"{r['wake_p50']:.0f} / {r['wake_max']:.0f} ms" if r["wake_p50"] is not None else "–")
        print(f"| {r['scenario']} | {r['work_s']} s | {r['frames']} | {r['p50']:.1f} | {r['p95']:.1f} | "
              f"{r['p99']:.1f} | {r['max']:.1f} | {r['over_frame']} | {r['over_100']} | "
              f"{r['wakes']} / {r['missed']} | {wake} |")
    for r in rows:
        print(f"{r['scenario']}: {r['what']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
