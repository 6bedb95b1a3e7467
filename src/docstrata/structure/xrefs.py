"""Cross-references ("Section 4.2", "§ 203(a)", "Article 6(1)", "Rule 3.3.31", "GEN 3.3.31").

Entry points: :func:`extract_cross_references` (a whole tree) and
:func:`find_cross_references` (one passage, e.g. a chunk). Each reference's ``target`` is
normalised like section ids (DESIGN §5: ``4.2``, ``203(a)``, ``article-6(1)``) and resolved to
the finest section of the same document that exists: the exact id, else the nearest
enclosing one (``article-6(1)`` → ``article-6``), else the first section inside it
(``2.1.1`` → ``2.1.1(1)``). References that name another instrument ("section 196 of the
FSMR", "GEN 3.3.31" from a document that is not GEN) are kept with ``section_id=None``.
"""

from __future__ import annotations

import re
from ..models import CrossReference, DocumentTree

_NUMBER = r"(?:[A-Z]?\d{1,4}[A-Z]{0,2}(?:\.\d{1,4}[A-Z]{0,2})*(?:\s?\((?:\d{1,3}|[a-z]{1,4}|[A-Z]{1,3})\))*)"
_ROMAN = r"(?:[IVXLC]{1,7}\b)"
_KEYWORD = (r"(?P<kw>Sections?|SECTIONS?|Secs?\.|SEC\.|§§?|Rules?|Articles?|ARTICLES?|Arts?\.|Paragraphs?|"
            r"paragraphs?|paras?\.|[Ss]ubsections?|[Cc]lauses?|Parts?|PART|Chapters?|CHAPTER|Schedules?|"
            r"Appendix|Appendices|APP|App\.?|Annex(?:es)?|[Ss]ections?|[Rr]ules?|[Aa]rticles?|[Pp]arts?|"
            r"[Cc]hapters?|[Ss]chedules?|[Rr]egulations?)")
_SEP = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|to|through|until)\s+|\s*[-–]\s*)"
_KW_REF_RE = re.compile(
    rf"(?<![\w.]){_KEYWORD}\s*(?P<nums>(?:{_NUMBER}|{_ROMAN})(?:{_SEP}(?:{_NUMBER}|{_ROMAN}))*)"
)
_QUALIFIED_RE = re.compile(r"(?<![\w.])(?P<doc>[A-Z]{2,6})\s+(?P<nums>\d{1,3}(?:\.\d{1,3}[A-Z]?){1,4}(?:\(\w{1,4}\))*)")
_BARE_RE = re.compile(r"(?<![\w.(])(?P<nums>[A-Z]?\d{1,3}[A-Z]?(?:\.\d{1,3}[A-Z]{0,2}){2,5}(?:\((?:\d{1,3}|[a-z]{1,4})\))*)(?![\w.]*\d)")
_ONE_NUMBER_RE = re.compile(rf"{_NUMBER}|{_ROMAN}")
_RANGE_RE = re.compile(r"\s+(?:to|through|until)\s+|\s*[-–]\s*")
_EXTERNAL_RE = re.compile(
    r"^\s*(?:of|in|under)\s+(?:the\s+)?(?P<name>[A-Z][A-Za-z]*(?:\s+(?:[A-Z][A-Za-z]*|of|and|No\.|\d{4}))*)")
_SELF_WORDS = {"this", "these", "the"}
_PREFIX = {"article": "article", "art": "article", "part": "part", "chapter": "chapter", "schedule": "schedule",
           "appendix": "appendix", "appendices": "appendix", "app": "appendix", "annex": "annex", "annexes": "annex"}
_RELATIVE = {"paragraph", "paragraphs", "para", "paras", "subsection", "subsections"}


def _keyword_prefix(kw: str) -> str | None:
    """``Articles`` → ``article``; ``Section``/``§``/``Rule`` → ``""``; relative kinds → ``None``."""
    k = kw.lower().rstrip(".")
    if k in _RELATIVE:
        return None
    for stem, prefix in _PREFIX.items():
        if k == stem or k == stem + "s":
            return prefix
    return ""


