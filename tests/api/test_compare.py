"""kf.compare: two results matched on their keys, or two rater pairs on the same items."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import kappaframe as kf
from tests.conftest import to_pandas

TEAM = kf.datasets.labeling_team()
CATS = ["bad", "poor", "ok", "good", "great"]
RATERS = ["ana", "ben", "cai", "eli", "gold"]


def ratings(seed: int = 0, n: int = 300) -> dict[str, Any]:
    """Three raters and gold over ``n`` items in three projects; model_b is better."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, n)
    data: dict[str, Any] = {"project": rng.choice(["p1", "p2", "p3"], n)}
    for name, p in (("model_a", 0.45), ("model_b", 0.85), ("gold", 1.0)):
        data[name] = np.where(rng.random(n) < p, gold, rng.integers(0, 3, n))
    return data


# ----------------------------------------------------------------------------- in pairs


def test_paired_on_every_frame(constructor: Callable[[dict[str, Any]], Any]) -> None:
    frame = constructor(ratings())
    res = kf.compare(frame, ("model_a", "gold"), ("model_b", "gold"), by="project")
    out = to_pandas(res)
    assert list(out.columns) == [
        "project", "first_a", "first_b", "second_a", "second_b", "n", "kappa_first",
        "kappa_second", "difference", "se", "ci_low", "ci_high", "z", "p_value", "test",
        "verdict",
    ]  # fmt: skip
    assert out["project"].tolist() == ["p1", "p2", "p3"]
    assert (out["verdict"].astype(str) == "second higher").all()
    assert (out["test"] == "delta").all()
    # Each group's kappas are pairwise's on that group's items.
    df = pd.DataFrame(ratings())
    for _, row in out.iterrows():
        part = df[df["project"] == row["project"]]
        assert row["kappa_first"] == pytest.approx(kf.score(part, "model_a", "gold"), abs=1e-12)
        assert row["kappa_second"] == pytest.approx(kf.score(part, "model_b", "gold"), abs=1e-12)
        assert row["n"] == len(part)
        assert row["difference"] == pytest.approx(row["kappa_second"] - row["kappa_first"])
        assert row["z"] == pytest.approx(row["difference"] / row["se"], rel=1e-12)
        assert row["p_value"] == pytest.approx(2 * stats.norm.sf(abs(row["z"])), rel=1e-10)


def test_paired_counts_only_the_items_every_rater_labeled() -> None:
    df = TEAM[RATERS]
    res = kf.compare(df, ("ana", "gold"), ("eli", "gold"), categories=CATS)
    complete = df[["ana", "eli", "gold"]].dropna()
    assert int(res["n"].iloc[0]) == len(complete) < len(df.dropna(subset=["ana", "gold"]))
    want = kf.score(complete, "ana", "gold", categories=CATS)
    assert float(res["kappa_first"].iloc[0]) == pytest.approx(want, abs=1e-12)


def test_paired_se_uses_the_covariance() -> None:
    """Dependent kappas: the paired se is smaller than the independent one here."""
    df = pd.DataFrame(ratings(3, 600))
    paired = kf.compare(df, ("model_a", "gold"), ("model_b", "gold"))
    one = kf.pairwise(df, ["model_a", "gold"], ci=0.95)
    two = kf.pairwise(df, ["model_b", "gold"], ci=0.95)
    independent = float(np.hypot(one["se"].iloc[0], two["se"].iloc[0]))
    assert float(paired["se"].iloc[0]) != pytest.approx(independent, rel=1e-3)


def test_paired_bootstrap_is_seeded() -> None:
    df = pd.DataFrame(ratings(1))
    call = {"by": "project", "method": "bootstrap", "n_boot": 300}
    one = kf.compare(df, ("model_a", "gold"), ("model_b", "gold"), seed=7, **call)
    two = kf.compare(df, ("model_a", "gold"), ("model_b", "gold"), seed=7, **call)
    other = kf.compare(df, ("model_a", "gold"), ("model_b", "gold"), seed=8, **call)
    pd.testing.assert_frame_equal(one, two)
    assert not np.array_equal(one["se"], other["se"])
    assert (one["test"] == "bootstrap").all()


