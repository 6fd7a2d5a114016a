"""``kf.against_baseline``: matching, states and errors, on every frame library."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

import kappaframe as kf
from kappaframe._api.baseline import STATES, states
from tests.conftest import native_type_matches, to_pandas

TEAM = kf.datasets.labeling_team(seed=0)
R = ["ana", "ben", "dee"]
BEFORE = kf.pairwise(TEAM[TEAM["item"] <= 300], R, by="project", ci=0.95)
# In gamma's later items dee used one label only: kappa 0 with dee, its se undefined.
with pytest.warns(kf.UndefinedKappaWarning, match="one category only"):
    AFTER = kf.pairwise(TEAM[TEAM["item"] > 300], R, by="project", ci=0.95)


def test_the_change_and_its_interval_from_the_two_tables() -> None:
    out = kf.against_baseline(AFTER, baseline=BEFORE, max_drop=0.1, ci=0.9)
    z = norm.ppf(0.95)
    change = AFTER["kappa"] - BEFORE["kappa"]
    se = np.hypot(AFTER["se"], BEFORE["se"])
    change = change.where(se.notna())  # no standard error, no change (compare.difference)
    np.testing.assert_allclose(out["baseline"], BEFORE["kappa"], atol=1e-15)
    np.testing.assert_allclose(out["change"], change, atol=1e-15)
    np.testing.assert_allclose(out["change_low"], change - z * se, atol=1e-12)
    np.testing.assert_allclose(out["change_high"], change + z * se, atol=1e-12)
    expected = np.where(
        change + z * se < -0.1, "dropped", np.where(change - z * se >= -0.1, "ok", "inconclusive")
    )
    expected = np.where(np.isnan(se), "undefined", expected)
    assert (expected == "undefined").sum() == 2  # dee's two pairs in gamma
    assert out["state"].astype(str).tolist() == expected.tolist()
    assert list(out.columns[: len(AFTER.columns)]) == list(AFTER.columns)
    assert list(out["state"].cat.categories) == list(STATES)


def test_the_state_rule_at_its_edges() -> None:
    change = np.array([-0.5, -0.2, 0.0, 0.3, np.nan, -0.1])
    low = np.array([-0.6, -0.3, -0.1, 0.1, np.nan, -0.1])
    high = np.array([-0.4, -0.1, 0.1, 0.5, np.nan, -0.1])
    got = [STATES[c] for c in states(change, low, high, 0.1)]
    # -0.1 exactly: the interval's upper end at -0.1 is not below it; its lower end is at it.
    assert got == ["dropped", "inconclusive", "ok", "ok", "undefined", "ok"]


def test_every_frame_library_gives_the_same_frame(
    constructor: Callable[[dict[str, Any]], Any],
) -> None:
    expected = kf.against_baseline(AFTER, baseline=BEFORE, max_drop=0.1)
    after = constructor(AFTER.astype({"interpretation": str}).to_dict("list"))
    before = constructor(BEFORE.astype({"interpretation": str}).to_dict("list"))
    got = kf.against_baseline(after, baseline=before, max_drop=0.1)
    assert native_type_matches(got, after)
    got = to_pandas(got)
    for column in ("baseline", "change", "change_low", "change_high"):
        np.testing.assert_allclose(got[column], expected[column], atol=1e-15)
    assert got["state"].astype(str).tolist() == expected["state"].astype(str).tolist()


def test_unmatched_rows_on_both_sides_with_polars() -> None:
    pl = pytest.importorskip("polars")
    after = pl.from_pandas(AFTER[AFTER["project"] != "beta"].astype({"interpretation": str}))
    before = BEFORE[BEFORE["rater_b"] != "dee"]
    out = kf.against_baseline(after, baseline=before, max_drop=0.2)
    got = dict(zip(zip(out["project"], out["rater_b"], strict=True), out["state"], strict=True))
    assert got[("alpha", "dee")] == "new"
    assert got[("beta", "ben")] == "missing"
    assert out.filter(pl.col("state") == "missing")["n"].null_count() == 1


def test_undefined_values_are_their_own_state() -> None:
    after = AFTER.copy()
    after.loc[0, "kappa"] = np.nan
    before = BEFORE.copy()
    before.loc[1, "se"] = np.nan
    out = kf.against_baseline(after, baseline=before, max_drop=0.1)
    assert out["state"].iloc[:2].astype(str).tolist() == ["undefined", "undefined"]
    assert math.isnan(out["change"].iloc[0]) and out["baseline"].iloc[0] == BEFORE["kappa"][0]


def test_the_callers_frames_are_not_modified() -> None:
    after, before = AFTER.copy(), BEFORE.copy()
    kf.against_baseline(after, baseline=before.iloc[:3], max_drop=0.1)
    pd.testing.assert_frame_equal(after, AFTER)
    pd.testing.assert_frame_equal(before, BEFORE)


def test_a_result_compared_before_is_compared_anew() -> None:
    once = kf.against_baseline(AFTER, baseline=BEFORE, max_drop=0.1)
    twice = kf.against_baseline(once, baseline=BEFORE, max_drop=0.3)
    assert list(twice.columns) == list(once.columns)
    assert (twice["state"].astype(str) == "ok").sum() > (once["state"].astype(str) == "ok").sum()
    # Its missing rows are not rows of the result: compared again, they are missing again.
    partial = kf.against_baseline(AFTER.iloc[2:], baseline=BEFORE, max_drop=0.1)
    again = kf.against_baseline(partial, baseline=BEFORE, max_drop=0.1)
    pd.testing.assert_frame_equal(again, partial)


def test_overall_results_match_on_method() -> None:
    methods = ["fleiss", "krippendorff"]
    before = kf.overall(TEAM[TEAM["item"] <= 300], R, by="project", method=methods, ci=0.95)
    after = kf.overall(TEAM[TEAM["item"] > 300], R, by="project", method=methods[::-1], ci=0.95)
    out = kf.against_baseline(after, baseline=before, max_drop=0.1)
    merged = after.merge(before, on=["project", "method"], suffixes=("", "_old"))
    np.testing.assert_allclose(out["baseline"], merged["value_old"], atol=1e-15)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda f: f.drop(columns="se"), "no se column"),
        (lambda f: f.drop(columns="kappa"), "not a result of pairwise"),
        (lambda f: pd.concat([f, f.iloc[:1]]), "has two rows for project = 'alpha'"),
        (
            lambda f: f.assign(project=f["project"].map({"alpha": 1, "beta": 2, "gamma": 3})),
            "holds text in the result but number in the baseline",
        ),
        (lambda f: f.drop(columns="project"), "keyed by rater_a, rater_b"),
    ],
)
def test_a_baseline_that_cannot_be_compared_is_refused(
    change: Callable[[pd.DataFrame], pd.DataFrame], message: str
) -> None:
    with pytest.raises(kf.KappaFrameError, match=message):
        kf.against_baseline(AFTER, baseline=change(BEFORE), max_drop=0.1)


@pytest.mark.parametrize("value", [-0.1, 2.0, float("nan"), True, "0.1"])
def test_max_drop_is_checked(value: Any) -> None:
    with pytest.raises(kf.KappaFrameError, match="max_drop=") as err:
        kf.against_baseline(AFTER, baseline=BEFORE, max_drop=value)
    assert err.value.option == "max_drop"


def test_not_a_frame() -> None:
    with pytest.raises(kf.KappaFrameTypeError, match="baseline must be a pandas or polars"):
        kf.against_baseline(AFTER, baseline=BEFORE.to_dict(), max_drop=0.1)


@pytest.mark.parametrize("seed", range(5))
def test_a_rows_state_depends_on_neither_order_nor_names(seed: int) -> None:
    rng = np.random.default_rng(seed)
    expected = kf.against_baseline(AFTER, baseline=BEFORE, max_drop=0.05)
    names = dict(zip(["alpha", "beta", "gamma"], rng.permutation(["z", "a", "m"]), strict=True))
    after = AFTER.iloc[rng.permutation(len(AFTER))].assign(
        project=lambda f: f["project"].map(names)
    )
    before = BEFORE.iloc[rng.permutation(len(BEFORE))].assign(
        project=lambda f: f["project"].map(names)
    )
    got = kf.against_baseline(after, baseline=before, max_drop=0.05)
    back = {v: k for k, v in names.items()}
    got = got.assign(project=got["project"].map(back)).set_index(["project", "rater_a", "rater_b"])
    want = expected.set_index(["project", "rater_a", "rater_b"]).loc[got.index]
    assert got["state"].astype(str).tolist() == want["state"].astype(str).tolist()
    np.testing.assert_allclose(got["change_low"], want["change_low"], atol=0)


def replicates(n_reps: int, n_items: int, share: float, seed: int) -> pd.DataFrame:
    """``n_reps`` groups of two raters: ben copies ana on ``share`` of the items, else guesses."""
    rng = np.random.default_rng(seed)
    ana = rng.integers(0, 3, (n_reps, n_items))
    ben = np.where(rng.random((n_reps, n_items)) < share, ana, rng.integers(0, 3, ana.shape))
    rep = np.repeat(np.arange(n_reps), n_items)
    return pd.DataFrame({"rep": rep, "ana": ana.ravel(), "ben": ben.ravel()})


def test_no_change_is_called_a_drop_at_the_level_the_interval_says() -> None:
    """Same agreement twice: ``dropped`` at max_drop 0 is the one-sided error, (1 - ci) / 2."""
    before = kf.pairwise(replicates(1000, 200, 0.6, 1), ["ana", "ben"], by="rep", ci=0.9)
    after = kf.pairwise(replicates(1000, 200, 0.6, 2), ["ana", "ben"], by="rep", ci=0.9)
    share = (
        kf.against_baseline(after, baseline=before, max_drop=0.0, ci=0.9)["state"] == "dropped"
    ).mean()
    assert 0.03 < share < 0.07  # 0.05 expected; 1,000 replicates: sd 0.007
    # A true drop of 0.3 (kappa 0.6 -> 0.3) on 2,000 items: seen nearly always at max_drop 0.1.
    big_before = kf.pairwise(replicates(50, 2000, 0.6, 3), ["ana", "ben"], by="rep", ci=0.95)
    big_after = kf.pairwise(replicates(50, 2000, 0.3, 4), ["ana", "ben"], by="rep", ci=0.95)
    states_ = kf.against_baseline(big_after, baseline=big_before, max_drop=0.1)["state"]
    assert (states_ == "dropped").mean() > 0.95
    # No change on 2,000 items: a drop larger than 0.1 is ruled out (ok) nearly always.
    same = kf.against_baseline(
        kf.pairwise(replicates(50, 2000, 0.6, 5), ["ana", "ben"], by="rep", ci=0.95),
        baseline=big_before,
        max_drop=0.1,
    )["state"]
    assert (same == "ok").mean() > 0.95
