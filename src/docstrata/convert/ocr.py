"""OCR for ``convert``: page images → text lines with their boxes, offline.

Two engines read a page image (a PIL image) into :class:`OcrLine` s — one text line each, with its
box in image pixels (origin top left, in the upright frame of the page) and the line's mean stroke
width (bold type is set with thicker strokes, which the layout stage compares):

* ``rapidocr`` — RapidOCR (``rapidocr-onnxruntime``): PaddleOCR's PP-OCRv4 detection (DB) and
  recognition (SVTR/CRNN) models, shipped inside the wheel and run by ONNX Runtime, so nothing is
  downloaded. Its bundled models read English (Latin script) and Chinese. Its angle classifier
  flips upside-down lines; from its votes the page's orientation is found and a page scanned
  sideways or upside down is turned upright and read again.
* ``tesseract`` — the ``tesseract`` program where installed (Debian: ``apt-get install
  tesseract-ocr``, plus ``tesseract-ocr-<lang>`` per language), its TSV output grouped into lines;
  its orientation detection (``--psm 0``) turns a page that reads badly.

``auto`` picks RapidOCR when installed and it reads the configured languages, else Tesseract.

Results are cached (:class:`OcrCache`): the key is the file's sha256, the page number, the
rendering resolution, the engine and the languages, so a re-ingest of an unchanged file never
runs OCR again.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Protocol

from ..errors import DocstrataError

OCR_VERSION = 5  # bump when what is stored per line changes: older cache entries are then ignored
ENGINES = ("auto", "rapidocr", "tesseract")
_RAPIDOCR_LANGUAGES = frozenset({"en", "eng", "zh", "ch", "chi_sim", "chinese"})
# ISO 639-1 → Tesseract traineddata names (a Tesseract name is accepted as it is)
_TESSERACT_CODES = {
    "en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "pt": "por", "nl": "nld", "da": "dan",
    "sv": "swe", "no": "nor", "nb": "nor", "fi": "fin", "pl": "pol", "cs": "ces", "sk": "slk", "hu": "hun",
    "ro": "ron", "el": "ell", "ru": "rus", "uk": "ukr", "tr": "tur", "ja": "jpn", "ko": "kor", "zh": "chi_sim",
    "ar": "ara", "he": "heb", "hi": "hin", "ga": "gle", "cy": "cym", "ca": "cat", "hr": "hrv", "sl": "slv",
    "bg": "bul", "lt": "lit", "lv": "lav", "et": "est", "mt": "mlt", "la": "lat",
}  # fmt: skip


class OcrUnavailable(DocstrataError):
    """The configured engine cannot run here (not installed, or a language it lacks); the message
    says what to install or configure."""


@dataclass
class OcrLine:
    """One text line read from a page image: box in pixels (origin top left, upright frame),
    recognition confidence 0-1, the mean horizontal stroke width of its ink and the height of its
    core band of ink (:func:`_measure_strokes`), in pixels."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    score: float
    stroke: float = 0.0
    core: float = 0.0  # height in pixels of the line's densest band of ink (x-height, or cap height in capitals)


