"""A rater who used one category only: kappa is 0, its standard error is undefined.

Kappa of such a table is 0 for every table with that margin, so Fleiss, Cohen & Everitt's
variances are exactly 0 there (checked below in exact arithmetic); in floating point they
came out as rounding noise, and ``z``, ``p_value`` and the gate's verdict with them. Every
column of the interval and the test is NaN instead, said once per call.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.inter_rater import cohens_kappa

import kappaframe as kf
from kappaframe._stats.inference import one_category, standard_errors

CI = ["se", "se0", "ci_low", "ci_high", "z", "p_value"]


def twenty_items(seed: int) -> pd.DataFrame:
    """20 items: ana used "x" only, ben and cy both categories."""
    rng = np.random.default_rng(seed)
    ben = rng.choice(["x", "y"], 20)
    ben[:2] = ["x", "y"]  # both categories, whatever the seed
    cy = np.where(rng.random(20) < 0.8, ben, np.where(ben == "x", "y", "x"))
    return pd.DataFrame({"ana": ["x"] * 20, "ben": ben, "cy": cy})


def fce_variance(table: list[list[int]]) -> tuple[Fraction, Fraction, Fraction]:
    """Kappa, FCE's variance and null variance of an unweighted table, in exact fractions."""
    n = sum(map(sum, table))
    k = len(table)
    p = [[Fraction(c, n) for c in row] for row in table]
    rows = [sum(row) for row in p]
    cols = [sum(p[i][j] for i in range(k)) for j in range(k)]
    p_o = sum(p[i][i] for i in range(k))
    p_e = sum(rows[i] * cols[i] for i in range(k))
    kappa = (p_o - p_e) / (1 - p_e)
    w = [[Fraction(int(i == j)) for j in range(k)] for i in range(k)]
    spread = [[cols[i] + rows[j] for j in range(k)] for i in range(k)]
    term = sum(
        p[i][j] * (w[i][j] - spread[i][j] * (1 - kappa)) ** 2 for i in range(k) for j in range(k)
    )
    var = (term - (kappa - p_e * (1 - kappa)) ** 2) / (n * (1 - p_e) ** 2)
    null = sum(
        rows[i] * cols[j] * (w[i][j] - spread[i][j]) ** 2 for i in range(k) for j in range(k)
    )
    var0 = (null - p_e**2) / (n * (1 - p_e) ** 2)
    return kappa, var, var0


@pytest.mark.parametrize(
    "table", [[[7, 13], [0, 0]], [[0, 20], [0, 0]], [[3, 5, 12], [0] * 3, [0] * 3]]
)
def test_the_variances_are_exactly_zero_and_given_as_nan(table: list[list[int]]) -> None:
    kappa, var, var0 = fce_variance(table)
    assert (kappa, var, var0) == (0, 0, 0)  # the formula's 0: no sampling variance seen
    counts = np.array([table, np.transpose(table)])
    assert one_category(counts).tolist() == [True, True]
    errors = standard_errors(counts, 1.0 - np.eye(len(table)), np.zeros(2), 0.95)
    for name in CI:
        assert np.isnan(errors[name]).all(), name


def test_a_table_where_both_raters_vary_is_not_marked() -> None:
    table = np.array([[[9, 1], [2, 8]], [[10, 0], [0, 10]]])
    assert one_category(table).tolist() == [False, False]
    errors = standard_errors(table, 1.0 - np.eye(2), np.array([0.7, 1.0]), 0.95)
    expected = cohens_kappa(table[0], return_results=True)
    assert errors["se"][0] == pytest.approx(expected.std_kappa, rel=1e-12)
    # Perfect agreement over two categories: se 0 and se0 above 0, as statsmodels has them.
    assert errors["se"][1] == 0 and errors["se0"][1] > 0 and errors["z"][1] > 0


@pytest.mark.parametrize("seed", range(6))
def test_twenty_items_one_rater_one_category(seed: int) -> None:
    frame = twenty_items(seed)
    before = frame.copy()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = kf.pairwise(frame, ["ana", "ben", "cy"], ci=0.95)
    said = [str(w.message) for w in caught if issubclass(w.category, kf.UndefinedKappaWarning)]
    assert said == [
        "the standard error of kappa (se, se0, ci_low, ci_high, z, p_value) is undefined (NaN) "
        "for 2 of 3 pair x group cells: where a rater used one category only (kappa is then 0 "
        "whatever the other did)."
    ]
    pd.testing.assert_frame_equal(frame, before)
    with_ana = out[out["rater_a"] == "ana"]
    assert (with_ana["kappa"] == 0.0).all()
    assert with_ana[CI].isna().all().all()
    other = out[out["rater_a"] == "ben"].iloc[0]
    table = pd.crosstab(frame["ben"], frame["cy"]).to_numpy()
    assert other["se"] == pytest.approx(cohens_kappa(table, return_results=True).std_kappa)


def test_the_bootstrap_interval_is_undefined_too() -> None:
    with pytest.warns(kf.UndefinedKappaWarning, match="one category only"):
        out = kf.pairwise(twenty_items(0), ["ana", "ben"], ci=0.95, ci_method="bootstrap", seed=1)
    assert out[CI].isna().all().all()


def test_light_kappa_of_two_raters_and_the_pairs_of_per_category() -> None:
    frame = twenty_items(1)
    with pytest.warns(kf.UndefinedKappaWarning, match="for 1 of 2 rows"):
        out = kf.overall(frame, ["ana", "ben"], method=["light", "fleiss"], ci=0.95)
    assert out.loc[0, "value"] == 0 and out.loc[[0], CI].isna().all().all()
    assert out.loc[[1], CI].notna().all().all()  # Fleiss' kappa has its own variance
    # Three raters: the mean of the pairs' kappas varies with ben and cy's pair.
    three = kf.overall(frame, ["ana", "ben", "cy"], method="light", ci=0.95)
    assert three.loc[0, "se"] > 0
    with pytest.warns(kf.UndefinedKappaWarning, match="for 4 of 6 rows"):
        pairs = kf.per_category(frame, ["ana", "ben", "cy"], method="cohen", ci=0.95)
    with_ana = pairs["rater_a"] == "ana"
    assert pairs.loc[with_ana, CI].isna().all().all()
    assert pairs.loc[~with_ana, CI].notna().all().all()


def test_the_gate_calls_the_row_undefined_not_dropped() -> None:
    rng = np.random.default_rng(5)
    truth = rng.choice(["x", "y"], 20)
    old = pd.DataFrame({"ana": truth, "ben": truth})
    old.loc[:1, "ben"] = np.where(old.loc[:1, "ana"] == "x", "y", "x")
    new = twenty_items(5)
    baseline = kf.pairwise(old, ["ana", "ben"], ci=0.95)
    with pytest.warns(kf.UndefinedKappaWarning):
        now = kf.pairwise(new, ["ana", "ben"], ci=0.95)
    out = kf.against_baseline(now, baseline=baseline, max_drop=0.1)
    # With a rounding-noise se of 0 now, the change's interval would be the baseline's
    # alone, wholly below -0.1: "dropped".
    assert 0 - out.loc[0, "baseline"] + 1.96 * baseline.loc[0, "se"] < -0.1
    assert out["state"].astype(str).tolist() == ["undefined"]
    assert np.isnan(out.loc[0, "change"])
