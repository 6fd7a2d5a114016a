"""The public functions. Each accessor method is a one-line call of one of these."""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np

from .._count.diagonal import DiagonalCounts, use_diagonal
from .._count.kernel import diagonal_counts, pair_counts, weighted_diagonal_counts
from .._encode.codes import encode_labels, order_is_known, require_order, shared_categories
from .._errors import KappaFrameError, KappaFrameTypeError, quiet_undefined, warn_undefined
from .._frames.arrays import factorize_any
from .._schema import TIDY_COLUMNS, Column, Table
from .._stats.agreement import Weights, agreement, pair_agreement, weight_matrix
from .._stats.scales import MIN_ITEMS, resolve_scale, with_min_items
from .._types import (
    Alternative,
    Benchmark,
    CIDist,
    CIMethod,
    Closed,
    Duplicates,
    Scale,
    Stat,
)
from .assemble import matrix_schema, matrix_table, square_values, tidy, tidy_schema
from .cluster import check_cluster, in_memory_only, prepare_clustered
from .counts import Counts
from .lazy import Planned, lazy_result, planned_layout
from .options import (
    PairOptions,
    check_categories,
    check_min_items,
    check_pair_options,
    check_reference,
    check_settings,
    check_stat,
    rater_pairs,
    with_reference,
)
from .plan import adapt, count_input, prepare_input
from .prepare import Prepared
from .settings.bind import declared
from .settings.reading import ReadSpec
from .trials import no_lazy_trial, trial_kappa
from .windows import check_windows, in_windows

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["cohen_kappa", "confusion", "counts", "matrix", "pairwise", "score"]

FrameT = TypeVar("FrameT")


def _pair_settings(
    *,
    ci: Any,
    ci_method: Any,
    n_boot: Any,
    seed: Any,
    stats: Any,
    alternative: Any,
    ci_dist: Any,
    population: Any,
    benchmark: Any,
    kappa0: Any,
    min_items: Any,
    weights: Any,
    scale: Any,
    by: Any,
    reference: Any,
    cluster: Any,
) -> tuple[PairOptions, int | None]:
    """Check ``pairwise``'s options before any data: the extra columns, ``min_items``."""
    extra = check_pair_options(
        ci, ci_method, n_boot, seed, stats, alternative, ci_dist, population, benchmark,
        kappa0=kappa0,
    )  # fmt: skip
    min_items = check_min_items(min_items)
    check_settings(weights=weights, scale=scale, by=by, output=(*TIDY_COLUMNS, *extra.names))
    check_reference(reference)
    check_cluster(cluster, population)
    return extra, min_items


_PAIR_SETTINGS = tuple(inspect.signature(_pair_settings).parameters)


def _plan_pairwise(names: list[Hashable], o: dict[str, Any]) -> Planned:
    """``pairwise``'s result with no rows, from the input's columns and the options."""
    no_lazy_trial(o)
    extra, min_items = _pair_settings(**{k: o[k] for k in _PAIR_SETTINGS})
    if o["cluster"] is not None:  # a lazy result is counted in parts
        raise in_memory_only(o["cluster"])
    raters = with_reference(o["raters"], o["reference"])
    by, rater_list, count = planned_layout(names, ReadSpec.of(o, raters=raters))
    if rater_list and o["reference"] is not None:
        rater_pairs(rater_list, o["reference"])  # a reference among the raters
    none = np.zeros(0, dtype=np.int8)
    _, labels = with_min_items(none, none, min_items, resolve_scale(o["scale"]).labels)
    table = tidy_schema(by, rater_list, labels, extra.names)
    return Planned.of(table, raters, count, rater_list)


def _plan_matrix(names: list[Hashable], o: dict[str, Any]) -> Planned | None:
    """``matrix``'s result with no rows (``None`` in the long layout).

    In the long layout its columns are the rater ids in the data.
    """
    check_stat(o["stat"])
    check_settings(weights=o["weights"])
    by, rater_list, count = planned_layout(names, ReadSpec.of(o))
    if not rater_list:
        return None
    return Planned.of(matrix_schema(by, rater_list, o["stat"]), o["raters"], count, rater_list)


