"""Counts are never rounded: fractional (weighted) counts give a fractional ``n``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe._report.report import render_text

TABLE = [[1.5, 0.5], [0.25, 2.25]]  # 4.5 items' worth of weighted counts


def test_fractional_counts_keep_n_fractional() -> None:
    counts = kf.Counts.from_table(TABLE)
    res = counts.pairwise(min_items=None)
    assert res["n"].dtype == np.float64
    assert res["n"].item() == 4.5
    assert "4.500" in render_text(res)
    square = counts.matrix(stat="n")
    assert square.to_numpy().tolist() == [[4.5, 4.5], [4.5, 4.5]]
    sm = pytest.importorskip("statsmodels.stats.inter_rater")
    assert res["kappa"].item() == pytest.approx(sm.cohens_kappa(np.array(TABLE)).kappa, abs=1e-12)


def test_whole_counts_keep_integer_n() -> None:
    team = kf.datasets.labeling_team()
    assert kf.pairwise(team, ["ana", "ben"])["n"].dtype == np.int64
    assert (kf.matrix(team, ["ana", "ben"], stat="n").dtypes == np.int64).all()
    whole = kf.Counts.from_table([[3, 1], [0, 4]]).pairwise()
    assert whole["n"].dtype == np.int64 and whole["n"].item() == 8


def test_weighted_cells_read_back_fractional(tmp_path: object) -> None:
    cells = pd.DataFrame(
        {
            "rater_a": ["x", "x", "x"],
            "rater_b": ["y", "y", "y"],
            "label_a": ["a", "a", "b"],
            "label_b": ["a", "b", "b"],
            "count": [1.25, 0.5, 2.0],
        }
    )
    res = kf.Counts.from_frame(cells, categories=["a", "b"]).pairwise(min_items=None)
    assert res["n"].item() == 3.75
