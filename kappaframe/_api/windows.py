"""Agreement over time: the ``time=``/``every=`` options as one more group key.

``in_windows`` adapts the caller's input and, with a time column, puts its rows in
windows (``kappaframe._frames.windows``): the statistics then see ``by`` plus
``window_start`` and ``window_end``, and nothing else changes. An input read in parts is
windowed part by part in the one loop over parts.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from .._encode.windows import WINDOW_COLUMNS, Windows, check_windows
from .._frames.parts import PartReader
from .._frames.windows import ROW_COLUMN, polars_window_dtype, windowed, windowed_frame_check
from .options import as_list
from .plan import Counted, adapt

__all__ = ["WINDOW_COLUMNS", "check_windows", "in_windows", "windowed_schema"]


def in_windows(
    data: Any, w: Windows | None, by: Any, *, row: bool = False
) -> tuple[Any, Any, Hashable | None]:
    """The adapted input, its ``by`` columns and its item key column, in windows.

    Without windows: ``adapt(data)``, ``by`` and ``None``. With them, the input's rows in
    windows and ``[*by, "window_start", "window_end"]``. ``row``: the wide layout names
    items by their position (polars, files): the windowed rows carry it, and its column
    is the item key returned.
    """
    frame = adapt(data)
    if w is None:
        return frame, by, None
    keys = [*as_list(by), *WINDOW_COLUMNS]
    if isinstance(frame, Counted):  # counted in windows already (a Dask graph's last step)
        return frame, keys, None
    positional = row and not (
        getattr(frame, "output", None) == "pandas" and not isinstance(frame, PartReader)
    )
    positional = positional and not (isinstance(frame, PartReader) and frame.distributed)
    out = windowed(frame, w, as_list(by), row=positional)
    return out, keys, ROW_COLUMN if positional else None


def windowed_schema(
    schema: dict[Hashable, Any], options: dict[str, Any]
) -> tuple[dict[Hashable, Any], dict[str, Any]]:
    """A LazyFrame's schema and a call's options as its windowed parts have them.

    For the planner of a lazy result: the time column gives way to ``window_start`` and
    ``window_end`` (of its type), which join ``by``. Unchanged without ``time``.
    """
    if "time" not in options:  # a function without windows
        return schema, options
    w = check_windows(*(options.get(k) for k in ("time", "every", "period", "offset", "closed")))
    if w is None:
        return schema, options
    by = as_list(options.get("by"))
    if w.time not in schema:
        windowed_frame_check(list(schema), w)
    dtype = polars_window_dtype(schema[w.time], w)
    out = {k: v for k, v in schema.items() if k != w.time or k in set(by)}
    out.update({name: dtype for name in WINDOW_COLUMNS})
    return out, {**options, "by": [*by, *WINDOW_COLUMNS]}
