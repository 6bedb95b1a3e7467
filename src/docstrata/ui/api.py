"""The playground's view of the tools API: plain dicts (JSON-ready) for the page.

This is the one seam between the page and the tools: every call goes through a configured
tool's own ``search`` / ``get_section`` / ``get_definition`` and its store's read methods, on
the index the process already has open (no second index). Filters (document, section, record
fields) and thresholds go to ``search`` itself, which applies them inside the store before ranking.

Shapes (every score is the tool's own; ranks start at 1):

* :func:`documents` → ``[DocumentEntry fields (doc_key, title, summary, language, file_type,
  section_count, top_sections, total_chunks, ingested_at, warnings) + definitions]``
* :func:`document_view` → ``{doc_key, title, sections: [{section_id, title, level, parent_id,
  tokens, chunks: [{chunk_id, ordinal, tokens, chunk_type}]}], definitions, cross_references}``
* :func:`search_view` → ``{query, settings, elapsed_ms, confidence, notices, results: [{rank, chunk_id, fused_score,
  pinned, modalities: {semantic|keyword|exact|rerank: {rank, score, weight, contribution}}, citation,
  content, highlights: [[start, end, "term"|"exact"]], definitions, cross_references, pinpoint}]}``;
  ``pinpoint`` is ``null`` unless the query cites a sub-item of the hit's chunk (``Art. 17(3)(b)``):
  then ``{section_id, start, end, text, lead, line, view, view_highlights}`` — the item's
  characters ``start``–``end`` of ``content``, the lead-in lines of its enclosing items, the
  ``Pinpoint:`` line the CLI and MCP print, and the hit as they show it (``view``: lead-in, item,
  ``…`` where the rest of the chunk is left out) with its own highlight spans
* :func:`compare_view` → ``{a, b, changes: {chunk_id: {rank_a, rank_b}}}``
* :func:`eval_view` → ``{query_set, queries, settings: [{label, metrics: {ndcg@10, recall@k}}]}``
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from pathlib import Path

from ..highlight import QueryTerms, highlight_spans, query_terms
from ..models import RecordResult, pinpoint_line
from ..search import MODES, QueryError

_WEIGHT_KEYS = ("semantic_weight", "keyword_weight", "exact_weight")


# --------------------------------------------------------------------------- settings
@dataclasses.dataclass
class Settings:
    """One search setting of the page: mode, depth, fusion weights, rerank on/off, filters, thresholds.

    ``None`` keeps the tool's configured value. ``document`` (doc_key, file name or stem),
    ``section`` (a section-id prefix such as ``4`` or ``article-17``) and ``filters`` (record
    fields: the API's mapping, or expressions such as ``"price<50; city=Lyon,Berlin"``, see
    :mod:`docstrata.filter_syntax`) narrow the search inside the store. ``min_score`` is the
    cosine threshold (HoloDeck's ``min_similarity_score``), ``min_fused_score`` the RRF one.
    """

    mode: str | None = None
    top_k: int | None = None
    semantic_weight: float | None = None
    keyword_weight: float | None = None
    exact_weight: float | None = None
    rrf_k: int | None = None
    rerank: bool | None = None
    document: str | None = None
    section: str | None = None
    filters: dict | None = None
    min_score: float | None = None
    min_fused_score: float | None = None

    @classmethod
    def from_dict(cls, d: dict | None) -> "Settings":
        """Settings from the page's JSON; raises :class:`QueryError` naming a bad field."""
        d = dict(d or {})
        out = cls()
        for f in dataclasses.fields(cls):
            v = d.get(f.name)
            if v in (None, ""):
                continue
            try:
                if f.name == "filters":
                    v = _filters(v)
                elif f.name in (*_WEIGHT_KEYS, "min_score", "min_fused_score"):
                    v = float(v)
                    if not v >= 0 or (f.name == "min_score" and v > 1):
                        raise ValueError
                elif f.name in ("top_k", "rrf_k"):
                    v = int(v)
                    if v < 1 or (f.name == "top_k" and v > 100):
                        raise ValueError
                elif f.name == "rerank":
                    v = bool(v)
                elif f.name == "mode":
                    if v not in MODES:
                        raise ValueError
                else:
                    v = str(v).strip() or None
            except (TypeError, ValueError):
                raise QueryError(f"bad {f.name}: {d.get(f.name)!r}") from None
            setattr(out, f.name, v)
        return out


def _filters(v) -> dict | None:
    """The page's filter box (``"price<50; city=Lyon"``) or a mapping, as the API's ``filters``."""
    if isinstance(v, dict):
        return v or None
    if not isinstance(v, str):
        raise QueryError(f"bad filters: {v!r} (a mapping, or expressions such as 'price<50; city=Lyon')")
    from ..filter_syntax import parse_filter_expressions

    return parse_filter_expressions([e for e in v.split(";") if e.strip()], option="filter") or None


def resolved(tool, s: Settings) -> dict:
    """The settings a search with ``s`` actually uses (tool defaults filled in)."""
    c = tool.cfg
    return {
        "mode": s.mode or getattr(c, "search_mode", "hybrid"),
        "top_k": s.top_k or c.top_k,
        **{k: (getattr(s, k) if getattr(s, k) is not None else getattr(c, k)) for k in _WEIGHT_KEYS},
        "rrf_k": s.rrf_k or c.rrf_k,
        "rerank": bool(getattr(c, "enable_reranking", False)) if s.rerank is None else s.rerank,
        "document": s.document,
        "section": s.section,
        "filters": s.filters,
        "min_score": s.min_score,
        "min_fused_score": s.min_fused_score,
    }


def _tool_with(tool, s: Settings):
    """``tool`` itself, or a twin with other fusion / rerank settings over the same store and model."""
    c = tool.cfg
    update = {k: getattr(s, k) for k in (*_WEIGHT_KEYS, "rrf_k") if getattr(s, k) is not None}
    if s.rerank is False and getattr(c, "enable_reranking", False):
        update.update(enable_reranking=False, reranker_model=None)
    if s.rerank and not getattr(c, "enable_reranking", False):
        raise QueryError(f"tool '{tool.name}' has no reranker configured (enable_reranking, reranker_model)")
    if not update:
        return tool
    if sum(update.get(k, getattr(c, k)) for k in _WEIGHT_KEYS) <= 0:
        raise QueryError("the semantic, keyword and exact weights are all 0: nothing would be searched")
    return tool.variant(**update)


# --------------------------------------------------------------------------- documents
def _entry(x) -> dict:
    if dataclasses.is_dataclass(x):
        return dataclasses.asdict(x)
    return dict(x) if isinstance(x, dict) else dict(vars(x))


def documents(tool) -> list[dict]:
    """The tool's document entries (:meth:`list_documents`), each with its count of definitions."""
    records = tool.cfg.type == "vectorstore"
    return [
        {**e.to_dict(), "definitions": 0 if records else len(tool.store.definitions(doc_key=e.doc_key))}
        for e in tool.list_documents()
    ]


def _sections(chunks) -> dict[str, dict]:
    """The section tree as the index holds it, rebuilt from the chunks' section ids, ancestors
    and parent chains, in document order."""
    sections: dict[str, dict] = {}
    for c in chunks:
        chain = list(reversed(c.metadata.get("ancestors", []))) + [c.section_id]
        titles = c.parent_chain if len(c.parent_chain) == len(chain) else [""] * (len(chain) - 1) + [c.section_title]
        for depth, (sid, title) in enumerate(zip(chain, titles)):
            if sid not in sections:
                sections[sid] = {
                    "section_id": sid,
                    "title": title or sid,
                    "level": depth + 1,
                    "parent_id": chain[depth - 1] if depth else None,
                    "tokens": 0,
                    "chunks": [],
                }
        s = sections[c.section_id]
        s["level"] = c.heading_level or s["level"]
        s["tokens"] += c.token_count
        s["chunks"].append(
            {
                "chunk_id": c.chunk_id,
                "ordinal": c.ordinal,
                "tokens": c.token_count,
                "chunk_type": c.chunk_type,
                "holds": c.metadata.get("sections", [c.section_id]),
            }
        )
    return sections


def _xref(x, doc_key: str) -> dict:
    d = _entry(x)
    target_doc = d.get("target_document") or doc_key
    sid = d.get("target_section_id", d.get("section_id"))
    return {
        "text": d.get("text", ""),
        "target": d.get("target", ""),
        "document": target_doc if sid else d.get("target_document"),
        "section_id": sid,
        "resolved": bool(sid),
    }


def _grouped(rows: list[dict], *same: str) -> list[dict]:
    """Rows of one reference written once (``Articles 12 to 22``, the same ``text`` and ``same``
    fields, one after another) as one row: the first member's fields, and ``members`` (each
    ``{target, document, section_id, resolved}``) when it names several sections."""
    out: list[dict] = []
    for row in rows:
        last = out[-1] if out else None
        members = (last.get("members") or [last]) if last is not None else []
        if (
            last is not None
            and all(last.get(k) == row.get(k) for k in ("text", *same))
            and all(m.get("target") != row.get("target") for m in members)
        ):  # a repeat is another mention
            if "members" not in last:
                last["members"] = [{k: last[k] for k in ("target", "document", "section_id", "resolved")}]
            last["members"].append({k: row[k] for k in ("target", "document", "section_id", "resolved")})
            continue
        out.append(dict(row))
    return out


def cited_by_view(tool, document: str, section_id: str, limit: int = 50) -> dict:
    """The sections citing ``section_id`` of ``document`` (:meth:`~docstrata.tools.HierarchicalDocumentTool.cited_by`):
    ``{document, section_id, total, citers: [{document, section_id, chunk_id, location, references,
    cites, excerpt}]}``, the first ``limit`` of them."""
    from ..search import QueryError

    try:
        return tool.cited_by(document, section_id, limit=limit).to_dict()
    except (AttributeError, QueryError):  # a record tool, or an id the citation look-up does not read
        return {"document": document, "section_id": section_id, "total": 0, "citers": []}


def document_view(tool, document: str) -> dict:
    """A document's section tree, chunks, definitions and cross-references (resolved or not)."""
    doc_key = tool.resolve_document(document)  # doc key, file name, stem or path suffix, as get_section takes
    chunks = tool.store.document_chunks(doc_key)
    xrefs = _grouped(
        [
            {"from_section": c.section_id, "chunk_id": c.chunk_id, **_xref(x, doc_key)}
            for c in chunks
            for x in c.cross_references
        ],
        "from_section",
        "chunk_id",
    )
    defs = [
        {"term": d.term, "definition": d.definition, "section_id": d.section_id, "chunk_id": d.chunk_id}
        for d in tool.store.definitions(doc_key=doc_key)
    ]
    return {
        "doc_key": doc_key,
        "title": (chunks[0].document_title if chunks else "") or Path(doc_key).stem,
        "sections": list(_sections(chunks).values()),
        "definitions": defs,
        "cross_references": xrefs,
        "chunks": len(chunks),
        "tokens": sum(c.token_count for c in chunks),
    }


def section_view(tool, document: str, section_id: str | None = None) -> dict:
    """One section with its subsections (or, without ``section_id``, the whole document):
    citation, text and the chunks it spans, whole (the page has room; the API's ``max_chars``
    budget is for agents). Raises :class:`QueryError` for an unknown document or section."""
    page = tool.get_section(document, section_id or None, max_chars=None)
    chunks = list(page.chunks)
    return {
        "document": page.document,
        "document_title": chunks[0].document_title if chunks else "",
        "section_id": page.section_id,
        "title": page.title,
        "parent_chain": page.location.split(" > ") if page.location else [],
        "content": page.content,
        "chunk_ids": list(page.chunk_ids),
        "cross_references": _grouped([_xref(x, page.document) for c in chunks for x in c.cross_references]),
        "cited_by": cited_by_view(tool, page.document, page.section_id) if section_id else None,
    }


# --------------------------------------------------------------------------- search
def _search(tool, query: str, s: Settings):
    """``tool.search`` under settings ``s``: filters and thresholds go to the API (applied in the store)."""
    t = _tool_with(tool, s)
    kw = {
        "top_k": s.top_k,
        "mode": s.mode,
        "document": s.document,
        "filters": s.filters,
        "min_similarity_score": s.min_score,
        "min_fused_score": s.min_fused_score,
    }
    if s.section:
        kw["section"] = s.section
    return t, t.search(query, **kw)


def _pinpoint(pin, content: str, terms: QueryTerms, aliases: list[str]) -> dict | None:
    """The sub-item of the hit the query cites, as the page shows it (see the module docstring);
    ``None`` when the query cites none."""
    if pin is None:
        return None
    view = pin.view(content)[0]
    return {
        "section_id": pin.section_id,
        "start": pin.start,
        "end": pin.end,
        "text": pin.text,
        "lead": list(pin.lead),
        "line": pinpoint_line(pin, content),
        "view": view,
        "view_highlights": highlight_spans(terms, view, aliases),
    }


def _result(r, rank: int, t, mode: str, pinned: set[str], terms: QueryTerms, chunk) -> dict:
    c = t.cfg
    weights = {"semantic": c.semantic_weight, "keyword": c.keyword_weight, "exact": c.exact_weight}
    records = isinstance(r, RecordResult)
    cid = r.id if records else r.chunk_id
    mod: dict[str, dict] = {}
    ranks = {
        "semantic": getattr(r, "semantic_rank", None),
        "keyword": getattr(r, "keyword_rank", None),
        "exact": getattr(r, "exact_rank", None),
    }
    raw = {"semantic": r.semantic_score, "keyword": r.keyword_score, "exact": 1.0 if r.exact_match else None}
    for m in ("semantic", "keyword", "exact"):
        w = weights[m] if mode == "hybrid" else (1.0 if m == mode else 0.0)
        rk = ranks[m]
        mod[m] = {
            "rank": rk,
            "score": raw[m] if (rk is not None or records) else None,
            "weight": w,
            "contribution": (w / (c.rrf_k + rk)) if rk is not None and w else 0.0,
        }
    if getattr(r, "rerank_score", None) is not None:
        mod["rerank"] = {"rank": None, "score": r.rerank_score, "weight": None, "contribution": None}
    xrefs = getattr(r, "cross_references", None)
    if xrefs is None:
        xrefs = chunk.cross_references if chunk is not None else []
    doc = getattr(r, "source_path", None) or r.source_file
    aliases = chunk.aliases if chunk is not None else []
    return {
        "rank": rank,
        "chunk_id": cid,
        "fused_score": r.fused_score if not records else r.score,
        "pinned": cid in pinned,
        "chunk_type": getattr(r, "chunk_type", "record"),
        "modalities": mod,
        "citation": {
            "document": doc,
            "document_title": getattr(r, "document_title", ""),
            "parent_chain": list(getattr(r, "parent_chain", [])),
            "section_id": getattr(r, "section_id", ""),
            "location": getattr(r, "location", ""),
            "pages": getattr(r, "pages", ""),
        },
        "content": r.content,
        "highlights": highlight_spans(terms, r.content, aliases),
        "pinpoint": _pinpoint(getattr(r, "pinpoint", None), r.content, terms, aliases),
        "definitions": [{"term": k, "definition": v} for k, v in getattr(r, "definitions_context", {}).items()],
        "cross_references": _grouped([_xref(x, doc) for x in xrefs]),
        "metadata": getattr(r, "metadata", {}) if records else {},
    }


def search_view(tool, query: str, settings: Settings | None = None) -> dict:
    """Search ``tool`` and explain every hit: per-modality rank, raw score, weight and RRF contribution."""
    s = settings or Settings()
    rs = resolved(tool, s)
    t0 = time.perf_counter()
    t, results = _search(tool, query, s)
    elapsed = time.perf_counter() - t0
    pinned = {r.id for r in results if r.pinned}
    chunks = {}
    if results and not isinstance(results[0], RecordResult):
        chunks = {c.chunk_id: c for c in tool.store.get_chunks([r.chunk_id for r in results])}
    terms = query_terms(query)
    out = [
        _result(r, i, t, rs["mode"], pinned, terms, chunks.get(getattr(r, "chunk_id", None)))
        for i, r in enumerate(results, 1)
    ]
    return {
        "query": query,
        "tool": tool.name,
        "settings": rs,
        "elapsed_ms": round(elapsed * 1000, 2),
        "results": out,
        "confidence": results.confidence.to_dict(),
        "notices": list(results.notices),
    }


def compare_view(tool, query: str, a: Settings, b: Settings) -> dict:
    """The same query under settings ``a`` and ``b``, with each hit's rank in both lists."""
    va, vb = search_view(tool, query, a), search_view(tool, query, b)
    ra = {r["chunk_id"]: r["rank"] for r in va["results"]}
    rb = {r["chunk_id"]: r["rank"] for r in vb["results"]}
    changes = {cid: {"rank_a": ra.get(cid), "rank_b": rb.get(cid)} for cid in dict.fromkeys([*ra, *rb])}
    return {"query": query, "a": va, "b": vb, "changes": changes}


# --------------------------------------------------------------------------- evaluation
def eval_view(
    tool, queries_text: str, qrels_text: str | None, settings: list[tuple[str, Settings]], k: int = 10, limit: int = 500
) -> dict:
    """nDCG@10 and Recall@k per setting over a query set given as text (the ``docstrata eval``
    inputs: BEIR queries.jsonl + qrels .tsv, an Anthropic evaluation_set.jsonl, or ObliQA json),
    judged as ``docstrata eval`` judges (binary relevance). Computed here rather than with ranx,
    whose first call compiles for a minute or more: :func:`ranking_metrics` (checked against
    ranx in tests/test_ui.py). Raises :class:`~docstrata.errors.ConfigError` for a file it cannot read."""
    from ..eval import load_query_set

    with tempfile.TemporaryDirectory() as tmp:
        qpath = Path(tmp) / "queries.jsonl"
        qpath.write_text(queries_text, encoding="utf-8")
        rpath = None
        if qrels_text:
            rpath = Path(tmp) / "qrels.tsv"
            rpath.write_text(qrels_text, encoding="utf-8")
        qs = load_query_set(qpath, rpath, limit)
    queries = [q for q in qs.queries if q.gold]
    if not queries:
        raise QueryError("the query set has no query with a judged passage")
    rows = []
    for label, s in settings:
        t = _tool_with(tool, s)
        mode = resolved(tool, s)["mode"]
        t0 = time.perf_counter()
        per_query = []
        for q in queries:
            judged: list[str] = []  # gold ids in rank order, '' for a hit that is not gold
            for hit in t.search(q.text, top_k=max(k, 10), mode=mode):
                found = [g for g in qs.judge(q, hit) if g in q.gold and g not in judged]
                judged.append(found[0] if found else "")
            per_query.append(ranking_metrics(judged, q.gold, k))
        n = len(per_query)
        rows.append(
            {
                "label": label,
                "settings": resolved(tool, s),
                "metrics": {m: sum(p[m] for p in per_query) / n for m in per_query[0]},
                "seconds": round(time.perf_counter() - t0, 2),
            }
        )
    return {"query_set": qs.name, "queries": len(queries), "k": k, "settings": rows}


def ranking_metrics(judged: list[str], gold: set[str], k: int) -> dict[str, float]:
    """nDCG@10 and Recall@k of one ranked list with binary relevance.

    ``judged[i]`` is the gold id the hit at rank ``i + 1`` matches, or ``""``. nDCG@10 =
    Σ_{rank ≤ 10, relevant} 1 / log2(rank + 1), divided by the same sum for the ideal list
    (Järvelin & Kekäläinen 2002, ranx's default); Recall@k = relevant hits in the top k / |gold|."""
    import math

    dcg = sum(1 / math.log2(i + 2) for i, g in enumerate(judged[:10]) if g)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(gold), 10)))
    return {
        "ndcg@10": dcg / ideal if ideal else 0.0,
        f"recall@{k}": len({g for g in judged[:k] if g}) / len(gold) if gold else 0.0,
    }


def tool_info(tool) -> dict:
    """What the page needs to build its forms: name, type, description and the configured defaults."""
    c = tool.cfg
    return {
        "name": tool.name,
        "type": c.type,
        "description": c.description,
        "defaults": {
            "mode": getattr(c, "search_mode", "hybrid"),
            "top_k": c.top_k,
            "rrf_k": c.rrf_k,
            **{k: getattr(c, k) for k in _WEIGHT_KEYS},
            "rerank": bool(getattr(c, "enable_reranking", False)),
        },
        "can_rerank": bool(getattr(c, "enable_reranking", False)),
        "meta_fields": list(getattr(c, "meta_fields", None) or []) if c.type == "vectorstore" else [],
    }
