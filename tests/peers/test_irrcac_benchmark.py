"""Gwet's probabilistic benchmarking against irrCAC's printed membership probabilities.

Frozen from irrCAC's Python port (afergadis/irrCAC), ``test/unit/irrCAC/benchmark/
test_benchmark.py`` (``Benchmark(coeff=0.67, se=0.15)``) and the docstring example of
``irrCAC/benchmark.py`` (a custom three-band scale); irrCAC rounds to 5 decimals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

# test_benchmark.py: expected_cumprob of each scale, highest band first.
CUMULATIVE = {
    "landis_koch": [0.18168, 0.67511, 0.96356, 0.99912, 1.0, 1.0],  # test_landis_koch
    "altman": [0.18168, 0.67511, 0.96356, 0.99912, 1.0],  # test_altman
    "fleiss": [0.28699, 0.96356, 1.0],  # test_fleiss
    "cicchetti": [0.28699, 0.67511, 0.96356, 1.0],  # test_cicchetti_sparrow
}
CHOSEN = {
    "landis_koch": "moderate",
    "altman": "moderate",
    "fleiss": "fair to good",
    "cicchetti": "fair",
}


@pytest.mark.parametrize("scale", list(CUMULATIVE))
def test_membership_probabilities_of_every_builtin_scale(scale: str) -> None:
    res = kf.benchmark(0.67, 0.15, scale=scale)
    assert np.round(res["cumulative"].to_numpy(), 5).tolist() == CUMULATIVE[scale]
    assert res["probability"].sum() == pytest.approx(1.0, abs=1e-12)
    assert res.loc[res["chosen"], "band"].tolist() == [CHOSEN[scale]]


def test_a_custom_scale_as_the_docstring_prints_it() -> None:
    # benchmark.py docstring: lb=[0.6, 0.3, 0.0], ub=[1.0, 0.6, 0.3] -> [0.67511, 0.99308, 1.0]
    res = kf.benchmark(0.67, 0.15, scale={0.0: "Poor", 0.3: "Acceptable", 0.6: "Excellent"})
    assert res["cumulative"].to_numpy() == pytest.approx([0.67511, 0.99308, 1.0], abs=1e-5)
    assert res.loc[res["chosen"], "band"].tolist() == ["Acceptable"]


def test_the_benchmark_columns_of_pairwise_and_overall_follow_the_bands() -> None:
    team = kf.datasets.labeling_team()
    raters = ["ana", "ben", "cai", "dee", "eli"]
    point = kf.pairwise(team, raters, by="project", ci=0.9)
    res = kf.pairwise(team, raters, by="project", ci=0.9, benchmark="probabilistic")
    pd.testing.assert_frame_equal(
        res.drop(columns=["interpretation", "interpretation_p"]),
        point.drop(columns=["interpretation"]),
    )
    for row in res.itertuples():
        bands = kf.benchmark(row.kappa, row.se, level=0.9)
        chosen = bands[bands["chosen"]]
        assert row.interpretation == chosen["band"].item()
        assert row.interpretation_p == pytest.approx(chosen["cumulative"].item(), abs=1e-12)
        assert row.interpretation_p >= 0.9
    # Never a higher band than the estimate's own: the benchmark is the cautious reading.
    codes = res["interpretation"].cat.codes.to_numpy()
    assert (codes <= point["interpretation"].cat.codes.to_numpy()).all()
    assert (codes < point["interpretation"].cat.codes.to_numpy()).any()

    overall = kf.overall(team, raters, by="project", ci=0.95, benchmark="probabilistic")
    for row in overall.itertuples():
        bands = kf.benchmark(row.value, row.se)
        assert row.interpretation == bands.loc[bands["chosen"], "band"].item()


def test_the_benchmark_needs_a_standard_error() -> None:
    df = pd.DataFrame({"a": [1, 2, 1, 2], "b": [1, 2, 2, 2]})
    with pytest.raises(kf.KappaFrameError, match=r"pass ci=0\.95"):
        kf.pairwise(df, benchmark="probabilistic")
    with pytest.raises(kf.KappaFrameError, match="benchmark"):
        kf.pairwise(df, ci=0.95, benchmark="gwet")
    with pytest.raises(kf.KappaFrameError, match="coeff must lie"):
        kf.benchmark(1.5, 0.1)


def test_regier_as_irrcac_prints_it() -> None:
    # test_benchmark.py::test_regier: Benchmark(0.67, 0.15).regier()
    res = kf.benchmark(0.67, 0.15, scale="regier")
    assert np.round(res["cumulative"].to_numpy(), 5).tolist() == [
        0.18168,
        0.67511,
        0.96356,
        0.99912,
        1.0,
    ]
    assert res["band"].tolist() == [
        "excellent",
        "very good",
        "good",
        "questionable",
        "unacceptable",
    ]
    assert res.loc[res["chosen"], "band"].tolist() == ["good"]
    assert kf.overall(pd.DataFrame({"a": [1, 2, 1, 2] * 5, "b": [1, 2, 2, 2] * 5}), scale="regier")[
        "interpretation"
    ].tolist() == ["good"]  # 0.467


def test_cumulated_in_the_scale_s_own_order() -> None:
    # test_benchmark.py::test_custom_scale: lb=[0.0, 0.3, 0.6], listed lowest first,
    # cumulates from the bottom: [0.00691, 0.32488, 1.0].
    scale = {0.0: "Poor", 0.3: "Acceptable", 0.6: "Excellent"}
    res = kf.benchmark(0.67, 0.15, scale=scale, order="as-given")
    assert np.round(res["cumulative"].to_numpy(), 5).tolist() == [0.00691, 0.32488, 1.0]
    assert res["band"].tolist() == ["Poor", "Acceptable", "Excellent"]
    # The chosen band is Gwet's reading in either order.
    top = kf.benchmark(0.67, 0.15, scale=scale)
    assert res.loc[res["chosen"], "band"].tolist() == top.loc[top["chosen"], "band"].tolist()
    # A built-in scale is listed highest first either way.
    pd.testing.assert_frame_equal(
        kf.benchmark(0.67, 0.15, scale="altman", order="as-given"),
        kf.benchmark(0.67, 0.15, "altman"),
    )
    with pytest.raises(kf.KappaFrameError, match="order"):
        kf.benchmark(0.67, 0.15, order="lowest-first")  # type: ignore[arg-type]