@declared
@lazy_result(_plan_pairwise)
def pairwise(
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
    scale: Scale = "landis_koch",
    min_items: int | None = MIN_ITEMS,
    ci: float | None = None,
    duplicates: Duplicates = "raise",
    min_overlap: int | None = None,
    stats: str | Sequence[str] | None = None,
    reference: Hashable | None = None,
    ci_method: CIMethod = "analytic",
    n_boot: int | None = None,
    seed: int | np.random.Generator | None = None,
    alternative: Alternative = "two-sided",
    ci_dist: CIDist = "normal",
    population: float | None = None,
    benchmark: Benchmark = "point",
    kappa0: float = 0.0,
    trial: Hashable | None = None,
    cluster: Hashable | None = None,
) -> FrameT:
    """Cohen's kappa of every pair of raters (per group), as a tidy frame.

    For each pair the K x K table of the items both rated, as proportions ``p_ij``, gives
    observed agreement ``p_o``, chance agreement ``p_e`` (from the two raters' own
    marginals ``p_i.`` and ``p_.j``) and

        kappa = (p_o - p_e) / (1 - p_e).

    With ``weights``, ``p_o = 1 - sum_ij w_ij p_ij`` and ``p_e = 1 - sum_ij w_ij p_i. p_.j``
    for disagreement weights ``w`` scaled to a maximum of 1, so the same identity holds on
    every row.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library (a LazyFrame for a LazyFrame) with the columns: the
        ``by`` columns; ``rater_a``, ``rater_b`` (pairs in rater order); ``n``, the items
        both raters labeled; ``p_o``; ``p_e``; ``kappa`` (NaN when ``n == 0`` or
        ``p_e == 1``); ``interpretation`` (ordered categorical / Enum: "too few items" when
        ``n < min_items``, then the bands of ``scale`` from the lowest; missing where kappa
        is NaN); with ``ci``, ``se``, ``se0``, ``ci_low``, ``ci_high``, ``z``, ``p_value``;
        then the ``stats`` columns. With ``trial``: each rater against themself, a row
        per rater and pair of trials: the rater column (named as ``rater``; ``"rater"``
        in the wide layout) after the ``by`` columns, then ``trial_a``, ``trial_b`` in
        place of ``rater_a``, ``rater_b``.

    Raises
    ------
    KappaFrameError
        Unknown columns, fewer than two raters, a ``by`` column that is also a rater,
        labels of incomparable types, a label outside ``categories``, bad weights, a
        duplicate rating in the long layout, ``min_items`` not a whole number >= 0.

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, when some kappa is undefined.

    See Also
    --------
    matrix : the same numbers as a rater x rater frame.
    cohen_kappa : two arrays, one number.

    Notes
    -----
    With ``ci``, ``se`` is the large-sample standard error of Fleiss, Cohen & Everitt
    (1969); ``se0`` the standard error under kappa = 0 (statsmodels' ``std_kappa0``, SAS's
    "ASE under H0"); ``z = kappa / se0``; ``p_value`` tests kappa = 0 against
    ``alternative``. A non-zero ``kappa0`` tests kappa = kappa0 instead, with
    ``z = (kappa - kappa0) / se`` (``se0`` holds under kappa = 0 only; Fleiss, Levin &
    Paik 2003, ch. 18); the interval is ``kappa -/+ q se``. These are statsmodels'
    ``cohens_kappa`` values. The bootstrap (``ci_method="bootstrap"``) draws one
    multinomial table per replicate, all pairs and groups at once, on up to 8 threads: it
    costs about ``tables x n_boot x K^2`` binomial draws. A Dask DataFrame with
    ``categories`` known gives a lazy Dask frame (run at ``.compute()``).

    Repeated trials (``trial``, intra-rater kappa): the trials are taken as the raters
    and the rater as the last ``by`` column, so every option works as for raters; a
    rater who missed a trial of an item leaves that item out of the pairs with that
    trial only (``n`` counts the items labeled in both trials). A pandas or polars
    DataFrame only; not with ``reference`` or ``time``.

    Missing labels (NaN, None, pd.NA, polars null and NaN) are dropped pair by pair:
    ``n`` counts the items both raters labeled. An empty frame gives one row per pair
    with ``n == 0`` (no rows when grouped).

    The ``stats`` columns, with ``P`` the table as proportions, ``p_o,1`` its diagonal sum,
    ``p_k.``/``p_.k`` the marginals of ``rater_a``/``rater_b``, ``pi_k`` their mean and K
    the number of categories. Weighted like ``kappa`` (same ``p_o``): ``scott_pi``
    (``p_e = 1 - sum W_ij pi_i pi_j``), ``bennett_s`` (``p_e = 1 - sum W / K^2``, i.e.
    ``1/K``) and ``kappa_max`` (largest agreement the marginals allow:
    ``sum min(p_k., p_.k)``; for linear or quadratic weights the categories paired in order;
    NaN for other weight matrices). Always unweighted: ``pabak = (K p_o,1 - 1) / (K - 1)``
    (``2 p_o,1 - 1`` for two categories), ``gwet_ac1``
    (``p_e = sum pi_k (1 - pi_k) / (K - 1)``; its weighted form is ``overall``'s
    ``"gwet_ac2"``), ``quantity_disagreement = sum |p_k. - p_.k| / 2`` and
    ``allocation_disagreement = 1 - p_o,1 - quantity_disagreement``.
    ``prevalence_index = P_11 - P_22`` and ``bias_index = P_12 - P_21`` (signed; 1 = the
    first category) exist for two categories only and are NaN otherwise. Each
    chance-corrected value is NaN where its chance agreement is 1, like kappa.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and
    Psychological Measurement* 20(1), 37-46.

    Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard errors of
    kappa and weighted kappa. *Psychological Bulletin* 72(5), 323-327.

    Fleiss, J. L., Levin, B., & Paik, M. C. (2003). *Statistical Methods for Rates and
    Proportions* (3rd ed.), ch. 18. Wiley.

    Byrt, T., Bishop, J., & Carlin, J. B. (1993). Bias, prevalence and kappa. *Journal
    of Clinical Epidemiology* 46(5), 423-429.

    Umesh, U. N., Peterson, R. A., & Sauber, M. H. (1989). Interjudge agreement and the
    maximum value of kappa. *Educational and Psychological Measurement* 49, 835-850.

    Pontius, R. G., & Millones, M. (2011). Death to kappa. *International Journal of
    Remote Sensing* 32(15), 4407-4429.

    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the
    presence of high agreement. *British Journal of Mathematical and Statistical
    Psychology* 61, 29-48.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({"ann1": ["a", "a", "b", "b"], "ann2": ["a", "b", "b", "b"]})
    >>> res = kf.pairwise(df)
    >>> round(float(res["kappa"].iloc[0]), 4), str(res["interpretation"].iloc[0])
    (0.5, 'too few items')
    >>> str(kf.pairwise(df, min_items=None)["interpretation"].iloc[0])  # 4 items: a band
    'moderate'
    >>> res = kf.pairwise(df, stats=["pabak", "gwet_ac1"], reference="ann2")
    >>> round(float(res["pabak"].iloc[0]), 4), round(float(res["gwet_ac1"].iloc[0]), 4)
    (0.5, 0.5294)

    Agreement per calendar week (weeks start on Monday):

    >>> days = pd.to_datetime(["2024-05-08", "2024-05-13", "2024-05-10", "2024-05-15"])
    >>> res = kf.pairwise(df.assign(day=days), time="day", every="1w", min_items=None)
    >>> [str(d.date()) for d in res["window_start"]], res["kappa"].tolist()
    (['2024-05-06', '2024-05-13'], [1.0, 0.0])
    """
    if trial is not None:
        return cast(FrameT, trial_kappa(pairwise, data, dict(locals())))
    extra, min_items = _pair_settings(
        ci=ci, ci_method=ci_method, n_boot=n_boot, seed=seed, stats=stats,
        alternative=alternative, ci_dist=ci_dist, population=population, benchmark=benchmark,
        kappa0=kappa0, min_items=min_items, weights=weights, scale=scale, by=by,
        reference=reference, cluster=cluster,
    )  # fmt: skip
    windows = check_windows(time, every, period, offset, closed)
    read = ReadSpec(
        with_reference(raters, reference),
        by=by,
        item=item,
        rater=rater,
        label=label,
        categories=categories,
        duplicates=duplicates,
    )
    frame, by, _ = in_windows(data, windows, by)
    read = read if windows is None else read.replace(by=by)
    prep, clusters = prepare_clustered(frame, read, cluster, min_overlap=min_overlap)
    return prep.frame.render(
        tidy(
            prep,
            weights=weights,
            scale=scale,
            ci=ci,
            reference=reference,
            extra=extra,
            min_items=min_items,
            clusters=clusters,
        )
    )


