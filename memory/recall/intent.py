"""What a question asks for: which relations, about whom, and now versus before (pure, table-tested)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from memory.extraction.dates import MONTHS, SEASONS, WEEKDAYS
from memory.extraction.rules_lexicon import DIET_NAMES, FREE_OF, OCCUPATIONS, STUDY_PLACES
from memory.search import terms
from memory.vocabulary import NARROWER
from memory.words import (
    AUXILIARIES,
    MY,
    PARTICIPLES,
    ROLE_RELATIONS,
    SAID_OF_RELATION,
    VAGUE,
    WH_WORDS,
    alternation,
)


def _role_cues() -> list[tuple[str, tuple[str, ...]]]:
    """Role words as cues, from words.ROLES: "sister(s)" asks about sister_of, "parents" about mothers too."""
    words: dict[str, list[str]] = {}
    for w, rel in ROLE_RELATIONS.items():
        words.setdefault(rel, []).append(w)
    # not inside a longer role word ("brother" of "brother-in-law")
    return [(rf"\b({alternation(ws)})s?\b(?!-)", (rel, *NARROWER.get(rel, ()))) for rel, ws in words.items()]


# cue words (stems, matched at word starts) -> relations they ask about
CUES: list[tuple[str, tuple[str, ...]]] = [
    # whom a home is shared with ("Who do I live with?", "my flatmates")
    (r"\b(live|living|lives|lived)\s+with\b|\b(housemates?|flatmates?|roommates?)\b", ("lives_with",)),
    (r"\b(live|(?<!for a )living|lives|lived|reside|home|city|moved|move|based|flat|apartment|house)\b", ("lives_in",)),
    (r"\b(work|works|working|worked|job|employ\w*|company|employer)\b", ("works_at", "works_as")),
    # "What does Sunil do?", "What do you do now?": a job, asked with nothing after "do"
    (r"^\s*what\s+(?:do|does|did)\s+.+\s+do(?:\s+(?:now|nowadays|these\s+days))?\W*$", ("works_as", "works_at")),
    (r"\b(occupation|profession|do for a living)\b", ("works_as",)),
    # whether someone is one by their post ("Am I still a postie?", "Is Tom a plumber?"): the post, and where it is
    # held (a newer employer says something of an older post)
    (rf"^\s*(?:am|is|are|was|were)\b[^?]*\b(?:an?)\s+(?:\w+\s+)?({alternation(OCCUPATIONS)})\b",
     ("works_as", "works_at")),
    (r"\b(born|birthplace)\b", ("born_in", "born_on")),
    (r"\b(birthday)\b", ("born_on",)),
    (r"\b(grow up|grew up|raised|childhood|home ?town|originally)\b|^\s*where\b.*\bfrom\W*$", ("grew_up_in",)),
    (r"\b(drive|drives|driving|car|vehicle|motorbike|motorcycle|scooter|ride|rides|riding)\b", ("drives", "owns")),
    (r"\b(like|likes|love|loves|enjoy|enjoys|favou?rite|foods?|drinks?|eat|prefer|fan of|support|supports)\b",
     ("likes", "diet")),
    (rf"\b(diet|{alternation(DIET_NAMES)})\b", ("diet",)),  # "Am I still vegan?", "Is Tom teetotal?"
    (rf"\b({alternation(FREE_OF)})[- ]free\b", ("avoids",)),  # "Is Rob gluten-free?"
    # whether something may be eaten: what someone cannot have, too ("Can I eat prawns?" of a shellfish allergy)
    (r"^\s*(?:can|could|should|may)\s+\w+(?:\s+\w+)?\s+(?:eat|drink|have)\b",
     ("diet", "allergic_to", "has_condition", "avoids")),
    # whether someone eats or drinks a thing: what they go without, too ("Do I drink coffee?", caffeine cut out)
    (r"^\s*(?:do|does)\s+\w+(?:\s+\w+)?\s+(?:still\s+)?(?:eat|drink)\b", ("diet", "avoids", "allergic_to")),
    # a relation said in other words than its name ("Is Amy pregnant?", "When is the baby due?")
    *((rf"\b({alternation(words)})\b", (rel,)) for rel, words in SAID_OF_RELATION.items()),
    (r"\b(dislike|dislikes|hate|hates|can't stand)\b", ("dislikes",)),
    (r"\b(allerg\w*)\b", ("allergic_to",)),
    (r"\b(conditions?|illness\w*|diagnos\w*|health)\b", ("has_condition",)),
    (r"\b(injur\w*|hurt|sprain\w*|fractur\w*)\b", ("injured",)),
    (r"\b(teach|teaches|teaching|subject)\b", ("teaches",)),
    # a place of study named by its kind ("Does Tamsin go to Oakridge Primary?"; "high" and "form" only after a name)
    (rf"\b(stud(y|ies|ying|ents?)|degree|{alternation(STUDY_PLACES - {'high', 'form', 'grammar'})})\b|"
     r"(?-i:\b[A-Z]\w+\s+(?:High|Grammar)\b)", ("studies", "studies_at")),
    (r"\b(play|plays|playing|instrument)\b", ("plays",)),
    (r"\b(sports?|exercis\w*|fitness|workouts?|keep fit)\b", ("plays", "practices")),  # spin, yoga as well as squash
    (r"\b(hobby|hobbies|practi[cs]\w*|pastime|free time)\b", ("practices", "plays")),
    (r"\b(pets?|dogs?|cats?|pupp(?:y|ies)|kittens?|animals?)\b", ("has_pet",)),
    (r"\b(breed|kind of|type of|what is)\b", ("is_a",)),
    (r"\b(own|owns|have|has)\b", ("owns", "has_pet")),
    (r"\b(report)\b", ("reports_to",)),
    (r"\b(married)\b", ("spouse_of",)),
    *_role_cues(),
    (r"\b(speak|speaks|language)\b", ("speaks",)),
    (r"\bmy name\b|\bam i called\b|\bcalled me\b", ("named",)),  # the user's own name ("I'm Ruth")
    (r"\b(member|belong|club|team|band)\b", ("member_of",)),
    (r"\b(visit|visited|been to|travel\w*|trips?|holiday\w*|vacation\w*|getaways?|abroad)\b", ("visited",)),
    # where someone is off to: a trip planned ("Where is my daughter going?"), not a home
    (r"^\s*where\b.*\b(going|heading|flying|off|travelling|traveling)\b", ("plans_trip_to", "visited")),
]
_CUES = [(re.compile(p, re.I), rels) for p, rels in CUES]
# "have" as an auxiliary ("What types of yoga has Maria practiced?", "Have I ever been to Japan?") is no possession:
# it is followed by a participle, after its subject (a pronoun or a capitalised name) and an adverb, if any
_AUX_HAVE = re.compile(
    r"\b(?i:have|has)\b(?=\s+(?:(?i:i|you|he|she|we|they|it)\s+|[A-Z][\w'’-]*\s+(?:[A-Z][\w'’-]*\s+)?)?"
    rf"(?:(?i:ever|never|already|just|recently|really|also|not|always|finally)\s+)?(?i:{alternation(PARTICIPLES)}|\w{{3,}}ed)\b)")

_ABOUT = re.compile(r"\b(tell me (more )?about|what do you know about|anything about|remind me about)\b", re.I)
NAME_ASKED = re.compile(r"\b(name|names|called)\b", re.I)  # asked what someone or something is called
_WHEN = re.compile(
    r"\b(when|since|how long|how many (years|months|weeks|days)|dates?|days?|years?|months?|weeks?|ago|"
    r"recently|lately|birthday|anniversary)\b(?!['’]s\b)", re.I)  # "this year's", "which year's Massey": a thing of it
# "Which wedding anniversary are we celebrating?", "Which birthday is it?": which one (the 25th), not when
_WHICH_ONE = re.compile(r"^\s*which\s+(?:[\w-]+\s+)?(?:anniversary|birthday)\b", re.I)
# "How old was Bridie when she died?", "What did I eat when I was in Rome?": a "when" after another question word
# begins a clause that says of which time the question asks, and asks for no time itself
_WHEN_CLAUSE = re.compile(rf"^(\s*(?:{alternation(set(WH_WORDS) - {'when'})})\b.*?)\bwhen\b", re.I)
# "the most sheep shorn in one day", "How many miles a week do I run?": a rate, not a time asked
_RATE = re.compile(r"\b(?:in\s+(?:a|one)|a|per|each|every)\s+(?:single\s+)?(?:day|week|month|year)\b", re.I)
# "What day do I work at the garden centre?", "Which days is the gym open?", "What night do I do my shift?": a day of
# the week, not a date
_WEEKDAY_ASKED = re.compile(r"^\s*(?:what|which)\s+(?:days?|nights?|evenings?|mornings?|afternoons?)\s+"
                            r"(?:of\s+the\s+week\s+)?(?:do|does|is|are)\b", re.I)


_WHY = re.compile(r"^\s*(?:why|how\s+come)\b", re.I)


def asks_why(question: str) -> bool:
    """"Why did Hemi go home early?", "How come the ferry was late?": a reason asked."""
    return bool(_WHY.match(question))


# "How did I break my ankle?", "How did Pip die?": the way something happened, asked of a deed. Not how a thing went
# or was found ("How did the interview go?", "How did I do?", "How did she feel?", "How did our horse get on?"): an
# outcome or a feeling, which a hint of a way would mislead
_HOW_HAPPENED = re.compile(
    r"^\s*how\s+did\s+(?!(?:\S+\s+){1,4}?(?:go|do|feel|find|fare|like|get\s+on|turn\s+out|"
    r"look|sound|taste|seem)\b)(?:\S+\s+){1,4}?[a-z]+\b", re.I)


def asks_how_it_happened(question: str) -> bool:
    """"How did I break my ankle?": the way or the cause of a past deed, not its date nor how it went. A habit
    asked in the present ("How do I get to work?") is no deed: its facts say what holds now."""
    return bool(_HOW_HAPPENED.match(question)) and not asks_why(question)


# "Where did Lachie finish in the Camel Cup?", "Where did I come in the parkrun?": a place in the order, not on a map
_POSITION_ASKED = re.compile(r"^\s*where\s+(?:did|does|do|will|would)\s+(?:\S+\s+){1,4}?(?:finish|come|place|rank)"
                             r"\s+(?:in|at|on)\b", re.I)


# "On which day of surf camp did I first stand up?", "What day of the trek did it snow?": the day's place in a stretch
# of days (the third), not a date; not "which day of the week" or "of the month"
_DAY_OF_IT = re.compile(r"^\s*(?:on\s+)?(?:which|what)\s+(?:day|night|week|morning|evening)\s+of\s+"
                        r"(?!(?:the\s+)?(?:week|month|year)\b)", re.I)


def asks_a_day_of_it(question: str) -> bool:
    """"On which day of surf camp did I first stand up?": which day of a stretch of days ("the third"); the small
    model gave a date."""
    return bool(_DAY_OF_IT.match(question))


def asks_a_position(question: str) -> bool:
    """"Where did Lachie finish in the Camel Cup?": a place in the order ("fourth"); the small model gave the town."""
    return bool(_POSITION_ASKED.match(question))


def asks_a_weekday(question: str) -> bool:
    """"What day do I work at the garden centre?": a day of the week (the small model gave the date it was told)."""
    return bool(_WEEKDAY_ASKED.match(question))

_PAST = alternation(w for w, aux in AUXILIARIES.items() if aux.past)  # did, was, were, had
_HISTORY = re.compile(
    r"\b(before|used to|previous(ly)?|formerly|earlier|ever|first|originally|past|history|changed|still|"
    rf"last time|in the past|back then|once|former|old)\b|\b({_PAST})\b.*\b(before|then|ago)\b",
    re.I)
# "where did you live" asks for the old value; "when did" asks for a date (_WHEN), "why did" for a reason
# "Am I vegan?", "Do we have a car?", "Does Tamsin go to Oakridge?": asked of the user, someone of theirs or someone
# named, now, so what ended is read too (to say "No, not since…")
NOW_MINE = re.compile(r"^\s*(?:(?:am|are|do|have|has)\s+(?:i|we)\b|(?:is|are|does|do|has|have)\s+(?:(?:my|our)\s+\w+|"
                      r"(?-i:[A-Z][\w'’-]+))\b)", re.I)
_DID_PAST = re.compile(
    rf"^\s*({alternation(w for w, asks in WH_WORDS.items() if asks not in ('time', 'reason'))})\s+({_PAST})\b", re.I)
_PROVENANCE = re.compile(
    r"\b(how do you know|why do you (think|say|believe)|where did you (hear|learn|get)|who told you|"
    r"what makes you (think|say)|how did you (know|learn)|source|when did i (tell|say|mention))\b", re.I)
_WHO = re.compile(r"^\s*(who|which of)\b", re.I)
# "How many children do I have?", "Have I got any cousins?": a role had by the speaker, said without "my"
_I_HAVE = re.compile(r"\b(?:i|we)\s+(?:have|had|got)\b|\b(?:have|had)\s+(?:i|we)\b", re.I)
_ROLE_WORD = re.compile(rf"\b({alternation(ROLE_RELATIONS)})(?:s|ren)?\b", re.I)
_ROLE_PHRASE = re.compile(rf"\b({alternation(MY)})\s+((?:best|old|older|younger|little|big|oldest|youngest)\s+)?"
                          rf"({alternation(ROLE_RELATIONS)})s?\b", re.I)


@dataclass(frozen=True)
class Intent:
    relations: tuple[str, ...] = ()
    history: bool = False  # asks about before / ever / a change
    provenance: bool = False  # "how do you know?"
    who: bool = False  # asks for the subject ("who works at X")
    roles: tuple[str, ...] = field(default_factory=tuple)  # role phrases -> kin relation ("my sister" -> sister_of)
    when: bool = False  # asks about dates or durations ("when", "since when", "how long", "a year ago")
    role_words: tuple[str, ...] = ()  # the role nouns as said ("my sister" -> "sister")


def analyse(question: str) -> Intent:
    q = question.strip()
    cued = _AUX_HAVE.sub("aux", q)
    rels: list[str] = []
    for rx, rs in _CUES:
        if rx.search(cued):
            rels.extend(r for r in rs if r not in rels)
    role_words = tuple(dict.fromkeys(m.group(3).lower() for m in _ROLE_PHRASE.finditer(q)))
    had = not role_words and bool(_I_HAVE.search(q))  # the roles themselves are asked about
    if had:
        role_words = tuple(dict.fromkeys(m.group(1).lower() for m in _ROLE_WORD.finditer(q)))
    said = [ROLE_RELATIONS[w] for w in role_words]
    roles = tuple(dict.fromkeys(r for rel in said for r in (rel, *NARROWER.get(rel, ()))))  # "my kids": sons too
    # "where does my sister live" asks about lives_in, not about sisterhood
    asked = [r for r in rels if r not in roles or len([x for x in rels if x not in roles]) == 0]
    if roles and re.match(r"^\s*where\b", q, re.I) and all(r in roles for r in asked):
        # where a relative is, even when the verb was mis-heard ("where does my sister life?"); "where" alone
        # asks for many places ("where did I go on holiday?", "where do I volunteer?"), not a home
        asked = ["lives_in"]
    if roles and (had or NAME_ASKED.search(q)):  # "what is my sister's name?": the kinship arc is the answer
        asked = list(roles)
    elif _ABOUT.search(q) and all(r in roles for r in asked):  # "tell me about my sister": all about her
        asked = []
    history = bool(_HISTORY.search(q) or NOW_MINE.match(q)) or (bool(_DID_PAST.search(q)) and "now" not in q.lower())
    return Intent(tuple(asked), history, bool(_PROVENANCE.search(q)), bool(_WHO.search(q)), roles,
                  bool(_WHEN.search(_RATE.sub(" ", _WHEN_CLAUSE.sub(r"\1", q)))) and not asks_a_weekday(q) and not (
                      _WHICH_ONE.match(q) or asks_a_day_of_it(q)), role_words)


_LATER_CAPITAL = re.compile(r"(?<=\w[\s,])\s*(?!I\b|I['’])[A-Z][\w'’]*")


def speaks_to(text: str, question: str, relations: tuple[str, ...] | list[str]) -> bool:
    """Whether an utterance bears on what the question asks: a cue word of an asked relation ("Where does Pavel
    live?" — "moved", "home", "lives"), or one of the question's own topic words (names aside: "Pavel plays the
    accordion" names the one asked about and says nothing of where he lives)."""
    wanted = set(relations)
    if any(rels and wanted & set(rels) and p.search(text) for p, rels in _CUES):
        return True
    topic = set(terms(_LATER_CAPITAL.sub(" ", question)))
    return bool(topic & set(terms(text)))


_NAME_LINKS = frozenset({"de", "of", "la", "le", "du", "del", "da", "von", "van"})


def _names_of_someone(question: str) -> set[str]:
    """The capitalised words after a question's first, less those of a thing named with "the" ("the Tour de
    France", "the Eiffel Tower"; a family stays someone: "the Khans")."""
    names: set[str] = set()
    thing = False
    for m in _LATER_CAPITAL.finditer(question):
        word = m.group(0).strip()
        before = question[: m.start()].split()
        prev = before[-1] if before else ""
        if prev.lower() == "the" and not word.endswith("s"):
            thing = True
        elif not (thing and (prev.lower() in _NAME_LINKS or prev[:1].isupper())):
            thing = False
        if not thing:
            names.add(re.sub(r"['’]s?$", "", word))  # "Arthur's" is Arthur; "Khans", "Paris" keep their s
    return names


def names_someone_said(question: str, texts: Sequence[str]) -> bool:
    """The question names someone (a capitalised word after its first, "I" aside) whose name is in these words:
    "What does Arthur do for a living?" after "My grandad Arthur turns ninety" asks about someone's life,
    though no fact made Arthur an entity — not a general question for the model's own knowledge."""
    return names_said(_names_of_someone(question), texts)


def names_said(names: Iterable[str], texts: Sequence[str]) -> bool:
    """One of ``names`` (of two letters or more) is said, as a whole word, in one of ``texts``."""
    return any(re.search(rf"\b{re.escape(n)}\b", t) for n in names if len(n) > 1 for t in texts)


def people_named(tagged: Sequence[Tagged]) -> list[str]:
    """The words of a question the tagger takes for people: a person's name, or a name with no other kind that does
    what is asked ("Which planet is Cillian making?": a name the tagger's model does not know). Not a name that is
    done to ("Who wrote Pride and Prejudice?"), a place's or a company's, nor a people ("What year did the Romans
    invade Britain?")."""
    return [t.text for k, t in enumerate(tagged) if getattr(t, "ent", "") == "PERSON" or (
        t.pos == "PROPN" and getattr(t, "ent", "") in ("", "NORP") and getattr(t, "dep", "").startswith("nsubj")
        and t.tag != "NNPS" and not (k and tagged[k - 1].pos == "DET"))]  # not "the Romans"


class Tagged(Protocol):
    """A tagged word of the question (memory.extraction.rules_tokens.Tok, or a test double)."""

    @property
    def text(self) -> str: ...
    @property
    def pos(self) -> str: ...
    @property
    def tag(self) -> str: ...


_ASKS_WHICH = frozenset(w for w, asks in WH_WORDS.items() if asks == "thing") | {"whose"}  # what, which, whose
_BE = frozenset({"is", "are", "am", "was", "were", "'s", "’s"})
_IN_CATEGORY = frozenset({"ADJ", "NOUN", "PROPN", "DET", "NUM"})
_KIND_ASKERS = frozenset({"what", "which"})
_KIND_OF = frozenset({"type", "types", "kind", "kinds", "sort", "sorts"})


def premises(tokens: Sequence[Tagged], known_name: Callable[[str], bool] | None = None) -> list[str]:
    """The things a question takes as given, which what memory found must mention for an answer to be about
    them: its common nouns ("What did Maria donate to a luxury store?" -> luxury, store), except
    - the category it asks for, which the answer fills ("Which city", "What is my job", "What is Jon's favorite
      style of painting" -> style; painting stays),
    - nouns too vague to be a premise ("the time", "a lot"),
    - the cue words of relations, which facts say in their own words ("job" -> works at).
    Nouns offered as a choice are one premise, "beach|mountains", of which one must be mentioned.
    With ``known_name`` (whether memory knows an entity of that name), a name memory has never heard of is a
    premise too ("When am I going to Madrid?" when only Berlin was ever said); names it knows are who or what is
    asked about, found by linking, and months and weekdays are times.
    Only the question itself counts: what follows its last "?" ("Answer yes or no.") is an instruction."""
    toks = _asked(tokens)
    category = {j for i, t in enumerate(toks) if t.text.lower() in _ASKS_WHICH for j in _category_at(toks, i)[0]}
    nouns = [i for i, t in enumerate(toks) if t.pos == "NOUN" and i not in category and not _part_of_a_time(toks, i)]
    if known_name is not None:
        nouns = sorted(nouns + _unknown_names(toks, category, known_name))
    out: list[str] = []
    for group in _choices(toks, nouns):
        if len(group) > 1 and any(_no_premise(toks[i].text.lower()) for i in group):
            continue  # one of the choice is no premise (a relation's word): neither is checked
        kept = [i for i in group if not _no_premise(toks[i].text.lower())]
        if not kept:
            continue
        said = "|".join(dict.fromkeys(toks[i].text.lower() for i in kept))
        if said not in out:
            out.append(said)
    return out


def _asked(tokens: Sequence[Tagged]) -> list[Tagged]:
    """The question's words up to its last "?" (what follows, "Answer yes or no.", is an instruction)."""
    toks = list(tokens)
    last = max((i for i, t in enumerate(toks) if t.text == "?"), default=len(toks) - 1)
    return toks[: last + 1]


def _category_at(toks: Sequence[Tagged], i: int) -> tuple[list[int], bool]:
    """The words of the category asked for after the question word at ``i`` ("what is my job", "what's Jon's
    favorite style"), and whether a form of "be" came between."""
    j = i + 1
    be = j < len(toks) and toks[j].text.lower() in _BE
    j += be
    out: list[int] = []
    while j < len(toks) and (toks[j].pos in _IN_CATEGORY or toks[j].tag in ("PRP$", "POS")):
        out.append(j)
        j += 1
    return out, be


class Kind(NamedTuple):
    """The kind of thing a question asks for: its words ("favorite dish") and, of them, the nouns ("dish")."""

    words: str
    nouns: tuple[str, ...]


def asked_kind(tokens: Sequence[Tagged]) -> Kind | None:
    """The kind of thing the question asks for, as words an answer of it must be ("What type of drink did Andrew
    try?" -> drink, "Which two mystery novels…" -> mystery novels, "What is Joanna's favorite dish…" -> favorite
    dish): its nouns and adjectives after the question word, through "type of", "kind of" or "sort of", without
    whose it is. None when it names no noun, only a vague one ("what things"), or when the question word is the
    object of a preposition at its end ("What is her favorite series about?": the answer is no series)."""
    toks = _asked(tokens)
    at = next((i for i, t in enumerate(toks) if t.text.lower() in _KIND_ASKERS), None)
    if at is None:
        return None
    span, be = _category_at(toks, at)
    while (span and span[-1] + 2 < len(toks) and toks[span[-1]].text.lower() in _KIND_OF
           and toks[span[-1] + 1].text.lower() == "of"):
        span, _ = _category_at(toks, span[-1] + 1)  # "type of drink": the words after "of"
    if be and len(toks) > 2 and toks[-1].text == "?" and toks[-2].pos == "ADP":
        return None
    owner = {j for j in span if toks[j].tag == "POS" or (j + 1 in span and toks[j + 1].tag == "POS")}
    if be and span and toks[span[0]].pos == "PROPN" and not owner:
        return None  # "What is Andrew planning to do?": the name is who does it (a verb the tagger took for a noun)
    nouns = [j for j in span if toks[j].pos == "NOUN" and j not in owner]
    if not nouns or toks[nouns[-1]].text.lower() in VAGUE | _KIND_OF:
        return None
    return Kind(" ".join(toks[j].text for j in span[: span.index(nouns[-1]) + 1]
                         if toks[j].pos in ("NOUN", "ADJ", "PROPN") and j not in owner),
                tuple(toks[j].text for j in nouns))


def _unknown_names(toks: Sequence[Tagged], skip: set[int], known_name: Callable[[str], bool]) -> list[int]:
    """The words of the names in the question ("New York": a run of proper nouns) that memory does not know."""
    out: list[int] = []
    i = 0
    while i < len(toks):
        if toks[i].pos != "PROPN" or i in skip:
            i += 1
            continue
        j = i
        while j < len(toks) and toks[j].pos == "PROPN":
            j += 1
        run = [k for k in range(i, j) if toks[k].text[:1].isupper() and toks[k].text.lower() not in MONTHS
               and toks[k].text.lower() not in WEEKDAYS]
        said = dict.fromkeys([" ".join(toks[k].text for k in range(i, j)), *(toks[k].text for k in run)])
        if run and not any(known_name(name) for name in said):  # the whole name, or a word of it ("New York")
            out += run
        i = j
    return out


def _part_of_a_time(toks: Sequence[Tagged], i: int) -> bool:
    """"the beginning of November", "the end of the summer", "the rest of 2022": a part of a time says when, and is
    no premise for what was found to mention."""
    if i + 1 >= len(toks) or toks[i + 1].text.lower() != "of":
        return False
    for t in toks[i + 2 : i + 5]:
        word = t.text.lower()
        if word in MONTHS or word in WEEKDAYS or word in SEASONS or word in VAGUE or word.isdigit():
            return True
        if t.pos not in ("DET", "ADJ", "PRON"):
            return False
    return False


def _no_premise(word: str) -> bool:
    return word in VAGUE or any(p.search(word) for p, _ in _CUES)


def _choices(toks: Sequence[Tagged], nouns: list[int]) -> list[list[int]]:
    """The premise nouns, one to a group, except that nouns offered as a choice share one ("Does John live near
    a beach or the mountains?": beach|mountains, one of which what was found must mention; "a van, a car or a
    bike" too). Nouns listed with commas but no "or" stay apart."""
    groups: list[tuple[list[int], bool]] = []
    for i in nouns:
        if groups:
            last = groups[-1][0][-1]
            between = list(range(last + 1, i))
            words = [toks[k].text.lower() for k in between]
            if ("or" in words or "," in words) and all(
                    w in ("or", ",") or toks[k].pos in ("DET", "ADJ", "PRON", "NUM") for k, w in zip(between, words,
                                                                                                  strict=True)):
                groups[-1] = ([*groups[-1][0], i], groups[-1][1] or "or" in words)
                continue
        groups.append(([i], False))
    return [g for group, choice in groups for g in ([group] if choice else [[i] for i in group])]
