"""The one loop over parts: parts -> encode -> count -> add.

``adapt`` wraps what the caller passed: an eager frame (pandas, polars DataFrame) or a
reader of parts (``kappaframe._frames.parts.PartReader``: a polars LazyFrame, a Dask
DataFrame, parquet or CSV files). ``prepare_input`` prepares either kind. Readers only
yield eager parts; here each part is prepared, counted, and the counts are added
(``count_parts``), or, for statistics that need every rating of every item, each part's
label codes are gathered and stacked (``item_parts``).
"""

from __future__ import annotations

import copy
import logging
import sys
import time
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from typing import Any, cast

from .._count.tables import CategoriesDiffer
from .._encode.codes import shared_categories
from .._encode.ids import NotRatings
from .._errors import (
    KappaFrameError,
    missing_columns,
    too_few_raters,
)
from .._frames.arrow_batches import ArrowBatches, engine_name, streamed_reader
from .._frames.engines import EngineFrame
from .._frames.kinds import adapt as input_adapter
from .._frames.pandas import PandasFrame, cell_labels
from .._frames.parts import PartReader
from .._frames.windows import WindowedReader
from .._types import ResultKind
from .counts import Counts, combine, count_prepared
from .options import as_list, check_columns, check_min_overlap
from .prepare import (
    Frame,
    ItemCodes,
    Prepared,
    distinct_labels,
    eager_adapter,
    merge_categories,
    prepare,
    stack_items,
)
from .settings.reading import ReadSpec
from .units import RowKey, UnitRatings, key_raters, stack_units, unit_ratings

__all__ = [
    "Counted",
    "adapt",
    "count_input",
    "count_parts",
    "delayed_counts",
    "each_part",
    "engine_counts",
    "gather_units",
    "item_parts",
    "output_of",
    "prepare_input",
    "unit_parts",
]

_log = logging.getLogger(__name__)


def adapt(data: Any) -> Frame | PartReader | EngineFrame:
    """Wrap a supported input in its adapter (eager) or reader (parts); else a clear error.

    A DuckDB relation or a PySpark DataFrame becomes an ``EngineFrame``: its pair
    counts are computed in the engine (``engine_counts``).
    """
    if isinstance(data, (Counted, PartReader, EngineFrame)) or _adapted(data):
        return data
    return input_adapter(data)


def _adapted(data: Any) -> bool:
    """Whether ``data`` is an adapter already (an input windowed over time, say)."""
    if isinstance(data, PandasFrame):
        return True
    # Another thread may be importing the module: until its class exists, nothing is one.
    polars_frame = getattr(sys.modules.get("kappaframe._frames.polars"), "PolarsFrame", None)
    return polars_frame is not None and isinstance(data, polars_frame)


def each_part(
    frame: Frame | PartReader,
    columns: Sequence[Hashable],
    func: Callable[..., Any],
    *args: Any,
    add: Callable[[list[Any]], Any] | None = None,
    together: Hashable | None = None,
    compact: Sequence[Hashable] = (),
) -> Any:
    """The one loop over the parts of any input: ``func(part, wrap, *args)`` of each part.

    ``frame``: an eager adapter (pandas, polars: one part, itself) or a reader of parts
    (Dask partitions, file batches, LazyFrame batches; a new kind of input is a new
    ``PartReader``, read here like the others). ``wrap`` turns a part into its eager
    adapter (on the worker that reads it, for Dask). With ``add`` (which adds a list of
    results), the results are added as they come, one part held at a time; the sum, or
    ``None`` when there is no part. Without, the list of results. ``together`` names a
    column whose equal values must land in one part (the long layout's item), ``compact``
    the columns read compactly then. ``func`` is a module-level function (it pickles).
    """
    if not isinstance(frame, PartReader):
        result = func(frame, _itself, *args)
        return [result] if add is None else result
    wrap = frame.wrap()
    if add is None:
        return frame.map(columns, func, wrap, *args, together=together, compact=compact)
    return frame.reduce(columns, func, add, wrap, *args, together=together, compact=compact)


def _itself(frame: Any) -> Any:
    """The ``wrap`` of an eager adapter: it is its own one part."""
    return frame


