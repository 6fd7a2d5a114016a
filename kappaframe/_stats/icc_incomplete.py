"""Intraclass correlation and Kendall's W of incomplete designs: every available rating.

``missing="available"`` of ``kappaframe.icc`` and ``kappaframe.kendall_w``: an item rated
by some raters only keeps the ratings it has (no item is left out, nothing is imputed).

- A group whose items are all rated by every rater that rated anything in it is
  complete: it takes the complete design's formulas (``kappaframe._stats.icc``,
  ``kappaframe._stats.kendall``), so its numbers are today's.
- ICC1 and ICC1k of an incomplete group: the one-way analysis of variance of unbalanced
  data (Ebel 1951; Donner 1986; irrNA's ``iccNA``), ``k`` replaced by
  ``k0 = (N - sum_i k_i^2 / N) / (n - 1)``.
- ICC2, ICC3 and their averages: variance components of the crossed random-effects model
  ``y_ij = mu + a_i + b_j + e_ij`` estimated by restricted maximum likelihood (REML; as R
  psych's ``ICC(lmer=TRUE)``), the likelihood profiled over the two ratios of variances
  and the items absorbed (their block is diagonal), so one evaluation costs
  ``O(n k^2 + k^3)``.
- Kendall's W of an incomplete group: irrNA's ``kendallNA`` (Kendall 1962, Taylor 1987):
  the mean of the raters' pairwise Spearman correlations, each over the items both
  ranked and weighted by that number minus one.

NumPy and SciPy (``scipy.optimize``, ``scipy.special``), on first use.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .icc import FORMS, _f_ppf, _f_sf, icc_forms, icc_sums
from .kendall import kendall_w

__all__ = ["SparseDesign", "available_icc", "available_kendall", "reml_components"]

#: A residual variance at most this share of the scores' variance is rounding: an exact fit.
EXACT = 1e-10


class SparseDesign(ValueError):
    """A group whose ratings cannot separate the variance components (``group``, ``why``)."""

    def __init__(self, group: int, why: str) -> None:
        super().__init__(why)
        self.group = group
        self.why = why


def _special() -> Any:
    import scipy.special

    return scipy.special


def _matrix(columns: Sequence[np.ndarray]) -> np.ndarray:
    k = len(columns)
    n_rows = len(columns[0]) if k else 0
    out = np.empty((n_rows, k))
    for j, col in enumerate(columns):
        out[:, j] = col
    return out


def _group_rows(group: np.ndarray | None, n_rows: int, n_groups: int) -> list[np.ndarray]:
    if group is None:
        return [np.arange(n_rows)]
    g = np.asarray(group, dtype=np.intp)
    order = np.argsort(g, kind="stable")
    bounds = np.searchsorted(g[order], np.arange(n_groups + 1))
    return [order[bounds[i] : bounds[i + 1]] for i in range(n_groups)]


def _design(block: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """The block's rated items, its raters with a rating, and whether it is complete."""
    rated = ~np.isnan(block)
    items = rated.any(axis=1)
    raters = rated.any(axis=0)
    sub = rated[items][:, raters]
    return items, raters, bool(sub.all())


def _components(n_items: int, k: int, item: np.ndarray, rater: np.ndarray) -> int:
    """The connected components of the items x raters graph (rank of the two-way design)."""
    import scipy.sparse
    import scipy.sparse.csgraph

    n = n_items + k
    graph = scipy.sparse.coo_matrix(
        (np.ones(len(item)), (item, n_items + rater)), shape=(n, n)
    ).tocsr()
    return int(scipy.sparse.csgraph.connected_components(graph, directed=False)[0])


