"""Inputs that failed with a misleading or cut message (issue 31, "Inputs"): a converter's own
reason reaches "could not convert"; auto-detected CSV fields keep a ragged file's valid rows as
explicit fields do; the playground's API refuses arguments over the MCP server's limits."""

from __future__ import annotations

import http.client
import json
import zipfile

import pytest

from docstrata.arg_limits import MAX_NAME_CHARS, MAX_QUERY_CHARS
from docstrata.config import VectorstoreToolConfig
from docstrata.convert import convert_file
from docstrata.errors import ConversionError
from docstrata.records import load_records
from docstrata.sources import SourceFile
from docstrata.ui.server import serve_in_thread

from .conftest import shared_data

_CT = ('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
       '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.'
       'wordprocessingml.document.main+xml"/></Types>')
_RELS = ('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
         'officeDocument" Target="word/document.xml"/></Relationships>')


def test_a_docx_the_converter_rejects_says_why(tmp_path):
    """markitdown wraps mammoth's error in "File conversion failed after 1 attempts:" and puts the
    reason on the next line; the message keeps the reason, not the wrapper's first line."""
    path = tmp_path / "nobody.docx"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("[Content_Types].xml", _CT)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("word/document.xml", '<w:document xmlns:w="http://schemas.openxmlformats.org/'
                                        'wordprocessingml/2006/main"></w:document>')
    with pytest.raises(ConversionError) as e:
        convert_file(SourceFile(doc_key="nobody.docx", path=str(path), state=None))
    reason = e.value.reason
    assert reason.startswith("could not convert .docx: ") and "attempts" not in reason, reason
    assert "body element" in reason and not reason.rstrip().endswith(":"), reason
    assert str(tmp_path) not in reason


def _cfg(**kw) -> VectorstoreToolConfig:
    return VectorstoreToolConfig(name="t", type="vectorstore", source=".", **kw)


def test_auto_detected_fields_keep_the_valid_row_of_a_ragged_csv():
    """csvkit's bad.csv: header ``column_a,column_b,column_c``, a too-long row, a too-short row and
    one valid row. Named columns that start with ``column_`` are real names, not the reader's
    ``column_N`` for an empty header cell, so the valid row is loaded either way."""
    path = shared_data("structured", "nasty_csv", "csvkit", "bad.csv")
    got = {}
    for label, kw in (("auto", {}), ("explicit", {"id_field": "column_a", "vector_field": "column_b"})):
        load = load_records(path, "bad.csv", _cfg(**kw))
        got[label] = [r for batch in load.batches for r in batch]
        assert len(load.skipped) == 2, load.skipped  # the two ragged rows, each with its line
    assert [r.id for r in got["auto"]] == ["bad.csv:4"] and [r.id for r in got["explicit"]] == ["0"]  # line 4
    assert "column_b: mixed types.... uh oh" in got["auto"][0].content
    assert got["explicit"][0].content == "mixed types.... uh oh"


@pytest.fixture
def playground(tmp_path, embedder):
    import docstrata

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "note.md").write_text("# Note\n\n## 1. Scope\n\nThe note covers refunds.\n", encoding="utf-8")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text("tools:\n  - name: notes\n    type: hierarchical_document\n    source: docs/\n"
                   "    database: in-memory\n", encoding="utf-8")
    tools = docstrata.open(cfg)
    tools["notes"]._embedder = embedder
    srv, _ = serve_in_thread(tools)
    yield srv
    srv.shutdown()
    srv.server_close()
    tools.close()


