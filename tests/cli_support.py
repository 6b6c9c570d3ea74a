"""What the CLI tests share: a config whose model endpoint is down, running `assistant`, a transcript file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.cli import main

# The language model is down: answers come from the template, learning from the rules.
# a model configured for answers and learning that cannot be reached (learning falls back to the rules)
DOWN = ("llm:\n  provider: openai\n  base_url: http://127.0.0.1:9/v1\n  api_key_env: null\n"
        "  timeout_s: 2\n  retries: 0\nextraction:\n  use_llm: true\n")


def run(capsys: pytest.CaptureFixture[str], cfg: Path, data: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--config", str(cfg), "--data-dir", str(data), *args])
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, rows: list[tuple[str, str, str, str]]) -> Path:
    """(conversation, at, speaker, text) rows as an `assistant ingest` JSONL file."""
    path.write_text("".join(json.dumps({"conversation": c, "at": a, "speaker": s, "text": t}) + "\n"
                            for c, a, s, t in rows))
    return path
