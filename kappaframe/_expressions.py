"""The ``.kappa`` namespace of polars expressions: agreement inside ``group_by().agg()``.

``pl.col("ana").kappa.cohen(pl.col("ben"))`` is an expression whose value is one struct
of ``n``, ``p_o``, ``p_e`` and ``kappa``: the numbers ``kappaframe.pairwise`` gives for
that pair. It runs wherever a polars aggregation runs: ``select``, ``group_by().agg()``
(one struct per group), ``over()`` (the group's struct on each of its rows) and lazy
plans. ``fleiss`` and ``alpha`` take more columns and give the struct of
``kappaframe.overall``: ``n_items``, ``n_raters``, ``p_o``, ``p_e``, ``value``.

Each group is computed from its own rows only (polars hands the expression one group at a
time), so a weighting that depends on which labels exist (``weights=`` over labels that
are not declared) would differ from group to group, and from ``pairwise(by=...)``, which
orders the labels of the whole frame: there ``categories=`` (or a polars ``Enum``) is
required, and its absence is refused. Options are checked against their declarations when
the expression is built, before any data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from ._api.overall import overall
from ._api.pairwise import two_arrays
from ._api.settings.bind import declared
from ._errors import KappaFrameError, KappaFrameTypeError
from ._types import Level, Method

__all__ = ["KappaExpr"]

#: The struct of ``cohen``: the columns of a ``pairwise`` row that describe the pair.
COHEN_FIELDS: dict[str, Any] = {
    "n": pl.Int64,
    "p_o": pl.Float64,
    "p_e": pl.Float64,
    "kappa": pl.Float64,
}
#: The struct of ``fleiss`` and ``alpha``: the columns of an ``overall`` row.
OVERALL_FIELDS: dict[str, Any] = {
    "n_items": pl.Int64,
    "n_raters": pl.Int64,
    "p_o": pl.Float64,
    "p_e": pl.Float64,
    "value": pl.Float64,
}


def _expr(value: Any, what: str) -> pl.Expr:
    """A column name or an expression, as polars takes either."""
    if isinstance(value, pl.Expr):
        return value
    if isinstance(value, str):
        return pl.col(value)
    raise KappaFrameTypeError(
        f"{what} must be a polars expression or a column name; got {type(value).__name__} "
        f"{value!r:.60}. Write pl.col(...) for a column."
    )


def _require_categories(weights: Any, categories: Any, series: Sequence[pl.Series]) -> None:
    """Refuse label-dependent weights whose labels each group would order for itself."""
    if weights is None or categories is not None:
        return
    if all(isinstance(s.dtype, pl.Enum) for s in series):
        return
    names = ", ".join(repr(s.name) for s in series)
    raise KappaFrameError(
        f"weights={weights!r} in an expression over {names} needs categories=: each group "
        "sees only its own labels, so the weights would follow the labels each group "
        "happens to have (and differ from pairwise(by=...), which orders the labels of "
        "the whole frame). Pass categories=[...] in order, or make the columns a pl.Enum.",
        option="categories",
    )


def _names(inputs: Sequence[pl.Expr]) -> list[str]:
    """The output name of each input (rater ``i`` where polars cannot tell), all different."""
    names = []
    for i, expr in enumerate(inputs, start=1):
        try:
            names.append(expr.meta.output_name())
        except pl.exceptions.ComputeError:
            names.append(f"rater {i}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise KappaFrameError(
            f"the columns of one expression must have different names; {repeated[0]!r} comes "
            "more than once. Give each one its own name with .alias(...)."
        )
    return names


def _cohen(series: list[pl.Series], names: list[str], weights: Any, categories: Any) -> pl.Series:
    a, b = (s.alias(name) for s, name in zip(series, names, strict=True))
    _require_categories(weights, categories, [a, b])
    stats = two_arrays(
        a, b, labels=categories, weights=weights, option="categories", names=(a.name, b.name)
    )
    row = {
        "n": int(stats["n"]),
        "p_o": float(stats["p_o"]),
        "p_e": float(stats["p_e"]),
        "kappa": float(stats["kappa"]),
    }
    return pl.Series([row], dtype=pl.Struct(COHEN_FIELDS))


def _overall(
    series: list[pl.Series], names: list[str], method: Method, **options: Any
) -> pl.Series:
    frame = pl.DataFrame([s.alias(name) for s, name in zip(series, names, strict=True)])
    result = overall(frame, method=method, min_items=None, **options)
    return result.select(
        pl.col(name).cast(dtype) for name, dtype in OVERALL_FIELDS.items()
    ).to_struct()


def _batches(inputs: list[pl.Expr], function: Any, fields: dict[str, Any]) -> pl.Expr:
    return pl.map_batches(inputs, function, return_dtype=pl.Struct(fields), returns_scalar=True)


class KappaExpr:
    """Agreement of this column with others, as ``pl.col(name).kappa.<method>(...)``.

    One struct per group: ``cohen`` gives ``n``, ``p_o``, ``p_e``, ``kappa`` (as a row of
    ``kappaframe.pairwise``), ``fleiss`` and ``alpha`` give ``n_items``, ``n_raters``,
    ``p_o``, ``p_e``, ``value`` (as a row of ``kappaframe.overall``). Unnest it with
    ``.struct.unnest()`` or read one field with ``.struct.field("kappa")``.
    """

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    @declared
    def cohen(
        self,
        other: Any,
        *,
        weights: str | Any | None = None,
        categories: Sequence[Any] | None = None,
    ) -> pl.Expr:
        """Cohen's kappa of this column against ``other``, per group.

        Parameters
        ----------
        %(parameters)s

        Returns
        -------
        polars.Expr
            A struct of ``n``, ``p_o``, ``p_e`` and ``kappa``, equal to the row of
            ``kappaframe.pairwise`` for the same two columns (and, per group, to
            ``pairwise(by=...)``). Missing labels are dropped pair by pair.

        Examples
        --------
        >>> import polars as pl, kappaframe as kf
        >>> df = pl.DataFrame({"g": ["x", "x", "x", "y", "y", "y"],
        ...                    "ana": [1, 2, 2, 1, 1, 2], "ben": [1, 2, 1, 1, 1, 2]})
        >>> out = df.group_by("g", maintain_order=True).agg(
        ...     pl.col("ana").kappa.cohen(pl.col("ben")).alias("k"))
        >>> out.unnest("k")["kappa"].round(4).to_list()
        [0.4, 1.0]
        """
        inputs = [self._expr, _expr(other, "other")]
        names = _names(inputs)
        return _batches(inputs, lambda s: _cohen(s, names, weights, categories), COHEN_FIELDS)

    @declared
    def fleiss(self, *others: Any, categories: Sequence[Any] | None = None) -> pl.Expr:
        """Fleiss' kappa of this column and ``others`` (one rater each), per group.

        Parameters
        ----------
        %(parameters)s

        Returns
        -------
        polars.Expr
            A struct of ``n_items``, ``n_raters``, ``p_o``, ``p_e`` and ``value``, equal to
            the row of ``kappaframe.overall(method="fleiss")`` for the same columns.
        """
        return self._overall(others, "fleiss", categories=categories)

    @declared
    def alpha(
        self,
        *others: Any,
        level: Level = "nominal",
        categories: Sequence[Any] | None = None,
    ) -> pl.Expr:
        """Krippendorff's alpha of this column and ``others`` (one rater each), per group.

        Parameters
        ----------
        %(parameters)s

        Returns
        -------
        polars.Expr
            A struct of ``n_items``, ``n_raters``, ``p_o``, ``p_e`` and ``value``, equal to
            the row of ``kappaframe.overall(method="krippendorff", level=level)``.
        """
        return self._overall(others, "krippendorff", level=level, categories=categories)

    def _overall(self, others: Sequence[Any], method: Method, **options: Any) -> pl.Expr:
        """The struct of ``overall(method=...)`` over this column and ``others``, per group."""
        inputs = [self._expr, *(_expr(o, "others") for o in others)]
        names = _names(inputs)
        return _batches(inputs, lambda s: _overall(s, names, method, **options), OVERALL_FIELDS)
