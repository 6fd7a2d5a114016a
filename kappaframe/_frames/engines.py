"""Lazy SQL engines (DuckDB relations, PySpark DataFrames): counted there, finalised here.

Every statistic of a rater pair is a function of its K x K table of counts, and those
tables are a ``GROUP BY ... COUNT(*)``. So an engine input is never brought into Python:
one query, written with narwhals' lazy API, counts the cells in the engine (the cell
layout of ``kappaframe.Counts.from_frame``: the ``by`` columns, ``rater_a``,
``rater_b``, ``label_a``, ``label_b``, ``count``, each rater paired with themself
included), and only those cells travel back, as a small pandas frame.

- Wide layout (one column per rater): one ``group_by(by, a, b).len()`` per pair of rater
  columns (and per rater with themself), as one union.
- Long layout (one row per rating): the ratings joined with themselves on the item within
  its group, ``rater_a <= rater_b``, then one ``group_by(by, rater_a, rater_b, label_a,
  label_b).len()``.

Missing labels (null, and NaN in float columns) are dropped before counting, pair by pair
as everywhere in kappaframe. narwhals is imported here only, and only for such an input.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from typing import Any

from .._errors import KappaFrameError, KappaFrameTypeError, optional_import

__all__ = ["EngineFrame", "engine_frame", "long_sums", "wide_sums"]

#: Top-level modules of the native frames narwhals reads lazily.
ENGINES = ("duckdb", "pyspark", "sqlframe")


def _narwhals() -> Any:
    return optional_import("narwhals.stable.v2", "reading a DuckDB relation or a Spark DataFrame")


def engine_frame(data: Any) -> EngineFrame | None:
    """An ``EngineFrame`` for a DuckDB relation or a PySpark DataFrame; else None."""
    module = type(data).__module__.split(".")[0]
    if module not in ENGINES or module not in sys.modules:
        return None
    nw = _narwhals()
    try:
        frame = nw.from_native(data)
    except TypeError:
        return None
    if not isinstance(frame, nw.LazyFrame):
        return None
    return EngineFrame(frame)


class EngineFrame:
    """A narwhals LazyFrame over an engine; counts its cells with one query there.

    Attributes
    ----------
    output : str
        Results come back as pandas frames (the cells are small; the engine's own frame
        types are not built from NumPy columns).
    """

    output = "pandas"

    def __init__(self, frame: Any) -> None:
        self.frame = frame

    @property
    def engine(self) -> str:
        return str(self.frame.implementation).rsplit(".", 1)[-1].lower()

    def columns(self) -> list[Hashable]:
        return list(self.frame.collect_schema().names())

    def empty(self) -> Any:
        """A pandas frame of the input's columns and types, no rows (a ``LIMIT 0`` query)."""
        return _to_pandas(self.frame.head(0))

    def wide_cells(self, raters: Sequence[Hashable], by: Sequence[Hashable]) -> Any:
        """The cells of every pair of rater columns (and each with itself), as pandas."""
        nw = _narwhals()
        schema = self.frame.collect_schema()
        label = _common_dtype(nw, [schema[str(r)] for r in raters], raters)
        keys = [str(b) for b in by]
        parts = []
        for i, a in enumerate(raters):
            for b in raters[i:]:
                a, b = str(a), str(b)
                pair = [a] if a == b else [a, b]
                kept = self.frame.filter(*[_present(nw, c, schema[c]) for c in pair])
                counted = kept.group_by(*keys, *pair).agg(nw.len().alias("count"))
                parts.append(
                    counted.select(
                        *[nw.col(k) for k in keys],
                        nw.lit(a).alias("rater_a"),
                        nw.lit(b).alias("rater_b"),
                        nw.col(a).cast(label).alias("label_a"),
                        nw.col(b).cast(label).alias("label_b"),
                        nw.col("count").cast(nw.Int64()),
                    )
                )
        return _to_pandas(nw.concat(parts, how="vertical"))

    def long_cells(
        self,
        by: Sequence[Hashable],
        item: Hashable,
        rater: Hashable,
        label: Hashable,
        raters: Sequence[Hashable],
        duplicates: str,
    ) -> Any:
        """The cells of every pair of raters that rated an item, as pandas."""
        nw = _narwhals()
        schema = self.frame.collect_schema()
        keys, item, rater, label = [str(b) for b in by], str(item), str(rater), str(label)
        ratings = self.frame
        if raters:
            ratings = ratings.filter(nw.col(rater).is_in(list(raters)))
        self._check_duplicates(nw, ratings, keys, item, rater, duplicates)
        ratings = ratings.filter(_present(nw, label, schema[label]))
        other = [f"__kappaframe_by_{i}" for i in range(len(keys))]
        left = ratings.select(
            *[nw.col(k) for k in keys],
            nw.col(item),
            nw.col(rater).alias("rater_a"),
            nw.col(label).alias("label_a"),
        )
        right = ratings.select(
            *[nw.col(k).alias(o) for k, o in zip(keys, other, strict=True)],
            nw.col(item),
            nw.col(rater).alias("rater_b"),
            nw.col(label).alias("label_b"),
        )
        # Items are identified within their group; a missing group key is a group too.
        same = [
            (nw.col(k) == nw.col(o)) | (nw.col(k).is_null() & nw.col(o).is_null())
            for k, o in zip(keys, other, strict=True)
        ]
        pairs = left.join(right, on=item).filter(nw.col("rater_a") <= nw.col("rater_b"), *same)
        cells = pairs.group_by(*keys, "rater_a", "rater_b", "label_a", "label_b").agg(
            nw.len().cast(nw.Int64()).alias("count")
        )
        return _to_pandas(cells)

    @staticmethod
    def _check_duplicates(
        nw: Any, ratings: Any, keys: list[str], item: str, rater: str, duplicates: str
    ) -> None:
        if duplicates != "raise":
            raise KappaFrameError(
                f"duplicates={duplicates!r} keeps a rating by row order, and a SQL engine's "
                "rows have none: deduplicate in the engine first (e.g. keep the latest rating "
                "per item and rater), then call with duplicates='raise'."
            )
        twice = _to_pandas(
            ratings.group_by(*keys, item, rater)
            .agg(nw.len().alias("__kappaframe_n"))
            .filter(nw.col("__kappaframe_n") > 1)
            .head(1)
        )
        if len(twice):
            row = twice.iloc[0]
            raise KappaFrameError(
                f"rater {row[rater]!r} labeled item {row[item]!r} more than once; keep one "
                "rating per item and rater in the engine first."
            )


