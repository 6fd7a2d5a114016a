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

import numpy as np

from .icc import ROUNDING, _f_sf, _special

__all__ = ["INTER_FORMS", "replicate_anova", "replicate_icc"]

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
