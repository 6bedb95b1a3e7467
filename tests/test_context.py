"""Contextual retrieval against a real HTTP server on 127.0.0.1, driven by the real anthropic and
openai SDK clients (issue 8): prompt caching, retries and their timing, Retry-After, 429
concurrency halving and recovery, no duplicate calls, the context cache, truncation."""

from __future__ import annotations

import logging
import time

import pytest

from docstrata.config import parse_config
from docstrata.context import (LLMContextualizer, NoContextualizer, RetryPolicy, SqliteContextCache,
                               StructuralContextualizer, estimate_tokens, make_contextualizer)
from docstrata.errors import ConfigError
from docstrata.llm import (CHUNK_CONTEXT_PROMPT, DOCUMENT_CONTEXT_PROMPT, PRICES_PER_MTOK, AnthropicProvider,
                           LLMUsage, OpenAIProvider, estimate_cost, model_prices)
from docstrata.models import Chunk, Document

from .fake_llm_server import FakeLLMServer, Reply

FAST = RetryPolicy(delays=(0.05, 0.1, 0.2))


@pytest.fixture(scope="module")
def server():
    with FakeLLMServer() as s:
        yield s


@pytest.fixture(autouse=True)
def _fresh(server):
    server.reset()


def make_doc(n: int, doc_key: str = "policies/leave.md", extra: str = "") -> tuple[Document, list[Chunk]]:
    """A document of ``n`` numbered sections and one chunk per section."""
    bodies = [f"Employees in grade {i} accrue {i + 10} days of annual leave per year." for i in range(n)]
    markdown = "# Leave Policy\n\n" + "\n\n".join(f"## {i}. Grade {i}\n\n{b}" for i, b in enumerate(bodies)) + extra
    doc = Document(doc_key, "Leave Policy", markdown, "md")
    chunks = [Chunk(f"{doc_key}#{i}", doc_key, i, b, str(i), ["Leave Policy", f"{i}. Grade {i}"], 2,
                    document_title="Leave Policy") for i, b in enumerate(bodies)]
    return doc, chunks


def anthropic(server, **kw) -> LLMContextualizer:
    return LLMContextualizer(AnthropicProvider("claude-3-haiku-20240307", base_url=server.url), **kw)


def openai(server, model: str = "gpt-4o-mini", **kw) -> LLMContextualizer:
    return LLMContextualizer(OpenAIProvider(model, base_url=server.url + "/v1"), **kw)


def test_anthropic_sends_the_document_as_one_cached_block_that_every_chunk_reuses(server):
    doc, chunks = make_doc(6)
    stats = anthropic(server, concurrency=4).contextualize(doc, chunks)

    assert len(server.requests) == 6 and stats.llm_calls == 6 and stats.failures == 0
    doc_blocks = set()
    for req in server.requests:
        assert req.path == "/v1/messages"
        first, second = req.body["messages"][0]["content"]
        assert first["cache_control"] == {"type": "ephemeral"}
        assert first["text"] == DOCUMENT_CONTEXT_PROMPT.format(doc_content=doc.markdown)
        assert "cache_control" not in second
        assert second["text"] == CHUNK_CONTEXT_PROMPT.format(chunk_content=req.chunk)
        doc_blocks.add(first["text"])
    assert len(doc_blocks) == 1
    # The first request ran alone and wrote the cache; the five others read it.
    first_done = min(r.finished for r in server.requests)
    assert sum(r.started < first_done for r in server.requests) == 1
    doc_block_words = len(DOCUMENT_CONTEXT_PROMPT.format(doc_content=doc.markdown).split())
    assert stats.cache_write_tokens == doc_block_words
    assert stats.cache_read_tokens == 5 * doc_block_words
    # Each chunk keeps its structural line and gains the model's sentence about itself.
    for c in chunks:
        line, llm_text = c.context.split("\n")
        assert line == f"Leave Policy > {c.parent_chain[1]}"
        assert llm_text.startswith("Situated: " + " ".join(c.content.split()[:3]))
        assert c.contextualized_content.startswith(c.context + "\n\n")
        assert not c.context_truncated


def test_estimated_cost_follows_the_price_table(server):
    doc, chunks = make_doc(3)
    stats = anthropic(server).contextualize(doc, chunks)
    p_in, p_out, p_read, p_write = PRICES_PER_MTOK["claude-3-haiku"]
    expected = (stats.input_tokens * p_in + stats.output_tokens * p_out + stats.cache_read_tokens * p_read
                + stats.cache_write_tokens * p_write) / 1e6
    assert stats.estimated_cost_usd == pytest.approx(expected) and expected > 0
    assert model_prices("my-local-llama") is None
    assert estimate_cost("my-local-llama", LLMUsage(100, 100)) is None


