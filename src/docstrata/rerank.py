"""Second-stage reranking of fused candidates (DESIGN §2, config ``enable_reranking`` + ``reranker_model``).

Three backends, chosen by the form of ``reranker_model``:

- an LLM provider object (HoloDeck's form: ``{provider, name, endpoint, …}``) → listwise reranking
  by that LLM with RankGPT's prompt (:mod:`docstrata.rerank_llm`), one request per search;

- a local directory → a sentence-transformers ``CrossEncoder`` loaded from it (once per process).
  Nothing is downloaded at run time: a hub name such as ``cross-encoder/ms-marco-MiniLM-L-6-v2``
  is refused with a :class:`~docstrata.errors.ConfigError` saying to download it and give its path.
  Relative paths resolve against the directory of ``agent.yaml``.
- an ``http(s)://…`` URL → a rerank API of the Cohere / Jina / vLLM / Infinity shape:
  ``POST {"query", "documents", "top_n"}`` → ``{"results": [{"index", "relevance_score"}, …]}``.
  The TEI-style answer ``[{"index", "score"}, …]`` is understood too. A URL fragment names the model
  (``https://api.example.com/v1/rerank#rerank-english-v3.0`` sends ``"model": "rerank-english-v3.0"``);
  the environment variable ``DOCSTRATA_RERANK_API_KEY``, when set, is sent as a bearer token.

:meth:`Reranker.rerank` scores every candidate's ``content`` against the query, sets
``SearchResult.rerank_score`` and orders by it (highest first), keeping chunks that start a
section the query names in front (DESIGN §5). The search layer feeds it the top
:func:`candidate_depth` fused candidates.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

from .errors import ConfigError, ProviderError
from .models import SearchResult

API_KEY_ENV = "DOCSTRATA_RERANK_API_KEY"
_CROSS_ENCODERS: dict[str, object] = {}
_LOAD_LOCK = threading.Lock()


def candidate_depth(top_k: int) -> int:
    """How many fused candidates to rerank for ``top_k`` results: max(3·top_k, 30), at most 100
    (the search layer's candidate limit)."""
    return min(max(3 * top_k, 30), 100)


def _load_cross_encoder(path: str):
    with _LOAD_LOCK:
        if path not in _CROSS_ENCODERS:
            from sentence_transformers import CrossEncoder

            try:
                _CROSS_ENCODERS[path] = CrossEncoder(path, device="cpu")
            except Exception as e:  # noqa: BLE001 - any loader failure is a configuration problem
                raise ConfigError(
                    f"cannot load cross-encoder from {Path(path).name!r}: {e}", path="reranker_model"
                ) from None
        return _CROSS_ENCODERS[path]


class _CrossEncoderBackend:
    def __init__(self, path: Path, batch_size: int = 32):
        self.path = str(path)
        self.batch_size = batch_size

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        model = _load_cross_encoder(self.path)
        scores = model.predict(
            [(query, p) for p in passages], batch_size=self.batch_size, show_progress_bar=False, convert_to_numpy=True
        )
        return [float(s) for s in scores]


class _HttpBackend:
    def __init__(self, url: str, timeout: float):
        self.url, self.model = urldefrag(url)
        self.timeout = timeout

    def _body(self, query: str, passages: Sequence[str]) -> dict:
        body = {"query": query, "documents": list(passages), "top_n": len(passages)}
        if self.model:
            body["model"] = self.model
        return body

    def score(self, query: str, passages: Sequence[str]) -> list[float | None]:
        import httpx

        headers = {"content-type": "application/json"}
        if key := os.environ.get(API_KEY_ENV):
            headers["authorization"] = f"Bearer {key}"
        try:
            r = httpx.post(self.url, json=self._body(query, passages), headers=headers, timeout=self.timeout)
        except httpx.HTTPError as e:
            raise ProviderError("reranker", f"{self.url}: {type(e).__name__}: {e}", retryable=True) from None
        if r.status_code != 200:
            retry_after = r.headers.get("retry-after")
            raise ProviderError(
                "reranker",
                f"{self.url} answered HTTP {r.status_code}: {r.text[:200]}",
                retryable=r.status_code == 429 or r.status_code >= 500,
                retry_after=float(retry_after) if retry_after and retry_after.isdigit() else None,
            )
        try:
            return _scores_from_response(r.json(), len(passages))
        except (ValueError, KeyError, TypeError) as e:
            raise ProviderError("reranker", f"{self.url}: unexpected response ({e}): {r.text[:200]}") from None


def _scores_from_response(data, n: int) -> list[float | None]:
    """Scores by input index from ``{"results": [{"index", "relevance_score"}]}`` or ``[{"index", "score"}]``.

    Documents the API left out (``top_n`` smaller than asked) get ``None``.
    """
    items = data["results"] if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ValueError("no 'results' list")
    scores: list[float | None] = [None] * n
    for item in items:
        index = int(item["index"])
        if not 0 <= index < n:
            raise ValueError(f"index {index} out of range for {n} documents")
        scores[index] = float(item["relevance_score"] if "relevance_score" in item else item["score"])
    return scores


class Reranker:
    """Scores (query, passage) pairs with a local cross-encoder or an HTTP rerank API (see module docstring).

    ``model``: a local directory (absolute, or relative to ``base_dir``) or an ``http(s)://`` URL.
    ``timeout``: seconds per HTTP request. Raises :class:`ConfigError` at construction when ``model``
    is neither an existing directory nor a URL; scoring raises :class:`ProviderError` when the API fails.
    """

    def __init__(self, model, base_dir: str | Path = ".", timeout: float = 30.0):
        self.model = model
        self._backend: Any  # an LLM, HTTP or cross-encoder backend: each has ``score(query, passages)``
        if not isinstance(model, str):  # an LLM provider config
            from .rerank_llm import LLMRerankBackend

            self.kind = "llm"
            self._backend = LLMRerankBackend(model)
            return
        if model.startswith(("http://", "https://")):
            self.kind = "http"
            self._backend = _HttpBackend(model, timeout)
            return
        path = Path(model).expanduser()
        if not path.is_absolute():
            path = Path(base_dir) / path
        if not path.is_dir():
            raise ConfigError(
                f"{model!r} is not a local model directory or an http(s) rerank URL; docstrata "
                "does not download models at run time: download the cross-encoder (for example "
                "with `huggingface-cli download NAME --local-dir DIR`) and set reranker_model to "
                "that directory",
                path="reranker_model",
            )
        self.kind = "cross-encoder"
        self._backend = _CrossEncoderBackend(path)

    def score(self, query: str, passages: Sequence[str]) -> list[float | None]:
        """One relevance score per passage (higher is more relevant), in input order; ``None`` for a
        passage an HTTP API left out of its answer."""
        if not passages:
            return []
        return self._backend.score(query, passages)

    def rerank(
        self, query: str, results: Sequence[SearchResult], top_k: int, pinned: Iterable[str] = ()
    ) -> list[SearchResult]:
        """The best ``top_k`` of ``results`` by reranker score, as new objects with ``rerank_score`` set.

        Chunk ids in ``pinned`` (chunks that start a section the query names) stay in front, in
        reranker order among themselves; passages without a score come last. Ties keep the fused order.
        """
        scores = self.score(query, [r.content for r in results])
        pinned = set(pinned)
        order = sorted(
            range(len(results)),
            key=lambda i: (results[i].chunk_id not in pinned, scores[i] is None, -(scores[i] or 0.0), i),
        )
        return [replace(results[i], rerank_score=scores[i]) for i in order[:top_k]]


__all__ = ["Reranker", "candidate_depth", "API_KEY_ENV"]
