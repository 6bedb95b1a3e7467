"""Fast inference backends for a local BERT-style sentence-transformers model (issue 18).

The model's transformer is exported **locally** from its own weights with ``torch.onnx`` at first
use (nothing is downloaded) and cached under ``$DOCSTRATA_CACHE_DIR`` (default
``~/.cache/docstrata``) as ``onnx/<model>-<key>/model.onnx``; the key is the weights file's size
and a digest of its bytes, so it changes when the weights do and a reinstall of the same model
reuses the export. Mean pooling and L2 normalisation follow in numpy, as the model's own
``1_Pooling`` config prescribes (mean of the token states under the attention mask).

Backends (config ``embedding_backend``):

* ``openvino``: OpenVINO runs the ONNX graph; on 2 cores ~2× PyTorch's windows/s with the same
  vectors (cosine ≥ 0.99996 to PyTorch's on SciFact abstracts).
* ``onnx``: ONNX Runtime, fp32 (about PyTorch's speed here).
* ``onnx-int8``: ONNX Runtime on a dynamically int8-quantised copy (faster, but vectors move:
  cosine mean 0.93 to fp32 on SciFact abstracts, so it is never the default).

Tokenisation uses the model's ``tokenizer.json`` through ``tokenizers`` (no ``transformers``
import), truncating at the model's ``max_seq_length`` as sentence-transformers does.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import numpy as np

from .errors import ConfigError

BACKENDS = ("torch", "openvino", "onnx", "onnx-int8")
_EXPORT_LOCK = threading.Lock()
_ENCODERS: dict[tuple, "RuntimeEncoder"] = {}
_ENCODERS_LOCK = threading.Lock()


def cache_dir() -> Path:
    """Where exported models are kept: ``$DOCSTRATA_CACHE_DIR`` or ``~/.cache/docstrata``."""
    return Path(os.environ.get("DOCSTRATA_CACHE_DIR") or Path.home() / ".cache" / "docstrata")


def default_backend() -> str:
    """``openvino`` when the package is installed, else ``torch``."""
    import importlib.util

    return "openvino" if importlib.util.find_spec("openvino") is not None else "torch"


class FastTokenizer:
    """The subset of a Hugging Face tokenizer call that :class:`~docstrata.embed.Embedder` uses,
    over the model's ``tokenizer.json``: ``tok(text, add_special_tokens=False,
    return_offsets_mapping=True)`` → ``{"input_ids": [...], "offset_mapping": [(start, end), ...]}``."""

    def __init__(self, model_dir: Path, max_length: int):
        from tokenizers import Tokenizer

        self._plain = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._plain.no_padding()
        self._plain.no_truncation()
        self._batch = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._batch.enable_truncation(max_length)
        self._batch.enable_padding(pad_id=self._batch.token_to_id("[PAD]") or 0, pad_token="[PAD]")

    def __call__(self, text: str, add_special_tokens: bool = True, **_ignored) -> dict:
        enc = self._plain.encode(text, add_special_tokens=add_special_tokens)
        return {"input_ids": enc.ids, "offset_mapping": enc.offsets}

    def batch(self, texts: list[str]) -> dict[str, np.ndarray]:
        """Padded, truncated model inputs for ``texts`` (int64 arrays of shape (n, longest))."""
        encs = self._batch.encode_batch(texts)
        return {
            "input_ids": np.array([e.ids for e in encs], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encs], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encs], dtype=np.int64),
        }


def _onnx_path(model_dir: Path, quantized: bool) -> Path:
    weights = next(
        (model_dir / n for n in ("model.safetensors", "pytorch_model.bin") if (model_dir / n).exists()), None
    )
    if weights is None:
        raise ConfigError(f"no weights (model.safetensors) in {model_dir} to export", path="embedding_backend")
    out = cache_dir() / "onnx" / f"{model_dir.name}-{weights.stat().st_size:x}-{_weights_digest(weights)}"
    path = out / ("model-int8.onnx" if quantized else "model.onnx")
    if path.exists():
        return path
    with _EXPORT_LOCK:
        if not (out / "model.onnx").exists():
            _export(model_dir, out)
        if quantized and not path.exists():
            from onnxruntime.quantization import QuantType, quantize_dynamic

            tmp = path.with_suffix(f".tmp{os.getpid()}")
            quantize_dynamic(str(out / "model.onnx"), str(tmp), weight_type=QuantType.QInt8)
            os.replace(tmp, path)
    return path


def _weights_digest(weights: Path) -> str:
    """The first 16 hex digits of the sha256 of ``weights``: exports are named by the weights' bytes,
    so a reinstall of the same model (a new virtualenv, an upgrade of docstrata) reuses its export
    instead of exporting again (a torch + transformers import and an export: ~7 s of CPU) and
    leaving another copy (173 MB for the bundled model) in the cache. The digest is worked out once
    per file version (its path, size and modification time) and remembered under ``onnx/digests``."""
    import hashlib

    st = weights.stat()
    where = hashlib.sha256(str(weights.resolve()).encode()).hexdigest()[:12]
    memo = cache_dir() / "onnx" / "digests" / f"{where}-{st.st_size:x}-{st.st_mtime_ns:x}"
    try:
        digest = memo.read_text(encoding="ascii").strip()
    except (OSError, ValueError):
        digest = ""
    if len(digest) != 64:
        h = hashlib.sha256()
        with open(weights, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        digest = h.hexdigest()
        try:
            memo.parent.mkdir(parents=True, exist_ok=True)
            tmp = memo.with_name(f"{memo.name}.tmp{os.getpid()}")
            tmp.write_text(digest, encoding="ascii")
            os.replace(tmp, memo)
        except OSError:
            pass  # a read-only cache: the digest is worked out again next time
    return digest[:16]


def _export(model_dir: Path, out: Path) -> None:
    """Export the transformer (token states) to ``out/model.onnx`` with torch.onnx, from local files."""
    import warnings

    import torch
    from transformers import AutoModel

    class _States(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.model(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    model = AutoModel.from_pretrained(str(model_dir), local_files_only=True).eval()
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / f"model.onnx.tmp{os.getpid()}"
    dummy = torch.ones((2, 8), dtype=torch.long)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            _States(model),
            (dummy, dummy, torch.zeros_like(dummy)),
            str(tmp),
            input_names=names,
            output_names=["token_states"],
            opset_version=17,
            dynamo=False,
            dynamic_axes={n: {0: "batch", 1: "tokens"} for n in names + ["token_states"]},
        )
    os.replace(tmp, out / "model.onnx")


def shared_encoder(model_dir: str | Path, backend: str, threads: int | None = None) -> "RuntimeEncoder":
    """The process's one :class:`RuntimeEncoder` for ``model_dir`` run by ``backend`` on
    ``threads`` (made on first use, like the PyTorch path's one model per process): every tool of a
    configuration, and every tool opened again in one process, shares its compiled graph and
    tokenizers instead of compiling again (~0.4 s and the graph's memory each). The key holds the
    export cache folder and the weights file's size and time, so a changed model or cache is made anew.
    Raises as :class:`RuntimeEncoder` does; a failure is not kept."""
    model_dir = Path(model_dir)
    threads = threads or _default_threads()
    weights = [
        (n, (model_dir / n).stat()) for n in ("model.safetensors", "pytorch_model.bin") if (model_dir / n).exists()
    ]
    key = (
        str(model_dir.resolve()),
        str(cache_dir()),
        tuple((n, st.st_size, st.st_mtime_ns) for n, st in weights),
        backend,
        threads,
    )
    with _ENCODERS_LOCK:
        encoder = _ENCODERS.get(key)
        if encoder is None:
            encoder = _ENCODERS[key] = RuntimeEncoder(model_dir, backend, threads)
    return encoder


def _default_threads() -> int:
    return max(1, min(os.cpu_count() or 1, 4))


class RuntimeEncoder:
    """Encodes texts with an exported model on OpenVINO or ONNX Runtime.

    ``encode(texts, batch_size)`` → (n, dim) float32, L2-normalised. Raises :class:`ConfigError`
    when the backend's package is missing or the model cannot be exported.
    """

    def __init__(self, model_dir: str | Path, backend: str, threads: int | None = None):
        model_dir = Path(model_dir)
        cfg = (
            json.loads((model_dir / "sentence_bert_config.json").read_text())
            if (model_dir / "sentence_bert_config.json").exists()
            else {}
        )
        self.max_seq_length = int(cfg.get("max_seq_length", 256))
        self.tokenizer = FastTokenizer(model_dir, self.max_seq_length)
        self.dim = int(json.loads((model_dir / "1_Pooling" / "config.json").read_text())["word_embedding_dimension"])
        threads = threads or _default_threads()
        try:
            path = _onnx_path(model_dir, quantized=backend == "onnx-int8")
            if backend == "openvino":
                import openvino as ov

                # CACHE_DIR keeps the compiled graph, so a later process (a CLI search) skips compiling.
                compiled = ov.Core().compile_model(
                    str(path),
                    "CPU",
                    {
                        "INFERENCE_NUM_THREADS": threads,
                        "PERFORMANCE_HINT": "LATENCY",
                        "CACHE_DIR": str(path.parent / "openvino-cache"),
                    },
                )
                # A compiled model's default infer request serves one call at a time ("Infer Request
                # is busy" under concurrent searches): each thread gets its own request.
                local = threading.local()

                def run(feed):
                    req = getattr(local, "request", None)
                    if req is None:
                        req = local.request = compiled.create_infer_request()
                    return req.infer(feed)[0]

                self._run = run
            elif backend in ("onnx", "onnx-int8"):
                import onnxruntime as ort

                so = ort.SessionOptions()
                so.intra_op_num_threads = threads
                sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
                self._run = lambda feed: sess.run(None, feed)[0]
            else:
                raise ConfigError(
                    f"embedding_backend must be one of {', '.join(BACKENDS)}, got {backend!r}", path="embedding_backend"
                )
        except ImportError as e:
            raise ConfigError(
                f"embedding_backend {backend!r} needs {e.name} (pip install {e.name})", path="embedding_backend"
            ) from None

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """Mean-pooled, L2-normalised embeddings of ``texts``: a (len(texts), dim) float32 array in
        input order; texts of similar length are batched together (``batch_size`` a batch)."""
        order = np.argsort([-len(t) for t in texts], kind="stable")  # similar lengths share a batch
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), batch_size):
            idx = order[start : start + batch_size]
            feed = self.tokenizer.batch([texts[i] for i in idx])
            states = np.asarray(self._run(feed), dtype=np.float32)
            mask = feed["attention_mask"][..., None].astype(np.float32)
            vecs = (states * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)
            out[idx] = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
        return out
