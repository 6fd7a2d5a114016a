"""statsmodels (``statsmodels/stats/tests/test_inter_rater.py``): frozen values.

Each expected value names the test of that file it comes from; most of them are SAS PROC
FREQ's or R ``irr``'s printouts that statsmodels itself freezes. statsmodels' 1-D
``weights`` with ``wt="toeplitz"`` are disagreement weights by distance ``|i - j|``:
kappaframe's 1-D ``weights=``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

# test_inter_rater.py: table1 (Wikipedia's Fleiss example: 10 items, 14 raters, 5 categories)
TABLE1 = np.array(
    [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
)
# test_inter_rater.py: table10 (a SAS PROC FREQ example)
TABLE10 = np.array([[0, 4, 1], [0, 8, 0], [0, 1, 5]])
# test_inter_rater.py: diagnoses (Fleiss 1971: 30 patients, 6 psychiatrists)
DIAGNOSES = np.array(
    [
        [int(c) for c in row]
        for row in [
            "444444",
            "222555",
            "233335",
            "555555",
            "222444",
            "113333",
            "333355",
            "113334",
            "114444",
            "555555",
            "144444",
            "124444",
            "222333",
            "144444",
            "224445",
            "333335",
            "111455",
            "111112",
            "224444",
            "133555",
            "555555",
            "244444",
            "224555",
            "114444",
            "144445",
            "222224",
            "111155",
            "224444",
            "133333",
            "555555",
        ]
    ]
)
# test_inter_rater.py: anxiety (R irr's data set: 20 subjects, 3 raters), column-major
ANXIETY = np.array(
    [
        [3, 3, 3, 4, 5, 5, 2, 3, 5, 2, 2, 6, 1, 5, 2, 2, 1, 2, 4, 3],
        [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4],
        [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2],
    ]
).T


def ratings_of_table(table: Any) -> pd.DataFrame:
    """Two raters' labels whose K x K table is ``table`` (rows: rater a)."""
    a: list[int] = []
    b: list[int] = []
    for (i, j), count in np.ndenumerate(np.asarray(table)):
        a += [i] * int(count)
        b += [j] * int(count)
    return pd.DataFrame({"a": a, "b": b})


def test_fleiss_kappa_wikipedia() -> None:
    # test_fleiss_kappa: fleiss_kappa(table1) == 0.210 (3 decimals)
    res = kf.overall(TABLE1, method="fleiss", layout="counts")
    assert round(float(res["value"].iloc[0]), 3) == 0.210


@pytest.mark.parametrize(
    ("table", "fleiss", "randolph"),
    [
        ([[6.99, 0.01], [6.99, 0.01]], -0.166667, 0.993343),
        ([[7, 1], [3, 5]], 0.161905, 0.214286),
        ([[7, 0], [0, 7]], 1.0, 1.0),
        ([[6, 1, 0], [0, 7, 0]], 0.708333, 0.785714),
    ],
)
def test_fleiss_and_randolph(table: list[list[float]], fleiss: float, randolph: float) -> None:
    # test_fleis_randolph (Randolph's online calculator): fixed-marginal kappa is
    # Fleiss'; free-marginal kappa (statsmodels' method="randolph") is Brennan-Prediger.
    res = kf.overall(np.asarray(table), method=["fleiss", "brennan_prediger"], layout="counts")
    assert float(res["value"].iloc[0]) == pytest.approx(fleiss, abs=6e-6)
    assert float(res["value"].iloc[1]) == pytest.approx(randolph, abs=6e-6)


def test_fleiss_kappa_irr_diagnoses() -> None:
    # test_fleiss_kappa_irr: R irr kappam.fleiss(diagnoses) 0.4302445, z 17.65183
    res = kf.overall(pd.DataFrame(DIAGNOSES), method="fleiss", ci=0.95)
    assert float(res["value"].iloc[0]) == pytest.approx(0.4302445, abs=5e-8)
    assert float(res["z"].iloc[0]) == pytest.approx(17.65183, abs=5e-6)