@dataclass
class OcrPage:
    """The lines of one page image, its size in pixels once upright, its resolution (dots per
    inch), the turn applied to make it upright (degrees counter-clockwise) and the engine name."""

    lines: list[OcrLine]
    width: int
    height: int
    dpi: float
    rotation: int = 0
    engine: str = ""

    def to_json(self) -> str:
        """The page as JSON text (the cache's stored form)."""
        return json.dumps({**asdict(self), "lines": [asdict(line) for line in self.lines]}, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "OcrPage":
        """The page :meth:`to_json` wrote; ``ValueError``/``KeyError`` on another text."""
        d = json.loads(text)
        return cls(**{**d, "lines": [OcrLine(**line) for line in d["lines"]]})


@dataclass(frozen=True)
class OcrSettings:
    """How ``convert`` runs OCR: ``enabled``; ``engine`` (``auto``, ``rapidocr``, ``tesseract``);
    ``languages`` (ISO 639-1 codes or Tesseract names); ``dpi`` at which PDF pages are rendered;
    ``cache`` (None: a process-wide in-memory cache); ``on_page(doc_key, page, n_pages)`` called
    before each page is read (progress); ``deadline`` (``time.monotonic()`` value) after which no
    further page is read (the per-file conversion time limit)."""

    enabled: bool = True
    engine: str = "auto"
    languages: tuple[str, ...] = ("en",)
    dpi: int = 300
    cache: "OcrCache | None" = None
    on_page: Callable[[str, int, int], None] | None = None
    deadline: float | None = None

    @classmethod
    def from_config(cls, cfg, cache_dir: str | Path | None = None, **kw) -> "OcrSettings":
        """Settings from a tool's ``ocr`` config (:class:`~docstrata.config.models.OcrConfig`), with
        the SQLite cache ``<cache_dir>/ocr.sqlite`` when ``cache_dir`` is given."""
        cache = SqliteOcrCache(Path(cache_dir) / "ocr.sqlite") if cache_dir is not None and cfg.enabled else None
        return cls(
            enabled=cfg.enabled, engine=cfg.engine, languages=tuple(cfg.languages), dpi=cfg.dpi, cache=cache, **kw
        )


# --------------------------------------------------------------------------- cache
class OcrCache(Protocol):
    """Key → :class:`OcrPage` (as JSON). ``hits`` / ``misses`` count look-ups."""

    hits: int
    misses: int

    def get(self, key: str) -> OcrPage | None:
        """The cached page for ``key`` (file sha256 + page + dpi + engine + languages), or ``None``."""

    def put(self, key: str, page: OcrPage) -> None:
        """Store ``page`` under ``key``."""


class MemoryOcrCache:
    """OCR results in a dict (for in-memory indexes and direct ``convert_file`` calls)."""

    def __init__(self):
        self._data: dict[str, str] = {}
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: str) -> OcrPage | None:
        """The cached page for ``key`` (file sha256 + page + dpi + engine + languages), or ``None``."""
        with self._lock:
            text = self._data.get(key)
            self.hits += text is not None
            self.misses += text is None
        return OcrPage.from_json(text) if text is not None else None

    def put(self, key: str, page: OcrPage) -> None:
        """Store ``page`` under ``key``."""
        with self._lock:
            self._data[key] = page.to_json()

    def __len__(self) -> int:
        return len(self._data)


class SqliteOcrCache:
    """OCR results in one SQLite file (created with its folder); safe across threads and processes."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.hits = self.misses = 0
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=30)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS ocr_pages (key TEXT PRIMARY KEY, page TEXT NOT NULL, "
                "engine TEXT, created REAL)"
            )
            self._db.commit()
        return self._db

    def get(self, key: str) -> OcrPage | None:
        """The cached page for ``key`` (file sha256 + page + dpi + engine + languages), or ``None``."""
        with self._lock:
            row = self._conn().execute("SELECT page FROM ocr_pages WHERE key = ?", (key,)).fetchone()
            self.hits += row is not None
            self.misses += row is None
        return OcrPage.from_json(row[0]) if row else None

    def put(self, key: str, page: OcrPage) -> None:
        """Store ``page`` under ``key``."""
        with self._lock:
            self._conn().execute(
                "INSERT OR REPLACE INTO ocr_pages VALUES (?, ?, ?, ?)", (key, page.to_json(), page.engine, time.time())
            )
            self._conn().commit()

    def __len__(self) -> int:
        with self._lock:
            return self._conn().execute("SELECT COUNT(*) FROM ocr_pages").fetchone()[0]

    def close(self) -> None:
        """Close the cache's database connection."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


_PROCESS_CACHE = MemoryOcrCache()


def ocr_cache_dir(provider: str, index_dir: Path) -> Path | None:
    """Where a tool's OCR cache lives: beside an embedded index (``.docstrata/<tool>/``); for a
    server database (PostgreSQL, Qdrant, Chroma server) in the user cache directory
    (``$XDG_CACHE_HOME/docstrata``), OCR being a pure function of the file's bytes and the
    settings; None (in memory, per process) for an in-memory index."""
    if provider == "in-memory":
        return None
    if provider == "embedded":
        return index_dir
    base = os.environ.get("XDG_CACHE_HOME") or os.environ.get("LOCALAPPDATA") or str(Path.home() / ".cache")
    return Path(base) / "docstrata"