def output_of(frame: Frame | PartReader | EngineFrame) -> ResultKind:
    """The kind of frame results come back as: pandas, polars, lazy or dask."""
    return cast(ResultKind, str(getattr(frame, "output", "pandas")))


def prepare_input(
    frame: Frame | PartReader | EngineFrame,
    read: ReadSpec,
    *,
    from_counts: bool = False,
    min_overlap: Any = None,
    min_raters: int = 2,
    own: bool = True,
) -> Prepared:
    """Prepare an eager frame, or read a reader's parts, as ``read`` says.

    ``from_counts=True`` says the caller reads pair counts only (``prep.tables``), never
    ``prep.codes``: a reader's parts are then counted and added (``count_parts``).
    Otherwise their label codes are gathered (one small integer per rating).
    ``own=False`` says the caller reads pairs of two raters only: the counts of a
    reader's parts leave out each rater with themself (``count_prepared``).
    Logged (INFO, logger ``kappaframe``): the raters taken, the categories and groups
    found, and the time taken.
    """
    start = time.perf_counter()
    prep = _prepare_input(
        frame,
        read,
        from_counts=from_counts,
        min_overlap=min_overlap,
        min_raters=min_raters,
        own=own,
    )
    if _log.isEnabledFor(logging.INFO):
        names = [str(r) for r in prep.raters]
        shown = ", ".join(names[:12]) + (f", ... ({len(names)} in all)" if len(names) > 12 else "")
        _log.info(
            "raters %s; %d categories; %d group(s); prepared in %.2f s",
            shown,
            len(prep.categories),
            prep.groups.n_groups,
            time.perf_counter() - start,
        )
    return prep


def _prepare_input(
    frame: Frame | PartReader | EngineFrame,
    read: ReadSpec,
    *,
    from_counts: bool,
    min_overlap: Any,
    min_raters: int,
    own: bool = True,
) -> Prepared:
    min_overlap = check_min_overlap(min_overlap)
    if isinstance(
        frame, Counted
    ):  # the finishing step of a Dask graph (see ``kappaframe._api.lazy``)
        return frame.counts.prepared(min_overlap)
    if isinstance(frame, EngineFrame):
        if not from_counts:
            raise _every_rating(frame)
        counted = engine_counts(frame, read, min_raters=min_raters, own=own)
        return counted.prepared(min_overlap)
    if not isinstance(frame, PartReader):
        return prepare(frame, read.raters, read, min_raters=min_raters, min_overlap=min_overlap)
    if from_counts:
        return count_parts(frame, read, min_raters=min_raters, own=own).prepared(min_overlap)
    parts = item_parts(frame, read, min_raters=min_raters)
    return stack_items(parts, frame.output, min_overlap)


def _every_rating(frame: EngineFrame) -> KappaFrameError:
    return KappaFrameError(
        f"this statistic needs every rating of every item, and a {frame.engine} "
        "input is counted per rater pair in the engine; use pairwise(), matrix(), "
        "score(), confusion() or counts() on it, or bring the ratings into pandas "
        f"or polars first{f' ({frame.way_out})' if frame.way_out else ''}."
    )


def gather_units(
    frame: Frame | PartReader | EngineFrame,
    read: ReadSpec,
    *,
    min_raters: int = 2,
    key: Hashable | None = None,
) -> UnitRatings:
    """Every rating of every item of any input, with the items' keys (``UnitRatings``).

    ``key``: the wide layout's item key column (default: the index of a pandas or Dask
    frame, else the row's position).

    A LazyFrame is collected once with the needed columns (its batches would lose the
    row order that names the wide layout's items); Dask partitions and file batches are
    read part by part (``unit_parts``), the long layout with every rating of an item in
    one part. ``read``: how to read the ratings.
    """
    if isinstance(frame, EngineFrame):
        raise _every_rating(frame)
    if isinstance(frame, WindowedReader) and frame.output == "lazy":
        frame = frame.eager()
    elif isinstance(frame, PartReader) and frame.output == "lazy":
        frame = eager_adapter(frame.source)  # type: ignore[attr-defined]
    if isinstance(frame, PartReader):
        return unit_parts(frame, read, min_raters=min_raters, key=key)
    eager = cast(Frame, frame)
    row_key: RowKey = "index" if eager.output == "pandas" else "position"
    return unit_ratings(eager, read.raters, read, min_raters=min_raters, row_key=row_key, key=key)


