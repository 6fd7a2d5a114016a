"""kf.sample_size: numbers in or a pilot in, a tidy frame out; bad input named and refused."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import KappaFrameError
from kappaframe._schema import PILOT_COLUMNS, SAMPLE_SIZE_COLUMNS
from kappaframe._stats import sample_size as s


def n_items(res: Any) -> list[int]:
    return [int(v) for v in res["n_items"]]


def test_numbers_give_one_pandas_row_with_the_inputs() -> None:
    res = kf.sample_size(kappa0=0.4, kappa1=0.6, props=[0.3, 0.7], power=0.8)
    assert isinstance(res, pd.DataFrame)
    assert list(res.columns) == list(SAMPLE_SIZE_COLUMNS)
    row = res.iloc[0]
    assert (row["goal"], row["method"], row["alternative"]) == (
        "power",
        "goodness-of-fit",
        "greater",
    )
    assert (row["n_raters"], row["n_categories"], row["props"]) == (2, 2, "0.3, 0.7")
    assert (row["kappa0"], row["kappa1"], row["alpha"], row["power"]) == (0.4, 0.6, 0.05, 0.8)
    assert math.isnan(row["lower"]) and math.isnan(row["upper"])
    # one-sided 0.05 is kappaSize's two-sided 0.10: PowerBinary(0.4, 0.6, 0.3, alpha=0.1)
    # gives N = 150.0139 (R 4.2.2, kappaSize 1.2)
    assert n_items(res) == [151]


def test_two_sided_is_kappasize() -> None:
    res = kf.sample_size(kappa0=0.4, kappa1=0.6, props=[0.7, 0.3], alternative="two-sided")
    assert n_items(res) == [191]  # PowerBinary(kappa0=0.4, kappa1=0.6, props=0.30): 191


def test_width_lower_and_both_limits() -> None:
    props = [0.3, 0.7]
    width = kf.sample_size(kappa0=0.4, width=0.2, props=props)
    both = kf.sample_size(kappa0=0.4, lower=0.3, upper=0.5, props=props)
    assert n_items(width) == n_items(both) == [397]  # CIBinary(0.4, 0.3, 0.5, 0.30): 397
    assert width.iloc[0]["alternative"] == "two-sided"
    assert width.iloc[0]["lower"] == pytest.approx(0.3)
    lower = kf.sample_size(kappa0=0.6, lower=0.4, props=props)
    # CIBinary(kappa0=0.6, kappaL=0.4, kappaU=NA, props=0.3): 66
    assert n_items(lower) == [66]
    assert lower.iloc[0]["alternative"] == "greater"
    assert math.isnan(lower.iloc[0]["upper"]) and math.isnan(lower.iloc[0]["power"])


def test_more_raters_and_categories_use_kappasize_then_simulation() -> None:
    # six raters need few items: the rare category is seen less than 5 times (share 0.1)
    with pytest.warns(UserWarning, match="for the row, some category's share times n_items"):
        closed = kf.sample_size(kappa0=0.4, kappa1=0.6, props=[0.3, 0.6, 0.1], n_raters=6)
    assert closed.iloc[0]["method"] == "goodness-of-fit"
    assert 0.1 * n_items(closed)[0] < 5
    wide = [0.2, 0.2, 0.2, 0.2, 0.1, 0.1]
    sim = kf.sample_size(kappa0=0.4, kappa1=0.6, props=wide, n_raters=3, seed=7)
    again = kf.sample_size(kappa0=0.4, kappa1=0.6, props=wide, n_raters=3, seed=7)
    assert sim.iloc[0]["method"] == "simulation"
    assert n_items(sim) == n_items(again)
    many = kf.sample_size(kappa0=0.4, kappa1=0.6, props=[0.3, 0.7], n_raters=8)
    assert many.iloc[0]["method"] == "simulation"
    # the same simulation for fewer raters needs more items
    four = kf.sample_size(kappa0=0.4, kappa1=0.6, props=[0.3, 0.7], n_raters=4, method="simulation")
    assert four.iloc[0]["method"] == "simulation"
    assert n_items(many)[0] < n_items(four)[0]
    # and for two raters it is near the closed form (151)
    two = kf.sample_size(kappa0=0.4, kappa1=0.6, props=[0.3, 0.7], method="simulation")
    assert abs(n_items(two)[0] / 151 - 1) < 0.1
    with pytest.raises(KappaFrameError, match="method='goodness-of-fit' has a closed form"):
        kf.sample_size(
            kappa0=0.4, kappa1=0.6, props=[0.3, 0.7], n_raters=8, method="goodness-of-fit"
        )


def pilot(seed: int = 0, n: int = 150) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.choice(["a", "b", "c"], size=n, p=[0.5, 0.3, 0.2])
    frame: dict[str, Any] = {"project": np.where(np.arange(n) < n // 2, "p1", "p2")}
    for name, keep in (("r1", 0.8), ("r2", 0.7), ("r3", 0.75)):
        noise = rng.choice(["a", "b", "c"], size=n)
        frame[name] = np.where(rng.random(n) < keep, truth, noise)
    return pd.DataFrame(frame)


def test_pilot_equals_its_numbers_per_group() -> None:
    df = pilot()
    res = kf.sample_size(df, by="project", kappa0=0.3)
    assert list(res.columns) == ["project", *PILOT_COLUMNS, *SAMPLE_SIZE_COLUMNS]
    overall = kf.overall(df, by="project")
    np.testing.assert_allclose(res["pilot_kappa"], overall["value"], rtol=0, atol=1e-12)
    assert res["kappa1"].tolist() == res["pilot_kappa"].tolist()
    for g, row in res.iterrows():
        part = df[df["project"] == row["project"]][["r1", "r2", "r3"]]
        shares = [(part == c).to_numpy().mean() for c in ("a", "b", "c")]
        assert row["props"] == ", ".join(f"{p:.4f}" for p in shares)
        want = s.items_for_power(0.3, row["pilot_kappa"], np.array(shares), 3, 0.05, 0.8, False)
        assert row["n_items"] == want[1], g
        assert row["pilot_items"] == len(part) and row["n_raters"] == 3


def test_pilot_interval_uses_its_kappa_as_kappa0() -> None:
    df = pilot(1)
    res = kf.sample_size(df, ["r1", "r2"], width=0.3, n_raters=4)
    row = res.iloc[0]
    assert row["kappa0"] == row["pilot_kappa"] and row["n_raters"] == 4
    assert row["lower"] == pytest.approx(row["kappa0"] - 0.15)
    assert math.isnan(row["kappa1"])


def test_accessor_is_the_function_and_the_frame_is_untouched() -> None:
    df = pilot(2)
    before = df.copy()
    a = df.kappa.sample_size(["r1", "r3"], kappa0=0.2, alpha=0.01)
    b = kf.sample_size(df, ["r1", "r3"], kappa0=0.2, alpha=0.01)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(df, before)


def test_polars_in_polars_out() -> None:
    pl = pytest.importorskip("polars")
    df = pl.from_pandas(pilot(3))
    res = kf.sample_size(df, by="project", width=0.1)
    assert isinstance(res, pl.DataFrame)
    lazy = kf.sample_size(df.lazy(), by="project", width=0.1)
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(res)


BAD: list[tuple[dict[str, Any], list[str]]] = [
    (dict(kappa0=0.6, kappa1=0.4, props=[0.5, 0.5]), ["kappa1=0.4", "above kappa0", "swap"]),
    (dict(kappa0=0.4, kappa1=0.4, props=[0.5, 0.5]), ["kappa1=0.4", "above kappa0"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.3, 0.6]), ["props=[0.3, 0.6]", "sums to 0.9"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.3, 0.8]), ["sums to 1.1", "not rescaled"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[1.0]), ["props=[1.0]", "at least 2"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.0, 1.0]), ["outside (0, 1)", "0.0"]),
    (dict(kappa0=0.4, kappa1=0.6, props="0.3 0.7"), ["props='0.3 0.7'", "props=[0.3, 0.7]"]),
    (dict(kappa0=0.4, kappa1=0.6), ["props=None"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.5, 0.5], power=1.0), ["power=1.0", "(0, 1)"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.5, 0.5], power=0), ["power=0", "(0, 1)"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.5, 0.5], alpha=1.5), ["alpha=1.5", "(0, 1)"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.5, 0.5], alpha=0), ["alpha=0", "(0, 1)"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.5, 0.5], power=0.03), ["power=0.03", "above"]),
    (dict(kappa0=-0.1, kappa1=0.6, props=[0.5, 0.5]), ["kappa0=-0.1", "[0, 1)"]),
    (dict(kappa0=0.4, kappa1=1.0, props=[0.5, 0.5]), ["kappa1=1.0", "(0, 1)"]),
    (dict(kappa0=0.4, props=[0.5, 0.5]), ["kappa1=", "width="]),
    (dict(kappa1=0.6, props=[0.5, 0.5]), ["kappa0= is needed"]),
    (dict(kappa0=0.4, kappa1=0.6, width=0.2, props=[0.5, 0.5]), ["one question"]),
    (dict(kappa0=0.4, width=0.2, lower=0.3, props=[0.5, 0.5]), ["width=0.2", "lower="]),
    (dict(kappa0=0.4, width=0.0, props=[0.5, 0.5]), ["width=0.0", "above 0"]),
    (dict(kappa0=0.9, width=0.4, props=[0.5, 0.5]), ["width=0.4", "narrower"]),
    (dict(kappa0=0.4, lower=0.5, props=[0.5, 0.5]), ["lower=0.5", "below kappa0"]),
    (dict(kappa0=0.4, upper=0.3, props=[0.5, 0.5]), ["upper=0.3", "above kappa0"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.5, 0.5], n_raters=1), ["n_raters=1", "at least 2"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.5, 0.5], alternative="less"), ["alternative"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.5, 0.5], seed=-1), ["seed=-1"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.5, 0.5], method="exact"), ["method", "'auto'"]),
    (dict(kappa0=0.4, kappa1=0.6, props=[0.5, 0.5], by="g"), ["by='g'", "pilot"]),
    (dict(kappa0=0.4, n_items=10, props=[0.5, 0.5]), ["n_items=10", "above 10"]),
    (dict(kappa0=0.4, n_items=50.0, props=[0.5, 0.5]), ["n_items=50.0", "whole number"]),
    (dict(kappa0=0.4, n_items=50, width=0.2, props=[0.5, 0.5]), ["n_items=50", "width=0.2"]),
    (dict(kappa0=0.05, n_items=20, props=[0.5, 0.5]), ["n_items=20", "more items"]),
]


@pytest.mark.parametrize(("options", "said"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_numbers_are_named(options: dict[str, Any], said: list[str]) -> None:
    with pytest.raises(KappaFrameError) as err:
        kf.sample_size(**options)
    for part in said:
        assert part in str(err.value)


def test_bad_pilot_options_are_named() -> None:
    df = pilot(4)
    with pytest.raises(KappaFrameError, match=r"props=\[0.5, 0.5\] comes from the pilot"):
        kf.sample_size(df, kappa0=0.2, props=[0.5, 0.5])
    with pytest.raises(KappaFrameError, match=r"kappa1=0\.9 comes from the pilot"):
        kf.sample_size(df, kappa0=0.2, kappa1=0.9)
    with pytest.raises(KappaFrameError, match=r"kappa0=0\.5: for an interval"):
        kf.sample_size(df, kappa0=0.5, width=0.2)
    with pytest.raises(KappaFrameError, match="give kappa0="):
        kf.sample_size(df)
    rng = np.random.default_rng(5)
    noisy = df.copy()
    for r in ("r1", "r2", "r3"):
        noisy.loc[noisy["project"] == "p2", r] = rng.choice(["a", "b", "c"], size=75)
    with pytest.raises(
        KappaFrameError, match=r"\(group 2 of 2 in by= order\) is .*not above kappa0=0.3"
    ):
        kf.sample_size(noisy, by="project", kappa0=0.3)
    with pytest.raises(KappaFrameError, match="category 'z' has no rating"):
        kf.sample_size(df, ["r1", "r2"], kappa0=0.2, categories=["a", "b", "c", "z"])


def test_few_items_for_a_rare_category_warn_once_with_a_count() -> None:
    team = kf.datasets.labeling_team(seed=0)
    grades = list(kf.datasets.GRADES)
    with pytest.warns(UserWarning, match=r"for 3 of 3 rows, .*compare method='simulation'") as got:
        res = team.kappa.sample_size(
            list(kf.datasets.TEAM), by="project", categories=grades, lower=0.0
        )
    assert len(got) == 1
    shares = [min(float(p) for p in row.split(", ")) for row in res["props"]]
    assert all(p * n < 5 for p, n in zip(shares, res["n_items"], strict=True))
    # kappaSize's documented examples need enough items: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kf.sample_size(kappa0=0.4, kappa1=0.6, props=[0.3, 0.6, 0.1], alternative="two-sided")


def test_a_limit_for_a_fixed_number_of_items() -> None:
    # FixedN3Cats(kappa0=0.7, n=80, props=c(0.33, 0.34, 0.33), raters=5): 0.623
    res = kf.sample_size(kappa0=0.7, n_items=80, props=[0.33, 0.34, 0.33], n_raters=5)
    row = res.iloc[0]
    assert (row["goal"], row["lower"], row["n_items"], row["alternative"]) == (
        "limit",
        0.623,
        80,
        "greater",
    )
    assert math.isnan(row["upper"]) and math.isnan(row["kappa1"])
    # the inverse: 80 items are enough for that lower limit, and not for 0.001 above it
    enough = kf.sample_size(kappa0=0.7, lower=0.623, props=[0.33, 0.34, 0.33], n_raters=5)
    assert n_items(enough)[0] <= 80
    # from a pilot: its kappa is kappa0
    df = pilot(6)
    res = kf.sample_size(df, by="project", n_items=200)
    assert (res["kappa0"] == res["pilot_kappa"]).all()
    assert (res["lower"] < res["kappa0"]).all() and (res["n_items"] == 200).all()
    # more raters than kappaSize: the simulation's normal limit
    sim = kf.sample_size(kappa0=0.6, n_items=100, props=[0.5, 0.5], n_raters=8)
    assert sim.iloc[0]["method"] == "simulation" and 0.4 < sim.iloc[0]["lower"] < 0.6
