"""The ways in: one pandas frame of ratings through every way kappaframe reads ratings.

:func:`push` (the ``way_in`` fixture of ``tests/conftest.py`` binds it to the test) pushes a
pandas frame of ratings through the named way in and gives a :class:`WayIn`: ``data`` is
what ``kf.<function>`` is called with (a pandas or polars frame, a LazyFrame, a file path
written to ``tmp_path``, a scan, a Dask frame, a DuckDB relation, an Ibis table, a Spark
frame, the file the command line reads), ``options`` the keywords the way adds (the long layout's
columns), and calling it runs a function and brings its result back as a pandas frame::

    way = way_in("long_polars", ratings, raters=RATERS)
    got = way(kf.pairwise, by="group", categories=CATS)  # a pandas frame

Each way checks what it says: a polars frame gives a polars frame, a LazyFrame a
LazyFrame, Dask a Dask frame, DuckDB, Ibis and Spark pandas; the crowd way checks the crowd
counting was taken; the command line runs ``kappaframe report`` (or ``items``, ``plan``)
in-process and reads its CSV. An optional backend that is not installed skips its case
with the reason. :data:`WAYS_IN` names them all, for ``pytest.mark.parametrize``.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe.cli import main as cli_main

#: The long layout's keywords and the columns the wide frame is melted into.
LONG: dict[str, str] = {"item": "item", "rater": "rater", "label": "label"}

#: Every way in. ``long_*`` ways melt the wide frame into the long layout (one row per
#: rating, missing ratings dropped) before taking the way named after the prefix.
WAYS_IN: tuple[str, ...] = (
    "pandas",
    "accessor",  # df.kappa.<function>(...)
    "shuffled",  # the rows in another order
    "text_labels",  # declared categories as plain text (no declared order)
    "polars",
    "polars_lazy",
    "long_pandas",
    "long_polars",
    "long_lazy",
    "crowd",  # the long layout counted sparsely
    "counts_parts",  # kf.counts of three row parts, added
    "counts_parquet",  # counts stored as cells in Parquet, read back
    "counts_table",  # the item x category table of counts (layout="counts")
    "csv_path",
    "parquet_path",
    "jsonl_path",
    "scan_csv",  # kf.scan in batches of 7 rows
    "scan_parquet",
    "long_scan_csv",
    "dask",
    "long_dask",
    "duckdb",
    "long_duckdb",
    "ibis",  # an Ibis table on Ibis' DuckDB backend, counted there through narwhals
    "long_ibis",
    "spark",
    "cli",  # kappaframe report | items | plan, in-process
    "cli_stream",  # kappaframe report --stream
)

#: The rows of the ``shuffled`` way.
SHUFFLE_SEED = 7
#: Rows per batch of the ``scan_*`` ways and partitions of the Dask ways.
BATCH_SIZE = 7
PARTITIONS = 3

#: The keywords ``kf.counts`` takes from a call (the rest go to the counts' method).
COUNT_KEYWORDS = ("raters", "item", "rater", "label", "by", "categories", "duplicates")

#: The command for each function: subcommand, the flag ``method=`` becomes, and the
#: output file's suffix (``None``: the CSV on standard output).
COMMANDS: dict[str, tuple[str, str | None, str | None]] = {
    "pairwise": ("report", None, None),
    "items": ("items", None, None),
    "overall": ("report", "--overall", "overall"),
    "per_label": ("report", "--per-label", "per_label"),
    "sample_size": ("plan", None, ""),
}


Function = Callable[..., Any]
Args = tuple[Any, ...]
Scalar = str | int | float


class CliRefused(Exception):
    """The command line refused the input (exit 2); the message is its stderr."""


class NotOffered(AssertionError):
    """The way in has no means to say this option (a test lists such cells apart)."""


@dataclass
class WayIn:
    """One way in to one frame of ratings: the data, and how to call and read back."""

    name: str
    #: What ``kf.<function>`` is called with.
    data: Any
    #: The keywords the way adds to every call (the long layout's columns).
    options: dict[str, Any]
    #: The wide pandas frame the way was made from.
    frame: pd.DataFrame
    raters: list[Any] | None
    request: pytest.FixtureRequest
    #: The function that makes the call (the accessor, the counts, the command line).
    run: Callable[..., Any] | None = field(default=None, repr=False)

    def __call__(self, function: Callable[..., Any], *args: Any, **options: Any) -> pd.DataFrame:
        """``function(data, *args, **options)`` through this way, as a pandas frame."""
        if self.run is not None:
            return self.run(self, function, args, options)
        result = function(self.data, *args, **self.options, **options)
        return back_to_pandas(self.name, result)


def back_to_pandas(way: str, result: Any) -> pd.DataFrame:
    """The result as pandas, after checking it is of the type the input asks for."""
    base = way.removeprefix("long_")
    if base in ("polars", "lazy", "polars_lazy"):
        pl = pytest.importorskip("polars")
        want = pl.LazyFrame if base != "polars" else pl.DataFrame
        assert isinstance(result, want), f"{way}: {type(result).__name__}"
        return (result.collect() if base != "polars" else result).to_pandas()
    if base == "dask":
        dd = pytest.importorskip("dask.dataframe")
        assert isinstance(result, dd.DataFrame), f"{way}: {type(result).__name__}"
        return result.compute()
    assert isinstance(result, pd.DataFrame), f"{way}: {type(result).__name__}"
    return result


def to_long(
    df: pd.DataFrame, raters: Sequence[Any], long: dict[str, str] | None = None
) -> pd.DataFrame:
    """One row per rating: item ("i000", ...), the other columns, rater, label.

    Missing ratings are dropped; the item, rater and label columns are named by ``long``
    (its ``label`` or ``value`` entry names the label column).
    """
    long = LONG if long is None else long
    item, rater = long["item"], long["rater"]
    (label,) = (v for k, v in long.items() if k not in ("item", "rater"))
    wide = df.assign(**{item: [f"i{i:03d}" for i in range(len(df))]})
    ids = [item, *(c for c in df.columns if c not in raters)]
    melted = wide.melt(id_vars=ids, value_vars=list(raters), var_name=rater, value_name=label)
    return melted.dropna(subset=[label]).reset_index(drop=True)


def crowd_module() -> ModuleType:
    """The private module holding the crowd counting (being moved; take whichever exists)."""
    for name in ("kappaframe._count.crowd", "kappaframe._crowd"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "use_crowd"):
            return module
    raise AssertionError("no crowd module with use_crowd: kappaframe._count.crowd, ._crowd")


# ----------------------------------------------------------------------------- writing


def write(df: pd.DataFrame, tmp_path: Path, suffix: str) -> Path:
    """``df`` written as a new file of ``suffix`` (csv, parquet, jsonl) in ``tmp_path``."""
    n = sum(1 for _ in tmp_path.glob(f"ratings*.{suffix}"))
    path = tmp_path / f"ratings{n or ''}.{suffix}"
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
        df.to_parquet(path, index=False)
    elif suffix == "jsonl":
        df.to_json(path, orient="records", lines=True)
    else:
        df.to_csv(path, index=False)
    return path


# ----------------------------------------------------------------------------- the carriers


def _polars(df: pd.DataFrame) -> Any:
    pl = pytest.importorskip("polars")
    return pl.from_pandas(df, nan_to_null=True)


def _dask(df: pd.DataFrame, request: pytest.FixtureRequest) -> Any:
    dd = pytest.importorskip("dask.dataframe")
    request.getfixturevalue("dask_client")
    return dd.from_pandas(df, npartitions=PARTITIONS)


def _duckdb(df: pd.DataFrame, request: pytest.FixtureRequest) -> Any:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    con = duckdb.connect()
    request.addfinalizer(con.close)
    return con.from_df(df)


def _ibis(df: pd.DataFrame, request: pytest.FixtureRequest) -> Any:
    """``df`` as a table of an in-memory database of Ibis' DuckDB backend.

    Loaded through Arrow (a missing value, NaN included, is null there, as in SQL), as an
    Ibis memtable: ``create_table`` of a frame itself fails with Ibis 12 and sqlglot 30.18+
    (a DROP VIEW without its name).
    """
    ibis = pytest.importorskip("ibis", reason='Ibis is not installed: pip install -e ".[ibis]"')
    pytest.importorskip("narwhals")
    pa = pytest.importorskip("pyarrow")
    con = ibis.duckdb.connect()
    request.addfinalizer(con.disconnect)
    arrow = pa.Table.from_pandas(df, preserve_index=False)
    return con.create_table("ratings", ibis.memtable(arrow))


def _spark_type(column: pd.Series) -> str:
    if pd.api.types.is_datetime64_any_dtype(column):
        return "timestamp_ntz"
    if pd.api.types.is_bool_dtype(column):
        return "string"
    if pd.api.types.is_integer_dtype(column):
        return "bigint"
    if pd.api.types.is_numeric_dtype(column):
        return "double"
    return "string"


def _spark_value(value: Any, kind: str) -> Any:
    """A cell as Spark's schema takes it (a missing value is None)."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, pd.Timestamp):
        return value.to_pydatetime()
    if kind == "bigint":
        return int(value)
    if kind == "double":
        return float(value)
    return value.item() if isinstance(value, np.generic) else value


