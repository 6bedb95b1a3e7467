"""Ligatures and presentation forms as the letters they stand for, once, where conversion ends.

PDFs set ``ﬀ``, ``ﬁ``, ``ﬂ``, ``ﬃ``, ``ﬄ``, ``ﬅ``, ``ﬆ`` (U+FB00–FB06) as single glyphs, and text
extraction keeps them: "Oﬃce" would be shown to the agent and would match neither the query
"office" in BM25 nor an exact lookup. Their compatibility decomposition (Unicode NFKC) is the
plain letters. The same holds for the other presentation-form blocks: Alphabetic Presentation
Forms (U+FB00–FB4F: Latin, Armenian and Hebrew ligatures and wide forms), Arabic Presentation
Forms-A and -B (U+FB50–FDFF, U+FE70–FEFF: contextual glyph shapes of Arabic letters).

Only these blocks are normalised, not the whole text: full NFKC would also turn ``²`` into ``2``
(a footnote mark glued to its word), ``½`` into ``1⁄2`` and ``…`` into ``...`` in the text
shown. The keyword index folds with NFKC anyway (:func:`~docstrata.index.keyword.fold`).
"""

from __future__ import annotations

import bisect
import re
import unicodedata

_FORMS_RE = re.compile("[\ufb00-\ufdff\ufe70-\ufefe]+")


def fold_presentation_forms(text: str) -> tuple[str, list[int], list[int]]:
    """``text`` with each ligature and presentation form as its NFKC letters, plus what
    :func:`shift_offset` needs to move offsets into the old text onto the new: the old positions
    after each change (ascending) and the total length added up to each. Unchanged text returns
    empty lists."""
    if not _FORMS_RE.search(text):
        return text, [], []
    parts, ends, added, at, total = [], [], [], 0, 0
    for m in _FORMS_RE.finditer(text):
        new = unicodedata.normalize("NFKC", m.group())
        parts += [text[at : m.start()], new]
        at = m.end()
        total += len(new) - len(m.group())
        ends.append(m.end())
        added.append(total)
    parts.append(text[at:])
    return "".join(parts), ends, added


def shift_offset(offset: int, ends: list[int], added: list[int]) -> int:
    """An offset into the old text as an offset into the folded one (``ends``, ``added`` from
    :func:`fold_presentation_forms`): moved by what the changes before it added."""
    i = bisect.bisect_right(ends, offset)
    return offset + (added[i - 1] if i else 0)


def fold_text(text: str) -> str:
    """:func:`fold_presentation_forms` without the offsets."""
    return fold_presentation_forms(text)[0]
