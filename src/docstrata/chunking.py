"""Section tree → chunks within a token budget (DESIGN §2 ``chunking.py``).

Entry point: :func:`chunk_tree`. Rules:

* one section (its heading line, then its own body) starts a new chunk, so a chunk's
  ``section_id`` names the section its first line belongs to;
* a heading-only section (a heading with no body of its own) is carried into the next
  chunk only when the next section is inside it (``## 1. Definitions`` before ``1.1``):
  the chunk's ``section_id`` is that descendant and its first lines are its ancestors'
  headings, as in its ``parent_chain``. A heading-only section followed by a sibling or by
  a section elsewhere (``2.4.3 [Deleted]`` before ``2.4.4``) is a small ``header`` chunk of
  its own, never the head of a chunk about another section;
* a section's enumerated sub-items (``(a)``, ``1.`` list items) stay in its chunk while the
  whole group fits the budget (their aliases travel with it);
* numbered sibling sections are never packed together, however small (``1.1``–``1.4``,
  one defined term each, are four chunks): a result's ``section_id`` and location then cite
  exactly the passage shown, and a lookup of ``Section 1.3`` lands on a chunk that starts
  with 1.3. Tiny chunks cost a little retrieval context, which the structural context
  (document title and parent chain) gives back;
* every chunk lists the sections whose text it holds in ``metadata["sections"]``, in
  document order (carried ancestors, the section, its merged items; a continuation piece
  of a split section lists that section only), and a section's first chunk carries all of
  their ``aliases``;
* a section over the budget is split at paragraph, then sentence, then word boundaries;
  a Markdown table only between rows, repeating its header row and separator in every
  piece; a fenced block only between lines, re-opening and closing the fence in every
  piece. A single table row or code line over the budget becomes one ``oversized`` chunk;
* without structure (``strategy="token"`` or no section found) the text is cut into
  windows of ``max_tokens`` with ``overlap`` tokens of overlap.

Text added to a piece (a repeated table header, a re-opened or closed fence) is recorded
in ``Chunk.metadata["added_prefix"]`` / ``["added_suffix"]`` so callers (and the property
test) can tell it from document text. ``count_tokens`` is called once per distinct text
(section, group, block or finished chunk; answers are remembered), never per word, so a
1 MB document chunks in about a second with a fast tokenizer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from .models import Chunk, ChunkType, CrossReference, DocumentTree, Section
from .structure.contents import is_contents_section
from .structure.xrefs import amended_sections, find_cross_references

_FENCE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})")  # indented too: fences inside admonitions and list items
_TABLE_RE = re.compile(r"^\s{0,3}\|")
_TABLE_SEP_RE = re.compile(r"^\s{0,3}\|?\s*:?-{2,}")
_SENTENCE_RE = re.compile(r"(?<=[.!?;:])\s+(?=\S)")
_ITEM_NUMBER_RE = re.compile(r"^\(?\w{1,4}[.)]$")
_REQUIREMENT_RE = re.compile(
    r"\b(shall|must|MUST|SHALL|REQUIRED|may not|is required to|are required to|is prohibited|are prohibited)\b"
)


@dataclass
class _Block:
    """An indivisible-at-this-level piece of a section: a paragraph, table or fence."""

    text: str
    kind: str  # "para" | "table" | "fence"


@dataclass
class _Piece:
    """A chunk under construction."""

    text: str
    section: Section
    aliases: list[str] = field(default_factory=list)
    section_ids: list[str] = field(default_factory=list)
    oversized: bool = False
    added_prefix: str = ""
    added_suffix: str = ""
    headings_only: bool = False  # only headings of sections without body text


def chunk_tree(
    tree: DocumentTree,
    *,
    count_tokens: Callable[[str], int],
    max_tokens: int = 800,
    overlap: int = 50,
    strategy: Literal["structure", "token"] = "structure",
) -> list[Chunk]:
    """Split ``tree`` into :class:`Chunk` objects in document order.

    Args:
        tree: the parsed document (``structure.build_tree``).
        count_tokens: tokens of a text for the embedding model (no special tokens).
        max_tokens: budget per chunk's ``content``; only an indivisible unit may exceed it
            (then ``oversized=True``).
        overlap: tokens shared by consecutive windows of the token strategy.
        strategy: ``"structure"`` (sections) or ``"token"`` (plain windows).

    Returns:
        Chunks with ``chunk_id = f"{doc_key}#{ordinal}"`` (ordinal from 0), section id, parent
        chain, heading level, titles, aliases (first chunk of a section), definitions and
        cross-references found in the chunk, ``chunk_type`` and ``token_count``.

    Raises:
        ValueError: ``max_tokens`` < 1, or ``overlap`` not in ``[0, max_tokens)``.
    """
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be ≥ 1, got {max_tokens}")
    if not 0 <= overlap < max_tokens:
        raise ValueError(f"overlap must be in [0, max_tokens), got {overlap} with max_tokens={max_tokens}")
    count = _remembering(count_tokens)  # a text is sized to group, to split and for its chunk: count it once
    structured = any(s.section_id != "preamble" for s in tree.sections)
    if strategy == "token" or not structured:
        text = "\n\n".join(_section_text(s) for s in tree.sections)
        section = tree.sections[0] if tree.sections else Section("preamble", tree.title, 1)
        pieces = [_Piece(w, section) for w in token_windows(text, count, max_tokens, overlap)]
    else:
        pieces = _structure_pieces(tree, count, max_tokens)
    return [_to_chunk(n, p, tree, count) for n, p in enumerate(pieces)]


def _remembering(count_tokens: Callable[[str], int], size: int = 4096) -> Callable[[str], int]:
    """``count_tokens`` that remembers its latest answers (the tokenizer dominates chunking time)."""
    memo: dict[str, int] = {}

    def count(text: str) -> int:
        n = memo.get(text)
        if n is None:
            if len(memo) >= size:
                memo.clear()
            n = memo[text] = count_tokens(text)
        return n

    return count


def _section_text(s: Section) -> str:
    return f"{s.heading}\n{s.text}" if s.heading else s.text


# --------------------------------------------------------------------------- structure strategy


def _is_item(s: Section) -> bool:
    return bool(s.number and _ITEM_NUMBER_RE.match(s.number))


def _structure_pieces(tree: DocumentTree, count: Callable[[str], int], budget: int) -> list[_Piece]:
    pieces: list[_Piece] = []
    carried: list[Section] = []  # heading-only ancestors of the next section, outermost first
    sections = tree.sections
    i = 0
    while i < len(sections):
        head = sections[i]
        group, j = _item_group(sections, i, count, budget)
        heading_only = not head.text.strip() and len(group) == 1
        if heading_only and j < len(sections) and sections[j].level > head.level:
            carried.append(head)  # the next section is inside this one: lend it the heading
            i = j
            continue
        owners = carried + group
        text = "\n".join(_section_text(s) for s in group)
        if carried:
            text = "\n".join(c.heading for c in carried) + "\n\n" + text
        carried = []
        new = _split_section(text, head, count, budget)
        new[0].aliases = [a for s in owners for a in s.aliases]
        new[0].section_ids = [s.section_id for s in owners]
        new[0].headings_only = heading_only
        for p in new[1:]:
            p.section_ids = [head.section_id]
        pieces.extend(new)
        i = j
    return pieces


def _item_group(sections: list[Section], i: int, count: Callable[[str], int], budget: int) -> tuple[list[Section], int]:
    """Section ``i`` with the enumerated sub-items that follow it, if together they fit
    ``budget``; else section ``i`` alone. Returns the group and the index after it."""
    head = sections[i]
    j = i + 1
    while j < len(sections) and _is_item(sections[j]) and sections[j].level > head.level:
        j += 1
    group = sections[i:j]
    if len(group) > 1 and count("\n".join(_section_text(s) for s in group).strip("\n")) > budget:
        return [head], i + 1
    return group, j


def _blocks(text: str) -> list[_Block]:
    """Paragraphs, tables and fenced blocks of ``text`` (separators dropped)."""
    blocks: list[_Block] = []
    lines = text.split("\n")
    buf: list[str] = []
    kind = "para"
    fence: str | None = None

    def flush() -> None:
        nonlocal buf, kind
        if any(ln.strip() for ln in buf):
            blocks.append(_Block("\n".join(buf).strip("\n"), kind))
        buf, kind = [], "para"

    for line in lines:
        fm = _FENCE_RE.match(line)
        if fence is not None:
            buf.append(line)
            if fm and fm.group(1)[0] == fence[0] and len(fm.group(1)) >= len(fence):
                fence = None
                flush()
            continue
        if fm:
            flush()
            fence, kind = fm.group(1), "fence"
            buf.append(line)
            continue
        is_row = bool(_TABLE_RE.match(line))
        if is_row != (kind == "table") and buf:
            flush()
        if is_row:
            kind = "table"
        if not line.strip():
            flush()
            continue
        buf.append(line)
    flush()
    return blocks


def _split_section(text: str, section: Section, count: Callable[[str], int], budget: int) -> list[_Piece]:
    """Pieces of one section's text (heading first) within ``budget``."""
    text = text.strip("\n")
    if count(text) <= budget:
        return [_Piece(text, section)]
    units: list[tuple[str, int, bool, str, str]] = []  # text, tokens, oversized, prefix, suffix
    for block in _blocks(text):
        units.extend(_split_block(block, count, budget))
    pieces: list[_Piece] = []
    cur: list[str] = []
    cur_tokens = 0
    for utext, utok, oversized, prefix, suffix in units:
        if oversized or prefix or suffix:
            if cur:
                pieces.append(_Piece("\n\n".join(cur), section))
                cur, cur_tokens = [], 0
            pieces.append(_Piece(utext, section, oversized=oversized, added_prefix=prefix, added_suffix=suffix))
            continue
        if cur and cur_tokens + utok > budget:
            pieces.append(_Piece("\n\n".join(cur), section))
            cur, cur_tokens = [], 0
        cur.append(utext)
        cur_tokens += utok
    if cur:
        pieces.append(_Piece("\n\n".join(cur), section))
    return pieces


