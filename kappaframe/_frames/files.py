"""Files bigger than memory: read batch by batch.

Pair counts add up over items, so a file in the wide layout (one row per item) is read in
batches of rows, each batch counted by the shared kernel and added to a running total (the
loop of :mod:`kappaframe._api.plan`): peak memory depends on the batch size, not on the file.
Parquet and CSV files go through ``pyarrow`` (only the needed columns, in batches of
``batch_size`` rows, little read-ahead): pass a path, a glob, a list of paths or a
``pyarrow.dataset.Dataset`` wherever a frame goes (``kf.pairwise("big.parquet")``), or
:func:`scan` to set the format, the batch size or CSV options. Compressed CSV (``.gz``,
``.bz2``, ``.xz``, ``.zst``) is decompressed as it is read. JSON lines (``.jsonl``,
``.ndjson``, compressed too) are read in chunks of lines, each parsed as the command line's
whole-file read parses the file (``pandas.read_json(lines=True, dtype=False)``).

The long layout (one row per rating) needs every rating of an item together, which batches
of rows do not give; it reads only its three or four columns (strings dictionary-encoded,
so about 4 bytes per value) and counts them at once, crowd-style.
"""

from __future__ import annotations

import glob
import io
import itertools
import lzma
import os
import sys
import zlib
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any

from .._errors import KappaFrameError, KappaFrameTypeError, refuse_nested
from .pandas import PandasFrame
from .parts import DEFAULT_BATCH_ROWS, BatchReader

__all__ = [
    "DEFAULT_BATCH_ROWS",
    "FileReader",
    "FileScan",
    "JsonLines",
    "csv_blocks",
    "csv_source",
    "file_reader",
    "scan",
]

#: Bytes per block read from a CSV file.
CSV_BLOCK_BYTES = 8 * 1024**2

#: Lines per batch of a JSON lines file, at most: a parsed line costs far more memory than
#: its bytes, so JSON batches stay smaller than ``batch_size`` rows of CSV or Parquet.
JSON_BATCH_LINES = 1 << 16

_FORMATS = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".csv": "csv",
    ".tsv": "csv",
    ".txt": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}

#: Compression suffixes, decompressed while reading (CSV and JSON lines).
_COMPRESSION = {".gz": "gzip", ".bz2": "bz2", ".xz": "xz", ".zst": "zstd"}

#: What decompressors raise for a damaged file.
_DECOMPRESS_ERRORS = (OSError, EOFError, lzma.LZMAError, zlib.error)


def _arrow_dataset() -> Any:
    try:
        import pyarrow.dataset as ds
    except ModuleNotFoundError:  # pragma: no cover - depends on the environment
        raise ModuleNotFoundError(
            'reading parquet or CSV files needs pyarrow: pip install "kappaframe[parquet]"'
        ) from None
    return ds


