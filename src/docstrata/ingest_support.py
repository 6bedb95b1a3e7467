"""Pieces of an ingest run that need no tool: which failures still leave an index searchable,
the conversion failures remembered between runs, notices for the ingest report, parsing the next
file while this one is embedded, and the progress line.
"""

from __future__ import annotations

import json
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

# how a file that failed before and has not changed since is reported (tools.py), so the CLI can
# tell it apart from a new failure
UNCHANGED_FAILURE = "unchanged since it failed"


def is_write_failure(e: BaseException) -> bool:
    """True for failures to *write* an index (read-only, full disk, lock held too long), after
    which an existing index can still be searched."""
    import errno
    import sqlite3

    from .errors import StoreError
    from .locking import LockTimeout

    if isinstance(e, LockTimeout):
        return True
    if isinstance(e, OSError) and e.errno in (
        errno.ENOSPC,
        errno.EROFS,
        errno.EACCES,
        errno.EPERM,
        errno.EFBIG,
        errno.EDQUOT,
    ):
        return True
    text = str(e).lower()
    if isinstance(e, (sqlite3.OperationalError, StoreError, ValueError, RuntimeError)):
        return any(
            w in text
            for w in (
                "readonly",
                "read-only",
                "disk is full",
                "no space",
                "disk quota",
                "file too large",
                "permission denied",
            )
        )
    return False


def failed_files(store, to_process) -> dict[str, dict]:
    """The remembered conversion failures (``{doc_key: {"state": [size, sha256], "reason": str}}``,
    stored in the ``failed_files`` meta key) of the files still waiting to be processed; entries of
    files gone from the source are dropped."""
    try:
        known = json.loads(store.get_meta("failed_files") or "{}")
    except ValueError:
        known = {}
    keys = {sf.doc_key for sf in to_process}
    return {k: v for k, v in known.items() if k in keys and isinstance(v, dict) and "state" in v}


EMPTY_SOURCE_NOTICE = "source has no files; {n} indexed documents kept; run `docstrata ingest --force` to clear"
"""The one line reported (as a skipped source, so the run fails) when a scan finds no file but the index holds some."""


def ignored_notice(ignored: list[str]) -> list[str]:
    """One line naming the unsupported file types found under the source, if any."""
    if not ignored:
        return []
    by_ext: dict[str, int] = {}
    for key in ignored:
        ext = Path(key).suffix.lower() or "(no extension)"
        by_ext[ext] = by_ext.get(ext, 0) + 1
    kinds = ", ".join(f"{ext} ({n})" for ext, n in sorted(by_ext.items()))
    hint = ""
    if any(ext.lstrip(".") in ("csv", "tsv", "json", "jsonl", "ndjson") for ext in by_ext):
        hint = "; CSV / JSON / JSONL files are read by a vectorstore tool (as records, or as documents in a folder)"
    return [f"ignored {len(ignored)} file(s) of unsupported types: {kinds}{hint}"]


class Prefetch:
    """``fn(items[i])`` for i = 0, 1, …, computed one item ahead on a worker thread when
    ``overlap`` (conversion and parsing of the next file overlap the embedding of this one;
    the OpenVINO / ONNX runtimes release the GIL while they run). ``get(i)`` returns the result
    or raises what ``fn`` raised. Without ``overlap`` (PyTorch's tokenizer is not safe to share
    across threads) each result is computed on demand."""

    def __init__(self, fn, items: list, overlap: bool):
        self._fn, self._items, self._overlap = fn, items, overlap and len(items) > 1
        self._pool: ThreadPoolExecutor | None = None
        self._next: dict[int, Future] = {}

    def _submit(self, i: int) -> None:
        if i < len(self._items) and i not in self._next:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="docstrata-parse")
            import contextvars

            # the caller's context (its OpenTelemetry span) so a file's parse span nests under the ingest
            self._next[i] = self._pool.submit(contextvars.copy_context().run, self._fn, self._items[i])

    def get(self, i: int):
        """``fn(items[i])``, computed ahead on the worker thread when overlapping (the next item is
        started before this one is returned); raises what ``fn`` raised."""
        if not self._overlap:
            return self._fn(self._items[i])
        self._submit(i)
        future = self._next.pop(i)
        self._submit(i + 1)
        try:
            return future.result()
        finally:
            if i + 1 >= len(self._items) and self._pool is not None:
                self._pool.shutdown(wait=False)


UNFINISHED_KEY = "ingest_unfinished"
UNFINISHED_REASON = (
    "a previous ingest did not finish this file (stopped, killed or out of memory while converting or "
    "embedding it); a search does not retry it: `docstrata ingest` does"
)


def mark_unfinished(store, sf) -> None:
    """Record, before ``sf`` (a :class:`~docstrata.sources.SourceFile`) is converted and embedded,
    that an ingest is working on it; :func:`clear_unfinished` at the end of the run. A mark still
    there at the next run names the file the last run never finished (killed, out of memory)."""
    store.set_meta(UNFINISHED_KEY, json.dumps({"doc_key": sf.doc_key, "state": [sf.state.size, sf.state.sha256]}))


