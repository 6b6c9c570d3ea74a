"""memory.llm.LLM over LangChain's chat-model interface (the default client).

``openai_compatible``: ``ChatOpenAI`` (langchain-openai) against the bundled llama.cpp server or any
OpenAI-compatible endpoint, sending the same requests as ``OpenAIChat``: on the bundled server a JSON
schema goes as the compact grammar (and ``cache_prompt``) in the body, elsewhere as an OpenAI
``json_schema`` response format. ``for_provider``: ``init_chat_model`` for another provider (Ollama,
Anthropic, …: its ``langchain-<provider>`` package must be installed), structured output through
``with_structured_output(schema, method="json_schema")``.

LangChain is imported when a client is built, never at ``import assistant.*`` (it takes about a second).
Every failure is an LLMError with the messages and hints of ``OpenAIChat``; the key never shows. LangSmith
tracing stays off even when LANGSMITH_TRACING is set: what is said goes only to the configured model.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from memory.llm import LLMBadOutput, LLMError, Message

from .client import NO_KEY, PingResult, _first_line, is_loopback, redact_url, schema_name, translate_error

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import BaseMessage

log = logging.getLogger(__name__)
T = TypeVar("T")


class LangChainChat:
    """An ``LLM`` (memory.llm) backed by a LangChain chat model; every failure is an LLMError."""

    def __init__(
        self,
        make_model: Callable[[float, int | None, float | None], BaseChatModel],
        *,
        model: str,
        where: str,
        timeout_s: float,
        max_retries: int,
        api_key: str | None = None,
        native_openai: bool = False,
        llama_cpp: bool = False,
        close: Callable[[], None] | None = None,
    ) -> None:
        """Use the class methods. ``make_model(timeout_s, max_tokens, temperature)`` builds a chat model;
        with ``native_openai`` one model serves every call (per-call settings go in the request)."""
        self.model = model
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.llama_cpp = llama_cpp
        self._make = make_model
        self._native = native_openai
        self._key = api_key or ""
        self._where = where
        self._models: dict[tuple[float, int | None, float | None], BaseChatModel] = {}
        self._close = close
        self._chat: BaseChatModel | None = make_model(timeout_s, None, None) if native_openai else None

    @classmethod
    def openai_compatible(
        cls,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 1,
        llama_cpp: bool = False,
    ) -> LangChainChat:
        """``ChatOpenAI`` for the bundled server or any OpenAI-compatible endpoint."""
        try:
            import openai
            from langchain_openai import ChatOpenAI
        except ImportError as e:
            raise _missing("langchain-openai", e) from None

        # our own HTTP client: loopback never through a proxy, and close() closes only what is ours
        http_client = openai.DefaultHttpxClient(trust_env=not is_loopback(base_url))

        def make(timeout: float, _max_tokens: int | None, _temperature: float | None) -> BaseChatModel:
            # Chat Completions always (never the Responses API some model names would pick): what
            # OpenAI-compatible servers speak
            return ChatOpenAI(model=model, base_url=base_url, api_key=api_key or NO_KEY, timeout=timeout,
                              max_retries=max_retries, http_client=http_client, use_responses_api=False)

        return cls(make, model=model, where=f"the LLM at {redact_url(base_url)}", timeout_s=timeout_s,
                   max_retries=max_retries, api_key=api_key, native_openai=True, llama_cpp=llama_cpp,
                   close=http_client.close)

    @classmethod
    def for_provider(
        cls,
        provider: str,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 1,
    ) -> LangChainChat:
        """``init_chat_model(model, model_provider=provider)``; nothing is contacted until the first call."""
        try:
            from langchain.chat_models import init_chat_model
        except ImportError as e:
            raise _missing("langchain", e) from None
        where = f"the {provider} model {model!r}" + (f" at {redact_url(base_url)}" if base_url else "")

        def make(timeout: float, max_tokens: int | None, temperature: float | None) -> BaseChatModel:
            kwargs = provider_kwargs(provider, base_url=base_url, api_key=api_key, timeout_s=timeout,
                                     max_retries=max_retries, max_tokens=max_tokens, temperature=temperature)
            try:
                return init_chat_model(model, model_provider=provider, **kwargs)
            except ImportError as e:  # "… requires the langchain-ollama package …"
                raise _missing(str(e).split(" package", 1)[0].rsplit(" ", 1)[-1], e) from None
            except Exception as e:  # unknown provider, bad settings
                from memory.llm import LLMUnavailable

                msg = _first_line(str(e), 160).replace(api_key, "***") if api_key else _first_line(str(e), 160)
                raise LLMUnavailable(f"cannot set up {where}: {msg}",
                                     hint="check llm.provider and llm.model") from None

        chat = cls(make, model=model, where=where, timeout_s=timeout_s, max_retries=max_retries,
                   api_key=api_key)
        chat._model_for(timeout_s, 512, 0.0)  # a missing package or unknown provider shows now, not later
        return chat

    def __repr__(self) -> str:  # never shows the key
        return f"LangChainChat(model={self.model!r}, where={self._where!r})"

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
        """The whole reply; with ``json_schema`` the reply is checked to parse as JSON."""
        t0 = time.monotonic()
        if self._native:
            content, finish = self._complete_openai(messages, json_schema, max_tokens, temperature, timeout_s)
        else:
            content, finish = self._complete_generic(messages, json_schema, max_tokens, temperature, timeout_s)
        log.debug("LLM complete: %d chars in %.2fs (finish %s)", len(content), time.monotonic() - t0, finish)
        if json_schema is not None:
            try:
                json.loads(content)
            except ValueError:
                cut = " (cut off at max_tokens)" if finish in ("length", "max_tokens") else ""
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
        if self._native:
            chat = self._native_model()
            kwargs: dict[str, Any] = {"max_tokens": max_tokens, "temperature": temperature}
            if self.llama_cpp:
                kwargs["extra_body"] = {"cache_prompt": True}
            chunks = chat.stream(_lc_messages(messages), **kwargs)
        else:
            chunks = self._model_for(self.timeout_s, max_tokens, temperature).stream(_lc_messages(messages))
        # LangChain connects at the first next(): take it now so that a dead server raises here
        first = self._call(lambda: next(chunks, None))
        return self._pieces(first, chunks)

    # --- extras ----------------------------------------------------------------------------------

    def ping(self, timeout_s: float = 5.0) -> PingResult:
        """List the server's models (for `assistant doctor`); LLMUnavailable if it does not answer."""
        t0 = time.monotonic()
        if self._native:
            root = self._native_model().root_client  # type: ignore[attr-defined]
            client = root.with_options(timeout=min(timeout_s, self.timeout_s), max_retries=0)
            page = self._call(lambda: client.models.list())
            return PingResult(time.monotonic() - t0, tuple(m.id for m in page.data))
        self.complete([{"role": "user", "content": "Say OK."}], max_tokens=2, timeout_s=timeout_s)
        return PingResult(time.monotonic() - t0, (self.model,))

    def close(self) -> None:
        if self._close is not None:
            self._close()

    # --- internals -------------------------------------------------------------------------------

    def _native_model(self) -> BaseChatModel:
        assert self._chat is not None
        return self._chat

    def _model_for(self, timeout_s: float, max_tokens: int | None, temperature: float | None) -> BaseChatModel:
        key = (timeout_s, max_tokens, temperature)
        model = self._models.get(key)
        if model is None:
            if len(self._models) >= 32:  # a handful of settings are used; never grow without bound
                self._models.clear()
            model = self._models[key] = self._make(*key)
        return model

    def _complete_openai(self, messages: Sequence[Message], json_schema: Mapping[str, Any] | None,
                         max_tokens: int, temperature: float, timeout_s: float | None) -> tuple[str, str | None]:
        """The request OpenAIChat sends, through ChatOpenAI (per-call settings are request options)."""
        kwargs: dict[str, Any] = {"max_tokens": max_tokens, "temperature": temperature}
        extra: dict[str, Any] | None = {"cache_prompt": True} if self.llama_cpp else None
        if json_schema is not None and self.llama_cpp:
            from .grammar import compact_grammar

            extra = {**(extra or {}), "grammar": compact_grammar(json_schema)}
        elif json_schema is not None:
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name(json_schema), "schema": dict(json_schema), "strict": True},
            }
        if extra is not None:
            kwargs["extra_body"] = extra
        if timeout_s:
            kwargs["timeout"] = timeout_s
        chat = self._native_model()
        try:
            msg = self._call(lambda: chat.invoke(_lc_messages(messages), **kwargs))
        except _Cut as cut:  # a response format cut off at max_tokens: checked like any other reply
            return cut.content, "length"
        return _text(msg), msg.response_metadata.get("finish_reason")

    def _complete_generic(self, messages: Sequence[Message], json_schema: Mapping[str, Any] | None,
                          max_tokens: int, temperature: float, timeout_s: float | None) -> tuple[str, str | None]:
        model = self._model_for(timeout_s or self.timeout_s, max_tokens, temperature)
        if json_schema is None:
            msg = self._call(lambda: model.invoke(_lc_messages(messages)))
            return _text(msg), _finish(msg)
        runnable = self._call(lambda: model.with_structured_output(
            {**json_schema, "title": schema_name(json_schema)}, method="json_schema", include_raw=True))
        out: Any = self._call(lambda: runnable.invoke(_lc_messages(messages)))  # include_raw: a dict
        raw, parsed = out.get("raw"), out.get("parsed")
        text = _text(raw) if raw is not None else ""
        try:
            json.loads(text)
        except ValueError:
            if parsed is not None:  # the provider answered through a tool call or a parsed field
                text = json.dumps(parsed, ensure_ascii=False)
        return text, _finish(raw)

    def _pieces(self, first: Any, chunks: Iterator[Any]) -> Iterator[str]:
        try:
            chunk = first
            while chunk is not None:
                piece = _text(chunk)
                if piece:
                    yield piece
                chunk = next(chunks, None)
        except Exception as e:
            raise self._translate(e) from None
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()

    def _call(self, fn: Callable[[], T]) -> T:
        """``fn()`` with LangSmith tracing off (conversations never go to a tracing service, whatever the
        environment says) and every failure an LLMError. A stream's tracing is settled at its first chunk."""
        from langsmith import tracing_context

        try:
            with tracing_context(enabled=False):
                return fn()
        except LLMError:
            raise
        except Exception as e:
            if type(e).__name__ == "LengthFinishReasonError":  # openai's parse() path refuses cut replies
                completion = getattr(e, "completion", None)
                choices = getattr(completion, "choices", None) or []
                raise _Cut(choices[0].message.content or "" if choices else "") from None
            if isinstance(e, IndexError):
                raise LLMBadOutput(f"{self._where} returned no choices") from None
            raise self._translate(e) from None

    def _translate(self, e: BaseException) -> LLMError:
        return translate_error(e, where=self._where, timeout_s=self.timeout_s, max_retries=self.max_retries,
                               key=self._key)


