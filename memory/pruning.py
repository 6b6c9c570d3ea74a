"""Pruning faded arcs: deleted one by one, except at hubs, which are rebuilt without them.

kglite unlinks a deleted arc by walking the arc lists of both its ends, so deleting k arcs at a node of
degree d costs about k*d steps; at the user of a 1M-arc memory (100k arcs, 18k of them faded) that was
most of a 70 s consolidation. Deleting a node with all its arcs is linear, and so is creating arcs, so a
node with many faded arcs is read, deleted and created again with the arcs that stay (same ids, same
properties, same mentions). The rest are deleted where they are, which is cheap once the hubs are done.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from memory import queries as Q
from memory.store import GraphTx

# Faded arcs at one node from which rebuilding it is cheaper than deleting them (measured on a synthetic
# 1M-arc graph: benchmarks/consolidate_bench.py; a rebuild costs about as much as ~1k deletions at a hub).
REBUILD_MIN = 1000
BATCH = 20_000  # arcs per CREATE statement when a hub is rebuilt


def hubs(weak: Iterable[Mapping[str, Any]], *, min_doomed: int) -> list[str]:
    """Pure: the nodes with at least ``min_doomed`` of the faded arcs at them, most first."""
    n: Counter[str] = Counter()
    for r in weak:
        n[r["subject_id"]] += 1
        n[r["object_id"]] += 1
    return [k for k, c in sorted(n.items(), key=lambda kv: (-kv[1], kv[0])) if c >= min_doomed]


def prune_weak(tx: GraphTx, params: Mapping[str, Any], *, min_doomed: int = REBUILD_MIN) -> list[str]:
    """Delete what ``Q.PRUNE_WEAK`` deletes, in the same transaction; returns the ids of the pruned arcs."""
    weak = tx.run(Q.WEAK_ARCS, params)
    doomed = {r["id"] for r in weak}
    for hub in hubs(weak, min_doomed=min_doomed):
        _rebuild(tx, hub, doomed)
    tx.run(Q.PRUNE_WEAK, params)  # the faded arcs not at a rebuilt hub
    return [r["id"] for r in weak]


def _rebuild(tx: GraphTx, eid: str, drop: set[str]) -> None:
    rows = tx.run(Q.ENTITY_RAW, {"id": eid})
    if not rows:
        return
    keep = [r for r in tx.run(Q.ARCS_RAW_OUT, {"id": eid}) + tx.run(Q.ARCS_RAW_IN, {"id": eid})
            if r["id"] not in drop]
    episodes = [r["id"] for r in tx.run(Q.EPISODES_MENTIONING_ENTITY, {"id": eid})]
    tx.run(Q.DETACH_ENTITY, {"id": eid})
    tx.run(Q.REBUILD_ENTITY, rows[0])
    for i in range(0, len(keep), BATCH):
        tx.run(Q.BULK_CREATE_ARCS, {"rows": keep[i:i + BATCH]})
    if episodes:
        tx.run(Q.REBUILD_MENTIONS, {"id": eid, "episodes": episodes})
