"""Start a real `assistant serve` in a child process on a free port, and stop it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def serving(data_dir: Path, config: Path, *, timeout_s: float = 60.0) -> Iterator[dict[str, object]]:
    """Yields the service file's contents once the service answers; SIGTERM on the way out."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "assistant", "--config", str(config), "--data-dir", str(data_dir),
                             "serve", "--port", "0"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "serving the review page and API on http://127.0.0.1:" in line, line + proc.stdout.read()
        deadline = time.monotonic() + timeout_s
        while not (data_dir / "service.json").exists():
            assert time.monotonic() < deadline, "no service file"
            time.sleep(0.05)
        info = json.loads((data_dir / "service.json").read_text())
        assert line.strip().endswith(f":{info['port']}/")
        yield info | {"url": f"http://127.0.0.1:{info['port']}", "pid": proc.pid}
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, f"serve exited with {proc.returncode}"
    assert not (data_dir / "service.json").exists()
