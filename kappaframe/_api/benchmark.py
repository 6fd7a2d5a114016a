"""Gwet's probabilistic benchmarking of one coefficient: every band's probability."""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np

from .._errors import KappaFrameError
from .._frames.pandas import render
from .._schema import Column, Table
from .._stats.scales import resolve_scale
from .options import check_level

__all__ = ["benchmark"]


def benchmark(coeff: float, se: float, scale: Any = "landis_koch", level: float = 0.95) -> Any:
    """The probability that the true coefficient lies in each band of a scale.

    Gwet (2014, *Handbook of Inter-Rater Reliability*, ch. 6): a coefficient of 0.67 with
    a standard error of 0.15 may well be "moderate" rather than "substantial". With the
    normal approximation truncated to [-1, 1] (``Phi`` the normal distribution function,
    ``k`` the estimate), band ``[a, b]`` has membership probability

        (Phi((b - k) / se) - Phi((a - k) / se)) / T,
        T = Phi((1 - k) / se) - Phi((-1 - k) / se).

    Going down from the highest band, the first whose cumulative probability reaches
    ``level`` is the interpretation: ``pairwise(..., ci=level, benchmark="probabilistic")``
    and ``overall`` give it for every row. irrCAC's ``landis.koch.bf``, ``altman.bf`` and
    ``fleiss.bf`` print the same numbers.

    Parameters
    ----------
    coeff : float
        The estimate (e.g. a ``kappa`` or ``value`` of a result), in [-1, 1].
    se : float
        Its standard error (the ``se`` column), non-negative.
    scale : str or mapping, default "landis_koch"
        A built-in scale name or ``{lower_bound: label}``, as in ``kappaframe.pairwise``.
    level : float, default 0.95
        The cumulative probability the chosen band must reach.

    Returns
    -------
    pandas.DataFrame
        One row per band, highest first: ``band``, ``lower``, ``upper``, ``probability``,
        ``cumulative`` (this band and every band above) and ``chosen`` (True for the
        interpretation).

    See Also
    --------
    pairwise : with ``benchmark="probabilistic"``, the chosen band of every pair.
    overall : the same for the many-rater coefficients.

    Examples
    --------
    >>> import kappaframe as kf
    >>> res = kf.benchmark(0.67, 0.15, scale="altman")
    >>> [round(float(p), 5) for p in res["cumulative"]]
    [0.18168, 0.67511, 0.96356, 0.99912, 1.0]
    >>> res.loc[res["chosen"], "band"].item()
    'moderate'
    """
    for name, value in (("coeff", coeff), ("se", se)):
        if isinstance(value, bool) or not isinstance(value, Real) or not np.isfinite(value):
            raise KappaFrameError(f"{name} must be a finite number; got {value!r}.")
    if not -1 <= coeff <= 1:
        raise KappaFrameError(f"coeff must lie in [-1, 1]; got {coeff!r}.")
    if se < 0:
        raise KappaFrameError(f"se must be 0 or more; got {se!r}.")
    level = check_level(level)
    scale_obj = resolve_scale(scale)
    probability = scale_obj.membership(np.array(float(coeff)), np.array(float(se)))[::-1]
    band, _ = scale_obj.benchmark(np.array([float(coeff)]), np.array([float(se)]), level)
    lower, upper = scale_obj.limits()
    n = len(scale_obj.labels)
    top_first = np.arange(n)[::-1]
    chosen = top_first == band[0]
    table = Table(
        [
            Column("band", "enum", top_first.astype(np.int16), categories=scale_obj.labels),
            Column("lower", "float", lower[::-1].copy()),
            Column("upper", "float", upper[::-1].copy()),
            Column("probability", "float", probability.copy()),
            Column("cumulative", "float", np.cumsum(probability)),
            Column("chosen", "bool", chosen),
        ]
    )
    return render(table)
