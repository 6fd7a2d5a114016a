"""kf.table_tests per pair and group, on every layout, and pairwise's kappa0."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.contingency_tables import SquareTable, mcnemar

import kappaframe as kf
from kappaframe import KappaFrameError, UndefinedKappaWarning

from ..conftest import to_pandas
from ..ways import ways


def ratings(k: int, n: int = 120, seed: int = 1) -> pd.DataFrame:
    """Three raters, two groups, labels "c0".. (rater "r3" shifted towards higher ones)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(k, size=n)
    frame = {"group": np.repeat(["g1", "g2"], n // 2)}
    for name, noise in (("r1", 0.2), ("r2", 0.35), ("r3", 0.5)):
        other = rng.integers(k, size=n)
        if name == "r3":
            other = np.maximum(other, truth)
        frame[name] = np.where(rng.random(n) < noise, other, truth)
    return pd.DataFrame({key: ([f"c{v}" for v in col] if key != "group" else col)
                         for key, col in frame.items()})  # fmt: skip


def table_of(frame: pd.DataFrame, a: str, b: str, cats: list[str]) -> np.ndarray:
    both = frame[[a, b]].dropna()
    table = pd.crosstab(pd.Categorical(both[a], cats), pd.Categorical(both[b], cats))
    return table.reindex(index=cats, columns=cats, fill_value=0).to_numpy()


@pytest.mark.parametrize("k", [2, 3, 4])
def test_each_pair_and_group_is_statsmodels(constructor, k: int) -> None:
    frame = ratings(k)
    res = to_pandas(kf.table_tests(constructor(frame), ["r1", "r2", "r3"], by="group"))
    assert len(res) == 2 * 3
    cats = [f"c{v}" for v in range(k)]
    for row in res.itertuples(index=False):
        part = frame[frame["group"] == row.group]
        table = table_of(part, row.rater_a, row.rater_b, cats)
        square = SquareTable(table, shift_zeros=False)
        assert row.n == table.sum()
        assert row.bowker_chi2 == pytest.approx(square.symmetry().statistic, rel=1e-12)
        assert row.bowker_p == pytest.approx(square.symmetry().pvalue, abs=1e-12)
        assert row.stuart_maxwell_df == k - 1  # every category is disagreed on here
        assert row.stuart_maxwell_chi2 == pytest.approx(square.homogeneity().statistic, rel=1e-12)
        assert row.stuart_maxwell_p == pytest.approx(square.homogeneity().pvalue, abs=1e-12)
        diag = np.diag(table)
        b = (diag**2).sum() / (table.sum(axis=1) * table.sum(axis=0)).sum()
        assert row.bangdiwala_b == pytest.approx(b, rel=1e-14)
        if k == 2:
            for name, correction in (("mcnemar", False), ("mcnemar_cc", True)):
                expected = mcnemar(table, exact=False, correction=correction)
                assert getattr(row, f"{name}_chi2") == pytest.approx(expected.statistic)
                assert getattr(row, f"{name}_p") == pytest.approx(expected.pvalue, abs=1e-12)
            a, d = table[1, 1], table[0, 0]
            off = table[0, 1] + table[1, 0]
            assert row.positive_agreement == pytest.approx(2 * a / (2 * a + off), rel=1e-14)
            assert row.negative_agreement == pytest.approx(2 * d / (2 * d + off), rel=1e-14)
    two = {"mcnemar_chi2", "mcnemar_cc_p", "positive_agreement", "negative_agreement"}
    assert two <= set(res.columns) if k == 2 else not two & set(res.columns)


def test_the_long_layout_gives_the_wide_layout_numbers(constructor) -> None:
    wide = ratings(3).reset_index(names="item")
    long = wide.melt(["item", "group"], var_name="coder", value_name="code")
    expected = kf.table_tests(wide, ["r1", "r2", "r3"], by="group")
    res = to_pandas(
        kf.table_tests(constructor(long), item="item", rater="coder", label="code", by="group")
    )
    pd.testing.assert_frame_equal(
        res.astype({"rater_a": str, "rater_b": str, "group": str}),
        expected.astype({"rater_a": str, "rater_b": str, "group": str}),
        check_dtype=False,
    )


def test_pandas_and_polars_agree_and_the_input_is_untouched() -> None:
    pl = pytest.importorskip("polars")
    frame = ratings(2)
    before = frame.copy()
    res_pd = frame.kappa.table_tests(["r1", "r2", "r3"], by="group", ci=0.9)
    res_pl = pl.from_pandas(frame).kappa.table_tests(["r1", "r2", "r3"], by="group", ci=0.9)
    assert isinstance(res_pl, pl.DataFrame)
    pd.testing.assert_frame_equal(frame, before)
    assert list(res_pl.columns) == list(res_pd.columns)
    np.testing.assert_allclose(
        res_pl.select("bowker_chi2", "positive_ci_low").to_numpy(),
        res_pd[["bowker_chi2", "positive_ci_low"]].to_numpy(),
        rtol=1e-14,
    )


def test_positive_and_negative_agreement_intervals_by_hand() -> None:
    cells = {("y", "y"): 40, ("y", "n"): 10, ("n", "y"): 2, ("n", "n"): 48}
    frame = pd.DataFrame([p for p, c in cells.items() for _ in range(c)], columns=["a", "b"])
    row = kf.table_tests(frame, ci=0.95).iloc[0]
    z = 1.959963984540054
    for name, agree in (("positive", 40), ("negative", 48)):
        m = 12
        value = 2 * agree / (2 * agree + m)
        se = np.sqrt(4 * agree * m * (agree + m) / (2 * agree + m) ** 4)
        assert row[f"{name}_agreement"] == pytest.approx(value, rel=1e-14)
        assert row[f"{name}_ci_low"] == pytest.approx(value - z * se, rel=1e-12)
        assert row[f"{name}_ci_high"] == pytest.approx(min(value + z * se, 1.0), rel=1e-12)
    assert row["mcnemar_chi2"] == pytest.approx(64 / 12)
    assert row["mcnemar_cc_chi2"] == pytest.approx(49 / 12)


def test_per_category_rows(constructor) -> None:
    frame = ratings(3)
    res = to_pandas(kf.table_tests(constructor(frame), ["r1", "r2"], per="category", ci=0.95))
    assert list(res.columns) == [
        "rater_a", "rater_b", "category", "n", "specific_agreement", "se", "ci_low", "ci_high"
    ]  # fmt: skip
    assert [str(c) for c in res["category"]] == ["c0", "c1", "c2"]
    table = table_of(frame, "r1", "r2", ["c0", "c1", "c2"])
    expected = 2 * np.diag(table) / (table.sum(axis=0) + table.sum(axis=1))
    np.testing.assert_allclose(res["specific_agreement"], expected, rtol=1e-14)
    assert (res["ci_low"] <= res["specific_agreement"]).all()
    assert (res["specific_agreement"] <= res["ci_high"]).all()


def test_a_pair_with_no_shared_item_is_nan_with_one_warning() -> None:
    frame = pd.DataFrame(
        {"a": ["x", "y", "x", None, None], "b": [None, None, None, "x", "y"],
         "c": ["x", "y", "y", "x", "y"]}
    )  # fmt: skip
    with pytest.warns(UndefinedKappaWarning, match="1 with no item rated by both") as caught:
        res = kf.table_tests(frame)
    assert len(caught) == 1
    empty = res[(res["rater_a"] == "a") & (res["rater_b"] == "b")].iloc[0]
    assert empty["n"] == 0
    assert np.isnan(
        empty[["bowker_chi2", "stuart_maxwell_chi2", "bangdiwala_b"]].astype(float)
    ).all()


def test_refusals() -> None:
    frame = ratings(3)
    with pytest.raises(KappaFrameError, match="per='category'") as info:
        kf.table_tests(frame, ["r1", "r2"], ci=0.95)
    assert info.value.option == "ci"
    with pytest.raises(KappaFrameError, match="per"):
        kf.table_tests(frame, ["r1", "r2"], per="rater")
    with pytest.raises(KappaFrameError, match="rater_a"):
        kf.table_tests(frame.rename(columns={"group": "rater_a"}), ["r1", "r2"], by="rater_a")


# --- pairwise(kappa0=) -------------------------------------------------------------------


def test_kappa0_zero_is_todays_test(constructor) -> None:
    frame = ratings(3)
    today = to_pandas(kf.pairwise(constructor(frame), ["r1", "r2", "r3"], ci=0.95))
    zero = to_pandas(kf.pairwise(constructor(frame), ["r1", "r2", "r3"], ci=0.95, kappa0=0.0))
    pd.testing.assert_frame_equal(today, zero)
    np.testing.assert_allclose(today["z"], today["kappa"] / today["se0"], rtol=1e-14)


def test_kappa0_tests_against_a_non_zero_value_with_the_estimate_se() -> None:
    # By hand: a, b: 10 items; kappa 0.6 with se 0.252982 (FCE); against 0.2:
    # z = 0.4 / 0.252982 = 1.5811, two-sided p = 0.11385.
    frame = pd.DataFrame({"a": list("yyyyynnnnn"), "c": list("yynyynnnyn")})
    res = kf.pairwise(frame, ci=0.95, kappa0=0.2, min_items=None).iloc[0]
    assert res["kappa"] == pytest.approx(0.6)
    assert res["se"] == pytest.approx(np.sqrt(0.064), rel=1e-12)  # 0.252982...
    assert res["z"] == pytest.approx(0.4 / np.sqrt(0.064), rel=1e-12)
    assert res["p_value"] == pytest.approx(0.113846, abs=5e-7)
    greater = kf.pairwise(frame, ci=0.95, kappa0=0.2, alternative="greater", min_items=None)
    assert greater["p_value"].iloc[0] == pytest.approx(res["p_value"] / 2, rel=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plain = kf.pairwise(frame, ci=0.95, min_items=None).iloc[0]
    assert plain["z"] == pytest.approx(0.6 / plain["se0"], rel=1e-12)
    assert plain["se"] == res["se"] and plain["ci_low"] == res["ci_low"]


def test_kappa0_refusals() -> None:
    frame = ratings(2)
    with pytest.raises(KappaFrameError, match=r"ci=0\.95") as info:
        kf.pairwise(frame, kappa0=0.4)
    assert info.value.option == "kappa0"
    with pytest.raises(KappaFrameError, match="kappa0"):
        kf.pairwise(frame, ci=0.95, kappa0=1.0)
    with pytest.raises(KappaFrameError, match="kappa0"):
        kf.pairwise(frame, ci=0.95, kappa0="0.4")


# --- every way in ----------------------------------------------------------------------

PARITY_WAYS = ways(
    "accessor", "shuffled", "polars", "polars_lazy", "long_pandas", "long_polars", "crowd",
    "csv_path", "parquet_path", "scan_csv", "dask", "duckdb",
)  # fmt: skip
KEYS = ["group", "rater_a", "rater_b"]


def _sorted(res: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    res = res.copy()
    for key in keys:
        res[key] = res[key].astype(object).map(str)
    return res.sort_values(keys, kind="stable").reset_index(drop=True)


@pytest.mark.parametrize("way", PARITY_WAYS)
def test_table_tests_on_every_way_in(way_in, way: str) -> None:
    frame = ratings(3)
    cats = ["c0", "c1", "c2"]
    want = kf.table_tests(frame, ["r1", "r2", "r3"], by="group", categories=cats)
    call = way_in(way, frame.copy(), raters=["r1", "r2", "r3"])
    got = call(kf.table_tests, by="group", categories=cats)
    got, want = _sorted(got, KEYS), _sorted(want, KEYS)
    assert list(got.columns) == list(want.columns)
    assert got[KEYS].to_numpy().tolist() == want[KEYS].to_numpy().tolist()
    numbers = [c for c in want.columns if c not in KEYS]
    np.testing.assert_allclose(
        got[numbers].to_numpy(dtype=float), want[numbers].to_numpy(dtype=float), atol=1e-12
    )


@pytest.mark.parametrize("way", [*PARITY_WAYS, *ways("counts_parts", "counts_parquet")])
def test_kappa0_on_every_way_in(way_in, way: str) -> None:
    frame = ratings(3)
    options = {
        "ci": 0.95,
        "kappa0": 0.3,
        "alternative": "greater",
        "categories": ["c0", "c1", "c2"],
    }
    want = kf.pairwise(frame, ["r1", "r2", "r3"], by="group", **options)
    call = way_in(way, frame.copy(), raters=["r1", "r2", "r3"])
    got = _sorted(call(kf.pairwise, by="group", **options), KEYS)
    want = _sorted(want, KEYS)
    np.testing.assert_allclose(got[["z", "p_value"]], want[["z", "p_value"]], atol=1e-12)
    np.testing.assert_allclose(want["z"], (want["kappa"] - 0.3) / want["se"], rtol=1e-12)