def _normalise(number: str, prefix: str) -> str:
    n = re.sub(r"\s+", "", number).rstrip(".")
    if prefix:
        head = re.match(r"^([^.(]+)(.*)$", n)
        return f"{prefix}-{head.group(1).lower()}{head.group(2)}"
    return n


def _expand(nums: str) -> list[str]:
    """``4.13.5 to 4.13.8`` → the four numbers; ``8.1 and 8.2`` → both."""
    found = [m for m in _ONE_NUMBER_RE.finditer(nums)]
    out: list[str] = []
    for a, b in zip(found, found[1:] + [None]):
        out.append(a.group(0))
        if b is None:
            continue
        between = nums[a.end():b.start()]
        if _RANGE_RE.fullmatch(between):
            out.extend(_between(a.group(0), b.group(0)))
    return list(dict.fromkeys(out))


def _between(first: str, last: str) -> list[str]:
    """Numbers strictly between two siblings: ``4.13.5``, ``4.13.8`` → ``4.13.6``, ``4.13.7``."""
    fa, la = first.rsplit(".", 1) if "." in first else ("", first), last.rsplit(".", 1) if "." in last else ("", last)
    if fa[0] != la[0] or not fa[1].isdigit() or not la[1].isdigit():
        return []
    lo, hi = int(fa[1]), int(la[1])
    if not 0 < hi - lo <= 50:
        return []
    return [f"{fa[0]}.{k}" if fa[0] else str(k) for k in range(lo + 1, hi)]


class _Resolver:
    """Maps a normalised target to a section id of one tree."""

    def __init__(self, tree: DocumentTree):
        self.ids = {s.section_id for s in tree.sections}
        self.local: dict[str, str] = {}
        for s in tree.sections:  # "article-ii/1" is also reachable as "1" when unambiguous
            tail = s.section_id.split("/")[-1]
            self.local.setdefault(tail, s.section_id)
        self.sorted_ids = sorted(self.local)
        name = f"{tree.title} {tree.doc_key}"
        self.own_names = set(re.findall(r"[A-Z]{2,6}", name))

    def resolve(self, target: str) -> str | None:
        found = self._resolve(target)
        if found is None and re.match(r"^(chapter|part)-\d", target):
            found = self._resolve(target.split("-", 1)[1])  # chapters numbered "12." without the keyword
        return found

    def _resolve(self, target: str) -> str | None:
        if target in self.ids:
            return target
        if target in self.local:
            return self.local[target]
        coarser = target
        while True:
            shorter = re.sub(r"(\([^()]*\)|\.[^.()]+)$", "", coarser)
            if shorter == coarser or not shorter:
                break
            coarser = shorter
            if coarser in self.local:
                finer = self._first_inside(target)
                return finer or self.local[coarser]
        return self._first_inside(target)

    def _first_inside(self, target: str) -> str | None:
        import bisect

        pos = bisect.bisect_left(self.sorted_ids, target)
        for cand in self.sorted_ids[pos:pos + 50]:
            if not cand.startswith(target):
                break
            if cand[len(target):len(target) + 1] in ("(", "."):
                return self.local[cand]
        return None


# The chunker calls find_cross_references once per chunk; build each tree's index once.
_RESOLVERS: dict[int, tuple[DocumentTree, _Resolver, int]] = {}


def _resolver(tree: DocumentTree) -> _Resolver:
    cached = _RESOLVERS.get(id(tree))
    if cached is not None and cached[0] is tree and len(tree.sections) == cached[2]:
        return cached[1]
    r = _Resolver(tree)
    if len(_RESOLVERS) > 32:
        _RESOLVERS.clear()
    _RESOLVERS[id(tree)] = (tree, r, len(tree.sections))
    return r


