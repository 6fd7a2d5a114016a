"""Public functions for all raters at once: overall() and per_category().

Each one is frame -> codes (``kappaframe._api.many_common.prepare_ratings``), or an item x
category table of counts (``kappaframe._frames.tables.read_count_table``) -> counts ->
statistics (``kappaframe._stats.multirater``, ``kappaframe._stats.agreement``) ->
``Table`` -> the caller's frame type. Nothing here knows a frame library.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast, get_args

import numpy as np

from .._count.kernel import all_pairs
from .._encode.codes import Groups, object_array
from .._encode.sets import SetLabels
from .._encode.windows import Windows
from .._errors import (
    KappaFrameError,
    arg,
    bad_option,
    warn_undefined,
)
from .._frames.tables import ArrayFrame, CountLayout, read_count_table
from .._schema import CATEGORY_COLUMNS, CI_COLUMNS, OVERALL_COLUMNS, Column, Table
from .._stats.agreement import (
    agreement,
    agreement_to_disagreement,
    one_vs_rest,
    require_symmetric,
    symmetric_part,
    weight_matrix,
)
from .._stats.alpha_sums import uses_sums
from .._stats.bootstrap_overall import bootstrap_overall
from .._stats.compare import options_record
from .._stats.inference import normal_interval, standard_errors
from .._stats.multirater import (
    Ratings,
    category_fleiss,
    compute,
    raters_per_group,
    ratings_of,
)
from .._stats.scales import MIN_ITEMS, resolve_scale, with_min_items
from .._stats.scales import Scale as Bands
from .._types import (
    AlphaCentre,
    Alternative,
    Benchmark,
    CategoryMethod,
    CIDist,
    CIMethod,
    Closed,
    Distance,
    Duplicates,
    Layout,
    Level,
    Method,
    Scale,
    ZFrom,
)
from .assemble import interpret, key_columns, warn_one_category
from .cluster import check_cluster, clustered_input
from .counts import read_pair_table
from .many_common import pair_tables, prepare_ratings
from .options import (
    PairOptions,
    as_list,
    check_conventions,
    check_min_items,
    check_overall_options,
    check_pair_options,
    check_settings,
)
from .per_label import set_distance_weights, set_options
from .prepare import Prepared
from .settings.bind import declared
from .settings.reading import ReadSpec
from .trials import trial_kappa
from .windows import check_windows, in_windows

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["overall", "per_category"]

FrameT = TypeVar("FrameT")


#: ``layout=`` of ``overall``: one label per rater and item, or per-item category counts.
LAYOUTS: tuple[str, ...] = get_args(Layout)
CATEGORY_METHODS: tuple[str, ...] = get_args(CategoryMethod)
#: Why ``layout="table"`` takes symmetric weights only.
WHY_TABLE_SYMMETRIC = (
    "a two-rater table has an order (rows: the first rater), and with weights that are not "
    "symmetric the observed agreement of its cells would change with it, while these "
    "coefficients treat the raters alike (on ratings they read the symmetric part)"
)
#: The methods that need to know which rater gave which label: not from counts.
NEEDS_RATERS = ("conger", "light")


@dataclass
class _CountSource:
    """Per-item category counts given by the caller (``layout="counts"``)."""

    ratings: Ratings
    categories: list[Any]
    by: list[Hashable]
    groups: Groups
    frame: Any


def _count_table(
    data: Any, layout: CountLayout, methods: list[str], unread: dict[str, Any]
) -> _CountSource:
    """The ``layout="counts"`` input: the options that apply, then the table's counts.

    The table is read by ``read_count_table``; here the methods are checked against
    what counts can tell, and the items with no count are left out. ``unread``: the
    rating options a table of counts has no use for (``raters``, ``rater``, ``label``).
    """
    if any(v is not None for v in unread.values()):
        raise KappaFrameError(
            "layout='counts' reads one row per item and one column per category (cells: "
            "how many raters chose it); raters=, rater= and label= do not apply. "
            "Name the category columns with categories= (and a column of item ids, "
            "which is not counted, with item=)."
        )
    refused = [m for m in methods if m in NEEDS_RATERS]
    if refused:
        raise KappaFrameError(
            f"method {refused[0]!r} needs to know which rater gave which label, which "
            "per-item counts do not say; use the ratings (layout='ratings')."
        )
    by_list = layout.by
    table = read_count_table(data, layout)
    counts, groups = table.counts, table.groups
    fractional = bool(np.any(counts != np.round(counts)))
    if fractional and "krippendorff" in methods:
        raise KappaFrameError(
            "Krippendorff's alpha counts whole pairable values (its small-sample term is "
            "1 / their number); these counts have fractions. Use whole counts, or another "
            "method (fleiss, gwet_ac1, gwet_ac2, brennan_prediger, percent take fractions)."
        )
    group = (
        np.zeros(len(counts), dtype=np.intp)
        if groups.codes is None
        else np.asarray(groups.codes, dtype=np.intp)
    )
    keep = counts.sum(axis=1) > 0
    k = len(table.categories)
    empty_codes = np.zeros((0, int(keep.sum())), dtype=np.int8)
    rt = Ratings(empty_codes, counts[keep], group[keep], groups.n_groups, k)
    return _CountSource(rt, table.categories, by_list, groups, table.frame)


def _contingency_table(
    data: Any, categories: Sequence[Any] | None, unread: dict[str, Any]
) -> tuple[_CountSource, np.ndarray]:
    """The ``layout="table"`` input: two raters' K x K table, as the ratings it counts.

    Cell ``(k, l)`` holding ``c`` is ``c`` items labeled ``k`` by the first rater (the
    rows) and ``l`` by the second, so every method (Conger's and Light's too) reads it
    as it reads those ratings. Whole counts only: a share of an item has no labels.
    ``unread``: the rating options a table has no use for (``raters``, ``by``, ``item``,
    ``rater``, ``label``), by name in that order.
    """
    given = [name for name, v in unread.items() if v is not None]
    if given:
        raise KappaFrameError(
            f"layout='table' reads one K x K table of two raters (rows: the first rater's "
            f"labels, columns: the second's), which has no {given[0]}=; drop it, or pass "
            f"the ratings themselves (layout='ratings').",
            option=given[0],
        )
    labels, cells, output = read_pair_table(data, categories)
    if np.any(cells != np.round(cells)):
        raise KappaFrameError(
            "layout='table' needs whole counts (each cell a number of items); this table "
            "has fractions. Multiply proportions by the number of items, or use "
            "kappaframe.Counts.from_table(table, n_obs=...).pairwise() for Cohen's kappa."
        )
    whole = cells.astype(np.int64)
    k = len(labels)
    flat = whole.ravel()
    cell = np.repeat(np.arange(k * k), flat)
    dtype = np.int8 if k < 127 else np.int32
    codes = np.stack([cell // k, cell % k]).astype(dtype)
    group = np.zeros(codes.shape[1], dtype=np.intp)
    rt = ratings_of(codes, group, 1, k)
    groups = Groups(None, 1, np.zeros(1, dtype=np.intp))
    return _CountSource(rt, labels, [], groups, ArrayFrame(output)), codes


def _schema(columns: tuple[str, ...], ci: float | None) -> tuple[str, ...]:
    return (*columns, *(CI_COLUMNS if ci is not None else ()))


def _needs_ratings(prep: Prepared, what: str) -> None:
    if prep.source is not None:
        raise KappaFrameError(
            f"{what} needs every rating of every item, but this input is counted per rater "
            "pair (the sparse path for many raters with few items each, or stored counts). "
            "Pass the wide layout (one column per rater), or fewer raters per call."
        )


def _warn_undefined(values: np.ndarray, what: str) -> None:
    why = "no items to compare, or chance agreement 1 (a single category in use)"
    warn_undefined(~np.isfinite(values), None, "rows", subject=what, otherwise=why)


def _rows(results: list[dict[str, np.ndarray]], key: str) -> np.ndarray:
    """``results[j][key][g]`` as one column, rows group-major (group g, then result j)."""
    if not results:
        return np.zeros(0)
    return np.stack([res[key] for res in results], axis=1).reshape(-1)


@dataclass(frozen=True)
class _OverallCall:
    """An ``overall`` call bound before any source is opened: its options, checked.

    ``weights``: the disagreement weights as given (``agreement_weights`` turned into
    them); ``categories``: the caller's; ``sets``: how to read set-valued labels.
    """

    methods: list[str]
    weights: Any
    agreement_weights: Any
    sets: SetLabels | None
    options: PairOptions
    min_items: int | None
    windows: Windows | None
    layout: str
    level: str
    scale: Bands
    categories: Any
    ddof: int
    alpha_centre: str
    distance: str | None


#: The methods whose linearized variance sums the items' terms within clusters
#: (``kappaframe._stats.multirater._linearized``); the others' clustered interval is the
#: cluster bootstrap (``ci_method="bootstrap"``).
CLUSTER_LINEARIZED = ("fleiss", "conger", "gwet_ac1", "gwet_ac2", "brennan_prediger")


def _bind_overall(
    *,
    method: Any,
    level: Any,
    weights: Any,
    agreement_weights: Any,
    distance: Any,
    multi_sep: Any,
    layout: Any,
    categories: Any,
    scale: Any,
    by: Any,
    ci: Any,
    ci_method: Any,
    n_boot: Any,
    seed: Any,
    alternative: Any,
    ci_dist: Any,
    population: Any,
    benchmark: Any,
    z_from: Any,
    ddof: Any,
    alpha_centre: Any,
    min_items: Any,
    time: Any,
    every: Any,
    period: Any,
    offset: Any,
    closed: Any,
    cluster: Any = None,
) -> _OverallCall:
    """Check ``overall``'s options, in a fixed order, before any source is opened."""
    given_weights = (
        weights
        if agreement_weights is None
        else agreement_to_disagreement(agreement_weights, weights)
    )
    methods = check_overall_options(method, level, given_weights)
    sets = set_options(distance, multi_sep, methods, given_weights, level, layout, categories)
    check_settings(
        weights=given_weights, scale=scale, by=by, output=OVERALL_COLUMNS, what="overall"
    )
    options = check_pair_options(
        ci,
        ci_method,
        n_boot,
        seed,
        alternative=alternative,
        ci_dist=ci_dist,
        population=population,
        benchmark=benchmark,
        z_from=z_from,
    )
    check_conventions(methods, ci, ddof, alpha_centre)
    min_items = check_min_items(min_items)
    if layout not in LAYOUTS:
        raise bad_option("layout", layout, LAYOUTS)
    windows = check_windows(time, every, period, offset, closed)
    if windows is not None and layout == "counts":
        raise KappaFrameError(
            f"{arg('time')} windows rows of ratings; a table of counts has no time per "
            f"rating. Pass the ratings (layout='ratings'), or one table per window.",
            option="time",
        )
    check_cluster(cluster, population)
    linear = [m for m in methods if m not in CLUSTER_LINEARIZED]
    if cluster is not None and ci is not None and ci_method != "bootstrap" and linear:
        raise KappaFrameError(
            f"{arg('cluster', cluster)}: {linear[0]!r} has no linearized variance summed by "
            f"cluster here (those of {', '.join(CLUSTER_LINEARIZED)} do). Pass "
            f"{arg('ci_method', 'bootstrap')} (whole clusters resampled, reproducible with "
            f"{arg('seed')}), or leave {linear[0]!r} out.",
            option="cluster",
        )
    if cluster is not None and layout != "ratings":
        raise KappaFrameError(
            f"{arg('cluster', cluster)} reads each item's cluster beside its ratings; "
            f"layout={layout!r} has no items. Pass the ratings (layout='ratings').",
            option="cluster",
        )
    if layout in ("counts", "table") and sets is not None:
        raise KappaFrameError(
            f"layout={layout!r} reads counts of single categories; set-valued labels "
            "(multi_sep=) are read from the ratings (layout='ratings')."
        )
    return _OverallCall(
        methods, given_weights, agreement_weights, sets, options, min_items, windows,
        layout, level, resolve_scale(scale), categories, ddof, alpha_centre, distance,
    )  # fmt: skip


