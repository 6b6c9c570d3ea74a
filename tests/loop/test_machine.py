"""State-machine table tests: timestamped events in, states and actions out — no audio, no sleeps."""

from __future__ import annotations

import pytest

from assistant.loop.machine import (
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
    kinds,
)


def test_full_turn_then_follow_up_then_idle_then_conversation_ends() -> None:
    m = LoopMachine(follow_up_s=6, conversation_timeout_s=60)
    assert kinds(m.handle(Wake(1.0))) == ["chime", "listen"] and m.state == State.LISTENING
    assert m.handle(SpeechStarted(1.2)) == []
    assert kinds(m.handle(UtteranceEnded(3.0))) == ["transcribe"] and m.state == State.THINKING
    [a] = m.handle(Transcribed(3.5, "Where does Anna live?"))
    assert a.kind == "answer" and a.text == "Where does Anna live?" and a.conversation == 1
    m.handle(AnswerDone(4.0))
    assert m.state == State.SPEAKING
    assert kinds(m.handle(PlaybackDone(6.0))) == ["listen"]  # a fresh capture for the follow-up
    assert m.state == State.FOLLOW_UP
    assert m.handle(Tick(11.0)) == [] and m.state == State.FOLLOW_UP
    assert m.handle(Tick(12.5)) == [] and m.state == State.IDLE
    assert m.handle(Tick(60.0)) == []  # still within the conversation timeout
    [end] = m.handle(Tick(66.5))
    assert end.kind == "end_conversation" and end.conversation == 1 and m.conversation == 0


def test_follow_up_needs_no_wake_word_and_keeps_the_conversation() -> None:
    m = LoopMachine()
    m.handle(Wake(0))
    m.handle(SpeechStarted(0.5))
    m.handle(UtteranceEnded(2))
    m.handle(Transcribed(2.5, "hi"))
    m.handle(PlaybackDone(4))
    assert m.handle(SpeechStarted(5)) == [] and m.state == State.LISTENING  # the capture already runs
    m.handle(UtteranceEnded(7))
    [a] = m.handle(Transcribed(7.5, "and then?"))
    assert a.conversation == 1


def test_speech_when_idle_is_ignored_with_a_wake_word_but_not_when_always_listening() -> None:
    m = LoopMachine(activation="wake_word")
    assert m.handle(SpeechStarted(1)) == [] and m.state == State.IDLE
    m = LoopMachine(activation="always")
    m.handle(SpeechStarted(1))
    assert m.state == State.LISTENING and m.conversation == 1


def test_barge_in_stops_playback() -> None:
    m = LoopMachine()
    m.handle(Wake(0))
    m.handle(UtteranceEnded(2))
    m.handle(Transcribed(2.5, "tell me a long story"))
    m.handle(AnswerDone(3))
    assert m.hears_wake
    assert kinds(m.handle(Wake(4))) == ["stop_playback", "chime", "listen"]
    assert m.state == State.LISTENING and m.conversation == 1


def test_half_duplex_no_listening_while_speaking() -> None:
    m = LoopMachine()
    m.handle(Wake(0))
    m.handle(UtteranceEnded(2))
    m.handle(Transcribed(2.5, "q"))
    m.handle(AnswerDone(3))
    assert not m.hears_speech
    assert m.handle(SpeechStarted(3.5)) == [] and m.state == State.SPEAKING  # our own voice


def test_empty_transcript_does_not_answer_nor_renew_the_follow_up_window() -> None:
    m = LoopMachine(follow_up_s=6)
    m.handle(Wake(0))
    m.handle(UtteranceEnded(1))
    assert kinds(m.handle(Transcribed(1.5, "  "))) == ["listen"] and m.state == State.IDLE  # no window yet
    m.handle(Wake(2))
    m.handle(UtteranceEnded(3))
    m.handle(Transcribed(3, "q"))
    m.handle(PlaybackDone(4))  # follow-up until 10
    for t in (5.0, 7.0, 9.0):  # noise bursts heard as nothing
        m.handle(SpeechStarted(t))
        m.handle(UtteranceEnded(t + 0.5))
        m.handle(Transcribed(t + 0.6, ""))
    assert m.state == State.FOLLOW_UP
    m.handle(Tick(10.1))
    assert m.state == State.IDLE  # the window closed when the answer's window did


def test_failure_is_said_and_the_loop_goes_on() -> None:
    m = LoopMachine()
    m.handle(Wake(0))
    m.handle(UtteranceEnded(1))
    acts = m.handle(Failed(1.2, "stt", "I couldn't hear that."))
    assert kinds(acts) == ["say", "listen"] and "couldn't hear" in acts[0].text
    assert m.state == State.FOLLOW_UP
    m.handle(SpeechStarted(2))
    assert m.state == State.LISTENING


