"""Sparse pair counting for crowds: thousands of raters, each labeling a few items.

The dense path pivots the long layout into a rater x item matrix and runs the kernel once
per pair of raters: its cost grows with ``raters^2 x items``. A crowd export is mostly
empty in that matrix. Here only the pairs of ratings that share an item are formed:

1. ratings are sorted by unit (an item within its group) and rater (``sort_ratings``);
2. units are grouped by their number of ratings ``m``; for each size class the
   ``m (m - 1) / 2`` pairs of every unit are the ``np.triu_indices`` columns of its
   ``(units, m)`` block of rater codes and labels;
3. the pairs of ratings are sorted by rater pair (two radix sorts, the labels packed
   beside the rater codes, ``_radix_pairs``) and the distinct co-rating pairs numbered
   ``0 .. P - 1``, in runs; ONE ``np.bincount`` over ``(pair, group, label_a, label_b)``
   gives ``counts[P, G, K, K]`` (or sums over the runs give the diagonal and marginals).

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

from functools import cached_property
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

        # Rater codes in 16 bits when they fit: smaller copies, and radix sorts.
        small = rater.astype(np.uint16) if n_raters <= 1 << 16 else self._self_rater
        carried = [label] if group is None else [label, group]
        (rater_a, rater_b), (label_a, label_b), *grouped = _pairs_of_ratings(unit, small, *carried)
        # The pairs of ratings are kept sorted by rater pair: ``inverse`` (the pair of each)
        # is then non-decreasing, and every count below writes memory in order. The labels
        # (and groups: both ratings of a pair share one) travel with the sort.
        self.pair_a, self.pair_b, self.inverse, self.starts, moved = _compact_pairs(
            rater_a, rater_b, label_a, label_b, *(first for first, _ in grouped)
        )
        #: Pairs of ratings of each co-rating pair (the items they share).
        self.overlap = np.diff(np.append(self.starts, len(self.inverse))).astype(
            np.int64, copy=False
        )
        self.label_a, self.label_b = moved[0], moved[1]
        #: Group of each pair of ratings (``None``: one group).
        self.group = None if group is None else moved[2]
        self._every: np.ndarray | None = None  # every co-rating pair, as pairs() gives it

    @cached_property
    def distinct(self) -> np.ndarray:
        """``rater_a * n_raters + rater_b`` of each co-rating pair, sorted (to look pairs up)."""
        return self.pair_a.astype(np.int64) * self.n_raters + self.pair_b

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
        # The co-rating pairs themselves (``inverse``): every pair of ratings is asked.
        asked = row >= 0 if row is not self.inverse else None
        everything = asked is None or bool(asked.all())
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
    a: np.ndarray, b: np.ndarray, *carried: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]:
    """Sort the pairs ``(a, b)`` of rater codes and number the distinct ones.

    Returns the distinct pairs' ``a`` and ``b`` (sorted), the number of the distinct pair
    of each sorted pair (non-decreasing), the position where each distinct pair's run
    starts (``np.unique`` of the pairs with ``return_inverse`` and ``return_index``, in
    sorted order), and each of the ``carried`` arrays (one value per pair, whole numbers
    >= 0) put in the same order as the pairs, as a stable sort puts them. Codes of 16 bits
    (at most 65,536 raters) sort by two stable radix sorts (``_radix_pairs``), linear in
    the pairs; wider codes by one lexsort.
    """
    sorted_pairs = _radix_pairs(a, b, carried) if a.dtype == np.uint16 else None
    if sorted_pairs is None:
        order = np.lexsort((b, a))
        a, b = a[order], b[order]
        moved = [values[order] for values in carried]
    else:
        a, b, moved = sorted_pairs
    new = np.empty(len(a), dtype=bool)
    new[:1] = True
    np.not_equal(a[1:], a[:-1], out=new[1:])
    new[1:] |= b[1:] != b[:-1]
    starts = np.flatnonzero(new)
    new[:1] = False  # the first pair is number 0: the running count of new pairs after it
    inverse = np.cumsum(new, dtype=np.intp)
    return a[starts].astype(np.intp), b[starts].astype(np.intp), inverse, starts, moved


def _radix_pairs(
    a: np.ndarray, b: np.ndarray, carried: tuple[np.ndarray, ...]
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]] | None:
    """Sort 16-bit pairs ``(a, b)`` by ``b``, then stably by ``a``: two radix sorts.

    Each sort moves one word per pair: the other rater code above the ``carried``
    values, packed in the low bits (a random gather costs about the same for one byte
    as for eight). The sorted codes themselves are counted, not moved: after the sort
    by ``b`` the ``b`` column is ``np.repeat`` of the codes by their counts. ``None``
    when the packed word would not fit in 64 bits.
    """
    widths = [int(values.max()).bit_length() if len(values) else 0 for values in carried]
    low = sum(widths)
    if 16 + low > 64:
        return None
    word = np.uint32 if 16 + low <= 32 else np.uint64
    mask = word((1 << low) - 1)
    packed = a.astype(word) << word(low)
    shift = 0
    for values, width in zip(carried, widths, strict=True):
        packed |= values.astype(word) << word(shift)
        shift += width
    packed = packed[np.argsort(b, kind="stable")]  # by b: each a code above its values
    b = _counted(b)
    by_a = np.argsort((packed >> word(low)).astype(np.uint16), kind="stable")
    packed = ((b.astype(word) << word(low)) | (packed & mask))[by_a]  # now b above them
    a = _counted(a)
    b = (packed >> word(low)).astype(np.uint16)
    moved, shift = [], 0
    for values, width in zip(carried, widths, strict=True):
        bits = (packed >> word(shift)) & word((1 << width) - 1)
        moved.append(bits.astype(values.dtype))
        shift += width
    return a, b, moved


def _counted(codes: np.ndarray) -> np.ndarray:
    """``codes`` sorted, from their counts (16-bit codes: no sort, no gather).

    The running sum of the steps between the codes that occur, each put where its run
    starts: one scatter per distinct code and one cumulative sum (faster than
    ``np.repeat`` by the counts).
    """
    counts = np.bincount(codes)
    present = np.flatnonzero(counts)
    steps = np.zeros(len(codes), dtype=codes.dtype)
    if len(present):
        steps[np.cumsum(counts[present[:-1]])] = np.diff(present)
        steps[0] = present[0]
    return np.cumsum(steps, dtype=codes.dtype)


def _pairs_of_ratings(unit: np.ndarray, *values: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each of ``values`` (one per rating) at both ratings of every pair sharing a unit.

    ``unit`` is sorted. Units are grouped by size ``m``; each class is one ``(units, m)``
    block of every array (a reshape when every unit has ``m`` ratings), whose columns
    ``np.triu_indices(m, 1)`` give the ``m (m - 1) / 2`` pairs of each unit. Returns
    ``(at_first, at_second)`` for each array, in the same order of pairs.
    """
    n = len(unit)
    empty = [(v[:0].copy(), v[:0].copy()) for v in values]
    if not n:
        return empty
    bounds = np.flatnonzero(np.diff(unit)) + 1
    starts = np.concatenate([[0], bounds]).astype(np.intp)
    sizes = np.diff(np.concatenate([starts, [n]]))
    parts: list[tuple[list[np.ndarray], list[np.ndarray]]] = [([], []) for _ in values]
    for m in np.unique(sizes):
        if m < 2:
            continue
        at = starts[sizes == m]
        i, j = np.triu_indices(int(m), 1)
        whole = len(at) * m == n  # every unit has m ratings: the arrays are the blocks
        block = None if whole else at[:, None] + np.arange(m)
        for (firsts, seconds), v in zip(parts, values, strict=True):
            rated = v.reshape(-1, m) if whole else v[block]
            firsts.append(rated[:, i].reshape(-1))
            seconds.append(rated[:, j].reshape(-1))
    if not parts or not parts[0][0]:
        return empty
    return [
        (np.concatenate(f) if len(f) > 1 else f[0], np.concatenate(s) if len(s) > 1 else s[0])
        for f, s in parts
    ]
