"""Krippendorff's alpha on many distinct values, from sums over the pairable values. NumPy only.

Alpha's disagreements are sums over pairs of values (Krippendorff 2011, "Computing
Krippendorff's alpha-reliability", sections C and E). ``kappaframe._stats.multirater``
weighs each item's category counts by a K x K matrix of distances, which costs
``items x K^2`` for K categories: cubic for real-valued scores, where almost every value is
its own category. Here the same sums are taken from the rated values themselves:

- interval, ``delta^2(x, y) = (x - y)^2``: within a unit with values ``x_1 .. x_m``,
  ``sum_{a<b} (x_a - x_b)^2 = m sum_a (x_a - xbar)^2``; over the pooled values with shares
  ``pi``, ``sum_xy pi_x pi_y (x - y)^2 = 2 var_pi`` and ``sum_y pi_y (x - y)^2 =
  (x - mu_pi)^2 + var_pi``. Linear time: a few ``np.bincount`` passes, the values centred
  first on their group's mean.
- ordinal: Krippendorff's ``delta^2(c, k) = (sum_{g=c}^{k} n_g - (n_c + n_k) / 2)^2`` is
  ``(m_k - m_c)^2`` for the mid-ranks ``m_c = sum_{g<c} n_g + n_c / 2`` of the pooled
  pairable values, so ordinal alpha is interval alpha on the mid-ranks: one sort of the
  (group, value) cells, O(N log N).
- ratio, ``delta^2(x, y) = ((x - y) / (x + y))^2``, has no sum form: the pairs within
  each unit are summed one by one (``sum_u m_u (m_u - 1) / 2`` pairs), and the expected
  disagreement over the distinct pooled values ``V`` of each group in blocks of rows:
  exact, memory linear, time ``V^2`` (not ``items x K^2``).

The terms are those of Gwet's form that ``multirater._krippendorff`` finishes (its
``_AlphaTerms``), so the values, their variance and the bootstrap read them alike. The
weights are scaled by their largest value over the categories as the matrix path scales
them, so ``p_o`` and ``p_e`` are the same numbers too.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import KappaFrameError

__all__ = ["SUMS_FROM", "AlphaSums", "alpha_sums", "level_values", "rated_values", "uses_sums"]

#: From this many categories on, interval, ratio and ordinal alpha are taken from sums over
#: the values, not through the K x K matrix of distances: the matrix path costs about
#: ``rows x K^2`` (rows: the distinct items, a few hundred when K is small), the sums
#: ``N log N`` for N values. Below it the matrix path stays, and so do its numbers bit for
#: bit; above it the two agree to rounding (about 1e-13).
SUMS_FROM = 64
#: Bytes of one block of the ratio level's distances between distinct values.
_BLOCK_BYTES = 1 << 25


def uses_sums(level: str, weighted: bool, n_categories: int) -> bool:
    """Whether alpha at ``level`` over ``n_categories`` is taken from sums (no K x K matrix)."""
    return not weighted and level in ("interval", "ratio", "ordinal") and n_categories >= SUMS_FROM


def level_values(level: str, categories: Sequence[Any]) -> np.ndarray:
    """The category values for ``level="interval"`` or ``"ratio"``, checked."""
    values = np.asarray(categories, dtype=object) if len(categories) else np.zeros(0)
    floats = _as_floats(values)
    if floats is None:
        bad = [c for c in categories if isinstance(c, bool) or not isinstance(c, numbers.Real)]
        if bad:
            raise KappaFrameError(
                f"level={level!r} needs numeric labels (it measures distances between their "
                f"values); label {bad[0]!r} is not a number. Use level='ordinal' or "
                "'nominal', or recode the labels to numbers."
            )
        floats = np.asarray([float(c) for c in categories])
    if level == "ratio" and np.any(floats < 0):
        raise KappaFrameError(
            f"level='ratio' needs non-negative values (a ratio scale has a true "
            f"zero); got {floats.min():g}. Use level='interval'."
        )
    return floats


def _as_floats(values: np.ndarray) -> np.ndarray | None:
    """The labels as floats when every one is a real number that is not a bool, else None."""
    if values.dtype.kind == "f":
        return values.astype(float)
    kinds = {type(v) for v in values.tolist()}
    if kinds <= {float, int} or kinds <= {np.float64, np.int64, float, int}:
        return np.asarray(values.tolist(), dtype=float)
    return None


def rated_values(
    codes: np.ndarray, given_counts: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(item, code, weight) of every rated value: one per label, or per nonzero count."""
    if given_counts is not None:
        item, code = np.nonzero(given_counts)
        return item, code, np.asarray(given_counts[item, code], dtype=float)
    rater, item = np.nonzero(codes >= 0)
    code = codes[rater, item].astype(np.int64)
    return item, code, np.ones(len(item))


