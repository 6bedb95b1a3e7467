"""BM25 analysis: identifiers whole and by parts, 1-char tokens, stemming, folding, CJK."""

import pytest

from docstrata.index.keyword import PAIR_JOIN, PAIR_WEIGHT, KeywordIndex, analyze, analyze_query, index_terms, query_terms


def test_one_character_tokens_and_section_numbers_are_kept():
    toks = analyze("Section 2(a) of the Act")
    assert {"2(a)", "2", "a"} <= set(toks)


def test_identifiers_match_whole_and_by_parts():
    toks = set(analyze("203(a)(1) 4.2.1 DEC-0054 1.0.21 rsa_pss_rsae_sha256"))
    assert {"203(a)(1)", "4.2.1", "dec-0054", "1.0.21", "rsa_pss_rsae_sha256"} <= toks
    assert {"203", "dec", "0054", "rsa", "pss", "sha256"} <= toks


def test_english_stemming_and_accent_folding():
    assert analyze("running runs") == [analyze("run")[0]] * 2
    assert analyze("Café résumé") == analyze("cafe resume")


def _index(docs):
    ki = KeywordIndex(None)
    for cid, text in docs.items():
        ki.add(cid, cid, text)
    ki.commit()
    return ki


def test_chinese_and_japanese_queries_find_their_passages():
    ki = _index({"zh": "个人数据的处理必须合法", "ja": "個人データの保護に関する法律", "en": "personal data protection"})
    assert ki.search("个人数据", 3)[0][0] == "zh"
    assert ki.search("データの保護", 3)[0][0] == "ja"


def test_identifier_queries_rank_the_exact_identifier_first():
    ki = _index({"a": "Use rsa_pss_rsae_sha256 for signatures", "b": "RSA keys and SHA256 hashes are common",
                 "c": "Ticket DEC-0054 was closed", "d": "The decision 0054 was reversed"})
    assert ki.search("rsa_pss_rsae_sha256", 4)[0][0] == "a"
    assert ki.search("DEC-0054", 4)[0][0] == "c"


def test_phrase_search_needs_adjacent_tokens():
    ki = _index({"a": "the right to erasure applies", "b": "erasure is a right"})
    assert ki.phrase_search("right to erasure", 5) == ["a"]


def test_camel_case_identifiers_match_by_their_words():
    assert {"diffexecutor", "diff", "executor"} <= set(analyze("DiffExecutor"))
    ki = _index({"code": "pub struct DiffExecutor<A, B> { primary: A }", "prose": "An executor runs programs"})
    assert ki.search("diff executor", 2)[0][0] == "code"


def test_short_case_changes_in_names_are_not_split():
    assert analyze("mRNA") == ["mrna"] and analyze("iPhone") == analyze("iphone")


@pytest.mark.parametrize("text, tokens", [
    ("self.get_target()", ["self.get_target", "self", "get_target", "get", "target"]),
    ("def getTarget(self):", ["def", "gettarget(self)", "gettarget", "get", "target", "self"]),
    ("Foo::bar", ["foo::bar", "foo", "bar"]),
    ("Order::total(items)", ["order::total(items)", "order::total", "order", "total", "item"]),
    ("4.2.1", ["4.2.1", "4", "2", "1"]),
    ("DEC-0054", ["dec-0054", "dec", "0054"]),
])
def test_qualified_names_and_calls_keep_each_compound_segment_whole(text, tokens):
    assert analyze(text) == tokens


def test_an_identifier_is_found_as_a_phrase_inside_qualified_names_and_calls():
    ki = _index({"attr": "value = config.MAX_RETRIES + 1", "call": "t = obj.getTarget()",
                 "prose": "The max retries setting; get the target.", "cpp": "int Foo::bar(int x)",
                 "english": "The foo bar placeholder"})
    assert ki.phrase_search("MAX_RETRIES", 5) == ["attr"]
    assert ki.phrase_search("getTarget", 5) == ["call"]
    assert ki.phrase_search("Foo::bar", 5) == ["cpp"]
    assert ki.phrase_search("Foo::bar", 5) == ki.phrase_search("Foo::bar()", 5)


def test_a_question_loses_its_question_words_in_bm25_but_the_index_keeps_them():
    assert analyze_query("What does the scheduler do, and how should it retry?") == ["schedul", "retri"]
    assert analyze_query("what is it?") == ["what"]
    assert analyze_query("Section 203(a)(1) notices") == analyze("Section 203(a)(1) notices")  # "a" is a label here  # nothing else left: the question keeps its words
    assert analyze_query("Where is should_retry() called?") == ["should_retry", "should", "retri", "call"]
    assert "what" in analyze("What the scheduler does")  # the index still holds them

    idx = KeywordIndex()
    idx.add("faq", "d", "What does it do? How does it work? What should you do when it does not work?")
    idx.add("sched", "d", "The scheduler assigns queued jobs to idle workers.")
    idx.add("w1", "d", "Overtime work is paid.")
    idx.add("w2", "d", "Remote work needs approval.")
    idx.commit()
    query = "What does the scheduler do and how does it work?"
    assert idx.search(query, 1)[0][0] == "sched"
    assert idx.search("what does it do?", 1)[0][0] == "faq"  # the words that would otherwise have won


