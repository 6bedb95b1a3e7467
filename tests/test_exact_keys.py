"""Exact-match keys: every way of citing a section meets its alias at one key."""

import pytest

from docstrata.index.exact import alias_keys, query_section_keys, roman_to_int


@pytest.mark.parametrize("query, alias", [
    ("Section 4.2.1", "4.2.1"),
    ("§ 203(a)(1)", "Section 203(a)(1)"),
    ("Sec. 203 (a)(1)", "§ 203(a)(1)"),
    ("What does Article 17 say?", "Article 17"),
    ("Art. 17", "Article 17"),
    ("ARTICLE IV", "Article 4"),
    ("Rule 3.3.31", "3.3.31"),
    ("GEN 3.3.31", "3.3.31"),
    ("PART 2", "Part 2"),
    ("Schedule 1", "Schedule 1"),
    ("see 9.3.1B", "9.3.1B"),
])
def test_query_reference_meets_section_alias(query, alias):
    query_keys = {k for keys in query_section_keys(query) for k in keys}
    assert query_keys & set(alias_keys(alias)), (query_section_keys(query), alias_keys(alias))


@pytest.mark.parametrize("query", ["right to erasure in 2016", "What is 17?", "pay within 30 days"])
def test_plain_numbers_are_not_section_references(query):
    assert query_section_keys(query) == []


def test_article_and_section_with_the_same_number_stay_apart():
    assert not set(alias_keys("Article 17")) & set(alias_keys("Section 17"))


def test_roman_numerals():
    assert [roman_to_int(s) for s in ("IV", "ix", "XL", "MMXXVI")] == [4, 9, 40, 2026]
    assert roman_to_int("Introduction") is None


@pytest.mark.parametrize("query, alias", [("Section A.6", "A.6"), ("Section E.4", "Section E.4"),
                                          ("Appendix B.2", "Appendix B.2")])
def test_letter_first_appendix_numbers(query, alias):
    query_keys = {k for keys in query_section_keys(query) for k in keys}
    assert query_keys & set(alias_keys(alias))


@pytest.mark.parametrize("query, names", [
    ("Section 4.2.1", True), ("What does Article 17 say?", True), ("Section 4.2 availability", True),
    ("Under the stipulations of Rule 6.2.1(a)(i), what must an employee ensure when giving written notice?", False),
])
def test_only_a_query_that_is_essentially_a_reference_names_a_section(query, names):
    from docstrata.index.exact import query_names_section

    assert query_names_section(query) is names


@pytest.mark.parametrize("query, identifiers", [
    ("What does the test method `issue92()` do?", ["issue92"]),
    ("What is the purpose of the getTarget method?", ["getTarget"]),
    ("How do I create a HashBuilder instance?", ["HashBuilder"]),
    ("What vectors are in TEST_VECTORS?", ["TEST_VECTORS"]),
    ("Which studies mention BRCA1 or p53?", ["BRCA1", "p53"]),
    ("How does os.path.join differ from Path::join and get_path()?", ["os.path.join", "Path::join", "get_path"]),
    ("What does `sha256` return?", ["sha256"]),
    ("What do toJSON() and isNaN() return?", ["toJSON", "isNaN"]),
    ("What is the `retry policy`?", ["retry policy"]),
])
def test_code_identifiers_in_a_query_are_found(query, identifiers):
    from docstrata.index.exact import query_identifiers

    assert query_identifiers(query) == identifiers


@pytest.mark.parametrize("query", ["What is HTTP?", "Is the iPhone covered, e.g. under Section 4.2.1 or A.6?",
                                   "What does U.S. law say about Article 17?", "Who is the Data Controller?",
                                   "When does run() update()?", "What does `__init__` set?", "Is `the` a stopword?",
                                   "What does printf() print?"])
def test_words_abbreviations_and_section_numbers_are_not_identifiers(query):
    from docstrata.index.exact import query_identifiers

    assert query_identifiers(query) == []


@pytest.mark.parametrize("query, expected", [
    ("How does the Scheduler schedule a new event?", []),
    ("What is in Schedule A?", [["schedule a"]]),
    ("appendix b", [["appendix b"]]),
])
def test_a_lowercase_article_after_a_kind_word_is_not_a_section_letter(query, expected):
    assert query_section_keys(query) == expected


