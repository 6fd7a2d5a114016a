"""Lazy results: a polars LazyFrame or Dask DataFrame in, a plan that runs later out."""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from .._errors import KappaFrameError, quiet_undefined
from .counts import Counts
from .options import as_list
from .plan import Counted, Deferred

__all__ = ["LAZY_FUNCTIONS", "deferred", "lazy_result"]

FuncT = TypeVar("FuncT", bound=Callable[..., Any])

#: The functions whose result on a polars LazyFrame is a plan that runs at ``.collect()``.
#: Their output schema follows from the input's schema and the options alone (``matrix``
#: only in the wide layout: in the long layout its columns are rater ids, found in the
#: data). The others compute when called and wrap the answer as a LazyFrame.
LAZY_FUNCTIONS = ("pairwise", "matrix")

_LONG = ("item", "rater", "label")


def lazy_result(func: FuncT) -> FuncT:
    """Make ``func(data, ...)`` return a lazy plan for a LazyFrame or Dask DataFrame.

    See :func:`deferred`.
    """

    @functools.wraps(func)
    def call(data: Any, *args: Any, **kwargs: Any) -> Any:
        return deferred(func, data, args, kwargs, finish=call)

    return call  # type: ignore[return-value]


def deferred(
    func: Callable[..., Any],
    data: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    finish: Callable[..., Any] | None = None,
) -> Any:
    """``func(data, *args, **kwargs)``; for a lazy input, a lazy result that runs it later.

    polars LazyFrame: the plan reads the input (in batches) and computes at
    ``.collect()``, from the data as it is then. Its schema comes before any data is read:
    from the input's schema (metadata only) and a run of ``func`` on an empty frame of that
    schema, which also raises at call time the errors that need no data (unknown columns,
    bad options). Functions outside :data:`LAZY_FUNCTIONS`, a long-layout ``matrix``
    (whose columns are the rater ids in the data), and a call whose schema cannot be
    planned from no rows (a weight matrix without ``categories``) compute at once.

    Dask DataFrame, wide layout with ``categories`` given: the call builds one graph (the
    partition counts, their sum, then ``finish`` of the total) and runs nothing until
    ``.compute()``; its schema is ``func`` on the empty pandas frame of the input's schema.
    ``finish`` is the public function (it pickles by name for a ``distributed`` worker);
    default ``func``. Otherwise a pass over the data finds the categories first (see
    :func:`count_parts`), and the call computes at once.
    """
    pl = sys.modules.get("polars")
    dd = sys.modules.get("dask.dataframe")
    name = getattr(func, "__name__", "")
    if name in LAZY_FUNCTIONS and dd is not None and isinstance(data, dd.DataFrame):
        return _dask_deferred(func, data, args, kwargs, finish or func)
    if pl is None or not isinstance(data, pl.LazyFrame) or name not in LAZY_FUNCTIONS:
        return func(data, *args, **kwargs)
    from .._frames import polars as polars_frames

    options, long = _call_options(func, data, args, kwargs)
    if name == "matrix" and long:  # columns named by the rater ids in the data
        return func(data, *args, **kwargs)
    source = polars_frames.schema_of(data)
    schema = _planned_schema(func, source, options, long)
    if schema is None:
        return func(data, *args, **kwargs)

    def compute(frame: Any) -> Any:
        return func(frame, *args, **kwargs)

    return polars_frames.planned(data, compute, schema)


def _call_options(
    func: Callable[..., Any], data: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[dict[str, Any], bool]:
    """The call's options by name (its data left out), and whether it is the long layout."""
    bound = inspect.signature(func).bind(data, *args, **kwargs)
    first = next(iter(bound.arguments))
    options = {k: v for k, v in bound.arguments.items() if k != first}
    return options, any(options.get(k) is not None for k in _LONG)


def _planned_schema(
    func: Callable[..., Any], source: dict[Hashable, Any], options: dict[str, Any], long: bool
) -> dict[Hashable, Any] | None:
    """The output schema of ``func`` on data of schema ``source``, from an empty frame."""
    from .._frames import polars as polars_frames

    call = dict(options)
    columns = dict(source)
    if long:
        # An empty long frame names no rater, and agreement needs two: plan on an empty
        # wide frame with two raters of the label's dtype; rater ids keep their own dtype.
        by = as_list(options.get("by"), list(source))
        if any(c not in source for c in [*by, *(options[k] for k in _LONG)]):
            return None  # the call itself says which column is missing
        columns = {b: source[b] for b in by}
        raters = [f"rater {i}" for i in range(len(columns) + 2) if f"rater {i}" not in columns]
        label = source[options["label"]]
        columns.update({r: label for r in raters[:2]})
        for key in (*_LONG, "duplicates", "reference"):
            call.pop(key, None)
        call["raters"] = raters[:2]
    try:
        with quiet_undefined():  # undefined kappa of no rows says nothing
            out = func(polars_frames.empty_frame(columns), **call)
    except KappaFrameError:
        return None
    schema = polars_frames.schema_of(out)
    if long:
        ids = polars_frames.name_dtype(source[options["rater"]])
        schema.update({c: ids for c in ("rater_a", "rater_b") if c in schema})
    return schema


def _dask_deferred(
    func: Callable[..., Any],
    data: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    finish: Callable[..., Any],
) -> Any:
    """``func`` on a Dask DataFrame, as a graph when no pass over the data must come first."""
    options, long = _call_options(func, data, args, kwargs)
    if long or options.get("categories") is None:
        return func(data, *args, **kwargs)
    from .._frames.dask import DaskReader, planned

    target = Deferred(DaskReader(data))
    with quiet_undefined():  # no rows: says nothing
        meta = func(target, *args, **kwargs)  # plans the counts; the result on no rows
    if target.total is None:  # pragma: no cover - the function read no counts
        return func(data, *args, **kwargs)
    return planned(target.total, _finish, (finish, args, kwargs), meta)


def _finish(
    total: Counts, func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    """The last task of a Dask graph: ``func`` of the summed counts (a pandas frame)."""
    return func(Counted(total), *args, **kwargs)
