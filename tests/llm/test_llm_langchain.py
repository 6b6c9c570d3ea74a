"""LangChainChat (the default client) against a fake OpenAI-compatible server over real HTTP.

Most tests run both clients side by side: the LangChain path must behave as OpenAIChat does (same requests,
same errors, same messages) — the only difference on the wire is the name of the token limit, which
ChatOpenAI sends as ``max_completion_tokens`` (llama.cpp and OpenAI read both).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from assistant.llm.client import OpenAIChat
from assistant.llm.langchain_chat import LangChainChat, provider_kwargs
from memory.llm import LLM, LLMBadOutput, LLMUnavailable

SCHEMA = {
    "title": "Fact extraction",
    "type": "object",
    "properties": {"relation": {"type": "string", "enum": ["lives_in", "works_at"]}},
    "required": ["relation"],
    "additionalProperties": False,
}
MSGS = [{"role": "system", "content": "You extract facts."}, {"role": "user", "content": "I live in Oslo."}]
SECRET = "sk-test-Secret-0123456789abcdef"
Make = Callable[..., Any]
CLIENTS: dict[str, Make] = {"langchain": LangChainChat.openai_compatible, "openai": OpenAIChat}


@pytest.fixture(params=list(CLIENTS))
def make(request: pytest.FixtureRequest) -> Make:
    return CLIENTS[request.param]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def max_tokens(body: dict[str, Any]) -> int:
    return int(body.get("max_completion_tokens", body.get("max_tokens", -1)))


def same_request(body: dict[str, Any]) -> dict[str, Any]:
    """A request body less what differs only in spelling (token limit name, an explicit stream=false)."""
    out = {k: v for k, v in body.items() if k not in ("max_tokens", "max_completion_tokens")}
    if out.get("stream") is False:
        del out["stream"]
    return {**out, "limit": max_tokens(body)}


def test_is_an_llm() -> None:
    llm: LLM = LangChainChat.openai_compatible("http://127.0.0.1:9/v1", "m")
    assert callable(llm.complete) and callable(llm.stream)


@pytest.mark.parametrize("llama_cpp", [False, True])
def test_structured_request_is_the_one_openaichat_sends(fake_openai: Any, llama_cpp: bool) -> None:
    fake_openai.behaviour.content = '{"relation": "lives_in"}'
    bodies = []
    for make in CLIENTS.values():
        out = make(fake_openai.base_url, "fake-model", timeout_s=5, llama_cpp=llama_cpp).complete(
            MSGS, json_schema=SCHEMA, max_tokens=42)
        assert json.loads(out) == {"relation": "lives_in"}
        bodies.append(same_request(fake_openai.behaviour.requests[-1]))
    assert bodies[0] == bodies[1]
    body = fake_openai.behaviour.requests[-2]  # the LangChain one
    assert body["messages"] == MSGS and body["model"] == "fake-model"
    assert body["max_completion_tokens"] == 42 and body["temperature"] == 0.0
    if llama_cpp:  # the bundled server: compact grammar + prompt cache, no response_format
        assert body["cache_prompt"] is True and body["grammar"].startswith("root-relation ::=")
        assert "response_format" not in body
    else:
        assert body["response_format"] == {
            "type": "json_schema",
            "json_schema": {"name": "Fact_extraction", "schema": SCHEMA, "strict": True},
        }
        assert "cache_prompt" not in body and "grammar" not in body


def test_stream_request_is_the_one_openaichat_sends(fake_openai: Any) -> None:
    bodies = []
    for make in CLIENTS.values():
        pieces = list(make(fake_openai.base_url, "m", timeout_s=5, llama_cpp=True).stream(MSGS, max_tokens=7))
        assert pieces == ["Hel", "lo", ", wor", "ld"]
        bodies.append(same_request(fake_openai.behaviour.requests[-1]))
    assert bodies[0] == bodies[1]
    assert bodies[0]["stream"] is True and bodies[0]["limit"] == 7 and bodies[0]["temperature"] == 0.2
    assert bodies[0]["cache_prompt"] is True


@pytest.mark.parametrize("model", ["o3-pro", "gpt-5-codex", "qwen2.5-coder-1.5b"])
def test_always_chat_completions(fake_openai: Any, model: str) -> None:
    """ChatOpenAI picks the Responses API for some model names; OpenAI-compatible servers lack it."""
    llm = LangChainChat.openai_compatible(fake_openai.base_url, model, timeout_s=5)
    assert llm.complete(MSGS) == "hello" and list(llm.stream(MSGS)) == ["Hel", "lo", ", wor", "ld"]


def test_plain_complete_with_a_history(fake_openai: Any, make: Make) -> None:
    history = [*MSGS, {"role": "assistant", "content": "Noted: Oslo."}, {"role": "user", "content": "And Anna?"},
               {"role": "assistant", "content": ""}, {"role": "user", "content": "ü → 🙂"}]
    llm = make(fake_openai.base_url, "m", timeout_s=5)
    assert llm.complete(history, max_tokens=9, temperature=0.5) == "hello"
    body = fake_openai.behaviour.requests[-1]
    assert body["messages"] == history
    assert max_tokens(body) == 9 and body["temperature"] == 0.5 and "response_format" not in body


def test_invalid_json_under_a_schema_is_bad_output(fake_openai: Any, make: Make) -> None:
    fake_openai.behaviour.content = '{"relation": "liv'
    with pytest.raises(LLMBadOutput, match="valid JSON: ") as ei:
        make(fake_openai.base_url, "m").complete(MSGS, json_schema=SCHEMA)
    assert ei.value.hint == "raise max_tokens or simplify the schema"


@pytest.mark.parametrize("llama_cpp", [False, True])
def test_json_cut_off_at_max_tokens_says_so(fake_openai: Any, make: Make, llama_cpp: bool) -> None:
    fake_openai.behaviour.content = '{"relation": "liv'
    fake_openai.behaviour.finish = "length"  # openai's parse() raises on this; the message must not change
    with pytest.raises(LLMBadOutput, match=r"did not return valid JSON \(cut off at max_tokens\): "
                                           r"'\{\"relation\": \"liv'"):
        make(fake_openai.base_url, "m", llama_cpp=llama_cpp).complete(MSGS, json_schema=SCHEMA)


def test_empty_reply_and_no_choices_are_bad_output(fake_openai: Any, make: Make) -> None:
    fake_openai.behaviour.content = ""
    with pytest.raises(LLMBadOutput, match="returned an empty reply"):
        make(fake_openai.base_url, "m").complete(MSGS)
    fake_openai.behaviour.mode = "no-choices"
    with pytest.raises(LLMBadOutput, match="returned no choices"):
        make(fake_openai.base_url, "m").complete(MSGS)


def test_connection_refused_is_unavailable_fast(make: Make) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    llm = make(url, "m", timeout_s=5, max_retries=0)
    t0 = time.monotonic()
    with pytest.raises(LLMUnavailable, match=f"cannot reach the LLM at {url}: ") as ei:
        llm.complete(MSGS)
    assert time.monotonic() - t0 < 2.0
    assert ei.value.hint == "is the server running? check llm.base_url"
    assert "\n" not in ei.value.message
    with pytest.raises(LLMUnavailable, match="cannot reach"):
        llm.stream(MSGS)  # connecting happens at call time, not at the first next()


@pytest.mark.parametrize("mode", ["500", "401", "hang", "no-choices", "empty", "bad-json"])
def test_failures_say_the_same_through_both_clients(fake_openai: Any, mode: str) -> None:
    fake_openai.behaviour.mode = mode if mode not in ("empty", "bad-json") else "ok"
    fake_openai.behaviour.content = {"empty": "", "bad-json": "{oops"}.get(mode, "hello")
    said = set()
    for make in CLIENTS.values():
        with pytest.raises((LLMUnavailable, LLMBadOutput)) as ei:
            make(fake_openai.base_url, "m", timeout_s=0.5, max_retries=0).complete(
                MSGS, json_schema=SCHEMA if mode == "bad-json" else None)
        said.add((type(ei.value), ei.value.message, ei.value.hint))
    assert len(said) == 1, said


def test_unreachable_says_the_same_through_both_clients() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    said = set()
    for make in CLIENTS.values():
        with pytest.raises(LLMUnavailable) as ei:
            make(url, "m", timeout_s=5, max_retries=0).complete(MSGS)
        said.add(ei.value.message)
    assert len(said) == 1 and "Connection refused" in said.pop()  # the root cause, not "Connection error."


def test_server_that_never_answers_times_out(fake_openai: Any, make: Make) -> None:
    fake_openai.behaviour.mode = "hang"
    llm = make(fake_openai.base_url, "m", timeout_s=0.5, max_retries=0)
    t0 = time.monotonic()
    with pytest.raises(LLMUnavailable, match=r"did not answer within 0\.5s \(1 attempt\)"):
        llm.complete(MSGS)
    assert time.monotonic() - t0 < 3.0


def test_per_call_timeout_overrides_the_clients(fake_openai: Any, make: Make) -> None:
    fake_openai.behaviour.mode = "hang"
    llm = make(fake_openai.base_url, "m", timeout_s=30, max_retries=0)
    t0 = time.monotonic()
    with pytest.raises(LLMUnavailable, match="did not answer"):
        llm.complete(MSGS, timeout_s=0.5)
    assert time.monotonic() - t0 < 3.0


def test_500_is_unavailable_after_retries(fake_openai: Any, make: Make) -> None:
    fake_openai.behaviour.mode = "500"
    with pytest.raises(LLMUnavailable, match=r"failed \(HTTP 500\): ") as ei:
        make(fake_openai.base_url, "m", timeout_s=5, max_retries=2).complete(MSGS)
    assert fake_openai.behaviour.hits == 3  # first try + 2 retries
    assert ei.value.hint == "see the server's log"


def test_api_key_never_in_errors_or_repr(fake_openai: Any, make: Make) -> None:
    fake_openai.behaviour.echo = f"you sent Bearer {SECRET}"
    llm = make(fake_openai.base_url, "m", api_key=SECRET, max_retries=0)
    assert SECRET not in repr(llm)
    for mode, pattern in (("401", r"refused the API key \(HTTP 401\)"), ("500", "HTTP 500")):
        fake_openai.behaviour.mode = mode
        with pytest.raises(LLMUnavailable, match=pattern) as ei:
            llm.complete(MSGS)
        assert SECRET not in str(ei.value) and SECRET not in repr(ei.value)
        assert mode == "401" or "you sent Bearer ***" in str(ei.value)  # the body is shown, scrubbed
        assert ei.value.__cause__ is None and ei.value.__suppress_context__
    assert fake_openai.behaviour.headers[-1]["authorization"] == f"Bearer {SECRET}"


def test_credentials_in_the_url_never_shown(fake_openai: Any, make: Make) -> None:
    port = closed_port()
    llm = make(f"http://bob:{SECRET}@127.0.0.1:{port}/v1", "m", max_retries=0)
    assert SECRET not in repr(llm)
    with pytest.raises(LLMUnavailable) as ei:
        llm.complete(MSGS)
    assert SECRET not in str(ei.value) and f"http://127.0.0.1:{port}/v1" in str(ei.value)


def test_ping(fake_openai: Any, make: Make) -> None:
    assert make(fake_openai.base_url, "m").ping().models == ("fake-model",)
    with pytest.raises(LLMUnavailable):
        make(f"http://127.0.0.1:{closed_port()}/v1", "m").ping(timeout_s=1)


def test_stream_closed_early_closes_the_response(fake_openai: Any) -> None:
    llm = LangChainChat.openai_compatible(fake_openai.base_url, "m", timeout_s=5)
    pieces = llm.stream(MSGS)
    assert next(pieces) == "Hel"
    pieces.close()  # e.g. the user interrupted the answer
    assert llm.complete(MSGS) == "hello"  # the client is still usable
    llm.close()


def test_nothing_goes_to_langsmith_even_when_the_environment_asks(fake_openai: Any) -> None:
    """LANGSMITH_TRACING=true would send every prompt to a tracing service: the adapter keeps it off."""
    hits: list[str] = []

    class Tracer(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        do_GET = do_PATCH = do_POST

    tracer = ThreadingHTTPServer(("127.0.0.1", 0), Tracer)
    threading.Thread(target=tracer.serve_forever, daemon=True).start()
    env = {**os.environ, "LANGSMITH_TRACING": "true", "LANGCHAIN_TRACING_V2": "true", "LANGSMITH_API_KEY": "x",
           "LANGSMITH_ENDPOINT": f"http://127.0.0.1:{tracer.server_address[1]}",
           "PYTHONPATH": os.pathsep.join(sys.path)}
    code = ("from assistant.llm.langchain_chat import LangChainChat\n"
            f"c = LangChainChat.openai_compatible({fake_openai.base_url!r}, 'm')\n"
            "print(c.complete([{'role': 'user', 'content': 'my diary'}]), ''.join(c.stream([])))")
    try:
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
        assert run.stdout.strip() == "hello Hello, world", run.stderr
        assert hits == []  # without the guard: /info and two /runs/multipart posts, prompts included
    finally:
        tracer.shutdown()
        tracer.server_close()


# --- init_chat_model: other providers -------------------------------------------------------------------


def test_init_chat_model_path_against_an_openai_compatible_server(fake_openai: Any) -> None:
    """The provider-neutral path (with_structured_output, per-call models), driven through init_chat_model."""
    llm = LangChainChat.for_provider("openai", "fake-model", base_url=fake_openai.base_url, api_key=SECRET,
                                     timeout_s=5, max_retries=0)
    assert llm.complete(MSGS, max_tokens=11, temperature=0.3) == "hello"
    body = fake_openai.behaviour.requests[-1]
    assert max_tokens(body) == 11 and body["temperature"] == 0.3 and body["messages"] == MSGS
    fake_openai.behaviour.content = '{"relation": "works_at"}'
    assert json.loads(llm.complete(MSGS, json_schema=SCHEMA)) == {"relation": "works_at"}
    fmt = fake_openai.behaviour.requests[-1]["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["schema"]["properties"] == SCHEMA["properties"]
    assert list(llm.stream(MSGS, max_tokens=5)) == ["Hel", "lo", ", wor", "ld"]
    fake_openai.behaviour.mode = "401"
    with pytest.raises(LLMUnavailable, match="refused the API key"):
        llm.complete(MSGS)
    assert SECRET not in repr(llm)


class FakeOllama:
    """Ollama's /api/chat over real HTTP: the reply in NDJSON pieces, the requests kept."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        requests = self.requests

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
                requests.append(body)
                text = '{"relation": "lives_in"}' if body.get("format") else "Hello there"
                stamp = {"model": body["model"], "created_at": "2026-11-23T00:00:00Z"}
                lines = [{**stamp, "message": {"role": "assistant", "content": part}, "done": False}
                         for part in (text[:5], text[5:])]
                lines.append({**stamp, "message": {"role": "assistant", "content": ""}, "done": True,
                              "done_reason": "stop"})
                out = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}"


