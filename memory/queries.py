"""Every Cypher statement Hearth runs, as named queries with $parameters (Neo4j dialect).

Times are epoch seconds (floats) so the same arithmetic runs on kglite and Neo4j; ``$now`` is always
a parameter. Schema (see docs/memory.md):

    (:Entity {id, name, type, aliases, keys, is_user, created_at, last_seen, mentions, t_index})
    (:Entity)-[:ARC {id, relation, label, strength, decay_rate, reinforcements, conversations,
                     conversation_ids, last_reinforced, valid_from, valid_to, recorded_at, closed_at,
                     expired_at, t_index, confidence, sources, planned_for}]->(:Entity)
    (:Meta {id: 'meta', t_index})
    (:Episode {id, conversation, turn, speaker, text, terms, at, t_index, embedding | embedded})-[:MENTIONS]->(:Entity)

An Episode is one utterance (``id`` = the turn's source id ``conversation#idx``, which arcs list in
``sources``); ``terms`` is its stemmed text (memory/search.py), indexed full-text; its vector is the
``embedding`` property in Neo4j's vector index, or, in kglite, an entry of the `Episode` embedding store
(``embedded`` marks it; see VECTORS). Full-text search uses Neo4j 5's procedure, which kglite runs as well.
"""

from __future__ import annotations

from memory.decay import WEIGHT_CYPHER

WEIGHT = WEIGHT_CYPHER.format(a="a")

EPISODE_TEXT_INDEX = "hearth_episode_terms"
EPISODE_VECTOR_INDEX = "hearth_episode_vec"
EMBEDDING_DIM = 384  # memory/embed.py's model
SCHEMA_EPISODES = (
    f"CREATE FULLTEXT INDEX {EPISODE_TEXT_INDEX} IF NOT EXISTS FOR (e:Episode) ON EACH [e.terms]",
)
SCHEMA_KGLITE = (
    "CREATE INDEX IF NOT EXISTS FOR (e:Entity) ON (e.name)",
    "CREATE INDEX IF NOT EXISTS FOR (e:Entity) ON (e.key)",
    "CREATE INDEX IF NOT EXISTS FOR (e:Episode) ON (e.id)",
    "CREATE INDEX IF NOT EXISTS FOR (e:Episode) ON (e.conversation)",
    *SCHEMA_EPISODES,
)
# kglite folds changes into a text index when it is queried, but only up to 1000 of them: past that the search
# serves the stale index, silently (1000+ turns backfilled, or replayed from the write-ahead log at open).
# Refreshing after episode writes and at open keeps it whole; it costs ~10 µs when nothing changed.
REFRESH_KGLITE = (
    "CALL db.node_text_index.refresh({type: 'Episode', text_column: 'terms'}) YIELD refreshed RETURN refreshed",
)
SCHEMA_NEO4J = (
    "CREATE CONSTRAINT hearth_entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE",
    "CREATE INDEX hearth_entity_name IF NOT EXISTS FOR (e:Entity) ON (e.name)",
    "CREATE INDEX hearth_entity_key IF NOT EXISTS FOR (e:Entity) ON (e.key)",
    "CREATE INDEX hearth_arc_id IF NOT EXISTS FOR ()-[a:ARC]-() ON (a.id)",
    "CREATE INDEX hearth_arc_relation IF NOT EXISTS FOR ()-[a:ARC]-() ON (a.relation)",
    "CREATE CONSTRAINT hearth_episode_id IF NOT EXISTS FOR (e:Episode) REQUIRE e.id IS UNIQUE",
    "CREATE INDEX hearth_episode_conversation IF NOT EXISTS FOR (e:Episode) ON (e.conversation)",
    *SCHEMA_EPISODES,
    f"CREATE VECTOR INDEX {EPISODE_VECTOR_INDEX} IF NOT EXISTS FOR (e:Episode) ON (e.embedding) "
    f"OPTIONS {{indexConfig: {{`vector.dimensions`: {EMBEDDING_DIM}, `vector.similarity_function`: 'cosine'}}}}",
)

ENTITY_FIELDS = (
    "e.id AS id, e.name AS name, e.type AS type, e.aliases AS aliases, e.is_user AS is_user, "
    "e.created_at AS created_at, e.last_seen AS last_seen, e.mentions AS mentions, e.t_index AS t_index"
)
ARC_FIELDS = (
    "a.id AS id, s.id AS subject_id, s.name AS subject, a.relation AS relation, o.id AS object_id, "
    "o.name AS object, a.label AS label, a.strength AS strength, a.decay_rate AS decay_rate, "
    "a.reinforcements AS reinforcements, a.conversations AS conversations, "
    "a.conversation_ids AS conversation_ids, a.last_reinforced AS last_reinforced, "
    "a.valid_from AS valid_from, a.valid_to AS valid_to, a.recorded_at AS recorded_at, "
    "a.closed_at AS closed_at, a.expired_at AS expired_at, a.t_index AS t_index, "
    "a.confidence AS confidence, a.sources AS sources, a.planned_for AS planned_for, " + WEIGHT + " AS weight"
)
# What we believed at record time $now about world time $at.
KNOWN_AT = "a.recorded_at <= $now AND (a.expired_at IS NULL OR a.expired_at > $now)"
TRUE_AT = (
    KNOWN_AT + " AND a.valid_from <= $at AND "
    "(a.valid_to IS NULL OR a.valid_to > $at OR a.closed_at > $now)"
)

# --- temporal index (RecallM): one counter, bumped by every write transaction -----------------
NEXT_T_INDEX = (
    "MERGE (m:Meta {id: 'meta'}) ON CREATE SET m.t_index = 1 ON MATCH SET m.t_index = m.t_index + 1 "
    "RETURN m.t_index AS t"
)

