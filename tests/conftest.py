"""Shared fixtures. Every test runs offline: the hub is disabled and sockets may only reach 127.0.0.1.

Environment variables the suite reads (each test that needs one skips, saying which, when it is unset):

``DOCSTRATA_SHARED_DATA``  the shared evaluation data (default ``../shared/data`` beside the checkout)
``DOCSTRATA_RFC_DIR``      whole plain-text RFCs (``rfc6749.txt`` …) fetched from public repositories
                           that vendor them; too large to keep here (``tests/test_rfc_text.py``,
                           ``bench/rfc_text.py``)
``DOCSTRATA_EURLEX_DIR``   EUR-Lex XHTML acts too large to keep here, e.g. ``32024R2981.html``
                           (``tests/test_eurlex_html.py``), and Official Journal PDFs, ``32016R0679.pdf``
                           (``tests/test_pdf_notes.py``); sources in ``tests/fixtures/eurlex/NOTICE.md``
``DOCSTRATA_SCREENSHOTS``  where ``tests/test_ui_browser.py`` writes its screenshots (default: the temp folder)
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# The embedding model exported for OpenVINO (docstrata.embed_runtime.cache_dir) stays in this
# session's cache when a test points HOME at a temporary folder (HoloDeck's ~/.holodeck/config.yaml
# tests): otherwise each such test exported the model again, importing torch and transformers
# (5-10 s). A test that means to export sets DOCSTRATA_CACHE_DIR itself (test_embed_backends).
from docstrata.embed_runtime import cache_dir as _embed_cache_dir  # noqa: E402

os.environ.setdefault("DOCSTRATA_CACHE_DIR", str(_embed_cache_dir()))

# Property tests explore new examples on a developer's machine (to find bugs) but the same ones in CI
# (CI=true), so a landing never depends on a random draw; a failure found locally becomes a fix and,
# where it is a case worth keeping, an example.
# No deadline in either: a loaded machine makes a 200 ms example "flaky", and timings belong in bench/.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# DOCSTRATA_SHARED_DATA points elsewhere (a git worktree's ../shared is not the main checkout's).
SHARED_DATA = Path(
    os.environ.get("DOCSTRATA_SHARED_DATA") or Path(__file__).resolve().parents[1].parent / "shared" / "data"
)
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def shared_data(*parts: str) -> Path:
    """Path under ../shared/data, or skip the test (with the reason) when it is absent."""
    p = SHARED_DATA.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"{p} is absent: the shared evaluation data is not on this machine")
    return p


def ingested(root: Path, files: list[Path]):
    """The toolset of ``root/agent.yaml``: one ``hierarchical_document`` tool ``docs`` (embedded
    store) over copies of ``files`` in ``root/docs``, ingested. The caller closes it."""
    import shutil

    import docstrata

    (root / "docs").mkdir(exist_ok=True)
    for f in files:
        shutil.copy(f, root / "docs" / f.name)
    cfg = root / "agent.yaml"
    cfg.write_text(
        "tools:\n  - name: docs\n    type: hierarchical_document\n    source: docs/\n    database: embedded\n",
        encoding="utf-8",
    )
    ts = docstrata.open(cfg)
    ts["docs"].ingest()
    return ts


def convert_path(path: Path):
    """``path`` converted as an ingest converts it (its name the document key, its bytes hashed)."""
    import hashlib

    from docstrata.convert import convert_file
    from docstrata.models import FileState, SourceFile

    data = path.read_bytes()
    state = FileState(size=len(data), mtime_ns=0, sha256=hashlib.sha256(data).hexdigest())
    return convert_file(SourceFile(doc_key=path.name, path=str(path), state=state))


def external_file(env_var: str, name: str, what: str) -> Path:
    """``$env_var/name``, a file too large (or not licensed) to keep in the repository, or skip the
    test saying which variable to set (unset) or which file is missing (set, file absent). ``what``
    says what the file is, for the skip reason."""
    folder = os.environ.get(env_var)
    if not folder:
        pytest.skip(f"${env_var} is unset: point it at a folder holding {name} ({what}) to run this test")
    path = Path(folder) / name
    if not path.exists():
        pytest.skip(f"{path} is absent: ${env_var} must hold {name} ({what})")
    return path


_real_connect = socket.socket.connect


def _guarded_connect(self, address):
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, str) and self.family in (socket.AF_INET, socket.AF_INET6):
        if host not in ("127.0.0.1", "localhost", "::1", "0.0.0.0") and not host.startswith("127."):
            raise RuntimeError(f"test tried to reach the network ({address}); tests must stay on 127.0.0.1")
    return _real_connect(self, address)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)


@pytest.fixture(scope="session")
def embedder():
    """The real bundled all-MiniLM-L6-v2 embedder, loaded once per session."""
    from docstrata.embed import Embedder

    return Embedder()


PILOT_AGREEMENT = Path(__file__).parent / "fixtures" / "common-paper" / "pilot-agreement.docx"


@pytest.fixture(scope="module")
def pilot(tmp_path_factory):
    """The Common Paper Pilot Agreement ingested by a default document tool (the passage tests)."""
    import shutil

    import docstrata

    root = tmp_path_factory.mktemp("pilot")
    (root / "docs").mkdir()
    shutil.copy(PILOT_AGREEMENT, root / "docs" / "pilot-agreement.docx")
    (root / "agent.yaml").write_text(
        "tools:\n  - name: law\n    type: hierarchical_document\n    source: docs/\n    database: embedded\n",
        encoding="utf-8",
    )
    with docstrata.open(root / "agent.yaml") as ts:
        tool = ts["law"]
        tool.ingest()
        yield tool
