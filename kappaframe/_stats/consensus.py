"""Consensus labels from many ratings per item: the majority vote, and what models share.

Everything here reads one table, ``counts[i, j]``: how many ratings item ``i`` got in
category ``j`` (``item_counts``, one bincount). A consensus is a category per item
with its support, or none: a tie is never broken unless the caller names the rule.

``ItemCounts`` holds the same table by the (item, category) pairs that occur, sorted by
item then category: what ``kappaframe.items`` reads, so that its memory grows with the
ratings, not with items x categories (``sparse_majority`` is the majority vote on it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from .._errors import KappaFrameError, arg, bad_option

__all__ = [
    "TIES",
    "Chosen",
    "Consensus",
    "Draws",
    "ItemCounts",
    "item_counts",
    "majority",
    "sparse_item_counts",
    "sparse_majority",
]

#: How a tie between the most chosen categories is settled: ``"missing"`` (no
#: consensus; ``tied`` says why), ``"first-category"`` (the first in the category order),
#: ``"random"`` (one of them, drawn with ``seed``).
TIES = ("missing", "first-category", "random")


@dataclass(frozen=True)
class Consensus:
    """A consensus label per item, and how sure it is.

    Attributes
    ----------
    posterior : ndarray of shape (n_items, K), optional
        The probability of each category for each item: the share of its ratings (majority
        vote) or a model's posterior. Rows of items with no rating are NaN. ``None`` where
        it was not kept (``dawid_skene(..., table=False)``).
    label : ndarray of shape (n_items,)
        The chosen category's code; -1 where there is none (no rating, or a tie left open).
    support : ndarray of shape (n_items,)
        ``posterior`` of the chosen category (NaN where there is none).
    tied : ndarray of shape (n_items,)
        Whether the most probable categories tie (whatever the rule then chose).
    confusion : ndarray of shape (n_raters, K, K), optional
        A model's confusion matrix of each rater: row the true category, column the one
        given, rows summing to 1. ``None`` for the majority vote.
    priors : ndarray of shape (K,), optional
        A model's share of each true category. ``None`` for the majority vote.
    n_iter : int
        Iterations a model ran (0 for the majority vote).
    converged : bool
        Whether a model met its tolerance (True for the majority vote).
    largest : ndarray of shape (n_items,), optional
        Each item's largest posterior, where ``posterior`` was not kept (see ``top``).
    """

    posterior: np.ndarray | None
    label: np.ndarray
    support: np.ndarray
    tied: np.ndarray
    confusion: np.ndarray | None = None
    priors: np.ndarray | None = None
    n_iter: int = 0
    converged: bool = True
    largest: np.ndarray | None = None

    @property
    def top(self) -> np.ndarray:
        """Each item's largest posterior (NaN for an item with no rating)."""
        if self.largest is not None:
            return self.largest
        assert self.posterior is not None  # one of the two is kept
        rated = ~np.isnan(self.posterior).all(axis=1)
        top = np.full(len(rated), np.nan)
        if rated.any():
            top[rated] = np.nanmax(self.posterior[rated], axis=1)
        return top


def item_counts(item: np.ndarray, label: np.ndarray, n_items: int, k: int) -> np.ndarray:
    """How many ratings each item got in each category: ``(n_items, K)`` int64, one bincount.

    ``item`` and ``label`` are the codes of the observed ratings (missing ones left out).
    """
    item = np.asarray(item, dtype=np.int64)
    label = np.asarray(label, dtype=np.int64)
    flat = np.bincount(item * k + label, minlength=n_items * k)
    return flat.reshape(n_items, k)


class ItemCounts(NamedTuple):
    """``counts[i, j]`` by the pairs that occur: ``item``, ``label`` and ``tally`` (> 0).

    Sorted by item, then label; ``n_items`` and ``k`` the table's shape.
    """

    item: np.ndarray  # intp
    label: np.ndarray  # intp
    tally: np.ndarray  # int64, > 0
    n_items: int
    k: int