def cache_key(file_sha256: str, page: int, dpi: int, engine_id: str, languages: tuple[str, ...]) -> str:
    """The cache key of one page's OCR: hex sha256 of the file's sha256, the 0-based page, the
    resolution, the engine (with its version) and the languages."""
    raw = f"{OCR_VERSION}|{file_sha256}|{page}|{dpi}|{engine_id}|{','.join(languages)}"
    return hashlib.sha256(raw.encode()).hexdigest()


# --------------------------------------------------------------------------- engines
class OcrEngine(Protocol):
    """Reads one page image. ``id`` names the engine and its version (part of the cache key)."""

    id: str

    def read(self, image) -> OcrPage:
        """OCR one page image (a PIL image, upright or turned) into its text lines with boxes in pixels."""


_ENGINES: dict[tuple[str, tuple[str, ...]], OcrEngine] = {}
_ENGINES_LOCK = threading.Lock()


def get_engine(engine: str, languages: tuple[str, ...]) -> OcrEngine:
    """The engine for ``engine`` (``auto``, ``rapidocr``, ``tesseract``) and ``languages``, loaded
    once per process. Raises :class:`OcrUnavailable` naming what to install."""
    key = (engine, tuple(languages))
    with _ENGINES_LOCK:
        if key not in _ENGINES:
            _ENGINES[key] = _make_engine(engine, tuple(languages))
        return _ENGINES[key]


def _make_engine(engine: str, languages: tuple[str, ...]) -> OcrEngine:
    if engine not in ENGINES:
        raise OcrUnavailable(f"unknown OCR engine {engine!r} (use one of {', '.join(ENGINES)})")
    if engine in ("auto", "rapidocr"):
        problem = _rapidocr_problem(languages)
        if problem is None:
            return RapidOcrEngine()
        if engine == "rapidocr":
            raise OcrUnavailable(problem)
        try:
            return TesseractEngine(languages)
        except OcrUnavailable as e:
            raise OcrUnavailable(f"{problem}; and {e}") from None
    return TesseractEngine(languages)


def _rapidocr_problem(languages: tuple[str, ...]) -> str | None:
    other = [lang for lang in languages if lang.lower() not in _RAPIDOCR_LANGUAGES]
    if other:
        return (
            f"the bundled OCR engine (rapidocr) reads English and Chinese only, not {', '.join(other)} "
            "(set ocr.engine: tesseract and install its language packs)"
        )
    try:
        import rapidocr_onnxruntime  # noqa: F401
    except ImportError:
        return "the bundled OCR engine is not installed (pip install rapidocr-onnxruntime)"
    return None


