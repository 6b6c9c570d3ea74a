"""Turn one pattern match in one clause into facts: negation, tense, and the relation handlers."""

from __future__ import annotations

import re
from itertools import pairwise, takewhile

from memory.extraction import dates
from memory.extraction.candidates import iso_at_grain
from memory.extraction.rules_clause import MULTI, NOT_A_TASTE, Clause
from memory.extraction.rules_discourse import PRONOUN_GENDER, Entity
from memory.extraction.rules_lexicon import (
    ACTIVITIES,
    AHEAD,
    BABY_WORDS,
    CALLED_OFF,
    CAR_BRANDS,
    CLASS_NOUNS,
    CONDITION_ADJECTIVES,
    DEPARTMENTS,
    DIET_NAMES,
    DIETS,
    DWELLINGS,
    EVENT_NOUNS,
    FAVOURITE_OF,
    FAVOURITE_PEOPLE,
    FOR_LATER,
    FORMER,
    FREE_OF,
    GERUND_SETTINGS,
    HABIT_NOUNS,
    HABIT_SAID,
    HOBBYISTS,
    HOME_GOT,
    HOW_OFTEN,
    INTENT,
    IRREALIS,
    JOB_HELD,
    JOINED,
    JOINED_NOT_WORK,
    KEPT,
    KIN_POSTS,
    LEFT_BEHIND,
    LIGHT_VERBS,
    NEWBORNS,
    NOT_A_TEAM,
    NOT_ALIVE,
    NOT_LIVED_IN,
    NOT_QUITE,
    OCCUPATIONS,
    PASSED,
    PASTIME_KEEN,
    PETS,
    PLAIN_WORKPLACES,
    PLAN_SKIP,
    RACES,
    RANKS,
    SAME_IN_THE_PAST,
    SET_ASIDE,
    SOFT,
    STAYED,
    STUDY_PLACES,
    STUDYING,
    TOWARDS,
    TRIED_IS_DONE,
    TRIP_WORDS,
    TRY,
    WORKPLACES,
    agent_noun,
    category,
    trade_worker,
)
from memory.extraction.rules_patterns import Match, find_matches, stem
from memory.extraction.rules_tokens import (
    Phrase,
    Tok,
    find_subject,
    name_at,
    named_with,
    names_listed,
    noun_phrase,
    span_text,
)
from memory.extraction.types import USER
from memory.timeutil import spoken_grain
from memory.words import (
    DIET_EXCLUDES,
    FORMER_ROLE,
    HOUSEHOLD_CHILDREN,
    KIN_TITLES,
    MY,
    PAST_PERIODS,
    POSSESSIVES,
    ROLES,
    STILL_NOW,
    TITLED_KIN,
    VAGUE,
    in_a_time_gone,
    said_in,
)

# Words that open a clause of time or cause: a "not" before one is the main clause's ("I haven't been climbing since
# I hurt my shoulder", "I don't eat meat because I love animals")
_OPENS_CLAUSE = frozenset({"since", "until", "till", "after", "before", "when", "whenever", "while", "because"})


def _negated(c: Clause, upto: int) -> bool:
    lo = max((t.i + 1 for t in c.toks[c.lo : upto] if t.lower in _OPENS_CLAUSE and t.dep in ("mark", "advmod")),
             default=c.lo)
    return any(t.dep == "neg" or t.lower in ("not", "n't", "never", "no") for t in c.toks[lo:upto])


def _ceased(c: Clause) -> bool:
    text = " ".join(c.words)
    return any(w in text for w in ("anymore", "any more", "no longer", "any longer"))


def _irrealis(c: Clause, upto: int, plan: bool = False) -> bool:
    """A wish, plan, condition or purpose, not a fact: "if…", "I'd…", "I want to…", "…so (that) I can teach".
    `plan`: the pattern makes plans of intentions ("I'll fly to Rome"), so only wishes and conditions count."""
    opener = _pair_opener(c.toks, c.lo)
    before = c.toks[opener:upto]
    if any(t.lower in IRREALIS and not (plan and t.lower in INTENT) for t in before):
        return True
    # an attempt: "trying to go vegetarian", "I tried to learn the drums" (not "I'm trying kundalini yoga"); trying
    # to learn is learning ("I'm trying to learn Portuguese")
    if any(a.lower in TRY and b.lower == "to" and not (a.tag == "VBG" and c.toks[i + 2].lem in TRIED_IS_DONE)
           for i, (a, b) in enumerate(pairwise(before), start=opener) if i + 2 < len(c.toks)):
        return True
    # a purpose clause: "so" (or "so that") then "can" ("so I can teach others"), unlike "so I moved"
    return bool(before) and before[0].lower == "so" and any(t.lower == "can" for t in before)


def _pair_opener(toks: list[Tok], lo: int) -> int:
    """Where a clause split inside two names ("Tom | and Ana live…", "my sister Ruth | and my brother Owen…")
    opens: back to the punctuation before the pair, so a hedge said before it counts ("Maybe Tom and Ana live…",
    "If Tom and Ana move…")."""
    j = lo + 1  # "…and my brother Owen live…": the second said by a role of the speaker's too
    if j < len(toks) and toks[j].lower in MY:
        j += 1
        while j < len(toks) and toks[j].pos == "ADJ":
            j += 1
        j += j < len(toks) and toks[j].lower in ROLES
    if not (1 <= lo < len(toks) - 1 and j < len(toks) and toks[lo].lower == "and" and toks[lo - 1].pos == "PROPN"
            and toks[j].pos == "PROPN"):
        return lo
    k = lo - 1
    while k - 1 >= 0 and toks[k - 1].pos != "PUNCT":
        k -= 1
    return k


def _given_up(lemmas: list[str]) -> bool:
    """The words just before a state say it was given up ("gave up being", "quit being", "stopped being")."""
    return any(w in ("quit", "stop") for w in lemmas) or said_in(lemmas, ["give", "up"])


def _in_a_past_period(c: Clause) -> bool:
    """The sentence places what it says in a time of life that is over ("when I was little", "back in school")
    and says nothing of it going on ("…and I still do")."""
    return in_a_time_gone([t.lower for t in c.toks])


def handle(c: Clause, m: Match, subj: Entity | None) -> None:
    """Apply one match: polarity and tense checks, then the relation or its handler."""
    p = m.pattern
    trig = c.toks[m.start]
    if _irrealis(c, m.start, p.plan):
        return
    if trig.lower == "like" and trig.pos == "ADP" and m.start > c.lo and (c.toks[m.start - 1].pos in (
            "VERB", "NOUN", "PROPN", "ADJ", "PUNCT") or c.toks[m.start - 1].lem == "be"):
        # "like" as a preposition: how ("I eat like a horse"), what ("things to my day like grabbing a coffee"), or a
        # comparison ("we're like a family", "…, like my dad"), not a taste
        return
    if trig.tag == "VBG" and trig.lem != "be" and p.op == "assert" and _given_up(
            [t.lem for t in c.toks[max(c.lo, m.start - 2) : m.start]]):
        return  # "I stopped going climbing": the doing is what ended (the row of "stop" says so)
    if p.state and trig.tag == "VB" and m.start - 2 >= c.lo and c.toks[m.start - 1].tag == "TO" and c.toks[
            m.start - 2].pos in ("ADJ", "CCONJ", "NOUN"):
        # "it was great to enjoy nature", "nice to play a bit", "…and to relax", "time to paint": an infinitive
        # after an adjective, a noun or "and" tells no habit or taste ("I love to knit", "I'm off to swim" do)
        return
    k = m.start - 1
    while k >= c.lo and c.toks[k].pos == "AUX":
        k -= 1
    if k >= c.lo and c.toks[k].lower in NOT_QUITE:
        return  # "We nearly bought a house in Bath": it did not happen
    op = p.op
    # a copula's "not" comes after it ("I'm not vegetarian any more"), inside the match
    negated = _negated(c, m.end - 1 if trig.lem == "be" else m.start + 1)
    ceased = _ceased(c)
    used_to = any(c.toks[i].lower == "used" and c.toks[i + 1].lower == "to" for i in range(c.lo, m.start))
    if p.neg == "require" and not negated:
        return
    if negated and p.neg not in ("ignore", "require"):
        if ceased:
            op = "end"
        elif p.neg == "flip" and p.rel == "likes":
            return _emit_all(c, m, subj, "dislikes", "assert")
        else:
            return
    elif used_to and p.state:
        op = "end"
    elif trig.tag == "VBD" and not ceased and (p.state or trig.lem in ("have", "own")) and _in_a_past_period(c):
        op = "end"  # "Back in school I played the trumpet", "We had a tortoise when I was little": held then
    elif p.state and not ceased and not _habit_now(c, m) and (trig.tag == "VBD" or (trig.tag == "VBN" and not any(
            t.pos == "AUX" or t.lem in ("have", "be") for t in c.toks[max(c.lo, m.start - 3) : m.start]))):
        return  # "I played tennis yesterday": an event (a past the tagger took for a participle: "…, played games")
    if p.event and not (trig.tag == "VBD" or (trig.tag == "VBN" and any(
            t.lem == "have" for t in c.toks[max(c.lo, m.start - 3) : m.start])) or (
            trig.tag == "VBN" and all(t.pos in ("ADV", "INTJ", "PUNCT") for t in c.toks[: m.start])) or (
            trig.tag == "VBP" and trig.lower in SAME_IN_THE_PAST)):  # "I hurt my back": told as past
        return  # "I run marathons", "I'll attend": no event told
    if p.rel.startswith("@"):
        return _special(c, m, subj, op)
    _emit_all(c, m, subj, p.rel, op)


def _role_tail(c: Clause, ph: Phrase, subj: Entity, op: str) -> None:
    """'... for Halcyon Robotics as a tester' -> works_as tester."""
    if ph.end + 1 < c.hi and c.toks[ph.end].lower == "as":
        q = noun_phrase(c.source, c.toks, ph.end + 1, c.hi)
        stage = [t.lower for t in c.toks[ph.end : q.end]] if q is not None else []
        if q is not None and not q.proper and stage not in PAST_PERIODS:  # "as a teenager" is when, not a job
            c.emit(subj, "works_as", q.text, op, obj_type="ROLE")


# "your suggestion", "their rights", "this one": someone else's, or a particular thing, is no taste of theirs
_NOT_A_TASTE_BEFORE = (POSSESSIVES - MY) | {"this", "that"}


def _taste(c: Clause, ph: Phrase) -> str | None:
    """What a like or dislike is of, or None when the phrase is not a taste worth keeping."""
    vague = not ph.proper and (ph.head.lower in NOT_A_TASTE or c.toks[ph.end - 1].lower in NOT_A_TASTE)
    if vague or c.toks[ph.start - 1].lower in _NOT_A_TASTE_BEFORE:
        return None  # "I love your suggestions", "veterans and their rights", "I like my job"
    if ph.end + 1 < c.hi and c.toks[ph.end].lower == "of" and ph.head.pos == "NOUN":
        # "loves the smell of coffee": the taste is all of it; "hates the smell of it": of what, not said here
        q = noun_phrase(c.source, c.toks, ph.end + 1, c.hi)
        if q is None or q.head.pos == "PRON" or any(t.pos not in ("DET", "ADJ") for t in c.toks[ph.end + 1 : q.start]):
            return None
        return c.source[c.toks[ph.start].idx : c.toks[q.end - 1].end]
    if ph.head.tag == "VBG" and ph.end == ph.head.i + 1:
        # "I love running my own studio": the taste is the whole activity, not "running"; so is a gerund's own
        # particle or preposition and what follows ("checking out new trails", "caring for animals"), but not
        # where or when it happens ("hiking in the Alps" is hiking)
        k = ph.end
        linked = k + 1 < c.hi and c.toks[k].tag in ("RP", "IN") and c.toks[k].lower not in GERUND_SETTINGS
        q = noun_phrase(c.source, c.toks, k + linked, c.hi) if k < c.hi else None
        # a gerund cut from what it acts on ("caring" of "caring for my grandmother's roses", "throwing" of
        # "throwing on a record") is no taste; a pastime is one whatever follows ("hiking with my sister")
        cut = k < c.hi and c.toks[k].tag in ("RP", "IN") and ph.head.lower not in ACTIVITIES
        if q is not None:
            if any(t.lower in POSSESSIVES for t in c.toks[ph.end : q.end]) or q.head.lower in NOT_A_TASTE:
                # "running my own studio" is about their studio; "spending time" says nothing; but "hiking with
                # my sister" is still hiking
                return ph.text if linked and ph.head.lemma.lower() not in LIGHT_VERBS and not cut else None
            return c.source[c.toks[ph.start].idx : c.toks[q.end - 1].end]
        if ph.head.lemma.lower() in LIGHT_VERBS or cut:
            return None  # "I love going", "likes checking": the light verb alone says nothing
    return ph.text


def _described(c: Clause, phrases: list[Phrase]) -> bool:
    """'the freedom and connection it brings': a particular thing, described by the clause after it."""
    if c.toks[phrases[0].start - 1].lower != "the":
        return False
    j = phrases[-1].end
    while j < c.hi and c.toks[j].pos in ("CCONJ", "ADJ", "NOUN", "PUNCT"):  # "the peace and quiet it brings"
        j += 1
    return j < c.hi and (c.toks[j].pos == "PRON" or c.toks[j].lower in ("that", "which"))


def _emit_all(c: Clause, m: Match, subj: Entity | None, rel: str, op: str) -> None:
    if subj is None or "O" not in m.slots:
        return
    phrases = c.phrases(m.slots["O"], rel in MULTI)
    if not phrases and rel in ("works_at", "volunteers_at") and c.toks[m.slots["O"] - 1].pos == "ADP":
        return _stranded(c, m, rel, op)
    taste = rel in ("likes", "dislikes")
    if taste and not phrases and c.toks[m.slots["O"]].lower in ("them", "it", "those", "these"):
        # a taste turned round in one breath ("I used to hate olives but now I love them"): the thing just said
        said = [f for f in c.out if f.relation in ("likes", "dislikes") and f.subject == subj.name]
        if said:
            c.emit(subj, rel, said[-1].object, op)
        return
    if taste and c.toks[m.start].pos == "ADJ" and m.start > c.lo and c.toks[m.start - 1].pos in ("DET", "ADJ"):
        return  # "a chef at a fancy restaurant": the word, not the verb
    if taste and phrases and _described(c, phrases):
        return  # "I love the freedom it brings" (not a taste)
    for ph in phrases:
        ph = _owned(c, ph)
        if m.pattern.proper and not ph.proper and rel in ("lives_in", "grew_up_in", "born_in"):
            if rel == "lives_in" and op == "assert" and _town_after(c, ph, ("near", "outside")) is not None and (
                    c.toks[m.start].lem in _MOVES and not _move_ahead(c, m)):
                c.emit(subj, "lives_in", "", "end")  # "moved to a cottage near Aberystwyth": not in the town, nor
                continue  # where they lived before
            ph = _town_after(c, ph) or ph  # "a tiny village in Wales", "a farmhouse outside Leeds" is no town
        if m.pattern.proper and not ph.proper and not (rel == "works_at" and ph.head.lower in WORKPLACES):
            continue  # a name, or for an employer what it is ("the bank", "the city council")
        found = _taste(c, ph) if taste else ph.text
        if found is None:
            continue
        obj = found
        if rel == "allergic_to" and obj.lower().endswith(" allergy"):
            obj = obj[: -len(" allergy")]
        if rel == "reports_to" and subj.name != USER:
            continue
        if rel == "works_at" and c.toks[m.slots["O"] - 1].lower == "in" and ph.head.ent in ("GPE", "LOC"):
            continue  # "got a job in Edinburgh": where, not for whom
        if rel == "works_at" and c.toks[m.slots["O"] - 1].lower == "with" and (ph.head.ent == "PERSON" or any(
                t.lower in ROLES for t in c.toks[m.slots["O"] : ph.start])):
            continue  # "I work with Dan", "… with my colleague Dan": a person, not an employer
        if rel == "lives_in" and op == "assert" and _move_ahead(c, m):
            for who in (subj, *_with_speaker(c, m, subj)):
                c.emit(who, "plans_to_move_to", obj, kind="plan")
            continue
        ahead = dates.resolve(c.text(), c.at, direction="future") if rel in FOR_LATER and op == "assert" else None
        if ahead is not None and ahead.when > c.at:  # "signed up for a half marathon in October": when it is on
            c.emit(subj, rel, obj, op, when=ahead, kind="plan")
            continue
        c.emit(subj, rel, obj, op)
        if rel == "works_at":
            _role_tail(c, ph, subj, op)
        if rel == "lives_in" and op == "assert":
            _together(c, m, subj, obj)


_MOVES = frozenset({"move", "relocate", "emigrate"})
# verbs of a journey ("the walk started at Malham", "we started at Paris and drove south"): no job begun
_A_DAY_OF = frozenset("today tonight tomorrow yesterday morning afternoon evening weekend".split())  # a visit's time
_TRAVEL = frozenset("drive walk hike cycle ride fly travel head sail run climb trek go tour".split())


def _perfect(c: Clause, m: Match) -> bool:
    """The verb said in the present perfect, as news ("Luke's left the council", "I've left teaching"): not a past
    told ("I left the hospital at six")."""
    return any(t.lem == "have" or t.lower in ("'s", "’s") for t in c.toks[max(c.lo, m.start - 2) : m.start])


def _move_ahead(c: Clause, m: Match) -> bool:
    """A move not made yet: said in the progressive ("we're moving to Bristol in the spring", "I'm relocating to
    Cardiff"), or meant ("going to", "planning to", "will"), or with a time ahead. A home moved into is not one
    lived in yet; "I'm living in Leeds" is."""
    trig = c.toks[m.start]
    if trig.lem not in _MOVES and stem(trig.lower) + "e" not in _MOVES:
        return False  # (the tagger may call "emigrating" a noun)
    before = c.toks[c.lo : m.start]
    when = c.time()
    return (((trig.tag == "VBG" or trig.lower.endswith("ing")) and any(t.lem == "be" for t in before[-2:]))
            or any(t.lower in INTENT for t in before) or (when is not None and when.when > c.at))


