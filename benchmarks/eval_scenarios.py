"""Run the belief-update scenarios end to end and score them (graph memory vs a BM25 baseline).

    .venv/bin/python benchmarks/eval_scenarios.py ../shared/eval/belief-updates.jsonl [--cli] [--no-llm]

Each scenario runs on a fresh data dir: ingest each conversation in order, then ask the probes that
follow it at their time. --cli goes through `assistant ingest` and `assistant ask --json` (subprocesses,
one shared bundled LLM server via the OpenAI-compatible config); the default runs the same pipeline in
process, which is faster to iterate on.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.progress import Progress  # noqa: E402


@dataclass
class ProbeResult:
    scenario: str
    question: str
    at: str
    answer: str
    expect_ok: bool
    stale_ok: bool
    facts: list[dict[str, Any]] = field(default_factory=list)
    ms: float = 0.0
    file: str = ""  # the set the scenario came from (sets reuse scenario ids)

    @property
    def ok(self) -> bool:
        return self.expect_ok and self.stale_ok


def check(probe: dict[str, Any], answer: str, facts: list[dict[str, Any]]) -> tuple[bool, bool]:
    """The scoring rules of shared/eval/README.md."""
    low = answer.lower()
    expect = [e.lower() for e in probe.get("expect", [])]
    stale = [s.lower() for s in probe.get("stale", [])]
    expect_ok = any(e in low for e in expect) if expect else not any(s in low for s in stale)
    subject = (probe.get("subject") or "").lower()
    rels = [r.lower() for r in probe.get("rel") or []]
    current = [f for f in facts if f.get("valid_to") is None]
    if subject:
        def about(f: dict[str, Any]) -> bool:
            subj = (f.get("subject") or "").lower()
            return subj == subject or (subject == "user" and f.get("subject_is_user", False)) or \
                (subject == "user" and subj in ("user", "you", "me"))
        current = [f for f in current if about(f) and (not rels or any(r in f["relation"] for r in rels))]
    stale_ok = not any(s in (f.get("object") or "").lower() for f in current for s in stale)
    return expect_ok, stale_ok


def turns_jsonl(conv: dict[str, Any]) -> str:
    return "".join(json.dumps({"conversation": conv["id"], **t}) + "\n" for t in conv["turns"])


class InProcess:
    def __init__(self, data: Path, use_llm: bool, llm: Any, method: str = "grounded",
                 learn_rules: bool = False) -> None:
        from assistant.compose import Hearth
        from assistant.settings import Settings

        s = Settings.model_validate({"extraction": {"use_llm": use_llm and not learn_rules, "method": method,
                                                    "check_changes": llm is not None},
                                     "recall": {"generated_cypher": "fallback" if use_llm else "off"}})
        self.app = Hearth(s, data)
        if llm is not None:
            self.app.__dict__["llm"] = llm
        else:
            from memory.llm import LLMUnavailable

            def down() -> Any:
                raise LLMUnavailable("no LLM in this run")
            self.app.pipeline._llm = down

    def ingest(self, conv: dict[str, Any]) -> None:
        from memory.exchange import parse_jsonl

        turns = parse_jsonl(turns_jsonl(conv).splitlines()).turns
        self.app.learner().ingest(turns, source="eval")

    def ask(self, q: str, at: str) -> dict[str, Any]:
        from assistant.pipeline import answer_json
        from memory.timeutil import parse_time

        ans = self.app.pipeline.answer(q, now=parse_time(at))
        out = answer_json(ans)
        if ans.recall:
            for f, a in zip(out["facts"], ans.recall.facts, strict=True):
                f["subject_is_user"] = a.subject_id == "user"
        return out

    def close(self) -> None:
        self.app.close()


class ViaCli:
    def __init__(self, data: Path, config: Path | None, use_llm: bool) -> None:
        self.base = [str(ROOT / ".venv" / "bin" / "assistant"), "--data-dir", str(data)]
        if config:
            self.base += ["--config", str(config)]
        self.data, self.use_llm = data, use_llm

    def _run(self, *args: str) -> str:
        p = subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            raise RuntimeError(f"assistant {' '.join(args[:2])} failed: {p.stderr.strip()[-500:]}")
        return p.stdout

    def ingest(self, conv: dict[str, Any]) -> None:
        f = self.data / f"{conv['id']}.jsonl"
        self.data.mkdir(parents=True, exist_ok=True)
        f.write_text(turns_jsonl(conv))
        self._run("ingest", str(f), "--json", *([] if self.use_llm else ["--no-llm"]))

    def ask(self, q: str, at: str) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(self._run("ask", q, "--at", at, "--json"))
        for f in out["facts"]:
            f["subject_is_user"] = f["subject"].lower() in ("user",)
        return out

    def close(self) -> None:
        pass


def run_scenario(sc: dict[str, Any], runner: Any, progress: Progress, task: Any) -> list[ProbeResult]:
    results = []
    for conv in sc["conversations"]:
        runner.ingest(conv)
        progress.advance(task)
        for p in (p for p in sc["probes"] if p["after"] == conv["id"]):
            t0 = time.perf_counter()
            out = runner.ask(p["question"], p["at"])
            e_ok, s_ok = check(p, out["answer"], out["facts"])
            results.append(ProbeResult(sc["id"], p["question"], p["at"], out["answer"], e_ok, s_ok,
                                       out["facts"], (time.perf_counter() - t0) * 1000, sc.get("_file", "")))
            progress.advance(task)
    return results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--cli", action="store_true", help="through the assistant command (subprocesses)")
    ap.add_argument("--no-llm", action="store_true", help="spaCy rules and template answers only")
    ap.add_argument("--only", help="run only scenarios whose id contains this")
    ap.add_argument("--show", action="store_true", help="print every probe")
    ap.add_argument("--json-out", help="write per-probe results here")
    ap.add_argument("--baseline", action="store_true", help="the BM25 retrieval baseline (k=3) instead of the graph")
    ap.add_argument("--method", choices=("grounded", "choose"), default="grounded",
                    help="extraction.method for the in-process run")
    ap.add_argument("--learn-rules", action="store_true",
                    help="learn with the rules only (the default extraction.use_llm: false); the model still answers")
    args = ap.parse_args()
    con = Console()
    scenarios = [json.loads(line) | {"_file": Path(f).name} for f in args.files
                 for line in Path(f).read_text().splitlines() if line.strip()]
    if args.only:
        scenarios = [s for s in scenarios if args.only in s["id"]]
    llm, close_llm, config = None, None, None
    tmp = Path(tempfile.mkdtemp(prefix="hearth-eval-"))
    if not args.no_llm:
        from assistant.compose import default_cache_dir
        from assistant.llm import start_llm

        # one shared, kept-warm server: concurrent benchmark runs queue on it instead of fighting for cores
        llm, close_llm = start_llm("bundled", models_dir=Path(os.environ.get(
            "HEARTH_MODELS_DIR", str(Path.home() / ".local/share/hearth/models"))), logs_dir=tmp / "logs",
            keep_alive_s=600, run_dir=default_cache_dir() / "run", timeout_s=300)
        if args.cli:
            config = tmp / "config.yaml"
            config.write_text(f"llm:\n  provider: openai\n  base_url: {llm.base_url}\n  model: qwen2.5-coder-1.5b\n"
                              "  api_key_env: null\n")
    results: list[ProbeResult] = []
    t_start = time.perf_counter()
    try:
        total = sum(len(s["conversations"]) + len(s["probes"]) for s in scenarios)
        with Progress(console=con) as progress:
            task = progress.add_task("scenarios", total=total)
            for n, sc in enumerate(scenarios):
                data = tmp / f"{n:03d}-{sc['id']}"  # its own: sets reuse ids, and a shared dir leaks memories
                if args.baseline:
                    from benchmarks.bm25 import BM25Baseline

                    runner: Any = BM25Baseline(llm)
                elif args.cli:
                    runner = ViaCli(data, config, not args.no_llm)
                else:
                    runner = InProcess(data, not args.no_llm, llm, args.method, learn_rules=args.learn_rules)
                try:
                    results += run_scenario(sc, runner, progress, task)
                finally:
                    runner.close()
    finally:
        if close_llm:
            close_llm()
    by: dict[str, list[ProbeResult]] = {}
    for r in results:
        by.setdefault(r.scenario, []).append(r)
    for sid, rs in by.items():
        con.print(f"[bold]{sid}[/]: {sum(r.ok for r in rs)}/{len(rs)} probes correct")
        for r in rs:
            if args.show or not r.ok:
                mark = "[green]ok[/]" if r.ok else f"[red]FAIL[/] (expect {r.expect_ok}, stale {r.stale_ok})"
                con.print(f"  {mark} {r.question} @ {r.at[:10]} -> {r.answer}")
                if not r.ok:
                    cur = [f"{f['subject']} {f['relation']} {f['object']}" + ("" if f["valid_to"] is None else
                           f" (until {f['valid_to'][:10]})") for f in r.facts]
                    con.print(f"     facts: {cur}")
    n_ok = sum(r.ok for r in results)
    con.print(f"\n[bold]total: {n_ok}/{len(results)} = {100 * n_ok / max(1, len(results)):.1f}%[/] "
              f"in {time.perf_counter() - t_start:.0f} s ({'cli' if args.cli else 'in-process'}, "
              f"{'no LLM' if args.no_llm else 'bundled LLM'}{', BM25 baseline' if args.baseline else ''})")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps([r.__dict__ | {"ok": r.ok} for r in results], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
