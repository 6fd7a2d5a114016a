"""Dask DataFrames: agreement as a map-reduce over partitions.

Pair counts add up over items, so each partition is counted by the shared kernel (through
the pandas adapter, on the workers), the partition :class:`kappaframe.Counts` are summed
in a tree, and the total is finalised on the client by the shared statistics:

1. one pass discovers the categories (the sorted distinct labels of every rater column,
   or the order an ordered categorical declares), and in the long layout the rater ids,
   unless ``categories=`` is given (and, in the long layout, no ``raters=``);
2. the long layout is shuffled by item, so every rating of an item is in one partition;
3. one pass counts: ``to_delayed()`` partitions -> counts -> ``combine`` in a tree.

Results are what pandas gives on the same data; they come back as a one-partition Dask
DataFrame (``.compute()`` for pandas). Works with any scheduler, including a
``distributed.Client``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from .._api.counts import (
    CountingFrame,
    Counts,
    ItemCodes,
    check_raters,
    combine,
    distinct_labels,
    merge_categories,
)
from .._errors import KappaFrameError, missing_columns, too_few_raters

__all__ = ["DaskFrame", "from_pandas"]

#: Partition counts summed per task of the reduction tree.
FAN_IN = 8


def _dask() -> tuple[Any, Any]:
    try:
        import dask
        import dask.dataframe as dd
    except ModuleNotFoundError:  # pragma: no cover - depends on the environment
        raise ModuleNotFoundError(
            'Dask DataFrames need dask: pip install "kappaframe[dask]"'
        ) from None
    return dask, dd


def from_pandas(frame: Any) -> Any:
    """Wrap a small pandas result as a one-partition Dask DataFrame.

    Index levels but the last become columns: Dask has no MultiIndex.
    """
    import pandas as pd

    _, dd = _dask()
    if isinstance(frame.index, pd.MultiIndex):
        frame = frame.reset_index(level=list(range(frame.index.nlevels - 1)))
    return dd.from_pandas(frame, npartitions=1, sort=False)


class DaskFrame(CountingFrame):
    """A Dask DataFrame seen through the adapter interface.

    Pair counts are summed over partitions on the cluster (:meth:`counts`); statistics
    that need every item's labels (``overall``, ``per_category``, ...) gather the label
    codes of each partition (:meth:`item_parts`, one byte per rating for few categories).
    """

    output = "dask"

    def __init__(self, frame: Any) -> None:
        self.source = frame

    def columns(self) -> list[Hashable]:
        return list(self.source.columns)

    def counts(self, raters: Any = None, *, min_raters: int = 2, **options: Any) -> Counts:
        dask, _ = _dask()
        data, everyone, wanted, long, options = self._plan(raters, min_raters, options)
        parts = [
            dask.delayed(_partition_counts)(part, everyone, bool(wanted), long, options)
            for part in data.to_delayed()
        ]
        while len(parts) > 1:
            parts = [
                dask.delayed(combine)(parts[i : i + FAN_IN]) for i in range(0, len(parts), FAN_IN)
            ]
        if not parts:  # pragma: no cover - a Dask DataFrame has at least one partition
            raise KappaFrameError("the Dask DataFrame has no partitions.")
        (total,) = dask.compute(parts[0])
        if long:
            check_raters(total, min_raters, options["rater"])
        return total

    def item_parts(self, raters: Any = None, *, min_raters: int = 2, **options: Any) -> list[Any]:
        dask, _ = _dask()
        data, everyone, wanted, long, options = self._plan(raters, min_raters, options)
        parts = dask.compute(
            *[
                dask.delayed(_partition_items)(part, everyone, bool(wanted), long, options)
                for part in data.to_delayed()
            ]
        )
        if long and len(everyone) < min_raters:
            raise too_few_raters(min_raters, everyone, options["rater"])
        return list(parts)

    def _plan(
        self, raters: Any, min_raters: int, options: dict[str, Any]
    ) -> tuple[Any, list[Hashable], list[Hashable], bool, dict[str, Any]]:
        """Check the columns, discover categories (and rater ids), shuffle the long layout.

        Returns the frame of the needed columns, every rater, the raters asked for (long
        layout), whether the layout is long, and the options with ``categories`` set.
        """
        from .._api.plan import as_list, prepare
        from .pandas import PandasFrame

        dask, _ = _dask()
        item, rater, label = (options.get(k) for k in ("item", "rater", "label"))
        long = any(c is not None for c in (item, rater, label))
        by = as_list(options.get("by"), self.columns())
        meta = self.source._meta
        # Column checks on the empty meta frame: the same messages as pandas.
        first = prepare(
            PandasFrame(meta),
            None if long else raters,
            min_raters=0 if long else min_raters,
            **options,
        )
        categories = options.get("categories")
        wanted = as_list(raters) if long else []
        if long:
            needed = [*by, item, rater, label]
            label_columns = [label]
        else:
            needed = [*by, *first.raters]
            label_columns = list(first.raters)
        data = self.source[needed]

        everyone: list[Hashable] = list(first.raters)
        if categories is None or long:
            found = dask.compute(
                *[
                    dask.delayed(_distinct)(part, label_columns, rater if long else None)
                    for part in data.to_delayed()
                ]
            )
            if categories is None:
                categories = _categories(found, label_columns)
            if long:
                ids = list(dict.fromkeys(x for f in found for x in f["__raters__"]))
                err = missing_columns(wanted, ids, f"rater id in column {rater!r}")
                if err is not None:
                    raise err
                everyone = wanted or _sorted(ids)
        options = {**options, "categories": categories}
        if long:
            data = data.shuffle(on=item)
        return data, everyone, wanted, long, options


def _sorted(ids: list[Any]) -> list[Any]:
    try:
        return sorted(ids)
    except TypeError:
        return ids


def _distinct(part: Any, columns: list[Hashable], rater: Hashable | None) -> dict[Any, Any]:
    """Per column: distinct labels and declared order; the distinct rater ids."""
    from .pandas import PandasFrame

    return distinct_labels(PandasFrame(part), columns, rater)


def _categories(found: tuple[dict[Any, Any], ...], columns: list[Hashable]) -> list[Any]:
    return merge_categories(found, columns)


def _partition_items(
    part: Any, raters: list[Hashable], selected: bool, long: bool, options: dict[str, Any]
) -> ItemCodes:
    """Encode one partition's items (label codes, groups), on a worker."""
    from .._api.plan import prepare
    from .pandas import PandasFrame

    if not long:
        prep = prepare(PandasFrame(part), raters, min_raters=0, **options)
        return ItemCodes.of(prep)
    present = set(part[options["rater"]].dropna().unique().tolist())
    here = [r for r in raters if r in present]
    if selected and not here:
        part = part.iloc[:0]
    prep = prepare(PandasFrame(part), here if selected else None, min_raters=0, **options)
    return ItemCodes.of(prep)


def _partition_counts(
    part: Any, raters: list[Hashable], selected: bool, long: bool, options: dict[str, Any]
) -> Counts:
    """Count one partition (a pandas frame), on a worker, over all ``raters``."""
    from .._api.plan import prepare
    from .pandas import PandasFrame

    if not long:
        prep = prepare(PandasFrame(part), raters, min_raters=0, **options)
        return Counts.from_prepared(prep, output="dask")
    present = set(part[options["rater"]].dropna().unique().tolist())
    here = [r for r in raters if r in present]
    if selected and not here:
        part = part.iloc[:0]
    prep = prepare(PandasFrame(part), here if selected else None, min_raters=0, **options)
    counts = Counts.from_prepared(prep, output="dask")
    if counts.raters == raters:
        return counts
    # Every partition over the same raters, so that the sum only aligns groups.
    return counts.with_raters(raters)
