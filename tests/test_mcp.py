"""The MCP server, driven by the ``mcp`` SDK's own client over stdio and streamable HTTP.

One server process per transport (the embedding model loads once per process, ~6 s); the
corpus is written by the fixtures into a temporary folder and indexed in memory.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from anyio.from_thread import start_blocking_portal

from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from docstrata.mcp_server import PAGE_ENVELOPE_CHARS  # noqa: E402

POLICY = """\
# Data Protection Policy

## 1. Definitions

"Personal Data" means any information relating to an identified or identifiable natural person.

"Controller" means the body which determines the purposes and means of processing Personal Data.

## 2. Retention

### 2.1 Retention periods

Customer records are kept for seven years after the contract ends, then destroyed.

### 2.2 Erasure

A data subject may ask the Controller to erase their Personal Data without undue delay.
The Controller answers within one month. Retention under Section 2.1 still applies.

## 3. Security

Laptops use full-disk encryption. Passwords are at least fourteen characters long.

Access to the server room is restricted:

(a) staff show their badge at the door;

(b) visitors are admitted only when:

(1) a member of staff escorts them at all times; and

(2) they sign the visitor log on arrival.
"""

HANDBOOK = """\
# Staff Handbook

## 1. Working hours

Core hours are ten to four. Overtime needs a manager's approval in writing.

## 2. Travel

Economy class for flights under six hours; receipts are filed within thirty days.
"""

# Long passages (no numbered sections): what an answer budget has to cut.
GUIDE = "# Records Management Guide\n\n" + "\n\n".join(
    f"## {topic}\n\n" + f"Retention of personal data in {topic.lower()} follows the schedule agreed with the archive. " * 18
    for topic in ("Archiving", "Backups", "Email", "Paper files", "Logs"))

# A record longer than a page (about 2,900 characters): get_record reads it in pages.
BOOT_CARE = "P-400,Boot care manual,\"" + " ".join(
    f"Step {i}: brush the boots and let them dry slowly away from the stove." for i in range(1, 41)) + "\",manuals,999"
PRODUCTS = """\
id,title,description,category,price
P-100,Trail shoe,Light running shoe for rocky mountain trails,shoes,120
P-200,Rain jacket,Waterproof shell jacket with a hood,jackets,210
P-300,Wool socks,Merino socks that keep feet warm,socks,18
""" + BOOT_CARE + "\n"

# A HoloDeck-style agent.yaml: model, instructions, evaluations, an mcp tool and our two types.
AGENT_YAML = """\
name: policy-assistant
description: Answers questions about company policies and products
model:
  provider: openai
  name: gpt-4o
  temperature: 0.1
instructions:
  inline: You answer from the company's policies and catalogue, citing sections.
evaluations:
  metrics:
    - metric: groundedness
      threshold: 0.7
tools:
  - name: policies
    type: hierarchical_document
    description: Company policies and the staff handbook
    source: docs/
    database: in-memory
  - name: products
    type: vectorstore
    description: Product catalogue
    source: data/products.csv
    id_field: id
    vector_field: [title, description]
    meta_fields: [category, price]
    database: in-memory
  - name: broken
    type: hierarchical_document
    description: A tool whose source folder is missing
    source: missing-folder/
    database: in-memory
  - name: web
    type: mcp
    command: npx
    args: ["-y", "@modelcontextprotocol/server-fetch"]
