"""Document families as declarative profiles (``docs/architecture.md``, "Adding a family").

A :class:`Profile` is data: how a family is recognised, the container words it nests and their
ranks, its number scheme and the id its sections get. The mechanism around it is generic: the
convert stage asks :func:`converter_for_xml` / :func:`converter_for_markdown` whether a registered
profile recognises a source and, if so, runs that family's converter, which reads the profile and
returns a :class:`~docstrata.convert.document.ConvertedDocument` whose headings state their level
and number; the structure stage then takes those headings as stated (no family code there).

The citation vocabulary (what a reader types: ``§ 13 Abs. 2``, ``Art. 5(1)(a)``) is not a family
fact and does not live here: it is the citation grammar's.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Profile:
    """One document family's layout facts.

    ``name``: the family (``"gesetze-im-internet"``). ``formats``: file extensions it comes in.
    Recognised by: ``xml_root`` (local name of the root element) for XML, or for Markdown
    ``front_matter_keys`` (any of these keys, ``key:`` or ``key =``, in a leading block between
    ``front_matter_fence`` lines: ``---`` YAML, ``%%%`` TOML) together with ``text_markers`` (any
    of these lines in the text). ``containers``: the family's container
    words in its own language, outermost first, with their rank (lower encloses higher); the
    source's markup states the nesting, so ranks order only siblings' kinds. ``ordinals``: ordinal
    words its container labels may use (``Erster Abschnitt`` = ``Abschnitt 1``). ``number_scheme``:
    how sections are numbered (``"sign"``: ``§ 13``; ``"dotted"``: 1, 1.1; ``"letter-dotted"``: A,
    A.1). ``id_template``: the section id made from a number (``"{n}"``: ``13``, ``4.2``;
    containers ``"{word}-{n}"``: ``abschnitt-2``). ``section_words``: how the source writes its
    numbered unit, mapped to the word the number is written with (``"Art"`` → ``"Artikel"``).
    ``converter``: ``"module:function"`` of the family's converter in :mod:`docstrata.convert`.
    ``xml_children``: child elements an XML root of the family always holds, where its root's
    name alone is shared with other schemas (eISB's ``<act>``). ``characters``: empty elements
    that stand for one character (eISB ``<euro/>`` → ``€``, ``<odq/>`` → ``“``).
    """

    name: str
    formats: frozenset[str]
    converter: str
    xml_root: str | None = None
    xml_children: tuple[str, ...] = ()
    front_matter_keys: tuple[str, ...] = ()
    front_matter_fence: str = "---"
    text_markers: tuple[str, ...] = ()
    containers: tuple[tuple[str, float], ...] = ()
    ordinals: dict[str, int] = field(default_factory=dict)
    number_scheme: str = "dotted"
    id_template: str = "{n}"
    container_id_template: str = "{word}-{n}"
    section_words: dict[str, str] = field(default_factory=dict)
    characters: dict[str, str] = field(default_factory=dict)

    def recognises_xml(self, root) -> bool:
        """Whether a parsed XML root is of this family: its root element's local name, in no
        namespace when ``xml_children`` is given, holding every one of those child elements."""
        tag = root.tag.rsplit("}", 1)[-1] if isinstance(root.tag, str) else ""
        if "xml" not in self.formats or self.xml_root is None or tag != self.xml_root:
            return False
        if not self.xml_children:
            return True
        kids = {c.tag for c in root if isinstance(c.tag, str)}
        return not root.tag.startswith("{") and all(name in kids for name in self.xml_children)

    def recognises_markdown(self, text: str) -> bool:
        """Whether Markdown ``text`` is of this family: a leading front matter (between
        ``front_matter_fence`` lines) naming one of ``front_matter_keys`` and one of
        ``text_markers`` on a line of its own."""
        if "md" not in self.formats or not self.front_matter_keys:
            return False
        m = _front_matter(self.front_matter_fence).match(text)
        if not m or not any(re.search(rf"(?m)^{re.escape(k)}\s*[:=]", m.group(1)) for k in self.front_matter_keys):
            return False
        return not self.text_markers or any(re.search(rf"(?m)^{re.escape(t)}\s*$", text) for t in self.text_markers)

    def load_converter(self) -> Callable:
        """The family's converter function (imported on first use)."""
        module, func = self.converter.split(":")
        return getattr(importlib.import_module(module), func)


def _front_matter(fence: str) -> re.Pattern:
    """The leading block from an opening ``fence`` line to the next line opening with ``fence``
    (kramdown-rfc's YAML runs from ``---`` to a bare ``---`` or to the first ``--- abstract``;
    mmark's TOML title block from ``%%%`` to ``%%%``)."""
    f = re.escape(fence)
    return re.compile(rf"\A(?:\ufeff)?{f}[ \t]*\n(.*?)\n(?={f}(?:[ \t]|$))", re.S | re.M)


def _registered() -> tuple[Profile, ...]:
    from .eisb import PROFILE as EISB
    from .gesetze_im_internet import PROFILE as GII
    from .kramdown_rfc import PROFILE as KRAMDOWN_RFC
    from .mmark import PROFILE as MMARK

    return (GII, EISB, KRAMDOWN_RFC, MMARK)


def profile_named(name: str) -> Profile:
    """The registered profile called ``name``; raises :class:`KeyError` naming the known ones."""
    for p in _registered():
        if p.name == name:
            return p
    raise KeyError(f"no document-family profile {name!r} (known: {', '.join(p.name for p in _registered())})")


def converter_for_xml(root) -> Callable | None:
    """The converter of the first profile that recognises this XML root, bound to that profile:
    ``f(root, doc_key) -> ConvertedDocument``; ``None`` when no profile does."""
    for p in _registered():
        if p.recognises_xml(root):
            convert = p.load_converter()
            return lambda r, doc_key, _p=p, _c=convert: _c(r, doc_key, _p)
    return None


def converter_for_markdown(text: str) -> Callable | None:
    """The converter of the first profile that recognises this Markdown text, bound to that
    profile: ``f(text, doc_key, warnings) -> ConvertedDocument``; ``None`` when no profile does."""
    for p in _registered():
        if p.recognises_markdown(text):
            convert = p.load_converter()
            return lambda t, doc_key, warnings, _p=p, _c=convert: _c(t, doc_key, warnings, _p)
    return None