@declared
@lazy_result(_plan_matrix)
def matrix(
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
    stat: Stat = "kappa",
    weights: str | ArrayLike | None = None,
    categories: Sequence[Any] | None = None,
    duplicates: Duplicates = "raise",
    min_overlap: int | None = None,
) -> FrameT:
    """A square rater x rater frame of one statistic (per group).

    The diagonal is each rater against themself: kappa and ``p_o`` 1 (kappa NaN for a
    rater who used a single category), ``n`` the items the rater labeled.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        pandas: a frame indexed by ``rater`` (``by`` columns, then ``rater``, as a
        MultiIndex when grouped) with one column per rater. polars: the ``by`` columns, a
        ``rater`` column, then one column per rater.

    See Also
    --------
    pairwise : the same numbers as a tidy frame, one row per pair.
    heatmap : the matrix as a picture.

    Notes
    -----
    In a notebook (IPython), a pandas result displays as a coloured table (a pandas
    ``Styler``; kappa red below 0, white at 0, blue towards 1) with no extra call. It is
    a plain DataFrame marked in ``attrs["kappaframe"]``; see ``kappaframe._report.display``.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({"a": [1, 1, 2, 2], "b": [1, 2, 2, 2], "c": [1, 1, 2, 2]})
    >>> m = kf.matrix(df)
    >>> float(m.loc["a", "c"]), float(m.loc["a", "b"])
    (1.0, 0.5)
    """
    check_stat(stat)
    check_settings(weights=weights)
    windows = check_windows(time, every, period, offset, closed)
    read = ReadSpec.of(locals())
    frame, by, _ = in_windows(data, windows, by)
    read = read if windows is None else read.replace(by=by)
    prep = prepare_input(frame, read, min_overlap=min_overlap, from_counts=True)
    return prep.frame.render(matrix_table(prep, stat, weights))


