"""Count tensor -> statistics. NumPy only; vectorised over every leading axis.

Every function here takes contingency tables ``counts[..., K, K]`` (rows: rater a,
columns: rater b) and returns arrays shaped like the leading axes.
"""

from __future__ import annotations

import numbers
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, get_args

import numpy as np

from .._count.diagonal import DiagonalCounts, is_named
from .._errors import KappaFrameError, arg, bad_option
from .._types import WeightsName

__all__ = [
    "CHANCE_ONE",
    "Weights",
    "agreement",
    "agreement_to_disagreement",
    "chance_corrected",
    "check_weights",
    "diagonal_agreement",
    "finish_agreement",
    "one_vs_rest",
    "pair_agreement",
    "require_symmetric",
    "symmetric_part",
    "weight_matrix",
]

WEIGHT_NAMES: tuple[str, ...] = get_args(WeightsName)
#: Gwet's (2014) named weights, as irrCAC defines them (there as agreement weights).
GWET_WEIGHT_NAMES = ("ordinal", "radical", "ratio", "circular", "bipolar")
_ALLOWED = [
    None,
    *WEIGHT_NAMES,
    *GWET_WEIGHT_NAMES,
    "a 1-D vector of weights by distance",
    "a K x K matrix",
]


def _category_values(categories: Sequence[Any]) -> np.ndarray:
    """The scores irrCAC uses: the labels when they are all numbers, else 1, 2, ..., K."""
    cats = list(categories)
    if cats and all(isinstance(c, numbers.Real) and not isinstance(c, bool) for c in cats):
        return np.asarray([float(c) for c in cats])
    return np.arange(1.0, len(cats) + 1.0)


