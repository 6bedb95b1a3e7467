"""Hosted and self-hosted embedding models over HTTP: the OpenAI embeddings API and Ollama's.

One class, :class:`OpenAICompatibleEmbedder`, with the same contract as the bundled-model
:class:`~docstrata.embed.Embedder` (``model_id``, ``dim``, ``window``, ``count_tokens``,
``windows``, ``embed_chunks``, ``embed_query``). Transports:

* the ``openai`` SDK's ``embeddings.create`` (``POST {base_url}/embeddings``) — OpenAI, Azure
  OpenAI (``provider: azure_openai``, the model is the deployment), and the OpenAI-compatible servers
  people run locally: Ollama (``/v1``), vLLM, Text Embeddings Inference, LM Studio, llama.cpp;
* Ollama's native ``POST /api/embed`` (``native: true``) with ``truncate: false``, so the server
  refuses an over-long input instead of cutting it.

Requests go through the same :class:`~docstrata.llm.RetryPolicy` and error translation as context
generation (retry after 1, 2, 4 s on 408/409/425/429/5xx, timeouts, dropped connections and
malformed bodies; ``Retry-After`` honoured up to 60 s). A batch that still fails raises
:class:`~docstrata.llm.LLMRequestError` (a :class:`~docstrata.errors.ProviderError`) naming the
model and the reason. A returned vector that is empty, of the wrong size, not finite or all zeros
is an error too: nothing placeholder-like is ever stored.

Windows. Remote models have their own input limits (8,191 tokens for OpenAI's, 512 for most
BERT-family models served by TEI or vLLM, Ollama's default context of 2,048). Without the model's
tokenizer, tokens are estimated as ``len(text) / 3`` (erring high for English, code and legal text;
most tokenizers average 3.5–4.5 characters per token), and chunk text longer than the limit is cut
into overlapping windows at whitespace, each prefixed by the chunk's context, exactly as the bundled
model does (DESIGN §6) — the API never truncates silently.

Dimensions come from ``embedding_dimensions`` (sent as ``dimensions`` to OpenAI's
``text-embedding-3`` models, checked against every other model's answer) or are detected from the
first answer. ``model_id`` = ``"openai:<provider>:<model>@<base_url>:<dim>"``, so the embedding
cache never mixes models, servers or sizes.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from typing import Callable

import numpy as np

from .embed import WindowSpec, embed_windows
from .errors import ConfigError
from .llm import RETRYABLE_STATUS, LLMRequestError, RetryPolicy, api_key, parse_retry_after

log = logging.getLogger("docstrata")

CHARS_PER_TOKEN = 3.0
DEFAULT_MAX_INPUT_TOKENS = 512
# Input limits in tokens, matched by model-name prefix (longest first); the provider's
# ``max_input_tokens`` overrides.
MAX_INPUT_TOKENS: dict[str, int] = {
    "text-embedding-3": 8191,
    "text-embedding-ada-002": 8191,
    "nomic-embed-text": 2048,  # Ollama's default num_ctx, below the model's 8,192
    "mxbai-embed-large": 512,
    "bge-m3": 8192,
    "snowflake-arctic-embed": 512,
    "all-minilm": 256,
}
# Models OpenAI serves: chosen by name alone, no embedding_provider needed.
OPENAI_MODELS = ("text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002")
_ASKS_DIMENSIONS = ("text-embedding-3",)  # models that take the ``dimensions`` request parameter
MAX_BATCH_TOKENS = 250_000  # OpenAI caps one request at 300,000 tokens


def is_openai_model(name: str) -> bool:
    """True for the OpenAI embedding model names that need no ``embedding_provider``."""
    return name.lower().removeprefix("openai/") in OPENAI_MODELS


def _lookup(table: dict[str, int], model: str) -> int | None:
    name = model.lower().rsplit("/", 1)[-1]
    for prefix in sorted(table, key=len, reverse=True):
        if name.startswith(prefix):
            return table[prefix]
    return None


def estimate_tokens(text: str) -> int:
    """Rough token count of ``text``: ``ceil(len / 3)`` (erring high)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


