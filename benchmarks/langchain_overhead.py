"""What LangChain costs per LLM call: LangChainChat vs the direct openai client (OpenAIChat).

Both talk to the same fake OpenAI-compatible server, in its own process, that answers at once with canned
bodies, so what is timed is the client libraries, not a model. The two clients alternate call by call (the
same server state, the same machine load for both); reported per kind of call: median and p95 of each
client's latency and of the paired difference (LangChain minus openai) — the overhead. Also the import time
of each path, in fresh interpreters.

    PYTHONPATH=. .venv/bin/python benchmarks/langchain_overhead.py [--calls 300] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SCHEMA = {
    "title": "Fact",
    "type": "object",
    "properties": {
        "subject": {"type": "string"},
        "relation": {"type": "string", "enum": ["lives_in", "works_at", "sister_of", "likes"]},
        "object": {"type": "string"},
    },
    "required": ["subject", "relation", "object"],
    "additionalProperties": False,
}
MESSAGES = [
    {"role": "system", "content": "You extract one fact from the user's sentence as JSON. " * 20},
    {"role": "user", "content": "My sister Anna moved to Lisbon last spring."},
]
REPLY = '{"subject":"Anna","relation":"lives_in","object":"Lisbon"}'
PIECES = ["Anna", " lives", " in", " Lisbon", " now", "."]


def _bodies() -> tuple[bytes, bytes]:
    whole = json.dumps({
        "id": "x", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": REPLY}}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70},
    }).encode()
    events = [{"role": "assistant", "content": ""}] + [{"content": p} for p in PIECES]
    sse = b""
    for i, delta in enumerate([*events, {}]):
        chunk = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m",
                 "choices": [{"index": 0, "delta": delta, "finish_reason": "stop" if i == len(events) else None}]}
        sse += f"data: {json.dumps(chunk)}\n\n".encode()
    return whole, sse + b"data: [DONE]\n\n"


def serve(port_out: Any) -> None:
    """The fake server (child process): canned replies over keep-alive HTTP/1.1, like llama.cpp's."""
    whole, sse = _bodies()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms delayed-ACK stall

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            stream = b'"stream": true' in body or b'"stream":true' in body
            payload = sse if stream else whole
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream" if stream else "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port_out.put(httpd.server_address[1])
    httpd.serve_forever()


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def summary(xs: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(xs) * 1000, 3), "p95_ms": round(percentile(xs, 0.95) * 1000, 3)}


