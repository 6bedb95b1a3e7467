"""Cross-references into another act, and dotted numbers that are no section (session 14: a
fresh-document check found ``l'article 1er, 7°, de l'arrêté royal du 8 janvier 1992`` resolved to
the citing law's own article 1, and ``127.0.0.1`` / ``BIND 9.18.41`` read as section references).

Real inputs, read through :func:`docstrata.pipeline.parse_file` as ``docstrata inspect`` reads them:
a whole Belgian law in Justel's Markdown (``tests/fixtures/be-laws-fr``), a German federal act
(``tests/fixtures/bdsg-excerpt``) and the BIND 9 manual in plain text (``tests/fixtures/bind9-arm``).
The mechanisms are the citation grammar's (``grammar.external_document``, ``grammar.version_or_address``,
language packs ``fr``, ``de``, ``en``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file

FIXTURES = Path(__file__).parent / "fixtures"


def _parse(*parts: str):
    # word counts as tokens: chunk sizes do not matter here, only what each reference resolves to
    return parse_file(source_file(FIXTURES.joinpath(*parts)), PipelineSettings(count_tokens=lambda s: len(s.split())))


@pytest.fixture(scope="module")
def extraditions():
    return _parse("be-laws-fr", "loi-extraditions-1874.md")


def _refs(parsed, source: str) -> list[tuple[str, str | None, str | None]]:
    """(target, section id, document) of each reference ``docstrata inspect`` lists in ``source``
    (its numbered paragraphs included: ``19(1)`` is in ``19``)."""
    return [
        (x.target, x.section_id, x.document)
        for x in parsed.tree.cross_references
        if (x.source_section_id or "").split("(")[0] == source
    ]


def test_a_range_of_another_laws_articles_never_resolves_to_this_laws_own(extraditions):
    # Art. 8: "Les articles 6 à 14 de la loi du 17 avril 1878 … sont applicables aux infractions prévues
    # par l'article 1er de la présente loi" — the law has articles 6 to 12 of its own
    ids = set(extraditions.section_ids)
    assert {f"article-{n}" for n in range(6, 13)} <= ids
    refs = _refs(extraditions, "article-8")
    external = [r for r in refs if (r[2] or "").startswith("loi du 17 avril 1878")]
    assert [t for t, _, _ in external] == [f"article-{n}" for n in range(6, 15)]  # the whole range
    assert all(sid is None for _, sid, _ in external)
    assert ("article-1", "article-1", None) in refs  # "l'article 1er de la présente loi": its own article 1


def test_each_reference_of_a_chain_takes_its_own_act(extraditions):
    # Art. 4: "l'article 6 de la loi du 1er octobre 1833 et l'article 7 de la présente loi"
    refs = _refs(extraditions, "article-4")
    assert ("article-6", None, "loi du 1er octobre 1833") in refs
    assert ("article-7", "article-7", None) in refs
    # Art. 5: "par les articles 87 à 90 du code d'instruction criminelle"; "à l'article 1er": its own
    refs = _refs(extraditions, "article-5")
    assert [t for t, sid, doc in refs if doc == "code d'instruction criminelle" and sid is None] == [
        "article-87", "article-88", "article-89", "article-90"]
    assert ("article-1", "article-1", None) in refs


def test_justel_amendment_notes_cite_the_amending_act(extraditions):
    # "**Art. 2bis.** `L 31-07-1985, art. 3` …": article 3 of the law of 31 July 1985, not this law's
    refs = _refs(extraditions, "article-2bis")
    assert ("article-3", None, "L 31-07-1985") in refs
    assert ("article-4", None, "L 2007-05-15/50") in refs
    assert not any(sid == "article-3" for _, sid, _ in refs)


def test_no_reference_naming_another_act_resolves_here(extraditions):
    refs = [x for x in extraditions.tree.cross_references if x.document]
    assert len(refs) > 20
    assert all(x.section_id is None for x in refs)
    # the chunks carry the same: a chunk's references to another act keep its name for cross-document resolution
    chunk_refs = [x for c in extraditions.chunks for x in c.cross_references if x.document]
    assert {x.document for x in chunk_refs} >= {"code d'instruction criminelle", "loi du 1er octobre 1833"}
    assert all(x.section_id is None for x in chunk_refs)


def test_a_royal_decree_cited_with_pinpoints_is_another_act():
    # the 1844 pensions law lists supplements "accordé en application de l'article 9 de l'arrêté royal du
    # 11 mars 1993", "des articles 6, 7, 8, 12, 17 et 22 de l'arrêté royal du 6 juillet 1997", "de
    # l'article 3, §§2 et 3 de la loi du 5 avril 1955", "par l'article 10, § 1, de cet arrêté" (the
    # royal decree named before) — and has articles 1 to 4, 8 and 9 of its own
    pensions = _parse("be-laws-fr", "pensions-1844-extrait.md")
    assert {"article-1", "article-3", "article-4", "article-8", "article-9"} <= set(pensions.section_ids)
    refs = [(x.target, x.section_id, x.document) for x in pensions.tree.cross_references]
    assert ("article-9", None, "arrêté royal du 11 mars 1993 relatif au brevet") in refs
    assert [t for t, sid, doc in refs if (doc or "").startswith("arrêté royal du 6 juillet 1997") and sid is None] == [
        "article-6", "article-7", "article-8", "article-12", "article-17", "article-22"]
    assert ("article-3(2)", None, "loi du 5 avril 1955 relative aux traitements des") in refs
    assert ("article-10(1)", None, "de cet arrêté") in refs
    # "articles 3 à 8 de l'arrêté de l'Exécutif flamand du 28 novembre 1990": not this law's 3, 4 and 8
    flemish = [(t, sid) for t, sid, doc in refs if (doc or "").startswith("arrêté de l'Exécutif flamand")]
    assert [t for t, _ in flemish] == [f"article-{n}" for n in range(3, 9)] and all(sid is None for _, sid in flemish)
    # "Pour l'application (des articles 1 et 3)" names no act: this law's own
    assert ("article-1", "article-1", None) in refs and ("article-3", "article-3", None) in refs


def test_german_citations_of_the_gdpr_name_it():
    # BDSG § 19: "gilt Artikel 56 Absatz 1 in Verbindung mit Artikel 4 Nummer 16 der Verordnung (EU)
    # 2016/679", "Artikel 60 Absatz 7 bis 9 und Artikel 65 Absatz 6 der Verordnung (EU) 2016/679";
    # "§ 18 Absatz 2" (no act named) stays this act's
    bdsg = _parse("bdsg-excerpt", "bdsg_2018_auszug.md")
    refs = _refs(bdsg, "19")
    gdpr = "Verordnung (EU) 2016/679"
    for target in ("artikel-56(1)", "artikel-4(16)", "artikel-60(7)", "artikel-65(6)"):
        assert (target, None, gdpr) in refs
    assert any(t == "18(2)" and doc is None for t, _, doc in refs)


def test_addresses_and_releases_in_a_dns_manual_are_no_references():
    # the BIND 9 manual numbers its sections four levels deep (3.4.1.2) and prints 127.0.0.1,
    # 192.168.4.0/24, 10.0.0.1, "BIND 9.0.0", "BIND versions 4.9 and 4.9.1", "versions from 4.9.3", and
    # "patched versions of BIND 4.9.5" (BIND, a product the manual gives versions of, names no document)
    arm = _parse("bind9-arm", "Bv9ARM-extrait.txt")
    assert "3.4.1.2" in arm.section_ids
    text = "".join(s.text for s in arm.tree.sections)
    for shown in ("127.0.0.1", "192.168.4.0/24", "10.0.0.1", "BIND 9.0.0", "4.9.1", "4.9.3", "BIND 4.9.5"):
        assert shown in text
    targets = {x.target for x in arm.tree.cross_references} | {
        x.target for c in arm.chunks for x in c.cross_references}
    assert not {t for t in targets if t[:1].isdigit() and "." in t}, targets