def count_input(frame: Frame | PartReader | EngineFrame, read: ReadSpec) -> Counts:
    """The ``Counts`` of any input: one eager frame, or a reader's parts added up."""
    if isinstance(frame, EngineFrame):
        return engine_counts(frame, read)
    if isinstance(frame, PartReader):
        return count_parts(frame, read)
    return Counts.from_prepared(prepare(frame, read.raters, read), output=output_of(frame))


def engine_counts(
    frame: EngineFrame, read: ReadSpec, *, min_raters: int = 2, own: bool = True
) -> Counts:
    """Count the cells in the engine (one query), then read them as ``Counts``.

    An engine that runs in this process (DuckDB) is not asked to count: its Arrow batches
    are counted here (``kappaframe._frames.arrow_batches``, which says why), each rater
    with themself only if ``own``.

    The columns and options are checked first on an empty frame of the input's schema
    (a ``LIMIT 0`` query), with the messages of a pandas input.
    """
    layout, raters = read.layout, read.raters
    empty = eager_adapter(frame.empty())
    first = prepare(empty, None if layout else raters, read, min_raters=0 if layout else min_raters)
    n = len(first.raters)
    tables = None if layout else n * (n - 1) // 2 + (n if own else 0)
    streamed = streamed_reader(frame, tables)
    inferred = layout is None and not as_list(raters, empty.columns()) and read.sets is None
    if inferred and streamed is None:
        frame.refuse_not_ratings(first.raters, "labels")  # the rule, from one aggregate query
    elif streamed is not None and layout is None:
        _check_streamed_labels(frame, first.raters, inferred)
    by, wanted = list(first.by), as_list(raters) if layout is not None else []
    if streamed is not None:
        counted = _streamed_counts(streamed, read, first, wanted, min_raters, own)
    else:
        _log.info(
            "pushing the count down to %s%s",
            engine_name(frame),
            f" ({tables} table(s) to count: one query costs less than streaming the rows here)"
            if streamed_reader(frame) is not None
            else "",
        )
        if layout is not None:
            cells = frame.long_cells(by, layout, wanted, str(read.duplicates))
            order = wanted or None
        else:
            cells = frame.wide_cells(first.raters, by, own=own)
            order = list(first.raters)
            if read.categories is not None:
                _check_cell_labels(cells, order, read.categories)
        counted = Counts.from_frame(cells, by=by, raters=order, categories=read.categories)
        # The cells' labels are text columns of a query: the order is what the input declared.
        counted.ordered, counted.label_columns = first.ordered, list(first.label_columns)
    if layout is not None:
        rater = layout.rater
        err = missing_columns(wanted, counted.raters, f"rater id in column {rater!r}")
        if err is not None:
            raise err
        if len(counted.raters) < min_raters:
            raise too_few_raters(min_raters, counted.raters, rater)
    return counted


def _check_cell_labels(cells: Any, raters: list[Hashable], categories: Sequence[Any]) -> None:
    """Refuse a label not in ``categories=`` naming the rater's column, as pandas does.

    (``Counts.from_frame`` would name the cells' own ``label_a`` column.)
    """
    shared_categories(cell_labels(cells, raters), categories)


def _check_streamed_labels(frame: EngineFrame, raters: list[Hashable], inferred: bool) -> None:
    """Refuse the rater columns the pushed-down count refuses, first as it does.

    Nested values and types that cannot be compared, from the schema; when raters were
    taken by default, the rule for columns that are not ratings speaks first (as it did
    before the cells query), from its aggregate query, only if there is an error to raise.
    """
    try:
        frame.check_labels(raters)
    except KappaFrameError:
        if inferred:
            frame.refuse_not_ratings(raters, "labels")
        raise