def test_ollama_through_init_chat_model() -> None:
    pytest.importorskip("langchain_ollama")
    server = FakeOllama()
    try:
        llm = LangChainChat.for_provider("ollama", "qwen2.5:1.5b", base_url=server.base_url, timeout_s=5)
        assert llm.complete(MSGS, max_tokens=9, temperature=0.1) == "Hello there"
        body = server.requests[-1]
        assert body["model"] == "qwen2.5:1.5b" and body["messages"] == MSGS
        assert body["options"] == {"num_predict": 9, "temperature": 0.1}
        assert json.loads(llm.complete(MSGS, json_schema=SCHEMA)) == {"relation": "lives_in"}
        assert server.requests[-1]["format"]["properties"] == SCHEMA["properties"]  # Ollama's structured output
        assert list(llm.stream(MSGS, max_tokens=7)) == ["Hello", " there"]
        assert server.requests[-1]["options"] == {"num_predict": 7, "temperature": 0.2}
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()


def test_ollama_unreachable_is_unavailable() -> None:
    pytest.importorskip("langchain_ollama")
    url = f"http://127.0.0.1:{closed_port()}"
    llm = LangChainChat.for_provider("ollama", "qwen2.5:1.5b", base_url=url, timeout_s=2)
    with pytest.raises(LLMUnavailable, match=f"cannot reach the ollama model 'qwen2.5:1.5b' at {url}"):
        llm.complete(MSGS)
    with pytest.raises(LLMUnavailable, match="cannot reach"):
        llm.stream(MSGS)


