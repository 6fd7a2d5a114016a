"""polars adapter: polars columns -> codes, and result tables -> polars frames.

Imported only when a polars object is passed in (or polars is imported), so
``import kappaframe`` never imports polars.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any

import numpy as np
import polars as pl

from .._count.kernel import code_dtype
from .._encode.codes import Factorized, codes_of_offsets, compact_categorical, small_codes
from .._encode.sets import SetLabels, as_hashable, canonical_sets
from .._errors import KappaFrameError, KappaFrameTypeError
from .._schema import Table
from .pandas import SETS_HINT, factorize_array
from .parts import DEFAULT_BATCH_ROWS, BatchReader

__all__ = [
    "LazyReader",
    "PolarsFrame",
    "batches",
    "empty_frame",
    "factorize_keys",
    "factorize_labels",
    "factorize_sets",
    "name_dtype",
    "planned",
    "render",
    "schema_of",
]


def _missing(series: pl.Series) -> np.ndarray | None:
    mask = series.is_null()
    if series.dtype.is_float():
        mask = mask | series.is_nan().fill_null(False)
    return mask.to_numpy() if mask.any() else None


def _check_scalar(series: pl.Series, what: str = "labels") -> None:
    """Refuse a List, Array or Struct column: kappa compares single values."""
    dtype = series.dtype
    if dtype.is_nested():
        raise KappaFrameTypeError(
            f"column {series.name!r} has dtype {dtype}: {what} must be scalar values "
            "(numbers, strings, booleans, dates), not lists or structs; explode or pick a "
            f"field first, e.g. df.explode({series.name!r}) or "
            f"pl.col({series.name!r}).struct.field(...)."
            + (SETS_HINT if what == "labels" and isinstance(dtype, (pl.List, pl.Array)) else "")
        )


def check_dtypes(
    schema: dict[Hashable, Any], labels: Sequence[Hashable], keys: Sequence[Hashable]
) -> None:
    """Refuse, from a schema alone, label and group-key columns that hold lists or structs."""
    for names, what in ((labels, "labels"), (keys, "group keys")):
        for name in names:
            _check_scalar(pl.Series(str(name), [], dtype=schema[name]), what)


# Whole numbers up to these magnitudes are exact in each float type (and in float64
# arithmetic); integers are kept well inside int64 so that ``value - min`` cannot overflow.
# Float16 is left to hashing (polars' ``floor`` does not round it).
_EXACT_FLOAT = ((pl.Float32, 2**24), (pl.Float64, 2**53))
_EXACT_INT = 2**62


def _exact_limit(dtype: pl.DataType) -> int | None:
    if dtype.is_integer():
        return _EXACT_INT
    for float_type, limit in _EXACT_FLOAT:
        if dtype == float_type:
            return limit
    return None


def _by_offset(series: pl.Series) -> tuple[np.ndarray, np.ndarray] | None:
    """Codes of whole numbers in a narrow range, by their distance from the minimum.

    Returns the codes (``-1`` for null, and for NaN in a float column) and the distinct
    values, sorted, that the codes ``0, 1, ...`` stand for. ``None`` when the column is not
    numeric, holds a fraction, or spans a range longer than the column (hashing is then
    the cheaper way). No hash table and no Python object per row: min, max, one
    subtraction, and a look at which offsets occur.
    """
    limit = _exact_limit(series.dtype)
    if limit is None:
        return None
    is_float = series.dtype.is_float()
    if is_float and series.is_nan().any():
        series = series.fill_nan(None)
    n_rows = len(series)
    n_missing = series.null_count()
    if n_missing == n_rows:
        return np.full(n_rows, -1, dtype=np.int8), np.empty(0, dtype=np.int64)
    bounds: tuple[Any, Any] = (series.min(), series.max())  # numbers: the dtype is numeric
    low, high = bounds
    if not (-limit < low <= high < limit):  # also refuses inf
        return None
    if is_float and (series % 1 != 0).any():
        return None
    span = int(high - low) + 1
    if span > max(n_rows, 1024):
        return None
    # Offsets from ``low - 1``: 0 is a missing value (filled), 1 .. span the values.
    before = low - 1
    values = (series.fill_null(before) if n_missing else series).to_numpy()
    offsets = np.empty(n_rows, dtype=code_dtype(span))
    wide = np.float64 if is_float else np.int64
    np.subtract(values, before, out=offsets, dtype=wide, casting="unsafe")
    codes, kept = codes_of_offsets(offsets, span)
    return codes, kept + low


def _first_rows(codes: np.ndarray, n_uniques: int) -> np.ndarray:
    """The first row holding each code ``0 .. n_uniques - 1``."""
    first = np.empty(n_uniques + 1, dtype=np.intp)  # the extra slot takes the -1 codes
    first[codes[::-1]] = np.arange(len(codes) - 1, -1, -1, dtype=np.intp)
    return first[:n_uniques]


def _by_enum(series: pl.Series, sort: bool = False) -> tuple[np.ndarray, list[Any]] | None:
    """Codes of a String or Categorical column through an Enum of its distinct values.

    Hashing in polars: the strings become Python objects only once per distinct value.
    ``sort`` puts the values (and so the codes) in sorted order. ``None`` when most values
    are distinct (ids, say): an Enum that large costs more than hashing in pandas.
    """
    # HyperLogLog, one cheap pass (an expression: Series.approx_n_unique is recent).
    estimate = series.to_frame().select(pl.first().approx_n_unique()).item()
    if estimate > len(series) // 4:
        return None
    distinct = series.drop_nulls().unique(maintain_order=not sort).cast(pl.String)
    if sort:
        distinct = distinct.sort()
    physical = series.cast(pl.Enum(distinct)).to_physical()
    n_uniques = len(distinct)
    if physical.null_count():
        physical = physical.fill_null(n_uniques)
    lookup = np.arange(-1, n_uniques, dtype=code_dtype(n_uniques))
    lookup = np.roll(lookup, -1)  # code n_uniques (a filled null) -> -1
    return lookup.take(physical.to_numpy()), distinct.to_list()


def factorize_labels(series: pl.Series) -> Factorized:
    """Codes (-1 missing: null, and NaN in float columns) and distinct labels of a Series.

    An Enum keeps its declared categories. Whole numbers in a narrow range are coded by
    their distance from the minimum, strings and Categoricals through an Enum of their
    distinct values; other columns are hashed by pandas.
    """
    _check_scalar(series)
    dtype = series.dtype
    if isinstance(dtype, pl.Enum):
        cats = dtype.categories.to_list()
        codes = series.to_physical().cast(pl.Int64).fill_null(-1).to_numpy()
        return Factorized(small_codes(codes, len(cats)), cats, cats)
    if isinstance(dtype, pl.Categorical):
        physical = _by_offset(series.to_physical())
        if physical is not None:  # the category ids are dense: read one row per id
            codes, ids = physical
            n_uniques = len(ids)
            names = series.gather(_first_rows(codes, n_uniques)).cast(pl.String)
            return Factorized(small_codes(codes, n_uniques), names.to_list())
    if dtype == pl.String or isinstance(dtype, pl.Categorical):
        coded = _by_enum(series)
        if coded is not None:
            return Factorized(*coded)
        series = series.cast(pl.String)
    offset = _by_offset(series)
    if offset is not None:
        codes, values = offset
        return Factorized(small_codes(codes, len(values)), values.tolist())
    if dtype.is_float():
        # null -> NaN: pandas' factorize codes NaN as missing, no mask needed.
        return factorize_array(series.fill_null(float("nan")).to_numpy())
    missing = _missing(series)
    if missing is not None:
        # Fill nulls with an existing value so the array keeps its dtype (ints stay ints).
        first = series.drop_nulls()
        filled = series.fill_null(first[0]) if len(first) else series
        return factorize_array(filled.to_numpy(), missing)
    return factorize_array(series.to_numpy(), missing)


def factorize_sets(series: pl.Series, sets: SetLabels) -> Factorized:
    """Codes (-1 missing) and distinct label sets of a List column, or of text with a separator.

    See ``kappaframe._encode.sets``: a ``List`` (or ``Array``) cell is the set of its
    elements, an empty list the empty set, a null missing; other columns are factorized
    as labels and their distinct values read as sets.
    """
    dtype = series.dtype
    if isinstance(dtype, (pl.List, pl.Array)):
        values = np.empty(len(series), dtype=object)
        values[:] = [as_hashable(v, series.name) for v in series.to_list()]
        fact = factorize_array(values)
    else:
        if dtype.is_nested():
            _check_scalar(series)
        fact = factorize_labels(series)
    return canonical_sets(fact, series.name, sets)


def factorize_keys(series: pl.Series, name: Hashable) -> tuple[np.ndarray, int]:
    """Codes of a group-key column in sorted key order (-1 = null or NaN) and the key count.

    An Enum sorts by its declared order, a Categorical by its values.
    """
    _check_scalar(series, "group keys")
    if series.dtype == pl.Null:  # every key missing: one group, whose key is null
        return np.full(len(series), -1, dtype=np.intp), 0
    if isinstance(series.dtype, pl.Enum):
        physical = series.to_physical()
        fact = compact_categorical(
            physical.cast(pl.Int64).fill_null(-1).to_numpy(), series.dtype.categories.to_list()
        )
        return fact.codes, len(fact.uniques)
    if series.dtype == pl.String or isinstance(series.dtype, pl.Categorical):
        coded = _by_enum(series, sort=True)
        if coded is not None:
            return coded[0].astype(np.intp), len(coded[1])
        series = series.cast(pl.String)
    offset = _by_offset(series)
    if offset is not None:
        return offset[0].astype(np.intp), len(offset[1])
    missing = _missing(series)
    distinct = series.drop_nulls()
    if series.dtype.is_float():
        distinct = distinct.filter(distinct.is_not_nan())
    try:
        distinct = distinct.unique().sort()
    except Exception as err:  # polars raises its own error types
        raise KappaFrameError(
            f"group column {name!r} holds values that cannot be sorted ({err})."
        ) from None
    codes = distinct.search_sorted(series.fill_null(distinct[0]) if len(distinct) else series)
    codes_np = np.asarray(codes.to_numpy(), dtype=np.intp)
    if missing is not None:
        codes_np[missing] = -1
    return codes_np, len(distinct)


class PolarsFrame:
    """A polars DataFrame or LazyFrame seen through the adapter interface.

    A LazyFrame is collected once, with only the needed columns, by ``load``; the
    result is handed back lazy.
    """

    def __init__(self, frame: pl.DataFrame | pl.LazyFrame) -> None:
        self.lazy = isinstance(frame, pl.LazyFrame)
        self.source = frame
        self.frame: pl.DataFrame | None = frame if isinstance(frame, pl.DataFrame) else None
        self.output = "lazy" if self.lazy else "polars"

    def columns(self) -> list[Hashable]:
        if self.lazy:
            return list(self.source.collect_schema().names())
        return list(self.source.columns)

    def load(self, needed: list[Hashable]) -> None:
        if isinstance(self.source, pl.LazyFrame):
            self.frame = self.source.select([str(c) for c in needed]).collect()

    def _eager(self) -> pl.DataFrame:
        if self.frame is None:  # pragma: no cover - load() is always called first
            raise RuntimeError("PolarsFrame.load() was not called")
        return self.frame

    @property
    def n_rows(self) -> int:
        return self._eager().height

    def labels(self, name: Hashable) -> Factorized:
        return factorize_labels(self._eager().get_column(str(name)))

    def set_labels(self, name: Hashable, sets: SetLabels) -> Factorized:
        return factorize_sets(self._eager().get_column(str(name)), sets)

    def keys(self, name: Hashable) -> tuple[np.ndarray, int]:
        return factorize_keys(self._eager().get_column(str(name)), name)

    def render(self, table: Table) -> pl.DataFrame | pl.LazyFrame:
        out = render(table, self.frame)
        return out.lazy() if self.lazy else out


def render(table: Table, source: pl.DataFrame | None = None) -> pl.DataFrame:
    """Build the polars frame a ``Table`` describes (no index: index columns lead)."""
    data: list[pl.Series] = []
    for col in table.columns:
        name = str(col.name)
        if col.kind == "key":
            assert source is not None
            data.append(source.get_column(str(col.source)).gather(col.values).alias(name))
        elif col.kind == "enum":
            labels = list(col.categories)
            codes = pl.Series(name, col.values.astype(np.int64))
            values = pl.Series(name, labels, dtype=pl.String)
            strings = values.gather(codes.clip(lower_bound=0))
            strings = pl.select(
                pl.when(codes >= 0).then(strings).otherwise(None).alias(name)
            ).to_series()
            data.append(strings.cast(pl.Enum(labels)))
        elif col.kind == "flag":
            given = np.asarray(col.values)
            flags = pl.Series(name, given == 1, dtype=pl.Boolean)
            data.append(pl.select(pl.when(pl.Series(given >= 0)).then(flags)).to_series())
        elif col.kind == "name" and len(col.categories):
            distinct = _series_of_labels(name, list(col.categories))
            data.append(distinct.gather(np.asarray(col.values, dtype=np.int64)))
        elif col.kind in ("name", "label"):
            data.append(_series_of_labels(name, list(col.values)))
        else:
            data.append(pl.Series(name, col.values))
    return pl.DataFrame(data)


def _series_of_labels(name: str, values: list[Any]) -> pl.Series:
    try:
        return pl.Series(name, values, strict=True)
    except (TypeError, pl.exceptions.PolarsError):
        return pl.Series(name, [None if v is None else str(v) for v in values], dtype=pl.String)


class LazyReader(BatchReader):
    """A polars LazyFrame as polars parts: streamed batches of the needed columns.

    ``lazy.select(needed).collect_batches()`` (streamed where polars can); the long layout
    collects its needed columns once (every rating of an item must be together). Results
    come back as a LazyFrame.
    """

    output = "lazy"
    batch_size = DEFAULT_BATCH_ROWS

    def __init__(self, frame: pl.LazyFrame) -> None:
        self.source = frame

    def columns(self) -> list[Hashable]:
        return list(self.source.collect_schema().names())

    def empty(self) -> pl.DataFrame:
        return pl.DataFrame(schema=self.source.collect_schema())

    def wrap(self) -> Callable[[Any], Any]:
        return PolarsFrame

    def parts(self, columns: Sequence[Hashable]) -> Iterator[pl.DataFrame]:
        return batches(self.source.select([str(c) for c in columns]), self.batch_size)

    def whole(self, columns: Sequence[Hashable], compact: Sequence[Hashable] = ()) -> pl.DataFrame:
        return self.source.select([str(c) for c in columns]).collect()


def batches(query: pl.LazyFrame, size: int) -> Iterator[pl.DataFrame]:
    """Eager DataFrames of a LazyFrame query, streamed when polars can."""
    collect_batches = getattr(query, "collect_batches", None)
    if collect_batches is None:  # pragma: no cover - polars before collect_batches
        yield query.collect()
        return
    # Counts do not depend on row order, so polars need not keep it.
    yield from collect_batches(chunk_size=size, maintain_order=False)


def name_dtype(dtype: pl.DataType) -> pl.DataType:
    """The dtype rater ids of a column of ``dtype`` have as ``rater_a``/``rater_b`` names.

    Names are rendered from Python values (``render``): categorical ids become
    strings, integers Int64, floats Float64.
    """
    if isinstance(dtype, (pl.Categorical, pl.Enum)):
        return pl.String()
    if dtype.is_integer():
        return pl.Int64()
    if dtype.is_float():
        return pl.Float64()
    return dtype


def planned(
    source: pl.LazyFrame,
    compute: Callable[[pl.LazyFrame], Any],
    schema: dict[Hashable, Any],
) -> pl.LazyFrame:
    """A LazyFrame that runs ``compute(source)`` when collected.

    ``compute`` reads ``source`` as any LazyFrame input is read (the needed columns, in
    batches: memory set by the batch size) and returns the result, whose columns are cast
    to ``schema``: the schema polars reports for the plan before anything runs. Nothing is
    read until the plan is collected, so the numbers are those of the data at
    ``.collect()``, and the plan composes with further lazy steps (``filter``, ``join``,
    ``select``).
    """
    target = pl.Schema({str(k): v for k, v in schema.items()})

    def run(_: pl.DataFrame) -> pl.DataFrame:
        out = compute(source)
        if isinstance(out, pl.LazyFrame):
            out = out.collect()
        return out.select([pl.col(n).cast(t) for n, t in target.items()])

    # One placeholder row: the plan's own input; the data is read by ``compute``.
    return pl.LazyFrame({"plan": [0]}).map_batches(run, schema=target, streamable=False)


def schema_of(frame: pl.LazyFrame | pl.DataFrame) -> dict[Hashable, Any]:
    """Column name -> dtype, from the frame's schema (a LazyFrame reads metadata only)."""
    return dict(frame.collect_schema().items())


def empty_frame(schema: dict[Hashable, Any]) -> pl.DataFrame:
    """An eager DataFrame of ``schema`` with no rows."""
    return pl.DataFrame(schema={str(k): v for k, v in schema.items()})
