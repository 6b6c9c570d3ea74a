"""How many of a kind the user has now, counted from what memory holds rather than read by the model.

"How many guinea pigs have we got?" after "we've come home with two guinea pigs, Custard and Crumble" and, later,
"Custard didn't make it through the night": the small model, handed "User has pet Crumble" and the words, said "You
have two guinea pigs." Memory knows each of them by name, and that one of them is gone: it counts those still held.
Pure logic over a recall's facts and words."""

from __future__ import annotations

import re

from memory.extraction.dates import (
    NUMBER_SAID,
    NUMBERS,
    SMALL_NUMBER_SAID,
    UNITS,
    big_numbers,
    exact_number,
    in_figures,
    in_words,
    slang_money,
)
from memory.model import USER_ID, spoken_day
from memory.recall.recall import RecallResult
from memory.search import terms
from memory.words import CLAUSE_CUT, POSSESSIVES, alternation

# "How many guinea pigs have we got?", "How many goats do we have now?"
_HOW_MANY_HAD = re.compile(r"^\s*how\s+many\s+(?P<kind>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+"
                           r"(?:do\s+(?:i|we)\s+have|have\s+(?:i|we)\s+got|(?:i|we)['’]ve\s+got)\b", re.I)
# "two guinea pigs", "three pygmy goats"
_COUNT_SAID = rf"\b(\d+|{alternation(w for w in NUMBERS if w not in ('a', 'an'))})\s+(?:[\w-]+\s+){{0,2}}?"


def one_of(kind: str) -> str:
    """A kind said as one ("guinea pigs" guinea pig, "ponies" pony, "foxes" fox), in lower case."""
    kind = " ".join(kind.lower().split())
    for many, one in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("xes", "x"), ("s", "")):
        if kind.endswith(many) and len(kind) > len(many) + 1:
            return kind[: -len(many)] + one
    return kind


def pets_now(recall: RecallResult) -> str | None:
    """Asked how many animals of a kind the user has, when memory holds each of them by name and some of them are
    gone (died, or no longer theirs): how many are held now, and their names ("One: Crumble."). None when not so
    asked, when none of the kind is gone or none is left, or when the words found say more of them than memory has
    names for ("four Indian Runners", of which none was named): the model reads the words then."""
    m = _HOW_MANY_HAD.match(recall.question)
    if m is None:
        return None
    kind = one_of(m.group("kind"))
    of_kind = {a.subject_id for a in recall.facts if a.relation == "is_a" and one_of(a.object) == kind}
    held = {a.object_id: a.object for a in recall.facts
            if a.relation == "has_pet" and a.subject_id == USER_ID and a.current and a.object_id in of_kind}
    gone = {a.subject_id for a in recall.facts if a.relation == "died_on" and a.subject_id in of_kind} | {
        a.object_id for a in recall.facts
        if a.relation == "has_pet" and a.subject_id == USER_ID and not a.current and a.object_id in of_kind}
    gone -= set(held)
    if not held or not gone:
        return None
    plural = re.compile(_COUNT_SAID + re.escape(m.group("kind")) + r"\b", re.I)
    said = [exact_number(n) for e in recall.episodes for n in plural.findall(e.text)]
    if any(n is not None and n > len(held) + len(gone) for n in said):
        return None  # more of them were told of than memory knows by name
    names = sorted(held.values())
    return f"{in_words(len(names)).capitalize()}: {listed(names)}."


