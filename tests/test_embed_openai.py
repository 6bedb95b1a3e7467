"""OpenAI-compatible and Ollama embedders (issue 16) against a real HTTP server on 127.0.0.1, driven
by the real openai SDK (and httpx for Ollama's native API): batching, dimensions, windows, the
retry policy context generation uses, failures that store nothing, the embedding cache."""

from __future__ import annotations

import socket
import time

import numpy as np
import pytest

from docstrata.config import parse_config
from docstrata.embed import make_embedder
from docstrata.embed_openai import OpenAICompatibleEmbedder
from docstrata.errors import ConfigError, ProviderError
from docstrata.llm import RetryPolicy

from .fake_llm_server import FakeLLMServer, Reply, bag_of_words

FAST = RetryPolicy(delays=(0.05, 0.1, 0.2))


@pytest.fixture(scope="module")
def server():
    with FakeLLMServer() as s:
        yield s


@pytest.fixture(autouse=True)
def _fresh(server):
    server.reset()
    server.max_input_chars = 100_000


def embedder(server, **kw) -> OpenAICompatibleEmbedder:
    kw.setdefault("retry", FAST)
    return OpenAICompatibleEmbedder(kw.pop("model", "bge-small-en"), base_url=server.url + "/v1", **kw)


def test_vectors_are_the_servers_normalised_and_batched(server):
    emb = embedder(server, batch_size=3)
    texts = [f"clause {i} on annual leave" for i in range(7)]
    vecs = emb.encode(texts)
    want = np.array([bag_of_words(t, 64) for t in texts], dtype=np.float32)
    want /= np.linalg.norm(want, axis=1, keepdims=True)
    assert vecs.shape == (7, 64) and vecs.dtype == np.float32
    np.testing.assert_allclose(vecs, want, atol=1e-6)
    sizes = [len(r.body["input"]) for r in server.requests]
    assert sizes == [3, 3, 1] and all(r.body["model"] == "bge-small-en" for r in server.requests)
    assert emb.dim == 64 and emb.model_id == f"openai:openai:bge-small-en@{server.url}/v1:64"


def test_dimension_is_detected_once_or_asked_of_text_embedding_3(server):
    emb = embedder(server)
    assert emb.dim == 64 and len(server.requests) == 1  # one probe
    assert emb.dim == 64 and len(server.requests) == 1
    server.reset()
    small = embedder(server, model="text-embedding-3-small", dimensions=32)
    assert small.dim == 32 and not server.requests  # given: no probe
    assert small.encode(["a text"]).shape == (1, 32)
    assert server.requests[0].body["dimensions"] == 32
    other = embedder(server, dimensions=32)  # a server that ignores the size is caught
    with pytest.raises(ProviderError, match="64-dimensional vectors, expected 32"):
        other.encode(["a text"])
    assert "dimensions" not in server.requests[-1].body  # only text-embedding-3 models are asked


def test_long_chunk_text_is_windowed_below_the_servers_limit(server):
    server.max_input_chars = 700
    emb = embedder(server, max_input_tokens=200)  # ~600 characters per window
    content = " ".join(f"word{i}" for i in range(600))  # ~4,800 characters
    [vecs] = emb.embed_chunks([("Leave Policy > 2. Annual Leave", content)])
    sent = server.embedding_inputs()
    assert vecs.shape[0] == len(sent) > 5 and all(len(t) <= 700 for t in sent)
    assert all(t.startswith("Leave Policy > 2. Annual Leave\n\n") for t in sent)
    bodies = [t.split("\n\n", 1)[1] for t in sent]
    assert bodies[0].startswith("word0 ") and bodies[-1].endswith("word599")
    covered = set(" ".join(bodies).split())
    assert covered == set(content.split())  # no text lost between windows
    assert all(b.split()[0] in a.split() for a, b in zip(bodies, bodies[1:]))  # windows overlap


def test_retries_wait_the_policy_delays(server):
    """The embedder waits its retry policy's delays between attempts (the default 1, 2, 4 s are
    timed in tests/test_context.py, one policy serving every provider call; here a policy of a
    fifth of them keeps the suite short)."""
    server.script([Reply(status=500), Reply(status=503), Reply(status=500)])
    vecs = embedder(server, retry=RetryPolicy(delays=(0.2, 0.4, 0.8)), dimensions=64).encode(["a text"])
    assert [r.status for r in server.requests] == [500, 503, 500, 200] and vecs.shape == (1, 64)
    gaps = [b.started - a.finished for a, b in zip(server.requests, server.requests[1:])]
    for gap, want in zip(gaps, (0.2, 0.4, 0.8)):
        assert want - 0.05 <= gap <= want + 0.3, gaps
    assert RetryPolicy().delays == (1.0, 2.0, 4.0)


