"""Sparse pair counting for crowds: thousands of raters, each labeling a few items.

The dense path pivots the long layout into a rater x item matrix and runs the kernel once
per pair of raters: its cost grows with ``raters^2 x items``. A crowd export is mostly
empty in that matrix. Here only the pairs of ratings that share an item are formed:

1. ratings are sorted by unit (an item within its group) and rater (``sort_ratings``);
2. units are grouped by their number of ratings ``m``; for each size class the
   ``m (m - 1) / 2`` pairs of every unit come from one broadcast of ``np.triu_indices``;
3. the pair ids ``rater_a * n_raters + rater_b`` are compacted to ``0 .. P - 1`` (the
   distinct co-rating pairs), and ONE ``np.bincount`` over
   ``(pair, group, label_a, label_b)`` gives ``counts[P, G, K, K]``.

Cost grows with ``sum_i m_i^2`` over the items, memory with the co-rating pairs
(18 bytes per pair of ratings, plus ``P x G x K^2`` counts). The statistics that follow
are the dense path's: same counts, same numbers.

When is it used? ``use_crowd`` decides, in ``kappaframe._api.plan.prepare``, for the
long layout only: when the rater x item matrix would have more than
``CROWD_MIN_CELLS`` cells and the pairs of ratings are fewer than a quarter of the
dense path's work (``rater pairs x items``). ``min_overlap=`` is a filter on the output
and works on both paths; the path never changes the numbers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import kernel as _kernel
from .diagonal import DiagonalCounts, use_diagonal

__all__ = ["CROWD_MIN_CELLS", "CrowdCounts", "use_crowd"]

#: The long layout is counted sparsely only above this many rater x item cells.
CROWD_MIN_CELLS = 1_000_000


def use_crowd(n_raters: int, n_units: int, n_rating_pairs: int) -> bool:
    """Whether the sparse path beats the dense one for this long-layout input.

    ``n_rating_pairs`` is ``sum_i m_i (m_i - 1) / 2`` over the units (the sparse path's
    work); the dense path's is ``n_raters (n_raters - 1) / 2 x n_units``.
    """
    if n_raters * n_units <= CROWD_MIN_CELLS:
        return False
    dense_work = n_raters * (n_raters - 1) // 2 * n_units
    return 4 * n_rating_pairs < dense_work


def rating_pairs(unit: np.ndarray, n_units: int) -> int:
    """``sum_i m_i (m_i - 1) / 2``: the pairs of ratings sharing a unit."""
    sizes = np.bincount(unit, minlength=n_units).astype(np.int64)
    return int((sizes * (sizes - 1) // 2).sum())


class CrowdCounts:
    """The co-rating pairs of a long-layout input, ready to be counted.

    Parameters
    ----------
    rater, unit : ndarray of intp
        Rater code (``0 .. n_raters - 1``) and unit code of each rating, sorted by unit
        and then rater, one rating per unit and rater.
    label : ndarray of int
        Label code of each rating (``-1`` = missing: the rating is left out).
    unit_group : ndarray of intp or None
        Group of each unit (``None``: one group).
    n_raters, n_groups, n_categories : int
    """

    def __init__(
        self,
        rater: np.ndarray,
        unit: np.ndarray,
        label: np.ndarray,
        unit_group: np.ndarray | None,
        n_raters: int,
        n_groups: int,
        n_categories: int,
    ) -> None:
        valid = label >= 0
        if not valid.all():
            rater, unit, label = rater[valid], unit[valid], label[valid]
        unit = np.asarray(unit, dtype=np.intp)
        self.n_raters = n_raters
        self.n_groups = n_groups
        self.n_categories = n_categories
        group = None if unit_group is None else np.asarray(unit_group, dtype=np.intp)[unit]
        # Each rater's own labels (the diagonal of a rater against themself).
        self._self_rater = np.asarray(rater, dtype=np.intp)
        self._self_group, self._self_label = group, label

        first, second = _pairs_of_ratings(unit)
        # Rater codes in 16 bits when they fit: smaller copies, and radix sorts.
        small = rater.astype(np.uint16) if n_raters <= 1 << 16 else self._self_rater
        # The pairs of ratings are kept sorted by rater pair: ``inverse`` (the pair of each)
        # is then non-decreasing, and every count below writes memory in order.
        order, self.pair_a, self.pair_b, self.inverse, self.starts = _compact_pairs(
            small[first], small[second]
        )
        #: Pairs of ratings of each co-rating pair (the items they share).
        self.overlap = np.diff(np.append(self.starts, len(order))).astype(np.int64)
        self.distinct = self.pair_a.astype(np.int64) * n_raters + self.pair_b
        # Small labels gathered in rating order, then put in pair order (cheaper than
        # moving the wide positions).
        self.label_a = label[first][order]
        self.label_b = label[second][order]
        #: Group of each pair of ratings (``None``: one group).
        self.group = None if group is None else group[first][order]
        self._every: np.ndarray | None = None  # every co-rating pair, as pairs() gives it

    @property
    def n_rating_pairs(self) -> int:
        return len(self.inverse)

    def pairs(self, min_overlap: int | None) -> np.ndarray:
        """Every pair (``min_overlap`` None or 0), else the pairs sharing that many items."""
        if not min_overlap:
            return _kernel.all_pairs(self.n_raters)
        keep = self.overlap >= min_overlap
        if keep.all():  # the co-rating pairs themselves, which _rows knows at once
            if self._every is None:
                self._every = np.column_stack([self.pair_a, self.pair_b])
            return self._every
        return np.column_stack([self.pair_a[keep], self.pair_b[keep]])

    def _rows(self, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Row of each pair of ratings in ``pairs`` (-1: not asked), and the self pairs."""
        if pairs is self._every:
            empty = np.zeros(0, dtype=np.intp)
            return self.inverse, empty, empty
        pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
        a, b = pairs[:, 0], pairs[:, 1]
        if np.array_equal(a, self.pair_a) and np.array_equal(b, self.pair_b):
            empty = np.zeros(0, dtype=np.intp)
            return self.inverse, empty, empty  # the co-rating pairs, in their own order
        same = a == b
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        key = lo.astype(np.int64) * self.n_raters + hi
        pos = np.searchsorted(self.distinct, key)
        pos = np.minimum(pos, max(len(self.distinct) - 1, 0))
        found = ~same & (len(self.distinct) > 0)
        if len(self.distinct):
            found &= self.distinct[pos] == key
        row_of_distinct = np.full(len(self.distinct), -1, dtype=np.intp)
        row_of_distinct[pos[found]] = np.flatnonzero(found)
        swapped = np.flatnonzero(a > b)
        return row_of_distinct[self.inverse], np.flatnonzero(same), swapped

    def tables(
        self, pairs: np.ndarray, weights: Any = None, full: bool = False
    ) -> np.ndarray | DiagonalCounts:
        """Count ``pairs`` (an ``(n, 2)`` array of rater codes) in every group.

        Full ``(n, G, K, K)`` tables, or ``DiagonalCounts`` when the categories are
        many and the statistic allows (see ``kappaframe._count.diagonal.use_diagonal``).
        """
        pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
        n_pairs, g, k = len(pairs), self.n_groups, self.n_categories
        row, same, swapped = self._rows(pairs)
        asked = row >= 0
        everything = bool(asked.all())
        if use_diagonal(n_pairs, g, k, weights, full):
            cell = self._cells(row, None if everything else asked)
            la, lb = self.label_a, self.label_b
            if not everything:
                la, lb = la[asked], lb[asked]
            if swapped.size:
                flip = np.isin(row if everything else row[asked], swapped)
                la, lb = np.where(flip, lb, la), np.where(flip, la, lb)
            # The co-rating pairs in their own order, one group: the cells are the sorted
            # runs of ``inverse``, none empty.
            runs = self.starts if row is self.inverse and self.group is None else None
            sums = _kernel.diagonal_sums(cell, la, lb, n_pairs * g, k, starts=runs)
            shaped = {name: a.reshape(n_pairs, g, *a.shape[1:]) for name, a in sums.items()}
            diag = DiagonalCounts.from_sums(shaped)
            if same.size:
                hist = self._histograms(pairs[same, 0])
                diag.n[same] = hist.sum(axis=-1)
                diag.agree[same] = diag.n[same]
                diag.rows[same] = hist
                diag.cols[same] = hist
            return diag

        _kernel.check_count_size(n_pairs, g, k)
        cells = n_pairs * g * k * k
        if everything:
            flat = (self._cells(row, None) * k + self.label_a) * k + self.label_b
        else:
            flat = (self._cells(row, asked) * k + self.label_a[asked]) * k
            flat += self.label_b[asked]
        out = np.bincount(flat, minlength=cells).reshape(n_pairs, g, k, k)
        if swapped.size:
            out[swapped] = np.swapaxes(out[swapped], -2, -1)
        if same.size:
            hist = self._histograms(pairs[same, 0])
            label = np.arange(k)
            out[same[:, None, None], np.arange(g)[None, :, None], label, label] = hist
        return out

    def _cells(self, row: np.ndarray, asked: np.ndarray | None) -> np.ndarray:
        """The (pair, group) cell ``row * G + group`` of each (asked) pair of ratings."""
        if asked is not None:
            row = row[asked]
        if self.group is None:
            return row
        return row * self.n_groups + (self.group if asked is None else self.group[asked])

    def _histograms(self, raters: np.ndarray) -> np.ndarray:
        """Label counts ``(len(raters), G, K)`` of each rater in each group."""
        g, k = self.n_groups, self.n_categories
        lookup = np.full(self.n_raters, -1, dtype=np.intp)
        lookup[raters] = np.arange(len(raters))
        row = lookup[self._self_rater]
        sel = row >= 0
        cell = row[sel] if self._self_group is None else row[sel] * g + self._self_group[sel]
        flat = cell * k + self._self_label[sel]
        return np.bincount(flat, minlength=len(raters) * g * k).reshape(len(raters), g, k)


