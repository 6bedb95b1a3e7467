"""Answers within a size budget: what the MCP server (and the CLI) send to an agent (DESIGN §7b).

A search answer lists each definition once (hits name the terms they use), and fits
``max_chars`` characters in *both* its forms, the text and the JSON: when the hits do not fit
whole, every passage is cut to the same share, keeping the part around the first query word
(a pinned hit keeps its beginning; a pinpointed one shows the sub-item the query cites), and says
where the rest is. Pages of a section or record
come from the tools themselves (``max_chars`` + ``cursor``).

Each ``render_*`` function returns ``(text, data)``: the text for people and agents, and the
JSON-ready mapping the MCP tool's output schema describes.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from .escaping import escape_terminal, one_line
from .index.keyword import QUERY_STOPWORDS
from .models import (
    PAGE_FIELDS,
    DocumentEntry,
    RecordResult,
    SearchResult,
    SearchResults,
    SectionPage,
    page_citation,
    page_fields,
    reference_lines,
)

DEFAULT_SEARCH_CHARS = 12_000
SEPARATOR = "\n\n---\n\n"
_CAPS = (None, 6000, 4000, 3000, 2400, 2000, 1600, 1300, 1100, 900, 750, 600, 500, 400, 300, 240, 180, 120, 60)
_DEF_CAPS = (None, 600, 300, 150)


def _query_words(query: str) -> list[str]:
    return [w for w in re.findall(r"\w{3,}", query.casefold()) if w not in QUERY_STOPWORDS]


def _densest_start(text: str, words: list[str], cap: int) -> int | None:
    """Where the ``cap``-character window holding the most query-word matches starts (distinct
    words first, then all matches; the earliest such window), or ``None`` with no match."""
    low = text.casefold()
    hits = sorted((m.start(), w) for w in set(words) for m in re.finditer(rf"\b{re.escape(w)}", low))
    if not hits:
        return None
    best, best_key, j = hits[0][0], (-1, -1), 0
    for i, (pos, _) in enumerate(hits):  # windows that begin at a match
        j = max(j, i)
        while j + 1 < len(hits) and hits[j + 1][0] < pos + cap * 4 // 5:
            j += 1
        inside = hits[i : j + 1]
        key = (len({w for _, w in inside}), len(inside))
        if key > best_key:
            best, best_key = pos, key
    return best


def excerpt(
    content: str,
    query: str,
    cap: int | None,
    from_start: bool = False,
    at: int | None = None,
    around: int | None = None,
) -> tuple[str, bool]:
    """``content`` cut to at most ``cap`` characters (``None`` = whole): the window that holds the
    most query words (distinct words first), starting a little before them (or at the start with
    ``from_start``, or at character ``at`` of ``content``: a pinpointed item's lines), cut at word
    boundaries, with ``…`` at a cut end. ``around``: where the passage to show starts in the
    stripped content (the hit's answer passage or best sentence, which the search located by words
    and meaning), instead of the densest window of query words. Returns (text, cut)."""
    text = content.strip()
    if cap is None or len(text) <= cap:
        return text, False
    start = 0
    if at is not None:
        start = max(0, at - (len(content) - len(content.lstrip())))
    elif not from_start:
        found = around if around is not None else _densest_start(text, _query_words(query), cap)
        if found:
            start = max(0, found - cap // 5)
            if start:
                brk = max(text.rfind("\n", 0, start + 1), text.rfind(". ", 0, start + 1))
                start = brk + 1 if brk >= 0 and start - brk < cap // 3 else text.find(" ", start) + 1
    if at is None:  # a pinpoint's lines start the excerpt even near the end; else fill the window
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
            shown_text = (
                (text[:cap].rsplit(" ", 1)[0] + " …") if cap else "(left out for size; get_definition gives it)"
            )
        row = {
            "term": d.term,
            "definition": shown_text,
            "document": d.doc_key,
            "section_id": d.section_id,
            **({"scope": d.scope, "applies_in": d.applies_in} if getattr(d, "scope", None) else {}),
            **_pages_of(d),
        }
        same[(d.term.casefold(), text)] = row
        rows.append(row)
    return rows


def _pages_of(item) -> dict[str, Any]:
    """The page fields of ``item`` (:data:`~docstrata.models.PAGE_FIELDS`) that are set: none for
    an unpaged source, so its answers carry no nulls."""
    return {k: v for k, v in page_fields(item).items() if v is not None}


def _read_more(tool: str, r) -> str:
    if isinstance(r, RecordResult):
        return f"{tool}_get_record(id='{one_line(r.id)}')"
    return f"{tool}_get_neighbours(chunk_id='{one_line(r.chunk_id)}', before=0, after=0)"


# Left out of a hit's JSON when empty, false or null (the output schema gives these defaults):
# compact answers for agents, not a different meaning.
_OPTIONAL = (
    "rerank_score",
    "semantic_score",
    "keyword_score",
    "exact_match",
    "pinned",
    "truncated",
    "pinpoint",
    "cross_references",
    "definitions",
    "chunk_type",
    "document_title",
    "cited_by",
    "cited_by_total",
    "passage",
    "answer_passage",
    *PAGE_FIELDS,
)


def compact(hit: dict[str, Any]) -> dict[str, Any]:
    """``hit`` without the optional fields (:data:`_OPTIONAL`) that hold their default, scores
    rounded to 6 decimals."""
    return {
        k: round(v, 6) if isinstance(v, float) else v
        for k, v in hit.items()
        if not (k in _OPTIONAL and (v is None or v is False or v == [] or (k == "chunk_type" and v == "content")))
    }


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
    for key in ("semantic_rank", "keyword_rank", "exact_rank", "next_cursor", "pinpoint", "is_passage"):
        d.pop(key, None)
    if d.get("passage"):  # its section is the hit's section_id: the characters only
        d["passage"] = {"start": d["passage"]["start"], "end": d["passage"]["end"]}
    return d


def _confidence_line(results: SearchResults) -> str:
    c = results.confidence
    return f"Confidence: {c.level} ({one_line(c.reason)})"


REFERENCES_PER_HIT = 5  # resolved references shown per hit; the rest are counted
PASSAGE_FLOOR = 240  # passages are not cut below this while dropping trailing hits can keep them longer
# The first hit's passage is cut no shorter than this share of the budget (when it is that long)
# before the others are cut: at 0 every hit was cut alike, and at the default budget the first hit
# lost its answer for 25 of 134 new-user trial questions whose first chunk held it. Fitted by
# ``python bench/answer_lead.py`` (the smallest share that shows the most answers in the first hit
# on LegalBench-RAG's dev half).
LEAD_SHARE = 0.2
_TITLE_IN_LOCATION = 40  # a longer document title heading a hit's location is shortened


def _references(r, cap: int) -> tuple[list[dict[str, Any]], int]:
    """The hit's cross-references once each (same text and target), resolved ones first, at most
    ``cap`` of them; and how many there are in all. Whole items only: never a cut id."""
    seen, refs = set(), []
    for x in getattr(r, "cross_references", None) or []:
        key = (x.get("text"), x.get("target"), x.get("target_document"), x.get("target_section_id"))
        if key not in seen:
            seen.add(key)
            refs.append(x)
    refs.sort(key=lambda x: not x.get("resolved"))  # stable: document order within each group
    return refs[:cap], len(refs)


def _short_chain(r) -> list[str]:
    """The hit's parent chain with a long document title at its head shortened (the Source
    line and ``source_path`` already name the document)."""
    chain = list(getattr(r, "parent_chain", []) or [])
    title = getattr(r, "document_title", "")
    if chain and len(chain) > 1 and chain[0] == title and len(title) > _TITLE_IN_LOCATION:
        chain[0] = title[:_TITLE_IN_LOCATION].rsplit(" ", 1)[0] + " …"
    return chain


def as_passages(results: SearchResults) -> SearchResults:
    """``results`` with each hit's ``passage`` (what ``span`` answers show) widened to its
    ``answer_passage`` (:func:`~docstrata.passage.minimal_passage`) and its ``section_id`` the
    deepest section holding that; hits without one, and pinpointed hits, unchanged."""
    out = []
    for r in results:
        wide = getattr(r, "answer_passage", None)
        if wide and getattr(r, "pinpoint", None) is None:
            r = replace(r, passage=dict(wide), section_id=wide["section_id"], answer_passage=None)  # shown as content
        out.append(r)
    return SearchResults(out, results.confidence, results.definitions, results.notices)


def _span_text(r, cap: int | None) -> str | None:
    """A hit's best-matching sentence (its ``passage``), at most ``cap`` characters; ``None`` without one."""
    p = getattr(r, "passage", None)
    if not p:
        return None
    text = r.content.strip()[p["start"] : p["end"]].strip()
    return text if cap is None or len(text) <= cap else text[: max(cap - 2, 0)].rsplit(" ", 1)[0] + " …"