def _split_block(block: _Block, count: Callable[[str], int], budget: int) -> list[tuple[str, int, bool, str, str]]:
    tokens = count(block.text)
    if tokens <= budget:
        return [(block.text, tokens, False, "", "")]
    if block.kind == "table":
        return _split_lines(block.text.split("\n"), count, budget, header_rows=_table_header(block.text))
    if block.kind == "fence":
        lines = block.text.split("\n")
        opener = lines[0]
        closes = len(lines) > 1 and _FENCE_RE.match(lines[-1]) is not None
        body = lines[1:-1] if closes else lines[1:]
        closer = lines[-1] if closes else re.match(r"^\s*(`+|~+)", opener).group(1)
        return _split_lines(body, count, budget, fence=(opener, closer), closes=closes)
    return _split_prose(block.text, count, budget)


def _table_header(text: str) -> int:
    """Rows of the table's header (header row + separator) to repeat: 2, or 0 if none."""
    lines = text.split("\n")
    return 2 if len(lines) > 2 and _TABLE_SEP_RE.match(lines[1]) else 0


def _split_lines(
    lines: list[str],
    count: Callable[[str], int],
    budget: int,
    *,
    header_rows: int = 0,
    fence: tuple[str, str] | None = None,
    closes: bool = True,
) -> list[tuple[str, int, bool, str, str]]:
    """Group whole lines; repeat a table header or re-open/close a fence in each piece."""
    header = lines[:header_rows]
    rows = lines[header_rows:]
    wrap_tokens = count("\n".join(header)) if header else (count(fence[0] + "\n" + fence[1]) if fence else 0)
    row_tokens = [count(r) for r in rows]
    out: list[tuple[str, int, bool, str, str]] = []
    cur: list[str] = []
    cur_tokens = wrap_tokens

    def emit(body: list[str], oversized: bool = False) -> None:
        first = not out
        if fence:
            opener, closer = fence
            text = "\n".join([opener] + body + [closer])
            prefix = "" if first else opener + "\n"
            out.append((text, count(text), oversized, prefix, "\n" + closer))
        else:
            text = "\n".join(header + body)
            prefix = "" if first or not header else "\n".join(header) + "\n"
            out.append((text, count(text), oversized, prefix, ""))

    for row, tok in zip(rows, row_tokens):
        if wrap_tokens + tok > budget:
            if cur:
                emit(cur)
                cur, cur_tokens = [], wrap_tokens
            emit([row], oversized=True)
            continue
        if cur and cur_tokens + tok > budget:
            emit(cur)
            cur, cur_tokens = [], wrap_tokens
        cur.append(row)
        cur_tokens += tok
    if cur or not out:
        emit(cur)
    if fence and closes:  # the last piece's closing fence is the document's own
        text, tok, over, prefix, _ = out[-1]
        out[-1] = (text, tok, over, prefix, "")
    if not header and not fence:
        return out
    if fence is None and out:
        out[0] = (out[0][0], out[0][1], out[0][2], "", "")
    return out


