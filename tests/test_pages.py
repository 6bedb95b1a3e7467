"""Page numbers in citations: a PDF's pages (printed labels or physical numbers) and a PPTX's
slides are kept beside the Markdown, mapped to each section and chunk, stored, and shown by the
Python API, the CLI and the MCP server. The PDFs are built here with known text on each page."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from docstrata.answers import render_neighbours
from docstrata.chunking import chunk_tree
from docstrata.convert import convert_file
from docstrata.convert.pdf_pages import printed_folios
from docstrata.models import (
    PAGE_FIELDS,
    Chunk,
    DefinitionEntry,
    FileState,
    SearchResult,
    SectionPage,
    SourceFile,
    page_citation,
)
from docstrata.pages import assign_pages
from docstrata.structure import build_tree

from .pdf_writer import Run, pdf_bytes

# (page, text) of every body line; page numbers are printed at the foot of each page.
BODY = [
    (1, [Run(72, 700, "Widget Service Agreement", 20, "F4"),
         Run(72, 650, "1. Definitions", 14, "F4"),
         Run(72, 620, '"Widget" means a small mechanical device supplied under this agreement.'),
         Run(72, 605, "The customer orders widgets through the supplier portal at any hour.")]),
    (2, [Run(72, 700, "2. Delivery", 14, "F4"),
         Run(72, 670, "The supplier delivers every widget within ten business days of the order,"),
         Run(72, 655, "packed in recyclable cartons and labelled with the order number and the"),
         Run(72, 100, "customer reference that the order form names, whatever the delivery address.")]),
    (3, [Run(72, 700, "Late deliveries earn the customer a credit of five percent of the order value."),
         Run(72, 650, "3. Payment", 14, "F4"),
         Run(72, 620, "Invoices are payable within thirty days of the delivery note.")]),
    (4, [Run(72, 700, "4. Termination", 14, "F4"),
         Run(72, 670, "Either party may terminate with sixty days notice given in writing.")]),
]
PRINTED = ["i", "ii", "1", "2"]
LABELS = "/PageLabels << /Nums [0 << /S /r >> 2 << /S /D >>] >>"  # i, ii, then 1, 2 (ISO 32000-1 12.4.2)


def agreement_pdf(catalog: str = LABELS, folios: list[str] = PRINTED) -> bytes:
    return pdf_bytes([runs + ([Run(300, 40, folio, 10)] if folio else []) for (_, runs), folio in zip(BODY, folios)],
                     catalog=catalog)


def _parse(path: Path, max_tokens: int = 80):
    doc = convert_file(SourceFile(path.name, str(path), FileState(0, 0, "")))
    tree = build_tree(doc)
    chunks = chunk_tree(tree, count_tokens=lambda t: len(t.split()), max_tokens=max_tokens, overlap=0)
    assign_pages(doc, tree, chunks)
    return doc, tree, chunks


def _holder(chunks: list[Chunk], text: str) -> Chunk:
    found = [c for c in chunks if text in " ".join(c.content.split())]
    assert len(found) == 1, (text, [c.content for c in chunks])
    return found[0]


def test_pdf_pages_follow_the_printed_page_labels(tmp_path):
    path = tmp_path / "agreement.pdf"
    path.write_bytes(agreement_pdf())
    doc, tree, chunks = _parse(path)
    assert doc.page_labels == PRINTED and doc.page_unit == "page" and len(doc.page_offsets) == 4
    # no page marker in the text: the folios are dropped, nothing was added
    assert not any(line.strip() in PRINTED for line in doc.markdown.splitlines())
    assert "\f" not in doc.markdown and "Page" not in doc.markdown
    for page, runs in BODY:  # every line's chunk spans the line's page
        for run in runs[1:]:
            c = _holder(chunks, run.text)
            assert c.physical_page_start <= page <= c.physical_page_end, (run.text, c)
            assert c.page_numbering == "printed"
    term = _holder(chunks, "Termination")
    assert (term.page_start, term.page_end, term.physical_page_start, term.physical_page_end) == ("2", "2", 4, 4)
    assert term.pages == "p. 2"
    delivery = _holder(chunks, "ten business days")  # one paragraph across a page break
    assert (delivery.page_start, delivery.page_end) == ("ii", "1") and delivery.pages == "pp. ii–1"
    sections = {s.section_id: s for s in tree.sections}
    assert (sections["1"].page_start, sections["1"].page_end) == ("i", "i")
    assert (sections["2"].page_start, sections["2"].page_end) == ("ii", "1")
    assert (sections["3"].page_start, sections["3"].page_end) == ("1", "1")


def test_pdf_without_labels_takes_the_page_numbers_its_footers_print(tmp_path):
    path = tmp_path / "folios.pdf"
    path.write_bytes(agreement_pdf(catalog=""))  # no /PageLabels; the feet print i, ii, 1, 2
    doc, _, chunks = _parse(path)
    assert doc.page_labels == PRINTED
    assert not any(line.strip() in PRINTED for line in doc.markdown.splitlines())
    pay = _holder(chunks, "thirty days")
    assert (pay.page_start, pay.page_end, pay.page_numbering, pay.physical_page_start) == ("1", "1", "printed", 3)
    assert _holder(chunks, "ten business days").pages == "pp. ii–1"


def test_pdf_without_labels_or_folios_is_numbered_by_position(tmp_path):
    path = tmp_path / "plain.pdf"
    path.write_bytes(agreement_pdf(catalog="", folios=["", "", "", ""]))
    doc, _, chunks = _parse(path)
    assert doc.page_labels == []
    pay = _holder(chunks, "thirty days")
    assert (pay.page_start, pay.page_end, pay.page_numbering, pay.physical_page_start) == ("3", "3", "physical", 3)
    assert pay.pages == "PDF p. 3"
    # a label tree that only restates positions (1, 2, 3, ...) is no evidence of printed numbers
    path.write_bytes(agreement_pdf(catalog="/PageLabels << /Nums [0 << /S /D >>] >>", folios=["", "", "", ""]))
    doc, _, chunks = _parse(path)
    assert doc.page_labels == [] and _holder(chunks, "thirty days").page_numbering == "physical"


def _line(page: int, text: str, y: float):
    return SimpleNamespace(page=page, text=text, y1=y, turned=False)


def test_printed_folios_are_trusted_only_where_pages_count_on():
    body = [_line(p, f"Body text of page {p + 1}.", y) for p in range(9) for y in (600, 500, 400, 300, 200)]
    feet = ["", "ii", "iii", "Page 1-1", "1-2", "", "2-2", "2 of 9", "Section 8"]  # p6 prints "2-2" after p5's none
    heads = ["4", "4", "4", "", "", "", "", "", ""]  # a chapter number atop pages: never counts on
    lines = body + [_line(p, t, 50) for p, t in enumerate(feet) if t] + \
        [_line(p, t, 750) for p, t in enumerate(heads) if t]
    lines.append(_line(5, "Figure 7", 50))
    labels = printed_folios(lines, 9)
    # p3 "1-1"/p4 "1-2" agree; p6 "2-2" has no neighbour of its scheme; "2 of 9" none either
    assert labels == ["", "ii", "iii", "1-1", "1-2", "", "", "", ""]
    feet = ["", "1", "2", "", "4", "5"]  # a chapter opening without a folio gets the number between
    lines = [_line(p, t, 50) for p, t in enumerate(feet) if t] + [_line(p, "Text.", 400) for p in range(6)]
    assert printed_folios(lines, 6) == ["", "1", "2", "3", "4", "5"]
    assert printed_folios([_line(p, "Text.", 400) for p in range(3)], 3) == []


def test_pptx_slides_are_cited_as_slides(tmp_path):
    pptx = pytest.importorskip("pptx")
    deck = pptx.Presentation()
    for title, body in [("Quarterly results", "Revenue grew by nine percent in the quarter."),
                        ("Hiring plan", "We hire four engineers for the platform team."),
                        ("Risks", "Supplier delays may push the launch into spring.")]:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
    path = tmp_path / "deck.pptx"
    deck.save(path)
    doc, _, chunks = _parse(path, max_tokens=800)
    assert doc.page_unit == "slide" and len(doc.page_offsets) == 3
    hiring = _holder(chunks, "four engineers")
    assert (hiring.page_start, hiring.page_end, hiring.page_numbering) == ("2", "2", "slide")
    assert hiring.pages == "slide 2"
    assert _holder(chunks, "Supplier delays").pages == "slide 3"


def test_citations_and_sources_without_pages():
    assert page_citation("14", "14", "printed") == "p. 14"
    assert page_citation("12", "13", "printed") == "pp. 12–13"
    assert page_citation("iv", "iv", "printed") == "p. iv"
    assert page_citation("3", "4", "physical") == "PDF pp. 3–4"
    assert page_citation("3", "4", "slide") == "slides 3–4"
    assert page_citation(None, None, None) == ""
    # a chunk stored before pages were kept reads back with none; its hits cite no page
    old = {"chunk_id": "a.md#0", "doc_key": "a.md", "ordinal": 0, "content": "x", "section_id": "1",
           "parent_chain": ["A"], "heading_level": 1, "metadata": {}}
    c = Chunk.from_dict(old)
    assert c.page_start is None and c.physical_page_end is None and "page_start" not in c.to_row()
    hit = SearchResult(chunk_id="a.md#0", content="x", fused_score=0.5, source_path="a.md", parent_chain=["A"],
                       section_id="1")
    assert "Source: a.md\n" in hit.format() and hit.pages == ""


def test_page_fields_are_keyword_only_and_stand_last_in_rows_and_answers():
    """The page fields are one base (``Paged``) of chunks, hits, section pages and definitions:
    positional arguments still fill each class's own fields, and stored rows and JSON answers list
    the page fields after them (the order they had when each class declared its own)."""
    pages = {"page_start": "iv", "page_end": "v", "page_numbering": "printed", "physical_page_start": 4,
             "physical_page_end": 5}
    c = Chunk("a.pdf#0", "a.pdf", 0, "x", "1", ["A"], 1, "definition", 3, metadata={"k": "v"}, **pages)
    assert (c.chunk_type, c.token_count, c.pages) == ("definition", 3, "pp. iv–v")
    row = c.to_row()
    assert list(row) == ["chunk_id", "doc_key", "ordinal", "content", "section_id", "parent_chain", "heading_level",
                         "chunk_type", "token_count", "metadata", *PAGE_FIELDS]
    assert Chunk.from_dict(json.loads(json.dumps(row))) == c and Chunk.from_dict(c.to_dict()) == c
    assert list(c.to_dict())[-6:] == [*PAGE_FIELDS, "contextualized_content"]
    hit = SearchResult("a.pdf#0", "x", 0.5, "a.pdf", ["A"], "1", 0.4, **pages)
    assert hit.semantic_score == 0.4 and hit.pages == "pp. iv–v"
    assert list(hit.to_dict())[-12:] == ["passage", "answer_passage", "is_passage", "cited_by", "cited_by_total", *PAGE_FIELDS, "id",
                                         "location"]
    page = SectionPage("a.pdf", "1", "A", "A", "x", ["a.pdf#0"], 0, 1, **pages)
    assert list(page.to_dict())[-7:] == ["notice", *PAGE_FIELDS, "truncated"] and page.pages == "pp. iv–v"
    d = DefinitionEntry("Widget", "means a device.", "a.pdf", "1", "a.pdf#0", **pages)
    assert (d.chunk_id, d.scope, d.pages) == ("a.pdf#0", None, "pp. iv–v")
    with pytest.raises(TypeError):  # a page field is never filled by position
        DefinitionEntry("Widget", "means a device.", "a.pdf", "1", "a.pdf#0", None, None, "iv")


# ------------------------------------------------------------------ through the tool, CLI and MCP

AGENT_YAML = """\
tools:
  - name: contracts
    type: hierarchical_document
    description: Contracts
    source: docs/
  - name: files
    type: vectorstore
    description: The same folder read as HoloDeck's unstructured vectorstore
    source: docs/
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("pages")
    (root / "docs").mkdir()
    (root / "docs" / "agreement.pdf").write_bytes(agreement_pdf())
    (root / "docs" / "notes.md").write_text("# Notes\n\n## Delivery notes\n\nDeliveries arrive on Mondays.\n",
                                            encoding="utf-8")
    (root / "agent.yaml").write_text(AGENT_YAML, encoding="utf-8")
    import docstrata

    with docstrata.open(root / "agent.yaml") as tools:
        for name in ("contracts", "files"):
            report = tools[name].ingest()
            assert not report.skipped, report.skipped
    return root


