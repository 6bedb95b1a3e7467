"""The document entry (the spec's ``HierarchicalDocument`` entity): summary, language, counts.

Built at ingest from the converted document and its section tree, with no LLM:

* ``summary``: the first paragraph of body prose (at least :data:`MIN_PARAGRAPH_CHARS`
  characters, not a table, list, code fence or heading), cut at a sentence end near
  :data:`SUMMARY_CHARS`; a document without one is summarised by its top-level section titles.
* ``language``: ISO 639-1 code from ``py3langid`` (the maintained fork of langid.py, Lui &
  Baldwin, "langid.py: An Off-the-shelf Language Identification Tool", ACL 2012) over the first
  :data:`LANGUAGE_SAMPLE_CHARS` characters of prose; "" for too little text.
* ``names``: what a question may call the document (:func:`~docstrata.docnames.document_names`).
* :func:`language_warnings`: a notice when the embedding model or the BM25 analyser (English
  Snowball stemming and stopwords; CJK bigrams) is not made for that language (spec edge case).
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

from .docnames import document_names
from .index.keyword import SNOWBALL, stemmed_language
from .models import DocumentEntry, DocumentTree

MIN_PARAGRAPH_CHARS = 60
SUMMARY_CHARS = 300
LANGUAGE_SAMPLE_CHARS = 4000
MIN_LANGUAGE_LETTERS = 40

# Languages the BM25 analyser handles beyond accent folding: English and the Snowball languages
# (stemming, stopwords; docstrata.index.keyword.SNOWBALL) and Chinese / Japanese / Korean (character bigrams).
ANALYSER_LANGUAGES = frozenset({"en", "zh", "ja", "ko", *SNOWBALL})
# Embedding models known to read English only, and name marks of multilingual ones.
ENGLISH_ONLY_MODELS = (
    "all-minilm-l6-v2",
    "all-minilm-l12-v2",
    "all-mpnet-base-v2",
    "bge-small-en",
    "bge-base-en",
    "bge-large-en",
    "gte-small",
    "gte-base",
    "e5-small-v2",
    "e5-base-v2",
    "nomic-embed-text",
)
MULTILINGUAL_MARKS = (
    "multilingual",
    "labse",
    "bge-m3",
    "text-embedding-3",
    "text-embedding-ada",
    "multi-",
    "mxbai",
    "jina-embeddings-v3",
)

_NOT_PROSE = re.compile(r"^\s*(?:[|#>`~]|[-*+]\s|\d+[.)]\s|\(?[a-z0-9]{1,4}\)\s|!\[|<)", re.IGNORECASE)
_MARKUP = re.compile(r"[*_`#>|\[\]]+|\(https?://[^)]*\)")


def now_utc() -> str:
    """The current time as ISO 8601 UTC to the second (``2026-12-01T10:20:30Z``)."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _paragraphs(text: str):
    for para in re.split(r"\n\s*\n", text):
        lines = [ln for ln in para.strip().splitlines() if ln.strip()]
        if not lines or any(_NOT_PROSE.match(ln) for ln in lines[:1]):
            continue
        prose = " ".join(_MARKUP.sub("", ln).strip() for ln in lines)
        if len(prose) >= MIN_PARAGRAPH_CHARS and sum(c.isalpha() for c in prose) > len(prose) / 2:
            yield " ".join(prose.split())


