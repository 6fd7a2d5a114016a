"""Standard errors and intervals of kappa when the items come in clusters.

Several lesions of one patient, several turns of one dialogue: items of one cluster are not
independent, and the item-level standard errors come out too small. Everything here works
from the K x K tables counted per cluster (``per_cluster[pair, inner, K, K]``, one
``inner`` group per cluster within each outer group; ``outer[inner]`` says which outer
group): the tables are sufficient for both the linearised (delta-method) variance and the
cluster bootstrap, since an item enters either only through its cell.

Linearisation. With agreement weights ``w = 1 - W``, the item at cell ``(a, b)`` has the
influence on kappa

    IF_ab = [w_ab - p_o - (1 - kappa) (wbar_a. + wbar_.b - 2 p_e)] / (1 - p_e)

(``wbar_a. = sum_j w_aj p_.j``, ``wbar_.b = sum_i w_ib p_i.``); the item-level variance
``sum_items IF^2 / n^2`` is exactly Fleiss, Cohen & Everitt's (1969). Summing the influences
within each cluster, ``S_c = sum_{i in c} IF_i``, gives the cluster-robust (sandwich)
variance ``var = sum_c S_c^2 / n^2``: the delta-method estimator of Yang & Zhou (2014,
2015) and Obuchowski (1998) for clustered proportions, written as the linearisation. It
is used without their small-sample factor ``C / (C - 1)`` (C clusters), so that a
cluster of one item each gives Fleiss, Cohen & Everitt's variance exactly. The variance
under kappa = 0 (``se0``) is the item-level one times the design effect
``var_cluster / var_items`` (Donner & Klar's adjustment of a test for clustering).

Cluster bootstrap. Each replicate draws C clusters with replacement (the clusters that
hold items of the pair), with all their items; the replicate's table is the sum of the
drawn clusters' tables. When every cluster holds at most one item of every table, the
cluster bootstrap is the item bootstrap, and the draws are those of
``kappaframe._stats.bootstrap.bootstrap_kappa`` (same seed, same numbers).

References
----------
Yang, Z., & Zhou, M. (2014). Kappa statistic for clustered matched-pair data.
*Statistics in Medicine* 33(15), 2612-2633.

Yang, Z., & Zhou, M. (2015). Weighted kappa statistic for clustered matched-pair ordinal
data. *Computational Statistics & Data Analysis* 82, 1-18.

Obuchowski, N. A. (1998). On the comparison of correlated proportions for clustered
data. *Statistics in Medicine* 17(13), 1495-1507.

Donner, A., & Klar, N. (2000). *Design and Analysis of Cluster Randomization Trials in
Health Research*. Arnold.

Field, C. A., & Welsh, A. H. (2007). Bootstrapping clustered data. *Journal of the Royal
Statistical Society B* 69(3), 369-390.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .agreement import agreement
from .bootstrap import bootstrap_kappa, check_bootstrap, make_rng, percentile_summary
from .compare import (
    REPLICATE_COLUMNS,
    Patterns,
    _influence,
    paired_bootstrap,
    paired_delta,
    paired_out,
    paired_result,
    record_replicates,
)
from .inference import fce_terms, normal_interval, standard_errors

__all__ = [
    "cluster_bootstrap",
    "cluster_errors",
    "cluster_paired_bootstrap",
    "cluster_paired_delta",
    "cluster_variance",
    "collapse_clusters",
    "draw_clusters",
    "singleton_clusters",
]


def draw_clusters(gen: np.random.Generator, clusters: int, reps: int) -> np.ndarray:
    """``reps`` draws of ``clusters`` clusters with replacement: ``(reps, clusters)`` counts.

    Each replicate draws ``clusters`` indices uniformly (one ``integers`` call for all)
    and counts them: the multinomial of ``clusters`` over equal probabilities, at the cost
    of one index per cluster rather than one binomial draw.
    """
    drawn = gen.integers(0, clusters, size=(reps, clusters))
    drawn += (np.arange(reps) * clusters)[:, None]
    return np.bincount(drawn.reshape(-1), minlength=reps * clusters).reshape(reps, clusters)


def collapse_clusters(per_cluster: np.ndarray, outer: np.ndarray, n_outer: int) -> np.ndarray:
    """The tables of the outer groups: the per-cluster tables added up, ``(P, G, K, K)``."""
    per_cluster = np.asarray(per_cluster)
    out = np.zeros((per_cluster.shape[0], n_outer, *per_cluster.shape[2:]), per_cluster.dtype)
    np.add.at(np.moveaxis(out, 1, 0), outer, np.moveaxis(per_cluster, 1, 0))
    return out


def _per_outer(values: np.ndarray, outer: np.ndarray, n_outer: int) -> np.ndarray:
    """``values[P, inner]`` added up into ``[P, outer]``."""
    out = np.zeros((values.shape[0], n_outer))
    np.add.at(out.T, outer, values.T)
    return out


def singleton_clusters(per_cluster: np.ndarray) -> bool:
    """Whether every cluster holds at most one item of every table."""
    return bool((np.asarray(per_cluster).sum(axis=(-2, -1)) <= 1).all())


def cluster_variance(
    per_cluster: np.ndarray,
    outer: np.ndarray,
    counts: np.ndarray,
    weights: np.ndarray,
    kappa: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The cluster-robust variance of kappa of each outer table, and its number of clusters.

    ``per_cluster[P, inner, K, K]``: each cluster's table; ``outer[inner]``: its outer
    group; ``counts[P, G, K, K]``: the outer tables (their sum); ``weights``: the
    disagreement weights; ``kappa[P, G]``. ``var = sum_c S_c^2 / n^2`` (see the module's
    docstring); NaN where fewer than two clusters hold items of the table.
    """
    t = fce_terms(counts, weights)
    k = np.asarray(kappa, dtype=float)[..., None, None]
    p_e = t.p_e[..., None, None]
    p_o = (t.probs * t.agree).sum(axis=(-2, -1))[..., None, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        influence = (t.agree - p_o - (1.0 - k) * (t.spread - 2.0 * p_e)) / (1.0 - p_e)
    tables = np.asarray(per_cluster, dtype=float)
    sums = np.einsum("pgij,pgij->pg", tables, influence[:, outer])
    n_outer = counts.shape[1]
    n = np.asarray(counts, dtype=float).sum(axis=(-2, -1))
    clusters = _per_outer((tables.sum(axis=(-2, -1)) > 0).astype(float), outer, n_outer)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = _per_outer(sums**2, outer, n_outer) / n**2
    return np.where(clusters >= 2, var, np.nan), clusters


def cluster_errors(
    per_cluster: np.ndarray,
    outer: np.ndarray,
    counts: np.ndarray,
    weights: np.ndarray,
    kappa: np.ndarray,
    level: float,
    **test: Any,
) -> dict[str, np.ndarray]:
    """``standard_errors``' columns, cluster-robust (the linearisation of the module).

    ``se`` from the cluster-robust variance; ``se0`` the item-level one times the design
    effect; the interval, ``z`` and ``p_value`` as ``normal_interval`` makes them, with
    ``ci_dist="t"`` on ``C - 1`` degrees of freedom (C clusters). When every cluster holds
    at most one item of every table, the item-level columns themselves.
    """
    errors = standard_errors(counts, weights, kappa, level, **test)
    if singleton_clusters(per_cluster):
        return errors
    var, clusters = cluster_variance(per_cluster, outer, counts, weights, kappa)
    items_var = errors["se"] ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        effect = np.where(items_var > 0, var / items_var, 1.0)
    out = normal_interval(kappa, var, errors["se0"] ** 2 * effect, level, n=clusters, **test)
    out = {name: np.where(errors["one_category"], np.nan, value) for name, value in out.items()}
    out["one_category"] = errors["one_category"]
    return out


def cluster_bootstrap(
    per_cluster: np.ndarray,
    outer: np.ndarray,
    counts: np.ndarray,
    weights: np.ndarray,
    level: float,
    n_boot: int = 1000,
    seed: Any = None,
    categories: Sequence[Any] | None = None,
) -> dict[str, np.ndarray]:
    """Percentile cluster bootstrap of kappa of each outer table: ``se``, ``ci_low``, ``ci_high``.

    Each of ``n_boot`` replicates draws the table's C clusters (those holding items of it)
    with replacement (``draw_clusters``) and adds up their tables;
    kappa of each replicate by ``kappaframe._stats.agreement.agreement``. The draws depend
    only on ``seed``, the tables in order and ``n_boot`` (each table draws from its own
    child of ``seed``). A table with fewer than two clusters gets NaN. When every cluster
    holds at most one item of every table, ``bootstrap_kappa`` of ``counts`` (the item
    bootstrap, the same draws).
    """
    if singleton_clusters(per_cluster):
        return bootstrap_kappa(counts, weights, level, n_boot, seed, categories=categories)
    n_boot = check_bootstrap(n_boot)
    rng = make_rng(seed)
    tables = np.asarray(per_cluster)
    n_pairs, n_outer, k = counts.shape[0], counts.shape[1], counts.shape[-1]
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    out = {name: np.full((n_pairs, n_outer), np.nan) for name in ("se", "ci_low", "ci_high")}
    children = np.random.SeedSequence(rng.integers(0, 2**63, size=4).tolist()).spawn(
        n_pairs * n_outer
    )
    sizes = tables.sum(axis=(-2, -1))
    for cell in range(n_pairs * n_outer):
        pair, group = divmod(cell, n_outer)
        held = np.flatnonzero((outer == group) & (sizes[pair] > 0))
        if held.size < 2:
            continue
        flat = tables[pair, held].reshape(held.size, k * k).astype(np.float64)
        gen = np.random.Generator(np.random.PCG64(children[cell]))
        picks = draw_clusters(gen, held.size, n_boot)
        kappas = agreement((picks @ flat).reshape(n_boot, k, k), weights)["kappa"]
        summary = percentile_summary(kappas[None, :], level)
        for name in out:
            out[name][pair, group] = summary[name][0]
    return out


def _cluster_patterns(patterns: Patterns, outer: np.ndarray, n_outer: int) -> Patterns:
    """The patterns of each cluster (``patterns.group``: the cluster) in the caller's groups."""
    return Patterns(patterns.labels, outer[patterns.group], patterns.count, patterns.k, n_outer)


def cluster_paired_delta(
    patterns: Patterns,
    outer: np.ndarray,
    whole: Patterns,
    first: tuple[int, int],
    second: tuple[int, int],
    weights: np.ndarray,
    level: float,
) -> dict[str, np.ndarray]:
    """``compare``'s delta method with the items' influences summed within clusters.

    ``patterns``: the joint labels counted per cluster (their ``group`` is the cluster);
    ``outer[cluster]``: its group; ``whole``: the same counted per group (what
    ``paired_delta`` reads without clusters). With ``S1_c``, ``S2_c`` the sums over
    cluster ``c`` of each item's centred influence on the two kappas,
    ``var_j = sum_c Sj_c^2 / n^2`` and ``cov = sum_c S1_c S2_c / n^2`` (the linearisation of
    the module's docstring; with one item per cluster, ``paired_delta`` itself). Columns as
    ``paired_delta``'s; NaN where a group has fewer than two clusters.
    """
    if bool((np.bincount(patterns.group, patterns.count) <= 1).all()):
        return paired_delta(whole, first, second, weights, level)
    n_outer = whole.n_groups
    spread = _cluster_patterns(patterns, outer, n_outer)
    stats1, g1 = _influence(spread, first, weights)
    stats2, g2 = _influence(spread, second, weights)
    group, count = spread.group, patterns.count.astype(float)
    n = stats1["n"].astype(float)
    n_clusters = int(outer.size)
    clusters = np.bincount(outer[np.unique(patterns.group)], minlength=n_outer)
    with np.errstate(divide="ignore", invalid="ignore"):
        m1 = np.bincount(group, count * g1, n_outer) / n
        m2 = np.bincount(group, count * g2, n_outer) / n
        s1 = np.bincount(patterns.group, count * (g1 - m1[group]), n_clusters)
        s2 = np.bincount(patterns.group, count * (g2 - m2[group]), n_clusters)
        var1 = np.bincount(outer, s1 * s1, n_outer) / n**2
        var2 = np.bincount(outer, s2 * s2, n_outer) / n**2
        cov = np.bincount(outer, s1 * s2, n_outer) / n**2
    few = clusters < 2
    se1, se2 = np.where(few, np.nan, np.sqrt(var1)), np.where(few, np.nan, np.sqrt(var2))
    return paired_out(stats1, stats2, se1, se2, np.where(few, np.nan, cov), level)


def cluster_paired_bootstrap(
    patterns: Patterns,
    outer: np.ndarray,
    whole: Patterns,
    first: tuple[int, int],
    second: tuple[int, int],
    weights: np.ndarray,
    level: float,
    n_boot: int = 1000,
    seed: Any = None,
    categories: Sequence[Any] | None = None,
) -> dict[str, np.ndarray]:
    """``compare``'s bootstrap resampling whole clusters once for both kappas.

    Each replicate of a group draws its C clusters with replacement and adds up their
    tables of both pairs; ``se``, the interval and the test from the replicates'
    differences as ``paired_bootstrap`` makes them. With one item per cluster,
    ``paired_bootstrap`` of ``whole`` itself (the same draws).
    """
    if bool((np.bincount(patterns.group, patterns.count) <= 1).all()):
        return paired_bootstrap(
            whole, first, second, weights, level, n_boot, seed, categories=categories
        )
    n_boot = check_bootstrap(n_boot)
    rng = make_rng(seed)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    point = paired_delta(whole, first, second, weights, level)
    n_outer, k = whole.n_groups, whole.k
    n_clusters = int(outer.size)
    spread = _cluster_patterns(patterns, np.arange(n_clusters), n_clusters)
    tables = [
        spread.table(pair).reshape(n_clusters, k * k).astype(float) for pair in (first, second)
    ]
    children = np.random.SeedSequence(rng.integers(0, 2**63, size=4).tolist()).spawn(n_outer)
    found = {name: np.full(n_outer, np.nan) for name in REPLICATE_COLUMNS}
    quantiles = np.array([(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    held = tables[0].sum(axis=1) > 0
    for g in range(n_outer):
        mine = np.flatnonzero((outer == g) & held)
        if mine.size < 2:
            continue
        gen = np.random.Generator(np.random.PCG64(children[g]))
        picks = draw_clusters(gen, mine.size, n_boot)
        k1, k2 = (
            agreement((picks @ t[mine]).reshape(n_boot, k, k), weights)["kappa"] for t in tables
        )
        record_replicates(found, g, k1, k2, quantiles)
    return paired_result(point, found)
