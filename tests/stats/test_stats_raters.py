"""raters() and per_category(): the questions a labeling lead asks, on every backend."""

from __future__ import annotations

import warnings
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

from ..conftest import native_type_matches, to_pandas

RATER_COLUMNS = [
    "rater",
    "n_items",
    "mean_kappa",
    "median_kappa",
    "min_kappa",
    "min_kappa_with",
    "label_shift",
    "overused",
    "overused_share",
    "others_share",
]


def review_team(rng: np.random.Generator, n: int = 300) -> pd.DataFrame:
    """Four reviewers: two careful ones, one who passes everything, one twice as strict."""
    truth = rng.choice(["pass", "fail"], n, p=[0.8, 0.2])
    careful = [np.where(rng.random(n) < 0.9, truth, rng.choice(["pass", "fail"], n)) for _ in "ab"]
    lenient = np.where(rng.random(n) < 0.9, "pass", truth)
    flip = (truth == "pass") & (rng.random(n) < 0.25)
    strict = np.where(flip, "fail", truth)
    df = pd.DataFrame({"ann": careful[0], "bob": careful[1], "cat": lenient, "dan": strict})
    df = df.astype(object)
    df.loc[rng.random(n) < 0.1, "bob"] = None
    df["project"] = rng.choice(["x", "y"], n)
    return df


def test_raters_summary_matches_pairwise(constructor: Any, rng: np.random.Generator) -> None:
    df = review_team(rng)
    raters = ["ann", "bob", "cat", "dan"]
    frame = constructor(df.to_dict("list"))
    res = frame.kappa.raters(raters, by="project")
    assert native_type_matches(res, frame)
    out = to_pandas(res)
    assert list(out.columns) == ["project", *RATER_COLUMNS]
    assert list(out["rater"]) == raters * 2
    pairs = df.kappa.pairwise(raters, by="project")
    for (project, rater), row in out.set_index(["project", "rater"]).iterrows():
        mine = pairs[
            (pairs["project"] == project)
            & ((pairs["rater_a"] == rater) | (pairs["rater_b"] == rater))
        ]
        assert row["mean_kappa"] == pytest.approx(mine["kappa"].mean(), abs=1e-12)
        assert row["median_kappa"] == pytest.approx(mine["kappa"].median(), abs=1e-12)
        assert row["min_kappa"] == pytest.approx(mine["kappa"].min(), abs=1e-12)
        worst = mine.loc[mine["kappa"].idxmin()]
        partner = worst["rater_b"] if worst["rater_a"] == rater else worst["rater_a"]
        assert row["min_kappa_with"] == partner
        sub = df[df["project"] == project]
        assert row["n_items"] == sub[rater].notna().sum()


def test_raters_finds_the_lenient_and_the_strict_one(rng: np.random.Generator) -> None:
    res = review_team(rng, 2000).kappa.raters(["ann", "bob", "cat", "dan"]).set_index("rater")
    assert res.loc["cat", "overused"] == "pass"
    assert res.loc["dan", "overused"] == "fail"
    # dan says "fail" about twice as often as his colleagues on the same items
    ratio = res.loc["dan", "overused_share"] / res.loc["dan", "others_share"]
    assert 1.6 < ratio < 2.6
    assert res["label_shift"].idxmax() in {"cat", "dan"}


def test_label_shift_by_hand() -> None:
    df = pd.DataFrame(
        {
            "a": ["y", "y", "y", "n"],
            "b": ["y", "n", "n", "n"],
            "c": ["y", None, "n", "n"],
        }
    )
    res = df.kappa.raters().set_index("rater")
    # a's labels, once per colleague and shared item: with b (4 items) y,y,y,n; with c
    # (3 items) y,y,n -> y 5/7. Colleagues' labels on those items: b y,n,n,n and c y,n,n
    # -> y 2/7. Shift = |5/7 - 2/7| = 3/7.
    assert res.loc["a", "label_shift"] == pytest.approx(3 / 7, abs=1e-12)
    assert res.loc["a", "overused"] == "y"
    assert res.loc["a", "overused_share"] == pytest.approx(5 / 7, abs=1e-12)
    assert res.loc["a", "others_share"] == pytest.approx(2 / 7, abs=1e-12)
    assert res.loc["c", "n_items"] == 3
    # b and c agree on the two items they share with a and each other: no over-use
    same = pd.DataFrame({"a": ["y", "n"], "b": ["y", "n"]}).kappa.raters()
    assert same["label_shift"].tolist() == [0.0, 0.0]
    assert same["overused"].isna().all()


