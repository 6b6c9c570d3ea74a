"""Child-process entry: run llama.cpp's OpenAI-compatible server (xllamacpp) until terminated."""

# This module is the only one that imports xllamacpp, and only inside main(): xllamacpp cannot share a
# process with kglite, ctranslate2, spaCy, piper or onnxruntime (static TLS), so it runs in a child.

from __future__ import annotations

import argparse
import json
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
    ap.add_argument("--keep-alive-file", help="shared mode: outlive the parent; exit when this file (the "
                    "registry entry) is gone, names another server, or has not been touched for --idle-exit-s")
    ap.add_argument("--idle-exit-s", type=float, default=300.0)
    return ap.parse_args(argv)


def lease_verdict(path: str, pid: int, idle_exit_s: float, now: float) -> str | None:
    """Why a shared server should exit now, or None while its registry entry is its own and recently used.

    An entry without a pid is one being written by the command starting this server: not yet claimed.
    """
    try:
        mtime = os.stat(path).st_mtime
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return "keep-alive file is gone"
    try:
        info = json.loads(text)
    except ValueError:
        info = None
    owner = info.get("pid") if isinstance(info, dict) else None
    if owner is not None and owner != pid:
        return f"the registry names another server (pid {owner})"
    idle = now - mtime
    if idle > idle_exit_s:
        return f"idle for {idle:.0f}s"
    return None


HELD_LOCKS: list[int] = []


def end_lease(path: str, pid: int, idle_exit_s: float) -> str | None:
    """Decide under the registry's lock whether to exit; if so, drop the entry when it still names us.

    A command reusing this server checks its health and touches the entry under the same lock, so it can
    never pick a server that has just decided to go. The lock is kept until the process ends.
    """
    if lease_verdict(path, pid, idle_exit_s, time.time()) is None:
        return None
    import fcntl

    try:
        fd = os.open(os.path.splitext(path)[0] + ".lock", os.O_WRONLY | os.O_CREAT, 0o600)
    except OSError:  # the registry itself is gone: nobody can reach this server any more
        return lease_verdict(path, pid, idle_exit_s, time.time())
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # a command holds it (starting a server, or reusing this one): look again next time
        os.close(fd)
        return None
    why = lease_verdict(path, pid, idle_exit_s, time.time())
    if why is None:  # touched meanwhile
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
        return None
    if why.startswith("idle"):
        try:
            os.unlink(path)
        except OSError:
            pass
    HELD_LOCKS.append(fd)  # stays locked until this process exits
    return why


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
    every_s = min(1.0, max(0.05, args.idle_exit_s / 4))  # a short keep-alive is honoured closely
    while not stop.wait(every_s):
        if args.keep_alive_file:
            why = end_lease(args.keep_alive_file, os.getpid(), args.idle_exit_s)
            if why is not None:
                print(f"serve: {why}", flush=True)
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
