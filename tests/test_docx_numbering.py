"""The numbers Word displays, read from the package (convert/docx_numbering.py), become section
numbers; list items that open with an enumerator carry it; definitions by naming (new-user trial).

The Word fixture is a real contract (Common Paper Pilot Agreement, CC BY 4.0, see
tests/fixtures/common-paper/NOTICE.md) whose clauses are numbered only in ``numbering.xml``: the
truth for its numbers is the contract's own typed citations ("Section 1.5 (Feedback and Usage
Data)"), read from its text, not from ``numbering.xml``.
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.convert.docx_numbering import section_number, word_paragraphs
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree
from docstrata.structure.definitions import extract_definitions
from docstrata.structure.parse import parse_sections

PILOT = Path(__file__).parent / "fixtures" / "common-paper" / "pilot-agreement.docx"


@pytest.fixture(scope="module")
def pilot():
    data = PILOT.read_bytes()
    doc = convert_file(SourceFile("pilot-agreement.docx", str(PILOT),
                                  FileState(len(data), 0, hashlib.sha256(data).hexdigest())))
    return doc, build_tree(doc)


def test_markitdown_alone_shows_none_of_the_clause_numbers():
    """The fault: mammoth writes the clauses without the numbers Word shows."""
    from docstrata.convert.office import _markitdown_convert

    markdown = _markitdown_convert(PILOT.read_bytes(), "docx")
    assert "Feedback and Usage Data" in markdown
    assert not re.search(r"^#+ 1\.5\b", markdown, re.M)


def test_the_contract_cites_its_clauses_by_the_numbers_word_displays(pilot):
    doc, tree = pilot
    by_id = {s.section_id: s for s in tree.sections}
    text = " ".join(p.text for p in word_paragraphs(PILOT.read_bytes()))
    cited = set(re.findall(r"Sections?\s+(\d+(?:\.\d+)?)\s+\(([A-Z][^()]{2,60})\)", text))
    assert len(cited) >= 8
    for number, title in cited:  # "Section 1.5 (Feedback and Usage Data)" → section 1.5 so titled
        assert number in by_id, number
        assert title.lower() in by_id[number].title.lower(), (number, title, by_id[number].title)


def test_word_numbering_nests_clauses_and_their_lettered_limbs(pilot):
    doc, tree = pilot
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["2.2"].parent_id == "2" and by_id["1.7"].parent_id == "1"
    # Word shows "a." at the third level: the limb of 2.2, cited 2.2(a)
    assert by_id["2.2(a)"].parent_id == "2.2" and by_id["2.2(c)"].title.startswith("c.")
    assert [s.section_id for s in tree.sections if s.parent_id is None and s.section_id[0].isdigit()] == \
        [str(n) for n in range(1, 9)]
    assert not any(re.search(r"-\d+$", s.section_id) for s in tree.sections)  # no id collisions
    # the text shows the numbers, the blocks state them
    assert re.search(r"^#+ 2\.2 .*Termination", doc.markdown, re.M)
    stated = [b for b in doc.blocks if b.provenance == "numbering"]
    assert ("2.2", 2) in {(b.number, b.level) for b in stated} and ("(a)", 3) in {(b.number, b.level) for b in stated}


def _numbered_docx(levels: list[tuple[str, str]], paragraphs: list[tuple[int, str, str]], overrides: str = "") -> bytes:
    """A Word package with one abstract numbering (``(numFmt, lvlText)`` per level) and two
    instances: numId 1 plain, numId 2 with ``overrides`` (``w:lvlOverride`` XML). ``paragraphs``
    are ``(numId, ilvl, text)``; numId 0 is unnumbered."""
    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    lvls = "".join(f'<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/><w:lvlText w:val="{text}"/></w:lvl>'
                   for i, (fmt, text) in enumerate(levels))
    numbering = (f'<w:numbering {w}><w:abstractNum w:abstractNumId="5">{lvls}</w:abstractNum>'
                 f'<w:num w:numId="1"><w:abstractNumId w:val="5"/></w:num>'
                 f'<w:num w:numId="2"><w:abstractNumId w:val="5"/>{overrides}</w:num></w:numbering>')

    def para(num: int, ilvl: int, text: str) -> str:
        ppr = f'<w:pPr><w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num}"/></w:numPr></w:pPr>' if num else ""
        return f"<w:p>{ppr}<w:r><w:t>{text}</w:t></w:r></w:p>"

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("word/document.xml", f'<w:document {w}><w:body>{"".join(para(*p) for p in paragraphs)}</w:body></w:document>')
        z.writestr("word/numbering.xml", numbering)
    return buf.getvalue()


def test_numbering_formats_patterns_and_restarts():
    data = _numbered_docx(
        [("decimal", "%1."), ("decimal", "%1.%2"), ("lowerLetter", "(%3)"), ("lowerRoman", "(%4)"), ("upperRoman", "Part %5")],
        [(1, 0, "One"), (1, 1, "One one"), (1, 2, "limb"), (1, 2, "limb"), (1, 3, "sub"), (1, 3, "sub"), (1, 3, "sub"),
         (1, 3, "sub"), (1, 1, "One two"), (1, 2, "limb"), (0, 0, "body"), (1, 0, "Two"), (1, 4, "part"), (1, 4, "part"),
         (2, 0, "restarted")],
        overrides='<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride>')
    labels = [p.label for p in word_paragraphs(data)]
    assert labels == ["1.", "1.1", "(a)", "(b)", "(i)", "(ii)", "(iii)", "(iv)", "1.2", "(a)", None, "2.", "Part I",
                      "Part II", "1."]


def test_a_lone_enumerator_below_the_top_level_is_a_pinpoint():
    assert [section_number(label, ilvl) for label, ilvl in
            [("2.", 0), ("1.2", 1), ("a.", 2), ("(iv)", 3), ("b)", 1), ("Article IV.", 0), ("A.", 0)]] == \
        ["2", "1.2", "(a)", "(iv)", "(b)", "Article IV", "A"]


def test_a_bullet_in_front_of_an_enumerator_keeps_the_provision_number():
    """`- (3) …` (a converter's bullet before the printed subsection number) is subsection 3."""
    md = ("# Summary Offences Act\n\n## 5 Offensive behaviour\n\n- (1) A person must not be disorderly.\n"
          "- (2) A person must not be offensive.\n- (3) Subsection (2) does not apply to a child.\n\n"
          "## 6 Public nuisance\n\nText.\n")
    by_id = {s.section_id: s for s in parse_sections(md, "a.md", "Act").sections}
    assert by_id["5(3)"].parent_id == "5" and "child" in by_id["5(3)"].text + by_id["5(3)"].title
    from docstrata.convert.document import markdown_blocks

    assert [b.number for b in markdown_blocks(md) if b.kind == "list_item"] == ["(1)", "(2)", "(3)"]


# Indian Contract Act 1872, section 2 (public legislation), as printed
CONTRACT_ACT = """# The Indian Contract Act, 1872

## 2. Interpretation-clause

In this Act the following words and expressions are used in the following senses, unless a contrary intention appears from the context:—

(a) When one person signifies to another his willingness to do or to abstain from doing anything, with a view to obtaining the assent of that other to such act or abstinence, he is said to make a proposal;

(b) When the person to whom the proposal is made signifies his assent thereto, the proposal is said to be accepted. A proposal, when accepted, becomes a promise;

(c) The person making the proposal is called the "promisor", and the person accepting the proposal is called the "promisee";

(d) When, at the desire of the promisor, the promisee or any other person has done or abstained from doing, or does or abstains from doing, or promises to do or to abstain from doing, something, such act or abstinence or promise is called a consideration for the promise;
"""


def test_definitions_by_naming_are_found():
    tree = parse_sections(CONTRACT_ACT, "ica.md", "The Indian Contract Act, 1872")
    defs = {d.term: d for d in extract_definitions(tree)}
    assert {"proposal", "accepted", "promisor", "promisee", "consideration"} <= set(defs)
    assert defs["promisee"].section_id == "2(c)" and "accepting the proposal" in defs["promisee"].definition


def test_backtick_quoted_term_and_no_enumerator_or_note_as_a_term():
    md = ("# Agreement\n\n## 1 Definitions\n\nIn this Agreement:\n\n`Business Day` means a day other than a "
          "Saturday, Sunday or public holiday.\n\n“Effective Date” means the date of the last signature.\n")
    terms = {d.term for d in extract_definitions(parse_sections(md, "a.md", "Agreement"))}
    assert {"Business Day", "Effective Date"} <= terms
    from docstrata.structure.definitions import _looks_like_term

    assert [t for t in ("2C", "2D", "(a)", "iv.", "4.2", "Note", "Examples", "CD", "Licence")
            if _looks_like_term(t, quoted=False)] == ["CD", "Licence"]


def test_the_displayed_label_replaces_mammoths_marker_once():
    from docstrata.convert.docx_numbering import WordParagraph, apply_word_numbers

    paragraphs = [WordParagraph("2024 revenue grew", "2.", 0, None, "", False, "1"),
                  WordParagraph("3. Fees apply", "3.", 0, None, "", False, "1"),  # the author also typed it
                  WordParagraph("Term", "1.2", 1, 2, "heading 2", False, "1", True)]
    markdown, stated = apply_word_numbers("1. 2024 revenue grew\n\n1. 3. Fees apply\n\n## **Term**", paragraphs)
    assert markdown == "2. 2024 revenue grew\n\n3. Fees apply\n\n## 1.2 **Term**"
    assert stated[4].label == "1.2" and stated[4].level == 2 and stated[4].outline