class RapidOcrEngine:
    """RapidOCR with its bundled PP-OCRv4 models (see the module docstring)."""

    def __init__(self):
        from importlib.metadata import version

        from rapidocr_onnxruntime import RapidOCR

        threads = int(os.environ.get("DOCSTRATA_OCR_THREADS", "0")) or min(4, os.cpu_count() or 1)
        # max_side_len: RapidOCR scales a page down to this side before detection; 4000 keeps an
        # A4 page at 300 dpi (3508 px) at full resolution, where small type keeps its word spaces
        self._ocr = RapidOCR(intra_op_num_threads=threads, inter_op_num_threads=1, max_side_len=4000)
        self._labels = _ClsRecorder(self._ocr.text_cls)
        self._ocr.text_cls = self._labels
        self._rec = _RecRecorder(self._ocr.text_rec)
        self._ocr.text_rec = self._rec
        self._lock = threading.Lock()  # one inference at a time (the recorder holds the last page's votes)
        self.id = f"rapidocr-{version('rapidocr-onnxruntime')}"

    def _run(self, array) -> tuple[list[OcrLine], list[tuple[bool, str, float]]]:
        """Lines (score ≥ 0.5) and, for every detected line, (tall box, angle label, label score)."""
        import numpy as np

        with self._lock:
            self._labels.last, self._rec.last = [], ([], [])
            result, _ = self._ocr(array, text_score=0.0)
            labels = list(self._labels.last)
            crops, recognised = self._rec.last
            result = [list(r) for r in result or []]
            for n, row in enumerate(result):
                # the angle classifier sees a long line squeezed to 192 pixels and sometimes turns an
                # upright one over, which then reads as nothing: read such a line the other way up too
                if float(row[2]) < 0.5 and n < len(labels) and str(labels[n][0]) == "180" and n < len(crops):
                    again = self._rec.inner([np.rot90(crops[n], 2)], True)[0][0]
                    if float(again[1]) > float(row[2]):
                        row[1], row[2] = again[0], again[1]
                        crops[n], recognised[n] = np.rot90(crops[n], 2), again
        lines, votes = [], []
        for n, (box, text, score, *_) in enumerate(result):
            if n < len(recognised) and len(recognised[n]) > 2:
                text = _respace(text, recognised[n][2], crops[n])
            xs, ys = [p[0] for p in box], [p[1] for p in box]
            tall = (max(ys) - min(ys)) > 1.5 * (max(xs) - min(xs))
            label, label_score = labels[n] if n < len(labels) else ("0", 0.0)
            if len(text.strip()) >= 3:
                votes.append((tall, str(label), float(label_score), len(text)))
            if float(score) >= 0.5 and text.strip():
                lines.append(OcrLine(text.strip(), min(xs), min(ys), max(xs), max(ys), float(score)))
        return lines, votes

    def read(self, image) -> OcrPage:
        """OCR one page image (a PIL image, upright or turned) into its text lines with boxes in pixels."""
        import numpy as np

        rgb = image.convert("RGB")
        lines, votes = self._run(np.asarray(rgb))
        turn = _orientation(votes)
        if turn:
            rgb = rgb.rotate(turn, expand=True)
            lines, _ = self._run(np.asarray(rgb))
        _measure_strokes(rgb, lines)
        return OcrPage(lines, rgb.width, rgb.height, 0.0, turn, self.id)


class _ClsRecorder:
    """Wraps RapidOCR's angle classifier to keep its labels (``[label, score]`` per line crop, in
    the order of the detected boxes), which RapidOCR does not return."""

    def __init__(self, inner):
        self.inner = inner
        self.last: list = []

    def __call__(self, images):
        out = self.inner(images)
        self.last = out[1]
        return out

    def __getattr__(self, name):
        return getattr(self.inner, name)


class _RecRecorder:
    """Wraps RapidOCR's recogniser to keep each line's crop and the CTC column of every decoded
    character (PaddleOCR's word-box information, asked for on every call), for :func:`_respace`."""

    def __init__(self, inner):
        self.inner = inner
        self.last: tuple[list, list] = ([], [])

    def __call__(self, images, return_word_box: bool = False):
        out = self.inner(images, True)
        self.last = (list(images) if isinstance(images, list) else [images], out[0])
        if return_word_box:
            return out
        return [tuple(r[:2]) for r in out[0]], out[1]

    def __getattr__(self, name):
        return getattr(self.inner, name)


_SPACE_RUN = 0.25  # of the line crop's height: a blank gap this wide between two letters is a word space


def _respace(text: str, info, crop) -> str:
    """``text`` with the word spaces the recogniser dropped put back: PP-OCR's recogniser, trained
    mostly on Chinese, often reads a tightly set English line without its spaces
    ("shallhavebeencreated"). Between two consecutive non-space characters (placed at their CTC
    columns, scaled to the crop's width) a run of ink-free pixel columns at least 0.25 of the crop's
    height wide (inside a word: under 0.2; a word space: 0.3-0.5) is a space — never between two
    digits (figures are set with wide side bearings) nor before closing punctuation."""
    import numpy as np

    try:
        n_cols, words, cols = float(info[0]), info[1], info[2]
    except (TypeError, IndexError, ValueError):
        return text
    chars = [ch for word in words for ch in word]
    places = [c for word in cols for c in word]
    if len(chars) != len(places) or "".join(chars) != text or n_cols <= 0 or len(chars) < 2:
        return text
    gray = np.asarray(crop, dtype=np.float32)
    if gray.ndim == 3:
        gray = gray.mean(axis=2)
    height, width = gray.shape
    lo, hi = np.percentile(gray, (5, 95))
    if hi - lo < 40:
        return text
    ink = (gray[int(height * 0.15) : max(int(height * 0.85), 1)] < (lo + hi) / 2).any(axis=0)
    need = max(2, int(_SPACE_RUN * height))
    out = [chars[0]]
    for i in range(1, len(chars)):
        a, b = chars[i - 1], chars[i]
        # never inside a number ("14"), nor before closing punctuation or after opening punctuation
        if (
            not a.isspace()
            and not b.isspace()
            and not (a.isdigit() and b.isdigit())
            and b not in ".,;:!?)]}%'\""
            and a not in "([{"
        ):
            x0 = int((places[i - 1] + 0.5) * width / n_cols)
            x1 = int((places[i] + 0.5) * width / n_cols)
            run = best = 0
            for dark in ink[max(x0, 0) : min(x1, width)]:
                run = 0 if dark else run + 1
                best = max(best, run)
            if best >= need:
                out.append(" ")
        out.append(b)
    return "".join(out)


