"""Public function items(): one row per item, its consensus label and how contested it is.

Frame -> every rating of every item with its key (``kappaframe._api.plan.gather_units``)
-> per-item counts -> per-item statistics (``kappaframe._stats.items``) and a consensus
(``kappaframe._stats.consensus``, or Dawid-Skene) -> ``Table`` -> the caller's frame type.
With ``disagreements=`` or a threshold the rows are the adjudication queue: the contested
items only, most contested first, with every rater's label. Nothing here knows a frame
library.
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar, get_args

import numpy as np

from .._encode.codes import canonical_order, object_array, require_order
from .._errors import (
    KappaFrameError,
    KappaFrameTypeError,
    arg,
    bad_option,
    missing_columns,
    ways,
)
from .._frames.render import render
from .._schema import (
    ITEM_COLUMNS,
    ITEM_KEY,
    ITEM_REFERENCE_COLUMNS,
    Column,
    Kind,
    Table,
    check_names,
)
from .._stats import dawid_skene as _model
from .._stats.bootstrap import make_rng
from .._stats.consensus import Chosen, Draws, check_ties, sparse_majority
from .._stats.items import per_item_sparse
from .._types import Closed, ConsensusModel, Duplicates, Ties
from .lazy import Planned, lazy_result, planned_layout
from .options import (
    as_list,
    check_columns,
    check_reference,
    unknown_reference,
    with_reference,
)
from .plan import adapt, gather_units
from .settings.bind import declared
from .settings.reading import ReadSpec
from .units import UnitRatings, key_raters, sorted_units, units_by_key
from .windows import check_windows, in_windows

__all__ = ["CONFUSION_COLUMNS", "CONSENSUS_MODELS", "MAX_LABEL_CELLS", "items", "rater_confusion"]

FrameT = TypeVar("FrameT")

CONSENSUS_MODELS: tuple[str, ...] = get_args(ConsensusModel)

#: The most rater label cells (rows x raters) ``labels=`` shows: beyond it the frame of
#: labels would be larger than the statistics by far (a crowd of thousands of raters).
MAX_LABEL_CELLS = 20_000_000

#: ``rater_confusion``'s columns after the ``by`` columns.
CONFUSION_COLUMNS = ("rater", "true_label", "given_label", "probability", "n_ratings")

#: ``max_iter`` and ``tol`` as ``items`` defaults them (Dawid-Skene's only).
_DEFAULT_MAX_ITER = 100
_DEFAULT_TOL = 1e-7


@dataclass(frozen=True)
class ItemSettings:
    """The checked options of ``items``."""

    consensus: str
    ties: str
    seed: Any
    max_iter: int
    tol: float
    queue: bool
    disagreements: bool
    min_p: float | None
    max_support: float | None
    labels: bool
    reference: Hashable | None


def _named(name: str) -> str:
    """An option's name as the caller writes it: ``min_p`` in Python, ``--min-p``."""
    return ways(name, arg(name))


def _unit_interval(value: Any, name: str) -> float | None:
    if value is None:
        return None
    if (
        isinstance(value, (bool, np.bool_))
        or not isinstance(value, numbers.Real)
        or not 0 <= float(value) <= 1
    ):
        raise KappaFrameError(
            f"{_named(name)} must be a number between 0 and 1 (e.g. 0.5); got {value!r}.",
            option=name,
        )
    return float(value)


def _flag(value: Any, name: str, none: bool = False) -> bool | None:
    if none and value is None:
        return None
    if not isinstance(value, (bool, np.bool_)):
        allowed = "True, False or None" if none else "True or False"
        raise KappaFrameTypeError(f"{_named(name)} must be {allowed}; got {value!r}.", option=name)
    return bool(value)


