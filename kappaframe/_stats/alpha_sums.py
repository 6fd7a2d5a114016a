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
from .agreement import chance_corrected

__all__ = [
    "SUMS_FROM",
    "AlphaReplicates",
    "AlphaSums",
    "alpha_sums",
    "level_values",
    "pairs_within",
    "rated_values",
    "uses_sums",
]

#: From this many categories on, interval, ratio and ordinal alpha are taken from sums over
#: the values, not through the K x K matrix of distances: the matrix path costs about
#: ``rows x K^2`` (rows: the distinct items, a few hundred when K is small), the sums
#: ``N log N`` for N values. Below it the matrix path stays, and so do its numbers bit for
#: bit; above it the two agree to rounding (about 1e-13).
SUMS_FROM = 32
#: The ordinal level counts (group, category) cells in one dense bincount while there are
#: at most this many per value (else it sorts the cells that occur).
_DENSE_SPAN = 4
_DENSE_MIN = 1 << 16
#: Bytes of one block of the ratio level's distances between distinct values (cache-sized:
#: 6x faster than 32 MiB blocks).
_BLOCK_BYTES = 1 << 18


def uses_sums(level: str, weighted: bool, n_categories: int) -> bool:
    """Whether alpha at ``level`` over ``n_categories`` is taken from sums (no K x K matrix)."""
    return not weighted and level in ("interval", "ratio", "ordinal") and n_categories >= SUMS_FROM


def level_values(level: str, categories: Sequence[Any]) -> np.ndarray:
    """The category values for ``level="interval"`` or ``"ratio"``, checked."""
    floats = _as_floats(categories)
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


#: Label types read as numbers at C speed (every other type is checked one by one).
_NUMBER_TYPES = {float, int, np.float64, np.float32, np.int64, np.int32, np.int16, np.int8}


def _as_floats(categories: Sequence[Any]) -> np.ndarray | None:
    """The labels as floats when every one is of a plain number type (not bool), else None."""
    if isinstance(categories, np.ndarray) and categories.dtype.kind in "fiu":
        return categories.astype(float)
    if not set(map(type, categories)) <= _NUMBER_TYPES:
        return None
    return np.asarray(categories, dtype=float) if len(categories) else np.zeros(0)


