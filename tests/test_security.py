"""Security cases of issue 17 (SECURITY.md lists what each one promises).

Secrets never leave (redactor, ${VAR} values, PostgreSQL DSNs, MCP store errors), HTTP off
loopback needs a token and checks Host/Origin, sources stay inside the source root, terminal
output is escaped, MCP arguments are bounded. Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import anyio
import pytest

import docstrata
from docstrata.config import parse_config
from docstrata.errors import ConfigError, StoreError
from docstrata.redact import escape_terminal, redact, register_secret

SRC = str(Path(docstrata.__file__).resolve().parents[1])

POLICY = textwrap.dedent("""\
    # Device Policy

    ## 1. Scope

    This policy covers laptops, phones and tablets issued to staff.

    ## 2. Passwords

    Passwords must be at least 14 characters long and rotated yearly.
    """)


def subprocess_env(**extra: str) -> dict[str, str]:
    """Environment for a docstrata subprocess that imports *this* checkout."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR")}
    env.update(PYTHONPATH=SRC, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false", **extra)
    return env


# ----------------------------------------------------------------------------- redactor
@pytest.mark.parametrize("text, secret", [
    ("cannot connect to postgresql://bob:pa ss@w@rd@db.internal:5432/app: refused", "pa ss@w@rd"),
    ("postgres://bob:p@ss@host/db", "p@ss"),
    ("host=db port=5432 user=bob password=hun ter2 dbname=app", "hun ter2"),
    ("host=db password='it''s a secret' dbname=app", "secret"),
    ('host=db password="quoted pw" dbname=app', "quoted pw"),
    ("postgresql://bob@db/app?sslmode=require&password=s3cr3t-value&application_name=x", "s3cr3t-value"),
    ("postgresql://db/app?password=tail-secret", "tail-secret"),
    ("Authorization: Bearer tok.abc.123", "tok.abc.123"),
    ("qdrant api_key=qk-9999 refused", "qk-9999"),
])
def test_redactor_removes_passwords_in_any_position(text, secret):
    out = redact(text)
    assert secret not in out
    assert "***" in out


@pytest.fixture
def register():
    """``register_secret`` for one test: the process-wide redactor forgets what the test registered
    afterwards, so a later test's text is never masked by this one's secrets."""
    from docstrata import redact as redactor

    with redactor._lock:
        before = set(redactor._secrets)
    yield register_secret
    with redactor._lock:
        redactor._secrets.clear()
        redactor._secrets.update(before)


def test_redactor_keeps_ordinary_text_and_masks_registered_secrets(register):
    assert redact("max_tokens: 800, password authentication failed for user \"bob\"") == \
        "max_tokens: 800, password authentication failed for user \"bob\""
    register("hunter2-registered-value")
    assert "hunter2" not in redact("libpq said: FATAL hunter2-registered-value rejected")


def test_every_docstrata_error_is_redacted():
    e = StoreError("postgres", "cannot connect to postgresql://u:pw with space@h/db")
    assert "pw with space" not in str(e)


def test_env_values_are_not_echoed_in_config_errors(monkeypatch):
    monkeypatch.setenv("MY_SECRET", "hunter2-very-secret")
    with pytest.raises(ConfigError) as e:
        parse_config({"tools": [{"name": "d", "type": "hierarchical_document", "source": "docs",
                                 "top_k": "${MY_SECRET}"}]})
    assert "hunter2" not in str(e.value)
    assert "MY_SECRET" in str(e.value) and "tools[0].top_k" in str(e.value)


def test_key_value_dsn_password_never_printed(monkeypatch):
    """A key=value DSN from ${PG_DSN} with a bad field elsewhere: the password appears nowhere."""
    monkeypatch.setenv("PG_DSN", "host=127.0.0.1 port=1 user=bob password=kv-secret-pw dbname=x")
    with pytest.raises(ConfigError) as e:
        parse_config({"tools": [{"name": "d", "type": "hierarchical_document", "source": "docs",
                                 "database": {"provider": "postgres", "dsn": "${PG_DSN}"}, "top_k": 0}]})
    assert "kv-secret-pw" not in str(e.value)


def test_postgres_connect_error_hides_password_with_spaces_and_at_signs():
    pytest.importorskip("psycopg")
    from docstrata.store.postgres import PostgresStore

    with socket.socket() as s:  # a closed port on 127.0.0.1: connection refused at once
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for dsn, pw in [(f"postgresql://bob:pa%20ss@127.0.0.1:{port}/app", "pa%20ss"),
                    (f"host=127.0.0.1 port={port} user=bob password='p@ss w0rd' dbname=app", "p@ss w0rd")]:
        with pytest.raises(StoreError) as e:
            PostgresStore(dsn, tool="t", dim=4)
        assert pw not in str(e.value) and "w0rd" not in str(e.value)


def test_log_records_are_redacted(caplog):
    from docstrata.redact import install_log_redaction

    install_log_redaction()
    with caplog.at_level(logging.WARNING):
        logging.getLogger("some.library").warning("retrying %s", "postgresql://u:logged-secret@h/db")
    assert "logged-secret" not in caplog.text


# ----------------------------------------------------------------------------- MCP answers
def _toolset(tmp_path, database: str):
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "policy.md").write_text(POLICY, encoding="utf-8")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text(f"tools:\n  - name: policies\n    type: hierarchical_document\n    source: docs/\n"
                   f"    database: {database}\n", encoding="utf-8")
    return docstrata.open(cfg)