def item_settings(
    *,
    by: Any,
    reference: Any,
    consensus: Any,
    ties: Any,
    seed: Any,
    max_iter: Any,
    tol: Any,
    disagreements: Any,
    min_p: Any,
    max_support: Any,
    labels: Any,
) -> ItemSettings:
    """Check every option of ``items`` that needs no data; name the option when one is bad."""
    if consensus not in CONSENSUS_MODELS:
        raise bad_option("consensus", consensus, CONSENSUS_MODELS)
    ties = check_ties(ties, seed)
    if seed is not None:
        if ties != "random":
            raise KappaFrameError(
                f"{arg('seed')} draws among tied categories, which only "
                f"{arg('ties', 'random')} does (the consensus is otherwise deterministic); "
                f"pass {arg('ties', 'random')} or drop {arg('seed')}.",
                option="seed",
            )
        try:
            make_rng(seed)
        except KappaFrameError as err:
            raise type(err)(str(err), option="seed") from None
    if (
        isinstance(max_iter, (bool, np.bool_))
        or not isinstance(max_iter, numbers.Integral)
        or max_iter < 1
    ):
        raise KappaFrameError(
            f"{_named('max_iter')} must be a whole number of iterations (>= 1); got {max_iter!r}.",
            option="max_iter",
        )
    if (
        isinstance(tol, (bool, np.bool_))
        or not isinstance(tol, numbers.Real)
        or not 0 < float(tol) < 1
    ):
        raise KappaFrameError(
            f"{_named('tol')} must be a small positive number (e.g. 1e-7); got {tol!r}.",
            option="tol",
        )
    if consensus == "majority" and (max_iter != _DEFAULT_MAX_ITER or tol != _DEFAULT_TOL):
        name = "max_iter" if max_iter != _DEFAULT_MAX_ITER else "tol"
        raise KappaFrameError(
            f"{arg(name)} sets the iterations of {arg('consensus', 'dawid-skene')}; the "
            f"majority vote does not iterate. Pass {arg('consensus', 'dawid-skene')} or drop "
            f"{arg(name)}.",
            option=name,
        )
    disagreements = _flag(disagreements, "disagreements")
    min_p = _unit_interval(min_p, "min_p")
    max_support = _unit_interval(max_support, "max_support")
    queue = bool(disagreements) or min_p is not None or max_support is not None
    shown = _flag(labels, "labels", none=True)
    check_reference(reference)
    check_names(as_list(by), (*ITEM_COLUMNS, *ITEM_REFERENCE_COLUMNS), "items")
    return ItemSettings(
        consensus=str(consensus),
        ties=ties,
        seed=seed,
        max_iter=int(max_iter),
        tol=float(tol),
        queue=queue,
        disagreements=bool(disagreements),
        min_p=min_p,
        max_support=max_support,
        labels=queue if shown is None else shown,
        reference=reference,
    )


#: The options ``item_settings`` checks, read off its signature (as ``pairwise``'s).
_SETTINGS = tuple(inspect.signature(item_settings).parameters)


def _no_labels() -> str:
    """``labels=False`` in the caller's words (``--no-labels`` on the command line)."""
    return ways(arg("labels", False), "--no-labels")


def _check_rater_names(shown: Sequence[Hashable], by: Sequence[Hashable], reference: bool) -> None:
    """Refuse raters whose label columns would take an output column's (or a key's) name."""
    taken = [*by, *ITEM_COLUMNS, *(ITEM_REFERENCE_COLUMNS if reference else ())]
    names = {str(c) for c in taken}
    clash = [r for r in shown if r in set(taken) or str(r) in names]
    if clash:
        raise KappaFrameError(
            f"rater {clash[0]!r} has the name of an output column of items() "
            f"({', '.join(repr(c) for c in taken)}), where its labels would go; rename it "
            f"first, or pass {_no_labels()}.",
            option="labels",
        )


