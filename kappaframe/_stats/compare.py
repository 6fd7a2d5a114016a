"""Two estimates of agreement compared: their difference, its interval and its test.

``difference`` is the large-sample comparison of two coefficients from their standard
errors, the one every comparison in kappaframe reports (independent samples, paired
samples with their covariance, and the baseline gate). With ``cov = 0`` (two independent
samples of items) it is the usual normal test, e.g. Fleiss, Levin & Paik (2003, sec. 18.1)
for two kappas; a paired comparison passes the covariance of the two estimates, which
makes the variance of the difference ``se_1^2 + se_2^2 - 2 cov``.
"""

from __future__ import annotations

import numpy as np

from .inference import normal_quantile, normal_sf

__all__ = ["difference"]


def difference(
    first: np.ndarray,
    se_first: np.ndarray,
    second: np.ndarray,
    se_second: np.ndarray,
    level: float,
    *,
    cov: np.ndarray | float = 0.0,
) -> dict[str, np.ndarray]:
    """``difference``, ``se``, ``ci_low``, ``ci_high``, ``z``, ``p_value`` of ``second - first``.

    ``se = sqrt(se_first^2 + se_second^2 - 2 cov)``; the interval is
    ``difference -/+ z_(1 - alpha/2) se`` (not clipped: a difference of two coefficients
    lies in [-2, 2]); ``z = difference / se`` and ``p_value`` is two-sided. Everything is
    NaN where either value or standard error is (no standard error, no test), and ``z``,
    ``p_value`` are NaN where ``se`` is 0.

    Examples
    --------
    Two independent kappas, 0.62 (se 0.05) last week and 0.48 (se 0.06) this week:

    >>> out = difference(np.array([0.62]), np.array([0.05]), np.array([0.48]),
    ...                  np.array([0.06]), 0.95)
    >>> round(float(out["difference"][0]), 2), round(float(out["se"][0]), 4)
    (-0.14, 0.0781)
    >>> round(float(out["p_value"][0]), 4)
    0.0731
    """
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    var = (
        np.square(np.asarray(se_first, dtype=float))
        + np.square(np.asarray(se_second, dtype=float))
        - 2.0 * np.asarray(cov, dtype=float)
    )
    change = second - first
    se = np.sqrt(np.clip(var, 0.0, None))
    defined = np.isfinite(change) & np.isfinite(se)
    se = np.where(defined, se, np.nan)
    change = np.where(defined, change, np.nan)
    half = normal_quantile(level) * se
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(defined & (se > 0), change / se, np.nan)
    p_value = np.where(np.isfinite(z), np.minimum(2.0 * normal_sf(np.abs(z)), 1.0), np.nan)
    return {
        "difference": change,
        "se": se,
        "ci_low": change - half,
        "ci_high": change + half,
        "z": z,
        "p_value": p_value,
    }
