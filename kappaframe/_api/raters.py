"""Public function raters(): one row per rater, how they agree with the others.

Frame -> codes (``kappaframe._api.plan.prepare_input``) -> the K x K table of every
rater pair -> per-rater statistics (``kappaframe._stats.raters``) -> ``Table`` ->
the caller's frame type. Nothing here knows a frame library.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from .._count.kernel import all_pairs
from .._encode.codes import object_array
from .._errors import warn_undefined
from .._schema import RATER_COLUMNS, Column, Table
from .._stats.agreement import agreement, require_symmetric, weight_matrix
from .._stats.raters import label_mix, partner_summary
from .._types import Closed, Duplicates
from .assemble import key_columns
from .many_common import WHY_SYMMETRIC, pair_tables, prepare_ratings
from .options import check_settings
from .settings.bind import declared
from .settings.reading import ReadSpec
from .windows import check_windows, in_windows

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["raters"]

FrameT = TypeVar("FrameT")


@declared
def raters(
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
    weights: str | ArrayLike | None = None,
    categories: Sequence[Any] | None = None,
    duplicates: Duplicates = "raise",
) -> FrameT:
    """One row per rater: how they agree with the others, and how their labels differ.

    For each rater (per group): Cohen's kappa with every other rater on the items both
    labeled (as in ``pairwise``), summarised; and the rater's label mix against
    their colleagues' on the same items. With ``o_k`` the share of category k in the
    rater's labels and ``c_k`` in their colleagues' labels, over every pair of labels
    (the rater's, a colleague's) given to a shared item:

    ``label_shift = sum_k |o_k - c_k| / 2`` (total variation distance: 0 = the same
    mix, 1 = no label in common; the multi-rater form of Pontius' quantity
    disagreement), and ``overused = argmax_k (o_k - c_k)``.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library with one row per rater (per group), raters in order,
        with the columns: the ``by`` columns; ``rater``; ``n_items`` (items the rater
        labeled); ``mean_kappa``, ``median_kappa``, ``min_kappa`` (over the partners with a
        defined kappa: pairs with no shared item or chance agreement 1 are left out, with
        one warning); ``min_kappa_with`` (the partner of ``min_kappa``: who they disagree
        with most; missing without a defined kappa); ``label_shift``; ``overused`` (the
        category the rater uses most above their colleagues; missing when ``label_shift`` is
        0 or nothing is shared); ``overused_share`` (the rater's share of it) and
        ``others_share`` (the colleagues' share on the same items). A rater who passes
        everything shows ``overused="pass"`` with, say, 0.95 against 0.60; one twice as
        strict ``overused="fail"`` with 0.40 against 0.20.

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, when some pair's kappa is undefined.

    See Also
    --------
    pairwise : the kappa of each pair.
    matrix : the same kappas as a rater x rater frame.
    per_category : which category the raters disagree on.

    Notes
    -----
    The label shares are paired: on each item a rater shares with a colleague, the
    rater's label and the colleague's label are counted once each, so an item with three
    colleagues weighs three times. That compares a rater with the colleagues who saw the
    same items, not with a pool that saw different ones.

    References
    ----------
    Pontius, R. G., & Millones, M. (2011). Death to kappa: birth of quantity disagreement
    and allocation disagreement for accuracy assessment. *International Journal of
    Remote Sensing* 32(15), 4407-4429.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({
    ...     "ann1": ["ok", "ok", "bad", "ok", "bad", "ok"],
    ...     "ann2": ["ok", "ok", "bad", "ok", "bad", "bad"],
    ...     "ann3": ["bad", "ok", "bad", "bad", "bad", "bad"],
    ... })
    >>> res = kf.raters(df)
    >>> str(res["overused"].iloc[2]), round(float(res["overused_share"].iloc[2]), 3)
    ('bad', 0.833)
    >>> str(res["min_kappa_with"].iloc[0]), round(float(res["min_kappa"].iloc[0]), 3)
    ('ann3', 0.182)
    """
    check_settings(weights=weights, by=by, output=RATER_COLUMNS, what="raters")
    windows = check_windows(time, every, period, offset, closed)
    read = ReadSpec.of(locals())
    frame, by, _ = in_windows(data, windows, by)
    read = read if windows is None else read.replace(by=by)
    prep = prepare_ratings(frame, read)
    prep.require_order(weights)
    n_raters = len(prep.raters)
    n_groups = prep.groups.n_groups
    k = len(prep.categories)
    # Every pair (on the sparse paths: the pairs that share an item), then each rater alone.
    between = all_pairs(n_raters) if prep.source is None else prep.source.pairs(1)
    own_pairs = np.repeat(np.arange(n_raters, dtype=np.intp), 2).reshape(-1, 2)
    pairs = np.concatenate([between, own_pairs])
    tables = pair_tables(prep, pairs, "raters")  # refuses too large tables before any K x K
    disagree = weight_matrix(weights, prep.categories)
    require_symmetric(disagree, WHY_SYMMETRIC)
    mutual = tables[: len(between)]
    n_items = tables[len(between) :].sum(axis=(-2, -1)).T.astype(np.int64)  # (G, R)
    agreed = agreement(mutual, disagree)
    warn_undefined(agreed["undefined"], agreed["n"])
    summary = partner_summary(between, agreed["kappa"], n_groups, n_raters)
    mix = label_mix(mutual, between, n_groups, n_raters)

    names = object_array(prep.raters)
    labels = object_array(prep.categories)
    partner = np.empty(mix["shift"].shape, dtype=object)
    partner[summary["some"]] = names[summary["argmin"]][summary["some"]]
    overused = np.empty(mix["shift"].shape, dtype=object)
    if k:
        overused[mix["has_top"]] = labels[mix["top"]][mix["has_top"]]

    group_of_row = np.repeat(np.arange(n_groups), n_raters)
    columns = key_columns(prep, group_of_row, RATER_COLUMNS, "raters")
    columns += [
        Column("rater", "name", np.tile(names, n_groups)),
        Column("n_items", "int", n_items.reshape(-1)),
        Column("mean_kappa", "float", summary["mean"].reshape(-1)),
        Column("median_kappa", "float", summary["median"].reshape(-1)),
        Column("min_kappa", "float", summary["min"].reshape(-1)),
        Column("min_kappa_with", "name", partner.reshape(-1)),
        Column("label_shift", "float", mix["shift"].reshape(-1)),
        Column("overused", "label", overused.reshape(-1)),
        Column("overused_share", "float", mix["overused_share"].reshape(-1)),
        Column("others_share", "float", mix["others_share"].reshape(-1)),
    ]
    return prep.frame.render(Table(columns, mark={"kind": "raters"}))
