"""A short two-speaker exchange (Jon and Gina, in LoCoMo's style) that episode and attribution tests share, and
a real memory that heard what a test says."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from assistant.pipeline import Pipeline
from memory.embed import E5Embedder
from memory.episodes import Episodes
from memory.graph import TemporalGraph
from memory.kglite_store import KgliteStore
from memory.recall.recall import Recaller
from memory.transcripts import Turn

SAID = [
    ("Jon", "Hey Gina! Lost my job as a banker yesterday, so I'm starting my own dance studio."),
    ("Gina", "Sorry about your job, Jon! I lost mine at Door Dash this month."),
    ("Jon", "I got a temp job to help cover expenses while I look for investors."),
    ("Gina", "My online clothing store opened last week, it's been great!"),
    ("Jon", "Sounds great!"),
    ("assistant", "I will remember that Jon is looking for investors."),
]


@contextmanager
def heard(path: Path, said: list[tuple[str, str]], people: tuple[str, ...], at: datetime, model: Any, *,
          margin: float | None = None, tagger: Any = None) -> Iterator[Pipeline]:
    """A real memory (kglite, the e5 embedder) that heard ``said`` (speaker, text) 10 s apart from ``at`` and
    knows ``people``, and a pipeline over it that answers with ``model`` (a stand-in with ``stream``); ``tagger``
    tags questions for their premises (None: unchecked)."""
    store = KgliteStore(path / "g.kgl")
    g = TemporalGraph(store)
    g.ensure_user(at)
    for name in people:
        g.upsert_entity(name, now=at, type="PERSON")
    ep = Episodes(g, E5Embedder())
    ep.add([Turn("s1", at + timedelta(seconds=10 * i), who, text, i) for i, (who, text) in enumerate(said)])
    try:
        yield Pipeline(g, Recaller(g, episodes=ep, episode_limit=4), lambda: model, elsewhere_margin=margin,
                       tagger=tagger)
    finally:
        store.close()


@contextmanager
def told(path: Path, said: list[tuple[datetime, str]], model: Any) -> Iterator[Pipeline]:
    """A real memory (kglite, words only: no embedder) that heard the user say each (when, text) of ``said``, and
    a pipeline over it that answers with ``model`` (a stand-in with ``stream``)."""
    store = KgliteStore(path / "g.kgl")
    g = TemporalGraph(store)
    g.ensure_user(said[0][0])
    ep = Episodes(g)
    ep.add([Turn(f"c{i}", at, "user", text, 0) for i, (at, text) in enumerate(said)])
    try:
        yield Pipeline(g, Recaller(g, episodes=ep, episode_limit=4), lambda: model)
    finally:
        store.close()
