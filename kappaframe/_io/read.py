"""Reading an input file for the command line: only the needed columns, with a progress bar."""

from __future__ import annotations

import io
import lzma
import os
import re
import sys
import time
import zlib
from collections.abc import Hashable, Iterable, Sequence
from pathlib import Path
from typing import IO, Any

import pandas as pd

from .._errors import KappaFrameError, missing_columns
from .formats import _PARQUET_EXTRA, _split_suffix, input_format


class Progress:
    """A one-line progress bar on a terminal; silent otherwise.

    It draws only when ``stream`` is a terminal and the work has lasted ``delay``
    seconds, so quick runs print nothing and logs of batch jobs stay clean.
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
        self.delay = delay
        self.start = time.monotonic()
        self.done = 0.0
        self.drawn = False

    def advance(self, amount: float) -> None:
        self.update(self.done + amount)

    def update(self, done: float) -> None:
        self.done = done
        if not self.enabled or time.monotonic() - self.start < self.delay:
            return
        self.stream.write("\r" + self.line())
        self.stream.flush()
        self.drawn = True

    def line(self, width: int = 30) -> str:
        if self.total:
            share = min(max(self.done / self.total, 0.0), 1.0)
            filled = round(share * width)
            bar = "#" * filled + "." * (width - filled)
            amount = f"{_amount(self.done, self.unit)} / {_amount(self.total, self.unit)}"
            return f"{self.label} [{bar}] {share:4.0%} {amount}"
        return f"{self.label} {_amount(self.done, self.unit)}"

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r" + " " * len(self.line()) + "\r")
            self.stream.flush()
            self.drawn = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
    if not distinct or not all(_NUMBER.fullmatch(v) for v in distinct):
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
    """Turn text ``columns`` of ``frame`` into numbers, in place, as :func:`number_kind` said."""
    if kind is None:
        return
    for c in columns:
        frame[c] = pd.to_numeric(frame[c]) if kind == "int" else frame[c].astype("float64")


def _distinct_text(column: pd.Series) -> set[str]:
    return {str(v) for v in column.dropna().unique()}


def read_input(
    path: str | os.PathLike[str],
    columns: Sequence[Hashable] | None = None,
    *,
    fmt: str | None = None,
    progress: bool | None = None,
    na_values: Sequence[str] = (),
    labels: Sequence[Hashable] | None = None,
    text: Sequence[Hashable] = (),
) -> pd.DataFrame:
    """Read CSV, TSV, Parquet or JSON (lines) into pandas, keeping only ``columns``.

    This is the one function the command line reads input with (swap it for a streamed
    reader and nothing else changes). Compressed text files (``.gz``, ``.bz2``, ``.xz``,
    ``.zst``) are read as such.

    CSV and TSV cells are read as written: only an empty cell is missing (plus the
    ``na_values`` tokens), and ``01``, ``1`` and ``1.0`` are three labels. A column
    becomes numbers when :func:`number_kind` allows it (the ``labels`` columns decide
    together, as they share one category index), so the label order for weights is the
    numeric one. JSON keeps its own types; its empty strings and ``na_values`` are missing
    too. Parquet keeps its types and nulls.

    Parameters
    ----------
    path : str or os.PathLike
        The input file.
    columns : sequence of hashable, optional
        The columns to keep (default: all).
    fmt : {"csv", "tsv", "parquet", "jsonl", "json"}, optional
        Default: from the file's suffix.
    progress : bool, optional
        A progress bar on stderr (default: on a terminal only).
    na_values : sequence of str, default ()
        Text that means "missing" besides the empty cell, e.g. ``["N/A", "NA"]``.
    labels : sequence of hashable, optional
        Columns that share one category index (default: each column on its own).
    text : sequence of hashable, default ()
        Columns kept as text whatever they hold (group keys, item ids).

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    KappaFrameError
        Missing file, unknown format, missing or repeated columns, a file the parser or
        the decompressor rejects, nested JSON values, ``na_values`` with Parquet.
    ModuleNotFoundError
        Parquet without pyarrow, ``.zst`` without zstandard.
    """
    source, kind, wanted = _locate(path, columns, fmt)
    tokens = list(na_values)
    if tokens and kind == "parquet":
        raise KappaFrameError(
            f"--na-values {' '.join(tokens)}: Parquet marks missing values itself (null); "
            "drop --na-values for Parquet input."
        )
    size = source.stat().st_size
    try:
        if kind == "parquet":
            frame = _read_parquet(source, wanted, progress)
        else:
            with Progress(f"reading {source.name}", size, unit="B", enabled=progress) as bar:
                frame = _read_text(source, kind, wanted, bar, tokens)
    except KappaFrameError:
        raise
    except ImportError as err:
        raise _missing_codec(source, err) from None
    except _READ_ERRORS as err:
        raise _unreadable(source, kind, err) from None
    if kind == "parquet":
        return frame
    _check_flat(frame, source)
    if kind not in TEXT_FORMATS:
        return _missing_text(frame, ["", *tokens])
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


def _unreadable(source: Path, kind: str, err: BaseException) -> KappaFrameError:
    compression = _split_suffix(source)[1]
    if compression is not None and isinstance(err, (EOFError, lzma.LZMAError, zlib.error, OSError)):
        return KappaFrameError(
            f"could not decompress {str(source)!r} ({compression}): {err}; the file is "
            "truncated or damaged: copy it again, or name the uncompressed file."
        )
    reason = str(err) or type(err).__name__
    return KappaFrameError(f"could not read {str(source)!r} as {kind}: {reason}")


def _missing_codec(source: Path, err: ImportError) -> Exception:
    if _split_suffix(source)[1] == "zstd":
        return ModuleNotFoundError(
            f"reading {source.name} (zstd) needs the zstandard module: pip install zstandard",
            name="zstandard",
        )
    return err


def _check_flat(frame: pd.DataFrame, source: Path) -> None:
    """Refuse nested values (a JSON object or list in a cell)."""
    for c in frame.columns:
        if frame[c].dtype != object:
            continue
        nested = frame[c].map(lambda v: isinstance(v, (dict, list))).to_numpy(dtype=bool)
        if nested.any():
            row = int(nested.argmax())
            raise KappaFrameError(
                f"{source.name}: column {c!r} holds a nested value in row {row + 1} "
                f"({frame[c].iloc[row]!r}); labels are single values: flatten the file first."
            )


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
) -> pd.DataFrame:
    """Read the first ``rows`` rows (to see column names and label types cheaply).

    CSV and TSV cells come back as written (text), missing when empty or in ``na_values``.
    """
    source, kind, wanted = _locate(path, columns, fmt)
    try:
        if kind == "parquet":
            parquet, names = _open_parquet(source, wanted)
            batch = next(parquet.iter_batches(columns=names, batch_size=rows), None)
            if batch is None:
                return read_input(source, wanted, fmt=kind, progress=False)
            return batch.to_pandas()
        if kind in TEXT_FORMATS:
            sep = _check_csv_header(source, kind, wanted, "infer")
            return pd.read_csv(
                source, sep=sep, usecols=wanted, nrows=rows, **_as_written(na_values)
            )
    except KappaFrameError:
        raise
    except ImportError as err:
        raise _missing_codec(source, err) from None
    except _READ_ERRORS as err:
        raise _unreadable(source, kind, err) from None
    return read_input(source, wanted, fmt=kind, progress=False, na_values=na_values)


def _as_written(na_values: Sequence[str]) -> dict[str, Any]:
    """``pandas.read_csv`` options: every cell as text, missing when empty or a token."""
    return {"dtype": str, "keep_default_na": False, "na_values": ["", *na_values]}


def _locate(
    path: str | os.PathLike[str], columns: Sequence[Hashable] | None, fmt: str | None
) -> tuple[Path, str, list[Hashable] | None]:
    """The input file (which must exist), its format, and the columns to keep."""
    source = Path(path)
    kind = input_format(source, fmt)
    if not source.is_file():
        raise KappaFrameError(f"input file not found: {str(source)!r}.")
    wanted = None if columns is None else list(dict.fromkeys(columns))
    return source, kind, wanted


def csv_header(source: Path, kind: str, compression: Any = "infer") -> list[str]:
    """The column names of a CSV/TSV file as written; a name given twice is an error."""
    sep = "\t" if kind == "tsv" else ","
    try:
        first = pd.read_csv(
            source, sep=sep, nrows=1, header=None, compression=compression, **_as_written(())
        )
    except ImportError as err:
        raise _missing_codec(source, err) from None
    except _READ_ERRORS as err:
        raise _unreadable(source, kind, err) from None
    names = ["" if pd.isna(v) else str(v) for v in first.iloc[0]] if len(first) else []
    _check_unique(names, source)
    return names


def _check_unique(names: Sequence[Hashable], source: Path) -> None:
    seen: set[Hashable] = set()
    for name in names:
        if name in seen:
            raise KappaFrameError(
                f"{source.name}: the column name {str(name)!r} appears more than once; "
                "rename one of them in the file's header."
            )
        seen.add(name)


def _check_csv_header(
    source: Path, kind: str, wanted: list[Hashable] | None, compression: Any
) -> str:
    """Check the wanted columns against a CSV/TSV header; return the separator."""
    sep = "\t" if kind == "tsv" else ","
    names = csv_header(source, kind, compression)
    _check_wanted(wanted, names, source)
    return sep


def _check_wanted(wanted: list[Hashable] | None, names: Sequence[Hashable], source: Path) -> None:
    if wanted is None:
        return
    err = missing_columns(wanted, list(names), "column")
    if err is not None:
        raise KappaFrameError(f"{source.name}: {err}")


def _read_text(
    source: Path, kind: str, wanted: list[Hashable] | None, bar: Progress, tokens: list[str]
) -> Any:
    compression: Any = _split_suffix(source)[1]
    if kind in TEXT_FORMATS:
        sep = _check_csv_header(source, kind, wanted, compression)
    raw = open(source, "rb")  # noqa: SIM115 - closed by the buffered reader below
    with io.BufferedReader(_CountingReader(raw, bar)) as buffered:
        handle: Any = buffered
        if kind in TEXT_FORMATS:
            return pd.read_csv(
                handle,
                sep=sep,
                usecols=wanted,
                compression=compression,
                low_memory=False,
                **_as_written(tokens),
            )
        if kind == "json":
            first = handle.peek(64).lstrip()[:1]
            if first == b"[":
                frame = pd.read_json(handle, compression=compression, dtype=False)
                _check_wanted(wanted, list(frame.columns), source)
                return frame if wanted is None else frame[wanted]
        parts = pd.read_json(
            handle, lines=True, chunksize=100_000, compression=compression, dtype=False
        )
        frames = []
        for part in parts:
            _check_wanted(wanted, list(part.columns), source)
            frames.append(part if wanted is None else part[wanted])
    if not frames:
        return pd.DataFrame(columns=wanted or [])
    return pd.concat(frames, ignore_index=True)


def _open_parquet(source: Path, wanted: list[Hashable] | None) -> tuple[Any, list[str] | None]:
    """Open a Parquet file and check the wanted columns; return it and the names to read."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ModuleNotFoundError as err:
        raise ModuleNotFoundError(_PARQUET_EXTRA, name="pyarrow") from err
    try:
        parquet = pq.ParquetFile(source)
    except (pa.ArrowException, OSError) as err:
        raise KappaFrameError(f"could not read {str(source)!r} as parquet: {err}") from None
    _check_unique(parquet.schema_arrow.names, source)
    _check_wanted(wanted, parquet.schema_arrow.names, source)
    return parquet, None if wanted is None else [str(c) for c in wanted]


def _read_parquet(source: Path, wanted: list[Hashable] | None, progress: bool | None) -> Any:
    import pyarrow as pa

    parquet, names = _open_parquet(source, wanted)
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
