"""Forgetting: the redaction rules and the conversation plan (pure), and a forget inside a running process."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from memory.errors import InvalidInput
from memory.extraction.rules import RuleExtractor
from memory.forgetting import (
    conversation_updates,
    forget_conversation,
    forget_name,
    named_after,
    plan_conversation_forget,
)
from memory.graph import TemporalGraph
from memory.kglite_store import KgliteStore
from memory.learning import Learner, RulesExtractor
from memory.model import Arc
from memory.redact import MARKER, Redactor, check_name
from memory.transcripts import REDACTABLE, SCHEMA, STRUCTURAL, TranscriptStore, Turn
from tests.conftest import T0
from tests.residue import residue


@pytest.mark.parametrize("names, text, expected", [
    (["Lisbon"], "I moved to Lisbon last week.", "I moved to [forgotten] last week."),
    (["Lisbon"], "LISBON, lisbon and Lisbon's trams", "[forgotten], [forgotten] and [forgotten]'s trams"),
    (["Lisbon"], "the lisbon-trip conversation", "the [forgotten]-trip conversation"),
    (["Lisbon"], "Lisbonite", "Lisbonite"),  # a whole word only
    (["Ann"], "Anna is planning; Ann is not", "Anna is planning; [forgotten] is not"),
    (["New York"], "from New  York to new\nyork", "from [forgotten] to [forgotten]"),
    (["Lisbon", "Lisbon Zoo", "Lisboa"], "the Lisbon Zoo in Lisboa", "the [forgotten] in [forgotten]"),
    (["C++ Club"], "the C++ Club meets", "the [forgotten] meets"),  # names are not patterns
])
def test_redactor_replaces_whole_words_in_any_case(names: list[str], text: str, expected: str) -> None:
    assert Redactor(names).redact(text) == expected


def test_redactor_drops_list_elements_and_leaves_the_rest() -> None:
    r = Redactor(["Lisbon"])
    props = {"name": "Anna", "aliases": ["Lisbon girl", "Annie"], "keys": ["anna", "lisbon girl"], "n": 3,
             "text": "Anna lives in Lisbon", "type": "Lisbon"}
    assert r.updates(props, skip=("type",)) == {"aliases": ["Annie"], "keys": ["anna"],
                                                 "text": "Anna lives in [forgotten]"}
    assert r.updates({"name": "Anna", "n": 1}) == {}


@pytest.mark.parametrize("name", ["user", "Assistant", "lives_in", "PLACE", "  ", "?!"])
def test_words_every_conversation_holds_cannot_be_forgotten(name: str) -> None:
    with pytest.raises(InvalidInput):
        check_name(name)


def test_every_text_column_is_either_redacted_or_a_code() -> None:
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        text_cols = {r[1] for r in db.execute(f"PRAGMA table_info({table})") if r[2].upper() == "TEXT"}
        assert text_cols == set(REDACTABLE[table]) | set(STRUCTURAL[table]), table


def test_a_redacted_name_is_never_learned(graph: TemporalGraph) -> None:
    with pytest.raises(InvalidInput, match="redacted"):
        graph.assert_fact("user", "lives_in", MARKER, now=T0)
    graph.assert_fact("Anna", "lives_in", "Porto", now=T0, object_aliases=[f"{MARKER} city"])
    assert graph.require_entity("Porto").aliases == ()


def _arc(id: str, convs: list[str], sources: list[str], reinforcements: int = 0) -> Arc:
    return Arc(id, "user", "User", "lives_in", "e-x", "X", None, 1.0, 0.01, reinforcements, len(convs), T0, T0,
               None, T0, None, None, 1, 1.0, tuple(sources), None, tuple(convs))


@pytest.mark.parametrize("arc, changes, deleted, kept", [
    # told only in c1: deleted
    (_arc("a", ["c1"], ["c1#0"]), [("added", "a")], True, None),
    # told in c1 and c2: c1's support goes, c2's stays (c2 becomes the first telling)
    (_arc("a", ["c1", "c2"], ["c1#0", "c2#3"], 1), [("added", "a")], False, (["c2"], ["c2#3"], 0, False)),
    # told in c2, reinforced in c1
    (_arc("a", ["c2", "c1"], ["c2#0", "c1#1"], 1), [("reinforced", "a")], False, (["c2"], ["c2#0"], 0, False)),
    # typed in with `memory add`, then said in c1: the typed fact stays
    (_arc("a", ["c1"], ["cli", "c1#0"], 1), [("reinforced", "a")], False, ([], ["cli"], 0, False)),
    # told in c0, closed by c1 ("I moved"): reopened, c1's close source goes
    (_arc("a", ["c0"], ["c0#0", "c1#0"]), [("closed", "a")], False, (["c0"], ["c0#0"], 0, True)),
    # a conversation id that is a prefix of another is not confused with it
    (_arc("a", ["c10"], ["c10#0"]), [], False, (["c10"], ["c10#0"], 0, False)),
])
def test_plan_conversation_forget(arc: Arc, changes: list[tuple[str, str]], deleted: bool,
                                  kept: tuple[list[str], list[str], int, bool] | None) -> None:
    plan = plan_conversation_forget("c1", [arc], [{"kind": k, "arc_id": i} for k, i in changes])
    assert (plan.delete == [arc.id]) is deleted
    if kept is not None:
        (e,) = plan.edits
        assert (e.conversation_ids, e.sources, e.reinforcements, e.reopen) == kept


@pytest.fixture
def parts(tmp_path: Path) -> Iterator[tuple[TemporalGraph, TranscriptStore, Learner]]:
    store = KgliteStore(tmp_path / "d" / "graph.kgl")
    graph = TemporalGraph(store, user_name="Sam")
    graph.ensure_user(T0)
    ts = TranscriptStore(tmp_path / "d" / "transcripts.sqlite3")
    yield graph, ts, Learner(graph, ts, RulesExtractor(RuleExtractor()))
    ts.close()
    store.close()


def test_forget_inside_a_running_process_leaves_no_byte(
        parts: tuple[TemporalGraph, TranscriptStore, Learner], tmp_path: Path) -> None:
    """The stores stay open (the voice loop's case): their logs and free pages are cleaned, not just closed."""
    graph, ts, learner = parts
    turns = [Turn("c1", T0, "user", "I moved to Lisbon last week. My sister Anna lives in Porto."),
             Turn("c2", T0 + timedelta(days=1), "user", "Anna works at Brightwave. She loves Lisbon.")]
    learner.ingest(turns, source="test")
    graph.store.checkpoint()
    graph.assert_fact("Anna", "related_to", "Felix", label="met in Lisbon", now=T0 + timedelta(days=2))
    graph.assert_fact("Felix", "studies_at", "University of Lisbon", now=T0 + timedelta(days=2))
    with graph.store.transaction() as tx:  # a node type forget does not know about: found by its properties
        tx.run("CREATE (:Episode {id: 'ep-1', conversation: 'c1', text: 'I moved to Lisbon', "
               "names: ['Lisbon', 'Porto']})")
        tx.run("CREATE (:Episode {id: 'ep-2', conversation: 'c2', text: 'Anna works at Brightwave.', names: []})")
        tx.run("CREATE (:Digest {id: 'd-1', conversations: ['c1', 'c2'], text: 'Anna news'})")
    assert residue(tmp_path / "d", "lisbon")["graph.kgl"] > 0

    rep = forget_name(graph, ts, "lisbon")
    assert rep.turns_redacted == 2 and len(rep.deleted_arcs) == 3  # lives_in, likes, studies_at University of …
    # an entity named after it goes whole (its id carries the name's slug, and kglite ids cannot change)
    assert {e.name for e in graph.entities()} == {"Sam", "Anna", "Porto", "Brightwave", "Felix"}
    left = residue(tmp_path / "d", "lisbon")
    assert sum(left.values()) == 0, left
    ep = graph.store.read("MATCH (e:Episode {id: 'ep-1'}) RETURN e.text AS text, e.names AS names")
    assert ep == [{"text": "I moved to [forgotten]", "names": ["Porto"]}]
    (rel,) = [a for a in graph.all_arcs(now=T0 + timedelta(days=3)) if a.relation == "related_to"]
    assert rel.label == "met in [forgotten]"
    c2 = ts.conversation("c2")
    assert c2 is not None and c2.turns[0].text == "Anna works at Brightwave. She loves [forgotten]."

    rep = forget_conversation(graph, ts, "c2", now=T0 + timedelta(days=3))
    assert rep.turns_deleted == 1 and rep.deleted_nodes == ["ep-2"]
    assert sum(residue(tmp_path / "d", "brightwave").values()) == 0
    assert graph.store.read("MATCH (d:Digest) RETURN d.conversations AS c") == [{"c": ["c1"]}]


@pytest.mark.parametrize("labels, props, expected", [
    (["Episode"], {"id": "ep-1", "conversation": "c1", "text": "hi"}, None),  # belongs to it: goes
    (["Episode"], {"id": "ep-1", "source": "c1#4"}, None),
    (["Digest"], {"id": "d", "conversations": ["c1", "c2"], "sources": ["c1#0", "c10#1"]},
     {"conversations": ["c2"], "sources": ["c10#1"]}),
    (["Episode"], {"id": "ep-9", "conversation": "c10"}, {}),  # another conversation
    (["Entity"], {"id": "e-c1", "name": "c1"}, {}),  # entities go only through their arcs
])
def test_nodes_of_a_conversation(labels: list[str], props: dict[str, object], expected: object) -> None:
    assert conversation_updates("c1", labels, props) == expected


def test_the_user_is_never_named_after_what_is_forgotten() -> None:
    r = Redactor(["Lisbon"])
    assert named_after(r, ["Entity"], {"id": "e-lisbon-1", "name": "X"})
    assert named_after(r, ["Entity"], {"id": "e-1", "name": "University of Lisbon"})
    assert not named_after(r, ["Entity"], {"id": "user", "name": "Lisbon Jones", "is_user": True})
    assert not named_after(r, ["Episode"], {"id": "ep-1", "name": "Lisbon"})  # other labels: redacted instead


def test_a_forgotten_name_does_not_survive_in_a_summary(
        parts: tuple[TemporalGraph, TranscriptStore, Learner], tmp_path: Path) -> None:
    """Consolidation writes a line per salient entity that names its neighbours: forgetting one drops the lines
    (not a "[forgotten]" in them), and the next consolidation composes them from what is left."""
    graph, ts, learner = parts
    learner.ingest([Turn("c1", T0, "user", "My sister Anna lives in Porto."),
                    Turn("c2", T0 + timedelta(days=1), "user", "Anna works at Brightwave.")], source="test")

    def lines() -> dict[str, str]:
        rows = graph.store.read("MATCH (e:Entity) WHERE e.summary IS NOT NULL RETURN e.name AS n, e.summary AS s")
        return {r["n"]: r["s"] for r in rows}

    graph.consolidate(now=T0 + timedelta(days=2), summaries=10)
    assert "Brightwave" in lines()["Anna"] and "Brightwave" in lines()
    graph.store.checkpoint()
    assert residue(tmp_path / "d", "brightwave")["graph.kgl"] > 0

    forget_name(graph, ts, "Brightwave")
    assert lines() == {}
    assert sum(residue(tmp_path / "d", "brightwave").values()) == 0
    graph.consolidate(now=T0 + timedelta(days=3), summaries=10)
    assert "Porto" in lines()["Anna"]
    assert not any("Brightwave" in s or MARKER in s for s in lines().values())

    forget_conversation(graph, ts, "c1", now=T0 + timedelta(days=3))
    assert lines() == {}
