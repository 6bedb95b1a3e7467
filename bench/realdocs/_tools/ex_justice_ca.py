"""Truth from Justice Canada consolidated legislation XML (laws-lois.justice.gc.ca; root <Statute> or
<Regulation>, namespace http://justice.gc.ca/lims), the file itself.

Sections, in document order, from <Body>, each <Schedule> and <RelatedOrNotInForce> (outside
<AmendedText>, <QuotedText>, <FormGroup>, <BillPiece>, <Identification>, <RecentAmendments>):
* <Heading level="N"> (and <GroupHeading>, level from format-ref "groupN-…", else 1): number = its
  <Label> ("PART 1", "DIVISION 1.1") or null, title = <TitleText>; level = N + the depth of the
  enclosing schedule (a schedule is level 1, its headings one deeper);
  a heading governs the siblings after it up to the next heading of the same or a higher level;
* <Section>: number = <Label> ("4.1", "52 to 57"), title = <MarginalNote> or null (text_start then);
  level = the level of the heading in force + 1 (1 before any heading);
* <Subsection>, <Paragraph>, <Subparagraph>, <Clause>, <Subclause>, <Subsubclause> with a <Label>:
  number = the label as printed ("(1)", "(c.1)", "(i)"), title = <MarginalNote> or null; level =
  parent + 1;
* <Schedule>: number = the <Label> of its <ScheduleFormHeading> ("SCHEDULE 1") or null, title = its
  <TitleText> or null, level 1.
Definitions: every <DefinedTermEn> inside a <Definition> (term = its text; first_words = the
definition's text).  Xrefs: every <XRefInternal> (text = its words; target = the section of the
same document whose number is those words, when there is one; internal true).
"""
import re

from lxml import etree

from common import Tree, first_words, norm, write_truth

ITEMS = ('Subsection', 'Paragraph', 'Subparagraph', 'Clause', 'Subclause', 'Subsubclause')
QUOTED = {'AmendedText', 'QuotedText', 'FormGroup', 'BillPiece', 'Identification', 'RecentAmendments'}


def _child(e, name):
    return next((c for c in e if c.tag == name), None)


def _text(e):
    return norm(''.join(e.itertext())) if e is not None else None


def _level(h):
    v = h.get('level') or ''
    if v.isdigit():
        return int(v)
    m = re.search(r'group(\d)', h.get('format-ref') or '')
    return int(m.group(1)) if m else 1


def extract(path):
    root = etree.parse(path).getroot()
    tree, defs, refs = Tree(), [], []

    def provision(e, level):
        label = _text(_child(e, 'Label'))
        note = _text(_child(e, 'MarginalNote'))
        text = _text(_child(e, 'Text'))
        tree.add(label, note, level, element=e.tag, text_start=None if note else first_words(text or '', 8))
        for c in e:
            if c.tag in ITEMS and _child(c, 'Label') is not None:
                provision(c, level + 1)
            elif c.tag not in QUOTED:
                scan(c)

    def scan(e):  # definitions and xrefs below a provision, outside quoted text
        for x in e.iter():
            if not isinstance(x.tag, str) or any(a.tag in QUOTED for a in x.iterancestors()):
                continue
            if x.tag == 'DefinedTermEn' and any(a.tag == 'Definition' for a in x.iterancestors()):
                d = next(a for a in x.iterancestors() if a.tag == 'Definition')
                defs.append({'term': _text(x), 'first_words': first_words(_text(d), 12)})
            elif x.tag == 'XRefInternal':
                refs.append({'text': _text(x), 'target_number': _text(x), 'target': None, 'internal': True})

    def block(parent, base):
        """Walk a flat sequence: headings open levels, sections sit one below the heading in force."""
        current = base
        for c in parent:
            if not isinstance(c.tag, str) or c.tag in QUOTED:
                continue
            if c.tag in ('Heading', 'GroupHeading'):
                current = base + _level(c)
                tree.add(_text(_child(c, 'Label')), _text(_child(c, 'TitleText')), current, element=c.tag)
            elif c.tag == 'Section':
                provision(c, current + 1)
            elif c.tag == 'Schedule':
                head = _child(c, 'ScheduleFormHeading')
                tree.add(_text(_child(head, 'Label')) if head is not None else None,
                         _text(_child(head, 'TitleText')) if head is not None else None, 1, element='Schedule')
                block(c, 1)
                current = base
            elif c.tag == 'RelatedOrNotInForce':
                block(c, base)
            elif len(c):
                block(c, current) if any(x.tag in ('Heading', 'GroupHeading', 'Section') for x in c) else scan(c)

    for c in root:
        if c.tag == 'Body':
            block(c, 0)
        elif c.tag in ('Schedule', 'RelatedOrNotInForce'):
            block_of_root = etree.Element('Root')
            block_of_root.append(c)  # moves c: the walk below is the last use of the tree
            block(block_of_root, 0)
    numbers = {s['number'] for s in tree.sections if s['number']}
    for r in refs:
        if r['text'] in numbers:
            r['target'] = r['text']
    return tree.sections, defs, refs


def run(path, out, source):
    sections, defs, refs = extract(path)
    root = etree.parse(path).getroot()
    ident = _child(root, 'Identification')
    title = _text(_child(ident, 'ShortTitle')) or _text(_child(ident, 'LongTitle')) if ident is not None else None
    return write_truth(out, source, __doc__.strip(), sections, defs, [r for r in refs if r['target']],
                       xrefs_total=len(refs), document_title=title)