def test_raters_with_nobody_to_compare() -> None:
    df = pd.DataFrame({"a": ["y", "n", None], "b": [None, None, "y"], "c": ["y", "n", "y"]})
    with pytest.warns(kf.UndefinedKappaWarning):
        res = df.kappa.raters().set_index("rater")
    # a and b share no item: a's only defined partner is c
    assert res.loc["a", "min_kappa_with"] == "c"
    assert res.loc["b", "n_items"] == 1
    assert np.isnan(res.loc["b", "mean_kappa"])  # b vs c: one shared item, undefined
    assert res.loc["b", "min_kappa_with"] is None or pd.isna(res.loc["b", "min_kappa_with"])


# --------------------------------------------------------------------- per category


def fleiss_1971() -> pd.DataFrame:
    diagnoses = pytest.importorskip("statsmodels.stats.tests.test_inter_rater").diagnoses
    return pd.DataFrame(diagnoses, columns=[f"psy{i}" for i in range(1, 7)])


def test_fleiss_per_category_published_values() -> None:
    # R's irr::kappam.fleiss(diagnoses, detail = TRUE): kappa .245 .245 .520 .471 .566,
    # z 5.192 5.192 11.031 9.994 12.009.
    res = fleiss_1971().kappa.per_category(ci=0.95)
    assert [round(v, 3) for v in res["kappa"]] == [0.245, 0.245, 0.520, 0.471, 0.566]
    assert [round(v, 3) for v in res["z"]] == [5.192, 5.192, 11.031, 9.994, 12.009]
    assert list(res["category"]) == [1, 2, 3, 4, 5]
    # per category = Fleiss' kappa of the data collapsed to "this category or not"
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    data = fleiss_1971().to_numpy()
    for category, value in zip(res["category"], res["kappa"], strict=True):
        counts = inter_rater.aggregate_raters((data == category).astype(int), n_cat=2)[0]
        assert value == pytest.approx(inter_rater.fleiss_kappa(counts), abs=1e-12)


def test_cohen_per_category_is_the_collapsed_pairwise_kappa(
    constructor: Any, rng: np.random.Generator
) -> None:
    df = review_team(rng)
    df["ann"] = np.where(rng.random(len(df)) < 0.1, "unsure", df["ann"])
    frame = constructor(df.to_dict("list"))
    # nobody but ann says "unsure": that category is undefined for the pair bob-dan, and
    # its standard error for ann's pairs (bob and dan used one category of the two: no se)
    with pytest.warns(kf.UndefinedKappaWarning) as caught:
        res = frame.kappa.per_category(["ann", "bob", "dan"], method="cohen", by="project", ci=0.9)
    said = [str(w.message) for w in caught]
    assert len(said) == 2 and "for 2 of 18 rows" in said[0]
    assert "for 4 of 18 rows: where a rater used one category only" in said[1]
    assert native_type_matches(res, frame)
    out = to_pandas(res)
    assert list(out.columns) == [
        "project",
        "rater_a",
        "rater_b",
        "category",
        "n",
        "p_o",
        "p_e",
        "kappa",
        "interpretation",
        "se",
        "se0",
        "ci_low",
        "ci_high",
        "z",
        "p_value",
    ]
    categories = ["fail", "pass", "unsure"]
    assert list(out["category"][:3]) == categories
    for project in ["x", "y"]:
        sub = df[df["project"] == project]
        for a, b in combinations(["ann", "bob", "dan"], 2):
            for cat in categories:
                row = out[
                    (out["project"] == project)
                    & (out["rater_a"] == a)
                    & (out["rater_b"] == b)
                    & (out["category"] == cat)
                ].iloc[0]
                both = sub[[a, b]].dropna()
                binary = (both == cat).astype(int)
                if np.isnan(row["kappa"]):
                    assert not (binary == 1).any().any()
                    continue
                with warnings.catch_warnings():  # said above: a rater with one category
                    warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
                    expected = binary.kappa.pairwise(categories=[1, 0], ci=0.9)
                assert row["kappa"] == pytest.approx(expected["kappa"].iloc[0], abs=1e-12)
                se = expected["se"].iloc[0]
                assert row["se"] == pytest.approx(se, abs=1e-12, nan_ok=True)
                assert np.isnan(se) == (binary.min() == binary.max()).any()
                assert row["n"] == len(both)