def _spark(df: pd.DataFrame, request: pytest.FixtureRequest) -> Any:
    session = request.getfixturevalue("spark_session")
    kinds = [_spark_type(df[c]) for c in df.columns]
    rows = [
        tuple(_spark_value(v, k) for v, k in zip(row, kinds, strict=True))
        for row in df.itertuples(index=False)
    ]
    schema = ", ".join(f"{c} {k}" for c, k in zip(df.columns, kinds, strict=True))
    return session.createDataFrame(rows, schema)


def _carry(base: str, df: pd.DataFrame, request: pytest.FixtureRequest) -> Any:
    """The frame ``df`` as the input of way ``base`` (a way with no layout prefix)."""
    if base in ("pandas", "accessor", "crowd"):
        return df
    if base == "shuffled":
        return df.sample(frac=1.0, random_state=SHUFFLE_SEED)
    if base == "text_labels":
        declared = [c for c in df.columns if isinstance(df[c].dtype, pd.CategoricalDtype)]
        return df.astype(dict.fromkeys(declared, object))
    if base == "polars":
        return _polars(df)
    if base in ("polars_lazy", "lazy"):
        return _polars(df).lazy()
    files = {"csv_path": "csv", "parquet_path": "parquet", "jsonl_path": "jsonl"}
    if base in files:
        return str(write(df, request.getfixturevalue("tmp_path"), files[base]))
    if base.startswith("scan_"):
        path = write(df, request.getfixturevalue("tmp_path"), base.removeprefix("scan_"))
        return kf.scan(path, batch_size=BATCH_SIZE)
    if base == "dask":
        return _dask(df, request)
    if base == "duckdb":
        return _duckdb(df, request)
    if base == "ibis":
        return _ibis(df, request)
    if base == "spark":
        return _spark(df, request)
    raise AssertionError(f"no way in named {base!r}; the ways: {', '.join(WAYS_IN)}")


