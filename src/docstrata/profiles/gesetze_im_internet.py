"""German federal law as gesetze-im-internet.de publishes it (``gii-norm.dtd``: a ``<dokumente>``
root of ``<norm>``\\ s). Family facts only; the converter is :mod:`docstrata.convert.gii_xml`."""

from __future__ import annotations

from . import Profile

PROFILE = Profile(
    name="gesetze-im-internet",
    formats=frozenset({"xml"}),
    converter="docstrata.convert.gii_xml:convert_gii_xml",
    xml_root="dokumente",
    # <gliederungsbez> words, outermost first; the <gliederungskennzahl> (three digits per level)
    # states the actual nesting
    containers=(
        ("Buch", 1),
        ("Teil", 1.5),
        ("Kapitel", 2),
        ("Unterkapitel", 2.5),
        ("Abschnitt", 3),
        ("Unterabschnitt", 3.5),
        ("Titel", 4),
        ("Untertitel", 4.5),
    ),
    ordinals={
        "erster": 1,
        "erste": 1,
        "zweiter": 2,
        "zweite": 2,
        "dritter": 3,
        "dritte": 3,
        "vierter": 4,
        "vierte": 4,
        "fünfter": 5,
        "fünfte": 5,
        "sechster": 6,
        "sechste": 6,
        "siebter": 7,
        "siebenter": 7,
        "siebte": 7,
        "achter": 8,
        "achte": 8,
        "neunter": 9,
        "neunte": 9,
        "zehnter": 10,
        "zehnte": 10,
        "elfter": 11,
        "elfte": 11,
        "zwölfter": 12,
        "zwölfte": 12,
    },
    number_scheme="sign",  # <enbez>§ 13</enbez>, <enbez>Art 5</enbez>; Absätze "(1)" in the text
    id_template="{n}",  # § 13 → 13, Absatz (1) → 13(1)
    container_id_template="{word}-{n}",  # Abschnitt 2 → abschnitt-2
    section_words={"§": "§", "§§": "§", "Art": "Artikel", "Art.": "Artikel", "Artikel": "Artikel", "Anlage": "Anlage"},
)
