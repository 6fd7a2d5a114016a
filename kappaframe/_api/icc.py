"""Public functions for numeric ratings: icc() and kendall_w().

Scores in (``kappaframe._api.numeric``: wide or long, any input) -> additive sums per
group (``kappaframe._stats.icc``; in the engine for DuckDB and PySpark) or ranks
(``kappaframe._stats.kendall``) -> ``Table`` -> the caller's frame type.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, TypeVar

import numpy as np

from .._encode.codes import Groups
from .._errors import (
    KappaFrameError,
    arg,
    too_few_raters,
    warn_undefined,
)
from .._frames.engines import EngineFrame
from .._frames.numeric import refuse_infinite
from .._frames.parts import PartReader
from .._schema import ICC_CI_COLUMNS, ICC_COLUMNS, KENDALL_COLUMNS, Column, Table
from .._stats.icc import DESCRIPTIONS, FORMS, MCGRAW_WONG, icc_forms
from .._stats.kendall import kendall_w as _kendall_w
from .._types import Duplicates
from .cluster_numeric import check_draws, icc_intervals
from .numeric import (
    Scores,
    engine_icc_sums,
    gather_parts,
    icc_part_sums,
    key_rows,
    no_icc_sums,
    numeric_input,
    numeric_layout,
    reduce_parts,
    refuse_engine,
    renderer,
    scores,
)
from .options import check_level
from .prepare import KeysFrame
from .settings.bind import declared
from .settings.reading import ReadSpec

__all__ = ["icc", "kendall_w"]

FrameT = TypeVar("FrameT")


def _warn_undefined(values: np.ndarray, n: np.ndarray, what: str) -> None:
    """One warning per call: how many groups give NaN, and why."""
    warn_undefined(
        ~np.isfinite(values),
        n,
        "groups",
        subject=what,
        fewer_than=2,
        too_few=(
            "with fewer than 2 complete items (scored by every rater: a rater with no score "
            f"in a group leaves it none; pass {arg('raters', ...)} to choose)"
        ),
        otherwise=(
            "where a denominator is 0 (no variance to compare: every score equal; or mean "
            "squares that cancel)"
        ),
    )


def _need_items(n: np.ndarray, dropped: np.ndarray, what: str) -> None:
    if not len(n) or int(n.max()) < 2:
        raise KappaFrameError(
            f"{what} needs at least 2 items scored by every rater; got "
            f"{int(n.sum()) if len(n) else 0} complete item(s) and "
            f"{int(dropped.sum()) if len(dropped) else 0} left out for a missing score. "
            f"Pass more items, or fewer raters ({arg('raters', ...)}) so that more items "
            "are complete."
        )


@declared
def icc(
    data: FrameT,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    value: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    ci: float | None = 0.95,
    duplicates: Duplicates = "raise",
    cluster: Hashable | None = None,
    n_boot: int | None = None,
    seed: int | np.random.Generator | None = None,
) -> FrameT:
    """Intraclass correlation of numeric ratings: the six Shrout & Fleiss forms, per group.

    ``n`` items (targets) are each scored by the same ``k`` raters (judges). From the
    two-way analysis of variance of the scores, with ``MSR`` the items' mean square
    (``n - 1`` degrees of freedom), ``MSC`` the raters' (``k - 1``), ``MSE`` the residual
    (``(n - 1)(k - 1)``) and ``MSW = (SSC + SSE) / (n (k - 1))`` the mean square within
    items:

    - ICC1  = (MSR - MSW) / (MSR + (k - 1) MSW)      one-way random, single rater
    - ICC2  = (MSR - MSE) / (MSR + (k - 1) MSE + k (MSC - MSE) / n)
      two-way random, absolute agreement, single rater
    - ICC3  = (MSR - MSE) / (MSR + (k - 1) MSE)      two-way mixed, consistency, single
    - ICC1k = (MSR - MSW) / MSR,   ICC2k = (MSR - MSE) / (MSR + (MSC - MSE) / n),
      ICC3k = (MSR - MSE) / MSR:   the same for the mean of the ``k`` raters.

    ``F`` tests ICC = 0: ``MSR / MSW`` on ``(n - 1, n (k - 1))`` degrees of freedom for
    ICC1 and ICC1k, ``MSR / MSE`` on ``(n - 1, (n - 1)(k - 1))`` for the others.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library (pandas for an engine), six rows per group, with
        the columns: the ``by`` columns; ``type`` (ICC1, ICC2, ICC3, ICC1k, ICC2k, ICC3k:
        R psych's names, and pingouin's before 0.7); ``description`` (psych's: "Single
        raters absolute", "Single random raters", "Single fixed raters", and "Average
        ..." for the ``k``-rater means); ``mcgraw_wong`` (the same forms in McGraw &
        Wong's notation, pingouin 0.7's: ICC(1,1), ICC(A,1), ICC(C,1), ICC(1,k),
        ICC(A,k), ICC(C,k));
        ``n_items`` (complete items used); ``n_raters``; ``n_dropped`` (items left out
        for a missing score); ``icc``; ``f``; ``df1``; ``df2``; ``p_value``; with ``ci``
        ``ci_low`` and ``ci_high``.

    Raises
    ------
    KappaFrameError
        Unknown columns; fewer than 2 raters; no group with 2 complete items; a score
        that is not a number (naming the column and the value); a rater scoring an item
        twice (long layout, ``duplicates="raise"``).

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, for the groups whose ICC is undefined (NaN): fewer
        than 2 complete items, or no variance at all (every score equal).

    See Also
    --------
    kendall_w : agreement of rankings (Kendall's coefficient of concordance).

    Notes
    -----
    With ``cluster``, ``ci_low`` and ``ci_high`` are the percentile cluster bootstrap
    (``n_boot`` replicates, default 1000, from ``seed``): whole clusters drawn with
    replacement and every form recomputed from their complete items; a group with fewer
    than two clusters gets none. ``icc``, ``f`` and ``p_value`` stay the analysis of
    variance of the items (the F test takes them as independent).

    Missing scores: items not scored by every rater are left out (listwise deletion,
    as pingouin's ``intraclass_corr`` and R psych's ``ICC`` do) and counted in
    ``n_dropped``. The raters are the same in every group (the rater columns, or the
    ids of the long layout): a rater who scored nothing in a group leaves that group
    no complete item.

    Intervals: Shrout & Fleiss (1979), as psych and pingouin compute them: for ICC1 and
    ICC3 ``F_L = F / F_q(df1, df2)``, ``F_U = F F_q(df2, df1)`` (``q = (1 + ci) / 2``)
    and ``(F_L - 1) / (F_L + k - 1)`` (single) or ``1 - 1 / F_L`` (average); for ICC2
    with Satterthwaite's degrees of freedom for its mix of mean squares, and ICC2k from
    ICC2's bounds by the Spearman-Brown formula.

    The mean squares come from five additive sums per group (complete items, sum and
    sum of squares of the scores, the sum of the items' squared totals, each rater's
    total), computed in one pass with ``np.bincount``, part by part for files and Dask
    and in the engine for DuckDB and PySpark. Every score is first shifted by one
    score of the data, so that a large mean does not eat the sums of squares' precision.

    References
    ----------
    Shrout, P. E., & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing
    rater reliability. *Psychological Bulletin* 86(2), 420-428.

    McGraw, K. O., & Wong, S. P. (1996). Forming inferences about some intraclass
    correlation coefficients. *Psychological Methods* 1(1), 30-46.

    Koo, T. K., & Li, M. Y. (2016). A guideline of selecting and reporting intraclass
    correlation coefficients for reliability research. *Journal of Chiropractic
    Medicine* 15(2), 155-163.

    Examples
    --------
    Shrout & Fleiss' (1979) 6 targets scored by 4 judges:

    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> sf = pd.DataFrame({
    ...     "j1": [9, 6, 8, 7, 10, 6], "j2": [2, 1, 4, 1, 5, 2],
    ...     "j3": [5, 3, 6, 2, 6, 4], "j4": [8, 2, 8, 6, 9, 7],
    ... })
    >>> res = kf.icc(sf)
    >>> list(res["type"])
    ['ICC1', 'ICC2', 'ICC3', 'ICC1k', 'ICC2k', 'ICC3k']
    >>> [round(float(v), 2) for v in res["icc"]]
    [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]
    >>> round(float(res["f"].iloc[2]), 2), int(res["df2"].iloc[2])
    (11.03, 15)
    """
    read = ReadSpec.of(locals(), label=value, label_word="value")
    layout = numeric_layout(read)
    if ci is not None:
        ci = check_level(ci)
    check_draws(cluster, n_boot, seed)
    sums, s, render = _icc_sums(numeric_input(data), layout)
    if len(s.raters) < 2:
        raise too_few_raters(2, s.raters, layout.rater)
    _need_items(sums.count, sums.dropped, "icc()")
    stats = icc_forms(sums, ci)
    if cluster is not None and ci is not None:
        boot = icc_intervals(data, raters, layout, cluster, ci, n_boot, seed)
        stats.update((k, np.where(np.isfinite(stats["icc"]), boot[k], np.nan)) for k in _ENDS)
    every_form = np.where(np.isfinite(stats["icc"]).all(axis=1), 0.0, np.nan)
    _warn_undefined(every_form, sums.count, "the intraclass correlation (some form)")
    return render.render(_icc_table(s, sums, stats, ci))


#: The ends of the interval.
_ENDS = ("ci_low", "ci_high")


def _icc_sums(frame: Any, layout: Any) -> tuple[Any, Scores, Any]:
    """The sums of squares per group, the scores' keys and raters, and what renders.

    An engine's frame is summed by its engine and parts part by part; a frame in memory
    is read into its scores first.
    """
    render: Any
    if isinstance(frame, EngineFrame):
        sums, keys, rater_list, by_list = engine_icc_sums(frame, layout)
        s = Scores(KeysFrame(keys, "pandas"), rater_list, [], _key_groups(keys, by_list), by_list)
        render = s.frame
    elif isinstance(frame, PartReader):
        sums, keys, rater_list, by_list = reduce_parts(frame, layout, icc_part_sums, no_icc_sums)
        s = Scores(
            KeysFrame(keys, frame.output), rater_list, [], _key_groups(keys, by_list), by_list
        )
        render = s.frame
    else:
        s = scores(frame, layout)
        sums = icc_part_sums(s)
        render = renderer(s, frame.output)
    return sums, s, render


def _flat(values: np.ndarray) -> np.ndarray:
    """``values[group, form]`` as one column, rows group-major."""
    return np.ascontiguousarray(values).reshape(-1)


def _icc_table(s: Scores, sums: Any, stats: dict[str, np.ndarray], ci: float | None) -> Table:
    """One row per group and form: the keys, the sizes, the ICC, its F test and interval."""
    n_groups = len(sums.count)
    n_forms = len(FORMS)
    group_of_row = np.repeat(np.arange(n_groups), n_forms)
    form_of_row = np.tile(np.arange(n_forms), n_groups)
    schema = (*ICC_COLUMNS, *(ICC_CI_COLUMNS if ci is not None else ()))
    columns = key_rows(s, group_of_row, schema, "icc")
    n_items = sums.count.astype(np.int64)
    columns += [
        Column("type", "name", form_of_row, categories=FORMS),
        Column("description", "name", form_of_row, categories=DESCRIPTIONS),
        Column("mcgraw_wong", "name", form_of_row, categories=MCGRAW_WONG),
        Column("n_items", "int", n_items[group_of_row]),
        Column("n_raters", "int", np.full(len(group_of_row), len(s.raters), np.int64)),
        Column("n_dropped", "int", sums.dropped.astype(np.int64)[group_of_row]),
        Column("icc", "float", _flat(stats["icc"])),
        Column("f", "float", _flat(stats["f"])),
        Column("df1", "int", np.maximum(_flat(stats["df1"]), 0).astype(np.int64)),
        Column("df2", "int", np.maximum(_flat(stats["df2"]), 0).astype(np.int64)),
        Column("p_value", "float", _flat(stats["p_value"])),
    ]
    if ci is not None:
        columns += [
            Column("ci_low", "float", _flat(stats["ci_low"])),
            Column("ci_high", "float", _flat(stats["ci_high"])),
        ]
    return Table(columns, mark={"kind": "icc"})


def _key_groups(keys: Any, by: list[Hashable]) -> Groups:
    n = 1 if not by else len(keys)
    return Groups(None, n, np.arange(n, dtype=np.intp))


@declared
def kendall_w(
    data: FrameT,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    value: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    correct: bool = True,
    duplicates: Duplicates = "raise",
) -> FrameT:
    """Kendall's coefficient of concordance W: how alike the raters rank the items.

    Each of the ``m`` raters' scores is ranked over the ``n`` items (average ranks for
    ties); with ``R_i`` item ``i``'s rank total and ``S = sum_i (R_i - m (n + 1) / 2)^2``,

        W = 12 S / (m^2 (n^3 - n) - m T),    T = sum over raters and tie groups (t^3 - t)

    (``T = 0`` with ``correct=False``). W is 1 when every rater ranks the items alike and
    0 when their ranks are unrelated. Tests of W = 0: ``chi2 = m (n - 1) W`` on ``n - 1``
    degrees of freedom (Kendall & Babington Smith 1939), and ``F = (m - 1) W / (1 - W)``
    on ``n - 1 - 2/m`` and ``(m - 1)(n - 1 - 2/m)`` (Legendre 2005; better for few items).

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library with one row per group, with the columns: the
        ``by`` columns; ``n_items`` (complete items ranked); ``n_raters``; ``n_dropped``
        (items left out for a missing score); ``w``; ``chi2``; ``df``; ``p_value``; ``f``;
        ``f_df1``; ``f_df2``; ``f_p_value``.

    Raises
    ------
    KappaFrameError
        As ``icc``; a DuckDB or PySpark input.

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, for the groups whose W is undefined: fewer than 2
        complete items, or every rater giving every item the same score.

    See Also
    --------
    icc : agreement of the scores themselves.

    Notes
    -----
    An engine input (a DuckDB relation, a PySpark DataFrame) is refused: ranks are not
    sums.

    Items not scored by every rater are left out (as irr's ``kendall`` does with
    ``na.omit``) and counted in ``n_dropped``.

    References
    ----------
    Kendall, M. G., & Babington Smith, B. (1939). The problem of m rankings. *The Annals
    of Mathematical Statistics* 10(3), 275-287.

    Legendre, P. (2005). Species associations: the Kendall coefficient of concordance
    revisited. *Journal of Agricultural, Biological, and Environmental Statistics* 10(2),
    226-245.

    Examples
    --------
    R irr's ``anxiety`` data (20 subjects, 3 raters); irr's ``kendall(anxiety, TRUE)``
    gives Wt = 0.54, Chisq(19) = 30.8, p = 0.0429:

    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> anxiety = pd.DataFrame({
    ...     "rater1": [3, 3, 3, 4, 5, 5, 2, 3, 5, 2, 2, 6, 1, 5, 2, 2, 1, 2, 4, 3],
    ...     "rater2": [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4],
    ...     "rater3": [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2],
    ... })
    >>> res = kf.kendall_w(anxiety)
    >>> round(float(res["w"].iloc[0]), 3), round(float(res["chi2"].iloc[0]), 1)
    (0.54, 30.8)
    """
    read = ReadSpec.of(locals(), label=value, label_word="value")
    layout = numeric_layout(read)
    if not isinstance(correct, (bool, np.bool_)):
        raise KappaFrameError(
            f"{arg('correct')} must be True or False; got {correct!r}.", option="correct"
        )
    frame = numeric_input(data)
    if isinstance(frame, EngineFrame):
        raise refuse_engine(frame, "kendall_w()", "ranks each rater's scores over the items")
    if isinstance(frame, PartReader):
        s = gather_parts(frame, layout)
        render: Any = s.frame
    else:
        s = scores(frame, layout)
        render = renderer(s, frame.output)
    if len(s.raters) < 2:
        raise too_few_raters(2, s.raters, layout.rater)
    refuse_infinite(s.columns, s.raters, s.value)
    stats = _kendall_w(s.columns, s.group, s.n_groups, correct=bool(correct))
    _need_items(stats["n_items"], stats["n_dropped"], "kendall_w()")
    _warn_undefined(stats["w"], stats["n_items"], "Kendall's W")
    n_groups = s.n_groups
    group_of_row = np.arange(n_groups)
    columns = key_rows(s, group_of_row, KENDALL_COLUMNS, "kendall_w")
    columns += [
        Column("n_items", "int", stats["n_items"]),
        Column("n_raters", "int", np.full(n_groups, len(s.raters), np.int64)),
        Column("n_dropped", "int", stats["n_dropped"]),
    ]
    df = np.maximum(stats["df"], 0).astype(np.int64)  # n - 1: a whole number
    columns += [
        Column(name, "int", df) if name == "df" else Column(name, "float", stats[name])
        for name in KENDALL_COLUMNS[3:]
    ]
    return render.render(Table(columns, mark={"kind": "kendall_w"}))