def _with_speaker(c: Clause, m: Match, subj: Entity) -> list[Entity]:
    """Who does it with the speaker ("Sol and I are moving…", "me and my cousin Bea are off to Naples"): the other
    one of the pair, who plans it too."""
    partner = _with_me(c, m)
    if partner is None or subj.name not in (USER, partner):
        return []
    return [Entity(partner) if subj.name == USER else Entity(USER)]


def _together(c: Clause, m: Match, subj: Entity, place: str) -> None:
    """'Tom and I moved to Leeds', 'me and Sara live in Bristol': the home is both's, and shared."""
    for other in _with_speaker(c, m, subj):
        c.emit(other, "lives_in", place, "assert")
        c.emit(USER, "lives_with", subj.name if other.name == USER else other.name, "assert", obj_type="PERSON")


def _owned(c: Clause, ph: Phrase) -> Phrase:
    """'my mum's cafe': the thing owned, said with its owner, not the owner ("volunteers at mum")."""
    if ph.end + 1 < c.hi and c.toks[ph.end].tag == "POS":
        q = noun_phrase(c.source, c.toks, ph.end + 1, c.hi)
        if q is not None and q.start == ph.end + 1:
            if q.proper:  # "my sister's friend Ana": a name is itself
                return c.phrases(q.start, False)[0]
            return Phrase(c.source[c.toks[ph.start].idx : c.toks[q.end - 1].end], ph.start, q.end, q.head)
    return ph


def _town_after(c: Clause, ph: Phrase, preps: tuple[str, ...] = ("in", "to")) -> Phrase | None:
    """A named town or country right after a phrase and one of ``preps`` ("… with my parents in York"), or None."""
    k = ph.end
    if k + 1 >= c.hi or c.toks[k].lower not in preps:
        return None
    q = noun_phrase(c.source, c.toks, k + 1, c.hi)
    # a town the small tagger may take for an organisation ("Bristol"), never a person, a date or a language
    return q if q is not None and q.proper and q.head.ent in ("GPE", "LOC", "FAC", "ORG", "") else None


def _title(c: Clause, k: int) -> str | None:
    """A job title from token ``k``, read by its words when the tagger takes a part of it for a verb ("head chef",
    "team lead", "head of sales"): up to four words after the article (and "of" a noun), ending on a noun or on a
    word after one; None when it reads no title (the noun phrase then stands)."""
    t = c.toks
    while k < c.hi and (t[k].pos == "DET" or t[k].lower in MY):
        k += 1
    end = k
    while end < c.hi and end - k < 4 and t[end].text.isalpha() and t[end].pos in ("NOUN", "PROPN", "VERB", "ADJ") \
            and t[end].ent not in ("DATE", "TIME"):
        end += 1
    if k < end < c.hi - 1 and t[end].lower == "of" and t[end + 1].pos in ("NOUN", "PROPN"):
        end += 2  # "head of sales", "director of operations"
    while end > k and t[end - 1].pos not in ("NOUN", "PROPN") and not (end - 1 > k and t[end - 2].pos == "NOUN"):
        end -= 1  # "I work as hard as I can" reads none
    return c.source[t[k].idx : t[end - 1].end] if end > k else None


def _one(c: Clause, m: Match, slot: str = "O") -> Phrase | None:
    if slot not in m.slots:
        return None
    found = c.phrases(m.slots[slot], False)
    return found[0] if found else None


def _may_be_role(c: Clause, upto: int, role: str) -> bool:
    """The one the clause calls so may be the role still waiting for a name: not when the clause names them by a
    noun of its own ("Our neighbour keeps bees." … "my teacher is called Ines": Ines is the teacher) or by a
    pronoun of the other gender ("My uncle…" … "I got a new boss, she's named Dana")."""
    gender = ROLES[role].gender if role in ROLES else None
    for t in c.toks[c.lo : upto]:
        if t.pos in ("NOUN", "PROPN") and role not in (t.lem, t.lower):
            return False
        if gender is not None and PRONOUN_GENDER.get(t.lower, gender) != gender:
            return False
    return True


def _role_fact(c: Clause, role: str, name: str, *, former: bool = False, said: str | None = None) -> None:
    """(name role_of user), or (user reports_to name) for a manager. A former one ("my old boss Terry", "my
    ex-girlfriend Dan") ends the relation if memory holds it, and is not who the role means from now on.
    ``said``: the words the person was called by ("my sister", "Grandad Ted"), kept as another name of theirs."""
    if role not in ROLES:
        return
    rel = ROLES[role].relation
    if former:
        ent = Entity(name, "PERSON", ROLES[role].gender)
        c.disc.mention(ent)
    else:
        ent = c.disc.name_role(role, name)
    op = "end" if former else "assert"
    if rel == "reports_to":
        fact = c.emit(USER, rel, name, op, obj_type="PERSON", timeless=True)
    else:  # the word said is kept: "Who is Tariq?" is "Your husband", not "Your spouse"
        fact = c.emit(ent, rel, USER, op, obj_type="PERSON", timeless=True, label=_role_word(role))
    if fact is not None and said is not None:
        fact.extra["aliases"] = {name: [said]}


def kin_of_kin(c: Clause) -> None:
    """Someone's role to someone else named before "'s" or by "his"/"her": "my sister's husband Gareth" (Gareth
    spouse_of my sister), "Priya's boyfriend Tom", "Our son Ben and his wife Sophie", "Harriet's new boyfriend is
    called Tomasz". Never a role to the speaker. Said of a name with no name of its own ("I met Harriet's new
    boyfriend."), the one who holds it is who "he" or "she" means next ("He's called Tomasz")."""
    toks = c.toks
    for i in range(1, len(toks) - 1):
        if not (toks[i].tag == "POS" or (toks[i].tag == "PRP$" and toks[i].lower in ("his", "her"))):
            continue
        r = i + 1  # the role, after what describes it ("new"; not "old", "ex": no one holds it now)
        while r < len(toks) - 1 and toks[r].pos == "ADJ" and toks[r].lower not in FORMER_ROLE:
            r += 1
        if toks[r].lower in PETS:
            _pet_of(c, i, r)
            continue
        if toks[r].lower not in ROLES:
            continue
        holder = name_at(c.source, toks, r + 1)
        if holder is None and r + 3 < len(toks) and toks[r + 1].lem == "be" and toks[r + 2].lower in (
                "called", "named"):
            holder = name_at(c.source, toks, r + 3)  # "Harriet's boyfriend is called Tomasz"
        owner = toks[i - 1]
        if holder is None and toks[i].lower in ("his", "her"):
            continue
        if toks[i].lower in ("his", "her"):  # "Our son Ben and his wife Sophie": whom "his" means
            ref = c.disc.pronoun(toks[i].lower)
            if ref is None or ref.name == USER or ref.type != "PERSON":
                continue
            of = ref.name
        elif owner.lower in ROLES and i >= 2 and toks[i - 2].lower in MY:
            of = _my(c, owner.lower)
        # a name, whatever the tagger made of it ("Priya" as an organisation): only people have a boyfriend;
        # a firm's manager is no one's boss
        elif owner.pos == "PROPN" and owner.lower not in ROLES:
            k = i - 1
            while k - 1 >= 0 and toks[k - 1].pos == "PROPN":
                k -= 1
            of = span_text(c.source, toks, k, i)
            known = c.disc.find(of)  # "my sister Nadia's": a person, whatever the tagger called her
            if not (owner.ent in ("PERSON", "") or (known is not None and known.type == "PERSON") or (
                    owner.ent not in ("GPE", "LOC", "FAC") and ROLES[toks[r].lower].relation not in (
                    "reports_to", "colleague_of"))):
                continue
        else:
            continue
        if holder is not None:
            _role_of(c, toks[r].lower, holder, of)
        elif toks[r].tag != "NNS" and ROLES[toks[r].lower].relation != "reports_to":
            c.disc.mention(Entity(f"{of}'s {toks[r].lower}", "PERSON", ROLES[toks[r].lower].gender, unresolved=True))


def _pet_of(c: Clause, i: int, r: int) -> None:
    """A pet said by whose it is and named: "my sister's dog Rex", "Priya's cat is called Tilly", "his dog Rex" (of
    whom "his" means); "the kids' hamster is called Nibbles" is the household's. An owner not known as a person, or
    no name, leaves nothing."""
    toks = c.toks
    name = name_at(c.source, toks, r + 1)
    if name is None and r + 3 < len(toks) and toks[r + 1].lem == "be" and toks[r + 2].lower in ("called", "named"):
        name = name_at(c.source, toks, r + 3)
    if name is None:
        return
    owner = toks[i - 1]
    if toks[i].lower in ("his", "her"):
        ref = c.disc.pronoun(toks[i].lower)
        if ref is None or ref.name == USER or ref.type != "PERSON":
            return
        whose: Entity | str = ref
    elif owner.lower in HOUSEHOLD_CHILDREN and i >= 2 and toks[i - 2].lower in ("the", "our", "my"):
        whose = USER
    elif owner.lower in ROLES and i >= 2 and toks[i - 2].lower in MY:
        whose = c.disc.find(_my(c, owner.lower)) or Entity(_my(c, owner.lower))
    elif owner.pos == "PROPN" and owner.ent in ("PERSON", "", "GPE"):  # a name the tagger took for a place: no
        # place has a pet
        k = i - 1
        while k - 1 >= 0 and toks[k - 1].pos == "PROPN":
            k -= 1
        of = span_text(c.source, toks, k, i)
        whose = c.disc.find(of) or Entity(of)
    else:
        return
    _pet(c, toks[r].lower, name, owner=whose)


def named_role_of(c: Clause, subj: Entity, name: str) -> bool:
    """Someone's role said with no name before ("I met Harriet's new boyfriend."), named now ("He's called
    Tomasz"): the role is the name's. False when ``subj`` is no such role."""
    of, sep, role = subj.name.rpartition("'s ")
    if not sep or not of or role not in ROLES:
        return False
    _role_of(c, role, name, of)
    return True


def _my(c: Clause, role: str) -> str:
    """Whom "my <role>" means: the name said for that role in this conversation, else the role phrase."""
    return c.disc.roles.get(role) or f"my {role}"


def _role_word(role: str) -> str | None:
    """The role word as a kin fact's label when it says more than the relation's name ("husband" for spouse_of,
    "mum" for mother_of); None for "sister" (sister_of)."""
    return None if ROLES[role].relation == f"{role}_of" else role


def _role_of(c: Clause, role: str, holder: str, of: str) -> None:
    """(holder role_of someone else): "my sister's husband Gareth" is Gareth spouse_of my sister, "Priya's boss
    Karen" is Priya reports_to Karen. Not the speaker's own: no role of theirs is named by it."""
    rel = ROLES[role].relation
    ent = Entity(holder, "PERSON", ROLES[role].gender)
    c.disc.mention(ent)
    if rel == "reports_to":
        c.emit(Entity(of, "PERSON"), rel, holder, obj_type="PERSON", timeless=True)
    else:
        c.emit(ent, rel, of, obj_type="PERSON", timeless=True, label=_role_word(role))


# What a baby is to the speaker, by what its parent is to them and its gender: a sister's girl is a niece
_CHILD_OF_KIN = {("sister_of", "f"): "niece_of", ("sister_of", "m"): "nephew_of", ("brother_of", "f"): "niece_of",
                 ("brother_of", "m"): "nephew_of", ("sibling_of", "f"): "niece_of", ("sibling_of", "m"): "nephew_of",
                 ("son_of", None): "grandchild_of", ("daughter_of", None): "grandchild_of",
                 ("child_of", None): "grandchild_of"}


def _kin_in_subject(c: Clause, end: int) -> Entity | None:
    """Of a pair said as the subject ("Our son Ben and his wife Sophie have had…"), the one who is the speaker's
    kin by a role said in this conversation, or None."""
    k = c.lo  # a clause split at the pair's "and" opens after the first of them
    while k - 1 >= 0 and c.toks[k - 1].pos != "PUNCT":
        k -= 1
    said = {t.text for t in c.toks[k:end] if t.pos == "PROPN"}
    kin = next((n for w, n in c.disc.roles.items() if w in ROLES and n.split()[0] in said), None)
    return None if kin is None else c.disc.find(kin) or Entity(kin, "PERSON")


def _birth_before(c: Clause, end: int) -> bool:
    """A baby had is told before ``end`` in the sentence ("had a little boy", "had twins")."""
    t = c.toks
    return any(t[i].lem == "have" and any(x.lower in NEWBORNS or x.lemma.lower() in NEWBORNS for x in t[i + 1 : i + 4])
               for i in range(end))


def _newborn_named(c: Clause, name: str) -> None:
    """The baby just told of is called ``name``: what it is to the speaker, when that follows from its parent
    ("My sister had a baby girl, they called her Maeve": a niece; "We had a boy, Arlo": a son), or whose child
    it is when the parent is named. Nothing when it does not follow (a friend's baby, a sibling's of no said
    gender): never the parent's name."""
    assert c.disc.newborn is not None
    parent, gender = c.disc.newborn
    c.disc.newborn = None
    baby = Entity(name, "PERSON", gender)
    c.disc.mention(baby)
    if parent.name == USER:
        rel = {"f": "daughter_of", "m": "son_of"}.get(gender or "", "child_of")
        c.emit(baby, rel, USER, obj_type="PERSON", timeless=True)
        return
    if parent.unresolved:  # "my sister": what the baby is to the speaker
        role = ROLES.get(parent.name.split()[-1].lower())
        if role is not None:
            kin = _CHILD_OF_KIN.get((role.relation, gender)) or _CHILD_OF_KIN.get((role.relation, None))
            if kin is not None:
                c.emit(baby, kin, USER, obj_type="PERSON", timeless=True)
        return
    c.emit(baby, "child_of", parent.name, obj_type="PERSON", timeless=True)
    said = next((w for w, n in c.disc.roles.items() if n == parent.name and w in ROLES), None)
    if said is not None:  # "my brother Aled … had a baby girl, Nia": Aled's girl is a niece too
        kin = _CHILD_OF_KIN.get((ROLES[said].relation, gender)) or _CHILD_OF_KIN.get((ROLES[said].relation, None))
        if kin is not None:
            c.emit(baby, kin, USER, obj_type="PERSON", timeless=True)


def _pet(c: Clause, species: str, name: str, owner: Entity | str = USER, op: str = "assert", *,
         timeless: bool = False) -> None:
    """``owner`` has a ``species`` called ``name``; ``timeless``: said by "my", whatever the clause's time is of
    ("Taking my two rabbits to the vet tomorrow": they are had now)."""
    pet = Entity(name, "ANIMAL")
    c.disc.mention(pet)
    c.disc.pending_pet = None
    c.disc.dropped += [f for s, f in c.disc.unnamed_pets if s == species]
    c.disc.unnamed_pets = [(s, f) for s, f in c.disc.unnamed_pets if s != species]
    if owner == USER:
        c.disc.roles[species.split()[-1].lower()] = name  # "my dog" from now on
    c.emit(owner, "has_pet", name, op, obj_type="ANIMAL", timeless=timeless)
    c.emit(pet, "is_a", species, obj_type="ANIMAL", timeless=True)


# words of a time away that say a place left for another is a trip, not a move
_AWAY_FOR_A_WHILE = re.compile(r"\b(?:holiday|trip|break|visit|honeymoon|tour|conference|match|wedding)s?\b|"
                               r"\bfor (?:a|the|one|two|three|a few|\d+) (?:days?|nights?|weeks?|weekend|fortnight)\b",
                               re.I)


_MOVING_SAID = re.compile(r"\b(?:pack(?:ing|ed)?\s+(?:up|boxes)|boxes|removals?\b|moving|move\b|relocat|"
                          r"new (?:house|home|flat|place)|settl(?:e|ing) in)", re.I)


_THING_SAID = frozenset({"it", "this", "that", "which"})  # what is called something, said of no person


def _named_kind(c: Clause, m: Match, subj: Entity | None, name: Phrase | None) -> None:
    """An animal given its name ("The kids named the new kitten Pickle", "We called our puppy Biscuit"): a pet of the
    speaker's home, or of the one whose it is said to be ("my sister named her dog Bella"). Whose is not guessed: a
    named someone else's "the dog" is left."""
    kind = next((t for t in c.toks[m.start + 1 : m.slots["O"]] if t.lemma.lower() in PETS), None)
    if name is None or not name.proper or kind is None:
        return
    if name.end - name.start > 2:
        return
    # several of a kind, a name each: "named the two new rabbits Salt and Pepper"
    many = kind.tag == "NNS" or any(t.pos == "NUM" and t.lower != "one" for t in c.toks[m.start + 1 : kind.i])
    names = names_listed(c.source, c.toks, name.start, name.text) if many else [name.text]
    whose = next((t.lower for t in c.toks[m.start + 1 : m.slots["O"]] if t.lower in POSSESSIVES), "the")
    others = subj is not None and subj.name != USER and subj.type == "PERSON" and not subj.unresolved
    for each in names:
        if whose in MY or (whose == "the" and not others):
            _pet(c, kind.lemma.lower(), each)
        elif whose in ("his", "her", "their") and subj is not None and subj.name != USER and subj.type == "PERSON":
            _pet(c, kind.lemma.lower(), each, owner=subj)


def _taken_out(c: Clause, m: Match, subj: Entity | None, o: Phrase | None, op: str) -> None:
    """"We've taken Tamsin out of Oakridge", "pulled my son out of St Mark's": the child's place of study ends (one
    held at a time: whichever it was). Not a thing taken out ("took the bins out of the shed"), nor a school that is
    no name or place of study ("took her out of the class")."""
    place = _one(c, m, "O2")
    if subj is None or o is None or place is None or op != "assert" or _negated(c, m.start + 1):
        return
    if not (place.proper or place.head.lemma.lower() in STUDY_PLACES) or place.head.lower in ("class", "lesson"):
        return
    if o.head.pos == "PROPN" or o.head.ent == "PERSON":
        child = Entity(o.text, "PERSON")
    elif o.start > c.lo and c.toks[o.start - 1].lower in MY and o.head.lower in ROLES:
        child = Entity(_my(c, o.head.lower), "PERSON")
    else:
        return
    c.emit(child, "studies_at", "", "end")


