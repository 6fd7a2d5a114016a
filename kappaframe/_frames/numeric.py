"""Numeric ratings out of a frame: one float64 NumPy array per column, NaN where missing.

For the statistics of scores (intraclass correlation, Kendall's W), which take the values
themselves rather than label codes. Missing (NaN, None, ``pd.NA``, polars null) becomes
NaN; anything that is not a number is refused, naming the column and the value
(``refuse_infinite`` refuses infinite scores when a statistic finds one).
"""

from __future__ import annotations

import sys
from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from .._errors import KappaFrameError, KappaFrameTypeError

__all__ = ["numbers", "numeric_values", "refuse_infinite"]


def numeric_values(frame: Any, name: Hashable) -> np.ndarray:
    """Column ``name`` of an eager adapter (pandas or polars) as float64, NaN = missing."""
    native = frame.frame
    if isinstance(native, pd.DataFrame):
        return _pandas_values(native[name], name)
    return _polars_values(native.get_column(str(name)), name)


def _refuse(name: Hashable, value: Any, dtype: Any) -> KappaFrameTypeError:
    if isinstance(value, np.generic):
        value = value.item()
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return KappaFrameTypeError(
        f"column {name!r} holds {shown} ({dtype}): numeric ratings must be numbers "
        "(int or float; missing as NaN or null). Convert the column first, e.g. map "
        "labels to scores, or use pairwise()/overall() for categorical labels.",
        option="raters",
    )


def _pandas_values(series: pd.Series, name: Hashable) -> np.ndarray:
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        series = series.astype(dtype.categories.dtype)
        dtype = series.dtype
    kind = getattr(dtype, "kind", "O")
    if kind in "iuf" and not pd.api.types.is_bool_dtype(dtype):
        if isinstance(dtype, np.dtype):
            return np.asarray(series.to_numpy(), dtype=np.float64)
        return series.to_numpy(dtype=np.float64, na_value=np.nan)
    present = series[series.notna()]
    if kind == "O" and len(present):
        values = present.to_numpy()
        numeric = np.fromiter(
            (isinstance(v, (int, float, np.integer, np.floating)) for v in values),
            dtype=bool,
            count=len(values),
        )
        booleans = np.fromiter(
            (isinstance(v, (bool, np.bool_)) for v in values), dtype=bool, count=len(values)
        )
        bad = np.flatnonzero(~numeric | booleans)
        if bad.size:
            raise _refuse(name, values[bad[0]], dtype)
        return pd.to_numeric(series).to_numpy(dtype=np.float64, na_value=np.nan)
    if not len(present):  # nothing rated: every rating missing
        return np.full(len(series), np.nan)
    raise _refuse(name, present.iloc[0], dtype)


def _polars_values(series: Any, name: Hashable) -> np.ndarray:
    import polars as pl

    dtype = series.dtype
    if dtype.is_numeric():
        return series.cast(pl.Float64).fill_null(np.nan).to_numpy()
    present = series.drop_nulls()
    if dtype == pl.Null or not len(present):
        return np.full(len(series), np.nan)
    raise _refuse(name, present[0], dtype)


def refuse_infinite(
    columns: list[np.ndarray], names: list[Hashable], value: Hashable | None = None
) -> None:
    """Refuse an infinite score, naming where it is (one pass per column).

    ``names``: the wide layout's rater columns (the row is said too), or, with ``value``
    (the long layout's score column), the rater ids.
    """
    for name, values in zip(names, columns, strict=True):
        infinite = np.isinf(values)
        if infinite.any():
            first = int(np.flatnonzero(infinite)[0])
            where = (
                f"column {name!r} holds {values[first]} (row {first})"
                if value is None
                else f"column {value!r} holds {values[first]} (rater {name!r})"
            )
            raise KappaFrameError(
                f"{where}: a score must be a finite number. Replace infinite scores (with "
                "NaN to leave them out) first.",
                option="raters" if value is None else "value",
            )


def numbers(adapter: Any, name: Hashable) -> np.ndarray | None:
    """The column ``name`` of a loaded adapter as float64 (NaN missing), or ``None``."""
    native = getattr(adapter, "frame", None)
    if isinstance(native, pd.DataFrame):
        column = native[name]
        if not isinstance(column, pd.Series):
            return None  # a duplicated name: the adapter's own reading says so
        dtype = column.dtype
        if isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(dtype):
            return None
        if not pd.api.types.is_numeric_dtype(dtype):
            return None
        return np.asarray(column.to_numpy(dtype=np.float64, na_value=np.nan))
    pl = sys.modules.get("polars")
    if pl is not None and isinstance(native, pl.DataFrame):
        series = native.get_column(str(name))
        if not series.dtype.is_numeric():
            return None
        out = series.cast(pl.Float64).to_numpy()
        return np.asarray(out, dtype=np.float64)
    return None
