"""Threshold tuning: kappa, accuracy and confusion counts of ``score >= t`` at every ``t``.

One sort, then cumulative counts: the positives at or above each threshold are read off a
cumulative sum with one ``searchsorted``, for every group at once. The 2 x 2 tables go
through the shared ``kappaframe._stats.agreement.agreement``, like every other kappa.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from .._encode.codes import Factorized, Groups, encode_groups
from .._errors import KappaFrameError, KappaFrameTypeError, missing_columns, warn_undefined
from .._frames.arrays import factorize_any, factorize_scores, scores_array
from .._frames.native import eager_adapter
from .._frames.pandas import render as pandas_render
from .._schema import SWEEP_COLUMNS, Column, Table, check_names
from .._stats.agreement import agreement, weight_matrix
from .options import as_list
from .settings.bind import declared

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["threshold_sweep"]

FrameT = TypeVar("FrameT")


_BINARY_SETS = ({0, 1}, {-1, 1}, {False, True})


@declared
def threshold_sweep(
    y_true: Any,
    scores: Any,
    thresholds: ArrayLike | None = None,
    *,
    data: FrameT | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    pos_label: Any = None,
) -> Any:
    """Cohen's kappa of ``score >= threshold`` against the truth, at every threshold.

    At threshold ``t`` the prediction is positive where ``score >= t``; its 2 x 2 table
    with the truth gives ``tn``, ``fp``, ``fn``, ``tp``, ``accuracy = (tp + tn) / n``
    (this is ``p_o``), chance agreement
    ``p_e = ((tn + fn)(tn + fp) + (fp + tp)(fn + tp)) / n^2`` and
    ``kappa = (p_o - p_e) / (1 - p_e)``. Scores are sorted once (per group) and
    the counts at every threshold are read off cumulative sums, so a sweep over all
    distinct scores costs one sort.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame
        pandas for arrays, the library of ``data`` otherwise, with the columns: the ``by``
        columns; ``threshold``; ``n`` (rows with a truth and a score); ``tn``, ``fp``,
        ``fn``, ``tp`` (int64; positive = ``score >= threshold``); ``accuracy``; ``p_e``;
        ``kappa`` (NaN where undefined); ``best`` (bool: the threshold of highest kappa in
        its group; on ties the lowest such threshold). Rows are sorted by group, then
        threshold.

    Raises
    ------
    KappaFrameError
        Truth with more than two labels, or two labels and no way to tell the positive
        one; a truth with no positive (1 / True) and no ``pos_label``; ``pos_label`` not
        among the labels; scores that are not numbers; arrays
        of different lengths; unknown columns.

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, when kappa is undefined at some threshold (a group
        whose truth has a single class, predicted as that class).

    See Also
    --------
    cohen_kappa : kappa of two label arrays.

    Examples
    --------
    >>> import kappaframe as kf
    >>> sweep = kf.threshold_sweep([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> sweep["threshold"].tolist()
    [0.1, 0.2, 0.35, 0.4, 0.8, 0.9]
    >>> best = sweep[sweep["best"]].iloc[0]
    >>> float(best["threshold"]), round(float(best["kappa"]), 4), int(best["fp"])
    (0.35, 0.6667, 1)
    """
    grid = _thresholds(thresholds)
    if data is None:
        if by is not None:
            raise KappaFrameError("by= needs data=: pass the frame and name the columns.")
        truth, ranks = _arrays(y_true, scores, pos_label)
        table, undefined = _sweep(truth, *ranks, encode_groups([], len(truth)), grid, [])
        warn_undefined(*undefined, "thresholds")
        return pandas_render(table)

    frame = eager_adapter(data)
    if frame is None:
        raise KappaFrameTypeError(
            "threshold_sweep(data=...) takes a pandas or polars DataFrame (or LazyFrame); got "
            f"{type(data).__module__}.{type(data).__qualname__}."
        )
    by_list = _sweep_columns(frame.columns(), y_true, scores, by)
    frame.load([*by_list, y_true, scores])
    truth = _positive(frame.labels(y_true), pos_label, repr(y_true))
    rank, values = _ranks(frame.labels(scores), repr(scores))
    groups = encode_groups([frame.keys(b) for b in by_list], frame.n_rows)
    result, undefined = _sweep(truth, rank, values, groups, grid, by_list)
    warn_undefined(*undefined, "threshold x group cells")
    return frame.render(result)


def _sweep_columns(names: list[Any], y_true: Any, scores: Any, by: Any) -> list[Any]:
    """The ``by`` columns, once the truth, score and ``by`` columns are found in ``names``."""
    by_list = as_list(by, names)
    for role, cols in (
        ("truth column", [y_true]),
        ("score column", [scores]),
        ("by column", by_list),
    ):
        err = missing_columns(cols, names, role)
        if err is not None:
            raise err
    check_names(by_list, SWEEP_COLUMNS, "threshold_sweep")
    return by_list


def _thresholds(thresholds: Any) -> np.ndarray | None:
    if thresholds is None:
        return None
    try:
        grid = np.asarray(thresholds, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise KappaFrameTypeError(f"thresholds must be numbers; got {thresholds!r}.") from None
    if np.isnan(grid).any():
        raise KappaFrameError("thresholds must not contain NaN.")
    return np.unique(grid)


def _arrays(
    y_true: Any, scores: Any, pos_label: Any
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    if isinstance(y_true, (str, bytes)) or isinstance(scores, (str, bytes)):
        raise KappaFrameTypeError(
            "y_true and scores must be arrays; to name columns of a frame pass data=frame."
        )
    truth = _positive(factorize_any(y_true, "y_true"), pos_label, "y_true")
    score = scores_array(scores)
    if len(truth) != len(score):
        raise KappaFrameError(
            f"y_true and scores must have the same length; got {len(truth)} and {len(score)}."
        )
    return truth, _ranks(factorize_scores(score), "scores")


def _ranks(fact: Factorized, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Dense ranks of the scores (-1 missing) and the sorted distinct scores."""
    try:
        uniques = np.asarray(fact.uniques, dtype=float)
    except (TypeError, ValueError):
        shown = ", ".join(repr(u) for u in fact.uniques[:3])
        raise KappaFrameTypeError(
            f"score column {name} must hold numbers; it holds {shown}. Convert it first, "
            "e.g. with pd.to_numeric."
        ) from None
    codes = np.asarray(fact.codes, dtype=np.intp)
    finite = ~np.isnan(uniques)  # NaN is missing, whatever the factorizer did with it
    order = np.argsort(np.where(finite, uniques, np.inf), kind="stable")
    rank_of = np.empty(len(uniques) + 1, dtype=np.intp)
    rank_of[order] = np.arange(len(uniques))
    rank_of[-1] = -1
    rank_of[np.flatnonzero(~finite)] = -1
    values = uniques[order][: int(finite.sum())]
    return rank_of[codes], values


def _positive(fact: Factorized, pos_label: Any, name: str) -> np.ndarray:
    """Truth as int8: 1 positive, 0 negative, -1 missing."""
    codes = np.asarray(fact.codes)
    uniques = list(fact.uniques)
    if fact.declared is not None:
        # A categorical's declared categories may include labels never used: keep the used.
        used = np.unique(codes[codes >= 0])
        uniques = [uniques[i] for i in used]
        remap = np.full(len(fact.uniques) + 1, -1, dtype=np.intp)
        remap[used] = np.arange(len(used))
        codes = remap[codes]
    if len(uniques) > 2:
        shown = ", ".join(repr(u) for u in uniques[:6])
        raise KappaFrameError(
            f"truth {name} must be binary; it has {len(uniques)} labels ({shown}). Compare it "
            "to the positive class first, e.g. truth == 'yes'."
        )
    if pos_label is None:
        try:
            binary = any(set(uniques) <= s for s in _BINARY_SETS)
        except TypeError:
            binary = False
        if not binary:
            shown = ", ".join(repr(u) for u in uniques)
            raise KappaFrameError(
                f"truth {name} has labels {shown}: name the positive one with pos_label=."
            )
        pos_label = True if True in uniques else 1
        if uniques and not any(u == pos_label for u in uniques):
            shown = ", ".join(repr(u) for u in uniques)
            raise KappaFrameError(
                f"truth {name} has no positive (1 / True): every label is {shown}. A sweep "
                "needs both classes: if the positive class is coded another way, name it "
                "with pos_label=; if this data has no positives, sweep data that has both "
                "classes (with by=, a group of one class is allowed)."
            )
    matches = [i for i, u in enumerate(uniques) if u == pos_label]
    if not matches and uniques:
        shown = ", ".join(repr(u) for u in uniques)
        raise KappaFrameError(f"pos_label {pos_label!r} is not a label of {name}: {shown}.")
    out = np.where(codes < 0, -1, 0).astype(np.int8)
    for i in matches:
        out[codes == i] = 1
    return out


def _sweep(
    truth: np.ndarray,
    rank: np.ndarray,
    values: np.ndarray,
    groups: Groups,
    grid: np.ndarray | None,
    by: list[Hashable],
) -> tuple[Table, tuple[np.ndarray, np.ndarray]]:
    """Count every threshold: cumulative sums over (group, score rank) cells.

    Scores are dense ranks into the sorted ``values``, so ``key = group * stride + rank``
    orders rows by group, then score. With few cells the counts per cell come from one
    ``bincount`` (no sort at all); otherwise the keys are sorted once. Either way the
    positives at or above each threshold are a difference of cumulative sums.
    """
    keep = (truth >= 0) & (rank >= 0)
    group = np.zeros(len(truth), dtype=np.intp) if groups.codes is None else groups.codes
    n_groups = groups.n_groups
    first_row = groups.first_row
    group, positive, rank = group[keep], truth[keep] == 1, rank[keep]
    stride = len(values) + 1  # rank len(values): above every score
    key = group.astype(np.int64) * stride + rank
    size = np.bincount(group, minlength=n_groups).astype(np.int64)
    positives = np.bincount(group[positive], minlength=n_groups).astype(np.int64)

    if grid is not None:
        present = np.flatnonzero(size > 0)
        q_group = np.repeat(present, len(grid))
        q_rank = np.tile(np.searchsorted(values, grid, side="left"), len(present))
        q_threshold = np.tile(grid, len(present))

    cells = n_groups * stride
    if cells <= max(4 * len(key), 1 << 16):
        total = np.bincount(key, minlength=cells).reshape(n_groups, stride)
        hits = np.bincount(key[positive], minlength=cells).reshape(n_groups, stride)
        # At or above each rank: cumulative sums from the top score down.
        predicted_at = np.cumsum(total[:, ::-1], axis=1)[:, ::-1]
        tp_at = np.cumsum(hits[:, ::-1], axis=1)[:, ::-1]
        if grid is None:  # every distinct score of each group
            q_group, q_rank = np.nonzero(total)
            q_threshold = values[q_rank]
        predicted = predicted_at[q_group, q_rank]
        tp = tp_at[q_group, q_rank]
    else:
        order = np.argsort(key, kind="stable")
        key = key[order]
        cum_pos = np.concatenate([[0], np.cumsum(positive[order], dtype=np.int64)])
        end = np.cumsum(size)
        if grid is None:
            query = key[np.concatenate([[True], key[1:] != key[:-1]])] if len(key) else key
            q_group, q_rank = query // stride, query % stride
            q_threshold = values[q_rank]
        start = np.searchsorted(key, q_group * stride + q_rank, side="left")
        predicted = end[q_group] - start
        tp = cum_pos[end[q_group]] - cum_pos[start]
    q_group = np.asarray(q_group, dtype=np.intp)
    n = size[q_group]
    pos = positives[q_group]
    fp = predicted - tp
    fn = pos - tp
    tn = n - pos - fp

    counts = np.stack([np.stack([tn, fp], -1), np.stack([fn, tp], -1)], -2)
    stats = agreement(counts, weight_matrix(None, [0, 1]))
    kappa = stats["kappa"]
    best = _best_per_group(q_group, kappa)

    columns = [Column(b, "key", first_row[q_group], source=b) for b in by]
    columns += [
        Column("threshold", "float", np.asarray(q_threshold, dtype=float)),
        Column("n", "int", n.astype(np.int64)),
        *(
            Column(name, "int", v.astype(np.int64))
            for name, v in (("tn", tn), ("fp", fp), ("fn", fn), ("tp", tp))
        ),
        Column("accuracy", "float", stats["p_o"]),
        Column("p_e", "float", stats["p_e"]),
        Column("kappa", "float", kappa),
        Column("best", "bool", best),
    ]
    return Table(columns), (stats["undefined"], stats["n"])


def _best_per_group(q_group: np.ndarray, kappa: np.ndarray) -> np.ndarray:
    """Mark the first row of highest kappa in each group (rows sorted by group, threshold)."""
    best = np.zeros(len(kappa), dtype=bool)
    if not len(kappa):
        return best
    filled = np.where(np.isnan(kappa), -np.inf, kappa)
    position = np.arange(len(kappa))
    order = np.lexsort((position, -filled, q_group))
    first = np.ones(len(order), dtype=bool)
    first[1:] = q_group[order][1:] != q_group[order][:-1]
    winners = order[first]
    best[winners[np.isfinite(filled[winners])]] = True
    return best
