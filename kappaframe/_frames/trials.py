"""What repeated trials (``trial=``) do to a pandas or polars frame, natively.

A call with ``trial`` reads the ratings into one long frame of the caller's library
(``kappaframe._api.trials``): the wide layout unpivoted, the raters asked for kept, and
the result's columns renamed. These are those few operations, one per library.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import pandas as pd

__all__ = ["eager_frame", "keep_rows", "renamed", "unpivot"]


def eager_frame(data: Any) -> bool:
    """Whether ``data`` is a pandas or polars DataFrame (in memory, not lazy)."""
    pl = sys.modules.get("polars")
    return isinstance(data, pd.DataFrame) or (pl is not None and isinstance(data, pl.DataFrame))


def keep_rows(native: Any, column: Hashable, values: Sequence[Any]) -> Any:
    """The rows whose ``column`` is one of ``values`` (a new frame)."""
    if isinstance(native, pd.DataFrame):
        return native[native[column].isin(list(values))]
    pl = sys.modules["polars"]
    return native.filter(pl.col(str(column)).is_in(list(values)))


def unpivot(
    native: Any, keys: Sequence[Hashable], columns: Sequence[Hashable], name: str, value: str
) -> Any:
    """One row per row and column of ``columns``.

    The column's name goes in ``name``, its value in ``value``, the ``keys`` repeated.
    """
    if isinstance(native, pd.DataFrame):
        return native.melt(
            id_vars=list(keys), value_vars=list(columns), var_name=name, value_name=value
        )
    return native.unpivot(
        index=[str(k) for k in keys],
        on=[str(c) for c in columns],
        variable_name=name,
        value_name=value,
    )


def renamed(native: Any, names: Mapping[str, str]) -> Any:
    """``native`` with its columns renamed (a pandas result keeps its ``attrs``)."""
    if isinstance(native, pd.DataFrame):
        return native.rename(columns=dict(names))
    return native.rename(dict(names))
