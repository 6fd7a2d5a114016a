"""Numbers against scikit-learn and statsmodels, to 1e-12 (1e-10 for standard errors)."""

from __future__ import annotations

import warnings
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kappaframe as kf

sklearn_metrics = pytest.importorskip("sklearn.metrics")
inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")

WEIGHTS = [None, "linear", "quadratic"]


@st.composite
def rating_frames(draw: st.DrawFn) -> tuple[pd.DataFrame, list[str], list[Any]]:
    """A wide frame: 2-4 raters, 1-40 items, a random category set, missing labels, groups."""
    n_raters = draw(st.integers(2, 4))
    n_items = draw(st.integers(1, 40))
    n_cats = draw(st.integers(1, 5))
    cats = sorted(draw(st.sets(st.integers(-5, 20), min_size=n_cats, max_size=n_cats)))
    seed = draw(st.integers(0, 2**32 - 1))
    missing = draw(st.sampled_from([0.0, 0.1, 0.4]))
    n_groups = draw(st.integers(1, 3))
    rng = np.random.default_rng(seed)
    truth = rng.choice(cats, n_items)
    data: dict[str, Any] = {}
    raters = [f"r{i}" for i in range(n_raters)]
    for r in raters:
        noisy = np.where(rng.random(n_items) < 0.6, truth, rng.choice(cats, n_items)).astype(float)
        noisy[rng.random(n_items) < missing] = np.nan
        data[r] = noisy
    data["g"] = rng.integers(0, n_groups, n_items)
    return pd.DataFrame(data), raters, cats


def sklearn_pair(a: np.ndarray, b: np.ndarray, labels: list[Any], weights: Any) -> float:
    keep = ~(np.isnan(a) | np.isnan(b))
    if not keep.any():
        return np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(
            sklearn_metrics.cohen_kappa_score(a[keep], b[keep], labels=labels, weights=weights)
        )


@pytest.mark.parametrize("weights", WEIGHTS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=rating_frames())
def test_pairwise_matches_sklearn(
    case: tuple[pd.DataFrame, list[str], list[Any]], weights: Any
) -> None:
    df, raters, _ = case
    labels = sorted(set(np.unique(df[raters].to_numpy()[~np.isnan(df[raters].to_numpy())])))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        res = df.kappa.pairwise(raters, by="g", weights=weights)
    rows = iter(res.itertuples(index=False))
    for g in sorted(df["g"].unique()):
        sub = df[df["g"] == g]
        for a, b in combinations(raters, 2):
            row = next(rows)
            assert (row.g, row.rater_a, row.rater_b) == (g, a, b)
            va, vb = sub[a].to_numpy(), sub[b].to_numpy()
            both = ~(np.isnan(va) | np.isnan(vb))
            assert row.n == both.sum()
            expected = sklearn_pair(va, vb, labels, weights)
            if np.isnan(expected):
                assert np.isnan(row.kappa)
            else:
                assert row.kappa == pytest.approx(expected, abs=1e-12, rel=0)
                assert (row.p_o - row.p_e) / (1 - row.p_e) == pytest.approx(row.kappa, abs=1e-12)
    with pytest.raises(StopIteration):
        next(rows)


