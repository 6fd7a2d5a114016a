"""Files read in batches (parquet, CSV) and polars LazyFrames streamed: same numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

pytest.importorskip("pyarrow")

RATERS = ["ann1", "ann2", "ann3"]


@pytest.fixture
def labels(rng: np.random.Generator) -> pd.DataFrame:
    n = 500
    truth = rng.integers(1, 5, n)
    data: dict[str, Any] = {
        "project": rng.choice(["beta", "alpha"], n),
        "week": rng.integers(1, 4, n),
    }
    for name, skill in zip(RATERS, [0.9, 0.6, 0.3], strict=True):
        values = np.where(rng.random(n) < skill, truth, rng.integers(1, 5, n)).astype(float)
        values[rng.random(n) < 0.1] = np.nan
        data[name] = values
    df = pd.DataFrame(data)
    # The first rows use only labels 1 and 2 and one project: early batches lack some.
    df.loc[:29, RATERS] = df.loc[:29, RATERS].clip(upper=2)
    df.loc[:29, "project"] = "beta"
    return df


def _lazy():  # type: ignore[no-untyped-def]
    """The polars adapter module (imported only when polars is)."""
    pytest.importorskip("polars")
    from kappaframe._frames import polars as lazy

    return lazy


def write(df: pd.DataFrame, path: Path) -> Path:
    if path.suffix == ".parquet":
        df.to_parquet(path, row_group_size=64)
    else:
        df.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_files_in_batches_match_memory(labels: pd.DataFrame, tmp_path: Path, suffix: str) -> None:
    path = write(labels, tmp_path / f"labels{suffix}")
    options = {"by": ["project", "week"], "weights": "linear", "ci": 0.95}
    expected = kf.pairwise(labels, RATERS, **options)
    got = kf.pairwise(kf.scan(path, batch_size=37), RATERS, **options)
    pd.testing.assert_frame_equal(got, expected, check_exact=False, rtol=0, atol=1e-12)
    plain = kf.pairwise(str(path), RATERS, **options)  # a path is a scan with defaults
    pd.testing.assert_frame_equal(plain, expected, check_exact=False, rtol=0, atol=1e-12)
    matrix = kf.matrix(kf.scan(path, batch_size=50), RATERS, by="project")
    pd.testing.assert_frame_equal(matrix, kf.matrix(labels, RATERS, by="project"))
    assert kf.score(path, "ann1", "ann2") == pytest.approx(kf.score(labels, "ann1", "ann2"))


def test_many_categories_in_batches(
    rng: np.random.Generator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches that keep only diagonals and lack some labels: categories found first."""
    from kappaframe._count import diagonal as _diagonal

    monkeypatch.setattr(_diagonal, "FULL_TABLE_BYTES", 10_000)
    n = 600
    truth = np.sort(rng.integers(0, 50, n))  # early rows: low labels only
    df = pd.DataFrame({"g": rng.choice(["x", "y"], n)})
    for r in RATERS:
        df[r] = np.clip(truth + rng.integers(-1, 2, n), 0, 49).astype(float)
    path = write(df, tmp_path / "many.parquet")
    expected = kf.pairwise(df, RATERS, by="g", weights="quadratic")
    got = kf.pairwise(kf.scan(path, batch_size=100), RATERS, by="g", weights="quadratic")
    pd.testing.assert_frame_equal(got, expected, check_exact=False, rtol=0, atol=1e-12)
    pl = pytest.importorskip("polars")
    monkeypatch.setattr(_lazy().LazyReader, "batch_size", 100)
    lazy = pl.scan_parquet(path).kappa.pairwise(RATERS, by="g", weights="quadratic")
    pd.testing.assert_frame_equal(
        lazy.collect().to_pandas(), expected, check_exact=False, rtol=0, atol=1e-12
    )


def test_many_files_and_a_glob(labels: pd.DataFrame, tmp_path: Path) -> None:
    for i, start in enumerate(range(0, len(labels), 200)):
        write(labels.iloc[start : start + 200], tmp_path / f"part{i}.parquet")
    expected = kf.pairwise(labels, RATERS, by="project")
    got = kf.pairwise(str(tmp_path / "part*.parquet"), RATERS, by="project")
    pd.testing.assert_frame_equal(got, expected)
    listed = kf.counts(sorted(tmp_path.glob("part*.parquet")), RATERS, by="project")
    assert listed == kf.counts(labels, RATERS, by="project")


