"""End to end: assemble the real 1.5B weights, start the bundled server, extract JSON, stream a reply."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from assistant.llm import open_llm
from assistant.llm.weights import DEFAULT_MODEL, MODELS, ModelWeightsError, part_paths

if TYPE_CHECKING:
    from assistant.llm import ChatClient

pytestmark = [pytest.mark.slow, pytest.mark.llm]

SCHEMA = {
    "type": "object",
    "properties": {
        "subject": {"type": "string"},
        "relation": {"type": "string", "enum": ["lives_in", "works_at", "sister_of", "likes"]},
        "object": {"type": "string"},
    },
    "required": ["subject", "relation", "object"],
    "additionalProperties": False,
}
SYSTEM = "You extract one fact from the user's sentence as JSON: subject, relation, object."


@pytest.fixture(scope="session")
def models_dir() -> Path:
    """Assembled once per machine and reused (verified by the sidecar), not once per run."""
    default = Path.home() / ".cache" / "hearth-test" / "models"
    return Path(os.environ.get("HEARTH_TEST_MODELS_DIR", default))


@pytest.fixture(scope="session")
def bundled(models_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChatClient]:
    try:
        part_paths(MODELS[DEFAULT_MODEL])
    except ModelWeightsError as e:
        pytest.skip(f"bundled weights not installed: {e.hint}")
    logs = tmp_path_factory.mktemp("llm-logs")
    with open_llm("bundled", models_dir=models_dir, logs_dir=logs, progress=False, timeout_s=120.0) as llm:
        yield llm


def test_json_schema_extraction(bundled: ChatClient) -> None:
    out = bundled.complete(
        [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Anna lives in Lisbon."}],
        json_schema=SCHEMA, max_tokens=64,
    )
    fact = json.loads(out)
    assert set(fact) == {"subject", "relation", "object"}
    assert fact["relation"] == "lives_in"
    assert "Lisbon" in fact["object"]


def test_streamed_reply(bundled: ChatClient) -> None:
    pieces = list(bundled.stream([{"role": "user", "content": "Say the word 'hello' and nothing else."}],
                                 max_tokens=16, temperature=0.0))
    assert len(pieces) >= 1
    assert "hello" in "".join(pieces).lower()


def test_ping_names_the_model(bundled: ChatClient) -> None:
    assert DEFAULT_MODEL in bundled.ping().models


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")  # a zombie has exited; only its reaping is left


def test_orphaned_server_exits_when_its_parent_dies(models_dir: Path) -> None:
    from assistant.llm.weights import ensure_model

    try:
        model = ensure_model(DEFAULT_MODEL, models_dir, progress=False)
    except ModelWeightsError as e:
        pytest.skip(f"bundled weights not installed: {e.hint}")
    parent = (
        "import os, subprocess, sys, time\n"
        "from assistant.llm.server import free_port, health\n"
        "port = free_port()\n"
        "p = subprocess.Popen([sys.executable, '-m', 'assistant.llm.serve', '--model', sys.argv[1],\n"
        "                      '--port', str(port)], start_new_session=True,\n"
        "                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "t0 = time.monotonic()\n"
        "while not health(f'http://127.0.0.1:{port}') and time.monotonic() - t0 < 120: time.sleep(0.2)\n"
        "print(p.pid, flush=True)\n"
        "os._exit(0)  # die without stopping the child\n"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", parent, str(model)], cwd=root, capture_output=True, text=True,
                         timeout=180)
    pid = int(out.stdout.strip())
    deadline = time.monotonic() + 15
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    if not _gone(pid):
        os.kill(pid, 9)
        pytest.fail("the bundled server outlived its parent")