def test_fleiss_per_category_on_every_backend(constructor: Any, rng: np.random.Generator) -> None:
    df = review_team(rng)
    frame = constructor(df.to_dict("list"))
    res = to_pandas(frame.kappa.per_category(["ann", "bob", "cat", "dan"], by="project"))
    assert list(res.columns) == [
        "project",
        "category",
        "n_items",
        "p_o",
        "p_e",
        "kappa",
        "interpretation",
    ]
    expected = df.kappa.per_category(["ann", "bob", "cat", "dan"], by="project")
    np.testing.assert_allclose(res["kappa"], expected["kappa"], rtol=0, atol=1e-12)
    # two categories: each one against the rest is the whole Fleiss' kappa
    whole = df.kappa.overall(["ann", "bob", "cat", "dan"], by="project")
    np.testing.assert_allclose(expected["kappa"][::2], whole["value"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(expected["kappa"][1::2], whole["value"], rtol=0, atol=1e-12)


def test_per_category_errors(rng: np.random.Generator) -> None:
    df = review_team(rng, 40)
    with pytest.raises(kf.KappaFrameError, match="method must be one of"):
        df.kappa.per_category(["ann", "bob"], method="scott")
    with pytest.raises(kf.KappaFrameError, match="name of an output column"):
        df.rename(columns={"project": "category"}).kappa.per_category(["ann", "bob"], by="category")


def crowd(rng: np.random.Generator) -> pd.DataFrame:
    """Up to 1500 workers, 1000 items, 3 labels per item: the sparse (crowd) counting path."""
    n_items, n_workers = 1000, 1500
    truth = rng.choice(["cat", "dog"], n_items)
    items = np.repeat(np.arange(n_items), 3)
    workers = np.concatenate([rng.choice(n_workers, 3, replace=False) for _ in range(n_items)])
    labels = np.where(
        rng.random(len(items)) < 0.8, truth[items], rng.choice(["cat", "dog"], len(items))
    )
    return pd.DataFrame({"item": items, "worker": workers, "label": labels})


def test_raters_on_the_crowd_path(rng: np.random.Generator) -> None:
    df = crowd(rng)
    long = {"item": "item", "rater": "worker", "label": "label"}
    with pytest.warns(kf.UndefinedKappaWarning):
        res = df.kappa.raters(**long).set_index("rater")
    assert len(res) == df["worker"].nunique()
    assert res["n_items"].sum() == len(df)
    with pytest.warns(kf.UndefinedKappaWarning):
        pairs = df.kappa.pairwise(**long, min_overlap=1)
    some = pairs[pairs["kappa"].notna()]
    worker = int(some["rater_a"].iloc[0])
    mine = some[(some["rater_a"] == worker) | (some["rater_b"] == worker)]
    assert res.loc[worker, "mean_kappa"] == pytest.approx(mine["kappa"].mean(), abs=1e-12)
    with pytest.raises(kf.KappaFrameError, match="counted per rater pair"):
        df.kappa.overall(**long)
