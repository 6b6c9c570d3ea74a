"""The service in a thread (as the voice loop will run it), its files in the data dir, and the token."""

from __future__ import annotations

import json
import os
import stat
import urllib.request
from pathlib import Path

import pytest

from assistant.compose import Hearth
from assistant.service.security import TOKEN_FILE, ensure_token, read_token
from assistant.service.server import SERVICE_FILE, Service, ServiceError, read_service_file
from assistant.settings import ConfigError, Settings, load_settings


def test_served_from_a_thread_then_stopped_releases_the_store(data_dir: Path, config_file: Path) -> None:
    app = Hearth(load_settings(config_file), data_dir)
    service = Service(app, port=0)
    info = service.start_in_thread()
    try:
        assert read_service_file(data_dir) == info and info.pid == os.getpid()
        assert stat.S_IMODE((data_dir / SERVICE_FILE).stat().st_mode) == 0o600
        with urllib.request.urlopen(info.url + "/health", timeout=10) as r:
            health = json.loads(r.read())
        assert health["pid"] == os.getpid() and health["port"] == info.port
    finally:
        service.stop()
    assert not (data_dir / SERVICE_FILE).exists()
    again = Hearth(Settings(), data_dir)  # the store was closed: another owner may open it
    assert again.graph.find_entity("Felix") is not None
    again.close()


def test_a_port_in_use_is_a_clear_error_and_the_store_is_released(data_dir: Path, config_file: Path) -> None:
    first = Service(Hearth(load_settings(config_file), data_dir / "a"), port=0)
    info = first.start_in_thread()
    try:
        second = Service(Hearth(load_settings(config_file), data_dir / "b"), port=info.port)
        with pytest.raises(ServiceError, match=f"cannot serve on 127.0.0.1:{info.port}"):
            second.open()
        Hearth(Settings(), data_dir / "b").store.close()  # b's store is free again
    finally:
        first.stop()


def test_the_token_is_private_and_a_readable_one_is_refused(tmp_path: Path) -> None:
    token = ensure_token(tmp_path)
    assert len(token) >= 32 and stat.S_IMODE((tmp_path / TOKEN_FILE).stat().st_mode) == 0o600
    assert ensure_token(tmp_path) == token == read_token(tmp_path)
    os.chmod(tmp_path / TOKEN_FILE, 0o644)
    with pytest.raises(ConfigError, match="chmod 600"):
        read_token(tmp_path)


def test_another_address_makes_a_token(tmp_path: Path) -> None:
    assert Service(Hearth(Settings(), tmp_path), host="0.0.0.0", port=0).guard.token == read_token(tmp_path)
    assert Service(Hearth(Settings(), tmp_path / "x"), host="127.0.0.1", port=0).guard.token is None
    assert not (tmp_path / "x" / TOKEN_FILE).exists()


def test_a_stale_service_file_is_ignored(tmp_path: Path) -> None:
    (tmp_path / SERVICE_FILE).write_text(json.dumps({"pid": 2**22 + 12345, "host": "127.0.0.1", "port": 1,
                                                     "started_at": "", "csrf": "x"}))
    assert read_service_file(tmp_path) is None
    (tmp_path / SERVICE_FILE).write_text("{not json")
    assert read_service_file(tmp_path) is None


def test_concurrent_reads_and_writes_all_land(data_dir: Path, config_file: Path) -> None:
    """Many clients at once: every write is applied once by the store's one owner thread, reads never fail."""
    from concurrent.futures import ThreadPoolExecutor

    service = Service(Hearth(load_settings(config_file), data_dir), port=0)
    info = service.start_in_thread()

    def call(i: int) -> int:
        if i % 3 == 0:
            req = urllib.request.Request(info.url + "/api/facts", method="POST", data=json.dumps(
                {"subject": "user", "relation": "likes", "object": f"dish {i}"}).encode(),
                headers={"content-type": "application/json", "x-hearth-csrf": info.csrf})
        else:
            req = urllib.request.Request(info.url + ("/api/entities/Felix" if i % 3 == 1 else "/api/conversations"))
        with urllib.request.urlopen(req, timeout=60) as r:
            json.loads(r.read())
            return int(r.status)

    try:
        with ThreadPoolExecutor(8) as pool:
            assert set(pool.map(call, range(60))) == {200}
        with urllib.request.urlopen(info.url + "/api/facts?entity=user", timeout=30) as r:
            liked = {f["object"] for f in json.loads(r.read())["facts"] if f["relation"] == "likes"}
    finally:
        service.stop()
    assert liked == {f"dish {i}" for i in range(0, 60, 3)}


def test_the_voice_loop_serves_beside_it_and_a_busy_port_costs_only_the_page(data_dir: Path,
                                                                             config_file: Path) -> None:
    import io

    from rich.console import Console

    from assistant.commands.voice_cmd import _serve_beside

    def with_port(port: int) -> Settings:
        s = load_settings(config_file)
        return s.model_copy(update={"service": s.service.model_copy(update={"port": port})})

    app = Hearth(with_port(0), data_dir)
    out = io.StringIO()
    service = _serve_beside(app, Console(file=out, width=200))
    assert service is not None and "Review page and API on http://127.0.0.1:" in out.getvalue()
    try:
        busy = Hearth(with_port(service.info.port), data_dir / "other")  # the port the first one took
        out2 = io.StringIO()
        assert _serve_beside(busy, Console(file=out2, width=200)) is None
        assert "The review page is not served" in out2.getvalue()
        busy.close()
    finally:
        service.stop()


def test_nightly_consolidation_runs_off_the_loop_thread(data_dir: Path, config_file: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from assistant.upkeep import nightly

    app = Hearth(load_settings(config_file), data_dir)
    ran: list[str] = []
    release = threading.Event()
    done = threading.Event()

    def held_consolidate(**kw: object) -> None:
        release.wait(30)  # consolidation goes on until the test lets it finish
        ran.append(threading.current_thread().name)
        done.set()

    monkeypatch.setattr(app.graph, "consolidate", held_consolidate)
    sched = nightly(app)
    sched.run_all()  # what the loop's tick does when the hour comes
    # run_all returned while consolidation is still held: the loop's thread was not the one running it
    assert not done.is_set() and ran == []
    release.set()
    assert done.wait(10) and ran == ["consolidate"]
    app.close()


def test_serve_checks_the_nightly_schedule_on_its_own_thread_until_stopped() -> None:
    import threading

    from assistant.upkeep import tick_in_thread

    calls: list[str] = []
    ticked = threading.Event()

    class Sched:
        def run_pending(self) -> None:
            calls.append(threading.current_thread().name)
            ticked.set()

    stop = threading.Event()
    t = tick_in_thread(Sched(), stop, every_s=0.01)
    assert ticked.wait(10) and calls[0] == "nightly-schedule"
    stop.set()
    t.join(5)
    assert not t.is_alive()
