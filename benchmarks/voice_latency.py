"""End of user speech → first audio sample of the reply, streamed loop vs the same models run one after another.

    .venv/bin/python benchmarks/voice_latency.py [--n 24]

Memory is filled from a short spoken-style conversation first; questions are spoken by the bundled piper
voice; the reply audio goes to a memory sink (its first play() is the first audio sample). The VAD tail
(audio.end_silence_s of trailing silence the endpointer waits for) is added as configured.
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



def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=len(QUESTIONS))
    args = ap.parse_args()
    con = Console()
    from assistant.answer import speakable
    from assistant.compose import Hearth
    from assistant.loop.machine import UtteranceEnded, Wake
    from assistant.settings import Settings
    from assistant.voice import build_loop
    from audio.tts import PiperSynthesizer
    from audio.wav import MemorySink, to_mono_16k
    from memory.transcripts import Turn

    tmp = Path(tempfile.mkdtemp(prefix="hearth-voice-bench-"))
    app = Hearth(Settings(), tmp / "data")
    app.models_dir_override = Path(os.environ.get("HEARTH_MODELS_DIR", str(Path.home() / ".local/share/hearth/models")))
    t0 = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
    learner = app.learner(use_llm=False)
    learner.ingest([Turn("setup", t0, "user", f, idx=i) for i, f in enumerate(FACTS)], source="bench")
    sink = MemorySink()
    loop = build_loop(app, sink, live=False)  # loads whisper + piper, starts and warms the LLM
    voice = PiperSynthesizer(seed=3)
    qs = QUESTIONS[: args.n]
    audio = []
    for q in track(qs, description="speaking questions", console=con):
        chunks = list(voice.synthesize(q))
        audio.append(to_mono_16k(np.concatenate([c.pcm for c in chunks]), chunks[0].sample_rate))
    streamed: list[dict[str, float]] = []
    errors = words = 0
    for q, pcm in track(list(zip(qs, audio, strict=True)), description="streamed loop", console=con):
        m = loop.machine
        m.handle(Wake(0.0))
        [a] = [x for x in m.handle(UtteranceEnded(1.0)) if x.kind == "transcribe"]
        rec = loop.respond(pcm, conversation=a.conversation, at=t0)
        m.shutdown(2.0)
        e, n = wer(q, rec.heard)
        errors, words = errors + e, words + n
        if "end_of_speech_to_first_audio" in rec.timings_ms:
            streamed.append(rec.timings_ms)
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
    first = [t["end_of_speech_to_first_audio"] for t in streamed]
    stages = ["vad_tail", "stt", "recall", "llm_first_token", "first_sentence_tts"]
    share = {k: statistics.median([t.get(k, 0.0) for t in streamed]) for k in stages}
    # llm_first_token is measured from the end of speech (includes STT and recall): report its own share
    share["llm_first_token"] = max(0.0, share["llm_first_token"] - share["stt"] - share["recall"])
    p50, p95 = statistics.median(first), pct(first, 0.95)
    s50, s95 = statistics.median(sequential), pct(sequential, 0.95)
    report = [
        "## Voice loop latency (issue 5)", "",
        f"Command: `.venv/bin/python benchmarks/voice_latency.py --n {len(qs)}` — {machine()}, "
        f"{datetime.now(UTC).date()}; bundled models (Whisper tiny.en int8, Qwen2.5-Coder-1.5B Q4_K_M, piper joe).",
        "",
        "| | p50 | p95 |", "|---|---|---|",
        f"| streamed loop: end of speech → first audio | {p50 / 1000:.2f} s | {p95 / 1000:.2f} s |",
        f"| same models one after another, no streaming | {s50 / 1000:.2f} s | {s95 / 1000:.2f} s |",
        f"| ratio (streamed / sequential) | {p50 / s50:.2f} | {p95 / s95:.2f} |", "",
        "Median share of each stage in the streamed path (ms): "
        + ", ".join(f"{k} {v:.0f}" for k, v in share.items()),
        "", f"STT word error rate on the {len(qs)} questions (names passed as hints): "
        f"{100 * errors / max(1, words):.1f} %",
    ]
    con.print("\n".join(report))
    out = ROOT / "docs" / "bench" / "voice.md"
    out.write_text("\n".join(report) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
