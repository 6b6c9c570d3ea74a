"""Name biasing for Whisper and the transcriber's model-free behaviour."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from audio.errors import AudioFormatError, AudioModelError
from audio.protocols import Transcriber
from audio.stt import WhisperTranscriber, bias_terms, bias_text, decoding_context


def test_bias_terms_dedupes_cleans_and_caps() -> None:
    names = ["Anna", " anna ", "Priya  Raman", "", "Dr. Okafor,", "Zoë", "ANNA"]
    assert bias_terms(names) == ["Anna", "Priya Raman", "Dr. Okafor", "Zoë"]
    assert bias_terms([f"Name{i}" for i in range(50)], max_terms=3) == ["Name0", "Name1", "Name2"]
    assert bias_terms(["a" * 30, "b" * 30, "c"], max_chars=64) == ["a" * 30, "b" * 30]


def test_bias_text() -> None:
    assert bias_text(["Anna", "Priya"]) == "Anna, Priya."
    assert bias_text([]) == ""


@pytest.mark.parametrize(
    ("mode", "names", "prompt", "expected"),
    [
        ("prompt", ["Anna", "Priya"], None, (None, "Anna, Priya.")),
        ("prompt", ["Anna"], "Family chat.", (None, "Family chat. Anna.")),
        ("hotwords", ["Anna", "Priya"], None, ("Anna, Priya.", None)),
        ("hotwords", ["Anna"], "Family chat.", ("Anna.", "Family chat.")),
        ("none", ["Anna"], None, (None, None)),
        ("none", ["Anna"], "Family chat.", (None, "Family chat.")),
        ("prompt", [], "  ", (None, None)),
    ],
)
def test_decoding_context(
    mode: str, names: list[str], prompt: str | None, expected: tuple[str | None, ...]
) -> None:
    assert decoding_context(names, prompt, mode) == expected  # type: ignore[arg-type]


def test_transcriber_validates_before_loading(tmp_path: Path) -> None:
    stt = WhisperTranscriber(tmp_path / "no-such-model")
    assert isinstance(stt, Transcriber)
    empty = stt.transcribe(np.zeros(0, dtype=np.int16))
    assert empty.text == "" and empty.audio_s == 0.0
    with pytest.raises(AudioFormatError):
        stt.transcribe(np.zeros((2, 100), dtype=np.int16))
    with pytest.raises(AudioModelError, match="not found") as info:
        stt.transcribe(np.zeros(1600, dtype=np.int16))
    assert info.value.code == "stt.model_missing"


def test_model_name_not_in_cache_fails_offline_with_hint(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    with pytest.raises(AudioModelError) as info:
        WhisperTranscriber("medium.en").load()
    assert info.value.code == "stt.load_failed" and "offline" in (info.value.hint or "")
