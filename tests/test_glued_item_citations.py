"""``Subsection 2d``: a unit word, a number and its item's letter glued on (structure/grammar.py
``glued_item``, the English pack's ``GLUED_ITEMS``), as the GNU licences cite their lettered items.

Fixture: the GNU LGPL 2.1 plain text (tests/fixtures/lgpl/NOTICE.md), which cites ``Subsection 2d``
and ``Subsection 6a``. Before, the grammar read them as a section numbered ``2d``/``6a``, which no
document has: ``cited-by … "Subsection 6a"`` answered "no section".
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from docstrata.convert import convert_file
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree
from docstrata.structure.grammar import citation_key, parse_citation
from docstrata.structure.xrefs import find_cross_references

LGPL = Path(__file__).parent / "fixtures" / "lgpl" / "lgpl-2.1.txt"


def test_a_glued_item_letter_is_the_item_of_the_section():
    text = LGPL.read_text()
    cited = re.findall(r"Subsection \d[a-z]", text)
    assert set(cited) == {"Subsection 2d", "Subsection 6a"}
    for c in cited:
        parsed = parse_citation(c)
        number, letter = c.split()[1][:-1], c[-1]
        assert parsed is not None and citation_key(parsed) == f"{number}({letter})"
    # a section's own inserted number keeps its letter
    assert citation_key(parse_citation("section 106a")) == "106a"


def test_the_licence_text_cites_the_item_of_its_section():
    data = LGPL.read_bytes()
    doc = convert_file(SourceFile(LGPL.name, str(LGPL), FileState(len(data), 0, hashlib.sha256(data).hexdigest())))
    tree = build_tree(doc)
    holder = next(s for s in tree.sections if "Subsection 6a" in s.text)
    at = holder.text.index("Subsection 6a")
    passage = holder.text[max(0, at - 200) : at + 40]
    # read from elsewhere (say section 7), the reference names item (a) of section 6
    refs = [r for r in find_cross_references(passage, tree, "7") if "Subsection" in r.text]
    assert [(r.target, r.section_id) for r in refs] == [("6(a)", "6(a)")]


def test_lettered_conditions_are_items_of_their_section_and_the_text_after_them_is_not():
    """``    a) The modified work …`` … ``    d) …`` inside section 2 (indented, closed by the bracket
    alone, each a paragraph) are items 2(a)–2(d); ``These requirements apply …`` back at the margin
    is section 2's text again, not item (d)'s; ``Subsection 6a`` in 6(c) cites 6(a)."""
    from docstrata.structure.xrefs import extract_cross_references

    data = LGPL.read_bytes()
    doc = convert_file(SourceFile(LGPL.name, str(LGPL), FileState(len(data), 0, hashlib.sha256(data).hexdigest())))
    tree = build_tree(doc)
    by_id = {s.section_id: s for s in tree.sections}
    text = LGPL.read_text()
    for n in ("2", "6", "7"):  # the letters each section's conditions use, read from the text
        body = re.search(rf"(?ms)^  {n}\. (.*?)^  {int(n) + 1}\. ", text).group(1)
        letters = re.findall(r"(?m)^    ([a-z])\) ", body)
        assert len(letters) >= 2
        for x in letters:
            assert by_id[f"{n}({x})"].parent_id == n
    assert "These requirements apply" not in by_id["2(d)"].text
    assert "Subsection 2d requires" in by_id["2(d)"].text
    refs = extract_cross_references(tree)
    assert ("6(c)", "6(a)") in {(r.source_section_id, r.section_id) for r in refs if "Subsection" in r.text}


def test_a_query_or_a_cited_by_form_naming_a_glued_item_gets_the_item_keys():
    """Trial 17 X10: ``cited-by lgpl-2.1.txt "Subsection 6a"`` answered "no section"; the query's
    exact keys were ``subsection 6a`` / ``6a``, which no section carries."""
    from docstrata.index.exact import alias_keys, query_section_keys

    text = LGPL.read_text()
    for cited in sorted(set(re.findall(r"Subsection \d[a-z]", text))):
        number, letter = cited.split()[1][:-1], cited[-1]
        assert f"{number}({letter})" in alias_keys(cited)
        assert f"{number}({letter})" in query_section_keys(f"Which part of the LGPL refers to {cited}?")[0]
    assert "106a" in alias_keys("Section 106a") and "106(a)" not in alias_keys("Section 106a")
