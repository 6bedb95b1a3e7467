"""Justice Canada legislation XML (the consolidated Acts and regulations of
https://laws-lois.justice.gc.ca, published as ``justicecanada/laws-lois-xml``): the tree reshaped so
the legislation XML writer reads it like the other schemas.

The schema (``regulation_web.dtd``, root ``<Statute>`` or ``<Regulation>`` with the
``http://justice.gc.ca/lims`` namespace) differs from USLM, Akoma Ntoso and CLML in two ways that
matter to structure:

* its headings are **flat**: ``<Body>`` is a sequence of ``<Heading level="1">`` (``PART 1``),
  ``<Heading level="2">`` (``Interpretation``) and ``<Section>`` siblings, a heading governing the
  sections after it up to the next heading of the same or a higher level (schedules do the same
  with ``<GroupHeading>``). :func:`nest_headings` wraps each heading and what it governs in a
  ``<Group>`` element (its ``<Label>`` and ``<TitleText>`` as the group's number and title), so
  nesting depth is heading rank, as in the other schemas;
* a schedule's number and title sit in a ``<ScheduleFormHeading>`` (``SCHEDULE 1``, the title, the
  ``(Section 5)`` reference): they are moved up to the ``<Schedule>`` itself.

The provisions themselves are already nested (``<Section>`` → ``<Subsection>`` → ``<Paragraph>`` →
``<Subparagraph>`` → ``<Clause>``), each with its printed ``<Label>`` (``4.1``, ``(1)``, ``(a)``,
``(i)``) and a ``<MarginalNote>`` caption; defined terms are ``<DefinedTermEn>``.
"""

from __future__ import annotations

import re

LIMS_NAMESPACE = "http://justice.gc.ca/lims"
ROOTS = frozenset({"Statute", "Regulation"})
_HEADINGS = frozenset({"Heading", "GroupHeading"})
# elements whose headings are quoted amending text or a form, not the document's own structure
_QUOTED = frozenset({"AmendedText", "QuotedText", "FormGroup", "BillPiece"})
# a block the writer would otherwise leave at the tail of the last schedule: a titled part of its own
_TITLED_PARTS = {"RecentAmendments": "Recent Amendments"}


def is_justice_ca(root) -> bool:
    """A ``<Statute>``/``<Regulation>`` root that declares the Justice Canada ``lims`` namespace."""
    name = root.tag.rsplit("}", 1)[-1] if isinstance(root.tag, str) else ""
    return name in ROOTS and LIMS_NAMESPACE in (root.nsmap or {}).values()


def _local(el) -> str:
    return el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""


def _level(heading) -> int:
    """A heading's rank: ``level="2"``, a ``GroupHeading``'s ``format-ref="group1-part"`` → 1, else 1."""
    value = heading.get("level") or ""
    if not value.isdigit():
        m = re.search(r"group(\d)", heading.get("format-ref") or "")
        value = m.group(1) if m else "1"
    return int(value)


def nest_headings(root) -> None:
    """Reshape a Justice Canada tree in place (see the module docstring): flat headings become
    ``<Group>`` containers holding what they govern, schedule headings move up to the schedule, and
    the closing list of recent amendments gets a title of its own."""
    for el in list(root.iter()):
        if not isinstance(el.tag, str) or _inside_quoted(el):
            continue
        name = _local(el)
        if name == "Schedule":
            _hoist_schedule_heading(el)
        elif name in _TITLED_PARTS:
            el.tag = "Group"
            title = el.makeelement("TitleText", {})
            title.text = _TITLED_PARTS[name]
            el.insert(0, title)
        if any(_local(c) in _HEADINGS for c in el):
            _group_children(el)


def _inside_quoted(el) -> bool:
    return any(_local(a) in _QUOTED for a in el.iterancestors())


def _hoist_schedule_heading(schedule) -> None:
    head = next((c for c in schedule if _local(c) == "ScheduleFormHeading"), None)
    if head is None:
        return
    at = list(schedule).index(head)
    for child in [c for c in head if _local(c) in ("Label", "TitleText")]:
        schedule.insert(at, child)
        at += 1
    if len(head) == 0 and not (head.text or "").strip():
        schedule.remove(head)
    else:
        head.tag = "Provision"  # what is left ("(Section 5)"): a line of text under the heading


def _group_children(parent) -> None:
    """Wrap each heading child of ``parent`` and the siblings it governs in a ``<Group>``."""
    kids = list(parent)
    for c in kids:
        parent.remove(c)
    stack: list[tuple[int, object]] = [(0, parent)]
    for c in kids:
        if _local(c) in _HEADINGS:
            level = _level(c)
            while stack[-1][0] >= level:
                stack.pop()
            group = parent.makeelement("Group", {})
            for a in ("id", f"{{{LIMS_NAMESPACE}}}id"):
                if c.get(a):
                    group.set(a, c.get(a))
            for part in list(c):
                group.append(part)  # its Label and TitleText
            group.tail = c.tail
            stack[-1][1].append(group)
            stack.append((level, group))
        else:
            stack[-1][1].append(c)
