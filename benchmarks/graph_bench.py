"""Graph-store benchmark: bulk load, assert_fact, 1-/2-hop recall, consolidation, RSS and disk on kglite."""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from synth import LABELS, SynthGraph, generate

from memory import queries as Q
from memory.errors import InvalidInput, QueryFailed
from memory.graph import TemporalGraph
from memory.kglite_store import KgliteStore
from memory.timeutil import DAY

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "bench" / "graph.md"
MARK_START, MARK_END = "<!-- graph_bench:start -->", "<!-- graph_bench:end -->"
console = Console()
Result = dict[str, Any]

# The recall queries as committed before this benchmark (676ed6c), kept to prove the rewrite equal.
ORIGINAL_NEIGHBOURHOOD_1 = (
    "MATCH (x:Entity)-[r:ARC*1..1]-(:Entity) WHERE x.id IN $ids UNWIND r AS a WITH DISTINCT a "
    f"MATCH (s:Entity)-[a]->(o:Entity) WHERE {Q.TRUE_AT} "
    f"RETURN {Q.ARC_FIELDS} ORDER BY weight DESC LIMIT $limit"
)
ORIGINAL_NEIGHBOURHOOD_2 = (
    "MATCH (x:Entity)-[r:ARC*1..2]-(:Entity) WHERE x.id IN $ids UNWIND r AS a WITH DISTINCT a "
    f"MATCH (s:Entity)-[a]->(o:Entity) WHERE {Q.TRUE_AT} "
    f"RETURN {Q.ARC_FIELDS} ORDER BY weight DESC LIMIT $limit"
)

# Not a rewrite (different rows): the 2-hop that does not fan out through the user, for comparison.
TWO_HOP_NOT_THROUGH_USER = (
    "MATCH (x:Entity)-[:ARC]-(y:Entity) WHERE x.id IN $ids "
    "WITH collect(DISTINCT x) + collect(DISTINCT y) AS ns UNWIND ns AS n WITH DISTINCT n "
    "WHERE n.is_user IS NULL OR n.is_user = false OR n.id IN $ids "
    "MATCH (n)-[a:ARC]-(:Entity) " + Q.NEIGHBOURHOOD_2[Q.NEIGHBOURHOOD_2.index("WHERE a.recorded_at"):]
)


@dataclass(frozen=True)
class Case:
    entities: int
    arcs: int
    seed: int
    batch: int
    seeds: int
    hub_share: float
    facts: int
    check_budget_s: float
    threshold: float
    workdir: Path


