"""Worked examples of the literature, frozen as tests."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest


def frame_from_table(table: list[list[int]], categories: list[str]) -> pd.DataFrame:
    """Expand a K x K contingency table into one row per item."""
    a, b = [], []
    for i, row in enumerate(table):
        for j, count in enumerate(row):
            a += [categories[i]] * count
            b += [categories[j]] * count
    return pd.DataFrame({"a": a, "b": b})


@pytest.mark.parametrize(
    ("table", "p_o", "p_e", "kappa"),
    [
        # Spam / not spam: 20, 10, 5, 65.
        ([[20, 10], [5, 65]], 0.85, 0.60, 0.625),
        # Two grant readers, yes / no: 20, 5, 10, 15.
        ([[20, 5], [10, 15]], 0.70, 0.50, 0.40),
        # Same observed agreement (0.60), different marginals: the kappa paradox.
        ([[45, 15], [25, 15]], 0.60, 0.54, 0.06 / 0.46),
        ([[25, 35], [5, 35]], 0.60, 0.46, 0.14 / 0.54),
    ],
)
def test_two_by_two_examples(table: list[list[int]], p_o: float, p_e: float, kappa: float) -> None:
    df = frame_from_table(table, ["yes", "no"])
    res = df.kappa.pairwise()
    assert res["n"].iloc[0] == np.sum(table)
    assert res["p_o"].iloc[0] == pytest.approx(p_o, abs=1e-12)
    assert res["p_e"].iloc[0] == pytest.approx(p_e, abs=1e-12)
    assert res["kappa"].iloc[0] == pytest.approx(kappa, abs=1e-12)


def test_paradox_rounded_values() -> None:
    a = frame_from_table([[45, 15], [25, 15]], ["y", "n"]).kappa.score("a", "b")
    b = frame_from_table([[25, 35], [5, 35]], ["y", "n"]).kappa.score("a", "b")
    assert round(a, 4) == 0.1304
    assert round(b, 4) == 0.2593


def test_cohen_1960_three_categories() -> None:
    # Cohen (1960)'s example: p_o = .70, marginals (.60, .30, .10) and (.50, .30, .20),
    # p_e = .41, kappa = .492. Off-diagonal cells chosen to give those marginals (x 200).
    table = [[88, 14, 18], [10, 40, 10], [2, 6, 12]]
    df = frame_from_table(table, ["c1", "c2", "c3"])
    res = df.kappa.pairwise()
    assert res["p_o"].iloc[0] == pytest.approx(0.70, abs=1e-12)
    assert res["p_e"].iloc[0] == pytest.approx(0.41, abs=1e-12)
    assert round(float(res["kappa"].iloc[0]), 3) == 0.492