def test_aggregate_raters_table() -> None:
    # test_aggregate_raters: the item x category counts of diagnoses sum to
    # [26, 26, 30, 55, 43] per category; counts and ratings give one kappa.
    table = np.stack([(c == DIAGNOSES).sum(axis=1) for c in range(1, 6)], axis=1)
    assert table.sum(axis=0).tolist() == [26, 26, 30, 55, 43]
    from_counts = kf.overall(table, method="fleiss", layout="counts", ci=0.95)
    from_ratings = kf.overall(pd.DataFrame(DIAGNOSES), method="fleiss", ci=0.95)
    for col in ["value", "se", "se0", "z"]:
        assert float(from_counts[col].iloc[0]) == pytest.approx(
            float(from_ratings[col].iloc[0]), rel=1e-12
        )


# TestUnweightedCohens / TestWeightedCohens (SAS printouts, 4 decimals): kappa, ASE,
# 95% limits, ASE under H0, Z, one-sided Pr > Z, two-sided Pr > |Z|.
SAS = [
    (
        "TestUnweightedCohens",
        None,
        [0.4842, 0.1380, 0.2137, 0.7547, 0.1484, 3.2626, 0.0006, 0.0011],
    ),
    (
        "TestWeightedCohens",
        [0, 1, 2],
        [0.4701, 0.1457, 0.1845, 0.7558, 0.1426, 3.2971, 0.0005, 0.0010],
    ),
]


@pytest.mark.parametrize(("source", "weights", "expected"), SAS, ids=[s[0] for s in SAS])
def test_cohens_kappa_sas(source: str, weights: Any, expected: list[float]) -> None:
    df = ratings_of_table(TABLE10)
    res = kf.pairwise(df, weights=weights, categories=[0, 1, 2], ci=0.95)
    greater = kf.pairwise(df, weights=weights, categories=[0, 1, 2], ci=0.95, alternative="greater")
    got = [
        res["kappa"].iloc[0],
        res["se"].iloc[0],
        res["ci_low"].iloc[0],
        res["ci_high"].iloc[0],
        res["se0"].iloc[0],
        res["z"].iloc[0],
        greater["p_value"].iloc[0],
        res["p_value"].iloc[0],
    ]
    np.testing.assert_allclose(got, expected, rtol=0, atol=5.01e-5)


def test_std_kappa0_equals_statsmodels() -> None:
    sm = pytest.importorskip("statsmodels.stats.inter_rater")
    for weights, wt in [(None, None), ("linear", "linear"), ("quadratic", "quadratic")]:
        oracle = sm.cohens_kappa(TABLE10, wt=wt)
        res = kf.pairwise(ratings_of_table(TABLE10), weights=weights, ci=0.95)
        assert float(res["se0"].iloc[0]) == pytest.approx(oracle.std_kappa0, rel=1e-12)
        assert float(res["se"].iloc[0]) == pytest.approx(oracle.std_kappa, rel=1e-12)


# test_cohens_kappa_irr: R irr kappa2(anxiety[, 2:3], weight) (value, z, two-sided p).
# statsmodels builds the table with bins [1, 2, 3, 4, 6, 7]: labels 4 and 5 are one
# category (irr drops the level nobody used), so 5 is recoded to 4 here.
IRR = [
    ("unweighted", None, -0.006289308, -0.0604067, 0.9518317),
    ("equal", "linear", 0.1459075, 1.282472, 0.1996772),
    ("equal, toeplitz 0:4", [0, 1, 2, 3, 4], 0.1459075, 1.282472, 0.1996772),
    ("squared", "quadratic", 0.2520325, 1.437451, 0.1505898),
    ("squared, toeplitz 4 * (0:4)^2", [0, 4, 16, 36, 64], 0.2520325, 1.437451, 0.1505898),
    ("0,0,1,1,2", [0, 0, 1, 1, 2], 0.2391304, 1.223734, 0.2210526),
]


@pytest.mark.parametrize(
    ("weight", "weights", "value", "z", "p_value"), IRR, ids=[i[0] for i in IRR]
)
def test_cohens_kappa_irr(
    weight: str, weights: Any, value: float, z: float, p_value: float
) -> None:
    pair = np.where(ANXIETY[:, 1:] == 5, 4, ANXIETY[:, 1:])
    df = pd.DataFrame({"r2": pair[:, 0], "r3": pair[:, 1]})
    res = kf.pairwise(df, weights=weights, categories=[1, 2, 3, 4, 6], ci=0.95)
    assert float(res["kappa"].iloc[0]) == pytest.approx(value, abs=5e-7)
    assert float(res["z"].iloc[0]) == pytest.approx(z, abs=5e-6)
    assert float(res["p_value"].iloc[0]) == pytest.approx(p_value, abs=5e-7)
