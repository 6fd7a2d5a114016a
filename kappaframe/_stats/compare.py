"""Two estimates of agreement compared: their difference, its interval and its test.

``difference`` is the large-sample comparison of two coefficients from their standard
errors, the one every comparison in kappaframe reports (independent samples, paired
samples with their covariance, and the baseline gate). With ``cov = 0`` (two independent
samples of items) it is the usual normal test, e.g. Fleiss, Levin & Paik (2003, sec. 18.1)
for two kappas; a paired comparison passes the covariance of the two estimates, which
makes the variance of the difference ``se_1^2 + se_2^2 - 2 cov``.

Two kappas of the same items (model A vs gold and model B vs gold) are compared from the
items' joint labels: ``Patterns`` holds each distinct combination of the raters' labels
(per group) and how many items show it. ``paired_delta`` gives the delta-method
covariance of the two kappas from it (Vanbelle 2017, one level; the Fleiss, Cohen &
Everitt variance for each kappa), ``paired_bootstrap`` resamples the items once for both
kappas (Vanbelle & Albert 2008): a bootstrap sample of items is one multinomial draw of
``n`` items over the patterns, and both K x K tables are sums over the drawn patterns.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from .._encode.codes import canonical_order
from .._errors import KappaFrameError
from .agreement import agreement, finish_agreement, weight_matrix
from .bootstrap import _workers, check_bootstrap, make_rng
from .inference import normal_quantile, normal_sf

__all__ = [
    "Patterns",
    "difference",
    "joint_patterns",
    "options_record",
    "paired_bootstrap",
    "paired_delta",
]

#: Up to this many categories a result records them as a list; more as a count and digest.
RECORDED_CATEGORIES = 100


def _json_value(value: Any) -> Any:
    """A label as JSON: text, numbers and booleans as they are; anything else its repr."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return repr(value)


def options_record(weights: Any, categories: Sequence[Any]) -> dict[str, Any]:
    """What a result records of the options that make two results comparable.

    ``weights``: ``None``, the name (``"linear"``, ...), or for a matrix the SHA-256 of
    the scaled matrix (two matrices that scale alike are alike); ``categories``: the
    list in order (text, numbers and booleans as they are, other labels as their
    ``repr``), or past ``RECORDED_CATEGORIES`` their count and SHA-256. Every value is
    JSON, so pandas can write the record into a Parquet file's metadata with the frame.
    """
    if weights is None or isinstance(weights, str):
        shown: Any = weights
    else:
        matrix = np.ascontiguousarray(weight_matrix(weights, categories), dtype=np.float64)
        shown = "matrix sha256:" + hashlib.sha256(matrix.tobytes()).hexdigest()[:16]
    cats: Any = (
        list(categories)  # floats are JSON as they are
        if set(map(type, categories)) == {float}
        else [_json_value(c) for c in categories]
    )
    if len(cats) > RECORDED_CATEGORIES:
        digest = hashlib.sha256(repr(cats).encode()).hexdigest()[:16]
        cats = f"{len(cats)} categories, sha256:{digest}"
    return {"weights": shown, "categories": cats}


def difference(
    first: np.ndarray,
    se_first: np.ndarray,
    second: np.ndarray,
    se_second: np.ndarray,
    level: float,
    *,
    cov: np.ndarray | float = 0.0,
) -> dict[str, np.ndarray]:
    """``difference``, ``se``, ``ci_low``, ``ci_high``, ``z``, ``p_value`` of ``second - first``.

    ``se = sqrt(se_first^2 + se_second^2 - 2 cov)``; the interval is
    ``difference -/+ z_(1 - alpha/2) se`` (not clipped: a difference of two coefficients
    lies in [-2, 2]); ``z = difference / se`` and ``p_value`` is two-sided. Everything is
    NaN where either value or standard error is (no standard error, no test), and ``z``,
    ``p_value`` are NaN where ``se`` is 0.

    Examples
    --------
    Two independent kappas, 0.62 (se 0.05) last week and 0.48 (se 0.06) this week:

    >>> out = difference(np.array([0.62]), np.array([0.05]), np.array([0.48]),
    ...                  np.array([0.06]), 0.95)
    >>> round(float(out["difference"][0]), 2), round(float(out["se"][0]), 4)
    (-0.14, 0.0781)
    >>> round(float(out["p_value"][0]), 4)
    0.0731
    """
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    var = (
        np.square(np.asarray(se_first, dtype=float))
        + np.square(np.asarray(se_second, dtype=float))
        - 2.0 * np.asarray(cov, dtype=float)
    )
    change = second - first
    se = np.sqrt(np.clip(var, 0.0, None))
    defined = np.isfinite(change) & np.isfinite(se)
    se = np.where(defined, se, np.nan)
    change = np.where(defined, change, np.nan)
    half = normal_quantile(level) * se
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(defined & (se > 0), change / se, np.nan)
    p_value = np.where(np.isfinite(z), np.minimum(2.0 * normal_sf(np.abs(z)), 1.0), np.nan)
    return {
        "difference": change,
        "se": se,
        "ci_low": change - half,
        "ci_high": change + half,
        "z": z,
        "p_value": p_value,
    }


