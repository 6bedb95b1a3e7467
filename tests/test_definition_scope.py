"""Definitions apply within their scope: "In this title" governs that title only (trial 9).

A Markdown act built here defines "Secretary" twice, once per title, "Administrator" for the
whole Act and "covered tower" for one section; the real tool (in-memory SQLite, bundled model)
must tag each passage with the definition in force there, get_definition must show every
definition with where it applies, and scoped definitions raise no conflict warning."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import docstrata
from docstrata.models import Document
from docstrata.structure import build_tree

from .helpers import doc_project

ACT = textwrap.dedent("""\
    # Surface Transport and Security Act

    ## Sec. 1. Short title

    This Act may be cited as the Surface Transport and Security Act.

    ## Sec. 2. Definitions

    In this Act, the term "Administrator" means the Administrator of the Federal Aviation Administration.

    ## Title I — Transportation

    ### Sec. 101. Definitions

    In this title, "Secretary" means the Secretary of Transportation.

    ### Sec. 102. Baggage refunds

    The Secretary shall issue regulations requiring an air carrier to refund the fee for a checked bag that is delayed.

    ## Title II — Security

    ### Sec. 201. Definitions

    In this title, "Secretary" means the Secretary of Homeland Security.

    ### Sec. 202. Screening

    The Secretary shall review the screening of checked baggage at airports each year.

    ## Title III — Reports

    ### Sec. 301. Annual report

    The Secretary shall report on the state of checked baggage to the Administrator every year.

    ### Sec. 302. Tower marking

    (a) In general.— The Administrator shall mark each covered tower.

    (b) Definition.— In this section, the term "covered tower" means a structure of at least 50 feet.
    """)


def _tree(text: str, key: str = "act.md"):
    return build_tree(Document(doc_key=key, title=key, markdown=text, format="md"))


def _scopes(text: str) -> dict[tuple[str, str | None], str | None]:
    return {(d.term, d.scope): d.scope_label for d in _tree(text).definitions}


def test_each_definition_carries_the_scope_its_lead_in_states():
    got = _scopes(ACT)
    assert got == {("Administrator", None): None, ("Secretary", "title-i"): "Title I",
                   ("Secretary", "title-ii"): "Title II", ("covered tower", "302"): "Title III, Sec. 302"}


def test_lead_ins_of_uk_eu_and_contract_drafting_resolve_to_their_units():
    uk = textwrap.dedent("""\
        # Example Act 2020

        ## Part 1 — Licensing

        ### 1 Interpretation of this Part

        (1) In this Part— "licence" means a licence granted under section 2.

        ### 2 Grant of licences

        (1) The authority may grant a licence.

        ## Part 2 — General

        ### 3 Interpretation

        In this Act, "authority" means the Licensing Authority.

        ### 4 Notices

        (1) In this section, "notice" means a notice in writing.
        """)
    assert _scopes(uk) == {("licence", "part-1"): "Part 1", ("authority", None): None, ("notice", "4"): "Part 2, 4 Notices"}
    eu = textwrap.dedent("""\
        # Regulation (EU) 2099/1

        ## Article 4 Definitions

        For the purposes of this Regulation: 'controller' means the body which determines the purposes.

        ## Article 9 Definitions on special data

        'Special data', as used in this Article, means data revealing racial origin.
        """)
    assert _scopes(eu) == {("controller", None): None, ("Special data", "article-9"): "Article 9"}
    canada = textwrap.dedent("""\
        # Example Protection Act

        ## Part 1 — Protection

        ### 2 Definitions

        (1) The definitions in this subsection apply in this Part. “record” includes any correspondence.

        ### 24.1 Financial institutions

        (1) The following definitions apply in this section. “financial institution” means a bank.

        (2) A financial institution may apply for an advance.

        (3) The Minister may set terms.

        (4) In subsection (2), “advance” means a loan for 30 days or less.
        """)
    assert _scopes(canada) == {("record", "part-1"): "Part 1", ("financial institution", "24.1"): "Part 1, 24.1 Financial institutions",
                               ("advance", "24.1(2)"): "Part 1, 24.1(2)"}


def test_search_hits_get_the_definition_in_scope_where_they_stand_and_get_definition_lists_each(tmp_path):
    other = '# Other Act\n\n## Sec. 1. Definitions\n\nIn this title, "Secretary" means the Secretary of Energy.\n'
    cfg = doc_project(tmp_path, {"act.md": ACT, "other.md": other}, database="embedded", max_chunk_tokens=800,
                      chunk_overlap=0)
    with docstrata.open(cfg) as ts:
        tool = ts["docs"]
        report = tool.ingest()
        # each "Secretary" is scoped (one to a title the other document lacks): no conflict to warn of
        assert not any("defined differently" in w for w in report.warnings), report.warnings
        by_section = {}
        for query in ("Secretary refund delayed checked bag", "Secretary screening of checked baggage",
                      "Secretary report on checked baggage Administrator"):
            for r in tool.search(query, top_k=10, document="act.md"):
                by_section.setdefault(r.section_id, r.definitions_context)
        assert by_section["102"]["Secretary"] == "means the Secretary of Transportation."
        assert by_section["202"]["Secretary"] == "means the Secretary of Homeland Security."
        assert "Secretary" not in by_section["301"]  # Title III: neither title's definition applies
        assert by_section["301"]["Administrator"].endswith("Federal Aviation Administration.")  # the Act's
        results = tool.search("Secretary refund delayed checked bag", top_k=5, document="act.md")
        secretaries = [d for d in results.definitions if d.term == "Secretary"]  # one entry per scope a hit used
        used = {r.definitions_context["Secretary"] for r in results if "Secretary" in r.definitions_context}
        assert sorted(d.definition for d in secretaries) == sorted(used) and len(used) == 2
        assert {d.scope for d in secretaries} == {"title-i", "title-ii"}

        found = tool.get_definition("secretary", document="act.md")
        assert [(d.definition, d.scope, d.applies_in) for d in found] == [
            ("means the Secretary of Transportation.", "title-i", "Title I (title-i)"),
            ("means the Secretary of Homeland Security.", "title-ii", "Title II (title-ii)")]
        assert {d.chunk_id for d in found} == {c.chunk_id for c in tool.store.document_chunks("act.md")
                                               if c.section_id in ("101", "201")}
        (whole,) = tool.get_definition("Administrator")
        assert whole.scope is None and whole.applies_in == "the whole document"

    env = {**os.environ, "PYTHONPATH": str(Path(docstrata.__file__).parents[1])}
    out = subprocess.run([sys.executable, "-m", "docstrata.cli", "get-definition", "Secretary", "-c", str(cfg),
                          "-d", "act.md", "--json"], capture_output=True, text=True, env=env, cwd=tmp_path,
                         check=True).stdout
    rows = json.loads(out)["definitions"]
    assert [(r["scope"], r["applies_in"]) for r in rows] == [("title-i", "Title I (title-i)"),
                                                            ("title-ii", "Title II (title-ii)")]
    text = subprocess.run([sys.executable, "-m", "docstrata.cli", "get-definition", "Secretary", "-c", str(cfg)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, check=True).stdout
    assert "Applies in: Title I (title-i)" in text and "Applies in: Title II (title-ii)" in text