@dataclass(frozen=True)
class AlphaSums:
    """Alpha's terms over the pairable items, as ``multirater._AlphaTerms`` reads them."""

    g: np.ndarray  # group of each pairable item
    n: np.ndarray  # pairable items per group
    values: np.ndarray  # pairable values per group
    r: np.ndarray  # values of each pairable item
    sum_q: np.ndarray  # sum_k r_k ((A r)_k - 1) of each pairable item
    p_e: np.ndarray  # per group
    pe_sum: np.ndarray  # sum_k r_k (A pi)_k of each pairable item


def alpha_sums(
    item: np.ndarray,
    code: np.ndarray,
    weight: np.ndarray,
    group: np.ndarray,
    n_groups: int,
    level: str,
    categories: Sequence[Any],
) -> AlphaSums:
    """Gwet's terms of Krippendorff's alpha at ``level`` from the rated values.

    ``item``/``code``/``weight``: each rated value's item (an index into ``group``), its
    category code (codes in category order) and how many times it was given. With
    ``A = 1 - delta^2 / max(delta^2)`` as in ``multirater.level_weights``:
    ``sum_q = r (r - 1) - 2 D_u / top`` for the unit's disagreement ``D_u`` (its pairs'
    ``delta^2``), ``p_e = 1 - sum_xy pi_x pi_y delta^2(x, y) / top`` and
    ``pe_sum = r - sum_a e(x_a) / top`` with ``e(x) = sum_y pi_y delta^2(x, y)``.
    """
    n_items = len(group)
    r_all = np.bincount(item, weights=weight, minlength=n_items)
    pairable = r_all >= 2
    keep = pairable[item]
    item, code, weight = item[keep], code[keep], weight[keep]
    # renumber the pairable items 0..n-1 (in item order)
    rows = np.flatnonzero(pairable)
    renumber = np.full(n_items, -1, dtype=np.int64)
    renumber[rows] = np.arange(len(rows))
    unit = renumber[item]
    r = r_all[rows]
    g = np.asarray(group, dtype=np.intp)[rows]
    g_val = g[unit]
    n = np.bincount(g, minlength=n_groups).astype(float)
    values = np.bincount(g, weights=r, minlength=n_groups)
    k = len(categories)
    if level == "ordinal":
        x, top = _midranks(code, weight, g_val, n_groups, k)
    else:
        table = level_values(level, categories)
        x = table[code]
        if level == "interval":
            spread = table.max() - table.min() if k else 0.0
        else:
            low, high = (table.min(), table.max()) if k else (0.0, 0.0)
            spread = (high - low) / (high + low) if high + low > 0 else 0.0
        top = np.full(n_groups, spread * spread)
    if level == "ratio":
        within, expected, each = _ratio_sums(unit, x, weight, g_val, values, len(rows), n_groups)
    else:
        within, expected, each = _square_sums(unit, x, weight, g_val, values, len(rows), n_groups)
    scale = np.where(top > 0, top, 1.0)
    used = np.where(top > 0, 1.0, 0.0)  # top 0: every value agrees with every other (A = 1)
    sum_q = r * (r - 1.0) - 2.0 * within * (used / scale)[g]
    p_e = np.where(n > 0, 1.0 - expected * used / scale, np.nan)
    pe_sum = r - np.bincount(unit, weights=weight * each, minlength=len(rows)) * (used / scale)[g]
    return AlphaSums(g, n, values, r, sum_q, p_e, pe_sum)


