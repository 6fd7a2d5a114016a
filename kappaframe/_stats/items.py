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
"""

from __future__ import annotations

import numpy as np

__all__ = ["per_item"]

#: Up to this many ratings per item and category, the per-count terms are looked up.
_TABLE_LIMIT = 1 << 20


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
