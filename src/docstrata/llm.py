"""LLM provider clients that write one chunk's context (Anthropic's contextual retrieval).

Two providers, each a thin wrapper over its official SDK with the SDK's own retries turned
off (``max_retries=0``) so that :mod:`docstrata.context` owns retry, backoff and rate limiting:

* :class:`AnthropicProvider` — Messages API. The document goes in the first content block with
  ``cache_control: {"type": "ephemeral"}`` (prompt caching), the chunk in a second block, so
  every chunk of a document reuses the cached document prefix.
* :class:`OpenAIProvider` — Chat Completions API; with ``base_url`` it also serves Azure OpenAI,
  Ollama, vLLM and llama.cpp servers. The document comes first in the prompt so that servers
  with automatic prefix caching (OpenAI, vLLM) can reuse it.

API keys are read from the environment variable named by ``api_key_env`` (default
``ANTHROPIC_API_KEY`` / ``OPENAI_API_KEY``); they are never stored, logged or put in errors.
Every failure is raised as :class:`LLMRequestError` (a :class:`~docstrata.errors.ProviderError`)
with ``retryable``, ``status``, ``rate_limited`` (HTTP 429) and ``retry_after`` (seconds) set.
"""

from __future__ import annotations

import email.utils
import os
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol, TypeVar

from .errors import ConfigError, LLMRequestError, ProviderError

# Anthropic's contextual-retrieval prompt, word for word as published in the Anthropic cookbook
# (skills/contextual-embeddings/guide.ipynb, "situate_context") and the "Introducing Contextual
# Retrieval" post (Anthropic, 2024-09-19). Bump PROMPT_VERSION whenever either text changes:
# it is part of the context cache key.
PROMPT_VERSION = "anthropic-contextual-retrieval-2024-09"

DOCUMENT_CONTEXT_PROMPT = """
<document>
{doc_content}
</document>
"""

CHUNK_CONTEXT_PROMPT = """
Here is the chunk we want to situate within the whole document
<chunk>
{chunk_content}
</chunk>

Please give a short succinct context to situate this chunk within the overall document for the purposes of improving search retrieval of the chunk.
Answer only with the succinct context and nothing else.
"""

DEFAULT_KEY_ENV = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
    "azure_openai": "AZURE_OPENAI_API_KEY",
    "ollama": "OLLAMA_API_KEY",
}
DEFAULT_AZURE_API_VERSION = "2024-10-21"

# A key is required only by the hosted services; local OpenAI-compatible servers (Ollama, vLLM,
# llama.cpp) accept any value, and the SDKs refuse to start without one.
_PLACEHOLDER_KEY = "not-needed"

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})


@dataclass
class LLMUsage:
    """Tokens one request used. ``input_tokens`` excludes cache reads and writes (billed apart)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0


@dataclass
class LLMReply:
    """The model's answer text (stripped) and the tokens it cost."""

    text: str
    usage: LLMUsage


class LLMProvider(Protocol):
    """Writes a context for one chunk of one document."""

    provider: str
    model: str

    def situate(self, document: str, chunk: str, max_tokens: int, timeout: float) -> LLMReply:
        """One request. Raises :class:`ProviderError` (``retryable`` says whether to try again)."""

    def complete(self, prompt: str, max_tokens: int, timeout: float) -> LLMReply:
        """One single-message request; same errors as :meth:`situate`."""


