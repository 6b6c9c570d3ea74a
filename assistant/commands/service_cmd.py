"""`assistant service install|status|uninstall`: Hearth as a systemd service (the unit text: systemd_unit)."""

from __future__ import annotations

import argparse
import getpass
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from assistant.compose import Hearth
from assistant.systemd_unit import (
    UNIT_NAME,
    ServiceUnitError,
    UnitSpec,
    journal_hint,
    manual_steps,
    systemctl_argv,
    unit_dir,
    unit_text,
)

BOOTED_MARKER = Path("/run/systemd/system")  # what sd_booted() checks: systemd is PID 1 here


def register(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("service", help="run Hearth as a systemd service (install, status, uninstall)")
    ss = s.add_subparsers(dest="service_cmd", required=True, metavar="ACTION")
    i = ss.add_parser("install", help="write the unit (with this config and data dir) and enable it")
    i.add_argument("--no-audio", action="store_true", help="run `assistant serve` (page and API only) "
                                                         "instead of the voice loop")
    i.add_argument("--no-enable", action="store_true", help="only write the unit file")
    st = ss.add_parser("status", help="is the service installed, enabled, running")
    u = ss.add_parser("uninstall", help="stop and disable the service and remove its unit")
    for p in (i, st, u):
        p.add_argument("--user", action="store_true", help="a per-user unit (~/.config/systemd/user, "
                                                         "systemctl --user); default: a system unit (root)")
    i.set_defaults(handler=cmd_install)
    st.set_defaults(handler=cmd_status)
    u.set_defaults(handler=cmd_uninstall)


class Systemctl:
    """The thin adapter: finds and runs systemctl; `available` is False in containers and CI."""

    def __init__(self, user_mode: bool, env: Mapping[str, str], booted_marker: Path = BOOTED_MARKER) -> None:
        self.user_mode = user_mode
        self.exe = shutil.which("systemctl", path=env.get("PATH", os.defpath))
        self.available = self.exe is not None and booted_marker.is_dir()

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        assert self.exe is not None
        argv = [self.exe, *systemctl_argv(self.user_mode, *args)[1:]]
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise ServiceUnitError(f"could not run {' '.join(argv)}: {e}", code="service_unit.systemctl") from e

    def check(self, *args: str) -> None:
        r = self.run(*args)
        if r.returncode != 0:
            raise ServiceUnitError(
                f"`{' '.join(systemctl_argv(self.user_mode, *args))}` failed: "
                f"{(r.stderr or r.stdout).strip() or f'exit {r.returncode}'}",
                code="service_unit.systemctl", hint=f"see {journal_hint(self.user_mode)}")


def _executable() -> Path:
    """The `assistant` beside this interpreter (the venv's), else the one on PATH."""
    here = Path(sys.executable).parent / "assistant"
    if here.is_file():
        return here.absolute()
    found = shutil.which("assistant")
    if found is None:
        raise ServiceUnitError("cannot find the `assistant` executable to put in the unit",
                               code="service_unit.no_executable",
                               hint="install Hearth (make setup) and run this from its venv")
    return Path(found).absolute()


def _run_as() -> str:
    """The account that asked (under sudo, the one who ran sudo)."""
    return os.environ.get("SUDO_USER") or getpass.getuser()


def _target(user_mode: bool) -> Path:
    return unit_dir(user_mode, os.environ, Path.home()) / UNIT_NAME


def cmd_install(app: Hearth, args: argparse.Namespace) -> int:
    from assistant.cli import config_path

    cfg = config_path(args.config)
    spec = UnitSpec(executable=_executable(), data_dir=app.data_dir.absolute(),
                    config=cfg.absolute() if cfg is not None else None,
                    user_mode=args.user, user=_run_as(), no_audio=args.no_audio)
    text = unit_text(spec)
    target = _target(args.user)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        spec.data_dir.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as e:
        raise ServiceUnitError(
            f"cannot write {target}: {e.strerror or e}", code="service_unit.not_writable",
            hint=None if args.user else "a system unit needs root: run it with sudo, or use --user") from e
    print(f"Wrote {target}")
    print(f"  runs: {' '.join(spec.command())}")
    if spec.config is None:
        print("  config: none (the built-in defaults); pass --config to bake one in")
    if not args.user and os.environ.get("SUDO_USER") and str(spec.data_dir).startswith(str(Path.home())):
        print(f"  note: under sudo the data dir is root's ({spec.data_dir}), not {spec.user}'s: pass "
              "--data-dir (and --config) to use theirs")
    if args.no_enable:
        return 0
    ctl = Systemctl(args.user, os.environ)
    if not ctl.available:
        print("systemd is not available here (no systemctl, or systemd is not running); to start it run:")
        for step in manual_steps(args.user):
            print(f"  {step}")
        return 0
    ctl.check("daemon-reload")
    ctl.check("enable", "--now", UNIT_NAME)
    print(f"Enabled and started {UNIT_NAME}; logs: {journal_hint(args.user)}")
    if args.user:
        print(f"  to start it at boot without logging in: sudo loginctl enable-linger {_run_as()}")
    return 0


def cmd_status(app: Hearth, args: argparse.Namespace) -> int:
    target = _target(args.user)
    print(f"unit: {target} ({'installed' if target.is_file() else 'not installed'})")
    ctl = Systemctl(args.user, os.environ)
    if not ctl.available:
        print("systemd: not available here (no systemctl, or systemd is not running)")
        return 3
    states = {q: ctl.run(q, UNIT_NAME).stdout.strip() or "unknown" for q in ("is-enabled", "is-active")}
    print(f"enabled: {states['is-enabled']}, active: {states['is-active']}; logs: {journal_hint(args.user)}")
    return 0 if states["is-active"] == "active" else 3


def cmd_uninstall(app: Hearth, args: argparse.Namespace) -> int:
    target = _target(args.user)
    ctl = Systemctl(args.user, os.environ)
    if ctl.available and target.is_file():
        ctl.run("disable", "--now", UNIT_NAME)  # fails harmlessly when it was never enabled
    if not target.is_file():
        print(f"{target}: not installed, nothing to remove")
        return 0
    try:
        target.unlink()
    except OSError as e:
        raise ServiceUnitError(f"cannot remove {target}: {e.strerror or e}", code="service_unit.not_writable",
                               hint=None if args.user else "a system unit needs root: run it with sudo") from e
    if ctl.available:
        ctl.check("daemon-reload")
    print(f"Removed {target}" + ("" if ctl.available else " (systemd not available here: nothing to stop)"))
    return 0