def item_table(
    keys: list[Column],
    item: Column,
    values: dict[str, np.ndarray],
    reference: tuple[np.ndarray, np.ndarray] | None,
    labels: dict[Hashable, np.ndarray],
) -> Table:
    """The items table's columns, in output order.

    ``values``: ``n_ratings``, ``n_distinct``, ``consensus`` (labels, an object array),
    ``support``, ``tied``, ``p_i``, ``entropy``; ``reference``: the reference's labels and
    the ``correct`` flags (int8: -1 missing); ``labels``: each shown rater's labels.
    """
    kinds: dict[str, Kind] = {
        "n_ratings": "int",
        "n_distinct": "int",
        "consensus": "label",
        "support": "float",
        "tied": "bool",
        "p_i": "float",
        "entropy": "float",
    }
    columns = [*keys, item]
    columns += [Column(name, kinds[name], values[name]) for name in ITEM_COLUMNS[1:]]
    if reference is not None:
        columns += [
            Column("reference_label", "label", reference[0]),
            Column("correct", "flag", reference[1]),
        ]
    columns += [Column(name, "label", column) for name, column in labels.items()]
    return Table(columns)


def _plan_items(names: list[Hashable], o: dict[str, Any]) -> Planned | None:
    """``items``' result with no rows (``None`` when its columns depend on the data).

    In the long layout the rater ids are the label columns' names: known from the data only.
    """
    s = item_settings(**{k: o[k] for k in _SETTINGS})
    key = _key(o["item"], o["rater"], o["label"])
    raters = with_reference(o["raters"], s.reference)
    if key is not None:
        by = as_list(o["by"], names)
        check_columns(by, names, "by column")
        raters, _ = key_raters(names, raters, by, key, False)
        o = {**o, "item": None}
    by, rater_list, count = planned_layout(names, ReadSpec.of(o, raters=raters))
    none = np.zeros(0, dtype=np.intp)
    if not rater_list:
        if s.labels:
            return None
        item = Column(ITEM_KEY, "key", none, source=o["item"])
    else:
        if s.reference is not None and s.reference not in rater_list:
            raise unknown_reference(s.reference, rater_list)
        item = Column(ITEM_KEY, "int", none.astype(np.int64))
        if key is not None:
            item = Column(ITEM_KEY, "key", none, source=key)
    shown = [r for r in rater_list if r != s.reference] if s.labels else []
    _check_rater_names(shown, by, s.reference is not None)
    nothing, none = np.zeros(0), np.zeros(0, dtype=object)
    values = {
        "n_ratings": np.zeros(0, dtype=np.int64),
        "n_distinct": np.zeros(0, dtype=np.int64),
        "consensus": none,
        "support": nothing,
        "tied": np.zeros(0, dtype=bool),
        "p_i": nothing,
        "entropy": nothing,
    }
    keys = [Column(b, "key", np.zeros(0, dtype=np.intp), source=b) for b in by]
    ref = (none, np.zeros(0, dtype=np.int8)) if s.reference is not None else None
    table = item_table(keys, item, values, ref, {r: none for r in shown})
    planned = Planned.of(table, raters, count, rater_list)
    labelled = ["consensus", *(["reference_label"] if ref else []), *shown]
    return replace(planned, labelled=labelled)


def _key(item: Hashable | None, *others: Hashable | None) -> Any:
    """The wide layout's item key column: ``item`` given alone (``None`` otherwise).

    ``others``: the long layout's ``rater`` and ``label``; ``item`` with them is the long
    layout's item column, not a key.
    """
    return item if all(o is None for o in others) else None


