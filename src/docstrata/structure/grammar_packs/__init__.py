"""Language packs of the citation grammar (:mod:`docstrata.structure.grammar`): plain data tables,
one module per language. ``PACKS`` lists them in the order the grammar reads them; see
``docs/grammar.md`` for what a pack holds and how to add one."""

from __future__ import annotations

from typing import Any

from . import de, en, fr

# Each pack is a dict of tables of different shapes (keywords, words, contents titles): see en.py.
PACKS: tuple[dict[str, Any], ...] = (en.PACK, de.PACK, fr.PACK)
