"""What a new HoloDeck user met in trial 16 (notes/trial16-report.md), on HoloDeck-style files:
records without id_field / vector_field (fields detected), a knowledge_base/ folder mixing
Markdown and JSON (HoloDeck's vector-stores guide "Complete example"), vector_field without
id_field (its tools guide's search-docs example), `docstrata check` with YAML lines, named
stores in the schema, the .env beside the config, errors at the YAML path the user wrote, URL
sources, and a quiet CLI (no blank stderr lines, one unit in the ingest summary)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from docstrata.config import check_file, json_schema, load_config, parse_config, yaml_line
from docstrata.errors import ConfigError, RecordError
from docstrata.records import LINE_ID_FIELD, load_records
from docstrata.records.mapping import detect_id_field
from docstrata.tools import build_tool

ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "COLUMNS": "200"}

PRODUCTS = """sku,title,description,category,price,in_stock
P-100,Trail Runner 2,Lightweight running shoe for rocky trails with a grippy outsole,shoes,89.99,yes
P-101,City Walker,Comfortable leather shoe for everyday walking in town,shoes,120.00,no
P-200,Summit Jacket,Waterproof breathable shell jacket for alpine climbing,jackets,249.50,yes
P-201,Rain Poncho,Packable poncho that keeps you dry in sudden showers,jackets,19.99,yes
"""
FAQ = {"data": {"records": [
    {"faq_id": "F1", "question": "How do I reset my password?",
     "answer": "Click Forgot password on the sign-in page and follow the emailed link.", "topic": "account"},
    {"faq_id": "F2", "question": "Can I change my delivery address?",
     "answer": "Yes, until the order ships, from the Orders page.", "topic": "orders"},
    {"faq_id": "F3", "question": "What is the return policy?",
     "answer": "Unworn items may be returned within 30 days for a full refund.", "topic": "returns"}]}}
DOCS_MD = """# Shipping guide

## Delivery times

Standard delivery takes three to five working days; express delivery arrives the next working day.

## Tracking a parcel

Every dispatched order gets a tracking number by email.
"""
AGENT = """name: support-agent
description: Customer support agent with knowledge base search
model:
  provider: openai
  name: gpt-4o
  temperature: 0.7
instructions:
  inline: |
    You are a customer support specialist.
tools:
{tools}
test_cases:
  - name: "FAQ lookup"
    input: "How do I reset my password?"
    expected_tools: [search-kb]
"""


def _agent(tmp_path: Path, tools: str) -> Path:
    p = tmp_path / "agent.yaml"
    p.write_text(AGENT.format(tools=tools), encoding="utf-8")
    return p


def _tools(path: Path):
    cfg = load_config(path)
    return [build_tool(t, path.parent) for t in cfg.tools]


# ---------------------------------------------------------------- items 1-2: detected fields


def test_the_id_field_is_detected_from_its_name_or_is_the_row_number():
    assert detect_id_field(["sku", "title", "description"]) == "sku"
    assert detect_id_field(["question", "faq_id", "answer"]) == "faq_id"
    assert detect_id_field(["productID", "name"]) == "productID"
    assert detect_id_field(["Id", "name"]) == "Id"
    assert detect_id_field(["title", "body", "details.id"]) == LINE_ID_FIELD  # nested ids are not the record's
    assert detect_id_field(["valid", "paid"]) == LINE_ID_FIELD  # words ending in "id" are not ids


def test_a_csv_and_a_json_without_id_field_or_vector_field_load_as_records_of_every_field(tmp_path):
    (tmp_path / "products.csv").write_text(PRODUCTS, encoding="utf-8")
    (tmp_path / "faq.json").write_text(json.dumps(FAQ), encoding="utf-8")
    path = _agent(tmp_path, """- name: prods
  type: vectorstore
  description: products, auto-detected fields
  source: products.csv
- name: faq
  type: vectorstore
  description: the FAQ
  source: faq.json
