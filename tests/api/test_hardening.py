"""Odd and hostile input through the Python API: wrong numbers refused, nothing lost."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

from ..conftest import to_pandas


def test_cohen_kappa_refuses_mixed_label_types_like_pairwise() -> None:
    with pytest.raises(kf.KappaFrameError, match="mixes label types"):
        kf.cohen_kappa([1, 2, "3", 1], [1, "2", 3, 2])
    with pytest.raises(kf.KappaFrameError, match="mixes label types"):
        kf.pairwise(pd.DataFrame({"a": [1, 2, "3", 1], "b": [1, "2", 3, 2]}))
    assert kf.cohen_kappa(["a", "b", "a"], ["a", "b", "b"]) == pytest.approx(0.4)


def test_cohen_kappa_takes_column_vectors_and_refuses_complex_weights() -> None:
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    y1 = np.array([[0], [1], [2], [2], [1]])
    y2 = np.array([[0], [1], [2], [1], [1]])
    expected = sklearn_metrics.cohen_kappa_score(y1.ravel(), y2.ravel(), weights="linear")
    assert kf.cohen_kappa(y1, y2, weights="linear") == pytest.approx(expected, abs=1e-12)
    with pytest.raises(kf.KappaFrameError, match="complex"):
        kf.cohen_kappa([1, 2], [1, 2], sample_weight=[1 + 1j, 1.0])


def test_unordered_categorical_groups_sort_by_value_on_every_backend(constructor: Any) -> None:
    keys = pd.Categorical(["z", "a", "m", "z", "a", "m"], categories=["m", "z", "a"])
    data = {"g": keys, "x": [1, 2, 1, 2, 1, 2], "y": [1, 2, 2, 2, 1, 1]}
    got = to_pandas(kf.pairwise(constructor(data), by="g"))
    assert [str(v) for v in got["g"]] == ["a", "m", "z"]
    ordered = pd.DataFrame(data).astype({"g": pd.CategoricalDtype(["m", "z", "a"], ordered=True)})
    assert [str(v) for v in kf.pairwise(ordered, by="g")["g"]] == ["m", "z", "a"]


def test_counts_refuse_self_cells_that_contradict_the_pair_cells() -> None:
    cells = pd.DataFrame(
        {
            "rater_a": ["a", "a", "b"],
            "rater_b": ["a", "b", "b"],
            "label_a": ["x", "x", "x"],
            "label_b": ["x", "x", "x"],
            "count": [2, 100, 100],  # a labeled 2 items, yet shares 100 with b
        }
    )
    with pytest.raises(kf.KappaFrameError, match="contradict"):
        kf.Counts.from_frame(cells)
    fine = cells.assign(count=[100, 100, 100])
    with pytest.warns(kf.UndefinedKappaWarning):  # one shared category: kappa undefined
        assert int(kf.Counts.from_frame(fine).pairwise()["n"].iloc[0]) == 100


def test_pictures_draw_names_as_plain_text() -> None:
    pytest.importorskip("matplotlib")
    import io

    names = {r"$\frac{": [1, 2, 1, 2], "b$x$": [1, 2, 2, 2]}  # invalid and valid math
    df = pd.DataFrame(names)
    for fig in (kf.heatmap(df), kf.confusion_plot(df, r"$\frac{", "b$x$")):
        fig.savefig(io.BytesIO(), format="svg")  # invalid math would raise while drawing
        texts = [t.get_text() for ax in fig.axes for t in ax.texts + ax.get_xticklabels()]
        texts += [ax.get_title() for ax in fig.axes]
        assert any(r"$\frac{" in s for s in texts)
        assert all(not t.get_parse_math() for ax in fig.axes for t in ax.get_xticklabels())


def _write(frame: pd.DataFrame, path: Any, fmt: str) -> None:
    if fmt == "parquet":
        frame.to_parquet(path)
    else:
        frame.to_csv(path, index=False)


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_a_rater_only_in_a_later_file_is_counted(tmp_path: Any, fmt: str) -> None:
    pytest.importorskip("pyarrow")
    first = pd.DataFrame({"g": ["x"] * 4, "r1": [1, 2, 1, 2], "r2": [1, 2, 2, 2]})
    later = pd.DataFrame({"g": ["y"] * 5, "r1": [1, 1, 1, 2, 2], "r3": [1, 1, 2, 2, 2]})
    _write(first, tmp_path / f"a.{fmt}", fmt)
    _write(later, tmp_path / f"b.{fmt}", fmt)
    whole = pd.concat([first, later], ignore_index=True)
    with pytest.warns(kf.UndefinedKappaWarning):
        expected = kf.pairwise(whole, by="g")
    for source in (str(tmp_path / f"*.{fmt}"), kf.scan(str(tmp_path / f"*.{fmt}"), batch_size=2)):
        with pytest.warns(kf.UndefinedKappaWarning):
            got = kf.pairwise(source, by="g")
        assert got["rater_b"].tolist() == ["r2", "r3", "r3", "r2", "r3", "r3"]
        assert got["n"].tolist() == [4, 0, 0, 0, 5, 0]
        pd.testing.assert_frame_equal(got, expected, check_dtype=False)
    long = whole.reset_index(names="item").melt(["item", "g"], var_name="rater", value_name="y")
    long = long.dropna(subset=["y"])
    _write(long.iloc[:8], tmp_path / f"long1.{fmt}", fmt)
    _write(long.iloc[8:], tmp_path / f"long2.{fmt}", fmt)
    with pytest.warns(kf.UndefinedKappaWarning):
        got = kf.pairwise(
            str(tmp_path / f"long*.{fmt}"), item="item", rater="rater", label="y", by="g"
        )
    with pytest.warns(kf.UndefinedKappaWarning):
        direct = kf.pairwise(long, item="item", rater="rater", label="y", by="g")
    pd.testing.assert_frame_equal(got, direct, check_dtype=False)


def test_parquet_files_that_disagree_on_a_label_type_are_refused_by_name(tmp_path: Any) -> None:
    pytest.importorskip("pyarrow")
    pd.DataFrame({"a": [1, 2], "b": [1, 1]}).to_parquet(tmp_path / "1.parquet")
    pd.DataFrame({"a": ["x", "y"], "b": [2, 2]}).to_parquet(tmp_path / "2.parquet")
    clash = r"column 'a' is int64 in .*1\.parquet.* but (large_)?string"
    with pytest.raises(kf.KappaFrameError, match=clash):
        kf.pairwise(str(tmp_path / "*.parquet"))


def test_csv_files_read_a_column_as_text_when_one_file_has_text(tmp_path: Any) -> None:
    pytest.importorskip("pyarrow")
    (tmp_path / "1.csv").write_text("a,b\n1,1\n2,2\n")
    (tmp_path / "2.csv").write_text("a,b\nx,y\ny,y\n")
    got = kf.counts(str(tmp_path / "*.csv"))
    assert list(got.categories) == ["1", "2", "x", "y"]
    assert got.pairwise()["n"].tolist() == [4]


@pytest.mark.parametrize(
    "call",
    [
        lambda df: kf.pairwise(df, weights="linear"),
        lambda df: kf.matrix(df, weights="quadratic"),
        lambda df: kf.score(df, "a", "b"),
        lambda df: kf.counts(df).pairwise(weights="quadratic"),
        lambda df: kf.cohen_kappa(df["a"], df["b"], weights="linear"),
        lambda df: kf.cohen_kappa(df["a"], df["b"], sample_weight=np.ones(len(df))),
    ],
    ids=["pairwise", "matrix", "score", "counts", "cohen_kappa", "cohen_kappa_weighted"],
)
def test_many_categories_stay_linear_in_memory(call: Any) -> None:
    import tracemalloc

    k, n = 6000, 12_000  # one K x K float matrix would be 288 MB
    rng = np.random.default_rng(3)
    df = pd.DataFrame({r: rng.integers(0, k, n) for r in "abc"})
    df.loc[: k - 1, "a"] = np.arange(k)  # every category is used
    tracemalloc.start()
    try:
        call(df)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 1024**2, f"peak {peak / 1024**2:.0f} MB for {k} categories"


def test_many_categories_give_the_full_table_numbers() -> None:
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    k, n = 2000, 30_000
    rng = np.random.default_rng(4)
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, k, n))
    w = rng.random(n) * 3
    labels = np.arange(k)
    for weights in (None, "linear", "quadratic"):
        expected = sklearn_metrics.cohen_kappa_score(a, b, weights=weights, labels=labels)
        got = kf.cohen_kappa(a, b, weights=weights)
        assert got == pytest.approx(expected, abs=1e-12)
        expected = sklearn_metrics.cohen_kappa_score(
            a, b, weights=weights, labels=labels, sample_weight=w
        )
        got = kf.cohen_kappa(a, b, weights=weights, sample_weight=w)
        assert got == pytest.approx(expected, abs=1e-12)


def _many_raters(n_raters: int, n_items: int, k: int, seed: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_items)
    data = {
        f"r{i}": np.where(rng.random(n_items) < 0.7, truth, rng.integers(0, k, n_items)).astype(
            float
        )
        for i in range(n_raters)
    }
    frame = pd.DataFrame(data)
    frame = frame.mask(rng.random(frame.shape) < 0.1)  # missing labels
    frame["g"] = rng.integers(0, 3, n_items)
    return frame


@pytest.mark.parametrize(
    ("k", "options"),
    [(4, {}), (4, {"weights": "linear", "ci": 0.9}), (60, {"weights": "quadratic"})],
    ids=["few-categories", "ci", "many-categories"],
)
def test_many_raters_are_counted_in_chunks_not_pair_by_pair(
    k: int, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kappaframe._count import kernel

    frame = _many_raters(120, 40, k)  # 7,140 pairs x 3 groups
    raters = [c for c in frame.columns if c != "g"]
    calls = []
    real = np.bincount

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(kernel.np, "bincount", counting)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)  # sparse 60-category pairs
        got = kf.pairwise(frame, raters, by="g", **options)
    monkeypatch.undo()
    assert len(got) == 3 * 120 * 119 // 2
    assert len(calls) < 200, f"{len(calls)} bincount calls: counted pair by pair"
    # The same numbers as counting each pair alone, as sklearn does.
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(6)
    for row in rng.choice(len(got), 25, replace=False):
        a, b, g = got.loc[row, ["rater_a", "rater_b", "g"]]
        part = frame[frame["g"] == g][[a, b]].dropna()
        if len(part) == 0 or part[a].nunique() + part[b].nunique() < 3:
            continue
        expected = sklearn_metrics.cohen_kappa_score(
            part[a], part[b], weights=options.get("weights"), labels=np.arange(k, dtype=float)
        )
        assert got.loc[row, "kappa"] == pytest.approx(expected, abs=1e-12)


def test_many_raters_with_ci_keep_memory_near_the_output() -> None:
    import tracemalloc

    frame = _many_raters(400, 60, 5)  # 79,800 pairs x 3 groups
    raters = [c for c in frame.columns if c != "g"]
    tracemalloc.start()
    try:
        got = kf.pairwise(frame, raters, by="g", ci=0.95)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    output = got.memory_usage(deep=False).sum()
    # The full tables alone (needed for standard errors) are twice the output.
    assert peak < 8 * output, f"peak {peak / 1024**2:.0f} MB for {output / 1024**2:.0f} MB out"
