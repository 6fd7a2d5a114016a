"""Lazy SQL engines (DuckDB, PySpark, Ibis tables): counted there, finalised here.

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
An Ibis table (any of its backends: ``kappaframe._frames.warehouse``) is read the same way.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from typing import Any, Literal

from .._encode.ids import NotRatings
from .._encode.layout import LongLayout
from .._errors import KappaFrameError, KappaFrameTypeError, optional_import
from .warehouse import IBIS, WAY_OUT, ibis_engine, is_ibis, refused_by_backend

__all__ = ["EngineFrame", "engine_frame"]

#: Top-level modules of the native frames narwhals reads lazily.
ENGINES = ("duckdb", "pyspark", "sqlframe", IBIS)


def _narwhals() -> Any:
    return optional_import(
        "narwhals.stable.v2", "reading a DuckDB relation, an Ibis table or a Spark DataFrame"
    )


def engine_frame(data: Any) -> EngineFrame | None:
    """An ``EngineFrame`` for a DuckDB relation, an Ibis table or a PySpark DataFrame."""
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
        if is_ibis(self.frame):
            return ibis_engine(self.frame)
        return str(self.frame.implementation).rsplit(".", 1)[-1].lower()

    @property
    def way_out(self) -> str | None:
        """How to bring this input's rows into pandas or polars (None: as messages say)."""
        return WAY_OUT if is_ibis(self.frame) else None

    def columns(self) -> list[Hashable]:
        return list(self.frame.collect_schema().names())

    def empty(self) -> Any:
        """A pandas frame of the input's columns and types, no rows (a ``LIMIT 0`` query)."""
        return _to_pandas(self.frame.head(0))

    def refuse_not_ratings(
        self, columns: Sequence[Hashable], kind: Literal["labels", "scores"]
    ) -> None:
        """Refuse the columns taken as raters by default that hold ids or scores.

        One aggregate query gives the facts of each column the rule of
        ``kappaframe._encode.ids.NotRatings`` needs (its labelled rows, distinct values,
        whether they are whole numbers, one that is not); the rule decides here.
        """
        nw = _narwhals()
        schema = self.frame.collect_schema()
        names = [str(c) for c in columns]
        exprs = [nw.len().alias("__kappaframe_rows")]
        apart: dict[int, str] = {}  # Ibis: distinct values counted apart (_distinct_apart)
        for i, name in enumerate(names):
            dtype = schema[name]
            if _declared(nw, dtype) or dtype.is_nested():  # nested: refused as labels later
                continue
            facts = _facts(nw, name, dtype)
            if is_ibis(self.frame):
                del facts["distinct"]
                apart[i] = name
            exprs += [e.alias(f"__kappaframe_{k}_{i}") for k, e in facts.items()]
        if len(exprs) == 1:
            return
        answer = _to_pandas(self.frame.select(*exprs)).iloc[0]
        rows = int(answer["__kappaframe_rows"])
        distinct_apart = _distinct_apart(nw, self.frame, schema, apart)
        rule = NotRatings(kind)
        for i, (column, name) in enumerate(zip(columns, names, strict=True)):
            dtype = schema[name]
            if _declared(nw, dtype) or dtype.is_nested():
                rule.counted(column, 0, 0, False, declared=True)
                continue
            got = {k: answer.get(f"__kappaframe_{k}_{i}") for k in _FACTS}
            labelled = int(got["labelled"])
            if i in apart:
                got["distinct"] = distinct_apart.get(i, 0) + (labelled < rows)
            distinct = int(got["distinct"]) - (labelled < rows)  # null counts as one value
            numbers = dtype.is_numeric() or dtype == nw.String()
            whole = labelled if dtype.is_integer() else int(got["whole"] or 0)
            written = labelled if dtype.is_numeric() else int(got["written"] or 0)
            fraction = got["fraction"] if numbers and written == labelled else None
            if fraction is not None and fraction != fraction:  # NaN: none is not whole
                fraction = None
            rule.counted(column, labelled, distinct, whole == labelled, _scalar(fraction))
        rule.refuse()

    def check_labels(self, raters: Sequence[Hashable]) -> None:
        """Refuse rater columns of nested values or of types that cannot be compared."""
        schema = self.frame.collect_schema()
        _common_dtype(_narwhals(), [schema[str(r)] for r in raters], raters)

    def wide_cells(
        self, raters: Sequence[Hashable], by: Sequence[Hashable], own: bool = True
    ) -> Any:
        """The cells of every pair of rater columns (and each with itself if ``own``), as pandas."""
        nw = _narwhals()
        schema = self.frame.collect_schema()
        label = _common_dtype(nw, [schema[str(r)] for r in raters], raters)
        keys = [str(b) for b in by]
        parts = []
        for i, a in enumerate(raters):
            for b in raters[i if own else i + 1 :]:
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

    def refuse_duplicates(
        self,
        by: Sequence[Hashable],
        layout: LongLayout,
        raters: Sequence[Hashable],
        duplicates: str,
    ) -> None:
        """Refuse two ratings of one item by one rater (of ``raters``, if any), as long_cells."""
        nw = _narwhals()
        ratings = self.frame
        if raters:
            ratings = ratings.filter(nw.col(str(layout.rater)).is_in(list(raters)))
        named = LongLayout(str(layout.item), str(layout.rater), str(layout.label))
        self._check_duplicates(nw, ratings, [str(b) for b in by], named, duplicates)

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
    with refused_by_backend(query):
        return query.collect(backend="pyarrow").to_native().to_pandas()


