"""The shared, keep-alive server: reuse by a second command, idle exit, model hard-linking."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from assistant.llm import shared
from assistant.llm.weights import link_verified


def test_serve_exits_when_its_keep_alive_file_goes_stale(tmp_path: Path) -> None:
    """The real serve loop, with a stand-in for the model server (xllamacpp is not loaded here)."""
    import subprocess

    touch = tmp_path / "state.json"
    touch.write_text("{}")
    code = (
        "import sys, types; sys.modules['xllamacpp'] = types.SimpleNamespace("
        "CommonParams=lambda: types.SimpleNamespace(model=types.SimpleNamespace(), cpuparams=types.SimpleNamespace(),"
        " cpuparams_batch=types.SimpleNamespace()), Server=lambda p: types.SimpleNamespace(listening_address='x'));"
        "from assistant.llm.serve import main; main(sys.argv[1:])"
    )
    model = tmp_path / "m.gguf"
    model.write_bytes(b"x")
    p = subprocess.Popen([sys.executable, "-c", code, "--model", str(model), "--port", "1",
                          "--keep-alive-file", str(touch), "--idle-exit-s", "2"],
                         stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
    try:
        out, _ = p.communicate(timeout=20)
    finally:
        p.kill()
    assert "idle for" in out


def test_acquire_reuses_a_healthy_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = tmp_path / "m.gguf"
    model.write_bytes(b"weights")
    started: list[int] = []

    class FakeServer:
        def __init__(self, *a: object, **k: object) -> None:
            self.pid, self.port, self.api_key, self._proc = os.getpid(), 4321, "k", object()
            self.base_url = "http://127.0.0.1:4321/v1"

        def start(self) -> FakeServer:
            started.append(1)
            return self

    monkeypatch.setattr(shared, "LocalLLMServer", FakeServer)
    monkeypatch.setattr(shared, "health", lambda root: True)
    kw = dict(run_dir=tmp_path / "run", logs_dir=tmp_path, threads=2, ctx=4096, parallel=1, alias="a",
              keep_alive_s=60, start_timeout_s=5)
    a = shared.acquire(model, **kw)
    b = shared.acquire(model, **kw)
    assert started == [1] and not a.reused and b.reused and b.base_url == a.base_url
    assert oct(a.state.stat().st_mode & 0o777) == "0o600"  # it holds the API key
    assert json.loads(a.state.read_text())["port"] == 4321
    monkeypatch.setattr(shared, "health", lambda root: False)  # died: a new one is started
    c = shared.acquire(model, **kw)
    assert started == [1, 1] and not c.reused


def test_link_verified_shares_the_inode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.llm import weights

    src, dst = tmp_path / "a", tmp_path / "b"
    src.mkdir()
    spec = weights.get_spec("qwen2.5-coder-1.5b")
    f = src / spec.filename
    f.write_bytes(b"gguf")
    monkeypatch.setattr(weights, "is_verified", lambda p, s: p == f)
    assert link_verified("qwen2.5-coder-1.5b", src, dst)
    assert (dst / spec.filename).stat().st_ino == f.stat().st_ino
    assert not link_verified("qwen2.5-coder-1.5b", src, dst)  # already there

