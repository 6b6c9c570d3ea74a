"""Name normalisation: the keys under which an entity can be found."""

from __future__ import annotations

import re
import unicodedata
import uuid

_PUNCT = re.compile(r"[^\w\s]")
_SPACE = re.compile(r"\s+")
_ARTICLES = ("the ", "a ", "an ", "my ", "our ")


def normalize(name: str) -> str:
    """'The Saint Mary's  Hospital' -> 'saint marys hospital'; accents folded, articles dropped."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower().strip()
    text = _SPACE.sub(" ", _PUNCT.sub("", text.replace("’", "'"))).strip()
    for art in _ARTICLES:
        if text.startswith(art) and len(text) > len(art):
            text = text[len(art):]
            break
    return text


def clean_name(name: str) -> str:
    """Trim whitespace and surrounding quotes/punctuation, keep the user's capitalisation."""
    return _SPACE.sub(" ", name.strip().strip("\"'`.,;:!?")).strip()


def new_id(prefix: str, name: str = "") -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", normalize(name))[:24].strip("-")
    return f"{prefix}-{slug}-{uuid.uuid4().hex[:6]}" if slug else f"{prefix}-{uuid.uuid4().hex[:10]}"