@dataclass(frozen=True)
class _OverallInput:
    """What one input kind of ``overall`` reads: the ratings counted per item.

    ``source`` gives the ``by`` columns, the groups and the frame to render into;
    ``codes`` the labels rater by rater (``None``: counts, who gave which label unknown);
    ``symmetric``: why the weights must be symmetric (``None``: any weights).
    """

    source: Any
    ratings: Ratings
    categories: list[Any]
    codes: np.ndarray | None
    symmetric: str | None = None
    #: The cluster of each item of ``ratings`` (``cluster=``); ``None``: no clusters.
    cluster: np.ndarray | None = None


def _read_ratings(data: Any, call: _OverallCall, given: dict[str, Any]) -> _OverallInput:
    """``layout="ratings"``: the wide or long layout, in time windows when asked."""
    read = ReadSpec.of(given, categories=None if call.sets else given["categories"], sets=call.sets)
    frame, by, _ = in_windows(data, call.windows, given["by"])
    read = read if call.windows is None else read.replace(by=by)
    clusters = None
    if given.get("cluster") is None:
        prep = prepare_ratings(frame, read)
    else:
        prep, clusters = clustered_input(frame, read, given["cluster"], from_counts=False)
    _needs_ratings(prep, "overall()")
    if call.level == "ordinal":  # interval and ratio need numbers anyway
        prep.require_order(why="level='ordinal'")
    prep.require_order(call.weights)
    k = len(prep.categories)
    rt = ratings_of(prep.codes, prep.groups.codes, prep.groups.n_groups, k)
    if clusters is None:
        return _OverallInput(prep, rt, prep.categories, prep.codes)
    rated = prep.codes.max(axis=0) >= 0 if len(prep.codes) else np.zeros(0, bool)
    cluster = np.asarray(clusters.prep.groups.codes)[rated]
    return _OverallInput(prep, rt, prep.categories, prep.codes, cluster=cluster)


