"""Two methods on one numeric scale: Lin's concordance correlation and Bland-Altman limits.

Both statistics of a rater pair are functions of six sums over the items both raters
rated: ``n``, ``sum x``, ``sum y``, ``sum x^2``, ``sum y^2`` and ``sum xy``. They are
computed here for every rater pair at once, as matrix products of the ratings (rows:
raters, columns: items; missing ratings 0 with a 0/1 mask), one block per group:

    n = M M',  S = Z M',  Q = (Z * Z) M',  C = Z Z'

where ``Z`` holds each rater's ratings less a shift (that rater's mean in the part: the
sums then do not lose digits to a large common offset) and ``M`` the mask. Cell
``[a, b]`` of ``S`` is the sum of rater ``a``'s ratings over the items ``b`` rated too.
The sums become centred moments (``PairMoments``: counts, means, centred sums of squares
and of cross products), which add over parts of the data exactly (Chan, Golub & LeVeque
1979), so an input read in parts (files, Dask partitions) gives the numbers of the whole.
NumPy only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .inference import normal_quantile, t_quantile

__all__ = ["CHUNK_ITEMS", "MATMUL_MAX_GROUPS", "PairMoments", "bland_altman_stats", "lin_ccc"]


@dataclass
class PairMoments:
    """Centred moments of every ordered rater pair in every group, over shared items.

    Each array has shape ``(G, R, R)``; cell ``[g, a, b]`` is over the items of group
    ``g`` that raters ``a`` and ``b`` both rated (the diagonal: the items ``a`` rated).

    Attributes
    ----------
    n : int64 array
        Items both rated.
    mean : float array
        Rater ``a``'s mean over them (``mean[g, b, a]`` is ``b``'s).
    ss : float array
        Rater ``a``'s centred sum of squares over them.
    cross : float array
        The centred sum of cross products (symmetric in ``a``, ``b``).
    """

    n: np.ndarray
    mean: np.ndarray
    ss: np.ndarray
    cross: np.ndarray

    @classmethod
    def empty(cls, n_groups: int, n_raters: int) -> PairMoments:
        """No items: every count 0."""
        shape = (n_groups, n_raters, n_raters)
        zeros = np.zeros(shape)
        return cls(np.zeros(shape, dtype=np.int64), zeros, zeros.copy(), zeros.copy())

    @classmethod
    def of(cls, values: np.ndarray, group: np.ndarray | None, n_groups: int) -> PairMoments:
        """The moments of ``values`` ``(R, N)`` (NaN: not rated), items in groups ``group``.

        ``group`` holds each item's group code (``None``: one group). The items are
        sorted by group once and summed ``CHUNK_ITEMS`` at a time; each group's run of
        items in a block takes four matrix products (no loop over items or pairs). With
        more than ``MATMUL_MAX_GROUPS`` groups, six weighted ``bincount`` per rater pair
        over all items instead (no loop over groups).
        """
        values = np.asarray(values, dtype=np.float64)
        n_raters, n_items = values.shape
        out = cls.empty(n_groups, n_raters)
        if n_items == 0 or n_groups == 0:
            return out
        shift = _shift(values)
        if group is not None and n_groups > MATMUL_MAX_GROUPS:
            rated = ~np.isnan(values)
            centred = np.where(rated, values - shift[:, None], 0.0)
            mask = rated.astype(np.float64)
            _by_pair(out, centred, mask, shift, np.asarray(group, dtype=np.intp), n_groups)
            return out
        order = sorted_group = None
        if group is not None and n_groups > 1:
            group = np.asarray(group)
            small = group.astype(np.int16) if n_groups <= MATMUL_MAX_GROUPS else group
            order = np.argsort(small, kind="stable")  # a radix sort for 16-bit keys
            sorted_group = group[order]
        shape = (n_groups, n_raters, n_raters)
        n, s, q, c = (np.zeros(shape) for _ in range(4))
        # A block of items at a time (its temporaries stay small), each group's run of
        # items in the block a slice.
        for begin in range(0, n_items, CHUNK_ITEMS):
            end = min(begin + CHUNK_ITEMS, n_items)
            block = values[:, begin:end] if order is None else values[:, order[begin:end]]
            rated = ~np.isnan(block)
            z = np.where(rated, block - shift[:, None], 0.0)
            m = rated.astype(np.float64)
            if sorted_group is None:
                runs: Any = [(0, 0, end - begin)]
            else:
                in_block = sorted_group[begin:end]
                cut = np.flatnonzero(in_block[1:] != in_block[:-1]) + 1
                low = np.concatenate([[0], cut])
                high = np.concatenate([cut, [len(in_block)]])
                runs = zip(in_block[low].tolist(), low.tolist(), high.tolist(), strict=True)
            for g, low_, high_ in runs:
                zz, mm = z[:, low_:high_], m[:, low_:high_]
                n[g] += mm @ mm.T
                s[g] += zz @ mm.T
                q[g] += (zz * zz) @ mm.T
                c[g] += zz @ zz.T
        _finish(out, slice(None), n, s, q, c, shift)
        return out

    @classmethod
    def from_sums(
        cls, n: np.ndarray, s: np.ndarray, q: np.ndarray, c: np.ndarray, shift: np.ndarray
    ) -> PairMoments:
        """The moments from sums ``(G, R, R)`` about each rater's origin ``shift``.

        ``n[g, a, b]``: items both rated; ``s[g, a, b]``, ``q[g, a, b]``: the sum and the
        sum of squares of ``a``'s ratings less ``shift[a]`` over them; ``c[g, a, b]``:
        the sum of cross products (symmetric). What an engine's query returns.
        """
        out = cls.empty(n.shape[0], n.shape[1])
        _finish(out, slice(None), n, s, q, c, np.asarray(shift, dtype=np.float64))
        return out

    def __add__(self, other: PairMoments) -> PairMoments:
        """The moments of both sets of items (the same groups and raters, in order)."""
        n1, n2 = self.n.astype(np.float64), other.n.astype(np.float64)
        n = n1 + n2
        with np.errstate(invalid="ignore", divide="ignore"):
            weight = np.where(n > 0, n1 * n2 / n, 0.0)
            share = np.where(n > 0, n2 / n, 0.0)
        delta = other.mean - self.mean
        delta_t = np.swapaxes(delta, -1, -2)
        return PairMoments(
            self.n + other.n,
            self.mean + delta * share,
            self.ss + other.ss + delta * delta * weight,
            self.cross + other.cross + delta * delta_t * weight,
        )

    def placed(
        self, raters: np.ndarray, n_raters: int, groups: np.ndarray, n_groups: int
    ) -> PairMoments:
        """These moments in a bigger frame: rater ``i`` at ``raters[i]``, group at ``groups``."""
        out = PairMoments.empty(n_groups, n_raters)
        where = np.ix_(groups, raters, raters)
        for name in ("n", "mean", "ss", "cross"):
            getattr(out, name)[where] = getattr(self, name)
        return out

    def pairs(self, a: np.ndarray, b: np.ndarray) -> dict[str, np.ndarray]:
        """The six moments of the pairs ``(a[i], b[i])``, each ``(P, G)``: x is rater a."""
        return {
            "n": self.n[:, a, b].T,
            "mean_x": self.mean[:, a, b].T,
            "mean_y": self.mean[:, b, a].T,
            "ss_x": self.ss[:, a, b].T,
            "ss_y": self.ss[:, b, a].T,
            "cross": self.cross[:, a, b].T,
        }


#: Up to this many groups, each group's sums are four matrix products over its items;
#: beyond it (many small groups), six weighted counts per rater pair over all items.
MATMUL_MAX_GROUPS = 1024
#: A sum of squares within this share of the squares it is taken from is rounding: 0.
ROUNDING = 64 * np.finfo(np.float64).eps
#: Items summed at a time: the block's temporaries stay a few megabytes.
CHUNK_ITEMS = 1 << 15


def _shift(values: np.ndarray) -> np.ndarray:
    """Each rater's mean over the first block of items (0 with none): the sums' origin.

    Any origin near the ratings keeps the sums of squares from losing digits to a large
    common offset; the moments do not depend on it.
    """
    head = values[:, :CHUNK_ITEMS]
    rated = ~np.isnan(head)
    count = rated.sum(axis=1)
    shift = np.where(rated, head, 0.0).sum(axis=1) / np.maximum(count, 1)
    for r in np.flatnonzero(count == 0):  # no rating in the first block: look further
        row = values[r][~np.isnan(values[r])]
        shift[r] = row.mean() if len(row) else 0.0
    return shift


def _finish(
    out: PairMoments,
    g: Any,
    n: np.ndarray,
    s: np.ndarray,
    q: np.ndarray,
    c: np.ndarray,
    shift: np.ndarray,
) -> None:
    """Store group ``g``'s moments from its sums about ``shift``: ``n``, ``S``, ``Q``, ``C``."""
    with np.errstate(invalid="ignore", divide="ignore"):
        inverse = np.where(n > 0, 1.0 / n, 0.0)
    out.n[g] = np.rint(n).astype(np.int64)
    out.mean[g] = np.where(n > 0, s * inverse + shift[..., :, None], 0.0)
    ss = q - s * s * inverse
    # Within rounding of the sum it is taken from, a sum of squares is 0: scores that do
    # not vary (about a shift off their mean) leave a few ulps of ``q``, not a variance.
    out.ss[g] = np.where(ss > ROUNDING * q, ss, 0.0)
    out.cross[g] = c - s * np.swapaxes(s, -1, -2) * inverse


