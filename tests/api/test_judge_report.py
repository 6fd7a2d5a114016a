"""kf.judge_report against scikit-learn, statsmodels and pairwise, per group, every frame."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import balanced_accuracy_score, precision_recall_fscore_support
from statsmodels.stats.proportion import proportion_confint

import kappaframe as kf
from kappaframe import KappaFrameError, UndefinedKappaWarning

from ..conftest import native_type_matches, to_pandas


def judged(k: int, n: int = 160, seed: int = 3) -> pd.DataFrame:
    """A judge right about 70% of the time, gold and judge with some labels missing."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(k, size=n).astype(float)
    judge = np.where(rng.random(n) < 0.7, gold, rng.integers(k, size=n)).astype(float)
    gold[rng.random(n) < 0.05] = np.nan
    judge[rng.random(n) < 0.05] = np.nan
    group = rng.choice(["x", "y"], size=n)
    return pd.DataFrame({"group": group, "judge": judge, "gold": gold})


def both(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.dropna(subset=["judge", "gold"])


@pytest.mark.parametrize("k", [2, 4])
def test_each_group_is_sklearn_and_statsmodels(constructor, k: int) -> None:
    frame = judged(k)
    data = constructor(frame.to_dict("list"))
    report = kf.judge_report(data, "judge", "gold", by="group")
    assert native_type_matches(report.classes, data) and native_type_matches(report.summary, data)
    classes, summary = to_pandas(report.classes), to_pandas(report.summary)
    assert list(summary["group"]) == ["x", "y"]
    labels = list(range(k))
    for g, part in both(frame).groupby("group"):
        y, p = part["gold"].to_numpy(), part["judge"].to_numpy()
        rows = classes[classes["group"] == g]
        row = summary[summary["group"] == g].iloc[0]
        assert rows["class"].tolist() == labels
        prec, rec, f1, sup = precision_recall_fscore_support(
            y, p, labels=labels, zero_division=np.nan
        )
        np.testing.assert_allclose(rows["precision"], prec, rtol=0, atol=1e-12)
        np.testing.assert_allclose(rows["recall"], rec, rtol=0, atol=1e-12)
        np.testing.assert_allclose(rows["f1"], f1, rtol=0, atol=1e-12)
        assert rows["support"].tolist() == sup.tolist()
        assert rows["predicted"].tolist() == [int((p == c).sum()) for c in labels]
        np.testing.assert_allclose(rows["gold_rate"], sup / len(y), atol=1e-12)
        for average in ("macro", "micro", "weighted"):
            want = precision_recall_fscore_support(
                y, p, labels=labels, average=average, zero_division=np.nan
            )[:3]
            got = [row[f"{s}_{average}"] for s in ("precision", "recall", "f1")]
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
        correct = int((y == p).sum())
        assert row["n"] == len(y)
        assert row["accuracy"] == pytest.approx(correct / len(y), abs=1e-12)
        low, high = proportion_confint(correct, len(y), alpha=0.05, method="wilson")
        assert row["accuracy_ci_low"] == pytest.approx(low, abs=1e-12)
        assert row["accuracy_ci_high"] == pytest.approx(high, abs=1e-12)
        assert row["balanced_accuracy"] == pytest.approx(balanced_accuracy_score(y, p), abs=1e-12)


def test_kappa_is_pairwise_with_the_gold_as_reference(constructor) -> None:
    frame = judged(3)
    data = constructor(frame.to_dict("list"))
    summary = to_pandas(kf.judge_report(data, "judge", "gold", by="group", ci=0.9).summary)
    pairs = to_pandas(kf.pairwise(data, ["judge"], reference="gold", by="group", ci=0.9))
    for mine, theirs in (("kappa", "kappa"), ("kappa_se", "se"), ("kappa_ci_low", "ci_low"),
                         ("kappa_ci_high", "ci_high")):  # fmt: skip
        np.testing.assert_allclose(summary[mine], pairs[theirs], rtol=0, atol=1e-12)
    assert summary["interpretation"].astype(str).tolist() == (
        pairs["interpretation"].astype(str).tolist()
    )
    assert summary["n"].tolist() == pairs["n"].tolist()


def test_a_class_the_judge_never_gives_has_nan_precision_and_one_warning() -> None:
    frame = pd.DataFrame({"judge": ["a", "a", "b", "b", "a"], "gold": ["a", "c", "b", "c", "a"]})
    with pytest.warns(UndefinedKappaWarning, match=r"precision or recall is undefined .* 1 of 3"):
        classes, summary = kf.judge_report(frame, "judge", "gold")
    row = classes.set_index("class").loc["c"]
    assert np.isnan(row["precision"]) and row["recall"] == 0 and row["f1"] == 0
    prec = precision_recall_fscore_support(
        frame["gold"], frame["judge"], average="macro", zero_division=np.nan
    )[0]
    assert summary["precision_macro"].iloc[0] == pytest.approx(prec, abs=1e-12)


def test_missing_labels_are_dropped_pair_by_pair_and_the_frame_is_kept() -> None:
    frame = judged(2)
    before = frame.copy()
    summary = kf.judge_report(frame, "judge", "gold").summary
    pd.testing.assert_frame_equal(frame, before)
    assert summary["n"].iloc[0] == len(both(frame)) < len(frame)


def rogan_gladen(frame: pd.DataFrame, z: float) -> tuple[float, float, float]:
    """By hand: the estimate and its delta-method interval, unclipped.

    Se and Sp from the items with both labels, the judge's share from all it labelled.
    """
    pairs = both(frame)
    y, p = pairs["gold"].to_numpy(), pairs["judge"].to_numpy()
    n_pos, n_neg = int((y == 1).sum()), int((y == 0).sum())
    se = ((p == 1) & (y == 1)).sum() / n_pos
    sp = ((p == 0) & (y == 0)).sum() / n_neg
    judged = frame["judge"].dropna()
    n, q = len(judged), (judged == 1).mean()
    pi = (q + sp - 1) / (se + sp - 1)
    var = q * (1 - q) / n + pi**2 * se * (1 - se) / n_pos + (1 - pi) ** 2 * sp * (1 - sp) / n_neg
    half = z * np.sqrt(var) / (se + sp - 1)
    return pi, pi - half, pi + half


def test_rogan_gladen_is_the_hand_computation() -> None:
    frame = judged(2, n=300)
    frame.loc[frame.index[:100], "gold"] = np.nan  # the judge alone on a third of the items
    row = kf.judge_report(frame, "judge", "gold").summary.iloc[0]
    pi, low, high = rogan_gladen(frame, 1.959963984540054)
    assert row["positive"] == 1.0
    assert row["n_judged"] == frame["judge"].notna().sum() > row["n"]
    assert row["prevalence_observed"] == pytest.approx(
        (frame["judge"].dropna() == 1).mean(), abs=1e-12
    )
    assert 0 < low < pi < high < 1
    assert row["prevalence_corrected"] == pytest.approx(pi, abs=1e-12)
    assert row["prevalence_ci_low"] == pytest.approx(low, abs=1e-9)
    assert row["prevalence_ci_high"] == pytest.approx(high, abs=1e-9)
    assert not row["prevalence_clipped"]


def test_with_gold_on_every_item_the_corrected_prevalence_is_the_gold_rate() -> None:
    frame = both(judged(2))
    summary = kf.judge_report(frame, "judge", "gold").summary
    assert summary["prevalence_corrected"].iloc[0] == pytest.approx(
        (frame["gold"] == 1).mean(), abs=1e-12
    )


def test_an_estimate_outside_0_1_is_clipped_and_said() -> None:
    # With gold: Se = 3/4, Sp = 3/4 (J = 1/2). The judge alone on 12 more items, all "no":
    # p = 4/20 = 0.2 and pi = (0.2 + 0.75 - 1) / 0.5 = -0.1.
    gold = ["yes"] * 4 + ["no"] * 4 + [None] * 12
    judge = ["yes", "yes", "yes", "no"] + ["no", "no", "no", "yes"] + ["no"] * 12
    frame = pd.DataFrame({"judge": judge, "gold": gold})
    pi, low, high = rogan_gladen(
        frame.replace({"yes": 1, "no": 0}).astype(float), 1.959963984540054
    )
    assert pi == pytest.approx(-0.1, abs=1e-12) and low < 0 < high
    row = kf.judge_report(frame, "judge", "gold").summary.iloc[0]
    assert row["positive"] == "yes"
    assert row["prevalence_corrected"] == 0.0 and row["prevalence_ci_low"] == 0.0
    assert row["prevalence_ci_high"] == pytest.approx(high, abs=1e-12)
    assert bool(row["prevalence_clipped"])


def test_a_judge_no_better_than_chance_has_no_corrected_prevalence() -> None:
    frame = pd.DataFrame({"judge": [1, 0, 1, 0], "gold": [0, 1, 1, 0]})  # Se + Sp = 1
    with pytest.warns(UndefinedKappaWarning, match="corrected prevalence is undefined"):
        row = kf.judge_report(frame, "judge", "gold").summary.iloc[0]
    assert np.isnan(row["prevalence_corrected"]) and pd.isna(row["prevalence_clipped"])


def test_more_than_two_classes_have_no_prevalence_columns_filled() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        row = kf.judge_report(judged(4), "judge", "gold").summary.iloc[0]
    assert row["positive"] is None and np.isnan(row["prevalence_corrected"])


def test_the_accessor_is_the_function() -> None:
    frame = judged(2)
    got = frame.kappa.judge_report("judge", "gold", by="group").summary
    pd.testing.assert_frame_equal(got, kf.judge_report(frame, "judge", "gold", by="group").summary)


def test_bad_input_names_the_option() -> None:
    frame = judged(2)
    with pytest.raises(KappaFrameError, match="judge and gold name the same column"):
        kf.judge_report(frame, "gold", "gold")
    with pytest.raises(KappaFrameError, match="ci"):
        kf.judge_report(frame, "judge", "gold", ci=1.5)
    with pytest.raises(KappaFrameError, match="nope"):
        kf.judge_report(frame, "nope", "gold")


def test_a_group_with_no_shared_item_is_nan_and_said_once_per_statistic() -> None:
    frame = pd.DataFrame(
        {"g": ["a", "a", "a", "b"], "judge": [1, 0, 1, np.nan], "gold": [1, 0, 0, 1]}
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        classes, summary = kf.judge_report(frame, "judge", "gold", by="g")
    said = [str(w.message) for w in caught]
    assert all(w.category is UndefinedKappaWarning for w in caught), said
    assert any("precision or recall is undefined (NaN) for 2 of 4" in m for m in said)
    assert any("corrected prevalence is undefined (NaN) for 1 of 2 groups" in m for m in said)
    b = summary.set_index("g").loc["b"]
    assert b["n"] == 0 and b["n_judged"] == 0
    assert np.isnan(b["accuracy"]) and np.isnan(b["accuracy_ci_low"]) and np.isnan(b["kappa"])
    assert classes[classes["g"] == "b"][["precision", "recall", "f1"]].isna().all().all()


def test_a_category_nobody_used_is_a_row_of_its_own() -> None:
    frame = both(judged(2))
    with pytest.warns(UndefinedKappaWarning, match="1 of 3 class x group cells"):
        classes, summary = kf.judge_report(frame, "judge", "gold", categories=[0.0, 1.0, 2.0])
    assert classes["class"].tolist() == [0.0, 1.0, 2.0]
    assert classes["support"].iloc[2] == classes["predicted"].iloc[2] == 0
    want = precision_recall_fscore_support(
        frame["gold"], frame["judge"], labels=[0.0, 1.0, 2.0], average="macro", zero_division=np.nan
    )[:3]
    got = summary[["precision_macro", "recall_macro", "f1_macro"]].iloc[0].tolist()
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert summary["positive"].iloc[0] is None  # three categories: no corrected prevalence


#: Ways in that hold the ratings elsewhere than a pandas frame (polars and LazyFrames run
#: through ``constructor`` above): files read in batches, Dask partitions, DuckDB, Ibis.
ELSEWHERE = ("csv_path", "parquet_path", "dask", "duckdb", "ibis")


def _elsewhere(way: str, frame: pd.DataFrame, tmp_path) -> object:  # type: ignore[no-untyped-def]
    if way == "csv_path":
        frame.to_csv(tmp_path / "judged.csv", index=False)
        return str(tmp_path / "judged.csv")
    if way == "parquet_path":
        pytest.importorskip("pyarrow")
        frame.to_parquet(tmp_path / "judged.parquet")
        return str(tmp_path / "judged.parquet")
    if way == "dask":
        dd = pytest.importorskip("dask.dataframe")
        return dd.from_pandas(frame, npartitions=3)
    if way == "duckdb":
        duckdb = pytest.importorskip("duckdb")
        return duckdb.from_df(frame)
    ibis = pytest.importorskip("ibis")
    return ibis.memtable(frame)


@pytest.mark.parametrize("way", ELSEWHERE)
def test_every_way_in_gives_the_frames_numbers(way: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    letters = {0.0: "a", 1.0: "b", 2.0: "c"}  # text labels: a CSV file reads them as written
    frame = judged(3).assign(
        judge=lambda f: f["judge"].map(letters), gold=lambda f: f["gold"].map(letters)
    )
    want_classes, want_summary = kf.judge_report(frame, "judge", "gold", by="group")
    got_classes, got_summary = kf.judge_report(
        _elsewhere(way, frame, tmp_path), "judge", "gold", by="group"
    )
    got_classes, got_summary = (
        to_pandas(t.compute() if hasattr(t, "compute") else t) for t in (got_classes, got_summary)
    )
    pd.testing.assert_frame_equal(
        got_classes.reset_index(drop=True), want_classes, check_dtype=False, rtol=1e-12
    )
    numbers = [c for c in want_summary.columns if want_summary[c].dtype.kind == "f"]
    np.testing.assert_allclose(
        got_summary[numbers].to_numpy(float), want_summary[numbers].to_numpy(float), atol=1e-12
    )


def test_the_band_is_pairwises_too_few_items_included() -> None:
    frame = judged(2, n=14, seed=5)  # about 6 items a group: fewer than 10
    _, summary = kf.judge_report(frame, "judge", "gold", by="group")
    want = kf.pairwise(frame, ["judge"], reference="gold", by="group")
    assert summary["interpretation"].astype(str).tolist() == (
        want["interpretation"].astype(str).tolist()
    )
    assert "too few items" in summary["interpretation"].astype(str).tolist()
