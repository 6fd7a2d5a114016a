"""``cluster=``: read the items' clusters and count each pair's table per cluster.

A cluster is a group the result does not show: the ratings are prepared with the
cluster column as the last ``by`` column (so every backend counts per cluster as it counts
per group), and ``Clusters`` adds the clusters' tables up into the groups the caller
asked for. The statistics of ``kappaframe._stats.cluster`` read the tables per cluster.

Never a guess: the cluster column must be a column that is not a rater, ``by``, item or
label column; a missing cluster id, a single cluster, or (long layout) an item in two
clusters is refused, naming the column, the value and the way out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._count.diagonal import DiagonalCounts
from .._encode.codes import Groups, encode_groups
from .._errors import KappaFrameError, arg
from .._frames.engines import EngineFrame
from .._frames.parts import PartReader
from .._stats.cluster import collapse_clusters
from .options import as_list, check_columns
from .plan import Counted, adapt, prepare_input
from .prepare import Frame, Prepared
from .settings.reading import ReadSpec

__all__ = [
    "Clusters",
    "check_cluster",
    "check_cluster_ids",
    "check_one_cluster",
    "clustered_input",
    "in_memory_only",
    "prepare_clustered",
]


@dataclass(frozen=True)
class Clusters:
    """The ratings counted per cluster, and the caller's group of each cluster.

    ``prep`` is grouped by ``by`` and the cluster column; ``outer[g]`` is the caller's
    group of its group ``g``.
    """

    prep: Prepared
    outer: np.ndarray
    column: Hashable

    def tables(self, pairs: np.ndarray, weights: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """Each pair's tables per cluster ``(P, clusters, K, K)`` and per group ``(P, G, K, K)``."""
        per_cluster = self.prep.tables(pairs, weights, full=True)
        if isinstance(per_cluster, DiagonalCounts):  # pragma: no cover - full=True
            raise TypeError("cluster tables must be full tables")
        per_cluster = np.asarray(per_cluster)
        return per_cluster, collapse_clusters(per_cluster, self.outer, int(self.outer.max()) + 1)


def in_memory_only(cluster: Hashable) -> KappaFrameError:
    """The refusal of ``cluster`` on an input read in parts or counted in an engine."""
    return KappaFrameError(
        f"{arg('cluster', cluster)} needs every rating in memory: it is read from a pandas "
        "or polars DataFrame. Collect the input first (a LazyFrame's .collect(), a Dask "
        "frame's .compute(), a relation's .df()), or leave out cluster=.",
        option="cluster",
    )


def check_cluster(cluster: Hashable | None, population: Any = None) -> None:
    """Refuse what ``cluster`` cannot go with, before any data is read."""
    if cluster is not None and population is not None:
        raise KappaFrameError(
            f"{arg('population', population)} corrects for drawing items from a finite "
            f"population, and {arg('cluster', cluster)} draws clusters: the two do not mix. "
            "Leave out one of them.",
            option="population",
        )


def prepare_clustered(
    frame: Any, read: ReadSpec, cluster: Hashable | None, *, min_overlap: Any = None
) -> tuple[Prepared, Clusters | None]:
    """``prepare_input`` (counts only), and with ``cluster`` the counts per cluster."""
    if cluster is None:
        prep = prepare_input(frame, read, min_overlap=min_overlap, from_counts=True, own=False)
        return prep, None
    return clustered_input(frame, read, cluster, min_overlap=min_overlap)


