"""Truth from ReSpec source HTML (W3C specification sources), the file itself.

ReSpec numbers sections when the page is rendered in a browser, so the source
carries no numbers: number is null for every section.
Sections: every <section> element that has a heading (<h1>..<h6>) as its first
element child, in document order; level = depth of <section> nesting (top = 1);
title = heading text; id = the section's @id (or the heading's, else the
id ReSpec derives from the title: lower-cased, non-word runs -> '-').  The abstract
and status sections (id 'abstract', 'sotd') are included; sections ReSpec
generates itself (table of contents, references, index) are not in the source
and not in the truth.
Definitions: every <dfn> element; term = its visible text (aliases = the
other names in @data-lt); first_words = the text of its enclosing block (<p>, <dd>/<dt>, <li>,
<td>), id = @id.
Xrefs: every <a href="#id"> whose id is a section id; target_title = that
section's title; then every ReSpec auto-link '[[[#id]]]' (rendered by ReSpec as
'§ N Title') whose id is a section id (markup 'respec [[[#id]]]').
Definitions in files pulled in with data-include (did-core terms.html) are not
part of the input and not in the truth.
"""
import re

from bs4 import BeautifulSoup

from common import Tree, first_words, norm, write_truth

HEAD = re.compile(r'^h[1-6]$')


def _slug(title):
    """The id ReSpec gives an id-less section: title lower-cased, non-word runs -> '-'."""
    return re.sub(r'[^\w]+', '-', (title or '').lower()).strip('-')


def extract(path):
    """Return (sections, definitions, xrefs) read from the ReSpec source at ``path``."""
    soup = BeautifulSoup(open(path, encoding='utf-8').read(), 'lxml')
    tree, ids = Tree(), {}
    for sec in soup.find_all('section'):
        head = next((c for c in sec.children if getattr(c, 'name', None)), None)
        if head is None or not HEAD.match(head.name):
            continue
        level = 1 + len([p for p in sec.parents if p.name == 'section'])
        title = norm(head.get_text(' '))
        sid = sec.get('id') or head.get('id')
        idx = tree.add(None, title, level, id=sid or _slug(title), id_from=None if sid else 'ReSpec slug of the title')
        sid = sid or _slug(title)
        if sid:
            ids[sid] = idx
    defs = []
    for d in soup.find_all('dfn'):
        lt = d.get('data-lt')
        term = norm(d.get_text(' ')) or (norm(lt.split('|')[0]) if lt else None)
        aliases = [norm(x) for x in lt.split('|') if norm(x) and norm(x) != term] if lt else []
        block = d.find_parent(['p', 'dd', 'dt', 'li', 'td', 'div'])
        defs.append({'term': term, 'first_words': first_words(block.get_text(' ') if block else d.get_text(' ')),
                     'id': d.get('id'), 'aliases': aliases or None})
    xrefs = []
    for a in soup.find_all('a', href=True):
        h = a['href']
        if h.startswith('#') and h[1:] in ids:
            s = tree.sections[ids[h[1:]]]
            xrefs.append({'text': norm(a.get_text(' ')) or None, 'target_number': None, 'target': h[1:],
                          'target_title': s['title'], 'internal': True})
    for m in re.finditer(r'\[\[\[#([\w.-]+)\]\]\]', soup.body.get_text() if soup.body else ''):
        if m.group(1) in ids:
            s = tree.sections[ids[m.group(1)]]
            xrefs.append({'text': m.group(0), 'target_number': None, 'target': m.group(1),
                          'target_title': s['title'], 'internal': True, 'markup': 'respec [[[#id]]]'})
    return tree.sections, defs, xrefs


def run(path, truth_path, source):
    sections, defs, xrefs = extract(path)
    return write_truth(truth_path, source, __doc__.strip(), sections, defs, xrefs)
