"""Inference for agreement coefficients: the one normal interval and the FCE variance terms.

Every ``ci=`` column of kappaframe comes from :func:`normal_interval`: ``se`` from a
variance, the normal interval clipped to [-1, 1], and the large-sample test of a zero
coefficient with the null standard error. The Fleiss, Cohen & Everitt (1969) terms
(:func:`fce_terms`) serve Cohen's kappa (:func:`standard_errors`) and Light's mean kappa.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import erfc, sqrt
from statistics import NormalDist

import numpy as np

from .._errors import KappaFrameError

__all__ = ["FCETerms", "fce_terms", "normal_interval", "normal_quantile", "standard_errors"]


def normal_quantile(level: float) -> float:
    """The two-sided normal quantile of a confidence level (1.96 for 0.95)."""
    return NormalDist().inv_cdf(0.5 + level / 2.0)


def two_sided_p(z: np.ndarray) -> np.ndarray:
    """Two-sided normal p-values of ``z`` (NaN stays NaN)."""
    flat = np.abs(np.asarray(z, dtype=float)).ravel()
    out = np.array([erfc(v / sqrt(2.0)) if v == v else np.nan for v in flat])
    return out.reshape(np.shape(z))


def normal_interval(
    value: np.ndarray, var: np.ndarray, var0: np.ndarray, level: float
) -> dict[str, np.ndarray]:
    """``se``, ``ci_low``, ``ci_high``, ``z``, ``p_value`` of a coefficient.

    ``se = sqrt(var)``; the interval ``value -/+ z_(1 - alpha/2) se`` is clipped to
    [-1, 1]; ``z = value / sqrt(var0)`` with ``var0`` the variance under value = 0 and
    ``p_value`` two-sided (NaN where the null variance is 0: no test). Negative variances
    (rounding) count as 0; everything is NaN where ``value`` is.
    """
    if not 0 < level < 1:
        raise KappaFrameError(f"ci must be a confidence level between 0 and 1; got {level!r}.")
    value = np.asarray(value, dtype=float)
    defined = np.isfinite(value)
    se = np.where(defined, np.sqrt(np.clip(var, 0.0, None)), np.nan)
    null = np.sqrt(np.clip(var0, 0.0, None))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(defined & (null > 0), value / null, np.nan)
    half = normal_quantile(level) * se
    return {
        "se": se,
        "ci_low": np.clip(value - half, -1.0, 1.0),
        "ci_high": np.clip(value + half, -1.0, 1.0),
        "z": z,
        "p_value": two_sided_p(z),
    }


@dataclass
class FCETerms:
    """Fleiss, Cohen & Everitt's (1969) pieces of tables ``[..., K, K]``.

    ``probs`` the proportions, ``rows``/``cols`` their marginals, ``agree`` the agreement
    weights ``1 - W``, ``spread[i, j] = wbar_i. + wbar_.j`` with ``wbar_i. = sum_j p_.j
    w_ij`` and ``wbar_.j = sum_i p_i. w_ij``, and ``p_e`` the weighted chance agreement.
    """

    probs: np.ndarray
    rows: np.ndarray
    cols: np.ndarray
    agree: np.ndarray
    spread: np.ndarray
    p_e: np.ndarray


def fce_terms(counts: np.ndarray, disagree: np.ndarray) -> FCETerms:
    """The FCE terms of each table (NaN for an empty one)."""
    counts = np.asarray(counts, dtype=float)
    agree = 1.0 - disagree
    n = counts.sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        probs = counts / n[..., None, None]
    rows = probs.sum(axis=-1)
    cols = probs.sum(axis=-2)
    wbar_row = np.einsum("...j,ij->...i", cols, agree)
    wbar_col = np.einsum("...i,ij->...j", rows, agree)
    p_e = np.einsum("...i,ij,...j->...", rows, agree, cols)
    spread = wbar_row[..., :, None] + wbar_col[..., None, :]
    return FCETerms(probs, rows, cols, agree, spread, p_e)


def standard_errors(
    counts: np.ndarray, weights: np.ndarray, kappa: np.ndarray, level: float
) -> dict[str, np.ndarray]:
    """Large-sample standard errors of (weighted) kappa, Fleiss, Cohen & Everitt (1969).

    With agreement weights ``w = 1 - W``, proportions ``p_ij``, marginals ``p_i.``, ``p_.j``,
    ``wbar_i. = sum_j p_.j w_ij`` and ``wbar_.j = sum_i p_i. w_ij``:

    ``var = [sum p_ij (w_ij - (wbar_i. + wbar_.j)(1 - k))^2 - (k - p_e (1 - k))^2]
    / (n (1 - p_e)^2)`` and, under the null ``k = 0``,
    ``var0 = [sum p_i. p_.j (w_ij - (wbar_i. + wbar_.j))^2 - p_e^2] / (n (1 - p_e)^2)``.

    These are statsmodels' ``std_kappa`` and ``std_kappa0`` (and SAS PROC FREQ's), for
    any weights (asymmetric ones included: rows are rater a's labels). The columns
    follow :func:`normal_interval`.
    """
    if not 0 < level < 1:
        raise KappaFrameError(f"ci must be a confidence level between 0 and 1; got {level!r}.")
    t = fce_terms(counts, weights)
    n = np.asarray(counts, dtype=float).sum(axis=(-2, -1))
    k = np.asarray(kappa, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = (t.probs * (t.agree - t.spread * (1.0 - k[..., None, None])) ** 2).sum(axis=(-2, -1))
        denom = n * (1.0 - t.p_e) ** 2
        var = (term - (k - t.p_e * (1.0 - k)) ** 2) / denom
        expected = t.rows[..., :, None] * t.cols[..., None, :]
        var0 = ((expected * (t.agree - t.spread) ** 2).sum(axis=(-2, -1)) - t.p_e**2) / denom
    return normal_interval(k, var, var0, level)