# --- entities ---------------------------------------------------------------------------------
ENTITY_BY_ID = f"MATCH (e:Entity {{id: $id}}) RETURN {ENTITY_FIELDS}"
ENTITY_BY_NAME_KEY = f"MATCH (e:Entity {{key: $key}}) RETURN {ENTITY_FIELDS} ORDER BY e.mentions DESC"
ENTITY_BY_KEY = f"MATCH (e:Entity) WHERE $key IN e.keys RETURN {ENTITY_FIELDS} ORDER BY e.mentions DESC"
ENTITY_KEYS = "MATCH (e:Entity) RETURN e.id AS id, e.name AS name, e.type AS type, e.keys AS keys"
ALL_ENTITIES = f"MATCH (e:Entity) RETURN {ENTITY_FIELDS} ORDER BY e.is_user DESC, e.name"
CREATE_ENTITY = (
    "CREATE (e:Entity {id: $id, name: $name, key: $key, type: $type, aliases: $aliases, keys: $keys, "
    "is_user: $is_user, created_at: $now, last_seen: $now, mentions: 1, t_index: $t}) "
    f"RETURN {ENTITY_FIELDS}"
)
TOUCH_ENTITY = (
    "MATCH (e:Entity {id: $id}) SET e.mentions = e.mentions + 1, e.t_index = $t, "
    "e.last_seen = CASE WHEN e.last_seen IS NULL OR $now > e.last_seen THEN $now ELSE e.last_seen END, "
    "e.aliases = $aliases, e.keys = $keys, e.type = $type, e.name = $name "
    f"RETURN {ENTITY_FIELDS}"
)
DELETE_ENTITY = (
    "MATCH (e:Entity {id: $id}) OPTIONAL MATCH (e)-[a:ARC]-() "
    "WITH e, collect(a.id) AS arcs DETACH DELETE e RETURN arcs"
)

# --- arcs -------------------------------------------------------------------------------------
CREATE_ARC = (
    "MATCH (s:Entity {id: $subject_id}), (o:Entity {id: $object_id}) "
    "CREATE (s)-[a:ARC {id: $id, relation: $relation, label: $label, strength: $strength, "
    "decay_rate: $decay_rate, reinforcements: 0, conversations: $conversations, "
    "conversation_ids: $conversation_ids, last_reinforced: $told, valid_from: $valid_from, "
    "valid_to: $valid_to, recorded_at: $now, closed_at: $closed_at, expired_at: null, t_index: $t, "
    "confidence: $confidence, sources: $sources, planned_for: $planned_for}]->(o) "
    f"RETURN {ARC_FIELDS}"
)
# Plans still open (memory/graph.py closes those whose time has passed, nightly)
OPEN_PLANS = (
    "MATCH (s:Entity)-[a:ARC]->(o:Entity) WHERE a.planned_for IS NOT NULL AND a.valid_to IS NULL "
    f"AND a.expired_at IS NULL RETURN {ARC_FIELDS}"
)
ARC_BY_ID = f"MATCH (s:Entity)-[a:ARC]->(o:Entity) WHERE a.id = $id RETURN {ARC_FIELDS}"
# Arcs of one subject+relation still believed (open or closed), newest first.
ARCS_OF = (
    "MATCH (s:Entity {id: $subject_id})-[a:ARC]->(o:Entity) "
    f"WHERE a.relation = $relation AND a.expired_at IS NULL RETURN {ARC_FIELDS} "
    "ORDER BY a.valid_from DESC"
)
REINFORCE_ARC = (
    "MATCH (s:Entity {id: $subject_id})-[a:ARC]->(o:Entity) WHERE a.id = $id "
    "SET a.strength = $strength, a.decay_rate = $decay_rate, a.last_reinforced = $told, "
    "a.reinforcements = a.reinforcements + 1, a.conversations = $conversations, "
    "a.conversation_ids = $conversation_ids, a.sources = $sources, a.t_index = $t, "
    "a.confidence = $confidence, a.planned_for = coalesce($planned_for, a.planned_for) "
    f"RETURN {ARC_FIELDS}"
)
# A write that changes what an arc says also stamps its two ends (``s.t_index = o.t_index = $t``; asserting does it
# through TOUCH_ENTITY): an entity's summary line is stale once its t_index passed the one the line saw.
CLOSE_ARC = (
    "MATCH (s:Entity {id: $subject_id})-[a:ARC]->(o:Entity) WHERE a.id = $id "
    "SET a.valid_to = $valid_to, a.closed_at = $now, a.t_index = $t, s.t_index = $t, o.t_index = $t, "
    "a.sources = a.sources + $sources "
    f"RETURN {ARC_FIELDS}"
)
EXPIRE_ARC = (
    "MATCH (s:Entity {id: $subject_id})-[a:ARC]->(o:Entity) WHERE a.id = $id "
    "SET a.expired_at = $now, a.t_index = $t, s.t_index = $t, o.t_index = $t, a.sources = a.sources + $sources "
    f"RETURN {ARC_FIELDS}"
)
DELETE_ARC = "MATCH (s:Entity)-[a:ARC]->(o:Entity) WHERE a.id = $id DELETE a RETURN count(*) AS n"
DELETE_ARCS_OF = "MATCH (e:Entity {id: $id})-[a:ARC]-(:Entity) WITH a, a.id AS id DELETE a RETURN id"

