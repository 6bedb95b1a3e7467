"""Word definitions marked by paragraph styles (fresh-real diagnosis, mechanism 3): a ``Definition
term`` paragraph followed by a ``Definition`` paragraph is Word's ``<dt>`` / ``<dd>``, and the Word
converter states the pair as a marked definition, recognising the styles by name or id through
their ``basedOn`` chain.

The packages of the first tests are built here with the standard library, in the shape a
specification template has (styles ``Definitionterm`` / ``Definition``, as Word names the ids of
"Definition term" and "Definition"); the last test reads a real OASIS specification authored in Word
(``tests/fixtures/oasis-dss``, NOTICE.md there) whose German Word wrote localised style ids, and
takes its truth from the document's own markup.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from docstrata.convert import convert_file
from docstrata.convert.docx_definitions import style_role
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

from .docx_writer import W_NS, docx_package

_W = W_NS
_NS = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
DSS = Path(__file__).parent / "fixtures" / "oasis-dss" / "dss-core-v2.0-cs02-excerpt.docx"


def _style(sid: str, name: str, based_on: str | None = "Normal", ppr: str = "") -> str:
    based = f'<w:basedOn w:val="{based_on}"/>' if based_on else ""
    return (
        f'<w:style w:type="paragraph" w:styleId="{sid}"><w:name w:val="{name}"/>{based}'
        f"<w:pPr>{ppr}</w:pPr></w:style>"
    )


def _p(style: str, text: str) -> str:
    return (
        f'<w:p><w:pPr><w:pStyle w:val="{style}"/></w:pPr>'
        f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'
    )


def _docx(styles: list[str], body: list[str]) -> bytes:
    normal = '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
    return docx_package("".join(body), f"<w:styles {_W}>{normal}{''.join(styles)}</w:styles>")


def _convert(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    doc = convert_file(SourceFile(name, str(path), FileState(len(data), 0, "")))
    return doc, build_tree(doc)


HEADING = _style("Heading1", "heading 1", ppr='<w:outlineLvl w:val="0"/>')
TERMS = [
    _p("Heading1", "Introduction"),
    _p("Normal", "This document specifies a file format for the output of static analysis tools."),
    _p("Heading1", "Terms and definitions"),
    _p("Normal", "For the purposes of this document, the following terms and definitions apply."),
]


def test_definition_term_and_definition_paragraphs_are_marked_definitions(tmp_path):
    styles = [HEADING, _style("Definitionterm", "Definition term"), _style("Definition", "Definition")]
    body = TERMS + [
        _p("Definitionterm", "analysis target"),
        _p("Definition", "artifact which an analysis tool is instructed to analyze"),
        _p("Definitionterm", "artifact"),
        _p("Definition", "sequence of bytes addressable via a URI"),
        _p("Definition", "Examples: a source file, a directory, a binary."),
        _p("Heading1", "Conventions"),
        _p("Normal", "The term artifact is used throughout."),
    ]
    doc, tree = _convert(tmp_path, "sarif-like.docx", _docx(styles, body))
    assert [(d.term, d.heading) for d in doc.marked_definitions] == [
        ("analysis target", "Terms and definitions"),
        ("artifact", "Terms and definitions"),
    ]
    # a run of Definition paragraphs is one definition
    assert doc.marked_definitions[1].definition.endswith("a directory, a binary.")
    by_term = {d.term: d for d in tree.definitions}
    terms_section = next(s for s in tree.sections if s.title.endswith("Terms and definitions"))
    assert by_term["analysis target"].section_id == terms_section.section_id
    assert by_term["artifact"].definition.startswith("sequence of bytes addressable via a URI")


def test_the_same_text_without_the_styles_marks_nothing(tmp_path):
    body = TERMS + [
        _p("Normal", "analysis target"),
        _p("Normal", "artifact which an analysis tool is instructed to analyze"),
    ]
    doc, _ = _convert(tmp_path, "plain.docx", _docx([HEADING], body))
    assert doc.marked_definitions == []


def test_styles_are_recognised_by_id_and_through_their_based_on_chain(tmp_path):
    styles = [
        HEADING,
        _style("Definitionterm", "Definition term"),
        _style("Definition", "Definition"),
        # a template's own styles derived from the built-in pair, named in another language
        _style("GlossarBegriff", "Glossar Begriff", based_on="Definitionterm"),
        _style("GlossarText", "Glossar Text", based_on="Definition"),
        # a style whose id names its role while its name does not
        _style("DefinedTerm", "Benannter Begriff"),
    ]
    body = TERMS + [
        _p("GlossarBegriff", "result"),
        _p("GlossarText", "a condition detected by an analysis tool"),
        _p("DefinedTerm", "rule"),
        _p("DefinedTerm", "check"),  # two terms before one definition: synonyms, as <dt><dt><dd>
        _p("Normal", "criterion for determining whether a result is present"),
        _p("Heading1", "Conventions"),
    ]
    doc, _ = _convert(tmp_path, "derived.docx", _docx(styles, body))
    got = {d.term: d.definition for d in doc.marked_definitions}
    assert got == {
        "result": "a condition detected by an analysis tool",
        "rule": "criterion for determining whether a result is present",
        "check": "criterion for determining whether a result is present",
    }


def test_style_roles_by_name():
    assert style_role(("Glossary Term", "GlossaryTerm")) == "term"
    assert style_role(("Term(s)", "Terms")) == "term"
    assert style_role(("Glossary Definition", "GlossaryDefinition")) == "definition"
    assert style_role(("Body", "Body", "Definition", "Definition")) == "definition"
    # the nearest style that names a role decides
    assert style_role(("Definition", "Definition", "Definition term", "Definitionterm")) == "definition"
    assert style_role(("Definitions", "Definitions")) is None  # a section title's style, not a definition
    assert style_role(("heading 2", "Heading2")) is None
    assert style_role(()) is None


def test_a_real_oasis_word_specification_marks_its_terms_by_style():
    import re

    from lxml import etree

    with zipfile.ZipFile(DSS) as z:
        root = etree.fromstring(z.read("word/document.xml"))
    # truth from the markup: every paragraph in the "Definition term" style (id Definitionterm)
    marked = [
        "".join(t.text or "" for t in p.iter(f"{_NS}t")).strip()
        for p in root.iter(f"{_NS}p")
        if (s := p.find(f"{_NS}pPr/{_NS}pStyle")) is not None and s.get(f"{_NS}val") == "Definitionterm"
    ]
    assert marked == ["DateTime", "Language"]
    doc = convert_file(SourceFile(DSS.name, str(DSS), FileState(0, 0, "")))
    assert [d.term for d in doc.marked_definitions] == marked
    # the definition is the body paragraph after the term (the template has no Definition style)
    assert all(re.match(r"« All .* values inside a DSS document MUST", d.definition) for d in doc.marked_definitions)
    tree = build_tree(doc)
    placed = {d.term: d.section_id for d in tree.definitions if d.term in marked}
    # each sits in the section whose heading it stands under (3.7 Date and Time Model, 3.8 Lang Model)
    titles = {s.section_id: s.title for s in tree.sections}
    assert titles[placed["DateTime"]].endswith("Date and Time Model")
    assert titles[placed["Language"]].endswith("Lang Model")
