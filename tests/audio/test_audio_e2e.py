"""End to end on the real bundled models: piper speaks, whisper/VAD/wake word listen."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from audio.protocols import SpeechChunk, Synthesizer, Transcriber
from audio.stt import WhisperTranscriber
from audio.tts import PiperSynthesizer, synthesize_stream
from audio.vad import Endpointer, SegmenterConfig, SileroVad, SpeechStart, Utterance
from audio.wakeword import MicroWakeWordDetector
from audio.wav import WavSink, WavSource, read_wav

pytestmark = pytest.mark.slow
RATE = 16_000
Speak = Callable[..., np.ndarray]


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def silence(seconds: float) -> np.ndarray:
    return np.zeros(int(seconds * RATE), dtype=np.int16)


def noise(seconds: float, level: float = 300.0, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, level, int(seconds * RATE)).astype(np.int16)


def test_piper_to_wav_to_whisper(
    piper: PiperSynthesizer, whisper: WhisperTranscriber, tmp_path: Path
) -> None:
    assert isinstance(piper, Synthesizer) and isinstance(whisper, Transcriber)
    sentence = "Please turn off the lights in the kitchen."
    path = tmp_path / "spoken.wav"
    with WavSink(path) as sink:
        for chunk in piper.synthesize(sentence):
            sink.play(chunk.pcm, chunk.sample_rate)
    assert sink.sample_rate == 22050
    pcm = read_wav(path)
    result = whisper.transcribe(pcm)
    expected, heard = words(sentence), words(result.text)
    hits = sum(1 for w in expected if w in heard)
    assert hits >= len(expected) - 1, result.text
    assert result.audio_s == pytest.approx(len(pcm) / RATE) and 0 < result.elapsed_s < 10


def test_piper_yields_one_chunk_per_sentence(piper: PiperSynthesizer) -> None:
    chunks = list(piper.synthesize("Hello there. How are you today? **Fine**, thanks!"))
    assert [c.text for c in chunks] == ["Hello there.", "How are you today?", "Fine, thanks!"]
    assert all(c.sample_rate == 22050 and c.pcm.dtype == np.int16 and c.duration_s > 0.3 for c in chunks)


def test_streamed_llm_text_is_spoken_sentence_by_sentence(piper: PiperSynthesizer) -> None:
    deltas = ["Anna moved", " to Berlin", " in May. She", " likes it", " there."]
    seen: list[SpeechChunk] = []
    for chunk in synthesize_stream(piper, iter(deltas)):
        seen.append(chunk)
    assert [c.text for c in seen] == ["Anna moved to Berlin in May.", "She likes it there."]


def test_names_passed_as_bias_are_spelled_right(speak: Speak, whisper: WhisperTranscriber) -> None:
    pcm = speak("Is Priya still my manager?")
    biased = whisper.transcribe(pcm, hotwords=["Priya", "Anna", "Okafor"])
    assert "priya" in words(biased.text) and "manager" in words(biased.text), biased.text


def _wake_times(audio: np.ndarray, model: str = "hey_jarvis") -> list[float]:
    det = MicroWakeWordDetector(model)
    fired = []
    for i in range(0, len(audio) - 511, 512):
        ev = det.process(audio[i : i + 512], (i + 512) / RATE)
        if ev is not None:
            fired.append(ev.at)
    return fired


def test_wake_phrase_fires_once_near_its_end(speak: Speak) -> None:
    phrase = speak("Hey Jarvis.")
    audio = np.concatenate([noise(1.0), phrase, noise(1.0, seed=1)])
    fired = _wake_times(audio)
    assert len(fired) == 1, fired
    assert 1.0 + 0.3 < fired[0] < 1.0 + len(phrase) / RATE + 0.5


def test_other_wake_model_is_selectable(speak: Speak) -> None:
    audio = np.concatenate([silence(0.5), speak("Okay Nabu."), silence(0.5)])
    assert len(_wake_times(audio, "okay_nabu")) == 1
    assert _wake_times(audio, "hey_jarvis") == []


def test_ordinary_speech_does_not_wake(speak: Speak) -> None:
    audio = np.concatenate(
        [
            speak("Where does my sister Anna live now? I think she moved to Berlin last year."),
            noise(2.0, level=1000),
        ]
    )
    assert _wake_times(audio) == []


def test_silero_finds_utterance_end_in_padded_speech(speak: Speak) -> None:
    phrase = speak("Remind me to call my brother tomorrow morning.")
    audio = np.concatenate([silence(1.0), phrase, silence(1.5)])
    speech_end = 1.0 + len(phrase) / RATE
    ep = Endpointer(SileroVad(), SegmenterConfig(end_silence_s=0.5))
    events: list[tuple[float, object]] = []
    for i in range(0, len(audio), 512):
        events += [(ep.time, e) for e in ep.push(audio[i : i + 512])]
    kinds = [type(e) for _, e in events]
    assert kinds == [SpeechStart, Utterance], events
    (_, start), (emitted_at, utt) = events
    assert isinstance(start, SpeechStart) and isinstance(utt, Utterance)
    assert start.at == pytest.approx(1.0, abs=0.25)
    assert speech_end - 0.4 < utt.end <= speech_end + 0.1
    assert emitted_at == pytest.approx(utt.end + 0.5, abs=0.07)


def test_silero_ignores_noise_and_silence() -> None:
    ep = Endpointer(SileroVad())
    audio = np.concatenate([silence(1.0), noise(2.0, level=800), silence(1.0)])
    assert not [e for i in range(0, len(audio), 512) for e in ep.push(audio[i : i + 512])]


def test_wav_source_wake_then_question(speak: Speak, whisper: WhisperTranscriber, tmp_path: Path) -> None:
    """A tiny listening loop: wake word, then endpoint the question, then transcribe with name bias."""
    from audio.wav import write_wav

    audio = np.concatenate(
        [silence(0.5), speak("Hey Jarvis."), silence(0.4), speak("Is Priya still my manager?")]
    )
    path = write_wav(tmp_path / "session.wav", audio)
    wake, ep = MicroWakeWordDetector(), Endpointer(SileroVad())
    awake, texts, t = False, [], 0.0
    for frame in WavSource(path, pad_silence_s=1.0).frames():
        t += len(frame) / RATE
        if not awake:
            ev = wake.process(frame, t)
            if ev is not None:
                awake = True
                ep.reset(origin=t)
            continue
        for e in ep.push(frame):
            if isinstance(e, Utterance):
                texts.append(whisper.transcribe(e.pcm, hotwords=["Priya"]).text)
                awake = False
    assert len(texts) == 1 and "priya" in words(texts[0]) and "jarvis" not in words(texts[0]), texts
