"""Print the README's document table from index.json and sources.py (paste it into README.md).

  python bench/realdocs/_tools/readme_table.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sources  # noqa: E402

METHOD = {
    'pdf': 'PDF outline (bookmarks) via pdfminer.six',
    'pdf_contents': 'printed table of contents (dot-leader entries, levels from numbers and indents) via pdfminer.six',
    'uslm': 'USLM elements: hierarchy + `<num>`/`<heading>`, `<term>`, `<ref href>`',
    'uslm1': 'USLM 1.0 elements (US Code titles): hierarchy + `<num>`/`<heading>` outside notes; `<ref href>` inside the title',
    'akn': 'Akoma Ntoso elements: hierarchy + `<num>`/`<heading>`; Definitions-article points with a quoted term; `<ref href>`',
    'rfc_v2': 'xml2rfc v2 source twin: `<section title>` nesting, numbers as v2 prints them, `<xref target>`',
    'respec': 'ReSpec source: `<section>`+heading nesting, every `<dfn>`, `href="#id"` and `[[[#id]]]`',
    'docx': 'Word heading styles/outlineLvl + numbering.xml labels; REF/hyperlink anchors to heading bookmarks',
    'pptx': 'slide order (sldIdLst) + title placeholder per slide',
    'xlsx': 'sheet names + first non-empty row (openpyxl)',
    'markdown': 'ATX/Setext headings outside fences/comments; relative links',
    'justice_ca': 'Justice Canada XML: flat `<Heading level>` ranks, `<Section>`/`<Subsection>`… `<Label>` + `<MarginalNote>`, schedules, `<DefinedTermEn>`, `<XRefInternal>`'}


def main():
    idx = json.load(open(os.path.join(os.path.dirname(HERE), 'index.json'), encoding='utf-8'))['documents']
    src = {}
    for e in sources.DOCS:
        (repo, commit), path, _ = e['files'][0]
        src[e['kind'] + '/' + e['name']] = (repo, commit[:10], path, sources.LIC[e['lic']])
    for t in sources.TREES:
        src[t['kind'] + '/' + t['name'] + '/'] = (t['repo'][0], t['repo'][1][:10], (t['path'] or '') + '/', sources.LIC[t['lic']])
    print('| file (test input) | kind | format | split | sections | definitions | xrefs (sampled / in markup) '
          '| source repo@commit:path | licence | truth method |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    for d in idx:
        repo, commit, path, lic = src[d['file']]
        lic = lic.split(':')[0].split(' (')[0]
        twin = (' — truth from twin `%s`' % ', '.join(x.split('/')[-1] for x in d['twins'])) if d['twins'] else ''
        f = '`%s`' % d['file'] + (' (%d `.md`)' % len(d['files']) if d.get('files') else '')
        print('| %s | %s | %s | %s | %d | %d | %d / %d | %s@%s:%s | %s | %s%s |' % (
            f, d['kind'], d['format'], d['split'], d['sections'], d['definitions'], d['xrefs_sampled'],
            d['xrefs_total_in_markup'], repo, commit, path, lic, METHOD[d['extractor']], twin))
    trees = [d for d in idx if d.get('files')]
    print()
    print('Total: %d documents (%d single files + %d Markdown trees of %s files), %d dev / %d holdout / %d holdout2, %.1f MB.' % (
        len(idx), len(idx) - len(trees), len(trees), ' and '.join(str(len(t['files'])) for t in trees),
        sum(d['split'] == 'dev' for d in idx), sum(d['split'] == 'holdout' for d in idx),
        sum(d['split'] == 'holdout2' for d in idx), sum(d['bytes'] for d in idx) / 1e6))


if __name__ == '__main__':
    main()
