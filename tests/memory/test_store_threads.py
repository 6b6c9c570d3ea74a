"""Reads side by side, writes alone: the kglite store's lock, and the real store read from threads while it writes."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.graph import TemporalGraph
from memory.kglite_store import KgliteStore, _ReadWriteLock

T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)


def test_readers_hold_the_lock_at_once() -> None:
    lock = _ReadWriteLock()
    both_in = threading.Barrier(2, timeout=5)

    def read() -> bool:
        with lock.reading():
            both_in.wait()  # raises BrokenBarrierError if the second reader cannot get in beside the first
            return True

    with ThreadPoolExecutor(2) as pool:
        assert all(f.result() for f in [pool.submit(read), pool.submit(read)])


def test_a_writer_waits_for_readers_and_readers_wait_for_it() -> None:
    lock = _ReadWriteLock()
    order: list[str] = []
    reading, writer_tried = threading.Event(), threading.Event()

    def write() -> None:
        reading.wait(5)
        writer_tried.set()
        with lock.writing():
            order.append("write")

    with ThreadPoolExecutor(1) as pool:
        with lock.reading():
            done = pool.submit(write)
            reading.set()
            writer_tried.wait(5)
            assert not done.done()  # the read still holds it
            order.append("read")
        done.result(timeout=5)
    assert order == ["read", "write"]

    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with lock.writing():
            held.set()
            release.wait(5)
            order.append("write 2")

    with ThreadPoolExecutor(2) as pool:
        writer = pool.submit(hold)
        held.wait(5)
        reader = pool.submit(lambda: lock.reading().__enter__() or order.append("read 2"))
        assert not reader.done()
        release.set()
        writer.result(timeout=5), reader.result(timeout=5)
    assert order[-2:] == ["write 2", "read 2"]


def test_the_writer_reads_and_writes_again_in_its_own_thread() -> None:
    lock = _ReadWriteLock()
    with lock.writing(), lock.reading(), lock.writing():
        pass
    with lock.reading():  # and it is free again
        pass


def test_the_store_is_read_from_threads_while_learning_writes(tmp_path: Path) -> None:
    store = KgliteStore(tmp_path / "t.kgl")
    try:
        g = TemporalGraph(store)
        g.ensure_user(T0)
        for i in range(20):
            g.assert_fact("user", "likes", f"thing {i}", now=T0)
        stop = threading.Event()
        seen: list[int] = []

        def reader() -> None:
            while not stop.is_set():
                n = len(g.lookup("user", "likes", at=T0 + timedelta(days=1)))
                assert n >= 20
                seen.append(n)

        with ThreadPoolExecutor(3) as pool:
            readers = [pool.submit(reader) for _ in range(2)]
            for i in range(20, 40):
                g.assert_fact("user", "likes", f"thing {i}", now=T0)
            stop.set()
            for r in readers:
                r.result(timeout=30)  # re-raises a reader's error
        assert seen and len(g.lookup("user", "likes", at=T0 + timedelta(days=1))) == 40
    finally:
        store.close()
