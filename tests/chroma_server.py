"""A real Chroma server on 127.0.0.1 for tests: the ``chroma run`` CLI of the chromadb package."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest


def chroma_cli() -> str | None:
    """The ``chroma`` executable beside this Python (the venv's bin), else one on PATH."""
    here = Path(sys.executable).with_name("chroma")
    return str(here) if here.is_file() else shutil.which("chroma")


@contextlib.contextmanager
def running_chroma_server(data: Path, port: int):
    """``http://127.0.0.1:PORT`` of a Chroma server on ``port`` keeping its data under ``data``,
    stopped on exit (skips the test without the CLI or when it does not start)."""
    cli = chroma_cli()
    if cli is None:
        pytest.skip("no `chroma` CLI (chromadb package) to start a Chroma server")
    log = open(data / "server.log", "wb")
    proc = subprocess.Popen([cli, "run", "--path", str(data / "db"), "--host", "127.0.0.1", "--port", str(port)],
                            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "ANONYMIZED_TELEMETRY": "False"})
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.skip(f"the Chroma server did not start: {(data / 'server.log').read_text()[-300:]}")
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def chroma_server_url(tmp_path_factory):
    """``http://127.0.0.1:PORT`` of a Chroma server started for the session (skips without the CLI)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with running_chroma_server(tmp_path_factory.mktemp("chroma-server"), port) as url:
        yield url