# --- reading ----------------------------------------------------------------------------------
ARCS_OUT = (
    "MATCH (s:Entity {id: $id})-[a:ARC]->(o:Entity) "
    f"RETURN {ARC_FIELDS} ORDER BY a.relation, a.valid_from"
)
ARCS_IN = (  # written from the anchored node: kglite scans otherwise
    "MATCH (o:Entity {id: $id})<-[a:ARC]-(s:Entity) "
    f"RETURN {ARC_FIELDS} ORDER BY a.relation, a.valid_from"
)
ALL_ARCS = f"MATCH (s:Entity)-[a:ARC]->(o:Entity) RETURN {ARC_FIELDS} ORDER BY a.t_index"
HISTORY = (
    "MATCH (s:Entity {id: $subject_id})-[a:ARC]->(o:Entity) "
    "WHERE $relation IS NULL OR a.relation = $relation "
    f"RETURN {ARC_FIELDS} ORDER BY a.valid_from, a.recorded_at"
)
HISTORY_TO = (  # the same, of the arcs into an entity ("Marcus partner_of User": the user's partners, then and now)
    "MATCH (s:Entity)-[a:ARC]->(o:Entity {id: $object_id}) "
    "WHERE a.relation = $relation "
    f"RETURN {ARC_FIELDS} ORDER BY a.valid_from, a.recorded_at"
)
FACTS_AT = (
    f"MATCH (s:Entity)-[a:ARC]->(o:Entity) WHERE {TRUE_AT} "
    f"RETURN {ARC_FIELDS} ORDER BY a.valid_from"
)
FACTS_OF_AT = (
    f"MATCH (s:Entity {{id: $id}})-[a:ARC]-(o2:Entity) WITH a MATCH (s:Entity)-[a]->(o:Entity) "
    f"WHERE {TRUE_AT} RETURN {ARC_FIELDS} ORDER BY a.valid_from"
)
# Partial-triplet lookups (RET-LLM): one query per bound slot, so the entity id index anchors the match
# (an "($x IS NULL OR s.id = $x)" filter would scan every arc), and one with and one without the relation:
# "($relation IS NULL OR a.relation = $relation)" costs 2.5x a plain comparison over a hub's arcs. With a
# relation, fields are projected in the same walk as the sort: few arcs pass the filter, and a second walk to
# read the winners' fields costs more (the user with 9.6k arcs at 100k: 5 ms against 41 ms for `drives`).
_LOOKUP_S = "MATCH (s:Entity {{id: $subject_id}})-[a:ARC]->(o:Entity) WHERE {rel}" + TRUE_AT
_LOOKUP_O = "MATCH (o:Entity {{id: $object_id}})<-[a:ARC]-(s:Entity) WHERE {rel}" + TRUE_AT
_LOOKUP_SO = "MATCH (s:Entity {{id: $subject_id}})-[a:ARC]->(o:Entity {{id: $object_id}}) WHERE {rel}" + TRUE_AT
_RANKED = f" RETURN {ARC_FIELDS} ORDER BY weight DESC LIMIT $limit"
_REL = "a.relation = $relation AND "
LOOKUP_S = _LOOKUP_S.format(rel=_REL) + _RANKED
LOOKUP_O = _LOOKUP_O.format(rel=_REL) + _RANKED
LOOKUP_SO = _LOOKUP_SO.format(rel=_REL) + _RANKED
LOOKUP_SO_ANY = _LOOKUP_SO.format(rel="") + _RANKED
# Any relation around one entity (the traversal's step): every arc of a hub passes the filter, and kglite
# projects all fields of all of them before the sort (the user with 9.6k arcs at 100k: ~44 ms). The winners'
# ids first (ranked on the weight alone, ~22 ms), then their fields in a second walk with a cheap id filter
# (~10 ms): the traversal's p95 at 100k went from 32 to 22 ms, the same facts for all 300 questions.
_IDS = f" RETURN a.id AS id ORDER BY {WEIGHT} DESC LIMIT $limit"
_WINNERS = f" AND a.id IN $ids RETURN {ARC_FIELDS} ORDER BY weight DESC"
LOOKUP_S_ANY_IDS = _LOOKUP_S.format(rel="") + _IDS
LOOKUP_O_ANY_IDS = _LOOKUP_O.format(rel="") + _IDS
LOOKUP_S_ANY_WINNERS = _LOOKUP_S.format(rel="") + _WINNERS
LOOKUP_O_ANY_WINNERS = _LOOKUP_O.format(rel="") + _WINNERS
# One relation for many entities in one read (the holders of a role: "which of my friends plays the guitar?"):
# kglite runs each read with the GIL held, and 12 people x 2 directions were 24 walks of ~1 ms each.
LOOKUP_S_MANY = ("UNWIND $ids AS sid MATCH (s:Entity {id: sid})-[a:ARC]->(o:Entity) WHERE " + _REL + TRUE_AT
                 + _RANKED)
LOOKUP_O_MANY = ("UNWIND $ids AS oid MATCH (o:Entity {id: oid})<-[a:ARC]-(s:Entity) WHERE " + _REL + TRUE_AT
                 + _RANKED)
LOOKUP_R = (
    f"MATCH (s:Entity)-[a:ARC]->(o:Entity) WHERE a.relation = $relation AND {TRUE_AT} "
    f"RETURN {ARC_FIELDS} ORDER BY weight DESC LIMIT $limit"
)
# How many arcs each entity has (any direction, any time): the traversal does not expand a hub beyond the seeds.
# (kglite answers this from the adjacency, ~0.05 ms for eight entities where one has 13k arcs.)
DEGREES = "UNWIND $ids AS i MATCH (e:Entity {id: i}) OPTIONAL MATCH (e)-[a:ARC]-() RETURN i AS id, count(a) AS n"
# RecallM traversal: arcs within two hops of the seeds, true at $at, ranked by decayed weight.
# The 2-hop arc set is every arc touching a neighbour y of a seed (each seed arc touches its own y),
# which the engine expands per node instead of enumerating *1..2 paths (that blows up at hubs).
# An arc is met at most twice (once per endpoint), so the top 2*$limit rows hold the top $limit
# distinct arcs: DISTINCT runs on those few rows only, and the fields are read for the winners.
_TOP_ARCS = (
    f"WHERE {TRUE_AT} WITH a, {WEIGHT} AS weight ORDER BY weight DESC LIMIT $limit * 2 "
    "WITH DISTINCT a, weight ORDER BY weight DESC LIMIT $limit "
    "WITH a, weight, startNode(a) AS s, endNode(a) AS o "
    f"RETURN {ARC_FIELDS.replace(WEIGHT + ' AS weight', 'weight')} ORDER BY weight DESC"
)
NEIGHBOURHOOD_1 = "MATCH (x:Entity)-[a:ARC]-(:Entity) WHERE x.id IN $ids " + _TOP_ARCS.replace("WHERE ", "AND ", 1)
NEIGHBOURHOOD_2 = (
    "MATCH (x:Entity)-[:ARC]-(y:Entity) WHERE x.id IN $ids WITH collect(DISTINCT y) AS ys "
    "UNWIND ys AS y MATCH (y)-[a:ARC]-(:Entity) " + _TOP_ARCS
)

