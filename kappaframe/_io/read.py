"""Reading an input file for the command line: only the needed columns, with a progress bar."""

from __future__ import annotations

import csv
import functools
import glob
import hashlib
import io
import itertools
import logging
import lzma
import os
import re
import sys
import time
import zlib
from collections.abc import Hashable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import pandas as pd

from .._errors import KappaFrameError, arg, missing_columns, optional_import, refuse_nested
from .formats import (
    FOLDER_SUFFIXES,
    INPUT_FORMATS,
    STDIO,
    TOOL_FORMATS,
    _split_suffix,
    input_format,
    is_sidecar,
)
from .tools.registry import MORE, one_kind, rater_of, read_exports, sniff_head

_log = logging.getLogger(__name__)


class Progress:
    """A one-line progress bar (tqdm) on a terminal; silent otherwise.

    It draws only when ``stream`` is a terminal and the work has lasted ``delay``
    seconds, so quick runs print nothing and logs of batch jobs stay clean. Without the
    tqdm package it stays silent.
    """

    def __init__(
        self,
        label: str,
        total: float | None,
        *,
        unit: str = "",
        stream: IO[str] | None = None,
        delay: float = 0.5,
        enabled: bool | None = None,
    ) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.done = 0.0
        self._bar: Any = _tqdm(self, delay) if enabled else None

    def advance(self, amount: float) -> None:
        self.update(self.done + amount)

    def update(self, done: float) -> None:
        step = done - self.done
        self.done = done
        if self._bar is not None and step:
            self._bar.update(step)

    def line(self) -> str:
        """What the bar says besides the bar itself: the amount done (and of how much)."""
        if self.total:
            return f"{_amount(self.done, self.unit)} / {_amount(self.total, self.unit)}"
        return _amount(self.done, self.unit)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _tqdm(progress: Progress, delay: float) -> Any:
    """A tqdm bar drawing ``progress`` (None without tqdm)."""
    try:
        from tqdm import tqdm
    except ModuleNotFoundError:
        return None

    class Bar(tqdm):
        @property
        def format_dict(self) -> dict[str, Any]:
            return {**super().format_dict, "amount": progress.line()}

    if progress.total:
        layout = "{desc} [{bar:30}] {percentage:3.0f}% {amount}"
    else:
        layout = "{desc} {amount}"
    return Bar(
        total=progress.total or None,
        desc=progress.label,
        file=progress.stream,
        delay=delay,
        mininterval=min(0.1, delay),
        leave=False,
        ascii=".#",
        bar_format=layout,
        dynamic_ncols=False,
    )


def _amount(value: float, unit: str) -> str:
    if unit == "B":
        for scale, name in ((1024**3, "GiB"), (1024**2, "MiB"), (1024, "KiB")):
            if value >= scale:
                return f"{value / scale:.1f} {name}"
        return f"{int(value)} B"
    return f"{int(value):,}{(' ' + unit) if unit else ''}"


class _CountingReader(io.RawIOBase):
    """A raw binary reader that reports every read to a progress bar."""

    def __init__(self, raw: IO[bytes], progress: Progress) -> None:
        self._raw = raw
        self._progress = progress

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = self._raw.readinto(buffer)  # type: ignore[attr-defined]
        if n:
            self._progress.advance(n)
        return n or 0

    def close(self) -> None:
        self._raw.close()
        super().close()


#: Labels written like this are numbers: an optional minus, no leading zeros, digits after
#: a point (``-2``, ``10``, ``0.5``); ``01``, ``+1``, ``1e3``, ``0x1``, ``nan`` stay text.
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")

_INT64_MAX = 2**63 - 1

#: What parsers and decompressors raise for a file they cannot read.
_READ_ERRORS = (ValueError, OSError, EOFError, UnicodeDecodeError, lzma.LZMAError, zlib.error)

#: Text formats, where every cell is read as written.
TEXT_FORMATS = ("csv", "tsv")


def plain_number(text: str) -> bool:
    """Whether a label is written as a plain number (``-2``, ``10``, ``0.5``; not ``01``)."""
    return _NUMBER.fullmatch(text) is not None


def number_kind(values: Iterable[str]) -> str | None:
    """Say whether distinct labels read as text may become numbers, and which.

    Labels are compared as written. They become numbers (so that weights order
    ``1 < 2 < 10``) only when every one is written as a plain number (no leading zero,
    sign ``+``, exponent or hex) and no two of them name the same number (``1`` and
    ``1.0`` stay two labels).

    Parameters
    ----------
    values : iterable of str
        The distinct non-missing labels.

    Returns
    -------
    {"int", "float"} or None
        None: keep them as text (also when there are none).
    """
    distinct = set(values)
    if not distinct or not all(plain_number(v) for v in distinct):
        return None
    if not any("." in v for v in distinct):
        numbers: set[float] = {int(v) for v in distinct}
        if max(abs(int(v)) for v in distinct) > _INT64_MAX:
            return None
        kind = "int"
    else:
        numbers = {float(v) for v in distinct}
        kind = "float"
    return kind if len(numbers) == len(distinct) else None


