"""Entity summaries in the graph: refreshed by consolidation, read by recall (fresh or composed again), dropped
by every forget and merge. The text itself comes from memory/summary_text.py."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memory import queries as Q
from memory.model import USER_ID, Arc
from memory.summary_text import Salience, compose, most_salient
from memory.timeutil import to_epoch

if TYPE_CHECKING:
    from memory.graph import TemporalGraph
    from memory.store import GraphTx

PER_SIDE = 12  # current facts read per direction to compose one line (it keeps five at most)


def candidates(graph: TemporalGraph, *, now: datetime, n: int) -> list[Salience]:
    """The entities that may be among the ``n`` most salient, with their exact numbers: the most written about
    (``mentions``: every fact told of them) and the most talked about (conversations), each ``3n`` deep; then
    both measures for every one of them."""
    if n <= 0:
        return []
    p = {"now": to_epoch(now), "limit": 3 * n}
    ids = sorted({str(r["id"]) for r in graph.store.read(Q.SALIENCE_BY_MENTIONS, p)}
                 | {str(r["id"]) for r in graph.store.read(Q.SALIENCE_BY_EPISODES, p)})
    if not ids:
        return []
    w = {r["id"]: r for r in graph.store.read(Q.SALIENCE_WEIGHT_OF, {"ids": ids, "now": p["now"]})}
    ep = {r["id"]: r for r in graph.store.read(Q.SALIENCE_EPISODES_OF, {"ids": ids})}
    return [Salience(i, weight=float(w.get(i, {}).get("weight") or 0.0), arcs=int(w.get(i, {}).get("arcs") or 0),
                     episodes=int(ep.get(i, {}).get("episodes") or 0),
                     conversations=int(ep.get(i, {}).get("conversations") or 0)) for i in ids]


def current_arcs(graph: TemporalGraph, entity_id: str, *, now: datetime) -> list[Arc]:
    """Its strongest facts true now, both directions (index-anchored lookups: a hub costs no more)."""
    return (graph.lookup(entity_id, None, None, at=now, limit=PER_SIDE)
            + graph.lookup(None, None, entity_id, at=now, limit=PER_SIDE))


def refresh(graph: TemporalGraph, *, now: datetime, n: int) -> int:
    """Compose the ``n`` most salient entities' lines and store them; every other summary goes. Returns how many
    were stored.

    The temporal index is read before the facts are: a write that lands meanwhile has a higher index, so the
    line it may contradict is seen as stale by recall, never taken as fresh."""
    rows = graph.store.read(Q.CURRENT_T_INDEX)
    seen_t = int(rows[0]["t"] or 0) if rows else 0
    lines = []
    for s in most_salient(candidates(graph, now=now, n=n), n):
        e = graph.find_entity(s.id)
        if e is None or e.is_user:
            continue
        text = compose(e.id, e.name, e.type, current_arcs(graph, e.id, now=now), now=now)
        if text:
            lines.append({"id": e.id, "summary": text})
    with graph.store.transaction() as tx:
        tx.run(Q.NEXT_T_INDEX)
        drop(tx)
        if lines:
            tx.run(Q.SET_SUMMARIES, {"rows": lines, "now": to_epoch(now), "t": seen_t})
    return len(lines)


def drop(tx: GraphTx) -> int:
    """Remove every stored summary (inside a forget's or a merge's transaction): a line may name what went."""
    rows = tx.run(Q.DROP_SUMMARIES)
    return int(rows[0]["n"]) if rows else 0


def fresh(row: dict[str, Any], now: datetime) -> bool:
    """A stored line holds at ``now`` when it was composed no later, and nothing about the entity (its names,
    an arc of it: added, reinforced, closed, retracted; each stamps the entity) was written after the index it
    saw."""
    seen = int(row.get("t") or 0)
    return (row.get("at") is not None and float(row["at"]) <= to_epoch(now)
            and int(row.get("entity_t") or 0) <= seen)


def summaries_for(graph: TemporalGraph, entity_ids: Sequence[str], *, now: datetime, limit: int = 2) -> list[str]:
    """The lines of the first ``limit`` of these entities that have one (the salient ones): the stored line when
    it is fresh, else the same line composed from the facts true at ``now`` (never a fact that has ended)."""
    ids = [i for i in dict.fromkeys(entity_ids) if i != USER_ID]
    if limit <= 0 or not ids:
        return []
    rows = {r["id"]: r for r in graph.store.read(Q.SUMMARIES_OF, {"ids": ids})}
    out: list[str] = []
    for i in ids:
        row = rows.get(i)
        if row is None:
            continue
        text = row["summary"] if fresh(row, now) else compose(
            i, str(row["name"]), row.get("type"), current_arcs(graph, i, now=now), now=now)
        if text:
            out.append(str(text))
        if len(out) >= limit:
            break
    return out


__all__ = ["candidates", "current_arcs", "drop", "fresh", "refresh", "summaries_for"]
