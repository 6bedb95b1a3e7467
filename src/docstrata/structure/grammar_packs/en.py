"""English citation vocabulary: statutes (UK, US, Australian, Canadian, NZ), EU acts in English,
contracts, standards and RFCs. Plain data read by :mod:`docstrata.structure.grammar`.

Keyword rows: ``(forms, kind, prefix, rank, roles)``

* ``forms``: written forms, lower case; the first is the word, the others its abbreviations
  (a form ending in ``.`` needs its dot) and plurals (``+s`` adds the plural of every word form);
* ``kind``: the canonical meaning the exact index keys on (``Art. 17`` and ``Artikel 17`` are both
  ``article 17``);
* ``prefix``: the section-id prefix the structure parser gives a unit so numbered (``article-17``),
  ``""`` for a plain section number (``Section 4.2`` is section ``4.2``);
* ``rank``: container rank, a lower rank encloses a higher one (Title 0 > Part 1 > Chapter 2 >
  Article 4 > Section 5; 9: a numbered unit holding no container);
* ``roles``: ``label`` — the parser reads ``<word> N`` opening a line as a section label;
  ``cite`` — a citation word of queries and section aliases (exact keys);
  ``xref`` — a cross-reference word in running text; ``transparent`` — its numbers are plain
  section numbers (``Rule 3.3.31`` is ``3.3.31``); ``relative`` — in running text it names an item of
  the enclosing section (``subsection (1)``); ``back`` — back matter (schedules, appendices);
  ``scope`` — a unit a definition's scope may name (``In this Book``) besides the label rows.
"""

KEYWORDS = (
    (
        ("book", "+s"),
        "book",
        "book",
        0.5,
        "cite scope",
    ),  # "In this Book" (a code's books); no label: "Book 2" opens prose too
    (("title",), "title", "title", 0, "label cite"),
    (("subtitle",), "subtitle", "subtitle", 0.5, "label"),  # US Acts and Code: Title I > Subtitle A > Part 1
    (("part", "+s"), "part", "part", 1, "label cite xref"),
    (("subpart",), "subpart", "subpart", 2, "label cite"),
    (("chapter", "ch.", "ch", "+s"), "chapter", "chapter", 2, "label cite xref"),
    (("subchapter",), "subchapter", "subchapter", 3, "label"),
    (("division", "div.", "+s"), "division", "division", 2, "label cite"),
    (("subdivision", "subdiv.", "+s"), "subdivision", "subdivision", 3, "label cite"),
    (("schedule", "sch.", "sched.", "+s"), "schedule", "schedule", 1, "label cite xref back"),
    (("appendix", "app.", "app", "appendices"), "appendix", "appendix", 1, "label cite xref back"),
    (("annex", "annexes"), "annex", "annex", 1, "label cite xref back"),
    # an agreement's exhibits ("Exhibit A: Definitions", "Exhibit B: Agreement Terms"), attached like schedules
    (("exhibit", "exh.", "+s"), "exhibit", "exhibit", 1, "label cite xref back"),
    (("amendment",), "amendment", "amendment", 1, "label cite"),
    (("article", "art.", "arts.", "+s"), "article", "article", 4, "label cite xref"),
    (
        ("section", "sec.", "sect.", "secs.", "sect", "sec", "s", "s.", "ss", "ss.", "+s"),
        "section",
        "",
        5,
        "label cite xref transparent",
    ),
    (("§", "§§"), "section", "", 5, "label cite xref transparent"),
    (("rule", "r.", "rr.", "+s"), "rule", "", 5, "label cite xref transparent"),
    (("clause", "cl.", "+s"), "clause", "", 5, "label cite xref transparent"),
    (("regulation", "reg.", "reg", "regs.", "+s"), "regulation", "", 5, "label cite xref transparent"),
    (("paragraph", "para.", "paras.", "para", "¶", "+s"), "paragraph", "", 9, "cite xref transparent relative"),
    (("subsection", "subs.", "+s"), "subsection", "", 9, "cite xref transparent relative"),
    # a numbered preamble paragraph of an EU-style act (read by structure.parse.recitals, never as a label)
    (("recital", "rec.", "+s"), "recital", "recital", 9, "cite xref"),
)

