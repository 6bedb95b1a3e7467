"""Markdown → section tree, definitions and cross-references (the ``structure`` stage:
``docs/architecture.md``).

Entry point: :func:`build_tree`.
"""

from __future__ import annotations

from ..models import Document, DocumentTree


def build_tree(
    document: Document, *, extract_definitions: bool = True, extract_cross_references: bool = True
) -> DocumentTree:
    """Parse ``document.markdown`` into a :class:`DocumentTree`.

    Sections come in document order (a preamble section holds text before the first
    heading); definitions and cross-references are filled when asked for, cross-references
    resolved against the tree's own section ids. Ordered-list items are body text, never
    sections where the source's markup states them without numbers (``Document.list_items``: HTML
    ``<ol>``); headings whose number and level the markup states (``Document.blocks``: legislation
    XML, gesetze-im-internet, kramdown-rfc, xml2rfc) are taken as stated, never re-detected.
    The citation grammar is read in the document's language (detected from its text:
    :func:`~docstrata.docinfo.detect_language`; :func:`.grammar.document_language`), so a French
    "Section" is a group of articles and an English one a numbered provision.
    """
    from ..docinfo import detect_language
    from .grammar import document_language
    from .parse import parse_sections

    language = detect_language(document.markdown) or ""
    with document_language(language):
        tree = parse_sections(
            document.markdown,
            doc_key=document.doc_key,
            title=document.title,
            list_items=document.list_items,
            heading_levels=document.heading_levels,
            blocks=document.blocks,
        )
        tree.anchors = dict(document.anchors)
        tree.language = language  # later stages (the chunker's references) read the grammar in it too
        if extract_definitions:
            from .definitions import extract_definitions as _defs

            tree.definitions = _defs(tree, marked=document.marked_definitions)
        if extract_cross_references:
            from .xrefs import extract_cross_references as _xrefs

            tree.cross_references = _xrefs(tree)
    return tree
