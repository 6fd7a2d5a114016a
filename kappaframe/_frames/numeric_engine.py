"""Numeric ratings in a SQL engine (DuckDB, PySpark, Ibis): their sums, computed there.

The one engine module of the statistics of scores. Written with narwhals' lazy API; the
queries run in the engine and only their small answers travel, as pandas frames. Every
rating column is checked numeric first (a text column is named with one of its values).

- Lin's CCC and Bland-Altman (``engine_means``, ``engine_pair_sums``,
  ``engine_long_sums``): per group and pair of raters ``a <= b``, six sums over the items
  both rated (their number, the sums of ``a`` and of ``b`` about an origin, their sums of
  squares, the sum of cross products). The origin is each rater's mean (wide layout) or
  the mean of every rating (long layout), so that no digits are lost to a large offset.
- The intraclass correlation (``wide_sums``, ``long_sums``): per group, over the items
  every rater scored, their number, the sum and sum of squares of their scores, the sum
  of their squared item totals and each rater's total, and the items left out.

The long layout (one row per rating) is joined with itself on the item within its group
(pairs), or summed per item (complete items). A missing rating is null, or NaN in a float
column. ``kappaframe._api.numeric`` turns the answers into what each statistic needs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from .._encode.layout import LongLayout
from .engines import EngineFrame, _narwhals, _ones, _present, _to_pandas
from .numeric import not_a_number

__all__ = [
    "SUM_NAMES",
    "engine_long_sums",
    "engine_means",
    "engine_pair_sums",
    "long_sums",
    "sum_column",
    "wide_sums",
]

#: The sums of a pair ``(a, b)``, in the columns ``sum_column(name, i, j)``.
SUM_NAMES = ("n", "s_a", "s_b", "q_a", "q_b", "c")


def sum_column(name: str, i: int, j: int) -> str:
    """The answer's column holding sum ``name`` of the raters at positions ``i <= j``."""
    return f"__kappaframe_{name}_{i}_{j}"


def _numeric(frame: EngineFrame, raters: Sequence[Hashable]) -> dict[str, Any]:
    """The dtypes of the rater columns, each checked numeric (``_check_numeric``)."""
    schema = frame.frame.collect_schema()
    dtypes = {str(r): schema[str(r)] for r in raters}
    for r, dtype in dtypes.items():
        _check_numeric(frame, r, dtype, "raters")
    return dtypes


def engine_means(frame: EngineFrame, raters: Sequence[Hashable]) -> list[float]:
    """Each rater's mean rating (0 for a rater with none), from one query."""
    nw = _narwhals()
    dtypes = _numeric(frame, raters)
    exprs = []
    for i, (r, dtype) in enumerate(dtypes.items()):
        value = nw.when(_present(nw, r, dtype)).then(nw.col(r).cast(nw.Float64()))
        exprs.append(value.mean().alias(f"__kappaframe_mean_{i}"))
    if not exprs:
        return []
    answer = _to_pandas(frame.frame.select(*exprs))
    means = answer.iloc[0].tolist() if len(answer) else [None] * len(exprs)
    return [0.0 if m is None or m != m else float(m) for m in means]


def engine_pair_sums(
    frame: EngineFrame, raters: Sequence[Hashable], by: Sequence[Hashable], shift: list[float]
) -> Any:
    """Per group, the six sums of every pair ``i <= j`` about ``shift``, as a pandas frame.

    Columns: the ``by`` columns, then ``sum_column(name, i, j)`` for each sum and pair.
    Without ``by``, one row.
    """
    nw = _narwhals()
    dtypes = _numeric(frame, raters)
    names = list(dtypes)
    keys = [str(b) for b in by]
    exprs = []
    for i, a in enumerate(names):
        for j in range(i, len(names)):
            b = names[j]
            both = _present(nw, a, dtypes[a]) & _present(nw, b, dtypes[b])
            za = nw.when(both).then(nw.col(a).cast(nw.Float64()) - shift[i]).otherwise(0.0)
            zb = nw.when(both).then(nw.col(b).cast(nw.Float64()) - shift[j]).otherwise(0.0)
            sums = {
                "n": nw.when(both).then(nw.lit(1)).otherwise(nw.lit(0)).cast(nw.Int64()),
                "s_a": za,
                "s_b": zb,
                "q_a": za * za,
                "q_b": zb * zb,
                "c": za * zb,
            }
            exprs += [e.sum().alias(sum_column(k, i, j)) for k, e in sums.items()]
    query = frame.frame.group_by(*keys).agg(*exprs) if keys else frame.frame.select(*exprs)
    return _to_pandas(query)


