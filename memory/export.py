"""Export the whole graph as JSON or as Cypher statements that load into a Neo4j server."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

from memory import queries as Q
from memory.store import GraphStore


def cypher_literal(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return "null"
        return repr(v)
    if isinstance(v, str):
        esc = v.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\r", "\\r")
        return f"'{esc}'"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(cypher_literal(x) for x in v) + "]"
    raise TypeError(f"cannot export a {type(v).__name__} as a Cypher literal")


def _props(row: dict[str, Any], keys: tuple[str, ...]) -> str:
    return "{" + ", ".join(f"{k}: {cypher_literal(row.get(k))}" for k in keys if row.get(k) is not None) + "}"


def export_rows(store: GraphStore) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return store.read(Q.EXPORT_ENTITIES_RAW), store.read(Q.EXPORT_ARCS_RAW)


def export_json(store: GraphStore) -> str:
    entities, arcs = export_rows(store)
    return json.dumps({"format": "hearth-graph/1", "entities": entities, "arcs": arcs}, indent=1,
                      ensure_ascii=False)


def export_cypher(store: GraphStore) -> Iterator[str]:
    entities, arcs = export_rows(store)
    yield Q.EXPORT_HEADER
    for e in entities:
        yield Q.EXPORT_ENTITY.format(props=_props(e, Q.ENTITY_PROPS))
    for a in arcs:
        yield Q.EXPORT_ARC.format(s=cypher_literal(a["subject_id"]), o=cypher_literal(a["object_id"]),
                                  props=_props(a, Q.ARC_PROPS))
