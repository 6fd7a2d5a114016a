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
from .._encode.layout import LongLayout
from .._errors import (
    KappaFrameError,
    arg,
    too_few_raters,
    warn_undefined,
)
from .._frames.engines import EngineFrame
from .._frames.numeric import refuse_infinite
from .._frames.parts import PartReader
from .._schema import (
    DESIGN_COLUMNS,
    ICC_CI_COLUMNS,
    ICC_COLUMNS,
    KENDALL_COLUMNS,
    KENDALL_DESIGN_COLUMNS,
    Column,
    Table,
)
from .._stats.icc import DESCRIPTIONS, FORMS, MCGRAW_WONG, icc_forms
from .._stats.icc_incomplete import SparseDesign, available_icc, available_kendall
from .._stats.kendall import kendall_w as _kendall_w
from .._types import Duplicates, MissingDesign
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
from .trials import icc_trial_table, no_cluster_with_trial, read_trials, trial_frame

__all__ = ["icc", "kendall_w"]

FrameT = TypeVar("FrameT")


#: Why a form of ``missing="available"`` is undefined: too few items, or otherwise.
TOO_FEW_SCORED = "with fewer than 2 items scored"
UNDEFINED_AVAILABLE = (
    "where the scores leave it undefined (one rater only, or no spread to compare; for ICC2 "
    "and ICC2k, scores that items and raters fit exactly; for W, no two raters ranking 2 "
    "items in common)"
)