@declared
@lazy_result(_plan_items, counted=False)
def items(
    data: FrameT,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    time: Hashable | None = None,
    every: str | None = None,
    period: str | None = None,
    offset: str | None = None,
    closed: Closed = "left",
    categories: Sequence[Any] | None = None,
    duplicates: Duplicates = "raise",
    reference: Hashable | None = None,
    consensus: ConsensusModel = "majority",
    ties: Ties = "missing",
    seed: int | np.random.Generator | None = None,
    max_iter: int = _DEFAULT_MAX_ITER,
    tol: float = _DEFAULT_TOL,
    disagreements: bool = False,
    min_p: float | None = None,
    max_support: float | None = None,
    labels: bool | None = None,
) -> FrameT:
    """One row per item: its consensus label, and how much its raters agree on it.

    With ``n_ij`` the ratings of item ``i`` in category ``j`` and ``n_i`` its ratings,
    each item gets Fleiss' (1971) per-subject agreement

        p_i = sum_j n_ij (n_ij - 1) / (n_i (n_i - 1)),

    the share of ordered pairs of its ratings that agree (its mean over the items is
    Fleiss' observed agreement, ``p_o`` of ``overall(method="fleiss")``), the entropy of
    its rating shares, and a consensus label: the majority vote, or Dawid and Skene's
    (1979) model of each rater's confusion. A tie is never broken behind your back.
    With ``disagreements=True`` (or a threshold) the rows are the adjudication queue:
    the items to send back, most contested first, with every rater's label.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library, one row per item (per group; groups sorted,
        then, in the long layout, items sorted by key, in the wide layout in row
        order), with the columns: the ``by`` columns; ``item`` (the item key, see
        ``item``); ``n_ratings``; ``n_distinct`` (labels used);
        ``consensus`` (the label, as the labels are typed; missing for no rating or an
        open tie); ``support`` (the share of ratings, or the posterior probability, of
        the most chosen category: of the consensus, or of each tied one; NaN without a
        rating); ``tied``; ``p_i`` (NaN below two ratings: one rating agrees with
        nobody, so it is no 1.0); ``entropy`` (of the rating shares, in bits: 0 when
        all agree, 1 for an even split of two labels; NaN without a rating); with
        ``reference``, ``reference_label`` and ``correct`` (whether the consensus is
        the reference's label; missing when either is); with ``labels``, one column per
        rater.

        The queue (``disagreements``, ``min_p``, ``max_support``: every test given must
        fail for an item to be sent back) keeps the same columns and orders each group's
        items most contested first: lowest ``p_i``, then lowest ``support``, then the
        item order above.

    Raises
    ------
    KappaFrameError
        As ``pairwise``; a bad option (named); a ``reference`` that is not a rater;
        a rater named like an output column when its labels are shown; Dawid-Skene on
        data where it cannot be identified; too many label cells to show.

    See Also
    --------
    overall : one coefficient over all raters (the mean of ``p_i`` is Fleiss' ``p_o``).
    raters : which rater disagrees with the others.

    Notes
    -----
    An item rated by one rater has ``n_ratings`` 1, its label as consensus with support
    1.0, entropy 0 and no ``p_i``. Missing labels are not ratings; an item whose labels
    are all missing has ``n_ratings`` 0 and no consensus. The random tie break draws
    item by item in the order of the item keys (groups by key, then items by key), and
    picks among the tied labels in their own sorted order, so the same data and seed give
    the same labels whatever the row order, the label codes or the way in.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382.

    Dawid, A. P., & Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28.

    Examples
    --------
    Fleiss' (1971) first five patients, six psychiatrists each:

    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame(
    ...     [[4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5],
    ...      [5, 5, 5, 5, 5, 5], [2, 2, 2, 4, 4, 4]],
    ...     columns=["r1", "r2", "r3", "r4", "r5", "r6"],
    ... )
    >>> res = kf.items(df)
    >>> [round(float(p), 3) for p in res["p_i"]]
    [1.0, 0.4, 0.4, 1.0, 0.4]
    >>> res["consensus"].tolist(), res["tied"].tolist()
    ([4, <NA>, 3, 5, <NA>], [False, True, False, False, True])
    >>> queue = kf.items(df, disagreements=True)
    >>> queue["item"].tolist(), [round(float(s), 3) for s in queue["support"]]
    ([1, 4, 2], [0.5, 0.5, 0.667])
    """
    s = item_settings(
        by=by, reference=reference, consensus=consensus, ties=ties, seed=seed,
        max_iter=max_iter, tol=tol, disagreements=disagreements, min_p=min_p,
        max_support=max_support, labels=labels,
    )  # fmt: skip
    key = _key(item, rater, label)
    if key is not None:
        item = None
    read = ReadSpec(
        raters, item=item, rater=rater, label=label, categories=categories, duplicates=duplicates
    )
    long = read.layout
    windows = check_windows(time, every, period, offset, closed)
    frame, by, row = in_windows(data, windows, by, row=long is None and key is None)
    key = row if row is not None else key
    if s.reference is not None and long is None:
        err = missing_columns([s.reference], frame.columns(), "reference column")
        if err is not None:
            raise KappaFrameError(str(err), option="reference")
    read = read.replace(raters=with_reference(raters, s.reference), by=by)
    units = gather_units(frame, read, key=key)
    return render(_table(units, s), units.keys, units.output)