def summarize(tree: DocumentTree) -> str:
    """The document's first paragraph of prose, cut at a sentence end near :data:`SUMMARY_CHARS`,
    else its top-level section titles ("Sections: …"); "" for an empty document."""
    for section in tree.sections:
        for para in _paragraphs(section.text):
            if len(para) <= SUMMARY_CHARS:
                return para
            cut = para[:SUMMARY_CHARS]
            end = max(cut.rfind(". "), cut.rfind("; "))
            return (cut[: end + 1] if end > SUMMARY_CHARS // 3 else cut.rsplit(" ", 1)[0]) + " …"
    tops = [s.title for s in tree.sections if s.level == min((x.level for x in tree.sections), default=1) and s.title]
    return ("Sections: " + "; ".join(tops[:12])) if tops else ""


def detect_language(text: str) -> str:
    """ISO 639-1 code of ``text``'s language ("" when it holds under :data:`MIN_LANGUAGE_LETTERS`
    letters of prose or ``py3langid`` is not installed)."""
    sample = " ".join(p for p in _paragraphs(text[: LANGUAGE_SAMPLE_CHARS * 4]))[:LANGUAGE_SAMPLE_CHARS]
    if sum(c.isalpha() for c in sample) < MIN_LANGUAGE_LETTERS:
        sample = _MARKUP.sub(" ", text[:LANGUAGE_SAMPLE_CHARS])
    if sum(c.isalpha() for c in sample) < MIN_LANGUAGE_LETTERS:
        return ""
    try:
        import py3langid
    except ImportError:
        return ""
    lang, _ = py3langid.classify(sample)
    return str(lang)


def model_reads(model: str, language: str) -> bool | None:
    """Whether embedding ``model`` is made for ``language``: True / False when known, else None."""
    name = model.lower().rstrip("/").rsplit("/", 1)[-1]
    if any(mark in name for mark in MULTILINGUAL_MARKS):
        return True
    if any(name.startswith(m) for m in ENGLISH_ONLY_MODELS) or name.endswith("-en") or "-en-" in name:
        return language == "en"
    return None


def language_warnings(language: str, embedding_model: str) -> list[str]:
    """Ingest notices for a document in ``language`` that the embedding model or the BM25
    analyser is not made for (empty for English or an unknown language)."""
    if not language or language == "en":
        return []
    out = []
    if model_reads(embedding_model, language) is False:
        out.append(
            f"language '{language}' detected, but the embedding model {embedding_model} is trained on "
            "English: semantic search will be weak (use a multilingual embedding_model)"
        )
    if language not in ANALYSER_LANGUAGES:
        out.append(
            f"language '{language}' detected: keyword search folds case and accents but has no stemming "
            "or stopwords for it (the BM25 analyser stems English and the Snowball languages)"
        )
    return out


def tag_language(chunks: list, markdown: str) -> str:
    """Detect the language of a document's ``markdown`` (:func:`detect_language`) and, when keyword
    search analyses it in its own language (:func:`~docstrata.index.keyword.stemmed_language`:
    German, French, … — not English), record it on each of its ``chunks`` as ``metadata["language"]``
    for the stores' BM25 analysis. Returns the analysis language (``"en"`` when nothing was tagged)."""
    language = stemmed_language(detect_language(markdown))
    if language != "en":
        for c in chunks:
            c.metadata["language"] = language
    return language


def document_entry(
    tree: DocumentTree, *, file_type: str, total_chunks: int, markdown: str, embedding_model: str
) -> DocumentEntry:
    """The entry of one ingested document (see the module docstring)."""
    language = detect_language(markdown)
    top_level = min((s.level for s in tree.sections), default=1)
    tops = [{"section_id": s.section_id, "title": s.title} for s in tree.sections if s.level == top_level]
    if len(tops) == 1:  # a document with one title heading: its children are the top-level sections
        root = tops[0]["section_id"]
        children = [{"section_id": s.section_id, "title": s.title} for s in tree.sections if s.parent_id == root]
        tops = children or tops
    return DocumentEntry(
        doc_key=tree.doc_key,
        title=tree.title,
        summary=summarize(tree),
        language=language,
        file_type=file_type,
        section_count=len(tree.sections),
        top_sections=tops[:50],
        total_chunks=total_chunks,
        ingested_at=now_utc(),
        warnings=language_warnings(language, embedding_model),
        names=document_names(tree, tree.doc_key, markdown),
    )


def derived_entry(doc_key: str, chunks: list) -> DocumentEntry:
    """The entry of a document indexed before entries existed, derived from its stored ``chunks``
    (in document order): title, file type, section count, chunk count and its top-level sections
    (at most 50); no summary, language or time."""
    from pathlib import Path

    title = next((c.document_title for c in chunks if c.document_title), Path(doc_key).name)
    sections = list(dict.fromkeys(c.section_id for c in chunks if c.section_id))
    top = min((c.heading_level for c in chunks if c.section_id), default=1)
    tops = list(
        dict.fromkeys(
            (c.section_id, c.parent_chain[-1] if c.parent_chain else c.section_id)
            for c in chunks
            if c.section_id and c.heading_level == top
        )
    )
    return DocumentEntry(
        doc_key=doc_key,
        title=title,
        file_type=Path(doc_key).suffix.lstrip(".").lower(),
        section_count=len(sections),
        total_chunks=len(chunks),
        top_sections=[{"section_id": a, "title": b} for a, b in tops[:50]],
    )


def ingested_entry(
    tree: DocumentTree, document, total_chunks: int, embedding_model: str
) -> tuple[DocumentEntry, list[str]]:
    """The entry of a document just ingested (:func:`document_entry`), its warnings joined with the
    converter's (``document.warnings``), and the warnings that are new (not the converter's)."""
    entry = document_entry(
        tree,
        file_type=document.format,
        total_chunks=total_chunks,
        markdown=document.markdown,
        embedding_model=embedding_model,
    )
    entry.warnings = list(dict.fromkeys([*entry.warnings, *document.warnings]))
    return entry, [w for w in entry.warnings if w not in document.warnings]
