"""Bundled LLM benchmark: assembly, server start, first token cold vs cached prefix, tok/s, JSON latency."""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.llm.client import OpenAIChat
from assistant.llm.server import LocalLLMServer
from assistant.llm.weights import MODELS, ensure_model, sha256_file

print = functools.partial(print, flush=True)

# A long, fixed system prompt, like the assistant's (persona + rules + relation vocabulary).
SYSTEM = (
    "You are Hearth, a private voice assistant running on the user's own computer. You remember what the "
    "user tells you in a personal knowledge graph and answer briefly, in one or two spoken sentences, "
    "without markdown, lists or emoji. If you do not know something, say so plainly. Never invent facts "
    "about the user's family, friends, home or work. Facts you are given are listed below as "
    "subject-relation-object triples with a date; prefer recent facts when they conflict.\n"
    + "\n".join(f"- fact {i}: person_{i} lives_in city_{i % 17} (since 20{10 + i % 15})" for i in range(20))
    + "\nRelations you may use: lives_in, works_at, sister_of, brother_of, parent_of, child_of, "
    "married_to, friend_of, likes, dislikes, allergic_to, owns, born_in, studies_at, plays.\n"
)
TURNS = [
    "Where does person_3 live?", "Who lives in city_5?", "Tell me something about person_12.",
    "Does anyone live in city_0?", "What do you know about person_30?", "Where did person_7 move?",
]
SENTENCES = [
    "My sister Anna moved to Lisbon last spring.", "I started working at Siemens in March.",
    "Tom is allergic to peanuts.", "My daughter Mia studies at the University of Oslo.",
    "We own a grey cat called Pixel.",
]
FACT_SCHEMA = {
    "type": "object",
    "properties": {
        "subject": {"type": "string"},
        "relation": {"type": "string", "enum": ["lives_in", "works_at", "sister_of", "allergic_to", "owns",
                                                 "studies_at", "likes", "child_of"]},
        "object": {"type": "string"},
    },
    "required": ["subject", "relation", "object"],
    "additionalProperties": False,
}
EXTRACT_SYSTEM = ("Extract the single most important fact from the user's sentence. The subject is a "
                  "person's name or 'user'. Answer with JSON only.")


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def ttft(llm: OpenAIChat, system: str, user: str) -> float:
    t0 = time.perf_counter()
    for _ in llm.stream([{"role": "system", "content": system}, {"role": "user", "content": user}],
                        max_tokens=8, temperature=0.0):
        return time.perf_counter() - t0
    return float("nan")


def raw_timings(server: LocalLLMServer, user: str, max_tokens: int) -> dict[str, float]:
    body = json.dumps({"messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}],
                       "max_tokens": max_tokens, "temperature": 0.0, "cache_prompt": True,
                       "ignore_eos": True}).encode()
    req = urllib.request.Request(f"{server.base_url}/chat/completions", data=body, headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {server.api_key}"})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(req, timeout=300) as r:
        return dict(json.loads(r.read())["timings"])


def med(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f} s (min {min(xs):.2f}, max {max(xs):.2f}, n={len(xs)})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", default="qwen2.5-coder-1.5b", choices=sorted(MODELS))
    ap.add_argument("--models-dir", type=Path, default=None, help="reuse an assembled model (default: temp)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--ctx", type=int, default=4096)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    print(f"# machine: {platform.platform()}, {os.cpu_count()} CPUs, python {platform.python_version()}, "
          f"load avg {os.getloadavg()[0]:.2f}")
    spec = MODELS[args.model]
    with tempfile.TemporaryDirectory(prefix="hearth-bench-") as tmp:
        models_dir = args.models_dir or Path(tmp) / "models"
        target = models_dir / spec.filename
        assemble = lambda: ensure_model(args.model, models_dir, progress=False)  # noqa: E731
        cold = None if target.exists() else timed(assemble)
        verified = timed(assemble)
        rehash = timed(lambda: sha256_file(target))
        print(f"assembly cold: {'(already assembled)' if cold is None else f'{cold:.2f} s'}; "
              f"later start (sidecar): {verified * 1000:.1f} ms; full re-hash: {rehash:.2f} s")

        server = LocalLLMServer(target, logs_dir=Path(tmp) / "logs", threads=args.threads, ctx=args.ctx,
                                alias=args.model)
        start = timed(server.start)
        print(f"server start to ready: {start:.2f} s")
        try:
            llm = OpenAIChat(server.base_url, args.model, api_key=server.api_key, timeout_s=300,
                             llama_cpp=True)
            prompt_tokens = raw_timings(server, "Hi.", 1)["prompt_n"]
            colds = [ttft(llm, f"[session {i}-{time.time_ns()}]\n{SYSTEM}", TURNS[i % len(TURNS)])
                     for i in range(args.runs)]
            ttft(llm, SYSTEM, "Hello.")  # put the fixed prefix into the cache
            warms = [ttft(llm, SYSTEM, TURNS[i % len(TURNS)]) for i in range(args.runs * 2)]
            print(f"system prompt: ~{prompt_tokens:.0f} tokens")
            print(f"first token, cold prefix: {med(colds)}")
            print(f"first token, cached system prefix: {med(warms)}")
            t = [raw_timings(server, TURNS[i % len(TURNS)], 96) for i in range(args.runs)]
            print(f"generation: {statistics.median(x['predicted_per_second'] for x in t):.1f} tok/s "
                  f"(96 tokens, median of {len(t)}); prompt processing "
                  f"{statistics.median(x['prompt_per_second'] for x in t):.1f} tok/s")
            outs: list[str] = []

            def extract(sentence: str) -> None:
                outs.append(llm.complete([{"role": "system", "content": EXTRACT_SYSTEM},
                                          {"role": "user", "content": sentence}],
                                         json_schema=FACT_SCHEMA, max_tokens=96))

            first_json = timed(lambda: extract(SENTENCES[0]))
            jsons = [timed(lambda s=s: extract(s)) for s in SENTENCES[1:]]  # type: ignore[misc]
            print(f"JSON-schema extraction, one sentence: first {first_json:.2f} s, then {med(jsons)}")
            for s, o in zip(SENTENCES, outs, strict=True):
                print(f"  {s!r} -> {json.dumps(json.loads(o))}")
        finally:
            server.stop()
    print(f"# load avg at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
