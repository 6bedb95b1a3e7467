"""Truth from Akoma Ntoso / AKN4EU XML (OASIS LegalDocML), the file itself.

Sections: every hierarchical element (book, part, title, chapter, section,
subsection, article, paragraph, subparagraph, point, indent, alinea with a
<num>) inside the <body>, outside <quotedStructure>/<mod>/<toc>; level =
nesting depth among them; number = <num> text with trailing punctuation
stripped ('1.' -> '1', 'Article 4 bis' kept); title = <heading> (null when
unheaded; text_start then holds the first words).  Alineas without <num> are
body text, not sections; the preamble (recitals) is not in the truth.
Definitions: only where the markup marks them: <def>/<term> elements, and the
points of an article whose <heading> is 'Definitions' (or whose first element
says 'For the purposes of this ...') whose text starts with a term in
‘single quotes’ followed by 'means'/'includes' (term = the quoted words).
Xrefs: every <ref>/<mref> with @href inside the body; internal when href
names a file-local id ('#id', or the LEOS form 'FILE.xml/~id') and the target element (matched on
@eId, @GUID, @xml:id or @wId) is one of the sections; target_number = its number.
"""
import re

from lxml import etree

from common import Tree, first_words, norm, strip_trailing, write_truth

LEVELS = {'book', 'part', 'title', 'chapter', 'section', 'subsection', 'article', 'paragraph',
          'subparagraph', 'point', 'indent', 'alinea', 'rule', 'subrule', 'division', 'subdivision'}
SKIP = {'quotedStructure', 'mod', 'toc', 'authorialNote', 'meta', 'preface', 'preamble'}
DEF_RE = re.compile(r"^\s*[‘'\"“]([^’'\"”]{1,120})[’'\"”]\s*(?:,[^,]*,\s*)?(means|includes|shall mean|refers to)\b")
XML_ID = '{http://www.w3.org/XML/1998/namespace}id'


def _ln(e):
    return etree.QName(e).localname if isinstance(e.tag, str) else None


def _child(e, name):
    for c in e:
        if _ln(c) == name:
            return c
    return None


def _text(e):
    return norm(''.join(e.itertext())) if e is not None else None


def _ids(e):
    return [v for v in (e.get('eId'), e.get('GUID'), e.get(XML_ID), e.get('wId')) if v]


def extract(path):
    """Return (sections, definitions, xrefs) read from the Akoma Ntoso file at ``path``."""
    root = etree.parse(path).getroot()
    body = next((e for e in root.iter() if _ln(e) == 'body'), root)
    tree, defs, refs = Tree(), [], []
    by_id = {}

    def is_def_article(art):
        head = _text(_child(art, 'heading')) or ''
        if re.search(r'\bdefinitions?\b', head, re.I):
            return True
        first = _text(next((c for c in art if _ln(c) not in ('num', 'heading')), None)) or ''
        return bool(re.match(r'For the purposes of th(is|e)\b', first))

    def walk(e, depth, def_art):
        for c in e:
            name = _ln(c)
            if name is None or name in SKIP:
                continue
            if name in LEVELS and (name != 'alinea' or _child(c, 'num') is not None):
                number = strip_trailing(_text(_child(c, 'num')))
                head = _child(c, 'heading')
                title = _text(head)
                if number is None and title is None and name in ('paragraph', 'subparagraph'):
                    walk(c, depth, def_art)       # unnumbered, unheaded wrapper: body text
                    continue
                body_text = ' '.join(_text(x) or '' for x in c if _ln(x) not in ('num', 'heading'))
                idx = tree.add(number, title, depth + 1, element=name, eId=c.get('eId'),
                               text_start=None if title else (first_words(body_text, 10) or None))
                for i in _ids(c):
                    by_id[i] = idx
                if def_art is not None and name == 'point':
                    m = DEF_RE.match(body_text)
                    if m:
                        defs.append({'term': norm(m.group(1)), 'first_words': first_words(body_text),
                                     'in_section': tree.sections[def_art]['number'], 'marked_by': 'definitions article + quoted term'})
                walk(c, depth + 1, idx if name == 'article' and is_def_article(c) else def_art)
                continue
            if name in ('def', 'term'):
                defs.append({'term': _text(c), 'first_words': first_words(_text(c.getparent())), 'marked_by': '<%s>' % name})
            elif name in ('ref', 'mref') and c.get('href'):
                refs.append({'text': _text(c), 'href': c.get('href')})
            walk(c, depth, def_art)

    walk(body, 0, None)
    xrefs = []
    for r in refs:
        href = r.pop('href')
        local = href[1:] if href.startswith('#') else (href.split('/~', 1)[1] if re.match(r'^[^/]+\.xml/~', href) else None)
        idx = by_id.get(local) if local else None
        xrefs.append({'text': r['text'], 'target_number': tree.sections[idx]['number'] if idx is not None else None,
                      'target': href, 'internal': idx is not None})
    return tree.sections, defs, xrefs


def run(path, truth_path, source):
    sections, defs, refs = extract(path)
    return write_truth(truth_path, source, __doc__.strip(), sections, defs, refs,
                       xrefs_internal_total=sum(r['internal'] for r in refs))