def _split_prose(text: str, count: Callable[[str], int], budget: int) -> list[tuple[str, int, bool, str, str]]:
    """A paragraph over budget: sentences, then word windows for a sentence over budget."""
    out: list[tuple[str, int, bool, str, str]] = []
    for sentence in _SENTENCE_RE.split(text):
        tok = count(sentence)
        if tok <= budget:
            out.append((sentence, tok, False, "", ""))
        else:
            out.extend((w, count(w), False, "", "") for w in token_windows(sentence, count, budget, 0))
    return out


# --------------------------------------------------------------------------- token windows


def token_windows(text: str, count_tokens: Callable[[str], int], max_tokens: int, overlap: int) -> list[str]:
    """Cut ``text`` into word-aligned windows of ≤ ``max_tokens`` tokens sharing ~``overlap`` tokens.

    Token counts are estimated from the text's average tokens per word, then each window is
    verified with ``count_tokens`` and shrunk until it fits (a single word longer than the
    budget is its own window).
    """
    words = text.split()
    if not words:
        return [text] if text.strip() else []
    total = count_tokens(text)
    if total <= max_tokens:
        return [text.strip()]
    per_word = max(total / len(words), 1e-6)
    step_words = max(1, int(max_tokens / per_word))
    overlap_words = int(overlap / per_word)
    windows: list[str] = []
    start = 0
    while start < len(words):
        end = min(len(words), start + step_words)
        while True:
            window = " ".join(words[start:end])
            tok = count_tokens(window)
            if tok <= max_tokens or end - start == 1:
                break
            end = start + max(1, int((end - start) * max_tokens / tok * 0.97))
        windows.append(window)
        if end >= len(words):
            break
        start = max(start + 1, end - overlap_words)
    return windows


