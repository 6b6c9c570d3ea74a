"""Voice-loop state machine: events with timestamps in, actions out; no clock, no audio, no threads."""

from __future__ import annotations

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


Event = Wake | SpeechStarted | UtteranceEnded | Transcribed | AnswerDone | PlaybackDone | Failed | Tick


# --- actions ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Action:
    kind: Literal["listen", "transcribe", "answer", "stop_playback", "say", "end_conversation", "chime"]
    text: str = ""
    conversation: int = 0


@dataclass
class LoopMachine:
    activation: Activation = "wake_word"
    follow_up_s: float = 6.0
    conversation_timeout_s: float = 60.0
    max_utterance_s: float = 20.0
    state: State = State.IDLE
    conversation: int = 0  # 0 = none open; otherwise a counter the runner maps to a transcript id
    last_activity: float = 0.0
    state_since: float = 0.0
    log: list[tuple[float, State]] = field(default_factory=list)
    opened: int = 0  # conversations opened so far

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

    def handle(self, ev: Event) -> list[Action]:
        s = self.state
        if isinstance(ev, Failed):
            # one bad turn never kills the loop: say what went wrong and go back to waiting
            self._go(ev.t, State.FOLLOW_UP if self.conversation else State.IDLE)
            self.last_activity = ev.t
            return [Action("say", f"Sorry, {ev.message}", self.conversation)]
        if isinstance(ev, Wake):
            if s == State.SPEAKING:  # barge-in
                self._open(ev.t)
                self._go(ev.t, State.LISTENING)
                return [Action("stop_playback"), Action("chime"), Action("listen")]
            if s in (State.IDLE, State.FOLLOW_UP):
                self._open(ev.t)
                self._go(ev.t, State.LISTENING)
                return [Action("chime"), Action("listen")]
            return []
        if isinstance(ev, SpeechStarted):
            if s == State.FOLLOW_UP or (s == State.IDLE and self.activation == "always"):
                self._open(ev.t)
                self._go(ev.t, State.LISTENING)
                return [Action("listen")]
            if s == State.LISTENING:
                self.last_activity = ev.t
            return []
        if isinstance(ev, UtteranceEnded):
            if s == State.LISTENING:
                self._go(ev.t, State.THINKING)
                self.last_activity = ev.t
                return [Action("transcribe", conversation=self.conversation)]
            return []
        if isinstance(ev, Transcribed):
            if s != State.THINKING:
                return []
            if not ev.text.strip():  # heard nothing usable: don't answer, keep listening a while
                self._go(ev.t, State.FOLLOW_UP if self.conversation else State.IDLE)
                return []
            self.last_activity = ev.t
            return [Action("answer", ev.text, self.conversation)]
        if isinstance(ev, AnswerDone):
            if s == State.THINKING:
                self._go(ev.t, State.SPEAKING)
            return []
        if isinstance(ev, PlaybackDone):
            if s in (State.SPEAKING, State.THINKING):
                self._go(ev.t, State.FOLLOW_UP)
                self.last_activity = ev.t
            return []
        if isinstance(ev, Tick):
            return self._timeouts(ev.t)
        return []

    def _timeouts(self, t: float) -> list[Action]:
        s = self.state
        if s == State.LISTENING and t - self.state_since > self.max_utterance_s:
            self._go(t, State.THINKING)  # very long speech: cut it and answer what was said
            return [Action("transcribe", conversation=self.conversation)]
        if s == State.FOLLOW_UP and t - self.state_since > self.follow_up_s:
            self._go(t, State.IDLE)
        if self.state == State.IDLE and self.conversation and t - self.last_activity > self.conversation_timeout_s:
            return self._close()
        return []

    def shutdown(self, t: float) -> list[Action]:
        self._go(t, State.IDLE)
        return self._close()