@dataclass(frozen=True)
class Patterns:
    """The distinct joint labels of the items every rater labeled, per group.

    ``labels[r, p]``: rater ``r``'s label code in pattern ``p``; ``group[p]`` its group
    (patterns sorted by group); ``count[p]`` how many items show it. ``k`` categories,
    ``n_groups`` groups (a group may have no pattern: no complete item).
    """

    labels: np.ndarray
    group: np.ndarray
    count: np.ndarray
    k: int
    n_groups: int

    def table(self, pair: tuple[int, int]) -> np.ndarray:
        """The ``(G, K, K)`` count tables of raters ``pair`` (rows: the first rater)."""
        a, b = self.labels[pair[0]], self.labels[pair[1]]
        k, g = self.k, self.n_groups
        cell = (self.group * k + a) * k + b
        flat = np.bincount(cell, weights=self.count, minlength=g * k * k)
        return flat.round().astype(np.int64).reshape(g, k, k)


#: Up to this many possible patterns beyond the items (8 bytes each), the distinct ones are
#: found by counting every possible pattern (``np.bincount``), not by sorting the items.
COUNTED_PATTERNS = 1 << 20


def _distinct(ids: np.ndarray, keep: np.ndarray, space: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(ids[keep], return_counts=True)`` of ``ids`` in ``[0, space)`` where kept.

    Where the possible values are few (at most the items plus ``COUNTED_PATTERNS``), one
    pass counts them all (the items not kept in one more bin, left out) and the ones that
    occur are read off in order, instead of a sort. ``ids`` is overwritten.
    """
    if space > ids.size + COUNTED_PATTERNS:
        return np.unique(ids[keep], return_counts=True)
    np.copyto(ids, space, where=~keep)
    every = np.bincount(ids, minlength=space + 1)[:space]
    unique = np.flatnonzero(every)
    return unique, every[unique]


def joint_patterns(codes: np.ndarray, group: np.ndarray | None, n_groups: int, k: int) -> Patterns:
    """Count the joint labels of ``codes[r, i]`` (``-1`` missing) over complete items.

    An item enters only if every rater labeled it, so both kappas of a paired comparison
    are computed on the same items.
    """
    codes = np.asarray(codes)
    n_raters = codes.shape[0]
    n_items = codes.shape[1]
    if float(n_groups) * float(k + 1) ** n_raters <= n_items + COUNTED_PATTERNS:
        # Each item's group and labels shifted by one (missing: 0) as one number, every
        # possible one counted; the complete items' numbers are those with no digit 0.
        ids = np.zeros(n_items, dtype=np.intp) if group is None else np.array(group, np.intp)
        for r in range(n_raters):
            ids *= k + 1
            ids += codes[r]
            ids += 1
        every = np.bincount(ids, minlength=n_groups * (k + 1) ** n_raters)
        labelled = (slice(None), *[slice(1, None)] * n_raters)
        complete_counts = every.reshape(n_groups, *[k + 1] * n_raters)[labelled].reshape(-1)
        unique = np.flatnonzero(complete_counts)
        return _decoded(unique, complete_counts[unique], n_raters, k, n_groups)
    complete = np.asarray((codes >= 0).all(axis=0))
    if float(n_groups) * float(k) ** n_raters < 2.0**62:
        # Each item's group and labels as one number, counted over the complete items.
        ids = np.zeros(n_items, dtype=np.int64) if group is None else np.array(group, np.int64)
        for r in range(n_raters):
            ids *= k
            ids += codes[r]
        unique, count = _distinct(ids, complete, n_groups * k**n_raters)
        return _decoded(unique, count, n_raters, k, n_groups)
    # many categories: the joint labels as rows, not one number
    rows = codes[:, complete].astype(np.int64)
    groups = (
        np.zeros(rows.shape[1], dtype=np.int64)
        if group is None
        else np.asarray(group, dtype=np.int64)[complete]
    )
    stacked = np.vstack([groups, rows])
    unique_rows, count = np.unique(stacked, axis=1, return_counts=True)
    pattern_group, labels = unique_rows[0], unique_rows[1:]
    return Patterns(labels, pattern_group.astype(np.intp), count.astype(np.int64), k, n_groups)


def _decoded(
    unique: np.ndarray, count: np.ndarray, n_raters: int, k: int, n_groups: int
) -> Patterns:
    """The patterns of the numbers ``unique`` (``group * k^R + labels in base k``)."""
    labels = np.empty((n_raters, unique.size), dtype=np.int64)
    rest = unique
    for r in range(n_raters - 1, -1, -1):
        rest, labels[r] = np.divmod(rest, k)
    return Patterns(labels, rest.astype(np.intp), count.astype(np.int64), k, n_groups)


def _influence(
    patterns: Patterns, pair: tuple[int, int], weights: np.ndarray
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The pair's agreement per group, and each pattern's influence on its kappa.

    With agreement weights ``v = 1 - w``, the cell proportions ``p_ij``, the marginals
    ``p_i.``, ``p_.j``, ``vbar_i = sum_l v_il p_.l`` and ``vbar_j = sum_l v_lj p_l.``, the
    derivative of kappa with respect to ``p_ij`` is (up to a constant, which a multinomial
    covariance ignores)

        g_ij = (v_ij - (vbar_i + vbar_j) (1 - kappa)) / (1 - p_e).
    """
    tables = patterns.table(pair)
    stats = agreement(tables, weights)
    v = 1.0 - np.asarray(weights, dtype=float)
    n = stats["n"].astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        rows = tables.sum(axis=-1) / n[:, None]
        cols = tables.sum(axis=-2) / n[:, None]
        vbar_row = cols @ v.T  # (G, K): sum_l v_il p_.l
        vbar_col = rows @ v  # (G, K): sum_l v_lj p_l.
        a, b, g = patterns.labels[pair[0]], patterns.labels[pair[1]], patterns.group
        kappa, p_e = stats["kappa"][g], stats["p_e"][g]
        influence = (v[a, b] - (vbar_row[g, a] + vbar_col[g, b]) * (1.0 - kappa)) / (1.0 - p_e)
    return stats, influence


def paired_delta(
    patterns: Patterns,
    first: tuple[int, int],
    second: tuple[int, int],
    weights: np.ndarray,
    level: float,
) -> dict[str, np.ndarray]:
    """Compare two kappas of the same items by the delta method, per group.

    Each kappa is a function of the items' joint proportions ``pi_p`` (a multinomial
    over the patterns), so with ``g1_p``, ``g2_p`` the patterns' influences on the two
    kappas (``_influence``) and ``n`` items,

        cov(kappa_1, kappa_2) = (sum_p pi_p g1_p g2_p - (sum_p pi_p g1_p)(sum_p pi_p g2_p)) / n

    and likewise each variance (which is then Fleiss, Cohen & Everitt's large-sample
    variance of each kappa). This is Vanbelle's (2017) delta method with one item per
    cluster (``multiagree::delta.pair(..., multilevel=FALSE)``); the difference is then
    tested by ``difference`` with this covariance.

    Returns the ``difference`` columns and ``n``, ``kappa_first``, ``kappa_second``,
    ``se_first``, ``se_second``, ``cov``, one value per group.
    """
    stats1, g1 = _influence(patterns, first, weights)
    stats2, g2 = _influence(patterns, second, weights)
    group, count, n_groups = patterns.group, patterns.count.astype(float), patterns.n_groups
    n = stats1["n"].astype(float)

    def mean(values: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.bincount(group, weights=count * values, minlength=n_groups) / n

    m1, m2 = mean(g1), mean(g2)
    with np.errstate(divide="ignore", invalid="ignore"):
        var1 = np.clip(mean(g1 * g1) - m1 * m1, 0.0, None) / n
        var2 = np.clip(mean(g2 * g2) - m2 * m2, 0.0, None) / n
        cov = (mean(g1 * g2) - m1 * m2) / n
    return paired_out(stats1, stats2, np.sqrt(var1), np.sqrt(var2), cov, level)


def paired_out(
    stats1: dict[str, np.ndarray],
    stats2: dict[str, np.ndarray],
    se1: np.ndarray,
    se2: np.ndarray,
    cov: np.ndarray,
    level: float,
) -> dict[str, np.ndarray]:
    """The delta method's columns: ``difference`` of the two kappas, with each one."""
    out = difference(stats1["kappa"], se1, stats2["kappa"], se2, level, cov=cov)
    out.update(
        n=stats1["n"],
        kappa_first=stats1["kappa"],
        kappa_second=stats2["kappa"],
        se_first=se1,
        se_second=se2,
        cov=cov,
    )
    return out


def _pattern_kappas(
    draws: np.ndarray,
    n: int,
    a: np.ndarray,
    b: np.ndarray,
    weights: np.ndarray,
) -> np.ndarray:
    """Kappa of each replicate of ``draws[r, p]`` items of each pattern ``p``.

    Pattern ``p``'s labels are ``a[p]`` (rows) and ``b[p]`` (columns); only the
    categories that occur are summed.
    """
    used_a, pos_a = np.unique(a, return_inverse=True)
    used_b, pos_b = np.unique(b, return_inverse=True)
    to_a = np.zeros((a.size, used_a.size))
    to_a[np.arange(a.size), pos_a] = 1.0
    to_b = np.zeros((b.size, used_b.size))
    to_b[np.arange(b.size), pos_b] = 1.0
    dis_obs = draws @ weights[a, b]
    rows, cols = draws @ to_a, draws @ to_b
    dis_exp = np.einsum("ri,ri->r", rows @ weights[np.ix_(used_a, used_b)], cols)
    return finish_agreement(np.full(draws.shape[0], n), dis_obs, dis_exp)["kappa"]


#: A multinomial draw costs about this many times more per pattern than drawing one item
#: index costs per item: a group with fewer items than this times its patterns is resampled
#: item by item (the same distribution, drawn faster).
PATTERN_COST = 16
#: The draws of a group's replicates come in chunks of about this much work (item indices
#: drawn, a multinomial's pattern counting ``PATTERN_COST``), each chunk from its own child
#: of the group's seed: a large group's draws run on several CPUs, and the numbers depend
#: on the seed, ``n_boot`` and the group's items and patterns, not on how many CPUs drew.
CHUNK_WORK = 1 << 20
#: Item indices drawn at once (memory: 2 or 8 bytes each, see ``_resampled``).
INDEX_CHUNK = 1 << 20
#: Drawn item indices counted at once (their patterns: 8 bytes each, kept in the CPU cache).
BLOCK_ITEMS = 1 << 16


def _resampled(gen: np.random.Generator, count: np.ndarray, n: int, n_boot: int) -> np.ndarray:
    """``n_boot`` bootstrap samples of ``n`` items as counts per pattern, ``(n_boot, P)``.

    One multinomial draw over the patterns per sample, or, for few items per pattern,
    ``n`` item indices drawn with replacement and counted: the same distribution. The
    choice depends on ``n`` and the patterns only, so a seed gives the same numbers.
    """
    n_patterns = count.size
    if n >= PATTERN_COST * n_patterns:
        return gen.multinomial(n, count / n, size=n_boot).astype(np.float64)
    pattern_of_item = np.repeat(np.arange(n_patterns, dtype=np.int64), count)
    # 16-bit indices are drawn several times faster, where they reach every item.
    index_type = np.uint16 if n <= 1 << 16 else np.int64
    out = np.empty((n_boot, n_patterns))
    reps_per_chunk = max(1, INDEX_CHUNK // max(n, 1))
    for r0 in range(0, n_boot, reps_per_chunk):
        reps = min(reps_per_chunk, n_boot - r0)
        drawn = gen.integers(0, n, size=(reps, n), dtype=index_type)
        count_rows(pattern_of_item, drawn, n_patterns, out[r0 : r0 + reps])
    return out


def count_rows(
    pattern_of_item: np.ndarray, drawn: np.ndarray, n_patterns: int, out: np.ndarray
) -> None:
    """``out[r, p]``: how many of row ``r``'s item indices ``drawn[r]`` are of pattern ``p``.

    One ``np.bincount`` per block of rows, each row's patterns offset by ``r * n_patterns``;
    a block holds about ``BLOCK_ITEMS`` indices, so its temporaries stay in the CPU cache.
    """
    rows, n = drawn.shape
    block = max(1, min(rows, BLOCK_ITEMS // max(n, 1)))
    offset = (np.arange(block, dtype=np.int64) * n_patterns)[:, None]
    ids = np.empty((block, n), dtype=np.int64)
    for r0 in range(0, rows, block):
        b = min(block, rows - r0)
        np.take(pattern_of_item, drawn[r0 : r0 + b], out=ids[:b], mode="clip")
        ids[:b] += offset[:b]
        flat = np.bincount(ids[:b].reshape(-1), minlength=b * n_patterns)
        out[r0 : r0 + b] = flat.reshape(b, n_patterns)


def paired_bootstrap(
    patterns: Patterns,
    first: tuple[int, int],
    second: tuple[int, int],
    weights: np.ndarray,
    level: float,
    n_boot: int = 1000,
    seed: Any = None,
    workers: int | None = None,
    categories: Sequence[Any] | None = None,
) -> dict[str, np.ndarray]:
    """Compare two kappas of the same items by resampling the items once for both.

    In each group, a replicate draws ``n`` items with replacement: one multinomial draw
    over the group's patterns (``Generator.multinomial``; for few items per pattern, the
    items' indices drawn and counted, ``_resampled``), from which both K x K tables, and
    both kappas, are summed. With ``d_r = kappa2_r - kappa1_r`` over the replicates
    where both are defined: ``se`` is the standard deviation of ``d_r`` (``ddof=1``), the
    interval its ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles (percentile
    bootstrap), ``z = difference / se`` with a two-sided normal ``p_value``; the
    ``difference`` itself is the one of the point estimates. Each group draws from its own
    child of ``seed``, its replicates in chunks of about ``CHUNK_WORK`` draws
    (``replicate_chunks``), each chunk from its own child of the group's. The groups run
    on ``workers`` threads or, when there are fewer groups than threads, the chunks of
    every group do; the numbers do not depend on ``workers``. With
    ``categories`` (the labels the codes stand for), patterns of equal count are drawn in
    the order of their labels (``kappaframe._encode.codes.canonical_order``), not of their
    codes, so every way in to the same ratings draws alike.

    Returns the ``difference`` columns and ``n``, ``kappa_first``, ``kappa_second``,
    ``se_first``, ``se_second``, ``cov`` (of the replicates), one value per group.
    """
    if not 0 < level < 1:
        raise KappaFrameError(f"ci must be a confidence level between 0 and 1; got {level!r}.")
    n_boot = check_bootstrap(n_boot)
    rng = make_rng(seed)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    n_groups = patterns.n_groups
    found = {name: np.full(n_groups, np.nan) for name in REPLICATE_COLUMNS}
    bounds = np.searchsorted(patterns.group, np.arange(n_groups + 1))
    quantiles = np.array([(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    children = np.random.SeedSequence(rng.integers(0, 2**63, size=4).tolist()).spawn(n_groups)
    rank = np.arange(patterns.k)
    if categories is not None and len(categories) == patterns.k:
        rank[canonical_order(categories)] = np.arange(patterns.k)

    def chunks(g: int) -> list[Callable[[], tuple[np.ndarray, np.ndarray]]]:
        """Group ``g``'s draws, chunk by chunk: each gives both kappas of its replicates."""
        lo, hi = bounds[g], bounds[g + 1]
        count = patterns.count[lo:hi]
        n = int(count.sum())
        # Large cells first (the draw ends sooner), equal ones by their labels.
        ties = [rank[labels] for labels in patterns.labels[::-1, lo:hi]]
        order = np.lexsort((*ties, -count))
        ordered, labels = count[order], patterns.labels[:, lo:hi][:, order]

        def chunk(seed: np.random.SeedSequence, size: int) -> tuple[np.ndarray, np.ndarray]:
            draws = _resampled(np.random.Generator(np.random.PCG64(seed)), ordered, n, size)
            k1 = _pattern_kappas(draws, n, labels[first[0]], labels[first[1]], weights)
            return k1, _pattern_kappas(draws, n, labels[second[0]], labels[second[1]], weights)

        sizes = replicate_chunks(n_boot, n, count.size)
        # One chunk draws from the group's own seed (the draws of before chunks were made).
        seeds = [children[g]] if len(sizes) == 1 else children[g].spawn(len(sizes))
        return [partial(chunk, s, z) for s, z in zip(seeds, sizes, strict=True)]

    def record(g: int, done: list[tuple[np.ndarray, np.ndarray]]) -> None:
        k1, k2 = (np.concatenate(kappas) for kappas in zip(*done, strict=True))
        record_replicates(found, g, k1, k2, quantiles)

    def run(g: int) -> None:
        record(g, [chunk() for chunk in chunks(g)])

    drawn = [g for g in range(n_groups) if bounds[g + 1] > bounds[g]]
    threads = _workers() if workers is None else max(1, int(workers))
    if threads <= 1:
        for g in drawn:
            run(g)
    elif len(drawn) >= threads:  # the groups on the threads, each group's chunks in turn
        with ThreadPoolExecutor(threads) as pool:
            for done in [pool.submit(run, g) for g in drawn]:
                done.result()
    else:  # fewer groups than threads: the chunks of every group on the threads
        with ThreadPoolExecutor(threads) as pool:
            futures = {g: [pool.submit(chunk) for chunk in chunks(g)] for g in drawn}
            for g, pending in futures.items():
                record(g, [f.result() for f in pending])
    return paired_result(paired_delta(patterns, first, second, weights, level), found)


def replicate_chunks(n_boot: int, n: int, n_patterns: int) -> list[int]:
    """How many replicates each chunk of a group's draws holds (``CHUNK_WORK`` each).

    The work of a replicate is what ``_resampled`` draws: ``n`` item indices, or one
    multinomial over the patterns (``PATTERN_COST`` per pattern), whichever is cheaper.
    """
    work = n_boot * min(n, PATTERN_COST * n_patterns)
    chunks = max(1, min(n_boot, -(-work // CHUNK_WORK)))
    size = -(-n_boot // chunks)
    return [min(size, n_boot - r0) for r0 in range(0, n_boot, size)]


#: What ``record_replicates`` keeps of each group's replicates.
REPLICATE_COLUMNS = ("se", "ci_low", "ci_high", "se_first", "se_second", "cov")


def record_replicates(
    found: dict[str, np.ndarray], g: int, k1: np.ndarray, k2: np.ndarray, quantiles: np.ndarray
) -> None:
    """Group ``g``'s paired replicates ``k1``, ``k2`` summed up into ``found``.

    Over the replicates where both are defined (at least 2): the standard deviation and the
    ``quantiles`` of ``d = k2 - k1``, each one's standard deviation and their covariance.
    """
    both = np.isfinite(k1) & np.isfinite(k2)
    if both.sum() < 2:
        return
    k1, k2 = k1[both], k2[both]
    d = k2 - k1
    found["se"][g] = d.std(ddof=1)
    found["ci_low"][g], found["ci_high"][g] = np.quantile(d, quantiles)
    found["se_first"][g], found["se_second"][g] = k1.std(ddof=1), k2.std(ddof=1)
    found["cov"][g] = np.cov(k1, k2)[0, 1]


def paired_result(
    point: dict[str, np.ndarray], found: dict[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """The columns of a paired bootstrap, from the point estimates and the replicates.

    The point ``difference`` with the replicates' ``se`` and interval (as
    ``record_replicates`` keeps them), ``z`` and its two-sided normal ``p_value``.
    """
    change = point["difference"]
    se = np.where(np.isfinite(change), found["se"], np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(np.isfinite(se) & (se > 0), change / se, np.nan)
    p_value = np.where(np.isfinite(z), np.minimum(2.0 * normal_sf(np.abs(z)), 1.0), np.nan)
    defined = np.isfinite(se)
    return {
        "difference": np.where(defined, change, np.nan),
        "se": se,
        "ci_low": np.where(defined, found["ci_low"], np.nan),
        "ci_high": np.where(defined, found["ci_high"], np.nan),
        "z": z,
        "p_value": p_value,
        "n": point["n"],
        "kappa_first": point["kappa_first"],
        "kappa_second": point["kappa_second"],
        "se_first": found["se_first"],
        "se_second": found["se_second"],
        "cov": found["cov"],
    }
