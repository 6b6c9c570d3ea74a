"""Drives the state machine with real stages: source → wake → VAD → STT → pipeline → streamed TTS → sink."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from assistant.loop.machine import (
    Action,
    AnswerDone,
    Failed,
    LoopMachine,
    PlaybackDone,
    SpeechStarted,
    State,
    Tick,
    Transcribed,
    UtteranceEnded,
    Wake,
)
from assistant.pipeline import Pipeline
from audio.errors import AudioError
from audio.protocols import AudioSink, AudioSource, Pcm, Synthesizer, Transcriber, WakeDetector
from audio.sentences import SentenceSplitter
from audio.vad import Endpointer, NoSpeech, SpeechStart, Utterance
from memory.errors import MemoryStoreError
from memory.transcripts import TranscriptStore, Turn


@dataclass
class TurnRecord:
    """One user turn and the reply, with each stage's share of the latency (ms)."""

    heard: str
    answer: str = ""
    timings_ms: dict[str, float] = field(default_factory=dict)
    error: str | None = None


class VoiceLoop:
    """One instance per run; ``on_turn`` and ``on_end`` let the CLI print and learn."""

    def __init__(self, *, pipeline: Pipeline, transcriber: Transcriber, synthesizer: Synthesizer, sink: AudioSink,
                 machine: LoopMachine, transcripts: TranscriptStore, clock: Callable[[], datetime],
                 names: Callable[[], Sequence[str]] = list, learn: Callable[[str], Any] | None = None,
                 wake: WakeDetector | None = None, endpointer: Endpointer | None = None,
                 end_silence_s: float = 0.5, on_turn: Callable[[TurnRecord], None] | None = None,
                 conversation_prefix: str = "voice") -> None:
        self.pipeline, self.stt, self.tts, self.sink = pipeline, transcriber, synthesizer, sink
        self.machine, self.transcripts, self.clock = machine, transcripts, clock
        self.names, self.learn, self.wake, self.endpointer = names, learn, wake, endpointer
        self.end_silence_s, self.on_turn = end_silence_s, on_turn
        self.prefix = conversation_prefix
        self._conv_ids: dict[int, str] = {}
        self._started = clock()
        self._learners: list[threading.Thread] = []
        self.records: list[TurnRecord] = []

    # -- conversation bookkeeping ---------------------------------------------------------------
    def conversation_id(self, n: int) -> str:
        if n not in self._conv_ids:
            self._conv_ids[n] = f"{self.prefix}-{self.clock().strftime('%Y%m%dT%H%M%S')}-{n}"
        return self._conv_ids[n]

    def end_conversation(self, n: int, *, background: bool = True) -> None:
        """The transcript is already written turn by turn; learning runs without blocking the next wake-up."""
        cid = self._conv_ids.get(n)
        if cid is None or self.learn is None:
            return
        if not background:
            self.learn(cid)
            return
        th = threading.Thread(target=self._learn_safely, args=(cid,), name=f"learn-{cid}", daemon=True)
        th.start()
        self._learners.append(th)

    def _learn_safely(self, cid: str) -> None:
        try:
            assert self.learn is not None
            self.learn(cid)
        except Exception as e:  # learning failures are reported, never fatal to the loop
            print(f"learning from {cid} failed: {e}")

    def wait_for_learning(self, timeout: float | None = None) -> None:
        for th in self._learners:
            th.join(timeout)

    # -- one turn -------------------------------------------------------------------------------
    def respond(self, pcm: Pcm, *, conversation: int, speech_end_s: float = 0.0,
                at: datetime | None = None) -> TurnRecord:
        """STT → recall/answer (streamed) → TTS sentence by sentence → sink. Never raises for a bad turn."""
        t_end = time.perf_counter()
        rec = TurnRecord("")
        now = at or self.clock()
        timings = rec.timings_ms
        timings["vad_tail"] = round(self.end_silence_s * 1000, 1)
        try:
            heard = self.stt.transcribe(pcm, initial_prompt=None, hotwords=list(self.names()))
        except AudioError as e:
            rec.error = f"I couldn't transcribe that ({e.message})."
            return self._fail(rec, conversation)
        timings["stt"] = _ms(t_end)
        rec.heard = heard.text.strip()
        self.machine.handle(Transcribed(self._t(), rec.heard))
        if not rec.heard:
            rec.error = "I didn't catch anything."
            return rec
        cid = self.conversation_id(conversation)
        try:
            pieces, ans = self.pipeline.stream(rec.heard, now=now)
            timings["recall"] = _ms(t_end) - timings["stt"]
            first_audio, spoken = self._speak(pieces, timings, t_end)
        except (MemoryStoreError, AudioError) as e:
            rec.error = f"something went wrong ({getattr(e, 'message', e)})."
            return self._fail(rec, conversation)
        rec.answer = ans.text or spoken
        if "llm_first_token" in ans.timings_ms:
            timings["llm_first_token"] = ans.timings_ms["llm_first_token"]
        if first_audio is not None:
            timings["first_audio"] = first_audio
            timings["end_of_speech_to_first_audio"] = round(first_audio + timings["vad_tail"], 1)
        timings["total"] = _ms(t_end)
        self.machine.handle(AnswerDone(self._t()))
        t_user = now - timedelta(seconds=max(0.0, len(pcm) / 16000 - speech_end_s))
        self.transcripts.add_turns([
            Turn(cid, min(t_user, now), "user", rec.heard, timings={k: v for k, v in timings.items()}),
            Turn(cid, now + timedelta(milliseconds=max(1.0, timings["total"])), "assistant", rec.answer),
        ], source="voice")
        self.records.append(rec)
        if self.on_turn:
            self.on_turn(rec)
        return rec

    def _speak(self, pieces: Iterator[str], timings: dict[str, float], t_end: float) -> tuple[float | None, str]:
        """Synthesise and play each sentence as soon as the stream completes it; (first audio ms, text)."""
        splitter = SentenceSplitter()
        first: float | None = None
        spoken: list[str] = []

        def say(sentence: str) -> None:
            nonlocal first
            t0 = time.perf_counter()
            for chunk in self.tts.synthesize(sentence):
                if first is None:
                    timings["first_sentence_tts"] = _ms(t0)
                    first = _ms(t_end)
                self.sink.play(chunk.pcm, chunk.sample_rate)
            spoken.append(sentence)

        for piece in pieces:
            for sentence in splitter.push(piece):
                say(sentence)
        for sentence in splitter.flush():
            say(sentence)
        return first, " ".join(spoken)

    def _fail(self, rec: TurnRecord, conversation: int) -> TurnRecord:
        for a in self.machine.handle(Failed(self._t(), "turn", rec.error or "something went wrong.")):
            self._say(a.text)
        self.records.append(rec)
        if self.on_turn:
            self.on_turn(rec)
        return rec

    def _say(self, text: str) -> None:
        try:
            for chunk in self.tts.synthesize(text):
                self.sink.play(chunk.pcm, chunk.sample_rate)
        except AudioError:
            pass  # nothing more we can do out loud; the message is in the turn record

    def _t(self) -> float:
        return (self.clock() - self._started).total_seconds()

    # -- the live loop (microphone, or a WAV stream paced in real time) -------------------------
    def run(self, source: AudioSource, *, should_stop: Callable[[], bool] = lambda: False,
            on_tick: Callable[[], None] | None = None) -> None:
        assert self.wake is not None and self.endpointer is not None
        frame_s = source.frame_samples / source.sample_rate
        t = 0.0
        for frame in source.frames():
            t += frame_s
            if should_stop():
                break
            state = self.machine.state
            if state in (State.IDLE, State.SPEAKING, State.FOLLOW_UP):
                ev = self.wake.process(frame, t)
                if ev is not None:
                    self._dispatch(self.machine.handle(Wake(t)), t)
                    self.endpointer.reset(t)
                    continue
            if self.machine.state == State.SPEAKING and not getattr(self.sink, "playing", False):
                self.machine.handle(PlaybackDone(t))
                self.endpointer.reset(t)
            if self.machine.state in (State.LISTENING, State.FOLLOW_UP) or (
                    self.machine.state == State.IDLE and self.machine.activation == "always"):
                for vev in self.endpointer.push(frame):
                    if isinstance(vev, SpeechStart):
                        self._dispatch(self.machine.handle(SpeechStarted(t)), t)
                    elif isinstance(vev, Utterance) and self.machine.state == State.LISTENING:
                        for a in self.machine.handle(UtteranceEnded(t)):
                            if a.kind == "transcribe":
                                self.respond(vev.pcm, conversation=a.conversation)
                                if not getattr(self.sink, "playing", False):
                                    self.machine.handle(PlaybackDone(t))
                                self.endpointer.reset(t)
                    elif isinstance(vev, NoSpeech):
                        pass
            self._dispatch(self.machine.handle(Tick(t)), t)
            if on_tick:
                on_tick()
        self._dispatch(self.machine.shutdown(t), t)

    def _dispatch(self, actions: list[Action], t: float) -> None:
        for a in actions:
            if a.kind == "stop_playback":
                self.sink.stop()
            elif a.kind == "end_conversation":
                self.end_conversation(a.conversation)
            elif a.kind == "say":
                self._say(a.text)


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 1)
