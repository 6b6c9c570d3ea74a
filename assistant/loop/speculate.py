"""Start a turn before its end is certain: STT, recall and the first LLM tokens run during the VAD tail.

When the user stops talking, the endpointer still waits ``end_silence_s`` before it calls the utterance
over. On a 2-core machine that wait is a third of the latency budget, so on a short pause the loop starts
the turn in a worker thread on the audio so far, buffering the answer's pieces. If the silence holds, the
endpoint finds the work done (or under way) and takes it over; if the user speaks again, the work is
cancelled: the LLM stream is closed (the server stops generating) and nothing was said or stored.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from audio.protocols import Pcm

_DONE = object()


@dataclass
class Prepared:
    """What a turn has before it speaks: the words heard and the answer's pieces as they come."""

    heard: str
    pieces: Iterator[str]
    answer: Any  # the pipeline's Answer, filled in while the pieces are consumed
    timings_ms: dict[str, float] = field(default_factory=dict)


class Speculation:
    """Runs ``prepare(pcm)`` in a thread; ``take()`` hands the result over, ``cancel()`` throws it away.

    ``prepare`` returns a Prepared whose pieces are pulled eagerly into a queue here, so generation goes on
    while the endpointer is still waiting; errors surface from ``take()`` or the pieces, where the caller's
    handling of a bad turn applies.
    """

    def __init__(self, pcm: Pcm, end: float, prepare: Callable[[Pcm], Prepared], *,
                 after: Speculation | None = None) -> None:
        self.pcm, self.end = pcm, end
        self._prepare, self._after = prepare, after
        self._cancelled = threading.Event()
        self._ready = threading.Event()
        self._pieces: queue.Queue[object] = queue.Queue()
        self._result: Prepared | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="hearth-speculate", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        if self._after is not None:  # a dropped one still transcribing: one STT at a time on a small CPU
            self._after.wait_prepared()
            self._after = None
        try:
            result = self._prepare(self.pcm)
        except BaseException as e:  # handed to take(), where the turn's own error handling applies
            self._error = e
            self._ready.set()
            return
        self._result = result
        self._ready.set()
        pieces = result.pieces
        if self._cancelled.is_set():  # dropped during STT: the LLM is never asked
            self._pieces.put(_DONE)
            return
        try:
            for piece in pieces:
                if self._cancelled.is_set():
                    break
                self._pieces.put(piece)
        except BaseException as e:
            self._pieces.put(e)
        finally:
            close = getattr(pieces, "close", None)
            if self._cancelled.is_set() and close is not None:
                close()  # closes the HTTP stream: the LLM server stops generating
            self._pieces.put(_DONE)

    def cancel(self) -> None:
        """Drop the work; returns at once (the worker stops before the LLM, or at the answer's next piece)."""
        self._cancelled.set()

    def wait_prepared(self, timeout: float | None = None) -> None:
        """Until STT and recall are done (or failed): what a following turn must not run alongside."""
        self._ready.wait(timeout)

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def take(self) -> Prepared:
        """Wait for STT and recall; the pieces then stream from the buffer as the worker produces them."""
        self._ready.wait()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        r = self._result
        return Prepared(r.heard, self._drain(), r.answer, r.timings_ms)

    def _drain(self) -> Iterator[str]:
        while True:
            item = self._pieces.get()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            assert isinstance(item, str)
            yield item