# Written forms that are a keyword only in the case given: "s 59A" (Australian short citation) and
# "APP 1" (Australian Privacy Principle) or "App11" (an ADGM rulebook's Appendix 11) — a capital "S"
# or a lower-case "app" is a word of the text.
CASE_SENSITIVE: dict[str, str | tuple[str, ...]] = {
    "s": "s",
    "s.": "s.",
    "ss": "ss",
    "ss.": "ss.",
    "app": ("APP", "App"),
    "r.": "r.",
    "rr.": "rr.",
}

# Forms the structure parser reads as a label besides each label row's word: abbreviations that
# open a numbered heading ("Sec. 101", "Art. 5", "§ 3", "APP 1" of the Australian Privacy Principles)
LABEL_FORMS = ("sect", "sec.", "art.", "§", "§§", "app")

# Abbreviations read as a cross-reference word in running text (the words of every "xref" row are);
# "s 59A", "ss 10-12" only in lower case, right before the number
XREF_FORMS = (
    "sec.",
    "secs.",
    "art.",
    "arts.",
    "para.",
    "paras.",
    "app.",
    "app",
    "sch.",
    "sched.",
    "§",
    "§§",
    "s",
    "s.",
    "ss",
    "ss.",
)

# Pinpoint words: a word that names a sub-item of the unit cited just before it, written as the
# "(n)" of a section id ("Article 3, paragraph 5" is article-3(5)). English writes pinpoints in
# brackets, so it has none of its own.
PINPOINTS = ()

# Keyword kinds whose number may carry its item's letter glued on: "Subsection 2d", "subsection 6a" (the GNU
# licences' way of citing item d) of section 2) are 2(d) and 6(a), never a section "2d" (a section's inserted
# number is written so: "section 106a" stays 106a)
GLUED_ITEMS = ("subsection",)

# Words joining an item to the unit it is an item of, written before it: "subsection 2 of NRS 1.117",
# "paragraph (b) of subsection 1 of section 3" (grammar.items_of: one pinpoint citation, 1.117(2), 3(1)(b))
ITEM_OF_WORDS = ("of",)

# Words with which a document's opening says which other document it amends, supplements or is part of, written
# right before that document's name: "The following additions to or modifications of the Bonterms Professional
# Services Agreement are agreed …", "This Addendum supplements the Master Services Agreement", "Schedule 2 to the
# Framework Agreement". A bare reference no section of the document holds ("Delete Section 11.2(b)") cites that
# document (structure.xrefs: the document's declared parent). Not "is governed by" or "is subject to": a
# sentence of any document says so of something it speaks of ("Access to a GitHub API is governed by the ToS")
PARENT_DOCUMENT_WORDS = (
    "additions to",
    "modifications of",
    "modifications to",
    "amendments to",
    "amendments of",
    "amendment to",
    "amendment of",
    "amends",
    "amending",
    "supplements",
    "supplementing",
    "supplement to",
    "supplemental to",
    "addendum to",
    "schedule to",
    "exhibit to",
    "annex to",
    "appendix to",
    "playbook for",
    "forms part of",
    "form part of",
)

# what a document says of itself to name the document it is under, after "this" and the name it calls
# itself by ("This SOW incorporates the Agreement", "This Order Form is governed by the Agreement", "This DPA
# forms part of the Agreement", "This AI Addendum amends and is incorporated into the following Agreement"):
# read only with that subject (structure.xrefs: the declared parent), so "Access to a GitHub API is governed
# by the ToS" names no parent. The document named may be a kind word alone ("the Agreement"): the one other
# document of that kind (a defined term or the title may name it)
SELF_PARENT_WORDS = (
    "incorporates",
    "is incorporated into",
    "is incorporated in",
    "is governed by",
    "will be governed by",
    "shall be governed by",
    "is part of",
    "forms part of",
    "is subject to",
    "is entered into under",
    "is entered into pursuant to",
    "is issued under",
    "is made under",
    "is executed under",
    "supplements",
    "amends",
)
# the words a document calls itself with before its name ("this SOW", "these Standard Terms", "the present
# Agreement")
SELF_WORDS = ("this", "these", "the present")

