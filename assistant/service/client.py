"""The application interface over HTTP, and the choice a CLI command makes: the store itself, or the service."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from assistant.compose import Hearth
from assistant.service.api import JSON, HearthAPI, LocalAPI
from assistant.service.security import CSRF_HEADER, read_token
from assistant.service.server import ServiceInfo, read_service_file
from hearth_errors import HearthError
from memory.errors import StoreLocked


class ServiceUnavailable(HearthError):
    code = "service_unavailable"


def open_api(app: Hearth) -> HearthAPI:
    """The store when this process can own it; the running service when it holds the store."""
    if app.settings.store.backend != "kglite":
        return LocalAPI(app)  # a server database: every process opens it
    try:
        _ = app.store
    except StoreLocked:
        info = read_service_file(app.data_dir)
        if info is None:
            raise
        return RemoteAPI(info, token=read_token(app.data_dir))
    return LocalAPI(app)


class RemoteAPI:
    """HearthAPI through a running service; its errors come back as the same HearthError codes and hints."""

    TIMEOUT_S = 30.0
    ASK_TIMEOUT_S = 600.0  # the service's language model may have to start first

    def __init__(self, info: ServiceInfo, *, token: str | None = None) -> None:
        self.info = info
        self.token = token

    def _call(self, method: str, path: str, query: dict[str, Any] | None = None, body: JSON | None = None,
              *, timeout: float | None = None) -> JSON:
        q = {k: v for k, v in (query or {}).items() if v is not None and v is not False}
        url = self.info.url + path + ("?" + urllib.parse.urlencode(q) if q else "")
        headers = {"accept": "application/json"}
        data = None
        if method == "POST":
            headers |= {"content-type": "application/json", CSRF_HEADER: self.info.csrf}
            data = json.dumps(body or {}).encode()
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.TIMEOUT_S) as resp:
                result: JSON = json.loads(resp.read())
                return result
        except urllib.error.HTTPError as e:
            try:
                err = json.loads(e.read())["error"]
            except (ValueError, KeyError, TypeError):
                raise ServiceUnavailable(f"the service at {self.info.url} answered {e.code} {e.reason}") from None
            raise HearthError(err["message"], code=err["code"], hint=err.get("hint")) from None
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            raise ServiceUnavailable(
                f"the memory is held by the service (process {self.info.pid}) but {self.info.url} "
                f"does not answer ({reason})", hint=f"stop it (`kill {self.info.pid}`) or wait for it to start"
            ) from None

    @staticmethod
    def _q(value: str) -> str:
        return urllib.parse.quote(value, safe="")

    def health(self) -> JSON:
        return self._call("GET", "/health")

    def conversations(self, *, q: str | None = None, speaker: str | None = None, since: str | None = None,
                      until: str | None = None, limit: int = 50, offset: int = 0) -> JSON:
        return self._call("GET", "/api/conversations", {"q": q, "speaker": speaker, "since": since, "until": until,
                                                        "limit": limit, "offset": offset})

    def conversation(self, cid: str) -> JSON:
        return self._call("GET", f"/api/conversations/{self._q(cid)}")

    def entities(self) -> JSON:
        return self._call("GET", "/api/entities")

    def entity(self, ref: str) -> JSON:
        return self._call("GET", f"/api/entities/{self._q(ref)}")

    def facts(self, *, entity: str | None = None, at: str | None = None, history: bool = False) -> JSON:
        return self._call("GET", "/api/facts", {"entity": entity, "at": at, "history": "1" if history else None})

    def ask(self, question: str, *, at: str | None = None) -> JSON:
        return self._call("POST", "/api/ask", body={"question": question, "at": at}, timeout=self.ASK_TIMEOUT_S)

    def add_fact(self, subject: str, relation: str, obj: str, *, at: str | None = None,
                 label: str | None = None) -> JSON:
        return self._call("POST", "/api/facts", body={"subject": subject, "relation": relation, "object": obj,
                                                      "at": at, "label": label})

    def end_fact(self, arc_id: str, *, at: str | None = None) -> JSON:
        return self._call("POST", f"/api/facts/{self._q(arc_id)}/end", body={"at": at})

    def correct_fact(self, arc_id: str, *, obj: str, relation: str | None = None) -> JSON:
        return self._call("POST", f"/api/facts/{self._q(arc_id)}/correct", body={"object": obj, "relation": relation})

    def forget_fact(self, arc_id: str) -> JSON:
        return self._call("POST", f"/api/facts/{self._q(arc_id)}/forget")

    def forget_entity(self, ref: str) -> JSON:
        return self._call("POST", f"/api/entities/{self._q(ref)}/forget")

    def forget_conversation(self, cid: str) -> JSON:
        return self._call("POST", f"/api/conversations/{self._q(cid)}/forget")

    def stats(self) -> JSON:
        return self._call("GET", "/api/stats")

    def export(self, fmt: str = "json") -> JSON:
        return self._call("GET", "/api/export", {"format": fmt}, timeout=self.ASK_TIMEOUT_S)

    def export_transcripts(self) -> JSON:
        return self._call("GET", "/api/transcripts/export", timeout=self.ASK_TIMEOUT_S)

    def consolidate(self) -> JSON:
        return self._call("POST", "/api/consolidate", timeout=self.ASK_TIMEOUT_S)

    def consolidations(self, *, limit: int = 20) -> JSON:
        return self._call("GET", "/api/consolidations", {"limit": limit})

    def merges(self, *, limit: int = 50) -> JSON:
        return self._call("GET", "/api/merges", {"limit": limit})

    def undo_merge(self, merge_id: str) -> JSON:
        return self._call("POST", f"/api/merges/{self._q(merge_id)}/undo")

    def corrections(self, *, limit: int = 20) -> JSON:
        return self._call("GET", "/api/corrections", {"limit": limit})

    def undo_last_correction(self) -> JSON:
        return self._call("POST", "/api/corrections/undo-last")