@dataclass(frozen=True)
class Squares:
    """What a heatmap draws: one statistic of every rater pair, per group.

    ``values`` (groups, R, R) are the numbers of ``matrix`` (each rater with themself on
    the diagonal), ``counts`` the items both raters labelled (when asked for),
    ``titles`` each group's ``"by = key"`` (``""`` when not grouped).
    """

    values: np.ndarray
    raters: list[Hashable]
    titles: list[str]
    counts: np.ndarray | None = None


def matrix_squares(
    data: Any, read: ReadSpec, stat: str = "kappa", weights: Any = None, *, counts: bool = False
) -> Squares:
    """``matrix`` as arrays, for a picture: the same reading and the same numbers."""
    check_stat(stat)
    prep = prepare_input(adapt(data), read, from_counts=True)
    values = square_values(prep, stat, weights)
    with quiet_undefined():  # the same pairs: their undefined kappas are reported above
        n = square_values(prep, "n", weights) if counts else None
    return Squares(values, list(prep.raters), group_titles(prep), n)


def group_titles(prep: Prepared) -> list[str]:
    """``"project = alpha"`` for each group (``""`` when not grouped)."""
    if not prep.by:
        return [""]
    first = prep.groups.first_row
    table = Table([Column(b, "key", first, source=b) for b in prep.by])
    native = prep.frame.render(table)
    if hasattr(native, "collect"):
        native = native.collect()
    if hasattr(native, "itertuples"):
        rows = list(native.itertuples(index=False, name=None))
    else:
        rows = native.rows()
    return [", ".join(f"{b} = {v}" for b, v in zip(prep.by, row, strict=True)) for row in rows]


@declared
def score(
    data: Any,
    a: Hashable,
    b: Hashable,
    *,
    weights: str | ArrayLike | None = None,
    categories: Sequence[Any] | None = None,
) -> float:
    """Cohen's kappa of two rater columns of a frame, as one float.

    The same number as the ``kappa`` of ``pairwise`` for the pair ``(a, b)``: items
    either rater left missing are not counted, and the category order is the one
    ``pairwise`` uses.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    float
        Cohen's kappa; NaN (with an ``UndefinedKappaWarning``) when it is undefined
        (no shared item, or both raters used one and the same category).

    See Also
    --------
    pairwise : every pair at once, with ``n``, ``p_o`` and ``p_e``.
    cohen_kappa : the same number from two arrays.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({"model": [0, 1, 1, 0, 1], "truth": [0, 1, 0, 0, 1]})
    >>> round(kf.score(df, "model", "truth"), 4)
    0.6154
    """
    check_settings(weights=weights)
    read = ReadSpec([a, b], categories=categories)
    prep = prepare_input(adapt(data), read, from_counts=True)
    prep.require_order(weights)
    w = Weights.of(weights, prep.categories)
    stats = pair_agreement(prep.tables(np.array([[0, 1]]), weights), w)
    warn_undefined(stats["undefined"], stats["n"], "pairs")
    return float(stats["kappa"][0, 0])