def test_missing_provider_package_or_unknown_provider_is_a_clear_error() -> None:
    if sys.modules.get("langchain_anthropic") is None:
        try:
            import langchain_anthropic  # noqa: F401
        except ImportError:
            with pytest.raises(LLMUnavailable, match="needs the langchain-anthropic package") as ei:
                LangChainChat.for_provider("anthropic", "claude-x", api_key=SECRET)
            assert "pip install langchain-anthropic" in (ei.value.hint or "")
    with pytest.raises(LLMUnavailable, match=r"cannot set up the nonsense model 'm': Unsupported provider='nonsense'"):
        LangChainChat.for_provider("nonsense", "m")


def test_provider_kwargs() -> None:
    ollama = provider_kwargs("ollama", base_url="http://localhost:11434", api_key=None, timeout_s=9,
                             max_retries=1, max_tokens=5, temperature=0.0)
    assert ollama == {"temperature": 0.0, "base_url": "http://localhost:11434", "num_predict": 5,
                      "client_kwargs": {"timeout": 9, "trust_env": False}}
    other = provider_kwargs("anthropic", base_url=None, api_key="k", timeout_s=9, max_retries=2,
                            max_tokens=5, temperature=None)
    assert other == {"timeout": 9, "max_retries": 2, "api_key": "k", "max_tokens": 5}