def _orientation(votes: list[tuple[bool, str, float, int]]) -> int:
    """The turn (degrees counter-clockwise: 0, 90, 180, 270) that makes a page upright, from
    RapidOCR's per-line evidence: a line box taller than wide is cut out turned 90° counter-clockwise
    before recognition, so upright text in it means the page was turned clockwise; the angle
    classifier's "180" means the cut-out reads upside down. Weighted by characters; a turn wins
    only with more than half the weight."""
    weight: dict[int, float] = {}
    for tall, label, score, chars in votes:
        flipped = label == "180" and score >= 0.9
        turn = (90 if not flipped else 270) if tall else (180 if flipped else 0)
        weight[turn] = weight.get(turn, 0.0) + chars
    total = sum(weight.values())
    if not total:
        return 0
    best = max(weight, key=weight.__getitem__)
    return best if weight[best] > total / 2 else 0


class TesseractEngine:
    """The ``tesseract`` program (TSV output grouped into lines; ``--psm 3``, automatic layout)."""

    def __init__(self, languages: tuple[str, ...]):
        exe = shutil.which("tesseract")
        if exe is None:
            raise OcrUnavailable(
                "tesseract is not installed (Debian/Ubuntu: apt-get install tesseract-ocr; "
                "or use ocr.engine: rapidocr, the bundled engine)"
            )
        self._exe = exe
        installed = set(subprocess.run([exe, "--list-langs"], capture_output=True, text=True,
                                       timeout=60).stdout.split()[1:])  # fmt: skip
        codes = [_TESSERACT_CODES.get(lang.lower(), lang) for lang in languages]
        missing = [c for c in codes if c not in installed]
        if missing:
            raise OcrUnavailable(
                f"tesseract has no language data for {', '.join(missing)} (install "
                f"{' '.join('tesseract-ocr-' + c.replace('_', '-') for c in missing)}; installed: "
                f"{', '.join(sorted(installed)) or 'none'})"
            )
        self._lang = "+".join(codes)
        first = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
        self.id = "tesseract-" + ((first.stdout or first.stderr).split() or ["?", "?"])[1]

    def _tsv(self, image, *args: str) -> str:
        buf = io.BytesIO()
        image.save(buf, format="PNG")
        done = subprocess.run([self._exe, "stdin", "stdout", "-l", self._lang, *args], input=buf.getvalue(),
                              capture_output=True, timeout=600)  # fmt: skip
        if done.returncode != 0:
            said = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise RuntimeError(f"tesseract exited with {done.returncode}: {said[-1] if said else 'no message'}")
        return done.stdout.decode("utf-8", "replace")

    def _lines(self, image) -> list[OcrLine]:
        rows: dict[tuple[str, str, str, str], list[list[str]]] = {}
        for row in self._tsv(image, "--psm", "3", "tsv").splitlines()[1:]:
            cols = row.split("\t")
            if len(cols) == 12 and cols[0] == "5" and cols[11].strip():
                rows.setdefault(tuple(cols[1:5]), []).append(cols)
        lines = []
        for words in rows.values():
            x0 = min(int(w[6]) for w in words)
            y0 = min(int(w[7]) for w in words)
            x1 = max(int(w[6]) + int(w[8]) for w in words)
            y1 = max(int(w[7]) + int(w[9]) for w in words)
            score = sum(float(w[10]) for w in words) / len(words) / 100
            lines.append(OcrLine(" ".join(w[11].strip() for w in words), x0, y0, x1, y1, max(score, 0.0)))
        return lines

    def read(self, image) -> OcrPage:
        """OCR one page image (a PIL image, upright or turned) into its text lines with boxes in pixels."""
        gray = image.convert("L")
        lines = self._lines(gray)
        turn = 0
        chars = sum(len(line.text) for line in lines)
        if chars < 20 or sum(line.score * len(line.text) for line in lines) / max(chars, 1) < 0.6:
            turn = self._osd_turn(gray)
            if turn:
                gray = gray.rotate(turn, expand=True)
                lines = self._lines(gray)
        _measure_strokes(gray, lines)
        return OcrPage(lines, gray.width, gray.height, 0.0, turn, self.id)

    def _osd_turn(self, image) -> int:
        """Tesseract's orientation detection: its "Rotate: 90" (clockwise) as a counter-clockwise turn."""
        buf = io.BytesIO()
        image.save(buf, format="PNG")
        done = subprocess.run([self._exe, "stdin", "stdout", "--psm", "0"], input=buf.getvalue(),
                              capture_output=True, timeout=600)  # fmt: skip
        for line in done.stdout.decode("utf-8", "replace").splitlines():
            if line.startswith("Rotate:"):
                return (360 - int(line.split(":")[1])) % 360
        return 0


