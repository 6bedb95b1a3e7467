"""Per-chunk context prepended before embedding and BM25 (DESIGN §6).

* ``StructuralContextualizer`` (default, offline): the document title and the chunk's parent
  chain, e.g. ``"GDPR > Chapter III > Article 17 Right to erasure"``.
* ``LLMContextualizer``: Anthropic's contextual retrieval (Anthropic, "Introducing Contextual
  Retrieval", 2024) — an LLM writes one short context per chunk from the whole document, with
  the prompt in :mod:`docstrata.llm`. The chunk's context is the structural line followed by
  the LLM's sentence(s), so ``contextualized_content`` keeps the chunk's location.
* ``NoContextualizer``: no context at all (``contextual_embeddings: false``).

A contextualizer sets ``chunk.context`` (and ``chunk.context_truncated``) in place; the context
is budgeted on its own (``context_max_tokens``) and never shortens ``chunk.content``.

LLM robustness: each request is retried up to 3 times after the first try, waiting 1 s, 2 s and
4 s (or the server's ``Retry-After`` when that is longer, capped at 60 s). On HTTP 429 the number
of requests in flight (``context_concurrency``) halves, once per throttling episode, and doubles
back after a quiet period with no 429 (30 s by default). A chunk whose requests all fail keeps its
structural context and the stats carry a warning naming its chunk id. A document longer than
the model's window is cut keeping its beginning and end, and its chunks get
``context_truncated = True``.

Caching: contexts are stored by sha256 of (provider:model, PROMPT_VERSION, context_max_tokens,
sha256 of the document text sent, sha256 of the chunk text) in SQLite — ``<cache_dir>/contexts.sqlite``
for the embedded store; for PostgreSQL / Qdrant deployments (``cache_dir=None``) under the user
cache directory (``$XDG_CACHE_HOME/docstrata/contexts.sqlite``, a context being a pure function of
its key, one file can serve every tool); for ``in-memory`` databases in a dict that lives as long
as the contextualizer (in-memory means nothing on disk). Re-ingesting an unchanged corpus makes
zero LLM calls; a changed chunk costs one call; a changed document, model or prompt re-asks for
exactly the chunks whose key changed. Failures are never cached.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol

from .llm import RetryPolicy
from .models import Chunk, Document, sha256_text
from .telemetry import set_attributes, span

log = logging.getLogger("docstrata")


@dataclass
class ContextStats:
    """What contextualizing one document cost.

    ``llm_calls`` counts HTTP requests made (retries included); ``input_tokens`` are uncached
    prompt tokens, ``cache_read_tokens`` / ``cache_write_tokens`` the prompt-cache reads and writes,
    ``output_tokens`` the generated ones; ``cache_hits`` chunks served from the context cache;
    ``failures`` chunks that kept their structural context; ``estimated_cost_usd`` from
    :data:`docstrata.llm.PRICES_PER_MTOK` (0 for models without a known price).
    """

    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_hits: int = 0
    failures: int = 0
    warnings: list[str] = field(default_factory=list)
    cache_write_tokens: int = 0
    estimated_cost_usd: float = 0.0


class Contextualizer(Protocol):
    """Sets each chunk's situating ``context`` at ingest (structural, LLM-written, or none);
    ``name`` identifies it in the chunk's stored hash, so a change re-embeds."""

    name: str

    def contextualize(self, document: Document, chunks: list[Chunk]) -> ContextStats:
        """Set ``context`` (and ``context_truncated``) on each chunk of ``document``."""


def structural_context(chunk: Chunk, max_words: int = 60) -> str:
    """``"<document title> > <parent chain>"``, cut to ``max_words`` words keeping the innermost titles."""
    parts = [p for p in ([chunk.document_title] + list(chunk.parent_chain)) if p]
    deduped = [p for i, p in enumerate(parts) if i == 0 or p != parts[i - 1]]
    text = " > ".join(deduped)
    words = text.split()
    return text if len(words) <= max_words else "… " + " ".join(words[-max_words:])


