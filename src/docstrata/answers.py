"""Answers within a size budget: what the MCP server (and the CLI) send to an agent (DESIGN §7b).

A search answer lists each definition once (hits name the terms they use), and fits
``max_chars`` characters in *both* its forms, the text and the JSON: when the hits do not fit
whole, every passage is cut to the same share, keeping the part around the first query word
(a pinned hit keeps its beginning), and says where the rest is. Pages of a section or record
come from the tools themselves (``max_chars`` + ``cursor``).

Each ``render_*`` function returns ``(text, data)``: the text for people and agents, and the
JSON-ready mapping the MCP tool's output schema describes.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .index.keyword import QUERY_STOPWORDS
from .models import DocumentEntry, RecordResult, SearchResult, SearchResults, SectionPage

DEFAULT_SEARCH_CHARS = 12_000
SEPARATOR = "\n\n---\n\n"
_CAPS = (None, 6000, 4000, 3000, 2400, 2000, 1600, 1300, 1100, 900, 750, 600, 500, 400, 300, 240, 180, 120)
_DEF_CAPS = (None, 600, 300, 150)


def _query_words(query: str) -> list[str]:
    return [w for w in re.findall(r"\w{3,}", query.casefold()) if w not in QUERY_STOPWORDS]


def excerpt(content: str, query: str, cap: int | None, from_start: bool = False) -> tuple[str, bool]:
    """``content`` cut to at most ``cap`` characters (``None`` = whole): the window that starts a
    little before the first query word (or at the start), cut at word boundaries, with ``…`` at
    a cut end. Returns (text, cut)."""
    text = content.strip()
    if cap is None or len(text) <= cap:
        return text, False
    start = 0
    if not from_start:
        low = text.casefold()
        hits = [m.start() for w in _query_words(query) for m in [re.search(rf"\b{re.escape(w)}", low)] if m]
        if hits:
            start = max(0, min(hits) - cap // 5)
            if start:
                brk = max(text.rfind("\n", 0, start + 1), text.rfind(". ", 0, start + 1))
                start = brk + 1 if brk >= 0 and start - brk < cap // 3 else text.find(" ", start) + 1
    start = min(start, max(0, len(text) - cap))
    end = start + cap - 2
    if end < len(text):
        space = text.rfind(" ", start + cap // 2, end)
        end = space if space > 0 else end
    out = text[start:end].strip()
    return ("… " if start > 0 else "") + out + (" …" if end < len(text) else ""), True


def _definition_rows(results: SearchResults, cap: int | None, shown: dict[str, str]) -> list[dict[str, Any]]:
    """The answer's definitions, each once; one whose text a shown passage already holds (its
    own passage, or one quoting it; ``shown``: chunk id → passage as shown) points to that passage
    instead of repeating it."""
    rows: list[dict[str, Any]] = []
    same: dict[tuple[str, str], dict[str, Any]] = {}
    for d in results.definitions:
        text = " ".join(d.definition.split())
        twin = same.get((d.term.casefold(), text))
        if twin is not None:  # the same definition in another document (a shared template): listed once
            twin.setdefault("also_in", []).append(d.doc_key)
            continue
        holder = next((cid for cid, content in shown.items() if text[:120] in " ".join(content.split())), None)
        shown_text = f"(stated in passage {holder} above)" if holder else text
        if not holder and cap is not None and len(text) > cap:
            shown_text = text[:cap].rsplit(" ", 1)[0] + " …"
        row = {"term": d.term, "definition": shown_text, "document": d.doc_key, "section_id": d.section_id}
        same[(d.term.casefold(), text)] = row
        rows.append(row)
    return rows


def _read_more(tool: str, r) -> str:
    if isinstance(r, RecordResult):
        return f"{tool}_get_record(id='{r.id}')"
    return f"{tool}_get_neighbours(chunk_id='{r.chunk_id}', before=0, after=0)"


# Left out of a hit's JSON when empty, false or null (the output schema gives these defaults):
# compact answers for agents, not a different meaning.
_OPTIONAL = ("rerank_score", "semantic_score", "keyword_score", "exact_match", "pinned", "truncated",
             "cross_references", "definitions", "chunk_type", "document_title")


def compact(hit: dict[str, Any]) -> dict[str, Any]:
    """``hit`` without the optional fields (:data:`_OPTIONAL`) that hold their default, scores
    rounded to 6 decimals."""
    return {k: round(v, 6) if isinstance(v, float) else v for k, v in hit.items()
            if not (k in _OPTIONAL and (v is None or v is False or v == [] or (k == "chunk_type" and v == "content")))}


def _hit_data(r, content: str, cut: bool) -> dict[str, Any]:
    d = r.to_dict()
    d.pop("contextualized_content", None)
    d.pop("parent_chain", None)  # the same titles as "location"
    defs = d.pop("definitions_context", None)
    if defs is not None:
        d["definitions"] = list(defs)
    d["content"] = content
    d["truncated"] = cut
    d["content_chars"] = len(r.content.strip()) if not r.truncated else r.content_chars
    for key in ("semantic_rank", "keyword_rank", "exact_rank", "next_cursor"):
        d.pop(key, None)
    return d


def _confidence_line(results: SearchResults) -> str:
    c = results.confidence
    return f"Confidence: {c.level} ({c.reason})"


def _render(results: SearchResults, query: str, tool: str, cap: int | None, def_cap: int | None):
    hits, blocks, shown = [], [], {}
    for r in results:
        content, cut = excerpt(r.content, query, cap, from_start=r.pinned)
        data = _hit_data(r, content, cut)
        hits.append(compact(data))
        shown[r.chunk_id] = content
        block = r.format(definitions=False) if isinstance(r, SearchResult) else r.format()
        block = block.replace(r.content.strip(), content, 1)
        if cut:
            block = block.replace(content, content + f"\n[cut to {len(content)} of {data['content_chars']} characters; "
                                                     f"whole: {_read_more(tool, r)}]", 1)
        blocks.append(block)
    defs = _definition_rows(results, def_cap, shown)
    head = _confidence_line(results)
    if results.notices:
        head += "\n" + "\n".join(f"Note: {n}" for n in results.notices)
    kind = "passages" if not results or isinstance(results[0], SearchResult) else "records"
    text = head + "\n\n" + (SEPARATOR.join(blocks) if blocks else f"No {kind} found for {query!r}.")
    if defs:
        text += "\n\n---\n\nDefinitions (each once; hits name the terms they use):\n" + "\n".join(
            f"- {d['term']} ({d['document']}" + (f", section {d['section_id']}" if d["section_id"] else "")
            + (f"; also {', '.join(d['also_in'])}" if d.get("also_in") else "") + f"): {d['definition']}"
            for d in defs)
    data = {"results": hits, "definitions": defs, "confidence": results.confidence.to_dict(),
            "notices": list(results.notices), "truncated": any(h.get("truncated") for h in hits)}
    return text, data


def render_search(results: SearchResults, query: str, tool: str,
                  max_chars: int = DEFAULT_SEARCH_CHARS) -> tuple[str, dict[str, Any]]:
    """The answer to one search within ``max_chars`` characters (text and compact JSON each):
    the same hits in the same order, passages cut to a common share when needed, definitions once."""
    best = None
    for def_cap in _DEF_CAPS:
        for cap in _CAPS:
            text, data = _render(results, query, tool, cap, def_cap)
            size = max(len(text), len(json.dumps(data, ensure_ascii=False, separators=(",", ":"))))
            best = (text, data)
            if size <= max_chars:
                return best
    return best


def render_section(page: SectionPage, tool: str) -> tuple[str, dict[str, Any]]:
    """A page of a section: text with a "how to read on" line when cut, and its JSON."""
    hint = f" (with document='{page.document}'" + (f", section_id='{page.section_id}')" if page.section_id else ")")
    return page.format(cursor_hint=hint), page.to_dict()


def render_neighbours(chunks, max_chars: int) -> tuple[str, dict[str, Any]]:
    """Consecutive chunks of one document, cut at ``max_chars`` characters of content in all."""
    out, blocks, left, cut = [], [], max_chars, False
    for c in chunks:
        text = c.content.strip()
        if left <= 0:
            cut = True
            break
        if len(text) > left:
            text, cut = text[:left].rsplit(" ", 1)[0] + " …", True
        left -= len(text)
        loc = " > ".join(c.parent_chain)
        out.append({"chunk_id": c.chunk_id, "section_id": c.section_id, "location": loc, "content": text})
        blocks.append(f"Chunk: {c.chunk_id}\nLocation: {loc}\nSection: {c.section_id}\n\n{text}")
    doc = chunks[0].doc_key if chunks else ""
    text = f"Source: {doc}\n\n" + SEPARATOR.join(blocks)
    if cut:
        text += f"\n\n[cut at max_chars={max_chars}; ask for fewer chunks or a larger max_chars]"
    return text, {"document": doc, "chunks": out, "truncated": cut}


def render_documents(entries: list[DocumentEntry], offset: int, limit: int) -> tuple[str, dict[str, Any]]:
    """One page of document entries (``offset``, ``limit``), each with at most 12 top-level sections."""
    page = entries[offset:offset + limit]
    rows = []
    for e in page:
        d = e.to_dict()
        d["top_sections_total"] = len(e.top_sections)
        d["top_sections"] = e.top_sections[:12]
        rows.append(d)
    nxt = offset + limit if offset + limit < len(entries) else None
    text = f"{len(entries)} document(s)" + (f"; showing {offset + 1}-{offset + len(page)}" if nxt or offset else "")
    text += "\n\n" + "\n\n".join(DocumentEntry.from_dict(r).format() for r in rows)
    if nxt is not None:
        text += f"\n\n[more: call again with offset={nxt}]"
    return text, {"documents": rows, "total": len(entries), "next_offset": nxt}


def render_record(record: RecordResult) -> tuple[str, dict[str, Any]]:
    """A fetched record (one page of it when ``next_cursor`` is set): its text and JSON."""
    d = record.to_dict()
    return record.format(), d
