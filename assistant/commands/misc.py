"""`assistant consolidate` (nightly tidy-up) and `assistant demo` (the README's first command)."""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from assistant.compose import Hearth
from memory.timeutil import parse_time


def register(sub: argparse._SubParsersAction) -> None:
    c = sub.add_parser("consolidate", help="decay, prune, merge duplicates and tidy memory now (normally nightly)")
    c.add_argument("--report", action="store_true", help="print the last consolidation's report (runs nothing)")
    c.add_argument("--undo-merge", metavar="ID", help="split a merge of two entities again (ids in --report)")
    c.add_argument("--json", action="store_true")
    c.set_defaults(handler=cmd_consolidate)

    d = sub.add_parser("demo", help="a short scripted session on a fresh memory, to see Hearth work")
    d.add_argument("--out-dir", help="keep the demo's data and audio here (default: a temp dir)")
    d.add_argument("--memory-only", action="store_true", help="only the memory part (no models)")
    d.set_defaults(handler=cmd_demo)


def cmd_consolidate(app: Hearth, args: argparse.Namespace) -> int:
    from assistant.service.api import LocalAPI
    from assistant.service.client import open_api  # the store, or the running service that holds it

    api = open_api(app)
    if args.undo_merge:
        m = api.undo_merge(args.undo_merge)["merge"]
        print(json.dumps(m) if args.json else f"Undid merge {m['id']}: {m['loser']} and {m['survivor']} are "
              "two again.")
        return 0
    if args.report:
        reports = api.consolidations(limit=1)["reports"]
        if not reports:
            print("{}" if args.json else "No consolidation has run yet (`assistant consolidate` runs one).")
            return 0
        report = reports[0]
    elif isinstance(api, LocalAPI):
        from assistant.upkeep import run_consolidation

        with _progress(quiet=args.json) as on_step:
            report = run_consolidation(app, progress=on_step)
    else:
        with Console(stderr=True).status("consolidating (in the service)…"):
            report = api.consolidate()
    if args.json:
        print(json.dumps(report))
    else:
        print("\n".join(describe_report(report)))  # plain: names are printed as they are, never as markup
    return 0


