"""LLM-written Cypher recall: schema + examples + linked entities in, one guarded read-only query out."""

from __future__ import annotations

import re
from datetime import datetime

from memory import queries as Q
from memory.errors import QueryFailed, QueryRefused
from memory.graph import TemporalGraph
from memory.llm import LLM, LLMError
from memory.model import USER_ID, Arc
from memory.recall.guard import check_read_only, ensure_limit
from memory.recall.intent import Intent
from memory.recall.linking import Linked
from memory.timeutil import to_epoch
from memory.vocabulary import RELATIONS

SYSTEM = f"""You write one read-only Cypher query (Neo4j dialect) over a personal memory graph.
Schema: (:Entity {{id, name, type}})-[a:ARC {{relation, valid_from, valid_to, strength, decay_rate,
last_reinforced}}]->(:Entity). The user is the entity with id 'user'. Times are epoch seconds.
Every utterance is (:Episode {{speaker, text, terms, at}})-[:MENTIONS]->(:Entity); speaker is 'user' for
the user; terms is the text lower-cased with word endings cut ("climbing" -> "climb").
A fact is true now when a.valid_from <= $now AND (a.valid_to IS NULL OR a.valid_to > $now).
Parameters: $now, $year_start (1 January this year), $month_start (the 1st of this month).
Relation names: {", ".join(sorted(RELATIONS))}. "X sister_of Y" means X is Y's sister.
For facts, match (s:Entity)-[a:ARC]->(o:Entity) and RETURN a.id AS id. For counts over what was said,
RETURN count(e) AS times. Open relation names (anything else people said, e.g. keeps, diet) are allowed.
Use only MATCH, WHERE, RETURN, ORDER BY, LIMIT. Never write to the graph. Reply with the query only.

Examples:
Q: Where does my sister live now? (linked: none)
MATCH (sis:Entity)-[k:ARC {{relation: 'sister_of'}}]->(u:Entity {{id: 'user'}})
MATCH (s:Entity)-[a:ARC {{relation: 'lives_in'}}]->(o:Entity) WHERE s.id = sis.id AND a.valid_from <= $now
AND (a.valid_to IS NULL OR a.valid_to > $now) RETURN a.id AS id LIMIT 10
Q: Who works at Atlas Publishing? (linked: Atlas Publishing = e-atlas-1)
MATCH (s:Entity)-[a:ARC {{relation: 'works_at'}}]->(o:Entity {{id: 'e-atlas-1'}})
WHERE a.valid_from <= $now AND (a.valid_to IS NULL OR a.valid_to > $now) RETURN a.id AS id LIMIT 10
Q: How many times did I go swimming this year? (linked: none)
MATCH (e:Episode) WHERE e.speaker = 'user' AND e.terms CONTAINS 'swim' AND e.at >= $year_start
RETURN count(e) AS times
"""

RECORDS = "From the memory's records: "  # a note that carries an aggregation's values to the answer
_FENCE = re.compile(r"```(?:cypher)?\s*(.*?)```", re.S | re.I)


def _clean(text: str) -> str:
    m = _FENCE.search(text)
    return (m.group(1) if m else text).strip()


class CypherRecall:
    """Writes, guards and runs a query; an error is sent back once for repair, then the query is dropped."""

    def __init__(self, graph: TemporalGraph, llm: LLM, *, timeout_ms: int = 2000, row_limit: int = 50) -> None:
        self.graph, self.llm = graph, llm
        self.timeout_ms, self.row_limit = timeout_ms, row_limit

    def __call__(self, question: str, linked: Linked, intent: Intent,
                 now: datetime) -> tuple[list[Arc], list[str], list[str]]:
        names = ", ".join(f"{n} = {i}" for i, n in linked.names.items()) or "none"
        messages = [{"role": "system", "content": SYSTEM},
                    {"role": "user", "content": f"Q: {question} (linked: {names}; the user = {USER_ID})"}]
        tried: list[str] = []
        for _attempt in range(2):
            try:
                raw = _clean(self.llm.complete(messages, max_tokens=200, temperature=0.0))
            except LLMError as e:
                return [], tried, [f"(no generated query: {e.message})"]
            tried.append(raw)
            try:
                query = ensure_limit(check_read_only(raw), self.row_limit)
                params = {"now": to_epoch(now), "year_start": to_epoch(now.replace(month=1, day=1, hour=0, minute=0,
                                                                                    second=0, microsecond=0)),
                          "month_start": to_epoch(now.replace(day=1, hour=0, minute=0, second=0, microsecond=0))}
                rows = self.graph.store.read_only(query, params, timeout_ms=self.timeout_ms, row_limit=self.row_limit)
            except (QueryRefused, QueryFailed) as e:
                messages += [{"role": "assistant", "content": raw},
                             {"role": "user", "content": f"That query failed: {e.message}. Write a corrected one."}]
                continue
            ids = [str(r["id"]) for r in rows if isinstance(r.get("id"), str)]
            if not ids:  # an aggregation ("how many times…"): its values are the answer's evidence
                # a count of nothing ("times = 0", a query that matched nothing) is no evidence: the model took
                # it for a fact ("What is the capital of Australia?" answered "Can you tell me…")
                values = [", ".join(f"{k} = {v}" for k, v in r.items() if isinstance(v, int | float | str))
                          for r in rows[:5] if any(v not in (0, "", None) for v in r.values())]
                return [], tried, [f"{RECORDS}{v}" for v in values if v]
            arcs = [Arc.from_row(r) for r in self.graph.store.read(Q.ARCS_BY_IDS, {"ids": ids,
                                                                                    "now": to_epoch(now)})]
            return [a for a in arcs if a.recorded_at <= now], tried, []
        return [], tried, []
