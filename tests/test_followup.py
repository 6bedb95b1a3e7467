"""Follow-up commands docstrata prints run as printed from another folder (issue 27 item 5):
they name the configuration by its absolute path, quoted for a shell."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from docstrata.followup import command, with_config

from .helpers import doc_project
from .test_pinpoints import ARTICLE_17

ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "COLUMNS": "200",
       "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}


def _run(cmd: str, cwd: Path) -> str:
    """Run ``cmd`` through a POSIX shell as a user pastes it, with ``docstrata`` this Python's CLI."""
    shim = cwd / "bin"
    shim.mkdir(exist_ok=True)
    (shim / "docstrata").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m docstrata.cli "$@"\n')
    (shim / "docstrata").chmod(0o755)
    proc = subprocess.run(["sh", "-c", cmd], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**ENV, "PATH": f"{shim}{os.pathsep}{ENV['PATH']}"})
    assert proc.returncode == 0, (cmd, proc.stdout, proc.stderr)
    return proc.stdout


def _printed(text: str, opener: str, closer: str = "]") -> str:
    at = text.index(opener) + len(opener)
    return text[at:text.index(closer, at)]


def test_printed_follow_ups_run_from_another_folder(tmp_path):
    project = tmp_path / "my project"  # a space: the path must be quoted
    project.mkdir()
    doc_project(project, {"reg.md": ARTICLE_17}, database="embedded", max_chunk_tokens=800, chunk_overlap=0)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _run("docstrata ingest -c agent.yaml", project)

    answer = _run("docstrata search -c agent.yaml --mode exact 'Art. 17(3)(b)'", project)
    whole = _printed(answer, "[whole chunk: ")
    assert whole.startswith(f"docstrata neighbours -c '{project / 'agent.yaml'}' -t docs "), whole
    assert "withdraws consent" in _run(whole, elsewhere)  # the whole chunk, read from another folder

    page = _run("docstrata get-section -c agent.yaml reg.md article-17 --max-chars 300", project)
    read_on = _printed(page, "continue with: ")
    assert f"-c '{project / 'agent.yaml'}'" in read_on, read_on
    offset = int(read_on.split("--cursor ")[1].split(":")[0])
    assert f"Characters {offset + 1}-" in _run(read_on, elsewhere)  # the next page, from another folder


def test_library_messages_naming_a_command_get_the_configuration(tmp_path):
    cfg = tmp_path / "a b" / "agent.yaml"
    msg = "unchanged since it failed: bad file (`docstrata ingest --force` retries it)"
    assert with_config(msg, cfg) == (f"unchanged since it failed: bad file (`docstrata ingest --force -c '{cfg}'` "
                                     "retries it)")
    assert with_config("run 'docstrata ingest' to rebuild it", cfg) == f"run `docstrata ingest -c '{cfg}'` to rebuild it"
    already = f"run 'docstrata ingest -c {cfg.name}' first"
    assert with_config(already, cfg) == already  # names a configuration already
    assert command("get-record", "it's", config=cfg, tool="t x") == f"docstrata get-record -c '{cfg}' -t 't x' 'it'\"'\"'s'"
