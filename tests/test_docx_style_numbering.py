"""Word numbering that paragraph styles carry, and definitions held in a Word table (new-user trial,
UK Crown Commercial Service contracts: "Call-Off Schedule 9 - Security", "Joint Schedule 1 -
Definitions").

The packages are built here, small, in the shape those contracts have (the CCS files stay out of
the repository): styles ``L1``..``L4`` whose ``w:numPr`` names the list (``numId`` only on ``L2``;
``L3``/``L4`` are based on it and state only ``ilvl``), levels linked back to their style by
``w:lvl/w:pStyle`` (ECMA-376 Part 1 §17.9.23), and a two-column ``DEFINITION | MEANING`` table
whose meanings carry lettered items from a numbered style. Each test converts the package with the
real converter (markitdown + :mod:`docstrata.convert.docx_numbering`) and parses it.
"""

from __future__ import annotations

import hashlib

from docstrata.convert import convert_file
from docstrata.convert.docx_numbering import WordParagraph, apply_word_numbers, word_paragraphs
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

from .docx_writer import W_NS, docx_package

_W = W_NS

_LEVELS = [  # (numFmt, lvlText, pStyle, isLgl)
    ("decimal", "%1.", "L1", False),
    ("decimal", "%1.%2", "L2", True),
    ("decimal", "%1.%2.%3", "L3", True),
    ("lowerLetter", "(%4)", "L4", False),
]


def _style(sid: str, based_on: str | None, num_pr: str) -> str:
    based = f'<w:basedOn w:val="{based_on}"/>' if based_on else ""
    return (f'<w:style w:type="paragraph" w:customStyle="1" w:styleId="{sid}"><w:name w:val="{sid}"/>{based}'
            f"<w:pPr>{num_pr}</w:pPr></w:style>")


def _styles() -> str:
    return (
        f"<w:styles {_W}>"
        '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
        # L1 names the list and no level: its level is the one whose pStyle is L1
        + _style("L1", "Normal", '<w:numPr><w:numId w:val="1"/></w:numPr>')
        + _style("L2", "Normal", '<w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr>')
        + _style("L3", "L2", '<w:numPr><w:ilvl w:val="2"/></w:numPr>')  # numId inherited from L2
        + _style("L4", "L3", '<w:numPr><w:ilvl w:val="3"/></w:numPr>')
        # a definition's lettered items: numbered through the style, level 0 shows "a)"
        + _style("DefL2", "Normal", '<w:numPr><w:numId w:val="3"/></w:numPr>')
        + "</w:styles>"
    )


def _numbering() -> str:
    lvls = "".join(
        f'<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/><w:pStyle w:val="{ps}"/>'
        f'{"<w:isLgl/>" if lgl else ""}<w:lvlText w:val="{text}"/></w:lvl>'
        for i, (fmt, text, ps, lgl) in enumerate(_LEVELS)
    )
    restart = "".join(f'<w:lvlOverride w:ilvl="{i}"><w:startOverride w:val="1"/></w:lvlOverride>' for i in range(4))
    return (
        f'<w:numbering {_W}><w:abstractNum w:abstractNumId="1">{lvls}</w:abstractNum>'
        '<w:abstractNum w:abstractNumId="2"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/>'
        '<w:pStyle w:val="DefL2"/><w:lvlText w:val="%1)"/></w:lvl></w:abstractNum>'
        '<w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>'
        f'<w:num w:numId="2"><w:abstractNumId w:val="1"/>{restart}</w:num>'
        '<w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num>'
        '<w:num w:numId="4"><w:abstractNumId w:val="2"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/>'
        "</w:lvlOverride></w:num></w:numbering>"
    )


def _p(text: str, style: str | None = None, num_id: str | None = None) -> str:
    ppr = f'<w:pStyle w:val="{style}"/>' if style else ""
    if num_id:
        ppr += f'<w:numPr><w:numId w:val="{num_id}"/></w:numPr>'
    return f'<w:p><w:pPr>{ppr}</w:pPr><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


def _table(rows: list[tuple[str, list[str]]]) -> str:
    def cell(inner: str) -> str:
        return f'<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>{inner}</w:tc>'

    return "<w:tbl><w:tblPr/>" + "".join(
        f"<w:tr>{cell(_p(term))}{cell(''.join(meaning))}</w:tr>" for term, meaning in rows
    ) + "</w:tbl>"


def _docx(body: str) -> bytes:
    return docx_package(body, _styles(), _numbering())


