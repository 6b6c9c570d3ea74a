"""The HTTP API and the review page (Starlette): a thin adapter from requests to the application interface.

Store work never runs on the event loop: every call goes to one worker thread that owns the store (the
kglite handle serves one thread at a time), answers to a second one (they wait on the language model).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from assistant.service.api import LocalAPI
from assistant.service.security import CSRF_HEADER, TOKEN_COOKIE, Guard
from hearth_errors import HearthError

MAX_BODY = 64 * 1024
STATUS = {"not_found": 404, "store_locked": 503, "store_unavailable": 503, "llm_unavailable": 503,
          "unauthorized": 401, "forbidden": 403, "too_large": 413}
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}


def error_response(code: str, message: str, hint: str | None = None, status: int | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, "hint": hint}},
                        status_code=status or STATUS.get(code, 400))


class Workers:
    """One thread owns the store; answering (slow, mostly the LLM) has its own so reviews stay quick."""

    def __init__(self) -> None:
        self.store = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hearth-store")
        self.answer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hearth-answer")

    async def run(self, fn: Callable[..., Any], *args: Any, pool: ThreadPoolExecutor | None = None,
                  **kw: Any) -> Any:
        return await asyncio.wrap_future((pool or self.store).submit(fn, *args, **kw))

    def shutdown(self) -> None:
        self.store.shutdown(wait=True, cancel_futures=True)
        self.answer.shutdown(wait=False, cancel_futures=True)


class _Guarded(BaseHTTPMiddleware):
    def __init__(self, app: Any, guard: Guard) -> None:
        super().__init__(app)
        self.guard = guard

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        g, h = self.guard, request.headers
        if not g.host_ok(h.get("host")):
            return error_response("forbidden", "this service answers only to its own address")
        if request.url.path == "/" and g.token is not None and request.query_params.get("token"):
            given = request.query_params["token"]  # a link with the token logs the browser in once
            if g.token_ok(f"Bearer {given}", None):
                login = RedirectResponse("/", status_code=303)
                login.set_cookie(TOKEN_COOKIE, given, httponly=True, samesite="strict")
                return login
        if not g.token_ok(h.get("authorization"), request.cookies.get(TOKEN_COOKIE)):
            return error_response("unauthorized", "a token is needed for this address",
                                  hint="send `Authorization: Bearer <token>` (the token is in the data dir)")
        if request.method not in ("GET", "HEAD"):
            if not g.post_ok(h.get(CSRF_HEADER), h.get("origin"), h.get("host")):
                return error_response("forbidden", "missing or wrong CSRF token, or a foreign origin")
            if int(h.get("content-length") or 0) > MAX_BODY:
                return error_response("too_large", f"request body over {MAX_BODY} bytes")
        resp = await call_next(request)
        for k, v in SECURITY_HEADERS.items():
            resp.headers.setdefault(k, v)
        return resp


class Runtime:
    """What /health says about the process serving."""

    def __init__(self, port: int = 0) -> None:
        self.pid = os.getpid()
        self.port = port
        self.started = time.monotonic()

    def info(self) -> dict[str, Any]:
        return {"pid": self.pid, "port": self.port, "uptime_s": round(time.monotonic() - self.started, 1)}


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise HearthError(f"request body over {MAX_BODY} bytes", code="too_large")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise HearthError(f"the request body is not JSON ({e})", code="invalid_input") from None
    if not isinstance(data, dict):
        raise HearthError("the request body must be a JSON object", code="invalid_input")
    return data


def _int(request: Request, key: str, default: int) -> int:
    raw = request.query_params.get(key)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise HearthError(f"{key} must be a whole number", code="invalid_input") from None


def _page() -> str:
    return (files("assistant.service") / "static" / "index.html").read_text(encoding="utf-8")


def build_app(api: LocalAPI, guard: Guard, *, workers: Workers | None = None,
              runtime: Runtime | None = None) -> Starlette:
    w = workers or Workers()
    rt = runtime or Runtime()
    page = _page().replace("{{csrf}}", guard.csrf)  # url-safe base64: nothing to escape

    def handler(fn: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                return JSONResponse(await fn(request))
            except HearthError as e:
                return error_response(e.code, e.message, e.hint)
            except Exception as e:  # a bug, not bad input: say so without a traceback
                return error_response("internal", f"unexpected {type(e).__name__}: {e}", status=500)
        return endpoint

    async def index(request: Request) -> Response:
        return HTMLResponse(page)

    async def health(request: Request) -> Any:
        return rt.info() | {k: v for k, v in (await w.run(api.health)).items() if k not in ("pid", "port",
                                                                                           "uptime_s")}

    async def conversations(request: Request) -> Any:
        p = request.query_params
        return await w.run(api.conversations, q=p.get("q"), speaker=p.get("speaker"), since=p.get("since"),
                           until=p.get("until"), limit=_int(request, "limit", 50), offset=_int(request, "offset", 0))

    async def conversation(request: Request) -> Any:
        return await w.run(api.conversation, request.path_params["cid"])

    async def entities(request: Request) -> Any:
        return await w.run(api.entities)

    async def entity(request: Request) -> Any:
        return await w.run(api.entity, request.path_params["eid"])

    async def facts(request: Request) -> Any:
        p = request.query_params
        return await w.run(api.facts, entity=p.get("entity") or None, at=p.get("at") or None,
                           history=p.get("history") in ("1", "true", "yes"))

    async def ask(request: Request) -> Any:
        b = await _body(request)
        return await w.run(api.ask, b.get("question"), at=b.get("at"), pool=w.answer)

    async def add(request: Request) -> Any:
        b = await _body(request)
        return await w.run(api.add_fact, b.get("subject"), b.get("relation"), b.get("object"), at=b.get("at"),
                           label=b.get("label"))

    async def end(request: Request) -> Any:
        b = await _body(request)
        return await w.run(api.end_fact, request.path_params["aid"], at=b.get("at"))

    async def correct(request: Request) -> Any:
        b = await _body(request)
        return await w.run(api.correct_fact, request.path_params["aid"], obj=b.get("object"),
                           relation=b.get("relation"))

    async def forget_fact(request: Request) -> Any:
        return await w.run(api.forget_fact, request.path_params["aid"])

    async def forget_entity(request: Request) -> Any:
        return await w.run(api.forget_entity, request.path_params["eid"])

    async def forget_conversation(request: Request) -> Any:
        return await w.run(api.forget_conversation, request.path_params["cid"])

    async def stats(request: Request) -> Any:
        return await w.run(api.stats)

    async def export(request: Request) -> Any:
        return await w.run(api.export, request.query_params.get("format") or "json")

    async def export_transcripts(request: Request) -> Any:
        return await w.run(api.export_transcripts)

    async def consolidate(request: Request) -> Any:
        return await w.run(api.consolidate)

    async def consolidations(request: Request) -> Any:
        return await w.run(api.consolidations, limit=_int(request, "limit", 20))

    async def merges(request: Request) -> Any:
        return await w.run(api.merges, limit=_int(request, "limit", 50))

    async def undo_merge(request: Request) -> Any:
        return await w.run(api.undo_merge, request.path_params["mid"])

    async def corrections(request: Request) -> Any:
        return await w.run(api.corrections, limit=_int(request, "limit", 20))

    async def undo_last_correction(request: Request) -> Any:
        return await w.run(api.undo_last_correction)

    routes = [
        Route("/", index),
        Route("/health", handler(health)),
        Route("/api/conversations", handler(conversations)),
        Route("/api/conversations/{cid:path}", handler(conversation)),
        Route("/api/entities", handler(entities)),
        Route("/api/entities/{eid:path}/forget", handler(forget_entity), methods=["POST"]),
        Route("/api/conversations/{cid:path}/forget", handler(forget_conversation), methods=["POST"]),
        Route("/api/entities/{eid:path}", handler(entity)),
        Route("/api/facts", handler(facts)),
        Route("/api/facts", handler(add), methods=["POST"]),
        Route("/api/facts/{aid}/end", handler(end), methods=["POST"]),
        Route("/api/facts/{aid}/correct", handler(correct), methods=["POST"]),
        Route("/api/facts/{aid}/forget", handler(forget_fact), methods=["POST"]),
        Route("/api/ask", handler(ask), methods=["POST"]),
        Route("/api/stats", handler(stats)),
        Route("/api/export", handler(export)),
        Route("/api/transcripts/export", handler(export_transcripts)),
        Route("/api/consolidate", handler(consolidate), methods=["POST"]),
        Route("/api/consolidations", handler(consolidations)),
        Route("/api/merges", handler(merges)),
        Route("/api/merges/{mid}/undo", handler(undo_merge), methods=["POST"]),
        Route("/api/corrections", handler(corrections)),
        Route("/api/corrections/undo-last", handler(undo_last_correction), methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(files("assistant.service") / "static")), name="static"),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        code = getattr(exc, "status_code", 404)
        return error_response("not_found" if code == 404 else "method_not_allowed" if code == 405 else "http_error",
                              f"{request.method} {request.url.path}: {getattr(exc, 'detail', '')}", status=code)

    return Starlette(routes=routes, middleware=[Middleware(_Guarded, guard=guard)],
                     exception_handlers={404: not_found, 405: not_found}, max_body_size=MAX_BODY)
