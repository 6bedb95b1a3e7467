"""Progress everywhere (issue 27 item 4): piped ingest prints plain lines; in a terminal the
bar moves per chunk batch and per PDF page, with rate and ETA."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import docstrata
from docstrata.progress import ProgressLines

from .helpers import doc_project
from .pdf_writer import Run, pdf_bytes

ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
       "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}


def _clause(n: int) -> str:
    return (f"## {n} Clause {n}\n\nThe supplier shall deliver batch {n} of the goods to the depot named in "
            f"schedule {n}, packed and labelled as the buyer's order {n} requires.\n\n")


def test_piped_ingest_prints_plain_progress_lines(tmp_path):
    cfg = doc_project(tmp_path, {f"part{i}.md": f"# Part {i}\n\n" + "".join(_clause(n) for n in range(1, 6))
                                 for i in range(3)}, database="embedded")
    proc = subprocess.run([sys.executable, "-m", "docstrata.cli", "ingest", "-c", str(cfg)], capture_output=True,
                          text=True, env={**ENV, "DOCSTRATA_PROGRESS_S": "0"}, timeout=300)  # a line per file
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()  # stderr is a pipe here: whole lines, no bar, no blank lines
    assert any(re.fullmatch(r"docs: 0 of 3 files done · part\d\.md", x) for x in lines), proc.stderr
    assert "docs: 3 of 3 files done" in lines, proc.stderr
    assert "" not in lines and "\r" not in proc.stderr
    (summary,) = proc.stdout.splitlines()  # the summary is one line, never wrapped at 80 columns mid-sentence
    assert summary.startswith("docs: 3 files (3 added, ") and summary.endswith(" s") and len(summary) > 80


def test_progress_lines_are_periodic_and_quiet_for_a_quick_ingest():
    now = [0.0]
    out = io.StringIO()
    lines = ProgressLines("docs", out, every_s=5, clock=lambda: now[0])
    for i in range(10):  # a file every 2 s: a line at 6 s, 12 s, 18 s, and the last
        now[0] = 2.0 * i
        lines(i, 10, f"f{i}.pdf")
    lines(10, 10, "done")
    assert out.getvalue().splitlines() == ["docs: 3 of 10 files done · f3.pdf", "docs: 6 of 10 files done · f6.pdf",
                                           "docs: 9 of 10 files done · f9.pdf", "docs: 10 of 10 files done"]
    quick = io.StringIO()
    lines = ProgressLines("docs", quick, every_s=5, clock=lambda: 1.0)
    lines(0, 2, "a.md")
    lines(2, 2, "done")
    assert quick.getvalue() == ""  # done within the first 5 s: nothing to watch


def test_progress_moves_per_pdf_page_and_per_chunk_batch_with_rate_and_eta(tmp_path):
    pages = [[Run(72, 740, f"{p + 1}. Article {p + 1}", size=14, font="F4")]
             + [Run(72, 710 - 12 * k, f"Paragraph {k} of article {p + 1} sets out duty {k} of the parties, its "
                                      f"term {k} and remedy {k}.", size=10) for k in range(50)] for p in range(10)]
    cfg = doc_project(tmp_path, {}, max_chunk_tokens=100, chunk_overlap=0)
    (tmp_path / "docs" / "rules.pdf").write_bytes(pdf_bytes(pages))
    (tmp_path / "docs" / "notes.md").write_text("# Notes\n\n" + "".join(_clause(n) for n in range(1, 4)))
    events: list[tuple[float, int, str]] = []
    with docstrata.open(cfg) as ts:
        report = ts["docs"].ingest(progress=lambda d, t, w: events.append((d, t, w)))
    assert report.chunks > 64, report.chunks  # more than one embedding batch of the PDF
    page_notes = [w for _, _, w in events if "rules.pdf: page" in w]
    pages_seen = [int(re.search(r"page (\d+) of 10", w).group(1)) for w in page_notes]
    assert list(dict.fromkeys(pages_seen)) == list(range(1, 11)), page_notes  # each page, in order
    pdf_at = next(i for i, (d, _, w) in enumerate(events) if w.startswith("rules.pdf") and d % 1 == 0)
    inside = [d for d, _, _ in events[pdf_at:] if d % 1 and int(d) == int(events[pdf_at][0])]
    assert len(inside) >= 2 and inside == sorted(inside), events  # the bar moves per chunk batch
    assert any(re.search(r"\d+ chunks, [\d.]+ chunks/s, ETA \d+m\d\ds", w) for _, _, w in events), events
    assert events[-1][:2] == (2, 2)