def listed(names: list[str]) -> str:
    """Names as said in a sentence: "Salt", "Salt and Pepper", "Salt, Pepper and Mustard"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# "How many ducks have we got?", "How many hedgehogs are in at the moment?", "How many kids does Sam have?": a count
# held now (not one done: "How many times…", "How many did I…")
_HOW_MANY_NOW = re.compile(r"^\s*how\s+many\s+(?P<kind>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:do|does|have|has|are|is)\b"
                           r"(?!.*\b(?:did|was|were|had|used)\b)", re.I)
# what says a count is the one held at the time it is said: "down to three now", "Seven in at the moment"
_NOW_MARK = re.compile(r"\b(?:now|at the moment|currently|these days|at present|so far|down to|up to|left|remaining"
                       r"|altogether|in total)\b", re.I)
_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
_A_COUNT = re.compile(rf"(?<![\d.,])({NUMBER_SAID})(?![.,]?\d)(?:\s+([A-Za-z][\w'’-]*))?", re.I)
# words after a number that name nothing counted ("three now", "Seven in at the moment", "two left")
_NO_THING = frozenset({"now", "left", "in", "at", "of", "here", "there", "still", "remaining", "altogether", "all",
                       "and", "so", "then", "on", "out", "with", "today", "between", "total"})
_PARTICIPLE = re.compile(r"..(?:ing|ed)$", re.I)  # "nine coming now", "twelve booked so far": what the count does


def _same_kind(word: str, kind: str) -> bool:
    """"hogs" of "hedgehogs", "ducks" of "ducks": the one word names the kind asked, or its last part."""
    a, b = one_of(word), one_of(kind).split()[-1]
    return len(a) >= 3 and (a == b or b.endswith(a) or a.endswith(b))


def _counts_held(text: str, kind: str) -> list[tuple[int, str, bool]]:
    """The counts the words say are held at the time, each with the sentence that says it and whether the count
    names the kind, of the kind asked or of nothing named ("So we're down to three now"): not "Two more came in",
    "up to six hundred grams", a year."""
    found = []
    for sentence in _SENTENCE.findall(text):
        for clause in CLAUSE_CUT.split(in_figures(sentence)):
            if not _NOW_MARK.search(clause):
                continue
            for n, word in _A_COUNT.findall(clause):
                named = bool(word) and _same_kind(word, kind)
                if (count := exact_number(n)) is None or (n.isdigit() and len(n) == 4) or not (
                        not word or word.lower() in _NO_THING or _PARTICIPLE.search(word) or named):
                    continue
                found.append((count, sentence.strip(), named))
    return found


def count_now(answer: str, recall: RecallResult) -> str | None:
    """Asked how many of a kind are held now, an answer that gives a count said before when later words say another
    count held then ("Four Indian Runners" in April, "So we're down to three now" in June; "Seven in at the
    moment", then "Nine hogs in the spare room now"): the later count, with the words that say it. Only words that
    name the kind (in the count or anywhere in them), or a sentence on what else is asked ("Thanksgiving's down to
    thirteen"), count. An answer that gives no count at all ("We've got ducks!") is answered so too. None when the
    answer gives that count, or one said as late."""
    m = _HOW_MANY_NOW.match(recall.question)
    if m is None or not recall.episodes_relevant:
        return None
    kind = m.group("kind")
    given = numbers_in(answer)
    stem = one_of(kind).split()[-1]
    topic = set(terms(recall.question)) - set(terms(kind))  # "Thanksgiving" of "How many people are coming…"
    held = [(e, n, s) for e in recall.episodes for n, s, named in _counts_held(e.text, kind)
            if named or re.search(rf"\b{re.escape(stem)}", e.text, re.I) or topic & set(terms(s))]
    if not held:
        return None
    e, n, sentence = max(held, key=lambda h: h[0].at)
    said_later = [o for o in recall.episodes if o.at >= e.at and o is not e and given & numbers_in(o.text)]
    if n in given or said_later:
        return None
    who = "you" if e.speaker == "user" else e.speaker
    quoted = sentence if len(sentence) <= 160 else sentence[:157].rsplit(" ", 1)[0] + "…"
    return f'{in_words(n).capitalize()}: on {spoken_day(e.at)} {who} said "{quoted}"'


# a sum of money as said: a currency's sign before the number, or its word after ("£1,800", "eighteen hundred quid",
# "2.5k", "two grand", "forty-five euros", "R350")
_CURRENCY_SIGNS = "£$€¥₹₩₦₱₺₴₫₪"
_CURRENCY_WORDS = tuple("""
quid pound pounds p pence dollar dollars bucks euro euros cent cents yen yuan rmb rupee rupees peso pesos franc francs
krona kronor krone kroner zloty zł rand naira cedi cedis shilling shillings dirham dirhams lira won baht ringgit real
reais rubles roubles forint koruna lei lev dinar dinars riyal riyals kwacha birr soles quetzales
usd eur gbp aud cad nzd chf inr jpy zar ngn kes
""".split())
_SCALE = {"k": 1000, "grand": 1000, "thousand": 1000, "million": 1_000_000, "m": 1_000_000}
_AMOUNT = rf"(\d+(?:\.\d+)?|{SMALL_NUMBER_SAID})"
_SCALES, _CURRENCIES = alternation(_SCALE), alternation(_CURRENCY_WORDS)
_A_SUM = re.compile(rf"(?:[{_CURRENCY_SIGNS}]|\b(?:R|Rs\.?|US\$|A\$|C\$|NZ\$))\s?{_AMOUNT}(?:\s?({_SCALES})\b)?"
                    rf"|(?<![\w.]){_AMOUNT}\s?(?:({_SCALES})\b\s*)?(?:({_CURRENCIES})\b)?", re.I)


def sums_said(text: str, *, bare: bool = False) -> set[int]:
    """The sums of money a text says, whole ("£12.50" 12): a number with a currency's sign or word, or a scale said of
    money ("2.5k", "two grand"); not a count ("four hundred times"). ``bare``: a number said of nothing may be one
    too ("Offer accepted! Two hundred and sixty thousand.", "paid 375 for it"), and so may a price said the short way
    ("it was three seventy-five": 375)."""
    found = {v for _, _, v in slang_money(text)}  # "a fiver"
    plain = without_thousands_commas(in_figures(text))
    for m in _A_SUM.finditer(plain):
        number, scale = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        signed = m.group(1) is not None
        of_nothing = bare and not _A_COUNTED.match(plain, m.end())
        if not (signed or m.group(5) or (scale and scale.lower() in ("k", "grand")) or of_nothing):
            continue
        value = float(number) if number[0].isdigit() else exact_number(number)
        if value is not None:
            found.add(int(value * _SCALE.get((scale or "").lower(), 1)))
    if bare:
        for m in _SHORT_PRICE.finditer(text):
            hundreds, rest = exact_number(m.group(1)), exact_number(m.group(2))
            if hundreds is not None and rest is not None and rest >= 10:
                found.add(hundreds * 100 + rest)
    return found


# a word after a number that names what it counts ("four hundred times", "3 kids"): not "for", "and", "."
_A_COUNTED = re.compile(r"\s*(?!(?:for|and|or|to|in|on|at|each|all|a|an|the|of|off|with|now|so|but|then|quid)\b)"
                        r"[a-z]{2,}", re.I)
# a price said the short way: "three seventy-five" (375), "two ninety-nine"
_SHORT_PRICE = re.compile(rf"\b({alternation(UNITS[:9])})\s+({SMALL_NUMBER_SAID})\b", re.I)


def without_thousands_commas(text: str) -> str:
    """"£1,800" as one number: "£1800"."""
    return re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)


def priced_from_nothing(answer: str, texts: list[str]) -> bool:
    """Asked what something cost, an answer whose sums no words said, nor make from two said or one said a few times
    over ("£40 each, four of us": 160): "Approximately 400 times." when only "fell off about four hundred times" was
    said. An answer with no number says no sum (a refusal, "It was free")."""
    got = sums_said(answer) or numbers_in(without_thousands_commas(answer))
    if not got:
        return False
    said = {n for t in texts for n in sums_said(t, bare=True)}
    times = {n for t in texts for n in numbers_in(t) if 1 < n <= 20}
    made = said | {a + b for a in said for b in said} | {a - b for a in said for b in said} | {
        a * n for a in said for n in times} | {a // n for a in said for n in times if a % n == 0}
    return not got & made


def numbers_in(text: str) -> set[int]:
    """The counts a text says, in figures or words ("four", "9", "two hundred"), not "a" nor a year."""
    return {v for w in re.findall(r"[\w-]+", text) if w.lower() not in ("a", "an") and not re.fullmatch(r"\d{4}", w)
            and (v := exact_number(w)) is not None} | {v for _, _, v in big_numbers(text)}


# what says some of those counted are gone, by a number of them ("A heron had two of my koi", "lost three of the
# hens", "two of our ewes died") or by a name the count was told with ("We lost Mustard on Sunday", "so he's gone to
# live on my brother's farm"): one table, its words as said
_GONE = ("lost", "died", "dead", "killed", "sold", "rehomed", "gave away", "given away", "passed away", "put down",
         "put to sleep", "didn't make it", "did not make it", "gone to live", "went to live")
_GONE_SAID = alternation(_GONE)
_TAKEN_SAID = alternation(("had", "took", "taken", "ate", *_GONE))  # "A fox had two of our hens": a number
_OF_THE = rf"(?:{alternation(POSSESSIVES)}|the)"
# "Three pygmy goats… — Salt, Pepper and Mustard": the ones counted, by name
_NAMES_LISTED = re.compile(r"\b([A-Z][a-z]+)((?:,\s+[A-Z][a-z]+)*),?\s+and\s+([A-Z][a-z]+)\b")


def count_after(answer: str, recall: RecallResult) -> str | None:
    """Asked how many of a kind are held now, an answer that gives a count said before, when later words say some of
    them went or one more came: "Nine fish in it" in April, then "A heron had two of my koi" (seven); "Three pygmy
    goats — Salt, Pepper and Mustard", then "We lost Mustard on Sunday" (two); "Alpaca number three has landed"
    (three). Only words that name the kind or one of those counted by name; only a loss said as done. None when the
    answer gives no single count, or no later words change it."""
    m = _HOW_MANY_NOW.match(recall.question)
    given = numbers_in(answer)
    if m is None or not recall.episodes_relevant or len(given) != 1:
        return None
    n = next(iter(given))
    told = [e for e in recall.episodes if n in numbers_in(e.text)]
    if not told:
        return None
    base = max(told, key=lambda e: e.at)
    stem = re.escape(one_of(m.group("kind")).split()[-1])
    names = _listed_names(base.text, n)
    lost_n = re.compile(rf"\b(?:{_TAKEN_SAID})\s+({NUMBER_SAID})\s+of\s+{_OF_THE}\s+(?:[\w-]+\s+)?{stem}"
                        rf"|\b({NUMBER_SAID})\s+of\s+{_OF_THE}\s+(?:[\w-]+\s+)?{stem}\w*\s+(?:have\s+|has\s+)?"
                        rf"(?:{_GONE_SAID})\b", re.I)
    number_n = re.compile(rf"\b{stem}\w*\s+number\s+({NUMBER_SAID})\b", re.I)  # "Alpaca number three has landed"
    count, why = n, None
    for e in sorted((e for e in recall.episodes if e.at > base.at), key=lambda e: e.at):
        if (total := number_n.search(e.text)) is not None and (k := exact_number(total.group(1))) is not None:
            count, why = k, e
            continue
        lost = sum(exact_number(g.group(1) or g.group(2)) or 0 for g in lost_n.finditer(e.text))
        if not lost and names:  # a name with a loss in its sentence or the next
            said = _SENTENCE.findall(e.text)
            lost = sum(1 for name in names if any(re.search(rf"\b{name}\b", s) and re.search(
                rf"\b(?:{_GONE_SAID})\b", " ".join(said[i : i + 2]), re.I) for i, s in enumerate(said)))
        if lost:
            count, why = count - lost, e
    if why is None or count < 0 or count == n:
        return None
    who = "you" if why.speaker == "user" else why.speaker
    said = [s.strip() for s in _SENTENCE.findall(why.text)]  # the sentence that says the change
    sentence = next((s for rule in (lost_n, number_n, re.compile(rf"\b(?:{_GONE_SAID})\b", re.I)) for s in said
                     if rule.search(s)), why.text.strip())
    quoted = sentence if len(sentence) <= 160 else sentence[:157].rsplit(" ", 1)[0] + "…"
    return (f"{in_words(count).capitalize()}: {in_words(n)} before, and on {spoken_day(why.at)} {who} said "
            f'"{quoted}"')


def _listed_names(text: str, n: int) -> list[str]:
    """The names a count of ``n`` was told with ("Salt, Pepper and Mustard"), when a list of just so many is said."""
    for m in _NAMES_LISTED.finditer(text):
        names = [m.group(1), *re.findall(r"[A-Z][a-z]+", m.group(2)), m.group(3)]
        if len(names) == n:
            return names
    return []
