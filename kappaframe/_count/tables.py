"""Additive pair tables: add, align and look up counts with NumPy only.

Counts of disjoint sets of items add up. Parts may list different raters, categories,
pairs and groups; ``combine_tables`` aligns them by value (the caller says where each
part's groups go) and sums. ``lookup`` reads the tables of any pairs, either way round.
The frame-facing class ``kappaframe.Counts`` (in ``kappaframe._api.counts``) holds
these tables with its group keys.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import KappaFrameError, arg
from .diagonal import DiagonalCounts
from .kernel import all_pairs, check_count_size

__all__ = [
    "CategoriesDiffer",
    "PairTables",
    "as_diagonal",
    "combine_tables",
    "lookup",
    "merge_order",
    "same_tables",
    "shared_pairs",
]


class CategoriesDiffer(KappaFrameError):
    """Diagonal-and-marginal counts over different categories cannot be added."""


@dataclass
class PairTables:
    """``tables[p, g]`` of rater pair ``pairs[p]`` (positions into ``raters``) in group ``g``.

    ``tables`` is an ``(n_pairs, n_groups, K, K)`` array, or ``DiagonalCounts``.
    """

    tables: np.ndarray | DiagonalCounts
    pairs: np.ndarray
    raters: list[Hashable]
    categories: list[Any]


def same_tables(a: Any, b: Any) -> bool:
    """Whether two sets of tables (full or diagonal) hold the same numbers."""
    if isinstance(a, DiagonalCounts) or isinstance(b, DiagonalCounts):
        return isinstance(a, DiagonalCounts) and isinstance(b, DiagonalCounts) and a.equals(b)
    return bool(np.array_equal(a, b))


def as_diagonal(tables: np.ndarray | DiagonalCounts) -> DiagonalCounts:
    """Keep only the diagonal and the marginals of full tables."""
    if isinstance(tables, DiagonalCounts):
        return tables
    return DiagonalCounts.from_tables(tables)


def merge_order(lists: list[list[Any]], what: str) -> list[Any]:
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
        f"same {arg('categories' if what == 'category' else 'raters')}."
    )


def combine_tables(
    parts: Sequence[PairTables], group_maps: Sequence[np.ndarray], n_groups: int
) -> PairTables:
    """Sum the parts' tables, aligning raters, categories and pairs by value.

    ``group_maps[i][g]`` is where group ``g`` of part ``i`` goes among ``n_groups``.
    Returns new arrays: no part is modified.
    """
    parts = list(parts)
    if any(isinstance(p.tables, DiagonalCounts) for p in parts):  # one form for all
        parts = [PairTables(as_diagonal(p.tables), p.pairs, p.raters, p.categories) for p in parts]
    first = parts[0]
    if all(_same_layout(first, p) for p in parts[1:]) and all(
        len(m) == n_groups and np.array_equal(m, np.arange(n_groups)) for m in group_maps
    ):  # the batch loop's case: add the arrays as they are
        if isinstance(first.tables, DiagonalCounts):
            sums = DiagonalCounts(*(f.copy() for f in first.tables.fields()))
            for other in parts[1:]:
                assert isinstance(other.tables, DiagonalCounts)
                for mine, theirs in zip(sums.fields(), other.tables.fields(), strict=True):
                    mine += theirs
            return PairTables(sums, first.pairs.copy(), list(first.raters), list(first.categories))
        dtype = np.result_type(*(np.asarray(p.tables).dtype for p in parts))
        total = np.array(first.tables, dtype=dtype, copy=True)
        for other in parts[1:]:
            total += np.asarray(other.tables)
        return PairTables(total, first.pairs.copy(), list(first.raters), list(first.categories))
    raters = merge_order([p.raters for p in parts], "rater")
    categories = merge_order([p.categories for p in parts], "category")
    r, k = len(raters), len(categories)
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
    pairs = np.column_stack([distinct // r, distinct % r]) if r else np.zeros((0, 2), np.intp)
    if isinstance(parts[0].tables, DiagonalCounts):
        if any(p.categories != categories for p in parts):
            raise CategoriesDiffer(
                "cannot add diagonal-and-marginal counts over different categories (the "
                "sums of |i - j| depend on each label's position); count every part with "
                f"the same {arg('categories', ...)} (all labels, in order)."
            )
        diag = DiagonalCounts.zeros(len(distinct), n_groups, k)
        for part, (key, flip), gmap in zip(parts, keyed, group_maps, strict=True):
            sums = as_diagonal(part.tables)
            diag.add_at(np.searchsorted(distinct, key), gmap, sums.flipped(flip))
        return PairTables(diag, pairs, raters, categories)
    dtype = np.result_type(*(np.asarray(p.tables).dtype for p in parts))
    check_count_size(len(distinct), n_groups, k)
    total = np.zeros((len(distinct), n_groups, k, k), dtype=dtype)
    for part, (key, flip), gmap in zip(parts, keyed, group_maps, strict=True):
        tables = np.asarray(part.tables)
        if flip.any():
            tables = tables.copy()
            tables[flip] = np.swapaxes(tables[flip], -2, -1)
        rows = np.searchsorted(distinct, key)
        cmap = np.array([cat_pos[c] for c in part.categories], dtype=np.intp)
        total[np.ix_(rows, gmap, cmap, cmap)] += tables
    return PairTables(total, pairs, raters, categories)


def _same_layout(a: PairTables, b: PairTables) -> bool:
    return (
        a.raters == b.raters
        and a.categories == b.categories
        and np.array_equal(a.pairs, b.pairs)
        and isinstance(a.tables, DiagonalCounts) == isinstance(b.tables, DiagonalCounts)
        and a.tables.shape == b.tables.shape
    )


def shared_pairs(stored: PairTables, overlap: np.ndarray, min_overlap: int | None) -> np.ndarray:
    """Every pair of raters; with ``min_overlap``, the stored pairs sharing that many items.

    ``overlap`` is the items each stored pair shares per group, shape (n_pairs, n_groups).
    """
    if not min_overlap:
        return all_pairs(len(stored.raters))
    off = stored.pairs[:, 0] != stored.pairs[:, 1]
    shared = overlap[off].sum(axis=1)
    return stored.pairs[off][shared >= min_overlap]


def lookup(
    stored: PairTables, pairs: np.ndarray, n_groups: int, full: bool = False
) -> np.ndarray | DiagonalCounts:
    """Tables of ``pairs`` (either way round; pairs never counted are zeros)."""
    pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
    g, k = n_groups, len(stored.categories)
    stored_tables = stored.tables
    out: Any
    if isinstance(stored_tables, DiagonalCounts):
        if full:
            raise KappaFrameError(
                f"these counts keep only the diagonal and the marginals ({k} categories "
                f"made the full tables too large): {arg('ci')}, {arg('stats')} and a custom "
                "weights matrix need the full tables. Use no weights, 'linear' or 'quadratic' "
                "without them, merge rare categories, or count fewer raters or groups."
            )
        out = DiagonalCounts.zeros(len(pairs), g, k)
    else:
        check_count_size(len(pairs), g, k)
        out = np.zeros((len(pairs), g, k, k), dtype=stored_tables.dtype)
    if not len(pairs) or not len(stored.pairs):
        return out
    r = len(stored.raters)
    a, b = pairs[:, 0], pairs[:, 1]
    key = np.minimum(a, b).astype(np.int64) * r + np.maximum(a, b)
    keys = stored.pairs[:, 0].astype(np.int64) * r + stored.pairs[:, 1]
    pos = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
    found = keys[pos] == key
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
