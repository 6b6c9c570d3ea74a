"""The HTTP API on a real data dir (kglite + SQLite, learned with the spaCy rules) through Starlette's client."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from assistant.compose import Hearth
from assistant.service.api import LocalAPI
from assistant.service.security import Guard, make_guard
from assistant.service.web import Workers, build_app
from assistant.settings import load_settings

BASE = "http://127.0.0.1:8765"


class Client:
    def __init__(self, tc: TestClient, guard: Guard) -> None:
        self.tc, self.guard = tc, guard

    def get(self, path: str, **kw: Any) -> Any:
        return self.tc.get(path, **kw)

    def post(self, path: str, body: dict[str, Any] | bytes | None = None, **headers: str) -> Any:
        h = {"x-hearth-csrf": self.guard.csrf, "origin": BASE} | {k.replace("_", "-"): v for k, v in headers.items()}
        if isinstance(body, bytes):
            return self.tc.post(path, content=body, headers=h)
        return self.tc.post(path, json=body or {}, headers=h)


@pytest.fixture
def hearth(data_dir: Path, config_file: Path) -> Iterator[Hearth]:
    app = Hearth(load_settings(config_file), data_dir)
    yield app
    app.close()


def _client(hearth: Hearth, guard: Guard) -> Iterator[Client]:
    workers = Workers()
    with TestClient(build_app(LocalAPI(hearth), guard, workers=workers), base_url=BASE) as tc:
        yield Client(tc, guard)
    workers.shutdown()


@pytest.fixture
def client(hearth: Hearth) -> Iterator[Client]:
    yield from _client(hearth, make_guard("127.0.0.1", None))


def fact(facts: list[dict[str, Any]], relation: str, obj: str) -> dict[str, Any]:
    return next(f for f in facts if f["relation"] == relation and f["object"] == obj)


def test_health_says_who_serves_and_what_is_pending(client: Client) -> None:
    h = client.get("/health").json()
    assert h["pid"] > 0 and h["pending_learning"] == 0 and h["store"] == "kglite" and h["uptime_s"] >= 0
    assert "last_consolidation" in h


def test_conversations_newest_first_with_search_speaker_and_dates(client: Client) -> None:
    ids = [c["id"] for c in client.get("/api/conversations").json()["conversations"]]
    assert ids == ["c3", "c2", "c1"]
    rows = client.get("/api/conversations", params={"q": "utrecht"}).json()["conversations"]
    assert [r["id"] for r in rows] == ["c2"] and rows[0]["preview"] == "Felix moved to Utrecht last week."
    assert [r["id"] for r in client.get("/api/conversations", params={"speaker": "maria"}).json()[
        "conversations"]] == ["c3"]
    rows = client.get("/api/conversations", params={"since": "2026-02-01", "until": "2026-04-30"}).json()
    assert [r["id"] for r in rows["conversations"]] == ["c2"]
    assert client.get("/api/conversations", params={"q": "100%_"}).json()["conversations"] == []  # LIKE escaped


def test_a_conversation_shows_turns_and_what_was_learned_with_the_words(client: Client) -> None:
    c = client.get("/api/conversations/c2").json()
    assert [t["text"] for t in c["turns"]] == ["Felix moved to Utrecht last week."]
    kinds = {(x["kind"], x["object"]) for x in c["changes"]}
    assert kinds == {("closed", "Ghent"), ("added", "Utrecht")}
    added = next(x for x in c["changes"] if x["kind"] == "added")
    assert added["evidence"] == "Felix moved to Utrecht last week." and added["turn_idx"] == 0
    assert added["arc"]["status"] == "current" and added["arc"]["subject_id"].startswith("e-")


def test_entity_page_has_history_and_decaying_weight(client: Client) -> None:
    e = client.get("/api/entities/Felix").json()
    assert e["entity"]["name"] == "Felix"
    ghent, utrecht = fact(e["facts"], "lives_in", "Ghent"), fact(e["facts"], "lives_in", "Utrecht")
    assert ghent["status"] == "ended" and ghent["valid_to"].startswith("2026-03-26")  # "last week"
    assert utrecht["status"] == "current"
    assert utrecht["sources"][0]["text"] == "Felix moved to Utrecht last week."
    w = [v for _, v in utrecht["weight_samples"]]
    assert len(w) > 10 and w[0] == pytest.approx(utrecht["strength"], abs=1e-3)
    assert all(a > b for a, b in itertools.pairwise(w))
    listed = {x["name"]: x for x in client.get("/api/entities").json()["entities"]}
    assert listed["Felix"]["current_facts"] == 3 and listed["Ghent"]["current_facts"] == 0


def test_correcting_a_fact_retracts_it_and_keeps_history(client: Client) -> None:
    porto = fact(client.get("/api/entities/Anna").json()["facts"], "lives_in", "Porto")
    r = client.post(f"/api/facts/{porto['id']}/correct", {"object": "Braga"})
    assert r.status_code == 200, r.text
    assert [(c["kind"], c["object"]) for c in r.json()["changes"]] == [("retracted", "Porto"), ("added", "Braga")]
    facts = client.get("/api/entities/Anna").json()["facts"]
    assert fact(facts, "lives_in", "Porto")["status"] == "retracted"
    braga = fact(facts, "lives_in", "Braga")
    assert braga["status"] == "current" and braga["valid_from"] == porto["valid_from"]
    assert "user-review" in [s["id"] for s in braga["sources"]]
    now = client.get("/api/facts", params={"entity": "Anna"}).json()["facts"]
    assert {f["object"] for f in now if f["relation"] == "lives_in"} == {"Braga"}
    c3 = client.get("/api/conversations/c3").json()  # what was learned then stays visible, now retracted
    assert fact([x | {"relation": x["relation"]} for x in c3["changes"]], "lives_in", "Porto")["arc"][
        "status"] == "retracted"


def test_marking_no_longer_true_ends_the_fact(client: Client) -> None:
    works = fact(client.get("/api/entities/Felix").json()["facts"], "works_at", "Brightwave Studios")
    r = client.post(f"/api/facts/{works['id']}/end", {"at": "2026-06-01"})
    assert r.status_code == 200 and r.json()["changes"][0]["kind"] == "closed"
    again = client.post(f"/api/facts/{works['id']}/end")
    assert again.status_code == 400 and "already ended" in again.json()["error"]["message"]


def test_forgetting_an_entity_and_a_fact(client: Client) -> None:
    felix = client.get("/api/entities/Felix").json()
    r = client.post(f"/api/entities/{felix['entity']['id']}/forget")
    assert r.status_code == 200 and len(r.json()["deleted_arcs"]) == 4
    assert client.get("/api/entities/Felix").json()["error"]["code"] == "not_found"
    assert client.get("/api/conversations/c2").json()["changes"] == []  # its provenance went with it
    anna = client.get("/api/entities/Anna").json()["facts"]
    sister = fact(anna, "sister_of", "Maria")
    assert client.post(f"/api/facts/{sister['id']}/forget").status_code == 200
    assert client.post(f"/api/facts/{sister['id']}/forget").status_code == 404


def test_ask_answers_from_memory_when_the_model_is_down(client: Client) -> None:
    r = client.post("/api/ask", {"question": "Where does Felix live?", "at": "2026-04-03T09:00:00Z"})
    assert r.status_code == 200, r.text
    assert "Utrecht" in r.json()["answer"]
    assert any(s["text"] == "Felix moved to Utrecht last week." for f in r.json()["facts"] for s in f["sources"])


def test_script_said_aloud_comes_back_as_the_same_text(client: Client) -> None:
    turn = client.get("/api/conversations/c3").json()["turns"][0]
    assert turn["text"].startswith("I said <script>window.pwned=1</script><img src=x")
    page = client.get("/")
    assert page.status_code == 200 and client.guard.csrf in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]  # no inline script could run


@pytest.mark.parametrize("method, path, body, code, status", [
    ("get", "/api/conversations/nope", None, "not_found", 404),
    ("get", "/api/conversations?since=last+tuesday", None, "invalid_input", 400),
    ("get", "/api/conversations?since=2026-05-01&until=2026-01-01", None, "invalid_input", 400),
    ("get", "/api/conversations?limit=0", None, "invalid_input", 400),
    ("get", "/api/conversations?limit=many", None, "invalid_input", 400),
    ("get", "/api/entities/Nobody", None, "not_found", 404),
    ("get", "/api/facts?at=2999-01-01", None, "invalid_input", 400),
    ("post", "/api/facts/a-nope/end", {}, "not_found", 404),
    ("post", "/api/facts/a-nope/correct", {"object": "x"}, "not_found", 404),
    ("post", "/api/ask", {"question": 42}, "invalid_input", 400),
    ("post", "/api/ask", {}, "invalid_input", 400),
    ("post", "/api/facts", {"subject": "user", "relation": "flies to Mars!", "object": "Mars"}, "unknown_relation",
     400),
    ("post", "/api/facts", b'{"subject": "user", "relation": "likes", "object": "tea\\udcff"}', "invalid_input", 400),
    ("get", "/api/nothing-here", None, "not_found", 404),
])
def test_bad_input_is_a_4xx_with_code_message_and_hint(client: Client, method: str, path: str, body: Any,
                                                     code: str, status: int) -> None:
    r = client.get(path) if method == "get" else client.post(path, body)
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["code"] == code and err["message"] and "hint" in err


def test_a_body_that_is_not_json_is_refused(client: Client) -> None:
    r = client.tc.post("/api/ask", content=b"{not json", headers={"x-hearth-csrf": client.guard.csrf})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_input"
    r = client.tc.post("/api/ask", content=b"[1]", headers={"x-hearth-csrf": client.guard.csrf})
    assert r.status_code == 400
    big = b'{"question": "' + b"x" * 70_000 + b'"}'
    r = client.tc.post("/api/ask", content=big, headers={"x-hearth-csrf": client.guard.csrf})
    assert r.status_code == 413


def test_posts_need_the_csrf_token_and_a_matching_origin(client: Client) -> None:
    anna = client.get("/api/entities/Anna").json()["entity"]["id"]
    assert client.tc.post(f"/api/entities/{anna}/forget").status_code == 403
    assert client.post(f"/api/entities/{anna}/forget", x_hearth_csrf="wrong").status_code == 403
    assert client.post(f"/api/entities/{anna}/forget", origin="http://evil.example").status_code == 403
    assert client.get("/api/entities/Anna").status_code == 200  # nothing was forgotten
    assert client.get("/health", headers={"host": "evil.example:8765"}).status_code == 403  # DNS rebinding


def test_another_address_needs_the_token(hearth: Hearth) -> None:
    for c in _client(hearth, make_guard("0.0.0.0", "s3cret")):
        assert c.get("/health").status_code == 401
        assert c.get("/health", headers={"authorization": "Bearer wrong"}).status_code == 401
        assert c.get("/health", headers={"authorization": "Bearer s3cret"}).status_code == 200
        login = c.get("/?token=s3cret", follow_redirects=False)
        assert login.status_code == 303 and "hearth_token=s3cret" in login.headers["set-cookie"]
        c.tc.cookies.set("hearth_token", "s3cret")
        assert c.get("/api/entities").status_code == 200


@pytest.mark.parametrize("host_header, ok", [
    ("127.0.0.1:8765", True), ("localhost:8765", True), ("[::1]:8765", True), ("LOCALHOST", True),
    ("evil.example:8765", False), ("127.0.0.1.evil.example", False), (None, False),
])
def test_loopback_answers_only_to_its_own_names(host_header: str | None, ok: bool) -> None:
    assert make_guard("127.0.0.1", None).host_ok(host_header) is ok


@pytest.mark.parametrize("csrf, origin, ok", [
    ("T", None, True), ("T", "http://127.0.0.1:8765", True), ("T", "http://127.0.0.1:9999", False),
    ("T", "null", False), ("", None, False), (None, None, False), ("t", None, False),
])
def test_post_checks(csrf: str | None, origin: str | None, ok: bool) -> None:
    g = Guard(csrf="T", token=None, allowed_hosts=frozenset())
    assert g.post_ok(csrf, origin, "127.0.0.1:8765") is ok


def test_undo_last_correction_restores_the_fact_and_keeps_the_history(client: Client) -> None:
    porto = fact(client.get("/api/entities/Anna").json()["facts"], "lives_in", "Porto")
    assert client.post(f"/api/facts/{porto['id']}/correct", {"object": "Braga"}).status_code == 200
    [c] = client.get("/api/corrections").json()["corrections"]
    assert c["summary"] == "Anna lives_in Porto → lives_in Braga" and c["undone_at"] is None
    r = client.post("/api/corrections/undo-last")
    assert r.status_code == 200, r.text
    assert [(x["kind"], x["object"]) for x in r.json()["changes"]] == [("retracted", "Braga"), ("added", "Porto")]
    facts = client.get("/api/entities/Anna").json()["facts"]
    assert fact(facts, "lives_in", "Porto")["status"] == "current"
    assert fact(facts, "lives_in", "Braga")["status"] == "retracted"  # the correction stays in the history
    assert client.get("/api/corrections").json()["corrections"][0]["undone_at"] is not None
    again = client.post("/api/corrections/undo-last")
    assert again.status_code == 404 and again.json()["error"]["code"] == "not_found"


def test_consolidation_merges_with_evidence_the_page_lists_it_and_it_undoes(client: Client) -> None:
    for s, r, o in (("my sister", "likes", "figs"), ("Clara", "sister_of", "user")):
        assert client.post("/api/facts", {"subject": s, "relation": r, "object": o}).status_code == 200
    report = client.post("/api/consolidate").json()
    [m] = report["merged"]
    assert (m["loser"], m["survivor"], m["rule"]) == ("my sister", "Clara", "placeholder")
    assert any("sister_of" in e for e in m["evidence"])
    assert client.get("/api/entities/my sister").json()["entity"]["name"] == "Clara"
    [listed] = client.get("/api/consolidations").json()["reports"]
    assert listed["id"] == report["id"] and listed["merged"][0]["undone_at"] is None
    assert client.get("/health").json()["last_consolidation"]["merged"] == 1
    r = client.post(f"/api/merges/{m['id']}/undo")
    assert r.status_code == 200 and r.json()["merge"]["undone_at"]
    assert client.get("/api/entities/my sister").json()["entity"]["name"] == "my sister"
    assert client.get("/api/consolidations").json()["reports"][0]["merged"][0]["undone_at"]
    assert client.post(f"/api/merges/{m['id']}/undo").status_code == 400
    assert client.post("/api/merges/m-nope/undo").status_code == 404


def test_forgetting_a_name_scrubs_it_from_the_reports(client: Client) -> None:
    for s, r, o in (("my sister", "likes", "figs"), ("Clara", "sister_of", "user")):
        client.post("/api/facts", {"subject": s, "relation": r, "object": o})
    client.post("/api/consolidate")
    assert "Clara" in str(client.get("/api/consolidations").json())
    assert client.post("/api/entities/Clara/forget").status_code == 200
    assert "Clara" not in str(client.get("/api/consolidations").json())
