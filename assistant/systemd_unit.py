"""The systemd unit that runs Hearth as a service: its text (a pure function) and where it goes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from hearth_errors import HearthError

UNIT_NAME = "hearth.service"
SYSTEM_UNIT_DIR = Path("/etc/systemd/system")


class ServiceUnitError(HearthError):
    """The unit cannot be written, read or handed to systemd."""

    code = "service_unit"


@dataclass(frozen=True)
class UnitSpec:
    """What the unit runs and as whom; every path absolute (a service starts with no shell and no cwd)."""

    executable: Path  # the venv's `assistant`
    data_dir: Path
    config: Path | None  # None: the built-in defaults
    user_mode: bool  # a `systemctl --user` unit (runs in the user's own manager)
    user: str  # system units: the account it runs as
    no_audio: bool = False  # `assistant serve` (page and API only) instead of `assistant run`

    def command(self) -> list[str]:
        argv = [str(self.executable)]
        if self.config is not None:
            argv += ["--config", str(self.config)]
        argv += ["--data-dir", str(self.data_dir), "serve" if self.no_audio else "run"]
        return argv


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_PLAIN = re.compile(r"[A-Za-z0-9_@%$+=:,./-]+")


def quote_arg(arg: str) -> str:
    """One ExecStart= word: `%` and `$` escaped (systemd expands both), quoted when it has spaces or quotes."""
    if _CONTROL.search(arg):
        raise ServiceUnitError(f"{arg!r} has a control character (a newline?) and cannot go in a unit file",
                               code="service_unit.bad_path")
    arg = arg.replace("%", "%%").replace("$", "$$")
    if arg and _PLAIN.fullmatch(arg):
        return arg
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'


def unit_text(spec: UnitSpec) -> str:
    """The whole unit file for ``spec``."""
    for p in (spec.executable, spec.data_dir, *([spec.config] if spec.config else [])):
        if not p.is_absolute():
            raise ServiceUnitError(f"{p} is not an absolute path; a service has no working directory to "
                                   "resolve it from", code="service_unit.relative_path")
    what = "review page and local API, no audio" if spec.no_audio else "voice loop, review page and local API"
    lines = [
        "# Written by `assistant service install`; `assistant service uninstall` removes it.",
        "[Unit]",
        f"Description=Hearth voice assistant ({what})",
        "After=network.target sound.target",
        "",
        "[Service]",
        "Type=simple",
        "ExecStart=" + " ".join(quote_arg(a) for a in spec.command()),
        "WorkingDirectory=" + quote_arg(str(spec.data_dir)),
        "Environment=PYTHONUNBUFFERED=1",
        "Restart=on-failure",
        "RestartSec=5",
    ]
    if spec.user_mode:
        # A user manager cannot change groups (SupplementaryGroups= would fail with 216/GROUP): the account
        # itself must be in `audio` (Raspberry Pi OS's first user is).
        lines.append("# the microphone and speaker need this account in the audio group")
    else:
        lines += [f"User={quote_arg(spec.user)}", "SupplementaryGroups=audio"]
    lines += ["", "[Install]", "WantedBy=" + ("default.target" if spec.user_mode else "multi-user.target"), ""]
    return "\n".join(lines)


def unit_dir(user_mode: bool, env: Mapping[str, str], home: Path, system_dir: Path = SYSTEM_UNIT_DIR) -> Path:
    """Where systemd looks for the unit: $XDG_CONFIG_HOME/systemd/user for --user, else /etc/systemd/system."""
    if not user_mode:
        return system_dir
    xdg = env.get("XDG_CONFIG_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".config"  # the spec ignores relative ones
    return base / "systemd" / "user"


def systemctl_argv(user_mode: bool, *args: str) -> list[str]:
    return ["systemctl", *(["--user"] if user_mode else []), *args]


def manual_steps(user_mode: bool) -> list[str]:
    """What to run by hand where systemd could not be reached."""
    return [" ".join(systemctl_argv(user_mode, "daemon-reload")),
            " ".join(systemctl_argv(user_mode, "enable", "--now", UNIT_NAME))]


def journal_hint(user_mode: bool) -> str:
    return " ".join(["journalctl", *(["--user"] if user_mode else []), "-u", UNIT_NAME, "-f"])


__all__ = ["SYSTEM_UNIT_DIR", "UNIT_NAME", "ServiceUnitError", "UnitSpec", "journal_hint", "manual_steps",
           "quote_arg", "systemctl_argv", "unit_dir", "unit_text"]