def _after_name(c: Clause, ph: Phrase) -> Phrase | None:
    """'a rabbit called Clover' -> Clover."""
    t = c.toks
    j = ph.end
    if j < c.hi and t[j].lower == ",":
        j += 1
    if j < c.hi and t[j].lower in ("called", "named"):
        j += 1
    elif j == ph.end:
        return None
    q = noun_phrase(c.source, t, j, c.hi)
    return q if q is not None and q.proper else None


def _said_again(c: Clause, ph: Phrase) -> tuple[Phrase, Phrase] | None:
    """'a new puppy, a cockapoo called Pudding': what the thing is, said again more exactly, and its name."""
    t, end = c.toks, len(c.toks)  # the clause may end at the comma: the sentence's words
    j = ph.end
    if j + 1 >= end or t[j].lower != "," or t[j + 1].pos != "DET":
        return None
    again = noun_phrase(c.source, t, j + 1, end)
    if again is None or again.proper or again.end >= end or t[again.end].lower not in ("called", "named"):
        return None
    named = noun_phrase(c.source, t, again.end + 1, end)
    return (again, named) if named is not None and named.proper else None


_NOT_A_SHOW = frozenset({"PERSON", "GPE", "LOC", "NORP", "DATE", "TIME"})  # "watched Anna", "watched Rome"


def _going_now(c: Clause, m: Match) -> bool:
    """"We're going camping", "I'm going fishing tomorrow": one outing, ahead; not a pastime ("I've been going
    swimming every week" is)."""
    return c.toks[m.start].tag == "VBG" and not (m.start > c.lo and c.toks[m.start - 1].lower == "been")


def _verbless(c: Clause) -> bool:
    """The clause has no verb at all ("First night in the new house in Margate!")."""
    return not any(t.pos in ("VERB", "AUX") for t in c.toks[c.lo : c.hi])


