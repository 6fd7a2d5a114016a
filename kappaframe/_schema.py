"""Every output schema, and the backend-free description of a result frame.

Output column names and order live here and nowhere else; so does the one check that a
``by`` column (or a rater) is not named like a column of the output it would join.
A ``Table`` is built once and rendered per backend (``kappaframe._frames``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ._errors import KappaFrameError

__all__ = [
    "BASELINE_COLUMNS",
    "BENCHMARK_COLUMNS",
    "BLAND_ALTMAN_CI_COLUMNS",
    "BLAND_ALTMAN_COLUMNS",
    "CATEGORY_COLUMNS",
    "CCC_CI_COLUMNS",
    "CCC_COLUMNS",
    "CELL_COLUMNS",
    "CELL_INDEX_COLUMNS",
    "CI_COLUMNS",
    "COMPARE_COLUMNS",
    "COMPARE_PAIRED_COLUMNS",
    "COMPARE_VERDICTS",
    "DESIGN_COLUMNS",
    "ICC_CI_COLUMNS",
    "ICC_COLUMNS",
    "ICC_TRIAL_COLUMNS",
    "ITEM_COLUMNS",
    "ITEM_KEY",
    "ITEM_REFERENCE_COLUMNS",
    "KENDALL_COLUMNS",
    "KENDALL_DESIGN_COLUMNS",
    "LABEL_COLUMNS",
    "MARK",
    "MATRIX_KEY",
    "OVERALL_COLUMNS",
    "PAIR_LABEL_COLUMNS",
    "PILOT_COLUMNS",
    "RATER_COLUMNS",
    "SAMPLE_SIZE_COLUMNS",
    "SPECIFIC_COLUMNS",
    "SWEEP_COLUMNS",
    "TABLE_TEST_CI_COLUMNS",
    "TABLE_TEST_COLUMNS",
    "TIDY_COLUMNS",
    "Column",
    "Kind",
    "Table",
    "check_names",
]

#: Key of ``DataFrame.attrs`` under which a result says what it is (see ``Table``).
MARK = "kappaframe"

TIDY_COLUMNS = ("rater_a", "rater_b", "n", "p_o", "p_e", "kappa", "interpretation")
#: ``ci=`` columns: ``se0`` is the standard error under a zero coefficient (``z`` uses it).
CI_COLUMNS = ("se", "se0", "ci_low", "ci_high", "z", "p_value")
#: With ``benchmark="probabilistic"``: the cumulative membership probability of the band
#: ``interpretation`` names (Gwet 2014, ch. 6).
BENCHMARK_COLUMNS = ("interpretation_p",)
OVERALL_COLUMNS = ("method", "n_items", "n_raters", "p_o", "p_e", "value", "interpretation")
#: ``kappaframe.compare``: after the keys (and, compared in pairs, the pairs and their
#: coefficients), the test of ``second - first``; two results compared end with
#: ``matched`` (whether a row's keys are in both results or only one).
COMPARE_COLUMNS = ("difference", "se", "ci_low", "ci_high", "z", "p_value", "test", "verdict")
COMPARE_PAIRED_COLUMNS = (
    "first_a",
    "first_b",
    "second_a",
    "second_b",
    "n",
    "kappa_first",
    "kappa_second",
)
#: The plain-words verdicts of a comparison, from its interval.
COMPARE_VERDICTS = ("first higher", "no detectable difference", "second higher")
#: ``sample_size``: the question and its answer, one row per question (per pilot group).
SAMPLE_SIZE_COLUMNS = (
    "goal",
    "method",
    "n_raters",
    "n_categories",
    "props",
    "kappa0",
    "kappa1",
    "lower",
    "upper",
    "alpha",
    "power",
    "alternative",
    "n_items",
)
#: ``sample_size`` of a pilot frame: before the question, what the pilot showed.
PILOT_COLUMNS = ("pilot_items", "pilot_kappa")
#: ``kappaframe.ccc``: after the ``by`` columns; then, with ``ci``, ``CCC_CI_COLUMNS``.
CCC_COLUMNS = (
    "rater_a",
    "rater_b",
    "n",
    "ccc",
    "pearson_r",
    "bias_correction",
    "scale_shift",
    "location_shift",
)
CCC_CI_COLUMNS = ("se", "ci_low", "ci_high")
#: ``kappaframe.bland_altman``: after the ``by`` columns; then, with ``ci``, the intervals.
BLAND_ALTMAN_COLUMNS = ("rater_a", "rater_b", "n", "bias", "sd", "loa_low", "loa_high")
BLAND_ALTMAN_CI_COLUMNS = (
    "bias_ci_low",
    "bias_ci_high",
    "loa_low_ci_low",
    "loa_low_ci_high",
    "loa_high_ci_low",
    "loa_high_ci_high",
)
RATER_COLUMNS = (
    "rater",
    "n_items",
    "mean_kappa",
    "median_kappa",
    "min_kappa",
    "min_kappa_with",
    "label_shift",
    "overused",
    "overused_share",
    "others_share",
)
#: ``kappaframe.table_tests``: one row per pair (per group). The McNemar and the
#: positive/negative agreement columns exist for two categories only; the intervals with
#: ``ci`` (``TABLE_TEST_CI_COLUMNS``) follow.
TABLE_TEST_COLUMNS = (
    "rater_a",
    "rater_b",
    "n",
    "stuart_maxwell_chi2",
    "stuart_maxwell_df",
    "stuart_maxwell_p",
    "bowker_chi2",
    "bowker_df",
    "bowker_p",
    "mcnemar_chi2",
    "mcnemar_p",
    "mcnemar_cc_chi2",
    "mcnemar_cc_p",
    "bangdiwala_b",
    "positive_agreement",
    "negative_agreement",
)
TABLE_TEST_CI_COLUMNS = (
    "positive_ci_low",
    "positive_ci_high",
    "negative_ci_low",
    "negative_ci_high",
)
#: ``kappaframe.table_tests(per="category")``: one row per pair, category (per group);
#: with ``ci``, ``se``, ``ci_low``, ``ci_high`` follow.
SPECIFIC_COLUMNS = ("rater_a", "rater_b", "category", "n", "specific_agreement")
CATEGORY_COLUMNS = (
    "rater_a",
    "rater_b",
    "category",
    "n",
    "n_items",
    "p_o",
    "p_e",
    "kappa",
    "interpretation",
)
#: ``kappaframe.per_label`` over all raters: one row per method and label of set labels.
LABEL_COLUMNS = (
    "method",
    "label",
    "prevalence",
    "n_items",
    "n_raters",
    "p_o",
    "p_e",
    "value",
    "interpretation",
)
#: ``kappaframe.per_label(method="cohen")``: one row per rater pair and label.
PAIR_LABEL_COLUMNS = (
    "rater_a",
    "rater_b",
    "label",
    "prevalence",
    "n",
    "p_o",
    "p_e",
    "kappa",
    "interpretation",
)
#: ``kappaframe.items``: one row per item, after the ``by`` columns (``item`` is the item
#: key: the long layout's item column, the wide layout's row); then, with ``reference=``,
#: ``ITEM_REFERENCE_COLUMNS``, then, with ``labels``, one column per rater.
ITEM_COLUMNS = (
    "item",
    "n_ratings",
    "n_distinct",
    "consensus",
    "support",
    "tied",
    "p_i",
    "entropy",
)
#: The column of ``ITEM_COLUMNS`` that holds the item key.
ITEM_KEY = "item"
ITEM_REFERENCE_COLUMNS = ("reference_label", "correct")
#: Output columns after the ``by`` columns, in order.
SWEEP_COLUMNS = ("threshold", "n", "tn", "fp", "fn", "tp", "accuracy", "p_e", "kappa", "best")
#: ``kappaframe.against_baseline``: the columns added after a result's own.
BASELINE_COLUMNS = ("baseline", "change", "change_low", "change_high", "state")
#: ``kappaframe.icc``: six rows per group (one per form), after the ``by`` columns; then,
#: with ``ci``, ``ICC_CI_COLUMNS``.
ICC_COLUMNS = (
    "type",
    "description",
    "mcgraw_wong",
    "n_items",
    "n_raters",
    "n_dropped",
    "icc",
    "f",
    "df1",
    "df2",
    "p_value",
)
ICC_CI_COLUMNS = ("ci_low", "ci_high")
#: ``kappaframe.icc`` and ``kappaframe.kendall_w`` with ``missing="available"``: the
#: design of each group, after the other columns (``kendall_w``: ``kq`` for ``k0``).
DESIGN_COLUMNS = ("design", "n_ratings", "ratings_min", "ratings_max", "k0")
KENDALL_DESIGN_COLUMNS = ("design", "n_ratings", "ratings_min", "ratings_max", "kq")
#: ``kappaframe.icc`` with ``trial``: after the ``by`` columns (``rater`` empty on the
#: inter-rater rows), then ``ICC_CI_COLUMNS`` with ``ci``.
ICC_TRIAL_COLUMNS = (
    "kind",
    "rater",
    "type",
    "description",
    "mcgraw_wong",
    "n_items",
    "n_raters",
    "n_trials",
    "n_dropped",
    "icc",
    "f",
    "df1",
    "df2",
    "p_value",
)
#: ``kappaframe.kendall_w``: one row per group, after the ``by`` columns.
KENDALL_COLUMNS = (
    "n_items",
    "n_raters",
    "n_dropped",
    "w",
    "chi2",
    "df",
    "p_value",
    "f",
    "f_df1",
    "f_df2",
    "f_p_value",
)
#: ``kappaframe.Counts.to_frame``: the cells after the group keys.
CELL_COLUMNS = ("rater_a", "rater_b", "label_a", "label_b", "count")
#: ... then each rater's and each label's position: the rater and category order.
CELL_INDEX_COLUMNS = ("rater_a_index", "rater_b_index", "label_a_index", "label_b_index")
#: ``kappaframe.matrix``: the column naming the row's rater (then one column per rater).
MATRIX_KEY = "rater"

Kind = Literal["key", "name", "int", "float", "bool", "flag", "enum", "label"]


@dataclass(frozen=True)
class Column:
    """One output column.

    kind ``"key"``: values are row positions into the input column ``source`` (group keys,
    read back with their native dtype); ``"name"``: rater names (an object array, or,
    when ``categories`` holds the distinct names, int codes into them: much faster to
    render for millions of rows);
    ``"int"`` / ``"float"`` / ``"bool"``: NumPy arrays; ``"flag"``: a boolean that may be
    missing, as int8 codes (-1 missing, 0 False, 1 True): pandas' nullable ``boolean``, a
    polars Boolean with nulls; ``"enum"``: signed integer codes
    (-1 missing; int8 up to 127 bands) into ``categories``, an ordered categorical / polars
    Enum; ``"label"``: category labels.
    """

    name: Hashable
    kind: Kind
    values: np.ndarray
    source: Hashable = None
    categories: Sequence[Any] = ()


@dataclass(frozen=True)
class Table:
    """Columns in output order; ``index`` names the columns pandas makes the index.

    ``mark`` is stored in a pandas result's ``attrs["kappaframe"]`` (e.g. ``{"kind":
    "matrix", "stat": "kappa"}``, ``{"kind": "pairwise"}``): what the notebook display
    reads to show a result as a coloured table.
    """

    columns: list[Column]
    index: list[Hashable] = field(default_factory=list)
    columns_name: Hashable = None
    mark: dict[str, Any] | None = None


def check_names(by: Sequence[Hashable], output: Sequence[Hashable], what: str) -> None:
    """Refuse ``by`` columns named like a column of the output they would join.

    ``output`` is the schema of the function actually called (its columns after the
    ``by`` columns); ``what`` names that output in the message.
    """
    taken = set(output)
    clash = [b for b in by if b in taken]
    if clash:
        raise KappaFrameError(
            f"by column {clash[0]!r} has the name of an output column of {what}() "
            f"({', '.join(map(repr, output[:12]))}{', ...' if len(output) > 12 else ''}); "
            "rename it first."
        )
