"""What is in a dataset folder, and what each file is: listing, hashing,
encodings and headers.

Only the data folder is read: a link whose target is outside it is not
followed, only regular files are read (a folder is descended into, never read
as a file; a pipe or device is never opened), and a file that cannot be read
is one quarantine row with its name. No content of an unreadable or foreign
file is echoed into a reason.

A CSV file is hashed and checked in one streaming pass (sha256, UTF-8
validity); its encoding is decided with charset-normalizer: UTF-8 with or
without BOM is read as it is; UTF-16 (Excel's "Unicode text") and
Windows-1252/Latin-1 (Excel's "CSV") are transcoded in streaming chunks to a
UTF-8 copy in the warehouse's temp folder, so that no character is silently
changed (DuckDB's own latin-1 reads bytes 0x80-0x9F as control characters).
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from outfall.ingest.parse import clean_header

CHUNK = 1 << 20
HEAD = 1 << 16
DELIMITERS = (",", ";", "\t", "|")
HEADER_SEARCH_ROWS = 10  # non-blank rows in which the header is looked for
WESTERN = {"cp1252", "latin_1", "iso8859_15", "iso8859_1", "windows-1252", "ascii", "utf_8"}

SAVE_AS = "save it from Excel as 'CSV UTF-8 (Comma delimited)' and send it again"


@dataclass
class InputEntry:
    rel: str  # the file's name within its dataset folder
    path: Path | None  # what to read; None when the entry is a problem
    problem: str | None = None

    def pseudo_digest(self) -> str:
        return "not-read:" + hashlib.sha256((self.problem or "").encode()).hexdigest()[:16]


def _hidden(name: str) -> bool:
    return name.startswith(".") or name.startswith("~$")


def _inside(target: str, root: str) -> bool:
    try:
        return os.path.commonpath([target, root]) == root
    except ValueError:
        return False


class FolderUnreadable(OSError):
    """A dataset folder that exists but cannot be listed: the run cannot know what it holds."""

    def __init__(self, folder: Path, cause: OSError):
        why = cause.strerror.lower() if cause.strerror else "it cannot be listed"
        super().__init__(
            cause.errno,
            f"the input folder {folder} cannot be read ({why}): give the user running "
            "Outfall read access to it, or move the files elsewhere, and run again",
        )


def scan_folder(folder: Path, root: Path | None = None) -> list[InputEntry]:
    """Every input under ``folder`` (sub-folders included), in name order;
    hidden files and office lock files (``~$x.xlsx``) are skipped. ``root`` is
    the data folder: links must stay inside it."""
    if not folder.is_dir():
        return []
    real_root = os.path.realpath(root or folder)
    out: list[InputEntry] = []

    def walk(directory: Path, prefix: str) -> None:
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as exc:
            if not prefix:  # the dataset folder itself: nothing of it can be read, the asset fails
                raise FolderUnreadable(folder, exc) from exc
            out.append(
                InputEntry(
                    prefix.rstrip("/") or ".",
                    None,
                    "the folder cannot be read (permission denied); check its permissions",
                )
            )
            return
        for entry in entries:
            if _hidden(entry.name):
                continue
            rel = prefix + entry.name
            try:
                if entry.is_symlink():
                    out.append(_link_entry(rel, entry.path, real_root))
                elif entry.is_dir(follow_symlinks=False):
                    walk(Path(entry.path), rel + "/")
                elif entry.is_file(follow_symlinks=False):
                    out.append(InputEntry(rel, Path(entry.path)))
                else:
                    out.append(
                        InputEntry(
                            rel,
                            None,
                            "the entry is not a regular file (a device, pipe or socket); it was not read",
                        )
                    )
            except OSError:
                out.append(InputEntry(rel, None, "the file cannot be read; check its permissions"))

    walk(folder, "")
    return sorted(out, key=lambda e: e.rel)


def _link_entry(rel: str, path: str, real_root: str) -> InputEntry:
    """A link in an input folder: the file it points to, when that is a regular file inside the data
    folder; else why it was not read."""
    target = os.path.realpath(path)
    if not os.path.exists(target):
        why = "the file is a link to nothing (its target is gone); put the file itself in the folder"
    elif not _inside(target, real_root):
        why = (
            "the file is a link to a file outside the data folder; it was not read: put the file "
            "itself in the folder"
        )
    elif os.path.isdir(target):
        why = (
            "the entry is a link to a folder; links to folders are not followed: put the files "
            "themselves in the folder"
        )
    elif stat.S_ISREG(os.stat(target).st_mode):
        return InputEntry(rel, Path(target))
    else:
        why = "the entry is not a regular file (a link to a device, pipe or socket); it was not read"
    return InputEntry(rel, None, why)


def list_input_files(folder: Path) -> list[Path]:
    """The readable regular files of a dataset folder (links inside it included), in name order."""
    return [folder / e.rel for e in scan_folder(folder, folder.parent) if e.path is not None]


# ---------------------------------------------------------------------------
# one streaming pass: sha256 and what the bytes are


@dataclass
class FileFacts:
    sha256: str
    size: int
    head: bytes
    utf8: bool = True  # every byte sequence is valid UTF-8
    ascii: bool = True
    stamp: str | None = None  # file_stamp() as the file was opened


# A file's stamp: its size, modification and change times (ns), inode and device. A file whose
# stamp is the one in the ledger is the file loaded then, and is not read again, as git, make and
# rsync judge: rewriting a file, copying over it or touching it changes its change time, which
# no program can set. A file changed within STAMP_SETTLE_S of being stamped gets no stamp (the
# clock that sets those times may tick coarsely: a second write in the same tick would keep the
# stamp), so it is read and hashed on the next run again, until it settles.
STAMP_SETTLE_S = 2.0


def file_stamp(st: os.stat_result) -> str | None:
    if time.time() - max(st.st_mtime, st.st_ctime) < STAMP_SETTLE_S:
        return None
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}:{st.st_dev}"


def current_stamp(path: Path) -> str | None:
    """The stamp of the file at ``path`` now (None when it cannot be read or has not settled)."""
    try:
        return file_stamp(os.stat(path))
    except OSError:
        return None


def inspect_file(path: Path, check_text: bool) -> FileFacts:
    """sha256, size and the first 64 KB, and (for text files) whether the whole
    file is valid UTF-8, in one pass of 1 MB chunks."""
    digest = hashlib.sha256()
    head = b""
    size = 0
    utf8 = True
    ascii_ = True
    decoder = codecs.getincrementaldecoder("utf-8")()
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as handle:
        opened = os.fstat(handle.fileno())
        if not stat.S_ISREG(opened.st_mode):
            raise IsADirectoryError(str(path))
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
            if len(head) < HEAD:
                head += chunk[: HEAD - len(head)]
            size += len(chunk)
            if check_text and utf8 and not chunk.isascii():
                ascii_ = False
                try:
                    decoder.decode(chunk)
                except UnicodeDecodeError:
                    utf8 = False
        if check_text and utf8:
            try:
                decoder.decode(b"", final=True)
            except UnicodeDecodeError:
                utf8 = False
    return FileFacts(digest.hexdigest(), size, head, utf8, ascii_, file_stamp(opened))


# ---------------------------------------------------------------------------
# encodings

_MAGIC = (
    (b"PK\x03\x04", "a zip archive (an Excel .xlsx workbook or a .zip named .csv)"),
    (b"%PDF", "a PDF document"),
    (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
        "an Office document (an old Excel .xls workbook, or a password-protected one)",
    ),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"PAR1", "a Parquet file"),
)


def binary_kind(head: bytes) -> str | None:
    for magic, what in _MAGIC:
        if head.startswith(magic):
            return what
    return None


@dataclass
class Encoding:
    codec: str | None = None  # 'utf-8' (read as is) or a codec to transcode from
    problem: str | None = None


def decide_encoding(facts: FileFacts) -> Encoding:
    head = facts.head
    what = binary_kind(head)
    if what:
        return Encoding(problem=f"the file is not a text table: it is {what}; {SAVE_AS}")
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return Encoding("utf-16")
    if head.startswith(codecs.BOM_UTF8) and facts.utf8:
        return Encoding("utf-8")
    if facts.utf8 and b"\x00" not in head:
        return Encoding("utf-8")
    from charset_normalizer import from_bytes

    if b"\x00" in head:
        best = from_bytes(head, cp_isolation=["utf_16", "utf_16_le", "utf_16_be", "utf_32"]).best()
        if best is not None and best.encoding.startswith(("utf_16", "utf_32")):
            return Encoding(best.encoding)
        return Encoding(problem="the file is not a text table (it holds binary data); " + SAVE_AS)
    matches = from_bytes(head, cp_isolation=list(CANDIDATES))
    best = matches.best()
    if best is None:
        return Encoding(
            problem="the file is not a text table (it holds binary data, or text in no encoding "
            "Outfall can read); " + SAVE_AS
        )
    # Single-byte code pages often decode a short sample alike: Windows-1252 is
    # accepted when it reads the sample as well as the best guess does.
    try:
        as_1252 = head.decode("cp1252")
    except UnicodeDecodeError:
        as_1252 = None
    if as_1252 is not None:
        if str(best) == as_1252 or best.encoding in WESTERN:
            return Encoding("cp1252")
        if any(m.encoding == "cp1252" and m.chaos <= best.chaos + 0.01 for m in matches):
            return Encoding("cp1252")
    name = CANDIDATES.get(best.encoding, best.encoding)
    return Encoding(
        problem=f"the file is not in UTF-8, UTF-16 or Windows-1252 text (it looks like {name}); " + SAVE_AS
    )


# Encodings told apart when a file is not UTF-8 (and how a clerk would know them).
CANDIDATES = {
    "cp1252": "Windows-1252",
    "cp1250": "Windows-1250 (Central European)",
    "cp1251": "Windows-1251 (Cyrillic)",
    "cp1253": "Windows-1253 (Greek)",
    "cp1255": "Windows-1255 (Hebrew)",
    "cp1256": "Windows-1256 (Arabic)",
    "koi8_r": "KOI8-R (Cyrillic)",
    "cp932": "Shift_JIS (Japanese)",
    "shift_jis": "Shift_JIS (Japanese)",
    "gb18030": "GB18030 (Chinese)",
    "big5": "Big5 (Chinese)",
    "euc_kr": "EUC-KR (Korean)",
}


def transcode(path: Path, codec: str, out_dir: Path) -> Path:
    """A UTF-8 copy of ``path`` (decoded from ``codec`` in 1 MB chunks);
    UnicodeDecodeError when a byte is not in the codec."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / (hashlib.sha256(str(path).encode()).hexdigest()[:16] + ".csv")
    decoder = codecs.getincrementaldecoder(codec)(errors="strict")
    with open(path, "rb") as src, open(target, "w", encoding="utf-8", newline="") as dst:
        while chunk := src.read(CHUNK):
            dst.write(
                decoder.decode(chunk).lstrip("\ufeff") if src.tell() <= CHUNK else decoder.decode(chunk)
            )
        dst.write(decoder.decode(b"", final=True))
    return target