def _post(srv, path: str, body: dict) -> tuple[int, dict]:
    host, port = srv.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=60)
    try:
        conn.request("POST", path, json.dumps(body), {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json"})
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"{}")
    finally:
        conn.close()


def test_the_playground_search_refuses_what_the_mcp_server_refuses(playground):
    code, err = _post(playground, "/api/search", {"tool": "notes", "query": "refund " * 1_100_000})
    assert code == 400 and f"at most {MAX_QUERY_CHARS:,}" in err["error"] and len(err["error"]) < 300, err
    code, err = _post(playground, "/api/search", {"tool": "notes", "query": "refunds",
                                                  "settings": {"document": "x" * (MAX_NAME_CHARS + 1)}})
    assert code == 400 and "settings.document" in err["error"], err
    code, err = _post(playground, "/api/compare", {"tool": "notes", "query": "q" * (MAX_QUERY_CHARS + 1)})
    assert code == 400 and "query is" in err["error"], err
    code, view = _post(playground, "/api/search", {"tool": "notes", "query": "refunds " + "x" * (MAX_QUERY_CHARS - 8)})
    assert code == 200, view  # at the limit: served


def test_check_the_schema_and_the_loader_agree_on_unknown_tool_fields(tmp_path):
    """README ("HoloDeck files"): an unknown tool field is accepted with a notice, a misspelled one
    (one edit from a known field) refused with a "did you mean" — by the loader, `docstrata check`
    and the JSON Schema alike."""
    import subprocess
    import sys

    import jsonschema
    import yaml

    from docstrata.config import check_file
    from docstrata.config.schema import json_schema

    validator = jsonschema.Draft202012Validator(json.loads(json_schema()))
    for key, accepted in (("retry_policy: {max: 3}", True), ("frobnicate: 1", True), ("topk: 5", False),
                          ("max_chunk_token: 400", False)):
        f = tmp_path / "agent.yaml"
        f.write_text(f"tools:\n  - name: notes\n    type: hierarchical_document\n    source: kb/\n    {key}\n",
                     encoding="utf-8")
        cfg, problems = check_file(f)
        schema_ok = not list(validator.iter_errors(yaml.safe_load(f.read_text())))
        proc = subprocess.run([sys.executable, "-m", "docstrata.cli", "check", "-c", str(f)], capture_output=True,
                              text=True, timeout=120)
        assert (cfg is not None) == schema_ok == (proc.returncode == 0) == accepted, (key, problems, proc.stderr)
        if accepted:
            assert any(n.startswith(f"tools[0].{key.split(':')[0]}: ignored") for n in cfg.notices)
        else:
            assert "did you mean" in problems[0][2]


def test_columns_per_row_and_characters_per_field_are_bounded_by_limits(tmp_path):
    """A 100,000-column CSV (it ran past 240 s and stalled every later search) is skipped at its
    header; a row or JSON record over limits.max_field_chars / max_columns is skipped with its line."""
    from docstrata.errors import RecordError

    wide = tmp_path / "wide.csv"
    wide.write_text(",".join(f"c{i}" for i in range(100_000)) + "\n" + ",".join("7" * 100_000) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"100,000 columns, over limits.max_columns = 2,000"):
        load_records(wide, "wide.csv", _cfg())
    rows = tmp_path / "rows.csv"
    rows.write_text("id,text\n1,short\n2," + "x" * 2_000 + "\n3,also short\n", encoding="utf-8")
    load = load_records(rows, "rows.csv", _cfg(id_field="id", vector_field="text", limits={"max_field_chars": 1_000}))
    assert [r.id for batch in load.batches for r in batch] == ["1", "3"]
    assert [(s.path, s.reason) for s in load.skipped] == [
        ("rows.csv:3", "field 'text' holds 2,000 characters, over limits.max_field_chars = 1,000 "
                       "(raise it to index this record)")]
    recs = tmp_path / "recs.jsonl"
    recs.write_text(json.dumps({"id": "a", "text": "fine"}) + "\n"
                    + json.dumps({"id": "b", "text": "many", **{f"k{i}": i for i in range(50)}}) + "\n", encoding="utf-8")
    load = load_records(recs, "recs.jsonl", _cfg(id_field="id", vector_field="text", limits={"max_columns": 10}))
    assert [r.id for batch in load.batches for r in batch] == ["a"]
    assert load.skipped[0].path == "recs.jsonl:2" and "52 fields, over limits.max_columns = 10" in load.skipped[0].reason


def test_a_record_file_read_as_one_document_is_bounded_by_max_chunks_per_file(tmp_path, embedder):
    """Without vector_field (HoloDeck's unstructured mode) a record file is one document with a
    section per record, held whole: one over limits.max_chunks_per_file is refused while its
    records stream in, not after building it (laposte_hexasmal.csv's 39k rows took 4.4 GB); the
    same file with vector_field streams in batches."""
    import docstrata

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "towns.csv").write_text(
        "code;town\n" + "".join(f"{50000 + i};TOWN {i}\n" for i in range(60)), encoding="utf-8")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text("tools:\n  - name: doc\n    type: vectorstore\n    source: data/\n    database: in-memory\n"
                   "    limits: {max_chunks_per_file: 50}\n"
                   "  - name: rec\n    type: vectorstore\n    source: data/\n    database: in-memory\n"
                   "    limits: {max_chunks_per_file: 50}\n    id_field: code\n    vector_field: town\n",
                   encoding="utf-8")
    with docstrata.open(cfg) as ts:
        for t in ts:
            t._embedder = embedder
        doc, rec = ts["doc"].ingest(), ts["rec"].ingest()
    assert [s.path for s in doc.skipped] == ["towns.csv"]
    assert "more than 50 records" in doc.skipped[0].reason and "limits.max_chunks_per_file" in doc.skipped[0].reason
    assert not rec.skipped and rec.records == 60