def _midranks(
    code: np.ndarray, weight: np.ndarray, g_val: np.ndarray, n_groups: int, k: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each value's mid-rank among its group's pairable values, and each group's top.

    ``m_c = sum_{g<c} n_g + n_c / 2`` in category order; ``top = (m_{K-1} - m_0)^2`` over
    the first and last categories (in use or not): the largest ``delta^2``.
    """
    cell = g_val.astype(np.int64) * max(k, 1) + code
    keys, of_value = np.unique(cell, return_inverse=True)
    of_value = of_value.reshape(-1)
    count = np.bincount(of_value, weights=weight, minlength=len(keys))
    cell_group = keys // max(k, 1)
    before = np.cumsum(count) - count
    first = np.searchsorted(cell_group, np.arange(n_groups))
    base = before[np.minimum(first, max(len(keys) - 1, 0))] if len(keys) else np.zeros(n_groups)
    mid = before - base[cell_group] + count / 2.0
    total = np.bincount(cell_group, weights=count, minlength=n_groups)
    ends = np.zeros(n_groups)
    cell_code = keys % max(k, 1)
    np.add.at(ends, cell_group[cell_code == 0], count[cell_code == 0])
    last = cell_code == k - 1
    np.add.at(ends, cell_group[last], count[last])
    spread = total - ends / 2.0
    return mid[of_value], spread * spread


def _square_sums(
    unit: np.ndarray,
    x: np.ndarray,
    weight: np.ndarray,
    g_val: np.ndarray,
    values: np.ndarray,
    n_units: int,
    n_groups: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Squared distances: each unit's ``D_u``, each group's ``sum pi pi delta^2`` and ``e(x)``.

    All from deviations (from the group's mean, then the unit's), never from raw
    ``sum x^2 - (sum x)^2``, so large offsets lose no digits.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        mu = np.bincount(g_val, weights=weight * x, minlength=n_groups) / values
        dev = x - mu[g_val]
        var = np.bincount(g_val, weights=weight * dev * dev, minlength=n_groups) / values
        r = np.bincount(unit, weights=weight, minlength=n_units)
        mean = np.bincount(unit, weights=weight * dev, minlength=n_units) / r
        own = dev - mean[unit]
        within = r * np.bincount(unit, weights=weight * own * own, minlength=n_units)
    return within, 2.0 * np.nan_to_num(var), dev * dev + var[g_val]


def _ratio_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``((a - b) / (a + b))^2``, 0 where ``a + b == 0`` (as ``level_weights`` has it)."""
    total = a + b
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, ((a - b) / np.where(total > 0, total, 1.0)) ** 2, 0.0)


def _ratio_sums(
    unit: np.ndarray,
    x: np.ndarray,
    weight: np.ndarray,
    g_val: np.ndarray,
    values: np.ndarray,
    n_units: int,
    n_groups: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ratio distances: each unit's pairs one by one; each group's distinct values in blocks."""
    order = np.argsort(unit, kind="stable")
    u, xs, ws = unit[order], x[order], weight[order]
    within = np.zeros(n_units)
    at = np.flatnonzero(u[1:] == u[:-1]) if len(u) > 1 else np.zeros(0, dtype=np.intp)
    step = 1
    while len(at):  # at: the values whose step-th successor is in the same unit
        pair = _ratio_distance(xs[at], xs[at + step]) * ws[at] * ws[at + step]
        within += np.bincount(u[at], weights=pair, minlength=n_units)
        step += 1
        at = at[at + step < len(u)]
        at = at[u[at + step] == u[at]]
    # the distinct (group, value) cells and their shares
    keys, of_value = np.unique(np.stack([g_val, x]), axis=1, return_inverse=True)
    of_value = of_value.reshape(-1)
    cell_group = keys[0].astype(np.intp)
    cell_x = keys[1]
    share = np.bincount(of_value, weights=weight, minlength=keys.shape[1])
    with np.errstate(divide="ignore", invalid="ignore"):
        share = share / values[cell_group]
    each = np.zeros(len(cell_x))
    bounds = np.searchsorted(cell_group, np.arange(n_groups + 1))
    for grp in range(n_groups):
        lo, hi = int(bounds[grp]), int(bounds[grp + 1])
        xs_g, ps_g = cell_x[lo:hi], share[lo:hi]
        rows = max(1, _BLOCK_BYTES // (8 * max(hi - lo, 1)))
        for start in range(lo, hi, rows):
            stop = min(start + rows, hi)
            each[start:stop] = _ratio_distance(cell_x[start:stop, None], xs_g[None, :]) @ ps_g
    expected = np.bincount(cell_group, weights=share * each, minlength=n_groups)
    return within, expected, each[of_value]
