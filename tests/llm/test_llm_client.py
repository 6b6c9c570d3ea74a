"""OpenAIChat against a fake OpenAI-compatible server over real HTTP."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import pytest

from assistant.llm.client import OpenAIChat, redact_url, schema_name
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


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens once closed


def test_is_an_llm() -> None:
    llm: LLM = OpenAIChat("http://127.0.0.1:9/v1", "m")
    assert callable(llm.complete) and callable(llm.stream)


def test_complete_sends_json_schema_and_returns_content(fake_openai: Any) -> None:
    fake_openai.behaviour.content = '{"relation": "lives_in"}'
    llm = OpenAIChat(fake_openai.base_url, "fake-model", timeout_s=5)
    out = llm.complete(MSGS, json_schema=SCHEMA, max_tokens=42)
    assert json.loads(out) == {"relation": "lives_in"}
    body = fake_openai.behaviour.requests[-1]
    assert body["messages"] == MSGS
    assert body["model"] == "fake-model" and body["max_tokens"] == 42 and body["temperature"] == 0.0
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "Fact_extraction", "schema": SCHEMA, "strict": True},
    }
    assert "cache_prompt" not in body  # only for the bundled llama.cpp server


def test_llama_cpp_extras_sent_to_bundled_server(fake_openai: Any) -> None:
    llm = OpenAIChat(fake_openai.base_url, "m", llama_cpp=True)
    assert llm.complete(MSGS) == "hello"
    body = fake_openai.behaviour.requests[-1]
    assert body["cache_prompt"] is True
    assert "response_format" not in body


def test_invalid_json_under_a_schema_is_bad_output(fake_openai: Any) -> None:
    fake_openai.behaviour.content = '{"relation": "liv'
    llm = OpenAIChat(fake_openai.base_url, "m")
    with pytest.raises(LLMBadOutput, match="valid JSON"):
        llm.complete(MSGS, json_schema=SCHEMA)


def test_empty_reply_is_bad_output(fake_openai: Any) -> None:
    fake_openai.behaviour.content = ""
    with pytest.raises(LLMBadOutput, match="empty"):
        OpenAIChat(fake_openai.base_url, "m").complete(MSGS)


def test_stream_joins_chunks(fake_openai: Any) -> None:
    llm = OpenAIChat(fake_openai.base_url, "m", timeout_s=5)
    pieces = list(llm.stream(MSGS, max_tokens=7))
    assert pieces == ["Hel", "lo", ", wor", "ld"]
    assert "".join(pieces) == "Hello, world"
    body = fake_openai.behaviour.requests[-1]
    assert body["stream"] is True and body["max_tokens"] == 7 and body["temperature"] == 0.2


def test_connection_refused_is_unavailable_fast() -> None:
    llm = OpenAIChat(f"http://127.0.0.1:{closed_port()}/v1", "m", timeout_s=5, max_retries=0)
    t0 = time.monotonic()
    with pytest.raises(LLMUnavailable, match="cannot reach") as ei:
        llm.complete(MSGS)
    assert time.monotonic() - t0 < 2.0
    assert ei.value.code == "llm_unavailable" and ei.value.hint
    assert "\n" not in ei.value.message  # one clear line, no traceback wall
    with pytest.raises(LLMUnavailable, match="cannot reach"):
        llm.stream(MSGS)  # connecting happens at call time, not at first next()


def test_server_that_never_answers_times_out(fake_openai: Any) -> None:
    fake_openai.behaviour.mode = "hang"
    llm = OpenAIChat(fake_openai.base_url, "m", timeout_s=0.5, max_retries=0)
    t0 = time.monotonic()
    with pytest.raises(LLMUnavailable, match=r"did not answer within 0\.5s"):
        llm.complete(MSGS)
    assert time.monotonic() - t0 < 3.0


def test_500_is_unavailable_after_retries(fake_openai: Any) -> None:
    fake_openai.behaviour.mode = "500"
    llm = OpenAIChat(fake_openai.base_url, "m", timeout_s=5, max_retries=2)
    with pytest.raises(LLMUnavailable, match="HTTP 500") as ei:
        llm.complete(MSGS)
    assert fake_openai.behaviour.hits == 3  # first try + 2 retries
    assert ei.value.hint


def test_api_key_never_in_errors_or_repr(fake_openai: Any) -> None:
    fake_openai.behaviour.echo = f"you sent Bearer {SECRET}"
    llm = OpenAIChat(fake_openai.base_url, "m", api_key=SECRET, max_retries=0)
    assert SECRET not in repr(llm)
    for mode, pattern in (("401", "refused the API key"), ("500", "HTTP 500")):
        fake_openai.behaviour.mode = mode
        with pytest.raises(LLMUnavailable, match=pattern) as ei:
            llm.complete(MSGS)
        assert SECRET not in str(ei.value) and SECRET not in repr(ei.value)
        assert ei.value.__cause__ is None and ei.value.__suppress_context__
    # the key did go to the server, as a bearer token
    assert fake_openai.behaviour.headers[-1]["authorization"] == f"Bearer {SECRET}"
    bad = OpenAIChat(f"http://127.0.0.1:{closed_port()}/v1", "m", api_key=SECRET, max_retries=0)
    with pytest.raises(LLMUnavailable) as ei2:
        bad.complete(MSGS)
    assert SECRET not in str(ei2.value)


def test_ping_lists_models(fake_openai: Any) -> None:
    result = OpenAIChat(fake_openai.base_url, "m").ping()
    assert result.models == ("fake-model",) and result.latency_s >= 0


def test_ping_unreachable() -> None:
    with pytest.raises(LLMUnavailable):
        OpenAIChat(f"http://127.0.0.1:{closed_port()}/v1", "m").ping(timeout_s=1)


def test_helpers() -> None:
    assert redact_url("https://bob:pw@example.com:8443/v1") == "https://example.com:8443/v1"
    assert redact_url("http://localhost:1/v1") == "http://localhost:1/v1"
    assert schema_name({}) == "reply"
    assert schema_name({"title": "ü" * 3}) == "reply"
    assert len(schema_name({"title": "a" * 100})) == 64