# How an amending Act words its instructions (structure.xrefs reads them: references inside an instruction, or
# under a provision that says what it amends, are the amended Act's, never this Act's own). Regular expressions
# over the text, case-sensitive unless they say otherwise:
# * "instruction": a paragraph holding one is an amendment instruction ("(A) by striking …", "Section 251A of the …
#   Act is amended—", UK "(c) in subsection (3), for “…” substitute “…”", "insert—", "omit sub-paragraph (3A)");
# * "by_this": written right before a citation, it makes the citation this Act's own ("as redesignated by clause
#   (ii)", "the amendments made by subsections (3) and (6)", "is amended in accordance with paragraphs 2 to 9");
# * "of_this": written right after a citation, likewise ("subsection (d)(2)(C) of this section");
# * "quotation_follows": a line ending so introduces the text the instruction inserts ("after subsection (2)
#   insert—"): the paragraphs after it are the amended Act's text;
# * "amends": what names the amended Act (or a provision of it) as its subject: "The Sentencing Code is amended as
#   follows", "Section 5 of the X Act 2000 (…) is amended in accordance with subsections (2) to (5)", "…, the
#   Sentencing Act 2020 is amended as follows—", "Schedule 7A of the Government of Wales Act 2006 is amended as
#   follows"; group ``which`` (optional) names the provisions of this Act that carry the amendments out;
# * "lead_in": a provision that narrows where the amendments under it apply: "In section 264 (…)—", "(c) in
#   subsection (3)—", "In paragraph 15(2) of Schedule 27 (…)—", "In the Sentencing Code, …"; group ``where`` is the
#   citation (or the Act) it names.
AMENDMENT = {
    "instruction": (
        r"\bby\s+(?:striking|inserting|adding|redesignating|amending|repealing)\b",
        r"\b(?:is|are)\s+(?:further\s+)?(?:amended|repealed)\b",
        r"\b(?:substitute|insert)\s*(?:[“\"‘]|[—–:]|$)",
        r"\bomit\b",
    ),
    "by_this": (
        r"\b(?:redesignated|amended|added|inserted|made)\s+by\s+$",
        r"\bamended\s+in\s+accordance\s+with\s+$",
    ),
    "of_this": (r"^\s*of\s+this\s+(?:section|subsection|paragraph|sub-paragraph|Act|title|division|Schedule|Part)\b",),
    "quotation_follows": (r"\b(?:insert|substitute)\s*[—–:]\s*$",),
    # the words every "amends" form holds, found first (the subject is read back from them)
    "amends_cue": (r"\b(?:is|are)\s+(?:further\s+)?(?:amended|modified)\s+(?:as\s+follows|in\s+accordance\s+with)",),
    "amends": (
        r"(?P<subject>[^.;—–:]{3,240}?)\s+(?:is|are)\s+(?:further\s+)?(?:amended|modified)\s+"
        r"(?:as\s+follows|in\s+accordance\s+with\s+(?P<which>[^.;—–:]{1,120}))",
    ),
    "lead_in": (
        r"^\s*(?:\([a-zA-Z0-9]{1,5}\)\s*)?(?i:in)\s+(?P<where>[^—–:;,]{2,200}?)\s*"
        r"(?:\((?=[^()]*\s)[^()]{2,160}\)\s*)?(?:[—–:]\s*$|,\s)",
    ),
}

# Words that may open a citation and name nothing ("the Section 4.2 …" is rare; kept for symmetry)
DETERMINERS = ("the",)

