"""memory.llm.LLM over any OpenAI-compatible chat endpoint (the bundled llama.cpp server included)."""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar
from urllib.parse import urlsplit, urlunsplit

from memory.llm import LLMBadOutput, LLMError, LLMUnavailable, Message

if TYPE_CHECKING:
    import openai

log = logging.getLogger(__name__)
T = TypeVar("T")
NO_KEY = "sk-no-key-required"  # llama.cpp, Ollama and friends accept any key


class PingResult(NamedTuple):
    latency_s: float
    models: tuple[str, ...]


def redact_url(url: str) -> str:
    """``url`` without user:password@ (never shown to people or logs)."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def schema_name(schema: Mapping[str, Any]) -> str:
    """An OpenAI-valid ``json_schema.name`` (``[A-Za-z0-9_-]{1,64}``) from the schema's title."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "_", str(schema.get("title") or "reply")).strip("_")
    return (name or "reply")[:64]


def _root_cause(e: BaseException) -> str:
    """The text of the deepest cause that has one ("[Errno 111] Connection refused", not "Connection error."):
    LangChain wraps the openai error, which wraps httpx's."""
    text, seen = str(e), {id(e)}
    cause = e.__cause__
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        text = str(cause) or text
        cause = cause.__cause__
    return text


def _first_line(text: str, limit: int = 200) -> str:
    line = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


class OpenAIChat:
    """An ``LLM`` (memory.llm) backed by the ``openai`` client; every failure is an LLMError."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 1,
        llama_cpp: bool = False,
    ) -> None:
        import openai

        self.model = model
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.llama_cpp = llama_cpp  # send llama.cpp extras (cache_prompt) in the request body
        self._key = api_key or ""
        self._where = f"the LLM at {redact_url(base_url)}"
        http_client = openai.DefaultHttpxClient(trust_env=False) if is_loopback(base_url) else None
        self._client: openai.OpenAI = openai.OpenAI(
            base_url=base_url, api_key=api_key or NO_KEY, timeout=timeout_s, max_retries=max_retries,
            http_client=http_client,
        )

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAIChat(model={self.model!r}, where={self._where!r})"

    # --- the LLM protocol -------------------------------------------------------------------------

    def complete(
        self,
        messages: Sequence[Message],
        *,
        json_schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        timeout_s: float | None = None,
    ) -> str:
        """The whole reply; with ``json_schema`` the reply is checked to parse as JSON.

        On the bundled llama.cpp server the schema goes as a compact grammar (no whitespace: fewer
        tokens to generate); elsewhere as an OpenAI ``json_schema`` response format.
        """
        response_format: Any = None
        extra = self._extra_body()
        if json_schema is not None and self.llama_cpp:
            from .grammar import compact_grammar

            extra = {**(extra or {}), "grammar": compact_grammar(json_schema)}
        elif json_schema is not None:
            response_format = {
                "type": "json_schema",
                "json_schema": {"name": schema_name(json_schema), "schema": dict(json_schema),
                                "strict": True},
            }
        t0 = time.monotonic()
        client = self._client.with_options(timeout=timeout_s) if timeout_s else self._client
        resp = self._call(lambda: client.chat.completions.create(
            model=self.model, messages=self._messages(messages), max_tokens=max_tokens,
            temperature=temperature, **({"response_format": response_format} if response_format else {}),
            extra_body=extra,
        ))
        if not resp.choices:
            raise LLMBadOutput(f"{self._where} returned no choices")
        choice = resp.choices[0]
        content = choice.message.content or ""
        log.debug("LLM complete: %d chars in %.2fs (finish %s)", len(content), time.monotonic() - t0,
                  choice.finish_reason)
        if json_schema is not None:
            try:
                json.loads(content)
            except ValueError:
                cut = " (cut off at max_tokens)" if choice.finish_reason == "length" else ""
                raise LLMBadOutput(
                    f"{self._where} did not return valid JSON{cut}: {_first_line(content, 80)!r}",
                    hint="raise max_tokens or simplify the schema") from None
        elif not content.strip():
            raise LLMBadOutput(f"{self._where} returned an empty reply")
        return content

    def stream(
        self, messages: Sequence[Message], *, max_tokens: int = 256, temperature: float = 0.2
    ) -> Iterator[str]:
        """Reply text in pieces. Connecting happens now (errors raise here); reading as you iterate."""
        chunks = self._call(lambda: self._client.chat.completions.create(
            model=self.model, messages=self._messages(messages), max_tokens=max_tokens,
            temperature=temperature, stream=True, extra_body=self._extra_body(),
        ))
        return self._pieces(chunks)

    # --- extras ----------------------------------------------------------------------------------

    def ping(self, timeout_s: float = 5.0) -> PingResult:
        """List the server's models (for `assistant doctor`); LLMUnavailable if it does not answer."""
        client = self._client.with_options(timeout=min(timeout_s, self.timeout_s), max_retries=0)
        t0 = time.monotonic()
        page = self._call(lambda: client.models.list())
        return PingResult(time.monotonic() - t0, tuple(m.id for m in page.data))

    def close(self) -> None:
        self._client.close()

    # --- internals -------------------------------------------------------------------------------

    @staticmethod
    def _messages(messages: Sequence[Message]) -> Any:
        return [dict(m) for m in messages]

    def _extra_body(self) -> dict[str, Any] | None:
        return {"cache_prompt": True} if self.llama_cpp else None

    def _pieces(self, chunks: Any) -> Iterator[str]:
        try:
            for chunk in chunks:
                if not chunk.choices:
                    continue
                piece = chunk.choices[0].delta.content
                if piece:
                    yield piece
        except Exception as e:
            raise self._translate(e) from None
        finally:
            chunks.close()

    def _call(self, fn: Callable[[], T]) -> T:
        try:
            return fn()
        except Exception as e:
            raise self._translate(e) from None

    def _translate(self, e: Exception) -> LLMError:
        return translate_error(e, where=self._where, timeout_s=self.timeout_s, max_retries=self.max_retries,
                               key=self._key)


