"""Truth from an xml2rfc v2 source (RFC 7749 vocabulary) of the same RFC.

Sections: 'Abstract' (unnumbered, from <abstract>); every <section> of <middle>
numbered by position as xml2rfc v2 prints them (1, 1.1, 1.1.1 ...); then the
<references> of <back>: one <references> gets the next top number, several get
a synthesised 'N. References' parent with N.1, N.2 ... children; then the
<section>s of <back> as appendices 'Appendix A', A.1 ...; title = @title;
level = nesting depth; anchor = @anchor.  The unnumbered boilerplate xml2rfc
adds (Status of This Memo, Copyright Notice, Table of Contents, Authors'
Addresses) is not in the truth.
Definitions: none (v2 <list style="hanging"> is not a definition marker).
Xrefs: every <xref target> whose target is a section anchor; target_number =
that section's computed number; text = the <xref> element text (often empty:
xml2rfc prints 'Section N').
"""
import string

from lxml import etree

from common import Tree, norm, write_truth


def extract(path):
    """Return (sections, xrefs) computed from the v2 XML at ``path``."""
    root = etree.parse(path).getroot()
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
        for i, s in enumerate(back.findall('section')):
            letter = string.ascii_uppercase[i]
            idx = tree.add('Appendix ' + letter, norm(s.get('title')), 1, element='section', anchor=s.get('anchor'))
            if s.get('anchor'):
                anchors[s.get('anchor')] = idx
            walk(s, letter + '.', 2)
    xrefs = []
    for x in root.iter('xref'):
        idx = anchors.get(x.get('target'))
        if idx is not None:
            xrefs.append({'text': norm(''.join(x.itertext())) or None, 'target_number': tree.sections[idx]['number'],
                          'target': x.get('target'), 'internal': True})
    return tree.sections, xrefs


def run(path, truth_path, source):
    sections, xrefs = extract(path)
    return write_truth(truth_path, source, __doc__.strip(), sections, [], xrefs,
                       xrefs_internal_total=len(xrefs))
