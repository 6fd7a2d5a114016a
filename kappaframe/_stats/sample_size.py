"""How many items to rate: the number of items a kappa study needs, NumPy only.

Two questions, both for ``m`` raters who each put every item in one of ``K`` categories with
anticipated shares ``props`` (the same for every rater) and a common agreement ``kappa``:

- **power**: items needed to reject ``H0: kappa <= kappa0`` (or ``kappa = kappa0``,
  two-sided) with probability ``power`` when ``kappa = kappa1``;
- **interval**: items needed for the expected confidence limit(s) of kappa to reach
  ``lower`` (and/or ``upper``) around an anticipated ``kappa0``.

The closed form is the goodness-of-fit approach of Donner & Eliasziw (1992) for a binary
outcome and of Donner & Rotondi (2010) and Rotondi & Donner (2012) for more raters and
categories, as R's ``kappaSize`` (Rotondi, version 1.2) computes it. An item's ratings fall
in one of a few cells whose probabilities ``P_c(kappa)`` the model fixes:

- ``K = 2`` (share ``p`` of the second category): the number ``j = 0..m`` of raters who chose
  it, ``P_j = (1 - kappa) C(m, j) p^j (1 - p)^(m - j) + kappa [j = 0] (1 - p) +
  kappa [j = m] p`` (with probability ``kappa`` every rater gives the same label);
- ``K >= 3``: "all ``m`` raters chose category ``k``" for each ``k``, and "they did not all
  agree", with ``P_k = p_k prod_{i=1}^{m-1} (p_k (1 - kappa) + i kappa) / (1 + (i - 1) kappa)``
  (the Dirichlet-multinomial model) and ``P_0 = 1 - sum_k P_k``.

With ``D(a, b) = sum_c (P_c(a) - P_c(b))^2 / P_c(b)`` the chi-square distance per item:

- power: ``n = lambda / D(kappa1, kappa0)``, where the noncentrality ``lambda`` solves
  ``P(chi2_1(lambda) <= c) = 1 - power`` at the critical value ``c = z_(1 - alpha/2)^2``
  (two-sided, kappaSize's ``alpha``) or ``c = z_(1 - alpha)^2`` (one-sided);
- interval: ``n = c / D(kappa0, bound)`` for each bound, the larger of the two with both
  bounds (``c = z_(1 - alpha/2)^2``), or the one with one bound (``c = z_(1 - alpha)^2``).

``n_items`` is ``n`` rounded up (``ceil``), as kappaSize reports it; for an interval, as
kappaSize counts it: at least 11 items, and ``n D`` at least ``c + 0.001``.

kappaSize covers ``K = 2..5`` categories and ``m = 2..6`` raters. Outside that range the
literature gives no closed form and ``simulated_variance`` estimates by a seeded simulation
the large-sample variance of Fleiss' kappa under the same models (the mixture for ``K = 2``,
the Dirichlet-multinomial for ``K >= 3``), from which the normal-theory sample sizes
``items_for_power_normal`` and ``items_for_interval_normal`` follow.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import KappaFrameError
from .multirater import Ratings, compute

__all__ = [
    "CLOSED_FORM_CATEGORIES",
    "CLOSED_FORM_RATERS",
    "Pilot",
    "cell_probabilities",
    "check_cells",
    "chi_square_distance",
    "critical_value",
    "items_for_interval",
    "items_for_interval_normal",
    "items_for_power",
    "items_for_power_normal",
    "lower_limit",
    "lower_limit_normal",
    "noncentrality",
    "pilot_estimates",
    "simulate_counts",
    "simulated_variance",
]

#: The category counts and rater counts kappaSize gives a closed form for.
CLOSED_FORM_CATEGORIES = range(2, 6)
CLOSED_FORM_RATERS = range(2, 7)
#: kappaSize's interval search starts above 10 items and stops once ``n D`` exceeds the
#: critical value by this margin.
KAPPASIZE_FEWEST = 11
KAPPASIZE_MARGIN = 0.001


def _special() -> Any:
    """``scipy.special``, imported on first use."""
    import scipy.special

    return scipy.special


def cell_probabilities(kappa: float, props: np.ndarray, n_raters: int) -> np.ndarray:
    """The probabilities of an item's cells under the agreement model (see the module).

    Parameters
    ----------
    kappa : float
        The common agreement, in [0, 1).
    props : numpy.ndarray
        The shares of the ``K`` categories (summing to 1).
    n_raters : int
        ``m``, the raters per item (at least 2).

    Returns
    -------
    numpy.ndarray
        ``K = 2``: ``m + 1`` cells (``j`` raters chose the second category, ``j = 0..m``);
        ``K >= 3``: ``K + 1`` cells (they did not all agree, then all chose category ``k``).

    Examples
    --------
    Two raters, a trait of prevalence 0.3 and kappa 0.4: both negative, one of each, both
    positive.

    >>> [round(float(p), 3) for p in cell_probabilities(0.4, np.array([0.7, 0.3]), 2)]
    [0.574, 0.252, 0.174]
    """
    props = np.asarray(props, dtype=float)
    m = int(n_raters)
    if len(props) == 2:
        p = props[1]
        j = np.arange(m + 1)
        binom = np.array([math.comb(m, int(i)) for i in j], dtype=float)
        cells = (1.0 - kappa) * binom * p**j * (1.0 - p) ** (m - j)
        cells[0] += kappa * (1.0 - p)
        cells[m] += kappa * p
        return cells
    agree = props.copy()
    for i in range(1, m):
        agree = agree * (props * (1.0 - kappa) + i * kappa) / (1.0 + (i - 1) * kappa)
    return np.concatenate([[1.0 - agree.sum()], agree])


def chi_square_distance(
    kappa_from: float, kappa_to: float, props: np.ndarray, n_raters: int
) -> float:
    """``D = sum_c (P_c(kappa_from) - P_c(kappa_to))^2 / P_c(kappa_to)``, per item.

    The chi-square statistic of one item's worth of data drawn at ``kappa_from`` against the
    expected cells at ``kappa_to``; ``n`` items give ``n D``.

    Examples
    --------
    >>> props = np.array([0.7, 0.3])
    >>> round(chi_square_distance(0.6, 0.4, props, 2), 6)
    0.041211
    """
    a = cell_probabilities(kappa_from, props, n_raters)
    b = cell_probabilities(kappa_to, props, n_raters)
    return float(np.sum((a - b) ** 2 / b))


def critical_value(alpha: float, two_sided: bool) -> float:
    """The chi-square (1 df) critical value: ``z_(1 - alpha/2)^2`` or ``z_(1 - alpha)^2``.

    Examples
    --------
    >>> round(critical_value(0.05, True), 4), round(critical_value(0.05, False), 4)
    (3.8415, 2.7055)
    """
    tail = alpha / 2.0 if two_sided else alpha
    return float(_special().ndtri(1.0 - tail)) ** 2


def noncentrality(critical: float, power: float) -> float:
    """``lambda`` with ``P(chi2_1(lambda) <= critical) = 1 - power``.

    ``P(chi2_1(lambda) <= c) = Phi(sqrt(c) - sqrt(lambda)) - Phi(-sqrt(c) - sqrt(lambda))``,
    solved for ``sqrt(lambda)`` by Brent's method (kappaSize's ``.powchi`` bisects the same
    equation to a tolerance of 1e-5 in probability).

    Examples
    --------
    >>> round(noncentrality(critical_value(0.05, True), 0.8), 4)
    7.8489
    """
    from scipy.optimize import brentq

    ndtr = _special().ndtr
    root = math.sqrt(critical)

    def miss(s: float) -> float:
        return float(ndtr(root - s) - ndtr(-root - s)) - (1.0 - power)

    high = root + float(_special().ndtri(power)) + 10.0
    return float(brentq(miss, 0.0, high, xtol=1e-14, rtol=1e-15)) ** 2


def _ceil(n: float) -> int:
    """Round up, without turning ``188.00000000000003`` from floating error into 189."""
    return math.ceil(n - 1e-9 * max(1.0, n))


def items_for_power(
    kappa0: float,
    kappa1: float,
    props: np.ndarray,
    n_raters: int,
    alpha: float,
    power: float,
    two_sided: bool,
) -> tuple[float, int]:
    """Items to reject ``kappa0`` with probability ``power`` when kappa is ``kappa1``.

    ``n = lambda / D(kappa1, kappa0)`` (Donner & Eliasziw 1992); ``two_sided=True`` is
    kappaSize's ``Power*`` functions (``alpha`` two-sided).

    Returns
    -------
    tuple of (float, int)
        ``n`` and ``n_items = ceil(n)``.

    Examples
    --------
    kappaSize's ``PowerBinary(kappa0=0.4, kappa1=0.6, props=0.30)`` (191 subjects):

    >>> items_for_power(0.4, 0.6, np.array([0.7, 0.3]), 2, 0.05, 0.8, True)[1]
    191
    """
    lam = noncentrality(critical_value(alpha, two_sided), power)
    n = lam / chi_square_distance(kappa1, kappa0, props, n_raters)
    return n, _ceil(n)


def items_for_interval(
    kappa0: float,
    lower: float | None,
    upper: float | None,
    props: np.ndarray,
    n_raters: int,
    alpha: float,
) -> tuple[float, int]:
    """Items for the expected confidence limits of kappa to reach ``lower`` / ``upper``.

    ``n = c / D(kappa0, bound)``: the smallest ``n`` whose chi-square statistic of the data
    expected at ``kappa0`` against the bound reaches the critical value (Donner & Rotondi
    2010). Both bounds: a two-sided ``100 (1 - alpha)%`` interval, the larger ``n`` of the
    two; one bound: a one-sided ``100 (1 - alpha)%`` limit. ``n_items`` is kappaSize's
    count: its ``CI*`` functions step ``n`` up from 11 until ``n D >= c + 0.001``, so
    ``n_items = max(11, ceil((c + 0.001) / D))`` (at least 11 items, and one more than
    ``ceil(n)`` where ``n D`` lands within 0.001 of ``c``).

    Examples
    --------
    kappaSize's ``CIBinary(kappa0=0.4, kappaL=0.3, kappaU=0.5, props=0.30)`` (397):

    >>> items_for_interval(0.4, 0.3, 0.5, np.array([0.7, 0.3]), 2, 0.05)[1]
    397
    """
    bounds = [b for b in (lower, upper) if b is not None]
    c = critical_value(alpha, two_sided=len(bounds) == 2)
    distances = [chi_square_distance(kappa0, b, props, n_raters) for b in bounds]
    n = max(c / d for d in distances)
    counted = max(math.ceil((c + KAPPASIZE_MARGIN) / d) for d in distances)
    return n, max(KAPPASIZE_FEWEST, counted)


# ------------------------------------------------------------------------- simulation


def simulate_counts(
    kappa: float, props: np.ndarray, n_raters: int, n_items: int, rng: np.random.Generator
) -> np.ndarray:
    """Per-item category counts ``(n_items, K)`` drawn from the agreement model.

    ``K = 2``: with probability ``kappa`` all raters give one label (drawn from ``props``),
    otherwise each rater draws independently; ``K >= 3``: each item's category shares are
    drawn from a Dirichlet with parameters ``props (1 - kappa) / kappa`` and its ``m``
    labels from them (independent labels at ``kappa = 0``).
    """
    props = np.asarray(props, dtype=float)
    k = len(props)
    m = int(n_raters)
    if k == 2:
        together = rng.random(n_items) < kappa
        shared = rng.multinomial(m, props, size=n_items)
        single = rng.random(n_items) < props[1]
        alike = np.stack([m * (~single), m * single], axis=1)
        return np.where(together[:, None], alike, shared).astype(float)
    if kappa <= 0.0:
        return rng.multinomial(m, props, size=n_items).astype(float)
    shares = rng.dirichlet(props * (1.0 - kappa) / kappa, size=n_items)
    # a multinomial draw per item, as successive binomials over the categories
    counts = np.zeros((n_items, k))
    left = np.full(n_items, m, dtype=np.int64)
    mass = np.ones(n_items)
    for c in range(k - 1):
        with np.errstate(divide="ignore", invalid="ignore"):
            prob = np.clip(np.where(mass > 0, shares[:, c] / mass, 0.0), 0.0, 1.0)
        drawn = rng.binomial(left, prob)
        counts[:, c] = drawn
        left -= drawn
        mass -= shares[:, c]
    counts[:, k - 1] = left
    return counts


def simulated_variance(
    kappa: float, props: np.ndarray, n_raters: int, *, seed: int, n_items: int = 200_000
) -> float:
    """``n Var(Fleiss' kappa)`` under the agreement model, estimated by simulation.

    One seeded sample of ``n_items`` items is drawn by ``simulate_counts``; the variance is
    Fleiss' kappa's linearization variance on it (Gwet 2008, irrCAC's), a consistent
    estimate whose relative error is about ``1 / sqrt(n_items)``.

    Examples
    --------
    Two raters, a binary trait of prevalence 0.3 and kappa 0.6: Bloch & Kraemer's (1989)
    closed form gives ``n Var = (1 - k) [(1 - k)(1 - 2k) + k (2 - k) / (2 p (1 - p))] = 0.768``.

    >>> v = simulated_variance(0.6, np.array([0.7, 0.3]), 2, seed=1)
    >>> abs(v / 0.768 - 1) < 0.01
    True
    """
    props = np.asarray(props, dtype=float)
    rng = np.random.default_rng(seed)
    counts = simulate_counts(kappa, props, n_raters, n_items, rng)
    k = len(props)
    rt = Ratings(
        codes=np.zeros((0, n_items), dtype=np.int64),
        given_counts=counts,
        group=np.zeros(n_items, dtype=np.intp),
        n_groups=1,
        n_categories=k,
    )
    out = compute(
        rt,
        "fleiss",
        1.0 - np.eye(k),
        weighted=False,
        level="nominal",
        categories=list(range(k)),
        with_variance=True,
    )
    return float(out["var"][0]) * n_items


def items_for_power_normal(
    kappa0: float,
    kappa1: float,
    var0: float,
    var1: float,
    alpha: float,
    power: float,
    two_sided: bool,
) -> tuple[float, int]:
    """``n = ((z_a sqrt(var0) + z_(power) sqrt(var1)) / (kappa1 - kappa0))^2``.

    ``var0``, ``var1``: ``n Var(kappa)`` at ``kappa0`` and ``kappa1``; ``z_a`` is
    ``z_(1 - alpha)`` one-sided, ``z_(1 - alpha/2)`` two-sided.

    Examples
    --------
    >>> items_for_power_normal(0.4, 0.6, 0.9, 0.7, 0.05, 0.8, False)[1]
    129
    """
    ndtri = _special().ndtri
    z_a = float(ndtri(1.0 - (alpha / 2.0 if two_sided else alpha)))
    z_b = float(ndtri(power))
    n = ((z_a * math.sqrt(var0) + z_b * math.sqrt(var1)) / (kappa1 - kappa0)) ** 2
    return n, _ceil(n)


def items_for_interval_normal(
    kappa0: float, lower: float | None, upper: float | None, var0: float, alpha: float
) -> tuple[float, int]:
    """``n = var0 (z / (kappa0 - bound))^2``, the larger over the bounds given.

    ``z`` is ``z_(1 - alpha/2)`` with both bounds, ``z_(1 - alpha)`` with one.

    Examples
    --------
    >>> items_for_interval_normal(0.4, 0.3, 0.5, 0.9, 0.05)[1]
    346
    """
    bounds = [b for b in (lower, upper) if b is not None]
    z_sq = critical_value(alpha, two_sided=len(bounds) == 2)
    n = max(var0 * z_sq / (kappa0 - b) ** 2 for b in bounds)
    return n, _ceil(n)


def check_cells(kappa: float, props: np.ndarray, n_raters: int) -> None:
    """Refuse a kappa whose model gives a cell no probability (e.g. kappa = 1)."""
    cells = cell_probabilities(kappa, props, n_raters)
    if not np.all(cells > 0):
        raise KappaFrameError(
            f"kappa {kappa!r} leaves an outcome of the agreement model with probability "
            f"{float(cells.min()):.3g}: no sample size follows; take a kappa below 1."
        )


@dataclass(frozen=True)
class Pilot:
    """What a pilot shows per group: labeled items, category shares and Fleiss' kappa."""

    n_items: np.ndarray  # (G,) items with a label
    props: np.ndarray  # (G, K) Fleiss' pi: the mean share of each category per item
    kappa: np.ndarray  # (G,) Fleiss' kappa (NaN without an item rated twice)


def pilot_estimates(rt: Ratings) -> Pilot:
    """The shares and Fleiss' kappa of each group of a pilot's ratings.

    The shares are Fleiss' ``pi_k``, the mean over items of ``r_ik / r_i``: the common
    category shares of the agreement model (one set for every rater).
    """
    k = rt.n_categories
    counts = rt.counts
    r = counts.sum(axis=1)
    n = np.bincount(rt.group, minlength=rt.n_groups).astype(float)
    share = counts / np.where(r > 0, r, 1.0)[:, None]
    sums = np.zeros((rt.n_groups, k))
    np.add.at(sums, rt.group, share)
    props = sums / np.where(n > 0, n, 1.0)[:, None]
    out = compute(
        rt,
        "fleiss",
        1.0 - np.eye(k),
        weighted=False,
        level="nominal",
        categories=list(range(k)),
        with_variance=False,
    )
    return Pilot(n.astype(np.int64), props, np.asarray(out["value"], dtype=float))


#: kappaSize's ``FixedN*`` step down from kappa0 to the expected lower limit.
KAPPASIZE_STEP = 0.001


def lower_limit(
    kappa0: float, n_items: int, props: np.ndarray, n_raters: int, alpha: float
) -> float | None:
    """The expected one-sided ``100 (1 - alpha)%`` lower limit of kappa from ``n_items`` items.

    kappaSize's ``FixedN*``: the first ``kappa_L = kappa0 - 0.001 k`` (``k = 1, 2, ...``)
    with ``n D(kappa0, kappa_L) >= z_(1 - alpha)^2 + 0.001``; ``None`` when no limit at or
    above 0 is reached (too few items).

    Examples
    --------
    kappaSize's ``FixedNBinary(kappa0=0.7, n=100, props=0.50, raters=4)`` (0.61):

    >>> lower_limit(0.7, 100, np.array([0.5, 0.5]), 4, 0.05)
    0.61
    """
    target = critical_value(alpha, two_sided=False) + KAPPASIZE_MARGIN
    steps = math.floor(kappa0 / KAPPASIZE_STEP + 1e-9)
    for k in range(1, steps + 1):
        low = round(kappa0 - k * KAPPASIZE_STEP, 10)
        if n_items * chi_square_distance(kappa0, low, props, n_raters) >= target:
            return low
    return None


def lower_limit_normal(kappa0: float, n_items: int, var0: float, alpha: float) -> float | None:
    """``kappa0 - z_(1 - alpha) sqrt(var0 / n)``; ``None`` below 0.

    Examples
    --------
    >>> round(lower_limit_normal(0.6, 100, 0.9, 0.05), 4)
    0.444
    """
    low = kappa0 - float(_special().ndtri(1.0 - alpha)) * math.sqrt(var0 / n_items)
    return low if low >= 0.0 else None