def reml_components(
    item: np.ndarray, rater: np.ndarray, y: np.ndarray, n_items: int, k: int
) -> tuple[float, float, float]:
    """REML variance components (item, rater, residual) of ``y = mu + a_item + b_rater + e``.

    ``-2 log L_R = (N - 1) log(r) + log det C`` up to a constant, where, with relative
    standard deviations ``t_a``, ``t_b`` and ``Z* = [t_a Z_a, t_b Z_b]``, ``C`` is the
    mixed-model equations' matrix ``[[X'X, X'Z*], [Z*'X, Z*'Z* + I]]``, ``r = y'y -
    rhs' C^-1 rhs`` and the residual variance ``r / (N - 1)`` (profiled out). The items'
    block of ``C`` is diagonal and is absorbed: the rest is ``(k + 1)`` square.
    Minimised over ``(t_a, t_b) >= 0`` by L-BFGS-B from two starts, then Nelder-Mead.
    """
    import scipy.optimize

    n_obs = len(y)
    parts = _reml_parts(item, rater, y, n_items, k)

    def objective(theta: np.ndarray) -> float:
        r, logdet = parts(theta)
        if not r > 0:
            return np.inf
        return float((n_obs - 1) * np.log(r) + logdet)

    best: Any = None
    with warnings.catch_warnings():
        # Finite differences next to an infinite objective (an exact fit): inf - inf.
        warnings.simplefilter("ignore", RuntimeWarning)
        for start in ((1.0, 0.5), (0.3, 0.1)):
            fit = scipy.optimize.minimize(
                objective,
                np.array(start),
                method="L-BFGS-B",
                bounds=[(0.0, None), (0.0, None)],
                options={"ftol": 1e-15, "gtol": 1e-11, "maxiter": 2000},
            )
            if best is None or fit.fun < best.fun:
                best = fit
        # Polished by Nelder-Mead: the likelihood is flat near its top, where finite
        # differences stop L-BFGS-B short (a relative 1e-4 off in the variances).
        polish = scipy.optimize.minimize(
            objective,
            best.x,
            method="Nelder-Mead",
            bounds=[(0.0, None), (0.0, None)],
            options={"xatol": 1e-10, "fatol": 1e-13, "maxiter": 4000},
        )
    if polish.fun <= best.fun:
        best = polish
    ta, tb = (float(v) for v in best.x)
    sigma_e = parts(best.x)[0] / (n_obs - 1)
    return ta * ta * sigma_e, tb * tb * sigma_e, sigma_e


def _reml_parts(item: np.ndarray, rater: np.ndarray, y: np.ndarray, n_items: int, k: int) -> Any:
    """The function of ``(t_a, t_b)`` giving ``r`` and ``log det C`` (``reml_components``)."""
    import scipy.linalg

    n_obs = len(y)
    y = y - y.mean()
    ki = np.bincount(item, minlength=n_items).astype(float)
    totals = np.bincount(item, weights=y, minlength=n_items)
    cj = np.bincount(rater, minlength=k).astype(float)
    rater_totals = np.bincount(rater, weights=y, minlength=k)
    incidence = np.zeros((k, n_items))
    np.add.at(incidence, (rater, item), 1.0)
    yy = float(y @ y)
    sy = float(y.sum())

    def parts(theta: np.ndarray) -> tuple[float, float]:
        """``r`` and ``log det C`` at ``theta`` (``r`` NaN where ``C`` is not positive)."""
        ta2, tb = theta[0] ** 2, theta[1]
        d = ta2 * ki + 1.0
        s = np.empty((k + 1, k + 1))
        s[0, 0] = n_obs - ta2 * float((ki * ki / d).sum())
        side = tb * (cj - ta2 * (incidence @ (ki / d)))
        s[0, 1:] = side
        s[1:, 0] = side
        s[1:, 1:] = tb * tb * (np.diag(cj) - ta2 * ((incidence / d) @ incidence.T))
        s[1:, 1:] += np.eye(k)
        z = np.empty(k + 1)
        z[0] = sy - ta2 * float((ki * totals / d).sum())
        z[1:] = tb * (rater_totals - ta2 * (incidence @ (totals / d)))
        try:
            chol = scipy.linalg.cho_factor(s, lower=True)
        except np.linalg.LinAlgError:
            return np.nan, np.nan
        solved = scipy.linalg.cho_solve(chol, z)
        r = yy - ta2 * float((totals * totals / d).sum()) - float(z @ solved)
        logdet = float(np.log(d).sum()) + 2.0 * float(np.log(np.diag(chol[0])).sum())
        return r, logdet

    return parts