def _read_counts(data: Any, call: _OverallCall, given: dict[str, Any]) -> _OverallInput:
    """``layout="counts"``: an item x category table of counts."""
    table = CountLayout(as_list(given["by"]), given["item"], given["categories"])
    unread = {"raters": given["raters"], "rater": given["rater"], "label": given["label"]}
    source = _count_table(data, table, call.methods, unread)
    return _OverallInput(source, source.ratings, source.categories, None)


def _read_table(data: Any, call: _OverallCall, given: dict[str, Any]) -> _OverallInput:
    """``layout="table"``: two raters' K x K table, as the ratings it counts."""
    unread = {k: given[k] for k in ("raters", "by", "item", "rater", "label")}
    source, codes = _contingency_table(data, given["categories"], unread)
    # The table's rows give the order of its labels.
    return _OverallInput(source, source.ratings, source.categories, codes, WHY_TABLE_SYMMETRIC)


#: How ``overall`` reads each ``layout=``.
_READERS = {"ratings": _read_ratings, "counts": _read_counts, "table": _read_table}


@dataclass(frozen=True)
class _Weighting:
    """The disagreement matrix, the weights as given (``None``: set distances), weighted."""

    disagree: np.ndarray
    given: np.ndarray | None
    weighted: bool


def _weighting(call: _OverallCall, read: _OverallInput) -> _Weighting:
    """The weights on the categories read: set distances, or the symmetric part.

    Krippendorff's alpha alone, unweighted, taken from its sums (``uses_sums``) reads no
    K x K matrix: then none is built (empty matrices), since K may be in the millions.
    """
    if (
        call.weights is None
        and call.sets is None
        and call.methods == ["krippendorff"]
        and uses_sums(call.level, False, len(read.categories))
    ):
        return _Weighting(np.zeros((0, 0)), None, False)
    distances = None
    if call.sets is not None:  # the distinct sets are the categories
        distances = set_distance_weights(read.categories, call.categories, call.distance)
    if distances is not None:
        return _Weighting(distances, None, True)
    oriented = weight_matrix(call.weights, read.categories, rescale=False)
    if read.symmetric is not None:
        require_symmetric(oriented, read.symmetric)
    # Raters have no order here: every coefficient reads the symmetric part only.
    given = symmetric_part(oriented)
    disagree = symmetric_part(weight_matrix(call.weights, read.categories))
    return _Weighting(disagree, given, call.weights is not None)


def _group_of_row(call: _OverallCall, read: _OverallInput) -> np.ndarray:
    """The group of each row of the result (group-major, one row per method)."""
    return np.repeat(np.arange(read.ratings.n_groups), len(call.methods))


def _n_items(read: _OverallInput) -> np.ndarray:
    rt = read.ratings
    return np.bincount(rt.group, minlength=rt.n_groups).astype(np.int64)


def _compute(
    call: _OverallCall, read: _OverallInput, w: _Weighting
) -> tuple[list[dict[str, np.ndarray]], dict[str, np.ndarray]]:
    """Every method's values per group, then (with ``ci``) their errors."""
    ci = call.options.ci
    rt = read.ratings
    results = [
        compute(
            rt,
            m,
            w.disagree,
            weighted=w.weighted,
            level=call.level,
            categories=read.categories,
            with_variance=ci is not None,
            given=w.given,
            ddof=call.ddof,
            centre=call.alpha_centre,
            agreement=None if call.agreement_weights is None or w.given is None else 1.0 - w.given,
        )
        for m in call.methods
    ]
    value = _rows(results, "value")
    _warn_undefined(value, "the agreement coefficient")
    if ci is None:
        return results, {}
    return results, _errors(call, read, w, results, ci)


