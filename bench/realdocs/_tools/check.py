"""Consistency check: do the truth titles/terms really occur in the rendered test input?

  python bench/realdocs/_tools/check.py [-v]

For every document in index.json the input's text is read with an independent
reader (pypdfium2 for PDF, lxml for DOCX/PPTX/XML, BeautifulSoup for HTML,
openpyxl for XLSX, the raw text for TXT/Markdown), and every truth section's
title (or text_start when untitled; untitled slides are skipped) and every definition term is
looked up in it after folding case and dropping everything but letters and
digits.  For plain-text RFCs it also checks that every numbered section prints
as a line 'N.  Title'.  Prints the match rate per document and overall; -v lists misses.
"""
import json
import os
import re
import sys
import zipfile

from lxml import etree

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def fold(s):
    return re.sub(r'[^0-9a-zа-яё]+', '', (s or '').lower().replace('…', ''))


def text_of(path):
    ext = os.path.splitext(path)[1].lower()
    if ext == '.pdf':
        import pypdfium2 as pdfium
        pdf = pdfium.PdfDocument(path)
        return '\n'.join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    if ext in ('.docx', '.pptx'):
        z = zipfile.ZipFile(path)
        parts = [n for n in z.namelist() if re.match(r'(word/document|ppt/slides/slide\d+)\.xml$', n)]
        return '\n'.join(''.join(etree.fromstring(z.read(n)).itertext()) for n in parts)
    if ext == '.xlsx':
        import openpyxl
        wb = openpyxl.load_workbook(path, data_only=True)
        return '\n'.join([ws.title for ws in wb.worksheets] +
                         [str(v) for ws in wb.worksheets for row in ws.iter_rows(values_only=True) for v in row if v is not None])
    if ext in ('.html', '.htm'):
        from bs4 import BeautifulSoup
        return BeautifulSoup(open(path, encoding='utf-8').read(), 'lxml').get_text(' ')
    if ext == '.xml':
        return ' '.join(etree.parse(path).getroot().itertext())
    return open(path, encoding='utf-8').read()


def probes(truth):
    for s in truth['sections']:
        p = s.get('title') or (s.get('text_start') or '').replace(' …', '')
        if p:                       # untitled slides / empty provisions have nothing to look up
            yield 'section', p
    for d in truth['definitions']:
        yield 'definition', d['term']


def check(input_path, truth_path, verbose):
    hay = fold(text_of(input_path))
    truth = json.load(open(truth_path, encoding='utf-8'))
    hit = miss = 0
    for kind, p in probes(truth):
        f = fold(p)
        if f and f in hay:
            hit += 1
        else:
            miss += 1
            if verbose:
                print('    MISS %s: %s' % (kind, p[:90]))
    return hit, miss


def numbered_lines(input_path, truth_path, verbose):
    """Plain-text RFCs: does every numbered truth section print as a line 'N.  Title' (first 40 chars)?"""
    lines = {re.sub(r'\s+', ' ', l.strip()) for l in open(input_path, encoding='utf-8').read().split('\n')}
    hit = miss = 0
    for s in json.load(open(truth_path, encoding='utf-8'))['sections']:
        if not s['number']:
            continue
        want = re.sub(r'\s+', ' ', '%s. %s' % (s['number'], s['title']))[:40]
        if any(l.startswith(want) for l in lines):
            hit += 1
        else:
            miss += 1
            if verbose:
                print('    MISS numbered line: %s' % want)
    return hit, miss


def main(verbose):
    index = json.load(open(os.path.join(ROOT, 'index.json'), encoding='utf-8'))['documents']
    H = M = 0
    for d in index:
        if d['format'] == 'md-tree':
            h = m = 0
            for f in d['files']:
                a, b = check(os.path.join(ROOT, d['file'], f), os.path.join(ROOT, d['file'], f) + '.truth.json', verbose)
                h, m = h + a, m + b
        else:
            h, m = check(os.path.join(ROOT, d['file']), os.path.join(ROOT, d['truth']), verbose)
        H, M = H + h, M + m
        print('%-85s %5d/%-5d %s' % (d['file'], h, h + m, '%.3f' % (h / (h + m)) if h + m else '-'))
        if d['file'].endswith('.txt'):
            a, b = numbered_lines(os.path.join(ROOT, d['file']), os.path.join(ROOT, d['truth']), verbose)
            print('%-85s %5d/%-5d numbered "N. Title" lines' % ('', a, a + b))
    print('overall %d/%d = %.4f' % (H, H + M, H / (H + M)))


if __name__ == '__main__':
    main('-v' in sys.argv)