def _special(c: Clause, m: Match, subj: Entity | None, op: str) -> None:
    rel = m.pattern.rel
    o = _one(c, m)
    if rel == "@diet_over":  # whatever diet is held ends; a diet said by name, that one
        said = next((DIET_NAMES[t.lower] for t in c.toks[m.start : m.end] if t.lower in DIET_NAMES), "")
        k = m.start - 1
        while k >= c.lo and c.toks[k].pos == "DET":
            k -= 1
        holder: Entity | None = subj if not said else Entity(USER)
        if said and k >= c.lo and c.toks[k].tag == "POS":  # "Tom's vegan phase didn't last": Tom's
            whose = name_at(c.source, c.toks, k - 1) if k > c.lo else None
            holder = Entity(whose) if whose else None
        if holder is not None:
            c.emit(holder, "diet", said, "end")
        return
    if rel in ("@take_up", "@give_up") and subj is not None and "O" in m.slots:
        # a diet taken up or given up ("gave up on veganism", "gave up on the veggie thing")
        k = m.slots["O"]
        diet = next((DIET_NAMES[t.lower] for t in c.toks[k : min(c.hi, k + 4)] if t.lower in DIET_NAMES), None)
        if diet is not None:
            c.emit(subj, "diet", diet, "end" if rel == "@give_up" else op)
            return
    cat = category(o.text) if o else None
    if rel == "@name_kind":
        return _named_kind(c, m, subj, o)
    if rel in ("@name_is", "@called", "@name_pet"):
        if rel == "@called" and c.disc.pet_of is not None and subj is not None and subj.name == c.disc.pet_of[0].name:
            k = m.slots.get("O", m.end)  # "Ewan got a leopard gecko… he's called it Pringle": the gecko's name
            if k + 1 < c.hi and c.toks[k].lower == "it" and (name := name_at(c.source, c.toks, k + 1)) is not None:
                keeper, kind = c.disc.pet_of
                c.disc.pet_of = None
                return _pet(c, kind, name, owner=keeper)
        if o is None or not o.proper:
            return
        if rel == "@name_is" and m.start - 1 >= c.lo and c.toks[m.start - 1].lower == "my" and _named_alone(c, o):
            c.emit(Entity(USER), "named", o.text, op)  # "My name's Ruth": the speaker's own name
            return
        if rel != "@name_is" and c.disc.newborn is not None:  # "…had a baby girl, they called her Maeve"
            if c.disc.newborn[1] is None and m.start + 1 < c.hi and c.toks[m.start + 1].lower in ("her", "him"):
                c.disc.newborn = (c.disc.newborn[0], "f" if c.toks[m.start + 1].lower == "her" else "m")
            return _newborn_named(c, o.text)
        if rel != "@name_is" and _birth_before(c, m.start):  # a baby whose parent was not made out ("My
            return  # brother's wife had a little boy, they named him Oskar"): not the brother's name
        if c.disc.pending_pet and (subj is None or subj.name == USER or rel != "@called"):
            return _pet(c, c.disc.pending_pet, o.text)
        if subj is not None and subj.unresolved and rel != "@name_pet":  # "my sister is called Ruth"; not "he
            if named_role_of(c, subj, o.text):  # named him Rex", which names what he named
                return None
            return _role_fact(c, subj.name.split()[-1], o.text)
        if subj is None and c.disc.pending_role and _may_be_role(c, m.start, c.disc.pending_role) and not (
                m.start > c.lo and c.toks[m.start - 1].lower in _THING_SAID):  # "older than my nephew, and it's
            # called Doughreen": a thing's name, not the nephew's
            role, c.disc.pending_role = c.disc.pending_role, None
            return _role_fact(c, role, o.text)
        return
    if rel == "@speaker_likes" or (rel == "@fan" and all(  # no one before it, no verb after it
            t.pos in ("ADJ", "INTJ", "PUNCT", "ADV") for t in c.toks[c.lo : m.start]) and not any(
            t.pos == "VERB" for t in c.toks[m.end : c.hi])):
        _emit_all(c, m, Entity(USER), "likes", op)  # "Nothing beats a good curry", "Big fan of Ghibli here"
        return
    if rel == "@taste_first":  # whose taste is said by "my", not by the clause's subject
        _taste_first(c, m, op)
        return
    if rel == "@is_my_role" and _taste_first(c, m, op):  # "Dancing is my passion", not a role
        return
    if rel.startswith("@couple:"):
        if c.toks[m.end - 1].lower == "together" and m.end < c.hi and c.toks[m.end].pos == "ADP" and c.toks[
                m.end].lower not in ("for", "since"):
            return  # "Tom and I are together at the pub": a place, not a couple
        return _couple(c, m, subj, rel.split(":", 1)[1], op)
    if rel == "@proposed":
        return _proposed(c, m, subj)
    if rel == "@died":
        return _died(c, m, subj)
    if rel == "@not_made_it":
        return _not_made_it(c, m, subj)
    if rel == "@rip":  # "RIP Kevin.", "Rest in peace, Biscuit": the one named died
        if o is not None and o.proper and o.head.ent not in ("GPE", "LOC", "ORG", "FAC") and not _negated(c, m.start):
            _death_of(c, Entity(o.text), m.start)
        return
    if rel == "@moved_me":  # the speaker moved by someone else (an employer)
        town = _one(c, m)
        if town is not None and town.proper and town.head.ent in ("GPE", "LOC", "") and not _move_ahead(c, m):
            c.emit(Entity(USER), "lives_in", town.text, op, obj_type="PLACE")
        return
    if rel == "@expecting":
        return _expecting(c, m, subj)
    if rel == "@graduated":
        return _graduated(c, m, subj)
    if rel == "@lost_named":  # "We lost Whiskers last week"; not a place ("lost Leeds in the final")
        if o is None or o.head.ent in ("GPE", "LOC") or subj is None or subj.name != USER or _negated(
                c, m.start + 1) or (o.end < c.hi and c.toks[o.end].tag == "POS"):  # not "lost Dad's watch"
            return
        lost_title = c.toks[o.start] if o.end - o.start == 2 else c.toks[o.start - 1] if o.start > c.lo else None
        titled = lost_title is not None and lost_title.lower in TITLED_KIN  # in the phrase, or before it
        if titled and o.head.pos == "PROPN":
            _person_gone(c, Entity(o.head.text, "PERSON"), m.start)  # "We lost Grandad Bill": a person of theirs died
        elif o.end - o.start == 1 and o.head.lower not in ROLES:  # not "lost Grandad"
            _pet_gone(c, o.text)
        return
    if rel == "@lost_pet":  # "We lost our dog Rosie in May": a pet of theirs, said with its kind, died or is gone
        if o is not None and subj is not None and subj.name == USER and c.toks[m.start].tag in ("VBD", "VBN") and not (
                _negated(c, m.start + 1) or any(t.lower in ("nearly", "almost") for t in c.toks[c.lo : m.start])
                or any(t.lem == "find" for t in c.toks[m.end :])):  # not "… but found her an hour later"
            _pet_gone(c, o.text)
        return
    if rel == "@taken":  # "A fox got John on Tuesday night", "the fox had him": a pet taken by an animal is gone
        return _taken(c, m, o)
    if rel == "@put_down":  # the pet put down is the object
        pet = _pet_named(c, o) if o is not None else None
        if pet is None and o is not None and o.head.lemma.lower() in PETS:  # "re-homed my rabbit": the one said
            pet = o.head.lower
        if pet is not None and not _negated(c, m.start + 1):
            _pet_gone(c, pet)
        return
    if rel == "@passed":
        if subj is not None and o is not None and o.head.lemma.lower() in PASSED and op == "assert":
            c.emit(subj, "passed", o.text)
        return
    if rel == "@gone":
        return _gone(c, m)
    if rel == "@let_me_go":
        if not _negated(c, m.start + 1) and c.toks[m.start].tag in ("VBD", "VBN", "VBZ", "VBP"):
            _job_left(c, Entity(USER))  # not "if they make me redundant", "they could make me redundant"
        return
    if rel == "@made_me":  # the one made head is "me", whoever "they" are; not "made me a cake", "made me cry"
        if o is not None and (o.head.lower in OCCUPATIONS or o.head.lower in RANKS):
            t = c.toks
            post = o.text
            if o.end + 1 < c.hi and t[o.end].lower == "of" and t[o.end + 1].pos in ("NOUN", "PROPN"):
                post = o.text + c.source[t[o.end - 1].end : t[o.end + 1].end]  # "head of science"
            c.emit(Entity(USER), "works_as", post, op, obj_type="ROLE")
            _works_at_tail(c, o, Entity(USER), op)
        return
    if rel == "@home_is":  # the speaker's home ("Home is…", "My home's…"): the town it is, or is in
        j = m.start - 1
        if j < c.lo or c.toks[j].lower in MY:
            town = o if o is not None and o.proper and o.head.ent in ("GPE", "LOC", "") else next(
                (q for k in range(m.slots["O"], c.hi - 1) if c.toks[k].lower == "in"
                 and (q := noun_phrase(c.source, c.toks, k + 1, c.hi)) is not None and q.proper
                 and q.head.ent in ("GPE", "LOC", "FAC", "ORG", "")), None)
            if town is not None:
                c.emit(Entity(USER), "lives_in", town.text, op)
        return
    if rel == "@turns_stomach":  # the clause's subject is what the speaker cannot stomach: a thing, not a person
        first = _opening(c, m.start)
        thing = noun_phrase(c.source, c.toks, first, m.start) if first < m.start else None
        if thing is not None and thing.end == m.start and thing.head.pos in ("NOUN", "PROPN") and (
                thing.head.ent != "PERSON") and thing.head.lower not in ROLES and not any(
                t.lower in POSSESSIVES | {"this", "that"} for t in c.toks[first : thing.end]):
            c.emit(Entity(USER), "dislikes", _as_named(thing.text, c.toks[thing.start]), op)
        return
    if rel == "@habit_off":  # said with no one named ("Five months smoke-free!"): the speaker's
        return _habit_off(c, m, subj)
    if rel == "@home_noun" and subj is None and _verbless(c):
        subj = Entity(USER)  # said with no verb at all ("First night in the new house in Margate!"): the speaker's
    if subj is None:
        return
    if rel == "@is_my_role" and o is not None and o.head.lower in ROLES and subj.name != USER:
        if o.end < c.hi and c.toks[o.end].tag == "POS":  # "Tom's my husband's best friend": the husband's friend
            theirs = noun_phrase(c.source, c.toks, o.end + 1, c.hi)
            if theirs is not None and theirs.head.lower in ROLES and theirs.head.lower not in PETS and not (
                    theirs.end < c.hi and c.toks[theirs.end].tag == "POS"):  # not "my sister's boyfriend's mum"
                _role_of(c, theirs.head.lower, subj.name, _my(c, o.head.lower))
            return None
        return _role_fact(c, o.head.lower, subj.name)
    if rel == "@be_a" and o is not None:
        if subj.type == "ANIMAL":
            if o.head.lemma.lower() in PETS:  # "Rex is a beagle", not "Shadow is a great addition"
                c.emit(subj, "is_a", o.text, obj_type="ANIMAL")
        elif o.head.lower in HOBBYISTS and (o.head.lower not in OCCUPATIONS or any(
                t.lower in PASTIME_KEEN for t in c.toks[o.start : o.head.i])):
            if not any(t.lower in FORMER or t.lower == "non" for t in c.toks[o.start : o.head.i]):  # "a former
                # runner", "a non-smoker" never did or no longer do
                c.emit(subj, "practices", HOBBYISTS[o.head.lower], op, obj_type="ACTIVITY")
        elif (o.head.lower in OCCUPATIONS or (o.head.i > o.start and (
                f"{c.toks[o.head.i - 1].lower} {o.head.lower}" in KIN_POSTS))) and o.end <= c.hi:
            if m.start - 2 >= c.lo and c.toks[m.start - 1].lower == "to" and c.toks[m.start - 2].lem in TOWARDS:
                return  # "training to be a teacher": not one yet
            former = [t for t in c.toks[o.start : o.head.i] if t.lower in FORMER]
            if former:  # "a retired teacher", "an ex-nurse": what they were, no longer are
                was = c.source[c.toks[former[-1].i + 1].idx : o.head.end]
                c.emit(subj, "works_as", was, "end", obj_type="ROLE")
                return
            c.emit(subj, "works_as", o.text, op, obj_type="ROLE")  # "I'm not a teacher any more": an end
            _works_at_tail(c, o, subj, op)
        return
    if rel == "@post_job":  # "Got the ward sister job!": the post is the words between "the" and "job"
        the = next(k for k in range(m.start, m.end) if c.toks[k].lower == "the")
        words = c.toks[the + 1 : m.end - 1]
        post = " ".join(t.lower for t in words)
        # a word of kin names a rank only before "post" or "role" ("got the sister post"; "the sister job" is hers)
        kin_rank = len(words) == 1 and c.toks[m.end - 1].lower != "job" and any(
            k.endswith(" " + post) for k in KIN_POSTS)
        if words and all(t.pos in ("NOUN", "PROPN") for t in words) and not _negated(c, m.start + 1) and (
                words[-1].lower in OCCUPATIONS | RANKS or post in KIN_POSTS or kin_rank):
            c.emit(subj, "works_as", post, op, obj_type="ROLE")
            if subj is not None:  # "got the deputy head job at Oakfield": where, too
                _workplace_at(c, m.end, subj, op, ("at", "for", "with"))
        return None
    if rel == "@works_as":
        made = [t for t in c.toks[m.start : m.slots.get("O", m.start)] if t.lem == "make"]
        if made and made[0].tag != "VBN":  # "I've been making all sorts of desserts": no post one is made
            return None
        title = _title(c, m.slots["O"]) if "O" in m.slots else None
        if title is not None and (o is None or (len(title) > len(o.text) and title.startswith(o.text))):
            c.emit(subj, "works_as", title, op, obj_type="ROLE")  # "promoted to head chef": "head" read as a verb
            end = c.toks[m.slots["O"]].idx + len(title)
            past = next((k for k in range(m.slots["O"], c.hi) if c.toks[k].idx >= end), c.hi)
            if subj is not None:  # "made head of HR at Boots": where, too
                _workplace_at(c, past, subj, op, ("at", "for", "with"))
            return None
        # "made practice manager", not "made welcome"; "my first week as a paramedic", not "as a mum"
        post_only = c.toks[m.start].lower.startswith(("qualif", "requalif", "retrain")) or c.toks[
            m.start].lower == "first" or bool(made)
        if o is not None and (not post_only or o.head.lower in OCCUPATIONS | RANKS):
            c.emit(subj, "works_as", o.text, op, obj_type="ROLE")
            _works_at_tail(c, o, subj, op)
        return None
    if rel in ("@born_on", "@birthday"):
        day = dates.birthday(c.source[c.toks[m.slots["D"]].idx : c.toks[c.hi - 1].end])
        if day:
            c.emit(subj, "born_on", day, obj_type="DATE", timeless=True)
        return
    if rel == "@learn_to":
        verb = c.toks[m.slots["O"]]
        nxt = c.toks[m.slots["O"] + 1] if m.slots["O"] + 1 < len(c.toks) else None
        # "learning to knit": the bare verb is the practice; "started to learn these tools" is no practice of
        # "learning": the verb has an object of its own
        own_object = nxt is not None and nxt.pos in ("DET", "NOUN", "PROPN", "PRON", "ADJ", "NUM") and nxt.ent not in (
            "DATE", "TIME") and nxt.lower not in ("this", "last", "next", "every", "each")
        if verb.pos == "VERB" and verb.tag == "VB" and not own_object:
            c.emit(subj, "practices", gerund(verb.lemma.lower()), op, obj_type="ACTIVITY")
        return
    if rel == "@diet":
        said = c.toks[m.end - 1].lower
        if said in DIETS:
            # given up ("I gave up being vegetarian", "quit being vegan"): the diet ends
            ended = _given_up([t.lem for t in c.toks[max(c.lo, m.start - 3) : m.start]])
            c.emit(subj, "diet", DIET_NAMES[said], "end" if ended else op)
            _diet_and(c, m.end, subj, "end" if ended else op)
        return
    if rel == "@free_of":  # "Rob has gone gluten-free": what he goes without, beside any diet he keeps
        said = next(t.lower for t in c.toks[m.start : m.end] if t.lower in FREE_OF)
        ended = _given_up([t.lem for t in c.toks[max(c.lo, m.start - 3) : m.start]])
        c.emit(subj, "avoids", said, "end" if ended else op, obj_type="TOPIC")
        _diet_and(c, m.end, subj, "end" if ended else op)
        return
    if rel == "@diet_back" and o is not None:  # "back on the bacon butties": a word of it is the food
        for diet in dict.fromkeys(d for t in c.toks[o.start : o.end] for d in DIET_EXCLUDES.get(t.lower, ())):
            c.emit(subj, "diet", diet, "end")
        return
    if rel == "@moved_someone" and o is not None and not _move_ahead(c, m):
        whom = _moved_one(c, o)
        town = _one(c, m, "O2")
        if whom is not None and town is not None and town.proper:
            c.emit(whom, "lives_in", town.text, op)
        return
    if rel == "@moved_within":
        where = _one(c, m, "O2")
        if subj is not None and subj.type == "PERSON" and where is not None and where.proper and (
                where.head.ent in ("ORG", "")) and o is not None and not o.proper and not _move_ahead(c, m) and (
                o.head.lemma.lower() in DEPARTMENTS):  # not "moved into a cottage at Hill Top Farm", "switched to
            # coffee at Starbucks"
            c.emit(subj, "works_at", where.text, op, obj_type="ORG")
        return
    if rel == "@moved_near" and not _move_ahead(c, m) and not _negated(c, m.start + 1):
        whom = _moved_one(c, o) if o is not None else subj
        if whom is not None and whom.name != USER and whom.type == "PERSON":
            c.emit(whom, "lives_in", "", "end", every=True)
        return
    if rel == "@keep" and o is not None:
        if o.head.lower in KEPT or o.head.lower in PETS or o.head.lemma.lower() in PETS:
            c.emit(subj, "keeps", o.text, op, obj_type="ANIMAL")
        return
    if rel == "@team" and "O" in m.slots:
        first = m.slots["O"]
        words = c.toks[first : m.end]
        while words and words[0].pos == "DET":
            words = words[1:]
        if len(words) >= 2 and not any(t.lower in NOT_A_TEAM for t in words) and words[0].pos != "PRON":
            group = words[-1].lower in ("band", "choir", "orchestra")  # a group one plays or sings in, not a team
            c.emit(subj, "member_of" if group else "member_of_team", c.source[words[0].idx : words[-1].end], op,
                   obj_type="ORG")
        return
    if rel == "@out_in":
        _out_in(c, m, subj, o, op)
        return
    if rel == "@trade_for":
        _trade_for(c, m, subj, o, op)
        return
    if rel == "@retired":  # "I'm retired", "Dad retired last year", "retired from the police"; not "retired the
        # jersey"
        nxt = c.toks[m.end] if m.end < c.hi else None
        if nxt is not None and nxt.lower == "from" and subj is not None and subj.type == "PERSON":
            return _retired_from(c, m, subj, op)
        if subj is not None and subj.type == "PERSON" and (nxt is None or (
                nxt.pos not in ("DET", "NOUN", "PROPN", "PRON") or nxt.ent in ("DATE", "TIME"))) and not any(
                t.tag == "VB" for t in c.toks[m.start : m.end]):  # "…should retire": no wish or plan
            c.emit(subj, "works_as", "retired", op, obj_type="ROLE")
            if (held := _years_as(c, m)) is not None:  # "…after 30 years as a librarian"
                c.emit(subj, "works_as", held, "end", obj_type="ROLE")
            town = noun_phrase(c.source, c.toks, m.end + 1, c.hi) if nxt is not None and nxt.lower == "to" else None
            if town is not None and town.proper and town.head.ent in ("GPE", "LOC", "PERSON", "") and op == "assert":
                c.emit(subj, "lives_in", town.text, op, obj_type="PLACE")  # "Dad's retired to Portugal": moved there
        return
    if rel == "@job_left":  # "made redundant", "resigned from the police": an object must say it was a job
        if "O" not in m.slots or (o is not None and not o.proper and o.head.lemma.lower() in JOB_HELD):
            _job_left(c, subj)
            if subj is not None:  # "…was fired from Tesco": that employer too
                _workplace_at(c, m.end, subj, "end", ("from", "by", "at"))
        return
    if rel == "@last_day":  # "my last shift's on the 30th": whose, and of work (not "the last day of the trip")
        mine = m.start - 1 >= c.lo and c.toks[m.start - 1].lower in MY
        whole = c.time() if mine and c.toks[m.start + 1].lower != "of" else None
        if whole is not None:
            ahead = whole.when > c.at
            c.emit(Entity(USER), "works_at", "", "end", timeless=ahead)
            c.emit(Entity(USER), "works_as", "", "end", timeless=ahead)
        return
    if rel == "@manage":
        if o is None or subj is None or subj.type != "PERSON" or o.head.ent in ("PERSON", "GPE", "LOC", "NORP"):
            return
        # a part managed of a workplace said after it ("the warehouse at an Amazon depot", "the kitchen at a
        # Hilton"): that one; else what is managed, when it is a workplace
        if not _workplace_at(c, o.end, subj, op, ("at", "for")) and (
                o.head.ent in ("ORG", "FAC") or o.head.lower in WORKPLACES):
            c.emit(subj, "works_at", o.text, op, obj_type="ORG")
        return
    if rel == "@bought_home":
        clause_words = {t.lower for t in c.toks[c.lo : c.hi]} | {t.lem for t in c.toks[c.lo : c.hi]}
        if o is not None and o.head.pos != "PROPN":  # "in the suburbs of Austin": the town after "of"
            o = _town_after(c, o, ("of",))
        if c.toks[m.start].lem in ("get", "find") and clause_words & STAYED:
            return  # "we got a cottage in Padstow for the week": a stay
        if o is not None and subj is not None and subj.type == "PERSON" and o.head.ent in ("GPE", "LOC", "") and not (
                clause_words & NOT_LIVED_IN):
            c.emit(subj, "lives_in", o.text, op)
        return
    if rel == "@notice":  # not a home's ("gave notice on the flat")
        home = m.end < c.hi and c.toks[m.end].lower in ("on", "for") and any(
            t.lower in DWELLINGS or t.lower in ("tenancy", "lease") for t in c.toks[m.end + 1 : min(c.hi, m.end + 4)])
        if not home and not any(
                t.lower in INTENT or t.tag == "VB" for t in c.toks[c.lo : m.end]):  # "I'll hand in my notice": a plan
            _job_left(c, subj)
        return
    if rel == "@from":  # "I'm from Cork": where they grew up ("I'm from the council", "back from Peru": not)
        place = o is not None and o.proper and (o.head.ent in ("GPE", "LOC") or (
            o.head.ent in ("ORG", "") and o.head.pos == "PROPN" and o.start == m.slots["O"]))  # "Cork" is an ORG
        if place and o is not None and subj is not None and subj.type == "PERSON":
            c.emit(subj, "grew_up_in", o.text, op)
        return
    if rel == "@condition":  # "I've got asthma", "I'm diabetic": a condition of theirs, by its name
        said = c.toks[m.end - 1].lower
        if said == "intolerant":  # "lactose intolerant": lactose intolerance
            said = f"{c.toks[m.end - 2].lower} intolerance"
        if subj is not None and subj.type == "PERSON":
            c.emit(subj, "has_condition", CONDITION_ADJECTIVES.get(said, said), op, obj_type="TOPIC")
        return
    if rel == "@diagnosed":  # the condition as said, with a name's "'s" ("Parkinson's")
        eponym = o is not None and o.end < c.hi and c.toks[o.end].tag == "POS"
        if subj is not None and subj.type == "PERSON" and o is not None and o.head.pos in ("NOUN", "PROPN") and (
                eponym or o.head.ent != "PERSON"):
            c.emit(subj, "has_condition", o.text + ("'s" if eponym else ""), op, obj_type="TOPIC")
        return
    if rel == "@injury":  # "I hurt my shoulder": the part hurt, as an event of the one whose it is
        part = c.toks[m.end - 1]
        if subj is not None and subj.type == "PERSON":
            c.emit(subj, "injured", part.lower, op, obj_type="THING")
        return
    if rel == "@study":
        return _study(c, m, subj, op)
    if rel == "@study_before":
        return _study_before(c, m, subj, op)
    if rel == "@at_study":  # "Sam's at Leeds uni"; not a visit ("at Oxford University for an open day", "today")
        if o is not None and o.head.lemma.lower() in STUDY_PLACES and not any(
                t.lower == "for" or t.lower in _A_DAY_OF for t in c.toks[m.start : c.hi]):
            c.emit(subj, "studies_at", o.text, op, obj_type="ORG")
        return
    if rel == "@school_year":  # "in Year 4 at Oakridge Primary": the place by name is a school
        if o is not None and o.proper and subj is not None and subj.type == "PERSON":
            c.emit(subj, "studies_at", o.text, op, obj_type="ORG")
        return
    if rel == "@taken_out":  # "We've taken Tamsin out of Oakridge": the child's school ends
        return _taken_out(c, m, subj, o, op)
    if rel == "@study_at":  # "started at Leeds uni": a place of study; "started at Google" is the job's row
        if o is not None and o.proper and o.head.lemma.lower() in STUDY_PLACES:
            c.emit(subj, "studies_at", o.text, op, obj_type="ORG")
        elif o is not None and o.proper and subj is not None and subj.type == "PERSON" and c.time() is not None and (
                not any(t.lem in _TRAVEL or t.lower in STUDY_PLACES for t in c.toks[c.lo : c.hi])):
            # "Aisha starts at Boots in Leicester next week": a job begun on a day, somewhere by name (not a walk
            # that started at Malham on Saturday)
            c.emit(subj, "works_at", o.text, op, obj_type="ORG")
        elif o is not None and not o.proper and subj is not None and subj.type == "PERSON" and c.time() is not None \
                and o.head.lemma.lower() in WORKPLACES - STUDY_PLACES - JOINED \
                and "the" in (c.toks[o.start].lower, c.toks[o.start - 1].lower):
            # "I start at the hospital pharmacy in March": a workplace said by what it is, begun on a day (not "the
            # school", where a pupil starts too, nor "the gym", joined)
            c.emit(subj, "works_at", o.text.removeprefix("the ").strip(), op, obj_type="ORG")
        return
    if rel == "@fan_noun":  # "a big Arsenal fan", "a football fan": what the words before "fan" name
        words = [t for t in c.toks[m.slots["O"] : m.end - 1] if t.pos not in ("DET", "ADJ")]
        if words and all(t.pos in ("PROPN", "NOUN") for t in words) and words[-1].lower not in NOT_A_TASTE:
            c.emit(subj, "likes", c.source[words[0].idx : words[-1].end], op)
        return
    if rel == "@teach" and o is not None:  # "I teach art at a middle school": where, too
        # "a teaching job at Oakfield", "my teaching post": a kind of job, not what is taught (where, still)
        kind_of_job = m.start > c.lo and (c.toks[m.start - 1].pos == "DET" or c.toks[m.start - 1].lower in MY)
        if o.head.lower not in VAGUE and o.head.pos != "PRON" and not kind_of_job:  # not "teaching others"
            c.emit(subj, "teaches", o.text, op)
        if _works_at_tail(c, o, subj, op):  # teaching at a school, a college: that is the job
            c.emit(subj, "works_as", "teacher", op, obj_type="ROLE")
        return None
    if rel == "@won" and o is not None and o.head.lower not in NOT_A_TASTE and o.head.ent != "PERSON":
        c.emit(subj, "won", o.text, op)  # "won first prize", "won the regional final" (not "won her over")
        return
    if rel == "@race" and o is not None and o.head.lower in RACES:
        c.emit(subj, "ran" if c.toks[m.start].lem == "run" else "completed", o.text, op)
        return
    if rel == "@watched" and o is not None and o.proper and o.head.ent not in _NOT_A_SHOW:
        end = next((i for i in range(o.start + 1, o.end) if c.toks[i].pos == "NUM"), o.end)  # not "… three times"
        c.emit(subj, "watched", c.source[c.toks[o.start].idx : c.toks[end - 1].end], op)  # "watched Dune"
        return
    if rel == "@class":
        return _class(c, m, subj, op)
    if rel == "@trip_event":
        return _trip_event(c, m, subj)
    if rel == "@trip_noun":
        return _trip_noun(c, m, subj, o)
    if rel == "@trip":
        return _trip(c, m, subj, o, op)
    if rel == "@my_passion" and m.slots["O"] < c.hi and c.toks[m.slots["O"]].lower in ("the", "this", "that"):
        return  # "my passion for the project": a particular thing, not a taste
    if rel in ("@work_noun", "@home_noun", "@my_passion"):  # "my …" only: whose it is (not "the job at the mill")
        j = m.start - 1
        while j >= c.lo and (c.toks[j].pos in ("ADJ", "NUM") or c.toks[j].lower in SOFT):
            j -= 1
        # "the new place in York" got by the speaker ("We finally completed on the new place in York"): theirs
        done = next((t for t in reversed(c.toks[c.lo : max(j, c.lo)]) if t.pos == "VERB"), None)
        # or said with no verb at all, of being in it ("First night in the new house in Margate!"; not "Photos of
        # the new flat in Leeds")
        got = rel == "@home_noun" and subj is not None and subj.name == USER and j >= c.lo and (
            c.toks[j].lower == "the" and any(t.lower == "new" for t in c.toks[j + 1 : m.start])) and (
            (done is not None and done.lem in HOME_GOT) or (_verbless(c) and j > c.lo and c.toks[j - 1].lower in (
                "in", "at")))
        if j >= c.lo and (c.toks[j].lower in MY or got):
            if rel != "@my_passion" and ((done is not None and (done.lem in LEFT_BEHIND or (
                    done.lem in SET_ASIDE and c.toks[done.i + 1].lower == "in"))) or any(
                    t.lower in FORMER_ROLE for t in c.toks[j + 1 : m.start])):
                op = "end"  # "I sold my house in Leeds", "I miss my old job at the bakery", "our old house in Leeds"
            _emit_all(c, m, Entity(USER), {"@work_noun": "works_at", "@home_noun": "lives_in"}.get(rel, "likes"), op)
        return
    if rel == "@shift":  # "I'm on nights at the hospital": where the shifts are worked
        if subj is not None:
            _emit_all(c, m, subj, "works_at", op)
        return
    if rel == "@call_home":  # the name between "call" and "home"
        lo, hi = m.slots["O"], m.end - 1
        if hi > lo and all(t.pos == "PROPN" for t in c.toks[lo:hi]):
            c.emit(subj, "lives_in", c.source[c.toks[lo].idx : c.toks[hi - 1].end], op)
        return
    if rel == "@own_home":
        return _own_home(c, m, subj)
    if rel in ("@live_in", "@alone"):  # where, and (said so) with no one
        if rel == "@live_in":
            _emit_all(c, m, subj, "lives_in", op)
        if op == "assert" and subj is not None and subj.type == "PERSON" and any(
                t.lower in ("alone", "own", "solo") for t in c.toks[m.start : m.end]):
            c.emit(subj, "lives_with", "", "end", every=True)
        return
    if rel == "@hobby_verb":
        return _hobby_verb(c, m, subj, op)
    if rel == "@live_with":  # the named people lived with, and the town said after them
        if "O" not in m.slots:  # "My mum lives with us now"
            if subj is not None and subj.name != USER and subj.type == "PERSON":
                c.emit(subj, "lives_with", USER, op, obj_type="PERSON")
            return
        _emit_all(c, m, subj, "lives_with", op)
        last = c.phrases(m.slots["O"], True)
        town = _town_after(c, last[-1]) if last and subj is not None else None
        if town is not None and subj is not None:
            c.emit(subj, "lives_in", town.text, op)
        return
    if rel == "@share_home":
        if o is not None and o.proper and "O2" in m.slots and "O" in m.slots:
            c.emit(subj, "lives_in", o.text, op)
        mate = _one(c, m, "O2") if "O2" in m.slots else None
        at = None if mate is None else mate.start if mate.proper else None
        if mate is not None and not mate.proper and mate.head.lemma.lower() in ROLES and mate.end + 1 < c.hi and (
                c.toks[mate.end].lower == ","):
            at = mate.end + 1  # "with two mates, Josh and Kemi"
        lead = name_at(c.source, c.toks, at) if at is not None and at < c.hi else None
        for one in names_listed(c.source, c.toks, at, lead) if at is not None and lead is not None else []:
            c.emit(subj, "lives_with", one, op, obj_type="PERSON")  # "with Josh and Kemi": each one
        return
    if rel == "@move_out" and o is not None:
        owner = c.toks[o.end] if o.end < c.hi else None
        if o.proper and owner is not None and owner.tag == "POS":  # "moved out of Kasia's place"
            c.emit(subj, "lives_with", o.text, "end", obj_type="PERSON")
        elif o.proper and o.head.ent in ("GPE", "LOC"):  # "moved out of Leeds"
            c.emit(subj, "lives_in", o.text, "end")
        return
    if rel == "@moved_out":  # "Rory moved out (to Leeds)": no longer with the speaker; the town, when said
        if subj is not None and subj.name != USER and subj.type == "PERSON" and op == "assert":
            # "our lodger Piotr moved out": the lodger said in the same sentence no longer lives here
            c.disc.dropped += [f for f in c.out if f.op == "assert" and f.relation == "lives_with"
                               and f.subject == subj.name]
            c.emit(subj, "lives_with", USER, "end", obj_type="PERSON")
        town = noun_phrase(c.source, c.toks, m.end + 1, c.hi) if m.end + 1 < c.hi and c.toks[
            m.end].lower == "to" else None
        if subj is not None and town is not None and town.proper and town.start == m.end + 1:
            c.emit(subj, "lives_in", town.text, op)
        return
    if rel == "@move_in":  # "Raul moved in with me", "I moved in with Raul"
        moved = None
        if c.toks[m.slots["O"]].lower in ("me", "us"):
            if subj.name != USER and subj.type == "PERSON":
                moved = c.emit(subj, "lives_with", USER, op, obj_type="PERSON")
        elif o is not None and o.proper:
            moved = c.emit(subj, "lives_with", o.text, op, obj_type="PERSON")
        elif o is not None and (kin := _my_role(c, o)) is not None:  # "moved back in with my parents"
            moved = c.emit(subj, "lives_with", kin, op, obj_type="PERSON")
        town = _town_after(c, o) if o is not None else None
        if town is not None:  # "… moved back in with my parents in York": the move is to York
            c.emit(subj, "lives_in", town.text, op)
        elif moved is not None and moved.op == "assert":  # a move made: the home before is not theirs now
            c.emit(subj, "lives_in", "", "end")
        return
    if o is None:
        return
    if rel == "@move_as":
        return _move_as(c, m, subj, o, op)
    if rel == "@move_from":
        o2 = _one(c, m, "O2")
        # a place left for another is a move only where the words say one ("Flat out packing boxes, we're leaving
        # Brisbane for Toowoomba"): not a week away, nor a firm left for another ("left Barclays for Monzo")
        clause = span_text(c.source, c.toks, c.lo, c.hi)
        if c.toks[m.start].lem == "leave" and (_AWAY_FOR_A_WHILE.search(clause) or not _MOVING_SAID.search(c.source)):
            return
        if o.proper and o2 is not None and o2.proper:
            c.emit(subj, "lives_in", o.text, "end")
            c.emit(subj, "lives_in", o2.text, op)
    elif rel in ("@switch", "@switch_to", "@swap"):
        _switch(c, m, subj, o, op)
    elif rel == "@cancel":
        _cancelled(c, subj, o)
    elif rel == "@join":
        called = o.end < c.hi and c.toks[o.end].lower in ("called", "named")
        named = _after_name(c, o) if called and not o.proper and o.head.lower in WORKPLACES else None
        if named is not None:  # "joined a startup called Brightwave": the firm by its name; a gym's members
            member = o.head.lower in JOINED or cat == "group"
            c.emit(subj, "member_of" if member else "works_at", named.text, op, obj_type="ORG")
        # "PureGym" too; a body named by its members ("joined the Scouts", "the Samaritans") is no employer
        elif cat == "group" or any(t.endswith(w) for t in o.text.lower().split() for w in JOINED) or (
                o.proper and o.head.tag in ("NNS", "NNPS")):
            c.emit(subj, "member_of", o.text, op, obj_type="ORG")
        elif o.proper:
            c.emit(subj, "works_at", o.text, op, obj_type="ORG")
        elif not called and o.head.lower in WORKPLACES and o.head.lower not in JOINED_NOT_WORK and (
                o.head.tag != "NNS" and o.start == _skip_det(c.toks, m.slots["O"], c.hi)):
            c.emit(subj, "works_at", o.text, op, obj_type="ORG")  # "joined a start-up", "she's joined the council"
    elif rel == "@leave" and not o.proper and o.head.lemma.lower() in JOB_HELD:
        before = c.toks[m.start - 1] if m.start > c.lo else None
        # "Losing my job was a bummer": an old event referred to, not news; "folks who lost their jobs": not theirs
        if c.toks[m.start].tag != "VBG" and o.head.tag != "NNS" and (before is None or before.lower not in (
                "who", "that", "which")):
            _job_left(c, subj)
    elif rel == "@leave" and not o.proper and o.head.lower in WORKPLACES and c.toks[m.start].lem == "leave" and (
            o.start == _skip_det(c.toks, m.slots["O"], c.hi)) and _perfect(c, m):
        # "Luke's left the council", "I've left the bank": the work there (not "I left the hospital at six")
        c.emit(subj, "works_at", c.source[c.toks[o.head.i].idx : c.toks[o.end - 1].end], "end", obj_type="ORG")
    elif rel == "@leave" and not o.proper and c.toks[m.start].lem != "lose" and (
            worker := _trade_left(c, m, o)) is not None:
        c.emit(subj, "works_as", worker, "end")  # "Kate's left nursing": the job of that trade, if held
        _trade_left_now(c, m, subj)
    elif rel == "@leave" and c.toks[m.start].lem in SET_ASIDE and o.start == m.slots["O"] and (
            o.end - o.start == 1 and o.head.lower.endswith("ing")):
        c.emit(subj, "practices", o.text, "end", obj_type="ACTIVITY")  # "I quit smoking in March": a doing given up
    elif rel == "@leave" and o.proper and c.toks[m.start].lemma.lower() != "lose":
        if o.end + 1 < c.hi and c.toks[o.end].lower == "for" and c.toks[o.end + 1].pos == "PROPN":
            return  # "leaving Brisbane for Toowoomba": a place left for another, read as a move or a trip
        prev = c.disc.last_object(o.text)
        if prev is not None and prev.relation in ("works_at", "lives_in", "member_of", "studies_at"):
            c.emit(subj, prev.relation, prev.object, "end")
        elif o.head.ent not in ("GPE", "LOC") or any(f.relation == "works_at" for f in c.disc.facts[-4:]):
            c.emit(subj, "works_at", o.text, "end", obj_type="ORG")
    elif rel in ("@take_up", "@give_up") and not (cat is None and c.toks[m.start].lem == "pick" and c.toks[
            m.slots["O"]].lower in ("a", "an", "the", "this", "that")):
        # "picked up a book", "picked up the kids": a thing, not a pastime ("picked up knitting", "the guitar")
        end = rel == "@give_up"
        if end and not o.proper and o.head.lemma.lower() in JOB_HELD and o.head.tag != "NNS" and subj is not None:
            # "Ruth's packed in the council job", "jacked in my job at the bank": the work held ends, there if named
            if not _workplace_at(c, o.end, subj, "end", ("at", "with", "for")):
                _job_left(c, subj)
            return
        if o.head.lemma.lower() in HABIT_NOUNS and o.head.pos == "NOUN":  # "binned the vape", "gave up cigarettes"
            c.emit(subj, "practices", HABIT_NOUNS[o.head.lemma.lower()], "end" if end else op, obj_type="ACTIVITY")
            return
        if end and (worker := _trade_left(c, m, o)) is not None:
            c.emit(subj, "works_as", worker, "end")  # "packed in teaching": the job of that trade, if held
            _trade_left_now(c, m, subj)
        if c.toks[m.start].lem in SET_ASIDE and not any(t.lower.endswith("ing") for t in c.toks[m.start + 1 : o.end]):
            return  # "packed in the car": a thing put away
        if cat == "car":  # "picked up a second-hand Tesla": a car got, not a pastime
            if not end and c.toks[m.start].lem in ("pick", "get") and (car := _car(c, o)) is not None:
                c.emit(subj, "drives", car, op, obj_type="THING")
        elif cat == "instrument" or any(t.lem == "play" for t in c.toks[m.start : m.slots["O"]]):
            c.emit(subj, "plays", o.text, "end" if end else op)
        elif cat == "language" and not end:
            c.emit(subj, "studies", o.text, op, obj_type="TOPIC")
        elif o.proper and cat is None and (o.head.ent in ("GPE", "LOC", "ORG", "FAC", "PERSON") or (
                o.head.lemma.lower() in STUDY_PLACES)):  # "got into Oxford", "into Leeds Uni": a place, not a pastime
            if o.head.lemma.lower() in STUDY_PLACES and not end:
                c.emit(subj, "studies_at", o.text, op, obj_type="ORG")
        elif cat != "food" and (o.head.pos in ("NOUN", "PROPN") or o.head.tag == "VBG"):
            doing = o.text[6:] if o.text.lower().startswith("going ") else o.text  # "stopped going swimming"
            if doing.lower() != "going":  # "stopped going to the gym": where one went, not a pastime
                c.emit(subj, "practices", doing, "end" if end else op, obj_type="ACTIVITY")
    elif rel == "@play":  # not a day ("we play Thursday nights")
        if cat in ("instrument", "sport", "game") or (cat is None and o.head.pos in ("NOUN", "PROPN") and not any(
                t.ent in ("DATE", "TIME") for t in c.toks[o.start : o.end])):
            c.emit(subj, "plays", o.text, op)
    elif (rel == "@do" and cat in ("activity", "sport")) or (
        # "go climbing"; "go wild swimming", "go sea fishing", the pastime's noun after words that say which kind
        rel == "@go" and (o.head.tag == "VBG" or (o.head.pos == "NOUN" and o.head.lower in ACTIVITIES))
        and o.start == m.slots["O"] and not _going_now(c, m)
    ):
        c.emit(subj, "practices", o.text, op)
    elif rel == "@speak":
        for ph in c.phrases(m.slots["O"], True):
            if category(ph.text) == "language":
                c.emit(subj, "speaks", ph.text, op, obj_type="TOPIC")
    elif rel == "@learn":
        if cat == "language":
            c.emit(subj, "studies", o.text, op, obj_type="TOPIC")
        elif cat == "instrument":
            c.emit(subj, "plays", o.text, op)
    elif rel == "@drive" and c.toks[m.start].pos == "VERB" and (cat == "car" or (
            o.head.pos == "PROPN" and o.head.ent not in ("DATE", "TIME"))):  # not "a sixty mile ride every Sunday"
        c.emit(subj, "drives", o.text, op, obj_type="THING")
    elif rel == "@sell" and o.proper and (o.head.ent not in ("GPE", "LOC", "PERSON") or c.toks[
            m.slots["O"]].lower in ("the", "my", "our")):
        # a car or a bike by its make ("Sold the Corsa", "the Bonneville"): ends only what is driven by that name
        # (the tagger's "the Bonneville" is a person, "the Ducati" a town)
        c.emit(subj, "drives", o.text, "end", obj_type="THING")
    elif rel == "@acquire" or (rel == "@brought_home" and o.head.lemma.lower() in PETS):
        _acquire(c, m, subj, o, op)  # "we've come home with two guinea pigs" (not "came home with a cold")


