"""Definitions: inline patterns, definitions sections, real GDPR / CSA / Apache / GPL."""

from __future__ import annotations


import pytest

from docstrata.structure.definitions import extract_definitions
from docstrata.structure.parse import parse_sections

from .conftest import shared_data


def terms(text: str) -> dict[str, str]:
    tree = parse_sections(text, "d.md", "D")
    return {d.term: d.definition for d in extract_definitions(tree)}


@pytest.mark.parametrize("text, term", [
    ('"Service" means the hosted product.', "Service"),
    ("‘Controller’ means the person who decides.", "Controller"),
    ('**"Fees"** means the amounts payable.', "Fees"),
    ('"Licensor" shall mean the copyright owner.', "Licensor"),
    ("“Affiliate” means an entity under common control.", "Affiliate"),
    ("Business Day: means a day other than a weekend.", "Business Day"),
    ("Working Capital is defined as current assets less current liabilities.", "Working Capital"),
])
def test_inline_definition_patterns(text, term):
    got = terms(f"# Terms of use\n\nSome text.\n\n{text}\n")
    assert term in got
    assert got[term].split()[0] in ("means", "shall", "is", "mean")


def test_definition_text_runs_to_paragraph_end_and_section_is_set():
    md = '## 1. Definitions\n\n"Term" means the first\nline and the second.\n\nOther paragraph.\n'
    tree = parse_sections(md, "d.md", "D")
    (entry,) = extract_definitions(tree)
    assert entry.definition == "means the first line and the second."
    assert entry.section_id == "1" and entry.doc_key == "d.md"


def test_loose_forms_only_inside_definitions_sections():
    body = 'To "modify" a work means to copy from it.\n'
    assert "modify" in terms(f"## Definitions\n\n{body}")
    assert "modify" not in terms(f"## Scope\n\n{body}")


def test_one_namespace_first_definition_wins():
    got = terms('"Fee" means A.\n\n"fee" means B.\n')
    assert list(got) == ["Fee"] and got["Fee"] == "means A."


def test_quoted_words_in_prose_are_not_definitions():
    assert terms("He said 'hello' and left. The `show w' command means nothing here.\n") == {}


@pytest.mark.shared_data
def test_gdpr_article_4_has_26_definitions():
    text = shared_data("documents", "md", "gdpr_regulation_eu_2016_679.md").read_text(encoding="utf-8")
    tree = parse_sections(text, "gdpr.md", "GDPR")
    defs = [d for d in extract_definitions(tree) if d.section_id.startswith("article-4(")]
    assert len(defs) == 27  # the 26 numbered ones, and 'data subject', defined inline in point (1)
    inline = next(d for d in defs if d.term == "data subject")
    assert inline.section_id == "article-4(1)" and "identifiable natural person (‘data subject’)" in inline.definition
    assert defs[0].term == "personal data" and defs[0].section_id == "article-4(1)"
    assert defs[-1].term == "international organisation"


@pytest.mark.shared_data
def test_csa_apache_gpl_definitions():
    csa = shared_data("documents", "md", "commonpaper_cloud_service_agreement_v1.md").read_text(encoding="utf-8")
    got = {d.term: d for d in extract_definitions(parse_sections(csa, "csa.md", "CSA"))}
    assert got["Force Majeure Event"].section_id == "13.17"
    assert got["Personal Data"].section_id == "13.25"
    apache = shared_data("documents", "txt", "license_apache-2.0.txt").read_text(encoding="utf-8")
    a = {d.term for d in extract_definitions(parse_sections(apache, "apache.txt", "Apache"))}
    assert {"License", "Licensor", "Legal Entity", "You", "Source", "Object", "Work", "Derivative Works",
            "Contribution", "Contributor"} <= a
    gpl = shared_data("documents", "txt", "license_gpl-3.0.txt").read_text(encoding="utf-8")
    g = {d.term for d in extract_definitions(parse_sections(gpl, "gpl.txt", "GPL"))}
    assert {"This License", "Copyright", "The Program", "modify", "covered work", "propagate", "convey"} <= g