def test_paired_weights_reach_both_kappas() -> None:
    df = TEAM[RATERS].dropna()
    res = kf.compare(df, ("ana", "gold"), ("cai", "gold"), weights="quadratic", categories=CATS)
    want = kf.score(df, "cai", "gold", weights="quadratic", categories=CATS)
    assert float(res["kappa_second"].iloc[0]) == pytest.approx(want, abs=1e-12)


def test_accessor_is_the_function() -> None:
    df = pd.DataFrame(ratings())
    pd.testing.assert_frame_equal(
        df.kappa.compare(("model_a", "gold"), ("model_b", "gold"), by="project"),
        kf.compare(df, ("model_a", "gold"), ("model_b", "gold"), by="project"),
    )


def test_the_callers_frame_is_not_modified() -> None:
    df = pd.DataFrame(ratings())
    before = df.copy()
    kf.compare(df, ("model_a", "gold"), ("model_b", "gold"), by="project", method="bootstrap")
    pd.testing.assert_frame_equal(df, before)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda df: kf.compare(df, ("model_a",), ("model_b", "gold")), "first must be a pair"),
        (lambda df: kf.compare(df, ("gold", "gold"), ("model_b", "gold")), "twice"),
        (lambda df: kf.compare(df, ("model_a", "gold"), ("gold", "model_a")), "same pair"),
        (lambda df: kf.compare(df, ("model_a", "gold"), ("nobody", "gold")), "nobody"),
        (
            lambda df: kf.compare(df, ("model_a", "gold"), ("model_b", "gold"), n_boot=100),
            "method='bootstrap'",
        ),
        (
            lambda df: kf.compare(df, ("model_a", "gold"), ("model_b", "gold"), method="exact"),
            "method must be one of",
        ),
        (lambda df: kf.compare(df, ("model_a", "gold"), ("model_b", "gold"), ci=95), "ci must be"),
        (
            lambda df: kf.compare(
                df, ("model_a", "gold"), ("model_b", "gold"), method="bootstrap", n_boot=1
            ),
            "n_boot",
        ),
    ],
)
def test_paired_bad_input_is_refused(call: Callable[[Any], Any], words: str) -> None:
    with pytest.raises(kf.KappaFrameError, match=words.replace("(", r"\(")):
        call(pd.DataFrame(ratings()))


# ----------------------------------------------------------------------------- two results


def test_two_results_matched_on_their_keys(constructor: Callable[[dict[str, Any]], Any]) -> None:
    old = kf.pairwise(constructor(ratings(0)), by="project", ci=0.95)
    new = kf.pairwise(constructor(ratings(1)), by="project", ci=0.95)
    res = to_pandas(kf.compare(old, new))
    assert type(res) is pd.DataFrame
    assert isinstance(kf.compare(old, new), type(old))
    assert list(res.columns) == [
        "project", "rater_a", "rater_b", "kappa_first", "kappa_second", "difference", "se",
        "ci_low", "ci_high", "z", "p_value", "test", "verdict", "matched",
    ]  # fmt: skip
    a, b = to_pandas(old), to_pandas(new)
    np.testing.assert_allclose(res["difference"], b["kappa"] - a["kappa"], rtol=1e-14)
    np.testing.assert_allclose(res["se"], np.hypot(a["se"], b["se"]), rtol=1e-14)
    assert (res["matched"].astype(str) == "both").all()
    assert (res["test"] == "independent normal").all()