def test_openai_provider_asks_once_per_distinct_chunk_and_reports_cached_prefix(server):
    doc, chunks = make_doc(5)
    twin = Chunk("policies/leave.md#5", doc.doc_key, 5, chunks[2].content, "2", chunks[2].parent_chain, 2,
                 document_title="Leave Policy")
    stats = openai(server, max_tokens=4).contextualize(doc, chunks + [twin])

    asked = [r.chunk for r in server.requests]
    assert sorted(asked) == sorted(c.content for c in chunks)  # the twin was not asked again
    assert all(r.path == "/v1/chat/completions" and r.body["max_tokens"] == 4 for r in server.requests)
    assert twin.context == chunks[2].context
    # Output capped at max_tokens (a word is a token on the fake server).
    assert all(len(c.context.split("\n")[1].split()) <= 4 for c in chunks)
    assert stats.cache_read_tokens > 0 and stats.llm_calls == 5


def test_retries_wait_one_two_and_four_seconds(server):
    """The default policy waits 1, 2 and 4 s; the waits are timed at a quarter of that (0.25, 0.5,
    1 s: the same doubling, 5 s less of the suite's 5 minutes)."""
    assert RetryPolicy().delays == (1.0, 2.0, 4.0)
    doc, chunks = make_doc(1)
    server.script([Reply(status=500), Reply(status=503), Reply(status=500)])
    stats = openai(server, retry=RetryPolicy(delays=(0.25, 0.5, 1.0))).contextualize(doc, chunks)

    assert [r.status for r in server.requests] == [500, 503, 500, 200]
    gaps = [b.started - a.finished for a, b in zip(server.requests, server.requests[1:])]
    for gap, want in zip(gaps, (0.25, 0.5, 1.0)):
        assert want - 0.05 <= gap <= want + 0.75, gaps
    assert stats.llm_calls == 4 and stats.failures == 0 and "Situated:" in chunks[0].context


def test_a_chunk_that_always_fails_keeps_its_structural_context_and_is_named(server):
    doc, chunks = make_doc(4)
    poisoned = chunks[2]
    server.script(rule=lambda req: Reply(status=500) if req.chunk == poisoned.content else None)
    stats = openai(server, retry=FAST).contextualize(doc, chunks)

    assert sum(r.chunk == poisoned.content for r in server.requests) == 4  # first try + 3 retries
    assert poisoned.context == "Leave Policy > 2. Grade 2"
    assert stats.failures == 1
    assert [w for w in stats.warnings if poisoned.chunk_id in w] and "HTTP 500" in stats.warnings[0]
    assert all("Situated:" in c.context for c in chunks if c is not poisoned)


def test_retry_after_is_honoured(server):
    doc, chunks = make_doc(1)
    server.script([Reply(status=429, retry_after="1")])
    openai(server, retry=FAST).contextualize(doc, chunks)

    first, second = server.requests
    assert second.started - first.finished >= 0.95  # the policy alone would wait 0.05 s


def test_malformed_and_slow_answers_are_retried(server):
    doc, chunks = make_doc(1)
    for ctx in (openai(server, retry=FAST, request_timeout=0.5), anthropic(server, retry=FAST, request_timeout=0.5)):
        server.script([Reply(malformed=True), Reply(delay=1.5)])
        before = len(server.requests)
        stats = ctx.contextualize(doc, chunks)
        assert len(server.requests) - before == 3 and stats.llm_calls == 3
        assert stats.failures == 0 and "Situated:" in chunks[0].context


def test_an_invalid_key_stops_asking_after_one_request(server):
    doc, chunks = make_doc(5)
    server.script(rule=lambda req: Reply(status=401))
    stats = anthropic(server, retry=FAST).contextualize(doc, chunks)

    assert len(server.requests) == 1
    assert stats.failures == 5 and all(c.context == f"Leave Policy > {c.parent_chain[1]}" for c in chunks)