class _Cut(Exception):
    def __init__(self, content: str) -> None:
        super().__init__("cut off at max_tokens")
        self.content = content


def provider_kwargs(provider: str, *, base_url: str | None, api_key: str | None, timeout_s: float,
                    max_retries: int, max_tokens: int | None, temperature: float | None) -> dict[str, Any]:
    """``init_chat_model`` arguments: LangChain's standard ones, Ollama's own names where it differs."""
    kwargs: dict[str, Any] = {}
    if temperature is not None:
        kwargs["temperature"] = temperature
    if base_url:
        kwargs["base_url"] = base_url
    if provider == "ollama":  # ollama.Client takes httpx options; no retries, no key (a proxy may want one)
        client: dict[str, Any] = {"timeout": timeout_s}
        if base_url and is_loopback(base_url):
            client["trust_env"] = False
        if api_key:
            client["headers"] = {"Authorization": f"Bearer {api_key}"}
        kwargs["client_kwargs"] = client
        if max_tokens is not None:
            kwargs["num_predict"] = max_tokens
        return kwargs
    kwargs |= {"timeout": timeout_s, "max_retries": max_retries}
    if api_key:
        kwargs["api_key"] = api_key
    if max_tokens is not None:
        kwargs["max_tokens"] = max_tokens
    return kwargs


def _missing(package: str, e: BaseException) -> LLMError:
    from memory.llm import LLMUnavailable

    return LLMUnavailable(f"the LLM client needs the {package} package: {_first_line(str(e), 120)}",
                          hint=f"pip install {package} (or set llm.client: openai for OpenAI-compatible APIs)")


def _lc_messages(messages: Sequence[Message]) -> list[BaseMessage]:
    """Our role/content dicts as LangChain messages; another role goes as it is (a ChatMessage)."""
    from langchain_core.messages import AIMessage, ChatMessage, HumanMessage, SystemMessage

    kinds: dict[str, Any] = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}
    out: list[BaseMessage] = []
    for m in messages:
        kind = kinds.get(m["role"])
        out.append(kind(content=m["content"]) if kind else ChatMessage(role=m["role"], content=m["content"]))
    return out


def _text(msg: Any) -> str:
    content = getattr(msg, "content", "")
    if isinstance(content, str):
        return content
    return str(msg.text)  # content blocks (Anthropic and others): their text parts joined


def _finish(msg: Any) -> str | None:
    meta = getattr(msg, "response_metadata", None) or {}
    return meta.get("finish_reason") or meta.get("stop_reason") or meta.get("done_reason")
