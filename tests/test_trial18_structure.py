"""Two structure faults a new user's trial found (session 18), on the two real documents it read
(fixtures in ``tests/fixtures/trial18-structure``, see its NOTICE.md), through ``convert_file`` and
``build_tree`` as ingest reads them.

* The CNCF charter (Markdown) writes section 11's items ``-\\t(a) …``, `` -\\t(b) …``,
  `` -\\t(c) …``: the last two with a space before the dash. CommonMark lets a list marker stand up
  to three spaces in, so the three are items of one list; the space made ``(b)`` and ``(c)`` deeper
  than ``(a)``, they were dropped as items and their text (11(b)(ii)'s "(i) accompanied by a
  Developer Certificate of Origin sign-off") was read as 11(a)'s.
* The NATS.IO petition for cancellation (PDF): paragraph 4 goes on over a page break "… attached
  hereto as" / "Exhibit C. As the result of that domain name transfer, …". That line cites an
  exhibit; it opened a container ``exhibit-c`` holding paragraphs 5-17. Paragraph 17's limbs
  ``a.`` … ``d.`` have text between them, so ``c.`` (read first as roman 100) and ``d.`` were not
  taken as continuing ``b.``, nor ``18.`` … ``20.`` as the paragraphs after 17.
"""

from __future__ import annotations

from pathlib import Path

from docstrata.convert import convert_file
from docstrata.sources import source_file
from docstrata.structure import build_tree
from docstrata.structure.parse.scan import _markdown_lists

FIXTURES = Path(__file__).parent / "fixtures" / "trial18-structure"
CHARTER = FIXTURES / "cncf-charter-sections-10-12.md"
PETITION = FIXTURES / "nats-io-petition-for-cancellation.pdf"


def _sections(path: Path) -> dict:
    return {s.section_id: s for s in build_tree(convert_file(source_file(path))).sections}


def test_charter_items_written_with_a_leading_space_are_siblings() -> None:
    by_id = _sections(CHARTER)
    assert [(sid, s.parent_id) for sid, s in by_id.items() if sid.startswith("11")] == [
        ("11", None),
        ("11(a)", "11"),
        ("11(b)", "11"),
        ("11(c)", "11"),
    ]
    assert "Developer Certificate of Origin" in by_id["11(b)"].text
    assert "Developer Certificate of Origin" not in by_id["11(a)"].text
    assert "trademark and logo assets" in by_id["11(a)"].text
    assert "alternative inbound or outbound license" in by_id["11(c)"].title + by_id["11(c)"].text


def test_list_columns_fold_commonmark_slack_but_keep_nesting() -> None:
    lines = CHARTER.read_text(encoding="utf-8").split("\n")
    tags = ("(a) Any", "(b) In the case", "(c) If an alternative", "i. Each project")
    starts = {tag: next(n for n, ln in enumerate(lines) if ln.lstrip(" -\t").startswith(tag)) for tag in tags}
    assert lines[starts["(b) In the case"]].startswith(" -")  # the source's own leading space
    columns, lists = _markdown_lists(lines)
    assert (
        columns[starts["(a) Any"]]
        == columns[starts["(b) In the case"]]
        == columns[starts["(c) If an alternative"]]
        == 0
    )
    assert columns[starts["i. Each project"]] > columns[starts["(b) In the case"]]  # "\t-\ti." is nested in (b)
    # one list (markdown-it-py's CommonMark reading), and "i." an item of a list of its own inside (b)
    assert lists[starts["(a) Any"]] == lists[starts["(b) In the case"]] == lists[starts["(c) If an alternative"]]
    assert lists[starts["i. Each project"]] != lists[starts["(b) In the case"]]


def test_petition_exhibit_mention_opens_no_container() -> None:
    by_id = _sections(PETITION)
    assert not any(sid.startswith("exhibit") for sid in by_id)
    assert "Exhibit C. As the result of that domain name transfer" in by_id["4"].text
    assert by_id["5"].parent_id == by_id["4"].parent_id


def test_an_item_answered_by_its_section_is_not_high(tmp_path) -> None:
    """Charter 11(a)'s roman items (``i. Have ownership …``) are no sections: "section 11(a)(i)" is
    answered by 11(a), the most specific section so numbered. The answer says the citation was
    widened and is not ``high`` (it was, with the widened section pinned as if it were the item)."""
    from .conftest import ingested

    ts = ingested(tmp_path, [CHARTER])
    try:
        hits = ts["docs"].search("What does section 11(a)(i) of the charter require?", top_k=3)
        assert (hits[0].section_id, hits[0].pinned) == ("11(a)", True)
        assert hits.confidence.level == "medium"
        assert "'Section 11(a)(i)' is no section here: the first hit is 11(a)" in hits.confidence.reason
        whole = ts["docs"].search("What does section 11(a) of the charter require?", top_k=3)
        assert whole[0].section_id == "11(a)" and "is no section here" not in whole.confidence.reason
    finally:
        ts.close()


def test_petition_paragraphs_after_lettered_limbs() -> None:
    by_id = _sections(PETITION)
    numbered = [sid for sid in by_id if sid[:1].isdigit()]
    assert [sid for sid in numbered if "(" not in sid] == [str(n) for n in range(1, 21)]
    assert {by_id[str(n)].parent_id for n in range(1, 21)} == {by_id["1"].parent_id}
    assert [sid for sid in numbered if sid.startswith("17(")] == ["17(a)", "17(b)", "17(c)", "17(d)"]
    assert all(by_id[f"17({x})"].parent_id == "17" for x in "abcd")
    assert "Fraud on the USPTO" in by_id["17(d)"].title + by_id["17(d)"].text
    assert "reserves the right to amend" not in by_id["17(d)"].text
    assert "reserves the right to amend" in by_id["19"].title + by_id["19"].text