def test_429_halves_concurrency_once_and_it_recovers_after_a_quiet_period(server):
    """Measured from the server's side with barriers (``hold_until``), so the peaks are what the
    client allows, whatever the thread scheduling: each request of the first fan-out is held until
    all 8 are in flight, then all get 429; every later request is held until 8 are in flight or
    0.25 s passes, so a halved client (at most 4) shows 4 and a recovered one (8) shows 8."""
    doc, chunks = make_doc(61)
    concurrency, quiet_period = 8, 2.0
    calls = {"n": 0}

    def rule(req):
        calls["n"] += 1
        if calls["n"] == 1:  # the first chunk, asked alone
            return Reply()
        if calls["n"] <= 1 + concurrency:  # the first fan-out: all in flight at once, all throttled
            return Reply(status=429, retry_after="1", hold_until=concurrency)  # 5 s timeout
        return Reply(hold_until=concurrency, hold_timeout=0.25)

    server.script(rule=rule)
    ctx = openai(server, concurrency=concurrency, quiet_period=quiet_period)
    stats = ctx.contextualize(doc, chunks)

    reqs = server.requests
    assert stats.failures == 0 and len(reqs) == 61 + concurrency
    assert sorted(r.chunk for r in reqs if r.status == 200) == sorted(c.content for c in chunks)  # no duplicates
    throttled = reqs[1:1 + concurrency]
    assert {r.status for r in throttled} == {429}
    assert max(r.in_flight_at_start for r in throttled) == concurrency  # the full fan-out was allowed
    assert max(r.in_flight_at_start for r in reqs) == concurrency  # and never more

    later = reqs[1 + concurrency:]
    recovered = next((i for i, r in enumerate(later) if r.in_flight_at_start > concurrency // 2), None)
    assert recovered is not None, "the concurrency never came back above half"
    # The client learns of each 429 after the server answered it, and restarts its quiet period then.
    halved_for = later[recovered].started - max(r.finished for r in throttled)
    assert halved_for >= quiet_period - 0.01, halved_for  # at most 4 in flight for a whole quiet period
    assert max(r.in_flight_at_start for r in later[recovered:]) == concurrency  # back to 8
    assert [limit for _, limit in ctx.limiter.history] == [concurrency // 2, concurrency]  # eight 429s halved once


def test_context_cache_makes_a_second_run_free_and_invalidates_only_what_changed(server, tmp_path):
    cache_path = tmp_path / "contexts.sqlite"
    doc, chunks = make_doc(5)
    first = openai(server, cache=SqliteContextCache(cache_path)).contextualize(doc, chunks)
    contexts = [c.context for c in chunks]
    assert first.llm_calls == 5

    doc, chunks = make_doc(5)  # a new process would build a new contextualizer over the same file
    again = openai(server, cache=SqliteContextCache(cache_path)).contextualize(doc, chunks)
    assert (again.llm_calls, again.cache_hits, len(server.requests)) == (0, 5, 5)
    assert [c.context for c in chunks] == contexts

    doc, chunks = make_doc(5)
    chunks[3].content += " Unused days expire in March."
    edited = openai(server, cache=SqliteContextCache(cache_path)).contextualize(doc, chunks)
    assert (edited.llm_calls, edited.cache_hits) == (1, 4)

    other_model = openai(server, model="gpt-4.1-mini", cache=SqliteContextCache(cache_path))
    assert other_model.contextualize(*make_doc(5)).llm_calls == 5

    changed_doc = openai(server, cache=SqliteContextCache(cache_path))
    assert changed_doc.contextualize(*make_doc(5, extra="\n\n## 99. Appendix\n\nNew text.")).llm_calls == 5


def test_a_document_longer_than_the_window_is_cut_keeping_beginning_and_end(server):
    filler = "\n\n".join(f"Filler paragraph {i} with several words in it." for i in range(2000))
    doc, chunks = make_doc(2, extra="\n\n" + filler + "\n\nTHE-VERY-END")
    ctx = openai(server, window=2048)
    stats = ctx.contextualize(doc, chunks)

    sent = server.requests[0].document
    assert sent.startswith("# Leave Policy") and sent.endswith("THE-VERY-END")
    assert "characters omitted" in sent and len(sent) < len(doc.markdown)
    assert estimate_tokens(sent) + ctx.max_tokens < 2048
    assert all(c.context_truncated for c in chunks)
    assert any("window" in w for w in stats.warnings)

    short_doc, short_chunks = make_doc(2)
    ctx.contextualize(short_doc, short_chunks)
    assert server.requests[-1].document == short_doc.markdown
    assert not any(c.context_truncated for c in short_chunks)


def _tool_cfg(**fields):
    tool = {"name": "docs", "type": "hierarchical_document", "source": "docs/", **fields}
    return parse_config({"tools": [tool]}).tools[0]


def test_make_contextualizer_choices(server, tmp_path, monkeypatch, caplog):
    assert isinstance(make_contextualizer(_tool_cfg(contextual_embeddings=False)), NoContextualizer)
    with caplog.at_level(logging.INFO, logger="docstrata"):
        assert isinstance(make_contextualizer(_tool_cfg(name="plain")), StructuralContextualizer)
        make_contextualizer(_tool_cfg(name="plain"))
    assert sum("structural context" in r.getMessage() for r in caplog.records) == 1  # said once

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        make_contextualizer(_tool_cfg(context_model={"provider": "anthropic", "name": "claude-3-haiku-20240307"}))

    monkeypatch.setenv("MY_LLM_KEY", "sk-test-secret-4711")
    cfg = _tool_cfg(context_model={"provider": "openai", "name": "gpt-4o-mini", "base_url": server.url + "/v1",
                                   "api_key_env": "MY_LLM_KEY"}, context_max_tokens=50, context_concurrency=3)
    ctx = make_contextualizer(cfg, cache_dir=tmp_path)
    assert (ctx.name, ctx.max_tokens, ctx.concurrency) == ("openai:gpt-4o-mini", 50, 3)
    assert (tmp_path / "contexts.sqlite").exists()
    doc, chunks = make_doc(2)
    server.script([Reply(status=400)])
    with caplog.at_level(logging.DEBUG):
        stats = ctx.contextualize(doc, chunks)
    assert server.requests[0].headers["authorization"] == "Bearer sk-test-secret-4711"
    assert "sk-test-secret" not in caplog.text + " ".join(stats.warnings)

    memory = make_contextualizer(_tool_cfg(database="in-memory", context_model=cfg.context_model.model_dump()))
    assert type(memory.cache).__name__ == "MemoryContextCache"


LEAVE_POLICY = """# Leave Policy

## 1. Scope

This policy applies to every employee of Example Corp.

## 2. Annual Leave

### 2.1 Entitlement

Employees accrue 25 days of annual leave per calendar year.

### 2.2 Carry-over

Up to five unused days may be carried over into the first quarter of the next year.
"""


def test_a_tool_with_an_openai_compatible_context_model_end_to_end(server, tmp_path):
    import docstrata

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "leave.md").write_text(LEAVE_POLICY, encoding="utf-8")
    (tmp_path / "agent.yaml").write_text(f"""
tools:
  - name: policies
    type: hierarchical_document
    source: docs/
    context_model: {{provider: openai, name: gpt-4o-mini, base_url: "{server.url}/v1"}}
""", encoding="utf-8")
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        tool = tools["policies"]
        first = tool.ingest()
        assert first.chunks >= 3 and first.llm["llm_calls"] == first.chunks == len(server.requests)
        assert first.llm["failures"] == 0 and first.llm["estimated_cost_usd"] > 0
        hit = tool.search("How many unused days can be carried over?", top_k=1)[0]
        assert hit.section_id == "2.2"
        context_line, llm_line = hit.contextualized_content.split("\n\n")[0].split("\n")
        assert context_line == "Leave Policy > 2. Annual Leave > 2.2 Carry-over"
        assert llm_line.startswith("Situated:") and "Up to five unused days" in llm_line
        assert hit.content.strip().endswith("next year.")

        unchanged = tool.ingest()
        assert unchanged.llm.get("llm_calls", 0) == 0 and unchanged.unchanged == 1
        rebuilt = tool.ingest(force=True)  # every file re-chunked; every context from the cache
        assert rebuilt.llm["llm_calls"] == 0 and rebuilt.llm["cache_hits"] == first.chunks
        assert len(server.requests) == first.chunks
    assert (tmp_path / ".docstrata" / "policies" / "contexts.sqlite").exists()


@pytest.mark.slow
@pytest.mark.shared_data
@pytest.mark.timeout(3600)  # embedding the whole corpus: minutes on two cores
def test_shared_documents_get_llm_contexts_and_a_second_ingest_is_free(server, tmp_path):
    """Issue 8's acceptance run: ``../shared/data/documents`` through the OpenAI-compatible provider."""
    import docstrata

    from .conftest import shared_data

    documents = shared_data("documents")
    (tmp_path / "agent.yaml").write_text(f"""
tools:
  - name: corpus
    type: hierarchical_document
    source: "{documents.as_posix()}"
    context_model: {{provider: openai, name: gpt-4o-mini, base_url: "{server.url}/v1"}}
""", encoding="utf-8")
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        tool = tools["corpus"]
        t0 = time.perf_counter()
        first = tool.ingest()
        first_s = time.perf_counter() - t0
        print(f"\nfirst ingest: {first.files_total} files, {first.chunks} chunks, {first_s:.1f} s, llm {first.llm}")
        chunks = [c for doc_key in tool.store.documents() for c in tool.store.document_chunks(doc_key)]
        distinct = {(c.doc_key, c.content) for c in chunks}  # a text repeated in one document is asked once
        assert first.added > 20 and first.llm["failures"] == 0
        assert first.llm["llm_calls"] == len(distinct) == len(server.requests)
        with_llm = [c for c in chunks if "\nSituated:" in c.contextualized_content.split("\n\n")[0]]
        assert len(with_llm) == len(chunks)
        requests_after_first = len(server.requests)
        t0 = time.perf_counter()
        second = tool.ingest()
        print(f"second ingest: {time.perf_counter() - t0:.2f} s, llm {second.llm}")
        assert second.llm.get("llm_calls", 0) == 0 and len(server.requests) == requests_after_first
