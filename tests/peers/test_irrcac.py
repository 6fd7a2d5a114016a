"""irrCAC (Gwet's R package and its Python port): frozen values, each with its source.

irrCAC is not a test dependency: every number below is the one its tests assert or its
README prints, named next to it. Sources:

* the Python port, github.com/afergadis/irrCAC, ``test/unit/irrCAC/raw/test_*.py``
  (3 decimals; intervals with Student's t, ``n - 1`` degrees of freedom);
* Gwet's R package, github.com/kgwet/irrCAC, ``README.md`` (the printed output of
  ``*.raw(cac.raw4raters)`` and ``*.dist(distrib.6raters)``: 5 or 7 digits, intervals with
  Student's t, one-sided p-values ``1 - pt(value / se, n - 1)``).

Conventions kappaframe follows, and the option giving irrCAC's:

* Intervals: normal by default; irrCAC's with ``ci_dist="t"``.
* p-values: two-sided by default; R irrCAC's with ``alternative="greater"`` and
  ``ci_dist="t"``. For unweighted Fleiss' kappa kappaframe tests with the null standard
  error ``se0`` of Fleiss, Nee & Landis (1979); irrCAC divides by ``se``:
  ``z_from="se"``.
* Krippendorff's alpha standard error: Gwet's irrCAC since 1.2 (his repository, August
  2021) centres each item's term on ``p_a'`` (README: 0.14548 for cac.raw4raters), and
  kappaframe too; CRAN's irrCAC 1.0 and the Python port centre it on ``p_a`` (0.146) and
  take the pairable items' n - 1 degrees of freedom: ``alpha_centre="p_a"``.
* Agreement weights as irrCAC takes them: ``agreement_weights=``.
* Gwet's AC2 and percent agreement take the weights as given (they are not scale-free).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe._stats.inference import t_cdf

NA = None

# irrCAC's example data sets (irrCAC/datasets.py of the Python port; the R package's
# cac.raw4raters, cac.raw5obser, cac.raw.g1g2, cac.raw.gender, cac.ben.gerry).
DATA: dict[str, dict[str, list[Any]]] = {
    "raw_4raters": {
        "Rater1": [1, 2, 3, 3, 2, 1, 4, 1, 2, NA, NA, NA],
        "Rater2": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NA, NA],
        "Rater3": [NA, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
        "Rater4": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NA],
    },
    "raw_5observers": {
        "Observer1": [1, 1, 2, NA, 0, 0, 1, 1, 2, 2, NA, 0, 1, 3, 1],
        "Observer2": [1, 1, 3, 0, 0, 0, 0, NA, 2, 1, 1, 0, 2, 3, 1],
        "Observer3": [2, 0, 3, 0, 0, 0, 2, 2, 2, 1, 0, 0, 2, 2, 1],
        "Observer4": [NA, 1, 3, NA, NA, NA, NA, 0, NA, 1, 0, 0, 2, 2, NA],
        "Observer5": [2, NA, NA, 0, 0, 0, 1, NA, 2, NA, NA, NA, NA, 3, 1],
    },
    "raw_g1g2": {
        "Rater1": ["a", "b", "c", "c", "b", "a", "d", "a", "b", NA, NA, NA, "b", "b"],
        "Rater2": ["a", "b", "c", "c", "b", "b", "d", "a", "b", "e", NA, NA, "b", "a"],
        "Rater3": [NA, "c", "c", "c", "b", "c", "d", "b", "b", "e", "a", "c", "c", "c"],
        "Rater4": ["a", "b", "c", "c", "b", "d", "d", "a", "b", "e", "a", NA, "b", "b"],
    },
    "raw_gender": {
        "Rater1": ["a", "a", "a", "a", "a", "b", "b", "b", "c", "a", "a", "a", "a", "a", "b"],
        "Rater2": ["a", "a", "a", "a", "b", "a", "b", "c", "c", "a", "a", "a", "a", "b", "a"],
        "Rater3": ["a", "b", "b", "c", "a", "a", "b", "b", "c", "a", "b", "b", "c", "a", "a"],
        "Rater4": ["c", "c", "c", "c", "a", "a", "b", "b", "c", "c", "c", "c", "c", "a", "a"],
    },
    "raw_ben_gerry": {
        "Ben": list("aabbdcccedda"),
        "Gerry": [*"babbbccce", NA, "d", "d"],
    },
}


def frame(name: str) -> pd.DataFrame:
    return pd.DataFrame(DATA[name])


def row(res: Any, method: str) -> pd.Series:
    return res[res["method"] == method].iloc[0]


PRINTED = 5.01e-4  # three printed decimals

# (source test, data set, method, weights, p_a, p_e, value, se, ci_low, ci_high): the
# values the Python port's tests assert (test/unit/irrCAC/raw/<file>::<test>).
PORT = [
    (
        "test_gwet.py::test_gwet_raw4raters",
        "raw_4raters",
        "gwet_ac1",
        None,
        0.818,
        0.19,
        0.775,
        0.143,
        0.461,
        1.0,
    ),
    (
        "test_gwet.py::test_gwet_raw4raters_bipolar_weights",
        "raw_4raters",
        "gwet_ac2",
        "bipolar",
        0.968,
        0.682,
        0.9,
        0.106,
        0.667,
        1.0,
    ),
    (
        "test_gwet.py::test_gwet_raw4raters_circular_weights",
        "raw_4raters",
        "gwet_ac2",
        "circular",
        0.902,
        0.426,
        0.83,
        0.133,
        0.538,
        1.0,
    ),
    (
        "test_gwet.py::test_gwet_raw4raters_linear_weights",
        "raw_4raters",
        "gwet_ac2",
        "linear",
        0.939,
        0.571,
        0.859,
        0.117,
        0.6,
        1.0,
    ),
    (
        "test_gwet.py::test_gwet_raw4raters_ordinal_weights",
        "raw_4raters",
        "gwet_ac2",
        "ordinal",
        0.968,
        0.685,
        0.899,
        0.107,
        0.664,
        1.0,
    ),
    (
        "test_gwet.py::test_gwet_raw4raters_quadratic_weights",
        "raw_4raters",
        "gwet_ac2",
        "quadratic",
        0.975,
        0.714,
        0.914,
        0.104,
        0.685,
        1.0,
    ),
    (
        "test_gwet.py::test_gwet_raw4raters_radical_weights",
        "raw_4raters",
        "gwet_ac2",
        "radical",
        0.897,
        0.43,
        0.82,
        0.128,
        0.537,
        1.0,
    ),
    (
        "test_gwet.py::test_gwet_raw4raters_ratio_weights",
        "raw_4raters",
        "gwet_ac2",
        "ratio",
        0.954,
        0.678,
        0.857,
        0.122,
        0.589,
        1.0,
    ),
    (
        "test_gwet.py::test_gwet_raw5observers",
        "raw_5observers",
        "gwet_ac1",
        None,
        0.616,
        0.236,
        0.497,
        0.122,
        0.235,
        0.758,
    ),
    (
        "test_gwet.py::test_gwet_raw_g1g2",
        "raw_g1g2",
        "gwet_ac1",
        None,
        0.744,
        0.187,
        0.685,
        0.134,
        0.396,
        0.973,
    ),
    (
        "test_gwet.py::test_gwet_raw_gender",
        "raw_gender",
        "gwet_ac1",
        None,
        0.456,
        0.312,
        0.208,
        0.091,
        0.014,
        0.403,
    ),
    (
        "test_gwet.py::test_gwet_raw_ben_gerry",
        "raw_ben_gerry",
        "gwet_ac1",
        None,
        0.727,
        0.194,
        0.661,
        0.184,
        0.257,
        1.0,
    ),
    (
        "test_krippendorff.py::test_krippendorff_kappa_raw4raters",
        "raw_4raters",
        "krippendorff",
        None,
        0.805,
        0.24,
        0.743,
        0.146,
        0.419,
        1.0,
    ),
    (
        "test_krippendorff.py::test_krippendorff_kappa_raw4raters_bipolar_weights",
        "raw_4raters",
        "krippendorff",
        "bipolar",
        0.966,
        0.794,
        0.835,
        0.128,
        0.549,
        1.0,
    ),
    (
        "test_krippendorff.py::test_krippendorff_kappa_raw4raters_circular_weights",
        "raw_4raters",
        "krippendorff",
        "circular",
        0.895,
        0.502,
        0.79,
        0.141,
        0.476,
        1.0,
    ),
    (
        "test_krippendorff.py::test_krippendorff_kappa_raw4raters_linear_weights",
        "raw_4raters",
        "krippendorff",
        "linear",
        0.935,
        0.674,
        0.8,
        0.135,
        0.499,
        1.0,
    ),
    (
        "test_krippendorff.py::test_krippendorff_kappa_raw4raters_ordinal_weights",
        "raw_4raters",
        "krippendorff",
        "ordinal",
        0.966,
        0.795,
        0.834,
        0.131,
        0.542,
        1.0,
    ),
    (
        "test_krippendorff.py::test_krippendorff_kappa_raw4raters_quadratic_weights",
        "raw_4raters",
        "krippendorff",
        "quadratic",
        0.974,
        0.825,
        0.849,
        0.129,
        0.561,
        1.0,
    ),
    (
        "test_krippendorff.py::test_krippendorff_kappa_raw4raters_radical_weights",
        "raw_4raters",
        "krippendorff",
        "radical",
        0.89,
        0.517,
        0.772,
        0.14,
        0.461,
        1.0,
    ),
    (
        "test_krippendorff.py::test_krippendorff_kappa_raw4raters_ratio_weights",
        "raw_4raters",
        "krippendorff",
        "ratio",
        0.951,
        0.757,
        0.797,
        0.14,
        0.484,
        1.0,
    ),
    (
        "test_krippendorff.py::test_krippendorff_kappa_raw5observers",
        "raw_5observers",
        "krippendorff",
        None,
        0.627,
        0.282,
        0.481,
        0.114,
        0.237,
        0.724,
    ),
    (
        "test_krippendorff.py::test_krippendorff_kappa_raw_g1g2",
        "raw_g1g2",
        "krippendorff",
        None,
        0.728,
        0.261,
        0.632,
        0.15,
        0.306,
        0.958,
    ),
    (
        "test_krippendorff.py::test_krippendorff_kappa_raw_gender",
        "raw_gender",
        "krippendorff",
        None,
        0.465,
        0.375,
        0.143,
        0.141,
        -0.158,
        0.445,
    ),
    (
        "test_krippendorff.py::test_krippendorff_kappa_raw_ben_gerry",
        "raw_ben_gerry",
        "krippendorff",
        None,
        0.74,
        0.223,
        0.665,
        0.18,
        0.264,
        1.0,
    ),
    (
        "test_fleiss.py::test_fleiss_kappa_raw4raters",
        "raw_4raters",
        "fleiss",
        None,
        0.818,
        0.239,
        0.761,
        None,
        0.424,
        1.0,
    ),
    (
        "test_fleiss.py::test_fleiss_kappa_raw4raters_bipolar_weights",
        "raw_4raters",
        "fleiss",
        "bipolar",
        0.968,
        0.785,
        0.853,
        0.145,
        0.535,
        1.0,
    ),
    (
        "test_fleiss.py::test_fleiss_kappa_raw4raters_circular_weights",
        "raw_4raters",
        "fleiss",
        "circular",
        0.902,
        0.494,
        0.807,
        0.149,
        0.479,
        1.0,
    ),
    (
        "test_fleiss.py::test_fleiss_kappa_raw4raters_linear_weights",
        "raw_4raters",
        "fleiss",
        "linear",
        0.939,
        0.667,
        0.818,
        0.149,
        0.491,
        1.0,
    ),
    (
        "test_fleiss.py::test_fleiss_kappa_raw4raters_ordinal_weights",
        "raw_4raters",
        "fleiss",
        "ordinal",
        0.968,
        0.788,
        0.85,
        0.147,
        0.527,
        1.0,
    ),
    (
        "test_fleiss.py::test_fleiss_kappa_raw4raters_quadratic_weights",
        "raw_4raters",
        "fleiss",
        "quadratic",
        0.975,
        0.818,
        0.865,
        0.146,
        0.544,
        1.0,
    ),
    (
        "test_fleiss.py::test_fleiss_kappa_raw4raters_radical_weights",
        "raw_4raters",
        "fleiss",
        "radical",
        0.897,
        0.511,
        0.79,
        0.15,
        0.46,
        1.0,
    ),
    (
        "test_fleiss.py::test_fleiss_kappa_raw4raters_ratio_weights",
        "raw_4raters",
        "fleiss",
        "ratio",
        0.954,
        0.743,
        0.821,
        0.152,
        0.486,
        1.0,
    ),
    (
        "test_fleiss.py::test_fleiss_kappa_raw5observers",
        "raw_5observers",
        "fleiss",
        None,
        0.616,
        0.291,
        0.458,
        0.12,
        0.199,
        0.716,
    ),
    (
        "test_fleiss.py::test_fleiss_kappa_raw_g1g2",
        "raw_g1g2",
        "fleiss",
        None,
        0.744,
        0.252,
        0.657,
        0.15,
        0.333,
        0.981,
    ),
    (
        "test_fleiss.py::test_fleiss_kappa_raw_gender",
        "raw_gender",
        "fleiss",
        None,
        0.456,
        0.375,
        0.129,
        0.141,
        -0.172,
        0.43,
    ),
    (
        "test_fleiss.py::test_fleiss_kappa_raw_ben_gerry",
        "raw_ben_gerry",
        "fleiss",
        None,
        0.727,
        0.222,
        0.649,
        0.191,
        0.228,
        1.0,
    ),
    (
        "test_bp.py::test_bp_kappa_raw4raters",
        "raw_4raters",
        "brennan_prediger",
        None,
        0.818,
        0.2,
        0.773,
        0.145,
        0.454,
        1.0,
    ),
    (
        "test_bp.py::test_bp_kappa_raw4raters_bipolar_weights",
        "raw_4raters",
        "brennan_prediger",
        "bipolar",
        0.968,
        0.717,
        0.888,
        0.112,
        0.641,
        1.0,
    ),
    (
        "test_bp.py::test_bp_kappa_raw4raters_circular_weights",
        "raw_4raters",
        "brennan_prediger",
        "circular",
        0.902,
        0.447,
        0.824,
        0.137,
        0.522,
        1.0,
    ),
    (
        "test_bp.py::test_bp_kappa_raw4raters_linear_weights",
        "raw_4raters",
        "brennan_prediger",
        "linear",
        0.939,
        0.6,
        0.848,
        0.123,
        0.577,
        1.0,
    ),
    (
        "test_bp.py::test_bp_kappa_raw4raters_ordinal_weights",
        "raw_4raters",
        "brennan_prediger",
        "ordinal",
        0.968,
        0.72,
        0.886,
        0.114,
        0.636,
        1.0,
    ),
    (
        "test_bp.py::test_bp_kappa_raw4raters_quadratic_weights",
        "raw_4raters",
        "brennan_prediger",
        "quadratic",
        0.975,
        0.75,
        0.902,
        0.111,
        0.657,
        1.0,
    ),
    (
        "test_bp.py::test_bp_kappa_raw4raters_radical_weights",
        "raw_4raters",
        "brennan_prediger",
        "radical",
        0.897,
        0.452,
        0.813,
        0.133,
        0.52,
        1.0,
    ),
    (
        "test_bp.py::test_bp_kappa_raw4raters_ratio_weights",
        "raw_4raters",
        "brennan_prediger",
        "ratio",
        0.954,
        0.713,
        0.84,
        0.132,
        0.549,
        1.0,
    ),
    (
        "test_bp.py::test_bp_kappa_raw5observers",
        "raw_5observers",
        "brennan_prediger",
        None,
        0.616,
        0.25,
        0.487,
        0.121,
        0.228,
        0.747,
    ),
    (
        "test_bp.py::test_bp_kappa_raw_g1g2",
        "raw_g1g2",
        "brennan_prediger",
        None,
        0.744,
        0.2,
        0.679,
        0.136,
        0.385,
        0.974,
    ),
    (
        "test_bp.py::test_bp_kappa_raw_gender",
        "raw_gender",
        "brennan_prediger",
        None,
        0.456,
        0.333,
        0.183,
        0.102,
        -0.035,
        0.402,
    ),
    (
        "test_bp.py::test_bp_kappa_raw_ben_gerry",
        "raw_ben_gerry",
        "brennan_prediger",
        None,
        0.727,
        0.2,
        0.659,
        0.185,
        0.251,
        1.0,
    ),
    (
        "test_conger.py::test_conger_kappa_raw4raters",
        "raw_4raters",
        "conger",
        None,
        0.818,
        0.233,
        0.763,
        None,
        0.435,
        1.0,
    ),
    (
        "test_conger.py::test_conger_kappa_raw4raters_bipolar_weights",
        "raw_4raters",
        "conger",
        "bipolar",
        0.968,
        0.796,
        0.845,
        0.142,
        0.532,
        1.0,
    ),
    (
        "test_conger.py::test_conger_kappa_raw4raters_circular_weights",
        "raw_4raters",
        "conger",
        "circular",
        0.902,
        0.499,
        0.805,
        0.147,
        0.481,
        1.0,
    ),
    (
        "test_conger.py::test_conger_kappa_raw4raters_linear_weights",
        "raw_4raters",
        "conger",
        "linear",
        0.939,
        0.675,
        0.814,
        0.145,
        0.494,
        1.0,
    ),
    (
        "test_conger.py::test_conger_kappa_raw4raters_ordinal_weights",
        "raw_4raters",
        "conger",
        "ordinal",
        0.968,
        0.796,
        0.844,
        0.144,
        0.526,
        1.0,
    ),
    (
        "test_conger.py::test_conger_kappa_raw4raters_quadratic_weights",
        "raw_4raters",
        "conger",
        "quadratic",
        0.975,
        0.827,
        0.858,
        0.144,
        0.541,
        1.0,
    ),
    (
        "test_conger.py::test_conger_kappa_raw4raters_radical_weights",
        "raw_4raters",
        "conger",
        "radical",
        0.897,
        0.515,
        0.788,
        0.146,
        0.466,
        1.0,
    ),
    (
        "test_conger.py::test_conger_kappa_raw4raters_ratio_weights",
        "raw_4raters",
        "conger",
        "ratio",
        0.954,
        0.756,
        0.812,
        0.149,
        0.485,
        1.0,
    ),
    (
        "test_conger.py::test_conger_kappa_raw5observers",
        "raw_5observers",
        "conger",
        None,
        0.616,
        0.276,
        0.469,
        0.117,
        0.219,
        0.719,
    ),
    (
        "test_conger.py::test_conger_kappa_raw_g1g2",
        "raw_g1g2",
        "conger",
        None,
        0.744,
        0.249,
        0.659,
        0.146,
        0.343,
        0.974,
    ),
    (
        "test_conger.py::test_conger_kappa_raw_gender",
        "raw_gender",
        "conger",
        None,
        0.456,
        0.347,
        0.166,
        0.121,
        -0.094,
        0.426,
    ),
    (
        "test_conger.py::test_conger_kappa_raw_ben_gerry",
        "raw_ben_gerry",
        "conger",
        None,
        0.727,
        0.205,
        0.657,
        0.179,
        0.262,
        1.0,
    ),
]


@pytest.mark.parametrize(
    ("source", "data", "method", "weights", "p_a", "p_e", "value", "se", "low", "high"),
    PORT,
    ids=[p[0].split("::")[1] for p in PORT],
)
def test_python_port_raw_values(
    source: str,
    data: str,
    method: str,
    weights: str | None,
    p_a: float,
    p_e: float,
    value: float,
    se: float | None,
    low: float,
    high: float,
) -> None:
    # The port centres Krippendorff's item terms on p_a, as CRAN's irrCAC 1.0 does (and
    # takes the pairable items' n - 1 degrees of freedom): alpha_centre="p_a".
    centre = "p_a" if method == "krippendorff" else "p_a_prime"
    res = kf.overall(
        frame(data), method=method, weights=weights, ci=0.95, ci_dist="t", alpha_centre=centre
    )
    got = row(res, method)
    assert got["value"] == pytest.approx(value, abs=PRINTED)
    assert got["p_o"] == pytest.approx(p_a, abs=PRINTED)
    assert got["p_e"] == pytest.approx(p_e, abs=PRINTED)
    if se is not None:
        assert got["se"] == pytest.approx(se, abs=PRINTED)
    assert got["ci_low"] == pytest.approx(low, abs=PRINTED)
    assert got["ci_high"] == pytest.approx(high, abs=PRINTED)


# R irrCAC README.md, "Computing agreement coefficients from raw ratings":
# coeff.val, coeff.se (5 decimals), conf.int (3), p.value (7 significant digits).
README_RAW = [
    ("pa.coeff.raw", "percent", 0.81818, 0.12561, 0.542, 1.0, 2.172686e-05),
    ("gwet.ac1.raw", "gwet_ac1", 0.77544, 0.14295, 0.461, 1.0, 0.0001043605),
    ("fleiss.kappa.raw", "fleiss", 0.76117, 0.15302, 0.424, 1.0, 0.0002095865),
    ("krippen.alpha.raw", "krippendorff", 0.74342, 0.14548, 0.423, 1.0, 0.0001693123),
    ("conger.kappa.raw", "conger", 0.76282, 0.14917, 0.435, 1.0, 0.0001683533),
    ("bp.coeff.raw", "brennan_prediger", 0.77273, 0.14472, 0.454, 1.0, 0.0001187804),
]


@pytest.mark.parametrize(
    ("function", "method", "value", "se", "low", "high", "p_value"),
    README_RAW,
    ids=[r[0] for r in README_RAW],
)
def test_r_readme_raw_four_raters(
    function: str,
    method: str,
    value: float,
    se: float,
    low: float,
    high: float,
    p_value: float,
) -> None:
    # irrCAC's z divides by se (z_from="se"); by default kappaframe's unweighted Fleiss
    # z divides by the Fleiss-Nee-Landis null se0.
    res = kf.overall(
        frame("raw_4raters"),
        method=method,
        ci=0.95,
        ci_dist="t",
        alternative="greater",
        z_from="se",
    )
    got = row(res, method)
    assert got["value"] == pytest.approx(value, abs=5.01e-6)
    assert got["se"] == pytest.approx(se, abs=5.01e-6)
    assert got["ci_low"] == pytest.approx(low, abs=PRINTED)
    assert got["ci_high"] == pytest.approx(high, abs=PRINTED)
    assert got["p_value"] == pytest.approx(p_value, rel=1e-6)
    default = row(
        kf.overall(
            frame("raw_4raters"), method=method, ci=0.95, ci_dist="t", alternative="greater"
        ),
        method,
    )
    if method == "fleiss":
        assert got["se0"] != pytest.approx(got["se"])
        assert default["p_value"] != pytest.approx(p_value, rel=1e-3)
        irrcac_p = 1.0 - t_cdf(np.array(got["value"] / got["se"]), np.array(11.0))
        assert float(irrcac_p) == pytest.approx(p_value, rel=1e-6)
    else:
        assert got["se0"] == got["se"]
        assert default["p_value"] == got["p_value"]


# R irrCAC README.md, "Computing agreement coefficients from the distribution of raters
# by subject and category": *.dist(distrib.6raters).
DISTRIB_6RATERS = {
    "Depression": [0, 0, 0, 0, 0, 2, 0, 2, 2, 0, 1, 1, 0, 1, 0],
    "Personality Disorder": [0, 3, 1, 0, 3, 0, 0, 0, 0, 0, 0, 1, 3, 0, 2],
    "Schizophrenia": [0, 0, 4, 0, 0, 4, 4, 3, 0, 0, 0, 0, 3, 0, 0],
    "Neurosis": [6, 0, 0, 0, 3, 0, 0, 1, 4, 0, 5, 4, 0, 5, 3],
    "Other": [0, 3, 1, 6, 0, 0, 2, 0, 0, 6, 0, 0, 0, 0, 1],
}
README_DIST = [
    ("gwet.ac1.dist", "gwet_ac1", 0.4448007, 0.08418757, 0.264, 0.625, 5.779637e-05, 0.1914815),
    ("fleiss.kappa.dist", "fleiss", 0.4139265, 0.08119291, 0.24, 0.588, 8.113618e-05, 0.2340741),
    ("bp.coeff.dist", "brennan_prediger", 0.4388889, 0.08312142, 0.261, 0.617, 5.814998e-05, 0.2),
]


@pytest.mark.parametrize(
    ("function", "method", "value", "se", "low", "high", "p_value", "p_e"),
    README_DIST,
    ids=[r[0] for r in README_DIST],
)
def test_r_readme_distribution_of_raters(
    function: str,
    method: str,
    value: float,
    se: float,
    low: float,
    high: float,
    p_value: float,
    p_e: float,
) -> None:
    table = pd.DataFrame(DISTRIB_6RATERS)
    res = kf.overall(
        table,
        method=method,
        layout="counts",
        ci=0.95,
        ci_dist="t",
        alternative="greater",
        z_from="se",
    )
    got = row(res, method)
    assert got["value"] == pytest.approx(value, abs=5e-8)
    assert got["se"] == pytest.approx(se, abs=5e-9)
    assert got["p_o"] == pytest.approx(0.5511111, abs=5e-8)
    assert got["p_e"] == pytest.approx(p_e, abs=5e-8)
    assert (round(got["ci_low"], 3), round(got["ci_high"], 3)) == (low, high)
    assert got["p_value"] == pytest.approx(p_value, rel=1e-6)


def test_r_readme_krippendorff_alpha_from_counts() -> None:
    # krippen.alpha.dist(distrib.6raters): alpha 0.4204384, p_a 0.5560988, p_e 0.2340741.
    res = kf.overall(pd.DataFrame(DISTRIB_6RATERS), method="krippendorff", layout="counts")
    got = row(res, "krippendorff")
    assert got["value"] == pytest.approx(0.4204384, abs=5e-8)
    assert got["p_o"] == pytest.approx(0.5560988, abs=5e-8)
    assert got["p_e"] == pytest.approx(0.2340741, abs=5e-8)


def test_counts_equal_ratings() -> None:
    # The same coefficients from the ratings and from their item x category counts.
    ratings = frame("raw_g1g2")
    counts = pd.DataFrame({c: (ratings == c).sum(axis=1) for c in "abcde"})
    methods = ["fleiss", "gwet_ac1", "brennan_prediger", "krippendorff", "percent"]
    a = kf.overall(ratings, method=methods, ci=0.95)
    b = kf.overall(counts, method=methods, ci=0.95, layout="counts")
    for col in ["p_o", "p_e", "value", "se", "se0", "p_value"]:
        np.testing.assert_allclose(b[col], a[col], rtol=1e-12, atol=1e-14)


# AC2 with agreement weights A[k, l] = 1 - 0.5 |k - l| / 4 (maximum disagreement 0.5):
# irrCAC's Python port, CAC(raw_4raters, weights=A).gwet() (the same code as
# test_gwet.py::test_gwet_raw4raters_custom_weights, with these symmetric weights):
# p_a 0.9696969697, p_e 0.7612847222, AC2 0.8730578512, se 0.1106399346, CI (0.629541, 1).
def test_ac2_takes_the_weights_as_given() -> None:
    i = np.arange(5)
    disagree = 0.5 * np.abs(i[:, None] - i[None, :]) / 4
    res = kf.overall(
        frame("raw_4raters"), method="gwet_ac2", weights=disagree, ci=0.95, ci_dist="t"
    )
    got = row(res, "gwet_ac2")
    assert got["p_o"] == pytest.approx(0.9696969697, abs=1e-9)
    assert got["p_e"] == pytest.approx(0.7612847222, abs=1e-9)
    assert got["value"] == pytest.approx(0.8730578512, abs=1e-9)
    assert got["se"] == pytest.approx(0.1106399346, abs=1e-9)
    assert got["ci_low"] == pytest.approx(0.629540997, abs=1e-8)
    # Scaled to a maximum of 1 they are linear weights: another coefficient.
    linear = row(kf.overall(frame("raw_4raters"), method="gwet_ac2", weights="linear"), "gwet_ac2")
    assert linear["value"] == pytest.approx(
        0.859, abs=PRINTED
    )  # test_gwet_raw4raters_linear_weights
    # The scale-free coefficients do not change: Brennan-Prediger as the port prints it
    # for these weights (0.8484848485) equals its linear-weights value.
    bp = row(
        kf.overall(frame("raw_4raters"), method="brennan_prediger", weights=disagree),
        "brennan_prediger",
    )
    assert bp["value"] == pytest.approx(0.8484848485, abs=1e-9)


def test_finite_population_correction() -> None:
    # irrCAC's N=: var * (1 - n / N). With N = 2n the se shrinks by sqrt(1/2).
    df = frame("raw_4raters")
    full = row(kf.overall(df, method="gwet_ac1", ci=0.95), "gwet_ac1")
    part = row(kf.overall(df, method="gwet_ac1", ci=0.95, population=24), "gwet_ac1")
    assert part["se"] == pytest.approx(full["se"] * np.sqrt(0.5), rel=1e-12)
    assert part["se0"] == pytest.approx(full["se0"] * np.sqrt(0.5), rel=1e-12)
    with pytest.raises(kf.KappaFrameError, match="population"):
        kf.overall(df, method="gwet_ac1", ci=0.95, population=5)
    with pytest.raises(kf.KappaFrameError, match="ci="):
        kf.overall(df, method="gwet_ac1", population=24)


def test_counts_refusals() -> None:
    table = np.array([[1.5, 0.5], [2.0, 0.0], [0.0, 2.0]])
    with pytest.raises(kf.KappaFrameError, match="fractions"):
        kf.overall(table, method="krippendorff", layout="counts")
    with pytest.raises(kf.KappaFrameError, match="which rater"):
        kf.overall(table, method="conger", layout="counts")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = kf.overall(table, method="fleiss", layout="counts")
    assert np.isfinite(res["value"].iloc[0])


# The Python port's tests with custom agreement weights, not symmetric (a circulant):
# test/unit/irrCAC/raw/test_<f>.py::test_<f>_raw4raters_custom_weights, 3 decimals:
# p_a, p_e, value, se, ci_low, ci_high, p_value (the port's p-values are two-sided with
# Student's t, Brennan-Prediger's one-sided).
CIRCULANT = np.array(
    [
        [1.00, 0.75, 0.50, 0.25, 0.00],
        [0.00, 1.00, 0.75, 0.50, 0.25],
        [0.25, 0.00, 1.00, 0.75, 0.50],
        [0.50, 0.25, 0.00, 1.00, 0.75],
        [0.75, 0.50, 0.25, 0.00, 1.00],
    ]
)
PORT_CUSTOM = [
    ("test_bp.py", "brennan_prediger", 0.886, 0.500, 0.773, 0.145, 0.454, 1.0, 1.2e-04),
    ("test_conger.py", "conger", 0.886, 0.521, 0.763, 0.149, 0.435, 1.0, 3.4e-04),
    ("test_fleiss.py", "fleiss", 0.886, 0.524, 0.761, 0.153, 0.424, 1.0, 4.2e-04),
    ("test_gwet.py", "gwet_ac2", 0.886, 0.476, 0.783, 0.138, 0.479, 1.0, 1.5e-04),
    ("test_krippendorff.py", "krippendorff", 0.878, 0.525, 0.743, 0.146, 0.419, 1.0, 4.6e-04),
]


@pytest.mark.parametrize(
    ("source", "method", "p_a", "p_e", "value", "se", "low", "high", "p_value"),
    PORT_CUSTOM,
    ids=[p[0] for p in PORT_CUSTOM],
)
def test_python_port_agreement_weights(
    source: str,
    method: str,
    p_a: float,
    p_e: float,
    value: float,
    se: float,
    low: float,
    high: float,
    p_value: float,
) -> None:
    res = kf.overall(
        frame("raw_4raters"),
        method=method,
        agreement_weights=CIRCULANT,
        ci=0.95,
        ci_dist="t",
        z_from="se",
        alternative="greater" if method == "brennan_prediger" else "two-sided",
        alpha_centre="p_a" if method == "krippendorff" else "p_a_prime",
    )
    got = row(res, method)
    for key, want in (("p_o", p_a), ("p_e", p_e), ("value", value), ("se", se)):
        assert got[key] == pytest.approx(want, abs=PRINTED), key
    assert got["ci_low"] == pytest.approx(low, abs=PRINTED)
    assert got["ci_high"] == pytest.approx(high, abs=PRINTED)
    assert round(got["p_value"], 5) == pytest.approx(p_value, abs=5e-6)


def test_agreement_weights_are_one_minus_disagreement_weights_on_their_own_scale() -> None:
    # A = 1 - 0.5 D (D linear): p_o and p_e on A's scale, the coefficient as with D.
    i = np.arange(5)
    linear = np.abs(i[:, None] - i[None, :]) / 4
    agree = 1.0 - 0.5 * linear
    methods: Any = ["fleiss", "conger", "krippendorff", "brennan_prediger", "light"]
    a = kf.overall(frame("raw_4raters"), method=methods, agreement_weights=agree, ci=0.95)
    d = kf.overall(frame("raw_4raters"), method=methods, weights="linear", ci=0.95)
    np.testing.assert_allclose(a["value"], d["value"], rtol=1e-12)
    np.testing.assert_allclose(a["se"], d["se"], rtol=1e-10)
    np.testing.assert_allclose(1.0 - a["p_o"], 0.5 * (1.0 - d["p_o"]), rtol=1e-12)
    np.testing.assert_allclose(1.0 - a["p_e"], 0.5 * (1.0 - d["p_e"]), rtol=1e-12)


def test_asymmetric_weights_read_as_their_symmetric_part() -> None:
    # Raters have no order: every coefficient and its standard error is a function of
    # (W + W^T) / 2 alone (irrCAC symmetrizes the same way in its variances, except
    # Conger's, whose standard error there changes with the matrix's orientation).
    rng = np.random.default_rng(7)
    w = rng.uniform(0.1, 0.9, (5, 5))
    np.fill_diagonal(w, 0.0)
    w[0, 4] = w[4, 0] = 1.0  # the same maximum as the symmetric part: the same scale
    methods: Any = ["fleiss", "conger", "krippendorff", "gwet_ac2", "brennan_prediger"]
    methods += ["percent", "light"]
    asym = kf.overall(frame("raw_4raters"), method=methods, weights=w, ci=0.95)
    sym = kf.overall(frame("raw_4raters"), method=methods, weights=(w + w.T) / 2, ci=0.95)
    flipped = kf.overall(frame("raw_4raters"), method=methods, weights=w.T, ci=0.95)
    for col in ("p_o", "p_e", "value", "se"):
        np.testing.assert_allclose(asym[col], sym[col], rtol=1e-12, err_msg=col)
        np.testing.assert_allclose(flipped[col], sym[col], rtol=1e-12, err_msg=col)
