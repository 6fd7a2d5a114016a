"""More agreement coefficients of one pair of raters, from its K x K table.

NumPy only. Every function takes contingency tables ``counts[..., K, K]`` (rows: rater a,
columns: rater b) and disagreement weights ``W`` (K x K, maximum 1, as built by
``kappaframe._stats.agreement.weight_matrix``) and returns arrays shaped like the leading axes.
Nothing is recounted: every coefficient is a function of the same table as kappa.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._errors import KappaFrameError, KappaFrameTypeError
from .agreement import chance_corrected

__all__ = ["FAMILY", "family", "kappa_max", "resolve_stats"]

#: The extra per-pair columns of ``pairwise(stats=...)``, in output order.
FAMILY = (
    "kappa_max",
    "pabak",
    "prevalence_index",
    "bias_index",
    "scott_pi",
    "gwet_ac1",
    "bennett_s",
    "quantity_disagreement",
    "allocation_disagreement",
)


def resolve_stats(stats: Any) -> list[str]:
    """``None`` -> ``[]``; ``"all"`` -> every name of ``FAMILY``; else the names given.

    Names are checked and returned in the order given (duplicates are an error).
    """
    if stats is None:
        return []
    if isinstance(stats, str):
        if stats == "all":
            return list(FAMILY)
        stats = [stats]
    try:
        names = list(stats)
    except TypeError:
        raise KappaFrameTypeError(
            f"stats must be 'all' or a list of names from {list(FAMILY)}; got {stats!r}."
        ) from None
    seen: set[str] = set()
    for name in names:
        if name not in FAMILY:
            raise KappaFrameError(
                f"stats has the unknown name {name!r}; choose from 'all' or {list(FAMILY)}."
            )
        if name in seen:
            raise KappaFrameError(f"stats lists {name!r} twice.")
        seen.add(name)
    return names


def _proportions(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    counts = np.asarray(counts, dtype=float)
    n = counts.sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        probs = counts / n[..., None, None]
    return n, probs, probs.sum(axis=-1), probs.sum(axis=-2)


def _is_plain(weights: np.ndarray) -> bool:
    k = weights.shape[0]
    return bool(np.array_equal(weights, 1.0 - np.eye(k)))


def _convex_in_distance(weights: np.ndarray) -> bool:
    """Whether ``W[i, j] = f(|i - j|)`` with ``f`` convex (linear, quadratic, ...)."""
    k = weights.shape[0]
    profile = weights[0]
    i = np.arange(k)
    if not np.allclose(weights, profile[np.abs(i[:, None] - i[None, :])], rtol=0, atol=1e-12):
        return False
    return bool(np.all(np.diff(profile, n=2) >= -1e-12)) if k > 2 else True


def _monotone_coupling(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Build the table with margins ``rows``, ``cols`` that pairs the two in sorted order.

    Cell ``(i, j)`` holds the overlap of the ``i``-th row interval and the ``j``-th
    column interval of ``[0, 1]`` (the north-west corner rule).
    """
    upper_r = np.cumsum(rows, axis=-1)
    upper_c = np.cumsum(cols, axis=-1)
    lower_r = upper_r - rows
    lower_c = upper_c - cols
    top = np.minimum(upper_r[..., :, None], upper_c[..., None, :])
    bottom = np.maximum(lower_r[..., :, None], lower_c[..., None, :])
    return np.clip(top - bottom, 0.0, None)


