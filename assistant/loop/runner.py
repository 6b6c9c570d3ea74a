"""Carries out the state machine's actions with real stages: source → wake → VAD → STT → pipeline → TTS → sink.

The runner decides nothing: it turns what the audio stages observe into events for ``LoopMachine`` and
performs every action the machine returns (an action's outcome, such as a transcript or a failure, is fed
back as the next event). What is heard, what is transcribed and what is said is therefore always what the
machine decided, and the machine's liveness (see machine.py) is the loop's.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from assistant.answer import is_question
from assistant.loop.machine import (
    Action,
    AnswerDone,
    Event,
    Failed,
    LoopMachine,
    PlaybackDone,
    SpeechPaused,
    SpeechResumed,
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
from audio.protocols import SAMPLE_RATE, AudioSink, AudioSource, Pcm, Synthesizer, Transcriber, WakeDetector
from audio.sentences import SentenceSplitter
from audio.vad import Endpointer, Partial, Resume, SpeechStart, Utterance, VadEvent
from memory.errors import MemoryStoreError
from memory.llm import Message
from memory.transcripts import TranscriptStore, Turn

log = logging.getLogger(__name__)


@dataclass
class TurnRecord:
    """One user turn and the reply, with each stage's share of the latency (ms).

    ``heard_at_s``: stream time the user stopped speaking; ``answered_at_s``: stream time the reply's first
    audio played (the endpoint plus the measured latency, so it reads the same in accelerated runs).
    """

    heard: str
    answer: str = ""
    timings_ms: dict[str, float] = field(default_factory=dict)
    error: str | None = None
    heard_at_s: float = 0.0
    answered_at_s: float | None = None
    conversation: str = ""


@dataclass
class _Turn:
    """A turn between its ``transcribe`` and its ``answer`` action."""

    record: TurnRecord
    prepared: Prepared
    now: datetime
    speech_ended_at: float  # perf_counter() time the user stopped speaking
    user_idx: int | None = None  # the user's turn in the transcript store


def chime_pcm(sample_rate: int = SAMPLE_RATE) -> Pcm:
    """A short, soft two-tone earcon: the wake word was heard."""
    parts = []
    for hz in (660.0, 880.0):
        n = int(0.07 * sample_rate)
        x = np.sin(2 * np.pi * hz * np.arange(n) / sample_rate) * np.hanning(n) * 0.15
        parts.append((x * 32767).astype(np.int16))
    return np.concatenate(parts)


class VoiceLoop:
    """One instance per run; ``on_turn`` and ``learn`` let the CLI print and learn."""

    def __init__(self, *, pipeline: Pipeline, transcriber: Transcriber, synthesizer: Synthesizer, sink: AudioSink,
                 machine: LoopMachine, transcripts: TranscriptStore, clock: Callable[[], datetime],
                 names: Callable[[], Sequence[str]] = list, learn: Callable[[str], Any] | None = None,
                 wake: WakeDetector | None = None, endpointer: Endpointer | None = None,
                 end_silence_s: float = 0.5, on_turn: Callable[[TurnRecord], None] | None = None,
                 conversation_prefix: str = "voice", chime: Pcm | None = None, keep_records: int = 256,
                 learn_told: Callable[[str], Any] | None = None) -> None:
        self.pipeline, self.stt, self.tts, self.sink = pipeline, transcriber, synthesizer, sink
        self.machine, self.transcripts, self.clock = machine, transcripts, clock
        self.names, self.learn, self.wake, self.endpointer = names, learn, wake, endpointer
        # what was just told, learned mid-conversation (default: as at the end; the app leaves out the model's
        # check of older facts here, so the next question does not wait behind it on the model server)
        self.learn_told = learn_told or learn
        self.end_silence_s, self.on_turn = end_silence_s, on_turn
        self.prefix, self.chime = conversation_prefix, chime
        self.speculation_stats = {"started": 0, "used": 0, "dropped": 0}
        self.records: deque[TurnRecord] = deque(maxlen=keep_records)  # the latest turns (a run may last months)
        self._conv_ids: dict[int, str] = {}
        # the conversation so far, for follow-ups ("and where does she work?"): last exchanges, per conversation
        self._history: dict[str, list[Message]] = {}
        self._current: str | None = None
        self._started = clock()
        self._learners: list[threading.Thread] = []
        self._learning = threading.Lock()  # one learning pass at a time: each takes the turns not learned yet
        # what the stages observed, kept for the action that uses it
        self._utterance: Utterance | None = None
        self._partial: Partial | None = None
        self._spec: Speculation | None = None
        self._stale: Speculation | None = None  # the last dropped one, possibly still transcribing
        self._turn: _Turn | None = None
        self._done: TurnRecord | None = None  # a finished turn, published when its actions are done
        self._arrivals: deque[tuple[float, float]] = deque(maxlen=256)  # (stream t, perf_counter at arrival)

    @property
    def speculative(self) -> bool:
        return self.machine.speculative

    # -- conversation bookkeeping ---------------------------------------------------------------
    def conversation_id(self, n: int) -> str:
        if n not in self._conv_ids:
            self._conv_ids[n] = f"{self.prefix}-{self.clock().strftime('%Y%m%dT%H%M%S')}-{n}"
        return self._conv_ids[n]

    def end_conversation(self, n: int, *, background: bool = True) -> None:
        """The transcript is already written turn by turn; learning runs without blocking the next wake-up."""
        cid = self._conv_ids.pop(n, None)
        if cid is not None:
            self._history.pop(cid, None)
            if self._current == cid:
                self._current = None
        if cid is None or self.learn is None:
            return
        if not background:
            with self._learning:
                self.learn(cid)
            return
        self._learn_in_background(cid)

    def _learn_in_background(self, cid: str, *, told: bool = False) -> None:
        self._learners = [th for th in self._learners if th.is_alive()]
        th = threading.Thread(target=self._learn_safely, args=(cid, told), name=f"learn-{cid}", daemon=True)
        th.start()
        self._learners.append(th)

    def _learn_safely(self, cid: str, told: bool = False) -> None:
        try:
            learn = self.learn_told if told else self.learn
            assert learn is not None
            with self._learning:
                learn(cid)
        except Exception as e:  # learning failures are reported, never fatal to the loop
            log.exception("learning from %s failed", cid)
            print(f"learning from {cid} failed: {e}")

    def wait_for_learning(self, timeout: float | None = None) -> None:
        for th in self._learners:
            th.join(timeout)

    # -- the stages a turn goes through ---------------------------------------------------------
    def prepare(self, pcm: Pcm, now: datetime, *, start_answer: bool = True) -> Prepared:
        """STT, then (``start_answer``) recall and the answer's stream, unstarted. Raises on failure."""
        t0 = time.perf_counter()
        heard = self.stt.transcribe(pcm, initial_prompt=None, hotwords=list(self.names())).text.strip()
        timings = {"stt": _ms(t0)}
        if not heard or not start_answer:
            return Prepared(heard, iter(()), None, timings)
        history = self._history.get(self._current, []) if self._current else []
        pieces, ans = self.pipeline.stream(heard, now=now, history=list(history))
        timings["recall"] = ans.timings_ms.get("recall", 0.0)
        return Prepared(heard, pieces, ans, timings)

    def speculate(self, pcm: Pcm, end: float, at: datetime | None = None,
                  after: Speculation | None = None) -> Speculation:
        """Start ``prepare`` on the audio so far, in the background (see assistant.loop.speculate)."""
        now = at or self.clock()
        self.speculation_stats["started"] += 1
        return Speculation(pcm, end, lambda audio: self.prepare(audio, now), after=after)

    # -- events in, actions out ------------------------------------------------------------------
    def handle(self, ev: Event, t: float) -> None:
        """Feed one event to the machine and carry out what it decides, including the events that follow."""
        todo = deque(self.machine.handle(ev))
        while todo:
            follow = self._perform(todo.popleft(), t)
            if follow is not None:
                todo.extend(self.machine.handle(follow))
        done, self._done = self._done, None
        if done is not None:  # published once everything its outcome caused (an apology, say) was done
            self.records.append(done)
            if self.on_turn:
                try:
                    self.on_turn(done)
                except Exception:
                    log.exception("on_turn callback failed")

    def _perform(self, a: Action, t: float) -> Event | None:
        k = a.kind
        if k in ("listen", "stop_listening"):
            self._drop()
            self._utterance = self._partial = None
            if self.endpointer is not None:
                self.endpointer.reset(t)
            if self.wake is not None:  # its window still holds the phrase it fired on: it would fire again
                self.wake.reset()
        elif k == "chime":
            if self.chime is not None:
                self._play(self.chime)
        elif k == "speculate":
            if self._partial is not None:
                self._drop()
                self._spec = self.speculate(self._partial.pcm, self._partial.end, after=self._stale)
        elif k == "drop_speculation":
            self._drop()
        elif k == "transcribe":
            return self._transcribe(a.conversation, t)
        elif k == "answer":
            return self._answer(a.text, a.conversation, t)
        elif k == "stop_playback":
            self.sink.stop()
        elif k == "say":
            self._say(a.text)
        elif k == "end_conversation":
            self.end_conversation(a.conversation)
        return None

    def _drop(self) -> None:
        if self._spec is not None:
            self._spec.cancel()  # without waiting: the user is talking and frames keep coming
            self.speculation_stats["dropped"] += 1
            self._stale, self._spec = self._spec, None

    def _transcribe(self, conversation: int, t: float) -> Event:
        utt, self._utterance = self._utterance, None
        if utt is None and self.endpointer is not None:
            utt = self.endpointer.cut()  # the machine's length limit, not the endpointer's
        if self._spec is not None and (utt is None or utt.reason != "silence" or self._spec.end != utt.end):
            self._drop()  # it was started on a pause of another (shorter) utterance
        spec, self._spec = self._spec, None
        if spec is None and self._stale is not None:
            self._stale.wait_prepared()  # one STT at a time on a small CPU
        if utt is None or not len(utt.pcm):
            return Transcribed(t, "")  # nothing was captured: nothing to hear
        pcm, end = utt.pcm, utt.end
        ended_at = self._wall_at(end) if self._arrivals else time.perf_counter() - self.end_silence_s
        rec = TurnRecord("", heard_at_s=round(end, 3), conversation=self.conversation_id(conversation))
        rec.timings_ms["vad_tail"] = round((time.perf_counter() - ended_at) * 1000, 1)
        now = self.clock()
        try:
            if spec is not None:
                self.speculation_stats["used"] += 1
                rec.timings_ms["speculative"] = 1.0
                prep = spec.take()
            else:
                prep = self.prepare(pcm, now, start_answer=False)
        except Exception as e:  # a speculative start also ran recall: say which stage failed
            stt = isinstance(e, AudioError) or spec is None
            return self._failed(rec, t, "stt" if stt else "recall", e,
                                "I couldn't transcribe that" if stt else "something went wrong")
        rec.timings_ms.update(prep.timings_ms)
        rec.heard = prep.heard
        if prep.heard:
            t_user = now - timedelta(seconds=len(pcm) / SAMPLE_RATE)
            try:  # written when heard, before answering
                stored = self.transcripts.add_turns([Turn(rec.conversation, t_user, "user", prep.heard)],
                                                    source="voice")
            except Exception as e:
                return self._failed(rec, t, "transcripts", e, "I couldn't store that")
            self._turn = _Turn(rec, prep, now, ended_at, stored[0].idx if stored else None)
        return Transcribed(t, prep.heard)

    def _answer(self, text: str, conversation: int, t: float) -> Event:
        turn, self._turn = self._turn, None
        if turn is None or turn.record.heard != text:  # a turn given to the machine by hand (tests, tools)
            now = self.clock()
            rec = TurnRecord(text, conversation=self.conversation_id(conversation))
            turn = _Turn(rec, Prepared(text, iter(()), None, {}), now, time.perf_counter())
        rec, timings = turn.record, turn.record.timings_ms
        try:
            pieces, ans = turn.prepared.pieces, turn.prepared.answer
            if ans is None:  # not started early: recall and start the answer now
                history = list(self._history.get(rec.conversation, []))
                pieces, ans = self.pipeline.stream(text, now=turn.now, history=history)
                timings["recall"] = ans.timings_ms.get("recall", 0.0)
            first_audio, spoken = self._speak(pieces, timings, turn.speech_ended_at)
        except Exception as e:
            return self._failed(rec, t, "answer", e, "something went wrong")
        rec.answer = ans.text or spoken
        self._current = rec.conversation
        past = self._history.setdefault(rec.conversation, [])
        past += [{"role": "user", "content": text}, {"role": "assistant", "content": rec.answer}]
        del past[:-4]
        if "llm_first_token" in ans.timings_ms:  # the model's own share: from its request to its first token
            timings["llm_first_token"] = round(ans.timings_ms["llm_first_token"] - timings.get("recall", 0.0), 1)
        if first_audio is not None:
            timings["end_of_speech_to_first_audio"] = first_audio
            timings["first_audio"] = round(first_audio - timings.get("vad_tail", 0.0), 1)  # after the endpoint
            rec.answered_at_s = round(rec.heard_at_s + first_audio / 1000, 3)
        timings["total"] = _ms(turn.speech_ended_at)
        try:
            self.transcripts.add_turns([
                Turn(rec.conversation, turn.now + timedelta(milliseconds=max(1.0, timings["total"])), "assistant",
                     rec.answer)], source="voice")
            if turn.user_idx is not None:
                self.transcripts.set_timings(rec.conversation, turn.user_idx, dict(timings))
        except Exception:  # the answer was said; a failed write is logged, the turn is not failed twice
            log.exception("could not store the reply of %s", rec.conversation)
        if self.learn is not None and not is_question(text):
            # told something: learned now, beside the loop, so the next question knows it ("I've stopped going to
            # the food bank", then "Where do I volunteer?"); the conversation's end learns whatever is left
            self._learn_in_background(rec.conversation, told=True)
        self._done = rec
        return AnswerDone(t)

    def _failed(self, rec: TurnRecord, t: float, stage: str, e: BaseException, default: str) -> Event:
        if isinstance(e, AudioError | MemoryStoreError):
            rec.error = f"{default} ({e.message})."
        else:  # an unexpected error: logged with its traceback, the loop goes on
            log.error("voice turn failed in %s", stage, exc_info=e)
            rec.error = f"{default} ({type(e).__name__})."
        self._done = rec
        return Failed(t, stage, rec.error)

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

        try:
            for piece in pieces:
                for sentence in splitter.push(piece):
                    say(sentence)
            for sentence in splitter.flush():
                say(sentence)
        finally:
            close = getattr(pieces, "close", None)
            if close is not None:
                close()  # a failed turn stops the model's stream too
        return first, " ".join(spoken)

    def _say(self, text: str) -> None:
        try:
            for chunk in self.tts.synthesize(text):
                self.sink.play(chunk.pcm, chunk.sample_rate)
        except Exception:  # nothing more we can do out loud; the message is in the turn record
            log.warning("could not say %r", text, exc_info=True)

    def _play(self, pcm: Pcm) -> None:
        try:
            self.sink.play(pcm, SAMPLE_RATE)
        except Exception:
            log.warning("could not play the chime", exc_info=True)

    def _playing(self) -> bool:
        try:
            return bool(getattr(self.sink, "playing", False))
        except Exception:
            return False

    def _wall_at(self, ts: float) -> float:
        """When the frame holding stream time ``ts`` arrived (for a microphone: when it was spoken)."""
        return next((w for te, w in self._arrivals if te >= ts - 1e-9), time.perf_counter())

    # -- input: a pre-cut utterance (a WAV turn), or the live stream ------------------------------
    def submit(self, pcm: Pcm, t: float) -> TurnRecord | None:
        """One utterance that was cut beforehand, at stream time ``t``: woken, heard, answered, as the live
        path would; returns its record (None if nothing was heard)."""
        n = len(self.records)
        end = t + len(pcm) / SAMPLE_RATE
        self.handle(Wake(t), t)
        self.handle(SpeechStarted(t), t)
        self._utterance = Utterance(pcm, t, end, "silence")
        self.handle(UtteranceEnded(end), end)
        if self.machine.state == State.SPEAKING and not self._playing():
            self.handle(PlaybackDone(end), end)
        return self.records[-1] if len(self.records) > n else None

    def run(self, source: AudioSource, *, should_stop: Callable[[], bool] = lambda: False,
            on_tick: Callable[[], None] | None = None) -> None:
        """The live loop (microphone, or a recording): frames in until the source ends or ``should_stop``."""
        assert self.wake is not None and self.endpointer is not None
        frame_s = source.frame_samples / source.sample_rate
        t = 0.0
        self.endpointer.reset(t)
        self._arrivals.clear()  # stream time starts again at 0: an earlier run's arrivals would map onto it
        try:
            for frame in source.frames():
                t += frame_s
                self._arrivals.append((t, time.perf_counter()))
                if should_stop():
                    break
                self.step(frame, t)
                if on_tick:
                    on_tick()
        finally:
            self.handle_shutdown(t)

    def step(self, frame: Pcm, t: float) -> None:
        """One frame at stream time ``t`` (its end): observe, report, act."""
        m = self.machine
        assert self.wake is not None and self.endpointer is not None
        if m.hears_wake and self.wake.process(frame, t) is not None:
            self.handle(Wake(t), t)
            self.handle(Tick(t), t)
            return
        if m.state == State.SPEAKING and not self._playing():
            self.handle(PlaybackDone(t), t)
        if m.hears_speech:
            for vev in self.endpointer.push(frame):
                ev = self._observe(vev, t)
                if ev is not None:
                    self.handle(ev, t)
        self.handle(Tick(t), t)

    def _observe(self, vev: VadEvent, t: float) -> Event | None:
        if isinstance(vev, SpeechStart):
            return SpeechStarted(t)
        if isinstance(vev, Partial):
            self._partial = vev
            return SpeechPaused(t)
        if isinstance(vev, Resume):
            return SpeechResumed(t)
        if isinstance(vev, Utterance):
            self._utterance = vev
            return UtteranceEnded(t)
        return None  # NoSpeech: the machine keeps its own time

    def handle_shutdown(self, t: float, *, learn_in_background: bool = True) -> None:
        """Drop early work, end the open conversation (learning it), leave nothing running."""
        for a in self.machine.shutdown(t):
            if a.kind == "end_conversation":
                self.end_conversation(a.conversation, background=learn_in_background)
            else:
                self._perform(a, t)
        self._turn = None
        if self._stale is not None:
            self._stale.join()  # stops before the LLM or at its next piece: nothing left running after the loop


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 1)
