"""Records that are chunks of a larger document (``document_field``): regroup them into
documents and give each record the structure recovered from its document (DESIGN §6).

A document is a run of consecutive records with the same ``Record.document`` value, in file
order (a value that comes back after other documents starts a new run). Each record gets:

* ``document_title``: the type names its document declares (``MergeScheduler``,
  ``DiffExecutor, ProxyObserversTuple``), so the chunk holding a file's imports and licence
  still names the class the file is about;
* ``parent_chain``: the lines of the document, before the record, whose scopes enclose the
  record's first line (``impl<S> Scheduler for MergeScheduler<S>`` above an indented
  ``fn next(...)``).

Both come from :mod:`docstrata.structure.code`; prose documents usually get neither.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from ..models import Record
from ..structure.code import declared_names, enclosing_lines


def with_document_structure(batches: Iterable[list[Record]], batch_size: int) -> Iterator[list[Record]]:
    """Re-batch ``batches`` so no document is split across two batches (a batch holds whole
    documents, about ``batch_size`` records, more when one document is longer), setting each
    record's ``document_title`` and ``parent_chain`` in place."""
    run: list[Record] = []
    out: list[Record] = []
    for batch in batches:
        for record in batch:
            if run and record.document != run[0].document:
                out += _structure(run)
                run = []
                if len(out) >= batch_size:
                    yield out
                    out = []
            run.append(record)
    out += _structure(run)
    if out:
        yield out


def _structure(run: list[Record]) -> list[Record]:
    if not run:
        return run
    title = ", ".join(declared_names("\n".join(r.content for r in run)))
    before: list[str] = []
    for record in run:
        lines = record.content.splitlines()
        first = next((line for line in lines if line.strip()), "")
        record.document_title = title
        record.parent_chain = enclosing_lines(before, first)
        before += lines
    return run