def _one_way(
    item: np.ndarray, y: np.ndarray, n: int, ci: float | None, sp: Any
) -> tuple[dict[str, np.ndarray], float]:
    """ICC1 and ICC1k of unbalanced one-way data: values, F test, interval; and ``k0``.

    ``MSB = sum_i k_i (m_i - m)^2 / (n - 1)``, ``MSW = sum (y - m_i)^2 / (N - n)``,
    ``ICC1 = (MSB - MSW) / (MSB + (k0 - 1) MSW)``, ``ICC1k = (MSB - MSW) / MSB``;
    ``F = MSB / MSW`` on ``(n - 1, N - n)``; the interval as Shrout & Fleiss' with ``k0``.
    """
    n_obs = len(y)
    ki = np.bincount(item, minlength=n).astype(float)
    y = y - y.mean()
    means = np.bincount(item, weights=y, minlength=n) / ki
    ssb = float((ki * means**2).sum())
    ssw = float(((y - means[item]) ** 2).sum())
    k0 = (n_obs - float((ki * ki).sum()) / n_obs) / (n - 1)
    df1, df2 = float(n - 1), float(n_obs - n)
    msb, msw = ssb / df1, ssw / df2
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.float64(msb) / np.float64(msw)
        icc1 = (msb - msw) / (msb + (k0 - 1) * msw) if msb + (k0 - 1) * msw > 0 else np.nan
        icc1k = (msb - msw) / msb if msb > 0 else np.nan
    d1, d2 = np.array([df1]), np.array([df2])
    out = {
        "icc": np.array([icc1, icc1k]),
        "f": np.array([f, f]),
        "df1": np.array([df1, df1]),
        "df2": np.array([df2, df2]),
        "p_value": np.repeat(_f_sf(sp, np.array([f]), d1, d2), 2),
    }
    if ci is not None:
        q = 0.5 + ci / 2.0
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            fl = f / _f_ppf(sp, q, d1, d2)[0]
            fu = f * _f_ppf(sp, q, d2, d1)[0]
            out["ci_low"] = np.array([(fl - 1) / (fl + k0 - 1), 1 - 1 / fl])
            out["ci_high"] = np.array([(fu - 1) / (fu + k0 - 1), 1 - 1 / fu])
        for key in ("ci_low", "ci_high"):  # no interval around an undefined form
            out[key] = np.where(np.isfinite(out["icc"]), out[key], np.nan)
    return out, k0


def _residual_squares(item: np.ndarray, rater: np.ndarray, y: np.ndarray, n: int, k: int) -> float:
    """The residual sum of squares of the fixed two-way model (items + raters), items absorbed.

    ``SSE = y'y - sum_i T_i^2 / k_i - z' S^+ z`` with ``S = diag(c_j) - M diag(1/k_i) M'``
    and ``z = R - M (T / k)`` (``T``, ``R``: item and rater totals; ``M``: raters x items).
    """
    y = y - y.mean()
    ki = np.bincount(item, minlength=n).astype(float)
    totals = np.bincount(item, weights=y, minlength=n)
    incidence = np.zeros((k, n))
    np.add.at(incidence, (rater, item), 1.0)
    s = np.diag(np.bincount(rater, minlength=k).astype(float)) - (incidence / ki) @ incidence.T
    z = np.bincount(rater, weights=y, minlength=k) - incidence @ (totals / ki)
    solved = np.linalg.lstsq(s, z, rcond=None)[0]
    return float(y @ y - (totals * totals / ki).sum() - z @ solved)


def _item_test(
    rater: np.ndarray, y: np.ndarray, k: int, n: int, parts: int, sse: float, residual: float
) -> tuple[float, float]:
    """F of the items adjusted for the raters (the test of no item variance), and its df1.

    ``F = ((SSE_raters - SSE) / (n - c)) / (SSE / (N - n - k + c))``: ``SSE_raters`` the
    residual of the raters alone, ``SSE`` of items and raters, ``c`` the connected parts
    of the design. For complete data it is ``MSR / MSE`` on ``(n - 1, (n - 1)(k - 1))``.
    """
    y = y - y.mean()
    counts = np.bincount(rater, minlength=k).astype(float)
    totals = np.bincount(rater, weights=y, minlength=k)
    used = counts > 0
    sse_raters = float(y @ y - (totals[used] ** 2 / counts[used]).sum())
    df1 = float(n - parts)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = float(np.float64(max(sse_raters - sse, 0.0) / df1) / np.float64(sse / residual))
    return f, df1


def _two_way(
    item: np.ndarray,
    rater: np.ndarray,
    y: np.ndarray,
    n: int,
    k: int,
    k0: float,
    sse: float,
) -> np.ndarray:
    """ICC2, ICC3, ICC2k, ICC3k from the REML variance components (``k0`` for averages).

    Scores that item and rater effects fit exactly (a residual variance within rounding
    of 0, ``EXACT`` of the scores' variance): ICC3 and ICC3k are 1 (perfect consistency),
    ICC2 and ICC2k undefined (the likelihood cannot weigh items against raters there).
    """
    spread = float(np.var(y))
    if spread == 0:
        return np.full(4, np.nan)
    if sse <= EXACT * spread * len(y):
        return np.array([np.nan, 1.0, np.nan, 1.0])
    va, vb, ve = reml_components(item, rater, y, n, k)
    if ve <= EXACT * spread:
        return np.array([np.nan, 1.0, np.nan, 1.0])
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.array(
            [
                va / (va + vb + ve),
                va / (va + ve),
                va / (va + (vb + ve) / k0),
                va / (va + ve / k0),
            ]
        )


