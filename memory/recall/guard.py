"""Read-only guard for generated Cypher: a small lexer, then token rules; refusals raise QueryRefused."""

# The guard is the first layer; ``KgliteStore.read_only`` is the second: a sandbox child (memory/sandbox.py)
# with a read-only load, no file it may open, a memory cap, a deadline and a read transaction.
# Decisions, on purpose conservative:
#
# * Only ASCII outside string literals (comments and backtick names included): fullwidth or Cyrillic
#   look-alikes of keywords are refused, never folded. Control and invisible format characters
#   (NUL, zero-width joiners, bidi overrides, line separators) are refused everywhere, strings too.
# * Write/admin keywords are refused wherever they occur as words, in any case, also as map keys
#   or aliases (``AS start`` is refused: name things otherwise). Decisions follow the token kglite
#   executes, not its spelling: kglite reads `` `LOAD` CSV `` as LOAD CSV, so a backtick-quoted name that
#   is an identifier counts as that word, except as a label or type (``:`CREATE` ``) and as a property
#   key written directly after ``ident.`` (``a.set``, ``a.`set` ``). String literals are exempt. Words
#   that *together* spell a forbidden keyword (``CRE ATE``, ``CRE/**/ATE``) are refused too: comments
#   become a space, and kglite's pattern parser joins words.
# * Every ``CALL`` is refused (procedures and subqueries), and every namespaced function call
#   ``ns.fn(`` (apoc., db., dbms., gds., kglite., duration. ...); property access ``a.relation`` is fine.
# * The returned query is exactly what was checked: comments replaced by a space, the trailing ``;``
#   and whitespace removed. kglite rejects ``/* */`` comments, so run the returned text, not the input.

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from memory.errors import QueryRefused

FORBIDDEN = frozenset(
    {
        "CREATE", "MERGE", "SET", "DELETE", "DETACH", "NODETACH", "REMOVE", "DROP", "LOAD", "FOREACH",
        "CALL", "INSERT", "COPY", "ALTER", "RENAME", "GRANT", "DENY", "REVOKE", "START", "STOP",
        "TERMINATE", "SHOW", "USE", "PERIODIC", "COMMIT", "TRANSACTIONS",
    }
)  # fmt: skip
STARTS = ("MATCH", "OPTIONAL", "WITH", "UNWIND", "RETURN")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_PARAM = re.compile(r"\$(?:[A-Za-z0-9_]+|`[^`]+`)")
_PUNCT = frozenset("()[]{},;:.+-*/%^=<>|!&~")
_BAD_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_OPEN, _CLOSE = "([{", ")]}"
_LONGEST = max(len(k) for k in FORBIDDEN)


class Tok(NamedTuple):
    kind: str  # word | name (backticked) | str | param | num | punct | comment
    text: str
    start: int
    end: int


def _refuse(reason: str) -> QueryRefused:
    return QueryRefused(f"query refused: {reason}", hint="only read-only MATCH ... RETURN queries may run")


def _char(c: str) -> str:
    name = unicodedata.name(c, "")
    return f"U+{ord(c):04X}" + (f" {name}" if name else "")


def _scan_string(s: str, i: int) -> int:
    quote, j = s[i], i + 1
    while j < len(s):
        if s[j] == "\\":
            j += 2
        elif s[j] == quote:
            if s[j + 1 : j + 2] in ("'", '"'):
                raise _refuse("a string literal directly followed by a quote (ambiguous escaping)")
            return j + 1
        else:
            j += 1
    raise _refuse("unterminated string literal")


def _lex(s: str) -> list[Tok]:
    """Tokens of ``s``, comments included; whitespace dropped."""
    toks: list[Tok] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in " \t\r\n":
            i += 1
            continue
        kind = ""
        if s.startswith("//", i):
            j, kind = s.find("\n", i), "comment"
            j = n if j < 0 else j
        elif s.startswith("/*", i):
            j, kind = s.find("*/", i + 2), "comment"
            if j < 0:
                raise _refuse("unterminated /* comment")
            j += 2
        elif c in "'\"":
            j, kind = _scan_string(s, i), "str"
        elif c == "`":
            j, kind = s.find("`", i + 1) + 1, "name"
            if j == 0:
                raise _refuse("unterminated backtick-quoted name")
            if j == i + 2 or s[j : j + 1] == "`":
                raise _refuse("empty or doubled backtick in a quoted name")
        elif c == "$":
            m = _PARAM.match(s, i)
            if not m:
                raise _refuse("a '$' that is not a parameter")
            j, kind = m.end(), "param"
        elif m := _WORD.match(s, i) or _NUMBER.match(s, i):
            j, kind = m.end(), "word" if m.re is _WORD else "num"
        elif c in _PUNCT:
            j, kind = i + 1, "punct"
        elif not c.isascii():
            raise _refuse(f"non-ASCII character {_char(c)} outside a string literal")
        else:
            raise _refuse(f"unexpected character {c!r}")
        text = s[i:j]
        if kind in ("comment", "name", "param") and not text.isascii():
            bad = next(ch for ch in text if not ch.isascii())
            raise _refuse(f"non-ASCII character {_char(bad)} outside a string literal")
        toks.append(Tok(kind, text, i, j))
        i = j
    return toks


def _is_property_key(toks: list[Tok], i: int) -> bool:
    """``ident.word`` written without spaces: the word is a property key, not a keyword."""
    return (
        i >= 2
        and toks[i - 1].text == "."
        and toks[i - 1].end == toks[i].start
        and toks[i - 2].kind in ("word", "name")
        and toks[i - 2].end == toks[i - 1].start
    )


