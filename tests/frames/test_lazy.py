"""A polars LazyFrame in gives a lazy plan out: the numbers are those of the data at collect."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

pl = pytest.importorskip("polars")
pytest.importorskip("pyarrow")


def ratings(seed: int, n: int = 80) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "project": rng.choice(["p", "q"], n),
            "ann1": rng.integers(0, 3, n).astype(float),
            "ann2": rng.integers(0, 3, n).astype(float),
            "ann3": rng.integers(0, 3, n).astype(float),
        }
    )
    frame.loc[rng.random(n) < 0.15, "ann2"] = np.nan
    return frame


def write(frame: pd.DataFrame, path: Path) -> None:
    data = pl.from_pandas(frame, nan_to_null=True)
    if path.suffix == ".csv":
        data.write_csv(path)
    else:
        data.write_parquet(path)


def scan(path: Path) -> pl.LazyFrame:
    # polars keeps a parquet file's metadata once a plan's schema is known, so a parquet
    # file rewritten under a plan is not read again; a CSV file is read at collect.
    return pl.scan_csv(path) if path.suffix == ".csv" else pl.scan_parquet(path)


def same(lazy_result: object, expected: pd.DataFrame) -> None:
    got = lazy_result.collect().to_pandas()  # type: ignore[attr-defined]
    got["interpretation"] = got["interpretation"].astype(expected["interpretation"].dtype)
    pd.testing.assert_frame_equal(got, expected, rtol=1e-12, check_dtype=False)


@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_pairwise_reads_the_data_at_collect(tmp_path: Path, weights: str | None) -> None:
    path = tmp_path / "ratings.csv"
    write(ratings(1), path)
    res = scan(path).kappa.pairwise(by="project", weights=weights)
    assert isinstance(res, pl.LazyFrame)
    assert res.collect_schema().names()[:3] == ["project", "rater_a", "rater_b"]
    new = ratings(2)
    write(new, path)
    same(res, kf.pairwise(new, by="project", weights=weights))


def test_the_function_and_the_accessor_plan_alike(tmp_path: Path) -> None:
    path = tmp_path / "ratings.parquet"
    write(ratings(3), path)
    lazy = pl.scan_parquet(path)
    got = lazy.kappa.pairwise(["ann1", "ann3"], ci=0.95).collect()
    assert got.equals(kf.pairwise(lazy, ["ann1", "ann3"], ci=0.95).collect())


def test_a_deleted_file_is_not_read_at_call_time(tmp_path: Path) -> None:
    path = tmp_path / "ratings.parquet"
    write(ratings(4), path)
    res = pl.scan_parquet(path).kappa.pairwise(by="project")
    path.unlink()
    with pytest.raises(Exception, match=r"ratings\.parquet|No such file|not found"):
        res.collect()


def test_a_lazy_result_composes(tmp_path: Path) -> None:
    path = tmp_path / "ratings.parquet"
    data = ratings(5)
    write(data, path)
    res = pl.scan_parquet(path).kappa.pairwise(by="project")
    expected = kf.pairwise(data, by="project")
    positive = res.filter(pl.col("kappa") > 0).collect().to_pandas()
    want = expected[expected["kappa"] > 0].reset_index(drop=True)
    pd.testing.assert_frame_equal(positive, want, rtol=1e-12, check_dtype=False)
    names = pl.LazyFrame({"project": ["p", "q"], "owner": ["Ann", "Bo"]})
    joined = res.join(names, on="project").select("owner", "kappa").collect()
    assert joined.height == len(expected)


def test_long_layout_pairwise_is_lazy(tmp_path: Path) -> None:
    path = tmp_path / "long.csv"

    def long(seed: int) -> pd.DataFrame:
        wide = ratings(seed).reset_index(names="item")
        return wide.melt(["project", "item"], var_name="who", value_name="label")

    write(long(6), path)
    opts = {"item": "item", "rater": "who", "label": "label", "by": "project"}
    res = scan(path).kappa.pairwise(**opts, weights="linear")
    new = long(7)
    write(new, path)
    same(res, kf.pairwise(new, **opts, weights="linear"))


def test_wide_matrix_is_lazy(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    write(ratings(8), path)
    res = scan(path).kappa.matrix(by="project")
    assert res.collect_schema().names() == ["project", "rater", "ann1", "ann2", "ann3"]
    new = ratings(9)
    write(new, path)
    got = res.collect()
    want = kf.matrix(pl.from_pandas(new, nan_to_null=True), by="project")
    assert got.select(["ann1", "ann2", "ann3"]).to_numpy() == pytest.approx(
        want.select(["ann1", "ann2", "ann3"]).to_numpy(), rel=1e-12, nan_ok=True
    )


def test_errors_that_need_no_data_come_at_call_time(tmp_path: Path) -> None:
    path = tmp_path / "ratings.parquet"
    write(ratings(10), path)
    with pytest.raises(kf.KappaFrameError, match="annn1"):
        pl.scan_parquet(path).kappa.pairwise(["annn1", "ann2"])


def test_a_call_that_cannot_be_planned_computes_at_once() -> None:
    data = pl.from_pandas(ratings(11), nan_to_null=True)
    weights = np.array([[0, 1, 4], [1, 0, 1], [4, 1, 0]], dtype=float)
    res = data.lazy().kappa.pairwise(by="project", weights=weights)
    assert isinstance(res, pl.LazyFrame)
    assert res.collect().equals(kf.pairwise(data, by="project", weights=weights))


PLANS = [
    {},
    {"by": "project"},
    {"by": ["project", "year"], "ci": 0.9},
    {"by": "project", "stats": ["pabak", "gwet_ac1"], "min_items": None},
    {"ci": 0.95, "benchmark": "probabilistic", "scale": "fleiss"},
    {"reference": "ann1", "by": "year"},
    {"scale": {0.0: "low", 0.5: "high"}},
]


def typed(seed: int) -> pl.DataFrame:
    frame = pl.from_pandas(ratings(seed), nan_to_null=True)
    return frame.with_columns(
        pl.col("project").cast(pl.Enum(["q", "p"])),
        year=pl.Series([2024, 2025] * (frame.height // 2), dtype=pl.Int16),
    )


@pytest.mark.parametrize("options", PLANS)
def test_the_planned_schema_is_the_collected_one(options: dict) -> None:
    data = typed(12)
    raters = ["ann1", "ann2", "ann3"]
    planned = data.lazy().kappa.pairwise(raters, **options)
    assert planned.collect_schema() == planned.collect().schema
    assert planned.collect().equals(kf.pairwise(data, raters, **options))


@pytest.mark.parametrize("stat", ["kappa", "n"])
def test_the_planned_matrix_schema_is_the_collected_one(stat: str) -> None:
    data = typed(13)
    planned = data.lazy().kappa.matrix(["ann1", "ann2", "ann3"], by=["project", "year"], stat=stat)
    assert planned.collect_schema() == planned.collect().schema
    assert planned.collect_schema()["ann1"] == (pl.Int64 if stat == "n" else pl.Float64)


@pytest.mark.parametrize("ids", [pl.String, pl.Int32, pl.Categorical])
def test_the_long_layouts_rater_ids_keep_their_dtype(ids: pl.DataType) -> None:
    long = (
        typed(14)
        .with_row_index("item")
        .unpivot(
            ["ann1", "ann2", "ann3"], index=["item", "project"], variable_name="who", value_name="y"
        )
    )
    who = pl.col("who").str.slice(3)
    long = long.with_columns(who.cast(pl.Int32) if ids == pl.Int32 else who.cast(ids))
    planned = long.lazy().kappa.pairwise(item="item", rater="who", label="y", by="project")
    assert planned.collect_schema() == planned.collect().schema


def test_a_plan_reads_nothing_not_even_an_empty_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    from kappaframe._api import pairwise as pairwise_module

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("prepared at call time")

    data = typed(15)
    with monkeypatch.context() as patched:
        patched.setattr(pairwise_module, "prepare_input", refuse)
        planned = data.lazy().kappa.pairwise(by="project", ci=0.95)
        schema = planned.collect_schema()
    assert schema.names()[:3] == ["project", "rater_a", "rater_b"]
    assert planned.collect().equals(kf.pairwise(data, by="project", ci=0.95))


def test_an_order_is_asked_for_at_collect() -> None:
    data = pl.DataFrame({"a": ["lo", "mid", "hi", "mid"], "b": ["lo", "hi", "hi", "mid"]})
    planned = data.lazy().kappa.pairwise(weights="linear")  # the labels are not read yet
    with pytest.raises(kf.KappaFrameError, match=r"categories=\[\.\.\.\]"):
        planned.collect()
    ordered = data.lazy().kappa.pairwise(weights="linear", categories=["lo", "mid", "hi"])
    assert ordered.collect().equals(
        kf.pairwise(data, weights="linear", categories=["lo", "mid", "hi"])
    )
