"""`assistant ask "QUESTION"` (one answer) and `assistant chat` (a typed conversation, learned from afterwards)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime

from rich.console import Console
from rich.markup import escape

from assistant.answer import is_question
from assistant.compose import Hearth
from hearth_errors import HearthError
from memory.learning import LearnResult
from memory.llm import Message
from memory.text import describe_bad_char
from memory.transcripts import Turn


def register(sub: argparse._SubParsersAction) -> None:
    a = sub.add_parser("ask", help="ask one question and get one answer from memory")
    a.add_argument("question")
    a.add_argument("--at", help="answer as if it were this time (ISO-8601): facts true then, as known then")
    a.add_argument("--json", action="store_true", help="answer, facts given to the model, cypher, timings")
    a.set_defaults(handler=cmd_ask)

    c = sub.add_parser("chat", help="talk by typing; the conversation is remembered and learned from")
    c.add_argument("--no-learn", action="store_true", help="don't learn from this conversation")
    c.set_defaults(handler=cmd_chat)


def cmd_ask(app: Hearth, args: argparse.Namespace) -> int:
    from assistant.service.client import open_api  # the store, or the running service that holds it

    ans = open_api(app).ask(args.question, at=args.at)
    if args.json:
        print(json.dumps(ans, ensure_ascii=False))
    else:
        print(ans["answer"])
    return 0


def cmd_chat(app: Hearth, args: argparse.Namespace) -> int:
    con = Console()
    interactive = sys.stdin.isatty()
    started = app.now()
    cid = f"chat-{started.strftime('%Y%m%dT%H%M%S')}"
    turns: list[Turn] = []
    history: list[Message] = []
    con.print("[dim]Talk to Hearth. An empty line or Ctrl-D ends the conversation.[/]")
    if not args.no_learn and app.transcripts.pending_conversations():
        with con.status("learning what an earlier session left unlearned…"):
            for r in app.learner().learn_pending():
                con.print(f"[dim]learned {escape(r.conversation)} (left pending): {len(r.changes)} change(s)[/]")
    if interactive:
        with con.status("starting the language model…"):
            app.pipeline.warm_up()
    try:
        while True:
            try:
                line = input("you> " if interactive else "")
            except EOFError:
                break
            if not line.strip() or line.strip().lower() in ("/quit", "/bye", "bye", "goodbye"):
                break
            if (problem := describe_bad_char(line)) is not None:  # nothing of it is answered or stored
                con.print(f"[red]that line is not valid Unicode ({problem}); please type it again[/]")
                continue
            t_user = app.now()
            t0 = time.perf_counter()
            # written before answering: what was just said is an episode the next question can find,
            # and Ctrl-C loses no turn
            stored = app.transcripts.add_turns([Turn(cid, t_user, "user", line.strip())], source="chat")
            turns += stored
            pieces, ans = app.pipeline.stream(line, now=t_user, history=history)
            con.print("hearth> ", end="")
            text = ""
            for p in pieces:
                text += p
                con.print(p, end="", soft_wrap=True, highlight=False, markup=False)
            con.print()
            from assistant.answer import speakable

            text = speakable(text)
            timings = ans.timings_ms | {"total": round((time.perf_counter() - t0) * 1000, 2)}
            if stored:
                app.transcripts.set_timings(cid, stored[0].idx, timings)
            turns += app.transcripts.add_turns([Turn(cid, _after(t_user, app.now()), "assistant", text)],
                                               source="chat")
            history += [{"role": "user", "content": line.strip()}, {"role": "assistant", "content": text}]
            if not args.no_learn and not is_question(line):
                _learn_now(app, cid, con)
    except KeyboardInterrupt:
        con.print("\n[dim]stopped; what was said is kept[/]")
    if not turns:
        return 0
    if args.no_learn:
        return 0
    with con.status("learning from this conversation…"):
        result = app.learner().learn(cid)
    _show_learned(con, result, notes=True)
    return 0


def _learn_now(app: Hearth, cid: str, con: Console) -> None:
    """What was just told is learned at once, after the reply ("I've stopped going to the food bank", then "Where
    do I volunteer?" in the same conversation had still been answered "The food bank."). Learning takes only the
    turns not learned yet; one that fails is learned again when the conversation ends."""
    try:
        result = app.learner().learn(cid, check=False)  # older facts are checked when the conversation ends
    except HearthError as e:
        con.print(f"[yellow]note:[/] could not learn that yet ({escape(str(e))}); it is kept and tried again")
        return
    _show_learned(con, result, notes=False)  # mid-conversation, the changes only


def _show_learned(con: Console, result: LearnResult, *, notes: bool) -> None:
    for c, _, _ in result.changes:
        con.print(f"[dim]learned:[/] {escape(c.describe())}")
    for n in result.notes if notes else ():
        con.print(f"[yellow]note:[/] {escape(n)}")


def _after(a: datetime, b: datetime) -> datetime:
    from datetime import timedelta

    return b if b > a else a + timedelta(milliseconds=1)