def as_numbers(frame: pd.DataFrame, columns: Sequence[Hashable], kind: str | None) -> None:
    """Turn text ``columns`` of ``frame`` into numbers, in place, as ``number_kind`` said."""
    if kind is None:
        return
    for c in columns:
        frame[c] = pd.to_numeric(frame[c]) if kind == "int" else frame[c].astype("float64")


def _distinct_text(column: pd.Series) -> set[str]:
    return {str(v) for v in column.dropna().unique()}


_DEFAULT_ENCODING = "utf-8-sig"

#: The separators a CSV file is sniffed for, in order of preference.
DELIMITERS = (",", ";", "\t", "|")

_COMMA_NUMBER = re.compile(r"-?[0-9]+,[0-9]+")
_POINT_NUMBER = re.compile(r"-?[0-9]+\.[0-9]+")
_INTEGER = re.compile(r"-?[0-9]+")

_MAGIC = {b"\x1f\x8b": "gzip", b"BZh": "bz2", b"\xfd7zXZ\x00": "xz", b"\x28\xb5\x2f\xfd": "zstd"}


_stdin_cache: dict[str, bytes] = {}

#: The size and SHA-256 of the bytes standard input gave (before any decompression).
_stdin_received: dict[str, tuple[int, str]] = {}


class Source:
    """One input: a file, or standard input (read into memory once)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.stdin = os.fspath(path) == STDIO
        self.data = stdin_bytes() if self.stdin else None
        self.name = "standard input" if self.stdin else self.path.name
        self.compression = None if self.stdin else _split_suffix(self.path)[1]

    def __str__(self) -> str:
        return "standard input" if self.stdin else str(self.path)

    def open(self) -> IO[bytes]:
        return io.BytesIO(self.data) if self.data is not None else open(self.path, "rb")

    def size(self) -> int:
        return len(self.data) if self.data is not None else self.path.stat().st_size

    def head(self, size: int = 65_536) -> bytes:
        """The first ``size`` bytes, decompressed."""
        with self.open() as raw:
            if self.compression is None:
                return raw.read(size)
            return _decompressed(raw, self.compression).read(size)


def _decompressed(raw: IO[bytes], compression: str) -> IO[bytes]:
    if compression == "gzip":
        import gzip

        return gzip.GzipFile(fileobj=raw)  # type: ignore[return-value]
    if compression == "bz2":
        import bz2

        return bz2.open(raw)
    if compression == "xz":
        return lzma.open(raw)
    import zstandard

    return zstandard.ZstdDecompressor().stream_reader(raw)


def stdin_bytes() -> bytes:
    """Standard input, read whole once (and decompressed when it starts like gzip, ...)."""
    if "data" not in _stdin_cache:
        data = sys.stdin.buffer.read()
        _stdin_received["digest"] = (len(data), hashlib.sha256(data).hexdigest())
        for magic, compression in _MAGIC.items():
            if data.startswith(magic):
                try:
                    data = _decompressed(io.BytesIO(data), compression).read()
                except ImportError as err:
                    raise _missing_codec("standard input", compression, err) from None
                except _READ_ERRORS as err:
                    raise KappaFrameError(
                        f"could not decompress standard input ({compression}): {err}."
                    ) from None
                break
        _stdin_cache["data"] = data
        _log.info("read standard input: %d bytes", _stdin_received["digest"][0])
    return _stdin_cache["data"]


def stdin_digest() -> tuple[int, str] | None:
    """The size and SHA-256 of standard input as received (None: not read by kappaframe).

    The bytes before any decompression: ``sha256sum`` of the file piped in agrees.
    """
    return _stdin_received.get("digest")


def sniff_format(head: bytes) -> str | None:
    """Say what a stream holds from its first bytes: parquet, json, jsonl, csv, tsv or None."""
    if head.startswith(b"PAR1"):
        return "parquet"
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text or b"\x00" in text:
        return None
    if text[:1] == b"[":
        return "json"
    if text[:1] == b"{":
        return "jsonl"
    sep = sniff_delimiter(text.decode("utf-8", errors="replace"))
    return "tsv" if sep == "\t" else "csv"


def expand_input(path: str | os.PathLike[str]) -> list[str]:
    """The files an INPUT names: itself, a glob's matches, or a directory's data files.

    A directory or a glob never yields a provenance sidecar (``*.provenance.json``,
    written beside a report): it describes a table, it holds no ratings.

    Raises
    ------
    KappaFrameError
        A glob that matches nothing, a directory with no data file.
    """
    text = os.fspath(path)
    if text == STDIO:
        return [text]
    if os.path.isdir(text):
        found = sorted(
            str(p)
            for p in Path(text).rglob("*")
            if p.is_file() and _split_suffix(p)[0] in FOLDER_SUFFIXES and not p.name.startswith(".")
        )
        found = _without_sidecars(text, found)
        if not found:
            raise KappaFrameError(
                f"the directory {text!r} holds no data file "
                f"({', '.join(FOLDER_SUFFIXES)}, compressed too)."
            )
        return found
    if any(ch in text for ch in "*?[") and not os.path.exists(text):
        found = sorted(p for p in glob.glob(text, recursive=True) if os.path.isfile(p))
        found = _without_sidecars(text, found)
        if not found:
            raise KappaFrameError(f"no file matches {text!r}.")
        return found
    return [text]


def _without_sidecars(given: str, found: list[str]) -> list[str]:
    """``found`` without provenance sidecars (said at INFO level); the rest logged (DEBUG)."""
    kept = [p for p in found if not is_sidecar(p)]
    if len(kept) < len(found):
        _log.info(
            "%s: left out %d provenance sidecar(s) (*.provenance.json)",
            given,
            len(found) - len(kept),
        )
    _log.debug("%s names %d file(s): %s", given, len(kept), ", ".join(kept[:20]))
    return kept


def input_kind(path: str | os.PathLike[str], fmt: str | None = None) -> str:
    """The format of one input: ``fmt``, else its suffix, else (standard input) sniffed.

    A JSON or JSON lines input whose first record is an annotation tool's (a Label Studio
    task, a Prodigy ``db-out`` line, a doccano example) is that tool's export
    (``kappaframe._io.tools``), read as the long frame.
    """
    if fmt is not None:
        return input_format(path, fmt)
    if os.fspath(path) != STDIO:
        named = input_format(path)
        return (_tool_of(os.fspath(path)) or named) if named in ("json", "jsonl") else named
    data = stdin_bytes()
    kind = sniff_format(data[:65_536])
    if kind is None:
        why = "it is empty" if not data.strip() else "it is not text nor Parquet"
        raise KappaFrameError(
            f"cannot tell the format of standard input ({why}); name it with "
            f"--input-format ({', '.join(INPUT_FORMATS)})."
        )
    if kind in ("json", "jsonl"):
        found = sniff_head(data, complete=True)
        return found if isinstance(found, str) else kind
    return kind


def _tool_of(path: str) -> str | None:
    """The annotation tool whose export the JSON (lines) file ``path`` is, or None."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return _sniffed(path, info.st_size, info.st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _sniffed(path: str, size: int, mtime: int) -> str | None:
    """The tool of a file by its first record (the file's size and time key the cache)."""
    source = Source(path)
    for amount in (1 << 16, 1 << 22, -1):
        try:
            head = source.head(amount)
        except (ImportError, *_READ_ERRORS):
            return None  # reading it whole says what is wrong
        found = sniff_head(head, complete=amount == -1 or len(head) < amount)
        if found is not MORE:
            return found if isinstance(found, str) else None
    return None


