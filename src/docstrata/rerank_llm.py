"""Listwise reranking with an LLM (``reranker_model`` as a HoloDeck LLM provider object).

The prompt is RankGPT's permutation prompt (Sun et al., "Is ChatGPT Good at Search? Investigating
Large Language Models as Re-Ranking Agents", EMNLP 2023): the candidates are numbered ``[1]…[N]``
(each cut to :data:`PASSAGE_WORDS` words), and the model answers with a permutation such as
``[3] > [1] > [2]``. One request ranks the whole candidate list (``candidate_depth``: at most 100,
30 for the usual top_k), so a search costs one LLM call. Parsing is lenient: identifiers out of
range or repeated are skipped, candidates the answer leaves out keep their fused order after the
ranked ones. A candidate's ``rerank_score`` is ``1 - position / N`` (1.0 for the first).

Requests go through the provider clients of :mod:`docstrata.llm` (Anthropic, OpenAI, Azure OpenAI,
Ollama and OpenAI-compatible servers) with the same :class:`~docstrata.llm.RetryPolicy` as context
generation. Rankings are cached in memory by sha256 of (provider:model, PROMPT_VERSION, query,
every passage) — the search path writes nothing to disk (DESIGN §7c). When every attempt fails,
the fused order is kept (scores ``None``) and the failure is logged once per reranker.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Sequence
from typing import Callable

from .llm import LLMRequestError, RetryPolicy, make_provider
from .models import sha256_text

log = logging.getLogger("docstrata")

PROMPT_VERSION = "rankgpt-listwise-2023"
PASSAGE_WORDS = 150
MAX_ANSWER_TOKENS = 400

_HEAD = (
    "You are RankGPT, an intelligent assistant that can rank passages based on their relevancy to the query.\n"
    "I will provide you with {n} passages, each indicated by number identifier []. "
    "Rank the passages based on their relevance to query: {query}.\n\n"
)
_TAIL = (
    "\nSearch Query: {query}.\nRank the {n} passages above based on their relevance to the search query. "
    "The passages should be listed in descending order using identifiers. The most relevant passages should "
    "be listed first. The output format should be [] > [], e.g., [1] > [2]. Only response the ranking "
    "results, do not say any word or explain."
)


def listwise_prompt(query: str, passages: Sequence[str], words: int = PASSAGE_WORDS) -> str:
    """The RankGPT prompt for ``query`` over ``passages`` (numbered from 1, each cut to ``words`` words)."""
    body = "".join(f"[{i}] {' '.join(p.split()[:words])}\n" for i, p in enumerate(passages, 1))
    return _HEAD.format(n=len(passages), query=query) + body + _TAIL.format(n=len(passages), query=query)


def parse_permutation(answer: str, n: int) -> list[int]:
    """0-based candidate order from an answer like ``"[2] > [3] > [1]"``: every index once, the
    ones the answer names first (in its order), the rest after in input order."""
    seen: list[int] = []
    for m in re.finditer(r"\[(\d+)\]", answer):
        i = int(m.group(1)) - 1
        if 0 <= i < n and i not in seen:
            seen.append(i)
    return seen + [i for i in range(n) if i not in seen]


class LLMRerankBackend:
    """``score(query, passages)`` from one listwise LLM request (module docstring).

    ``model_cfg`` is an ``LLMProviderConfig``. Raises :class:`~docstrata.errors.ConfigError` at
    construction when the provider's SDK or key is missing.
    """

    def __init__(
        self,
        model_cfg,
        retry: RetryPolicy = RetryPolicy(),
        request_timeout: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.provider = make_provider(model_cfg)
        self.name = f"{model_cfg.provider}:{model_cfg.name}"
        self.max_tokens = model_cfg.max_tokens or MAX_ANSWER_TOKENS
        self.retry = retry
        self.request_timeout = request_timeout
        self._sleep = sleep
        self._cache: dict[str, list[int]] = {}
        self.calls = 0
        self.last_error: str | None = None
        self._said = False

    def ranking(self, query: str, passages: Sequence[str]) -> list[int] | None:
        """0-based order of ``passages`` (best first), or ``None`` when the LLM could not be asked."""
        key = sha256_text(json.dumps([self.name, PROMPT_VERSION, query, [sha256_text(p) for p in passages]]))
        if key in self._cache:
            return self._cache[key]
        prompt = listwise_prompt(query, passages)

        def attempt():
            self.calls += 1
            return self.provider.complete(prompt, self.max_tokens, self.request_timeout)

        try:
            reply = self.retry.run(attempt, self._sleep)
        except LLMRequestError as e:
            self.last_error = str(e)
            if not self._said:
                self._said = True
                log.warning("LLM reranker %s failed (%s): results keep their fused order", self.name, e)
            return None
        order = parse_permutation(reply.text, len(passages))
        self._cache[key] = order
        return order

    def score(self, query: str, passages: Sequence[str]) -> list[float | None]:
        """One score per passage from the LLM's ranking: 1 for the first, falling by 1/n a place;
        all ``None`` when the LLM could not be asked (results keep their fused order)."""
        order = self.ranking(query, passages)
        if order is None:
            return [None] * len(passages)
        n = len(passages)
        scores: list[float | None] = [None] * n
        for position, i in enumerate(order):
            scores[i] = 1.0 - position / n
        return scores
