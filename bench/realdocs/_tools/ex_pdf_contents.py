"""Truth from a PDF's own printed table of contents (for a PDF without an outline), read with
pdfminer.six.

Sections: every contents entry in order — a text line with dot leaders and a page number
("4.2.1<TAB> Permitted Authenticator Types ....... 7") on the contents pages (the pages from the
first one with three or more such lines, up to a "List of Tables" / "List of Figures" heading or
the first page without such lines); title = the entry without leaders and page number, a leading
label split off (common.split_number: '4.2.1 Permitted …' -> number '4.2.1', 'Appendix A— Strength
of …' -> number 'Appendix A'); page = the printed page label.  Level = the depth of a dotted
number ('4.2.1' -> 3, 'A.4' -> 2, 'Appendix A' -> 1); an unnumbered entry is one level below the
last numbered entry set further left (its own number may be missing from the text layer, as the
level-2 numbers of NIST SP 800-63B are), else level 1.
Definitions: none (a PDF marks no terms).  Xrefs: none (the contents entries are no links).
"""
import re

from pdfminer.high_level import extract_pages
from pdfminer.layout import LTChar, LTTextContainer, LTTextLine

from common import Tree, norm, split_number, write_truth

_ENTRY = re.compile(r'^(?P<text>.*?)\s*(?:\.\s?){4,}\s*(?P<page>[0-9ivxlc]+)\s*$', re.I)
_LISTS = re.compile(r'^list of (tables|figures|illustrations|exhibits)\b', re.I)


def _lines(layout):
    for element in layout:
        if isinstance(element, LTTextContainer):
            for line in element:
                if isinstance(line, LTTextLine) and all(ch.upright for ch in line if isinstance(ch, LTChar)):
                    yield line  # not the letters of a note printed up the margin


def _depth(number):
    if number is None:
        return None
    if re.match(r'^[A-Z]?[0-9.]+$', number.replace(' ', ''), re.I) or re.match(r'^[A-Z](\.[0-9]+)+$', number, re.I):
        return number.count('.') + 1
    return 1  # 'Appendix A', 'Part 2'


def entries(path):
    """[(number, title, x0, page label)] of the contents pages, in order."""
    out, started = [], False
    for layout in extract_pages(path):
        found, stop = [], False
        lines = list(_lines(layout))
        for line in sorted(lines, key=lambda ln: -ln.y1):
            text = norm(line.get_text().replace('\t', ' '))
            # a section number set in a box of its own left of its entry ("2" | "Introduction ....")
            label = [o for o in lines if o.x1 <= line.x0 + 1 and abs(o.y0 - line.y0) < 2
                     and re.fullmatch(r'[0-9]+(\.[0-9]+)*\.?|[A-Z]\.[0-9.]+', norm(o.get_text()) or '')]
            x0 = line.x0
            if label and text:
                text, x0 = norm(label[0].get_text()) + ' ' + text, label[0].x0
            if started and _LISTS.match(text or ''):
                stop = True
                break
            m = _ENTRY.match(text or '')
            if m and re.search(r'[^\W\d_]', m.group('text')):
                number, title = split_number(m.group('text'))
                found.append((number, title, round(x0), m.group('page')))
        if len(found) >= 3 or (started and found):
            started = True
            out.extend(found)
        elif started:
            break
        if stop:
            break
    return out


def extract(path):
    items = entries(path)
    tree = Tree()
    for i, (number, title, x0, page) in enumerate(items):
        level = _depth(number)
        if not level:  # under the last numbered entry set further left (its number may be unprinted)
            outer = [_depth(n) for n, _, x, _ in items[:i] if _depth(n) and x < x0 - 2]
            level = outer[-1] + 1 if outer else 1
        tree.add(number, title, level, page_label=page)
    return tree.sections


def run(path, truth_path, source):
    sections = extract(path)
    return write_truth(truth_path, source, __doc__.strip(), sections, [], [])
