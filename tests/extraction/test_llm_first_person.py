"""The LLM path: first person is whoever is speaking (a guest's "I live in Berlin" is not the user's home)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from memory.extraction.llm_extractor import parse_facts
from memory.extraction.types import USER
from memory.transcripts import Turn

T0 = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)


def test_a_guests_first_person_is_the_guest() -> None:
    turns = [Turn("c", T0, "user", "My sister Anna is visiting.", idx=0),
             Turn("c", T0, "Anna", "I live in Berlin now.", idx=1),
             Turn("c", T0, "user", "I live in Porto.", idx=2)]
    raw = json.dumps({"facts": [  # what the model writes: "user" for every "I"
        {"turn": 1, "subject": "user", "relation": "lives_in", "object": "Berlin", "op": "assert", "since": None},
        {"turn": 1, "subject": "I", "relation": "sister_of", "object": "user", "op": "assert", "since": None},
        {"turn": 2, "subject": "user", "relation": "lives_in", "object": "Porto", "op": "assert", "since": None},
    ]})
    facts = [(f.subject, f.relation, f.object) for f in parse_facts(raw, turns)]
    assert ("Anna", "lives_in", "Berlin") in facts
    assert (USER, "lives_in", "Porto") in facts
    assert (USER, "lives_in", "Berlin") not in facts
    assert not any(f[0] == f[2] for f in facts)  # "I sister_of me" from a guest's turn is dropped, not stored
