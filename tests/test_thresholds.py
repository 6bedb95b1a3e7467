"""Thresholds explained and portable (issue 27 item 6): a note naming the threshold, where it was
set and the best score it dropped; a HoloDeck threshold served with the bundled model is flagged,
and `docstrata check --suggest-thresholds` measures a value on the user's own index."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import docstrata

from .test_mcp import GUIDE, HANDBOOK, POLICY

HOLODECK_YAML = """\
name: policy-assistant
model:
  provider: anthropic
  name: claude-sonnet-4-5
instructions:
  inline: Answer from the policies.
tools:
  - name: policies
    type: hierarchical_document
    description: Company policies
    source: docs/
    min_similarity_score: 0.75
"""
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "COLUMNS": "300",
       "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}


def _project(root: Path, yaml_text: str) -> Path:
    (root / "docs").mkdir()
    for name, text in (("policy.md", POLICY), ("handbook.md", HANDBOOK), ("guide.md", GUIDE)):
        (root / "docs" / name).write_text(text, encoding="utf-8")
    (root / "agent.yaml").write_text(yaml_text, encoding="utf-8")
    return root / "agent.yaml"


def test_a_holodeck_threshold_is_explained_and_a_measured_one_finds_the_answer(tmp_path):
    cfg = _project(tmp_path, HOLODECK_YAML)
    query = "how long are customer records kept"
    with docstrata.open(cfg) as ts:
        tool = ts["policies"]
        assert tool.cfg._threshold_note and "bundled" not in tool.cfg._threshold_note  # names the model
        assert "all-MiniLM-L6-v2" in tool.cfg._threshold_note
        res = tool.search(query, mode="hybrid")
        assert len(res) == 0 and res.confidence.level == "none"  # 0.75 is OpenAI's scale: everything dropped
        note = res.notices[0]
        assert f"below min_similarity_score 0.75 (set by tools[0].min_score in {cfg.resolve()}) were left out" in note
        best = float(note.split("the best of them scored ")[1][:4])
        assert 0.2 < best < 0.75  # the right answer's cosine with this model
        assert "comes from a HoloDeck file" in note and "docstrata check --suggest-thresholds" in note
        call = tool.search(query, min_similarity_score=0.9)
        assert "(set by this call)" in call.notices[0]

    proc = subprocess.run([sys.executable, "-m", "docstrata.cli", "check", "-c", str(cfg), "--suggest-thresholds"],
                          capture_output=True, text=True, env=ENV, timeout=300)
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.startswith("policies: suggested min_similarity_score "))
    suggested = float(line.split()[3])
    assert "10th percentile of the top-1 cosines of" in line and "configured: 0.75" in line
    assert 0.0 < suggested < 0.75
    with docstrata.open(cfg) as ts:  # the measured value keeps the right answer
        top = ts["policies"].search(query, min_similarity_score=suggested)[0]
        assert (top.source_path, top.section_id) == ("policy.md", "2.1")


def test_a_docstrata_file_with_a_threshold_gets_no_foreign_model_notice(tmp_path):
    cfg = _project(tmp_path, "tools:\n  - name: policies\n    type: hierarchical_document\n    source: docs/\n"
                             "    min_score: 0.3\n")
    with docstrata.open(cfg) as ts:
        assert ts["policies"].cfg._threshold_note is None
