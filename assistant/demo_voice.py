"""The spoken part of `assistant demo`: piper speaks the user's lines, which run through the real voice loop."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from assistant.compose import Hearth

SCRIPT = [
    ["My sister Anna lives in Porto. She teaches chemistry.", "I played the cello in an orchestra at school.",
     "Our neighbour Priya keeps bees in her garden.", "I finally passed my driving test on Friday!"],
    ["Where does my sister live?", "What instrument did I play?", "How do you know that?", "Who keeps bees?",
     "When did I pass my driving test?"],
]


def speak_lines(lines: list[str], out_dir: Path) -> list[str]:
    """Real test speech: the bundled piper voice (which tiny.en transcribes well)."""
    import numpy as np

    from audio.tts import PiperSynthesizer
    from audio.wav import write_wav

    tts = PiperSynthesizer(seed=7)
    files = []
    for i, line in enumerate(lines, start=1):
        chunks = list(tts.synthesize(line))
        pcm = np.concatenate([c.pcm for c in chunks])
        f = out_dir / f"user-{i:02d}.wav"
        write_wav(f, pcm, chunks[0].sample_rate)
        files.append(str(f))
    return files


def voice_demo(app: Hearth, base: Path, con: Console) -> None:
    from assistant.commands.voice_cmd import run_wav_turns

    for n, lines in enumerate(SCRIPT, start=1):
        con.rule(f"[bold]Voice demo[/]: conversation {n} (spoken WAV files through the voice loop)")
        conv_dir = base / f"conversation-{n}"
        conv_dir.mkdir(parents=True, exist_ok=True)
        with con.status("speaking the user's lines with piper…"):
            files = speak_lines(lines, conv_dir)
        turns = run_wav_turns(app, files, conv_dir, con)
        for cid in dict.fromkeys(t["conversation"] for t in turns):
            for c in app.transcripts.changes(cid):
                con.print(f"  [cyan]learned[/] {c['kind']}: {c['subject']} {c['relation']} {c['object']}")
        con.print(f"  [dim]replies: {conv_dir}/reply-*.wav[/]")
