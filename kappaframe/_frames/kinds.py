"""The kinds of input every public function takes: one entry each, tried in order.

An entry names what it takes (for the message that lists them) and turns the input into
an adapter (an eager frame), a reader of parts (LazyFrame batches, Dask partitions,
files) or an engine frame; ``None`` when the input is not of its kind. A new kind of
input is one module with one such function, and one entry here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._errors import KappaFrameTypeError
from .annotations import annotation_export
from .engines import engine_frame
from .files import file_reader
from .native import eager_adapter

__all__ = ["INPUT_KINDS", "InputKind", "adapt"]


@dataclass(frozen=True)
class InputKind:
    """One kind of input: what it is called, and its adapter (``None``: not this kind)."""

    name: str
    adapter: Callable[[Any], Any]


def _lazy_frame(data: Any) -> Any:
    pl = sys.modules.get("polars")
    if pl is None or not isinstance(data, pl.LazyFrame):
        return None
    from .polars import LazyReader

    return LazyReader(data)


def _dask_frame(data: Any) -> Any:
    dd = sys.modules.get("dask.dataframe")
    if dd is None or not isinstance(data, dd.DataFrame):
        return None
    from .dask import DaskReader

    return DaskReader(data)


#: Tried in this order; a library that is not imported cannot be the input's, so
#: nothing is imported to find out.
INPUT_KINDS = (
    InputKind("a polars LazyFrame", _lazy_frame),
    InputKind("a pandas or polars DataFrame", eager_adapter),
    InputKind("a Dask DataFrame", _dask_frame),
    InputKind("a Label Studio, Prodigy or doccano export (kf.read_annotations)", annotation_export),
    InputKind("parquet/CSV/JSON-lines files (a path, paths, or kf.scan(...))", file_reader),
    InputKind("a DuckDB relation, an Ibis table or a PySpark DataFrame", engine_frame),
)


def adapt(data: Any) -> Any:
    """The adapter or reader of the first kind that takes ``data``; else a clear error."""
    for kind in INPUT_KINDS:
        adapted = kind.adapter(data)
        if adapted is not None:
            return adapted
    got = f"{type(data).__module__}.{type(data).__qualname__}"
    if isinstance(data, (str, os.PathLike)):
        got = f"{os.fspath(data)!r}, which is not an existing file"
    names = [kind.name for kind in INPUT_KINDS]
    raise KappaFrameTypeError(
        f"expected {', '.join(names[:-1])}, or {names[-1]}; got {got}. "
        "For two plain arrays of labels use kappaframe.cohen_kappa(y1, y2)."
    )