def _to_pandas(query: Any) -> Any:
    """Run ``query`` in its engine; the (small) answer as a pandas frame, through Arrow."""
    return query.collect(backend="pyarrow").to_native().to_pandas()


def _present(nw: Any, name: str, dtype: Any) -> Any:
    """A label that is there: not null, and not NaN in a float column."""
    present = ~nw.col(name).is_null()
    if dtype.is_float():
        present = present & ~nw.col(name).is_nan()
    return present


def _common_dtype(nw: Any, dtypes: list[Any], raters: Sequence[Hashable]) -> Any:
    """One label dtype for every rater column, so that their cells stack in one column."""
    for r, d in zip(raters, dtypes, strict=True):
        if d.is_nested():
            raise KappaFrameTypeError(
                f"column {r!r} holds {d} values: labels must be scalar values (numbers, "
                "strings, booleans, dates); unnest the column or pick a field first.",
                option="raters",
            )
    first = dtypes[0]
    if all(d == first for d in dtypes):
        return first
    if all(d.is_numeric() for d in dtypes):
        return nw.Float64() if any(d.is_float() for d in dtypes) else nw.Int64()
    kinds = ", ".join(f"{r!r}: {d}" for r, d in zip(raters, dtypes, strict=True))
    raise KappaFrameError(
        f"rater columns hold labels of types that cannot be compared ({kinds}); cast them "
        "to one type first."
    )


# ---- numeric ratings: the additive sums of the intraclass correlation, in the engine ----
#
# Per group, over the complete items (every rater scored them): their number, the sum and
# the sum of squares of their scores, the sum of their squared item totals and each
# rater's total (``kappaframe._stats.icc.IccSums``); and the items left out for a missing
# score. One ``GROUP BY`` (wide layout) or three (long layout); a few numbers per group
# travel back.

#: Prefix of the helper columns of the sums' queries.
_SUMS = "__kappaframe_"


def _check_numeric(engine: EngineFrame, name: str, dtype: Any, option: str) -> None:
    """Refuse a column that does not hold numbers, naming it and one of its values."""
    if dtype.is_numeric():
        return
    nw = _narwhals()
    shown = _to_pandas(engine.frame.filter(~nw.col(name).is_null()).select(name).head(1))
    value = shown.iloc[0, 0] if len(shown) else None
    raise KappaFrameTypeError(
        f"column {name!r} holds {value!r} ({dtype}): numeric ratings must be numbers "
        "(int or float; missing as NaN or null). Cast the column in the engine first, or "
        "use pairwise()/overall() for categorical labels.",
        option=option,
    )


def _shift(engine: EngineFrame, name: str, dtype: Any) -> float:
    """One score of column ``name`` (a ``LIMIT 1`` query; 0 when it has none).

    Subtracted from every score before summing, so that the sums of squares keep the
    spread of scores whose mean is large (the mean squares do not depend on it).
    """
    nw = _narwhals()
    first = _to_pandas(engine.frame.filter(_present(nw, name, dtype)).select(name).head(1))
    return float(first.iloc[0, 0]) if len(first) else 0.0