""")
    prods, faq = _tools(path)
    assert prods.records_mode and faq.records_mode
    r1, r2 = prods.ingest(), faq.ingest()
    assert (r1.records, r1.failed, r2.records, r2.failed) == (4, False, 3, False)
    poncho = prods.get_record("P-201")
    assert poncho.content.splitlines()[:2] == ["sku: P-201", "title: Rain Poncho"]
    assert poncho.metadata["category"] == "jackets" and "sku" not in poncho.metadata
    assert prods.search("waterproof shell for climbing", top_k=1)[0].id == "P-200"
    assert prods.search("jackets", filters={"category": "jackets"}, top_k=5)
    # the JSON's only array of objects (data.records) holds the records; faq_id is the id
    hit = faq.search("How do I reset my password?", top_k=1)[0]
    assert hit.id == "F1" and "Forgot password" in hit.content


def test_a_detected_id_that_repeats_is_a_clear_error_naming_the_fix(tmp_path):
    p = tmp_path / "dupes.csv"
    p.write_text("code,text\nA,one\nA,two\n", encoding="utf-8")
    cfg = parse_config({"tools": [{"name": "d", "type": "vectorstore", "source": "dupes.csv"}]}).tools[0]
    load = load_records(p, "dupes.csv", cfg)
    with pytest.raises(RecordError, match=r"the id field detected, 'code', repeats 'A'.*id_field: __line__"):
        list(load.batches)


def test_a_vectorstore_folder_mixing_markdown_and_json_ingests_both(tmp_path):
    """HoloDeck's vector-stores guide "Complete example": knowledge_base/ with faq.json and docs.md."""
    kb = tmp_path / "knowledge_base"
    kb.mkdir()
    (kb / "faq.json").write_text(json.dumps(FAQ), encoding="utf-8")
    (kb / "docs.md").write_text(DOCS_MD, encoding="utf-8")
    path = _agent(tmp_path, """  - name: search-kb
    description: Search knowledge base for answers to customer questions
    type: vectorstore
    source: knowledge_base/
    top_k: 3
""")
    (tool,) = _tools(path)
    report = tool.ingest()
    assert (report.files_total, report.added, report.skipped, report.warnings) == (2, 2, [], [])
    faq_hit = tool.search("How do I reset my password?", top_k=1)[0]
    assert faq_hit.source_file == "faq.json" and "Forgot password" in faq_hit.content
    md_hit = tool.search("how long does express delivery take", top_k=1)[0]
    assert md_hit.source_file == "docs.md" and "next working day" in md_hit.content


def test_vector_field_without_id_field_loads_records_and_a_folder_of_documents(tmp_path):
    """The HoloDeck tools guide's search-docs example verbatim (a docs/ folder of Markdown), and
    the same fields over a CSV: id_field is optional in HoloDeck."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.md").write_text(DOCS_MD, encoding="utf-8")
    (tmp_path / "products.csv").write_text(PRODUCTS, encoding="utf-8")
    path = _agent(tmp_path, """- name: search-docs
  description: Search technical documentation
  type: vectorstore
  source: docs/
  vector_field: [title, content]
  meta_fields: [source, date, url]
  chunk_size: 1024
  chunk_overlap: 128
- name: prods
  description: products
  type: vectorstore
  source: products.csv
  vector_field: [title, description]
""")
    search_docs, prods = _tools(path)
    assert not search_docs.records_mode and prods.records_mode
    assert search_docs.ingest().chunks_total >= 1
    assert "tracking number" in search_docs.search("parcel tracking number", top_k=1)[0].content
    assert prods.ingest().records == 4
    hit = prods.search("packable poncho for showers", top_k=1)[0]
    assert hit.id == "P-201" and hit.content == "Rain Poncho\nPackable poncho that keeps you dry in sudden showers"


# ---------------------------------------------------------------- item 3: schema and check


def test_docstrata_check_prints_each_error_with_its_yaml_line_and_uses_the_loader(tmp_path):
    bad = tmp_path / "agent.yaml"
    bad.write_text("""name: a
tools:
  - name: docs
    type: hierarchical_document
    source: kb/
    max_chunk_token: 400
  - name: recs
    type: vectorstore
    source: p.csv
    top_k: 0
""", encoding="utf-8")
    cfg, problems = check_file(bad)
    assert cfg is None
    assert [(line, where) for line, where, _ in problems] == [(6, "tools[0].max_chunk_token"), (10, "tools[1].top_k")]
    assert "did you mean 'max_chunk_tokens'" in problems[0][2] and "(got 0)" in problems[1][2]
    for args in (["check", "-c", str(bad)], ["schema", "--check", str(bad)]):
        proc = subprocess.run([sys.executable, "-m", "docstrata.cli", *args], capture_output=True, text=True,
                              env=ENV, timeout=120)
        assert proc.returncode == 2, proc.stderr
        assert f"{bad}:6: tools[0].max_chunk_token: unknown field 'max_chunk_token'" in proc.stderr
        assert f"{bad}:10: tools[1].top_k:" in proc.stderr
    good = tmp_path / "good.yaml"
    good.write_text("tools:\n  - {name: recs, type: vectorstore, source: p.csv}\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "docstrata.cli", "check", "-c", str(good)], capture_output=True,
                          text=True, env=ENV, timeout=120)
    assert proc.returncode == 0 and "valid; tools: recs (vectorstore)" in proc.stdout


def test_yaml_line_finds_nested_paths():
    text = "tools:\n  - name: a\n    database:\n      provider: qdrant\n"
    assert yaml_line(text, "tools[0].database.provider") == 4
    assert yaml_line(text, "tools[0].database.url") == 3  # missing: its enclosing key
    assert yaml_line(text, "tools[3]") is None or yaml_line(text, "tools[3]") == 1


def test_the_schema_accepts_named_stores_that_config_yaml_resolves(tmp_path):
    import jsonschema

    (tmp_path / "config.yaml").write_text("""vectorstores:
  local-qdrant: {provider: qdrant, connection_string: ":memory:"}
  postgres: {provider: postgres, connection_string: "postgresql://u:p@127.0.0.1:5432/db"}
