"""One pipeline function (issue 28 item 5, issue 32 item 3): ``docstrata inspect``, the playground
and ingest read a document through :func:`docstrata.pipeline.parse_file`, so the section ids each
shows are the same; and the module boundaries that keep it so (stores know no ranking, the
playground calls public functions, ``tools.py`` stays wiring)."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import docstrata
from docstrata.embed import Embedder
from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file
from docstrata.ui import api

from .conftest import shared_data

SRC = Path(docstrata.__file__).resolve().parent


def test_inspect_playground_and_ingest_show_the_pipeline_section_ids_of_a_real_rfc(tmp_path):
    # A real RFC in plain text (IETF, shared evaluation data): numbered sections nested three deep.
    original = shared_data("real", "specs", "rfc7911.txt")
    (tmp_path / "docs").mkdir()
    doc = tmp_path / "docs" / original.name
    shutil.copy(original, doc)
    (tmp_path / "agent.yaml").write_text("tools:\n  - name: specs\n    type: hierarchical_document\n"
                                         "    description: RFCs\n    source: docs\n", encoding="utf-8")

    parsed = parse_file(source_file(doc), PipelineSettings(count_tokens=Embedder().count_tokens))
    ids = parsed.section_ids
    assert len(ids) > 15 and len(set(ids)) == len(ids)
    assert {"1", "3", "4"} <= set(ids) and any(i.count(".") == 1 for i in ids)  # nested numbered sections

    # docstrata inspect (a separate process, as a user runs it)
    env = {**os.environ, "PYTHONPATH": str(SRC.parent) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-m", "docstrata.cli", "inspect", "--json", str(doc)],
                          capture_output=True, text=True, env=env, timeout=300, check=True)
    assert [s["section_id"] for s in json.loads(proc.stdout)["sections"]] == ids

    # ingest: every section the index holds, with the sections its chunks hold and their ancestors
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        tool = tools["specs"]
        tool.ingest()
        chunks = tool.store.document_chunks(doc.name)
        indexed = {s for c in chunks for s in [c.section_id, *c.metadata["sections"], *c.metadata["ancestors"]]}
        assert indexed == set(ids)
        assert [c.section_id for c in chunks] == [c.section_id for c in parsed.chunks]

        # the playground's document view: its section tree and what each chunk holds
        view = api.document_view(tool, doc.name)
        shown = {s["section_id"] for s in view["sections"]}
        shown |= {h for s in view["sections"] for c in s["chunks"] for h in c["holds"]}
        assert shown == set(ids)
        parents = {s.section_id: s.parent_id for s in parsed.tree.sections}
        assert all(s["parent_id"] == parents[s["section_id"]] for s in view["sections"])


def _imports(path: Path) -> list[str]:
    """The modules ``path`` imports (relative ones as written: ``..fusion``)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            out.append("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return out


def test_stores_import_nothing_from_ranking():
    ranking = {"fusion", "search", "rerank", "rerank_llm", "results"}
    for path in sorted((SRC / "store").glob("*.py")):
        bad = [m for m in _imports(path) if m.lstrip(".").split(".")[0] in ranking and m.startswith("..")]
        assert not bad, f"{path.name} imports {bad}: a store receives weights from its caller"


def test_the_playground_reaches_into_no_stage_internals():
    tree = ast.parse((SRC / "ui" / "api.py").read_text(encoding="utf-8"))
    stages = {"index", "index.keyword", "index.exact", "index.dense", "structure", "convert"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 2:
            assert node.module not in stages, f"ui/api.py imports from {node.module}"
            assert not any(a.name.startswith("_") for a in node.names), ast.unparse(node)
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = ast.unparse(node.value)
            assert base not in ("tool", "t", "twin"), f"ui/api.py uses {base}.{node.attr}"
