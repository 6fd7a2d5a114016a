"""Inference for agreement coefficients: the one interval and the FCE variance terms.

Every ``ci=`` column of kappaframe comes from ``normal_interval``: ``se`` and ``se0``
from a variance and a null variance, the interval clipped to [-1, 1] (normal quantiles,
or Student's t with ``n - 1`` degrees of freedom as irrCAC prints them), and the
large-sample test of a zero coefficient (two-sided or one-sided). The Fleiss, Cohen &
Everitt (1969) terms (``fce_terms``) serve Cohen's kappa (``standard_errors``) and
Light's mean kappa. The normal and Student's t distributions are SciPy's
(``scipy.special``), imported when the first interval or p-value is computed, so that
``import kappaframe`` stays light.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, get_args

import numpy as np

from .._errors import KappaFrameError, arg
from .._types import Alternative, CIDist, ZFrom

__all__ = [
    "ALTERNATIVES",
    "CI_DISTS",
    "Z_FROM",
    "FCETerms",
    "fce_terms",
    "normal_interval",
    "normal_quantile",
    "normal_sf",
    "one_category",
    "population_factor",
    "standard_errors",
    "t_cdf",
    "t_quantile",
]

#: ``alternative=``: the hypothesis the ``p_value`` tests against (value = 0 under H0).
ALTERNATIVES: tuple[str, ...] = get_args(Alternative)
#: ``ci_dist=``: the reference distribution of the interval and the test.
CI_DISTS: tuple[str, ...] = get_args(CIDist)
#: ``z_from=``: the standard error the test divides by.
Z_FROM: tuple[str, ...] = get_args(ZFrom)


def _special() -> Any:
    """``scipy.special``, imported on first use (it takes about 0.15 s to import)."""
    import scipy.special

    return scipy.special


def normal_quantile(level: float) -> float:
    """The two-sided normal quantile of a confidence level (1.96 for 0.95)."""
    return float(_special().ndtri(0.5 + level / 2.0))


def normal_sf(z: np.ndarray) -> np.ndarray:
    """``P(Z > z)`` of the standard normal (NaN stays NaN)."""
    return np.asarray(_special().ndtr(-np.asarray(z, dtype=float)), dtype=float)


def _t_defined(df: np.ndarray) -> np.ndarray:
    """Where Student's t is used: ``df >= 1`` and finite (one item has no ``n - 1``)."""
    return np.isfinite(df) & (df >= 1)


def t_cdf(t: np.ndarray, df: np.ndarray) -> np.ndarray:
    """``P(T <= t)`` of Student's t with ``df`` degrees of freedom (NaN where df < 1)."""
    t, df = np.broadcast_arrays(np.asarray(t, dtype=float), np.asarray(df, dtype=float))
    good = _t_defined(df)
    out = _special().stdtr(np.where(good, df, 1.0), t)
    return np.where(good, out, np.nan)


def t_quantile(level: float, df: np.ndarray) -> np.ndarray:
    """The two-sided Student's t quantile ``t_(1 - alpha/2, df)`` of a confidence level.

    SciPy's ``stdtrit`` and one Newton step on the upper tail ``stdtr(df, -t)``: the
    step brings the quantile to about 1e-13 (relative) on every SciPy release, where
    ``stdtrit`` alone was 1e-9 off at one degree of freedom before SciPy 1.17. Computed
    once per distinct ``df``; NaN where ``df < 1``.
    """
    df = np.asarray(df, dtype=float)
    unique, inverse = np.unique(df, return_inverse=True)
    good = _t_defined(unique)
    d = np.where(good, unique, 1.0)
    special = _special()
    q = special.stdtrit(d, 0.5 + level / 2.0)
    log_density = (
        special.gammaln((d + 1.0) / 2.0)
        - special.gammaln(d / 2.0)
        - 0.5 * np.log(d * np.pi)
        - (d + 1.0) / 2.0 * np.log1p(q * q / d)
    )
    q = q + (special.stdtr(d, -q) - (1.0 - level) / 2.0) / np.exp(log_density)
    return np.where(good, q, np.nan)[inverse].reshape(df.shape)