def test_a_stale_failure_is_ignored() -> None:
    m = LoopMachine()
    assert m.handle(Failed(1, "answer", "late")) == [] and m.state == State.IDLE


def test_a_wake_word_during_a_capture_of_noise_starts_a_fresh_one() -> None:
    m = LoopMachine()
    m.handle(Wake(0))
    m.handle(SpeechStarted(0.5))  # the television
    assert m.hears_wake and kinds(m.handle(Wake(8))) == ["chime", "listen"]
    assert m.state == State.LISTENING and m.speech_since is None and m.state_since == 8
    m.handle(UtteranceEnded(9))
    assert not m.hears_wake and m.handle(Wake(9.2)) == []  # nothing interrupts a turn being worked out


def test_wake_then_silence_goes_back_to_waiting_for_the_wake_word() -> None:
    m = LoopMachine(listen_timeout_s=5, max_utterance_s=20)
    m.handle(Wake(1))
    assert m.handle(Tick(5.9)) == [] and m.state == State.LISTENING
    assert kinds(m.handle(Tick(6.1))) == ["stop_listening"] and m.state == State.IDLE and m.hears_wake
    assert kinds(m.handle(Wake(30))) == ["chime", "listen"]  # the real wake word later is heard


def test_very_long_speech_is_cut_and_no_follow_up_after_it() -> None:
    m = LoopMachine(max_utterance_s=20, listen_timeout_s=5)
    m.handle(Wake(0))
    m.handle(SpeechStarted(1))
    assert m.handle(Tick(10)) == []
    assert kinds(m.handle(Tick(21.5))) == ["transcribe"] and m.state == State.THINKING and m.cut
    m.handle(Transcribed(22, "noise noise"))
    m.handle(AnswerDone(22.5))
    m.handle(PlaybackDone(23))
    assert m.state == State.IDLE  # steady noise cannot keep the loop in follow-up turns


def test_speculation_is_decided_by_the_machine() -> None:
    m = LoopMachine(speculative=True)
    m.handle(Wake(0))
    m.handle(SpeechStarted(0.2))
    assert kinds(m.handle(SpeechPaused(1.0))) == ["speculate"]
    assert kinds(m.handle(SpeechResumed(1.2))) == ["drop_speculation"]
    assert LoopMachine(speculative=False).handle(SpeechPaused(1.0)) == []


def test_a_turn_whose_result_never_comes_is_abandoned() -> None:
    m = LoopMachine(think_timeout_s=30)
    m.handle(Wake(0))
    m.handle(UtteranceEnded(1))
    assert m.handle(Tick(30)) == []
    assert kinds(m.handle(Tick(31.5))) == ["drop_speculation", "stop_listening"] and m.hears_wake
    assert m.handle(Transcribed(40, "late")) == []  # the late result is stale


def test_playback_that_never_ends_is_stopped() -> None:
    m = LoopMachine(max_speaking_s=60)
    m.handle(Wake(0))
    m.handle(UtteranceEnded(1))
    m.handle(Transcribed(1, "q"))
    m.handle(AnswerDone(2))
    assert kinds(m.handle(Tick(62.5))) == ["stop_playback", "listen"] and m.state == State.FOLLOW_UP


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


def test_shutdown_drops_early_work_and_ends_the_conversation() -> None:
    m = LoopMachine()
    m.handle(Wake(0))
    assert kinds(m.shutdown(1)) == ["drop_speculation", "end_conversation"] and m.state == State.IDLE


@pytest.mark.parametrize("events", [
    [Wake(0)],
    [Wake(0), SpeechStarted(0.1)],
    [Wake(0), SpeechStarted(0.1), UtteranceEnded(1)],
    [Wake(0), SpeechStarted(0.1), UtteranceEnded(1), Transcribed(1, "q")],
    [Wake(0), SpeechStarted(0.1), UtteranceEnded(1), Transcribed(1, "q"), AnswerDone(1)],
    [SpeechStarted(0)],
])
def test_every_state_gets_back_to_hearing_the_wake_word_with_ticks_alone(events: list[Event]) -> None:
    for activation in ("wake_word", "always"):
        m = LoopMachine(activation=activation, listen_timeout_s=5, max_utterance_s=20, think_timeout_s=30,
                        max_speaking_s=60, follow_up_s=6)  # type: ignore[arg-type]
        for ev in events:
            m.handle(ev)
        t = 1.0
        while not (m.hears_wake and m.state in (State.IDLE, State.FOLLOW_UP, State.SPEAKING)) and t < 200:
            t += 0.032
            m.handle(Tick(t))
        bound = max(5, 20, 30, 60) + 1.1
        assert m.hears_wake and t <= bound, (activation, events, m.state, t)