def gerund(verb: str) -> str:
    """knit -> knitting, dance -> dancing, paint -> painting."""
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb[:-1] + "ing"
    vowels = "aeiou"
    if (
        len(verb) <= 4
        and len(verb) >= 3
        and verb[-1] not in vowels + "wxy"
        and verb[-2] in vowels
        and verb[-3] not in vowels
    ):
        return verb + verb[-1] + "ing"
    return verb + "ing"


# What "my" makes of the clause's subject a taste ("Baking is really my thing", "Crosswords are my jam")
_TASTE_NOUNS = frozenset({"favourite", "favorite", "passion", "obsession", "thing", "jam", "hobby", "pastime"})


def _opening(c: Clause, end: int) -> int:
    """Where the clause's words start, before ``end``: past an "Oh,", "honestly", "and"."""
    first = c.lo
    while first < end and (c.toks[first].pos in ("INTJ", "PUNCT", "ADV", "CCONJ") or c.toks[first].lower in SOFT):
        first += 1
    return first


def _as_named(text: str, first: Tok) -> str:
    """A thing said at the clause's start, as it would be said inside one: "Pottery" -> "pottery", a name kept."""
    return text if first.pos == "PROPN" else text[:1].lower() + text[1:]


# kinds said after a people's adjective to name a taste ("Thai food", "Italian wine")
_KIND_SAID_WITH = frozenset("food dish dishes meal meals snack snacks drink drinks wine beer music film films".split())


def _taste_first(c: Clause, m: Match, op: str) -> bool:
    """'Pottery is my favourite thing to do', 'Cooking has always been a passion of mine': the clause's subject
    is a taste of the speaker's ("my", "of mine"); not a person, a pronoun or a particular ("my favourite cousin").
    True when the sentence is of that shape (a fact or, negated, none)."""
    t = c.toks
    fav = next((i for i in range(m.start, min(c.hi, m.start + 6)) if t[i].lower in _TASTE_NOUNS or (
        t[i].lower == "place" and t[i - 1].lower == "happy")), None)  # "Gardening's my happy place"
    if fav is None:
        return False
    after = t[fav + 1] if fav + 1 < c.hi else None
    if after is not None and after.pos in ("NOUN", "PROPN") and after.lower not in FAVOURITE_OF:
        return False  # "my favourite cousin", "my favourite place in town"
    mine = any(x.lower in MY for x in t[m.start : fav]) or (
        fav + 2 < c.hi and t[fav + 1].lower == "of" and t[fav + 2].lower in ("mine", "ours"))
    first = _opening(c, m.start)
    last = m.start
    while last > first and (t[last - 1].pos in ("AUX", "ADV", "PART") or t[last - 1].lower in SOFT):
        last -= 1
    if t[first].lower == "the" and first + 1 < last:
        first += 1  # "The allotment is my happy place"
    person = t[first].ent == "PERSON" and not (after is not None and after.lower in FAVOURITE_PEOPLE)
    if not mine or last <= first or t[first].pos not in ("NOUN", "PROPN", "VERB") or person or any(
            x.pos in ("PRON", "AUX") or x.lower in ROLES for x in t[first:last]):
        return False
    if _negated(c, fav) or (t[m.start].tag == "VBD" and not _ceased(c)):
        return True  # "Gardening isn't my favourite thing"; "Jazz was my favourite (back then)": nothing now
    taste = c.source[t[first].idx : t[last - 1].end]
    if last - first == 1 and t[first].ent == "NORP" and after is not None and after.lower in _KIND_SAID_WITH:
        taste = f"{taste} {after.lower}"  # "Thai is my favourite food": Thai food (as "gone off Thai food" says it)
    if taste.lower() not in NOT_A_TASTE:  # a hobby is done ("Knitting is my hobby"), a favourite liked
        rel = "practices" if t[fav].lower in ("hobby", "pastime") else "likes"
        c.emit(Entity(USER), rel, _as_named(taste, t[first]), op)
    return True


def _trip(c: Clause, m: Match, subj: Entity | None, o: Phrase | None, op: str) -> None:
    """A trip to a named place: made (past: `visited`, when) or planned (intention or a time ahead:
    `plans_trip_to`); "I go to Paris every year" says neither."""
    if subj is None or o is None or op != "assert":
        return
    trig = c.toks[m.start]
    before = c.toks[c.lo : m.start]
    when = c.time()
    ahead = when is not None and when.when > c.at
    intends = any(t.lower in INTENT for t in before) or (trig.tag == "VBG" and (
        not before or before[-1].lem == "be" or any(t.lem == "be" for t in before[-2:]))) or (
        trig.lem == "be" and trig.tag not in ("VBD", "VBN"))  # "we're off to Crete"
    past = trig.tag in ("VBD", "VBN") and not (trig.lower == "been" and any(t.lower == "will" for t in before))
    place = o if o.proper and o.head.ent in ("GPE", "LOC", "FAC") else _town_after(c, o)
    purpose = c.toks[o.end + 1] if o.end + 1 < c.hi and c.toks[o.end].lower == "to" else None
    if place is not None and purpose is not None and purpose.lem in ("study", "work", "live", "train", "settle"):
        # gone there for a while, not a trip ("Megan has gone off to Durham to study law")
        if purpose.lem == "study" and past and subj.type == "PERSON":
            c.emit(subj, "studies_at", place.text, op, obj_type="ORG")
            what = noun_phrase(c.source, c.toks, o.end + 2, c.hi)
            if what is not None and what.head.pos == "NOUN" and what.head.lower not in VAGUE:
                c.emit(subj, "studies", what.text, op, obj_type="TOPIC")
        return
    if place is None:
        if o.head.lower in EVENT_NOUNS and not o.proper:  # "went to a fair", "going to a wedding in June"
            if ahead or intends:
                c.emit(subj, "plans_to_attend", o.text, kind="plan")
            elif past:
                c.emit(subj, "attended", o.text)
        elif past and trig.lem == "visit" and o.head.pos == "NOUN" and o.head.lower not in ROLES and not any(
                t.tag in ("PRP$", "POS") or t.lower in ROLES for t in c.toks[o.start - 1 : o.end + 1]):
            c.emit(subj, "visited", o.text)  # "I visited a veterans' hospital" (not "visited my gran")
        return
    if ahead or intends:  # the speaker's own plan too, when the pair was read as the other one's ("me and my
        # cousin Bea are off to Naples"); not the other's beside the speaker's: with "Bea plans trip to Rome" and
        # "User plans trip to Rome" both in its prompt, the model answered "Who is coming to Rome with me?" with
        # "The user"
        for who in (subj, *(w for w in _with_speaker(c, m, subj) if w.name == USER)):
            c.emit(who, "plans_trip_to", place.text, kind="plan")
    elif past:
        c.emit(subj, "visited", place.text)


# how long a habit has been kept up, for it to be one ("for five years", not "for an hour")
_LONG = frozenset({"year", "years", "month", "months", "decade", "decades", "ages", "while", "long"})


def _expecting(c: Clause, m: Match, subj: Entity | None) -> None:
    """'Amy's expecting our second in March!', 'We're expecting twins', 'my sister is pregnant': a baby on the way,
    kept as a plan for when it is due (if said). Not "expecting a parcel", nor negated or wished."""
    if subj is None or subj.type != "PERSON" or _negated(c, m.start + 1):
        return
    if any(t.tag == "MD" or t.lower in IRREALIS or t.lem in IRREALIS for t in c.toks[c.lo : m.start]):
        return  # "we're hoping to be expecting by summer", "she might be pregnant"
    if "O" in m.slots:
        o = noun_phrase(c.source, c.toks, m.slots["O"], c.hi)  # (none for "our second": an ordinal alone)
        said = {t.lower for t in c.toks[m.slots["O"] : o.end if o is not None else m.slots["O"] + 2]}
        if not said & BABY_WORDS:
            return
        what = "twins" if "twins" in said else "baby"
    else:
        what = "baby"
    c.emit(subj, "expecting", what, kind="plan")


