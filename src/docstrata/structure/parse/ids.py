"""Final pass of :mod:`docstrata.structure.parse`: repeated ids qualified by their container
(``article-ii/1``) or suffixed, parent ids and chains filled, and the raw citation aliases of
each numbered section (``Article 17``, ``Art. 17``, ``§ 4.2``)."""

from __future__ import annotations

import re

from ...models import Section
from ..grammar import back_matter_prefixes, code_number, expand, parse_citation
from .labels import _first_words
from ..grammar import provision_words
from .patterns import _BARE_ALIAS_KEYWORDS, _KEYWORDS

_CONTAINER_PREFIXES = frozenset(prefix for prefix, _ in _KEYWORDS.values() if prefix)
_PREFIX_RANK = {prefix: rank for prefix, rank in sorted(_KEYWORDS.values(), key=lambda pr: -pr[1]) if prefix}
_BACK_MATTER = back_matter_prefixes()  # schedule, appendix, annex, anlage, annexe


def _make_unique(sections: list[Section]) -> dict[int, str]:
    """Make ids unique: subsections numbered afresh under each lettered or numbered heading are
    qualified by it, all of them (:func:`_qualify_restarting_numbers`: ``B/1`` … ``B/5``, ``D/1`` …
    ``D/8``); repeats under a container (``Section 1`` of every Article, an appendix restarting at
    ``1.1``) are qualified by it (``article-ii/1``); the main-body occurrence keeps the bare id;
    anything still repeated gets a ``-2``, ``-3`` suffix."""
    _qualify_restarting_numbers(sections)
    before = [s.section_id for s in sections]
    by_id: dict[str, list[int]] = {}
    for pos, s in enumerate(sections):
        by_id.setdefault(s.section_id, []).append(pos)
    # the back matter runs from the first back-matter container to the end: what an Act prints after
    # its schedules (a reprint's list of amendments, "9 Act A1322") is no section of its body
    first_back = next((pos for pos, s in enumerate(sections) if s.number and _is_back_container(s.section_id)), None)
    qualified_back: set[str] = set()  # back-matter containers some of whose units were qualified
    for sid, group in by_id.items():
        if len(group) < 2:
            continue
        containers = [_container_of(pos, sections) for pos in group]
        after_back = [c is None and first_back is not None and pos > first_back for pos, c in zip(group, containers)]
        # a Schedule's "Part 2" holding its paragraph 13 is back matter too, no Part of the Act's body
        back = [
            c is not None and (c.split("-")[0] in _BACK_MATTER or _within_back(pos, sections)) or a
            for pos, c, a in zip(group, containers, after_back)
        ]
        # section 4.1 of an Act's Part 1 and clause 4.1 of its Schedule 1: the one body occurrence
        # keeps the bare id ("Section 4.1" names the Act's own), the schedule's is qualified
        body_one = (
            all(c is not None or a for c, a in zip(containers, after_back)) and any(back) and back.count(False) == 1
        )
        bare_kept = False
        for pos, container, in_back in zip(group, containers, back):
            if container is not None and sid.startswith((container + "(", container + "/")):
                # article-23(1) twice inside Article 23 (its paragraph 1, then a footnote's "(1)"):
                # qualifying by the Article says nothing; the first keeps the id, the rest get "-2"
                bare_kept = True
                continue
            if (container is None or body_one and not in_back) and not bare_kept:
                bare_kept = True
            elif container is not None:
                sections[pos].section_id = f"{container}/{sid}"
                if in_back:
                    qualified_back.add(container)
            elif sections[pos].parent_id:
                sections[pos].section_id = f"{sections[pos].parent_id}/{sid}"
    if qualified_back and first_back is not None:
        # a Schedule numbering its paragraphs afresh (some repeat the Act's section numbers) names every
        # one of them inside it: schedule/20 beside schedule/4, never a bare "20" read as a section
        for pos in range(first_back + 1, len(sections)):
            s = sections[pos]
            if s.number and _BARE_NUMBER.match(s.section_id) and _container_of(pos, sections) in qualified_back:
                s.section_id = f"{_container_of(pos, sections)}/{s.section_id}"
    _qualify_items_with_their_unit(sections, before)
    # ids that differ only in case ("6A" of one form, "6a" of another) are one citation to a reader
    seen: set[str] = set()
    counts: dict[str, int] = {}
    suffixed: dict[int, str] = {}  # id(section) → its id before the "-N" suffix
    for s in sections:
        base = s.section_id
        if base.casefold() in seen:
            counts[base.casefold()] = counts.get(base.casefold(), 1) + 1
            s.section_id = f"{base}-{counts[base.casefold()]}"
            suffixed[id(s)] = base
        seen.add(s.section_id.casefold())
    return suffixed