def test_retry_after_is_honoured(server):
    server.script([Reply(status=429, retry_after="1")])
    embedder(server, dimensions=64).encode(["a text"])
    first, second = server.requests
    assert second.started - first.finished >= 0.95  # the policy alone would wait 0.05 s


def test_malformed_and_slow_answers_are_retried(server):
    server.script([Reply(malformed=True), Reply(delay=1.5)])
    vecs = embedder(server, dimensions=64, request_timeout=0.5).encode(["a text"])
    assert len(server.requests) == 3 and vecs.shape == (1, 64)


def test_a_batch_that_keeps_failing_is_a_provider_error_and_a_bad_key_is_not_retried(server):
    server.script(rule=lambda req: Reply(status=503))
    emb = embedder(server, dimensions=64)
    with pytest.raises(ProviderError, match=r"bge-small-en: HTTP 503") as e:
        emb.encode(["a text"])
    assert e.value.retryable and len(server.requests) == 4
    server.reset()
    server.script(rule=lambda req: Reply(status=401))
    with pytest.raises(ProviderError, match="HTTP 401"):
        emb.encode(["a text"])
    assert len(server.requests) == 1


def test_ollama_native_api_and_its_openai_compatible_endpoint(server):
    native = OpenAICompatibleEmbedder("nomic-embed-text", provider="ollama", base_url=server.url, native=True,
                                      retry=FAST)
    compat = OpenAICompatibleEmbedder("nomic-embed-text", provider="ollama", base_url=server.url, retry=FAST)
    a, b = native.encode(["section 4.2 notice"]), compat.encode(["section 4.2 notice"])
    np.testing.assert_allclose(a, b, atol=1e-6)
    paths = [r.path for r in server.requests]
    assert paths[0] == "/api/embed" and paths[1] == "/v1/embeddings"
    assert server.requests[0].body["truncate"] is False  # over-long input is refused, never cut
    assert native.max_input_tokens == 2048 and "ollama-native" in native.model_id
    server.max_input_chars = 10
    with pytest.raises(ProviderError, match="HTTP 400"):
        native.encode(["a text longer than ten characters"])


def test_azure_openai_uses_the_deployment_route(server, monkeypatch):
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "test-key")
    emb = OpenAICompatibleEmbedder("emb-deploy", provider="azure_openai", base_url=server.url, retry=FAST)
    assert emb.encode(["x"]).shape == (1, 64)
    req = server.requests[0]
    assert req.path.startswith("/openai/deployments/emb-deploy/embeddings?api-version=")
    assert req.headers["api-key"] == "test-key"


def test_choice_of_embedder_and_fast_clear_errors(server, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    looked_up: list[str] = []  # a trip to a hub starts with a name lookup (18 s, before, when offline)
    real_getaddrinfo = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        looked_up.append(host)
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        make_embedder("text-embedding-3-small")  # OpenAI's name: OpenAI, not Hugging Face
    with pytest.raises(ConfigError, match="embedding_provider"):
        make_embedder("my-org/unheard-of-model")
    assert looked_up == []  # no hub asked (bench/speed_claims.py times these two errors)
    cfg = parse_config({"embedding_provider": {"provider": "ollama", "name": "mxbai-embed-large",
                                               "endpoint": server.url},
                        "tools": [{"name": "a", "type": "hierarchical_document", "source": "d"},
                                  {"name": "b", "type": "hierarchical_document", "source": "d",
                                   "embedding_model": "all-MiniLM-L6-v2", "embedding_provider": None}]})
    a, b = cfg.tools
    assert a.embedding_model == "mxbai-embed-large" and a.embedding_provider.base_url == server.url
    emb = make_embedder(a.embedding_model, None, a.embedding_provider)
    assert isinstance(emb, OpenAICompatibleEmbedder) and emb.max_input_tokens == 512
    assert b.embedding_provider is None and b.embedding_model == "all-MiniLM-L6-v2"


AGENT = """
model: {{provider: anthropic, name: claude-sonnet-4-20250514}}
embedding_provider:
  provider: openai
  name: text-embedding-3-small
  endpoint: "{url}/v1"
  api_key: ${{TEST_EMBED_KEY}}
tools:
  - name: policies
    type: hierarchical_document
    description: Policies
    source: docs/
"""

LEAVE = """# Leave Policy

## 1. Scope

This policy applies to every employee of the company.

## 2. Annual Leave

Employees accrue twenty days of annual leave per year. Unused days may be carried over.

## 3. Sick Leave

Sick leave requires a doctor's note after three consecutive days.
"""


def test_a_holodeck_file_with_an_embedding_provider_ingests_searches_and_caches(server, tmp_path, monkeypatch):
    import docstrata

    monkeypatch.setenv("TEST_EMBED_KEY", "sk-test")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "leave.md").write_text(LEAVE, encoding="utf-8")
    (tmp_path / "agent.yaml").write_text(AGENT.format(url=server.url), encoding="utf-8")
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        tool = tools["policies"]
        first = tool.ingest()
        assert first.added == 1 and first.embedded == first.chunks >= 3 and not first.skipped
        assert all(r.headers["authorization"] == "Bearer sk-test" for r in server.requests)
        hit = tool.search("doctor's note sick", top_k=1, mode="semantic")[0]
        assert hit.section_id == "3"
        n = len(server.requests)
        rebuilt = tool.ingest(force=True)  # every chunk re-made; every vector from the cache
        assert rebuilt.embedded == 0 and rebuilt.updated == 1
        assert len(server.requests) == n
        assert tool.store.get_meta("index_settings").count("openai") >= 1


