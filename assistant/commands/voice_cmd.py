"""`assistant run` (the voice loop: microphone, or WAV files as turns) and `assistant devices`."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from assistant.compose import Hearth
from assistant.loop.runner import TurnRecord, VoiceLoop
from assistant.upkeep import nightly
from audio.errors import AudioError


def register(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser("run", help="the voice loop: wake word, listen, answer aloud, learn afterwards")
    src = r.add_mutually_exclusive_group()
    src.add_argument("--wav", nargs="+", metavar="FILE", help="use these files as the user's turns (no microphone)")
    src.add_argument("--stream", metavar="FILE", help="play one recording through the live path (wake word, VAD, "
                     "endpointing) instead of the microphone")
    r.add_argument("--realtime", action="store_true", help="with --stream: at the speed of speech (default: faster)")
    r.add_argument("--out-dir", help="with --wav/--stream: write the spoken replies here as WAV files")
    r.add_argument("--input-device", help="microphone name or index (see `assistant devices`)")
    r.add_argument("--output-device", help="speaker name or index")
    r.add_argument("--json", action="store_true", help="with --wav/--stream: print turns and timings as JSON")
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


def print_turn(con: Console) -> Callable[[TurnRecord], None]:
    def show(rec: TurnRecord) -> None:
        if rec.heard:
            con.print(f"[bold]you[/]: {escape(rec.heard)}")
        if rec.error:
            con.print(f"[yellow]hearth[/]: Sorry, {escape(rec.error)}")
        else:
            t = rec.timings_ms
            con.print(f"[bold]hearth[/]: {escape(rec.answer)} [dim](first audio "
                      f"{t.get('end_of_speech_to_first_audio', 0) / 1000:.2f} s after you stopped)[/]")
    return show


def run_wav_turns(app: Hearth, files: list[str], out_dir: Path, con: Console, *,
                  quiet: bool = False) -> list[dict[str, Any]]:
    """Each file is one user turn of one conversation, through the real loop; replies are written as WAVs."""
    from audio.wav import read_wav

    out_dir.mkdir(parents=True, exist_ok=True)
    sink = ReplyFiles(out_dir)
    records: list[dict[str, Any]] = []
    show = None if quiet else print_turn(con)

    def on_turn(rec: TurnRecord) -> None:
        records.append(rec.__dict__ | {"reply": str(out_dir / f"reply-{sink.number:02d}.wav")})
        if show is not None:
            show(rec)

    loop = build_loop_for(app, sink, live=False, on_turn=on_turn)
    t = 0.0
    for i, f in enumerate(files, start=1):
        try:
            pcm = read_wav(Path(f))
        except AudioError as e:  # a corrupt or empty file is reported and the next one processed
            con.print(f"[red]skipped {escape(f)}:[/] {escape(str(e))}")
            continue
        sink.number = i
        t += 1.0
        loop.submit(pcm, t)
        sink.close_reply()
        t += len(pcm) / 16000 + 2
    loop.handle_shutdown(t + 1, learn_in_background=False)
    return records


def run_stream(app: Hearth, wav: Path, out_dir: Path, con: Console, *, realtime: bool,
               quiet: bool = False) -> list[dict[str, Any]]:
    """One continuous recording through the live path: wake word, VAD, endpointing, as from a microphone."""
    from audio.wav import WavSource

    source = WavSource(wav, realtime=realtime)
    out_dir.mkdir(parents=True, exist_ok=True)
    sink = ReplyFiles(out_dir)
    records: list[dict[str, Any]] = []
    show = None if quiet else print_turn(con)

    def on_turn(rec: TurnRecord) -> None:
        reply = sink.close_reply()  # what was played for this turn (chime, answer or apology) is its reply file
        records.append(rec.__dict__ | {"reply": str(reply) if reply else None})
        sink.number = len(records) + 1
        if show is not None:
            show(rec)

    loop = build_loop_for(app, sink, live=True, on_turn=on_turn)
    loop.run(source)
    loop.wait_for_learning(timeout=300)
    return records


class ReplyFiles:
    """A sink that writes what is played for each turn to its own WAV file, reply-NN.wav."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir, self.number = out_dir, 1
        self._target: Any = None
        self.written: list[Path] = []

    def play(self, pcm: Any, sample_rate: int) -> None:
        from audio.wav import WavSink

        if self._target is None:
            self._target = WavSink(self.out_dir / f"reply-{self.number:02d}.wav")
        self._target.play(pcm, sample_rate)

    def close_reply(self) -> Path | None:
        if self._target is None:
            return None
        self._target.close()
        path, self._target = self._target.path, None
        self.written.append(path)
        return Path(path)

    def drain(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def close(self) -> None:
        self.close_reply()

    @property
    def playing(self) -> bool:
        return False


def build_loop_for(app: Hearth, sink: object, *, live: bool, on_turn: object) -> VoiceLoop:
    from assistant.voice import build_loop

    return build_loop(app, sink, live=live, on_turn=on_turn)  # type: ignore[arg-type]


def cmd_run(app: Hearth, args: argparse.Namespace) -> int:
    con = Console(stderr=args.json)  # with --json, stdout carries only the JSON
    if args.wav or args.stream:
        out = Path(args.out_dir or "replies")
        if args.stream:
            if not Path(args.stream).is_file():
                con.print(f"[red]{args.stream}[/]: no such file")
                return 2
            try:
                records = run_stream(app, Path(args.stream), out, con, realtime=args.realtime, quiet=args.json)
            except AudioError as e:
                con.print(f"[red]{args.stream}[/]: {e.message}")
                return 2
        else:
            records = run_wav_turns(app, args.wav, out, con, quiet=args.json)
        if args.json:
            print(json.dumps(records, ensure_ascii=False))
        else:
            con.print(f"{len(records)} turn(s); replies written to {out}/")
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
    scheduler = nightly(app)
    service = _serve_beside(app, con)  # the review page and API, so other commands work while it listens
    con.print(f"Listening — say \"{a.wake_word.replace('_', ' ')}\" (Ctrl-C to stop).")
    try:
        loop.run(source, on_tick=scheduler.run_pending)
    except KeyboardInterrupt:
        con.print("\nStopping.")
    finally:
        source.close()
        sink.close()
        loop.wait_for_learning(timeout=120)
        if service is not None:
            service.stop()
    return 0


def _serve_beside(app: Hearth, con: Console) -> Any:
    """The local service on its own threads; a port in use costs the page, never the voice loop."""
    if not app.settings.service.with_voice:
        return None
    from assistant.service.server import Service

    try:
        service = Service(app)
        info = service.start_in_thread()
    except Exception as e:
        con.print(f"[yellow]The review page is not served: {e}[/]")
        return None
    con.print(f"Review page and API on {info.url}/")
    return service
