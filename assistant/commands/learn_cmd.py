"""`assistant ingest FILE.jsonl` (store and learn from transcripts) and `assistant transcripts`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress

from assistant.compose import Hearth
from memory.errors import InvalidInput
from memory.exchange import parse_jsonl
from memory.learning import LearnResult


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ingest", help="store conversations from a JSONL file and learn from them")
    p.add_argument("file", help='JSONL: {"conversation","at","speaker","text"} per line ("-" for stdin)')
    p.add_argument("--no-llm", action="store_true", help="learn with the spaCy rules only")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_ingest)

    t = sub.add_parser("transcripts", help="review conversations and what was learned from them")
    t.add_argument("conversation", nargs="?", help="show one conversation with its changes")
    t.add_argument("--export", action="store_true", help="print all turns as JSONL (the ingest format)")
    t.add_argument("--json", action="store_true")
    t.set_defaults(handler=cmd_transcripts)


def _read(path: str) -> tuple[list[str], str]:
    if path == "-":
        raw = getattr(sys.stdin, "buffer", None)  # bytes, so undecodable input is refused, not smuggled in
        return (_lines(raw.read(), "stdin") if raw is not None else sys.stdin.read().split("\n")), "stdin"
    p = Path(path)
    try:
        return _lines(p.read_bytes(), str(p)), str(p)
    except FileNotFoundError:
        raise InvalidInput(f"no such file: {p}") from None
    except IsADirectoryError:
        raise InvalidInput(f"{p} is a directory, not a JSONL file") from None
    except OSError as e:
        raise InvalidInput(f"cannot read {p}: {e.strerror}") from None


def _lines(data: bytes, name: str) -> list[str]:
    """Lines split on "\n" only: U+2028 and friends are valid inside a JSON string (our own export writes them)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InvalidInput(f"{name} is not UTF-8 text (line {line}: byte 0x{data[e.start]:02x})",
                           hint="save it as UTF-8; nothing was ingested") from None
    return text.removeprefix("\ufeff").split("\n")


def cmd_ingest(app: Hearth, args: argparse.Namespace) -> int:
    lines, source = _read(args.file)
    parsed = parse_jsonl(lines, source=source, now=app.now())
    err = Console(stderr=True)
    for w in parsed.warnings:
        err.print(f"[yellow]warning:[/] {escape(w)}")
    learner = app.learner(use_llm=False if args.no_llm else None)
    convs = list(dict.fromkeys(t.conversation for t in parsed.turns))
    results: list[LearnResult] = learner.learn_pending()  # left half-done by an earlier run
    with Progress(console=err, transient=True, disable=args.json or len(convs) < 2) as progress:
        task = progress.add_task("learning", total=len(convs))
        for cid in convs:
            results += learner.ingest([t for t in parsed.turns if t.conversation == cid], source=source)
            progress.advance(task)
    if args.json:
        print(json.dumps({"conversations": [r.to_json() for r in results], "warnings": parsed.warnings},
                         ensure_ascii=False))
        return 0
    con = Console()
    for r in results:
        if r.skipped:
            con.print(f"[dim]{escape(r.conversation)}: already ingested, nothing changed[/]")
            continue
        con.print(f"[bold]{escape(r.conversation)}[/] (learned with {r.method}):")
        for c, _, _ in r.changes:
            colour = {"added": "green", "reinforced": "cyan", "closed": "yellow", "retracted": "red"}.get(c.kind, "")
            con.print(f"  [{colour}]{c.kind:>10}[/] {escape(f'{c.subject} {c.relation} {c.object}')}"
                      + (f" [dim]({escape(c.reason)})[/]" if c.reason else ""))
        if not r.changes:
            con.print("  nothing new")
        for n in r.notes:
            con.print(f"  [yellow]note:[/] {escape(n)}")
    return 0


def cmd_transcripts(app: Hearth, args: argparse.Namespace) -> int:
    from assistant.service.client import open_api  # the store, or the running service that holds it

    api = open_api(app)
    if args.export:
        sys.stdout.write(api.export_transcripts()["jsonl"])
        return 0
    con = Console()
    if args.conversation:
        conv = api.conversation(args.conversation)
        turns = [{k: v for k, v in t.items() if k != "idx"} for t in conv["turns"]]
        changes = [{k: v for k, v in c.items() if k != "arc"} for c in conv["changes"]]
        if args.json:
            print(json.dumps({"id": conv["id"], "turns": turns, "changes": changes}, ensure_ascii=False))
            return 0
        for t in conv["turns"]:
            con.print(f"[dim]{t['at']}[/] [bold]{escape(t['speaker'])}[/]: {escape(t['text'])}")
            for c in (c for c in changes if c["turn_idx"] == t["idx"]):
                con.print(f"    [cyan]→ {c['kind']}[/] " + escape(f"{c['subject']} {c['relation']} {c['object']}"))
        return 0
    keys = ("id", "started_at", "ended_at", "turns", "changes", "learn_status")
    rows = [{k: r[k] for k in keys} for r in api.conversations(limit=50)["conversations"]]
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        con.print(f"{escape(r['id'])}  {r['started_at']}  {r['turns']} turns, {r['changes']} changes  "
                  f"[dim]{r['learn_status'] or 'not learned'}[/]")
    if not rows:
        con.print("No conversations yet.")
    return 0