class FileScan:
    """Parquet, CSV or JSON lines files to be read in batches: pass it wherever a frame goes.

    Made by :func:`scan`; holds the configuration only (nothing is read until a function
    runs on it).
    """

    def __init__(
        self,
        source: Any,
        *,
        format: str | None = None,
        batch_size: int = DEFAULT_BATCH_ROWS,
        csv_options: dict[str, Any] | None = None,
        json_options: dict[str, Any] | None = None,
    ) -> None:
        ds = _arrow_dataset()
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise KappaFrameError(
                f"batch_size must be a positive number of rows; got {batch_size!r}."
            )
        self.batch_size = batch_size
        self.csv_options = dict(csv_options or {})
        self.json_options = dict(json_options or {})
        if isinstance(source, ds.Dataset):
            self.paths: list[str] | None = None
            self.format = format
            self.dataset = source
            return
        self.paths = _expand(source)
        self.schema: Any = None  # the union of the files' columns, once known
        self.format = format or _infer_format(self.paths)
        if self.format not in ("parquet", "csv", "jsonl"):
            raise KappaFrameError(
                f"format must be 'parquet', 'csv' or 'jsonl'; got {self.format!r}."
            )
        if self.format == "jsonl":
            self.dataset = JsonLines(
                self.paths, min(batch_size, JSON_BATCH_LINES), **self.json_options
            )
            return
        self.dataset = self._open()

    def _open(self, dictionary: Sequence[str] = ()) -> Any:
        """Open the pyarrow dataset; ``dictionary`` columns read dictionary-encoded.

        Its schema is the union of the files' columns (pyarrow's default is the first
        file's, which would drop a rater who appears only in a later file); a column a file
        lacks reads as missing labels there. CSV files compressed in a way a pyarrow dataset
        does not read (``.zst``, ``.xz``) are read through a decompressing stream instead.
        """
        import pyarrow as pa

        ds = _arrow_dataset()
        if self.paths is None:
            return self.dataset
        if self.format == "csv" and not all(_arrow_reads(p) for p in self.paths):
            if self.schema is None:
                parse, convert, read = self._csv()
                self.schema = _merge_schemas(
                    ((p, _csv_schema(p, parse, convert, read)) for p in self.paths), "csv"
                )
            return _CsvFiles(self)
        if self.format == "parquet":
            fmt = ds.ParquetFileFormat(read_options={"dictionary_columns": list(dictionary)})
        else:
            parse, convert, read = self._csv(dictionary=bool(dictionary))
            fmt = ds.CsvFileFormat(parse_options=parse, convert_options=convert, read_options=read)
        dataset = ds.dataset(self.paths, format=fmt)
        if len(dataset.files) < 2:
            return dataset
        if self.schema is None:
            self.schema = _union_schema(dataset, str(self.format))
        schema = self.schema
        if dictionary:
            schema = pa.schema(
                [
                    f.with_type(pa.dictionary(pa.int32(), f.type)) if f.name in dictionary else f
                    for f in schema
                ]
            )
        return ds.dataset(self.paths, format=fmt, schema=schema)

    def _csv(self, dictionary: bool = False, columns: Sequence[str] = ()) -> tuple[Any, ...]:
        """Build the CSV options: the caller's, with only empty cells read as missing.

        As the command line reads files: ``NA``, ``N/A``, ``null`` and the other tokens
        pyarrow would take for missing are labels unless ``{"convert": {"null_values":
        [...]}}`` names them.
        """
        import pyarrow.csv as pacsv

        options = dict(self.csv_options)
        parse = pacsv.ParseOptions(**options.pop("parse", {}))
        convert = dict(options.pop("convert", {}))
        convert.setdefault("strings_can_be_null", True)
        convert.setdefault("null_values", [""])
        if dictionary:
            convert.setdefault("auto_dict_encode", True)
        if columns:
            convert["include_columns"] = list(columns)
            schema = self.dataset.schema
            types = {c: schema.field(c).type for c in columns}
            convert["column_types"] = {**types, **convert.get("column_types", {})}
            convert.setdefault("include_missing_columns", True)
        read = dict(options.pop("read", {}))
        if columns:
            read.setdefault("block_size", CSV_BLOCK_BYTES)
        if options:
            raise KappaFrameError(
                f"csv_options takes 'parse', 'convert' and 'read' (pyarrow.csv option "
                f"dicts); got {sorted(options)}."
            )
        return parse, pacsv.ConvertOptions(**convert), pacsv.ReadOptions(**read)

    def batches(self, columns: Sequence[str]) -> Any:
        """Record batches of ``columns``, file by file, holding about one batch at a time.

        Parquet: ``ParquetFile.iter_batches`` without pre-buffering; CSV: pyarrow's
        streaming reader (over a decompressing stream for compressed files); JSON lines:
        pandas frames of at most :data:`JSON_BATCH_LINES` lines; a ``Dataset`` given by the
        caller: its scanner, with the least read-ahead it allows.
        """
        ds = _arrow_dataset()
        columns = list(columns)
        if self.paths is None:
            options: dict[str, Any] = {}
            if isinstance(self.dataset, ds.FileSystemDataset) and isinstance(
                self.dataset.format, ds.ParquetFileFormat
            ):
                options["fragment_scan_options"] = ds.ParquetFragmentScanOptions(pre_buffer=False)
            yield from self.dataset.to_batches(
                columns=columns,
                batch_size=self.batch_size,
                batch_readahead=1,
                fragment_readahead=1,
                **options,
            )
            return
        if isinstance(self.dataset, JsonLines):
            yield from self.dataset.frames(columns)
            return
        for path in self.dataset.files:
            if self.format == "parquet":
                import pyarrow.parquet as pq

                with pq.ParquetFile(path, pre_buffer=False) as parquet:
                    yield from _with_all_columns(
                        parquet.iter_batches(
                            batch_size=self.batch_size,
                            columns=[c for c in columns if c in parquet.schema_arrow.names],
                            use_threads=False,
                        ),
                        self.dataset.schema,
                        columns,
                    )
            else:
                parse, convert, read = self._csv(columns=columns)
                for batch in csv_blocks(path, read, parse, convert):
                    for start in range(0, batch.num_rows, self.batch_size):
                        yield batch.slice(start, self.batch_size)

    def __repr__(self) -> str:
        where = self.paths if self.paths is not None else "a pyarrow dataset"
        return f"<kappaframe.FileScan {self.format or ''} {where}, {self.batch_size} rows a batch>"


