"""Consensus labels from many ratings per item: the majority vote, and what models share.

Everything here reads one table, ``counts[i, j]``: how many ratings item ``i`` got in
category ``j`` (``item_counts``, one bincount). A consensus is a category per item
with its support, or none: a tie is never broken unless the caller names the rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import KappaFrameError, arg, bad_option

__all__ = ["TIES", "Consensus", "Draws", "item_counts", "majority"]

#: How a tie between the most chosen categories is settled: ``"missing"`` (no
#: consensus; ``tied`` says why), ``"first-category"`` (the first in the category order),
#: ``"random"`` (one of them, drawn with ``seed``).
TIES = ("missing", "first-category", "random")


@dataclass(frozen=True)
class Consensus:
    """A consensus label per item, and how sure it is.

    Attributes
    ----------
    posterior : ndarray of shape (n_items, K)
        The probability of each category for each item: the share of its ratings (majority
        vote) or a model's posterior. Rows of items with no rating are NaN.
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
    """

    posterior: np.ndarray
    label: np.ndarray
    support: np.ndarray
    tied: np.ndarray
    confusion: np.ndarray | None = None
    priors: np.ndarray | None = None
    n_iter: int = 0
    converged: bool = True


def item_counts(item: np.ndarray, label: np.ndarray, n_items: int, k: int) -> np.ndarray:
    """How many ratings each item got in each category: ``(n_items, K)`` int64, one bincount.

    ``item`` and ``label`` are the codes of the observed ratings (missing ones left out).
    """
    item = np.asarray(item, dtype=np.int64)
    label = np.asarray(label, dtype=np.int64)
    flat = np.bincount(item * k + label, minlength=n_items * k)
    return flat.reshape(n_items, k)


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
    rated = ~np.isnan(posterior).all(axis=1) if n else np.zeros(0, dtype=bool)
    filled = np.where(np.isnan(posterior), -np.inf, posterior)
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