# ----------------------------------------------------------------------------- the runners


def _accessor(way: WayIn, function: Function, args: Args, opts: Any) -> Any:
    result = getattr(way.data.kappa, function.__name__)(*args, **way.options, **opts)
    return back_to_pandas(way.name, result)


def _crowd(way: WayIn, function: Function, args: Args, opts: Any) -> Any:
    """The long layout counted sparsely: force the switch, and check it was consulted."""
    asked: list[tuple[Any, ...]] = []

    def always(*switch: Any) -> bool:
        asked.append(switch)
        return True

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(crowd_module(), "use_crowd", always)
        result = function(way.data, *args, **way.options, **opts)
    assert asked, "use_crowd was not consulted: the crowd path was not taken"
    return back_to_pandas(way.name, result)


def _split(opts: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    counting = {k: v for k, v in opts.items() if k in COUNT_KEYWORDS}
    return counting, {k: v for k, v in opts.items() if k not in COUNT_KEYWORDS}


def _counts_parts(way: WayIn, function: Function, args: Args, opts: Any) -> Any:
    counting, rest = _split({**way.options, **opts})
    cut = np.array_split(np.arange(len(way.data)), 3)
    part1, part2, part3 = (kf.counts(way.data.iloc[rows], **counting) for rows in cut)
    total = part1 + part2 + part3
    return back_to_pandas(way.name, getattr(total, function.__name__)(*args, **rest))


def _counts_parquet(way: WayIn, function: Function, args: Args, opts: Any) -> Any:
    """Counts stored as cells in Parquet and read back WITHOUT categories= (keep the order)."""
    pytest.importorskip("pyarrow")
    counting, rest = _split({**way.options, **opts})
    path = request_tmp(way) / "cells.parquet"
    kf.counts(way.data, **counting).to_frame().to_parquet(path)
    stored = kf.Counts.from_frame(pd.read_parquet(path), by=counting.get("by"))
    return back_to_pandas(way.name, getattr(stored, function.__name__)(*args, **rest))


def _counts_table(way: WayIn, function: Function, args: Args, opts: Any) -> Any:
    """The item x category table of counts (``layout="counts"``) of the raters' labels."""
    categories = opts.get("categories")
    assert categories is not None, "the counts table needs categories= (its columns)"
    assert way.raters is not None, "the counts table needs the rater columns: raters="
    ratings = way.data[way.raters]
    table = pd.DataFrame({c: (ratings == c).sum(axis=1) for c in categories})
    by = opts.get("by")
    for column in [] if by is None else [by] if isinstance(by, str) else by:
        table[column] = way.data[column]
    result = function(table, *args, layout="counts", **way.options, **opts)
    return back_to_pandas(way.name, result)


def request_tmp(way: WayIn) -> Path:
    path: Path = way.request.getfixturevalue("tmp_path")
    return path


# ----------------------------------------------------------------------------- the command line


@cache
def command_flags(command: str) -> frozenset[str]:
    """The flags ``kappaframe <command> --help`` lists."""
    text = io.StringIO()
    code: Any
    with contextlib.redirect_stdout(text):
        try:
            code = cli_main([command, "--help"])
        except SystemExit as exit_info:  # argparse's own exit, if main lets it through
            code = exit_info.code
    assert code in (0, None), f"kappaframe {command} --help exited {code}"
    return frozenset(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text.getvalue()))


