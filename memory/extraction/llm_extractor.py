"""LLM relation extraction: the conversation plus spaCy's entities in, typed triples under a JSON schema out."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from memory.extraction.types import USER, ExtractedFact
from memory.learning import Extraction
from memory.llm import LLM, LLMBadOutput
from memory.timeutil import parse_time
from memory.transcripts import Turn
from memory.vocabulary import RELATIONS, EntityType, relation
from memory.words import USER_KEYS


class EntityHints(Protocol):
    def entities(self, text: str) -> list[tuple[str, str]]: ...


def _vocabulary() -> str:
    return "\n".join(f"- {r.name}: {r.description}" + (" (one at a time)" if r.single_valued else "")
                     for r in RELATIONS.values())


# A fixed prefix: the server's prompt cache keeps it, so later calls only pay for the conversation.
SYSTEM = f"""You extract durable personal facts from a conversation between a user and their assistant.
Return JSON: {{"facts": [{{"turn": N, "subject": ..., "relation": ..., "object": ..., "op": ..., "since": ...}}]}}.

Relations (subject relation object):
{_vocabulary()}

Rules:
- Only what a non-assistant speaker states about the world. Assistant turns are context, never evidence.
- "I", "me", "my", "we" -> the speaker: "user" in the user's turns, the speaker's name in anyone else's.
- Kinship/social roles: "my sister Anna" -> Anna sister_of user; "my friend Tom" -> Tom friend_of user;
  "my manager Priya" -> user reports_to Priya. Resolve "she", "he", "there", "it" to the named entity.
- op "assert": true now (or from "since"). op "end": it was true and stopped (moved away, left a job, sold a
  car, gave up a hobby, "don't like X anymore", "gone off X"). op "retract": the user corrects or takes back
  something ("sorry, I meant Boston, not Austin" -> retract Austin, assert Boston; "forget that ...").
- A change gives two facts: "I sold my Volvo and bought a Toyota" -> end drives Volvo, assert drives Toyota.
  "Lucy switched from violin to cello" -> end Lucy plays violin, assert Lucy plays cello.
- Moving: "moved to X", "relocated to X", "lives in X now" -> lives_in X. Jobs: "got a job at X",
  "works for X", "first day at X", "started a new job at X" -> works_at X; "works as a nurse" -> works_as nurse.
- Tastes: love/like/enjoy/"can't get enough of" -> likes; hate/"don't like" -> dislikes. Hobbies: took up,
  started learning -> practices; instruments and games -> plays.
- "since": ISO date when the fact began or ended if the text says when ("last week", "in 2019"),
  computed from the turn's date; otherwise null.
- Objects are short names as said, without articles: "the guitar" -> "guitar", "a Toyota" -> "Toyota".
- Questions, requests, greetings and passing events (photos, lunches, arguments, weather, films watched)
  are not facts. If there is nothing to learn, return {{"facts": []}}.

Example:
[0] user (2026-03-10): My brother Ben moved to Oslo last month. He works at a bank called Nordlys now.
[1] assistant (2026-03-10): That's a big change!
[2] user (2026-03-10): I don't eat meat anymore, and I took up yoga.
-> {{"facts": [
 {{"turn": 0, "subject": "Ben", "relation": "brother_of", "object": "user", "op": "assert", "since": null}},
 {{"turn": 0, "subject": "Ben", "relation": "lives_in", "object": "Oslo", "op": "assert", "since": "2026-02-10"}},
 {{"turn": 0, "subject": "Ben", "relation": "works_at", "object": "Nordlys", "op": "assert", "since": null}},
 {{"turn": 2, "subject": "user", "relation": "likes", "object": "meat", "op": "end", "since": null}},
 {{"turn": 2, "subject": "user", "relation": "practices", "object": "yoga", "op": "assert", "since": null}}]}}