# --- consolidation and stats ------------------------------------------------------------------
# Only weak associations and disbelieved arcs are ever pruned; believed facts keep their history.
PRUNE_WEAK = (
    "MATCH (s:Entity)-[a:ARC]->(o:Entity) "
    f"WHERE {WEIGHT} < $threshold AND (a.relation IN $prunable OR a.expired_at IS NOT NULL "
    "OR a.confidence < $min_confidence) "
    "WITH a, a.id AS id DELETE a RETURN id"
)
# The same prune in two steps: find (cheap), then delete in batches, each its own short transaction — at 1M
# arcs one statement meets kglite's query deadline, and the voice loop gets the store between batches.
PRUNE_CANDIDATES = (
    "MATCH (s:Entity)-[a:ARC]->(o:Entity) "
    f"WHERE {WEIGHT} < $threshold AND (a.relation IN $prunable OR a.expired_at IS NOT NULL "
    "OR a.confidence < $min_confidence) "
    "RETURN a.id AS id, s.id AS subject, o.id AS object"
)
# What deleting an arc costs in kglite grows with the arcs at its ends (memory/pruning.py): the cheap go first.
ARC_DEGREES = "MATCH (e:Entity) WHERE e.id IN $ids RETURN e.id AS id, COUNT { (e)-[:ARC]-() } AS degree"
# Named apart from forgetting's DELETE_ARCS_BY_IDS below (it once shared the name, and the later, unanchored one
# won): anchored on the subjects, a batch costs ~60 ms per 2,000 arcs instead of a ~300 ms scan of every arc at
# 100k arcs, and a write statement keeps the GIL all along (benchmarks/frame_jitter.py: the audio thread waits).
PRUNE_ARCS = (
    "MATCH (s:Entity)-[a:ARC]->(:Entity) WHERE s.id IN $subjects AND a.id IN $ids "
    "WITH a, a.id AS id DELETE a RETURN id"
)
DELETE_ORPHANS = (
    "MATCH (e:Entity) WHERE NOT (e)--() AND (e.is_user IS NULL OR e.is_user = false) "
    "WITH e, e.id AS id DETACH DELETE e RETURN id"
)
WEIGHT_SUMMARY = (
    f"MATCH ()-[a:ARC]->() WITH {WEIGHT} AS w "
    "RETURN count(w) AS arcs, avg(w) AS mean_weight, min(w) AS min_weight, max(w) AS max_weight"
)
COUNT_ENTITIES = "MATCH (e:Entity) RETURN count(e) AS n"
COUNT_ARCS = (
    "MATCH ()-[a:ARC]->() RETURN count(a) AS total, "
    "sum(CASE WHEN a.valid_to IS NULL AND a.expired_at IS NULL THEN 1 ELSE 0 END) AS current, "
    "sum(CASE WHEN a.valid_to IS NOT NULL THEN 1 ELSE 0 END) AS closed, "
    "sum(CASE WHEN a.expired_at IS NOT NULL THEN 1 ELSE 0 END) AS retracted"
)
RELATION_COUNTS = (
    "MATCH ()-[a:ARC]->() RETURN a.relation AS relation, count(a) AS n ORDER BY n DESC, relation"
)

# --- export: statements that rebuild the graph on a Neo4j server ({props} are Cypher literals) ---
EXPORT_HEADER = "CREATE CONSTRAINT hearth_entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE;"
EXPORT_ENTITY = "CREATE (:Entity {props});"
EXPORT_ARC = "MATCH (s:Entity {{id: {s}}}), (o:Entity {{id: {o}}}) CREATE (s)-[:ARC {props}]->(o);"
ENTITY_PROPS = ("id", "name", "key", "type", "aliases", "keys", "is_user", "created_at", "last_seen", "mentions",
                "t_index")
ARC_PROPS = ("id", "relation", "label", "strength", "decay_rate", "reinforcements", "conversations",
             "conversation_ids", "last_reinforced", "valid_from", "valid_to", "recorded_at", "closed_at",
             "expired_at", "t_index", "confidence", "sources", "planned_for")
EXPORT_ENTITIES_RAW = "MATCH (e:Entity) RETURN " + ", ".join(f"e.{k} AS {k}" for k in ENTITY_PROPS) + " ORDER BY id"
EXPORT_ARCS_RAW = (
    "MATCH (s:Entity)-[a:ARC]->(o:Entity) RETURN s.id AS subject_id, o.id AS object_id, "
    + ", ".join(f"a.{k} AS {k}" for k in ARC_PROPS) + " ORDER BY t_index"
)

# --- bulk loading (benchmarks, imports): one UNWIND per batch of rows, inside a transaction ---------
BULK_CREATE_ENTITIES = (
    "UNWIND $rows AS r CREATE (e:Entity {id: r.id, name: r.name, key: r.keys[0], type: r.type, aliases: r.aliases, "
    "keys: r.keys, is_user: r.is_user, created_at: r.created_at, last_seen: r.last_seen, "
    "mentions: r.mentions, t_index: r.t_index})"
)
BULK_CREATE_ARCS = (
    "UNWIND $rows AS r MATCH (s:Entity {id: r.subject_id}), (o:Entity {id: r.object_id}) "
    "CREATE (s)-[a:ARC {id: r.id, relation: r.relation, label: r.label, strength: r.strength, "
    "decay_rate: r.decay_rate, reinforcements: r.reinforcements, conversations: r.conversations, "
    "conversation_ids: r.conversation_ids, last_reinforced: r.last_reinforced, valid_from: r.valid_from, "
    "valid_to: r.valid_to, recorded_at: r.recorded_at, closed_at: r.closed_at, expired_at: r.expired_at, "
    "t_index: r.t_index, confidence: r.confidence, sources: r.sources, planned_for: r.planned_for}]->(o)"
)
SET_T_INDEX = "MERGE (m:Meta {id: 'meta'}) SET m.t_index = $t RETURN m.t_index AS t"

