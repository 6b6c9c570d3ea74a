"""What every benchmark prints with its figures: the machine, and percentiles."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def machine() -> str:
    """'2 cores, Intel(R) Xeon(R) Processor' — read from /proc/cpuinfo where there is one."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
        cpu = next((ln.split(":", 1)[1].strip() for ln in lines if ln.startswith("model name")), "")
    except OSError:
        cpu = ""
    return f"{os.cpu_count()} cores, {cpu or platform.processor() or platform.machine()}"


def pct(xs: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1) of a non-empty list."""
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]
