"""The crowd path: sparse co-rating pair counts for the long layout, and min_overlap."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

import kappaframe as kf
from kappaframe._api.plan import adapt, prepare
from kappaframe._api.settings.reading import ReadSpec
from kappaframe._count import crowd as _crowd

from ..conftest import to_pandas

DATA = Path(__file__).parents[3] / "shared" / "data"
ANSWERS = sorted(DATA.glob("*_answers.csv")) if DATA.is_dir() else []


def crowd(rng: np.random.Generator, n_items: int = 150, n_raters: int = 12) -> dict[str, Any]:
    """Each item rated by 2-6 of the raters; some labels missing; two projects."""
    rows: dict[str, list[Any]] = {"item": [], "worker": [], "label": [], "project": []}
    for item in range(n_items):
        project = "beta" if item % 3 else "alpha"
        truth = rng.choice(["a", "b", "c"])
        for worker in rng.choice(n_raters, rng.integers(2, 7), replace=False):
            label = truth if rng.random() < 0.6 else rng.choice(["a", "b", "c"])
            rows["item"].append(item)
            rows["worker"].append(f"w{worker:02d}")
            rows["label"].append(None if rng.random() < 0.05 else label)
            rows["project"].append(project)
    return rows


@pytest.fixture
def sparse_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Count every long-layout input the crowd way."""
    monkeypatch.setattr(_crowd, "use_crowd", lambda *args: True)


LONG = {"item": "item", "rater": "worker", "label": "label"}


