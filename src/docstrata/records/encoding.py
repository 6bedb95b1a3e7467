"""Text encoding of record files: BOM, a whole-file UTF-8 check, a cautious charset-normalizer guess
with a cp1252 / latin-1 fallback, NUL bytes stripped while reading, and how files are opened."""

from __future__ import annotations

import codecs
import io
import unicodedata
from pathlib import Path
from typing import Iterable

from ..errors import RecordError

_SAMPLE_CHARS = 1 << 20

_BLOCK = 1 << 20
_WESTERN_FALLBACK = "cp1252"


def detect_encoding(path: Path, rel_path: str, configured: str | None = None) -> tuple[str, str | None]:
    """``(codec, warning)`` for reading ``path``; ``warning`` is set when a non-UTF-8 codec was guessed.

    A BOM wins over everything (a BOM in a file configured as ``utf-8`` is still removed).
    Raises :class:`RecordError` for an unknown ``configured`` codec.
    """
    with open(path, "rb") as f:
        head = f.read(4)
    bom = _bom_codec(head)
    if configured:
        try:
            name = codecs.lookup(configured).name
        except LookupError:
            raise RecordError(rel_path, f"unknown encoding '{configured}'", field="encoding") from None
        return (bom if bom and _unicode_family(name) == _unicode_family(bom) else name), None
    if bom:
        return bom, None
    bad_at = _first_invalid_utf8(path)
    if bad_at is None:
        return "utf-8", None
    codec = _guess_non_utf8(path, bad_at)
    return codec, f"{codec} detected (not valid UTF-8 at byte {bad_at}); set 'encoding' to override"


def _unicode_family(codec: str) -> str:
    return codecs.lookup(codec).name.replace("-sig", "")[:6]  # "utf-8", "utf-16", "utf-32", or other


def _bom_codec(head: bytes) -> str | None:
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return None


def _first_invalid_utf8(path: Path) -> int | None:
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    with open(path, "rb") as f:
        while True:
            block = f.read(_BLOCK)
            try:
                decoder.decode(block, final=not block)
            except UnicodeDecodeError as e:
                return offset + e.start
            if not block:
                return None
            offset += len(block)


def _guess_non_utf8(path: Path, bad_at: int) -> str:
    from charset_normalizer import from_bytes

    with open(path, "rb") as f:
        sample = f.read(_SAMPLE_CHARS)
        if bad_at >= len(sample):
            f.seek(max(0, bad_at - 4096))
            sample += f.read(65536)
    best = from_bytes(sample).best()
    if best is not None and best.coherence >= 0.2 and _mostly_non_latin(str(best)):
        return best.encoding
    return _WESTERN_FALLBACK if _decodes_whole(path, _WESTERN_FALLBACK) else "latin-1"


def _mostly_non_latin(text: str) -> bool:
    letters = [ch for ch in text if ord(ch) > 127 and ch.isalpha()]
    if not letters:
        return False
    non_latin = sum(1 for ch in letters if "LATIN" not in unicodedata.name(ch, ""))
    return non_latin > len(letters) / 2


def _decodes_whole(path: Path, codec: str) -> bool:
    decoder = codecs.getincrementaldecoder(codec)()
    with open(path, "rb") as f:
        try:
            for block in iter(lambda: f.read(_BLOCK), b""):
                decoder.decode(block)
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            return False
    return True


class _NulStripper:
    """Iterates the lines of a text stream with NUL characters removed, counting them."""

    def __init__(self, lines: Iterable[str], first_line: int = 1):
        self._lines = iter(lines)
        self._line = first_line - 1
        self.removed = 0
        self.first_line: int | None = None

    def __iter__(self) -> "_NulStripper":
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self._line += 1
        if "\0" in line:
            self.removed += line.count("\0")
            self.first_line = self.first_line or self._line
            line = line.replace("\0", "")
        return line

    def warning(self) -> str | None:
        if not self.removed:
            return None
        return f"{self.removed} NUL byte(s) stripped (first on line {self.first_line})"


def _open_text(path: Path, encoding: str) -> io.TextIOWrapper:
    # newline="" keeps quoted line breaks intact and splits on \n, \r\n and a lone \r.
    return open(path, encoding=encoding, errors="replace", newline="")


def _open_jsonl(path: Path, encoding: str) -> io.TextIOWrapper:
    # JSON Lines break on \n only; a stray \r is whitespace to json.loads, never a record break.
    return open(path, encoding=encoding, errors="replace", newline="\n")
