"""records.py on the real structured files in $DOCSTRATA_SHARED_DATA/structured (default
../shared/data/structured; the module is skipped, saying so, where absent).

Expected values come from the files themselves (read by eye, or parsed independently with the
stdlib) and from the counts in the data's README.txt.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from pathlib import Path

import pytest

from docstrata.config import VectorstoreToolConfig
from docstrata.errors import RecordError
from docstrata.records import LINE_ID_FIELD, load_records, read_rows

from .conftest import SHARED_DATA

# Found as every other test finds the shared data (conftest.SHARED_DATA: $DOCSTRATA_SHARED_DATA,
# else ../shared/data beside the checkout): a git worktree's ../shared is not the main checkout's.
STRUCTURED = SHARED_DATA / "structured"
NASTY = STRUCTURED / "nasty_csv"

pytestmark = [
    pytest.mark.shared_data,
    pytest.mark.skipif(
        not STRUCTURED.is_dir(),
        reason=f"{STRUCTURED} is absent: the shared evaluation data is not on this machine "
        "(set DOCSTRATA_SHARED_DATA to the folder holding structured/)",
    ),
]


def cfg(**kw) -> VectorstoreToolConfig:
    return VectorstoreToolConfig(name="t", type="vectorstore", source=".", **kw)


def rows(rel: str, **kw):
    load = read_rows(STRUCTURED / rel, rel, cfg(**kw))
    return list(load.rows), load


def records(path: Path, rel: str, **kw):
    load = load_records(path, rel, cfg(**kw))
    return [r for batch in load.batches for r in batch], load


def nasty_files() -> list[str]:
    if not NASTY.is_dir():
        return []
    return sorted(str(p.relative_to(STRUCTURED)) for p in NASTY.rglob("*")
                  if p.suffix in (".csv", ".tsv", ".json", ".jsonl") and "csv_spectrum/json" not in str(p))


# ----------------------------------------------------------------------------- csv-spectrum oracle


SPECTRUM = sorted(p.stem for p in (NASTY / "csv_spectrum" / "csvs").glob("*.csv")) if NASTY.is_dir() else []


@pytest.mark.parametrize("name", SPECTRUM)
def test_csv_spectrum_parses_to_its_json(name):
    csv_path = NASTY / "csv_spectrum" / "csvs" / f"{name}.csv"
    expected = json.loads((NASTY / "csv_spectrum" / "json" / f"{name}.json").read_text(encoding="utf-8"))
    if b"\r" not in csv_path.read_bytes():
        # The stored *_crlf files lost their CRs in a git checkout; the oracle still has them.
        expected = [{k: v.replace("\r\n", "\n") for k, v in row.items()} for row in expected]
    got, load = rows(str(csv_path.relative_to(STRUCTURED)))
    assert [values for _, values in got] == expected
    assert load.skipped == [] and load.warnings == []


# ----------------------------------------------------------------------------- every nasty file


@pytest.mark.parametrize("rel", nasty_files())
def test_every_nasty_file_loads_or_fails_clearly(rel):
    """Right rows or a RecordError naming the file (and line where there is one); never another exception."""
    try:
        got, load = rows(rel)
    except RecordError as e:
        assert e.file == rel and str(e).startswith(rel)
        return
    for line, values in got:
        assert line >= 1
        if load.format in ("csv", "tsv"):
            assert list(values) == load.fields
    for s in load.skipped:
        assert s.path.startswith(f"{rel}:") and s.path.rsplit(":", 1)[1].isdigit()
    # The same file as records: every field is content, ids from the line numbers.
    fields = [f for f in load.fields if "." not in f] or load.fields
    try:
        recs, rload = records(STRUCTURED / rel, rel, id_field=LINE_ID_FIELD, vector_fields=fields)
    except RecordError as e:
        assert e.file == rel and str(e).startswith(rel)
        return
    assert rload.records == len(recs) == len(got) - rload.empty_vector_rows
    assert all(r.source_file == rel for r in recs)


# ----------------------------------------------------------------------------- specific nasty files


@pytest.mark.parametrize("name", ["test_utf8.csv", "test_utf8_bom.csv"])
def test_utf8_with_and_without_bom(name):
    got, load = rows(f"nasty_csv/csvkit/{name}")
    assert load.fields == ["foo", "bar", "baz"]
    assert [v for _, v in got] == [{"foo": "1", "bar": "2", "baz": "3"}, {"foo": "4", "bar": "5", "baz": "ʤ"}]


@pytest.mark.parametrize("name", ["test_utf16_big.csv", "test_utf16_little.csv"])
def test_utf16_with_bom(name):
    got, _ = rows(f"nasty_csv/csvkit/{name}")
    assert [v for _, v in got] == [{"a": "1", "b": "2", "c": "3"}, {"a": "4", "b": "5", "c": "ʤ"}]


# Both files end in byte 0xA9: "©" in latin-1 and cp1252.
@pytest.mark.parametrize("rel, value", [("nasty_csv/csvkit/test_latin1.csv", {"a": "4", "b": "5", "c": "©"}),
                                        ("nasty_csv/frictionless/latin1.csv", {"id": "2", "name": "©"})])
def test_latin1_detected_and_reported(rel, value):
    got, load = rows(rel)
    assert got[-1][1] == value
    assert any("detected" in w for w in load.warnings)


def test_cp1252_pound_sign_and_preamble():
    got, load = rows("nasty_csv/frictionless/gla-2011-12-P13-500.csv")
    assert load.header_line == 7
    assert {"Vendor ID", "Vendor Name", "Amount", "Clearing Date"} <= set(load.fields)
    assert got[0] == (8, got[0][1]) and got[0][1]["Vendor Name"] == "AMAS LTD"
    assert got[0][1]["Amount"] == "1,673,907.50"
    assert any("cp1252" in w for w in load.warnings) and any("preamble" in w for w in load.warnings)
    raw = (STRUCTURED / "nasty_csv/frictionless/gla-2011-12-P13-500.csv").read_bytes()
    assert b"\xa3" in raw.split(b"\n")[0]  # the £ in the title line is what made it cp1252


def test_semicolon_cp1252_french_numbers():
    got, load = rows("nasty_csv/frictionless/VilleMTP_MTP_BudgetPri_2015.csv")
    assert load.delimiter == ";" and load.encoding == "cp1252"
    assert "Libellé fonction" in load.fields
    assert got[0][1]["Libellé fonction"] == "ADMINISTRATION GENERALE DE LA COLLECTIVITE"
    assert got[0][1]["BP2015"].strip() == "454\xa0000,00"


def test_mac_newlines():
    got, _ = rows("nasty_csv/csvkit/mac_newlines.csv")
    assert got == [(2, {"a": "1", "b": "2", "c": "3"}), (3, {"a": "Once upon\ra time", "b": "5", "c": "6"})]


def test_null_byte():
    got, load = rows("nasty_csv/csvkit/null_byte.csv")
    assert got == [(2, {"a": "", "b": "2", "c": "3"})]
    assert any("NUL" in w for w in load.warnings)


def test_ragged_rows_reported():
    got, load = rows("nasty_csv/csvkit/bad.csv")
    assert got == [(4, {"column_a": "0", "column_b": "mixed types.... uh oh", "column_c": "17"})]
    assert [s.path for s in load.skipped] == ["nasty_csv/csvkit/bad.csv:2", "nasty_csv/csvkit/bad.csv:3"]


def test_header_that_fits_no_row_is_an_error():
    with pytest.raises(RecordError) as e:
        rows("nasty_csv/docling/csv-inconsistent-header.csv")
    assert e.value.line == 1


def test_skip_lines_before_header():
    got, load = rows("nasty_csv/csvkit/test_skip_lines.csv")
    assert load.header_line == 4 and got == [(5, {"a": "1", "b": "2", "c": "3"})]


def test_quoted_newline_in_header():
    got, load = rows("nasty_csv/csvkit/test_header_newline.csv")
    assert "start" in load.fields[0] and "end" in load.fields[0] and load.fields[1:] == ["b", "c"]
    # Lines are counted with \n, \r\n and a lone \r as line ends (the header holds three \r).
    with open(STRUCTURED / "nasty_csv/csvkit/test_header_newline.csv", encoding="utf-8", newline="") as f:
        data_line = next(i for i, line in enumerate(f, start=1) if line.startswith("d,e,f"))
    assert got == [(data_line, {load.fields[0]: "d", "b": "e", "c": "f"})]


def test_delimiters_agree_across_docling_variants():
    base, _ = rows("nasty_csv/docling/csv-comma.csv")
    for name, delimiter in [("csv-semicolon.csv", ";"), ("csv-pipe.csv", "|"), ("csv-tab.csv", "\t")]:
        got, load = rows(f"nasty_csv/docling/{name}")
        assert load.delimiter == delimiter
        assert [v["Customer Id"] for _, v in got] == [v["Customer Id"] for _, v in base]
        assert [v["Email"] for _, v in got] == [v["Email"] for _, v in base]


def test_real_world_counts_match_the_stdlib_parse():
    """Non-blank data rows equal what csv.reader sees with the right dialect (an independent parse)."""
    for rel, encoding, delimiter in [("nasty_csv/frictionless/BIS_spending_over__25_000_July_2014.csv", "cp1252", ","),
                                     ("nasty_csv/realworld_semicolon/laposte_hexasmal.csv", "utf-8", ";"),
                                     ("faq_covid/faq_200327.tsv", "utf-8", "\t")]:
        with open(STRUCTURED / rel, encoding=encoding, newline="") as f:
            expected = sum(1 for r in csv.reader(f, delimiter=delimiter) if any(c.strip() for c in r)) - 1
        got, load = rows(rel)
        assert len(got) == expected and load.skipped == []


def test_jsonl_in_a_json_file_and_nested_json():
    got, load = rows("nasty_csv/csvkit/testjson_multiline.json")
    assert [v for _, v in got] == [{"a": 2, "b": 3}, {"b": 2, "d": 4}]
    recs, _ = records(NASTY / "csvkit/testjson_nested.json", "testjson_nested.json", id_field="text",
                      vector_field="nested.nested.date", meta_fields=["boolean", "float", "nested.nested.integer"])
    assert [(r.id, r.content) for r in recs] == [("Chicago Reader", "1971-01-01"), ("Chicago Sun-Times", "1948-01-01")]
    assert recs[0].metadata == {"boolean": "true", "float": "1.0", "nested.nested.integer": "40"}


# ----------------------------------------------------------------------------- the three record sources


def test_product_catalogue():
    rel = "product_catalog/dummyjson_products.json"
    source = json.loads((STRUCTURED / rel).read_text(encoding="utf-8"))
    recs, load = records(STRUCTURED / rel, rel, id_field="sku", vector_field=["title", "description"],
                         meta_fields=["category", "price", "tags", "dimensions.width", "meta.barcode"])
    assert load.records == len(recs) == len(source) == 194
    first = next(r for r in recs if r.id == "BEA-ESS-ESS-001")
    assert first.content.startswith("Essence Mascara Lash Princess\n")
    assert first.metadata["category"] == "beauty"
    assert json.loads(first.metadata["tags"]) == source[0]["tags"]
    assert first.metadata["dimensions.width"] == str(source[0]["dimensions"]["width"])
    assert first.metadata["meta.barcode"] == source[0]["meta"]["barcode"]


def test_northwind_orders_with_record_path_and_dotted_details(tmp_path):
    """orders.json wrapped under data.items; details.productID per order equals order_details.csv."""
    orders = json.loads((STRUCTURED / "northwind/json/orders.json").read_text(encoding="utf-8"))
    wrapped = tmp_path / "orders.json"
    wrapped.write_text(json.dumps({"data": {"items": orders}}), encoding="utf-8")
    recs, load = records(wrapped, "orders.json", id_field="orderID", record_path="data.items",
                         vector_field=["shipName", "shipAddress.city"],
                         meta_fields=["customerID", "details.productID", "details.quantity"], batch_size=100)
    assert load.records == len(recs) == len(orders) == 830
    with open(STRUCTURED / "northwind/csv/order_details.csv", encoding="utf-8", newline="") as f:
        by_order: dict[str, list[int]] = defaultdict(list)
        for row in csv.DictReader(f):
            by_order[row["orderID"]].append(int(row["productID"]))
    for r in recs:
        assert sorted(json.loads(r.metadata["details.productID"])) == sorted(by_order[r.id])
    first = recs[0]
    assert first.content == f"{orders[0]['shipName']}\n{orders[0]['shipAddress']['city']}"


def test_record_path_across_an_array_collects_nested_records():
    """record_path 'details' over the orders array yields every order line (order_details.csv has 2,155)."""
    recs, load = records(STRUCTURED / "northwind/json/orders.json", "orders.json", id_field=LINE_ID_FIELD,
                         record_path="details", vector_field="productID", meta_fields=["quantity"])
    with open(STRUCTURED / "northwind/csv/order_details.csv", encoding="utf-8", newline="") as f:
        expected = sorted((int(r["productID"]), int(r["quantity"])) for r in csv.DictReader(f))
    assert load.records == len(expected) == 2155
    assert sorted((int(r.content), int(r.metadata["quantity"])) for r in recs) == expected


def test_covid_faq_with_quoted_newlines():
    rel = "faq_covid/faq_covidbert.csv"
    with open(STRUCTURED / rel, encoding="utf-8", newline="") as f:
        source = list(csv.DictReader(f))
    recs, load = records(STRUCTURED / rel, rel, id_field=LINE_ID_FIELD, vector_field=["question", "answer"],
                         meta_fields=["link", "category", "source"])
    assert load.records == len(recs) == len(source) == 213
    assert [r.content for r in recs] == [f"{s['question']}\n{s['answer']}" for s in source]
    assert any("\n" in s["answer"] for s in source)
    # The line of each record is where it starts: its question is on that physical line.
    physical = (STRUCTURED / rel).read_text(encoding="utf-8").split("\n")
    for r in recs[:20]:
        question = r.content.split("\n", 1)[0]
        assert question[:30] in physical[r.line - 1]