def parse_retry_after(headers: Any) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (delta-seconds or HTTP date), or None."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """Waits between attempts: the first try, then one retry per entry of ``delays`` (seconds).

    A server's ``Retry-After`` replaces a shorter delay, capped at ``max_retry_after`` seconds.
    One policy serves every provider call (contexts, embeddings, LLM reranking).
    """

    delays: tuple[float, ...] = (1.0, 2.0, 4.0)
    max_retry_after: float = 60.0

    def wait(self, retry_index: int, retry_after: float | None) -> float:
        """Seconds to wait before retry ``retry_index`` (0-based): its delay, or the server's
        ``retry_after`` when longer, capped at ``max_retry_after``."""
        delay = self.delays[retry_index]
        if retry_after is not None:
            delay = max(delay, min(retry_after, self.max_retry_after))
        return delay

    def run(self, attempt: Callable[[], T], sleep: Callable[[float], None] = time.sleep) -> T:
        """Call ``attempt()`` until it returns: a :class:`ProviderError` with ``retryable`` set is
        retried after :meth:`wait`; any other error, or the last retry's, is raised."""
        for i in range(len(self.delays) + 1):
            try:
                return attempt()
            except ProviderError as e:
                if not e.retryable or i == len(self.delays):
                    raise
                wait = self.wait(i, e.retry_after)
            sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover


def api_key(
    provider: str,
    api_key_env: str | None,
    base_url: str | None,
    *,
    explicit: str | None = None,
    path: str = "context_model.api_key_env",
) -> str:
    """The API key for ``provider``: ``explicit`` (HoloDeck's ``api_key: ${VAR}``, already read from
    the environment), else the variable ``api_key_env`` (default :data:`DEFAULT_KEY_ENV`), else a
    placeholder for a self-hosted ``base_url``. Raises :class:`ConfigError` naming ``path``."""
    if explicit:
        return explicit
    env = api_key_env or DEFAULT_KEY_ENV.get(provider, "OPENAI_API_KEY")
    key = os.environ.get(env)
    if key:
        return key
    if base_url or provider == "ollama":  # a self-hosted or proxy endpoint may need no key
        return _PLACEHOLDER_KEY
    raise ConfigError(f"the environment variable {env} holding the {provider} API key is not set", path=path)


_api_key = api_key


def openai_base_url(provider: str, base_url: str | None) -> str | None:
    """``base_url`` as the openai SDK wants it: Ollama's server root gets ``/v1`` (its
    OpenAI-compatible API); others are used as given."""
    if provider == "ollama":
        root = (base_url or "http://localhost:11434").rstrip("/")
        return root if root.endswith("/v1") else root + "/v1"
    return base_url


def openai_client(
    provider: str,
    base_url: str | None = None,
    api_key_env: str | None = None,
    *,
    explicit_key: str | None = None,
    api_version: str | None = None,
    path: str = "context_model",
):
    """An ``openai.OpenAI`` (or ``openai.AzureOpenAI`` for ``azure_openai``) client with the SDK's
    own retries off (:class:`RetryPolicy` owns them). Raises :class:`ConfigError` (no SDK, no key,
    Azure without an endpoint)."""
    sdk = _import_sdk("openai")
    key = api_key(provider, api_key_env, base_url, explicit=explicit_key, path=f"{path}.api_key_env")
    if provider == "azure_openai":
        if not base_url:
            raise ConfigError(
                "provider 'azure_openai' needs 'endpoint' (https://<resource>.openai.azure.com)",
                path=f"{path}.endpoint",
            )
        return sdk, sdk.AzureOpenAI(
            azure_endpoint=base_url, api_key=key, max_retries=0, api_version=api_version or DEFAULT_AZURE_API_VERSION
        )
    return sdk, sdk.OpenAI(api_key=key, base_url=openai_base_url(provider, base_url), max_retries=0)


def _status_error(model: str, status: int, headers: Any, sdk_message: str) -> LLMRequestError:
    # Keep the SDK's first line only: never a header (which could carry the key) or the request.
    first_line = sdk_message.splitlines()[0][:200] if sdk_message else ""
    return LLMRequestError(
        model,
        f"HTTP {status} {first_line}".strip(),
        retryable=status in RETRYABLE_STATUS,
        status=status,
        retry_after=parse_retry_after(headers),
    )


def _plain_error(model: str, message: str, retryable: bool) -> LLMRequestError:
    return LLMRequestError(model, message, retryable=retryable)