def scan(
    source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | Any,
    *,
    format: str | None = None,
    batch_size: int = DEFAULT_BATCH_ROWS,
    csv_options: dict[str, Any] | None = None,
    json_options: dict[str, Any] | None = None,
) -> FileScan:
    r"""Parquet, CSV or JSON lines files, read in batches by the functions they are passed to.

    ``kf.pairwise(kf.scan("ratings/*.parquet"), by="project")`` counts the files batch
    by batch (peak memory set by ``batch_size``, not by the files) and returns a pandas
    frame. A plain path does the same with the defaults: ``kf.pairwise("ratings.parquet")``.
    ``pairwise``, ``matrix``, ``score``, ``confusion`` and ``counts`` accept it.

    Parameters
    ----------
    source : path, glob, list of paths, or pyarrow.dataset.Dataset
    format : {"parquet", "csv", "jsonl"}, optional
        Default: from the file suffix (``.parquet``/``.pq``; ``.csv``/``.tsv``/``.txt``;
        ``.jsonl``/``.ndjson``), after a compression suffix (``.gz``, ``.bz2``, ``.xz``,
        ``.zst``): compressed CSV and JSON lines are decompressed as they are read.
    batch_size : int, default 262144
        Rows per batch (JSON lines: at most 65,536 lines a batch).
    csv_options : dict, optional
        ``{"parse": {...}, "convert": {...}, "read": {...}}``: keyword arguments of
        ``pyarrow.csv.ParseOptions``, ``ConvertOptions`` and ``ReadOptions`` (e.g.
        ``{"parse": {"delimiter": "\t"}}``).
    json_options : dict, optional
        JSON lines: ``{"null_values": [...], "encoding": "utf-8"}``. Each chunk of lines
        is parsed by ``pandas.read_json(lines=True, dtype=False)`` (JSON types kept: a
        number is a number, a string a string); ``null`` and an absent key are missing,
        and so are the strings in ``null_values`` (default ``[""]``: the empty string).

    Returns
    -------
    FileScan

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import kappaframe as kf
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "labels.csv"
    >>> _ = path.write_text("ann1,ann2\na,a\na,b\nb,b\nb,b\n")
    >>> res = kf.pairwise(kf.scan(path, batch_size=2))
    >>> round(float(res["kappa"].iloc[0]), 4)
    0.5
    """
    return FileScan(
        source,
        format=format,
        batch_size=batch_size,
        csv_options=csv_options,
        json_options=json_options,
    )


