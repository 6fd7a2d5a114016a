"""scikit-learn (``sklearn/metrics/tests/test_classification.py``): frozen values.

Each value is the one ``test_cohen_kappa`` asserts (Artstein & Poesio 2008's tables).
Where scikit-learn and kappaframe differ on a convention the test says which one
kappaframe follows: a label outside ``labels`` is an error here, where scikit-learn
drops those items silently.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf


def test_cohen_kappa_two_categories() -> None:
    # Artstein and Poesio (2008), Table 1: [[20, 20], [10, 50]] -> 0.348
    y1 = np.array([0] * 40 + [1] * 60)
    y2 = np.array([0] * 20 + [1] * 20 + [0] * 10 + [1] * 50)
    kappa = kf.cohen_kappa(y1, y2)
    assert round(kappa, 3) == 0.348
    assert kappa == kf.cohen_kappa(y2, y1)
    assert kf.cohen_kappa(y1, y1) == pytest.approx(1.0)
    # The same through the frame API, with its standard error columns.
    res = kf.pairwise(pd.DataFrame({"y1": y1, "y2": y2}), ci=0.95)
    assert float(res["kappa"].iloc[0]) == pytest.approx(kappa, abs=1e-15)


def test_labels_outside_labels_are_an_error_not_dropped() -> None:
    # scikit-learn: cohen_kappa_score(y1 + [2] * 4, y2 + [2] * 4, labels=[0, 1]) == kappa
    # (the items labelled 2 are ignored). kappaframe refuses a label outside `labels`;
    # dropping those items first gives scikit-learn's number.
    y1 = np.array([0] * 40 + [1] * 60 + [2] * 4)
    y2 = np.array([0] * 20 + [1] * 20 + [0] * 10 + [1] * 50 + [2] * 4)
    with pytest.raises(kf.KappaFrameError):
        kf.cohen_kappa(y1, y2, labels=[0, 1])
    keep = (y1 != 2) & (y2 != 2)
    assert round(kf.cohen_kappa(y1[keep], y2[keep], labels=[0, 1]), 3) == 0.348


def test_cohen_kappa_three_categories() -> None:
    # Artstein and Poesio (2008), Table 4 -> 0.8013
    y1 = np.array([0] * 46 + [1] * 44 + [2] * 10)
    y2 = np.array([0] * 52 + [1] * 32 + [2] * 16)
    assert round(kf.cohen_kappa(y1, y2), 4) == 0.8013


@pytest.mark.parametrize(
    ("weights", "expected"), [(None, 0.9315), ("linear", 0.9412), ("quadratic", 0.9541)]
)
def test_cohen_kappa_weighted(weights: str | None, expected: float) -> None:
    # Weighting example: none 0.9315, linear 0.9412, quadratic 0.9541
    y1 = np.array([0] * 46 + [1] * 44 + [2] * 10)
    y2 = np.array([0] * 50 + [1] * 40 + [2] * 10)
    assert round(kf.cohen_kappa(y1, y2, weights=weights), 4) == expected


@pytest.mark.parametrize(("vector", "named"), [([0, 1, 2], "linear"), ([0, 1, 4], "quadratic")])
def test_weights_by_distance_vector(vector: list[int], named: str) -> None:
    # A 1-D vector of disagreement weights by distance |i - j| (statsmodels'
    # wt="toeplitz") names the same weights as scikit-learn's strings.
    y1 = np.array([0] * 46 + [1] * 44 + [2] * 10)
    y2 = np.array([0] * 50 + [1] * 40 + [2] * 10)
    assert kf.cohen_kappa(y1, y2, weights=vector) == pytest.approx(
        kf.cohen_kappa(y1, y2, weights=named), abs=1e-15
    )


def test_live_scikit_learn_agrees() -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(7)
    y1 = rng.integers(0, 4, 200)
    y2 = np.where(rng.random(200) < 0.6, y1, rng.integers(0, 4, 200))
    for weights in [None, "linear", "quadratic"]:
        assert kf.cohen_kappa(y1, y2, weights=weights) == pytest.approx(
            metrics.cohen_kappa_score(y1, y2, weights=weights), abs=1e-12
        )
