"""Intraclass correlation from additive sums: numeric ratings, items x raters, per group.

Every one of the six Shrout & Fleiss (1979) / McGraw & Wong (1996) coefficients is a
function of the mean squares of the two-way analysis of variance of the complete items
(every rater rated them), and those mean squares are functions of five additive sums per
group: the number of complete items ``n``, the sum ``S`` and the sum of squares ``Q`` of
their ratings, the sum over items of each item's squared total ``sum_i R_i^2``, and each
rater's total ``C_j``. Sums of parts (file batches, Dask partitions, an engine's
``GROUP BY``) add up to the sums of the whole, so nothing but these few numbers per group
ever needs to travel. NumPy only (``scipy.special`` for the F distribution, on first use).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "DESCRIPTIONS",
    "FORMS",
    "MCGRAW_WONG",
    "IccSums",
    "icc_forms",
    "icc_sums",
]

#: The six forms, as R psych's ``ICC`` names them (and pingouin before 0.7).
FORMS = ("ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k")
#: A denominator at most this share of the mean squares is rounding: the form is undefined.
ROUNDING = 1e-9
#: The same forms in McGraw & Wong's (1996) notation (pingouin 0.7's ``Type``).
MCGRAW_WONG = ("ICC(1,1)", "ICC(A,1)", "ICC(C,1)", "ICC(1,k)", "ICC(A,k)", "ICC(C,k)")
#: psych's and pingouin's description of each form.
DESCRIPTIONS = (
    "Single raters absolute",
    "Single random raters",
    "Single fixed raters",
    "Average raters absolute",
    "Average random raters",
    "Average fixed raters",
)


def _special() -> Any:
    import scipy.special

    return scipy.special


@dataclass
class IccSums:
    """Additive sums of the complete items of each group (ratings minus ``shift``).

    Attributes
    ----------
    count : (G,) array
        Complete items (rated by every rater).
    dropped : (G,) array
        Items with at least one rating but not every one (left out).
    total, squares, item_squares : (G,) arrays
        ``S = sum x``, ``Q = sum x^2`` and ``sum_i R_i^2`` (``R_i``: item ``i``'s total).
    rater_sums : (G, k) array
        Each rater's total ``C_j``.
    shift : float
        Subtracted from every rating before summing, so that the sums of squares do not
        lose the spread to a large mean (the mean squares do not depend on it).
    """

    count: np.ndarray
    dropped: np.ndarray
    total: np.ndarray
    squares: np.ndarray
    item_squares: np.ndarray
    rater_sums: np.ndarray
    shift: float = 0.0

    @property
    def n_raters(self) -> int:
        return int(self.rater_sums.shape[1])

    def shifted(self, shift: float) -> IccSums:
        """The same sums for the ratings minus ``shift`` instead of ``self.shift``."""
        d = float(self.shift - shift)
        if d == 0.0:
            return self
        n, k = self.count, self.n_raters
        return IccSums(
            self.count,
            self.dropped,
            self.total + n * k * d,
            self.squares + 2 * d * self.total + n * k * d * d,
            self.item_squares + 2 * k * d * self.total + n * k * k * d * d,
            self.rater_sums + n[:, None] * d,
            shift,
        )

    def __add__(self, other: IccSums) -> IccSums:
        """The sums of two parts with the same groups and raters."""
        o = other.shifted(self.shift)
        return IccSums(
            self.count + o.count,
            self.dropped + o.dropped,
            self.total + o.total,
            self.squares + o.squares,
            self.item_squares + o.item_squares,
            self.rater_sums + o.rater_sums,
            self.shift,
        )

    def take(self, groups: np.ndarray, n_groups: int) -> IccSums:
        """These sums placed at the group positions ``groups`` of ``n_groups`` (zeros elsewhere)."""

        def put(values: np.ndarray) -> np.ndarray:
            out = np.zeros((n_groups, *values.shape[1:]), dtype=values.dtype)
            np.add.at(out, groups, values)
            return out

        return IccSums(
            put(self.count),
            put(self.dropped),
            put(self.total),
            put(self.squares),
            put(self.item_squares),
            put(self.rater_sums),
            self.shift,
        )


def first_finite(columns: Sequence[np.ndarray]) -> float:
    """A rating to shift by: the first finite value of the first column that has one."""
    for col in columns:
        found = np.flatnonzero(np.isfinite(col[: 1 << 16]))
        if found.size:
            return float(col[found[0]])
        finite = col[np.isfinite(col)]
        if finite.size:
            return float(finite[0])
    return 0.0


def icc_sums(
    columns: Sequence[np.ndarray],
    group: np.ndarray | None,
    n_groups: int,
    shift: float | None = None,
) -> IccSums:
    """The additive sums of ``columns`` (one float array per rater, NaN = missing).

    Two passes per column, in place in two reused buffers: the items' totals and sums of
    squares (a total is NaN where a score is missing: the item is incomplete), then each
    rater's total per group with ``np.bincount``, the incomplete items sent to a spare
    group that is thrown away (so no column is ever masked or copied).
    """
    k = len(columns)
    n_rows = len(columns[0]) if k else 0
    if shift is None:
        shift = first_finite(columns)
    g = np.zeros(n_rows, dtype=np.intp) if group is None else np.asarray(group, dtype=np.intp)
    row = np.zeros(n_rows)
    row_sq = np.zeros(n_rows)
    x = np.empty(n_rows)
    x2 = np.empty(n_rows)
    for col in columns:
        np.subtract(col, shift, out=x)
        row += x
        np.multiply(x, x, out=x2)
        row_sq += x2
    complete = ~np.isnan(row)
    # Incomplete items go to the spare group ``n_groups``.
    gc = np.where(complete, g, n_groups)
    size = n_groups + 1

    def per_group(weights: np.ndarray | None = None) -> np.ndarray:
        return np.bincount(gc, weights=weights, minlength=size)[:n_groups]

    count = per_group().astype(np.int64)
    rater_sums = np.empty((n_groups, k))
    for j, col in enumerate(columns):
        np.subtract(col, shift, out=x)
        rater_sums[:, j] = per_group(x)
    # The items left out: those with a score but not every one (few, usually).
    incomplete = np.flatnonzero(~complete)
    rated = np.zeros(len(incomplete), dtype=bool)
    for col in columns:
        rated |= ~np.isnan(col[incomplete])
    dropped = np.bincount(g[incomplete[rated]], minlength=n_groups)[:n_groups].astype(np.int64)
    np.multiply(row, row, out=x2)
    return IccSums(
        count,
        dropped,
        per_group(row),
        per_group(row_sq),
        per_group(x2),
        rater_sums,
        float(shift),
    )


def mean_squares(sums: IccSums) -> dict[str, np.ndarray]:
    """The two-way ANOVA of the complete items: mean squares per group.

    With ``N = n k``: ``SST = Q - S^2/N``, ``SSR = sum_i R_i^2 / k - S^2/N`` (items),
    ``SSC = sum_j C_j^2 / n - S^2/N`` (raters), ``SSE = SST - SSR - SSC``; ``MSR =
    SSR/(n-1)``, ``MSC = SSC/(k-1)``, ``MSE = SSE/((n-1)(k-1))`` and ``MSW = (SSC + SSE)
    / (n (k-1))`` (within items).
    """
    n = sums.count.astype(float)
    k = float(sums.n_raters)
    with np.errstate(divide="ignore", invalid="ignore"):
        correction = sums.total**2 / (n * k)
        sst = sums.squares - correction
        ssr = sums.item_squares / k - correction
        ssc = (sums.rater_sums**2).sum(axis=1) / n - correction
        sse = sst - ssr - ssc
        # Rounding can leave a tiny negative sum of squares where the true one is 0.
        ssr, ssc, sse = (np.maximum(v, 0.0) for v in (ssr, ssc, sse))
        msr = ssr / (n - 1)
        msc = ssc / (k - 1)
        mse = sse / ((n - 1) * (k - 1))
        msw = (ssc + sse) / (n * (k - 1))
    return {"msr": msr, "msc": msc, "mse": mse, "msw": msw, "n": n, "k": np.full_like(n, k)}


def icc_forms(sums: IccSums, ci: float | None = 0.95) -> dict[str, np.ndarray]:
    """The six forms per group: arrays of shape ``(G, 6)`` in the order of ``FORMS``.

    Keys: ``icc``, ``f``, ``df1``, ``df2``, ``p_value``, and with ``ci`` ``ci_low`` and
    ``ci_high``. Formulas: see ``kappaframe.icc``. Undefined (NaN): fewer than 2 complete
    items, or no variance at all (every rating equal).
    """
    ms = mean_squares(sums)
    msr, msc, mse, msw, n, k = (ms[key] for key in ("msr", "msc", "mse", "msw", "n", "k"))
    sp = _special()
    # A denominator within rounding of 0 (next to the mean squares it is made of) is 0:
    # the form is undefined there, not a huge number made of rounding noise.
    tiny = ROUNDING * (msr + msc + mse + msw)
    # So is an error mean square within rounding of 0: F is then infinite however the sums
    # were added up (a group's sums alone, or beside other groups', differ in the last bits).
    mse = np.where(np.abs(mse) > tiny, mse, 0.0)
    msw = np.where(np.abs(msw) > tiny, msw, 0.0)

    def form(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
        return np.where(np.abs(bottom) > tiny, top / bottom, np.nan)

    with np.errstate(divide="ignore", invalid="ignore"):
        icc1 = form(msr - msw, msr + (k - 1) * msw)
        icc2 = form(msr - mse, msr + (k - 1) * mse + k * (msc - mse) / n)
        icc3 = form(msr - mse, msr + (k - 1) * mse)
        icc1k = form(msr - msw, msr)
        icc2k = form(msr - mse, msr + (msc - mse) / n)
        icc3k = form(msr - mse, msr)
        f1 = msr / msw
        f3 = msr / mse
    df1 = n - 1
    dfw = n * (k - 1)
    dfe = (n - 1) * (k - 1)
    valid = (n >= 2) & np.isfinite(icc1 + icc2 + icc3)
    p1 = _f_sf(sp, f1, df1, dfw)
    p3 = _f_sf(sp, f3, df1, dfe)
    out = {
        "icc": np.stack([icc1, icc2, icc3, icc1k, icc2k, icc3k], axis=1),
        "f": np.stack([f1, f3, f3, f1, f3, f3], axis=1),
        "df1": np.stack([df1] * 6, axis=1),
        "df2": np.stack([dfw, dfe, dfe, dfw, dfe, dfe], axis=1),
        "p_value": np.stack([p1, p3, p3, p1, p3, p3], axis=1),
    }
    if ci is not None:
        out.update(_intervals(sp, ci, msr, msc, mse, n, k, f1, f3, icc2, df1, dfw, dfe))
    for key in ("icc", "f", "p_value", "ci_low", "ci_high"):
        if key in out:
            out[key] = np.where(valid[:, None], out[key], np.nan)
    for key in ("ci_low", "ci_high"):  # no interval around an undefined form
        if key in out:
            out[key] = np.where(np.isfinite(out["icc"]), out[key], np.nan)
    return out


def _f_sf(sp: Any, f: np.ndarray, dfn: np.ndarray, dfd: np.ndarray) -> np.ndarray:
    """P(F > f) with (dfn, dfd) degrees of freedom; NaN where undefined, 0 for f = inf."""
    good = (dfn > 0) & (dfd > 0) & ~np.isnan(f)
    safe_f = np.where(good, np.where(np.isinf(f), 0.0, f), 0.0)
    p = sp.fdtrc(np.where(good, dfn, 1.0), np.where(good, dfd, 1.0), safe_f)
    p = np.where(np.isinf(f), 0.0, p)
    return np.where(good, p, np.nan)


def _f_ppf(sp: Any, q: float, dfn: np.ndarray, dfd: np.ndarray) -> np.ndarray:
    """The ``q`` quantile of F(dfn, dfd); NaN where the degrees of freedom are not positive."""
    good = (dfn > 0) & (dfd > 0) & np.isfinite(dfn) & np.isfinite(dfd)
    x = sp.fdtri(np.where(good, dfn, 1.0), np.where(good, dfd, 1.0), q)
    return np.where(good, x, np.nan)


def _intervals(
    sp: Any,
    ci: float,
    msr: np.ndarray,
    msc: np.ndarray,
    mse: np.ndarray,
    n: np.ndarray,
    k: np.ndarray,
    f1: np.ndarray,
    f3: np.ndarray,
    icc2: np.ndarray,
    df1: np.ndarray,
    dfw: np.ndarray,
    dfe: np.ndarray,
) -> dict[str, np.ndarray]:
    """Shrout & Fleiss' (1979) intervals, as psych and pingouin compute them.

    ICC1/ICC3 (and their averages): the exact intervals from the F ratio's quantiles.
    ICC2 (and ICC2k): Satterthwaite's approximate degrees of freedom ``v`` for the
    denominator's mix of mean squares (Shrout & Fleiss 1979, eq. 12-13; McGraw & Wong 1996).
    """
    q = 0.5 + ci / 2.0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        f1l = f1 / _f_ppf(sp, q, df1, dfw)
        f1u = f1 * _f_ppf(sp, q, dfw, df1)
        f3l = f3 / _f_ppf(sp, q, df1, dfe)
        f3u = f3 * _f_ppf(sp, q, dfe, df1)
        l1, u1 = (f1l - 1) / (f1l + k - 1), (f1u - 1) / (f1u + k - 1)
        l3, u3 = (f3l - 1) / (f3l + k - 1), (f3u - 1) / (f3u + k - 1)
        fj = msc / mse
        a = n * (1 + (k - 1) * icc2) - k * icc2
        vn = dfe * (k * icc2 * fj + a) ** 2
        vd = df1 * k**2 * icc2**2 * fj**2 + a**2
        v = vn / vd
        f2u = _f_ppf(sp, q, n - 1, v)
        f2l = _f_ppf(sp, q, v, n - 1)
        denominator = k * msc + (k * n - k - n) * mse
        l2 = n * (msr - f2u * mse) / (f2u * denominator + n * msr)
        u2 = n * (f2l * msr - mse) / (denominator + n * f2l * msr)
        low = [l1, l2, l3, 1 - 1 / f1l, _average(l2, k), 1 - 1 / f3l]
        high = [u1, u2, u3, 1 - 1 / f1u, _average(u2, k), 1 - 1 / f3u]
    return {"ci_low": np.stack(low, axis=1), "ci_high": np.stack(high, axis=1)}


def _average(single: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The Spearman-Brown step from one rater to ``k``: ``k r / (1 + (k - 1) r)``.

    A denominator within rounding of 0 (``r`` at ``-1 / (k - 1)``) is 0, so that the bound
    is infinite however the sums were added, not a huge number of either sign.
    """
    bottom = 1 + single * (k - 1)
    bottom = np.where(np.abs(bottom) > ROUNDING, bottom, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return k * single / bottom
