"""Files bigger than memory, and polars LazyFrames: counted batch by batch.

Pair counts add up over items (:mod:`kappaframe._api.counts`), so a file in the wide layout
(one row per item) is read in batches of rows, each batch counted by the shared kernel and
added to a running total: peak memory depends on the batch size, not on the file.

- Parquet and CSV files go through ``pyarrow.dataset`` (only the needed columns, in
  batches of ``batch_size`` rows, little read-ahead): pass a path, a glob, a list of paths
  or a ``pyarrow.dataset.Dataset`` wherever a frame goes (``kf.pairwise("big.parquet")``),
  or :func:`scan` to set the format, the batch size or CSV options.
- A polars LazyFrame (``pl.scan_parquet(...)``, ``pl.scan_csv(...)`` or any query) is
  streamed the same way with ``LazyFrame.collect_batches``, selecting the needed columns
  first; results come back as a LazyFrame.

The long layout (one row per rating) needs every rating of an item together, which batches
of rows do not give; it reads only its three or four columns (strings dictionary-encoded,
so about 4 bytes per value) and counts them at once, crowd-style.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Hashable, Sequence
from typing import Any

from .._api.counts import CountingFrame, Counts
from .._errors import KappaFrameError, KappaFrameTypeError

__all__ = ["DEFAULT_BATCH_ROWS", "FileScan", "StreamedLazyFrame", "file_adapter", "scan"]

#: Rows per batch when reading files or streaming a LazyFrame.
DEFAULT_BATCH_ROWS = 1 << 18

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
        self.format = format or _infer_format(self.paths)
        if self.format not in ("parquet", "csv"):
            raise KappaFrameError(f"format must be 'parquet' or 'csv'; got {self.format!r}.")
        self.dataset = self._open()

    def _open(self, dictionary: Sequence[str] = ()) -> Any:
        """Open the pyarrow dataset; ``dictionary`` columns read dictionary-encoded."""
        ds = _arrow_dataset()
        if self.paths is None:
            return self.dataset
        if self.format == "parquet":
            fmt = ds.ParquetFileFormat(read_options={"dictionary_columns": list(dictionary)})
        else:
            parse, convert, read = self._csv(dictionary=bool(dictionary))
            fmt = ds.CsvFileFormat(parse_options=parse, convert_options=convert, read_options=read)
        return ds.dataset(self.paths, format=fmt)

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
                    yield from parquet.iter_batches(
                        batch_size=self.batch_size, columns=columns, use_threads=False
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


def file_adapter(data: Any) -> _FileFrame | None:
    """Adapt a path, a list of paths, a Dataset or a :class:`FileScan`; else None."""
    if isinstance(data, FileScan):
        return _FileFrame(data)
    if isinstance(data, (str, os.PathLike)):
        text = os.fspath(data)
        if not (os.path.exists(text) or glob.glob(text)):
            return None
        return _FileFrame(FileScan(data))
    if (
        isinstance(data, (list, tuple))
        and data
        and all(isinstance(x, (str, os.PathLike)) for x in data)
    ):
        return _FileFrame(FileScan(list(data)))
    ds = _loaded("pyarrow.dataset")
    if ds is not None and isinstance(data, ds.Dataset):
        return _FileFrame(FileScan(data))
    return None


def _loaded(name: str) -> Any:
    import sys

    return sys.modules.get(name)


def _layout(raters: Any, options: dict[str, Any]) -> tuple[bool, list[Hashable]]:
    """Whether the options ask for the long layout, and the columns it reads."""
    from .._api.plan import as_list

    by = as_list(options.get("by"))
    long_cols = [options.get(k) for k in ("item", "rater", "label")]
    return any(c is not None for c in long_cols), by


class _FileFrame(CountingFrame):
    """Adapter: files counted batch by batch (wide) or from their needed columns (long).

    Statistics that need every item's labels get the label codes of all batches,
    stacked (one small integer per rating).
    """

    output = "pandas"

    def __init__(self, scan: FileScan) -> None:
        self.scan = scan

    def columns(self) -> list[Hashable]:
        return list(self.scan.dataset.schema.names)

    def counts(self, raters: Any = None, *, min_raters: int = 2, **options: Any) -> Counts:
        def total(options: dict[str, Any]) -> Counts:
            parts = (
                Counts.from_prepared(prep, output=self.output)
                for prep in self._parts(raters, min_raters, options)
            )
            return _sum(parts)

        def labels(columns: list[str]) -> Any:
            from .pandas import PandasFrame

            for batch in self.scan.batches(columns):
                yield PandasFrame(batch.to_pandas())

        return _with_categories(total, labels, raters, min_raters, options, self.columns())

    def item_parts(self, raters: Any = None, *, min_raters: int = 2, **options: Any) -> list[Any]:
        from .._api.counts import ItemCodes

        return [ItemCodes.of(prep) for prep in self._parts(raters, min_raters, options)]

    def _parts(self, raters: Any, min_raters: int, options: dict[str, Any]) -> Any:
        """Prepare batches of rows (wide layout), or all the needed columns (long)."""
        from .._api.plan import prepare
        from .pandas import PandasFrame

        long, by = _layout(raters, options)
        empty = self.scan.dataset.schema.empty_table().to_pandas()
        if long:
            prepare(PandasFrame(empty), None, min_raters=0, **options)  # checks columns
            needed = [*by, options["item"], options["rater"], options["label"]]
            strings = [
                c for c in needed[len(by) :] if _is_string(self.scan.dataset.schema.field(c).type)
            ]
            table = self.scan._open(strings).to_table(columns=[str(c) for c in needed])
            for name in by:  # group keys come back as plain values, not categoricals
                column = table.column(str(name))
                if pa_types().is_dictionary(column.type):
                    position = table.schema.get_field_index(str(name))
                    table = table.set_column(
                        position, str(name), column.cast(column.type.value_type)
                    )
            frame = PandasFrame(table.to_pandas())
            yield prepare(frame, raters, min_raters=min_raters, **options)
            return

        first = prepare(PandasFrame(empty), raters, min_raters=min_raters, **options)
        needed = [*by, *first.raters]
        some = False
        for batch in self.scan.batches([str(c) for c in needed]):
            frame = PandasFrame(batch.to_pandas())
            yield prepare(frame, first.raters, min_raters=min_raters, **options)
            some = True
        if not some:
            yield first


def _accumulate(total: Counts, part: Counts) -> Counts:
    total += part
    return total


def _sum(parts: Any, empty: Counts | None = None) -> Counts:
    """Add up the counts of the batches (``empty`` when there is none)."""
    total: Counts | None = None
    for part in parts:
        total = part if total is None else _accumulate(total, part)
    if total is None:
        if empty is None:  # pragma: no cover - file parts always yield once
            raise KappaFrameError("nothing was read.")
        return empty
    return total


def _with_categories(
    total: Any,
    labels: Any,
    raters: Any,
    min_raters: int,
    options: dict[str, Any],
    names: list[Hashable],
) -> Counts:
    """Sum the batches' counts, finding the categories first if they must be fixed.

    Counts that keep only diagonals (many categories) add up over the same categories
    only: if the batches differ, one pass over the rater columns finds the categories,
    and the batches are summed again with them fixed.
    """
    from .._api.counts import CategoriesDiffer, distinct_labels, merge_categories
    from .._api.plan import as_list

    try:
        return total(options)
    except CategoriesDiffer:
        if options.get("categories") is not None:
            raise
    by = as_list(options.get("by"), names)
    columns = [str(c) for c in (as_list(raters, names) or [c for c in names if c not in by])]
    found = (distinct_labels(frame, columns, None) for frame in labels(columns))
    return total({**options, "categories": merge_categories(found, columns)})


def pa_types() -> Any:
    import pyarrow as pa

    return pa.types


def _is_string(kind: Any) -> bool:
    import pyarrow as pa

    return bool(
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or getattr(pa.types, "is_string_view", lambda _: False)(kind)
    )


class StreamedLazyFrame:
    """A polars LazyFrame: streamed in batches for pair counts, collected otherwise.

    For the statistics that need pair counts only (``from_counts``), the wide layout runs
    ``lazy.select(needed).collect_batches()`` and adds up each batch's counts; the long
    layout collects its needed columns (ratings of an item must be together). Any other
    caller gets the plain :class:`kappaframe._frames.polars.PolarsFrame` behaviour (it collects
    the needed columns once).
    """

    output = "lazy"
    batch_size = DEFAULT_BATCH_ROWS

    def __init__(self, frame: Any) -> None:
        from .polars import PolarsFrame

        self.source = frame
        self.inner = PolarsFrame(frame)
        self._result: Counts | None = None

    # the plain adapter interface, for callers that need the item-level labels
    def columns(self) -> list[Hashable]:
        return self.inner.columns()

    def load(self, needed: list[Hashable]) -> None:
        self.inner.load(needed)

    @property
    def n_rows(self) -> int:
        return self.inner.n_rows

    def labels(self, name: Hashable) -> Any:
        return self.inner.labels(name)

    def keys(self, name: Hashable) -> Any:
        return self.inner.keys(name)

    def counts(self, raters: Any = None, *, min_raters: int = 2, **options: Any) -> Counts:
        import polars as pl

        from .._api.plan import prepare
        from .polars import PolarsFrame

        long, by = _layout(raters, options)
        if long:
            prep = prepare(PolarsFrame(self.source), raters, min_raters=min_raters, **options)
            return Counts.from_prepared(prep, output=self.output)
        schema = self.source.collect_schema()
        empty = PolarsFrame(pl.DataFrame(schema=schema))
        first = prepare(empty, raters, min_raters=min_raters, **options)

        def total(options: dict[str, Any]) -> Counts:
            query = self.source.select([str(c) for c in [*by, *first.raters]])
            parts = (
                Counts.from_prepared(
                    prepare(PolarsFrame(batch), first.raters, min_raters=min_raters, **options),
                    output=self.output,
                )
                for batch in _batches(query, self.batch_size)
            )
            return _sum(parts, Counts.from_prepared(first, output=self.output))

        def labels(columns: list[str]) -> Any:
            for batch in _batches(self.source.select(columns), self.batch_size):
                yield PolarsFrame(batch)

        return _with_categories(total, labels, raters, min_raters, options, schema.names())

    def prepared(
        self,
        raters: Any = None,
        *,
        min_overlap: int | None = None,
        from_counts: bool = False,
        **options: Any,
    ) -> Any:
        if not from_counts:  # item-level statistics: collect the needed columns once
            from .._api.plan import prepare

            self._result = None
            return prepare(self.inner, raters, min_overlap=min_overlap, **options)
        self._result = self.counts(raters, **options)
        return self._result.prepared(min_overlap)

    def render(self, table: Any) -> Any:
        if self._result is not None:
            from .._api.counts import render

            return render(table, self._result.keys, self._result.output)
        return self.inner.render(table)


def _batches(query: Any, size: int) -> Any:
    """Eager DataFrames of a LazyFrame query, streamed when polars can."""
    collect_batches = getattr(query, "collect_batches", None)
    if collect_batches is None:  # pragma: no cover - polars before collect_batches
        yield query.collect()
        return
    # Counts do not depend on row order, so polars need not keep it.
    yield from collect_batches(chunk_size=size, maintain_order=False)
