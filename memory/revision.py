"""Belief revision by the model (ERASE): does what someone said later end a fact already believed?

The rules end what they are certain of ("I moved to Leeds", "I've gone off sushi"). What they lack ("I'm over
true crime now, it's all history podcasts for me", "Halcyon made me redundant") would leave the old fact current
and the answers stale. After a conversation is learned, each of its turns that says something changed (a word of
``CHANGE_CUES`` or ``CHANGE_PHRASES``) is set beside the speaker's facts from before the conversation that it
touches (``candidates``), and the model says, under an enum schema, whether the fact still holds, no longer holds,
or is unrelated. Only "no longer holds" changes anything: the fact is closed at the time
of the turn (history kept, the turn as its source), never retracted.

    candidates(facts, turn, before=...) -> facts worth checking     (pure)
    Reviser(llm).ends(fact, turn) -> bool                           (one model call)

Measured on 32 hand-written cases (16 chosen on, 16 held out; benchmarks/revision_cases.py, docs/benchmarks.md):
as shipped it closes 9 of the 15 facts that ended and none of the 17 that did not.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from memory.extraction.choose import cues_for
from memory.llm import LLM
from memory.model import USER_ID, Arc, spoken_day
from memory.search import terms
from memory.transcripts import Turn
from memory.vocabulary import RELATIONS
from memory.words import FIRST_PERSON_RE, ROLE_RELATION_NAMES

log = logging.getLogger(__name__)

# Words that say something ended ("quit", "sold", "gave up"), read both as a change and as an end
_ENDED = ("anymore longer quit quits quitting stopped left sold traded swapped retired broke split divorced ended "
          "died lost former ex dropped scrapped")
_ENDED_PHRASES = ("give up", "gave up", "giving up", "given up", "any more", "no more", "last day", "written off",
                  "write-off", "put down", "put to sleep",  # (these two: an animal's death)
                  "gone off", "gone right off", "gone completely off", "gone totally off")  # a taste ended
# Words that say something changed. A turn with none of them is not checked: talk about a fact ("The Golf failed
# its MOT again") is far more common than its end, and the small model reads some of it as an end.
CHANGE_CUES = frozenset(terms(
    f"{_ENDED} now over stop leave leaving moved move moving relocated new switched switch sell redundant fired laid "
    "graduated finished done gone started starting instead passed used changed became turned", stop=frozenset()))
# ...and a few said in more than one word
CHANGE_PHRASES = (*_ENDED_PHRASES, "moved on", "didn't stick", "did not stick", "not for me", "wasn't working",
                  "isn't working", "not working for me")
# The words that say something ended or did not happen (not "now", "new", "started": a change towards a state
# says it holds), and those that deny ("I've never been to Japan", "we can't get one")
ENDING_CUES = frozenset(terms(f"{_ENDED} cancel cancels cancelled canceled goodbye never not cannot",
                              stop=frozenset()))
ENDING_PHRASES = (*_ENDED_PHRASES, "called off", "passed away", "n't ")
# Words of a fact too common to say a turn is about it ("a new pup", "teaches people")
_GENERIC = frozenset(terms("people person thing things stuff lot lots bit way time times day days one ones kind "
                           "sort good great nice little big", stop=frozenset()))
# Relations that do not end by a change of mind or life (where one was born, what something is).
# Who someone is to the speaker (kin, friends, neighbours, colleagues, a boss) is not read off a passing turn
# either: "Noor moved to Leeds" is news about the cousin, not the end of being cousins. A couple's state is the
# exception: "Lena and I called it quits".
_LASTING = frozenset({"born_in", "born_on", "grew_up_in", "is_a",
                      *(ROLE_RELATION_NAMES - {"partner_of", "spouse_of", "engaged_to", "lives_with"})})
# Events are not states: a trip ended when it ended.
_EVENTS = frozenset(name for name, r in RELATIONS.items() if r.event)

SYSTEM = """You keep a person's remembered facts up to date. You are given one remembered fact and something the \
person said later. Decide:
- no_longer_true: what they said means the fact has stopped being true (they moved away, left the job, gave it \
up, stopped liking it, sold it, it died, they broke up).
- still_true: what they said fits the fact, or mentions it without changing it (they still live there, still do \
it, still like it).
- unrelated: what they said is about something else.
Only say no_longer_true when what they said clearly means it. Talking about a trip, a bad day, or someone else's \
opinion does not end a fact.
Examples:
Fact: User lives in Cork. Said: "We moved to Galway last month." -> no_longer_true
Fact: User likes tennis. Said: "Played tennis with Ana, lost badly!" -> still_true
Fact: User works at Zenith. Said: "I quit Zenith, starting somewhere new in May." -> no_longer_true
Fact: User has pet Milo. Said: "Took Milo to the vet, he's fine." -> still_true
Fact: User likes coffee. Said: "My brother can't stand coffee." -> still_true
Fact: User lives in Bristol. Said: "Just got back from a weekend in Rome." -> still_true
Fact: User lives in Leeds. Said: "My brother lives in York now." -> still_true"""

VERDICTS = ("still_true", "no_longer_true", "unrelated")
SCHEMA = {"type": "object", "properties": {"verdict": {"type": "string", "enum": list(VERDICTS)}},
          "required": ["verdict"]}


@functools.cache
def _cue_terms(relation: str) -> frozenset[str]:
    """The relation's cue words (memory.extraction.choose.cues_for) as index terms."""
    return frozenset(terms(" ".join(cues_for(relation) or ())))


