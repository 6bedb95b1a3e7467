"""Shared fixtures. Every test runs offline: the hub is disabled and sockets may only reach 127.0.0.1."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

# Property tests explore new examples on a developer's machine (to find bugs) but the same ones in CI
# (CI=true), so a landing never depends on a random draw; a failure found locally becomes a fix and,
# where it is a case worth keeping, an example.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# DOCSTRATA_SHARED_DATA points elsewhere (a git worktree's ../shared is not the main checkout's).
SHARED_DATA = Path(os.environ.get("DOCSTRATA_SHARED_DATA") or Path(__file__).resolve().parents[1].parent / "shared" / "data")
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def shared_data(*parts: str) -> Path:
    """Path under ../shared/data, or skip the test (with the reason) when it is absent."""
    p = SHARED_DATA.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"{p} is absent: the shared evaluation data is not on this machine")
    return p


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
