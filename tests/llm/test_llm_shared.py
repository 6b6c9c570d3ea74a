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
    kw = dict(model_sha256="ab" * 32, run_dir=tmp_path / "run", logs_dir=tmp_path, threads=2, ctx=4096,
              parallel=1, alias="a", keep_alive_s=60, start_timeout_s=5)
    a = shared.acquire(model, **kw)
    b = shared.acquire(model, **kw)
    assert started == [1] and not a.reused and b.reused and b.base_url == a.base_url and a.pid == b.pid == os.getpid()
    assert oct(a.state.stat().st_mode & 0o777) == "0o600"  # it holds the API key
    assert json.loads(a.state.read_text())["port"] == 4321
    monkeypatch.setattr(shared, "health", lambda root: False)  # died: a new one is started
    c = shared.acquire(model, **kw)
    assert started == [1, 1] and not c.reused


def test_the_registry_key_is_the_model_content_not_its_path(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[Path] = []

    class FakeServer:
        def __init__(self, path: Path, **k: object) -> None:
            self.pid, self.port, self.api_key, self._proc = os.getpid(), 4321, "k", object()
            self.base_url = "http://127.0.0.1:4321/v1"
            self.path = path

        def start(self) -> FakeServer:
            started.append(self.path)
            return self

    monkeypatch.setattr(shared, "LocalLLMServer", FakeServer)
    monkeypatch.setattr(shared, "health", lambda root: True)
    kw = dict(run_dir=tmp_path / "run", logs_dir=tmp_path, threads=2, ctx=4096, parallel=1, alias="a",
              keep_alive_s=60, start_timeout_s=5)
    a = shared.acquire(tmp_path / "data1" / "m.gguf", model_sha256="ab" * 32, **kw)
    b = shared.acquire(tmp_path / "data2" / "m.gguf", model_sha256="ab" * 32, **kw)  # another data dir's copy
    c = shared.acquire(tmp_path / "data1" / "m.gguf", model_sha256="cd" * 32, **kw)  # other weights, same path
    assert b.reused and not c.reused and started == [tmp_path / "data1" / "m.gguf"] * 2
    assert a.state == b.state != c.state


def test_lease_verdict(tmp_path: Path) -> None:
    from assistant.llm.serve import lease_verdict

    lease = tmp_path / "llm-x.json"
    now = 1_000_000.0
    assert lease_verdict(str(lease), 42, 10, now) == "keep-alive file is gone"
    lease.write_text("{}")  # being written by the command that starts this server: not claimed yet
    os.utime(lease, (now - 5, now - 5))
    assert lease_verdict(str(lease), 42, 10, now) is None
    lease.write_text(json.dumps({"pid": 42}))
    os.utime(lease, (now - 5, now - 5))
    assert lease_verdict(str(lease), 42, 10, now) is None
    assert lease_verdict(str(lease), 42, 10, now + 6) == "idle for 11s"
    lease.write_text(json.dumps({"pid": 43}))
    assert "another server (pid 43)" in (lease_verdict(str(lease), 42, 10, now) or "")


def test_an_idle_server_waits_for_a_command_holding_the_lock_and_drops_its_entry(tmp_path: Path) -> None:
    from assistant.llm import serve

    lease = tmp_path / "llm-x.json"
    lease.write_text(json.dumps({"pid": 42}))
    os.utime(lease, (1.0, 1.0))  # long idle
    with shared._locked(tmp_path / "llm-x.lock"):  # a command is checking this server to reuse it
        assert serve.end_lease(str(lease), 42, 10) is None
        lease.touch()  # ... and it does
    assert serve.end_lease(str(lease), 42, 10) is None
    os.utime(lease, (1.0, 1.0))
    try:
        assert (serve.end_lease(str(lease), 42, 10) or "").startswith("idle")
        assert not lease.exists()  # no entry left naming a server on its way out
        with shared._locked(tmp_path / "llm-x.lock", wait=False) as held:
            assert not held  # held until the server process ends
    finally:
        while serve.HELD_LOCKS:
            os.close(serve.HELD_LOCKS.pop())


def test_a_server_whose_registry_dir_is_deleted_exits(tmp_path: Path) -> None:
    from assistant.llm import serve

    assert serve.end_lease(str(tmp_path / "gone" / "llm-x.json"), 42, 10) == "keep-alive file is gone"


def test_sweep_keeps_live_and_in_progress_entries(tmp_path: Path) -> None:
    import subprocess

    dead = subprocess.Popen(["true"])
    dead.wait()
    run = tmp_path / "run"
    run.mkdir()
    (run / "llm-live.json").write_text(json.dumps({"pid": os.getpid()}))
    (run / "llm-dead.json").write_text(json.dumps({"pid": dead.pid}))
    (run / "llm-broken.json").write_text("{")  # its starter died mid-write
    (run / "llm-starting.json").write_text("{}")
    with shared._locked(run / "llm-starting.lock"):  # another command is starting this one right now
        removed = shared.sweep(run)
    assert sorted(p.name for p in removed) == ["llm-broken.json", "llm-dead.json"]
    assert sorted(p.name for p in run.glob("*.json")) == ["llm-live.json", "llm-starting.json"]


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