# --- recall support ------------------------------------------------------------------------------
CURRENT_T_INDEX = "MATCH (m:Meta {id: 'meta'}) RETURN m.t_index AS t"
ARCS_BY_IDS = f"MATCH (s:Entity)-[a:ARC]->(o:Entity) WHERE a.id IN $ids RETURN {ARC_FIELDS}"
SALIENT_NAMES = (
    "MATCH (e:Entity) WHERE e.is_user IS NULL OR e.is_user = false "
    "RETURN e.name AS name ORDER BY e.mentions DESC, e.last_seen DESC LIMIT $limit"
)

# --- episodes (utterances) ---------------------------------------------------------------------------
EPISODE_FIELDS = (
    "e.id AS id, e.conversation AS conversation, e.turn AS turn, e.speaker AS speaker, e.text AS text, "
    "e.at AS at"
)
UPSERT_EPISODES = (
    "UNWIND $rows AS r MERGE (e:Episode {id: r.id}) "
    "SET e.conversation = r.conversation, e.turn = r.turn, e.speaker = r.speaker, e.text = r.text, "
    "e.terms = r.terms, e.at = r.at, e.t_index = $t "
    "RETURN count(e) AS n"
)
EPISODE_IDS = "MATCH (e:Episode) RETURN e.id AS id"
# the stemmer that worked out the stored terms (memory.search.TERMS_VERSION); a memory older than the mark has none
TERMS_VERSION = "MATCH (m:Meta {id: 'meta'}) RETURN m.terms_version AS v"
SET_TERMS_VERSION = ("MERGE (m:Meta {id: 'meta'}) ON CREATE SET m.t_index = 0 SET m.terms_version = $v "
                     "RETURN m.terms_version AS v")