# -- helpers -----------------------------------------------------------------------------------------
def progress() -> Progress:
    return Progress(TextColumn("{task.description:<22}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=console, transient=True)


def pct(values: Sequence[float]) -> dict[str, float]:
    """p50/p95/p99/max in ms of latencies given in seconds."""
    if not values:
        return {}
    a = np.asarray(values) * 1000.0
    return {k: round(float(v), 3) for k, v in
            zip(("p50", "p95", "p99", "max"), (*np.percentile(a, [50, 95, 99]), a.max()), strict=True)}


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def mb(n: int) -> float:
    return round(n / 2**20, 1)


def when(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


# -- phases ------------------------------------------------------------------------------------------
def bulk_load(store: KgliteStore, g: SynthGraph, batch: int) -> Result:
    """Entities then arcs, one UNWIND statement per batch, one transaction per batch."""
    t0 = time.perf_counter()
    for rows in g.entity_rows(batch):
        with store.transaction() as tx:
            tx.run(Q.BULK_CREATE_ENTITIES, {"rows": rows})
    t1 = time.perf_counter()
    per_batch: list[float] = []
    with progress() as bar:
        task = bar.add_task("bulk load arcs", total=g.n_arcs)
        for rows in g.arc_rows(batch):
            tb = time.perf_counter()
            with store.transaction() as tx:
                tx.run(Q.BULK_CREATE_ARCS, {"rows": rows})
            per_batch.append(time.perf_counter() - tb)
            bar.advance(task, len(rows))
    with store.transaction() as tx:
        tx.run(Q.SET_T_INDEX, {"t": g.n_arcs})
    arcs_s = time.perf_counter() - t1
    return {"entities_s": round(t1 - t0, 2), "arcs_s": round(arcs_s, 2),
            "entities_per_s": round(g.n_entities / (t1 - t0)), "arcs_per_s": round(g.n_arcs / arcs_s),
            "batch": batch, "batches": len(per_batch), "first_batch_s": round(per_batch[0], 3),
            "last_batch_s": round(per_batch[-1], 3)}


def tx_floor(store: KgliteStore, n: int = 200) -> Result:
    """The cheapest write transaction (bump the t_index counter): the fixed cost of every write."""
    lat = []
    for _ in range(n):
        t = time.perf_counter()
        with store.transaction() as tx:
            tx.run(Q.NEXT_T_INDEX)
        lat.append(time.perf_counter() - t)
    return pct(lat)


def pick_seeds(g: SynthGraph, n: int, hub_share: float, seed: int) -> tuple[list[str], set[str]]:
    """``hub_share`` of the seeds from the top 1% by degree, the rest uniformly from the other entities."""
    rng = np.random.default_rng(seed + 1)
    order = np.argsort(-g.degree, kind="stable")
    top = max(1, g.n_entities // 100)
    n_hubs = min(top, round(n * hub_share))
    hubs = rng.choice(order[:top], size=n_hubs, replace=False)
    rest = rng.choice(order[top:], size=n - n_hubs, replace=False)
    picked = rng.permutation(np.concatenate([hubs, rest]))
    hub_ids = {g.entity_ids[int(i)] for i in hubs}
    return [g.entity_ids[int(i)] for i in picked], hub_ids


def recall(graph: TemporalGraph, seeds: list[str], hubs: set[str], hops: int, at: datetime) -> Result:
    """TemporalGraph.neighbourhood([seed], hops, limit=10) per seed, after a short warm-up."""
    for s in seeds[:20]:
        graph.neighbourhood([s], at=at, hops=hops, limit=10)
    lat: dict[str, float] = {}
    sizes = []
    with progress() as bar:
        task = bar.add_task(f"{hops}-hop recall", total=len(seeds))
        for s in seeds:
            t = time.perf_counter()
            arcs = graph.neighbourhood([s], at=at, hops=hops, limit=10)
            lat[s] = time.perf_counter() - t
            sizes.append(len(arcs))
            bar.advance(task)
    return {**pct(list(lat.values())), "hubs": pct([v for k, v in lat.items() if k in hubs]),
            "others": pct([v for k, v in lat.items() if k not in hubs]),
            "mean_rows": round(float(np.mean(sizes)), 1), "n": len(seeds)}


def recall_variant(store: KgliteStore, seeds: list[str], hubs: set[str], now: float) -> Result:
    """TWO_HOP_NOT_THROUGH_USER per seed (store.read, same parameters as neighbourhood)."""
    lat: dict[str, float] = {}
    with progress() as bar:
        task = bar.add_task("2-hop, not via user", total=len(seeds))
        for s in seeds:
            p = {"ids": [s], "at": now, "now": now, "limit": 10}
            lat[s] = timed(lambda p=p: store.read(TWO_HOP_NOT_THROUGH_USER, p))[0]
            bar.advance(task)
    return {**pct(list(lat.values())), "hubs": pct([v for k, v in lat.items() if k in hubs]),
            "others": pct([v for k, v in lat.items() if k not in hubs]), "n": len(seeds)}


def check_equal(store: KgliteStore, g: SynthGraph, seeds: list[str], budget_s: float) -> Result:
    """Rewritten vs committed NEIGHBOURHOOD_1/2: identical rows, cheapest seeds first, within budget.

    The committed 2-hop enumerates paths, so its cost is the seed's 2-hop path count (the sum of its
    neighbours' degrees); seeds are tried in that order so the slow original covers the most seeds.
    """
    deg = dict(zip(g.entity_ids, g.degree.tolist(), strict=True))
    s, o = g.arcs["subject"], g.arcs["object"]
    paths = np.bincount(s, g.degree[o], g.n_entities) + np.bincount(o, g.degree[s], g.n_entities)
    cost = dict(zip(g.entity_ids, paths.tolist(), strict=True))
    rng = np.random.default_rng(g.n_arcs)
    multi = [list(rng.choice(seeds, size=3, replace=False)) for _ in range(10)]
    asks = [[s] for s in sorted(seeds, key=lambda s: (cost[s], deg[s]))]
    out: Result = {}
    for hops, old, new in ((1, ORIGINAL_NEIGHBOURHOOD_1, Q.NEIGHBOURHOOD_1),
                           (2, ORIGINAL_NEIGHBOURHOOD_2, Q.NEIGHBOURHOOD_2)):
        out[f"hop{hops}"] = _check_pair(store, old, new, asks + multi, budget_s, g.now, hops)
        out[f"hop{hops}"]["max_seed_degree"] = max(deg[ids[0]] for ids in asks[:out[f"hop{hops}"]["asked"]])
    return out


def _check_pair(store: KgliteStore, old: str, new: str, asks: list[list[str]], budget_s: float,
                now: float, hops: int) -> Result:
    checked = mismatched = timeouts = asked = 0
    t_old: list[float] = []
    t_new: list[float] = []
    deadline = time.perf_counter() + budget_s
    with progress() as bar:
        task = bar.add_task(f"check {hops}-hop rows", total=len(asks))
        for ids in asks:
            if time.perf_counter() > deadline:
                break
            asked += 1
            for limit in (10, 200):
                p = {"ids": ids, "at": now, "now": now, "limit": limit}
                try:
                    dt_old, rows_old = timed(lambda p=p: store.read_only(old, p, timeout_ms=5000,
                                                                         row_limit=1000))
                except QueryFailed:
                    timeouts += 1
                    continue
                dt_new, rows_new = timed(lambda p=p: store.read(new, p))
                checked += 1
                mismatched += rows_old != rows_new
                if limit == 10:
                    t_old.append(dt_old)
                    t_new.append(dt_new)
            bar.advance(task)
    return {"asked": asked, "checked": checked, "mismatched": mismatched, "original_timeouts": timeouts,
            "original_ms": pct(t_old), "rewritten_ms": pct(t_new)}


def fact_sample(g: SynthGraph, n: int, seed: int) -> list[dict[str, Any]]:
    """A realistic stream: reinforcements, new facts, single-valued changes, new entities, history."""
    rng = np.random.default_rng(seed + 2)
    a = g.arcs
    open_arcs = np.flatnonzero(np.isnan(a["valid_to"]) & np.isnan(a["expired_at"]))
    persons = np.flatnonzero(g.types == 0)
    by_type = {t: np.flatnonzero(g.types == k) for k, t in enumerate(("PERSON", "PLACE", "ORG"))}
    facts = []
    for k in range(n):
        u = rng.random()
        if u < 0.45:
            i = int(rng.choice(open_arcs))
            rel = g.relations[int(a["relation"][i])]
            facts.append({"s": g.names[int(a["subject"][i])], "r": rel, "o": g.names[int(a["object"][i])],
                          "label": _label(i, rel)})
        elif u < 0.65:
            s, o = rng.choice(persons, size=2, replace=False)
            rel = str(rng.choice(["friend_of", "knows", "colleague_of", "likes", "neighbour_of"]))
            facts.append({"s": g.names[int(s)], "r": rel, "o": g.names[int(o)]})
        elif u < 0.80:
            rel, kind = (("lives_in", "PLACE"), ("works_at", "ORG"))[k % 2]
            facts.append({"s": g.names[int(rng.choice(persons))], "r": rel,
                          "o": g.names[int(rng.choice(by_type[kind]))]})
        elif u < 0.90:
            facts.append({"s": g.names[int(rng.choice(persons))], "r": "likes", "o": f"Bench Novelty {k}"})
        else:
            facts.append({"s": g.names[int(rng.choice(persons))], "r": "visited",
                          "o": g.names[int(rng.choice(by_type["PLACE"]))],
                          "ago_days": float(rng.uniform(1, 600))})
    return facts


def _label(i: int, rel: str) -> str | None:
    """The label the generator gave arc i (related_to needs it to be the same fact)."""
    return LABELS[i % len(LABELS)] if rel == "related_to" else None


def write_path(graph: TemporalGraph, facts: list[dict[str, Any]], start: float) -> Result:
    """TemporalGraph.assert_fact per fact: its own transaction, upserts and reinforce/close logic."""
    lat: list[float] = []
    kinds: Counter[str] = Counter()
    by_kind: dict[str, list[float]] = {}
    refused = 0
    with progress() as bar:
        task = bar.add_task("assert_fact", total=len(facts))
        for k, f in enumerate(facts):
            now = when(start + k)
            vf = when(start + k - f["ago_days"] * DAY) if "ago_days" in f else None
            t = time.perf_counter()
            try:
                changes = graph.assert_fact(f["s"], f["r"], f["o"], now=now, valid_from=vf,
                                            label=f.get("label"), conversation=f"bench-{k // 5}",
                                            source=f"bench:{k}")
            except InvalidInput:
                refused += 1
                continue
            finally:
                lat.append(time.perf_counter() - t)
                bar.advance(task)
            kinds.update(c.kind for c in changes)
            by_kind.setdefault(_outcome(changes), []).append(lat[-1])
    total = sum(lat)
    return {**pct(lat), "facts_per_s": round(len(lat) / total, 1), "n": len(lat), "refused": refused,
            "changes": dict(kinds), "by_outcome_ms": {k: pct(v) for k, v in sorted(by_kind.items())}}


def _outcome(changes: Sequence[Any]) -> str:
    """reinforced / added / added+closed: what the fact did, to split its latency."""
    return "+".join(sorted({c.kind for c in changes})) or "none"


def key_scan(store: KgliteStore, g: SynthGraph, n: int = 50) -> Result:
    """ENTITY_BY_KEY (a scan of every entity's keys list): twice per assert_fact."""
    keys = [g.names[i].lower() for i in range(1, g.n_entities, max(1, g.n_entities // n))][:n]
    return pct([timed(lambda k=k: store.read(Q.ENTITY_BY_KEY, {"key": k}))[0] for k in keys])


def consolidate(graph: TemporalGraph, at: float, threshold: float) -> Result:
    arcs_before = graph.stats(now=when(at))["arcs"]["total"]
    dt, report = timed(lambda: graph.consolidate(now=when(at), threshold=threshold))
    return {"s": round(dt, 2), "arcs_before": arcs_before, "pruned_arcs": len(report.pruned_arcs),
            "removed_entities": len(report.removed_entities), "threshold": threshold}


# -- one case ----------------------------------------------------------------------------------------
def run_case(c: Case) -> Result:
    res: Result = {"entities": c.entities, "arcs": c.arcs, "seed": c.seed}
    dt, g = timed(lambda: generate(c.entities, c.arcs, seed=c.seed))
    res["generate_s"] = round(dt, 2)
    data = Path(tempfile.mkdtemp(prefix="graph-bench-", dir=c.workdir))
    store = KgliteStore(data / "memory.kgl")
    try:
        res.update(_measure(store, g, c))
    finally:
        store.close()
        res["disk_closed_mb"] = mb(store.disk_bytes())
        shutil.rmtree(data, ignore_errors=True)
    return res


def _measure(store: KgliteStore, g: SynthGraph, c: Case) -> Result:
    res: Result = {"load": bulk_load(store, g, c.batch), "rss_after_load_mb": rss_mb(),
                   "synth_arrays_mb": mb(sum(v.nbytes for v in g.arcs.values()))}
    res["disk_wal_mb"] = mb(store.disk_bytes())
    res["checkpoint_s"], _ = timed(store.checkpoint)
    res["disk_checkpoint_mb"] = mb(store.disk_bytes())
    res["tx_floor_ms"] = tx_floor(store)
    graph = TemporalGraph(store, user_name="User")
    seeds, hubs = pick_seeds(g, c.seeds, c.hub_share, c.seed)
    at = when(g.now)
    res["recall_1hop_ms"] = recall(graph, seeds, hubs, 1, at)
    res["recall_2hop_ms"] = recall(graph, seeds, hubs, 2, at)
    res["recall_2hop_not_via_user_ms"] = recall_variant(store, seeds, hubs, g.now)
    res["entity_key_scan_ms"] = key_scan(store, g)
    res["assert_fact"] = write_path(graph, fact_sample(g, c.facts, c.seed), g.now + 60)
    res["consolidate"] = consolidate(graph, g.now + 30 * DAY, c.threshold)
    res["rss_now_mb"] = rss_mb()
    res["rss_peak_mb"] = peak_rss_mb()  # before the check: the old 2-hop query can take GiBs
    if c.check_budget_s > 0:  # last: compares old and new text on the same (by now consolidated) graph
        res["equality"] = check_equal(store, g, seeds, c.check_budget_s)
    return res


def run_in_child(c: Case, argv: Iterable[str]) -> Result:
    """Each case in a fresh interpreter, so peak RSS belongs to that case alone."""
    out = Path(tempfile.mkstemp(suffix=".json", dir=c.workdir)[1])
    cmd = [sys.executable, __file__, *argv, "--entities", str(c.entities), "--arcs", str(c.arcs),
           "--seeds", str(c.seeds), "--facts", str(c.facts), "--check-budget-s", str(c.check_budget_s),
           "--one-case", str(out)]
    subprocess.run(cmd, check=True)
    result: Result = json.loads(out.read_text())
    out.unlink()
    return result


# -- reporting ---------------------------------------------------------------------------------------
def machine() -> Result:
    cpu = next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text().splitlines()
                if ln.startswith("model name")), platform.processor())
    mem_kb = next(int(ln.split()[1]) for ln in Path("/proc/meminfo").read_text().splitlines()
                  if ln.startswith("MemTotal"))
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    import kglite

    return {"nproc": nproc, "cpu": cpu, "ram_gib": round(mem_kb / 2**20, 1),
            "python": platform.python_version(), "kglite": kglite.__version__, "load_avg": os.getloadavg()[0]}


def rows_for(r: Result) -> list[tuple[str, str]]:
    a, l1, l2, ld = r["assert_fact"], r["recall_1hop_ms"], r["recall_2hop_ms"], r["load"]
    return [
        ("graph", f"{r['entities']:,} entities / {r['arcs']:,} arcs"),
        ("bulk load (UNWIND, tx per batch)", f"{ld['arcs_per_s']:,} arcs/s "
         f"({ld['arcs_s']} s, batch {ld['batch']:,}; last batch {ld['last_batch_s']} s)"),
        ("checkpoint (save)", f"{r['checkpoint_s']:.2f} s"),
        ("write tx floor (tick only)", f"p50 {r['tx_floor_ms']['p50']} ms, p95 {r['tx_floor_ms']['p95']} ms"),
        ("assert_fact", f"{a['facts_per_s']} facts/s, p50 {a['p50']} ms, p95 {a['p95']} ms ({a['n']} facts)"),
        ("  p50 by outcome", ", ".join(f"{k} {v['p50']} ms" for k, v in a["by_outcome_ms"].items())),
        ("  ENTITY_BY_KEY scan", f"p50 {r['entity_key_scan_ms']['p50']} ms"),
        ("1-hop top-10", _lat(l1)), ("  hubs / others p95", _split(l1)),
        ("2-hop top-10", _lat(l2)), ("  hubs / others p95", _split(l2)),
        ("2-hop, not via the user (not shipped)", _lat(r["recall_2hop_not_via_user_ms"])),
        ("recall rewrite: same rows as committed", _equality(r.get("equality"))),
        ("consolidate", f"{r['consolidate']['s']} s, pruned {r['consolidate']['pruned_arcs']:,} of "
         f"{r['consolidate']['arcs_before']:,} arcs, {r['consolidate']['removed_entities']} orphans"),
        ("RSS peak / after load / end",
         f"{r['rss_peak_mb']} / {r['rss_after_load_mb']} / {r['rss_now_mb']} MiB"),
        ("disk: after load (+WAL) / checkpoint / closed",
         f"{r['disk_wal_mb']} / {r['disk_checkpoint_mb']} / {r['disk_closed_mb']} MiB"),
    ]


def _lat(p: Result) -> str:
    return f"p50 {p['p50']} ms, p95 {p['p95']} ms, p99 {p['p99']} ms ({p['n']} seeds)"


def _split(p: Result) -> str:
    return f"{p['hubs'].get('p95')} / {p['others'].get('p95')} ms"


def _equality(e: Result | None) -> str:
    if not e:
        return "not checked"
    return "; ".join(
        f"{h}: {v['checked']} checks (seed degree <= {v['max_seed_degree']}), {v['mismatched']} differ, "
        f"{v['original_timeouts']} old timeouts >5 s, "
        f"p50 {v['original_ms'].get('p50')} -> {v['rewritten_ms'].get('p50')} ms"
        for h, v in e.items())


def summary(results: list[Result]) -> Table:
    t = Table(title="graph store benchmark (kglite)")
    t.add_column("metric")
    for r in results:
        t.add_column(f"{r['arcs']:,} arcs")
    for i, (name, _) in enumerate(rows_for(results[0])):
        t.add_row(name, *(rows_for(r)[i][1] for r in results))
    return t


def markdown(results: list[Result], m: Result, command: str) -> str:
    head = "| metric | " + " | ".join(f"{r['arcs']:,} arcs" for r in results) + " |"
    lines = [MARK_START, "", f"Command: `{command}`", "",
             f"Machine: `nproc` = {m['nproc']}, {m['cpu']}, {m['ram_gib']} GiB RAM; Python {m['python']}, "
             f"kglite {m['kglite']}; load average at start {m['load_avg']:.2f} (shared machine).", "",
             head, "|" + "---|" * (len(results) + 1)]
    for i, (name, _) in enumerate(rows_for(results[0])):
        lines.append(f"| {name.strip()} | " + " | ".join(rows_for(r)[i][1] for r in results) + " |")
    for r in results:
        if "equality" in r:
            lines += ["", f"Rewritten NEIGHBOURHOOD_1/2 vs the committed text ({r['arcs']:,} arcs): "
                      f"`{json.dumps(r['equality'])}`"]
    lines += ["", "<details><summary>raw results</summary>", "", "```json",
              json.dumps(results, indent=1), "```", "", "</details>", "", MARK_END]
    return "\n".join(lines)


def previous(c: Case) -> Result | None:
    """The raw result of an earlier run of this case size, from the doc's raw-results block."""
    text = DOC.read_text() if DOC.exists() else ""
    if "```json" not in text:
        return None
    raw = text.split("```json", 1)[1].split("```", 1)[0]
    key = (c.entities, c.arcs, c.seed)
    found = [r for r in json.loads(raw) if (r["entities"], r["arcs"], r["seed"]) == key]
    return found[0] if found else None


def write_doc(text: str) -> None:
    """Replace the generated block of docs/bench/graph.md; keep any hand-written text around it."""
    DOC.parent.mkdir(parents=True, exist_ok=True)
    old = DOC.read_text() if DOC.exists() else "# Graph store benchmark\n\n" + MARK_START + MARK_END + "\n"
    if MARK_START in old and MARK_END in old:
        new = old[:old.index(MARK_START)] + text + old[old.index(MARK_END) + len(MARK_END):]
    else:
        new = old.rstrip() + "\n\n" + text + "\n"
    DOC.write_text(new)


# -- CLI ---------------------------------------------------------------------------------------------
def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--entities", type=int, default=10_000)
    p.add_argument("--arcs", type=int, default=100_000)
    p.add_argument("--scale", type=int, default=10, help="the large case is entities/arcs times this")
    p.add_argument("--skip-1m", action="store_true", help="run only the base case")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--batch", type=int, default=50_000, help="rows per UNWIND transaction in the bulk load")
    p.add_argument("--seeds", type=int, default=500, help="recall seed entities")
    p.add_argument("--hub-share", type=float, default=0.1, help="share of seeds from the top 1%% by degree")
    p.add_argument("--facts", type=int, default=2000, help="assert_fact calls")
    p.add_argument("--check-budget-s", type=float, default=60.0,
                   help="seconds per hop for the old-vs-new recall row check (0: skip; large case: skip)")
    p.add_argument("--threshold", type=float, default=0.02, help="consolidate prune threshold")
    p.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()))
    p.add_argument("--no-doc", action="store_true", help=f"do not write {DOC.relative_to(ROOT)}")
    p.add_argument("--reuse-1m", action="store_true",
                   help=f"reuse the large case's raw results in {DOC.relative_to(ROOT)}, do not rerun it")
    p.add_argument("--one-case", type=Path, help=argparse.SUPPRESS)
    return p.parse_args(argv)


def case_of(a: argparse.Namespace, entities: int, arcs: int, check_budget_s: float) -> Case:
    return Case(entities, arcs, a.seed, a.batch, a.seeds, a.hub_share, a.facts, check_budget_s,
                a.threshold, a.workdir)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    a = parse(argv)
    if a.one_case:
        a.one_case.write_text(json.dumps(run_case(case_of(a, a.entities, a.arcs, a.check_budget_s))))
        return 0
    m = machine()
    cases = [case_of(a, a.entities, a.arcs, a.check_budget_s)]
    if not a.skip_1m:
        cases.append(case_of(a, a.entities * a.scale, a.arcs * a.scale, 0.0))
    common = ["--seed", str(a.seed), "--batch", str(a.batch), "--hub-share", str(a.hub_share),
              "--threshold", str(a.threshold), "--workdir", str(a.workdir)]
    results = []
    for c in cases:
        console.rule(f"{c.entities:,} entities / {c.arcs:,} arcs")
        reused = previous(c) if a.reuse_1m and c is not cases[0] else None
        results.append(reused or run_in_child(c, common))
        console.print(summary(results[-1:]))
    if len(results) > 1:
        console.print(summary(results))
    if not a.no_doc:
        command = " ".join([".venv/bin/python", "benchmarks/graph_bench.py", *argv])
        write_doc(markdown(results, m, command))
        console.print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
