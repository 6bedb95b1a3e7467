"""Find the files under a tool's ``source`` and tell which changed since the last ingest.

``source`` is a file, a folder (searched recursively) or a glob, relative to the config
file. A file's identity is its ``doc_key``: the POSIX path relative to the source root
(the folder itself, the glob's fixed prefix, or a single file's parent), so moving the
project folder keeps every id valid (DESIGN §4).
"""

from __future__ import annotations

import glob
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from .errors import SourceError
from .models import FileState, SourceFile

_HIDDEN_DIRS = {".docstrata", ".git", "__pycache__", "node_modules", ".venv"}


def file_sha256(path: str | Path) -> str:
    """Hex sha256 of a file's bytes, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def source_file(path: str | Path, doc_key: str | None = None) -> SourceFile:
    """One file on disk as a :class:`~docstrata.models.SourceFile` (its size, mtime and sha256
    read now), keyed ``doc_key`` or its file name — a single document given by hand, as
    ``docstrata inspect`` takes it. Raises :class:`OSError` when it cannot be read."""
    p = Path(path)
    st = p.stat()
    return SourceFile(doc_key or p.name, str(p.resolve()), FileState(st.st_size, st.st_mtime_ns, file_sha256(p)))


def _abs(p: Path) -> Path:
    # Not Path.resolve(): a symlink keeps its own name (and a dangling one is reported, not renamed).
    return Path(os.path.abspath(p))


@dataclass
class Listing:
    """The files under a source root, and what could not be listed or was not followed."""

    root: Path
    files: list[Path]
    unlistable: list[tuple[str, str]] = field(default_factory=list)  # (folder relative to root, reason)
    outside: list[str] = field(default_factory=list)  # doc_keys of symlinks leading outside the root


def _inside(path: Path, real_root: Path) -> bool:
    try:
        Path(os.path.realpath(path)).relative_to(real_root)
        return True
    except ValueError:
        return False


def list_source(source: str, base_dir: str | Path, follow_symlinks: bool = False) -> Listing:
    """The files of ``source`` resolved against ``base_dir`` (see :func:`resolve_source`).

    A symlink (to a file or a folder) whose target lies outside the source root is not followed
    unless ``follow_symlinks``; it is listed in ``outside``. A folder that cannot be listed is in
    ``unlistable`` (the caller keeps what it had indexed from it). Raises :class:`SourceError`
    if nothing exists at ``source``.
    """
    base = Path(base_dir)
    pattern = os.path.expanduser(source)
    if any(ch in pattern for ch in "*?["):
        full = pattern if os.path.isabs(pattern) else str(base / pattern)
        fixed = Path(full.split("*")[0].split("?")[0].split("[")[0])
        root = _abs(fixed if fixed.is_dir() else fixed.parent)
        found = sorted(
            _abs(Path(p)) for p in glob.glob(full, recursive=True) if Path(p).is_file() or Path(p).is_symlink()
        )
        return _keep_inside(Listing(root, found), follow_symlinks)
    p = Path(pattern)
    p = p if p.is_absolute() else base / p
    if p.is_file():
        return Listing(_abs(p.parent), [_abs(p)])  # a file the operator named is read wherever it points
    if p.is_dir():
        root = _abs(p)
        listing = Listing(root, [])
        seen_dirs: set[str] = set()

        def on_error(e: OSError) -> None:
            where = Path(e.filename or root)
            rel = where.relative_to(root).as_posix() if where != root and where.is_relative_to(root) else "."
            listing.unlistable.append((rel, e.strerror or str(e)))

        for dirpath, dirnames, filenames in os.walk(p, onerror=on_error, followlinks=follow_symlinks):
            if follow_symlinks:  # a symlink loop is walked once
                real = os.path.realpath(dirpath)
                if real in seen_dirs:
                    dirnames[:] = []
                    continue
                seen_dirs.add(real)
            dirnames[:] = sorted(d for d in dirnames if d not in _HIDDEN_DIRS and not d.startswith("."))
            listing.files += [Path(dirpath) / f for f in filenames if not f.startswith(".")]
            if not follow_symlinks:  # symlinked folders are not walked; say so when they lead outside
                listing.files += [Path(dirpath) / d for d in dirnames if os.path.islink(Path(dirpath) / d)]
        listing.files = sorted(_abs(f) for f in listing.files)
        return _keep_inside(listing, follow_symlinks)
    raise SourceError(f"source '{source}' does not exist (resolved to {p})")


def _keep_inside(listing: Listing, follow_symlinks: bool) -> Listing:
    real_root = Path(os.path.realpath(listing.root))
    kept = []
    for f in listing.files:
        if f.is_symlink() and not follow_symlinks and not _inside(f, real_root):
            listing.outside.append(doc_key_for(f, listing.root))
        elif f.is_dir():
            continue  # a symlinked folder inside the root: its files are listed under their own path
        else:
            kept.append(f)
    listing.files = kept
    return listing


def resolve_source(source: str, base_dir: str | Path) -> tuple[Path, list[Path]]:
    """Return ``(root, files)`` for ``source`` resolved against ``base_dir``.

    Raises :class:`SourceError` if nothing exists there.
    """
    listing = list_source(source, base_dir)
    return listing.root, listing.files


def doc_key_for(path: Path, root: Path) -> str:
    """POSIX path of ``path`` relative to ``root``."""
    return path.relative_to(root).as_posix()


@dataclass
class ChangeSet:
    """Files under a source compared with the stored file states."""

    root: Path
    added: list[SourceFile] = field(default_factory=list)
    changed: list[SourceFile] = field(default_factory=list)
    unchanged: list[SourceFile] = field(default_factory=list)
    touched: list[SourceFile] = field(default_factory=list)  # mtime moved, bytes identical
    removed: list[str] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)  # (doc_key, reason)
    ignored: list[str] = field(default_factory=list)  # doc_keys of files whose type is not handled
    stamps: dict[str, list[int]] = field(default_factory=dict)  # doc_key → [ctime_ns, inode]
    kept_dirs: list[str] = field(default_factory=list)  # folders not listable: their documents are kept

    @property
    def to_process(self) -> list[SourceFile]:
        """The files to convert and index: the added, then the changed."""
        return self.added + self.changed


def scan(
    source: str,
    base_dir: str | Path,
    known: dict[str, FileState],
    extensions: frozenset[str] | None = None,
    force: bool = False,
    *,
    stamps: dict[str, list[int]] | None = None,
    verify: bool = False,
    follow_symlinks: bool = False,
) -> ChangeSet:
    """Compare the files under ``source`` with ``known`` (doc_key → stored state).

    A file is re-read (sha256) when any cheap check says it may have changed: its size, mtime,
    ctime or inode differs from the stored state and ``stamps`` (doc_key → ``[ctime_ns, inode]``
    of the last scan; a missing stamp counts as a difference), or ``verify`` is set. ctime cannot
    be set from user space, so ``cp -p``, ``rsync -a``, ``tar x`` and ``touch -r`` are all seen.
    The file counts as changed only when the sha256 differs. ``extensions`` (lower case, no dot)
    filters files; others are not listed at all. ``force`` marks every file changed.
    ``ChangeSet.stamps`` holds the new stamps of every file seen.

    Documents under a folder that cannot be listed are kept (reported in ``unreadable``, never in
    ``removed``); a symlink leading outside the root is reported and not followed unless
    ``follow_symlinks``.
    """
    listing = list_source(source, base_dir, follow_symlinks=follow_symlinks)
    root = listing.root
    stamps = stamps or {}
    cs = ChangeSet(root=root)
    seen: set[str] = set()
    for key in listing.outside:  # reported, not followed; anything once indexed through it is purged below
        cs.unreadable.append(
            (key, "symlink leading outside the source root, not followed (set follow_symlinks: true to follow it)")
        )
    for path in listing.files:
        ext = path.suffix.lower().lstrip(".")
        key = doc_key_for(path, root)
        if extensions is not None and ext not in extensions:
            cs.ignored.append(key)
            continue
        seen.add(key)
        try:
            st = path.stat()
            stamp = [st.st_ctime_ns, st.st_ino]
            old = known.get(key)
            if (
                old is not None
                and not force
                and not verify
                and old.size == st.st_size
                and old.mtime_ns == st.st_mtime_ns
                and stamps.get(key) == stamp
            ):
                cs.unchanged.append(SourceFile(key, str(path), old))
                cs.stamps[key] = stamp
                continue
            state = FileState(st.st_size, st.st_mtime_ns, file_sha256(path))
        except OSError as e:
            cs.unreadable.append((key, f"cannot read: {e.strerror or e}"))
            continue
        cs.stamps[key] = stamp
        sf = SourceFile(key, str(path), state)
        if old is None:
            cs.added.append(sf)
        elif force or old.sha256 != state.sha256:
            cs.changed.append(sf)
        elif old != state:
            cs.touched.append(sf)
        else:
            cs.unchanged.append(sf)  # only the ctime/inode stamp moved
    kept_dirs = [d for d, _ in listing.unlistable]
    for d, reason in listing.unlistable:
        under = [k for k in known if d == "." or k.startswith(d.rstrip("/") + "/")]
        cs.unreadable.append((d + "/", f"cannot list folder: {reason}; its {len(under)} indexed document(s) are kept"))
        seen.update(under)
    cs.removed = sorted(k for k in known if k not in seen)
    cs.kept_dirs = kept_dirs
    return cs
