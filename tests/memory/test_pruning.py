"""Pruning that rebuilds hubs leaves exactly what deleting arc by arc leaves (real kglite, same file twice)."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from memory import queries as Q
from memory.episodes import Episodes
from memory.graph import PRUNABLE, TemporalGraph
from memory.kglite_store import KgliteStore
from memory.pruning import hubs, prune_weak
from memory.timeutil import to_epoch
from memory.transcripts import Turn
from tests.conftest import T0

D = timedelta(days=1)
LATER = T0 + 400 * D


@pytest.mark.parametrize("weak, min_doomed, expected", [
    ([("a", "user", "x"), ("b", "user", "y"), ("c", "z", "x")], 2, ["user", "x"]),
    ([("a", "user", "x"), ("b", "user", "y"), ("c", "z", "x")], 3, []),
    ([], 1, []),
])
def test_hubs_are_the_nodes_with_many_faded_arcs(weak: list[tuple[str, str, str]], min_doomed: int,
                                                  expected: list[str]) -> None:
    rows = [{"id": i, "subject_id": s, "object_id": o} for i, s, o in weak]
    assert hubs(rows, min_doomed=min_doomed) == expected


def _build(path: Path) -> None:
    store = KgliteStore(path)
    g = TemporalGraph(store, user_name="Sam")
    g.ensure_user(T0)
    for i in range(6):  # faded associations at the user and at Ana, and facts that stay
        g.assert_fact("user", "knows", f"Person {i}", now=T0, source=f"c{i}#0", conversation=f"c{i}")
        g.assert_fact("Ana", "related_to", f"Thing {i}", now=T0, label="mentioned with")
    g.assert_fact("user", "knows", "Ana", now=T0)  # faded, between two hubs
    g.assert_fact("Ana", "sister_of", "user", now=T0, source="c0#1", conversation="c0")
    g.assert_fact("user", "likes", "tea", now=T0, source="c1#1", conversation="c1")
    g.assert_fact("user", "knows", "Bo", now=LATER - D)  # an association, but recent: stays
    [porto] = g.assert_fact("Ana", "lives_in", "Porto", now=T0)
    g.retract_fact("Ana", "lives_in", "Porto", now=T0 + D)  # disbelieved: pruned once faded
    assert porto.kind == "added"
    user, ana = g.require_entity("user"), g.require_entity("Ana")
    Episodes(g).add([Turn("c0", T0, "user", "My sister Ana knows everyone.")],
                    mentions={"c0#0": [user.id, ana.id]})
    store.close()


def _state(store: KgliteStore) -> dict[str, object]:
    ents = sorted(tuple(sorted((k, str(v)) for k, v in r.items())) for r in store.read(Q.EXPORT_ENTITIES_RAW))
    arcs = sorted(tuple(sorted((k, str(v)) for k, v in r.items())) for r in store.read(Q.EXPORT_ARCS_RAW))
    mentions = sorted((e, r["id"]) for e in ("user", *(r["id"] for r in store.read(Q.EXPORT_ENTITIES_RAW)))
                      for r in store.read(Q.EPISODES_MENTIONING_ENTITY, {"id": e}))
    return {"entities": ents, "arcs": arcs, "mentions": mentions}


def test_rebuilding_hubs_prunes_exactly_what_deleting_prunes(tmp_path: Path) -> None:
    _build(tmp_path / "a" / "graph.kgl")
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    params = {"now": to_epoch(LATER), "threshold": 0.05, "prunable": PRUNABLE, "min_confidence": 0.3}
    plain, rebuilt = KgliteStore(tmp_path / "a" / "graph.kgl"), KgliteStore(tmp_path / "b" / "graph.kgl")
    try:
        with plain.transaction() as tx:
            deleted = sorted(r["id"] for r in tx.run(Q.PRUNE_WEAK, params))
        weak = rebuilt.read(Q.WEAK_ARCS, params)
        assert len(hubs(weak, min_doomed=3)) == 2 and "user" in hubs(weak, min_doomed=3)  # the user and Ana
        with rebuilt.transaction() as tx:
            pruned = sorted(prune_weak(tx, params, min_doomed=3))
        assert pruned == deleted and len(pruned) == 14  # 7 at the user, 6 at Ana, Porto (retracted)
        assert _state(rebuilt) == _state(plain)
        g = TemporalGraph(rebuilt, user_name="Sam")
        assert g.require_entity("me").is_user  # the user node was rebuilt with its keys and flag
        assert {a.object for a in g.lookup("user", None, None, at=LATER)} == {"tea", "Bo"}
    finally:
        plain.close()
        rebuilt.close()
