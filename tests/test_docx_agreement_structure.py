"""Three Word agreement layouts a fresh-document check found read wrong (s15):

* a cover page (title, parties, date: the lines before the first page break, set larger than the
  body) is front matter, never the ancestor of the clauses after it (convert/docx_headings.py) —
  on a real notice, ``tests/fixtures/open-agreements`` (CC BY 4.0, see its NOTICE.md);
* numbered lists that restart at 1 under each heading, bold title or caption line are the clauses
  of what they follow, one-cell tables are frames read as the flow (convert/docx_numbering.py,
  convert/docx_frames.py);
* a bold run that holds a clause's number and its title together (``**2.2 Lifetime Rate Lock.**
  As a …``) starts that clause (structure/parse/scan.py).

The two documents that showed the last two faults carry no licence, so they are not committed:
the packages below rebuild their structure (styles, numbering instances, the one-cell frame, the
bold runs) with text of our own; the figures on the originals are in docs/benchmarks-log.md.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.convert.docx_frames import unframe_single_cells
from docstrata.convert.docx_headings import inferred_headings
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree
from docstrata.structure.parse import parse_sections

from .docx_writer import W_NS, docx_package

NOTICE = Path(__file__).parent / "fixtures" / "open-agreements" / "colorado-restrictive-covenant-notice.docx"
_W = W_NS


def _tree(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    doc = convert_file(SourceFile(name, str(path), FileState(len(data), 0, hashlib.sha256(data).hexdigest())))
    return doc, build_tree(doc)


def _by_id(tree) -> dict:
    return {s.section_id: s for s in tree.sections}


# --------------------------------------------------------------------------- cover page


def test_a_cover_page_is_front_matter_not_the_ancestor_of_the_clauses(tmp_path):
    data = NOTICE.read_bytes()
    heads = [h.text for h in inferred_headings(data)]
    # the first page (title in 26 pt, "Notice Information" in 15 pt over the parties' table) heads nothing
    assert "Colorado Notice of Restrictive Covenants" not in heads and "Notice Information" not in heads
    assert heads == ["Important Notice", "Worker Acknowledgment"]
    doc, tree = _tree(tmp_path, NOTICE.name, data)
    s = _by_id(tree)
    assert doc.title == "Colorado Notice of Restrictive Covenants"
    assert "Notice Information" in s["preamble"].text  # kept as the document's front matter
    for n in ("1", "2", "3", "4", "5"):
        assert s[n].parent_id is None  # no cover line above the clauses
    # the acknowledgment after clause 5 is a heading of the notice, not a child of clause 5
    assert s["worker-acknowledgment"].parent_id is None


def _typed_docx(paragraphs: list[tuple[int, str]], break_after: int | None) -> bytes:
    """A .docx of ``(size in half-points, text)`` paragraphs, bold when larger than 24, with a page
    break after paragraph ``break_after`` (0-based)."""
    body = []
    for k, (size, text) in enumerate(paragraphs):
        b = "<w:b/>" if size > 24 else ""
        brk = '<w:r><w:br w:type="page"/></w:r>' if k == break_after else ""
        body.append(f'<w:p><w:r><w:rPr>{b}<w:sz w:val="{size}"/></w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>{brk}</w:p>')
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("word/document.xml", f"<w:document {_W}><w:body>{''.join(body)}</w:body></w:document>")
    return buf.getvalue()


_BODY = "The Developer shall deliver the application in accordance with the schedule agreed by the parties."


def test_a_first_page_with_body_text_is_no_cover():
    cover = [(44, "Development Agreement"), (36, "Submitted By: Group 4"), (28, "Name ID")]
    clauses = [(28, "PURPOSE"), (24, _BODY), (28, "TERM"), (24, _BODY), (28, "SEVERABILITY"), (24, _BODY)]
    on_cover = inferred_headings(_typed_docx(cover + clauses, break_after=len(cover) - 1))
    assert [h.text for h in on_cover] == ["PURPOSE", "TERM", "SEVERABILITY"]
    assert {h.level for h in on_cover} == {1}
    # the same lines with body text on the first page: a first page of the document, read as ever
    first = [(44, "Development Agreement"), (24, _BODY), (36, "Submitted By: Group 4"), (24, _BODY)]
    heads = [h.text for h in inferred_headings(_typed_docx(first + clauses, break_after=len(first) - 1))]
    assert heads[:2] == ["Development Agreement", "Submitted By: Group 4"]


# --------------------------------------------------------------------------- restarting lists


def _numbered(num: int, text: str) -> str:
    return f'<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="{num}"/></w:numPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>'


def _plain(text: str, bold: bool = False, style: str | None = None) -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    rpr = "<w:rPr><w:b/></w:rPr>" if bold else ""
    return f'<w:p>{ppr}<w:r>{rpr}<w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


def _frame(inner: str) -> str:
    """A table of one row and one cell round ``inner``: a box drawn round paragraphs."""
    return f"<w:tbl><w:tblPr/><w:tr><w:tc><w:tcPr/>{inner}</w:tc></w:tr></w:tbl>"


def _package(body: str, lists: int) -> bytes:
    """A .docx with a ``Heading1`` style and ``lists`` decimal lists (numId 1…), each its own
    abstract numbering, so each counts from 1."""
    styles = (
        f'<w:styles {_W}><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/>'
        '<w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style></w:styles>'
    )
    abstracts = "".join(
        f'<w:abstractNum w:abstractNumId="{n}"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
        f'<w:lvlText w:val="%1."/></w:lvl></w:abstractNum>'
        for n in range(1, lists + 1)
    )
    nums = "".join(f'<w:num w:numId="{n}"><w:abstractNumId w:val="{n}"/></w:num>' for n in range(1, lists + 1))
    return docx_package(body, styles, f"<w:numbering {_W}>{abstracts}{nums}</w:numbering>")


TERMS = [
    "I will not attempt to identify any individual referenced in the restricted data.",
    "I will exercise all reasonable care to avoid disclosure of the identity of any individual.",
    "I will not share access to the restricted data with anyone else.",
    "This agreement may be terminated by either party at any time.",
]
TERMS_ZH = ["我将不会尝试识别数据中涉及的个人的真实身份。", "我将采取一切合理和谨慎的措施。", "我不会将数据共享给任何人。", "该协议可以被两方中止。"]

# the data-use agreement's layout: its terms boxed in a one-cell table, once in English and once in
# Chinese under a bold title, then again on the form under a heading of their own
DATA_USE = (
    _plain("Requesting Access to the Dataset", style="Heading1")
    + _plain("The contents of the restricted-access databases were derived from original data.")
    + _plain("Dataset Restricted Data Use Agreement", bold=True)
    + _plain("If I am granted access to the databases, I agree to the terms and conditions below:")
    + _frame(
        _plain("English Version")
        + "".join(_numbered(1, t) for t in TERMS)
        + _plain("中文版")
        + "".join(_numbered(2, t) for t in TERMS_ZH)
        + _plain("The project manager has the final right to interpret this dataset.")
    )
    + _plain("Data Use Agreement", style="Heading1")
    + _frame(_plain("Use this form to submit a data use agreement and request access to the databases."))
    + _plain("By submitting this form, I affirm that if I am granted access I will observe the following:")
    + "".join(_numbered(3, t) for t in TERMS)
    + _plain("Signature:", bold=True)
)


def test_lists_restarting_under_each_title_are_its_clauses(tmp_path):
    doc, tree = _tree(tmp_path, "data-use-agreement.docx", _package(DATA_USE, 3))
    s = _by_id(tree)
    assert "| English Version" not in doc.markdown  # the one-cell frame is read as the flow, not as a table row
    assert s["dataset-restricted-data-use-agreement"].parent_id == "requesting-access-to-the-dataset"
    english, chinese = s["english-version"], s["中文版"]
    assert english.parent_id == chinese.parent_id == "dataset-restricted-data-use-agreement"
    first = [x for x in tree.sections if x.parent_id == english.section_id]
    second = [x for x in tree.sections if x.parent_id == chinese.section_id]
    form = [x for x in tree.sections if x.parent_id == "data-use-agreement"]
    for clauses, texts in ((first, TERMS), (second, TERMS_ZH), (form, TERMS)):
        assert [x.number for x in clauses] == ["1", "2", "3", "4"]
        assert [texts[k] in (x.heading + x.text) for k, x in enumerate(clauses)] == [True] * 4
    # each list's clause 2 answers to its own citation, and ids never collide
    assert len({x.section_id for x in tree.sections}) == len(tree.sections)
    assert {x.section_id for x in (first[1], second[1], form[1])} == {"2", "中文版/2", "data-use-agreement/2"}


def test_steps_among_many_headings_stay_list_items(tmp_path):
    # a specification: many headings, two procedures numbering their steps — steps, not clauses
    steps = ["Extract the token from the signature.", "Verify the certificate.", "Set the result."]
    body = "".join(_plain(f"Processing rule {k}", style="Heading1") + _plain("Some text.") for k in range(1, 8))
    body += _plain("Procedure A", style="Heading1") + "".join(_numbered(1, t) for t in steps)
    body += _plain("Procedure B", style="Heading1") + "".join(_numbered(2, t) for t in steps)
    _, tree = _tree(tmp_path, "spec.docx", _package(body, 2))
    assert not [x for x in tree.sections if x.number]


def test_a_one_cell_table_is_unframed_and_a_real_table_kept():
    two_cells = "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    data = _package(_frame(_plain("boxed")) + two_cells, 1)
    out = unframe_single_cells(data)
    with zipfile.ZipFile(io.BytesIO(out)) as z:
        xml = z.read("word/document.xml").decode()
    assert xml.count("<w:tbl>") == 1 and "boxed" in xml and "<w:tcPr/>" not in xml
    assert unframe_single_cells(_package(two_cells, 1)) == _package(two_cells, 1)  # nothing to unframe: unchanged


# --------------------------------------------------------------------------- bold number and title

# the service agreement's clauses as mammoth writes them: the heading states the clause, its
# sub-clauses are typed, the number bold alone or bold together with the clause's title
SERVICE = """# SERVICE AGREEMENT

