"""Counts: additive pair counts, their serialised cells, and the many-categories path."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

import kappaframe as kf
from kappaframe._count import diagonal as _diagonal
from kappaframe._count import kernel as _kernel
from kappaframe._count.diagonal import DiagonalCounts

from ..conftest import to_pandas

#: The labels of :func:`team`, in order (their sorted order is another).
GRADES = ["bad", "ok", "good"]


def team(rng: np.random.Generator, n: int = 400) -> dict[str, Any]:
    truth = rng.choice(["bad", "ok", "good"], n)
    data: dict[str, Any] = {"project": rng.choice(["beta", "alpha", "gamma"], n)}
    for name, skill in [("ann1", 0.9), ("ann2", 0.7), ("ann3", 0.4)]:
        labels = np.where(rng.random(n) < skill, truth, rng.choice(["bad", "ok", "good"], n))
        labels = labels.astype(object)
        labels[rng.random(n) < 0.1] = None
        data[name] = labels
    return data


def quietly(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        return fn(*args, **kwargs)


def test_counts_finalise_like_pairwise(constructor: Any, rng: np.random.Generator) -> None:
    frame = constructor(team(rng))
    options = {"by": "project", "weights": "quadratic", "ci": 0.9, "categories": GRADES}
    counts = frame.kappa.counts(by="project", categories=GRADES)
    assert isinstance(counts, kf.Counts)
    expected = to_pandas(frame.kappa.pairwise(**options))
    got = counts.pairwise(weights="quadratic", ci=0.9)
    assert type(got) is type(frame.kappa.pairwise(by="project"))
    pd.testing.assert_frame_equal(to_pandas(got), expected, check_exact=False, atol=1e-12, rtol=0)
    matrix = to_pandas(counts.matrix(stat="p_o"))
    expected_matrix = to_pandas(frame.kappa.matrix(by="project", stat="p_o"))
    pd.testing.assert_frame_equal(matrix, expected_matrix)


def test_counts_add_up_over_parts(rng: np.random.Generator) -> None:
    df = pd.DataFrame(team(rng))
    whole = kf.counts(df, by="project")
    # uneven parts: one lacks a project, one lacks the label "good"
    first = df[df["project"] != "gamma"].iloc[:50]
    rest = df.drop(first.index)
    no_good = rest[~rest[["ann1", "ann2", "ann3"]].isin(["good"]).any(axis=1)]
    parts = [first, no_good, rest.drop(no_good.index)]
    counts = [kf.counts(p, by="project") for p in parts]
    assert counts[1].categories == ["bad", "ok"]
    total = sum(counts)
    assert total == whole
    assert counts[0] + counts[1] + counts[2] == whole
    pd.testing.assert_frame_equal(total.pairwise(), kf.pairwise(df, by="project"))


def test_counts_add_up_in_the_long_layout(rng: np.random.Generator) -> None:
    df = pd.DataFrame(team(rng)).reset_index(names="item")
    long = df.melt(id_vars=["item", "project"], var_name="who", value_name="label")
    opts = {"item": "item", "rater": "who", "label": "label", "by": "project"}
    halves = [long[long["item"] < 150], long[long["item"] >= 150]]
    total = sum(kf.counts(h, **opts) for h in halves)
    assert total == kf.counts(long, **opts)
    pd.testing.assert_frame_equal(total.pairwise(), kf.pairwise(long, **opts))


def test_cells_round_trip(constructor: Any, rng: np.random.Generator) -> None:
    frame = constructor(team(rng))
    counts = kf.counts(frame, by="project", categories=GRADES)
    cells = counts.to_frame()
    assert list(to_pandas(cells).columns) == [
        "project",
        "rater_a",
        "rater_b",
        "label_a",
        "label_b",
        "count",
        "rater_a_index",
        "rater_b_index",
        "label_a_index",
        "label_b_index",
    ]
    back = kf.Counts.from_frame(cells, by="project")  # the cells carry the orders
    assert back == counts
    pd.testing.assert_frame_equal(
        to_pandas(back.pairwise(weights="linear")),
        to_pandas(frame.kappa.pairwise(by="project", weights="linear", categories=GRADES)),
    )


def test_stored_counts_of_unordered_text_still_refuse_weights(
    constructor: Any, rng: np.random.Generator
) -> None:
    """Sorted text stored as positions is not a declared order: weights still ask for one."""
    counts = kf.counts(constructor(team(rng)), by="project")
    assert counts.categories == sorted(GRADES)
    back = kf.Counts.from_frame(counts.to_frame(), by="project")
    for stored in (counts, back):
        with pytest.raises(kf.KappaFrameError, match="needs the order of the categories"):
            stored.pairwise(weights="linear")
    unweighted = back.pairwise()  # no order needed: the same numbers
    pd.testing.assert_frame_equal(to_pandas(unweighted), to_pandas(counts.pairwise()))


def test_cells_from_a_group_and_count_job(rng: np.random.Generator) -> None:
    """What a SQL or Spark job produces: a self-join on item, grouped and counted."""
    df = pd.DataFrame(team(rng)).reset_index(names="item")
    long = df.melt(id_vars=["item", "project"], var_name="rater", value_name="label").dropna()
    joined = long.merge(long, on=["project", "item"], suffixes=("_a", "_b"))
    joined = joined[joined["rater_a"] <= joined["rater_b"]]
    cells = (
        joined.groupby(["project", "rater_a", "rater_b", "label_a", "label_b"])
        .size()
        .rename("count")
        .reset_index()
        .sample(frac=1.0, random_state=3)  # any row order
    )
    counts = kf.Counts.from_frame(cells, by="project")
    options = {"ci": 0.95, "stats": ["pabak", "gwet_ac1"], "reference": "ann1"}
    expected = kf.pairwise(df, ["ann1", "ann2", "ann3"], by="project", **options)
    pd.testing.assert_frame_equal(counts.pairwise(**options), expected, atol=1e-12, rtol=0)
    pd.testing.assert_frame_equal(
        counts.matrix(), kf.matrix(df, ["ann1", "ann2", "ann3"], by="project")
    )


def test_cells_either_way_round_and_repeated() -> None:
    cells = pd.DataFrame(
        {
            "rater_a": ["x", "y", "x", "x"],
            "rater_b": ["y", "x", "y", "y"],
            "label_a": [1, 2, 2, 1],
            "label_b": [1, 1, 2, 1],
            "count": [3, 1, 4, 2],
        }
    )
    counts = kf.Counts.from_frame(cells)
    assert counts.tables[0, 0].tolist() == [[5, 1], [0, 4]]  # (y=2, x=1) is x=1, y=2
    with pytest.raises(kf.KappaFrameError, match="own label counts"):
        counts.matrix()


def test_cells_errors() -> None:
    cells = pd.DataFrame(
        {"rater_a": ["x"], "rater_b": ["y"], "label_a": [1], "label_b": [1], "count": [-1]}
    )
    with pytest.raises(kf.KappaFrameError, match="non-negative"):
        kf.Counts.from_frame(cells)
    with pytest.raises(kf.KappaFrameError, match="cell column not found: 'count'"):
        kf.Counts.from_frame(cells.drop(columns="count"))
    with pytest.raises(kf.KappaFrameError, match="does not list"):
        kf.Counts.from_frame(cells.assign(count=1), raters=["x"])


def test_adding_mismatched_counts_is_an_error() -> None:
    a = kf.counts(pd.DataFrame({"g": [1, 2], "r1": [0, 1], "r2": [0, 1]}), by="g")
    b = kf.counts(pd.DataFrame({"r1": [0, 1], "r2": [0, 1]}))
    with pytest.raises(kf.KappaFrameError, match="grouped by"):
        a + b
    low = pd.Categorical(["lo", "hi"], categories=["lo", "hi"], ordered=True)
    high = pd.Categorical(["hi", "lo"], categories=["hi", "lo"], ordered=True)
    c = kf.counts(pd.DataFrame({"r1": low, "r2": low}))
    d = kf.counts(pd.DataFrame({"r1": high, "r2": high}))
    with pytest.raises(kf.KappaFrameError, match="category orders disagree"):
        c + d


# ----------------------------------------------------------- many categories
def many_labels(rng: np.random.Generator, k: int = 60, n: int = 3000) -> pd.DataFrame:
    truth = rng.integers(0, k, n)
    data = {"g": rng.choice(["x", "y"], n)}
    for r in range(3):
        noise = rng.integers(-2, 3, n) * (rng.random(n) < 0.5)
        data[f"r{r}"] = np.clip(truth + noise, 0, k - 1).astype(float)
        data[f"r{r}"][rng.random(n) < 0.05] = np.nan
    return pd.DataFrame(data)


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_many_categories_use_the_diagonal(
    rng: np.random.Generator, monkeypatch: pytest.MonkeyPatch, weights: str | None
) -> None:
    df = many_labels(rng)
    cats = list(np.arange(60.0))
    allocated: list[tuple[int, ...]] = []
    real = _kernel.pair_counts

    def spy(*args: Any, **kwargs: Any) -> np.ndarray:
        out = real(*args, **kwargs)
        allocated.append(out.shape)
        return out

    monkeypatch.setattr("kappaframe._api.prepare.pair_counts", spy)
    res = kf.pairwise(df, by="g", weights=weights, categories=cats)
    assert allocated == []  # no pairs x groups x K^2 tables
    monkeypatch.setattr(_diagonal, "DIAGONAL_MIN_CATEGORIES", 10_000)
    full = kf.pairwise(df, by="g", weights=weights, categories=cats)
    assert allocated  # the full tables this time
    pd.testing.assert_frame_equal(res, full, check_exact=False, rtol=0, atol=1e-12)
    part = df[df["g"] == "x"].dropna(subset=["r0", "r2"])
    expected = cohen_kappa_score(part["r0"], part["r2"], labels=cats, weights=weights)
    assert res["kappa"].iloc[1] == pytest.approx(expected, abs=1e-12)


def test_diagonal_sums_match_the_tables(rng: np.random.Generator) -> None:
    codes = rng.integers(-1, 7, (4, 500)).astype(np.int8)
    groups = rng.integers(0, 3, 500)
    pairs = [(0, 1), (2, 3), (1, 1), (3, 0)]
    tables = _kernel.pair_counts(codes, pairs, 7, groups, 3)
    diag = DiagonalCounts.from_sums(_kernel.diagonal_counts(codes, pairs, 7, groups, 3))
    read = DiagonalCounts.from_tables(tables)
    for name in DiagonalCounts.__dataclass_fields__:
        np.testing.assert_array_equal(getattr(diag, name), getattr(read, name))


def test_custom_weights_with_too_many_categories_say_what_to_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_kernel, "MAX_COUNT_BYTES", 1000)
    df = pd.DataFrame({"a": np.arange(40.0), "b": np.arange(40.0)})
    w = 1 - np.eye(40)
    with pytest.raises(kf.KappaFrameError, match="custom weights matrix needs the full K x K"):
        kf.pairwise(df, ["a", "b"], weights=w)
    with pytest.raises(kf.KappaFrameError, match=r"ci= \(standard errors\) needs the full"):
        kf.pairwise(df, ["a", "b"], ci=0.95)
    res = kf.pairwise(df, ["a", "b"], weights="linear")  # the diagonal path needs no table
    assert res["kappa"].iloc[0] == 1.0


def test_counts_keep_the_diagonal_when_tables_would_be_large(
    rng: np.random.Generator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_diagonal, "FULL_TABLE_BYTES", 10_000)
    df = many_labels(rng)
    cats = list(np.arange(60.0))
    halves = [df.iloc[:1000], df.iloc[1000:]]
    counts = sum(kf.counts(h, by="g", categories=cats) for h in halves)
    assert counts.diagonal and counts == kf.counts(df, by="g", categories=cats)
    for weights in (None, "linear", "quadratic"):
        pd.testing.assert_frame_equal(
            counts.pairwise(weights=weights),
            kf.pairwise(df, by="g", weights=weights, categories=cats),
            check_exact=False,
            rtol=0,
            atol=1e-12,
        )
    pd.testing.assert_frame_equal(counts.matrix(), kf.matrix(df, by="g", categories=cats))
    with pytest.raises(kf.KappaFrameError, match=r"ci=, stats= and a custom weights matrix"):
        counts.pairwise(ci=0.95)
    with pytest.raises(kf.KappaFrameError, match="no cells to write"):
        counts.to_frame()
    # parts over different category sets cannot be added in this form
    with pytest.raises(kf.KappaFrameError, match="same categories="):
        kf.counts(df[df["r0"] < 30], by="g") + kf.counts(df[df["r0"] >= 30], by="g")


def test_fractional_counts_refuse_the_bootstrap_which_resamples_whole_items() -> None:
    counts = kf.Counts.from_table([[2.5, 1.0], [0.5, 3.0]])
    analytic = counts.pairwise(ci=0.95)
    assert analytic["se"].notna().all()
    with pytest.raises(kf.KappaFrameError, match="resamples whole items"):
        counts.pairwise(ci=0.95, ci_method="bootstrap", n_boot=200, seed=1)
    cells = counts.to_frame()
    with pytest.raises(kf.KappaFrameError, match="resamples whole items"):
        kf.Counts.from_frame(cells).pairwise(ci=0.95, ci_method="bootstrap", n_boot=200)