def _qualify_items_with_their_unit(sections: list[Section], before: list[str]) -> None:
    """The items of a unit qualified by its back-matter container are qualified with it: paragraph 2 of an Act's
    Schedule is ``schedule/2`` (its number repeats section 2's), so its sub-paragraphs and their limbs
    are ``schedule/2(2)``, ``schedule/2(2)(a)`` — every one of them, not only those whose number the
    body also holds (a bare ``2(2)(a)`` read as the limb of the Act's section 2). ``before``: the ids
    before qualifying, in section order."""
    stack: list[int] = []
    for pos, s in enumerate(sections):
        while stack and sections[stack[-1]].level >= s.level:
            stack.pop()
        if stack:
            p = stack[-1]
            old, new = before[p], sections[p].section_id
            sid = s.section_id
            if (
                old != new
                and new.endswith("/" + old)
                and _is_back_container(new[: -len(old) - 1])
                and sid.startswith(old)
                and sid[len(old) : len(old) + 1] == "("
            ):
                s.section_id = new + sid[len(old) :]
        stack.append(pos)


# a heading numbered by a letter, a roman numeral or a number alone (``B. Account Terms``, ``IV.``,
# ``2. Services``): no container word, so :func:`_container_of` does not see it
_NUMERAL_ID = re.compile(r"^(?:[A-Za-z]|[IVXLCDM]+|\d+)$")
_BARE_NUMBER = re.compile(r"^\d{1,3}[A-Za-z]?$")


def _qualify_restarting_numbers(sections: list[Section]) -> None:
    """Subsections whose numbers start afresh under each heading of a lettered or numbered series
    (the GitHub Terms of Service: ``B. Account Terms`` holds ``1.`` … ``5.``, ``D.`` holds ``1.`` …
    ``8.``) are named inside their heading, every one of them: ``B/1`` … ``B/5``, ``D/1`` … ``D/8``.
    Qualifying only the numbers seen before (the collision rule of :func:`_make_unique`) gave ``1`` …
    ``5`` to B's, ``D/1`` … ``D/5`` but bare ``6`` … ``8`` to D's, so an id said nothing about where a
    section stands and ``B/3`` named nothing. A numbered list item of a lettered heading (``1.`` of
    ``A. Definitions``, id ``A.1``) is one of its subsections like a heading; one of a numbered
    heading keeps its clause number (``2.1``: :func:`.build._path_and_id`).

    The series is the headings of one numbering kind (letters and roman numerals, or numbers) at
    one level; its subsections restart when some number stands under two of them. A series whose
    subsections number on through the document (A holds 1–3, B holds 4–6) is left bare: there
    ``Section 5`` names one section."""
    parents: list[int | None] = []
    stack: list[int] = []
    for pos, s in enumerate(sections):
        while stack and sections[stack[-1]].level >= s.level:
            stack.pop()
        parents.append(stack[-1] if stack else None)
        stack.append(pos)
    series: dict[tuple[str, int], dict[int, list[tuple[int, str]]]] = {}
    for pos, s in enumerate(sections):
        p = parents[pos]
        if p is None or not s.number or not sections[p].number:
            continue
        pid = sections[p].section_id
        if not _NUMERAL_ID.match(pid):
            continue
        written = s.number.strip().rstrip(".)")
        sid = s.section_id
        if _BARE_NUMBER.match(sid) and written == sid:
            local = sid  # "### 3. Account Requirements" under "## B. Account Terms"
        elif sid == f"{pid}.{written}" and not pid.isdigit() and _BARE_NUMBER.match(written) and s.number[-1:] in ".)":
            # list item "1." under "## A. Definitions" (build: A.1); under "## 2." an item is clause 2.1,
            # the number the document cites it by, and keeps it
            local = written
        else:
            continue
        kind = "digit" if pid.isdigit() else "alpha"
        series.setdefault((kind, sections[p].level), {}).setdefault(p, []).append((pos, local))
    for held in series.values():
        seen: dict[str, int] = {}
        restarts = False
        for p, children in held.items():
            for _, local in children:
                if seen.setdefault(local, p) != p:
                    restarts = True
        if not restarts:
            continue
        for p, children in held.items():
            for pos, local in children:
                sections[pos].section_id = f"{sections[p].section_id}/{local}"


def _is_back_container(section_id: str) -> bool:
    """``schedule``, ``schedule-2``, ``appendix-a``: a back-matter container's own id."""
    last = section_id.split("/")[-1]
    return last in _BACK_MATTER or bool(_CONTAINER_ID.match(last)) and last.split("-")[0] in _BACK_MATTER


# a container's id: its prefix (one word or hyphenated: "sous-section") and its number
_CONTAINER_ID = re.compile(r"^([a-z]+(?:-[a-z]+)*)-([0-9a-z]+)$")


