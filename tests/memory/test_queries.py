"""memory/queries.py: each named query is defined once (a second definition silently replaces the first)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import memory.queries


def test_every_query_name_is_assigned_once() -> None:
    tree = ast.parse(Path(memory.queries.__file__).read_text())
    names = Counter(t.id for node in tree.body if isinstance(node, ast.Assign)
                    for t in node.targets if isinstance(t, ast.Name))
    assert [n for n, k in names.items() if k > 1] == []
