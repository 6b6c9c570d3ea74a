"""SQLite transcript store: conversations, turns with timings, and what each conversation changed in memory."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from memory.errors import StoreCorrupt
from memory.model import Change
from memory.redact import Redactor
from memory.timeutil import from_epoch, to_epoch

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
  id TEXT PRIMARY KEY, started_at REAL NOT NULL, ended_at REAL NOT NULL, source TEXT NOT NULL,
  learned_at REAL, learn_status TEXT, learn_note TEXT
);
CREATE TABLE IF NOT EXISTS turns (
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL, at REAL NOT NULL, speaker TEXT NOT NULL, text TEXT NOT NULL,
  timings TEXT NOT NULL DEFAULT '{}', learned INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (conversation_id, idx)
);
CREATE TABLE IF NOT EXISTS changes (
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  turn_idx INTEGER, at REAL NOT NULL, kind TEXT NOT NULL, arc_id TEXT NOT NULL, subject TEXT NOT NULL,
  relation TEXT NOT NULL, object TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '', evidence TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS changes_arc ON changes(arc_id);
CREATE INDEX IF NOT EXISTS turns_at ON turns(at);
CREATE INDEX IF NOT EXISTS conversations_started ON conversations(started_at);
CREATE INDEX IF NOT EXISTS changes_conversation ON changes(conversation_id);
CREATE INDEX IF NOT EXISTS turns_unlearned ON turns(conversation_id) WHERE learned = 0;
"""
# The page's text search: a trigram index over what was said (any substring of 3+ characters, any case), kept
# by triggers. It holds no words of its own (its content is the turns table), and whatever it indexed is
# dropped by the rebuild that `scrub` runs after forgetting (SQLite 3.40 has no FTS5 secure-delete). VACUUM may
# renumber the turns' rowids, which is one more reason scrub rebuilds it.
SEARCH_INDEX = """
CREATE VIRTUAL TABLE IF NOT EXISTS turns_text USING fts5(text, content='turns', content_rowid='rowid',
  tokenize='trigram');
CREATE TRIGGER IF NOT EXISTS turns_text_ai AFTER INSERT ON turns BEGIN
  INSERT INTO turns_text(rowid, text) VALUES (new.rowid, new.text); END;
CREATE TRIGGER IF NOT EXISTS turns_text_ad AFTER DELETE ON turns BEGIN
  INSERT INTO turns_text(turns_text, rowid, text) VALUES ('delete', old.rowid, old.text); END;
CREATE TRIGGER IF NOT EXISTS turns_text_au AFTER UPDATE OF text ON turns BEGIN
  INSERT INTO turns_text(turns_text, rowid, text) VALUES ('delete', old.rowid, old.text);
  INSERT INTO turns_text(rowid, text) VALUES (new.rowid, new.text); END;
"""
# Forgetting a name searches every column that can hold words someone said or a name they chose; the
# rest are codes and numbers. A new TEXT column must be added to one of the two (a test checks it).
REDACTABLE = {
    "conversations": ("id", "source", "learn_note"),
    "turns": ("conversation_id", "speaker", "text"),
    "changes": ("conversation_id", "subject", "object", "reason", "evidence"),
}
STRUCTURAL = {"conversations": ("learn_status",), "turns": ("timings",), "changes": ("kind", "arc_id", "relation")}


def turn_id(conversation: object, turn: int) -> str:
    """How a turn is named in provenance and as an episode: its conversation and index."""
    return f"{conversation}#{turn}"


@dataclass(frozen=True)
class Turn:
    conversation: str
    at: datetime
    speaker: str  # "user", "assistant" or another person's name
    text: str
    idx: int = 0
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def source_id(self) -> str:
        """How arcs cite this turn in their provenance."""
        return turn_id(self.conversation, self.idx)

    def to_json(self) -> dict[str, Any]:
        from memory.timeutil import iso

        d: dict[str, Any] = {"conversation": self.conversation, "at": iso(self.at), "speaker": self.speaker,
                             "text": self.text}
        if self.timings:
            d["timings"] = self.timings
        return d


