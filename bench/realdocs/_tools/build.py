"""Rebuild every *.truth.json of bench/realdocs from the files stored here (and index.json).

  python bench/realdocs/_tools/build.py            # truth from the files in bench/realdocs
  python bench/realdocs/_tools/build.py --copy     # first re-copy the files out of bare clones
                                                   # in $MIRROR_DIR/owner+name/repo (default /work/.mirror)
  python bench/realdocs/_tools/build.py --copy-new # copy only files not yet stored here (a new batch)

Truth is computed from the source markup (the file itself or its XML twin),
never by docstrata's converters.  Needs lxml, pdfminer.six, beautifulsoup4, openpyxl.
"""
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import ex_akn, ex_docx, ex_justice_ca, ex_markdown, ex_pdf_contents, ex_pdf_outline, ex_pptx, ex_respec, ex_rfc_v2, ex_uslm, ex_uslm1, ex_xlsx  # noqa: E402
from sources import DOCS, LIC, TREES  # noqa: E402

EX = {'pdf': ex_pdf_outline, 'pdf_contents': ex_pdf_contents, 'uslm': ex_uslm, 'uslm1': ex_uslm1, 'akn': ex_akn, 'justice_ca': ex_justice_ca, 'rfc_v2': ex_rfc_v2, 'respec': ex_respec,
      'docx': ex_docx, 'pptx': ex_pptx, 'xlsx': ex_xlsx}
MIRROR = os.environ.get('MIRROR_DIR', '/work/.mirror')


COPY_NEW_ONLY = False


def git_show(repo, commit, path, dst):
    if COPY_NEW_ONLY and os.path.exists(dst):
        return
    d = os.path.join(MIRROR, repo.replace('/', '+'), 'repo')
    if os.path.isdir(os.path.join(d, '.git')):
        d = os.path.join(d, '.git')
    data = subprocess.run(['git', '--git-dir', d, 'show', '%s:%s' % (commit, path)], check=True, capture_output=True).stdout
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, 'wb') as f:
        f.write(data)


def splits_of(kinds):
    """Fixed split, chosen before any tuning: within a kind, in file-name order, alternate dev/holdout;
    kinds are taken in name order and every second kind with an odd count starts with holdout, so
    the odd documents do not all land in dev."""
    out, odd = {}, 0
    for kind in sorted(kinds):
        names = sorted(kinds[kind])
        first = 0
        if len(names) % 2:
            first, odd = odd % 2, odd + 1
        out[kind] = {n: ('dev', 'holdout')[(i + first) % 2] for i, n in enumerate(names)}
    return out


def resolve_tree_links(base):
    """Cross-file Markdown links of a doc tree: a relative link to another .md of the tree gets
    target_file (path inside the tree) and, with a '#frag', target_title (same slug schemes as
    ex_markdown) or dangling true.  Rewrites the tree's truth files in place."""
    truths = {os.path.relpath(f, base)[:-len('.truth.json')]: f
              for f in glob.glob(base + '/**/*.md.truth.json', recursive=True)}
    data = {k: json.load(open(f, encoding='utf-8')) for k, f in truths.items()}
    for rel, d in data.items():
        for x in d['xrefs']:
            if x['internal']:
                continue
            path, _, frag = x['target'].partition('#')
            target = os.path.normpath(os.path.join(os.path.dirname(rel), path))
            if target not in data:
                continue
            x['target_file'] = target
            if frag:
                hit = ex_markdown.anchor_map(data[target]['sections']).get(frag)
                x['target_title'] = hit['title'] if hit else None
                if hit is None:
                    x['dangling'] = True
        with open(truths[rel], 'w', encoding='utf-8') as f:
            json.dump(d, f, ensure_ascii=False, indent=1)