def _text(value: Any) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def cli_flags(options: dict[str, Any], command: str = "report") -> list[str]:
    """The flags of ``kappaframe <command>`` that say ``options`` (Python keywords).

    A keyword is its flag (``min_overlap`` -> ``--min-overlap``), ``True`` the flag alone,
    ``False`` its ``--no-`` form; raises :class:`NotOffered` where the command has no flag
    for it or no way to write its value.
    """
    offered = command_flags(command)
    flags: list[str] = []
    for key, value in options.items():
        flag = "--" + str(key).replace("_", "-")
        if value is False:
            flag = "--no-" + str(key).replace("_", "-")
        if flag not in offered:
            raise NotOffered(f"kappaframe {command} has no {flag} (for {key}={value!r})")
        if key == "weights" and not isinstance(value, str):
            raise NotOffered("the command line takes named weights only")
        if isinstance(value, bool):
            flags.append(flag)
        elif isinstance(value, Scalar):
            flags += [flag, _text(value)]
        elif isinstance(value, list | tuple) and all(isinstance(v, Scalar) for v in value):
            flags += [flag, *map(_text, value)]
        else:
            raise NotOffered(f"the command line cannot write {key}={value!r}")
    return flags


def _cli(way: WayIn, function: Function, args: Args, opts: Any) -> Any:
    """``kappaframe report`` (``items``, ``plan``) on the file, in-process; its CSV read back."""
    name = function.__name__
    assert name in COMMANDS, f"no command for {name}: {', '.join(COMMANDS)}"
    assert not args, f"the command line takes options only; got {args!r}"
    command, method_flag, suffix = COMMANDS[name]
    opts = {**way.options, **opts}
    argv = [command, way.data, "--no-progress"]
    if "raters" not in opts and "item" not in opts and way.raters is not None:
        argv += ["--raters", *map(str, way.raters)]
    if method_flag is not None and "method" in opts:
        methods = opts.pop("method")
        argv += [method_flag, *([methods] if isinstance(methods, str) else methods)]
    if way.name == "cli_stream":
        argv.append("--stream")
    argv += cli_flags(opts, command)
    out = request_tmp(way) / "out.csv"
    argv += ["--format", "csv"] if suffix is None else ["--output", str(out)]
    capsys = way.request.getfixturevalue("capsys")
    capsys.readouterr()  # drop anything printed before
    code = cli_main(argv)
    printed, err = capsys.readouterr()
    if code == 2:
        raise CliRefused(err)
    assert code == 0, f"exit code {code}; stderr: {err}"
    if suffix is None:
        source: Any = io.StringIO(printed)
    else:
        source = out.with_suffix(f".{suffix}.csv") if suffix else out
    keys = {c: str for c in ("group", "rater_a", "rater_b", *_names(opts.get("by")))}
    return pd.read_csv(source, dtype=keys, keep_default_na=False, na_values=[""])