def quietly(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """``fn(...)`` as a pandas frame, without undefined-kappa warnings (a plan is collected)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        return to_pandas(fn(*args, **kwargs))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"by": "project", "weights": "linear", "ci": 0.95, "categories": ["a", "b", "c"]},
        {"weights": "quadratic", "categories": ["a", "b", "c"]},
        {
            "weights": [[0, 1, 3], [1, 0, 1], [3, 1, 0]],
            "by": "project",
            "categories": ["c", "b", "a"],
        },
        {"min_overlap": 4, "by": "project"},
        {"raters": ["w03", "w01", "w07"]},
    ],
)
def test_crowd_equals_dense(
    constructor: Any,
    rng: np.random.Generator,
    monkeypatch: pytest.MonkeyPatch,
    options: dict[str, Any],
) -> None:
    frame = constructor(crowd(rng))
    dense = quietly(kf.pairwise, frame, **LONG, **options)
    monkeypatch.setattr(_crowd, "use_crowd", lambda *args: True)
    sparse = quietly(kf.pairwise, frame, **LONG, **options)
    pd.testing.assert_frame_equal(sparse, dense, check_exact=False, rtol=0, atol=1e-12)


@pytest.mark.parametrize("stat", ["kappa", "n", "p_e"])
def test_crowd_matrix_equals_dense(
    rng: np.random.Generator, monkeypatch: pytest.MonkeyPatch, stat: str
) -> None:
    df = pd.DataFrame(crowd(rng))
    dense = quietly(kf.matrix, df, **LONG, by="project", stat=stat, min_overlap=3)
    monkeypatch.setattr(_crowd, "use_crowd", lambda *args: True)
    sparse = quietly(kf.matrix, df, **LONG, by="project", stat=stat, min_overlap=3)
    pd.testing.assert_frame_equal(sparse, dense, check_exact=False, rtol=0, atol=1e-12)


def test_crowd_is_chosen_for_a_large_sparse_crowd(rng: np.random.Generator) -> None:
    # 3,000 raters x 2,000 items, 4 ratings per item: 6 million cells, 12,000 pairs of ratings.
    n_items, per_item = 2000, 4
    workers = np.concatenate([rng.choice(3000, per_item, replace=False) for _ in range(n_items)])
    df = pd.DataFrame(
        {
            "item": np.repeat(np.arange(n_items), per_item),
            "worker": workers,
            "label": rng.integers(0, 3, n_items * per_item),
        }
    )
    prep = prepare(adapt(df), None, ReadSpec(**LONG))
    assert isinstance(prep.source, _crowd.CrowdCounts)
    assert prep.source.n_rating_pairs == n_items * per_item * (per_item - 1) // 2
    res = kf.pairwise(df, **LONG, min_overlap=2)
    assert (res["n"] >= 2).all()
    # every returned pair against sklearn on the items both rated
    by_worker = df.set_index(["worker", "item"])["label"]
    for row in res.head(20).itertuples():
        a, b = by_worker.loc[row.rater_a], by_worker.loc[row.rater_b]
        both = a.index.intersection(b.index)
        assert len(both) == row.n
        expected = cohen_kappa_score(a.loc[both], b.loc[both], labels=[0, 1, 2])
        if np.isnan(row.kappa):
            assert len(set(a.loc[both]) | set(b.loc[both])) == 1
        else:
            assert row.kappa == pytest.approx(expected, abs=1e-12)


def test_min_overlap_keeps_rows_with_enough_items(rng: np.random.Generator) -> None:
    df = pd.DataFrame(crowd(rng))
    everything = quietly(kf.pairwise, df, **LONG, by="project")
    some = quietly(kf.pairwise, df, **LONG, by="project", min_overlap=5)
    expected = everything[everything["n"] >= 5].reset_index(drop=True)
    pd.testing.assert_frame_equal(some, expected)
    zero = quietly(kf.pairwise, df, **LONG, by="project", min_overlap=0)
    pd.testing.assert_frame_equal(zero, everything)


def test_min_overlap_in_the_wide_layout(rng: np.random.Generator) -> None:
    data = {f"r{i}": rng.choice([1.0, 2.0, np.nan], 40, p=[0.3, 0.3, 0.4]) for i in range(4)}
    df = pd.DataFrame(data)
    res = kf.pairwise(df, min_overlap=12)
    full = kf.pairwise(df)
    assert list(res["n"]) == [n for n in full["n"] if n >= 12]


def test_min_overlap_does_not_warn_for_rows_it_drops(sparse_everywhere: None) -> None:
    df = pd.DataFrame(
        {
            "item": [1, 1, 2, 2, 3, 3, 4, 4],
            "worker": ["a", "b", "a", "b", "a", "b", "c", "d"],
            "label": ["x", "y", "x", "x", "y", "y", "x", "x"],
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = kf.pairwise(df, **LONG, min_overlap=2)
    assert list(zip(res["rater_a"], res["rater_b"], res["n"], strict=True)) == [("a", "b", 3)]
    with pytest.warns(kf.UndefinedKappaWarning, match="1 of 1"):
        kf.pairwise(df, **LONG, min_overlap=1, raters=["c", "d"])


@pytest.mark.parametrize("bad", [-1, 1.5, True, "2"])
def test_min_overlap_must_be_a_whole_number(bad: Any) -> None:
    df = pd.DataFrame({"a": [1, 2], "b": [1, 2]})
    with pytest.raises(kf.KappaFrameError, match="min_overlap must be a whole number"):
        kf.pairwise(df, min_overlap=bad)


def test_crowd_duplicates_are_caught(sparse_everywhere: None) -> None:
    df = pd.DataFrame(
        {"item": [1, 1, 1, 2, 2], "worker": ["a", "a", "b", "a", "b"], "label": [0, 1, 1, 0, 0]}
    )
    with pytest.raises(kf.KappaFrameError, match="rated item 1 more than once"):
        kf.pairwise(df, **LONG)
    last = kf.pairwise(df, **LONG, duplicates="last", min_overlap=1)
    assert list(last["kappa"]) == [1.0]
    first = kf.pairwise(df, **LONG, duplicates="first", min_overlap=1)
    assert list(first["p_o"]) == [0.5]


def test_crowd_counts_pairs_of_ratings() -> None:
    # sizes 3, 1, 2 -> 3 + 0 + 1 pairs of ratings
    unit = np.array([0, 0, 0, 1, 2, 2])
    position = np.arange(len(unit))
    label = np.array([5, 6, 7, 8, 9, 10], dtype=np.int8)
    (first, second), (at_first, at_second) = _crowd._pairs_of_ratings(unit, position, label)
    assert sorted(zip(first.tolist(), second.tolist(), strict=True)) == [
        (0, 1),
        (0, 2),
        (1, 2),
        (4, 5),
    ]
    # every array is read at the same pairs, keeping its dtype
    np.testing.assert_array_equal(at_first, label[first])
    np.testing.assert_array_equal(at_second, label[second])
    assert at_first.dtype == np.int8
    assert _crowd.rating_pairs(unit, 3) == 4


@pytest.mark.parametrize(
    "sizes", [[5, 5, 5, 5], [3], [1, 1], [], [2, 4, 1, 3, 4, 2], [1, 6, 6, 1, 6]]
)
def test_pairs_of_ratings_are_every_pair_within_each_unit(sizes: list[int]) -> None:
    # one size (a reshape, no gather), several sizes, units with one rating, no rating
    unit = np.repeat(np.arange(len(sizes)), sizes)
    rng = np.random.default_rng(len(unit))
    value = rng.integers(0, 1000, len(unit))
    (first, second), (v_first, v_second) = _crowd._pairs_of_ratings(
        unit, np.arange(len(unit)), value
    )
    expected = [
        (i, j) for i in range(len(unit)) for j in range(i + 1, len(unit)) if unit[i] == unit[j]
    ]
    assert sorted(zip(first.tolist(), second.tolist(), strict=True)) == expected
    np.testing.assert_array_equal(v_first, value[first])
    np.testing.assert_array_equal(v_second, value[second])
    assert len(first) == _crowd.rating_pairs(unit, len(sizes))


@pytest.mark.skipif(not ANSWERS, reason="needs ../shared/data/*_answers.csv")
@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: p.name)
def test_real_crowd_data(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = pd.read_csv(path)
    long = {"item": "question", "rater": "worker", "label": "answer"}
    chosen: list[bool] = []
    monkeypatch.setattr(_crowd, "use_crowd", lambda *args: chosen.append(False) or False)
    dense = quietly(kf.pairwise, answers, **long, min_overlap=1)
    dense_linear = quietly(kf.pairwise, answers, **long, min_overlap=1, weights="linear")
    monkeypatch.setattr(_crowd, "use_crowd", lambda *args: chosen.append(True) or True)
    sparse = quietly(kf.pairwise, answers, **long, min_overlap=1, weights="linear")
    plain = quietly(kf.pairwise, answers, **long, min_overlap=1)
    assert chosen == [False, False, True, True]  # each path really ran
    pd.testing.assert_frame_equal(plain, dense, check_exact=False, rtol=0, atol=1e-12)
    pd.testing.assert_frame_equal(sparse, dense_linear, check_exact=False, rtol=0, atol=1e-12)
    assert (sparse["n"] >= 1).all() and len(sparse) == len(dense)

    labels = sorted(answers["answer"].unique())
    by_worker = answers.set_index(["worker", "question"])["answer"]
    rng = np.random.default_rng(7)
    sample = sparse.iloc[rng.choice(len(sparse), min(25, len(sparse)), replace=False)]
    checked = 0
    for row in sample.itertuples():
        a, b = by_worker.loc[row.rater_a], by_worker.loc[row.rater_b]
        both = a.index.intersection(b.index)
        assert len(both) == row.n
        if np.isnan(row.kappa):
            continue
        expected = cohen_kappa_score(a.loc[both], b.loc[both], labels=labels, weights="linear")
        assert row.kappa == pytest.approx(expected, abs=1e-12)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize(
    ("dtype", "wide"),
    # carried values packed in 32 bits, in 64 bits, too wide to pack; lexsort of wide codes
    [(np.uint16, 1), (np.uint16, 2**30), (np.uint16, 2**45), (np.intp, 1)],
)
def test_pairs_are_numbered_as_numpy_unique_numbers_them(dtype: Any, wide: int) -> None:
    # 16-bit rater codes take two radix sorts, wider ones a lexsort: both are np.unique.
    rng = np.random.default_rng(5)
    a = rng.integers(0, 300, 5_000).astype(dtype)
    b = rng.integers(0, 300, 5_000).astype(dtype)
    label = rng.integers(0, 4, 5_000).astype(np.int8)
    position = np.arange(5_000) * wide
    pair_a, pair_b, inverse, starts, (order, moved) = _crowd._compact_pairs(a, b, position, label)
    key = a.astype(np.int64) * 300 + b
    distinct, first, back = np.unique(key, return_index=True, return_inverse=True)
    np.testing.assert_array_equal(pair_a * 300 + pair_b, distinct)
    # the carried values are put in the order of the pairs, as a stable sort puts them
    np.testing.assert_array_equal(order, np.argsort(key, kind="stable") * wide)
    order //= wide
    np.testing.assert_array_equal(moved, label[order])
    assert moved.dtype == np.int8
    np.testing.assert_array_equal(key[order], np.sort(key))
    np.testing.assert_array_equal(inverse[np.argsort(order)], back)
    np.testing.assert_array_equal(np.diff(inverse) >= 0, True)
    np.testing.assert_array_equal(key[order][starts], distinct)
    assert len(starts) == len(first)


def test_runs_of_sorted_pairs_give_the_histogram_sums() -> None:
    from kappaframe._count.kernel import diagonal_sums

    rng = np.random.default_rng(6)
    cell = np.sort(rng.integers(0, 400, 3_000))
    cell = np.unique(cell, return_inverse=True)[1]  # no empty cell
    x = rng.integers(0, 5, cell.size).astype(np.int8)
    y = rng.integers(0, 5, cell.size).astype(np.int8)
    starts = np.flatnonzero(np.diff(cell, prepend=-1))
    n_cells = int(cell.max()) + 1
    runs = diagonal_sums(cell, x, y, n_cells, 5, starts=starts)
    hist = diagonal_sums(cell, x, y, n_cells, 5)
    assert runs.keys() == hist.keys()
    for name in hist:
        np.testing.assert_array_equal(runs[name], hist[name], err_msg=name)
        assert runs[name].dtype == np.int64
    np.testing.assert_array_equal(hist["sq_diff"], np.bincount(cell, (x - y) ** 2.0).astype(int))


def test_crowd_with_min_overlap_and_missing_labels_equals_sklearn_and_dense(
    rng: np.random.Generator, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 60 raters, items rated 1 to 7 times (several sizes of unit), 10% of labels missing
    rows: dict[str, list[Any]] = {"item": [], "worker": [], "label": []}
    for item in range(400):
        truth = rng.integers(0, 4)
        for worker in rng.choice(60, rng.integers(1, 8), replace=False):
            label = truth if rng.random() < 0.7 else rng.integers(0, 4)
            rows["item"].append(item)
            rows["worker"].append(int(worker))
            rows["label"].append(None if rng.random() < 0.1 else int(label))
    df = pd.DataFrame(rows).astype({"label": "Int64"})
    options = {"min_overlap": 3, "min_items": 6, "categories": [0, 1, 2, 3]}
    dense = quietly(kf.pairwise, df, **LONG, **options)
    monkeypatch.setattr(_crowd, "use_crowd", lambda *args: True)
    sparse = quietly(kf.pairwise, df, **LONG, **options)
    pd.testing.assert_frame_equal(sparse, dense, check_exact=False, rtol=0, atol=1e-12)

    rated = df.dropna(subset=["label"])
    by_worker: dict[int, dict[int, int]] = {}
    for item, worker, label in zip(rated["item"], rated["worker"], rated["label"], strict=True):
        by_worker.setdefault(worker, {})[item] = int(label)
    shared = {}
    for a in by_worker:
        for b in by_worker:
            both = sorted(by_worker[a].keys() & by_worker[b].keys())
            if a < b and len(both) >= 3:
                shared[a, b] = both
    assert sorted(shared) == list(zip(sparse["rater_a"], sparse["rater_b"], strict=True))
    bands = quietly(kf.pairwise, df, **LONG, min_items=None)["interpretation"].cat.categories
    for row in sparse.itertuples():
        both = shared[row.rater_a, row.rater_b]
        x = np.array([by_worker[row.rater_a][i] for i in both])
        y = np.array([by_worker[row.rater_b][i] for i in both])
        assert row.n == len(both)
        assert row.p_o == pytest.approx(float((x == y).mean()), abs=1e-12)
        if len(set(x) | set(y)) == 1:  # one category: kappa undefined, no interpretation
            assert np.isnan(row.kappa) and pd.isna(row.interpretation)
            continue
        if row.n < 6:
            assert row.interpretation == "too few items"
        else:
            assert row.interpretation in bands
        if row.Index % 10 == 0:  # sklearn on a tenth of the rows (the dense path on all)
            expected = cohen_kappa_score(x, y, labels=[0, 1, 2, 3])
            assert row.kappa == pytest.approx(expected, abs=1e-12)
    assert (sparse["interpretation"] == "too few items").any()
    assert (sparse["n"] >= 6).any()


@pytest.mark.parametrize("n", [0, 1, 7, 5_000])
def test_counted_codes_are_the_sorted_codes(n: int) -> None:
    rng = np.random.default_rng(n)
    for high in (1, 3, 65_536):
        codes = rng.integers(max(0, high - 40), high, n).astype(np.uint16)
        got = _crowd._counted(codes)
        np.testing.assert_array_equal(got, np.sort(codes))
        assert got.dtype == np.uint16
