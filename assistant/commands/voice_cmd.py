"""`assistant run` (the voice loop: microphone, or WAV files as turns) and `assistant devices`."""

from __future__ import annotations

import argparse
import json
import threading
from pathlib import Path
from typing import Any

from rich.console import Console

from assistant.compose import Hearth
from assistant.loop.machine import PlaybackDone, UtteranceEnded, Wake
from assistant.loop.runner import TurnRecord, VoiceLoop
from audio.errors import AudioError


def register(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser("run", help="the voice loop: wake word, listen, answer aloud, learn afterwards")
    r.add_argument("--wav", nargs="+", metavar="FILE", help="use these files as the user's turns (no microphone)")
    r.add_argument("--out-dir", help="with --wav: write the spoken replies here as WAV files")
    r.add_argument("--input-device", help="microphone name or index (see `assistant devices`)")
    r.add_argument("--output-device", help="speaker name or index")
    r.add_argument("--json", action="store_true", help="with --wav: print turns and timings as JSON")
    r.set_defaults(handler=cmd_run)

    d = sub.add_parser("devices", help="list audio input and output devices")
    d.add_argument("--json", action="store_true")
    d.set_defaults(handler=cmd_devices)


def cmd_devices(app: Hearth, args: argparse.Namespace) -> int:
    from audio.devices import list_devices

    devs = list_devices()
    if args.json:
        print(json.dumps([d.__dict__ | {"extra": None} for d in devs]))
        return 0
    if not devs:
        print("No audio devices found. Use `assistant run --wav FILE...` or `assistant chat`.")
        return 0
    for d in devs:
        kinds = "/".join(k for k, n in (("in", d.max_input_channels), ("out", d.max_output_channels)) if n)
        print(f"{d.index:>3}  {d.name}  ({kinds}, {d.default_samplerate:.0f} Hz)"
              + ("  [default in]" if d.is_default_input else "") + ("  [default out]" if d.is_default_output else ""))
    return 0


def print_turn(con: Console) -> object:
    def show(rec: TurnRecord) -> None:
        if rec.heard:
            con.print(f"[bold]you[/]: {rec.heard}")
        if rec.error:
            con.print(f"[yellow]hearth[/]: Sorry, {rec.error}")
        else:
            t = rec.timings_ms
            con.print(f"[bold]hearth[/]: {rec.answer} [dim](first audio "
                      f"{t.get('end_of_speech_to_first_audio', 0) / 1000:.2f} s after you stopped)[/]")
    return show


def run_wav_turns(app: Hearth, files: list[str], out_dir: Path, con: Console, *, quiet: bool = False) -> VoiceLoop:
    """Each file is one user turn of one conversation, through the real loop; replies are written as WAVs."""
    from audio.wav import WavSink, read_wav

    out_dir.mkdir(parents=True, exist_ok=True)
    sink = _SwitchingSink()
    loop = build_loop_for(app, sink, live=False, on_turn=None if quiet else print_turn(con))
    m = loop.machine
    t = 0.0
    for i, f in enumerate(files, start=1):
        try:
            pcm = read_wav(Path(f))
        except AudioError as e:  # a corrupt or empty file is reported and the next one processed
            con.print(f"[red]{f}[/]: {e.message}")
            continue
        sink.target = WavSink(out_dir / f"reply-{i:02d}.wav")
        t += 1.0
        actions = m.handle(Wake(t)) + m.handle(UtteranceEnded(t + len(pcm) / 16000))
        conv = next((a.conversation for a in actions if a.kind == "transcribe"), m.conversation)
        loop.respond(pcm, conversation=conv)
        sink.target.close()
        m.handle(PlaybackDone(t + 2))
        t += len(pcm) / 16000 + 2
    for a in m.shutdown(t + 1):
        if a.kind == "end_conversation":
            loop.end_conversation(a.conversation, background=False)
    return loop


class _SwitchingSink:
    """A sink that writes each reply to its own file."""

    target: object = None

    def play(self, pcm: object, sample_rate: int) -> None:
        self.target.play(pcm, sample_rate)  # type: ignore[attr-defined]

    def drain(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass

    @property
    def playing(self) -> bool:
        return False


def build_loop_for(app: Hearth, sink: object, *, live: bool, on_turn: object) -> VoiceLoop:
    from assistant.voice import build_loop

    return build_loop(app, sink, live=live, on_turn=on_turn)  # type: ignore[arg-type]


def cmd_run(app: Hearth, args: argparse.Namespace) -> int:
    con = Console(stderr=args.json)  # with --json, stdout carries only the JSON
    if args.wav:
        out = Path(args.out_dir or "replies")
        loop = run_wav_turns(app, args.wav, out, con, quiet=args.json)
        if args.json:
            print(json.dumps([r.__dict__ for r in loop.records], ensure_ascii=False))
        else:
            con.print(f"Replies written to {out}/")
        return 0
    from audio.devices import MicSource, SpeakerSink, list_devices

    if not any(d.max_input_channels > 0 for d in list_devices()):
        con.print("[red]No microphone found.[/] Try `assistant run --wav question.wav --out-dir replies/`, "
                  "`assistant chat` to type, or `assistant devices` to see what is connected.")
        return 2
    a = app.settings.audio
    source = MicSource(args.input_device or a.input_device)
    sink = SpeakerSink(args.output_device or a.output_device)
    loop = build_loop_for(app, sink, live=True, on_turn=print_turn(con))
    scheduler = _nightly(app)
    con.print(f"Listening — say \"{a.wake_word.replace('_', ' ')}\" (Ctrl-C to stop).")
    try:
        loop.run(source, on_tick=scheduler.run_pending)
    except KeyboardInterrupt:
        con.print("\nStopping.")
    finally:
        source.close()
        sink.close()
        loop.wait_for_learning(timeout=120)
    return 0


def _nightly(app: Hearth) -> Any:
    """Nightly consolidation while the loop runs (`schedule`, in the loop's own thread)."""
    import schedule

    c = app.settings.memory.consolidation
    lock = threading.Lock()

    def job() -> None:
        with lock:
            app.graph.consolidate(now=app.now(), threshold=c.prune_threshold, min_confidence=c.min_confidence)

    sched = schedule.Scheduler()
    sched.every().day.at(c.at).do(job)
    return sched
