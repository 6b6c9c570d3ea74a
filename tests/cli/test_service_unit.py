"""`assistant service`: the unit text (pure), and install/status/uninstall where systemd is absent."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.systemd_unit import ServiceUnitError, UnitSpec, quote_arg, unit_dir, unit_text


def spec(**kw: object) -> UnitSpec:
    base: dict[str, object] = dict(executable=Path("/opt/hearth/.venv/bin/assistant"),
                                   data_dir=Path("/home/pi/.local/share/hearth"),
                                   config=Path("/home/pi/.config/hearth/config.yaml"),
                                   user_mode=False, user="pi")
    base.update(kw)
    return UnitSpec(**base)  # type: ignore[arg-type]


def parse(text: str) -> configparser.RawConfigParser:
    p = configparser.RawConfigParser(strict=False, comment_prefixes=("#",))
    p.optionxform = str  # type: ignore[assignment,method-assign]
    p.read_string(text)
    return p


def test_system_unit_runs_the_voice_loop_as_the_user_with_audio() -> None:
    u = parse(unit_text(spec()))
    svc = u["Service"]
    assert shlex.split(svc["ExecStart"]) == [
        "/opt/hearth/.venv/bin/assistant", "--config", "/home/pi/.config/hearth/config.yaml",
        "--data-dir", "/home/pi/.local/share/hearth", "run"]
    assert svc["Restart"] == "on-failure"
    assert svc["User"] == "pi" and svc["SupplementaryGroups"] == "audio"
    assert svc["WorkingDirectory"] == "/home/pi/.local/share/hearth"
    assert "GLIBC_TUNABLES" not in unit_text(spec())  # the CLI re-execs itself with it
    assert u["Install"]["WantedBy"] == "multi-user.target"


def test_user_unit_has_no_user_or_groups_and_no_audio_serves() -> None:
    text = unit_text(spec(user_mode=True, no_audio=True, config=None))
    u = parse(text)
    assert "User" not in u["Service"] and "SupplementaryGroups" not in u["Service"]
    assert shlex.split(u["Service"]["ExecStart"])[-1] == "serve"
    assert "--config" not in u["Service"]["ExecStart"]
    assert u["Install"]["WantedBy"] == "default.target"


@pytest.mark.parametrize(("arg", "word"), [
    ("/plain/path", "/plain/path"),
    ("/home/my data/hearth", '"/home/my data/hearth"'),
    ("/a/100%/b", "/a/100%%/b"),
    ("/a/$HOME", "/a/$$HOME"),
    ('/a/"q"', '"/a/\\"q\\""'),
])
def test_quote_arg(arg: str, word: str) -> None:
    assert quote_arg(arg) == word


def test_bad_paths_are_refused() -> None:
    with pytest.raises(ServiceUnitError, match="control character"):
        quote_arg("/a\nExecStartPre=/bin/evil")
    with pytest.raises(ServiceUnitError, match="absolute"):
        unit_text(spec(data_dir=Path("relative/dir")))


def test_unit_dir() -> None:
    home = Path("/home/pi")
    assert unit_dir(False, {}, home) == Path("/etc/systemd/system")
    assert unit_dir(True, {}, home) == Path("/home/pi/.config/systemd/user")
    assert unit_dir(True, {"XDG_CONFIG_HOME": "/x"}, home) == Path("/x/systemd/user")
    assert unit_dir(True, {"XDG_CONFIG_HOME": "rel"}, home) == Path("/home/pi/.config/systemd/user")


@pytest.fixture
def no_systemd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tmp XDG_CONFIG_HOME and a PATH with no systemctl on it (as in CI containers)."""
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("HEARTH_CONFIG", raising=False)
    return tmp_path


def test_user_install_status_uninstall_without_systemctl(no_systemd: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    cfg = no_systemd / "my config.yaml"
    cfg.write_text("user:\n  name: Pi\n")
    data = no_systemd / "data"
    unit = no_systemd / "xdg" / "systemd" / "user" / "hearth.service"

    assert main(["--config", str(cfg), "--data-dir", str(data), "service", "install", "--user"]) == 0
    out = capsys.readouterr().out
    assert "systemctl --user enable --now hearth.service" in out  # says what to run
    words = shlex.split(parse(unit.read_text())["Service"]["ExecStart"])
    assert words[1:] == ["--config", str(cfg), "--data-dir", str(data), "run"]
    assert Path(words[0]).is_absolute() and Path(words[0]).name == "assistant"
    assert data.is_dir()

    assert main(["service", "status", "--user"]) == 3
    out = capsys.readouterr().out
    assert "installed" in out and "not available" in out

    assert main(["service", "uninstall", "--user"]) == 0
    assert not unit.exists()
    assert main(["service", "uninstall", "--user"]) == 0
    assert "nothing to remove" in capsys.readouterr().out
    assert main(["service", "status", "--user"]) == 3
    assert "not installed" in capsys.readouterr().out


def test_system_install_where_the_unit_dir_cannot_be_written(no_systemd: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = no_systemd / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setattr("assistant.commands.service_cmd.unit_dir",
                        lambda user, env, home: blocker / "system")
    assert main(["--data-dir", str(no_systemd / "d"), "service", "install"]) == 2
    err = capsys.readouterr().err
    assert "[service_unit.not_writable]" in err and "sudo" in err and "Traceback" not in err