@pytest.mark.parametrize("query, identifiers", [
    ("REQ-0042", ["REQ-0042"]),
    ("Which passage holds REQ-0042?", ["REQ-0042"]),
    ("CVE-2021-44228", ["CVE-2021-44228"]),
    ("BEA-ESS-ESS-001", ["BEA-ESS-ESS-001"]),
])
def test_ticket_style_ids_are_identifiers(query, identifiers):
    from docstrata.index.exact import query_identifiers

    assert query_identifiers(query) == identifiers


@pytest.mark.parametrize("query", ["e-mail follow-up", "pages 10-12", "a well-known re-entry"])
def test_hyphenated_words_and_number_ranges_are_not_ticket_ids(query):
    from docstrata.index.exact import query_identifiers

    assert query_identifiers(query) == []


@pytest.mark.parametrize("query, keys", [
    ("section 9 of the GPL", ["doc:gpl"]),
    ("RFC 5246 section 6.2", ["doc:rfc 5246"]),
    # a grammar pack's short name folds to the instrument's own citation (GDPR, RGPD, DSGVO: one key)
    ("Art. 12 GDPR", ["doc:regulation 2016/679"]),
    ("What does Article 17 of the GDPR say?", ["doc:regulation 2016/679"]),
    ("Section 4.2 of this Agreement", []),
    ("Section 4.2", []),
])
def test_documents_named_by_a_query(query, keys):
    from docstrata.index.exact import query_document_keys

    assert query_document_keys(query) == keys


def test_document_name_keys_meet_query_keys():
    from docstrata.index.exact import document_name_keys, query_document_keys

    assert set(query_document_keys("RFC 5246 section 6.2")) <= set(document_name_keys("The TLS Protocol", "rfc5246.txt"))
    assert set(query_document_keys("Art. 12 GDPR")) <= set(
        document_name_keys("General Data Protection Regulation", "eu/regulation.md"))


REQUIREMENTS = "# Requirements\n\n" + "\n\n".join(
    f"## {n}. {title}\n\nREQ-{n:04d}: The system shall {text}." for n, title, text in [
        (41, "Logging", "log every request"),
        (42, "Retention", "keep audit records for seven years"),
        (43, "Export", "export records as CSV"),
    ])


def test_a_bare_ticket_id_puts_its_passage_first(tmp_path):
    """Issue 15: "REQ-0042" as the whole query, bare, finds the passage holding it in the exact modality
    and ranks it above its neighbours REQ-0041 / REQ-0043, as the quoted form does."""
    import docstrata

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "reqs.md").write_text(REQUIREMENTS, encoding="utf-8")
    (tmp_path / "agent.yaml").write_text("tools:\n  - name: reqs\n    type: hierarchical_document\n"
                                         "    description: requirements\n    source: docs/\n    database: in-memory\n",
                                         encoding="utf-8")
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        reqs = tools["reqs"]
        reqs.ingest()
        for query in ("REQ-0042", '"REQ-0042"'):
            exact = reqs.search(query, top_k=5, mode="exact")
            assert [h.section_id for h in exact] == ["42"], query
            hybrid = reqs.search(query, top_k=3, mode="hybrid")
            assert "REQ-0042" in hybrid[0].content and hybrid[0].exact_match, query


def test_roman_container_numbers_keep_their_own_key_first():
    """Finding 5: "Article I" is keyed "article i" first, so it is not the same look-up as another
    document's "Article 1"; the arabic value stays a second key ("Article 1" still reaches it)."""
    assert alias_keys("Article I") == ["article i", "article 1"]
    assert query_section_keys("Article I") == [["article i", "article 1"]]
    assert query_section_keys("Article 1") == [["article 1"]]
    assert alias_keys("Appendix C") == ["appendix c"]  # a letter, not a roman 100
    assert alias_keys("Section IV")[0] == "section iv"


