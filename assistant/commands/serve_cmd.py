"""`assistant serve`: own the memory and serve the local API and the review page (no audio)."""

from __future__ import annotations

import argparse

from assistant.compose import Hearth


def register(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("serve", help="serve the review page and the local API (the memory's owner, no audio)")
    s.add_argument("--host", help="address to listen on (default: service.host, 127.0.0.1); another address "
                                  "needs the token kept in the data dir")
    s.add_argument("--port", type=int, help="port (default: service.port, 8765; 0: any free port)")
    s.set_defaults(handler=cmd_serve)


def cmd_serve(app: Hearth, args: argparse.Namespace) -> int:
    import threading

    from assistant.service.server import Service
    from assistant.upkeep import nightly, tick_in_thread

    service = Service(app, host=args.host, port=args.port)
    info = service.open()
    print(f"Hearth is serving the review page and API on {info.url}/", flush=True)
    if service.token_path is not None:
        print(f"  every request needs the token in {service.token_path} "
              f"(open {info.url}/?token=<token> once in a browser)", flush=True)
    print(f"  memory is consolidated nightly at {app.settings.memory.consolidation.at}; Ctrl-C stops it.", flush=True)
    stop = threading.Event()
    tick_in_thread(nightly(app), stop)
    try:
        service.serve()
    finally:
        stop.set()
    return 0
