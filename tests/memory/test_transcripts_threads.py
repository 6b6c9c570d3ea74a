"""The transcript store under concurrent writers: the voice thread and learner threads at once."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.model import Change
from memory.transcripts import TranscriptStore, Turn

T0 = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)


def test_concurrent_writers_all_succeed_and_nothing_is_lost(tmp_path: Path) -> None:
    store = TranscriptStore(tmp_path / "t.sqlite3")
    n_threads, per_thread = 8, 50
    errors: list[BaseException] = []
    start = threading.Barrier(n_threads)

    def writer(k: int) -> None:
        try:
            start.wait()
            for i in range(per_thread):
                cid = f"c{k}"
                [turn] = store.add_turns([Turn(cid, T0 + timedelta(seconds=i), "user", f"turn {k}.{i}")],
                                         source="test")
                store.set_timings(cid, turn.idx, {"stt": float(i)})
                change = Change("added", f"a{k}.{i}", "user", "likes", f"thing {i}")
                store.record_learning(cid, [turn], [(change, turn.idx, turn.text)], at=T0, status="learned")
        except BaseException as e:  # collected: a failure in any thread fails the test
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(n_threads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    for k in range(n_threads):
        conv = store.conversation(f"c{k}")
        assert conv is not None and len(conv.turns) == per_thread
        assert all(t.timings for t in conv.turns)
        assert len(store.changes(f"c{k}")) == per_thread
    assert store.pending_conversations() == []
    store.close()


def test_connections_of_ended_threads_are_closed(tmp_path: Path) -> None:
    store = TranscriptStore(tmp_path / "t.sqlite3")
    for i in range(20):  # a learner thread per conversation, over months
        th = threading.Thread(target=lambda i=i: store.add_turns([Turn(f"c{i}", T0, "user", "hi")], source="t"))
        th.start()
        th.join()
    store.conversations()  # this thread's connection prunes the ended ones
    assert store.open_connections <= 2
    store.close()


def test_concurrent_writers_to_one_conversation_get_distinct_indexes(tmp_path: Path) -> None:
    """Every thread appends to the same conversation: each turn is stored once, under its own index."""
    store = TranscriptStore(tmp_path / "t.sqlite3")
    n_threads, per_thread = 8, 25
    errors: list[BaseException] = []
    start = threading.Barrier(n_threads)

    def writer(k: int) -> None:
        try:
            start.wait()
            for i in range(per_thread):
                [turn] = store.add_turns([Turn("shared", T0 + timedelta(seconds=i), f"p{k}", f"turn {k}.{i}")],
                                         source="test")
                store.set_timings("shared", turn.idx, {"stt": float(k), "n": float(i)})
        except BaseException as e:  # collected: a failure in any thread fails the test
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(n_threads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    conv = store.conversation("shared")
    assert conv is not None
    assert sorted(t.idx for t in conv.turns) == list(range(n_threads * per_thread))  # none handed out twice
    assert {(t.speaker, t.text) for t in conv.turns} == {(f"p{k}", f"turn {k}.{i}")
                                                         for k in range(n_threads) for i in range(per_thread)}
    assert all(t.timings == {"stt": float(t.speaker[1:]), "n": float(t.text.split(".")[1])} for t in conv.turns)
    store.close()