EPISODE_TEXTS = "MATCH (e:Episode) RETURN e.id AS id, e.text AS text"
SET_EPISODE_TERMS = "UNWIND $rows AS r MATCH (e:Episode {id: r.id}) SET e.terms = r.terms RETURN count(e) AS n"
EPISODES_BY_IDS = f"MATCH (e:Episode) WHERE e.id IN $ids RETURN {EPISODE_FIELDS}"
EPISODES_OF_CONVERSATION = (
    f"MATCH (e:Episode {{conversation: $conversation}}) RETURN {EPISODE_FIELDS} ORDER BY e.turn"
)
# Each entity matched by its id (indexed): "MATCH (n:Entity) WHERE n.id IN r.entities" joined every row with
# every entity — 14 s for 10k episodes over 2k entities, and refused past kglite's 10M-row ceiling (1000 turns
# over 10k entities).
LINK_MENTIONS = (
    "UNWIND $rows AS r MATCH (e:Episode {id: r.id}) UNWIND r.entities AS eid MATCH (n:Entity {id: eid}) "
    "MERGE (e)-[:MENTIONS]->(n) RETURN count(*) AS n"
)
EPISODES_MENTIONING = (
    "MATCH (e:Episode)-[:MENTIONS]->(n:Entity) WHERE n.id IN $ids AND e.at <= $now AND e.speaker <> 'assistant' "
    f"RETURN {EPISODE_FIELDS} ORDER BY e.at DESC LIMIT $limit"
)
# Said in a stretch of time (a question that names a period: "What did I do last weekend?"), oldest first.
EPISODES_SAID_BETWEEN = (
    "MATCH (e:Episode) WHERE e.at >= $start AND e.at < $end AND e.at <= $now AND e.speaker <> 'assistant' "
    f"RETURN {EPISODE_FIELDS} ORDER BY e.at LIMIT $limit"
)
# Of these episodes: said by one of the entities asked about, or naming one (graph distance to the question).
EPISODES_ABOUT = (
    "MATCH (e:Episode) WHERE e.id IN $ids "
    "OPTIONAL MATCH (e)-[:MENTIONS]->(n:Entity) WHERE n.id IN $entities "
    "RETURN e.id AS id, e.speaker IN $names AS spoke, count(n) > 0 AS named, e.text AS text"
)
# Search: the question's stemmed terms (never raw text: no query syntax reaches the engine) and its vector.
# Assistant turns are context, never evidence; episodes after $now do not exist yet.
# `limit` in the call: both backends rank and cut inside the index, so only the best `$pre` documents are read
# for the filter (kglite at 100k episodes: "friend play guitar", 8,682 hits, 18 -> 9 ms)
SEARCH_EPISODES_TEXT = (
    f"CALL db.index.fulltext.queryNodes('{EPISODE_TEXT_INDEX}', $query, {{limit: $pre}}) YIELD node, score "
    "WHERE node.speaker <> 'assistant' AND node.at <= $now "
    "RETURN node.id AS id, score ORDER BY score DESC LIMIT $limit"
)
# Episode vectors. Neo4j: a vector index over the `embedding` property. kglite: an embedding store searched by
# an exact scan (~15 ms over 100k vectors), written in the same transaction (`embedded` marks what has one):
# kglite rebuilds an HNSW index whenever it loads the file — 308 s per open at 100k vectors, and in every
# generated-Cypher sandbox child — while the store loads in 0.1 s.
_SEARCH_FILTER = (
    "YIELD node, score WHERE node.speaker <> 'assistant' AND node.at <= $now "
    "RETURN node.id AS id, score ORDER BY score DESC LIMIT $limit"
)
VECTORS: dict[str, dict[str, str]] = {
    "neo4j": {
        "set": "UNWIND $rows AS r MATCH (e:Episode {id: r.id}) SET e.embedding = r.embedding RETURN count(e) AS n",
        "missing": "MATCH (e:Episode) WHERE e.embedding IS NULL RETURN e.id AS id, e.text AS text",
        "search": f"CALL db.index.vector.queryNodes('{EPISODE_VECTOR_INDEX}', $k, $vector) " + _SEARCH_FILTER,
    },
    "kglite": {
        "set": "UNWIND $rows AS r MATCH (e:Episode {id: r.id}) SET e.embedded = true "
               "WITH collect({node: e, vector: r.embedding}) AS entries "
               "CALL db.node_embeddings.set({type: 'Episode', text_column: 'text', entries: entries}) "
               "YIELD stored RETURN stored AS n",
        "missing": "MATCH (e:Episode) WHERE e.embedded IS NULL RETURN e.id AS id, e.text AS text",
        "search": "CALL db.node_embeddings.query({type: 'Episode', text_column: 'text', vector: $vector, "
                  "top_k: $k}) " + _SEARCH_FILTER,
    },
}
# A memory written before the embedding store: its HNSW index goes, its vectors move into the store.
HAS_OLD_VECTOR_INDEX = f"SHOW INDEXES YIELD name WHERE name = '{EPISODE_VECTOR_INDEX}' RETURN name"
DROP_OLD_VECTOR_INDEX = f"DROP INDEX {EPISODE_VECTOR_INDEX}"
COUNT_OLD_VECTORS = "MATCH (e:Episode) WHERE e.embedding IS NOT NULL RETURN count(e) AS n"
MOVE_OLD_VECTORS = (  # only when there are some: the store of a type that has no node cannot be written
    "MATCH (e:Episode) WHERE e.embedding IS NOT NULL WITH collect({node: e, vector: e.embedding}) AS entries "
    "CALL db.node_embeddings.set({type: 'Episode', text_column: 'text', entries: entries}) YIELD stored "
    "RETURN stored AS n",
    "MATCH (e:Episode) WHERE e.embedding IS NOT NULL REMOVE e.embedding SET e.embedded = true RETURN count(e) AS n",
)
# Facts whose provenance is one of the given episodes (a fact links to the utterances it came from).
# Facts learned from these episodes, reached through the entities the episodes are linked to (learning links
# each episode to the ends of the facts it gave): a scan of every arc's sources costs ~200 ms at 100k arcs.
ARCS_FROM_EPISODES = (
    "MATCH (e:Episode)-[:MENTIONS]->(s:Entity) WHERE e.id IN $ids AND s.id <> $user WITH DISTINCT s "
    "MATCH (s)-[a:ARC]->(o:Entity) WHERE any(x IN a.sources WHERE x IN $ids) AND " + KNOWN_AT + " "
    f"RETURN {ARC_FIELDS} "
    "UNION "
    "MATCH (e:Episode)-[:MENTIONS]->(o:Entity) WHERE e.id IN $ids AND o.id <> $user WITH DISTINCT o "
    "MATCH (s:Entity)-[a:ARC]->(o) WHERE any(x IN a.sources WHERE x IN $ids) AND " + KNOWN_AT + " "
    f"RETURN {ARC_FIELDS}"
)
DELETE_EPISODES_OF_CONVERSATION = (
    "MATCH (e:Episode {conversation: $conversation}) WITH e, e.id AS id DETACH DELETE e RETURN id"
)
COUNT_EPISODES = "MATCH (e:Episode) RETURN count(e) AS n"
EPISODE_SPEAKERS = "MATCH (e:Episode) RETURN DISTINCT e.speaker AS speaker"
# --- forgetting (privacy): every node's and arc's properties, to find a forgotten name anywhere -------
# Generic on purpose: any label (Entity, Episode, ...) and any property is searched, so a node type added
# later is covered without a change here. Redaction happens in Python (memory/redact.py) and is written
# back by element id. Meta is the t_index counter: structural, never text.
ALL_NODE_PROPS = (
    "MATCH (n) WHERE NOT n:Meta RETURN elementId(n) AS eid, labels(n) AS labels, properties(n) AS props"
)
ALL_REL_PROPS = "MATCH ()-[r]->() RETURN elementId(r) AS eid, type(r) AS type, properties(r) AS props"
DELETE_NODE = (
    "MATCH (n) WHERE elementId(n) = $eid OPTIONAL MATCH (n)-[a:ARC]-() "
    "WITH n, collect(a.id) AS arcs DETACH DELETE n RETURN arcs"
)
SET_NODE_PROPS = "MATCH (n) WHERE elementId(n) = $eid SET n += $props RETURN count(n) AS n"
SET_REL_PROPS = "MATCH ()-[r]->() WHERE elementId(r) = $eid SET r += $props RETURN count(r) AS n"
# forget --conversation: the arcs that cite it (as a learning conversation or through a turn source)
ARCS_OF_CONVERSATION = (
    "MATCH (s:Entity)-[a:ARC]->(o:Entity) "
    "WHERE $cid IN a.conversation_ids OR any(x IN a.sources WHERE x STARTS WITH $prefix) "
    f"RETURN {ARC_FIELDS}"
)
SET_ARC_SUPPORT = (
    "MATCH (s:Entity)-[a:ARC]->(o:Entity) WHERE a.id = $id "
    "SET a.conversation_ids = $conversation_ids, a.conversations = $conversations, a.sources = $sources, "
    "a.reinforcements = $reinforcements, a.valid_to = $valid_to, a.closed_at = $closed_at, "
    "a.expired_at = $expired_at, a.t_index = $t RETURN a.id AS id"
)
DELETE_ARCS_BY_IDS = "MATCH (s:Entity)-[a:ARC]->(o:Entity) WHERE a.id IN $ids WITH a, a.id AS id DELETE a RETURN id"
DELETE_ORPHANS_AMONG = (
    "MATCH (e:Entity) WHERE e.id IN $ids AND NOT (e)--() AND (e.is_user IS NULL OR e.is_user = false) "
    "WITH e, e.id AS id, e.name AS name DETACH DELETE e RETURN id, name"
)