def test_statute_dictionary_unquoted_means_and_includes():
    """Kind 7: a Schedule 1 Dictionary defines with unquoted "vessel means …" / "business day includes …"."""
    md = ("# Schedule 1 Dictionary\n\n(1) In this Act:\n\nbusiness day includes a day that is not a Saturday.\n\n"
          "vessel means any kind of ship or boat.\n\nit means nothing here.\n\n## Part 2 Offences\n\n"
          "A vessel means trouble, said nobody.\n")
    got = terms(md)
    assert got["vessel"] == "means any kind of ship or boat."
    assert got["business day"].startswith("includes a day")
    assert "it" not in {t.lower() for t in got} and "A vessel" not in got


def test_in_this_act_block_outside_a_definitions_section():
    md = ("## 82 Interpretation of Part 4\n\nstuff\n\n## 83 General\n\n(1) In this Act —\n\n"
          "tribunal means the First-tier Tribunal,\n\nmember includes a judge.\n\n(2) Other text means little.\n")
    got = terms(md)
    assert {"tribunal", "member"} <= set(got)


def test_pronouns_and_function_words_are_never_terms():
    md = ("## Definitions\n\nIt: means whatever the parties agree.\n\nThis is defined as the thing.\n\n"
          "Such: the items listed.\n\n\"it\" means the software.\n\n\"You\" (or \"Your\") shall mean the licensee.\n")
    got = terms(md)
    assert not {"It", "This", "Such", "it"} & set(got)
    assert "You" in got  # quoted, with "shall mean": the author's own evidence


def test_markdown_definition_list_and_terms_under_a_terminology_heading():
    md = ("# Spec\n\n## 2 Terms and Definitions\n\n### 2.1 Component Records\n\nA record of each component "
          "with its supplier and version.\n\n### 2.2 CVE\n\nCommon Vulnerabilities and Exposures.\n\n"
          "## 3 Model\n\nrequest\n: A message sent by a client.\n\nresponse\n\n: The server's answer.\n")
    tree = parse_sections(md, "d.md", "D")
    got = {d.term: d for d in extract_definitions(tree)}
    assert got["Component Records"].definition.startswith("A record of each component")
    assert got["CVE"].section_id == "2.2"
    assert got["request"].definition == "A message sent by a client."
    assert got["response"].definition == "The server's answer."


def test_rfc_hanging_definitions():
    md = ("2.1.  Definitions\n\n   Media Resource\n                  An entity on the speech processing server.\n\n"
          "   MRCP Server\n                  Aggregate of one or more media resources.\n")
    assert {"Media Resource", "MRCP Server"} <= set(terms(md))


def test_html_dfn_and_dl_terms_reach_the_tree(tmp_path):
    """Kind 7: markitdown drops <dfn>; the converter records marked terms and the tree places them."""
    from docstrata.convert import convert_file
    from docstrata.models import FileState, SourceFile
    from docstrata.structure import build_tree

    html = ("<html><body><h2 id='terms'>2. Terminology</h2><p>A <dfn id='dfn-credential'>credential</dfn> is "
            "an assertion about a subject.</p><dl><dt>issuer</dt><dd>The entity that makes a credential.</dd></dl>"
            "<h2 id='model'>3. Model</h2><dl><dt><dfn>holder</dfn></dt><dd>The entity that keeps credentials.</dd>"
            "<dt>port</dt><dd>The TCP port the server listens on.</dd></dl>"
            "<p>See <a href='#terms'>the terminology</a> and <a href='#model'>§3</a>.</p></body></html>")
    path = tmp_path / "spec.html"
    path.write_text(html, encoding="utf-8")
    doc = convert_file(SourceFile("spec.html", str(path), FileState(path.stat().st_size, 0, "")))
    tree = build_tree(doc)
    got = {d.term: d for d in tree.definitions}
    assert got["credential"].definition.startswith("A credential is an assertion")
    assert got["issuer"].definition == "The entity that makes a credential."
    assert got["holder"].definition == "The entity that keeps credentials."
    assert got["port"].definition == "The TCP port the server listens on."  # a description list defines too
    assert tree.section(got["credential"].section_id).title.endswith("Terminology")
    assert tree.section(got["holder"].section_id).title.endswith("Model")
    links = {x.text: x.section_id for x in tree.cross_references}
    assert links["the terminology"] == got["credential"].section_id


