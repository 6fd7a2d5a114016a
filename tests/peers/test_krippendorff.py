"""The ``krippendorff`` package (github.com/pln-fing-udelar/fast-krippendorff): frozen values.

Each value is the one asserted by that repository's ``tests/test_krippendorff.py`` or
``tests/test_circular_bipolar.py``, named next to it. Its ``reliability_data`` is coders x
units: kappaframe's wide layout is its transpose (one row per unit, one column per coder);
its ``value_counts`` is kappaframe's ``layout="counts"``. Its circular and bipolar metrics
are Gwet's (irrCAC's) "circular" and "bipolar" weights on the label values: alpha does not
change with the scale of the weights.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

NAN = np.nan

# test_nominal_metric_reliability_data / test_interval_metric
THREE_CODERS = [
    [NAN, NAN, NAN, NAN, NAN, 3, 4, 1, 2, 1, 1, 3, 3, NAN, 3],
    [1, NAN, 2, 1, 3, 3, 4, 3, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
    [NAN, NAN, 2, 1, 3, 4, 4, NAN, 2, 1, 1, 3, 3, NAN, 4],
]
# test_ordinal_metric / test_ratio_metric
FOUR_CODERS = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
    [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
]


def wide(reliability_data: Any) -> pd.DataFrame:
    data = np.asarray(reliability_data, dtype=object).T
    return pd.DataFrame(data, columns=[f"c{i}" for i in range(data.shape[1])]).astype(float)


def alpha(data: Any, **kwargs: Any) -> float:
    res = kf.overall(data, method="krippendorff", **kwargs)
    return float(res["value"].iloc[0])


def test_nominal_metric_reliability_data() -> None:
    assert round(alpha(wide(THREE_CODERS)), 6) == 0.691358


def test_nominal_metric_value_counts() -> None:
    value_counts = np.array(
        [
            [1, 0, 0, 0],
            [0, 0, 0, 0],
            [0, 2, 0, 0],
            [2, 0, 0, 0],
            [0, 0, 2, 0],
            [0, 0, 2, 1],
            [0, 0, 0, 3],
            [1, 0, 1, 0],
            [0, 2, 0, 0],
            [2, 0, 0, 0],
            [2, 0, 0, 0],
            [0, 0, 2, 0],
            [0, 0, 2, 0],
            [0, 0, 0, 0],
            [0, 0, 1, 1],
        ]
    )
    assert round(alpha(value_counts, layout="counts"), 6) == 0.691358


def test_ordinal_metric() -> None:
    assert round(alpha(wide(FOUR_CODERS), level="ordinal"), 3) == 0.815


def test_interval_metric() -> None:
    assert round(alpha(wide(THREE_CODERS), level="interval"), 6) == 0.810845


def test_ratio_metric() -> None:
    assert round(alpha(wide(FOUR_CODERS), level="ratio"), 3) == 0.797


def test_string_labels_nominal() -> None:
    data = [
        ["pos", "neg", "neu", None],
        ["pos", "neg", "neu", "pos"],
        ["pos", "neg", "pos", "pos"],
    ]
    df = pd.DataFrame(np.asarray(data, dtype=object).T, columns=["a", "b", "c"])
    assert round(alpha(df), 6) == 0.722222


def test_circular_metric_exact_hand_calculation() -> None:
    # test_circular_bipolar.py::test_circular_metric_exact_hand_calculation: 0.5625
    df = wide([[0, 1, 2, 3], [0, 2, 2, 0]])
    assert round(alpha(df, weights="circular"), 6) == 0.5625


def test_circular_metric_value_counts() -> None:
    # test_circular_bipolar.py::test_circular_metric_value_counts: 0.5625
    vc = np.array([[2, 0, 0, 0], [0, 1, 1, 0], [0, 0, 2, 0], [1, 0, 0, 1]])
    assert (
        round(alpha(vc, layout="counts", weights="circular", categories=[0, 1, 2, 3]), 6) == 0.5625
    )


def test_bipolar_metric_exact_hand_calculation() -> None:
    # test_circular_bipolar.py::test_bipolar_metric_exact_hand_calculation: 18 / 23
    df = wide([[-1, 0, 1], [-1, 1, 1]])
    assert round(alpha(df, weights="bipolar"), 6) == round(18 / 23, 6)


def test_quadratic_weights_are_the_interval_metric() -> None:
    # irrCAC's krippen.alpha.raw(weights="quadratic") is Krippendorff's interval alpha on
    # equally spaced labels (test_krippendorff.py of irrCAC's port: 0.849 on these data).
    df = wide(FOUR_CODERS)
    assert alpha(df, weights="quadratic") == pytest.approx(alpha(df, level="interval"), abs=1e-12)


def test_live_package_agrees() -> None:
    krippendorff = pytest.importorskip("krippendorff")
    for data, level in [
        (THREE_CODERS, "nominal"),
        (THREE_CODERS, "interval"),
        (FOUR_CODERS, "ordinal"),
        (FOUR_CODERS, "ratio"),
    ]:
        expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
        assert alpha(wide(data), level=level) == pytest.approx(expected, abs=1e-12)
