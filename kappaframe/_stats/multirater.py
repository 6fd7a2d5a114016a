"""Many raters at once: one coefficient per group. NumPy only.

The input is the code matrix ``codes[rater, item]`` (``-1`` = missing) and the group of
each item, turned into the per-item category counts ``r[i, k]`` (how many raters put
item i in category k: one comparison pass over the code matrix per category when there
are few, one ``np.bincount`` per rater otherwise); every coefficient here is a
function of those counts (Conger's also of each rater's own label counts, Light's of the
pairwise K x K tables of ``kappaframe._count.kernel``). All of it is vectorised over groups:
per-item terms are summed per group with ``np.bincount``. Krippendorff's alpha sums them
over the distinct count vectors of each group instead, weighted by how many items share
one (``_distinct_items``): a few hundred rows where there are few categories and raters;
with many categories, interval, ratio and ordinal alpha come from sums over the values
(``kappaframe._stats.alpha_sums``).

Missing labels follow Gwet (2014, ch. 5-6; his R package irrCAC), which keeps every
rating: an item counts for observed agreement when it has two or more labels, and for the
category shares ``pi`` when it has at least one. Krippendorff's alpha keeps, as Krippendorff
defined it, only the items with two or more labels (the pairable values).

Agreement weights here are ``A = 1 - W`` for the disagreement weights ``W`` of
``kappaframe._stats.agreement.weight_matrix`` (1 on the diagonal).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, get_args

import numpy as np

from .._count.kernel import MAX_COUNT_BYTES, all_pairs, pair_counts
from .._errors import KappaFrameError, KappaFrameTypeError, bad_option
from .._types import Level, Method
from .agreement import agreement, chance_corrected
from .alpha_sums import alpha_sums, level_values, rated_values, uses_sums
from .inference import fce_terms, one_category

__all__ = [
    "AS_GIVEN",
    "COEFFICIENTS",
    "LEVELS",
    "LINEARIZED",
    "METHODS",
    "Ratings",
    "Weighting",
    "category_fleiss",
    "compute",
    "level_weights",
    "raters_per_group",
    "ratings_of",
    "resolve_methods",
]

METHODS: tuple[str, ...] = get_args(Method)
#: The methods that are not scale-free in the weights: they take the weights as given.
AS_GIVEN = ("gwet_ac2", "percent")
LEVELS: tuple[str, ...] = get_args(Level)

_FEW_CATEGORIES = 32  # up to this many categories, count items by comparison, not bincount
_DISTINCT_SPAN = 4  # distinct items by bincount while it spans at most this many per item


@dataclass(frozen=True)
class Ratings:
    """The items that carry at least one label, as codes and as per-item category counts.

    ``given_counts`` holds counts read as such (``layout="counts"``, with no codes); from
    codes, ``counts`` is counted on first use only, since Krippendorff's alpha does
    without it (``_distinct_items``).
    """

    codes: np.ndarray  # (n_raters, n_items), -1 missing
    given_counts: np.ndarray | None  # (n_items, K) float, or None: count from the codes
    group: np.ndarray  # (n_items,) group code of each item
    n_groups: int
    n_categories: int
    #: (n_items,) float: how many items each column stands for (alike items folded into
    #: one, as ``kappaframe._stats.sets.label_rows`` does); None: one each.
    weight: np.ndarray | None = None
    #: (n_items,) the cluster of each item (``overall(cluster=)``): the linearized
    #: variances sum the items' terms within clusters (``_linearized``); None: no clusters.
    cluster: np.ndarray | None = None

    @cached_property
    def counts(self) -> np.ndarray:
        """(n_items, K) float: raters per item and category."""
        if self.given_counts is not None:
            return self.given_counts
        n_items, k = self.codes.shape[1], self.n_categories
        size = n_items * max(k, 1) * 8
        if size > MAX_COUNT_BYTES:
            raise KappaFrameError(
                f"the per-item category counts would take {size / 1024**3:.1f} GiB ({n_items} "
                f"items x {k} categories); merge rare categories or pass fewer items per call."
            )
        return _category_counts(self.codes, k)


def _category_counts(codes: np.ndarray, k: int) -> np.ndarray:
    """(n_items, K) float: how many raters put each item in each category.

    The one (n_items, K) array is the only allocation of that size (what the guard in
    ``Ratings.counts`` counts).
    """
    n_items = codes.shape[1]
    if k <= _FEW_CATEGORIES:
        # one pass over the (small-integer) code matrix per category
        counts2 = np.empty((n_items, k))
        for c in range(k):
            counts2[:, c] = np.count_nonzero(codes == c, axis=0)
        return counts2
    # one bincount over (item, category) of every rated cell
    rater, item = np.nonzero(codes >= 0)
    index = item * k + codes[rater, item]
    counts = np.bincount(index, weights=np.ones(len(index)), minlength=n_items * k)
    return counts.reshape(n_items, k)


def ratings_of(
    codes: np.ndarray, group_codes: np.ndarray | None, n_groups: int, n_categories: int
) -> Ratings:
    """The items with a label, by their codes; their category counts are counted on first use.

    ``Ratings.counts`` refuses, before allocating, counts over ``MAX_COUNT_BYTES``; what
    does without them (Krippendorff's alpha from its sums) reads the codes alone.
    """
    codes = np.asarray(codes)
    n_raters, n_items = codes.shape
    k = n_categories
    group = (
        np.zeros(n_items, dtype=np.intp)
        if group_codes is None
        else np.asarray(group_codes, dtype=np.intp)
    )
    keep = codes.max(axis=0) >= 0 if n_raters else np.zeros(n_items, dtype=bool)
    if keep.all():
        return Ratings(codes, None, group, n_groups, k)
    return Ratings(codes[:, keep], None, group[keep], n_groups, k)


def raters_per_group(codes: np.ndarray, group: np.ndarray | None, n_groups: int) -> np.ndarray:
    """How many raters gave at least one label in each group (``-1`` codes: missing)."""
    out = np.zeros(n_groups, dtype=np.int64)
    if group is None and n_groups >= 1:  # one group: the raters with any label
        if codes.shape[1]:
            out[0] = np.count_nonzero(codes.max(axis=1) >= 0)
        return out
    for r in range(codes.shape[0]):
        rated = codes[r] >= 0
        where = np.zeros(rated.sum(), np.intp) if group is None else group[rated]
        out += np.bincount(where, minlength=n_groups) > 0
    return out


def _distinct_items(rt: Ratings) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The distinct (group, per-item counts) of ``rt``: counts, group and number of items.

    Items with the same counts in the same group add the same terms to every sum, so one
    row per distinct pair, weighted by its number of items, gives the same sums from a
    few hundred rows instead of one per item. An item's counts are one number in base
    ``n_raters + 1`` (a rater with label ``c`` adds ``(n_raters + 1)^c``), numbered by one
    ``np.bincount``; a second one over (group, number) counts the items. None when those
    bincounts would be longer than a few times the number of items (many categories or
    raters): then use ``Ratings.counts`` item by item.
    """
    codes, k = rt.codes, rt.n_categories
    n_raters, n_items = codes.shape
    if rt.weight is not None:  # folded already: each column with its number of items
        return rt.counts, rt.group, rt.weight
    if rt.given_counts is not None or n_raters == 0:
        return None
    base = n_raters + 1
    limit = max(_DISTINCT_SPAN * n_items, 1 << 16)
    if base**k > limit:
        return None
    powers = base ** np.arange(k, dtype=np.int64)
    lookup = np.append(powers, 0)  # code -1 (missing) adds nothing
    number = lookup[codes[0]]
    for r in range(1, n_raters):
        number += lookup[codes[r]]
    seen = np.bincount(number, minlength=base**k)
    numbers = np.flatnonzero(seen)
    u = len(numbers)
    if rt.n_groups == 1:
        group = np.zeros(u, dtype=np.intp)
        freq = seen[numbers]
    else:
        if rt.n_groups * u > limit:
            return None
        rank = np.zeros(base**k, dtype=np.intp)
        rank[numbers] = np.arange(u)
        both = np.bincount(rt.group * u + rank[number], minlength=rt.n_groups * u)
        cells = np.flatnonzero(both)
        group, numbers, freq = cells // u, numbers[cells % u], both[cells]
    counts = (numbers[:, None] // powers) % base
    return counts.astype(float), group, freq.astype(float)


def resolve_methods(method: Any) -> list[str]:
    """One name or a list of names from ``METHODS``, checked, in the order given."""
    names = [method] if isinstance(method, str) else method
    try:
        names = list(names)
    except TypeError:
        raise KappaFrameTypeError(
            f"method must be a name or a list of names from {list(METHODS)}; got {method!r}."
        ) from None
    if not names:
        raise KappaFrameError(f"method is empty; choose one or more of {list(METHODS)}.")
    seen: set[str] = set()
    for name in names:
        if name not in METHODS:
            raise bad_option("method", name, METHODS)
        if name in seen:
            raise KappaFrameError(f"method lists {name!r} twice.")
        seen.add(name)
    return names


# --------------------------------------------------------------------------- helpers


def _gsum(values: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    """Sum per group of a per-item vector (n,) or matrix (n, K)."""
    if values.ndim == 1:
        return np.bincount(group, weights=values, minlength=n_groups)
    k = values.shape[1]
    index = (group[:, None] * k + np.arange(k)).ravel()
    flat = np.bincount(index, weights=values.ravel(), minlength=n_groups * k)
    return flat.reshape(n_groups, k)


def _weighted(values: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    """Per-item ``values`` times each item's weight (as they are without weights)."""
    if weight is None:
        return values
    return values * (weight if values.ndim == 1 else weight[:, None])


def _times(counts: np.ndarray, agree: np.ndarray, group: np.ndarray) -> np.ndarray:
    """``counts[i] @ A`` with one A for all, or ``A[group[i]]`` per group."""
    if agree.ndim == 2:
        if np.array_equal(agree, np.eye(len(agree))):
            return counts
        # einsum, not ``@``: BLAS is slow on tall, thin (n x K) @ (K x K) products
        return np.einsum("ik,kl->il", counts, agree)
    out = np.empty_like(counts)
    order = np.argsort(group, kind="stable")
    bounds = np.searchsorted(group[order], np.arange(agree.shape[0] + 1))
    for g in range(agree.shape[0]):
        rows = order[bounds[g] : bounds[g + 1]]
        if rows.size:
            out[rows] = np.einsum("ik,kl->il", counts[rows], agree[g])
    return out


def _vec_times(vectors: np.ndarray, agree: np.ndarray) -> np.ndarray:
    """``v[g] @ A`` (or ``A[g]``) for each group's K-vector."""
    if agree.ndim == 2:
        return vectors @ agree
    return np.einsum("gk,gkl->gl", vectors, agree)


def _rater_times(values: np.ndarray, agree: np.ndarray) -> np.ndarray:
    """``values[g, r] @ A`` (or ``A[g]``) for each group's per-rater K-vectors."""
    if agree.ndim == 2:
        return np.einsum("grk,kl->grl", values, agree)
    return np.einsum("grk,gkl->grl", values, agree)


def _total(agree: np.ndarray, n_groups: int) -> np.ndarray:
    """Sum of the agreement weights, per group."""
    total = agree.sum(axis=(-2, -1))
    return np.broadcast_to(total, (n_groups,)).astype(float)


def _ratio(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1.0), np.nan)


@dataclass
class _Observed:
    """The observed-agreement part shared by Fleiss, Conger, Gwet and Brennan-Prediger."""

    r: np.ndarray  # labels per item
    two: np.ndarray  # item has >= 2 labels
    pa_i: np.ndarray  # agreement of each item (0 for single-label items)
    n: np.ndarray  # items per group (>= 1 label)
    n2: np.ndarray  # items per group with >= 2 labels
    pa: np.ndarray  # observed agreement per group
    share: np.ndarray  # r_ik / r_i
    pi: np.ndarray  # (G, K) mean share per group
    weight: np.ndarray | None = None  # items each item stands for (Ratings.weight)
    cluster: np.ndarray | None = None  # the cluster of each item (Ratings.cluster)


def _observed(rt: Ratings, agree: np.ndarray) -> _Observed:
    counts, group, n_groups, w = rt.counts, rt.group, rt.n_groups, rt.weight
    r = counts.sum(axis=1)
    weighted = _times(counts, agree, group)
    sum_q = (counts * weighted).sum(axis=1) - r
    two = r >= 2
    with np.errstate(divide="ignore", invalid="ignore"):
        pa_i = np.where(two, sum_q / np.where(two, r * (r - 1.0), 1.0), 0.0)
        share = counts / r[:, None]
    n = np.bincount(group, weights=w, minlength=n_groups).astype(float)
    n2 = np.bincount(group[two], None if w is None else w[two], n_groups).astype(float)
    pa = _ratio(_gsum(_weighted(pa_i, w), group, n_groups), n2)
    pi = _gsum(_weighted(share, w), group, n_groups) / np.where(n > 0, n, 1.0)[:, None]
    return _Observed(r, two, pa_i, n, n2, pa, share, pi, w, rt.cluster)


def _linearized(
    obs: _Observed,
    group: np.ndarray,
    n_groups: int,
    p_e: np.ndarray,
    pe_i: np.ndarray,
    value: np.ndarray,
    ddof: int = 1,
) -> np.ndarray:
    """Gwet's (2008) linearization variance of ``(p_a - p_e) / (1 - p_e)`` (irrCAC's).

    ``c_i = (n / n2) (p_a,i - p_e [r_i >= 2]) / (1 - p_e)``,
    ``c*_i = c_i - 2 (1 - c) (p_e,i - p_e) / (1 - p_e)``,
    ``var = sum (c*_i - c)^2 / (n (n - ddof))`` (no finite-population correction;
    ``ddof=1`` as irrCAC's raw-data and distribution functions, ``ddof=0`` as its
    ``*.table`` functions). With clusters (``obs.cluster``), the terms are summed within
    each cluster first: ``var = C / (C - ddof) sum_c (sum_{i in c} (c*_i - c))^2 / n^2``
    (C clusters in the group; the same as above with one item per cluster).
    """
    g = group
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = (obs.n / obs.n2)[g]
        denom = (1.0 - p_e)[g]
        c_i = scale * (obs.pa_i - p_e[g] * obs.two) / denom
        c_x = c_i - 2.0 * (1.0 - value[g]) * (pe_i - p_e[g]) / denom
        if obs.cluster is not None:
            return _clustered(_weighted(c_x - value[g], obs.weight), obs, g, n_groups, ddof)
        spread = _gsum(_weighted((c_x - value[g]) ** 2, obs.weight), g, n_groups)
        var = spread / (obs.n * (obs.n - ddof))
    return np.where((obs.n >= 2) & np.isfinite(value), var, np.nan)


def _clustered(
    terms: np.ndarray, obs: _Observed, group: np.ndarray, n_groups: int, ddof: int
) -> np.ndarray:
    """The linearized variance with the items' ``terms`` summed within clusters, per group.

    ``C / (C - ddof) sum_c (sum of cluster c's terms)^2 / n^2``; NaN with fewer than two
    clusters in the group.
    """
    cluster = np.asarray(obs.cluster)
    size = int(cluster.max()) + 1 if cluster.size else 0
    sums = np.bincount(cluster, weights=terms, minlength=size)
    held = np.bincount(cluster, minlength=size) > 0
    of = np.zeros(size, dtype=np.intp)
    of[cluster] = group
    count = np.bincount(of[held], minlength=n_groups).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.bincount(of, weights=sums**2, minlength=n_groups) / obs.n**2
        var *= count / (count - ddof)
    return np.where(count >= 2, var, np.nan)


def _fnl_null_variance(obs: _Observed, group: np.ndarray, n_groups: int) -> np.ndarray:
    """Null variance of unweighted Fleiss kappa, Fleiss, Nee & Landis (1979), item by item.

    Under kappa = 0 each item's labels are a multinomial draw of ``r_i`` labels over the
    shares ``pi``. With ``s2 = sum pi^2``, ``s3 = sum pi^3``, an item's agreement ``P_i``
    and its share term ``L_i = 2 sum_k pi_k r_ik / r_i`` have
    ``Var P_i = [2 s2 + (6 - 4m) s2^2 + 4 (m - 2) s3] / (m (m - 1))``,
    ``Cov(P_i, L_i) = Var L_i = 4 (s3 - s2^2) / m`` (``m = r_i``), and
    ``p_o - p_e ~ sum_i (P_i / n2 - L_i / n)``, so
    ``var0 = sum_i Var(P_i / n2 - L_i / n) / (1 - p_e)^2``. With the same ``m`` on every
    item this is FNL's ``2 [(sum p q)^2 - sum p q (q - p)] / (n m (m - 1) (sum p q)^2)``,
    the value R's ``irr::kappam.fleiss`` reports.
    """
    pi = obs.pi
    s2 = (pi**2).sum(axis=1)
    s3 = (pi**3).sum(axis=1)
    m = obs.r
    g = group
    spread = 4.0 * (s3 - s2**2)[g] / m
    with np.errstate(divide="ignore", invalid="ignore"):
        var_p = np.where(
            obs.two,
            (2.0 * s2[g] + (6.0 - 4.0 * m) * s2[g] ** 2 + 4.0 * (m - 2.0) * s3[g])
            / np.where(obs.two, m * (m - 1.0), 1.0),
            0.0,
        )
        a = np.where(obs.two, 1.0 / obs.n2[g], 0.0)
        b = 1.0 / obs.n[g]
        item_var = a * a * var_p - 2.0 * a * b * np.where(obs.two, spread, 0.0) + b * b * spread
        p_e = s2
        var0 = _gsum(_weighted(item_var, obs.weight), g, n_groups) / (1.0 - p_e) ** 2
    return np.where(var0 > 0, var0, np.nan)


# --------------------------------------------------------------------------- methods


def _fleiss(
    rt: Ratings, agree: np.ndarray, plain: bool, with_variance: bool, ddof: int = 1
) -> dict[str, np.ndarray]:
    obs = _observed(rt, agree)
    g, ng = rt.group, rt.n_groups
    a_pi = _vec_times(obs.pi, agree)
    p_e = (obs.pi * a_pi).sum(axis=1)
    value = chance_corrected(obs.pa, p_e)
    out = {"p_o": obs.pa, "p_e": p_e, "value": value}
    if with_variance:
        pe_i = (obs.share * a_pi[g]).sum(axis=1)
        out["var"] = _linearized(obs, g, ng, p_e, pe_i, value, ddof)
        if plain:
            out["var0"] = _fnl_null_variance(obs, g, ng)
    return out


def _gwet(
    rt: Ratings, agree: np.ndarray, with_variance: bool, ddof: int = 1
) -> dict[str, np.ndarray]:
    obs = _observed(rt, agree)
    g, ng, q = rt.group, rt.n_groups, rt.n_categories
    # Fewer than two categories leave chance agreement, and so everything after it, NaN.
    factor = _total(agree, ng) / (q * (q - 1.0)) if q >= 2 else np.full(ng, np.nan)
    p_e = factor * (obs.pi * (1.0 - obs.pi)).sum(axis=1)
    value = chance_corrected(obs.pa, p_e)
    out = {"p_o": obs.pa, "p_e": p_e, "value": value}
    if with_variance:
        pe_i = factor[g] * (obs.share * (1.0 - obs.pi[g])).sum(axis=1)
        out["var"] = _linearized(obs, g, ng, p_e, pe_i, value, ddof)
    return out


def _percent(
    rt: Ratings, agree: np.ndarray, with_variance: bool, ddof: int = 1
) -> dict[str, np.ndarray]:
    """Percent agreement ``p_a`` (weighted with ``A`` as given), irrCAC's ``pa.coeff.raw``.

    ``p_e = 0`` and ``value = p_a``. Variance: ``sum_i (p_a,i - p_a)^2 / (n (n - ddof))`` over
    every labeled item, with ``p_a,i = (n / n2) sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))``
    (0 for an item with one label). No null variance: ``z = value / se``.
    """
    obs = _observed(rt, agree)
    g, ng = rt.group, rt.n_groups
    p_e = np.where(obs.n2 > 0, 0.0, np.nan)
    value = np.where(obs.n2 > 0, obs.pa, np.nan)
    out = {"p_o": obs.pa, "p_e": p_e, "value": value}
    if with_variance:
        with np.errstate(divide="ignore", invalid="ignore"):
            item = (obs.n / obs.n2)[g] * obs.pa_i
            spread = _gsum(_weighted((item - value[g]) ** 2, rt.weight), g, ng)
            var = spread / (obs.n * (obs.n - ddof))
        out["var"] = np.where((obs.n >= 2) & np.isfinite(value), var, np.nan)
    return out


def _brennan_prediger(
    rt: Ratings, agree: np.ndarray, with_variance: bool, ddof: int = 1
) -> dict[str, np.ndarray]:
    obs = _observed(rt, agree)
    g, ng, q = rt.group, rt.n_groups, rt.n_categories
    p_e = _total(agree, ng) / q**2 if q else np.ones(ng)
    value = chance_corrected(obs.pa, p_e)
    out = {"p_o": obs.pa, "p_e": p_e, "value": value}
    if with_variance:
        out["var"] = _linearized(obs, g, ng, p_e, p_e[g], value, ddof)
    return out


def _conger(
    rt: Ratings, agree: np.ndarray, with_variance: bool, ddof: int = 1
) -> dict[str, np.ndarray]:
    """Conger (1980): Fleiss' observed agreement, chance from each rater's own shares.

    ``p_e = [(sum_g p_g)^T A (sum_g p_g) - sum_g p_g^T A p_g] / (r (r - 1))``, the mean
    over ordered pairs of raters of Cohen's chance agreement, where ``p_g`` are rater
    ``g``'s category shares among the items they labeled in the group and ``r`` counts
    the raters with at least one label in the group. Variance: Gwet's linearization
    (irrCAC's ``conger.kappa.raw``).
    """
    obs = _observed(rt, agree)
    g, ng, k = rt.group, rt.n_groups, rt.n_categories
    codes = rt.codes
    n_raters = codes.shape[0]
    own = np.zeros((ng, n_raters, k))
    for r in range(n_raters):
        rated = codes[r] >= 0
        w = None if rt.weight is None else rt.weight[rated]
        own[:, r, :] = np.bincount(g[rated] * k + codes[r][rated], w, ng * k).reshape(ng, k)
    labeled = own.sum(axis=2)  # (G, R)
    active = labeled > 0
    r_eff = active.sum(axis=1).astype(float)
    shares = own / np.where(active, labeled, 1.0)[:, :, None]
    total = shares.sum(axis=1)  # (G, K)
    a_total = _vec_times(total, agree)
    a_shares = _rater_times(shares, agree)
    pairs = r_eff * (r_eff - 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_e = ((total * a_total).sum(axis=1) - (shares * a_shares).sum(axis=(1, 2))) / pairs
    p_e = np.where(r_eff >= 2, p_e, np.nan)
    value = chance_corrected(obs.pa, p_e)
    if not with_variance:
        return {"p_o": obs.pa, "p_e": p_e, "value": value}
    # pe_i = p_e + sum over the raters of item i of (n / n_g)(b_g[c] - s_g) / (r (r - 1)),
    # with b_g = A (sum of the other raters' shares) and s_g = b_g . p_g.
    others = total[:, None, :] - shares
    b = _rater_times(others, agree)
    s = (b * shares).sum(axis=2)  # (G, R)
    pe_i = p_e[g].copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        for r in range(n_raters):
            rated = codes[r] >= 0
            gr = g[rated]
            scale = obs.n[gr] / labeled[gr, r]
            pe_i[rated] += scale * (b[gr, r, codes[r][rated]] - s[gr, r]) / pairs[gr]
    var = _linearized(obs, g, ng, p_e, pe_i, value, ddof)
    return {"p_o": obs.pa, "p_e": p_e, "value": value, "var": var}


def level_weights(
    level: str, categories: Sequence[Any], marginals: np.ndarray | None = None
) -> np.ndarray:
    """Krippendorff's agreement weights ``1 - delta^2 / max(delta^2)`` for ``level``.

    nominal: ``delta = [c != k]``; interval: ``delta^2 = (c - k)^2`` on the category
    values; ratio: ``((c - k) / (c + k))^2`` (0 when ``c + k == 0``); ordinal (needs the
    pairable-value counts ``marginals[G, K]``, one row per group):
    ``delta^2 = (sum_{g=c}^{k} n_g - (n_c + n_k) / 2)^2`` in category order.
    Returns (K, K), or (G, K, K) for ordinal.
    """
    k = len(categories)
    if level == "nominal":
        return np.eye(k)
    if level in ("interval", "ratio"):
        values = level_values(level, categories)
        diff = values[:, None] - values[None, :]
        if level == "interval":
            delta = diff**2
        else:
            total = values[:, None] + values[None, :]
            with np.errstate(divide="ignore", invalid="ignore"):
                delta = np.where(total > 0, (diff / np.where(total > 0, total, 1.0)) ** 2, 0.0)
        top = delta.max() if delta.size else 0.0
        return 1.0 - delta / top if top > 0 else np.ones((k, k))
    if level == "ordinal":
        if marginals is None:  # pragma: no cover - compute() always passes them
            raise KappaFrameError("ordinal weights need the category counts")
        marg = np.asarray(marginals, dtype=float)
        cum = np.cumsum(marg, axis=1)
        i = np.arange(k)
        lo = np.minimum(i[:, None], i[None, :])
        hi = np.maximum(i[:, None], i[None, :])
        between = cum[:, hi] - cum[:, lo] + marg[:, lo]
        delta = (between - (marg[:, :, None] + marg[:, None, :]) / 2.0) ** 2
        top = delta.max(axis=(1, 2), keepdims=True) if k else np.zeros((len(marg), 1, 1))
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(top > 0, 1.0 - delta / np.where(top > 0, top, 1.0), 1.0)
    raise bad_option("level", level, LEVELS)


def _krippendorff(
    rt: Ratings,
    level: str,
    categories: Sequence[Any],
    with_variance: bool,
    weights: np.ndarray | None = None,
    ddof: int = 1,
    centre: str = "p_a_prime",
) -> dict[str, np.ndarray]:
    """Krippendorff's alpha in Gwet's (2014) form, from the items with two or more labels.

    With ``n`` pairable items, ``rbar`` their mean number of labels and
    ``eps = 1 / sum r_i``: ``p_a' = sum_i sum_k r_ik (r*_ik - 1) / (rbar (r_i - 1)) / n``,
    ``p_o = (1 - eps) p_a' + eps``, ``pi_k = sum_i r_ik / (n rbar)`` (the share of category
    k among the pairable values), ``p_e = pi^T A pi`` and ``alpha = (p_o - p_e) / (1 - p_e)``,
    which is Krippendorff's ``1 - D_o / D_e`` exactly. ``A`` comes from ``level``, or is
    the agreement-weights matrix ``weights`` when given (irrCAC's ``weights=``). Variance:
    Gwet's linearization as Gwet's irrCAC's ``krippen.alpha.raw`` computes it since
    version 1.2 (August 2021), each item's term centred on ``p_a'``:
    ``p_a,i = sum_k r_ik (r*_ik - 1) / (rbar (r_i - 1)) - p_a' (r_i - rbar) / rbar``,
    ``p_e,i = sum_k r_ik (A pi)_k / rbar - p_e (r_i - rbar) / rbar``,
    ``a*_i = (p_a,i - p_e) / (1 - p_e) - 2 (1 - alpha') (p_e,i - p_e) / (1 - p_e)``
    with ``alpha' = (p_a' - p_e) / (1 - p_e)``, and
    ``var = sum_i (a*_i - alpha')^2 / (n (n - ddof))`` over the ``n`` pairable items.
    ``centre="p_a"`` centres ``p_a,i`` on ``p_o`` instead, as CRAN's irrCAC 1.0 and
    irrCAC for Python do (the same standard error to about 1e-3). Every sum over items
    runs over the distinct (group, counts) rows of ``_distinct_items``, each term times
    its number of items, when there are few enough; item by item otherwise. The two
    agree to rounding. Unweighted interval, ratio and ordinal alpha over ``SUMS_FROM``
    categories or more take the same terms from sums over the values
    (``kappaframe._stats.alpha_sums``), with no K x K matrix and no per-item counts.
    """
    ng = rt.n_groups
    if weights is None and uses_sums(level, False, rt.n_categories):
        item, code, count = rated_values(rt.codes, rt.given_counts)
        sums = alpha_sums(item, code, count, rt.group, ng, level, categories)
        terms = _AlphaTerms(sums.g, sums.n, sums.values, sums.r, sums.sum_q, sums.p_e, sums.pe_sum)
        return _alpha_of(terms, lambda v: _gsum(v, sums.g, ng), with_variance, ddof, centre)
    distinct = _distinct_items(rt)
    if distinct is None:
        counts, g, items = rt.counts, rt.group, None
    else:
        counts, g, items = distinct
    r = counts.sum(axis=1)
    pairable = r >= 2
    if not pairable.all():
        counts, g, r = counts[pairable], g[pairable], r[pairable]
        items = None if items is None else items[pairable]

    def total(values: np.ndarray) -> np.ndarray:
        """Sum per group over the pairable items (a distinct row counts its items)."""
        if items is None:
            return _gsum(values, g, ng)
        return _gsum(values * (items if values.ndim == 1 else items[:, None]), g, ng)

    n = np.bincount(g, weights=items, minlength=ng).astype(float)
    values = total(r)
    marg = total(counts)
    if weights is not None:
        agree = weights
    else:
        agree = level_weights(level, categories, marg if level == "ordinal" else None)
    weighted = _times(counts, agree, g)
    sum_q = (counts * weighted).sum(axis=1) - r
    with np.errstate(divide="ignore", invalid="ignore"):
        pi = marg / values[:, None]
        a_pi = _vec_times(np.nan_to_num(pi), agree)
        p_e = np.where(n > 0, (np.nan_to_num(pi) * a_pi).sum(axis=1), np.nan)
    terms = _AlphaTerms(g, n, values, r, sum_q, p_e, lambda: (counts * a_pi[g]).sum(axis=1))
    return _alpha_of(terms, total, with_variance, ddof, centre)


@dataclass(frozen=True)
class _AlphaTerms:
    """What Krippendorff's alpha in Gwet's form reads, over the pairable rows.

    ``g``: the group of each row; ``n``: pairable items per group; ``values``: pairable
    values per group; ``r``: values of each row; ``sum_q``: each row's
    ``sum_k r_k ((A r)_k - 1)`` (twice its agreeing pairs of values); ``p_e``: per group;
    ``pe_sum()``: each row's ``sum_k r_k (A pi)_k`` (read for the variance only).
    """

    g: np.ndarray
    n: np.ndarray
    values: np.ndarray
    r: np.ndarray
    sum_q: np.ndarray
    p_e: np.ndarray
    pe_sum: Callable[[], np.ndarray]


def _alpha_of(
    t: _AlphaTerms,
    total: Callable[[np.ndarray], np.ndarray],
    with_variance: bool,
    ddof: int,
    centre: str,
) -> dict[str, np.ndarray]:
    """``p_o``, ``p_e``, alpha (and Gwet's variance) from the terms; see ``_krippendorff``."""
    g, n, values, r, sum_q, p_e = t.g, t.n, t.values, t.r, t.sum_q, t.p_e
    with np.errstate(divide="ignore", invalid="ignore"):
        rbar = values / n
        eps = 1.0 / values
        pa_prime = total(sum_q / (r - 1.0)) / (n * rbar)
        p_o = (1.0 - eps) * pa_prime + eps
        value = chance_corrected(p_o, p_e)
    out = {"p_o": np.where(n > 0, p_o, np.nan), "p_e": p_e, "value": value}
    if not with_variance:
        return out
    with np.errstate(divide="ignore", invalid="ignore"):
        prime = chance_corrected(pa_prime, p_e)
        rb = rbar[g]
        centre_on = pa_prime if centre == "p_a_prime" else p_o
        pa_i = sum_q / (rb * (r - 1.0)) - centre_on[g] * (r - rb) / rb
        kappa_i = (pa_i - p_e[g]) / (1.0 - p_e[g])
        pe_i = t.pe_sum() / rb - p_e[g] * (r - rb) / rb
        kappa_x = kappa_i - 2.0 * (1.0 - prime[g]) * (pe_i - p_e[g]) / (1.0 - p_e[g])
        var = total((kappa_x - prime[g]) ** 2) / (n * (n - ddof))
    out["var"] = np.where((n >= 2) & np.isfinite(value), var, np.nan)
    out["n_var"] = n
    return out


def _light(rt: Ratings, disagree: np.ndarray, with_variance: bool) -> dict[str, np.ndarray]:
    """Light (1971): the mean of Cohen's kappa over every pair of raters.

    Pairs whose kappa is undefined in a group (no shared items, or chance agreement 1)
    are left out of that group's mean. ``p_o`` and ``p_e`` are the means of the pairs'.
    Variance: each pair's kappa moves by ``sum_i IF_i / n_pair`` with Fleiss, Cohen &
    Everitt's (1969) influence ``IF_ij = [A_ij - (abar_i. + abar_.j)(1 - k)] / (1 - p_e)
    - [k - p_e (1 - k)] / (1 - p_e)``, so the mean moves by ``sum_i d_i`` with ``d_i``
    the average over pairs of ``IF_i / n_pair``; ``var = sum_i d_i^2``. For one pair this
    is exactly FCE's variance. It is NaN where every pair has a rater who used one
    category only (``one_category`` marks those groups), as ``standard_errors`` is.
    """
    codes, g, ng, k = rt.codes, rt.group, rt.n_groups, rt.n_categories
    n_raters = codes.shape[0]
    pairs = all_pairs(n_raters)
    counts = pair_counts(codes, pairs, k, g, ng, sample_weight=rt.weight)
    stats = agreement(counts, disagree)
    kappa = stats["kappa"]  # (P, G)
    defined = np.isfinite(kappa)
    used = defined.sum(axis=0).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(used > 0, np.where(defined, kappa, 0.0).sum(axis=0) / used, np.nan)
        p_o = np.where(used > 0, np.where(defined, stats["p_o"], 0.0).sum(axis=0) / used, np.nan)
        p_e = np.where(used > 0, np.where(defined, stats["p_e"], 0.0).sum(axis=0) / used, np.nan)
    out = {"p_o": p_o, "p_e": p_e, "value": value}
    if not with_variance:
        return out
    n_pair = counts.sum(axis=(-2, -1)).astype(float)
    terms = fce_terms(counts, disagree)
    with np.errstate(divide="ignore", invalid="ignore"):
        pe = stats["p_e"]
        kk = np.where(defined, kappa, 0.0)
        influence = (terms.agree - terms.spread * (1.0 - kk)[..., None, None]) / (1.0 - pe)[
            ..., None, None
        ]
        influence -= ((kk - pe * (1.0 - kk)) / (1.0 - pe))[..., None, None]
        weight = np.where(defined, 1.0 / (n_pair * used[None, :]), 0.0)
        influence = np.where(defined[..., None, None], influence, 0.0) * weight[..., None, None]
    flat = influence.reshape(len(pairs), -1)
    d = np.zeros(codes.shape[1])
    for p, (a, b) in enumerate(pairs):
        both = (codes[a] >= 0) & (codes[b] >= 0)
        index = (g[both] * k + codes[a][both]) * k + codes[b][both]
        d[both] += flat[p, index]
    var = _gsum(_weighted(d * d, rt.weight), g, ng)
    # Where every pair in the mean has a rater with one category, the variance is that
    # of constant kappas (0, as in ``standard_errors``): undefined, not a rounding 0.
    varies = (defined & ~one_category(counts)).any(axis=0)
    out["one_category"] = np.isfinite(value) & ~varies
    out["var"] = np.where(np.isfinite(value) & varies, var, np.nan)
    return out


@dataclass(frozen=True)
class Weighting:
    """The weights as each coefficient reads them.

    ``disagree``: scaled to a maximum of 1; ``agree``: ``1 - disagree``; ``as_given``:
    agreement weights on the caller's own scale (Gwet's AC2 and the percent agreement
    change with it); ``weighted``: weights were given; ``level``: Krippendorff's level of
    measurement; ``categories``: the labels, for the levels that read their values;
    ``ddof``: the variances divide their sum of squares by ``n - ddof``; ``centre``:
    where Krippendorff's alpha centres each item's term (``"p_a_prime"`` or ``"p_a"``).
    """

    disagree: np.ndarray
    agree: np.ndarray
    as_given: np.ndarray
    weighted: bool
    level: str
    categories: Sequence[Any]
    ddof: int = 1
    centre: str = "p_a_prime"


Coefficient = Callable[[Ratings, Weighting, bool], dict[str, np.ndarray]]

#: Every many-rater coefficient by its ``method=`` name: ``f(ratings, weighting,
#: with_variance)`` gives ``p_o``, ``p_e``, ``value`` (and ``var``, ``var0``). A new
#: coefficient is one function and one entry here (and its name in ``_types.Method``).
COEFFICIENTS: dict[str, Coefficient] = {
    "fleiss": lambda rt, w, v: _fleiss(rt, w.agree, not w.weighted, v, w.ddof),
    "conger": lambda rt, w, v: _conger(rt, w.agree, v, w.ddof),
    "light": lambda rt, w, v: _light(rt, w.disagree, v),
    "krippendorff": lambda rt, w, v: _krippendorff(
        rt,
        w.level,
        w.categories,
        v,
        w.agree if w.weighted and w.level == "nominal" else None,
        w.ddof,
        w.centre,
    ),
    "gwet_ac1": lambda rt, w, v: _gwet(rt, np.eye(rt.n_categories), v, w.ddof),
    "gwet_ac2": lambda rt, w, v: _gwet(rt, w.as_given, v, w.ddof),
    "brennan_prediger": lambda rt, w, v: _brennan_prediger(rt, w.agree, v, w.ddof),
    "percent": lambda rt, w, v: _percent(
        rt, w.as_given if w.weighted else np.eye(rt.n_categories), v, w.ddof
    ),
}
#: The methods whose variance is Gwet's linearization, a mean over items (``ddof=``
#: applies); Light's is Fleiss, Cohen & Everitt's per pair.
LINEARIZED: tuple[str, ...] = tuple(m for m in COEFFICIENTS if m != "light")


def compute(
    rt: Ratings,
    method: str,
    disagree: np.ndarray,
    *,
    weighted: bool,
    level: str,
    categories: Sequence[Any],
    with_variance: bool,
    given: np.ndarray | None = None,
    ddof: int = 1,
    centre: str = "p_a_prime",
    agreement: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """One method on every group: ``p_o``, ``p_e``, ``value``; ``var`` (and ``var0``).

    ``disagree`` is scaled to a maximum of 1; ``given`` is the same weights as the caller
    gave them (default ``disagree``), which ``AS_GIVEN`` methods use: Gwet's AC2's
    chance agreement and percent agreement change with the scale of the weights.
    ``agreement``: agreement weights ``A`` taken as given by every method (irrCAC's
    ``weights=``): ``p_o`` and ``p_e`` on their scale; the kappa-type values do not
    change with it. ``ddof`` and ``centre``: see ``Weighting``. ``var`` and ``var0``
    only ``with_variance``. Everything is NaN for a group without a labeled item.
    """
    if agreement is not None:
        weighting = Weighting(
            1.0 - agreement, agreement, agreement, weighted, level, categories, ddof, centre
        )
    else:
        agree = 1.0 - disagree
        as_given = agree if given is None else 1.0 - given
        weighting = Weighting(disagree, agree, as_given, weighted, level, categories, ddof, centre)
    coefficient = COEFFICIENTS.get(method)
    if coefficient is None:  # pragma: no cover - resolve_methods checked the name
        raise bad_option("method", method, METHODS)
    out = coefficient(rt, weighting, with_variance)
    empty = np.bincount(rt.group, minlength=rt.n_groups) == 0
    if empty.any():
        out = {key: np.where(empty, np.nan, value) for key, value in out.items()}
    return out


def category_fleiss(rt: Ratings, category: int, with_variance: bool) -> dict[str, np.ndarray]:
    """Fleiss' kappa of one category against the rest (labels collapsed to two).

    With every item fully rated this is Fleiss' (1971) ``kappa_j = 1 - sum_i r_ij
    (m - r_ij) / (n m (m - 1) p_j q_j)`` and its null variance ``2 / (n m (m - 1))``.
    """
    mine = rt.counts[:, category]
    rest = rt.counts.sum(axis=1) - mine
    binary = Ratings(rt.codes, np.stack([mine, rest], axis=1), rt.group, rt.n_groups, 2)
    return _fleiss(binary, np.eye(2), True, with_variance)