NDA = """# Mutual Non-Disclosure Agreement

## 1. Introduction

This Mutual Non-Disclosure Agreement (which incorporates these Standard Terms and the Cover Page (defined below)) (“**MNDA**”) allows each party (“**Disclosing Party**”) to disclose information to the other party (“**Receiving Party**”). Information that should be understood as confidential (“**Confidential Information**”) stays protected. This NDA is between Acme Corp. (together with its Affiliates, "Customer") and Beta LLC (each, a "Party" and together the "Parties").

## 2. Use

“**Purpose**” means the evaluation of a business relationship. The Receiving Party may use it (“it”) only for the Purpose, keep such material (“such”) safe, and this (“This”) applies as the word (“MUST”) says; a notice (e.g. "stop") is not a definition (the "fetch" algorithm neither).
"""


def test_inline_parenthetical_and_bold_quoted_definitions_in_a_contract():
    """Finding 2 (Common Paper NDA style): a term a parenthesis names inside a sentence, and
    “**Term**” means, are definitions wherever they stand; pronouns and common words never are."""
    tree = parse_sections(NDA, "nda.md", "Mutual Non-Disclosure Agreement")
    got = {d.term: d for d in extract_definitions(tree)}
    assert {"MNDA", "Disclosing Party", "Receiving Party", "Confidential Information", "Customer", "Party",
            "Parties", "Purpose"} <= set(got)
    assert got["MNDA"].definition.startswith("This Mutual Non-Disclosure Agreement (which incorporates")
    assert got["MNDA"].section_id == "1"
    assert got["Purpose"].definition.startswith("means the evaluation")
    assert not {"it", "such", "This", "MUST", "stop", "fetch"} & set(got)


def test_a_lone_notes_heading_under_a_definitions_heading_names_no_term():
    """A converted CFR subpart "Definitions" holds "§ 478.11 Meaning of terms." and the subpart's
    "Authority" notes block: neither heading is a term (a glossary of headings is a run of them)."""
    md = ("## Subpart B Definitions\n\n### § 478.11 Meaning of terms.\n\nWhen used in this part, terms "
          "have the meanings given.\n\n### Authority\n\n5 U.S.C. 552(a); 18 U.S.C. 921-931.\n")
    assert not {"Authority", "Meaning of terms"} & set(terms(md))


MPL_DEFINITIONS = """1. Definitions
--------------

1.5. "Incompatible With Secondary Licenses"
    means

    (a) that the initial Contributor has attached the notice described
        in Exhibit B to the Covered Software; or

    (b) that the Covered Software was made available under the terms of
        version 1.1 or earlier of the License.

1.10. "Modifications"
    means any of the following:

    (a) any file in Source Code Form that results from an addition; or

    (b) any new file in Source Code Form that contains any Covered
        Software.

1.11. "Patent Claims" of a Contributor
    means any patent claim(s) in any patent Licensable by such
    Contributor.

1.14. "You" (or "Your")
    means an individual or a legal entity exercising rights under this
    License.

2. License Grants
-----------------

The notation "K_{send,recv} = foo" means "set K_send and K_recv to foo".
"""


def test_definitions_keep_the_limbs_they_introduce_and_qualified_terms():
    """Trial 14 item 7 (MPL 2.0): ``means any of the following:`` / ``means`` keep their (a)(b)
    limbs; ``"Patent Claims" of a Contributor means`` and ``"You" (or "Your")`` are terms;
    notation in quotes (``K_{send,recv} = foo``) is not."""
    got = {d.term: d.definition for d in extract_definitions(parse_sections(MPL_DEFINITIONS, "MPL-2.0.txt", "MPL"))}
    # its limbs are items 1.10(a), 1.10(b) (indented under the clause): joined as GDPR's sub-points are
    assert got["Modifications"].startswith("means any of the following (a) any file")
    assert "(b) any new file in Source Code Form" in got["Modifications"]
    assert "(a) that the initial Contributor" in got["Incompatible With Secondary Licenses"]
    assert "version 1.1 or earlier" in got["Incompatible With Secondary Licenses"]
    assert got["Patent Claims"].startswith("means any patent claim(s)")
    assert got["You"] == got["Your"] and got["You"].startswith("means an individual")
    assert not [t for t in got if "=" in t or "{" in t]
    assert "Patent Claims" not in got["Modifications"]  # the limbs stop at the next definition