def sparse_item_counts(item: np.ndarray, label: np.ndarray, n_items: int, k: int) -> ItemCounts:
    """``item_counts`` by the (item, category) pairs that occur: one sort of the ratings."""
    keys = np.asarray(item, dtype=np.int64) * max(k, 1) + np.asarray(label, dtype=np.int64)
    pairs, count = np.unique(keys, return_counts=True)
    return ItemCounts(
        (pairs // max(k, 1)).astype(np.intp),
        (pairs % max(k, 1)).astype(np.intp),
        count.astype(np.int64),
        n_items,
        k,
    )


class Chosen(NamedTuple):
    """A consensus without its posterior: what ``kappaframe.items`` shows of it.

    ``label``, ``support`` and ``tied`` as ``Consensus``'s; ``top`` each item's largest
    posterior (NaN without a rating).
    """

    label: np.ndarray
    support: np.ndarray
    tied: np.ndarray
    top: np.ndarray


def check_ties(ties: Any, seed: Any = None) -> str:
    """Check ``ties`` (and that ``"random"`` comes with a ``seed``)."""
    if ties not in TIES:
        raise bad_option("ties", ties, TIES)
    if ties == "random" and seed is None:
        raise KappaFrameError(
            f"{arg('ties', 'random')} draws among the tied categories, and the draw must "
            f"be repeatable: pass {arg('seed', 0)} (any whole number).",
            option="seed",
        )
    return str(ties)


@dataclass(frozen=True)
class Draws:
    """The order in which ``ties="random"`` draws: a function of the data, not the codes.

    ``rows``: the rows in the order their draws are made (a permutation; e.g. the items
    sorted by their keys); ``categories``: the category codes in the order a draw picks
    among the tied ones (e.g. the labels sorted, ``kappaframe._encode.codes.canonical_order``).
    ``None`` keeps the rows' or the codes' own order.
    """

    rows: np.ndarray | None = None
    categories: np.ndarray | None = None


def settle(
    posterior: np.ndarray,
    ties: str = "missing",
    seed: Any = None,
    atol: float = 0.0,
    draws: Draws | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The chosen category of each row of ``posterior``, its support, and ties.

    Categories within ``atol`` of a row's maximum tie (0 for counts, which are exact).
    Rows that are all NaN (no rating) get no label and no tie. ``draws`` fixes the order
    of the random tie break (rows, and categories within a row); by default, the rows'
    and the categories' own.
    """
    check_ties(ties, seed)
    n = len(posterior)
    missing = np.isnan(posterior)
    rated = ~missing.all(axis=1) if n else np.zeros(0, dtype=bool)
    # No copy of a posterior without NaN (a model's: as large as items x categories).
    filled = np.where(missing, -np.inf, posterior) if missing.any() else posterior
    del missing
    top = filled.max(axis=1, initial=-np.inf) if n else np.zeros(0)
    best = filled >= (top - atol)[:, None]
    n_best = best.sum(axis=1)
    tied = rated & (n_best > 1)
    label = np.where(rated, best.argmax(axis=1), -1).astype(np.intp)  # the first of the best
    if ties == "missing":
        label[tied] = -1
    elif ties == "random" and tied.any():
        rng = np.random.default_rng(seed)
        rows = np.flatnonzero(tied)
        cats = np.arange(posterior.shape[1])
        if draws is not None:
            if draws.rows is not None:
                rank = np.empty(n, dtype=np.intp)
                rank[draws.rows] = np.arange(n, dtype=np.intp)
                rows = rows[np.argsort(rank[rows], kind="stable")]
            if draws.categories is not None:
                cats = np.asarray(draws.categories, dtype=np.intp)
        # One uniform draw per tied item picks among its best categories, in order.
        pick = np.floor(rng.random(len(rows)) * n_best[rows]).astype(np.intp)
        order = np.cumsum(best[rows][:, cats], axis=1) - 1
        label[rows] = cats[(order == pick[:, None]).argmax(axis=1)]
    safe = np.clip(label, 0, None)
    support = np.where(label >= 0, posterior[np.arange(n), safe] if n else 0.0, np.nan)
    return label, support.astype(float), tied


def majority(
    counts: np.ndarray, ties: str = "missing", seed: Any = None, draws: Draws | None = None
) -> Consensus:
    """The majority vote: each item's most chosen category, with its share of the ratings.

    Parameters
    ----------
    counts : ndarray of shape (n_items, K)
        Ratings per item and category (``item_counts``).
    ties : {"missing", "first-category", "random"}, default "missing"
        What a tie between the most chosen categories gives: no consensus (``label``
        -1, ``tied`` True), the first of them in the category order, or one of them
        drawn with ``seed``.
    seed : int, optional
        Needed by ``ties="random"``.
    draws : Draws, optional
        The order of the random tie break's draws (items, then categories).

    Returns
    -------
    Consensus
        ``posterior`` is each item's share of ratings per category.

    Examples
    --------
    >>> import numpy as np
    >>> c = majority(np.array([[3, 1, 0], [2, 2, 0], [0, 0, 0]]))
    >>> c.label.tolist(), c.tied.tolist(), [round(float(s), 2) for s in c.support[:1]]
    ([0, -1, -1], [False, True, False], [0.75])
    """
    counts = np.asarray(counts)
    n = counts.sum(axis=1, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(n[:, None] > 0, counts / n[:, None], np.nan)
    label, support, tied = settle(share, ties, seed, draws=draws)
    return Consensus(share, label, support, tied)


def sparse_majority(
    counts: ItemCounts, ties: str = "missing", seed: Any = None, draws: Draws | None = None
) -> Chosen:
    """``majority`` on ``ItemCounts``: the same labels, supports and ties, no dense table.

    A category is among an item's most chosen when its count is the item's largest
    (shares of one item compare as their counts do); the random draw picks among them
    exactly as ``settle`` does (the same uniform draws, in the same order).

    Examples
    --------
    >>> import numpy as np
    >>> c = sparse_majority(sparse_item_counts(np.array([0, 0, 0, 0, 1, 1]),
    ...                                        np.array([0, 0, 0, 1, 0, 1]), 3, 3))
    >>> c.label.tolist(), c.tied.tolist(), [round(float(s), 2) for s in c.support[:1]]
    ([0, -1, -1], [False, True, False], [0.75])
    """
    check_ties(ties, seed)
    n = counts.n_items
    item, label, count = counts.item, counts.label, counts.tally
    total = np.bincount(item, weights=count, minlength=n).astype(np.int64)
    largest = np.zeros(n, dtype=np.int64)
    if len(item):  # sorted by item: one maximum per run
        starts = np.flatnonzero(np.r_[True, item[1:] != item[:-1]])
        largest[item[starts]] = np.maximum.reduceat(count, starts)
    best = count == largest[item]  # sorted by item, then label: the first is the lowest
    n_best = np.bincount(item[best], minlength=n)
    rated = total > 0
    tied = rated & (n_best > 1)
    chosen = np.full(n, -1, dtype=np.intp)
    first = np.ones(int(best.sum()), dtype=bool)
    best_item, best_label = item[best], label[best]
    first[1:] = best_item[1:] != best_item[:-1]
    chosen[best_item[first]] = best_label[first]
    if ties == "missing":
        chosen[tied] = -1
    elif ties == "random" and tied.any():
        rng = np.random.default_rng(seed)
        rows = np.flatnonzero(tied)
        rank_of = np.arange(counts.k, dtype=np.intp)  # each category's place in the draw
        if draws is not None:
            if draws.rows is not None:
                rank = np.empty(n, dtype=np.intp)
                rank[draws.rows] = np.arange(n, dtype=np.intp)
                rows = rows[np.argsort(rank[rows], kind="stable")]
            if draws.categories is not None:
                rank_of = np.empty(counts.k, dtype=np.intp)
                rank_of[np.asarray(draws.categories, dtype=np.intp)] = np.arange(counts.k)
        pick = np.floor(rng.random(len(rows)) * n_best[rows]).astype(np.intp)
        open_ = tied[best_item]
        cand_item, cand_label = best_item[open_], best_label[open_]
        by = np.lexsort((rank_of[cand_label], cand_item))  # each item's, in draw order
        cand_item, cand_label = cand_item[by], cand_label[by]
        start = np.searchsorted(cand_item, rows)
        chosen[rows] = cand_label[start + pick]
    with np.errstate(divide="ignore", invalid="ignore"):
        top = np.where(rated, largest / np.where(rated, total, 1), np.nan)
    support = np.where(chosen >= 0, top, np.nan)
    return Chosen(chosen, support, tied, top)
