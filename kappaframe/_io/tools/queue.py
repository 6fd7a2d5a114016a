"""What the queue writers share: the queue's columns checked, and cells as JSON values."""

from __future__ import annotations

import datetime
import math
from collections.abc import Hashable, Sequence
from typing import Any

from ..._errors import KappaFrameError, KappaFrameTypeError, missing_columns


def check_queue(
    queue: Any, item: Hashable, raters: Sequence[Hashable], others: Sequence[Hashable]
) -> list[Hashable]:
    """Check that ``queue`` is a pandas frame holding the named columns; the raters as a list."""
    import pandas as pd

    if not isinstance(queue, pd.DataFrame):
        raise KappaFrameTypeError(
            f"the queue must be a pandas DataFrame (one row per item); got "
            f"{type(queue).__module__}.{type(queue).__qualname__}."
        )
    if isinstance(raters, (str, bytes)) or not isinstance(raters, Sequence):
        raise KappaFrameTypeError(
            f"raters must be a list of the queue's rater columns; got {raters!r}."
        )
    raters = list(raters)
    if not raters:
        raise KappaFrameError(
            "raters names no column: give the queue's columns that hold each rater's label.",
            option="raters",
        )
    err = missing_columns([item, *raters, *others], list(queue.columns))
    if err is not None:
        raise err
    return raters


def is_missing(value: Any) -> bool:
    """Whether a cell is a missing label (None, NaN, pd.NA, NaT)."""
    import pandas as pd

    if value is None:
        return True
    if isinstance(value, (frozenset, set, tuple, list)):
        return False
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def json_value(value: Any) -> Any:
    """A cell as a JSON value: NumPy scalars as Python's, NaN as null, sets as sorted lists."""
    if is_missing(value):
        return None
    if isinstance(value, (frozenset, set, tuple, list)):
        return [json_value(v) for v in sorted_values(value)]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()  # NumPy scalars
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if hasattr(value, "isoformat"):  # pandas Timestamp
        return value.isoformat()
    return str(value)


def sorted_values(values: Any) -> list[Any]:
    """A set's values in a stable order: sorted, or sorted by their text when mixed."""
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=lambda v: (type(v).__name__, str(v)))


def choices(label: Any) -> list[str]:
    """A label as the chosen values, as text: ``"pos"`` -> ``["pos"]``, a set -> sorted."""
    if isinstance(label, (frozenset, set, tuple, list)):
        return [str(json_value(v)) for v in sorted_values(label)]
    return [str(json_value(label))]