def clustered_input(
    frame: Any,
    read: ReadSpec,
    cluster: Hashable,
    *,
    min_overlap: Any = None,
    from_counts: bool = True,
) -> tuple[Prepared, Clusters]:
    """The prepared ratings in the caller's groups, and the same counted per cluster.

    ``from_counts``: as ``prepare_input``'s (``False``: every rating's code is kept).
    """
    frame = adapt(frame)
    if isinstance(frame, (PartReader, EngineFrame, Counted)):
        raise in_memory_only(cluster)
    names = frame.columns()
    by = as_list(read.by, names)
    _check_cluster_column(cluster, names, by, read)
    frame.load([cluster])
    ids = frame.labels(cluster)
    check_cluster_ids(cluster, ids.codes, ids.uniques)
    if read.layout is not None:
        check_one_cluster(frame, read.layout.item, by, cluster, ids.codes, ids.uniques)
    inner = prepare_input(frame, read.replace(by=[*by, cluster]), from_counts=from_counts,
                          min_overlap=min_overlap)  # fmt: skip
    rows = encode_groups([frame.keys(b) for b in by], frame.n_rows)
    outer_rows = np.zeros(frame.n_rows, np.intp) if rows.codes is None else rows.codes
    present, outer = np.unique(outer_rows[inner.groups.first_row], return_inverse=True)
    first = np.full(present.size, np.iinfo(np.intp).max, np.intp)
    np.minimum.at(first, outer, inner.groups.first_row)
    codes = None if inner.groups.codes is None else outer[inner.groups.codes]
    prep = dataclasses.replace(inner, groups=Groups(codes, present.size, first), by=by)
    return prep, Clusters(inner, outer.astype(np.intp), cluster)


def _check_cluster_column(
    cluster: Hashable, names: list[Hashable], by: list[Hashable], read: ReadSpec
) -> None:
    check_columns([cluster], names, "cluster column")
    layout = read.layout
    roles = {"by": by, "raters": as_list(read.raters, names)}
    if layout is not None:
        roles.update(item=[layout.item], rater=[layout.rater], label=[layout.label])
    for role, columns in roles.items():
        if cluster in columns:
            raise KappaFrameError(
                f"{arg('cluster', cluster)} is also a {role} column: the cluster column holds "
                "the id of each item's cluster (a patient, a dialogue) and nothing else.",
                option="cluster",
            )


def check_cluster_ids(cluster: Hashable, codes: np.ndarray, uniques: list[Any]) -> None:
    missing = np.flatnonzero(codes < 0)
    if missing.size:
        raise KappaFrameError(
            f"cluster column {cluster!r} has {missing.size} missing id(s) (first at row "
            f"{int(missing[0])}): every item must belong to a cluster. Fill them in (an item "
            "alone is a cluster of its own: give it an id of its own), or drop those rows.",
            option="cluster",
        )
    if len(uniques) < 2:
        only = uniques[0] if uniques else None
        raise KappaFrameError(
            f"cluster column {cluster!r} holds one cluster only ({only!r}): a variance between "
            "clusters needs two or more. With every item in one cluster, leave out cluster=; "
            "to use it per group, give each group's clusters their own ids.",
            option="cluster",
        )


def check_one_cluster(
    frame: Frame,
    item: Hashable,
    by: list[Hashable],
    cluster: Hashable,
    ids: np.ndarray,
    uniques: list[Any],
) -> None:
    """Long layout: every item (within its group) belongs to one cluster."""
    frame.load([*by, item])
    items = frame.labels(item)
    groups = encode_groups([frame.keys(b) for b in by], frame.n_rows)
    group = np.zeros(frame.n_rows, np.int64) if groups.codes is None else groups.codes
    unit = group.astype(np.int64) * (len(items.uniques) + 1) + items.codes
    rated = items.codes >= 0
    order = np.lexsort((ids[rated], unit[rated]))
    unit_sorted, ids_sorted = unit[rated][order], ids[rated][order]
    split = np.flatnonzero(
        (unit_sorted[1:] == unit_sorted[:-1]) & (ids_sorted[1:] != ids_sorted[:-1])
    )
    if split.size:
        row = np.flatnonzero(rated)[order[split[0]]]
        first, second = uniques[ids_sorted[split[0]]], uniques[ids_sorted[split[0] + 1]]
        raise KappaFrameError(
            f"item {items.uniques[items.codes[row]]!r} is in two clusters of column "
            f"{cluster!r} ({first!r} and {second!r}): an item belongs to one cluster. Fix the "
            "cluster ids, or give the item's parts ids of their own in the item column.",
            option="cluster",
        )
