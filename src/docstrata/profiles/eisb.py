"""Irish Acts as the Irish Statute Book (eISB, irishstatutebook.ie, and the Law Reform Commission's
revised Acts) publishes them in XML: a namespace-free ``<act>`` root holding ``<metadata>``
(``<title>``, ``<number>``, ``<year>``, ``<dateofenactment>``), ``<frontmatter>``, ``<body>`` and
``<backmatter>``. Family facts only; the converter is :mod:`docstrata.convert.eisb_xml`."""

from __future__ import annotations

from . import Profile

PROFILE = Profile(
    name="eisb",
    formats=frozenset({"xml"}),
    converter="docstrata.convert.eisb_xml:convert_eisb_xml",
    xml_root="act",
    # an <act> root is not enough (New Zealand's PCO XML and Akoma Ntoso documents name one too):
    # eISB's holds these
    xml_children=("metadata", "body"),
    # <part>, <chapter> and <schedule> print their label as the first line of their <title>
    # ("PART 1" / "Preliminary and General", "SCHEDULE 2" / "…"); <sect> states its <number>
    containers=(("Part", 1), ("Chapter", 2), ("Schedule", 1)),
    # older Acts print "FIRST SCHEDULE", "SECOND SCHEDULE": Schedule 1, Schedule 2
    ordinals={
        w: n
        for n, w in enumerate(
            "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(), 1
        )
    },
    number_scheme="dotted",  # sections 1, 2, 67F; subsections (1), paragraphs (a), (i) printed in the text
    id_template="{n}",
    container_id_template="{word}-{n}",
    section_words={"sect": "Section"},
    # eISB writes the characters its typesetting system had no code for as empty elements
    characters={
        "odq": "“",
        "cdq": "”",
        "osq": "‘",
        "csq": "’",
        "emdash": "—",
        "endash": "–",
        "euro": "€",
        "pound": "£",
        "afada": "á",
        "efada": "é",
        "ifada": "í",
        "ofada": "ó",
        "ufada": "ú",
        "Afada": "Á",
        "Efada": "É",
        "Ifada": "Í",
        "Ofada": "Ó",
        "Ufada": "Ú",
        "bull": "•",
        "nbsp": "\u00a0",
        "degree": "°",
        "dagger": "†",
        "ddagger": "‡",
        "hellip": "…",
        "ellipsis": "…",
        "times": "×",
        "br": " ",
    },
)
