"""Dask DataFrames: parts are partitions, mapped and reduced on the cluster.

Pair counts add up over items, so the loop of ``kappaframe._api.plan`` counts each
partition on the workers (through the pandas adapter), the partition counts are summed in
a tree, and the total is finalised by the shared statistics. Results are what pandas gives
on the same data; they come back as a one-partition Dask DataFrame (``.compute()`` for
pandas). When nothing needs to be read first (wide layout, ``categories=`` given), the whole
call is one graph (``planned``): counting, summing and finishing run at ``.compute()``.
Works with any scheduler, including a ``distributed.Client``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from .._errors import KappaFrameError, optional_import
from .pandas import PandasFrame
from .parts import PartReader

__all__ = ["DaskReader", "from_pandas", "planned"]

#: Partition results combined per task of the reduction tree.
FAN_IN = 8


def _dask() -> tuple[Any, Any]:
    dask = optional_import("dask", "counting a Dask DataFrame")
    return dask, optional_import("dask.dataframe", "counting a Dask DataFrame")


def from_pandas(frame: Any) -> Any:
    """Wrap a small pandas result as a one-partition Dask DataFrame.

    Index levels but the last become columns: Dask has no MultiIndex.
    """
    _, dd = _dask()
    return dd.from_pandas(_flat(frame), npartitions=1, sort=False)


def planned(total: Any, finish: Callable[..., Any], args: tuple[Any, ...], meta: Any) -> Any:
    """A one-partition Dask DataFrame that computes ``finish(total, *args)`` when computed.

    ``total`` is a ``dask.delayed.Delayed`` (the summed partition counts); nothing
    runs here. ``meta`` is the pandas result on no rows: the schema of the result.
    """
    dask, dd = _dask()
    part = dask.delayed(_finished, pure=True)(finish, total, *args)
    return dd.from_delayed([part], meta=_flat(meta))


def _finished(finish: Callable[..., Any], total: Any, *args: Any) -> Any:
    return _flat(finish(total, *args))


def _flat(frame: Any) -> Any:
    """Index levels but the last as columns: Dask has no MultiIndex."""
    import pandas as pd

    if isinstance(frame.index, pd.MultiIndex):
        frame = frame.reset_index(level=list(range(frame.index.nlevels - 1)))
    return frame


class DaskReader(PartReader):
    """A Dask DataFrame: each partition is a pandas part, processed on the workers."""

    output = "dask"
    distributed = True

    def __init__(self, frame: Any) -> None:
        self.source = frame

    def columns(self) -> list[Hashable]:
        return list(self.source.columns)

    def empty(self) -> Any:
        """The frame's schema with no rows.

        A categorical column whose categories Dask does not know holds a placeholder
        category in its schema; it becomes a categorical with no categories, so no message
        shows the placeholder. The parts carry their real categories.
        """
        import pandas as pd

        meta = self.source._meta
        unknown = [
            c
            for c in meta.columns
            if isinstance(meta[c].dtype, pd.CategoricalDtype) and not self.source[c].cat.known
        ]
        if not unknown:
            return meta
        meta = meta.copy()
        for c in unknown:
            meta[c] = meta[c].cat.set_categories([])
        return meta

    def wrap(self) -> Callable[[Any], Any]:
        return PandasFrame

    def _delayed(
        self,
        columns: Sequence[Hashable],
        func: Callable[..., Any],
        args: tuple[Any, ...],
        together: Hashable | None,
    ) -> list[Any]:
        dask, _ = _dask()
        data = self.source[list(columns)]
        if together is not None:  # every row of a value of `together` in one partition
            data = data.shuffle(on=together)
        return [dask.delayed(func)(part, *args) for part in data.to_delayed()]

    def map(
        self,
        columns: Sequence[Hashable],
        func: Callable[..., Any],
        *args: Any,
        together: Hashable | None = None,
        compact: Sequence[Hashable] = (),
    ) -> list[Any]:
        dask, _ = _dask()
        return list(dask.compute(*self._delayed(columns, func, args, together)))

    def reduce(
        self,
        columns: Sequence[Hashable],
        func: Callable[..., Any],
        combine: Callable[[list[Any]], Any],
        *args: Any,
        together: Hashable | None = None,
        compact: Sequence[Hashable] = (),
    ) -> Any:
        dask, _ = _dask()
        (total,) = dask.compute(
            self.reduce_delayed(columns, func, combine, *args, together=together)
        )
        return total

    def reduce_delayed(
        self,
        columns: Sequence[Hashable],
        func: Callable[..., Any],
        combine: Callable[[list[Any]], Any],
        *args: Any,
        together: Hashable | None = None,
    ) -> Any:
        """What ``reduce`` returns, as a ``dask.delayed.Delayed``: nothing runs.

        ``func`` maps each partition and ``combine`` adds up to ``FAN_IN`` results per
        task, in a tree whose root is returned.
        """
        dask, _ = _dask()
        parts = self._delayed(columns, func, args, together)
        if not parts:  # pragma: no cover - a Dask DataFrame has at least one partition
            raise KappaFrameError("the Dask DataFrame has no partitions.")
        while len(parts) > 1:
            parts = [
                dask.delayed(combine)(parts[i : i + FAN_IN]) for i in range(0, len(parts), FAN_IN)
            ]
        return parts[0]