def _anchor(r, cap: int | None) -> int | None:
    """Where a cut hit's shown window should start from: its ``answer_passage`` when that fits in
    ``cap``, else its best-matching sentence (``passage``); ``None`` for neither (a record)."""
    wide, best = getattr(r, "answer_passage", None), getattr(r, "passage", None)
    if isinstance(wide, dict) and (cap is None or wide["end"] - wide["start"] <= cap):
        return wide["start"]
    return best["start"] if isinstance(best, dict) else None


def _render(
    results,
    query: str,
    tool: str,
    cap: int | None,
    def_cap: int | None,
    ref_cap: int,
    read_more=None,
    span: bool = False,
    lead_cap: int | None = None,
):
    hits, blocks, shown = [], [], {}
    read_more = read_more or (lambda r: _read_more(tool, r))
    others = cap
    for i, r in enumerate(results):
        cap = others if i or cap is None or lead_cap is None else max(cap, lead_cap)
        pin = getattr(r, "pinpoint", None)
        spanned = _span_text(r, cap) if span and pin is None else None
        if pin is not None:  # the cited sub-item under its lead-in, the rest of the chunk left out
            content, pin_text = pin.view(r.content, cap)
            cut = True
        elif spanned is not None:  # span mode: the best-matching sentence alone
            # a passage search's result is its passage: cut only when the passage itself was
            content, cut = spanned, spanned != (_span_text(r, None) if r.is_passage else r.content.strip())
        else:  # the window around the hit's answer passage (its best sentence when that is longer), else the densest
            content, cut = excerpt(r.content, query, cap, from_start=r.pinned, around=_anchor(r, cap))
        data = _hit_data(r, content, cut)
        if pin is not None:
            start, end = pin.offsets_in(r.content)  # in the chunk text as get_neighbours shows it
            data["pinpoint"] = {"section_id": pin.section_id, "start": start, "end": end, "text": pin_text}
        if ref_cap < 0:  # the tightest answer drops every title (the same for all hits of a document)
            data.pop("document_title", None)
        if (ref_cap <= 0 or def_cap is not None) and isinstance(r, SearchResult):
            # who cites the passage gives way first, before the definitions and references
            data.pop("cited_by", None)
            data.pop("cited_by_total", None)
            r = replace(r, cited_by=[], cited_by_total=None)
        if isinstance(r, SearchResult):
            refs, total = _references(r, max(ref_cap, 0))
            followed = [x for x in refs if x.get("resolved")]
            data["cross_references"] = refs
            if total > len(refs):
                data["cross_references_total"] = total
            chain = _short_chain(r)
            data["location"] = " > ".join(chain)
            if pin is not None:  # format() names the pinpoint's characters in the whole chunk
                block = replace(r, cross_references=[], parent_chain=chain).format(definitions=False, passage=content)
            else:
                block = replace(r, cross_references=[], parent_chain=chain).format(definitions=False, passage=content)
            if followed or total > len(refs):
                more = total - len(followed)
                block += (
                    "\n\nReferences: "
                    + "; ".join(reference_lines(followed))
                    + (f"{'; ' if followed else ''}{more} more not shown (read the passage)" if more else "")
                )
            noted = list(dict.fromkeys(f"{x['text']}: {x['note']}" for x in refs if x.get("note")))
            if noted:  # "the Agreement" where several agreements are held: why it is not followed
                block += "\n\nUnresolved: " + "; ".join(noted[:4])
        else:
            block = replace(r, content=content).format()
        hits.append(compact(data))
        shown[r.chunk_id] = content
        if pin is not None or (spanned is not None and cut):
            block = block.replace(content, content + f"\n[whole chunk: {read_more(r)}]", 1)
        elif cut:
            block = block.replace(
                content,
                content + f"\n[cut to {len(content)} of {data['content_chars']} characters; whole: {read_more(r)}]",
                1,
            )
        blocks.append(block)
    return hits, blocks, shown


