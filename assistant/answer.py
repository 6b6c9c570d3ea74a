"""Answer composition: recalled facts in, a short speakable answer out (LLM, or a plain template)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import datetime

from memory.llm import Message
from memory.model import USER_ID, Arc
from memory.recall.recall import RecallResult

# Fixed prefix (the server's prompt cache keeps it); everything that varies goes in the user message.
SYSTEM = """You are Hearth, a friendly voice assistant that remembers what the user told you.
Answer in one or two short sentences that sound natural when read aloud: no markdown, no lists, no emojis.
The first sentence must carry the answer. Use only the remembered facts you are given; they are in time
order, and a fact marked "until <date>" is no longer true — never present it as current, but use it when
asked about the past ("before", "used to"). Say "you" for the user. If the facts do not answer the
question, say plainly that you don't know yet; never guess or invent. When the user tells you something
instead of asking, acknowledge it in one short, warm sentence (it will be remembered)."""

_QUESTION = re.compile(r"^\s*(who|whom|whose|what|when|where|which|why|how|is|are|am|was|were|do|does|did|can|could|"
                       r"will|would|should|have|has|had|tell me|remind me)\b", re.I)


def is_question(text: str) -> bool:
    return text.strip().endswith("?") or bool(_QUESTION.match(text))

_MD = re.compile(r"(\*\*|__|`|^#+\s*|^\s*[-*•]\s+)", re.M)


def user_prompt(question: str, recall: RecallResult, now: datetime) -> str:
    lines = [f"Today is {now.date().isoformat()}."]
    if recall.facts or recall.notes:
        lines.append("Remembered facts (oldest first):")
        lines += [f"- {s}" for s in recall.statements()]
    else:
        lines.append("Remembered facts: none relevant.")
    lines.append(f"Question: {question.strip()}" if is_question(question) else f"The user says: {question.strip()}")
    return "\n".join(lines)


def messages(question: str, recall: RecallResult, now: datetime, history: Sequence[Message] = ()) -> list[Message]:
    return [{"role": "system", "content": SYSTEM}, *history[-4:],
            {"role": "user", "content": user_prompt(question, recall, now)}]


def speakable(text: str) -> str:
    """Strip markdown and whitespace noise so TTS reads it cleanly."""
    text = _MD.sub("", text).replace("\n", " ")
    return re.sub(r"\s{2,}", " ", text).strip()


def nothing_known(question: str) -> str:
    return "I don't know that yet. You haven't told me anything about it."


def template_answer(recall: RecallResult, *, reason: str) -> str:
    """Without the model: the most relevant facts, read plainly."""
    facts = _relevant(recall)
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
    if a.valid_to is not None:
        return f"{subj} {rel} {obj} until {a.valid_to.date().isoformat()}"
    return f"{subj} {rel} {obj} since {a.valid_from.date().isoformat()}"


def join_stream(pieces: Iterator[str]) -> str:
    return speakable("".join(pieces))
