"""``docstrata list`` as plain lines: for a pipe, a file, or a terminal too narrow for the table.

A seven-column table squeezed into 80 columns folds each cell to a word per line; piped, it is
12,000 characters of mostly spaces. The plain form gives each document one line of facts and its
title and summary wrapped beneath, so ``docstrata list | grep gdpr`` finds the document's line.
"""

from __future__ import annotations

import textwrap

from .escaping import one_line


def plain_listing(listing: list[dict], width: int = 80) -> str:
    """The listing (``[{tool, type, documents: [DocumentEntry.to_dict()]}]``) as text lines of at
    most ``width`` characters where words allow: per tool a header line, per document a line
    ``doc_key · type · language · N sections · N chunks · ingested at`` (records: ``N records``),
    then its title and summary indented by four spaces. Names, titles and summaries go through
    :func:`~docstrata.escaping.one_line`: none can forge a line."""
    lines: list[str] = []
    for entry in listing:
        records = entry["type"] == "vectorstore"
        docs = entry["documents"]
        lines.append(f"{entry['tool']} ({entry['type']}): {len(docs)} {'file' if records else 'document'}(s)")
        for d in docs:
            when = d["ingested_at"].replace("T", " ")[:16]
            facts = [one_line(d["doc_key"]), one_line(d["file_type"])]
            if records:
                facts += [f"{d['total_chunks']} records"]
            else:
                facts += [
                    one_line(d["language"] or "–"),
                    f"{d['section_count']} sections",
                    f"{d['total_chunks']} chunks",
                ]
            lines.append("  " + " · ".join([*facts, when]))
            text = [one_line(x) for x in ([] if records else [d["title"]]) + [d["summary"]] if x]
            for para in text:
                lines += (
                    textwrap.wrap(
                        " ".join(para.split()),
                        width=max(40, width),
                        initial_indent="    ",
                        subsequent_indent="    ",
                        break_on_hyphens=False,
                    )
                    or []
                )
    return "\n".join(lines)