class OpenAICompatibleEmbedder:
    """Embeds chunks (as windows) and queries with a model behind an HTTP embeddings API.

    ``provider`` is ``openai``, ``azure_openai`` or ``ollama``; ``base_url`` the server (an
    OpenAI-compatible one needs it, Azure needs its endpoint). Building the object makes no
    request; :attr:`dim` asks the server once if ``dimensions`` was not given. Vectors are
    L2-normalised float32 (a dot product is the cosine). Raises :class:`ConfigError` for a
    missing SDK, key or endpoint; :class:`~docstrata.llm.LLMRequestError` when a batch fails.
    """

    def __init__(
        self,
        model: str,
        *,
        provider: str = "openai",
        base_url: str | None = None,
        api_key_env: str | None = None,
        explicit_key: str | None = None,
        api_version: str | None = None,
        dimensions: int | None = None,
        max_input_tokens: int | None = None,
        batch_size: int = 64,
        native: bool = False,
        retry: RetryPolicy = RetryPolicy(),
        request_timeout: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.model_name = model
        self.provider = provider
        self.native = native and provider == "ollama"
        self.base_url = base_url
        self.batch_size = batch_size
        self.retry = retry
        self.request_timeout = request_timeout
        self._sleep = sleep
        self._dimensions = dimensions
        self._dim: int | None = dimensions
        self._lock = threading.Lock()
        if self.native:
            import httpx

            self._root = (base_url or "http://localhost:11434").rstrip("/").removesuffix("/v1")
            self._http = httpx.Client(timeout=request_timeout)
            key = api_key(
                provider, api_key_env, self._root, explicit=explicit_key, path="embedding_provider.api_key_env"
            )
            self._headers = {"authorization": f"Bearer {key}"} if key != "not-needed" else {}
        else:
            from .llm import openai_client

            self._sdk, self._client = openai_client(
                provider,
                base_url,
                api_key_env,
                explicit_key=explicit_key,
                api_version=api_version,
                path="embedding_provider",
            )
        limit = max_input_tokens or _lookup(MAX_INPUT_TOKENS, model) or DEFAULT_MAX_INPUT_TOKENS
        self.max_input_tokens = limit
        self.window = WindowSpec(size=limit, stride=max(limit * 3 // 4, 1), context_tokens=min(64, limit // 3))
        self.calls = 0  # HTTP requests made, retries included

    # ---- identity
    @property
    def dim(self) -> int:
        """Vector size: ``dimensions`` if given, else detected from one request."""
        if self._dim is None:
            with self._lock:
                if self._dim is None:
                    self._dim = int(self._request(["dimension probe"]).shape[1])
        return self._dim

    @property
    def model_id(self) -> str:
        """The embedding-cache key of this model: provider, model name, endpoint (or local path) and
        dimension, so a cache never serves another model's vectors."""
        where = self._root if self.native else (self.base_url or "default")
        return f"openai:{self.provider}{'-native' if self.native else ''}:{self.model_name}@{where}:{self.dim}"

    # ---- tokens and windows
    def count_tokens(self, text: str) -> int:
        """Estimated tokens in ``text`` (``ceil(len / 3)``; the model's tokenizer is not at hand)."""
        return estimate_tokens(text)

    def windows(self, context: str, content: str) -> list[str]:
        """The texts embedded for one chunk: ``context + "\\n\\n" + piece`` per window of ``content``,
        each within :attr:`max_input_tokens` (estimated); windows overlap by a quarter."""
        per_char = CHARS_PER_TOKEN
        prefix = context[: int(self.window.context_tokens * per_char)] if context else ""
        budget_chars = int((self.window.size - (estimate_tokens(prefix) + 1 if prefix else 0)) * per_char)
        budget_chars = max(budget_chars, 16)
        join = (lambda piece: f"{prefix}\n\n{piece}") if prefix else (lambda piece: piece)
        if len(content) <= budget_chars:
            return [join(content)]
        out, start, n = [], 0, len(content)
        while start < n:
            end = min(start + budget_chars, n)
            if end < n:  # cut at the last whitespace of the window's final fifth
                cut = content.rfind(" ", start + budget_chars * 4 // 5, end)
                cut = max(cut, content.rfind("\n", start + budget_chars * 4 // 5, end))
                end = cut if cut > start else end
            out.append(join(content[start:end]))
            if end >= n:
                break
            nxt = end - budget_chars // 4
            space = content.find(" ", nxt, end)
            start = space + 1 if space != -1 and space + 1 < end else max(nxt, start + 1)
        return out

    # ---- requests
    def _request(self, texts: list[str]) -> np.ndarray:
        """One batch through the retry policy → (len(texts), dim) float32, L2-normalised."""

        def attempt() -> list[list[float]]:
            self.calls += 1
            return self._native(texts) if self.native else self._openai(texts)

        rows = self.retry.run(attempt, self._sleep)
        return self._check(rows, len(texts))

    def _openai(self, texts: list[str]) -> list[list[float]]:
        from .llm import translate_sdk_error

        kw = {}
        if self._dimensions and self.model_name.lower().removeprefix("openai/").startswith(_ASKS_DIMENSIONS):
            kw["dimensions"] = self._dimensions
        try:
            resp = self._client.embeddings.create(
                model=self.model_name, input=texts, encoding_format="float", timeout=self.request_timeout, **kw
            )
        except self._sdk.APIError as exc:
            raise translate_sdk_error(self._sdk, self.model_name, exc) from None
        except ValueError as exc:  # a body that is not JSON
            raise LLMRequestError(
                self.model_name, f"malformed response ({type(exc).__name__})", retryable=True
            ) from None
        try:
            data = sorted(resp.data, key=lambda d: d.index)
            return [list(d.embedding) for d in data]
        except (AttributeError, TypeError, ValueError) as exc:
            raise LLMRequestError(
                self.model_name, f"malformed response ({type(exc).__name__})", retryable=True
            ) from None

    def _native(self, texts: list[str]) -> list[list[float]]:
        import httpx

        body = {"model": self.model_name, "input": texts, "truncate": False}
        try:
            r = self._http.post(f"{self._root}/api/embed", json=body, headers=self._headers)
        except httpx.TimeoutException:
            raise LLMRequestError(
                self.model_name, f"request timed out ({self._root}/api/embed)", retryable=True
            ) from None
        except httpx.HTTPError:
            from .llm import connection_hint

            raise LLMRequestError(
                self.model_name, "could not connect" + connection_hint(f"{self._root}/api/embed"), retryable=True
            ) from None
        if r.status_code != 200:
            try:
                detail = str(r.json().get("error", ""))[:200]
            except ValueError:
                detail = ""
            raise LLMRequestError(
                self.model_name,
                f"HTTP {r.status_code} {detail}".strip(),
                retryable=r.status_code in RETRYABLE_STATUS,
                status=r.status_code,
                retry_after=parse_retry_after(r.headers),
            )
        try:
            rows = r.json()["embeddings"]
            if not isinstance(rows, list):
                raise TypeError("embeddings is not a list")
            return rows
        except (ValueError, KeyError, TypeError) as exc:
            raise LLMRequestError(
                self.model_name, f"malformed response ({type(exc).__name__})", retryable=True
            ) from None

    def _check(self, rows: list[list[float]], n: int) -> np.ndarray:
        if len(rows) != n:
            raise LLMRequestError(self.model_name, f"asked for {n} embeddings, got {len(rows)}", retryable=False)
        try:
            vecs = np.asarray(rows, dtype=np.float32)
        except (TypeError, ValueError):
            raise LLMRequestError(
                self.model_name, "embeddings of unequal or non-numeric length", retryable=False
            ) from None
        if vecs.ndim != 2 or vecs.shape[1] == 0:
            raise LLMRequestError(self.model_name, "empty embedding returned", retryable=False)
        want = self._dim
        if want is not None and vecs.shape[1] != want:
            raise LLMRequestError(
                self.model_name,
                f"returned {vecs.shape[1]}-dimensional vectors, expected {want} "
                "(embedding_dimensions or the index's size)",
                retryable=False,
            )
        norms = np.linalg.norm(vecs, axis=1)
        bad = ~np.isfinite(norms) | (norms == 0)
        if bad.any():
            raise LLMRequestError(
                self.model_name, f"{int(bad.sum())} zero or non-finite vector(s) returned", retryable=False
            )
        return np.ascontiguousarray(vecs / norms[:, None], dtype=np.float32)

    def _batches(self, texts: list[str]):
        batch: list[str] = []
        tokens = 0
        for t in texts:
            cost = estimate_tokens(t)
            if batch and (len(batch) >= self.batch_size or tokens + cost > MAX_BATCH_TOKENS):
                yield batch
                batch, tokens = [], 0
            batch.append(t)
            tokens += cost
        if batch:
            yield batch

    # ---- the embedder contract
    def encode(self, texts: list[str]) -> np.ndarray:
        """Embed texts that fit the model's window: (n, dim) float32, L2-normalised, in batches of
        ``batch_size`` (and at most 250,000 estimated tokens)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [self._request(b) for b in self._batches(texts)]
        if self._dim is None:
            self._dim = parts[0].shape[1]
        return np.concatenate(parts) if len(parts) > 1 else parts[0]

    def embed_chunks(self, items: list[tuple[str, str]]) -> list[np.ndarray]:
        """Embed ``(context, content)`` pairs; returns one (n_windows, dim) array per pair."""
        return embed_windows(self, items)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed a query: (dim,) float32, L2-normalised; a long query is the mean of its windows."""
        vecs = self.encode(self.windows("", text))
        v = vecs.mean(axis=0)
        return (v / (np.linalg.norm(v) or 1.0)).astype(np.float32)


def make_openai_embedder(model: str, provider_cfg, dimensions: int | None) -> OpenAICompatibleEmbedder:
    """The embedder for ``embedding_model`` + an ``EmbeddingProviderConfig`` (``None``: OpenAI)."""
    if provider_cfg is None:
        return OpenAICompatibleEmbedder(model.removeprefix("openai/"), dimensions=dimensions)
    if provider_cfg.provider == "anthropic":
        raise ConfigError(
            "anthropic has no embeddings API: use openai, azure_openai or ollama", path="embedding_provider.provider"
        )
    secret = provider_cfg.api_key
    return OpenAICompatibleEmbedder(
        model,
        provider=provider_cfg.provider,
        base_url=provider_cfg.base_url,
        api_key_env=provider_cfg.api_key_env,
        explicit_key=secret.get_secret_value() if secret is not None else None,
        api_version=provider_cfg.api_version,
        dimensions=dimensions,
        max_input_tokens=provider_cfg.max_input_tokens,
        batch_size=provider_cfg.batch_size,
        native=provider_cfg.native,
    )
