"""State-machine table tests: timestamped events in, states and actions out — no audio, no sleeps."""

from __future__ import annotations

from assistant.loop.machine import (
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


def kinds(actions) -> list[str]:
    return [a.kind for a in actions]


def test_full_turn_then_follow_up_then_idle_then_conversation_ends() -> None:
    m = LoopMachine(follow_up_s=6, conversation_timeout_s=60)
    assert kinds(m.handle(Wake(1.0))) == ["chime", "listen"] and m.state == State.LISTENING
    assert m.handle(SpeechStarted(1.2)) == []
    assert kinds(m.handle(UtteranceEnded(3.0))) == ["transcribe"] and m.state == State.THINKING
    [a] = m.handle(Transcribed(3.5, "Where does Anna live?"))
    assert a.kind == "answer" and a.text == "Where does Anna live?" and a.conversation == 1
    m.handle(AnswerDone(4.0))
    assert m.state == State.SPEAKING
    m.handle(PlaybackDone(6.0))
    assert m.state == State.FOLLOW_UP
    assert m.handle(Tick(11.0)) == [] and m.state == State.FOLLOW_UP
    assert m.handle(Tick(12.5)) == [] and m.state == State.IDLE
    assert m.handle(Tick(60.0)) == []  # still within the conversation timeout
    [end] = m.handle(Tick(66.5))
    assert end.kind == "end_conversation" and end.conversation == 1 and m.conversation == 0


def test_follow_up_needs_no_wake_word_and_keeps_the_conversation() -> None:
    m = LoopMachine()
    m.handle(Wake(0))
    m.handle(UtteranceEnded(2))
    m.handle(Transcribed(2.5, "hi"))
    m.handle(PlaybackDone(4))
    assert kinds(m.handle(SpeechStarted(5))) == ["listen"]
    m.handle(UtteranceEnded(7))
    [a] = m.handle(Transcribed(7.5, "and then?"))
    assert a.conversation == 1


def test_speech_when_idle_is_ignored_with_a_wake_word_but_not_when_always_listening() -> None:
    assert LoopMachine(activation="wake_word").handle(SpeechStarted(1)) == []
    m = LoopMachine(activation="always")
    assert kinds(m.handle(SpeechStarted(1))) == ["listen"] and m.state == State.LISTENING


def test_barge_in_stops_playback() -> None:
    m = LoopMachine()
    m.handle(Wake(0))
    m.handle(UtteranceEnded(2))
    m.handle(Transcribed(2.5, "tell me a long story"))
    m.handle(AnswerDone(3))
    assert kinds(m.handle(Wake(4))) == ["stop_playback", "chime", "listen"]
    assert m.state == State.LISTENING and m.conversation == 1


def test_half_duplex_no_listening_while_speaking() -> None:
    m = LoopMachine()
    m.handle(Wake(0))
    m.handle(UtteranceEnded(2))
    m.handle(Transcribed(2.5, "q"))
    m.handle(AnswerDone(3))
    assert m.handle(SpeechStarted(3.5)) == [] and m.state == State.SPEAKING  # our own voice


def test_empty_transcript_does_not_answer() -> None:
    m = LoopMachine()
    m.handle(Wake(0))
    m.handle(UtteranceEnded(1))
    assert m.handle(Transcribed(1.5, "  ")) == [] and m.state == State.FOLLOW_UP


def test_failure_is_said_and_the_loop_goes_on() -> None:
    m = LoopMachine()
    m.handle(Wake(0))
    m.handle(UtteranceEnded(1))
    [a] = m.handle(Failed(1.2, "stt", "I couldn't hear that."))
    assert a.kind == "say" and "couldn't hear" in a.text
    assert m.state == State.FOLLOW_UP
    assert kinds(m.handle(SpeechStarted(2))) == ["listen"]


def test_very_long_speech_is_cut() -> None:
    m = LoopMachine(max_utterance_s=20)
    m.handle(Wake(0))
    assert m.handle(Tick(10)) == []
    assert kinds(m.handle(Tick(20.5))) == ["transcribe"] and m.state == State.THINKING


def test_second_conversation_gets_a_new_number() -> None:
    m = LoopMachine(conversation_timeout_s=10, follow_up_s=1)
    m.handle(Wake(0))
    m.handle(UtteranceEnded(1))
    m.handle(Transcribed(1, "a"))
    m.handle(PlaybackDone(2))
    m.handle(Tick(4))
    assert kinds(m.handle(Tick(13))) == ["end_conversation"]
    m.handle(Wake(20))
    m.handle(UtteranceEnded(21))
    [a] = m.handle(Transcribed(21, "b"))
    assert a.conversation == 2
