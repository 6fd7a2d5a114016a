"""The one counting kernel every backend feeds.

Input: small integer label codes, one row per rater (``-1`` = missing), optional group
codes per item. Output: ``counts[pair, group, K, K]``, the K x K contingency table of
every rater pair in every group. One ``np.bincount`` per pair does all the work.

Missing labels are shifted to an extra category ``0`` (codes become ``code + 1``), so a
pair needs no mask: its table is the ``[1:, 1:]`` corner of a ``(K + 1) x (K + 1)`` count.
That drops the missing items pair by pair without copying anything.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._errors import KappaFrameError

__all__ = ["MAX_COUNT_BYTES", "check_count_size", "code_dtype", "pair_counts"]

#: Refuse to allocate a count tensor bigger than this (bytes) unless told otherwise.
MAX_COUNT_BYTES = 2 * 1024**3


def code_dtype(n_categories: int) -> np.dtype:
    """The smallest signed integer dtype holding codes ``-1 .. n_categories``."""
    for dtype in (np.int8, np.int16, np.int32):
        if n_categories < np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(np.int64)


def check_count_size(
    n_pairs: int, n_groups: int, n_categories: int, limit: int | None = None
) -> None:
    """Raise before allocating ``n_pairs x n_groups x K x K`` counts over ``limit`` bytes."""
    limit = MAX_COUNT_BYTES if limit is None else limit
    size = n_pairs * n_groups * (n_categories + 1) ** 2 * 8
    if size > limit:
        raise KappaFrameError(
            f"the pair counts would take {size / 1024**3:.1f} GiB "
            f"({n_pairs} pairs x {n_groups} groups x {n_categories}^2 categories), over the "
            f"{limit / 1024**3:.1f} GiB limit. Pass fewer raters or groups, merge rare "
            "categories, or raise kappaframe._kernel.MAX_COUNT_BYTES if the memory is there."
        )


def pair_counts(
    codes: np.ndarray,
    pairs: Sequence[tuple[int, int]],
    n_categories: int,
    group_codes: np.ndarray | None = None,
    n_groups: int = 1,
    sample_weight: np.ndarray | None = None,
) -> np.ndarray:
    """Count the contingency table of each rater pair in each group.

    Parameters
    ----------
    codes : ndarray of shape (n_raters, n_items), signed integers
        Label codes in ``0 .. n_categories - 1``; ``-1`` marks a missing label.
    pairs : sequence of (int, int)
        Row indices into ``codes``; ``(a, b)`` counts rater ``a`` on the rows of the
        table and rater ``b`` on its columns. ``(a, a)`` is allowed.
    n_categories : int
        K, the number of categories.
    group_codes : ndarray of shape (n_items,), optional
        Group of each item in ``0 .. n_groups - 1``; ``None`` means one group.
    n_groups : int, default 1
    sample_weight : ndarray of shape (n_items,), optional
        Weight of each item; counts become float sums of weights.

    Returns
    -------
    ndarray of shape (n_pairs, n_groups, K, K)
        ``int64`` counts (``float64`` with ``sample_weight``).
    """
    codes = np.asarray(codes)
    n_items = codes.shape[1]
    k1 = n_categories + 1
    cells = n_groups * k1 * k1
    check_count_size(len(pairs), n_groups, n_categories)
    dtype = np.float64 if sample_weight is not None else np.int64
    out = np.zeros((len(pairs), n_groups, n_categories, n_categories), dtype=dtype)
    if not len(pairs) or n_items == 0 or n_categories == 0:
        return out

    # Shift codes so missing (-1) becomes 0; stored small, widened when added.
    shifted = (codes + 1).astype(np.intp if cells > np.iinfo(np.int32).max else np.int32)
    if group_codes is None:
        base = np.zeros(n_items, dtype=np.intp)
    else:
        base = np.asarray(group_codes, dtype=np.intp) * (k1 * k1)

    left = np.empty(n_items, dtype=np.intp)
    index = np.empty(n_items, dtype=np.intp)
    current = -1
    for p, (a, b) in enumerate(pairs):
        if a != current:
            np.multiply(shifted[a], k1, out=left)
            left += base
            current = a
        np.add(left, shifted[b], out=index)
        table = np.bincount(index, weights=sample_weight, minlength=cells)
        out[p] = table.reshape(n_groups, k1, k1)[:, 1:, 1:]
    return out
