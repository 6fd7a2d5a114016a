"""Tests and indices of one pair of raters' K x K table: do they use the categories alike.

NumPy only (SciPy's ``chdtrc`` for the chi-square tail, imported on first use). Every
function takes contingency tables ``counts[..., K, K]`` (rows: rater a, columns: rater b)
and returns arrays shaped like the leading axes (pairs x groups), all tables at once.

- ``stuart_maxwell``: marginal homogeneity (Stuart 1955, Maxwell 1970), statsmodels'
  ``SquareTable(table, shift_zeros=False).homogeneity()``.
- ``bowker``: symmetry (Bowker 1948), statsmodels'
  ``SquareTable(table, shift_zeros=False).symmetry()``.
- ``mcnemar``: two categories, with and without continuity correction (McNemar 1947),
  statsmodels' ``mcnemar(table, exact=False, correction=...)``.
- ``bangdiwala_b``: Bangdiwala's (1985) B.
- ``specific_agreement``: each category's specific agreement with its delta-method
  standard error (Graham & Bull 1998).

Both tests read the observed table. statsmodels' default ``SquareTable(table)`` first
replaces every zero cell by 0.5 (``shift_zeros=True``), which changes both statistics of a
table with an empty cell; on a table without one the two agree.

An empty table gives NaN everywhere; so does McNemar's statistic without disagreement and
the specific agreement of a category no rater chose. The caller warns once
(``kappaframe._errors.warn_undefined``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "bangdiwala_b",
    "bowker",
    "chi2_sf",
    "mcnemar",
    "specific_agreement",
    "stuart_maxwell",
]


def chi2_sf(statistic: np.ndarray, df: Any) -> np.ndarray:
    """``P(X >= statistic)`` for X chi-square with ``df`` degrees of freedom (NaN stays NaN).

    ``df == 0`` (one category) is the point mass at 0: ``p = 1`` for a statistic of 0.
    """
    import scipy.special

    statistic = np.asarray(statistic, dtype=float)
    df = np.broadcast_to(np.asarray(df, dtype=float), statistic.shape)
    p = np.asarray(scipy.special.chdtrc(np.where(df > 0, df, 1.0), statistic), dtype=float)
    return np.where(df > 0, p, np.where(np.isnan(statistic), np.nan, 1.0))


def _float(counts: Any) -> tuple[np.ndarray, np.ndarray]:
    """The tables as floats and their totals ``n`` (leading axes)."""
    table = np.asarray(counts, dtype=float)
    return table, table.sum(axis=(-2, -1))


def stuart_maxwell(counts: Any) -> dict[str, np.ndarray]:
    """Stuart-Maxwell test of marginal homogeneity: ``chi2``, ``df``, ``p`` of each table.

    With ``p_ij`` the proportions, ``d = p_.k - p_k.`` and ``V`` the K - 1 x K - 1 matrix
    ``V_kk = p_k. + p_.k - 2 p_kk``, ``V_kl = -(p_kl + p_lk)`` over the first K - 1
    categories (the last is dropped: the K differences sum to 0),

        chi2 = n d' V^+ d,  df = rank(V),

    p from the chi-square distribution. ``V^+`` is the Moore-Penrose inverse: where ``V``
    is invertible (``df = K - 1``) this is statsmodels' ``d' V^-1 d``. ``V`` is singular
    when the raters never disagree on some category; ``d`` lies in its range (``n V`` is
    the sum of the items' ``x x'`` and ``n d`` of their ``x``, ``x = e_b - e_a``), so the
    statistic is the test over the categories left and ``df`` drops by one for each (as
    the generalised-inverse form, e.g. R coin's ``mh_test``; statsmodels gives NaN, or,
    when rounding hides the singularity, a number with ``df = K - 1``). No disagreement at
    all, or one category: ``chi2 = 0``, ``df = 0``, ``p = 1``. An empty table: NaN.
    """
    table, n = _float(counts)
    k = table.shape[-1]
    lead = table.shape[:-2]
    defined = n > 0
    if k <= 1:
        zero = np.where(defined, 0.0, np.nan)
        return {"chi2": zero, "df": np.zeros(lead, dtype=np.int64), "p": chi2_sf(zero, 0)}
    with np.errstate(divide="ignore", invalid="ignore"):
        probs = np.where(defined[..., None, None], table / n[..., None, None], 0.0)
    rows = probs.sum(axis=-1)[..., :-1]
    cols = probs.sum(axis=-2)[..., :-1]
    inner = probs[..., :-1, :-1]
    d = cols - rows
    cov = -(inner + np.swapaxes(inner, -2, -1))
    idx = np.arange(k - 1)
    cov[..., idx, idx] = rows + cols - 2.0 * np.diagonal(inner, axis1=-2, axis2=-1)
    values, vectors = np.linalg.eigh(cov)  # V is symmetric, positive semi-definite
    tol = values.max(axis=-1, keepdims=True) * (k - 1) * np.finfo(float).eps
    kept = values > tol
    along = np.einsum("...kj,...k->...j", vectors, d)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(kept, along**2 / np.where(kept, values, 1.0), 0.0)
    chi2 = np.where(defined, n * terms.sum(axis=-1), np.nan)
    df = kept.sum(axis=-1).astype(np.int64)
    return {"chi2": chi2, "df": df, "p": chi2_sf(chi2, df)}


def bowker(counts: Any) -> dict[str, np.ndarray]:
    """Bowker's test of symmetry: ``chi2``, ``df``, ``p`` of each table.

        chi2 = sum_(i < j) (n_ij - n_ji)^2 / (n_ij + n_ji),  df = K (K - 1) / 2.

    A pair of cells that are both 0 adds 0 and keeps its degree of freedom, as statsmodels
    does (it adds 1e-20 to each denominator; SAS instead drops such pairs from ``df``, and
    R's ``mcnemar.test`` gives NaN). An empty table gives NaN.
    """
    table, n = _float(counts)
    k = table.shape[-1]
    upper = np.triu_indices(k, 1)
    above = table[..., upper[0], upper[1]]
    below = np.swapaxes(table, -2, -1)[..., upper[0], upper[1]]
    both = above + below
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(both > 0, (above - below) ** 2 / both, 0.0)
    chi2 = np.where(n > 0, terms.sum(axis=-1), np.nan)
    df = np.full(table.shape[:-2], k * (k - 1) // 2, dtype=np.int64)
    return {"chi2": chi2, "df": df, "p": chi2_sf(chi2, df)}


def mcnemar(counts: Any, *, correction: bool) -> dict[str, np.ndarray]:
    """McNemar's test of a 2 x 2 table: ``chi2`` and ``p`` (1 degree of freedom).

        chi2 = (|n_12 - n_21| - c)^2 / (n_12 + n_21),

    ``c = 1`` with the continuity correction (Edwards 1948), else 0 (then it is the
    Stuart-Maxwell and Bowker statistic of the table). NaN when the raters never disagree
    (``n_12 + n_21 = 0``; statsmodels gives NaN without the correction and an infinite
    statistic with it) and for an empty table.
    """
    table = np.asarray(counts, dtype=float)
    b, c = table[..., 0, 1], table[..., 1, 0]
    shift = 1.0 if correction else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        chi2 = np.where(b + c > 0, (np.abs(b - c) - shift) ** 2 / (b + c), np.nan)
    return {"chi2": chi2, "p": chi2_sf(chi2, 1)}


def bangdiwala_b(counts: Any) -> np.ndarray:
    """Bangdiwala's B: ``sum_k n_kk^2 / sum_k n_k. n_.k`` (NaN for an empty table).

    The share of the agreement chart's rectangles (row total x column total) that the
    diagonal's squares fill: 1 for perfect agreement, 0 when no item is agreed on.
    """
    table, n = _float(counts)
    diag = np.diagonal(table, axis1=-2, axis2=-1)
    area = (table.sum(axis=-1) * table.sum(axis=-2)).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n > 0, (diag**2).sum(axis=-1) / area, np.nan)


def specific_agreement(counts: Any) -> dict[str, np.ndarray]:
    """Each category's specific agreement and its delta-method standard error.

    For category k, with ``a = n_kk`` (both chose k) and ``m = n_k. + n_.k - 2 n_kk`` (one
    of the two chose k):

        s_k = 2 a / (2 a + m) = 2 n_kk / (n_k. + n_.k),
        var(s_k) = 4 a m (a + m) / (2 a + m)^4,

    the delta-method variance of Graham & Bull (1998) (``a``, ``m`` and the rest of the
    table multinomial). For two categories ``s`` of the first is the negative and of the
    second the positive agreement, ``2d / (2d + b + c)`` and ``2a / (2a + b + c)``. Arrays
    shaped ``(..., K)``; NaN where no rater chose k (``2 a + m = 0``).
    """
    table = np.asarray(counts, dtype=float)
    a = np.diagonal(table, axis1=-2, axis2=-1)
    used = table.sum(axis=-1) + table.sum(axis=-2)
    m = used - 2.0 * a
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(used > 0, 2.0 * a / used, np.nan)
        var = np.where(used > 0, 4.0 * a * m * (a + m) / used**4, np.nan)
    return {"value": value, "var": var}
