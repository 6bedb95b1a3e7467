"""Truth from a DOCX package's own markup (word/document.xml, styles.xml, numbering.xml).

Sections: body paragraphs whose effective outline level is 0..8: the
paragraph's pPr/outlineLvl, else the first outlineLvl along its style's basedOn
chain, else a style named 'heading N' (level N-1); level = outline level + 1.
'Title'-styled paragraphs go to document_title, not sections.  Empty headings
are skipped.  title = the paragraph text (w:t, w:tab as space; deleted runs
and field instructions excluded).
number: the label Word's auto-numbering prints, computed from numbering.xml:
numPr from the paragraph, else from its style chain (ilvl from the style, else
the abstractNum level whose pStyle is that style); counters per abstractNum
over every numbered body paragraph in order (lists and headings alike), start
and w:startOverride honoured, deeper levels restart when a shallower level
counts; lvlText '%1.%2' filled with each level's numFmt (decimal,
decimalZero, upper/lowerRoman, upper/lowerLetter; decimal for every level when
isLgl); trailing punctuation stripped ('Article I.' -> 'Article I').  Without
auto-numbering a number typed at the start of the text is split off
(common.split_number) and number_source is 'typed'; number_source is
'numbering.xml' otherwise.
Definitions: none (Word marks no terms).
Xrefs: REF/PAGEREF field instructions and w:hyperlink@w:anchor whose bookmark
starts inside a heading paragraph (table-of-contents '_Toc' links are skipped);
target = bookmark name, target_number/target_title = that heading's.
"""
import re
import zipfile

from lxml import etree

from common import Tree, norm, split_number, strip_trailing, write_truth

W = '{http://schemas.openxmlformats.org/wordprocessingml/2006/main}'


def _val(e, path):
    x = e.find(path) if e is not None else None
    return x.get(W + 'val') if x is not None else None


def _roman(n):
    out = ''
    for v, s in ((1000, 'm'), (900, 'cm'), (500, 'd'), (400, 'cd'), (100, 'c'), (90, 'xc'),
                 (50, 'l'), (40, 'xl'), (10, 'x'), (9, 'ix'), (5, 'v'), (4, 'iv'), (1, 'i')):
        while n >= v:
            out, n = out + s, n - v
    return out


