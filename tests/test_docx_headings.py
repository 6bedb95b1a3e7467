"""Headings inferred from font size and bold in DOCX without heading styles (trial 7 item 8)."""

from __future__ import annotations

import io
import zipfile

from docstrata.convert import convert_file
from docstrata.convert.docx_headings import inferred_headings, mark_inferred_headings
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.'
    'wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>')
_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
         'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
         'relationships/officeDocument" Target="word/document.xml"/></Relationships>')
_DOC_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
             '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
             'relationships/styles" Target="styles.xml"/></Relationships>')


def _styles(heading_style: bool) -> str:
    title = ('<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:rPr><w:sz w:val="56"/></w:rPr>'
             '</w:style>')
    heading = ('<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/>'
               '<w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>') if heading_style else ""
    return (f'<?xml version="1.0" encoding="UTF-8"?><w:styles {_NS}><w:docDefaults><w:rPrDefault><w:rPr>'
            '<w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" '
            f'w:styleId="Normal"><w:name w:val="Normal"/></w:style>{title}{heading}</w:styles>')


def _para(text: str, size: int | None = None, bold: bool = False, style: str | None = None) -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    rpr = ("<w:b/>" if bold else "") + (f'<w:sz w:val="{size}"/>' if size else "")
    words = text.split(" ")  # one run per word, the spaces in runs of their own, as Word often writes them
    runs = '<w:r><w:t xml:space="preserve"> </w:t></w:r>'.join(
        f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t>{w}</w:t></w:r>' for w in words)
    return f"<w:p>{ppr}{runs}</w:p>"


def _docx(paragraphs: list[str], heading_style: bool = False) -> bytes:
    body = "".join(paragraphs)
    document = f'<?xml version="1.0" encoding="UTF-8"?><w:document {_NS}><w:body>{body}</w:body></w:document>'
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("word/_rels/document.xml.rels", _DOC_RELS)
        z.writestr("word/document.xml", document)
        z.writestr("word/styles.xml", _styles(heading_style))
    return buf.getvalue()


BODY = "This Agreement shall govern all communications between the parties and survive termination."
CONTRACT = [
    _para("Karaka Management", size=48),
    _para("Confidentiality Agreement regarding the project and its components"),
    _para("Definition", size=32),
    _para('As used herein, "Recipient" refers to the signing person.'),
    _para("Survival", size=32),
    _para(BODY),
    _para("Governing Law and Jurisdiction", size=32),
    _para("This Agreement shall be governed exclusively by German law."),
    _para("Notices and Addresses", bold=True),
    _para("Notices go to the addresses below."),
    _para("I HAVE READ THE TERMS OF THIS AGREEMENT AND AGREE FULLY WITH THE SAME.", bold=True),
    _para("Karaka Management GmbH", bold=True),
    _para("Musterstrasse 1", bold=True),
    _para("Date, Name, Signature"),
]


def _tree(tmp_path, data: bytes, name: str = "NDA.docx"):
    path = tmp_path / name
    path.write_bytes(data)
    st = path.stat()
    return build_tree(convert_file(SourceFile(name, str(path), FileState(st.st_size, st.st_mtime_ns, ""))))


def test_clause_titles_marked_by_size_or_bold_become_sections(tmp_path):
    """Karaka NDA shape: 24 pt title, 16 pt clause titles, an 11 pt body, one bold clause title; a
    bold sentence and a bold address block are not headings."""
    found = inferred_headings(_docx(CONTRACT))
    assert [(h.text, h.level) for h in found] == [
        ("Karaka Management", 1), ("Definition", 2), ("Survival", 2), ("Governing Law and Jurisdiction", 2),
        ("Notices and Addresses", 3)]
    tree = _tree(tmp_path, _docx(CONTRACT))
    by_title = {s.title: s for s in tree.sections}
    assert {"Survival", "Governing Law and Jurisdiction", "Notices and Addresses"} <= set(by_title)
    assert BODY in by_title["Survival"].text
    assert by_title["Survival"].parent_id == by_title["Karaka Management"].section_id
    assert "AGREEMENT" in by_title["Notices and Addresses"].text and "Musterstrasse" in by_title["Notices and Addresses"].text
    assert [d.term for d in tree.definitions] == ["Recipient"]
    assert next(d for d in tree.definitions).section_id == by_title["Definition"].section_id


def test_a_document_with_heading_styles_is_left_to_its_styles(tmp_path):
    """Where the author used Word heading styles, those are the evidence: nothing is inferred even
    though a larger paragraph stands alone."""
    styled = [_para("Scope", style="Heading1"), _para(BODY), _para("Big Banner Line", size=40), _para(BODY)]
    assert inferred_headings(_docx(styled, heading_style=True)) == []
    found = inferred_headings(_docx(styled, heading_style=True), honour_heading_styles=False)
    assert [h.text for h in found] == ["Scope", "Big Banner Line"]  # the typography alone would find both
    titles = [s.title for s in _tree(tmp_path, _docx(styled, heading_style=True), "styled.docx").sections]
    assert "Scope" in titles and "Big Banner Line" not in titles


def test_no_evidence_no_headings():
    """A one-size plain document, one set wholly in a large size (that size is its body), and one
    with a single large line get no inferred headings."""
    plain = [_para(BODY), _para("Short line"), _para(BODY)]
    assert inferred_headings(_docx(plain)) == []
    large = [_para(BODY, size=40), _para("Short line", size=40), _para(BODY, size=40)]
    assert inferred_headings(_docx(large)) == []
    assert inferred_headings(_docx([_para("Banner", size=40), *plain])) == []


def test_a_title_styled_document_keeps_its_title_and_infers_the_rest(tmp_path):
    """Word's Title style is already a level-1 heading (office.py maps it); inferred headings go
    under it, the largest at level 2."""
    doc = [_para("Master Services Agreement", style="Title"), _para(BODY), _para("Term", size=32), _para(BODY),
           _para("Fees", size=32), _para(BODY)]
    assert [(h.text, h.level) for h in inferred_headings(_docx(doc))] == [("Term", 1), ("Fees", 1)]
    tree = _tree(tmp_path, _docx(doc), "msa.docx")
    levels = {s.title: s.level for s in tree.sections}
    assert levels["Term"] == levels["Fees"] == levels["Master Services Agreement"] + 1


def test_marking_matches_lines_in_order_and_keeps_an_existing_title():
    md = "# The Title\n\n**Survival**\n\nText.\n\n* Survival\n\nGoverning Law\n\nMore.\n"
    from docstrata.convert.docx_headings import InferredHeading

    heads = [InferredHeading("Survival", 1, 32, True), InferredHeading("Governing Law", 1, 32, False)]
    assert mark_inferred_headings(md, heads) == "# The Title\n\n## Survival\n\nText.\n\n* Survival\n\n## Governing Law\n\nMore.\n"


def _centred(paragraph: str) -> str:
    return paragraph.replace("<w:p>", '<w:p><w:pPr><w:jc w:val="center"/></w:pPr>', 1)


# a policy set wholly in bold, as a new user's trial document was (session 16): a centred title, then
# "Introduction", its text, a question as a heading, a list, more headings; no heading styles
POLICY = [
    _centred(_para("Remote Access Policy", bold=True)),
    _para("Introduction", bold=True),
    _para("This policy sets out how staff may reach company systems from outside the office network.", bold=True),
    _para("Who may work remotely?", bold=True),
    _para("Staff whose manager has approved remote work may connect through the company gateway:", bold=True),
    _para("Laptops issued by the company", bold=True).replace("<w:p>", '<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/>'
                                                                        '<w:numId w:val="1"/></w:numPr></w:pPr>', 1),
    _para("Connection Rules", bold=True),
    _para("Every connection uses the gateway and a second factor; shared accounts are never used.", bold=True),
    _para("Contact", bold=True),
    _para("Questions about this policy go to the service desk during office hours.", bold=True),
]


def test_a_policy_set_all_in_bold_keeps_its_title_line_and_first_heading(tmp_path):
    """Bold is the body formatting here: the centred first line is the title and the level-1
    heading, ``Introduction`` right under it is a heading, and the question is a heading under the
    title, not the document's title."""
    found = [(h.text, h.level) for h in inferred_headings(_docx(POLICY))]
    assert found == [("Remote Access Policy", 1), ("Introduction", 2), ("Who may work remotely?", 2),
                     ("Connection Rules", 2), ("Contact", 2)]
    tree = _tree(tmp_path, _docx(POLICY), "remote-access.docx")
    assert tree.title == "Remote Access Policy"
    by_title = {s.title: s for s in tree.sections}
    top = by_title["Remote Access Policy"].section_id
    assert all(by_title[t].parent_id == top for t in ("Introduction", "Who may work remotely?", "Contact"))
    assert "network" in by_title["Introduction"].text and "network" not in by_title["Remote Access Policy"].text


def test_in_a_bold_body_a_bold_line_heads_only_longer_text():
    """Where the body is bold, a short bold line over a shorter sentence (an owner line over its
    review note) heads nothing; the same line in a document whose body is not bold is a heading."""
    owner = [_para("Owner Information Technology Department", bold=True), _para("Reviewed every year.", bold=True)]
    assert "Owner Information Technology Department" not in [h.text for h in inferred_headings(_docx(POLICY + owner))]
    light = [_para(p, bold=True) for p in ("Remote Access", "Contact")]
    plain = [light[0], _para(BODY), light[1], _para(BODY), owner[0], _para("Reviewed every year.")]
    assert [h.text for h in inferred_headings(_docx(plain))] == [
        "Remote Access", "Contact", "Owner Information Technology Department"]


def test_an_uncentred_first_line_like_the_headings_is_no_title_line():
    """Without the centring the first line is set like the headings: no title line (and no title
    read from it), and with ``Introduction`` right after it the two are a block of lines alike."""
    from docstrata.convert.docx_headings import docx_title

    plain = [_para("Remote Access Policy", bold=True), *POLICY[1:]]
    found = [(h.text, h.level) for h in inferred_headings(_docx(plain))]
    assert found == [("Who may work remotely?", 1), ("Connection Rules", 1), ("Contact", 1)]
    assert docx_title(_docx(plain)) is None
    assert docx_title(_docx(POLICY)) == "Remote Access Policy"


def test_a_bold_field_line_heads_nothing(tmp_path):
    """Trial 19's privacy policy (a Discord bot's, no licence to copy): bold centred "Privacy Policy", bold
    "Last Updated: 3/1/25", the introduction, then bold numbered headings. The date line is a
    field of the document: it became a section holding the introduction."""
    intro = "Welcome to the Bot. This Privacy Policy explains how we collect, use, and disclose your information."
    centred_title = _para("Privacy Policy", bold=True).replace("<w:p>", '<w:p><w:pPr><w:jc w:val="center"/></w:pPr>', 1)
    shape = [
        centred_title,
        _para("Last Updated: 3/1/25", bold=True),
        _para(intro),
        _para("1. Information We Collect", bold=True),
        _para("We may collect the following types of information when you use the Bot in a channel."),
        _para("2. How We Use Your Information", bold=True),
        _para("We use the information we collect to provide and maintain the Bot for its users."),
    ]
    texts = [h.text for h in inferred_headings(_docx(shape))]
    assert "Last Updated: 3/1/25" not in texts and "1. Information We Collect" in texts, texts
    titles = [s.title for s in _tree(tmp_path, _docx(shape), "policy.docx").sections]
    assert not any("Last Updated" in t for t in titles), titles


def test_field_lines_and_headings_with_a_colon():
    from docstrata.structure.grammar import is_field_line

    fields = ["Last Updated: 3/1/25", "Effective Date: January 1, 2024", "Version: 2.1", "**Last revised: 5 May 2023**"]
    headings = ["Article 5: Definitions", "Chapter 2: Scope", "Step 1: Install the package", "Schedule 2: 2024 Amendments"]
    assert [is_field_line(t) for t in fields] == [True] * 4
    assert [is_field_line(t) for t in headings] == [False] * 4
