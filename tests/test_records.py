"""records.py on small files written by each test: encodings, dialects, headers, JSON shapes, field mapping, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docstrata.config import VectorstoreToolConfig
from docstrata.errors import RecordError
from docstrata.records import (
    LINE_ID_FIELD,
    SUPPORTED_RECORD_EXTENSIONS,
    load_records,
    read_rows,
    resolve_field,
    value_to_text,
)


def cfg(**kw) -> VectorstoreToolConfig:
    return VectorstoreToolConfig(name="t", type="vectorstore", source=".", **kw)


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    p = tmp_path / name
    p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return p


def rows_of(path: Path, **kw) -> tuple[list[tuple[int, dict]], object]:
    load = read_rows(path, path.name, cfg(**kw))
    return list(load.rows), load


def records_of(path: Path, **kw) -> tuple[list, object]:
    load = load_records(path, path.name, cfg(**kw))
    return [r for batch in load.batches for r in batch], load


def test_supported_extensions():
    assert SUPPORTED_RECORD_EXTENSIONS == frozenset({"csv", "tsv", "json", "jsonl", "ndjson"})


# ----------------------------------------------------------------------------- encodings


def test_utf8_bom_is_not_glued_to_the_first_column(tmp_path):
    p = write(tmp_path, "bom.csv", b"\xef\xbb\xbfsku,name\nA1,Caf\xc3\xa9\n")
    rows, load = rows_of(p)
    assert load.fields == ["sku", "name"]
    assert rows == [(2, {"sku": "A1", "name": "Café"})]
    recs, _ = records_of(p, id_field="sku", vector_field="name")
    assert recs[0].id == "A1"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_bom(tmp_path, codec):
    text = "sku,name\nA1,Zürich £5\n"
    bom = {"utf-16": b"", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}[codec]
    p = write(tmp_path, "u16.csv", bom + text.encode(codec))
    rows, load = rows_of(p)
    assert rows == [(2, {"sku": "A1", "name": "Zürich £5"})]
    assert load.warnings == []


def test_cp1252_is_detected_and_reported(tmp_path):
    text = "id,supplier,amount\n1,Café Rouge,£1,200\n2,Müller GmbH,€300\n".replace("£1,200", '"£1,200"')
    p = write(tmp_path, "spend.csv", text.encode("cp1252"))
    rows, load = rows_of(p)
    assert [r["supplier"] for _, r in rows] == ["Café Rouge", "Müller GmbH"]
    assert [r["amount"] for _, r in rows] == ["£1,200", "€300"]
    assert any("cp1252 detected" in w for w in load.warnings)


def test_cyrillic_cp1251_is_not_forced_to_cp1252(tmp_path):
    text = "id,name\n" + "".join(f"{i},Привет как дела? Это тестовая строка номер {i}\n" for i in range(30))
    p = write(tmp_path, "ru.csv", text.encode("cp1251"))
    rows, load = rows_of(p)
    assert load.encoding.replace("_", "").lower() in ("cp1251", "windows1251")
    assert any("Привет" in v for _, r in rows for v in r.values())


def test_configured_encoding_is_used(tmp_path):
    p = write(tmp_path, "l1.csv", "id,name\n1,é\n".encode("latin-1"))
    rows, load = rows_of(p, encoding="latin-1")
    assert rows[0][1]["name"] == "é"
    assert load.warnings == []
    with pytest.raises(RecordError, match="unknown encoding"):
        read_rows(p, "l1.csv", cfg(encoding="no-such-codec"))


def test_configured_utf8_still_drops_a_bom(tmp_path):
    p = write(tmp_path, "bom.csv", b"\xef\xbb\xbfsku,name\nA1,x\n")
    rows, load = rows_of(p, encoding="utf-8")
    assert load.fields == ["sku", "name"] and load.encoding == "utf-8-sig"


def test_nul_bytes_are_stripped_with_a_warning(tmp_path):
    p = write(tmp_path, "nul.csv", b"id,text\n1,ab\x00c\n2,\x00\x00d\n")
    rows, load = rows_of(p)
    assert [r["text"] for _, r in rows] == ["abc", "d"]
    assert any("3 NUL" in w and "line 2" in w for w in load.warnings)


def test_cr_only_line_ends_and_line_numbers(tmp_path):
    p = write(tmp_path, "mac.csv", b'id,text\r1,one\r2,"two\rlines"\r3,three\r')
    rows, _ = rows_of(p)
    assert rows == [(2, {"id": "1", "text": "one"}), (3, {"id": "2", "text": "two\rlines"}),
                    (5, {"id": "3", "text": "three"})]


def test_quoted_newlines_keep_the_start_line(tmp_path):
    p = write(tmp_path, "faq.csv", 'q,a\n"What?","Line one\nline two\r\nline three"\nNext,"x ""quoted"" y"\n')
    rows, _ = rows_of(p)
    assert rows[0] == (2, {"q": "What?", "a": "Line one\nline two\r\nline three"})
    assert rows[1] == (5, {"q": "Next", "a": 'x "quoted" y'})


# ----------------------------------------------------------------------------- dialect and header


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_delimiter_is_sniffed(tmp_path, delimiter):
    lines = [["id", "name", "note"], ["1", "a", "x"], ["2", "b", "y"], ["3", "c", "z"]]
    p = write(tmp_path, "d.csv", "\n".join(delimiter.join(r) for r in lines) + "\n")
    rows, load = rows_of(p)
    assert load.delimiter == delimiter
    assert rows[2] == (4, {"id": "3", "name": "c", "note": "z"})


def test_semicolon_wins_over_decimal_commas(tmp_path):
    body = "".join(f"2015;F;{i};LIBELLE {i}; {i} 000,00 \n" for i in range(20))
    p = write(tmp_path, "budget.csv", "Exercice;Section;Code;Libelle;Montant\n" + body)
    rows, load = rows_of(p)
    assert load.delimiter == ";"
    assert rows[0][1]["Montant"] == " 0 000,00 "


def test_single_column_file(tmp_path):
    p = write(tmp_path, "one.csv", "Industry\nAccounting/Finance\nAutomotive\n")
    rows, load = rows_of(p)
    assert load.fields == ["Industry"]
    assert [r["Industry"] for _, r in rows] == ["Accounting/Finance", "Automotive"]


def test_explicit_delimiter_overrides_sniffing(tmp_path):
    p = write(tmp_path, "x.csv", "a;b,c\n1;2,3\n")
    rows, _ = rows_of(p, delimiter=";")
    assert rows == [(2, {"a": "1", "b,c": "2,3"})]


def test_preamble_rows_are_skipped_and_reported(tmp_path):
    text = ("Report of all payments,,,\nReporting period:,13,,\n,,,\n"
            "Vendor,Description,Amount,Date\n" + "".join(f"V{i},Rent,\"1,{i}00.00\",0{i} Mar\n" for i in range(1, 9)))
    p = write(tmp_path, "gla.csv", text)
    rows, load = rows_of(p)
    assert load.header_line == 4
    assert load.fields == ["Vendor", "Description", "Amount", "Date"]
    assert rows[0] == (5, {"Vendor": "V1", "Description": "Rent", "Amount": "1,100.00", "Date": "01 Mar"})
    assert any("lines 1-2" in w and "line 4" in w for w in load.warnings)


def test_header_with_empty_names_is_kept(tmp_path):
    # Conservative guess: a header with fewer filled cells than the rows is still the header.
    p = write(tmp_path, "idx.csv", ",name,price,stock\n0,a,1,2\n1,b,3,4\n2,c,5,6\n")
    rows, load = rows_of(p)
    assert load.header_line == 1
    assert load.fields == ["column_1", "name", "price", "stock"]
    assert rows[0][1]["column_1"] == "0"


def test_explicit_header_row(tmp_path):
    p = write(tmp_path, "h.csv", "title line\nx,y\nid,name\n1,a\n")
    rows, load = rows_of(p, header_row=3)
    assert load.fields == ["id", "name"] and rows == [(4, {"id": "1", "name": "a"})]
    with pytest.raises(RecordError, match="header_row 9 is past the end"):
        read_rows(p, "h.csv", cfg(header_row=9))


def test_header_names_are_stripped_and_deduplicated(tmp_path):
    p = write(tmp_path, "n.csv", " Amount ,name,name\n1,a,b\n")
    rows, load = rows_of(p)
    assert load.fields == ["Amount", "name", "name_2"]
    assert any("name_2" in w for w in load.warnings)


def test_ragged_rows_are_skipped_with_their_line(tmp_path):
    p = write(tmp_path, "r.csv", "a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12,,\n13,14,15\n")
    rows, load = rows_of(p)
    assert [line for line, _ in rows] == [2, 5, 6]  # trailing empty cells are tolerated
    assert [(s.path, s.reason) for s in load.skipped] == [
        ("r.csv:3", "ragged row: 2 fields, the header has 3"),
        ("r.csv:4", "ragged row: 4 fields, the header has 3 (the extra fields are not empty)"),
    ]
    assert load.skipped_rows == 2


def test_short_rows_missing_only_unnamed_columns_are_padded(tmp_path):
    p = write(tmp_path, "e.csv", "a,b,c,,\na,,,,\n,,c,\n")
    rows, _ = rows_of(p)
    assert rows[1] == (3, {"a": "", "b": "", "c": "c", "column_4": "", "column_5": ""})


def test_header_that_fits_no_row_is_an_error(tmp_path):
    p = write(tmp_path, "bad.csv", "1,2,3\na,b,c,d\na,b,c,d\na,b,c,d\n")
    with pytest.raises(RecordError) as e:
        read_rows(p, "dir/bad.csv", cfg())
    assert e.value.file == "dir/bad.csv" and e.value.line == 1
    assert "header (line 1) has 3 fields" in str(e.value) and "header_row" in str(e.value)


def test_every_row_ending_in_one_empty_trailing_field_is_read(tmp_path, caplog):
    # MITRE's CWE CSV export: the header has no trailing comma, every data row has one.
    header = "ID,Name,Status,Notes"
    body = "".join(f'{i},"Weakness {i}, with a comma",Draft,,\n' for i in range(1, 31))
    p = write(tmp_path, "cwe.csv", header + "\n" + body)
    with caplog.at_level("DEBUG", logger="docstrata"):
        rows, load = rows_of(p)
    assert len(rows) == 30 and not load.skipped
    assert rows[0] == (2, {"ID": "1", "Name": "Weakness 1, with a comma", "Status": "Draft", "Notes": ""})
    assert load.fields == ["ID", "Name", "Status", "Notes"]
    assert any("trailing" in r.getMessage() and "30 rows" in r.getMessage() for r in caplog.records)


def test_rows_with_filled_extra_fields_are_refused_with_specific_advice(tmp_path):
    p = write(tmp_path, "rag.csv", "a,b,c\n" + "1,2,3,4\n" * 5 + "1,2,3\n")
    with pytest.raises(RecordError) as e:
        read_rows(p, "dir/rag.csv", cfg(delimiter=","))
    msg = str(e.value)
    assert e.value.file == "dir/rag.csv" and e.value.line == 1
    assert "header (line 1) has 3 fields but 5 of the first 6 rows have 4" in msg
    assert "line 2 has 4 fields and its fields 4-4 are not empty" in msg
    assert "delimiter ','" in msg and "header_row" in msg


def test_blank_lines_and_empty_rows_are_ignored(tmp_path):
    p = write(tmp_path, "b.csv", "\n\nid,name\n1,a\n\n,,\n2,b\n")
    rows, load = rows_of(p)
    assert rows == [(4, {"id": "1", "name": "a"}), (7, {"id": "2", "name": "b"})]
    assert load.skipped == []


def test_empty_file_is_an_error_naming_it(tmp_path):
    p = write(tmp_path, "empty.csv", "\n")
    with pytest.raises(RecordError, match="empty.csv: no header row"):
        read_rows(p, "empty.csv", cfg())


def test_unterminated_quote_is_reported_with_its_line(tmp_path):
    p = write(tmp_path, "q.csv", 'id,text\n1,ok\n2,"never closed\n3,swallowed\n')
    rows, load = rows_of(p)
    assert rows == [(2, {"id": "1", "text": "ok"})]
    assert [s.path for s in load.skipped] == ["q.csv:3"]
    assert "CSV syntax error" in load.skipped[0].reason and "up to line 4" in load.skipped[0].reason


def test_stray_quote_skips_only_its_record(tmp_path):
    p = write(tmp_path, "s.csv", 'id,text\n1,"abc"def\n2,fine\n')
    rows, load = rows_of(p)
    assert rows == [(3, {"id": "2", "text": "fine"})]
    assert [s.path for s in load.skipped] == ["s.csv:2"]


def test_unsupported_extension(tmp_path):
    p = write(tmp_path, "x.xml", "<a/>")
    with pytest.raises(RecordError, match="unsupported record file type"):
        read_rows(p, "x.xml", cfg())


# ----------------------------------------------------------------------------- JSON / JSONL


def test_value_conversion():
    assert [value_to_text(v) for v in (None, True, False, 3, 2.5, "s", [1, "é"], {"a": None})] == [
        "", "true", "false", "3", "2.5", "s", '[1, "é"]', '{"a": null}']


def test_dotted_paths():
    order = {"id": 1, "a.b": "literal", "ship": {"city": "Oulu"},
             "details": [{"productID": 11, "q": 2}, {"productID": 42}]}
    assert resolve_field(order, "ship.city") == "Oulu"
    assert resolve_field(order, "a.b") == "literal"
    assert resolve_field(order, "details.productID") == [11, 42]
    assert resolve_field(order, "details.q") == [2]
    assert resolve_field(order, "details.1.productID") == 42
    assert value_to_text(resolve_field(order, "details.5.productID")) == ""
    assert value_to_text(resolve_field(order, "ship.zip")) == ""


def test_json_array_with_nested_fields(tmp_path):
    data = [{"sku": "A-1", "title": "Lamp", "details": {"description": "Brass"}, "price": 9.5,
             "tags": ["home", "light"], "active": True, "note": None},
            {"sku": "A-2", "title": "Desk", "price": 120, "active": False}]
    p = write(tmp_path, "p.json", json.dumps(data))
    recs, load = records_of(p, id_field="sku", vector_field=["title", "details.description"],
                            meta_fields=["price", "tags", "active", "note", "details.description"])
    assert [(r.id, r.line, r.content) for r in recs] == [("A-1", 1, "Lamp\nBrass"), ("A-2", 2, "Desk")]
    assert recs[0].metadata == {"price": "9.5", "tags": '["home", "light"]', "active": "true", "note": "",
                                "details.description": "Brass"}
    assert recs[1].metadata == {"price": "120", "tags": "", "active": "false", "note": "",
                                "details.description": ""}


def test_json_default_metadata_is_every_other_top_level_field(tmp_path):
    p = write(tmp_path, "p.json", json.dumps([{"id": 7, "t": "x", "dims": {"w": 1}, "n": None}]))
    recs, _ = records_of(p, id_field="id", vector_field="t")
    assert recs[0].id == "7"
    assert recs[0].metadata == {"dims": '{"w": 1}', "n": ""}


def test_record_path(tmp_path):
    p = write(tmp_path, "w.json", json.dumps({"meta": {"n": 2}, "data": {"items": [{"id": "a", "t": "x"},
                                                                                    {"id": "b", "t": "y"}]}}))
    recs, _ = records_of(p, id_field="id", vector_field="t", record_path="data.items")
    assert [r.id for r in recs] == ["a", "b"]
    with pytest.raises(RecordError, match=r"set 'record_path' to one of: data\.items \(2 records\)"):
        load_records(p, "w.json", cfg(id_field="id", vector_field="t"))
    with pytest.raises(RecordError, match="record_path 'data.nope' not found"):
        load_records(p, "w.json", cfg(id_field="id", vector_field="t", record_path="data.nope"))


def test_invalid_json_names_the_line(tmp_path):
    p = write(tmp_path, "bad.json", '[\n{"id": 1},\n{"id": 2,,}\n]')
    with pytest.raises(RecordError) as e:
        read_rows(p, "bad.json", cfg())
    assert e.value.line == 3 and "invalid JSON" in str(e.value)


@pytest.mark.parametrize("ext", ["jsonl", "ndjson"])
def test_jsonl_bad_lines_are_skipped(tmp_path, ext):
    p = write(tmp_path, f"t.{ext}", '{"id": 1, "text": "one"}\n{"id": 2, "text": \n\n[1,2]\n{"id": 3, "text": "three"}\n')
    recs, load = records_of(p, id_field="id", vector_field="text")
    assert [(r.id, r.line) for r in recs] == [("1", 1), ("3", 5)]
    assert [s.path for s in load.skipped] == [f"t.{ext}:2", f"t.{ext}:4"]
    assert "invalid JSON" in load.skipped[0].reason


def test_json_file_holding_json_lines(tmp_path):
    p = write(tmp_path, "m.json", '{"a": 2, "b": 3}\n{"b": 2, "d": 4}\n')
    rows, load = rows_of(p)
    assert rows == [(1, {"a": 2, "b": 3}), (2, {"b": 2, "d": 4})]
    assert any("JSON Lines" in w for w in load.warnings)


# ----------------------------------------------------------------------------- mapping and errors


def test_csv_mapping_and_default_metadata(tmp_path):
    p = write(tmp_path, "c.csv", "id,title,body,price,\nP1,Lamp,,9.50,\nP2,,,1,\nP3,Desk,Oak desk,120,x\n")
    recs, load = records_of(p, id_field="id", vector_field=["title", "body"], field_separator=" | ")
    assert [(r.id, r.content, r.line, r.source_file) for r in recs] == [
        ("P1", "Lamp", 2, "c.csv"), ("P3", "Desk | Oak desk", 4, "c.csv")]
    assert recs[0].metadata == {"price": "9.50"}  # unnamed column_5 only when filled
    assert recs[1].metadata == {"price": "120", "column_5": "x"}
    assert load.records == 2 and load.empty_vector_rows == 1
    assert load.skipped == [] and any("line" in w and "3" in w for w in load.warnings)


def test_missing_field_lists_the_available_ones(tmp_path):
    p = write(tmp_path, "c.csv", "sku,title,price\n1,a,2\n")
    with pytest.raises(RecordError) as e:
        load_records(p, "c.csv", cfg(id_field="sku", vector_field="titel"))
    assert e.value.field == "titel" and e.value.file == "c.csv"
    assert "did you mean 'title'" in str(e.value) and "available fields: sku, title, price" in str(e.value)
    pj = write(tmp_path, "p.json", json.dumps([{"id": 1, "dims": {"w": 2}}]))
    with pytest.raises(RecordError, match=r"field 'dims.h' is not in the source.*dims\.w"):
        load_records(pj, "p.json", cfg(id_field="id", vector_field="dims.h"))


def test_duplicate_ids_name_both_lines(tmp_path):
    p = write(tmp_path, "d.csv", "id,t\nA,x\nB,y\nA,z\n")
    load = load_records(p, "d.csv", cfg(id_field="id", vector_field="t"))
    with pytest.raises(RecordError) as e:
        list(load.batches)
    assert "duplicate id 'A'" in str(e.value) and "lines 2 and 4" in str(e.value)
    assert e.value.line == 4 and e.value.field == "id"


def test_no_non_empty_vector_value_is_an_error(tmp_path):
    p = write(tmp_path, "e.csv", "id,t,u\n1,,a\n2, ,b\n")
    load = load_records(p, "e.csv", cfg(id_field="id", vector_field="t"))
    with pytest.raises(RecordError, match="no record has a non-empty value in vector field"):
        list(load.batches)


def test_empty_id_is_skipped_and_listed(tmp_path):
    p = write(tmp_path, "i.csv", "id,t\n,x\n2,y\n")
    recs, load = records_of(p, id_field="id", vector_field="t")
    assert [r.id for r in recs] == ["2"]
    assert [(s.path, s.reason) for s in load.skipped] == [("i.csv:2", "empty id field 'id'")]


def test_line_pseudo_id_allows_files_without_an_id_column(tmp_path):
    p = write(tmp_path, "faq.csv", 'q,a\nSame?,"yes\nreally"\nSame?,yes\n')
    recs, _ = records_of(p, id_field=LINE_ID_FIELD, vector_field=["q", "a"])
    assert [r.id for r in recs] == ["faq.csv:2", "faq.csv:4"]


def test_batches_are_lazy_and_bounded(tmp_path):
    p = write(tmp_path, "big.csv", "id,t\n" + "".join(f"{i},text {i}\n" for i in range(2500)))
    load = load_records(p, "big.csv", cfg(id_field="id", vector_field="t", batch_size=1000))
    assert load.records == 0  # nothing read until iterated
    sizes = [len(b) for b in load.batches]
    assert sizes == [1000, 1000, 500] and load.records == 2500


@pytest.mark.parametrize("memory_ids", [100_000, 4])  # in the dict / moved to the registry's SQLite
def test_duplicate_ids_are_found_across_batches_with_both_lines(tmp_path, monkeypatch, memory_ids):
    import docstrata.records.ids as ids

    monkeypatch.setattr(ids, "MEMORY_IDS", memory_ids)
    rows = [f"r{i},text {i}" for i in range(30)]
    rows[25] = "r3,again"  # line 27 repeats line 5's id, two batches later
    p = write(tmp_path, "d.csv", "id,t\n" + "\n".join(rows) + "\n")
    load = load_records(p, "d.csv", cfg(id_field="id", vector_field="t", batch_size=4))
    got = []
    with pytest.raises(RecordError) as e:
        for batch in load.batches:
            got += [r.id for r in batch]
    assert "duplicate id 'r3'" in str(e.value) and "lines 5 and 27" in str(e.value) and e.value.line == 27
    assert got == [f"r{i}" for i in range(24)]  # every batch before the one holding the repeat


@pytest.mark.parametrize("memory_ids", [100_000, 4])
def test_the_earliest_repeat_is_reported_when_a_batch_holds_two(tmp_path, monkeypatch, memory_ids):
    import docstrata.records.ids as ids

    monkeypatch.setattr(ids, "MEMORY_IDS", memory_ids)
    rows = [f"r{i},text {i}" for i in range(20)]
    rows[12] = "r1,again"  # line 14: repeats an earlier batch's id (line 3)
    rows[14] = "r13,again"  # line 16: repeats line 15, in the same batch
    p = write(tmp_path, "d.csv", "id,t\n" + "\n".join(rows) + "\n")
    load = load_records(p, "d.csv", cfg(id_field="id", vector_field="t", batch_size=8))
    with pytest.raises(RecordError) as e:
        list(load.batches)
    assert "duplicate id 'r1'" in str(e.value) and "lines 3 and 14" in str(e.value)


def test_unseen_ids_after_the_registry_moved_to_sqlite(tmp_path, monkeypatch):
    import docstrata.records.ids as ids

    monkeypatch.setattr(ids, "MEMORY_IDS", 10)
    p = write(tmp_path, "u.csv", "id,t\n" + "\n".join(f"r{i},t{i}" for i in range(50)) + "\n")
    load = load_records(p, "u.csv", cfg(id_field="id", vector_field="t", batch_size=7))
    assert sum(len(b) for b in load.batches) == 50 and load.records == 50
    assert load.ids._db is not None  # past 10 ids they left the dict
    assert load.unseen(["r0", "gone", "r49", "r50", "R1"]) == ["gone", "r50", "R1"]
    load.close()
    assert load.unseen(["r0"]) == ["r0"]
