"""The Python API (DESIGN §1): ``docstrata.open(path)[name]`` tools, their async twins, the pinned
public namespace, lazy imports; and the HoloDeck example ``agent.yaml`` (issue 7 item 6)."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import docstrata
from docstrata.models import IngestReport, RecordResult, SearchResult

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "holodeck"

PUBLIC_API = [
    "open", "__version__", "ConfigError", "ConversionError", "RecordError", "SourceError", "StoreError",
    "ProviderError", "DocstrataError", "QueryError", "SearchResult", "RecordResult", "IngestReport", "Toolset",
    "HierarchicalDocumentTool", "VectorstoreTool",
]


def test_public_namespace_is_pinned():
    assert docstrata.__all__ == PUBLIC_API
    for name in PUBLIC_API:
        assert getattr(docstrata, name) is not None, name
    assert issubclass(docstrata.QueryError, ValueError)
    assert issubclass(docstrata.ConfigError, docstrata.DocstrataError)
    with pytest.raises(AttributeError):
        docstrata.not_a_public_name  # noqa: B018


HEAVY = ("torch", "sentence_transformers", "transformers", "tantivy", "markitdown", "mcp")


def _fresh_import(statement: str) -> dict:
    code = textwrap.dedent(f"""
        import json, sys
        {statement}
        heavy = sorted({{m.split('.')[0] for m in sys.modules}} & set({list(HEAVY)!r}))
        print(json.dumps({{"heavy": heavy}}))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_import_is_lazy():
    """``import docstrata`` loads no model runtime, index engine or converter: what makes it fast
    (its time, once asserted here, is ``bench/speed_claims.py``'s "import docstrata")."""
    assert _fresh_import("import docstrata")["heavy"] == []


def test_opening_a_config_loads_no_model_until_first_use(tmp_path):
    """What `docstrata serve` does before listing tools: config, toolset and server, no model."""
    cfg = _corpus(tmp_path)
    report = _fresh_import(f"import docstrata; docstrata.open({str(cfg)!r})")
    assert not {"torch", "sentence_transformers", "tantivy"} & set(report["heavy"])


# --------------------------------------------------------------------------- docstrata.open
POLICY = """\
# Leave Policy

## 1. Definitions

"Working Day" means a day from Monday to Friday that is not a public holiday.

## 2. Annual leave

### 2.1 Entitlement

Each employee has twenty-five days of annual leave per year; each Working Day taken counts as one.

### 2.2 Carry over

Up to five unused days may be carried over to the next year.
"""

CSV = "sku,name,blurb,colour\nA1,Desk lamp,Adjustable LED desk lamp,black\nB2,Office chair,Ergonomic mesh chair,grey\n"


def _corpus(root: Path) -> Path:
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "leave.md").write_text(POLICY, encoding="utf-8")
    (root / "items.csv").write_text(CSV, encoding="utf-8")
    cfg = root / "agent.yaml"
    cfg.write_text(textwrap.dedent("""\
        tools:
          - name: policies
            type: hierarchical_document
            description: HR policies
            source: docs/
            database: in-memory
          - name: items
            type: vectorstore
            source: items.csv
            id_field: sku
            vector_field: [name, blurb]
            database: in-memory
        """), encoding="utf-8")
    return cfg


@pytest.fixture(scope="module")
def toolset(tmp_path_factory):
    with docstrata.open(_corpus(tmp_path_factory.mktemp("api"))) as tools:
        yield tools


def test_open_returns_tools_by_name(toolset, tmp_path):
    assert isinstance(toolset, docstrata.Toolset)
    assert len(toolset) == 2 and [t.name for t in toolset] == ["policies", "items"]
    assert isinstance(toolset["policies"], docstrata.HierarchicalDocumentTool)
    assert isinstance(toolset["items"], docstrata.VectorstoreTool)
    with pytest.raises(KeyError, match="policies, items"):
        toolset["nope"]
    with pytest.raises(docstrata.ConfigError, match="file not found"):
        docstrata.open(tmp_path / "missing.yaml")