def _graduated(c: Clause, m: Match, subj: Entity | None) -> None:
    """'I graduated from Leeds in July', 'Graduated today with a 2:1 in history!': where from (an event), and the
    studies are over: the place studied at, and the subject when said ("in history")."""
    if subj is None or subj.type != "PERSON" or _negated(c, m.start + 1):
        return
    k = m.end
    place = noun_phrase(c.source, c.toks, k + 1, c.hi) if k + 1 < c.hi and c.toks[k].lower == "from" else None
    if place is not None:  # (learning ends the studies there: vocabulary.ENDS_OTHERS)
        c.emit(subj, "graduated_from", place.text, obj_type="ORG" if place.proper else None)
    when = c.time()
    if when is not None and (c.at - when.when).days > 366:
        return  # "I graduated in 2015": long done, not the studies of now
    if place is None:
        c.emit(subj, "studies_at", "", "end")
    at_in = next((i for i in range(k, c.hi - 1) if c.toks[i].lower == "in"), None)
    topic = noun_phrase(c.source, c.toks, at_in + 1, c.hi) if at_in is not None else None
    if topic is not None and not topic.proper and topic.head.pos == "NOUN" and topic.head.ent not in ("DATE", "TIME"):
        c.emit(subj, "studies", topic.text, "end", obj_type="TOPIC")


def _habit_off(c: Clause, m: Match, subj: Entity | None) -> None:
    """'Three months without a cigarette now', 'five months smoke-free': a habit given up (HABIT_NOUNS), said as
    a while gone without it; the speaker's when the clause names no one. Not "a night out without a cigarette"."""
    if "O" in m.slots:
        o = _one(c, m)
        before = c.toks[m.start - 1] if m.start > 0 else None  # (the while may be a clause of its own)
        if o is None or before is None or before.lemma.lower() not in _PERIODS:
            return
        thing = o.head.lemma.lower()
    else:
        thing = c.toks[m.start].lemma.lower()
    if subj is None and any(t.dep.startswith("nsubj") for t in c.toks[c.lo : m.start]):
        return  # "The pub has been smoke-free for years": something's, not a person's
    if thing in HABIT_NOUNS and not _negated(c, m.start):  # not "I haven't gone a day without a cigarette"
        c.emit(subj or Entity(USER), "practices", HABIT_NOUNS[thing], "end", obj_type="ACTIVITY")


_PERIODS = frozenset({"day", "week", "fortnight", "month", "year"})


def _long(c: Clause, i: int) -> bool:
    """The clause says, from token ``i`` on, that it has held a while: "since…", "for five years", "for ages"."""
    after = [t.lower for t in c.toks[i : c.hi]]
    return "since" in after or any(w == "for" and set(after[k + 1 : k + 4]) & _LONG for k, w in enumerate(after))


def _out_in(c: Clause, m: Match, subj: Entity | None, o: Phrase | None, op: str) -> None:
    """'Callum has been out in Calgary for six years', 'Dad's over in Spain these days': where someone lives, said
    as a while or as now; not a stay ("we're out in Cornwall this week", "I've been out in town all day")."""
    if subj is None or o is None or not o.proper or o.head.ent not in ("GPE", "LOC", "ORG", ""):  # ("Cork": ORG)
        return
    words = [t.lower for t in c.toks[m.end : c.hi]]
    if _long(c, m.end) or any(said_in(words, p) for p in STILL_NOW):
        c.emit(subj, "lives_in", o.text, op, obj_type="PLACE")


_DISTANCE = re.compile(r"^\d+(\.\d+)?(k|km|ks|kms|miles?)?$")


def _own_home(c: Clause, m: Match, subj: Entity | None) -> None:
    """A home of their own got ("Me and my girlfriend Isla have got our own place in Dundee now", "Dan and I bought
    our own house"): they live there, with no one but whom they got it with (the parents lived with before, no
    more)."""
    start = m.start  # the whole subject, whatever clause the parser's "and" split off ("Me and my girlfriend Isla")
    while start > 0 and c.toks[start - 1].pos != "PUNCT" and (
            c.toks[start - 1].pos != "VERB" or c.toks[start - 1].dep == "aux"):
        start -= 1
    before = c.toks[start : m.start]
    who = Entity(USER) if any(t.lower in ("me", "i", "we") for t in before) else subj
    if who is None or who.type != "PERSON" or who.unresolved or _negated(c, m.start + 1):
        return
    home = Phrase("", m.end - 1, m.end, c.toks[m.end - 1])
    town = _town_after(c, home, ("in",))
    mates = [n for k in range(start, m.start) if c.toks[k].pos == "PROPN" and (k == start or c.toks[
        k - 1].pos != "PROPN") and (n := name_at(c.source, c.toks, k)) is not None and n != who.name]
    ours = any(t.lower in ("we", "our") for t in c.toks[start : m.end])
    if mates or not ours:  # "we", "our" alone: with whom is not said
        c.emit(who, "lives_with", "", "end", every=True)
    for mate in mates:
        c.emit(who, "lives_with", mate, "assert", obj_type="PERSON")
    if town is not None:
        for one in (who, *(Entity(n, "PERSON") for n in mates)):
            c.emit(one, "lives_in", town.text, "assert")


def _habit_now(c: Clause, m: Match) -> bool:
    """A verb tagged past whose past is its own form, told with words of a habit after it ("I knit a lot", "I cut
    hair most Saturdays"): the present's habit, whatever the tagger guessed."""
    trig = c.toks[m.start]
    return trig.tag == "VBD" and trig.lower == trig.lem and any(t.lower in HABIT_SAID for t in c.toks[m.end : c.hi])


def _hobby_verb(c: Clause, m: Match, subj: Entity | None, op: str) -> None:
    """'I knit a lot', 'she paints in her spare time': a hobby told by its verb with no object, as a habit (the
    simple present, or "used to"); not "I paint my nails", "we sang happy birthday", "can you draw?"."""
    trig = c.toks[m.start]
    nxt = c.toks[m.end] if m.end < c.hi else None
    # "I've been painting landscapes for five years", "…knitting since I was a kid": a habit kept up a while, what
    # is painted aside (not someone's things: "painting my nails")
    kept_up = (trig.tag == "VBG" and m.start - 1 >= c.lo and c.toks[m.start - 1].lower == "been" and _long(c, m.end)
               and (nxt is None or (nxt.pos not in ("PRON", "DET", "PROPN") and nxt.tag != "PRP$")))
    if kept_up and subj is not None:
        c.emit(subj, "practices", gerund(trig.lemma.lower()), op, obj_type="ACTIVITY")
        return
    after = c.toks[m.end + 1].lower if m.end + 1 < c.hi else ""
    # "I run 5k every morning", "swim 2km", "three times a week", "a lot" (not "I run a café")
    how_much = nxt is not None and ((bool(_DISTANCE.match(nxt.lower)) and after != "people") or after == "times" or (
        nxt.lower == "a" and after in ("lot", "bit", "little")) or nxt.lower in HABIT_SAID)
    if subj is None or trig.pos != "VERB" or trig.tag not in ("VBP", "VBZ", "VB", "VBD") or (
            nxt is not None and (nxt.pos in ("DET", "NOUN", "PROPN", "PRON", "NUM") or nxt.tag == "PRP$")
            and not how_much):
        return
    if trig.lem == "run" and (subj.type != "PERSON" or (nxt is not None and nxt.lower in ("for", "out", "into"))):
        return  # "the car runs well", "I run for the bus", "we've run out of milk"
    if trig.tag == "VBD" and op != "end" and not _habit_now(c, m):  # "I painted" told once (an event)
        return
    if trig.tag == "VB" and not any(t.lower in ("do", "does", "to") for t in c.toks[max(c.lo, m.start - 2) : m.start]):
        return
    c.emit(subj, "practices", gerund(trig.lemma.lower()), op, obj_type="ACTIVITY")


def _my_role(c: Clause, o: Phrase) -> str | None:
    """'my parents', 'our mum': the speaker's people by their role, said so ("my parents"), or None."""
    if o.start > c.lo and c.toks[o.start - 1].lower in MY and o.head.lemma.lower() in ROLES and (
            o.end - o.start == 1) and (o.end >= c.hi or c.toks[o.end].tag != "POS"):  # not "my boss's family"
        return f"my {o.head.lower}"
    return None


def _study(c: Clause, m: Match, subj: Entity | None, op: str) -> None:
    """'studying law at Bristol', 'doing a part-time MA in history at Birkbeck': the subject studied, and where
    when a name follows "at". A course or degree counts only when said to be being done ("I have a degree in
    nursing" is done)."""
    if subj is None or subj.type != "PERSON":
        return
    if c.toks[m.start].lem not in ("study", "studying") and not any(
            t.lem in STUDYING for t in c.toks[c.lo : m.start] if t.pos in ("VERB", "AUX")):
        return
    topic = noun_phrase(c.source, c.toks, m.slots["O"], c.hi)
    if topic is not None and topic.head.pos in ("NOUN", "PROPN") and topic.head.ent not in ("GPE", "ORG", "DATE"):
        c.emit(subj, "studies", topic.text, op, obj_type="TOPIC")
    at = m.slots.get("O2")
    if at is None and topic is not None and topic.end < c.hi and c.toks[topic.end].lower == "at":
        at = topic.end + 1  # "… in history at Birkbeck"
    place = noun_phrase(c.source, c.toks, at, c.hi) if at is not None else None
    if place is not None and place.proper:
        c.emit(subj, "studies_at", place.text, op, obj_type="ORG")


def _study_before(c: Clause, m: Match, subj: Entity | None, op: str) -> None:
    """'doing a law degree at Exeter', 'in my second year of a nursing degree at Salford': the nouns before the
    course are what is studied, a name after "at" where. Said of one being done only (as ``_study``), or of a year
    of it the subject is in; "I have a nursing degree" is done."""
    if subj is None or subj.type != "PERSON":
        return
    t = c.toks
    k = m.start
    while k - 1 >= c.lo and (t[k - 1].pos in ("NOUN", "PROPN") or (t[k - 1].pos == "ADJ" and t[k - 1].text[
            :1].isupper())) and t[k - 1].ent not in ("DATE", "TIME"):
        k -= 1  # the compound before the course: "nursing", "computer science", "Spanish" (an adjective)
    if k == m.start or k - 1 < c.lo or t[k - 1].pos != "DET":
        return  # "my degree", "the course": nothing named; "Sam's law degree": someone's
    doing = any(x.lem in STUDYING and x.tag != "VBD" for x in t[c.lo : k] if x.pos in ("VERB", "AUX")) or any(
        x.lower == "year" and y.lower == "of" for x, y in zip(t[c.lo : k], t[c.lo + 1 : k], strict=False))
    if not doing:  # "I did a first aid course": done
        return
    said = c.source[t[k].idx : t[m.start - 1].end]
    if t[m.start - 1].lower in STUDY_PLACES:  # "an Open University course": where, not what
        c.emit(subj, "studies_at", said, op, obj_type="ORG")
        return
    c.emit(subj, "studies", said, op, obj_type="TOPIC")
    place = _one(c, m) if "O" in m.slots else None
    if place is not None and place.proper:
        c.emit(subj, "studies_at", place.text, op, obj_type="ORG")


def _class(c: Clause, m: Match, subj: Entity | None, op: str) -> None:
    """'I started a weekend yoga class', 'we're taking salsa lessons', 'signed up for an evening class in Italian':
    the activity the class teaches is done (an instrument or a language is learnt); said ahead, it is not done yet."""
    start = m.start + 1  # the filler may have taken the class's first words ("Japanese lessons")
    head = next((i for i in range(start, min(c.hi, start + 6)) if c.toks[i].lower in CLASS_NOUNS), None)
    if subj is None or head is None or op != "assert":
        return
    # not a light verb before it ("started going to a spin class": spin)
    what = [t for t in c.toks[start:head] if t.pos in ("NOUN", "PROPN", "ADJ", "VERB") and t.lem not in LIGHT_VERBS]
    if head + 1 < c.hi and c.toks[head + 1].lower in ("in", "on"):  # "a class in Italian", "lessons on the cello"
        what += [t for t in c.toks[head + 2 : min(c.hi, head + 5)] if t.pos in ("NOUN", "PROPN", "ADJ", "VERB")]
    taught = next((t for t in reversed(what) if category(t.text) is not None), None)
    if taught is None:
        return
    when = c.time()
    starts = c.toks[m.start].lem in ("start", "begin", "join")  # "…next month" puts a start ahead ("on Tuesdays": not)
    if (starts and when is not None and when.when > c.at) or any(t.lower in INTENT for t in c.toks[c.lo : m.start]):
        return
    cat = category(taught.text)
    if cat in ("instrument", "language"):
        c.emit(subj, "learns", taught.text, op)
    elif cat in ("activity", "sport"):
        c.emit(subj, "practices", taught.text, op, obj_type="ACTIVITY")


def _stranded(c: Clause, m: Match, rel: str, op: str) -> None:
    """'the homeless shelter I volunteer at', 'the café I work at' (no object after the preposition): the place
    is the phrase before the speaker."""
    t = c.toks
    j = m.start - 1
    while j >= c.lo and (t[j].lower in SOFT or t[j].pos == "AUX"):
        j -= 1
    if j < c.lo + 1 or t[j].lower not in ("i", "we") or t[j - 1].pos not in ("NOUN", "PROPN"):
        return
    k = j - 1
    while k - 1 >= c.lo and t[k - 1].pos in ("NOUN", "PROPN", "ADJ"):
        k -= 1
    place = c.source[t[k].idx : t[j - 1].end]
    if rel == "works_at" and not (t[j - 1].pos == "PROPN" or t[j - 1].lower in WORKPLACES):
        return
    c.emit(Entity(USER), rel, place, op)


def _trip_noun(c: Clause, m: Match, subj: Entity | None, o: Phrase | None) -> None:
    """'ten days in Vietnam', 'our trip to Japan in May': a visit, or a plan when it is looked forward to or dated
    ahead; not one that did not happen ("we never went on the trip to Peru")."""
    if subj is None or o is None:
        return
    place = o if o.proper else _town_after(c, o)
    before = c.toks[c.lo : m.start]
    owned = place is o and (any(t.tag == "PRP$" for t in c.toks[o.start : o.end]) or o.head.ent in ("DATE", "TIME"))
    if owned or (before and before[-1].lower in HOW_OFTEN):
        return  # "most days on my old Raleigh": a habit; a thing of someone's, or a month, is no place
    longing = any(t.lower == "wait" for t in before)  # "can't wait for": no negation
    if place is None or (_negated(c, m.start) and not longing) or any(t.lem in CALLED_OFF for t in before):
        # "we never went on the trip to Peru", "had to cancel our trip to Rome": no visit, no plan
        return
    when = c.time()
    ahead = any(t.lower in AHEAD for t in before)
    if ahead and (when is None or when.when <= c.at):  # "Booked a trip to Porto for September": what is booked
        later = dates.resolve(c.text(), c.at, direction="future")  # is ahead, whatever the verb's tense;
        when = later if later is not None and later.when > c.at else None  # "booked it today": no time for it
        if when is None:
            c.emit(subj, "plans_trip_to", place.text, kind="plan", timeless=True)
            return
    if longing or (when is not None and when.when > c.at) or ahead:
        c.emit(subj, "plans_trip_to", place.text, kind="plan", when=when)
    else:
        c.emit(subj, "visited", place.text)


def _cancelled(c: Clause, subj: Entity | None, o: Phrase) -> None:
    """A trip called off, by its place ("We've cancelled Portugal") or as a trip there ("had to cancel our trip to
    Rome"): the plan ends. A name is read as a place whatever the tagger made of it ("Crete" as a firm): only a plan
    held by that name ends ("cancelled Netflix" ends none). Not a thing said by its kind ("cancelled the party")."""
    if subj is None:
        return
    # called off when said: a time in the words is the trip's or another's ("money's too tight this year")
    if o.proper and o.head.ent != "PERSON":
        c.emit(subj, "plans_trip_to", o.text, "end", timeless=True)
    elif o.head.lower in TRIP_WORDS and (place := _town_after(c, o)) is not None:
        c.emit(subj, "plans_trip_to", place.text, "end", timeless=True)


def _trip_event(c: Clause, m: Match, subj: Entity | None) -> None:
    """'Just got back from a family road trip', 'we went on a ski holiday': the trip made, by its kind (a trip with no
    kind said, "got back from a trip", says too little to keep); where it went, if named, is a visit of its own."""
    if subj is None:
        return
    start = next(i for i in range(m.start, m.end) if c.toks[i].lower in ("from", "on")) + 1
    words = [t for t in c.toks[start : m.end] if t.pos not in ("DET", "PUNCT") and t.tag != "PRP$"]
    if len(words) >= 2 and not any(t.lower in NOT_A_TASTE for t in words):
        c.emit(subj, "went_on", c.source[words[0].idx : words[-1].end])
    if m.end + 1 < c.hi and c.toks[m.end].lower in ("to", "in", "on"):  # "… a road trip to Oregon"
        place = noun_phrase(c.source, c.toks, m.end + 1, c.hi)
        if place is not None and place.proper and place.head.ent in ("GPE", "LOC", "FAC", ""):
            c.emit(subj, "visited", place.text)


