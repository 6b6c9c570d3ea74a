"""A bundled LLM server shared by successive `assistant` commands, kept warm for a while like Ollama's keep-alive.

The first command starts a detached server and records it in a state file (mode 0600: it holds the API
key); later commands find it healthy and reuse it, skipping the model load and keeping its prompt cache.
Every use touches the state file; the server exits by itself after ``keep_alive_s`` without a touch.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .server import HOST, LocalLLMServer, health


@dataclass(frozen=True)
class SharedServer:
    base_url: str
    api_key: str
    pid: int
    reused: bool
    state: Path

    def touch(self) -> None:
        try:
            self.state.touch()
        except OSError:
            pass


@contextmanager
def _locked(path: Path) -> Any:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def acquire(model_path: Path, *, run_dir: Path, logs_dir: Path, threads: int, ctx: int, parallel: int,
            alias: str, keep_alive_s: float, start_timeout_s: float) -> SharedServer:
    """Reuse the running server for this model and settings, or start one that outlives this process."""
    key = f"{model_path.stat().st_size}-{model_path.name}-{threads}-{ctx}-{parallel}"
    state = run_dir / f"llm-{key}.json"
    with _locked(run_dir / f"llm-{key}.lock"):
        if state.exists():
            try:
                info = json.loads(state.read_text())
                root = f"http://{HOST}:{int(info['port'])}"
                if info.get("model") == str(model_path) and _alive(int(info["pid"])) and health(root):
                    state.touch()
                    return SharedServer(root + "/v1", str(info["api_key"]), int(info["pid"]), True, state)
            except (OSError, ValueError, KeyError):
                pass
            state.unlink(missing_ok=True)
        state.touch(mode=0o600)
        os.chmod(state, 0o600)
        server = LocalLLMServer(model_path, logs_dir=logs_dir, threads=threads, ctx=ctx, parallel=parallel,
                                alias=alias, start_timeout_s=start_timeout_s,
                                extra_args=("--keep-alive-file", str(state), "--idle-exit-s", str(keep_alive_s)))
        try:
            server.start()
        except BaseException:
            state.unlink(missing_ok=True)
            raise
        assert server.pid is not None and server.port is not None
        state.write_text(json.dumps({"pid": server.pid, "port": server.port, "api_key": server.api_key,
                                     "model": str(model_path), "started": time.time()}))
        server._proc = None  # detached: this process no longer owns it (it exits when idle)
        return SharedServer(server.base_url, server.api_key, server.pid, False, state)


def keeper(state_touch: Callable[[], None], every_s: float = 30.0) -> Callable[[], None]:
    """While a long-running command (the voice loop, chat) lives, keep the shared server from idling out."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(every_s):
            state_touch()

    threading.Thread(target=run, name="llm-keep-alive", daemon=True).start()
    return stop.set