# ---------------------------------------------------------------------------
# the header of a CSV file


@dataclass
class CsvLayout:
    delimiter: str = ","
    skip: int = 0  # physical lines before the first data line (the header included)
    header_line: int = 0  # the header's line number (1-based, physical)
    names: list[str] = field(default_factory=list)  # cleaned header names, in file order
    problem: str | None = None


def read_csv_layout(head_text: str, required: list[str], aliases: dict[str, str]) -> CsvLayout:
    """Find the header: the first non-blank line, or (a title above it) the
    first of the first few non-blank lines naming every required column; and
    the delimiter (',' unless another one names more required columns)."""
    lines = head_text.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")) and len(lines) > 1:
        lines = lines[:-1]  # a line cut by the 64 KB sample
    first: tuple[int, list[str]] | None = None
    seen = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        seen += 1
        best = None
        for delim in DELIMITERS:
            try:
                cells = next(csv.reader(io.StringIO(line), delimiter=delim))
            except (csv.Error, StopIteration):
                continue
            names = [aliases.get(clean_header(c), clean_header(c)) for c in cells]
            found = sum(1 for r in required if r in names)
            if best is None or found > best[0]:
                best = (found, delim, names)
        if best is None:
            continue
        if first is None:
            first = (number, best[2])
        if best[0] == len(required):
            return CsvLayout(best[1], number, number, best[2])
        if seen >= HEADER_SEARCH_ROWS:
            break
    if first is None:
        return CsvLayout(problem="the file is empty")
    return CsvLayout(problem=missing_header(required, first[1]))


def missing_header(required: list[str], names: list[str]) -> str:
    missing = [c for c in required if c not in names]
    shown = ", ".join(n[:40] for n in names[:8]) + (", ..." if len(names) > 8 else "")
    return f"no header row with the required column(s) {', '.join(missing)} (found: {shown})"


def duplicate_names(names: list[str]) -> str | None:
    dupes = sorted({n for n in names if n and names.count(n) > 1})
    return f"the header names column(s) {', '.join(dupes)} more than once" if dupes else None