def _errors(
    call: _OverallCall,
    read: _OverallInput,
    w: _Weighting,
    results: list[dict[str, np.ndarray]],
    ci: float,
) -> dict[str, np.ndarray]:
    """The standard errors, intervals and tests of the values at level ``ci``."""
    options = call.options
    methods = call.methods
    value = _rows(results, "value")
    # The methods without a null variance of their own test with ``var``.
    for res in results:
        res.setdefault("var0", res["var"])
    n_for_test = _n_items(read)[_group_of_row(call, read)].astype(float)
    if call.alpha_centre == "p_a":  # irrCAC 1.0: the pairable items' n - 1 degrees of freedom
        for i, res in enumerate(results):
            if "n_var" in res:
                n_for_test[i :: len(methods)] = res["n_var"]
    errors = normal_interval(
        value,
        _rows(results, "var"),
        _rows(results, "var0"),
        ci,
        n=n_for_test,
        **options.test,
    )
    if options.ci_method == "bootstrap":
        boot = bootstrap_overall(
            read.ratings,
            methods,
            w.disagree,
            weighted=w.weighted,
            level=call.level,
            categories=read.categories,
            given=w.given,
            ci=ci,
            n_boot=options.n_boot or 1000,
            seed=options.seed,
        )
        defined = np.isfinite(value)
        for key in ("se", "ci_low", "ci_high"):
            errors[key] = np.where(defined, _rows(boot, key), np.nan)
    if read.cluster is not None:
        own = [res["var0"] is not res["var"] for res in results]  # a null variance of its own
        errors = _clustered_errors(call, read, w, value, errors, ci, own, _rows(results, "var"))
    # Light's kappa of raters who each used one category: no standard error (NaN).
    single = _rows(
        [
            {"one": res.get("one_category", np.zeros(np.shape(res["value"]), bool))}
            for res in results
        ],
        "one",
    )
    for key in ("se", "ci_low", "ci_high"):
        errors[key] = np.where(single, np.nan, errors[key])
    warn_one_category(single, "rows")
    return errors


def _clustered_errors(
    call: _OverallCall,
    read: _OverallInput,
    w: _Weighting,
    value: np.ndarray,
    errors: dict[str, np.ndarray],
    ci: float,
    own: list[bool],
    items_var: np.ndarray,
) -> dict[str, np.ndarray]:
    """The errors of ``cluster=``: linearized by cluster, or the cluster bootstrap.

    ``se`` from the cluster-robust variance (``CLUSTER_LINEARIZED`` methods, with
    ``ci_method="analytic"``; the others are refused by ``_bind_overall``) or the cluster
    bootstrap (``ci_method="bootstrap"``); ``se0`` the item-level one times the design
    effect ``se^2 / se_items^2`` (``items_var``, the item-level linearized variances, taken
    as the items' sum of squares over ``n^2``, as the clusters' is, so that every item
    twice in its cluster changes nothing); the test on ``C - 1`` degrees of freedom for
    ``ci_dist="t"`` (C clusters); a method without a null variance of its own (``own``)
    tests with ``se``. With one item per cluster, ``errors`` as they are.
    """
    cluster = np.asarray(read.cluster)
    if not (np.bincount(cluster) > 1).any():
        return errors
    options, methods = call.options, call.methods
    rt = dataclasses.replace(read.ratings, cluster=cluster)
    kwargs: dict[str, Any] = {
        "weighted": w.weighted,
        "level": call.level,
        "categories": read.categories,
    }
    booted = methods if options.ci_method == "bootstrap" else []
    boot = dict(zip(booted, bootstrap_overall(
        rt, booted, w.disagree, **kwargs, given=w.given, ci=ci, n_boot=options.n_boot or 1000,
        seed=options.seed,
    ) if booted else [], strict=True))  # fmt: skip
    var = _rows(
        [
            {"var": boot[m]["se"] ** 2}
            if m in boot
            else compute(
                rt, m, w.disagree, **kwargs, with_variance=True, given=w.given, ddof=call.ddof
            )
            for m in methods
        ],
        "var",
    )
    items = _n_items(read)[_group_of_row(call, read)].astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        # against the items' sum of squares over n^2, as the clusters' is
        effect = np.where(items_var > 0, var / items_var, 1.0) * items / (items - call.ddof)
    of = np.zeros(int(cluster.max()) + 1, np.intp)
    of[cluster] = rt.group
    held = np.bincount(cluster) > 0
    clusters = np.bincount(of[held], minlength=rt.n_groups).astype(float)
    n = clusters[_group_of_row(call, read)]
    var0 = np.where(np.tile(own, rt.n_groups), errors["se0"] ** 2 * effect, var)
    out = normal_interval(value, var, var0, ci, n=n, **options.test)
    for m, name in enumerate(methods):
        if name in boot:
            for key in ("ci_low", "ci_high"):
                out[key][m :: len(methods)] = boot[name][key]
    return out


def _n_raters(read: _OverallInput) -> np.ndarray:
    """Raters with a label per group; for counts, the most labels any item has."""
    rt = read.ratings
    if read.codes is None:
        most = np.zeros(rt.n_groups)
        np.maximum.at(most, rt.group, rt.counts.sum(axis=1))
        return np.ceil(most).astype(np.int64)
    return raters_per_group(read.codes, read.source.groups.codes, rt.n_groups)


