"""Drives the state machine with real stages: source → wake → VAD → STT → pipeline → streamed TTS → sink."""

from __future__ import annotations

import threading
import time
from collections import deque
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
from assistant.loop.speculate import Prepared, Speculation
from assistant.pipeline import Pipeline
from audio.errors import AudioError
from audio.protocols import AudioSink, AudioSource, Pcm, Synthesizer, Transcriber, WakeDetector
from audio.sentences import SentenceSplitter
from audio.vad import Endpointer, NoSpeech, Partial, Resume, SpeechStart, Utterance
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
                 conversation_prefix: str = "voice", speculative: bool = True) -> None:
        self.pipeline, self.stt, self.tts, self.sink = pipeline, transcriber, synthesizer, sink
        self.machine, self.transcripts, self.clock = machine, transcripts, clock
        self.names, self.learn, self.wake, self.endpointer = names, learn, wake, endpointer
        self.end_silence_s, self.on_turn = end_silence_s, on_turn
        self.prefix = conversation_prefix
        self.speculative = speculative  # start turns on a pause, before the endpoint (see speculate.py)
        self.speculation_stats = {"started": 0, "used": 0, "dropped": 0}
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
    def prepare(self, pcm: Pcm, now: datetime) -> Prepared:
        """STT, then recall; the answer's pieces are returned unstarted. Raises AudioError/MemoryStoreError."""
        t0 = time.perf_counter()
        heard = self.stt.transcribe(pcm, initial_prompt=None, hotwords=list(self.names())).text.strip()
        timings = {"stt": _ms(t0)}
        if not heard:
            return Prepared("", iter(()), None, timings)
        pieces, ans = self.pipeline.stream(heard, now=now)
        timings["recall"] = ans.timings_ms.get("recall", 0.0)
        return Prepared(heard, pieces, ans, timings)

    def speculate(self, pcm: Pcm, end: float, at: datetime | None = None,
                  after: Speculation | None = None) -> Speculation:
        """Start ``prepare`` on the audio so far, in the background (see assistant.loop.speculate)."""
        now = at or self.clock()
        self.speculation_stats["started"] += 1
        return Speculation(pcm, end, lambda audio: self.prepare(audio, now), after=after)

    def respond(self, pcm: Pcm, *, conversation: int, speech_end_s: float = 0.0, at: datetime | None = None,
                speculation: Speculation | None = None, speech_ended_at: float | None = None) -> TurnRecord:
        """STT → recall/answer (streamed) → TTS sentence by sentence → sink. Never raises for a bad turn.

        ``speculation``: the same turn already started on a pause, taken over instead of starting again.
        ``speech_ended_at``: perf_counter() time the user stopped speaking; by default, ``end_silence_s``
        before this call (the endpointer's wait).
        """
        t_call = time.perf_counter()
        t_end = speech_ended_at if speech_ended_at is not None else t_call - self.end_silence_s
        rec = TurnRecord("")
        now = at or self.clock()
        timings = rec.timings_ms
        timings["vad_tail"] = round((t_call - t_end) * 1000, 1)
        try:
            prep = speculation.take() if speculation is not None else self.prepare(pcm, now)
        except AudioError as e:
            rec.error = f"I couldn't transcribe that ({e.message})."
            return self._fail(rec, conversation)
        except MemoryStoreError as e:
            rec.error = f"something went wrong ({e.message})."
            return self._fail(rec, conversation)
        timings.update(prep.timings_ms)
        if speculation is not None:
            timings["speculative"] = 1.0
        rec.heard = prep.heard
        self.machine.handle(Transcribed(self._t(), rec.heard))
        if not rec.heard:
            rec.error = "I didn't catch anything."
            return rec
        cid = self.conversation_id(conversation)
        ans = prep.answer
        try:
            first_audio, spoken = self._speak(prep.pieces, timings, t_end)
        except (MemoryStoreError, AudioError) as e:
            rec.error = f"something went wrong ({getattr(e, 'message', e)})."
            return self._fail(rec, conversation)
        rec.answer = ans.text or spoken
        if "llm_first_token" in ans.timings_ms:  # the model's own share: from its request to its first token
            timings["llm_first_token"] = round(ans.timings_ms["llm_first_token"] - timings.get("recall", 0.0), 1)
        if first_audio is not None:
            timings["end_of_speech_to_first_audio"] = first_audio
            timings["first_audio"] = round(first_audio - timings["vad_tail"], 1)  # after the endpoint
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
        arrivals: deque[tuple[float, float]] = deque(maxlen=max(8, int(4.0 / frame_s)))  # (stream t, wall)
        spec: Speculation | None = None
        stale: Speculation | None = None  # the last dropped one, possibly still transcribing
        self.endpointer.reset(t)

        def wall_at(ts: float) -> float:
            """When the frame holding stream time ``ts`` arrived (for a microphone: when it was spoken)."""
            return next((w for te, w in arrivals if te >= ts - 1e-9), time.perf_counter())

        def drop() -> None:
            nonlocal spec, stale
            if spec is not None:
                spec.cancel()  # without waiting: the user is talking and frames keep coming
                self.speculation_stats["dropped"] += 1
                stale, spec = spec, None

        for frame in source.frames():
            t += frame_s
            arrivals.append((t, time.perf_counter()))
            if should_stop():
                break
            state = self.machine.state
            if state in (State.IDLE, State.SPEAKING, State.FOLLOW_UP):
                ev = self.wake.process(frame, t)
                if ev is not None:
                    drop()
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
                    elif isinstance(vev, Partial) and self.speculative and self.machine.state == State.LISTENING:
                        drop()
                        spec = self.speculate(vev.pcm, vev.end, after=stale)
                    elif isinstance(vev, Resume):
                        drop()
                    elif isinstance(vev, Utterance) and self.machine.state == State.LISTENING:
                        taken = spec if spec is not None and vev.reason == "silence" and spec.end == vev.end else None
                        if taken is None:
                            drop()
                            if stale is not None:
                                stale.wait_prepared()
                        else:
                            self.speculation_stats["used"] += 1
                        spec = None
                        for a in self.machine.handle(UtteranceEnded(t)):
                            if a.kind == "transcribe":
                                self.respond(vev.pcm, conversation=a.conversation, speculation=taken,
                                             speech_ended_at=wall_at(vev.end))
                                if not getattr(self.sink, "playing", False):
                                    self.machine.handle(PlaybackDone(t))
                                self.endpointer.reset(t)
                    elif isinstance(vev, NoSpeech):
                        pass
            self._dispatch(self.machine.handle(Tick(t)), t)
            if on_tick:
                on_tick()
        drop()
        if stale is not None:
            stale.join()  # stops before the LLM or at its next piece: nothing left running after the loop
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