def _table(units: UnitRatings, s: ItemSettings) -> Table:
    """The items table (or the queue) of the gathered ratings."""
    order, group_of_unit, n_groups = sorted_units(units)
    ref = None
    if s.reference is not None:
        if s.reference not in units.raters:
            raise unknown_reference(s.reference, units.raters)
        ref = units.raters.index(s.reference)
    shown = [r for r in range(len(units.raters)) if r != ref] if s.labels else []
    _check_rater_names([units.raters[r] for r in shown], units.by, ref is not None)
    if s.ties == "first-category":  # the first in an order sorted text would guess
        require_order(
            units.categories,
            declared=units.ordered,
            columns=units.label_columns,
            why=arg("ties", "first-category"),
        )
    counts = units.item_counts(order, leave_out=ref)  # the pairs that occur, output order
    n = counts.n_items
    group = group_of_unit[order]
    draws = None
    if s.ties == "random":  # items by key, tied labels in their own order: any way in
        draws = Draws(units_by_key(units, order, group), canonical_order(units.categories))
    stats = per_item_sparse(counts)
    if not len(units.categories):  # no label at all: no consensus to look for
        nothing = np.full(n, np.nan)
        found = Chosen(np.full(n, -1), nothing, np.zeros(n, bool), nothing)
    elif s.consensus == "majority":
        found = sparse_majority(counts, s.ties, s.seed, draws)
    else:
        found = _dawid_skene(units, order, group, n_groups, ref, s, draws=draws)
    rated = stats["n_ratings"] > 0
    top = np.where(rated, found.top, np.nan)
    chosen = np.where(rated, found.label, -1)  # a model's prior is no label for the unrated
    support = np.where(chosen >= 0, found.support, top)
    tied = np.asarray(found.tied, dtype=bool) & rated

    rows = np.arange(n)
    if s.queue:
        keep = np.ones(n, dtype=bool)
        if s.disagreements:
            keep &= stats["n_distinct"] > 1
        with np.errstate(invalid="ignore"):
            if s.min_p is not None:
                keep &= stats["p_i"] < s.min_p
            if s.max_support is not None:
                keep &= support <= s.max_support
        rows = np.flatnonzero(keep)
        contested = (  # last key first: item order, support, p_i, group
            rows,
            np.nan_to_num(support[rows], nan=np.inf),
            np.nan_to_num(stats["p_i"][rows], nan=np.inf),
            group[rows],
        )
        rows = rows[np.lexsort(contested)]
    unit = order[rows]
    names = object_array(units.categories)

    def labelled(codes: np.ndarray) -> np.ndarray:
        out = np.empty(len(codes), dtype=object)
        given = codes >= 0
        out[given] = names[codes[given]]
        return out

    values = {name: stats[name][rows] for name in ("n_ratings", "n_distinct", "p_i", "entropy")}
    values.update(consensus=labelled(chosen[rows]), support=support[rows], tied=tied[rows])
    reference = None
    if ref is not None:
        truth = units.rater_labels(ref)[unit]
        given = chosen[rows]
        correct = np.where((truth >= 0) & (given >= 0), truth == given, -1).astype(np.int8)
        reference = (labelled(truth), correct)
    shown_labels: dict[Hashable, np.ndarray] = {}
    if shown:
        cells = len(rows) * len(shown)
        if cells > MAX_LABEL_CELLS:
            raise KappaFrameError(
                f"the raters' label columns would hold {cells:,} cells ({len(rows):,} items "
                f"x {len(shown):,} raters); pass {_no_labels()}, a threshold "
                f"({arg('min_p')}, {arg('max_support')}) or fewer raters "
                f"({arg('raters', ...)}).",
                option="labels",
            )
        matrix = units.label_matrix(unit, np.asarray(shown, dtype=np.intp))
        shown_labels = {units.raters[r]: labelled(matrix[j]) for j, r in enumerate(shown)}
    keys = [Column(b, "key", unit, source=b) for b in units.by]
    if units.positions is not None:
        item = Column(ITEM_KEY, "int", units.positions[unit])
    else:
        item = Column(ITEM_KEY, "key", unit, source=units.item_column)
    return item_table(keys, item, values, reference, shown_labels)


