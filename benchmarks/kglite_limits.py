"""Do kglite's own limits (timeout, work budget) hold for hostile read queries, in-process? (issue 12)

    .venv/bin/python benchmarks/kglite_limits.py [--timeout-ms 2000] [--work-units 1000000] [--kill-s 30]

Each probe runs in its own child process (one of them aborts its process) on a 200-entity graph with about
1,000 random arcs, in a kglite read transaction with `write_scope=[]`, the way `KgliteStore.read_only` ran
generated Cypher before the sandbox. A Python thread ticks every 10 ms beside the query: few ticks mean the
query held the GIL. The child is killed after --kill-s seconds; --as-gib gives it an address-space cap
(kglite behaves differently under one: its timeout stopped holding inside `reduce`).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

from common import machine

PROBES = {
    "reduce over range(1, 8M)": "RETURN reduce(s = 0, x IN range(1, 8000000) | s + x) AS id",
    "reduce growing a list (100k)": "RETURN size(reduce(s = [], x IN range(1, 100000) | s + [x])) AS id",
    "string doubling in reduce": "RETURN size(reduce(s = 'x', i IN range(1, 40) | s + s)) AS id",
    "nested reduce 3000 x 3000": "RETURN reduce(s = 0, x IN range(1, 3000) | s + reduce(t = 0, y IN "
                                 "range(1, 3000) | t + y)) AS id",
    "nested list comprehension": "RETURN size([x IN range(1, 3000) | [y IN range(1, 3000) | y]]) AS id",
    "UNWIND range x range": "UNWIND range(1, 8000000) AS x UNWIND range(1, 8000000) AS y RETURN count(*) AS id",
    "cross join of 4": "MATCH (a:Entity), (b:Entity), (c:Entity), (d:Entity) RETURN count(*) AS id",
    "path expansion *..12": "MATCH p = (a:Entity)-[*..12]-(b:Entity) RETURN count(p) AS id",
    "range(1, 30M)": "RETURN size(range(1, 30000000)) AS id",
}

CHILD = r"""
import json, resource, sys, tempfile, threading, time, warnings
import kglite
query, timeout_ms, work = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) or None
warnings.simplefilter("ignore")
g = kglite.open(tempfile.mkdtemp() + "/g.kgl", durable="normal")  # as KgliteStore opens it
g.cypher("UNWIND range(1, 200) AS i CREATE (:Entity {id: 'e' + toString(i)})")
g.cypher("MATCH (a:Entity), (b:Entity) WHERE a.id < b.id AND rand() < 0.05 CREATE (a)-[:ARC]->(b)")
ticks, stop = [0], threading.Event()
def tick():
    while not stop.is_set():
        time.sleep(0.01); ticks[0] += 1
threading.Thread(target=tick, daemon=True).start()
t0 = time.monotonic()
try:
    tx = g.begin_read(timeout_ms=timeout_ms)
    rows = tx.cypher(query, timeout_ms=timeout_ms, max_work_units=work, row_limit=50, write_scope=[]).to_list()
    outcome = "returned " + str(rows)[:40]
except Exception as e:
    outcome = type(e).__name__ + ": " + (str(e).splitlines() or [""])[0][:70]
took = time.monotonic() - t0
stop.set()
print(json.dumps({"s": took, "ticks": ticks[0], "outcome": outcome,
                  "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def probe(query: str, timeout_ms: int, work: int, kill_s: float, as_gib: float) -> str:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if as_gib:
            resource.setrlimit(resource.RLIMIT_AS, (int(as_gib * (1 << 30)),) * 2)

    t0 = time.monotonic()
    try:
        p = subprocess.run([sys.executable, "-c", CHILD, query, str(timeout_ms), str(work)], capture_output=True,
                           text=True, timeout=kill_s, preexec_fn=cap)
    except subprocess.TimeoutExpired:
        return f"still running after {kill_s:.0f} s (killed)"
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or [""])[0][:60]
        return f"process died after {time.monotonic() - t0:.1f} s (exit {p.returncode}: {last})"
    r = json.loads(p.stdout.strip().splitlines()[-1])
    expected = int(r["s"] * 100)
    return (f"{r['s']:6.2f} s, max RSS {r['maxrss_mib']:5.0f} MiB, GIL ticks {r['ticks']}/{expected}: "
            f"{r['outcome']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout-ms", type=int, default=2000)
    ap.add_argument("--work-units", type=int, default=0, help="kglite max_work_units (0: none)")
    ap.add_argument("--kill-s", type=float, default=30.0)
    ap.add_argument("--as-gib", type=float, default=0.0, help="address-space cap of the child (0: none)")
    args = ap.parse_args()
    import kglite

    print(f"machine: {machine()}, kglite {kglite.__version__}, timeout_ms {args.timeout_ms}, "
          f"max_work_units {args.work_units or 'none'}, address-space cap {args.as_gib or 'none'} GiB")
    for name, q in PROBES.items():
        print(f"  {name:30} {probe(q, args.timeout_ms, args.work_units, args.kill_s, args.as_gib)}", flush=True)


if __name__ == "__main__":
    main()
