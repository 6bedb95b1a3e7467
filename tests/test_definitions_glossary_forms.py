"""Glossaries without quotes or verbs and abbreviations after their long form, on real documents:
RFC 4764's terminology list (``AKEP2     An authenticated …`` between hanging entries) and Datica's
HIPAA policies (``protected health information (PHI)``, ``Protected Health Information ("PHI")``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.models import SourceFile
from docstrata.structure import build_tree
from docstrata.structure.definitions import acronym_long_form

FIXTURES = Path(__file__).parent / "fixtures"


def _definitions(path: Path) -> dict[str, str]:
    tree = build_tree(convert_file(SourceFile(path.name, str(path), None)))
    return {d.term: d.definition for d in tree.definitions}


@pytest.fixture(scope="module")
def rfc4764() -> dict[str, str]:
    return _definitions(FIXTURES / "rfc4764-terminology" / "rfc4764-excerpt.txt")


@pytest.fixture(scope="module")
def breach_policy() -> dict[str, str]:
    return _definitions(FIXTURES / "hipaa-policies" / "12-breach_policy.md")


@pytest.fixture(scope="module")
def baa() -> dict[str, str]:
    return _definitions(FIXTURES / "hipaa-policies" / "23-datica_hipaa_business_associate_agreement.md")


def test_a_term_and_its_definition_across_a_wide_gap_is_an_entry(rfc4764: dict[str, str]) -> None:
    # "AES-128   A block cipher specified in the Advanced Encryption" / "Standard [7]." (indented below)
    assert rfc4764["AES-128"] == "A block cipher specified in the Advanced Encryption Standard [7]."
    assert rfc4764["AKEP2"].startswith("An authenticated key exchange protocol; please refer to [14]")
    assert rfc4764["CMAC"].startswith("Cipher-based Message Authentication Code. It is the authentication mode")


def test_the_hanging_entries_beside_them_stay_and_their_lines_open_no_entry(rfc4764: dict[str, str]) -> None:
    assert rfc4764["Backend Authentication Server"].startswith("An entity that provides an authentication service")
    # the definition lines under a hanging term ("Please refer to [10] …", "Additional keying material …")
    assert not {"Please", "Additional", "Keying", "Identifier", "Informally"} & set(rfc4764)


def test_an_abbreviation_after_its_long_form_is_defined_by_it(rfc4764: dict[str, str]) -> None:
    # "Authentication, Authorization, and Accounting (AAA)", "Authentication Key (AK)", "Wi-Fi Protected Access (WPA)"
    assert rfc4764["AAA"] == "Authentication, Authorization, and Accounting"
    assert rfc4764["AK"] == "Authentication Key"
    assert rfc4764["WPA"] == "Wi-Fi Protected Access"


def test_abbreviations_in_running_text(breach_policy: dict[str, str]) -> None:
    assert breach_policy["PHI"] == "protected health information"
    assert breach_policy["HHS"] == "Health and Human Services"
    assert breach_policy["FTC"] == "Federal Trade Commission"
    # every term read from a bracket has two capitals: never an item label "(a)" or "(ii)"
    assert all(sum(ch.isupper() for ch in term) >= 2 for term in breach_policy)


def test_a_quoted_abbreviation_names_the_long_form_before_it(baa: dict[str, str]) -> None:
    # 'Protected Health Information ("PHI")': the definition is the name, not the whole sentence
    assert baa["PHI"] == 'Protected Health Information ("PHI")'


def test_the_long_form_puts_the_letters_on_word_initials() -> None:
    assert acronym_long_form("CCTV", "cameras on the Closed Circuit Television") == "Closed Circuit Television"
    assert acronym_long_form("DoD", "the US Department of Defense") == "Department of Defense"
    assert acronym_long_form("IPRs", "owns all Intellectual Property Rights") == "Intellectual Property Rights"
    # a letter run inside one word, or letters the words before do not hold, is no long form
    assert acronym_long_form("CFCs", "releases of Chlorofluorocarbons") is None
    assert acronym_long_form("EU", "as laid down in the Regulation") is None


def test_an_acronym_list_entry_wins_over_the_abbreviation_spelled_out_earlier() -> None:
    """NIST SP 800-40r3 (bench/realdocs, public domain) spells out FISMA, NIST, SCAP … in its front
    matter and body before Appendix C lists them: the list's entries are the definitions."""
    path = Path(__file__).parents[1] / "bench" / "realdocs" / "pdf" / "nist-sp800-40r3-patch-management.pdf"
    tree = build_tree(convert_file(SourceFile(path.name, str(path), None)))
    defs = {d.term: d for d in tree.definitions}
    for term in ("FISMA", "NIST", "SCAP", "CVE", "OVAL"):
        assert defs[term].section_id == "appendix-c", term
    # abbreviations the list does not hold keep the long form the text gives them
    assert defs["FDE"].definition == "full disk encryption"