# Words joining the numbers of a range or a list ("Articles 12 to 22", "Articles 8, 11 and 42")
RANGE_WORDS = ("to", "through", "until")
LIST_WORDS = ("and", "or")
# words before a plural citation keyword whose list follows a colon later in the sentence ("the
# following Sections will survive …: 5.4 (Usage Data), 8.4 …")
LIST_OPENER_WORDS = ("following",)

# A question asking which provisions cite the one it names ("citing intent", read by grammar.citing_forms for
# the search: the citers rank first, as `cited-by` lists them). Lower case; spaces match any whitespace.
# before: written before the citation ("Which sections refer to Section 5.3?", "What cites Article 17?",
# "references to section 4"), only ``gap`` words between; after: a participle written after it with an
# auxiliary before the citation or between ("Where is Section 5.3 referred to?", "Section 4 is cited by …"),
# unless an ``outgoing`` word and another citation follow ("Section 5.3 referenced in Section 7" is what 7
# cites). "What does Section 5.3 refer to?" asks what 5.3 cites: no form here matches it.
CITING = {
    "before": (
        "refer to",
        "refers to",
        "referring to",
        "cite",
        "cites",
        "citing",
        "mention",
        "mentions",
        "mentioning",
        "reference",
        "references",
        "referencing",
        "cross-reference",
        "cross-references",
        "point to",
        "points to",
        "pointing to",
    ),
    "gap": ("to", "of", "the", "back", "also", "directly", "expressly"),
    "after": ("referred to", "cited", "mentioned", "referenced", "cross-referenced", "pointed to"),
    "auxiliaries": ("is", "are", "was", "were", "be", "been", "being", "ever", "also"),
    "outgoing": ("in", "by", "from", "within", "under"),
}

# Titles of a contents page, by what it lists: "contents" (the document's own table of contents),
# "lists" (lists of figures, tables …), "index" (a back-of-book index). Regular expressions over
# case-folded text with single spaces.
CONTENTS_TITLES = {
    "contents": (
        r"table of contents",
        r"(?:detailed |brief |summary of )?contents(?: at a glance)?",
        r"toc",
        r"arrangement of (?:sections|regulations|rules|clauses|articles|provisions)",
        r"table of provisions",
    ),
    "lists": (
        r"list of (?:figures|tables|appendices|appendixes|illustrations|exhibits|boxes|charts)"
        r"(?: and (?:figures|tables|exhibits))?",
    ),
    "index": (r"(?:subject )?index",),
}

# month names and abbreviations: a line opening "05 February 2026" is a date, not section 05
MONTHS = tuple(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)

# labels of notes and annotations set into a text ("Note", "Example 2", "Explanation.—"): a line they
# open is an annotation, and the word is never a defined term
NOTE_LABELS = (
    "note",
    "notes",
    "editorial note",
    "example",
    "examples",
    "explanation",
    "illustration",
    "illustrations",
    "see also",
)

# notes to whoever fills in a form or template, not terms of it: a label a bracketed note opens with or a
# line opens with ("[Drafting note: If the SOW does not include Deliverables, delete this entire row.]",
# "Drafting note: …", "[NTD: …]"), and the verbs a bracketed instruction opens with on a cover page ("[ Enter a
# description of the Services … ]", "[Fill in cadence of sending invoices …]"). Their words define nothing
# (structure.definitions reads around them), a bracketed note with any note label ("[Note: …]") neither
DRAFTING_NOTE_LABELS = (
    "drafting note",
    "drafting notes",
    "drafter's note",
    "drafters' note",
    "note to draft",
    "note to drafter",
    "note to drafters",
    "note to user",
    "note to users",
    "guidance note",
    "instructions",
    "ntd",
)
INSTRUCTION_VERBS = (
    "enter",
    "insert",
    "fill in",
    "describe",
    "specify",
    "choose",
    "select",
    "delete",
    "customize",
    "customise",
    "complete",
)

