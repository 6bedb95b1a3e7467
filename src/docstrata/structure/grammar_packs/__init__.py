"""Language packs of the citation grammar (:mod:`docstrata.structure.grammar`): plain data tables,
one module per language. ``PACKS`` lists them in the order the grammar reads them; see
``docs/grammar.md`` for what a pack holds and how to add one."""

from __future__ import annotations

from . import de, en, fr

PACKS = (en.PACK, de.PACK, fr.PACK)
