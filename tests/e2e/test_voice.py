"""The voice loop end to end on real models and real audio: WAV turns, and the live path from a WAV stream."""

from __future__ import annotations

import json
import wave
from pathlib import Path

import numpy as np
import pytest

from assistant.cli import main
from tests.cli_support import DOWN

pytestmark = pytest.mark.slow



@pytest.fixture(scope="module")
def voice():  # type: ignore[no-untyped-def]
    from audio.tts import PiperSynthesizer

    return PiperSynthesizer(seed=11)


def speak(voice, text: str) -> tuple[np.ndarray, int]:  # type: ignore[no-untyped-def]
    chunks = list(voice.synthesize(text))
    return np.concatenate([c.pcm for c in chunks]), chunks[0].sample_rate


def _trimmed(pcm: np.ndarray) -> np.ndarray:
    """Piper's audio without its leading and trailing silence, so gaps between phrases are what we say."""
    loud = np.flatnonzero(np.abs(pcm.astype(np.int32)) > 0.02 * np.abs(pcm).max())
    return pcm[loud[0]: loud[-1] + 1]


def setup_memory(tmp_path: Path) -> tuple[Path, Path]:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(DOWN)
    data = tmp_path / "d"
    for args in (["Anna", "sister_of", "user"], ["Anna", "lives_in", "Porto"]):
        assert main(["--config", str(cfg), "--data-dir", str(data), "memory", "add", *args]) == 0
    return cfg, data


def test_run_wav_reports_bad_files_and_answers_the_good_one(tmp_path: Path, voice, capsys) -> None:  # type: ignore[no-untyped-def]
    from audio.wav import read_wav, write_wav

    cfg, data = setup_memory(tmp_path)
    capsys.readouterr()
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"RIFF\x10\x00\x00\x00WAVEjunkjunkjunk")
    empty = tmp_path / "empty.wav"
    with wave.open(str(empty), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
    good = tmp_path / "q.wav"
    write_wav(good, *speak(voice, "Where does my sister live?"))
    out = tmp_path / "out"
    code = main(["--config", str(cfg), "--data-dir", str(data), "run", "--wav", str(bad), str(empty), str(good),
                 "--out-dir", str(out), "--json"])
    o, err = capsys.readouterr()
    assert code == 0
    assert "bad.wav" in err and "empty.wav" in err
    [rec] = json.loads(o)
    assert "sister" in rec["heard"].lower() and "Porto" in rec["answer"]
    assert rec["timings_ms"]["stt"] > 0 and rec["timings_ms"]["end_of_speech_to_first_audio"] > 0
    reply = read_wav(out / "reply-03.wav")
    assert len(reply) / 16000 > 0.8  # a spoken sentence, not silence
    assert float(np.abs(reply.astype(np.float32)).mean()) > 100
    # the conversation was written to the transcript store
    assert main(["--config", str(cfg), "--data-dir", str(data), "transcripts", "--json"]) == 0
    [conv] = json.loads(capsys.readouterr().out)
    assert conv["turns"] == 2


def test_live_path_wake_word_then_question_from_a_wav_stream(tmp_path: Path, voice) -> None:  # type: ignore[no-untyped-def]
    from assistant.compose import Hearth
    from assistant.settings import load_settings
    from assistant.voice import build_loop
    from audio.wav import ArraySource, MemorySink, to_mono_16k

    cfg, data = setup_memory(tmp_path)
    app = Hearth(load_settings(cfg), data)
    try:
        sink = MemorySink()
        loop = build_loop(app, sink, live=True)
        wake, r1 = speak(voice, "Hey Jarvis.")
        q, r2 = speak(voice, "Where does Anna live?")
        silence = np.zeros(int(16000 * 1.2), dtype=np.int16)
        stream = np.concatenate([silence, to_mono_16k(wake, r1), silence[: 16000 // 2], to_mono_16k(q, r2),
                                 silence, silence])
        loop.run(ArraySource(stream))
        assert len(loop.records) == 1, [r.heard for r in loop.records]
        assert "anna" in loop.records[0].heard.lower() and "Porto" in loop.records[0].answer
        assert sink.chunks and sum(len(p) for p, _ in sink.chunks) > 10_000  # the answer was spoken
        assert loop.speculation_stats["used"] == 1  # started on the pause, taken over at the endpoint
        loop.wait_for_learning(timeout=60)
    finally:
        app.close()


def test_a_pause_mid_question_drops_the_early_start_and_answers_the_whole_question(  # type: ignore[no-untyped-def]
        tmp_path: Path, voice) -> None:
    from assistant.compose import Hearth
    from assistant.settings import load_settings
    from assistant.voice import build_loop
    from audio.wav import ArraySource, MemorySink, to_mono_16k

    cfg, data = setup_memory(tmp_path)
    cfg.write_text(DOWN + "audio:\n  activation: always\n  speculate_after_s: 0.1\n  end_silence_s: 0.7\n")
    app = Hearth(load_settings(cfg), data)
    try:
        loop = build_loop(app, MemorySink(), live=True)
        loop.learn = None
        head, tail = (_trimmed(to_mono_16k(*speak(voice, t))) for t in ("Where does Anna", "live now?"))
        gap = np.zeros(int(16000 * 0.35), dtype=np.int16)  # longer than the pause, shorter than the end
        stream = np.concatenate([gap, head, gap, tail, np.zeros(16000 * 2, dtype=np.int16)])
        loop.run(ArraySource(stream, realtime=True))
        assert [r.heard.lower().count("live") for r in loop.records] == [1], [r.heard for r in loop.records]
        assert "Porto" in loop.records[0].answer
        stats = loop.speculation_stats
        assert stats["dropped"] >= 1 and stats["used"] == 1, stats
    finally:
        app.close()


def test_run_stream_a_silent_wake_gives_up_and_the_next_wake_is_answered(  # type: ignore[no-untyped-def]
        tmp_path: Path, voice, capsys) -> None:
    """`assistant run --stream`: one recording through wake word, VAD and endpointing, faster than real time."""
    from audio.wav import to_mono_16k, write_wav

    cfg, data = setup_memory(tmp_path)
    cfg.write_text(DOWN + "audio:\n  listen_timeout_s: 3.0\n")
    wake = to_mono_16k(*speak(voice, "Hey Jarvis."))
    q = to_mono_16k(*speak(voice, "Where does Anna live?"))
    gap = np.zeros(16000, dtype=np.int16)
    # a wake word followed by 8 s of silence, then a wake word and a question
    stream = np.concatenate([gap, wake, gap * 0, np.zeros(16000 * 8, dtype=np.int16), wake, gap[:8000], q,
                             gap, gap])
    rec = tmp_path / "session.wav"
    write_wav(rec, stream)
    out = tmp_path / "replies"
    capsys.readouterr()
    code = main(["--config", str(cfg), "--data-dir", str(data), "run", "--stream", str(rec), "--out-dir", str(out),
                 "--json"])
    o, err = capsys.readouterr()
    assert code == 0, err
    [turn] = json.loads(o)
    assert "anna" in turn["heard"].lower() and "Porto" in turn["answer"]
    q_end = (len(stream) - 2 * 16000) / 16000  # the question ends 2 s before the recording does
    assert q_end - 1.0 < turn["heard_at_s"] <= q_end + 0.1
    assert turn["answered_at_s"] > turn["heard_at_s"]
    assert Path(turn["reply"]).is_file()
    assert main(["--config", str(cfg), "--data-dir", str(data), "run", "--stream", str(tmp_path / "nope.wav")]) == 2
