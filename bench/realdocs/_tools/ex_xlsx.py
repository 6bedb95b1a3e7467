"""Truth from an XLSX workbook's own markup, read with openpyxl (values, not formulas).

Sections: one per worksheet in workbook order; number = null; title = the
sheet name; level 1; dimensions = the used range as stored; max_row/max_column;
header_row = 1-based index of the first row with at least one non-empty cell;
header = the values of that row as strings (empty cells as null; trailing
empties dropped); merged = the merged ranges of the sheet.
Definitions: none.  Xrefs: none.
"""
import openpyxl

from common import Tree, norm, write_truth


def extract(path):
    """Return the sheet sections of the XLSX at ``path``."""
    wb = openpyxl.load_workbook(path, data_only=True)
    tree = Tree()
    for ws in wb.worksheets:
        header_row, header = None, None
        for r, row in enumerate(ws.iter_rows(values_only=True), 1):
            if any(v not in (None, '') for v in row):
                header_row = r
                header = [norm(str(v)) if v not in (None, '') else None for v in row]
                while header and header[-1] is None:
                    header.pop()
                break
        tree.add(None, ws.title, 1, sheet=ws.title, dimensions=ws.dimensions, max_row=ws.max_row,
                 max_column=ws.max_column, header_row=header_row, header=header,
                 merged=[str(m) for m in ws.merged_cells.ranges] or None)
    return tree.sections


def run(path, truth_path, source):
    return write_truth(truth_path, source, __doc__.strip(), extract(path))