def _canonical(block: np.ndarray) -> np.ndarray:
    """The block with its items and raters in an order of their own, not the input's.

    Items by their sorted scores, then raters by their scores of the items in that order:
    the optimiser's sums, and so its last digits, do not depend on the order the input
    (wide or long, sorted or not) gave them in.
    """
    filled = np.where(np.isnan(block), np.inf, block)
    block, filled = block[np.lexsort(np.sort(filled, axis=1).T[::-1])], filled
    filled = np.where(np.isnan(block), np.inf, block)
    return block[:, np.lexsort(filled[::-1])]


def available_icc(
    columns: Sequence[np.ndarray], group: np.ndarray | None, n_groups: int, ci: float | None
) -> dict[str, np.ndarray]:
    """The six forms per group from every available rating (``(G, 6)`` arrays).

    Keys as ``kappaframe._stats.icc.icc_forms``, plus ``(G,)`` arrays: ``n_items`` (items
    with a rating), ``n_raters`` (raters with a rating), ``n_ratings``, ``ratings_min``,
    ``ratings_max``, ``k0`` and ``complete``. A complete group takes ``icc_forms``; the
    two-way forms of an incomplete group have the F test of the items adjusted for the
    raters (``_item_test``) and no interval (NaN). Raises ``SparseDesign`` for a group of
    at least 2 items whose ratings cannot separate the components.
    """
    values = _matrix(columns)
    sp = _special()
    shape = (n_groups, len(FORMS))
    keys = ["icc", "f", "df1", "df2", "p_value", *(["ci_low", "ci_high"] if ci is not None else [])]
    out = {key: np.full(shape, np.nan) for key in keys}
    out["df1"][:] = 0.0
    out["df2"][:] = 0.0
    sizes = {
        name: np.zeros(n_groups, np.int64)
        for name in ("n_items", "n_raters", "n_ratings", "ratings_min", "ratings_max")
    }
    k0s = np.full(n_groups, np.nan)
    complete = np.zeros(n_groups, dtype=bool)
    for g, rows in enumerate(_group_rows(group, len(values), n_groups)):
        items, raters, full = _design(values[rows])
        block = values[rows][items][:, raters]
        rated = ~np.isnan(block)
        per_item = rated.sum(axis=1)
        n, k = block.shape
        sizes["n_items"][g], sizes["n_raters"][g] = n, k
        sizes["n_ratings"][g] = int(per_item.sum())
        if n:
            sizes["ratings_min"][g], sizes["ratings_max"][g] = per_item.min(), per_item.max()
        complete[g] = full and n > 0
        if n < 2:
            continue
        if full:
            forms = icc_forms(icc_sums(list(block.T), None, 1), ci)
            for key in keys:
                out[key][g] = forms[key][0]
            k0s[g] = float(k)
            continue
        block = _canonical(block)
        rated = ~np.isnan(block)
        item, rater = np.nonzero(rated)
        y = block[item, rater]
        if len(y) == n:
            raise SparseDesign(g, "every item has one rating: nothing to compare within items")
        one, k0 = _one_way(item, y, n, ci, sp)
        k0s[g] = k0
        for key in keys:
            out[key][g, [0, 3]] = one[key]
        parts = _components(n, k, item, rater)
        residual = len(y) - n - k + parts
        if residual <= 0:
            raise SparseDesign(
                g,
                "the raters and the items cannot be told apart (no residual degrees of "
                "freedom left for the two-way forms)",
            )
        sse = _residual_squares(item, rater, y, n, k)
        two = [1, 2, 4, 5]
        out["icc"][g, two] = _two_way(item, rater, y, n, k, k0, sse)
        f, df1 = _item_test(rater, y, k, n, parts, sse, residual)
        out["f"][g, two], out["df1"][g, two], out["df2"][g, two] = f, df1, residual
        out["p_value"][g, two] = _f_sf(sp, np.array([f]), np.array([df1]), np.array([residual]))
        for key in ("f", "p_value"):  # no test beside an undefined form
            out[key][g, two] = np.where(np.isfinite(out["icc"][g, two]), out[key][g, two], np.nan)
    return {**out, **sizes, "k0": k0s, "complete": complete}


def _ranks(values: np.ndarray) -> np.ndarray:
    import scipy.stats

    return np.asarray(scipy.stats.rankdata(values), dtype=float)