def file_bytes(path: str | os.PathLike[str]) -> bytes:
    """The whole content of one input file (decompressed), or of standard input."""
    source = Source(path)
    if not source.stdin and not source.path.is_file():
        raise KappaFrameError(f"input file not found: {os.fspath(path)!r}.")
    try:
        return source.head(-1)
    except ImportError as err:
        raise _missing_codec(str(source), source.compression, err) from None
    except _READ_ERRORS as err:
        raise _unreadable(source, "json", err) from None


def read_tool_export(
    paths: Sequence[str | os.PathLike[str]],
    tool: str | None = None,
    *,
    fields: str | Sequence[str] | None = None,
    multiple: bool | None = None,
    predictions: bool = False,
) -> pd.DataFrame:
    """The long frame of annotation tool exports (``kappaframe.read_annotations``)."""
    files = [
        (
            str(Source(p)),
            file_bytes(p),
            None if os.fspath(p) == STDIO else rater_of(os.fspath(p)),
        )
        for p in paths
    ]
    frame: pd.DataFrame = read_exports(
        files, tool, fields=fields, multiple=multiple, predictions=predictions
    )
    return frame


def sniff_delimiter(text: str, default: str | None = None) -> str:
    """The separator of CSV text among ``, ; TAB |``, from its header and first lines.

    A candidate fits when it splits the header into two or more fields and every
    complete sampled line into as many. ``default`` wins when it fits; else the fitting
    candidate with the most fields; else ``default`` (or ``,``).
    """
    lines = text.splitlines()
    if len(lines) > 1 and not text.endswith(("\n", "\r")):
        lines = lines[:-1]  # the sample may end inside a line
    lines = [line for line in lines[:50] if line.strip()]
    best, best_fields = None, 1
    fits: list[str] = []
    for sep in DELIMITERS:
        try:
            rows = list(csv.reader(lines, delimiter=sep))
        except csv.Error:
            continue
        if not rows or len(rows[0]) < 2 or any(len(r) != len(rows[0]) for r in rows):
            continue
        fits.append(sep)
        if len(rows[0]) > best_fields:
            best, best_fields = sep, len(rows[0])
    if default is not None and default in fits:
        return default
    return best or default or ","


def sniff_decimal(text: str, sep: str) -> str:
    """``,`` when the separator is not ``,`` and the number-like cells use a decimal comma."""
    if sep == ",":
        return "."
    commas = points = 0
    for row in csv.reader(text.splitlines()[1:50], delimiter=sep):
        for cell in row:
            cell = cell.strip()
            commas += bool(_COMMA_NUMBER.fullmatch(cell))
            points += bool(_POINT_NUMBER.fullmatch(cell))
    return "," if commas and not points else "."


