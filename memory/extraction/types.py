"""What an extractor returns: candidate facts with the words they came from."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

# assert: true from valid_from on; end: was true, no longer is (close it at valid_to or now);
# retract: was never true / the user takes it back (a correction, "forget that ...").
Op = Literal["assert", "end", "retract"]
USER = "user"  # the speaker; first person ("I", "my", "me") maps here


@dataclass(frozen=True)
class ExtractedFact:
    subject: str  # a name as said ("Anna"), or USER
    relation: str  # a vocabulary name (memory.vocabulary.RELATIONS)
    object: str
    op: Op = "assert"
    valid_from: datetime | None = None  # from relative dates against the turn's time
    valid_to: datetime | None = None
    subject_type: str | None = None  # PERSON, PLACE, ORG, ... when known
    object_type: str | None = None
    label: str | None = None  # related_to's own words; for a role, the word said ("husband" for spouse_of)
    confidence: float = 1.0
    evidence: str = ""  # the words of the utterance it came from
    turn: int = 0  # index of the turn in the conversation
    extra: dict[str, Any] = field(default_factory=dict)

    def key(self) -> tuple[str, str, str, str]:
        """For scoring: normalised (subject, relation, object, op)."""
        from memory.names import normalize

        return (normalize(self.subject) or self.subject.lower(), self.relation,
                normalize(self.object) or self.object.lower(), self.op)


def for_speaker(f: ExtractedFact, speaker: str) -> ExtractedFact:
    """First person means the speaker: the user, or another named person in the conversation.

    Every extractor writes first person as USER; a guest's "I live in Berlin" is about the guest, and
    must never close the user's home."""
    if speaker == USER:
        return f
    return replace(f, subject=speaker if f.subject == USER else f.subject,
                   object=speaker if f.object == USER else f.object)