"""


def write_corpus(root: Path, agent_yaml: str = AGENT_YAML) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "data").mkdir()
    (root / "docs" / "policy.md").write_text(POLICY, encoding="utf-8")
    (root / "docs" / "handbook.md").write_text(HANDBOOK, encoding="utf-8")
    (root / "docs" / "guide.md").write_text(GUIDE, encoding="utf-8")
    (root / "data" / "products.csv").write_text(PRODUCTS, encoding="utf-8")
    cfg = root / "agent.yaml"
    cfg.write_text(agent_yaml, encoding="utf-8")
    return cfg


def server_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH")}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false", **extra)
    return env


@asynccontextmanager
async def stdio_session(config: Path):
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "docstrata.cli", "serve", "-c", str(config)],
                                   env=server_env(), cwd=str(config.parent))
    with open(config.parent / "server.stderr", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=120) as session:
                await session.initialize()
                yield session


class Server:
    """A live client session on a background event loop; ``call`` runs a tool synchronously."""

    def __init__(self, portal, session: ClientSession, root: Path):
        self.portal, self.session, self.root = portal, session, root

    def call(self, name: str, args: dict, progress=None):
        return self.portal.call(lambda: self.session.call_tool(name, args, progress_callback=progress))

    def gather(self, calls: list[tuple[str, dict]], with_progress: bool = False):
        """Run ``calls`` concurrently; returns (results, progress events per call)."""
        results: list = [None] * len(calls)
        events: list[list[tuple]] = [[] for _ in calls]

        async def run_all():
            async def one(i, name, args):
                async def progress(p, total, message):
                    events[i].append((p, total, message))
                results[i] = await self.session.call_tool(name, args,
                                                          progress_callback=progress if with_progress else None)
            async with anyio.create_task_group() as tg:
                for i, (name, args) in enumerate(calls):
                    tg.start_soon(one, i, name, args)

        self.portal.call(run_all)
        return results, events


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("mcp_stdio")
    config = write_corpus(root)
    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(stdio_session(config)) as session:
            yield Server(portal, session, root)


def text_of(result) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


# ------------------------------------------------------------------------------- stdio
def test_lists_our_tools_with_yaml_descriptions_and_argument_limits(server):
    tools = {t.name: t for t in server.portal.call(server.session.list_tools).tools}
    assert set(tools) == {"policies_search", "policies_get_section", "policies_get_definition",
                          "policies_get_neighbours", "policies_list_documents", "policies_cited_by",
                          "products_search", "products_get_record", "products_list_documents",
                          "broken_search", "broken_get_section", "broken_get_definition", "broken_get_neighbours", "broken_cited_by",
                          "broken_list_documents"}
    assert "Company policies and the staff handbook" in tools["policies_search"].description
    assert "Product catalogue" in tools["products_get_record"].description
    for name in ("policies_search", "products_search"):
        top_k = tools[name].input_schema["properties"]["top_k"]
        assert (top_k["minimum"], top_k["maximum"]) == (1, 100)
        assert tools[name].input_schema["required"] == ["query"]
        assert tools[name].output_schema["properties"]["results"]["type"] == "array"
    assert tools["policies_search"].input_schema["properties"]["mode"]["enum"] == ["hybrid", "semantic", "keyword",
                                                                                   "exact"]
    assert tools["policies_get_section"].input_schema["required"] == ["document"]
    for name in ("policies_search", "products_search"):
        props = tools[name].input_schema["properties"]
        assert {"document", "min_similarity_score", "min_fused_score", "max_chars", "mode"} <= set(props)
    assert "section" in tools["policies_search"].input_schema["properties"]
    props = tools["policies_search"].input_schema["properties"]  # issue 29: passage answers and the cut-off
    assert props["passage"]["type"] == "boolean" and props["span"]["type"] == "boolean"
    assert (props["min_relative_score"]["anyOf"][0]["exclusiveMinimum"], props["min_relative_score"]["anyOf"][0]["maximum"]) == (0, 1)
    assert "filters" in tools["products_search"].input_schema["properties"]
    assert {"max_chars", "cursor"} <= set(tools["policies_get_section"].input_schema["properties"])
    assert {"max_chars", "cursor"} <= set(tools["products_get_record"].input_schema["properties"])
    assert tools["policies_get_definition"].input_schema["required"] == ["term"]
    assert tools["policies_search"].annotations.read_only_hint is True


def test_readme_tool_table_states_each_max_chars_default_and_minimum_the_server_enforces(server):
    import re

    tools = {t.name: t for t in server.portal.call(server.session.list_tools).tools}
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    rows = {m.group(1) + (m.group(2) or ""): m.group(3) for m in re.finditer(
        r"^\| `<name>_(\w+)`( \(records\))?[^|]*\| ([^\n]*)$", readme, re.M)}
    for row, name in (("search", "policies_search"), ("search (records)", "products_search"),
                      ("get_section", "policies_get_section"), ("get_neighbours", "policies_get_neighbours"),
                      ("get_record", "products_get_record")):
        stated = re.search(r"`max_chars` \(([\d,]+); at least ([\d,]+)\)", rows[row])
        assert stated, f"README row {row} states no max_chars default and minimum"
        schema = tools[name].input_schema["properties"]["max_chars"]
        assert (schema["default"], schema["minimum"]) == tuple(int(v.replace(",", "")) for v in stated.groups()), row


def test_concurrent_first_calls_ingest_once_and_report_progress(tmp_path):
    # `serve` ingests before it accepts calls; a server built with build_server alone opens a tool on
    # its first call: 5 concurrent first calls on a tool never used.
    from mcp import Client

    import docstrata
    from docstrata.mcp_server import build_server

    config = write_corpus(tmp_path)
    events: list[list[tuple]] = [[] for _ in range(5)]

    async def go():
        with docstrata.open(config) as ts:
            async with Client(build_server(ts)) as client:
                results: list = [None] * 5

                async def one(i):
                    async def progress(p, total, message):
                        events[i].append((p, total, message))
                    results[i] = await client.call_tool("products_search", {"query": "waterproof jacket", "top_k": 2},
                                                        progress_callback=progress)
                async with anyio.create_task_group() as tg:
                    for i in range(5):
                        tg.start_soon(one, i)
                return results

    results = anyio.run(go)
    assert all(not r.is_error for r in results), [text_of(r) for r in results if r.is_error]
    reporting = [e for e in events if e]
    assert len(reporting) == 1, f"expected one ingest reporting progress, got {events}"
    assert reporting[0][-1][0] == reporting[0][-1][1]  # the last notification says done == total
    assert any("products" in (m or "") for _, _, m in reporting[0])
    for r in results:
        assert r.structured_content["results"][0]["id"] == "P-200"


def test_search_returns_formatted_text_and_structured_results(server):
    result = server.call("policies_search", {"query": "Section 2.2", "top_k": 3})
    assert not result.is_error, text_of(result)
    hits = result.structured_content["results"]
    assert 1 <= len(hits) <= 3
    top = hits[0]
    assert (top["source_path"], top["section_id"], top["exact_match"]) == ("policy.md", "2.2", True)
    assert top["location"].endswith("2.2 Erasure")
    assert top["pinned"] is True and top["score"] >= max(h["score"] for h in hits)
    text = text_of(result)
    # the text is SearchResult.format(): score, source, location, section, content, definitions
    assert text.startswith("Confidence: high")
    first = text.split("\n\n---\n\n")[0]
    assert "\nScore: " in first
    for line in ("Source: policy.md", f"Location: {top['location']}", "Section: 2.2", "Defined terms used"):
        assert line in first
    assert "erase their Personal Data" in first
    # each definition once, at the end, referenced by term from the hits
    assert text.count("identified or identifiable natural person") <= 1
    assert "Controller" in top["definitions"]
    defs = result.structured_content["definitions"]
    assert len({(d["term"], d["document"]) for d in defs}) == len(defs)
    assert {d["term"] for d in defs} >= set(top["definitions"])


def test_a_cited_sub_item_is_shown_with_its_offsets_and_the_rest_of_the_chunk_left_out(server):
    result = server.call("policies_search", {"query": "Section 3(b)(2)", "top_k": 3})
    assert not result.is_error, text_of(result)
    top = result.structured_content["results"][0]  # validated against the output schema by the SDK
    pin = top["pinpoint"]
    assert top["section_id"] == pin["section_id"] == "3(b)(2)" and top["pinned"]
    assert pin["text"] == "(2) they sign the visitor log on arrival." and 0 < pin["start"] < pin["end"]
    # the section's list introduction and item (b)'s lead-in above it, "…" where text is left out
    assert top["content"] == ("…\nAccess to the server room is restricted:\n…\n(b) visitors are admitted only when:"
                              "\n…\n" + pin["text"])
    assert top["truncated"] and "encryption" not in top["content"] and pin["end"] <= top["content_chars"]
    whole = server.call("policies_get_neighbours", {"chunk_id": top["id"], "before": 0, "after": 0})
    chunk = whole.structured_content["chunks"][0]["content"]
    assert chunk[pin["start"]:pin["end"]].strip() == pin["text"] and "encryption" in chunk
    first = text_of(result).split("\n\n---\n\n")[0]
    assert "Pinpoint: 3(b)(2), characters" in first and "get_neighbours(chunk_id=" in first
    assert "escorts them" not in first and "Laptops" not in first
    plain = server.call("policies_search", {"query": "Section 3", "top_k": 3}).structured_content["results"][0]
    assert plain["section_id"] == "3" and "pinpoint" not in plain and "Laptops" in plain["content"]


def test_search_modes_and_semantic_match(server):
    result = server.call("policies_search", {"query": "how long do we keep customer files", "top_k": 1,
                                             "mode": "semantic"})
    assert not result.is_error, text_of(result)
    assert result.structured_content["results"][0]["section_id"] == "2.1"
    keyword = server.call("policies_search", {"query": "receipts", "mode": "keyword"})
    assert keyword.structured_content["results"][0]["source_path"] == "handbook.md"
    assert keyword.structured_content["results"][0].get("semantic_score") is None


def test_get_section_by_file_name_and_stem(server):
    for document in ("policy.md", "policy"):
        result = server.call("policies_get_section", {"document": document, "section_id": "2.1"})
        assert not result.is_error, text_of(result)
        assert result.structured_content["document"] == "policy.md"
        assert "seven years" in result.structured_content["content"]
        assert "Undue delay" not in result.structured_content["content"]
        assert "Section: 2.1" in text_of(result)


def test_get_definition(server):
    result = server.call("policies_get_definition", {"term": "personal data"})
    assert not result.is_error, text_of(result)
    defs = result.structured_content["definitions"]
    assert [(d["term"], d["document"]) for d in defs] == [("Personal Data", "policy.md")]
    assert "identifiable natural person" in defs[0]["definition"]
    assert "identifiable natural person" in text_of(result)
    # no lead-in states a narrower scope: the definition governs the whole document, and says so
    assert defs[0]["scope"] is None and defs[0]["applies_in"] == "the whole document"
    assert "Applies in: the whole document" in text_of(result)


def test_get_record(server):
    result = server.call("products_get_record", {"id": "P-300"})
    assert not result.is_error, text_of(result)
    assert result.structured_content["metadata"] == {"category": "socks", "price": "18"}
    assert "Merino" in text_of(result) and "Id: P-300" in text_of(result)


def test_list_documents_gives_every_document_entry(server):
    result = server.call("policies_list_documents", {})
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert data["total"] == 3 and data["next_offset"] is None
    docs = {d["doc_key"]: d for d in data["documents"]}
    policy = docs["policy.md"]
    assert policy["title"] == "Data Protection Policy" and policy["language"] == "en" and policy["file_type"] == "md"
    assert [s["section_id"] for s in policy["top_sections"]] == ["1", "2", "3"]
    assert policy["total_chunks"] >= 1 and policy["section_count"] >= 5 and policy["ingested_at"].endswith("Z")
    assert "Document: handbook.md" in text_of(result) and "Top-level sections:" in text_of(result)
    page = server.call("policies_list_documents", {"limit": 1})
    assert page.structured_content["next_offset"] == 1 and "offset=1" in text_of(page)
    records = server.call("products_list_documents", {})
    assert [(d["doc_key"], d["total_chunks"]) for d in records.structured_content["documents"]] == [("products.csv", 4)]


def test_search_filters_by_document_and_section(server):
    only = server.call("policies_search", {"query": "approval in writing", "document": "handbook"})
    assert not only.is_error, text_of(only)
    assert {h["source_path"] for h in only.structured_content["results"]} == {"handbook.md"}
    section = server.call("policies_search", {"query": "personal data", "section": "2", "document": ["policy.md"]})
    hits = section.structured_content["results"]
    assert hits and {h["section_id"] for h in hits} <= {"2", "2.1", "2.2"}
    cited = server.call("policies_search", {"query": "personal data", "section": "Section 2.2"})
    assert {h["section_id"] for h in cited.structured_content["results"]} == {"2.2"}
    bad = server.call("policies_search", {"query": "x y", "document": "nope"})
    assert bad.is_error and "no document 'nope'" in text_of(bad) and "policy.md" in text_of(bad)


def test_search_answer_budget_cuts_passages_not_hits(server):
    full = server.call("policies_search", {"query": "personal data retention", "top_k": 5})
    assert {h["source_path"] for h in full.structured_content["results"]} >= {"guide.md"}
    budget = int(len(text_of(full)) * 0.6)
    small = server.call("policies_search", {"query": "personal data retention", "top_k": 5, "max_chars": budget})
    assert not small.is_error, text_of(small)
    ids = [h["id"] for h in full.structured_content["results"]]
    assert [h["id"] for h in small.structured_content["results"]] == ids
    assert len(text_of(small)) <= budget
    assert len(json.dumps(small.structured_content, ensure_ascii=False, separators=(",", ":"))) <= budget
    assert small.structured_content["truncated"] is True and "get_neighbours(chunk_id=" in text_of(small)
    scores = [h["score"] for h in full.structured_content["results"]]
    assert scores == sorted(scores, reverse=True)


def test_passage_search_answers_with_passages_each_cited_to_its_section(server):
    """``passage: true``: the hits are passages (a chunk may give several), each one's text the
    characters its ``passage`` offsets give in the chunk ``get_neighbours`` returns."""
    query = "Can a data subject ask the Controller to erase their Personal Data, and how fast is the answer?"
    result = server.call("policies_search", {"query": query, "top_k": 4, "passage": True})
    assert not result.is_error, text_of(result)
    hits = result.structured_content["results"]
    assert 1 <= len(hits) <= 4 and hits[0]["section_id"] == "2.2" and "erase" in hits[0]["content"]
    for h in hits:
        chunk = server.call("policies_get_neighbours", {"chunk_id": h["id"], "before": 0, "after": 0})
        content = chunk.structured_content["chunks"][0]["content"]
        p = h["passage"]
        assert content[p["start"] : p["end"]] == h["content"] and len(h["content"]) <= len(content)


@pytest.mark.parametrize("max_chars,top_k", [(2000, 10), (2500, 5), (3000, 20)])
def test_search_answers_within_small_budgets_drop_trailing_hits_and_say_so(server, max_chars, top_k):
    assert server.call("policies_search", {"query": "x", "max_chars": 1999}).is_error  # the documented minimum
    full = server.call("policies_search", {"query": "personal data retention", "top_k": top_k}).structured_content
    small = server.call("policies_search", {"query": "personal data retention", "top_k": top_k,
                                            "max_chars": max_chars})
    assert not small.is_error, text_of(small)
    data = small.structured_content
    assert len(text_of(small)) <= max_chars
    assert len(json.dumps(data, ensure_ascii=False, separators=(",", ":"))) <= max_chars
    ids = [h["id"] for h in data["results"]]
    assert ids and ids == [h["id"] for h in full["results"]][: len(ids)]
    if len(ids) < len(full["results"]):
        assert data["truncated"] and any("more hit(s) left out" in n for n in data["notices"])


def test_thresholds_and_confidence(server):
    found = server.call("policies_search", {"query": "erase personal data", "min_similarity_score": 0.4})
    hits = found.structured_content["results"]
    assert hits and all(h["semantic_score"] >= 0.4 for h in hits)
    assert found.structured_content["confidence"]["level"] == "high"
    empty = server.call("policies_search", {"query": "the of and"})
    assert not empty.is_error and empty.structured_content["results"] == []
    assert empty.structured_content["confidence"] == {**empty.structured_content["confidence"], "level": "none",
                                                      "content_words": False}
    assert "no content words" in text_of(empty)
    off = server.call("policies_search", {"query": "quantum chromodynamics of gluons"})
    assert off.structured_content["confidence"]["level"] == "low" and text_of(off).startswith("Confidence: low")


def test_get_section_pages_with_a_cursor_to_the_end(server):
    whole = server.call("policies_get_section", {"document": "policy", "max_chars": 1_000_000})
    assert whole.structured_content["next_cursor"] is None and whole.structured_content["section_id"] == ""
    text, cursor, pages = "", None, 0
    while True:
        args = {"document": "policy", "max_chars": 300} | ({"cursor": cursor} if cursor else {})
        page = server.call("policies_get_section", args)
        assert not page.is_error, text_of(page)
        data = page.structured_content
        # max_chars is the page's text; the citation and cursor come on top, bounded
        assert len(data["content"]) <= 300 and len(text_of(page)) <= 300 + PAGE_ENVELOPE_CHARS
        assert len(json.dumps(data, ensure_ascii=False, separators=(",", ":"))) <= 300 + PAGE_ENVELOPE_CHARS
        assert data["offset"] == len(text)
        text += data["content"]
        pages += 1
        cursor = data["next_cursor"]
        if cursor is None:
            break
        assert f"cursor='{cursor}'" in text_of(page)
    assert pages > 2 and text == whole.structured_content["content"]
    bad = server.call("policies_get_section", {"document": "policy", "cursor": "5:00000000"})
    assert bad.is_error and "cursor" in text_of(bad)



def _form_sizes(result) -> tuple[int, int, int]:
    """(text form, compact JSON form, the whole result as the client received it in UTF-8 bytes)."""
    data = result.structured_content
    return (len(text_of(result)), len(json.dumps(data, ensure_ascii=False, separators=(",", ":"))),
            len(result.model_dump_json(by_alias=True, exclude_none=True).encode()))


def test_a_page_carries_max_chars_of_section_text_and_a_bounded_envelope(server):
    """max_chars of get_section is the text per page (as in the API and CLI), not the size of the
    text and JSON forms, which once left ~600 characters of text in a 1,500-character page."""
    tools = {t.name: t for t in server.portal.call(server.session.list_tools).tools}
    described = tools["policies_get_section"].description
    assert "characters of section text per page" in described and f"{PAGE_ENVELOPE_CHARS:,} more" in described
    assert "Characters of text per page" in tools["policies_get_section"].input_schema["properties"]["max_chars"][
        "description"]
    whole = server.call("policies_get_section", {"document": "guide", "max_chars": 1_000_000}).structured_content
    assert whole["total_chars"] > 6000  # five ~1,600-character sections: several pages of 1,500
    for max_chars in (1500, 8000):
        pages, joined, cursor = [], "", None
        while True:
            page = server.call("policies_get_section", {"document": "guide", "max_chars": max_chars}
                               | ({"cursor": cursor} if cursor else {}))
            assert not page.is_error, text_of(page)
            data = page.structured_content
            pages.append((len(data["content"]), *_form_sizes(page)))
            joined += data["content"]
            cursor = data["next_cursor"]
            if cursor is None:
                break
        assert joined == whole["content"]
        for content, text, js, wire in pages[:-1]:  # every page but the last is close to max_chars
            assert 0.75 * max_chars <= content <= max_chars, (max_chars, pages)
        for content, text, js, wire in pages:  # the envelope: citation, cursor, chunk ids
            assert text - content <= PAGE_ENVELOPE_CHARS and js - content <= PAGE_ENVELOPE_CHARS, pages
            assert wire <= 2 * (max_chars + PAGE_ENVELOPE_CHARS) + 500, pages  # + the result's own keys


def test_neighbours_and_records_count_max_chars_as_their_text(server):
    hit = server.call("policies_search", {"query": "retention of email", "top_k": 1,
                                          "document": "guide"}).structured_content["results"][0]
    around = server.call("policies_get_neighbours", {"chunk_id": hit["id"], "before": 1, "after": 1,
                                                     "max_chars": 600})
    data = around.structured_content
    shown = sum(len(c["content"]) for c in data["chunks"])
    assert data["truncated"] and 540 <= shown <= 600, [len(c["content"]) for c in data["chunks"]]
    assert len(text_of(around)) - shown <= PAGE_ENVELOPE_CHARS
    whole = server.call("products_get_record", {"id": "P-400", "max_chars": 1_000_000}).structured_content
    joined, cursor, sizes = "", None, []
    while True:
        page = server.call("products_get_record", {"id": "P-400", "max_chars": 1000}
                           | ({"cursor": cursor} if cursor else {}))
        assert not page.is_error, text_of(page)
        joined += page.structured_content["content"]
        sizes.append((len(page.structured_content["content"]), *_form_sizes(page)))
        cursor = page.structured_content["next_cursor"]
        if cursor is None:
            break
    assert joined == whole["content"] and len(sizes) >= 3, sizes
    assert all(750 <= content <= 1000 for content, *_ in sizes[:-1]), sizes
    assert all(text - content <= PAGE_ENVELOPE_CHARS and js - content <= PAGE_ENVELOPE_CHARS
               for content, text, js, _ in sizes), sizes

def test_get_neighbours(server):
    hit = server.call("policies_search", {"query": "Section 2.1", "top_k": 1}).structured_content["results"][0]
    around = server.call("policies_get_neighbours", {"chunk_id": hit["id"], "before": 1, "after": 1})
    assert not around.is_error, text_of(around)
    ids = [c["chunk_id"] for c in around.structured_content["chunks"]]
    assert hit["id"] in ids and 1 <= len(ids) <= 3 and around.structured_content["document"] == "policy.md"
    assert f"Chunk: {hit['id']} (asked for)" in text_of(around) and text_of(around).count("(asked for)") == 1
    assert [c["chunk_id"] for c in around.structured_content["chunks"] if c["requested"]] == [hit["id"]]


def test_record_search_filters_mode_and_pages(server):
    shoes = server.call("products_search", {"query": "warm", "filters": {"category": "socks"}})
    assert [h["id"] for h in shoes.structured_content["results"]] == ["P-300"]
    cheap = server.call("products_search", {"query": "jacket shoe socks", "filters": {"price": {"lt": 150}}})
    assert {h["id"] for h in cheap.structured_content["results"]} == {"P-100", "P-300"}
    exact = server.call("products_search", {"query": "P-200", "mode": "exact"})
    top = exact.structured_content["results"][0]
    assert (top["id"], top["pinned"], top["source_path"], top["source_file"]) == ("P-200", True, "products.csv",
                                                                                 "products.csv")
    bad = server.call("products_search", {"query": "x y", "filters": {"price": {"near": 3}}})
    assert bad.is_error and "unknown operator" in text_of(bad)
    record = server.call("products_get_record", {"id": "P-100", "max_chars": 500})
    assert record.structured_content.get("score") is None and "Score:" not in text_of(record)


@pytest.mark.parametrize("name,args,expect", [
    ("policies_search", {"query": "retention", "top_k": 0}, "top_k"),
    ("policies_search", {"query": "retention", "top_k": 101}, "top_k"),
    ("policies_search", {"query": "retention", "top_k": 500}, "top_k: Input should be less than or equal to 100 (got 500)"),
    ("policies_search", {"query": ""}, "bad argument: query: String should have at least 1 character"),
    ("policies_search", {"query": "   "}, "empty"),
    ("policies_search", {"query": "retention", "mode": "fuzzy"}, "mode"),
    ("policies_search", {"top_k": 3}, "query"),
    ("policies_get_section", {"document": "policy.md", "section_id": "9.9"}, "9.9"),
    ("policies_get_section", {"document": "no-such-doc", "section_id": "1"}, "no-such-doc"),
    ("policies_get_definition", {"term": "flux capacitor"}, "flux capacitor"),
    ("products_get_record", {"id": "P-999"}, "P-999"),
    ("products_search", {"query": "socks", "top_k": -1}, "top_k"),
    # a misspelled optional argument must not silently answer another question (the whole document)
    ("policies_get_section", {"document": "policy.md", "section": "2.1"},
     "section: unknown argument; did you mean 'section_id'?"),
])
def test_bad_arguments_are_tool_errors_not_crashes(server, name, args, expect):
    result = server.call(name, args)
    assert result.is_error
    assert expect in text_of(result)
    assert "pydantic.dev" not in text_of(result) and "validation error for" not in text_of(result)
    # the server is still alive and answering
    assert not server.call("products_get_record", {"id": "P-100"}).is_error


def test_twenty_concurrent_searches_all_succeed(server):
    queries = ["retention of customer records", "erase personal data", "Section 2.1", "encryption of laptops",
               "overtime approval", "travel receipts", "\"undue delay\"", "Controller", "password length",
               "flights"] * 2
    results, _ = server.gather([("policies_search", {"query": q, "top_k": 5}) for q in queries])
    assert all(not r.is_error for r in results), [text_of(r) for r in results if r.is_error]
    assert all(r.structured_content["results"] for r in results)
    # concurrency does not mix answers up: the same query gives the same ranking as alone
    alone = server.call("policies_search", {"query": queries[0], "top_k": 5})
    assert [h["chunk_id"] for h in results[0].structured_content["results"]] == \
           [h["chunk_id"] for h in alone.structured_content["results"]]


def test_no_absolute_paths_reach_the_agent(server):
    outputs = [server.call("broken_search", {"query": "anything"}),  # source folder missing: SourceError
               server.call("policies_search", {"query": "security", "top_k": 10}),
               server.call("policies_get_section", {"document": "policy.md", "section_id": "3"}),
               server.call("policies_get_section", {"document": str(server.root / "x.md"), "section_id": "1"}),
               server.call("products_search", {"query": "shoe"})]
    assert outputs[0].is_error and "missing-folder" in text_of(outputs[0])
    root = str(server.root.resolve())
    for r in outputs:
        blob = text_of(r) + json.dumps(r.structured_content or {})
        assert root not in blob and str(Path.home()) + "/" not in blob, blob


# ------------------------------------------------------------------------------- raw stdio
NOISY_SERVER = """
import sys
from docstrata import tools

