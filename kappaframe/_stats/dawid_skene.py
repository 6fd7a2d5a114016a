"""Dawid-Skene consensus: EM over each rater's confusion matrix (Dawid & Skene 1979).

Each item has an unknown true category, drawn with the prior ``pi[c]``; rater ``r``
gives category ``l`` to an item whose true category is ``c`` with probability
``theta[r, c, l]`` (a row of the rater's confusion matrix). Expectation-maximisation
alternates two steps, starting from the majority vote's shares:

- E-step: the posterior of each item's true category, in logs,
  ``log pi[c] + sum over the item's ratings of log theta[r, c, l]``, exponentiated
  after subtracting each item's largest term and normalised;
- M-step: ``pi[c]`` is the mean posterior of the rated items, and ``theta[r, c, l]`` the
  posterior mass of category ``c`` over rater ``r``'s ratings ``l`` (the expected counts),
  each row normalised.

Both steps are sums over the ratings by segment: the ratings are put in order once by
item and once by (rater, given label) cell, and each step is, per category, one gather
(``np.take``) and one ``np.add.reduceat`` over the segments, with no Python loop over
items, raters or ratings.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any, NamedTuple

import numpy as np

from .._count import kernel
from .._errors import ConvergenceWarning, KappaFrameError, arg, user_stacklevel, ways
from .consensus import Chosen, Consensus, Draws, check_ties, settle, sparse_item_counts

__all__ = [
    "FLOOR",
    "TIE_ATOL",
    "Fit",
    "chosen_of",
    "confusion_of",
    "dawid_skene",
    "fit_model",
    "model_bytes",
]

#: The smallest expected count of a (rater, given label, true category) cell, and the
#: smallest prior of a category somebody gave, before normalising (crowd-kit's floor).
#: It keeps every logarithm finite: a rating no current estimate explains would
#: otherwise rule every category out (log 0) for its item.
FLOOR = 1e-10

#: Up to this many (rater, label) cells, the ratings are put in cell order by a radix sort.
_RADIX_CELLS = 1 << 16

#: Posteriors within this of an item's largest tie (summation order moves them by ~1e-16).
TIE_ATOL = 1e-9


class _Layout(NamedTuple):
    """The ratings in two orders, as segments for ``np.add.reduceat``.

    Rows are the rated items (numbered in item order), cells the (rater, label given)
    pairs that occur (numbered in rater, then label order).
    """

    rated: np.ndarray  # (n_items,) bool: items with a rating
    item_starts: np.ndarray  # start of each row's ratings, in (row, cell) order
    cell_by_item: np.ndarray  # cell of each rating, in (row, cell) order
    row_by_cell: np.ndarray  # row of each rating, in (cell, row) order
    cell_starts: np.ndarray  # start of each cell's ratings, in (cell, row) order
    cells: np.ndarray  # each cell's flat id, rater * K + label (increasing)
    rater_of_cell: np.ndarray  # each cell's rater, numbered among the raters with ratings
    rater_starts: np.ndarray  # start of each such rater's cells


def dawid_skene(
    item_codes: np.ndarray,
    rater_codes: np.ndarray,
    label_codes: np.ndarray,
    n_items: int,
    n_raters: int,
    k: int,
    *,
    max_iter: int = 100,
    tol: float = 1e-7,
    ties: str = "missing",
    seed: Any = None,
    draws: Draws | None = None,
    table: bool = True,
) -> Consensus:
    """Consensus labels of the Dawid-Skene model, fitted by EM, and each rater's confusion.

    The model: item ``i`` has a true category ``c`` with prior ``pi[c]``, and rater ``r``
    gives it label ``l`` with probability ``theta[r, c, l]``, independently of the other
    raters. EM starts from the majority vote's shares (as posteriors), then repeats the
    E-step (each item's posterior given ``pi`` and ``theta``, in logs) and the M-step
    (``pi`` the mean posterior, ``theta`` the rows of expected counts)::

        posterior[i, c]  ~  pi[c] * prod over i's ratings (r, l) of theta[r, c, l]
        theta[r, c, l]   =  sum of posterior[i, c] over r's ratings l, row-normalised

    Parameters
    ----------
    item_codes, rater_codes, label_codes : ndarray of int
        The observed ratings, one entry each: the item's code (``0 .. n_items - 1``), the
        rater's (``0 .. n_raters - 1``) and the label's category (``0 .. k - 1``).
        Missing ratings are left out. A rater may rate an item more than once.
    n_items, n_raters, k : int
        How many items, raters and categories the codes number.
    max_iter : int, default 100
        The most EM iterations to run.
    tol : float, default 1e-7
        EM stops when the log-likelihood per rating rises by less than ``tol`` from one
        iteration to the next (crowd-kit stops the same way on its evidence lower bound,
        with ``tol=1e-5``).
    ties : {"missing", "first-category", "random"}, default "missing"
        What a tie between the most probable categories (within ``TIE_ATOL``) gives: no
        consensus (``label`` -1, ``tied`` True), the first of them in the category order,
        or one of them drawn with ``seed``.
    seed : int, optional
        Needed by ``ties="random"``.
    draws : Draws, optional
        The order of the random tie break's draws (items, then categories).
    table : bool, default True
        Keep the ``(n_items, K)`` posterior and the ``(n_raters, K, K)`` confusion. With
        False, ``posterior`` and ``confusion`` are None and ``largest`` holds each item's
        largest posterior: the same labels, supports and ties in the memory of one
        posterior of the rated items (what ``kappaframe.items`` needs).

    Returns
    -------
    Consensus
        ``posterior`` (n_items, K), NaN rows for items with no rating; ``label``,
        ``support`` and ``tied`` from the posterior; ``confusion`` (n_raters, K, K), row the
        true category and column the label given, rows summing to 1 (NaN for a rater with
        no rating); ``priors`` (K,); ``n_iter`` the EM iterations run; ``converged``.

    Raises
    ------
    KappaFrameError
        When no item was rated by two raters or more (the model cannot tell a rater's
        errors from the items' categories), for a bad ``max_iter``, ``tol`` or
        ``ties``, or when the fit would hold more than
        ``kappaframe._count.kernel.MAX_COUNT_BYTES`` (counted before it is allocated).

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` iterations end before the tolerance is met (``converged`` is
        then False and the results are the last iteration's).

    Notes
    -----
    The start, the order of each iteration and the floor follow crowd-kit's
    ``DawidSkene``: the returned posterior is the last E-step's, ``confusion`` and
    ``priors`` the M-step's after it, and the change is measured once an iteration (never
    after the first). With the same iterations, both give the same posteriors. They may
    stop at different iterations: the change here is that of the log-likelihood, which
    EM never lowers, where crowd-kit measures its evidence lower bound. EM finds a local
    maximum of the likelihood, the one uphill from the majority vote.

    Expected counts below ``FLOOR`` (1e-10) are raised to it, in the cells of the labels a
    rater gave, before the rows are normalised; labels a rater never gave have
    probability 0 in that rater's matrix, which is also the maximum-likelihood estimate.
    Priors below the floor are raised to it in the E-step, except for categories nobody
    gave, whose prior and posterior stay 0. A true category with no expected count for a
    rater (no posterior mass on the items the rater rated) gets a uniform row over the
    labels the rater gave.

    The work per iteration is linear in the ratings: per category, two gathers and two
    segment sums. Two sorts of the ratings come first, once. Memory: one posterior of
    the rated items ``(K, rows)`` and one ``theta`` ``(K, cells)``, each step writing over
    the last, beside the ratings (``model_bytes``; with ``table``, the ``(n_items, K)``
    posterior and the confusion too), checked against
    ``kappaframe._count.kernel.MAX_COUNT_BYTES`` before they are allocated.

    References
    ----------
    Dawid, A. P., & Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. Journal of the Royal Statistical Society, Series
    C (Applied Statistics), 28(1), 20-28.

    Examples
    --------
    Three raters; the third swaps the two categories every time:

    >>> import numpy as np
    >>> item = np.repeat(np.arange(6), 3)
    >>> rater = np.tile([0, 1, 2], 6)
    >>> label = np.array([0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0])
    >>> model = dawid_skene(item, rater, label, n_items=6, n_raters=3, k=2)
    >>> model.label.tolist()
    [0, 1, 0, 1, 0, 1]
    >>> np.round(model.confusion[2], 2).tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    """
    max_iter, tol = _check_options(max_iter, tol)
    check_ties(ties, seed)
    # The table: the posterior, its NaN-free copy in settle, and three of the confusion.
    extra = (16 * n_items * k + 24 * n_raters * k * k) if table else 0
    fit = fit_model(
        item_codes, rater_codes, label_codes, n_items, n_raters, k, max_iter, tol, extra
    )
    if not table:
        got = chosen_of(fit, n_items, ties, seed, draws)
        return Consensus(
            posterior=None,
            label=got.label,
            support=got.support,
            tied=got.tied,
            priors=fit.prior,
            n_iter=fit.n_iter,
            converged=fit.converged,
            largest=got.top,
        )
    posterior = np.full((n_items, k), np.nan)
    posterior[fit.layout.rated] = fit.post.T
    chosen, support, tied = settle(posterior, ties, seed, atol=TIE_ATOL, draws=draws)
    return Consensus(
        posterior=posterior,
        label=chosen,
        support=support,
        tied=tied,
        confusion=confusion_of(fit, n_raters, k),
        priors=fit.prior,
        n_iter=fit.n_iter,
        converged=fit.converged,
    )


class Fit(NamedTuple):
    """The fitted model, as ``fit_model`` leaves it.

    ``post`` ``(K, rows)``: the rated items' posteriors, category-major; ``prior``
    ``(K,)``; ``theta`` ``(K, cells)`` (see ``_m_step``); the ratings' ``layout``.
    """

    post: np.ndarray
    prior: np.ndarray
    theta: np.ndarray
    layout: _Layout
    n_iter: int
    converged: bool


def model_bytes(n_rows: int, n_cells: int, k: int) -> int:
    """The peak bytes of a fit beyond its ratings: what ``fit_model`` checks first.

    One posterior ``(K, rows)`` and one ``theta`` ``(K, cells)`` in float64 (each step
    writes over the last), and two boolean ``(K, rows)`` masks when the labels are chosen
    (``settle``).
    """
    return 8 * k * (n_rows + n_cells) + 2 * k * n_rows


def fit_model(
    item_codes: np.ndarray,
    rater_codes: np.ndarray,
    label_codes: np.ndarray,
    n_items: int,
    n_raters: int,
    k: int,
    max_iter: int = 100,
    tol: float = 1e-7,
    extra: int = 0,
) -> Fit:
    """Fit the model by EM (``dawid_skene``'s parameters); no ``(n_items, K)`` table.

    The posteriors are the one array that grows with items x categories (every category
    keeps some probability: the floor); ``model_bytes`` of them, and ``extra`` bytes the
    caller will add, are checked against ``kappaframe._count.kernel.MAX_COUNT_BYTES``
    before anything that size is allocated.
    """
    max_iter, tol = _check_options(max_iter, tol)
    item = np.asarray(item_codes, dtype=np.intp)
    rater = np.asarray(rater_codes, dtype=np.intp)
    label = np.asarray(label_codes, dtype=np.intp)
    if not len(item) == len(rater) == len(label):
        raise ValueError(
            f"item, rater and label must have one entry per rating; got lengths "
            f"{len(item)}, {len(rater)} and {len(label)}."
        )
    layout = _layout((item, rater, label), n_items, n_raters, k)
    n_rows, n_cells = len(layout.item_starts), len(layout.cells)
    _check_size(n_rows, n_cells, k, extra)
    n_ratings = len(item)

    given = np.bincount(label, minlength=k) > 0  # categories somebody gave
    # The majority vote's shares, category-major like every posterior here.
    row = (np.cumsum(layout.rated) - 1)[item]
    pairs = sparse_item_counts(row, label, n_rows, k)
    per_row = np.diff(np.append(layout.item_starts, n_ratings))
    post = np.zeros((k, n_rows))
    post[pairs.label, pairs.item] = pairs.tally / per_row[pairs.item]
    theta = np.empty((k, n_cells))
    prior = _m_step(post, layout, theta)
    previous = -np.inf
    change = np.inf
    converged = False
    n_iter = 0
    while n_iter < max_iter:
        n_iter += 1
        loglik = _e_step(prior, theta, given, layout, post)
        prior = _m_step(post, layout, theta)
        change = loglik / n_ratings - previous
        if change < tol:
            converged = True
            break
        previous = loglik / n_ratings
    if not converged:
        warnings.warn(
            f"Dawid-Skene did not converge in {max_iter} iterations: the log-likelihood per "
            f"rating still rose by {change:.3g} in the last one ({ways('tol', arg('tol'))} "
            f"is {tol:g}). Allow more with {arg('max_iter', 10 * max_iter)}, or a looser "
            f"{ways('tol', arg('tol'))}; the results are the last iteration's.",
            ConvergenceWarning,
            stacklevel=user_stacklevel(),
        )
    return Fit(post, prior, theta, layout, n_iter, converged)


def _check_size(n_rows: int, n_cells: int, k: int, extra: int) -> None:
    size = model_bytes(n_rows, n_cells, k) + extra
    limit = kernel.MAX_COUNT_BYTES  # read now: the caller may have raised it
    if size > limit:
        gib = 1024**3
        raise KappaFrameError(
            f"Dawid-Skene would hold {size / gib:.1f} GiB ({n_rows:,} items x {k:,} labels "
            f"of posteriors, {n_cells:,} (rater, label) cells x {k:,} of confusions), over "
            f"the {limit / gib:.1f} GiB limit. Use "
            f"{arg('consensus', 'majority')} (its memory grows with the ratings), fewer "
            f"items per call (one {arg('by')} group at a time), or merge rare labels; or "
            "raise kappaframe._count.kernel.MAX_COUNT_BYTES if the memory is there.",
            option="consensus",
        )


def chosen_of(
    fit: Fit,
    n_items: int,
    ties: str = "missing",
    seed: Any = None,
    draws: Draws | None = None,
) -> Chosen:
    """``dawid_skene``'s labels, supports and ties from ``fit``, without its posterior table.

    The same numbers: ``settle`` reads the rated items' posteriors in place.
    """
    check_ties(ties, seed)
    rated = fit.layout.rated
    label = np.full(n_items, -1, dtype=np.intp)
    support = np.full(n_items, np.nan)
    tied = np.zeros(n_items, dtype=bool)
    top = np.full(n_items, np.nan)
    if draws is not None and draws.rows is not None:  # the rated rows, in draw order
        rank = np.empty(n_items, dtype=np.intp)
        rank[draws.rows] = np.arange(n_items, dtype=np.intp)
        local = np.argsort(rank[rated], kind="stable")  # rows numbered among the rated
        draws = Draws(local.astype(np.intp), draws.categories)
    scores = fit.post.T  # a view: (rows, K)
    label[rated], support[rated], tied[rated] = settle(
        scores, ties, seed, atol=TIE_ATOL, draws=draws
    )
    top[rated] = scores.max(axis=1)  # a fit has rated items
    return Chosen(label, support, tied, top)


def _check_options(max_iter: Any, tol: Any) -> tuple[int, float]:
    """``max_iter`` a whole number >= 1, ``tol`` a number >= 0."""
    if (
        isinstance(max_iter, (bool, np.bool_))
        or not isinstance(max_iter, numbers.Integral)
        or max_iter < 1
    ):
        raise KappaFrameError(
            f"{ways('max_iter', arg('max_iter'))} must be a whole number of iterations "
            f"(>= 1); got {max_iter!r}. The default, {arg('max_iter', 100)}, is plenty "
            "for most crowds.",
            option="max_iter",
        )
    if (
        isinstance(tol, (bool, np.bool_))
        or not isinstance(tol, numbers.Real)
        or not np.isfinite(float(tol))
        or tol < 0
    ):
        raise KappaFrameError(
            f"{ways('tol', arg('tol'))} must be a number >= 0 (the smallest rise of the "
            f"log-likelihood per rating that keeps EM going); got {tol!r}. The default is "
            f"{arg('tol', 1e-7)}.",
            option="tol",
        )
    return int(max_iter), float(tol)


def _layout(
    codes: tuple[np.ndarray, np.ndarray, np.ndarray], n_items: int, n_raters: int, k: int
) -> _Layout:
    """Order the ratings by (row, cell) and by (cell, row); refuse a model with no overlap.

    ``codes``: the ratings' item, rater and label codes, one entry each.

    The first order is one sort of integer keys (the values, not an argsort): the row and
    the cell come back from a key by division. Both factors of a key are at most the
    number of ratings, so it fits in int64. The second is a stable radix sort of the first
    by cell when the cells fit in 16 bits, a sort of keys otherwise. The orders depend
    only on the ratings, not on the order they came in.
    """
    item, rater, label = codes
    per_item = np.bincount(item, minlength=n_items)
    rated = per_item > 0
    n_rows = int(np.count_nonzero(rated))
    row = (np.cumsum(rated) - 1)[item]  # numbered among the rated items
    flat_cell = rater * k + label
    per_cell = np.bincount(flat_cell, minlength=n_raters * k)
    used = per_cell > 0
    cells = np.flatnonzero(used)
    n_cells = len(cells)
    cell = (np.cumsum(used) - 1)[flat_cell]  # numbered among the cells that occur

    # Timsort ("stable") is fast on ratings that come grouped by item, quicksort otherwise.
    grouped = bool((item[1:] >= item[:-1]).all())
    by_item = np.sort(row * n_cells + cell, kind="stable" if grouped else "quicksort")
    cell_by_item = by_item % n_cells
    # Within a row's run, the raters are in order: two raters iff two neighbours differ.
    row_sorted = by_item // n_cells
    rater_sorted = cells[cell_by_item] // k
    overlap = (row_sorted[1:] == row_sorted[:-1]) & (rater_sorted[1:] != rater_sorted[:-1])
    if not overlap.any():
        raise KappaFrameError(
            f"Dawid-Skene cannot be fitted: no item was rated by two raters or more "
            f"({len(item)} rating(s) in all), so nothing tells a rater's errors from the "
            f"items' true categories. Use {arg('consensus', 'majority')}, or add ratings "
            "where raters overlap (some items rated by two raters or more).",
            option="consensus",
        )
    if n_cells <= _RADIX_CELLS:  # a stable radix sort of 16-bit codes: (cell, row) order
        row_by_cell = row_sorted[np.argsort(cell_by_item.astype(np.uint16), kind="stable")]
    else:
        row_by_cell = np.sort(cell * n_rows + row) % n_rows

    cell_rater = cells // k
    new_rater = np.ones(n_cells, dtype=bool)
    new_rater[1:] = cell_rater[1:] != cell_rater[:-1]
    return _Layout(
        rated=rated,
        item_starts=np.cumsum(per_item[rated]) - per_item[rated],
        cell_by_item=cell_by_item,
        row_by_cell=row_by_cell,
        cell_starts=np.cumsum(per_cell[used]) - per_cell[used],
        cells=cells,
        rater_of_cell=np.cumsum(new_rater) - 1,
        rater_starts=np.flatnonzero(new_rater),
    )


def _m_step(post: np.ndarray, layout: _Layout, theta: np.ndarray) -> np.ndarray:
    """Priors, and ``theta[c, j]`` for each category ``c`` and cell ``j`` (written over).

    ``theta[c, j]`` is the probability that cell ``j``'s rater gives cell ``j``'s label to
    an item of true category ``c``. ``post`` is category-major, ``(K, rows)``: each
    category's sums run over contiguous memory, one category at a time (no other
    ``(K, cells)`` array).
    """
    prior = post.mean(axis=1)
    for c, share in enumerate(post):
        row = theta[c]
        row[:] = np.add.reduceat(np.take(share, layout.row_by_cell), layout.cell_starts)
        np.maximum(row, FLOOR, out=row)
        per_rater = np.add.reduceat(row, layout.rater_starts)
        row /= np.take(per_rater, layout.rater_of_cell)
    return prior


def _e_step(
    prior: np.ndarray, theta: np.ndarray, given: np.ndarray, layout: _Layout, out: np.ndarray
) -> float:
    """Each rated item's posterior ``(K, rows)`` into ``out``; the data's log-likelihood."""
    log_prior = np.where(given, np.log(np.maximum(prior, FLOOR)), -np.inf)
    joint = out
    for c, row in enumerate(theta):
        joint[c] = np.add.reduceat(np.take(np.log(row), layout.cell_by_item), layout.item_starts)
    joint += log_prior[:, None]
    top = joint.max(axis=0)
    joint -= top
    np.exp(joint, out=joint)
    total = joint.sum(axis=0)
    joint /= total
    return float((top + np.log(total)).sum())


def confusion_of(fit: Fit, n_raters: int, k: int) -> np.ndarray:
    """``(n_raters, K, K)``: row the true category, column the label given."""
    theta, layout = fit.theta, fit.layout
    flat = np.full((n_raters * k, k), np.nan)  # rows (rater, label given), columns true
    active = np.zeros(n_raters, dtype=bool)
    active[layout.cells // k] = True
    flat[np.repeat(active, k)] = 0.0  # labels a rater never gave
    flat[layout.cells] = theta.T
    return np.ascontiguousarray(flat.reshape(n_raters, k, k).transpose(0, 2, 1))