def _expand(source: Any) -> list[str]:
    items = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    paths: list[str] = []
    for item in items:
        if not isinstance(item, (str, os.PathLike)):
            raise KappaFrameTypeError(f"expected a path; got {type(item).__name__} {item!r}.")
        text = os.fspath(item)
        if any(ch in text for ch in "*?["):
            found = sorted(glob.glob(text))
            if not found:
                raise KappaFrameError(f"no file matches {text!r}.")
            paths.extend(found)
        elif os.path.exists(text):
            paths.append(text)
        else:
            raise KappaFrameError(f"file not found: {text!r}.")
    if not paths:
        raise KappaFrameError("no files given.")
    return paths


def _infer_format(paths: list[str]) -> str:
    kinds = set()
    for path in paths:
        if os.path.isdir(path):
            kinds.add("parquet")
            continue
        stem, suffix = os.path.splitext(path)
        if suffix.lower() in _COMPRESSION:
            suffix = os.path.splitext(stem)[1]
        kind = _FORMATS.get(suffix.lower())
        if kind is None:
            raise KappaFrameError(
                f"cannot tell the format of {path!r} from its suffix; pass "
                "format='parquet' or format='csv' or format='jsonl' to kappaframe.scan()."
            )
        kinds.add(kind)
    if len(kinds) > 1:
        raise KappaFrameError(f"the files mix formats {sorted(kinds)}; scan them separately.")
    return kinds.pop()


def file_reader(data: Any) -> FileReader | None:
    """Read a path, a list of paths, a Dataset or a :class:`FileScan`; else None."""
    if isinstance(data, FileScan):
        return FileReader(data)
    if isinstance(data, (str, os.PathLike)):
        text = os.fspath(data)
        if not (os.path.exists(text) or glob.glob(text)):
            return None
        return FileReader(FileScan(data))
    if (
        isinstance(data, (list, tuple))
        and data
        and all(isinstance(x, (str, os.PathLike)) for x in data)
    ):
        return FileReader(FileScan(list(data)))
    ds = sys.modules.get("pyarrow.dataset")
    if ds is not None and isinstance(data, ds.Dataset):
        return FileReader(FileScan(data))
    return None


class FileReader(BatchReader):
    """Files as pandas parts: batches of rows, or the needed columns whole (long layout)."""

    output = "pandas"

    def __init__(self, scan: FileScan) -> None:
        self.scan = scan

    def columns(self) -> list[Hashable]:
        if isinstance(self.scan.dataset, JsonLines):
            return list(self.scan.dataset.names)
        return list(self.scan.dataset.schema.names)

    def empty(self) -> Any:
        if isinstance(self.scan.dataset, JsonLines):
            return self.scan.dataset.empty()
        return self.scan.dataset.schema.empty_table().to_pandas()

    def wrap(self) -> Callable[[Any], Any]:
        return PandasFrame

    def parts(self, columns: Sequence[Hashable]) -> Iterator[Any]:
        for batch in self.scan.batches([str(c) for c in columns]):
            yield batch.to_pandas() if hasattr(batch, "to_pandas") else batch

    def whole(self, columns: Sequence[Hashable], compact: Sequence[Hashable] = ()) -> Any:
        """Every row of ``columns``; the strings of ``compact`` dictionary-encoded.

        A dictionary-encoded string costs about 4 bytes a value; the other columns (group
        keys) come back as plain values, not categoricals.
        """
        import pyarrow as pa

        names = [str(c) for c in columns]
        if isinstance(self.scan.dataset, JsonLines):
            return self.scan.dataset.to_table(names)
        schema = self.scan.dataset.schema
        strings = [str(c) for c in compact if _is_string(schema.field(str(c)).type)]
        table = self.scan._open(strings).to_table(columns=names)
        for name in names:
            column = table.column(name)
            if name not in strings and pa.types.is_dictionary(column.type):
                position = table.schema.get_field_index(name)
                table = table.set_column(position, name, column.cast(column.type.value_type))
        return table.to_pandas()


