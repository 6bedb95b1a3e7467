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


def _abs(p: Path) -> Path:
    # Not Path.resolve(): a symlink keeps its own name (and a dangling one is reported, not renamed).
    return Path(os.path.abspath(p))


def resolve_source(source: str, base_dir: str | Path) -> tuple[Path, list[Path]]:
    """Return ``(root, files)`` for ``source`` resolved against ``base_dir``.

    Raises :class:`SourceError` if nothing exists there.
    """
    base = Path(base_dir)
    pattern = os.path.expanduser(source)
    if any(ch in pattern for ch in "*?["):
        full = pattern if os.path.isabs(pattern) else str(base / pattern)
        fixed = Path(full.split("*")[0].split("?")[0].split("[")[0])
        root = fixed if fixed.is_dir() else fixed.parent
        files = [Path(p) for p in glob.glob(full, recursive=True) if Path(p).is_file() or Path(p).is_symlink()]
        return _abs(root), sorted(_abs(p) for p in files)
    p = Path(pattern)
    p = p if p.is_absolute() else base / p
    if p.is_file():
        return _abs(p.parent), [_abs(p)]
    if p.is_dir():
        files = []
        for dirpath, dirnames, filenames in os.walk(p):
            dirnames[:] = sorted(d for d in dirnames if d not in _HIDDEN_DIRS and not d.startswith("."))
            files += [Path(dirpath) / f for f in filenames if not f.startswith(".")]
        return _abs(p), sorted(_abs(f) for f in files)
    raise SourceError(f"source '{source}' does not exist (resolved to {p})")


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

    @property
    def to_process(self) -> list[SourceFile]:
        return self.added + self.changed


def scan(source: str, base_dir: str | Path, known: dict[str, FileState],
         extensions: frozenset[str] | None = None, force: bool = False) -> ChangeSet:
    """Compare the files under ``source`` with ``known`` (doc_key → stored state).

    A file is re-read (sha256) only when its size or mtime differs from the stored state;
    it counts as changed only when the sha256 differs too. ``extensions`` (lower case,
    no dot) filters files; others are not listed at all. ``force`` marks every file changed.
    """
    root, files = resolve_source(source, base_dir)
    cs = ChangeSet(root=root)
    seen: set[str] = set()
    for path in files:
        ext = path.suffix.lower().lstrip(".")
        key = doc_key_for(path, root)
        if extensions is not None and ext not in extensions:
            cs.ignored.append(key)
            continue
        seen.add(key)
        try:
            st = path.stat()
            old = known.get(key)
            if old is not None and not force and old.size == st.st_size and old.mtime_ns == st.st_mtime_ns:
                cs.unchanged.append(SourceFile(key, str(path), old))
                continue
            state = FileState(st.st_size, st.st_mtime_ns, file_sha256(path))
        except OSError as e:
            cs.unreadable.append((key, f"cannot read: {e.strerror or e}"))
            continue
        sf = SourceFile(key, str(path), state)
        if old is None:
            cs.added.append(sf)
        elif force or old.sha256 != state.sha256:
            cs.changed.append(sf)
        else:
            cs.touched.append(sf)
    cs.removed = sorted(k for k in known if k not in seen)
    return cs
