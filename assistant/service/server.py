"""Runs the HTTP service under uvicorn, in the foreground (`assistant serve`) or in a thread (the voice loop).

While it runs, ``<data dir>/service.json`` (0600) says where: the CLI finds the service through it when the
store is held. The store is opened on the worker thread that will own it, before the port is bound, so a
second owner fails at once with ``store_locked``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from assistant.compose import Hearth
from assistant.service.security import TOKEN_FILE, ensure_token, is_loopback, make_guard, write_private
from hearth_errors import HearthError
from memory.timeutil import iso

SERVICE_FILE = "service.json"


class ServiceError(HearthError):
    code = "service_error"


@dataclass(frozen=True)
class ServiceInfo:
    pid: int
    host: str
    port: int
    started_at: str
    csrf: str

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise ServiceError(f"cannot serve on {host}:{port}: {e.strerror}",
                           hint="another program uses that port: set service.port in the config, or --port") from e
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def read_service_file(data_dir: Path) -> ServiceInfo | None:
    """The running service's address, or None when there is none (a stale file of a dead process included)."""
    try:
        raw = json.loads((data_dir / SERVICE_FILE).read_text())
        info = ServiceInfo(int(raw["pid"]), str(raw["host"]), int(raw["port"]), str(raw["started_at"]),
                           str(raw["csrf"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        os.kill(info.pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # alive, another user's
    return info


def _quiet_server(uvicorn: Any) -> Any:
    """uvicorn's Server re-raises SIGTERM after it stops, which would kill us before the store is closed:
    here signals are the caller's business (``Service.serve`` handles them; a thread gets none)."""

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Any:
            yield

    return Server


class Service:
    def __init__(self, app: Hearth, *, host: str | None = None, port: int | None = None) -> None:
        self.app = app
        self.host = host or app.settings.service.host
        self.port = app.settings.service.port if port is None else port
        token = None if is_loopback(self.host) else ensure_token(app.data_dir)
        self.token_path = None if token is None else app.data_dir / TOKEN_FILE
        self.guard = make_guard(self.host, token)
        self._server: Any = None
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self.info: ServiceInfo | None = None

    def open(self) -> ServiceInfo:
        """Own the store, bind the port, build the app, say where; returns what the service file says."""
        import uvicorn  # late: only the service needs a web server

        from assistant.service.api import LocalAPI
        from assistant.service.web import Runtime, Workers, build_app

        self.workers = Workers()
        try:
            self.workers.store.submit(self._open_stores).result()
            self._sock = bind(self.host, self.port)
        except BaseException:
            self.close()
            raise
        port = int(self._sock.getsockname()[1])
        asgi = build_app(LocalAPI(self.app), self.guard, workers=self.workers, runtime=Runtime(port))
        config = uvicorn.Config(asgi, log_level="warning", access_log=False, lifespan="off", server_header=False)
        self._server = _quiet_server(uvicorn)(config)
        self.info = ServiceInfo(os.getpid(), self.host, port, iso(self.app.now()) or "", self.guard.csrf)
        write_private(self.app.data_dir / SERVICE_FILE, json.dumps(asdict(self.info)) + "\n")
        return self.info

    def _open_stores(self) -> None:
        _ = self.app.graph  # opens the graph store (StoreLocked when another process has it)
        _ = self.app.transcripts

    def serve(self) -> None:
        """Serve until SIGINT/SIGTERM (main thread) or ``stop()``; then release everything."""
        if self._server is None:
            self.open()
        server = self._server

        def on_signal(signum: int, frame: Any) -> None:
            if server.should_exit:  # a second Ctrl-C: stop waiting for open requests
                server.force_exit = True
            server.should_exit = True

        previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            server.run(sockets=[self._sock])
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self.close()

    def start_in_thread(self) -> ServiceInfo:
        """For a process whose main thread is busy (the voice loop): serve on a daemon thread."""
        info = self.open()
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]},
                                        name="hearth-http", daemon=True)
        self._thread.start()
        return info

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.close()

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if getattr(self, "workers", None) is not None:
            self.workers.store.submit(self.app.close).result()  # the owner thread releases the store
            self.workers.shutdown()
            self.workers = None  # type: ignore[assignment]
        path = self.app.data_dir / SERVICE_FILE
        current = read_service_file(self.app.data_dir)
        if current is not None and self.info is not None and current.pid == self.info.pid:
            path.unlink(missing_ok=True)