def _union_schema(dataset: Any, fmt: str) -> Any:
    """The columns of every file of a pyarrow dataset: see :func:`_merge_schemas`."""
    return _merge_schemas(
        ((fragment.path, fragment.physical_schema) for fragment in dataset.get_fragments()), fmt
    )


def _merge_schemas(schemas: Iterable[tuple[str, Any]], fmt: str) -> Any:
    """The columns of every file, in order of first appearance, with one type each.

    Numbers widen (int32 and int64 to int64, integers and floats to float64); in CSV files,
    where every value was text, a column read as numbers in one file and as text in another
    is text. Parquet files that declare one column with clashing types are refused, naming
    the column and both files.
    """
    import pyarrow as pa

    fields: dict[str, Any] = {}
    seen_in: dict[str, str] = {}
    for path, schema in schemas:
        for field in schema:
            if field.name not in fields:
                fields[field.name] = field
                seen_in[field.name] = path
                continue
            known = fields[field.name]
            if known.type == field.type:
                continue
            try:
                merged = pa.unify_schemas(
                    [pa.schema([known]), pa.schema([field])], promote_options="permissive"
                ).field(0)
            except (pa.ArrowTypeError, pa.ArrowInvalid):
                if fmt != "csv":
                    raise KappaFrameError(
                        f"column {field.name!r} is {known.type} in {seen_in[field.name]!r} but "
                        f"{field.type} in {path!r}: labels of one column must have one "
                        "type across files. Cast the column to one type when writing the "
                        "files (e.g. strings), or read them with pandas and cast."
                    ) from None
                merged = known.with_type(pa.string())
            fields[field.name] = merged
    return pa.schema(list(fields.values()))


def _compression(path: str) -> str | None:
    """The compression a file's last suffix names (``.gz``: gzip), or None."""
    return _COMPRESSION.get(os.path.splitext(path)[1].lower())


def _arrow_reads(path: str) -> bool:
    """Whether a pyarrow dataset decompresses ``path`` itself (plain, gzip, bz2)."""
    return _compression(path) in (None, "gzip", "bz2")


def csv_source(path: str) -> Any:
    """What ``pyarrow.csv.open_csv`` reads ``path`` from, decompressed as it is read.

    The path itself where pyarrow tells the compression by the suffix (plain, ``.gz``,
    ``.bz2``), else a decompressing stream (``.zst`` through pyarrow's codec, ``.xz``
    through Python's); either way a block at a time.
    """
    import pyarrow as pa

    if _arrow_reads(path):
        return path
    if _compression(path) == "zstd" and pa.Codec.is_available("zstd"):
        return pa.input_stream(path, compression="zstd")
    return _python_stream(path)


def _python_stream(path: str) -> Any:
    compression = _compression(path)
    if compression == "xz":
        return lzma.open(path, "rb")
    if compression == "gzip":
        import gzip

        return gzip.open(path, "rb")
    if compression == "bz2":
        import bz2

        return bz2.open(path, "rb")
    if compression == "zstd":
        try:
            import zstandard
        except ModuleNotFoundError:  # pragma: no cover - pyarrow reads zstd in common builds
            raise ModuleNotFoundError(
                f"reading {os.path.basename(path)} (zstd) needs the zstandard module: "
                "pip install zstandard",
                name="zstandard",
            ) from None
        return zstandard.ZstdDecompressor().stream_reader(open(path, "rb"), closefd=True)
    return open(path, "rb")


