"""Truth from a PDF's own outline (bookmarks), read with pdfminer.six.

Sections: every outline item in document order; level = outline depth (top =
1); title = outline title with a leading label split off (common.split_number:
'Part I—Preliminary' -> number 'Part I', '4AA  Meaning of electoral matter' ->
number '4AA', '2.1 basic assumptions' -> '2.1'); outline_title keeps the item as
written; page = 1-based destination page (null when unresolvable).  A
childless item titled 'Bookmarks' (an artefact of Word's PDF export, pointing
at page 1) is dropped.
Definitions: none (a PDF marks no terms).
Xrefs: /Link annotations on the pages whose destination is the destination of an
outline item (same page and, when both are known, same top within 2 pt): text
null, from_page, target_page, target_number/target_title of that outline item.
"""
from pdfminer.pdfdocument import PDFDocument, PDFNoOutlines
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser
from pdfminer.pdftypes import resolve1
from pdfminer.psparser import PSLiteral

from common import Tree, norm, split_number, write_truth


def _name(x):
    x = resolve1(x)
    if isinstance(x, PSLiteral):
        return x.name
    if isinstance(x, bytes):
        return x.decode('latin-1')
    return x


def _dest(doc, dest, action):
    """(page object id, top) of an outline/link destination or (None, None)."""
    if dest is None and action is not None:
        action = resolve1(action)
        if isinstance(action, dict) and _name(action.get('S')) == 'GoTo':
            dest = action.get('D')
    dest = resolve1(dest)
    if isinstance(dest, (bytes, str, PSLiteral)):
        try:
            dest = resolve1(doc.get_dest(_name(dest) if not isinstance(dest, bytes) else dest))
        except Exception:
            return None, None
    if isinstance(dest, dict):
        dest = resolve1(dest.get('D'))
    if not isinstance(dest, list) or not dest:
        return None, None
    page = dest[0]
    objid = getattr(page, 'objid', None)
    top = None
    kind = _name(dest[1]) if len(dest) > 1 else None
    if kind in ('XYZ', 'FitH', 'FitBH') and len(dest) > 2:
        v = resolve1(dest[3] if kind == 'XYZ' and len(dest) > 3 else dest[2])
        top = float(v) if isinstance(v, (int, float)) else None
    return objid, top


def extract(path):
    """Return (sections, xrefs, page_count) for the PDF at ``path``."""
    with open(path, 'rb') as f:
        doc = PDFDocument(PDFParser(f))
        pages = {p.pageid: i + 1 for i, p in enumerate(PDFPage.create_pages(doc))}
        tree = Tree()
        try:
            outline = list(doc.get_outlines())
        except PDFNoOutlines:
            outline = []
        for i, (level, title, dest, action, _se) in enumerate(outline):
            nxt = outline[i + 1][0] if i + 1 < len(outline) else 0
            if norm(title) == 'Bookmarks' and nxt <= level:
                continue                      # childless 'Bookmarks' item: Word->PDF export artefact
            objid, top = _dest(doc, dest, action)
            number, rest = split_number(title)
            tree.add(number, rest, level, outline_title=norm(title), page=pages.get(objid),
                     top=round(top, 1) if top is not None else None)
        targets = {}
        for s in tree.sections:
            if s.get('page') is not None:
                targets.setdefault(s['page'], []).append(s)
        xrefs = []
        for page in PDFPage.create_pages(doc):
            for annot in resolve1(page.annots) or []:
                a = resolve1(annot)
                if not isinstance(a, dict) or _name(a.get('Subtype')) != 'Link':
                    continue
                objid, top = _dest(doc, a.get('Dest'), a.get('A'))
                tp = pages.get(objid)
                cands = targets.get(tp, [])
                hit = [s for s in cands if top is None or s.get('top') is None or abs(s['top'] - top) <= 2]
                if hit:
                    s = hit[0]
                    xrefs.append({'text': None, 'from_page': pages[page.pageid], 'target_page': tp,
                                  'target_number': s['number'], 'target_title': s['title'], 'internal': True})
    return tree.sections, xrefs, len(pages)


def run(path, truth_path, source):
    sections, xrefs, n = extract(path)
    return write_truth(truth_path, source, __doc__.strip(), sections, [], xrefs, pages=n)
