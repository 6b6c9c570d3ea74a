"""Peak RSS of the whole assistant (`assistant run --wav` + its LLM server) over a short spoken conversation.

    python benchmarks/pi_rss.py --model qwen2.5-coder-0.5b --out /tmp/pi-rss

Speaks the demo's lines with piper, runs them through `assistant run --wav` on a fresh data dir (Pi profile
settings, the LLM server private to this run and stopped at exit), and samples /proc every 0.2 s: the
assistant process and every process whose command line names the data dir (the LLM server).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mib(pid: int) -> float:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE / 2**20
    except (OSError, IndexError, ValueError):
        return 0.0


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def descendants(root: int) -> list[int]:
    """Every process below ``root`` (not ``root`` itself: that is /usr/bin/time)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int(d.joinpath("stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d.name))
    out, todo = [], list(children.get(root, []))
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--context", type=int, default=4096)
    a = ap.parse_args()
    out = a.out / a.model
    data = out / "data"
    wavs = a.out / "wavs"
    if not wavs.is_dir():
        from assistant.demo_voice import SCRIPT, speak_lines

        tmp = a.out / "wavs.tmp"
        tmp.mkdir(parents=True, exist_ok=True)
        speak_lines(SCRIPT[0] + SCRIPT[1][:2], tmp)
        tmp.rename(wavs)  # whole or not at all
    files = sorted(str(p) for p in wavs.glob("user-*.wav"))
    out.mkdir(parents=True, exist_ok=True)
    cfg = out / "config.yaml"
    cfg.write_text(f"llm:\n  bundled_model: {a.model}\n  threads: {a.threads}\n  context: {a.context}\n"
                   "  keep_alive_s: 0\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(out / "cache")}  # no sharing of another run's LLM server
    exe = Path(sys.executable).parent / "assistant"
    cmd = ["/usr/bin/time", "-v", str(exe), "--config", str(cfg), "--data-dir", str(data), "run", "--wav", *files,
           "--out-dir", str(out / "replies"), "--json"]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peaks = {"assistant": 0.0, "llm_server": 0.0, "total": 0.0}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            tree = descendants(proc.pid)  # the assistant, its LLM server and any other child
            server = [p for p in tree if "assistant.llm.serve" in cmdline(p)]
            m = sum(rss_mib(p) for p in tree if p not in server)
            s = sum(rss_mib(p) for p in server)
            peaks["assistant"] = max(peaks["assistant"], m)
            peaks["llm_server"] = max(peaks["llm_server"], s)
            peaks["total"] = max(peaks["total"], m + s)
            done.wait(0.2)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    stdout, stderr = proc.communicate()
    done.set()
    th.join()
    max_rss = next((int(line.split(":")[1]) / 1024 for line in stderr.splitlines()
                    if "Maximum resident set size" in line), None)
    disk = sum(f.stat().st_size for f in data.rglob("*") if f.is_file()) / 2**20
    result = {"model": a.model, "threads": a.threads, "context": a.context, "turns": len(files),
              "rc": proc.returncode, "wall_s": round(time.monotonic() - t0, 1),
              "peak_rss_mib": {k: round(v) for k, v in peaks.items()},
              "time_v_max_rss_assistant_mib": round(max_rss) if max_rss else None,
              "data_dir_mib": round(disk)}
    (out / "stdout.json").write_text(stdout)
    (out / "stderr.txt").write_text(stderr)
    print(json.dumps(result))
    return 0 if proc.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