# Definition forms (read by structure.definitions): the verbs that follow a defined term ("**_company_**
# means:", "`appoint` includes …", "X, in relation to Y, has the meaning given by section N"); a quoted
# term before them is read everywhere, an emphasised or bare one in a definitions section or block
DEFINITIONS = {
    "verbs": (
        r"(?:shall\s+)?means?",
        r"(?:shall\s+)?includes?",
        r"does\s+not\s+include",
        r"(?:shall\s+)?refers?\s+to",
        r"(?:will\s+|shall\s+)?ha(?:s|ve)\s+(?:the\s+(?:same\s+)?|a\s+)meaning",
        r"is\s+defined\s+as",
    ),
    # the words a definition opens with after a bare term in a glossary laid out as "Term definition"
    # lines, no quotes and no verb ("Incapacity any sickness …", "Business Day A day other than …",
    # "Subsidiary in relation to a company …"): determiners and qualifying phrases
    "entry_openers": (
        "a",
        "an",
        "the",
        "any",
        "all",
        "each",
        "every",
        "either",
        "its",
        "his",
        "her",
        "their",
        "such",
        "those",
        r"in\s+relation\s+to",
        r"in\s+respect\s+of",
        r"with\s+respect\s+to",
        r"as\s+(?:defined|set\s+out|described|specified|referred\s+to)\b",
    ),
}

# words before a dotted number that make it a software version or release, not a provision ("version
# 3.2.1", "release 9.18", "v. 2.4.1"); a "v" glued to the number ("v1.2.3") is one word and never read
VERSION_WORDS = ("version", "versions", "ver.", "v.", "release", "releases", "build", "patch", "firmware")

# words naming a legislative instrument at the end of its title, before its year or number ("PERSONAL
# DATA PROTECTION ACT 2010", "The Information Technology Act, 2000", "Companies Ordinance (Cap. 32)"):
# what a title reads as, beside a collection's name over it ("LAWS OF MALAYSIA", "LAWS OF KENYA")
INSTRUMENT_WORDS = ("act", "ordinance", "enactment", "code", "regulations", "rules", "order", "decree", "bill")

# a caption: the forum a filing is made in or a letter comes from, set over the document's own name at the
# head of its first page ("IN THE UNITED STATES DISTRICT COURT FOR THE DISTRICT OF OREGON", "BEFORE THE
# TRADEMARK TRIAL & APPEAL BOARD", "IN THE UNITED STATES PATENT & TRADEMARK OFFICE", "SUPREME COURT OF THE
# UNITED STATES"): "in the" / "before the" and one of the forum words, or a court's name alone
CAPTION_OPENERS = ("in the", "before the")
FORUM_WORDS = (
    "court",
    "tribunal",
    "office",
    "board",
    "commission",
    "agency",
    "authority",
    "department",
    "panel",
    "chamber",
    "registry",
    "arbitrator",
    "ombudsman",
)
COURT_WORDS = ("court", "tribunal")
# the kind of a filing, which a caption's document names itself by ("PETITION FOR CANCELLATION", "NOTICE OF
# OPPOSITION", "COMPLAINT FOR DAMAGES", "MEMORANDUM OPINION AND ORDER", "DEFENDANT'S MOTION TO DISMISS")
FILING_WORDS = (
    "petition",
    "complaint",
    "motion",
    "brief",
    "answer",
    "reply",
    "response",
    "memorandum",
    "opinion",
    "order",
    "judgment",
    "judgement",
    "decree",
    "declaration",
    "affidavit",
    "notice",
    "stipulation",
    "opposition",
    "objection",
    "appeal",
    "application",
    "decision",
    "ruling",
    "findings",
    "award",
    "summons",
    "subpoena",
    "indictment",
    "verdict",
    "pleading",
    "counterclaim",
)

