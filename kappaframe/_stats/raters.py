"""Per-rater statistics: each rater against their partners. NumPy only.

From the kappas of the rater pairs: per group and rater, the summary of their kappas with
every partner.
"""

from __future__ import annotations

import numpy as np


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
