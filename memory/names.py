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


# words that speak of a name, or say one was changed: "renamed the kayak", "had to change the shop name", "a
# rethink about the name", "de-naming", "decided she's Gabby now"
_NAME_CHANGED = re.compile(r"\b(?:re-?|de-?)?nam(?:e|es|ing)\b|\bre-?named\b"
                           # or a new one decided on: "Mason's decided she's Gabby now"
                           r"|\bdecided\s+(?:she|he|it|they)['’](?:s|re)\s+(?-i:[A-Z])", re.I)
# a name as written: capitalised words, with the small words inside titles ("Purl Jam", "the Muddy Paws Parlour",
# "Close Harmony Crisis", "Ruth Less Ginsburg", "Lord of the Rings")
_A_NAME = r"((?:[Tt]he\s+)?[A-Z][\w’'-]*(?:\s+(?:(?:of|the|and|&|in|on|a)\s+)*[A-Z][\w’'-]*)*)"
# the new name said: "it's Purl Jam now", "we're Close Harmony Crisis now", "she's now Second Wind", "renamed it
# Second Wind", "changed the name to Purl Jam", "now called Purl Jam"
_NEW_NAME = re.compile(
    rf"\b(?i:it['’]s|it\s+is|she['’]s|she\s+is|he['’]s|he\s+is|we['’]re|we\s+are|they['’]re|they\s+are|called|"
    rf"named)\s+(?:(?i:now)\s+(?:called\s+)?{_A_NAME}|{_A_NAME}\s+now\b)"
    rf"|\b(?i:now\s+(?:called|named|known\s+as))\s+{_A_NAME}"
    rf"|\b(?i:re-?named)\s+(?:(?:it|her|him|them|us|ourselves|the\s+[\w’'-]+)\s+)?(?:to\s+|as\s+)?{_A_NAME}"
    rf"|\b(?i:name\s+(?:to|as))\s+{_A_NAME}")


def new_name(text: str) -> str | None:
    """The name something is given anew, in words that say its name changed ("Bernie's had to change the shop name
    … so it's Purl Jam now" -> "Purl Jam"); None when the words say no change of name, or none after it."""
    if _NAME_CHANGED.search(text) is None:
        return None
    for m in _NEW_NAME.finditer(text):
        name = clean_name(re.sub(r"^the\s+", "", next((g for g in m.groups() if g), "")))
        if name and name != "I":
            return name
    return None
