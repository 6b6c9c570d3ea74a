"""Errors raised by the memory library, each with a stable code."""

from __future__ import annotations

from hearth_errors import HearthError


class MemoryStoreError(HearthError):
    """Base of every memory error; ``code`` is stable, ``str()`` is for people."""

    code = "memory_error"


class InvalidInput(MemoryStoreError):
    code = "invalid_input"


class UnknownRelation(InvalidInput):
    code = "unknown_relation"


class NotFound(MemoryStoreError):
    code = "not_found"


class StoreLocked(MemoryStoreError):
    code = "store_locked"


class StoreCorrupt(MemoryStoreError):
    code = "store_corrupt"


class StoreUnavailable(MemoryStoreError):
    code = "store_unavailable"


class QueryRefused(MemoryStoreError):
    """A generated query failed the read-only guard."""

    code = "query_refused"


class QueryFailed(MemoryStoreError):
    code = "query_failed"