def _overall_table(
    call: _OverallCall,
    read: _OverallInput,
    results: list[dict[str, np.ndarray]],
    errors: dict[str, np.ndarray],
) -> Table:
    """One row per group and method: the keys, the values, their band and errors."""
    options = call.options
    n_groups = read.ratings.n_groups
    group_of_row = _group_of_row(call, read)
    value = _rows(results, "value")
    n_items = _n_items(read)
    schema = _schema(OVERALL_COLUMNS, options.ci)
    columns = key_columns(read.source, group_of_row, schema, "overall")
    columns += [
        Column("method", "name", np.tile(object_array(call.methods), n_groups)),
        Column("n_items", "int", n_items[group_of_row]),
        Column("n_raters", "int", _n_raters(read)[group_of_row]),
        Column("p_o", "float", _rows(results, "p_o")),
        Column("p_e", "float", _rows(results, "p_e")),
        Column("value", "float", value),
    ]
    band = interpret(call.scale, value, errors, options)
    band, labels = with_min_items(band, n_items[group_of_row], call.min_items, call.scale.labels)
    columns.append(Column("interpretation", "enum", band, categories=labels))
    columns += [Column(name, "float", errors[name]) for name in options.ci_names]
    record = {
        "kind": "overall",
        **options_record(call.weights, read.categories),
        "level": call.level,
        "ddof": call.ddof,
        "alpha_centre": call.alpha_centre,
        "distance": call.distance,
    }
    return Table(columns, mark=record)