@declared
def confusion(
    data: FrameT,
    a: Hashable,
    b: Hashable,
    *,
    categories: Sequence[Any] | None = None,
) -> FrameT:
    """The K x K table of counts of two rater columns (rows ``a``, columns ``b``).

    Items either rater left missing are not counted. pandas: indexed by category (index
    named ``a``, columns named ``b``); polars: a first column ``a`` holding the categories,
    then one count column per category.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame
        A frame of the input's library: K x K whole counts.

    See Also
    --------
    confusion_plot : the table as a picture.
    score : the kappa of the same two columns.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({"x": ["no", "yes", "yes"], "y": ["no", "no", "yes"]})
    >>> kf.confusion(df, "x", "y").to_numpy().tolist()
    [[1, 0], [1, 1]]
    """
    prep, table = _pair_table(data, a, b, categories)
    k = len(prep.categories)
    labels = np.empty(k, dtype=object)
    labels[:] = prep.categories
    columns = [Column(a, "label", labels)]
    columns += [
        Column(cat, "int", table[:, j].astype(np.int64)) for j, cat in enumerate(prep.categories)
    ]
    return prep.frame.render(Table(columns, index=[a], columns_name=b))


def _pair_table(
    data: Any, a: Hashable, b: Hashable, categories: Any, weights: Any = None
) -> tuple[Prepared, np.ndarray]:
    """Two rater columns read as ``confusion`` reads them, and their K x K counts."""
    read = ReadSpec([a, b], categories=categories)
    prep = prepare_input(adapt(data), read, from_counts=True)
    prep.require_order(weights)
    return prep, np.asarray(prep.tables(np.array([[0, 1]]), full=True))[0, 0]


@dataclass(frozen=True)
class PairTable:
    """What a confusion picture draws of two raters: the counts of ``confusion``, kappa.

    ``ordered``: the categories have a declared order (``categories=``, an ordered
    Categorical, or labels that are numbers or dates), not text sorted as text.
    """

    table: np.ndarray
    categories: list[Any]
    kappa: float
    n: int
    ordered: bool


def confusion_counts(
    data: Any, a: Hashable, b: Hashable, *, categories: Any = None, weights: Any = None
) -> PairTable:
    """``confusion`` of ``a`` and ``b`` as an array, with their kappa under ``weights``."""
    prep, table = _pair_table(data, a, b, categories, weights)
    stats = agreement(table, weight_matrix(weights, prep.categories))
    ordered = order_is_known(prep.categories, prep.ordered)
    return PairTable(table, list(prep.categories), float(stats["kappa"]), int(stats["n"]), ordered)


@declared
def counts(
    data: Any,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    categories: Sequence[Any] | None = None,
    duplicates: Duplicates = "raise",
) -> Counts:
    """Count the K x K table of every rater pair per group, as an additive ``Counts``.

    The first half of ``kappaframe.pairwise``: ``kf.counts(df, ...).pairwise()`` is
    ``kf.pairwise(df, ...)``. Counts of parts of the data add up (``+``, ``sum()``), and
    can be stored with ``Counts.to_frame`` and read back with
    ``Counts.from_frame``.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    Counts
        Every pair of raters that shares an item (all pairs in the wide layout), and
        each rater with themself, in every group.

    See Also
    --------
    Counts.from_frame : counts stored as cells, or counted by an SQL engine.
    Counts.from_table : one K x K table.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({"a": [1, 1, 2, 2], "b": [1, 2, 2, 2]})
    >>> c = kf.counts(df)
    >>> c.tables[1, 0].tolist()  # the pair (a, b): rows a's labels, columns b's
    [[1, 1], [0, 2]]
    >>> float(c.pairwise()["kappa"].iloc[0])
    0.5
    """
    read = ReadSpec.of(locals())
    return count_input(adapt(data), read)