def _call(server, name: str, args: dict):
    from mcp import Client

    async def go():
        async with Client(server) as client:
            return await client.call_tool(name, args)

    return anyio.run(go)


def test_mcp_store_error_is_generic_with_an_error_id_and_the_log_has_the_detail(tmp_path, caplog):
    from docstrata.mcp_server import build_server

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dsn = f"'postgresql://admin:top secret@pw@127.0.0.1:{port}/prod'"
    toolset = _toolset(tmp_path, dsn)
    with caplog.at_level(logging.ERROR, logger="docstrata.mcp"):
        result = _call(build_server(toolset), "policies_search", {"query": "passwords"})
    text = result.content[0].text
    assert result.is_error
    assert "error id" in text
    for leak in ("admin", "secret", "127.0.0.1", str(port), "prod", "postgres"):
        assert leak not in text, leak
    ref = text.split("error id ", 1)[1].split(")", 1)[0]
    assert ref in caplog.text and "cannot connect" in caplog.text and "top secret" not in caplog.text


def test_mcp_long_arguments_are_refused_and_never_echoed_whole(tmp_path):
    from docstrata.mcp_server import build_server

    server = build_server(_toolset(tmp_path, "in-memory"))
    huge = "x" * 1_000_000
    for name, args in [("policies_get_section", {"document": huge, "section_id": "1"}),
                       ("policies_get_section", {"document": "policy.md", "section_id": huge}),
                       ("policies_get_definition", {"term": "laptop", "document": huge})]:
        result = _call(server, name, args)
        assert result.is_error
        assert len(result.content[0].text) < 2000
    result = _call(server, "policies_get_section", {"document": "p" * 900, "section_id": "1"})
    assert result.is_error and len(result.content[0].text) <= 600


# ----------------------------------------------------------------------------- HTTP exposure
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_http_config(tmp_path) -> Path:
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "policy.md").write_text(POLICY, encoding="utf-8")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text("tools:\n  - name: policies\n    type: hierarchical_document\n    source: docs/\n"
                   "    database: in-memory\n", encoding="utf-8")
    return cfg


def test_http_off_loopback_without_a_token_is_refused(tmp_path):
    """127.0.0.2 is not one of the loopback names the server trusts: without a token it must not start."""
    cfg = _write_http_config(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "docstrata.cli", "serve", "-c", str(cfg), "--transport", "http",
                           "--host", "127.0.0.2", "--port", str(_free_port())],
                          capture_output=True, text=True, env=subprocess_env(), timeout=60)
    assert proc.returncode != 0
    err = proc.stderr.strip()
    assert "without a bearer token" in err and "--token-env" in err and "--insecure-no-token" in err
    assert "Traceback" not in err