def _names_other_instrument(after: str, resolver: _Resolver) -> bool:
    m = _EXTERNAL_RE.match(after)
    if not m:
        return False
    name = m.group("name")
    first = name.split()[0].lower()
    if first in _SELF_WORDS:
        return False
    acronyms = set(re.findall(r"\b[A-Z]{2,6}\b", name))
    if acronyms and acronyms & resolver.own_names:
        return False
    return bool(acronyms) or bool(re.search(r"\b(Act|Law|Regulations?|Rules|Directive|Code|Treaty|Convention)\b", name))


def _relative_base(source_section_id: str | None) -> str | None:
    """``article-6(1)(a)`` → ``article-6``: what "paragraph 2" is relative to."""
    if not source_section_id:
        return None
    return re.sub(r"\(.*$", "", source_section_id.split("/")[-1]) or None


def find_cross_references(text: str, tree: DocumentTree, source_section_id: str | None) -> list[CrossReference]:
    """References made in ``text`` (a passage of ``tree``), resolved against ``tree``.

    Args:
        text: the passage (Markdown or plain text).
        tree: the document the passage belongs to; its section ids are the resolution space.
        source_section_id: the section the passage stands in; set on every reference and
            used to resolve relative references ("paragraph 2" of the same article).

    Returns:
        One :class:`CrossReference` per referenced number, in text order (a list
        "Sections 8.1 and 8.2" gives two; a range "4.13.5 to 4.13.8" gives each number).
    """
    resolver = _resolver(tree)
    refs: list[CrossReference] = []
    taken: list[tuple[int, int]] = []
    for m in _KW_REF_RE.finditer(text):
        prefix = _keyword_prefix(m.group("kw"))
        external = _names_other_instrument(text[m.end():m.end() + 120], resolver)
        for number in _expand(m.group("nums")):
            if prefix is None:
                base = _relative_base(source_section_id)
                target = f"{base}({number})" if base and "-" in base and number.isdigit() else _normalise(number, "")
            else:
                if re.fullmatch(_ROMAN, number) and not prefix:
                    continue  # "Section I" style is too ambiguous without a container keyword
                target = _normalise(number, prefix)
            refs.append(_ref(m.group(0), target, None if external else resolver.resolve(target), source_section_id))
        taken.append(m.span())
    for m in _QUALIFIED_RE.finditer(text):
        if _inside(m.span(), taken) or m.group("doc") in ("RFC", "TLS", "ISO", "UTC"):
            continue
        own = m.group("doc") in resolver.own_names
        target = _normalise(m.group("nums"), "")
        refs.append(_ref(m.group(0), target, resolver.resolve(target) if own else None, source_section_id))
        taken.append(m.span())
    for m in _BARE_RE.finditer(text):
        if _inside(m.span(), taken) or _starts_line(text, m.start()):
            continue  # a number opening a line is a label, not a reference
        target = _normalise(m.group("nums"), "")
        external = _names_other_instrument(text[m.end():m.end() + 120], resolver)
        refs.append(_ref(m.group(0), target, None if external else resolver.resolve(target), source_section_id))
    return refs


def _starts_line(text: str, pos: int) -> bool:
    return not text[text.rfind("\n", 0, pos) + 1:pos].strip(" \t#*>|")


def _inside(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return any(a <= span[0] < b or a < span[1] <= b for a, b in taken)


def _ref(text: str, target: str, section_id: str | None, source: str | None) -> CrossReference:
    return CrossReference(text=" ".join(text.split()), target=target, section_id=section_id, source_section_id=source)


def extract_cross_references(tree: DocumentTree) -> list[CrossReference]:
    """Every reference made in ``tree``, per section (``source_section_id`` set), in document order."""
    out: list[CrossReference] = []
    for s in tree.sections:
        body = f"{s.heading}\n{s.text}" if s.heading else s.text
        for ref in find_cross_references(body, tree, s.section_id):
            if ref.section_id != s.section_id:  # a section's own label is not a reference
                out.append(ref)
    return out
