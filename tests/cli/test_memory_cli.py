"""The `assistant` command end to end on a real data dir (in-process, plus a second process for locks)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from assistant.cli import main


def run(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--data-dir", str(data), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_add_show_history_and_at(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, tmp_path, "memory", "add", "Anna", "lives_in", "Porto", "--at", "2026-01-05")[0] == 0
    code, out, _ = run(capsys, tmp_path, "memory", "add", "Anna", "lives_in", "Lisbon", "--at", "2026-03-03")
    assert code == 0 and "closed: Anna lives_in Porto" in out
    _, out, _ = run(capsys, tmp_path, "memory", "show", "Anna", "--json")
    facts = json.loads(out)["facts"]
    assert [(f["object"], f["valid_to"]) for f in facts] == [("Lisbon", None)]
    _, out, _ = run(capsys, tmp_path, "memory", "show", "anna", "--at", "2026-02-01", "--json")
    assert [f["object"] for f in json.loads(out)["facts"]] == ["Porto"]
    _, out, _ = run(capsys, tmp_path, "memory", "show", "Anna", "--history", "--json")
    hist = json.loads(out)["facts"]
    assert [f["object"] for f in hist] == ["Porto", "Lisbon"]
    assert hist[0]["valid_to"].startswith("2026-03-03")
    code, out, _ = run(capsys, tmp_path, "memory", "show", "USER")
    assert code == 0


def test_a_fact_added_with_a_past_date_has_decayed_since_then(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    year_ago = (datetime.now(UTC) - timedelta(days=365)).date().isoformat()
    assert run(capsys, tmp_path, "memory", "add", "user", "likes", "green tea", "--at", year_ago)[0] == 0
    assert run(capsys, tmp_path, "memory", "add", "user", "likes", "coffee")[0] == 0
    _, out, _ = run(capsys, tmp_path, "memory", "show", "user", "--json")
    weight = {f["object"]: f["weight"] for f in json.loads(out)["facts"]}
    assert weight["coffee"] > 0.99  # told just now
    assert weight["green tea"] < 0.5 * weight["coffee"]  # told a year ago: a year of decay


def test_stats_export_and_forget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, tmp_path, "memory", "add", "user", "likes", "O'Brien's stew")
    run(capsys, tmp_path, "memory", "add", "Tom", "friend_of", "user")
    _, out, _ = run(capsys, tmp_path, "memory", "stats", "--json")
    st = json.loads(out)
    assert st["arcs"]["total"] == 2 and st["entities"] == 3 and st["disk_bytes"] > 0
    _, out, _ = run(capsys, tmp_path, "memory", "export", "--format", "json")
    doc = json.loads(out)
    assert len(doc["arcs"]) == 2 and {e["name"] for e in doc["entities"]} >= {"Tom", "O'Brien's stew"}
    _, cypher, _ = run(capsys, tmp_path, "memory", "export", "--format", "cypher")
    assert cypher.count("CREATE (s)-[:ARC") == 2 and "O\\'Brien\\'s stew" in cypher
    code, out, _ = run(capsys, tmp_path, "memory", "forget", "Tom", "--json")
    assert code == 0 and len(json.loads(out)["deleted_arcs"]) == 1
    _, out, _ = run(capsys, tmp_path, "memory", "stats", "--json")
    assert json.loads(out)["arcs"]["total"] == 1


def test_cypher_export_loads_into_a_fresh_graph(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, tmp_path / "a", "memory", "add", "Anna", "lives_in", "Porto", "--at", "2026-01-05")
    run(capsys, tmp_path / "a", "memory", "add", "Anna", "lives_in", "Lisbon", "--at", "2026-03-03")
    _, cypher, _ = run(capsys, tmp_path / "a", "memory", "export", "--format", "cypher")
    from memory.graph import TemporalGraph
    from memory.kglite_store import KgliteStore

    store = KgliteStore(tmp_path / "b" / "g.kgl")
    for stmt in cypher.strip().splitlines()[1:]:  # the constraint header is Neo4j-only DDL
        store.read(stmt.rstrip(";"))
    g = TemporalGraph(store)
    hist = g.history("Anna", "lives_in", now=__import__("datetime").datetime.now(__import__("datetime").UTC))
    assert [a.object for a in hist] == ["Porto", "Lisbon"]
    store.close()


@pytest.mark.parametrize("args, code_word", [
    (["memory", "add", "user", "flies to Mars!", "Mars"], "unknown_relation"),  # flies_to is an open predicate
    (["memory", "add", "", "likes", "tea"], "invalid_input"),
    (["memory", "add", "user", "likes", "tea", "--at", "2999-01-01"], "future"),
    (["memory", "add", "user", "likes", "tea", "--at", "last tuesday"], "cannot read"),
    (["memory", "show", "Nobody"], "not_found"),
    (["memory", "forget", "--arc", "a-nope"], "not_found"),
    (["memory", "forget"], "say what to forget"),
])
def test_bad_input_gives_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                        code_word: str) -> None:
    code, _, err = run(capsys, tmp_path, *args)
    assert code == 2
    assert code_word in err and "Traceback" not in err


def test_bad_config_names_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("memory:\n  decay:\n    rates:\n      durable: -3\n")
    code = main(["--config", str(cfg), "--data-dir", str(tmp_path), "memory", "stats"])
    err = capsys.readouterr().err
    assert code == 2 and "memory -> decay -> rates -> durable" in err


def test_speculating_after_the_end_of_speech_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("audio:\n  end_silence_s: 0.4\n  speculate_after_s: 0.5\n")
    code = main(["--config", str(cfg), "--data-dir", str(tmp_path), "memory", "stats"])
    err = capsys.readouterr().err
    assert code == 2 and "audio" in err and "speculate_after_s (0.5) must be shorter than end_silence_s" in err


def test_store_locked_by_another_process_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        from memory.kglite_store import KgliteStore
        s = KgliteStore(Path({str(tmp_path / 'graph.kgl')!r}))
        print('ready', flush=True)
        time.sleep(30)
    """)], stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        code, _, err = run(capsys, tmp_path, "memory", "stats")
        assert code == 2
        assert "store_locked" in err and f"process {holder.pid}" in err and "kill" in err
    finally:
        holder.kill()
        holder.wait()
    time.sleep(0.1)
    assert run(capsys, tmp_path, "memory", "stats")[0] == 0  # the lease dies with its holder


