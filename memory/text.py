"""Text that can be stored: a lone surrogate ("\\ud800" in JSON, undecodable bytes in argv) cannot be."""

from __future__ import annotations

from memory.errors import InvalidInput


def bad_char(text: str) -> int | None:
    """Index of the first character UTF-8 cannot encode (a lone surrogate), or None when all is well."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        return e.start
    return None


def describe_bad_char(text: str) -> str | None:
    """``lone surrogate U+D800 at character 5`` for text that cannot be stored, else None."""
    i = bad_char(text)
    return None if i is None else f"lone surrogate U+{ord(text[i]):04X} at character {i + 1}"


def require_text(text: str, what: str) -> str:
    """``text`` if it can be stored; else InvalidInput naming ``what`` and where the bad character is."""
    problem = describe_bad_char(text)
    if problem is not None:
        raise InvalidInput(f"{what} is not valid Unicode ({problem})",
                           hint="the text holds half of a UTF-16 pair or bytes that are not UTF-8; fix the source")
    return text
