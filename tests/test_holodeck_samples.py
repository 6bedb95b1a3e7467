"""Real HoloDeck configuration files, unchanged (issue 16): every agent.yaml of
github.com/justinbarias/holodeck-samples, HoloDeck's own test fixture and its ``holodeck init``
templates rendered for each vector store (provenance and licence: tests/fixtures/holodeck/samples/
PROVENANCE.md). Each file is validated by ``docstrata schema``, loaded, and every docstrata tool in
it is ingested and searched; the whole file may log at most one notice line. A sample's
``config.yaml`` (HoloDeck's project config: named ``vectorstores``, ``providers``) sits beside it, as
in the repository, and is read as HoloDeck reads it.

The files' data is not copied: each tool's ``source`` is filled with small documents / records made
here, in the shape its ``id_field`` / ``vector_field`` / ``meta_fields`` describe. Hosted embedders
(OpenAI, Azure OpenAI, Ollama) are the real HTTP server of ``fake_llm_server`` on 127.0.0.1 serving
the bundled all-MiniLM-L6-v2's vectors (as a TEI / Ollama server would), so the files' own
``min_similarity_score`` thresholds apply to real cosines. The files name fixed endpoints
(Ollama's ``localhost:11434``, a Chroma server on ``localhost:8000``): those servers are started on
those ports, and a file is skipped when its port is taken. PostgreSQL is the suite's real server.
"""

from __future__ import annotations

import json
import logging
import shutil
import socket
from pathlib import Path

import pytest
import yaml

from .fake_llm_server import FakeLLMServer

HERE = Path(__file__).parent
SAMPLES = HERE / "fixtures" / "holodeck" / "samples"
# The default run covers one file per provider / store form; the rest are marked slow.
DEFAULT_RUN = {
    "holodeck-samples/customer-support/openai/agent.yaml",  # 3 vectorstore tools, embedded Chroma, OpenAI
    "holodeck-samples/ticket-routing/ollama/agent.yaml",  # Ollama's native server on 11434
    "holodeck-samples/financial-assistant/claude/agent.yaml",  # a PDF hierarchical_document, Qdrant, Azure
    "holodeck/templates-rendered/research-azure_openai-postgres.yaml",  # PostgreSQL
    "holodeck/templates-rendered/customer-support-openai-chromadb.yaml",  # a Chroma server on 8000
    "holodeck/templates-rendered/research-anthropic-pinecone.yaml",  # refused clearly
}
FILES = [f if f in DEFAULT_RUN else pytest.param(f, marks=pytest.mark.slow)
         for f in sorted(p.relative_to(SAMPLES).as_posix() for p in SAMPLES.rglob("*.yaml") if p.name != "config.yaml")]

# Files that cannot run here, and the clear error they must give instead (a substring of it).
REFUSED = {
    "holodeck/templates-rendered/conversational-anthropic-pinecone.yaml": "Pinecone",
    "holodeck/templates-rendered/customer-support-anthropic-pinecone.yaml": "Pinecone",
    "holodeck/templates-rendered/research-anthropic-pinecone.yaml": "Pinecone",
}
# Files naming a server this machine cannot run (qdrant-client's local mode is no HTTP server).
NEEDS_SERVER = {
    "holodeck/templates-rendered/conversational-ollama-qdrant.yaml": "a Qdrant server on localhost:6333",
    "holodeck/templates-rendered/customer-support-ollama-qdrant.yaml": "a Qdrant server on localhost:6333",
    "holodeck/templates-rendered/research-ollama-qdrant.yaml": "a Qdrant server on localhost:6333",
}

