"""Truth from USLM XML (US bills and US Code, schemas.gpo.gov/xml/uslm), the file itself.

Sections: every hierarchical element (division, title, subtitle, chapter,
subchapter, part, subpart, section, subsection, paragraph, subparagraph, clause,
subclause, item, subitem, subsubitem; USLM namespace only, so dc:title is
not one) outside <quotedContent>, <quotedText>,
<notes>/<note>, <toc> and <meta>; level = nesting depth among those elements;
number = <num> text as printed, trailing punctuation stripped ('Sec. 3.' ->
'Sec. 3', '(a)' stays '(a)'), without footnote markers (<ref class="footnoteRef">:
'Sec. (2)<ref>1</ref>' -> 'Sec. (2)'); value = <num @value>; title = <heading> text
(null for unheaded provisions, then text_start holds the first words).
Definitions: every <term> element outside quoted content; first_words = the text
of the provision holding the term (its <chapeau>/<content>), in_section = the
number of the nearest enclosing section element.
Xrefs: every innermost <ref href> (a ref wrapping a ref counts once) outside quoted content and notes; internal when href
points into this document's own identifier; target_number = <num> of the
element whose @identifier equals href (internal only).
"""
from lxml import etree

from common import Tree, first_words, norm, strip_trailing, write_truth

LEVELS = ['division', 'subdivision', 'title', 'subtitle', 'chapter', 'subchapter', 'part', 'subpart',
          'section', 'subsection', 'paragraph', 'subparagraph', 'clause', 'subclause', 'item',
          'subitem', 'subsubitem']
USLM_NS = 'http://schemas.gpo.gov/xml/uslm'
SKIP = {'quotedContent', 'quotedText', 'notes', 'note', 'toc', 'meta', 'sourceCredit'}


def _ln(e):
    return etree.QName(e).localname if isinstance(e.tag, str) else None


def _child(e, name):
    for c in e:
        if _ln(c) == name:
            return c
    return None


def _text(e):
    return norm(''.join(e.itertext())) if e is not None else None


def _heading_text(e):
    """Text of a <heading> without the margin notes printed beside it (<sidenote>: PL 113-67 prints
    "Short Title" with "2 USC 900 note." in the margin)."""
    def raw(x):
        out = [x.text or '']
        for c in x:
            if _ln(c) != 'sidenote':
                out.append(raw(c))
            out.append(c.tail or '')
        return ''.join(out)

    return norm(raw(e)) if e is not None else None


def _num_text(e):
    """Text of a <num> without its footnote markers."""
    out = [e.text or '']
    for c in e:
        if not ('footnote' in (c.get('class') or '').lower() and _ln(c) == 'ref'):
            out.append(''.join(c.itertext()))
        out.append(c.tail or '')
    return norm(''.join(out))


def extract(path, ns=USLM_NS, doc_id=None):
    """Return (sections, definitions, xrefs) read from the USLM file at ``path``; ``ns`` is the USLM
    namespace of the hierarchy elements, ``doc_id`` the document's own identifier prefix (default:
    the first identified element's identifier without its last step)."""
    root = etree.parse(path).getroot()
    tree, defs, refs = Tree(), [], []
    ident = {}
    for e in root.iter():
        if _ln(e) in LEVELS and e.get('identifier'):
            ident[e.get('identifier')] = e
            if doc_id is None:
                doc_id = e.get('identifier').rsplit('/', 1)[0]

    def walk(e, depth, sec_num):
        for c in e:
            name = _ln(c)
            if name is None or name in SKIP:
                continue
            if name in LEVELS and etree.QName(c).namespace == ns:
                num_el = _child(c, 'num')
                head = _child(c, 'heading')
                number = strip_trailing(_num_text(num_el)) if num_el is not None else None
                title = strip_trailing(_heading_text(head)) if head is not None else None
                body = ' '.join(_text(x) or '' for x in c if _ln(x) in ('chapeau', 'content'))
                tree.add(number, title, depth + 1, element=name,
                         value=num_el.get('value') if num_el is not None else None,
                         identifier=c.get('identifier'),
                         text_start=None if title else (first_words(body, 10) or None))
                walk(c, depth + 1, number if name == 'section' else sec_num)
                continue
            if name == 'term':
                holder = c.getparent()
                while holder is not None and _ln(holder) not in ('chapeau', 'content', 'p') and _ln(holder) not in LEVELS:
                    holder = holder.getparent()
                defs.append({'term': _text(c), 'first_words': first_words(_text(holder)), 'in_section': sec_num})
            elif name == 'ref' and c.get('href') and not any(_ln(x) == 'ref' for x in c.iter() if x is not c):
                href = c.get('href')
                internal = bool(doc_id) and href.startswith(doc_id + '/')
                tgt = ident.get(href) if internal else None
                tnum = strip_trailing(_text(_child(tgt, 'num'))) if tgt is not None else None
                refs.append({'text': _text(c), 'target_number': tnum, 'target': href, 'internal': internal})
            walk(c, depth, sec_num)

    walk(root, 0, None)
    return tree.sections, defs, refs


def run(path, truth_path, source):
    sections, defs, refs = extract(path)
    return write_truth(truth_path, source, __doc__.strip(), sections, defs, refs,
                       xrefs_internal_total=sum(r['internal'] for r in refs))
