"""Redaction for `memory forget NAME`: find a forgotten name in any stored text and replace it.

Pure: no store, no clock. A name matches as a whole word in any case ("Lisbon", "LISBON", "Lisbon's",
"lisbon-trip"), never inside another word (forgetting "Ann" leaves "Anna" and "planning"). Text keeps its
other words and gets ``MARKER`` where the name was; a list (aliases, keys, ids) loses the elements that
name it. ``MARKER`` is never accepted as part of an entity name, so a redacted conversation cannot be
learned back into the fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from memory.errors import InvalidInput
from memory.names import normalize
from memory.vocabulary import RELATIONS, EntityType
from memory.words import USER_KEYS

MARKER = "[forgotten]"
# names that are not things one can forget: the parties to every conversation and the vocabulary itself
RESERVED = frozenset({*USER_KEYS, "you", "assistant", "meta"}
                     | {t.value.lower() for t in EntityType} | {r.lower() for r in RELATIONS})


def check_name(name: str) -> str:
    """The name, trimmed; InvalidInput for an empty one or a word that every conversation holds."""
    clean = " ".join(name.split())
    if not normalize(clean):
        raise InvalidInput("say what to forget: a name (a person, place or thing)")
    if clean.lower() in RESERVED or normalize(clean) in RESERVED:
        raise InvalidInput(f"{clean!r} cannot be forgotten by name: it is a word every conversation holds",
                           hint="name a person, place or thing; `memory forget --conversation ID` forgets a "
                                "whole conversation and `memory forget user` what is known about you")
    return clean


class Redactor:
    """Finds and replaces the given names (longest first, so "Lisbon Zoo" wins over "Lisbon")."""

    def __init__(self, names: Iterable[str]) -> None:
        words = sorted({" ".join(n.split()) for n in names if n and n.strip()}, key=len, reverse=True)
        if not words:
            raise InvalidInput("nothing to forget: no name given")
        self.names = tuple(words)
        alts = "|".join(r"\s+".join(re.escape(w) for w in n.split()) for n in words)
        self._re = re.compile(rf"(?<!\w)(?:{alts})(?!\w)", re.IGNORECASE)

    def mentions(self, text: object) -> bool:
        return isinstance(text, str) and self._re.search(text) is not None

    def redact(self, text: str) -> str:
        return self._re.sub(MARKER, text)

    def value(self, v: Any) -> Any:
        """A property value with the names gone: text redacted, list elements that name them dropped."""
        if isinstance(v, str):
            return self.redact(v)
        if isinstance(v, (list, tuple)):
            return [x for x in v if not self.mentions(x)]
        return v

    def touches(self, v: Any) -> bool:
        if isinstance(v, (list, tuple)):
            return any(self.mentions(x) for x in v)
        return self.mentions(v)

    def updates(self, props: Mapping[str, Any], *, skip: Iterable[str] = ()) -> dict[str, Any]:
        """The properties to set so that none names the forgotten thing (empty: nothing to do)."""
        skipped = set(skip)
        return {k: self.value(v) for k, v in props.items() if k not in skipped and self.touches(v)}


def refuse_marker(name: str) -> None:
    """Entity names never contain MARKER: a redacted sentence must not teach a "[forgotten]" entity."""
    if MARKER in name:
        raise InvalidInput(f"{name!r} is a redacted name (it holds {MARKER}); it is not learned")
