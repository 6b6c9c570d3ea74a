"""A parser-independent token view, noun-phrase chunking and subject finding over it (pure logic)."""

from __future__ import annotations

from dataclasses import dataclass

from memory.extraction.rules_lexicon import IRREALIS, NP_STOP, SOFT, category
from memory.words import FIRST_PERSON, FOR_A_WHILE, FORMER_ROLE, MY, POSSESSIVES, ROLES, TITLED_KIN

_THEIRS = POSSESSIVES - MY - {"your"}  # his, her, its, their: someone mentioned before


@dataclass(frozen=True)
class Tok:
    """One token of a parsed sentence: what the rules need from spaCy (or a test double)."""

    i: int
    text: str
    lemma: str
    pos: str
    tag: str
    dep: str
    ent: str
    idx: int  # character offset in the utterance

    @property
    def lower(self) -> str:
        return self.text.lower()

    @property
    def lem(self) -> str:
        return self.lemma.lower()

    @property
    def end(self) -> int:
        return self.idx + len(self.text)


@dataclass(frozen=True)
class Phrase:
    """A noun phrase as said: its text (determiners dropped), token range [start, end) and head token."""

    text: str
    start: int
    end: int
    head: Tok

    @property
    def proper(self) -> bool:
        return self.head.pos == "PROPN" or self.head.text[:1].isupper()


def span_text(source: str, toks: list[Tok], start: int, end: int) -> str:
    """The original characters covering toks[start:end] (keeps the user's spelling and capitals)."""
    return source[toks[start].idx : toks[end - 1].end]


def _nominal(t: Tok) -> bool:
    return t.pos in ("NOUN", "PROPN") or (t.tag == "VBG" and t.pos == "VERB") or t.pos == "NUM"


def _name_follows(toks: list[Tok], i: int, limit: int) -> bool:
    """A proper noun comes next, after adjectives only ("old Vauxhall"; not "stuffed animal dog")."""
    while i < limit and toks[i].pos == "ADJ":
        i += 1
    return i < limit and toks[i].pos == "PROPN"


def noun_phrase(source: str, toks: list[Tok], start: int, limit: int | None = None) -> Phrase | None:
    """The noun phrase starting at `start` (after determiners/possessives), or None if there is none."""
    limit = len(toks) if limit is None else limit
    i = start
    while i < limit and (
        toks[i].pos == "DET" or toks[i].lower in POSSESSIVES or toks[i].lower in ("some", "any")
    ):
        i += 1
    first = i
    last = -1
    while i < limit:
        t = toks[i]
        if t.lower in NP_STOP or (t.ent in ("DATE", "TIME") and t.pos != "PROPN"):
            break
        nxt = toks[i + 1] if i + 1 < limit else None
        after = toks[i + 2] if i + 2 < limit else None
        if t.lower == "brand" and last < 0 and nxt is not None and nxt.lower == "new":
            pass  # "a brand new Kia": "brand" (tagged a noun) says how new
        elif _nominal(t) or (i == first and t.pos == "VERB" and t.text.islower() and category(t.text)):
            last = i
        elif (t.pos == "ADJ" and last < 0) or (
            t.tag == "HYPH" and last >= 0 and nxt is not None and _nominal(nxt)
        ) or (  # a participle before a name or a noun, after an article: "a battered old Corsa", "a used Toyota
            # Aygo", "a retired greyhound"
            t.tag == "VBN" and t.dep == "amod" and last < 0 and first > start and (
                _name_follows(toks, i + 1, limit) or (nxt is not None and nxt.pos == "NOUN"))
        ) or (  # a hyphenated modifier before the noun: "a second-hand Jazz", "a well-worn copy"
            t.tag == "HYPH" and last < 0 and i > first and toks[i - 1].pos in ("ADJ", "ADV")
            and nxt is not None and nxt.text.islower()
        ):
            pass
        elif (
            t.tag == "POS" and last >= 0 and toks[last].pos == "PROPN" and (nxt is None or nxt.pos != "NOUN")
        ):
            last = i
        elif (
            t.lower in ("of", "de", "&")
            and last >= 0
            and toks[last].pos == "PROPN"
            and nxt is not None
            and (nxt.pos == "PROPN" or (t.lower == "of" and nxt.pos == "DET" and after is not None
                                        and after.pos == "PROPN"))
        ):
            i += nxt.pos == "DET"  # "the Lord of the Rings", "the Bank of the West": the article is inside
        elif t.pos == "ADJ" and last >= 0 and toks[last].pos == "PROPN" and t.text[:1].isupper():
            last = i
        else:
            break
        i += 1
    if (
        last < first
        and i > first
        and toks[i - 1].pos == "ADJ"
        and (toks[i - 1].text[:1].isupper() or category(toks[i - 1].text))
    ):
        last = i - 1  # "Portuguese", "Korean": a capitalised adjective used as a noun
    if last < first:
        return None
    head_i = last
    while head_i > first and toks[head_i].tag == "POS":
        head_i -= 1
    return Phrase(span_text(source, toks, first, last + 1), first, last + 1, _hyphened(toks, head_i, first))


