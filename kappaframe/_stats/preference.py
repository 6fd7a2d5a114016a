"""Preference judges: what survives swapping the two answers, and Wilson intervals.

A verdict is coded by the position it prefers: 0 the answer shown first, 1 the answer shown
second, 2 a tie, -1 missing. A question read in both orders is one of nine cells,
``3 * first + second``; every share is a sum of cells over the questions of a group.
"""

from __future__ import annotations

import numpy as np

from .inference import normal_quantile

__all__ = [
    "CONSISTENT",
    "FIRST_BIAS",
    "RESOLVED",
    "SECOND_BIAS",
    "TIES",
    "cell_counts",
    "cells",
    "wilson",
]

#: Cells whose verdict survives the swap: (first, second) = (A, B) prefers answer A in both
#: orders, (B, A) prefers answer B in both, (tie, tie) ties in both.
CONSISTENT = (1, 3, 8)
#: Cell (A, A): whatever was shown first won, in both orders.
FIRST_BIAS = (0,)
#: Cell (B, B): whatever was shown second won, in both orders.
SECOND_BIAS = (4,)
#: Cells with a tie in at least one order.
TIES = (2, 5, 6, 7, 8)
#: The resolved verdict of each cell, as MT-Bench resolves a swap: a consistent verdict
#: stays (0 answer A, 1 answer B, 2 tie), any inconsistent one becomes a tie.
RESOLVED = np.array([2, 0, 2, 1, 2, 2, 2, 2, 2], dtype=np.intp)


def cells(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The cell ``3 * first + second`` of each question; -1 where either order is missing."""
    first = np.asarray(first, dtype=np.intp)
    second = np.asarray(second, dtype=np.intp)
    return np.where((first < 0) | (second < 0), -1, 3 * first + second)


def cell_counts(
    cell: np.ndarray, group: np.ndarray, n_groups: int
) -> tuple[np.ndarray, np.ndarray]:
    """Questions per group and cell ``(G, 9)``, and questions missing an order per group."""
    read = cell >= 0
    counts = np.bincount(group[read] * 9 + cell[read], minlength=n_groups * 9)
    missing = np.bincount(group[~read], minlength=n_groups)
    return counts.reshape(n_groups, 9).astype(np.int64), missing.astype(np.int64)


def wilson(x: np.ndarray, n: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's (1927) score interval of ``x / n``; NaN where ``n = 0``.

    ``(p + z^2 / 2n -/+ z sqrt(p (1 - p) / n + z^2 / 4n^2)) / (1 + z^2 / n)``, with
    ``p = x / n`` and ``z`` the two-sided normal quantile of ``level``: statsmodels'
    ``proportion_confint(x, n, alpha=1 - level, method="wilson")``.
    """
    x = np.asarray(x, dtype=float)
    n = np.asarray(n, dtype=float)
    z2 = normal_quantile(level) ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        p = x / n
        denom = 1.0 + z2 / n
        centre = (p + z2 / (2.0 * n)) / denom
        half = np.sqrt(z2) * np.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    return centre - half, centre + half