def _streamed_counts(
    reader: ArrowBatches,
    read: ReadSpec,
    first: Prepared,
    wanted: list[Hashable],
    min_raters: int,
    own: bool = True,
) -> Counts:
    """Count an in-process engine's Arrow batches here, as a reader of parts.

    The columns taken as raters by default are checked by the rule for columns that are
    not ratings over every batch, as a file's are (the pushed-down count asks the engine
    for the same facts); a long layout's duplicates are refused by the engine's query, so
    that the message is the pushed-down count's.
    """
    layout, reader.keys = read.layout, {str(b) for b in first.by}
    if layout is not None:
        reader.engine.refuse_duplicates(list(first.by), layout, wanted, str(read.duplicates))
        _log.info(
            "counting the %s relation here: its item, rater and label columns read at once "
            "as Arrow (the long layout counts every rating of an item together)",
            reader.name,
        )
    else:
        _log.info(
            "counting the %s relation by streaming its Arrow batches (%d rows per batch)",
            reader.name,
            reader.batch_size,
        )
    # ``first`` is the engine's empty frame prepared as the plan would prepare it again.
    counted_min = 0 if layout is not None else min_raters
    return count_parts(reader, read, min_raters=counted_min, own=own, first=first)


class _Plan:
    """What every part needs: the columns to read, the raters, the reading (categories set).

    ``raters``: the raters to read (``read.raters``, or those beside an item key column);
    ``inferred``: they were not named by the caller.
    """

    def __init__(
        self,
        reader: PartReader,
        read: ReadSpec,
        raters: Any,
        min_raters: int,
        inferred: bool = False,
        first: Prepared | None = None,
    ) -> None:
        self.reader = reader
        self.long = read.layout is not None
        names = reader.columns()
        by = as_list(read.by, names)
        # Column checks on an empty frame of the same schema: the same messages as pandas
        # (``first``: done already by the caller, on the same empty frame and options).
        if first is None:
            first = prepare(
                reader.wrap()(reader.empty()),
                None if self.long else raters,
                read,
                min_raters=0 if self.long else min_raters,
                inferred=inferred,
            )
        self.first = first
        self.wanted = as_list(raters) if self.long else []
        self.raters: list[Hashable] = list(first.raters)
        self.rater = read.rater
        item, rater, label = read.item, read.rater, read.label
        if self.long:
            self.needed = [*by, item, rater, label]
            self.labels = [label]
            self.compact = [item, rater, label]
        else:
            self.needed = [*by, *first.raters]
            self.labels = list(first.raters)
            self.compact = []
        self.together = item if self.long else None
        self.read = read
        self.inferred: bool | str | NotRatings = inferred
        # Columns taken as raters by default are checked over the whole input: the parts
        # read here, one after the other, add to one rule; parts read elsewhere (Dask)
        # are checked together in ``discover`` (else each alone).
        self.ids: NotRatings | None = None
        if not self.long and (raters is None or inferred):
            self.ids = None if reader.distributed else NotRatings("labels")
            self.inferred = "part" if self.ids is None else self.ids
        self.min_raters = min_raters
        self.declared = read.categories is not None

    def discover(self) -> None:
        """One pass over the label columns: the categories (and the long layout's rater ids)."""
        columns = [*self.labels, *([self.rater] if self.long else [])]
        found = each_part(
            self.reader,
            columns,
            _distinct_part,
            self.labels,
            self.rater,
            bool(self.inferred),
            self.read.sets,
        )
        inferred, self.inferred = self.inferred, False  # every column checked in this pass
        if inferred and self.read.sets is None:
            rule = NotRatings("labels")
            for f in found:
                for c in self.labels:
                    rule.labels(c, f[c][0], f["__labelled__"][c], f[c][1])
            rule.refuse()
            self.ids = None
        if self.read.categories is None:
            self.read = self.read.replace(
                categories=merge_categories(found, self.labels, self.read.sets)
            )
            # The parts are then prepared with categories=: say what the data declared.
            self.declared = any(f[c][1] is not None for f in found for c in self.labels)
        if self.long:
            ids = list(dict.fromkeys(x for f in found for x in f["__raters__"]))
            err = missing_columns(self.wanted, ids, f"rater id in column {self.rater!r}")
            if err is not None:
                raise err
            self.raters = self.wanted or _sorted(ids)

    def args(self) -> tuple[Any, ...]:
        """The arguments of the functions run on each part, after the part and ``wrap``."""
        reader = self.reader
        return (
            reader.output,
            self.raters,
            self.wanted,
            self.long,
            self.read,
            self.inferred,
        )

    def check_raters(self, found: list[Hashable]) -> None:
        if self.ids is not None:  # every part read: the columns over the whole input
            self.ids.refuse()
        if self.long and len(found) < self.min_raters:
            raise too_few_raters(self.min_raters, found, self.rater)