def _spearman(a: np.ndarray, b: np.ndarray, correct: bool) -> float:
    """Spearman's rho of two raters over the items both ranked (0 where undefined).

    ``correct``: the Pearson correlation of the average ranks (tie-corrected); else
    ``1 - 6 sum d^2 / (n^3 - n)``. irrNA counts an undefined rho (no spread) as 0.
    """
    ra, rb = _ranks(a), _ranks(b)
    n = float(len(a))
    if not correct:
        return float(1.0 - 6.0 * ((ra - rb) ** 2).sum() / (n**3 - n))
    da, db = ra - ra.mean(), rb - rb.mean()
    denominator = float(np.sqrt((da * da).sum() * (db * db).sum()))
    return float((da * db).sum() / denominator) if denominator > 0 else 0.0


def _kendall_na(block: np.ndarray, correct: bool) -> tuple[float, float]:
    """The W of irrNA's ``kendallNA`` for one incomplete group, and its ``kq``."""
    rated = ~np.isnan(block)
    keep = rated.sum(axis=0) > 1  # a rater with one rating tells nothing about order
    block, rated = block[:, keep], rated[:, keep]
    m = block.shape[1]
    total = weights = 0.0
    for a in range(m):
        for b in range(a):
            both = rated[:, a] & rated[:, b]
            count = int(both.sum())
            if count < 2:
                continue
            rho = _spearman(block[both, a], block[both, b], correct)
            total += (count - 1) * rho
            weights += count - 1
    kq = float(rated.sum(axis=1).mean())
    if weights == 0 or kq <= 1:
        return np.nan, kq
    rho_bar = total / weights
    return (1.0 + rho_bar * (kq - 1.0)) / kq, kq


def available_kendall(
    columns: Sequence[np.ndarray], group: np.ndarray | None, n_groups: int, correct: bool
) -> dict[str, np.ndarray]:
    """Kendall's W per group from every available rating (keys of ``kendall.kendall_w``).

    A complete group takes ``kendall.kendall_w``; an incomplete one irrNA's ``kendallNA``:
    ``W = (1 + rho_bar (kq - 1)) / kq`` with ``rho_bar`` the mean pairwise Spearman rho
    (weights: items both ranked, minus one) and ``kq`` the mean ratings per item;
    ``chi2 = kq (n - 1) W`` on ``n - 1``; Legendre's F with ``kq`` raters. Adds
    ``n_raters``, ``n_ratings``, ``ratings_min``, ``ratings_max``, ``kq``, ``complete``.
    """
    values = _matrix(columns)
    sp = _special()
    names = ("n_items", "n_dropped", "w", "chi2", "df", "p_value", "f", "f_df1", "f_df2")
    out: dict[str, np.ndarray] = {name: np.full(n_groups, np.nan) for name in names}
    out["f_p_value"] = np.full(n_groups, np.nan)
    sizes = {
        name: np.zeros(n_groups, np.int64)
        for name in ("n_raters", "n_ratings", "ratings_min", "ratings_max")
    }
    kq = np.full(n_groups, np.nan)
    complete = np.zeros(n_groups, dtype=bool)
    for g, rows in enumerate(_group_rows(group, len(values), n_groups)):
        items, raters, full = _design(values[rows])
        block = values[rows][items][:, raters]
        per_item = (~np.isnan(block)).sum(axis=1)
        n, k = block.shape
        sizes["n_raters"][g], sizes["n_ratings"][g] = k, int(per_item.sum())
        if n:
            sizes["ratings_min"][g], sizes["ratings_max"][g] = per_item.min(), per_item.max()
        complete[g] = full and n > 0
        if full or n < 2:
            stats = kendall_w(list(block.T), None, 1, correct=correct)
            for name in out:
                out[name][g] = stats[name][0]
            out["n_items"][g] = n
            kq[g] = float(k)
            continue
        w, kq[g] = _kendall_na(block, correct)
        m, df = kq[g], n - 1.0
        out["n_items"][g], out["n_dropped"][g], out["w"][g], out["df"][g] = n, 0, w, df
        out["chi2"][g] = m * df * w
        out["p_value"][g] = sp.chdtrc(df, out["chi2"][g]) if np.isfinite(w) else np.nan
        with np.errstate(divide="ignore", invalid="ignore"):
            out["f"][g] = (m - 1) * w / (1 - w)
        out["f_df1"][g] = df - 2.0 / m
        out["f_df2"][g] = (m - 1) * out["f_df1"][g]
        good = out["f_df1"][g] > 0 and not np.isnan(out["f"][g])
        f = out["f"][g]
        out["f_p_value"][g] = (
            (0.0 if np.isinf(f) else sp.fdtrc(out["f_df1"][g], out["f_df2"][g], f))
            if good
            else np.nan
        )
    out["n_items"] = out["n_items"].astype(np.int64)
    out["n_dropped"] = np.zeros(n_groups, np.int64)
    return {**out, **sizes, "kq": kq, "complete": complete}
