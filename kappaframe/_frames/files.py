"""Files bigger than memory: read batch by batch.

Pair counts add up over items, so a file in the wide layout (one row per item) is read in
batches of rows, each batch counted by the shared kernel and added to a running total (the
loop of :mod:`kappaframe._api.plan`): peak memory depends on the batch size, not on the file.
Parquet and CSV files go through ``pyarrow`` (only the needed columns, in batches of
``batch_size`` rows, little read-ahead): pass a path, a glob, a list of paths or a
``pyarrow.dataset.Dataset`` wherever a frame goes (``kf.pairwise("big.parquet")``), or
:func:`scan` to set the format, the batch size or CSV options.

The long layout (one row per rating) needs every rating of an item together, which batches
of rows do not give; it reads only its three or four columns (strings dictionary-encoded,
so about 4 bytes per value) and counts them at once, crowd-style.
"""

from __future__ import annotations

import glob
import os
import sys
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any

from .._errors import KappaFrameError, KappaFrameTypeError
from .pandas import PandasFrame
from .parts import DEFAULT_BATCH_ROWS, BatchReader

__all__ = ["DEFAULT_BATCH_ROWS", "FileReader", "FileScan", "file_reader", "scan"]

#: Bytes per block read from a CSV file.
CSV_BLOCK_BYTES = 8 * 1024**2

_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".tsv": "csv", ".txt": "csv"}


def _arrow_dataset() -> Any:
    try:
        import pyarrow.dataset as ds
    except ModuleNotFoundError:  # pragma: no cover - depends on the environment
        raise ModuleNotFoundError(
            'reading parquet or CSV files needs pyarrow: pip install "kappaframe[parquet]"'
        ) from None
    return ds


class FileScan:
    """Parquet or CSV files to be read in batches: pass it wherever a frame goes.

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
    ) -> None:
        ds = _arrow_dataset()
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise KappaFrameError(
                f"batch_size must be a positive number of rows; got {batch_size!r}."
            )
        self.batch_size = batch_size
        self.csv_options = dict(csv_options or {})
        if isinstance(source, ds.Dataset):
            self.paths: list[str] | None = None
            self.format = format
            self.dataset = source
            return
        self.paths = _expand(source)
        self.schema: Any = None  # the union of the files' columns, once known
        self.format = format or _infer_format(self.paths)
        if self.format not in ("parquet", "csv"):
            raise KappaFrameError(f"format must be 'parquet' or 'csv'; got {self.format!r}.")
        self.dataset = self._open()

    def _open(self, dictionary: Sequence[str] = ()) -> Any:
        """Open the pyarrow dataset; ``dictionary`` columns read dictionary-encoded.

        Its schema is the union of the files' columns (pyarrow's default is the first
        file's, which would drop a rater who appears only in a later file); a column a file
        lacks reads as missing labels there.
        """
        import pyarrow as pa

        ds = _arrow_dataset()
        if self.paths is None:
            return self.dataset
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
        """Build the CSV options: the caller's, with empty strings read as missing (as pandas)."""
        import pyarrow.csv as pacsv

        options = dict(self.csv_options)
        parse = pacsv.ParseOptions(**options.pop("parse", {}))
        convert = dict(options.pop("convert", {}))
        convert.setdefault("strings_can_be_null", True)
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
        streaming reader; a ``Dataset`` given by the caller: its scanner, with the least
        read-ahead it allows.
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
                import pyarrow.csv as pacsv

                parse, convert, read = self._csv(columns=columns)
                with pacsv.open_csv(
                    path, read_options=read, parse_options=parse, convert_options=convert
                ) as reader:
                    for batch in reader:
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
) -> FileScan:
    r"""Parquet or CSV files, read in batches by the functions they are passed to.

    ``kf.pairwise(kf.scan("ratings/*.parquet"), by="project")`` counts the files batch
    by batch (peak memory set by ``batch_size``, not by the files) and returns a pandas
    frame. A plain path does the same with the defaults: ``kf.pairwise("ratings.parquet")``.
    ``pairwise``, ``matrix``, ``score``, ``confusion`` and ``counts`` accept it.

    Parameters
    ----------
    source : path, glob, list of paths, or pyarrow.dataset.Dataset
    format : {"parquet", "csv"}, optional
        Default: from the file suffix (``.parquet``/``.pq``; ``.csv``/``.tsv``/``.txt``).
    batch_size : int, default 262144
        Rows per batch.
    csv_options : dict, optional
        ``{"parse": {...}, "convert": {...}, "read": {...}}``: keyword arguments of
        ``pyarrow.csv.ParseOptions``, ``ConvertOptions`` and ``ReadOptions`` (e.g.
        ``{"parse": {"delimiter": "\t"}}``).

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
    return FileScan(source, format=format, batch_size=batch_size, csv_options=csv_options)


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
        suffix = os.path.splitext(path[:-3] if path.endswith(".gz") else path)[1].lower()
        kind = _FORMATS.get(suffix)
        if kind is None:
            raise KappaFrameError(
                f"cannot tell the format of {path!r} from its suffix; pass "
                "format='parquet' or format='csv' to kappaframe.scan()."
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
        return list(self.scan.dataset.schema.names)

    def empty(self) -> Any:
        return self.scan.dataset.schema.empty_table().to_pandas()

    def wrap(self) -> Callable[[Any], Any]:
        return PandasFrame

    def parts(self, columns: Sequence[Hashable]) -> Iterator[Any]:
        for batch in self.scan.batches([str(c) for c in columns]):
            yield batch.to_pandas()

    def whole(self, columns: Sequence[Hashable], compact: Sequence[Hashable] = ()) -> Any:
        """Every row of ``columns``; the strings of ``compact`` dictionary-encoded.

        A dictionary-encoded string costs about 4 bytes a value; the other columns (group
        keys) come back as plain values, not categoricals.
        """
        import pyarrow as pa

        names = [str(c) for c in columns]
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
    """The columns of every file, in order of first appearance, with one type each.

    Numbers widen (int32 and int64 to int64, integers and floats to float64); in CSV files,
    where every value was text, a column read as numbers in one file and as text in another
    is text. Parquet files that declare one column with clashing types are refused, naming
    the column and both files.
    """
    import pyarrow as pa

    fields: dict[str, Any] = {}
    seen_in: dict[str, str] = {}
    for fragment in dataset.get_fragments():
        for field in fragment.physical_schema:
            if field.name not in fields:
                fields[field.name] = field
                seen_in[field.name] = fragment.path
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
                        f"{field.type} in {fragment.path!r}: labels of one column must have one "
                        "type across files. Cast the column to one type when writing the "
                        "files (e.g. strings), or read them with pandas and cast."
                    ) from None
                merged = known.with_type(pa.string())
            fields[field.name] = merged
    return pa.schema(list(fields.values()))


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
