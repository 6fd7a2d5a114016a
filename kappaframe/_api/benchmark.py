"""Gwet's probabilistic benchmarking of one coefficient: every band's probability."""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Real
from typing import Any, get_args

import numpy as np

from .._errors import KappaFrameError, bad_option
from .._frames.pandas import render
from .._schema import Column, Table
from .._stats.scales import resolve_scale
from .._types import BandOrder
from .options import check_level
from .settings.bind import declared

__all__ = ["BAND_ORDERS", "benchmark"]

#: ``order=``: the order of the bands, in which the cumulative probability adds up.
BAND_ORDERS: tuple[str, ...] = get_args(BandOrder)


def _finite(name: str, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, Real) or not np.isfinite(value):
        raise KappaFrameError(f"{name} must be a finite number; got {value!r}.")


@declared
def benchmark(
    coeff: float,
    se: float,
    scale: Any = "landis_koch",
    level: float = 0.95,
    order: BandOrder = "highest-first",
) -> Any:
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
    %(parameters)s

    Returns
    -------
    pandas.DataFrame
        One row per band, highest first (or as given): ``band``, ``lower``, ``upper``,
        ``probability``, ``cumulative`` (this band and every band before it) and
        ``chosen`` (True for the interpretation).

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
    _finite("coeff", coeff)
    _finite("se", se)
    if not -1 <= coeff <= 1:
        raise KappaFrameError(f"coeff must lie in [-1, 1]; got {coeff!r}.")
    if se < 0:
        raise KappaFrameError(f"se must be 0 or more; got {se!r}.")
    level = check_level(level)
    if order not in BAND_ORDERS:
        raise bad_option("order", order, BAND_ORDERS)
    scale_obj = resolve_scale(scale)
    probability = scale_obj.membership(np.array(float(coeff)), np.array(float(se)))[::-1]
    band, _ = scale_obj.benchmark(np.array([float(coeff)]), np.array([float(se)]), level)
    lower, upper = scale_obj.limits()
    n = len(scale_obj.labels)
    rows = np.arange(n)[::-1]  # band indices, highest first
    if order == "as-given" and isinstance(scale, Mapping):
        where = {label: i for i, label in enumerate(scale_obj.labels)}
        rows = np.array([where[str(label)] for label in scale.values()])
    probability = probability[n - 1 - rows]
    table = Table(
        [
            Column("band", "enum", rows.astype(np.int16), categories=scale_obj.labels),
            Column("lower", "float", lower[rows].copy()),
            Column("upper", "float", upper[rows].copy()),
            Column("probability", "float", probability),
            Column("cumulative", "float", np.cumsum(probability)),
            Column("chosen", "bool", rows == band[0]),
        ]
    )
    return render(table)