## 2. PRICING & PAYMENT

| Description | Monthly Rate |
| --- | --- |
| First Location | $599.00 |

**2.2 Lifetime Rate Lock.** As a founding member, these rates are locked for life regardless of future price increases.

**2.3 Payment Terms.** Monthly billing, month-to-month, no long-term contract. 30 days notice to cancel.

## 3. TERM & TERMINATION

**3.1** Month-to-month agreement. Either party may terminate with 30 days written notice.

**3.2** Upon termination: platform access deactivated, data export available for 30 days.

## 6. GENERAL PROVISIONS

**6.1 Governing Law:** State of Pennsylvania.

**6.2** This Agreement constitutes the entire agreement. Amendments require written agreement.

**2.5 million** customers were served last year, the provider reports.
"""


@pytest.mark.parametrize("number,title,parent", [
    ("2.2", "Lifetime Rate Lock", "2"), ("2.3", "Payment Terms", "2"), ("6.1", "Governing Law", "6"),
])
def test_a_bold_run_holding_number_and_title_starts_the_clause(number, title, parent):
    tree = parse_sections(SERVICE, "service.md", "Service Agreement")
    s = _by_id(tree)
    assert s[number].title == f"{number} {title}"
    assert s[number].parent_id == parent
    assert s["3.1"].parent_id == "3" and s["6.2"].parent_id == "6"  # bold numbers alone, as before
    assert "2.5" not in s  # a bold figure that is no clause label
