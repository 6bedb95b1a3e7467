"""Anlagen of gesetze-im-internet XML (fresh-real diagnosis, mechanism 11): an Anlage belongs to the
law, beside its outline units (gesetze-im-internet lists it so), not inside the last Abschnitt or
Teil; and the entries an Anlage numbers (``<DT>1.</DT>``, ``<DT>1.1</DT>``, ``<DT>2.6.1</DT>``) are
items of the Anlage (``Anlage 2 Nummer 1.1``), never the law's own section numbers (an item ``2.``
must not answer ``§ 2``).

Real documents, excerpts with each norm copied unchanged: the Einwegkunststofffondsgesetz (Teile,
Anlage 1 a numbered list, Anlage 2 a table) and the Kohlendioxid-Speicherungsgesetz (Kapitel; its
Anlage 2 a flat list numbered ``1.``, ``1.1``, ``1.1.1`` … ``2.``), tests/fixtures/gesetze-im-internet
(NOTICE.md there). The truth is read from each file's own XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.index.exact import alias_keys, query_section_keys
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

GII = Path(__file__).parent / "fixtures" / "gesetze-im-internet"
EWKFONDSG = GII / "ewkfondsg-excerpt.xml"
KSPG = GII / "kspg-excerpt.xml"


def _tree(path: Path):
    doc = convert_file(SourceFile(path.name, str(path), FileState(0, 0, "")))
    return doc, build_tree(doc)


def _norms(path: Path):
    """``(enbez or gliederungsbez, norm element)`` of every norm of the file, in order."""
    out = []
    for norm in ET.parse(path).getroot().iter("norm"):
        meta = norm.find("metadaten")
        label = meta.findtext("enbez") or meta.findtext("gliederungseinheit/gliederungsbez") or ""
        out.append((" ".join(label.split()), norm))
    return out


def _anlage_labels(norm) -> list[str]:
    """The ``<DT>`` labels of the Anlage's outermost lists, in order."""
    content = norm.find("textdaten/text/Content")
    labels = []
    for dl in content.iter("DL"):
        if any(dl in outer.iter("DL") for outer in content.iter("DL") if outer is not dl):
            continue  # a list inside an entry
        labels += [" ".join((dt.text or "").split()) for dt in dl.findall("DT")]
    return labels


@pytest.fixture(scope="module", params=[EWKFONDSG, KSPG], ids=["ewkfondsg", "kspg"])
def law(request):
    doc, tree = _tree(request.param)
    return request.param, doc, tree


def test_an_anlage_is_a_top_level_sibling_of_the_outline_units(law):
    path, doc, tree = law
    by_id = {s.section_id: s for s in tree.sections}
    outline = [label for label, norm in _norms(path) if norm.find("metadaten/gliederungseinheit") is not None]
    anlagen = [label for label, _ in _norms(path) if label.startswith("Anlage")]
    assert outline and anlagen
    for label in outline + anlagen:
        section = by_id[label.lower().replace(" ", "-")]
        assert section.parent_id is None, label
        assert section.level == 1
    # the last outline unit holds its own paragraphs only
    last = by_id[outline[-1].lower().replace(" ", "-")]
    assert all(not s.section_id.startswith("anlage") for s in tree.sections if s.parent_id == last.section_id)


def test_an_anlages_numbered_entries_are_items_of_the_anlage(law):
    path, doc, tree = law
    by_id = {s.section_id: s for s in tree.sections}
    for label, norm in _norms(path):
        if not label.startswith("Anlage"):
            continue
        anlage = label.lower().replace(" ", "-")
        for dt in _anlage_labels(norm):
            item = by_id[f"{anlage}({dt.rstrip('.')})"]
            assert item.parent_id == anlage and item.number == dt
    # every section numbered by one of an Anlage's dotted entry labels (1.1, 2.6.1) is that entry
    dotted = {dt for label, norm in _norms(path) if label.startswith("Anlage") for dt in _anlage_labels(norm) if "." in dt.rstrip(".")}
    numbered = [s for s in tree.sections if s.number in dotted]
    assert len(numbered) == len(dotted)
    assert all(s.section_id.startswith("anlage-") for s in numbered)


