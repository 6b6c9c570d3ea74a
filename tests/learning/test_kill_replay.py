"""SIGKILL at random points of `assistant ingest`: nothing lost, nothing counted twice once it runs again.

Each run starts from an empty data dir, starts `ingest` in a child process, kills it (SIGKILL) at a random
moment, then runs the same ingest to completion — which learns what the killed run left pending and skips
what it had finished. The memory must equal a run that was never interrupted: every conversation learned,
every turn stored once, every fact with the same reinforcement count and strength.

    HEARTH_KILL_RUNS=50 .venv/bin/pytest -q tests/learning/test_kill_replay.py   # the full figure
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

RUNS = int(os.environ.get("HEARTH_KILL_RUNS", "8"))
SAID = [
    "My sister Anna lives in Porto.", "I work at Saint Mary's Hospital.", "I like green tea.",
    "My brother Karl moved to Tallinn.", "I have a dog called Biscuit.", "I like green tea.",
    "Anna works at Atlas Publishing.", "I don't like coffee anymore.", "Karl likes chess.",
]


def _input(path: Path) -> Path:
    rows = []
    for c in range(6):
        for i in range(3):
            text = SAID[(c * 2 + i) % len(SAID)]
            rows.append({"conversation": f"c{c}", "at": f"2026-0{1 + c // 2}-1{c}T10:00:0{i}Z", "speaker": "user",
                         "text": text})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _ingest(data: Path, src: Path) -> subprocess.Popen[bytes]:
    cfg = data.parent / "cfg.yaml"
    cfg.write_text("recall:\n  embeddings: false\n")  # the model is not what is tested here
    argv = ["--config", str(cfg), "--data-dir", str(data), "ingest", str(src), "--no-llm", "--json"]
    # Learning a conversation takes milliseconds; the window that matters — facts applied, learning not yet
    # recorded — is widened in the child only (a pause before the record), so the kills land in it often.
    child = ("import sys, time\n"
             "import memory.transcripts as T\n"
             "record = T.TranscriptStore.record_learning\n"
             "def slow(self, *a, **k):\n"
             "    time.sleep(0.25)\n"
             "    return record(self, *a, **k)\n"
             "T.TranscriptStore.record_learning = slow\n"
             "from assistant.cli import main\n"
             f"sys.exit(main({argv!r}))\n")
    return subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _memory(data: Path) -> dict[str, object]:
    from memory.kglite_store import KgliteStore

    store = KgliteStore(data / "graph.kgl")
    try:
        arcs = sorted((r["s"], r["rel"], r["o"], r["n"], round(r["w"], 6), r["vt"] is None) for r in store.read(
            "MATCH (s:Entity)-[a:ARC]->(o:Entity) RETURN s.name AS s, a.relation AS rel, o.name AS o, "
            "a.reinforcements AS n, a.strength AS w, a.valid_to AS vt"))
        episodes = store.read("MATCH (e:Episode) RETURN count(e) AS n")[0]["n"]
    finally:
        store.close()
    db = sqlite3.connect(data / "transcripts.sqlite3")
    turns = db.execute("SELECT COUNT(*), SUM(learned) FROM turns").fetchone()
    db.close()
    return {"arcs": arcs, "turns": turns, "episodes": episodes}


def test_killed_ingest_replays_without_loss_or_double_counting(tmp_path: Path) -> None:
    src = _input(tmp_path / "in.jsonl")
    ref_dir = tmp_path / "ref" / "data"
    ref_dir.parent.mkdir()
    assert _ingest(ref_dir, src).wait(timeout=300) == 0
    reference = _memory(ref_dir)
    assert reference["turns"] == (18, 18) and reference["episodes"] == 18 and reference["arcs"]
    rng = random.Random(20261123)
    killed = 0
    for run in range(RUNS):
        data = tmp_path / f"run{run}" / "data"
        data.parent.mkdir()
        p = _ingest(data, src)
        _wait_for_first_learned(data, p)  # startup and model loading are not where learning can break
        time.sleep(rng.uniform(0.0, 1.5))  # 5 more conversations × (learn + 0.25 s before the record)
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            killed += 1
        p.wait(timeout=60)
        assert _ingest(data, src).wait(timeout=300) == 0
        assert _memory(data) == reference, f"run {run}: memory differs from an uninterrupted ingest"
    assert killed >= RUNS // 2  # most runs were really cut short


def _wait_for_first_learned(data: Path, p: subprocess.Popen[bytes], timeout: float = 120.0) -> None:
    db_path, end = data / "transcripts.sqlite3", time.monotonic() + timeout
    while time.monotonic() < end and p.poll() is None:
        if db_path.exists():
            try:
                db = sqlite3.connect(db_path, timeout=0.1)
                n = db.execute("SELECT COUNT(*) FROM turns WHERE learned = 1").fetchone()[0]
                db.close()
                if n:
                    return
            except sqlite3.Error:
                pass  # the schema is being created
        time.sleep(0.02)




VOICE_RUNS = int(os.environ.get("HEARTH_KILL_RUNS_VOICE", "4"))
DOWN = ("llm:\n  provider: openai\n  base_url: http://127.0.0.1:9/v1\n  api_key_env: null\n  timeout_s: 2\n"
        "  retries: 0\nrecall:\n  embeddings: false\n")  # answers from the template: the model is not tested


def _voice(data: Path, wavs: list[Path], out: Path) -> subprocess.Popen[bytes]:
    cfg = data.parent / "voice.yaml"
    cfg.write_text(DOWN)
    argv = ["--config", str(cfg), "--data-dir", str(data), "run", "--wav", *map(str, wavs), "--out-dir", str(out)]
    marker = data.parent / "facts-applied"  # written when the graph has the facts, before the record
    child = ("import sys, time, pathlib\n"
             "import memory.transcripts as T\n"
             "record = T.TranscriptStore.record_learning\n"
             "def slow(self, *a, **k):\n"
             f"    pathlib.Path({str(marker)!r}).touch()\n"
             "    time.sleep(0.25)\n"
             "    return record(self, *a, **k)\n"
             "T.TranscriptStore.record_learning = slow\n"
             "from assistant.cli import main\n"
             f"sys.exit(main({argv!r}))\n")
    return subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _learn_pending(data: Path) -> None:
    """The next command that owns the store learns what the killed one left (chat with nothing to say)."""
    p = subprocess.run([sys.executable, "-m", "assistant", "--config", str(data.parent / "voice.yaml"),
                        "--data-dir", str(data), "chat"], input=b"", capture_output=True, timeout=300)
    assert p.returncode == 0, p.stderr.decode()


def _answered(data: Path) -> int:
    try:
        db = sqlite3.connect(data / "transcripts.sqlite3", timeout=0.1)
        n = db.execute("SELECT COUNT(*) FROM turns WHERE speaker = 'assistant'").fetchone()[0]
        db.close()
        return int(n)
    except sqlite3.Error:
        return 0


def test_killed_voice_loop_learning_replays_without_loss_or_double_counting(tmp_path: Path) -> None:
    import numpy as np

    from audio.tts import PiperSynthesizer
    from audio.wav import write_wav

    tts = PiperSynthesizer(seed=11)
    wavs = []
    for i, text in enumerate(["My sister Anna lives in Porto.", "I work at Saint Mary's Hospital.",
                              "I have a dog called Biscuit."]):
        chunks = list(tts.synthesize(text))
        wavs.append(tmp_path / f"said-{i}.wav")
        write_wav(wavs[-1], np.concatenate([c.pcm for c in chunks]), chunks[0].sample_rate)
    ref = tmp_path / "ref" / "data"
    ref.parent.mkdir()
    assert _voice(ref, wavs, tmp_path / "ref" / "out").wait(timeout=300) == 0
    reference = _memory(ref)
    assert reference["turns"] == (6, 6) and reference["arcs"]
    rng = random.Random(7)
    killed = 0
    for run in range(VOICE_RUNS):
        data = tmp_path / f"voice{run}" / "data"
        data.parent.mkdir()
        p = _voice(data, wavs, data.parent / "out")
        end = time.monotonic() + 300
        while _answered(data) < 3 and p.poll() is None and time.monotonic() < end:  # learning starts at the end
            time.sleep(0.02)
        if run % 2:  # half the runs: killed at the worst moment — facts in the graph, learning not recorded
            while not (data.parent / "facts-applied").exists() and p.poll() is None and time.monotonic() < end:
                time.sleep(0.005)
            time.sleep(rng.uniform(0.0, 0.2))
        else:  # the others: anywhere in learning (model loading, extraction, the unit)
            time.sleep(rng.uniform(0.0, 2.0))
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            killed += 1
        p.wait(timeout=60)
        _learn_pending(data)
        got = _memory(data)
        # what was heard may differ between runs: names already learned are hints to the transcriber, and a
        # statement is learned as soon as it is replied to ("called Biscuit" or "called biscuit"). The memory must
        # be what learning the same words once, uninterrupted, gives
        clean = _ingested_afresh(data, tmp_path / f"clean{run}" / "data")
        assert got["turns"] == reference["turns"] and got["arcs"] == clean["arcs"], f"voice run {run}"
    assert killed >= 1


def _ingested_afresh(data: Path, fresh: Path) -> dict[str, object]:
    """The user's turns stored in ``data`` learned once, uninterrupted, by `ingest` into ``fresh``."""
    from datetime import UTC, datetime

    db = sqlite3.connect(data / "transcripts.sqlite3")
    rows = db.execute("SELECT conversation_id, at, text FROM turns WHERE speaker = 'user' ORDER BY at").fetchall()
    db.close()
    fresh.parent.mkdir(parents=True)
    src = fresh.parent / "heard.jsonl"
    src.write_text("".join(json.dumps({"conversation": c, "speaker": "user", "text": t,
                                       "at": datetime.fromtimestamp(at, UTC).isoformat()}) + "\n"
                           for c, at, t in rows))
    (fresh.parent / "voice.yaml").write_text(DOWN)
    p = subprocess.run([sys.executable, "-m", "assistant", "--config", str(fresh.parent / "voice.yaml"),
                        "--data-dir", str(fresh), "ingest", str(src), "--no-llm"], capture_output=True, timeout=300)
    assert p.returncode == 0, p.stderr.decode()
    return _memory(fresh)