def _assemble(results: SearchResults, query: str, hits, blocks, shown, def_cap, left_out: int, max_chars: int):
    defs = _definition_rows(results, def_cap, shown) if def_cap is None or def_cap >= 0 else []
    notices = list(results.notices)
    if not defs and results.definitions and hits:
        notices.append("definitions left out for size: hits name their terms; get_definition gives each")
    if left_out:
        notices.append(f"{left_out} more hit(s) left out to fit max_chars={max_chars} (raise it to see them)")
    head = _confidence_line(results)
    if notices:
        head += "\n" + "\n".join(f"Note: {one_line(n)}" for n in notices)
    kind = "passages" if not results or isinstance(results[0], SearchResult) else "records"
    text = head + "\n\n" + (SEPARATOR.join(blocks) if blocks else f"No {kind} shown for {query!r}.")
    if defs:
        text += "\n\n---\n\nDefinitions (each once; hits name the terms they use):\n" + "\n".join(
            f"- {one_line(d['term'])} ({one_line(d['document'])}"
            + (f", section {one_line(d['section_id'])}" if d["section_id"] else "")
            + (
                f", {page_citation(d['page_start'], d.get('page_end'), d.get('page_numbering'))}"
                if d.get("page_start")
                else ""
            )
            + (f"; also {', '.join(map(one_line, d['also_in']))}" if d.get("also_in") else "")
            + (f"; applies in {one_line(d['applies_in'])}" if d.get("scope") else "")
            + f"): {one_line(d['definition'])}"
            for d in defs
        )
    confidence = {k: round(v, 6) if isinstance(v, float) else v for k, v in results.confidence.to_dict().items()}
    data = {
        "results": hits,
        "definitions": defs,
        "confidence": confidence,
        "notices": notices,
        "truncated": bool(left_out) or any(h.get("truncated") for h in hits),
    }
    return text, data