def _within_back(pos: int, sections: list[Section]) -> bool:
    """Some section enclosing ``sections[pos]`` is a back-matter container (``schedule-2``)."""
    level = sections[pos].level
    for x in reversed(sections[:pos]):
        if x.level < level:
            if x.number and _is_back_container(x.section_id):
                return True
            level = x.level
            if level == 1:
                break
    return False


def _container_of(pos: int, sections: list[Section]) -> str | None:
    """The nearest ancestor whose id names a container (``article-ii``, ``appendix-1``, an Act's only
    ``schedule``)."""
    level = sections[pos].level
    for x in reversed(sections[:pos]):
        if x.level < level:
            if x.number and (
                _CONTAINER_ID.match(x.section_id) or x.section_id in _BACK_MATTER
            ):  # "schedule": the only one
                return x.section_id
            level = x.level
            if level == 1:
                break
    return None


def _fill_aliases_and_chains(sections: list[Section], suffixed: dict[int, str]) -> None:
    """Parent ids (after renaming), parent chains and raw citation aliases."""
    stack: list[Section] = []
    for s in sections:
        while stack and stack[-1].level >= s.level:
            stack.pop()
        parent = stack[-1] if stack else None
        s.parent_id = parent.section_id if parent else None
        s.parent_chain = (parent.parent_chain if parent else []) + [_chain_title(s.title)]
        s.aliases = _aliases(s, parent, suffixed.get(id(s)))
        s.aliases += [a for a in _span_member_aliases(s) if a not in s.aliases]
        stack.append(s)


def _span_member_aliases(s: Section) -> list[str]:
    """A unit that stands for a span (``§§ 3 bis 6 (weggefallen)``, ``§§ 114 und 115``: repealed
    provisions the law keeps as one entry) is cited by each member it names: ``§ 4``, ``§ 5`` …
    (the citation grammar's :func:`~..grammar.expand` of its heading); only its first number was."""
    head = s.title.split(" (")[0]
    if not (s.number and head.startswith(s.number)):
        return []
    cited = parse_citation(head)
    if cited is None or not cited.is_multiple:
        return []
    first, kw = cited.unit.number, cited.unit.keyword
    word = "§" if kw.startswith("§") else kw  # "§§ 3 bis 6" → "§ 4"; "Artt. 3 bis 5" → "Artt. 4" reads as Art. 4
    return [a for c in expand(cited) if (n := c.unit.number) != first for a in (f"{word} {n}", n)]


def _container_name(s: Section, parent: Section | None) -> str | None:
    """``Chapter 6`` for a section whose id is qualified by ``chapter-6/`` or whose parent is that
    container (so "Chapter 6, section M" finds section M of chapter 6); ``None`` otherwise."""
    cid = s.section_id.split("/")[0] if "/" in s.section_id else (parent.section_id if parent else "")
    cm = _CONTAINER_ID.match(cid or "")
    own = re.match(r"^([a-z]+)-", s.section_id.split("/")[-1])
    if (
        not cm
        or code_number(s.section_id.split("/")[-1])  # a code's article number is unique in the code
        or cm.group(1) not in _CONTAINER_PREFIXES
        or s.section_id.startswith(cid + "(")
        or own
        and "/" not in s.section_id
        and not _PREFIX_RANK.get(cm.group(1), 9) < _PREFIX_RANK.get(own.group(1), 0) < 4
    ):
        # a keyword unit is cited inside its container only when it is a container of a lower rank
        # itself: "Part V, Division 1AA" (so "Part V Division 1AA" names the Division), not
        # "Chapter II, Article 5" (an Article's number is unique in its act)
        return None
    num = cm.group(2).upper() if re.fullmatch(r"[ivxlc]+|[a-z]", cm.group(2)) else cm.group(2)
    return f"{cm.group(1).capitalize()} {num}"


def _chain_title(title: str) -> str:
    """A title as shown in a location line: at most ~10 words ("Article 89 Safeguards and
    derogations relating to processing for archiving purposes …")."""
    words = title.split()
    return title if len(words) <= 12 else _first_words(words, 10)


def _lettered_part_aliases(s: Section, parent: Section | None) -> list[str]:
    """How a clause numbered inside a part lettered A, B, C … is cited: ``Section D.3``, ``D.3``
    (a contract's Part D, clause 3, as the GitHub Corporate Terms cite theirs), ``Section B(5)``,
    ``B(5)`` (as the GitHub Terms of Service cite theirs); empty otherwise."""
    number, part = (s.number or "").rstrip(".)"), (parent.number or "").rstrip(".") if parent else ""
    if not (len(part) == 1 and "A" <= part <= "Z" and number.isdigit() and len(number) <= 3):
        return []
    dotted, bracketed = f"{part}.{number}", f"{part}({number})"
    out = [f"Section {dotted}", f"Sec. {dotted}", f"§ {dotted}", dotted, f"Section {bracketed}", bracketed]
    if "/" in s.section_id:
        # numbered inside its part (B/5): a bare "Section 5" names every part's 5, and a search says so
        # (:func:`~docstrata.index.exact.qualified_alias_keys`: the within: keys)
        out.append(f"Section {part}, Section {number}")
    return out


