"""Helpers several test files share: a small ``hierarchical_document`` project written to disk,
and look-ups over a parsed section tree."""

from __future__ import annotations

from pathlib import Path

from docstrata.index.exact import alias_keys
from docstrata.models import DocumentTree, Section


def doc_project(root: Path, docs: dict[str, str], **settings: object) -> Path:
    """Write ``docs`` (file name → text) into ``root/docs`` and beside it an ``agent.yaml`` with
    one ``hierarchical_document`` tool named ``docs`` over that folder; ``database`` is
    ``in-memory`` unless ``settings`` names another, and each of ``settings`` is one more
    ``key: value`` line of the tool (``max_chunk_tokens=800``). Returns the config's path."""
    (root / "docs").mkdir(parents=True, exist_ok=True)
    for name, text in docs.items():
        (root / "docs" / name).write_text(text, encoding="utf-8")
    lines = ["tools:", "  - name: docs", "    type: hierarchical_document", "    source: docs/"]
    lines += [f"    {key}: {value}" for key, value in {"database": "in-memory", **settings}.items()]
    cfg = root / "agent.yaml"
    cfg.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return cfg


def sections_by_id(tree: DocumentTree) -> dict[str, Section]:
    """The tree's sections by ``section_id``."""
    return {s.section_id: s for s in tree.sections}


def alias_owners(tree: DocumentTree) -> dict[str, set[str]]:
    """Each exact-index key of the tree's section aliases (:func:`alias_keys`) → the ids of the
    sections whose aliases give it (more than one: the key is ambiguous in this document)."""
    owners: dict[str, set[str]] = {}
    for s in tree.sections:
        for a in s.aliases:
            for k in alias_keys(a):
                owners.setdefault(k, set()).add(s.section_id)
    return owners
