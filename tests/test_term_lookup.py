"""get-definition finds inline short forms and, when a term is not defined, names similar
defined terms as get-section names similar section ids (issue 27 item 7)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import docstrata
from docstrata.term_lookup import similar_terms

from .helpers import doc_project

ACT = ("# Data Act\n\n## 1 Scope\n\nThis Act protects an identified natural person (‘data subject’) against the "
       "body that decides on the processing (the «Controller»).\n\n## 2 Rights\n\nThe data subject may ask the "
       "Controller to erase the data.\n")


def test_get_definition_finds_an_inline_short_form_and_suggests_similar_terms(tmp_path):
    cfg = doc_project(tmp_path, {"act.md": ACT})
    with docstrata.open(cfg) as ts:
        tool = ts["docs"]
        (entry,) = tool.get_definition("Data Subject")
        assert entry.section_id == "1" and "identified natural person (‘data subject’)" in entry.definition
        assert tool.get_definition("subject") == []
        assert tool.similar_terms("subject") == ["data subject"]
        assert tool.similar_terms("data subjects' rights") == ["data subject"]
        assert tool.similar_terms("Controler") == ["Controller"]
        assert tool.similar_terms("retention period") == []
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "COLUMNS": "300",
           "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    proc = subprocess.run([sys.executable, "-m", "docstrata.cli", "get-definition", "-c", str(cfg), "Controler"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 1 and "no definition of 'Controler'" in proc.stderr
    assert "similar: Controller" in " ".join(proc.stderr.split())


def test_similar_terms_puts_containing_terms_first_then_close_spellings():
    terms = ["Personal Data", "personal data breach", "Processor", "Sub-processor", "Data Subject"]
    assert similar_terms("personal data", terms) == ["personal data breach"]  # the term itself is not "similar"
    assert similar_terms("sub processor", terms)[0] == "Sub-processor"
    assert similar_terms("processer", terms)[0] == "Processor"
