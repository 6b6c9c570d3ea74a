"""How errors from every part reach the user: one line with a stable code and a hint, no traceback."""

from __future__ import annotations


def is_user_error(e: BaseException) -> bool:
    """Errors raised on purpose by our libraries carry a stable ``code``."""
    return isinstance(getattr(e, "code", None), str) and hasattr(e, "message")


def describe_error(e: BaseException) -> str:
    code = getattr(e, "code", type(e).__name__)
    return f"[{code}] {e}"
