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

from .._encode.layout import LongLayout
from .._errors import KappaFrameError, KappaFrameTypeError, optional_import

__all__ = ["EngineFrame", "engine_frame"]

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
        layout: LongLayout,
        raters: Sequence[Hashable],
        duplicates: str,
    ) -> Any:
        """The cells of every pair of raters that rated an item, as pandas."""
        nw = _narwhals()
        schema = self.frame.collect_schema()
        item, rater, label = str(layout.item), str(layout.rater), str(layout.label)
        keys, named = [str(b) for b in by], LongLayout(item, rater, label)
        ratings = self.frame
        if raters:
            ratings = ratings.filter(nw.col(rater).is_in(list(raters)))
        self._check_duplicates(nw, ratings, keys, named, duplicates)
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
        nw: Any, ratings: Any, keys: list[str], layout: LongLayout, duplicates: str
    ) -> None:
        """Refuse two ratings of one item by one rater (``layout``: the columns' names)."""
        item, rater = str(layout.item), str(layout.rater)
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
