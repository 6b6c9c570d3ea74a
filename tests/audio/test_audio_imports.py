"""The audio package stays a light, standalone library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import audio

HEAVY = ["onnxruntime", "faster_whisper", "ctranslate2", "piper", "sounddevice", "pymicro_wakeword"]
AUDIO_DIR = Path(audio.__file__).parent


def test_importing_every_module_loads_nothing_heavy_and_no_app_code() -> None:
    modules = sorted(f"audio.{p.stem}" for p in AUDIO_DIR.glob("*.py") if p.stem != "__init__")
    assert len(modules) >= 10
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(m for m in {[*HEAVY, 'assistant', 'memory']!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_source_never_imports_assistant_or_memory() -> None:
    for path in AUDIO_DIR.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for bad in ("import assistant", "from assistant", "import memory", "from memory"):
            assert bad not in text, f"{path.name} contains {bad!r}"


@pytest.mark.parametrize("path", sorted(AUDIO_DIR.glob("*.py")), ids=lambda p: p.name)
def test_modules_are_small_and_documented(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 350
    assert lines[0].startswith('"""') and lines[0].endswith('"""') and len(lines[0]) > 10