def request_url(exc: Any) -> str | None:
    """The URL an SDK / httpx error was for (scheme, host, port and path; no query), or None."""
    try:
        url = exc.request.url  # httpx.Request, kept by the openai and anthropic SDK errors
    except (AttributeError, RuntimeError):
        return None
    return str(url.copy_with(query=None, fragment=None)) if hasattr(url, "copy_with") else str(url).split("?")[0]


def connection_hint(url: str | None) -> str:
    """``" to URL (is the server running …?)"`` for a connection failure, naming what to check."""
    if not url:
        return " (check the provider's endpoint / base_url and that its server is running)"
    local = any(h in url for h in ("://localhost", "://127.0.0.1", "://[::1]", "://0.0.0.0"))
    check = (
        "is the server running on this machine (Ollama: `ollama serve`) and listening on that port?"
        if local
        else "check the endpoint / base_url, the network and any proxy"
    )
    return f" to {url} ({check})"


def translate_sdk_error(sdk, model: str, exc: Exception) -> LLMRequestError:
    """Map an SDK ``APIError`` (anthropic and openai share these names) to :class:`LLMRequestError`;
    a timeout or connection failure names the URL tried and what to check."""
    if isinstance(exc, sdk.APIStatusError):
        return _status_error(model, exc.status_code, exc.response.headers, str(exc))
    if isinstance(exc, sdk.APITimeoutError):
        url = request_url(exc)
        return _plain_error(model, f"request timed out{f' ({url})' if url else ''}", retryable=True)
    if isinstance(exc, sdk.APIConnectionError):
        return _plain_error(model, "could not connect" + connection_hint(request_url(exc)), retryable=True)
    # A 200 whose body is not the API's shape: a proxy or server hiccup, worth another try.
    return _malformed(model, exc)


_translate = translate_sdk_error


def _malformed(model: str, exc: Exception) -> LLMRequestError:
    return _plain_error(model, f"malformed response ({type(exc).__name__})", retryable=True)


def _import_sdk(name: str):
    try:
        return __import__(name)
    except ImportError:
        raise ConfigError(
            f"context_model provider '{name}' needs the '{name}' package: pip install 'docstrata[llm]'",
            path="context_model.provider",
        ) from None


class AnthropicProvider:
    """Anthropic Messages API with prompt caching of the document block.

    Request: one user message with two text blocks — ``DOCUMENT_CONTEXT_PROMPT`` marked
    ``cache_control: ephemeral`` and ``CHUNK_CONTEXT_PROMPT`` — and ``max_tokens`` = the
    context budget. (The cookbook also sent ``temperature=0``; the anthropic SDK in use no longer
    takes that argument, so the model's default sampling applies.) Usage maps ``cache_read_input_tokens`` and
    ``cache_creation_input_tokens`` to :class:`LLMUsage`.
    """

    provider = "anthropic"

    def __init__(
        self, model: str, base_url: str | None = None, api_key_env: str | None = None, *, api_key: str | None = None
    ):
        self._sdk = _import_sdk("anthropic")
        self.model = model
        self.base_url = base_url
        self._client = self._sdk.Anthropic(
            api_key=_api_key("anthropic", api_key_env, base_url, explicit=api_key), base_url=base_url, max_retries=0
        )

    def situate(self, document: str, chunk: str, max_tokens: int, timeout: float) -> LLMReply:
        """:meth:`LLMProvider.situate` with the document as a cached prompt block, so the requests
        for a document's other chunks read it from Anthropic's prompt cache."""
        content: list[dict] = [
            {
                "type": "text",
                "text": DOCUMENT_CONTEXT_PROMPT.format(doc_content=document),
                "cache_control": {"type": "ephemeral"},
            },
            {"type": "text", "text": CHUNK_CONTEXT_PROMPT.format(chunk_content=chunk)},
        ]
        return self._message(content, max_tokens, timeout)

    def complete(self, prompt: str, max_tokens: int, timeout: float) -> LLMReply:
        """One user message ``prompt`` → the answer (used by the LLM reranker)."""
        return self._message([{"type": "text", "text": prompt}], max_tokens, timeout)

    def _message(self, content: list[dict], max_tokens: int, timeout: float) -> LLMReply:
        try:
            resp = self._client.messages.create(
                model=self.model,
                max_tokens=max_tokens,
                messages=[{"role": "user", "content": content}],
                timeout=timeout,
            )
        except self._sdk.APIError as exc:
            raise _translate(self._sdk, self.model, exc) from None
        except ValueError as exc:  # a body that is not JSON
            raise _malformed(self.model, exc) from None
        try:
            text = "".join(b.text for b in resp.content if getattr(b, "type", "") == "text").strip()
            u = resp.usage
            usage = LLMUsage(
                u.input_tokens or 0,
                u.output_tokens or 0,
                getattr(u, "cache_read_input_tokens", 0) or 0,
                getattr(u, "cache_creation_input_tokens", 0) or 0,
            )
        except (AttributeError, TypeError, ValueError) as exc:
            raise _malformed(self.model, exc) from None
        if not text:
            raise _plain_error(self.model, "empty answer", retryable=True)
        return LLMReply(text, usage)


