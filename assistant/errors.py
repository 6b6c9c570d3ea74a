"""How errors from every part reach the user: one line with a stable code and a hint, no traceback."""

from __future__ import annotations

from hearth_errors import HearthError, format_error


def is_user_error(e: BaseException) -> bool:
    """Errors raised on purpose by our libraries are HearthErrors (they carry a stable ``code``)."""
    return isinstance(e, HearthError)


def describe_error(e: BaseException) -> str:
    """``[code] message`` (+ hint), the code shown exactly once whatever raised it."""
    if isinstance(e, HearthError):
        return str(e)
    return format_error(type(e).__name__, str(e))