def test_limbs_parsed_as_subsections_join_the_definition():
    text = "1. Definitions\n\nIn this Act—\n\n(1) employee means any individual who—\n(A) is employed; or\n" \
           "(B) is retired.\n(2) employer means a person.\n"
    tree = parse_sections(text, "act.txt", "Act")
    assert "1(1)(A)" in {s.section_id for s in tree.sections}
    got = {d.term: d.definition for d in extract_definitions(tree)}
    assert got["employee"] == "means any individual who— (A) is employed; or (B) is retired."
    assert got["employer"] == "means a person."


RFC_TERMINOLOGY = """1.1.  Conventions and Terminology

   The key words "MUST" and "MAY" are to be interpreted as described in BCP 14.

   The following terms are used:

   client:  The endpoint initiating the TLS connection.

   handshake:  An initial negotiation between client and server that
      establishes the parameters of their subsequent interactions
      within TLS.

   peer:  An endpoint.  When discussing a particular endpoint, "peer"
      refers to the endpoint that is not the primary subject of
      discussion.

   server:  The endpoint that did not initiate the TLS connection.

1.2.  Major Differences

   Note: this is not a glossary entry.
"""


def test_rfc_terminology_lines_define_their_terms():
    """Trial 14 item 7 (RFC 8446 §1.1): ``term:  definition`` lines in a Terminology section,
    continued on the indented lines below; ``peer`` keeps its first sentence."""
    got = {d.term: d for d in extract_definitions(parse_sections(RFC_TERMINOLOGY, "rfc8446.txt", "TLS"))}
    assert {"client", "handshake", "peer", "server"} <= set(got)
    assert got["client"].definition == "The endpoint initiating the TLS connection."
    assert got["handshake"].definition.endswith("subsequent interactions within TLS.")
    assert got["peer"].definition.startswith("An endpoint. When discussing")
    assert got["peer"].section_id == "1.1" and "Note" not in got


GDPR_LIST_FORM = """# Article 4 Definitions

For the purposes of this Regulation:

16. | ‘main establishment’ means: |  

	a. | as regards a controller with establishments in more than one Member State, the place of its central administration in the Union; |  

	b. | as regards a processor with establishments in more than one Member State, the place of its central administration in the Union;  

22. | ‘supervisory authority concerned’ means a supervisory authority which is concerned by the processing of personal data because: |  

	a. | the controller or processor is established on the territory of the Member State of that supervisory authority; or |  

	b. | a complaint has been lodged with that supervisory authority;  

23. | ‘cross-border processing’ means either: |  

	a. | processing of personal data in more than one Member State; or |  

	b. | processing of personal data in a single establishment which substantially affects data subjects in more than one Member State.  

24. | ‘relevant and reasoned objection’ means an objection to a draft decision;  
"""


def test_definitions_whose_body_is_in_lettered_sub_points_keep_them():
    """Trial 7 item 7 (GDPR Markdown, pienebbink/gdpr): ``‘main establishment’ means: |`` and
    ``… means either: |`` with ``a. | …`` points parsed as subsections keep their points; the
    table-cell bars of that Markdown are not part of the text."""
    tree = parse_sections(GDPR_LIST_FORM, "gdpr.md", "GDPR")
    got = {d.term: d.definition for d in extract_definitions(tree)}
    assert got["main establishment"].startswith("means a. as regards a controller with establishments")
    assert "b. as regards a processor" in got["main establishment"]
    assert got["cross-border processing"].startswith("means either a. processing of personal data")
    assert "b. processing of personal data in a single establishment" in got["cross-border processing"]
    assert "because a. the controller or processor" in got["supervisory authority concerned"]
    assert "|" not in "".join(got.values())
    assert "relevant and reasoned objection" not in got["cross-border processing"]  # the points stop at the next term


def test_a_definition_without_a_closing_stop_runs_on_into_its_bullets():
    """Trial 7 (Karaka NDA): ``"Confidential Information" refers to … and is either`` followed by a
    bulleted list; a closed definition does not take the list after it."""
    md = ('# Definition\n\nAs used herein, "Confidential Information" refers to any information which has commercial '
          'value and is either\n\n* technical information, including patents, or\n* non-technical information relating '
          'to products.\n\nAs used herein, "Recipient" refers to the signing person.\n\n* a list that is no limb\n')
    got = terms(md)
    assert got["Confidential Information"] == ("refers to any information which has commercial value and is either "
                                               "technical information, including patents, or non-technical information "
                                               "relating to products.")
    assert got["Recipient"] == "refers to the signing person."


