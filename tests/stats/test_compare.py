"""The comparison of two estimates against scipy's normal distribution."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from kappaframe._stats.compare import difference


def test_independent_difference_is_the_normal_test() -> None:
    first, se1 = np.array([0.62, 0.30]), np.array([0.05, 0.10])
    second, se2 = np.array([0.48, 0.35]), np.array([0.06, 0.08])
    out = difference(first, se1, second, se2, 0.90)
    se = np.hypot(se1, se2)
    z = (second - first) / se
    np.testing.assert_allclose(out["difference"], second - first, rtol=1e-14)
    np.testing.assert_allclose(out["se"], se, rtol=1e-14)
    np.testing.assert_allclose(out["z"], z, rtol=1e-14)
    np.testing.assert_allclose(out["p_value"], 2 * stats.norm.sf(np.abs(z)), rtol=1e-12)
    q = stats.norm.ppf(0.95)
    np.testing.assert_allclose(out["ci_low"], second - first - q * se, rtol=1e-12)
    np.testing.assert_allclose(out["ci_high"], second - first + q * se, rtol=1e-12)


def test_covariance_narrows_a_paired_difference() -> None:
    out = difference(
        np.array([0.5]), np.array([0.1]), np.array([0.6]), np.array([0.1]), 0.95, cov=0.008
    )
    assert out["se"][0] == pytest.approx(np.sqrt(0.01 + 0.01 - 0.016), rel=1e-14)


def test_missing_or_zero_errors_give_no_test() -> None:
    out = difference(
        np.array([0.5, np.nan, 0.4]),
        np.array([np.nan, 0.1, 0.0]),
        np.array([0.6, 0.6, 0.4]),
        np.array([0.1, 0.1, 0.0]),
        0.95,
    )
    assert np.isnan(out["se"][:2]).all() and np.isnan(out["difference"][:2]).all()
    assert out["se"][2] == 0.0 and np.isnan(out["z"][2]) and np.isnan(out["p_value"][2])
