"""Read a data dir the way someone with the disk would: every file's raw bytes, compressed sections opened.

kglite's file (format "RGF") is a JSON header followed by zstd-compressed sections (columns per node
type, topology with the arcs' properties): searching its raw bytes would find nothing even when the text
is there. Every zstd frame in every file is decompressed and searched too; SQLite's main file, its WAL
and shared-memory file are searched as they lie.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import zstandard

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def readable(data: bytes) -> Iterator[bytes]:
    """The bytes as stored, then every zstd frame in them decompressed (kglite compresses its sections)."""
    yield data
    i = data.find(ZSTD_MAGIC)
    while i >= 0:
        try:
            yield zstandard.ZstdDecompressor().decompressobj().decompress(data[i:])
        except zstandard.ZstdError:
            pass
        i = data.find(ZSTD_MAGIC, i + 1)


def residue(data_dir: Path, word: str) -> dict[str, int]:
    """Case-insensitive occurrences of ``word`` per file (name relative to the data dir), zeros included."""
    pat = re.compile(re.escape(word.encode()), re.IGNORECASE)
    return {str(p.relative_to(data_dir)): sum(len(pat.findall(b)) for b in readable(p.read_bytes()))
            for p in sorted(data_dir.rglob("*")) if p.is_file()}


def frames(path: Path) -> int:
    return sum(1 for _ in readable(path.read_bytes())) - 1
