"""``compare``: is agreement different? Two results, or two rater pairs on the same items.

Two results of ``pairwise`` or ``overall`` computed with ``ci=`` (independent samples of
items) are matched on their key columns and tested from their standard errors; two rater
pairs of one frame (the same items) are tested from the items' joint labels, by the
delta method or a bootstrap that resamples the items once for both kappas
(``kappaframe._stats.compare``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, get_args

import numpy as np

from .._count.kernel import check_count_size
from .._errors import KappaFrameError, KappaFrameTypeError, arg, bad_option
from .._frames.native import concat, eager_adapter, take
from .._frames.render import render
from .._schema import (
    COMPARE_COLUMNS,
    COMPARE_PAIRED_COLUMNS,
    COMPARE_VERDICTS,
    Column,
    Table,
)
from .._stats.agreement import Weights
from .._stats.bootstrap import check_bootstrap
from .._stats.cluster import cluster_paired_bootstrap, cluster_paired_delta
from .._stats.compare import difference, joint_patterns, paired_bootstrap, paired_delta
from .._types import CompareMethod, Duplicates
from .assemble import key_columns
from .baseline import check_turned_round, record_of, recorded_differences, said_differences
from .cluster import clustered_input
from .many_common import prepare_ratings
from .options import check_level, check_settings
from .settings.bind import declared
from .settings.reading import ReadSpec

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["compare"]

FrameT = TypeVar("FrameT")

METHODS: tuple[str, ...] = get_args(CompareMethod)
#: The ``test`` of two results compared: the normal test on their two standard errors.
INDEPENDENT = "independent normal"
#: ``matched`` of two results compared: where a row's keys were found.
MATCHES = ("both", "first only", "second only")


def verdicts(ci_low: np.ndarray, ci_high: np.ndarray) -> np.ndarray:
    """The verdict of each interval of ``second - first``, as codes into ``COMPARE_VERDICTS``.

    Above 0: "second higher"; below 0: "first higher"; else "no detectable difference";
    missing (-1) where there is no interval.
    """
    code = np.full(np.shape(ci_low), 1, dtype=np.int8)
    code[ci_low > 0] = 2
    code[ci_high < 0] = 0
    code[~(np.isfinite(ci_low) & np.isfinite(ci_high))] = -1
    return code


def _test_columns(out: dict[str, np.ndarray], test: str, n_rows: int) -> list[Column]:
    tests = np.empty(n_rows, dtype=object)
    tests[:] = test
    columns = [Column(name, "float", out[name]) for name in COMPARE_COLUMNS[:6]]
    columns.append(Column("test", "name", tests))
    code = verdicts(out["ci_low"], out["ci_high"])
    columns.append(Column("verdict", "enum", code, categories=COMPARE_VERDICTS))
    return columns


@declared
def compare(
    data: Any,
    first: Any,
    second: Any = None,
    /,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    weights: str | ArrayLike | None = None,
    categories: Sequence[Any] | None = None,
    duplicates: Duplicates = "raise",
    method: CompareMethod | None = None,
    n_boot: int | None = None,
    seed: int | np.random.Generator | None = None,
    ci: float = 0.95,
    cluster: Hashable | None = None,
) -> Any:
    r"""Is agreement different? Test ``second - first`` for two kappas (per group).

    Two forms:

    - ``compare(first_result, second_result)``: two results of ``pairwise`` or
      ``overall`` computed with ``ci=`` (they have ``se``), on independent samples of
      items (last week's and this week's). Rows are matched on their key columns (the
      ``by`` columns and ``rater_a``, ``rater_b``, or ``method``; a pair unordered, so
      ``ben, ana`` matches ``ana, ben`` and the row keeps the first result's
      orientation) and tested with the
      usual normal test on the two standard errors,

          z = (c_2 - c_1) / sqrt(se_1^2 + se_2^2).

    - ``compare(data, (a1, b1), (a2, b2))``: two rater pairs of one frame that rate the
      same items (model A vs gold and model B vs gold), compared on the items all of
      them labeled. Their kappas are dependent, so the variance of the difference is
      ``se_1^2 + se_2^2 - 2 cov``, with the covariance from the items' joint labels:
      ``method="delta"`` (the default) by the delta method (Vanbelle 2017), or
      ``method="bootstrap"`` by resampling the items once for both kappas (Vanbelle &
      Albert 2008).

    The delta method writes each kappa as a function of the proportions ``pi_p`` of the
    items' joint label patterns ``p``. With agreement weights ``v = 1 - w``, a pair's
    marginals and ``vbar_i = sum_l v_il p_.l``, ``vbar_j = sum_l v_lj p_l.``, the pattern
    whose pair of labels is ``(i, j)`` has influence

        g_p = (v_ij - (vbar_i + vbar_j)(1 - kappa)) / (1 - p_e)

    on the kappa, and over ``n`` items

        cov(kappa_1, kappa_2) = (sum_p pi_p g1_p g2_p - (sum_p pi_p g1_p)(sum_p pi_p g2_p)) / n,

    whose diagonal is Fleiss, Cohen & Everitt's (1969) variance of each kappa. The
    bootstrap draws ``n_boot`` samples of the items (one multinomial draw over the
    patterns per sample), sums both K x K tables from each, and reports the standard
    deviation and the percentile interval of ``kappa_2 - kappa_1`` over the samples.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library (the first result's, compared as results), one
        row per group (compared in pairs) or per matched key:

        - the keys: the ``by`` columns; compared as results also ``rater_a``,
          ``rater_b`` (pairwise) or ``method`` (overall);
        - compared in pairs: ``first_a``, ``first_b``, ``second_a``, ``second_b`` (the
          raters), ``n`` (the items all of them labeled), ``kappa_first``,
          ``kappa_second``; compared as results: ``kappa_first``, ``kappa_second``
          (pairwise) or ``value_first``, ``value_second`` (overall);
        - ``difference`` (second - first), ``se``, ``ci_low``, ``ci_high`` (normal; the
          percentile interval with the bootstrap), ``z = difference / se``, ``p_value``
          (two-sided, normal);
        - ``test``: "delta", "bootstrap" or "independent normal";
        - ``verdict``: "second higher" (the interval above 0), "first higher" (below 0)
          or "no detectable difference"; missing where there is no interval;
        - compared as results: ``matched``, "both", "first only" or "second only": a
          row found in one result only is kept, with the other side missing.

    Raises
    ------
    KappaFrameError
        Results without ``se`` (computed without ``ci=``), of different functions, with
        different ``by`` columns, or recorded with different weights, level, conventions
        or set distance, or weighted over different categories (the message names the
        difference); a pair written the other way round when a result was weighted by a
        matrix (which may be asymmetric); the
        same key twice in a result; a pair that is not two raters, or the same pair
        twice; ``n_boot`` or ``seed`` without ``method="bootstrap"``; options that do
        not apply to the form used; and
        as ``pairwise``.

    See Also
    --------
    pairwise : the kappas, with ``ci=`` their standard errors.
    overall : the many-rater coefficients, with ``ci=`` their standard errors.

    Notes
    -----
    Compared in pairs, only the items every one of the (three or four) raters labeled
    count, so both kappas are of the same items; ``n`` says how many. A pandas result of
    ``pairwise`` or ``overall`` records its weights and categories (in ``attrs``), and
    two results recorded with different weights, Krippendorff levels or (with weights,
    whose distances the category list sets) categories are refused; pandas keeps the
    record through ``to_parquet`` and ``read_parquet``. Without weights a label one
    sample lacks changes nothing, so the categories may differ. A polars result, or one
    read back from CSV, records nothing, so compare results computed alike. ``multiagree``
    (Vanbelle) tests the same delta-method difference with Hotelling's T^2, i.e. an F(1,
    n - 1) reference for ``z^2``; kappaframe uses the normal reference throughout. The
    closed-form test of Donner, Shoukri, Klar & Bartfay (2000) for two dependent
    intraclass kappas of binary ratings is not implemented; the delta method covers
    binary ratings too.

    With ``cluster`` (two pairs of one frame), the delta method sums each item's centred
    influence on each kappa within its cluster, ``var_j = sum_c S_jc^2 / n^2`` and
    ``cov = sum_c S_1c S_2c / n^2`` (the linearisation of ``pairwise``'s ``cluster``, in
    the spirit of Vanbelle's (2017) multilevel delta method), and the bootstrap draws
    whole clusters, once for both kappas. One item per cluster gives the answer without
    ``cluster``; a group with fewer than two clusters gets no interval.

    References
    ----------
    Vanbelle, S. (2017). Comparing dependent kappa coefficients obtained on multilevel
    data. *Biometrical Journal* 59(5), 1016-1034.

    Vanbelle, S., & Albert, A. (2008). A bootstrap method for comparing correlated kappa
    coefficients. *Journal of Statistical Computation and Simulation* 78(11), 1009-1015.

    Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard errors of
    kappa and weighted kappa. *Psychological Bulletin* 72(5), 323-327.

    Fleiss, J. L., Levin, B., & Paik, M. C. (2003). *Statistical Methods for Rates and
    Proportions*, 3rd ed., sec. 18.1. Wiley.

    Examples
    --------
    Vanbelle & Albert's (2008) depression data: 50 patients, a diagnosis and two
    questionnaires (BDI, GHQ), each compared with the diagnosis on the same patients.
    They report T^2 = z^2 = 2.19, p = 0.14 (bootstrap); the delta method gives:

    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> diag = [1] * 7 + [0, 0] + [1] * 4 + [0, 0, 1, 1] + [0] * 33
    >>> df = pd.DataFrame({"diag": diag, "BDI": [1] * 9 + [0] * 41,
    ...                    "GHQ": [1] * 8 + [0] + [1] * 6 + [0] * 35})
    >>> res = kf.compare(df, ("BDI", "diag"), ("GHQ", "diag"))
    >>> [round(float(res[c].iloc[0]), 3) for c in ("kappa_first", "kappa_second", "se")]
    [0.538, 0.746, 0.139]
    >>> round(float(res["p_value"].iloc[0]), 3), str(res["verdict"].iloc[0])
    (0.134, 'no detectable difference')

    Two results of independent samples (here the odd and the even patients), matched on
    their pairs:

    >>> odd = kf.pairwise(df.iloc[::2], ["BDI", "diag"], ci=0.95, min_items=None)
    >>> even = kf.pairwise(df.iloc[1::2], ["BDI", "diag"], ci=0.95, min_items=None)
    >>> res = kf.compare(odd, even)
    >>> round(float(res["difference"].iloc[0]), 3), round(float(res["se"].iloc[0]), 3)
    (-0.06, 0.284)
    >>> str(res["matched"].iloc[0]), str(res["verdict"].iloc[0])
    ('both', 'no detectable difference')
    """
    level = check_level(ci)
    if second is None and not isinstance(first, (tuple, list)):
        paired_only = {
            "item": item, "rater": rater, "label": label, "by": by, "weights": weights,
            "categories": categories, "method": method, "n_boot": n_boot, "seed": seed,
            "cluster": cluster,
        }  # fmt: skip
        given = [name for name, value in paired_only.items() if value is not None]
        if given or duplicates != "raise":
            name = given[0] if given else "duplicates"
            raise KappaFrameError(
                f"{arg(name)} applies to two rater pairs of one frame; two results are "
                "matched on their own keys and compared by the normal test on their "
                f"standard errors. Drop {arg(name)}.",
                option=name,
            )
        return _compare_results(data, first, level)
    read = ReadSpec.of(locals())
    return _compare_pairs(
        data, first, second, read, weights=weights, method=method, n_boot=n_boot, seed=seed,
        level=level, cluster=cluster,
    )  # fmt: skip


def _pair(value: Any, name: str) -> tuple[Hashable, Hashable]:
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise KappaFrameTypeError(
            f"{name} must be a pair of rater names, e.g. ('model_a', 'gold'); got "
            f"{value!r:.80}. To compare two results of pairwise() or overall(), pass the "
            "two results only.",
            option=name,
        )
    a, b = value
    if a == b:
        raise KappaFrameError(
            f"{name} names rater {a!r} twice; a pair is two different raters.", option=name
        )
    return a, b


def _compare_pairs(
    data: Any,
    first: Any,
    second: Any,
    read: ReadSpec,
    *,
    weights: Any,
    method: Any,
    n_boot: Any,
    seed: Any,
    level: float,
    cluster: Hashable | None = None,
) -> Any:
    """Two rater pairs of one frame, on the items all of their raters labeled.

    ``read``: how to read the ratings, its raters those of the two pairs; ``cluster``: the
    column of each item's cluster (``kappaframe._stats.cluster``).
    """
    pair1, pair2 = _pair(first, "first"), _pair(second, "second")
    if set(pair1) == set(pair2):
        raise KappaFrameError(
            f"first and second are the same pair {pair1!r}; name two different pairs, "
            "e.g. ('model_a', 'gold') and ('model_b', 'gold').",
            option="second",
        )
    method = "delta" if method is None else method
    if method not in METHODS:
        raise bad_option("method", method, METHODS)
    if method == "bootstrap":
        n_boot = check_bootstrap(1000 if n_boot is None else n_boot)
    else:
        for name, value in (("n_boot", n_boot), ("seed", seed)):
            if value is not None:
                raise KappaFrameError(
                    f"{arg(name)} applies to {arg('method', 'bootstrap')}; the delta method "
                    f"draws nothing. Pass {arg('method', 'bootstrap')} or drop {arg(name)}.",
                    option=name,
                )
    check_settings(weights=weights, by=read.by, output=COMPARE_PAIRED_COLUMNS + COMPARE_COLUMNS)
    raters = list(dict.fromkeys([*pair1, *pair2]))
    clusters = None
    if cluster is None:
        prep = prepare_ratings(data, read.replace(raters=raters))
    else:
        prep, clusters = clustered_input(
            data, read.replace(raters=raters), cluster, from_counts=False
        )
    prep.require_order(weights)
    w = Weights.of(weights, prep.categories).matrix
    where = {name: i for i, name in enumerate(prep.raters)}
    missing = [r for r in raters if r not in where]
    if missing:  # the long layout: a rater id with no rating
        raise KappaFrameError(
            f"rater {missing[0]!r} has no rating in the data (raters found: "
            f"{', '.join(map(repr, prep.raters[:12]))}); name raters that rated.",
            option="first" if missing[0] in pair1 else "second",
        )
    rows = [where[r] for r in raters]
    check_count_size(
        2,
        prep.groups.n_groups,
        len(prep.categories),
        why="compare() needs the K x K table of both pairs in every group, and ",
        ways_out=f"Pass fewer groups ({arg('by')}) or merge rare categories first",
    )
    local = {name: i for i, name in enumerate(raters)}
    n_groups = prep.groups.n_groups
    patterns = joint_patterns(prep.codes[rows], prep.groups.codes, n_groups, len(prep.categories))
    p1 = (local[pair1[0]], local[pair1[1]])
    p2 = (local[pair2[0]], local[pair2[1]])
    if clusters is not None:
        inner = clusters.prep.groups
        per = joint_patterns(prep.codes[rows], inner.codes, inner.n_groups, len(prep.categories))
        out = (
            cluster_paired_bootstrap(
                per, clusters.outer, patterns, p1, p2, w, level, n_boot, seed, prep.categories
            )
            if method == "bootstrap"
            else cluster_paired_delta(per, clusters.outer, patterns, p1, p2, w, level)
        )
    elif method == "bootstrap":
        out = paired_bootstrap(patterns, p1, p2, w, level, n_boot, seed, categories=prep.categories)
    else:
        out = paired_delta(patterns, p1, p2, w, level)
    output = (*COMPARE_PAIRED_COLUMNS, *COMPARE_COLUMNS)
    columns = key_columns(prep, np.arange(n_groups), output, "compare")
    for name, value in zip(COMPARE_PAIRED_COLUMNS[:4], (*pair1, *pair2), strict=True):
        names = np.empty(n_groups, dtype=object)
        names[:] = [value] * n_groups
        columns.append(Column(name, "name", names))
    columns.append(Column("n", "int", np.asarray(out["n"]).astype(np.int64)))
    columns.append(Column("kappa_first", "float", out["kappa_first"]))
    columns.append(Column("kappa_second", "float", out["kappa_second"]))
    columns += _test_columns(out, method, n_groups)
    return prep.frame.render(Table(columns, mark={"kind": "compare"}))


class _Result:
    """One result of ``pairwise`` or ``overall`` read for a comparison."""

    def __init__(self, frame: Any, name: str) -> None:
        adapter = eager_adapter(frame)
        if adapter is None:
            raise KappaFrameTypeError(
                f"{name} must be a result of pairwise() or overall() as a pandas or polars "
                f"frame (a Dask result: .compute() it first); got "
                f"{type(frame).__module__}.{type(frame).__qualname__}.",
                option=name,
            )
        self.name = name
        self.adapter = adapter
        self.columns = list(adapter.columns())
        if {"rater_a", "rater_b", "kappa"} <= set(self.columns):
            self.kind, self.coefficient, first_key = "pairwise", "kappa", "rater_a"
            self.keys = [*self.columns[: self.columns.index("rater_a")], "rater_a", "rater_b"]
        elif {"method", "value"} <= set(self.columns):
            self.kind, self.coefficient, first_key = "overall", "value", "method"
            self.keys = [*self.columns[: self.columns.index("method")], "method"]
        else:
            raise KappaFrameError(
                f"{name} is not a result of pairwise() (rater_a, rater_b, kappa) or "
                f"overall() (method, value); its columns are "
                f"{', '.join(map(repr, self.columns[:12]))}.",
                option=name,
            )
        self.by = self.keys[: self.keys.index(first_key)]
        if "se" not in self.columns:
            raise KappaFrameError(
                f"{name} has no se column: compute it with {arg('ci', 0.95)} (a comparison "
                "needs each coefficient's standard error).",
                option=name,
            )
        self.record = record_of(frame)
        adapter.load([*self.keys, self.coefficient, "se"])
        self.frame = adapter.frame
        self.n_rows = adapter.n_rows

    def floats(self, column: str) -> np.ndarray:
        values = self.frame[column].to_numpy()
        return np.asarray(values, dtype=float)


def _same_results(one: _Result, two: _Result) -> None:
    """Refuse two results that are not alike: function, ``by`` columns, recorded options."""
    if one.kind != two.kind:
        raise KappaFrameError(
            f"first is a result of {one.kind}() ({one.coefficient}) and second of "
            f"{two.kind}() ({two.coefficient}); compare results of the same function.",
            option="second",
        )
    if one.by != two.by:
        raise KappaFrameError(
            f"first is grouped by {one.by!r} and second by {two.by!r}; compare results "
            "grouped alike.",
            option="second",
        )
    different = recorded_differences(one.record, two.record)
    if different:
        key, others = different[0], different[1:]
        shown1, shown2 = repr(one.record[key]), repr(two.record[key])
        also = f" (and {said_differences(others, (one.record, two.record))})" if others else ""
        raise KappaFrameError(
            f"first was computed with {key} {shown1:.200} and second with {key} "
            f"{shown2:.200}{also}; their coefficients do not measure the same thing. "
            f"Compute both with the same {', '.join(arg(k) for k in different)}.",
            option=key,
        )


def _key_codes(one: _Result, two: _Result) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row key codes of both results, shared: equal keys get equal codes.

    A pair is unordered: ``rater_a`` and ``rater_b`` are coded over one list of names and
    each row's two codes sorted, so ``(ben, ana)`` has the code of ``(ana, ben)``. Also
    returned: which rows of both (first's, then second's) write their pair the other way
    round from that sorted order.
    """
    parts1: list[np.ndarray] = []
    parts2: list[np.ndarray] = []
    pair = ["rater_a", "rater_b"] if one.kind == "pairwise" else []
    factors = {key: (one.adapter.labels(key), two.adapter.labels(key)) for key in one.keys}
    coded: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for key in [k for k in one.keys if k not in pair] + ([pair] if pair else []):
        names = key if isinstance(key, list) else [key]
        shared: dict[Any, int] = {}
        for name in names:
            for value in (*factors[name][0].uniques, *factors[name][1].uniques):
                shared.setdefault(value, len(shared))
        for name in names:
            sides = []
            for fact in factors[name]:
                lookup = np.array([shared[v] for v in fact.uniques] + [-1], dtype=np.int64)
                sides.append(lookup[np.asarray(fact.codes, dtype=np.int64)])
            coded[name] = (sides[0], sides[1])
    turned = np.zeros(one.n_rows + two.n_rows, dtype=bool)
    if pair:
        a = np.concatenate(coded["rater_a"])
        b = np.concatenate(coded["rater_b"])
        turned = a > b
        low, high = np.minimum(a, b), np.maximum(a, b)
        coded["rater_a"] = (low[: one.n_rows], low[one.n_rows :])
        coded["rater_b"] = (high[: one.n_rows], high[one.n_rows :])
    for key in one.keys:
        parts1.append(coded[key][0])
        parts2.append(coded[key][1])
    stacked = np.vstack(
        [np.column_stack(parts1 or [np.zeros(one.n_rows)]),
         np.column_stack(parts2 or [np.zeros(two.n_rows)])]
    )  # fmt: skip
    _, codes = np.unique(stacked, axis=0, return_inverse=True)
    codes = codes.reshape(-1)
    return codes[: one.n_rows], codes[one.n_rows :], turned


def _unique_keys(codes: np.ndarray, result: _Result) -> None:
    values, counts = np.unique(codes, return_counts=True)
    if (counts > 1).any():
        row = int(np.flatnonzero(codes == values[counts > 1][0])[0])
        shown = {k: result.frame[k][row] for k in result.keys}
        raise KappaFrameError(
            f"{result.name} has more than one row for the keys {shown!r:.200}; each row of a "
            "result must have its own keys.",
            option=result.name,
        )


def _compare_results(first: Any, second: Any, level: float) -> Any:
    """Two results matched on their keys, tested from their standard errors."""
    one, two = _Result(first, "first"), _Result(second, "second")
    libraries = [type(r.frame).__module__.split(".")[0] for r in (one, two)]
    if libraries[0] != libraries[1]:
        raise KappaFrameTypeError(
            f"first is a {libraries[0]} frame and second a {libraries[1]} frame; pass both "
            "results as frames of one library.",
            option="second",
        )
    _same_results(one, two)
    code1, code2, turned = _key_codes(one, two)
    _unique_keys(code1, one)
    _unique_keys(code2, two)
    # Rows: the first result's, in order, then the second's that it does not have.
    n_codes = int(max(code1.max(initial=-1), code2.max(initial=-1))) + 1
    row_of_second = np.full(n_codes, -1, dtype=np.intp)
    row_of_second[code2] = np.arange(two.n_rows)
    in_first = np.zeros(n_codes, dtype=bool)
    in_first[code1] = True
    match2 = row_of_second[code1]
    both = np.flatnonzero(match2 >= 0)
    turned_round = bool((turned[both] != turned[one.n_rows + match2[both]]).any())
    check_turned_round((one.record, two.record), turned_round, ("first", "second"), "weights")
    extra = np.flatnonzero(~in_first[code2])
    rows1 = np.concatenate([np.arange(one.n_rows), np.full(extra.size, -1)])
    rows2 = np.concatenate([match2, extra])
    n_rows = rows1.size

    def side(result: _Result, rows: np.ndarray, column: str) -> np.ndarray:
        values = result.floats(column)
        out = np.full(n_rows, np.nan)
        have = rows >= 0
        out[have] = values[rows[have]]
        return out

    c1, se1 = side(one, rows1, one.coefficient), side(one, rows1, "se")
    c2, se2 = side(two, rows2, two.coefficient), side(two, rows2, "se")
    out = difference(c1, se1, c2, se2, level)
    # The keys: of the first result's row, else the second's (after the first's rows).
    keys = concat(
        [take(one.frame, one.keys, np.arange(one.n_rows)),
         take(two.frame, two.keys, np.arange(two.n_rows))]
    )  # fmt: skip
    position = np.where(rows1 >= 0, rows1, one.n_rows + rows2)
    columns = [Column(k, "key", position, source=k) for k in one.keys]
    name = one.coefficient
    columns += [Column(f"{name}_first", "float", c1), Column(f"{name}_second", "float", c2)]
    columns += _test_columns(out, INDEPENDENT, n_rows)
    matched = np.where(rows1 < 0, 2, np.where(rows2 < 0, 1, 0)).astype(np.int8)
    columns.append(Column("matched", "enum", matched, categories=MATCHES))
    output = one.adapter.output
    return render(Table(columns, mark={"kind": "compare"}), keys, output)
