"""Pair counts as a public object: build anywhere, add up, finalise into kappa.

Every statistic of :func:`kappaframe.pairwise` and :func:`kappaframe.matrix` is a function
of the K x K contingency table of each rater pair in each group, and those tables add up:
counts of disjoint sets of items sum to the counts of their union. :class:`Counts` holds
them (``counts[pair, group, K, K]``), so that

- Dask partitions, file batches and polars streaming chunks are counted separately and
  summed (``+`` or ``sum()``), then finalised once;
- an engine that can only group and count (Spark, a SQL warehouse) can produce the cells
  ``(group..., rater_a, rater_b, label_a, label_b, count)`` and hand them over with
  :meth:`Counts.from_frame` (see ``docs/spark.md``);
- stored counts can be re-finalised with other weights, scales or ``min_overlap``.

Addition aligns everything by value: raters, categories and group keys may differ between
the parts (a batch that lacks a category or a group is fine).
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from .._count import diagonal as _diagonal
from .._count import kernel as _kernel
from .._count.diagonal import DiagonalCounts
from .._encode.codes import Factorized, Groups, encode_groups, shared_categories
from .._errors import KappaFrameError, KappaFrameTypeError, missing_columns, too_few_raters
from .._schema import Column, Table

__all__ = ["CELL_COLUMNS", "Counts"]

#: Columns of :meth:`Counts.to_frame` after the group keys (and what :meth:`from_frame` reads).
CELL_COLUMNS = ("rater_a", "rater_b", "label_a", "label_b", "count")


class Counts:
    """Contingency tables of rater pairs per group: additive, storable, finalisable.

    Build one with :func:`kappaframe.counts` (from a pandas, polars or Dask frame, a polars
    LazyFrame, or parquet/CSV files) or :meth:`from_frame` (from stored cells); add
    several with ``+`` or ``sum()``; finalise with :meth:`pairwise` or :meth:`matrix`,
    which give exactly what :func:`kappaframe.pairwise` / :func:`kappaframe.matrix` give
    on the whole data.

    Attributes
    ----------
    tables : ndarray of shape (n_pairs, n_groups, K, K), or DiagonalCounts
        ``tables[p, g, i, j]``: items of group ``g`` that rater ``pairs[p, 0]`` labeled
        ``categories[i]`` and rater ``pairs[p, 1]`` labeled ``categories[j]``. When the
        full tables would be large (many categories), only the diagonal and the two
        marginals are kept (:class:`kappaframe._count.diagonal.DiagonalCounts`): enough for
        unweighted and linear or quadratic weighted kappa, not for ``ci=``, ``stats=``,
        custom weights or :meth:`to_frame`.
    pairs : ndarray of shape (n_pairs, 2)
        Rater positions ``a <= b``, sorted; ``(a, a)`` holds a rater's own label counts
        (the diagonal of :meth:`matrix`). Pairs that share no item may be absent.
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
    ) -> None:
        self.tables = tables
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

    def __repr__(self) -> str:
        n_self = int(np.count_nonzero(self.pairs[:, 0] == self.pairs[:, 1]))
        return (
            f"<kappaframe.Counts: {len(self.raters)} raters, {len(self.pairs) - n_self} pairs, "
            f"{self.n_groups} group(s){' by ' + repr(self.by) if self.by else ''}, "
            f"{len(self.categories)} categories, {int(self.overlap().sum())} counted"
            f"{' (diagonal and marginals)' if self.diagonal else ''}>"
        )

    def __add__(self, other: Any) -> Counts:
        if isinstance(other, int) and other == 0:
            return self
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
            and _same_tables(self.tables, other.tables)
            and _same_keys(self.keys, other.keys)
        )

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------- finalising
    def pairwise(
        self,
        *,
        weights: Any = None,
        scale: Any = "landis_koch",
        ci: float | None = None,
        min_overlap: int | None = None,
        stats: str | Sequence[str] | None = None,
        reference: Hashable | None = None,
        ci_method: str = "analytic",
        n_boot: int | None = None,
        seed: Any = None,
    ) -> Any:
        """Cohen's kappa of every pair (per group), as :func:`kappaframe.pairwise` gives it.

        Parameters are those of :func:`kappaframe.pairwise`. Returns a frame of the
        library the counts came from (pandas for files and for Dask).
        """
        from .options import check_pair_options
        from .plan import check_min_overlap, tidy

        extra = check_pair_options(ci, ci_method, n_boot, seed, stats, self.by)
        prep = self.prepared(check_min_overlap(min_overlap))
        table = tidy(prep, weights=weights, scale=scale, ci=ci, reference=reference, extra=extra)
        return prep.frame.render(table)

    def matrix(
        self, *, stat: str = "kappa", weights: Any = None, min_overlap: int | None = None
    ) -> Any:
        """Return a square rater x rater frame of one statistic, as :func:`kappaframe.matrix`."""
        from .._errors import bad_option
        from .pairwise import STATS, matrix_table
        from .plan import check_min_overlap

        if stat not in STATS:
            raise bad_option("stat", stat, STATS)
        own = self.pairs[:, 0] == self.pairs[:, 1]
        if self.raters and not own.any() and self.overlap().sum():
            raise KappaFrameError(
                "matrix() needs each rater's own label counts (its diagonal), and these "
                "counts have none: build the cells with rater_a <= rater_b (a rater paired "
                "with themself on each item), or use pairwise()."
            )
        prep = self.prepared(check_min_overlap(min_overlap))
        return prep.frame.render(matrix_table(prep, stat, weights))

    def prepared(self, min_overlap: int | None = None) -> Any:
        """Return the :class:`kappaframe._api.plan.Prepared` view the shared statistics read."""
        from .plan import Prepared

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
        )

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

    def __iadd__(self, other: Any) -> Counts:
        """Add in place when the layouts match (the batch loop's case), else as ``+``."""
        if isinstance(other, Counts) and _same_layout(self, other) and other.by == self.by:
            mine, theirs = self.tables, other.tables
            if isinstance(mine, DiagonalCounts) and isinstance(theirs, DiagonalCounts):
                for a, b in zip(mine.fields(), theirs.fields(), strict=True):
                    a += b
                return self
            if (
                isinstance(mine, np.ndarray)
                and isinstance(theirs, np.ndarray)
                and np.can_cast(theirs.dtype, mine.dtype)
            ):
                mine += theirs
                return self
        return self + other

    # ---------------------------------------------------------- serialising
    def to_frame(self) -> Any:
        """Return the non-zero cells as a tidy frame: ``by`` columns, then the cells.

        One row per group, rater pair (``rater_a <= rater_b`` in rater order, a rater
        with themself included) and pair of labels, with its ``count``. A pandas frame, or
        a polars DataFrame for counts of polars data. :meth:`from_frame` reads it back.
        """
        clash = [b for b in self.by if b in CELL_COLUMNS]
        if clash:
            raise KappaFrameError(
                f"by column {clash[0]!r} has the name of a cell column; rename it first."
            )
        if isinstance(self.tables, DiagonalCounts):
            raise KappaFrameError(
                f"these counts keep only the diagonal and the marginals ({len(self.categories)} "
                "categories made the full tables too large), so they have no cells to write. "
                "Keep the Counts object itself (it pickles), or count fewer raters or groups."
            )
        p, g, i, j = np.nonzero(self.tables)
        names = _objects(self.raters)
        labels = _objects(self.categories)
        columns = [Column(b, "key", g, source=b) for b in self.by]
        columns += [
            Column("rater_a", "name", names[self.pairs[p, 0]]),
            Column("rater_b", "name", names[self.pairs[p, 1]]),
            Column("label_a", "label", labels[i]),
            Column("label_b", "label", labels[j]),
            Column("count", "int", self.tables[p, g, i, j].astype(np.int64)),
        ]
        return _CountsFrame(self, eager=True).render(Table(columns))

    @classmethod
    def from_frame(
        cls,
        cells: Any,
        *,
        by: Hashable | Sequence[Hashable] | None = None,
        raters: Sequence[Hashable] | None = None,
        categories: Sequence[Any] | None = None,
    ) -> Counts:
        """Read counts from a frame of cells (what :meth:`to_frame` writes).

        Parameters
        ----------
        cells : pandas or polars DataFrame (or LazyFrame)
            Columns ``by...``, ``rater_a``, ``rater_b``, ``label_a``, ``label_b``,
            ``count``. Rows may come in any order and repeat (they add up); a pair may
            come either way round. Rows with ``rater_a == rater_b`` (and equal labels)
            are each rater's own label counts, needed by :meth:`matrix` only.
        by : column name or list of names, optional
            The group key columns.
        raters : list, optional
            Rater order (default: sorted ids). Must list every rater in ``cells``.
        categories : list, optional
            Category order, as in :func:`kappaframe.pairwise`.
        """
        from .plan import adapt, as_list

        frame = adapt(cells)
        names = frame.columns()
        by_list = as_list(by, names)
        err = missing_columns([*by_list, *CELL_COLUMNS], names, "cell column")
        if err is not None:
            raise err
        frame.load([*by_list, *CELL_COLUMNS])
        n_rows = frame.n_rows
        fa, fb = frame.labels("rater_a"), frame.labels("rater_b")
        for fact, name in (
            (fa, "rater_a"),
            (fb, "rater_b"),
            *((frame.labels(c), c) for c in ("label_a", "label_b")),
        ):
            if (fact.codes < 0).any():
                raise KappaFrameError(
                    f"column {name!r} is missing on {int((fact.codes < 0).sum())} row(s); "
                    "every cell needs two raters and two labels."
                )
        rater_list = _rater_order([*fa.uniques, *fb.uniques], raters)
        position = {r: i for i, r in enumerate(rater_list)}
        a = np.array([position[u] for u in fa.uniques], dtype=np.intp)[fa.codes]
        b = np.array([position[u] for u in fb.uniques], dtype=np.intp)[fb.codes]
        la_fact, lb_fact = frame.labels("label_a"), frame.labels("label_b")
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
        if ((a == b) & (la != lb)).any():
            raise KappaFrameError(
                "a rater paired with themself has two different labels on one item "
                "(rater_a == rater_b with label_a != label_b); such a cell cannot exist."
            )
        distinct, inverse = np.unique(a.astype(np.int64) * r + b, return_inverse=True)
        _kernel.check_count_size(len(distinct), n_groups, k)
        flat = ((inverse.reshape(-1) * n_groups + g) * k + la) * k + lb
        total = np.bincount(flat, weights=weight, minlength=len(distinct) * n_groups * k * k)
        tables = np.rint(total).astype(np.int64).reshape(len(distinct), n_groups, k, k)
        pairs = np.column_stack([distinct // r, distinct % r]) if r else np.zeros((0, 2))
        keys = _take(_native(frame), by_list, groups.first_row[:n_groups]) if by_list else None
        return cls(tables, pairs, rater_list, cats, by_list, keys, output=_output_of(frame))

    @classmethod
    def from_prepared(cls, prep: Any, output: str = "pandas") -> Counts:
        """Count every pair (and each rater with themself) of a prepared input."""
        r = len(prep.raters)
        own = np.repeat(np.arange(r, dtype=np.intp), 2).reshape(-1, 2)
        shared = _kernel.all_pairs(r) if prep.source is None else prep.source.pairs(1)
        pairs = np.concatenate([own, shared])
        order = np.lexsort((pairs[:, 1], pairs[:, 0]))
        pairs = pairs[order]
        k = len(prep.categories)
        small = len(pairs) * prep.groups.n_groups * k * k * 8 <= _diagonal.FULL_TABLE_BYTES
        # Full tables while they are small; else the diagonal and marginals, if K is large.
        tables = prep.tables(pairs, full=small)
        keys = None
        if prep.by:
            first_rows = prep.groups.first_row[: prep.groups.n_groups]
            keys = _take(_native(prep.frame), prep.by, first_rows)
        return cls(tables, pairs, prep.raters, prep.categories, prep.by, keys, output=output)


class _CountsSource:
    """Stored counts seen as the pair-count source of :class:`kappaframe._api.plan.Prepared`."""

    def __init__(self, counts: Counts) -> None:
        self.counts = counts

    def pairs(self, min_overlap: int | None) -> np.ndarray:
        """Every pair; with ``min_overlap``, the stored pairs sharing that many items."""
        c = self.counts
        if not min_overlap:
            return _kernel.all_pairs(len(c.raters))
        off = c.pairs[:, 0] != c.pairs[:, 1]
        shared = c.overlap()[off].sum(axis=1)
        return c.pairs[off][shared >= min_overlap]

    def tables(
        self, pairs: np.ndarray, weights: Any = None, full: bool = False
    ) -> np.ndarray | DiagonalCounts:
        """Tables of ``pairs`` (either way round; pairs never counted are zeros)."""
        c = self.counts
        pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
        g, k = c.n_groups, len(c.categories)
        stored_tables = c.tables
        if isinstance(stored_tables, DiagonalCounts):
            if full:
                raise KappaFrameError(
                    f"these counts keep only the diagonal and the marginals ({k} categories "
                    "made the full tables too large): ci=, stats= and a custom weights matrix "
                    "need the full tables. Use weights=None, 'linear' or 'quadratic' without "
                    "them, merge rare categories, or count fewer raters or groups."
                )
            out: Any = DiagonalCounts.zeros(len(pairs), g, k)
        else:
            _kernel.check_count_size(len(pairs), g, k)
            out = np.zeros((len(pairs), g, k, k), dtype=stored_tables.dtype)
        if not len(pairs) or not len(c.pairs):
            return out
        r = len(c.raters)
        a, b = pairs[:, 0], pairs[:, 1]
        key = np.minimum(a, b).astype(np.int64) * r + np.maximum(a, b)
        stored = c.pairs[:, 0].astype(np.int64) * r + c.pairs[:, 1]
        pos = np.minimum(np.searchsorted(stored, key), len(stored) - 1)
        found = stored[pos] == key
        swapped = found & (a > b)
        if isinstance(stored_tables, DiagonalCounts):
            taken = stored_tables.take(pos[found])
            for mine, theirs in zip(out.fields(), taken.fields(), strict=True):
                mine[found] = theirs
            return out.flipped(swapped) if swapped.any() else out
        out[found] = stored_tables[pos[found]]
        if swapped.any():
            out[swapped] = np.swapaxes(out[swapped], -2, -1)
        return out


class CountingFrame(ABC):
    """Base of the adapters that read in parts (Dask partitions, file batches).

    Subclasses implement :meth:`columns`, :meth:`counts` (pair counts summed over the
    parts) and :meth:`item_parts` (each part's label codes). :meth:`prepared` is what
    :func:`kappaframe._api.plan.prepare` calls: with ``from_counts`` it prepares from the
    summed counts, else from the codes of every item gathered from the parts (one small
    integer per rating: far less than the frame). :meth:`render` renders with the group
    keys of what was prepared.
    """

    output = "pandas"
    _keys: Any = None

    @abstractmethod
    def columns(self) -> list[Hashable]:
        """Column names of the whole input (read from its schema, not its data)."""

    @abstractmethod
    def counts(self, raters: Any = None, **options: Any) -> Counts:
        """Pair counts of every part, summed."""

    @abstractmethod
    def item_parts(self, raters: Any = None, **options: Any) -> list[ItemCodes]:
        """The label codes of every item, one entry per part."""

    def prepared(
        self,
        raters: Any = None,
        *,
        min_overlap: int | None = None,
        from_counts: bool = False,
        **options: Any,
    ) -> Any:
        if from_counts:
            total = self.counts(raters, **options)
            self._keys = total.keys
            return total.prepared(min_overlap)
        parts = self.item_parts(raters, **options)
        prep = stack_items(parts, self.output, min_overlap)
        self._keys = prep.frame.keys
        return prep

    def render(self, table: Table) -> Any:
        return render(table, self._keys, self.output)


@dataclass
class ItemCodes:
    """One part's items: label codes ``(n_raters, n_items)``, group codes, group keys."""

    raters: list[Hashable]
    categories: list[Any]
    codes: np.ndarray
    group: np.ndarray | None
    keys: Any
    by: list[Hashable]

    @classmethod
    def of(cls, prep: Any) -> ItemCodes:
        """Take the codes of a prepared part (dense: the crowd path keeps no codes)."""
        if prep.source is not None:
            raise KappaFrameError(
                "this statistic needs every rating of every item, but this input is "
                "counted per rater pair (the sparse path for many raters with few items "
                "each); pass the wide layout, or fewer raters per call."
            )
        keys = None
        if prep.by:
            first_rows = prep.groups.first_row[: prep.groups.n_groups]
            keys = _take(_native(prep.frame), prep.by, first_rows)
        return cls(prep.raters, prep.categories, prep.codes, prep.groups.codes, keys, prep.by)


class _KeysFrame:
    """Renders with stored group keys (what a stacked or counted input prepares)."""

    def __init__(self, keys: Any, output: str) -> None:
        self.keys = keys
        self.output = output

    def render(self, table: Table) -> Any:
        return render(table, self.keys, self.output)


def stack_items(parts: Sequence[ItemCodes], output: str, min_overlap: int | None = None) -> Any:
    """One prepared input from the parts' item codes: raters, categories, groups aligned."""
    from .plan import Prepared

    parts = list(parts)
    raters = _merge_order([p.raters for p in parts], "rater")
    categories = _merge_order([p.categories for p in parts], "category")
    keys, group_maps = _merge_keys(parts)  # type: ignore[arg-type]
    n_groups = _n_groups(keys, parts[0].by)
    rater_pos = {x: i for i, x in enumerate(raters)}
    cat_pos = {x: i for i, x in enumerate(categories)}
    n_items = sum(p.codes.shape[1] for p in parts)
    codes = np.full((len(raters), n_items), -1, dtype=_kernel.code_dtype(len(categories)))
    group = np.zeros(n_items, dtype=np.intp)
    start = 0
    for part, gmap in zip(parts, group_maps, strict=True):
        stop = start + part.codes.shape[1]
        rows = np.array([rater_pos[r] for r in part.raters], dtype=np.intp)
        lookup = np.array([cat_pos[c] for c in part.categories] + [-1], dtype=codes.dtype)
        codes[rows, start:stop] = lookup[part.codes]
        if part.group is not None:
            group[start:stop] = gmap[part.group]
        start = stop
    groups = Groups(group if parts[0].by else None, n_groups, np.arange(n_groups))
    return Prepared(
        cast(Any, _KeysFrame(keys, output)),
        raters,
        codes,
        categories,
        groups,
        parts[0].by,
        min_overlap=min_overlap,
    )


def distinct_labels(
    frame: Any, columns: Sequence[Hashable], rater: Hashable | None
) -> dict[Any, Any]:
    """Per column of an adapter: distinct labels and declared order; the rater ids."""
    out: dict[Any, Any] = {}
    for col in columns:
        fact = frame.labels(col)
        out[col] = (fact.uniques, fact.declared)
    out["__raters__"] = frame.labels(rater).uniques if rater is not None else []
    return out


def merge_categories(found: Iterable[dict[Any, Any]], columns: Sequence[Hashable]) -> list[Any]:
    """One category index from the parts' distinct labels, as one frame would give it."""
    found = list(found)
    merged: dict[Hashable, Factorized] = {}
    for col in columns:
        uniques = list(dict.fromkeys(x for f in found for x in f[col][0]))
        declared = [f[col][1] for f in found if f[col][1] is not None]
        if any(list(d) != list(declared[0]) for d in declared[1:]):
            raise KappaFrameError(
                f"column {col!r} declares different category orders in different parts; "
                "pass categories= (or, in Dask, make the categories known)."
            )
        merged[col] = Factorized(
            np.zeros(0, dtype=np.intp), uniques, list(declared[0]) if declared else None
        )
    return shared_categories(merged, None)


class CategoriesDiffer(KappaFrameError):
    """Diagonal-and-marginal counts over different categories cannot be added."""


def check_raters(total: Counts, min_raters: int, rater: Hashable) -> Counts:
    """Check the long layout's raters on the total: at least ``min_raters`` of them."""
    if len(total.raters) < min_raters:
        raise too_few_raters(min_raters, total.raters, rater)
    return total


def counts(
    data: Any,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    categories: Sequence[Any] | None = None,
    duplicates: str = "raise",
) -> Counts:
    """Count the K x K table of every rater pair per group, as an additive :class:`Counts`.

    The first half of :func:`kappaframe.pairwise`: ``kf.counts(df, ...).pairwise()`` is
    ``kf.pairwise(df, ...)``. Counts of parts of the data add up (``+``, ``sum()``), and
    can be stored with :meth:`Counts.to_frame` and read back with
    :meth:`Counts.from_frame`.

    Parameters
    ----------
    data : frame or path
        A pandas or polars DataFrame, a polars LazyFrame (streamed in batches in the
        wide layout), a Dask DataFrame (counted per partition on the cluster), or parquet
        / CSV files: a path, a glob, a list of paths or a ``pyarrow.dataset.Dataset``
        (read in batches; see :func:`kappaframe.scan`).
    raters, item, rater, label, by, categories, duplicates
        As in :func:`kappaframe.pairwise`.

    Returns
    -------
    Counts
        Every pair of raters that shares an item (all pairs in the wide layout), and
        each rater with themself, in every group.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({"a": [1, 1, 2, 2], "b": [1, 2, 2, 2]})
    >>> c = kf.counts(df)
    >>> c.tables[1, 0].tolist()  # the pair (a, b): rows a's labels, columns b's
    [[1, 1], [0, 2]]
    >>> float(c.pairwise()["kappa"].iloc[0])
    0.5
    """
    from .plan import adapt, prepare

    frame = adapt(data)
    options: dict[str, Any] = {
        "by": by,
        "item": item,
        "rater": rater,
        "label": label,
        "categories": categories,
        "duplicates": duplicates,
    }
    build = getattr(frame, "counts", None)
    if build is not None:  # Dask, files, streamed LazyFrames: counted in parts
        return build(raters, min_raters=2, **options)
    prep = prepare(frame, raters, **options)
    return Counts.from_prepared(prep, output=_output_of(frame))


class _CountsFrame:
    """The adapter face of :class:`Counts`: renders results with the stored group keys."""

    def __init__(self, counts: Counts, eager: bool = False) -> None:
        self.counts = counts
        self.eager = eager

    def render(self, table: Table) -> Any:
        return render(table, self.counts.keys, self.counts.output, eager=self.eager)


def render(table: Table, keys: Any, output: str, eager: bool = False) -> Any:
    """Render ``table`` (key columns read from ``keys``) in the ``output`` library."""
    if output in ("polars", "lazy"):
        from .._frames.polars import render as polars_render

        frame = polars_render(table, keys)
        return frame.lazy() if output == "lazy" and not eager else frame
    from .._frames.pandas import render as pandas_render

    result = pandas_render(table, keys)
    if output == "dask" and not eager:
        from .._frames.dask import from_pandas

        return from_pandas(result)
    return result


# ----------------------------------------------------------------- combining
def combine(parts: Sequence[Counts]) -> Counts:
    """Sum counts, aligning raters, categories, pairs and groups by value."""
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
    if any(p.diagonal for p in parts):  # one form for all: the diagonal and marginals
        parts = [p if p.diagonal else _as_diagonal(p) for p in parts]
        first = parts[0]
    if all(_same_layout(first, other) for other in parts[1:]):
        total: Any
        if isinstance(first.tables, DiagonalCounts):
            total = DiagonalCounts(*(f.copy() for f in first.tables.fields()))
            for other in parts[1:]:
                theirs_all = cast(DiagonalCounts, other.tables).fields()
                for mine, theirs in zip(total.fields(), theirs_all, strict=True):
                    mine += theirs
        else:
            total = first.tables.copy() if len(parts) > 1 else first.tables
            for other in parts[1:]:
                total += other.tables
        return Counts(
            total,
            first.pairs,
            first.raters,
            first.categories,
            first.by,
            first.keys,
            output=first.output,
        )

    raters = _merge_order([p.raters for p in parts], "rater")
    categories = _merge_order([p.categories for p in parts], "category")
    keys, group_maps = _merge_keys(parts)
    r, k = len(raters), len(categories)
    n_groups = _n_groups(keys, first.by)
    rater_pos = {x: i for i, x in enumerate(raters)}
    cat_pos = {x: i for i, x in enumerate(categories)}
    keyed = []
    for part in parts:
        rmap = np.array([rater_pos[x] for x in part.raters], dtype=np.intp)
        a, b = rmap[part.pairs[:, 0]], rmap[part.pairs[:, 1]]
        flip = a > b
        key = np.minimum(a, b).astype(np.int64) * r + np.maximum(a, b)
        keyed.append((key, flip))
    distinct = np.unique(np.concatenate([key for key, _ in keyed])) if keyed else np.zeros(0)
    if first.diagonal:
        if any(p.categories != categories for p in parts):
            raise CategoriesDiffer(
                "cannot add diagonal-and-marginal counts over different categories (the "
                "sums of |i - j| depend on each label's position); count every part with "
                "the same categories= (all labels, in order)."
            )
        diag = DiagonalCounts.zeros(len(distinct), n_groups, k)
        for part, (key, flip), gmap in zip(parts, keyed, group_maps, strict=True):
            sums = part.tables
            assert isinstance(sums, DiagonalCounts)
            diag.add_at(np.searchsorted(distinct, key), gmap, sums.flipped(flip))
        pairs = np.column_stack([distinct // r, distinct % r]) if r else np.zeros((0, 2))
        return Counts(diag, pairs, raters, categories, first.by, keys, output=first.output)
    dtype = np.result_type(*(cast(np.ndarray, p.tables).dtype for p in parts))
    _kernel.check_count_size(len(distinct), n_groups, k)
    total = np.zeros((len(distinct), n_groups, k, k), dtype=dtype)
    for part, (key, flip), gmap in zip(parts, keyed, group_maps, strict=True):
        tables = cast(np.ndarray, part.tables)
        if flip.any():
            tables = tables.copy()
            tables[flip] = np.swapaxes(tables[flip], -2, -1)
        rows = np.searchsorted(distinct, key)
        cmap = np.array([cat_pos[c] for c in part.categories], dtype=np.intp)
        total[np.ix_(rows, gmap, cmap, cmap)] += tables
    pairs = np.column_stack([distinct // r, distinct % r]) if r else np.zeros((0, 2))
    return Counts(total, pairs, raters, categories, first.by, keys, output=first.output)


def _n_groups(keys: Any, by: list[Hashable]) -> int:
    return 1 if not by else len(keys)


def _as_diagonal(counts: Counts) -> Counts:
    """Keep only the diagonal and the marginals of full counts."""
    return Counts(
        DiagonalCounts.from_tables(cast(np.ndarray, counts.tables)),
        counts.pairs,
        counts.raters,
        counts.categories,
        counts.by,
        counts.keys,
        output=counts.output,
    )


def _same_tables(a: Any, b: Any) -> bool:
    if isinstance(a, DiagonalCounts) or isinstance(b, DiagonalCounts):
        return isinstance(a, DiagonalCounts) and isinstance(b, DiagonalCounts) and a.equals(b)
    return bool(np.array_equal(a, b))


def _same_layout(a: Counts, b: Counts) -> bool:
    return (
        a.raters == b.raters
        and a.categories == b.categories
        and np.array_equal(a.pairs, b.pairs)
        and a.diagonal == b.diagonal
        and a.tables.shape == b.tables.shape
        and _same_keys(a.keys, b.keys)
    )


def _same_keys(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if type(a) is not type(b) or len(a) != len(b):
        return False
    try:
        return bool(a.equals(b))
    except Exception:  # pragma: no cover - exotic frames compare by merging instead
        return False


def _merge_order(lists: list[list[Any]], what: str) -> list[Any]:
    """Order the values of several lists as one.

    Equal lists stay as they are; sorted lists give the sorted union; else the one list
    that holds every value in an order the others agree with.
    """
    first = lists[0]
    if all(lst == first for lst in lists[1:]):
        return list(first)
    union = list(dict.fromkeys(x for lst in lists for x in lst))
    try:
        if all(lst == sorted(lst) for lst in lists):
            return sorted(union)
    except TypeError:
        pass
    for candidate in lists:
        if len(candidate) == len(union):
            rank = {x: i for i, x in enumerate(candidate)}
            if all([rank[x] for x in lst] == sorted(rank[x] for x in lst) for lst in lists):
                return list(candidate)
    raise KappaFrameError(
        f"cannot add counts whose {what} orders disagree ({first[:10]} vs "
        f"{next(lst for lst in lists if lst != first)[:10]}); build every part with the "
        f"same {'categories=' if what == 'category' else 'raters='}."
    )


def _merge_keys(parts: list[Counts]) -> tuple[Any, list[np.ndarray]]:
    """Sort the union of the parts' group keys; say, per part, where its groups went."""
    first = parts[0]
    if not first.by:
        return None, [np.zeros(1, dtype=np.intp) for _ in parts]
    if all(_same_keys(first.keys, p.keys) for p in parts[1:]):
        ident = np.arange(len(first.keys), dtype=np.intp)
        return first.keys, [ident for _ in parts]
    from .plan import adapt

    stacked = _concat([p.keys for p in parts])
    frame = adapt(stacked)
    frame.load(list(first.by))
    groups = encode_groups([frame.keys(b) for b in first.by], frame.n_rows)
    codes = groups.codes if groups.codes is not None else np.zeros(frame.n_rows, np.intp)
    keys = _take(stacked, first.by, groups.first_row[: groups.n_groups])
    bounds = np.cumsum([0] + [len(p.keys) for p in parts])
    return keys, [codes[bounds[i] : bounds[i + 1]] for i in range(len(parts))]


# ------------------------------------------------------------- frame helpers
def _family(output: str) -> str:
    return "polars" if output in ("polars", "lazy") else "pandas"


def _output_of(frame: Any) -> str:
    """Name the output kind of an adapter: pandas, polars, lazy (LazyFrame) or dask."""
    kind = getattr(frame, "output", None)
    if kind is not None:
        return str(kind)
    if type(frame).__name__ == "PolarsFrame":
        return "lazy" if frame.lazy else "polars"
    return "pandas"


def _native(frame: Any) -> Any:
    """Return the eager native frame behind an adapter (after ``load``)."""
    return frame.frame


def _take(native: Any, by: Sequence[Hashable], rows: np.ndarray) -> Any:
    """Rows ``rows`` of the ``by`` columns, as a frame of the same library."""
    import pandas as pd

    if isinstance(native, pd.DataFrame):
        return native[list(by)].iloc[np.asarray(rows, dtype=np.intp)].reset_index(drop=True)
    return native.select([str(b) for b in by])[np.asarray(rows, dtype=np.int64)]


def _concat(frames: list[Any]) -> Any:
    import pandas as pd

    if isinstance(frames[0], pd.DataFrame):
        return pd.concat(frames, ignore_index=True)
    pl = sys.modules["polars"]
    try:
        return pl.concat(frames, how="vertical")
    except Exception as err:  # polars raises its own schema errors
        raise KappaFrameError(f"cannot add counts whose group keys differ in type: {err}") from None


def _objects(values: Sequence[Any]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


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
    fact: Factorized = frame.labels("count")
    values = np.asarray(fact.uniques, dtype=object)
    try:
        numbers = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise KappaFrameError(
            f"column 'count' must hold numbers; found e.g. {values[:3].tolist()}."
        ) from None
    if (fact.codes < 0).any() or not np.all(np.isfinite(numbers)) or np.any(numbers < 0):
        raise KappaFrameError(
            "column 'count' must hold finite, non-negative numbers with nothing missing."
        )
    return numbers[fact.codes] if n_rows else np.zeros(0)