class OpenAIProvider:
    """OpenAI Chat Completions (and compatible servers via ``base_url``).

    Request: one user message, ``DOCUMENT_CONTEXT_PROMPT`` followed by ``CHUNK_CONTEXT_PROMPT``
    (document first: a shared prefix for automatic prompt caching), ``temperature=0``,
    ``max_tokens`` = the context budget (the parameter every compatible server understands).
    ``prompt_tokens_details.cached_tokens`` is reported as cache-read tokens.
    """

    provider = "openai"

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key_env: str | None = None,
        *,
        kind: str = "openai",
        api_key: str | None = None,
        api_version: str | None = None,
    ):
        self.model = model
        self.base_url = base_url
        self._sdk, self._client = openai_client(
            kind, base_url, api_key_env, explicit_key=api_key, api_version=api_version
        )

    def situate(self, document: str, chunk: str, max_tokens: int, timeout: float) -> LLMReply:
        """:meth:`LLMProvider.situate` as one user message (document prompt, then the chunk)."""
        prompt = DOCUMENT_CONTEXT_PROMPT.format(doc_content=document) + CHUNK_CONTEXT_PROMPT.format(chunk_content=chunk)
        return self.complete(prompt, max_tokens, timeout)

    def complete(self, prompt: str, max_tokens: int, timeout: float) -> LLMReply:
        """One user message ``prompt`` → the answer (contexts, the LLM reranker)."""
        try:
            resp = self._client.chat.completions.create(
                model=self.model,
                max_tokens=max_tokens,
                temperature=0.0,
                messages=[{"role": "user", "content": prompt}],
                timeout=timeout,
            )
        except self._sdk.APIError as exc:
            raise _translate(self._sdk, self.model, exc) from None
        except ValueError as exc:  # a body that is not JSON
            raise _malformed(self.model, exc) from None
        try:
            text = (resp.choices[0].message.content or "").strip()
            u = resp.usage
            details = getattr(u, "prompt_tokens_details", None)
            cached = (getattr(details, "cached_tokens", 0) or 0) if details is not None else 0
            prompt_tokens = (u.prompt_tokens or 0) if u is not None else 0
            output_tokens = (u.completion_tokens or 0) if u is not None else 0
            usage = LLMUsage(max(0, prompt_tokens - cached), output_tokens, cached, 0)
        except (AttributeError, IndexError, TypeError, ValueError) as exc:
            raise _malformed(self.model, exc) from None
        if not text:
            raise _plain_error(self.model, "empty answer", retryable=True)
        return LLMReply(text, usage)


