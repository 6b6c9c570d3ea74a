"""A fake OpenAI-compatible chat server over real HTTP on 127.0.0.1, for the client tests."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class FakeBehaviour:
    mode: str = "ok"  # ok | 500 | 401 | hang | no-choices
    content: str = "hello"
    finish: str = "stop"  # finish_reason of a whole reply ("length": cut off at max_tokens)
    chunks: list[str] = field(default_factory=lambda: ["Hel", "lo", ", wor", "ld"])
    echo: str = ""  # text put into error bodies (to check that secrets are scrubbed)
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    hits: int = 0
    release: threading.Event = field(default_factory=threading.Event)


class FakeOpenAI:
    def __init__(self) -> None:
        self.behaviour = FakeBehaviour()
        behaviour = self.behaviour

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _json(self, status: int, payload: Any, extra: dict[str, str] | None = None) -> None:
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for k, v in (extra or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                behaviour.hits += 1
                if self.path.endswith("/models"):
                    self._json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model",
                                                                  "created": 0, "owned_by": "me"}]})
                else:
                    self._json(404, {"error": {"message": "no such route"}})

            def do_POST(self) -> None:
                behaviour.hits += 1
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                behaviour.requests.append(body)
                behaviour.headers.append({k.lower(): v for k, v in self.headers.items()})
                if behaviour.mode == "hang":
                    behaviour.release.wait(30)
                    return
                if behaviour.mode == "500":
                    self._json(500, {"error": {"message": f"boom {behaviour.echo}", "type": "server_error"}},
                               {"retry-after-ms": "10"})
                    return
                if behaviour.mode == "401":
                    self._json(401, {"error": {"message": f"bad key {behaviour.echo}", "type": "auth"}})
                    return
                if body.get("stream"):
                    self._stream(body)
                    return
                choices = [] if behaviour.mode == "no-choices" else [
                    {"index": 0, "finish_reason": behaviour.finish,
                     "message": {"role": "assistant", "content": behaviour.content}}]
                self._json(200, {"id": "x", "object": "chat.completion", "created": 0,
                                 "model": body.get("model", "m"), "choices": choices})

            def _stream(self, body: dict[str, Any]) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()

                def event(delta: dict[str, Any], finish: str | None = None) -> None:
                    chunk = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m",
                             "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()

                event({"role": "assistant", "content": ""})
                for piece in behaviour.chunks:
                    event({"content": piece})
                event({}, "stop")
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.behaviour.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server
