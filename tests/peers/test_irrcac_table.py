"""irrCAC's contingency-table functions (``*.table``): frozen values, each with its source.

Every number below is one the Python port's tests assert
(github.com/afergadis/irrCAC, ``test/unit/irrCAC/table/test_*.py``, 3 decimals), for its
two tables: ``cont3x3abstractors`` (100 women, 2 abstractors, 3 pregnancy types) and
``cont4x4diagnosis`` (223 patients, 2 diagnosis methods, 4 disorders). Conventions, and
the options giving irrCAC's numbers:

* the table functions divide the variance by ``n``: ``ddof=0`` (the raw-data functions,
  and kappaframe by default, by ``n - 1``);
* intervals with Student's t, ``n - 1`` degrees of freedom: ``ci_dist="t"``;
* custom weights are agreement weights (1 on the diagonal), some not symmetric:
  ``agreement_weights=`` for the many-rater coefficients, which read the symmetric part;
  Cohen's kappa has an orientation (rows: the first rater) and takes ``weights=1 - A``;
* the two raters' table is read with ``overall(layout="table")`` (Cohen's kappa:
  ``Counts.from_table(...).pairwise()``); text categories are scored 1, ..., K, as irrCAC
  scores them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

PRINTED = 5.01e-4  # three printed decimals

# irrCAC/datasets.py of the Python port (rows: the first rater).
ABSTRACTORS = pd.DataFrame(
    {"Ectopic": [13, 0, 0], "AIU": [0, 20, 4], "NIU": [0, 7, 56]},
    index=["Ectopic", "AIU", "NIU"],
)
DIAGNOSES = ["Schizophrenia", "Bipolar Disorder", "Depression", "Other"]
DIAGNOSIS = pd.DataFrame(
    [[40, 4, 4, 17], [6, 25, 2, 13], [4, 1, 21, 12], [15, 5, 9, 45]],
    index=DIAGNOSES,
    columns=DIAGNOSES,
)
TABLES = {"3x3abstractors": ABSTRACTORS, "4x4diagnosis": DIAGNOSIS}
# The tests' custom agreement weights (not symmetric).
CUSTOM = {
    "4x4diagnosis": np.array(
        [
            [1.00, 0.67, 0.33, 0.00],
            [0.00, 1.00, 0.67, 0.33],
            [0.00, 0.00, 1.00, 0.67],
            [0.33, 0.00, 0.00, 1.00],
        ]
    ),
    "3x3abstractors": np.array([[1.00, 0.50, 0.00], [0.00, 1.00, 0.50], [0.50, 0.00, 1.00]]),
}
# irrCAC's function -> kappaframe's method (unweighted, weighted).
METHOD = {
    "scott": ("fleiss", "fleiss"),
    "gwet": ("gwet_ac1", "gwet_ac2"),
    "brennan_prediger": ("brennan_prediger", "brennan_prediger"),
    "krippendorff": ("krippendorff", "krippendorff"),
    "pa": ("percent", "percent"),
}

# (source test, table, function, weights, value, se, ci_low, ci_high)
PORT_TABLE = [
    (
        "test_cohen.py::test_cohen_cont3x3abstractors",
        "3x3abstractors",
        "cohen",
        None,
        0.796,
        None,
        0.68,
        0.913,
    ),
    (
        "test_cohen.py::test_cohen_cont3x3abstractors_bipolar_weights",
        "3x3abstractors",
        "cohen",
        "bipolar",
        0.872,
        None,
        0.791,
        0.953,
    ),
    (
        "test_cohen.py::test_cohen_cont3x3abstractors_circular_weights",
        "3x3abstractors",
        "cohen",
        "circular",
        0.796,
        None,
        0.68,
        0.913,
    ),
    (
        "test_cohen.py::test_cohen_cont3x3abstractors_linear_weights",
        "3x3abstractors",
        "cohen",
        "linear",
        0.843,
        None,
        0.748,
        0.938,
    ),
    (
        "test_cohen.py::test_cohen_cont3x3abstractors_ordinal_weights",
        "3x3abstractors",
        "cohen",
        "ordinal",
        0.872,
        None,
        0.791,
        0.953,
    ),
    (
        "test_cohen.py::test_cohen_cont3x3abstractors_quadratic_weights",
        "3x3abstractors",
        "cohen",
        "quadratic",
        0.892,
        None,
        0.822,
        0.962,
    ),
    (
        "test_cohen.py::test_cohen_cont3x3abstractors_radical_weights",
        "3x3abstractors",
        "cohen",
        "radical",
        0.819,
        None,
        0.712,
        0.925,
    ),
    (
        "test_cohen.py::test_cohen_cont3x3abstractors_ratio_weights",
        "3x3abstractors",
        "cohen",
        "ratio",
        0.927,
        None,
        0.876,
        0.977,
    ),
    (
        "test_cohen.py::test_cohen_cont4x4diagnosis",
        "4x4diagnosis",
        "cohen",
        None,
        0.432,
        0.046,
        0.341,
        0.522,
    ),
    (
        "test_cohen.py::test_cohen_cont4x4diagnosis_bipolar_weights",
        "4x4diagnosis",
        "cohen",
        "bipolar",
        0.387,
        0.061,
        0.267,
        0.507,
    ),
    (
        "test_cohen.py::test_cohen_cont4x4diagnosis_circular_weights",
        "4x4diagnosis",
        "cohen",
        "circular",
        0.446,
        0.049,
        0.35,
        0.542,
    ),
    (
        "test_cohen.py::test_cohen_cont4x4diagnosis_linear_weights",
        "4x4diagnosis",
        "cohen",
        "linear",
        0.407,
        0.053,
        0.302,
        0.512,
    ),
    (
        "test_cohen.py::test_cohen_cont4x4diagnosis_ordinal_weights",
        "4x4diagnosis",
        "cohen",
        "ordinal",
        0.39,
        0.062,
        0.269,
        0.512,
    ),
    (
        "test_cohen.py::test_cohen_cont4x4diagnosis_quadratic_weights",
        "4x4diagnosis",
        "cohen",
        "quadratic",
        0.383,
        0.066,
        0.254,
        0.513,
    ),
    (
        "test_cohen.py::test_cohen_cont4x4diagnosis_radical_weights",
        "4x4diagnosis",
        "cohen",
        "radical",
        0.419,
        0.048,
        0.324,
        0.515,
    ),
    (
        "test_cohen.py::test_cohen_cont4x4diagnosis_ratio_weights",
        "4x4diagnosis",
        "cohen",
        "ratio",
        0.413,
        0.063,
        0.288,
        0.538,
    ),
    (
        "test_cohen.py::test_cohen_cont4x4diagnosis_custom_weights",
        "4x4diagnosis",
        "cohen",
        "custom",
        0.439,
        0.05,
        0.34,
        0.538,
    ),
    (
        "test_scott.py::test_scott_cont3x3abstractors",
        "3x3abstractors",
        "scott",
        None,
        0.796,
        0.059,
        0.679,
        0.913,
    ),
    (
        "test_scott.py::test_scott_cont3x3abstractors_bipolar_weights",
        "3x3abstractors",
        "scott",
        "bipolar",
        0.872,
        0.041,
        0.791,
        0.953,
    ),
    (
        "test_scott.py::test_scott_cont3x3abstractors_circular_weights",
        "3x3abstractors",
        "scott",
        "circular",
        0.796,
        0.059,
        0.679,
        0.913,
    ),
    (
        "test_scott.py::test_scott_cont3x3abstractors_linear_weights",
        "3x3abstractors",
        "scott",
        "linear",
        0.843,
        0.048,
        0.748,
        0.938,
    ),
    (
        "test_scott.py::test_scott_cont3x3abstractors_ordinal_weights",
        "3x3abstractors",
        "scott",
        "ordinal",
        0.872,
        0.041,
        0.791,
        0.953,
    ),
    (
        "test_scott.py::test_scott_cont3x3abstractors_quadratic_weights",
        "3x3abstractors",
        "scott",
        "quadratic",
        0.892,
        0.035,
        0.822,
        0.962,
    ),
    (
        "test_scott.py::test_scott_cont3x3abstractors_radical_weights",
        "3x3abstractors",
        "scott",
        "radical",
        0.819,
        0.054,
        0.712,
        0.925,
    ),
    (
        "test_scott.py::test_scott_cont3x3abstractors_ratio_weights",
        "3x3abstractors",
        "scott",
        "ratio",
        0.927,
        0.025,
        0.876,
        0.977,
    ),
    (
        "test_scott.py::test_scott_cont4x4diagnosis",
        "4x4diagnosis",
        "scott",
        None,
        0.43,
        0.046,
        0.339,
        0.521,
    ),
    (
        "test_scott.py::test_scott_cont4x4diagnosis_bipolar_weights",
        "4x4diagnosis",
        "scott",
        "bipolar",
        0.386,
        0.061,
        0.265,
        0.506,
    ),
    (
        "test_scott.py::test_scott_cont4x4diagnosis_circular_weights",
        "4x4diagnosis",
        "scott",
        "circular",
        0.444,
        0.049,
        0.347,
        0.541,
    ),
    (
        "test_scott.py::test_scott_cont4x4diagnosis_linear_weights",
        "4x4diagnosis",
        "scott",
        "linear",
        0.406,
        0.054,
        0.3,
        0.511,
    ),
    (
        "test_scott.py::test_scott_cont4x4diagnosis_ordinal_weights",
        "4x4diagnosis",
        "scott",
        "ordinal",
        0.389,
        0.062,
        0.267,
        0.511,
    ),
    (
        "test_scott.py::test_scott_cont4x4diagnosis_quadratic_weights",
        "4x4diagnosis",
        "scott",
        "quadratic",
        0.382,
        0.066,
        0.252,
        0.512,
    ),
    (
        "test_scott.py::test_scott_cont4x4diagnosis_radical_weights",
        "4x4diagnosis",
        "scott",
        "radical",
        0.418,
        0.049,
        0.322,
        0.514,
    ),
    (
        "test_scott.py::test_scott_cont4x4diagnosis_ratio_weights",
        "4x4diagnosis",
        "scott",
        "ratio",
        0.412,
        0.063,
        0.287,
        0.538,
    ),
    (
        "test_scott.py::test_scott_cont4x4diagnosis_custom_weights",
        "4x4diagnosis",
        "scott",
        "custom",
        0.441,
        0.05,
        0.342,
        0.539,
    ),
    (
        "test_gwet.py::test_gwet_cont3x3abstractors",
        "3x3abstractors",
        "gwet",
        None,
        0.849,
        None,
        0.764,
        0.935,
    ),
    (
        "test_gwet.py::test_gwet_cont3x3abstractors_bipolar_weights",
        "3x3abstractors",
        "gwet",
        "bipolar",
        0.925,
        None,
        0.881,
        0.969,
    ),
    (
        "test_gwet.py::test_gwet_cont3x3abstractors_circular_weights",
        "3x3abstractors",
        "gwet",
        "circular",
        0.849,
        None,
        0.764,
        0.935,
    ),
    (
        "test_gwet.py::test_gwet_cont3x3abstractors_linear_weights",
        "3x3abstractors",
        "gwet",
        "linear",
        0.9,
        None,
        0.842,
        0.958,
    ),
    (
        "test_gwet.py::test_gwet_cont3x3abstractors_ordinal_weights",
        "3x3abstractors",
        "gwet",
        "ordinal",
        0.925,
        None,
        0.881,
        0.969,
    ),
    (
        "test_gwet.py::test_gwet_cont3x3abstractors_quadratic_weights",
        "3x3abstractors",
        "gwet",
        "quadratic",
        0.94,
        None,
        0.905,
        0.976,
    ),
    (
        "test_gwet.py::test_gwet_cont3x3abstractors_radical_weights",
        "3x3abstractors",
        "gwet",
        "radical",
        0.875,
        None,
        0.804,
        0.947,
    ),
    (
        "test_gwet.py::test_gwet_cont3x3abstractors_ratio_weights",
        "3x3abstractors",
        "gwet",
        "ratio",
        0.963,
        None,
        0.942,
        0.985,
    ),
    (
        "test_gwet.py::test_gwet_cont4x4diagnosis",
        "4x4diagnosis",
        "gwet",
        None,
        0.456,
        0.043,
        0.371,
        0.542,
    ),
    (
        "test_gwet.py::test_gwet_cont4x4diagnosis_bipolar_weights",
        "4x4diagnosis",
        "gwet",
        "bipolar",
        0.315,
        0.068,
        0.181,
        0.45,
    ),
    (
        "test_gwet.py::test_gwet_cont4x4diagnosis_circular_weights",
        "4x4diagnosis",
        "gwet",
        "circular",
        0.488,
        0.045,
        0.399,
        0.578,
    ),
    (
        "test_gwet.py::test_gwet_cont4x4diagnosis_linear_weights",
        "4x4diagnosis",
        "gwet",
        "linear",
        0.377,
        0.056,
        0.267,
        0.488,
    ),
    (
        "test_gwet.py::test_gwet_cont4x4diagnosis_ordinal_weights",
        "4x4diagnosis",
        "gwet",
        "ordinal",
        0.324,
        0.069,
        0.189,
        0.459,
    ),
    (
        "test_gwet.py::test_gwet_cont4x4diagnosis_quadratic_weights",
        "4x4diagnosis",
        "gwet",
        "quadratic",
        0.299,
        0.075,
        0.15,
        0.447,
    ),
    (
        "test_gwet.py::test_gwet_cont4x4diagnosis_radical_weights",
        "4x4diagnosis",
        "gwet",
        "radical",
        0.418,
        0.048,
        0.323,
        0.513,
    ),
    (
        "test_gwet.py::test_gwet_cont4x4diagnosis_ratio_weights",
        "4x4diagnosis",
        "gwet",
        "ratio",
        0.359,
        0.07,
        0.221,
        0.496,
    ),
    (
        "test_gwet.py::test_gwet_cont4x4diagnosis_custom_weights",
        "4x4diagnosis",
        "gwet",
        "custom",
        0.461,
        0.047,
        0.369,
        0.554,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont3x3abstractors",
        "3x3abstractors",
        "brennan_prediger",
        None,
        0.835,
        None,
        0.742,
        0.928,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont3x3abstractors_bipolar_weights",
        "3x3abstractors",
        "brennan_prediger",
        "bipolar",
        0.901,
        None,
        0.845,
        0.957,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont3x3abstractors_circular_weights",
        "3x3abstractors",
        "brennan_prediger",
        "circular",
        0.835,
        None,
        0.742,
        0.928,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont3x3abstractors_linear_weights",
        "3x3abstractors",
        "brennan_prediger",
        "linear",
        0.876,
        None,
        0.806,
        0.946,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont3x3abstractors_ordinal_weights",
        "3x3abstractors",
        "brennan_prediger",
        "ordinal",
        0.901,
        None,
        0.845,
        0.957,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont3x3abstractors_quadratic_weights",
        "3x3abstractors",
        "brennan_prediger",
        "quadratic",
        0.918,
        None,
        0.871,
        0.964,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont3x3abstractors_radical_weights",
        "3x3abstractors",
        "brennan_prediger",
        "radical",
        0.855,
        None,
        0.773,
        0.937,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont3x3abstractors_ratio_weights",
        "3x3abstractors",
        "brennan_prediger",
        "ratio",
        0.951,
        None,
        0.923,
        0.978,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont4x4diagnosis",
        "4x4diagnosis",
        "brennan_prediger",
        None,
        0.45,
        0.044,
        0.363,
        0.537,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont4x4diagnosis_bipolar_weights",
        "4x4diagnosis",
        "brennan_prediger",
        "bipolar",
        0.264,
        0.075,
        0.115,
        0.412,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont4x4diagnosis_circular_weights",
        "4x4diagnosis",
        "brennan_prediger",
        "circular",
        0.471,
        0.047,
        0.379,
        0.563,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont4x4diagnosis_linear_weights",
        "4x4diagnosis",
        "brennan_prediger",
        "linear",
        0.347,
        0.06,
        0.229,
        0.465,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont4x4diagnosis_ordinal_weights",
        "4x4diagnosis",
        "brennan_prediger",
        "ordinal",
        0.273,
        0.076,
        0.123,
        0.422,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont4x4diagnosis_quadratic_weights",
        "4x4diagnosis",
        "brennan_prediger",
        "quadratic",
        0.236,
        0.085,
        0.069,
        0.403,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont4x4diagnosis_radical_weights",
        "4x4diagnosis",
        "brennan_prediger",
        "radical",
        0.401,
        0.05,
        0.303,
        0.5,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont4x4diagnosis_ratio_weights",
        "4x4diagnosis",
        "brennan_prediger",
        "ratio",
        0.31,
        0.077,
        0.158,
        0.462,
    ),
    (
        "test_brennan_prediger.py::test_bp_cont4x4diagnosis_custom_weights",
        "4x4diagnosis",
        "brennan_prediger",
        "custom",
        0.447,
        0.048,
        0.352,
        0.542,
    ),
    (
        "test_krippendorff.py::test_krippendorff_cont3x3abstractors",
        "3x3abstractors",
        "krippendorff",
        None,
        0.797,
        None,
        0.68,
        0.914,
    ),
    (
        "test_krippendorff.py::test_krippendorff_cont3x3abstractors_bipolar_weights",
        "3x3abstractors",
        "krippendorff",
        "bipolar",
        0.873,
        None,
        0.792,
        0.953,
    ),
    (
        "test_krippendorff.py::test_krippendorff_cont3x3abstractors_circular_weights",
        "3x3abstractors",
        "krippendorff",
        "circular",
        0.797,
        None,
        0.68,
        0.914,
    ),
    (
        "test_krippendorff.py::test_krippendorff_cont3x3abstractors_linear_weights",
        "3x3abstractors",
        "krippendorff",
        "linear",
        0.844,
        None,
        0.748,
        0.939,
    ),
    (
        "test_krippendorff.py::test_krippendorff_cont3x3abstractors_ordinal_weights",
        "3x3abstractors",
        "krippendorff",
        "ordinal",
        0.873,
        None,
        0.792,
        0.953,
    ),
    (
        "test_krippendorff.py::test_krippendorff_cont3x3abstractors_quadratic_weights",
        "3x3abstractors",
        "krippendorff",
        "quadratic",
        0.893,
        None,
        0.822,
        0.963,
    ),
    (
        "test_krippendorff.py::test_krippendorff_cont3x3abstractors_radical_weights",
        "3x3abstractors",
        "krippendorff",
        "radical",
        0.819,
        None,
        0.713,
        0.926,
    ),
    (
        "test_krippendorff.py::test_krippendorff_cont3x3abstractors_ratio_weights",
        "3x3abstractors",
        "krippendorff",
        "ratio",
        0.927,
        None,
        0.877,
        0.977,
    ),
    (
        "test_krippendorff.py::test_krippendorff_cont4x4diagnosis_custom_weights",
        "3x3abstractors",
        "krippendorff",
        "custom",
        0.816,
        0.057,
        0.703,
        0.928,
    ),
    (
        "test_pa.py::test_pa2_cont3x3abstractors",
        "3x3abstractors",
        "pa",
        None,
        0.89,
        0.031,
        0.828,
        0.952,
    ),
    (
        "test_pa.py::test_pa2_cont3x3abstractors_bipolar_weights",
        "3x3abstractors",
        "pa",
        "bipolar",
        0.963,
        0.01,
        0.943,
        0.984,
    ),
    (
        "test_pa.py::test_pa2_cont3x3abstractors_circular_weights",
        "3x3abstractors",
        "pa",
        "circular",
        0.89,
        0.031,
        0.828,
        0.952,
    ),
    (
        "test_pa.py::test_pa2_cont3x3abstractors_linear_weights",
        "3x3abstractors",
        "pa",
        "linear",
        0.945,
        None,
        0.914,
        0.976,
    ),
    (
        "test_pa.py::test_pa2_cont3x3abstractors_ordinal_weights",
        "3x3abstractors",
        "pa",
        "ordinal",
        0.963,
        0.01,
        0.943,
        0.984,
    ),
    (
        "test_pa.py::test_pa2_cont3x3abstractors_quadratic_weights",
        "3x3abstractors",
        "pa",
        "quadratic",
        0.972,
        0.008,
        0.957,
        0.988,
    ),
    (
        "test_pa.py::test_pa2_cont3x3abstractors_radical_weights",
        "3x3abstractors",
        "pa",
        "radical",
        0.922,
        0.022,
        0.878,
        0.966,
    ),
    (
        "test_pa.py::test_pa2_cont3x3abstractors_ratio_weights",
        "3x3abstractors",
        "pa",
        "ratio",
        0.982,
        0.005,
        0.972,
        0.992,
    ),
    (
        "test_pa.py::test_pa2_cont4x4diagnosis",
        "4x4diagnosis",
        "pa",
        None,
        0.587,
        0.033,
        0.522,
        0.652,
    ),
    (
        "test_pa.py::test_pa2_cont4x4diagnosis_bipolar_weights",
        "4x4diagnosis",
        "pa",
        "bipolar",
        0.769,
        0.024,
        0.722,
        0.816,
    ),
    (
        "test_pa.py::test_pa2_cont4x4diagnosis_circular_weights",
        "4x4diagnosis",
        "pa",
        "circular",
        0.735,
        0.023,
        0.69,
        0.781,
    ),
    (
        "test_pa.py::test_pa2_cont4x4diagnosis_linear_weights",
        "4x4diagnosis",
        "pa",
        "linear",
        0.728,
        0.025,
        0.679,
        0.777,
    ),
    (
        "test_pa.py::test_pa2_cont4x4diagnosis_ordinal_weights",
        "4x4diagnosis",
        "pa",
        "ordinal",
        0.773,
        0.024,
        0.726,
        0.82,
    ),
    (
        "test_pa.py::test_pa2_cont4x4diagnosis_quadratic_weights",
        "4x4diagnosis",
        "pa",
        "quadratic",
        0.788,
        0.024,
        0.741,
        0.834,
    ),
    (
        "test_pa.py::test_pa2_cont4x4diagnosis_radical_weights",
        "4x4diagnosis",
        "pa",
        "radical",
        0.673,
        0.027,
        0.62,
        0.727,
    ),
    (
        "test_pa.py::test_pa2_cont4x4diagnosis_ratio_weights",
        "4x4diagnosis",
        "pa",
        "ratio",
        0.786,
        0.024,
        0.739,
        0.833,
    ),
    (
        "test_pa.py::test_pa2_cont4x4diagnosis_custom_weights",
        "4x4diagnosis",
        "pa",
        "custom",
        0.689,
        0.027,
        0.635,
        0.742,
    ),
]


def _result(table: str, function: str, weights: str | None) -> dict[str, float]:
    data = TABLES[table]
    custom = CUSTOM[table] if weights == "custom" else None
    if function == "cohen":
        w = None if weights is None else (1.0 - custom if custom is not None else weights)
        res = kf.Counts.from_table(data).pairwise(weights=w, ci=0.95, ci_dist="t")
        got = res.iloc[0]
        return {
            "value": got["kappa"],
            "se": got["se"],
            "low": got["ci_low"],
            "high": got["ci_high"],
        }
    method = METHOD[function][weights is not None]
    named = weights if custom is None else None
    res = kf.overall(
        data,
        layout="table",
        method=method,
        weights=named,
        agreement_weights=custom,
        ddof=0,
        ci=0.95,
        ci_dist="t",
    )
    got = res.iloc[0]
    return {"value": got["value"], "se": got["se"], "low": got["ci_low"], "high": got["ci_high"]}


@pytest.mark.parametrize(
    ("source", "table", "function", "weights", "value", "se", "low", "high"),
    PORT_TABLE,
    ids=[p[0].split("::")[1] for p in PORT_TABLE],
)
def test_python_port_table_values(
    source: str,
    table: str,
    function: str,
    weights: str | None,
    value: float,
    se: float | None,
    low: float,
    high: float,
) -> None:
    if weights == "custom" and function != "cohen":
        # The table functions read asymmetric weights with the table's orientation; the
        # many-rater coefficients treat raters alike, so a table refuses them (with why).
        with pytest.raises(kf.KappaFrameError, match="two-rater table has an order"):
            _result(table, function, weights)
        return
    got = _result(table, function, weights)
    if weights == "custom":
        # Cohen's kappa has the orientation; its standard error is Fleiss, Cohen &
        # Everitt's, which for weights that are not symmetric is not irrCAC's
        # linearization (0.0495 here, irrCAC 0.050).
        assert got["value"] == pytest.approx(value, abs=PRINTED)
        assert got["se"] == pytest.approx(se, abs=1e-3)
        return
    assert got["value"] == pytest.approx(value, abs=PRINTED)
    if se is not None:
        assert got["se"] == pytest.approx(se, abs=PRINTED)
    assert got["low"] == pytest.approx(low, abs=PRINTED)
    assert got["high"] == pytest.approx(high, abs=PRINTED)


# R irrCAC README.md, "Computing agreement coefficients from contingency tables":
# *.table(cont3x3abstractors): coeff.val and coeff.se (7 significant digits), conf.int (3).
R_TABLE = pd.DataFrame(
    [[13, 0, 0], [0, 20, 7], [0, 4, 56]],
    index=["Ectopic", "AIU", "NIU"],
    columns=["Ectopic", "AIU", "NIU"],
)
README_TABLE = [
    ("kappa2.table", "conger", 0.7964094, 0.05891072, 0.68, 0.913),
    ("scott2.table", "fleiss", 0.7962397, 0.05905473, 0.679, 0.913),
    ("gwet.ac1.table", "gwet_ac1", 0.8493305, 0.04321747, 0.764, 0.935),
    ("bp2.table", "brennan_prediger", 0.835, 0.04693346, 0.742, 0.928),
    ("krippen2.table", "krippendorff", 0.7972585, 0.05905473, 0.68, 0.914),
    ("pa2.table", "percent", 0.89, 0.03128898, 0.828, 0.952),
]


@pytest.mark.parametrize(
    ("function", "method", "value", "se", "low", "high"),
    README_TABLE,
    ids=[r[0] for r in README_TABLE],
)
def test_r_readme_table_values(
    function: str, method: str, value: float, se: float, low: float, high: float
) -> None:
    res = kf.overall(R_TABLE, layout="table", method=method, ci=0.95, ci_dist="t", ddof=0)
    got = res.iloc[0]
    assert got["value"] == pytest.approx(value, abs=5e-8)
    assert got["se"] == pytest.approx(se, abs=5e-9)
    assert (round(got["ci_low"], 3), round(got["ci_high"], 3)) == (low, high)


def test_ddof_zero_is_the_raw_variance_times_n_minus_one_over_n() -> None:
    # The table read as ratings: the same numbers as the 100 ratings themselves.
    n = int(R_TABLE.to_numpy().sum())
    methods: Any = ["fleiss", "conger", "gwet_ac1", "brennan_prediger", "krippendorff", "percent"]
    table = kf.overall(R_TABLE, layout="table", method=methods, ci=0.95)
    rows, cols = np.nonzero(R_TABLE.to_numpy())
    cells = R_TABLE.to_numpy()[rows, cols]
    labels = np.array(R_TABLE.index)
    ratings = pd.DataFrame(
        {"first": np.repeat(labels[rows], cells), "second": np.repeat(labels[cols], cells)}
    )
    raw = kf.overall(ratings, method=methods, ci=0.95, categories=list(labels))
    np.testing.assert_allclose(table["value"], raw["value"], rtol=1e-14)
    np.testing.assert_allclose(table["se"], raw["se"], rtol=1e-14)
    by_n = kf.overall(R_TABLE, layout="table", method=methods, ci=0.95, ddof=0)
    np.testing.assert_allclose(by_n["se"], raw["se"] * np.sqrt((n - 1) / n), rtol=1e-12)