def rated_values(
    codes: np.ndarray, given_counts: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(item, code, weight) of every rated value.

    One per label (weight ``None``: each counts once), or one per nonzero count of
    ``given_counts`` (weight: the count).
    """
    if given_counts is not None:
        item, code = np.nonzero(given_counts)
        return item, code, np.asarray(given_counts[item, code], dtype=float)
    rater, item = np.nonzero(codes >= 0)
    return item, codes[rater, item].astype(np.int64), None


def _weighed(values: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    return values if weight is None else values * weight


@dataclass(frozen=True)
class AlphaSums:
    """Alpha's terms over the pairable items, as ``multirater._AlphaTerms`` reads them.

    ``pe_sum()`` (read by the variance only) is summed on demand.
    """

    g: np.ndarray  # group of each pairable item
    n: np.ndarray  # pairable items per group
    values: np.ndarray  # pairable values per group
    r: np.ndarray  # values of each pairable item
    sum_q: np.ndarray  # sum_k r_k ((A r)_k - 1) of each pairable item
    p_e: np.ndarray  # per group
    unit: np.ndarray  # the pairable item of each value
    each: np.ndarray  # e(x) / top of each value (0 where top is 0)
    weight: np.ndarray | None  # how many times each value was given (None: once)

    def pe_sum(self) -> np.ndarray:
        """``sum_k r_k (A pi)_k`` of each pairable item."""
        spent = np.bincount(
            self.unit, weights=_weighed(self.each, self.weight), minlength=len(self.r)
        )
        return self.r - spent


def alpha_sums(
    item: np.ndarray,
    code: np.ndarray,
    weight: np.ndarray | None,
    group: np.ndarray,
    n_groups: int,
    level: str,
    categories: Sequence[Any],
) -> AlphaSums:
    """Gwet's terms of Krippendorff's alpha at ``level`` from the rated values.

    ``item``/``code``/``weight``: each rated value's item (an index into ``group``), its
    category code (codes in category order) and how many times it was given (``None``:
    once). With ``A = 1 - delta^2 / top``, ``top = max delta^2`` over the categories, as
    in ``multirater.level_weights``: ``sum_q = r (r - 1) - 2 D_u / top`` for the unit's
    disagreement ``D_u`` (the sum of its pairs' ``delta^2``), ``p_e = 1 - sum_xy pi_x pi_y
    delta^2(x, y) / top`` and ``pe_sum = r - sum_a e(x_a) / top`` with
    ``e(x) = sum_y pi_y delta^2(x, y)``.
    """
    n_items = len(group)
    r_all = np.bincount(item, weights=weight, minlength=n_items).astype(float)
    pairable = r_all >= 2
    if pairable.all():
        unit, r, g = item, r_all, np.asarray(group, dtype=np.intp)
    else:  # number the pairable items 0 .. n - 1, in item order
        keep = pairable[item]
        item, code = item[keep], code[keep]
        weight = None if weight is None else weight[keep]
        rows = np.flatnonzero(pairable)
        renumber = np.full(n_items, -1, dtype=np.int64)
        renumber[rows] = np.arange(len(rows))
        unit, r, g = renumber[item], r_all[rows], np.asarray(group, dtype=np.intp)[rows]
    n_units = len(r)
    g_val = g[unit] if n_groups > 1 else np.zeros(len(unit), dtype=np.intp)
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
        within, expected, each = _ratio_sums(
            unit, code, x, weight, g_val, values, n_units, n_groups
        )
    else:
        within, expected, each = _square_sums(unit, x, weight, g_val, values, n_units, n_groups)
    # top 0: every value agrees with every other (A = 1), nothing is a disagreement
    per_top = np.where(top > 0, 1.0 / np.where(top > 0, top, 1.0), 0.0)
    sum_q = r * (r - 1.0) - 2.0 * within * per_top[g]
    p_e = np.where(n > 0, 1.0 - expected * per_top, np.nan)
    return AlphaSums(g, n, values, r, sum_q, p_e, unit, each * per_top[g_val], weight)


def _midranks(
    code: np.ndarray, weight: np.ndarray | None, g_val: np.ndarray, n_groups: int, k: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each value's mid-rank among its group's pairable values, and each group's top.

    ``m_c = sum_{g<c} n_g + n_c / 2`` in category order; ``top = (m_{K-1} - m_0)^2`` over
    the first and last categories (in use or not): the largest ``delta^2``.
    """
    width = max(k, 1)
    cell = g_val.astype(np.int64) * width + code
    if n_groups * width <= max(_DENSE_SPAN * len(cell), _DENSE_MIN):  # one bincount, no sort
        count = np.bincount(cell, weights=weight, minlength=n_groups * width).astype(float)
        count = count.reshape(n_groups, width)
        mid = np.cumsum(count, axis=1)
        total = mid[:, -1].copy()
        mid -= count / 2.0
        spread = total - (count[:, 0] + count[:, -1]) / 2.0
        return mid.reshape(-1)[cell], spread * spread
    keys, of_value = np.unique(cell, return_inverse=True)
    of_value = of_value.reshape(-1)
    counts = np.bincount(of_value, weights=weight, minlength=len(keys)).astype(float)
    cell_group, cell_code = np.divmod(keys, width)
    before = np.cumsum(counts) - counts
    first = np.minimum(np.searchsorted(cell_group, np.arange(n_groups)), max(len(keys) - 1, 0))
    base = before[first] if len(keys) else np.zeros(n_groups)
    mids = before - base[cell_group] + counts / 2.0
    total = np.bincount(cell_group, weights=counts, minlength=n_groups)
    ends = np.bincount(cell_group, weights=counts * (cell_code == 0), minlength=n_groups)
    ends += np.bincount(cell_group, weights=counts * (cell_code == k - 1), minlength=n_groups)
    spread = total - ends / 2.0
    return mids[of_value], spread * spread


def _square_sums(
    unit: np.ndarray,
    x: np.ndarray,
    weight: np.ndarray | None,
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
        mu = np.bincount(g_val, weights=_weighed(x, weight), minlength=n_groups) / values
        dev = x - mu[g_val]
        square = dev * dev
        var = np.bincount(g_val, weights=_weighed(square, weight), minlength=n_groups) / values
        r = np.bincount(unit, weights=weight, minlength=n_units)
        mean = np.bincount(unit, weights=_weighed(dev, weight), minlength=n_units) / r
        own = dev - mean[unit]
        own *= own
        within = r * np.bincount(unit, weights=_weighed(own, weight), minlength=n_units)
    square += var[g_val]
    return within, 2.0 * np.nan_to_num(var), square


def pairs_within(unit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every unordered pair of values of the same unit, as two index arrays into ``unit``.

    One sort by unit, then the values ``1, 2, ...`` places apart in the same unit: as
    many steps as the largest unit has values, ``sum_u m_u (m_u - 1) / 2`` pairs in all.
    """
    order = np.argsort(unit, kind="stable")
    u = unit[order]
    firsts, seconds = [], []
    at = np.flatnonzero(u[1:] == u[:-1]) if len(u) > 1 else np.zeros(0, dtype=np.intp)
    step = 1
    while len(at):  # at: the values whose step-th successor is in the same unit
        firsts.append(order[at])
        seconds.append(order[at + step])
        step += 1
        at = at[at + step < len(u)]
        at = at[u[at + step] == u[at]]
    if not firsts:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    return np.concatenate(firsts), np.concatenate(seconds)


def _ratio_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``((a - b) / (a + b))^2``, 0 where ``a + b == 0`` (as ``level_weights`` has it)."""
    total = a + b
    out = a - b  # 0 where a + b == 0: both are 0 (no value is negative)
    np.divide(out, total, out=out, where=total > 0)
    out *= out
    return out


def _ratio_sums(
    unit: np.ndarray,
    code: np.ndarray,
    x: np.ndarray,
    weight: np.ndarray | None,
    g_val: np.ndarray,
    values: np.ndarray,
    n_units: int,
    n_groups: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ratio distances: each unit's pairs one by one; each group's distinct values in blocks."""
    a, b = pairs_within(unit)
    pair = _ratio_distance(x[a], x[b])
    if weight is not None:
        pair *= weight[a] * weight[b]
    within = np.bincount(unit[a], weights=pair, minlength=n_units)
    # the distinct (group, category) cells and their shares
    keys, first, of_value = np.unique(
        g_val.astype(np.int64) * (int(code.max(initial=0)) + 1) + code,
        return_index=True,
        return_inverse=True,
    )
    of_value = of_value.reshape(-1)
    cell_group = g_val[first]
    cell_x = x[first]
    share = np.bincount(of_value, weights=weight, minlength=len(keys)).astype(float)
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


# --------------------------------------------------------------------------- the bootstrap


class AlphaReplicates:
    """Alpha of bootstrap replicates from the sums over the values of the resampled items.

    A replicate counts pattern ``u`` (a distinct item) ``d_u`` times. What is linear in
    the counts comes from columns per pattern, summed with the other methods' (pairable or
    not, its pairable values, its ``sum_q / (r - 1)`` where the scale of the distances is
    fixed, and for interval the sum and the sum of squares of its values, centred): that
    is all interval needs. Ordinal's mid-ranks and ratio's expected disagreement move
    with every replicate in no sum form: they read each replicate's count of each distinct
    value of the group (and ordinal each pair of values within a unit), one sparse
    product per block of replicates; ratio then costs ``V^2`` per replicate for the ``V``
    distinct values of a group.
    """

    def __init__(
        self,
        unit: np.ndarray,
        code: np.ndarray,
        weight: np.ndarray,
        pattern_group: np.ndarray,
        level: str,
        categories: Sequence[Any],
    ) -> None:
        n_patterns = len(pattern_group)
        r = np.bincount(unit, weights=weight, minlength=n_patterns).astype(float)
        two = r >= 2
        with np.errstate(divide="ignore", invalid="ignore"):
            per_value = np.where(two, 1.0 / np.where(two, r - 1.0, 1.0), 0.0)
        keep = np.flatnonzero(two[unit])
        keep = keep[np.argsort(unit[keep], kind="stable")]  # by pattern, so by group
        unit, code, weight = unit[keep], code[keep], weight[keep]
        self.level = level
        k = max(len(categories), 1)
        self.k = len(categories)
        # the distinct (group, category) cells of the pairable values, sorted
        cells, of_value = np.unique(
            pattern_group[unit].astype(np.int64) * k + code, return_inverse=True
        )
        of_value = of_value.reshape(-1)
        self.cell_group, self.cell_code = np.divmod(cells, k)
        n_groups = int(pattern_group.max(initial=-1)) + 1
        self.cell_bounds = np.searchsorted(self.cell_group, np.arange(n_groups + 1))
        self.pattern_bounds = np.searchsorted(pattern_group, np.arange(n_groups + 1))
        self.unit, self.of_value, self.weight = unit, of_value, weight
        self.top = 0.0
        self.cell_x = np.zeros(len(cells))
        columns = [two.astype(float), np.where(two, r, 0.0)]
        if level == "ordinal":
            columns.append(per_value * r * (r - 1.0))
            a, b = pairs_within(unit)
            by_unit = np.argsort(unit[a], kind="stable")
            a, b = a[by_unit], b[by_unit]
            self.pair_a, self.pair_b = of_value[a], of_value[b]
            self.pair_weight = per_value[unit[a]] * weight[a] * weight[b]
            self.pair_unit = unit[a]
        else:
            table = level_values(level, categories)
            x = table[code]
            self.cell_x = table[self.cell_code]
            if level == "interval":
                spread = table.max() - table.min() if len(table) else 0.0
            else:
                low, high = (table.min(), table.max()) if len(table) else (0.0, 0.0)
                spread = (high - low) / (high + low) if high + low > 0 else 0.0
            self.top = spread * spread
            per_top = 1.0 / self.top if self.top > 0 else 0.0
            if level == "interval":
                within, _, _ = _square_sums(
                    unit, x, weight, np.zeros(len(unit), np.intp), np.ones(1), n_patterns, 1
                )
                # the pooled values' spread from two more columns: their sum and sum of
                # squares, each value less its group's mean (no digits lost to an offset)
                g_val = pattern_group[unit]
                with np.errstate(divide="ignore", invalid="ignore"):
                    centre = np.bincount(g_val, weights=weight * x) / np.bincount(
                        g_val, weights=weight
                    )
                dev = x - centre[g_val]
                moments = [
                    np.bincount(unit, weights=weight * dev, minlength=n_patterns),
                    np.bincount(unit, weights=weight * dev * dev, minlength=n_patterns),
                ]
            else:
                a, b = pairs_within(unit)
                pair = _ratio_distance(x[a], x[b]) * weight[a] * weight[b]
                within = np.bincount(unit[a], weights=pair, minlength=n_patterns)
                moments = []
            columns.append(per_value * (r * (r - 1.0) - 2.0 * within * per_top))
            columns += moments  # interval: columns 3 and 4
        self.columns = np.column_stack(columns)
        self._indicators: dict[int, Any] = {}

    def _indicator(self, g: int) -> Any:
        """Group ``g``'s sparse (cells [+ pairs]) x patterns matrix of the replicates' sums."""
        if g not in self._indicators:
            from scipy import sparse

            lo, hi = int(self.pattern_bounds[g]), int(self.pattern_bounds[g + 1])
            c0, c1 = int(self.cell_bounds[g]), int(self.cell_bounds[g + 1])
            mine = self._between(self.unit, lo, hi)
            rows = [self.of_value[mine] - c0]
            cols = [self.unit[mine] - lo]
            vals = [self.weight[mine]]
            n_rows = c1 - c0
            if self.level == "ordinal":
                pairs = self._between(self.pair_unit, lo, hi)
                rows.append(n_rows + np.arange(pairs.stop - pairs.start))
                cols.append(self.pair_unit[pairs] - lo)
                vals.append(self.pair_weight[pairs])
                n_rows += pairs.stop - pairs.start
            self._indicators[g] = sparse.csr_matrix(
                (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                shape=(n_rows, hi - lo),
            )
        return self._indicators[g]

    def finish(self, g: int, draws: np.ndarray, s: np.ndarray) -> np.ndarray:
        """Alpha of each replicate (rows of ``draws``) of group ``g``; ``s``: its column sums."""
        n, values = s[:, 0], s[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.level == "interval":
                m1 = s[:, 3] / values
                expected = 2.0 * (s[:, 4] / values - m1 * m1)
                per_top = np.full(len(s), 1.0 / self.top if self.top > 0 else 0.0)
                sum_q = s[:, 2]
            else:
                c0, c1 = int(self.cell_bounds[g]), int(self.cell_bounds[g + 1])
                v = c1 - c0
                sums = np.asarray(self._indicator(g) @ draws.T)  # (cells [+ pairs], reps)
                count = sums[:v]
            if self.level == "ordinal":
                mid = np.cumsum(count, axis=0)
                total = mid[-1] if v else np.zeros(len(s))
                mid -= count / 2.0
                codes = self.cell_code[c0:c1]
                ends = count[codes == 0].sum(axis=0) + count[codes == self.k - 1].sum(axis=0)
                top = (total - ends / 2.0) ** 2
                mean = (mid * count).sum(axis=0) / values
                spread = ((mid - mean) ** 2 * count).sum(axis=0) / values
                expected = 2.0 * spread
                lo, hi = int(self.pattern_bounds[g]), int(self.pattern_bounds[g + 1])
                pairs = self._between(self.pair_unit, lo, hi)
                a, b = self.pair_a[pairs] - c0, self.pair_b[pairs] - c0
                within = (sums[v:] * (mid[a] - mid[b]) ** 2).sum(axis=0)
                per_top = np.where(top > 0, 1.0 / np.where(top > 0, top, 1.0), 0.0)
                sum_q = s[:, 2] - 2.0 * within * per_top
            elif self.level == "ratio":
                x = self.cell_x[c0:c1]
                expected = np.zeros(len(s))
                rows = max(1, _BLOCK_BYTES // (8 * max(v, 1)))
                for start in range(0, v, rows):
                    block = _ratio_distance(x[start : start + rows, None], x[None, :])
                    expected += ((block @ count) * count[start : start + rows]).sum(axis=0)
                expected /= values * values
                per_top = np.full(len(s), 1.0 / self.top if self.top > 0 else 0.0)
                sum_q = s[:, 2]
            rbar = values / n
            eps = 1.0 / values
            pa_prime = sum_q / (n * rbar)
            p_o = (1.0 - eps) * pa_prime + eps
            p_e = np.where(n > 0, 1.0 - expected * per_top, np.nan)
        return chance_corrected(p_o, p_e)

    @staticmethod
    def _between(units: np.ndarray, lo: int, hi: int) -> slice:
        """The positions of the sorted ``units`` in ``lo .. hi - 1``."""
        start, stop = np.searchsorted(units, [lo, hi])
        return slice(int(start), int(stop))