def wide_sums(
    engine: EngineFrame, raters: Sequence[Hashable], by: Sequence[Hashable]
) -> tuple[Any, float]:
    """The sums of one column per rater, per group, as pandas (one row per group).

    Columns: the ``by`` columns, ``count``, ``dropped``, ``total``, ``squares``,
    ``item_squares``, then ``rater_0`` ... ``rater_{k-1}``; of the scores minus the shift
    returned with them.
    """
    nw = _narwhals()
    schema = engine.frame.collect_schema()
    names = [str(r) for r in raters]
    for name in names:
        _check_numeric(engine, name, schema[name], "raters")
    keys = [str(b) for b in by]
    present = [_present(nw, c, schema[c]) for c in names]
    complete = present[0]
    rated = present[0]
    for p in present[1:]:
        complete = complete & p
        rated = rated | p
    shift = _shift(engine, names[0], schema[names[0]])
    x = [
        nw.when(complete).then(nw.col(c).cast(nw.Float64()) - nw.lit(shift)).otherwise(nw.lit(0.0))
        for c in names
    ]
    row = x[0]
    row_sq = x[0] * x[0]
    for e in x[1:]:
        row = row + e
        row_sq = row_sq + e * e
    rows = engine.frame.select(
        *[nw.col(k) for k in keys],
        complete.cast(nw.Int64()).alias(f"{_SUMS}count"),
        (rated & ~complete).cast(nw.Int64()).alias(f"{_SUMS}dropped"),
        row.alias(f"{_SUMS}total"),
        row_sq.alias(f"{_SUMS}squares"),
        (row * row).alias(f"{_SUMS}item_squares"),
        *[e.alias(f"{_SUMS}rater_{j}") for j, e in enumerate(x)],
    )
    outputs = ["count", "dropped", "total", "squares", "item_squares"]
    outputs += [f"rater_{j}" for j in range(len(names))]
    sums = [nw.col(f"{_SUMS}{o}").sum().alias(o) for o in outputs]
    query = rows.group_by(*keys).agg(*sums) if keys else rows.select(*sums)
    return _to_pandas(query), shift


def long_sums(
    engine: EngineFrame,
    by: Sequence[Hashable],
    item: Hashable,
    rater: Hashable,
    value: Hashable,
    raters: Sequence[Hashable],
    duplicates: str,
) -> tuple[list[Any], Any, Any, Any, float]:
    """The sums of the long layout (one row per score), per group, as pandas frames.

    Returns the rater ids (those asked for, else every id, sorted), the per-group item
    sums (``by``, ``count``, ``total``, ``squares``, ``item_squares``), each rater's
    total (``by``, ``rater``, ``rater_total``), the items left out (``by``,
    ``dropped``) and the shift subtracted from every score before summing. An item is
    complete when each of the raters scored it.
    """
    nw = _narwhals()
    schema = engine.frame.collect_schema()
    keys, item, rater, value = [str(b) for b in by], str(item), str(rater), str(value)
    _check_numeric(engine, value, schema[value], "value")
    ratings = engine.frame
    if raters:
        ratings = ratings.filter(nw.col(rater).is_in(list(raters)))
        ids = list(raters)
    else:
        found = _to_pandas(ratings.select(nw.col(rater)).unique())[rater].tolist()
        try:
            ids = sorted(found)
        except TypeError:
            ids = found
    EngineFrame._check_duplicates(nw, ratings, keys, item, rater, duplicates)
    shift = _shift(engine, value, schema[value])
    scored = ratings.filter(_present(nw, value, schema[value])).select(
        *[nw.col(k) for k in keys],
        nw.col(item),
        nw.col(rater),
        (nw.col(value).cast(nw.Float64()) - nw.lit(shift)).alias(f"{_SUMS}x"),
    )
    per_item = scored.group_by(*keys, item).agg(
        nw.len().alias(f"{_SUMS}m"),
        nw.col(f"{_SUMS}x").sum().alias(f"{_SUMS}row"),
        (nw.col(f"{_SUMS}x") ** 2).sum().alias(f"{_SUMS}row_sq"),
    )
    k = len(ids)
    complete = per_item.filter(nw.col(f"{_SUMS}m") == k)
    item_sums = [
        nw.len().alias("count"),
        nw.col(f"{_SUMS}row").sum().alias("total"),
        nw.col(f"{_SUMS}row_sq").sum().alias("squares"),
        (nw.col(f"{_SUMS}row") ** 2).sum().alias("item_squares"),
    ]
    left_out = per_item.filter(nw.col(f"{_SUMS}m") < k)
    if keys:
        groups = _to_pandas(complete.group_by(*keys).agg(*item_sums))
        dropped = _to_pandas(left_out.group_by(*keys).agg(nw.len().alias("dropped")))
    else:
        groups = _to_pandas(complete.select(*item_sums))
        dropped = _to_pandas(left_out.select(nw.len().alias("dropped")))
    # Each rater's total over the complete items: the scores of the items scored k times.
    counted = scored.with_columns(nw.len().over(*keys, item).alias(f"{_SUMS}m"))
    totals = (
        counted.filter(nw.col(f"{_SUMS}m") == k)
        .group_by(*keys, rater)
        .agg(nw.col(f"{_SUMS}x").sum().alias("rater_total"))
    )
    return ids, groups, _to_pandas(totals), dropped, shift