def _tree(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    doc = convert_file(SourceFile(name, str(path), FileState(len(data), 0, hashlib.sha256(data).hexdigest())))
    return doc, build_tree(doc)


_SCHEDULE = "".join(
    [
        _p("SECURITY MANAGEMENT PLAN", "L1"),
        _p("Introduction", "L2"),
        _p("The Supplier shall develop and maintain a Security Management Plan.", "L3"),
        _p("Content of the Security Management Plan", "L2"),
        _p("The Security Management Plan shall:", "L3"),
        _p("comply with the principles of security set out in Paragraph 3.1.1;", "L4"),
        _p("identify the necessary delegated organisational roles.", "L4"),
        _p("BREACH OF SECURITY", "L1"),
        _p("Either Party shall notify the other of any Breach of Security.", "L2"),
        _p("PART B: LONG FORM SECURITY REQUIREMENTS"),
        _p("DEFINITIONS", "L1", num_id="2"),  # Part B restarts the list (startOverride)
        _p("In this Schedule the following words shall have the following meanings.", "L2"),
    ]
)


def test_style_linked_numbering_gives_the_numbers_word_displays():
    """numId and ilvl are inherited separately through ``basedOn``; a level's ``pStyle`` names the
    level of a style that states none; ``isLgl`` levels and ``startOverride`` restarts as Word."""
    labels = [(p.label, p.ilvl) for p in word_paragraphs(_docx(_SCHEDULE)) if p.text]
    assert labels == [
        ("1.", 0), ("1.1", 1), ("1.1.1", 2), ("1.2", 1), ("1.2.1", 2), ("(a)", 3), ("(b)", 3),
        ("2.", 0), ("2.1", 1), (None, None), ("1.", 0), ("1.1", 1),
    ]


def test_style_numbered_paragraphs_become_nested_sections(tmp_path):
    """Each paragraph Word numbers opens its own section under the one its number nests in, and
    the schedule's own cross-reference "Paragraph 3.1.1" names one of them."""
    doc, tree = _tree(tmp_path, "schedule.docx", _docx(_SCHEDULE))
    by_id = {s.section_id: s for s in tree.sections}
    for sid, parent in [("1.1", "1"), ("1.1.1", "1.1"), ("1.2.1", "1.2"), ("1.2.1(a)", "1.2.1"), ("1.2.1(b)", "1.2.1"),
                        ("2.1", "2")]:
        assert sid in by_id, (sid, sorted(by_id))
        assert by_id[sid].parent_id == parent, (sid, by_id[sid].parent_id)
    assert "(a) comply with the principles" in doc.markdown and "1.1.1 The Supplier shall develop" in doc.markdown


def test_word_labels_replace_mammoths_markers_in_table_cells():
    """mammoth numbers the lists in a table cell ``1. 2.`` (and ``1.`` for a numbered style whose
    level shows nothing); the cell shows Word's ``a)`` instead, or no marker."""
    paragraphs = [
        WordParagraph("the Relevant Authority's right to:", None, 0, None, "Def", True, "6"),
        WordParagraph("verify the accuracy of the Charges;", "a)", 0, None, "DefL2", True, "10"),
        WordParagraph("verify the Open Book Data;", "b)", 0, None, "DefL2", True, "10"),
    ]
    md = '| "Audit" | 1. the Relevant Authority\'s right to: 1. verify the accuracy of the Charges; 2. verify the Open Book Data; |'
    out, _ = apply_word_numbers(md, paragraphs)
    assert out == ('| "Audit" | the Relevant Authority\'s right to: a) verify the accuracy of the Charges; '
                   "b) verify the Open Book Data; |")


_MEANINGS = {
    "Auditor": [_p("the Buyer's internal and external auditors;", "DefL2", None),
                _p("the Buyer's statutory or regulatory auditors;", "DefL2")],
    "Charges": [_p("the prices payable to the Supplier by the Buyer under the Call-Off Contract;")],
    "Working Day": [_p("any day other than a Saturday or Sunday or public holiday in England and Wales;")],
}


def _definitions_docx(header: tuple[str, str] | None, quote: str = '"') -> bytes:
    rows = [(f"{quote[0]}{t}{quote[-1]}" if quote else t, m) for t, m in _MEANINGS.items()]
    rows.append(('"Intellectual Property Rights" or "IPR"', [_p("copyright, patents and trade marks;")]))
    if header:
        rows.insert(0, (header[0], [_p(header[1])]))
    return _docx(
        _p("JOINT SCHEDULE 1")
        + _p("Interpretation applies to each Contract.", "L2")  # no heading names the table
        + _p("In each Contract the following words shall have the following meanings:", "L2")
        + _table(rows)
    )


def test_a_definitions_table_gives_one_definition_per_row(tmp_path):
    """A two-column table whose header names a glossary's columns (``DEFINITION | MEANING``) yields
    one definition a row, in a section no title calls definitions; the meaning keeps Word's
    letters; quoted alternatives define each name."""
    from docstrata.structure.definitions import extract_definitions

    doc, tree = _tree(tmp_path, "joint-schedule-1.docx", _definitions_docx(("DEFINITION", "MEANING")))
    defs = {d.term: d.definition for d in extract_definitions(tree)}
    assert set(defs) >= {"Auditor", "Charges", "Working Day", "Intellectual Property Rights", "IPR"}, defs
    assert defs["Auditor"] == "a) the Buyer's internal and external auditors; b) the Buyer's statutory or regulatory auditors;"
    assert defs["Charges"].startswith("the prices payable")
    assert not {"DEFINITION", "MEANING"} & set(defs)


def test_a_table_of_quoted_terms_is_a_glossary_without_a_header(tmp_path):
    """Rows that read as term → meaning (the first cells quote their terms) are a glossary too;
    the same table with unquoted terms and no header is just a table."""
    from docstrata.structure.definitions import extract_definitions

    _, tree = _tree(tmp_path, "quoted.docx", _definitions_docx(None, quote="“”"))
    assert {"Auditor", "Charges", "Working Day"} <= {d.term for d in extract_definitions(tree)}
    _, plain = _tree(tmp_path, "plain.docx", _definitions_docx(None, quote=""))
    assert not {"Auditor", "Charges", "Working Day"} & {d.term for d in extract_definitions(plain)}
