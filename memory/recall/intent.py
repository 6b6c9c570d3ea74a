"""What a question asks for: which relations, about whom, and now versus before (pure, table-tested)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# cue words (stems, matched at word starts) -> relations they ask about
CUES: list[tuple[str, tuple[str, ...]]] = [
    (r"\b(live|living|lives|lived|reside|home|city|moved|move|based)\b", ("lives_in",)),
    (r"\b(work|works|working|worked|job|employ\w*|company|employer)\b", ("works_at", "works_as")),
    (r"\b(occupation|profession|do for a living)\b", ("works_as",)),
    (r"\b(born|birthplace)\b", ("born_in", "born_on")),
    (r"\b(birthday)\b", ("born_on",)),
    (r"\b(grow up|grew up|raised|childhood)\b", ("grew_up_in",)),
    (r"\b(drive|drives|driving|car|vehicle)\b", ("drives", "owns")),
    (r"\b(like|likes|love|loves|enjoy|enjoys|favou?rite|foods?|drinks?|eat|prefer|fan of)\b", ("likes",)),
    (r"\b(dislike|dislikes|hate|hates|can't stand)\b", ("dislikes",)),
    (r"\b(allerg\w*)\b", ("allergic_to",)),
    (r"\b(teach|teaches|teaching|subject)\b", ("teaches",)),
    (r"\b(stud(y|ies|ying)|school|university|college)\b", ("studies", "studies_at")),
    (r"\b(play|plays|playing|instrument|sport)\b", ("plays",)),
    (r"\b(hobby|hobbies|practi[cs]e|pastime|free time)\b", ("practices", "plays")),
    (r"\b(pet|pets|dog|cat|puppy|kitten|animal)\b", ("has_pet",)),
    (r"\b(breed|kind of|type of|what is)\b", ("is_a",)),
    (r"\b(own|owns|have|has)\b", ("owns", "has_pet")),
    (r"\b(manager|boss|report)\b", ("reports_to",)),
    (r"\b(friend|friends)\b", ("friend_of",)),
    (r"\b(married|wife|husband|spouse)\b", ("spouse_of",)),
    (r"\b(partner|girlfriend|boyfriend)\b", ("partner_of",)),
    (r"\b(sister|sisters)\b", ("sister_of",)),
    (r"\b(brother|brothers)\b", ("brother_of",)),
    (r"\b(sibling|siblings)\b", ("sibling_of", "sister_of", "brother_of")),
    (r"\b(mother|mom|mum)\b", ("mother_of",)),
    (r"\b(father|dad)\b", ("father_of",)),
    (r"\b(parents?)\b", ("parent_of", "mother_of", "father_of")),
    (r"\b(cousin|cousins)\b", ("cousin_of",)),
    (r"\b(neighbou?r|neighbou?rs)\b", ("neighbour_of",)),
    (r"\b(colleague|colleagues|coworkers?)\b", ("colleague_of",)),
    (r"\b(speak|speaks|language)\b", ("speaks",)),
    (r"\b(member|belong|club|team|band)\b", ("member_of",)),
    (r"\b(visit|visited|been to|travel\w*|trip)\b", ("visited",)),
]
_CUES = [(re.compile(p, re.I), rels) for p, rels in CUES]

_ABOUT = re.compile(r"\b(tell me (more )?about|what do you know about|anything about|remind me about)\b", re.I)
_NAME = re.compile(r"\b(name|names|called)\b", re.I)
_WHEN = re.compile(
    r"\b(when|since|how long|how many (years|months|weeks|days)|dates?|days?|years?|months?|weeks?|ago|"
    r"recently|lately|birthday|anniversary)\b", re.I)
_HISTORY = re.compile(
    r"\b(before|used to|previous(ly)?|formerly|earlier|ever|first|originally|past|history|changed|"
    r"last time|in the past|back then|once|former|old)\b|\b(did|was|were|had)\b.*\b(before|then|ago)\b",
    re.I)
_DID_PAST = re.compile(r"^\s*(where|what|who|which|how)\s+(did|was|were)\b", re.I)
_PROVENANCE = re.compile(
    r"\b(how do you know|why do you (think|say|believe)|where did you (hear|learn|get)|who told you|"
    r"what makes you (think|say)|how did you (know|learn)|source|when did i (tell|say|mention))\b", re.I)
_WHO = re.compile(r"^\s*(who|which of)\b", re.I)
_KINSHIP_ROLES = {"sister": "sister_of", "brother": "brother_of", "mother": "mother_of", "mom": "mother_of",
                  "mum": "mother_of", "father": "father_of", "dad": "father_of", "cousin": "cousin_of",
                  "friend": "friend_of", "neighbour": "neighbour_of", "neighbor": "neighbour_of",
                  "wife": "spouse_of", "husband": "spouse_of", "partner": "partner_of", "son": "son_of",
                  "daughter": "daughter_of", "aunt": "aunt_of", "uncle": "uncle_of", "boss": "reports_to",
                  "manager": "reports_to", "colleague": "colleague_of", "niece": "niece_of",
                  "nephew": "nephew_of", "grandmother": "grandparent_of", "grandfather": "grandparent_of"}
_ROLE_PHRASE = re.compile(r"\b(my|our)\s+((?:best|old|older|younger|little|big|oldest|youngest)\s+)?(" +
                          "|".join(_KINSHIP_ROLES) + r")s?\b", re.I)


@dataclass(frozen=True)
class Intent:
    relations: tuple[str, ...] = ()
    history: bool = False  # asks about before / ever / a change
    provenance: bool = False  # "how do you know?"
    who: bool = False  # asks for the subject ("who works at X")
    roles: tuple[str, ...] = field(default_factory=tuple)  # role phrases -> kin relation ("my sister" -> sister_of)
    when: bool = False  # asks about dates or durations ("when", "since when", "how long", "a year ago")


def analyse(question: str) -> Intent:
    q = question.strip()
    rels: list[str] = []
    for rx, rs in _CUES:
        if rx.search(q):
            rels.extend(r for r in rs if r not in rels)
    roles = tuple(dict.fromkeys(_KINSHIP_ROLES[m.group(3).lower()] for m in _ROLE_PHRASE.finditer(q)))
    # "where does my sister live" asks about lives_in, not about sisterhood
    asked = [r for r in rels if r not in roles or len([x for x in rels if x not in roles]) == 0]
    if re.match(r"^\s*where\b", q, re.I) and all(r in roles for r in asked):
        asked = ["lives_in"]  # a place, even when the verb was mis-heard ("where does my sister life?")
    if roles and _NAME.search(q):  # "what is my sister's name?": the kinship arc is the answer
        asked = list(roles)
    elif _ABOUT.search(q) and all(r in roles for r in asked):  # "tell me about my sister": all about her
        asked = []
    history = bool(_HISTORY.search(q)) or (bool(_DID_PAST.search(q)) and "now" not in q.lower())
    return Intent(tuple(asked), history, bool(_PROVENANCE.search(q)), bool(_WHO.search(q)), roles,
                  bool(_WHEN.search(q)))
