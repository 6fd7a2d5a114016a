"""Files bigger than memory: read batch by batch.

Pair counts add up over items, so a file in the wide layout (one row per item) is read in
batches of rows, each batch counted by the shared kernel and added to a running total (the
loop of ``kappaframe._api.plan``): peak memory depends on the batch size, not on the file.
Parquet and CSV files go through ``pyarrow`` (only the needed columns, in batches of
``batch_size`` rows, little read-ahead): pass a path, a glob, a folder, a list of paths or
a ``pyarrow.dataset.Dataset`` wherever a frame goes (``kf.pairwise("big.parquet")``), or
``scan`` to set the format, the batch size or CSV options. A folder or a glob names the
files the command line reads for it (``kappaframe._io.read.expand_input``). CSV files
are cut into blocks of whole rows, each parsed on its own, decompressed as they are read
(``.gz``, ``.bz2``, ``.xz``, ``.zst``); their cells are read as the command line reads
them: as written, decimal commas made points where the whole column is numbers
(``kappaframe._io.read.comma_column``), numbers only by
``kappaframe._io.read.number_kind`` over every value (see ``FileReader``). JSON
lines (``.jsonl``, ``.ndjson``, compressed too) are read in chunks of lines, each parsed as
the command line's whole-file read parses the file (``pandas.read_json(lines=True,
dtype=False)``). A file the decompressor or the parser rejects is a
``KappaFrameError`` naming the file and the way out.

The long layout (one row per rating) needs every rating of an item together, which batches
of rows do not give; it reads only its three or four columns (strings dictionary-encoded,
so about 4 bytes per value) and counts them at once, crowd-style.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import io
import itertools
import lzma
import os
from collections.abc import Generator, Iterable, Iterator, Sequence
from typing import Any

from .._errors import KappaFrameError, KappaFrameTypeError, optional_import, refuse_nested
from .formats import SCAN_FORMATS, compression_of, suffix_format
from .read import (
    check_unique_names,
    comma_column,
    decimal_point,
    expand_input,
    header_names,
    is_read_error,
    number_kind,
    plain_number,
    sniff_decimal,
    sniff_delimiter,
    unreadable_file,
)

__all__ = [
    "CSV_BLOCK_BYTES",
    "DEFAULT_BATCH_ROWS",
    "JSON_BATCH_LINES",
    "FileScan",
    "JsonLines",
    "csv_blocks",
    "csv_kinds",
    "csv_source",
    "csv_tables",
    "scan",
]

#: Rows per batch when reading files or streaming a LazyFrame.
DEFAULT_BATCH_ROWS = 1 << 18

#: Bytes per block read from a CSV file.
CSV_BLOCK_BYTES = 8 * 1024**2


#: Lines per batch of a JSON lines file, at most: a parsed line costs far more memory than
#: its bytes, so JSON batches stay smaller than ``batch_size`` rows of CSV or Parquet.
JSON_BATCH_LINES = 1 << 16


@contextlib.contextmanager
def _reading(path: str, kind: str) -> Iterator[None]:
    """Turn what a decompressor or a parser raises for ``path`` into a clear error."""
    try:
        yield
    except Exception as err:
        if not is_read_error(err):
            raise
        raise unreadable_file(path, kind, err, compression_of(path)) from None


def _arrow_dataset() -> Any:
    return optional_import("pyarrow.dataset", "reading Parquet, CSV or JSON lines files in batches")


class FileScan:
    """Parquet, CSV or JSON lines files to be read in batches: pass it wherever a frame goes.

    Made by ``scan``; holds the configuration only (nothing is read until a function
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
        if self.format == "csv":
            self._csv()  # the caller's options, checked before any file is opened
            self.dataset = _CsvFiles(self)
            return
        self.dataset = self._open()

    def _open(self, dictionary: Sequence[str] = ()) -> Any:
        """Open the Parquet files as a pyarrow dataset; ``dictionary`` columns dictionary-encoded.

        Its schema is the union of the files' columns (pyarrow's default is the first
        file's, which would drop a rater who appears only in a later file); a column a file
        lacks reads as missing labels there. (CSV files are read by ``_CsvFiles``.)
        """
        import pyarrow as pa

        ds = _arrow_dataset()
        if self.paths is None or self.format != "parquet":
            return self.dataset
        fmt = ds.ParquetFileFormat(read_options={"dictionary_columns": list(dictionary)})
        try:
            dataset = ds.dataset(self.paths, format=fmt)
            if len(dataset.files) < 2:
                return dataset
            if self.schema is None:
                self.schema = _union_schema(dataset, str(self.format))
        except Exception as err:
            if not is_read_error(err):
                raise
            raise unreadable_file(_first_unreadable(self.paths), "parquet", err) from None
        schema = self.schema
        if dictionary:
            schema = pa.schema(
                [
                    f.with_type(pa.dictionary(pa.int32(), f.type)) if f.name in dictionary else f
                    for f in schema
                ]
            )
        return ds.dataset(self.paths, format=fmt, schema=schema)

    def _csv(self) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        """The CSV options as keyword dicts: the caller's, with only empty cells missing.

        As the command line reads files: ``NA``, ``N/A``, ``null`` and the other tokens
        pyarrow would take for missing are labels unless ``{"convert": {"null_values":
        [...]}}`` names them. Blocks are ``CSV_BLOCK_BYTES`` unless ``read`` says.
        """
        import pyarrow.csv as pacsv

        options = dict(self.csv_options)
        parse = dict(options.pop("parse", {}))
        convert = dict(options.pop("convert", {}))
        convert.setdefault("strings_can_be_null", True)
        convert.setdefault("null_values", [""])
        read = dict(options.pop("read", {}))
        read.setdefault("block_size", CSV_BLOCK_BYTES)
        if options:
            raise KappaFrameError(
                f"csv_options takes 'parse', 'convert' and 'read' (pyarrow.csv option "
                f"dicts); got {sorted(options)}."
            )
        kinds = {"parse": pacsv.ParseOptions, "convert": pacsv.ConvertOptions}
        kinds["read"] = pacsv.ReadOptions
        for name, given in (("parse", parse), ("convert", convert), ("read", read)):
            blank = kinds[name]()
            known = [
                k for k in dir(blank) if not k.startswith("_") and not callable(getattr(blank, k))
            ]
            for key in given:
                if key not in known:
                    close = difflib.get_close_matches(key, known, n=1)
                    hint = f" (did you mean {close[0]!r}?)" if close else ""
                    raise KappaFrameError(
                        f"csv_options[{name!r}] has no option {key!r}{hint}; pyarrow.csv."
                        f"{kinds[name].__name__} takes {', '.join(map(repr, known))}.",
                        option="csv_options",
                    )
        try:  # the caller's values, checked once here
            pacsv.ParseOptions(**parse), pacsv.ConvertOptions(**convert)
            pacsv.ReadOptions(**read)
        except (TypeError, ValueError) as err:
            raise KappaFrameError(f"csv_options: {err}", option="csv_options") from None
        return parse, convert, read

    def batches(self, columns: Sequence[str]) -> Any:
        """Record batches of ``columns``, file by file, holding about one batch at a time.

        Parquet: ``ParquetFile.iter_batches`` without pre-buffering; CSV: the block
        reader (``csv_blocks``), each cell as written (text) unless ``csv_options``
        gives its column a type; JSON lines: pandas frames of at most
        ``JSON_BATCH_LINES`` lines; a ``Dataset`` given by the caller: its scanner,
        with the least read-ahead it allows.
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
        if isinstance(self.dataset, _CsvFiles):
            for path in self.dataset.files:
                for batch in self.dataset.blocks(path, columns):
                    for start in range(0, batch.num_rows, self.batch_size):
                        yield batch.slice(start, self.batch_size)
            return
        import pyarrow.parquet as pq

        for path in self.dataset.files:
            with _reading(path, "parquet"), pq.ParquetFile(path, pre_buffer=False) as parquet:
                yield from _with_all_columns(
                    parquet.iter_batches(
                        batch_size=self.batch_size,
                        columns=[c for c in columns if c in parquet.schema_arrow.names],
                        use_threads=False,
                    ),
                    self.dataset.schema,
                    columns,
                )

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
    source : path, glob, folder, list of them, or pyarrow.dataset.Dataset
        A folder stands for the data files in it and in its subfolders (known suffixes,
        compressed too; hidden files left out), as on the command line.
    format : {"parquet", "csv", "jsonl"}, optional
        Default: from the file suffix (``.parquet``/``.pq``; ``.csv``/``.tsv``/``.tab``/
        ``.txt``; ``.jsonl``/``.ndjson``), after a compression suffix (``.gz``,
        ``.bz2``, ``.xz``, ``.zst``): compressed CSV and JSON lines are decompressed as
        they are read.
    batch_size : int, default 262144
        Rows per batch (JSON lines: at most 65,536 lines a batch).
    csv_options : dict, optional
        ``{"parse": {...}, "convert": {...}, "read": {...}}``: keyword arguments of
        ``pyarrow.csv.ParseOptions``, ``ConvertOptions`` and ``ReadOptions`` (e.g.
        ``{"parse": {"delimiter": "\t"}}``). As on the command line, the separator is
        sniffed unless given, only an empty cell is missing unless ``null_values`` says
        otherwise, and labels are compared as written (``01``, ``1`` and ``1.0`` are
        three labels, ``true`` and ``TRUE`` two): the rater columns become numbers
        together only when every label is a plain number and no two name the same
        number, so that weights order ``1 < 2 < 10``; group keys decide each on their
        own. The decimal mark is sniffed file by file as the command line sniffs it
        (``,`` only when the separator is not ``,``), unless ``{"convert":
        {"decimal_point": ","}}`` gives it (``--decimal``); with ``,``, a column whose
        every value in the file is an integer or a decimal-comma number (``0,75``) is
        read with points (``0.75``) before that decision, and any other column (``a,b``)
        stays as written. ``{"convert": {"column_types": {...}}}`` gives columns a type
        instead.
    json_options : dict, optional
        JSON lines: ``{"null_values": [...], "encoding": "utf-8"}``. Each chunk of lines
        is parsed by ``pandas.read_json(lines=True, dtype=False)`` (JSON types kept: a
        number is a number, a string a string); ``null`` and an absent key are missing,
        and so are the strings in ``null_values`` (default ``[""]``: the empty string).

    Returns
    -------
    FileScan

    Raises
    ------
    KappaFrameError
        A path that does not exist, a glob that matches nothing, a folder without data
        files, files of mixed formats, and a file the decompressor or the parser rejects
        (now, or while a function reads it): the message names the file and the way out.

    See Also
    --------
    counts : counts of the files that can be stored and added to later ones.

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
    """The files a path, a glob, a folder or a list of them names, as the command line reads.

    A folder stands for the data files in it and its subfolders (known suffixes, compressed
    too, not hidden); a glob for the files it matches (``**`` included).
    """
    items = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    paths: list[str] = []
    for item in items:
        if not isinstance(item, (str, os.PathLike)):
            raise KappaFrameTypeError(f"expected a path; got {type(item).__name__} {item!r}.")
        for path in expand_input(item):
            if not os.path.isfile(path):
                raise KappaFrameError(f"file not found: {path!r}.")
            paths.append(path)
    if not paths:
        raise KappaFrameError("no files given.")
    return paths


def _infer_format(paths: list[str]) -> str:
    kinds = set()
    for path in paths:
        named = suffix_format(path)
        kind = SCAN_FORMATS.get(named) if named is not None else None
        if named == "json":
            raise KappaFrameError(
                f"{path!r} is a JSON array, which is read whole, not in batches: read it "
                "with pandas.read_json(path) and pass the frame, or write JSON lines (.jsonl)."
            )
        if kind is None:
            raise KappaFrameError(
                f"cannot tell the format of {path!r} from its suffix; pass "
                "format='parquet' or format='csv' or format='jsonl' to kappaframe.scan()."
            )
        kinds.add(kind)
    if len(kinds) > 1:
        raise KappaFrameError(f"the files mix formats {sorted(kinds)}; scan them separately.")
    return kinds.pop()


class _CommasChanged(Exception):
    """A value showing that a column rewritten with decimal points is text: read again."""


class _KindsChanged(Exception):
    """A value that changes the kind guessed for some CSV columns: read them again."""

    def __init__(self, sets: tuple[tuple[str, ...], ...], commas: bool = False) -> None:
        super().__init__(sets)
        self.sets = sets
        #: Whether a column rewritten with decimal points turned out to be text.
        self.commas = commas


def _numeric(kind: Any) -> bool:
    """Whether a type pyarrow infers may hold plain numbers only (else: a word is there)."""
    import pyarrow as pa

    return bool(pa.types.is_null(kind) or pa.types.is_integer(kind) or pa.types.is_floating(kind))


def _guessed_kinds(
    schema: Any, sets: tuple[tuple[str, ...], ...]
) -> tuple[dict[str, str | None], _KindCheck | None]:
    """The kinds the files' first blocks show for ``sets``, and the check of the rest.

    A set with a column pyarrow reads as text there (a word, a date, ``true``) is text;
    else it is numbers with decimals if a column reads so, whole numbers if one does, and
    text while no value is seen. The check confirms the guess on every batch.
    """
    import pyarrow as pa

    kinds: dict[str, str | None] = {}
    checked = []
    for group in sets:
        types = [schema.field(c).type for c in group]
        guess = None
        if group and all(_numeric(t) for t in types):
            checked.append(group)
            if any(pa.types.is_floating(t) for t in types):
                guess = "float"
            elif any(pa.types.is_integer(t) for t in types):
                guess = "int"
        kinds.update(dict.fromkeys(group, guess))
    return kinds, (_KindCheck(sets, checked, kinds) if checked else None)


class _KindCheck:
    """Confirms, batch by batch, the kinds guessed for sets of CSV columns read as text.

    A set's kind is ``kappaframe._io.read.number_kind`` of its distinct values; it
    can only move away from a guess (whole numbers to decimals, numbers to text), so the
    first batch that moves it raises ``_KindsChanged``. A batch's new values are
    judged at once (a ``2.5`` or a word among whole numbers could not be read as guessed);
    all the distinct values again each time they double, and at the end (``1`` in one
    batch and ``1.0`` in another name one number twice).
    """

    def __init__(
        self,
        key: tuple[tuple[str, ...], ...],
        sets: list[tuple[str, ...]],
        kinds: dict[str, str | None],
    ) -> None:
        self.key = key
        self.sets = list(sets)
        self.kinds = kinds
        self.seen: dict[str, set[str]] = {c: set() for group in sets for c in group}
        self.judged = dict.fromkeys(self.sets, 0)  # distinct values when last judged

    def add(self, batch: Any) -> None:
        import pyarrow.compute as pc

        for group in list(self.sets):
            guess = self.kinds[group[0]]
            new = {c: set(pc.unique(batch.column(c)).drop_null().to_pylist()) for c in group}
            fresh = set().union(*(new[c] - self.seen[c] for c in group))
            if not fresh:
                continue
            kind = number_kind(fresh)
            if kind is None and guess is None:
                self.sets.remove(group)  # text as guessed, whatever comes
                continue
            if kind is None or (kind == "float" and guess == "int"):
                raise _KindsChanged(self.key)
            for c in group:
                self.seen[c] |= new[c]
            size = sum(len(self.seen[c]) for c in group)
            if size >= 2 * self.judged[group]:
                self._judge(group, size)

    def done(self) -> None:
        for group in self.sets:
            self._judge(group, 0)

    def _judge(self, group: tuple[str, ...], size: int) -> None:
        self.judged[group] = size
        if number_kind(set().union(*(self.seen[c] for c in group))) != self.kinds[group[0]]:
            raise _KindsChanged(self.key)


def csv_kinds(scan: FileScan, sets: Sequence[Sequence[str]]) -> dict[str, str | None]:
    """The kind of each column of ``sets`` in CSV files read as written: int, float or text.

    As the command line decides it (``kappaframe._io.read.number_kind``): each set of
    columns decides together (the rater columns, whose labels share one category index),
    over every value of every file. A set with a column read as text in a file's first
    block (a value that is not a plain number) is text at once; the others are decided in
    one pass over those columns only, keeping their distinct values while they all look
    like plain numbers.

    Parameters
    ----------
    scan : FileScan
        CSV files.
    sets : sequence of sequence of str
        Columns that decide together.

    Returns
    -------
    dict
        ``"int"``, ``"float"`` or None (text) for every column of ``sets``.
    """
    files = scan.dataset
    kinds: dict[str, str | None] = {c: None for group in sets for c in group}
    if not isinstance(files, _CsvFiles):
        raise KappaFrameTypeError("csv_kinds reads CSV files (kf.scan(..., format='csv')).")
    pending = [g for g in sets if g and all(_numeric(files.schema.field(c).type) for c in g)]
    columns = list(dict.fromkeys(c for group in pending for c in group))
    try:
        seen, worded = _number_values(files, columns)
    except _CommasChanged:  # a column rewritten with decimal points is text: see them all
        files.decide_commas(columns)
        seen, worded = _number_values(files, columns)
    for group in pending:
        if not any(c in worded for c in group):
            kinds.update(dict.fromkeys(group, number_kind(set().union(*(seen[c] for c in group)))))
    return kinds


def _number_values(files: _CsvFiles, columns: list[str]) -> tuple[dict[str, set[str]], set[str]]:
    """The distinct values of ``columns`` while they are plain numbers, and those that are not.

    One pass over every file (decimal commas written with points), which ends once every
    column holds a label that is not a plain number.
    """
    import pyarrow.compute as pc

    seen: dict[str, set[str]] = {c: set() for c in columns}
    worded: set[str] = set()  # columns holding a label that is not a plain number
    for path in files.files if columns else ():
        with contextlib.closing(files.blocks(path, columns)) as batches:
            for batch in batches:
                for c in columns:
                    if c in worded:
                        continue
                    new = set(pc.unique(batch.column(c)).drop_null().to_pylist()) - seen[c]
                    if all(plain_number(v) for v in new):
                        seen[c] |= new
                    else:
                        worded.add(c)
                        seen[c].clear()
                if len(worded) == len(columns):
                    break
        if len(worded) == len(columns):
            break
    return seen, worded


def _as_kind(column: Any, kind: str) -> Any:
    """A column of text (plain or dictionary-encoded) as int64 or float64 numbers."""
    import pyarrow as pa

    target = pa.int64() if kind == "int" else pa.float64()
    if isinstance(column, pa.ChunkedArray):
        return pa.chunked_array([_as_kind(chunk, kind) for chunk in column.chunks], type=target)
    if pa.types.is_dictionary(column.type):
        return column.dictionary.cast(target).take(column.indices)
    return column.cast(target)


def _as_kinds(batch: Any, kinds: dict[str, str | None]) -> Any:
    """A record batch with its numbers columns (``kinds``: int or float) cast from text."""
    import pyarrow as pa

    arrays = []
    for name in batch.schema.names:
        kind = kinds.get(name)
        arrays.append(batch.column(name) if kind is None else _as_kind(batch.column(name), kind))
    return pa.RecordBatch.from_arrays(arrays, names=batch.schema.names)


def _distinct(column: Any) -> set[str]:
    """The distinct non-missing values of a text column (plain or dictionary-encoded)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    values: set[str] = set()
    for chunk in column.chunks if isinstance(column, pa.ChunkedArray) else [column]:
        if pa.types.is_dictionary(chunk.type):
            chunk = chunk.dictionary.take(pc.unique(chunk.indices).drop_null())
        values.update(pc.unique(chunk).drop_null().to_pylist())
    return values


def _with_points(array: Any) -> Any:
    """Text (plain or dictionary-encoded) with its decimal commas made points."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_dictionary(array.type):
        points = pc.replace_substring(array.dictionary, ",", ".")
        return pa.DictionaryArray.from_arrays(array.indices, points)
    return pc.replace_substring(array, ",", ".")


def _first_unreadable(paths: Sequence[str]) -> str:
    """The first of ``paths`` whose Parquet footer cannot be read (else the first path)."""
    import pyarrow.parquet as pq

    for path in paths:
        try:
            pq.read_schema(path)
        except Exception as err:
            if is_read_error(err):
                return path
            raise
    return paths[0]


def _union_schema(dataset: Any, fmt: str) -> Any:
    """The columns of every file of a pyarrow dataset: see ``_merge_schemas``."""
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


def _arrow_reads(path: str) -> bool:
    """Whether a pyarrow dataset decompresses ``path`` itself (plain, gzip, bz2)."""
    return compression_of(path) in (None, "gzip", "bz2")


def csv_source(path: str) -> Any:
    """What ``pyarrow.csv.open_csv`` reads ``path`` from, decompressed as it is read.

    The path itself where pyarrow tells the compression by the suffix (plain, ``.gz``,
    ``.bz2``), else a decompressing stream (``.zst`` through pyarrow's codec, ``.xz``
    through Python's); either way a block at a time.
    """
    import pyarrow as pa

    if _arrow_reads(path):
        return path
    if compression_of(path) == "zstd" and pa.Codec.is_available("zstd"):
        return pa.input_stream(path, compression="zstd")
    return _python_stream(path)


def _python_stream(path: str) -> Any:
    compression = compression_of(path)
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

    compression = compression_of(path)
    if compression is not None and compression != "xz" and pa.Codec.is_available(compression):
        return io.BufferedReader(pa.input_stream(path, compression=compression))
    return _python_stream(path)


#: Encodings whose line ends are the byte ``\n`` and nothing else (cut safely in bytes).
_BYTE_LINES = ("utf8", "utf8sig", "ascii", "latin1", "iso88591", "cp1252", "windows1252")


def csv_blocks(path: str, read: Any, parse: Any, convert: Any) -> Iterator[Any]:
    """Record batches of one CSV file, parsed a block of whole lines at a time.

    See ``csv_tables``; a file the decompressor or the parser rejects is a
    ``KappaFrameError`` naming the file and the way out.
    """
    for table in csv_tables(path, read, parse, convert):
        yield from table.to_batches()


def csv_tables(path: str, read: Any, parse: Any, convert: Any) -> Generator[Any, None, None]:
    """Each block of one CSV file as a pyarrow table (the first even when it has no rows).

    pyarrow's streaming reader keeps memory for the blocks it has read until the file
    ends, so its peak grows with the file. Here the (decompressed) bytes are cut at line
    ends between rows, about ``read.block_size`` at a time, and each block is parsed on its
    own by ``pyarrow.csv.read_csv``: the first with the caller's options, every later one
    with the header line put back in front and the first block's column types, as the
    streaming reader would type it. Memory holds one block whatever the size of the file.

    A line break inside a quoted value is part of the value, as pandas reads it: a block
    ends at a line end after an even number of quote characters (a doubled quote inside a
    quoted value counts twice), so a quote character inside an unquoted value (``12"``)
    can only make a block longer. Multi-byte encodings other than UTF-8 and an
    ``escape_char`` keep the streaming reader (give it ``newlines_in_values=True`` for
    quoted line breaks).
    """
    import pyarrow as pa
    import pyarrow.csv as pacsv

    with _reading(path, "csv"):
        encoding = "".join(ch for ch in str(read.encoding).lower() if ch.isalnum())
        if parse.escape_char or encoding not in _BYTE_LINES:
            with pacsv.open_csv(
                csv_source(path), read_options=read, parse_options=parse, convert_options=convert
            ) as reader:
                yield reader.schema.empty_table()
                for batch in reader:
                    yield pa.Table.from_batches([batch])
            return
        yield from _csv_block_tables(path, read, parse, convert)


def _csv_block_tables(path: str, read: Any, parse: Any, convert: Any) -> Iterator[Any]:
    import pyarrow as pa
    import pyarrow.csv as pacsv

    header = not read.column_names and not read.autogenerate_column_names
    later: tuple[Any, Any] | None = None  # read and convert options of the later blocks
    head = b""  # the header line, put back in front of every later block
    carry = b""
    quote = ord(parse.quote_char) if parse.quote_char else None
    if quote is not None and not parse.newlines_in_values:
        # Whole rows only reach the parser, but it cuts a buffer into chunks of its own:
        # it must know that a quoted value may hold a line break.
        parse = _with_newlines_in_values(parse)

    def parsed(text: bytes, options: tuple[Any, Any]) -> Any:
        whole = options[0]
        if whole.block_size <= len(text):  # one chunk: a long row never straddles two
            whole = copy.copy(whole)
            whole.block_size = len(text) + 1
        try:
            return pacsv.read_csv(
                pa.py_buffer(text),
                read_options=whole,
                parse_options=parse,
                convert_options=options[1],
            )
        except pa.ArrowInvalid as err:
            raise _csv_error(path, err, head, read, parse, convert) from None

    with _binary_lines(path) as stream:
        while True:
            data = stream.read(read.block_size)
            block = carry + data
            if data:
                cut = _row_end(block, quote)
                if cut == 0:  # a row longer than a block: read on
                    carry = block
                    continue
                block, carry = block[:cut], block[cut:]
            elif block and not block.endswith(b"\n"):
                block += b"\n"  # a last line without its line end (a header alone, too)
            if block.strip():
                if later is None:
                    lines = block.split(b"\n", read.skip_rows + 1)
                    if header and len(lines) > read.skip_rows:
                        head = lines[read.skip_rows] + b"\n"
                        if read.skip_rows == 0 and head.startswith(b"\xef\xbb\xbf"):
                            head = head[3:]  # the byte order mark starts the file only
                    table = parsed(block, (read, convert))
                    if data and not table.num_rows:  # types come from rows: read on
                        carry = block + carry
                        continue
                    later = _later_block_options(read, convert, table.schema)
                else:
                    table = parsed(head + block, later)
                yield table
            if not data:
                return


def _with_newlines_in_values(parse: Any) -> Any:
    """``parse`` with ``newlines_in_values=True``, built anew.

    A ``copy.copy`` of pyarrow's ParseOptions holds ``None`` as its invalid-row handler,
    which pyarrow then calls on a ragged row.
    """
    import pyarrow.csv as pacsv

    options = {
        name: getattr(parse, name)
        for name in ("delimiter", "quote_char", "double_quote", "escape_char", "ignore_empty_lines")
    }
    if parse.invalid_row_handler is not None:
        options["invalid_row_handler"] = parse.invalid_row_handler
    return pacsv.ParseOptions(newlines_in_values=True, **options)


def _row_end(block: bytes, quote: int | None) -> int:
    """The index after the last line end of ``block`` that ends a row (0: none).

    ``block`` starts a row, outside quotes: a line end after an odd number of quote
    characters is inside a quoted value.
    """
    end = block.rfind(b"\n") + 1
    if quote is None or end == 0 or block.find(quote) < 0:
        return end
    import numpy as np

    data = np.frombuffer(block, dtype=np.uint8)
    quotes = np.flatnonzero(data == quote)
    ends = np.flatnonzero(data == ord("\n"))
    outside = ends[np.searchsorted(quotes, ends) % 2 == 0]
    return int(outside[-1]) + 1 if len(outside) else 0


def _csv_error(
    path: str, err: Exception, head: bytes, read: Any, parse: Any, convert: Any
) -> Exception:
    """A CSV block pyarrow cannot parse: name the file, and the column a value does not fit.

    A value fails to convert when its column has a type: the one the caller gave
    (``column_types``), or else the one the file's first block of rows showed (the block
    reader types every later block so, as pyarrow's streaming reader does).
    """
    import re

    import pyarrow as pa
    import pyarrow.csv as pacsv

    if "conversion error" not in str(err):
        return unreadable_file(path, "csv", err, compression_of(path))
    names = list(read.column_names)
    if head:
        names = header_names(pacsv.read_csv(pa.py_buffer(head), parse_options=parse).column_names)
    found = re.search(r"CSV column #(\d+)", str(err))
    index = int(found.group(1)) if found else len(names)
    name = names[index] if index < len(names) else "<column>"
    which = repr(name)
    shown = re.search(r"conversion error to (\w+): invalid value (.*)$", str(err))
    kind, value = (shown.group(1), shown.group(2)) if shown else ("its type", "a value")
    way_out = (
        "Give the column the type of every value: kf.scan(path, csv_options={'convert': "
        f"{{'column_types': {{{which}: 'string'}}}}}}) compares the labels as written "
        "('float64' reads numbers)."
    )
    if name in {str(c) for c in convert.column_types}:
        return KappaFrameError(
            f"could not read {path!r}: column {which} is read as {kind} (its column_types), "
            f"and holds {value}, which is not. {way_out}"
        )
    if kind == "null":
        return KappaFrameError(
            f"could not read {path!r}: column {which} is empty in the file's first block of "
            f"rows ({read.block_size:,} bytes), which left its type unknown, and a later "
            f"block holds {value}. {way_out}"
        )
    return KappaFrameError(
        f"could not read {path!r}: column {which} holds only {kind} values in the file's "
        f"first block of rows ({read.block_size:,} bytes), and a later block holds {value}. "
        f"{way_out}"
    )


def _later_block_options(read: Any, convert: Any, schema: Any) -> tuple[Any, Any]:
    """Options for a block after the first: no rows to skip, the first block's types."""
    later_read = copy.copy(read)
    later_read.skip_rows = 0
    later_read.skip_rows_after_names = 0
    later_convert = copy.copy(convert)
    later_convert.column_types = {field.name: field.type for field in schema}
    return later_read, later_convert


class _CsvFile:
    """One CSV file: its read, parse and convert options, and its first block's columns.

    As the command line reads a CSV file: the separator, unless given, is sniffed among
    ``, ; TAB |`` (TAB first for ``.tsv`` and ``.tab``), the decimal mark, unless given
    (``decimal_point``), is sniffed as ``kappaframe._io.read.sniff_decimal`` finds it,
    and an empty name in the header is ``Unnamed: i``
    (``kappaframe._io.read.header_names``).

    With a decimal comma, a column read as text is rewritten with decimal points when
    every value of it in the file is an integer or a decimal-comma number
    (``kappaframe._io.read.comma_column``): ``blocks`` does so as it reads, from
    what it has seen, and raises ``_CommasChanged`` should a later value show that a
    column it rewrote is not one (``decide_commas`` then looks at every value).
    """

    def __init__(
        self, path: str, parse: dict[str, Any], convert: dict[str, Any], read: dict[str, Any]
    ) -> None:
        import pyarrow as pa
        import pyarrow.csv as pacsv

        self.path = path
        sep, decimal = _sniffed_marks(path, read, parse.get("delimiter"))
        parse = {**parse, "delimiter": sep}
        #: The decimal mark: the caller's ``decimal_point``, else sniffed.
        self.decimal = str(convert.get("decimal_point") or decimal)
        #: The columns known to be rewritten (True) or not (False), with every value seen.
        self.commas: dict[str, bool] = {}
        self.read = pacsv.ReadOptions(**read)
        self.parse = pacsv.ParseOptions(**parse)
        self.convert = dict(convert)
        tables = csv_tables(path, self.read, self.parse, pacsv.ConvertOptions(**convert))
        try:
            first = next(tables, None)
        finally:
            tables.close()
        if first is None:
            raise KappaFrameError(
                f"could not read {path!r} as csv: the file is empty (not even a header "
                "line); check the export."
            )
        names = header_names(first.schema.names)
        if names != first.schema.names and not (
            self.read.column_names or self.read.autogenerate_column_names
        ):
            self.read.column_names = names  # the header line is then skipped as a row
            self.read.skip_rows += 1
            first = first.rename_columns(names)
        check_unique_names(first.schema.names, os.path.basename(path))
        schema = first.schema
        if self.decimal == ",":  # the numbers pyarrow takes for text: decimal commas
            typed = {str(c) for c in convert.get("column_types", {})}
            for i, field in enumerate(schema):
                if field.name in typed or not _is_string(field.type):
                    continue
                values = _distinct(first.column(i))
                state = comma_column(values)
                if state is False:
                    self.commas[field.name] = False  # a value of it is neither: as written
                elif state:
                    values = {decimal_point(v) for v in values}
                kind = number_kind(values)
                if kind is not None:
                    numbers = pa.int64() if kind == "int" else pa.float64()
                    schema = schema.set(i, field.with_type(numbers))
        #: The columns and the types pyarrow infers from the first block (a column of
        #: decimal-comma numbers as numbers).
        self.schema = schema

    def blocks(
        self, columns: Sequence[str], types: dict[str, Any], rewrite: bool = True
    ) -> Generator[Any, None, None]:
        """Record batches of ``columns`` (absent ones missing), typed by ``types``.

        With a decimal comma, the text columns that are decimal-comma numbers rewritten
        with points (unless ``rewrite`` is false): see the class.
        """
        import pyarrow as pa
        import pyarrow.csv as pacsv

        given = {str(c) for c in self.convert.get("column_types", {})}
        convert = {
            **self.convert,
            "include_columns": list(columns),
            "include_missing_columns": True,
            "column_types": {**types, **self.convert.get("column_types", {})},
        }
        batches = csv_blocks(self.path, self.read, self.parse, pacsv.ConvertOptions(**convert))
        text = [c for c in columns if c not in given and self.commas.get(c) is not False]
        if not rewrite or self.decimal != "," or not text:
            yield from batches
            return
        seen: dict[str, bool | None] = dict.fromkeys(text)  # comma_column of the values so far
        for batch in batches:
            arrays = list(batch.columns)
            for c in text:
                known = self.commas.get(c)
                if known is None and seen[c] is not False:
                    state = comma_column(_distinct(batch.column(c)))
                    if state is False:
                        if seen[c]:  # a rewritten column is not one of numbers after all
                            self.commas[c] = False
                            raise _CommasChanged(self.path)
                        self.commas[c] = False
                    seen[c] = seen[c] or state
                if self.commas.get(c, seen[c]):
                    i = batch.schema.get_field_index(c)
                    arrays[i] = _with_points(arrays[i])
            yield pa.RecordBatch.from_arrays(arrays, names=batch.schema.names)
        for c in text:
            self.commas.setdefault(c, bool(seen[c]))

    def decide_commas(self, columns: Sequence[str]) -> None:
        """Which of ``columns`` are rewritten, from every value of the file (one pass)."""
        import pyarrow as pa

        given = {str(c) for c in self.convert.get("column_types", {})}
        todo = [c for c in columns if c not in given and c not in self.commas]
        if self.decimal != "," or not todo:
            return
        seen: dict[str, bool | None] = dict.fromkeys(todo)
        with contextlib.closing(self.blocks(todo, dict.fromkeys(todo, pa.string()), False)) as it:
            for batch in it:
                for c in todo:
                    if seen[c] is not False:
                        state = comma_column(_distinct(batch.column(c)))
                        seen[c] = False if state is False else seen[c] or state
                if all(v is False for v in seen.values()):
                    break
        self.commas.update({c: bool(v) for c, v in seen.items()})


def _sniffed_marks(path: str, read: dict[str, Any], delimiter: str | None) -> tuple[str, str]:
    """The separator (unless given) and the decimal mark of a CSV file, from its first lines.

    As the command line finds them (``kappaframe._io.read.sniff_delimiter``,
    ``kappaframe._io.read.sniff_decimal``).
    """
    default = "\t" if suffix_format(path) == "tsv" else ","
    with _reading(path, "csv"), _binary_lines(path) as stream:
        head = stream.read(65_536)
    try:
        text = head.decode(str(read.get("encoding", "utf8")), errors="replace")
    except LookupError:  # pyarrow names the unknown encoding when it reads
        return delimiter or default, "."
    text = text.lstrip("\ufeff")
    skip = int(read.get("skip_rows", 0))
    if skip:
        text = "".join(text.splitlines(keepends=True)[skip:])
    sep = delimiter or sniff_delimiter(text, default)
    return sep, sniff_decimal(text, sep)


class _CsvFiles:
    """The CSV files of a scan, in the place of a pyarrow dataset.

    Each file is read by the block reader (``csv_blocks``, decompressed as it is
    read). It has what ``FileScan`` and ``FileReader`` ask of a dataset:
    ``files``, the union ``schema`` (each file's first block) and ``to_table``.
    """

    def __init__(self, scan: FileScan) -> None:
        self.scan = scan
        self.files = list(scan.paths or [])
        parse, convert, read = scan._csv()
        #: The columns the caller gave a type (``column_types``): read as that type.
        self.typed = {str(c) for c in convert.get("column_types", {})}
        self.csv = {path: _CsvFile(path, parse, convert, read) for path in self.files}
        #: Every file's columns, with the types pyarrow infers from its first block.
        self.schema = _merge_schemas(((p, f.schema) for p, f in self.csv.items()), "csv")
        scan.schema = self.schema

    @property
    def decimal_commas(self) -> bool:
        """Whether a file is written with a decimal comma."""
        return any(f.decimal == "," for f in self.csv.values())

    def decide_commas(self, columns: Sequence[str]) -> None:
        """Which of ``columns`` each file rewrites, from every value (``_CsvFile``)."""
        for path in self.files:
            self.csv[path].decide_commas([c for c in columns if c in self.csv[path].schema.names])

    def blocks(self, path: str, columns: Sequence[str], dictionary: Sequence[str] = ()) -> Any:
        """Record batches of ``columns`` of one file, each cell as written (text).

        A column given a type keeps it; ``dictionary`` ones are dictionary-encoded text;
        decimal-comma numbers are written with points (``_CsvFile``), which may
        raise ``_CommasChanged``.
        """
        import pyarrow as pa

        text = {
            c: pa.dictionary(pa.int32(), pa.string()) if c in dictionary else pa.string()
            for c in columns
        }
        return self.csv[path].blocks(columns, text)

    def to_table(self, columns: Sequence[str], dictionary: Sequence[str] = ()) -> Any:
        """Every row of ``columns``, file after file, as ``blocks`` reads them."""
        import pyarrow as pa

        try:
            batches = [b for path in self.files for b in self.blocks(path, columns, dictionary)]
        except _CommasChanged:
            self.decide_commas(columns)
            batches = [b for path in self.files for b in self.blocks(path, columns, dictionary)]
        if batches:
            return pa.Table.from_batches(batches)
        return pa.schema([self.schema.field(c) for c in columns]).empty_table()


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
        except Exception as err:
            if not is_read_error(err):
                raise
            raise unreadable_file(path, "jsonl", err, compression_of(path)) from None

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
