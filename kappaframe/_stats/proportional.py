"""Proportional bias: the regression of the differences on the means, from pair moments.

For pairs ``(x, y)`` of ``n`` items, with ``d = x - y`` and ``m = (x + y) / 2``, the
least-squares line ``d = intercept + slope m`` (Bland & Altman 1999, section 3.2) needs
only the six moments Lin's CCC and Bland-Altman already read::

    S_dm = (ss_x - ss_y) / 2,   S_mm = (ss_x + ss_y + 2 cross) / 4,
    S_dd = ss_x + ss_y - 2 cross,
    slope = S_dm / S_mm,   intercept = mean(d) - slope mean(m),
    se(slope) = sqrt((S_dd - slope S_dm) / ((n - 2) S_mm)),

the interval ``slope -/+ t se`` and the test of ``slope = 0`` on Student's t with
``n - 2`` degrees of freedom (a slope that differs from 0: the differences grow or
shrink with the size of the measurement).
"""

from __future__ import annotations

import numpy as np

from .inference import _special, t_quantile

__all__ = ["PROPORTIONAL_CI_COLUMNS", "PROPORTIONAL_COLUMNS", "proportional_bias"]

PROPORTIONAL_COLUMNS = ("slope", "intercept", "slope_p_value")
PROPORTIONAL_CI_COLUMNS = ("slope_ci_low", "slope_ci_high")


def proportional_bias(
    n: np.ndarray,
    mean_x: np.ndarray,
    mean_y: np.ndarray,
    ss_x: np.ndarray,
    ss_y: np.ndarray,
    cross: np.ndarray,
    ci: float | None = 0.95,
) -> dict[str, np.ndarray]:
    """The line of the differences on the means, per pair.

    Returns ``slope``, ``intercept``, ``slope_p_value`` and ``slope_ci_low``,
    ``slope_ci_high`` (NaN without ``ci``). NaN: fewer than 3 items, or means that do not
    vary.

    Examples
    --------
    ``x = (1, 2, 3)``, ``y = (1, 1, 1)``: ``d = (0, 1, 2)`` on ``m = (1, 1.5, 2)``, slope 2:

    >>> import numpy as np
    >>> out = proportional_bias(np.array(3), 2.0, 1.0, 2.0, 0.0, 0.0)
    >>> float(out["slope"]), float(out["intercept"])
    (2.0, -2.0)
    """
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        s_dm = (np.asarray(ss_x) - ss_y) / 2.0
        s_mm = (np.asarray(ss_x) + ss_y + 2.0 * np.asarray(cross)) / 4.0
        s_dd = np.maximum(np.asarray(ss_x) + ss_y - 2.0 * np.asarray(cross), 0.0)
        defined = (n >= 3) & (s_mm > 0)
        slope = np.where(defined, s_dm / s_mm, np.nan)
        intercept = (np.asarray(mean_x) - mean_y) - slope * (np.asarray(mean_x) + mean_y) / 2.0
        residual = np.maximum(s_dd - slope * s_dm, 0.0)
        df = np.where(defined, n - 2.0, 0.0)
        se = np.sqrt(residual / (df * s_mm))
        t = slope / se
        p = np.where(
            defined & (se > 0),
            2.0 * _special().stdtr(np.where(df > 0, df, 1.0), -np.abs(np.nan_to_num(t))),
            np.where(defined, 0.0, np.nan),
        )
        out = {"slope": slope, "intercept": intercept, "slope_p_value": p}
        if ci is None:
            nan = np.full(np.shape(slope), np.nan)
            out.update(slope_ci_low=nan, slope_ci_high=nan)
        else:
            q = t_quantile(ci, df)
            out.update(slope_ci_low=slope - q * se, slope_ci_high=slope + q * se)
    return out