class TextOptions:
    """How a CSV/TSV input is written: separator, decimal mark, encoding (None: sniffed)."""

    def __init__(
        self, delimiter: str | None = None, decimal: str | None = None, encoding: str | None = None
    ) -> None:
        self.delimiter = delimiter
        self.decimal = decimal
        self.encoding = encoding or _DEFAULT_ENCODING

    def resolve(self, source: Source, kind: str) -> tuple[str, str]:
        """The separator and the decimal mark of ``source``: as given, else sniffed."""
        if self.delimiter is not None and self.decimal is not None:
            return self.delimiter, self.decimal
        try:
            text = source.head().decode(self.encoding, errors="replace")
        except LookupError:
            raise _bad_encoding(self.encoding) from None
        except ImportError as err:
            raise _missing_codec(str(source), source.compression, err) from None
        except _READ_ERRORS as err:
            raise _unreadable(source, kind, err) from None
        text = text.lstrip("\ufeff")
        sep = self.delimiter or sniff_delimiter(text, "\t" if kind == "tsv" else ",")
        decimal = self.decimal or sniff_decimal(text, sep)
        _log.debug(
            "%s: separator %r (%s), decimal mark %r (%s)",
            source,
            sep,
            "given" if self.delimiter else "sniffed",
            decimal,
            "given" if self.decimal else "sniffed",
        )
        return sep, decimal


def _bad_encoding(encoding: str) -> KappaFrameError:
    return KappaFrameError(
        f"unknown --encoding {encoding!r}; use a Python codec name such as utf-8, cp1252, "
        "latin-1 or utf-16."
    )