def test_corrupt_store_is_refused_and_left_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, tmp_path, "memory", "add", "user", "likes", "tea")
    f = tmp_path / "graph.kgl"
    for side in tmp_path.glob("graph.kgl-wal"):
        side.unlink()
    data = bytearray(f.read_bytes())
    data[8:40] = b"\xff" * 32
    f.write_bytes(bytes(data))
    code, _, err = run(capsys, tmp_path, "memory", "stats")
    assert code == 2 and "store_corrupt" in err and "left untouched" in err
    assert f.read_bytes() == bytes(data)


def test_neo4j_down_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("store:\n  backend: neo4j\n  uri: bolt://127.0.0.1:1\n")
    code = main(["--config", str(cfg), "--data-dir", str(tmp_path), "memory", "stats"])
    err = capsys.readouterr().err
    assert code == 2 and "store_unavailable" in err and "127.0.0.1:1" in err and "Traceback" not in err


def test_config_yaml_documents_exactly_the_defaults() -> None:
    from assistant.settings import Settings, load_settings

    assert load_settings(Path(__file__).resolve().parents[2] / "config.yaml") == Settings()


def test_an_audio_error_names_its_code_once_and_a_hint_that_exists(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.cli import build_parser
    from assistant.errors import describe_error
    from audio.errors import DEVICE_HINT, AudioDeviceError

    text = describe_error(AudioDeviceError("device.lost", "microphone lost", hint=DEVICE_HINT))
    assert text.count("device.lost") == 1 and text.startswith("[device.lost] microphone lost")
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert "devices" in commands and "--list-devices" not in DEVICE_HINT
    run_opts = {o for a in commands["run"]._actions for o in a.option_strings}
    assert {"--input-device", "--output-device", "--wav", "--stream"} <= run_opts
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"RIFF\x10\x00\x00\x00WAVEjunk")
    code, out, err = run(capsys, tmp_path, "run", "--stream", str(bad))
    assert code == 2 and err.count("wav.") <= 1 and "bad.wav" in err + out


def test_consolidate_merges_reports_and_undoes_a_merge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, tmp_path, "consolidate", "--report")
    assert code == 0 and "No consolidation has run yet" in out
    run(capsys, tmp_path, "memory", "add", "my sister", "lives_in", "Porto", "--at", "2026-01-05")
    run(capsys, tmp_path, "memory", "add", "Clara", "sister_of", "user", "--at", "2026-02-01")
    code, out, _ = run(capsys, tmp_path, "consolidate")
    assert code == 0 and "merged 1 duplicate(s)" in out
    assert "merged 'my sister' into 'Clara'" in out and "evidence: 'my sister' was learned before a name" in out
    code, out, _ = run(capsys, tmp_path, "consolidate", "--report", "--json")
    [m] = json.loads(out)["merged"]
    assert m["loser"] == "my sister" and m["undone_at"] is None
    _, out, _ = run(capsys, tmp_path, "memory", "show", "Clara", "--json")
    assert [f["object"] for f in json.loads(out)["facts"]] == ["Porto", "User"]
    code, out, _ = run(capsys, tmp_path, "consolidate", "--undo-merge", m["id"])
    assert code == 0 and out.startswith(f"Undid merge {m['id']}: my sister and Clara are two again.")
    _, out, _ = run(capsys, tmp_path, "memory", "show", "my sister", "--json")
    assert [f["object"] for f in json.loads(out)["facts"]] == ["Porto"]
    _, out, _ = run(capsys, tmp_path, "consolidate", "--report")
    assert "(undone 20" in out
    code, _, err = run(capsys, tmp_path, "consolidate", "--undo-merge", m["id"])
    assert code == 2 and "already undone" in err


def test_forgetting_a_merged_name_leaves_no_byte_of_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Merge records, folded copies and reports hold names too: forgetting scrubs them like everything else."""
    from tests.residue import residue

    run(capsys, tmp_path, "memory", "add", "my sister", "lives_in", "Porto", "--at", "2026-01-05")
    run(capsys, tmp_path, "memory", "add", "my sister", "sister_of", "user", "--at", "2026-01-05")
    run(capsys, tmp_path, "memory", "add", "Clarabelle", "sister_of", "user", "--at", "2026-02-01")
    code, out, _ = run(capsys, tmp_path, "consolidate", "--json")
    [m] = json.loads(out)["merged"]
    assert code == 0 and m["survivor"] == "Clarabelle" and m["arcs_folded"] == 1  # sister_of, told twice
    assert residue(tmp_path, "clarabelle")["graph.kgl"] > 0
    code, out, err = run(capsys, tmp_path, "memory", "forget", "Clarabelle")
    assert code == 0, err
    assert sum(residue(tmp_path, "clarabelle").values()) == 0, residue(tmp_path, "clarabelle")
    code, _, err = run(capsys, tmp_path, "consolidate", "--undo-merge", m["id"])
    assert code == 2 and "forgotten" in err  # nothing to split any more
