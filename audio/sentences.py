"""Pure text helpers for speech output: a streaming sentence splitter and markdown-to-speech cleanup."""

from __future__ import annotations

import re

_TERMINATORS = ".!?…"
_CLOSERS = "\"')]}”’»"
_OPENERS = "\"'([{“‘«"
# fmt: off
ABBREVIATIONS = frozenset({
    "mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "vs", "approx", "apt", "dept", "est", "fig", "inc",
    "ltd", "co", "corp", "mt", "no", "nos", "vol", "ave", "blvd", "rd", "jan", "feb", "mar", "apr", "jun",
    "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed", "thu", "fri", "sat", "sun",
    "a.m", "p.m", "e.g", "i.e", "cf",
})
# fmt: on
_DOTTED = re.compile(r"(?:[a-z]\.)+[a-z]")


def _is_abbreviation(text: str, dot: int) -> bool:
    start = dot
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    token = text[start:dot].lstrip(_OPENERS)
    low = token.lower()
    if low in ABBREVIATIONS or _DOTTED.fullmatch(low):
        return True
    if len(token) == 1 and token.isupper() and token not in "IA":
        return True  # an initial: "J. R. R. Tolkien"
    line_start = text.rfind("\n", 0, start) + 1
    return token.isdigit() and not text[line_start:start].strip()  # list item "1."


def find_sentence_end(text: str, final: bool = False) -> int | None:
    """Index just past the first complete sentence in ``text``, or None if it may still continue.

    A sentence ends at ., !, ?, … (plus closing quotes/brackets) followed by whitespace, or at a newline.
    A period needs to see the next word: no split before a lowercase word, after an abbreviation,
    an initial or a list number, nor inside a number like 3.5. ``final``: no more text will come.
    """
    n, i = len(text), 0
    while i < n:
        ch = text[i]
        if ch == "\n":
            if text[:i].strip():
                return i
        elif ch in _TERMINATORS:
            j = i
            while j < n and text[j] in _TERMINATORS:
                j += 1
            while j < n and text[j] in _CLOSERS:
                j += 1
            if j == n:
                return None  # the next character decides (e.g. "3." + "5")
            if not text[j].isspace():
                i = j
                continue
            if text[i:j].rstrip(_CLOSERS) == ".":
                k = j
                while k < n and text[k] in " \t":
                    k += 1
                if k == n and not final:
                    return None
                nxt = text[k] if k < n else ""
                if _is_abbreviation(text, i) or nxt.islower():
                    i = j
                    continue
            return j
        i += 1
    return None


class SentenceSplitter:
    """Turns streamed text deltas (e.g. from an LLM) into complete sentences as soon as each one ends.

    ``push(delta)`` returns the sentences completed so far; ``flush()`` returns the rest at the end.
    Runs longer than ``max_chars`` without an ending are cut at the last comma/semicolon/space.
    """

    def __init__(self, max_chars: int = 300) -> None:
        self.max_chars = max_chars
        self._buf = ""

    @property
    def pending(self) -> str:
        return self._buf

    def push(self, delta: str) -> list[str]:
        self._buf += delta
        return self._drain(final=False)

    def flush(self) -> list[str]:
        out = self._drain(final=True)
        rest = self._buf.strip()
        self._buf = ""
        return [*out, rest] if rest else out

    def _drain(self, final: bool) -> list[str]:
        out: list[str] = []
        while True:
            self._buf = self._buf.lstrip()
            end = find_sentence_end(self._buf, final)
            if end is None and len(self._buf) > self.max_chars:
                end = self._cut_point(self._buf[: self.max_chars])
            if end is None:
                return out
            sentence = self._buf[:end].strip()
            self._buf = self._buf[end:]
            if sentence:
                out.append(sentence)

    @staticmethod
    def _cut_point(head: str) -> int:
        for sep in (";", ",", ":", " "):
            pos = head.rfind(sep)
            if pos > len(head) // 3:
                return pos + 1
        return len(head)


def split_sentences(text: str) -> list[str]:
    """All sentences of a complete text."""
    s = SentenceSplitter(max_chars=10**9)
    return [*s.push(text), *s.flush()]


_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_MARKS = re.compile(r"(\*\*|__|\*|`+|~~)")
_MD_LINE = re.compile(r"^\s*(?:#{1,6}\s+|[-*•+]\s+|>\s*)", re.MULTILINE)
_URL = re.compile(r"https?://\S+")


def clean_for_speech(text: str) -> str:
    """Drop markdown that a voice would read aloud (emphasis, headers, bullets, code marks, link URLs)."""
    text = _MD_LINK.sub(r"\1", text)
    text = _URL.sub("a link", text)
    text = _MD_LINE.sub("", text)
    text = _MD_MARKS.sub("", text)
    return re.sub(r"[ \t]+", " ", text).strip()