class StructuralContextualizer:
    """Offline context from structure: document title and parent chain."""

    name = "structural"

    def __init__(self, max_tokens: int = 100):
        self.max_words = max(5, int(max_tokens * 0.75))  # ~1.3 word pieces per English word

    def contextualize(self, document: Document, chunks: list[Chunk]) -> ContextStats:
        """``"<document title> > <section path>"`` as each chunk's context (no LLM, no cost)."""
        for c in chunks:
            c.context = structural_context(c, self.max_words)
        return ContextStats()


class NoContextualizer:
    """No context: ``contextualized_content == content`` (used by ``eval --no-context``)."""

    name = "none"

    def contextualize(self, document: Document, chunks: list[Chunk]) -> ContextStats:
        """An empty context on every chunk: the indices read the content alone."""
        for c in chunks:
            c.context = ""
        return ContextStats()


# --------------------------------------------------------------------------- context cache
class ContextCache(Protocol):
    """Key → context text. Keys are hex sha256 strings."""

    def get_many(self, keys: list[str]) -> dict[str, str]:
        """The cached contexts of ``keys`` that are present."""

    def put_many(self, items: dict[str, str]) -> None:
        """Store contexts by key."""


class MemoryContextCache:
    """Contexts in a dict, for in-memory databases (nothing on disk)."""

    def __init__(self):
        self._data: dict[str, str] = {}
        self._lock = threading.Lock()

    def get_many(self, keys: list[str]) -> dict[str, str]:
        """The cached contexts of ``keys`` that are present."""
        with self._lock:
            return {k: self._data[k] for k in keys if k in self._data}

    def put_many(self, items: dict[str, str]) -> None:
        """Store contexts by key (until the process ends)."""
        with self._lock:
            self._data.update(items)


class SqliteContextCache:
    """Contexts in one SQLite file (created with its folder). Safe across threads and processes."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=30)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS contexts (key TEXT PRIMARY KEY, context TEXT NOT NULL, "
            "model TEXT, prompt_version TEXT, created REAL)"
        )
        self._db.commit()

    def get_many(self, keys: list[str]) -> dict[str, str]:
        """The cached contexts of ``keys`` that are present (500 keys a query)."""
        out: dict[str, str] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                part = keys[start : start + 500]
                q = f"SELECT key, context FROM contexts WHERE key IN ({','.join('?' * len(part))})"
                out.update(self._db.execute(q, part).fetchall())
        return out

    def put_many(self, items: dict[str, str], model: str = "", prompt_version: str = "") -> None:
        """Store contexts by key with the model and prompt version that wrote them, in one commit."""
        now = time.time()
        with self._lock:
            self._db.executemany(
                "INSERT OR REPLACE INTO contexts VALUES (?, ?, ?, ?, ?)",
                [(k, v, model, prompt_version, now) for k, v in items.items()],
            )
            self._db.commit()

    def close(self) -> None:
        """Close the cache database."""
        with self._lock:
            self._db.close()


def user_cache_path() -> Path:
    """``$XDG_CACHE_HOME/docstrata/contexts.sqlite`` (``~/.cache`` when unset; LOCALAPPDATA on Windows)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.environ.get("LOCALAPPDATA") or str(Path.home() / ".cache")
    return Path(base) / "docstrata" / "contexts.sqlite"


