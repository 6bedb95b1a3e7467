"""A minimal PDF writer for tests: pages of text runs in the base-14 fonts, each run at a
position, size and angle, so a test can build the layout it needs (a note printed up the margin,
a table, a contents page) and run it through pdfminer exactly as ingest does."""

from __future__ import annotations

import math
from dataclasses import dataclass

FONTS = {"F1": "Helvetica", "F2": "Helvetica-Bold", "F3": "Times-Roman", "F4": "Times-Bold", "F5": "Times-Italic"}


@dataclass
class Run:
    """One text run: ``font`` a key of :data:`FONTS`; ``x``/``y`` the baseline start in points;
    ``angle`` in degrees counter-clockwise (90 = printed up the page)."""

    x: float
    y: float
    text: str
    size: float = 12.0
    font: str = "F3"
    angle: float = 0.0


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def pdf_bytes(
    pages: list[list[Run]],
    width: float = 612,
    height: float = 792,
    catalog: str = "",
    rules: dict[int, list[tuple[float, float, float, float]]] | None = None,
) -> bytes:
    """A PDF (1.4, uncompressed) with one page per list of runs (ASCII text only); ``catalog``:
    more entries of the document catalog, as PDF source (``/PageLabels << /Nums [...] >>``);
    ``rules``: filled rectangles ``(x, y, width, height)`` to draw on a page (by 0-based index),
    such as a footnote separator."""
    objects: list[bytes] = []
    font_ids = {}
    for key, base in FONTS.items():
        objects.append(f"<< /Type /Font /Subtype /Type1 /BaseFont /{base} /Encoding /WinAnsiEncoding >>".encode())
        font_ids[key] = len(objects)
    resources = "<< /Font << " + " ".join(f"/{k} {n} 0 R" for k, n in font_ids.items()) + " >> >>"
    pages_id = len(objects) + 2 * len(pages) + 1
    page_ids = []
    for index, runs in enumerate(pages):
        ops = [f"{x:g} {y:g} {w:g} {h:g} re f" for x, y, w, h in (rules or {}).get(index, [])]
        for run in runs:
            cos, sin = math.cos(math.radians(run.angle)), math.sin(math.radians(run.angle))
            ops.append(f"BT /{run.font} {run.size:g} Tf {cos:.4f} {sin:.4f} {-sin:.4f} {cos:.4f} {run.x:g} {run.y:g} Tm "
                       f"({_escape(run.text)}) Tj ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        objects.append(f"<< /Type /Page /Parent {pages_id} 0 R /MediaBox [0 0 {width:g} {height:g}] "
                       f"/Resources {resources} /Contents {len(objects)} 0 R >>".encode())
        page_ids.append(len(objects))
    objects.append(f"<< /Type /Pages /Kids [{' '.join(f'{n} 0 R' for n in page_ids)}] /Count {len(pages)} >>".encode())
    assert len(objects) == pages_id
    objects.append(f"<< /Type /Catalog /Pages {pages_id} 0 R {catalog}>>".encode())
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, len(objects), xref)
    return bytes(out)
