"""PDF table rows land in the section they are printed in (trial 9, the USLM User Guide: the rows
under "4.5.1 Identification" were filed under 4.4, and §4.5.1 held the rows of §§4.5.2–4.5.4):
a page's rows are one table until a heading lies between two of them, and each table goes in
reading order at its vertical place among the page's text. The PDF is built in the test
(``pdf_writer``) and read by pdfminer exactly as ingest reads a file."""

from __future__ import annotations

from docstrata.convert import convert_file
from docstrata.models import SourceFile
from docstrata.structure import build_tree

from .pdf_writer import Run, pdf_bytes

INTRO = [
    "The following attributes are used to identify elements in various ways. The group is a",
    "universal group and can be used on all elements of the model, abstract or concrete alike,",
    "and every attribute of it is described in the rows below with the values it may take.",
]


def _heading(y: float, text: str, size: float = 12.0) -> Run:
    return Run(73, y, text, size, "F2")


def _para(y: float, first: str) -> list[Run]:
    return [Run(73, y - 13 * n, (f"{first} " + line.split(" ", 1)[1]) if n == 0 else line, 10)
            for n, line in enumerate(INTRO)]


def _rows(y: float, rows: list[tuple[str, str]]) -> list[Run]:
    out = []
    for n, (name, text) in enumerate(rows):
        out += [Run(80, y - 24 * n, name, 10, "F2"), Run(200, y - 24 * n, text, 10)]
    return out


IDENTIFICATION = [("@id", "An immutable id assigned to an element upon creation."),
                  ("@name", "A name assigned to an element that can be parameterized."),
                  ("@temporalId", "An evolving name assigned to an element.")]
CLASSIFICATION = [("@role", "Assigns a single semantic subclass to an element."),
                  ("@class", "Assigns one or more presentation classes to an element.")]
CLASSIFICATION_NEXT_PAGE = [("@style", "Embeds CSS styles, particular to a specific instance."),
                            ("@lang", "The language the text of an element is written in.")]
ANNOTATION = [("@note", "A simple text note not to be published."),
              ("@alt", "An alternate description of an element for accessibility.")]


def _pages() -> list[list[Run]]:
    return [
        [_heading(720, "4.4 Generic Set")] + _para(695, "Every")
        + [_heading(630, "4.5 Attribute Groups")] + _para(605, "Some")
        + [_heading(545, "4.5.1 Identification", 11)] + _para(520, "These")
        + _rows(470, IDENTIFICATION)
        + [_heading(380, "4.5.2 Classification", 11)] + _para(355, "Those")
        + _rows(305, CLASSIFICATION),
        _rows(720, CLASSIFICATION_NEXT_PAGE)
        + [_heading(650, "4.5.3 Annotation", 11)] + _para(625, "Other")
        + _rows(575, ANNOTATION) + _para(500, "All"),
    ]


def _sections(tmp_path) -> dict[str, str]:
    path = tmp_path / "attribute-groups.pdf"
    path.write_bytes(pdf_bytes(_pages()))
    doc = convert_file(SourceFile(path.name, str(path), None))
    return {section.section_id: section.text for section in build_tree(doc).sections}


def test_table_rows_split_at_the_heading_between_them_and_filed_in_its_section(tmp_path):
    """Before: all rows of a page were one table, placed where its first line came, so the rows
    under 4.5.2 sat in 4.5.1 and the next page's 4.5.3 rows in 4.5.2."""
    sections = _sections(tmp_path)
    assert {"4.5.1", "4.5.2", "4.5.3"} <= set(sections), sorted(sections)
    for section_id, rows in [("4.5.1", IDENTIFICATION), ("4.5.2", CLASSIFICATION + CLASSIFICATION_NEXT_PAGE),
                             ("4.5.3", ANNOTATION)]:
        for name, text in rows:
            holders = [sid for sid, body in sections.items() if f"| {name} | {text} |" in body]
            assert holders == [section_id], (name, holders)


def test_table_rows_come_after_the_text_above_them_and_before_the_text_below(tmp_path):
    """In a section's text the table sits at its vertical place: after the paragraph above it
    (a header separator under its first row), before the paragraph printed under it."""
    sections = _sections(tmp_path)
    identification = sections["4.5.1"]
    assert identification.index("These following attributes") < identification.index("| @id |")
    assert "| @id | An immutable id assigned to an element upon creation. |\n|---|---|" in identification
    annotation = sections["4.5.3"]
    assert annotation.index("Other following attributes") < annotation.index("| @note |") < annotation.index("| @alt |") \
        < annotation.index("All following attributes")