def _present(nw: Any, name: str, dtype: Any) -> Any:
    """A label that is there: not null, and not NaN in a float column."""
    present = ~nw.col(name).is_null()
    if dtype.is_float():
        present = present & ~nw.col(name).is_nan()
    return present


def _distinct_apart(nw: Any, frame: Any, schema: Any, names: dict[int, str]) -> dict[int, int]:
    """The distinct labels of each column ``names[i]``, from one query (a union).

    For Ibis tables, whose ``n_unique`` in narwhals casts a boolean to a number, which
    PostgreSQL refuses. A column with no label has no row in the answer.
    """
    if not names:
        return {}
    parts = [
        frame.filter(_present(nw, name, schema[name]))
        .select(nw.col(name))
        .unique()
        .select(
            nw.lit(i).cast(nw.Int64()).alias("__kappaframe_column"),
            nw.len().cast(nw.Int64()).alias("__kappaframe_distinct"),
        )
        for i, name in names.items()
    ]
    answer = _to_pandas(nw.concat(parts, how="vertical"))
    pairs = zip(answer["__kappaframe_column"], answer["__kappaframe_distinct"], strict=True)
    return {int(i): int(n) for i, n in pairs}


def _ones(nw: Any, condition: Any) -> Any:
    """1 where ``condition`` holds, else 0 (PostgreSQL casts no boolean to a bigint)."""
    return nw.when(condition).then(nw.lit(1)).otherwise(nw.lit(0)).cast(nw.Int64())


#: The facts of one column the rule for columns that are not ratings needs (``_facts``).
_FACTS = ("labelled", "distinct", "whole", "written", "fraction")

#: Text written as a number (as ``kappaframe._encode.ids`` reads it), and as a whole one.
_WRITTEN = r"^-?[0-9]+(\.[0-9]+)?$"
_WRITTEN_WHOLE = r"^-?[0-9]+(\.0+)?$"


def _declared(nw: Any, dtype: Any) -> bool:
    """A dtype that declares its categories (an enum): never an id."""
    return isinstance(dtype, (nw.Enum, nw.Categorical))


def _facts(nw: Any, name: str, dtype: Any) -> dict[str, Any]:
    """Aggregates of column ``name``, the facts ``NotRatings.counted`` needs.

    Its labelled rows, its distinct values (a missing one counted as one); of numbers (or
    text written as one), how many are whole numbers, how many are numbers, and the least
    that is not whole (null when none). Whole numbers by type, and values that are not
    numbers (booleans, dates), need no aggregate.
    """
    col = nw.col(name)
    present = _present(nw, name, dtype)
    facts = {
        "labelled": _ones(nw, present).sum(),
        "distinct": nw.when(present).then(col).n_unique(),
    }
    if dtype.is_numeric() and not dtype.is_integer():
        finite = present & col.is_finite() if dtype.is_float() else present
        whole = finite & (col == col.floor())
        facts["whole"] = _ones(nw, whole).sum()
        facts["fraction"] = nw.when(finite & ~whole).then(col).min()
    elif dtype == nw.String():
        written = present & col.str.contains(_WRITTEN)
        whole = present & col.str.contains(_WRITTEN_WHOLE)
        facts["whole"] = _ones(nw, whole).sum()
        facts["written"] = _ones(nw, written).sum()
        facts["fraction"] = nw.when(written & ~whole).then(col).min()
    return facts


def _scalar(value: Any) -> Any:
    """A value of an answer as a Python scalar (as the eager reading shows it)."""
    return value.item() if hasattr(value, "item") else value


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