def introduction(c: Clause) -> None:
    """"I'm Ruth", "Hi, I'm Ruth, by the way": a clause that is only the speaker's "I", "am" and a person's name
    tells the speaker's name (not "I'm Ruth's mum", "this is Max")."""
    i = c.lo
    while i < c.hi and c.toks[i].pos in ("INTJ", "PUNCT"):
        i += 1
    if i + 2 >= c.hi or c.toks[i].text != "I" or c.toks[i + 1].lem != "be" or c.toks[i + 1].dep == "aux":
        return
    o = noun_phrase(c.source, c.toks, i + 2, c.hi)
    if o is not None and o.start == i + 2 and o.proper and o.head.ent == "PERSON" and _named_alone(c, o):
        c.emit(Entity(USER), "named", o.text, "assert")


def _named_alone(c: Clause, o: Phrase) -> bool:
    """A name that is all the clause says after the verb ("I'm Ruth, by the way"; not "I'm Ruth's mum", "I'm
    Ruth Ellis's neighbour", "my name is Ruth too")."""
    rest = list(takewhile(lambda t: t.pos not in ("PUNCT", "CCONJ"), c.toks[o.end : c.hi]))
    return (o.end - o.start <= 3 and all(t.pos in ("PROPN",) for t in c.toks[o.start : o.end])
            and not any(t.tag == "POS" or t.pos in ("NOUN", "PROPN", "VERB", "ADV") for t in rest))


def _trade_for(c: Clause, m: Match, subj: Entity | None, o: Phrase | None, op: str) -> None:
    """'Dad drives buses for Arriva', 'I drive for Uber': a trade plied, now, for an employer by name (not for a
    person, a family, or a place); said with nothing between, the job too."""
    verb = c.toks[m.start]
    # the simple present, or the present progressive ("I'm driving for Uber now"; not "I was driving for Uber")
    now = verb.tag in ("VBZ", "VBP") or (verb.tag == "VBG" and m.start > c.lo and c.toks[m.start - 1].lem == "be"
                                           and c.toks[m.start - 1].tag in ("VBZ", "VBP"))
    if subj is None or o is None or subj.type != "PERSON" or not o.proper or not now or (
            o.head.ent in ("PERSON", "GPE", "LOC", "NORP", "DATE", "TIME", "EVENT") or o.head.tag == "NNPS"):
        return
    c.emit(subj, "works_at", o.text, op, obj_type="ORG")
    at = next(i for i in range(m.start + 1, m.end) if c.toks[i].lower == "for")
    if at == m.start + 1 and (worker := agent_noun(verb.lem)) is not None:
        c.emit(subj, "works_as", worker, op, obj_type="ROLE")
    for own in find_matches(c.toks, m.start, at):  # what the verb itself says ("drives a Golf"), as its row reads
        handle(c, own, subj)


def _trade_left(c: Clause, m: Match, o: Phrase) -> str | None:
    """Who works in the trade given up or left, when the object is one said alone ("teaching", "accountancy")."""
    if o.end - o.start != 1 or o.start != m.slots["O"] or o.head.pos not in ("NOUN", "VERB"):
        return None
    return trade_worker(o.head.lower)


def _trade_left_now(c: Clause, m: Match, subj: Entity | None) -> None:
    """A trade left as news ("I've left teaching", "Kate's packed in nursing"): the place worked at ends with it; not
    one left long ago ("I left nursing in 2010": the work since is another)."""
    if _perfect(c, m) and c.time() is None and subj is not None and subj.type == "PERSON":
        c.emit(subj, "works_at", "", "end")


def _job_left(c: Clause, subj: Entity | None) -> None:
    """A job left without naming it ("I quit my job", "got laid off"): the work said before ends, whatever it was."""
    if subj is not None and subj.type == "PERSON":
        c.emit(subj, "works_at", "", "end")
        c.emit(subj, "works_as", "", "end")


def _retired_from(c: Clause, m: Match, subj: Entity, op: str) -> None:
    """"Dad retired from the police in 2019": retired, and that workplace is left; "I retire from the bank next
    June": it is still where they work. A workplace by its name or by what it is ("the bank"); no other object
    ("retired from football") and no time said of a present tense leave nothing."""
    o = noun_phrase(c.source, c.toks, m.end + 1, c.hi)
    if o is None or not (o.proper or o.head.lower in WORKPLACES) or op != "assert" or _irrealis(c, m.start, True):
        return  # "…should retire from…", "if I retired from…": a wish
    place, when, held = o.text.removeprefix("the ").strip(), c.time(), _years_as(c, m)
    if (when is not None and when.when > c.at) or c.toks[m.start].tag == "VBG":  # ("he's retiring …": ahead)
        c.emit(subj, "works_at", place, obj_type="ORG", timeless=True)
        if held is not None:  # "…retiring from the surgery at Christmas after thirty years as a GP": one till then
            c.emit(subj, "works_as", held, obj_type="ROLE", timeless=True)
    elif c.toks[m.start].tag in ("VBD", "VBN"):
        c.emit(subj, "works_as", "retired", obj_type="ROLE")
        c.emit(subj, "works_at", place, "end", obj_type="ORG")
        if held is not None:
            c.emit(subj, "works_as", held, "end", obj_type="ROLE")


def _years_as(c: Clause, m: Match) -> str | None:
    """The post a retirement says was held ("…after 30 years as a librarian", "as a GP"), or None."""
    after = next((i + 1 for i in range(m.end, c.hi - 1) if c.toks[i].lower == "as"), None)
    held = noun_phrase(c.source, c.toks, after, c.hi) if after is not None else None
    if held is None or after is None or [t.lower for t in c.toks[after - 1 : held.end]] in PAST_PERIODS:
        return None  # "as a teenager" is when
    return held.text if (not held.proper and held.head.pos == "NOUN") or held.text.isupper() else None


def _works_at_tail(c: Clause, o: Phrase, subj: Entity, op: str = "assert") -> bool:
    """'... a nurse at Saint Mary's Hospital', '… at the local hospital' -> works_at (a name, or what it is).
    True when a workplace was read. A part of it may come between ("a staff nurse on the children's ward at the
    Royal", "an engineer in the payments team at Monzo")."""
    at = o.end
    if at < c.hi and c.toks[at].lower in ("on", "in"):
        prep = next((k for k in range(at + 1, min(c.hi, at + 7)) if c.toks[k].lower in ("at", "for", "with")), None)
        part = c.toks[at + 1 : prep] if prep is not None else []
        if part and part[-1].lower in DEPARTMENTS and not any(t.pos in ("VERB", "AUX", "PROPN") for t in part):
            at = at + 1 + len(part)
    return _workplace_at(c, at, subj, op, ("at", "for", "with"), after_job=True)


def _workplace_at(c: Clause, i: int, subj: Entity, op: str, preps: tuple[str, ...], *, after_job: bool = False) -> bool:
    """A workplace said at token ``i`` after one of ``preps`` (a name, or what it is: "the local hospital"; after a
    job, a plain word for one that is no one's: "a chef at an Italian place") -> works_at. True when one was read."""
    if i < c.hi and c.toks[i].lower in preps:
        q = noun_phrase(c.source, c.toks, i + 1, c.hi)
        plain = after_job and q is not None and q.head.lower in PLAIN_WORKPLACES and not any(
            t.lower in POSSESSIVES for t in c.toks[i + 1 : q.head.i])
        if q is not None and (q.proper or q.head.lower in WORKPLACES or plain):
            where = noun_phrase(c.source, c.toks, q.end + 1, c.hi) if plain and q.end < c.hi and c.toks[
                q.end].lower in ("in", "on", "near", "by") else None  # the place says little: where it is, too
            text = span_text(c.source, c.toks, q.start, where.end) if where is not None else q.text
            c.emit(subj, "works_at", text, op, obj_type="ORG")
            return True
    return False


def _moved_one(c: Clause, o: Phrase) -> Entity | None:
    """Whom the speaker moved: a name, a parent called by the role ("Nana"), or "my mum"."""
    if o.start > c.lo and c.toks[o.start - 1].lower in MY and o.head.lower in ROLES:
        return Entity(_my(c, o.head.lower), "PERSON")
    if o.text.lower() in KIN_TITLES:
        return Entity(_my(c, o.text.lower()), "PERSON")
    return Entity(o.text, "PERSON") if o.proper and o.head.ent in ("PERSON", "") else None


def _move_as(c: Clause, m: Match, subj: Entity, o: Phrase, op: str) -> None:
    """'moved over to Arup as a transport planner': the post, and the employer moved to; a town moved to is a home
    ("relocated to Leeds as a nurse"). Not a post ("moved to Leeds as a child"): a move, as any other."""
    post = _one(c, m, "O2")
    moved = c.toks[m.start].lem in _MOVES or stem(c.toks[m.start].lower) + "e" in _MOVES
    if post is None or post.head.lower not in OCCUPATIONS:
        if moved:
            _emit_all(c, m, subj, "lives_in", op)
        return
    town = o.head.ent in ("GPE", "LOC")
    if town and moved:
        _emit_all(c, m, subj, "lives_in", op)
    if op == "assert" and _move_ahead(c, m):
        return  # "I'm moving over to Arup as a planner in June": no post held yet
    c.emit(subj, "works_as", post.text, op, obj_type="ROLE")
    if o.proper and not town:
        c.emit(subj, "works_at", o.text, op, obj_type="ORG")


def _switch(c: Clause, m: Match, subj: Entity, o: Phrase, op: str) -> None:
    o2 = _one(c, m, "O2") if m.pattern.rel in ("@switch", "@swap") else o
    if o2 is None:
        return
    cat = category(o2.text) or category(o.text)
    rel = {
        "instrument": "plays",
        "sport": "plays",
        "game": "plays",
        "car": "drives",
        "food": "likes",
        "activity": "practices",
    }.get(cat or "")
    if rel is None:
        return
    if m.pattern.rel in ("@switch", "@swap"):
        c.emit(subj, rel, o.text, "end")
    elif op == "assert":  # switched to it: another thing of its kind named in the sentence is what was left
        left = next((t for t in c.toks if t.pos in ("NOUN", "PROPN") and not o2.start <= t.i < o2.end and (
            category(t.text) == cat) and t.lower != o2.head.lower), None)
        if left is not None:
            c.emit(subj, rel, left.text, "end")
    c.emit(subj, rel, o2.text, op)


def _kind_of_many(c: Clause, o: Phrase) -> str:
    """The kind each of several pets is, from the phrase that counts them: "two guinea pigs" -> "guinea pig"."""
    return " ".join([*(t.lower for t in c.toks[o.start : o.head.i] if t.pos not in ("DET", "NUM") and t.tag != "PRP$"),
                     o.head.lemma.lower()])


def _acquire(c: Clause, m: Match, subj: Entity, o: Phrase, op: str) -> None:
    if o.start > m.slots["O"] and c.toks[o.start - 1].lower in ("called", "named"):
        whole = noun_phrase(c.source, c.toks, m.slots["O"], c.hi)  # "had a baby girl called Nia": a birth
        if whole is not None and whole.head.lemma.lower() in NEWBORNS:
            o = whole
    cat = category(o.text)
    head = o.head.lemma.lower()
    if head in PETS and any(t.lower in NOT_ALIVE for t in c.toks[o.start : o.head.i]):
        return  # "I still have that stuffed animal dog you gave me": a thing, not a pet
    if head in PETS:
        named = _after_name(c, o)
        said_again = _said_again(c, o) if named is None else None
        if said_again is not None:  # "a new puppy, a cockapoo called Pudding": the breed and the name
            o, named = said_again
        if subj.name != USER:  # "my friend Tove adopted a kitten called Miso": hers, when it is named
            if named is not None and op == "assert" and subj.type == "PERSON" and not subj.unresolved:
                _pet(c, o.text, named.text, owner=subj)
            elif op == "assert" and subj.type == "PERSON" and not subj.unresolved and o.head.tag != "NNS":
                c.disc.pet_of = (subj, o.text)  # "Ewan got a leopard gecko… he's called it Pringle"
            return
        if named is not None and o.head.tag == "NNS":  # "two cats, Mochi and Pudding": each one named a cat
            for one in names_listed(c.source, c.toks, named.start, named.text):
                _pet(c, _kind_of_many(c, o), one, op=op)
            return
        if named is not None:
            return _pet(c, o.text, named.text, op=op)
        if op == "end":
            return  # an unnamed pet of long ago: nothing to end, nothing to keep
        if o.head.tag == "NNS" and any(t.pos == "NUM" for t in c.toks[o.start : o.head.i]):
            c.disc.pets_unnamed = _kind_of_many(c, o)  # "two guinea pigs": named in the next sentence
        before = c.toks[o.start - 1] if o.start > c.lo else None
        bare = o.end - o.start == 1 and (before is None or (before.pos not in ("DET", "NUM") and before.tag != "PRP$"))
        if o.head.tag != "NNS" and not bare:  # "a puppy", "an old dog"; "had fish", said bare, is a meal
            c.disc.pending_pet = o.text
            fact = c.emit(USER, "has_pet", o.text, obj_type="ANIMAL", conf=0.6)
            if fact is not None:
                c.disc.unnamed_pets.append((o.text, fact))
        return
    if (head in NEWBORNS or o.head.lower in NEWBORNS) and c.toks[m.start].lem == "have" and op == "assert" and (
            subj.type == "PERSON") and any(t.lower in ("a", "an", "baby", "little") or t.tag in ("NNS", "PRP$")
                                           for t in c.toks[o.start : o.end]):
        # "My sister had a baby girl", "we had twins": a birth, not someone the speaker has. A name said after
        # is the baby's ("…, a boy called Arlo" here; "they've called her Maeve" in the next clause)
        gender = next((NEWBORNS[t.lower] for t in reversed(c.toks[o.start : o.end]) if NEWBORNS.get(t.lower)), None)
        named = _after_name(c, o)
        if named is None:  # "had her baby on Sunday, a little girl called Niamh": the baby said again, named
            j = o.end
            while j < len(c.toks) and (c.toks[j].ent in ("DATE", "TIME") or (c.toks[j].pos == "ADP" and j + 1 < len(
                    c.toks) and c.toks[j + 1].ent in ("DATE", "TIME"))):
                j += 1
            again = _said_again(c, Phrase(o.text, o.start, j, o.head))
            if again is not None and (again[0].head.lower in NEWBORNS or again[0].head.lemma.lower() in NEWBORNS):
                gender = gender or NEWBORNS[again[0].head.lower if again[0].head.lower in NEWBORNS else
                                            again[0].head.lemma.lower()]
                named = again[1]
        c.disc.newborn = (_kin_in_subject(c, m.start) or subj, gender)
        if named is not None:
            _newborn_named(c, named.text)
        return
    if head in ROLES and subj.name == USER:
        named = _after_name(c, o)
        if named is None and (again := _said_again(c, o)) is not None:  # "a lodger, a Spanish student called…"
            named = again[1]
        if named is not None:  # "I've got two kids, Maisie and Alfie": each one
            for one in names_listed(c.source, c.toks, named.start, named.text) if o.head.tag == "NNS" else [
                    named.text]:
                _role_fact(c, head, one)
        return
    if head == "allergy":
        words = o.text.split()
        if len(words) > 1:
            c.emit(subj, "allergic_to", " ".join(words[:-1]))
        return
    if cat == "car" and c.toks[m.start].lem in ("buy", "get", "have", "own") and (car := _car(c, o)) is not None:
        c.emit(subj, "drives", car, op, obj_type="THING")


def _car(c: Clause, o: Phrase) -> str | None:
    """A car by its make and model, from the first of its words that names it ("a new Fiat 500" -> Fiat 500); None
    for one not named ("a new car")."""
    first = next((t for t in c.toks[o.start : o.end] if t.pos == "PROPN" or t.lower in CAR_BRANDS), None)
    return c.source[first.idx : c.toks[o.end - 1].end] if first is not None else None


def _gone(c: Clause, m: Match) -> None:
    """'the Skoda is gone' -> end drives Skoda (the subject phrase is the object)."""
    j = m.start - 1
    while j >= c.lo and c.toks[j].pos != "PROPN" and c.toks[j].lower not in ("car", "van"):
        j -= 1
    if j < c.lo:
        return
    k = j
    while k - 1 >= c.lo and c.toks[k - 1].pos == "PROPN":
        k -= 1
    name = c.source[c.toks[k].idx : c.toks[j].end]
    if category(name) == "car" and c.toks[j].pos == "PROPN":
        c.emit(USER, "drives", name, "end", obj_type="THING")


def _partner(c: Clause, m: Match) -> str | None:
    """Who the speaker did it with: "Tom and I …", "me and Tom …", "my wife and I …" (a role named before);
    None when only "we" is said."""
    t = c.toks
    for j in range(1, m.start - 1):  # the sentence's tokens: "Tom and I" is split into two clauses at "and"
        if t[j].lower != "and":
            continue
        left, right = t[j - 1], t[j + 1]
        if right.lower in ("i", "me") and left.lower not in ("i", "me"):
            k = j - 1
            while k - 1 >= 0 and t[k - 1].pos == "PROPN":
                k -= 1
            if left.pos == "PROPN" and _pair_opens(t, k, after_role=True):  # not "We flew to Rome and I got…"
                return c.source[t[k].idx : left.end]
            if k - 1 >= 0 and t[k - 1].lower in MY:  # "my wife and I"
                return c.disc.roles.get(left.lower)
        if left.lower in ("i", "me") and _pair_opens(t, j - 1):
            q = noun_phrase(c.source, t, j + 1, m.start)
            if q is not None and q.proper:
                return c.named(q).text  # "me and my partner Sam": Sam
    return None


def _pair_opens(t: list[Tok], k: int, *, after_role: bool = False) -> bool:
    """A pair said with the speaker ("Tom and I", "me and Sara") that starts at token ``k`` opens the sentence or a
    clause, or (``after_role``) follows "my ROLE" ("my fiancé Tom and I"); not "…flew to Rome and I…"."""
    return k == 0 or t[k - 1].pos in ("PUNCT", "CCONJ") or (
        after_role and k >= 2 and t[k - 1].lower in ROLES and t[k - 2].lower in MY)


