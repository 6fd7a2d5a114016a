"""Per-item agreement (kappaframe._stats.items): Fleiss' p_i, entropy, against the literature."""

from __future__ import annotations

import numpy as np
import pytest

from kappaframe._stats.items import per_item

#: statsmodels' test table for fleiss_kappa (statsmodels/stats/tests/test_inter_rater.py,
#: ``table0``): 10 subjects, 14 raters, 5 categories, and each subject's agreement P_i as
#: printed there, to three decimals.
TABLE0 = np.array(
    [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
)
TABLE0_P_I = [1.000, 0.253, 0.308, 0.440, 0.330, 0.462, 0.242, 0.176, 0.286, 0.286]

#: Fleiss (1971): 30 patients, 6 psychiatrists, 5 diagnoses (statsmodels' ``diagnoses``).
DIAGNOSES = [
    "444444", "222555", "233335", "555555", "222444", "113333", "333355", "113334",
    "114444", "555555", "144444", "124444", "222333", "144444", "224445", "333335",
    "111455", "111112", "224444", "133555", "555555", "244444", "224555", "114444",
    "144445", "222224", "111155", "224444", "133333", "555555",
]  # fmt: skip


def diagnoses_table() -> np.ndarray:
    codes = np.array([[int(c) - 1 for c in row] for row in DIAGNOSES])
    return np.stack([(codes == k).sum(axis=1) for k in range(5)], axis=1)


def test_per_subject_agreement_of_the_published_table() -> None:
    out = per_item(TABLE0)
    assert np.round(out["p_i"], 3).tolist() == TABLE0_P_I
    assert out["n_ratings"].tolist() == [14] * 10
    assert out["n_distinct"].tolist() == [1, 4, 3, 3, 5, 2, 4, 5, 4, 4]


def test_mean_per_subject_agreement_is_fleiss_p_bar() -> None:
    """Fleiss (1971): P-bar = 0.556, P_e = 0.220, kappa = 0.430 on the diagnoses."""
    table = diagnoses_table()
    p_i = per_item(table)["p_i"]
    p_bar = p_i.mean()
    shares = table.sum(axis=0) / table.sum()
    p_e = float((shares**2).sum())
    assert round(p_bar, 3) == 0.556 and round(p_e, 3) == 0.220
    assert (p_bar - p_e) / (1 - p_e) == pytest.approx(0.4302445, abs=1e-7)
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    kappa = inter_rater.fleiss_kappa(table)
    assert (p_bar - p_e) / (1 - p_e) == pytest.approx(kappa, abs=1e-12)


def test_one_rating_has_no_agreement_and_no_rating_no_entropy() -> None:
    out = per_item(np.array([[0, 1, 0], [0, 0, 0], [2, 0, 0]]))
    assert np.isnan(out["p_i"][0]) and np.isnan(out["p_i"][1])
    assert out["p_i"][2] == 1.0
    assert out["entropy"][0] == 0.0 and np.isnan(out["entropy"][1])
    assert not np.signbit(out["entropy"][[0, 2]]).any()


def test_entropy_is_in_bits() -> None:
    out = per_item(np.array([[1, 1, 0, 0], [1, 1, 1, 1], [5, 0, 0, 0], [3, 1, 0, 0]]))
    np.testing.assert_allclose(out["entropy"][:3], [1.0, 2.0, 0.0], rtol=0, atol=1e-15)
    expected = -(0.75 * np.log2(0.75) + 0.25 * np.log2(0.25))
    assert out["entropy"][3] == pytest.approx(expected, abs=1e-15)


def test_p_i_by_hand_on_random_counts(rng: np.random.Generator) -> None:
    counts = rng.integers(0, 4, size=(200, 5))
    out = per_item(counts)
    for row, value in zip(counts, out["p_i"], strict=True):
        n = row.sum()
        labels = np.repeat(np.arange(5), row)
        agree = sum(
            labels[a] == labels[b] for a in range(n) for b in range(n) if a != b
        )  # ordered pairs of distinct ratings
        if n < 2:
            assert np.isnan(value)
        else:
            assert value == pytest.approx(agree / (n * (n - 1)), abs=1e-15)
