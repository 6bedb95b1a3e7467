"""Structure recovered from source code (declared names, enclosing scopes) and from records that
are the chunks of one document (``document_field``)."""

from __future__ import annotations

import json

from docstrata.config import parse_config
from docstrata.models import Record
from docstrata.records.documents import with_document_structure
from docstrata.structure.code import ScopeTracker, declared_names
from docstrata.tools import build_tool

RUST = """use std::collections::HashMap;

#[derive(Clone, Debug)]
pub struct MergeScheduler<S> {
    mapping: HashMap<usize, usize>,
}

impl<S> Scheduler for MergeScheduler<S>
where
    S: State + HasCorpus,
{
    fn next(&mut self, state: &mut S) -> Result<CorpusId, Error> {
        if self.mapping.is_empty() {
            return Err(Error::empty());
        }
"""


def test_declared_names_across_languages_and_none_in_prose():
    assert declared_names(RUST) == ["MergeScheduler"]
    java = "package com.password4j;\n\npublic final class HashBuilder {\n    private enum Mode { A }\n}\n"
    assert declared_names(java) == ["HashBuilder", "Mode"]
    assert declared_names("class Parser:\n    def parse(self):\n        pass\n") == ["Parser"]
    assert declared_names("type Server struct {\n\taddr string\n}\ntype Handler interface{}\n") == ["Server", "Handler"]
    assert declared_names("The class of persons covered by this Rule is set out below.\n"
                          "class action lawsuits are rare.\nmodule leaders meet weekly.") == []
    cpp = ("enum class Color { Red };\nclass MYLIB_API Widget : public Base {\nstruct alignas(16) Vec4 {\n"
           "template <typename T> class Stack {\nnamespace Acme.Billing {\n")
    assert declared_names(cpp) == ["Color", "Widget", "Vec4", "Stack", "Acme.Billing"]
    assert declared_names("public record Point(int X, int Y);\ncase class Money(amount: BigDecimal)\n"
                          "export const enum Mode { A }\ntype Set[T comparable] struct {\nclass Größe:\n") == [
        "Point", "Money", "Mode", "Set", "Größe"]
    deep = "".join(f"class C{i}:\n    pass\n" for i in range(10))
    assert declared_names(deep, limit=3) == ["C0", "C1", "C2"]


def _enclosing(lines: list[str], first_line: str) -> list[str]:
    tracker = ScopeTracker()
    tracker.feed(lines)
    return tracker.enclosing(first_line)


def test_enclosing_lines_skip_where_clauses_braces_comments_and_closers():
    lines = RUST.splitlines()
    assert _enclosing(lines, "            return Err(Error::empty());") == [
        "impl<S> Scheduler for MergeScheduler<S>",
        "fn next(&mut self, state: &mut S) -> Result<CorpusId, Error> {",
        "if self.mapping.is_empty() {"]
    py = ["class Cache:", "    # entries expire", "    def get(self, key):", "        try:", "            v = self.d[key]",
          "        except KeyError:", "            return None"]
    assert _enclosing(py, "        return v") == ["class Cache:", "def get(self, key):"]
    assert _enclosing(["class Tabs:", "\tdef run(self):"], "\t\treturn 1") == ["class Tabs:", "def run(self):"]
    assert _enclosing(lines, "impl<S> MergeScheduler<S> {") == []  # depth 0: nothing encloses it
    assert _enclosing([], "    orphan()") == []


def test_scope_tracking_is_linear_in_the_document_length():
    """The tracker keeps one open line per depth, never the lines behind it: its state after
    20,000 methods is the class and the last method, so each step costs the same (quadratic
    back-scanning took ~40 s for 10,000 chunks; the time is ``bench/speed_claims.py``'s)."""
    body = ["class Big:"] + [f"    def m{i}(self):\n        return {i}" for i in range(20_000)]
    tracker = ScopeTracker()
    most_open = 0
    for chunk in body:
        tracker.enclosing(chunk.splitlines()[0])
        tracker.feed(chunk.splitlines())
        most_open = max(most_open, len(tracker._open))
    assert tracker.enclosing("        x = 1") == ["class Big:", "def m19999(self):"]
    assert most_open <= 3  # class, method, its body line: bounded by depth, not by length


def _records(doc: str, texts: list[str]) -> list[Record]:
    return [Record(id=f"{doc}:{i}", content=t, metadata={}, source_file="c.jsonl", document=doc)
            for i, t in enumerate(texts)]


