"""Episodes in the real embedded graph: written per turn, found by words, meaning and names, linked to facts."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory.embed import E5Embedder
from memory.episodes import Episodes, attributed_elsewhere, without_names
from memory.graph import TemporalGraph
from memory.kglite_store import KgliteStore
from memory.search import query_terms, relative_fusion, rrf, stem, terms
from memory.transcripts import Turn
from tests.episode_sample import SAID

T0 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def test_stemming_folds_the_forms_people_use() -> None:
    assert {stem(w) for w in ("hiking", "hiked", "hikes", "hike")} == {"hik"}
    assert {stem(w) for w in ("studies", "studied", "study", "studying")} == {"studi"}
    assert {stem(w) for w in ("plays", "played", "play")} == {"play"}
    assert stem("running") == "run" and stem("planned") == "plan" and stem("classes") == "class"
    # an irregular past is its base's stem; a final consonant "y" is kept apart from the word without it
    assert {stem(w) for w in ("made", "make", "makes", "making")} == {"mak"}
    assert stem("took") == stem("take") and stem("wrote") == stem("writes") and stem("read") == "read"
    assert stem("party") == stem("parties") != stem("part") and stem("story") != stem("store")
    assert terms("What did I do with my sister?") == ["sister"]
    assert query_terms("Hiking? hiking! \"OR\" AND:(x)") == "hik x"  # no query syntax survives


def test_fusions() -> None:
    assert rrf([["a", "b"], ["b", "c"]]) == pytest.approx({"a": 1 / 61, "b": 1 / 62 + 1 / 61, "c": 1 / 62})
    fused = relative_fusion([{"a": 9.8, "b": 6.0, "c": 3.6}, {"b": 0.82, "c": 0.80, "d": 0.79}], [1.0, 0.6])
    assert max(fused, key=fused.__getitem__) == "a"  # a clear word match beats a close vector crowd
    assert fused["d"] == 0.0


@pytest.fixture
def graph(tmp_path: Path):
    store = KgliteStore(tmp_path / "g.kgl")
    g = TemporalGraph(store)
    g.ensure_user(T0)
    yield g
    store.close()


def _turns() -> list[Turn]:
    return [Turn("s1", T0 + timedelta(seconds=10 * i), who, text, i) for i, (who, text) in enumerate(SAID)]


def test_words_find_the_utterance_and_names_rank_the_speaker(graph: TemporalGraph) -> None:
    ep = Episodes(graph)  # no embedder: words and names alone
    assert ep.add(_turns()) == len(SAID)
    assert ep.add(_turns()) == len(SAID) and ep.count() == len(SAID)  # idempotent: one episode per turn
    jon = graph.upsert_entity("Jon", now=T0, type="PERSON")
    found = ep.search("What temporary job did Jon take to cover expenses?", now=T0 + timedelta(days=1),
                      entities={jon.id: "Jon"})
    assert found.relevant
    assert found.episodes[0].text.startswith("I got a temp job")
    assert found.episodes[0].speaker == "Jon" and found.episodes[0].id == "s1#2"
    assert all(e.speaker != "assistant" for e in found.episodes)  # the assistant's words are never evidence


def test_a_thing_known_by_a_common_noun_stays_in_the_word_query(graph: TemporalGraph) -> None:
    """An entity made from a fact's object ("Jon attended fair", "Jon visited Paris") is linked in the question like
    a person, but its word is the topic: taken out of the word query, the utterance about it was lost."""
    ep = Episodes(graph)
    said = [("Jon", "Hey Gina, how are you?"), ("Jon", "Yesterday I went to a fair to show off my studio."),
            ("Gina", "The fair sounds fun!"), ("Jon", "The studio is coming along nicely."),
            ("Jon", "Back from a week in Paris, what a city."), ("Gina", "Hi Jon!"),
            ("Gina", "My aunt Rosa bakes the best bread in town.")]
    ep.add([Turn("f1", T0 + timedelta(seconds=i), who, text, i) for i, (who, text) in enumerate(said)])
    jon = graph.upsert_entity("Jon", now=T0, type="PERSON")
    fair = graph.upsert_entity("fair", now=T0, type="THING")
    paris = graph.upsert_entity("Paris", now=T0, type="PLACE")
    later = T0 + timedelta(days=1)
    found = ep.search("When did Jon go to a fair?", now=later, entities={jon.id: "Jon", fair.id: "fair"})
    assert [e.id for e in found.episodes][:1] == ["f1#1"] and "t" in found.episodes[0].matched
    trip = ep.search("When was Jon in Paris?", now=later, entities={jon.id: "Jon", paris.id: "Paris"})
    assert [e.id for e in trip.episodes][:1] == ["f1#4"] and "t" in trip.episodes[0].matched
    # a person's name still leaves it: "Rosa" alone would find every word about her, whatever was asked
    rosa = graph.upsert_entity("Rosa", now=T0, type="PERSON")
    asked = ep.search("Which city does Rosa live in?", now=later, entities={rosa.id: "Rosa"}, people={rosa.id})
    assert "f1#6" not in {e.id for e in asked.episodes if "t" in e.matched}


def test_nothing_said_yet_is_not_found(graph: TemporalGraph) -> None:
    ep = Episodes(graph)
    ep.add(_turns())
    assert ep.search("What did Gina say about investors?", now=T0 - timedelta(days=1)).episodes == []
    miss = ep.search("Which mountain did they climb?", now=T0 + timedelta(days=1))
    assert not miss.relevant and miss.episodes == []


def test_facts_link_to_the_episodes_they_came_from(graph: TemporalGraph) -> None:
    ep = Episodes(graph)
    ep.add(_turns())
    graph.assert_fact("Gina", "works_at", "Door Dash", now=T0, source="s1#1")
    door_dash = graph.find_entity("Door Dash")
    assert door_dash is not None
    assert ep.facts_from(["s1#1"], now=T0 + timedelta(days=1)) == []  # not linked yet: learning links it
    ep.link({"s1#1": [door_dash.id]})
    arcs = ep.facts_from(["s1#1"], now=T0 + timedelta(days=1))
    assert [(a.subject, a.relation, a.object) for a in arcs] == [("Gina", "works_at", "Door Dash")]
    assert ep.facts_from(["s1#3"], now=T0 + timedelta(days=1)) == []


def test_a_large_backfill_is_searchable_and_linked(graph: TemporalGraph) -> None:
    # kglite folds at most 1000 changes into the text index per query: more in one go left BM25 stale (it
    # found nothing) until the store refreshed the index after the write
    ep = Episodes(graph)
    karl = graph.upsert_entity("Karl", now=T0, type="PERSON")
    turns = [Turn(f"b{i // 50}", T0 + timedelta(minutes=i), "user", f"Routine note number {i}.", i % 50)
             for i in range(1200)]
    turns.append(Turn("b99", T0 + timedelta(days=1), "user", "Karl took up falconry in the spring.", 0))
    ep.add(turns, mentions={"b99#0": [karl.id, "e-missing"]})
    found = ep.search("Who took up falconry?", now=T0 + timedelta(days=2))
    assert [e.id for e in found.episodes] == ["b99#0"]
    about = ep.search("Tell me about Karl", now=T0 + timedelta(days=2), entities={karl.id: "Karl"})
    assert [e.id for e in about.episodes] == ["b99#0"]  # linked by the mention, the unknown id ignored


def test_backfill_writes_missing_episodes_once(graph: TemporalGraph) -> None:
    ep = Episodes(graph)
    turns = _turns()
    ep.add(turns[:2])
    assert [t.idx for t in ep.missing(turns)] == [2, 3, 4, 5]
    assert ep.backfill(turns) == 4 and ep.missing(turns) == [] and ep.count() == len(turns)


def test_a_memory_indexed_by_an_older_stemmer_is_found_again_once_reterm_ran(graph: TemporalGraph) -> None:
    from memory import queries as Q

    ep = Episodes(graph)
    assert ep.reterm() == 0  # a new memory: nothing to redo, marked as indexed by today's stemmer
    ep.add([Turn("r", T0, "Audrey", "Made some goodies for the neighbours last week.", 0),
            Turn("r", T0, "Audrey", "The dogs loved the beach.", 1)])
    with graph.store.transaction() as tx:  # as an older stemmer left them: "made" stored as "make", no mark
        tx.run(Q.SET_EPISODE_TERMS, {"rows": [{"id": "r#0", "terms": "make goodi neighbour last week"}]})
        tx.run("MATCH (m:Meta {id: 'meta'}) SET m.terms_version = 1 RETURN m.id AS id")
    graph.store.refresh_indexes()
    asked = "What did Audrey make?"
    assert not any(e.id == "r#0" and "t" in e.matched for e in ep.search(asked, now=T0 + timedelta(days=1)).episodes)
    assert ep.reterm() == 2 and ep.reterm() == 0  # once
    found = ep.search(asked, now=T0 + timedelta(days=1))
    assert found.episodes[0].id == "r#0" and "t" in found.episodes[0].matched


def test_meaning_finds_a_paraphrase_with_the_bundled_embedder(graph: TemporalGraph) -> None:
    ep = Episodes(graph, E5Embedder())
    ep.add([Turn("c", T0, "user", "I'm learning Spanish on Duolingo every morning.", 0),
            Turn("c", T0, "user", "My cat Luna loves tuna.", 1),
            Turn("c", T0, "user", "We adopted a puppy named Max.", 2)])
    found = ep.search("Which language am I studying?", now=T0 + timedelta(hours=1))
    assert found.episodes and found.episodes[0].text.startswith("I'm learning Spanish")
    assert "v" in found.episodes[0].matched


def test_a_question_about_a_speaker_takes_only_their_words_or_words_naming_them(graph: TemporalGraph) -> None:
    ep = Episodes(graph)
    ep.add(_turns())
    gina = graph.upsert_entity("Gina", now=T0, type="PERSON")
    # Jon lost a job as a banker; Gina never said she was a banker: Jon's words are not evidence about her
    found = ep.search("Why did Gina lose her job as a banker?", now=T0 + timedelta(days=1),
                      entities={gina.id: "Gina"})
    assert found.episodes and all(e.speaker == "Gina" for e in found.episodes)
    ep.attribution = False  # the same search without the check hands over Jon's words
    loose = ep.search("Why did Gina lose her job as a banker?", now=T0 + timedelta(days=1),
                      entities={gina.id: "Gina"})
    assert any(e.speaker == "Jon" for e in loose.episodes)


def test_without_names_takes_the_asked_names_out_of_the_meaning_query() -> None:
    assert without_names("What did Gina's team perform at Jon's party?", ["Gina"]) == \
        "What did team perform at Jon's party?"
    assert without_names("Where does Mary Ann live?", ["Mary Ann"]) == "Where does live?"


def test_the_elsewhere_margin_compares_the_best_of_each_side() -> None:
    text = {"a1": 2.0, "b1": 9.0}
    vector = {"a1": 0.80, "b1": 0.90, "b2": 0.85}
    top, margin = attributed_elsewhere({"a1"}, text, vector) or ("", 0.0)
    assert top == "b1" and margin == pytest.approx(10 * 0.10 + math.log(10 / 3), abs=1e-3)
    # the asked person's own words match best: a negative margin
    _, own = attributed_elsewhere({"b1"}, text, vector) or ("", 0.0)
    assert own < 0
    # their words missed by the pool count as its lowest score, never as zero
    _, missed = attributed_elsewhere({"zz"}, text, vector) or ("", 0.0)
    assert missed == pytest.approx(10 * (0.90 - 0.80) + math.log(10 / 3), abs=1e-3)
    assert attributed_elsewhere({"a1", "b1", "b2"}, text, vector) is None  # nobody else's words were found


def test_a_question_putting_ones_words_in_anothers_mouth_names_who_said_them(graph: TemporalGraph) -> None:
    ep = Episodes(graph, E5Embedder())
    ep.add(_turns())
    gina = graph.upsert_entity("Gina", now=T0, type="PERSON")
    jon = graph.upsert_entity("Jon", now=T0, type="PERSON")
    later = T0 + timedelta(days=1)
    wrong = ep.search("Why did Gina lose her job as a banker?", now=later, entities={gina.id: "Gina"})
    assert wrong.asked == "Gina" and wrong.elsewhere is not None and wrong.elsewhere.speaker == "Jon"
    assert "banker" in wrong.elsewhere.text
    right = ep.search("Why did Jon lose his job as a banker?", now=later, entities={jon.id: "Jon"})
    assert right.asked == "Jon" and right.elsewhere_margin < wrong.elsewhere_margin - 0.5


class _Recording:
    """An embedder that records what it was asked to embed (the real one is tested above)."""

    def __init__(self) -> None:
        self.queries: list[str] = []

    def passages(self, texts):  # type: ignore[no-untyped-def]
        return [[1.0] + [0.0] * 383 for _ in texts]

    def query(self, text):  # type: ignore[no-untyped-def]
        self.queries.append(text)
        return [1.0] + [0.0] * 383


def test_the_meaning_query_drops_a_speakers_name_and_keeps_a_talked_about_one(graph: TemporalGraph) -> None:
    rec = _Recording()
    ep = Episodes(graph, rec)  # type: ignore[arg-type]
    ep.add([*_turns(), Turn("s2", T0, "user", "My friend Pavel moved to Bordeaux.", 0)])
    gina = graph.upsert_entity("Gina", now=T0, type="PERSON")
    pavel = graph.upsert_entity("Pavel", now=T0, type="PERSON")
    ep.search("Where did Gina's store open?", now=T0 + timedelta(days=1), entities={gina.id: "Gina"})
    ep.search("Where does Pavel live now?", now=T0 + timedelta(days=1), entities={pavel.id: "Pavel"})
    # Gina speaks here: her name greets her ("Hey Gina!"); Pavel is only talked about: his name is the topic
    assert rec.queries == ["Where did store open?", "Where does Pavel live now?"]


def test_the_question_itself_is_not_someone_elses_words(graph: TemporalGraph) -> None:
    # the user's question is stored as a turn before it is answered: it matches itself best of all
    ep = Episodes(graph, E5Embedder())
    asked = "Why did Gina lose her job as a banker?"
    ep.add([*_turns(), Turn("s3", T0 + timedelta(hours=1), "user", asked, 0)])
    gina = graph.upsert_entity("Gina", now=T0, type="PERSON")
    found = ep.search(asked, now=T0 + timedelta(days=1), entities={gina.id: "Gina"})
    assert found.elsewhere is not None and found.elsewhere.text != asked
    assert found.elsewhere.speaker == "Jon" and found.asked == "Gina"


class _Broken(_Recording):
    def query(self, text):  # type: ignore[no-untyped-def]
        raise RuntimeError("model file unreadable")


def test_a_broken_embedder_costs_the_meaning_search_not_the_answer(graph: TemporalGraph) -> None:
    ep = Episodes(graph, _Broken())  # type: ignore[arg-type]
    ep.add(_turns())
    found = ep.search("Who opened an online clothing store?", now=T0 + timedelta(days=1))
    assert [e.speaker for e in found.episodes][:1] == ["Gina"] and "t" in found.episodes[0].matched


def test_a_store_that_fails_while_terms_are_redone_leaves_the_assistant_answering(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Opening a memory redoes the terms of an older stemmer (``Episodes.reterm``): a store error there is logged
    and recall goes on with the terms as they were, never a dead assistant."""
    from assistant.compose import Hearth
    from assistant.settings import load_settings
    from memory.errors import MemoryStoreError

    def broken(self: Episodes, **kw: object) -> int:
        raise MemoryStoreError("disk full")

    monkeypatch.setattr(Episodes, "reterm", broken)
    cfg = tmp_path / "c.yaml"
    cfg.write_text("recall:\n  embeddings: false\n")
    app = Hearth(load_settings(cfg), data_dir=tmp_path / "data", clock=lambda: T0)
    try:
        with caplog.at_level("WARNING"):
            pipeline = app.pipeline
        assert pipeline.recall("Where do I live?", now=T0).question == "Where do I live?"
        assert "could not index older turns as episodes" in caplog.text and "disk full" in caplog.text
    finally:
        app.close()
