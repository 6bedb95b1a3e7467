"""Provision look-ups on legislation XML (issue 14, trial 14): does ``get_section`` answer the
provision a lawyer cites, and are the ids the markup's nesting?

    python bench/legislation_xml_lookups.py DIR

Ingests every ``*.xml`` of DIR into an in-memory ``hierarchical_document`` tool (bundled
embedding model) and, for the citations below that name one of its files, prints the section id
``get_section`` answers (or its error), then per file: sections, cross-references resolved. The
citations are the trial's (``/work/wt/notes/trial14-report.md``): UK DRIPA 2014 and EU
COM(2013) 619 (Akoma Ntoso), US Public Law 113-67 (USLM). A citation is *right* when the answered
id is the one given here (``!`` = the tool must refuse it as ambiguous).
"""

from __future__ import annotations

import sys
import tempfile
import textwrap
from pathlib import Path

CITATIONS = {  # file-name fragment → [(citation, expected id; "!" = must be refused as ambiguous)]
    "uk_pga": [("section 2", "2"), ("section 1(2)", "1(2)"), ("section 2(1)", "2(1)"), ("1(6)(a)(i)", "1(6)(a)(i)")],
    "eu_COM": [("Article 9(2)", "article-9(2)"), ("Article 9", "article-9"), ("Article 6(2)(a)", "article-6(2)(a)"),
               ("LEGISLATIVE FINANCIAL STATEMENT", "legislative-financial-statement")],
    "uslm": [("Division B", "division-b"), ("Title I", "!"), ("Section 101", "101"), ("Section 1001", "1001")],
}


def main(folder: str) -> None:
    import docstrata
    from docstrata.search import QueryError

    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        for f in sorted(Path(folder).glob("*.xml")):
            (docs / f.name).write_bytes(f.read_bytes())
        (Path(tmp) / "agent.yaml").write_text(textwrap.dedent("""\
            tools:
              - name: laws
                type: hierarchical_document
                description: legislation XML
                source: docs/
                database: in-memory
            """), encoding="utf-8")
        right = total = 0
        with docstrata.open(Path(tmp) / "agent.yaml") as tools:
            laws = tools["laws"]
            laws.ingest()
            for f in sorted(docs.iterdir()):
                for frag, cites in CITATIONS.items():
                    if frag not in f.name:
                        continue
                    for cite, want in cites:
                        title = ""
                        try:
                            page = laws.get_section(f.name, cite)
                            got, title = page.section_id, page.title[:40]
                        except QueryError as e:
                            got = "! " + str(e)[:90]
                        ok = got == want or (want == "!" and got.startswith("!"))
                        right, total = right + ok, total + 1
                        print(f"{f.name[:22]:22} {cite!r:34} -> {got!r:40} {title!r:42} {'ok' if ok else 'WRONG (want ' + want + ')'}")
        print(f"citations answered right: {right}/{total}")
    from docstrata.convert import convert_file
    from docstrata.models import FileState, SourceFile
    from docstrata.structure import build_tree

    for f in sorted(Path(folder).glob("*.xml")):
        tree = build_tree(convert_file(SourceFile(f.name, str(f), FileState(f.stat().st_size, 0, ""))))
        own = [x for x in tree.cross_references if x.document is None]
        print(f"{f.name[:40]:40} sections {len(tree.sections):4}  definitions {len(tree.definitions):3}  "
              f"internal xrefs resolved {sum(1 for x in own if x.section_id)}/{len(own)}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
