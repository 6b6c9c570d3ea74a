"""Time in answers (pure): the dates words said on a day mean, said as people say them ("last week", said on 8 May
2023: "the week before 8 May 2023"), and "when" / "how long ago" questions answered from the words found without
the model, which cannot count months."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Sequence
from datetime import datetime

from assistant.counts import listed, pets_now
from memory.episodes import Episode, asks
from memory.extraction.dates import Tense, TimeRef, in_words, tense, words_of
from memory.extraction.rules_lexicon import CAR_BRANDS, CAR_MODELS, DIET_NAMES, KIND_OF_PET, PETS
from memory.model import USER_ID, Arc, spoken_day
from memory.periods import MOMENT_TERMS, in_month_said, month_named, named_time, recurrence, says_when
from memory.recall.intent import NOW_MINE, asks_a_weekday
from memory.recall.recall import RecallResult, fact_terms
from memory.revision import says_a_change, says_an_end
from memory.search import SENTENCE_END, focus, stem, terms
from memory.timeutil import spoken_grain
from memory.vocabulary import ENDS_OTHERS, is_relation, relation
from memory.words import (
    ALLERGEN_FOODS,
    AUXILIARIES,
    CLAUSE_CUT,
    CONDITION_EXCLUDES,
    DIET_EXCLUDES,
    DISTASTE,
    FIRST_PERSON_RE,
    OPPOSITE_OUTCOMES,
    POSSESSIVES,
    ROLE_RELATIONS,
    ROLES,
    TASTE_WORDS,
    TIME_MOVED,
    YOUNG_ANIMALS,
    Aux,
    alternation,
    in_a_time_gone,
    told_as,
)

MONTH = alternation(calendar.month_name[1:])  # a month's name, in a regex


def spoken_date(d: datetime) -> str:
    return f"{d.day} {d.strftime('%B')} {d.year}"


def when_note(text: str, at: datetime) -> str | None:
    """'yesterday' said on 20 January 2023 -> 'yesterday = 19 January 2023': dates the small model cannot slip on."""
    meant = _when_meant(text, at)
    return None if meant is None else f"{meant[1]} = {meant[2]}"


def _when_meant(text: str, at: datetime) -> tuple[str, str, str] | None:
    """The first sentence of ``text`` that names a time, the phrase that does, and the date it means said as
    people say it (None when none does, or the date is in the words already)."""
    meant = _meant(text, at)
    if meant is None or meant[2].lower() in text.lower():  # "on 3 January 2023": said already
        return None
    return meant[0], meant[1].text.rstrip("."), meant[2]


_VAGUE = re.compile(r"\b(?:few|several|couple)\b", re.I)
_WEEKENDS_COUNTED = re.compile(r"(.*\bweekends?)\s+(ago|from now)\b", re.I)  # "two weekends before 17 July 2023"
_AGO = re.compile(r"\s*\bago\b", re.I)


def _meant(text: str, at: datetime, *, tense_else: Tense = None, topic: frozenset[str] | set[str] = frozenset(),
           ahead: bool = False) -> tuple[str, TimeRef, str] | None:
    """The sentence of ``text`` that names a time (``periods.named_time``: the first, the one on ``topic``, or
    one ahead when asked of what is to come), the time it names, and that time as people say it."""
    named = named_time(text, at, tense_else=tense_else, topic=topic, ahead=ahead)
    # asked in the past, words that give no tense of their own are not of the past of when they were said: "the
    # Burns supper on the 24th", said on the 12th and asked of after, is that month's, the nearer (not the 24th
    # before); a weekday has no nearer and stays the question's way
    nearer = named_time(text, at, topic=topic, ahead=ahead) if tense_else == "past" else None
    if nearer is not None and (named is None or abs(nearer[1].when - at) < abs(named[1].when - at)):
        named = nearer
    if named is None:
        return None
    sentence, ref = named
    w = ref.when
    if ref.grain == "day":
        said = spoken_date(w)
    elif ref.grain == "week":
        gap = (w.date() - at.date()).days
        n = round(abs(gap) / 7)
        week = ("weekend" if "weekend" in ref.text.lower() else "week") if n < 2 else (
            f"{in_words(n)} weeks")
        the = "the " if n < 2 else ""
        said = (f"{the}{week} before {spoken_date(at)}" if gap < -3 else f"{the}{week} after {spoken_date(at)}"
                if gap > 3 else f"the {week} of {spoken_date(at)}")
    elif ref.grain == "month":
        said = f"{w.strftime('%B')} {w.year}"
    elif ref.grain == "weekend" and (counted := _WEEKENDS_COUNTED.search(ref.text)) is not None:
        way = "before" if counted.group(2).lower() == "ago" else "after"
        said = f"{counted.group(1).lower()} {way} {spoken_date(at)}"
    elif ref.grain == "weekend":
        said = f"the weekend of {spoken_date(w)}"
    elif ref.grain == "season":
        said = f"the {ref.text.split()[-1].lower()} of {w.year}"
    else:
        said = str(w.year)
    if _VAGUE.search(ref.text) and _AGO.search(ref.text):  # "a few years ago" is no year: said as vaguely as
        said = f"{_AGO.sub('', ref.text.lower()).strip()} before {spoken_date(at)}"  # it was, from when it was
    return sentence, ref, said  # the phrase without its full stop ("in Sept."): the note goes before it



def dated(text: str, at: datetime) -> str:
    """The words with the date each sentence's time means put right after the words that name it: "I'm hosting a
    dance competition next month (May 2023)" said on 3 April 2023. Beside the words, not at the end of a long
    utterance, where the small model took the day it was said instead; in each sentence, not only the first (the
    model read "Passed my Day Skipper on Friday! … on the last night (11 May 2026)" as passed on the 11th). A day
    of the month said alone is of the month a sentence before named ("…on Umrah in December. Flying to Jeddah on
    the 9th": 9 December, not the coming 9th), unless read alone it falls in that month or the month before."""
    out: list[str] = []
    start, month = 0, ""
    for cut in [*SENTENCE_END.finditer(text), None]:
        end = cut.start() if cut is not None else len(text)
        sentence, month = _dated_sentence(text[start:end], at, month)
        out.append(sentence + (cut.group(0) if cut is not None else ""))
        start = cut.end() if cut is not None else end
    return "".join(out)


def _dated_sentence(sentence: str, at: datetime, month: str, *, tense_else: Tense = None,
                    more: int = 2) -> tuple[str, str]:
    """One sentence with the date each time it names means put after the words that name it (the first, then up to
    ``more`` after it, read in the sentence's tense where their own words give none: "I'm doing the head of the
    lion this year for the dance on the 17th": the 17th too, not only "this year"), and the month said so far
    (``month``: the one a sentence before named, which a day said alone is of)."""
    meant = _meant(sentence, at, tense_else=tense_else)
    if meant is None:
        return sentence, month
    _, ref, said = meant
    if (put := in_month_said(sentence, ref, month)) is not None and (
            of_month := _meant(put, at, tense_else=tense_else)) is not None:
        said = of_month[2]
    month = month_named(ref, month)
    phrase = ref.text.rstrip(".")
    i = sentence.lower().find(phrase.lower())
    if i < 0:
        return (sentence if said.lower() in sentence.lower() else f"{sentence} [{phrase} = {said}]"), month
    j = i + len(phrase)
    rest = sentence[j:]
    if more > 0 and rest.strip():  # the times named after it
        rest, month = _dated_sentence(rest, at, month, tense_else=tense_else or tense(words_of(sentence)),
                                      more=more - 1)
    if said.lower() in sentence.lower():  # "on 3 January 2023": said already
        return sentence[:j] + rest, month
    return f"{sentence[:j]} ({said}){rest}", month


_SAID_ON = re.compile(rf"\b([0-3]?\d) ({MONTH}),? ((?:19|20)\d\d)\b")


def _told_on_answer_day(answer: str, recall: RecallResult) -> tuple[re.Match[str], list[Episode]] | None:
    """Asked when, the date an answer gives and the words found that were said on that day (None: not asked
    when, or no date in the answer)."""
    m = _SAID_ON.search(answer) if recall.intent.when else None
    if m is None:
        return None
    day = (int(m.group(3)), list(calendar.month_name).index(m.group(2)), int(m.group(1)))
    return m, [e for e in recall.episodes if (e.at.year, e.at.month, e.at.day) == day]


def redated(answer: str, recall: RecallResult) -> str | None:
    """Asked when, an answer that gives the day some words were said, when the sentence of those words that is
    about the question puts it at another time: "Last year I helped renovate the community centre", said on 20
    May 2023, answers "When did John help renovate the community centre?" with "In 2022", not "On 20 May 2023"
    (the small model takes the date written beside the words). None: the answer stands, as it does when the
    words said that day mean more than one time."""
    found = _told_on_answer_day(answer, recall)
    if found is None:
        return None
    m, told = found
    asked = set(terms(recall.question)) - set(terms(recall.asked))
    meant: set[str] = set()
    for e in told:
        ref = _when_meant(" ".join(e.text.split()), e.at)
        if ref is not None and asked & set(terms(ref[0])):
            meant.add(ref[2])
    if len(meant) != 1:
        return None
    said = meant.pop()
    if said == f"{int(m.group(1))} {m.group(2)} {m.group(3)}":  # "today": the day it was said is the day meant
        return None
    lead = "In" if (said[:1].isdigit() and len(said) == 4) or said.split()[0] in calendar.month_name else "On"
    return f"{said[:1].upper()}{said[1:]}." if said.startswith("the ") else f"{lead} {said}."


def said_day_ahead(answer: str, recall: RecallResult) -> bool:
    """Asked when something is or will be, an answer that gives only the day some words were said, words that name
    no time: "When is my dentist appointment?" "19 October 2026." from "Must remember to book the dentist", said
    that day (the small model takes the date written beside the words). Asked about the past, the day told may be
    the day it happened (``time_meant``), so the answer stands."""
    if not _ASKS_WHEN.match(recall.question) or _ASKS_WHEN_PAST.match(recall.question):
        return False  # "What classes did Audrey start on 4 August?": a day asked about; "When did she plan…?": past
    found = _told_on_answer_day(answer, recall)
    if found is None or tense(words_of(recall.question)) == "past":
        return False
    told = found[1]
    return bool(told) and not any(says_when(e.text) or named_time(e.text, e.at) is not None for e in told)


# "When did…?", "What year did…?", "In which month…?": asked for the time of something, not a duration or a count
_ASKS_WHEN = re.compile(r"^\s*(?:when\b|(?:in |on )?(?:what|which) (?:year|month|day|date|night|evening|morning|"
                        r"afternoon)s?\b(?!['’]s\b))", re.I)  # (not "Which year's Massey…?": a thing of that year)
_PAST_AUX = alternation(w for w, aux in AUXILIARIES.items() if aux.past)  # did, was, were, had
_HABIT_ASKED = re.compile(r"\b(?:do|does)\b", re.I)  # "What day do I work…?": what is done week by week
_ASKS_WHEN_PAST = re.compile(rf"^\s*when\s+(?:{_PAST_AUX})\b", re.I)
_BIRTH = re.compile(r"\b(?:born|birth|arrived|arrival|delivered|newborn|had\s+(?:a|the)\s+baby)\b", re.I)
_ASKS_WHEN_IS = re.compile(r"^\s*when(?:'s|’s|\s+is|\s+are)\b", re.I)
# "How long ago did…?", "How many years ago…?": the time since it
_ASKS_AGO = re.compile(r"^\s*how (?:long|many (?:years|months|weeks|days)) ago\b", re.I)
# asked why or how something came about, or of a past time ("Why did I lose my job?", "Where was Tom working?"):
# not about what holds now
_ASKS_NOT_NOW = re.compile(rf"^\s*(?:why|how come|how did)\b|\b(?:{_PAST_AUX})\b", re.I)


def when_answer(recall: RecallResult, *, now: datetime | None = None, facts: bool = False, look: int = 3,
                max_chars: int = 300) -> str | None:
    """Asked when something happened, the time the words found best mean, as people say it, without the model:
    the first of the ``look`` best utterances whose words name a time ("Last year I helped renovate it", said on
    20 May 2023: "2022."), else the day the best one was said. The small model, given the same lines, took the
    date written beside the wrong one more often than the search ranked it wrong (dev LoCoMo "when" questions,
    F1 0.56 -> 0.79). Questions on the topic ("When are you opening the studio?") say no time; words told as
    still to come say none either. Asked how long ago (``now`` given), the time since then, and then.
    None: not asked when, or nothing said bears on it with a time, or asked when and ``facts`` of the asked
    relation were found (they carry their dates to the model)."""
    ago = now is not None and bool(_ASKS_AGO.match(recall.question))
    asks_when = bool(_ASKS_WHEN.match(recall.question))
    if not ago and asks_when and (planned := planned_for(recall)) is not None:
        return planned
    if (ended := no_longer(recall)) is not None:
        return ended
    if (diet := diet_leaves_out(recall)) is not None:
        return diet
    if (pets := pets_now(recall)) is not None:  # (how many are left of animals known by name)
        return pets
    if (holder := role_holder(recall)) is not None:
        return holder
    if asks_when and "born_on" in recall.intent.relations and (
            (told := birthday(recall)) is not None or not _ASKS_WHEN_PAST.match(recall.question)
            or not any(_BIRTH.search(e.text) for e in recall.episodes[:look])):
        return told  # a birthday comes round every year: not the day some words meant (asked when someone was
        # born, words of the birth that say no birthday, "Solomon arrived at 3am on Thursday", are read below)
    if asks_when and not ago and (often := how_often(recall, look=look, max_chars=max_chars)) is not None:
        return often
    if not (ago or (asks_when and not facts)) or not recall.episodes_relevant:
        return None
    if asks_a_weekday(recall.question) and _HABIT_ASKED.search(recall.question):  # "What night do I do my shift?":
        return None  # the day of the week it falls on, no date (a repeat was read above; "the Thursday overnight" is
        # the model's to say, not the day of "tonight"); "What day is the party?" may be one day, its date
    found = time_meant(recall, look=look, max_chars=max_chars, now=now)
    if found is None:
        return None
    when, said, _ = found
    if ago and now is not None:
        return f"{time_since(when, now)} ({said})."
    return f"{said[:1].upper()}{said[1:]}."


def none_now(recall: RecallResult) -> str | None:
    """Asked about now ("What car do I drive?", "Do I have a dog?") when every fact of the asked relation has
    ended and nothing said since may name another: 'Not Vauxhall Corsa now, as far as I know: on 15 September 2026
    you said "Sold the Corsa, I cycle everywhere now."' — the words that ended it, when found, else the fact and its
    end (the small model, handed those words, said "A Corsa"). None when a value held now ends it by its own meaning
    ("retired": ``ENDS_OTHERS``; the model says that), or words said after the end was learned are among those
    found (they may tell the new one, which learning did not read)."""
    if recall.cypher_facts or _ASKS_WHEN.match(recall.question) or _ASKS_AGO.match(recall.question) or (
            _ASKS_NOT_NOW.search(recall.question)) or not (
            ended := recall.ended_facts()):
        return None
    last = ended[0]
    other = last.subject if last.object_id == USER_ID else last.object  # a role's holder ("Marcus partner_of User")
    held = {(a.relation, a.object.casefold()) for a in recall.facts if a.current and a.subject_id == last.subject_id}
    if any(last.relation in ENDS_OTHERS.get(h, ()) for h in held):
        return None
    learned = last.closed_at or last.valid_to
    if learned is None or last.valid_to is None or (
            recall.episodes_relevant and any(e.at > learned for e in recall.episodes)):
        return None
    told = [e for e in recall.episodes if abs((e.at - learned).total_seconds()) < 1] if recall.episodes_relevant else []
    if told:  # the one that ended, named: the words may tell where or what now ("Sean's moved in with me")
        return f"Not {other} now, as far as I know: {_said_on(told[0], recall.question)}"
    return f"Not now, as far as I know: {other} until {spoken_day(last.valid_to)}."


_ROLE = alternation(ROLE_RELATIONS)
# "Who is my wife?", and the role's holder asked by name: "What is my neighbour called?", "What's my boss's name?",
# "What's the name of my sister?"
_WHO_MY_ROLE = re.compile(
    rf"^\s*(?:who(?:'s|\s+is)\s+(?:my|our)\s+(?P<who>{_ROLE})"
    rf"|what(?:'s|\s+is)\s+(?:my|our)\s+(?P<called>{_ROLE})(?:\s+called|['’]s\s+name)"
    rf"|what(?:'s|\s+is)\s+the\s+name\s+of\s+(?:my|our)\s+(?P<name_of>{_ROLE}))\s*\??\s*$", re.I)


def role_holder(recall: RecallResult) -> str | None:
    """"Who is my wife?" when facts held now name who holds the role toward the user: their names, without the model
    (which, handed "User spouse_of Sophie" beside "my ex-wife Claire", said "Your spouse of Sophie is Claire."). The
    holder is the one the role is of ("Ann mother_of User" for "my mum", not "User mother_of Lily"; either end of a
    symmetric role; the user's manager for "boss"). None: not asked so, no holder named, or the word kept for the
    role is another ("wife" asked as "husband")."""
    m = _WHO_MY_ROLE.match(recall.question)
    if m is None or recall.intent.history:
        return None
    word = next(g for g in m.groups() if g).lower()
    rel = ROLE_RELATIONS[word]
    symmetric = is_relation(rel) and relation(rel).symmetric
    held = [a for a in recall.facts if a.current and a.relation == rel and (
        (a.subject_id == USER_ID and (symmetric or rel == "reports_to")) or (
            a.object_id == USER_ID and rel != "reports_to"))]
    if not held or any(a.label and a.label.lower() != word and ROLE_RELATIONS.get(a.label.lower()) == rel
                       for a in held):
        return None
    names = list(dict.fromkeys(a.object if a.subject_id == USER_ID else a.subject for a in held))
    if any(n.split()[0].lower() in POSSESSIVES or n == "User" for n in names):
        return None  # a role never named ("my mum"): the model says what is known of them
    return f"{listed(names)}."


_MONTH_DAY = re.compile(rf"^({MONTH})\s+(\d{{1,2}})\b(.*)$", re.I)


def birthday(recall: RecallResult) -> str | None:
    """Asked when someone's birthday is, the day a fact of it holds, as people say it ("On 14 July."), for the one
    asked about; None when no such fact was found, or two disagree (the model reads what was found)."""
    about = set(recall.seeds)
    days = {a.object for a in recall.facts if a.relation == "born_on" and a.current and a.subject_id in about}
    if not days:
        return _birthday_told(recall)
    if len(days) != 1:
        return None
    day = days.pop()
    m = _MONTH_DAY.match(day)
    said = f"{m.group(2)} {m.group(1)}{m.group(3)}" if m else day  # "July 14" -> "14 July"
    return f"On {said}."


_BIRTHDAY = re.compile(r"\b(?:birthday|born)\b", re.I)
_MINE = re.compile(r"\b(?:my birthday|I was born|I'm born|I turn)\b", re.I)


def _birthday_told(recall: RecallResult, *, look: int = 3, max_chars: int = 300) -> str | None:
    """No fact of a birthday: the day of the year the best words on one name ("It's Jess's birthday on the 3rd of
    March, she's my wife" -> "On 3 March."), when they are about the one asked: every other word of the question
    is in them ("my wife's", "Jess's"), or the one asked said "my birthday" or "I was born". The year those words
    fall in is no part of the answer (the small model said "On 3 March 2025")."""
    if not recall.episodes_relevant:
        return None
    who = set(terms(recall.question)) - set(terms("birthday born"))
    if not who and not FIRST_PERSON_RE.search(recall.question):
        return None
    for e, text in _told(recall, look, max_chars):
        mine = bool(_MINE.search(text)) and (who <= set(terms(e.speaker)) if who else e.speaker == "user")
        if not _BIRTHDAY.search(text) or not (mine or (who and who <= set(terms(e.text)))):
            continue
        meant = _meant(text, e.at)
        if meant is not None and meant[1].grain == "day":
            return f"On {meant[1].when.day} {meant[1].when.strftime('%B')}."
        if meant is not None and meant[1].grain == "month":  # "…for my birthday in May": the month is all there is
            return f"In {meant[1].when.strftime('%B')}."
    return None


_STILL = re.compile(r"^\s*(am|is|are|do|does|have|has)\b[^?]*\bstill\b", re.I)


def no_longer(recall: RecallResult) -> str | None:
    """Asked whether something still holds ("Am I still vegan?", "Do I still live in Leeds?", or of the user
    without "still": "Am I vegan?") when the facts of it found all ended: "No, not since 12 June 2026." (the small
    model, given "User diet vegan (… until 12 June 2026)", said "Yes"; without "still", memory said "You haven't
    told me"). Asked with "still", when one still holds but words said later on its topic say something changed
    ("so glad I left the cafe", which learning did not read as the end of the job): those words, not a "yes". None
    when one still holds and nothing later says otherwise, or none found is of what is asked (the model's)."""
    still = bool(_STILL.match(recall.question))
    if not still and not NOW_MINE.match(recall.question):
        return None  # asked without "still" ("Am I vegan?"), only an end of every fact of it is said
    asked = set(terms(recall.question))
    first_person = bool(FIRST_PERSON_RE.search(recall.question))
    # "Does my mum still work?": the mother's facts, not the user's
    whose = set(recall.seeds) if recall.intent.roles else {USER_ID} if first_person else set(recall.seeds)
    # a symmetric fact held from the other side is the user's too ("Elena partner_of User": "still with Elena?")
    mine = [(a, a.object) for a in recall.facts if a.expired_at is None and a.subject_id in whose] + [
        (a, a.subject) for a in recall.facts if a.expired_at is None and a.object_id in whose
        and a.subject_id not in whose and is_relation(a.relation) and relation(a.relation).symmetric]
    # what it is, said whole or by two of its words ("the Red Lion" for `works_at Red Lion pub`)
    about = [a for a, other in mine if set(terms(other)) and (set(terms(other)) <= asked or len(
        set(terms(other)) & asked) >= 2)] or [
        # "a member of the gym": PureGym; a diet says what is not eaten, so it is no fact of the food asked; a pet
        # of another kind than the one asked is none ("Do we have a dog?" of a hamster gone: not "not since…")
        a for a, _ in mine if a.relation in recall.intent.relations and a.relation != "diet"
        and not _of_another_kind(a, recall, asked)] or _told_with(
        [a for a, _ in mine if a.relation != "diet"], recall, asked - _ROLE_TERMS - {"still"})
    if not about:
        return None
    current = [a for a in about if a.current]
    if not current:
        return f"No, not since {spoken_day(max(a.valid_to for a in about if a.valid_to is not None))}."
    if not still:
        return None
    since = max(a.valid_from for a in current)
    if (moved_on := _new_employer(current, recall, since)) is not None:
        return moved_on
    topic = asked - {"still"}
    speaker = "user" if first_person else recall.asked
    later = [e for e in recall.episodes if e.at > since and e.speaker == speaker
             and topic & set(terms(e.text)) and says_a_change(e.text)] if recall.episodes_relevant else []
    if not later:
        return None
    return _maybe_not(max(later, key=lambda e: e.at), recall.question)


_PET_TERMS = frozenset(terms(" ".join(PETS)))
_KIND = {stem(w): stem(kind) for w, kind in KIND_OF_PET.items()}  # a breed's kind, as keyed


def _new_employer(current: list[Arc], recall: RecallResult, since: datetime) -> str | None:
    """Asked whether a job still holds ("Am I still a postie?") when a newer employer of the same one is held
    ("Started on the line at the Jaguar plant"): the post told before went with the old work. (A newer post at the
    same employer, a promotion, puts no doubt on the employer.)"""
    if not current or any(a.relation != "works_as" for a in current):
        return None
    whose = {a.subject_id for a in current}
    newer = [a for a in recall.facts if a.current and a.relation == "works_at" and a.subject_id in whose
             and a.valid_from > since and a.object]
    if not newer:
        return None
    a = max(newer, key=lambda a: a.valid_from)
    who = "you" if a.subject_id == USER_ID else a.subject
    return f"Maybe not: {who} started at {a.object} on {spoken_day(a.valid_from)}."


def _of_another_kind(a: Arc, recall: RecallResult, asked: set[str]) -> bool:
    """The fact's object is known to be of a kind of pet (its `is_a` among the facts found), and the question names a
    kind of pet that is not it. A breed is no other kind ("a retired greyhound" asked as a dog)."""
    named = {_KIND.get(t, t) for t in asked & _PET_TERMS}
    kinds = {_KIND.get(t, t) for k in recall.facts if k.relation == "is_a" and k.subject_id == a.object_id
             for t in terms(k.object) if t in _PET_TERMS}
    return bool(named and kinds and not named & kinds)


_BE_ASKS = frozenset({"am", "is", "are"})


def diet_leaves_out(recall: RecallResult) -> str | None:
    """Asked whether someone eats or drinks a thing now ("Do I eat meat?", "Does Anna drink wine?") when a diet
    they hold now leaves it out ("I've been pescatarian since uni"): "No, you're pescatarian." The small model,
    given "User diet pescatarian", said "Yes."; memory.words.DIET_EXCLUDES is the table. None otherwise."""
    aux = yes_no(recall.question)
    if aux is None or aux.past or recall.question.split()[0].lower() in _BE_ASKS:
        return None  # "Am I allergic to shellfish?", "Is Rob gluten-free?" ask the state itself, not a food
    asked = set(terms(recall.question))
    mine = bool(FIRST_PERSON_RE.search(recall.question)) and not recall.intent.roles
    whose = {USER_ID} if mine else set(recall.seeds)
    for a in recall.facts:
        diet = terms(a.object)[:1]
        if a.relation == "diet" and a.current and a.subject_id in whose and diet and any(
                diet[0] in _DIET_LEAVES_OUT.get(w, ()) and not _still_had(recall, w) for w in asked):
            return f"No, {'you are' if a.subject_id == USER_ID else a.subject + ' is'} {a.object}."
        if a.relation == "has_condition" and a.current and a.subject_id in whose and asked & _CONDITION_LEAVES_OUT.get(
                a.object.lower(), frozenset()):  # "Can Sarah eat gluten?" of a coeliac: no
            return f"No, {'you have' if a.subject_id == USER_ID else a.subject + ' has'} {a.object}."
        if a.relation in ("allergic_to", "avoids") and a.current and a.subject_id in whose and asked & (
                set(terms(a.object)) | _ALLERGY_LEAVES_OUT.get(a.object.lower(), frozenset())):
            # "Can Rob eat bread?" of "Rob has gone gluten-free": the foods of its kind, as for an allergy
            said = f"allergic to {a.object}" if a.relation == "allergic_to" else f"{a.object}-free"
            return f"No, {'you are' if a.subject_id == USER_ID else a.subject + ' is'} {said}."
    return None


def _still_had(recall: RecallResult, food: str) -> bool:
    """Words found that keep ``food`` beside a diet ("went vegetarian last year but he still eats fish", "vegan
    apart from cheese"): the diet's table does not answer for it."""
    kept = re.compile(rf"\b(?:still|except(?:\s+for)?|apart\s+from|other\s+than|but)\b[^.!?]*?\b{re.escape(food)}",
                      re.I)
    found = [m.group(0) for e in recall.episodes if (m := kept.search(e.text))] if recall.episodes_relevant else []
    return any(not re.search(r"\bnot\b|n['’]t\b|\bnever\b|\bno\b", said, re.I) for said in found)


def _told_with(facts: list[Arc], recall: RecallResult, topic: set[str]) -> list[Arc]:
    """The facts learned from words found that say the topic asked ("Does my dad still drive buses?": `works_at
    Arriva`, learned from "My dad drives buses for Arriva"): what the words said is what the fact stands for."""
    if not recall.episodes_relevant or len(topic) < 2:
        return []
    # the words it was learned from (not its end's), in the clause that says the topic: "I've never been one for
    # spicy food, … so I'm dreading this work trip to Penang" says nothing of spicy food in the trip
    said = {e.id: [set(terms(c)) for x in _clauses(e.text) for c in x] for e in recall.episodes}
    return [a for a in facts if a.sources[:1] and any(
        len(topic & c) >= 2 and set(terms(a.object)) <= c for c in said.get(a.sources[0], []))]


def _maybe_not(e: Episode, question: str) -> str:
    return f"Maybe not: {_said_on(e, question)}"


def said_on(e: Episode, question: str, *, beside: Callable[[str], bool] | None = None, max_chars: int = 160) -> str:
    """'On 15 September 2026 you said "Sold the Corsa…"' (``beside``: as for ``memory.search.focus``)."""
    return _said_on(e, question, start="On", beside=beside, max_chars=max_chars)


def _said_on(e: Episode, question: str, *, start: str = "on", beside: Callable[[str], bool] | None = None,
             max_chars: int = 160) -> str:
    """'on 15 September 2026 you said "Sold the Corsa…"': the words, of the question's topic, and when and whose."""
    who = "you" if e.speaker == "user" else e.speaker
    return f'{start} {spoken_day(e.at)} {who} said "{focus(e.text, question, max_chars, beside=beside)}"'


def yes_no(question: str) -> Aux | None:
    """What the auxiliary a yes/no question opens with says ("Do I drink coffee?", "Did I…?"), or None."""
    words = question.split(maxsplit=1)
    return AUXILIARIES.get(words[0].lower()) if words else None


_YES = re.compile(r"^\W*yes\b", re.I)
_SENTENCE_END = re.compile(r"[.!?;]+")
# where a clause ends: punctuation, a conjunction, or a subordinate clause's opening ("I haven't been climbing since
# I hurt my shoulder": the "not" is of the climbing, not of the hurt)
_CLAUSE_END = re.compile(r"[,:]|\b(?:but|so|because|though|although|and|since|until|unless|while|whereas)\b", re.I)
_BACK = frozenset({"one", "ones", "it", "them", "any", "that"})  # "…allergic to cats so we can't get one"
_BACK_TOO = _BACK | {"they", "those"}  # what distaste is said of: "…, they were vile"
_TASTE_ASKED = re.compile(rf"\b(?:{alternation(TASTE_WORDS)})\b", re.I)
_ROLE_TERMS = frozenset(terms(" ".join(ROLES)))


# words a question asks with that say no thing done ("How does Tim feel while surfing?": the surfing is asked)
_ASKING_VERBS = frozenset(terms("feel felt think thought like love want know go get have do make say see look need "
                                "find keep take"))


def they_deny(question: str, recall: RecallResult) -> Episode | None:
    """Asked what, how or why of something the one asked about says they do not do ("How does Tim feel while
    surfing?" — Tim: "I don't surf, but reading a great fantasy book helps me escape"), and no words of theirs
    found say they do it: there is nothing of theirs to answer from, whatever the model makes of the rest. A clause
    of their own ("I" said) denies it; one that says it of the one they speak to ("same as surfing is for you")
    says it of no one of theirs. Not a yes/no question (``said_otherwise``). The asked is ``recall.asked``, or the
    user asked about themselves. The words that deny it; None when nothing does."""
    if yes_no(question) is not None or not recall.episodes_relevant:
        return None
    mine = bool(FIRST_PERSON_RE.search(question)) and not recall.intent.role_words
    who = "user" if mine else recall.asked.lower()
    if not who:
        return None
    names = {t for n in recall.asked.split() for t in terms(n)}
    topic = set(terms(question)) - names - _ROLE_TERMS - _ASKING_VERBS
    denied: Episode | None = None
    for e in recall.episodes:
        if e.speaker.lower() != who:
            continue
        for clauses in _clauses(e.text.replace("’", "'")):
            for c in clauses:
                said = topic & set(terms(c))
                if not said or not _OWN.search(c):
                    continue
                if not (_denies(c, said) and _NEGATED_DOING.search(c)):
                    return None  # words of theirs say they do it
                if not _denied_whole(c, said):
                    continue  # "I don't drink coffee at all, just builder's tea": coffee is denied, not drinking
                denied = denied or e
    return denied


def _denied_whole(clause: str, said: set[str]) -> bool:
    """What the clause denies is the topic itself, with no object after it ("I don't surf", "I've never skied");
    not one thing of it ("I don't drink coffee at all": drinking is not denied)."""
    words = [w.lower() for w in _WORD.findall(clause.lower())]
    at = max((k for k, w in enumerate(words) if said & set(terms(w))), default=None)
    return at is not None and all(w in _AFTER_A_DENIAL for w in words[at + 1:])


# what may follow a denied doing and leave it whole: "I don't surf at all", "I never ski any more"
_AFTER_A_DENIAL = frozenset("at all much any anymore more either now really though these days ever often again "
                            "since".split())
# a denial of doing, said by the speaker: "I don't surf", "I've never skied", "we never go camping"
_NEGATED_DOING = re.compile(
    r"\b(?:I|we)(?:\s+do\s+not|\s+don't|\s+never|\s+have\s+never|'ve\s+never|\s+haven't\s+ever)\b", re.I)


def said_otherwise(answer: str, recall: RecallResult, *, look: int = 3, yes: bool | None = None) -> str | None:
    """A "yes" to a yes/no question ("Have I been to Japan?", "Am I going to Crete?") when the newest of the best
    utterances that speak of its topic says, in the clause that does or one right after it that points back to
    it ("…allergic to cats so we can't get one"), that it ended, did not happen or does not hold ("I've never been
    to Japan", "We had to cancel Crete"): those words instead. The small model said "Yes." to five such questions
    of eight in a holdout. "My dog hates rain, he won't go out" denies no dog. The topic is the question's words
    but roles and "still"; asked about the user, only the user's words count.
    Asked about the user's own life, a yes that no fact held now backs ("Do I have a cat?" after "We're looking
    after my neighbour's cat") is not said either: the newest words on it are, for the user to judge ('On 14 May
    2026 you said "…"'). ``yes``: the caller's reading of the answer as a yes (default: it opens "Yes"). None:
    not a yes, or nothing found says otherwise. (A question that asks to reason, "Is it likely that…", is the
    caller's to leave out.)"""
    if not (_YES.match(answer) if yes is None else yes) or yes_no(recall.question) is None or (
            not recall.episodes_relevant):
        return None
    topic = set(terms(recall.question)) - _ROLE_TERMS - {"still"}
    mine = bool(FIRST_PERSON_RE.search(recall.question))
    # a diet said speaks of the foods it leaves out ("I went vegetarian" for "Do I eat meat?"), and denies them;
    # a car is said by its make or model ("Sold the Golf" for "Do I own a car?")
    diets = {d for w in topic for d in _DIET_LEAVES_OUT.get(w, ())}
    asked = set(topic)  # the words asked, each of which words said back as so must say
    topic |= {m for w in topic for m in _SAID_BY.get(w, ())} | _parts_said(recall.question, recall.episodes[:look])
    watched = topic | diets
    # asked about a taste, distaste said of the topic denies it ("Olives are just wrong, I pick them off")
    tasted = bool(_TASTE_ASKED.search(recall.question))
    # the outcome asked, said the other way ("Megan failed, bless her" for "Did Megan pass her driving test?")
    opposed = {t for w in asked for o in _OPPOSED.get(w, ()) for t in terms(o)}
    asks_ahead = bool(_ASKS_AHEAD.search(recall.question))  # "Is Dan getting married?" asks the plan itself
    found: list[tuple[Episode, bool]] = []
    for e in recall.episodes[:look]:
        if mine and e.speaker != "user":
            continue
        sentences = _clauses(e.text)
        said = [[set(terms(c)) for c in clauses] for clauses in sentences]
        if not any(watched & w for words in said for w in words):
            continue
        named = any(topic & w for words in said for w in words)  # "vegetarian but I still eat fish": its own words
        denied = False
        for clauses, words in zip(sentences, said, strict=True):
            on = [bool(watched & w) for w in words]
            for i, c in enumerate(clauses):
                said_words = set(_WORD.findall(c.lower()))
                distaste = tasted and bool(DISTASTE & said_words)
                if on[i] and diets & words[i] and not named:
                    denied = True
                elif on[i]:
                    denied = denied or _denies(c, watched) or distaste or (not asks_ahead and _ahead(c, topic)) or (
                        bool(opposed & words[i]) and _outcome_of(c, opposed, asked))
                elif i > 0 and on[i - 1]:
                    # "…, honestly it was dreadful": distaste said of what the clause before spoke of
                    denied = denied or _denies(c, _BACK) or (distaste and bool(_BACK_TOO & said_words))
        found.append((e, denied))
    if not found:
        # no words of the user's say the topic's ("Do we own a dog?" — "We're fostering a greyhound called Pixie
        # until the rescue finds her a home"), or only a guest's do ("Do I have a cat?" — "I've got a huge ginger
        # tomcat"): the yes is the model's reading of other words. About the user's own life, with no fact behind
        # it, the best of those words are said instead, with whose they are, for the user to judge.
        near = [e for e in recall.episodes[:look] if "v" in e.matched or (e.speaker != "user" and topic & set(
            terms(e.text)))]
        if not mine or not near or _backed(recall, topic):
            return None
        return _said_on(near[0], recall.question, start="On")
    e, denied = max(found, key=lambda x: x[0].at)
    if denied and not _held_since(recall, topic, e):
        return _maybe_not(e, recall.question)
    if mine and not _backed(recall, topic):
        quoted = _said_on(e, recall.question, start="On")  # the user's words (``mine``)
        # words of their own that say it so back the yes, and are said with it, since no fact does; words that
        # say it only of someone else ("My mate Hannah got engaged" for "Am I engaged?") are no yes at all
        if _said_so(e.text, recall.question, asked):
            return f"Yes. {quoted}"
        return quoted if _of_their_own(e.text, topic) else f"Not that you've told me. {quoted}"
    return None


def _parts_said(question: str, episodes: Sequence[Episode]) -> set[str]:
    """The terms of words the utterances say that a word of the question is made of: "kite" of "kitesurfing" ("Sold
    the kite and the board" speaks of it), "bell" of "bellringing" (each part four letters or more)."""
    asked = [w for w in re.findall(r"[a-z]+", question.lower()) if len(w) >= 8]
    said = {w for e in episodes for w in re.findall(r"[a-z]+", e.text.lower()) if len(w) >= 4}
    return {t for w in asked for part in said if w != part and len(w) - len(part) >= 4 and w.startswith(part)
            for t in terms(part)}


_OWN = re.compile(r"\b(?:i|i'm|i've|i'd|we|we're|we've|we'd)\b", re.I)
_HAVING_ASKED = re.compile(r"^\W*(?:do|does|did|have|has)\s+(?:i|we)\s+(?:still\s+)?(?:have|got|own)\b", re.I)
_HAVING = re.compile(r"\b(?:have|has|had|got|own|owns)\b|'ve\b", re.I)
_WHOSE = re.compile(r"\b(?!(?:it|that|he|she|there|what|who|here|where|let)'s\b)[a-z]+'s\b", re.I)


def _own(clause: str, topic: set[str]) -> bool:
    """The clause says "I" or "we", or "my"/"our" just before a word of the topic, its "I" left out ("Finally got
    my allotment!")."""
    return bool(_OWN.search(clause)) or any(  # the thing itself after "my", not one of their people ("my mum")
        topic & set(terms(m.group(1).split()[-1])) and not _ROLE_TERMS & set(terms(m.group(1)))
        for m in _MY_THING.finditer(clause))


_MY_THING = re.compile(r"\b(?:my|our)\s+((?:[\w-]+\s+)?[\w-]+)", re.I)


def _of_their_own(text: str, topic: set[str]) -> bool:
    """A clause that speaks of the topic says "I" or "we" (or "my" of it): the user's own life, whatever else it
    says."""
    return any(topic & set(terms(c)) and _own(c, topic) for clauses in _clauses(text.replace("’", "'"))
               for c in clauses)


def _said_so(text: str, question: str, topic: set[str]) -> bool:
    """The user's words say the question back as so, in a clause of their own without a denial: "I've been
    gluten-free for two years now" for "Am I gluten-free?", "I started eating fish again" for "Do I eat fish?".
    Not "We're looking after my neighbour's cat" for "Do I have a cat?": someone else's, and no having said."""
    if not topic:
        return False
    having = bool(_HAVING_ASKED.search(question))
    now = not (aux := yes_no(question)) or not aux.past  # "Do I row?", not "Did I row at uni?"
    return any(topic <= set(terms(c)) and _own(c, topic) and not _WHOSE.search(c) and not _denies(c, topic)
               and not _USED_TO.search(c) and not (having and not _HAVING.search(c))
               and not (now and in_a_time_gone(_WORD.findall(' '.join(clauses).lower())))
               for clauses in _clauses(text.replace("’", "'")) for c in clauses)


def _clauses(text: str) -> list[list[str]]:
    """The text's sentences, each as its clauses (none blank)."""
    return [[c for c in _CLAUSE_END.split(x) if c and c.strip()] for x in _SENTENCE_END.split(text)]


_USED_TO = re.compile(r"\bused\s+to\b", re.I)  # "I used to row at uni": so then, not now


def _held_since(recall: RecallResult, topic: set[str], e: Episode) -> bool:
    """A fact of the asked relation held now, of the topic, was told in these words or after them: they turned it
    round ("I used to hate olives but now I can't get enough of them") or were overtaken, and deny nothing now."""
    return any(a.current and a.relation in recall.intent.relations and topic & fact_terms(a) and (
        e.id in a.sources or a.valid_from >= e.at) for a in recall.facts)


def _backed(recall: RecallResult, topic: set[str]) -> bool:
    """A fact held now says something of the topic about the user, or about what is theirs ("Rex is a dog" beside
    "User has_pet Rex")."""
    theirs = {USER_ID} | {a.object_id for a in recall.facts if a.current and a.subject_id == USER_ID}
    return any(a.current and (a.subject_id in theirs or a.object_id == USER_ID) and topic & fact_terms(a)
               for a in recall.facts)


_DENIALS = frozenset({"never", "not", "cannot", "no"})
_OPPOSED = {stem(w): others for w, others in OPPOSITE_OUTCOMES.items()}
# said after what it ends: "New Zealand didn't work out", "the job never worked out"
_WORKED_OUT = re.compile(r"\b(?:didn['’]?t|did not|never|hasn['’]?t|has not)\s+work(?:ed)?\s+out\b", re.I)
_WORD = re.compile(r"[a-z']+")


# what is still to come: "is getting married", "is going to be", "will get", "'ll be"
_GETTING = re.compile(r"\b(?:getting|going\s+to\s+(?:get|be)|will\s+(?:get|be)|'ll\s+(?:get|be))\s+(.*)", re.I)
_ASKS_AHEAD = re.compile(r"\b(?:getting|going|will|gonna)\b|'ll\b|\w+ing\b\W*$", re.I)


# the verb asked of, said of a time to come: "I retire from the bank next June", "we're moving in the spring"
_VERB_AHEAD = re.compile(r"\b(?:i|we|you|he|she|they)(?:\s*'m|\s*'re|\s*'s|\s+am|\s+are|\s+is)?\s+(\w+)\b"
                         r"(?=.*\b(?:next|tomorrow|soon|in\s+(?:a|an|\d+|\w+)\s+(?:days?|weeks?|months?|years?)|"
                         r"in\s+the\s+(?:spring|summer|autumn|fall|winter|new\s+year))\b)", re.I)


def _ahead(clause: str, about: frozenset[str] | set[str]) -> bool:
    """The clause says what is asked is still to come ("My brother Dan is getting married to Chloe next June"
    for "Is Dan married?", "I retire from the bank next June" for "Am I retired?"): the state is not so yet."""
    text = clause.replace("’", "'")
    m = _GETTING.search(text)
    if m is not None and about & set(terms(" ".join(m.group(1).split()[:2]))):
        return True
    return any(about & set(terms(v.group(1))) for v in _VERB_AHEAD.finditer(text))


def _outcome_of(clause: str, opposed: set[str], asked: set[str]) -> bool:
    """The outcome said in the clause is of what was asked: said bare ("Megan failed") or of a thing asked ("We lost
    the quiz"); not of another ("Megan failed her practical" for "Did Megan pass her theory?")."""
    words = clause.split()
    at = next((k for k, w in enumerate(words) if opposed & set(terms(w))), None)
    if at is None:
        return False
    rest = set(terms(" ".join(words[at + 1 :])))
    return not rest or bool(rest & asked)


def _denies(clause: str, about: frozenset[str] | set[str]) -> bool:
    """The clause says an end or a denial of what it speaks of: a denial ("never", "can't") before it ("I've never
    been to Japan", not "My dog can't stand thunder" nor "I can't start the day without coffee"), an end
    ("cancelled", "sold", "retired") on either side ("We cancelled Crete", "Gym membership cancelled")."""
    words = clause.split()
    asked = {k for k, w in enumerate(words) if about & set(terms(w, stop=frozenset()))}
    if not asked:
        return False
    at = min(asked)
    if (gave_out := _WORKED_OUT.search(clause)) is not None and len(" ".join(words[: at + 1])) <= gave_out.start():
        return True  # "New Zealand didn't work out": what was tried ended
    for k in range(len(words)):
        # the thing asked is no end of itself ("Am I retired?" "Before I retired I was a postman"; "Is Des
        # retired?" "My uncle Des is a retired fireman")
        if k not in asked and says_an_end(" ".join(w for j, w in enumerate(words[: k + 1]) if j not in asked)):
            cue = words[k].lower().replace("’", "'")
            denial = cue.endswith("n't") or cue.strip(",.!?") in _DENIALS
            if denial and any(w.lower() == "without" for w in words[k + 1 : at]):
                return False  # "I can't start the day without a strong coffee": two denials say yes
            return not denial or k <= at
    return False


# a kind of thing -> the terms it is said by: a car by its make or model, a diet by its other names ("veggie"),
# an animal by its young ("a rescue kitten")
_SAID_BY = {**{terms(v)[0]: frozenset(t for w in CAR_BRANDS | CAR_MODELS for t in terms(w))
               for v in ("car", "cars") if terms(v)},
            **{terms(d)[0]: frozenset(t for w, same in DIET_NAMES.items() if same == d for t in terms(w))
               for d in set(DIET_NAMES.values()) if len(terms(d)) == 1},
            **{terms(kind)[0]: frozenset(terms(young)[0] for young, same in YOUNG_ANIMALS.items() if same == kind)
               for kind in set(YOUNG_ANIMALS.values())}}
# a food's term -> the terms of the diets that leave it out
_DIET_LEAVES_OUT = {terms(food)[0]: frozenset(terms(d)[0] for d in diets if len(terms(d)) == 1)
                    for food, diets in DIET_EXCLUDES.items() if terms(food)}  # not "plant-based": "plant"…


# a condition -> the terms of the foods it leaves out
_CONDITION_LEAVES_OUT = {c: frozenset(t for w in foods for t in terms(w)) for c, foods in CONDITION_EXCLUDES.items()}
_ALLERGY_LEAVES_OUT = {a: frozenset(t for w in foods for t in terms(w)) for a, foods in ALLERGEN_FOODS.items()}


def planned_for(recall: RecallResult) -> str | None:
    """Asked when a plan is for ("When am I going to Lisbon?"), the time the plan was told with ("April 2026."),
    from a plan still open whose object the question names; None when there is none, or two disagree."""
    asked = set(terms(recall.question))
    times = {a.planned_for for a in recall.facts if a.planned_for and a.current
             and set(terms(a.object)) and set(terms(a.object)) <= asked}
    if len(times) != 1:
        return None
    said = spoken_grain(times.pop())
    return f"{said[:1].upper()}{said[1:]}."


_WEEKDAY_NAMED = re.compile(rf"\b(?:{alternation(calendar.day_name)})s?\b|\bweekends?\b", re.I)


def how_often(recall: RecallResult, *, look: int = 3, max_chars: int = 300) -> str | None:
    """Asked when something is done, in the present ("When is my yoga class?"), and the best words found say how
    often ("I've got yoga every Tuesday evening"): that, as said ("Every Tuesday evening."). The day it was said,
    or a date, would be wrong. None when the question is about the past, or the best words with a time name a
    date rather than a repeat."""
    if not recall.episodes_relevant or tense(words_of(recall.question)) == "past":
        return None
    topic = _topic(recall)
    day = asks_a_weekday(recall.question)
    for e, text in _told(recall, look, max_chars):
        # (a repeat said of something else is none: "Drilling at half seven every single morning" for when the
        # extension is meant to be finished; nor, asked what day, one that names none: "every single week")
        if (often := recurrence(text)) is not None and _on_topic(text, often, topic) and not (
                day and not _WEEKDAY_NAMED.search(often)) and not _dated_beside(text, often, recall.question, e.at):
            return f"{often[:1].upper()}{often[1:]}."
        if _meant(text, e.at) is not None:
            return None
    return None


def _dated_beside(text: str, often: str, question: str, at: datetime) -> bool:
    """A repeat said in a clause without the thing asked of, beside a time that is a date: "It's Stray Kids in the
    truck every morning now, and I've got us two tickets for their show on the 13th of June", asked "When is the
    Stray Kids concert?" (the thing asked is the question's last word, asked as one: "When is the…")."""
    if not _ONE_THING.match(question):  # "When is my yoga class?": a thing of the user's, which may be a habit
        return False
    asked = terms(question)[-1:]
    clause = next((c for c in CLAUSE_CUT.split(text) if often.lower() in c.lower()), "")
    return bool(asked) and asked[0] not in terms(clause) and _meant(text.replace(often, ""), at) is not None


_ONE_THING = re.compile(r"^\s*when(?:\s+is|['’]s)\s+the\b", re.I)  # "When is the concert?": one, not a habit


def _on_topic(text: str, said: str, topic: frozenset[str] | set[str]) -> bool:
    """The sentence of ``text`` that says ``said`` shares a word with ``topic`` (no topic: any)."""
    return not topic or any(said.lower() in s.lower() and topic & set(terms(s)) for s in _SENTENCE_END.split(text))


def _told(recall: RecallResult, look: int, max_chars: int,
          skip: frozenset[str] = frozenset()) -> list[tuple[Episode, str]]:
    """The ``look`` best utterances found (less those in ``skip``, and those that ask about the topic rather than
    tell it: "When are you opening the studio?"), each with the part of it that bears on the question; words that
    moved the time of what is asked first (``time_moved_first``)."""
    topic = set(terms(recall.question)) - set(terms(recall.asked))
    asked = " ".join([recall.question, *told_as(recall.question)])  # "buried": the sentence of the funeral too
    return [(e, focus(e.text, asked, max_chars, beside=says_when)) for e in time_moved_first(recall)[:look]
            if e.id not in skip and not asks(e.text, topic)]


# a time moved, said with where to, or said to be moved with the new time told apart ("Change of plan, Hannah's
# flight's been moved. She's not coming in on the 3rd now, it's Saturday the 5th."), or a time reckoned anew
# ("Dave's now saying February")
_MOVED_TO = re.compile(TIME_MOVED + r"|\b(?:change\s+of\s+plans?|(?:been|got|was|is|'s)\s+(?:moved|postponed|"
                       r"rescheduled|put\s+back|pushed\s+back|brought\s+forward)|now\s+(?:saying|says|reckons|"
                       r"reckoning|thinks|expecting|looking\s+at))\b"
                       r"|\bnot\b[^.;]{0,40}?\b(?:now|any\s*more)\s*,\s*(?:it['’]s|it\s+is|now)\b"
                       r"|\bnot\b[^.;,]{0,40}?\b(?:till|until)\b[^.;,]{1,40}?\bnow\b",
                       re.I)  # ("it's not tomorrow now, it's Tuesday"; "we're not moving till the 16th now")


def time_moved_first(recall: RecallResult) -> list[Episode]:
    """The utterances found, best first, unless newer words than the best moved the time of what is asked ("They've
    moved the wedding to August", told after "My brother's wedding is on 12 June"): the newest of those first, or
    the old date is read (the small model, and ``time_meant``, take the first words with a time)."""
    eps = list(recall.episodes)
    if not eps:
        return eps
    asked = set(terms(recall.question))
    moved = [e for e in eps[1:] if e.at > eps[0].at and _MOVED_TO.search(e.text) and asked & set(terms(e.text))]
    if not moved:
        return eps
    newest = max(moved, key=lambda e: e.at)
    return [newest, *(e for e in eps if e is not newest)]


def time_meant(recall: RecallResult, *, look: int = 3, max_chars: int = 300, skip: frozenset[str] = frozenset(),
               named_only: bool = False, now: datetime | None = None) -> tuple[datetime, str, str] | None:
    """The time the best words found for a "when" question mean (``when_answer``): the moment, as people say it,
    and the utterance's id; None when none of the ``look`` best (less those in ``skip``) bears on it with a time
    (``named_only``: with a time its words name, not the day they were said)."""
    if not recall.episodes_relevant:
        return None
    told = _told(recall, look, max_chars, skip)
    asked_in = tense(words_of(recall.question))
    # "When is our anniversary?" asks of what is to come: a weekday in words that give no tense is the next one
    ahead = asked_in or ("future" if _ASKS_WHEN_IS.match(recall.question) else None)
    topic = _topic(recall)
    found = [(e, meant) for e, text in told if (meant := _meant(
        text, e.at, tense_else=ahead, topic=topic, ahead=ahead == "future" and asked_in != "past")) is not None]
    if now is not None and ahead == "future" and asked_in != "past":  # asked of what is to come: a time still to
        # come ("next Easter Saturday", told after "he asked her on Saturday"), if the words found name one
        found = [f for f in found if f[1][1].when.date() >= now.date()] or found
    # the moment asked ("When was the roofer starting?"), said with a time, outweighs a time said beside the thing
    # alone ("a roofer… he's coming round the day after tomorrow" before "he can't start till the ninth of February")
    moment = topic & MOMENT_TERMS
    said_it = [(e, meant) for e, meant in found if moment & set(terms(meant[0]))] if moment else []
    # and a time said in a sentence on the topic outweighs one said beside it in better-matched words ("Griha pravesh
    # is done! … Now only the small matter of shifting the furniture on the 1st": the day it was fixed for)
    on_topic = [(e, meant) for e, meant in found if topic & set(terms(meant[0]))] if topic else []
    if chosen := said_it or on_topic or found:
        e, meant = chosen[0]
        return meant[1].when, meant[2], e.id
    if named_only:
        return None
    # no time named: asked about the past, the day it was told, unless it was told as still to come ("I'm
    # opening a studio") or names a time that could not be read ("on the 5th"); never for a question in the
    # present ("When is my lesson?" after "Every Tuesday I have a lesson": the day it was said is no answer),
    # nor from words that share nothing with what is asked but a name ("When did Sol and I meet?" is not the day
    # "My partner Sol is a software tester" was said); asked about no one in memory, words that share only one
    # word with it do not tell it ("When did the dinosaurs die out?" is not the day "My nephew Oscar is obsessed
    # with dinosaurs" was said: what happened is no word of theirs)
    least = 1 if recall.personal or recall.asked else 2
    return next(((e.at, spoken_date(e.at), e.id) for e, text in told if asked_in == "past"
                 and tense(words_of(text)) != "future" and not says_when(text)
                 and (not topic or len(topic & set(terms(e.text))) >= min(least, len(topic)))), None)


def _topic(recall: RecallResult) -> set[str]:
    """What a question asks about, less who it asks about: the one asked about, and the names said as the subject
    ("When did Sol and I meet?"; not Max in "When did Nate adopt Max?", what was done)."""
    m = _SUBJECT.match(recall.question)  # (the subject's names and roles: "Uncle Paddy", "my gran")
    named = " ".join(w for w in m.group(1).split() if w[:1].isupper() or w.lower() in ROLES) if m else ""
    said = " ".join([recall.question, *told_as(recall.question)])  # "buried": told as the funeral
    return set(terms(said)) - set(terms(recall.asked)) - set(terms(named))


_WHO_WORD = rf"(?:[A-Z][\w'’-]*|{alternation({'and', 'me', *POSSESSIVES, *ROLES})})"  # "Sol and I", "my sister Ana"
_SUBJECT = re.compile(rf"^\s*\w+\s+(?:{alternation(AUXILIARIES)})\s+({_WHO_WORD}(?:\s+{_WHO_WORD})*)")


def time_since(then: datetime, now: datetime) -> str:
    """How long ago ``then`` was, as people round it: "Yesterday", "Five days ago", "About three weeks ago",
    "About six months ago", "About two years ago"."""
    days = (now.date() - then.date()).days
    if days <= 1:
        return "Today" if days <= 0 else "Yesterday"
    return f"{amount(days, exact_weeks=False)} ago"


def amount(days: int, unit: str | None = None, *, exact_weeks: bool = True, completed: bool = False) -> str:
    """A number of days as people say it, in ``unit`` ("days", "weeks", "months", "years"; None: days under two
    weeks, weeks under eight, months under about two years, then years): "18 days", "Three weeks" (whole weeks,
    unless not ``exact_weeks``), "About seven weeks", "About eight months", "Less than a week", "The same day".
    ``completed``: years as a state held counts them, whole ones gone by ("Over ten years" at ten and a half, not
    "About eleven years")."""
    days = abs(days)
    if unit is None:
        unit = "days" if days < 14 else "weeks" if days < 56 else "months" if days < 700 else "years"
    size = {"days": 1.0, "weeks": 7.0, "months": 30.44, "years": 365.25}[unit]
    if completed and unit == "years" and days / size >= 1:
        full = int(days / size + 0.01)  # (ten years to the day is 3,652 or 3,653 days)
        said = in_words(full)
        text = f"{said} {'year' if full == 1 else 'years'}"
        return f"Over {text}" if days - full * size > 30 else text[:1].upper() + text[1:]
    whole = round(days / size)
    one = unit[:-1]
    if whole == 0:
        return f"Less than a {one}" if unit != "days" else "The same day"
    said = in_words(whole)
    text = f"{said} {one if whole == 1 else unit}"
    exact = unit == "days" or (exact_weeks and unit == "weeks" and days % 7 == 0)
    return text[:1].upper() + text[1:] if exact else f"About {text}"
