"""Voice-loop state machine: events with timestamps in, actions out; no clock, no audio, no threads.

The machine is the only owner of decisions: when to listen, when an utterance is over (the endpointer
reports speech; the machine owns the limits), when to start early, when to give up and go back to waiting
for the wake word. The runner reports what happened and carries out every action it is given.

Liveness: from any state the machine gets back to one where the wake word is heard (``hears_wake``) within
a bounded time, whatever the events: only THINKING does not hear it, and it ends after ``think_timeout_s``
if no result ever comes. LISTENING also ends after ``listen_timeout_s`` without speech or
``max_utterance_s`` of it; SPEAKING (barge-in) after ``max_speaking_s`` if playback never reports done.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal


class State(StrEnum):
    IDLE = "idle"  # waiting for the wake word (or Enter, or any speech when always listening)
    LISTENING = "listening"  # the user is speaking; waiting for the end of the utterance
    THINKING = "thinking"  # transcribing, recalling, generating
    SPEAKING = "speaking"  # playing the answer (half duplex: nothing is transcribed)
    FOLLOW_UP = "follow_up"  # answered; listening a while without the wake word


Activation = Literal["wake_word", "push_to_talk", "always"]


# --- events -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Wake:
    t: float


@dataclass(frozen=True)
class SpeechStarted:
    t: float


@dataclass(frozen=True)
class SpeechPaused:
    """A short silence: the utterance may be over (a cue to start early, not an end)."""

    t: float


@dataclass(frozen=True)
class SpeechResumed:
    t: float


@dataclass(frozen=True)
class UtteranceEnded:
    t: float


@dataclass(frozen=True)
class Transcribed:
    t: float
    text: str


@dataclass(frozen=True)
class AnswerDone:
    """The answer was generated (it may still be playing)."""

    t: float


@dataclass(frozen=True)
class PlaybackDone:
    t: float


@dataclass(frozen=True)
class Failed:
    t: float
    stage: str
    message: str


@dataclass(frozen=True)
class Tick:
    t: float


Event = (Wake | SpeechStarted | SpeechPaused | SpeechResumed | UtteranceEnded | Transcribed | AnswerDone
         | PlaybackDone | Failed | Tick)


# --- actions ----------------------------------------------------------------------------------
ActionKind = Literal[
    "listen",  # start a fresh capture: the endpointer starts over, early work is dropped
    "stop_listening",  # give up the capture (nothing usable was said): same as listen, then wait for the wake word
    "speculate",  # start transcribing and answering the audio so far, in the background
    "drop_speculation",  # the early start is stale: cancel it
    "transcribe",  # the utterance is over (or cut): transcribe it and report Transcribed or Failed
    "answer",  # recall, generate and speak; report AnswerDone or Failed
    "stop_playback",
    "say",  # speak ``text`` (an apology): no recall, no transcript
    "end_conversation",  # the conversation is over: learn from it
    "chime",  # the wake word was heard
]


@dataclass(frozen=True)
class Action:
    kind: ActionKind
    text: str = ""
    conversation: int = 0


def kinds(actions: list[Action]) -> list[ActionKind]:
    return [a.kind for a in actions]


@dataclass
class LoopMachine:
    activation: Activation = "wake_word"
    follow_up_s: float = 6.0
    conversation_timeout_s: float = 60.0
    max_utterance_s: float = 20.0  # speech longer than this is cut and answered
    listen_timeout_s: float = 5.0  # a wake word followed by no speech goes back to waiting this soon
    think_timeout_s: float = 120.0  # a turn whose result never comes is abandoned (a runner bug, a hung stage)
    max_speaking_s: float = 300.0  # playback that never reports done is stopped
    speculative: bool = True  # start turns on a pause (SpeechPaused), dropped if speech resumes
    state: State = State.IDLE
    conversation: int = 0  # 0 = none open; otherwise a counter the runner maps to a transcript id
    last_activity: float = 0.0
    state_since: float = 0.0
    speech_since: float | None = None  # when speech began in this LISTENING (None: none yet)
    follow_up_until: float = 0.0
    cut: bool = False  # the utterance being handled hit max_utterance_s (likely noise): no follow-up after it
    log: deque[tuple[float, State]] = field(default_factory=lambda: deque(maxlen=256))
    opened: int = 0  # conversations opened so far

    # -- what the runner feeds: derived from the state, never re-derived by the runner -------------
    @property
    def hears_wake(self) -> bool:
        """Frames go to the wake-word detector: always but while a turn is being worked out. While speaking
        it is barge-in; while listening it restarts a capture that heard only noise or background speech."""
        if self.state == State.LISTENING:  # an always-listening "detector" fires on every frame
            return self.activation != "always"
        return self.state != State.THINKING

    @property
    def hears_speech(self) -> bool:
        """Frames go to the endpointer."""
        return self.state in (State.LISTENING, State.FOLLOW_UP) or (
            self.state == State.IDLE and self.activation == "always")

    # -- transitions --------------------------------------------------------------------------------
    def _go(self, t: float, s: State) -> None:
        self.state, self.state_since = s, t
        self.log.append((t, s))

    def _open(self, t: float) -> None:
        if self.conversation == 0:
            self.opened += 1
            self.conversation = self.opened
        self.last_activity = t

    def _close(self) -> list[Action]:
        if self.conversation == 0:
            return []
        c, self.conversation = self.conversation, 0
        return [Action("end_conversation", conversation=c)]

    def _listen(self, t: float, *, speech: bool) -> None:
        self._go(t, State.LISTENING)
        self.speech_since = t if speech else None
        self.cut = False

    def _back(self, t: float, *, fresh_follow_up: bool = False) -> None:
        """After a turn: listen for a follow-up while its window is open, else wait for the wake word."""
        if fresh_follow_up and not self.cut:
            self.follow_up_until = t + self.follow_up_s
        self.speech_since = None
        open_window = self.conversation and t < self.follow_up_until and not self.cut
        self._go(t, State.FOLLOW_UP if open_window else State.IDLE)

    def handle(self, ev: Event) -> list[Action]:
        s = self.state
        if isinstance(ev, Tick):
            return self._timeouts(ev.t)
        if isinstance(ev, Failed):
            if s not in (State.THINKING, State.SPEAKING):
                return []  # a stale report from a turn already given up
            # one bad turn never kills the loop: say what went wrong, then listen again
            self.last_activity = ev.t
            self._back(ev.t, fresh_follow_up=True)
            return [Action("say", f"Sorry, {ev.message}", self.conversation), Action("listen")]
        if isinstance(ev, Wake):
            if s == State.THINKING or (s == State.LISTENING and self.activation == "always"):
                return []
            self._open(ev.t)
            self._listen(ev.t, speech=False)
            barge = [Action("stop_playback")] if s == State.SPEAKING else []
            return [*barge, Action("chime"), Action("listen")]
        if isinstance(ev, SpeechStarted):
            if s == State.FOLLOW_UP or (s == State.IDLE and self.activation == "always"):
                self._open(ev.t)
                self._listen(ev.t, speech=True)  # the endpointer is already capturing this speech
            elif s == State.LISTENING:
                self.speech_since = ev.t if self.speech_since is None else self.speech_since
                self.last_activity = ev.t
            return []
        if isinstance(ev, SpeechPaused):
            return [Action("speculate")] if s == State.LISTENING and self.speculative else []
        if isinstance(ev, SpeechResumed):
            return [Action("drop_speculation")] if s == State.LISTENING else []
        if isinstance(ev, UtteranceEnded):
            if s != State.LISTENING:
                return []
            self._go(ev.t, State.THINKING)
            self.last_activity = ev.t
            return [Action("transcribe", conversation=self.conversation)]
        if isinstance(ev, Transcribed):
            if s != State.THINKING:
                return []
            if not ev.text.strip():  # heard nothing usable: don't answer; the follow-up window is not renewed
                self._back(ev.t)
                return [Action("listen")]
            self.last_activity = ev.t
            return [Action("answer", ev.text, self.conversation)]
        if isinstance(ev, AnswerDone):
            if s == State.THINKING:
                self._go(ev.t, State.SPEAKING)
            return []
        if isinstance(ev, PlaybackDone):
            if s in (State.SPEAKING, State.THINKING):
                self.last_activity = ev.t
                self._back(ev.t, fresh_follow_up=True)
                return [Action("listen")]
            return []
        return []

    def _timeouts(self, t: float) -> list[Action]:
        s, since = self.state, t - self.state_since
        if s == State.LISTENING:
            if self.speech_since is None and since > self.listen_timeout_s:
                self._back(t)  # woken, then silence (or nothing the VAD calls speech)
                return [Action("stop_listening")]
            if self.speech_since is not None and t - self.speech_since > self.max_utterance_s:
                self._go(t, State.THINKING)  # very long speech (or steady noise): cut it, answer what was said
                self.cut = True
                self.last_activity = t
                return [Action("transcribe", conversation=self.conversation)]
            return []
        if s == State.THINKING and since > self.think_timeout_s:
            self._back(t)
            return [Action("drop_speculation"), Action("stop_listening")]
        if s == State.SPEAKING and since > self.max_speaking_s:
            self._back(t, fresh_follow_up=True)
            return [Action("stop_playback"), Action("listen")]
        if s == State.FOLLOW_UP and t >= self.follow_up_until:
            self._go(t, State.IDLE)
        if self.state == State.IDLE and self.conversation and t - self.last_activity > self.conversation_timeout_s:
            return self._close()
        return []

    def shutdown(self, t: float) -> list[Action]:
        self._go(t, State.IDLE)
        return [Action("drop_speculation"), *self._close()]