def test_footnote_citations_name_no_terms_and_a_short_form_gets_its_full_name():
    """Trial 7 item 7 (GDPR): a footnote citing another instrument (``(‘Directive on electronic
    commerce’)``) defines nothing in this document; a short form inside a recital sentence
    (``… the case-law of the Court of Justice of the European Union (the ‘Court of Justice’) and …``)
    is defined by the name it shortens, not by the unrelated start of its sentence."""
    md = ("# Whereas\n\n41. | However, such a legal basis should be clear and precise and its application foreseeable, "
          "in accordance with the case-law of the Court of Justice of the European Union (the ‘Court of Justice’) and "
          "the European Court of Human Rights.\n\n# Article 2\n\n4. This Regulation shall be without prejudice to "
          "Directive 2000/31/EC [^eu8].\n\n[^eu8]:  Directive 2000/31/EC of the European Parliament and of the Council "
          "of 8 June 2000 on certain legal aspects of electronic commerce (‘Directive on electronic commerce’) "
          "(OJ L 178, 17.7.2000, p. 1).\n")
    got = terms(md)
    assert "Directive on electronic commerce" not in got
    assert got["Court of Justice"] == "Court of Justice of the European Union (the ‘Court of Justice’)"


def test_a_document_opening_naming_itself_is_defined_by_its_sentence_not_its_heading():
    """Trial 9 (the README's own example): ``# Master Services Agreement`` then ``This Master Services
    Agreement (the "Agreement") is entered into …`` defined "Agreement" as the heading glued to the
    sentence's start; the name opens its sentence, so the sentence is the definition."""
    md = ('# Master Services Agreement\n\nThis Master Services Agreement (the "Agreement") is entered into between '
          'Northwind Analytics Ltd ("Provider") and the customer named in the Order Form ("Customer").\n')
    got = terms(md)
    assert got["Agreement"].startswith('This Master Services Agreement (the "Agreement") is entered into between')
    assert "Master Services Agreement This" not in got["Agreement"]


def test_glossary_bodies_lose_their_dash_and_abbreviations_become_terms():
    """Trial 7 item 7 (OWASP ASVS 5.0 Appendix A): ``* **Term** – definition`` bodies start at the
    definition, not at ``– ``; ``**Term** (ABBR) – …`` and ``**Term** or **Other** – …`` also define
    the abbreviation and the other name."""
    md = ("# Appendix A: Glossary\n\n* **Allowlist** – A list of permitted data or operations.\n"
          "* **Cross-Site Scripting** (XSS) – A security vulnerability allowing script injection.\n"
          "* **Uniform Resource Identifier** (URI)- A unique string of characters that identifies a resource.\n"
          "* **Session Identifier** or **Session ID** – A key which identifies a stateful session.\n")
    got = terms(md)
    assert got["Allowlist"] == "A list of permitted data or operations."
    assert got["Cross-Site Scripting"] == got["XSS"] == "A security vulnerability allowing script injection."
    assert got["URI"].startswith("A unique string")
    assert got["Session ID"] == got["Session Identifier"] == "A key which identifies a stateful session."


@pytest.mark.parametrize("quoted", ["'data subject'", "‘data subject’", '"data subject"', "“data subject”",
                                    "«data subject»", "„data subject“"])
def test_a_lower_case_short_form_in_parentheses_is_defined_in_any_quote_style(quoted):
    text = (f"# Act\n\n## 1 Scope\n\nThis Act protects an identified natural person ({quoted}) and the "
            "controller (the \u201cController\u201d).\n\n## 2 Rights\n\nThe data subject may object at any time.\n")
    got = terms(text)
    assert "identified natural person" in got["data subject"] and "Controller" in got


def test_a_quoted_aside_used_once_is_no_definition():
    assert terms("# A\n\n## 1 Notes\n\nThe parts arrive in a crate ('as delivered') and are counted.\n") == {}