# --- merging duplicate entities (memory/merges.py) ---------------------------------------------------
# A merge moves the loser's arcs to the survivor under their own ids (kglite cannot re-point an arc: it is
# deleted and created again with every property), folds a current fact both hold into the survivor's copy
# (the loser's copy kept as a :FoldedArc node), and keeps what undoing needs on a :Merge node.
_ARC_RAW = "s.id AS subject_id, o.id AS object_id, " + ", ".join(f"a.{k} AS {k}" for k in ARC_PROPS)
ARCS_RAW_OUT = f"MATCH (s:Entity {{id: $id}})-[a:ARC]->(o:Entity) RETURN {_ARC_RAW}"
ARCS_RAW_IN = f"MATCH (o:Entity {{id: $id}})<-[a:ARC]-(s:Entity) RETURN {_ARC_RAW}"
ARCS_RAW_OUT_BY_IDS = f"MATCH (s:Entity {{id: $id}})-[a:ARC]->(o:Entity) WHERE a.id IN $ids RETURN {_ARC_RAW}"
ARCS_RAW_IN_BY_IDS = f"MATCH (o:Entity {{id: $id}})<-[a:ARC]-(s:Entity) WHERE a.id IN $ids RETURN {_ARC_RAW}"
DELETE_ARCS_OUT_BY_IDS = (
    "MATCH (s:Entity {id: $id})-[a:ARC]->(o:Entity) WHERE a.id IN $ids WITH a, a.id AS id DELETE a RETURN id"
)
DELETE_ARCS_IN_BY_IDS = (
    "MATCH (o:Entity {id: $id})<-[a:ARC]-(s:Entity) WHERE a.id IN $ids WITH a, a.id AS id DELETE a RETURN id"
)
# kinship and partners toward the user, current: who "my sister" can be
ROLE_HOLDERS = (
    "MATCH (u:Entity {id: $user})<-[a:ARC]-(s:Entity) WHERE a.relation IN $relations AND a.valid_to IS NULL "
    "AND a.expired_at IS NULL RETURN a.relation AS relation, s.id AS id"
)
ROLE_HOLDERS_SYMMETRIC = (
    "MATCH (u:Entity {id: $user})-[a:ARC]->(o:Entity) WHERE a.relation IN $relations AND a.valid_to IS NULL "
    "AND a.expired_at IS NULL RETURN a.relation AS relation, o.id AS id"
)
SET_FOLDED = (
    "MATCH (s:Entity {id: $subject_id})-[a:ARC]->(o:Entity) WHERE a.id = $id "
    "SET a.strength = $strength, a.decay_rate = $decay_rate, a.last_reinforced = $last_reinforced, "
    "a.reinforcements = $reinforcements, a.conversation_ids = $conversation_ids, "
    "a.conversations = $conversations, a.sources = $sources, a.valid_from = $valid_from, "
    "a.recorded_at = $recorded_at, a.confidence = $confidence, a.t_index = $t RETURN a.id AS id"
)
FOLD_BEFORE = ("strength", "decay_rate", "last_reinforced", "reinforcements", "conversation_ids", "conversations",
               "sources", "valid_from", "recorded_at", "confidence")  # the survivor's copy before the fold
CREATE_FOLDED_ARC = (
    "CREATE (f:FoldedArc {merge: $merge, into: $into, into_subject: $into_subject, subject_id: $subject_id, "
    "object_id: $object_id, "
    + ", ".join(f"{k}: ${k}" for k in ARC_PROPS) + ", " + ", ".join(f"before_{k}: $before_{k}" for k in FOLD_BEFORE)
    + "}) RETURN f.id AS id"
)
FOLDED_OF_MERGE = "MATCH (f:FoldedArc {merge: $merge}) RETURN properties(f) AS props"
DELETE_FOLDED_OF_MERGE = "MATCH (f:FoldedArc {merge: $merge}) WITH f, f.id AS id DELETE f RETURN id"
ENTITY_RAW = "MATCH (e:Entity {id: $id}) RETURN " + ", ".join(f"e.{k} AS {k}" for k in ENTITY_PROPS)
SET_ENTITY_MERGED = (
    "MATCH (e:Entity {id: $id}) SET e.aliases = $aliases, e.keys = $keys, e.type = $type, "
    "e.mentions = $mentions, e.last_seen = $last_seen, e.t_index = $t RETURN e.id AS id"
)
RESTORE_ENTITY = (
    "CREATE (e:Entity {id: $id, name: $name, key: $key, type: $type, aliases: $aliases, keys: $keys, "
    "is_user: false, created_at: $created_at, last_seen: $last_seen, mentions: $mentions, t_index: $t}) "
    "RETURN e.id AS id"
)
EPISODES_MENTIONING_ENTITY = "MATCH (n:Entity {id: $id})<-[:MENTIONS]-(e:Episode) RETURN e.id AS id"
UNLINK_MENTIONS = (
    "MATCH (n:Entity {id: $entity})<-[m:MENTIONS]-(e:Episode) WHERE e.id IN $ids DELETE m RETURN count(*) AS n"
)
_MERGE_PROPS = ("id", "at", "t_index", "rule", "evidence", "survivor_id", "survivor_name", "loser_id",
                "loser_name", "loser_key", "loser_type", "loser_aliases", "loser_keys", "loser_created_at",
                "loser_last_seen", "loser_mentions", "aliases_added", "survivor_type_before", "moved_out",
                "moved_in", "folded", "episodes", "episodes_moved", "undone_at")
