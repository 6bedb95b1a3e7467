"""Truth from USLM 1.0 XML (US Code titles as the Office of the Law Revision Counsel published them
in 2013, namespace http://xml.house.gov/schemas/uslm/1.0), the file itself.

The rules of ex_uslm (USLM 2.x) with two differences: the hierarchy elements are those of the
USLM 1.0 namespace, and a reference is internal only when its href lies inside this title
(starts with the <uscDoc identifier>, e.g. '/us/usc/t9/'); references to other titles are external.
Sections: every hierarchical element (title, subtitle, chapter, subchapter, part, subpart, section,
subsection, paragraph, subparagraph, clause, subclause, item, subitem, subsubitem) outside
<quotedContent>, <notes>/<note> (editorial notes, amendments, codification), <toc>, <sourceCredit>
and <meta>; level = nesting depth among those elements; number = <num> text as printed, trailing
punctuation stripped ('§ 1.' -> '§ 1', 'CHAPTER 1—' -> 'CHAPTER 1'); value = <num @value>;
title = <heading> text (null for unheaded provisions, then text_start holds the first words).
Definitions: every <term> element outside quoted content and notes.
Xrefs: every innermost <ref href> outside quoted content and notes; target_number = <num> of the
element whose @identifier equals href (internal only).
"""
from lxml import etree

from common import write_truth
from ex_uslm import extract

USLM1_NS = 'http://xml.house.gov/schemas/uslm/1.0'


def run(path, truth_path, source):
    root = etree.parse(path).getroot()
    sections, defs, refs = extract(path, ns=USLM1_NS, doc_id=root.get('identifier'))
    return write_truth(truth_path, source, __doc__.strip(), sections, defs, refs,
                       xrefs_internal_total=sum(r['internal'] for r in refs))