TOPICS = [  # (topic, question, answer)
    ("password", "How do I reset my password?", "Open the sign-in page, choose Forgot password and follow the "
                                                  "link we email you; the link expires after 24 hours."),
    ("refund", "When will my refund arrive?", "Refunds for a cancelled subscription reach the original payment "
                                              "method within 5 to 10 business days."),
    ("shipping", "How fast is express shipping?", "Express shipping delivers the next business day for orders "
                                                  "placed before 2 pm; standard shipping takes three to five days."),
]
QUERY, WANT = "How do I reset my password?", "password"
PDF_QUERY, PDF_WANT = "how long is the warranty period", "warranty period"


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a closed server's TIME_WAIT is no listener
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.fixture(scope="module")
def minilm_server():
    """The OpenAI / Azure / Ollama embeddings APIs on Ollama's port 11434 (any free port if taken),
    answering with the bundled model's vectors."""
    from docstrata.embed import Embedder

    model = Embedder()
    port = 11434 if _port_free(11434) else 0
    with FakeLLMServer(port=port, embed=lambda texts, dim: model.encode(texts).tolist()) as s:
        yield s


@pytest.fixture(scope="module")
def chroma_8000(tmp_path_factory):
    """A Chroma server on localhost:8000 (the endpoint the files name), or None when the port is taken."""
    from .chroma_server import running_chroma_server

    if not _port_free(8000):
        yield None
        return
    with running_chroma_server(tmp_path_factory.mktemp("chroma-8000"), 8000) as url:
        yield url


def _records(tool: dict) -> list[dict]:
    """Records for a vectorstore tool over JSON: one per topic, with every field the tool names."""
    vector_fields = tool.get("vector_field") or ["content"]
    vector_fields = [vector_fields] if isinstance(vector_fields, str) else vector_fields
    out = []
    for i, (topic, question, answer) in enumerate(TOPICS):
        rec = {tool.get("id_field") or "id": f"{topic}-{i + 1}"}
        for f in tool.get("meta_fields") or []:
            rec[f] = 10 * (i + 1) if f in ("price", "sla_hours", "year") else f"{topic} {f.replace('_', ' ')}"
        asking = next((f for f in vector_fields if f in ("question", "title", "name")), vector_fields[0])
        for f in vector_fields:  # a question-like field (else the first) gets the question, the others the answer
            rec[f] = f"{question} {answer}" if len(vector_fields) == 1 else question if f == asking else answer
        out.append(rec)
    return out


def _markdown() -> str:
    return "# Help centre\n\n" + "".join(f"## {q}\n\n{a}\n\n" for _, q, a in TOPICS)


def _fill_sources(agent_dir: Path, data: dict) -> list[tuple[str, str, str]]:
    """Write each docstrata tool's source; returns (tool, query, text the first hit must contain)."""
    cases = []
    for tool in data.get("tools") or []:
        if not isinstance(tool, dict) or tool.get("type") not in ("vectorstore", "hierarchical_document"):
            continue
        src = agent_dir / tool["source"]
        suffix = src.suffix.lower()
        if suffix == ".pdf":
            src.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(HERE / "fixtures" / "warranty.pdf", src)
            cases.append((tool["name"], PDF_QUERY, PDF_WANT))
            continue
        if suffix == ".json":
            src.parent.mkdir(parents=True, exist_ok=True)
            src.write_text(json.dumps(_records(tool), indent=2))
        elif suffix in (".md", ".txt"):
            src.parent.mkdir(parents=True, exist_ok=True)
            src.write_text(_markdown())
        else:  # a folder of documents
            src.mkdir(parents=True, exist_ok=True)
            (src / "help-centre.md").write_text(_markdown())
        cases.append((tool["name"], QUERY, WANT))
    return cases


@pytest.fixture()
def sample_env(monkeypatch, minilm_server, tmp_path):
    url = minilm_server.url
    for var, value in {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": f"{url}/v1", "AZURE_OPENAI_ENDPOINT": url,
                       "AZURE_OPENAI_API_KEY": "az-test", "AZURE_OPENAI_DEPLOYMENT_NAME": "gpt-4o",
                       "AZURE_OPENAI_EMBEDDING_DEPLOYMENT_NAME": "text-embedding-3-small",
                       "ANTHROPIC_API_KEY": "sk-ant-test", "OPENSEARCH_PASSWORD": "unused",
                       "QDRANT_URL": str(tmp_path / "qdrant-local"), "PINECONE_API_KEY": "pc-test",
                       "HOME": str(tmp_path / "home")}.items():  # no ~/.holodeck/config.yaml of this machine
        monkeypatch.setenv(var, value)
    return minilm_server