def test_tool_answers_carry_pages_and_unpaged_documents_none(project):
    import docstrata

    with docstrata.open(project / "agent.yaml") as tools:
        t = tools["contracts"]
        hits = t.search("ten business days delivery of the order", top_k=5, mode="keyword")
        pdf_hit = next(r for r in hits if r.source_path == "agreement.pdf" and "ten business days" in r.content)
        assert (pdf_hit.page_start, pdf_hit.page_end, pdf_hit.page_numbering) == ("ii", "1", "printed")
        assert (pdf_hit.physical_page_start, pdf_hit.physical_page_end) == (2, 3)
        assert "Source: agreement.pdf, pp. ii–1" in pdf_hit.format()
        md_hit = next(r for r in hits if r.source_path == "notes.md")
        assert md_hit.page_start is None and md_hit.pages == "" and "page_start" in md_hit.to_dict()

        page = t.get_section("agreement.pdf", "3")
        assert (page.page_start, page.page_end, page.physical_page_start) == ("1", "1", 3)
        assert page.format().startswith("Source: agreement.pdf, p. 1\n")
        whole = t.get_section("agreement.pdf")
        assert (whole.page_start, whole.page_end) == ("i", "2")

        near = t.neighbours(pdf_hit.chunk_id, before=0, after=10)
        assert (near[-1].page_start, near[-1].page_end) == ("2", "2")
        text, data = render_neighbours(near, max_chars=10_000, requested=pdf_hit.chunk_id)
        assert "Pages: pp. ii–1" in text and data["chunks"][0]["page_start"] == "ii"

        (widget,) = t.get_definition("Widget")
        assert (widget.page_start, widget.page_end, widget.physical_page_start) == ("i", "i", 1)
        hits = t.search("what is a widget", top_k=3, mode="keyword")
        assert [(d.term, d.page_start) for d in hits.definitions] == [("Widget", "i")]

        records = tools["files"].search("invoices payable within thirty days", top_k=3, mode="keyword")
        assert next(r for r in records if "thirty days" in r.content).metadata["pages"] == "p. 1"


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess:
    from .test_mcp import server_env

    proc = subprocess.run([sys.executable, "-m", "docstrata.cli", *args, "-t", "contracts"], cwd=root,
                          capture_output=True, text=True, env=server_env(COLUMNS="200"), timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.mark.slow  # six CLI processes, ~30 s
def test_cli_shows_pages(project):
    out = _cli(project, "search", "--mode", "keyword", "invoices payable thirty days").stdout
    assert "Source: agreement.pdf, p. 1" in out
    data = json.loads(_cli(project, "search", "--mode", "keyword", "--json", "invoices payable thirty days").stdout)
    hit = next(h for h in data["results"] if "thirty days" in h["content"])
    assert (hit["page_start"], hit["page_end"], hit["page_numbering"], hit["physical_page_start"]) == \
        ("1", "1", "printed", 3)
    md = json.loads(_cli(project, "search", "--mode", "keyword", "--json", "Deliveries arrive Mondays").stdout)
    assert all("page_start" not in h for h in md["results"] if h["source_path"] == "notes.md")
    assert "Source: agreement.pdf, p. i" in _cli(project, "get-definition", "widget").stdout
    assert "Source: agreement.pdf, p. 2" in _cli(project, "get-section", "agreement.pdf", "4").stdout
    cid = hit["chunk_id"]
    neighbours = json.loads(_cli(project, "neighbours", cid, "--before", "0", "--after", "0", "--json").stdout)
    assert neighbours["chunks"][0]["page_start"] == "1"
    assert "Pages: p. 1" in _cli(project, "neighbours", cid, "--before", "0", "--after", "0").stdout


@pytest.mark.slow  # an MCP server process, ~11 s
def test_mcp_structured_results_carry_pages(project):
    from anyio.from_thread import start_blocking_portal

    from .test_mcp import stdio_session, text_of

    with start_blocking_portal() as portal, \
            portal.wrap_async_context_manager(stdio_session(project / "agent.yaml")) as session:
        def call(name, args):
            result = portal.call(lambda: session.call_tool(name, args))
            assert not result.is_error, text_of(result)
            return result

        res = call("contracts_search", {"query": "Either party may terminate with sixty days notice",
                                        "mode": "keyword", "top_k": 3})
        hit = next(h for h in res.structured_content["results"] if "sixty days" in h["content"])
        assert (hit["page_start"], hit["page_end"], hit["physical_page_start"]) == ("2", "2", 4)
        assert "Source: agreement.pdf, p. 2" in text_of(res)
        md = call("contracts_search", {"query": "Deliveries arrive Mondays", "mode": "keyword", "top_k": 3})
        assert all("page_start" not in h for h in md.structured_content["results"] if h["source_path"] == "notes.md")
        section = call("contracts_get_section", {"document": "agreement.pdf", "section_id": "2"}).structured_content
        assert (section["page_start"], section["page_end"]) == ("ii", "1")
        near = call("contracts_get_neighbours", {"chunk_id": hit["chunk_id"], "before": 0, "after": 0})
        assert near.structured_content["chunks"][0]["page_start"] == "2"
        defs = call("contracts_get_definition", {"term": "Widget"})
        assert defs.structured_content["definitions"][0]["page_start"] == "i"
        assert "Source: agreement.pdf, p. i" in text_of(defs)
