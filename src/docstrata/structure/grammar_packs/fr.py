"""French citation vocabulary: French, Belgian, Swiss, Canadian and EU acts in French. Row format:
see :mod:`.en`. French "Section" (a group of articles inside a Chapitre) is spelt as the English
numbered unit; the English row reads it, and the document's own layout (structure.parse.ranks)
makes it a container where it holds Articles."""

KEYWORDS = (
    (("livre", "livres"), "book", "livre", 0.5, "label cite"),
    (("titre", "titres"), "title", "titre", 0.7, "label cite"),
    (("chapitre", "chap.", "chapitres"), "chapter", "chapitre", 2, "label cite"),
    (("sous-section",), "subsection-group", "sous-section", 3, "cite"),
    (("annexe", "annexes"), "annex", "annexe", 1, "label cite back"),
)
CASE_SENSITIVE: dict[str, str] = {}

# "article 5, alinéa 2", "art. 3 al. 1 let. a" (Swiss): the "(2)" of article 5 and items below it
PINPOINTS = (
    (("alinéa", "al.", "alinéas"), "item"),
    (("paragraphe", "par."), "item"),
    (("lettre", "let."), "item"),
    (("point",), "item"),
    (("phrase",), "skip"),
)

RANGE_WORDS = ("à", "au")
LIST_WORDS = ("et", "ou")

# roman ordinal suffixes of inserted provisions are shared by all languages (grammar.SUFFIX_WORDS)
CONTENTS_TITLES = {
    "contents": (r"table des matières", r"sommaire"),
    "lists": (r"(?:liste|table) des (?:figures|tableaux|annexes)",),
    "index": (r"index(?: alphabétique)?",),
}

MONTHS = tuple(
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split()
)  # a line opening with a date

NOTE_LABELS = ("note", "notes", "remarque", "exemple", "exemples")  # annotation labels (see en.py)

PACK = {
    "lang": "fr",
    "note_labels": NOTE_LABELS,
    "months": MONTHS,
    "keywords": KEYWORDS,
    "case_sensitive": CASE_SENSITIVE,
    "pinpoints": PINPOINTS,
    "range_words": RANGE_WORDS,
    "list_words": LIST_WORDS,
    "contents_titles": CONTENTS_TITLES,
}