@dataclass(frozen=True)
class Conversation:
    id: str
    turns: tuple[Turn, ...]
    learned_at: datetime | None = None
    learn_status: str | None = None
    learn_note: str | None = None

    @property
    def started_at(self) -> datetime:
        return self.turns[0].at

    @property
    def ended_at(self) -> datetime:
        return self.turns[-1].at


class TranscriptStore:
    """One SQLite file under the data dir; every method is one transaction.

    Each thread gets its own connection (the voice loop writes turns while a learner thread records what it
    learned: one shared connection made their transactions collide); WAL lets them read while one writes,
    and a busy timeout makes writers queue instead of failing.
    """

    BUSY_TIMEOUT_MS = 30_000

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._local = threading.local()
        self._all: list[tuple[threading.Thread, sqlite3.Connection]] = []
        self._guard = threading.Lock()
        # called with the turns each add_turns stored (after commit): the graph writes them as episodes
        self.listeners: list[Callable[[list[Turn]], object]] = []
        try:
            db = self._db
            db.execute("PRAGMA journal_mode = WAL")
            db.executescript(SCHEMA)
            self._ensure_search_index(db)
        except sqlite3.DatabaseError as e:
            self.close()
            raise StoreCorrupt(f"the transcript file {path} is unreadable ({e}); it was left untouched",
                               hint="move it aside to start a new transcript history") from e

    @staticmethod
    def _ensure_search_index(db: sqlite3.Connection) -> None:
        """Create the text search index, indexing what a store written before it holds (once)."""
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'turns_text_au'").fetchone():
            return
        fresh = not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'turns_text'").fetchone()
        rebuild = "INSERT INTO turns_text(turns_text) VALUES ('rebuild');" if fresh else ""
        try:  # one transaction: a second process opening the store at the same time waits, then finds it
            db.executescript("BEGIN IMMEDIATE;" + SEARCH_INDEX + rebuild + "COMMIT;")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    @property
    def _db(self) -> sqlite3.Connection:
        """This thread's connection (opened on first use)."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False,
                                 timeout=self.BUSY_TIMEOUT_MS / 1000)
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA secure_delete = ON")  # deleted and overwritten text is zeroed, not left in free space
            db.execute(f"PRAGMA busy_timeout = {self.BUSY_TIMEOUT_MS}")
            self._local.db = db
            with self._guard:  # connections of threads that have ended are closed (a learner per conversation)
                ended = [c for th, c in self._all if not th.is_alive()]
                self._all = [(th, c) for th, c in self._all if th.is_alive()]
                self._all.append((threading.current_thread(), db))
            for c in ended:
                c.close()
        return db

    @property
    def open_connections(self) -> int:
        return len(self._all)

    def close(self) -> None:
        with self._guard:
            conns, self._all = self._all, []
        for _, db in conns:
            db.close()
        self._local = threading.local()

    def _tx(self) -> sqlite3.Connection:
        return self._db

    def add_turns(self, turns: Sequence[Turn], *, source: str) -> list[Turn]:
        """Store turns (grouped by conversation); returns the ones that were new (same time+speaker+text = same)."""
        new: list[Turn] = []
        by_conv: dict[str, list[Turn]] = {}
        for t in turns:
            by_conv.setdefault(t.conversation, []).append(t)
        db = self._tx()
        db.execute("BEGIN IMMEDIATE")
        try:
            for cid, items in by_conv.items():
                existing = {(r[0], r[1], r[2]) for r in db.execute(
                    "SELECT at, speaker, text FROM turns WHERE conversation_id = ?", (cid,))}
                next_idx = db.execute("SELECT COALESCE(MAX(idx) + 1, 0) FROM turns WHERE conversation_id = ?",
                                      (cid,)).fetchone()[0]
                fresh = [t for t in items if (to_epoch(t.at), t.speaker, t.text) not in existing]
                if not fresh:
                    continue
                start = min(to_epoch(t.at) for t in items)
                end = max(to_epoch(t.at) for t in items)
                db.execute(
                    "INSERT INTO conversations (id, started_at, ended_at, source) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(id) DO UPDATE SET started_at = MIN(started_at, excluded.started_at), "
                    "ended_at = MAX(ended_at, excluded.ended_at)", (cid, start, end, source))
                for t in fresh:
                    stored = Turn(cid, t.at, t.speaker, t.text, next_idx, dict(t.timings))
                    db.execute("INSERT INTO turns (conversation_id, idx, at, speaker, text, timings) "
                               "VALUES (?, ?, ?, ?, ?, ?)",
                               (cid, next_idx, to_epoch(t.at), t.speaker, t.text, json.dumps(t.timings)))
                    new.append(stored)
                    next_idx += 1
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        for listener in self.listeners if new else ():
            try:
                listener(new)
            except Exception as e:  # the turn is stored; what listens can catch up from here later
                log.warning("a listener of new turns failed: %s", e)
        return new

    def set_timings(self, conversation: str, idx: int, timings: dict[str, float]) -> None:
        self._db.execute("UPDATE turns SET timings = ? WHERE conversation_id = ? AND idx = ?",
                         (json.dumps(timings), conversation, idx))

    def record_learning(self, conversation: str, turns: Iterable[Turn], changes: Sequence[tuple[Change, int, str]],
                        *, at: datetime, status: str, note: str = "") -> None:
        """Mark turns learned and record what changed, atomically. changes: (change, turn idx, evidence)."""
        db = self._tx()
        db.execute("BEGIN IMMEDIATE")
        try:
            for t in turns:
                db.execute("UPDATE turns SET learned = 1 WHERE conversation_id = ? AND idx = ?",
                           (conversation, t.idx))
            for ch, idx, evidence in changes:
                db.execute("INSERT INTO changes (conversation_id, turn_idx, at, kind, arc_id, subject, relation, "
                           "object, reason, evidence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (conversation, idx, to_epoch(at), ch.kind, ch.arc_id, ch.subject, ch.relation,
                            ch.object, ch.reason, evidence))
            db.execute("UPDATE conversations SET learned_at = ?, learn_status = ?, learn_note = ? WHERE id = ?",
                       (to_epoch(at), status, note, conversation))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def unlearned(self, conversation: str) -> list[Turn]:
        return [self._turn(r) for r in self._db.execute(
            "SELECT conversation_id, idx, at, speaker, text, timings FROM turns "
            "WHERE conversation_id = ? AND learned = 0 ORDER BY at, idx", (conversation,))]

    def ended_since(self, t: datetime) -> list[str]:
        """Conversations whose last turn is at or after ``t``, oldest first (what the nightly run re-learns)."""
        return [r[0] for r in self._db.execute(
            "SELECT id FROM conversations WHERE ended_at >= ? ORDER BY ended_at, id", (to_epoch(t),))]

    def pending_conversations(self) -> list[str]:
        return [r[0] for r in self._db.execute(  # the partial index turns_unlearned holds just these
            "SELECT DISTINCT conversation_id FROM turns WHERE learned = 0 ORDER BY conversation_id")]

    @staticmethod
    def _turn(r: Sequence[Any]) -> Turn:
        return Turn(r[0], from_epoch(r[2]), r[3], r[4], int(r[1]), json.loads(r[5] or "{}"))  # type: ignore[arg-type]

    def conversation(self, cid: str) -> Conversation | None:
        row = self._db.execute("SELECT id, learned_at, learn_status, learn_note FROM conversations WHERE id = ?",
                               (cid,)).fetchone()
        if row is None:
            return None
        turns = tuple(self._turn(r) for r in self._db.execute(
            "SELECT conversation_id, idx, at, speaker, text, timings FROM turns WHERE conversation_id = ? "
            "ORDER BY at, idx", (cid,)))
        return Conversation(row[0], turns, from_epoch(row[1]), row[2], row[3])

    def conversations(self, limit: int = 50) -> list[dict[str, Any]]:
        return [{"id": r[0], "started_at": from_epoch(r[1]), "ended_at": from_epoch(r[2]), "turns": r[3],
                 "changes": r[4], "learn_status": r[5]} for r in self._db.execute(
            "SELECT c.id, c.started_at, c.ended_at, (SELECT COUNT(*) FROM turns t WHERE t.conversation_id = c.id), "
            "(SELECT COUNT(*) FROM changes x WHERE x.conversation_id = c.id), c.learn_status "
            "FROM conversations c ORDER BY c.started_at DESC LIMIT ?", (limit,))]

    def changes(self, conversation: str) -> list[dict[str, Any]]:
        cols = ("turn_idx", "at", "kind", "arc_id", "subject", "relation", "object", "reason", "evidence")
        return [dict(zip(cols, r, strict=True)) for r in self._db.execute(
            f"SELECT {', '.join(cols)} FROM changes WHERE conversation_id = ? ORDER BY rowid", (conversation,))]

    def turn_by_source(self, source_id: str) -> Turn | None:
        cid, _, idx = source_id.rpartition("#")
        if not cid or not idx.isdigit():
            return None
        r = self._db.execute("SELECT conversation_id, idx, at, speaker, text, timings FROM turns "
                             "WHERE conversation_id = ? AND idx = ?", (cid, int(idx))).fetchone()
        return None if r is None else self._turn(r)

    def forget_arcs(self, arc_ids: Sequence[str]) -> int:
        """Privacy: drop the change records that reference deleted arcs (their reason and evidence too)."""
        db = self._tx()
        db.execute("BEGIN IMMEDIATE")
        try:
            n = sum(db.execute("DELETE FROM changes WHERE arc_id = ?", (i,)).rowcount for i in arc_ids)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return n

    def turn_count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM turns").fetchone()[0])
    def mentions(self, redactor: Redactor) -> dict[str, int]:
        """Rows per table whose words name what ``redactor`` forgets (nothing is changed)."""
        db = self._with_redactor(redactor)
        return {table: db.execute(f"SELECT COUNT(*) FROM {table} WHERE {_any_mention(cols)}").fetchone()[0]
                for table, cols in REDACTABLE.items()}

    def redact(self, redactor: Redactor) -> dict[str, int]:
        """Replace the forgotten names in every REDACTABLE column, in one transaction; rows changed per table.

        A conversation whose id holds the name is renamed in all three tables (foreign keys are checked at
        commit), the same way the graph redacts its ``conversation_ids`` and ``sources``.
        """
        db = self._with_redactor(redactor)
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("PRAGMA defer_foreign_keys = ON")
            counts: dict[str, int] = {}
            for table, cols in REDACTABLE.items():
                sets = ", ".join(f"{c} = hearth_redact({c})" for c in cols)
                counts[table] = db.execute(f"UPDATE {table} SET {sets} WHERE {_any_mention(cols)}").rowcount
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return counts

    def forget_conversation(self, conversation: str, arc_ids: Sequence[str] = ()) -> int:
        """Delete a conversation: its turns, its changes, and other conversations' changes to ``arc_ids``."""
        db = self._tx()
        db.execute("BEGIN IMMEDIATE")
        try:
            n = db.execute("SELECT COUNT(*) FROM turns WHERE conversation_id = ?", (conversation,)).fetchone()[0]
            db.execute("DELETE FROM changes WHERE conversation_id = ?", (conversation,))
            db.execute("DELETE FROM turns WHERE conversation_id = ?", (conversation,))
            db.execute("DELETE FROM conversations WHERE id = ?", (conversation,))
            for i in arc_ids:
                db.execute("DELETE FROM changes WHERE arc_id = ?", (i,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return int(n)

    def scrub(self) -> bool:
        """Rewrite the file so that no free page or write-ahead log frame keeps deleted text.

        VACUUM rebuilds the database (in memory: no temporary file elsewhere), then a TRUNCATE checkpoint
        copies it into the main file and empties the WAL. False when another connection kept a reader open
        and the WAL could not be emptied.
        """
        db = self._db
        db.execute("PRAGMA temp_store = MEMORY")
        db.execute("VACUUM")
        db.execute("INSERT INTO turns_text(turns_text) VALUES ('rebuild')")  # after VACUUM: rowids may change
        busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return not busy

    def _with_redactor(self, redactor: Redactor) -> sqlite3.Connection:
        db = self._tx()
        db.create_function("hearth_mentions", 1, lambda v: int(redactor.mentions(v)), deterministic=True)
        db.create_function("hearth_redact", 1, lambda v: redactor.redact(v) if isinstance(v, str) else v,
                           deterministic=True)
        return db

    def search_turns(self, speaker: str | None = None) -> list[Turn]:
        q = "SELECT conversation_id, idx, at, speaker, text, timings FROM turns"
        rows = self._db.execute(q + (" WHERE speaker = ?" if speaker else "") + " ORDER BY at, idx",
                                (speaker,) if speaker else ())
        return [self._turn(r) for r in rows]

    def find_conversations(self, *, text: str | None = None, speaker: str | None = None,
                           since: datetime | None = None, until: datetime | None = None,
                           limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        """Newest first; ``text`` matches any turn (case-insensitive substring), ``speaker`` any turn's speaker,
        ``since``/``until`` the conversation's span overlapping [since, until)."""
        pattern = None if not text else "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        # 3+ characters: the trigram index; shorter: a scan (the index has no trigram to look up)
        phrase = None if not text or len(text) < 3 else '"' + text.replace('"', '""') + '"'
        found = ("t.rowid IN (SELECT rowid FROM turns_text WHERE turns_text MATCH :phrase)" if phrase
                 else "t.text LIKE :pat ESCAPE '\\'")
        params = {"pat": pattern, "phrase": phrase, "speaker": speaker or None,
                  "since": None if since is None else to_epoch(since),
                  "until": None if until is None else to_epoch(until), "limit": limit, "offset": offset}
        # the page of conversations first (the index on started_at, no per-row work), then what each one shows
        rows = self._db.execute(
            "WITH page AS (SELECT c.id, c.started_at, c.ended_at, c.learn_status FROM conversations c "
            "WHERE (:since IS NULL OR c.ended_at >= :since) AND (:until IS NULL OR c.started_at < :until) "
            "AND (:speaker IS NULL OR EXISTS (SELECT 1 FROM turns t WHERE t.conversation_id = c.id "
            "     AND t.speaker = :speaker COLLATE NOCASE)) "
            "AND (:pat IS NULL OR c.id IN (SELECT t.conversation_id FROM turns t WHERE " + found + ")) "
            "ORDER BY c.started_at DESC, c.id LIMIT :limit OFFSET :offset) "
            "SELECT p.id, p.started_at, p.ended_at, "
            "(SELECT COUNT(*) FROM turns t WHERE t.conversation_id = p.id), "
            "(SELECT COUNT(*) FROM changes x WHERE x.conversation_id = p.id), p.learn_status, "
            "(SELECT group_concat(s, char(31)) FROM (SELECT DISTINCT t.speaker AS s FROM turns t "
            "  WHERE t.conversation_id = p.id)), "
            "(SELECT t.text FROM turns t WHERE t.conversation_id = p.id "
            "  AND (:pat IS NULL OR " + found + ") ORDER BY t.at, t.idx LIMIT 1) "
            "FROM page p ORDER BY p.started_at DESC, p.id", params)
        return [{"id": r[0], "started_at": from_epoch(r[1]), "ended_at": from_epoch(r[2]), "turns": r[3],
                 "changes": r[4], "learn_status": r[5], "speakers": sorted(r[6].split("\x1f")) if r[6] else [],
                 "preview": r[7] or ""} for r in rows]

def _any_mention(cols: Sequence[str]) -> str:
    return " OR ".join(f"hearth_mentions({c})" for c in cols)