def _bare(toks: list[Tok], i: int) -> str | None:
    """The word token ``i`` executes as: a bare word, or a backtick-quoted identifier outside the positions
    where kglite only takes a name (a label or type after ``:``)."""
    t = toks[i]
    if t.kind == "word":
        return t.text
    inner = t.text[1:-1]
    if t.kind == "name" and _WORD.fullmatch(inner) and not (i > 0 and toks[i - 1].text == ":"):
        return inner
    return None


def _kw(toks: list[Tok], i: int, *names: str) -> bool:
    word = _bare(toks, i)
    return word is not None and word.upper() in names and not _is_property_key(toks, i)


def _depths(toks: list[Tok]) -> list[int]:
    """Bracket depth before each token; refuses unbalanced brackets."""
    stack: list[str] = []
    out: list[int] = []
    for t in toks:
        out.append(len(stack))
        if t.kind != "punct":
            continue
        if t.text in _OPEN:
            stack.append(_CLOSE[_OPEN.index(t.text)])
        elif t.text in _CLOSE and (not stack or stack.pop() != t.text):
            raise _refuse(f"unbalanced bracket {t.text!r}")
    if stack:
        raise _refuse(f"unclosed bracket, expected {stack[-1]!r}")
    return out


def _check_tokens(toks: list[Tok]) -> None:
    if toks[0].text == ":":
        raise _refuse("client commands (:param, :play, ...) are not queries")
    for i, t in enumerate(toks):
        if t.text == ";" and t.kind == "punct":
            raise _refuse("multiple statements (';' before the end)")
        if _kw(toks, i, *FORBIDDEN):
            raise _refuse(f"{(_bare(toks, i) or t.text).upper()} is not allowed in a read-only query")
    run: list[str] = []  # consecutive words: do any of them together spell a forbidden keyword?
    for i in range(len(toks) + 1):
        word = _bare(toks, i) if i < len(toks) else None
        if word is not None:
            run.append(word)
            continue
        for a in range(len(run)):
            for b in range(a + 2, len(run) + 1):
                joined = "".join(run[a:b]).upper()
                if len(joined) > _LONGEST:
                    break
                if joined in FORBIDDEN:
                    raise _refuse(f"{joined} spelled across several words or comments")
        run = []
    for i, t in enumerate(toks):
        if t.text != "(" or t.kind != "punct" or i == 0 or toks[i - 1].kind not in ("word", "name"):
            continue
        if toks[i - 1].kind == "name":
            raise _refuse(f"function call through a backtick-quoted name {toks[i - 1].text}(")
        k = i - 1
        while k >= 2 and toks[k - 1].text == "." and toks[k - 2].kind in ("word", "name"):
            k -= 2
        if k < i - 1:
            name = "".join(x.text for x in toks[k:i])
            raise _refuse(f"namespaced function or procedure {name}() is not allowed")
    first = (_bare(toks, 0) or toks[0].text).upper()
    if first not in STARTS or (first == "OPTIONAL" and not (len(toks) > 1 and _kw(toks, 1, "MATCH"))):
        raise _refuse(f"must start with MATCH, OPTIONAL MATCH, WITH, UNWIND or RETURN, not {first!r}")


def check_read_only(query: str, *, max_length: int = 4000) -> str:
    """Return ``query`` cleaned (comments out, trailing ``;`` off) or raise QueryRefused saying why."""
    if not isinstance(query, str):
        raise _refuse(f"a query must be a string, not {type(query).__name__}")
    if len(query) > max_length:
        raise _refuse(f"longer than {max_length} characters ({len(query)})")
    for c in query:
        if c not in "\t\r\n" and unicodedata.category(c) in _BAD_CATEGORIES:
            raise _refuse(f"control or invisible character {_char(c)}")
    parts: list[str] = []
    pos = 0
    for t in _lex(query):
        if t.kind == "comment":
            parts += [query[pos : t.start], " "]
            pos = t.end
    cleaned = ("".join(parts) + query[pos:]).strip()
    if cleaned.endswith(";"):
        cleaned = cleaned[:-1].rstrip()
    toks = _lex(cleaned)
    if not toks:
        raise _refuse("empty query")
    _check_tokens(toks)
    depth = _depths(toks)
    if not any(d == 0 and _kw(toks, i, "RETURN") for i, d in enumerate(depth)):
        raise _refuse("no RETURN clause")
    return cleaned


def ensure_limit(query: str, row_limit: int, *, max_length: int = 4000) -> str:
    """Check ``query`` and append ``LIMIT row_limit`` to every final RETURN that has no LIMIT.

    Cypher applies a trailing LIMIT to the last UNION branch only, so each branch gets its own:
    a union then returns at most branches × row_limit rows (the store's row_limit caps the rest).
    """
    if isinstance(row_limit, bool) or not isinstance(row_limit, int) or row_limit < 1:
        raise ValueError(f"row_limit must be a positive int, not {row_limit!r}")
    cleaned = check_read_only(query, max_length=max_length)
    toks = _lex(cleaned)
    depth = _depths(toks)
    cuts = [i for i, d in enumerate(depth) if d == 0 and _kw(toks, i, "UNION")]
    inserts: list[int] = []
    for lo, hi in zip([0, *[c + 1 for c in cuts]], [*cuts, len(toks)], strict=True):
        top = [i for i in range(lo, hi) if depth[i] == 0]
        returns = [i for i in top if _kw(toks, i, "RETURN")]
        if returns and not any(_kw(toks, i, "LIMIT") for i in top if i > returns[-1]):
            inserts.append(toks[hi - 1].end)
    for at in reversed(inserts):
        cleaned = f"{cleaned[:at]} LIMIT {row_limit}{cleaned[at:]}"
    return cleaned