@declared
def cohen_kappa(
    y1: ArrayLike,
    y2: ArrayLike,
    *,
    labels: Sequence[Any] | None = None,
    weights: str | ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    replace_undefined_by: float = np.nan,
) -> float:
    """Cohen's kappa of two label arrays: a drop-in for ``sklearn.metrics.cohen_kappa_score``.

    The observed agreement ``p_o`` and the chance agreement ``p_e`` of the two label
    arrays give

        kappa = (p_o - p_e) / (1 - p_e).

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    float

    See Also
    --------
    score : the same number from two columns of a frame.
    threshold_sweep : kappa of a score at every threshold.

    Examples
    --------
    >>> import kappaframe as kf
    >>> round(kf.cohen_kappa([0, 1, 2, 2, 1], [0, 1, 2, 1, 1], weights="linear"), 4)
    0.7368
    """
    if isinstance(y1, (str, bytes)) or isinstance(y2, (str, bytes)):
        raise KappaFrameTypeError("y1 and y2 must be arrays of labels, not strings.")
    check_settings(weights=weights)
    check_categories(labels, option="labels")
    if isinstance(replace_undefined_by, (bool, np.bool_)) or not isinstance(
        replace_undefined_by, numbers.Real
    ):
        raise KappaFrameTypeError(
            f"replace_undefined_by must be a number (NaN by default, 0.0 as scikit-learn "
            f"once did); got {replace_undefined_by!r}.",
            option="replace_undefined_by",
        )
    stats = two_arrays(y1, y2, labels=labels, weights=weights, sample_weight=sample_weight)
    if stats["undefined"]:
        if np.isnan(replace_undefined_by):
            warn_undefined(np.atleast_1d(stats["undefined"]), np.atleast_1d(stats["n"]), "pairs")
        return float(replace_undefined_by)
    return float(stats["kappa"])


def two_arrays(
    y1: Any,
    y2: Any,
    *,
    labels: Sequence[Any] | None,
    weights: Any,
    sample_weight: Any = None,
    option: str = "labels",
    names: tuple[str, str] = ("y1", "y2"),
) -> dict[str, Any]:
    """``n``, ``p_o``, ``p_e``, ``kappa`` and ``undefined`` of two label arrays, pair by pair.

    What ``cohen_kappa`` and the polars expressions (``pl.col(a).kappa.cohen(b)``) share:
    the labels of both arrays factorized together (``labels`` in order, else as ``pairwise``
    orders them), missing labels dropped pair by pair, one table counted.
    """
    y1_name, y2_name = names
    f1 = factorize_any(y1, y1_name)
    f2 = factorize_any(y2, y2_name)
    if len(f1.codes) != len(f2.codes):
        raise KappaFrameError(
            f"{y1_name} and {y2_name} must have the same length; got {len(f1.codes)} and "
            f"{len(f2.codes)}."
        )
    cats = shared_categories({y1_name: f1, y2_name: f2}, labels, option=option)
    codes = encode_labels([f1, f2], cats)
    sw = None
    if sample_weight is not None:
        if np.iscomplexobj(sample_weight):
            raise KappaFrameTypeError(
                "sample_weight must be real numbers; got complex values (the imaginary part "
                "would be dropped). Pass their real part, or their modulus, explicitly."
            )
        try:
            sw = np.asarray(sample_weight, dtype=float).reshape(-1)
        except (TypeError, ValueError):
            raise KappaFrameTypeError(
                f"sample_weight must be an array of non-negative numbers, one per label; got "
                f"{sample_weight!r:.80}.",
                option="sample_weight",
            ) from None
        if sw.shape != (len(f1.codes),):
            raise KappaFrameError(
                f"sample_weight must have shape ({len(f1.codes)},); got {sw.shape}."
            )
        if not np.all(np.isfinite(sw)) or np.any(sw < 0):
            raise KappaFrameError("sample_weight must be finite and non-negative.")
    declared = labels is not None or f1.declared is not None or f2.declared is not None
    require_order(cats, declared=declared, columns=[], weights=weights, option=option)
    w = Weights.of(weights, cats)
    k = len(cats)
    counts: np.ndarray | DiagonalCounts
    if not use_diagonal(1, 1, k, weights):
        counts = pair_counts(codes, [(0, 1)], k, sample_weight=sw)
    elif sw is None:  # many categories: O(K) sums, no K x K table
        counts = DiagonalCounts.from_sums(diagonal_counts(codes, [(0, 1)], k))
    else:
        counts = DiagonalCounts.from_sums(weighted_diagonal_counts(codes[0], codes[1], k, sw))
    return {name: value[0, 0] for name, value in pair_agreement(counts, w).items()}