def _names_port(text: str, port: int) -> bool:
    return f"localhost:{port}" in text or f"127.0.0.1:{port}" in text


@pytest.mark.parametrize("file", FILES)
def test_a_real_holodeck_file_validates_loads_ingests_and_answers(file, sample_env, tmp_path, caplog, request):
    import jsonschema

    import docstrata
    from docstrata.config import json_schema
    from docstrata.errors import DocstrataError

    text = (SAMPLES / file).read_text()
    shared = SAMPLES / file.rsplit("/", 1)[0] / "config.yaml"  # HoloDeck's project config beside it
    shared_text = shared.read_text() if shared.is_file() else ""
    if file in NEEDS_SERVER:
        pytest.skip(f"needs {NEEDS_SERVER[file]}")
    data = yaml.safe_load(text)
    ollama = (data.get("model") or {}).get("provider") == "ollama"
    if ollama and not sample_env.url.endswith(":11434"):
        pytest.skip("port 11434 (the file's Ollama server) is taken on this machine")
    if _names_port(text + shared_text, 8000):  # its own or its config.yaml's named Chroma server
        if request.getfixturevalue("chroma_8000") is None:
            pytest.skip("port 8000 (the file's Chroma server) is taken on this machine")
    if "POSTGRES_CONNECTION_STRING" in text:
        request.getfixturevalue("monkeypatch").setenv("POSTGRES_CONNECTION_STRING", request.getfixturevalue("pg_dsn"))

    schema = json.loads(json_schema())
    if file in REFUSED:  # `docstrata schema` refuses the file as the loader does
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(data, schema)
    else:
        jsonschema.validate(data, schema)  # `docstrata schema` accepts the file as it is
    agent = tmp_path / "agent"
    agent.mkdir()
    path = agent / "agent.yaml"
    path.write_text(text)
    if shared_text:
        (agent / "config.yaml").write_text(shared_text)
    cases = _fill_sources(agent, data)
    assert cases, "every file here has a docstrata tool"
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="docstrata"):
        if file in REFUSED:
            with pytest.raises(DocstrataError, match=REFUSED[file]):
                with docstrata.open(path) as tools:
                    for name, _, _ in cases:
                        tools[name].ingest()
            return
        named = (yaml.safe_load(shared_text) or {}).get("vectorstores") or {} if shared_text else {}
        with docstrata.open(path) as tools:
            for name, query, want in cases:
                tool = tools[name]
                raw = next(t for t in data["tools"] if isinstance(t, dict) and t.get("name") == name)
                if isinstance(raw.get("database"), str) and raw["database"] in named:  # HoloDeck's named store
                    want_db = named[raw["database"]]
                    assert tool.cfg.database.provider == want_db["provider"]
                    assert tool.cfg.database.chroma_server == want_db["connection_string"]
                report = tool.ingest()
                assert report.chunks_total > 0 and not report.skipped, (name, report.skipped)
                hits = tool.search(query)
                floor = getattr(tool.cfg, "min_similarity_score", None) or getattr(tool.cfg, "min_score", None)
                assert hits, (name, query, f"nothing above min_similarity_score {floor}")
                assert want in hits[0].content.lower(), (name, query, hits[0].content[:200])
                if floor is not None:
                    assert all(h.semantic_score is None or h.semantic_score >= floor - 1e-6 for h in hits)
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith("docstrata")]
    assert len(lines) <= 1, lines


from .pg_server import pg_dsn  # noqa: E402,F401 - session fixture