def _names(by: Any) -> list[str]:
    return [] if by is None else [by] if isinstance(by, str) else list(by)


RUNS: dict[str, Callable[..., Any]] = {
    "accessor": _accessor,
    "crowd": _crowd,
    "counts_parts": _counts_parts,
    "counts_parquet": _counts_parquet,
    "counts_table": _counts_table,
    "cli": _cli,
    "cli_stream": _cli,
}


# ----------------------------------------------------------------------------- the door


def push(
    name: str,
    frame: pd.DataFrame,
    request: pytest.FixtureRequest,
    *,
    raters: Sequence[Any] | None = None,
    long: dict[str, str] | None = None,
) -> WayIn:
    """The pandas ``frame`` of ratings through the way in ``name``.

    ``raters`` names the rating columns (the long ways melt them; the command line gets
    them as ``--raters`` unless the call names its own); the other columns are kept
    beside each rating. ``long`` names the long layout's columns and keywords (default
    :data:`LONG`; ``{"item": ..., "rater": ..., "value": ...}`` for scores). ``request``
    gives the test's ``tmp_path`` (files), ``capsys`` (the command line), and the Dask
    and Spark fixtures, when the way needs them.
    """
    assert name in WAYS_IN, f"no way in named {name!r}; the ways: {', '.join(WAYS_IN)}"
    rater_list = None if raters is None else list(raters)
    options: dict[str, Any] = {}
    data: Any = frame
    base = name
    if name.startswith("long_") or name == "crowd":
        assert rater_list is not None, f"{name}: the long layout needs raters= (the columns)"
        options = dict(LONG if long is None else long)
        data = to_long(frame, rater_list, options)
        base = name.removeprefix("long_")
    if name in ("cli", "cli_stream"):
        data = str(write(frame, request.getfixturevalue("tmp_path"), "csv"))
    elif name not in ("counts_parts", "counts_parquet", "counts_table"):
        data = _carry(base, data, request)
    return WayIn(name, data, options, frame, rater_list, request, RUNS.get(name))


def ways(*names: str, without: Sequence[str] = ()) -> list[str]:
    """Way names for ``pytest.mark.parametrize``, each checked to exist (all by default)."""
    chosen = list(names or WAYS_IN)
    unknown = [n for n in (*chosen, *without) if n not in WAYS_IN]
    assert not unknown, f"no way in named {unknown}; the ways: {', '.join(WAYS_IN)}"
    return [n for n in chosen if n not in without]
