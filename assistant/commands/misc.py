"""`assistant consolidate` (nightly tidy-up) and `assistant demo` (the README's first command)."""

from __future__ import annotations

import argparse
import json
import tempfile
from datetime import timedelta
from pathlib import Path

from rich.console import Console
from rich.table import Table

from assistant.compose import Hearth
from memory.timeutil import parse_time


def register(sub: argparse._SubParsersAction) -> None:
    c = sub.add_parser("consolidate", help="decay, prune and tidy memory now (normally runs nightly)")
    c.add_argument("--json", action="store_true")
    c.set_defaults(handler=cmd_consolidate)

    d = sub.add_parser("demo", help="a short scripted session on a fresh memory, to see Hearth work")
    d.add_argument("--out-dir", help="keep the demo's data and audio here (default: a temp dir)")
    d.add_argument("--memory-only", action="store_true", help="only the memory part (no models)")
    d.set_defaults(handler=cmd_demo)


def cmd_consolidate(app: Hearth, args: argparse.Namespace) -> int:
    from assistant.upkeep import record_consolidation

    c = app.settings.memory.consolidation
    now = app.now()
    report = app.graph.consolidate(now=now, threshold=c.prune_threshold, min_confidence=c.min_confidence)
    record_consolidation(app.data_dir, now, report.to_json())
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print(f"Pruned {len(report.pruned_arcs)} faded arc(s), removed {len(report.removed_entities)} "
              f"orphan entit(ies).")
    return 0


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