_orig_ingest = tools.HierarchicalDocumentTool.ingest
def noisy_ingest(self, *a, **kw):
    print("NOISE-FROM-INGEST")
    return _orig_ingest(self, *a, **kw)
_orig_search = tools.HierarchicalDocumentTool.search
def noisy_search(self, *a, **kw):
    print("NOISE-FROM-SEARCH", flush=True)
    import os; os.write(1, b"NOISE-FROM-FD1\\n")
    return _orig_search(self, *a, **kw)
tools.HierarchicalDocumentTool.ingest = noisy_ingest
tools.HierarchicalDocumentTool.search = noisy_search

from docstrata.mcp_server import main
main(["-c", sys.argv[1]])
"""


def _rpc(proc, message: dict) -> None:
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()


def _read_until_response(proc, request_id: int, lines: list[str], deadline: float) -> dict:
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError("server closed stdout")
        lines.append(line)
        msg = json.loads(line)  # every stdout line must be a JSON-RPC message
        if msg.get("id") == request_id:
            return msg
    raise AssertionError("no response in time")


def test_stdout_carries_only_protocol_messages_and_preload_happens_before_serving(tmp_path):
    """Library prints (Python and raw fd 1) during preload and tool calls land on stderr, not stdout.
    The tool has ``defer_loading: false``: its index is built before the first request, so the
    first call sends no progress notifications."""
    config = write_corpus(tmp_path, textwrap.dedent("""\
        tools:
          - name: policies
            type: hierarchical_document
            description: Policies
            source: docs/
            database: in-memory
            defer_loading: false
        """))
    script = tmp_path / "noisy_server.py"
    script.write_text(NOISY_SERVER, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script), str(config)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=open(tmp_path / "stderr.txt", "w"), text=True,
                            env=server_env(), cwd=tmp_path)
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 120
        _rpc(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                               "clientInfo": {"name": "raw-test", "version": "0"}}})
        init = _read_until_response(proc, 1, lines, deadline)
        assert "result" in init, init
        _rpc(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _rpc(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "policies_search", "arguments": {"query": "Section 2.1", "top_k": 1},
                               "_meta": {"progressToken": "tok-1"}}})
        response = _read_until_response(proc, 2, lines, deadline)
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    assert response["result"]["isError"] is False
    assert response["result"]["structuredContent"]["results"][0]["section_id"] == "2.1"
    assert not [m for m in map(json.loads, lines) if m.get("method") == "notifications/progress"]
    stdout_text = "".join(lines)
    stderr_text = (tmp_path / "stderr.txt").read_text()
    for marker in ("NOISE-FROM-INGEST", "NOISE-FROM-SEARCH", "NOISE-FROM-FD1"):
        assert marker not in stdout_text
        assert marker in stderr_text
    # preload ran before the server answered initialize: the ingest print precedes nothing on stdout
    assert stderr_text.index("NOISE-FROM-INGEST") < stderr_text.index("NOISE-FROM-SEARCH")


# ------------------------------------------------------------------------------- HTTP
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, proc, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError("HTTP server did not start")


def test_streamable_http_with_bearer_token(tmp_path):
    import httpx2
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    config = write_corpus(tmp_path)
    port = _free_port()
    token = "s3cret-token-for-test"
    proc = subprocess.Popen([sys.executable, "-m", "docstrata.cli", "serve", "-c", str(config), "--transport", "http",
                             "--port", str(port), "--token-env", "DOCSTRATA_TEST_TOKEN"],
                            stdout=subprocess.DEVNULL, stderr=open(tmp_path / "stderr.txt", "w"),
                            env=server_env(DOCSTRATA_TEST_TOKEN=token), cwd=tmp_path)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        _wait_for_port(port, proc)
        assert f"at http://127.0.0.1:{port}/mcp" in (tmp_path / "stderr.txt").read_text()  # says where it listens
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                           "clientInfo": {"name": "t", "version": "0"}}}
        headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
        for auth in ({}, {"authorization": "Bearer wrong"}, {"authorization": token}):
            r = httpx2.post(url, json=init, headers=headers | auth, timeout=10)
            assert r.status_code == 401, (auth, r.status_code)

        async def session_checks():
            client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
            async with client, streamable_http_client(url, http_client=client) as (read, write):
                async with ClientSession(read, write, read_timeout_seconds=120) as session:
                    await session.initialize()
                    names = {t.name for t in (await session.list_tools()).tools}
                    assert {"policies_search", "products_get_record"} <= names
                    found = await session.call_tool("policies_search", {"query": "Section 2.1", "top_k": 2})
                    assert not found.is_error, text_of(found)
                    assert found.structured_content["results"][0]["section_id"] == "2.1"
                    section = await session.call_tool("policies_get_section",
                                                      {"document": "handbook", "section_id": "2"})
                    assert "thirty days" in section.structured_content["content"]
                    page = await session.call_tool("policies_get_section", {"document": "policy", "max_chars": 500})
                    assert page.structured_content["next_cursor"]
                    rest = await session.call_tool("policies_get_section", {
                        "document": "policy", "max_chars": 1_000_000, "cursor": page.structured_content["next_cursor"]})
                    assert rest.structured_content["next_cursor"] is None
                    listed = await session.call_tool("policies_list_documents", {})
                    assert listed.structured_content["total"] == 3
                    near = await session.call_tool("policies_get_neighbours", {"chunk_id": "policy.md#0", "after": 1})
                    assert [c["chunk_id"] for c in near.structured_content["chunks"]][0] == "policy.md#0"
                    narrowed = await session.call_tool("policies_search", {"query": "travel", "document": "handbook",
                                                                           "max_chars": 2000, "section": "2"})
                    assert {h["source_path"] for h in narrowed.structured_content["results"]} == {"handbook.md"}
                    socks = await session.call_tool("products_search", {"query": "warm", "mode": "hybrid",
                                                                        "filters": {"category": ["socks"]}})
                    assert [h["id"] for h in socks.structured_content["results"]] == ["P-300"]
                    bad = await session.call_tool("policies_search", {"query": "x", "top_k": 0})
                    assert bad.is_error
                    results = []

                    async def one(q):
                        results.append(await session.call_tool("policies_search", {"query": q, "top_k": 3}))
                    async with anyio.create_task_group() as tg:
                        for i in range(20):
                            tg.start_soon(one, f"retention period {i}")
                    assert len(results) == 20 and not any(r.is_error for r in results)

        anyio.run(session_checks)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_http_token_env_must_be_set(tmp_path):
    from docstrata.errors import ConfigError
    from docstrata.mcp_server import serve

    config = write_corpus(tmp_path)
    os.environ.pop("DOCSTRATA_UNSET_TOKEN_VAR", None)
    with pytest.raises(ConfigError, match="DOCSTRATA_UNSET_TOKEN_VAR"):
        serve(str(config), transport="http", port=_free_port(), token_env="DOCSTRATA_UNSET_TOKEN_VAR")


def test_scrub_paths_keeps_relative_paths_and_urls():
    from docstrata.mcp_server import scrub_paths

    msg = "source 'docs/' does not exist (resolved to /srv/agents/acme/docs); see http://127.0.0.1:8000/rerank"
    out = scrub_paths(msg, ["/srv/agents/acme"])
    assert out == "source 'docs/' does not exist (resolved to docs); see http://127.0.0.1:8000/rerank"
    assert scrub_paths("cannot read /etc/secret/file.txt", []) == "cannot read <path>"