CREATE_MERGE = (
    "CREATE (m:Merge {" + ", ".join(f"{k}: ${k}" for k in _MERGE_PROPS) + "}) RETURN m.id AS id"
)
MERGE_FIELDS = ", ".join(f"m.{k} AS {k}" for k in _MERGE_PROPS)
MERGE_BY_ID = f"MATCH (m:Merge {{id: $id}}) RETURN {MERGE_FIELDS}"
MERGES_RECENT = f"MATCH (m:Merge) RETURN {MERGE_FIELDS} ORDER BY m.t_index DESC LIMIT $limit"
LATER_MERGE_INTO = (  # a merge that folded this entity into another after it survived one (undo that first)
    "MATCH (m:Merge {loser_id: $id}) WHERE m.undone_at IS NULL AND m.t_index > $t RETURN m.id AS id"
)
MERGES_UNDONE = (  # pairs the user split again: never merged again by consolidation
    "MATCH (m:Merge) WHERE m.undone_at IS NOT NULL RETURN m.survivor_id AS survivor_id, m.loser_id AS loser_id, "
    "m.undone_at AS undone_at"
)
MARK_MERGE_UNDONE = "MATCH (m:Merge {id: $id}) SET m.undone_at = $now RETURN m.id AS id"

# --- the user's corrections (memory/corrections.py): what each changed, so the last one can be undone ----
_CORRECTION_PROPS = ("id", "at", "t_index", "kind", "arc_id", "summary", "kinds", "arcs", "undone_at")
CREATE_CORRECTION = (
    "CREATE (c:Correction {" + ", ".join(f"{k}: ${k}" for k in _CORRECTION_PROPS) + "}) RETURN c.id AS id"
)
CORRECTION_FIELDS = ", ".join(f"c.{k} AS {k}" for k in _CORRECTION_PROPS)
CORRECTIONS_RECENT = f"MATCH (c:Correction) RETURN {CORRECTION_FIELDS} ORDER BY c.t_index DESC LIMIT $limit"
LAST_CORRECTION = (
    f"MATCH (c:Correction) WHERE c.undone_at IS NULL RETURN {CORRECTION_FIELDS} ORDER BY c.t_index DESC LIMIT 1"
)
CORRECTION_BY_ID = f"MATCH (c:Correction {{id: $id}}) RETURN {CORRECTION_FIELDS}"
MARK_CORRECTION_UNDONE = "MATCH (c:Correction {id: $id}) SET c.undone_at = $now RETURN c.id AS id"
UNEXPIRE_ARC = (
    "MATCH (s:Entity {id: $subject_id})-[a:ARC]->(o:Entity) WHERE a.id = $id "
    "SET a.expired_at = null, a.t_index = $t, s.t_index = $t, o.t_index = $t RETURN a.id AS id"
)
REOPEN_ARC = (
    "MATCH (s:Entity {id: $subject_id})-[a:ARC]->(o:Entity) WHERE a.id = $id "
    "SET a.valid_to = null, a.closed_at = null, a.t_index = $t, s.t_index = $t, o.t_index = $t "
    "RETURN a.id AS id"
)

# --- consolidation reports (memory/reports.py): in the graph, so forgetting a name scrubs them too ------------
CREATE_REPORT = "CREATE (r:Report {id: $id, at: $at, t_index: $t, report: $report}) RETURN r.id AS id"
REPORTS_RECENT = "MATCH (r:Report) RETURN r.id AS id, r.report AS report ORDER BY r.t_index DESC LIMIT $limit"
PRUNE_REPORTS = "MATCH (r:Report) WITH r ORDER BY r.t_index DESC SKIP $keep DELETE r RETURN count(*) AS n"

# --- entity summaries (memory/summaries.py): one line per salient entity for recall prompts ----------------
# (:Entity {summary, summary_at, summary_t}): the text, when it was composed (epoch) and the temporal index it
# saw; the entity's t_index passing it (a fact of it added, reinforced, closed, retracted: see CLOSE_ARC) makes it
# stale, and recall composes the line again from the facts. Salience candidates come from node properties and
# episode links (a scan of every arc costs ~0.5 s at 100k arcs); their decayed weight is summed per entity.
SALIENCE_BY_MENTIONS = (
    "MATCH (e:Entity) WHERE e.is_user IS NULL OR e.is_user = false "
    "RETURN e.id AS id ORDER BY e.mentions DESC, e.last_seen DESC LIMIT $limit"
)
SALIENCE_BY_EPISODES = (
    "MATCH (ep:Episode)-[:MENTIONS]->(e:Entity) WHERE e.is_user IS NULL OR e.is_user = false "
    "WITH e.id AS id, count(ep) AS episodes, count(DISTINCT ep.conversation) AS conversations "
    "RETURN id, episodes, conversations ORDER BY conversations DESC, episodes DESC LIMIT $limit"
)
SALIENCE_WEIGHT_OF = (
    "UNWIND $ids AS i MATCH (e:Entity {id: i})-[a:ARC]-(:Entity) "
    "WHERE a.valid_to IS NULL AND a.expired_at IS NULL "
    f"RETURN e.id AS id, sum({WEIGHT}) AS weight, count(a) AS arcs"
)
SALIENCE_EPISODES_OF = (
    "UNWIND $ids AS i MATCH (e:Entity {id: i})<-[:MENTIONS]-(ep:Episode) "
    "RETURN e.id AS id, count(ep) AS episodes, count(DISTINCT ep.conversation) AS conversations"
)
SET_SUMMARIES = (
    "UNWIND $rows AS r MATCH (e:Entity {id: r.id}) "
    "SET e.summary = r.summary, e.summary_at = $now, e.summary_t = $t RETURN count(e) AS n"
)
# Setting null removes the property, so a checkpoint leaves no byte of the old text in the file.
DROP_SUMMARIES = (
    "MATCH (e:Entity) WHERE e.summary IS NOT NULL "
    "SET e.summary = null, e.summary_at = null, e.summary_t = null RETURN count(e) AS n"
)
SUMMARIES_OF = (
    "UNWIND $ids AS i MATCH (e:Entity {id: i}) WHERE e.summary IS NOT NULL "
    "RETURN e.id AS id, e.name AS name, e.type AS type, e.summary AS summary, e.summary_at AS at, "
    "e.summary_t AS t, e.t_index AS entity_t"
)
