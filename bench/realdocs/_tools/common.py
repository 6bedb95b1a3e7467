"""Helpers shared by the truth extractors of bench/realdocs.

Every extractor returns a flat list of sections in document order, each
``{number, title, level, parent_index, ...extra}``; ``parent_index`` is the
index of the nearest preceding section with a smaller ``level`` (level 1 =
top).  The JSON layout written by :func:`write_truth` is the one of
``../shared/data/real`` so one benchmark reads both corpora.
"""
import json
import re

_WS = re.compile(r'\s+')


def norm(text):
    """Collapse whitespace (NBSP, thin and en/em spaces included) and strip; None stays None."""
    if text is None:
        return None
    for ch in '\u00a0\u2002\u2003\u2009\u200b\u202f':
        text = text.replace(ch, ' ')
    return _WS.sub(' ', text).strip()


def first_words(text, n=15):
    """First ``n`` words of ``text`` (normalised), with ' …' when cut."""
    words = (norm(text) or '').split(' ')
    return ' '.join(words[:n]) + (' …' if len(words) > n else '')


def strip_trailing(num):
    """Printed label without trailing punctuation: 'Sec. 3.' -> 'Sec. 3', '1.' -> '1'."""
    if num is None:
        return None
    num = re.sub(r'[\s.\u2014\u2013:\-]+$', '', norm(num))
    return num or None


class Tree:
    """Builds the flat section list; parent = nearest preceding section of smaller level."""

    def __init__(self):
        self.sections = []
        self._stack = []

    def add(self, number, title, level, **extra):
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        rec = {'number': number, 'title': title, 'level': level,
               'parent_index': self._stack[-1][1] if self._stack else None}
        rec.update({k: v for k, v in extra.items() if v is not None})
        self.sections.append(rec)
        self._stack.append((level, len(self.sections) - 1))
        return len(self.sections) - 1


def sample(items, k=50):
    """Deterministic spread-out sample of at most ``k`` items (every n-th)."""
    if len(items) <= k:
        return list(items)
    step = len(items) / k
    return [items[int(i * step)] for i in range(k)]


def write_truth(path, source, method, sections, definitions=(), xrefs=(), xrefs_total=None, **extra):
    """Write ``path`` in the shared truth.json layout; returns the dict written."""
    xrefs = list(xrefs)
    out = {'source': source}
    out.update(extra)
    out['truth_method'] = method
    out['sections'] = sections
    out['definitions'] = list(definitions)
    out['xrefs'] = sample(xrefs)
    out['counts'] = {'sections': len(sections), 'definitions': len(out['definitions']),
                     'xrefs_total_in_markup': len(xrefs) if xrefs_total is None else xrefs_total,
                     'xrefs_sampled': len(out['xrefs'])}
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
    return out


# A leading provision/section label in a heading or outline title.  Containers
# keep their word ("Part 4", "Division 2", "Schedule 1", "CHAPTER 3", "Appendix A");
# bare numbers may carry letter suffixes (12A, 273AA) and dotted parts (1.2.3, 1.0).
_CONTAINER = (r'(?:Part|Division|Subdivision|Chapter|Schedule|Appendix|Annex|Article|Section|'
              r'Title|Subtitle|Subpart|Sec\.|Table|Figure)')
NUMBER_RE = re.compile(
    r'^\s*(?P<num>(?:' + _CONTAINER + r'\s+(?:[0-9]+[A-Z]{0,3}|[IVXLCDM]+[A-Z]{0,2}|[A-Z])(?:\.[0-9A-Z]+)*'
    r'|[0-9]+[A-Z]{0,3}(?:\.[0-9]+[A-Z]?)*'
    r'|[A-Z](?:\.[0-9]+)+))'
    r'(?P<sep>[.:)]?(?:\s*[\u2014\u2013-]\s*|\s+|$))(?P<rest>.*)$', re.I | re.S)


def split_number(text):
    """Split a leading label off a heading: 'Part I—Preliminary' -> ('Part I', 'Preliminary'),
    '4AA  Meaning of x' -> ('4AA', 'Meaning of x'), '1.0 Intro' -> ('1.0', 'Intro'),
    'Executive Summary' -> (None, 'Executive Summary').  A word-only container label
    needs a number, roman numeral or single letter after it; a bare number needs text after it."""
    t = norm(text) or ''
    m = NUMBER_RE.match(t)
    if not m:
        return None, t
    num, rest = m.group('num'), norm(m.group('rest'))
    if not rest and not re.match(_CONTAINER, num, re.I):
        return None, t
    return num, rest or None
