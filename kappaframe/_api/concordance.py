"""Two methods on one numeric scale: Lin's CCC and Bland-Altman limits of every rater pair.

Frame -> per-pair sums over each pair's complete cases (``kappaframe._api.numeric``:
the one way in of numeric ratings, any input, wide or long, groups; additive over parts
of the input, see ``kappaframe._stats.concordance.PairMoments``) -> statistics -> tidy
frame.
"""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar, cast

import numpy as np

from .._encode.layout import LongLayout
from .._errors import KappaFrameError, KappaFrameTypeError, arg, too_few_raters, warn_undefined
from .._schema import (
    BLAND_ALTMAN_CI_COLUMNS,
    BLAND_ALTMAN_COLUMNS,
    CCC_CI_COLUMNS,
    CCC_COLUMNS,
    MATRIX_KEY,
    Column,
    Table,
    check_names,
)
from .._stats.concordance import PairMoments, bland_altman_stats, lin_ccc
from .._stats.proportional import (
    PROPORTIONAL_CI_COLUMNS,
    PROPORTIONAL_COLUMNS,
    proportional_bias,
)
from .._types import Duplicates
from .assemble import matrix_columns
from .cluster import in_memory_only
from .cluster_numeric import check_draws, pair_intervals
from .lazy import Planned, lazy_result, planned_layout
from .numeric import NumericRatings, PairSums, numeric_layout, read_numeric, read_pair_sums
from .options import (
    check_level,
    check_reference,
    rater_pairs,
    with_reference,
)
from .prepare import KeysFrame
from .settings.bind import declared
from .settings.reading import ReadSpec, score_column
from .trials import (
    bland_altman_trial_table,
    no_cluster_with_trial,
    no_lazy_trial,
    read_trials,
    trial_frame,
)

__all__ = ["bland_altman", "ccc", "check_agreement"]

FrameT = TypeVar("FrameT")


# ----------------------------------------------------------------------------- options


def _check_ci(ci: Any) -> float | None:
    return None if ci is None else check_level(ci)


def _check_flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise KappaFrameTypeError(f"{name} must be True or False; got {value!r}.", option=name)
    return bool(value)


def check_agreement(agreement: Any) -> float:
    """The limits' distance from the bias in SDs: a positive, finite number, as a float."""
    if (
        isinstance(agreement, (bool, np.bool_))
        or not isinstance(agreement, numbers.Real)
        or not 0 < float(agreement) < np.inf
    ):
        raise KappaFrameError(
            f"agreement must be the multiple of the standard deviation of the differences "
            f"that the limits lie at (a positive number: 1.96 for 95% of the differences, "
            f"2 as Bland & Altman 1986 rounded it); got {agreement!r}.",
            option="agreement",
        )
    return float(agreement)


# ----------------------------------------------------------------------------- results


def _warn_undefined(undefined: np.ndarray, n: np.ndarray, what: str, why: str) -> None:
    """One warning per call: how many results are undefined, and why."""
    few = "with fewer than 2 items rated by both"
    warn_undefined(undefined, n, subject=what, fewer_than=2, too_few=few, otherwise=why)


def _require_items(sums: PairSums) -> None:
    if sums.n_items < 2:
        raise KappaFrameError(
            f"agreement on a numeric scale needs at least 2 items; the input has "
            f"{sums.n_items}. Pass more ratings (or, with by=, check that the groups "
            "are not empty)."
        )