def _with_me(c: Clause, m: Match) -> str | None:
    """The name coordinated with the speaker as the subject right before the match: "Tom and I (just) moved…", "my
    partner Luis and I…", "me and Sara live…" — the pair opening the sentence or a clause (not "…to Leeds and I
    moved")."""
    t = c.toks
    i = m.start - 1
    while i >= 0 and (t[i].pos in ("AUX", "ADV", "PART") or t[i].lower in SOFT):
        i -= 1  # "… and I have just moved"
    if i >= 2 and t[i].lower in ("i", "me") and t[i - 1].lower == "and":
        k = end = i - 1
        while k - 1 >= 0 and t[k - 1].pos == "PROPN":
            k -= 1
        return c.source[t[k].idx : t[end - 1].end] if k < end and _pair_opens(t, k, after_role=True) else None
    if i >= 2 and t[i].pos == "PROPN":
        k = i
        while k - 1 >= 0 and t[k - 1].pos == "PROPN":
            k -= 1
        j = k - 2 if k >= 2 and t[k - 1].lower in ROLES and t[k - 2].lower in MY else k  # "me and my cousin Bea"
        if j >= 2 and t[j - 1].lower == "and" and t[j - 2].lower in ("i", "me") and _pair_opens(t, j - 2):
            return c.source[t[k].idx : t[i].end]
    return None


def _couple(c: Clause, m: Match, subj: Entity | None, rel: str, op: str) -> None:
    """'Tom and I got engaged' -> Tom partner_of user; 'Ana got married to Ben' -> Ben spouse_of Ana; 'Tom and Ana
    got married' -> Tom spouse_of Ana; 'my wife Elena and I split up' -> the marriage ends (and "my wife Elena" in
    that sentence no longer asserts it)."""
    if _negated(c, m.start + 1):
        return  # "we never got married"
    ahead = op != "end" and any(t.tag == "VBG" for t in c.toks[m.start : m.end])
    if ahead and rel != "spouse_of":
        return  # "are getting engaged": not yet
    if ahead:  # "Tom and I are getting married in June": a couple now (the June is the wedding's), married later
        rel = "partner_of"  # ("are getting divorced", "are splitting up": over, whatever the papers say)
    one, other = _partner(c, m), subj
    if one is not None:
        other = Entity(USER, "PERSON")
    elif subj is not None:
        one = _named_after(c, m, ("to", "with"))  # "… got married to Ben"
        if one is None and (pair := named_with(c.source, c.toks, find_subject(c.source, c.toks, c.lo, m.start))):
            one = pair.text  # "Tom and Ana got married": the pair is the couple
    if one is None or other is None or other.unresolved or one == other.name:
        return
    if op == "end":  # "my wife Elena" said in the same sentence is no longer true (learning: NARROWER)
        c.disc.dropped += [f for f in c.out if f.op == "assert" and f.relation in ("spouse_of", "partner_of")
                           and f.subject == one]
    c.emit(Entity(one, "PERSON"), rel, other.name, op, obj_type="PERSON", timeless=ahead)


def _named_after(c: Clause, m: Match, words: tuple[str, ...]) -> str | None:
    """The name right after the match and one of ``words`` ("… married to Ben", "… proposed to Dana"), or None."""
    if m.end + 1 < c.hi and c.toks[m.end].lower in words:
        q = noun_phrase(c.source, c.toks, m.end + 1, c.hi)
        return c.named(q).text if q is not None and q.proper else None  # "… to her girlfriend Jess": Jess
    return None


_SAID_YES = re.compile(r"\b(said|says|say|saying)\s+yes\b", re.I)


def _proposed(c: Clause, m: Match, subj: Entity | None) -> None:
    """A proposal said yes to is an engagement: 'Jonas proposed and I said yes!' -> Jonas partner_of user; 'I
    proposed to Dana and she said yes' -> Dana partner_of user; not a proposal turned down, or not yet answered."""
    if subj is None or subj.unresolved or _negated(c, m.start + 1) or not _SAID_YES.search(c.evidence):
        return
    if m.end < c.hi and c.toks[m.end].pos in ("DET", "NOUN", "PROPN", "ADJ", "NUM", "PRON"):
        return  # "Tom proposed a toast", "she proposed Friday": something proposed, not marriage
    to = _named_after(c, m, ("to",))  # "… proposed to Dana"
    if subj.name == USER:
        one, other = to, USER
    else:
        one, other = subj.name, to or USER
    if one is not None and one != other:
        c.emit(Entity(one, "PERSON"), "partner_of", other, obj_type="PERSON")


def _died(c: Clause, m: Match, subj: Entity | None) -> None:
    """'Our cat Pixel passed away' -> the user no longer has Pixel. Said of a name only; of someone who is not
    their pet it ends nothing (learning ends only a has_pet arc that names them). A person of theirs who died ("my
    grandad passed away in March") no longer lives or works anywhere. Said as past only ("is dying" is not)."""
    if subj is None or subj.name == USER or _negated(c, m.start + 1) or (
            c.toks[m.start].tag not in ("VBD", "VBN") and not _had_to(c, m.start)):
        return
    _death_of(c, subj, m.start)


def _death_of(c: Clause, subj: Entity, k: int) -> None:
    """``subj`` died (told at token ``k``): a pet of theirs is had no more, a person of theirs lives and works
    nowhere."""
    if subj.type == "PERSON" and (subj.unresolved or any(
            name == subj.name for role, name in c.disc.roles.items() if role in ROLES)):
        return _person_gone(c, subj, k)  # "my husband Kofi passed away": a person of theirs
    if subj.unresolved:
        return
    pet = subj.type == "ANIMAL" or any(f.relation == "has_pet" and f.object == subj.name for f in c.out) or any(
        name == subj.name for role, name in c.disc.roles.items() if role in PETS)
    if pet or subj.name[:1].isupper():
        _pet_gone(c, subj.name)
    if pet:
        _death_told(c, Entity(subj.name, "ANIMAL"), _death_time(c, k))
    if not pet and subj.type == "PERSON" and subj.name[:1].isupper():
        _person_gone(c, subj, k)  # "Graham died in September": a name not known here may be one of theirs too


# what someone who died did not get through ("didn't make it through the night")
_NOT_LIVED_THROUGH = frozenset({"night", "operation", "op", "surgery", "weekend", "winter", "day"})


def _not_made_it(c: Clause, m: Match, subj: Entity | None) -> None:
    """"Custard didn't make it through the night", "Grandad never made it through the operation": died. Told as past,
    of someone else, with nothing after it but what they did not get through; not "didn't make it to the party", "didn't
    make it home". With no "through" ("Sadly Biscuit didn't make it."), only a pet of that name is had no more: said
    of a person it may mean they did not come."""
    t = c.toks
    past = t[m.start].tag == "VBD" or any(x.lower == "did" for x in t[max(c.lo, m.start - 3) : m.start])
    if subj is None or subj.name == USER or (subj.unresolved and subj.type != "PERSON") or not past:
        return
    if m.end < c.hi and t[m.end].lower == "through":
        got = next((x for x in t[m.end + 1 : min(c.hi, m.end + 4)] if x.pos == "NOUN"), None)
        if got is not None and got.lemma.lower() in _NOT_LIVED_THROUGH:  # not "through the first round"
            _death_of(c, subj, m.start)
        return
    if (m.end == c.hi or t[m.end].pos == "PUNCT") and subj.name[:1].isupper():
        _pet_gone(c, subj.name)


_TAKE_VERBS = frozenset({"get", "have", "take", "kill", "grab"})
_NOT_A_PET_NAME = frozenset({"GPE", "LOC", "FAC", "DATE", "TIME", "NORP"})  # (the tagger calls some pets ORG: Kiwi)


def _taken(c: Clause, m: Match, o: Phrase | None) -> None:
    """A pet taken by an animal, told in the past ("A fox got John on Tuesday night", "Pepper got out and the fox had
    him"): had no more. The taker is said just before the verb, and is one (PREDATORS: not "Dad got Biscuit from the
    shelter": the match opens with it); the pet is named, or said as him, her or it after its name. Not "nearly",
    "almost", nor denied."""
    t = c.toks
    # (the match opens with the taker; its verb follows, after "didn't", "never", "nearly"… if said)
    verb = next((k for k in range(m.start + 1, m.end) if t[k].lem in _TAKE_VERBS), m.start + 1)
    if t[verb].tag not in ("VBD", "VBN") or _negated(c, verb + 1) or any(
            x.lower in ("nearly", "almost", "not", "n't", "never") for x in t[max(c.lo, m.start - 2) : verb]):
        return
    if o is not None and o.head.pos == "PROPN" and o.head.ent not in _NOT_A_PET_NAME:
        _pet_gone(c, o.text)
    elif (at := m.slots.get("O")) is not None and t[at].lower in ("him", "her", "it"):
        named = next((x for x in reversed(t[: m.start]) if x.pos == "PROPN" and x.ent not in _NOT_A_PET_NAME), None)
        if named is not None:  # the last name said before it ("Pepper got out … and the fox had him")
            _pet_gone(c, named.text)


def _had_to(c: Clause, k: int) -> bool:
    """The verb at k is said after "had to", a past need met ("Bolt had to be put down"; not "has to", "will have
    to", "might have to")."""
    t = c.toks
    return k - 2 >= c.lo and t[k - 1].lower == "to" and t[k - 2].lower in ("had", "'d", "’d") and not any(
        x.tag == "MD" for x in t[max(c.lo, k - 4) : k - 2])


def _pet_named(c: Clause, o: Phrase) -> str | None:
    """Which pet a phrase means: its name ("our dog Rex" -> Rex), or the name known for its kind ("our dog")."""
    if o.head.pos == "PROPN" and o.head.ent not in ("GPE", "LOC", "ORG"):
        named = [t for t in c.toks[o.start : o.end] if t.pos == "PROPN"]
        return c.source[named[0].idx : named[-1].end]
    kind = o.head.lemma.lower()
    return c.disc.roles.get(kind) if kind in PETS else None


def _diet_and(c: Clause, at: int, subj: Entity | None, op: str) -> None:
    """The diets and foods gone without said after one, joined by "and" or commas ("I'm vegan and gluten-free",
    "she's gone dairy-free and vegetarian"): each is kept as the first was."""
    t = c.toks  # past the clause's end: the tagger may read "gluten" as a verb that opens one
    if subj is None:
        return
    while at + 1 < len(t) and t[at].lower in ("and", ",", "&"):
        word = t[at + 1].lower
        if word in DIETS:
            c.emit(subj, "diet", DIET_NAMES[word], op)
            at += 2
        elif word in FREE_OF and at + 3 < len(t) and t[at + 2].text == "-" and t[at + 3].lower == "free":
            c.emit(subj, "avoids", word, op, obj_type="TOPIC")
            at += 4
        else:
            return


def _person_gone(c: Clause, who: Entity, verb: int) -> None:
    """A person of the speaker's died: they no longer live or work anywhere, nor with anyone (learning ends whatever
    value is held: an end with no object), from when they died; and when they died is kept."""
    died = _death_time(c, verb)
    for rel in ("lives_in", "works_at", "works_as", "lives_with"):
        c.emit(who, rel, "", "end", every=True, when=died)
    _death_told(c, who, died)


def _death_time(c: Clause, verb: int) -> dates.TimeRef:
    """When a death said with its verb at ``verb`` happened: the time said from the verb to the next comma ("passed
    away on Tuesday, the funeral's next week": Tuesday), else before the verb in its sentence ("Last week, my grandma
    passed away"); none said, or one ahead: when it was told."""
    end = next((k for k in range(verb, c.hi) if c.toks[k].text in (",", ";")), c.hi)
    ref = dates.resolve(span_text(c.source, c.toks, verb, end), c.at, direction="past") or (
        dates.resolve(span_text(c.source, c.toks, 0, verb), c.at, direction="past") if verb else None)
    return ref if ref is not None and ref.when <= c.at else dates.TimeRef(c.at, "", "")


def _death_told(c: Clause, who: Entity, died: dates.TimeRef) -> None:
    """When someone died, at the grain it was said ("on Tuesday" -> that day, "in March" -> March 2026); with no time
    said, by the day it was told: "Is Aunt Mary alive?" is answered from a fact."""
    day = spoken_grain(iso_at_grain(died.when, died.grain)) if died.grain else \
        f"by {spoken_grain(c.at.date().isoformat())}"
    c.emit(who, "died_on", day, obj_type="DATE", timeless=True)


def _pet_gone(c: Clause, name: str) -> None:
    """The speaker's pet of that name is no more; having it, said earlier in the utterance, is superseded."""
    c.disc.dropped += [f for f in c.out if f.op == "assert" and f.relation == "has_pet" and f.object == name]
    c.emit(USER, "has_pet", name, "end", obj_type="ANIMAL")


def plan_told(c: Clause, subj: Entity | None, verb: int) -> None:
    """What someone is going to do, said with its object, when no other reading of the clause kept anything:
    "I'm going to build a greenhouse", "we're planning to open a bakery", "I'm starting a salsa class next week", "I'll
    run the Berlin marathon in September" -> `plans_to_<verb>` (with a preposition: "perform at a festival" ->
    `plans_to_perform_at`), a plan with its time. "Will" and the present progressive need a time ahead ("I'll
    let you know" is no plan); a wish ("I want to…", "hoping to…") is none, nor a plan denied, nor one in an "if";
    a pronoun or a vague word is no object; verbs of saying, trying or going are left to others (PLAN_SKIP)."""
    if subj is None or subj.type != "PERSON":
        return
    t = c.toks
    if t[verb].lem.lower() in PLAN_SKIP:
        return
    before = [x.lower for x in t[c.lo : verb]]
    if any(w in ("not", "n't", "never", "if", "unless", "whether", "maybe", "might") for w in before) or any(
            x.lem == "be" and x.tag == "VBD" for x in t[c.lo : verb]):
        return  # "I was going to learn Spanish": meant then, not now
    at = verb + 1
    while at < c.hi and t[at].pos in ("ADV", "PART") and t[at].lower not in ("to",):
        at += 1  # "take up pottery", "finally open"
    prep = ""
    if at < c.hi and t[at].pos == "ADP":
        prep, at = t[at].lower, at + 1
    o = noun_phrase(c.source, t, at, c.hi)
    if o is None or o.start != _skip_det(t, at, c.hi) or o.head.pos not in ("NOUN", "PROPN") or t[o.start].tag == "VBG":
        return
    if o.head.lower in VAGUE or o.head.lower in ROLES or o.head.ent in ("DATE", "TIME"):
        return
    if t[verb].tag == "VBG" and not (_time_follows(t, o.end, c.hi) or any(x.lower in _TIME_WORDS
                                                                            for x in t[c.lo : verb])):
        return  # "I'm learning Japanese, mostly for the trip next year": the time is the trip's
    when = c.time()
    if when is not None and when.grain == "day" and when.when.date() == c.at.date():
        return  # "gonna order some sushi for tonight": done before it could be remembered
    rel = f"plans_to_{t[verb].lem.lower()}" + (f"_{prep}" if prep else "")
    c.emit(subj, rel, o.text, kind="plan")


def _skip_det(t: list[Tok], at: int, hi: int) -> int:
    """Where a noun phrase's words start after its determiners and adjectives ("a new salsa class": "new")."""
    while at < hi and (t[at].pos in ("DET", "NUM") or t[at].tag == "PRP$"):
        at += 1
    return at


_ON_TO = ("to", "on")


_TIME_WORDS = frozenset({*dates.MONTHS, *dates.WEEKDAYS, *dates.SEASONS, "next", "tomorrow", "tonight", "soon",
                         "later", "week", "weekend", "month", "year", "morning", "afternoon", "evening", "night"})


def _time_follows(t: list[Tok], end: int, hi: int) -> bool:
    """A time comes after what is planned with no other thing between but a name ("a salsa class next week", "a
    bakery on Main Street in the spring"; not "…Japanese, mostly for the trip next year")."""
    for x in t[end:hi]:
        if x.lower in _TIME_WORDS or x.pos == "NUM":
            return True
        if x.pos == "NOUN" or x.text == ",":  # a place's name may come between ("on Main Street in May")
            return False
    return False


def _after_be(t: list[Tok], lo: int, i: int) -> bool:
    """A form of "be" comes just before ``i`` (adverbs between): "I'm (really) going to", "she is about to"."""
    j = i - 1
    while j >= lo and (t[j].pos == "ADV" or t[j].lower in SOFT):
        j -= 1
    return j >= lo and t[j].lem == "be"


def planned(c: Clause) -> tuple[int, int] | None:
    """The verb a clause says is going to be done, and where the words saying so start (the subject is before
    them): after "going to", "gonna", "planning to/on", "about to", "set to"; after "will" or "'ll", or in the
    present progressive, only with a time ahead in the clause."""
    t = c.toks
    for i in range(c.lo, c.hi - 1):
        w, nxt = t[i].lower, t[i + 1].lower
        said = ((w in ("going", "about", "set") and nxt == "to") or (w == "gon" and nxt == "na")) and _after_be(
            t, c.lo, i)  # "I'm going to", not "started going to X"
        if not (said or (t[i].lem.lower() == "plan" and nxt in _ON_TO)):
            continue
        if i + 2 < c.hi and t[i + 2].pos == "VERB" and t[i + 2].tag in ("VB", "VBG"):
            return i, i + 2
        return None
    # "will" or the present progressive: a plan only with a time ahead, read once a verb is found (most clauses have
    # none, and reading the clause's time is the costly part)
    verb = next((i for i in range(c.lo, c.hi - 1) if t[i + 1].pos == "VERB" and (
        (t[i].lower in ("will", "'ll", "shall") and t[i + 1].tag == "VB")
        or (t[i].lem == "be" and t[i].pos == "AUX" and t[i + 1].tag == "VBG"))), None)
    if verb is None:
        return None
    when = c.time()
    return (verb, verb + 1) if when is not None and when.when > c.at else None
