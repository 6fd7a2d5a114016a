"""Lazy results: a polars LazyFrame or Dask DataFrame in, a plan that runs later out.

A function that can answer lazily has a planner beside it (``@lazy_result(planner)``):
from the input's column names and the call's options alone, the planner checks what
needs no data (options, columns) and describes the result with no rows (a
``kappaframe._schema.Table``), and says what to count. The lazy result's schema is
that table rendered by the input's library; nothing runs on the data, not even on an
empty frame of its schema, until the plan is collected (polars) or computed (Dask).
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .._schema import Table
from .counts import Counts
from .options import as_list, check_columns
from .plan import Counted, delayed_counts
from .prepare import eager_adapter, long_columns, wide_raters
from .settings.reading import ReadSpec
from .windows import windowed_schema

__all__ = ["Planned", "Planner", "deferred", "lazy_result", "planned_layout"]

FuncT = TypeVar("FuncT", bound=Callable[..., Any])

_LONG = ("item", "rater", "label")


@dataclass(frozen=True)
class Planned:
    """A lazy call before it runs: its result with no rows, and what it counts.

    ``raters`` and ``count`` are the raters and how to read the ratings (a ``ReadSpec``
    over those raters) of the pair counts the call reads; ``long``: the long layout,
    whose rater ids (and so the dtype of the rater columns) come from the rater column.
    ``labelled``: the result's columns that hold labels, of the label columns' dtype.
    """

    table: Table
    raters: Any
    count: ReadSpec = field(default_factory=ReadSpec)
    long: bool = False
    label_columns: list[Hashable] = field(default_factory=list)
    labelled: list[Hashable] = field(default_factory=list)

    @staticmethod
    def of(table: Table, raters: Any, count: ReadSpec, columns: list[Hashable]) -> Planned:
        """A plan counting ``raters`` read by ``count``; ``columns``: the wide layout's raters."""
        long = not columns
        labels = [count.label] if long else list(columns)
        return Planned(table, raters, count, long, labels)


#: ``planner(names, options) -> Planned | None``: ``options`` holds every argument of the
#: call by name (defaults filled in); ``None`` when the result's columns depend on the
#: data (the call then computes at once).
Planner = Callable[[list[Hashable], dict[str, Any]], "Planned | None"]


def lazy_result(planner: Planner, *, counted: bool = True) -> Callable[[FuncT], FuncT]:
    """Make ``func(data, ...)`` return a lazy result for a LazyFrame or Dask DataFrame.

    ``planner`` describes the result from the input's schema and the options; see
    ``deferred``. ``counted``: the call reads pair counts (a Dask input can then be one
    graph); ``False`` for a call that reads every rating, which computes a Dask input at
    once.
    """

    def decorate(func: FuncT) -> FuncT:
        @functools.wraps(func)
        def call(data: Any, *args: Any, **kwargs: Any) -> Any:
            return deferred(func, planner, data, args, kwargs, finish=call, counted=counted)

        return call  # type: ignore[return-value]

    return decorate


def planned_layout(
    names: list[Hashable], read: ReadSpec, min_raters: int = 2
) -> tuple[list[Hashable], list[Hashable], ReadSpec]:
    """The ``by`` columns, the rater columns and the reading of a lazy call's counts.

    From the input's column names alone, with the checks an eager input gets; the rater
    columns are ``[]`` in the long layout (its raters are ids in the data). ``read``: how
    the call reads its ratings, over the raters it counts (a reference rater added).
    """
    by = as_list(read.by, names)
    check_columns(by, names, "by column")
    if read.layout is not None:
        long_columns(names, by, read.layout)
        return by, [], read
    return by, wide_raters(names, read.raters, by, min_raters), read


