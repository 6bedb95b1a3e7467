"""Query words the index spells differently: "licence" asked of documents that write "license".

A query word that no indexed chunk holds is one of three things: a word the documents lack (the
question may have no answer here), a misspelling, or another spelling of a word they hold (British
and American: "licence", "organisation", "centre"). BM25 matches terms exactly, so the last two
find nothing on the keyword leg and count as words "no document here holds" in the answer's
confidence. :func:`respell` searches such a word as the word one edit away (Damerau–Levenshtein
distance 1, the candidates of Norvig's spelling corrector, https://norvig.com/spell-correct.html)
that the index holds, when the embedding model reads the two as the same word: a cosine at least
the model's fitted threshold (``bench/respell_fit.py``; "licence"/"license" 0.92, "price"/"prime"
0.38). A model without a fitted threshold is never respelled, nor is a word shorter than
:data:`MIN_LETTERS` letters, where one edit too often makes another word.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

COSINES = Path(__file__).with_name("respell_cosines.json")
MIN_LETTERS = 6
# Longer words are not respelled, and at most MAX_WORDS absent words of a query are: a word of n
# letters has about 54 n candidates, each stemmed and looked up, so a query of long made-up words
# would cost seconds ("x" * 10,000: half a million candidates)
MAX_LETTERS = 40
MAX_WORDS = 8
MAX_CANDIDATES = 8  # candidates embedded per absent word, those the most chunks hold first
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_WORD = re.compile(rf"(?<![\w-])[^\W\d_]{{{MIN_LETTERS},{MAX_LETTERS}}}(?![\w-])")


@dataclass(frozen=True)
class Respelling:
    """A query as its keyword search reads it: ``query`` with each word of ``replaced`` (as the
    query wrote it → the spelling the index holds) replaced; ``replaced`` empty when nothing was."""

    query: str
    replaced: dict[str, str] = field(default_factory=dict)

    def notice(self) -> str:
        """What the agent is told: which words were searched in which spelling ("" when none)."""
        if not self.replaced:
            return ""
        said = ", ".join(f"'{a}' as '{b}'" for a, b in self.replaced.items())
        return f"searched {said}: the spelling these documents use (no document here holds the word as written)"


@cache
def fitted_cosine(model_name: str) -> float | None:
    """The cosine two words need under ``model_name`` to be one word's spellings
    (``respell_cosines.json``, written by ``python bench/respell_fit.py --write``); ``None`` for a
    model not fitted."""
    from .embed import fitted_model_key

    try:
        table = json.loads(COSINES.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    value = {k.lower(): v for k, v in table.items()}.get(fitted_model_key(model_name))
    return float(value) if isinstance(value, (int, float)) else None


def edits1(word: str) -> set[str]:
    """Every string one edit from lower-case ``word``: a letter deleted, two neighbours swapped, a
    letter replaced or inserted (the Latin alphabet plus ``word``'s own letters); ``word`` excluded."""
    letters = set(_LETTERS) | set(word)
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {a + b[1:] for a, b in splits if b}
    out |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    out |= {a + c + b[1:] for a, b in splits if b for c in letters}
    out |= {a + c + b for a, b in splits for c in letters}
    out.discard(word)
    return out


def respell(
    query: str,
    frequencies: Callable[[list[str]], tuple[int, dict[str, int]]],
    terms_of: Callable[[str], list[str]],
    encode: Callable[[list[str]], np.ndarray],
    min_cosine: float,
) -> Respelling:
    """``query`` with each word of :data:`MIN_LETTERS` to :data:`MAX_LETTERS` letters that no chunk
    holds (the first :data:`MAX_WORDS` such) replaced by its closest spelling one edit away that
    chunks do hold.

    ``frequencies(terms)`` → (chunks, {term: chunks holding it}) is the store's
    ``term_document_frequencies``; ``terms_of(word)`` its BM25 terms (every language the index
    holds); ``encode(words)`` → (n, dim) L2-normalised vectors; ``min_cosine`` the model's
    :func:`fitted_cosine`. Among the candidates the index holds (at most :data:`MAX_CANDIDATES`,
    most-held first) the one nearest in meaning wins if it reaches ``min_cosine``."""
    words = list(dict.fromkeys(m.group() for m in _WORD.finditer(query)))
    if not words:
        return Respelling(query)
    own = {w: terms_of(w.lower()) for w in words}
    _, dfs = frequencies([t for ts in own.values() for t in ts])
    absent = [w for w in words if own[w] and not any(dfs.get(t) for t in own[w])][:MAX_WORDS]
    replaced: dict[str, str] = {}
    for word in absent:
        lower = word.lower()
        candidates = {c: terms_of(c) for c in edits1(lower)}
        candidates = {c: ts for c, ts in candidates.items() if ts and ts != own[word]}
        _, held = frequencies(sorted({t for ts in candidates.values() for t in ts}))
        chunks = {c: min(held.get(t, 0) for t in ts) for c, ts in candidates.items()}
        ranked = sorted((c for c, n in chunks.items() if n), key=lambda c: (-chunks[c], c))[:MAX_CANDIDATES]
        if not ranked:
            continue
        vecs = encode([lower, *ranked])
        sims = vecs[1:] @ vecs[0]
        best = int(np.argmax(sims))
        if float(sims[best]) >= min_cosine:
            replaced[word] = ranked[best]
    if not replaced:
        return Respelling(query)
    text = _WORD.sub(lambda m: _cased(replaced[m.group()], m.group()) if m.group() in replaced else m.group(), query)
    return Respelling(text, replaced)


def _cased(spelling: str, written: str) -> str:
    """``spelling`` in ``written``'s case: "License" for "Licence", "LICENSE" for "LICENCE"."""
    if written.isupper():
        return spelling.upper()
    return spelling[:1].upper() + spelling[1:] if written[:1].isupper() else spelling