def _measure_strokes(image, lines: list[OcrLine]) -> None:
    """Set each line's ``stroke``: the mean length of the horizontal runs of dark pixels inside its
    box (dark: below the midpoint of the box's 5th and 95th grey-level percentiles), which grows
    with the weight of the type (bold ≈ 1.5× regular at one size); and its ``core``: the height of
    the band of rows around the densest row (rows smoothed over three) holding at least half the
    dark pixels of the 80th-percentile row —
    the x-height of lower-case text, the cap height of capitals — a measure of the type size that,
    unlike the box, does not depend on whether the line has ascenders and descenders."""
    import numpy as np

    gray = np.asarray(image.convert("L"), dtype=np.uint8)
    for line in lines:
        crop = gray[max(0, int(line.y0)) : int(line.y1) + 1, max(0, int(line.x0)) : int(line.x1) + 1]
        if crop.size < 4:
            continue
        lo, hi = np.percentile(crop, (5, 95))
        if hi - lo < 40:
            continue
        dark = crop < (lo + hi) / 2
        starts = np.count_nonzero(dark[:, 1:] & ~dark[:, :-1]) + np.count_nonzero(dark[:, 0])
        line.stroke = float(np.count_nonzero(dark)) / max(int(starts), 1)
        rows = np.convolve(dark.sum(axis=1), np.ones(3) / 3, mode="same")
        level = float(np.percentile(rows, 80)) / 2  # the bars of e, a, t spike above the stems: not the max
        peak = int(rows.argmax())
        top = bottom = peak
        while top > 0 and rows[top - 1] >= level:
            top -= 1
        while bottom + 1 < len(rows) and rows[bottom + 1] >= level:
            bottom += 1
        line.core = float(bottom - top + 1)


# --------------------------------------------------------------------------- reading pages
def read_page(image, settings: OcrSettings, file_sha256: str | None, page: int, dpi: float) -> OcrPage:
    """OCR of page ``page`` (0-based) of the file whose sha256 is ``file_sha256``, rendered at
    ``dpi``: from ``settings.cache`` (or the process cache) when there, else ``image`` (a PIL
    image, or a callable returning one, so a cached page is never rendered) is read by the
    configured engine and the result stored. Raises :class:`OcrUnavailable` when the engine
    cannot run; an engine failure propagates."""
    cache = settings.cache if settings.cache is not None else _PROCESS_CACHE
    engine = get_engine(settings.engine, settings.languages)
    key = cache_key(file_sha256, page, int(dpi), engine.id, settings.languages) if file_sha256 else None
    if key and (hit := cache.get(key)) is not None:
        return hit
    result = engine.read(image() if callable(image) else image)
    result.dpi = dpi
    if key:
        cache.put(key, result)
    return result