def _binary_lines(path: str) -> Any:
    """``path`` as a buffered binary stream (iterated line by line), decompressed."""
    import pyarrow as pa

    compression = _compression(path)
    if compression is not None and compression != "xz" and pa.Codec.is_available(compression):
        return io.BufferedReader(pa.input_stream(path, compression=compression))
    return _python_stream(path)


#: Encodings whose line ends are the byte ``\n`` and nothing else (cut safely in bytes).
_BYTE_LINES = ("utf8", "utf8sig", "ascii", "latin1", "iso88591", "cp1252", "windows1252")


def csv_blocks(path: str, read: Any, parse: Any, convert: Any) -> Iterator[Any]:
    """Record batches of one CSV file, parsed a block of whole lines at a time.

    pyarrow's streaming reader keeps memory for the blocks it has read until the file
    ends, so its peak grows with the file. Here the (decompressed) bytes are cut at line
    ends, about ``read.block_size`` at a time, and each block is parsed on its own by
    ``pyarrow.csv.read_csv``: the first with the caller's options, every later one with the
    header line put back in front and the first block's column types, as the streaming
    reader would type it. Memory holds one block whatever the size of the file. Values
    with line breaks inside quotes (``newlines_in_values=True``) and multi-byte encodings
    other than UTF-8 keep the streaming reader.
    """
    import pyarrow as pa
    import pyarrow.csv as pacsv

    encoding = "".join(ch for ch in str(read.encoding).lower() if ch.isalnum())
    if parse.newlines_in_values or encoding not in _BYTE_LINES:
        with pacsv.open_csv(
            csv_source(path), read_options=read, parse_options=parse, convert_options=convert
        ) as reader:
            yield from reader
        return
    header = not read.column_names and not read.autogenerate_column_names
    later: tuple[Any, Any] | None = None  # read and convert options of the later blocks
    head = b""  # the header line, put back in front of every later block
    carry = b""

    def parsed(text: bytes, options: tuple[Any, Any]) -> Any:
        try:
            return pacsv.read_csv(
                pa.py_buffer(text),
                read_options=options[0],
                parse_options=parse,
                convert_options=options[1],
            )
        except pa.ArrowInvalid as err:
            raise _csv_error(path, err, head, read, parse) from None

    with _binary_lines(path) as stream:
        while True:
            data = stream.read(read.block_size)
            block = carry + data
            if data:
                cut = block.rfind(b"\n") + 1
                if cut == 0:  # a line longer than a block: read on
                    carry = block
                    continue
                block, carry = block[:cut], block[cut:]
            if block.strip():
                if later is None:
                    lines = block.split(b"\n", read.skip_rows + 1)
                    if header and len(lines) > read.skip_rows:
                        head = lines[read.skip_rows] + b"\n"
                        if read.skip_rows == 0 and head.startswith(b"\xef\xbb\xbf"):
                            head = head[3:]  # the byte order mark starts the file only
                    table = parsed(block, (read, convert))
                    later = _later_block_options(read, convert, table.schema)
                else:
                    table = parsed(head + block, later)
                yield from table.to_batches()
            if not data:
                return


def _csv_error(path: str, err: Exception, head: bytes, read: Any, parse: Any) -> Exception:
    """A CSV block pyarrow cannot parse: name the file, and the column of a type clash.

    A column takes its type from the file's first block; a later value of another type
    (``2.5`` in a column of integers) needs the type given.
    """
    import re

    import pyarrow as pa
    import pyarrow.csv as pacsv

    if "conversion error" not in str(err):
        return KappaFrameError(f"could not read {path!r}: {err}")
    names = list(read.column_names)
    if head:
        names = pacsv.read_csv(pa.py_buffer(head), parse_options=parse).column_names
    found = re.search(r"CSV column #(\d+)", str(err))
    index = int(found.group(1)) if found else len(names)
    which = repr(names[index]) if index < len(names) else "'<column>'"
    return KappaFrameError(
        f"could not read {path!r}: {err}. A CSV column takes its type from the file's first "
        f"block ({read.block_size:,} bytes), and column {which} has a later value of "
        "another type. Give the column's type: kf.scan(path, csv_options={'convert': "
        f"{{'column_types': {{{which}: 'float64'}}}}}}) for numbers, or 'string' to "
        "compare the labels as written."
    )


