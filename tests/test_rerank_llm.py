"""The LLM reranker (issue 16): HoloDeck's reranker_model provider object, RankGPT's listwise prompt,
against the real OpenAI / Anthropic SDK clients and a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import pytest

from docstrata.config import LLMProviderConfig
from docstrata.llm import RetryPolicy
from docstrata.models import SearchResult
from docstrata.rerank import Reranker
from docstrata.rerank_llm import LLMRerankBackend, listwise_prompt, parse_permutation

from .fake_llm_server import FakeLLMServer, Reply

FAST = RetryPolicy(delays=(0.05, 0.1, 0.2))
PASSAGES = ["The cafeteria opens at eight.", "Annual leave carry-over is five days.",
            "Leave requests go to the manager; unused annual leave days carry over."]


@pytest.fixture(scope="module")
def server():
    with FakeLLMServer() as s:
        yield s


@pytest.fixture(autouse=True)
def _fresh(server):
    server.reset()


def test_prompt_and_lenient_parsing():
    prompt = listwise_prompt("carry over leave", PASSAGES)
    assert "[1] The cafeteria opens at eight.\n[2] Annual" in prompt and "Search Query: carry over leave." in prompt
    assert parse_permutation("[3] > [1] > [3] > [9]", 3) == [2, 0, 1]
    assert parse_permutation("I cannot rank these.", 2) == [0, 1]


@pytest.mark.parametrize("provider", ["openai", "anthropic", "ollama"])
def test_each_provider_ranks_in_one_request_and_the_answer_is_cached(server, provider, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    base = server.url + ("/v1" if provider == "openai" else "")
    backend = LLMRerankBackend(LLMProviderConfig(provider=provider, name="ranker", endpoint=base), retry=FAST)
    scores = backend.score("unused annual leave days carry over", PASSAGES)
    assert scores == pytest.approx([1 / 3, 2 / 3, 1.0])  # passage 3 shares most query words
    assert len(server.requests) == 1
    path = server.requests[0].path
    assert path.endswith("/messages" if provider == "anthropic" else "/v1/chat/completions")
    backend.score("unused annual leave days carry over", PASSAGES)
    assert len(server.requests) == 1 and backend.calls == 1


def test_retries_follow_the_context_policy_and_failure_keeps_the_fused_order(server, caplog):
    backend = LLMRerankBackend(LLMProviderConfig(provider="openai", name="r", endpoint=server.url + "/v1"),
                               retry=FAST)
    server.script([Reply(status=503), Reply(status=429, retry_after="0"), Reply(malformed=True)])
    assert backend.score("leave", PASSAGES)[0] is not None and len(server.requests) == 4
    server.reset()
    server.script(rule=lambda req: Reply(status=500))
    results = [SearchResult(chunk_id=f"d#{i}", content=p, fused_score=1.0 - i / 10, source_path="d",
                             parent_chain=[], section_id=str(i)) for i, p in enumerate(PASSAGES)]
    reranker = Reranker(LLMProviderConfig(provider="openai", name="r2", endpoint=server.url + "/v1"))
    reranker._backend.retry = FAST
    out = reranker.rerank("cafeteria hours", results, 3)
    assert [r.chunk_id for r in out] == ["d#0", "d#1", "d#2"] and all(r.rerank_score is None for r in out)
    assert "LLM reranker openai:r2 failed" in caplog.text and len(server.requests) == 4


def test_a_tool_reranks_with_a_holodeck_reranker_model(server, tmp_path):
    import docstrata

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "leave.md").write_text(
        "# Leave\n\n## 1. Scope\n\nThis policy covers leave.\n\n## 2. Carry-over\n\n"
        "Unused annual leave days carry over: up to five days.\n\n## 3. Canteen\n\nThe canteen opens at eight.\n",
        encoding="utf-8")
    (tmp_path / "agent.yaml").write_text(f"""
tools:
  - name: policies
    type: hierarchical_document
    source: docs/
    enable_reranking: true
    reranker_model: {{provider: openai, name: gpt-4o-mini, endpoint: "{server.url}/v1", temperature: 0.0}}
""", encoding="utf-8")
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        tools["policies"].ingest()
        hits = tools["policies"].search("unused annual leave days carry over", top_k=2)
    assert hits[0].section_id == "2" and hits[0].rerank_score == 1.0
    ranking_requests = [r for r in server.requests if "RankGPT" in str(r.body)]
    assert len(ranking_requests) == 1
