"""Notes to the drafter are no definitions and no part of one (:func:`docstrata.structure.grammar.drafting_note_re`,
read by :mod:`docstrata.structure.definitions`).

Real input (``tests/fixtures/common-paper-sow``, NOTICE.md): Common Paper's cover pages carry italic
bracketed notes ("*[Drafting note: … For example, "Cloud Service Agreement between Rose Apothecaries,
Inc. …".]*") and bracketed instructions ("[ Enter a description of the Services … ]") beside their terms.
Trial 18 found the AI Addendum's definition of "AI Addendum" read as the note's example, and the SOW's
"SOW" as the cover page's instruction row ("The key business terms of this SOW are as follows:")."""

from __future__ import annotations

import re
from pathlib import Path

from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file
from docstrata.structure.grammar import drafting_note_re

FIXTURES = Path(__file__).parent / "fixtures" / "common-paper-sow"


def _parsed(name: str):
    return parse_file(source_file(FIXTURES / name), PipelineSettings(count_tokens=lambda t: len(t) // 4))


def test_the_notes_of_the_cover_pages_are_read_as_notes():
    """Every drafting note and bracketed instruction the documents print is matched whole, and no term
    of theirs is."""
    for name in ("common-paper-ai-addendum.docx", "common-paper-statement-of-work.docx"):
        text = _parsed(name).document.markdown
        printed = re.findall(r"\[Drafting note:[^\]]*\]|\[ ?(?:Enter|Fill in|Describe) [^\]]*\]", text)
        assert printed
        matched = [m.group(0) for m in drafting_note_re().finditer(text)]
        for note in printed:
            assert any(note in m for m in matched), note
        assert not [m for m in matched if "{" in m]  # a form's fields ({sow_number}) are no note


def test_a_note_is_not_a_definition():
    """The AI Addendum's "AI Addendum" is defined by its own sentence ("This Cover Page incorporates the
    AI Addendum Standard Terms … (collectively, the "AI Addendum")"), not by the note's example before it;
    no definition of the documents holds a note's words."""
    for name in ("common-paper-ai-addendum.docx", "common-paper-statement-of-work.docx"):
        for d in _parsed(name).tree.definitions:
            assert "Drafting note" not in d.definition and "Rose Apothecaries" not in d.definition
            assert "Enter a description" not in d.definition and "as follows:" not in d.definition
    ai = {d.term: d.definition for d in _parsed("common-paper-ai-addendum.docx").tree.definitions}
    assert ai["AI Addendum"].startswith("This Cover Page incorporates the AI Addendum Standard Terms")
    sow = {d.term: d.definition for d in _parsed("common-paper-statement-of-work.docx").tree.definitions}
    assert sow["SOW"].startswith("This SOW {sow")  # the defining sentence, not the instruction row above it