def _aliases(s: Section, parent: Section | None, undeduped: str | None = None) -> list[str]:
    """The raw ways a reader could cite ``s`` (for the exact index, normalised elsewhere)."""
    if not s.number:
        return []
    # A repeat's "-2" suffix only makes the id unique; nobody cites it that way.
    sid = (undeduped or s.section_id).split("/")[-1]
    m = re.match(r"^([a-z]+(?:-[a-z]+)*)-([0-9a-z]+)(.*)$", sid)
    out: list[str] = []
    code = re.match(r"^([^()]+)(.*)$", sid)
    if code and code_number(code.group(1)):
        # a French code's article (L121-4): cited "Article L. 121-4", "art. L121-4" or the number alone
        num, tail = code.groups()
        out += [f"Article {num}{tail}", f"Art. {num}{tail}", f"{num}{tail}"]
    elif m:
        kw, num, tail = m.groups()
        num = num.upper() if re.fullmatch(r"[ivxlc]+|[a-z]", num) else num
        name = kw.capitalize()  # "Sous-section 1"
        out += [f"{name} {num}{tail}"]
        if kw == "article":
            out.append(f"Art. {num}{tail}")
        if kw == "appendix":
            out.append(f"App. {num}{tail}")
        if kw == "recital" and not tail:  # "recital (26)" as EU acts cite it, "Rec. 26"
            out += [f"Recital ({num})", f"Rec. {num}"]
    elif s.number and s.number.startswith("(") and parent is not None and parent.aliases:
        out += [a + s.number for a in parent.aliases if not a.endswith(")") or "(" in a]
    else:
        out += [f"Section {sid}", f"Sec. {sid}", f"§ {sid}", sid]
        out[1:1] = [f"{w} {sid}" for w in provision_words()]  # "Article 7(3)" of an act in French
        written_kw = re.match(r"^([A-Za-z]+)\.?\s", s.number or "")
        if written_kw and written_kw.group(1).lower() not in _BARE_ALIAS_KEYWORDS:
            out.insert(0, f"{written_kw.group(1).capitalize()} {sid}")
    # a paragraph's bare number ("4" of article-7(4)) cites nothing alone: "§ 4" is a section sign
    paragraph = bool(m) and bool(m.group(3)) and bool(re.fullmatch(r"\d{1,3}[a-z]?", s.number or ""))
    # an item numbered inside its unit ("1.1" of anlage-2(1.1): "Anlage 2 Nummer 1.1") is cited with it
    item = bool(re.search(rf"\({re.escape(s.number.strip('().'))}\)$", sid)) if s.number.strip("().") else False
    if (
        s.number
        and s.number not in out
        and not paragraph
        and not item
        and not re.fullmatch(r"\(?\w{1,4}(?:\.\d{1,2})?[.)]", s.number)
    ):
        out.append(s.number.rstrip("."))
    if undeduped:
        return []  # a second "3.3.3" ("-2"): citing its number names the first one
    lettered = _lettered_part_aliases(s, parent)
    if lettered:  # "Section D.3": clause 3 of a part lettered D, whatever its id
        return list(dict.fromkeys([*lettered, *([] if "/" in s.section_id else out)]))
    sign = re.fullmatch(r"§\s?(\w+)", s.number or "")
    if sign and parent is not None and s.section_id.startswith(parent.section_id + "/"):
        # an Article's paragraph "§ 2" (article-8/2, :func:`.build._is_article_sign_paragraph`): cited
        # with its Article ("article 8, § 2"); alone, "§ 2" names no one paragraph
        return [f"{a}, § {sign.group(1)}" for a in parent.aliases[:2]]
    container = _container_name(s, parent)
    if container:
        qualified = [f"{container}, {a}" for a in out[:2] if not a.lower().startswith(container.lower())]
        # a repeat qualified by its container ("article-ii/1") answers only the qualified
        # citation: the bare one ("Section 1") belongs to every Article's section 1
        out = qualified + ([] if "/" in s.section_id else out)
    elif "/" in s.section_id:
        return []  # a repeat of another section's number ("2.2/2.2.1", "6.1.2-2"): citing it names the other
    return list(dict.fromkeys(a for a in out if a))