def deferred(
    func: Callable[..., Any],
    planner: Planner,
    data: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    finish: Callable[..., Any] | None = None,
    counted: bool = True,
) -> Any:
    """``func(data, *args, **kwargs)``; for a lazy input, a lazy result that runs it later.

    polars LazyFrame: the plan reads the input (in batches) and computes at
    ``.collect()``, from the data as it is then. Its schema is the planner's table
    rendered as polars, known before any data is read; the planner raises at call time
    the errors that need no data (unknown columns, bad options). What needs the labels
    (an order for weights on text, the size of a weight matrix) is checked at
    ``.collect()``. A call whose columns depend on the data (a long-layout ``matrix``,
    whose columns are the rater ids) computes at once.

    Dask DataFrame, wide layout with ``categories`` given: the call builds one graph (the
    partition counts, their sum, then ``finish`` of the total) and runs nothing until
    ``.compute()``; its ``meta`` is the planner's table rendered as pandas. ``finish``
    is the public function (it pickles by name for a ``distributed`` worker); default
    ``func``. Otherwise a pass over the data finds the categories first (see
    ``kappaframe._api.plan.count_parts``), and the call computes at once, as does a
    call that reads every rating (``counted=False``).

    The columns a plan says hold labels (``Planned.labelled``) take the dtype of the
    input's label columns; label columns of different dtypes leave the result's dtype to
    the labels, and the call computes at once (its result a LazyFrame over it).
    """
    pl = sys.modules.get("polars")
    dd = sys.modules.get("dask.dataframe")
    if dd is not None and isinstance(data, dd.DataFrame):
        if not counted:
            return func(data, *args, **kwargs)
        return _dask_deferred(func, planner, data, args, kwargs, finish or func)
    if pl is None or not isinstance(data, pl.LazyFrame):
        return func(data, *args, **kwargs)
    from .._frames import polars as polars_frames

    source, options = windowed_schema(
        polars_frames.schema_of(data), _call_options(func, data, args, kwargs)
    )
    planned = planner(list(source), options)
    if planned is None:
        return func(data, *args, **kwargs)
    keys = as_list(planned.count.by, list(source))
    polars_frames.check_dtypes(source, planned.label_columns, keys)
    schema = polars_frames.schema_of(
        polars_frames.render(planned.table, polars_frames.empty_frame(source))
    )
    if planned.long:  # rater ids keep the dtype of their column
        ids = polars_frames.name_dtype(source[planned.count.rater])
        schema.update({c: ids for c in ("rater_a", "rater_b") if c in schema})
    if planned.labelled:
        dtypes = {polars_frames.name_dtype(source[c]) for c in planned.label_columns}
        if len(dtypes) != 1:
            return func(data, *args, **kwargs)
        dtype = dtypes.pop()
        schema.update({str(c): dtype for c in planned.labelled})

    def compute(frame: Any) -> Any:
        return func(frame, *args, **kwargs)

    return polars_frames.planned(data, compute, schema)


def _call_options(
    func: Callable[..., Any], data: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> dict[str, Any]:
    """Every argument of the call by name, defaults filled in (its data left out)."""
    bound = inspect.signature(func).bind(data, *args, **kwargs)
    bound.apply_defaults()
    first = next(iter(bound.arguments))
    return {k: v for k, v in bound.arguments.items() if k != first}


def _dask_deferred(
    func: Callable[..., Any],
    planner: Planner,
    data: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    finish: Callable[..., Any],
) -> Any:
    """``func`` on a Dask DataFrame, as a graph when no pass over the data must come first."""
    options = _call_options(func, data, args, kwargs)
    if options.get("time") is not None:  # each group's first window: a pass comes first
        return func(data, *args, **kwargs)
    if any(options.get(k) is not None for k in _LONG) or options.get("categories") is None:
        return func(data, *args, **kwargs)
    planned = planner(list(data.columns), options)
    if planned is None:  # pragma: no cover - the wide layout always plans
        return func(data, *args, **kwargs)
    from .._frames.dask import DaskReader
    from .._frames.dask import planned as dask_planned

    adapter = eager_adapter(data._meta)
    assert adapter is not None  # a Dask DataFrame's meta is a pandas frame
    meta = adapter.render(planned.table)
    total = delayed_counts(DaskReader(data), planned.count)
    return dask_planned(total, _finish, (finish, args, kwargs), meta)


def _finish(
    total: Counts, func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    """The last task of a Dask graph: ``func`` of the summed counts (a pandas frame)."""
    return func(Counted(total), *args, **kwargs)
