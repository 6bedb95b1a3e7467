"""Persistence behind one :class:`~docstrata.store.base.Store` protocol.

``open_store(database_config, tool_name, base_dir, dim)`` picks the backend.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ConfigError
from .base import Store, StoredChunk

if TYPE_CHECKING:  # the pydantic config models are not imported to open a store (~0.3 s of a fresh process)
    from ..config import DatabaseConfig


def open_store(db: DatabaseConfig, tool: str, base_dir: str | Path, dim: int) -> Store:
    """Open (creating if needed) the index of ``tool``.

    Raises :class:`~docstrata.errors.StoreError` when the database is unreachable or
    misconfigured (never a silent fallback to memory), :class:`ConfigError` for an unknown provider.
    """
    if db.provider == "embedded":
        from .embedded import EmbeddedStore

        root = Path(db.path) if db.path else Path(base_dir) / ".docstrata"
        if not root.is_absolute():
            root = Path(base_dir) / root
        return EmbeddedStore(root / tool, dim=dim)
    if db.provider == "in-memory":
        from .embedded import EmbeddedStore

        return EmbeddedStore(None, dim=dim)
    if db.provider in ("chromadb", "faiss"):
        root = Path(db.path) if db.path and db.provider == "faiss" else Path(base_dir) / ".docstrata"
        if not root.is_absolute():
            root = Path(base_dir) / root
        if db.provider == "faiss":
            from .faiss_store import FaissStore

            return FaissStore(root / tool, dim=dim, index=db.index)
        from .chroma import ChromaStore

        chroma_path = db.path
        if chroma_path and chroma_path != ":memory:" and not Path(chroma_path).is_absolute():
            chroma_path = str(Path(base_dir) / chroma_path)
        return ChromaStore(
            root / tool,
            dim=dim,
            tool=tool,
            chroma_path=chroma_path,
            collection=db.collection_name,
            server_url=db.chroma_server,
            api_key_env=db.api_key_env,
        )
    if db.provider == "postgres":
        from .postgres import PostgresStore

        return PostgresStore(db.dsn, tool=tool, dim=dim)
    if db.provider == "qdrant":
        from .qdrant import QdrantStore

        path = db.path
        if path and not Path(path).is_absolute():
            path = str(Path(base_dir) / path)
        return QdrantStore(url=db.url, path=path, tool=tool, dim=dim, api_key_env=db.api_key_env)
    raise ConfigError(f"unknown database provider {db.provider!r}", path="database.provider")


__all__ = ["Store", "StoredChunk", "open_store"]
