"""One error type for all of Hearth: a stable ``code``, a ``message`` for people and an optional ``hint``.

It lives outside ``assistant``, ``memory`` and ``audio`` because those never import each other; each
defines its own subclasses (AudioError, MemoryStoreError, ConfigError, ...) on top of this one.
"""

from __future__ import annotations


class HearthError(Exception):
    """Raised on purpose for bad input or a broken environment; ``str()`` is the one line shown to people.

    Subclasses set a class-level ``code``; a caller may pass a more precise one (``wav.truncated``).
    """

    code: str = "error"

    def __init__(self, message: str, *, code: str | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return format_error(self.code, self.message, self.hint)

    def __reduce__(self) -> tuple[object, ...]:  # survives pickling (threads, processes) with its code
        return (_rebuild, (type(self), self.code, self.message, self.hint))


def format_error(code: str, message: str, hint: str | None = None) -> str:
    """``[code] message`` and, when there is one, the hint on its own line — the code appears once."""
    text = f"[{code}] {message}"
    return f"{text}\n  hint: {hint}" if hint else text


def _rebuild(cls: type[HearthError], code: str, message: str, hint: str | None) -> HearthError:
    e = cls.__new__(cls)
    HearthError.__init__(e, message, code=code, hint=hint)
    return e


__all__ = ["HearthError", "format_error"]
