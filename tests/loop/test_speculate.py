"""Speculative turns: the work started on a pause is handed over intact, or dropped without asking the LLM."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import numpy as np
import pytest

from assistant.loop.speculate import Prepared, Speculation
from audio.errors import AudioModelError

PCM = np.zeros(1600, dtype=np.int16)


class Stream:
    """An answer stream that records how far it was read and whether it was closed (as an HTTP stream)."""

    def __init__(self, pieces: list[str], gate: threading.Event | None = None) -> None:
        self.pieces, self.gate = pieces, gate
        self.read: list[str] = []
        self.started = self.closed = False

    def __iter__(self) -> Iterator[str]:
        return self._gen()

    def _gen(self) -> Iterator[str]:
        self.started = True
        try:
            for i, p in enumerate(self.pieces):
                if i == 1 and self.gate is not None:
                    self.gate.wait(5)
                self.read.append(p)
                yield p
        finally:
            self.closed = True


def test_take_hands_over_the_words_and_every_piece_in_order() -> None:
    stream = Stream(["Anna ", "lives ", "in Porto."])
    spec = Speculation(PCM, 1.0, lambda pcm: Prepared("where does anna live", iter(stream), None, {"stt": 5.0}))
    got = spec.take()
    assert got.heard == "where does anna live" and got.timings_ms == {"stt": 5.0}
    assert "".join(got.pieces) == "Anna lives in Porto."
    spec.join(5)
    assert stream.read == stream.pieces


def test_cancelled_during_stt_never_starts_the_answer() -> None:
    release = threading.Event()
    stream = Stream(["never"])

    def prepare(pcm: np.ndarray) -> Prepared:
        release.wait(5)  # still transcribing when the user speaks again
        return Prepared("where does", iter(stream), None)

    spec = Speculation(PCM, 1.0, prepare)
    spec.cancel()
    release.set()
    spec.join(5)
    assert not stream.started  # the LLM was never asked


def test_cancelled_mid_answer_closes_the_stream() -> None:
    gate = threading.Event()
    stream = Stream(["one ", "two ", "three"], gate)
    spec = Speculation(PCM, 1.0, lambda pcm: Prepared("q", iter(stream), None))
    spec.wait_prepared(5)
    spec.cancel()
    gate.set()
    spec.join(5)
    assert stream.closed and 1 <= len(stream.read) < 3  # stopped at the next piece, not read to the end


def test_errors_reach_the_taker() -> None:
    def broken(pcm: np.ndarray) -> Prepared:
        raise AudioModelError("stt.failed", "transcription failed: boom")

    spec = Speculation(PCM, 1.0, broken)
    with pytest.raises(AudioModelError, match="boom"):
        spec.take()


def test_a_failing_stream_raises_from_the_pieces_after_what_came() -> None:
    def pieces() -> Iterator[str]:
        yield "Anna "
        raise ConnectionError("server went away")

    spec = Speculation(PCM, 1.0, lambda pcm: Prepared("q", pieces(), None))
    got = spec.take()
    it = iter(got.pieces)
    assert next(it) == "Anna "
    with pytest.raises(ConnectionError):
        next(it)


def test_a_new_speculation_waits_for_a_dropped_one_still_transcribing() -> None:
    order: list[str] = []
    release = threading.Event()

    def slow(pcm: np.ndarray) -> Prepared:
        release.wait(5)
        order.append("old stt")
        return Prepared("old", iter(()), None)

    def fast(pcm: np.ndarray) -> Prepared:
        order.append("new stt")
        return Prepared("new", iter(["ok"]), None)

    old = Speculation(PCM, 1.0, slow)
    old.cancel()
    new = Speculation(PCM, 2.0, fast, after=old)
    release.set()
    assert new.take().heard == "new"
    assert order == ["old stt", "new stt"]
