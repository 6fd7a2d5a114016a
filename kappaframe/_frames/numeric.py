"""Numeric ratings out of a frame: one float64 NumPy array per column, NaN where missing.

The one reader of numeric columns, for every statistic of scores on a scale
(intraclass correlation, Kendall's W, Lin's CCC, Bland-Altman). A column of a numeric
dtype (NumPy ints and floats, pandas' nullable and pyarrow-backed numbers, polars'
integers, floats and decimals) is read as it is; any other column value by value, so
that a value that is not a number is named. Missing (NaN, None, ``pd.NA``, polars null)
becomes NaN; a boolean, a string, a date is refused, naming the column and the value
(``column_numbers``). ``refuse_infinite`` names an infinite score when a statistic finds
its sums not finite (one pass over the scores only then).
"""

from __future__ import annotations

import numbers as real_numbers
import sys
from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from .._encode.codes import Factorized
from .._errors import KappaFrameError, KappaFrameTypeError
from .._io.read import plain_number

__all__ = ["column_numbers", "numbers", "numeric_values", "refuse_infinite"]


def column_numbers(frame: Any, name: Hashable, option: str = "raters") -> np.ndarray:
    """The column ``name`` of a loaded adapter as float64 (NaN where missing).

    A column of a numeric dtype is read as it is; any other is read value by value
    (``numeric_values``), so a value that is not a number is named.
    """
    fast = numbers(frame, name)
    if fast is not None:
        return fast
    return numeric_values(frame.labels(name), name, option)


def numeric_values(fact: Factorized, column: Hashable, option: str = "raters") -> np.ndarray:
    """The float64 values of a factorized column (NaN where missing).

    Every value must be a real number (not a boolean, a string or a date): a rating on a
    scale is never guessed from text. Raises ``KappaFrameTypeError`` naming the column
    and the first value that is not.
    """
    uniques = fact.uniques
    kinds = set(map(type, uniques))
    bad = {
        k for k in kinds if not issubclass(k, real_numbers.Real) or issubclass(k, (bool, np.bool_))
    }
    if bad:
        raise not_a_number(column, next(u for u in uniques if type(u) in bad), option=option)
    values = np.asarray(uniques, dtype=np.float64).reshape(-1)
    return np.append(values, np.nan)[np.asarray(fact.codes, dtype=np.intp)]


def not_a_number(
    column: Hashable, value: Any, dtype: Any = None, option: str = "raters"
) -> KappaFrameTypeError:
    """The error for a value that is not a number, naming the column, the value, its type.

    ``dtype``: an engine column's type (its way out is a cast in the engine).
    """
    if isinstance(value, np.generic):
        value = value.item()
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    kind = type(value).__name__ if dtype is None else str(dtype)
    hint = ""
    if isinstance(value, str) and plain_number(value):
        hint = (
            " (A file's column whose numbers are written two ways, such as 1 and 1.0, "
            "stays text: give it a type, kf.scan(path, csv_options={'convert': "
            f"{{'column_types': {{{str(column)!r}: 'float64'}}}}}}).)"
        )
    way_out = (
        "Cast it in the engine first (e.g. CAST(col AS DOUBLE))"
        if dtype is not None
        else "Convert the column first (e.g. pd.to_numeric, or .cast(pl.Float64))"
    )
    return KappaFrameTypeError(
        f"column {column!r} holds {shown} ({kind}), which is not a number: numeric "
        f"ratings must be numbers (int or float; missing as NaN or null). {way_out}, or "
        f"leave it out of the raters (pairwise() and overall() take labels).{hint}",
        option=option,
    )


def refuse_infinite(columns: Any, names: list[Hashable], value: Hashable | None = None) -> None:
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
    """The column ``name`` of a loaded adapter as float64 (NaN missing), or ``None``.

    ``None`` for any dtype that is not numeric (text, booleans, categoricals, objects),
    which the caller reads value by value instead.
    """
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
        if isinstance(dtype, np.dtype):
            return np.asarray(column.to_numpy(), dtype=np.float64)
        return np.asarray(column.to_numpy(dtype=np.float64, na_value=np.nan))
    pl = sys.modules.get("polars")
    if pl is not None and isinstance(native, pl.DataFrame):
        series = native.get_column(str(name))
        if not series.dtype.is_numeric():
            return None
        return np.asarray(series.cast(pl.Float64).fill_null(np.nan).to_numpy(), dtype=np.float64)
    return None
