"""The playground server's access rules, on a real server bound to 127.0.0.1 and read with a raw
HTTP client (so Host, Origin and Content-Length can be anything an attacker sends)."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys

import pytest

from docstrata.errors import ConfigError
from docstrata.ui.server import is_loopback_name, serve_in_thread


@pytest.fixture
def server():
    srv, _ = serve_in_thread([])  # no tools: the access rules answer before any tool is looked up
    yield srv
    srv.shutdown()
    srv.server_close()


def request(srv, method: str, path: str, headers: dict, body: bytes | None = None) -> tuple[int, dict]:
    host, port = srv.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for k, v in headers.items():
            conn.putheader(k, v)
        if body is not None and "Content-Length" not in headers:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"{}")
    finally:
        conn.close()


def test_loopback_names_are_ip_literals_or_localhost():
    assert all(is_loopback_name(h) for h in ("127.0.0.1", "127.9.8.7", "::1", "localhost"))
    assert not any(is_loopback_name(h) for h in ("127.attacker.example", "localhost.evil", "10.0.0.1", ""))


@pytest.mark.parametrize("host", ["127.attacker.example", "127.0.0.1.nip.io", "localhost.evil.example:8000",
                                  "evil.example", ""])
def test_dns_rebinding_host_is_refused(server, host):
    code, err = request(server, "GET", "/api/tools", {"Host": host} if host else {})
    assert code == 403 and "refused" in err["error"]


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8000", "localhost:1234", "[::1]:8000", "127.1.2.3"])
def test_loopback_hosts_are_served(server, host):
    assert request(server, "GET", "/api/tools", {"Host": host}) == (200, [])


def test_cross_site_post_is_refused_and_same_origin_is_served(server):
    port = server.server_address[1]
    here = f"127.0.0.1:{port}"
    body = json.dumps({"query": "x"}).encode()
    base = {"Host": here, "Content-Type": "application/json"}
    code, err = request(server, "POST", "/api/search", {**base, "Origin": "http://evil.example"}, body)
    assert code == 403 and "origin" in err["error"]
    code, err = request(server, "POST", "/api/search", {**base, "Origin": "null"}, body)
    assert code == 403
    code, _ = request(server, "POST", "/api/search", {**base, "Sec-Fetch-Site": "cross-site"}, body)
    assert code == 403
    # same origin reaches the route (400: this server has no tool to search)
    code, err = request(server, "POST", "/api/search", {**base, "Origin": f"http://{here}"}, body)
    assert code == 400 and "tool" in err["error"]


def test_oversized_body_is_refused_before_it_is_read(server):
    code, err = request(server, "POST", "/api/eval", {"Host": "127.0.0.1", "Content-Length": str(64 * 2**20)}, b"")
    assert code == 413 and "MB" in err["error"]
    code, _ = request(server, "POST", "/api/eval", {"Host": "127.0.0.1", "Content-Length": "nope"}, b"")
    assert code == 400


def test_allowed_host_is_served_and_bearer_scheme_is_case_insensitive(monkeypatch):
    monkeypatch.setenv("DS_UI_TOKEN", "s3cret")
    srv, _ = serve_in_thread([], token_env="DS_UI_TOKEN", allowed_hosts=["docs.internal:8443"])
    try:
        assert request(srv, "GET", "/api/tools", {"Host": "docs.internal:8443",
                                                 "Authorization": "bearer s3cret"}) == (200, [])
        assert request(srv, "GET", "/api/tools", {"Host": "docs.internal",
                                                 "Authorization": "Bearer wrong"})[0] == 401
        assert request(srv, "GET", "/api/tools", {"Host": "other.internal",
                                                 "Authorization": "Bearer s3cret"})[0] == 403
    finally:
        srv.shutdown()
        srv.server_close()


def test_off_loopback_without_a_token_is_refused_unless_opted_out_by_name():
    with pytest.raises(ConfigError, match="--insecure-no-token"):
        serve_in_thread([], host="0.0.0.0")
    srv, _ = serve_in_thread([], host="0.0.0.0", insecure_no_token=True)
    srv.shutdown()
    srv.server_close()


def test_cli_ui_off_loopback_without_a_token_exits_before_loading(tmp_path):
    r = subprocess.run([sys.executable, "-m", "docstrata.cli", "ui", "-c", str(tmp_path / "missing.yaml"),
                        "--host", "0.0.0.0", "--port", "0"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "insecure-no-token" in r.stderr and "missing.yaml" not in r.stderr
