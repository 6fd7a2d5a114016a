"""Repeated trials: the two-way analysis of variance with replicates, per group.

Each group's ratings are a cube ``y[i, j, t]``: item ``i`` (of ``n``), rater ``j`` (of
``k``), trial ``t`` (of ``r``), every cell rated (the items with a missing cell are left
out). The model (Eliasziw et al. 1994; Gwet 2014, model 2 with replicates) is

    y_ijt = mu + a_i + b_j + (ab)_ij + e_ijt,

items ``a``, raters ``b``, their interaction and the error within a cell (between
trials) all random. With ``m`` the means over the indices left out::

    MSR = k r sum_i (m_i - m)^2 / (n - 1)                       items
    MSC = n r sum_j (m_j - m)^2 / (k - 1)                       raters
    MSI = r sum_ij (m_ij - m_i - m_j + m)^2 / ((n - 1)(k - 1))  interaction
    MSE = sum_ijt (y_ijt - m_ij)^2 / (n k (r - 1))              within cells

and the variance components from their expectations:
``s2_item = (MSR - MSI) / (k r)``, ``s2_rater = (MSC - MSI) / (n r)``,
``s2_inter = (MSI - MSE) / r``, ``s2_error = MSE`` (the ANOVA estimators, not truncated
at 0). NumPy only (``scipy.special`` for the F distribution).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .icc import ROUNDING, _f_sf, _special
from .inference import normal_quantile, t_quantile

__all__ = ["INTER_FORMS", "repeated_limits", "replicate_anova", "replicate_icc"]

#: The inter-rater forms with replicates: (psych's name, McGraw & Wong's, description).
INTER_FORMS = (
    ("ICC2", "ICC(A,1)", "Single random raters"),
    ("ICC3", "ICC(C,1)", "Single fixed raters"),
)


def replicate_anova(cube: np.ndarray) -> dict[str, float]:
    """The mean squares of one group's complete cube ``(n, k, r)`` and their sizes."""
    n, k, r = cube.shape
    m = cube.mean()
    m_i = cube.mean(axis=(1, 2))
    m_j = cube.mean(axis=(0, 2))
    m_ij = cube.mean(axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        msr = k * r * float(((m_i - m) ** 2).sum()) / (n - 1)
        msc = n * r * float(((m_j - m) ** 2).sum()) / (k - 1)
        inter = m_ij - m_i[:, None] - m_j[None, :] + m
        msi = r * float((inter**2).sum()) / ((n - 1) * (k - 1))
        mse = float(((cube - m_ij[:, :, None]) ** 2).sum()) / (n * k * (r - 1))
    return {"msr": msr, "msc": msc, "msi": msi, "mse": mse, "n": n, "k": k, "r": r}


def replicate_icc(cube: np.ndarray) -> dict[str, np.ndarray]:
    """The inter-rater ICCs of one group's complete cube, in the order of ``INTER_FORMS``.

    ``ICC(A,1) = s2_item / (s2_item + s2_rater + s2_inter + s2_error)`` (absolute
    agreement of one rating by one random rater: Eliasziw et al. 1994's inter-rater
    reliability) and ``ICC(C,1) = s2_item / (s2_item + s2_inter + s2_error)`` (rater
    means set aside: consistency). Both are tested against 0 by ``F = MSR / MSI`` on
    ``(n - 1, (n - 1)(k - 1))`` degrees of freedom. NaN: fewer than 2 items, or no
    variance at all.
    """
    n, k, r = cube.shape
    nan = np.full(len(INTER_FORMS), np.nan)
    if n < 2:
        return {"icc": nan, "f": nan, "df1": np.zeros(2), "df2": np.zeros(2), "p_value": nan}
    a = replicate_anova(cube)
    msr, msc, msi, mse = a["msr"], a["msc"], a["msi"], a["mse"]
    s2_item = (msr - msi) / (k * r)
    s2_rater = (msc - msi) / (n * r)
    s2_inter = (msi - mse) / r
    tiny = ROUNDING * (msr + msc + msi + mse)
    absolute = s2_item + s2_rater + s2_inter + mse
    consistency = s2_item + s2_inter + mse
    with np.errstate(divide="ignore", invalid="ignore"):
        icc = np.array(
            [
                s2_item / absolute if abs(absolute) > tiny else np.nan,
                s2_item / consistency if abs(consistency) > tiny else np.nan,
            ]
        )
        f = np.full(2, msr / msi if msi > 0 else (np.inf if msr > 0 else np.nan))
    df1 = np.full(2, float(n - 1))
    df2 = np.full(2, float((n - 1) * (k - 1)))
    p = _f_sf(_special(), f, df1, df2)
    f = np.where(np.isfinite(icc), f, np.nan)
    p = np.where(np.isfinite(icc), p, np.nan)
    return {"icc": icc, "f": f, "df1": df1, "df2": df2, "p_value": p}


def _within(x: np.ndarray, means: np.ndarray, m: np.ndarray) -> tuple[float, float, float]:
    """One method's within-item variance, its degrees of freedom and ``1 - 1/m_h``.

    ``m_h``: the harmonic mean of the items' numbers of replicates. Without replicates
    (every item rated once) the within-item part is 0 (it does not enter the limits).
    """
    df = float(m.sum() - len(m))
    weight = 1.0 - float((1.0 / m).sum()) / len(m)
    if df <= 0:
        return 0.0, 0.0, 0.0
    var = float(np.nansum((x - means[:, None]) ** 2)) / df
    return var, df, weight


def repeated_limits(
    a: np.ndarray, b: np.ndarray, agreement: float = 1.96, ci: float | None = 0.95
) -> dict[str, Any]:
    """Bland-Altman limits of two raters with replicates (NaN: no rating in that trial).

    ``a[i, t]``, ``b[i, t]``: item ``i``'s ratings by each rater; the items with at least
    one rating by each are used (``n``). Bland & Altman (1999, section 5.1; 2007, the
    true value varying)::

        D_i = mean_t a_it - mean_t b_it,   bias = mean_i D_i,   s2_D = var_i(D_i)
        s2_d = s2_D + (1 - 1/m_ah) s2_aw + (1 - 1/m_bh) s2_bw
        loa = bias -/+ agreement s_d

    with ``s2_aw`` rater a's within-item variance (the residual mean square of the
    one-way analysis of variance of its ratings on the items) and ``m_ah`` the harmonic
    mean of its numbers of replicates. Intervals: the bias ``-/+ t s_D / sqrt(n)``
    (Student, ``n - 1`` degrees of freedom); each limit ``-/+ z se`` (normal, as Bland &
    Altman 1999 give them) with ``se^2 = s2_d / n + agreement^2 var(s2_d) / (4 s2_d)``,
    ``var(s2_d) = 2 s2_D^2 / (n - 1) + 2 (1 - 1/m_ah)^2 s2_aw^2 / df_a + (the same of b)``,
    ``df_a`` the degrees of freedom of ``s2_aw``.

    Returns the scalars ``n``, ``bias``, ``sd``, ``loa_low``, ``loa_high``, the six
    interval bounds of ``bland_altman`` and the item means ``mean_a``, ``mean_b``.
    """
    m_a = np.isfinite(a).sum(axis=1)
    m_b = np.isfinite(b).sum(axis=1)
    used = (m_a > 0) & (m_b > 0)
    a, b, m_a, m_b = a[used], b[used], m_a[used], m_b[used]
    n = int(used.sum())
    nan = float("nan")
    out: dict[str, Any] = {"n": n}
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_a = np.nansum(a, axis=1) / m_a
        mean_b = np.nansum(b, axis=1) / m_b
    out.update(mean_a=mean_a, mean_b=mean_b)
    names = ("bias", "sd", "loa_low", "loa_high")
    bounds = [f"{x}_ci_{s}" for x in ("bias", "loa_low", "loa_high") for s in ("low", "high")]
    if n < 2:
        return {**out, **dict.fromkeys((*names, *bounds), nan)}
    d = mean_a - mean_b
    bias = float(d.mean())
    s2_big = float(d.var(ddof=1))
    var_a, df_a, w_a = _within(a, mean_a, m_a)
    var_b, df_b, w_b = _within(b, mean_b, m_b)
    s2_d = s2_big + w_a * var_a + w_b * var_b
    sd = float(np.sqrt(s2_d))
    out.update(bias=bias, sd=sd, loa_low=bias - agreement * sd, loa_high=bias + agreement * sd)
    if ci is None:
        return {**out, **dict.fromkeys(bounds, nan)}
    var_s2 = 2.0 * s2_big**2 / (n - 1)
    for var, df, w in ((var_a, df_a, w_a), (var_b, df_b, w_b)):
        var_s2 += 2.0 * w * w * var * var / df if df > 0 else 0.0
    se_loa = float(np.sqrt(s2_d / n + agreement**2 * var_s2 / (4.0 * s2_d))) if sd > 0 else nan
    t = float(t_quantile(ci, np.array(n - 1.0)))
    z = normal_quantile(ci)
    half = {"bias": t * np.sqrt(s2_big / n), "loa_low": z * se_loa, "loa_high": z * se_loa}
    for name, h in half.items():
        out[f"{name}_ci_low"], out[f"{name}_ci_high"] = out[name] - h, out[name] + h
    return out
