"""`assistant memory ...`: add, show, forget, export and stats over the temporal graph."""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from assistant.compose import Hearth
from memory.errors import InvalidInput
from memory.forgetting import ForgetReport

if TYPE_CHECKING:
    from assistant.service.api import HearthAPI


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("memory", help="look at and edit what the assistant remembers")
    msub = p.add_subparsers(dest="memory_cmd", required=True)

    a = msub.add_parser("add", help="add (or reinforce) a fact: SUBJ REL OBJ")
    a.add_argument("subject")
    a.add_argument("relation", help="a relation from the vocabulary (lives_in, works_at, sister_of) or an open "
                   "snake_case predicate (keeps, member_of_team)")
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

    f = msub.add_parser("forget", help="delete a name (its facts, and its mentions in every transcript), "
                                       "a conversation, or one arc, for good")
    f.add_argument("entity", nargs="?", help="a name: the entity and its facts go, every mention is redacted")
    f.add_argument("--arc", help="the id of one arc to delete")
    f.add_argument("--conversation", help="the id of a conversation: its turns and what was learned only from it")
    f.add_argument("--json", action="store_true")
    f.set_defaults(handler=cmd_forget)

    e = msub.add_parser("export", help="write the whole graph to stdout")
    e.add_argument("--format", choices=["json", "cypher"], default="json")
    e.set_defaults(handler=cmd_export)

    t = msub.add_parser("stats", help="counts, relations, weights, disk size")
    t.add_argument("--json", action="store_true")
    t.set_defaults(handler=cmd_stats)


def _api(app: Hearth) -> HearthAPI:
    from assistant.service.client import open_api  # the store, or the running service that holds it

    return open_api(app)


def cmd_add(app: Hearth, args: argparse.Namespace) -> int:
    changes = _api(app).add_fact(args.subject, args.relation, args.object, at=args.at, label=args.label)["changes"]
    if args.json:
        print(json.dumps(changes))
    else:
        for c in changes:
            print(f"{c['kind']}: {c['subject']} {c['relation']} {c['object']}" + (
                f" ({c['reason']})" if c.get("reason") else ""))
    return 0


def _day(t: str | None) -> str:
    return t[:10] if t else "now"


def _arcs_table(title: str, arcs: list[dict[str, Any]], *, history: bool) -> Table:
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
        span = f"{_day(a['valid_from'])} → {_day(a['valid_to'])}"
        rel = f"{a['relation']} ({a['label']})" if a.get("label") else a["relation"]
        if a.get("planned_for"):  # a plan: for when
            rel += f" (for {a['planned_for']})"
        row = [a["subject"], rel, a["object"], span, f"{a['weight']:.3f}" if a.get("weight") is not None else "",
               str(a["reinforcements"] + 1)]
        if history:
            row.append("retracted" if a["expired_at"] else ("ended" if a["valid_to"] else "current"))
        t.add_row(*map(escape, row))
    return t


def cmd_show(app: Hearth, args: argparse.Namespace) -> int:
    data = _api(app).facts(entity=args.entity, at=args.at, history=args.history)
    arcs = data["facts"]
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    con = Console()
    if not arcs:
        con.print("Nothing remembered" + (f" about {escape(args.entity)}" if args.entity else "") + " yet.")
        return 0
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for a in arcs:
        groups[a["subject"]].append(a)
    when = "history" if args.history else f"true at {_day(data['at'])}"
    for subj, items in groups.items():
        con.print(_arcs_table(f"{subj} — {when}", items, history=args.history))
    return 0


def cmd_forget(app: Hearth, args: argparse.Namespace) -> int:
    given = [x for x in (args.entity, args.arc, args.conversation) if x is not None]
    if len(given) != 1 or not given[0].strip():
        raise InvalidInput("say what to forget: a NAME, --arc ID or --conversation ID (one of them)")
    api = _api(app)  # the store, or the running service that holds it
    if args.arc:
        done = api.forget_fact(args.arc)
    elif args.conversation:
        done = api.forget_conversation(args.conversation)
    else:
        done = api.forget_entity(args.entity)
    report = ForgetReport(**{k: v for k, v in done.items() if k in ForgetReport.__dataclass_fields__})
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        print(report.describe())
    return 0


def cmd_export(app: Hearth, args: argparse.Namespace) -> int:
    sys.stdout.write(_api(app).export(args.format)["text"])
    return 0


def cmd_stats(app: Hearth, args: argparse.Namespace) -> int:
    st = _api(app).stats()
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
