"""One error hierarchy: every deliberate error is a HearthError, shown once as `[code] message` + hint."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from assistant.cli import build_parser, main
from assistant.errors import describe_error
from assistant.llm.weights import ModelWeightsError
from assistant.settings import ConfigError
from audio.errors import DEVICE_HINT, AudioDeviceError, AudioError, AudioFormatError
from hearth_errors import HearthError
from memory.errors import InvalidInput, MemoryStoreError, QueryRefused
from memory.llm import LLMUnavailable

ERRORS: list[HearthError] = [
    AudioFormatError("wav.truncated", "q.wav: data chunk declares 10 bytes but only 4 are present"),
    AudioDeviceError("device.no_input", "no audio input device found", hint=DEVICE_HINT),
    InvalidInput("an entity needs a name", hint="empty names are refused"),
    QueryRefused("the query writes"),
    LLMUnavailable("cannot reach the model"),
    ModelWeightsError("weights missing"),
    ConfigError("memory -> decay: must be > 0"),
]


@pytest.mark.parametrize("e", ERRORS, ids=lambda e: type(e).__name__)
def test_every_error_is_one_kind_and_shows_its_code_once(e: HearthError) -> None:
    assert isinstance(e, HearthError)
    text = describe_error(e)
    assert text.count(e.code) == 1 and text.startswith(f"[{e.code}] {e.message}")
    assert (f"\n  hint: {e.hint}" in text) == bool(e.hint)
    back = pickle.loads(pickle.dumps(e))  # crosses threads/processes with its code and hint
    assert type(back) is type(e) and (back.code, back.message, back.hint) == (e.code, e.message, e.hint)


def test_subclass_families_are_kept() -> None:
    assert issubclass(AudioFormatError, AudioError) and issubclass(QueryRefused, MemoryStoreError)
    assert not issubclass(AudioError, MemoryStoreError) and not issubclass(ConfigError, MemoryStoreError)


def test_an_audio_error_reaches_the_cli_once(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def no_devices(backend: object = None) -> list[object]:
        raise AudioDeviceError("device.query_failed", "cannot list audio devices: PortAudio died", hint=DEVICE_HINT)

    monkeypatch.setattr("audio.devices.list_devices", no_devices)
    code = main(["--data-dir", str(tmp_path), "run"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("device.query_failed") == 1 and "Traceback" not in err
    assert err.startswith("error: [device.query_failed] cannot list audio devices")


def test_the_device_hint_names_real_commands_and_flags() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "cmd")
    commands = sub.choices  # type: ignore[attr-defined]
    named = re.findall(r"`assistant (\w+)", DEVICE_HINT)
    assert "devices" in named and all(c in commands for c in named)
    run_flags = {o for a in commands["run"]._actions for o in a.option_strings}
    assert set(re.findall(r"--[\w-]+", DEVICE_HINT)) <= run_flags