""", encoding="utf-8")
    path = _agent(tmp_path, """  - {name: kb, type: vectorstore, description: kb, source: kb/, database: local-qdrant}
  - {name: pg, type: vectorstore, description: pg, source: kb/, database: postgres}
""")
    validator = jsonschema.Draft202012Validator(json.loads(json_schema()))
    assert validator.is_valid(yaml.safe_load(path.read_text()))
    cfg, problems = check_file(path)
    assert problems == [] and [t.database.provider for t in cfg.tools] == ["qdrant", "postgres"]
    for refused in ("pinecone", "sqlite:///x"):  # cloud-only, or a URL: refused by both
        data = {"tools": [{"name": "a", "type": "vectorstore", "source": "d", "database": refused}]}
        assert not validator.is_valid(data)
        with pytest.raises(ConfigError):
            parse_config(data)


# ---------------------------------------------------------------- item 4: .env


def test_the_env_file_beside_the_config_is_read_without_overriding_the_environment(tmp_path, monkeypatch):
    for name in ("DS_TRIAL_OPENAI_KEY", "DS_TRIAL_ALREADY_SET"):
        monkeypatch.setenv(name, "x")  # so that monkeypatch restores the variables' absence afterwards
        monkeypatch.delenv(name)
    monkeypatch.setenv("DS_TRIAL_ALREADY_SET", "from-the-shell")
    (tmp_path / ".env").write_text("DS_TRIAL_OPENAI_KEY=sk-from-dotenv\nDS_TRIAL_ALREADY_SET=from-dotenv\n",
                                   encoding="utf-8")
    path = _agent(tmp_path, """  - name: kb
    type: vectorstore
    source: kb/
    embedding_model: text-embedding-3-small
    embedding_provider: {provider: openai, api_key: "${DS_TRIAL_OPENAI_KEY}", name: "${DS_TRIAL_ALREADY_SET}"}
""")
    t = load_config(path).tools[0]
    assert t.embedding_provider.api_key.get_secret_value() == "sk-from-dotenv"
    assert t.embedding_provider.name == "from-the-shell"
    assert os.environ["DS_TRIAL_ALREADY_SET"] == "from-the-shell"


# ---------------------------------------------------------------- items 6, 7, 9: paths the user wrote


def test_a_missing_key_of_a_top_level_embedding_provider_is_one_error_at_its_own_path(monkeypatch):
    monkeypatch.delenv("DS_TRIAL_MISSING_KEY", raising=False)
    data = {"embedding_provider": {"provider": "openai", "api_key": "${DS_TRIAL_MISSING_KEY}"},
            "tools": [{"name": "a", "type": "vectorstore", "source": "a.csv"},
                      {"name": "b", "type": "vectorstore", "source": "b.csv"}]}
    with pytest.raises(ConfigError) as e:
        parse_config(data)
    assert e.value.problems == [("embedding_provider.api_key", e.value.problems[0][1])]
    assert "DS_TRIAL_MISSING_KEY is not set" in str(e.value) and "remove embedding_provider" in str(e.value)


def test_the_agent_model_used_for_embeddings_is_named_and_not_called_ignored(monkeypatch, tmp_path):
    monkeypatch.delenv("DS_TRIAL_AZURE_KEY", raising=False)
    text = """model:
  provider: azure_openai
  name: gpt-4o
  endpoint: https://myres.openai.azure.com
  api_key: ${DS_TRIAL_AZURE_KEY}
  api_version: 2024-06-01
tools:
  - {name: kb, type: vectorstore, source: kb/, embedding_model: text-embedding-ada-002}