@pytest.mark.parametrize("weights", WEIGHTS)
@settings(max_examples=80, deadline=None)
@given(
    y=st.lists(
        st.tuples(st.sampled_from("abcde"), st.sampled_from("abcde")), min_size=1, max_size=60
    ),
    w=st.lists(st.floats(0.1, 5.0), min_size=60, max_size=60),
)
def test_cohen_kappa_is_a_drop_in(y: list[tuple[str, str]], w: list[float], weights: Any) -> None:
    y1 = [a for a, _ in y]
    y2 = [b for _, b in y]
    sw = np.asarray(w[: len(y)])
    # scikit-learn sorts the labels; the order weights use is named here (kappaframe
    # refuses to sort text for weights: see test_weights_on_text_labels_need_an_order).
    labels = sorted(set(y1) | set(y2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = sklearn_metrics.cohen_kappa_score(y1, y2, weights=weights, labels=labels)
        expected_w = sklearn_metrics.cohen_kappa_score(
            y1, y2, weights=weights, labels=labels, sample_weight=sw
        )
        ours = kf.cohen_kappa(y1, y2, weights=weights, labels=labels)
        ours_w = kf.cohen_kappa(y1, y2, weights=weights, labels=labels, sample_weight=sw)
    for got, want in ((ours, expected), (ours_w, expected_w)):
        if np.isnan(want):
            assert np.isnan(got)
        else:
            assert got == pytest.approx(want, abs=1e-12, rel=0)


def test_cohen_kappa_replace_undefined_by() -> None:
    assert kf.cohen_kappa(["a", "a"], ["a", "a"], replace_undefined_by=0.0) == 0.0
    with pytest.warns(kf.UndefinedKappaWarning, match="chance agreement is 1"):
        assert np.isnan(kf.cohen_kappa(["a", "a"], ["a", "a"]))


def random_table(rng: np.random.Generator, k: int) -> np.ndarray:
    base = rng.integers(0, 30, (k, k))
    return base + np.diag(rng.integers(5, 60, k))


def frame_from_table(table: np.ndarray) -> pd.DataFrame:
    a, b = [], []
    for (i, j), count in np.ndenumerate(table):
        a += [i] * int(count)
        b += [j] * int(count)
    return pd.DataFrame({"a": a, "b": b})


@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("weights", WEIGHTS)
def test_standard_errors_match_statsmodels(k: int, weights: Any, rng: np.random.Generator) -> None:
    for _ in range(5):
        table = random_table(rng, k)
        df = frame_from_table(table)
        res = df.kappa.pairwise(weights=weights, ci=0.95).iloc[0]
        if weights is None:
            sm = inter_rater.cohens_kappa(table)
        else:
            i = np.arange(k, dtype=float)
            w = np.abs(i[:, None] - i[None, :]) / (k - 1)
            sm = inter_rater.cohens_kappa(table, weights=w if weights == "linear" else w**2)
        assert res["kappa"] == pytest.approx(sm.kappa, abs=1e-12)
        assert res["se"] == pytest.approx(sm.std_kappa, abs=1e-10)
        assert res["z"] == pytest.approx(sm.z_value, abs=1e-10)
        assert res["p_value"] == pytest.approx(sm.pvalue_two_sided, abs=1e-10)
        assert res["ci_low"] == pytest.approx(max(sm.kappa_low, -1.0), abs=1e-10)
        assert res["ci_high"] == pytest.approx(min(sm.kappa_upp, 1.0), abs=1e-10)


def test_interval_is_clipped() -> None:
    df = frame_from_table(np.array([[3, 0], [0, 2]]))
    res = df.kappa.pairwise(ci=0.99).iloc[0]
    assert res["kappa"] == 1.0
    assert res["ci_high"] == 1.0
    df = frame_from_table(np.array([[1, 1], [1, 1]]))
    res = df.kappa.pairwise(ci=0.999).iloc[0]
    assert res["ci_low"] >= -1.0


def test_weights_on_text_labels_need_an_order() -> None:
    """scikit-learn sorts text labels for weights; the drop-in asks for labels= instead."""
    y1, y2 = ["low", "mid", "high", "high"], ["low", "high", "high", "mid"]
    with pytest.raises(kf.KappaFrameError, match=r"labels=\[\.\.\.\] listing every label"):
        kf.cohen_kappa(y1, y2, weights="linear")
    ordered = kf.cohen_kappa(y1, y2, weights="linear", labels=["low", "mid", "high"])
    want = sklearn_metrics.cohen_kappa_score(
        y1, y2, weights="linear", labels=["low", "mid", "high"]
    )
    assert ordered == pytest.approx(want, abs=1e-12, rel=0)
    # Unweighted kappa, and two labels under any named weights, need no order.
    assert kf.cohen_kappa(y1, y2) == pytest.approx(sklearn_metrics.cohen_kappa_score(y1, y2))
    yes_no = (["y", "n", "y", "y"], ["y", "n", "n", "y"])
    assert kf.cohen_kappa(*yes_no, weights="quadratic") == pytest.approx(
        sklearn_metrics.cohen_kappa_score(*yes_no), abs=1e-12
    )
