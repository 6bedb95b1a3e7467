"""Contents sections: the document's own table of contents, lists of figures/tables, its index.

A converter gives such a page a heading of its own — the PDF outline path matches a bookmark
titled ``Table of Contents`` to the title line atop the contents page, the font path keeps that
topmost line as the page's only heading, HTML and DOCX carry their ``Contents`` heading — and
this module decides from the heading's title, one rule for every format, that the section is
front matter listing other sections rather than saying anything itself. The chunker marks the
chunks of such a section (and of an index's letter groups) ``chunk_type="contents"``; search ranks them
after the passages they list (``search.demote_contents``), since a contents line names every
section number and title and so matches citation and topic queries it cannot answer.
"""

from __future__ import annotations

from ..models import Section
from .grammar import contents_title_pattern
from .grammar import is_contents_title as _is_contents_title

# "Table of Contents", "Contents", "Contents at a Glance", "Arrangement of Sections", "Inhaltsübersicht",
# "Sommaire", "List of Figures", "Index" (a back-of-book index: terms and page numbers): the citation
# grammar's contents titles, every kind
CONTENTS_TITLE_RE = contents_title_pattern()


def is_contents_title(title: str) -> bool:
    """``title`` names a contents page or an index (``Table of Contents``, ``CONTENTS:``, ``List
    of Tables``, ``Index``, ``ARRANGEMENT OF SECTIONS``, ``Inhaltsverzeichnis``); not a section that
    merely mentions contents (``Contents of the Notice``, ``Indexing``). See
    :func:`.grammar.is_contents_title`."""
    return _is_contents_title(title)


def is_contents_section(section: Section) -> bool:
    """The section is titled as a contents page or an index (:func:`is_contents_title`), or it is a
    letter group of one (``A``, ``A-C``: at most three characters) under such a title in its
    ``parent_chain``. Other sections under a contents title are not: a publisher's outline can
    nest a whole statute under its "Contents" bookmark (the Senate Counting Act 2021)."""
    if is_contents_title(section.title):
        return True
    return len(section.title.strip()) <= 3 and any(is_contents_title(t) for t in section.parent_chain[:-1])
