"""Child-process entry: run llama.cpp's OpenAI-compatible server (xllamacpp) until terminated."""

# This module is the only one that imports xllamacpp, and only inside main(): xllamacpp cannot share a
# process with kglite, ctranslate2, spaCy, piper or onnxruntime (static TLS), so it runs in a child.

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from typing import Any

API_KEY_ENV = "HEARTH_LLM_API_KEY"  # passed by environment, never on the command line (visible in ps)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m assistant.llm.serve", description=__doc__)
    ap.add_argument("--model", required=True, help="path to a GGUF file")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--ctx", type=int, default=4096, help="context window (tokens), shared by the slots")
    ap.add_argument("--parallel", type=int, default=1,
                    help="request slots; 1 is best here: a request waits for the slot, then reuses its cache")
    ap.add_argument("--alias", default="hearth-local", help="model name reported by /v1/models")
    ap.add_argument("--cache-ram-mib", type=int, default=512, help="RAM cache of earlier prompts")
    ap.add_argument("--verbosity", type=int, default=3)
    ap.add_argument("--keep-alive-file", help="shared mode: outlive the parent; exit when this file is gone or "
                    "has not been touched for --idle-exit-s seconds")
    ap.add_argument("--idle-exit-s", type=float, default=300.0)
    return ap.parse_args(argv)


def build_params(args: argparse.Namespace, api_key: str | None) -> Any:
    import xllamacpp as xlc

    p = xlc.CommonParams()
    p.model.path = args.model
    p.model_alias = {args.alias}
    p.hostnames = [args.host]
    p.port = args.port
    p.n_ctx = args.ctx
    p.n_parallel = args.parallel
    p.kv_unified = True  # slots share the whole window instead of ctx/parallel each
    p.cont_batching = True
    p.cache_prompt = True  # reuse the KV of a matching prefix (the fixed system prompt)
    p.cache_ram_mib = args.cache_ram_mib
    p.cpuparams.n_threads = args.threads
    p.cpuparams_batch.n_threads = args.threads
    p.offline = True
    p.ui = False
    p.endpoint_props = True
    p.verbosity = args.verbosity
    if api_key:
        p.api_keys = [api_key]
    return p


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not os.path.isfile(args.model):
        print(f"serve: model file not found: {args.model}", file=sys.stderr, flush=True)
        return 2
    stop = threading.Event()
    parent = os.getppid()  # if the assistant dies without stopping us, we go too (no orphaned 2 GB server)

    def _on_signal(signum: int, _frame: object) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    t0 = time.monotonic()
    try:
        import xllamacpp as xlc

        server = xlc.Server(build_params(args, os.environ.pop(API_KEY_ENV, None)))
    except Exception as e:  # a bad GGUF, a port in use, out of memory
        print(f"serve: could not start the model server: {type(e).__name__}: {e}", file=sys.stderr,
              flush=True)
        return 3
    print(f"serve: listening on {server.listening_address} after {time.monotonic() - t0:.1f}s "
          f"(model {args.model}, threads {args.threads}, ctx {args.ctx}, slots {args.parallel})", flush=True)
    while not stop.wait(1.0):
        if args.keep_alive_file:
            try:
                idle = time.time() - os.stat(args.keep_alive_file).st_mtime
            except OSError:
                print("serve: keep-alive file is gone", flush=True)
                break
            if idle > args.idle_exit_s:
                print(f"serve: idle for {idle:.0f}s", flush=True)
                break
        elif os.getppid() != parent:
            print("serve: parent process is gone", flush=True)
            break
    print("serve: stopping", flush=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # skip llama.cpp's slow teardown; the OS reclaims the memory


if __name__ == "__main__":
    sys.exit(main())
