"""German citation vocabulary: federal and state statutes (gesetze-im-internet), EU acts in German,
German and Swiss contracts. Row format: see :mod:`.en`."""

KEYWORDS = (
    (("buch", "bücher"), "book", "buch", 0.5, "label cite"),  # BGB: Buch > Abschnitt > Titel > Untertitel > §
    (("teil", "teile"), "part", "teil", 1, "label cite"),
    (("kapitel",), "chapter", "kapitel", 2, "label cite"),
    (("unterkapitel",), "unterkapitel", "unterkapitel", 2.5, "label cite"),  # BGB §§ 556d ff.: Kapitel > Unterkapitel
    (("abschnitt", "abschn.", "abschnitte"), "abschnitt", "abschnitt", 2, "label cite"),
    (("unterabschnitt", "unterabschnitte"), "unterabschnitt", "unterabschnitt", 3, "label cite"),
    (("titel",), "titel", "titel", 3, "cite"),
    (("untertitel",), "untertitel", "untertitel", 3.5, "cite"),
    (("anlage", "anl.", "anlagen"), "anlage", "anlage", 1, "label cite back"),
    # an annex of a standard, contract or EU act in German ("Anhang A", "Anhang II"): back matter as Anlage is
    (("anhang", "anh.", "anhänge"), "annex", "anhang", 1, "label cite xref back"),
    (("artikel", "art.", "artt."), "article", "artikel", 4, "label cite xref"),
    (("paragraf", "paragrafen"), "section", "", 5, "cite"),
)
CASE_SENSITIVE: dict[str, str] = {}
XREF_FORMS = ("art.", "artt.")

# "§ 7 Abs. 3 Satz 2 Nr. 1 Buchst. a": Absatz is the "(3)" of section 7, Nummer and Buchstabe the
# items below it; a sentence (Satz) is not a unit of the structure, so it is read and left out.
# Rows: (forms, what) — what is "item" (a bracketed sub-item) or "skip" (read, not kept).
PINPOINTS = (
    (("absatz", "abs.", "absätze"), "item"),
    (("unterabsatz", "uabs.", "unterabs."), "item"),
    (("nummer", "nr.", "nrn."), "item"),
    (("buchstabe", "buchst.", "lit."), "item"),
    (("satz", "s.", "halbsatz", "hs."), "skip"),
)

RANGE_WORDS = ("bis",)
# words that join two citations read together, the act named after the second being the first's too
# ("Artikel 56 Absatz 1 in Verbindung mit Artikel 4 Nummer 16 der Verordnung (EU) 2016/679")
CHAIN_WORDS = ("in Verbindung mit", "i. V. m.", "i.V.m.", "iVm")
LIST_WORDS = ("und", "oder", "sowie")

CONTENTS_TITLES = {
    "contents": (r"inhaltsübersicht", r"inhaltsverzeichnis", r"inhalt"),
    "lists": (r"(?:abbildungs|tabellen)verzeichnis",),
    "index": (r"stichwortverzeichnis", r"sachregister"),  # not "Register": an English title too
}

MONTHS = tuple(
    "januar februar märz april mai juni juli august september oktober november dezember jänner "
    "jan jän feb mär apr jun jul aug sep sept okt nov dez".split()
)  # a line opening with a date ("24. November 2019", "1. Jan. 2020"; Jänner: Austria)

# Citing intent (see en.py): "Welche Vorschriften verweisen auf § 5?", "Wo wird auf § 5 verwiesen?"
CITING = {
    "before": (
        "verweist auf",
        "verweisen auf",
        "verweisend auf",
        "nimmt bezug auf",
        "nehmen bezug auf",
        "bezug nimmt auf",
        "bezug nehmen auf",
        "zitiert",
        "zitieren",
        "erwähnt",
        "erwähnen",
    ),
    "gap": ("den", "die", "das", "dem", "der"),
    "after": ("verwiesen", "zitiert", "erwähnt", "bezug genommen"),
    "auxiliaries": ("wird", "werden", "wurde", "wurden", "ist", "sind", "auch", "auf"),
    "outgoing": ("in", "im", "von", "durch"),
}

