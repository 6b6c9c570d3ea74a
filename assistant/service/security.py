"""Who may call the service: loopback by default, a bearer token for any other address, CSRF for POSTs."""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from assistant.settings import ConfigError

TOKEN_FILE = "service.token"
CSRF_HEADER = "x-hearth-csrf"
TOKEN_COOKIE = "hearth_token"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by its owner only (0600), replacing it atomically."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, text.encode())
    finally:
        os.close(fd)
    os.replace(tmp, path)


def read_token(data_dir: Path) -> str | None:
    """The token if there is one; refused when others could read it."""
    path = data_dir / TOKEN_FILE
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    if st.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigError(f"{path} can be read by other users (mode {stat.S_IMODE(st.st_mode):o})",
                          hint=f"chmod 600 {path}")
    token = path.read_text().strip()
    return token or None


def ensure_token(data_dir: Path) -> str:
    token = read_token(data_dir)
    if token is None:
        data_dir.mkdir(parents=True, exist_ok=True)
        token = secrets.token_urlsafe(32)
        write_private(data_dir / TOKEN_FILE, token + "\n")
    return token


@dataclass(frozen=True)
class Guard:
    """The checks every request passes; pure, so they are tested as a table."""

    csrf: str  # per process, embedded in the page and written to the service file
    token: str | None  # required on every request when set (any address other than loopback)
    allowed_hosts: frozenset[str]  # Host header names accepted (DNS rebinding); empty: any

    def host_ok(self, host_header: str | None) -> bool:
        if not self.allowed_hosts:
            return True
        if not host_header:
            return False
        name = host_header.rsplit(":", 1)[0] if not host_header.endswith("]") else host_header
        return name.strip("[]").lower() in self.allowed_hosts

    def token_ok(self, authorization: str | None, cookie: str | None) -> bool:
        if self.token is None:
            return True
        given = cookie or ""
        if authorization and authorization.lower().startswith("bearer "):
            given = authorization[7:].strip()
        return hmac.compare_digest(given.encode(), self.token.encode())

    def post_ok(self, csrf_header: str | None, origin: str | None, host_header: str | None) -> bool:
        """A POST carries the page's CSRF token; a browser's Origin, when sent, is this very service."""
        if not csrf_header or not hmac.compare_digest(csrf_header.encode(), self.csrf.encode()):
            return False
        if origin is None:
            return True
        return host_header is not None and origin in (f"http://{host_header}", f"https://{host_header}")


def make_guard(host: str, token: str | None) -> Guard:
    hosts: frozenset[str] = frozenset()
    if is_loopback(host):
        hosts = frozenset({"127.0.0.1", "localhost", "::1", host.strip("[]").lower()})
    return Guard(csrf=secrets.token_urlsafe(24), token=token, allowed_hosts=hosts)