"""

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "turn": {"type": "integer"},
                    "subject": {"type": "string"},
                    "relation": {"type": "string", "enum": sorted(RELATIONS)},
                    "object": {"type": "string"},
                    "op": {"type": "string", "enum": ["assert", "end", "retract"]},
                    "since": {"type": ["string", "null"]},
                },
                "required": ["turn", "subject", "relation", "object", "op", "since"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["facts"],
    "additionalProperties": False,
}

_ENTITY_LABELS = {"PERSON": "PERSON", "GPE": "PLACE", "LOC": "PLACE", "FAC": "PLACE", "ORG": "ORG",
                  "DATE": "DATE", "NORP": "THING", "PRODUCT": "THING"}


def render_conversation(turns: Sequence[Turn], hints: EntityHints | None) -> str:
    lines = []
    names: dict[str, str] = {}
    for t in turns:
        lines.append(f"[{t.idx}] {t.speaker} ({t.at.date().isoformat()}): {t.text}")
        if hints is not None and t.speaker != "assistant":
            for name, label in hints.entities(t.text):
                names.setdefault(name, _ENTITY_LABELS.get(label, label))
    out = "\n".join(lines)
    if names:
        out += "\nEntities spotted: " + ", ".join(f"{n} ({lab})" for n, lab in names.items())
    return out + "\n->"


FIRST_PERSON = frozenset({*USER_KEYS, "my"})  # how the model writes the speaker


def facts_list(raw: str) -> list[Any]:
    """The ``facts`` list of the model's JSON answer; LLMBadOutput if it is not JSON or has none."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        raise LLMBadOutput(f"the model's answer is not JSON ({e.msg})") from None
    items = data.get("facts") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise LLMBadOutput("the model's answer has no facts list")
    return items


def parse_facts(raw: str, turns: Sequence[Turn]) -> list[ExtractedFact]:
    """Validate the model's JSON against the schema and the conversation; raise LLMBadOutput if unusable."""
    items = facts_list(raw)
    by_idx = {t.idx: t for t in turns}
    facts: list[ExtractedFact] = []
    for it in items:
        if not isinstance(it, dict):
            continue
        idx = it.get("turn")
        turn = by_idx.get(idx) if isinstance(idx, int) else None
        subj, obj = str(it.get("subject") or "").strip(), str(it.get("object") or "").strip()
        rel, op = str(it.get("relation") or ""), str(it.get("op") or "assert")
        if turn is None or turn.speaker == "assistant" or not subj or not obj or rel not in RELATIONS:
            continue
        if op not in ("assert", "end", "retract") or subj.lower() == obj.lower():
            continue
        me = USER if turn.speaker == "user" else turn.speaker  # first person is whoever is speaking
        subj = me if subj.lower() in FIRST_PERSON else subj
        obj = me if obj.lower() in FIRST_PERSON else obj
        if subj.lower() == obj.lower():
            continue
        since = _date(it.get("since"), turn.at)
        r = relation(rel)
        facts.append(ExtractedFact(
            subject=subj, relation=r.name, object=_strip_article(obj), op=op,  # type: ignore[arg-type]
            valid_from=since if op == "assert" else None, valid_to=since if op == "end" else None,
            object_type=r.object_type.value if r.object_type else None,
            subject_type=EntityType.PERSON.value if subj == USER else None,
            confidence=0.9, evidence=turn.text, turn=turn.idx))
    return facts


def _strip_article(name: str) -> str:
    low = name.lower()
    for art in ("the ", "a ", "an ", "my ", "some "):
        if low.startswith(art) and len(name) > len(art):
            return name[len(art):]
    return name


def _date(value: Any, at: datetime) -> datetime | None:
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        d = parse_time(value)
    except Exception:
        return None
    if d > at or d < at - timedelta(days=365 * 120):
        return None  # a model's date in the future or absurdly old is noise
    return d


class LLMExtractor:
    """One JSON-schema call per conversation; a broken answer is retried once, then LLMBadOutput is raised."""

    def __init__(self, llm: LLM, hints: EntityHints | None = None, *, max_tokens: int = 600,
                 timeout_s: float = 240.0) -> None:
        # learning runs in the background after a conversation: it may wait longer than an answer would
        self.llm, self.hints, self.max_tokens, self.timeout_s = llm, hints, max_tokens, timeout_s

    def extract(self, turns: Sequence[Turn], *, known: Sequence[ExtractedFact] = ()) -> Extraction:
        """``known``: facts already extracted (by the rules); the model is asked only for what they miss,
        which keeps its output — the slow part on a small CPU — short."""
        if not any(t.speaker != "assistant" for t in turns):
            return Extraction([], "llm")
        content = render_conversation(turns, self.hints)
        if known:
            listed = "; ".join(f"[{f.turn}] {f.subject} {f.relation} {f.object} ({f.op})" for f in known)
            content = content[: -len("\n->")] + f"\nAlready extracted (do not repeat them): {listed}\n" \
                "Return only facts that are missing from that list.\n->"
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": content}]
        last: LLMBadOutput | None = None
        for _ in range(2):
            raw = self.llm.complete(messages, json_schema=SCHEMA, max_tokens=self.max_tokens, temperature=0.0,
                                    timeout_s=self.timeout_s)
            try:
                return Extraction(parse_facts(raw, turns), "llm")
            except LLMBadOutput as e:
                last = e
        assert last is not None
        raise last