def test_records_are_regrouped_into_whole_documents_with_their_structure():
    a = _records("a", ["use std::fmt;\n", "pub struct Meter {\n    reading: u64,\n}\nimpl Meter {\n",
                       "    pub fn read(&self) -> u64 {\n        self.reading\n    }\n}\n"])
    b = _records("b", ["class Gauge:\n    pass\n"])
    again = _records("a", ["print('tail')\n"])
    loose = _records("", ["class Alpha:\n    x = 1\n", "    def orphan(self):\n        pass\n"])
    warnings: list[str] = []
    batches = list(with_document_structure([a[:2], a[2:] + b, again + loose], batch_size=1, warnings=warnings))
    assert [[r.id for r in batch] for batch in batches] == [["a:0", "a:1", "a:2"], ["b:0"], ["a:0"], [":0"], [":1"]]
    assert len(warnings) == 1 and "'a' are not consecutive" in warnings[0]
    assert all(r.document_title == "" and r.parent_chain == [] for r in batches[3] + batches[4])  # no value, no document
    assert [r.document_title for r in batches[0]] == ["Meter"] * 3  # chunk 0 (imports) names the file's type
    assert batches[0][2].parent_chain == ["impl Meter {"]
    assert batches[1][0].document_title == "Gauge"
    assert batches[2][0].document_title == "" and batches[2][0].parent_chain == []  # a later run is its own document


def test_document_field_lets_a_question_about_a_class_find_its_method_body(tmp_path):
    """The chunk holding `reset` never names its class; with document_field its structural
    context does, and BM25 and the embedding both see it."""
    filler = [f"    fn helper_{i}(&self) -> u32 {{\n        self.counter_{i} * {i}\n    }}\n" for i in range(4)]
    chunks = ([{"id": "h:0", "doc": "h", "text": "//! Hashing utilities\nuse core::fmt;\n\npub struct Sha256Hasher {\n"
                                              "    state: [u32; 8],\n}\n\nimpl Sha256Hasher {\n"}]
              + [{"id": f"h:{i + 1}", "doc": "h", "text": t} for i, t in enumerate(filler)]
              + [{"id": "h:5", "doc": "h", "text": "    pub fn reset(&mut self) {\n        self.state = INITIAL_STATE;\n"
                                                "        self.length = 0;\n    }\n}\n"},
                 {"id": "t:0", "doc": "t", "text": "pub struct Timer {\n    start: Instant,\n}\n\nimpl Timer {\n"},
                 {"id": "t:1", "doc": "t", "text": "    pub fn reset(&mut self) {\n        self.start = Instant::now();\n"
                                                "    }\n}\n"}])
    (tmp_path / "code.jsonl").write_text("".join(json.dumps(c) + "\n" for c in chunks), encoding="utf-8")

    def tool(name, **extra):
        cfg = parse_config({"tools": [{"name": name, "type": "vectorstore", "source": "code.jsonl", "id_field": "id",
                                       "vector_field": "text", **extra}]}, base_dir=tmp_path)
        t = build_tool(cfg.tools[0], tmp_path)
        t.ingest()
        return t

    query = "How do you reset a Sha256Hasher?"
    with_structure = tool("grouped", document_field="doc")
    for mode in ("keyword", "semantic", "hybrid"):
        assert with_structure.search(query, mode=mode, top_k=1)[0].id == "h:5", mode
    plain = tool("plain")
    assert plain.search(query, mode="keyword", top_k=1)[0].id != "h:5"  # without it nothing ties reset to the hasher


def test_document_field_errors_name_the_field(tmp_path):
    import pytest

    from docstrata.errors import ConfigError

    with pytest.raises(ConfigError, match="document_field"):
        parse_config({"tools": [{"name": "d", "type": "vectorstore", "source": "docs", "document_field": "doc"}]},
                     base_dir=tmp_path)
    (tmp_path / "c.jsonl").write_text(json.dumps({"id": "1", "text": "fn main() {}"}) + "\n", encoding="utf-8")
    cfg = parse_config({"tools": [{"name": "r", "type": "vectorstore", "source": "c.jsonl", "id_field": "id",
                                   "vector_field": "text", "document_field": "file"}]}, base_dir=tmp_path)
    report = build_tool(cfg.tools[0], tmp_path).ingest()
    assert len(report.skipped) == 1 and "field 'file' is not in the source" in report.skipped[0].reason


def test_a_file_that_stops_loading_keeps_its_records_and_stays_pending(tmp_path):
    (tmp_path / "c.jsonl").write_text(json.dumps({"id": "1", "file": "a.py", "text": "class Meter:\n    pass"}) + "\n",
                                      encoding="utf-8")

    def ingest(field):
        cfg = parse_config({"tools": [{"name": "r", "type": "vectorstore", "source": "c.jsonl", "id_field": "id",
                                       "vector_field": "text", "document_field": field}]}, base_dir=tmp_path)
        tool = build_tool(cfg.tools[0], tmp_path)
        return tool, tool.ingest()

    ingest("file")
    for _ in range(2):  # the typo is reported on every run, not only the first
        tool, report = ingest("filee")
        assert [s.path for s in report.skipped] == ["c.jsonl"] and "did you mean 'file'" in report.skipped[0].reason
        assert [r.id for r in tool.search("Meter", top_k=1)] == ["1"]  # nothing already indexed is lost
    tool, report = ingest("file")
    assert report.skipped == [] and report.updated == 1