def _hyphened(toks: list[Tok], i: int, first: int) -> Tok:
    """The head of a noun phrase with the word hyphened to it as one ("a start-up": start-up, not "up"; the parser
    splits the word in three). Only two lower-case words joined with no space: "mother-in-law" and "Rolls-Royce"
    keep their tokens."""
    head = toks[i]
    if i - 2 < first or toks[i - 1].tag != "HYPH" or not head.text.isalpha() or not head.text.islower():
        return head
    left, hyph = toks[i - 2], toks[i - 1]
    if not (left.text.isalpha() and left.text.islower() and left.end == hyph.idx and hyph.end == head.idx) or (
            i - 3 >= first and toks[i - 3].tag == "HYPH"):
        return head
    word = f"{left.text}-{head.text}"
    return Tok(head.i, word, f"{left.text}-{head.lemma}", head.pos, head.tag, head.dep, head.ent, left.idx)


def conjuncts(source: str, toks: list[Tok], first: Phrase, limit: int) -> list[Phrase]:
    """`first` plus the phrases coordinated with it ("blue cheese and dark chocolate", "X, Y or Z")."""
    out = [first]
    i = first.end
    while i < limit and toks[i].lower in (",", "and", "or", "as well as"):
        j = i + 1
        if toks[i].lower == "," and j < limit and toks[j].lower in ("and", "or"):
            j += 1
        if j >= limit or (toks[j].pos in ("PRON", "VERB", "AUX") and toks[j].lower not in POSSESSIVES):
            break
        nxt = noun_phrase(source, toks, j, limit)
        if nxt is None:
            break
        if nxt.end < limit and toks[nxt.end].pos in ("VERB", "AUX"):
            break  # "... and Lucy plays ...": a new clause, not an object
        out.append(nxt)
        i = nxt.end
    return out


@dataclass(frozen=True)
class SubjectRef:
    """Who a clause is about, before discourse resolution."""

    kind: str  # user | name | pronoun | poss_pronoun | role | phrase
    text: str  # the name, pronoun, role word or phrase
    start: int
    role_name: str | None = None  # for "my sister Anna": role word "sister"


def _skippable(t: Tok) -> bool:
    return (
        t.pos in ("ADV", "AUX", "PART")
        or t.lower in SOFT
        or t.dep == "neg"
        or t.lower in ("'ve", "'m", "'s", "'re", "'d", "ca", "n't", "not", "never", "to", "used")
        or (t.tag == "DT" and t.lower in ("both", "all", "each"))  # "Ruth and Owen both live in Norwich"
    ) and t.tag != "POS"


def _bare_name(t: Tok) -> bool:
    """A capitalised noun opening a clause with no determiner ("Sofia moved"): a name the tagger missed."""
    return t.tag in ("NN", "NNP", "JJ") and category(t.text) is None


def my_roles_joined(toks: list[Tok], i: int) -> bool:
    """Token ``i`` is the "and" of "my mum and stepdad Graham": the "my" of the first role is the second's too
    (whatever clause the parser's "and" begins)."""
    return 2 <= i < len(toks) - 1 and toks[i].lower == "and" and toks[i - 2].lower in MY and (
        toks[i - 1].lower in ROLES and toks[i + 1].lower in ROLES)


def find_subject(source: str, toks: list[Tok], lo: int, trig: int) -> SubjectRef | None:
    """Scan back from the trigger word to the clause's subject (I, Anna, my sister Anna, she, the Skoda)."""
    j = trig - 1
    while j >= lo and _skippable(toks[j]):
        j -= 1
    while j >= lo and toks[j].pos == "ADJ" and j - 1 >= lo and toks[j - 1].lower in POSSESSIVES:
        j -= 1  # "my first day", "my new job"
    if j < lo:
        return None
    t = toks[j]
    low = t.lower
    if low in FIRST_PERSON:
        return SubjectRef("user", low, j)
    if t.pos == "PRON" and low in ("she", "he", "it", "they"):
        return SubjectRef("pronoun", low, j)
    if low in _THEIRS:
        return SubjectRef("poss_pronoun", low, j)
    if t.tag == "POS" and j - 1 >= lo:
        j -= 1
        t = toks[j]
    if t.pos == "PROPN" or (t.text[:1].isupper() and t.pos in ("NOUN", "ADJ") and (j > lo or _bare_name(t))):
        k = j
        while k - 1 >= lo and (
            toks[k - 1].pos == "PROPN"
            or (toks[k - 1].text[:1].isupper() and toks[k - 1].pos in ("NOUN", "ADJ"))
        ):
            k -= 1
        role = None
        if k < j and toks[k].lower in ROLES and ((k - 1 >= lo and toks[k - 1].lower in MY) or (
                toks[k].lower in TITLED_KIN and toks[k].text[:1].isupper()) or my_roles_joined(toks, k - 1)):
            role, k = toks[k].lower, k + 1  # "My Mum Anne", "Grandad Ted": the role the tagger read as of the name
        name = span_text(source, toks, k, j + 1)
        r = k - 1
        if r >= lo and toks[r].lower == ",":
            r -= 1
        if role is None and r - 1 >= lo and toks[r].pos == "NOUN" and any(
                x.lower in MY for x in toks[max(lo, r - 3) : r]):
            role = toks[r].lower
        elif role is None and k - 1 >= lo and toks[k - 1].pos == "DET":
            return SubjectRef("phrase", name, k - 1)
        return SubjectRef("name", name, k, role)
    if t.pos == "NOUN":
        k = j
        while (
            k - 1 >= lo
            and toks[k - 1].pos in ("ADJ", "NOUN", "DET", "PRON")
            and toks[k - 1].lower not in ("i", "we", "she", "he", "it", "they")
        ):
            k -= 1
            if toks[k].lower in POSSESSIVES or toks[k].pos == "DET":
                break
        if toks[k].lower in MY:
            role = t.lemma.lower()
            if role in ROLES and ROLES[role].relation in FOR_A_WHILE and any(
                    x.lower in FORMER_ROLE for x in toks[k + 1 : j]):
                return None  # "my old boss retired": not the boss of now, and no one named
            return SubjectRef("role", role, k) if t.tag != "NNS" else None
        if toks[k].lower in _THEIRS and t.lemma.lower() in ROLES and k >= 2 and toks[k - 1].lower == "and":
            # "My brother Aled and his wife had a baby", "Tom and his kids moved": the couple or family is told
            # by its first member, when that member opens the sentence (the clauses may have been split at "and")
            first = find_subject(source, toks, 0, k - 1)
            if first is not None and first.kind in ("name", "role") and not any(
                    x.pos in ("VERB", "AUX") for x in toks[: first.start]):
                return first
        return SubjectRef("phrase", span_text(source, toks, k, j + 1), k)
    return None


