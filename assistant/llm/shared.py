"""A bundled LLM server shared by successive `assistant` commands, kept warm for a while like Ollama's keep-alive.

One server per model *content* (its pinned sha256) and runtime settings, whatever data dir a command uses: the
registry is a directory of entries (``run_dir``, per user: ``~/.cache/hearth/run``), one JSON file per key,
mode 0600 because it holds the API key. A per-key lock makes two commands starting at once start one server.

The entry is also the server's lease: every use touches it, and the server child (``serve.py``) exits by
itself once it has gone ``keep_alive_s`` untouched, once the entry is gone, or once it names another server —
so a server outlives the command that started it but never its clients, even when that command was killed.
An entry whose server is dead is removed by the next command that looks (any key).
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
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


def registry_key(model_sha256: str, *, threads: int, ctx: int, parallel: int) -> str:
    """The model's identity (content hash, not its path: every data dir has its own copy) and its settings."""
    return f"{model_sha256[:16]}-t{threads}-c{ctx}-p{parallel}"


@contextmanager
def _locked(path: Path, *, wait: bool = True) -> Iterator[bool]:
    """Hold an exclusive flock on ``path``; yields False (not holding it) when ``wait`` is off and it is taken."""
    with path.open("a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process reusing the pid: not ours, but not dead either
        return True
    return True


def _read(state: Path) -> dict[str, Any] | None:
    try:
        info = json.loads(state.read_text())
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) else None


def _write(state: Path, info: dict[str, Any]) -> None:
    """Replace the entry atomically (the server child reads it every second), owner-only."""
    tmp = state.with_name(state.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(json.dumps(info))
    os.replace(tmp, state)


def sweep(run_dir: Path) -> list[Path]:
    """Remove entries whose server process is dead; entries being written (their lock held) are left alone."""
    removed = []
    for state in sorted(run_dir.glob("llm-*.json")):
        with _locked(state.with_suffix(".lock"), wait=False) as held:
            if not held:
                continue
            info = _read(state)
            pid = info.get("pid") if info else None
            if isinstance(pid, int) and _alive(pid):
                continue
            state.unlink(missing_ok=True)  # dead, or never completed (its starter died mid-start)
            removed.append(state)
    return removed


def acquire(model_path: Path, *, model_sha256: str, run_dir: Path, logs_dir: Path, threads: int, ctx: int,
            parallel: int, alias: str, keep_alive_s: float, start_timeout_s: float) -> SharedServer:
    """Reuse the running server for this model and settings, or start one that outlives this process.

    ``model_sha256`` is the model file's verified content hash (the pinned one; never recomputed here).
    """
    run_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = registry_key(model_sha256, threads=threads, ctx=ctx, parallel=parallel)
    state = run_dir / f"llm-{key}.json"
    fresh = LocalLLMServer(model_path, logs_dir=logs_dir, threads=threads, ctx=ctx, parallel=parallel, alias=alias,
                           start_timeout_s=start_timeout_s,
                           extra_args=("--keep-alive-file", str(state), "--idle-exit-s", str(keep_alive_s)))
    with _locked(state.with_suffix(".lock")):  # serve.py's end_lease takes the same lock to exit
        server = _reuse_or_start(state, model_path, model_sha256, fresh)
    sweep(run_dir)  # other keys' dead entries (a model or settings no longer used)
    return server


def _reuse_or_start(state: Path, model_path: Path, model_sha256: str, server: LocalLLMServer) -> SharedServer:
    """Under the key's lock: the registered server if it is alive and healthy, else ``server``, started."""
    info = _read(state)
    if info is not None:
        try:
            root = f"http://{HOST}:{int(info['port'])}"
            owner = int(info["pid"])
            if info.get("sha256") == model_sha256 and _alive(owner) and health(root):
                state.touch()
                return SharedServer(root + "/v1", str(info["api_key"]), owner, True, state)
        except (KeyError, TypeError, ValueError):
            pass
    # Nothing usable. A live but unhealthy server that this entry named sees the new entry and exits.
    _write(state, {})  # the new server's lease, empty (unclaimed) until it is ready
    try:
        server.start()
    except BaseException:
        state.unlink(missing_ok=True)
        raise
    pid = server.pid
    assert pid is not None and server.port is not None
    _write(state, {"pid": pid, "port": server.port, "api_key": server.api_key,
                   "sha256": model_sha256, "model": str(model_path), "started": time.time()})
    server._proc = None  # detached: this process no longer owns it (it exits when idle)
    return SharedServer(server.base_url, server.api_key, pid, False, state)


def keeper(state_touch: Callable[[], None], every_s: float = 30.0) -> Callable[[], None]:
    """While a long-running command (the voice loop, chat) lives, keep the shared server from idling out."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(every_s):
            state_touch()

    threading.Thread(target=run, name="llm-keep-alive", daemon=True).start()
    return stop.set