# --------------------------------------------------------------------------- rate limiting
class AdaptiveLimiter:
    """At most ``limit`` requests in flight; halves on 429, doubles back after a quiet period.

    Halving happens once per throttling episode: a 429 only halves the limit if its request was
    started under the current limit (its ``epoch``), so ten simultaneous 429s halve once, not
    ten times (the same rule as TCP's one decrease per window). After ``quiet_period`` seconds
    without a 429 the limit doubles, up to its initial value. ``history`` lists
    ``(monotonic time, new limit)`` for every change.
    """

    def __init__(self, limit: int, quiet_period: float = 30.0, clock: Callable[[], float] = time.monotonic):
        self.max_limit = max(1, limit)
        self.limit = self.max_limit
        self.quiet_period = quiet_period
        self._clock = clock
        self._in_flight = 0
        self._epoch = 0
        self._last_change = clock()
        self._cond = threading.Condition()
        self.history: list[tuple[float, int]] = []

    def acquire(self) -> int:
        """Wait for a free slot; returns the epoch to pass to :meth:`throttled`."""
        with self._cond:
            self._maybe_recover()
            while self._in_flight >= self.limit:
                self._cond.wait(timeout=0.25)
                self._maybe_recover()
            self._in_flight += 1
            return self._epoch

    def release(self) -> None:
        """End a request begun with :meth:`acquire`: frees its slot (the limit may recover after a
        quiet spell) and wakes the callers waiting for one."""
        with self._cond:
            self._in_flight -= 1
            self._maybe_recover()
            self._cond.notify_all()

    def throttled(self, epoch: int) -> None:
        """A request started in ``epoch`` got HTTP 429."""
        with self._cond:
            now = self._clock()
            if epoch == self._epoch and self.limit > 1:
                self._set(max(1, self.limit // 2), now)
                log.warning("LLM rate limited (HTTP 429): concurrency lowered to %d", self.limit)
            else:
                self._last_change = now  # still throttled: restart the quiet period

    def _maybe_recover(self) -> None:
        now = self._clock()
        if self.limit < self.max_limit and now - self._last_change >= self.quiet_period:
            self._set(min(self.max_limit, self.limit * 2), now)
            self._cond.notify_all()

    def _set(self, limit: int, now: float) -> None:
        self.limit = limit
        self._epoch += 1
        self._last_change = now
        self.history.append((now, limit))


# --------------------------------------------------------------------------- truncation
CHARS_PER_TOKEN = 3.0  # conservative for English, code and legal text (most tokenizers: 3.5–4.5)
PROMPT_OVERHEAD_TOKENS = 150  # the prompt's own words, message framing, safety margin
HEAD_SHARE = 2 / 3  # the beginning (title, scope, definitions) situates chunks more often than the end


def estimate_tokens(text: str) -> int:
    """Rough token count of ``text`` (``len / CHARS_PER_TOKEN``), erring high."""
    return int(len(text) / CHARS_PER_TOKEN) + 1


def fit_document(text: str, max_tokens: int) -> tuple[str, bool]:
    """``(text, False)`` if it fits in ``max_tokens``, else its beginning and end around an
    omission marker, ``(cut, True)``. Cuts fall on line breaks where one is near."""
    max_chars = int(max_tokens * CHARS_PER_TOKEN)
    if len(text) <= max_chars:
        return text, False
    marker = "\n\n[… {} characters omitted …]\n\n"
    budget = max(0, max_chars - len(marker) - 12)
    head_len = int(budget * HEAD_SHARE)
    tail_len = budget - head_len
    head = text[:head_len]
    cut = head.rfind("\n")
    if cut > head_len * 0.8:
        head = head[:cut]
    tail = text[len(text) - tail_len :] if tail_len else ""
    nl = tail.find("\n")
    if 0 <= nl < tail_len * 0.2:
        tail = tail[nl + 1 :]
    omitted = len(text) - len(head) - len(tail)
    return head + marker.format(omitted) + tail, True


# --------------------------------------------------------------------------- LLM contextualizer
@dataclass
class _Outcome:
    text: str | None = None
    error: str = ""
    calls: int = 0
    usage: object = None


_ANNOUNCED: set[str] = set()


class LLMContextualizer:
    """Anthropic-style contextual retrieval over any :class:`~docstrata.llm.LLMProvider`.

    ``contextualize(document, chunks)`` sets each chunk's ``context`` to
    ``"<structural line>\\n<LLM context>"`` and returns :class:`ContextStats`. The first
    uncached chunk of a document is asked alone, so the provider's prompt cache holds the
    document before the rest are asked ``concurrency`` at a time. Identical chunk texts in one
    document are asked once. Never raises for a provider failure: see the module docstring.
    """

    def __init__(
        self,
        provider,
        *,
        max_tokens: int = 100,
        concurrency: int = 10,
        cache: ContextCache | None = None,
        retry: RetryPolicy = RetryPolicy(),
        window: int | None = None,
        quiet_period: float = 30.0,
        request_timeout: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
    ):
        from .llm import PROMPT_VERSION, context_window

        self.provider = provider
        self.name = f"{provider.provider}:{provider.model}"
        self.max_tokens = max_tokens
        self.concurrency = concurrency
        self.cache = cache if cache is not None else MemoryContextCache()
        self.retry = retry
        self.window = context_window(provider.model, window)
        self.limiter = AdaptiveLimiter(concurrency, quiet_period)
        self.request_timeout = request_timeout
        self.prompt_version = PROMPT_VERSION
        self._structural = StructuralContextualizer(max_tokens)
        self._sleep = sleep
        self._fatal: str | None = None
        self._unpriced_said = False

    # ---- keys and document fitting
    def _cache_key(self, doc_hash: str, chunk_text: str) -> str:
        return sha256_text(
            json.dumps([self.name, self.prompt_version, self.max_tokens, doc_hash, sha256_text(chunk_text)])
        )

    def _document_for(self, document: Document, chunks: list[Chunk]) -> tuple[str, bool]:
        longest_chunk = max((estimate_tokens(c.content) for c in chunks), default=0)
        budget = self.window - self.max_tokens - PROMPT_OVERHEAD_TOKENS - longest_chunk - self.window // 20
        return fit_document(document.markdown, max(256, budget))

    # ---- one chunk, with retries
    def _ask(self, document_text: str, chunk_text: str) -> _Outcome:
        from .llm import LLMRequestError

        out = _Outcome()

        def attempt():
            if self._fatal:
                raise LLMRequestError(self.provider.model, self._fatal, retryable=False)
            epoch = self.limiter.acquire()
            try:
                out.calls += 1
                with span(
                    "llm.situate",
                    **{
                        "gen_ai.system": self.provider.provider,
                        "gen_ai.request.model": self.provider.model,
                        "gen_ai.request.max_tokens": self.max_tokens,
                    },
                ):
                    return self.provider.situate(document_text, chunk_text, self.max_tokens, self.request_timeout)
            except LLMRequestError as e:
                if e.rate_limited:
                    self.limiter.throttled(epoch)
                if not e.retryable and e.status in (
                    401,
                    403,
                    404,
                ):  # bad key or unknown model: every request would fail
                    self._fatal = str(e)
                raise
            finally:
                self.limiter.release()

        try:
            reply = self.retry.run(attempt, self._sleep)
        except LLMRequestError as e:
            out.error = self._fatal if self._fatal and e.status is None else str(e)
            return out
        out.text, out.usage, out.error = reply.text, reply.usage, ""
        return out

    def _ask_all(self, document_text: str, jobs: dict[str, str]) -> dict[str, _Outcome]:
        keys = list(jobs)
        results: dict[str, _Outcome] = {}
        if not keys:
            return results
        # The first request writes the document into the provider's prompt cache; the rest read it.
        results[keys[0]] = self._ask(document_text, jobs[keys[0]])
        rest = keys[1:]
        if rest:
            with ThreadPoolExecutor(
                max_workers=min(self.concurrency, len(rest)), thread_name_prefix="docstrata-llm"
            ) as pool:
                futures = {
                    k: pool.submit(contextvars.copy_context().run, self._ask, document_text, jobs[k]) for k in rest
                }
                for k, f in futures.items():
                    results[k] = f.result()
        return results

    # ---- the contextualizer contract
    def contextualize(self, document: Document, chunks: list[Chunk]) -> ContextStats:
        """Set structural + LLM context on every chunk of ``document``; see the class docstring."""
        from .llm import LLMUsage, estimate_cost

        stats = ContextStats()
        self._structural.contextualize(document, chunks)
        document_text, truncated = self._document_for(document, chunks)
        doc_hash = sha256_text(document_text)
        keys = [self._cache_key(doc_hash, c.content) for c in chunks]
        cached = self.cache.get_many(list(dict.fromkeys(keys)))
        jobs = {k: c.content for k, c in zip(keys, chunks) if k not in cached}
        outcomes = self._ask_all(document_text, jobs)
        fresh = {k: o.text for k, o in outcomes.items() if o.text}
        if fresh:
            if isinstance(self.cache, SqliteContextCache):
                self.cache.put_many(fresh, model=self.name, prompt_version=self.prompt_version)
            else:
                self.cache.put_many(fresh)
        total = LLMUsage()
        for o in outcomes.values():
            stats.llm_calls += o.calls
            if o.usage is not None:
                for f in ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"):
                    setattr(total, f, getattr(total, f) + getattr(o.usage, f))
        for f in ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"):
            setattr(stats, f, getattr(total, f))
        for k, c in zip(keys, chunks):
            c.context_truncated = truncated
            text = cached.get(k) or fresh.get(k)
            if k in cached:
                stats.cache_hits += 1
            if text:
                c.context = f"{c.context}\n{text}" if c.context else text
            else:
                stats.failures += 1
                stats.warnings.append(
                    f"{c.chunk_id}: LLM context failed ({outcomes[k].error}); kept the structural context"
                )
        if truncated:
            stats.warnings.append(
                f"{document.doc_key}: longer than {self.name}'s {self.window}-token window; "
                "the LLM saw its beginning and end only"
            )
        cost = estimate_cost(self.provider.model, total)
        if cost is None and stats.llm_calls and not self._unpriced_said:
            self._unpriced_said = True
            log.info("no price known for %s: estimated_cost_usd is reported as 0", self.name)
        stats.estimated_cost_usd = cost or 0.0
        set_attributes(
            **{
                "context.llm_calls": stats.llm_calls,
                "context.cache_hits": stats.cache_hits,
                "context.failures": stats.failures,
                "context.truncated": truncated,
                "gen_ai.usage.input_tokens": stats.input_tokens,
                "gen_ai.usage.output_tokens": stats.output_tokens,
            }
        )
        return stats


def make_contextualizer(tool_cfg, cache_dir=None) -> Contextualizer:
    """The contextualizer a ``hierarchical_document`` tool config asks for.

    ``contextual_embeddings: false`` → none; no ``context_model`` → structural (said once in the
    log); a ``context_model`` → :class:`LLMContextualizer` with its context cache (module docstring).
    Raises :class:`~docstrata.errors.ConfigError` if the provider's SDK or API key is missing.
    """
    if not getattr(tool_cfg, "contextual_embeddings", True):
        return NoContextualizer()
    max_tokens = getattr(tool_cfg, "context_max_tokens", 100)
    model_cfg = getattr(tool_cfg, "context_model", None)
    tool_name = getattr(tool_cfg, "name", "?")
    if model_cfg is None:
        if tool_name not in _ANNOUNCED:
            _ANNOUNCED.add(tool_name)
            log.info(
                "tool '%s': contextual_embeddings without a context_model: using the structural context "
                "(document title and section chain); set context_model for LLM-written contexts",
                tool_name,
            )
        return StructuralContextualizer(max_tokens)
    from .llm import make_provider

    provider = make_provider(model_cfg)
    return LLMContextualizer(
        provider,
        max_tokens=max_tokens,
        concurrency=getattr(tool_cfg, "context_concurrency", 10),
        cache=_cache_for(tool_cfg, cache_dir),
        window=model_cfg.context_window,
    )


def _cache_for(tool_cfg, cache_dir) -> ContextCache:
    if cache_dir is not None:
        return SqliteContextCache(Path(cache_dir) / "contexts.sqlite")
    database = getattr(tool_cfg, "database", None)
    if getattr(database, "provider", None) == "in-memory":
        return MemoryContextCache()
    return SqliteContextCache(user_cache_path())


def contextualize_into(contextualizer, document: Document, chunks: list[Chunk], report) -> None:
    """Run ``contextualizer`` over a document's ``chunks`` (setting each chunk's context) and add
    its warnings and LLM usage (calls, tokens, cache hits, failures, estimated cost) to ``report``
    (an :class:`~docstrata.models.IngestReport`)."""
    with span("contextualize_batch", **{"ingest.chunk_count": len(chunks)}):
        stats = contextualizer.contextualize(document, chunks)
        report.warnings += getattr(stats, "warnings", [])
        for key in (
            "llm_calls",
            "input_tokens",
            "output_tokens",
            "cache_read_tokens",
            "cache_write_tokens",
            "cache_hits",
            "failures",
            "estimated_cost_usd",
        ):
            if hasattr(stats, key):
                report.llm[key] = report.llm.get(key, 0) + getattr(stats, key)