def population_factor(n: np.ndarray, population: float | None) -> np.ndarray:
    """The finite-population correction ``1 - n / N`` of a variance (1 without ``N``)."""
    if population is None:
        return np.ones(np.shape(n))
    return 1.0 - np.asarray(n, dtype=float) / float(population)


#: A variance below this is rounding left over from sums that cancel (a standard error
#: under 1.4e-14, where no finite sample of items reaches): it counts as 0, so that ``z``
#: is undefined rather than 1e15 and one ordering of the same sums does not differ from
#: another by 5%.
ROUNDING_VARIANCE = (64 * np.finfo(float).eps) ** 2


def _rounded_to_zero(var: Any) -> np.ndarray:
    var = np.asarray(var, dtype=float)
    return np.where(var < ROUNDING_VARIANCE, 0.0, var)


def normal_interval(
    value: np.ndarray,
    var: np.ndarray,
    var0: np.ndarray,
    level: float,
    *,
    alternative: str = "two-sided",
    dist: str = "normal",
    n: np.ndarray | None = None,
    population: float | None = None,
    z_from: str = "se0",
    kappa0: float = 0.0,
) -> dict[str, np.ndarray]:
    """``se``, ``se0``, ``ci_low``, ``ci_high``, ``z``, ``p_value`` of a coefficient.

    ``se = sqrt(var)``, ``se0 = sqrt(var0)`` (the standard error under value = 0); with
    ``population`` (the size N of the population the ``n`` items were drawn from) both
    variances are multiplied by ``1 - n / N``. The interval ``value -/+ q se`` is clipped
    to [-1, 1], with ``q`` the normal quantile ``z_(1 - alpha/2)``, or for ``dist="t"``
    Student's ``t_(1 - alpha/2, n - 1)``. ``z = value / se0`` and ``p_value`` tests
    value = 0 against ``alternative`` (``"two-sided"``, ``"greater"``: value > 0, or
    ``"less"``) on the same distribution; NaN where the null variance is 0 (no test).
    ``z_from="se"`` divides ``z`` by ``se`` instead (irrCAC's test). A non-zero
    ``kappa0`` tests value = kappa0 instead: ``z = (value - kappa0) / se`` (``se0`` is the
    standard error under value = 0 only, so the estimate's own ``se`` is the one left).
    Variances within rounding of 0 (negative, or below ``ROUNDING_VARIANCE``) count as
    0; everything is NaN where ``value`` is.
    """
    if not 0 < level < 1:
        raise KappaFrameError(f"ci must be a confidence level between 0 and 1; got {level!r}.")
    value = np.asarray(value, dtype=float)
    defined = np.isfinite(value)
    if n is None:
        if population is not None or dist == "t":  # pragma: no cover - callers pass n
            raise KappaFrameError("the item counts are needed for population= and ci_dist='t'")
        items = np.full(value.shape, np.nan)
    else:
        items = np.broadcast_to(np.asarray(n, dtype=float), value.shape)
    if population is not None:
        if np.any(items > population):
            raise KappaFrameError(
                f"{arg('population', population)} is smaller than the "
                f"{int(np.nanmax(items))} items rated: it is the size of the population the "
                "items were drawn from."
            )
        factor = np.clip(population_factor(items, population), 0.0, None)
        var = np.asarray(var, dtype=float) * factor
        var0 = np.asarray(var0, dtype=float) * factor
    se = np.where(defined, np.sqrt(_rounded_to_zero(var)), np.nan)
    se0 = np.where(defined, np.sqrt(_rounded_to_zero(var0)), np.nan)
    null = np.sqrt(_rounded_to_zero(var if z_from == "se" or kappa0 != 0 else var0))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(defined & (null > 0), (value - kappa0) / null, np.nan)
    df = items - 1.0
    quantile: Any = t_quantile(level, df) if dist == "t" else normal_quantile(level)

    def tail(x: np.ndarray) -> np.ndarray:  # P(T > x), P(Z > x)
        return t_cdf(-x, df) if dist == "t" else normal_sf(x)

    # One tail each: the smaller of P(T > z) and P(T < z) is P(T > |z|).
    if alternative == "greater":
        p_value = tail(z)
    elif alternative == "less":
        p_value = tail(-z)
    else:
        p_value = np.minimum(2.0 * tail(np.abs(z)), 1.0)
    half = quantile * se
    return {
        "se": se,
        "se0": se0,
        "ci_low": np.clip(value - half, -1.0, 1.0),
        "ci_high": np.clip(value + half, -1.0, 1.0),
        "z": z,
        "p_value": np.where(np.isfinite(z), p_value, np.nan),
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
    counts: np.ndarray,
    weights: np.ndarray,
    kappa: np.ndarray,
    level: float,
    *,
    alternative: str = "two-sided",
    dist: str = "normal",
    population: float | None = None,
    z_from: str = "se0",
    kappa0: float = 0.0,
) -> dict[str, np.ndarray]:
    """Large-sample standard errors of (weighted) kappa, Fleiss, Cohen & Everitt (1969).

    With agreement weights ``w = 1 - W``, proportions ``p_ij``, marginals ``p_i.``, ``p_.j``,
    ``wbar_i. = sum_j p_.j w_ij`` and ``wbar_.j = sum_i p_i. w_ij``:

    ``var = [sum p_ij (w_ij - (wbar_i. + wbar_.j)(1 - k))^2 - (k - p_e (1 - k))^2]
    / (n (1 - p_e)^2)`` and, under the null ``k = 0``,
    ``var0 = [sum p_i. p_.j (w_ij - (wbar_i. + wbar_.j))^2 - p_e^2] / (n (1 - p_e)^2)``.

    These are statsmodels' ``std_kappa`` and ``std_kappa0`` (and SAS PROC FREQ's), for
    any weights (asymmetric ones included: rows are rater a's labels); ``se0`` is
    statsmodels' ``std_kappa0`` (SAS's "ASE under H0"). The columns follow
    ``normal_interval`` (``n`` the items of each table).

    Where one rater used a single category (``one_category``) and kappa is defined, every
    column is NaN. There kappa is 0 for every table with that rater's margin (``p_o``
    equals ``p_e``, whatever the other rater did and whatever the weights), so both
    formulas are exactly 0: with rater a on category 1 only, ``p_1j = p_.j``, ``wbar_1.
    + wbar_.j = p_e + w_1j`` and ``var = sum_j p_.j (w_1j - p_e - w_1j)^2 - p_e^2 = 0``.
    A variance of 0 there says only that the sample never saw that rater vary, not that
    kappa is known exactly: the large-sample theory behind the interval and the test
    does not hold at the edge of the table's space, and in floating point the 0 came
    out as rounding noise (a ``z`` of 0 or NaN, a ``p_value`` of 1 or NaN, by chance).
    The rows are told apart by counting the categories each rater used (exact on the
    counts), not by the size of the computed variance; ``one_category`` in the result
    marks them, for the caller's one warning. (Where kappa is 1 with two categories or
    more, ``se`` is 0 and ``se0`` is not: those stay as computed.)
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
    single = one_category(counts) & np.isfinite(k)
    var = np.where(single, np.nan, var)
    var0 = np.where(single, np.nan, var0)
    errors = normal_interval(
        k,
        var,
        var0,
        level,
        alternative=alternative,
        dist=dist,
        n=n,
        population=population,
        z_from=z_from,
        kappa0=kappa0,
    )
    errors["one_category"] = single
    return errors


def one_category(counts: np.ndarray) -> np.ndarray:
    """Tables ``[..., K, K]`` in which a rater used exactly one category (from the counts).

    A margin's count is above 0 exactly when one of its cells is (the counts are
    non-negative), so no tolerance is involved.
    """
    counts = np.asarray(counts)
    used_a = np.count_nonzero(counts.sum(axis=-1) > 0, axis=-1)
    used_b = np.count_nonzero(counts.sum(axis=-2) > 0, axis=-1)
    return (used_a == 1) | (used_b == 1)