def _group_draws(draws: Draws | None, lo: int, hi: int) -> Draws | None:
    """The draws of the output rows ``lo:hi`` (one group: its rows come together)."""
    if draws is None or draws.rows is None:
        return draws
    return Draws(draws.rows[lo:hi] - lo, draws.categories)


def _dawid_skene(
    units: UnitRatings,
    order: np.ndarray,
    group: np.ndarray,
    n_groups: int,
    ref: int | None,
    s: ItemSettings,
    fits: list[tuple[int, np.ndarray, np.ndarray]] | None = None,
    draws: Draws | None = None,
) -> Chosen:
    """Dawid-Skene's consensus of each unit (in output order), fitted group by group.

    ``fits`` collects each group's confusion matrices: ``(group, its raters' positions,
    the matrices)``. ``draws``: the order of the random tie break (its rows in output
    order). No table of items x labels beyond one group's posteriors
    (``kappaframe._stats.dawid_skene.fit_model``, which checks their size first).
    """
    k = len(units.categories)
    n = len(order)
    position = np.empty(n, dtype=np.intp)
    position[order] = np.arange(n, dtype=np.intp)
    unit, rater, label = units.ratings()
    if ref is not None:
        keep = rater != ref
        unit, rater, label = unit[keep], rater[keep], label[keep]
    where = position[unit]
    top = np.full(n, np.nan)
    chosen = np.full(n, -1, dtype=np.intp)
    support = np.full(n, np.nan)
    tied = np.zeros(n, dtype=bool)
    bounds = np.searchsorted(group, np.arange(n_groups + 1))  # groups are contiguous
    by_row = np.argsort(where, kind="stable")
    starts = np.searchsorted(where[by_row], bounds)
    for g in range(n_groups):
        lo, hi = bounds[g], bounds[g + 1]
        if hi == lo:
            continue
        picked = by_row[starts[g] : starts[g + 1]]
        present, local_rater = np.unique(rater[picked], return_inverse=True)
        fit = _model.dawid_skene(
            where[picked] - lo,
            local_rater.astype(np.intp),
            label[picked],
            int(hi - lo),
            len(present),
            k,
            max_iter=s.max_iter,
            tol=s.tol,
            ties=s.ties,
            seed=s.seed,
            draws=_group_draws(draws, lo, hi),
            table=fits is not None,  # the confusion matrices; else no items x labels table
        )
        if fits is not None:
            assert fit.confusion is not None  # a model's fit has its confusion matrices
            fits.append((g, present, fit.confusion))
            continue
        top[lo:hi] = fit.top
        chosen[lo:hi] = fit.label
        support[lo:hi] = fit.support
        tied[lo:hi] = fit.tied
        del fit  # one group's model at a time
    return Chosen(chosen, support, tied, top)


