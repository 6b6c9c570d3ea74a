"""Answer composition: recalled facts in, a short speakable answer out (LLM, or a plain template)."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from typing import NamedTuple

from assistant.counts import count_after, count_now, numbers_in, priced_from_nothing, without_thousands_commas
from assistant.when import (
    MONTH,
    dated,
    redated,
    said_day_ahead,
    said_on,
    said_otherwise,
    spoken_date,
    they_deny,
    time_moved_first,
    yes_no,
)
from memory.episodes import Episode, about_listener, addressed, to_listener, without_names
from memory.extraction.dates import (
    MONTHS,
    NUMBERS,
    ORDINALS,
    TENS,
    UNITS,
    WEEKDAYS,
    big_numbers,
    clock_times,
    exact_number,
    in_figures,
    number,
    slang_money,
)
from memory.extraction.rules_lexicon import OCCUPATIONS, WORKPLACES
from memory.llm import Message
from memory.model import USER_ID, Arc
from memory.names import new_name
from memory.periods import mended, says_when
from memory.recall.intent import (
    asks_a_day_of_it,
    asks_a_position,
    asks_a_weekday,
    asks_how_it_happened,
    asks_why,
)
from memory.recall.recall import RecallResult
from memory.revision import says_an_end
from memory.search import SENTENCE_END, STOPWORDS, focus, fold, stem, terms
from memory.timeutil import spoken_grain
from memory.vocabulary import NARROWER, RELATIONS, EntityType
from memory.words import (
    ALLERGEN_FOODS,
    ASKED_AS_TOLD,
    AUXILIARIES,
    CLAUSE_CUT,
    CONDITION_EXCLUDES,
    DENYING,
    DIET_EXCLUDES,
    FIRST_PERSON_RE,
    MY,
    PAST_FORMS,
    POINTING_BACK,
    POSSESSIVES,
    ROLE_NOUNS,
    ROLE_RELATIONS,
    SAID_OF_RELATION,
    SAID_TO_USER,
    WE,
    WH_WORDS,
    alternation,
    news_told,
)

# Fixed prefix (the server's prompt cache keeps it); everything that varies goes in the user message.
# "One short sentence", and no example answers: told to answer in "often a few words" and shown four ("Q: What did
# Sam give his sister…? A: A red scarf."), the bundled model, handed the right utterances, often cut the detail asked
# for. On 78 LoCoMo questions of earlier unseen samples it hit 59 where it hit 52, and 20 of 28 unseen ones where it
# hit 18; the scenario sets held (docs/benchmarks.md, stop 39). The answer shaping below makes the sentence short.
SYSTEM = """You are Hearth, a friendly voice assistant that remembers what people told you.
Answer what was asked in one short sentence. No markdown, lists or emojis. Say "you" for the user.
You are given remembered facts (in time order; a fact marked "until <date>" is no longer true: never present
it as current, but use it when asked about the past) and things people said, each with its date and speaker.
For a question about the user or anyone or anything in their life, use only those, and check who said
each thing: what one person said about themselves is not an answer about someone else. Work out dates from when
the words were said ("last week" said on 8 May 2023 is the week before 8 May 2023) and answer with dates
people say. If they do not answer the question, say plainly that you don't know; never guess or invent.
For a general question that is not about anyone's life, answer from your own knowledge and say so briefly.
When the user tells you something instead of asking, reply in one short, warm sentence that shows what you
heard (it will be remembered)."""

# A yes/no reading of one remembered sentence against the question, asked only when no word of the asked relation
# or topic is in what was found ("What hobby did Frank take up?" — "My uncle Frank has started beekeeping"): a
# paraphrase that words and the small embedding model cannot tell from a sentence that only names the person.
ANSWERS_SYSTEM = ("You check whether a remembered sentence answers a question. Reply with one word: yes if the "
                  "sentence says the answer, no if it only mentions the person or says something else about them.")
ANSWERS_SCHEMA = {"type": "object", "properties": {"answers": {"type": "string", "enum": ["yes", "no"]}},
                  "required": ["answers"]}


def answers_messages(sentence: str, question: str) -> list[Message]:
    return [{"role": "system", "content": ANSWERS_SYSTEM},
            {"role": "user", "content": f'Sentence: "{sentence}"\nQuestion: {question}\n'
                                        "Does the sentence answer the question?"}]


# Whether the words an answer was drawn from speak of something the question takes as given ("the drought" when
# they tell of a flood): asked of the model one premise at a time, only when no word of the premise is in those
# words or the turns around them. On 59 premises of dev LoCoMo answers (conv-30/41 and the old holdout sample),
# it said no to 7 of 16 that adversarial questions made up, and to 3 of 14 behind right answers.
MENTIONS_SYSTEM = ("You check what a sentence talks about. Reply yes if the sentence speaks of the thing named, in "
                   "any words (a synonym, a kind of it, or a clear paraphrase); no if it speaks of something else.")
MENTIONS_SCHEMA = {"type": "object", "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
                   "required": ["answer"]}


def mentions_messages(sentence: str, premise: str, question: str) -> list[Message]:
    thing = " or ".join(premise.split("|"))
    return [{"role": "system", "content": MENTIONS_SYSTEM},
            {"role": "user", "content": f'Sentence: "{sentence}"\nDoes the sentence speak of {thing} (in this '
                                        f'question: "{question}")?'}]


# Whether an answer is the kind of thing asked for ("What type of drink did Andrew try?" "Sushi"): a question made
# up about a detail never said is answered with the nearest thing that was, of another kind. Asked of the model
# only when a noun of the kind is in neither the answer's source nor the turns around it, twice: with the question
# and without it; both must say no (asked once, the bundled 1.5B model said a tart is no dessert). On the LoCoMo
# answers saved from earlier runs that reach the model (conv-30/41/42/43/44, dev, and the right answers of seed 41),
# the pair said no to 6 of 28 wrong answers to adversarial questions and to none of 14 right ones; the first asking
# alone, to 9 and 2. An answer its source gives by a proper name (``named_in``) is not asked about: the model said a
# band it did not know was no band.
KIND_SYSTEM = ("You check whether an answer names the kind of thing a question asks for. Reply yes if it is that "
               "kind of thing (or a kind of it, or could be one); no only if it is plainly something else.")


_CALENDAR = frozenset({*MONTHS, *WEEKDAYS, *(f"{d}s" for d in WEEKDAYS)})


def named_in(answer: str, question: str, source: str) -> bool:
    """The answer gives something by the proper name its source calls it ("Fontaines D.C." for "Saw Fontaines D.C.
    at Glastonbury"): a word of the answer's own, not the question's, that the source writes capitalised inside a
    sentence. A small model cannot tell the kind of a name it has never heard of (it said a band of that name is no
    band), so such an answer is not put to it. A day or a month is written capitalised and names no thing
    ("Mondays and Wednesdays", asked what car someone drives)."""
    asked = {w.lower() for w in _WORD.findall(question)}
    own = {w.lower() for w in _WORD.findall(answer)} - asked - _CALENDAR
    for sentence in SENTENCE_END.split(source):
        words = _WORD.findall(sentence)
        if any(w[:1].isupper() and w.lower() in own for w in words[1:]):
            return True
    return False


def kind_asks(answer: str, kind: str, question: str) -> list[list[Message]]:
    """The two ways of asking whether ``answer`` is a ``kind``: on its own, then in the question's light (the
    short one first: it mostly says yes, and a yes ends the check sooner when speaking). The answer is as it would
    be said, without the question said back ("The movie she watched was X" would tell the model it is a movie)."""
    said = _shaped(answer.strip(), question)
    return [[{"role": "system", "content": KIND_SYSTEM}, {"role": "user", "content": f'Is "{said}" a {kind}?'}],
            [{"role": "system", "content": KIND_SYSTEM},
             {"role": "user", "content": f'Question: "{question}"\nAnswer: "{said}"\nIs the answer a {kind}?'}]]


_OPENERS = [*WH_WORDS, *(w for w, aux in AUXILIARIES.items() if aux.bare), "tell me", "remind me"]
_QUESTION = re.compile(rf"^\s*({alternation(_OPENERS)})\b", re.I)


def is_question(text: str) -> bool:
    """Asked, not told: not a question that tells news ("Did you hear Tom got engaged?" gets a reply, and is learned
    at once)."""
    return (text.strip().endswith("?") or bool(_QUESTION.match(text))) and not news_told(text)

_MD = re.compile(r"(\*\*|__|`|^#+\s*|^\s*[-*•]\s+)", re.M)


def figured(text: str) -> str:
    """A number of a hundred or more, a sum said by a word of its own, or a time of day, said in words with its
    figure after it: "two hundred and ten (210) quid", "best fiver (5)", "at ten past nine (9:10)" (the small model
    read them as "200 pounds", "$100" and "10:00 AM")."""
    said = [(end, str(value)) for _, end, value in [*big_numbers(text), *slang_money(text)]] + [
        (end, t) for _, end, t in clock_times(text)]
    for end, figure in sorted(said, reverse=True):
        text = f"{text[:end]} ({figure}){text[end:]}"
    return text


_LONGEST_SAID = 600  # the most of one utterance the prompt holds, when few are found


def said_lines(recall: RecallResult, *, budget_chars: int = 1200, max_chars: int = 300) -> list[str]:
    """The utterances found, oldest first, within a character budget (the best ones are kept first), each cut
    to what bears on the question (to ``max_chars``, or more when few are found). A question about when keeps
    them best first: oldest first, the small model took the date of whichever utterance came first or last, not
    of the one that matched."""
    kept: list[tuple[datetime, str, str]] = []
    used = 0
    # few found, each may be longer, within the budget: the part that answers is often not the part that shares
    # the question's words ("How long will the balikbayan box take?": "…the shipping company reckons about eight
    # weeks" came after the box's contents, and was cut)
    max_chars = max(max_chars, min(_LONGEST_SAID, budget_chars // max(1, len(recall.episodes))))
    # asked the way something happened, the words go undated: the small model answered "How did Pip die?" with the
    # date put after "last night", whatever the question's hint said
    way = asks_how_it_happened(recall.question)
    for e in time_moved_first(recall) if recall.intent.when else recall.episodes:
        text = focus(e.text, recall.question, max_chars, beside=says_when if recall.intent.when else None)
        if used + len(text) > budget_chars and kept:
            break
        words = figured(mended(text))
        kept.append((e.at, "the user" if e.speaker == "user" else e.speaker, words if way else dated(words, e.at)))
        used += len(text)
    if not recall.intent.when:  # asked when: the best match first (dev LoCoMo temporal F1 0.34 -> 0.40)
        kept.sort(key=lambda k: k[0], reverse=asks_now(recall.question, recall))
    return [f'- On {spoken_date(at)} {who} said: "{text}"' for at, who, text in kept]


def asks_now(question: str, recall: RecallResult | None = None) -> bool:
    """A yes/no question about today ("Do I drink coffee?"): what was said is given newest first, for the small
    model answers from the first line it reads ("I don't drink coffee" in January over "I'm a proper coffee
    person now" in July, listed oldest first even when told the latest holds)."""
    aux = yes_no(question)
    if aux is not None:
        return not aux.past
    # the same of a question about what holds now in the user's life ("Where does my mum live?", "What car do I
    # drive?"): the newest words first, where a move or a change told later is ("she's moved to Cardiff now")
    # and how many or how much of it there is now ("How many days a week am I in the office?" after "five days a
    # week", then "just Tuesdays and Thursdays" from July: the model counted the first words it read)
    # a record is beaten by a newer one ("What's my highest ever Scrabble score?" after 396, then 503), and what is
    # next was said after what came before it ("What's my next piece going to be?" after the hare, "next a heron")
    if _RECORD.search(question) or _NEXT.search(question):
        return True
    now = bool(_WH_NOW.match(question.strip())) or (
        bool(_HOW_MANY_NOW.match(question.strip())) and not _PAST_AUX.search(question))
    # of anyone, when the question says it asks of today ("Where's Jordan based now?" after "two weeks on the rigs
    # out of Aberdeen", then a new job "over in Hull": the model gave the first place it read)
    # and of one of the user's own people by name, as of "my brother" ("Where does Vikram live?" of the user's
    # brother, after "to Calgary, not Toronto; he moved west": the model gave Toronto, read first)
    return now and (bool(FIRST_PERSON_RE.search(question)) or (
        bool(_SAYS_NOW.search(question)) and not _PAST_AUX.search(question)) or (
        recall is not None and not _PAST_AUX.search(question) and any(
            a.valid_to is None and (a.object_id == USER_ID or a.subject_id == USER_ID)
            for name in _names_asked(question) for a, _ in _roles_held(name, recall))))


_SUPERLATIVE = r"(?:most|highest|best|biggest|fastest|longest|furthest|farthest|lowest|quickest|heaviest|largest)"
_RECORD = re.compile(rf"\b{_SUPERLATIVE}\b.*\bever\b|\bever\b.*\b{_SUPERLATIVE}\b|\b(?:record|personal\s+best|pb)\b"
                     r"|\b(?:best|fastest|quickest|highest|top)\s+(?:time|score|result|mark|finish|lap|total)\b",
                     re.I)  # (a best time or score: "What's Zayan's best time on the Rubik's cube?")
_NEXT = re.compile(r"^\s*(?:what|which|who)\b.*\bnext\b", re.I)
_SAYS_NOW = re.compile(r"\b(?:now|these\s+days|nowadays|at\s+the\s+moment|currently)\s*\??\s*$", re.I)
# a wh-question and its auxiliary, a word or two of what is asked between: "What car do I…", "Who is my…"
_WH_ASKING = set(WH_WORDS) - {"when", "how"}  # asked when, the best match stays first
_PAST_AUX = re.compile(r"\b(?:did|was|were|had)\b", re.I)
_HOW_MANY_NOW = re.compile(r"how\s+(?:many|much)(?:\s+\w+){0,4}?\s+(?:is|are|am|do|does|has|have)\b", re.I)
_WH_NOW = re.compile(rf"(?:{alternation(_WH_ASKING)})(?:(?:\s+\w+){{0,3}}?\s+(is|are|am|do|does|has|have)\b|['’]s\b)",
                     re.I)


# asked how or why something happened: the words say it, a fact only that it did
_HOW_OR_WHY = re.compile(r"^\s*(?:why|how)\s+(?:did|do|does|was|were|is|are|had|has|have|come)\b", re.I)


def user_prompt(question: str, recall: RecallResult, now: datetime, *, budget_chars: int = 1200) -> str:
    lines = [f"Today is {spoken_date(now)}."]
    if recall.summaries:  # at most a line or two, from facts true today
        lines.append("Who or what is asked about (true today):")
        lines += [f"- {s}" for s in recall.summary_lines()]
    facts = ["Remembered facts (oldest first):", *(f"- {s}" for s in recall.statements())] if (
        recall.facts or recall.notes) else []
    # told something, the model replies to it: earlier words (the sentence just said among them) are no part of a
    # reply, and each token of them costs ~14 ms before it starts
    asked = is_question(question)
    said = said_lines(recall, budget_chars=budget_chars) if recall.episodes_relevant and asked else []
    if said:  # asked when, the best match comes first (said_lines): the header must not say otherwise, or the
        # model takes the last line for the newest ("Where did I travel recently?" answered with the home town)
        said.insert(0, "Things said before (best match first):" if recall.intent.when else
                    "Things said before (newest first):" if asks_now(question, recall) else
                    "Things said before (oldest first):")
    # asked how or why, the words go first: the small model answered "How did I hurt my ankle?" with the fact "User
    # injured ankle (on 29 September 2026)" read first, not "…falling off a banana boat"
    # asked the way something happened, a fact says only that and when it did, and the small model gave its date
    # ("How did I break my ankle?" "On 15 March 2026."): the words alone go
    if said and asks_how_it_happened(question):
        facts = []
    lines += [*said, *facts] if said and _HOW_OR_WHY.match(question) else [*facts, *said]
    if not (recall.facts or recall.notes or said or recall.summaries):
        lines.append("Remembered: nothing relevant." if recall.personal else
                     "Remembered: nothing relevant. This is a general question: answer it from your own knowledge.")
    if asked:
        lines.append(f"Question: {question.strip()}{_hint(question)}")
    else:  # a small model tends to echo the sentence back in the first person: ask for a reply to it
        lines.append(f"The user tells you: {question.strip()}\n"
                     "Reply to them in one short, warm sentence that says back what you heard, calling them \"you\".")
    return "\n".join(lines)


# what the question asks for, said beside it where the small model gave another kind of thing: a date for a day of
# the week ("What day do I work at the garden centre?") or of a stretch of days ("On which day of surf camp…?"), the
# date of a deed for its way ("How did I break my ankle?"), the town for a place in the order; the first that asks
_HINTS: tuple[tuple[Callable[[str], bool], str], ...] = (
    (asks_a_weekday, " (a day of the week)"),
    (asks_why, " (the reason: what made it happen)"),
    (asks_how_it_happened, " (the way it happened, not when)"),
    (asks_a_position, " (a place in the order: first, second…)"),
    (asks_a_day_of_it, " (which day of it: the first, second…, not a date)"),
)


def _hint(question: str) -> str:
    return next((hint for asks, hint in _HINTS if asks(question)), "")


def points_back(text: str) -> bool:
    """The words lean on what was said before them in the conversation: a word that points back ("she", "there",
    "else", "you"…), or three words or fewer ("Why?", "And Tom?", "Since when?")."""
    words = [w.lower().replace("’", "'").split("'")[0] for w in _WORD.findall(text)]
    return len(words) <= 3 or any(w in POINTING_BACK for w in words)


def messages(question: str, recall: RecallResult, now: datetime, history: Sequence[Message] = (), *,
             budget_chars: int = 1200) -> list[Message]:
    """The conversation's last exchanges go only with words that lean on them: each of their tokens costs ~14 ms
    before the first word (~0.6 s for four messages on a small memory, ~1 s on a large one), and the model took
    the previous answer over the memory found for a question that named all it asked about (docs/benchmarks.md,
    stop 40)."""
    earlier = history[-4:] if points_back(question) else []
    return [{"role": "system", "content": SYSTEM}, *earlier,
            {"role": "user", "content": user_prompt(question, recall, now, budget_chars=budget_chars)}]


# An answer "On 2020." or "On May 2023.": a year or a month is "in" (a day keeps "on": "On 5 May 2023", "On May 5,
# 2023"); only where a date answer starts, so "went on 2000 metres" is left alone
_ON_SPAN = re.compile(rf"^(O)n ((?:(?:{MONTH}) )?(?:19|20)\d\d)\b(?![,/-]?\s?\d)")


def speakable(text: str) -> str:
    """Strip markdown and whitespace noise so TTS reads it cleanly; a year or a month is "in", not "on"."""
    text = _MD.sub("", text).replace("\n", " ")
    text = re.sub(r"\s{2,}", " ", text).strip()
    return _ON_SPAN.sub(r"In \2", text)


# a word, its letters of any script ("Oisín", "Valparaíso" are one word each; they had been split at the accent)
_WORD = re.compile(r"[^\W_]+(?:['’][^\W\d_]+)?")
_FIRST_SENTENCE = re.compile(r"^(.*?[.!?][\"'”’)]*)(\s+|$)(.*)$", re.S)
# words that only carry a restated question ("Maria has practiced …", "The book Jon is reading is …"): the
# search stopwords (auxiliaries, possessives, articles, prepositions…), and those contracted with "is", "are",
# "am", "have", "will" or "would" ("we're", "it's", "I'm": a contraction is one word here); "n't" is no glue; and
# "user", as the facts name the one who asks ("The user played the cello…" for "What instrument did I play?")
_GLUE = STOPWORDS | {f"{w}{mark}{end}" for w in STOPWORDS for mark in "'’" for end in ("s", "re", "m", "ve", "ll", "d")
                     } | {"user"}
_ARTICLES = frozenset({"the", "a", "an"})
_MONTH_DATED = re.compile(rf"(?:{MONTH})\s+(?:[0-3]?\d\b|(?:19|20)\d\d\b)")  # "May 29", "May 2026"


def _name_key(word: str) -> str:
    """A word as a name is matched: folded, lower case, without "'s" (not stemmed)."""
    return re.sub(r"['’]s$", "", fold(word.lower()))


def _key(word: str) -> str:
    return stem(_SPELT_US.sub(lambda m: m.group(0).replace("tre", "ter").replace("our", "or"), _name_key(word)))


# a word spelt the British way keyed as the American ("kilometres" as "kilometers", "colour" as "color"): the model
# writes one, the user the other
_SPELT_US = re.compile(r"(?<=[a-z]{2})(?:tre(?=s?$)|our(?=(?:s|ed|ing|ite|ites)?$))")


def _own(word: str, asked: set[str], *, opening: bool = False) -> bool:
    """A word of the answer's own: neither glue nor one of the question's (keyed) words (``opening``: the answer's
    first word, capitalised as any first word is)."""
    return word.lower() not in _GLUE and not _in_question(word, asked, opening=opening)


def _question_keys(question: str) -> set[str]:
    """The question's words keyed for ``_in_question``: a name (capitalised after the first word) only as itself,
    so that no other word is taken for it once stemmed ("The Wheel of Time" for "…is Tim excited about?")."""
    keys = set()
    for i, w in enumerate(_WORD.findall(question)):
        if not i or not w[:1].isupper() or w == "I":
            keys.add(_key(w))
            continue
        name = _name_key(w)
        keys.add(f"@{name}")
        if name.endswith("s"):  # "Johns's" is John's, mistyped
            keys.add(f"@{name[:-1]}")
    return keys


def _in_question(word: str, asked: set[str], *, opening: bool = False) -> bool:
    """``word`` is one of the question's (``_question_keys``): the name itself, or, not capitalised as a name or a
    title's word is (the answer's ``opening`` word aside), the same stem ("The Game of Hope" is not "…board
    game…" said back)."""
    titled = not opening and word[:1].isupper() and word[1:].islower() and word.lower() not in _GLUE
    # the past of a verb ending in "e", which the stemmer keeps whole when short ("used" of "use")
    same = _key(word) in asked or (word.lower().endswith("ed") and _key(word[:-1]) in asked)
    return f"@{_name_key(word)}" in asked or (same and not titled)


def unrestated(answer: str, question: str) -> str:
    """The answer without the question said back first, as a person would answer aloud: "What types of yoga has
    Maria practiced?" "Maria has practiced aerial yoga and kundalini yoga." -> "Aerial yoga and kundalini yoga.";
    "Did they both dance?" "Yes, they both danced." -> "Yes." The small model restates despite the prompt.

    Only the first sentence's opening is cut, and only words of the question (or glue words between them). A
    reason or a manner is cut the same way: "Why did Keiko move?" "Because her company relocated."; "How did
    Joanna feel…?" "Touched and comforted." (on the saved LoCoMo answers to why and how, 46 answers changed: token
    F1 +1.5 in all, 2 of them lost a hit, both wrong before)."""
    text = answer.strip()
    words_q = [w.lower() for w in _WORD.findall(question)]
    opener = words_q[0] if words_q else ""
    m = _FIRST_SENTENCE.match(text)
    first, rest = (m.group(1), m.group(3)) if m else (text, "")
    offered = _offered(question)
    asked = _question_keys(question) - offered
    first = _said_back_after(first, asked, question)
    words = list(_WORD.finditer(first))
    yes_no = re.match(r"^\s*(yes|no)\b[,.!]?\s*", first, re.I)
    if yes_no:
        content = [w.group(0) for w in words[1:] if w.group(0).lower() not in _GLUE]
        if opener in AUXILIARIES and content and sum(_in_question(w, asked) for w in content) >= 0.75 * len(content) \
                and not any(_key(w) in offered for w in content):
            return f"{yes_no.group(1).capitalize()}. {rest}".strip()
        return text
    cut, said_back = 0, False
    # not asked when, the day said first is no part of the answer: what follows it may be the question said back
    day_first = _DATE_FIRST.match(first) if not _WHEN_ASKED.search(question) else None
    noted = [p.span() for p in re.finditer(r"\([^()]*\)", first)]  # "this year (2026)": the prompt's note of a date
    for i, w in enumerate(words):
        if (day_first and w.end() <= day_first.end()) or (cut == i and any(a < w.start() < b for a, b in noted)):
            cut = i + 1
            continue
        if _own(w.group(0), asked, opening=i == 0) or (
                (dated := _MONTH_DATED.match(first, w.start())) is not None and dated.group(0) not in question):
            break  # "…is on May 29, 2026": the month is the answer's, though "may" is a glue word (not one asked)
        said_back = said_back or w.group(0).lower() not in _GLUE
        cut = i + 1
    while 1 < cut < len(words) and words[cut].group(0)[:1].isupper() and words[cut - 1].group(0)[:1].isupper():
        cut -= 1  # a name is not split: "…visiting New York City", not "City"
    while cut and words[cut - 1].group(0).lower() in _ARTICLES:
        cut -= 1  # "… is the Lean Startup": the article belongs to the answer
    if cut and opener == "how" and words[cut - 1].group(0).lower() in _MEANS:
        cut -= 1  # a manner keeps the word that says it is one: "By night train."
    if cut < 2 or cut >= len(words) or not said_back:
        cut = 0
    if cut and _ONLY_DATE.fullmatch(first[words[cut].start():].strip()) and not _WHEN_ASKED.search(question):
        cut = 0  # "Ines gave Olu a present on 3 May 2023" asked what present: a date alone answers nothing asked
    if cut or opener not in ("how", "why"):  # "Nate appreciates Joanna's resilience." is no "Nate appreciates."
        first = _tail_cut(first, words[cut:], asked, _category(question))
    remainder = first[words[cut - 1].end():].lstrip(" ,:;-") if cut else first
    left = [w.lower() for w in _WORD.findall(remainder)]
    denial = [w for w in left if _NEGATION.search(w) or w in ("not", "no", "never")]
    if denial and all(w in _GLUE or w in denial for w in left):
        return text  # "You don't have any pets." is no "You don't.": a denial keeps what it denies
    return (remainder[:1].upper() + remainder[1:] + (f" {rest}" if rest else "")).rstrip()


_OFFERED = re.compile(r"\b([\w'’]+)\s*,?\s+or\s+([\w'’]+(?:\s+[\w'’]+){0,3})", re.I)


def _offered(question: str) -> set[str]:
    """The (keyed) words of a choice the question offers ("a beach or the mountains", "in the old town or by the
    harbour": the last word before "or", the few after it): saying one is the answer, not the question said back
    ("Does Maria have a cat or a dog?" "Maria has a dog.")."""
    return {_key(w) for m in _OFFERED.finditer(question) for w in _WORD.findall(" ".join(m.groups()))
            if w.lower() not in _GLUE}


_CATEGORY = re.compile(r"^\s*(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?([\w'’]+)", re.I)


def _category(question: str) -> str:
    """The kind of thing asked for, keyed ("What test has…" -> test), which ends the answer's own phrase ("The
    driving test"); "" when the question names none."""
    m = _CATEGORY.match(question)
    return "" if m is None or m.group(1).lower() in _GLUE or m.group(1).lower() in AUXILIARIES else _key(m.group(1))


# prepositions that open a phrase of their own at an answer's end ("… bonding during training")
_PREPOSITIONS = frozenset({"during", "after", "before", "since", "until", "through", "throughout", "across", "around",
                           "near", "within", "without", "between", "among", "beside", "towards", "toward"})
# the words that open a manner ("How did Tariq get there?" "By night train.")
_MEANS = frozenset({"by", "with", "through", "via"})
# an answer that is a date and nothing else: "3 May 2023.", "May 2023", "2023"
_DATE = rf"(?:(?:[0-3]?\d\s+)?(?:{MONTH})(?:\s+[0-3]?\d)?(?:,?\s+(?:19|20)\d\d)?|(?:19|20)\d\d)"
_ONLY_DATE = re.compile(rf"{_DATE}[.!?]?", re.I)
# the day it happened, said first: "On 13 October 2023 Audrey made some goodies…"
_DATE_FIRST = re.compile(rf"\s*(?:on|in)\s+{_DATE},?\s", re.I)
# a clause after a comma that says more of what came before it (", which serves as a reminder of…")
_RELATIVE = re.compile(r",\s*(?:which|that|who)\b([^,.;!?]*)([.!?]?)\s*$", re.I)
# a date said at the end, "on 2 January 2024", "in May 2023"
_DATE_END = re.compile(rf"\s+(?:on|in)\s+(?:(?:[0-3]?\d\s+)?(?:{MONTH})(?:\s+[0-3]?\d)?,?\s+)?(?:19|20)\d\d"
                       r"([.!?]?)\s*$")


def _said_back_after(first: str, asked: set[str], question: str) -> str:
    """The answer without what it adds at its end that the question already says: a relative clause most of whose
    words are the question's ("A basketball signed by his favourite player, which serves as a reminder of all the
    hard work he has put in" for "What … serves as a reminder of hard work…?"), and, not asked when, the date the
    words were said ("Middle-earth from LOTR to his friend John on 2 January 2024")."""
    said = first
    m = _RELATIVE.search(first)
    if m is not None:
        words = [w for w in _WORD.findall(m.group(1)) if w.lower() not in _GLUE]
        if words and sum(_in_question(w, asked) for w in words) >= 0.6 * len(words) and m.start() > 0:
            first = first[:m.start()] + (m.group(2) or "")
    if not _WHEN_ASKED.search(question) and (d := _DATE_END.search(first)) is not None and d.start() > 0:
        first = first[:d.start()].rstrip(" ,;") + (d.group(1) or "")  # "…in the Midwest, in July 2022." -> "…Midwest."
    # what is left must say something of its own ("Joanna gave Nate a book recommendation on 21 April 2022" is
    # left as it is: without its date it is the question said back)
    return first if sum(_own(w, asked, opening=i == 0) for i, w in enumerate(_WORD.findall(first))) >= 2 else said


_WHEN_ASKED = re.compile(r"\b(?:when|what (?:day|date|month|year|time)|which (?:day|date|month|year|week)|how long|"
                         r"how many (?:days|weeks|months|years))\b", re.I)


def _tail_cut(first: str, words: list[re.Match[str]], asked: set[str], category: str = "") -> str:
    """The first sentence without the question said back at its end: "On 21 July 2023 Gina opened her online
    store." for "When did Gina open her online store?" -> "On 21 July 2023." Cut only when the end is all the
    question's words (or glue between them), and what stays says something the question does not."""
    lead = _WORD.search(first)
    at = lead.start() if lead else -1  # the answer's first word: capitalised as any first word is
    cut, said_back = len(words), False
    while cut > 0:
        if _own(words[cut - 1].group(0), asked, opening=words[cut - 1].start() == at):
            break
        said_back = said_back or words[cut - 1].group(0).lower() not in _GLUE
        cut -= 1
    if cut < len(words) and category and _key(words[cut].group(0)) == category:
        cut += 1  # "The driving test many times": the kind asked for ends the answer, it is not said back
    while 1 < cut < len(words) and words[cut - 1].group(0).lower() in _PREPOSITIONS:
        cut -= 1  # "Stan served in the navy during the war.": the phrase said back is "during the war", not "the war"
    kept, tail = words[:cut], words[cut:]
    # the tail starts a phrase of its own (a preposition, a pronoun, a name): one that starts with a noun may
    # end the answer's own phrase ("A red sports car.", "Networking events to promote his business.")
    # or is a phrase of the question three words or more long that a verb or a glue word soon opens ("apart from
    # yoga at the studio", "gave Maria's family money when…"; not "test multiple times", the answer's own noun)
    heads = [w.group(0).lower() for w in tail[:2]]
    opens = bool(tail) and (tail[0].group(0).lower() in _GLUE | _PREPOSITIONS or (
        cut > 0 and tail[0].group(0)[:1].isupper())
                            or (len(tail) >= 3 and any(w in _GLUE or w in PAST_FORMS for w in heads)))
    if not said_back or len(tail) < 2 or not opens or not any(_own(w.group(0), asked, opening=w.start() == at)
                                                              for w in kept):
        return first
    end = kept[-1].end()
    stop = re.match(r"[\"'”’)]*", first[end:])
    return first[:end] + (stop.group(0) if stop else "") + (first.rstrip()[-1] if first.rstrip()[-1:] in ".!?" else "")


def first_sentence_unrestated(pieces: Iterator[str], question: str, *,
                              instead: Callable[[str], str | None] | None = None) -> Iterator[str]:
    """``unrestated`` on a stream: the first sentence is held until it ends (speech starts at a sentence end
    anyway), then everything passes through as it comes. ``instead`` may turn the first sentence down: what it
    returns is said in place of the whole answer, and the rest of the stream is not read."""
    held = ""
    for piece in pieces:
        held += piece
        m = _FIRST_SENTENCE.match(held.lstrip())
        if m and m.group(2):  # the first sentence ended, and more follows
            other = instead(m.group(1)) if instead else None
            if other is not None:
                yield other
                return
            yield _shaped(m.group(1), question) + m.group(2) + m.group(3)
            yield from pieces
            return
    if held:
        other = instead(held) if instead else None
        yield other if other is not None else _shaped(held, question)


# the first person plural of the user's words said back in a reply to them ("We adopted a greyhound" -> "You
# adopted…"): the assistant is no part of their "we"; its own "I" stays ("I'm glad"). "us" only in lower case ("the US")
_OURS = re.compile(rf"\b((?i:{alternation(WE - {'us'})})|us)(['’](?:re|ve|d|ll))?\b")


def ours_to_yours(text: str) -> str:
    """"we", "us", "our"… turned to "you", "your"… (with "we're", "we've" as "you're", "you've")."""
    def swap(m: re.Match[str]) -> str:
        word = SAID_TO_USER[m.group(1).lower()]
        return (word.capitalize() if m.group(1)[0].isupper() else word) + (m.group(2) or "")
    return _OURS.sub(swap, text)


def told_back(pieces: Iterable[str]) -> Iterator[str]:
    """``ours_to_yours`` on a reply as it streams: each piece goes on once its last word has ended."""
    held = ""
    for piece in pieces:
        held += piece
        cut = max(held.rfind(" "), held.rfind("\n"))
        if cut > 0:
            yield ours_to_yours(held[:cut])
            held = held[cut:]
    if held:
        yield ours_to_yours(held)


def _in_place(word: str, text: str, at: int) -> str:
    """``word`` put at ``at`` in ``text``: capitalised where the sentence starts (after leading spaces)."""
    return word[:1].upper() + word[1:] if at == len(text) - len(text.lstrip()) else word


# an "A:" label, which the model sometimes writes before its answer (as in question-and-answer text it has read)
_LABEL = re.compile(r"^(\s*)(?:A|Answer)\s*:\s+")
# where the model says its answer comes from, said first: no part of the answer ("Based on the information
# provided, …", "According to the conversations, …"); cut before the question said back is, it was once all that
# was left ("Based on the information provided.")
_SOURCE_FIRST = re.compile(
    r"^(\s*)(?:based\s+on|according\s+to|from|given)\s+(?:(?:the|this|that|these|my|your|our|what)\s+)?"
    r"(?:[\w'’]+\s+){0,2}?(?:information|context|conversations?|memory|memories|facts|notes|records|details|"
    r"utterances|messages|(?:was\s+)?(?:said|told|mentioned))(?:\s+(?:provided|given|available|above|here|so\s+far))?"
    r"\s*,\s*(?=\w)", re.I)


def _shaped(first: str, question: str) -> str:
    """The answer's first sentence as said aloud: without an "A:" label, a source said first or the question said
    back, to the user, counts in words."""
    first = _LABEL.sub(r"\1", first)
    if (source := _SOURCE_FIRST.match(first)) is not None:
        rest = first[source.end():]
        first = source.group(1) + rest[:1].upper() + rest[1:]
    return counted(to_you(unrestated(first, question), question), question)


# a count of 1-12 on its own: not part of a number, a time, a date ("5 May", "May 5") or a decimal
_SMALL_COUNT = re.compile(rf"(?<![\d.,:/-])\b([1-9]|1[0-2])\b(?![\d,:/%-]|\.\d)(?!\s*(?:{MONTH}|am\b|pm\b))")
_AFTER_MONTH = re.compile(rf"\b(?:{MONTH})\s*$")


def counted(sentence: str, question: str) -> str:
    """Asked how many, how often or how long, a small count said as a word, as people say it and as speech
    reads it: "2 letters." -> "Two letters."; dates, times and larger numbers stay digits."""
    if not _COUNTS.search(question):
        return sentence

    def word(m: re.Match[str]) -> str:
        if _AFTER_MONTH.search(sentence[:m.start()]):
            return m.group(0)  # "May 5"
        return _in_place(UNITS[int(m.group(1)) - 1], sentence, m.start())

    return _SMALL_COUNT.sub(word, sentence)


_SELF = re.compile(r"\b(" + alternation(SAID_TO_USER).replace(r"\ ", r"\s+") + r")\b", re.I)


_THE_USER = re.compile(r"(?:the\s+)?user(?:('s)|\b)(?:\s+((?:is|was|has|does)(?:n't)?)\b)?", re.I)
# a relation the facts hold to the user, said as the facts name them: "the sister of the user"
# "the sister of the user" (or opening the answer without "the": "Friend of the user.")
# (the facts name the user "User": "Nephew of User.")
_OF_THE_USER = re.compile(r"(?:\b([Tt])he |^(?=[A-Z]))([A-Za-z]+(?:[ -][a-z]+){0,2}?) of (?:the )?[Uu]ser\b(?!['’])")
_A_OF_THE_USER = re.compile(r"\b([Aa]n? [a-z]+(?:[ -][a-z]+){0,2}?) of (?:the )?[Uu]ser\b(?!['’])")  # "of yours"
_THE_USERS = re.compile(r"\b([Tt])he user['’]s\b|\b(U)ser['’]s\b")  # "the user's", or as facts name them: "User's"
_TO_YOU_VERB = {"is": "are", "was": "were", "has": "have", "does": "do"}
_TO_YOU_VERB |= {f"{k}n't": f"{v}n't" for k, v in _TO_YOU_VERB.items()}
# after "The user …", a verb whose subject is left out ("… but hasn't touched it", "and is happy"), and "their" of
# them (the model's singular "they"; only with no one else's role in the sentence: "their house" of "her parents")
_AND_VERB = re.compile(rf"\b(but|and)\s+({alternation(_TO_YOU_VERB)})\b", re.I)
_THEIR = re.compile(r"\b(their|themselves|themself)\b")
_THEIR_TO_YOU = {"their": "your", "themselves": "yourself", "themself": "yourself"}


_PRESENT_S = re.compile(
    r"^(\s+(?:(?:always|usually|often|still|also|mostly|sometimes|never|now|really)\s+)?)([a-z]+s)\b")
_NOT_A_VERB_S = frozenset("always sometimes perhaps also as thus plus less unless was is has does".split())


def _base(word: str) -> str:
    """A verb said of one other person, said to "you": plays -> play, watches -> watch, studies -> study."""
    if word in _NOT_A_VERB_S or word.endswith(("ss", "us")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return word[:-2]
    return word[:-1]


def to_you(sentence: str, question: str) -> str:
    """``said_to_you``; and asked with "we" or "us" ("Who is moving in with us?"), their "we", "us" and "our" in
    the answer are "you" and "your" too ("Your mother-in-law is moving in with you")."""
    said = said_to_you(sentence, question)
    return ours_to_yours(said) if _WE_ASKED.search(question) else said


_WE_ASKED = re.compile(rf"\b({alternation(WE)})\b", re.I)


def said_to_you(sentence: str, question: str) -> str:
    """An answer to the user's question about themselves that opens in their words ("I'm from Dublin
    originally.") said to them ("You're from Dublin originally."). Only a sentence that starts with I, my or me is
    turned, so words quoted from someone ('Maria said "I…"') stay as they were said; one that starts with "The
    user", as the facts name them ("The user played the cello."), is turned too."""
    plain = sentence.replace("’", "'")
    if _OF_THE_USER.search(plain) or _THE_USERS.search(plain) or _A_OF_THE_USER.search(plain):  # "Who is Leah?"
        # "The sister of the user." -> "Your sister."; "The user's best mate." -> "Your best mate."; "Leah is a
        # friend of the user." -> "…a friend of yours."
        plain = _A_OF_THE_USER.sub(r"\1 of yours", plain)
        plain = _OF_THE_USER.sub(lambda m: ("y" if m.group(1) == "t" else "Y") + "our " + (
            m.group(2) if m.group(1) else m.group(2)[:1].lower() + m.group(2)[1:]), plain)
        plain = sentence = _THE_USERS.sub(lambda m: ("Y" if m.group(1) == "T" or (m.group(2) and not plain[
            : m.start()].strip()) else "y") + "our", plain)
    lead = plain.lstrip()
    if not FIRST_PERSON_RE.search(question.replace("’", "'")):
        return sentence
    if '"' not in plain and _USER_INSIDE.search(lead):  # "Because the user received an Octopus bill…"
        lead = plain = sentence = _USER_INSIDE.sub(_user_to_you, plain)
    if (m := _THE_USER.match(lead)) is not None:  # the model names the user as the facts do: "The user played…"
        verb = m.group(2) and _TO_YOU_VERB.get(m.group(2).lower(), m.group(2))
        rest = lead[m.end():]
        if not m.group(1) and not verb:  # "User plays guitar." -> "You play guitar."
            rest = _PRESENT_S.sub(lambda v: v.group(1) + _base(v.group(2)), rest, count=1)
        if not m.group(1):  # "The user used to play the trumpet but hasn't touched it" -> "…but haven't…"
            rest = _AND_VERB.sub(lambda v: f"{v.group(1)} {_TO_YOU_VERB[v.group(2).lower()]}", rest)
            if not any(_key(w.lower()) in _ROLE_KEYS for w in _WORD.findall(rest)):
                rest = _THEIR.sub(lambda v: _THEIR_TO_YOU[v.group(1)], rest)
        return plain[:len(plain) - len(lead)] + ("Your" if m.group(1) else "You") + (
            f" {verb}" if verb else "") + rest
    if _OWN_DOUBT.match(lead):  # "I don't know." is the assistant's own, not "You don't know."
        return sentence
    opener = _OPENER.match(lead)
    # the user's own words said back without their "I" ("Snapped my Achilles at five-a-side"): "You snapped your…"
    verb = opener.group(1).lower() if opener is not None else ""
    elided = (opener is not None and (verb in PAST_FORMS or (verb.endswith("ed") and not verb.endswith("eed")))
              and '"' not in plain and bool(FIRST_PERSON_RE.search(lead[opener.end():])))
    if not FIRST_PERSON_RE.match(lead) and not elided:
        return sentence

    def swap(m: re.Match[str]) -> str:
        return _in_place(SAID_TO_USER[" ".join(m.group(1).lower().split())], plain, m.start())
    said = _SELF.sub(swap, plain)
    if elided:
        at = len(said) - len(said.lstrip())
        said = said[:at] + "You " + said[at].lower() + said[at + 1:]
    return said


# the user named as the facts do, inside an answer ("Because the user received…"): "you" (said first, below)
_USER_INSIDE = re.compile(r"(?<=\w )the user\b(?!['’])(?:\s+(is|was|has|does)\b)?(\s+[a-z]+s\b)?")


def _user_to_you(m: re.Match[str]) -> str:
    verb = f" {_TO_YOU_VERB[m.group(1)]}" if m.group(1) else ""
    rest = m.group(2) or ""
    if rest and not verb:  # "the user likes" -> "you like"
        rest = _PRESENT_S.sub(lambda v: v.group(1) + _base(v.group(2)), rest, count=1)
    return f"you{verb}{rest}"


_OPENER = re.compile(r"([A-Za-z]+)\b")
# the model saying what it cannot tell, in its own first person (as the prompt asks it to)
_OWN_DOUBT = re.compile(r"I\s+(?:do\s+not|don't|can\s*not|can't|could\s+not|couldn't)\s+"
                        r"(?:know|say|tell|remember|recall)\b|I(?:'m|\s+am)\s+not\s+sure\b", re.I)


def vetted(first: str, question: str, recall: RecallResult) -> str | None:
    """What to say instead of an answer that is no answer: the question said back with nothing of its own, or a
    guess that nothing remembered supports; or instead of the day some words were said, the day they meant
    (``redated``). None: the answer stands."""
    denied = they_deny(question, recall)
    if denied is not None:  # the user's own words say so; of someone else, they did not say it
        return said_on(denied, question) if denied.speaker == "user" else unknown_answer(recall)
    if (told := miscounted(first, question, recall)) is not None:  # the words that say the count, not a misreading
        # (with the sentence beside that says a number too: "…after the Easter fair. Target's twenty-five thousand")
        return said_on(told, question, beside=says_a_number, max_chars=240)
    if (held := count_now(first, recall)) is not None:  # a count said before, when later words say another held
        return held
    if (changed := count_after(first, recall)) is not None:  # or say some went, or one more came
        return changed
    if (says_nothing_new(first, question) or ungrounded(first, question, recall) or borrowed(first, question, recall)
            or told_the_listener(first, question, recall) or self_named(first, question, recall)
            or someone_else(first, question, recall) or yes_of_another(first, question, recall)
            or anothers_role(first, question, recall) or held_another_role(first, question, recall)
            or not_a_place(first, question, recall)
            or still_held(first, question, recall) or said_day_ahead(first, recall)
            or no_name_given(first, question, recall) or _NAMED_USER.search(first)):
        # "Who is Edith?" "Edith.": who she is to the user, when memory holds it, is still an answer
        return who_they_are("", question, recall) or _home_to_come(first, question, recall) or unknown_answer(recall)
    # a question that asks to reason ("Is it likely that Nate has friends besides Joanna?") is not denied by
    # whatever "not" the words found hold
    return (who_they_are(first, question, recall) or another_role(first, question, recall)
            or _home_to_come(first, question, recall) or died_told(first, question, recall)
            or dead_named(first, question, recall) or renamed_since(first, question, recall)
            or (None if asks_to_reason(question) else said_otherwise(first, recall, yes=affirms(first, question)))
            or redated(first, recall))


_WHO_NAMED = re.compile(r"^\s*who(?:'s|\s+is|\s+was)\s+([\w'’-]+(?:\s+[\w'’-]+)?)\s*\??\s*$", re.I)
_ROLE_ASKED = re.compile(rf"^\s*(?:is|was)\s+([\w'’-]+(?:\s+[\w'’-]+)?)\s+(?:{alternation(MY)})\s+(?:\w+\s+)?"
                         rf"({alternation(ROLE_RELATIONS)})\s*\??\s*$", re.I)  # "Is Carys my sister?"


def _roles_held(name: str, recall: RecallResult) -> list[tuple[Arc, str]]:
    """Who ``name`` is, by the role facts found held now: to the user first (read from either end of a symmetric
    role, and the user's manager), then to the user's people; each with whose role it is ("" for the user's)."""
    name = name.lower()
    theirs = [(a, a.object) for a in recall.facts if a.valid_to is None and a.relation in ROLE_NOUNS
              and a.subject.lower() == name and a.subject_id != USER_ID and a.relation != "reports_to"]
    mine = [(a, "") for a in recall.facts if a.valid_to is None and a.relation in ROLE_NOUNS
            and a.subject_id == USER_ID and a.object.lower() == name and (
                a.relation == "reports_to" or (a.relation in RELATIONS and RELATIONS[a.relation].symmetric))]
    return [(a, "") for a, _ in theirs if a.object_id == USER_ID] + mine + [
        (a, of) for a, of in theirs if a.object_id != USER_ID]


def _role_said(a: Arc, of: str) -> str:
    """"your neighbour", "your husband" (the word said for it), "Amy's boyfriend"."""
    word = a.label.lower() if a.label and ROLE_RELATIONS.get(a.label.lower()) == a.relation else ROLE_NOUNS[
        a.relation][0]
    return f"{of}'s {word}" if of else f"your {word}"


def who_they_are(first: str, question: str, recall: RecallResult) -> str | None:
    """"Who is Dev?" answered "A paramedic." when memory holds that Dev is the user's neighbour: who they are to
    the user (or to the user's people) is said first ("Your neighbour, a paramedic."). None: the answer says it
    already, or no such fact was found."""
    m = _WHO_NAMED.match(question)
    held = _roles_held(m.group(1), recall) if m is not None else []
    if not held:
        return None
    low = first.lower()
    if any(re.search(rf"\b{re.escape(w)}\b", low) for a, _ in held for w in (*ROLE_NOUNS[a.relation], a.label or "")
           if w):
        return None
    said = _role_said(*held[0])
    who = said[:1].upper() + said[1:]
    rest = first.strip()
    if not rest or _OWN_DOUBT.match(rest) or re.search(r"\bknow\b", low):
        return f"{who}."
    if re.match(r"(?i)(?:an?|the)\s", rest):  # "A paramedic." -> "Your neighbour, a paramedic."
        return f"{who}, {rest[:1].lower()}{rest[1:]}"
    return f"{who}. {rest}"


def another_role(first: str, question: str, recall: RecallResult) -> str | None:
    """"Is Carys my sister?" answered yes when memory holds that she is the user's sister-in-law and nothing of a
    sister: "No, Carys is your sister-in-law." A role held of which the one asked is a case ("Is Tariq my
    partner?" of a husband), or the reverse, is no denial; nor is an answer that is not a yes."""
    m = _ROLE_ASKED.match(question)
    held = _roles_held(m.group(1), recall) if m is not None else []
    if m is None or not held or not affirms(first, question):
        return None
    asked = ROLE_RELATIONS[m.group(2).lower()]
    if any(a.relation == asked or a.relation in NARROWER.get(asked, ()) or asked in NARROWER.get(a.relation, ())
           for a, _ in held):
        return None
    return f"No, {m.group(1)} is {_role_said(*held[0])}."


def _home_to_come(first: str, question: str, recall: RecallResult) -> str | None:
    """Asked where someone lives, an answer that names where they only plan to move, with no home of theirs known
    ("Where does my mum live?" "Harrogate." from "My mum's moving into a care home in Harrogate next month"): what
    is known is said instead, as a plan."""
    aux = yes_no(question)  # a yes/no question of now reads what ended too ("Do we live in Exeter?"): no past
    past = recall.intent.history and (aux is None or aux.past)
    if "lives_in" not in recall.intent.relations or past or _MOVE_ASKED.search(question):
        return None  # "Where is my mum moving to?" asks for the plan
    seeds = set(recall.seeds) | ({USER_ID} if FIRST_PERSON_RE.search(question) else set())  # "Do we live in…?"
    if any(a.relation == "lives_in" and a.current and a.subject_id in seeds for a in recall.facts):
        return None
    said = set(_content(first))
    for a in recall.facts:
        if a.relation == "plans_to_move_to" and a.current and a.subject_id in seeds and set(
                _content(a.object)) <= said:
            who = "you plan" if a.subject_id == USER_ID else re.sub(r"^(?i:my)\b", "your", a.subject) + " plans"
            when = f" ({spoken_grain(a.planned_for)})" if a.planned_for else ""
            if aux is not None:  # "Do we live in Exeter?" "Yes." of a move to come
                return f"Not yet, as far as I know: {who} to move to {a.object}{when}."
            return f"I only know that {who} to move to {a.object}{when}."
    return None


_MOVE_ASKED = re.compile(r"\b(?:mov|relocat|emigrat)\w*", re.I)
_ALIVE_ASKED = re.compile(r"\balive\b", re.I)
# a present-tense question of a kind of thing had ("Do the kids have a hamster?", "Have we still got any rabbits?")
_KIND_HAD = re.compile(rf"^\s*(?:do|does|have|has)\b[^?]*?\b(?:have|got)\s+(?:an?|any|the|{alternation(POSSESSIVES)})"
                       r"\s+([\w-]+)", re.I)  # "Do the kids have a hamster?", "Does Ewan still have his gecko?"


def _died_said(a: Arc, question: str, *, no: bool = True) -> str:
    """"No, Mary died on 20 October 2026." from `Mary died_on …` ("by <day>": the day it was told, no more)."""
    who = said_to_you(a.subject, question)
    who = who[:1].lower() + who[1:] if who.startswith("Your ") and no else who
    told = a.object.removeprefix("by ")
    when = f" (you told me on {told})" if told != a.object else f" on {told}" if told[:1].isdigit() else f" in {told}"
    return f"No, {who} died{when}." if no else f"{who} died{when}."


_WHO_DIED = re.compile(r"^\s*(?:who|which)\b[^?]*\b(?:died|passed\s+away|passed\s+on|was\s+put\s+down)\b", re.I)


def dead_named(first: str, question: str, recall: RecallResult) -> str | None:
    """Asked who or which died, an answer that names none of those memory holds died, when one did ("Which of the
    guinea pigs died?" "Crumble died…" beside `Custard died_on …`): that one's death instead."""
    if not _WHO_DIED.match(question):
        return None
    dead = [a for a in recall.facts if a.relation == "died_on" and a.current]
    if len(dead) != 1 or _name_key(dead[0].subject) in {_name_key(w) for w in _WORD.findall(first)}:
        return None
    return _died_said(dead[0], question, no=False)


def died_told(first: str, question: str, recall: RecallResult) -> str | None:
    """A yes that memory's record of a death says is wrong: asked whether someone is alive ("Is my aunt Mary alive?"
    "Yes, your aunt Mary is alive." beside `Mary died_on 20 October 2026`), or whether a kind of thing is had now
    when every one of that kind found has died ("Do the kids have a hamster?" "Yes." beside `Nibbles is_a hamster`,
    `Nibbles died_on 5 September 2026`): the death is said instead. One of that kind not known to have died, or a
    pet or thing of the user's still held that is of no known kind, leaves the answer to stand."""
    if not affirms(first, question):
        return None
    dead = {a.subject_id: a for a in recall.facts if a.relation == "died_on" and a.current}
    if not dead:
        return None
    if _ALIVE_ASKED.search(question):
        asked, names = set(recall.seeds), _names_asked(question)
        return next((_died_said(a, question) for a in dead.values()
                     if a.subject_id in asked or _name_key(a.subject) in names), None)
    kind = _KIND_HAD.match(question)
    if kind is None:
        return None
    word = set(terms(kind.group(1)))
    of_kind = {a.subject_id for a in recall.facts if a.relation == "is_a" and word and word <= set(terms(a.object))}
    known = {a.subject_id for a in recall.facts if a.relation == "is_a"}
    held = {a.object_id for a in recall.facts if a.current and a.relation in ("has_pet", "owns")}
    if not of_kind or of_kind - dead.keys() or held - dead.keys() - known:
        return None
    return _died_said(max((dead[s] for s in of_kind), key=lambda a: a.valid_from), question)


# "User" is how the facts name the one who asks, never their name: "What is my name?" "You are User."
_NAMED_USER = re.compile(r"^\W*(?:you\s+are|you['’]re|your\s+name\s+is)\s+(?:called\s+|named\s+)?(?:the\s+)?user\b",
                         re.I)


# asked how someone put something: their own words are the answer, no one else's
_WORDS_OF = re.compile(r"\b(?:describ|say|said|call|mention|think|thought|feel|felt|criticiz|prais|compar|suggest|ask|"
                       r"recommend|advis|reflect|express|according(?=\s+to\b))\w*", re.I)


def borrowed(answer: str, question: str, recall: RecallResult) -> bool:
    """Asked about someone who speaks in memory, an answer whose own words come from someone else's utterance —
    one that neither names them nor speaks to them — and from none of theirs: the small model hands Audrey's
    "Max, my childhood dog" to Andrew. Asked how someone put something ("How does Maria describe the camping
    trip?"), only their own utterances count, the name before the verb says whose words, and two words of the
    answer's own must match (a single "great" is said by everyone). On dev LoCoMo answers (conv-30/41, the old
    holdout sample) it turned down no answer; on 127 adversarial questions of conv-42/43/44 it would have turned
    down 8 of the 46 answered."""
    verb = _WORDS_OF.search(question)
    named = re.search(r"([A-Z][\w'’-]+)(?:'s)?\s+(?:\w+\s+)?$", question[:verb.start()]) if verb else None
    who = (named.group(1) if named and named.group(1).lower() not in _GLUE else recall.asked).lower()
    user = not who and _about_user(question, recall)
    who = "user" if user else who
    if not who or not (user or any(e.speaker.lower() == who for e in recall.episodes)):
        return False
    new = _own_words(answer, question)
    need = 2 if verb else 1
    if len(new) < need:
        return False
    if user and any(len(new & set(_content(a.statement(dates=False)))) >= need for a in recall.facts
                    if USER_ID in (a.subject_id, a.object_id)):
        return False  # what memory learned of the user says it
    topic = set() if verb else set(terms(answer))
    best_own, best_other = 0, 0
    for e in recall.episodes:
        shared = len(new & set(_content(e.text)))
        # how they put it is in their own words; anything else may be told of them or to them, and what they
        # ask of or tell the one they speak to is that one's ("What position are you playing?")
        if e.speaker.lower() == who:
            mine = verb or not about_listener(e.text, topic)
        else:
            mine = not verb and (_names(e.text, who) or to_listener(e.text, topic))
        if mine:
            best_own = max(best_own, shared)
        else:
            best_other = max(best_other, shared)
    # two of its words in one of theirs: theirs too ("took them to the beach" for "…to the beach and they had a
    # blast swimming", the rest from her own turn that asks the listener something after it)
    return best_other >= need and best_own < min(best_other, 2)


def someone_else(answer: str, question: str, recall: RecallResult) -> bool:
    """Asked about someone, an answer that opens on someone else who speaks in memory, and whom the question does
    not name: "What is Nate's third screenplay about?" "Joanna said it was about turtles." The model says itself
    that it was another's. Not for a question asking who ("Who gave Nate the book?" is answered by a name)."""
    who = (recall.asked or "").lower()
    if not who or _WHO.match(question):
        return False
    first = re.match(r"\s*([A-Z][\w-]+)(?:['’]s)?\b", answer)
    if first is None:
        return False
    name = first.group(1).lower()
    asked = {w.lower() for w in re.findall(r"[A-Za-z][\w-]*", question)}
    return name != who and name not in asked and any(e.speaker.lower() == name for e in recall.episodes)


_ASKS_A_NAME = re.compile(r"^\s*what(?:'s|’s|\s+is|\s+was|\s+are|\s+were)\b(?:.*\b(?:name|names|called)\s*\??\s*$|"
                          r"\s+(?:the\s+)?names?\s+of\b)", re.I)
# the thing whose name is asked: "What's Padraig's show called?" -> show, "What's the name of the nurse…" -> nurse
_NAME_OF = re.compile(rf"\bnames?\s+of\s+(?:(?:the|{alternation(POSSESSIVES)}|(?-i:[A-Z][\w-]*)['’]s)\s+)?"
                      r"(?:(?-i:[A-Z][\w-]*)\s+)?(?P<of>[a-z]+)|"  # "the name of Mum's Braille volunteer": volunteer
                      r"(?P<thing>[a-z]+)(?:['’]s)?\s+(?:is\s+|was\s+)?called\s*\??\s*$", re.I)
# what stands before a name said as where something is or happens ("at the Edinburgh Fringe", "on the edge of the
# Kruger", "a yacht out of Split"; not "in": "in Hamlet")
_WHERE_BEFORE = re.compile(r"\b(?:at|near|outside|inside|beside|next\s+to|out\s+of|"
                           r"(?:on\s+the\s+)?(?:edge|edges|outskirts)\s+of)\s+(?:the\s+)?$", re.I)
# (a person's name is no place's: said only after "from", it is where they come from, "a couple from Bristol")
_IN_WHERE = re.compile(r"\b(?:at|near|outside|inside|in|round|around|from)\s+(?:the\s+)?$", re.I)
# what is asked the name of is someone, said by what they do ("the new owners", "her instructor"): as a role
_DOER = re.compile(r"[a-z]{2,}(?:er|or|ist|ian)s?$")
_PLACE_KINDS = WORKPLACES | {"venue", "festival", "church", "chapel", "street", "road", "town", "village", "city",
                             "place", "park", "beach", "island", "country", "estate", "area", "club", "stadium",
                             "ground", "arena", "hall", "house", "home", "cottage", "campsite", "resort"}


# a word written with a capital, and a run of such words ("Close Harmony Crisis")
_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*")
_CAPITALISED_RUN = re.compile(r"\b[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*")


def no_name_given(answer: str, question: str, recall: RecallResult) -> bool:
    """Asked what someone or something is called, an answer with no name in it: a word the words found or the
    facts write with a capital and never in lower case ("What's my manager's name?" 'Keeps booking meetings at
    8am".' from "My manager keeps booking meetings at 8am"). Names are said as written."""
    if not _ASKS_A_NAME.match(question):
        return False
    texts = [e.text for e in recall.episodes] + [a.object for a in recall.facts]
    lower = {w for t in texts for w in re.findall(r"\b[a-z][\w'’-]*", t)}
    written = {re.sub(r"['’]s$", "", w) for t in texts for w in _CAPITALISED.findall(t)}
    said = {re.sub(r"['’]s$", "", w) for w in _CAPITALISED.findall(answer)}
    # a common word of the words found made part of a name ("What's Olamide's salon called?" "Woolwich Hair Salon."
    # from "opened her own hair salon in Woolwich"): a name made up, not one said
    made_up = {w for w in said - written if w.lower() in lower and w.lower() not in _GLUE}
    asked = _names_asked(question)  # the one asked about, said back ("Padraig's show is called…"), is no answer
    names = {w for w in said & written if w.lower() not in lower | _GLUE and w != "I" and _name_key(w) not in asked}
    # (beside a name given whole as written, common words written as one are no name made up: "the Ultimate Frisbee
    # team called the Huckleberry Flings")
    whole = any(run and all(w in names for w in run) for run in (
        [re.sub(r"['’]s$", "", w) for w in m.group(0).split() if w.lower() not in _GLUE]
        for m in _CAPITALISED_RUN.finditer(answer)))
    return (bool(made_up) and not whole) or not names or _only_where(names, question, [e.text for e in recall.episodes])


_NAME_WORDS = frozenset(terms("called named name names"))


def _written_names(text: str) -> set[str]:
    """The keys of the words written with a capital, less glue ("Your", "The") and "I"."""
    return {_name_key(w) for w in _CAPITALISED.findall(text) if w.lower() not in _GLUE and w != "I"}


def renamed_since(answer: str, question: str, recall: RecallResult) -> str | None:
    """Asked what something is called, the name it was given anew in words as new as those the answer's name came
    from, or newer: "What's my kayak called?" "Wet Blanket." after "I did rename the kayak… She's Second Wind now"
    (the small model reads the first name in the words). The renaming must speak of what is asked: a word of the
    question's, or the old name. None: no newer name, or the answer is it."""
    if not _ASKS_A_NAME.match(question) or not recall.episodes_relevant:
        return None
    said = _written_names(answer) - _names_asked(question)
    named = [e for e in recall.episodes if said & _written_names(e.text)]
    if not said or not named:
        return None
    # what the renaming must speak of: a word of the question's or of the words that gave the old name ("the
    # quartet"), not the old name alone ("renamed his barber shop after the Plinky Few gig")
    topic = set(terms(" ".join([question, *(e.text for e in named if new_name(e.text) is None)]))) - set(
        terms(answer)) - _NAME_WORDS
    first = min(e.at for e in named)
    for e in sorted((e for e in recall.episodes if e.at >= first), key=lambda e: e.at, reverse=True):
        new = new_name(e.text)
        if new is None or not (topic & set(terms(e.text)) or _named_not_after(said, e.text)):
            continue
        return None if _written_names(new) & said else f"{new}."
    return None


_AFTER_A_PREPOSITION = re.compile(r"\b(?:after|at|for|from|with|to|of|in|on|by|about|like)\s+(?:the\s+)?$", re.I)


def _named_not_after(names: set[str], text: str) -> bool:
    """One of ``names`` (keyed) is said in the words, not after a preposition: what is spoken of ("the Friday Larks
    was too twee"), not where or when something else happened ("renamed his barber shop after the Plinky Few
    gig")."""
    return any(_written_names(m.group(0)) & names and not _AFTER_A_PREPOSITION.search(text[: m.start()])
               for m in _CAPITALISED_RUN.finditer(text))


def _only_where(names: set[str], question: str, texts: list[str]) -> bool:
    """The name given is said in the words found only as where something is or happens, and what is asked the name
    of is no place: "What's Padraig's show called?" "The Edinburgh Fringe." from "doing stand-up at the Edinburgh
    Fringe" (the festival, not the show)."""
    m = _NAME_OF.search(question)
    thing = (m.group("of") or m.group("thing") or "").lower() if m else ""
    if not thing or thing in _PLACE_KINDS or not texts:
        return False
    # a person's name is no place's, whatever it follows ("my friend's flat in Bath": in a play, "in Hamlet", a
    # thing's may be)
    someone = thing in ROLE_RELATIONS or bool(_DOER.fullmatch(thing))
    where = _IN_WHERE if someone else _WHERE_BEFORE
    # (of someone, a name said before the word for them is whom they are with, no name of theirs: "an RNIB volunteer")
    kind_of = re.compile(rf"\s+{re.escape(thing)}s?\b", re.I) if someone else None
    seen = False
    for t in texts:
        for found in _CAPITALISED_RUN.finditer(t):
            if {re.sub(r"['’]s$", "", w) for w in found.group(0).split()} & names:
                if not (where.search(t[: found.start()]) or (kind_of is not None and kind_of.match(t, found.end()))):
                    return False
                seen = True
    return seen


def _names_asked(question: str) -> set[str]:
    """The names a question says (its capitalised words after the first, not glue, not "I"), as names are matched."""
    return {_name_key(w) for w in _WORD.findall(question)[1:] if w[:1].isupper() and w.lower() not in _GLUE
            and w != "I"}


_NOT_SAID = re.compile(r"\b(?:mention(?:ed)?|said|told|know)\b", re.I)


def held_instead(answer: str, question: str, recall: RecallResult) -> str | None:
    """Asked about someone by name, what memory holds of them now for a relation held one at a time, when the
    answer names another value that nothing said of them holds: "Where does Noor live now?" "Bordeaux now." with
    `Noor lives_in Krakow` held and Bordeaux only in the user's "I live in Bordeaux now". Words that name them or
    are theirs may tell a newer value learning did not read: then the answer stands."""
    if _WHO.match(question) or yes_no(question) is not None or _OWN_DOUBT.search(answer) or _NOT_SAID.search(answer):
        return None  # a doubt or "not mentioned" is the answer checks' to weigh, not this one's
    if _HOW_MEASURED.match(question):  # "How old was Bridie when she died?": an age, not the relation's value
        return None
    named = _names_asked(question)
    held = [a for a in recall.facts if a.current and a.relation in recall.intent.relations[:1]
            and a.relation in RELATIONS and RELATIONS[a.relation].single_valued and _name_key(a.subject) in named]
    said = set(_content(answer)) - set(_content(question))
    if len(held) != 1 or not said or said & set(_content(held[0].object)):
        return None
    who = _name_key(held[0].subject)
    theirs = [e.text for e in recall.episodes if _name_key(e.speaker) == who or who in {
        _name_key(w) for w in _WORD.findall(e.text)}] + [a.object for a in recall.facts if _name_key(a.subject) == who]
    if said & set(_content(" ".join(theirs))):
        return None
    return f"{held[0].object[:1].upper()}{held[0].object[1:]}."


def yes_of_another(answer: str, question: str, recall: RecallResult) -> bool:
    """Asked yes or no about someone by name, a yes that nothing said of them supports: no word of what is asked
    is in a fact about them, in their own words or in words that name them. "Is Lena vegetarian?" "Yes." when only
    the user said they were vegetarian: the small model lends one person's state to another."""
    if not affirms(answer, question) or asks_to_reason(question):
        return False
    names = _names_asked(question)
    topic = set(_content(question)) - {_key(n) for n in names}
    if not names or not topic:
        return False
    theirs = [a for a in recall.facts if names & {_name_key(w) for w in _WORD.findall(f"{a.subject} {a.object}")}]
    about = [a.statement(dates=False) for a in theirs] + _role_words(theirs)  # a husband is a partner
    about += [w for a in theirs for w in SAID_OF_RELATION.get(a.relation, ())]  # expecting: pregnant
    about += [e.text for e in recall.episodes if _name_key(e.speaker) in names or names & {
        _name_key(w) for w in _WORD.findall(e.text)}]
    return not topic & set(_content(" ".join(about)))


_YES = re.compile(r"^\W*yes\b", re.I)


def affirms(answer: str, question: str) -> bool:
    """Asked yes or no, the answer says yes: "Yes…", or the question said back as so, with nothing of its own and
    no denial ("Am I enjoying Wolf Hall?" "You are enjoying Wolf Hall.")."""
    if yes_no(question) is None:
        return False
    return bool(_YES.match(answer)) or (
        not DENYING.search(answer) and bool(_content(answer)) and not _own_words(answer, question))


_THEIR_BEFORE = re.compile(r"\b(?:his|her|their|[A-Z][\w-]*['’]s)\s+(?:\w+\s+)?$")
_MINE_BEFORE = re.compile(r"\b(?:my|our)\s+(?:\w+\s+)?$", re.I)
_ROLE_KEYS = frozenset(_key(r) for r in ROLE_RELATIONS)


def anothers_role(answer: str, question: str, recall: RecallResult) -> bool:
    """Asked about the user's own people ("Who do I live with?"), an answer that is only a role word the user said of
    someone else ("Girlfriend." from "Rory's moved out to live with his girlfriend"): whose it is, the words say, and
    it is not the user's. Not when the user also said it of their own ("my girlfriend")."""
    if not FIRST_PERSON_RE.search(question):
        return False
    own = _own_words(answer, question) - {"your", "you"}
    if not own or not own <= _ROLE_KEYS:
        return False
    theirs = mine = False
    for e in recall.episodes:
        if e.speaker != USER_ID:
            continue
        for m in _WORD.finditer(e.text):  # words as the answer's own were read
            if _key(m.group(0).lower()) not in own:
                continue
            before = e.text[: m.start()]
            mine = mine or bool(_MINE_BEFORE.search(before))
            theirs = theirs or bool(_THEIR_BEFORE.search(before))
    return theirs and not mine


# the name asked of someone by what they are to the user: "What was my tandem instructor's name?", "What's my
# mentor at the court called?", "Who's my driving instructor?" -> instructor, mentor, instructor
_ROLE_NAME_ASKED = re.compile(
    rf"^\s*(?:what(?:'s|’s|\s+is|\s+was)|who(?:'s|’s|\s+is|\s+was))\s+(?:{alternation(MY)})\s+(?:[\w-]+\s+)?"
    r"(?!called\b|named\b)(?P<role>[a-z]+)(?:['’]s\s+name|\s+called)?(?:\s+(?:at|in|on|for|from|with)\s[^?]*)?"
    r"\s*\??\s*$", re.I)


def held_another_role(answer: str, question: str, recall: RecallResult) -> bool:
    """Asked the name of someone by what they are to the user, an answer that names one memory holds as someone
    else to them, when no sentence found says the name with what is asked: "What was my tandem instructor's
    name?" "Leanne" (the user's sister, who watched from the sand). Not when what they hold is what is asked
    ("What's my sister called?")."""
    m = _ROLE_NAME_ASKED.match(question)
    if m is None:
        return False
    role = _key(m.group("role").lower())
    sentences = [s for e in recall.episodes for s in SENTENCE_END.split(e.text)]
    for name in {w for w in _CAPITALISED.findall(answer) if w.lower() not in _GLUE and w != "I"}:
        held = _roles_held(name, recall)
        if not held or any(role in {_key(w) for w in (*ROLE_NOUNS[a.relation], a.label or "") if w}
                           for a, _ in held):
            continue
        if not any(name in s and role in {_key(w.lower()) for w in _WORD.findall(s)} for s in sentences):
            return True
    return False


_WHERE_ASKED = re.compile(r"^\s*where\b", re.I)
# what a fact's object is when it is never where: a job, a subject studied. (Not a person, "With Priya.", nor a
# pastime, "Where did I go on Saturday?" "Climbing.")
_NO_PLACE = frozenset({EntityType.ROLE, EntityType.TOPIC})


def not_a_place(answer: str, question: str, recall: RecallResult) -> bool:
    """Asked where, an answer that is what a fact found holds of another kind, or a trade, and nothing else: "Where
    will I be working?" "A planning officer." (the job known, the employer not)."""
    if not _WHERE_ASKED.match(question):
        return False
    said = set(_content(answer)) - set(_content(question))
    asked = {_key(w.lower()) for w in _WORD.findall(question)}
    words = {w.lower() for w in _WORD.findall(answer) if _key(w.lower()) not in asked} - _GLUE
    return bool(said) and (words <= OCCUPATIONS or any(  # "Where does Aisha work?" "A midwife." (she trains to be)
        a.relation in RELATIONS and RELATIONS[a.relation].object_type in _NO_PLACE and said <= set(_content(a.object))
        for a in recall.facts))


def still_held(answer: str, question: str, recall: RecallResult) -> bool:
    """Asked for the one before now ("Where did I live before?"), an answer that names the one held now: "York, near
    the Minster." from "I live in York, near the Minster" (the small model, handed the words the home was learned
    from, gave the home)."""
    own = set(_own_words(answer, question))
    return any(set(_content(a.object)) <= own for a in recall.held_now if _content(a.object))


def self_named(answer: str, question: str, recall: RecallResult) -> bool:
    """Asked who someone in the user's life is ("Who do I live with?"), an answer that is the name the user gave
    themselves ("Hi, I'm Dana. My partner Luis and I just moved…" answered "Dana"): the small model took the
    speaker's own name for the one asked about. Not when the user asks who they are."""
    if not _WHO.match(question) or not FIRST_PERSON_RE.search(question) or _WHO_AM_I.search(question):
        return False
    own = _own_words(answer, question)
    names = {_key(m.group(1)) for e in recall.episodes if e.speaker == USER_ID for m in _MY_NAME.finditer(e.text)}
    return bool(own) and own <= names


_WHO = re.compile(r"^\s*who(?:m|se)?\b", re.I)
_WHO_AM_I = re.compile(r"\b(?:am I|are we|my name|I called)\b", re.I)
_MY_NAME = re.compile(r"\b(?:I['’]m|I am|my name['’]?s|my name is|call me|this is)\s+([A-Z][\w'’-]+)")


def _about_user(question: str, recall: RecallResult) -> bool:
    """The question asks about the user themselves ("Where do I live?", "Do we own a dog?"), not about someone by
    their role ("Where does my brother live?": he may speak in memory). A guest's "I live out in Gdansk" is then
    someone else's words: the user is the one talking to the assistant, whatever else was said."""
    return bool(FIRST_PERSON_RE.search(question)) and not recall.intent.role_words


def _names(text: str, who: str) -> bool:
    """``text`` speaks of ``who`` by name (the word, not a part of one: "Tim" is not in "sometimes"), not only to
    them ("Hey Gina! I'm on the hunt for a spot for my studio" is Jon's own news, told to Gina)."""
    return bool(re.search(rf"\b{re.escape(who)}\b", text, re.I)) and not addressed(text, who)


def told_the_listener(answer: str, question: str, recall: RecallResult) -> bool:
    """Asked about someone, an answer drawn from their own words that ask the one they speak to about that one's
    things, or tell them of them (``about_listener``): "What is Tim's position on the team?" "Playing." from Tim's
    "Cool! What position are you playing for the team?". Those words say nothing of Tim. Asked what someone asked,
    said or suggested, such words are the answer, and stand. On the LoCoMo answers of earlier runs (stops 28-32)
    it would have turned down 13 answers to adversarial questions and none of the 51 right ones that had a person
    asked about and a source."""
    who = (recall.asked or "").lower()
    if not who or _WORDS_OF.search(question):
        return False
    source = source_of(answer, question, recall)
    topic = set(terms(answer))
    if source is None or source.speaker.lower() != who or not about_listener(source.text, topic):
        return False
    # their own words elsewhere say it too: "The dogs had a blast swimming at the beach! Have you been there
    # lately?" matched best, but "…took them to the beach" was hers, told of herself
    new = _own_words(answer, question)
    return not any(e.id != source.id and e.speaker.lower() == who and len(new & set(_content(e.text))) >= 2
                   and not about_listener(e.text, topic) for e in recall.episodes)


def _own_words(answer: str, question: str) -> set[str]:
    """The answer's keyed words that the question does not say (a "yes" or "no" aside)."""
    return set(_content(answer)) - set(_content(question)) - {"yes", "no"}


def _content(text: str) -> list[str]:
    """Keyed words that carry meaning: not glue; a "yes", a "no" and a number do."""
    return [k for _, k in _content_words(text)]


def _content_words(text: str) -> list[tuple[str, str]]:
    """``_content``'s words, each lower case beside its key."""
    words = [w.lower() for w in _WORD.findall(text)]
    return [(w, _key(w)) for w in words if w not in _GLUE or w in ("yes", "no")]


_WITH_SOMEONE = re.compile(r"\bwith (?:me|you|us|him|her|them)\b", re.I)
_NAME_ASKED = re.compile(r"\b(?:called|named|name|names|surname)\b", re.I)


def kind_said_back(answer: str, kind_nouns: Sequence[str]) -> bool:
    """A short answer that ends on the very kind of thing asked, naming none ("What breed is Biscuit?" "A dog
    breed."): the kind said back, no answer."""
    said = _content(answer)
    return bool(kind_nouns) and 0 < len(said) <= 3 and said[-1] == _key(kind_nouns[-1].lower())


def says_nothing_new(answer: str, question: str) -> bool:
    """An answer that is the question said back, with nothing of its own: "What is the painting a reminder
    for John to be?" "A painting is a reminder for John to be in everything he does." The small model writes
    this when what it was given does not answer; it is no answer, and would be spoken as one.

    A pick among the question's own words ("Cats or dogs?" "Dogs.") is an answer: it takes few of them. Not asked
    when, the day the words were said adds nothing ("What recipe did Nate offer Joanna?" "Nate shared a recipe
    with Joanna on 14 August 2022.": said as "14 August 2022.", a date for a recipe).

    Asked yes or no, the question said back is an answer ("Is Anna a teacher?" "Anna is a teacher."): what it
    takes as given was checked against memory before the model was asked (``unfounded``)."""
    if yes_no(question) is not None:
        return False
    if not re.search(r"\bwith\b", question, re.I) and _WITH_SOMEONE.search(answer):
        return False  # "Where does my mum live?" "Your mum lives with you.": with whom is the answer (not asked it)
    asked = [k for k in _content(question) if k not in ("yes", "no")]
    if not _WHEN_ASKED.search(question):
        answer = _DATE_END.sub(r"\1", answer)
    # the past of a verb ending in "e" is its asked word ("How did Pip die?" "Pip died on 12 June.")
    said = {k if k in asked or not w.endswith("ed") or _key(w[:-1]) not in asked else _key(w[:-1])
            for w, k in _content_words(answer)}
    if not said or {"yes", "no"} & said or not said <= set(asked):
        return False
    if _NAME_ASKED.search(question):
        return True  # a name asked is none of the question's words ("What is my sister's puppy called?" "Puppy.")
    if not re.search(r"\bor\b", question, re.I):  # no choice offered, no pick: "Which part of Leeds are we moving
        # to?" "Leeds." (each word the question's own, a name as itself: "TIME." is not "…TIM…?" said back)
        keys = _question_keys(question)
        return all(_in_question(w, keys, opening=i == 0) for i, w in enumerate(_WORD.findall(answer))
                   if w.lower() not in _GLUE)
    # two words are a pick unless they are all the question has ("What are we singing for Christmas?" "We're
    # singing for Christmas.")
    return (len(said) >= 3 or said == set(asked)) and len(said) >= max(2, 0.5 * len(set(asked)))


# words the model works out rather than finds (dates, days): never a sign of a guess
_WORKED_OUT = frozenset(_key(w) for w in [
    *(m.lower() for m in calendar.month_name[1:]), *(d.lower() for d in calendar.day_name),
    *"today yesterday tomorrow week weekend month year".split(),
    *"people folk".split()])  # ("450 people" of "four hundred and fifty guests": what a count is of, no fact)
# numbers: worked out when the question counts or asks about time ("How many times…?" "Twice."), or when what
# memory handed over has a number to work from; otherwise a number is a guess ("How old is my dad?" "35.")
_NUMBER_WORDS = frozenset(_key(w) for w in [
    *UNITS, *"zero thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty".split(),
    *"sixty seventy eighty ninety hundred thousand million".split(),
    *"once twice thrice dozen few several couple half first second third".split()])
_COUNTS = re.compile(r"\bhow (many|often|long)\b", re.I)
_HOW_MEASURED = re.compile(r"^\s*how\s+(?:old|many|much|often|long|far|big|tall|heavy)\b", re.I)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_DATE_OR_TIME = re.compile(r"\b\d{4}-\d\d(?:-\d\d)?\b|\b\d{1,2}[:.]\d\d\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b")
_DATE_WORD = re.compile(rf"\b({alternation([*calendar.month_name[1:], *calendar.day_name])})\b", re.I)


_HOW_MANY = re.compile(r"^\s*how\s+many\b", re.I)
# asked what something cost: "How much did the boat cost?", "How much did we raise?", "What's the rent?"
_COST_ASKED = re.compile(r"^\s*how\s+(?:much\b.*\b(?:cost|costs|pay|paid|spend|spent|charge|charged|charges|back|raise|"
                         r"raised|fetch|fetched|sell|sold|go\s+for|went\s+for)\b|expensive\b)|"
                         r"^\s*what\b.*\b(?:cost|costs|price|fee|fees|fare|rent|deposit)\b", re.I)


def _counted_from_nothing(answer: str, known: set[str]) -> bool:
    """A count in the answer above ten (more than a list of things said is counted in) that no known number is,
    nor one made of two known numbers, or of one and a small step ("two more", "one less")."""
    have = {int(k) for k in known if k.isdigit() and not _YEAR.fullmatch(k)} | {1, 2, 3}
    made = have | {a + b for a in have for b in have} | {a - b for a in have for b in have}
    return any(n > 10 and n not in made for n in numbers_in(_DATE_OR_TIME.sub(" ", answer)))


def _numeric(key: str) -> bool:
    return key.isdigit() or key in _NUMBER_WORDS


# number words that are as often something else ("the red one", "first", "a few")
_LOOSE_NUMBERS = frozenset(_key(w) for w in "one once first second third few several couple half dozen".split())


_WHO_ASKED = re.compile(r"^\s*(?:who|whom)\b", re.I)
_VAGUE_NUMBERS = frozenset(_key(w) for w in "one once first few several couple".split())  # ("a third" is exact)


def _exact_number(key: str) -> bool:
    """A number said exactly ("11", "eleven"), not a year (a date's) nor a word that is as often something else."""
    return (key.isdigit() and not _YEAR.fullmatch(key)) or (key in _NUMBER_WORDS and key not in _LOOSE_NUMBERS)


# an age or a count said as its place ("her hundredth birthday", "my 40th"): a number to work from; not "first",
# "second"… (a first car, a second-hand bike)
_TENS_ORDINALS = "fortieth fiftieth sixtieth seventieth eightieth ninetieth hundredth".split()
_ORDINAL_NUMBERS = frozenset(_key(w) for w, n in [*ORDINALS.items(), *((w, 40) for w in _TENS_ORDINALS)] if n >= 10)


_ORDINAL_SAID = re.compile(rf"\b({alternation(ORDINALS)})\b")


def _ordinal_number(key: str) -> bool:
    return key in _ORDINAL_NUMBERS or bool(re.fullmatch(r"\d+(?:st|nd|rd|th)", key))


_NEGATION = re.compile(r"(?:n['’]t|^never)$")
_CONJECTURE = re.compile(r"\b(might|likely|would|could|probably|possibly|potentially|suggest|recommend)\b", re.I)


def ungrounded(answer: str, question: str, recall: RecallResult) -> bool:
    """Asked about someone's life, the answer says things none of what memory handed over says: none of its own
    words (those not in the question; dates and numbers aside, which the model works out) is in a remembered
    fact or utterance. "What does Lena do?" answered "A teacher." when all that is known is where she lives: a
    guess, which a memory must not say aloud. One word found is enough (the model may rephrase the rest)."""
    if not recall.personal or asks_to_reason(question):
        return False  # a general question, or one that asks to reason ("what might she like?"): the model's own
    asked = set(_content(question))
    # without the facts' dates: the day of one ("from 27 November") is no ground for "You are 27 years old."
    # (nor is a decade a number to work from: "a sixties record player" for what it cost)
    texts = [_DECADE.sub(" ", t) for t in _known_texts(recall, dates=False)]
    known = set(_content(" ".join([*texts, *_role_words(recall.facts)])))  # "hubby of" is said "husband"
    # a number said in words is that number in figures ("about sixty" grounds "60 years old")
    known |= {str(n) for t in texts for w in _NUMBER_WORD.findall(t) if (n := exact_number(w)) is not None}
    known |= {str(v) for t in texts for _, _, v in big_numbers(t)}
    # a place said in words is its figure ("eleventh floor" grounds "11th floor"), and a count grounds its place
    # ("Twenty-five years married": the 25th anniversary)
    known |= {str(ORDINALS[w]) for t in texts for w in _ORDINAL_SAID.findall(t.lower())}
    # asked who, one of the family said by any of its words ("Who did I do the pilgrimage for?" "Your mother." of
    # "Mammy did it every summer, so I'm doing it for her")
    if _WHO_ASKED.match(question):
        kin = {ROLE_RELATIONS[w] for w in re.findall(r"[a-z]+", " ".join(texts).lower()) if w in ROLE_RELATIONS}
        known |= {_key(w) for w, rel in ROLE_RELATIONS.items() if rel in kin}
    answer = without_thousands_commas(answer)
    said = {re.sub(r"^(\d+)(?:st|nd|rd|th)$", r"\1", k) for k in _content(answer)}
    numbers = any(_numeric(k) or _ordinal_number(k) for k in known)
    # a sum said by a word of its own grounds its figure, but is no number to work others out from ("Best fiver
    # I've ever spent": "$100." is a guess)
    known |= {str(v) for t in texts for _, _, v in slang_money(t)}
    counted = (recall.intent.when or bool(_COUNTS.search(question)) or numbers
               or bool(_DATE_WORD.search(answer)))  # the day and year of a date ("On 3 May 2026")
    # a number memory never said, asked neither to count nor about time, nor worked out from a number said of what
    # is asked (a year, an age): a guess, whatever other word it comes with ("How old is my sister?" "Rhian is 11
    # years old." when only the user's "gluten-free for two years" holds a number)
    of_it = [t for t in texts if asked & set(_content(t))]
    sums = recall.intent.when or bool(_COUNTS.search(question)) or bool(_DATE_WORD.search(answer)) or any(
        _exact_number(k) or _ordinal_number(k) for k in _content(" ".join(of_it))) or bool(
        _YEAR.search(" ".join(of_it)))
    if not sums and any(_exact_number(k) and k not in asked and k not in known
                        for k in _content(_DATE_OR_TIME.sub(" ", answer))):
        return True
    # asked how many, a count above what a list names that nothing said gives, nor two numbers said add or take to
    # ("How many people came to my TEDx talk?" "16 people.", never said: only "eleven minutes" was)
    if _HOW_MANY.match(question) and not recall.intent.when and _counted_from_nothing(answer, known):
        return True
    # asked what something cost, a sum no words said nor make ("How much did the surf camp cost?" "Approximately 400
    # times.", of "fell off about four hundred times")
    if _COST_ASKED.match(question) and not recall.intent.when and priced_from_nothing(answer, texts):
        return True
    # a negation is no fact of its own: "No, you don't like coriander." from "I can't stand coriander"; nor is the
    # prompt's word for the speaker ("The user's book club is reading …": the words of the answer are the title's)
    new = {k for k in said if k not in asked and k not in ("yes", "no", "user") and k not in _WORKED_OUT
           and not (counted and _numeric(k)) and not _NEGATION.search(k)}
    if not new:
        return False
    # one who does what was said is said of it too ("training to be a plumber" from "a plumbing course")
    known |= {k for k in new if _doer_of(k) in known}
    # a number said as memory said it is ground too ("Your Samaritans training lasted 8 weeks." of "Eight weeks of
    # role plays": "lasted" alone is none), though numbers are otherwise left to the model to work out
    figures = {k for k in said if k not in asked and k in known and k not in _VAGUE_NUMBERS and (
        _numeric(k) or _ordinal_number(k))}
    if not new & known and not figures:
        return True
    # the only words found are those that name whom it asks about ("Where does my grandma live?" "Your Iris
    # grandparent lives in the same place as the user.", from "Iris grandparent of User" alone): the rest is a
    # guess; asked who, or someone's name, a name is the answer
    rest = new - _naming(recall)
    return bool(rest) and not rest & known and not figures and not _NAME_ASKED.search(question)


_NUMBER_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)?")
_DECADE = re.compile(rf"\b(?:{alternation(tens[:-1] + 'ies' for tens in TENS)})\b", re.I)  # "sixties"


def _doer_of(key: str) -> str:
    """The keyed activity a doer's noun is made from ("plumber" plumb, "gardener" garden, "swimmer" swim,
    "cyclist" cycl), or "" when it is none."""
    for end in ("er", "or", "ist"):
        base = key[: -len(end)]
        if key.endswith(end) and len(base) >= 3 and base[-1] == base[-2] and base[-1] not in "aeiou":
            return base[:-1]  # "swimmer", "runner", "jogger"
        if key.endswith(end) and len(base) >= 4:
            return base
    return ""


_NAME_ASKED = re.compile(r"\b(who|whom|whose|names?|called)\b", re.I)


def _naming(recall: RecallResult) -> set[str]:
    """The keyed words that name whom a question is about: their names, the user, and the roles that join them
    ("Iris grandparent of User": iris, grandparent, grandma…)."""
    seeds = set(recall.seeds)
    names = [a.subject for a in recall.facts if a.subject_id in seeds] + [
        a.object for a in recall.facts if a.object_id in seeds]
    roles = [a for a in recall.facts if a.relation in ROLE_RELATIONS.values()]
    return set(_content(" ".join([*names, "user", *(a.relation_words for a in roles), *_role_words(roles)])))


def unfounded(premises: Sequence[str], question: str, recall: RecallResult) -> list[str]:
    """The question's premises (``intent.premises``: its nouns but the category asked for) that nothing memory
    handed over mentions, for a question about someone's life. "What did Maria donate to a luxury store?" when
    what was found says she gave her old car to a homeless shelter: the small model answers "Her old car" as
    if the store were so — a wrong fact said aloud, and the question's premise quietly accepted. A question
    that asks to reason ("what might she like?") is the model's own to answer."""
    if not recall.personal or asks_to_reason(question):
        return []
    return unsaid_in(premises, [*_known_texts(recall), *_role_words(recall.facts), *_left_out(recall.facts)])


def unsaid_in(premises: Sequence[str], texts: Sequence[str]) -> list[str]:
    """The premises that none of ``texts`` says (a choice offered, "beach|mountains", is said by either)."""
    known = set(_content(" ".join(texts)))
    low = " ".join(" ".join(texts).lower().split())

    def unsaid(word: str) -> bool:
        k = _content(word)  # glue is no premise ("out" of "call-out"); one told in other words is said by them
        told = ASKED_AS_TOLD.get(word.lower(), ())
        told_as = {c for t in told if " " not in t for c in _content(t)}  # "weight": "two stone"
        # (words of more than one, as a whole: "wedding do" for a party, not "wedding" alone)
        return bool(k) and k[0] not in known and k[0] not in _WORKED_OUT and not _numeric(k[0]) and not (
            told_as & known) and not any(" " in t and re.search(rf"\b{re.escape(t)}\b", low) for t in told)
    return [w for w in premises if all(unsaid(one) for one in w.split("|"))]


def source_of(answer: str, question: str, recall: RecallResult) -> Episode | None:
    """The utterance an answer was drawn from: of those handed to the model, the one sharing most of the
    answer's own words (not the question's; one at least). None when no utterance shares any, or a fact
    handed over shares as many: the answer came from the facts (typed, and their words are the relation's)."""
    if not recall.episodes_relevant:
        return None
    own = _own_words(answer, question)
    if not own:
        return None
    best, shared = None, 0
    for e in recall.episodes:
        n = len(own & set(_content(e.text)))
        if n > shared:
            best, shared = e, n
    if best is None or any(len(own & set(_content(f))) >= shared for f in recall.statements(dates=False)):
        return None
    return best


class Overtaken(NamedTuple):
    """Later words on the same thing as those an answer was drawn from (newest first), and the words of that thing
    (the source's, the asked names aside)."""
    later: list[Episode]
    topic: frozenset[str]


def overtaken_by(answer: str, question: str, recall: RecallResult) -> Overtaken | None:
    """Asked what holds now, the later words on the same thing as those an answer was drawn from, when the answer
    says something only the older words say: "What's my Go rank now?" "3 kyu." from "I'm 3 kyu now", with "they've
    promoted me to 1 kyu!" said since. The small model took the older words even listed second, the newest first
    (five of everyday90/91's first run); handed only the later words it answered all five. Later words "on the same
    thing" share a word with the source, the asked names aside. None when nothing overtakes the answer."""
    q = question.strip()
    if not (recall.personal and recall.episodes_relevant) or recall.intent.when or yes_no(q) is not None:
        return None
    # asked what holds now of the user or one of theirs, or said "now", or a record: as the words go newest first
    # (``asks_now``). Not of anyone at all: on the LoCoMo sample, asked again on later words, "What organization is
    # John teaming up with…?" and "What is Andrew planning to do with Scout…?" lost their answers (one gained)
    if not asks_now(q, recall) or _NOT_SAID.search(answer) or _OWN_DOUBT.search(answer):
        return None
    # the source is the oldest of the utterances sharing most of the answer's words, numbers read whole ("23" is
    # "twenty-three"); none when none shares any, or a fact shares as many (the answer is drawn from the facts)
    said = _terms_and_numbers
    mine = said(answer) - said(question) - {"yes", "no"}
    shared = {e.id: len(mine & said(e.text)) for e in recall.episodes}
    source = min(recall.episodes, key=lambda e: (-shared[e.id], e.at), default=None)
    if source is None or not shared[source.id] or any(
            len(mine & said(f)) >= shared[source.id] for f in recall.statements(dates=False)):
        return None
    topic = frozenset(set(_content(source.text)) - {_key(n) for n in _names_asked(question)})
    later = [e for e in recall.episodes if e.at > source.at and topic & set(_content(e.text))]
    own = mine & said(source.text)
    if not own or not later or own <= said(" ".join(_not_ended(e.text, own) for e in later)):
        return None
    return Overtaken(sorted(later, key=lambda e: e.at, reverse=True), topic)


def _not_ended(text: str, own: set[str]) -> str:
    """The words less their clauses that say an end or a denial: an old value named there ("I've gone right off
    Catan", "I've retired Dancing Queen for good", "to Calgary, not Toronto") is not said to hold again. Words that
    end the answer's own (``own``) in one clause say nothing of it holding in any other ("I've packed in tennis for
    pickleball… Tennis can keep its sore elbows")."""
    clauses = CLAUSE_CUT.split(text)
    ending = [c for c in clauses if says_an_end(c)]
    if any(own & _terms_and_numbers(c) for c in ending):
        return ""
    return " ".join(c for c in clauses if c not in ending)


def _terms_and_numbers(text: str) -> set[str]:
    """``_content``'s words with each number read whole, in figures: "thirty-one" is not said again by "that's
    thirty-three", and "33" is "thirty-three"."""
    return {w for w in _content(text) if exact_number(w) is None} | {str(n) for n in numbers_in(text)}


def answer_on_later(reply: str, question: str, later: RecallResult, topic: frozenset[str]) -> str | None:
    """The model's answer asked again on later words only (``overtaken_by``), shaped as an answer, when it is one:
    no doubt, a word of its own said in a sentence of the later words that goes on with the old words' thing (a word
    of ``topic`` in it or a sentence beside it), and no check turns it down. "What position does Oisín play?"
    "Corner-back." is not overtaken by "Oisín kept their full-forward scoreless", said of a final lost (no word of
    being picked, of the minors, in or beside it). None: the first answer stands."""
    m = _FIRST_SENTENCE.match(" ".join(reply.split()))
    first = m.group(1) if m else " ".join(reply.split())
    own = _terms_and_numbers(first) - _terms_and_numbers(question) - {"yes", "no"}
    if not own or _NOT_SAID.search(first) or _OWN_DOUBT.search(first):
        return None
    on_topic = False
    for e in later.episodes:
        sentences = [s for s in SENTENCE_END.split(e.text) if s.strip()]
        on_topic = on_topic or any(own & _terms_and_numbers(s) and topic & set(_content(" ".join(
            sentences[max(0, i - 1) : i + 2]))) for i, s in enumerate(sentences))
    if not on_topic or vetted(first, question, later) is not None:
        return None
    return _shaped(first, question)


def asks_to_reason(question: str) -> bool:
    """"What might she like?", "Is it likely that…": the model's own reasoning is asked for."""
    return bool(_CONJECTURE.search(question))


def _role_words(facts: Sequence[Arc]) -> list[str]:
    """The words that name the roles these facts hold ("Finn son of User": son, child, kid, children...): a
    question's "How many children do I have?" is said by them in their own words."""
    held = {a.relation for a in facts}
    return [form for w, rel in ROLE_RELATIONS.items() if rel in held or held & set(NARROWER.get(rel, ()))
            for form in (w, f"{w}s", f"{w}ren")]


def _left_out(facts: Sequence[Arc]) -> list[str]:
    """The foods and drinks the diets, conditions, allergies and foods gone without of these facts leave out
    ("teetotal": wine, beer…; "shellfish": prawns…; "gluten": bread…): "Do I drink wine?" is spoken of by a teetotal
    diet, in its own word."""
    diets = {a.object.lower() for a in facts if a.relation == "diet"}
    held = [a.object.lower() for a in facts if a.relation in ("has_condition", "allergic_to", "avoids")]
    return [*(food for food, leave_out in DIET_EXCLUDES.items() if diets & set(leave_out)),
            *(food for h in held for food in (*CONDITION_EXCLUDES.get(h, ()), *ALLERGEN_FOODS.get(h, ())))]


def _known_texts(recall: RecallResult, *, dates: bool | None = None) -> list[str]:
    """What memory hands the model: fact statements, summaries and, when they bear on it, utterances."""
    return [*recall.statements(dates=dates), *recall.summary_lines(dates=dates),
            *(e.text for e in recall.episodes if recall.episodes_relevant)]


_COUNT_OF = re.compile(rf"\b(\d+|{alternation(w for w in NUMBERS if ' ' not in w and w not in ('a', 'an'))})\s+"
                       r"([A-Za-z][\w'’-]*)", re.I)


def _counts(text: str) -> set[tuple[int, str]]:
    """The counts a text says of a thing: (how many, the thing's key) for "two stone", "3 kids"."""
    text = in_figures(text)  # "two hundred and ten quid" counts 210
    return {(number(n), _key(w.lower())) for n, w in _COUNT_OF.findall(text) if w.lower() not in _GLUE}


def says_a_number(text: str) -> bool:
    """The words say a number, in figures or in words ("Target's twenty-five thousand")."""
    return bool(re.search(r"\d", text) or big_numbers(text)) or any(
        exact_number(w) is not None for w in _NUMBER_WORD.findall(text))


def miscounted(answer: str, question: str, recall: RecallResult) -> Episode | None:
    """The answer counts a thing otherwise than the words that told it ("1 stone since January 2026." from "Down two
    stone since January"; the small model misread the number): the utterance that says the count, to be said
    instead. None when the answer's counts are said somewhere, or of nothing counted in what was handed over, or
    when the question asks to count ("how many…": a sum across what was said)."""
    said = _counts(answer)
    if not said or not recall.episodes_relevant or _COUNTS.search(question):
        return None
    known = {c for t in _known_texts(recall) for c in _counts(t)}
    for n, thing in said - known:
        told = [e for e in recall.episodes if any(k == thing and m != n for m, k in _counts(e.text))]
        if told:
            return told[0]
    return None


def unknown_answer(recall: RecallResult | None) -> str:
    """What to say when memory does not answer a question asked about someone (or about the user)."""
    who = recall.asked if recall is not None else ""
    return _not_mentioned_by(who) if who else "I don't know that; nothing I remember says."


def _not_mentioned_by(who: str) -> str:
    return f"{who[:1].upper() + who[1:]} didn't mention that, as far as I know."


_SAYS_SO = re.compile(r"^\W*(from (my )?general knowledge|as far as i know|generally|in general|i believe)\b", re.I)


def general_knowledge(pieces: Iterable[str], *, by_model: Callable[[], bool] = lambda: True) -> Iterator[str]:
    """An answer to a question about no one's life, from the model's own knowledge, says so ("From general
    knowledge: Ottawa."): the small model, told to, never did, and a listener should not take it for memory.
    ``by_model``: whether the words came from the model (not a message that it is down)."""
    it = iter(pieces)
    head = ""
    for piece in it:
        head += piece
        if len(head) >= 24:
            break
    if not head.strip():
        return
    yield head if _SAYS_SO.match(head) or not by_model() else f"From general knowledge: {head.lstrip()}"
    yield from it


def role_unknown(role: str) -> str:
    """Asked about a relative or friend by a role no one holds in memory: the facts around (a brother's home for
    "where does my sister live?") would tempt the model into a wrong answer said with confidence."""
    return f"I don't know. You haven't told me about your {role}."


def nothing_known(question: str) -> str:
    return "I don't know that yet. You haven't told me anything about it."


def said_elsewhere(recall: RecallResult, *, max_chars: int = 160) -> str:
    """'Ann didn't mention that, as far as I know. On 3 May 2023 Ben said: "…"' — the nearest words, and whose;
    only the first sentence when those words share no word of the question's topic (they were found by their
    meaning, and quoted they would make no sense: "Take care! Can't wait to catch up." for John's December deal)."""
    e = recall.elsewhere
    assert e is not None
    who = recall.asked or "they"
    text = focus(e.text, recall.question, max_chars)  # the sentences that match, not the greeting before them
    if not set(terms(without_names(recall.question, [who]))) & set(terms(text)):
        return _not_mentioned_by(who)
    speaker = "you" if e.speaker == "user" else e.speaker
    return f'{_not_mentioned_by(who)} On {spoken_date(e.at)} {speaker} said: "{text}"'


def template_answer(recall: RecallResult, *, reason: str) -> str:
    """Without the model: the most relevant facts, read plainly."""
    facts = _relevant(recall)
    if not facts and recall.episodes_relevant and recall.episodes:
        e = recall.episodes[0]
        who = "you" if e.speaker == "user" else e.speaker
        return (f"From what was said: on {spoken_date(e.at)} {who} said \"{e.text}\". "
                f"({reason[0].upper() + reason[1:]}.)")
    if not facts:
        return f"I don't know that yet, and {reason}."
    said = "; ".join(_plain(a) for a in facts[:3])
    return f"From memory: {said}. ({reason[0].upper() + reason[1:]}.)"


def _relevant(recall: RecallResult) -> list[Arc]:
    """The asked relation about the asked entity first, then the asked relation, then anything recalled."""
    asked, seeds = set(recall.intent.relations), set(recall.seeds)

    def rank(a: Arc) -> tuple[int, float]:
        about = a.subject_id in seeds or a.object_id in seeds
        return (-(2 * (a.relation in asked) + about), -a.valid_from.timestamp())

    return sorted(recall.facts, key=rank)


def plain(a: Arc, *, dates: bool = True) -> str:
    """A fact as a spoken clause, with "you" for the user: "your sister is Anna" style kept simple."""
    return _plain(a) if dates else _plain(a).rsplit(" since ", 1)[0].rsplit(" until ", 1)[0]


def _plain(a: Arc) -> str:
    rel = a.relation.replace("_", " ")
    subj = "you" if a.subject_id == USER_ID else a.subject
    obj = "you" if a.object_id == USER_ID else a.object
    if subj == "you":
        rel = {"lives in": "live in", "works at": "work at", "works as": "work as", "likes": "like",
               "dislikes": "dislike", "drives": "drive", "plays": "play", "owns": "own", "teaches": "teach",
               "practices": "practise", "has pet": "have a pet,", "reports to": "report to"}.get(rel, rel)
    if a.planned_for and a.valid_to is None:
        return f"{subj} {rel} {obj} for {spoken_grain(a.planned_for)}"
    if a.valid_to is not None:
        return f"{subj} {rel} {obj} until {a.valid_to.date().isoformat()}"
    return f"{subj} {rel} {obj} since {a.valid_from.date().isoformat()}"


def join_stream(pieces: Iterator[str]) -> str:
    return speakable("".join(pieces))