def clear_unfinished(store) -> None:
    """The run finished every file it started (called once at its end)."""
    if store.get_meta(UNFINISHED_KEY):
        store.set_meta(UNFINISHED_KEY, "")


def skip_unfinished(store, todo: list, implicit: bool) -> tuple[list, list]:
    """``(todo, skipped)``: for an implicit ingest (the one a search runs), the file an earlier run
    started and never finished — same bytes — is left out and reported (``SkippedFile``), so a
    search never stalls re-running the ingest that stalled or killed the last process; an explicit
    ``docstrata ingest`` retries it."""
    from .models import SkippedFile

    if not implicit:
        return todo, []
    try:
        mark = json.loads(store.get_meta(UNFINISHED_KEY) or "null")
    except ValueError:
        mark = None
    if not isinstance(mark, dict):
        return todo, []
    keep, skipped = [], []
    for sf in todo:
        if sf.doc_key == mark.get("doc_key") and [sf.state.size, sf.state.sha256] == mark.get("state"):
            skipped.append(SkippedFile(sf.doc_key, UNFINISHED_REASON))
        else:
            keep.append(sf)
    return keep, skipped


def sync_file_states(
    store,
    source: str,
    base_dir,
    report,
    extensions: frozenset[str],
    force: bool,
    verify: bool = False,
    follow_symlinks: bool = False,
):
    """Compare the files under ``source`` (relative to ``base_dir``) with ``store``'s file states:
    record mtime-only changes, purge removed files (unless the source is suddenly empty: an
    unmounted share is no instruction to delete the index), and count everything in ``report``
    (an :class:`~docstrata.models.IngestReport`). Returns the :class:`~docstrata.sources.ChangeSet`,
    whose ``stamps`` the caller saves once the files are committed. ``force`` re-processes every
    file; ``verify`` re-hashes every file. Raises :class:`~docstrata.errors.SourceError` when
    ``source`` does not exist."""
    from .models import SkippedFile
    from .sources import scan
    from .store.base import clear_document_entry

    stamps = json.loads(store.get_meta("file_stamps") or "{}")
    changes = scan(
        source,
        base_dir,
        store.file_states(),
        extensions,
        force=force,
        stamps=stamps,
        verify=verify,
        follow_symlinks=follow_symlinks,
    )
    for sf in changes.touched:  # bytes identical, only mtime moved
        store.set_file_state(sf.doc_key, sf.state)
    report.files_total = len(changes.added) + len(changes.changed) + len(changes.unchanged) + len(changes.touched)
    report.unchanged = len(changes.unchanged) + len(changes.touched)
    report.skipped += [SkippedFile(k, r) for k, r in changes.unreadable]
    report.warnings += ignored_notice(changes.ignored)
    if changes.removed and report.files_total == 0 and not changes.unreadable and not force:
        # An unmounted share or an emptied folder is not an instruction to delete the index.
        report.skipped.append(SkippedFile(str(source), EMPTY_SOURCE_NOTICE.format(n=len(changes.removed))))
        report.unchanged = len(changes.removed)
        changes.removed.clear()
    for doc_key in changes.removed:
        store.delete_document(doc_key)
        clear_document_entry(store, doc_key)
        report.removed += 1
    return changes


EMBED_BATCH = 64
"""Pairs embedded per call of the embedder (and cached per batch, so an interrupted ingest resumes)."""


def embed_cached(store, embedder, items: list[tuple[str, str]], report, on_chunks=None) -> list:
    """One vector per (context, content) pair of ``items``, in order: from ``store``'s embedding
    cache (keyed by the embedder's ``model_id`` and the pair's sha256) where possible, else from
    ``embedder.embed_chunks`` in batches of :data:`EMBED_BATCH`, each batch cached as it comes.
    ``report.embedded`` counts the fresh vectors; ``on_chunks(done, total)`` is called after each
    batch (cached pairs count as done at once). Raises what the embedder raises
    (:class:`~docstrata.errors.ProviderError` after its retries)."""
    from .models import sha256_text
    from .telemetry import span

    model_id = embedder.model_id
    keys = [sha256_text(f"{ctx}\n\n{content}") for ctx, content in items]
    cached = store.cached_vectors(model_id, list(dict.fromkeys(keys)))
    missing = [i for i, k in enumerate(keys) if k not in cached]
    fresh: dict[str, object] = {}
    for start in range(0, len(missing), EMBED_BATCH):
        idx = [i for i in missing[start : start + EMBED_BATCH] if keys[i] not in fresh]
        with span("embed_batch", **{"embed.batch_size": len(idx)}):
            vecs = embedder.embed_chunks([items[i] for i in idx])
        batch = {keys[i]: v for i, v in zip(idx, vecs)}
        # Cached per batch, so an interrupted ingest resumes without re-embedding what it had done.
        store.cache_vectors(model_id, batch)
        fresh.update(batch)
        report.embedded += len(batch)
        if on_chunks:
            on_chunks(len(items) - len(missing) + min(start + EMBED_BATCH, len(missing)), len(items))
    return [cached.get(k) if k in cached else fresh[k] for k in keys]


