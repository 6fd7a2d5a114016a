"""Writing a result file atomically: a temporary file next to the target, then a rename.

- A symbolic link stays a link: the file it points to is replaced.
- A device, FIFO or socket (``-o /dev/null``, ``-o >(gzip > x.gz)``) is written straight
  through: there is nothing to rename over, and replacing it would turn ``/dev/null``
  into a regular file.
- A regular file keeps its permission bits; a new one gets 0666 minus the umask.
- ``write_output`` sends bytes to a file (compressed as its suffix says: ``.gz``,
  ``.bz2``, ``.xz``, ``.zst``) or to standard output (``-``); ``table_bytes`` turns a
  table into CSV, TSV, JSON, JSON lines or Parquet (which keeps ordered categoricals, and
  takes key-value metadata, e.g. the provenance of the table).
  JSON numbers are exact: every float is written as the shortest decimal that reads back
  as the same float (``json_text``).
- The temporary file is named ``.{name}.kappaframe-tmp-{pid}``; SIGTERM during the
  write removes it (exit status 143), and a later write to the same directory removes
  the ones whose process no longer runs.
"""

from __future__ import annotations

import errno
import io
import json
import logging
import math
import os
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

from .._errors import KappaFrameError, optional_import
from .formats import STDIO, output_compression

_log = logging.getLogger(__name__)

#: Marks the temporary files of an unfinished write: ``.{name}{TEMP_MARK}{pid}``.
TEMP_MARK = ".kappaframe-tmp-"

#: Exit status after SIGTERM during a write (128 + 15, as a shell reports it).
EXIT_TERMINATED = 128 + signal.SIGTERM


def write_atomic(path: str | os.PathLike[str], write: Callable[[Path], None]) -> None:
    """Call ``write(tmp)`` on a temporary file beside ``path``, then rename it to ``path``.

    The rename is atomic on one file system: readers see the old file or the new one,
    never a half-written one; if ``write`` fails the temporary file is removed and
    ``path`` is untouched. A symbolic link is followed (the link stays a link); a
    device, FIFO or socket is written straight through, with no temporary file. A
    replaced regular file keeps its permission bits; a new file gets 0666 minus umask.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write.
    write : callable
        Writes the whole content to the path it is given.

    Raises
    ------
    KappaFrameError
        The target is a directory, its directory does not exist, or the file cannot be
        created or written (permissions, a full device): the message names the path.
    """
    shown = os.fspath(path)
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as err:
        raise _write_error(shown, err) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise KappaFrameError(
            f"output {shown!r} is a directory; name a file, e.g. {os.path.join(shown, 'report')!r}."
        )
    if info is not None and not stat.S_ISREG(info.st_mode):
        try:
            write(target)  # a device, FIFO or socket: there is nothing to rename over
        except OSError as err:
            raise _write_error(shown, err) from None
        return
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise KappaFrameError(f"output directory does not exist: {str(directory)!r}.")
    remove_stale_temporaries(directory, target.name)
    try:
        tmp = _create_temporary(directory, target.name)
    except OSError as err:
        raise _write_error(shown, err) from None
    try:
        with _removed_on_sigterm(tmp):
            write(tmp)
            if info is not None:
                mode = stat.S_IMODE(info.st_mode)
            else:
                mask = os.umask(0)
                os.umask(mask)
                mode = 0o666 & ~mask
            os.chmod(tmp, mode)
            os.replace(tmp, target)
        _log.info("wrote %s (%d bytes)", shown, target.stat().st_size)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise _write_error(shown, err) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _write_error(shown: str, err: OSError) -> KappaFrameError:
    reason = err.strerror or str(err)
    if err.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        hint = "choose a --output where you may write"
    elif err.errno == errno.ENOSPC:
        hint = "free some space or write elsewhere"
    else:
        hint = "choose another --output"
    return KappaFrameError(f"cannot write {shown!r}: {reason}; {hint}.")


def _create_temporary(directory: Path, name: str) -> Path:
    """Create ``.{name}.kappaframe-tmp-{pid}`` (a counter appended while taken), mode 0600."""
    base = directory / f".{name}{TEMP_MARK}{os.getpid()}"
    candidate, n = base, 0
    while True:
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            n += 1
            candidate = base.with_name(f"{base.name}-{n}")
            continue
        os.close(fd)
        return candidate


