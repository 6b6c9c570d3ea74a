"""The loop's speculative path with fakes at every boundary: a bad turn is reported and the next one answered."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from assistant.loop.machine import LoopMachine
from assistant.loop.runner import VoiceLoop
from assistant.pipeline import Answer
from audio.errors import AudioModelError
from audio.protocols import SpeechChunk, Transcript
from audio.vad import Endpointer, SegmenterConfig
from audio.wakeword import AlwaysListening
from audio.wav import ArraySource, MemorySink
from memory.transcripts import TranscriptStore

T0 = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)


class Loudness:
    frame_samples = 512

    def probability(self, frame: np.ndarray) -> float:
        return 1.0 if np.abs(frame).max() > 1000 else 0.0

    def reset(self) -> None: ...


class FlakySTT:
    """Fails on the first utterance (a broken model call), hears a question on the next."""

    def __init__(self) -> None:
        self.calls = 0

    def transcribe(self, pcm: np.ndarray, *, hotwords: Sequence[str] = (),
                   initial_prompt: str | None = None) -> Transcript:
        self.calls += 1
        if self.calls == 1:
            raise AudioModelError("stt.failed", "transcription failed: model crashed")
        return Transcript("where does anna live", len(pcm) / 16000, 0.01)


class Voice:
    def __init__(self) -> None:
        self.said: list[str] = []

    def synthesize(self, text: str) -> Iterator[SpeechChunk]:
        self.said.append(text)
        yield SpeechChunk(np.full(1600, 100, dtype=np.int16), 16000, text)


class Answers:
    def stream(self, question: str, *, now: datetime, history: Any = None) -> tuple[Iterator[str], Answer]:
        return iter(["Anna lives ", "in Porto."]), Answer(question, "", None)


def test_a_failed_speculative_turn_is_reported_and_the_next_is_answered(tmp_path: Path) -> None:
    speech = np.full(16000, 5000, dtype=np.int16)
    quiet = np.zeros(16000, dtype=np.int16)
    voice, stt = Voice(), FlakySTT()
    loop = VoiceLoop(pipeline=Answers(), transcriber=stt, synthesizer=voice,  # type: ignore[arg-type]
                     sink=MemorySink(), machine=LoopMachine(activation="always"),
                     transcripts=TranscriptStore(tmp_path / "t.sqlite3"), clock=lambda: T0,
                     wake=AlwaysListening(), endpointer=Endpointer(Loudness(), SegmenterConfig(
                         end_silence_s=0.5, pause_s=0.1)))
    loop.run(ArraySource(np.concatenate([quiet, speech, quiet, quiet, speech, quiet, quiet])))
    assert [r.error is not None for r in loop.records] == [True, False]
    assert "model crashed" in (loop.records[0].error or "")
    assert any(s.startswith("Sorry") for s in voice.said)  # said out loud, then listening again
    assert loop.records[1].answer == "Anna lives in Porto."
    assert loop.speculation_stats == {"started": 2, "used": 2, "dropped": 0}
    [conv] = loop.transcripts.conversations()
    stored = loop.transcripts.conversation(conv["id"])
    assert stored is not None  # the good turn reached the transcript store
    assert [(t.speaker, t.text) for t in stored.turns] == [
        ("user", "where does anna live"), ("assistant", "Anna lives in Porto.")]


class RecordingAnswers:
    def __init__(self) -> None:
        self.histories: list[list[Any]] = []

    def stream(self, question: str, *, now: datetime, history: Any = None) -> tuple[Iterator[str], Answer]:
        self.histories.append(list(history or []))
        return iter([f"Answer to {question}."]), Answer(question, "", None)


def test_a_follow_up_is_answered_with_the_conversation_so_far(tmp_path: Path) -> None:
    speech = np.full(16000, 5000, dtype=np.int16)
    answers, stt = RecordingAnswers(), FlakySTT()
    stt.calls = 1  # past its failing first call
    loop = VoiceLoop(pipeline=answers, transcriber=stt, synthesizer=Voice(),  # type: ignore[arg-type]
                     sink=MemorySink(), machine=LoopMachine(activation="always"),
                     transcripts=TranscriptStore(tmp_path / "t.sqlite3"), clock=lambda: T0)
    first = loop.submit(speech, 0.0)
    second = loop.submit(speech, 3.0)  # within the follow-up window: the same conversation
    assert first is not None and second is not None and first.conversation == second.conversation
    assert answers.histories[-1][-2:] == [{"role": "user", "content": first.heard},
                                          {"role": "assistant", "content": first.answer}]
    loop.handle_shutdown(10.0, learn_in_background=False)
    third = loop.submit(speech, 100.0)  # a new conversation starts with nothing carried over
    assert third is not None and third.conversation != first.conversation and answers.histories[-1] == []


def test_a_second_run_times_its_turns_by_its_own_frames(tmp_path: Path) -> None:
    """Each run's stream time starts at 0: the end of speech is put at the wall time its frame came in this run,
    not at a frame of the same stream time in an earlier run (a microphone reopened, a benchmark's runs)."""
    speech = np.full(16000, 5000, dtype=np.int16)
    quiet = np.zeros(16000, dtype=np.int16)
    stt = FlakySTT()
    stt.calls = 1  # past its failing first call
    loop = VoiceLoop(pipeline=Answers(), transcriber=stt, synthesizer=Voice(),  # type: ignore[arg-type]
                     sink=MemorySink(), machine=LoopMachine(activation="always"),
                     transcripts=TranscriptStore(tmp_path / "t.sqlite3"), clock=lambda: T0,
                     wake=AlwaysListening(), endpointer=Endpointer(Loudness(), SegmenterConfig(
                         end_silence_s=0.5, pause_s=0.1)))
    for _ in range(2):
        loop.run(ArraySource(np.concatenate([quiet, speech, quiet])))
        time.sleep(1.0)  # the same stream times come again a second later
    assert len(loop.records) == 2 and all(r.error is None for r in loop.records)
    # the frames come as fast as they are read: from the end of speech to the endpoint is no second
    assert loop.records[1].timings_ms["vad_tail"] < 500


class HeardInTurn:
    """Hears each utterance as the next of ``said``."""

    def __init__(self, said: list[str]) -> None:
        self.said = said

    def transcribe(self, pcm: np.ndarray, *, hotwords: Sequence[str] = (),
                   initial_prompt: str | None = None) -> Transcript:
        return Transcript(self.said.pop(0), len(pcm) / 16000, 0.01)


def test_a_statement_is_learned_before_the_conversation_ends(tmp_path: Path) -> None:
    """"I've stopped going to the food bank", then "Where do I volunteer?": the statement is learned once it is
    replied to (beside the loop), a question is not; the conversation's end learns what is left."""
    speech = np.full(16000, 5000, dtype=np.int16)
    learned: list[str] = []
    loop = VoiceLoop(pipeline=RecordingAnswers(), synthesizer=Voice(),  # type: ignore[arg-type]
                     transcriber=HeardInTurn(["I've stopped going to the food bank.", "Where do I volunteer?"]),
                     sink=MemorySink(), machine=LoopMachine(activation="always"),
                     transcripts=TranscriptStore(tmp_path / "t.sqlite3"), clock=lambda: T0, learn=learned.append)
    told = loop.submit(speech, 0.0)
    loop.wait_for_learning(timeout=10)
    assert told is not None and learned == [told.conversation]
    loop.submit(speech, 3.0)  # a question: nothing new to learn
    loop.wait_for_learning(timeout=10)
    assert learned == [told.conversation]
    loop.handle_shutdown(10.0, learn_in_background=False)
    assert learned == [told.conversation, told.conversation]


def test_a_statement_mid_conversation_is_learned_the_told_way_and_the_end_the_full_way(tmp_path: Path) -> None:
    """With ``learn_told`` (the app's: no check of older facts, which would hold the model server), a statement
    is learned that way; the conversation's end by ``learn``."""
    speech = np.full(16000, 5000, dtype=np.int16)
    full: list[str] = []
    told_only: list[str] = []
    loop = VoiceLoop(pipeline=RecordingAnswers(), synthesizer=Voice(),  # type: ignore[arg-type]
                     transcriber=HeardInTurn(["I've stopped going to the food bank."]),
                     sink=MemorySink(), machine=LoopMachine(activation="always"),
                     transcripts=TranscriptStore(tmp_path / "t.sqlite3"), clock=lambda: T0, learn=full.append,
                     learn_told=told_only.append)
    told = loop.submit(speech, 0.0)
    loop.wait_for_learning(timeout=10)
    assert told is not None and told_only == [told.conversation] and full == []
    loop.handle_shutdown(10.0, learn_in_background=False)
    assert full == [told.conversation] and told_only == [told.conversation]