def read_input(
    path: str | os.PathLike[str],
    columns: Sequence[Hashable] | None = None,
    *,
    fmt: str | None = None,
    progress: bool | None = None,
    na_values: Sequence[str] = (),
    labels: Sequence[Hashable] | None = None,
    text: Sequence[Hashable] = (),
    options: TextOptions | None = None,
    labels_except: Sequence[Hashable] | None = None,
    fields: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Read CSV, TSV, Parquet or JSON (lines) into pandas, keeping only ``columns``.

    This is the one function the command line reads input with (swap it for a streamed
    reader and nothing else changes). Compressed text files (``.gz``, ``.bz2``, ``.xz``,
    ``.zst``) are read as such. ``path`` may be ``-`` (standard input), a glob or a
    directory: each file is read alike and the rows are stacked, with the union of the
    files' columns (a column a file lacks is missing there).

    CSV and TSV cells are read as written: only an empty cell is missing (plus the
    ``na_values`` tokens), and ``01``, ``1`` and ``1.0`` are three labels. A column
    becomes numbers when ``number_kind`` allows it (the ``labels`` columns decide
    together, as they share one category index), so the label order for weights is the
    numeric one. The separator (``, ; TAB |``) and the decimal mark are sniffed unless
    ``options`` gives them; a UTF-8 byte order mark is dropped. JSON keeps its own types;
    its empty strings and ``na_values`` are missing too. Parquet keeps its types and nulls.

    Parameters
    ----------
    path : str or os.PathLike
        The input file, ``-``, a glob or a directory.
    columns : sequence of hashable, optional
        The columns to keep (default: all).
    fmt : {"csv", "tsv", "parquet", "jsonl", "json"}, optional
        Default: from the file's suffix (sniffed for standard input).
    progress : bool, optional
        A progress bar on stderr (default: on a terminal only).
    na_values : sequence of str, default ()
        Text that means "missing" besides the empty cell, e.g. ``["N/A", "NA"]``.
    labels : sequence of hashable, optional
        Columns that share one category index (default: each column on its own).
    text : sequence of hashable, default ()
        Columns kept as text whatever they hold (group keys, item ids).
    options : TextOptions, optional
        Separator, decimal mark and encoding of CSV/TSV (default: sniffed; UTF-8).
    labels_except : sequence of hashable, optional
        Without ``labels``: every column but these shares one category index.
    fields : sequence of str, optional
        An annotation tool's export (``kappaframe._io.tools``; a ``.json`` or ``.jsonl``
        file whose first record is the tool's, or ``fmt`` naming the tool, read as the
        long frame ``item``, ``rater``, [``field``], ``label``, ``data.*``): the fields
        to read (default: every field). Other inputs: must be None.

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    KappaFrameError
        Missing file, unknown format, missing or repeated columns, a file the parser or
        the decompressor rejects, text that is not in the encoding (the message names
        ``--encoding``), nested JSON values, ``na_values`` with Parquet.
    ModuleNotFoundError
        Parquet without pyarrow, ``.zst`` without zstandard.
    """
    options = options or TextOptions()
    paths = expand_input(path)
    tokens = list(na_values)
    wanted = None if columns is None else list(dict.fromkeys(columns))
    formats = [input_kind(p, fmt) for p in paths]
    if any(k in TOOL_FORMATS for k in formats):
        return _read_exports(path, paths, formats, wanted, fields)
    if fields is not None:
        raise KappaFrameError(
            f"{arg('fields', list(fields))} reads an annotation tool's export; "
            f"{shown_path(path)} is {', '.join(sorted(set(formats)))}.",
            option="fields",
        )
    frames: list[pd.DataFrame] = []
    kinds: set[str] = set()
    for one in paths:
        start = time.perf_counter()
        frame, kind = _read_one(
            one, wanted if len(paths) == 1 else None, fmt, progress, tokens, options
        )
        _log.info(
            "read %s (%s): %d rows, %d columns in %.2f s",
            "standard input" if one == STDIO else one,
            kind,
            len(frame),
            frame.shape[1],
            time.perf_counter() - start,
        )
        frames.append(frame)
        kinds.add(kind)
    if len(frames) == 1:
        frame = frames[0]
    else:
        frame = pd.concat(frames, ignore_index=True, sort=False)
        _log.info("stacked %d files: %d rows, %d columns", len(frames), *frame.shape)
        _check_wanted(wanted, list(frame.columns), Source(path))
        if wanted is not None:
            frame = frame[wanted]
    if kinds == {"parquet"}:
        return frame
    if not kinds <= set(TEXT_FORMATS):
        return _missing_text(frame, ["", *tokens])
    if labels is None and labels_except is not None:
        labels = [c for c in frame.columns if c not in labels_except]
    keep = set(text) | set(labels or ())
    together = [c for c in labels or () if c in frame]
    if together:
        written: set[str] = set()
        for c in together:
            written |= _distinct_text(frame[c])
        as_numbers(frame, together, number_kind(written))
    for c in frame.columns:
        if c not in keep:
            as_numbers(frame, [c], number_kind(_distinct_text(frame[c])))
    return frame


def _read_exports(
    given: str | os.PathLike[str],
    paths: list[str],
    kinds: list[str],
    wanted: list[Hashable] | None,
    fields: Sequence[str] | None,
) -> pd.DataFrame:
    """Annotation tool exports, read together as the long frame (only ``wanted`` kept)."""
    if len(set(kinds)) > 1:
        mixed = ", ".join(f"{p} ({k})" for p, k in list(zip(paths, kinds, strict=True))[:6])
        raise KappaFrameError(
            f"{shown_path(given)} mixes formats: {mixed}; read an annotation tool's export "
            "apart from other files."
        )
    start = time.perf_counter()
    frame = one_kind(read_tool_export(paths, kinds[0], fields=fields), shown_path(given))
    _log.info(
        "read %s (%s): %d ratings in %.2f s",
        shown_path(given),
        kinds[0],
        len(frame),
        time.perf_counter() - start,
    )
    _check_wanted(wanted, list(frame.columns), Source(given))
    if wanted is not None and "field" in frame.columns and "field" not in wanted:
        names = ", ".join(repr(f) for f in dict.fromkeys(frame["field"]))
        raise KappaFrameError(
            f"{shown_path(given)} holds several fields ({names}), each a question of its own: "
            f"agree per field with {arg('by', ['field'])}, or read one with "
            f"{arg('fields', ...)}.",
            option="fields",
        )
    return frame if wanted is None else frame[wanted]


def shown_path(path: str | os.PathLike[str]) -> str:
    """An input as messages name it: standard input, or the path."""
    return "standard input" if os.fspath(path) == STDIO else os.fspath(path)


def _read_one(
    path: str,
    wanted: list[Hashable] | None,
    fmt: str | None,
    progress: bool | None,
    tokens: list[str],
    options: TextOptions,
) -> tuple[pd.DataFrame, str]:
    """One file as written (text cells as text), and its format."""
    kind = input_kind(path, fmt)
    if not os.fspath(path) == STDIO and not Path(path).is_file():
        raise KappaFrameError(f"input file not found: {path!r}.")
    source = Source(path)
    if tokens and kind == "parquet":
        raise KappaFrameError(
            f"--na-values {' '.join(tokens)}: Parquet marks missing values itself (null); "
            "drop --na-values for Parquet input."
        )
    try:
        if kind == "parquet":
            frame = _read_parquet(source, wanted, progress)
        else:
            with Progress(
                f"reading {source.name}", source.size(), unit="B", enabled=progress
            ) as bar:
                frame = _read_text(source, kind, wanted, bar, tokens, options)
    except KappaFrameError:
        raise
    except LookupError:
        raise _bad_encoding(options.encoding) from None
    except ImportError as err:
        raise _missing_codec(str(source), source.compression, err) from None
    except _READ_ERRORS as err:
        raise _unreadable(source, kind, err, options.encoding) from None
    if kind != "parquet":
        refuse_nested(frame, source.name)
    return frame, kind


def unreadable_file(
    name: str, kind: str, err: BaseException, compression: str | None = None
) -> KappaFrameError:
    """The error for a file the decompressor or the parser rejects: what failed, the way out.

    Parameters
    ----------
    name : str
        The file, as the message shows it.
    kind : str
        The format it was read as (``csv``, ``parquet``, ...).
    err : BaseException
        What the decompressor or the parser raised.
    compression : str, optional
        The file's compression (``gzip``, ...): a read error is then a damaged stream.
    """
    if compression is not None and (
        isinstance(err, _DECOMPRESS_ERRORS) or type(err).__name__ == "ZstdError"
    ):
        return KappaFrameError(
            f"could not decompress {name!r} ({compression}): {err}; the file is "
            "truncated or damaged: copy it again, or name the uncompressed file."
        )
    reason = str(err).strip() or type(err).__name__
    hint = ""
    if kind == "parquet":
        hint = (
            "; check the file is complete and is Parquet (it starts and ends with the bytes "
            "PAR1): copy it again, or name its real format"
        )
    elif _RAGGED.search(reason):
        hint = (
            "; check that every row has as many cells as the header (a cell that holds "
            "the separator must be quoted)"
        )
    return KappaFrameError(f"could not read {name!r} as {kind}: {reason}{hint}")


#: What a decompressor raises for a damaged stream (and zstandard's ZstdError, by name).
_DECOMPRESS_ERRORS = (EOFError, lzma.LZMAError, zlib.error, OSError)


def is_read_error(err: BaseException) -> bool:
    """Whether ``err`` is what a decompressor or a parser raises for a file it rejects.

    A ``KappaFrameError`` is not: it already says what is wrong.
    """
    if isinstance(err, KappaFrameError):
        return False
    if isinstance(err, _READ_ERRORS) or type(err).__name__ == "ZstdError":
        return True
    pa = sys.modules.get("pyarrow")
    return pa is not None and isinstance(err, pa.ArrowException)


#: A parser's words for a row with more (or fewer) cells than the header.
_RAGGED = re.compile(r"Expected \d+ (?:columns|fields)")


def _unreadable(
    source: Source, kind: str, err: BaseException, encoding: str = _DEFAULT_ENCODING
) -> KappaFrameError:
    compression = source.compression
    if isinstance(err, UnicodeDecodeError):
        shown = "UTF-8" if encoding == _DEFAULT_ENCODING else encoding
        byte = err.object[err.start : err.start + 1].hex() if err.object else "?"
        other = "cp1252" if encoding in (_DEFAULT_ENCODING, "utf-8", "utf8") else "utf-8"
        return KappaFrameError(
            f"could not read {str(source)!r} as {shown} text (byte 0x{byte} at offset "
            f"{err.start} is not {shown}); name the file's encoding with --encoding, e.g. "
            f"--encoding {other} for Excel's 'CSV (Windows)' files."
        )
    return unreadable_file(str(source), kind, err, compression)


def _missing_codec(name: str, compression: str | None, err: ImportError) -> Exception:
    if compression == "zstd":
        shown = Path(name).name if name != "standard input" else name
        return ModuleNotFoundError(
            f"reading {shown} (zstd) needs the zstandard module: pip install zstandard",
            name="zstandard",
        )
    return err


def _missing_text(frame: pd.DataFrame, tokens: list[str]) -> pd.DataFrame:
    """Text cells equal to one of ``tokens`` become missing."""
    for c in frame.columns:
        column = frame[c]
        if column.dtype == object or pd.api.types.is_string_dtype(column.dtype):
            hit = column.isin(tokens)
            if hit.any():
                frame[c] = column.where(~hit, None)
    return frame


def read_head(
    path: str | os.PathLike[str],
    columns: Sequence[Hashable] | None = None,
    *,
    fmt: str | None = None,
    rows: int = 10_000,
    na_values: Sequence[str] = (),
    options: TextOptions | None = None,
) -> pd.DataFrame:
    """Read the first ``rows`` rows (to see column names and label types cheaply).

    CSV and TSV cells come back as written (text), missing when empty or in ``na_values``.
    JSON lines: the first ``rows`` lines, parsed as ``read_input`` parses them; of
    ``columns``, those the lines hold (a key may first appear later in the file).
    """
    options = options or TextOptions()
    source, kind, wanted = _locate(path, columns, fmt)
    try:
        if kind == "jsonl" and not source.stdin:
            return _json_lines_head(source, wanted, rows, na_values, options)
        if kind == "parquet":
            parquet, names = _open_parquet(source, wanted)
            batch = next(parquet.iter_batches(columns=names, batch_size=rows), None)
            if batch is None:
                return read_input(path, wanted, fmt=kind, progress=False)
            return batch.to_pandas()
        if kind in TEXT_FORMATS:
            sep, decimal = _check_csv_header(source, kind, wanted, options)
            compression: Any = source.compression
            with source.open() as raw:
                frame: Any = pd.read_csv(
                    raw,
                    sep=sep,
                    usecols=wanted,
                    nrows=rows,
                    compression=compression,
                    encoding=options.encoding,
                    **_as_written(na_values),
                )
            return _decimal_points(frame) if decimal == "," else frame
    except KappaFrameError:
        raise
    except ImportError as err:
        raise _missing_codec(str(source), source.compression, err) from None
    except _READ_ERRORS as err:
        raise _unreadable(source, kind, err, options.encoding) from None
    return read_input(path, wanted, fmt=kind, progress=False, na_values=na_values)


def _json_lines_head(
    source: Source,
    wanted: list[Hashable] | None,
    rows: int,
    na_values: Sequence[str],
    options: TextOptions,
) -> pd.DataFrame:
    """The first ``rows`` lines of a JSON lines file, read as ``read_input`` reads them."""
    with source.open() as raw:
        stream: Any = raw
        if source.compression is not None:
            stream = _decompressed(raw, source.compression)
            if source.compression == "zstd":
                stream = io.BufferedReader(stream)
        data = b"".join(itertools.islice(stream, rows))
    if not data.strip():
        return pd.DataFrame(columns=wanted or [])
    frame = pd.read_json(io.BytesIO(data), lines=True, dtype=False, encoding=options.encoding)
    frame = _missing_text(frame, ["", *na_values])
    return frame if wanted is None else frame[[c for c in wanted if c in frame]]


def _json_lines_keys(source: Source, options: TextOptions) -> list[str]:
    """The keys of every line of a JSON lines file, in order of first appearance.

    Read in chunks of lines (memory set by the chunk, not the file), each parsed as
    ``read_input`` parses it.
    """
    names: dict[str, None] = {}
    compression: Any = source.compression
    try:
        with source.open() as raw:
            for part in _json_line_chunks(raw, compression, options.encoding, 65_536):
                names.update(dict.fromkeys(str(c) for c in part.columns))
    except LookupError:
        raise _bad_encoding(options.encoding) from None
    except ImportError as err:
        raise _missing_codec(str(source), source.compression, err) from None
    except _READ_ERRORS as err:
        raise _unreadable(source, "jsonl", err, options.encoding) from None
    return list(names)


def _json_line_chunks(handle: Any, compression: Any, encoding: str, lines: int) -> Any:
    """Frames of ``lines`` lines of a JSON lines stream, JSON types kept (no dtype guess)."""
    return pd.read_json(
        handle,
        lines=True,
        chunksize=lines,
        compression=compression,
        dtype=False,
        encoding=encoding,
    )


def _as_written(na_values: Sequence[str]) -> dict[str, Any]:
    """``pandas.read_csv`` options: every cell as text, missing when empty or a token."""
    return {"dtype": str, "keep_default_na": False, "na_values": ["", *na_values]}


def _locate(
    path: str | os.PathLike[str], columns: Sequence[Hashable] | None, fmt: str | None
) -> tuple[Source, str, list[Hashable] | None]:
    """The input file (which must exist), its format, and the columns to keep."""
    kind = input_kind(path, fmt)
    if os.fspath(path) != STDIO and not Path(path).is_file():
        raise KappaFrameError(f"input file not found: {os.fspath(path)!r}.")
    wanted = None if columns is None else list(dict.fromkeys(columns))
    return Source(path), kind, wanted


def csv_header(source: Source | Path, kind: str, options: TextOptions | None = None) -> list[str]:
    """The column names of a CSV/TSV file as written; a name given twice is an error."""
    source = source if isinstance(source, Source) else Source(source)
    options = options or TextOptions()
    sep, _ = options.resolve(source, kind)
    compression: Any = source.compression
    try:
        with source.open() as raw:
            first: Any = pd.read_csv(
                raw,
                sep=sep,
                nrows=1,
                header=None,
                compression=compression,
                encoding=options.encoding,
                **_as_written(()),
            )
    except LookupError:
        raise _bad_encoding(options.encoding) from None
    except ImportError as err:
        raise _missing_codec(str(source), source.compression, err) from None
    except pd.errors.EmptyDataError:
        return []
    except _READ_ERRORS as err:
        raise _unreadable(source, kind, err, options.encoding) from None
    names = header_names(
        ["" if pd.isna(v) else str(v) for v in first.iloc[0]] if len(first) else []
    )
    _check_unique(names, source)
    return names


def header_names(names: Sequence[str]) -> list[str]:
    """A CSV header's column names as pandas reads them: an empty one is ``Unnamed: i``.

    ``i`` is the column's position, from 0 (``,a,b``, what ``DataFrame.to_csv`` writes
    with its index, names the first column ``Unnamed: 0``). Every way a CSV file comes in
    names its columns so, and ``raters=`` (``--raters``, ``--exclude``) can name them.
    """
    return [name if name != "" else f"Unnamed: {i}" for i, name in enumerate(names)]


def columns_of(
    path: str | os.PathLike[str], fmt: str | None = None, options: TextOptions | None = None
) -> list[str]:
    """The column names of an input (the union over a glob's or directory's files)."""
    names: dict[str, None] = {}
    for one in expand_input(path):
        kind = input_kind(one, fmt)
        if kind in TEXT_FORMATS:
            if os.fspath(one) != STDIO and not Path(one).is_file():
                raise KappaFrameError(f"input file not found: {one!r}.")
            names.update(dict.fromkeys(csv_header(Source(one), kind, options)))
        elif kind == "parquet":
            source = Source(one)
            names.update(
                dict.fromkeys(str(c) for c in _open_parquet(source, None)[0].schema_arrow.names)
            )
        elif kind == "jsonl" and os.fspath(one) != STDIO:
            if not Path(one).is_file():
                raise KappaFrameError(f"input file not found: {one!r}.")
            names.update(dict.fromkeys(_json_lines_keys(Source(one), options or TextOptions())))
        else:
            head = read_head(one, fmt=kind, rows=1)
            names.update(dict.fromkeys(str(c) for c in head.columns))
    return list(names)


def _check_unique(names: Sequence[Hashable], source: Source) -> None:
    check_unique_names(names, source.name)


def check_unique_names(names: Sequence[Hashable], where: str) -> None:
    """Refuse a column name given twice in the header of the file ``where`` names."""
    seen: set[Hashable] = set()
    for name in names:
        if name in seen:
            raise KappaFrameError(
                f"{where}: the column name {str(name)!r} appears more than once; "
                "rename one of them in the file's header."
            )
        seen.add(name)


def _check_csv_header(
    source: Source, kind: str, wanted: list[Hashable] | None, options: TextOptions
) -> tuple[str, str]:
    """Check the wanted columns against a CSV/TSV header; return separator and decimal."""
    sep, decimal = options.resolve(source, kind)
    names = csv_header(source, kind, options)
    _check_wanted(wanted, names, source)
    return sep, decimal


def _check_wanted(wanted: list[Hashable] | None, names: Sequence[Hashable], source: Source) -> None:
    if wanted is None:
        return
    err = missing_columns(wanted, list(names), "column")
    if err is not None:
        raise KappaFrameError(f"{source.name}: {err}")


def comma_column(values: Iterable[str]) -> bool | None:
    """Where the values of one column stand on the decimal-comma rule.

    A column of a file whose decimal mark is ``,`` is rewritten with a point (``0,75`` to
    ``0.75``, ``decimal_point``) only when every value of it in the file is an integer
    or a decimal-comma number, and one at least is the latter. A label such as ``a,b``
    keeps its column as written.

    Returns
    -------
    bool or None
        False: a value is neither (the column is never rewritten); True: every value is
        one of the two and one at least has a decimal comma; None: integers only, or none.
        Parts of a column combine: False if one is False, else True if one is True.
    """
    state = None
    for v in values:
        if _COMMA_NUMBER.fullmatch(v):
            state = True
        elif not _INTEGER.fullmatch(v):
            return False
    return state


def decimal_point(text: str) -> str:
    """A decimal-comma number written with a point (the rewrite of ``comma_column``)."""
    return text.replace(",", ".")


def _decimal_points(frame: pd.DataFrame) -> pd.DataFrame:
    """Numbers written with a decimal comma (``0,75``) rewritten with a point, column by column.

    Only a column whose every value is an integer or a decimal-comma number changes
    (``comma_column``).
    """
    for c in frame.columns:
        if comma_column(_distinct_text(frame[c])):
            frame[c] = frame[c].str.replace(",", ".", regex=False)
    return frame


def _read_text(
    source: Source,
    kind: str,
    wanted: list[Hashable] | None,
    bar: Progress,
    tokens: list[str],
    options: TextOptions,
) -> Any:
    compression: Any = source.compression
    if kind in TEXT_FORMATS:
        sep, decimal = _check_csv_header(source, kind, wanted, options)
    raw = source.open()
    with io.BufferedReader(_CountingReader(raw, bar)) as buffered:
        handle: Any = buffered
        if kind in TEXT_FORMATS:
            frame = pd.read_csv(
                handle,
                sep=sep,
                usecols=wanted,
                compression=compression,
                encoding=options.encoding,
                low_memory=False,
                **_as_written(tokens),
            )
            return _decimal_points(frame) if decimal == "," else frame
        if kind == "json":
            first = handle.peek(64).lstrip()[:1]
            if first == b"[":
                frame = pd.read_json(
                    handle, compression=compression, dtype=False, encoding=options.encoding
                )
                _check_wanted(wanted, list(frame.columns), source)
                return frame if wanted is None else frame[wanted]
        frames = []
        for part in _json_line_chunks(handle, compression, options.encoding, 100_000):
            _check_wanted(wanted, list(part.columns), source)
            frames.append(part if wanted is None else part[wanted])
    if not frames:
        return pd.DataFrame(columns=wanted or [])
    return pd.concat(frames, ignore_index=True)


def _open_parquet(source: Source, wanted: list[Hashable] | None) -> tuple[Any, list[str] | None]:
    """Open a Parquet file and check the wanted columns; return it and the names to read."""
    pa = optional_import("pyarrow", "reading Parquet files")
    pq = optional_import("pyarrow.parquet", "reading Parquet files")
    try:
        parquet = pq.ParquetFile(source.open() if source.stdin else source.path)
    except (pa.ArrowException, OSError) as err:
        raise unreadable_file(str(source), "parquet", err) from None
    _check_unique(parquet.schema_arrow.names, source)
    _check_wanted(wanted, parquet.schema_arrow.names, source)
    return parquet, None if wanted is None else [str(c) for c in wanted]


def _read_parquet(source: Source, wanted: list[Hashable] | None, progress: bool | None) -> Any:
    parquet, names = _open_parquet(source, wanted)
    import pyarrow as pa

    total = parquet.metadata.num_rows
    batches = []
    with Progress(f"reading {source.name}", total, unit="rows", enabled=progress) as bar:
        for batch in parquet.iter_batches(columns=names, batch_size=262_144):
            batches.append(batch)
            bar.advance(batch.num_rows)
    if batches:
        table = pa.Table.from_batches(batches)
    else:
        full = parquet.schema_arrow
        table = (full if names is None else pa.schema([full.field(n) for n in names])).empty_table()
    return table.to_pandas()


def counted(batches: Iterable[Any], progress: Progress) -> Iterator[Any]:
    """Yield batches (pyarrow or pandas), advancing ``progress`` by their rows."""
    for batch in batches:
        yield batch
        rows = getattr(batch, "num_rows", None)
        progress.advance(len(batch) if rows is None else rows)