def test_rows_in_one_result_only_are_kept_and_marked() -> None:
    old = kf.pairwise(pd.DataFrame(ratings(0)), by="project", ci=0.95)
    new = kf.pairwise(pd.DataFrame(ratings(1)), by="project", ci=0.95)
    old = old[old["project"] != "p1"]  # p1 is new
    new = new[~((new["project"] == "p3") & (new["rater_a"] == "model_a"))]  # gone
    res = kf.compare(new, old)
    matched = res["matched"].astype(str)
    assert (matched == "first only").sum() == 3  # p1's three pairs
    assert (matched == "second only").sum() == 2  # p3's pairs with model_a
    gone = res[matched == "second only"]
    assert gone["rater_a"].tolist() == ["model_a", "model_a"]
    assert gone["project"].tolist() == ["p3", "p3"]
    assert gone["kappa_first"].isna().all() and gone["kappa_second"].notna().all()
    assert gone["verdict"].isna().all()
    assert len(res) == 9  # every key of either result, once


def test_two_overall_results() -> None:
    old = kf.overall(TEAM, ["ana", "ben", "cai"], method=["fleiss", "krippendorff"], ci=0.9)
    new = kf.overall(TEAM, ["ana", "ben", "dee"], method=["fleiss", "krippendorff"], ci=0.9)
    res = kf.compare(old, new)
    assert res["method"].tolist() == ["fleiss", "krippendorff"]
    np.testing.assert_allclose(res["value_second"] - res["value_first"], res["difference"])
    np.testing.assert_allclose(res["se"], np.hypot(old["se"], new["se"]), rtol=1e-14)


def test_a_drop_is_named() -> None:
    good = pd.DataFrame(ratings(0, 2000))
    worse = good.assign(model_b=np.random.default_rng(1).integers(0, 3, len(good)))
    res = kf.compare(
        kf.pairwise(good, ["model_b", "gold"], ci=0.95),
        kf.pairwise(worse, ["model_b", "gold"], ci=0.95),
    )
    assert str(res["verdict"].iloc[0]) == "first higher"


