"""``kappaframe report --stream``: the input as a ``kf.scan``, counted in batches."""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from .logs import log


def scan_input(
    args: argparse.Namespace,
    fmt: str,
    needed: list[Hashable] | None,
    by: list[Hashable],
    text_options: Any,
    progress: bool | None,
) -> tuple[Any, Any]:
    """``kf.scan`` of the input for pairwise, and its columns (a frame without rows, CSV).

    CSV cells are read as ``kappaframe._io.read.read_input`` reads them: as written,
    missing only when empty or one of ``--na-values``, numbers only when
    ``number_kind`` says so for all the file's values, so the streamed result equals the
    one read whole. Each block is parsed once, by the counting, which decides the labels'
    type on every value it counted (``kappaframe._frames.files.FileReader``); only
    ``--categories`` (and the long layout's ``--raters``), values that must take the
    labels' type before the count, have the type decided in a pass of its own. JSON lines
    are parsed in chunks of lines by the whole read's parser (JSON types kept; ``null``,
    an absent key, the empty string and ``--na-values`` missing).
    """
    from .._errors import KappaFrameError
    from .._io.read import Progress, counted, expand_input, input_kind, read_head
    from .._io.scan import scan

    if fmt in ("markdown", "html"):
        raise KappaFrameError(
            f"--format {fmt} shows pictures and summaries of the rows, so it reads the file "
            "whole; drop --stream, or write a table (csv, json, jsonl, parquet, text)."
        )
    paths = expand_input(args.input)
    formats = {input_kind(p, args.input_format) for p in paths}
    if len(formats) > 1 or not formats <= {"csv", "tsv", "parquet", "jsonl"}:
        raise KappaFrameError(
            "--stream reads CSV, TSV, JSON lines and Parquet files (one format at a time)."
        )
    kind = formats.pop()
    bar = Progress("counting", None, unit="rows", enabled=progress)
    if kind not in ("csv", "tsv"):  # CSV: the scan's own first read shows the columns
        head = read_head(paths[0], needed, fmt=kind, na_values=args.na_values, options=text_options)
    if kind == "jsonl":
        lines = {"null_values": ["", *args.na_values], "encoding": text_options.encoding}
        return _counting(scan(paths, format="jsonl", json_options=lines), bar, counted), head
    if kind == "parquet":
        if args.na_values:
            raise KappaFrameError(
                f"--na-values {' '.join(args.na_values)}: Parquet marks missing values "
                "itself (null); drop --na-values for Parquet input."
            )
        return _counting(scan(paths, format="parquet"), bar, counted), head
    if not os.path.isfile(paths[0]):
        raise KappaFrameError(f"input file not found: {os.fspath(paths[0])!r}.")
    sep, _ = text_options.resolve(_source(paths[0]), kind)
    # The sets of columns whose kinds decide together (wide: known once the files are open).
    long_sets = [[args.label], *([c] for c in [*by, args.rater])]
    sets = long_sets if args.item is not None else None
    options: dict[str, Any] = {
        "convert": {"null_values": ["", *args.na_values], "strings_can_be_null": True}
    }
    options["parse"] = {"delimiter": sep}
    if text_options.decimal is not None:  # --decimal; else sniffed file by file
        options["convert"]["decimal_point"] = text_options.decimal
    if text_options.encoding.replace("-", "").lower() not in ("utf8sig", "utf8"):
        options["read"] = {"encoding": text_options.encoding}
    if args.item is not None:  # item ids are compared as written, never as numbers
        options["convert"]["column_types"] = {str(args.item): "string"}
    files = scan(paths, format="csv", csv_options=options)
    names = _header(files, paths[0], needed)
    columns = needed if needed is not None else names
    if sets is None:
        sets = [[c for c in columns if c not in by and c != args.reference], *([c] for c in by)]
        if args.reference is not None:
            sets[0].append(args.reference)
    kinds: dict[Any, Any] = {}
    if _typed_options(args):
        # Values given on the command line take the labels' type: decided first, over
        # every value. Otherwise the counting decides it as it reads (``FileReader``).
        kinds, commas = _stream_kinds(files, sets)
        if not commas:  # decimal commas: the reader rewrites them, deciding the kinds alike
            types = {str(c): _ARROW_TYPES[kinds.get(c)] for c in columns}
            options["convert"]["column_types"] = {c: _arrow_type(t) for c, t in types.items()}
            files = scan(paths, format="csv", csv_options=options)
    head = _empty(columns, {c: kinds.get(group[0]) for group in sets for c in group if group})
    return _counting(files, bar, counted), head


