"""Numeric columns read as numbers: no factorizing when the dtype already says so.

``numbers(adapter, name)`` gives a pandas or polars column of a numeric dtype (NumPy
ints and floats, pandas' nullable and pyarrow-backed numbers, polars' integers, floats
and decimals) as a float64 array with NaN where missing; ``None`` for any other dtype
(text, booleans, categoricals, objects), which the caller reads value by value instead.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["numbers"]


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