def named_with(source: str, toks: list[Tok], ref: SubjectRef | None) -> SubjectRef | None:
    """The other of two people named as a clause's subject ("Tom and Ana live in Bristol": Tom), when the pair opens
    the clause; not an object before "and" ("I met Tom and Ana moved to Leeds")."""
    if ref is None or ref.kind != "name":
        return None
    b = _role_said_before(toks, ref.start, MY | _THEIRS)  # "…and my brother Owen", "…and his wife Carla"
    if b - 1 < 0 or toks[b].lower != "and":
        return None
    j = k = b - 1  # the clauses may have been split at that "and": the pair opens the sentence
    if toks[j].pos != "PROPN":
        return None
    while k - 1 >= 0 and toks[k - 1].pos == "PROPN":
        k -= 1
    opening = _role_said_before(toks, k) + 1  # "my sister Ruth and my brother Owen": said by their roles too
    if any((t.pos not in ("PUNCT", "ADV", "INTJ", "CCONJ") and t.lower not in SOFT and t.ent not in ("DATE", "TIME"))
           or t.lower in IRREALIS for t in toks[:opening]):  # "Maybe Tom and Ana…": not said as so
        return None
    return SubjectRef("name", span_text(source, toks, k, j + 1), k)


def _role_said_before(toks: list[Tok], k: int, owners: frozenset[str] = MY) -> int:
    """Where the speaker's role said before the name at ``k`` starts, less one ("and my brother Owen": the "and"),
    or ``k - 1`` when no role of "my" (of one of ``owners``) is said there."""
    if k - 1 < 0 or toks[k - 1].lower not in ROLES:
        return k - 1
    i = k - 1
    while i - 1 >= 0 and toks[i - 1].pos == "ADJ":
        i -= 1
    return i - 2 if i - 1 >= 0 and toks[i - 1].lower in owners else k - 1


def name_at(source: str, toks: list[Tok], k: int) -> str | None:
    """The name that starts at token k: a proper noun phrase, or capitalised words the tagger took for nouns."""
    if k >= len(toks):
        return None
    if toks[k].pos == "PROPN":
        name = noun_phrase(source, toks, k)
        if name is None or name.start != k:
            return None
        end = name.end  # a name ends on a capital: "my sister Ana pack…" is Ana, "Ana's moved" Ana
        while end > k + 1 and (toks[end - 1].tag == "POS" or toks[end - 1].text.islower()):
            end -= 1
        return span_text(source, toks, k, end)
    end = k
    while end < len(toks) and toks[end].pos == "NOUN" and toks[end].text[:1].isupper() and toks[end].ent not in (
            "DATE", "TIME"):
        end += 1
    return span_text(source, toks, k, end) if end > k else None


def names_listed(source: str, toks: list[Tok], k: int, first: str) -> list[str]:
    """The names listed from token k on, the first (``first``) already read: "Finn and Oscar", "Amy, Zoe and Max"."""
    names = [first]
    while True:
        end = k
        while end < len(toks) and toks[end].end <= toks[k].idx + len(names[-1]):
            end += 1  # past the name just read
        x = end + (end < len(toks) and toks[end].lower == ",")
        x += x < len(toks) and toks[x].lower == "and"
        name = name_at(source, toks, x) if end < x < len(toks) else None
        if name is None or name in names:
            return names
        names.append(name)
        k = x
