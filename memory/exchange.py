"""The JSONL exchange format for transcripts: one {"conversation","at","speaker","text"} object per line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memory.errors import InvalidInput
from memory.text import describe_bad_char
from memory.timeutil import CLOCK_SKEW, iso, parse_time
from memory.transcripts import Turn

MAX_TEXT = 10_000


class MalformedTranscript(InvalidInput):
    code = "malformed_transcript"

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        shown = "\n  ".join(problems[:20]) + (f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else "")
        super().__init__(f"{source}: {len(problems)} bad line(s), nothing was ingested:\n  {shown}",
                         hint='each line must be {"conversation": "...", "at": "ISO-8601", '
                              '"speaker": "user" | "assistant" | "<name>", "text": "..."}')
        self.problems = list(problems)


@dataclass
class ParsedTranscript:
    turns: list[Turn]
    warnings: list[str] = field(default_factory=list)


def parse_jsonl(lines: Iterable[str], *, source: str = "input", now: datetime | None = None) -> ParsedTranscript:
    """Validate every line first; any bad line rejects the whole file (nothing partial is ingested).

    ``now``: the caller's clock; a turn later than ``now`` + CLOCK_SKEW is refused (it would be believed
    as the newest word on everything it mentions). Without it, only the sane year range is checked.
    """
    problems: list[str] = []
    warnings: list[str] = []
    raw: list[tuple[int, Turn]] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(f"line {n}: not JSON ({e.msg})")
            continue
        if not isinstance(obj, dict):
            problems.append(f"line {n}: expected a JSON object")
            continue
        missing = [k for k in ("conversation", "at", "speaker", "text") if k not in obj]
        if missing:
            problems.append(f"line {n}: missing {', '.join(missing)}")
            continue
        conv, speaker, text = obj["conversation"], obj["speaker"], obj["text"]
        if not isinstance(conv, (str, int)) or not str(conv).strip():
            problems.append(f"line {n}: conversation must be a non-empty string")
            continue
        if not isinstance(speaker, str) or not speaker.strip():
            problems.append(f"line {n}: speaker must be a non-empty string")
            continue
        if not isinstance(text, str):
            problems.append(f"line {n}: text must be a string")
            continue
        if not isinstance(obj["at"], str):
            problems.append(f"line {n}: at must be an ISO-8601 string")
            continue
        try:
            at = parse_time(obj["at"])
        except InvalidInput as e:
            problems.append(f"line {n}: " + (f"cannot read time {obj['at']!r}" if e.message.startswith("cannot")
                                              else f"time {e.message}"))
            continue
        if now is not None and at > now + CLOCK_SKEW:
            problems.append(f"line {n}: time {obj['at']!r} is in the future (now is {iso(now)})")
            continue
        bad = [f"{k} is not valid Unicode ({p})" for k in ("conversation", "speaker", "text")
               if (p := describe_bad_char(str(obj[k]))) is not None]
        if bad:
            problems.append(f"line {n}: " + "; ".join(bad))
            continue
        if not text.strip():
            warnings.append(f"line {n}: empty text, skipped")
            continue
        if len(text) > MAX_TEXT:
            warnings.append(f"line {n}: text longer than {MAX_TEXT} characters, truncated")
            text = text[:MAX_TEXT]
        sp = speaker.strip()
        sp = sp.lower() if sp.lower() in ("user", "assistant") else sp
        timings = obj.get("timings") if isinstance(obj.get("timings"), dict) else {}
        raw.append((n, Turn(str(conv).strip(), at, sp, text.strip(), timings=timings or {})))
    if problems:
        raise MalformedTranscript(source, problems)
    # time order within each conversation (stable for equal times); say so when the file was out of order
    turns: list[Turn] = []
    by_conv: dict[str, list[tuple[int, Turn]]] = {}
    for n, t in raw:
        by_conv.setdefault(t.conversation, []).append((n, t))
    for cid, items in by_conv.items():
        ordered = sorted(items, key=lambda x: x[1].at)
        if [n for n, _ in ordered] != [n for n, _ in items]:
            warnings.append(f"conversation {cid}: turns were out of time order; processed in time order")
        speakers = {t.speaker for _, t in items} - {"user", "assistant"}
        if speakers:
            warnings.append(f"conversation {cid}: other speaker(s) {', '.join(sorted(speakers))}: "
                            "their first person is about them, not you")
        turns.extend(t for _, t in ordered)
    turns.sort(key=lambda t: t.at)
    return ParsedTranscript(turns, warnings)


def to_jsonl(turns: Iterable[Turn]) -> str:
    return "".join(json.dumps(t.to_json(), ensure_ascii=False) + "\n" for t in turns)