def test_an_anlage_item_never_answers_a_paragraph_citation():
    _, tree = _tree(KSPG)
    by_id = {s.section_id: s for s in tree.sections}
    # Anlage 2 numbers an entry "2." (its last) and "1.1", "1.2.4": § 2 is the law's own § 2
    assert by_id["anlage-2(2)"].number == "2." and by_id["anlage-2(1.2.4)"].parent_id == "anlage-2"
    owners: dict[str, set[str]] = {}  # exact-index key → sections indexed under it
    for s in tree.sections:
        for alias in s.aliases:
            for key in alias_keys(alias):
                owners.setdefault(key, set()).add(s.section_id)

    def answers(query: str) -> set[str]:
        return {sid for keys in query_section_keys(query) for k in keys for sid in owners.get(k, ())}

    assert answers("§ 2") == {"2"}
    assert answers("Anlage 2") == {"anlage-2"}
    assert not any(sid.startswith("anlage") for k in ("1.1", "2", "1.2.4") for sid in owners.get(k, ()))
    # the lettered sub-lists nest under their entry
    assert by_id["anlage-2(1.1.1)(a)"].parent_id == "anlage-2(1.1.1)"
    assert by_id["2"].title.startswith("§ 2") and by_id["2"].parent_id == "kapitel-1"


def test_paragraph_lists_outside_anlagen_are_read_as_before():
    _, tree = _tree(KSPG)
    by_id = {s.section_id: s for s in tree.sections}
    # § 2 Absatz 2 Nummer 1-3, read from the text as the other gii tests read them
    assert [by_id[f"2(2)({n})"].parent_id for n in (1, 2, 3)] == ["2(2)"] * 3


def test_bgb_unterkapitel_nest_under_their_kapitel_and_the_juris_placeholder_is_dropped():
    """The BGB's deepest outline units (Buch 2 > Abschnitt 8 > Titel 5 > Untertitel 2 > Kapitel 2 >
    Unterkapitel 1a > § 556d) and a repealed span juris marks ``(XXXX) §§ 3 bis 6``
    (tests/fixtures/gesetze-im-internet/bgb-excerpt.xml): an Unterkapitel is its own unit inside its
    Kapitel (it once read as a second ``kapitel-1``), and the placeholder names nothing."""
    _, tree = _tree(GII / "bgb-excerpt.xml")
    by_title = {s.title: s for s in tree.sections}
    unter = next(s for t, s in by_title.items() if t.startswith("Unterkapitel 1a"))
    kapitel = next(s for t, s in by_title.items() if t.startswith("Kapitel 2"))
    assert unter.parent_id == kapitel.section_id and "unterkapitel" in unter.section_id
    assert next(s for s in tree.sections if s.number and s.number.endswith("556d")).parent_id == unter.section_id
    assert not any("XXXX" in s.title or "xxxx" in s.section_id for s in tree.sections)


def test_a_repealed_span_answers_to_each_of_its_numbers():
    """``(XXXX) §§ 3 bis 6 (weggefallen)`` is one unit of the BGB that stands for §§ 3, 4, 5 and 6
    (tests/fixtures/gesetze-im-internet/bgb-excerpt.xml): "§ 5" finds it, as "§ 3" did alone."""
    _, tree = _tree(GII / "bgb-excerpt.xml")
    span = next(s for s in tree.sections if s.title.startswith("§§ 3 bis 6"))
    keys = {k for a in span.aliases for k in alias_keys(a)}
    for n in ("3", "4", "5", "6"):
        assert set(query_section_keys(f"§ {n}")[0]) <= keys, n
    assert not any("7" == k for k in keys)