def _later_block_options(read: Any, convert: Any, schema: Any) -> tuple[Any, Any]:
    """Options for a block after the first: no rows to skip, the first block's types."""
    import copy

    later_read = copy.copy(read)
    later_read.skip_rows = 0
    later_read.skip_rows_after_names = 0
    later_convert = copy.copy(convert)
    later_convert.column_types = {field.name: field.type for field in schema}
    return later_read, later_convert


def _csv_schema(path: str, parse: Any, convert: Any, read: Any) -> Any:
    """The columns and types pyarrow infers from a CSV file's first block."""
    import pyarrow.csv as pacsv

    with pacsv.open_csv(
        csv_source(path), read_options=read, parse_options=parse, convert_options=convert
    ) as reader:
        return reader.schema


class _CsvFiles:
    """CSV files pyarrow cannot open itself (``.xz``), in the place of a pyarrow dataset.

    It has what :class:`FileScan` and :class:`FileReader` ask of a dataset: ``files``, the
    union ``schema`` and ``to_table``; its batches come from :meth:`FileScan.batches`.
    """

    def __init__(self, scan: FileScan) -> None:
        self.scan = scan
        self.files = list(scan.paths or [])
        self.schema = scan.schema

    def to_table(self, columns: Sequence[str]) -> Any:
        import pyarrow as pa

        schema = pa.schema([self.schema.field(c) for c in columns])
        return pa.Table.from_batches(list(self.scan.batches(columns)), schema=schema)


