"""Agreement on each item: how many ratings, how spread, how much the raters agree. NumPy only.

Everything here reads one table, ``counts[i, j]``: how many ratings item ``i`` got in
category ``j`` (``kappaframe._stats.consensus.item_counts``). With ``n_i`` the ratings of
item ``i``:

- ``p_i = sum_j n_ij (n_ij - 1) / (n_i (n_i - 1))``, Fleiss' (1971) agreement on subject
  ``i``: the share of ordered pairs of its ratings that agree. Its mean over items with the
  same number of ratings is Fleiss' observed agreement ``P-bar`` (``p_o`` of
  ``kappaframe.overall(method="fleiss")``). Undefined (NaN) below two ratings: one rating
  agrees with nobody, so it is no 1.0.
- ``entropy = -sum_j s_ij log2 s_ij`` with ``s_ij = n_ij / n_i``, in bits: 0 when every
  rating is one category, ``log2(m)`` when they spread evenly over ``m`` categories. NaN for
  an item with no rating.

``per_item_sparse`` reads the same table by the pairs that occur
(``kappaframe._stats.consensus.ItemCounts``), in memory that grows with the ratings.
"""

from __future__ import annotations

import numpy as np

from .consensus import ItemCounts

__all__ = ["per_item", "per_item_sparse"]

#: Up to this many ratings per item and category, the per-count terms are looked up.
_TABLE_LIMIT = 1 << 20

#: Cells (items x categories) of the dense rows ``per_item_sparse`` sums at a time.
_CHUNK_CELLS = 1 << 22


def per_item(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Per-item ratings, distinct labels, Fleiss' agreement ``p_i`` and entropy.

    Parameters
    ----------
    counts : ndarray of shape (n_items, K)
        Ratings per item and category (whole numbers).

    Returns
    -------
    dict of ndarray
        ``n_ratings`` (int64), ``n_distinct`` (int64: categories used), ``p_i`` (float:
        NaN below two ratings) and ``entropy`` (float, in bits: NaN without a rating).

    Examples
    --------
    >>> import numpy as np
    >>> out = per_item(np.array([[3, 1, 0], [2, 2, 0], [1, 0, 0]]))
    >>> out["n_ratings"].tolist(), out["n_distinct"].tolist()
    ([4, 4, 1], [2, 2, 1])
    >>> [round(float(v), 3) for v in out["p_i"][:2]], bool(np.isnan(out["p_i"][2]))
    ([0.5, 0.333], True)
    >>> [round(float(v), 3) for v in out["entropy"]]
    [0.811, 1.0, 0.0]
    """
    counts = np.asarray(counts, dtype=np.int64)
    n = counts.sum(axis=1)
    n_distinct = np.count_nonzero(counts, axis=1).astype(np.int64)
    top = int(counts.max()) if counts.size else 0
    if top <= _TABLE_LIMIT:  # c (c - 1) and c log2 c of every count, looked up
        values = np.arange(top + 1, dtype=np.float64)
        pair_terms, log_terms = values * (values - 1), values * np.log2(np.maximum(values, 1))
        pairs, weighted = pair_terms[counts].sum(axis=1), log_terms[counts].sum(axis=1)
    else:
        filled = counts.astype(np.float64)
        pairs = (filled * (filled - 1)).sum(axis=1)
        weighted = (filled * np.log2(np.maximum(filled, 1))).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_i = np.where(n >= 2, pairs / (n * (n - 1.0)), np.nan)
        # -sum_j s_j log2 s_j = log2 n - sum_j n_j log2 n_j / n
        entropy = np.where(n > 0, np.log2(np.maximum(n, 1)) - weighted / n, np.nan)
    entropy[n_distinct == 1] = 0.0  # exactly: one label
    np.maximum(entropy, 0.0, out=entropy, where=~np.isnan(entropy))  # no -1e-16
    return {"n_ratings": n, "n_distinct": n_distinct, "p_i": p_i, "entropy": entropy}


def _terms(count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``c (c - 1)`` and ``c log2 c`` of each count, as ``per_item`` computes them."""
    top = int(count.max()) if count.size else 0
    if top <= _TABLE_LIMIT:
        values = np.arange(top + 1, dtype=np.float64)
        pair_terms, log_terms = values * (values - 1), values * np.log2(np.maximum(values, 1))
        return pair_terms[count], log_terms[count]
    filled = count.astype(np.float64)
    return filled * (filled - 1), filled * np.log2(np.maximum(filled, 1))


def per_item_sparse(counts: ItemCounts) -> dict[str, np.ndarray]:
    """``per_item`` of the table ``counts`` holds by its nonzero cells: the same numbers.

    The pair terms are whole numbers, summed exactly in any order. The entropy's
    ``sum_j n_ij log2 n_ij`` is summed as ``per_item`` sums a row (NumPy's pairwise order
    over all K cells): one or two nonzero terms need no order, and the items with three
    or more are summed over their dense rows, a bounded block of items at a time.

    Examples
    --------
    >>> import numpy as np
    >>> from kappaframe._stats.consensus import sparse_item_counts
    >>> out = per_item_sparse(sparse_item_counts(np.array([0, 0, 0, 0, 1, 1]),
    ...                                          np.array([0, 0, 0, 1, 0, 1]), 3, 3))
    >>> out["n_ratings"].tolist(), out["n_distinct"].tolist()
    ([4, 2, 0], [2, 2, 0])
    >>> [round(float(v), 3) for v in out["entropy"][:2]]
    [0.811, 1.0]
    """
    n, k = counts.n_items, counts.k
    item = counts.item
    n_ratings = np.bincount(item, weights=counts.tally, minlength=n).astype(np.int64)
    n_distinct = np.bincount(item, minlength=n).astype(np.int64)
    pair_term, log_term = _terms(counts.tally)
    pairs = np.bincount(item, weights=pair_term, minlength=n)
    weighted = np.bincount(item, weights=log_term, minlength=n)
    many = np.flatnonzero(n_distinct >= 3)  # items whose sum depends on the order
    if len(many):
        starts = np.searchsorted(item, many)
        step = max(1, _CHUNK_CELLS // max(k, 1))
        for lo in range(0, len(many), step):
            block = many[lo : lo + step]
            first, last = starts[lo], np.searchsorted(item, block[-1], side="right")
            rows = np.zeros((len(block), k))
            local = np.minimum(np.searchsorted(block, item[first:last]), len(block) - 1)
            mine = block[local] == item[first:last]  # not the items between them
            rows[local[mine], counts.label[first:last][mine]] = log_term[first:last][mine]
            weighted[block] = rows.sum(axis=1)
    n_float = n_ratings.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_i = np.where(n_ratings >= 2, pairs / (n_float * (n_float - 1.0)), np.nan)
        entropy = np.where(
            n_ratings > 0, np.log2(np.maximum(n_ratings, 1)) - weighted / n_float, np.nan
        )
    entropy[n_distinct == 1] = 0.0
    np.maximum(entropy, 0.0, out=entropy, where=~np.isnan(entropy))
    return {"n_ratings": n_ratings, "n_distinct": n_distinct, "p_i": p_i, "entropy": entropy}
