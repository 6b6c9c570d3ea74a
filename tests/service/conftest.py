"""A real data dir (kglite + SQLite) learned from transcripts with the spaCy rules, copied fresh per test."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from assistant.cli import main
from tests.cli_support import DOWN

# the LLM is down: `ask` answers from memory with the template (and says so), nothing waits for a model

CONVERSATIONS = [
    ("c1", "2026-01-05T19:00:00Z", "user", "My brother Felix lives in Ghent. He works at Brightwave Studios."),
    ("c1", "2026-01-05T19:00:20Z", "assistant", "Ghent is lovely."),
    ("c2", "2026-04-02T08:00:00Z", "user", "Felix moved to Utrecht last week."),
    ("c3", "2026-05-02T08:00:00Z", "Maria",
     "I said <script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\"> out loud. "
     "My sister Anna lives in Porto."),
]


@pytest.fixture(scope="session")
def learned_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("learned")
    f = base / "t.jsonl"
    f.write_text("".join(json.dumps({"conversation": c, "at": a, "speaker": s, "text": t}) + "\n"
                         for c, a, s, t in CONVERSATIONS))
    cfg = base / "config.yaml"
    cfg.write_text(DOWN)
    data = base / "data"
    assert main(["--config", str(cfg), "--data-dir", str(data), "ingest", str(f), "--no-llm"]) == 0
    return base


@pytest.fixture
def data_dir(learned_dir: Path, tmp_path: Path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(learned_dir / "data", d)
    return d


@pytest.fixture
def config_file(learned_dir: Path) -> Path:
    return learned_dir / "config.yaml"