def _gwet_disagreement(name: str, categories: Sequence[Any]) -> np.ndarray:
    """``1 - A`` for irrCAC's agreement weights ``A`` of ``name`` (max 1, zero diagonal)."""
    k = len(categories)
    if k < 2:
        return np.zeros((k, k))
    if name == "ordinal":  # positions only: the number of categories between
        i = np.arange(k, dtype=float)
        span = np.abs(i[:, None] - i[None, :])
        w = span * (span + 1.0) / 2.0
        return w / w.max()
    x = _category_values(categories)
    diff = x[:, None] - x[None, :]
    low, high = x.min(), x.max()
    if name == "radical":
        return np.sqrt(np.abs(diff)) / np.sqrt(high - low)
    if name == "ratio":
        if np.any(x <= 0):
            raise KappaFrameError(
                "weights='ratio' needs positive category values (a ratio scale has a true "
                f"zero, and (c - k) / (c + k) divides by their sum); got {low:g}. Recode the "
                "labels or use other weights."
            )
        total = x[:, None] + x[None, :]
        return (diff / total) ** 2 / ((high - low) / (high + low)) ** 2
    if name == "circular":
        w = np.sin(np.pi * diff / (high - low + 1.0)) ** 2
        return w / w.max()
    # bipolar
    total = x[:, None] + x[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        w = diff**2 / ((total - 2.0 * low) * (2.0 * high - total))
    np.fill_diagonal(w, 0.0)
    w = np.where(np.isfinite(w), w, 0.0)
    return w / w.max()


def weight_matrix(weights: Any, categories: Sequence[Any], *, rescale: bool = True) -> np.ndarray:
    """Disagreement weights ``W[i, j]`` over ``categories``, scaled to a maximum of 1.

    ``None`` gives ``1 - I`` (plain kappa), ``"linear"`` ``|i - j| / (K - 1)``,
    ``"quadratic"`` ``(i - j)^2 / (K - 1)^2``. Gwet's (2014) ``"ordinal"``,
    ``"radical"``, ``"ratio"``, ``"circular"`` and ``"bipolar"`` are ``1 - A`` for irrCAC's
    agreement weights ``A`` (on the category values when every label is a number, else on
    1, ..., K; "ordinal" on the positions). A 1-D vector ``v`` of length K gives
    ``W[i, j] = v[|i - j|]`` (statsmodels' ``wt="toeplitz"``: weights by distance,
    ``v[0] = 0``). A K x K array (or a pandas frame labelled by category on both axes)
    must be finite and non-negative with a zero diagonal. Vectors and arrays are divided
    by their maximum unless ``rescale=False`` (for the coefficients that are not
    scale-free, which take the weights as given).
    """
    k = len(categories)
    if weights is None:
        return 1.0 - np.eye(k)
    if isinstance(weights, str):
        if weights in GWET_WEIGHT_NAMES:
            return _gwet_disagreement(weights, categories)
        if weights not in WEIGHT_NAMES:
            raise bad_option("weights", weights, _ALLOWED)
        if k < 2:
            return np.zeros((k, k))
        i = np.arange(k, dtype=float)
        dist = np.abs(i[:, None] - i[None, :]) / (k - 1)
        return dist if weights == "linear" else dist**2
    matrix = _weights_from_object(weights, categories)
    if matrix.ndim == 1:
        if matrix.shape != (k,):
            raise KappaFrameError(
                f"a weights vector holds one weight per distance |i - j| = 0, ..., K - 1: "
                f"{k} values for the {k} categories; got {matrix.shape[0]}."
            )
        i = np.arange(k)
        matrix = matrix[np.abs(i[:, None] - i[None, :])]
    if matrix.shape != (k, k):
        raise KappaFrameError(
            f"weights matrix has shape {matrix.shape}, but there are {k} categories "
            f"{list(categories)}; pass a {k} x {k} matrix in that order, or set categories=.",
            option="weights",
        )
    _check_values(matrix, k)
    top = matrix.max() if matrix.size else 0.0
    return matrix / top if top and rescale else matrix


def check_weights(weights: Any) -> None:
    """Check ``weights`` before any data is read: what can be checked without categories.

    A name must be one of the allowed names; a vector or matrix must hold finite,
    non-negative disagreements with zero for agreement (``v[0]``, the diagonal). Its
    size is checked against the categories once they are known (``weight_matrix``).
    """
    if weights is None:
        return
    if isinstance(weights, str):
        if weights not in WEIGHT_NAMES and weights not in GWET_WEIGHT_NAMES:
            raise bad_option("weights", weights, _ALLOWED)
        return
    pd = sys.modules.get("pandas")
    if pd is not None and isinstance(weights, pd.DataFrame):
        if list(weights.index) == list(weights.columns):  # its size comes with the categories
            try:
                values = weights.to_numpy(dtype=float)
            except (TypeError, ValueError):
                raise bad_option("weights", weights, _ALLOWED) from None
            _check_values(values, len(values))
        return
    matrix = _weights_from_object(weights, ())
    if matrix.ndim == 1:  # by distance |i - j|; checked as the matrix it stands for
        _check_values(np.diag(matrix[:1]), 1)  # agreement (distance 0)
        if len(matrix) > 1:
            _check_values(np.array([[0.0, *matrix[1:]]]), len(matrix))
        return
    if matrix.shape[0] != matrix.shape[1]:
        raise KappaFrameError(
            f"a weights matrix is square (K x K, one row and one column per category); got "
            f"shape {matrix.shape}.",
            option="weights",
        )
    _check_values(matrix, len(matrix))


def _check_values(matrix: np.ndarray, k: int) -> None:
    """Refuse disagreement weights that are not finite, negative, or not 0 for agreement."""
    if not np.all(np.isfinite(matrix)):
        raise KappaFrameError(
            "weights matrix has non-finite entries (NaN or inf).", option="weights"
        )
    if np.any(matrix < 0):
        raise KappaFrameError(
            "weights matrix has negative entries; it holds disagreement weights, 0 on the "
            "diagonal (full agreement) and positive off it.",
            option="weights",
        )
    if np.any(np.diag(matrix) != 0):
        raise KappaFrameError(
            f"weights matrix must have a zero diagonal (it holds disagreement, and a label "
            f"agrees with itself); its diagonal is {np.diag(matrix).tolist()}. To convert "
            "agreement weights A (1 on the diagonal), pass 1 - A.",
            option="weights",
        )
    if k > 1 and not matrix.any():
        raise KappaFrameError(
            "weights matrix is all zeros: every disagreement would be free.", option="weights"
        )


@dataclass(frozen=True, eq=False)
class Weights:
    """Checked disagreement weights over ``k`` categories; the K x K matrix only on demand.

    The many-categories path (diagonal and marginals) needs no matrix for ``None``,
    ``"linear"`` or ``"quadratic"``: with 30,000 categories a dense matrix is 7 GB. A
    caller's own matrix is checked (and scaled) as soon as the categories are known.
    """

    spec: Any  # None, "linear", "quadratic", or the caller's matrix checked and scaled
    k: int

    @classmethod
    def of(cls, weights: Any, categories: Sequence[Any]) -> Weights:
        k = len(categories)
        if is_named(weights):
            return cls(weights, k)
        if isinstance(weights, str) and weights not in GWET_WEIGHT_NAMES:
            raise bad_option("weights", weights, _ALLOWED)
        # Gwet's names, like a caller's matrix, are served by the full tables.
        return cls(weight_matrix(weights, categories), k)

    @property
    def named(self) -> bool:
        return is_named(self.spec)

    @cached_property
    def matrix(self) -> np.ndarray:
        """The K x K matrix (built once, for full tables)."""
        if self.named:
            return weight_matrix(self.spec, range(self.k))
        return np.asarray(self.spec)

    @property
    def symmetric(self) -> bool:
        """Whether ``W == W.T`` exactly (named weights are, without building them)."""
        return self.named or bool(np.array_equal(self.matrix, self.matrix.T))


def _weights_from_object(weights: Any, categories: Sequence[Any]) -> np.ndarray:
    pd = sys.modules.get("pandas")  # a frame of weights implies pandas is imported
    if pd is not None and isinstance(weights, pd.DataFrame):
        cats = list(categories)
        missing = [c for c in cats if c not in weights.index or c not in weights.columns]
        if missing:
            raise KappaFrameError(
                f"weights frame lacks categories {missing} on its index or columns; it has "
                f"index {list(weights.index)} and columns {list(weights.columns)}."
            )
        return weights.loc[cats, cats].to_numpy(dtype=float)
    try:
        matrix = np.asarray(weights, dtype=float)
    except (TypeError, ValueError):
        raise bad_option("weights", weights, _ALLOWED) from None
    if matrix.ndim not in (1, 2):
        raise KappaFrameError(
            "weights must be a 1-D vector (one weight per distance) or a 2-D K x K matrix; "
            f"got shape {matrix.shape}."
        )
    return matrix


def symmetric_part(w: np.ndarray) -> np.ndarray:
    """``(W + W^T) / 2``: all a statistic without an order of raters can read of ``W``.

    A sum over unordered pairs of labels ``sum_kl W_kl x_k x_l`` is the same for ``W``
    and its symmetric part, and so are its derivatives (the linearized variances).
    """
    return (w + w.T) / 2.0


def agreement_to_disagreement(agreement_weights: Any, weights: Any = None) -> Any:
    """``1 - A`` for irrCAC-style agreement weights ``A`` (a K x K matrix, 1 on the diagonal).

    A pandas frame labelled by category stays one (its labels give the order). Refused
    together with ``weights`` (two sets of weights), or unless ``A`` is a finite square
    matrix with 1 on the diagonal and nothing above 1.
    """
    if weights is not None:
        raise KappaFrameError(
            f"{arg('weights')} (disagreement weights) and {arg('agreement_weights')} "
            "(irrCAC's agreement weights) are two ways to give the same thing; pass one.",
            option="agreement_weights",
        )
    pd = sys.modules.get("pandas")
    if pd is not None and isinstance(agreement_weights, pd.DataFrame):
        values = agreement_weights.to_numpy(dtype=float)
        result: Any = 1.0 - agreement_weights.astype(float)
    else:
        try:
            values = np.asarray(agreement_weights, dtype=float)
        except (TypeError, ValueError):
            values = np.full((0,), np.nan)
        result = 1.0 - values
    if values.ndim != 2 or values.shape[0] != values.shape[1] or not np.isfinite(values).all():
        raise KappaFrameError(
            f"{arg('agreement_weights')} is a finite K x K matrix (one row and one column "
            f"per category); got {np.shape(agreement_weights)!r}.",
            option="agreement_weights",
        )
    if np.any(np.diag(values) != 1) or np.any(values > 1):
        raise KappaFrameError(
            f"{arg('agreement_weights')} holds agreement: 1 on the diagonal (a label agrees "
            f"with itself) and at most 1 off it; its diagonal is {np.diag(values).tolist()} "
            f"and its largest entry {values.max():g}. For disagreement weights (0 on the "
            f"diagonal) pass {arg('weights')} instead.",
            option="agreement_weights",
        )
    return result


def require_symmetric(w: np.ndarray, why: str) -> None:
    """Refuse an asymmetric disagreement matrix where the statistic has no orientation."""
    if not np.allclose(w, w.T, rtol=0, atol=1e-12):
        raise KappaFrameError(
            f"this statistic needs a symmetric weights matrix: {why}. Pass a symmetric "
            "matrix (e.g. (W + W.T) / 2), or use pairwise()/matrix(), where rows are "
            "rater_a's labels and asymmetric weights are defined (Cohen 1968)."
        )


def agreement(counts: np.ndarray, weights: np.ndarray) -> dict[str, np.ndarray]:
    """Observed and chance agreement and Cohen's kappa of each table.

    With disagreement weights ``W`` (max 1), observed proportions ``P = C / n`` and
    chance proportions ``E = r c^T`` (outer product of the two marginals):

    ``p_o = 1 - sum(W * P)``, ``p_e = 1 - sum(W * E)``, ``kappa = (p_o - p_e) / (1 - p_e)``.

    With ``W = 1 - I`` these are the plain proportions of Cohen (1960). Kappa is NaN where
    ``n == 0`` or ``p_e == 1`` (no disagreement is possible by chance: e.g. both raters used
    one and the same category); ``p_o`` and ``p_e`` are NaN where ``n == 0``.

    Returns
    -------
    dict with ``n``, ``p_o``, ``p_e``, ``kappa`` and ``undefined`` (bool mask).
    """
    counts = np.asarray(counts)
    n = counts.sum(axis=(-2, -1))
    k = counts.shape[-1]
    weights = np.asarray(weights, dtype=float)
    cells = counts.astype(float)  # one float copy; the sums below are matrix products
    dis_obs = cells.reshape(*cells.shape[:-2], k * k) @ weights.reshape(k * k)
    rows = cells.sum(axis=-1)
    cols = cells.sum(axis=-2)
    dis_exp = np.einsum("...i,...i->...", rows @ weights, cols)
    return finish_agreement(n, dis_obs, dis_exp)


#: Chance agreement this close to 1 leaves nothing to correct for: the value is NaN.
CHANCE_ONE = 1e-12


def chance_corrected(p_o: np.ndarray, p_e: np.ndarray, n: np.ndarray | None = None) -> np.ndarray:
    """``(p_o - p_e) / (1 - p_e)``: NaN where undefined, never a silent 1.0 or 0.0.

    Undefined: ``p_e`` within ``CHANCE_ONE`` of 1, anything not finite, or ``n == 0``.
    Every chance-corrected coefficient but Cohen's kappa itself (which
    ``finish_agreement`` computes from disagreement sums) ends here.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        value = (p_o - p_e) / (1.0 - p_e)
    undefined = ~np.isfinite(value) | ~np.isfinite(p_e) | (np.abs(1.0 - p_e) <= CHANCE_ONE)
    if n is not None:
        undefined |= np.asarray(n) == 0
    return np.where(undefined, np.nan, value)


def finish_agreement(
    n: np.ndarray, dis_obs: np.ndarray, dis_exp: np.ndarray
) -> dict[str, np.ndarray]:
    """Agreement statistics from the weighted disagreement sums of each table.

    ``dis_obs = sum_ij W_ij C_ij`` (counts) and ``dis_exp = sum_ij W_ij r_i c_j`` (products
    of count marginals, i.e. ``n^2`` times the expected proportion): ``p_o = 1 - dis_obs / n``,
    ``p_e = 1 - dis_exp / n^2``, ``kappa = 1 - n dis_obs / dis_exp``, NaN where ``n == 0``
    or ``dis_exp == 0``. Every path that counts (full tables, diagonal and marginals) ends here.
    """
    # In place, one array per result: with a million pairs the temporaries cost more
    # than the arithmetic.
    nf = np.asarray(n).astype(float)
    empty = np.asarray(n) == 0
    undefined = empty | (dis_exp == 0)
    shape = np.broadcast_shapes(nf.shape, np.shape(dis_obs), np.shape(dis_exp))
    kappa, p_o = np.empty(shape), np.empty(shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.multiply(nf, dis_obs, out=kappa)
        np.divide(kappa, dis_exp, out=kappa)
        np.subtract(1.0, kappa, out=kappa)
        np.divide(dis_obs, nf, out=p_o)
        np.subtract(1.0, p_o, out=p_o)
        p_e = np.multiply(nf, nf, out=np.empty(shape))
        np.divide(dis_exp, p_e, out=p_e)
        np.subtract(1.0, p_e, out=p_e)
    np.copyto(kappa, np.nan, where=undefined)
    if empty.any():
        np.copyto(p_o, np.nan, where=empty)
        np.copyto(p_e, np.nan, where=empty)
    return {"n": n, "p_o": p_o, "p_e": p_e, "kappa": kappa, "undefined": undefined}


def diagonal_agreement(sums: DiagonalCounts, weights: Any) -> dict[str, np.ndarray]:
    """Agreement of diagonal-and-marginal sums, as ``agreement`` gives it for tables.

    ``weights`` is ``None``, ``"linear"`` or ``"quadratic"``.
    """
    if not is_named(weights):
        raise KappaFrameError(
            "a custom weights matrix needs the full K x K table of every pair; the "
            "diagonal-and-marginals counts serve weights=None, 'linear' and 'quadratic'."
        )
    k = sums.rows.shape[-1]
    n = sums.n
    nf = n.astype(float)
    if weights is None:
        # Integer sums are exact; no float copy of the marginals.
        dis_obs = nf - sums.agree
        dis_exp = nf * nf - _integer_dot(sums.rows, sums.cols)
        return finish_agreement(n, dis_obs, dis_exp)
    rows = sums.rows.astype(float)
    cols = sums.cols.astype(float)
    if k < 2:
        dis_obs = np.zeros_like(nf)
        dis_exp = np.zeros_like(nf)
    else:
        code = np.arange(k, dtype=float)
        if weights == "linear":
            cum_c = np.cumsum(cols, axis=-1)
            cum_s = np.cumsum(cols * code, axis=-1)
            total_s = cum_s[..., -1:]
            spread = 2 * code * cum_c - 2 * cum_s + total_s - code * nf[..., None]
            dis_obs = sums.abs_diff / (k - 1.0)
            dis_exp = np.einsum("...i,...i->...", rows, spread) / (k - 1.0)
        else:
            first_r = rows @ code
            first_c = cols @ code
            second = rows @ (code * code) + cols @ (code * code)
            dis_obs = sums.sq_diff / (k - 1.0) ** 2
            dis_exp = (nf * second - 2 * first_r * first_c) / (k - 1.0) ** 2
    return finish_agreement(n, dis_obs, dis_exp)


def _integer_dot(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``sum_i x_i y_i`` along the last axis of two integer arrays (exact in any order).

    ``np.vecdot`` (NumPy 2) runs one inner loop per row; ``einsum`` is several times
    slower on a short axis, which is what a million pairs of a few categories have.
    """
    vecdot = getattr(np, "vecdot", None)
    if vecdot is None:  # NumPy 1.x
        return np.einsum("...i,...i->...", x, y)
    return vecdot(x, y)


def pair_agreement(tables: np.ndarray | DiagonalCounts, weights: Weights) -> dict[str, np.ndarray]:
    """Agreement of full tables (``agreement``) or of diagonal counts (no K x K matrix)."""
    if isinstance(tables, DiagonalCounts):
        return diagonal_agreement(tables, weights.spec)
    return agreement(tables, weights.matrix)


def one_vs_rest(tables: np.ndarray) -> np.ndarray:
    """Collapse ``tables[..., K, K]`` to ``[..., K, 2, 2]``: category k against the rest."""
    tables = np.asarray(tables)
    both = np.diagonal(tables, axis1=-2, axis2=-1)  # (..., K)
    rows = tables.sum(axis=-1)
    cols = tables.sum(axis=-2)
    n = tables.sum(axis=(-2, -1))[..., None]
    only_a = rows - both
    only_b = cols - both
    neither = n - rows - cols + both
    top = np.stack([both, only_a], axis=-1)
    bottom = np.stack([only_b, neither], axis=-1)
    return np.stack([top, bottom], axis=-2)
