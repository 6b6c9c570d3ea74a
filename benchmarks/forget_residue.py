"""Residue after `memory forget`: a larger data dir, forgotten by name and by conversation, read as raw bytes.

    .venv/bin/python benchmarks/forget_residue.py [--conversations 400] [--every 7]

Builds a data dir through the real CLI (kglite + SQLite, rules-only learning): N conversations about
people, homes and jobs, every ``--every``-th one mentioning Lisbon (in the user's words, the assistant's
reply and, once, the conversation's id), one mentioning Reykjavik. Then `memory forget Lisbon` and
`memory forget --conversation` the Reykjavik one. Printed: the size of the data dir, the occurrences of
each name in every file before and after (kglite's zstd sections decompressed), and each forget's time.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.cli import main
from tests.residue import residue

DOWN = ("llm:\n  provider: openai\n  base_url: http://127.0.0.1:9/v1\n  api_key_env: null\n"
        "  timeout_s: 2\n  retries: 0\n")
NAMES = ["Anna", "Felix", "Mara", "Jonas", "Lea", "Tomas", "Ines", "Pavel", "Sofia", "Karim"]
PLACES = ["Ghent", "Porto", "Utrecht", "Leeds", "Bergen", "Lyon", "Graz", "Turin"]
ORGS = ["Brightwave", "Northwind", "Acme", "Globex", "Initech", "Umbrella"]


def rows(n: int, every: int) -> list[dict[str, str]]:
    t0 = datetime(2025, 1, 1, 9, tzinfo=UTC)
    out: list[dict[str, str]] = []
    for i in range(n):
        who, at = NAMES[i % len(NAMES)], t0 + timedelta(hours=6 * i)
        place = "Lisbon" if i % every == 0 else PLACES[i % len(PLACES)]
        if i == 1:
            place = "Reykjavik"
        cid = "lisbon-weekend" if i == every else f"c{i:04d}"
        said = [f"My friend {who} lives in {place}. {who} works at {ORGS[i % len(ORGS)]}.",
                f"{place} is where we met."]
        out.append({"conversation": cid, "at": at.isoformat(), "speaker": "user", "text": said[0]})
        out.append({"conversation": cid, "at": (at + timedelta(seconds=20)).isoformat(), "speaker": "assistant",
                    "text": f"Noted: {who} in {place}."})
        out.append({"conversation": cid, "at": (at + timedelta(seconds=40)).isoformat(), "speaker": "user",
                    "text": said[1]})
    return out


def cli(cfg: Path, data: Path, *args: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        code = main(["--config", str(cfg), "--data-dir", str(data), *args])
    if code != 0:
        raise SystemExit(f"assistant {' '.join(args)} failed with {code}")
    return buf.getvalue()


def main_() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--conversations", type=int, default=400)
    ap.add_argument("--every", type=int, default=7)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        cfg = base / "config.yaml"
        cfg.write_text(DOWN)
        data = base / "d"
        src = base / "t.jsonl"
        src.write_text("".join(json.dumps(r) + "\n" for r in rows(a.conversations, a.every)))
        t = time.perf_counter()
        cli(cfg, data, "ingest", str(src), "--no-llm", "--json")
        print(f"ingested {a.conversations} conversations in {time.perf_counter() - t:.1f} s")
        stats = json.loads(cli(cfg, data, "memory", "stats", "--json"))
        print(f"graph: {stats['entities']} entities, {stats['arcs']['total']} arcs; data dir "
              f"{sum(p.stat().st_size for p in data.rglob('*') if p.is_file()) / 1024:.0f} KiB")
        for word, args in (("lisbon", ("memory", "forget", "Lisbon", "--json")),
                           ("reykjavik", ("memory", "forget", "--conversation", "c0001", "--json"))):
            before = residue(data, word)
            t = time.perf_counter()
            rep = json.loads(cli(cfg, data, *args))
            took = time.perf_counter() - t
            after = residue(data, word)
            print(f"{' '.join(args[:-1])}: {took:.2f} s; {word!r} before {sum(before.values())} "
                  f"({', '.join(f'{k} {v}' for k, v in before.items() if v)}), after {sum(after.values())}; "
                  f"arcs deleted {len(rep['deleted_arcs'])}, turns redacted {rep['turns_redacted']}, "
                  f"deleted {rep['turns_deleted']}")
            if sum(after.values()):
                raise SystemExit(f"residue left: {after}")


if __name__ == "__main__":
    main_()
