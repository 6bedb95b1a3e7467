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