# ...and one said around what ended ("I've let the allotment go", "we let it go"; not "let go of the rope")
# "let her go", and a thing "packed in" / "jacked it in" (British for given up: "I've jacked in the rowing")
# and an animal gone to live with others ("We've rehomed Juno"; not one taken in: "rehoming two hens from a farm")
_LET_GO = re.compile(r"\blet\s+(?:[\w'-]+\s+){0,3}go\b(?!\s+(?:of|to|and|for|on|in|out|with)\b)"
                     r"|\b(?:pack|jack|chuck)(?:ed|ing|s)?\s+(?:it\s+)?in\b"
                     r"|\bre-?hom(?:ed|ing)\b(?![^.!?]*\bfrom\b)")


def _says(text: str, cues: frozenset[str], phrases: tuple[str, ...]) -> bool:
    low = " ".join(text.lower().replace("’", "'").split()) + " "  # "can't" at the end is "n't "
    return bool(cues.intersection(terms(text, stop=frozenset()))) or any(p in low for p in phrases) or bool(
        _LET_GO.search(low))


def says_an_end(text: str) -> bool:
    """A word that says something ended, did not happen or does not hold ("cancelled", "retired", "never",
    "can't")."""
    return _says(text, ENDING_CUES, ENDING_PHRASES)


def says_a_change(text: str) -> bool:
    """A word that says something changed ("now", "quit", "moved", "over", "sold", "gave up"...)."""
    return _says(text, CHANGE_CUES, CHANGE_PHRASES)


def candidates(facts: Sequence[Arc], turn: Turn, *, before: datetime, speakers: frozenset[str] = frozenset()
               ) -> list[Arc]:
    """The facts (believed before ``before``, not learned from this turn) that ``turn`` touches: a word of either
    end (but the user, common words and ``speakers``' names: "Thanks, Nate!" is not about a fact naming Nate),
    or, for a relation held one at a time, a cue word of it. Empty when the turn says nothing changed. Facts
    touched by their own words first."""
    if not says_a_change(turn.text):
        return []
    said = set(terms(turn.text))
    mine = bool(FIRST_PERSON_RE.search(turn.text))  # "Dmitri lives in Turin now" is no news of the speaker's home
    by_object, by_cue = [], []
    for a in facts:
        if (a.valid_to is not None or a.expired_at is not None or a.valid_from >= before
                or turn.source_id in a.sources or a.relation in _LASTING or a.relation in _EVENTS):
            continue
        ends = (a.subject if a.subject_id != USER_ID else "") + " " + (a.object if a.object_id != USER_ID else "")
        if said.intersection(set(terms(ends)) - CHANGE_CUES - _GENERIC - speakers):
            by_object.append(a)
        elif (a.relation in RELATIONS and RELATIONS[a.relation].single_valued and mine
              and said.intersection(_cue_terms(a.relation))):
            by_cue.append(a)  # one at a time: a new one said in other words ("I'm starting at a GP surgery")
    return by_object + by_cue


def statement(a: Arc) -> str:
    """The fact as the prompt says it: "User likes true crime podcasts"."""
    subject = "User" if a.subject_id == USER_ID else a.subject
    obj = "User" if a.object_id == USER_ID else a.object
    return f"{subject} {a.relation_words} {obj}"


def prompt(a: Arc, turn: Turn) -> str:
    who = "the user" if turn.speaker == "user" else turn.speaker
    return (f"Fact (remembered since {spoken_day(a.valid_from)}): {statement(a)}.\n"
            f'On {spoken_day(turn.at)} {who} said: "{turn.text.strip()}"\n'
            "After what was said, is the fact still true?")


@dataclass
class Reviser:
    """Asks the model whether a turn ends a fact; ``limit`` checks per conversation at most (each ~1.4 s).
    ``llm`` is called for the model only when there is something to ask (starting it costs seconds)."""

    llm: Callable[[], LLM]
    limit: int = 8
    timeout_s: float = 60.0

    def ends(self, a: Arc, turn: Turn) -> bool:
        """True when the model says the fact no longer holds after ``turn``; LLMError propagates."""
        out = self.llm().complete([{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt(a, turn)}],
                                json_schema=SCHEMA, max_tokens=16, temperature=0.0, timeout_s=self.timeout_s)
        try:
            verdict = json.loads(out).get("verdict")
        except (ValueError, AttributeError):
            log.warning("belief check: unreadable verdict %r", out[:80])
            return False
        return verdict == "no_longer_true"

    def checks(self, facts_of: Mapping[str, Sequence[Arc]], turns: Sequence[Turn], *,
               before: datetime) -> list[tuple[Arc, Turn]]:
        """(fact, turn) pairs to ask about, newest turn first, at most ``limit``; each fact once.
        ``facts_of``: speaker -> their current facts."""
        pairs: list[tuple[Arc, Turn]] = []
        seen: set[str] = set()
        names = frozenset(w for t in turns for w in terms(t.speaker))
        for t in sorted(turns, key=lambda t: (t.at, t.idx), reverse=True):
            for a in candidates(facts_of.get(t.speaker, ()), t, before=before, speakers=names):
                if a.id not in seen:
                    seen.add(a.id)
                    pairs.append((a, t))
        return pairs[: self.limit]


__all__ = ["CHANGE_CUES", "SCHEMA", "SYSTEM", "Reviser", "candidates", "says_a_change"]