class JsonLines:
    """JSON lines files read in chunks of lines, each chunk parsed as the whole file would be.

    The parser is the one of the command line's whole-file read (``pandas.read_json`` with
    ``lines=True, dtype=False``), so a chunk gives the rows the whole read gives. The
    columns are the keys of every line of every file, in order of first appearance (found
    in a first pass, a chunk at a time); a key a line lacks is missing there. Strings in
    ``null_values`` (default: the empty string) are missing too.

    Parameters
    ----------
    paths : list of str
        The files (``.gz``, ``.bz2``, ``.xz``, ``.zst`` decompressed as they are read).
    lines : int
        Lines per chunk, at most.
    null_values : sequence of str, default ("",)
    encoding : str, default "utf-8"
    """

    def __init__(
        self,
        paths: list[str],
        lines: int = JSON_BATCH_LINES,
        *,
        null_values: Sequence[str] = ("",),
        encoding: str = "utf-8",
    ) -> None:
        self.files = list(paths)
        self.lines = lines
        self.null_values = list(null_values)
        self.encoding = encoding
        self._names: list[str] | None = None
        self._empty: Any = None

    def chunks(self, path: str) -> Iterator[tuple[int, bytes]]:
        """The line number (from 0) and the bytes of each chunk of ``lines`` lines."""
        try:
            with _binary_lines(path) as stream:
                start = 0
                while True:
                    lines = list(itertools.islice(stream, self.lines))
                    if not lines:
                        return
                    yield start, b"".join(lines)
                    start += len(lines)
        except _DECOMPRESS_ERRORS as err:
            raise self._unreadable(path, err) from None
        except Exception as err:
            import pyarrow as pa

            if isinstance(err, pa.ArrowException):
                raise self._unreadable(path, err) from None
            raise

    def _unreadable(self, path: str, err: BaseException) -> KappaFrameError:
        if _compression(path) is not None:
            return KappaFrameError(
                f"could not decompress {path!r} ({_compression(path)}): {err}; the file is "
                "truncated or damaged: copy it again, or name the uncompressed file."
            )
        return KappaFrameError(f"could not read {path!r} as jsonl: {err}")

    def parse(self, path: str, start: int, data: bytes) -> Any:
        """One chunk as a pandas frame: JSON types kept, ``null_values`` strings missing."""
        import pandas as pd

        if not data.strip():
            return pd.DataFrame()
        try:
            frame = pd.read_json(io.BytesIO(data), lines=True, dtype=False, encoding=self.encoding)
        except ValueError as err:  # UnicodeDecodeError is one
            lines = data.count(b"\n") + (not data.endswith(b"\n"))
            raise KappaFrameError(
                f"could not read {path!r} as jsonl: {err} (in lines {start + 1} to {start + lines})"
            ) from None
        frame.index = pd.RangeIndex(start, start + len(frame))
        for c in frame.columns:
            column = frame[c]
            if column.dtype == object or pd.api.types.is_string_dtype(column.dtype):
                hit = column.isin(self.null_values)
                if hit.any():
                    frame[c] = column.where(~hit, None)
        return frame

    def _keys(self, path: str, start: int, data: bytes) -> list[str]:
        """The keys of a chunk: pyarrow's fast parser, else (mixed types) pandas'."""
        import pyarrow as pa
        import pyarrow.json as pajson

        try:
            table = pajson.read_json(io.BytesIO(data))
        except (pa.ArrowException, ValueError):
            return [str(c) for c in self.parse(path, start, data).columns]
        return [str(c) for c in table.schema.names]

    @property
    def names(self) -> list[str]:
        """The keys of every line, in order of first appearance (one pass, once)."""
        if self._names is None:
            names: dict[str, None] = {}
            for path in self.files:
                for start, data in self.chunks(path):
                    if self._empty is None and data.strip():
                        first = self.parse(path, start, data)
                        self._empty = first.iloc[:0]
                        names.update(dict.fromkeys(str(c) for c in first.columns))
                    else:
                        names.update(dict.fromkeys(self._keys(path, start, data)))
            self._names = list(names)
        return self._names

    def empty(self) -> Any:
        """No rows, every column: the types of the first chunk (object for the others)."""
        import pandas as pd

        names = self.names
        first = self._empty if self._empty is not None else pd.DataFrame()
        return pd.DataFrame(
            {c: first[c] if c in first else pd.Series([], dtype=object) for c in names}
        )

    def frames(self, columns: Sequence[str]) -> Iterator[Any]:
        """Pandas frames of ``columns``, a chunk of lines each (absent keys missing)."""
        import pandas as pd

        for path in self.files:
            for start, data in self.chunks(path):
                frame = self.parse(path, start, data)
                refuse_nested(frame, os.path.basename(path))
                if not len(frame):
                    continue
                yield pd.DataFrame(
                    {
                        c: frame[c]
                        if c in frame
                        else pd.Series(None, index=frame.index, dtype=object)
                        for c in columns
                    }
                )

    def to_table(self, columns: Sequence[str]) -> Any:
        """Every row of ``columns`` (the long layout), as one pandas frame."""
        import pandas as pd

        frames = list(self.frames(columns))
        if not frames:
            return self.empty()[list(columns)]
        return pd.concat(frames, ignore_index=True)


def _with_all_columns(batches: Iterator[Any], schema: Any, columns: Sequence[str]) -> Iterator[Any]:
    """Each batch with every one of ``columns`` (missing ones as nulls), cast to ``schema``."""
    import pyarrow as pa

    for batch in batches:
        arrays = [
            batch.column(name).cast(schema.field(name).type)
            if name in batch.schema.names
            else pa.nulls(batch.num_rows, schema.field(name).type)
            for name in columns
        ]
        yield pa.RecordBatch.from_arrays(arrays, names=list(columns))


def _is_string(kind: Any) -> bool:
    import pyarrow as pa

    return bool(
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or getattr(pa.types, "is_string_view", lambda _: False)(kind)
    )
