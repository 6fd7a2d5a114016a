"""A ``kappaframe._schema.Table`` to the frame library results come back in."""

from __future__ import annotations

from typing import Any

from .._schema import Table
from .pandas import render as pandas_render

__all__ = ["OUTPUTS", "render"]

#: Output kinds: a pandas, polars or Dask DataFrame, or a polars LazyFrame.
OUTPUTS = ("pandas", "polars", "lazy", "dask")


def render(table: Table, keys: Any, output: str, eager: bool = False) -> Any:
    """Render ``table`` (key columns read from the frame ``keys``) as ``output``.

    ``eager`` keeps a LazyFrame or Dask result eager (polars DataFrame, pandas).
    """
    if output in ("polars", "lazy"):
        from .polars import render as polars_render

        frame = polars_render(table, keys)
        return frame.lazy() if output == "lazy" and not eager else frame
    result = pandas_render(table, keys)
    if output == "dask" and not eager:
        from .dask import from_pandas

        return from_pandas(result)
    return result
