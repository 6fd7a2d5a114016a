"""Tables of counts in: an item x category table (``layout="counts"``) as NumPy arrays.

A pandas or polars frame (one row per item, one column per category, optional group
columns) or a 2-D NumPy array becomes the float counts, the category labels, the group
codes and the adapter that renders results in the input's frame library. No statistics.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np

from .._encode.codes import Groups, encode_groups
from .._errors import KappaFrameError
from .._schema import Table
from .native import eager_adapter
from .render import render as render_table

__all__ = ["ArrayFrame", "CountLayout", "CountTable", "read_count_table"]


class ArrayFrame:
    """Renders a result of a table of counts (no group keys) as ``output``."""

    def __init__(self, output: str = "pandas") -> None:
        self.output = output

    def render(self, table: Table) -> Any:
        return render_table(table, None, self.output)


@dataclass
class CountTable:
    """An item x category table of counts, read into NumPy (rows: items, as given)."""

    counts: np.ndarray  # (n_items, K) float: how many raters chose each category
    categories: list[Any]
    groups: Groups
    frame: Any  # the adapter that renders results in the input's frame library


@dataclass(frozen=True)
class CountLayout:
    """The columns of an item x category table of counts.

    ``by`` names the group columns of a frame; ``item`` a column of item ids, which is
    neither; ``categories`` the category columns in order (default: every other column;
    for an array, the labels of its columns).
    """

    by: list[Hashable]
    item: Hashable | None = None
    categories: Sequence[Any] | None = None


def read_count_table(data: Any, layout: CountLayout) -> CountTable:
    """Read an item x category table of counts (a frame, or a 2-D NumPy array)."""
    by, item, categories = layout.by, layout.item, layout.categories
    if isinstance(data, np.ndarray) or (
        eager_adapter(data) is None and not hasattr(data, "columns")
    ):
        if by or item is not None:
            raise KappaFrameError(
                f"{'by=' if by else 'item='} needs a frame; a NumPy count table has no "
                "named columns."
            )
        table = np.asarray(data)
        if table.ndim != 2:
            raise KappaFrameError(
                f"layout='counts' needs a 2-D table (items x categories); got shape {table.shape}."
            )
        cats = list(range(table.shape[1])) if categories is None else list(categories)
        if len(cats) != table.shape[1]:
            raise KappaFrameError(
                f"categories names {len(cats)} categories, but the table has "
                f"{table.shape[1]} columns."
            )
        try:
            counts = table.astype(float)
        except (TypeError, ValueError):
            raise KappaFrameError(
                "layout='counts' needs numbers of raters in every cell."
            ) from None
        groups = Groups(None, 1, np.zeros(1, dtype=np.intp))
        frame: Any = ArrayFrame("pandas")
    else:
        frame = eager_adapter(data)
        if frame is None:
            raise KappaFrameError(
                "layout='counts' takes a pandas or polars DataFrame, or a 2-D NumPy array."
            )
        columns = list(frame.columns())
        lacking = [b for b in by if b not in columns]
        if lacking:
            raise KappaFrameError(f"by column {lacking[0]!r} not in the columns {columns}.")
        if item is not None and item not in columns:
            raise KappaFrameError(
                f"item column {item!r} not in the columns {columns}.", option="item"
            )
        not_counts = [*by, item]
        cats = (
            [c for c in columns if c not in not_counts] if categories is None else list(categories)
        )
        lacking = [c for c in cats if c not in columns]
        if lacking:
            raise KappaFrameError(f"category column {lacking[0]!r} not in the columns {columns}.")
        frame.load([*by, *cats])
        counts = np.zeros((frame.n_rows, len(cats)))
        for j, c in enumerate(cats):
            fact = frame.labels(c)
            bad = [u for u in fact.uniques if isinstance(u, bool) or not isinstance(u, Real)]
            if bad:
                raise KappaFrameError(
                    f"layout='counts' needs numbers of raters; column {c!r} holds {bad[0]!r}."
                )
            values = np.asarray([float(u) for u in fact.uniques] + [0.0])
            counts[:, j] = values[np.asarray(fact.codes, dtype=np.intp)]  # missing: 0
        groups = encode_groups([frame.keys(b) for b in by], frame.n_rows)
    if not np.all(np.isfinite(counts)) or np.any(counts < 0):
        raise KappaFrameError(
            "layout='counts' needs finite, non-negative numbers of raters in every cell."
        )
    return CountTable(counts, cats, groups, frame)
