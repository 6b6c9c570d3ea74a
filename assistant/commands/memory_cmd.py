"""`assistant memory ...`: add, show, forget, export and stats over the temporal graph."""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from datetime import datetime, timedelta

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from assistant.compose import Hearth
from memory.errors import InvalidInput
from memory.export import export_cypher, export_json
from memory.model import Arc
from memory.timeutil import iso, not_after, parse_time


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("memory", help="look at and edit what the assistant remembers")
    msub = p.add_subparsers(dest="memory_cmd", required=True)

    a = msub.add_parser("add", help="add (or reinforce) a fact: SUBJ REL OBJ")
    a.add_argument("subject")
    a.add_argument("relation", help="a relation from the vocabulary, e.g. lives_in, works_at, sister_of")
    a.add_argument("object")
    a.add_argument("--at", help="when it became true (ISO-8601; default now)")
    a.add_argument("--label", help="for related_to: how the two are related")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=cmd_add)

    s = msub.add_parser("show", help="show facts (about ENTITY), now or --at a time, or --history")
    s.add_argument("entity", nargs="?")
    s.add_argument("--history", action="store_true", help="every fact ever held, closed ones included")
    s.add_argument("--at", help="show what was true at this time (ISO-8601)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(handler=cmd_show)

    f = msub.add_parser("forget", help="delete an entity (and all its facts) or one arc, for good")
    f.add_argument("entity", nargs="?")
    f.add_argument("--arc", help="the id of one arc to delete")
    f.add_argument("--json", action="store_true")
    f.set_defaults(handler=cmd_forget)

    e = msub.add_parser("export", help="write the whole graph to stdout")
    e.add_argument("--format", choices=["json", "cypher"], default="json")
    e.set_defaults(handler=cmd_export)

    t = msub.add_parser("stats", help="counts, relations, weights, disk size")
    t.add_argument("--json", action="store_true")
    t.set_defaults(handler=cmd_stats)


def _time_arg(now: datetime, text: str | None) -> datetime:
    """--at: a sane time, not after now (a fact starting later would be believed before it is true)."""
    if not text:
        return now
    return not_after(parse_time(text), now, skew=timedelta(0), what="--at")


def cmd_add(app: Hearth, args: argparse.Namespace) -> int:
    now = app.now()
    at = _time_arg(now, args.at)  # told then: it became true then, and has been fading since
    changes = app.graph.assert_fact(args.subject, args.relation, args.object, now=now, valid_from=at, told_at=at,
                                    label=args.label, source="cli", confidence=1.0)
    if args.json:
        print(json.dumps([c.to_json() for c in changes]))
    else:
        for c in changes:
            print(c.describe())
    return 0


def _arcs_table(title: str, arcs: list[Arc], *, history: bool) -> Table:
    t = Table(title=escape(title), title_justify="left", show_lines=False)
    t.add_column("subject")
    t.add_column("relation")
    t.add_column("object")
    t.add_column("valid", no_wrap=True)
    t.add_column("weight", justify="right")
    t.add_column("seen", justify="right")
    if history:
        t.add_column("status")
    for a in arcs:
        span = f"{a.valid_from.date()} → {a.valid_to.date() if a.valid_to else 'now'}"
        rel = f"{a.relation} ({a.label})" if a.label else a.relation
        row = [a.subject, rel, a.object, span, f"{a.weight:.3f}" if a.weight is not None else "",
               str(a.reinforcements + 1)]
        if history:
            row.append("retracted" if a.expired_at else ("ended" if a.valid_to else "current"))
        t.add_row(*map(escape, row))
    return t


def cmd_show(app: Hearth, args: argparse.Namespace) -> int:
    now = app.now()
    at = _time_arg(now, args.at)
    g = app.graph
    if args.history:
        if args.entity:
            e = g.require_entity(args.entity)
            arcs = sorted(g.arcs_of_entity(e.id, now=now), key=lambda a: (a.relation, a.valid_from))
        else:
            arcs = g.all_arcs(now=now)
    else:
        arcs = g.facts_at(at, now=now, entity=args.entity)  # what we know today about then
    if args.json:
        print(json.dumps({"at": iso(at), "history": args.history, "facts": [a.to_json() for a in arcs]},
                         ensure_ascii=False))
        return 0
    con = Console()
    if not arcs:
        con.print("Nothing remembered" + (f" about {escape(args.entity)}" if args.entity else "") + " yet.")
        return 0
    groups: dict[str, list[Arc]] = defaultdict(list)
    for a in arcs:
        groups[a.subject].append(a)
    when = "history" if args.history else f"true at {at.date()}"
    for subj, items in groups.items():
        con.print(_arcs_table(f"{subj} — {when}", items, history=args.history))
    return 0


def cmd_forget(app: Hearth, args: argparse.Namespace) -> int:
    if bool(args.entity) == bool(args.arc):
        raise InvalidInput("say what to forget: an ENTITY name or --arc ID (one of them)")
    ids = app.graph.forget_arc(args.arc) if args.arc else app.graph.forget_entity(args.entity)
    forget_hook = getattr(app, "forget_provenance", None)
    if forget_hook is not None:
        forget_hook(ids)
    if args.json:
        print(json.dumps({"deleted_arcs": ids}))
    else:
        what = f"arc {args.arc}" if args.arc else args.entity
        print(f"Forgot {what}: {len(ids)} fact(s) deleted.")
    return 0


def cmd_export(app: Hearth, args: argparse.Namespace) -> int:
    if args.format == "json":
        sys.stdout.write(export_json(app.store) + "\n")
    else:
        for stmt in export_cypher(app.store):
            sys.stdout.write(stmt + "\n")
    return 0


def cmd_stats(app: Hearth, args: argparse.Namespace) -> int:
    st = app.graph.stats(now=app.now())
    disk = getattr(app.store, "disk_bytes", None)
    if disk is not None:
        st["disk_bytes"] = disk()
    if args.json:
        print(json.dumps(st))
        return 0
    con = Console()
    a = st["arcs"]
    con.print(f"[bold]{st['entities']}[/] entities, [bold]{a['total']}[/] arcs "
              f"({a['current']} current, {a['closed']} ended, {a['retracted']} retracted) "
              f"on {st['backend']}" + (f", {st['disk_bytes'] / 1024:.0f} KiB on disk" if "disk_bytes" in st else ""))
    if st["relations"]:
        t = Table("relation", "arcs")
        for r, n in st["relations"].items():
            t.add_row(escape(r), str(n))
        con.print(t)
    w = st["weight"]
    if w.get("mean_weight") is not None:
        con.print(f"weights now: mean {w['mean_weight']}, min {w['min_weight']}, max {w['max_weight']}")
    return 0
