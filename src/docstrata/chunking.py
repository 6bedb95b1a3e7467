"""Section tree → chunks within a token budget (DESIGN §2 ``chunking.py``).

Entry point: :func:`chunk_tree`. Rules:

* one section (its heading line, then its own body) starts a new chunk; a heading-only
  section is carried into the next chunk instead of becoming a chunk of its own;
* a section's enumerated sub-items (``(a)``, ``1.`` list items) stay in its chunk while the
  whole group fits the budget (their aliases travel with it);
* a section over the budget is split at paragraph, then sentence, then word boundaries;
  a Markdown table only between rows, repeating its header row and separator in every
  piece; a fenced block only between lines, re-opening and closing the fence in every
  piece. A single table row or code line over the budget becomes one ``oversized`` chunk;
* without structure (``strategy="token"`` or no section found) the text is cut into
  windows of ``max_tokens`` with ``overlap`` tokens of overlap.

Text added to a piece (a repeated table header, a re-opened or closed fence) is recorded
in ``Chunk.metadata["added_prefix"]`` / ``["added_suffix"]`` so callers (and the property
test) can tell it from document text. ``count_tokens`` is called once per block and per
finished chunk, never per word, so a 1 MB document chunks in well under a second or two
with a fast tokenizer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from .models import Chunk, CrossReference, DocumentTree, Section
from .structure.xrefs import find_cross_references

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_TABLE_RE = re.compile(r"^\s{0,3}\|")
_TABLE_SEP_RE = re.compile(r"^\s{0,3}\|?\s*:?-{2,}")
_SENTENCE_RE = re.compile(r"(?<=[.!?;:])\s+(?=\S)")
_ITEM_NUMBER_RE = re.compile(r"^\(?\w{1,4}[.)]$")
_REQUIREMENT_RE = re.compile(
    r"\b(shall|must|MUST|SHALL|REQUIRED|may not|is required to|are required to|is prohibited|are prohibited)\b")


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


def chunk_tree(tree: DocumentTree, *, count_tokens: Callable[[str], int], max_tokens: int = 800,
               overlap: int = 50, strategy: Literal["structure", "token"] = "structure") -> list[Chunk]:
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
    structured = any(s.section_id != "preamble" for s in tree.sections)
    if strategy == "token" or not structured:
        text = "\n\n".join(_section_text(s) for s in tree.sections)
        section = tree.sections[0] if tree.sections else Section("preamble", tree.title, 1)
        pieces = [_Piece(w, section) for w in token_windows(text, count_tokens, max_tokens, overlap)]
    else:
        pieces = _structure_pieces(tree, count_tokens, max_tokens)
    return [_to_chunk(n, p, tree, count_tokens) for n, p in enumerate(pieces)]


def _section_text(s: Section) -> str:
    return f"{s.heading}\n{s.text}" if s.heading else s.text


# --------------------------------------------------------------------------- structure strategy

def _is_item(s: Section) -> bool:
    return bool(s.number and _ITEM_NUMBER_RE.match(s.number))


def _structure_pieces(tree: DocumentTree, count: Callable[[str], int], budget: int) -> list[_Piece]:
    pieces: list[_Piece] = []
    carried: list[Section] = []  # heading-only sections waiting for the next body
    sections = tree.sections
    i = 0
    while i < len(sections):
        head = sections[i]
        group = [head]
        j = i + 1
        while j < len(sections) and _is_item(sections[j]) and sections[j].level > head.level:
            group.append(sections[j])
            j += 1
        text = "\n".join(_section_text(s) for s in group)
        if len(group) > 1 and count(text) > budget:
            group, j = [head], i + 1
            text = _section_text(head)
        if not head.text.strip() and len(group) == 1 and j < len(sections):
            carried.append(head)
            i = j
            continue
        if carried:
            text = "\n".join(c.heading for c in carried) + "\n\n" + text
        owners = carried + group
        carried = []
        new = _split_section(text, head, count, budget)
        new[0].aliases = [a for s in owners for a in s.aliases]
        for p in new:
            p.section_ids = [s.section_id for s in owners]
        pieces.extend(new)
        i = j
    return pieces


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
    if count(text) <= budget:
        return [_Piece(text.strip("\n"), section)]
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


def _split_lines(lines: list[str], count: Callable[[str], int], budget: int, *, header_rows: int = 0,
                 fence: tuple[str, str] | None = None, closes: bool = True) -> list[tuple[str, int, bool, str, str]]:
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

def _chunk_type(content: str, definitions: list[str], section: Section) -> str:
    if definitions:
        return "definition"
    body = content.replace(section.heading, "", 1).strip() if section.heading else content.strip()
    if not body:
        return "header"
    if _REQUIREMENT_RE.search(content):
        return "requirement"
    return "content"


def _to_chunk(ordinal: int, piece: _Piece, tree: DocumentTree, count: Callable[[str], int]) -> Chunk:
    s = piece.section
    owners = set(piece.section_ids or [s.section_id])
    lowered = piece.text.lower()
    definitions = [d.term for d in tree.definitions
                   if d.section_id in owners and d.term.lower() in lowered]
    xrefs: list[CrossReference] = [x for x in find_cross_references(piece.text, tree, s.section_id)
                                   if x.section_id != s.section_id]
    metadata = {}
    if piece.added_prefix:
        metadata["added_prefix"] = piece.added_prefix
    if piece.added_suffix:
        metadata["added_suffix"] = piece.added_suffix
    return Chunk(
        chunk_id=f"{tree.doc_key}#{ordinal}", doc_key=tree.doc_key, ordinal=ordinal, content=piece.text,
        section_id=s.section_id, parent_chain=list(s.parent_chain), heading_level=s.level,
        chunk_type=_chunk_type(piece.text, definitions, s), token_count=count(piece.text),
        document_title=tree.title, section_title=s.title, aliases=list(piece.aliases),
        definitions=list(dict.fromkeys(definitions)), cross_references=xrefs, oversized=piece.oversized,
        metadata=metadata,
    )
