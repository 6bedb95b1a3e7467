"""The OpenVINO / ONNX Runtime backends give PyTorch's windows and vectors (issue 18)."""

from __future__ import annotations

import numpy as np
import pytest

from docstrata.embed import Embedder

TEXTS = ["Section 4.2(a) applies to the Licensee.", "Mitochondria produce ATP through oxidative phosphorylation. " * 30,
         "café — naïve façade; 数据库 检索", "x"]


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["openvino", "onnx"])
def test_runtime_backend_matches_torch(backend, tmp_path, monkeypatch):
    pytest.importorskip("openvino" if backend == "openvino" else "onnxruntime")
    monkeypatch.setenv("DOCSTRATA_CACHE_DIR", str(tmp_path))  # exported here from the bundled weights
    torch_e, fast_e = Embedder(backend="torch"), Embedder(backend=backend)
    assert fast_e.backend == backend and fast_e.model_id == torch_e.model_id
    assert list(tmp_path.rglob("model.onnx"))
    for t in TEXTS:
        assert fast_e.count_tokens(t) == torch_e.count_tokens(t)
        assert fast_e.windows("Title > Part", t) == torch_e.windows("Title > Part", t)
    a = torch_e.embed_chunks([("ctx", t) for t in TEXTS])
    b = fast_e.embed_chunks([("ctx", t) for t in TEXTS])
    for va, vb in zip(a, b):
        assert va.shape == vb.shape
        assert np.min(np.sum(va * vb, axis=1)) > 0.9999
    assert np.allclose(np.linalg.norm(np.concatenate(b), axis=1), 1.0, atol=1e-5)


def test_unknown_backend_is_a_config_error():
    from docstrata.errors import ConfigError

    with pytest.raises(ConfigError, match="embedding_backend"):
        Embedder(backend="tpu")
