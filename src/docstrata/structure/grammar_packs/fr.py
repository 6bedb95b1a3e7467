"""French citation vocabulary: French, Belgian, Swiss, Canadian and EU acts in French. Row format:
see :mod:`.en`.

French "Section" is a group of articles: a container under Titre/Chapitre (French codes: Livre >
Titre > Chapitre > Section > Sous-section > Article; Canadian acts in French: Partie > Section >
Sous-section > article, the English "Division"). English spells the same word for its numbered
provision, so which row reads "Section" depends on the document's language
(``grammar.document_language``): in a French document this pack is read first.

A French act cites its numbered provision "article" (``l'article 7``, ``art. 7``), its subsection
"paragraphe" (``paragraphe 7(3)``), its paragraph "alinéa" (``alinéa 7(3)a)``) and subparagraph
"sous-alinéa" (``sous-alinéa 7(3)c.1)(i)``): where a document numbers its provisions bare (a
Canadian act, ids ``7``, ``7(3)``), ``PROVISION_WORDS`` are what each is cited by."""

KEYWORDS = (
    (("partie", "parties"), "part", "partie", 0.3, "label cite"),  # a code's "Partie 1" (its Parties législative …)
    (("livre", "livres"), "book", "livre", 0.5, "label cite"),
    (("titre", "titres"), "title", "titre", 0.7, "label cite"),
    (("chapitre", "chap.", "chapitres"), "chapter", "chapitre", 2, "label cite"),
    (("section", "sections"), "division", "section", 2.5, "label cite xref"),
    (("sous-section", "sous-sections"), "subsection-group", "sous-section", 3, "label cite"),
    # "paragraphe 7(3)", "l'alinéa 7(3)a)", "le sous-alinéa 7(3)c.1)(i)": Canadian French names of the
    # items of a provision, written before its number (after a number they are pinpoint words below)
    (("paragraphe", "par.", "paragraphes"), "subsection", "", 9, "cite xref transparent relative"),
    (("alinéa", "al.", "alinéas"), "paragraph", "", 9, "cite xref transparent relative"),
    (("sous-alinéa", "sous-al.", "sous-alinéas"), "subparagraph", "", 9, "cite transparent relative"),
    (("annexe", "annexes"), "annex", "annexe", 1, "label cite back"),
    # a French code's groups of articles below the Sous-section ("Paragraphe 1 : …", "Sous-paragraphe 2"):
    # heading labels only (as a citation word "paragraphe" is the Canadian item word above)
    (("paragraphe",), "paragraph-group", "paragraphe", 3.5, "label"),
    (("sous-paragraphe",), "subparagraph-group", "sous-paragraphe", 3.7, "label"),
)
CASE_SENSITIVE: dict[str, str] = {}

# A French code numbers its articles by the part they belong to: a letter (L législative, LO loi
# organique, R réglementaire (R* décret en Conseil d'État), D décret, A arrêté) and a hyphenated number
# whose first digits name the Livre, Titre and Chapitre ("L111-1", "R. 211-3", "D. 321-14",
# "R*512-9-3"): one number, cited alone ("L. 121-4") or after "article" (grammar.code_number)
CODE_NUMBER_PREFIXES = ("LO", "L", "R", "D", "A")

# words that stand for a container's number when it has no sibling ("Chapitre unique", "Titre préliminaire",
# "Section unique : Procédure"): the container is unnumbered but still ranks as its keyword does
UNNUMBERED_WORDS = ("unique", "préliminaire", "liminaire")

# ordinal words a container number is written with ("LIVRE Ier", "Chapitre 1er", "Section 1re"): number 1
ORDINAL_ONE = ("ier", "1er", "ire", "ière", "1re", "1ère", "premier", "première")

# how a French document cites a provision it numbers bare ("7(3)" of a Canadian act): "l'article 7(3)"
PROVISION_WORDS = ("Article", "Art.")

# Definition forms (read by structure.definitions): a quoted term then one of VERBS ("« X » s'entend
# de …", "« X » désigne …"); one of LEAD_INS then a quoted term ("on entend par « X » …"); and, in a
# definitions section, a line opening with a term in ENTRY_QUOTES followed by its meaning (Justice
# Canada's French form: "« renseignement personnel » Tout renseignement concernant …")
DEFINITIONS = {
    "verbs": (
        r"s['’]entend(?:\s+notamment)?(?:\s+au\s+sens)?\s+(?:de|d['’]|du|des)",
        r"désigne(?:nt)?",
        r"signifie(?:nt)?",
        r"(?:est|sont)\s+défini(?:e|s|es)?\s+comme",
    ),
    "lead_ins": (
        r"(?:on\s+)?entend(?:re)?\s+par",
        r"est\s+(?:appelée?|dénommée?)",
        r"ci-après(?:\s+(?:appelée?|dénommée?))?",
    ),
    "entry_quotes": ("«", "»"),
    "titles": (r"définitions?", r"terminologie", r"glossaire", r"lexique", r"interprétation"),
}