def test_long_layout_file(labels: pd.DataFrame, tmp_path: Path) -> None:
    long = (
        labels.reset_index(names="item")
        .melt(id_vars=["item", "project"], value_vars=RATERS, var_name="who", value_name="label")
        .dropna()
        .astype({"item": str})
    )
    path = write(long, tmp_path / "long.csv")
    opts = {"item": "item", "rater": "who", "label": "label", "by": "project"}
    got = kf.pairwise(kf.scan(path, batch_size=10), **opts)
    expected = kf.pairwise(pd.read_csv(path, dtype={"item": str}), **opts)
    pd.testing.assert_frame_equal(got, expected)


def test_csv_string_labels_with_blanks(tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    path.write_text("g,a,b\nx,yes,yes\nx,,no\ny,no,no\ny,yes,\nx,no,yes\ny,yes,yes\n")
    expected = kf.pairwise(pd.read_csv(path), ["a", "b"], by="g")
    got = kf.pairwise(kf.scan(path, batch_size=2), ["a", "b"], by="g")
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)
    assert list(got["n"]) == [2, 2]  # blanks are missing, not a label


def test_csv_options(labels: pd.DataFrame, tmp_path: Path) -> None:
    path = tmp_path / "labels.tsv"
    labels.to_csv(path, sep="\t", index=False)
    got = kf.pairwise(kf.scan(path, csv_options={"parse": {"delimiter": "\t"}}), RATERS)
    pd.testing.assert_frame_equal(got, kf.pairwise(labels, RATERS))


def test_polars_lazyframe_is_streamed(
    labels: pd.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pl = pytest.importorskip("polars")
    path = write(labels, tmp_path / "labels.parquet")
    monkeypatch.setattr(_lazy().LazyReader, "batch_size", 40)
    seen: list[int] = []
    real = _lazy().batches

    def counting(query: Any, size: int) -> Any:
        for batch in real(query, size):
            seen.append(batch.width)
            yield batch

    monkeypatch.setattr(_lazy(), "batches", counting)
    lazy = pl.scan_parquet(path)
    got = lazy.kappa.pairwise(RATERS, by="project", weights="quadratic")
    assert isinstance(got, pl.LazyFrame)
    assert seen == []  # a plan: nothing is read until it is collected
    collected = got.collect()
    assert len(seen) > 1 and set(seen) == {4}  # then batches of the needed columns only
    expected = pl.from_pandas(labels).kappa.pairwise(RATERS, by="project", weights="quadratic")
    pd.testing.assert_frame_equal(collected.to_pandas(), expected.to_pandas())
    csv = pl.scan_csv(write(labels, tmp_path / "labels.csv"))
    again = csv.kappa.matrix(RATERS, by="week").collect()
    assert again.equals(pl.from_pandas(labels).kappa.matrix(RATERS, by="week"))


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match=r"'nowhere\.parquet', which is not an existing file"):
        kf.pairwise("nowhere.parquet")
    with pytest.raises(kf.KappaFrameError, match="file not found"):
        kf.scan(tmp_path / "nowhere.parquet")
    odd = tmp_path / "labels.dat"
    odd.write_text("a,b\n1,1\n2,1\n")
    with pytest.raises(kf.KappaFrameError, match="format='parquet' or format='csv'"):
        kf.scan(odd)
    assert kf.pairwise(kf.scan(odd, format="csv"))["n"].tolist() == [2]
    with pytest.raises(kf.KappaFrameError, match="rater column not found: 'c'"):
        kf.pairwise(kf.scan(odd, format="csv"), ["a", "c"])
    with pytest.raises(kf.KappaFrameError, match="batch_size"):
        kf.scan(odd, format="csv", batch_size=0)


def test_item_level_statistics_gather_the_codes(labels: pd.DataFrame, tmp_path: Path) -> None:
    path = write(labels, tmp_path / "labels.parquet")
    options = {"by": "project", "method": ["fleiss", "krippendorff"]}
    got = kf.overall(kf.scan(path, batch_size=60), RATERS, **options)
    pd.testing.assert_frame_equal(got, kf.overall(labels, RATERS, **options))
