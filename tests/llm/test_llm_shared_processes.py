"""The shared bundled server as real processes: one for every data dir, gone after the idle time, never orphaned.

The child is the real ``python -m assistant.llm.serve`` (its keep-alive loop included); only xllamacpp is
replaced, by a stand-in module on PYTHONPATH that answers /health, so no model is loaded.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from assistant.llm import shared, start_llm, weights

ROOT = Path(__file__).resolve().parents[2]
MODEL = "qwen2.5-coder-1.5b"
KEEP_ALIVE_S = 1.5

FAKE_XLLAMACPP = textwrap.dedent("""
    import threading, types
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    def CommonParams():
        ns = types.SimpleNamespace
        return ns(model=ns(), cpuparams=ns(), cpuparams_batch=ns())

    class _Health(BaseHTTPRequestHandler):
        def do_GET(self):
            body = b'{"status":"ok"}'
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    class Server:
        def __init__(self, p):
            httpd = ThreadingHTTPServer((p.hostnames[0], p.port), _Health)
            threading.Thread(target=httpd.serve_forever, daemon=True).start()
            self.listening_address = f"{p.hostnames[0]}:{p.port}"
""")


@pytest.fixture
def fake_runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in xllamacpp for the server child, and a "verified" model file in whichever models dir is asked."""
    mod = tmp_path / "fake-runtime"
    mod.mkdir()
    (mod / "xllamacpp.py").write_text(FAKE_XLLAMACPP)
    monkeypatch.setenv("PYTHONPATH", str(mod))

    def ensure_model(name: str, models_dir: Path | str = ".", *, progress: bool = True) -> Path:
        path = Path(models_dir) / weights.get_spec(name).filename
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"same weights in every data dir")
        return path

    monkeypatch.setattr(weights, "ensure_model", ensure_model)
    return tmp_path


def servers(tag: Path) -> list[int]:
    """Live (not zombie) server processes whose command line names a path under ``tag``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if b"assistant.llm.serve" in cmd and any(str(tag).encode() in a for a in cmd) and state != "Z":
            pids.append(int(entry.name))
    return pids


def wait_for(cond: Callable[[], bool], timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.1)
    return cond()


def reap() -> None:
    """The test process is the servers' parent here (a command would have exited): collect exited ones."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def open_from(tmp: Path, data_dir: str) -> Callable[[], None]:
    d = tmp / data_dir
    _, close = start_llm("bundled", model_name=MODEL, models_dir=d / "models", logs_dir=d / "logs",
                         keep_alive_s=KEEP_ALIVE_S, run_dir=tmp / "run", progress=False, start_timeout_s=30)
    return close


def test_one_server_for_every_data_dir_and_none_after_idle(fake_runtime: Path) -> None:
    tmp = fake_runtime
    closers: list[Callable[[], None]] = []
    errors: list[BaseException] = []
    gate = threading.Barrier(3)

    def start(name: str) -> None:
        gate.wait()
        try:
            closers.append(open_from(tmp, name))
        except BaseException as e:
            errors.append(e)

    try:
        # three commands starting at once from three data dirs, then two more one after the other
        threads = [threading.Thread(target=start, args=(f"data{i}",)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors
        for i in range(3, 5):
            closers.append(open_from(tmp, f"data{i}"))
        live = servers(tmp)
        assert len(live) == 1, f"{len(live)} servers alive after 5 commands from 5 data dirs"
    finally:
        for close in closers:
            close()
    t0 = time.monotonic()
    assert wait_for(lambda: not servers(tmp), KEEP_ALIVE_S + 5), "the server outlived its keep-alive"
    assert time.monotonic() - t0 >= KEEP_ALIVE_S - 0.5  # not before: it was just used
    assert not list((tmp / "run").glob("*.json"))  # it took its registry entry with it
    reap()


def test_server_exits_on_idle_after_its_starter_is_killed(fake_runtime: Path) -> None:
    tmp = fake_runtime
    model = tmp / "models" / "m.gguf"
    model.parent.mkdir()
    model.write_bytes(b"w")
    code = ("import sys, time\nfrom pathlib import Path\nfrom assistant.llm.shared import acquire\n"
            f"s = acquire(Path({str(model)!r}), model_sha256='ab' * 32, run_dir=Path({str(tmp / 'run')!r}), "
            f"logs_dir=Path({str(tmp / 'logs')!r}), threads=1, ctx=512, parallel=1, alias='a', "
            f"keep_alive_s={KEEP_ALIVE_S}, start_timeout_s=30)\n"
            "print(s.pid, flush=True)\ntime.sleep(60)\n")
    starter = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert starter.stdout is not None
        pid = int(starter.stdout.readline())
        assert servers(tmp) == [pid]
    finally:
        starter.send_signal(signal.SIGKILL)  # no release, no cleanup: the server is now an orphan
        starter.wait()
    assert wait_for(lambda: not servers(tmp), KEEP_ALIVE_S + 5), "an orphaned server did not exit on idle"


def test_stale_entries_of_dead_servers_are_cleaned(fake_runtime: Path) -> None:
    tmp = fake_runtime
    run = tmp / "run"
    run.mkdir()
    dead = subprocess.Popen(["true"])
    dead.wait()  # an exited, reaped pid
    stale = {"pid": dead.pid, "port": 1, "api_key": "k", "sha256": "cd" * 32}
    (run / "llm-cdcdcdcdcdcdcdcd-t1-c512-p1.json").write_text(json.dumps(stale))  # another model's, dead
    (run / "llm-abababababababab-t1-c512-p1.json").write_text(json.dumps({**stale, "sha256": "ab" * 32}))
    model = tmp / "m.gguf"
    model.write_bytes(b"w")
    s = shared.acquire(model, model_sha256="ab" * 32, run_dir=run, logs_dir=tmp / "logs", threads=1, ctx=512,
                       parallel=1, alias="a", keep_alive_s=KEEP_ALIVE_S, start_timeout_s=30)
    try:
        assert not s.reused and s.pid != dead.pid and servers(tmp) == [s.pid]
        assert sorted(p.name for p in run.glob("*.json")) == ["llm-abababababababab-t1-c512-p1.json"]
        assert json.loads(s.state.read_text())["pid"] == s.pid
    finally:
        s.state.unlink()  # its registry entry is gone: the server exits at its next look
    assert wait_for(lambda: not servers(tmp), 5)
    reap()


def test_a_server_whose_entry_names_another_exits(fake_runtime: Path) -> None:
    tmp = fake_runtime
    model = tmp / "m.gguf"
    model.write_bytes(b"w")
    s = shared.acquire(model, model_sha256="ab" * 32, run_dir=tmp / "run", logs_dir=tmp / "logs", threads=1,
                       ctx=512, parallel=1, alias="a", keep_alive_s=60, start_timeout_s=30)
    info = json.loads(s.state.read_text())
    s.state.write_text(json.dumps({**info, "pid": 1}))  # the registry now points at another server
    assert wait_for(lambda: not servers(tmp), 5), "a replaced server stayed up (it would never idle out)"
    reap()