NOTE_LABELS = ("hinweis", "anmerkung", "fußnote", "beispiel", "beispiele")  # annotation labels (see en.py)

# A citation of another act (read by structure.xrefs through grammar.external_document): after the cited
# number and its pinpoints, a genitive article, the act's adjectives and a designator — a word or the end
# of a compound ("§ 13 des Bürgerlichen Gesetzbuchs", "§ 14 des Handelsgesetzbuchs", "§ 13 der
# Abgabenordnung", "Artikel 88 der Verordnung (EU) 2016/679", "§ 3 des Gesetzes über …"). "dieses
# Gesetzes", "dieser Verordnung" name this act (no link word). A GENERIC designator alone ("§ 5 des
# Gesetzes") names no particular act and stays with this one. Regular expressions, case-insensitive.
EXTERNAL = {
    "links": (r"des", r"der", r"dem"),
    "adjectives": r"(?:[A-ZÄÖÜ][\wäöüß]*(?:en|er|es)\s+){0,3}",
    "designators": (
        r"[\wäöüß-]*gesetzbuch(?:e?s)?",
        r"[\wäöüß-]*gesetz(?:e?s)?",
        r"[\wäöüß-]*ordnung",
        r"[\wäöüß-]*richtlinie",
        r"[\wäöüß-]*vertrag(?:e?s)?",
        r"[\wäöüß-]*übereinkommens?",
        r"[\wäöüß-]*abkommens?",
        r"satzung",
        r"charta",
        r"beschlusses",
    ),
    "generic": (
        "gesetz",
        "gesetzes",
        "gesetzbuch",
        "gesetzbuchs",
        "gesetzbuches",
        "verordnung",
        "ordnung",
        "richtlinie",
        "vertrag",
        "vertrages",
        "vertrags",
        "satzung",
        "abkommens",
        "übereinkommens",
    ),
    # the act's name goes on with its number ("(EU) 2016/679", "Nr. 1234/2011") or "über", "vom", "zur" …
    "name_words": r"(?:über|vom|zur|zum|für|zu|mit|von|auf|gegen|bei|des|der|den|dem|die|das|und|betreffend)",
}

# words before a dotted number that make it a software version, not a provision ("Version 3.2.1")
VERSION_WORDS = ("version", "versionen")

# Instruments cited by a short name (see en.py): "Art. 6 Abs. 1 lit. b DSGVO", "§ 823 BGB"; the name folds to
# the instrument's own citation (grammar.instrument_names)
INSTRUMENT_NAMES = (
    (("DSGVO", "DS-GVO"), "Regulation (EU) 2016/679"),
    (("BGB",), "Bürgerliches Gesetzbuch"),
    (("HGB",), "Handelsgesetzbuch"),
    (("BDSG",), "Bundesdatenschutzgesetz"),
)
# kind words of EU instruments in German ("Verordnung (EU) 2016/679", "Richtlinie 95/46/EG"), folded to one
INSTRUMENT_KINDS = {"verordnung": "regulation", "richtlinie": "directive", "beschluss": "decision"}

PACK = {
    "lang": "de",
    "months": MONTHS,
    "note_labels": NOTE_LABELS,
    "keywords": KEYWORDS,
    "case_sensitive": CASE_SENSITIVE,
    "xref_forms": XREF_FORMS,
    "pinpoints": PINPOINTS,
    "range_words": RANGE_WORDS,
    "chain_words": CHAIN_WORDS,
    "list_words": LIST_WORDS,
    "contents_titles": CONTENTS_TITLES,
    "external": EXTERNAL,
    "instrument_names": INSTRUMENT_NAMES,
    "instrument_kinds": INSTRUMENT_KINDS,
    "version_words": VERSION_WORDS,
    "citing": CITING,
}
