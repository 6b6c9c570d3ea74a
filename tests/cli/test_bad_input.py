"""Bad input through the real `assistant` CLI: each is refused with one clear line (exit 2) or handled (exit 0).

A temp --data-dir per test, and a config whose LLM is a dead endpoint, so no model starts. No case may
end in "unexpected <Exception>" (exit 1) or a traceback. docs/reliability.md ("Bad input") lists them.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from assistant.cli import main
from memory.timeutil import iso
from tests.cli_support import DOWN

SURROGATE_ARG = os.fsdecode(b"caf\xff")  # what Python makes of a non-UTF-8 byte in argv: "caf\udcff"

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    cfg = tmp_path / "config.yaml"
    cfg.write_text(DOWN)

    def run(*args: str) -> tuple[int, str, str]:
        code = main(["--config", str(cfg), "--data-dir", str(tmp_path / "d"), *args])
        out, err = capsys.readouterr()
        assert code in (0, 2) and "unexpected" not in err and "Traceback" not in err, err
        return code, out, err

    return run


def now() -> datetime:
    return datetime.now(UTC)


def jsonl(path: Path, *rows: dict[str, object] | str) -> str:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def turn(at: str, text: str = "I live in Porto.", speaker: str = "user", conversation: str = "c1") -> dict[str, object]:
    return {"conversation": conversation, "at": at, "speaker": speaker, "text": text}


def stored(cli: Run) -> tuple[int, int]:
    """(conversations, arcs) in the data dir."""
    _, out, _ = cli("transcripts", "--json")
    convs = json.loads(out)
    _, out, _ = cli("memory", "stats", "--json")
    return len(convs), json.loads(out)["arcs"]["total"]


# -- times ------------------------------------------------------------------------------------------------
def test_a_turn_in_the_far_future_is_refused_with_its_line(cli: Run, tmp_path: Path) -> None:
    f = jsonl(tmp_path / "t.jsonl", turn("2026-01-05T19:00:00Z"), turn("2999-01-01T00:00:00Z", "I live in Oslo."))
    code, _, err = cli("ingest", f)
    assert code == 2 and "line 2" in err and "future" in err and "nothing was ingested" in err
    assert stored(cli) == (0, 0)


def test_a_turn_an_hour_ahead_is_refused_but_clock_skew_is_tolerated(cli: Run, tmp_path: Path) -> None:
    code, _, err = cli("ingest", jsonl(tmp_path / "a.jsonl", turn(iso(now() + timedelta(hours=1)) or "")))
    assert code == 2 and "line 1" in err and "is in the future" in err
    code, _, _ = cli("ingest", "--no-llm", jsonl(tmp_path / "b.jsonl", turn(iso(now() + timedelta(minutes=2)) or "")))
    assert code == 0 and stored(cli) == (1, 1)


def test_a_year_1_time_with_an_offset_is_refused_and_transcripts_still_work(cli: Run, tmp_path: Path) -> None:
    code, _, err = cli("ingest", jsonl(tmp_path / "t.jsonl", turn("0001-01-01T00:00:00+05:00")))
    assert code == 2 and "line 1" in err and "before 1900" in err
    assert cli("transcripts")[0] == 0 and cli("transcripts", "--export") == (0, "", "")


def test_an_impossible_time_already_stored_does_not_break_transcripts(cli: Run, tmp_path: Path) -> None:
    from memory.transcripts import TranscriptStore, Turn

    ts = TranscriptStore(tmp_path / "d" / "transcripts.sqlite3")  # written by an older version, unchecked
    ts.add_turns([Turn("old", datetime.fromisoformat("0001-01-01T00:00:00+05:00"), "user", "hello")], source="x")
    ts.close()
    assert cli("transcripts")[0] == 0 and cli("transcripts", "old")[0] == 0
    code, out, _ = cli("transcripts", "--export")
    assert code == 0 and json.loads(out)["text"] == "hello"


@pytest.mark.parametrize("at", ["0001-01-01T00:00:00+05:00", "2999-01-01", "1850-06-01", "tomorrow"])
def test_memory_add_at_outside_the_sane_past_is_refused(cli: Run, at: str) -> None:
    code, _, err = cli("memory", "add", "user", "lives_in", "Porto", "--at", at)
    assert code == 2 and "[invalid_input]" in err
    code, _, err = cli("memory", "add", "user", "lives_in", "Porto", "--at", iso(now() + timedelta(hours=1)) or "")
    assert code == 2 and "in the future" in err


def test_ask_at_any_sane_date_answers_and_refuses_impossible_ones(cli: Run) -> None:
    code, out, _ = cli("ask", "Where do I live?", "--at", "2150-01-01", "--json")
    assert code == 0 and json.loads(out)["answer"]
    code, _, err = cli("ask", "Where do I live?", "--at", "0001-01-01T00:00:00+05:00")
    assert code == 2 and "before 1900" in err


# -- text -------------------------------------------------------------------------------------------------
def test_a_lone_surrogate_in_jsonl_names_the_line_and_writes_nothing(cli: Run, tmp_path: Path) -> None:
    good = json.dumps(turn("2026-01-05T19:00:00Z"))
    bad = json.dumps(turn("2026-01-05T19:01:00Z", "bad \ud800 text"))  # json.dumps writes the escape "\ud800"
    code, _, err = cli("ingest", jsonl(tmp_path / "t.jsonl", good, bad))
    assert code == 2 and "line 2" in err and "U+D800" in err
    assert stored(cli) == (0, 0)


def test_bytes_that_are_not_utf8_name_the_line(cli: Run, tmp_path: Path) -> None:
    f = tmp_path / "t.jsonl"
    f.write_bytes(json.dumps(turn("2026-01-05T19:00:00Z")).encode() + b"\n" + b'{"text": "caf\xe9"}\n')
    code, _, err = cli("ingest", str(f))
    assert code == 2 and "not UTF-8" in err and "line 2" in err


def test_a_line_separator_inside_text_is_one_line_and_round_trips(cli: Run, tmp_path: Path) -> None:
    row = json.dumps(turn("2026-01-05T19:00:00Z", "I live in Porto.\u2028Really."), ensure_ascii=False)
    assert cli("ingest", "--no-llm", jsonl(tmp_path / "t.jsonl", row))[0] == 0
    code, out, _ = cli("transcripts", "--export")
    assert code == 0 and json.loads(out)["text"] == "I live in Porto.\u2028Really."
    (tmp_path / "again.jsonl").write_text(out, encoding="utf-8")
    assert cli("ingest", str(tmp_path / "again.jsonl"))[0] == 0 and stored(cli)[0] == 1


def test_a_directory_is_not_a_transcript(cli: Run, tmp_path: Path) -> None:
    code, _, err = cli("ingest", str(tmp_path))
    assert code == 2 and "directory" in err


@pytest.mark.parametrize("args", [["memory", "add", "user", "likes", SURROGATE_ARG],
                                  ["memory", "add", "user", "related_to", "Tom", "--label", SURROGATE_ARG],
                                  ["ask", f"do I like {SURROGATE_ARG}?"],
                                  ["memory", "show", SURROGATE_ARG]])
def test_undecodable_arguments_are_refused_by_name(cli: Run, args: list[str]) -> None:
    code, _, err = cli(*args)
    assert code == 2 and "not valid Unicode" in err and "U+DCFF" in err


def test_a_typed_surrogate_in_chat_is_asked_again_and_not_stored(cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hi \ud800 there\n\n"))
    code, out, _ = cli("chat")
    assert code == 0 and "not valid Unicode" in out
    assert stored(cli) == (0, 0)


def test_markup_in_names_and_text_is_shown_as_typed(cli: Run, tmp_path: Path) -> None:
    assert cli("memory", "add", "[bold red]Tom", "likes", "tea")[0] == 0
    code, out, _ = cli("memory", "show")
    assert code == 0 and "[bold red]Tom" in out
    row = turn("2026-01-05T19:00:00Z", "I like [/] and [red]tea", conversation="c[/]1")
    assert cli("ingest", "--no-llm", jsonl(tmp_path / "t.jsonl", row))[0] == 0
    code, out, _ = cli("transcripts", "c[/]1")
    assert code == 0 and "I like [/] and [red]tea" in out
    assert cli("transcripts")[0] == 0


def test_a_guests_first_person_is_the_guest(cli: Run, tmp_path: Path) -> None:
    f = jsonl(tmp_path / "t.jsonl", turn("2026-01-05T19:00:00Z", "I live in Porto."),
              turn("2026-01-05T19:01:00Z", "I live in Berlin.", speaker="Tom"))
    assert cli("ingest", f)[0] == 0
    _, out, _ = cli("memory", "show", "user", "--json")
    assert [a["object"] for a in json.loads(out)["facts"] if a["relation"] == "lives_in"] == ["Porto"]


# -- audio ------------------------------------------------------------------------------------------------
class _StubLoop:
    """The real loop loads whisper and piper; the WAV checks happen before it is needed."""

    def __init__(self) -> None:
        self.heard: list[int] = []

    def submit(self, pcm: np.ndarray, t: float) -> None:
        self.heard.append(len(pcm))

    def handle_shutdown(self, t: float, *, learn_in_background: bool) -> None:
        pass


def test_absurd_wav_files_are_skipped_with_one_code_each(cli: Run, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from audio.wav import write_wav
    from tests.audio.conftest import wav_bytes

    loop = _StubLoop()
    monkeypatch.setattr("assistant.commands.voice_cmd.build_loop_for", lambda *a, **k: loop)
    (tmp_path / "one_hz.wav").write_bytes(wav_bytes(np.arange(1000), 1))  # once an uncaught MemoryError
    (tmp_path / "mhz.wav").write_bytes(wav_bytes(np.arange(1000), 1_000_000))
    (tmp_path / "cut.wav").write_bytes(wav_bytes(np.arange(1000), 16000)[:-100])
    write_wav(tmp_path / "good.wav", np.zeros(16000, dtype=np.int16))
    files = [str(tmp_path / n) for n in ("one_hz.wav", "mhz.wav", "cut.wav", "good.wav")]
    code, out, _ = cli("run", "--wav", *files, "--out-dir", str(tmp_path / "out"))
    assert code == 0 and loop.heard == [16000]  # the good file is still answered
    for c in ("wav.unsupported", "wav.truncated"):
        assert f"[{c}] [{c}]" not in out and f"[{c}]" in out
    assert out.count("[wav.unsupported]") == 2 and "1 Hz" in out


# -- environment ------------------------------------------------------------------------------------------
def test_a_file_as_the_data_dir_or_a_config_that_is_not_utf8_is_a_config_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["--data-dir", str(f), "memory", "stats"]) == 2
    assert "[config_error]" in capsys.readouterr().err
    cfg = tmp_path / "c.yaml"
    cfg.write_bytes(b"\xff\xfellm: {}\n")
    assert main(["--config", str(cfg), "--data-dir", str(tmp_path / "d"), "memory", "stats"]) == 2
    err = capsys.readouterr().err
    assert "[config_error]" in err and "not UTF-8" in err