# (definition cap, references per hit): tried in this order for each passage cap, so passages
# keep the larger share of the budget.
_EXTRAS = ((None, REFERENCES_PER_HIT), (600, REFERENCES_PER_HIT), (300, 3), (150, 2))
# definitions cap -1: definitions left out (a notice says so); references cap -1: no references
# and no document titles in the hits (the location and source path still name the document)
_LAST_EXTRAS = ((150, 0), (0, 0), (-1, 0), (-1, -1))  # only when no passage cap fits with the above


def _size(text: str, data: dict[str, Any], shape) -> int:
    shaped = shape(data) if shape else data
    return max(len(text), len(json.dumps(shaped, ensure_ascii=False, separators=(",", ":"))))


def render_search(
    results: SearchResults,
    query: str,
    tool: str,
    max_chars: int = DEFAULT_SEARCH_CHARS,
    shape=None,
    read_more=None,
    span: bool = False,
    passage: bool = False,
    lead_share: float = LEAD_SHARE,
) -> tuple[str, dict[str, Any]]:
    """The answer to one search within ``max_chars`` characters, text and compact JSON each
    (``shape``: the function that turns ``data`` into what is sent, so its size is what is
    measured; ``None`` = ``data`` as is). Passages are cut to a common share first (after the
    definitions and references, which give way sooner; the first hit's passage no shorter than
    ``lead_share`` × ``max_chars``, :data:`LEAD_SHARE`) but not below :data:`PASSAGE_FLOOR`
    characters: when that does not fit, trailing hits are left out and a notice says how many
    (``truncated`` is set); a single hit may be cut shorter. Each
    hit's cross-references are listed once, at most :data:`REFERENCES_PER_HIT` (the count of
    the rest is given). A hit whose query cites a sub-item of its chunk (``Art. 17(3)(b)``) shows
    that item under the lead-in of its enclosing items, the rest of the chunk left out
    (:meth:`~docstrata.models.Pinpoint.view`), and its JSON carries ``pinpoint``: ``{section_id,
    start, end, text}``, the item's character offsets in the whole chunk as ``*_get_neighbours``
    shows it (stripped, ``content_chars`` long) and its text. ``read_more``: hit → how to read
    it whole (default: the MCP ``*_get_neighbours`` call). ``span``: each hit's content is its
    best-matching sentence alone (its ``passage``, cited to the deepest section holding it), the
    minimal passage, within the same budgets; a hit without one shows its excerpt as usual.
    ``passage``: each hit's content is its ``answer_passage`` (:func:`as_passages`: from its first
    to its last sentence that matches nearly as well as the best, or the section a matching heading opens),
    shown as ``span`` shows a sentence, whole: trailing hits are left out before a passage is cut;
    it wins over ``span``.
    Returns ``(text, data)`` — ``data``
    shaped when ``shape`` is given."""
    if passage:
        results, span = as_passages(results), True
    n = len(results)

    lead = int(lead_share * max_chars) or None

    def attempt(keep: int, cap, def_cap, ref_cap, first=None):
        shown_results = results[:keep]
        hits, blocks, shown = _render(shown_results, query, tool, cap, def_cap, ref_cap, read_more, span, first)
        sub = SearchResults(shown_results, results.confidence, notices=results.notices)
        used = {t for r in shown_results for t in (getattr(r, "definitions_context", None) or {})}
        sub.definitions = results.definitions if keep == n else [d for d in results.definitions if d.term in used]
        text, data = _assemble(sub, query, hits, blocks, shown, def_cap, n - keep, max_chars)
        text = escape_terminal(text)  # passages keep their line breaks, nothing else: measured as sent
        return text, data, _size(text, data, shape)

    # First every hit count from all of them down with passages of at least PASSAGE_FLOOR
    # characters (fewer readable passages beat many stubs), then with any passage cap. For each
    # count the first hit keeps its lead share if that fits, else it is cut like the others.
    floor = [c for c in _CAPS if c is None or c >= PASSAGE_FLOOR]
    passes: list[tuple[list[int | None], range]] = [(floor, range(n, 0, -1)), (list(_CAPS), range(min(n, 1), -1, -1))]
    if passage:  # minimal passages already: whole ones, trailing ones left out, before any is cut
        passes.insert(0, ([None], range(n, 0, -1)))
    for caps, keeps in passes:
        for keep in keeps:
            for first in dict.fromkeys((lead, None)):
                smallest = attempt(keep, caps[-1], *_LAST_EXTRAS[-1], first)
                if smallest[2] > max_chars:
                    continue  # not even the shortest passages of this many hits fit: no lead, or one hit fewer
                for extras in (_EXTRAS, _LAST_EXTRAS):
                    for cap in caps:
                        if attempt(keep, cap, *extras[-1], first)[2] > max_chars:
                            continue  # the group's most compact extras do not fit with this cap: a smaller cap
                        for def_cap, ref_cap in extras:
                            text, data, size = attempt(keep, cap, def_cap, ref_cap, first)
                            if size <= max_chars:
                                return text, (shape(data) if shape else data)
    text, data, _ = attempt(0, _CAPS[-1], *_LAST_EXTRAS[-1])
    return text, (shape(data) if shape else data)