# the kind words a document's name is made of, singular: what "Section 4 of the Trust Legal Provisions",
# "section 2 of the GNU General Public License", "Section H of our Terms of Service" or "Article 28 of the
# Regulation" names is a document of that kind (another one, unless this document calls itself so: "this
# Agreement", its title's "Act"); a name holding none ("Section 3 of the Disclosure Schedule", "of the
# Company") names no document. A plural is read too ("Regulations", "Provisions", "Policies").
DOCUMENT_WORDS = (
    "act",
    "law",
    "code",
    "regulation",
    "rule",
    "directive",
    "decision",
    "recommendation",
    "treaty",
    "convention",
    "charter",
    "constitution",
    "protocol",
    "ordinance",
    "statute",
    "license",
    "licence",
    "agreement",
    "contract",
    "standard",
    "specification",
    "provision",
    "term",
    "policy",
    "statement",
    "guideline",
    "condition",
    "principle",
    "bylaw",
    "notice",
    "addendum",
    "deed",
    "rulebook",
)

# Other instruments a text cites by a short name of their own, as written (case kept), and what each is:
# "Art. 6(1)(b) GDPR", "under eIDAS". A citation followed or preceded by one names that instrument, never a
# section of the citing document (structure.xrefs); the name folds to the instrument's own citation, so a
# held copy titled "Regulation (EU) 2016/679 …" is the one cited by "GDPR", "RGPD" or "DSGVO" alike
# (grammar.instrument_names). Only names no document uses for anything else: not "DSA", "DORA", "UK GDPR"
INSTRUMENT_NAMES = (
    (("GDPR", "EU GDPR"), "Regulation (EU) 2016/679"),
    (("eIDAS", "eIDAS Regulation"), "Regulation (EU) No 910/2014"),
    (("NIS2", "NIS 2 Directive", "NIS2 Directive"), "Directive (EU) 2022/2555"),
    (("ePrivacy Directive",), "Directive 2002/58/EC"),
)
# the kind words of EU instruments in the pack's language, as "Regulation (EU) 2016/679" writes them: the
# instrument's number names it in any language (grammar.instrument_names)
INSTRUMENT_KINDS = {"regulation": "regulation", "directive": "directive", "decision": "decision"}

# ordinal words a back-matter unit is numbered with ("FIRST SCHEDULE", "The Second Schedule" of Commonwealth and
# Indian Acts): its number
ORDINAL_WORDS = {
    word: n
    for n, word in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth"
        " fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(),
        start=1,
    )
}

PACK = {
    "lang": "en",
    "ordinal_words": ORDINAL_WORDS,
    "instrument_words": INSTRUMENT_WORDS,
    "instrument_names": INSTRUMENT_NAMES,
    "instrument_kinds": INSTRUMENT_KINDS,
    "document_words": DOCUMENT_WORDS,
    "caption_openers": CAPTION_OPENERS,
    "forum_words": FORUM_WORDS,
    "court_words": COURT_WORDS,
    "filing_words": FILING_WORDS,
    "version_words": VERSION_WORDS,
    "definitions": DEFINITIONS,
    "months": MONTHS,
    "note_labels": NOTE_LABELS,
    "drafting_note_labels": DRAFTING_NOTE_LABELS,
    "instruction_verbs": INSTRUCTION_VERBS,
    "keywords": KEYWORDS,
    "label_forms": LABEL_FORMS,
    "xref_forms": XREF_FORMS,
    "case_sensitive": CASE_SENSITIVE,
    "pinpoints": PINPOINTS,
    "glued_items": GLUED_ITEMS,
    "item_of_words": ITEM_OF_WORDS,
    "parent_document_words": PARENT_DOCUMENT_WORDS,
    "self_parent_words": SELF_PARENT_WORDS,
    "self_words": SELF_WORDS,
    "determiners": DETERMINERS,
    "range_words": RANGE_WORDS,
    "list_words": LIST_WORDS,
    "list_opener_words": LIST_OPENER_WORDS,
    "contents_titles": CONTENTS_TITLES,
    "citing": CITING,
    "amendment": AMENDMENT,
}
