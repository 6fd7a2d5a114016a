"""The ``.kappa`` namespace of polars expressions against ``pairwise`` and ``overall``.

The same ratings give the same numbers as the frame functions with ``by=``: in
``group_by().agg()``, in ``over()``, in a lazy plan and in a plain ``select``.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from numpy.testing import assert_allclose
from sklearn.metrics import cohen_kappa_score

import kappaframe as kf

COHEN = ["n", "p_o", "p_e", "kappa"]
OVERALL = ["n_items", "n_raters", "p_o", "p_e", "value"]


def _ratings(seed: int, n: int = 240, k: int = 4, missing: float = 0.1) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    columns = {}
    for rater in ("ana", "ben", "cai"):
        labels = np.where(rng.random(n) < 0.7, truth, rng.integers(0, k, n)).astype(float)
        labels[rng.random(n) < missing] = np.nan
        columns[rater] = labels
    frame = pl.DataFrame({"project": rng.choice(["p", "q", "r"], n), **columns})
    return frame.with_columns(pl.col("ana", "ben", "cai").fill_nan(None).cast(pl.Int64))


def _sorted(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.sort("project")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cohen_in_group_by_equals_pairwise_by_group(seed: int) -> None:
    df = _ratings(seed)
    got = _sorted(
        df.group_by("project").agg(pl.col("ana").kappa.cohen(pl.col("ben")).alias("k")).unnest("k")
    )
    want = _sorted(kf.pairwise(df, ["ana", "ben"], by="project"))
    assert got["n"].to_list() == want["n"].to_list()
    for column in COHEN[1:]:
        assert_allclose(got[column].to_numpy(), want[column].to_numpy(), rtol=0, atol=1e-12)


def test_cohen_of_the_whole_frame_equals_scikit_learn() -> None:
    df = _ratings(3, missing=0.0)
    got = df.select(pl.col("ana").kappa.cohen("ben").struct.field("kappa")).item()
    assert got == pytest.approx(cohen_kappa_score(df["ana"], df["ben"]), abs=1e-12)


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weighted_cohen_with_categories_equals_pairwise(weights: str) -> None:
    df = _ratings(4)
    cats = [0, 1, 2, 3, 4]  # one category no one used: the weights still span it
    got = _sorted(
        df.group_by("project")
        .agg(pl.col("ana").kappa.cohen("cai", weights=weights, categories=cats).alias("k"))
        .unnest("k")
    )
    want = _sorted(kf.pairwise(df, ["ana", "cai"], by="project", weights=weights, categories=cats))
    assert_allclose(got["kappa"].to_numpy(), want["kappa"].to_numpy(), rtol=0, atol=1e-12)


def test_weights_without_declared_categories_are_refused_naming_the_way_out() -> None:
    df = _ratings(5)
    expr = pl.col("ana").kappa.cohen("ben", weights="linear")
    with pytest.raises(kf.KappaFrameError, match=r"categories=") as refused:
        df.group_by("project").agg(expr)
    assert "pl.Enum" in str(refused.value)


def test_an_enum_declares_the_order_for_weights() -> None:
    levels = ["low", "mid", "high"]
    rng = np.random.default_rng(6)
    df = pl.DataFrame(
        {
            "g": rng.choice(["x", "y"], 120),
            "ana": rng.choice(levels, 120),
            "ben": rng.choice(levels, 120),
        }
    ).with_columns(pl.col("ana", "ben").cast(pl.Enum(levels)))
    got = _sorted(
        df.group_by("g")
        .agg(pl.col("ana").kappa.cohen("ben", weights="quadratic").alias("k"))
        .unnest("k")
        .rename({"g": "project"})
    )
    want = _sorted(
        kf.pairwise(df, ["ana", "ben"], by="g", weights="quadratic").rename({"g": "project"})
    )
    assert_allclose(got["kappa"].to_numpy(), want["kappa"].to_numpy(), rtol=0, atol=1e-12)


def test_over_puts_each_groups_struct_on_its_rows() -> None:
    df = _ratings(7)
    out = df.with_columns(pl.col("ana").kappa.cohen("ben").over("project").alias("k"))
    per_group = kf.pairwise(df, ["ana", "ben"], by="project")
    want = dict(zip(per_group["project"], per_group["kappa"], strict=True))
    got = out.select("project", pl.col("k").struct.field("kappa"))
    for project, kappa in got.iter_rows():
        assert kappa == pytest.approx(want[project], abs=1e-12)
    assert out.height == df.height and df.columns == out.columns[:-1]


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_fleiss_and_alpha_in_a_lazy_plan_equal_overall(level: str) -> None:
    df = _ratings(8)
    got = _sorted(
        df.lazy()
        .group_by("project")
        .agg(
            pl.col("ana").kappa.fleiss("ben", "cai").alias("fleiss"),
            pl.col("ana").kappa.alpha(pl.col("ben"), "cai", level=level).alias("alpha"),
        )
        .collect()
    )
    for method, column in (("fleiss", "fleiss"), ("krippendorff", "alpha")):
        want = _sorted(
            kf.overall(df, ["ana", "ben", "cai"], by="project", method=method, level=level)
            if method == "krippendorff"
            else kf.overall(df, ["ana", "ben", "cai"], by="project", method=method)
        )
        fields = got[column].struct.unnest()
        assert fields["n_items"].to_list() == want["n_items"].to_list()
        assert fields["n_raters"].to_list() == want["n_raters"].to_list()
        for name in ("p_o", "p_e", "value"):
            assert_allclose(fields[name].to_numpy(), want[name].to_numpy(), rtol=0, atol=1e-12)


def test_expressions_that_are_not_columns_are_named_by_their_output() -> None:
    df = _ratings(9)
    got = df.select(pl.col("ana").kappa.cohen((pl.col("ben") + 0).alias("ben2"))).item()
    want = kf.pairwise(df, ["ana", "ben"])
    assert got["kappa"] == pytest.approx(want["kappa"].item(), abs=1e-12)


def test_a_column_given_twice_is_refused() -> None:
    with pytest.raises(kf.KappaFrameError, match=r"'ana' comes more than once.*alias"):
        pl.col("ana").kappa.fleiss("ben", "ana")


def test_a_bad_option_is_refused_when_the_expression_is_built() -> None:
    with pytest.raises(kf.KappaFrameError) as refused:
        pl.col("ana").kappa.alpha("ben", level="ratio-ish")
    assert refused.value.option == "level"
    with pytest.raises(kf.KappaFrameError, match="other"):
        pl.col("ana").kappa.cohen(3)


def test_labels_outside_the_declared_categories_are_refused_naming_them() -> None:
    df = pl.DataFrame({"ana": [1, 2, 3], "ben": [1, 2, 9]})
    with pytest.raises(kf.KappaFrameError, match=r"label 9, which is not in categories="):
        df.select(pl.col("ana").kappa.cohen("ben", categories=[1, 2, 3]))


def test_the_callers_frame_is_not_modified() -> None:
    df = _ratings(10)
    before = df.clone()
    df.group_by("project").agg(pl.col("ana").kappa.cohen("ben"))
    assert df.equals(before)


def test_a_frame_adapter_module_half_imported_by_another_thread_is_not_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Polars runs expressions in threads: one may see another's import half done."""
    import sys
    import types

    from kappaframe._api import plan

    monkeypatch.setitem(sys.modules, "kappaframe._frames.polars", types.ModuleType("half"))
    assert plan._adapted(object()) is False