# "article 5, alinéa 2", "art. 3 al. 1 let. a" (Swiss): the "(2)" of article 5 and items below it
PINPOINTS = (
    (("alinéa", "al.", "alinéas"), "item"),
    (("paragraphe", "par."), "item"),
    (("lettre", "let."), "item"),
    (("point",), "item"),
    (("phrase",), "skip"),
)

# words that may open a citation and name nothing ("l'article 7", "le sous-alinéa 7(3)c.1)(i)")
DETERMINERS = ("l'", "l’", "le", "la", "les", "au", "aux", "du", "des", "de l'", "de l’", "de la")

RANGE_WORDS = ("à", "au")
LIST_WORDS = ("et", "ou")

# roman ordinal suffixes of inserted provisions are shared by all languages (grammar.SUFFIX_WORDS)
CONTENTS_TITLES = {
    "contents": (r"table des matières", r"sommaire"),
    "lists": (r"(?:liste|table) des (?:figures|tableaux|annexes)",),
    "index": (r"index(?: alphabétique)?",),
}

MONTHS = tuple(
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre "
    "janv févr fév avr juil sept oct nov déc".split()
)  # a line opening with a date ("1er janvier 2020", "5 févr. 2019")

# Citing intent (see en.py): "Quels articles renvoient à l'article 5 ?", "Où l'article 5 est-il cité ?"
CITING = {
    "before": (
        "renvoie",
        "renvoient",
        "renvoyant",
        "fait référence",
        "font référence",
        "faisant référence",
        "se réfère",
        "se réfèrent",
        "cite",
        "citent",
        "citant",
        "mentionne",
        "mentionnent",
        "mentionnant",
    ),
    "gap": ("à", "au", "aux", "l", "la", "le", "les"),
    "after": (
        "cité",
        "citée",
        "cités",
        "citées",
        "mentionné",
        "mentionnée",
        "mentionnés",
        "mentionnées",
        "référencé",
        "référencée",
    ),
    "auxiliaries": ("est", "sont", "a", "ont", "été", "il", "elle", "ils", "elles"),
    "outgoing": ("à", "au", "aux", "dans", "par"),
}

NOTE_LABELS = ("note", "notes", "remarque", "exemple", "exemples")  # annotation labels (see en.py)

# A citation of another act (read by structure.xrefs through grammar.external_document): after the cited
# number and its pinpoints ("l'article 1er, 7°, de l'arrêté royal du 8 janvier 1992", "l'article 5, § 2,
# de la loi du 15 juin 1935", "l'article L. 233-16 du code de commerce") a link word and a designator open
# the act's name, which runs to the punctuation, to NAME_END or 8 words. "de la présente loi", "du présent
# code" name no other act (no designator follows the link). Regular expressions, case-insensitive.
EXTERNAL = {
    "links": (r"du", r"de\s+la", r"de\s+l['’]", r"des", r"de"),
    # words pointing back at an act named before ("l'article 4 de cet arrêté", "du même arrêté royal",
    # "de ladite loi"): another act all the same, named by these words and its designator
    "anaphoric": (
        r"de\s+ce(?:t|tte)?(?:\s+même)?",
        r"dudit",
        r"de\s+ladite",
        r"desdits",
        r"desdites",
        r"du\s+même",
        r"de\s+la\s+même",
    ),
    "designators": (
        r"code",
        r"loi",
        r"arrêté",
        r"décret",
        r"ordonnance",
        r"règlement",
        r"directive",
        r"convention",
        r"traité",
        r"accord",
        r"protocole",
        r"circulaire",
        r"décision",
        r"statuts?",
    ),
    # what stands between the cited number and the link: "§ 2", "§§ 2 à 4", "7°", "6° et 7°", "alinéa 1er",
    # "premier alinéa", "8e tiret", "a)", "litt. b)"
    "pinpoints": (
        r"§§?\s*\d{1,3}(?:er|re)?(?:bis|ter|quater)?",
        r"\d{1,3}°(?:bis|ter)?",
        r"\d{1,2}(?:e|er|re|ème)\s+tiret",
        r"alinéas?\s+\d{1,2}(?:er|re)?",
        r"(?:premier|deuxième|troisième|quatrième|cinquième|dernier|avant-dernier)\s+alinéa",
        r"(?:litt?\.\s*)?[a-z]\)",
        r"points?\s+\d{1,3}",
        r"colonnes?\s+(?:[IVXLC]{1,6}|\d{1,2})\b",
        # "les articles L.335-2 et suivants du Code de la propriété intellectuelle", "art. 1240 et s. du Code civil"
        r"et\s+(?:suivants|suivantes|s\.)",
    ),
    # an act named before the citation by its date (and number), as the Justel consolidation notes each
    # amendment ("Modification à la Constitution 1993-05-05/30, art. 1", "L 2007-05-15/50, art. 3",
    # "L 31-07-1985, art. 1", "AR 2007-12-20/B5, art. 1"): capitalised words (and "à", "la", "de" between them), then the date
    "before": (
        r"(?P<name>(?<![\w'’])[A-Z][\w'’]*(?:[ \t]+(?:à|la|le|les|de|du|des|[A-Z][\w'’]*))*[ \t]+"
        r"(?:\d{4}-\d{2}-\d{2}(?:/[A-Z]?\d{1,4})?|\d{2}-\d{2}-\d{4}))\s*,\s*$"
    ),
    # where the sentence goes on after an act's name (which may hold "sur", "à", "relative au": "Loi sur les
    # banques"): a conjunction, verb or pronoun opening a clause ("du code du travail ne s'appliquent",
    # "… ci-après reproduits"), or a list going on to another reference ("du code de commerce et
    # l'article L. 1-2"); "et" inside a name stays ("code rural et de la pêche maritime")
    "name_end": (
        r"\s+(?:(?:et|ou)\s+(?:l['’]|les?\b|la\b|aux?\b|à\b|du\b|[LRDA]\b)|n['’]|"
        r"(?:en|ou|après|avant|qui|que|lorsque|si|sans|ne|ci-après|"
        r"précitée?s?|reproduite?s?|sont|est|font|fait|peut|peuvent|doit|doivent)(?:\s|$))"
    ),
}

