"""Per-rater statistics: each rater against their partners. NumPy only.

From the K x K tables of the rater pairs and their kappas, per group and rater: the summary
of their kappas with every partner (``partner_summary``), and their label mix against
their partners' on the items they share (``label_mix``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["label_mix", "partner_summary"]


def partner_summary(
    between: np.ndarray, kappa: np.ndarray, n_groups: int, n_raters: int
) -> dict[str, np.ndarray]:
    """Summarise each (group, rater)'s kappas with their partners: mean, median, min.

    ``kappa[p, g]`` is the kappa of the pair ``between[p] = (a, b)`` in group g; it gives
    a the partner b and b the partner a. Undefined kappas are left out.

    Returns
    -------
    dict of ``(n_groups, n_raters)`` arrays:
        ``mean``, ``median``, ``min`` (NaN without a defined kappa); ``argmin``: the
        partner of the min (the first in rater order on ties); ``some``: whether any
        kappa is defined.
    """
    group = np.broadcast_to(np.arange(n_groups), kappa.shape)
    first = np.broadcast_to(between[:, :1], kappa.shape)
    second = np.broadcast_to(between[:, 1:], kappa.shape)
    raters_e = np.concatenate([first.ravel(), second.ravel()])
    partners_e = np.concatenate([second.ravel(), first.ravel()])
    return _partner_stats(
        np.concatenate([group.ravel(), group.ravel()]),
        raters_e,
        partners_e,
        np.concatenate([kappa.ravel(), kappa.ravel()]),
        n_groups,
        n_raters,
    )


def label_mix(
    mutual: np.ndarray, between: np.ndarray, n_groups: int, n_raters: int
) -> dict[str, np.ndarray]:
    """Each (group, rater)'s labels against their partners' on the items they share.

    ``mutual[p, g]`` is the K x K table of the pair ``between[p] = (a, b)`` in group g
    (rows: a's labels). Over every pair of labels (the rater's, a partner's) given to a
    shared item, with ``o_k`` the rater's share of category k and ``c_k`` the partners'.

    Returns
    -------
    dict of ``(n_groups, n_raters)`` arrays:
        ``shift``: ``sum_k |o_k - c_k| / 2`` (NaN where nothing is shared); ``top``:
        ``argmax_k (o_k - c_k)``; ``has_top``: something is shared and ``shift > 0``;
        ``overused_share`` and ``others_share``: ``o_top`` and ``c_top`` (NaN without a
        top).
    """
    k = mutual.shape[-1]
    shape = mutual.shape[:2]  # (P, G)
    group = np.broadcast_to(np.arange(n_groups), shape)
    first = np.broadcast_to(between[:, :1], shape)
    second = np.broadcast_to(between[:, 1:], shape)
    # The rater's labels and their partners' on the items they share, summed per rater.
    size = shape[0] * shape[1]
    rows_a = mutual.sum(axis=-1).reshape(size, k)  # rater a's labels on shared items
    cols_b = mutual.sum(axis=-2).reshape(size, k)
    key_a = (group * n_raters + first).ravel()
    key_b = (group * n_raters + second).ravel()
    cells = n_groups * n_raters
    own_flat = np.zeros((cells, k))
    others_flat = np.zeros((cells, k))
    for c in range(k):
        own_flat[:, c] = np.bincount(key_a, rows_a[:, c], cells) + np.bincount(
            key_b, cols_b[:, c], cells
        )
        others_flat[:, c] = np.bincount(key_a, cols_b[:, c], cells) + np.bincount(
            key_b, rows_a[:, c], cells
        )
    own = own_flat.reshape(n_groups, n_raters, k)
    others = others_flat.reshape(n_groups, n_raters, k)
    shared = own.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        own_share = own / shared[..., None]
        other_share = others / shared[..., None]
    diff = own_share - other_share
    shift = np.where(shared > 0, np.abs(np.nan_to_num(diff)).sum(axis=-1) / 2.0, np.nan)
    top = np.argmax(np.nan_to_num(diff, nan=-np.inf), axis=-1) if k else np.zeros_like(shared)
    top = top.astype(np.intp)
    has_top = (shared > 0) & (shift > 0) if k else np.zeros_like(shared, dtype=bool)

    def take(values: np.ndarray) -> np.ndarray:
        if not k:
            return np.full(top.shape, np.nan)
        return np.take_along_axis(values, top[..., None], axis=-1)[..., 0]

    return {
        "shift": shift,
        "top": top,
        "has_top": has_top,
        "overused_share": np.where(has_top, take(own_share), np.nan),
        "others_share": np.where(has_top, take(other_share), np.nan),
    }


def _partner_stats(
    group: np.ndarray,
    rater: np.ndarray,
    partner: np.ndarray,
    kappa: np.ndarray,
    n_groups: int,
    n_raters: int,
) -> dict[str, np.ndarray]:
    """Summarise each (group, rater)'s kappas with their partners: mean, median, min.

    Also the partner of the min (the first in rater order on ties). Undefined kappas are
    left out.

    One entry per (group, rater, partner); sorted once, no square matrix (crowds have
    many raters and few partners each).
    """
    keep = np.isfinite(kappa)
    key = group[keep] * n_raters + rater[keep]
    value = kappa[keep]
    other = partner[keep]
    order = np.lexsort((other, value, key))
    value, other = value[order], other[order]
    cells = n_groups * n_raters
    count = np.bincount(key, minlength=cells)
    some = count > 0
    first = np.cumsum(count) - count
    last = max(len(value) - 1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.bincount(key, weights=kappa[keep], minlength=cells) / count
    if len(value):
        low = value[np.minimum(first + (count - 1) // 2, last)]
        high = value[np.minimum(first + count // 2, last)]
        minimum = value[np.minimum(first, last)]
        worst = other[np.minimum(first, last)]
    else:
        low = high = minimum = np.zeros(cells)
        worst = np.zeros(cells, dtype=np.intp)
    shape = (n_groups, n_raters)
    return {
        "mean": np.where(some, mean, np.nan).reshape(shape),
        "median": np.where(some, (low + high) / 2.0, np.nan).reshape(shape),
        "min": np.where(some, minimum, np.nan).reshape(shape),
        "argmin": worst.reshape(shape),
        "some": some.reshape(shape),
    }
