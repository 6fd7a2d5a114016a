"""Public function table_tests(): whether two raters use the categories alike.

Frame -> codes (``kappaframe._api.plan.prepare_input``, read as ``pairwise`` reads it) ->
the K x K table of every rater pair (``many_common.pair_tables``) -> the tests and indices
(``kappaframe._stats.table_tests``) -> ``Table`` -> the caller's frame type.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, TypeVar

import numpy as np

from .._encode.codes import object_array
from .._errors import KappaFrameError, arg, warn_undefined
from .._schema import SPECIFIC_COLUMNS, TABLE_TEST_CI_COLUMNS, TABLE_TEST_COLUMNS, Column, Table
from .._stats import table_tests as _tests
from .._stats.inference import normal_quantile
from .._types import Duplicates, TableRows
from .assemble import key_columns
from .many_common import pair_tables
from .options import check_level, check_settings
from .plan import adapt, prepare_input
from .prepare import Prepared
from .settings.bind import declared
from .settings.reading import ReadSpec

__all__ = ["table_tests"]

FrameT = TypeVar("FrameT")

#: Why a statistic of a non-empty table may be NaN (the warning's second reason).
_WHY_UNDEFINED = (
    "where a statistic divides by 0 (McNemar with no disagreement; specific agreement of a "
    "category neither rater chose)"
)


@declared
def table_tests(
    data: FrameT,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    categories: Sequence[Any] | None = None,
    duplicates: Duplicates = "raise",
    per: TableRows = "pair",
    ci: float | None = None,
) -> FrameT:
    """Tests of two raters' K x K table: marginal homogeneity, symmetry, specific agreement.

    For each pair of raters (per group), with ``n_ij`` the items rater a put in category
    i and rater b in j, ``n_i.`` and ``n_.j`` the totals and ``p_ij = n_ij / n``:

    - Stuart-Maxwell test of marginal homogeneity (do the two raters use each category
      equally often?): ``d_k = p_.k - p_k.`` and ``V_kk = p_k. + p_.k - 2 p_kk``,
      ``V_kl = -(p_kl + p_lk)`` over the first K - 1 categories;
      ``chi2 = n d' V^+ d`` on ``rank(V)`` degrees of freedom (``K - 1`` unless some
      category is never disagreed on; ``V^+`` the Moore-Penrose inverse).
    - Bowker's test of symmetry (``p_ij = p_ji``):
      ``chi2 = sum_(i<j) (n_ij - n_ji)^2 / (n_ij + n_ji)`` on ``K (K - 1) / 2``.
    - McNemar's test (two categories, ``b = n_12``, ``c = n_21``):
      ``chi2 = (|b - c| - c0)^2 / (b + c)`` on 1, ``c0 = 0``, and ``c0 = 1`` with the
      continuity correction (``mcnemar_cc_*``).
    - Bangdiwala's B: ``sum_k n_kk^2 / sum_k n_k. n_.k``.
    - Specific agreement of category k: ``s_k = 2 n_kk / (n_k. + n_.k)``; for two
      categories the positive (second category, ``2a / (2a + b + c)``) and negative
      (first category, ``2d / (2d + b + c)``) agreement.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library. ``per="pair"``: one row per pair (per group), with
        the ``by`` columns; ``rater_a``, ``rater_b``; ``n`` (items both labeled);
        ``stuart_maxwell_chi2``, ``stuart_maxwell_df``, ``stuart_maxwell_p``;
        ``bowker_chi2``, ``bowker_df``, ``bowker_p``; for two categories only
        ``mcnemar_chi2``, ``mcnemar_p``, ``mcnemar_cc_chi2``, ``mcnemar_cc_p``;
        ``bangdiwala_b``; for two categories only ``positive_agreement``,
        ``negative_agreement`` and, with ``ci``, ``positive_ci_low``,
        ``positive_ci_high``, ``negative_ci_low``, ``negative_ci_high``.
        ``per="category"``: one row per pair and category (per group): ``rater_a``,
        ``rater_b``, ``category``, ``n``, ``specific_agreement`` and, with ``ci``, ``se``,
        ``ci_low``, ``ci_high``.

    Raises
    ------
    KappaFrameError
        As ``pairwise``: unknown columns, fewer than two raters, a label outside
        ``categories``, a duplicate rating in the long layout; ``per="pair"`` with ``ci``
        and other than two categories (the intervals are of positive and negative
        agreement: pass ``per="category"``).

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, when some statistic is undefined (NaN): a pair with
        no shared item (everything NaN), or a statistic that divides by 0.

    See Also
    --------
    pairwise : Cohen's kappa of each pair; ``kappa0=`` tests it against a non-zero value.
    confusion : the K x K table of two raters.

    Notes
    -----
    The McNemar and positive/negative agreement columns exist only with two categories
    (``categories=`` fixes them): with more, Bowker's test is McNemar's generalisation and
    ``per="category"`` gives every category's specific agreement. "Positive" is the second
    category in the order (``1`` of 0/1, ``True``, ``"yes"`` of no/yes); pass
    ``categories`` to choose it.

    The Stuart-Maxwell and Bowker statistics are statsmodels'
    ``SquareTable(table, shift_zeros=False).homogeneity()`` and ``.symmetry()``: the
    observed table (statsmodels' default first replaces each zero cell by 0.5). A pair of
    cells ``n_ij = n_ji = 0`` adds 0 to Bowker's statistic and keeps its degree of freedom
    (as statsmodels; SAS drops it from ``df``). Where ``V`` is singular (a category the
    raters never disagree on) statsmodels gives NaN (or, when rounding hides the
    singularity, a number on ``K - 1`` degrees of freedom); here the statistic is the test
    over the categories left, on ``rank(V)`` degrees of freedom (the generalised-inverse
    form, as R coin's ``mh_test``). No disagreement at all, or one category, gives 0 on 0
    degrees of freedom, ``p = 1``. McNemar without disagreement (``b + c = 0``) is NaN.
    McNemar's values are statsmodels' ``mcnemar(table, exact=False, correction=...)`` and
    R's ``mcnemar.test``.

    The interval of a specific agreement is ``s -/+ z se`` clipped to [0, 1], with the
    delta-method variance of Graham & Bull (1998), for ``a = n_kk`` and
    ``m = n_k. + n_.k - 2 n_kk``: ``var(s) = 4 a m (a + m) / (2a + m)^4``. It is 0 (a
    zero-width interval) when ``a = 0`` or ``m = 0``: read those with care.

    References
    ----------
    Stuart, A. (1955). A test for homogeneity of the marginal distributions in a two-way
    classification. *Biometrika* 42, 412-416.

    Maxwell, A. E. (1970). Comparing the classification of subjects by two independent
    judges. *British Journal of Psychiatry* 116, 651-655.

    Bowker, A. H. (1948). A test for symmetry in contingency tables. *Journal of the
    American Statistical Association* 43, 572-574.

    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. *Psychometrika* 12, 153-157.

    Bangdiwala, S. I. (1985). A graphical test for observer agreement. *Proceedings of
    the 45th Session of the International Statistical Institute* 1, 307-308.

    Graham, P., & Bull, B. (1998). Approximate standard errors and confidence intervals
    for indices of positive and negative agreement. *Journal of Clinical Epidemiology*
    51(9), 763-771.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({"a": list("yyyyynnnnn"), "b": list("yyynnnnnny")})
    >>> res = kf.table_tests(df)
    >>> round(float(res["mcnemar_chi2"].iloc[0]), 4), float(res["bangdiwala_b"].iloc[0])
    (0.3333, 0.5)
    >>> round(float(res["positive_agreement"].iloc[0]), 4)
    0.6667
    """
    check_settings(by=by, output=_output(per, ci), what="table_tests")
    level = None if ci is None else check_level(ci)
    read = ReadSpec.of(locals())
    prep = prepare_input(adapt(data), read, from_counts=True)
    k = len(prep.categories)
    if per == "pair" and level is not None and k != 2:
        raise KappaFrameError(
            f"{arg('ci')} adds the intervals of positive and negative agreement, which "
            f"need two categories; got {k}. Pass {arg('per', 'category')} for each "
            f"category's specific agreement with its interval, or drop {arg('ci')}.",
            option="ci",
        )
    pairs = prep.pairs()
    tables = pair_tables(prep, pairs, "table_tests")  # (P, G, K, K)
    n = tables.sum(axis=(-2, -1))
    specific = _tests.specific_agreement(tables)
    if per == "category":
        return prep.frame.render(_category_table(prep, pairs, n, specific, level))
    return prep.frame.render(_pair_table(prep, pairs, tables, n, specific, level))


def _output(per: str, ci: Any) -> tuple[str, ...]:
    """The output's own column names (``by`` may not take one)."""
    if per == "category":
        return (*SPECIFIC_COLUMNS, *(() if ci is None else ("se", "ci_low", "ci_high")))
    return (*TABLE_TEST_COLUMNS, *(() if ci is None else TABLE_TEST_CI_COLUMNS))


def _rows(values: np.ndarray) -> np.ndarray:
    """``values[pair, group]`` as one column: rows group-major, as ``pairwise``'s."""
    return np.swapaxes(values, 0, 1).reshape(-1)


def _pair_keys(
    prep: Prepared, pairs: np.ndarray, output: tuple[str, ...], per_row: int = 1
) -> list[Column]:
    """The ``by`` columns, ``rater_a`` and ``rater_b`` of group-major rows.

    ``per_row`` rows for each pair: one per category.
    """
    n_pairs, n_groups = len(pairs), prep.groups.n_groups
    group_of_row = np.repeat(np.arange(n_groups), n_pairs * per_row)
    pair_of_row = np.tile(np.repeat(np.arange(n_pairs), per_row), n_groups)
    raters = list(prep.raters)
    return [
        *key_columns(prep, group_of_row, output, "table_tests"),
        Column("rater_a", "name", pairs[pair_of_row, 0], categories=raters),
        Column("rater_b", "name", pairs[pair_of_row, 1], categories=raters),
    ]


def _interval(value: np.ndarray, var: np.ndarray, level: float) -> tuple[np.ndarray, ...]:
    """``se``, and the interval ``value -/+ z se`` clipped to [0, 1]."""
    se = np.sqrt(np.clip(var, 0.0, None))
    half = normal_quantile(level) * se
    return se, np.clip(value - half, 0.0, 1.0), np.clip(value + half, 0.0, 1.0)


def _pair_table(
    prep: Prepared,
    pairs: np.ndarray,
    tables: np.ndarray,
    n: np.ndarray,
    specific: dict[str, np.ndarray],
    level: float | None,
) -> Table:
    """``per="pair"``: the tests and indices of each pair (per group)."""
    two = len(prep.categories) == 2
    values: dict[str, np.ndarray] = {}
    for test, result in (
        ("stuart_maxwell", _tests.stuart_maxwell(tables)),
        ("bowker", _tests.bowker(tables)),
    ):
        values.update({f"{test}_{part}": result[part] for part in ("chi2", "df", "p")})
    if two:
        for name, correction in (("mcnemar", False), ("mcnemar_cc", True)):
            result = _tests.mcnemar(tables, correction=correction)
            values.update({f"{name}_chi2": result["chi2"], f"{name}_p": result["p"]})
    values["bangdiwala_b"] = _tests.bangdiwala_b(tables)
    if two:
        for name, k in (("positive", 1), ("negative", 0)):
            value, var = specific["value"][..., k], specific["var"][..., k]
            values[f"{name}_agreement"] = value
            if level is not None:
                _, values[f"{name}_ci_low"], values[f"{name}_ci_high"] = _interval(
                    value, var, level
                )
    order = [c for c in (*TABLE_TEST_COLUMNS, *TABLE_TEST_CI_COLUMNS) if c in values]
    undefined = np.any([np.isnan(values[c]) for c in order if values[c].dtype.kind == "f"], 0)
    warn_undefined(undefined, n, subject="a table test", what="pair x group cells",
                   otherwise=_WHY_UNDEFINED)  # fmt: skip
    columns = _pair_keys(prep, pairs, _output("pair", level))
    columns.append(Column("n", "int", _rows(n).astype(np.int64)))
    columns += [
        Column(name, "int" if values[name].dtype.kind in "iu" else "float", _rows(values[name]))
        for name in order
    ]
    return Table(columns, mark={"kind": "table_tests"})


def _category_table(
    prep: Prepared,
    pairs: np.ndarray,
    n: np.ndarray,
    specific: dict[str, np.ndarray],
    level: float | None,
) -> Table:
    """``per="category"``: each pair's specific agreement of each category (per group)."""
    k = len(prep.categories)
    value = specific["value"]  # (P, G, K)
    warn_undefined(np.isnan(value), np.repeat(n[..., None], k, axis=-1),
                   subject="specific agreement", what="pair x group x category cells",
                   otherwise="where neither rater chose the category")  # fmt: skip

    def rows(values: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(np.transpose(values, (1, 0, 2))).reshape(-1)

    labels = object_array(prep.categories)
    n_rows = len(pairs) * prep.groups.n_groups
    columns = _pair_keys(prep, pairs, _output("category", level), per_row=k)
    columns += [
        Column("category", "label", np.tile(labels, n_rows)),
        Column("n", "int", np.repeat(_rows(n), k).astype(np.int64)),
        Column("specific_agreement", "float", rows(value)),
    ]
    if level is not None:
        parts = _interval(value, specific["var"], level)
        columns += [
            Column(name, "float", rows(part))
            for name, part in zip(("se", "ci_low", "ci_high"), parts, strict=True)
        ]
    return Table(columns, mark={"kind": "table_tests"})