def engine_long_sums(
    frame: EngineFrame,
    by: Sequence[Hashable],
    layout: LongLayout,
    raters: Sequence[Hashable],
    duplicates: str,
) -> tuple[Any, float, list[Any]]:
    """The long layout's sums per group and pair of rater ids, their origin, the ids.

    Four queries: duplicate ratings (refused), the rater ids (a rater whose every rating
    is missing is a rater too), the mean of every rating (the origin:
    one scale, one origin), then the ratings joined with themselves on the item within
    its group, ``rater_a <= rater_b``, and per ``(by, rater_a, rater_b)`` the six sums
    ``n``, ``s_a``, ``s_b``, ``q_a``, ``q_b``, ``c`` about the origin. Returns the
    answer as pandas (the ``by`` columns, ``rater_a``, ``rater_b``, then the sums), the
    origin and the rater ids. ``layout.label`` is the score column.
    """
    nw = _narwhals()
    item, rater, value = str(layout.item), str(layout.rater), str(layout.label)
    keys, named = [str(b) for b in by], LongLayout(item, rater, value)
    dtype = _numeric(frame, [value])[value]
    ratings = frame.frame
    if raters:
        ratings = ratings.filter(nw.col(rater).is_in(list(raters)))
    EngineFrame._check_duplicates(nw, ratings, keys, named, duplicates)
    ids = _to_pandas(ratings.select(nw.col(rater)).unique())[rater].dropna().tolist()
    ratings = ratings.filter(_present(nw, value, dtype))
    mean = _to_pandas(ratings.select(nw.col(value).cast(nw.Float64()).mean().alias("m")))
    origin = mean["m"].iloc[0] if len(mean) else None
    origin = 0.0 if origin is None or origin != origin else float(origin)
    centred = (nw.col(value).cast(nw.Float64()) - origin).alias
    other = [f"__kappaframe_by_{i}" for i in range(len(keys))]
    left = ratings.select(
        *[nw.col(k) for k in keys], nw.col(item), nw.col(rater).alias("rater_a"), centred("za")
    )
    right = ratings.select(
        *[nw.col(k).alias(o) for k, o in zip(keys, other, strict=True)],
        nw.col(item),
        nw.col(rater).alias("rater_b"),
        centred("zb"),
    )
    same = [
        (nw.col(k) == nw.col(o)) | (nw.col(k).is_null() & nw.col(o).is_null())
        for k, o in zip(keys, other, strict=True)
    ]
    pairs = left.join(right, on=item).filter(nw.col("rater_a") <= nw.col("rater_b"), *same)
    za, zb = nw.col("za"), nw.col("zb")
    sums = pairs.group_by(*keys, "rater_a", "rater_b").agg(
        nw.len().cast(nw.Int64()).alias("n"),
        za.sum().alias("s_a"),
        zb.sum().alias("s_b"),
        (za * za).sum().alias("q_a"),
        (zb * zb).sum().alias("q_b"),
        (za * zb).sum().alias("c"),
    )
    return _to_pandas(sums), origin, ids


# ---- the additive sums of the intraclass correlation ------------------------------------
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
    raise not_a_number(name, value, dtype, option)


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
        _ones(nw, complete).alias(f"{_SUMS}count"),
        _ones(nw, rated & ~complete).alias(f"{_SUMS}dropped"),
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
    layout: LongLayout,
    raters: Sequence[Hashable],
    duplicates: str,
    choose: Callable[[list[Any]], list[Any]],
) -> tuple[list[Any], Any, Any, Any, float]:
    """The sums of the long layout (one row per score), per group, as pandas frames.

    ``choose`` picks the raters from the ids found (those asked for, each checked to
    occur, else every id, sorted). Returns the rater ids, the per-group item
    sums (``by``, ``count``, ``total``, ``squares``, ``item_squares``), each rater's
    total (``by``, ``rater``, ``rater_total``), the items left out (``by``,
    ``dropped``) and the shift subtracted from every score before summing. An item is
    complete when each of the raters scored it. ``layout.label`` is the score column.
    """
    nw = _narwhals()
    schema = engine.frame.collect_schema()
    item, rater, value = str(layout.item), str(layout.rater), str(layout.label)
    keys, named = [str(b) for b in by], LongLayout(item, rater, value)
    _check_numeric(engine, value, schema[value], "value")
    ratings = engine.frame
    found = _to_pandas(ratings.select(nw.col(rater)).unique())[rater].tolist()
    ids = choose(found)
    if raters:
        ratings = ratings.filter(nw.col(rater).is_in(list(ids)))
    EngineFrame._check_duplicates(nw, ratings, keys, named, duplicates)
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
