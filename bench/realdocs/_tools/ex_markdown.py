"""Truth from Markdown source as written (CommonMark / Python-Markdown syntax).

Sections: ATX headings ('#'..'######' + space, closing '#'s removed) and Setext
headings (a paragraph line followed by '===' -> level 1 or '---' -> level 2)
outside fenced code blocks (``` / ~~~ at any indentation, closed by a fence of
the same character at least as long), outside indented code (4+ spaces after a
blank line) and outside HTML comments and YAML front matter; level = number of
'#'; title = heading text with inline markup kept; id = the slug MkDocs'
default toc extension gives (lower-case, non-word characters dropped, spaces
and hyphen runs -> '-'); line = 1-based line number.
Definitions: none.
Xrefs: inline links [text](target) outside code whose target is relative
(no scheme, not starting with '/'; link text may hold one nested [..](..)):
internal when it is '#frag' (target_title = the heading of this file whose id is
frag under the Python-Markdown, else GitHub, else pandoc slug scheme; when none
matches target_title is null and dangling is true: the source's link is broken), otherwise target = the relative path
(+ '#frag'), internal false; images are not links.
"""
import re

from common import Tree, norm, write_truth

ATX = re.compile(r'^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$')
FENCE = re.compile(r'^\s*(`{3,}|~{3,})')
LINK = re.compile(r'(?<!!)\[((?:[^\[\]\n]|\[[^\[\]\n]*\](?:\([^)\s]*\))?)+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)')


def _plain(text):
    return re.sub(r'`|\*|(?<!\w)_|_(?!\w)|\[|\]\([^)]*\)|<[^>]+>', '', text)


def slug(text):
    """Python-Markdown toc slugify: drop markup characters, lower-case, spaces -> '-'."""
    t = re.sub(r'[^\w\s-]', '', _plain(text)).strip().lower()
    return re.sub(r'[-\s]+', '-', t)


def slugs(text):
    """Anchor ids a heading gets under the three common schemes, in this order:
    Python-Markdown (MkDocs), GitHub (lower-case, punctuation dropped, each space -> '-'),
    pandoc auto_identifiers (as GitHub, then everything before the first letter dropped)."""
    gh = re.sub(r'[^\w\- ]', '', _plain(text).strip().lower()).replace(' ', '-')
    pandoc = re.sub(r'^[^a-z]+', '', re.sub(r'[^\w\-. ]', '', _plain(text).strip().lower()).replace(' ', '-'))
    return [slug(text), gh, pandoc]


def anchor_map(sections):
    """{anchor: section} under the three slug schemes; a repeated slug gets '-1', '-2' ... in
    document order (as all three do); earlier schemes win on clashes."""
    ids = {}
    for scheme in range(3):
        seen = {}
        for s in sections:
            a = slugs(s['title'])[scheme]
            n = seen.get(a, 0)
            seen[a] = n + 1
            ids.setdefault(a if n == 0 else '%s-%d' % (a, n), s)
    return ids


def extract(path):
    """Return (sections, xrefs) of the Markdown file at ``path``."""
    lines = open(path, encoding='utf-8').read().split('\n')
    tree, body = Tree(), []
    fence, comment, prev_blank, prev = None, False, True, None
    start = 0
    if lines and lines[0].strip() == '---':
        for j in range(1, len(lines)):
            if lines[j].strip() in ('---', '...'):
                start = j + 1
                break
    for i in range(start, len(lines)):
        line = lines[i]
        if fence:
            if re.match(r'^\s*' + re.escape(fence[0]) + '{%d,}\\s*$' % len(fence), line):
                fence = None
            prev, prev_blank = None, False
            continue
        if comment:
            comment = '-->' not in line
            continue
        m = FENCE.match(line)
        if m:
            fence, prev = m.group(1), None
            continue
        if line.lstrip().startswith('<!--') and '-->' not in line:
            comment = True
            continue
        if prev_blank and re.match(r'^( {4}|\t)', line) and line.strip():
            continue                                 # indented code block
        m = ATX.match(line)
        if m:
            t = norm(m.group(2) or '')
            if t:
                tree.add(None, t, len(m.group(1)), id=slug(t), line=i + 1)
            prev, prev_blank = None, False
            continue
        if prev is not None and re.match(r'^ {0,3}(=+|-+)\s*$', line) and not re.match(r'^\s*([-*+]|\d+\.)\s', prev):
            t = norm(prev)
            tree.add(None, t, 1 if line.strip()[0] == '=' else 2, id=slug(t), line=i)
            body.pop() if body else None
            prev, prev_blank = None, False
            continue
        body.append(line)
        prev = line if line.strip() and not prev_blank or (line.strip() and prev_blank) else None
        prev_blank = not line.strip()
    ids = anchor_map(tree.sections)
    xrefs = []
    for line in body:
        for m in LINK.finditer(re.sub(r'`[^`]*`', '', line)):
            text, target = m.group(1), m.group(2)
            if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I) or target.startswith('/'):
                continue
            if target.startswith('#'):
                s = ids.get(target[1:])
                x = {'text': norm(text), 'target_number': None, 'target': target,
                     'target_title': s['title'] if s else None, 'internal': True}
                if s is None:
                    x['dangling'] = True
                xrefs.append(x)
            else:
                xrefs.append({'text': norm(text), 'target_number': None, 'target': target, 'internal': False})
    return tree.sections, xrefs


def run(path, truth_path, source):
    sections, xrefs = extract(path)
    return write_truth(truth_path, source, __doc__.strip(), sections, [], xrefs)
