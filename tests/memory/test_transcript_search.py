"""The page's text search over what was said: a trigram index (memory/transcripts.py: SEARCH_INDEX) that finds
any substring of 3+ characters, stays right through forgetting, and keeps no trace of forgotten words."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.redact import Redactor
from memory.transcripts import SCHEMA, TranscriptStore, Turn

T0 = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
SAID = ["My sister Qzxwvi moved to Porto.", "I like green tea.", "We drove to the coast: 40% of the way in rain.",
        "Ünal's café is the best.", "ok"]


def store(path: Path) -> TranscriptStore:
    ts = TranscriptStore(path)
    ts.add_turns([Turn(f"c{i}", T0 + timedelta(hours=i), "user", t) for i, t in enumerate(SAID)], source="t")
    return ts


def ids(ts: TranscriptStore, text: str) -> list[str]:
    return sorted(c["id"] for c in ts.find_conversations(text=text))


def test_any_substring_in_any_case(tmp_path: Path) -> None:
    ts = store(tmp_path / "t.sqlite3")
    assert ids(ts, "qzxw") == ["c0"] and ids(ts, "GREEN T") == ["c1"] and ids(ts, "40%") == ["c2"]
    assert ids(ts, "ünal") == ["c3"] and ids(ts, "ok") == ["c4"]  # two characters: scanned, not indexed
    assert ids(ts, 'tea"') == [] and ids(ts, "nowhere") == []
    (c,) = ts.find_conversations(text="porto")
    assert c["preview"] == SAID[0]
    ts.close()


def test_a_store_written_before_the_index_is_indexed_when_opened(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "t.sqlite3")
    db.executescript(SCHEMA)
    db.execute("INSERT INTO conversations VALUES ('old', 0, 1, 't', NULL, NULL, NULL)")
    db.execute("INSERT INTO turns (conversation_id, idx, at, speaker, text) VALUES ('old', 0, 0, 'user', "
               "'I keep bees.')")
    db.commit()
    db.close()
    ts = TranscriptStore(tmp_path / "t.sqlite3")
    assert ids(ts, "bees") == ["old"]
    ts.close()


def test_forgotten_words_are_not_found_and_leave_no_trigram(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    ts = store(path)
    ts.redact(Redactor(["Qzxwvi"]))
    assert ids(ts, "qzxw") == [] and ids(ts, "forgotten") == ["c0"]
    ts.forget_conversation("c1")
    assert ids(ts, "green") == []
    assert ts.scrub()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert b"zxw" not in raw.lower() and b"een" not in raw  # trigrams of the forgotten text are gone too
    assert ids(ts, "porto") == ["c0"] and ids(ts, "coast") == ["c2"]  # the rest is still found after the rebuild
    ts.close()