"""
    with pytest.raises(ConfigError) as e:
        parse_config(yaml.safe_load(text), base_dir=tmp_path)
    assert e.value.path == "model.api_key" and len(e.value.problems) == 1
    monkeypatch.setenv("DS_TRIAL_AZURE_KEY", "k")
    cfg = parse_config(yaml.safe_load(text), base_dir=tmp_path)  # the unquoted date is the version string
    assert cfg.tools[0].embedding_provider.api_version == "2024-06-01"
    assert not any("'model'" in n for n in cfg.notices)  # it is used: its endpoint and key embed


def test_a_missing_openai_key_at_first_use_names_the_field_written_with_a_hint(monkeypatch, tmp_path):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    cfg = parse_config({"tools": [{"name": "d", "type": "hierarchical_document", "source": "kb"},
                                  {"name": "kb", "type": "vectorstore", "source": "kb/",
                                   "embedding_model": "text-embedding-3-small"}]}, base_dir=tmp_path)
    tool = build_tool(cfg.tools[1], tmp_path)
    with pytest.raises(ConfigError) as e:
        tool.embedder  # noqa: B018 - the property makes the embedder
    assert e.value.path == "tools[1].embedding_model"
    assert "OPENAI_API_KEY" in str(e.value) and "bundled local model" in str(e.value)


def test_a_reranker_model_without_its_key_names_reranker_model(monkeypatch, tmp_path):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    cfg = parse_config({"tools": [{"name": "d", "type": "hierarchical_document", "source": "kb",
                                   "enable_reranking": True,
                                   "reranker_model": {"provider": "openai", "name": "gpt-4o-mini"}}]},
                       base_dir=tmp_path)
    tool = build_tool(cfg.tools[0], tmp_path)
    with pytest.raises(ConfigError) as e:
        tool.reranker  # noqa: B018
    assert e.value.path == "tools[0].reranker_model" and "OPENAI_API_KEY" in str(e.value)


def test_a_url_source_is_refused_with_what_to_do():
    with pytest.raises(ConfigError) as e:
        parse_config({"tools": [{"name": "w", "type": "vectorstore",
                                 "source": "https://raw.githubusercontent.com/o/r/main/faq.json"}]})
    assert e.value.path == "tools[0].source"
    assert "URL sources are not supported" in str(e.value) and "download the file first" in str(e.value)


# ---------------------------------------------------------------- item 12: a quiet CLI


def test_ingest_writes_no_blank_stderr_line_and_one_unit_on_every_run(tmp_path):
    (tmp_path / "products.csv").write_text(PRODUCTS, encoding="utf-8")
    (tmp_path / "faq.json").write_text(json.dumps(FAQ), encoding="utf-8")
    _agent(tmp_path, """- {name: prods, type: vectorstore, description: p, source: products.csv}
- {name: faq, type: vectorstore, description: f, source: faq.json}
""")
    outs = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-m", "docstrata.cli", "ingest"], cwd=tmp_path, capture_output=True,
                              text=True, env=ENV, timeout=300)
        assert proc.returncode == 0, proc.stderr
        assert all(line.strip() for line in proc.stderr.splitlines()), repr(proc.stderr)
        assert len(proc.stderr.splitlines()) <= 1  # the one notice line
        outs.append(proc.stdout)
    assert "4 records in the index" in outs[0] and "4 records in the index" in outs[1]
    assert "3 records in the index" in outs[1] and "definitions" not in outs[1]


# ---------------------------------------------------------------- item 8: chunk_size in HoloDeck's unit


def test_a_vectorstore_chunk_size_counts_tokens_as_holodeck_does_four_characters_each(tmp_path):
    """HoloDeck's TextChunker is Semantic Kernel's split_plaintext_paragraph, whose token counter
    is len(text) // 4: chunk_size 200 means about 800 characters, not 200 MiniLM tokens (~1,100)."""
    import random

    rng = random.Random(7)
    words = "pump valve pressure station operator safety check flow seal gasket motor bearing inspect".split()
    paragraphs = [" ".join(rng.choice(words) for _ in range(100)) + "." for _ in range(30)]
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "manual.md").write_text("# Manual\n\n" + "\n\n".join(paragraphs), encoding="utf-8")
    path = tmp_path / "agent.yaml"
    path.write_text("tools:\n- {name: m, type: vectorstore, source: docs/, chunk_size: 200, chunk_overlap: 20}\n",
                    encoding="utf-8")
    (tool,) = _tools(path)
    tool.ingest()
    lengths = [len(c.content) for c in tool.store.document_chunks("manual.md")]
    text_chars = sum(len(p) for p in paragraphs)
    assert max(lengths) <= 200 * 4 + 100  # a chunk ends at a sentence or paragraph boundary
    assert len(lengths) >= text_chars // (200 * 4)