@declared
def overall(
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
    method: Method | Sequence[Method] = "fleiss",
    weights: str | ArrayLike | None = None,
    level: Level = "nominal",
    categories: Sequence[Any] | None = None,
    scale: Scale = "landis_koch",
    min_items: int | None = MIN_ITEMS,
    ci: float | None = None,
    duplicates: Duplicates = "raise",
    layout: Layout = "ratings",
    alternative: Alternative = "two-sided",
    ci_dist: CIDist = "normal",
    population: float | None = None,
    benchmark: Benchmark = "point",
    agreement_weights: ArrayLike | None = None,
    ddof: int = 1,
    alpha_centre: AlphaCentre = "p_a_prime",
    z_from: ZFrom = "se0",
    distance: Distance | None = None,
    multi_sep: str | None = None,
    ci_method: CIMethod = "analytic",
    n_boot: int | None = None,
    seed: int | np.random.Generator | None = None,
    trial: Hashable | None = None,
    cluster: Hashable | None = None,
) -> FrameT:
    """One agreement coefficient over all raters at once, per group.

    Every method has the form ``(p_o - p_e) / (1 - p_e)``. With ``r_ik`` the number of
    raters who put item ``i`` in category ``k``, ``r_i`` its labels, ``A = 1 - W`` the
    agreement weights and ``pi_k`` the mean over items of ``r_ik / r_i``, the observed
    agreement of every method but ``"krippendorff"`` and ``"light"`` is the mean over the
    ``n_2`` items with ``r_i >= 2`` of

        sum_k r_ik (sum_l A_kl r_il - 1) / (r_i (r_i - 1))

    and the chance agreement is, for ``"fleiss"`` (Fleiss 1971)
    ``sum_kl A_kl pi_k pi_l``; ``"conger"`` (Conger 1980) the mean over pairs of raters
    ``g``, ``h`` of Cohen's ``sum_kl A_kl p_gk p_hl`` from each rater's own shares;
    ``"gwet_ac1"`` / ``"gwet_ac2"`` (Gwet 2008) ``sum(A) / (q (q - 1)) sum_k pi_k (1 - pi_k)``
    (AC1: ``A = I``); ``"brennan_prediger"`` (Brennan & Prediger 1981) ``sum(A) / q^2``
    (``1/q`` unweighted), with ``q`` the number of categories; ``"percent"`` 0 (the value
    is the percent agreement ``p_o`` itself). ``"krippendorff"`` is Krippendorff's alpha
    ``1 - D_o / D_e``; ``"light"`` (Light 1971) is the mean of Cohen's kappa over every
    pair of raters.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library with one row per group and method, with the columns:
        the ``by`` columns; ``method``; ``n_items`` (items with at least one label);
        ``n_raters`` (raters with at least one label); ``p_o``; ``p_e``; ``value``;
        ``interpretation`` ("too few items" below ``min_items``); with ``ci``, ``se``,
        ``se0`` (the standard error ``z`` divides by), ``ci_low``, ``ci_high``, ``z`` and
        ``p_value``. With ``layout="counts"``, ``n_raters`` is the most labels any item has.
        With ``trial``: each rater's trials pooled (intra-rater agreement), a row per rater
        and method, the rater column (named as ``rater``; ``"rater"`` in the wide layout)
        after the ``by`` columns; ``n_raters`` counts the trials.

    Raises
    ------
    KappaFrameError
        As ``pairwise``; an unknown method or level; "gwet_ac2" without weights;
        ``level`` other than "nominal" without "krippendorff"; interval or ratio levels
        on labels that are not numbers; an ordinal level on text labels of unknown order;
        ``weights`` with only "krippendorff" and "gwet_ac1".

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, when some value is undefined.

    See Also
    --------
    pairwise : Cohen's kappa of each pair.
    per_category : each category against the rest.

    Notes
    -----
    Repeated trials (``trial``): the trials are taken as the raters and the rater as the
    last ``by`` column, so every method and option works as for raters. A pandas or
    polars DataFrame only; not with ``time``, and ``layout="ratings"`` only.
    With ``cluster``, the linearized variance of "fleiss", "conger", "gwet_ac1",
    "gwet_ac2" and "brennan_prediger" sums each item's term within its cluster,
    ``C / (C - ddof) sum_c (sum_{i in c} (c*_i - c))^2 / n^2`` (Gwet's linearization with
    one item per cluster); the other methods take the cluster bootstrap
    (``ci_method="bootstrap"``, which draws whole clusters for every method) and are
    refused otherwise. ``se0`` is the item-level one times the design effect.

    ``weights`` serve "fleiss", "light", "conger", "krippendorff" (with
    ``level="nominal"``), "gwet_ac2", "brennan_prediger" and "percent" (needed by
    "gwet_ac2"), also as a 1-D vector of weights by distance ``|i - j|``. Gwet's AC2 and
    percent agreement are not scale-free and take the weights as given (agreement
    ``1 - W``); the others are unchanged by a rescaling. "gwet_ac1" is unweighted by
    definition: weights with it alone is an error. A matrix need not be symmetric: raters
    have no order here, so every coefficient (and its variance) depends on the symmetric
    part ``(W + W^T) / 2`` only, which is what is used.

    Missing labels: every rating is used, as each coefficient's author defined it for
    incomplete data. An item counts for ``p_o`` once it has two labels and for the
    shares ``pi`` once it has one (Gwet 2014, whose irrCAC package these match).
    Conger's shares are each rater's over the items they labeled, among the raters
    with a label in the group. Krippendorff uses only the items with two or more labels
    (the pairable values); its ``p_o`` and ``p_e`` are Gwet's
    ``p_o = (1 - eps) p_o' + eps`` (``eps`` = 1 / pairable values) and
    ``p_e = sum_kl A_kl pi_k pi_l`` with ``A = 1 - delta^2 / max(delta^2)``, for which
    ``(p_o - p_e) / (1 - p_e) = 1 - D_o / D_e`` exactly.
    From 32 categories on (real-valued scores: nearly every score its own category),
    interval, ratio and ordinal alpha are taken from sums over the values rather than
    the K x K matrix of distances (Krippendorff 2011, sections C and E): within a unit
    of ``m`` values ``sum_{a<b} (x_a - x_b)^2 = m sum_a (x_a - xbar)^2``, over the pooled
    values ``sum_xy pi_x pi_y (x - y)^2 = 2 var``; ordinal alpha is interval alpha on
    the mid-ranks of the pooled pairable values (one sort); the ratio metric has no sum
    form and is summed pair by pair within units and over the distinct values of a
    group (time quadratic in those, memory linear). The two paths agree to about 1e-13;
    the bootstrap reads the same sums.
    Light's mean leaves out the pairs whose kappa is undefined; its ``p_o`` and ``p_e``
    are the means of the pairs', so for "light" alone ``value`` is not
    ``(p_o - p_e) / (1 - p_e)``.

    Undefined: ``value`` is NaN when no item has two labels, or when ``p_e == 1`` (every
    label in one category). No 1.0: there is no chance-free agreement to report.

    Standard errors (``ci``): Gwet's (2008, 2014) linearization for "fleiss",
    "conger", "gwet_ac1", "gwet_ac2", "brennan_prediger", "percent" and "krippendorff"
    (irrCAC's; the finite-population correction with ``population``); for "light" the
    same idea applied to Fleiss, Cohen & Everitt's (1969) influence of each item on each
    pair's kappa. The interval is ``value -/+ q se`` with the normal quantile (or, with
    ``ci_dist="t"``, Student's t with ``n_items - 1`` degrees of freedom as irrCAC
    prints it: wider for small n) and is clipped to [-1, 1]. ``z`` tests value = 0: for
    unweighted "fleiss" with the null standard error ``se0`` of Fleiss, Nee & Landis
    (1979), the one R's ``irr::kappam.fleiss`` reports (generalised item by item, by the
    same derivation, when items have different numbers of labels); for every other
    method ``se0 = se`` and ``z = value / se``. ``p_value`` follows ``alternative``.

    Bootstrap (``ci_method="bootstrap"``; Efron & Tibshirani 1993): each replicate
    draws, in every group, as many items as the group has, with replacement, and
    recomputes every method from them with the same formulas: ``p_o``, the shares
    ``pi``, each rater's shares (Conger), each pair's table (Light) and Krippendorff's
    pairable values and expected disagreement are all recounted. Every method of one
    call reads the same replicates. The categories, and so the weights and Gwet's and
    Brennan & Prediger's ``q``, are those of the whole data; a rater absent from a
    replicate is absent there. ``se`` is the standard deviation of the replicates
    (``ddof=1``) and the interval their ``(1 - ci) / 2`` and ``(1 + ci) / 2``
    quantiles (linear interpolation; not clipped, replicates stay within [-1, 1] where
    the coefficient does); undefined replicates (every drawn label in one category) are
    left out, and fewer than two defined leave the row NaN. Items with the same labels
    are interchangeable, so a replicate is drawn as one multinomial of the group's
    ``n`` items over its distinct items (their category counts; their labels rater by
    rater when "conger" or "light" is asked), with probabilities ``f_u / n``, and the
    sums every coefficient needs are one matrix product. The distinct items are sorted
    by their labels: the draws depend on the seed, the data and the methods asked
    (counts, or labels rater by rater), never on the row order or the way in.

    Krippendorff's alpha: Hayes & Krippendorff (2007; Krippendorff's "Algorithm for
    bootstrapping a distribution of alpha", 2006, rev. 2011) resample pairs of values
    from the matrix of observed coincidences ``o_ck`` (each pair drawn with probability
    ``o_ck / n..``, a capped number of draws) and recompute only the observed
    disagreement ``D_o``, holding the expected disagreement ``D_e`` at its observed
    value; the pairs of one unit are drawn as if independent. The bootstrap here
    resamples the units (items) with all their values and recomputes both ``D_o`` and
    ``D_e``, as for every other method: it keeps the pairs of a unit together, so its
    standard error agrees with the large-sample one (Gwet's linearization) on large
    samples, and is wider than Hayes & Krippendorff's where values within a unit are
    alike. (Their algorithm has been criticized by Gwet 2015, who finds it
    underestimates the standard error, and by Zapf et al. 2016.)

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382.

    Fleiss, J. L., Nee, J. C. M., & Landis, J. R. (1979). Large sample variance of kappa
    in the case of different sets of raters. *Psychological Bulletin* 86(5), 974-977.

    Conger, A. J. (1980). Integration and generalization of kappas for multiple raters.
    *Psychological Bulletin* 88(2), 322-328.

    Light, R. J. (1971). Measures of response agreement for qualitative data.
    *Psychological Bulletin* 76(5), 365-377.

    Brennan, R. L., & Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and
    alternatives. *Educational and Psychological Measurement* 41, 687-699.

    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the
    presence of high agreement. *British Journal of Mathematical and Statistical
    Psychology* 61, 29-48.

    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. Advanced
    Analytics.

    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
    https://repository.upenn.edu/asc_papers/43

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic
    and pragmatic annotation. *Proceedings of LREC 2006*, 831-836.
    Efron, B., & Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*. Chapman
    & Hall.

    Hayes, A. F., & Krippendorff, K. (2007). Answering the call for a standard
    reliability measure for coding data. *Communication Methods and Measures* 1(1),
    77-89.

    Krippendorff, K. (2006, revised 2011). Algorithm for bootstrapping a distribution
    of alpha. Manuscript, Annenberg School for Communication, University of
    Pennsylvania.

    Gwet, K. L. (2015). Standard error of Krippendorff's alpha coefficient.
    https://inter-rater-reliability.blogspot.com/2015/

    Zapf, A., Castell, S., Morawietz, L., & Karch, A. (2016). Measuring inter-rater
    reliability for nominal data: which coefficients and confidence intervals are
    appropriate? *BMC Medical Research Methodology* 16, 93.

    Examples
    --------
    Krippendorff's (2011) reliability data: 4 observers, 12 units, missing values.

    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> nan = float("nan")
    >>> df = pd.DataFrame({
    ...     "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...     "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...     "C": [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...     "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ... })
    >>> res = kf.overall(df, method=["krippendorff", "fleiss", "gwet_ac1"])
    >>> [round(float(v), 3) for v in res["value"]]
    [0.743, 0.761, 0.775]
    >>> res = kf.overall(df, method="krippendorff", level="interval")
    >>> round(float(res["value"].iloc[0]), 3)
    0.849

    Sets of labels (three annotators, four texts), Krippendorff's alpha with MASI:

    >>> tags = pd.DataFrame({
    ...     "ann": [{"joy"}, {"joy", "anger"}, {"fear"}, set()],
    ...     "bob": [{"joy"}, {"anger"}, {"fear"}, set()],
    ...     "cai": [{"joy"}, {"joy", "anger"}, {"fear", "joy"}, None],
    ... })
    >>> res = kf.overall(tags, method="krippendorff", distance="masi")
    >>> round(float(res["value"].iloc[0]), 3)
    0.7

    A bootstrap interval for each coefficient (items resampled, 1,000 replicates):

    >>> res = kf.overall(df, method=["krippendorff", "fleiss"], ci=0.95,
    ...                  ci_method="bootstrap", seed=0)
    >>> bool((res["ci_low"] < res["value"]).all() and (res["value"] < res["ci_high"]).all())
    True
    """
    if trial is not None:
        return cast(FrameT, trial_kappa(overall, data, dict(locals())))
    call = _bind_overall(
        method=method, level=level, weights=weights, agreement_weights=agreement_weights,
        distance=distance, multi_sep=multi_sep, layout=layout, categories=categories,
        scale=scale, by=by, ci=ci, ci_method=ci_method, n_boot=n_boot, seed=seed,
        alternative=alternative, ci_dist=ci_dist, population=population,
        benchmark=benchmark, z_from=z_from, ddof=ddof, alpha_centre=alpha_centre,
        min_items=min_items, time=time, every=every, period=period, offset=offset,
        closed=closed, cluster=cluster,
    )  # fmt: skip
    given = {
        "raters": raters, "item": item, "rater": rater, "label": label, "by": by,
        "categories": categories, "duplicates": duplicates, "cluster": cluster,
    }  # fmt: skip
    read = _READERS[call.layout](data, call, given)
    weighting = _weighting(call, read)
    results, errors = _compute(call, read, weighting)
    return read.source.frame.render(_overall_table(call, read, results, errors))


