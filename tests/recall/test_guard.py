"""The read-only Cypher guard: adversarial refusals, allowed reads, and the kglite read-only layer below."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memory.errors import QueryFailed, QueryRefused
from memory.kglite_store import KgliteStore
from memory.recall.guard import check_read_only, ensure_limit

# (id, query, a fragment the refusal reason must contain)
REFUSED: list[tuple[str, str, str]] = [
    # plain writes and admin, every clause
    ("create", "CREATE (n:Entity {id: 'x'}) RETURN n", "CREATE"),
    ("match-create", "MATCH (n:Entity) CREATE (n)-[:ARC]->(m:Entity) RETURN m", "CREATE"),
    ("merge", "MERGE (n:Entity {id: 'x'}) RETURN n", "MERGE"),
    ("set", "MATCH (n:Entity) SET n.name = 'x' RETURN n", "SET"),
    ("set-plus-equals", "MATCH (n:Entity) SET n += {name: 'x'} RETURN n", "SET"),
    ("set-label", "MATCH (n:Entity) SET n:Admin RETURN n", "SET"),
    ("delete", "MATCH ()-[a:ARC]->() DELETE a RETURN count(*) AS n", "DELETE"),
    ("detach-delete", "MATCH (n) DETACH DELETE n RETURN 1 AS one", "DETACH"),
    ("nodetach-delete", "MATCH (n) NODETACH DELETE n RETURN 1 AS one", "NODETACH"),
    ("remove-property", "MATCH (n:Entity) REMOVE n.name RETURN n", "REMOVE"),
    ("remove-label", "MATCH (n:Entity) REMOVE n:Entity RETURN n", "REMOVE"),
    ("foreach", "MATCH (n) FOREACH (x IN [1] | CREATE (:Foo)) RETURN n", "FOREACH"),
    ("kglite-insert", "INSERT (n:Entity {id: 'x'})", "INSERT"),
    ("insert-after-match", "MATCH (n) INSERT (m:Entity {id: 'x'}) RETURN n", "INSERT"),
    ("drop-index", "DROP INDEX hearth_entity_name", "DROP"),
    ("create-index", "CREATE INDEX FOR (e:Entity) ON (e.name)", "CREATE"),
    ("alter-database", "ALTER DATABASE neo4j SET ACCESS READ WRITE", "ALTER"),
    ("grant", "GRANT ALL ON DATABASE * TO PUBLIC", "GRANT"),
    ("deny", "DENY READ {*} ON GRAPH * TO reader", "DENY"),
    ("revoke", "REVOKE ROLE admin FROM alice", "REVOKE"),
    ("show-procedures", "SHOW PROCEDURES YIELD name RETURN name", "SHOW"),
    ("use-database", "USE system MATCH (n) RETURN n", "USE"),
    ("start-database", "START DATABASE neo4j", "START"),
    ("stop-database", "STOP DATABASE neo4j", "STOP"),
    ("terminate", "TERMINATE TRANSACTIONS 'neo4j-transaction-1'", "TERMINATE"),
    # case mixing
    ("mixed-case-create", "MATCH (n) cReAtE (m) RETURN n", "CREATE"),
    ("lower-detach", "match (n) detach delete n return 1", "DETACH"),
    ("mixed-case-set", "MATCH (n) sEt n.x = 1 RETURN n", "SET"),
    # comment tricks
    ("block-comments-around-delete", "MATCH (n) /* x */ DETACH /**/ DELETE n RETURN 1 AS x", "DETACH"),
    ("line-comment-then-create", "// comment\nCREATE (n) RETURN n", "CREATE"),
    ("keyword-split-by-block-comment", "MATCH (n) CRE/**/ATE (m) RETURN n", "CREATE spelled across"),
    ("keyword-split-by-comment-and-newline", "MATCH (n) DEL/*x*/\nETE n RETURN 1", "DELETE spelled across"),
    ("keyword-split-by-spaces", "MATCH (n) C R E A T E (m:Foo) RETURN n", "CREATE spelled across"),
    ("line-comment-hides-nothing", "MATCH (n) RETURN n // harmless?\nSET n.x = 1", "SET"),
    ("unterminated-block-comment", "MATCH (n) RETURN n /* CREATE (m)", "unterminated /*"),
    # string-escape tricks
    ("escaped-quote-then-create", "RETURN '\\'' CREATE (n)", "CREATE"),
    ("escaped-backslash-then-quote", "RETURN '\\\\'' CREATE (n) RETURN 1", "directly followed by a quote"),
    ("escaped-backslash-unterminated", "RETURN '\\\\' + ' CREATE (n) RETURN 1", "unterminated string"),
    ("unterminated-single", "MATCH (n) WHERE n.name = 'abc RETURN n", "unterminated string"),
    ("unterminated-double", 'MATCH (n) WHERE n.name = "abc RETURN n', "unterminated string"),
    ("trailing-backslash-in-string", "RETURN 'abc\\", "unterminated string"),
    ("doubled-quote-escape", "RETURN 'it'' CREATE (n) RETURN ''x' AS y", "directly followed by a quote"),
    ("unterminated-backtick", "MATCH (n:`Entity) RETURN n", "unterminated backtick"),
    ("doubled-backtick", "MATCH (n:`a``b`) RETURN n", "doubled backtick"),
    # unicode and control characters
    ("fullwidth-create", "MATCH (n) ＣＲＥＡＴＥ (m) RETURN n", "non-ASCII character U+FF23"),
    ("cyrillic-es-in-create", "MATCH (n) \u0421REATE (m) RETURN n", "U+0421"),
    ("cyrillic-a-in-match", "M\u0410TCH (n) RETURN n", "U+0410"),
    ("zero-width-joiner", "MATCH (n) CRE\u200dATE (m) RETURN n", "U+200D"),
    ("zero-width-space-in-string", "MATCH (n) WHERE n.name = 'Sa\u200bm' RETURN n", "U+200B"),
    ("right-to-left-override", "MATCH (n) RETURN n // \u202e ETELED HCATED", "U+202E"),
    ("nul-byte", "MATCH (n) RETURN n\x00 CREATE (m)", "U+0000"),
    ("vertical-tab", "MATCH (n)\x0bRETURN n", "U+000B"),
    ("bom", "\ufeffMATCH (n) RETURN n", "U+FEFF"),
    ("line-separator", "MATCH (n) RETURN n\u2028CREATE (m)", "U+2028"),
    ("non-ascii-in-comment", "MATCH (n) RETURN n /* café */", "U+00E9"),
    ("non-ascii-backtick-name", "MATCH (n:`Éntity`) RETURN n", "U+00C9"),
    ("non-ascii-param-name", "MATCH (n) WHERE n.id = $`ｉｄ` RETURN n", "U+FF49"),
    ("nbsp-outside-string", "MATCH\u00a0(n) RETURN n", "U+00A0"),
    # subqueries with writes
    ("call-subquery-create", "MATCH (n) CALL { CREATE (m:Foo) } RETURN n", "CALL"),
    ("call-scoped-subquery", "MATCH (n) CALL () { MATCH (m) RETURN m } RETURN n, m", "CALL"),
    ("call-read-subquery", "MATCH (n) CALL { WITH n MATCH (n)--(m) RETURN m } RETURN m", "CALL"),
    ("exists-with-write", "MATCH (n) WHERE EXISTS { MATCH (n) SET n.x = 1 } RETURN n", "SET"),
    ("collect-with-write", "MATCH (n) RETURN COLLECT { CREATE (m:Foo) RETURN m } AS c", "CREATE"),
    ("count-with-delete", "MATCH (n) RETURN COUNT { MATCH (m) DETACH DELETE m } AS c", "DETACH"),
    # procedures and namespaced functions
    ("call-dbms-procedures", "CALL dbms.procedures()", "CALL"),
    ("call-apoc-runwrite", "CALL apoc.cypher.runWrite('CREATE (n)', {}) YIELD value RETURN value", "CALL"),
    ("call-db-labels", "CALL db.labels() YIELD label RETURN label", "CALL"),
    (
        "apoc-function",
        "RETURN apoc.cypher.runFirstColumnSingle('MATCH (n) DETACH DELETE n') AS x",
        "runFirstColumnSingle",
    ),
    ("apoc-function-harmless-arg", "RETURN apoc.cypher.runFirstColumnSingle('RETURN 1') AS x", "apoc.cypher"),
    ("db-function", "MATCH (n) RETURN db.nameFromElementId(elementId(n)) AS x", "db.nameFromElementId"),
    ("dbms-function", "RETURN dbms.components() AS x", "dbms.components"),
    ("gds-function", "MATCH (n) RETURN gds.util.asNode(id(n)) AS x", "gds.util.asNode"),
    ("kglite-function", "RETURN kglite.version() AS v", "kglite.version"),
    ("spaced-namespace", "RETURN apoc . text . join(['a'], ',') AS x", "apoc.text.join"),
    ("commented-namespace", "RETURN apoc./**/do.when(true, 'x') AS x", "apoc.do.when"),
    ("backticked-namespace", "RETURN `apoc`.`util`.sleep(1000) AS x", "`apoc`.`util`.sleep"),
    ("backticked-function-name", "RETURN `apoc.util.sleep`(1000) AS x", "backtick-quoted name"),
    # backticks: kglite executes `LOAD` CSV as LOAD CSV, so a quoted identifier counts as its word
    ("backticked-load-in-union",
     "RETURN 'x' AS id UNION `LOAD` CSV FROM 'file:///etc/passwd' AS l RETURN l[0] AS id", "LOAD"),
    ("backticked-lowercase-load", "RETURN 1 AS x UNION `load` CSV FROM 'file:///x' AS l RETURN l AS x", "LOAD"),
    ("backticked-detach-delete", "MATCH (n) `DETACH` `DELETE` n RETURN 1 AS x", "DETACH"),
    ("backticked-halves", "MATCH (n) RETURN 1 AS x UNION `LO` `AD` CSV FROM 'f' AS l RETURN l AS x", "LOAD"),
    ("backticked-keyword-alias", "MATCH (e:Entity) RETURN e.name AS `CREATE`", "CREATE"),
    # files and periodic commit
    ("load-csv", "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line", "LOAD"),
    ("load-csv-after-with", "WITH 1 AS x LOAD CSV WITH HEADERS FROM 'http://e/x' AS r RETURN r", "LOAD"),
    ("periodic-commit", "USING PERIODIC COMMIT 500 LOAD CSV FROM 'file:///x' AS l RETURN l", "PERIODIC"),
    (
        "in-transactions",
        "UNWIND range(1, 10) AS i CALL { WITH i MATCH (n) RETURN n } IN TRANSACTIONS RETURN n",
        "CALL",
    ),
    ("in-transactions-alone", "MATCH (n) RETURN n IN TRANSACTIONS OF 10 ROWS", "TRANSACTIONS"),
    # statements, client commands, shape
    ("two-statements", "MATCH (n) RETURN n; MATCH (m) DETACH DELETE m", "multiple statements"),
    ("two-reads", "MATCH (n) RETURN n; MATCH (m) RETURN m", "multiple statements"),
    ("double-semicolon", "MATCH (n) RETURN n;;", "multiple statements"),
    ("semicolon-in-comment-then-stmt", "MATCH (n) RETURN n; // ok\nRETURN 1", "multiple statements"),
    ("client-param", ":param x => 1", "client command"),
    ("client-play", ":play movies", "client command"),
    ("client-after-comment", "// hi\n:use system", "client command"),
    ("too-long", "MATCH (n) RETURN n" + " " * 4000, "longer than 4000"),
    ("empty", "", "empty query"),
    ("whitespace-only", "  \n\t  ", "empty query"),
    ("comment-only", "// just a comment", "empty query"),
    ("semicolon-only", ";", "empty query"),
    ("no-return", "MATCH (n:Entity) WHERE n.name = 'Sam'", "no RETURN"),
    ("return-only-in-subquery", "MATCH (n) WHERE EXISTS { MATCH (n)--(m) RETURN m }", "no RETURN"),
    ("explain-prefix", "EXPLAIN MATCH (n) RETURN n", "must start with"),
    ("profile-prefix", "PROFILE MATCH (n) RETURN n", "must start with"),
    ("cypher-prefix", "CYPHER runtime=slotted MATCH (n) RETURN n", "must start with"),
    ("optional-without-match", "OPTIONAL (n) RETURN n", "must start with"),
    ("unbalanced-bracket", "MATCH (n RETURN n", "bracket"),
    ("stray-backslash", "MATCH (n) RETURN n \\ 1", "unexpected character"),
    ("dollar-not-param", "MATCH (n) RETURN $ AS x", "not a parameter"),
    ("keyword-as-alias", "MATCH ()-[a:ARC]->() RETURN a.valid_from AS start", "START"),
    ("keyword-map-key", "RETURN {set: 1} AS m", "SET"),
    ("property-with-space-then-keyword", "MATCH (n) RETURN n. CREATE (m)", "CREATE"),
]

ALLOWED: list[tuple[str, str]] = [
    ("simple", "MATCH (e:Entity) RETURN e.name AS name ORDER BY name"),
    ("create-in-string", "MATCH (e:Entity) WHERE e.name <> 'CREATE (n)' RETURN e.name AS name"),
    ("delete-in-double-string", 'MATCH (e:Entity) WHERE e.name <> "DETACH DELETE e; DROP" RETURN e.name'),
    ("escaped-quote-string", "MATCH (e:Entity) WHERE e.name <> 'it\\'s a CREATE' RETURN e.name AS name"),
    ("non-ascii-in-string", "MATCH (e:Entity) WHERE e.name <> 'Zoë ＣＲＥＡＴＥ' RETURN e.name"),
    ("backticked-keyword-label", "MATCH (e:`CREATE`) RETURN count(e) AS n"),
    ("backticked-keyword-property", "MATCH (e:Entity) RETURN e.`set` AS s"),
    ("property-named-like-keyword", "MATCH (s:Entity)-[a:ARC]->(o:Entity) RETURN a.set AS s2, o.name AS o"),
    (
        "comments-stripped",
        "// who is the user?\nMATCH (e:Entity) /* only the user */ WHERE e.is_user RETURN e.name AS name;",
    ),
    (
        "relation-filter",
        "MATCH (s:Entity)-[a:ARC]->(o:Entity) WHERE a.relation = 'likes' AND a.valid_to IS NULL "
        "RETURN s.name AS s, o.name AS o",
    ),
    ("optional-match", "OPTIONAL MATCH (e:Entity {name: 'Nobody'}) RETURN e.name AS name"),
    (
        "union",
        "MATCH (e:Entity) WHERE e.is_user RETURN e.name AS name "
        "UNION MATCH (e:Entity)<-[:ARC]-(:Entity) RETURN e.name AS name",
    ),
    (
        "case",
        "MATCH (e:Entity) RETURN e.name AS name, CASE WHEN e.is_user THEN 'me' ELSE 'other' END AS who",
    ),
    ("list-comprehension", "MATCH (e:Entity) RETURN [x IN e.aliases WHERE size(x) > 0 | toLower(x)] AS a"),
    (
        "decay-weight",
        "MATCH (s:Entity)-[a:ARC]->(o:Entity) "
        "RETURN o.name AS o, a.strength * exp(-a.decay_rate * ($now - a.last_reinforced) / 86400.0) AS w "
        "ORDER BY w DESC LIMIT 5",
    ),
    (
        "temporal-at",
        "MATCH (s:Entity)-[a:ARC]->(o:Entity) WHERE a.valid_from <= $at "
        "AND (a.valid_to IS NULL OR a.valid_to > $at) RETURN DISTINCT o.name AS o",
    ),
    ("variable-length", "MATCH (u:Entity)-[:ARC*1..2]-(x:Entity) RETURN DISTINCT x.name AS n SKIP 0"),
    ("with-aggregate", "MATCH ()-[a:ARC]->() WITH a.relation AS r, count(*) AS n RETURN r, n ORDER BY n"),
    ("unwind", "UNWIND ['Sam', 'Tea'] AS nm MATCH (e:Entity {name: nm}) RETURN coalesce(e.type, '?') AS t"),
    ("with-first", "WITH $now AS t MATCH (e:Entity) RETURN e.name AS name, t"),
    ("return-only", "RETURN 1 AS one"),
    ("exists-read-subquery", "MATCH (e:Entity) WHERE EXISTS { MATCH (e)-[:ARC]->() } RETURN e.name AS n"),
]


def test_tables_are_big_enough() -> None:
    assert len(REFUSED) >= 50 and len(ALLOWED) >= 10
    assert len({i for i, _, _ in REFUSED}) == len(REFUSED)
    assert len({i for i, _ in ALLOWED}) == len(ALLOWED)


@pytest.mark.parametrize(("query", "reason"), [(q, r) for _, q, r in REFUSED], ids=[i for i, _, _ in REFUSED])
def test_refused(query: str, reason: str) -> None:
    with pytest.raises(QueryRefused) as info:
        check_read_only(query)
    assert reason in info.value.message
    assert info.value.code == "query_refused"


@pytest.mark.parametrize("query", [q for _, q in ALLOWED], ids=[i for i, _ in ALLOWED])
def test_allowed(query: str) -> None:
    cleaned = check_read_only(query)
    assert "//" not in cleaned and "/*" not in cleaned and not cleaned.endswith(";")
    assert check_read_only(cleaned) == cleaned  # idempotent: the cleaned text is itself accepted


def test_cleaning_replaces_comments_with_a_space_and_drops_trailing_semicolon() -> None:
    query = "MATCH (e:Entity)/* c */RETURN e.name AS n // tail\n ;  \n"
    assert check_read_only(query) == "MATCH (e:Entity) RETURN e.name AS n"
    assert check_read_only("RETURN '/* not a comment */ // nor this' AS s") == (
        "RETURN '/* not a comment */ // nor this' AS s"
    )


def test_max_length_boundary() -> None:
    query = "RETURN 1 AS x"
    assert check_read_only(query, max_length=len(query)) == query
    with pytest.raises(QueryRefused, match="longer than"):
        check_read_only(query, max_length=len(query) - 1)


def test_reason_names_the_refused_keyword_and_has_a_hint() -> None:
    with pytest.raises(QueryRefused) as info:
        check_read_only("MATCH (n) dEtAcH DELETE n RETURN 1 AS x")
    assert "DETACH" in str(info.value) and info.value.hint


def test_non_string_refused() -> None:
    with pytest.raises(QueryRefused, match="must be a string"):
        check_read_only(b"MATCH (n) RETURN n")  # type: ignore[arg-type]


# --- ensure_limit ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("MATCH (e:Entity) RETURN e.name AS n", "MATCH (e:Entity) RETURN e.name AS n LIMIT 25"),
        ("MATCH (e:Entity) RETURN e.name AS n LIMIT 3;", "MATCH (e:Entity) RETURN e.name AS n LIMIT 3"),
        ("MATCH (e) RETURN e.name AS n LIMIT $limit", "MATCH (e) RETURN e.name AS n LIMIT $limit"),
        ("MATCH (e) RETURN e.id ORDER BY e.id SKIP 2", "MATCH (e) RETURN e.id ORDER BY e.id SKIP 2 LIMIT 25"),
        ("MATCH (e) WITH e LIMIT 5 RETURN e.name", "MATCH (e) WITH e LIMIT 5 RETURN e.name LIMIT 25"),
        (
            "MATCH (e) WHERE EXISTS { MATCH (e)--(m) RETURN m LIMIT 1 } RETURN e.name AS n",
            "MATCH (e) WHERE EXISTS { MATCH (e)--(m) RETURN m LIMIT 1 } RETURN e.name AS n LIMIT 25",
        ),
        ("RETURN 1 AS x UNION ALL RETURN 2 AS x", "RETURN 1 AS x LIMIT 25 UNION ALL RETURN 2 AS x LIMIT 25"),
        ("RETURN 1 AS x LIMIT 1 UNION RETURN 2 AS x", "RETURN 1 AS x LIMIT 1 UNION RETURN 2 AS x LIMIT 25"),
        ("MATCH (e) RETURN e.limit AS n // no limit\n", "MATCH (e) RETURN e.limit AS n LIMIT 25"),
    ],
)
def test_ensure_limit(query: str, expected: str) -> None:
    assert ensure_limit(query, 25) == expected


def test_ensure_limit_checks_and_validates() -> None:
    with pytest.raises(QueryRefused):
        ensure_limit("MATCH (n) DELETE n RETURN 1 AS x", 10)
    for bad in (0, -1, True, 2.5):
        with pytest.raises(ValueError):
            ensure_limit("RETURN 1 AS x", bad)  # type: ignore[arg-type]


# --- integration: the guard in front of the sandboxed read (memory/sandbox.py) --------------------------------

SEED = (
    "CREATE (u:Entity {id: 'u', name: 'Sam', type: 'person', is_user: true, aliases: ['me']})"
    "-[:ARC {id: 'a1', relation: 'likes', strength: 2.0, decay_rate: 0.01, last_reinforced: 0.0, "
    "valid_from: 0.0, valid_to: null}]->"
    "(t:Entity {id: 't', name: 'Tea', type: 'thing', is_user: false, aliases: ['tea']})"
)
SNAPSHOT = "MATCH (e:Entity) OPTIONAL MATCH (e)-[a]->() RETURN e.id AS e, e.name AS n, a.id AS a ORDER BY e"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[KgliteStore]:
    s = KgliteStore(tmp_path / "g.kgl")
    with s.transaction() as tx:
        tx.run(SEED)
    yield s
    s.close()  # and its sandbox worker


def _run(store: KgliteStore, query: str, row_limit: int = 100) -> list[dict[str, object]]:
    return store.read_only(query, {"now": 864000.0, "at": 10.0}, timeout_ms=5000, row_limit=row_limit)


@pytest.mark.parametrize("query", [q for _, q in ALLOWED], ids=[i for i, _ in ALLOWED])
def test_allowed_queries_run_on_kglite(store: KgliteStore, query: str) -> None:
    rows = _run(store, ensure_limit(query, 50))
    assert rows, "an allowed query should return rows from the seeded graph"


def test_rows_are_the_expected_ones(store: KgliteStore) -> None:
    q = check_read_only(dict(ALLOWED)["decay-weight"])
    rows = _run(store, q)
    assert [r["o"] for r in rows] == ["Tea"]
    assert rows[0]["w"] == pytest.approx(2.0 * 2.718281828459045**-0.1)
    union = _run(store, ensure_limit(dict(ALLOWED)["union"], 50))
    assert sorted(str(r["name"]) for r in union) == ["Sam", "Tea"]


def test_cleaning_is_what_makes_block_comments_runnable(store: KgliteStore) -> None:
    raw = "MATCH (e:Entity) /* the user */ WHERE e.is_user RETURN e.name AS name;"
    with pytest.raises(QueryFailed):  # kglite has no /* */ comments: the raw text cannot run
        _run(store, raw)
    assert _run(store, check_read_only(raw)) == [{"name": "Sam"}]


def test_ensure_limit_bounds_rows(store: KgliteStore) -> None:
    assert len(_run(store, ensure_limit("UNWIND range(1, 500) AS i RETURN i", 7))) == 7


WRITES_BYPASSING_THE_GUARD = [
    "CREATE (n:Entity {id: 'x', name: 'X'}) RETURN n.id AS id",
    "MATCH (n:Entity) SET n.name = 'hacked' RETURN n.name AS n",
    "MATCH (n:Entity) SET n += {name: 'hacked'} RETURN n.name AS n",
    "MATCH (n:Entity) REMOVE n.name RETURN n.id AS id",
    "MATCH (n:Entity) DETACH DELETE n RETURN 1 AS one",
    "MATCH ()-[a:ARC]->() DELETE a RETURN 1 AS one",
    "MERGE (n:Entity {id: 'm'}) RETURN n.id AS id",
    "MATCH (n:Entity) FOREACH (x IN [1] | CREATE (:Entity {id: 'f'})) RETURN 1 AS one",
    "INSERT (n:Entity {id: 'i'})",
    "MATCH (n:Entity) RETURN n.id AS id; CREATE (m:Entity {id: 'y'})",
    "CALL { CREATE (n:Entity {id: 'c'}) } RETURN 1 AS one",
    "CALL db.ontology.clear()",
]


@pytest.mark.parametrize("query", WRITES_BYPASSING_THE_GUARD)
def test_second_layer_refuses_writes_even_without_the_guard(store: KgliteStore, query: str) -> None:
    with pytest.raises(QueryRefused):  # first layer
        check_read_only(query)
    before = store.read(SNAPSHOT)
    with pytest.raises(QueryFailed):  # second layer: the sandbox's read-only load and read transaction
        _run(store, query)
    assert store.read(SNAPSHOT) == before
    assert len(before) == 2 and {r["n"] for r in before} == {"Sam", "Tea"}


@pytest.mark.parametrize("spelling", ["LOAD CSV", "`LOAD` CSV", "`load` CSV", "LOAD `CSV`", "`Load` `CSV`"])
def test_no_spelling_of_load_csv_reads_a_file_through_the_guard(
        store: KgliteStore, tmp_path: Path, spelling: str) -> None:
    """Decided on the token kglite executes: each spelling either is refused or reads nothing."""
    secret = tmp_path / "secret.csv"
    secret.write_text("SENTINEL-7731\n")
    query = f"RETURN 'x' AS id UNION {spelling} FROM 'file://{secret}' AS l RETURN l[0] AS id"
    try:
        rows = _run(store, check_read_only(query))
    except (QueryRefused, QueryFailed):
        rows = []
    assert "SENTINEL-7731" not in repr(rows)
    assert "SENTINEL-7731" in repr(store.read(query))  # what the guard stands between: kglite reads it


def test_load_csv_reads_no_file_in_the_sandbox_though_kglites_read_transaction_would(
        store: KgliteStore, tmp_path: Path) -> None:
    """Why the guard refuses LOAD: kglite 0.21.2's read-only transaction reads local files with it; the sandbox
    worker (memory/sandbox_worker.py) can open no file while a query runs, a layer below the guard."""
    secret = tmp_path / "secret.csv"
    secret.write_text("top,secret\n")
    query = f"LOAD CSV FROM 'file://{secret}' AS line RETURN line"
    with pytest.raises(QueryRefused, match="LOAD"):
        check_read_only(query)
    with pytest.raises(QueryFailed, match="cannot open"):
        _run(store, query)
    assert store.read(query) == [{"line": ["top", "secret"]}]