def _compact_pairs(
    a: np.ndarray, b: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Sort the pairs ``(a, b)`` of rater codes and number the distinct ones.

    Returns the sorting ``order``, the distinct pairs' ``a`` and ``b`` (sorted), the number
    of the distinct pair of each sorted pair (non-decreasing) and the position where each
    distinct pair's run starts: ``np.unique`` of the pairs with ``return_inverse`` and
    ``return_index``, in sorted order. Codes of 16 bits (at most 65,536 raters) sort by
    two stable radix sorts (by ``b``, then by ``a``), linear in the pairs.
    """
    if a.dtype == np.uint16:
        order = np.argsort(b, kind="stable")
        order = order[np.argsort(a[order], kind="stable")]
    else:
        order = np.lexsort((b, a))
    a, b = a[order], b[order]
    new = np.empty(len(a), dtype=bool)
    new[:1] = True
    np.not_equal(a[1:], a[:-1], out=new[1:])
    new[1:] |= b[1:] != b[:-1]
    starts = np.flatnonzero(new)
    inverse = np.cumsum(new, dtype=np.intp) - 1
    return order, a[starts].astype(np.intp), b[starts].astype(np.intp), inverse, starts


def _pairs_of_ratings(unit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions ``(first, second)`` of every pair of ratings sharing a unit.

    ``unit`` is sorted. Units are grouped by size ``m``; each class is one broadcast of
    its start positions against ``np.triu_indices(m, 1)``.
    """
    if not len(unit):
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    bounds = np.flatnonzero(np.diff(unit)) + 1
    starts = np.concatenate([[0], bounds]).astype(np.intp)
    sizes = np.diff(np.concatenate([starts, [len(unit)]]))
    firsts, seconds = [], []
    for m in np.unique(sizes):
        if m < 2:
            continue
        at = starts[sizes == m]
        i, j = np.triu_indices(int(m), 1)
        firsts.append((at[:, None] + i).reshape(-1))
        seconds.append((at[:, None] + j).reshape(-1))
    if not firsts:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    if len(firsts) == 1:  # one size class (every item rated as often): no copy
        return firsts[0], seconds[0]
    return np.concatenate(firsts), np.concatenate(seconds)
