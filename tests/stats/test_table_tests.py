"""The two-rater table tests against statsmodels, printed examples and hand computations."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import SquareTable, mcnemar

from kappaframe._stats import table_tests as tt


def random_tables(k: int, count: int = 60, seed: int = 0) -> np.ndarray:
    """Seeded (count, 1, K, K) tables with many zero cells (Poisson means from 0 to 3).

    In every third table one category is never disagreed on (its off-diagonal cells 0).
    """
    rng = np.random.default_rng(seed + k)
    tables = rng.poisson(rng.uniform(0.0, 3.0, size=(count, 1, k, k)))
    for i in range(0, count, 3):
        c = rng.integers(k)
        diag = tables[i, 0, c, c]
        tables[i, 0, c, :] = tables[i, 0, :, c] = 0
        tables[i, 0, c, c] = diag
    return tables


def statsmodels_square(table: np.ndarray) -> tuple[object, object]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its singular-matrix warning: NaN, compared below
        square = SquareTable(table, shift_zeros=False)
        return square.homogeneity(), square.symmetry()


def disagreed(table: np.ndarray) -> np.ndarray:
    """The table less the categories the two raters never disagree on."""
    off = table - np.diag(np.diag(table))
    keep = (off.sum(axis=0) + off.sum(axis=1)) > 0
    return table[np.ix_(keep, keep)]


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_stuart_maxwell_and_bowker_are_statsmodels(k: int) -> None:
    tables = random_tables(k)
    assert (tables == 0).any()  # zero cells are part of the check
    homogeneity, symmetry = tt.stuart_maxwell(tables), tt.bowker(tables)
    full = reduced = 0
    for i, table in enumerate(tables[:, 0]):
        if table.sum() == 0:
            continue
        h, s = statsmodels_square(table)
        assert symmetry["chi2"][i, 0] == pytest.approx(s.statistic, rel=1e-12, abs=1e-12)
        assert symmetry["p"][i, 0] == pytest.approx(s.pvalue, abs=1e-12)
        assert symmetry["df"][i, 0] == s.df
        chi2, df, p = (homogeneity[part][i, 0] for part in ("chi2", "df", "p"))
        if df == k - 1:  # V invertible: statsmodels' d' V^-1 d
            full += 1
            assert chi2 == pytest.approx(h.statistic, rel=1e-12, abs=1e-12)
            assert p == pytest.approx(h.pvalue, abs=1e-12)
            continue
        # V singular: the test over the categories the raters disagree on.
        kept = disagreed(table)
        h_kept, _ = statsmodels_square(kept) if len(kept) > 1 else (None, None)
        if h_kept is None:
            assert (chi2, df, p) == (0.0, 0, 1.0)
        elif np.isfinite(h_kept.statistic) and h_kept.df == df:
            reduced += 1
            assert chi2 == pytest.approx(h_kept.statistic, rel=1e-12, abs=1e-12)
            assert p == pytest.approx(h_kept.pvalue, abs=1e-12)
        else:  # the disagreements split the categories in separate blocks
            assert df < len(kept) - 1
    assert full > len(tables) // 3 and (k == 2 or reduced > 0)


def test_bowker_counts_an_empty_pair_of_cells_as_statsmodels_does() -> None:
    # n_13 = n_31 = 0: the pair adds 0 and keeps its degree of freedom (statsmodels' 1e-20).
    table = np.array([[5, 3, 0], [1, 4, 2], [0, 6, 7]])
    res = tt.bowker(table)
    _, s = statsmodels_square(table)
    assert float(res["chi2"]) == pytest.approx(s.statistic, rel=1e-12)
    assert float(res["chi2"]) == pytest.approx((3 - 1) ** 2 / 4 + (2 - 6) ** 2 / 8, rel=1e-15)
    assert int(res["df"]) == 3 == s.df
    assert float(res["p"]) == pytest.approx(s.pvalue, abs=1e-12)


def test_stuart_maxwell_drops_a_category_never_disagreed_on() -> None:
    # The first category is never disagreed on: its row and column of V are 0, statsmodels
    # gives NaN; the test is the one over the other two categories, on 1 degree of freedom.
    table = np.array([[5, 0, 0], [0, 4, 2], [0, 6, 7]])
    h, _ = statsmodels_square(table)
    assert np.isnan(h.statistic)
    res = tt.stuart_maxwell(table)
    assert int(res["df"]) == 1
    assert float(res["chi2"]) == pytest.approx((2 - 6) ** 2 / (2 + 6), rel=1e-12)  # McNemar
    perfect = tt.stuart_maxwell(np.diag([3, 4, 5]))
    assert (float(perfect["chi2"]), int(perfect["df"]), float(perfect["p"])) == (0.0, 0, 1.0)


def test_the_default_statsmodels_table_shifts_zero_cells() -> None:
    # Why the tests compare with shift_zeros=False: the default changes a table with a zero.
    table = np.array([[3, 0, 1], [2, 4, 0], [0, 1, 5]])
    ours = float(tt.bowker(table)["chi2"])
    assert ours == pytest.approx(SquareTable(table, shift_zeros=False).symmetry().statistic)
    assert ours != pytest.approx(SquareTable(table).symmetry().statistic)


def test_one_category_and_an_empty_table() -> None:
    one = tt.stuart_maxwell(np.array([[[7]], [[0]]]))
    assert one["chi2"][0] == 0 and one["df"][0] == 0 and one["p"][0] == 1
    assert np.isnan(one["chi2"][1]) and np.isnan(one["p"][1])
    empty = np.zeros((3, 3), dtype=np.int64)
    assert np.isnan(tt.bowker(empty)["chi2"]) and np.isnan(tt.stuart_maxwell(empty)["chi2"])
    assert np.isnan(tt.bangdiwala_b(empty))


@pytest.mark.parametrize("correction", [False, True])
def test_mcnemar_is_statsmodels(correction: bool) -> None:
    tables = random_tables(2, count=80)
    res = tt.mcnemar(tables, correction=correction)
    for i, table in enumerate(tables[:, 0]):
        if table[0, 1] + table[1, 0] == 0:
            assert np.isnan(res["chi2"][i, 0])  # statsmodels: NaN, or inf with correction
            continue
        expected = mcnemar(table, exact=False, correction=correction)
        assert res["chi2"][i, 0] == pytest.approx(expected.statistic, rel=1e-12, abs=1e-12)
        assert res["p"][i, 0] == pytest.approx(expected.pvalue, abs=1e-12)


def test_mcnemar_without_correction_is_stuart_maxwell_of_two_categories() -> None:
    tables = random_tables(2, count=40, seed=5)
    plain = tt.mcnemar(tables, correction=False)["chi2"]
    homogeneity = tt.stuart_maxwell(tables)["chi2"]
    both = np.isfinite(plain)
    assert both.sum() > 20
    np.testing.assert_allclose(plain[both], homogeneity[both], rtol=1e-12)


def test_bangdiwala_b_is_irrcac_printed_ben_gerry() -> None:
    # irrCAC's bangdiwala2RR.fn(cac.ben.gerry[, c(3, 4)]) prints coeff.val 0.64 (n = 11):
    # the 11 items both Ben and Gerry rated (categories a..e), rows Ben, columns Gerry.
    ben, gerry = "aabbdcccedda", "babbbccce?dd"
    cats = "abcde"
    table = np.zeros((5, 5), dtype=np.int64)
    for x, y in zip(ben, gerry, strict=True):
        if y != "?":
            table[cats.index(x), cats.index(y)] += 1
    assert table.sum() == 11
    assert float(tt.bangdiwala_b(table)) == pytest.approx(0.64, abs=5e-15)


def test_bangdiwala_b_by_hand() -> None:
    table = np.array([[40, 10], [2, 48]])
    expected = (40**2 + 48**2) / (50 * 42 + 50 * 58)
    assert float(tt.bangdiwala_b(table)) == pytest.approx(expected, rel=1e-15)
    assert float(tt.bangdiwala_b(np.diag([3, 4, 5]))) == 1.0
    assert float(tt.bangdiwala_b(np.array([[0, 3], [2, 0]]))) == 0.0


def test_specific_agreement_of_two_categories_by_hand() -> None:
    a, b, c, d = 40, 10, 2, 48  # rows: first rater; the second category is "positive"
    table = np.array([[d, c], [b, a]])
    res = tt.specific_agreement(table)
    assert res["value"][1] == pytest.approx(2 * a / (2 * a + b + c), rel=1e-15)
    assert res["value"][0] == pytest.approx(2 * d / (2 * d + b + c), rel=1e-15)
    m = b + c
    assert res["var"][1] == pytest.approx(4 * a * m * (a + m) / (2 * a + m) ** 4, rel=1e-15)


def test_specific_agreement_variance_is_the_delta_method() -> None:
    # Independent check: numerical gradient of s_k over the cell proportions, with the
    # multinomial covariance (diag(p) - p p') / n.
    table = np.array([[12, 3, 1], [4, 9, 2], [0, 5, 14]], dtype=float)
    n = table.sum()
    p = table.ravel() / n
    cov = (np.diag(p) - np.outer(p, p)) / n
    res = tt.specific_agreement(table)
    for k in range(3):

        def s(q: np.ndarray, k: int = k) -> float:
            t = q.reshape(3, 3)
            return 2 * t[k, k] / (t[k].sum() + t[:, k].sum())

        grad = np.array([(s(p + h) - s(p - h)) / 2e-7 for h in np.eye(9) * 1e-7])
        assert res["var"][k] == pytest.approx(grad @ cov @ grad, rel=1e-6)
        assert res["value"][k] == pytest.approx(s(p), rel=1e-15)


def test_specific_agreement_of_an_unused_category_is_nan() -> None:
    res = tt.specific_agreement(np.array([[5, 1, 0], [2, 6, 0], [0, 0, 0]]))
    assert np.isnan(res["value"][2]) and np.isnan(res["var"][2])
    assert np.isfinite(res["value"][:2]).all()