def _by_pair(
    out: PairMoments,
    centred: np.ndarray,
    mask: np.ndarray,
    shift: np.ndarray,
    group: np.ndarray,
    n_groups: int,
) -> None:
    """Every group's sums at once, pair by pair: weighted ``bincount`` over the items."""
    n_raters = centred.shape[0]
    shape = (n_groups, n_raters, n_raters)
    n, s, q, c = (np.zeros(shape) for _ in range(4))
    for a in range(n_raters):
        for b in range(a, n_raters):
            both = mask[a] * mask[b]
            za, zb = centred[a] * both, centred[b] * both
            n[:, a, b] = n[:, b, a] = np.bincount(group, both, n_groups)
            s[:, a, b] = np.bincount(group, za, n_groups)
            s[:, b, a] = np.bincount(group, zb, n_groups)
            q[:, a, b] = np.bincount(group, za * za, n_groups)
            q[:, b, a] = np.bincount(group, zb * zb, n_groups)
            c[:, a, b] = c[:, b, a] = np.bincount(group, za * zb, n_groups)
    _finish(out, slice(None), n, s, q, c, shift)


def lin_ccc(
    n: np.ndarray,
    mean_x: np.ndarray,
    mean_y: np.ndarray,
    ss_x: np.ndarray,
    ss_y: np.ndarray,
    cross: np.ndarray,
    ci: float | None = 0.95,
) -> dict[str, np.ndarray]:
    """Lin's concordance correlation coefficient of pairs, from their centred moments.

    With the moments of ``n`` pairs (variances and covariance divided by ``n``, as Lin
    1989 defines them: ``s_x^2 = ss_x / n``, ``s_y^2 = ss_y / n``, ``s_xy = cross / n``)::

        ccc = 2 s_xy / (s_x^2 + s_y^2 + (mean_x - mean_y)^2)
        r = s_xy / (s_x s_y)                  (precision: Pearson's correlation)
        bias_correction = ccc / r             (accuracy, Lin's C_b)
        scale_shift = s_x / s_y               (Lin's v)
        location_shift = (mean_x - mean_y) / sqrt(s_x s_y)   (Lin's u)

    The interval is Lin's (1989) on the z-transformed coefficient ``z = atanh(ccc)``,
    with the variance as corrected by Lin (2000)::

        var(z) = [ (1 - r^2) ccc^2 / ((1 - ccc^2) r^2)
                   + 2 ccc^3 (1 - ccc) u^2 / (r (1 - ccc^2)^2)
                   - ccc^4 u^4 / (2 r^2 (1 - ccc^2)^2) ] / (n - 2)

    and ``tanh(z -/+ q sqrt(var(z)))`` with ``q`` the normal quantile of ``ci``: the
    ``ci = "z-transform"`` interval of R's ``epiR::epi.ccc`` and ``DescTools::CCC``.
    ``se`` is the standard error of ``ccc`` itself, ``sqrt(var(z)) (1 - ccc^2)``.

    Undefined (NaN): fewer than two items, or a rater whose ratings over the shared
    items do not vary (Pearson's r, and so the interval, has no value; R's
    functions return ``NA``); the interval needs three items.

    Returns
    -------
    dict of arrays
        ``ccc``, ``pearson_r``, ``bias_correction``, ``scale_shift``,
        ``location_shift``, ``se``, ``ci_low``, ``ci_high`` (the last three NaN
        without ``ci``), and ``undefined`` (bool).

    Examples
    --------
    Two methods, five items (x = 1..5, y = x + 1): a shift of one unit (variances 2).

    >>> import numpy as np
    >>> x, y = np.arange(1.0, 6.0), np.arange(2.0, 7.0)
    >>> ss = ((x - x.mean()) ** 2).sum()
    >>> out = lin_ccc(np.array(5), x.mean(), y.mean(), ss, ss, ss)
    >>> round(float(out["ccc"]), 4), round(float(out["bias_correction"]), 4)
    (0.8, 0.8)
    """
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        var_x, var_y, cov = ss_x / n, ss_y / n, cross / n
        diff = mean_x - mean_y
        undefined = (n < 2) | ~(var_x > 0) | ~(var_y > 0)
        ccc = np.where(undefined, np.nan, 2.0 * cov / (var_x + var_y + diff * diff))
        ccc = np.clip(ccc, -1.0, 1.0)
        sd_x, sd_y = np.sqrt(var_x), np.sqrt(var_y)
        r = np.where(undefined, np.nan, np.clip(cov / (sd_x * sd_y), -1.0, 1.0))
        out = {
            "ccc": ccc,
            "pearson_r": r,
            "bias_correction": ccc / r,
            "scale_shift": np.where(undefined, np.nan, sd_x / sd_y),
            "location_shift": np.where(undefined, np.nan, diff / np.sqrt(sd_x * sd_y)),
        }
        nan = np.full(np.shape(ccc), np.nan)
        if ci is None:
            out.update(se=nan, ci_low=nan, ci_high=nan)
        else:
            u2 = out["location_shift"] ** 2
            p2 = ccc * ccc
            var_ccc = (
                (1.0 - r * r) * p2 * (1.0 - p2) / (r * r)
                + 2.0 * p2 * ccc * (1.0 - ccc) * u2 / r
                - 0.5 * p2 * p2 * u2 * u2 / (r * r)
            ) / (n - 2.0)
            se = np.where(n > 2, np.sqrt(np.maximum(var_ccc, 0.0)), np.nan)
            se_z = se / (1.0 - p2)
            z = np.arctanh(ccc)
            q = normal_quantile(ci)
            out.update(se=se, ci_low=np.tanh(z - q * se_z), ci_high=np.tanh(z + q * se_z))
    out["undefined"] = np.asarray(undefined)
    return out


