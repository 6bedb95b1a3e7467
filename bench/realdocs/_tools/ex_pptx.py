"""Truth from a PPTX package's own markup (ppt/presentation.xml, slide XML).

Sections: one per slide, in the order of presentation.xml's sldIdLst (hidden
slides, show="0", are included and flagged); number = the slide's position
as a string ('1', '2', ...); title = text of the slide's title placeholder
(p:ph type 'title' or 'ctrTitle'), null when the slide has none; level 1;
placeholders = [{type, idx, text (first words)}] of every placeholder shape in
shape-tree order; shapes = count of shapes; tables = count of graphicFrames
holding an a:tbl; notes = first words of the notes slide, when present.
Definitions: none.  Xrefs: none (slide-to-slide hyperlinks are not sampled).
"""
import posixpath
import zipfile

from lxml import etree

from common import Tree, first_words, norm, write_truth

P = '{http://schemas.openxmlformats.org/presentationml/2006/main}'
A = '{http://schemas.openxmlformats.org/drawingml/2006/main}'
R = '{http://schemas.openxmlformats.org/officeDocument/2006/relationships}'
PR = '{http://schemas.openxmlformats.org/package/2006/relationships}'


def _rels(z, part):
    d, f = posixpath.split(part)
    name = posixpath.join(d, '_rels', f + '.rels')
    if name not in z.namelist():
        return {}
    return {r.get('Id'): (posixpath.normpath(posixpath.join(d, r.get('Target'))), r.get('Type'))
            for r in etree.fromstring(z.read(name)).iter(PR + 'Relationship')}


def _text(e):
    paras = [''.join(t.text or '' for t in p.iter(A + 't')) for p in e.iter(A + 'p')]
    return norm(' '.join(x for x in paras if x))


def extract(path):
    """Return the slide sections of the PPTX at ``path``."""
    z = zipfile.ZipFile(path)
    pres = etree.fromstring(z.read('ppt/presentation.xml'))
    rels = _rels(z, 'ppt/presentation.xml')
    tree = Tree()
    for i, sid in enumerate(pres.iter(P + 'sldId'), 1):
        part = rels[sid.get(R + 'id')][0]
        sld = etree.fromstring(z.read(part))
        title, phs = None, []
        for sp in sld.iter(P + 'sp'):
            ph = sp.find('.//' + P + 'nvPr/' + P + 'ph')
            if ph is None:
                continue
            kind = ph.get('type', 'body')
            txt = _text(sp)
            phs.append({'type': kind, 'idx': ph.get('idx'), 'text': first_words(txt, 10) or None})
            if kind in ('title', 'ctrTitle') and title is None and txt:
                title = txt
        shapes = len([e for e in sld.iter(P + 'sp', P + 'pic', P + 'graphicFrame', P + 'grpSp', P + 'cxnSp')])
        tables = len([g for g in sld.iter(P + 'graphicFrame') if g.find('.//' + A + 'tbl') is not None])
        notes = None
        for target, typ in _rels(z, part).values():
            if typ.endswith('/notesSlide') and target in z.namelist():
                body = [_text(sp) for sp in etree.fromstring(z.read(target)).iter(P + 'sp')
                        if (sp.find('.//' + P + 'ph') is not None and sp.find('.//' + P + 'ph').get('type') == 'body')]
                notes = first_words(' '.join(b for b in body if b), 12) or None
        tree.add(str(i), title, 1, slide=i, part=part, hidden=True if sid.get('show') == '0' or sld.get('show') == '0' else None,
                 placeholders=phs, shapes=shapes, tables=tables, notes=notes)
    return tree.sections


def run(path, truth_path, source):
    return write_truth(truth_path, source, __doc__.strip(), extract(path))
