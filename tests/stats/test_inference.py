"""The normal and Student's t distributions behind every interval and p-value."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kappaframe._stats.inference import normal_quantile, normal_sf, t_cdf, t_quantile


def t_cdf_even_df(t: float, df: int) -> float:
    """Student's t CDF for an even ``df`` in closed form (Abramowitz & Stegun 26.7.4)."""
    x = df / (df + t * t)
    term = total = 1.0
    for k in range(1, df // 2):
        term *= x * (2 * k - 1) / (2 * k)
        total += term
    return 0.5 + 0.5 * t / math.sqrt(df + t * t) * total


@pytest.mark.parametrize("df", [2, 4, 10, 30, 120])
def test_t_cdf_matches_the_closed_form(df: int) -> None:
    t = np.linspace(-6.0, 6.0, 49)
    expected = [t_cdf_even_df(v, df) for v in t]
    np.testing.assert_allclose(t_cdf(t, np.full(t.shape, float(df))), expected, atol=1e-14)


@pytest.mark.parametrize("level", [0.5, 0.8, 0.9, 0.95, 0.99, 0.999])
def test_t_quantile_in_closed_form_for_one_and_two_degrees_of_freedom(level: float) -> None:
    p = 0.5 + level / 2.0
    cauchy = math.tan(math.pi * (p - 0.5))
    two = (2 * p - 1) * math.sqrt(2.0 / (4 * p * (1 - p)))
    np.testing.assert_allclose(t_quantile(level, np.array([1.0, 2.0])), [cauchy, two], rtol=1e-13)


def test_t_quantile_inverts_t_cdf_and_tends_to_the_normal() -> None:
    df = np.array([1.0, 3.0, 9.0, 49.0, 999.0, 1e5, 1e7])
    q = t_quantile(0.95, df)
    np.testing.assert_allclose(t_cdf(-q, df), 0.025, rtol=1e-13)
    assert np.all(np.diff(q) < 0)  # more degrees of freedom, narrower interval
    # Cornish-Fisher: t = z + (z^3 + z) / (4 df) + O(df^-2)
    z = normal_quantile(0.95)
    assert q[-1] == pytest.approx(z + (z**3 + z) / 4e7, abs=1e-13)


def test_t_quantile_keeps_the_shape_and_repeats() -> None:
    df = np.array([[4.0, 9.0, 4.0], [np.nan, 9.0, 0.0]])
    q = t_quantile(0.9, df)
    assert q.shape == (2, 3)
    assert q[0, 0] == q[0, 2] and q[0, 1] == q[1, 1]
    assert np.isnan(q[1, 0]) and np.isnan(q[1, 2])


def test_undefined_degrees_of_freedom_give_nan() -> None:
    df = np.array([0.0, 0.5, np.nan, 1.0])
    assert np.isnan(t_quantile(0.95, df)[:3]).all()
    assert np.isnan(t_cdf(np.ones(4), df)[:3]).all()
    assert np.isfinite(t_cdf(np.ones(4), df)[3])
    assert np.isnan(t_cdf(np.array([np.nan]), np.array([5.0]))).all()


def test_normal() -> None:
    assert normal_quantile(0.95) == pytest.approx(1.959963984540054, abs=1e-15)
    z = np.array([-np.inf, -1.0, 0.0, 1.0, 8.0, np.nan])
    expected = [1.0, 0.8413447460685429, 0.5, 0.15865525393145707, 6.22096057427178e-16]
    np.testing.assert_allclose(normal_sf(z)[:5], expected, rtol=1e-14)
    assert np.isnan(normal_sf(z)[5])
    assert normal_sf(np.array([[1.0, 2.0]])).shape == (1, 2)