@declared
def per_category(
    data: FrameT,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    method: CategoryMethod = "fleiss",
    categories: Sequence[Any] | None = None,
    scale: Scale = "landis_koch",
    min_items: int | None = MIN_ITEMS,
    ci: float | None = None,
    duplicates: Duplicates = "raise",
) -> FrameT:
    """Kappa of each category against the rest: which label the team cannot agree on.

    Every label is collapsed to "this category" or "another one" and the agreement of the
    two-category data is measured. ``method="fleiss"``: over all raters at once, Fleiss'
    kappa of each category (Fleiss 1971), from the per-item counts ``r_ik``,

        kappa_k = (p_o - p_e) / (1 - p_e),   p_e = pi_k^2 + (1 - pi_k)^2,

    which with every item fully rated is Fleiss'
    ``1 - sum_i r_ik (m - r_ik) / (n m (m - 1) pi_k (1 - pi_k))``. ``method="cohen"``: per
    pair of raters, Cohen's kappa of the 2 x 2 table collapsed from the pair's K x K table
    (no recount).

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library with one row per group and category ("fleiss") or per
        group, pair and category ("cohen"), categories in category order, with the columns:
        the ``by`` columns; "cohen": ``rater_a``, ``rater_b``; ``category``; ``n_items``
        (items with a label, "fleiss") or ``n`` (items both labeled, "cohen"); ``p_o``;
        ``p_e``; ``kappa``; ``interpretation``; with ``ci`` the five interval columns. Kappa
        is NaN for a category nobody (or everybody always) used.

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, for the categories whose kappa is undefined (a
        category no rater of the pair, or of the group, used).

    See Also
    --------
    overall : all categories at once.
    raters : which rater over-uses which category.

    Notes
    -----
    With ``ci``: "fleiss" as in ``overall`` (``z`` from Fleiss, Nee & Landis' null
    variance, which is ``2 / (n m (m - 1))`` per category for complete data; no ``se0``
    column); "cohen" as in ``pairwise`` (Fleiss, Cohen & Everitt 1969).

    Missing labels are handled as in ``overall`` ("fleiss") and ``pairwise``
    ("cohen").

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382.

    Fleiss, J. L., Nee, J. C. M., & Landis, J. R. (1979). Large sample variance of kappa
    in the case of different sets of raters. *Psychological Bulletin* 86(5), 974-977.

    Examples
    --------
    Fleiss' (1971) 30 patients, 6 psychiatrists, 5 diagnoses (kappa 0.430 overall):

    >>> import numpy as np
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> codes = ["444444", "222555", "233335", "555555", "222444", "113333", "333355",
    ...          "113334", "114444", "555555", "144444", "124444", "222333", "144444",
    ...          "224445", "333335", "111455", "111112", "224444", "133555", "555555",
    ...          "244444", "224555", "114444", "144445", "222224", "111155", "224444",
    ...          "133333", "555555"]
    >>> df = pd.DataFrame([list(map(int, c)) for c in codes])
    >>> res = kf.per_category(df)
    >>> [round(float(v), 3) for v in res["kappa"]]
    [0.245, 0.245, 0.52, 0.471, 0.566]
    """
    if method not in CATEGORY_METHODS:
        raise bad_option("method", method, CATEGORY_METHODS)
    ci = check_pair_options(ci).ci
    min_items = check_min_items(min_items)
    check_settings(scale=scale)
    read = ReadSpec.of(locals())
    prep = prepare_ratings(data, read)
    scale_obj = resolve_scale(scale)
    k = len(prep.categories)
    n_groups = prep.groups.n_groups
    labels = object_array(prep.categories)
    if method == "fleiss":
        _needs_ratings(prep, "per_category(method='fleiss')")
        rt = ratings_of(prep.codes, prep.groups.codes, n_groups, k)
        return prep.frame.render(_fleiss_table(prep, rt, labels, scale_obj, ci, min_items))
    return prep.frame.render(_cohen_table(prep, scale_obj, ci, min_items))