@pytest.mark.parametrize(
    ("second", "words"),
    [
        (
            lambda: kf.pairwise(TEAM, ["ana", "ben"], ci=0.95, weights="linear", categories=CATS),
            "weights",
        ),
        (lambda: kf.pairwise(TEAM, ["ana", "ben"], categories=CATS), "no se column"),
        (lambda: kf.overall(TEAM, ["ana", "ben"], ci=0.95), "same function"),
        (
            lambda: kf.pairwise(TEAM, ["ana", "ben"], by="project", ci=0.95, categories=CATS),
            "grouped",
        ),
        (lambda: TEAM, "not a result"),
    ],
)
def test_unlike_results_are_refused_naming_the_difference(
    second: Callable[[], Any], words: str
) -> None:
    first = kf.pairwise(TEAM, ["ana", "ben"], ci=0.95, categories=CATS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        other = second()
    with pytest.raises(kf.KappaFrameError, match=words):
        kf.compare(first, other)


def test_unlike_overall_levels_are_refused() -> None:
    one = kf.overall(TEAM, ["ana", "ben"], method="krippendorff", ci=0.95)
    two = kf.overall(TEAM, ["ana", "ben"], method="krippendorff", level="ordinal",
                     categories=CATS, ci=0.95)  # fmt: skip
    with pytest.raises(kf.KappaFrameError, match="level"):
        kf.compare(one, two)


def test_a_key_twice_is_refused() -> None:
    res = kf.pairwise(TEAM, ["ana", "ben"], ci=0.95)
    with pytest.raises(kf.KappaFrameError, match="more than one row"):
        kf.compare(pd.concat([res, res]), res)


def test_paired_options_do_not_apply_to_two_results() -> None:
    res = kf.pairwise(TEAM, ["ana", "ben"], ci=0.95)
    with pytest.raises(kf.KappaFrameError, match="weights=") as err:
        kf.compare(res, res, weights="linear")
    assert err.value.option == "weights"


def test_the_record_survives_pandas_parquet(tmp_path: Any) -> None:
    pytest.importorskip("pyarrow")
    days = pd.to_datetime(["2024-01-01", "2024-01-02", "2024-01-01", "2024-01-02"] * 5)
    df = pd.DataFrame({"a": days, "b": days[::-1].to_numpy()})
    res = kf.pairwise(df, ci=0.95, min_items=None)  # labels that are not JSON: dates
    res.to_parquet(tmp_path / "old.parquet")
    old = pd.read_parquet(tmp_path / "old.parquet")
    assert old.attrs["kappaframe"]["weights"] is None
    new = kf.pairwise(df, ci=0.95, min_items=None, weights="linear")
    with pytest.raises(kf.KappaFrameError, match="weights"):
        kf.compare(old, new)
    assert str(kf.compare(old, res)["verdict"].iloc[0]) == "no detectable difference"


def test_swapping_the_pairs_flips_the_difference() -> None:
    df = pd.DataFrame(ratings(4))
    one = kf.compare(df, ("model_a", "gold"), ("model_b", "gold"), by="project")
    two = kf.compare(df, ("model_b", "gold"), ("model_a", "gold"), by="project")
    np.testing.assert_allclose(one["difference"], -two["difference"], rtol=1e-14)
    np.testing.assert_allclose(one["se"], two["se"], rtol=1e-12)
    np.testing.assert_allclose(one["p_value"], two["p_value"], rtol=1e-10)
    assert (one["verdict"].astype(str) == "second higher").all()
    assert (two["verdict"].astype(str) == "first higher").all()


def test_four_raters_two_separate_pairs() -> None:
    """Two raters each against a third is one form; two disjoint pairs is another."""
    data = ratings(5)
    rng = np.random.default_rng(6)
    data["model_c"] = np.where(rng.random(300) < 0.5, data["gold"], rng.integers(0, 3, 300))
    df = pd.DataFrame(data)
    res = kf.compare(df, ("model_a", "gold"), ("model_b", "model_c"))
    want = kf.score(df, "model_b", "model_c")
    assert float(res["kappa_second"].iloc[0]) == pytest.approx(want, abs=1e-12)
    assert np.isfinite(res["se"]).all()


def test_overall_results_per_group() -> None:
    old = kf.overall(TEAM, ["ana", "ben", "cai"], by="project", ci=0.95)
    new = kf.overall(TEAM, ["ana", "ben", "dee"], by="project", ci=0.95)
    res = kf.compare(old, new)
    assert res["project"].tolist() == old["project"].tolist()
    np.testing.assert_allclose(res["value_first"], old["value"], rtol=0)
    np.testing.assert_allclose(res["value_second"], new["value"], rtol=0)


def test_results_of_two_libraries_or_dask_are_refused() -> None:
    pl = pytest.importorskip("polars")
    res = kf.pairwise(TEAM, ["ana", "ben"], ci=0.95)
    with pytest.raises(kf.KappaFrameTypeError, match="one library"):
        kf.compare(res, pl.from_pandas(res))
    dd = pytest.importorskip("dask.dataframe")
    with pytest.raises(kf.KappaFrameTypeError, match="compute"):
        kf.compare(dd.from_pandas(res, npartitions=1), res)


def test_categories_matter_with_weights_only() -> None:
    """Weighted, the category list sets the distances; unweighted, an unused label adds nothing."""
    plain = kf.pairwise(TEAM, ["ana", "ben"], ci=0.95, categories=CATS)
    more = kf.pairwise(TEAM, ["ana", "ben"], ci=0.95, categories=[*CATS, "superb"])
    res = kf.compare(plain, more)
    assert float(res["difference"].iloc[0]) == 0.0
    linear = kf.pairwise(TEAM, ["ana", "ben"], ci=0.95, weights="linear", categories=CATS)
    linear_more = kf.pairwise(
        TEAM, ["ana", "ben"], ci=0.95, weights="linear", categories=[*CATS, "superb"]
    )
    with pytest.raises(kf.KappaFrameError, match="categories") as err:
        kf.compare(linear, linear_more)
    assert "superb" in str(err.value)