def _typed_options(args: argparse.Namespace) -> bool:
    """Whether values given on the command line must take the labels' type before reading."""
    return args.categories is not None or (args.item is not None and args.raters is not None)


def _header(files: Any, first: str, needed: list[Hashable] | None) -> list[Hashable]:
    """The columns of the open files (their headers); the needed ones checked in the first."""
    from .._errors import KappaFrameError, missing_columns

    if needed is not None:
        present = list(files.dataset.csv[first].schema.names)
        err = missing_columns(list(dict.fromkeys(needed)), present, "column")
        if err is not None:
            raise KappaFrameError(f"{_source(first).name}: {err}")
    return list(files.dataset.schema.names)


def _empty(columns: Sequence[Hashable], kinds: dict[Any, Any]) -> Any:
    """No rows, the columns read: their names, and their type where it was decided."""
    import pandas as pd

    dtypes: dict[Any, Any] = {None: object, "int": "int64", "float": "float64"}
    return pd.DataFrame({c: pd.Series([], dtype=dtypes[kinds.get(c)]) for c in columns})


def _source(path: str) -> Any:
    from .._io.read import Source

    return Source(path)


def _counting(files: Any, bar: Any, counted: Any) -> Any:
    """The scan, its batches advancing the counting progress bar (and logged, INFO)."""
    batches = files.batches

    def counted_batches(columns: Sequence[str]) -> Any:
        start, before = time.perf_counter(), bar.done
        with bar:
            yield from counted(batches(columns), bar)
        log.info(
            "streamed %d rows (%d columns) in %.2f s",
            bar.done - before,
            len(columns),
            time.perf_counter() - start,
        )

    files.batches = counted_batches
    return files


#: pyarrow type names of the column kinds of ``kappaframe._io.read.number_kind``.
_ARROW_TYPES = {None: "string", "int": "int64", "float": "float64"}


def _arrow_type(name: str) -> Any:
    import pyarrow as pa

    return getattr(pa, name)()


def _stream_kinds(files: Any, sets: list[list[Hashable]]) -> tuple[dict[Any, Any], bool]:
    """Each column's kind (None: text), as the whole-file read decides it, and a flag.

    The label columns decide together, every other set alone
    (``kappaframe._io.scan.csv_kinds``, the reader's own rule). The flag says whether
    a file is written with a decimal comma (given or sniffed): its numbers are then read
    as text and rewritten by the reader, not typed by pyarrow.
    """
    from .._io.scan import csv_kinds

    kinds = csv_kinds(files, [[str(c) for c in group] for group in sets if group])
    return kinds, bool(files.dataset.decimal_commas)


def streamable(args: argparse.Namespace, fmt: str) -> bool:
    """Whether --stream counts in batches: CSV/TSV, JSON lines (compressed too), Parquet.

    Standard input, a JSON array (``.json``), an annotation tool's export, JSON lines mixed
    with other formats and relabelled labels (--map, --drop-labels) are read by the
    whole-file path instead; markdown and HTML are refused by ``scan_input``, which says why.
    """
    from .._io.formats import STDIO, TOOL_FORMATS
    from .._io.read import expand_input, input_kind

    if args.input == STDIO or args.map or args.drop_labels:
        return fmt in ("markdown", "html")
    kinds = {input_kind(p, args.input_format) for p in expand_input(args.input)}
    whole = bool(kinds & {"json", *TOOL_FORMATS}) or ("jsonl" in kinds and len(kinds) > 1)
    return not whole or fmt in ("markdown", "html")


@contextlib.contextmanager
def stream_read_errors(args: argparse.Namespace) -> Iterator[None]:
    """With --stream the file is parsed while counting: its parse errors are input errors."""
    if not args.stream:
        yield
        return
    import pyarrow as pa

    from .._errors import KappaFrameError

    try:
        yield
    except KappaFrameError:
        raise
    except (pa.ArrowException, OSError) as err:
        raise KappaFrameError(
            f"could not read {args.input!r} (--stream): {err}; check the file, or drop --stream "
            "to read it whole."
        ) from None
