"""What memory needs from a language model, declared here and supplied by the composition root."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol

from memory.errors import MemoryStoreError

Message = Mapping[str, str]  # {"role": "system" | "user" | "assistant", "content": str}


class LLMError(MemoryStoreError):
    """The model could not be reached or gave no usable answer."""

    code = "llm_error"


class LLMUnavailable(LLMError):
    code = "llm_unavailable"


class LLMBadOutput(LLMError):
    code = "llm_bad_output"


class LLM(Protocol):
    """An OpenAI-compatible chat model. Keep the system prompt a fixed prefix (prompt cache)."""

    def complete(
        self,
        messages: Sequence[Message],
        *,
        json_schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        timeout_s: float | None = None,
    ) -> str:
        """The whole reply; with ``json_schema`` the server constrains output to it.

        ``timeout_s`` overrides the client's timeout for this call (background work can wait longer).
        """
        ...

    def stream(
        self, messages: Sequence[Message], *, max_tokens: int = 256, temperature: float = 0.2
    ) -> Iterator[str]:
        """Reply text in pieces as it is generated; connection errors may raise at the call itself."""
        ...