def count_parts(
    reader: PartReader,
    read: ReadSpec,
    *,
    min_raters: int = 2,
    own: bool = True,
    first: Prepared | None = None,
) -> Counts:
    """Count every part and add the counts up: the pair counts of the whole input.

    ``own=False``: without each rater with themself (a caller of pairs of two raters
    only; each part then counts R (R - 1) / 2 tables, not R (R + 1) / 2).

    A distributed reader (Dask) first finds the categories (and, in the long layout, the
    rater ids) in a pass of its own, unless ``categories=`` is given in the wide layout;
    a sequential one (files, LazyFrames) counts at once and passes over the labels only
    when the parts' many-category counts cannot be added over different categories.
    """
    plan = _Plan(reader, read, read.raters, min_raters, first=first)
    if reader.distributed and (plan.read.categories is None or plan.long):
        plan.discover()
    elif plan.long:  # the ids are known once the whole columns are read
        plan.raters = []

    def total() -> Counts:
        summed = each_part(
            reader,
            plan.needed,
            partial(_count_part, own=own),
            *plan.args(),
            add=combine,
            together=plan.together,
            compact=plan.compact,
        )
        if summed is not None:
            return summed
        return count_prepared(plan.first, output_of(reader), own=own)

    try:
        counted = total()
    except CategoriesDiffer:
        if plan.read.categories is not None:
            raise
        plan.discover()
        counted = total()
    if plan.read.categories is not None:  # the parts were given the categories
        counted.ordered = plan.declared
    plan.check_raters(counted.raters)
    return counted


def delayed_counts(reader: Any, read: ReadSpec, *, min_raters: int = 2) -> Any:
    """The ``Counts`` of a Dask reader as a delayed sum: a graph, nothing run.

    Only in the wide layout with ``categories`` given, where no pass over the data comes
    first (``count_parts`` otherwise).
    """
    plan = _Plan(reader, read, read.raters, min_raters)
    return reader.reduce_delayed(plan.needed, _count_part, combine, reader.wrap(), *plan.args())


def item_parts(reader: PartReader, read: ReadSpec, *, min_raters: int = 2) -> list[ItemCodes]:
    """The label codes of every item, one entry per part (raters and categories aligned later)."""
    plan = _Plan(reader, read, read.raters, min_raters)
    if reader.distributed:
        plan.discover()
    elif plan.long:
        plan.raters = []
    parts = each_part(
        reader, plan.needed, _item_part, *plan.args(), together=plan.together, compact=plan.compact
    )
    if not parts:
        parts = [ItemCodes.of(plan.first)]
    if reader.distributed:
        for part in parts:
            part.ordered = plan.declared
    plan.check_raters(list(dict.fromkeys(r for p in parts for r in p.raters)))
    return parts


def unit_parts(
    reader: PartReader, read: ReadSpec, *, min_raters: int = 2, key: Hashable | None = None
) -> UnitRatings:
    """Every part's ratings and item keys, stacked (``stack_units``).

    The wide layout's items are named by the column ``key``, else by Dask's index labels
    or a file's row numbers (the parts come in file order).
    """
    raters, inferred = read.raters, False
    if key is not None:
        names = reader.columns()
        by = as_list(read.by, names)
        check_columns(by, names, "by column")
        raters, inferred = key_raters(names, raters, by, key, False)
    plan = _Plan(reader, read, raters, min_raters, inferred)
    if reader.distributed:
        plan.discover()
    elif plan.long:
        plan.raters = []
    row_key: RowKey = "index" if reader.output == "dask" else "position"
    args = (*plan.args(), row_key, key)
    needed = [*plan.needed, *([key] if key is not None else [])]
    parts = each_part(
        reader, needed, _unit_part, *args, together=plan.together, compact=plan.compact
    )
    if not parts:
        parts = [_unit_part(reader.empty(), reader.wrap(), *args)]
    if reader.distributed:
        for part in parts:
            part.ordered = plan.declared
    plan.check_raters(list(dict.fromkeys(r for p in parts for r in p.raters)))
    return stack_units(parts, plan.raters if plan.long else ())


