"""Set-valued labels: per_label(), and the options overall() takes for sets.

Frame -> one code per distinct set (``kappaframe._encode.sets``, through
``kappaframe._api.many_common.prepare_ratings``) -> each rating read per label as
present/absent, every label at once with the label as an extra key of the count, by
what is there: a row per (item, label) pair some rater gave, and one weighted row per
group, label and pattern of raters for the items nobody gave it
(``kappaframe._stats.sets.label_rows``), so memory grows with the ratings, not with
items x labels -> the two-category coefficients of ``kappaframe._stats.multirater``
(weighted rows) and ``kappaframe._stats.agreement`` -> ``Table``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, TypeVar, get_args

import numpy as np

from .._count import kernel
from .._count.kernel import all_pairs
from .._encode.codes import object_array
from .._encode.sets import SetLabels, check_multi_sep, indicator_pairs, indicators, vocabulary
from .._errors import KappaFrameError, arg, bad_option, warn_undefined
from .._schema import CI_COLUMNS, LABEL_COLUMNS, PAIR_LABEL_COLUMNS, Column, Table
from .._stats.agreement import agreement
from .._stats.inference import normal_interval, standard_errors
from .._stats.multirater import Ratings, compute, raters_per_group, ratings_of
from .._stats.scales import MIN_ITEMS, resolve_scale, with_min_items
from .._stats.sets import (
    DISTANCES,
    LabelRows,
    count_members,
    label_pair_tables,
    label_rows,
    label_rows_bytes,
    per_label_codes,
    set_distances,
)
from .._types import Duplicates, LabelMethod, Scale
from .assemble import key_columns, warn_one_category
from .many_common import prepare_ratings
from .options import check_categories, check_min_items, check_pair_options, check_settings
from .settings.bind import declared
from .settings.reading import ReadSpec

__all__ = ["LABEL_METHODS", "per_label", "set_distance_weights", "set_options"]

FrameT = TypeVar("FrameT")

LABEL_METHODS: tuple[str, ...] = get_args(LabelMethod)


def set_options(
    distance: Any,
    multi_sep: Any,
    methods: Sequence[str],
    weights: Any,
    level: str,
    layout: str,
    categories: Any = None,
) -> SetLabels | None:
    """``overall``'s ``distance`` and ``multi_sep``: how to read sets, or ``None``.

    The labels are sets when either is given. ``distance`` is Krippendorff's: it
    replaces the weights and the level, and needs the ratings (not counts).
    ``categories`` then lists single labels.
    """
    sep = check_multi_sep(multi_sep)
    if distance is None and sep is None:
        return None
    check_categories(categories)
    if distance is None:
        return SetLabels(sep)
    if distance not in DISTANCES:
        raise bad_option("distance", distance, DISTANCES)
    others = [m for m in methods if m != "krippendorff"]
    if others:
        raise KappaFrameError(
            f"{arg('distance')} applies to {arg('method', 'krippendorff')} only (Krippendorff's "
            f"alpha with a distance between sets); got method {others[0]!r}. Use "
            f"method='krippendorff', or kappaframe.per_label for {others[0]!r} label by label.",
            option="distance",
        )
    if weights is not None or level != "nominal":
        given = "weights" if weights is not None else "level"
        raise KappaFrameError(
            f"{arg(given)} and {arg('distance')} both say how far apart two labels are; "
            f"give one. {arg('distance')} compares sets of labels.",
            option=given,
        )
    if layout != "ratings":
        raise KappaFrameError(
            f"{arg('distance')} compares each rater's set of labels, which per-item counts "
            "do not keep; use the ratings (layout='ratings').",
            option="distance",
        )
    return SetLabels(sep)


def set_distance_weights(
    categories: Sequence[Any], labels: Sequence[Any] | None, distance: str | None
) -> np.ndarray | None:
    """The disagreement matrix between the distinct sets (``None`` without ``distance``).

    ``labels`` (the caller's ``categories=``), when given, must list every label used.
    """
    vocab = vocabulary(categories, labels)
    if distance is None:
        return None
    return set_distances(categories, vocab, distance)


def _methods(method: Any) -> list[str]:
    if not isinstance(method, str | list | tuple):
        raise bad_option("method", method, LABEL_METHODS)
    names = [method] if isinstance(method, str) else list(method)
    if not names:
        raise KappaFrameError(f"method is empty; choose one or more of {list(LABEL_METHODS)}.")
    for name in names:
        if name not in LABEL_METHODS:
            raise bad_option("method", name, LABEL_METHODS)
    if len(set(names)) < len(names):
        raise KappaFrameError(f"method lists a name twice: {names}.")
    if "cohen" in names and len(names) > 1:
        raise KappaFrameError(
            "method 'cohen' gives one row per rater pair and label, the others one row per "
            "label over all raters; call per_label once for each.",
            option="method",
        )
    return names


def _warn_undefined(values: np.ndarray) -> None:
    why = "no items to compare, or a label nobody (or everybody, always) gave"
    what = "the agreement on a label"
    warn_undefined(~np.isfinite(values), None, "rows", subject=what, otherwise=why)


@declared
def per_label(
    data: FrameT,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    method: LabelMethod | Sequence[LabelMethod] = "fleiss",
    multi_sep: str | None = None,
    categories: Sequence[Any] | None = None,
    scale: Scale = "landis_koch",
    min_items: int | None = MIN_ITEMS,
    ci: float | None = None,
    duplicates: Duplicates = "raise",
) -> FrameT:
    """Agreement on each label of set-valued ratings, the label read as present or absent.

    Each rater gives each item a set of labels (tags, intents, codes). For every label
    ``l``, each rating becomes 1 when its set holds ``l`` and 0 when not (missing stays
    missing), and the agreement of these two-category ratings is measured: with
    ``method="cohen"`` Cohen's (1960) kappa of each pair of raters from its 2 x 2 table
    ``n_xy`` (``x``, ``y``: whether each rater gave ``l``),

        kappa = (p_o - p_e) / (1 - p_e),   p_o = (n_11 + n_00) / n,
        p_e = (n_1. n_.1 + n_0. n_.0) / n^2;

    with any method of ``overall`` ("fleiss", "krippendorff", "gwet_ac1", ...) that
    coefficient over all raters at once, from the per-item counts ``r_i1`` (raters who
    gave ``l``) and ``r_i0`` (raters who rated the item and did not). Every label of every
    group is counted in one pass, the label being one more key of the count.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library. "cohen": one row per group, pair and label with
        the ``by`` columns, ``rater_a``, ``rater_b``, ``label``, ``prevalence`` (the
        share of the pair's ratings on the ``n`` items both rated that hold the label),
        ``n``, ``p_o``, ``p_e``, ``kappa``, ``interpretation``. Otherwise one row per
        group, method and label with the ``by`` columns, ``method``, ``label``,
        ``prevalence`` (the share of the group's ratings that hold the label),
        ``n_items``, ``n_raters``, ``p_o``, ``p_e``, ``value``, ``interpretation``. With
        ``ci``, the interval columns. Labels in ``categories`` order.

    Raises
    ------
    KappaFrameError
        As ``overall``; a text cell without ``multi_sep``; a label not in
        ``categories``; a cell that is not a set.

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, for the rows whose value is undefined (a label no
        rater of the pair or group gave, or one every rating holds).

    See Also
    --------
    overall : with ``distance="masi"`` or ``"jaccard"``, one Krippendorff's alpha over
        whole sets.
    per_category : each category of single labels against the rest.

    Notes
    -----
    The label cells are sets: Python sets, frozensets, lists or tuples (a pandas object
    column), a polars ``List`` column, or text with the labels separated by ``multi_sep``.
    An empty set is a rating with no label (every label absent); a missing cell (None,
    NaN, null) is no rating. ``categories`` are the labels reported, in this order: a
    label nobody gave gets prevalence 0 and an undefined value (default: every label
    given, sorted).

    Binary agreement per label is the usual way to see which tag a team cannot agree on
    (Artstein & Poesio 2008, sec. 3.4); it leaves out how close two sets are, which
    ``overall(..., distance="masi")`` measures. A label that is rare has a chance
    agreement near 1 and an unstable kappa: read it beside ``prevalence``. Missing
    ratings are handled as in ``pairwise`` ("cohen") and ``overall``.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and
    Psychological Measurement* 20(1), 37-46.

    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382.

    Artstein, R., & Poesio, M. (2008). Inter-coder agreement for computational
    linguistics. *Computational Linguistics* 34(4), 555-596.

    Examples
    --------
    Two annotators tag five texts; "joy" is given alike, "anger" not.

    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({
    ...     "ann": ["joy|anger", "joy", "", "anger", "joy|anger"],
    ...     "bob": ["joy", "joy", "", "anger", "joy|anger"],
    ... })
    >>> res = kf.per_label(df, method="cohen", multi_sep="|", min_items=0)
    >>> list(res["label"]), [round(float(v), 3) for v in res["kappa"]]
    (['anger', 'joy'], [0.615, 1.0])
    >>> [float(v) for v in res["prevalence"]]
    [0.5, 0.6]
    """
    methods = _methods(method)
    ci = check_pair_options(ci).ci
    min_items = check_min_items(min_items)
    check_settings(scale=scale)
    check_categories(categories)
    sets = SetLabels(check_multi_sep(multi_sep))
    read = ReadSpec(
        raters, by=by, item=item, rater=rater, label=label, duplicates=duplicates, sets=sets
    )
    prep = prepare_ratings(data, read)
    if prep.source is not None:
        raise KappaFrameError(
            "per_label() needs every rating of every item, but this input is counted per "
            "rater pair (the sparse path for many raters with few items each). Pass the "
            "wide layout (one column per rater), or fewer raters per call."
        )
    labels = vocabulary(prep.categories, categories)
    pairs = indicator_pairs(prep.categories, labels)
    n_labels = len(labels)
    cohen = methods == ["cohen"]
    n_raters, n_items = prep.codes.shape
    dense = not cohen and _dense_bytes(n_raters, n_items, n_labels) <= DENSE_BYTES
    folded = not cohen and not dense
    _check_size(prep, pairs, n_labels, absent=folded)
    n_groups = prep.groups.n_groups
    rows = label_rows(
        prep.codes,
        pairs,
        len(prep.categories),
        n_labels,
        prep.groups.codes,
        n_groups,
        absent=folded,
    )
    scale_obj = resolve_scale(scale)
    names = object_array(labels)
    if cohen:
        table = _cohen(prep, rows, n_labels, names, scale_obj, ci, min_items)
    else:
        share = _prevalence(rows, n_groups, n_labels)
        if dense:  # every (item, label) row: few
            member = indicators(prep.categories, labels)
            binary, keys = per_label_codes(prep.codes, member, prep.groups.codes)
            rt = ratings_of(binary, keys, n_groups * n_labels, 2)
        else:
            rt = Ratings(rows.codes, None, rows.key, n_groups * n_labels, 2, rows.weight)
        table = _overall(prep, rt, methods, names, share, scale_obj, ci, min_items)
    return prep.frame.render(table)


#: Up to this many bytes (``_dense_bytes``), the coefficients read one row per item and
#: label, as they always have; beyond it, the folded rows of ``label_rows`` (the same
#: values to rounding: a weighted row's terms are multiplied, not added one by one).
DENSE_BYTES = 1 << 27

#: Bytes per (item, label) row of the dense reading, beyond a byte per rater: its key and
#: the coefficients' per-item arrays (measured).
_DENSE_ROW_BYTES = 100


def _dense_bytes(n_raters: int, n_items: int, n_labels: int) -> int:
    return n_items * max(n_labels, 1) * (n_raters + _DENSE_ROW_BYTES)


def _check_size(
    prep: Any, pairs: tuple[np.ndarray, np.ndarray], n_labels: int, absent: bool
) -> None:
    """Refuse, before building them, rows that would take more than the memory limit.

    The rows: one per (item, label) pair some rater gave (at most the memberships), and
    with ``absent`` one per group, pattern of raters and label
    (``kappaframe._stats.sets.label_rows_bytes``); without them (Cohen's kappa), the
    pair tables. The dense reading (below ``DENSE_BYTES``) needs no check.
    """
    codes = prep.codes
    n_raters, n_items = codes.shape
    members = count_members(codes, pairs, len(prep.categories))
    n_rows = members
    if absent and n_items:
        rated = codes >= 0
        patterns = np.unique(rated[:, rated.any(axis=0)].T, axis=0)
        groups = prep.groups.n_groups
        n_rows += max(n_labels, 1) * min(len(patterns) * groups, n_items)
    size = label_rows_bytes(n_raters, members, n_rows)
    if not absent:  # Cohen's tables, and agreement's float copies of them
        size += 4 * 32 * len(all_pairs(n_raters)) * prep.groups.n_groups * n_labels
    limit = kernel.MAX_COUNT_BYTES  # read now: the caller may have raised it
    if size > limit:
        raise KappaFrameError(
            f"the ratings read per label would take {size / 1024**3:.1f} GiB ({members:,} "
            f"(rating, label) pairs, {n_rows:,} rows over {n_labels:,} labels and "
            f"{n_raters} raters), over the {limit / 1024**3:.1f} GiB limit; pass fewer "
            f"items per call (e.g. one {arg('by')} group at a time) or fewer labels, or "
            "raise kappaframe._count.kernel.MAX_COUNT_BYTES if the memory is there."
        )


def _prevalence(rows: LabelRows, n_groups: int, n_labels: int) -> np.ndarray:
    """``(G, L)``: the share of each group's ratings whose set holds each label."""
    given = rows.given.astype(float).reshape(n_groups, n_labels)
    rated = np.repeat(rows.rated.astype(float)[:, None], n_labels, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(rated > 0, given / np.where(rated > 0, rated, 1.0), np.nan)
    return share


def _overall(
    prep: Any,
    rt: Ratings,
    methods: list[str],
    names: np.ndarray,
    share: np.ndarray,
    scale_obj: Any,
    ci: float | None,
    min_items: int | None,
) -> Table:
    n_groups, n_labels = share.shape
    plain = 1.0 - np.eye(2)
    results = [
        compute(
            rt,
            m,
            plain,
            weighted=False,
            level="nominal",
            categories=[0, 1],
            with_variance=ci is not None,
        )
        for m in methods
    ]
    n_methods = len(methods)

    def rows(key: str) -> np.ndarray:
        """(methods, G * L) -> rows group, method, label."""
        stacked = np.stack([res[key] for res in results]).reshape(n_methods, n_groups, n_labels)
        return np.ascontiguousarray(stacked.transpose(1, 0, 2)).reshape(-1)

    group_of_row = np.repeat(np.arange(n_groups), n_methods * n_labels)
    label_of_row = np.tile(np.arange(n_labels), n_groups * n_methods)
    method_of_row = np.tile(np.repeat(np.arange(n_methods), n_labels), n_groups)
    items = np.bincount(rt.group, rt.weight, n_groups * n_labels).reshape(n_groups, n_labels)
    n_items = items.max(axis=1, initial=0).astype(np.int64)[group_of_row]
    n_raters = raters_per_group(prep.codes, prep.groups.codes, n_groups)[group_of_row]
    value = rows("value")
    _warn_undefined(value)
    band, bands = with_min_items(scale_obj.classify(value), n_items, min_items, scale_obj.labels)
    schema = (*LABEL_COLUMNS, *(CI_COLUMNS if ci is not None else ()))
    columns = key_columns(prep, group_of_row, schema, "per_label")
    columns += [
        Column("method", "name", object_array(methods)[method_of_row]),
        Column("label", "label", names[label_of_row]),
        Column("prevalence", "float", share[group_of_row, label_of_row]),
        Column("n_items", "int", n_items),
        Column("n_raters", "int", n_raters),
        Column("p_o", "float", rows("p_o")),
        Column("p_e", "float", rows("p_e")),
        Column("value", "float", value),
        Column("interpretation", "enum", band, categories=bands),
    ]
    if ci is not None:
        for res in results:
            res.setdefault("var0", res["var"])
        errors = normal_interval(value, rows("var"), rows("var0"), ci)
        columns += [Column(name, "float", errors[name]) for name in CI_COLUMNS]
    return Table(columns, mark={"kind": "overall"})


def _cohen(
    prep: Any,
    label_codes: LabelRows,
    n_labels: int,
    names: np.ndarray,
    scale_obj: Any,
    ci: float | None,
    min_items: int | None,
) -> Table:
    n_groups = prep.groups.n_groups
    pairs = all_pairs(len(prep.raters))
    n_pairs = len(pairs)
    tables = label_pair_tables(
        label_codes, prep.codes, pairs, prep.groups.codes, n_groups, n_labels
    )  # (P, G * L, 2, 2)
    tables = tables.reshape(n_pairs, n_groups, n_labels, 2, 2)
    plain = 1.0 - np.eye(2)
    agreed = agreement(tables, plain)

    def rows(values: np.ndarray) -> np.ndarray:
        """(P, G, L) -> rows group, pair, label."""
        return np.ascontiguousarray(np.transpose(values, (1, 0, 2))).reshape(-1)

    group_of_row = np.repeat(np.arange(n_groups), n_pairs * n_labels)
    pair_of_row = np.tile(np.repeat(np.arange(n_pairs), n_labels), n_groups)
    label_of_row = np.tile(np.arange(n_labels), n_groups * n_pairs)
    n = tables.sum(axis=(-2, -1))
    given = tables[..., 1, :].sum(axis=-1) + tables[..., :, 1].sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(n > 0, given / np.where(n > 0, 2.0 * n, 1.0), np.nan)
    kappa = rows(agreed["kappa"])
    _warn_undefined(kappa)
    n_rows = rows(n).astype(np.int64)
    band, bands = with_min_items(scale_obj.classify(kappa), n_rows, min_items, scale_obj.labels)
    raters = object_array(prep.raters)
    schema = (*PAIR_LABEL_COLUMNS, *(CI_COLUMNS if ci is not None else ()))
    columns = key_columns(prep, group_of_row, schema, "per_label")
    columns += [
        Column("rater_a", "name", raters[pairs[:, 0]][pair_of_row]),
        Column("rater_b", "name", raters[pairs[:, 1]][pair_of_row]),
        Column("label", "label", names[label_of_row]),
        Column("prevalence", "float", rows(share)),
        Column("n", "int", n_rows),
        Column("p_o", "float", rows(agreed["p_o"])),
        Column("p_e", "float", rows(agreed["p_e"])),
        Column("kappa", "float", kappa),
        Column("interpretation", "enum", band, categories=bands),
    ]
    if ci is not None:
        errors = standard_errors(tables, plain, agreed["kappa"], ci)
        warn_one_category(rows(errors["one_category"]), "rows")
        columns += [Column(name, "float", rows(errors[name])) for name in CI_COLUMNS]
    return Table(columns, mark={"kind": "pairwise"})
