"""What a page's ``max_chars`` means: the text it carries (``paging.page_end``), and over MCP a
bounded envelope on top that gives way — shrinking the text — only when long names overflow it."""

from __future__ import annotations

import json
import textwrap

import anyio
from hypothesis import given, settings
from hypothesis import strategies as st

import docstrata
from docstrata.paging import page_end


def _pages(text: str, max_chars: int) -> list[str]:
    out, start = [], 0
    while start < len(text):
        end = page_end(text, start, max_chars)
        out.append(text[start:end])
        start = end
    return out


def test_a_page_ends_at_the_last_break_of_its_last_quarter_not_at_a_break_halfway():
    text = "a" * 45 + "\n\n" + " ".join(["word"] * 40)  # a paragraph break at 45%, words after it
    end = page_end(text, 0, 100)
    assert 90 <= end <= 100 and text[end - 1] == " "  # a word boundary near the end, not the break at 47
    para = "x " * 40 + "\n\n" + "y " * 40
    assert page_end(para, 0, 100) == 82  # a paragraph break in the last quarter wins over later spaces
    lines = "x " * 38 + "\n" + "y " * 40
    assert page_end(lines, 0, 100) == 77  # then a line break
    sentence = "x " * 39 + "end. " + "y " * 40
    assert page_end(sentence, 0, 100) == 83  # then a sentence end
    assert page_end("z" * 300, 0, 100) == 100  # nothing to cut at: the budget
    assert page_end("short", 0, 100) == 5 and page_end("z" * 300, 0, None) == 300


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab .\n"), max_size=3000), st.integers(200, 900))
def test_pages_cover_the_text_in_order_each_within_its_budget(text, max_chars):
    pages = _pages(text, max_chars)
    assert "".join(pages) == text
    assert all(0 < len(p) <= max_chars for p in pages)
    start = 0
    for p in pages[:-1]:
        window = text[start:start + max_chars]  # what the page could have held
        if any(s in window[max_chars - max_chars // 4:] for s in ("\n", ". ")):
            assert len(p) >= max_chars - max_chars // 4  # a break in the last quarter: cut there
        elif " " in window[max_chars // 2:]:
            assert len(p) >= max_chars // 2 and p.endswith(" ")
        else:
            assert len(p) == max_chars
        start += len(p)


def _long_heading_doc() -> str:
    """Six nested headings of ~280 characters each over ~5,000 characters of text."""
    title = "Provisions on the retention, archiving, review, transfer and eventual destruction of records " * 3
    heads = "\n\n".join(f"{'#' * level} {level}. {title.strip()} (level {level})" for level in range(1, 7))
    body = " ".join(f"Records of class {i} are kept for {i} years and reviewed each spring." for i in range(1, 80))
    return heads + "\n\n" + body + "\n"


def test_long_names_shrink_the_page_text_so_each_form_stays_within_max_chars_plus_the_envelope(tmp_path):
    from mcp import Client

    from docstrata.mcp_server import PAGE_ENVELOPE_CHARS, build_server

    folder = tmp_path / "docs"
    for part in ("retention-schedules", "records-management-office", "approved-by-the-board", "current-versions"):
        folder /= f"{part}-{'x' * (90 - len(part))}"
    folder.mkdir(parents=True)  # a ~440-character doc_key: named by the source, the cursor and every chunk id
    (folder / "records-retention-and-destruction-schedule-for-all-departments.md").write_text(
        _long_heading_doc(), encoding="utf-8")
    (tmp_path / "agent.yaml").write_text(textwrap.dedent("""\
        tools:
          - name: rules
            type: hierarchical_document
            source: docs/
            database: in-memory
            max_chunk_tokens: 100
        """), encoding="utf-8")
    with docstrata.open(tmp_path / "agent.yaml") as ts:
        server = build_server(ts)
        tool = ts["rules"]
        tool.ingest()
        deepest = tool.search("records of class 12 reviewed", top_k=1)[0].section_id
        doc = tool.list_documents()[0].doc_key
        assert len(doc) > 400
        whole = tool.get_section(doc, deepest, max_chars=None).content

        async def read_all(max_chars: int):
            pages, cursor = [], None
            async with Client(server) as client:
                while True:
                    r = await client.call_tool("rules_get_section", {"document": doc, "section_id": deepest,
                                                                     "max_chars": max_chars}
                                               | ({"cursor": cursor} if cursor else {}))
                    assert not r.is_error, r.content
                    pages.append(r)
                    cursor = r.structured_content["next_cursor"]
                    if not cursor:
                        return pages

        for max_chars in (300, 1500):
            pages = anyio.run(read_all, max_chars)
            assert "".join(p.structured_content["content"] for p in pages) == whole
            for p in pages:
                text = "\n".join(c.text for c in p.content)
                js = len(json.dumps(p.structured_content, ensure_ascii=False, separators=(",", ":")))
                assert max(len(text), js) <= max_chars + PAGE_ENVELOPE_CHARS or \
                    len(p.structured_content["content"]) <= 200
            body = [len(p.structured_content["content"]) for p in pages[:-1]]
            assert body and max(body) < max_chars, body  # the text gave way to the envelope
