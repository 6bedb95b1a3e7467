"""Records that are chunks of a larger document (``document_field``): regroup them into
documents and give each record the structure recovered from its document (DESIGN §6).

A document is a run of consecutive records with the same non-empty ``Record.document`` value,
in file order. A record with no value is a document of its own (no structure); a value that
comes back after other documents starts a new run and is reported in ``warnings``. Each
record gets:

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
from ..structure.code import ScopeTracker, declared_names

_MAX_WARNED = 5


def with_document_structure(
    batches: Iterable[list[Record]], batch_size: int, warnings: list[str] | None = None
) -> Iterator[list[Record]]:
    """Re-batch ``batches`` so no document is split across two batches (a batch holds whole
    documents, about ``batch_size`` records, more when one document is longer), setting each
    record's ``document_title`` and ``parent_chain`` in place. Linear in the records' text.
    A document whose records are not consecutive is named in ``warnings`` (at most 5)."""
    run: list[Record] = []
    out: list[Record] = []
    done: set[str] = set()
    warned = 0
    for batch in batches:
        for record in batch:
            if run and (record.document != run[0].document or not record.document):
                done.add(run[0].document)
                out += _structure(run)
                run = []
                if len(out) >= batch_size:
                    yield out
                    out = []
            if record.document and record.document in done and not run and warnings is not None:
                warned += 1
                if warned <= _MAX_WARNED:
                    warnings.append(
                        f"records of document '{record.document}' are not consecutive (line "
                        f"{record.line}); each run gets its own structure"
                    )
            run.append(record)
    out += _structure(run)
    if out:
        yield out


def _structure(run: list[Record]) -> list[Record]:
    if not run or not run[0].document:
        return run
    title = ", ".join(declared_names("\n".join(r.content for r in run)))
    scopes = ScopeTracker()
    for record in run:
        lines = record.content.splitlines()
        record.document_title = title
        record.parent_chain = scopes.enclosing(next((line for line in lines if line.strip()), ""))
        scopes.feed(lines)
    return run