def skip_failed_unchanged(failed: dict[str, dict], to_process: list, force: bool, report) -> list:
    """The files of ``to_process`` to convert: a file whose conversion failed before
    (``failed``, :func:`failed_files`) is not converted again until its bytes change (or
    ``force``); it is reported in ``report.skipped`` as :data:`UNCHANGED_FAILURE` with its reason."""
    from .models import SkippedFile

    todo = []
    for sf in to_process:
        before = failed.get(sf.doc_key)
        if before and not force and before["state"] == [sf.state.size, sf.state.sha256]:
            report.skipped.append(
                SkippedFile(
                    sf.doc_key, f"{UNCHANGED_FAILURE}: {before['reason']} (`docstrata ingest --force` retries it)"
                )
            )
        else:
            todo.append(sf)
    return todo


def save_failed_files(store, failed: dict[str, dict]) -> None:
    """Remember the conversion failures ``failed`` (doc key → ``{state: [size, sha256], reason}``)
    in ``store``'s meta for the next run; a run with nothing new writes nothing."""
    failed_json = json.dumps(failed, sort_keys=True, separators=(",", ":"))
    if failed_json != (store.get_meta("failed_files") or "{}"):
        store.set_meta("failed_files", failed_json)


def ingest_files(store, todo: list, added: list, report, ingest_one, failed: dict[str, dict] | None = None) -> None:
    """Run ``ingest_one(i, sf)`` over the files ``todo`` in order, each marked unfinished while it
    runs (:func:`mark_unfinished`). ``ingest_one`` returns
    (chunks, definitions) written, or ``None`` for a file it skipped and reported itself. A
    :class:`~docstrata.errors.ConversionError` is reported in ``report.skipped``, remembered in
    ``failed`` (by size and sha256, when given) and takes the file's old chunks out of the index; a
    :class:`~docstrata.errors.ProviderError` (embedding failed after retries) is reported and the
    file keeps its old chunks. Counts ``report.added`` (files in ``added``) or ``report.updated``,
    ``report.chunks`` and ``report.definitions``."""
    from .errors import ConversionError, ProviderError
    from .models import SkippedFile

    for i, sf in enumerate(todo):
        mark_unfinished(store, sf)
        try:
            done = ingest_one(i, sf)
        except ConversionError as e:
            report.skipped.append(SkippedFile(sf.doc_key, e.reason))
            if failed is not None:
                failed[sf.doc_key] = {"state": [sf.state.size, sf.state.sha256], "reason": e.reason}
            if sf.doc_key in store.file_states():  # a file that became unreadable leaves the index
                store.delete_document(sf.doc_key)
            continue
        except ProviderError as e:  # embedding failed after retries: the file keeps its old chunks
            report.skipped.append(SkippedFile(sf.doc_key, f"embedding failed: {e}"))
            continue
        if done is None:
            continue
        if failed is not None:
            failed.pop(sf.doc_key, None)
        if sf in added:
            report.added += 1
        else:
            report.updated += 1
        report.chunks += done[0]
        report.definitions += done[1]


def ingest_or_serve(run_ingest, has_data, tool_name: str):
    """The ingest a first search needs: ``run_ingest(lock_timeout_s)`` (0 = do not wait for another
    writer when the index already holds data, ``None`` = the configured wait). When it fails to
    write (:func:`is_write_failure`: read-only folder, full disk, another process holding the lock)
    and the index holds data (``has_data()``), the index is served as it is: logged, ``None``
    returned; any other failure is raised. An implicit ingest that purged documents says so in the
    log. Returns the :class:`~docstrata.models.IngestReport` or ``None``."""
    import logging

    from .errors import LockTimeout
    from .redact import redact

    log = logging.getLogger("docstrata")
    had_data = has_data()
    try:  # an index with data is searched at once while another process updates it
        report = run_ingest(0 if had_data else None)
    except Exception as e:  # noqa: BLE001 - decided here: serve what exists, or re-raise
        if not is_write_failure(e) or not (had_data or has_data()):
            raise
        level = logging.INFO if isinstance(e, LockTimeout) else logging.WARNING
        log.log(
            level,
            "tool '%s': the index is not updated by this process (%s); searching it as it is",
            tool_name,
            redact(e).splitlines()[0][:300],
        )
        return None
    if report is not None and report.removed:  # an implicit ingest never purges silently
        log.warning(
            "tool '%s': %d document(s) removed from the index: their files are gone from the source",
            tool_name,
            report.removed,
        )
    return report