def _pair_category_rows(values: np.ndarray) -> np.ndarray:
    """``values[pair, group, category]`` as one column: rows group, then pair, then category."""
    return np.ascontiguousarray(np.transpose(values, (1, 0, 2))).reshape(-1)


def _cohen_table(prep: Prepared, scale_obj: Any, ci: float | None, min_items: int | None) -> Table:
    """``per_category(method="cohen")``: each pair's kappa of each category against the rest."""
    k = len(prep.categories)
    n_groups = prep.groups.n_groups
    labels = object_array(prep.categories)
    pairs = all_pairs(len(prep.raters))
    tables = pair_tables(prep, pairs, "per_category")  # (P, G, K, K)
    binary = one_vs_rest(tables)  # (P, G, K, 2, 2)
    plain = 1.0 - np.eye(2)
    agreed = agreement(binary, plain)
    kappa = agreed["kappa"]

    n_pairs = len(pairs)
    group_of_row = np.repeat(np.arange(n_groups), n_pairs * k)
    pair_of_row = np.tile(np.repeat(np.arange(n_pairs), k), n_groups)
    cat_of_row = np.tile(np.arange(k), n_groups * n_pairs)
    values = _pair_category_rows(kappa)
    _warn_undefined(values, "kappa of a category against the rest")
    n = _pair_category_rows(agreed["n"]).astype(np.int64)
    band, bands = with_min_items(scale_obj.classify(values), n, min_items, scale_obj.labels)
    names = object_array(prep.raters)
    columns = key_columns(prep, group_of_row, _schema(CATEGORY_COLUMNS, ci), "per_category")
    columns += [
        Column("rater_a", "name", names[pairs[:, 0]][pair_of_row]),
        Column("rater_b", "name", names[pairs[:, 1]][pair_of_row]),
        Column("category", "label", labels[cat_of_row]),
        Column("n", "int", n),
        Column("p_o", "float", _pair_category_rows(agreed["p_o"])),
        Column("p_e", "float", _pair_category_rows(agreed["p_e"])),
        Column("kappa", "float", values),
        Column("interpretation", "enum", band, categories=bands),
    ]
    if ci is not None:
        errors = standard_errors(binary, plain, kappa, ci)
        warn_one_category(_pair_category_rows(errors["one_category"]), "rows")
        columns += [Column(name, "float", _pair_category_rows(errors[name])) for name in CI_COLUMNS]
    return Table(columns)


def _fleiss_table(
    prep: Prepared,
    rt: Ratings,
    labels: np.ndarray,
    scale_obj: Any,
    ci: float | None,
    min_items: int | None = None,
) -> Table:
    k = rt.n_categories
    n_groups = rt.n_groups
    results = [category_fleiss(rt, c, ci is not None) for c in range(k)]
    group_of_row = np.repeat(np.arange(n_groups), k)
    values = _rows(results, "value")
    _warn_undefined(values, "kappa of a category against the rest")
    n_items = np.bincount(rt.group, minlength=n_groups).astype(np.int64)
    band, bands = with_min_items(
        scale_obj.classify(values), n_items[group_of_row], min_items, scale_obj.labels
    )
    columns = key_columns(prep, group_of_row, _schema(CATEGORY_COLUMNS, ci), "per_category")
    columns += [
        Column("category", "label", np.tile(labels, n_groups)),
        Column("n_items", "int", n_items[group_of_row]),
        Column("p_o", "float", _rows(results, "p_o")),
        Column("p_e", "float", _rows(results, "p_e")),
        Column("kappa", "float", values),
        Column("interpretation", "enum", band, categories=bands),
    ]
    if ci is not None:
        errors = normal_interval(values, _rows(results, "var"), _rows(results, "var0"), ci)
        columns += [Column(name, "float", errors[name]) for name in CI_COLUMNS]
    return Table(columns)