def make_provider(cfg) -> LLMProvider:
    """The provider client for an LLM provider config (``context_model``, ``reranker_model``):
    ``anthropic`` → :class:`AnthropicProvider`; ``openai``, ``azure_openai`` and ``ollama`` →
    :class:`OpenAIProvider` (Ollama through its OpenAI-compatible ``/v1``). Raises
    :class:`ConfigError` (no SDK, no key)."""
    secret = getattr(cfg, "api_key", None)
    key = secret.get_secret_value() if secret is not None else None
    if cfg.provider == "anthropic":
        return AnthropicProvider(cfg.name, base_url=cfg.base_url, api_key_env=cfg.api_key_env, api_key=key)
    return OpenAIProvider(
        cfg.name,
        base_url=cfg.base_url,
        api_key_env=cfg.api_key_env,
        kind=cfg.provider,
        api_key=key,
        api_version=getattr(cfg, "api_version", None),
    )


# USD per million tokens: (input, output, cache read, cache write). Public list prices as of
# 2025-06 (anthropic.com/pricing, openai.com/api/pricing); matched by model-name prefix, longest
# first. Unknown models (local servers, new releases) are priced at 0 and said so once.
PRICES_PER_MTOK: dict[str, tuple[float, float, float, float]] = {
    "claude-3-haiku": (0.25, 1.25, 0.03, 0.30),
    "claude-3-5-haiku": (0.80, 4.00, 0.08, 1.00),
    "claude-haiku-4-5": (1.00, 5.00, 0.10, 1.25),
    "claude-3-5-sonnet": (3.00, 15.00, 0.30, 3.75),
    "claude-3-7-sonnet": (3.00, 15.00, 0.30, 3.75),
    "claude-sonnet-4": (3.00, 15.00, 0.30, 3.75),
    "claude-opus-4": (15.00, 75.00, 1.50, 18.75),
    "gpt-4o-mini": (0.15, 0.60, 0.075, 0.0),
    "gpt-4o": (2.50, 10.00, 1.25, 0.0),
    "gpt-4.1-nano": (0.10, 0.40, 0.025, 0.0),
    "gpt-4.1-mini": (0.40, 1.60, 0.10, 0.0),
    "gpt-4.1": (2.00, 8.00, 0.50, 0.0),
}


def model_prices(model: str) -> tuple[float, float, float, float] | None:
    """(input, output, cache read, cache write) USD per million tokens for ``model``, or None."""
    name = model.lower().rsplit("/", 1)[-1]
    for prefix in sorted(PRICES_PER_MTOK, key=len, reverse=True):
        if name.startswith(prefix):
            return PRICES_PER_MTOK[prefix]
    return None


def estimate_cost(model: str, usage: LLMUsage) -> float | None:
    """Estimated USD for ``usage`` on ``model`` from :data:`PRICES_PER_MTOK`; None if the price is unknown."""
    prices = model_prices(model)
    if prices is None:
        return None
    p_in, p_out, p_read, p_write = prices
    return (
        usage.input_tokens * p_in
        + usage.output_tokens * p_out
        + usage.cache_read_tokens * p_read
        + usage.cache_write_tokens * p_write
    ) / 1_000_000


# Context windows in tokens, matched by prefix like the prices. Servers we know nothing about
# (a local Ollama model, often 4–8k) get DEFAULT_CONTEXT_WINDOW; set context_model.context_window
# to say otherwise.
CONTEXT_WINDOWS: dict[str, int] = {
    "claude": 200_000,
    "gpt-4o": 128_000,
    "gpt-4.1": 1_000_000,
    "gpt-4-turbo": 128_000,
    "gpt-3.5-turbo": 16_385,
}
DEFAULT_CONTEXT_WINDOW = 8_192


def context_window(model: str, configured: int | None = None) -> int:
    """The model's context window in tokens: ``configured`` if given, else the table, else 8,192."""
    if configured:
        return configured
    name = model.lower().rsplit("/", 1)[-1]
    for prefix in sorted(CONTEXT_WINDOWS, key=len, reverse=True):
        if name.startswith(prefix):
            return CONTEXT_WINDOWS[prefix]
    return DEFAULT_CONTEXT_WINDOW
