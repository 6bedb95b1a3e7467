"""A Word contract whose every clause is a list of its own (Word's "restart numbering" on each
paragraph, the number a start value: ``1. **LICENSE**``, ``a. **Grant.** …``, ``2. **FORMAT OF DATA**``),
as the ETS data-licence agreement of the third unseen set is written: the decimal clauses are the
outline, each titled by its bold line or bold run-in title, and the lettered paragraphs between them
are sub-clauses ``1(a)``, ``3(b)`` — not a run of unrelated one-item lists."""

from __future__ import annotations

from .docx_writer import docx_package
from .test_docx_style_numbering import _W, _styles, _tree


def _package(paragraphs: list[tuple[str, int, str, str]]) -> bytes:
    """A .docx of ``(format, start, bold, plain)`` paragraphs, each numbered by its own list."""
    nums, abstracts, body = [], [], []
    for n, (fmt, start, bold, plain) in enumerate(paragraphs, 1):
        text = "%1." if fmt in ("decimal", "lowerLetter") else "%1"
        abstracts.append(
            f'<w:abstractNum w:abstractNumId="{n}"><w:lvl w:ilvl="0"><w:start w:val="{start}"/>'
            f'<w:numFmt w:val="{fmt}"/><w:lvlText w:val="{text}"/></w:lvl></w:abstractNum>'
        )
        nums.append(f'<w:num w:numId="{n}"><w:abstractNumId w:val="{n}"/></w:num>')
        runs = f'<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">{bold}</w:t></w:r>' if bold else ""
        runs += f'<w:r><w:t xml:space="preserve">{plain}</w:t></w:r>' if plain else ""
        body.append(f'<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="{n}"/></w:numPr></w:pPr>{runs}</w:p>')
    intro = '<w:p><w:r><w:t>THIS AGREEMENT is entered into by and between the parties.</w:t></w:r></w:p>'
    return docx_package(
        intro + "".join(body), _styles(), f"<w:numbering {_W}>{''.join(abstracts)}{''.join(nums)}</w:numbering>"
    )


AGREEMENT = [
    ("decimal", 1, "LICENSE", ""),
    ("lowerLetter", 1, "Grant.", " ETS grants Researcher a limited licence to use the Data."),
    ("lowerLetter", 2, "Additional Terms.", " Researcher shall follow the terms of Exhibit A."),
    ("decimal", 2, "FORMAT OF DATA", ""),
    ("decimal", 3, "RESTRICTIONS.", " The rights granted are subject to the following restrictions:"),
    ("lowerLetter", 1, "", "Research may be conducted only by the Researcher."),
    ("lowerLetter", 2, "", "Researcher shall not reproduce the Data as a whole."),
    ("decimal", 4, "TERM", ""),
]


def test_clauses_numbered_one_list_each_are_the_outline_with_their_sub_clauses(tmp_path):
    _, tree = _tree(tmp_path, "licence.docx", _package(AGREEMENT))
    by_id = {s.section_id: s for s in tree.sections}
    assert [by_id[n].title for n in ("1", "2", "3", "4")] == ["1. LICENSE", "2. FORMAT OF DATA", "3. RESTRICTIONS", "4. TERM"]
    assert by_id["1(a)"].parent_id == "1" and by_id["1(a)"].title == "a. Grant"
    assert by_id["1(b)"].parent_id == "1"
    assert by_id["3(a)"].parent_id == "3" and by_id["3(b)"].parent_id == "3"
    assert "reproduce the Data" in by_id["3(b)"].title + by_id["3(b)"].text


def test_plain_numbered_steps_in_lists_of_their_own_stay_a_list(tmp_path):
    steps = [("decimal", n, "", f"Step {n} of the set-up: turn the dial to {n}.") for n in (1, 2, 3)]
    doc, _ = _tree(tmp_path, "steps.docx", _package(steps))
    assert [b.kind for b in doc.blocks if b.provenance == "numbering"] == ["list_item"] * 3
