"""While `assistant serve` holds the store, the CLI goes through its API and prints what it prints alone."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from tests.cli_support import run
from tests.service.serving import serving

COMMANDS = [
    ("memory", "show", "Felix", "--history"),
    ("memory", "show", "Felix", "--at", "2026-02-01"),
    ("memory", "show", "Anna", "--json"),
    ("transcripts",),
    ("transcripts", "--json"),
    ("transcripts", "c3"),
    ("transcripts", "c2", "--json"),
    ("ask", "Where does Felix live?", "--at", "2026-04-03T09:00:00Z"),
    ("memory", "export"),
    ("memory", "export", "--format", "cypher"),
    ("memory", "stats", "--json"),
    ("transcripts", "--export"),
]


def _stable(args: tuple[str, ...], out: str) -> str:
    if "--json" in args and args[:2] == ("memory", "show"):
        return json.dumps(json.loads(out)["facts"])  # "at" is the moment asked: now
    if args[:2] == ("memory", "stats"):
        return json.dumps({k: v for k, v in json.loads(out).items() if k != "disk_bytes"})  # log not yet saved
    return out


def test_same_output_through_the_service_and_writes_land(data_dir: Path, config_file: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    alone = {args: run(capsys, config_file, data_dir, *args) for args in COMMANDS}
    assert all(code == 0 for code, _, _ in alone.values()), alone
    assert run(capsys, config_file, data_dir, "consolidate")[0] == 0
    with serving(data_dir, config_file) as info:
        code, out, _ = run(capsys, config_file, data_dir, "doctor", "--json")
        checks = {c["check"]: c for c in json.loads(out)}
        assert checks["graph store"]["ok"] and f"held by the service (process {info['pid']})" in checks[
            "graph store"]["detail"]
        assert checks["service"]["ok"] and f"process {info['pid']} at http://127.0.0.1:" in checks["service"]["detail"]
        assert "last consolidation 20" in checks["service"]["detail"]
        mode = stat.S_IMODE(os.stat(data_dir / "service.json").st_mode)
        assert mode == 0o600 and info["pid"] > 0
        for args in COMMANDS:
            code, out, err = run(capsys, config_file, data_dir, *args)
            assert code == 0, err
            assert _stable(args, out) == _stable(args, alone[args][1]), args
        # errors come back with the same code and hint
        code, _, err = run(capsys, config_file, data_dir, "memory", "show", "Nobody")
        assert code == 2 and "[not_found] nothing in memory is called 'Nobody'" in err and "hint:" in err
        code, out, _ = run(capsys, config_file, data_dir, "memory", "forget", "Felix")
        # through the service too, forget is complete: the facts, the entity and its name in the transcripts
        assert code == 0 and out.startswith("Forgot Felix: 4 fact(s) deleted, 1 entity deleted")
        assert "turn(s) redacted" in out
        code, _, err = run(capsys, config_file, data_dir, "memory", "show", "Felix")
        assert code == 2 and "not_found" in err
        code, out, _ = run(capsys, config_file, data_dir, "memory", "add", "Anna", "likes", "figs", "--json")
        assert code == 0 and json.loads(out)[0]["kind"] == "added"
        # ingest opens the store itself (learning through the service is the next step): refused, holder named
        f = data_dir.parent / "more.jsonl"
        f.write_text(json.dumps({"conversation": "c9", "at": "2026-06-01T10:00:00Z", "speaker": "user",
                                 "text": "I like figs."}) + "\n")
        code, _, err = run(capsys, config_file, data_dir, "ingest", str(f), "--no-llm")
        assert code == 2 and "store_locked" in err and f"process {info['pid']}" in err
    code, out, _ = run(capsys, config_file, data_dir, "memory", "show", "Anna", "--json")
    assert code == 0 and "figs" in {f["object"] for f in json.loads(out)["facts"]}
    assert run(capsys, config_file, data_dir, "memory", "show", "Felix")[0] == 2


def test_a_second_service_on_the_same_memory_is_refused(data_dir: Path, config_file: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    with serving(data_dir, config_file) as info:
        code, _, err = run(capsys, config_file, data_dir, "serve", "--port", "0")
        assert code == 2 and "store_locked" in err and f"process {info['pid']}" in err
        assert json.loads((data_dir / "service.json").read_text())["pid"] == info["pid"]  # left alone


def test_consolidate_report_and_undo_go_through_the_service(data_dir: Path, config_file: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, config_file, data_dir, "memory", "add", "my brother", "likes", "chess")
    with serving(data_dir, config_file):
        code, out, err = run(capsys, config_file, data_dir, "consolidate", "--json")
        assert code == 0, err
        [m] = json.loads(out)["merged"]
        assert (m["loser"], m["survivor"]) == ("my brother", "Felix")  # the brother of c1, named
        code, out, _ = run(capsys, config_file, data_dir, "consolidate", "--report")
        assert code == 0 and f"merged 'my brother' into 'Felix' [{m['id']}] by placeholder" in out
        code, out, _ = run(capsys, config_file, data_dir, "consolidate", "--undo-merge", m["id"])
        assert code == 0 and "two again" in out
    code, out, _ = run(capsys, config_file, data_dir, "memory", "show", "my brother", "--json")
    assert code == 0 and [f["object"] for f in json.loads(out)["facts"]] == ["chess"]
