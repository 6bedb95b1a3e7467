"""A port another program holds (issue 27 item 8): `serve --transport http` and `ui` say so and
name --port, before anything is loaded."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from .helpers import doc_project

ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "COLUMNS": "300",
       "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}


def test_a_taken_port_is_an_error_naming_the_port_option(tmp_path):
    cfg = doc_project(tmp_path, {"a.md": "# A\n\n## 1 One\n\nText.\n"})
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        for args in (["serve", "--transport", "http"], ["ui"]):
            proc = subprocess.run([sys.executable, "-m", "docstrata.cli", *args, "-c", str(cfg), "--port", str(port)],
                                  capture_output=True, text=True, env=ENV, timeout=120)
            err = " ".join(proc.stderr.split())
            assert proc.returncode == 2, (args, proc.stderr)
            assert f"cannot listen on 127.0.0.1:{port}" in err and f"pick another with --port, e.g. --port {port + 1}" \
                in err, (args, err)
            assert "Traceback" not in proc.stderr


def test_a_taken_port_is_refused_before_the_index_is_built_or_the_model_loaded(tmp_path):
    """The bind check comes before anything heavy: with an on-disk index, a refused `ui` or
    `serve --transport http` leaves no index behind (building one loads the embedding model,
    seconds) and prints no ingest report. Before, `ui` indexed the folder first and only then
    found the port taken."""
    cfg = doc_project(tmp_path, {"a.md": "# A\n\n## 1 One\n\nText.\n"}, database="embedded")
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        for args in (["ui"], ["serve", "--transport", "http"]):
            proc = subprocess.run([sys.executable, "-m", "docstrata.cli", *args, "-c", str(cfg), "--port", str(port)],
                                  capture_output=True, text=True, env=ENV, timeout=120, cwd=tmp_path)
            err = " ".join(proc.stderr.split())
            assert proc.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in err, (args, err)
            assert "indexed" not in err, (args, err)
            assert not (tmp_path / ".docstrata").exists(), (args, sorted(p.name for p in tmp_path.iterdir()))
