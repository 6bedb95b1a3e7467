"""German citation vocabulary: federal and state statutes (gesetze-im-internet), EU acts in German,
German and Swiss contracts. Row format: see :mod:`.en`."""

KEYWORDS = (
    (("buch", "bücher"), "book", "buch", 0.5, "label cite"),  # BGB: Buch > Abschnitt > Titel > Untertitel > §
    (("teil", "teile"), "part", "teil", 1, "label cite"),
    (("kapitel",), "chapter", "kapitel", 2, "label cite"),
    (("abschnitt", "abschn.", "abschnitte"), "abschnitt", "abschnitt", 2, "label cite"),
    (("unterabschnitt", "unterabschnitte"), "unterabschnitt", "unterabschnitt", 3, "label cite"),
    (("titel",), "titel", "titel", 3, "cite"),
    (("untertitel",), "untertitel", "untertitel", 3.5, "cite"),
    (("anlage", "anl.", "anlagen"), "anlage", "anlage", 1, "label cite back"),
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

NOTE_LABELS = ("hinweis", "anmerkung", "fußnote", "beispiel", "beispiele")  # annotation labels (see en.py)

PACK = {
    "lang": "de",
    "months": MONTHS,
    "note_labels": NOTE_LABELS,
    "keywords": KEYWORDS,
    "case_sensitive": CASE_SENSITIVE,
    "xref_forms": XREF_FORMS,
    "pinpoints": PINPOINTS,
    "range_words": RANGE_WORDS,
    "list_words": LIST_WORDS,
    "contents_titles": CONTENTS_TITLES,
}