def test_sync_api(toolset):
    policies, items = toolset["policies"], toolset["items"]
    report = policies.ingest()
    assert isinstance(report, IngestReport) and report.files_total == 1 and not report.failed
    hits = policies.search("how many days of annual leave", top_k=2, mode="hybrid")
    assert 1 <= len(hits) <= 2 and all(isinstance(h, SearchResult) for h in hits)
    assert hits[0].section_id == "2.1" and hits[0].source_path == "leave.md"
    assert "Working Day" in hits[0].definitions_context
    assert [c.section_id for c in policies.get_section("leave", "2.2")] == ["2.2"]
    [definition] = policies.get_definition("working day")
    assert definition.term == "Working Day" and definition.doc_key == "leave.md"
    record = items.get_record("B2")
    assert isinstance(record, RecordResult) and record.content == "Office chair\nErgonomic mesh chair"
    assert items.search("lamp", top_k=1)[0].id == "A1"
    for bad in ({"top_k": 0}, {"top_k": 101}, {"mode": "fuzzy"}):
        with pytest.raises(docstrata.QueryError):
            policies.search("leave", **bad)
    with pytest.raises(docstrata.QueryError):
        policies.search("  ")
    with pytest.raises(docstrata.QueryError, match="9.9"):
        policies.get_section("leave.md", "9.9")
    with pytest.raises(docstrata.QueryError):
        items.get_record("Z9")


def test_async_twins_match_sync(toolset):
    policies, items = toolset["policies"], toolset["items"]

    async def run():
        return await asyncio.gather(policies.asearch("carry over unused days", top_k=3),
                                    policies.aget_section("leave.md", "2.1"),
                                    policies.aget_definition("Working Day"),
                                    items.asearch("chair", top_k=1),
                                    items.aget_record("A1"),
                                    policies.aingest())

    found, section, definitions, records, record, report = asyncio.run(run())
    assert [h.chunk_id for h in found] == [h.chunk_id for h in policies.search("carry over unused days", top_k=3)]
    assert section == policies.get_section("leave.md", "2.1")
    assert [d.term for d in definitions] == ["Working Day"]
    assert records[0].id == "B2" and record.id == "A1"
    assert report.unchanged == 1 and report.added == 0  # the second ingest found nothing to do


# --------------------------------------------------------------------------- HoloDeck example
@pytest.fixture()
def holodeck(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "holodeck")
    return tmp_path / "holodeck" / "agent.yaml"


def test_holodeck_example_loads_our_tools_with_one_notice_per_foreign_part(holodeck):
    from docstrata.config import load_config

    cfg = load_config(holodeck)
    assert [(t.name, t.type) for t in cfg.tools] == [("travel_policy", "hierarchical_document"),
                                                      ("hotels", "vectorstore")]
    ignored = {"name", "description", "model", "instructions", "evaluations", "test_cases"}
    for key in ignored:
        assert sum(f"'{key}'" in n for n in cfg.notices) == 1, (key, cfg.notices)
    assert sum("'calendar'" in n and "'mcp'" in n for n in cfg.notices) == 1
    assert len(cfg.notices) == len(ignored) + 1


def test_holodeck_example_serves_our_tools(holodeck):
    """The example, served in process through the SDK's client: tools listed, both tool types answer."""
    import anyio
    from mcp import Client

    from docstrata.mcp_server import build_server

    async def run():
        with docstrata.open(holodeck) as tools:
            async with Client(build_server(tools)) as client:
                names = sorted(t.name for t in (await client.list_tools()).tools)
                section = await client.call_tool("travel_policy_search", {"query": "Section 3.2", "top_k": 2})
                definition = await client.call_tool("travel_policy_get_definition", {"term": "business trip"})
                hotel = await client.call_tool("hotels_search", {"query": "Lyon, next to the train station"})
                return names, section, definition, hotel

    names, section, definition, hotel = anyio.run(run)
    assert names == ["hotels_get_record", "hotels_list_documents", "hotels_search", "travel_policy_cited_by",
                     "travel_policy_get_definition",
                     "travel_policy_get_neighbours", "travel_policy_get_section", "travel_policy_list_documents",
                     "travel_policy_search"]
    assert not section.is_error and section.structured_content["results"][0]["section_id"] == "3.2"
    assert definition.structured_content["definitions"][0]["document"] == "travel-policy.md"
    assert hotel.structured_content["results"][0]["id"] == "H-LYS-02"
    assert (holodeck.parent / ".docstrata" / "travel_policy").is_dir()  # the embedded index, beside the yaml
