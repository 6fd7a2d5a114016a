"""Reading an input file for the command line: only the needed columns, with a progress bar."""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Hashable, Sequence
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


def read_input(
    path: str | os.PathLike[str],
    columns: Sequence[Hashable] | None = None,
    *,
    fmt: str | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Read CSV, TSV, Parquet or JSON (lines) into pandas, keeping only ``columns``.

    This is the one function the command line reads input with (swap it for a streamed
    reader and nothing else changes). Compressed text files (``.gz``, ``.bz2``, ``.xz``,
    ``.zst``) are read as such. Types are inferred over the whole file (a column of
    integers stays integers), so label order for weights is the numeric one.

    Raises
    ------
    KappaFrameError
        Missing file, unknown format, missing columns, or a file the parser rejects.
    ModuleNotFoundError
        Parquet without pyarrow.
    """
    source, kind, wanted = _locate(path, columns, fmt)
    size = source.stat().st_size
    try:
        if kind == "parquet":
            return _read_parquet(source, wanted, progress)
        with Progress(f"reading {source.name}", size, unit="B", enabled=progress) as bar:
            return _read_text(source, kind, wanted, bar)
    except KappaFrameError:
        raise
    except (ValueError, OSError, UnicodeDecodeError) as err:
        raise KappaFrameError(f"could not read {str(source)!r} as {kind}: {err}") from None


def read_head(
    path: str | os.PathLike[str],
    columns: Sequence[Hashable] | None = None,
    *,
    fmt: str | None = None,
    rows: int = 10_000,
) -> pd.DataFrame:
    """Read the first ``rows`` rows (to see column names and label types cheaply)."""
    source, kind, wanted = _locate(path, columns, fmt)
    try:
        if kind == "parquet":
            parquet, names = _open_parquet(source, wanted)
            batch = next(parquet.iter_batches(columns=names, batch_size=rows), None)
            if batch is None:
                return read_input(source, wanted, fmt=kind, progress=False)
            return batch.to_pandas()
        if kind in ("csv", "tsv"):
            sep = _check_csv_header(source, kind, wanted, "infer")
            return pd.read_csv(source, sep=sep, usecols=wanted, nrows=rows)
    except KappaFrameError:
        raise
    except (ValueError, OSError) as err:
        raise KappaFrameError(f"could not read {str(source)!r} as {kind}: {err}") from None
    return read_input(source, wanted, fmt=kind, progress=False)


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


def _check_csv_header(
    source: Path, kind: str, wanted: list[Hashable] | None, compression: Any
) -> str:
    """Check the wanted columns against a CSV/TSV header; return the separator."""
    sep = "\t" if kind == "tsv" else ","
    header = pd.read_csv(source, sep=sep, nrows=0, compression=compression)
    _check_wanted(wanted, list(header.columns), source)
    return sep


def _check_wanted(wanted: list[Hashable] | None, names: Sequence[Hashable], source: Path) -> None:
    if wanted is None:
        return
    err = missing_columns(wanted, list(names), "column")
    if err is not None:
        raise KappaFrameError(f"{source.name}: {err}")


def _read_text(source: Path, kind: str, wanted: list[Hashable] | None, bar: Progress) -> Any:
    compression: Any = _split_suffix(source)[1]
    if kind in ("csv", "tsv"):
        sep = _check_csv_header(source, kind, wanted, compression)
    raw = open(source, "rb")  # noqa: SIM115 - closed by the buffered reader below
    with io.BufferedReader(_CountingReader(raw, bar)) as buffered:
        handle: Any = buffered
        if kind in ("csv", "tsv"):
            return pd.read_csv(
                handle, sep=sep, usecols=wanted, compression=compression, low_memory=False
            )
        if kind == "json":
            first = handle.peek(64).lstrip()[:1]
            if first == b"[":
                frame = pd.read_json(handle, compression=compression)
                _check_wanted(wanted, list(frame.columns), source)
                return frame if wanted is None else frame[wanted]
        parts = pd.read_json(handle, lines=True, chunksize=100_000, compression=compression)
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
