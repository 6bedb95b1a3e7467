"""Truth from an xml2rfc v2 source (RFC 7749 vocabulary) of the same RFC.

The rfc2629.dtd character entities (&nbsp; &nbhy; &wj; ...) are replaced by
their characters before parsing (the DTD is not shipped with the sources).
Sections: 'Abstract' (unnumbered, from <abstract>); every <section> of <middle>
numbered by position as xml2rfc v2 prints them (1, 1.1, 1.1.1 ...); then the
<references> of <back>: one <references> gets the next top number, several get
a synthesised 'N. References' parent with N.1, N.2 ... children; then the
<section>s of <back> as appendices 'Appendix A', A.1 ... (a back section with numbered="no" is
unnumbered: number null, no letter used); title = @title;
level = nesting depth; anchor = @anchor.  The unnumbered boilerplate xml2rfc
adds (Status of This Memo, Copyright Notice, Table of Contents, Authors'
Addresses) is not in the truth.
Definitions: none (v2 <list style="hanging"> is not a definition marker).
Xrefs: every <xref target> whose target is a section anchor; target_number =
that section's computed number; text = the <xref> element text (often empty:
xml2rfc prints 'Section N'); an <xref format="none"> prints only its element text, with no
reference words or number (it is a bare hyperlink in HTML, invisible as a reference in the text
output), so its text is null and it carries format "none".
"""
import re
import string

from lxml import etree

from common import Tree, norm, write_truth

ENTITIES = {'nbsp': '\u00a0', 'nbhy': '\u2011', 'wj': '\u2060', 'zwsp': '\u200b', 'mdash': '\u2014',
            'ndash': '\u2013', 'rsquo': '\u2019', 'lsquo': '\u2018', 'ldquo': '\u201c', 'rdquo': '\u201d',
            'hellip': '\u2026', 'copy': '\u00a9', 'reg': '\u00ae', 'trade': '\u2122'}


def extract(path):
    """Return (sections, xrefs) computed from the v2 XML at ``path``."""
    raw = open(path, encoding='utf-8', errors='replace').read()
    for name, char in ENTITIES.items():          # rfc2629.dtd entities, the DTD is not shipped
        raw = raw.replace('&%s;' % name, char)
    raw = re.sub(r'<!DOCTYPE[^\[>]*(\[[^\]]*\])?\s*>', '', raw, count=1)
    raw = re.sub(r'^\s*<\?xml[^>]*\?>', '', raw)     # its encoding= no longer applies to the str
    root = etree.fromstring(raw, etree.XMLParser(resolve_entities=False, huge_tree=True))
    tree, anchors = Tree(), {}
    abstract = root.find('front/abstract')
    if abstract is not None:
        tree.add(None, 'Abstract', 1, element='abstract')

    def walk(el, prefix, level):
        n = 0
        for s in el.findall('section'):
            n += 1
            num = prefix + str(n) if level > 1 or not prefix else prefix + str(n)
            idx = tree.add(num, norm(s.get('title')), level, element='section', anchor=s.get('anchor'))
            if s.get('anchor'):
                anchors[s.get('anchor')] = idx
            walk(s, num + '.', level + 1)
        return n

    middle = root.find('middle')
    top = walk(middle, '', 1) if middle is not None else 0
    back = root.find('back')
    if back is not None:
        refs = back.findall('references')
        if len(refs) == 1:
            top += 1
            tree.add(str(top), norm(refs[0].get('title')) or 'References', 1, element='references',
                     anchor=refs[0].get('anchor'))
        elif refs:
            top += 1
            tree.add(str(top), 'References', 1, element='references (synthesised parent)')
            for i, r in enumerate(refs, 1):
                tree.add('%d.%d' % (top, i), norm(r.get('title')), 2, element='references', anchor=r.get('anchor'))
        i = 0
        for s in back.findall('section'):
            if s.get('numbered') == 'no':
                idx = tree.add(None, norm(s.get('title')), 1, element='section', anchor=s.get('anchor'))
            else:
                letter = string.ascii_uppercase[i]
                i += 1
                idx = tree.add('Appendix ' + letter, norm(s.get('title')), 1, element='section', anchor=s.get('anchor'))
            if s.get('anchor'):
                anchors[s.get('anchor')] = idx
            if s.get('numbered') != 'no':
                walk(s, letter + '.', 2)
    xrefs = []
    for x in root.iter('xref'):
        idx = anchors.get(x.get('target'))
        if idx is not None:
            bare = x.get('format') == 'none'
            rec = {'text': None if bare else (norm(''.join(x.itertext())) or None),
                   'target_number': tree.sections[idx]['number'], 'target': x.get('target'), 'internal': True}
            if bare:
                rec['format'] = 'none'
            xrefs.append(rec)
    return tree.sections, xrefs


def run(path, truth_path, source):
    sections, xrefs = extract(path)
    return write_truth(truth_path, source, __doc__.strip(), sections, [], xrefs,
                       xrefs_internal_total=len(xrefs))