def render_section(page: SectionPage, tool: str) -> tuple[str, dict[str, Any]]:
    """A page of a section: text with a "how to read on" line when cut, and its JSON."""
    hint = f" (with document='{page.document}'" + (f", section_id='{page.section_id}')" if page.section_id else ")")
    return page.format(cursor_hint=hint), page.to_dict()


def _neighbour_budgets(sizes: list[int], asked: int | None, max_chars: int) -> list[int]:
    """Characters of content each chunk gets out of ``max_chars``: all whole when they fit; else
    the chunk asked for (index ``asked``) keeps its share (whole, or all but a short floor per
    neighbour, at least half the budget) and the neighbours share the rest evenly (water-filling:
    a short one whole, what it leaves to the longer ones). Neighbours are cut first."""
    if sum(sizes) <= max_chars:
        return list(sizes)
    if asked is None:
        asked_budget, others = 0, list(range(len(sizes)))
    else:
        others = [j for j in range(len(sizes)) if j != asked]
        floor = min(120, max_chars // (4 * max(1, len(others))))
        reserve = sum(min(sizes[j], floor) for j in others)
        asked_budget = min(sizes[asked], max(max_chars - reserve, max_chars // 2))
    out = [0] * len(sizes)
    if asked is not None:
        out[asked] = asked_budget
    left, todo = max_chars - asked_budget, sorted(others, key=lambda j: sizes[j])
    while todo:
        share = left // len(todo)
        j = todo.pop(0)
        out[j] = min(sizes[j], share)
        left -= out[j]
    return out


def _cut_to(text: str, budget: int, keep_end: bool) -> str:
    """``text`` cut to about ``budget`` characters at a word boundary, with ``…`` where it was cut;
    ``keep_end`` keeps its end (a chunk before the one asked for: the part next to it)."""
    if len(text) <= budget:
        return text
    if budget < 20:
        return "…"
    if keep_end:
        tail = text[len(text) - budget + 2 :]
        return "… " + (tail.split(" ", 1)[1] if " " in tail[:40] else tail)
    return text[: budget - 2].rsplit(" ", 1)[0] + " …"


def render_neighbours(chunks, max_chars: int, requested: str | None = None) -> tuple[str, dict[str, Any]]:
    """Consecutive chunks of one document, cut to ``max_chars`` characters of content in all;
    the chunk ``requested`` (the one asked for) is marked (``requested: true``, "(asked for)")
    and keeps its share of the budget: the neighbours are cut first (see
    :func:`_neighbour_budgets`), one before it to its end, one after it to its start."""
    texts = [c.content.strip() for c in chunks]
    asked = next((i for i, c in enumerate(chunks) if c.chunk_id == requested), None)
    budgets = _neighbour_budgets([len(t) for t in texts], asked, max_chars)
    out, blocks, cut = [], [], False
    for i, (c, text, budget) in enumerate(zip(chunks, texts, budgets)):
        if len(text) > budget:
            text, cut = _cut_to(text, budget, keep_end=asked is not None and i < asked), True
        loc = " > ".join(c.parent_chain)
        is_asked = i == asked
        out.append(
            {
                "chunk_id": c.chunk_id,
                "section_id": c.section_id,
                "location": loc,
                "content": text,
                **_pages_of(c),
                **({"requested": True} if is_asked else {}),
            }
        )
        pages = page_citation(c.page_start, c.page_end, c.page_numbering)
        blocks.append(
            f"Chunk: {one_line(c.chunk_id)}{' (asked for)' if is_asked else ''}\nLocation: {one_line(loc)}\n"
            f"Section: {one_line(c.section_id)}\n" + (f"Pages: {pages}\n" if pages else "") + f"\n{text}"
        )
    doc = chunks[0].doc_key if chunks else ""
    text = f"Source: {one_line(doc)}\n\n" + SEPARATOR.join(blocks)
    if cut:
        text += f"\n\n[cut at max_chars={max_chars}; ask for fewer chunks or a larger max_chars]"
    return text, {"document": doc, "chunks": out, "truncated": cut}


def render_documents(entries: list[DocumentEntry], offset: int, limit: int) -> tuple[str, dict[str, Any]]:
    """One page of document entries (``offset``, ``limit``), each with at most 12 top-level sections."""
    page = entries[offset : offset + limit]
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
