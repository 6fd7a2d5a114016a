"""Native frames: which adapter an in-memory frame takes; group-key rows; stacking frames."""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._errors import KappaFrameError
from .pandas import PandasFrame

__all__ = ["append_rows", "concat", "eager_adapter", "take", "take_with_index"]


def eager_adapter(data: Any) -> Any:
    """The adapter of an in-memory frame (pandas, polars DataFrame or LazyFrame); else None.

    A LazyFrame is collected once, with only the needed columns.
    """
    if isinstance(data, pd.DataFrame):
        return PandasFrame(data)
    pl = sys.modules.get("polars")
    if pl is not None and isinstance(data, (pl.DataFrame, pl.LazyFrame)):
        from .polars import PolarsFrame

        return PolarsFrame(data)
    return None


def take(native: Any, by: Sequence[Hashable], rows: np.ndarray) -> Any:
    """Rows ``rows`` of the ``by`` columns, as a frame of the same library."""
    if isinstance(native, pd.DataFrame):
        return native[list(by)].iloc[np.asarray(rows, dtype=np.intp)].reset_index(drop=True)
    if not by:  # a polars frame without columns has no rows
        return native.select([])
    return native.select([str(b) for b in by])[np.asarray(rows, dtype=np.int64)]


def take_with_index(
    native: Any, columns: Sequence[Hashable], rows: np.ndarray, name: Hashable
) -> Any:
    """Rows ``rows`` of ``columns`` of a pandas frame, and their index labels as column ``name``.

    A MultiIndex gives tuples.
    """
    out = take(native, columns, rows)
    labels = native.index.take(np.asarray(rows, dtype=np.intp))
    if isinstance(labels, pd.MultiIndex):
        labels = labels.to_flat_index()
    out[name] = pd.Series(labels, copy=False).reset_index(drop=True)
    return out


def concat(frames: list[Any]) -> Any:
    if isinstance(frames[0], pd.DataFrame):
        return pd.concat(frames, ignore_index=True)
    pl = sys.modules["polars"]
    try:
        return pl.concat(frames, how="vertical")
    except Exception as err:  # polars raises its own schema errors
        raise KappaFrameError(f"cannot add counts whose group keys differ in type: {err}") from None


def append_rows(native: Any, rows: dict[Hashable, list[Any]]) -> Any:
    """``native`` (pandas or polars) with rows appended: ``rows`` gives some columns' values.

    The other columns are missing on the new rows. A column keeps its type where it can
    hold a missing value: whole numbers become nullable (pandas ``Int64``), a categorical
    gains the new values as categories; a polars frame takes the types both agree on.
    """
    size = len(next(iter(rows.values()))) if rows else 0
    if isinstance(native, pd.DataFrame):
        data: dict[Hashable, pd.Series] = {}
        for name in native.columns:
            column = native[name].reset_index(drop=True)
            values = rows.get(name, [None] * size)
            dtype: Any = column.dtype
            if isinstance(dtype, np.dtype) and dtype.kind in "iub":
                dtype = {"i": "Int64", "u": "UInt64", "b": "boolean"}[dtype.kind]
                column = column.astype(dtype)
            if isinstance(dtype, pd.CategoricalDtype):
                extra = [v for v in dict.fromkeys(values) if v is not None]
                new = [v for v in extra if v not in set(dtype.categories)]
                if new:
                    column = column.cat.add_categories(new)
                    dtype = column.dtype
            try:
                added = pd.Series(values, dtype=dtype)
            except (TypeError, ValueError):
                added = pd.Series(values, dtype=object)
            data[name] = pd.concat([column, added], ignore_index=True)
        out = pd.DataFrame(data)
        out.attrs = dict(native.attrs)
        return out
    pl = sys.modules["polars"]
    extra = pl.DataFrame({str(k): v for k, v in rows.items()}, strict=False)
    try:
        return pl.concat([native, extra], how="diagonal_relaxed")
    except Exception as err:  # polars raises its own schema errors
        raise KappaFrameError(f"cannot add rows whose key columns differ in type: {err}") from None