def bench(calls: int, warmup: int) -> dict[str, Any]:
    from assistant.llm import make_client

    q: Any = mp.get_context("fork").Queue()
    server = mp.get_context("fork").Process(target=serve, args=(q,), daemon=True)
    server.start()
    base_url = f"http://127.0.0.1:{q.get(timeout=30)}/v1"
    clients = {name: {flag: make_client(name, base_url, "m", api_key="k", timeout_s=10, llama_cpp=flag)  # type: ignore[arg-type]
                      for flag in (True, False)} for name in ("openai", "langchain")}
    kinds: dict[str, Callable[[Any], object]] = {
        "complete": lambda c: c[True].complete(MESSAGES, max_tokens=64),
        "structured (bundled: grammar)": lambda c: c[True].complete(MESSAGES, json_schema=SCHEMA, max_tokens=64),
        "structured (response_format)": lambda c: c[False].complete(MESSAGES, json_schema=SCHEMA, max_tokens=64),
        "stream (whole answer)": lambda c: "".join(c[True].stream(MESSAGES, max_tokens=64)),
    }
    out: dict[str, Any] = {}
    try:
        for kind, call in kinds.items():
            times: dict[str, list[float]] = {"openai": [], "langchain": []}
            cpu: dict[str, list[float]] = {"openai": [], "langchain": []}
            first_piece: dict[str, list[float]] = {"openai": [], "langchain": []}
            for i in range(warmup + calls):
                order = ("openai", "langchain") if i % 2 else ("langchain", "openai")
                for name in order:
                    c0 = time.thread_time()
                    t0 = time.perf_counter()
                    if kind.startswith("stream"):
                        it = clients[name][True].stream(MESSAGES, max_tokens=64)
                        next(it)
                        t1 = time.perf_counter()
                        "".join(it)
                    else:
                        call(clients[name])
                    t2 = time.perf_counter()
                    c2 = time.thread_time()
                    if i >= warmup:
                        times[name].append(t2 - t0)
                        cpu[name].append(c2 - c0)
                        if kind.startswith("stream"):
                            first_piece[name].append(t1 - t0)
            diff = [a - b for a, b in zip(times["langchain"], times["openai"], strict=True)]
            cdiff = [a - b for a, b in zip(cpu["langchain"], cpu["openai"], strict=True)]
            out[kind] = {"openai": summary(times["openai"]), "langchain": summary(times["langchain"]),
                         "overhead": summary(diff), "cpu_openai": summary(cpu["openai"]),
                         "cpu_langchain": summary(cpu["langchain"]), "cpu_overhead": summary(cdiff)}
            if kind.startswith("stream"):
                fdiff = [a - b for a, b in zip(first_piece["langchain"], first_piece["openai"], strict=True)]
                out["stream (first piece)"] = {"openai": summary(first_piece["openai"]),
                                               "langchain": summary(first_piece["langchain"]),
                                               "overhead": summary(fdiff)}
    finally:
        for pair in clients.values():
            for c in pair.values():
                c.close()
        server.terminate()
    return out


def import_times(runs: int) -> dict[str, float]:
    """Median wall time of a fresh interpreter importing each path's modules and building a client."""
    code = {
        "python only": "pass",
        "openai": "from assistant.llm import make_client; make_client('openai', 'http://127.0.0.1:9/v1', 'm')",
        "langchain": "from assistant.llm import make_client; make_client('langchain', 'http://127.0.0.1:9/v1', 'm')",
        "langchain init_chat_model": "from langchain.chat_models import init_chat_model",
    }
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    out = {}
    for name, src in code.items():
        ts = []
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", src], check=True, env=env)
            ts.append(time.perf_counter() - t0)
        out[name] = round(statistics.median(ts) * 1000)
    return out


def machine() -> str:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}, openai {_version('openai')}, "
            f"langchain-core {_version('langchain-core')}, langchain-openai {_version('langchain-openai')}")


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--import-runs", type=int, default=5)
    ap.add_argument("--json", help="also write the figures here")
    args = ap.parse_args()
    result = {"machine": machine(), "calls": args.calls, "per_call": bench(args.calls, args.warmup),
              "import_ms": import_times(args.import_runs)}
    print(f"machine: {result['machine']}")
    print(f"{args.calls} calls of each kind, clients alternating; ms, median / p95; overhead = paired "
          "difference; CPU = the calling thread's CPU time (what other processes' load does not inflate)")
    cols = ("openai", "langchain", "overhead", "cpu_openai", "cpu_langchain", "cpu_overhead")
    print(f"{'call':30}" + "".join(f"{c:>16}" for c in cols))
    for kind, r in result["per_call"].items():
        cells = [f"{r[k]['median_ms']:.2f} / {r[k]['p95_ms']:.2f}" if k in r else "" for k in cols]
        print(f"{kind:30}" + "".join(f"{c:>16}" for c in cells))
    print("import + build a client, fresh interpreter (median ms): "
          + ", ".join(f"{k} {v}" for k, v in result["import_ms"].items()))
    worst = max(r["overhead"]["median_ms"] for r in result["per_call"].values())
    worst_cpu = max(r.get("cpu_overhead", r["overhead"])["median_ms"] for r in result["per_call"].values())
    print(f"largest median overhead: {worst:.2f} ms wall, {worst_cpu:.2f} ms CPU (target < 5 ms): "
          f"{'met' if worst < 5 else 'NOT met'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
