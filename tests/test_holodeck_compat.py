"""HoloDeck agent.yaml files, written from HoloDeck's documented schema (models, instructions,
evaluations, test cases, mcp / function / prompt tools, vectorstore and hierarchical_document
tools, each database form), loaded, ingested and searched unchanged (issue 16).

Hosted providers (OpenAI embeddings, Ollama, Azure OpenAI) are the real HTTP server on 127.0.0.1
of ``fake_llm_server``; stores are the real Chroma, FAISS, Qdrant (local mode), PostgreSQL."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest
import yaml

from .fake_llm_server import FakeLLMServer

FIXTURES = Path(__file__).parent / "fixtures" / "holodeck"

# file → {tool: (query, mode, what the first hit must show)}
CASES = {
    "research-anthropic.yaml": {"handbook": ("how many unused leave days carry over", "hybrid", "2.2")},
    "support-openai.yaml": {"catalogue": ("waterproof jacket with a hood", "hybrid", "P-200"),
                            "faq": ("reset my password", "hybrid", "faq-1"),
                            "help_centre": ("refund to my payment method", "hybrid", "Refunds reach")},
    "local-ollama.yaml": {"policies": ("Section 3.2", "hybrid", "3.2"),
                          "kb": ("express shipping next day", "keyword", "Express shipping")},
    "rerank-azure.yaml": {"handbook": ("appeal a rejected expense claim", "hybrid", "3.2")},
}


@pytest.fixture(scope="module")
def server():
    with FakeLLMServer() as s:
        yield s


@pytest.fixture()
def agents(tmp_path, server, monkeypatch):
    shutil.copytree(FIXTURES, tmp_path / "agents")
    monkeypatch.setenv("FAKE_LLM_URL", server.url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "az-test")
    server.reset()
    return tmp_path / "agents"


def _first_hit_shows(hit, want: str) -> bool:
    fields = [getattr(hit, "section_id", None), getattr(hit, "id", None), hit.content]
    return any(f and (f == want or want in f) for f in fields)


def _run(path: Path, cases: dict, caplog) -> list[str]:
    """Load, ingest and search ``path``; returns the warning lines docstrata logged."""
    import docstrata

    with caplog.at_level(logging.INFO, logger="docstrata"):
        with docstrata.open(path) as tools:
            for name, (query, mode, want) in cases.items():
                report = tools[name].ingest()
                assert report.chunks_total > 0 and not report.skipped, (name, report.skipped)
                hits = tools[name].search(query, mode=mode)
                assert hits, (name, query)
                assert _first_hit_shows(hits[0], want), (name, query, hits[0])
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith("docstrata")]


@pytest.mark.parametrize("file", sorted(CASES))
def test_a_holodeck_file_loads_ingests_and_answers_with_at_most_one_notice(file, agents, server, caplog):
    from docstrata.config import json_schema, load_config

    path = agents / file
    data = yaml.safe_load(path.read_text())
    import jsonschema

    jsonschema.validate(data, json.loads(json_schema()))  # `docstrata schema` accepts it too
    cfg = load_config(path)
    assert sorted(t.name for t in cfg.tools) == sorted(CASES[file])
    caplog.clear()
    warnings = _run(path, CASES[file], caplog)
    assert len(warnings) <= 1, warnings


def test_the_embedding_provider_and_databases_are_the_ones_the_files_name(agents, server, caplog):
    from docstrata.config import load_config
    from docstrata.embed_openai import OpenAICompatibleEmbedder
    from docstrata.tools import Toolset

    _run(agents / "support-openai.yaml", CASES["support-openai.yaml"], caplog)
    assert (agents / "chroma-data").is_dir()  # the faq's Chroma, where connection_string put it
    assert (agents / ".docstrata" / "catalogue" / "chroma").is_dir()
    assert (agents / "faiss-index" / "help_centre" / "index.sqlite").is_file()

    server.reset()
    _run(agents / "research-anthropic.yaml", CASES["research-anthropic.yaml"], caplog)
    embed_requests = [r for r in server.requests if r.path.endswith("/embeddings")]
    assert embed_requests and {r.body["model"] for r in embed_requests} == {"text-embedding-3-small"}

    with Toolset(load_config(agents / "local-ollama.yaml")) as tools:
        emb = tools["policies"].embedder
        assert isinstance(emb, OpenAICompatibleEmbedder) and emb.model_name == "nomic-embed-text:latest"
        assert type(tools["policies"].store).__name__ == "QdrantStore"


@pytest.mark.postgres
def test_holodeck_postgres_connection_string(agents, pg_dsn, monkeypatch, caplog):  # noqa: F811
    monkeypatch.setenv("PG_DSN", pg_dsn)
    warnings = _run(agents / "legal-postgres.yaml", {"handbook": ("Section 2.1", "hybrid", "2.1")}, caplog)
    assert len(warnings) <= 1, warnings


from .pg_server import pg_dsn  # noqa: E402,F401 - session fixture