def _pair_rows(
    sums: PairSums, reference: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Rows group-major: each row's group, rater a, rater b; the pairs' moments flat."""
    pairs = rater_pairs(sums.raters, reference)
    moments = sums.moments.pairs(pairs[:, 0], pairs[:, 1])  # (P, G) each
    n_pairs, n_groups = len(pairs), sums.moments.n.shape[0]
    group = np.repeat(np.arange(n_groups), n_pairs)
    a, b = np.tile(pairs[:, 0], n_groups), np.tile(pairs[:, 1], n_groups)
    flat = {k: np.swapaxes(v, 0, 1).reshape(-1) for k, v in moments.items()}
    return group, a, b, flat


def _table(
    sums: PairSums,
    group: np.ndarray,
    pair: tuple[np.ndarray, np.ndarray],
    n: np.ndarray,
    values: dict[str, np.ndarray],
    names: Sequence[str],
) -> Table:
    keys = [Column(b, "key", _first_rows(sums, group), source=b) for b in sums.by]
    columns = [
        *keys,
        Column("rater_a", "name", pair[0], categories=sums.raters),
        Column("rater_b", "name", pair[1], categories=sums.raters),
        Column("n", "int", np.asarray(n, dtype=np.int64)),
    ]
    columns += [Column(name, "float", np.asarray(values[name], dtype=float)) for name in names]
    # Marked as what it is: the notebook display colours kappa tables, not these.
    kind = "ccc" if "ccc" in values else "bland_altman"
    return Table(columns, mark={"kind": kind})


def _first_rows(sums: PairSums, group: np.ndarray) -> np.ndarray:
    """Rows of ``sums.keys`` (one per group, in order) of each output row's group."""
    return np.asarray(group, dtype=np.intp)


def _render(sums: PairSums, table: Table, output: str) -> Any:
    return KeysFrame(sums.keys, output).render(table)


def _ccc_only(moments: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Lin's coefficient of each pair (the statistic the cluster bootstrap draws)."""
    return {"ccc": lin_ccc(**moments, ci=None)["ccc"]}


def _lines(moments: dict[str, np.ndarray], agreement: float) -> dict[str, np.ndarray]:
    """The bias and the limits of each pair (the statistics the cluster bootstrap draws)."""
    stats = bland_altman_stats(**moments, agreement=agreement, ci=None)
    return {line: stats[line] for line in ("bias", "loa_low", "loa_high")}


#: The ends of an interval, as the Bland-Altman columns name them.
_ENDS = ("ci_low", "ci_high")


def _ccc_names(ci: float | None) -> tuple[str, ...]:
    return (*CCC_COLUMNS[3:], *(CCC_CI_COLUMNS if ci is not None else ()))


def _ba_names(ci: float | None, proportional: bool = False) -> tuple[str, ...]:
    names = (*BLAND_ALTMAN_COLUMNS[3:], *(BLAND_ALTMAN_CI_COLUMNS if ci is not None else ()))
    if proportional:
        names += (*PROPORTIONAL_COLUMNS, *(PROPORTIONAL_CI_COLUMNS if ci is not None else ()))
    return names


def _plan_numeric(names: list[Hashable], o: dict[str, Any], columns: tuple[str, ...]) -> Planned:
    """The result of ``ccc`` / ``bland_altman`` with no rows, from the input's schema."""
    column, word = score_column(o["value"], o["label"])
    read = ReadSpec.of(o, label=column, label_word=word)
    check_reference(o["reference"])
    if o["cluster"] is not None:  # a lazy result is read in parts
        raise in_memory_only(o["cluster"])
    raters = with_reference(o["raters"], o["reference"])
    by, rater_list, count = planned_layout(names, read.replace(raters=raters))
    if rater_list and o["reference"] is not None:
        rater_pairs(rater_list, o["reference"])
    check_names(by, ("rater_a", "rater_b", "n", *columns), "the numeric agreement function")
    none = np.zeros(0, dtype=np.intp)
    empty = PairSums(rater_list, PairMoments.empty(0, len(rater_list)), None, by, 0)
    table = _table(empty, none, (none, none), none, {c: np.zeros(0) for c in columns}, columns)
    return Planned.of(table, raters, count, rater_list)


def _plan_ccc(names: list[Hashable], o: dict[str, Any]) -> Planned | None:
    if _check_flag("matrix", o["matrix"]):
        return None
    return _plan_numeric(names, o, _ccc_names(_check_ci(o["ci"])))


def _plan_bland_altman(names: list[Hashable], o: dict[str, Any]) -> Planned:
    no_lazy_trial(o)
    check_agreement(o["agreement"])
    line = _check_flag("proportional", o["proportional"])
    return _plan_numeric(names, o, _ba_names(_check_ci(o["ci"]), line))


@declared
@lazy_result(_plan_ccc, counted=False)
def ccc(
    data: FrameT,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    value: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    reference: Hashable | None = None,
    ci: float | None = 0.95,
    duplicates: Duplicates = "raise",
    matrix: bool = False,
    cluster: Hashable | None = None,
    n_boot: int | None = None,
    seed: int | np.random.Generator | None = None,
) -> FrameT:
    """Lin's concordance correlation coefficient of every pair of raters (per group).

    For the ``n`` items both raters rated, with means ``m_a``, ``m_b``, variances
    ``s_a^2``, ``s_b^2`` and covariance ``s_ab`` (divided by ``n``, as Lin defines them)::

        ccc = 2 s_ab / (s_a^2 + s_b^2 + (m_a - m_b)^2)

    the agreement of two measurements on one scale: 1 when every item gets the same value
    from both, below Pearson's ``r`` by the factor ``bias_correction`` (Lin's ``C_b``)
    when one rater is shifted or stretched against the other. The interval is Lin's,
    on Fisher's z-transform ``atanh(ccc)`` with the variance of Lin (2000)::

        var(z) = [ (1 - r^2) ccc^2 / ((1 - ccc^2) r^2)
                   + 2 ccc^3 (1 - ccc) u^2 / (r (1 - ccc^2)^2)
                   - ccc^4 u^4 / (2 r^2 (1 - ccc^2)^2) ] / (n - 2)

    with ``u = (m_a - m_b) / sqrt(s_a s_b)``; the interval is ``tanh(z -/+ q sqrt(var))``
    (``q`` the normal quantile), as R's ``epiR::epi.ccc`` and ``DescTools::CCC`` give it
    with ``ci = "z-transform"``.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library with the columns: the ``by`` columns;
        ``rater_a``, ``rater_b``; ``n``, the items both rated (pairwise complete cases:
        an item one of the two left missing is left out of that pair only); ``ccc``;
        ``pearson_r`` (precision); ``bias_correction`` (accuracy, ``ccc / r``);
        ``scale_shift`` (``s_a / s_b``); ``location_shift``
        (``(m_a - m_b) / sqrt(s_a s_b)``); with ``ci``, ``se`` (the standard error of
        ``ccc``), ``ci_low``, ``ci_high``.

    Raises
    ------
    KappaFrameError
        Unknown columns, fewer than two raters, fewer than two items, a value that is
        not a number (the column and the value named), a duplicate rating in the long
        layout, ``ci`` not between 0 and 1.

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, when some ``ccc`` is NaN: a pair sharing fewer
        than two items, or a rater whose ratings of the shared items are all equal
        (no variance: Pearson's ``r``, and R's ``epi.ccc``, have no value there).

    See Also
    --------
    bland_altman : the bias and limits of agreement of the same pairs.
    bland_altman_plot : the differences against the means, for one pair.

    Notes
    -----
    With ``cluster``, ``se``, ``ci_low`` and ``ci_high`` are the percentile cluster
    bootstrap (``n_boot`` replicates, default 1000, from ``seed``): whole clusters drawn
    with replacement and Lin's coefficient recomputed from their items; a group with fewer
    than two clusters gets none. ``ccc`` itself does not change.

    Each pair's statistics come from six sums over the items both rated (``n``,
    ``sum a``, ``sum b``, ``sum a^2``, ``sum b^2``, ``sum ab``, each rating less its
    rater's mean), computed for all pairs at once by matrix products and added over the
    parts of an input read in parts; an engine computes them in one ``GROUP BY`` query.
    Below three items ``se`` and the interval are NaN; so is the interval of a pair in
    perfect agreement (``ccc = 1``: ``se`` 0, and ``atanh(1)`` infinite), as in R's
    ``epi.ccc``.

    References
    ----------
    Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate
    reproducibility. *Biometrics* 45(1), 255-268.

    Lin, L. I.-K. (2000). A note on the concordance correlation coefficient.
    *Biometrics* 56(1), 324-325.

    Examples
    --------
    Peak expiratory flow rate (l/min) of 17 people, by the Wright peak flow meter and the
    mini Wright meter (Bland & Altman 1986, first readings):

    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> pefr = pd.DataFrame({
    ...     "wright": [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267,
    ...                478, 178, 423, 427],
    ...     "mini_wright": [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260,
    ...                     477, 259, 350, 451],
    ... })
    >>> res = kf.ccc(pefr, ["wright", "mini_wright"])
    >>> int(res["n"].iloc[0]), round(float(res["ccc"].iloc[0]), 4)
    (17, 0.9427)
    >>> round(float(res["ci_low"].iloc[0]), 4), round(float(res["ci_high"].iloc[0]), 4)
    (0.8505, 0.9787)
    """
    column, word = score_column(value, label)
    read = ReadSpec.of(locals(), label=column, label_word=word)
    layout = numeric_layout(read)
    check_reference(reference)
    level = _check_ci(ci)
    as_matrix = _check_flag("matrix", matrix)
    check_draws(cluster, n_boot, seed)
    sums, output = read_pair_sums(data, with_reference(raters, reference), layout)
    _require_items(sums)
    if as_matrix:
        return cast(FrameT, _render(sums, _ccc_matrix(sums), output))
    check_names(sums.by, ("rater_a", "rater_b", "n", *_ccc_names(level)), "ccc")
    group, a, b, m = _pair_rows(sums, reference)
    stats = lin_ccc(**m, ci=level)
    if cluster is not None and level is not None:
        pairs = rater_pairs(sums.raters, reference)
        boot = pair_intervals(data, with_reference(raters, reference), layout, cluster, pairs,
                              _ccc_only, level, n_boot, seed)["ccc"]  # fmt: skip
        stats.update((k, np.where(np.isfinite(stats["ccc"]), boot[k], np.nan)) for k in boot)
    _warn_undefined(stats["undefined"], m["n"], "ccc", "where a rater's ratings do not vary")
    table = _table(sums, group, (a, b), m["n"], stats, _ccc_names(level))
    return cast(FrameT, _render(sums, table, output))


def _ccc_matrix(sums: PairSums) -> Table:
    """The rater x rater frame of ``ccc``, one block of rows per group."""
    n_raters = len(sums.raters)
    if MATRIX_KEY in sums.raters:
        raise KappaFrameError(
            f"a rater is named {MATRIX_KEY!r}, the name of the matrix's rater column; "
            "rename that rater first (or leave matrix=False)."
        )
    check_names(sums.by, (MATRIX_KEY, *sums.raters), "ccc")
    a, b = np.meshgrid(np.arange(n_raters), np.arange(n_raters), indexing="ij")
    m = sums.moments.pairs(a.reshape(-1), b.reshape(-1))  # (R * R, G)
    stats = lin_ccc(**m, ci=None)
    upper = (a < b).reshape(-1)
    _warn_undefined(
        stats["undefined"][upper], m["n"][upper], "ccc", "where a rater's ratings do not vary"
    )
    n_groups = sums.moments.n.shape[0]
    square = stats["ccc"].T.reshape(n_groups * n_raters, n_raters)
    group = np.repeat(np.arange(n_groups), n_raters)
    rater_of_row = np.tile(np.arange(n_raters), n_groups)
    keys = [Column(b_, "key", _first_rows(sums, group), source=b_) for b_ in sums.by]
    table = matrix_columns(keys, list(sums.raters), rater_of_row, square, "float", "ccc")
    return table


@declared
@lazy_result(_plan_bland_altman, counted=False)
def bland_altman(
    data: FrameT,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    value: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    reference: Hashable | None = None,
    agreement: float = 1.96,
    ci: float | None = 0.95,
    duplicates: Duplicates = "raise",
    trial: Hashable | None = None,
    proportional: bool = False,
    cluster: Hashable | None = None,
    n_boot: int | None = None,
    seed: int | np.random.Generator | None = None,
) -> FrameT:
    """Bland-Altman bias and limits of agreement of every pair of raters (per group).

    For the differences ``d = a - b`` (``rater_a`` less ``rater_b``) of the ``n`` items
    both rated::

        bias = mean(d),   sd = sqrt(sum (d - bias)^2 / (n - 1))
        loa_low, loa_high = bias -/+ agreement * sd

    the range that holds about 95% of the differences (``agreement=1.96``; Bland &
    Altman 1986 rounded it to 2). The intervals are Bland & Altman's (1986)
    approximate ones: the bias ``-/+ t sd / sqrt(n)``, each limit
    ``-/+ t sqrt(3 sd^2 / n)``, ``t`` the Student quantile on ``n - 1`` degrees of
    freedom (R's ``BlandAltmanLeh::bland.altman.stats``).

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library with the columns: the ``by`` columns;
        ``rater_a``, ``rater_b``; ``n``, the items both rated (pairwise complete cases);
        ``bias``; ``sd``; ``loa_low``; ``loa_high``; with ``ci``, ``bias_ci_low``,
        ``bias_ci_high``, ``loa_low_ci_low``, ``loa_low_ci_high``, ``loa_high_ci_low``,
        ``loa_high_ci_high``; with ``proportional``, ``slope``, ``intercept``,
        ``slope_p_value`` and with ``ci`` ``slope_ci_low``, ``slope_ci_high``. With
        ``trial`` the same columns, ``n`` the items both raters rated in some trial.

    Raises
    ------
    KappaFrameError
        As ``kappaframe.ccc``; ``agreement`` not a positive number.

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, when a pair shares fewer than two items (no
        standard deviation: NaN).

    See Also
    --------
    bland_altman_plot : the differences against the means, with these lines.
    ccc : Lin's concordance correlation of the same pairs.

    Notes
    -----
    With ``cluster``, the intervals of the bias and of the limits are the percentile
    cluster bootstrap (``n_boot`` replicates, default 1000, from ``seed``): whole clusters
    drawn with replacement, the bias and limits recomputed from their items; a group with
    fewer than two clusters gets none. The bias and the limits themselves do not change.

    With ``reference``, ``d`` is each rater less the reference.

    Repeated measurements (``trial``; Bland & Altman 1999, section 5.1, and 2007, the
    true value varying between readings): with ``D_i`` the difference of item ``i``'s
    mean ratings, ``bias = mean(D_i)``, and the variance of the difference of single
    readings ``s2_d = var(D_i) + (1 - 1/m_a) s2_a + (1 - 1/m_b) s2_b``, ``s2_a`` rater a's
    within-item variance (the residual mean square of a one-way analysis of variance on
    the items) and ``m_a`` the harmonic mean of its numbers of readings per item; the
    limits are ``bias -/+ agreement s_d``. A reading missing from a trial only changes
    ``m``; an item needs one reading by each rater. Intervals: the bias ``-/+ t
    sqrt(var(D_i) / n)``; each limit ``-/+ z se``, ``se^2 = s2_d / n + agreement^2
    var(s2_d) / (4 s2_d)`` (normal quantile, Bland & Altman 1999, section 5.1). A pandas
    or polars DataFrame only.

    Proportional bias (``proportional``): the least-squares line of ``d`` on the means
    ``(a + b) / 2`` (with ``trial``, of ``D_i`` on the items' means), from the same six
    sums; a slope away from 0 says the differences grow or shrink with the size of the
    measurement (Bland & Altman 1999, section 3.2).

    ``bias`` and ``sd`` come from the same six sums per pair as ``ccc``
    (``sum d = sum a - sum b``, ``sum d^2 = sum a^2 - 2 sum ab + sum b^2``). The
    approximation ``sqrt(3 sd^2 / n)`` is Bland & Altman's (1986) for limits at two
    standard deviations; Bland & Altman (1999) give ``sd sqrt(1/n + z^2 / (2 (n - 1)))``,
    nearly the same for ``z = 1.96``.

    References
    ----------
    Bland, J. M., & Altman, D. G. (1986). Statistical methods for assessing agreement
    between two methods of clinical measurement. *The Lancet* 327(8476), 307-310.

    Bland, J. M., & Altman, D. G. (1999). Measuring agreement in method comparison
    studies. *Statistical Methods in Medical Research* 8(2), 135-160.

    Bland, J. M., & Altman, D. G. (2007). Agreement between methods of measurement with
    multiple observations per individual. *Journal of Biopharmaceutical Statistics*
    17(4), 571-582.

    Examples
    --------
    The peak flow meters of Bland & Altman (1986): the mean difference is -2.1 l/min,
    the standard deviation 38.8, the limits (at 2 SD) -79.7 and 75.5 l/min.

    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> pefr = pd.DataFrame({
    ...     "wright": [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267,
    ...                478, 178, 423, 427],
    ...     "mini_wright": [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260,
    ...                     477, 259, 350, 451],
    ... })
    >>> res = kf.bland_altman(pefr, ["wright", "mini_wright"], agreement=2)
    >>> round(float(res["bias"].iloc[0]), 1), round(float(res["sd"].iloc[0]), 1)
    (-2.1, 38.8)
    >>> round(float(res["loa_low"].iloc[0]), 1), round(float(res["loa_high"].iloc[0]), 1)
    (-79.6, 75.4)
    """
    column, word = score_column(value, label)
    if trial is not None:
        return cast(FrameT, _bland_altman_trials(data, dict(locals()), column, word))
    read = ReadSpec.of(locals(), label=column, label_word=word)
    layout = numeric_layout(read)
    check_reference(reference)
    level = _check_ci(ci)
    k = check_agreement(agreement)
    line = _check_flag("proportional", proportional)
    check_draws(cluster, n_boot, seed)
    if line and cluster is not None:
        raise KappaFrameError(
            f"{arg('proportional', True)} does not apply with {arg('cluster', cluster)}: the "
            "slope's interval and test treat the items as independent. Drop one of them.",
            option="proportional",
        )
    sums, output = read_pair_sums(data, with_reference(raters, reference), layout)
    _require_items(sums)
    names = _ba_names(level, line)
    check_names(sums.by, ("rater_a", "rater_b", "n", *names), "bland_altman")
    group, a, b, m = _pair_rows(sums, reference)
    stats = bland_altman_stats(**m, agreement=k, ci=level)
    if line:
        stats.update(proportional_bias(**m, ci=level))
    if cluster is not None and level is not None:
        pairs = rater_pairs(sums.raters, reference)
        boot = pair_intervals(data, with_reference(raters, reference), layout, cluster, pairs,
                              partial(_lines, agreement=k), level, n_boot, seed)  # fmt: skip
        stats.update((f"{name}_{end}", boot[name][end]) for name in boot for end in _ENDS)
    _warn_undefined(stats["undefined"], m["n"], "the standard deviation of the differences", "")
    table = _table(sums, group, (a, b), m["n"], stats, names)
    return cast(FrameT, _render(sums, table, output))


def _bland_altman_trials(data: Any, o: dict[str, Any], column: Any, word: str) -> Any:
    """``bland_altman`` with ``trial``: limits from every replicate (Bland & Altman 2007)."""
    no_cluster_with_trial(o)
    check_reference(o["reference"])
    level = _check_ci(o["ci"])
    k = check_agreement(o["agreement"])
    line = _check_flag("proportional", o["proportional"])
    raters = with_reference(o["raters"], o["reference"])
    columns = LongLayout(o["item"], o["rater"], column)
    t = trial_frame(data, o["trial"], raters=raters, columns=columns, by=o["by"], word=word)
    ratings = read_trials(t, str(o["duplicates"]))
    if len(ratings.raters) < 2:
        raise too_few_raters(2, ratings.raters, t.rater)
    names = _ba_names(level, line)
    check_names(t.by, ("rater_a", "rater_b", "n", *names), "bland_altman")
    table, n = bland_altman_trial_table(ratings, o["reference"], k, level, names, line)
    if not len(n) or int(n.max()) < 2:
        raise KappaFrameError(
            "bland_altman(trial=...) needs at least 2 items rated by both raters of a pair; "
            f"the most any pair shares is {int(n.max()) if len(n) else 0}. Pass more ratings "
            "(or, with by=, check that the groups are not empty).",
            option="trial",
        )
    _warn_undefined(n < 2, n, "the standard deviation of the differences", "")
    return ratings.frame.render(table)


@dataclass(frozen=True)
class BlandAltmanPoints:
    """What a Bland-Altman picture draws of one pair: each item's mean and difference.

    ``lines``: the pair's ``bias``, ``loa_low`` and ``loa_high`` as ``bland_altman``
    gives them (with ``level``, each line's ``_ci_low`` and ``_ci_high``); ``agreement``
    the limits' distance from the bias, in standard deviations.
    """

    raters: tuple[Hashable, Hashable]
    means: np.ndarray
    diffs: np.ndarray
    lines: dict[str, float]
    agreement: float
    level: float | None

    @property
    def n(self) -> int:
        """Items rated by both."""
        return len(self.means)


def bland_altman_points(
    data: Any, raters: Any, read: ReadSpec, *, agreement: Any = 1.96, ci: Any = 0.95
) -> BlandAltmanPoints:
    """One pair's items (``x = (a + b) / 2``, ``y = a - b``) and Bland-Altman lines."""
    layout = numeric_layout(read)
    level = None if ci is None else check_level(ci)
    k = check_agreement(agreement)
    ratings = read_numeric(data, raters, layout, what="bland_altman_plot()")
    _one_pair(ratings)
    a, b = ratings.values
    both = ~np.isnan(a) & ~np.isnan(b)
    if int(both.sum()) < 2:
        raise KappaFrameError(
            f"a Bland-Altman plot needs at least 2 items rated by both {ratings.raters[0]!r} "
            f"and {ratings.raters[1]!r}; they share {int(both.sum())}."
        )
    m = ratings.sums().moments.pairs(np.array([0]), np.array([1]))
    stats = bland_altman_stats(**m, agreement=k, ci=level)
    lines = {key: float(np.asarray(v).reshape(-1)[0]) for key, v in stats.items()}
    pair = (ratings.raters[0], ratings.raters[1])
    return BlandAltmanPoints(pair, (a[both] + b[both]) / 2.0, a[both] - b[both], lines, k, level)


def _one_pair(ratings: NumericRatings) -> None:
    if len(ratings.raters) != 2:
        shown = [str(r) for r in ratings.raters[:10]]
        raise KappaFrameError(
            f"bland_altman_plot draws one pair of raters; the input has {len(ratings.raters)}: "
            f"{shown}. Name the two with raters=[a, b] (kf.bland_altman gives every pair).",
            option="raters",
        )