# Instruments cited by a short name (see en.py): "article 6.1.b RGPD", "art. 1240 C. civ.", "article L. 122-4
# CPI"; the name folds to the instrument's own citation (grammar.instrument_names)
INSTRUMENT_NAMES = (
    (("RGPD",), "Regulation (EU) 2016/679"),
    (("CPI",), "Code de la propriété intellectuelle"),
    (("C. civ.", "C.civ.", "C. civ"), "Code civil"),
    (("C. consom.", "C. cons."), "Code de la consommation"),
    (("C. trav.",), "Code du travail"),
    (("LCEN",), "loi n° 2004-575 du 21 juin 2004"),
)
# kind words of EU instruments in French ("règlement (UE) 2016/679", "directive 95/46/CE"), folded to one
INSTRUMENT_KINDS = {"règlement": "regulation", "directive": "directive", "décision": "decision"}

# words that, after an article's number and a comma, name one of its paragraphs ("l'article 4, § 2" of a
# Belgian act is paragraph 2 of article 4, its "(2)"), not a section inside a container
ITEM_WORDS = ("§", "§§")

# words before a dotted number that make it a software version, not a provision ("version 3.2.1")
VERSION_WORDS = ("version", "versions")

# finite verbs that make a line prose, not a heading ("Le Roi nomme et révoque ses ministres.",
# "Sont susceptibles de conférer des droits :"): the drafting verbs of an act's provisions, in the
# third person (never a heading's noun: "fixe", "règle" are left out)
FINITE_VERBS = (
    "est sont peut peuvent doit doivent sera seront était étaient ont serait seraient pourra pourront "
    "nomme nomment exerce exercent comprend comprennent détermine déterminent s'applique s'appliquent "
    "entend désigne désignent garantit garantissent"
).split()

PACK = {
    "lang": "fr",
    "provision_words": PROVISION_WORDS,
    "code_number_prefixes": CODE_NUMBER_PREFIXES,
    "ordinal_one": ORDINAL_ONE,
    "unnumbered_words": UNNUMBERED_WORDS,
    "definitions": DEFINITIONS,
    "note_labels": NOTE_LABELS,
    "finite_verbs": FINITE_VERBS,
    "months": MONTHS,
    "keywords": KEYWORDS,
    "case_sensitive": CASE_SENSITIVE,
    "pinpoints": PINPOINTS,
    "determiners": DETERMINERS,
    "range_words": RANGE_WORDS,
    "list_words": LIST_WORDS,
    "contents_titles": CONTENTS_TITLES,
    "external": EXTERNAL,
    "instrument_names": INSTRUMENT_NAMES,
    "instrument_kinds": INSTRUMENT_KINDS,
    "item_words": ITEM_WORDS,
    "version_words": VERSION_WORDS,
    "citing": CITING,
}
