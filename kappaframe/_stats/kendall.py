"""Kendall's coefficient of concordance W, per group, from items x raters scores.

Each rater's scores are ranked over the group's complete items (average ranks for ties);
``W`` compares the spread of the items' rank totals with its largest possible value.
Vectorised over groups: one sort per rater, no loop over groups. NumPy only
(``scipy.special`` for the chi-square and F distributions, on first use).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["group_ranks", "kendall_w"]


def _special() -> Any:
    import scipy.special

    return scipy.special


def group_ranks(
    values: np.ndarray, group: np.ndarray, n_groups: int
) -> tuple[np.ndarray, np.ndarray]:
    """Average ranks (1-based) of ``values`` within each group, and ``sum(t^3 - t)`` per group.

    ``t`` runs over the sizes of the groups of tied values (the tie correction term).
    """
    n = len(values)
    ranks = np.empty(n)
    if not n:
        return ranks, np.zeros(n_groups)
    order = np.lexsort((values, group))
    sv, sg = values[order], group[order]
    new_run = np.empty(n, dtype=bool)
    new_run[0] = True
    new_run[1:] = (sg[1:] != sg[:-1]) | (sv[1:] != sv[:-1])
    new_group = np.empty(n, dtype=bool)
    new_group[0] = True
    new_group[1:] = sg[1:] != sg[:-1]
    pos = np.arange(n)
    group_start = np.maximum.accumulate(np.where(new_group, pos, 0))
    run_id = np.cumsum(new_run) - 1
    run_start = pos[new_run]
    run_len = np.diff(np.append(run_start, n))
    # Average rank of a run: its first position in the group, plus (length + 1) / 2.
    run_rank = (run_start - group_start[run_start]) + (run_len + 1) / 2.0
    ranks[order] = run_rank[run_id]
    ties = np.bincount(
        sg[run_start], weights=run_len.astype(float) ** 3 - run_len, minlength=n_groups
    )
    return ranks, ties


def kendall_w(
    columns: Sequence[np.ndarray],
    group: np.ndarray | None,
    n_groups: int,
    correct: bool = True,
) -> dict[str, np.ndarray]:
    """Kendall's W of ``columns`` (one float array per rater, NaN = missing) per group.

    Only the complete items (scored by every rater) are ranked. Returns ``(G,)`` arrays:
    ``n_items``, ``n_dropped``, ``w``, ``chi2``, ``df``, ``p_value``, ``f``, ``f_df1``,
    ``f_df2``, ``f_p_value``. Formulas: see ``kappaframe.kendall_w``.
    """
    m = len(columns)
    n_rows = len(columns[0]) if m else 0
    g = np.zeros(n_rows, dtype=np.intp) if group is None else np.asarray(group, dtype=np.intp)
    total = np.zeros(n_rows)
    rated = np.zeros(n_rows, dtype=bool)
    for col in columns:
        total += col
        rated |= ~np.isnan(col)
    complete = ~np.isnan(total)
    dropped = np.bincount(g[rated & ~complete], minlength=n_groups).astype(np.int64)
    gk = g[complete]
    n = np.bincount(gk, minlength=n_groups).astype(np.int64)
    rank_sums = np.zeros(len(gk))
    ties = np.zeros(n_groups)
    for col in columns:
        ranks, t = group_ranks(np.asarray(col, dtype=float)[complete], gk, n_groups)
        rank_sums += ranks
        ties += t
    nf = n.astype(float)
    # S = sum_i (R_i - mean R)^2, with mean R = m (n + 1) / 2.
    mean = m * (nf + 1) / 2.0
    s = np.bincount(gk, weights=(rank_sums - mean[gk]) ** 2, minlength=n_groups)
    denominator = m**2 * (nf**3 - nf) - (m * ties if correct else 0.0)
    sp = _special()
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(denominator > 0, 12.0 * s / denominator, np.nan)
        w = np.where(n >= 2, w, np.nan)
        df = nf - 1
        chi2 = m * df * w
        p = sp.chdtrc(np.where(df > 0, df, 1.0), np.where(np.isnan(chi2), 0.0, chi2))
        p = np.where(np.isnan(chi2), np.nan, p)
        # Legendre (2005): F = (m - 1) W / (1 - W), df1 = n - 1 - 2/m, df2 = (m - 1) df1.
        f = (m - 1) * w / (1 - w)
        f_df1 = df - 2.0 / m
        f_df2 = (m - 1) * f_df1
        good = (f_df1 > 0) & (f_df2 > 0) & ~np.isnan(f)
        fp = sp.fdtrc(
            np.where(good, f_df1, 1.0),
            np.where(good, f_df2, 1.0),
            np.where(good, np.where(np.isinf(f), 0.0, f), 0.0),
        )
        fp = np.where(good, np.where(np.isinf(f), 0.0, fp), np.nan)
    return {
        "n_items": n,
        "n_dropped": dropped,
        "w": w,
        "chi2": chi2,
        "df": df,
        "p_value": p,
        "f": f,
        "f_df1": f_df1,
        "f_df2": f_df2,
        "f_p_value": fp,
    }
