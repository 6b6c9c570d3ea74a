"""Run the bundled model server in a child process and wait until it answers on 127.0.0.1."""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections import deque
from pathlib import Path
from types import TracebackType

from memory.llm import LLMUnavailable

from .serve import API_KEY_ENV

log = logging.getLogger(__name__)

HOST = "127.0.0.1"


def free_port(host: str = HOST) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _rotate(path: Path, max_bytes: int = 5 << 20) -> None:
    """Keep one previous log once the current one passes ``max_bytes``."""
    try:
        if path.stat().st_size > max_bytes:
            os.replace(path, path.with_name(path.name + ".1"))
    except OSError:
        pass


def tail(path: Path, n: int = 15) -> str:
    try:
        with path.open("r", encoding="utf-8", errors="replace") as f:
            return "".join(deque(f, maxlen=n)).rstrip()
    except OSError:
        return "(no log)"


_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback never via a proxy


def health(root_url: str, timeout_s: float = 2.0) -> bool:
    """True once the server has loaded the model (llama.cpp answers 503 while loading)."""
    try:
        with _NO_PROXY.open(f"{root_url}/health", timeout=timeout_s) as r:
            body = json.loads(r.read() or b"{}")
            return r.status == 200 and body.get("status", "ok") == "ok"
    except (OSError, ValueError):  # URLError, HTTPError (503), refused, timeout, bad JSON
        return False


class LocalLLMServer:
    """The bundled llama.cpp server as a child process; ``with LocalLLMServer(...) as s: s.base_url``."""

    def __init__(
        self,
        model_path: Path,
        *,
        logs_dir: Path,
        threads: int = 2,
        ctx: int = 4096,
        parallel: int = 1,
        alias: str = "hearth-local",
        start_timeout_s: float = 120.0,
        port: int | None = None,
        extra_args: tuple[str, ...] = (),
    ) -> None:
        self.model_path = Path(model_path)
        self.logs_dir = Path(logs_dir)
        self.threads = threads
        self.ctx = ctx
        self.parallel = parallel
        self.alias = alias
        self.start_timeout_s = start_timeout_s
        self.port = port
        self.extra_args = extra_args
        self.api_key = secrets.token_urlsafe(24)  # keeps other local users off the server
        self.log_path = self.logs_dir / "llm-server.log"
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def root_url(self) -> str:
        if self.port is None:
            raise RuntimeError("the LLM server is not started")
        return f"http://{HOST}:{self.port}"

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (``.../v1``)."""
        return f"{self.root_url}/v1"

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "assistant.llm.serve",
            "--model", str(self.model_path), "--host", HOST, "--port", str(self.port),
            "--threads", str(self.threads), "--ctx", str(self.ctx), "--parallel", str(self.parallel),
            "--alias", self.alias, *self.extra_args,
        ]

    def start(self) -> LocalLLMServer:
        if self._proc is not None:
            return self
        self.logs_dir.mkdir(parents=True, exist_ok=True)
        _rotate(self.log_path)
        if self.port is None:
            self.port = free_port()
        env = {**os.environ, API_KEY_ENV: self.api_key}
        # Make sure the child finds this package even when run from a checkout (not installed).
        pkg_root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (pkg_root, env.get("PYTHONPATH", "")) if p)
        t0 = time.monotonic()
        with self.log_path.open("ab") as logf:
            logf.write(f"\n--- start {time.strftime('%Y-%m-%d %H:%M:%S')} port {self.port}\n".encode())
            logf.flush()
            self._proc = subprocess.Popen(
                self.command(), stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT, env=env,
                start_new_session=True,  # Ctrl-C in the terminal reaches the parent only; it stops us
            )
        log.info("LLM server pid %d starting on %s (log %s)", self._proc.pid, self.root_url, self.log_path)
        try:
            self._wait_ready(t0)
        except BaseException:
            self.stop()
            raise
        log.info("LLM server ready in %.1fs", time.monotonic() - t0)
        return self

    def _wait_ready(self, t0: float) -> None:
        assert self._proc is not None
        delay = 0.05
        while True:
            code = self._proc.poll()
            if code is not None:
                raise LLMUnavailable(
                    f"the bundled LLM server exited early (code {code}); last lines of {self.log_path}:\n"
                    + tail(self.log_path),
                    hint="check the model file and free memory; `assistant doctor` verifies the weights")
            if health(self.root_url, timeout_s=1.0):
                return
            if time.monotonic() - t0 > self.start_timeout_s:
                raise LLMUnavailable(
                    f"the bundled LLM server was not ready after {self.start_timeout_s:.0f}s; "
                    f"last lines of {self.log_path}:\n" + tail(self.log_path),
                    hint="a slow or busy machine: raise llm.start_timeout_s, or use the 0.5b model")
            time.sleep(delay)
            delay = min(delay * 1.5, 0.5)

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def stop(self, timeout_s: float = 5.0) -> None:
        """Terminate the child; kill it if it has not gone after ``timeout_s``."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            log.warning("LLM server pid %d ignored SIGTERM; killing it", proc.pid)
            proc.kill()
            proc.wait(timeout=timeout_s)

    def __enter__(self) -> LocalLLMServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