def _warn_undefined(
    values: np.ndarray, n: np.ndarray, what: str, too_few: str = "", otherwise: str = ""
) -> None:
    """One warning per call: how many groups give NaN, and why."""
    warn_undefined(
        ~np.isfinite(values),
        n,
        "groups",
        subject=what,
        fewer_than=2,
        too_few=too_few
        or (
            "with fewer than 2 complete items (scored by every rater: a rater with no score "
            f"in a group leaves it none; pass {arg('raters', ...)} to choose)"
        ),
        otherwise=otherwise
        or (
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
    missing: MissingDesign = "listwise",
    trial: Hashable | None = None,
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
        ``ci_low`` and ``ci_high``. With ``missing="available"``, ``n_items`` counts the
        items with a score, ``n_raters`` the raters with a score in the group,
        ``n_dropped`` is 0, and the design follows: ``design`` ("complete": every item
        scored by each of those raters; "incomplete"), ``n_ratings`` (``N``),
        ``ratings_min`` and ``ratings_max`` (the fewest and most scores of an item) and
        ``k0``.

        With ``trial``, per group: ``kind`` "intra" rows, six per rater (the six forms
        of that rater's scores, the trials as the judges: ``ICC2``/``ICC(A,1)`` is the
        rater's test-retest agreement), then two ``kind`` "inter" rows (``ICC2`` and
        ``ICC3`` of every rater from all the replicates); after the ``by`` columns
        ``kind`` and ``rater`` (empty on the "inter" rows), then the columns above with
        ``n_trials`` after ``n_raters`` (``n_raters`` is 1 on the "intra" rows). The
        "inter" rows have no interval (``ci_low`` and ``ci_high`` NaN).

    Raises
    ------
    KappaFrameError
        Unknown columns; fewer than 2 raters; no group with 2 complete items; a score
        that is not a number (naming the column and the value); a rater scoring an item
        twice (long layout, ``duplicates="raise"``). With ``missing="available"``: a
        group whose scores cannot separate the variance components (every item scored
        once; raters and items that cannot be told apart); a DuckDB or PySpark input.

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

    Repeated trials (``trial``): a rater may score an item once per trial. Each rater's
    scores, items by trials, give the "intra" rows (an item is left out of a rater's rows
    when that rater missed a trial of it). The "inter" rows come from the two-way model
    with replicates, ``y_ijt = mu + a_i + b_j + (ab)_ij + e_ijt`` (items ``a``, raters
    ``b``, their interaction, the error between trials; Eliasziw et al. 1994, Gwet 2014),
    over the items every rater scored in every trial: with ``r`` trials, ``MSR``, ``MSC``,
    ``MSI`` (interaction, ``(n - 1)(k - 1)`` degrees of freedom) and ``MSE`` (within
    cells, ``n k (r - 1)``), the variance components ``s2_item = (MSR - MSI) / (k r)``,
    ``s2_rater = (MSC - MSI) / (n r)``, ``s2_inter = (MSI - MSE) / r`` and
    ``s2_error = MSE`` (not truncated at 0) give ``ICC(A,1) = s2_item / (s2_item +
    s2_rater + s2_inter + s2_error)`` (one rating of one random rater) and ``ICC(C,1) =
    s2_item / (s2_item + s2_inter + s2_error)``, both tested by ``F = MSR / MSI`` on
    ``(n - 1, (n - 1)(k - 1))`` degrees of freedom. Items missing a rater or a trial are
    left out and counted in ``n_dropped``. A pandas or polars DataFrame only.

    Intervals: Shrout & Fleiss (1979), as psych and pingouin compute them: for ICC1 and
    ICC3 ``F_L = F / F_q(df1, df2)``, ``F_U = F F_q(df2, df1)`` (``q = (1 + ci) / 2``)
    and ``(F_L - 1) / (F_L + k - 1)`` (single) or ``1 - 1 / F_L`` (average); for ICC2
    with Satterthwaite's degrees of freedom for its mix of mean squares, and ICC2k from
    ICC2's bounds by the Spearman-Brown formula.

    Incomplete designs (``missing="available"``; crowd designs: each item scored by a few
    of many raters). Every score is used and none imputed. A group whose items are each
    scored by every rater with a score in it takes the formulas above (the same numbers
    as ``"listwise"``). Otherwise, with ``n`` items, item ``i`` scored ``k_i`` times and
    ``N = sum k_i`` scores:

    - ICC1 and ICC1k come from the one-way analysis of variance of unbalanced data:
      ``MSB = sum_i k_i (m_i - m)^2 / (n - 1)``, ``MSW = sum (x - m_i)^2 / (N - n)`` and
      ``k0 = (N - sum_i k_i^2 / N) / (n - 1)`` in the place of ``k`` (Ebel 1951; Donner
      1986; irrNA's ``iccNA``): ``ICC1 = (MSB - MSW) / (MSB + (k0 - 1) MSW)``,
      ``ICC1k = (MSB - MSW) / MSB``; the F test on ``(n - 1, N - n)`` and the interval
      as above with ``k0``.
    - ICC2, ICC3, ICC2k and ICC3k come from the variances of the crossed random-effects
      model ``x_ij = mu + a_i + b_j + e_ij`` (item, rater, residual: ``s2_a``, ``s2_b``,
      ``s2_e``) estimated by restricted maximum likelihood (REML, as R psych's
      ``ICC(lmer=TRUE)``): ``ICC2 = s2_a / (s2_a + s2_b + s2_e)``, ``ICC3 = s2_a / (s2_a +
      s2_e)``, ``ICC2k = s2_a / (s2_a + (s2_b + s2_e) / k0)``, ``ICC3k = s2_a / (s2_a +
      s2_e / k0)``. For complete data these are the forms above. Their F test is that of
      the items adjusted for the raters in the two-way analysis of variance (the test of
      ``s2_a = 0``): ``F = ((SSE_raters - SSE) / (n - c)) / (SSE / (N - n - k + c))`` on
      ``(n - c, N - n - k + c)`` degrees of freedom (``c``: the connected parts of the
      items x raters graph, 1 when every rater is linked to every other through shared
      items), ``MSR / MSE`` for complete data. They have no interval here (``ci_low`` and
      ``ci_high`` NaN). The likelihood is profiled over the two ratios of variances, the items'
      block absorbed (each evaluation ``O(n k^2)``), and maximised by L-BFGS-B then
      Nelder-Mead; a variance estimated at 0 stays 0 (the REML estimate is never
      negative, unlike the analysis of variance's).

    A group with at least 2 items whose scores cannot separate the components is an
    error naming ``missing``: every item scored once (nothing within items), or items and
    raters that cannot be told apart (no residual degrees of freedom:
    ``N - n - k + c <= 0``). Scores that items and raters fit exactly give ICC3 = ICC3k =
    1 and ICC2, ICC2k undefined (NaN, with the warning).

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

    Ebel, R. L. (1951). Estimation of the reliability of ratings. *Psychometrika* 16(4),
    407-424.

    Donner, A. (1986). A review of inference procedures for the intraclass correlation
    coefficient in the one-way random effects model. *International Statistical Review*
    54(1), 67-82.

    Patterson, H. D., & Thompson, R. (1971). Recovery of inter-block information when
    block sizes are unequal. *Biometrika* 58(3), 545-554 (REML).

    Eliasziw, M., Young, S. L., Woodbury, M. G., & Fryday-Field, K. (1994). Statistical
    methodology for the concurrent assessment of interrater and intrarater reliability.
    *Physical Therapy* 74(8), 777-788.

    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.), ch. 9-10.
    Advanced Analytics.

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
    if trial is not None:
        return _icc_trials(data, dict(locals()))
    read = ReadSpec.of(locals(), label=value, label_word="value")
    layout = numeric_layout(read)
    if ci is not None:
        ci = check_level(ci)
    check_draws(cluster, n_boot, seed)
    if missing == "available":
        if cluster is not None:
            raise KappaFrameError(
                f"{arg('cluster', cluster)} does not apply with "
                f"{arg('missing', 'available')}: the incomplete design's intervals are "
                f"computed per item. Drop {arg('cluster')}, or pass "
                f"{arg('missing', 'listwise')} (complete items, cluster bootstrap).",
                option="cluster",
            )
        return _available_icc(numeric_input(data), layout, ci)
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


def _icc_trials(data: Any, o: dict[str, Any]) -> Any:
    """``icc`` with ``trial``: each rater across trials, and the raters with replicates."""
    no_cluster_with_trial(o)
    if o["missing"] != "listwise":
        raise KappaFrameError(
            f"{arg('trial', o['trial'])} and {arg('missing', o['missing'])} do not go "
            "together: the replicates' model leaves out an item a rater missed a trial of "
            f"(counted in n_dropped). Drop {arg('missing')} for the trials, or "
            f"{arg('trial')} for the incomplete design."
        )
    ci = None if o["ci"] is None else check_level(o["ci"])
    columns = LongLayout(o["item"], o["rater"], o["value"])
    t = trial_frame(data, o["trial"], raters=o["raters"], columns=columns, by=o["by"])
    ratings = read_trials(t, str(o["duplicates"]))
    if len(ratings.raters) < 2:
        raise too_few_raters(2, ratings.raters, t.rater)
    table, n_items, dropped = icc_trial_table(ratings, ci)
    _need_items(n_items, dropped, "icc(trial=...)")
    icc_values = next(c.values for c in table.columns if c.name == "icc")
    per_group = icc_values.reshape(len(n_items), -1)
    every_form = np.where(np.isfinite(per_group).all(axis=1), 0.0, np.nan)
    _warn_undefined(every_form, n_items, "the intraclass correlation (some form)")
    return ratings.frame.render(table)


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


def _read_scores(frame: Any, layout: Any, what: str, needs: str) -> tuple[Scores, Any]:
    """The scores themselves (not sums), and what renders; an engine is refused."""
    if isinstance(frame, EngineFrame):
        raise refuse_engine(frame, what, needs)
    if isinstance(frame, PartReader):
        s = gather_parts(frame, layout)
        return s, s.frame
    s = scores(frame, layout)
    return s, renderer(s, frame.output)


def _sparse(error: SparseDesign, s: Scores, what: str) -> KappaFrameError:
    """The error for a group too sparse for the variance components: which, why, way out."""
    where = "the ratings" if not s.by else _group_named(s, error.group)
    return KappaFrameError(
        f"{what} with {arg('missing', 'available')} cannot estimate the variance "
        f"components of {where}: {error.why}. Pass {arg('missing', 'listwise')} (only the "
        "items every rater scored), or ratings where items are scored by two raters or more "
        "and raters share items.",
        option="missing",
    )


def _group_named(s: Scores, g: int) -> str:
    """The group ``g`` by its keys (``group by=value, ...``), else by its position."""
    keys = s.keys()
    if hasattr(keys, "row"):  # polars
        values = tuple(keys.row(g))
    elif hasattr(keys, "iloc"):  # pandas
        values = tuple(keys.iloc[g])
    else:
        return f"group {g + 1} of {s.n_groups} (by {s.by})"
    return "the group " + ", ".join(f"{b}={v!r}" for b, v in zip(s.by, values, strict=True))


def _available_icc(frame: Any, layout: Any, ci: float | None) -> Any:
    """``icc(missing="available")``: every rating of the scores, incomplete items kept."""
    what = 'icc(missing="available")'
    s, render = _read_scores(frame, layout, what, "fits variance components to every rating")
    if len(s.raters) < 2:
        raise too_few_raters(2, s.raters, layout.rater)
    refuse_infinite(s.columns, s.raters, s.value)
    try:
        stats = available_icc(s.columns, s.group, s.n_groups, ci)
    except SparseDesign as error:
        raise _sparse(error, s, "icc()") from None
    n = stats["n_items"]
    _need_scored(n, "icc()")
    every_form = np.where(np.isfinite(stats["icc"]).all(axis=1), 0.0, np.nan)
    _warn_undefined(
        every_form,
        n,
        "the intraclass correlation (some form)",
        TOO_FEW_SCORED,
        UNDEFINED_AVAILABLE,
    )
    sums = _Design(n, np.zeros(len(n), np.int64))
    return render.render(_icc_table(s, sums, stats, ci, design=stats))


def _need_scored(n: np.ndarray, what: str) -> None:
    if not len(n) or int(n.max()) < 2:
        raise KappaFrameError(
            f"{what} needs at least 2 items with a score in some group; got "
            f"{int(n.max()) if len(n) else 0}. Pass more items.",
            option="missing",
        )


class _Design:
    """The sizes ``_icc_table`` reads, for the designs read rating by rating."""

    def __init__(self, count: np.ndarray, dropped: np.ndarray) -> None:
        self.count = count
        self.dropped = dropped


def _design_columns(
    design: dict[str, np.ndarray], rows: np.ndarray, names: tuple[str, ...]
) -> list[Column]:
    """``design`` ("complete" or "incomplete"), the ratings, per item fewest and most, k0."""
    label = np.where(design["complete"], "complete", "incomplete")[rows].astype(object)
    return [
        Column("design", "name", label),
        Column("n_ratings", "int", design["n_ratings"][rows]),
        Column("ratings_min", "int", design["ratings_min"][rows]),
        Column("ratings_max", "int", design["ratings_max"][rows]),
        Column(names[-1], "float", design[names[-1]][rows]),
    ]


def _flat(values: np.ndarray) -> np.ndarray:
    """``values[group, form]`` as one column, rows group-major."""
    return np.ascontiguousarray(values).reshape(-1)


def _icc_table(
    s: Scores,
    sums: Any,
    stats: dict[str, np.ndarray],
    ci: float | None,
    design: dict[str, np.ndarray] | None = None,
) -> Table:
    """One row per group and form: the keys, the sizes, the ICC, its F test and interval.

    ``design`` (``missing="available"``): the raters of each group are those with a
    rating in it, and the design columns follow.
    """
    n_groups = len(sums.count)
    n_forms = len(FORMS)
    group_of_row = np.repeat(np.arange(n_groups), n_forms)
    form_of_row = np.tile(np.arange(n_forms), n_groups)
    schema = (*ICC_COLUMNS, *(ICC_CI_COLUMNS if ci is not None else ()))
    if design is not None:
        schema = (*schema, *DESIGN_COLUMNS)
    columns = key_rows(s, group_of_row, schema, "icc")
    n_items = sums.count.astype(np.int64)
    columns += [
        Column("type", "name", form_of_row, categories=FORMS),
        Column("description", "name", form_of_row, categories=DESCRIPTIONS),
        Column("mcgraw_wong", "name", form_of_row, categories=MCGRAW_WONG),
        Column("n_items", "int", n_items[group_of_row]),
        Column(
            "n_raters",
            "int",
            np.full(len(group_of_row), len(s.raters), np.int64)
            if design is None
            else design["n_raters"][group_of_row],
        ),
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
    if design is not None:
        columns += _design_columns(design, group_of_row, DESIGN_COLUMNS)
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
    missing: MissingDesign = "listwise",
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

    With ``missing="available"`` every score is used, as irrNA's ``kendallNA`` does
    (Brueckl 2011): a group whose items are each scored by every rater with a score in
    it takes the formula above (the same numbers as ``"listwise"``); otherwise, with
    ``rho_ab`` Spearman's correlation of raters ``a`` and ``b`` over the ``n_ab`` items
    both scored (the Pearson correlation of their average ranks; with ``correct=False``
    ``1 - 6 sum d^2 / (n_ab^3 - n_ab)``; 0 where a rater gave one score to all of them),

        rho_bar = sum (n_ab - 1) rho_ab / sum (n_ab - 1),   W = (1 + rho_bar (kq - 1)) / kq

    (Kendall 1962; weights as Taylor 1987), ``kq`` the mean number of scores per item;
    ``chi2 = kq (n - 1) W`` on ``n - 1`` and Legendre's F with ``kq`` for ``m``. A rater
    with a single score ranks nothing and is left out, as in irrNA; ``n`` counts the
    items with a score (irrNA also counts rows with none). The result adds ``design``,
    ``n_ratings``, ``ratings_min``, ``ratings_max`` and ``kq``.

    References
    ----------
    Kendall, M. G., & Babington Smith, B. (1939). The problem of m rankings. *The Annals
    of Mathematical Statistics* 10(3), 275-287.

    Kendall, M. G. (1962). *Rank correlation methods* (3rd ed.). London: Griffin.

    Taylor, J. M. G. (1987). Kendall's and Spearman's correlation coefficients in the
    presence of a blocking variable. *Biometrics* 43, 409-416.

    Brueckl, M. (2011). Statistische Verfahren zur Ermittlung der
    Urteileruebereinstimmung. In *Altersbedingte Veraenderungen der Stimme und
    Sprechweise von Frauen*, Berlin: Logos, 88-103 (R package irrNA).

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
    if missing == "available":
        return _available_w(frame, layout, bool(correct))
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


def _available_w(frame: Any, layout: Any, correct: bool) -> Any:
    """``kendall_w(missing="available")``: irrNA's W from every rating (complete: today's)."""
    s, render = _read_scores(frame, layout, "kendall_w()", "ranks each rater's scores")
    if len(s.raters) < 2:
        raise too_few_raters(2, s.raters, layout.rater)
    refuse_infinite(s.columns, s.raters, s.value)
    stats = available_kendall(s.columns, s.group, s.n_groups, correct)
    _need_scored(stats["n_items"], "kendall_w()")
    _warn_undefined(
        stats["w"], stats["n_items"], "Kendall's W", TOO_FEW_SCORED, UNDEFINED_AVAILABLE
    )
    rows = np.arange(s.n_groups)
    schema = (*KENDALL_COLUMNS, *KENDALL_DESIGN_COLUMNS)
    columns = key_rows(s, rows, schema, "kendall_w")
    columns += [
        Column("n_items", "int", stats["n_items"]),
        Column("n_raters", "int", stats["n_raters"]),
        Column("n_dropped", "int", stats["n_dropped"]),
    ]
    df = np.maximum(np.nan_to_num(stats["df"]), 0).astype(np.int64)
    columns += [
        Column(name, "int", df) if name == "df" else Column(name, "float", stats[name])
        for name in KENDALL_COLUMNS[3:]
    ]
    columns += _design_columns(stats, rows, KENDALL_DESIGN_COLUMNS)
    return render.render(Table(columns, mark={"kind": "kendall_w"}))
