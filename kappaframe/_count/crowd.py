"""Sparse pair counting for crowds: thousands of raters, each labeling a few items.

The dense path pivots the long layout into a rater x item matrix and runs the kernel once
per pair of raters: its cost grows with ``raters^2 x items``. A crowd export is mostly
empty in that matrix. Here only the pairs of ratings that share an item are formed:

1. ratings are sorted by unit (an item within its group) and rater (:func:`sort_ratings`);
2. units are grouped by their number of ratings ``m``; for each size class the
   ``m (m - 1) / 2`` pairs of every unit come from one broadcast of ``np.triu_indices``;
3. the pair ids ``rater_a * n_raters + rater_b`` are compacted to ``0 .. P - 1`` (the
   distinct co-rating pairs), and ONE ``np.bincount`` over
   ``(pair, group, label_a, label_b)`` gives ``counts[P, G, K, K]``.

Cost grows with ``sum_i m_i^2`` over the items, memory with the co-rating pairs
(18 bytes per pair of ratings, plus ``P x G x K^2`` counts). The statistics that follow
are the dense path's: same counts, same numbers.

When is it used? :func:`use_crowd` decides, in :func:`kappaframe._api.plan.prepare`, for the
long layout only: when the rater x item matrix would have more than
:data:`CROWD_MIN_CELLS` cells and the pairs of ratings are fewer than a quarter of the
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
        rater = np.asarray(rater[valid], dtype=np.intp)
        unit = np.asarray(unit[valid], dtype=np.intp)
        label = np.asarray(label[valid])
        self.n_raters = n_raters
        self.n_groups = n_groups
        self.n_categories = n_categories
        group = (
            np.zeros(len(unit), dtype=np.intp)
            if unit_group is None
            else np.asarray(unit_group, dtype=np.intp)[unit]
        )
        # Each rater's own labels (the diagonal of a rater against themself).
        self._self_rater, self._self_group, self._self_label = rater, group, label

        first, second = _pairs_of_ratings(unit)
        key = rater[first].astype(np.int64) * n_raters + rater[second]
        distinct, inverse = np.unique(key, return_inverse=True)
        self.distinct = distinct
        self.pair_a = (distinct // n_raters).astype(np.intp)
        self.pair_b = (distinct % n_raters).astype(np.intp)
        self.inverse = inverse.astype(np.intp, copy=False)
        self.label_a = label[first]
        self.label_b = label[second]
        self.group = group[first]
        self.overlap = np.bincount(self.inverse, minlength=len(distinct))

    @property
    def n_rating_pairs(self) -> int:
        return len(self.inverse)

    def pairs(self, min_overlap: int | None) -> np.ndarray:
        """Every pair (``min_overlap`` None or 0), else the pairs sharing that many items."""
        if not min_overlap:
            return _kernel.all_pairs(self.n_raters)
        keep = self.overlap >= min_overlap
        return np.column_stack([self.pair_a[keep], self.pair_b[keep]])

    def _rows(self, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Row of each pair of ratings in ``pairs`` (-1: not asked), and the self pairs."""
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

        Full ``(n, G, K, K)`` tables, or :class:`DiagonalCounts` when the categories are
        many and the statistic allows (see :func:`kappaframe._count.diagonal.use_diagonal`).
        """
        pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
        n_pairs, g, k = len(pairs), self.n_groups, self.n_categories
        row, same, swapped = self._rows(pairs)
        asked = row >= 0
        everything = bool(asked.all())
        if use_diagonal(n_pairs, g, k, weights, full):
            sums = _kernel.empty_diagonal(n_pairs, g, k)
            if everything:
                row_x, grp, la, lb = row, self.group, self.label_a, self.label_b
            else:
                row_x, grp = row[asked], self.group[asked]
                la, lb = self.label_a[asked], self.label_b[asked]
            if swapped.size:
                flip = np.isin(row_x, swapped)
                la, lb = np.where(flip, lb, la), np.where(flip, la, lb)
            cell = row_x * g + grp
            _kernel.add_diagonal(
                sums, slice(None), cell, la.astype(np.intp), lb.astype(np.intp), n_pairs * g, k
            )
            diag = DiagonalCounts.from_sums(sums)
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
            flat = ((row * g + self.group) * k + self.label_a) * k + self.label_b
        else:
            flat = ((row[asked] * g + self.group[asked]) * k + self.label_a[asked]) * k
            flat += self.label_b[asked]
        out = np.bincount(flat, minlength=cells).reshape(n_pairs, g, k, k)
        if swapped.size:
            out[swapped] = np.swapaxes(out[swapped], -2, -1)
        if same.size:
            hist = self._histograms(pairs[same, 0])
            label = np.arange(k)
            out[same[:, None, None], np.arange(g)[None, :, None], label, label] = hist
        return out

    def _histograms(self, raters: np.ndarray) -> np.ndarray:
        """Label counts ``(len(raters), G, K)`` of each rater in each group."""
        g, k = self.n_groups, self.n_categories
        lookup = np.full(self.n_raters, -1, dtype=np.intp)
        lookup[raters] = np.arange(len(raters))
        row = lookup[self._self_rater]
        sel = row >= 0
        flat = (row[sel] * g + self._self_group[sel]) * k + self._self_label[sel]
        return np.bincount(flat, minlength=len(raters) * g * k).reshape(len(raters), g, k)


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
    return np.concatenate(firsts), np.concatenate(seconds)