def _wait_port(host: str, port: int, proc, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited: {proc.stderr.read() if proc.stderr else ''}")
        with socket.socket() as s:
            if s.connect_ex((host, port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError("server did not start")


def test_http_host_and_origin_are_checked_off_loopback(tmp_path):
    httpx = pytest.importorskip("httpx")
    cfg = _write_http_config(tmp_path)
    port = _free_port()
    token = "s3cret-token-value"
    proc = subprocess.Popen([sys.executable, "-m", "docstrata.cli", "serve", "-c", str(cfg), "--transport", "http",
                             "--host", "127.0.0.2", "--port", str(port), "--token-env", "DOCSTRATA_TEST_TOKEN",
                             "--allowed-host", "docs.example.org"],
                            env=subprocess_env(DOCSTRATA_TEST_TOKEN=token), stderr=subprocess.PIPE, text=True)
    try:
        _wait_port("127.0.0.2", port, proc)
        url = f"http://127.0.0.2:{port}/mcp"
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
        base = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream",
                "Content-Type": "application/json"}
        assert httpx.post(url, json=init, headers=base, timeout=10).status_code == 200
        rebinding = httpx.post(url, json=init, headers=base | {"Host": "evil.example"}, timeout=10)
        assert rebinding.status_code == 421
        cross_origin = httpx.post(url, json=init, headers=base | {"Origin": "http://evil.example"}, timeout=10)
        assert cross_origin.status_code == 403
        allowed = httpx.post(url, json=init, headers=base | {"Host": f"docs.example.org:{port}",
                                                               "Origin": "https://docs.example.org"}, timeout=10)
        assert allowed.status_code == 200
        assert httpx.post(url, json=init, headers=base | {"Authorization": "Bearer nope"}, timeout=10).status_code == 401
        lower = httpx.post(url, json=init, headers=base | {"Authorization": f"bearer {token}"}, timeout=10)
        assert lower.status_code == 200  # the scheme is case-insensitive (RFC 9110)
        assert httpx.post(url, json=init, headers=base | {"Authorization": f"Basic {token}"},
                          timeout=10).status_code == 401
    finally:
        proc.terminate()
        proc.wait(timeout=30)


# ----------------------------------------------------------------------------- sources
def test_symlinks_leading_outside_the_source_are_not_followed(tmp_path):
    outside = tmp_path / "home" / ".ssh"
    outside.mkdir(parents=True)
    (outside / "id_rsa.txt").write_text("-----BEGIN PRIVATE KEY----- SECRETKEYMATERIAL", encoding="utf-8")
    docs = tmp_path / "proj" / "docs"
    docs.mkdir(parents=True)
    (docs / "policy.md").write_text(POLICY, encoding="utf-8")
    (docs / "link.txt").symlink_to(outside / "id_rsa.txt")
    (docs / "linked-dir").symlink_to(outside, target_is_directory=True)
    (docs / "inside.md").symlink_to(docs / "policy.md")  # inside the root: followed
    cfg = tmp_path / "proj" / "agent.yaml"
    base = "tools:\n  - name: policies\n    type: hierarchical_document\n    source: docs/\n    database: in-memory\n"
    cfg.write_text(base, encoding="utf-8")
    with docstrata.open(cfg) as ts:
        tool = ts["policies"]
        report = tool.ingest()
        assert set(tool.store.documents()) == {"policy.md", "inside.md"}
        assert not tool.search("PRIVATE KEY SECRETKEYMATERIAL", mode="keyword")
        reasons = {s.path: s.reason for s in report.skipped}
        assert "outside the source root" in reasons["link.txt"] and "follow_symlinks" in reasons["link.txt"]
        assert "linked-dir" in reasons
    cfg.write_text(base + "    follow_symlinks: true\n", encoding="utf-8")
    with docstrata.open(cfg) as ts:
        tool = ts["policies"]
        tool.ingest()
        assert {"link.txt", "linked-dir/id_rsa.txt"} <= set(tool.store.documents())


def test_terminal_output_escapes_control_and_bidi_characters(tmp_path):
    from typer.testing import CliRunner

    from docstrata.cli import app

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "evil.md").write_text(
        "# Notice\n\nThe refund \x1b[31mdeadline is \u202eSYAD 03\u202c after purchase.\x07\n", encoding="utf-8")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text("tools:\n  - name: notes\n    type: hierarchical_document\n    source: docs/\n"
                   "    database: in-memory\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["search", "refund deadline", "-c", str(cfg)])
    assert result.exit_code == 0, result.output
    assert "refund" in result.output
    for bad in ("\x1b", "\u202e", "\u202c", "\x07"):
        assert bad not in result.output
    assert "\\x1b[31m" in result.output and "\\u202e" in result.output


def test_escape_terminal_keeps_text_and_newlines():
    assert escape_terminal("a\tb\nc é 中文") == "a\tb\nc é 中文"
    assert escape_terminal("x\x9by\u2066z\ud800") == "x\\x9by\\u2066z\\ud800"


def test_exceptions_recorded_on_spans_are_redacted():
    pytest.importorskip("opentelemetry.sdk")
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from docstrata import telemetry

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    telemetry.use_tracer_provider(provider)
    try:
        with pytest.raises(RuntimeError):
            with telemetry.span("store"):
                raise RuntimeError("connect to postgresql://u:span pw@secret@db/app failed")
    finally:
        telemetry.use_tracer_provider(None)
        provider.shutdown()
    (s,) = exporter.get_finished_spans()
    recorded = json.dumps([dict(e.attributes) for e in s.events]) + str(s.status.description)
    assert "RuntimeError" in recorded and "span pw" not in recorded and "secret" not in recorded


def test_every_bind_checks_host_headers_and_wildcard_binds_need_a_token():
    from docstrata.mcp_server import check_http_exposure, transport_security

    for host in ("127.0.0.1", "0.0.0.0", "10.1.2.3", "::"):
        settings = transport_security(host)
        assert settings.enable_dns_rebinding_protection
        assert "evil.example" not in settings.allowed_hosts and "localhost:*" in settings.allowed_hosts
    assert "10.1.2.3:*" in transport_security("10.1.2.3").allowed_hosts
    assert "docs.example.org:*" in transport_security("0.0.0.0", ["docs.example.org"]).allowed_hosts
    for host in ("0.0.0.0", "::", "192.168.1.5"):
        with pytest.raises(ConfigError, match="without a bearer token"):
            check_http_exposure(host, None, insecure_no_token=False)
        check_http_exposure(host, "a-token", insecure_no_token=False)
        check_http_exposure(host, None, insecure_no_token=True)
    check_http_exposure("127.0.0.1", None, insecure_no_token=False)


def test_registered_connection_strings_keep_host_port_user_and_database_visible(register):
    """Only the password / token of a registered DSN or URL is secret (docs/stores.md's promise)."""
    register("http://127.0.0.1:6333")
    assert redact("qdrant store: cannot open http://127.0.0.1:6333: refused") == \
        "qdrant store: cannot open http://127.0.0.1:6333: refused"
    register("postgresql://app:hunter2secret@127.0.0.1:59999/x")
    out = redact("postgres store: cannot connect to postgresql://app:hunter2secret@127.0.0.1:59999/x: refused")
    assert out == "postgres store: cannot connect to postgresql://app:***@127.0.0.1:59999/x: refused"
    assert redact("libpq: password hunter2secret rejected") == "libpq: password *** rejected"  # wherever it is
    register("host=db.internal port=5432 user=bob password=kv-secret-99 dbname=app")
    assert redact("cannot connect: host=db.internal port=5432 user=bob password=kv-secret-99 dbname=app") == \
        "cannot connect: host=db.internal port=5432 user=bob password=*** dbname=app"
    register("https://q.example:6333/?api_key=qk-registered-1")
    assert "qk-registered-1" not in redact("qdrant said no to qk-registered-1 at https://q.example:6333")
    assert "https://q.example:6333" in redact("qdrant said no to qk-registered-1 at https://q.example:6333")


def test_a_non_json_line_over_stdio_gets_a_parse_error_reply():
    """What the stdio reader hands over for a line that is not JSON gets JSON-RPC -32700, id null."""
    import mcp_types as types  # what mcp.server.stdio validates each line with

    from docstrata.mcp_server import _malformed_reply

    replies = []
    for line in ("this line is not JSON {", "[1, 2]"):
        try:
            types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except Exception as e:  # noqa: BLE001 - the SDK's own validation error
            replies.append(_malformed_reply(e))
    assert [(r.id, r.error.code) for r in replies] == [(None, -32700), (None, -32600)]
