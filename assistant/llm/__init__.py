"""The LLM runtime: bundled llama.cpp server in a child process, or any OpenAI-compatible API."""

# Nothing heavy is imported here, and never xllamacpp (it must live in its own process).

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias

if TYPE_CHECKING:
    from .client import OpenAIChat
    from .langchain_chat import LangChainChat

    ChatClient: TypeAlias = OpenAIChat | LangChainChat

LLMKind = str  # "bundled" | "openai" | another LangChain provider ("ollama", "anthropic", …)
ClientKind = Literal["langchain", "openai"]
Closer = Callable[[], None]

__all__ = ["ClientKind", "Closer", "LLMKind", "make_client", "open_llm", "start_llm"]


def make_client(
    client: ClientKind,
    base_url: str,
    model: str,
    *,
    api_key: str | None = None,
    timeout_s: float = 60.0,
    max_retries: int = 1,
    llama_cpp: bool = False,
) -> ChatClient:
    """A client for an OpenAI-compatible endpoint: LangChain's ChatOpenAI (default) or the openai package."""
    if client == "openai":
        from .client import OpenAIChat

        return OpenAIChat(base_url, model, api_key=api_key, timeout_s=timeout_s, max_retries=max_retries,
                          llama_cpp=llama_cpp)
    if client != "langchain":
        raise ValueError(f"unknown LLM client {client!r}")
    from .langchain_chat import LangChainChat

    return LangChainChat.openai_compatible(base_url, model, api_key=api_key, timeout_s=timeout_s,
                                           max_retries=max_retries, llama_cpp=llama_cpp)


def start_llm(
    kind: LLMKind,
    *,
    model_name: str = "qwen2.5-coder-1.5b",
    models_dir: Path | None = None,
    logs_dir: Path | None = None,
    base_url: str | None = None,
    model: str = "gpt-4o-mini",
    api_key: str | None = None,
    timeout_s: float = 60.0,
    retries: int = 1,
    threads: int = 2,
    ctx: int = 4096,
    parallel: int = 1,
    start_timeout_s: float = 120.0,
    progress: bool = True,
    keep_alive_s: float = 0.0,
    run_dir: Path | None = None,
    reuse_models_from: Path | None = None,
    client: ClientKind = "langchain",
) -> tuple[ChatClient, Closer]:
    """A ready LLM and the function that releases it (stops the bundled server).

    ``bundled``: assembles/verifies ``model_name`` in ``models_dir``, starts the server (log in
    ``logs_dir``) and waits for it. ``openai``: a client for ``base_url``/``model``/``api_key``;
    another kind names a LangChain provider (``init_chat_model``). Nothing is contacted until the first
    request. ``client`` picks LangChain (default) or the openai package for the OpenAI-compatible kinds.
    """
    if kind == "openai":
        if not base_url:
            from memory.llm import LLMUnavailable

            raise LLMUnavailable("llm.provider is openai but llm.base_url is not set",
                                 hint="e.g. https://api.openai.com/v1 or http://localhost:11434/v1")
        chat = make_client(client, base_url, model, api_key=api_key, timeout_s=timeout_s, max_retries=retries)
        return chat, chat.close
    if kind != "bundled":
        if client != "langchain":
            raise ValueError(f"LLM kind {kind!r} needs the langchain client")
        from .langchain_chat import LangChainChat

        other = LangChainChat.for_provider(kind, model, base_url=base_url, api_key=api_key, timeout_s=timeout_s,
                                           max_retries=retries)
        return other, other.close
    if models_dir is None or logs_dir is None:
        raise ValueError("the bundled LLM needs models_dir and logs_dir")

    from .server import LocalLLMServer
    from .weights import ensure_model

    if reuse_models_from is not None:
        from .weights import link_verified

        link_verified(model_name, reuse_models_from, models_dir)
    path = ensure_model(model_name, models_dir, progress=progress)
    if keep_alive_s > 0 and run_dir is not None:
        from .shared import acquire, keeper
        from .weights import get_spec

        # keyed by the pinned hash that ensure_model just verified: one server for every data dir's copy
        shared = acquire(path, model_sha256=get_spec(model_name).sha256, run_dir=run_dir, logs_dir=logs_dir,
                         threads=threads, ctx=ctx, parallel=parallel, alias=model_name, keep_alive_s=keep_alive_s,
                         start_timeout_s=start_timeout_s)
        chat = make_client(client, shared.base_url, model_name, api_key=shared.api_key, timeout_s=timeout_s,
                           max_retries=retries, llama_cpp=True)
        stop_keeper = keeper(shared.touch, every_s=min(30.0, keep_alive_s / 3))

        def release() -> None:
            stop_keeper()
            shared.touch()  # the idle clock starts now
            chat.close()

        return chat, release
    server = LocalLLMServer(path, logs_dir=logs_dir, threads=threads, ctx=ctx, parallel=parallel,
                            alias=model_name, start_timeout_s=start_timeout_s).start()
    try:
        chat = make_client(client, server.base_url, model_name, api_key=server.api_key, timeout_s=timeout_s,
                           max_retries=retries, llama_cpp=True)
    except BaseException:
        server.stop()
        raise

    def close() -> None:
        try:
            chat.close()
        finally:
            server.stop()

    return chat, close


@contextlib.contextmanager
def open_llm(kind: LLMKind, **kwargs: object) -> Iterator[ChatClient]:
    """``with open_llm("bundled", models_dir=..., logs_dir=...) as llm:`` — same arguments as start_llm."""
    llm, close = start_llm(kind, **kwargs)  # type: ignore[arg-type]
    try:
        yield llm
    finally:
        close()
