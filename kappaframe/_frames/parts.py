"""Inputs read in parts: Dask partitions, file batches, LazyFrame batches.

A reader only yields eager parts (a pandas or polars DataFrame each) and, for the layout
that needs every rating of an item together, the needed columns at once. It never encodes,
counts or adds: the one loop over parts is ``kappaframe._api.plan``, which hands a
reader the function to run on each part and the one that adds the results.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any

from .._io.scan import DEFAULT_BATCH_ROWS

__all__ = ["DEFAULT_BATCH_ROWS", "BatchReader", "PartReader"]


class PartReader(ABC):
    """An input read part by part.

    Attributes
    ----------
    output : {"pandas", "lazy", "dask"}
        The kind of frame results come back as.
    distributed : bool
        Whether ``map`` and ``reduce`` run on a cluster (Dask): then a pass that
        only looks at the data (distinct labels) is worth its own task graph.
    """

    output = "pandas"
    distributed = False

    @abstractmethod
    def columns(self) -> list[Hashable]:
        """Column names of the whole input (read from its schema, not its data)."""

    @abstractmethod
    def empty(self) -> Any:
        """An eager frame with the input's columns and types and no rows."""

    @abstractmethod
    def wrap(self) -> Callable[[Any], Any]:
        """The eager adapter class for one part (picklable: it may run on a worker)."""

    @abstractmethod
    def map(
        self,
        columns: Sequence[Hashable],
        func: Callable[..., Any],
        *args: Any,
        together: Hashable | None = None,
        compact: Sequence[Hashable] = (),
    ) -> list[Any]:
        """``func(part, *args)`` of every part of ``columns``.

        ``together`` names a column whose equal values must land in the same part (the
        item id of the long layout); ``compact`` the columns worth reading compactly then
        (ids and labels held in memory at once).
        """

    @abstractmethod
    def reduce(
        self,
        columns: Sequence[Hashable],
        func: Callable[..., Any],
        combine: Callable[[list[Any]], Any],
        *args: Any,
        together: Hashable | None = None,
        compact: Sequence[Hashable] = (),
    ) -> Any:
        """``combine`` of ``func(part, *args)`` over every part; ``None`` when there is none."""


class BatchReader(PartReader):
    """A reader that yields its parts one after the other, in this process (files, LazyFrames)."""

    @abstractmethod
    def parts(self, columns: Sequence[Hashable]) -> Iterator[Any]:
        """Eager frames of ``columns``, a batch of rows each."""

    @abstractmethod
    def whole(self, columns: Sequence[Hashable], compact: Sequence[Hashable] = ()) -> Any:
        """One eager frame of ``columns``: every row (``compact`` ones as small as possible)."""

    def _chunks(
        self, columns: Sequence[Hashable], together: Hashable | None, compact: Sequence[Hashable]
    ) -> Iterator[Any]:
        if together is None:
            return self.parts(columns)
        return iter([self.whole(columns, compact)])  # one part holds every row

    def map(
        self,
        columns: Sequence[Hashable],
        func: Callable[..., Any],
        *args: Any,
        together: Hashable | None = None,
        compact: Sequence[Hashable] = (),
    ) -> list[Any]:
        """``func(part, *args)`` of every batch, or of the whole columns with ``together``."""
        return [func(chunk, *args) for chunk in self._chunks(columns, together, compact)]

    def reduce(
        self,
        columns: Sequence[Hashable],
        func: Callable[..., Any],
        combine: Callable[[list[Any]], Any],
        *args: Any,
        together: Hashable | None = None,
        compact: Sequence[Hashable] = (),
    ) -> Any:
        """Add up ``func(part, *args)`` batch by batch, holding one batch at a time."""
        total = None
        for chunk in self._chunks(columns, together, compact):
            part = func(chunk, *args)
            total = part if total is None else combine([total, part])
        return total