def main(copy):
    index = []
    kinds = {}
    for e in DOCS:
        if not e.get('split'):
            kinds.setdefault(e['kind'], []).append(e['name'])
    for t in TREES:
        if not t.get('split'):
            kinds.setdefault(t['kind'], []).append(t['name'] + '/')
    splits = splits_of(kinds)   # documents with a fixed split (a later batch: "holdout2") stay out of the draw
    for e in DOCS:
        if e.get('split'):
            splits.setdefault(e['kind'], {})[e['name']] = e['split']
    for t in TREES:
        if t.get('split'):
            splits.setdefault(t['kind'], {})[t['name'] + '/'] = t['split']
    for e in DOCS:
        kd = os.path.join(ROOT, e['kind'])
        files = [(r, c, p, out or e['name']) for (r, c), p, out in e['files']]
        if copy:
            for r, c, p, out in files:
                git_show(r, c, p, os.path.join(kd, out))
        (repo, commit, path, _) = files[0]
        source = {'repo': repo, 'commit': commit, 'path': path, 'licence': LIC[e['lic']],
                  'file': e['kind'] + '/' + e['name'],
                  'twins': [{'repo': r, 'commit': c, 'path': p, 'file': e['kind'] + '/' + o} for r, c, p, o in files[1:]],
                  'truth_from': [e['kind'] + '/' + x for x in e['truth_from']], 'notes': e['notes']}
        tp = os.path.join(kd, e['name']) + '.truth.json'
        d = EX[e['ex']].run(os.path.join(kd, e['truth_from'][0]), tp, source)
        if not e['score_parents']:
            d = dict(d, score_parents=False)
            with open(tp, 'w', encoding='utf-8') as f:
                json.dump({k: d[k] for k in ['source', 'score_parents'] + [k for k in d if k not in ('source', 'score_parents')]},
                          f, ensure_ascii=False, indent=1)
        size = sum(os.path.getsize(os.path.join(kd, o)) for *_, o in files)
        index.append({'file': source['file'], 'truth': source['file'] + '.truth.json', 'kind': e['kind'],
                      'format': os.path.splitext(e['name'])[1].lstrip('.').lower(), 'split': splits[e['kind']][e['name']],
                      'extractor': e['ex'], 'bytes': size, 'twins': [t['file'] for t in source['twins']],
                      'score_parents': e['score_parents'], **d['counts']})
        print('%-16s %-70s %-7s sections=%4d defs=%4d xrefs=%3d/%d' % (
            e['kind'], e['name'], index[-1]['split'], d['counts']['sections'], d['counts']['definitions'],
            d['counts']['xrefs_sampled'], d['counts']['xrefs_total_in_markup']))
    for t in TREES:
        (repo, commit) = t['repo']
        base = os.path.join(ROOT, t['kind'], t['name'])
        if copy:
            d = os.path.join(MIRROR, repo.replace('/', '+'), 'repo')
            if os.path.isdir(os.path.join(d, '.git')):
                d = os.path.join(d, '.git')
            names = t.get('files') or subprocess.run(
                ['git', '--git-dir', d, 'ls-tree', '-r', '--name-only', commit, t['path']],
                check=True, capture_output=True, text=True).stdout.split('\n')
            for n in names:
                if n.endswith('.md'):
                    git_show(repo, commit, n, os.path.join(base, n[len(t['path']) + 1:] if t['path'] else n))
            for p, out in t['extra']:
                git_show(repo, commit, p, os.path.join(ROOT, t['kind'], out))
        files, tot = [], {'sections': 0, 'definitions': 0, 'xrefs_total_in_markup': 0, 'xrefs_sampled': 0}
        for f in sorted(glob.glob(base + '/**/*.md', recursive=True)):
            rel = os.path.relpath(f, base)
            source = {'repo': repo, 'commit': commit, 'path': (t['path'] + '/' if t['path'] else '') + rel, 'licence': LIC[t['lic']],
                      'file': '%s/%s/%s' % (t['kind'], t['name'], rel), 'twins': [],
                      'truth_from': ['%s/%s/%s' % (t['kind'], t['name'], rel)], 'notes': t['notes']}
            d = ex_markdown.run(f, f + '.truth.json', source)
            files.append({'file': rel, **d['counts']})
            for k in tot:
                tot[k] += d['counts'][k]
        resolve_tree_links(base)
        json.dump({'source': {'repo': repo, 'commit': commit, 'path': t['path'] + '/' if t['path'] else '/', 'licence': LIC[t['lic']]},
                   'files': files}, open(base + '.tree.json', 'w'), indent=1)
        size = sum(os.path.getsize(f) for f in glob.glob(base + '/**/*.md', recursive=True))
        index.append({'file': '%s/%s/' % (t['kind'], t['name']), 'truth': '%s/%s.tree.json' % (t['kind'], t['name']),
                      'kind': t['kind'], 'format': 'md-tree', 'split': splits[t['kind']][t['name'] + '/'],
                      'extractor': 'markdown', 'bytes': size, 'twins': [], 'score_parents': True, 'files': [x['file'] for x in files], **tot})
        print('%-16s %-70s %-7s sections=%4d xrefs=%3d (%d files)' % (t['kind'], t['name'] + '/', index[-1]['split'],
              tot['sections'], tot['xrefs_sampled'], len(files)))
    json.dump({'about': 'bench/realdocs corpus: one entry per test input; truth files sit beside the inputs '
                        '(<file>.truth.json; Markdown trees: one truth per .md plus <tree>.tree.json). '
                        'split is fixed (alternating within each kind in file-name order, see build.splits_of) and must not be re-drawn after tuning.',
               'documents': index}, open(os.path.join(ROOT, 'index.json'), 'w'), indent=1, ensure_ascii=False)
    print('%d documents, %.1f MB' % (len(index), sum(x['bytes'] for x in index) / 1e6))


if __name__ == '__main__':
    COPY_NEW_ONLY = '--copy-new' in sys.argv
    main('--copy' in sys.argv or COPY_NEW_ONLY)