def remove_stale_temporaries(directory: Path, name: str) -> list[Path]:
    """Remove the temporary files of writes to ``name`` whose process no longer runs.

    Parameters
    ----------
    directory : pathlib.Path
        Where the target lives.
    name : str
        The target's file name.

    Returns
    -------
    list of pathlib.Path
        The files removed.
    """
    prefix = f".{name}{TEMP_MARK}"
    removed: list[Path] = []
    try:
        entries = os.listdir(directory)
    except OSError:
        return removed
    for entry in entries:
        if not entry.startswith(prefix):
            continue
        pid_text = entry[len(prefix) :].split("-")[0]
        if not pid_text.isdigit() or _running(int(pid_text)):
            continue
        stale = directory / entry
        try:
            stale.unlink()
        except OSError:
            continue
        removed.append(stale)
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


@contextmanager
def _removed_on_sigterm(tmp: Path) -> Iterator[None]:
    """While writing ``tmp``: SIGTERM removes it and exits with status 143."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: Any) -> None:
        tmp.unlink(missing_ok=True)
        raise SystemExit(EXIT_TERMINATED)

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def plain(frame: pd.DataFrame) -> pd.DataFrame:
    """Categoricals as plain values (what CSV and JSON readers expect back)."""
    out = frame.copy()
    for col in out.columns:
        if isinstance(out[col].dtype, pd.CategoricalDtype):
            out[col] = out[col].astype(object).where(out[col].notna(), None)
    return out


def table_bytes(frame: pd.DataFrame, fmt: str, *, metadata: dict[str, str] | None = None) -> bytes:
    """A table as the bytes of a CSV, TSV, JSON, JSON lines or Parquet file.

    JSON and JSON lines are exact: every float reads back as the same float
    (``json_text``), as Parquet's do; Parquet also keeps the column types, an
    ordered categorical (``interpretation``) included, so it reads back in its order.

    Parameters
    ----------
    frame : pandas.DataFrame
    fmt : {"csv", "tsv", "json", "jsonl", "parquet"}
    metadata : dict of str to str, optional
        Parquet only: key-value pairs added to the file's schema metadata (beside
        pandas' own); the columns are written as without them.

    Returns
    -------
    bytes
    """
    writer = TABLE_WRITERS.get(fmt)
    if writer is None:
        raise KappaFrameError(f"not a table format: {fmt!r}.")
    if metadata and fmt != "parquet":
        raise KappaFrameError(f"{fmt} has no place for metadata; only Parquet has.")
    return writer(frame, metadata)


def _parquet(frame: pd.DataFrame, metadata: dict[str, str] | None) -> bytes:
    pa = optional_import("pyarrow", "writing Parquet")
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    # pyarrow, not DataFrame.to_parquet: that would also store the frame's attrs (the
    # notebook display's mark), which say nothing to a reader of the file.
    table = pa.Table.from_pandas(frame, preserve_index=False)
    known = dict(table.schema.metadata or {})
    known.update({k.encode("utf-8"): v.encode("utf-8") for k, v in (metadata or {}).items()})
    pq.write_table(table.replace_schema_metadata(known), buffer)
    return buffer.getvalue()


def _delimited(sep: str) -> Callable[[pd.DataFrame, Any], bytes]:
    def write(frame: pd.DataFrame, _: Any) -> bytes:
        return plain(frame).to_csv(index=False, sep=sep).encode("utf-8")

    return write


def _json(lines: bool) -> Callable[[pd.DataFrame, Any], bytes]:
    def write(frame: pd.DataFrame, _: Any) -> bytes:
        return json_text(plain(frame), lines=lines).encode("utf-8")

    return write


#: The writer of each data-table format (``kappaframe._io.formats.TABLE_FORMATS``):
#: ``writer(frame, metadata) -> bytes``.
TABLE_WRITERS: dict[str, Callable[[pd.DataFrame, Any], bytes]] = {
    "csv": _delimited(","),
    "tsv": _delimited("\t"),
    "json": _json(lines=False),
    "jsonl": _json(lines=True),
    "parquet": _parquet,
}


def json_text(frame: pd.DataFrame, *, lines: bool = False) -> str:
    """A table as JSON records (an array, or one object a line), every float exact.

    Floats are written as Python writes them (the shortest decimal that reads back as
    the same float: ``0.30000000000000004``, not pandas' ``0.3`` at 15 digits); NaN and
    infinities as ``null``. Every other cell is written as ``DataFrame.to_json`` writes
    it (integers, booleans, text, missing values as ``null``).

    Parameters
    ----------
    frame : pandas.DataFrame
        Plain columns (see ``plain``); column names become keys as text.
    lines : bool, default False
        JSON lines (one record a line, each ending with a newline; nothing for no
        rows) instead of one array.

    Returns
    -------
    str
    """
    keys = [str(c) for c in frame.columns]
    if len(set(keys)) < len(keys):
        twice = next(k for k in keys if keys.count(k) > 1)
        raise KappaFrameError(f"a JSON record cannot have two columns named {twice!r}.")
    columns = [_json_values(frame.iloc[:, j]) for j in range(frame.shape[1])]
    records = [dict(zip(keys, [c[i] for c in columns], strict=True)) for i in range(len(frame))]
    compact = (",", ":")
    if lines:
        return "".join(json.dumps(r, separators=compact, allow_nan=False) + "\n" for r in records)
    return json.dumps(records, indent=1, separators=compact, allow_nan=False) + "\n"


def _json_values(column: pd.Series) -> list[Any]:
    """One column's cells as JSON values: floats exact, the rest as pandas writes them."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        column = column.astype(object).where(column.notna(), None)
    if pd.api.types.is_float_dtype(column.dtype):
        values = column.to_numpy(dtype=float, na_value=np.nan).tolist()
        return [v if math.isfinite(v) else None for v in values]
    written = json.loads(column.to_json(orient="records"))
    if column.dtype == object:  # a float among other values keeps every digit too
        for i, value in enumerate(column.tolist()):
            if isinstance(value, (float, np.floating)):
                number = float(value)
                written[i] = number if math.isfinite(number) else None
    return list(written)


def compress(data: bytes, compression: str | None) -> bytes:
    """``data`` compressed with ``compression`` (gzip, bz2, xz, zstd), or as it is."""
    if compression is None:
        return data
    if compression == "gzip":
        import gzip

        return gzip.compress(data, mtime=0)
    if compression == "bz2":
        import bz2

        return bz2.compress(data)
    if compression == "xz":
        import lzma

        return lzma.compress(data)
    try:
        import zstandard
    except ModuleNotFoundError as err:
        raise ModuleNotFoundError(
            "writing .zst needs the zstandard module: pip install zstandard", name="zstandard"
        ) from err
    return bytes(zstandard.ZstdCompressor().compress(data))


def write_output(
    output: str | os.PathLike[str], data: bytes, stdout: IO[Any] | None = None
) -> None:
    """Write ``data`` to ``output`` atomically (compressed as its suffix says), or to stdout.

    Parameters
    ----------
    output : str or os.PathLike
        A file, or ``-`` for standard output (written as it is, never compressed).
    data : bytes
        The whole content.
    stdout : file, optional
        Where ``-`` goes (default ``sys.stdout``; its binary buffer when it has one).

    Raises
    ------
    KappaFrameError
        As ``write_atomic``; a full or closed standard output.
    """
    if os.fspath(output) == STDIO:
        stream = sys.stdout if stdout is None else stdout
        target = getattr(stream, "buffer", None)
        try:
            if target is not None:
                stream.flush()
                target.write(data)
                target.flush()
            else:
                stream.write(data.decode("utf-8", errors="replace"))
                stream.flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            raise KappaFrameError(
                f"cannot write the report to stdout: {err.strerror or err}; free some space, "
                "or write a file with --output."
            ) from None
        return
    packed = compress(data, output_compression(output))

    def write(tmp: Path) -> None:
        tmp.write_bytes(packed)

    write_atomic(output, write)
