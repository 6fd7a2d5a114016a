"""``cluster=`` for the numeric coefficients: the cluster bootstrap of their intervals.

The intervals of ``icc``, ``ccc`` and ``bland_altman`` (Shrout & Fleiss' F intervals, Lin's
on the z-transform, Bland & Altman's for the bias and the limits) have no published form
summed by cluster that reduces to them, so with ``cluster`` each interval is the percentile
cluster bootstrap: each replicate draws the group's clusters with replacement, with all
their items, and recomputes the coefficient from the drawn items by the same functions as
the point estimate. The point estimates and the F test stay those of the items as they are.

The ratings are read in memory with the cluster as the last ``by`` column (so every item
carries its cluster), and each cluster is placed in the caller's group.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._encode.codes import encode_groups
from .._errors import KappaFrameError, arg
from .._frames.engines import EngineFrame
from .._frames.parts import PartReader
from .._stats.bootstrap import check_bootstrap, make_rng, percentile_summary
from .._stats.cluster import draw_clusters
from .._stats.concordance import PairMoments
from .._stats.icc import icc_forms, icc_sums
from .cluster import check_cluster_ids, check_one_cluster, in_memory_only
from .numeric import NumericLayout, numeric_ratings
from .options import as_list, check_columns
from .plan import Counted, adapt

__all__ = [
    "ClusteredScores",
    "check_draws",
    "clustered_scores",
    "icc_intervals",
    "pair_intervals",
    "replicate_summary",
]

#: Replicates whose items are gathered at once (their item indices and scores).
REPLICATES_AT_ONCE = 100


@dataclass(frozen=True)
class ClusteredScores:
    """Every score (``values[R, N]``), each item's cluster and each cluster's group."""

    values: np.ndarray
    cluster: np.ndarray
    outer: np.ndarray
    n_groups: int


def clustered_scores(
    data: Any, raters: Any, layout: NumericLayout, cluster: Hashable
) -> ClusteredScores:
    """Read the scores of an input in memory with each item's cluster (checked)."""
    frame = adapt(data)
    if isinstance(frame, (PartReader, EngineFrame, Counted)):
        raise in_memory_only(cluster)
    names = frame.columns()
    by = as_list(layout.by, names)
    check_columns([cluster], names, "cluster column")
    taken = [*by, *as_list(raters, names), layout.item, layout.rater, layout.value]
    if cluster in taken:
        raise KappaFrameError(
            f"{arg('cluster', cluster)} is also a rater, by, item or value column: the "
            "cluster column holds the id of each item's cluster (a patient, a dialogue) and "
            "nothing else.",
            option="cluster",
        )
    frame.load([cluster])
    ids = frame.labels(cluster)
    check_cluster_ids(cluster, ids.codes, ids.uniques)
    if layout.long:
        check_one_cluster(frame, layout.item, by, cluster, ids.codes, ids.uniques)
    ratings = numeric_ratings(frame, raters, replace(layout, by=[*by, cluster]))
    ratings.refuse_infinite()
    keys = [frame.keys(b) for b in by]
    inner = encode_groups([*keys, frame.keys(cluster)], frame.n_rows)
    outer_rows = encode_groups(keys, frame.n_rows)
    outer = np.zeros(inner.n_groups, np.intp)
    if outer_rows.codes is not None and inner.codes is not None:
        outer[inner.codes] = outer_rows.codes
    group = np.zeros(ratings.values.shape[1], np.intp) if ratings.group is None else ratings.group
    return ClusteredScores(ratings.values, np.asarray(group), outer, outer_rows.n_groups)


def _replicates(
    s: ClusteredScores, n_boot: int, seed: Any
) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
    """Per group and block of replicates: ``(group, first replicate, items, replicate)``.

    ``items`` are the item positions drawn (a cluster's items as many times as it was
    drawn) and ``replicate`` the replicate (within the block) of each. Each group draws
    from its own child of ``seed``; a group with fewer than two clusters draws nothing.
    """
    rng = make_rng(seed)
    children = np.random.SeedSequence(rng.integers(0, 2**63, size=4).tolist()).spawn(s.n_groups)
    order = np.argsort(s.cluster, kind="stable")
    sizes = np.bincount(s.cluster, minlength=s.outer.size)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    for g in range(s.n_groups):
        mine = np.flatnonzero((s.outer == g) & (sizes > 0))
        if mine.size < 2:
            continue
        gen = np.random.Generator(np.random.PCG64(children[g]))
        for r0 in range(0, n_boot, REPLICATES_AT_ONCE):
            reps = min(REPLICATES_AT_ONCE, n_boot - r0)
            times = draw_clusters(gen, mine.size, reps).reshape(-1)
            drawn = np.repeat(np.tile(mine, reps), times)  # clusters, replicate by replicate
            replicate = np.repeat(np.repeat(np.arange(reps), mine.size), times)
            count = sizes[drawn]
            first = np.repeat(starts[drawn], count)
            within = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
            yield g, r0, order[first + within], np.repeat(replicate, count)


