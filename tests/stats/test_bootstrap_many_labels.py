"""The bootstrap with many labels: drawn over the occupied cells, the same kappas."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe._stats import bootstrap
from kappaframe._stats.agreement import agreement, weight_matrix


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_occupied_cells_give_the_kappa_of_the_whole_table(weights: Any) -> None:
    """Kappa summed from a draw's occupied cells equals agreement() on the full K x K table."""
    rng = np.random.default_rng(3)
    k = 80
    table = np.zeros(k * k, dtype=np.int64)
    cells = rng.choice(k * k, 300, replace=False)
    table[cells] = rng.integers(1, 5, 300)
    n = int(table.sum())
    w = weight_matrix(weights, range(k))
    drawn: list[np.ndarray] = []

    def draw(total: int, probs: np.ndarray, size: int) -> np.ndarray:
        out = rng.multinomial(total, probs, size=size)
        drawn.append(out)
        return out

    kappas = bootstrap._occupied_replicates(table, n, k, w, 50, draw, 100_000)
    occupied = np.flatnonzero(table)
    full = np.zeros((50, k * k), dtype=np.int64)
    full[:, occupied] = np.concatenate(drawn)
    expected = agreement(full.reshape(50, k, k), w)["kappa"]
    np.testing.assert_allclose(kappas, expected, rtol=0, atol=1e-12)
    assert len(drawn) > 1  # small chunks: several draws, still the same kappas


def test_many_labels_bootstrap_is_seeded_and_close_to_the_analytic_se() -> None:
    rng = np.random.default_rng(0)
    a = rng.integers(0, 500, 3000)
    b = np.where(rng.random(3000) < 0.6, a, rng.integers(0, 500, 3000))
    df = pd.DataFrame({"a": a, "b": b})
    opts = {"ci": 0.95, "ci_method": "bootstrap", "n_boot": 400, "seed": 7, "weights": "linear"}
    first, again = kf.pairwise(df, **opts), kf.pairwise(df, **opts)
    pd.testing.assert_frame_equal(first, again)
    analytic = kf.pairwise(df, ci=0.95, weights="linear")
    assert first["se"].item() == pytest.approx(analytic["se"].item(), rel=0.15)
    assert first["ci_low"].item() < first["kappa"].item() < first["ci_high"].item()