def test_adjacent_term_pairs_are_indexed_after_the_tokens():
    tokens = analyze("The Clearing Member pays")
    assert index_terms("The Clearing Member pays") == tokens + [f"{a}{PAIR_JOIN}{b}" for a, b in zip(tokens, tokens[1:])]
    assert query_terms("clearing member") == [("clear", 1.0), ("member", 1.0), (f"clear{PAIR_JOIN}member", PAIR_WEIGHT)]
    assert query_terms("Who pays?") == [("pay", 1.0)]  # one token: no pair


def test_words_in_the_query_order_outrank_the_same_words_scattered():
    # Same tokens, same length: plain BM25 ties them; the term pair decides.
    ki = _index({"a": "a member of the clearing house pays the margin",
                 "b": "a clearing member pays the margin of the house"})
    (first, s1), (_, s2) = ki.search("Which clearing member pays?", 2)
    assert first == "b" and s1 > s2
    assert ki.phrase_search("member pays", 5) == ["b"]  # pairs do not break phrase search
    assert ki.phrase_search("house clear", 5) == []  # nor create a phrase across the tokens' end


# ---- the word cache (analyze() tokenises word by word; _analyze_whole is the whole-text reference)

def _tricky_characters() -> list[str]:
    """Every character that could make word-by-word analysis differ from whole-text analysis:
    whitespace of every kind, characters whose NFKC form holds a space or a combining mark
    (¨ ´ ¸ ˜, Arabic and Hangul compatibility forms), combining marks, and the token joiners."""
    import unicodedata

    out = []
    for cp in range(0x3040):
        c = chr(cp)
        nf = unicodedata.normalize("NFKC", c)
        if c.isspace() or unicodedata.combining(c) or (nf != c and (" " in nf or any(map(unicodedata.combining, nf)))):
            out.append(c)
    out += list(".:/_-'()\u2019") + ["\ufb01", "\u2163", "\u2460", "\uff71", "\uff9e", "\u3099", "\u309a", "\u1100", "\u1161"]
    return out


def test_word_by_word_analysis_equals_whole_text_analysis_on_adversarial_text():
    from docstrata.index.keyword import _WORDS, _analyze_whole

    templates = ["a{}b", "a {}b", "a{} b", "x's{}y", "x's {}", "{}'s x", "{} \u0301a", "\u00e9{}\u0301", "(a){}(1)",
                 "a.{}b", "{}{}", "n\u0303{}", "\u30a2{}\u3099 \u304b", "\u1100{} \u1161", "Foo::{}bar(x) 203(a){}(1)"]
    chars = _tricky_characters()
    assert len(chars) > 300  # the enumeration found the characters it is meant to
    differ = [t.replace("{}", c) for c in chars for t in templates
              if analyze(t.replace("{}", c)) != _analyze_whole(t.replace("{}", c))]
    assert not differ, differ[:5]
    assert analyze("John's  caf\u00e9\u00a0203(a)(1)\u3000getTarget(self)") == _analyze_whole(
        "John's  caf\u00e9\u00a0203(a)(1)\u3000getTarget(self)")
    assert "caf\u00e9" in _WORDS  # the word was analysed once and kept


def test_word_cache_is_bounded_and_skips_long_words(monkeypatch):
    from docstrata.index import keyword

    monkeypatch.setattr(keyword, "_WORDS", keyword._WordTerms())
    monkeypatch.setattr(keyword, "_WORD_CACHE_SIZE", 3)
    long_word = "x" * (keyword._WORD_CACHE_CHARS + 1)
    assert analyze(f"alpha beta {long_word} gamma delta epsilon") == ["alpha", "beta", long_word, "gamma", "delta",
                                                                      "epsilon"]
    assert set(keyword._WORDS) == {"alpha", "beta", "gamma"}  # full at three; the long word never kept
    assert analyze("delta") == ["delta"]  # still analysed once the cache is full


@pytest.mark.shared_data
def test_word_by_word_analysis_equals_whole_text_analysis_on_real_documents():
    import json

    from docstrata.index.keyword import _analyze_whole

    from .conftest import shared_data

    texts = [p.read_text(encoding="utf-8") for p in sorted(shared_data("documents", "md").glob("*.md"))]
    with open(shared_data("scifact", "corpus.jsonl"), encoding="utf-8") as f:
        texts += [json.loads(line)["text"] for _, line in zip(range(500), f)]
    assert sum(len(t) for t in texts) > 500_000
    assert [analyze(t) for t in texts] == [_analyze_whole(t) for t in texts]


def test_a_second_indexing_thread_only_when_a_core_is_free(monkeypatch):
    import os

    from docstrata.index import keyword

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (1.2, 1.0, 1.0))  # this process alone
    assert keyword.writer_threads() == (2, keyword.WRITER_HEAP_BYTES * 3 // 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (4.5, 4.0, 4.0))  # other processes keep both cores busy
    assert keyword.writer_threads() == (1, keyword.WRITER_HEAP_BYTES)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert keyword.writer_threads() == (1, keyword.WRITER_HEAP_BYTES)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(keyword, "WRITER_HEAP_BYTES", 15_000_000)  # tantivy's minimum: one thread, no error
    assert keyword.writer_threads() == (1, 15_000_000)
    idx = keyword.KeywordIndex(None)
    for i in range(50):
        idx.add(f"c{i}", "d", f"shared words and a unique token{i}")
    idx.commit()
    assert idx.num_docs() == 50 and [c for c, _ in idx.search("token7", 3)] == ["c7"]