def test_importing_the_assistant_does_not_import_langchain() -> None:
    code = ("import sys, assistant.llm, assistant.llm.langchain_chat, assistant.compose, assistant.pipeline; "
            "print(sorted(m for m in sys.modules if m.startswith(('langchain', 'openai'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# --- settings and wiring -------------------------------------------------------------------------------


def test_settings_pick_the_client_and_check_the_provider() -> None:
    from assistant.settings import ConfigError, parse_settings

    assert parse_settings({}).llm.client == "langchain"
    assert parse_settings({"llm": {"client": "openai", "provider": "openai"}}).llm.client == "openai"
    assert parse_settings({"llm": {"provider": "ollama"}}).llm.provider == "ollama"
    with pytest.raises(ConfigError, match="needs client: langchain"):
        parse_settings({"llm": {"provider": "ollama", "client": "openai"}})
    with pytest.raises(ConfigError, match="llm -> provider"):
        parse_settings({"llm": {"provider": "Not a provider"}})
    with pytest.raises(ConfigError, match="llm -> client"):
        parse_settings({"llm": {"client": "requests"}})


def test_an_openai_key_never_goes_to_another_provider() -> None:
    from assistant.settings import parse_settings

    def key_env(**llm: Any) -> str | None:
        return parse_settings({"llm": llm}).llm.key_env()

    assert key_env() is None  # bundled: the server's own key
    assert key_env(provider="openai") == "OPENAI_API_KEY"
    assert key_env(provider="openai", api_key_env=None) is None
    assert key_env(provider="anthropic") is None  # langchain-anthropic reads ANTHROPIC_API_KEY itself
    assert key_env(provider="anthropic", api_key_env="MY_CLAUDE_KEY") == "MY_CLAUDE_KEY"


def test_start_llm_builds_the_configured_client(fake_openai: Any) -> None:
    from assistant.llm import start_llm

    for client, kind in (("langchain", LangChainChat), ("openai", OpenAIChat)):
        llm, close = start_llm("openai", base_url=fake_openai.base_url, model="m", client=client)  # type: ignore[arg-type]
        try:
            assert isinstance(llm, kind) and llm.complete(MSGS) == "hello"
        finally:
            close()
    with pytest.raises(ValueError, match="needs the langchain client"):
        start_llm("ollama", model="m", client="openai")