def _letter(n):
    return chr(ord('a') + (n - 1) % 26) * ((n - 1) // 26 + 1)


def fmt(n, kind):
    """Render counter ``n`` in Word numFmt ``kind``."""
    if kind == 'upperRoman':
        return _roman(n).upper()
    if kind == 'lowerRoman':
        return _roman(n)
    if kind == 'upperLetter':
        return _letter(n).upper()
    if kind == 'lowerLetter':
        return _letter(n)
    if kind == 'decimalZero':
        return '%02d' % n
    if kind in ('none', 'bullet'):
        return ''
    return str(n)


def _text(p):
    out = []
    for e in p.iter(W + 't', W + 'tab', W + 'br', W + 'delText', W + 'instrText'):
        if e.tag == W + 't':
            out.append(e.text or '')
        elif e.tag in (W + 'tab', W + 'br'):
            out.append(' ')
    return norm(''.join(out))


class Numbering:
    """numbering.xml levels and running counters."""

    def __init__(self, xml):
        self.abs, self.num, self.override = {}, {}, {}
        self.counters, self.used = {}, set()
        if xml is None:
            return
        for a in xml.iter(W + 'abstractNum'):
            lv = {}
            for l in a.iter(W + 'lvl'):
                lv[int(l.get(W + 'ilvl'))] = {
                    'start': int(_val(l, W + 'start') or 1), 'fmt': _val(l, W + 'numFmt') or 'decimal',
                    'text': _val(l, W + 'lvlText') or '', 'isLgl': l.find(W + 'isLgl') is not None,
                    'pStyle': _val(l, W + 'pStyle')}
            self.abs[a.get(W + 'abstractNumId')] = lv
        for n in xml.iter(W + 'num'):
            nid = n.get(W + 'numId')
            self.num[nid] = _val(n, W + 'abstractNumId')
            for o in n.iter(W + 'lvlOverride'):
                so = _val(o, W + 'startOverride')
                if so is not None:
                    self.override.setdefault(nid, {})[int(o.get(W + 'ilvl'))] = int(so)

    def level_for_style(self, num_id, style_id):
        for i, l in self.abs.get(self.num.get(num_id), {}).items():
            if l['pStyle'] == style_id:
                return i
        return 0

    def count(self, num_id, ilvl):
        """Advance the counters of ``num_id`` at ``ilvl``; return the printed label (or None)."""
        aid = self.num.get(num_id)
        lv = self.abs.get(aid)
        if not lv or ilvl not in lv:
            return None
        c = self.counters.setdefault(aid, {})
        if num_id not in self.used:
            self.used.add(num_id)
            for i, s in self.override.get(num_id, {}).items():
                c[i] = s - 1
        c[ilvl] = c.get(ilvl, lv[ilvl]['start'] - 1) + 1
        for deeper in [k for k in c if k > ilvl]:
            del c[deeper]
        if lv[ilvl]['fmt'] in ('bullet', 'none'):
            return None
        lgl = lv[ilvl]['isLgl']

        def repl(m):
            k = int(m.group(1)) - 1
            if k not in lv:
                return ''
            return fmt(c.get(k, lv[k]['start']), 'decimal' if lgl and lv[k]['fmt'] != 'decimalZero' else lv[k]['fmt'])
        return re.sub(r'%([1-9])', repl, lv[ilvl]['text'])


def extract(path):
    """Return (sections, xrefs, document_title) read from the DOCX at ``path``."""
    z = zipfile.ZipFile(path)
    doc = etree.fromstring(z.read('word/document.xml'))
    styles = etree.fromstring(z.read('word/styles.xml')) if 'word/styles.xml' in z.namelist() else None
    numbering = Numbering(etree.fromstring(z.read('word/numbering.xml')) if 'word/numbering.xml' in z.namelist() else None)
    st = {}
    for s in (styles.iter(W + 'style') if styles is not None else []):
        ppr = s.find(W + 'pPr')
        st[s.get(W + 'styleId')] = {
            'name': (_val(s, W + 'name') or '').lower(), 'based': _val(s, W + 'basedOn'),
            'outline': _val(ppr, W + 'outlineLvl'), 'numId': _val(ppr, W + 'numPr/' + W + 'numId'),
            'ilvl': _val(ppr, W + 'numPr/' + W + 'ilvl')}

    def chain(sid):
        seen = []
        while sid in st and sid not in seen:
            seen.append(sid)
            sid = st[sid]['based']
        return seen

    def style_outline(sid):
        for s in chain(sid):
            if st[s]['outline'] is not None:
                return int(st[s]['outline'])
            m = re.match(r'^heading ([1-9])$', st[s]['name'])
            if m:
                return int(m.group(1)) - 1
        return None

    tree, title, marks, heads = Tree(), None, {}, []
    body = doc.find(W + 'body')
    for p in body.iter(W + 'p'):
        ppr = p.find(W + 'pPr')
        sid = _val(ppr, W + 'pStyle')
        text = _text(p)
        num_id, ilvl = _val(ppr, W + 'numPr/' + W + 'numId'), _val(ppr, W + 'numPr/' + W + 'ilvl')
        if num_id is None:
            for s in chain(sid):
                if st[s]['numId'] is not None:
                    num_id = st[s]['numId']
                    ilvl = ilvl if ilvl is not None else st[s]['ilvl']
                    if ilvl is None:
                        ilvl = numbering.level_for_style(num_id, s)
                    break
        label = numbering.count(num_id, int(ilvl or 0)) if num_id not in (None, '0') else None
        names = [st[s]['name'] for s in chain(sid)]
        if names and names[0] == 'title':
            title = title or text
            continue
        ol = _val(ppr, W + 'outlineLvl')
        ol = int(ol) if ol is not None else style_outline(sid)
        if ol is None or ol > 8 or not text:
            continue
        if label:
            number, src, t = strip_trailing(label), 'numbering.xml', text
        else:
            number, t = split_number(text)
            src = 'typed' if number else None
        idx = tree.add(number, t, ol + 1, style=names[0] if names else sid, number_source=src)
        for b in p.iter(W + 'bookmarkStart'):
            marks[b.get(W + 'name')] = idx
    xrefs = []
    for e in body.iter(W + 'instrText', W + 'hyperlink', W + 'fldSimple'):
        if e.tag == W + 'hyperlink':
            target, kind = e.get(W + 'anchor'), 'w:hyperlink@anchor'
            text = _text(e)
        else:
            instr = e.text if e.tag == W + 'instrText' else e.get(W + 'instr')
            m = re.match(r'\s*(REF|PAGEREF|HYPERLINK\s+\\l)\s+"?([^\s"\\]+)', instr or '')
            if not m:
                continue
            target, kind, text = m.group(2), m.group(1).split()[0], None
        if not target or target.startswith('_Toc') or target not in marks:
            continue
        s = tree.sections[marks[target]]
        xrefs.append({'text': text, 'target_number': s['number'], 'target': target,
                      'target_title': s['title'], 'markup': kind, 'internal': True})
    return tree.sections, xrefs, title


def run(path, truth_path, source):
    sections, xrefs, title = extract(path)
    return write_truth(truth_path, source, __doc__.strip(), sections, [], xrefs, document_title=title)