def kappa_max(counts: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Return the largest kappa the marginals allow (Umesh, Peterson & Sauber 1989).

    Unweighted: ``p_o,max = sum_k min(p_k., p_.k)``. With weights that grow convexly
    with the distance between categories (linear, quadratic), the most agreeing table with
    the same marginals pairs the categories in order (the monotone coupling), so
    ``p_o,max = 1 - sum W * M`` for that table ``M``. For any other weight matrix the
    maximum is a linear program, not computed here: NaN.
    ``kappa_max = (p_o,max - p_e) / (1 - p_e)``.
    """
    n, _, rows, cols = _proportions(counts)
    p_e = 1.0 - np.einsum("...i,ij,...j->...", rows, weights, cols)
    if _is_plain(weights):
        best = np.minimum(rows, cols).sum(axis=-1)
    elif _convex_in_distance(weights):
        coupling = _monotone_coupling(np.nan_to_num(rows), np.nan_to_num(cols))
        best = 1.0 - np.einsum("...ij,ij->...", coupling, weights)
    else:
        return np.full(n.shape, np.nan)
    return chance_corrected(best, p_e, n)


def family(counts: np.ndarray, weights: np.ndarray, names: Sequence[str]) -> dict[str, np.ndarray]:
    """Compute the coefficients ``names`` (from ``FAMILY``) of each table.

    ``p_o`` is the (weighted) observed agreement of the row, ``p_o,1`` its unweighted
    version (the share of the diagonal), ``p_i.``, ``p_.j`` the marginals of rater a and b,
    ``pi_k = (p_k. + p_.k) / 2`` their average and K the number of categories.

    - ``kappa_max``: see ``kappa_max`` (weighted like the row).
    - ``pabak``: prevalence- and bias-adjusted kappa, ``(K p_o,1 - 1) / (K - 1)``; for two
      categories Byrt, Bishop & Carlin's ``2 p_o,1 - 1``. Always unweighted.
    - ``prevalence_index``: ``p_11 - p_22``, ``bias_index``: ``p_12 - p_21`` (Byrt et al.;
      1 and 2 are the first and second category, so the sign follows the category order);
      NaN unless K == 2. Signed: take ``abs()`` for the magnitude.
    - ``scott_pi``: chance agreement from the pooled marginals ``pi``:
      ``p_e = 1 - sum W_ij pi_i pi_j`` (weighted like the row).
    - ``gwet_ac1``: ``p_e = sum pi_k (1 - pi_k) / (K - 1)`` on ``p_o,1``. Always
      unweighted (its weighted form is AC2: ``overall(method="gwet_ac2")``).
    - ``bennett_s``: uniform chance, ``p_e = 1 - sum W / K^2`` (``1/K`` unweighted):
      Bennett, Alpert & Goldstein's S, Brennan & Prediger's kappa_n (weighted like the row).
    - ``quantity_disagreement``: ``sum |p_k. - p_.k| / 2``; ``allocation_disagreement``:
      ``sum_k min(p_k., p_.k) - p_kk`` (Pontius & Millones 2011). The two add up to the
      unweighted disagreement ``1 - p_o,1``. Always unweighted.

    Every value is NaN where the table is empty, and a chance-corrected one where its
    chance agreement is 1.
    """
    n, probs, rows, cols = _proportions(counts)
    k = weights.shape[0]
    empty = n == 0
    plain = np.trace(probs, axis1=-2, axis2=-1)
    weighted = 1.0 - np.einsum("...ij,ij->...", probs, weights)
    pooled = (rows + cols) / 2.0
    out: dict[str, np.ndarray] = {}
    nan = np.full(n.shape, np.nan)
    for name in names:
        if name == "kappa_max":
            value = kappa_max(counts, weights)
        elif name == "pabak":
            value = nan if k < 2 else (k * plain - 1.0) / (k - 1.0)
        elif name == "prevalence_index":
            value = probs[..., 0, 0] - probs[..., 1, 1] if k == 2 else nan
        elif name == "bias_index":
            value = probs[..., 0, 1] - probs[..., 1, 0] if k == 2 else nan
        elif name == "scott_pi":
            p_e = 1.0 - np.einsum("...i,ij,...j->...", pooled, weights, pooled)
            value = chance_corrected(weighted, p_e, n)
        elif name == "gwet_ac1":
            if k < 2:
                value = nan
            else:
                p_e = (pooled * (1.0 - pooled)).sum(axis=-1) / (k - 1.0)
                value = chance_corrected(plain, p_e, n)
        elif name == "bennett_s":
            p_e = np.broadcast_to(1.0 - weights.sum() / k**2 if k else 1.0, n.shape)
            value = chance_corrected(weighted, p_e, n)
        elif name == "quantity_disagreement":
            value = np.abs(rows - cols).sum(axis=-1) / 2.0
        elif name == "allocation_disagreement":
            diagonal = np.diagonal(probs, axis1=-2, axis2=-1)
            value = (np.minimum(rows, cols) - diagonal).sum(axis=-1)
        else:  # pragma: no cover - names are checked by resolve_stats
            raise KappaFrameError(f"unknown statistic {name!r}")
        out[name] = np.where(empty, np.nan, np.asarray(value, dtype=float))
    return out