CONSTITUTION = """# Constitution of the Republic

## Article I

### Section 1

All legislative powers are vested in an assembly of delegates.

## Article II

### Section 1

The executive power is vested in a president.
"""
GDPR_ONE = """# Data Protection Regulation

## Article 1 Subject-matter and objectives

This Regulation lays down rules relating to the protection of natural persons.

## Article 2 Material scope

This Regulation applies to the processing of personal data.
"""


def test_a_roman_article_lookup_without_a_document_finds_the_document_that_writes_it(tmp_path):
    """Finding 5: section "Article I" with no document is the Constitution's article-i, not the
    regulation's article-1; "Article 1" is the regulation's."""
    import textwrap

    import docstrata

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "us_constitution.md").write_text(CONSTITUTION, encoding="utf-8")  # after gdpr.md
    (tmp_path / "docs" / "gdpr.md").write_text(GDPR_ONE, encoding="utf-8")
    (tmp_path / "agent.yaml").write_text(textwrap.dedent("""\
        tools:
          - name: docs
            type: hierarchical_document
            description: constitution and regulation
            source: docs/
            database: in-memory
        """), encoding="utf-8")
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        t = tools["docs"]
        t.ingest()
        hits = t.search("powers vested", section="Article I", top_k=5, mode="keyword")
        assert hits and {(h.source_path, h.section_id.split("/")[0]) for h in hits} == {("us_constitution.md", "article-i")}
        hits = t.search("Article I", top_k=3, mode="exact")
        assert (hits[0].source_path, hits[0].section_id.split("/")[0]) == ("us_constitution.md", "article-i")
        hits = t.search("Article 1", top_k=3, mode="exact")
        assert (hits[0].source_path, hits[0].section_id) == ("gdpr.md", "article-1")
        assert "legislative powers" in t.get_section("us_constitution", "Article I").content


def test_appendix_section_numbers_cite_the_bare_section():
    """RFC appendices number their sections ``D.2``: "Appendix D.2" names section D.2."""
    assert "d.2" in alias_keys("Appendix D.2") and "d.2" in alias_keys("D.2")
    assert "d" not in alias_keys("Appendix D")


PINPOINTS = """2. License Grants
-----------------

2.1. Grants

Each Contributor hereby grants You a license:

(a) under intellectual property rights held by such Contributor, to
    use and reproduce its Contributions; and

(b) under Patent Claims of such Contributor, to make and sell its
    Contributions.

2.2. Effective Date

The licenses become effective on the date of distribution.

4. Handshake
------------

4.3. Server Parameters

The server sends its parameters, as Section 4.3.7 of [X962] validates them.

Appendix D.  Backward Compatibility

D.2.  Negotiating with an Older Client

   A TLS server can also receive a ClientHello indicating a version number.
"""


def test_get_section_pinpoints_resolve_to_the_most_specific_section(tmp_path):
    """Trial 14 item 5: "Section 2.1(b)" returns item (b), not all of 2.1; a pinpoint that is no
    section of its own ("Section 2.1(c)", "Section 2.2(a)") falls back to the section holding it
    and says so; "Appendix D.2" is section D.2; a missing dotted section ("Section 4.3.7") is an
    error, never section 4.3."""
    import textwrap

    import docstrata
    from docstrata.search import QueryError

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "licence.txt").write_text(PINPOINTS, encoding="utf-8")
    (tmp_path / "agent.yaml").write_text(textwrap.dedent("""\
        tools:
          - name: docs
            type: hierarchical_document
            description: a licence
            source: docs/
            database: in-memory
        """), encoding="utf-8")
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        t = tools["docs"]
        t.ingest()
        page = t.get_section("licence.txt", "Section 2.1(b)")
        assert page.section_id == "2.1(b)" and not page.notice
        assert "make and sell" in page.content and "reproduce its" not in page.content
        page = t.get_section("licence.txt", "Section 2.2(a)")
        assert page.section_id == "2.2" and "effective on the date" in page.content
        assert "no section 'Section 2.2(a)'" in page.notice and page.content.startswith(page.notice)
        page = t.get_section("licence.txt", "Appendix D.2")
        assert page.section_id == "D.2" and "ClientHello" in page.content
        with pytest.raises(QueryError, match="no section 'Section 4.3.7'"):
            t.get_section("licence.txt", "Section 4.3.7")
