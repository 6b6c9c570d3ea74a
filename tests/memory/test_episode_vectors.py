"""Episode vectors in kglite's embedding store (memory/queries.py: VECTORS): written with the episodes' unit of
work, searched by an exact scan, loaded with the file — no HNSW index rebuilt at every open."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory import queries as Q
from memory.episodes import Episodes
from memory.graph import TemporalGraph
from memory.kglite_store import KgliteStore
from memory.transcripts import Turn

T0 = datetime(2024, 2, 1, 9, tzinfo=UTC)
SAID = ["I'm learning Spanish on Duolingo.", "My cat Luna loves tuna.", "We adopted a puppy named Max."]


class Hashed:
    """A stand-in embedder: a text's vector is its words' hashed one-hot sum, so shared words mean closeness."""

    dimension = 64

    def _vec(self, text: str) -> list[float]:
        v = [0.0] * self.dimension
        for w in text.lower().replace("?", " ").replace(".", " ").split():
            v[int(hashlib.sha1(w.encode()).hexdigest(), 16) % self.dimension] += 1.0
        n = sum(x * x for x in v) ** 0.5 or 1.0
        return [x / n for x in v]

    def passages(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._vec(t) for t in texts]

    def query(self, text: str) -> list[float]:
        return self._vec(text)


def turns() -> list[Turn]:
    return [Turn("c", T0 + timedelta(minutes=i), "user", t, i) for i, t in enumerate(SAID)]


def vector_hits(ep: Episodes, question: str) -> list[str]:
    return [e.text for e in ep.search(question, now=T0 + timedelta(days=1)).episodes if "v" in e.matched]


def test_vectors_are_kept_in_the_store_and_found_after_reopening_without_an_index(tmp_path: Path) -> None:
    store = KgliteStore(tmp_path / "g.kgl")
    ep = Episodes(TemporalGraph(store), Hashed(), min_similarity=0.3)
    ep.add(turns())
    assert vector_hits(ep, "puppy named Max")[0] == SAID[2]
    store.close()
    store = KgliteStore(tmp_path / "g.kgl")
    ep = Episodes(TemporalGraph(store), Hashed(), min_similarity=0.3)
    assert vector_hits(ep, "cat Luna")[0] == SAID[1]
    assert store.read(Q.VECTORS["kglite"]["missing"]) == []
    assert store.read(Q.HAS_OLD_VECTOR_INDEX) == []  # nothing to rebuild when the file loads
    store.close()


def test_a_rolled_back_unit_leaves_neither_vector_nor_mark(tmp_path: Path) -> None:
    store = KgliteStore(tmp_path / "g.kgl")
    ep = Episodes(TemporalGraph(store), None)
    ep.add(turns())
    assert len(store.read(Q.VECTORS["kglite"]["missing"])) == 3
    try:
        with store.transaction() as tx:
            tx.run(Q.VECTORS["kglite"]["set"], {"rows": [{"id": "c#0", "embedding": Hashed().query("x")}]})
            raise RuntimeError("crash mid-unit")
    except RuntimeError:
        pass
    assert len(store.read(Q.VECTORS["kglite"]["missing"])) == 3
    ep.embedder = Hashed()
    assert ep.backfill(turns()) == 0 and store.read(Q.VECTORS["kglite"]["missing"]) == []  # vectors filled in
    store.close()


def test_a_memory_with_the_old_vector_index_is_moved_to_the_store_once(tmp_path: Path) -> None:
    import kglite

    g = kglite.open(str(tmp_path / "g.kgl"), durable="normal")
    g.cypher(f"CREATE VECTOR INDEX {Q.EPISODE_VECTOR_INDEX} IF NOT EXISTS FOR (e:Episode) ON (e.embedding) "
             "OPTIONS {indexConfig: {`vector.dimensions`: 64, `vector.similarity_function`: 'cosine'}}")
    rows = [{"id": f"c#{i}", "text": t, "emb": Hashed().query(t), "at": (T0 + timedelta(minutes=i)).timestamp()}
            for i, t in enumerate(SAID)]
    g.cypher("UNWIND $rows AS r CREATE (e:Episode {id: r.id, text: r.text, terms: r.text, speaker: 'user', "
             "conversation: 'c', turn: 0, at: r.at, t_index: 1}) SET e.embedding = r.emb", params={"rows": rows})
    g.save()
    g.close()
    store = KgliteStore(tmp_path / "g.kgl")
    assert store.read(Q.HAS_OLD_VECTOR_INDEX) == [] and store.read(Q.VECTORS["kglite"]["missing"]) == []
    assert store.read("MATCH (e:Episode) WHERE e.embedding IS NOT NULL RETURN count(e) AS n")[0]["n"] == 0
    ep = Episodes(TemporalGraph(store), Hashed(), min_similarity=0.3)
    assert vector_hits(ep, "learning Spanish")[0] == SAID[0]
    store.close()
    store = KgliteStore(tmp_path / "g.kgl")  # the second open finds nothing to move
    assert vector_hits(Episodes(TemporalGraph(store), Hashed(), min_similarity=0.3), "cat Luna")[0] == SAID[1]
    store.close()


def test_a_memory_with_the_old_index_and_no_episodes_opens(tmp_path: Path) -> None:
    import kglite

    g = kglite.open(str(tmp_path / "g.kgl"), durable="normal")
    g.cypher(f"CREATE VECTOR INDEX {Q.EPISODE_VECTOR_INDEX} IF NOT EXISTS FOR (e:Episode) ON (e.embedding) "
             "OPTIONS {indexConfig: {`vector.dimensions`: 64, `vector.similarity_function`: 'cosine'}}")
    g.cypher("CREATE (:Entity {id: 'e-1', name: 'Anna'})")  # a rules-only memory: facts, no utterances yet
    g.save()
    g.close()
    store = KgliteStore(tmp_path / "g.kgl")
    assert store.read(Q.HAS_OLD_VECTOR_INDEX) == []
    ep = Episodes(TemporalGraph(store), Hashed(), min_similarity=0.3)
    ep.add(turns())
    assert vector_hits(ep, "cat Luna")[0] == SAID[1]
    store.close()
