"""LocalLLMServer's child-process handling, with stand-in children (no model needed)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from assistant.llm.server import LocalLLMServer, free_port, health, tail
from memory.llm import LLMUnavailable

ROOT = Path(__file__).resolve().parents[2]

# Answers /health with 200 after a short "load"; ignores SIGTERM when asked to (so stop() must kill).
FAKE_SERVE = textwrap.dedent("""
    import os, signal, sys, time
    from http.server import BaseHTTPRequestHandler, HTTPServer
    port = int(sys.argv[1])
    if sys.argv[2] == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print("fake: key " + ("set" if os.environ.get("HEARTH_LLM_API_KEY") else "missing"), flush=True)
    time.sleep(0.3)
    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200); self.send_header("Content-Length", "15"); self.end_headers()
            self.wfile.write(b'{"status":"ok"}')
        def log_message(self, *a): pass
    HTTPServer(("127.0.0.1", port), H).serve_forever()
""")


class FakeChildServer(LocalLLMServer):
    def __init__(self, tmp: Path, mode: str, **kw: object) -> None:
        super().__init__(tmp / "model.gguf", logs_dir=tmp / "logs", **kw)  # type: ignore[arg-type]
        self.mode = mode

    def command(self) -> list[str]:
        if self.mode == "sleep":
            return [sys.executable, "-c", "import time; print('loading forever', flush=True); time.sleep(60)"]
        return [sys.executable, "-c", FAKE_SERVE, str(self.port), self.mode]


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_real_child_dies_early_and_its_log_is_reported(tmp_path: Path) -> None:
    server = LocalLLMServer(tmp_path / "missing.gguf", logs_dir=tmp_path / "logs", start_timeout_s=60)
    t0 = time.monotonic()
    with pytest.raises(LLMUnavailable, match="exited early") as ei:
        server.start()
    assert time.monotonic() - t0 < 30
    assert "model file not found" in ei.value.message  # the last lines of the child's log
    assert (tmp_path / "logs" / "llm-server.log").is_file()
    assert not server.alive()


def test_real_child_reports_a_bad_model_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(LLMUnavailable, match="exited early") as ei:
        LocalLLMServer(bad, logs_dir=tmp_path / "logs", start_timeout_s=60).start()
    assert "could not start the model server" in ei.value.message


def test_start_waits_for_health_and_stop_terminates(tmp_path: Path) -> None:
    with FakeChildServer(tmp_path, "polite") as server:
        assert server.alive() and server.pid is not None
        pid = server.pid
        assert server.base_url == f"http://127.0.0.1:{server.port}/v1"
        assert health(server.root_url)
    assert not server.alive()
    assert gone(pid)
    assert "fake: key set" in tail(tmp_path / "logs" / "llm-server.log")  # the key went by environment
    assert server.api_key not in " ".join(server.command())  # never on the command line


def test_stop_kills_a_child_that_ignores_sigterm(tmp_path: Path) -> None:
    server = FakeChildServer(tmp_path, "stubborn").start()
    pid = server.pid
    assert pid is not None
    t0 = time.monotonic()
    server.stop(timeout_s=0.5)
    assert time.monotonic() - t0 < 5
    assert gone(pid)


def test_start_timeout_stops_the_child(tmp_path: Path) -> None:
    server = FakeChildServer(tmp_path, "sleep", start_timeout_s=1.0)
    with pytest.raises(LLMUnavailable, match="not ready after 1s") as ei:
        server.start()
    assert "loading forever" in ei.value.message
    assert not server.alive()


def test_free_port_is_bindable() -> None:
    import socket

    port = free_port()
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))
    assert not health(f"http://127.0.0.1:{port}", timeout_s=0.5)


def run_py(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_main_process_modules_never_import_xllamacpp() -> None:
    r = run_py(
        "import sys, assistant.llm, assistant.llm.client, assistant.llm.server, assistant.llm.weights\n"
        "assert 'xllamacpp' not in sys.modules, 'xllamacpp leaked into the main process'\n"
        "assert 'openai' not in sys.modules, 'openai imported eagerly'\n"
        "print('ok')"
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_serve_params_enable_prompt_cache_and_slots() -> None:
    r = run_py(
        "from assistant.llm.serve import build_params, parse_args\n"
        "a = parse_args(['--model', 'm.gguf', '--port', '1234', '--threads', '3', '--ctx', '2048'])\n"
        "p = build_params(a, 'k')\n"
        "assert p.cache_prompt and p.n_parallel == 1 and p.kv_unified and p.n_ctx == 2048\n"
        "assert p.port == 1234 and p.hostnames == ['127.0.0.1'] and p.cpuparams.n_threads == 3\n"
        "assert p.api_keys == ['k'] and p.model.path == 'm.gguf'\n"
        "print('ok')"
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_log_is_rotated_when_large(tmp_path: Path) -> None:
    from assistant.llm.server import _rotate

    log = tmp_path / "llm-server.log"
    log.write_text("x" * 100)
    _rotate(log, max_bytes=1000)
    assert log.exists()
    _rotate(log, max_bytes=10)
    assert not log.exists() and (tmp_path / "llm-server.log.1").read_text() == "x" * 100