def replicate_summary(
    s: ClusteredScores,
    finish: Callable[[np.ndarray, np.ndarray, int], dict[str, np.ndarray]],
    shape: Mapping[str, tuple[int, ...]],
    level: float,
    n_boot: Any = None,
    seed: Any = None,
) -> dict[str, dict[str, np.ndarray]]:
    """The percentile summary (``se``, ``ci_low``, ``ci_high``) of each statistic.

    ``finish(values, replicate, reps)`` gives each statistic of every replicate, shaped
    ``(*shape[name], reps)``, from the drawn scores ``values[R, items]`` and each item's
    replicate. Returns, per statistic, arrays ``(n_groups, *shape[name])`` (NaN for a
    group with fewer than two clusters).
    """
    n_boot = check_bootstrap(1000 if n_boot is None else n_boot)
    drawn = {name: np.full((s.n_groups, *dims, n_boot), np.nan) for name, dims in shape.items()}
    for g, r0, items, replicate in _replicates(s, n_boot, seed):
        reps = int(replicate.max()) + 1
        for name, values in finish(s.values[:, items], replicate, reps).items():
            drawn[name][g, ..., r0 : r0 + reps] = values
    out = {}
    for name, values in drawn.items():
        flat = values.reshape(-1, n_boot)
        summary = percentile_summary(flat, level)
        out[name] = {k: v.reshape(values.shape[:-1]) for k, v in summary.items()}
    return out


def check_draws(cluster: Hashable | None, n_boot: Any, seed: Any) -> None:
    """``n_boot`` and ``seed`` serve the cluster bootstrap only: refused without ``cluster``."""
    for name, value in (("n_boot", n_boot), ("seed", seed)):
        if cluster is None and value is not None:
            raise KappaFrameError(
                f"{arg(name)} applies to the cluster bootstrap of {arg('cluster')}; without "
                f"clusters the intervals draw nothing. Pass {arg('cluster')} or drop "
                f"{arg(name)}.",
                option=name,
            )


def pair_intervals(
    data: Any,
    raters: Any,
    layout: NumericLayout,
    cluster: Hashable,
    pairs: np.ndarray,
    stat: Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]],
    level: float,
    n_boot: Any,
    seed: Any,
) -> dict[str, dict[str, np.ndarray]]:
    """The cluster bootstrap of the statistics ``stat`` makes of each rater pair's moments.

    Returns per statistic ``se``, ``ci_low``, ``ci_high``, each flat in the rows' order
    (group-major, then the pairs).
    """
    s = clustered_scores(data, raters, layout, cluster)

    def finish(values: np.ndarray, replicate: np.ndarray, reps: int) -> dict[str, np.ndarray]:
        moments = PairMoments.of(values, replicate, reps).pairs(pairs[:, 0], pairs[:, 1])
        return stat(moments)

    names = stat(PairMoments.empty(1, len(s.values)).pairs(pairs[:, 0], pairs[:, 1])).keys()
    shape = {name: (len(pairs),) for name in names}
    out = replicate_summary(s, finish, shape, level, n_boot, seed)
    return {name: {k: v.reshape(-1) for k, v in summary.items()} for name, summary in out.items()}


def icc_intervals(
    data: Any, raters: Any, layout: NumericLayout, cluster: Hashable, level: float,
    n_boot: Any, seed: Any,
) -> dict[str, np.ndarray]:  # fmt: skip
    """The cluster bootstrap of the six ICC forms: ``ci_low``, ``ci_high``, ``(G, 6)``."""
    s = clustered_scores(data, raters, layout, cluster)

    def finish(values: np.ndarray, replicate: np.ndarray, reps: int) -> dict[str, np.ndarray]:
        sums = icc_sums(list(values), replicate, reps)
        return {"icc": icc_forms(sums, None)["icc"].T}

    return replicate_summary(s, finish, {"icc": (6,)}, level, n_boot, seed)["icc"]