@contextmanager
def _progress(*, quiet: bool) -> Iterator[Callable[[str, int, int], None]]:
    """A bar per consolidation step on stderr (gone when done); nothing when quiet or not on a terminal."""
    con = Console(stderr=True)
    if quiet or not con.is_terminal:
        yield lambda step, done, total: None
        return
    with Progress(TextColumn("{task.description:<18}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=con, transient=True) as bar:
        tasks: dict[str, TaskID] = {}

        def on_step(step: str, done: int, total: int) -> None:
            if total <= 0:  # nothing to do in this step: it is complete
                done = total = 1
            if step not in tasks:
                tasks[step] = bar.add_task(step, total=total)
            bar.update(tasks[step], completed=done, total=total)

        yield on_step


def describe_report(r: dict[str, Any]) -> list[str]:
    """A consolidation report for people: counts, then each merge and each pair left alone, with the evidence."""
    merged, left = r.get("merged") or [], r.get("left_alone") or []
    lines = [f"Consolidation {r.get('id') or ''} at {r.get('at')}: pruned {r['pruned_arcs']} faded arc(s), "
             f"removed {r['removed_entities']} orphan entit(ies), merged {len(merged)} duplicate(s), "
             f"closed {len(r.get('closed') or [])}, added {len(r.get('added') or [])}."]
    for m in merged:
        undone = f" (undone {m['undone_at']})" if m.get("undone_at") else ""
        lines.append(f"  merged '{m['loser']}' into '{m['survivor']}' [{m['id']}] by {m['rule']}{undone}")
        lines += [f"      evidence: {e}" for e in m.get("evidence") or []]
    for d in left:
        lines.append(f"  left alone: '{d['loser']}' / '{d['survivor']}' ({d['rule']}): {d['reason']}")
    if r.get("relearning"):
        lines.append(f"  re-learning: {r['relearning']}")
    lines += [f"  learned again from the day: {a['subject']} {a['relation']} {a['object']}"
              for a in r.get("added") or []]
    if r.get("prune_deferred"):
        lines.append(f"  left for the next night: {r['prune_deferred']} faded arc(s) (the prune's time budget ran out)")
    if r.get("summaries"):
        lines.append(f"  summarised the {r['summaries']} most salient entit(ies) for recall")
    if r.get("timings_s"):
        lines.append("  took: " + ", ".join(f"{k} {v:.2f} s" for k, v in r["timings_s"].items()))
    if any(not m.get("undone_at") for m in merged):
        lines.append("  undo a merge: assistant consolidate --undo-merge ID")
    return lines


def memory_demo(app: Hearth, con: Console) -> None:
    """Facts told over a few months, then what is true now, what was true before, and how weights fade."""
    g = app.graph
    script = [
        ("2026-01-05T19:00:00Z", "Anna", "sister_of", "user"),
        ("2026-01-05T19:00:00Z", "Anna", "lives_in", "Porto"),
        ("2026-01-05T19:00:00Z", "user", "likes", "coffee"),
        ("2026-01-12T18:00:00Z", "user", "works_at", "Saint Mary's Hospital"),
        ("2026-02-01T07:00:00Z", "user", "likes", "coffee"),
        ("2026-03-10T08:30:00Z", "Anna", "lives_in", "Lisbon"),
        ("2026-04-20T07:15:00Z", "user", "likes", "green tea"),
    ]
    con.rule("[bold]Memory demo[/]: facts told over four months")
    for i, (at, s, r, o) in enumerate(script):
        t = parse_time(at)
        for ch in g.assert_fact(s, r, o, now=t, source=f"demo#{i}", conversation=f"demo-{at[:10]}"):
            con.print(f"  {at[:10]}  {ch.describe()}")
    g.close_fact("user", "likes", "coffee", now=parse_time("2026-04-20T07:15:00Z"), reason="user went off it")
    con.print("  2026-04-20  closed: User likes coffee (user went off it)")
    now = parse_time("2026-05-01T09:00:00Z")
    con.rule(f"What is true on {now.date()}")
    for a in g.facts_at(now):
        con.print("  " + a.statement())
    con.rule("Where did Anna live? (history)")
    for a in g.history("Anna", "lives_in", now=now):
        con.print("  " + a.statement())
    con.rule("Decay: weight of each arc as time passes (reinforced arcs fade slower)")
    table = Table("fact", *[f"+{d}d" for d in (0, 30, 90, 365)])
    for a in g.all_arcs(now=now):
        ws = [g.decay.weight(a.strength, a.decay_rate, a.last_reinforced.timestamp(),
                             (now + timedelta(days=d)).timestamp()) for d in (0, 30, 90, 365)]
        table.add_row(f"{a.subject} {a.relation} {a.object}", *[f"{w:.2f}" for w in ws])
    con.print(table)


def cmd_demo(app: Hearth, args: argparse.Namespace) -> int:
    con = Console()
    base = Path(args.out_dir) if args.out_dir else Path(tempfile.mkdtemp(prefix="hearth-demo-"))
    if not args.memory_only:
        from assistant.demo_voice import voice_demo

        voice_app = Hearth(app.settings, base / "voice" / "data", clock=app.clock)
        voice_app.models_dir_override = app.models_dir  # share the assembled LLM with the real data dir
        try:
            voice_demo(voice_app, base / "voice", con)
        finally:
            voice_app.close()
    memory_app = Hearth(app.settings, base / "memory" / "data", clock=app.clock)
    try:
        memory_demo(memory_app, con)
    finally:
        memory_app.close()
    con.print(f"\nDemo data in {base}. Talk to it: `assistant run` (microphone) or `assistant chat` (typing).")
    return 0
