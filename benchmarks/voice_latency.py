"""End of user speech → first audio sample of the reply, through the real loop, vs the same models in sequence.

    .venv/bin/python benchmarks/voice_latency.py [--n 24]

Memory is filled from a short spoken-style conversation first. Each question is spoken by the bundled piper
voice and played into `VoiceLoop.run` in real time (as a microphone would deliver it: silence, the question,
silence), through the real Silero endpointer; the reply goes to a memory sink. Latency is measured from
outside the loop: from the moment the last sample of speech was "spoken" (known from the audio itself) to
the sink's first play(). Run twice: with the turn started speculatively on a pause (the default,
audio.speculate_after_s) and without (waiting for the endpoint, audio.end_silence_s). The sequential
reference runs STT, the full answer and the full synthesis one after another, plus the endpointer's wait.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.progress import track  # noqa: E402

from benchmarks.common import machine, pct  # noqa: E402

FACTS = [
    "My sister Anna lives in Lisbon and teaches chemistry.",
    "My brother Tomas works at Harbor Insurance.",
    "My friend Priya plays the violin.",
    "I drive a Volvo and I love dark chocolate.",
    "We have a dog called Biscuit, he is a beagle.",
    "I was born in Krakow and I work at Meridian Health.",
    "My cousin Noor lives in Leeds.",
]
QUESTIONS = [
    "Where does my sister live?", "What does Anna teach?", "Where does Tomas work?", "What does Priya play?",
    "What car do I drive?", "What do I like to eat?", "What is my dog called?", "What breed is Biscuit?",
    "Where was I born?", "Where do I work?", "Where does Noor live?", "Who is my cousin?",
    "Where does my brother work?", "Which of my friends plays the violin?", "Where does Anna live now?",
    "What instrument does Priya play?", "Who teaches chemistry?", "Do I have a dog?", "Who is Biscuit?",
    "Where does my cousin live?", "What is my sister's name?", "Who works at Harbor Insurance?",
    "Which city does Anna live in?", "Tell me about my sister.",
]


def wer(ref: str, hyp: str) -> tuple[int, int]:
    r = [w.strip(".,?!'").lower() for w in ref.split()]
    h = [w.strip(".,?!'").lower() for w in hyp.split()]
    d = list(range(len(h) + 1))
    for i in range(1, len(r) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(h) + 1):
            cur = min(d[j] + 1, d[j - 1] + 1, prev + (r[i - 1] != h[j - 1]))
            prev, d[j] = d[j], cur
    return d[len(h)], len(r)



class _PacedProbe:
    """Wraps a real-time source: remembers when its first frame came, so stream time maps to wall time."""

    def __init__(self, source: Any) -> None:
        self.source, self.t0 = source, 0.0
        self.sample_rate, self.frame_samples = source.sample_rate, source.frame_samples

    def frames(self) -> Any:
        for i, f in enumerate(self.source.frames()):
            if i == 0:  # a microphone delivers a frame when its last sample is captured
                self.t0 = time.perf_counter() - self.frame_samples / self.sample_rate
            yield f

    def close(self) -> None:
        self.source.close()


class _FirstPlay:
    """The first sample played after the question's speech ended (the chime that says the loop listens is
    played before it, when the run starts)."""

    def __init__(self, sink: Any) -> None:
        self.sink = sink
        self.first: float | None = None
        self.probe: _PacedProbe | None = None
        self.speech_end_s = 0.0  # stream time

    def expect(self, probe: _PacedProbe, speech_end_s: float) -> None:
        self.first, self.probe, self.speech_end_s = None, probe, speech_end_s

    def play(self, pcm: Any, sample_rate: int) -> None:
        now = time.perf_counter()
        if self.first is None and self.probe is not None and self.probe.t0 and now >= self.probe.t0 + self.speech_end_s:
            self.first = now
        self.sink.play(pcm, sample_rate)

    def drain(self) -> None: ...
    def stop(self) -> None: ...
    def close(self) -> None: ...


def speech_end(pcm: np.ndarray) -> float:
    """Seconds to the last sample of actual speech (piper's audio ends with a little silence)."""
    loud = np.flatnonzero(np.abs(pcm.astype(np.int32)) > 0.02 * np.abs(pcm).max())
    return float(loud[-1] + 1) / 16000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=len(QUESTIONS))
    ap.add_argument("--speculate-after", type=float, default=None, help="audio.speculate_after_s (default: config)")
    ap.add_argument("--locomo", type=Path, help="fill memory with this LoCoMo conversation (learned with the rules) "
                    "and ask its questions (categories 1-4, sampled) instead of the seven facts")
    ap.add_argument("--seed", type=int, default=20240610)
    ap.add_argument("--tail-s", type=float, default=1.5,
                    help="silence played after each question: longer than the slowest reply's first audio, or that "
                         "reply's audio lands in the next question's run")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "bench" / "voice.md")
    args = ap.parse_args()
    con = Console()
    from assistant.answer import speakable
    from assistant.compose import Hearth
    from assistant.settings import Settings
    from assistant.voice import build_loop
    from audio.tts import PiperSynthesizer
    from audio.wav import ArraySource, MemorySink, to_mono_16k
    from memory.transcripts import Turn

    tmp = Path(tempfile.mkdtemp(prefix="hearth-voice-bench-"))
    audio_cfg: dict[str, Any] = {"activation": "always"}
    if args.speculate_after is not None:
        audio_cfg["speculate_after_s"] = args.speculate_after
    settings = Settings.model_validate({"audio": audio_cfg})
    app = Hearth(settings, tmp / "data")
    app.models_dir_override = Path(os.environ.get("HEARTH_MODELS_DIR", str(Path.home() / ".local/share/hearth/models")))
    t0 = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
    memory = f"{len(FACTS)} facts"
    qs = QUESTIONS[: args.n]
    if args.locomo is not None:  # a real conversation's memory and questions
        import json
        import random

        from benchmarks.locomo import feed, turns_of

        conv = json.loads(args.locomo.read_text())
        turns = turns_of(conv, args.locomo.stem)
        fed = feed(app, args.locomo.stem, turns, learn="rules", con=con)
        last = max(t.at for t in turns)
        app.clock = lambda: last
        t0 = last
        pool = [q["question"] for q in conv["qa"] if int(q["category"]) in (1, 2, 3, 4)]
        qs = random.Random(args.seed).sample(pool, min(args.n, len(pool)))
        memory = (f"LoCoMo {args.locomo.stem}: {fed['turns']} turns in {fed['sessions']} sessions, "
                  f"{fed['episodes']} episodes, {fed['facts']} facts")
    else:
        app.clock = lambda: t0
        app.learner(use_llm=False).ingest([Turn("setup", t0, "user", f, idx=i) for i, f in enumerate(FACTS)],
                                          source="bench")
    sink = _FirstPlay(MemorySink())
    loop = build_loop(app, sink, live=True)  # loads whisper, piper and Silero, starts and warms the LLM
    loop.learn = None  # measure answering only
    voice = PiperSynthesizer(seed=3)
    audio = []
    for q in track(qs, description="speaking questions", console=con):
        chunks = list(voice.synthesize(q))
        audio.append(to_mono_16k(np.concatenate([c.pcm for c in chunks]), chunks[0].sample_rate))
    lead = np.zeros(int(0.6 * 16000), dtype=np.int16)
    runs: dict[str, list[dict[str, float]]] = {"speculative": [], "endpoint": []}
    errors = words = 0
    for mode in runs:
        loop.machine.speculative = mode == "speculative"
        for q, pcm in track(list(zip(qs, audio, strict=True)), description=f"loop ({mode})", console=con):
            probe = _PacedProbe(ArraySource(np.concatenate([lead, pcm]), realtime=True, pad_silence_s=args.tail_s))
            ends = len(lead) / 16000 + speech_end(pcm)
            sink.expect(probe, ends)
            n_before = len(loop.records)
            loop.run(probe)
            if len(loop.records) != n_before + 1 or sink.first is None:
                con.print(f"[yellow]{q!r}: no reply ({[r.heard for r in list(loop.records)[n_before:]]})")
                continue
            rec = loop.records[-1]
            t = dict(rec.timings_ms)
            t["measured"] = (sink.first - (probe.t0 + ends)) * 1000
            t["vad_lag"] = t["measured"] - t.get("end_of_speech_to_first_audio", t["measured"])
            runs[mode].append(t)
            if mode == "speculative":
                e, n = wer(q, rec.heard)
                errors, words = errors + e, words + n
    # the same models one after another: full transcript, full answer, full synthesis, then the first sample
    sequential: list[float] = []
    for pcm in track(audio, description="sequential", console=con):
        s0 = time.perf_counter()
        text = loop.stt.transcribe(pcm, hotwords=list(loop.names())).text
        ans = app.pipeline.answer(text, now=t0)
        chunks = list(loop.tts.synthesize(speakable(ans.text)))
        sink.play(chunks[0].pcm, chunks[0].sample_rate)
        sequential.append((time.perf_counter() - s0) * 1000 + app.settings.audio.end_silence_s * 1000)
    app.close()
    stages = ["vad_lag", "vad_tail", "stt", "recall", "llm_first_token", "first_sentence_tts"]
    rows, shares = [], []
    for mode, recs in runs.items():
        xs = [r["measured"] for r in recs]
        rows.append((mode, statistics.median(xs), pct(xs, 0.95), len(xs)))
        shares.append(f"{mode}: " + ", ".join(
            f"{k} {statistics.median([r.get(k, 0.0) for r in recs]):.0f}" for k in stages))
    s50, s95 = statistics.median(sequential), pct(sequential, 0.95)
    st = loop.speculation_stats
    label = {"speculative": f"loop, turn started on a {settings.audio.speculate_after_s} s pause (default)",
             "endpoint": f"loop, turn started at the endpoint ({settings.audio.end_silence_s} s silence)"}
    report = [
        "## Voice loop latency (issue 5)", "",
        f"Command: `.venv/bin/python benchmarks/voice_latency.py --n {len(qs)}"
        + (f" --locomo {args.locomo} --tail-s {args.tail_s:g}" if args.locomo else "") + f"` — {machine()}, "
        f"{datetime.now(UTC).date()}; bundled models (Whisper tiny.en int8, Qwen2.5-Coder-1.5B Q4_K_M, piper joe).",
        "Questions played in real time into `VoiceLoop.run` (real Silero endpointing); end of speech → first",
        f"audio sample measured from outside the loop. Memory: {memory}.", "",
        "| end of speech → first audio | p50 | p95 | n |", "|---|---|---|---|",
        *[f"| {label[m]} | {a / 1000:.2f} s | {b / 1000:.2f} s | {n} |" for m, a, b, n in rows],
        f"| same models one after another, no streaming or overlap (+ {settings.audio.end_silence_s} s tail) "
        f"| {s50 / 1000:.2f} s | {s95 / 1000:.2f} s | {len(sequential)} |",
        f"| ratio, default loop / sequential | {rows[0][1] / s50:.2f} | {rows[0][2] / s95:.2f} | |", "",
        "Median of each stage's own duration (ms). vad_lag: how much later than the audio's real end of speech",
        "Silero put it; vad_tail: from there to the endpoint. In the speculative run, stt, recall and the LLM",
        "overlap the tail.", "",
        *[f"- {s}" for s in shares],
        "", f"Speculative turns: {st['started']} started, {st['used']} used, {st['dropped']} dropped "
        "(speech resumed after the pause).",
        "", f"STT word error rate on the {len(qs)} questions (names passed as hints): "
        f"{100 * errors / max(1, words):.1f} %",
    ]
    con.print("\n".join(report))
    args.out.write_text("\n".join(report) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