def test_a_failing_embedding_server_skips_the_file_and_stores_nothing(server, tmp_path):
    import docstrata

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "leave.md").write_text(LEAVE, encoding="utf-8")
    (tmp_path / "agent.yaml").write_text(f"""
tools:
  - name: policies
    type: hierarchical_document
    source: docs/
    embedding_dimensions: 64
    embedding_provider: {{provider: openai, name: bge-small-en, endpoint: "{server.url}/v1"}}
""", encoding="utf-8")
    server.script(rule=lambda req: Reply(status=400))
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        report = tools["policies"].ingest()
        assert report.added == 0 and [s.path for s in report.skipped] == ["leave.md"]
        assert "embedding failed" in report.skipped[0].reason and "HTTP 400" in report.skipped[0].reason
        assert tools["policies"].store.count() == 0
        server.reset()
        again = tools["policies"].ingest()  # the server is back: the file is retried
        assert again.added == 1 and tools["policies"].store.count() >= 3


@pytest.mark.slow
@pytest.mark.shared_data
@pytest.mark.timeout(1800)
def test_shared_documents_through_the_openai_compatible_embedder_and_a_cached_rebuild(server, tmp_path):
    """Issue 16's acceptance run: ``../shared/data/documents`` embedded by the local server."""
    import docstrata

    from .conftest import shared_data

    documents = shared_data("documents")
    (tmp_path / "agent.yaml").write_text(f"""
tools:
  - name: corpus
    type: hierarchical_document
    source: "{documents.as_posix()}"
    embedding_provider: {{provider: openai, name: bge-small-en, endpoint: "{server.url}/v1", max_input_tokens: 512}}
""", encoding="utf-8")
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        tool = tools["corpus"]
        t0 = time.perf_counter()
        first = tool.ingest()
        print(f"\nfirst ingest: {first.files_total} files, {first.chunks} chunks, {first.embedded} embedded, "
              f"{len(server.requests)} requests, {time.perf_counter() - t0:.1f} s")
        assert first.added > 20 and first.embedded > 0
        assert not [s for s in first.skipped if "embedding failed" in s.reason]
        assert max(len(t) for t in server.embedding_inputs()) <= 512 * 3
        requests = len(server.requests)
        t0 = time.perf_counter()
        rebuilt = tool.ingest(force=True)
        print(f"forced re-ingest: {rebuilt.embedded} embedded, {time.perf_counter() - t0:.1f} s")
        assert rebuilt.embedded == 0 and len(server.requests) == requests
        assert tool.search("definitions", top_k=3)


@pytest.mark.parametrize("provider, native", [("openai", False), ("ollama", False), ("ollama", True)])
def test_a_server_that_is_not_there_is_named_with_what_to_check(provider, native, monkeypatch):
    import socket

    from docstrata.llm import LLMRequestError

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}" + ("" if native else "/v1")
    emb = OpenAICompatibleEmbedder("nomic-embed-text:latest", provider=provider, base_url=base, native=native,
                                   dimensions=8, retry=RetryPolicy(delays=()))
    with pytest.raises(LLMRequestError) as err:
        emb.embed_query("hello")
    text = str(err.value)
    assert "could not connect to http://127.0.0.1:" + str(port) in text, text
    assert "is the server running" in text and "nomic-embed-text:latest" in text
