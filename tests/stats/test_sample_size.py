"""Sample sizes against R's kappaSize, the literature, and the simulation's own check.

The frozen values come from kappaSize 1.2 (Rotondi 2018, CRAN 2018-11-26): its R sources
(``R/powerBinary.R``, ``R/power3Cats.R`` ... ``R/CI5Cats.R``, ``R/FixedN*.R``) run under R
4.2.2. The documented examples are the ``\\examples`` of its manual pages (they print no
result; the counts below are what each call prints).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from kappaframe._stats import sample_size as s

#: The shares used for each number of categories in the grid below.
PROPS = {
    2: [0.3, 0.7],
    3: [0.3, 0.6, 0.1],
    4: [0.3, 0.3, 0.3, 0.1],
    5: [0.3, 0.2, 0.1, 0.3, 0.1],
}

#: (K, raters, a, b, N, n_one_sided, n_lower, n_both) from kappaSize 1.2 with the shares above:
#: N = Power*(kappa0=a, kappa1=b, raters=, alpha=0.05, power=0.8)$N (unrounded);
#: n_one_sided = ceiling(Power*(kappa0=a, kappa1=b, alpha=0.1, power=0.9)$N), a two-sided
#: 0.1 test, which is the one-sided 0.05 test at power 0.9;
#: n_lower = CI*(kappa0=b, kappaL=a, kappaU=NA, alpha=0.05)$n;
#: n_both = CI*(kappa0=b, kappaL=b - 0.1, kappaU=b + 0.1, alpha=0.05)$n.
KAPPASIZE_GRID = [
    (2, 2, 0.2, 0.5, 92.581243, 102, 32, 373),
    (2, 2, 0.4, 0.6, 190.456402, 208, 66, 337),
    (2, 2, 0.6, 0.8, 148.008171, 162, 52, 233),
    (2, 3, 0.2, 0.5, 43.422806, 48, 15, 207),
    (2, 3, 0.4, 0.6, 105.521665, 116, 37, 197),
    (2, 3, 0.6, 0.8, 89.422133, 98, 31, 145),
    (2, 4, 0.2, 0.5, 30.510769, 34, 11, 158),
    (2, 4, 0.4, 0.6, 80.611580, 88, 28, 154),
    (2, 4, 0.6, 0.8, 71.240799, 78, 25, 118),
    (2, 5, 0.2, 0.5, 24.936402, 28, 11, 135),
    (2, 5, 0.4, 0.6, 68.741641, 76, 24, 133),
    (2, 5, 0.6, 0.8, 62.416369, 69, 22, 104),
    (2, 6, 0.2, 0.5, 21.646029, 24, 11, 121),
    (2, 6, 0.4, 0.6, 61.698727, 68, 22, 121),
    (2, 6, 0.6, 0.8, 57.259196, 63, 20, 96),
    (3, 2, 0.2, 0.5, 60.581442, 67, 21, 264),
    (3, 2, 0.4, 0.6, 134.782304, 148, 47, 245),
    (3, 2, 0.6, 0.8, 109.315503, 120, 38, 175),
    (3, 3, 0.2, 0.5, 27.885410, 31, 11, 147),
    (3, 3, 0.4, 0.6, 73.115580, 80, 26, 142),
    (3, 3, 0.6, 0.8, 64.326952, 71, 23, 108),
    (3, 4, 0.2, 0.5, 17.820763, 20, 11, 110),
    (3, 4, 0.4, 0.6, 53.149187, 58, 19, 108),
    (3, 4, 0.6, 0.8, 48.934877, 54, 17, 84),
    (3, 5, 0.2, 0.5, 13.004127, 15, 11, 94),
    (3, 5, 0.4, 0.6, 43.240179, 48, 15, 91),
    (3, 5, 0.6, 0.8, 40.987371, 45, 15, 72),
    (3, 6, 0.2, 0.5, 10.189948, 12, 11, 86),
    (3, 6, 0.4, 0.6, 37.277606, 41, 13, 81),
    (3, 6, 0.6, 0.8, 36.056822, 40, 13, 65),
    (4, 2, 0.2, 0.5, 39.793692, 44, 14, 180),
    (4, 2, 0.4, 0.6, 91.846113, 101, 32, 170),
    (4, 2, 0.6, 0.8, 77.281656, 85, 27, 126),
    (4, 3, 0.2, 0.5, 18.546300, 21, 11, 104),
    (4, 3, 0.4, 0.6, 50.852359, 56, 18, 101),
    (4, 3, 0.6, 0.8, 45.799803, 50, 16, 78),
    (4, 4, 0.2, 0.5, 11.908688, 13, 11, 82),
    (4, 4, 0.4, 0.6, 37.422091, 41, 13, 79),
    (4, 4, 0.6, 0.8, 34.959127, 39, 13, 62),
    (4, 5, 0.2, 0.5, 8.703532, 10, 11, 74),
    (4, 5, 0.4, 0.6, 30.708800, 34, 11, 67),
    (4, 5, 0.6, 0.8, 29.337544, 33, 11, 53),
    (4, 6, 0.2, 0.5, 6.819119, 8, 11, 70),
    (4, 6, 0.4, 0.6, 26.649640, 30, 11, 60),
    (4, 6, 0.6, 0.8, 25.839105, 29, 11, 48),
    (5, 2, 0.2, 0.5, 34.169142, 38, 12, 162),
    (5, 2, 0.4, 0.6, 82.728488, 91, 29, 155),
    (5, 2, 0.6, 0.8, 71.361752, 78, 25, 117),
    (5, 3, 0.2, 0.5, 16.090337, 18, 11, 96),
    (5, 3, 0.4, 0.6, 46.383942, 51, 16, 94),
    (5, 3, 0.6, 0.8, 42.431696, 47, 15, 73),
    (5, 4, 0.2, 0.5, 10.361318, 12, 11, 79),
    (5, 4, 0.4, 0.6, 34.388482, 38, 12, 74),
    (5, 4, 0.6, 0.8, 32.442845, 36, 12, 58),
    (5, 5, 0.2, 0.5, 7.567915, 9, 11, 72),
    (5, 5, 0.4, 0.6, 28.363180, 31, 11, 63),
    (5, 5, 0.6, 0.8, 27.253716, 30, 11, 50),
    (5, 6, 0.2, 0.5, 5.914738, 7, 11, 68),
    (5, 6, 0.4, 0.6, 24.707119, 27, 11, 57),
    (5, 6, 0.6, 0.8, 24.020209, 27, 11, 45),
]


@pytest.mark.parametrize("row", KAPPASIZE_GRID, ids=lambda r: f"K{r[0]}-m{r[1]}-{r[2]}-{r[3]}")
def test_power_matches_kappasize(row: tuple) -> None:
    k, m, a, b, big_n, n_one, _, _ = row
    props = np.array(PROPS[k])
    n, n_items = s.items_for_power(a, b, props, m, 0.05, 0.8, two_sided=True)
    # kappaSize bisects the noncentrality to 1e-5 in probability: its N is within 1e-5.
    assert n == pytest.approx(big_n, rel=2e-5)
    assert n_items == math.ceil(big_n)
    assert s.items_for_power(a, b, props, m, 0.05, 0.9, two_sided=False)[1] == n_one


@pytest.mark.parametrize("row", KAPPASIZE_GRID, ids=lambda r: f"K{r[0]}-m{r[1]}-{r[2]}-{r[3]}")
def test_interval_matches_kappasize(row: tuple) -> None:
    k, m, a, b, _, _, n_lower, n_both = row
    props = np.array(PROPS[k])
    assert s.items_for_interval(b, a, None, props, m, 0.05)[1] == n_lower
    assert s.items_for_interval(b, b - 0.1, b + 0.1, props, m, 0.05)[1] == n_both


# The documented examples of kappaSize's manual, with what each call prints.
POWER_EXAMPLES = [
    # PowerBinary(kappa0=0.4, kappa1=0.6, props=0.30, alpha=0.05, power=0.80): 191
    ([0.7, 0.3], 190.456402398022, 191),
    # Power3Cats(kappa0=0.4, kappa1=0.6, props=c(0.30, 0.60, 0.10), ...): 135
    ([0.30, 0.60, 0.10], 134.782303673371, 135),
    # Power4Cats(kappa0=0.4, kappa1=0.6, props=c(0.30, 0.30, 0.30, 0.10), ...): 92
    ([0.30, 0.30, 0.30, 0.10], 91.8461127524908, 92),
    # Power5Cats(kappa0=0.4, kappa1=0.6, props=c(0.30, 0.20, 0.10, 0.30, 0.10), ...): 83
    ([0.30, 0.20, 0.10, 0.30, 0.10], 82.7284881072882, 83),
]

CI_EXAMPLES = [
    # CIBinary(kappa0=0.4, kappaL=0.3, kappaU=0.5, props=0.30, alpha=0.05): 397
    (0.4, 0.3, 0.5, [0.7, 0.3], 2, 397),
    # CI3Cats(kappa0=0.4, kappaL=0.3, kappaU=0.6, props=c(0.30, 0.2, 0.5), raters=3): 125
    (0.4, 0.3, 0.6, [0.30, 0.2, 0.5], 3, 125),
    # CI4Cats(kappa0=0.4, kappaL=0.3, kappaU=0.5, props=c(0.30, 0.2, 0.2, 0.3)): 174
    (0.4, 0.3, 0.5, [0.30, 0.2, 0.2, 0.3], 2, 174),
    # CI5Cats(kappa0=0.4, kappaL=0.3, kappaU=0.5, props=c(0.13, 0.17, 0.2, 0.2, 0.3)): 153
    (0.4, 0.3, 0.5, [0.13, 0.17, 0.2, 0.2, 0.3], 2, 153),
]

FIXED_N_EXAMPLES = [
    # FixedNBinary(kappa0=0.7, n=100, props=0.50, alpha=0.05, raters=4): kappaL 0.61
    (0.7, 100, [0.5, 0.5], 4, 0.61),
    # FixedN3Cats(kappa0=0.7, n=80, props=c(0.33, 0.34, 0.33), raters=5): kappaL 0.623
    (0.7, 80, [0.33, 0.34, 0.33], 5, 0.623),
    # FixedN4Cats(kappa0=0.7, n=80, props=c(0.4, 0.4, 0.1, 0.1), raters=5): kappaL 0.623
    (0.7, 80, [0.4, 0.4, 0.1, 0.1], 5, 0.623),
    # FixedN5Cats(kappa0=0.6, n=150, props=c(0.4, 0.2, 0.2, 0.1, 0.1), raters=2): 0.513
    (0.6, 150, [0.4, 0.2, 0.2, 0.1, 0.1], 2, 0.513),
]


@pytest.mark.parametrize(("props", "big_n", "printed"), POWER_EXAMPLES)
def test_kappasize_power_examples(props: list[float], big_n: float, printed: int) -> None:
    n, n_items = s.items_for_power(0.4, 0.6, np.array(props), 2, 0.05, 0.8, two_sided=True)
    assert n == pytest.approx(big_n, rel=2e-5)
    assert n_items == printed


@pytest.mark.parametrize(("kappa0", "low", "high", "props", "m", "printed"), CI_EXAMPLES)
def test_kappasize_interval_examples(
    kappa0: float, low: float, high: float, props: list[float], m: int, printed: int
) -> None:
    assert s.items_for_interval(kappa0, low, high, np.array(props), m, 0.05)[1] == printed


@pytest.mark.parametrize(("kappa0", "n", "props", "m", "kappa_low"), FIXED_N_EXAMPLES)
def test_kappasize_fixed_n_examples(
    kappa0: float, n: int, props: list[float], m: int, kappa_low: float
) -> None:
    assert s.lower_limit(kappa0, n, np.array(props), m, 0.05) == kappa_low


@pytest.mark.parametrize(("kappa0", "n", "props", "m", "kappa_low"), FIXED_N_EXAMPLES)
def test_kappasize_fixed_n_examples_are_the_inverse(
    kappa0: float, n: int, props: list[float], m: int, kappa_low: float
) -> None:
    # FixedN* steps kappaL down by 0.001 from kappa0 until n items reach the one-sided
    # limit: n items suffice for its kappaL, and not for 0.001 above it.
    props_a = np.array(props)
    assert s.items_for_interval(kappa0, kappa_low, None, props_a, m, 0.05)[1] <= n
    assert s.items_for_interval(kappa0, kappa_low + 0.001, None, props_a, m, 0.05)[1] > n


def test_cells_are_probabilities_and_two_raters_agree_across_models() -> None:
    for props in PROPS.values():
        for m in range(2, 8):
            for kappa in (0.0, 0.3, 0.9):
                cells = s.cell_probabilities(kappa, np.array(props), m)
                assert cells.sum() == pytest.approx(1.0, abs=1e-12)
                assert (cells > 0).all()
    # with two raters and K = 2, "all agree on k" and "j raters chose 2" are the same cells
    binary = s.cell_probabilities(0.4, np.array([0.7, 0.3]), 2)
    a, b = 0.7, 0.3
    assert binary[0] == pytest.approx(a * a + 0.4 * a * b)
    assert binary[2] == pytest.approx(b * b + 0.4 * a * b)


def test_noncentrality_against_scipy() -> None:
    from scipy.stats import ncx2

    for alpha, power in ((0.05, 0.8), (0.01, 0.9), (0.1, 0.5)):
        c = s.critical_value(alpha, two_sided=True)
        lam = s.noncentrality(c, power)
        assert ncx2.cdf(c, 1, lam) == pytest.approx(1 - power, abs=1e-10)


def test_simulated_variance_matches_bloch_kraemer() -> None:
    # Bloch & Kraemer (1989): n Var(kappa) of the intraclass kappa of two raters, binary
    # trait of prevalence p: (1 - k) [(1 - k)(1 - 2k) + k (2 - k) / (2 p (1 - p))].
    # 200,000 items: a few percent of Monte Carlo error, more for a rare trait
    for kappa, p, rel in ((0.2, 0.5, 0.02), (0.6, 0.3, 0.02), (0.8, 0.1, 0.06)):
        expected = (1 - kappa) * (
            (1 - kappa) * (1 - 2 * kappa) + kappa * (2 - kappa) / (2 * p * (1 - p))
        )
        got = s.simulated_variance(kappa, np.array([1 - p, p]), 2, seed=3)
        assert got == pytest.approx(expected, rel=rel)


def test_simulated_variance_matches_fleiss_at_chance() -> None:
    # Under kappa = 0, Fleiss, Nee & Landis (1979): n Var = 2 [(sum pq)^2 - sum pq (q - p)]
    # / (m (m - 1) (sum pq)^2) for m raters and shares p (q = 1 - p).
    for props, m in (([0.2, 0.3, 0.5], 3), ([0.1, 0.2, 0.3, 0.1, 0.1, 0.2], 8)):
        p = np.array(props)
        q = 1 - p
        pq = (p * q).sum()
        expected = 2 * (pq**2 - (p * q * (q - p)).sum()) / (m * (m - 1) * pq**2)
        assert s.simulated_variance(0.0, p, m, seed=5) == pytest.approx(expected, rel=0.03)


def test_simulation_is_seeded_and_close_to_the_closed_form_for_two_raters() -> None:
    props = np.array([0.3, 0.6, 0.1])
    first = s.simulated_variance(0.4, props, 2, seed=11)
    assert s.simulated_variance(0.4, props, 2, seed=11) == first
    assert s.simulated_variance(0.4, props, 2, seed=12) != first
    v0 = s.simulated_variance(0.4, props, 2, seed=1)
    v1 = s.simulated_variance(0.6, props, 2, seed=2)
    normal = s.items_for_power_normal(0.4, 0.6, v0, v1, 0.05, 0.8, two_sided=False)[0]
    closed = s.items_for_power(0.4, 0.6, props, 2, 0.05, 0.8, two_sided=False)[0]
    assert normal == pytest.approx(closed, rel=0.1)


def test_more_items_for_more_power_a_narrower_interval_and_a_smaller_gap() -> None:
    props = np.array([0.7, 0.3])
    n = [s.items_for_power(0.4, 0.6, props, 2, 0.05, p, False)[1] for p in (0.7, 0.8, 0.9)]
    assert n == sorted(n) and len(set(n)) == 3
    gaps = [s.items_for_power(0.4, k1, props, 2, 0.05, 0.8, False)[1] for k1 in (0.8, 0.7, 0.6)]
    assert gaps == sorted(gaps) and len(set(gaps)) == 3
    widths = [
        s.items_for_interval(0.5, 0.5 - h, 0.5 + h, props, 2, 0.05)[1] for h in (0.2, 0.1, 0.05)
    ]
    assert widths == sorted(widths) and len(set(widths)) == 3


def test_no_lower_limit_from_too_few_items() -> None:
    assert s.lower_limit(0.05, 20, np.array([0.4, 0.6]), 2, 0.05) is None
    assert s.lower_limit_normal(0.05, 20, 0.9, 0.05) is None
