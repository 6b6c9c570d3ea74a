"""Builds the voice loop's parts from settings (audio stages are loaded late: they are heavy)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from assistant.compose import Hearth
from assistant.loop.machine import LoopMachine
from assistant.loop.runner import VoiceLoop, chime_pcm
from audio.protocols import AudioSink
from memory import queries as Q


def salient_names(app: Hearth) -> Callable[[], Sequence[str]]:
    """The most mentioned names in memory, to bias speech recognition toward them."""
    n = app.settings.audio.name_hints

    def names() -> list[str]:
        if n == 0:
            return []
        return [r["name"] for r in app.store.read(Q.SALIENT_NAMES, {"limit": n})]

    return names


def build_loop(app: Hearth, sink: AudioSink, *, live: bool, on_turn: Any = None) -> VoiceLoop:
    from audio.stt import WhisperTranscriber
    from audio.tts import PiperSynthesizer
    from audio.vad import Endpointer, SegmenterConfig, SileroVad
    from audio.wakeword import create_wake_detector

    a = app.settings.audio
    stt = WhisperTranscriber(a.stt_model, beam_size=a.stt_beam_size)
    tts = PiperSynthesizer(Path(a.voice) if a.voice else None)
    stt.load()
    tts.load()
    machine = LoopMachine(activation="wake_word" if live and a.activation == "wake_word" else "always",
                          follow_up_s=a.follow_up_s, conversation_timeout_s=a.conversation_timeout_s,
                          max_utterance_s=a.max_utterance_s, listen_timeout_s=a.listen_timeout_s,
                          speculative=live and a.speculate_after_s is not None)
    wake = endpointer = None
    if live:
        kind = {"wake_word": a.wake_word, "push_to_talk": "push_to_talk", "always": "always"}[a.activation]
        wake = create_wake_detector(kind, refractory_s=a.refractory_s)
        endpointer = Endpointer(SileroVad(), SegmenterConfig(
            end_silence_s=a.end_silence_s, pause_s=a.speculate_after_s, pre_roll_s=a.pre_roll_s,
            max_utterance_s=None,  # the machine owns the length limit (it asks the endpointer to cut)
            threshold=a.vad_threshold, neg_threshold=max(0.05, a.vad_threshold - 0.15)))

    app.pipeline.warm_up()  # start the model and cache its prompt prefix before the first question

    def learn(cid: str) -> None:
        app.learner().learn(cid)

    def learn_told(cid: str) -> None:  # mid-conversation: older facts are checked when the conversation ends
        app.learner().learn(cid, check=False)

    if app.transcripts.pending_conversations():  # left unlearned by a crash or a kill: learned beside the loop
        import threading

        threading.Thread(target=lambda: app.learner().learn_pending(), name="learn-pending", daemon=True).start()

    return VoiceLoop(pipeline=app.pipeline, transcriber=stt, synthesizer=tts, sink=sink, machine=machine,
                     transcripts=app.transcripts, clock=app.clock, names=salient_names(app), learn=learn,
                     learn_told=learn_told,
                     wake=wake, endpointer=endpointer, end_silence_s=a.end_silence_s, on_turn=on_turn,
                     chime=chime_pcm() if live and a.chime else None)
