"""A hit the query names (a section reference, a record id) is placed first in every search mode and
every store (trial 16 item 5): real embedding model, real stores, the same small corpus each time."""

from __future__ import annotations

import textwrap
import uuid

import pytest

import docstrata
from docstrata.fusion import FusedHit
from docstrata.search import pin_first

from .pg_server import pg_dsn  # noqa: F401 - session fixture

AGREEMENT = """\
# Supply Agreement

## Article II Orders

### Section 2.1 Purchase Orders

Orders are placed in writing. A purchase order states the goods, quantities and the requested delivery date.

### Section 2.2 Acceptance

The Supplier shall accept or reject an order within two Business Days. Silence is acceptance, subject to Section 5.3.

## Article V Termination

### Section 5.1 Termination for Convenience

Either party may terminate this Agreement for convenience on ninety days written notice to the other party.

### Section 5.3 Termination for Cause

A party may end the contract at once if the other commits a material breach and does not cure it in thirty days.
"""

PRODUCTS = """\
sku,title,description,category
P-100,Trail Runner,Lightweight running shoe for rocky trails,shoes
P-200,Summit Jacket,Waterproof shell jacket for alpine climbing,jackets
P-201,Rain Poncho,Packable poncho that keeps you dry in sudden showers,jackets
P-300,Headlamp,Rechargeable headlamp for night hiking,accessories
"""

MODES = ["hybrid", "semantic", "keyword", "exact"]


@pytest.fixture(scope="module", params=["embedded", "in-memory", "faiss", pytest.param("postgres", marks=pytest.mark.slow)])
def tools(request, tmp_path_factory):
    if request.param == "faiss":
        pytest.importorskip("faiss", reason="needs the 'faiss' extra")
    root = tmp_path_factory.mktemp("pinning")
    (root / "agreement.md").write_text(AGREEMENT, encoding="utf-8")
    (root / "products.csv").write_text(PRODUCTS, encoding="utf-8")
    db = request.param
    if db == "postgres":
        db = f"{{provider: postgres, dsn: '{request.getfixturevalue('pg_dsn')}'}}"
    suffix = uuid.uuid4().hex[:6]  # a fresh postgres schema per run
    (root / "agent.yaml").write_text(textwrap.dedent(f"""\
        tools:
          - name: docs{suffix}
            type: hierarchical_document
            source: agreement.md
            database: {db}
          - name: prods{suffix}
            type: vectorstore
            source: products.csv
            id_field: sku
            vector_field: [title, description]
            database: {db}
        """), encoding="utf-8")
    ts = docstrata.open(root / "agent.yaml")
    for t in ts:
        t.ingest()
    yield ts[f"docs{suffix}"], ts[f"prods{suffix}"]
    for t in ts:
        if hasattr(t.store, "drop"):
            t.store.drop()
    ts.close()


@pytest.mark.parametrize("mode", MODES)
def test_a_named_section_is_first_in_every_mode(tools, mode):
    docs, _ = tools
    hits = docs.search("Section 5.3", top_k=3, mode=mode)
    assert hits[0].section_id == "5.3" and hits[0].pinned and hits[0].exact_match, [h.section_id for h in hits]
    assert not any(h.pinned for h in hits[1:])
    assert hits.confidence.level == "high"
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("mode", MODES)
def test_a_record_id_is_an_exact_key_in_every_mode(tools, mode):
    _, prods = tools
    hits = prods.search("P-201", top_k=3, mode=mode)
    # keyword mode: "P-201" is no word of the record's text, yet the id names it
    assert hits and hits[0].id == "P-201" and hits[0].pinned, [h.id for h in hits]
    assert hits.confidence.level == "high"


def test_pin_first_adds_a_pinned_chunk_the_mode_did_not_find_and_keeps_the_rest_in_order():
    fused = [FusedHit("d#1", 0.3, {"semantic": 1}), FusedHit("d#2", 0.2, {"semantic": 2}),
             FusedHit("d#3", 0.1, {"semantic": 3})]
    out = pin_first(fused, {"d#3", "d#9"}, [("d#9", 1.0), ("d#3", 1.0)])
    assert [h.chunk_id for h in out] == ["d#3", "d#9", "d#1", "d#2"]
    assert out[0].ranks == {"semantic": 3, "exact": 2} and out[1].ranks == {"exact": 1} and out[1].score == 0.0
    assert pin_first(fused, set(), [("d#9", 1.0)]) == fused