def translate_error(e: BaseException, *, where: str, timeout_s: float, max_retries: int, key: str = "") -> LLMError:
    """One clear line per failure; never a traceback wall, never the key.

    The ``openai`` SDK's errors (what ChatOpenAI raises too: LangChain's are subclasses), then other
    providers' by kind: LangChain's ``Model*Error``, httpx's and the builtin timeouts/connection errors,
    anything with an HTTP ``status_code``. Matched by class name so that nothing heavy is imported here.
    """
    import openai

    err: LLMError
    if isinstance(e, LLMError):
        return e
    kinds = {c.__name__ for c in type(e).__mro__}
    status = getattr(e, "status_code", None)
    if not isinstance(status, int) or isinstance(e, openai.APIResponseValidationError):
        status = None  # a 200 whose body made no sense is bad output, not a refusal
    if isinstance(e, openai.APITimeoutError) or kinds & {"ModelTimeoutError", "TimeoutException", "TimeoutError"}:
        err = LLMUnavailable(
            f"{where} did not answer within {timeout_s:g}s "
            f"({max_retries + 1} attempt{'s' if max_retries else ''})",
            hint="the server may be overloaded; raise llm.timeout_s or use a smaller model")
    elif isinstance(e, openai.APIConnectionError) or kinds & {"ModelConnectionError", "ConnectError",
                                                                "ConnectionError", "NetworkError"}:
        cause = _first_line(_root_cause(e), 120)
        err = LLMUnavailable(f"cannot reach {where}: {cause}",
                             hint="is the server running? check llm.base_url")
    elif isinstance(e, openai.AuthenticationError | openai.PermissionDeniedError) or status in (401, 403):
        err = LLMUnavailable(f"{where} refused the API key (HTTP {status})",
                             hint="check the environment variable named by llm.api_key_env")
    elif isinstance(e, openai.APIStatusError) or status is not None:
        assert status is not None
        what = "failed" if status >= 500 else "rejected the request"
        detail = _first_line(getattr(e, "message", "") or str(e), 160)
        err = LLMUnavailable(f"{where} {what} (HTTP {status}): {detail}",
                             hint="see the server's log" if status >= 500 else None)
    elif isinstance(e, openai.APIResponseValidationError | ValueError):
        err = LLMBadOutput(f"{where} sent a malformed response: {_first_line(str(e), 120)}")
    else:
        err = LLMUnavailable(f"{where}: {type(e).__name__}: {_first_line(str(e), 160)}")
    if key:
        err.message = err.message.replace(key, "***")
    err.args = (err.message,)
    return err