# --------------------------------------------------------------------------- chunk objects


def _chunk_type(piece: _Piece, definitions: list[str]) -> ChunkType:
    if is_contents_section(piece.section):
        return "contents"  # a contents page or index lists sections: search ranks it after them
    if definitions:
        return "definition"
    if piece.headings_only:
        return "header"
    if _REQUIREMENT_RE.search(piece.text):
        return "requirement"
    return "content"


def _piece_references(piece: _Piece, tree: DocumentTree) -> list[CrossReference]:
    """The references ``piece`` makes. A piece holding several sections of which one stands under an
    amending provision (:func:`~docstrata.structure.xrefs.amended_sections`: "(c) in subsection (3)—"
    under "The Sentencing Code is amended as follows") is read section by section, each part with its
    own section's id, so a lead-in cites the amended Act's provision, never this document's; any
    other piece is read whole, as the section it opens with."""
    s = piece.section
    scoped = amended_sections(tree)
    if len(piece.section_ids) < 2 or not any(sid in scoped for sid in piece.section_ids):
        return find_cross_references(piece.text, tree, s.section_id)
    by_id = {x.section_id: x for x in tree.sections if x.section_id in piece.section_ids}
    cuts: list[tuple[int, str]] = []
    pos = 0
    for sid in piece.section_ids:
        own = by_id.get(sid)
        at = piece.text.find(_section_text(own), pos) if own is not None and own.text.strip() else -1
        if at >= 0:
            cuts.append((at, sid))
            pos = at + 1
    if not cuts:
        return find_cross_references(piece.text, tree, s.section_id)
    out = find_cross_references(piece.text[: cuts[0][0]], tree, s.section_id) if cuts[0][0] > 0 else []
    for (start, sid), (end, _) in zip(cuts, [*cuts[1:], (len(piece.text), "")]):
        out += find_cross_references(piece.text[start:end], tree, sid)
    return out


def _to_chunk(ordinal: int, piece: _Piece, tree: DocumentTree, count: Callable[[str], int]) -> Chunk:
    s = piece.section
    owners = set(piece.section_ids or [s.section_id])
    lowered = piece.text.lower()
    definitions = [d.term for d in tree.definitions if d.section_id in owners and d.term.lower() in lowered]
    xrefs: list[CrossReference] = [x for x in _piece_references(piece, tree) if x.section_id != s.section_id]
    if is_contents_section(s):  # a contents page lists the sections it names: it cites none of them
        for x in xrefs:
            x.listing = True
    metadata: dict = {"sections": list(piece.section_ids)} if piece.section_ids else {}
    if piece.added_prefix:
        metadata["added_prefix"] = piece.added_prefix
    if piece.added_suffix:
        metadata["added_suffix"] = piece.added_suffix
    return Chunk(
        chunk_id=f"{tree.doc_key}#{ordinal}",
        doc_key=tree.doc_key,
        ordinal=ordinal,
        content=piece.text,
        section_id=s.section_id,
        parent_chain=list(s.parent_chain),
        heading_level=s.level,
        chunk_type=_chunk_type(piece, definitions),
        token_count=count(piece.text),
        document_title=tree.title,
        section_title=s.title,
        aliases=list(piece.aliases),
        definitions=list(dict.fromkeys(definitions)),
        cross_references=xrefs,
        oversized=piece.oversized,
        metadata=metadata,
    )


def holodeck_tokens(text: str) -> int:
    """Tokens as HoloDeck counts them for a vectorstore's ``chunk_size`` / ``chunk_overlap``: its
    TextChunker is Semantic Kernel's ``split_plaintext_paragraph``, whose token counter is
    ``len(text) // 4`` (four characters a token), not a model's tokenizer."""
    return len(text) // 4