def bland_altman_stats(
    n: np.ndarray,
    mean_x: np.ndarray,
    mean_y: np.ndarray,
    ss_x: np.ndarray,
    ss_y: np.ndarray,
    cross: np.ndarray,
    agreement: float = 1.96,
    ci: float | None = 0.95,
) -> dict[str, np.ndarray]:
    """Bland-Altman bias and limits of agreement of pairs, from their centred moments.

    With the differences ``d = x - y`` of ``n`` items (Bland & Altman 1986, 1999)::

        bias = mean(d) = mean_x - mean_y
        sd = sqrt(sum (d - bias)^2 / (n - 1)) = sqrt((ss_x + ss_y - 2 cross) / (n - 1))
        loa_low, loa_high = bias -/+ agreement * sd

    and the approximate intervals of Bland & Altman (1986): ``bias -/+ t se_bias`` with
    ``se_bias = sd / sqrt(n)``, and each limit ``-/+ t se_loa`` with
    ``se_loa = sqrt(3 sd^2 / n)``, ``t`` the Student quantile of ``ci`` on ``n - 1``
    degrees of freedom (R's ``BlandAltmanLeh::bland.altman.stats``).

    Undefined (NaN): fewer than two items.

    Returns
    -------
    dict of arrays
        ``bias``, ``sd``, ``loa_low``, ``loa_high``, ``bias_ci_low``, ``bias_ci_high``,
        ``loa_low_ci_low``, ``loa_low_ci_high``, ``loa_high_ci_low``,
        ``loa_high_ci_high`` (the intervals NaN without ``ci``), and ``undefined``.

    Examples
    --------
    Differences 1, 2, 3 (x - y):

    >>> import numpy as np
    >>> out = bland_altman_stats(np.array(3), 4.0, 2.0, 2.0, 0.0, 0.0, agreement=2.0)
    >>> float(out["bias"]), float(out["sd"]), float(out["loa_low"]), float(out["loa_high"])
    (2.0, 1.0, 0.0, 4.0)
    """
    n = np.asarray(n, dtype=np.float64)
    undefined = np.asarray(n < 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        bias = np.where(n > 0, np.asarray(mean_x - mean_y, dtype=np.float64), np.nan)
        ss_d = np.maximum(ss_x + ss_y - 2.0 * cross, 0.0)
        sd = np.where(undefined, np.nan, np.sqrt(ss_d / (n - 1.0)))
        bias = np.where(undefined, np.nan, bias)
        low, high = bias - agreement * sd, bias + agreement * sd
        out = {"bias": bias, "sd": sd, "loa_low": low, "loa_high": high}
        names = ("bias", "loa_low", "loa_high")
        if ci is None:
            nan = np.full(np.shape(bias), np.nan)
            for name in names:
                out[f"{name}_ci_low"], out[f"{name}_ci_high"] = nan, nan
        else:
            t = t_quantile(ci, np.where(undefined, 0.0, n - 1.0))
            se_bias = sd / np.sqrt(n)
            se_loa = np.sqrt(3.0 * sd * sd / n)
            for name, se in zip(names, (se_bias, se_loa, se_loa), strict=True):
                out[f"{name}_ci_low"] = out[name] - t * se
                out[f"{name}_ci_high"] = out[name] + t * se
    out["undefined"] = undefined
    return out