@declared
def rater_confusion(
    data: FrameT,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    categories: Sequence[Any] | None = None,
    duplicates: Duplicates = "raise",
    max_iter: int = _DEFAULT_MAX_ITER,
    tol: float = _DEFAULT_TOL,
) -> FrameT:
    """Each rater's confusion matrix under Dawid & Skene's model, as a tidy frame.

    The model ``items(..., consensus="dawid-skene")`` fits (per group): for every rater,
    true category and given category, the probability that the rater gives that label
    to an item of that true category. Each rater's rows for one true category sum to 1.
    A rater who is always right has probability 1 on the diagonal; a rater who swaps two
    labels has it off the diagonal.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame of the input's library
        The ``by`` columns, then ``rater``, ``true_label``, ``given_label``,
        ``probability`` and ``n_ratings`` (the ratings the rater gave in the group): one
        row per rater, true and given category, raters in their order, categories in the
        categories' order.

    Raises
    ------
    KappaFrameError
        A group where no item was rated by two raters (the model cannot be identified).

    See Also
    --------
    items : The consensus label of each item, from the same model.

    References
    ----------
    Dawid, A. P., & Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({
    ...     "a": ["x", "y", "x", "y", "x", "y"],
    ...     "b": ["x", "y", "x", "y", "x", "y"],
    ...     "swap": ["y", "x", "y", "x", "y", "x"],
    ... })
    >>> res = kf.rater_confusion(df)
    >>> swap = res[res["rater"] == "swap"]
    >>> [round(float(p), 3) for p in swap["probability"]]
    [0.0, 1.0, 1.0, 0.0]
    """
    s = item_settings(
        by=by, reference=None, consensus="dawid-skene", ties="missing", seed=None,
        max_iter=max_iter, tol=tol, disagreements=False, min_p=None, max_support=None,
        labels=False,
    )  # fmt: skip
    key = _key(item, rater, label)
    if key is not None:
        item = None
    read = ReadSpec(
        raters,
        by=by,
        item=item,
        rater=rater,
        label=label,
        categories=categories,
        duplicates=duplicates,
    )
    check_names(as_list(by), CONFUSION_COLUMNS, "rater_confusion")
    units = gather_units(adapt(data), read, key=key)
    return render(_confusion_table(units, s), units.keys, units.output)


def _confusion_table(units: UnitRatings, s: ItemSettings) -> Table:
    """One row per group, rater, true and given category of the fitted models."""
    order, group_of_unit, n_groups = sorted_units(units)
    k = len(units.categories)
    fits: list[tuple[int, np.ndarray, np.ndarray]] = []
    if k:
        _dawid_skene(units, order, group_of_unit[order], n_groups, None, s, fits)
    first = np.searchsorted(group_of_unit[order], np.arange(n_groups))
    parts: dict[str, list[np.ndarray]] = {n: [] for n in ("unit", "rater", "c", "j", "p", "n")}
    unit, rater, _ = units.ratings()
    for g, present, confusion in fits:
        in_group = group_of_unit[unit] == g
        given = np.bincount(rater[in_group], minlength=len(units.raters))[present]
        r, c, j = np.meshgrid(np.arange(len(present)), np.arange(k), np.arange(k), indexing="ij")
        parts["unit"].append(np.full(r.size, order[first[g]], dtype=np.intp))
        parts["rater"].append(present[r.ravel()])
        parts["c"].append(c.ravel())
        parts["j"].append(j.ravel())
        parts["p"].append(confusion.reshape(-1))
        parts["n"].append(np.repeat(given.astype(np.int64), k * k))
    joined = {
        name: np.concatenate(values) if values else np.zeros(0, dtype=np.intp)
        for name, values in parts.items()
    }
    names = object_array(units.categories)
    columns = [Column(b, "key", joined["unit"], source=b) for b in units.by]
    columns += [
        Column("rater", "name", joined["rater"].astype(np.intp), categories=list(units.raters)),
        Column("true_label", "label", names[joined["c"].astype(np.intp)]),
        Column("given_label", "label", names[joined["j"].astype(np.intp)]),
        Column("probability", "float", joined["p"].astype(float)),
        Column("n_ratings", "int", joined["n"].astype(np.int64)),
    ]
    return Table(columns)
