"""`assistant doctor` loads the wake-word model (finding the package is not enough on another CPU)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.cli import main


def wake_check(tmp_path: Path, capsys: pytest.CaptureFixture[str], audio: str) -> dict[str, object]:
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"audio:\n{audio}")
    main(["--config", str(cfg), "--data-dir", str(tmp_path / "d"), "doctor", "--json"])
    checks = {c["check"]: c for c in json.loads(capsys.readouterr().out)}
    return checks["wake word"]


def test_the_configured_wake_word_model_is_loaded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    c = wake_check(tmp_path, capsys, "  wake_word: okay_nabu\n")
    assert c["ok"] and "okay_nabu loads" in str(c["detail"])


def test_a_model_that_cannot_load_fails_the_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"model": "missing.tflite"}')
    c = wake_check(tmp_path, capsys, f"  wake_word: {bad}\n")
    assert not c["ok"] and "wake" in str(c["detail"])


def test_not_used_without_the_wake_word(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    c = wake_check(tmp_path, capsys, "  activation: push_to_talk\n")
    assert c["ok"] and "not used" in str(c["detail"])
