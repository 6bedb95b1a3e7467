"""EUR-Lex XHTML for :mod:`.html`: an Official Journal act (``oj-*`` CSS classes, as
eur-lex.europa.eu serves it) writes each heading as two paragraphs, its label and its title:

* ``<p class="oj-ti-art">Article 5</p>`` then ``<div class="eli-title"><p class="oj-sti-art">
  Conditions for re-use</p></div>``;
* ``<p class="oj-ti-section-1">CHAPTER II</p>`` then ``<p class="oj-ti-section-2">…</p>`` (Chapters
  and their Sections alike).

Markdown puts a blank line between the two, so the section tree would read a label with no title.
Here each pair becomes one paragraph, the title on the line below its label (``Article 5``
``<br>`` ``Conditions for re-use``), which the section tree reads as that label's title. The act's
own title is its ``eli-main-title`` (``oj-doc-ti`` paragraphs), not the page's ``<title>`` (a file name).
"""

from __future__ import annotations

# label class → the class of the title paragraph that follows it
_TITLE_PAIRS = {"oj-ti-art": "oj-sti-art", "oj-ti-section-1": "oj-ti-section-2"}


def _text(tag) -> str:
    return " ".join(tag.get_text(" ").split())


def _classes(tag) -> set[str]:
    return set(tag.get("class") or []) if tag is not None and tag.attrs is not None else set()


def join_eu_titles(soup) -> int:
    """Join each EUR-Lex heading label with the title paragraph after it (in place); returns how
    many were joined. A label whose next paragraph is body text (an article with no title) is
    left alone."""
    joined = 0
    for label_class, title_class in _TITLE_PAIRS.items():
        for label in soup.find_all("p", class_=label_class):
            title = label.find_next("p")
            if title is None or title_class not in _classes(title):
                continue
            words = _text(title)
            if not words:
                continue
            label_words = _text(label)
            label.clear()  # plain words: markup inside ("<span>Chapter 1</span>\n") would break the line twice
            label.append(label_words)
            label.append(soup.new_tag("br"))  # label and title on two lines of one paragraph
            label.append(words)
            wrapper = title.parent
            title.decompose()
            if wrapper is not None and "eli-title" in _classes(wrapper) and not _text(wrapper):
                wrapper.decompose()
            joined += 1
    return joined


def eu_act_title(soup) -> str | None:
    """The act's title from its ``eli-main-title`` block (``REGULATION (EU) 2022/868 … of 30 May
    2022 on European data governance …``), its ``oj-doc-ti`` paragraphs joined; ``None`` for a
    page that is no Official Journal act."""
    block = soup.find(class_="eli-main-title")
    parts = block.find_all("p", class_="oj-doc-ti") if block is not None else []
    if not parts:
        first = soup.find("p", class_="oj-doc-ti")
        parts = [first] if first is not None else []
    text = " ".join(_text(p) for p in parts)
    return text or None
