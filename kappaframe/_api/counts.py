"""Pair counts as a public object: build anywhere, add up, finalise into kappa.

Every statistic of ``kappaframe.pairwise`` and ``kappaframe.matrix`` is a function
of the K x K contingency table of each rater pair in each group, and those tables add up:
counts of disjoint sets of items sum to the counts of their union. ``Counts`` holds
them (``counts[pair, group, K, K]``), so that

- Dask partitions, file batches and polars streaming chunks are counted separately and
  summed (``+`` or ``sum()``), then finalised once;
- an engine that can only group and count (Spark, a SQL warehouse) can produce the cells
  ``(group..., rater_a, rater_b, label_a, label_b, count)`` and hand them over with
  ``Counts.from_frame`` (see ``docs/spark.md``);
- stored counts can be re-finalised with other weights, scales or ``min_overlap``.

Addition aligns everything by value: raters, categories and group keys may differ between
the parts (a batch that lacks a category or a group is fine).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from numbers import Real
from typing import Any, cast

import numpy as np

from .._count import diagonal as _diagonal
from .._count import kernel as _kernel
from .._count.diagonal import DiagonalCounts
from .._count.tables import PairTables, combine_tables, lookup, same_tables, shared_pairs
from .._encode.codes import Groups, encode_groups, object_array, shared_categories
from .._errors import KappaFrameError, KappaFrameTypeError, missing_columns
from .._frames.render import render
from .._schema import CELL_COLUMNS, CELL_INDEX_COLUMNS, Column, Table, check_names
from .._stats.scales import MIN_ITEMS
from .._types import Alternative, Benchmark, CIDist, CIMethod, ResultKind, Stat
from .assemble import matrix_table, tidy
from .options import as_list, check_min_items, check_min_overlap, check_pair_options, check_stat
from .prepare import (
    Prepared,
    eager_adapter,
    group_keys,
    merge_keys,
    n_groups_of,
    same_keys,
    take,
)
from .settings.bind import declared

__all__ = ["Counts", "combine", "read_pair_table"]

#: Largest count kept exactly: sums of integer counts stay below 2**62 (int64 with room).
MAX_EXACT_COUNT = 2**62


class Counts:
    """Contingency tables of rater pairs per group: additive, storable, finalisable.

    Build one with ``kappaframe.counts`` (from a pandas, polars or Dask frame, a polars
    LazyFrame, or parquet/CSV files) or ``from_frame`` (from stored cells); add
    several with ``+`` or ``sum()``; finalise with ``pairwise`` or ``matrix``,
    which give exactly what ``kappaframe.pairwise`` / ``kappaframe.matrix`` give
    on the whole data.

    Attributes
    ----------
    tables : ndarray of shape (n_pairs, n_groups, K, K), or DiagonalCounts
        ``tables[p, g, i, j]``: items of group ``g`` that rater ``pairs[p, 0]`` labeled
        ``categories[i]`` and rater ``pairs[p, 1]`` labeled ``categories[j]``. When the
        full tables would be large (many categories), only the diagonal and the two
        marginals are kept (``kappaframe._count.diagonal.DiagonalCounts``): enough for
        unweighted and linear or quadratic weighted kappa, not for ``ci=``, ``stats=``,
        custom weights or ``to_frame``.
    pairs : ndarray of shape (n_pairs, 2)
        Rater positions ``a <= b``, sorted; ``(a, a)`` holds a rater's own label counts
        (the diagonal of ``matrix``). Pairs that share no item may be absent.
    raters, categories : list
    by : list
        Group key column names; ``keys`` holds one row per group, sorted.
    keys : pandas or polars DataFrame, or None
        The group keys (``None`` without ``by``).

    Notes
    -----
    Counts add up over disjoint sets of *items*: in the long layout all ratings of an item
    must be in the same part (a Dask frame is shuffled by item for this).

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> day1 = pd.DataFrame({"ann1": ["a", "a", "b"], "ann2": ["a", "b", "b"]})
    >>> day2 = pd.DataFrame({"ann1": ["b"], "ann2": ["b"]})
    >>> total = kf.counts(day1) + kf.counts(day2)
    >>> round(float(total.pairwise()["kappa"].iloc[0]), 4)
    0.5
    >>> cells = total.to_frame()
    >>> int(cells["count"].sum())
    12
    >>> round(float(kf.Counts.from_frame(cells).pairwise()["kappa"].iloc[0]), 4)
    0.5
    """

    def __init__(
        self,
        tables: np.ndarray | DiagonalCounts,
        pairs: np.ndarray,
        raters: Sequence[Hashable],
        categories: Sequence[Any],
        by: Sequence[Hashable] = (),
        keys: Any = None,
        *,
        output: str = "pandas",
        ci_refusal: str | None = None,
        ordered: bool = True,
        label_columns: Sequence[Hashable] = (),
    ) -> None:
        self.tables = tables
        #: Whether the category order was declared (by the caller, a stored order, an
        #: ordered Categorical or Enum) rather than taken from sorting the labels; where
        #: the labels came from. Weights refuse to sort text (``Prepared.require_order``).
        self.ordered = ordered
        self.label_columns = list(label_columns)
        #: Why these counts cannot give standard errors (proportions of an unknown number
        #: of items, from ``from_table``); ``None``: they can. A sum of counts drops it.
        self.ci_refusal = ci_refusal
        self.pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
        self.raters = list(raters)
        self.categories = list(categories)
        self.by = list(by)
        self.keys = keys
        self.output = output

    # ------------------------------------------------------------------ basics
    @property
    def n_groups(self) -> int:
        return int(self.tables.shape[1])

    @property
    def diagonal(self) -> bool:
        """Whether only the diagonal and the marginals are kept (many categories)."""
        return isinstance(self.tables, DiagonalCounts)

    def overlap(self) -> np.ndarray:
        """Items each stored pair shares, per group: shape (n_pairs, n_groups)."""
        if isinstance(self.tables, DiagonalCounts):
            return self.tables.n
        return self.tables.sum(axis=(-2, -1))

    def _tables(self) -> PairTables:
        return PairTables(self.tables, self.pairs, self.raters, self.categories)

    def __repr__(self) -> str:
        n_self = int(np.count_nonzero(self.pairs[:, 0] == self.pairs[:, 1]))
        return (
            f"<kappaframe.Counts: {len(self.raters)} raters, {len(self.pairs) - n_self} pairs, "
            f"{self.n_groups} group(s){' by ' + repr(self.by) if self.by else ''}, "
            f"{len(self.categories)} categories, {self.overlap().sum()} counted"
            f"{' (diagonal and marginals)' if self.diagonal else ''}>"
        )

    def __add__(self, other: Any) -> Counts:
        """Return new counts: the sum (``0 + c`` and ``sum([c])`` copy ``c``)."""
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return combine([self])
        if not isinstance(other, Counts):
            return NotImplemented
        return combine([self, other])

    def __radd__(self, other: Any) -> Counts:
        return self.__add__(other)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Counts):
            return NotImplemented
        return (
            self.raters == other.raters
            and self.categories == other.categories
            and self.by == other.by
            and np.array_equal(self.pairs, other.pairs)
            and same_tables(self.tables, other.tables)
            and same_keys(self.keys, other.keys)
        )

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------- finalising
    @declared
    def pairwise(
        self,
        *,
        weights: Any = None,
        scale: Any = "landis_koch",
        min_items: int | None = MIN_ITEMS,
        ci: float | None = None,
        min_overlap: int | None = None,
        stats: str | Sequence[str] | None = None,
        reference: Hashable | None = None,
        ci_method: CIMethod = "analytic",
        n_boot: int | None = None,
        seed: Any = None,
        alternative: Alternative = "two-sided",
        ci_dist: CIDist = "normal",
        population: float | None = None,
        benchmark: Benchmark = "point",
        kappa0: float = 0.0,
    ) -> Any:
        """Cohen's kappa of every pair (per group), as ``kappaframe.pairwise`` gives it.

        Parameters are those of ``kappaframe.pairwise``. Returns a frame of the
        library the counts came from (pandas for files and for Dask).
        """
        extra = check_pair_options(
            ci, ci_method, n_boot, seed, stats, alternative, ci_dist, population, benchmark,
            kappa0=kappa0,
        )  # fmt: skip
        min_items = check_min_items(min_items)
        if ci is not None and self.ci_refusal is not None:
            raise KappaFrameError(self.ci_refusal)
        whole = isinstance(self.tables, DiagonalCounts) or np.issubdtype(
            self.tables.dtype, np.integer
        )
        if ci_method == "bootstrap" and not whole:
            raise KappaFrameError(
                "ci_method='bootstrap' resamples whole items, and these counts are "
                "fractional (weighted); use the analytic interval (ci_method='analytic')."
            )
        prep = self.prepared(check_min_overlap(min_overlap))
        table = tidy(
            prep,
            weights=weights,
            scale=scale,
            ci=ci,
            reference=reference,
            extra=extra,
            min_items=min_items,
        )
        return prep.frame.render(table)

    @declared
    def matrix(
        self, *, stat: Stat = "kappa", weights: Any = None, min_overlap: int | None = None
    ) -> Any:
        """Return a square rater x rater frame of one statistic, as ``kappaframe.matrix``."""
        check_stat(stat)
        own = self.pairs[:, 0] == self.pairs[:, 1]
        if self.raters and not own.any() and self.overlap().sum():
            raise KappaFrameError(
                "matrix() needs each rater's own label counts (its diagonal), and these "
                "counts have none: build the cells with rater_a <= rater_b (a rater paired "
                "with themself on each item), or use pairwise()."
            )
        prep = self.prepared(check_min_overlap(min_overlap))
        return prep.frame.render(matrix_table(prep, stat, weights))

    @declared
    def prepared(self, min_overlap: int | None = None) -> Prepared:
        """Return the ``kappaframe._api.prepare.Prepared`` view the statistics read."""
        g = self.n_groups
        groups = Groups(None, g, np.arange(g, dtype=np.intp))
        codes = np.zeros((len(self.raters), 0), dtype=np.int8)
        return Prepared(
            cast(Any, _CountsFrame(self)),
            self.raters,
            codes,
            self.categories,
            groups,
            self.by,
            source=_CountsSource(self),
            min_overlap=min_overlap,
            ordered=self.ordered,
            label_columns=self.label_columns,
        )

    @declared
    def with_raters(self, raters: Sequence[Hashable]) -> Counts:
        """Return the same counts over ``raters`` (a superset, in an order this one agrees with)."""
        g, k = self.n_groups, len(self.categories)
        empty: Any
        if isinstance(self.tables, DiagonalCounts):
            empty = DiagonalCounts.zeros(0, g, k)
        else:
            empty = np.zeros((0, g, k, k), dtype=self.tables.dtype)
        none = np.zeros((0, 2), dtype=np.intp)
        everyone = Counts(
            empty, none, raters, self.categories, self.by, self.keys, output=self.output
        )
        return combine([everyone, self])

    # ---------------------------------------------------------- serialising
    def to_frame(self) -> Any:
        """Return the non-zero cells as a tidy frame: ``by`` columns, then the cells.

        One row per group, rater pair (``rater_a <= rater_b`` in rater order, a rater
        with themself included) and pair of labels, with its ``count``; then the position
        of each rater and label (``rater_a_index`` ... ``label_b_index``), which carry the
        rater and category order, so that ``from_frame`` reads back the same counts
        with no other argument (also through CSV or parquet). A category or rater that no
        cell holds gets one cell of count 0. A pandas frame, or a polars DataFrame for
        counts of polars data.
        """
        if isinstance(self.tables, DiagonalCounts):
            raise KappaFrameError(
                f"these counts keep only the diagonal and the marginals ({len(self.categories)} "
                "categories made the full tables too large), so they have no cells to write. "
                "Keep the Counts object itself (it pickles), or count fewer raters or groups."
            )
        check_names(self.by, (*CELL_COLUMNS, *CELL_INDEX_COLUMNS), "cells")
        p, g, i, j = np.nonzero(self.tables)
        a, b = self.pairs[p, 0], self.pairs[p, 1]
        count = self.tables[p, g, i, j]
        # Zero cells for the raters and categories no cell names, so their order survives.
        unseen_raters = np.setdiff1d(np.arange(len(self.raters)), np.concatenate([a, b]))
        unseen_labels = np.setdiff1d(np.arange(len(self.categories)), np.concatenate([i, j]))
        if len(self.categories) and len(self.raters):
            fill_r = np.concatenate([unseen_raters, np.zeros(len(unseen_labels), np.intp)])
            fill_l = np.concatenate([np.zeros(len(unseen_raters), np.intp), unseen_labels])
            a, b = np.concatenate([a, fill_r]), np.concatenate([b, fill_r])
            i, j = np.concatenate([i, fill_l]), np.concatenate([j, fill_l])
            g = np.concatenate([g, np.zeros(len(fill_r), np.intp)])
            count = np.concatenate([count, np.zeros(len(fill_r), count.dtype)])
        names = object_array(self.raters)
        labels = object_array(self.categories)
        exact = np.issubdtype(count.dtype, np.integer)
        columns = [Column(c, "key", g, source=c) for c in self.by]
        columns += [
            Column("rater_a", "name", names[a]),
            Column("rater_b", "name", names[b]),
            Column("label_a", "label", labels[i]),
            Column("label_b", "label", labels[j]),
            Column("count", "int" if exact else "float", count),
            Column("rater_a_index", "int", a.astype(np.int64)),
            Column("rater_b_index", "int", b.astype(np.int64)),
            Column("label_a_index", "int", i.astype(np.int64)),
            Column("label_b_index", "int", j.astype(np.int64)),
        ]
        return _CountsFrame(self, eager=True).render(Table(columns))

    @classmethod
    @declared
    def from_frame(
        cls,
        cells: Any,
        *,
        by: Hashable | Sequence[Hashable] | None = None,
        raters: Sequence[Hashable] | None = None,
        categories: Sequence[Any] | None = None,
    ) -> Counts:
        """Read counts from a frame of cells (what ``to_frame`` writes).

        Parameters
        ----------
        %(parameters)s
        """
        frame = eager_adapter(cells)
        if frame is None:
            raise KappaFrameTypeError(
                f"cells must be a pandas or polars DataFrame (or LazyFrame); got "
                f"{type(cells).__module__}.{type(cells).__qualname__}."
            )
        names = frame.columns()
        by_list = as_list(by, names)
        err = missing_columns([*by_list, *CELL_COLUMNS], names, "cell column")
        if err is not None:
            raise err
        indexed = all(c in names for c in CELL_INDEX_COLUMNS)
        frame.load([*by_list, *CELL_COLUMNS, *(CELL_INDEX_COLUMNS if indexed else ())])
        n_rows = frame.n_rows
        facts = {c: frame.labels(c) for c in ("rater_a", "rater_b", "label_a", "label_b")}
        for name, fact in facts.items():
            if (fact.codes < 0).any():
                raise KappaFrameError(
                    f"column {name!r} is missing on {int((fact.codes < 0).sum())} row(s); "
                    "every cell needs two raters and two labels."
                )
        fa, fb, la_fact, lb_fact = facts.values()
        if raters is None and indexed:
            raters = _stored_order(frame, fa, fb, "rater")
        rater_list = _rater_order([*fa.uniques, *fb.uniques], raters)
        position = {r: i for i, r in enumerate(rater_list)}
        a = np.array([position[u] for u in fa.uniques], dtype=np.intp)[fa.codes]
        b = np.array([position[u] for u in fb.uniques], dtype=np.intp)[fb.codes]
        given = categories is not None
        if categories is None and indexed:
            categories = _stored_order(frame, la_fact, lb_fact, "label")
        cats = shared_categories({"label_a": la_fact, "label_b": lb_fact}, categories)
        index = {c: i for i, c in enumerate(cats)}
        la = np.array([index[u] for u in la_fact.uniques], dtype=np.intp)[la_fact.codes]
        lb = np.array([index[u] for u in lb_fact.uniques], dtype=np.intp)[lb_fact.codes]
        weight = _cell_counts(frame, n_rows)
        groups = encode_groups([frame.keys(c) for c in by_list], n_rows)
        g = np.zeros(n_rows, np.intp) if groups.codes is None else groups.codes
        n_groups = groups.n_groups if by_list else 1
        flip = a > b
        a, b = np.where(flip, b, a), np.where(flip, a, b)
        la, lb = np.where(flip, lb, la), np.where(flip, la, lb)
        r, k = len(rater_list), len(cats)
        if ((a == b) & (la != lb) & (weight != 0)).any():
            raise KappaFrameError(
                "a rater paired with themself has two different labels on one item "
                "(rater_a == rater_b with label_a != label_b); such a cell cannot exist."
            )
        distinct, inverse = np.unique(a.astype(np.int64) * r + b, return_inverse=True)
        _kernel.check_count_size(len(distinct), n_groups, k)
        flat = ((inverse.reshape(-1) * n_groups + g) * k + la) * k + lb
        tables = np.zeros(len(distinct) * n_groups * k * k, dtype=weight.dtype)
        np.add.at(tables, flat, weight)
        tables = tables.reshape(len(distinct), n_groups, k, k)
        pairs = np.column_stack([distinct // r, distinct % r]) if r else np.zeros((0, 2))
        _check_self_cells(tables, pairs.astype(np.intp), rater_list, cats)
        native = frame.frame
        keys = take(native, by_list, groups.first_row[:n_groups]) if by_list else None
        # Stored positions declare an order unless they are the labels sorted, which is
        # also what counts of text labels with no declared order store: then it is unknown.
        declared = (
            given
            or la_fact.declared is not None
            or lb_fact.declared is not None
            or (indexed and not _is_sorted(cats))
        )
        return cls(
            tables,
            pairs,
            rater_list,
            cats,
            by_list,
            keys,
            output=_output_of(frame),
            ordered=declared,
            label_columns=["label_a", "label_b"],
        )

    @classmethod
    @declared
    def from_table(
        cls,
        table: Any,
        *,
        categories: Sequence[Any] | None = None,
        n_obs: float | None = None,
        raters: Sequence[Hashable] = ("rater_a", "rater_b"),
    ) -> Counts:
        """Read the K x K contingency table of two raters (rows: ``raters[0]``'s labels).

        What statsmodels' ``cohens_kappa(table)``, irrCAC's ``*.table`` functions and
        R psych's ``cohen.kappa(table, n.obs=)`` take. ``table[i][j]`` is the number of
        items the first rater labeled ``categories[i]`` and the second ``categories[j]``;
        the result finalises like any ``Counts``:
        ``Counts.from_table(t).pairwise(weights=..., ci=..., stats=...)``.

        Parameters
        ----------
        %(parameters)s

        Returns
        -------
        Counts
            Two raters, one group (no ``by``); each rater's own label counts (the table's
            marginals) included, so ``matrix`` works too. Results render as pandas
            for array and pandas input, as polars for polars input (lazy for a
            LazyFrame).

        Raises
        ------
        KappaFrameError
            A table that is not square or not 2-D, cells that are negative, missing, NaN,
            infinite or not numbers, a frame whose row and column labels differ (both
            listed), repeated labels, ``categories`` of the wrong length or lacking a
            label, an ``n_obs`` that is not a positive number or contradicts the table.
            ``pairwise`` refuses ``ci=`` for proportions read without ``n_obs``, and
            ``ci_method="bootstrap"`` for fractional counts (it resamples whole items).

        Notes
        -----
        Counts added to others (``+``, ``sum()``) are plain ``Counts``: the refusals
        above do not carry over to the sum.

        References
        ----------
        Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and
        Psychological Measurement*, 20(1), 37-46.

        Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard errors of
        kappa and weighted kappa. *Psychological Bulletin*, 72(5), 323-327.

        Examples
        --------
        >>> import kappaframe as kf
        >>> table = [[0, 4, 1], [0, 8, 0], [0, 1, 5]]
        >>> res = kf.Counts.from_table(table).pairwise(ci=0.95)
        >>> round(float(res["kappa"].iloc[0]), 4), round(float(res["se"].iloc[0]), 4)
        (0.4842, 0.138)
        >>> shares = [[0.44, 0.07, 0.09], [0.05, 0.20, 0.05], [0.01, 0.03, 0.06]]
        >>> res = kf.Counts.from_table(shares, n_obs=200).pairwise()
        >>> round(float(res["kappa"].iloc[0]), 4), float(res["n"].iloc[0])
        (0.4915, 200.0)
        """
        labels, cells, output = read_pair_table(table, categories)
        cells, ci_refusal = _table_scale(cells, n_obs)
        names = _table_raters(raters)
        k = len(labels)
        _kernel.check_count_size(3, 1, k)
        tables = np.zeros((3, 1, k, k), dtype=cells.dtype)
        tables[0, 0] = np.diag(cells.sum(axis=1))  # the first rater's own label counts
        tables[1, 0] = cells
        tables[2, 0] = np.diag(cells.sum(axis=0))  # the second rater's
        pairs = np.array([[0, 0], [0, 1], [1, 1]], dtype=np.intp)
        return cls(tables, pairs, names, labels, output=output, ci_refusal=ci_refusal)

    @classmethod
    def from_prepared(cls, prep: Prepared, output: ResultKind = "pandas") -> Counts:
        """Count every pair (and each rater with themself) of a prepared input."""
        return count_prepared(prep, output)


def count_prepared(prep: Prepared, output: ResultKind = "pandas", *, own: bool = True) -> Counts:
    """``Counts.from_prepared``; without each rater with themself where ``own`` is False.

    ``own=False`` is for callers that read pairs of two raters only (``pairwise``):
    ``matrix()`` of such counts refuses, needing the diagonal.
    """
    r = len(prep.raters)
    selves = np.repeat(np.arange(r if own else 0, dtype=np.intp), 2).reshape(-1, 2)
    shared = _kernel.all_pairs(r) if prep.source is None else prep.source.pairs(1)
    pairs = np.concatenate([selves, shared])
    order = np.lexsort((pairs[:, 1], pairs[:, 0]))
    pairs = pairs[order]
    k = len(prep.categories)
    small = len(pairs) * prep.groups.n_groups * k * k * 8 <= _diagonal.FULL_TABLE_BYTES
    # Full tables while they are small; else the diagonal and marginals, if K is large.
    tables = prep.tables(pairs, full=small)
    return Counts(
        tables,
        pairs,
        prep.raters,
        prep.categories,
        prep.by,
        group_keys(prep),
        output=output,
        ordered=prep.ordered,
        label_columns=prep.label_columns,
    )


class _CountsSource:
    """Stored counts seen as the pair-count source of a ``Prepared`` view."""

    def __init__(self, counts: Counts) -> None:
        self.counts = counts

    def pairs(self, min_overlap: int | None) -> np.ndarray:
        """Every pair; with ``min_overlap``, the stored pairs sharing that many items."""
        c = self.counts
        return shared_pairs(c._tables(), c.overlap(), min_overlap)

    def tables(
        self, pairs: np.ndarray, weights: Any = None, full: bool = False
    ) -> np.ndarray | DiagonalCounts:
        """Tables of ``pairs`` (either way round; pairs never counted are zeros)."""
        return lookup(self.counts._tables(), pairs, self.counts.n_groups, full)


class _CountsFrame:
    """The adapter face of ``Counts``: renders results with the stored group keys."""

    def __init__(self, counts: Counts, eager: bool = False) -> None:
        self.counts = counts
        self.eager = eager

    def render(self, table: Table) -> Any:
        return render(table, self.counts.keys, self.counts.output, eager=self.eager)


def combine(parts: Sequence[Counts]) -> Counts:
    """Sum counts, aligning raters, categories, pairs and groups by value (new arrays)."""
    parts = list(parts)
    if not parts:
        raise KappaFrameError("nothing to add: pass at least one Counts.")
    first = parts[0]
    for other in parts[1:]:
        if other.by != first.by:
            raise KappaFrameError(
                f"cannot add counts grouped by {first.by} and by {other.by}; group both "
                "the same way."
            )
        if _family(other.output) != _family(first.output):
            raise KappaFrameError(
                f"cannot add counts of {first.output} and {other.output} frames; build "
                "both from the same frame library."
            )
    keys, group_maps = merge_keys(parts)
    n_groups = n_groups_of(keys, first.by)
    total = combine_tables([p._tables() for p in parts], group_maps, n_groups)
    return Counts(
        total.tables,
        total.pairs,
        total.raters,
        total.categories,
        first.by,
        keys,
        output=first.output,
        ordered=all(p.ordered for p in parts),
        label_columns=first.label_columns,
    )


def _check_self_cells(
    tables: np.ndarray, pairs: np.ndarray, raters: list[Any], categories: list[Any]
) -> None:
    """Refuse pair cells that say more than a rater's own cells (where those are given).

    A rater's own cells count the items it labeled with each label; a pair can share at
    most that many of them (per group and label).
    """
    own = pairs[:, 0] == pairs[:, 1]
    if not own.any():
        return
    labeled = np.full((len(raters), *tables.shape[1:3]), np.inf)
    labeled[pairs[own, 0]] = np.diagonal(tables[own], axis1=-2, axis2=-1)
    off = ~own
    for side, margin in ((0, tables[off].sum(axis=-1)), (1, tables[off].sum(axis=-2))):
        limit = labeled[pairs[off, side]]
        bad = np.argwhere(margin > limit + 1e-9 * np.maximum(limit, 1))
        if len(bad):
            p, g, label = bad[0]
            a, b = pairs[off][p]
            who = raters[pairs[off][p][side]]
            raise KappaFrameError(
                f"the cells of raters {raters[a]!r} and {raters[b]!r} share "
                f"{margin[p, g, label]:g} items that {who!r} labeled {categories[label]!r}, but "
                f"{who!r}'s own cells (rater_a == rater_b) count only {limit[p, g, label]:g} "
                "such items; the cells contradict each other. Recount them from the same data."
            )


def _is_sorted(values: list[Any]) -> bool:
    try:
        return values == sorted(values)
    except TypeError:  # labels of kinds that do not sort: their order was given
        return False


def _stored_order(frame: Any, a: Any, b: Any, what: str) -> list[Any]:
    """The order that the ``{what}_a_index`` / ``{what}_b_index`` columns give the values."""
    ranks: dict[Any, int] = {}
    for side, fact in (("a", a), ("b", b)):
        column = f"{what}_{side}_index"
        positions = frame.labels(column)
        try:
            values = np.asarray(positions.uniques, dtype=np.int64)[positions.codes]
        except (TypeError, ValueError):
            raise KappaFrameError(f"column {column!r} must hold whole numbers.") from None
        if (positions.codes < 0).any():
            raise KappaFrameError(f"column {column!r} is missing on some rows.")
        for code, rank in zip(fact.codes.tolist(), values.tolist(), strict=True):
            value = fact.uniques[code]
            if ranks.setdefault(value, rank) != rank:
                raise KappaFrameError(
                    f"{what} {value!r} has two positions in the {what}_*_index columns "
                    f"({ranks[value]} and {rank}); the cells disagree on the {what} order."
                )
    order = sorted(ranks, key=ranks.__getitem__)
    if len(set(ranks.values())) != len(ranks):
        raise KappaFrameError(
            f"two {what}s share a position in the {what}_*_index columns; the cells "
            f"disagree on the {what} order."
        )
    return order


def _family(output: str) -> str:
    return "polars" if output in ("polars", "lazy") else "pandas"


def _output_of(frame: Any) -> str:
    """The output kind of an adapter: pandas, polars, lazy (LazyFrame) or dask."""
    return str(frame.output)


def _rater_order(ids: Iterable[Any], raters: Sequence[Hashable] | None) -> list[Any]:
    seen = list(dict.fromkeys(ids))
    if raters is None:
        try:
            return sorted(seen)
        except TypeError:
            return seen
    if isinstance(raters, (str, bytes)):
        raise KappaFrameTypeError(f"raters must be a list of rater ids; got {raters!r}.")
    order = list(dict.fromkeys(raters))
    absent = [x for x in seen if x not in set(order)]
    if absent:
        raise KappaFrameError(
            f"raters= does not list {len(absent)} rater(s) found in the cells, e.g. "
            f"{absent[:5]}; list every rater, or leave raters=None for sorted ids."
        )
    return order


def _cell_counts(frame: Any, n_rows: int) -> np.ndarray:
    """The ``count`` column, exactly: int64 for whole numbers, float64 for fractional ones."""
    fact = frame.labels("count")
    if (fact.codes < 0).any():
        raise KappaFrameError("column 'count' is missing on some rows; every cell needs a count.")
    return _exact_counts(list(fact.uniques), fact.codes, "column 'count'")


def _exact_counts(values: list[Any], codes: np.ndarray, what: str) -> np.ndarray:
    """Counts ``values[codes]``, exactly: int64 for whole numbers, float64 for fractional ones.

    ``values`` are the distinct counts, ``codes`` each cell's position in them; ``what``
    names the counts in messages. Refuses non-numbers, NaN, infinities, negative counts
    and whole-number totals beyond ``MAX_EXACT_COUNT``. Never rounds.
    """
    bad = [v for v in values if isinstance(v, (bool, np.bool_)) or not isinstance(v, Real)]
    if bad:
        raise KappaFrameError(f"{what} must hold numbers; found e.g. {bad[:3]}.")
    if any(not math.isfinite(v) or v < 0 for v in values):
        raise KappaFrameError(
            f"{what} must hold finite, non-negative numbers; found e.g. "
            f"{[v for v in values if not math.isfinite(v) or v < 0][:3]}."
        )
    if not len(codes):
        return np.zeros(0, dtype=np.int64)
    if all(isinstance(v, (int, np.integer)) or float(v).is_integer() for v in values):
        whole = [int(v) for v in values]
        total = sum(whole[c] * int(m) for c, m in enumerate(np.bincount(codes)))
        if total > MAX_EXACT_COUNT:
            raise KappaFrameError(
                f"the counts add up to {total}, more than kappaframe keeps exactly "
                f"(2**62); scale them down (kappa does not change when every count is "
                "multiplied by the same factor)."
            )
        return np.asarray(whole, dtype=np.int64)[codes]
    return np.asarray(values, dtype=np.float64)[codes]


def read_pair_table(
    table: Any, categories: Sequence[Any] | None
) -> tuple[list[Any], np.ndarray, str]:
    """Labels, exact K x K counts (rows: the first rater) and output kind of a table."""
    frame = eager_adapter(table)
    if frame is None:
        cells = _array_cells(table)
        k = cells.shape[0]
        if categories is None:
            return list(range(k)), cells, "pandas"
        labels = _category_list(categories)
        if len(labels) != k:
            raise KappaFrameError(
                f"categories= names the rows and columns of the table, so it needs {k} "
                f"labels; got {len(labels)}: {labels[:10]}."
            )
        return labels, cells, "pandas"
    rows, columns, values = _frame_cells(frame)
    _same_labels(rows, columns)
    where = {label: j for j, label in enumerate(columns)}
    cells = values[:, [where[label] for label in rows]]
    if categories is None:
        return rows, cells, _output_of(frame)
    labels = _category_list(categories)
    absent = [label for label in rows if label not in set(labels)]
    if absent:
        raise KappaFrameError(
            f"categories= lacks {len(absent)} label(s) of the table, e.g. {absent[:5]}; "
            "list every label (categories nobody used may be added)."
        )
    k = len(labels)
    at = np.array([labels.index(label) for label in rows], dtype=np.intp)
    full = np.zeros((k, k), dtype=cells.dtype)
    full[np.ix_(at, at)] = cells
    return labels, full, _output_of(frame)


def _array_cells(table: Any) -> np.ndarray:
    """The exact counts of a NumPy array or nested list (checked 2-D and square)."""
    if isinstance(table, (str, bytes)) or hasattr(table, "columns"):
        raise KappaFrameTypeError(
            "table must be a NumPy array, a nested list, or a pandas or polars DataFrame; "
            f"got {type(table).__module__}.{type(table).__qualname__}."
        )
    if isinstance(table, (list, tuple)):
        lengths = {len(row) if isinstance(row, (list, tuple)) else -1 for row in table}
        if len(lengths) > 1:
            raise KappaFrameError(
                "table rows must all have the same length (a K x K table); got rows of "
                f"lengths {sorted(n for n in lengths if n >= 0)}."
            )
        array = np.asarray(table, dtype=object)
    else:
        array = np.asarray(table)
    if array.ndim != 2:
        raise KappaFrameError(f"table must be 2-D (K x K); got shape {array.shape}.")
    k, m = array.shape
    if k != m:
        raise KappaFrameError(
            f"table must be square (K x K, rows and columns the same categories); got {k} "
            f"rows and {m} columns."
        )
    if k == 0:
        raise KappaFrameError("table is empty (0 x 0); it needs at least one category.")
    flat = array.reshape(-1)
    if flat.dtype.kind in "iuf":
        distinct, codes = np.unique(flat, return_inverse=True)
        values = distinct.tolist()
    else:
        values, codes = flat.tolist(), np.arange(len(flat))
    return _exact_counts(values, codes.reshape(-1), "the table's cells").reshape(k, k)


def _frame_cells(frame: Any) -> tuple[list[Any], list[Any], np.ndarray]:
    """Row labels, column labels and exact counts (rows x columns) of a labelled frame."""
    names = frame.columns()
    if frame.output == "pandas":  # labelled by its index and its columns
        rows = list(frame.frame.index)
        value_names = names
        columns = list(names)
    else:  # polars: a first column holding the categories, then one column per category
        if not names:
            raise KappaFrameError("table has no columns; it needs a column of categories.")
        frame.load(names)
        first = frame.labels(names[0])
        if (first.codes < 0).any():
            raise KappaFrameError(
                f"the first column {names[0]!r} holds the categories (the rows) and is "
                "missing on some rows."
            )
        rows = [first.uniques[c] for c in first.codes.tolist()]
        value_names = names[1:]
        columns = _named_like(value_names, rows)
    for what, labels in (("rows", rows), ("columns", columns)):
        repeated = [x for x, n in Counter(labels).items() if n > 1]
        if repeated:
            raise KappaFrameError(f"the table's {what} repeat the labels {repeated[:5]}.")
    if not rows and not columns:
        raise KappaFrameError("table is empty (0 x 0); it needs at least one category.")
    values: list[Any] = []
    codes = np.zeros((len(rows), len(value_names)), dtype=np.intp)
    for j, name in enumerate(value_names):
        fact = frame.labels(name)
        if (fact.codes < 0).any():
            raise KappaFrameError(
                f"the table's column {name!r} has {int((fact.codes < 0).sum())} missing "
                "(NaN or null) cell(s); every cell needs a count (0 for none)."
            )
        codes[:, j] = fact.codes + len(values)
        values += list(fact.uniques)
    cells = _exact_counts(values, codes.reshape(-1), "the table's cells")
    return rows, columns, cells.reshape(codes.shape)


def _named_like(names: Sequence[Hashable], labels: list[Any]) -> list[Any]:
    """The labels polars column names stand for (names are text: ``"1"`` for label 1)."""
    known = set(labels)
    as_text: dict[str, list[Any]] = {}
    for label in labels:
        as_text.setdefault(str(label), []).append(label)
    out = []
    for name in names:
        same = as_text.get(str(name), [])
        out.append(name if name in known or len(same) != 1 else same[0])
    return out


def _same_labels(rows: list[Any], columns: list[Any]) -> None:
    """Refuse a table whose row labels and column labels are not one set."""
    row_set, column_set = set(rows), set(columns)
    only_rows = [x for x in rows if x not in column_set]
    only_columns = [x for x in columns if x not in row_set]
    if only_rows or only_columns:
        raise KappaFrameError(
            "the table's rows (the first rater's labels) and columns (the second's) must "
            f"be the same categories; only in the rows: {only_rows[:10]}, only in the "
            f"columns: {only_columns[:10]}. Add the missing rows or columns (zeros), or "
            "drop margin rows and columns such as totals."
        )


def _category_list(categories: Any) -> list[Any]:
    if isinstance(categories, (str, bytes)):
        raise KappaFrameTypeError(f"categories must be a list of labels; got {categories!r}.")
    labels = list(categories)
    repeated = [x for x, n in Counter(labels).items() if n > 1]
    if repeated:
        raise KappaFrameError(f"categories= lists {repeated[:5]} more than once.")
    return labels


def _table_scale(cells: np.ndarray, n_obs: Any) -> tuple[np.ndarray, str | None]:
    """Counts of a table of counts or of proportions; and why ``ci=`` is refused, if it is."""
    whole = np.issubdtype(cells.dtype, np.integer)
    total: float = int(cells.sum()) if whole else math.fsum(cells.reshape(-1).tolist())
    proportions = abs(total - 1) <= 1e-9
    if n_obs is None:
        if proportions and not whole:
            return cells, (
                "this table holds proportions (its cells sum to 1), and a standard error "
                "needs the number of items: pass n_obs= (e.g. "
                "Counts.from_table(table, n_obs=200)) for ci=. Kappa itself needs no n_obs."
            )
        return cells, None
    if (
        isinstance(n_obs, (bool, np.bool_))
        or not isinstance(n_obs, Real)
        or not math.isfinite(n_obs)
        or n_obs <= 0
    ):
        raise KappaFrameError(
            f"n_obs must be a positive number (the items behind a table of proportions); "
            f"got {n_obs!r}."
        )
    if proportions:
        return cells.astype(np.float64) * float(n_obs), None
    if total == n_obs:
        return cells, None
    raise KappaFrameError(
        f"n_obs= is the number of items behind a table of proportions (cells summing to "
        f"1), but this table sums to {total:g}, and not to n_obs={n_obs!r} either. Drop "
        "n_obs= for a table of counts, or divide the table by its sum."
    )


def _table_raters(raters: Any) -> list[Hashable]:
    if isinstance(raters, (str, bytes)):
        raise KappaFrameTypeError(f"raters must be a pair of names; got {raters!r}.")
    names = list(raters)
    if len(names) != 2 or names[0] == names[1]:
        raise KappaFrameError(
            f"raters must be two different names (the rows' rater, then the columns'); "
            f"got {names!r}."
        )
    return names