# Functions run on each part (on a Dask worker, for Dask): module level, so they pickle.
def _distinct_part(
    part: Any,
    wrap: Any,
    columns: list[Hashable],
    rater: Hashable,
    inferred: bool = False,
    sets: Any = None,
) -> dict[Any, Any]:
    return distinct_labels(wrap(part), columns, rater, inferred, sets)


def _part_raters(
    part: Any,
    wrap: Any,
    raters: list[Hashable],
    wanted: list[Hashable],
    long: bool,
    read: ReadSpec,
) -> tuple[Any, Any]:
    """One part and the raters to prepare it over (long layout: the ids, when known)."""
    if not long:
        return part, raters
    if not raters:  # one part holds every rating: select the ids asked for, if any
        return part, wanted or None
    present = set(wrap(part).labels(read.rater).uniques)
    here = [r for r in raters if r in present]
    if wanted and not here:  # none of the ids asked for rated in this part
        return part.head(0), None
    return part, here if wanted else None


def _prepared_part(
    part: Any,
    wrap: Any,
    raters: list[Hashable],
    wanted: list[Hashable],
    long: bool,
    read: ReadSpec,
    inferred: bool | str | NotRatings = False,
) -> Prepared:
    """Prepare one part over ``raters`` (long layout: the ids, when known beforehand)."""
    part, chosen = _part_raters(part, wrap, raters, wanted, long, read)
    return prepare(wrap(part), chosen, read, min_raters=0, inferred=inferred)


def _unit_part(
    part: Any,
    wrap: Any,
    output: ResultKind,
    raters: list[Hashable],
    wanted: list[Hashable],
    long: bool,
    read: ReadSpec,
    inferred: bool | str | NotRatings,
    row_key: RowKey,
    key: Hashable | None,
) -> UnitRatings:
    part, chosen = _part_raters(part, wrap, raters, wanted, long, read)
    units = unit_ratings(
        wrap(part), chosen, read, min_raters=0, inferred=inferred, row_key=row_key, key=key
    )
    units.output = output
    return units


def _count_part(
    part: Any,
    wrap: Any,
    output: ResultKind,
    raters: list[Hashable],
    wanted: list[Hashable],
    long: bool,
    read: ReadSpec,
    inferred: bool | str | NotRatings = False,
    *,
    own: bool = True,
) -> Counts:
    prep = _prepared_part(part, wrap, raters, wanted, long, read, inferred)
    counts = count_prepared(prep, output=output, own=own)
    if not raters or counts.raters == raters:
        return counts
    # Every part over the same raters, so that the sum only aligns groups.
    return counts.with_raters(raters)


def _item_part(
    part: Any,
    wrap: Any,
    output: ResultKind,
    raters: list[Hashable],
    wanted: list[Hashable],
    long: bool,
    read: ReadSpec,
    inferred: bool | str | NotRatings = False,
) -> ItemCodes:
    return ItemCodes.of(_prepared_part(part, wrap, raters, wanted, long, read, inferred))


def _sorted(ids: list[Any]) -> list[Any]:
    try:
        return sorted(ids)
    except TypeError:
        return ids


class Counted:
    """Pair counts already summed, passed to a function in place of its data.

    ``prepare_input`` reads them as they are: they were counted with the options of the
    same call (see ``kappaframe._api.lazy``).
    """

    def __init__(self, counts: Counts) -> None:
        self.counts = copy.copy(counts)
        self.counts.output = "pandas"  # the finishing task gives a pandas part
