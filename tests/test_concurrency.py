"""One writer, many readers across processes (issue 17, DESIGN §7c).

A second ingest waits for the first with a message (or stops with one line after
``limits.lock_timeout_s``) and then finds the work done; an MCP server whose first call needs an
index another process is building waits, reports progress and runs no duplicate ingest; the
PostgreSQL store's advisory lock does the same across sessions; searches keep answering while
ingests run.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import anyio
import pytest

import docstrata
from docstrata.locking import LockTimeout

from .test_security import subprocess_env

DOC = "# Travel Policy\n\n## 1. Scope\n\nThis policy applies to all staff.\n\n## 2. Per diem\n\nMeals: 45 euros a day.\n"

HOLDER = textwrap.dedent("""\
    import sys, time
    import docstrata
    ts = docstrata.open(sys.argv[1])
    tool = ts["policies"]
    with tool._ingest_lock(None):  # the real cross-process lock, held as a long ingest would
        print("HOLDING", flush=True)
        time.sleep(float(sys.argv[2]))
        report = tool._ingest_locked()
        print("INGESTED", report.added, flush=True)
    ts.close()
    """)


def _corpus(tmp_path: Path, extra: str = "") -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "travel.md").write_text(DOC, encoding="utf-8")
    (tmp_path / "docs" / "audit.md").write_text("# Audit\n\n## 1. Claims\n\nExpense claims are audited quarterly.\n",
                                                encoding="utf-8")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text("tools:\n  - name: policies\n    type: hierarchical_document\n    source: docs/\n"
                   "    database: embedded\n" + extra, encoding="utf-8")
    return cfg


def _start_holder(tmp_path: Path, cfg: Path, seconds: float) -> subprocess.Popen:
    script = tmp_path / "holder.py"
    script.write_text(HOLDER, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script), str(cfg), str(seconds)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=subprocess_env())
    assert proc.stdout.readline().strip() == "HOLDING", proc.stderr.read()
    return proc


@pytest.mark.slow
def test_second_ingest_waits_with_a_message_then_finds_the_work_done(tmp_path):
    cfg = _corpus(tmp_path)
    holder = _start_holder(tmp_path, cfg, 3)
    try:
        start = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "docstrata.cli", "ingest", "-c", str(cfg), "--json"],
                              capture_output=True, text=True, env=subprocess_env(), timeout=180)
        waited = time.monotonic() - start
    finally:
        out, _ = holder.communicate(timeout=180)
    assert holder.returncode == 0 and "INGESTED 2" in out
    assert proc.returncode == 0, proc.stderr
    assert f"waiting for process {holder.pid} to finish ingesting" in proc.stderr
    assert "LockBusy" not in proc.stderr and "Traceback" not in proc.stderr
    report = json.loads(proc.stdout)[0]
    assert report["added"] == 0 and report["unchanged"] == 2 and report["chunks_total"] > 0  # no duplicate work
    assert waited > 1.0


def test_second_ingest_stops_with_one_line_after_the_lock_timeout(tmp_path):
    cfg = _corpus(tmp_path, "    limits:\n      lock_timeout_s: 1\n")
    holder = _start_holder(tmp_path, cfg, 20)
    try:
        proc = subprocess.run([sys.executable, "-m", "docstrata.cli", "ingest", "-c", str(cfg)],
                              capture_output=True, text=True, env=subprocess_env(), timeout=120)
    finally:
        holder.kill()
        holder.wait(timeout=30)
    assert proc.returncode != 0
    errors = [ln for ln in proc.stderr.splitlines() if ln.strip() and not ln.startswith("WARNING ")]
    assert len(errors) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"process {holder.pid} is still ingesting" in errors[0] and "try again" in errors[0]


def test_lock_is_released_when_its_holder_is_killed(tmp_path):
    cfg = _corpus(tmp_path)
    holder = _start_holder(tmp_path, cfg, 60)
    holder.kill()
    holder.wait(timeout=30)
    with docstrata.open(cfg) as ts:
        tool = ts["policies"]
        tool.cfg.limits.lock_timeout_s = 5
        assert tool.ingest().added == 2


@pytest.mark.slow
def test_mcp_server_waits_for_another_process_and_runs_no_duplicate_ingest(tmp_path):
    from mcp import Client

    from docstrata.mcp_server import build_server

    cfg = _corpus(tmp_path)
    holder = _start_holder(tmp_path, cfg, 3)
    messages: list[str] = []

    async def progress(done, total, message):
        messages.append(message or "")

    async def go():
        with docstrata.open(cfg) as ts:
            async with Client(build_server(ts)) as client:
                return await client.call_tool("policies_search", {"query": "meals per diem", "top_k": 1},
                                              progress_callback=progress)

    try:
        result = anyio.run(go)
    finally:
        out, err = holder.communicate(timeout=180)
    assert "INGESTED 2" in out, err
    assert not result.is_error, result.content[0].text
    assert "LockBusy" not in result.content[0].text
    assert result.structured_content["results"][0]["source_path"] == "travel.md"
    assert any("waiting for process" in m for m in messages), messages
    assert any("0 chunk(s)" in m for m in messages), messages  # the server wrote nothing itself


def test_search_of_an_index_with_data_does_not_wait_for_a_writer(tmp_path):
    """Readers never take the lock: while another process holds it, a search (its first call
    included) answers at once from what is committed."""
    cfg = _corpus(tmp_path)
    with docstrata.open(cfg) as ts:
        ts["policies"].ingest()
    holder = _start_holder(tmp_path, cfg, 60)
    try:
        with docstrata.open(cfg) as ts:
            hits = ts["policies"].search("expense claims audited", mode="keyword")
            assert hits and hits[0].source_path == "audit.md"
            assert holder.poll() is None  # answered while the writer still holds the lock (60 s)
    finally:
        holder.kill()
        holder.wait(timeout=30)


# ----------------------------------------------------------------------------- PostgreSQL
from .pg_server import pg_dsn  # noqa: E402,F401 - the session fixture


def test_postgres_advisory_lock_serialises_writers_across_sessions(tmp_path, pg_dsn):  # noqa: F811
    pytest.importorskip("psycopg")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "travel.md").write_text(DOC, encoding="utf-8")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text(f"tools:\n  - name: pglock\n    type: hierarchical_document\n    source: docs/\n"
                   f"    database: '{pg_dsn}'\n    limits:\n      lock_timeout_s: 0.5\n", encoding="utf-8")
    with docstrata.open(cfg) as first, docstrata.open(cfg) as second:
        a, b = first["pglock"], second["pglock"]
        held = threading.Event()
        release = threading.Event()

        def hold():
            with a.store.ingest_lock("tool 'pglock'", 5):
                held.set()
                release.wait(10)

        t = threading.Thread(target=hold)
        t.start()
        assert held.wait(10)
        waits: list[str] = []
        try:
            with pytest.raises(LockTimeout) as e:
                b.ingest(progress=lambda d, n, m: waits.append(m))
            assert "another session is still ingesting" in str(e.value)
            assert waits and "waiting for another session" in waits[0]
        finally:
            release.set()
            t.join(10)
        b.cfg.limits.lock_timeout_s = 10
        assert b.ingest().added == 1
        b.store.drop()


# ----------------------------------------------------------------------------- load
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_concurrent_ingests_during_50_concurrent_http_searches(tmp_path):
    """Two CLI ingests rewrite documents while 50 MCP searches run at once over HTTP: every search
    answers, no error; the p95 latency is printed (docs/benchmarks.md, issue-17 section)."""
    from mcp.client.streamable_http import streamable_http_client
    from mcp import ClientSession
    from mcp.shared._httpx_utils import create_mcp_http_client

    cfg = _corpus(tmp_path)
    for i in range(20):
        (tmp_path / "docs" / f"memo{i}.md").write_text(f"# Memo {i}\n\n## 1. Topic\n\nBudget line {i} for travel.\n",
                                                       encoding="utf-8")
    assert subprocess.run([sys.executable, "-m", "docstrata.cli", "ingest", "-c", str(cfg)], env=subprocess_env(),
                          capture_output=True, timeout=300).returncode == 0
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "docstrata.cli", "serve", "-c", str(cfg), "--transport", "http",
                               "--port", str(port)], env=subprocess_env(), stderr=subprocess.PIPE, text=True)
    stop = threading.Event()
    ingest_codes: list[int] = []

    def churn(k: int) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            (tmp_path / "docs" / f"memo{k}.md").write_text(f"# Memo {k}\n\n## 1. Topic\n\nRevision {n} of budget "
                                                           f"line {k}.\n", encoding="utf-8")
            ingest_codes.append(subprocess.run([sys.executable, "-m", "docstrata.cli", "ingest", "-c", str(cfg)],
                                               env=subprocess_env(), capture_output=True, timeout=300).returncode)

    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.3)
        writers = [threading.Thread(target=churn, args=(k,)) for k in (0, 1)]
        latencies: list[float] = []
        errors: list[str] = []

        async def searches():
            client = create_mcp_http_client()
            async with client, streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=client) as (r, w):
                async with ClientSession(r, w, read_timeout_seconds=120) as session:
                    await session.initialize()
                    # the server's index is open (its first call waited for nobody); now the writers start
                    warm = await session.call_tool("policies_search", {"query": "budget line"})
                    assert not warm.is_error, warm.content[0].text
                    for w in writers:
                        w.start()
                    await anyio.sleep(2)  # let the ingests get going

                    async def one(i: int):
                        t0 = time.perf_counter()
                        res = await session.call_tool("policies_search", {"query": f"budget line {i % 20}"})
                        latencies.append(time.perf_counter() - t0)
                        if res.is_error:
                            errors.append(res.content[0].text)

                    async with anyio.create_task_group() as tg:
                        for i in range(50):
                            tg.start_soon(one, i)

        anyio.run(searches)
        stop.set()
        for w in writers:
            if w.is_alive() or w.ident:
                w.join(300)
    finally:
        stop.set()
        server.terminate()
        server.wait(timeout=30)
    assert not errors, errors[:3]
    assert len(latencies) == 50
    assert ingest_codes and all(c == 0 for c in ingest_codes), ingest_codes
    latencies.sort()
    p95 = latencies[int(0.95 * len(latencies)) - 1]
    print(f"\n50 concurrent MCP HTTP searches during {len(ingest_codes)} ingests: "
          f"p50 {latencies[24] * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms")


def test_file_lock_held_elsewhere_reports_its_holder_then_times_out(tmp_path):
    """The polling both locks share: the waiting side hears who holds the lock, then gets one
    LockTimeout line naming the holder; nothing is left held."""
    import fcntl
    import re

    from docstrata.locking import file_lock

    path = tmp_path / "ingest.lock"
    path.write_text("4242", encoding="ascii")  # the holder writes its pid into the file
    fd = os.open(path, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another open file description: a second holder
    heard: list[str] = []
    try:
        with pytest.raises(LockTimeout, match=r"tool 't': process 4242 is still ingesting after \d+ s of waiting"):
            with file_lock(path, "tool 't'", timeout_s=0.3, on_wait=heard.append, report_every_s=60):
                pass
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    assert len(heard) == 1, heard  # once, then every 60 s
    assert re.fullmatch(r"tool 't': waiting for process 4242 to finish ingesting \(\d+ s\)", heard[0]), heard
    with file_lock(path, "tool 't'", timeout_s=0):  # released: taken at once
        pass
