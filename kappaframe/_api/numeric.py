"""Numeric ratings in: the items x raters scores of any input, per group.

The statistics of scores (``kappaframe.icc``, ``kappaframe.kendall_w``) take the values
themselves, not label codes: every rater's scores become a float64 column over the items
(NaN where the rater gave none), with the items' group codes. Wide layout (one column
per rater, one row per item) or long layout (``item``, ``rater``, ``value``); any input:

- an eager frame (pandas, polars) is read once (``scores``);
- a reader of parts (LazyFrame batches, Dask partitions, files) is read part by part and
  each part reduced by the caller's function: to additive sums (``reduce_parts``) or to
  its scores, stacked (``gather_parts``); the long layout keeps every rating of an item
  in one part;
- an engine (DuckDB, PySpark) computes the sums itself (``kappaframe._frames.engines``).

Nothing here computes a statistic.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from .._encode.codes import Factorized, Groups, encode_groups, sort_ratings
from .._errors import KappaFrameError, arg, bad_option, missing_columns, too_few_raters
from .._frames.engines import EngineFrame
from .._frames.native import take
from .._frames.numeric import column_numbers
from .._frames.parts import PartReader
from .assemble import key_columns
from .options import DUPLICATES, as_list, check_columns
from .plan import adapt
from .prepare import Frame, KeysFrame, merge_keys, wide_raters

__all__ = [
    "NumericLayout",
    "Part",
    "Scores",
    "gather_parts",
    "infinite_in_engine",
    "key_rows",
    "long_columns",
    "numeric_input",
    "numeric_layout",
    "reduce_parts",
    "refuse_engine",
    "refuse_row_numbers",
    "renderer",
    "scores",
]


@dataclass(frozen=True)
class NumericLayout:
    """How to read the scores: the raters, ``by``, and the long layout's columns."""

    raters: Any
    by: Any
    item: Hashable | None = None
    rater: Hashable | None = None
    value: Hashable | None = None
    duplicates: str = "raise"

    @property
    def long(self) -> bool:
        return self.item is not None

    def needed(self, names: Sequence[Hashable]) -> list[Hashable]:
        """The columns to read."""
        by = as_list(self.by, names)
        if self.long:
            return [*by, self.item, self.rater, self.value]
        return [*by, *wide_raters(names, self.raters, by)]


def numeric_layout(
    raters: Any,
    *,
    by: Any = None,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    value: Hashable | None = None,
    label: Hashable | None = None,
    duplicates: Any = "raise",
) -> NumericLayout:
    """Check how the ratings are to be read, before reading any.

    ``label`` is another name of ``value`` (the kappa functions' word for the long
    layout's rating column); both at once is refused.
    """
    if label is not None and value is not None:
        raise KappaFrameError(
            f"{arg('value')} and {arg('label')} name the same column (the ratings of the "
            f"long layout); pass one of them: value={value!r} or label={label!r}.",
            option="value",
        )
    said = "label" if label is not None else "value"  # the name the caller used
    value = label if value is None else value
    if isinstance(raters, (list, tuple)) and len(raters) == 0:
        raise KappaFrameError(
            "raters=[] names no rater; pass raters=None for every column not in by "
            "(wide layout) or every rater id (long layout), or list at least two.",
            option="raters",
        )
    if duplicates not in DUPLICATES:
        raise bad_option("duplicates", duplicates, DUPLICATES)
    roles = {"item": item, "rater": rater, said: value}
    if all(v is None for v in roles.values()):
        return NumericLayout(raters, by, duplicates=str(duplicates))
    lacking = [k for k, v in roles.items() if v is None]
    if lacking:
        raise KappaFrameError(
            f"the long layout needs {arg('item')}, {arg('rater')} and {arg(said)}; "
            f"{', '.join(arg(k) for k in lacking)} missing. For one column per rater (wide "
            "layout) pass none of them.",
            option=next(k for k, v in roles.items() if v is not None),
        )
    if len({item, rater, value}) < 3:
        raise KappaFrameError(
            f"{arg('item')}, {arg('rater')} and {arg(said)} must be three different "
            f"columns; got {roles}.",
            option="item",
        )
    return NumericLayout(raters, by, item, rater, value, str(duplicates))


@dataclass
class Scores:
    """Items x raters scores: ``columns[j]`` holds rater ``j``'s score of every item.

    ``group`` is each item's group (``None``: one group); ``groups.first_row`` says where
    each group's keys are read from ``frame`` (an adapter, or the stacked ``keys``).
    """

    frame: Any
    raters: list[Hashable]
    columns: list[np.ndarray]
    groups: Groups
    by: list[Hashable]
    #: The long layout's score column (``None``: the wide layout, one column per rater).
    value: Hashable | None = None

    @property
    def group(self) -> np.ndarray | None:
        return self.groups.codes

    @property
    def n_groups(self) -> int:
        return self.groups.n_groups

    def keys(self) -> Any:
        """The group keys, one row per group (``None`` without ``by``)."""
        if not self.by:
            return None
        native = self.frame.frame if hasattr(self.frame, "frame") else self.frame.keys
        return take(native, self.by, self.groups.first_row[: self.groups.n_groups])


def scores(
    frame: Frame,
    layout: NumericLayout,
    raters: Sequence[Hashable] | None = None,
    min_raters: int = 2,
) -> Scores:
    """Read the scores of one eager frame, wide or long layout.

    ``raters``: the long layout's ids, if known (a part of an input whose ids were read
    first). ``min_raters=0`` reads a part of a bigger input: its long layout keeps the ids
    asked for that occur in it (the others are looked for in the whole input) and may
    hold fewer than two raters.
    """
    names = frame.columns()
    by = as_list(layout.by, names)
    check_columns(by, names, "by column")
    if layout.long:
        return _long_scores(frame, names, by, layout, raters, min_raters)
    rater_list = wide_raters(names, layout.raters, by, min_raters)
    frame.load([*by, *rater_list])
    columns = [column_numbers(frame, r) for r in rater_list]
    if not as_list(layout.raters):
        for name, values in zip(rater_list, columns, strict=True):
            refuse_row_numbers(name, values)
    groups = encode_groups([frame.keys(b) for b in by], frame.n_rows)
    return Scores(frame, rater_list, columns, groups, by)


#: A column taken as a rater by default is refused when it counts its rows from 0 or 1 in
#: row order (on at least this many rows): an item id or a row number, not scores.
ROW_NUMBERS_FROM = 20


def refuse_row_numbers(name: Hashable, values: np.ndarray) -> None:
    n = len(values)
    if n < ROW_NUMBERS_FROM or values[0] not in (0.0, 1.0) or values[1] != values[0] + 1:
        return
    if np.array_equal(values, np.arange(n, dtype=float) + values[0]):
        raise KappaFrameError(
            f"column {name!r} numbers the rows ({values[0]:g}, {values[1]:g}, ... "
            f"{values[-1]:g}): an item id, not a rater's scores. Name the rater columns with "
            f"{arg('raters', ...)}, or drop the id column first.",
            option="raters",
        )


def _long_scores(
    frame: Frame,
    names: list[Hashable],
    by: list[Hashable],
    layout: NumericLayout,
    known: Sequence[Hashable] | None,
    min_raters: int = 2,
) -> Scores:
    item, rater, value = layout.item, layout.rater, layout.value
    long_columns(names, by, layout)
    frame.load([*by, item, rater, value])
    items = frame.labels(item)
    ids = frame.labels(rater)
    values = column_numbers(frame, value, "value")
    row_groups = encode_groups([frame.keys(b) for b in by], frame.n_rows)
    wanted = as_list(layout.raters)
    if wanted and min_raters and known is None:
        err = missing_columns(wanted, ids.uniques, f"rater id in column {rater!r}")
        if err is not None:
            raise err
    if wanted and not min_raters:  # a part: the ids asked for that occur in it
        wanted = [r for r in wanted if r in set(ids.uniques)]
    rater_list = list(known) if known is not None else (wanted or _sorted(ids.uniques))
    position = {r: i for i, r in enumerate(rater_list)}
    lookup = np.array([position.get(u, -1) for u in ids.uniques] + [-1], dtype=np.intp)
    codes = lookup[ids.codes]
    missing_id = ids.codes < 0
    if missing_id.any():
        raise KappaFrameError(
            f"column {rater!r} is missing on {int(missing_id.sum())} row(s) (first at "
            f"position {int(np.flatnonzero(missing_id)[0])}); every rating needs an item and "
            "a rater. Drop those rows first."
        )
    keep = codes >= 0
    if not keep.all():  # the ratings of other raters than those asked for
        rows = np.flatnonzero(keep)
        items = Factorized(items.codes[rows], items.uniques)
        codes, values = codes[rows], values[rows]
        row_groups = _subset(row_groups, rows)
    fact = Factorized(codes, rater_list)
    ratings = sort_ratings(items, fact, row_groups, layout.duplicates, item, rater)
    if known is None and len(rater_list) < min_raters:
        raise too_few_raters(min_raters, rater_list, rater)
    kept = ratings.order
    n_units = ratings.n_units
    matrix = np.full((len(rater_list), n_units), np.nan)
    matrix[codes[kept], ratings.unit[kept]] = values[kept]
    unit_groups = ratings.unit_groups
    groups = Groups(unit_groups.codes if by else None, row_groups.n_groups, row_groups.first_row)
    return Scores(frame, rater_list, list(matrix), groups, by, value)


def long_columns(names: Sequence[Hashable], by: list[Hashable], layout: NumericLayout) -> None:
    roles = {"item": layout.item, "rater": layout.rater, "value": layout.value}
    for role, col in roles.items():
        check_columns([col], names, f"{role} column")
    for col in by:
        if col in roles.values():
            raise KappaFrameError(f"by column {col!r} is also the item, rater or value column.")


def _subset(groups: Groups, rows: np.ndarray) -> Groups:
    """The groups of ``rows`` only (the first rows still index the whole frame)."""
    if groups.codes is None:
        return groups
    codes = groups.codes[rows]
    present = np.bincount(codes, minlength=groups.n_groups) > 0
    lookup = np.cumsum(present) - 1
    return Groups(lookup[codes], int(present.sum()), groups.first_row[present])


def _sorted(ids: list[Any]) -> list[Any]:
    try:
        return sorted(ids)
    except TypeError:
        return list(ids)


def numeric_input(data: Any) -> Frame | PartReader | EngineFrame:
    """The adapter, reader or engine frame of any supported input."""
    return cast(Any, adapt(data))


# ---- inputs read in parts -------------------------------------------------------------


@dataclass
class Part:
    """What one part reduces to: its group keys (``None`` without ``by``) and a result."""

    by: list[Hashable]
    keys: Any
    n_groups: int
    raters: list[Hashable]
    result: Any


def _part(
    part: Any,
    wrap: Any,
    layout: NumericLayout,
    raters: list[Hashable] | None,
    reduce: Callable[[Scores], Any],
) -> Part:
    s = scores(wrap(part), layout, raters)
    return Part(s.by, s.keys(), s.n_groups, s.raters, reduce(s))


def _first(reader: PartReader, layout: NumericLayout) -> Scores:
    """The checks of an empty frame of the input's schema: the messages of a pandas input."""
    empty = reader.wrap()(reader.empty())
    if layout.long:  # no ids in an empty frame: only the columns are checked
        names = empty.columns()
        by = as_list(layout.by, names)
        check_columns(by, names, "by column")
        long_columns(names, by, layout)
        return Scores(empty, [], [], Groups(None, 1, np.zeros(1, np.intp)), by)
    return scores(empty, layout)


def _rater_ids(reader: PartReader, layout: NumericLayout) -> list[Hashable] | None:
    """The long layout's rater ids over every part (``None``: one part holds them all)."""
    if not layout.long or not reader.distributed:
        return None
    found = reader.map([layout.rater], _ids_part, reader.wrap(), layout.rater)
    ids = list(dict.fromkeys(x for f in found for x in f))
    wanted = as_list(layout.raters)
    err = missing_columns(wanted, ids, f"rater id in column {layout.rater!r}")
    if err is not None:
        raise err
    chosen = wanted or _sorted(ids)
    if len(chosen) < 2:
        raise too_few_raters(2, chosen, layout.rater)
    return chosen


def _ids_part(part: Any, wrap: Any, rater: Hashable) -> list[Any]:
    frame = wrap(part)
    frame.load([rater])
    return list(frame.labels(rater).uniques)


def reduce_parts(
    reader: PartReader,
    layout: NumericLayout,
    reduce: Callable[[Scores], Any],
    empty: Callable[[int, int], Any],
) -> tuple[Any, Any, list[Hashable], list[Hashable]]:
    """Reduce every part's scores with ``reduce`` and add the results up, group by group.

    ``reduce(scores)`` gives an additive result of the part's groups with a
    ``take(groups, n_groups)`` method (placing it at the merged groups); ``empty(n_groups,
    n_raters)`` the result of no data. Returns the sum, the group keys (sorted, one row
    per group), the raters and the ``by`` columns.
    """
    first = _first(reader, layout)
    names = reader.columns()
    known = _rater_ids(reader, layout)
    together = layout.item if layout.long else None
    compact = [layout.item, layout.rater, layout.value] if layout.long else []
    parts = reader.map(
        layout.needed(names),
        _part,
        reader.wrap(),
        layout,
        known,
        reduce,
        together=together,
        compact=compact,
    )
    parts = [p for p in parts if p.n_groups and (p.keys is None or len(p.keys))]
    raters = known if known is not None else list(first.raters)
    if layout.long and known is None and parts:
        raters = list(parts[0].raters)
    if not parts:
        return empty(1 if not first.by else 0, len(raters)), first.keys(), raters, first.by
    keys, maps = merge_keys(parts)
    n_groups = 1 if not first.by else len(keys)
    total = None
    for part, where in zip(parts, maps, strict=True):
        placed = part.result.take(where[: part.n_groups], n_groups)
        total = placed if total is None else total + placed
    return total, keys, raters, first.by


def gather_parts(reader: PartReader, layout: NumericLayout) -> Scores:
    """Every part's scores, stacked: the scores of the whole input, groups merged."""
    first = _first(reader, layout)
    names = reader.columns()
    known = _rater_ids(reader, layout)
    together = layout.item if layout.long else None
    compact = [layout.item, layout.rater, layout.value] if layout.long else []
    parts = reader.map(
        layout.needed(names),
        _part,
        reader.wrap(),
        layout,
        known,
        _keep,
        together=together,
        compact=compact,
    )
    parts = [p for p in parts if p.result.columns and len(p.result.columns[0])]
    if not parts:
        return Scores(
            KeysFrame(first.keys(), reader.output),
            list(first.raters),
            [np.zeros(0) for _ in first.raters],
            Groups(
                None if not first.by else np.zeros(0, np.intp),
                0 if first.by else 1,
                np.zeros(1, np.intp),
            ),
            first.by,
        )
    keys, maps = merge_keys(parts)
    n_groups = 1 if not first.by else len(keys)
    raters = list(parts[0].result.raters)
    columns = [np.concatenate([p.result.columns[j] for p in parts]) for j in range(len(raters))]
    group = None
    if first.by:
        group = np.concatenate(
            [where[p.result.group] for p, where in zip(parts, maps, strict=True)]
        )
    groups = Groups(group, n_groups, np.arange(n_groups, dtype=np.intp))
    value = parts[0].result.value
    return Scores(KeysFrame(keys, reader.output), raters, columns, groups, first.by, value)


def _keep(s: Scores) -> Scores:
    """A part's scores as they are (without its frame: only numbers travel back)."""
    return Scores(None, s.raters, s.columns, s.groups, s.by, s.value)


def key_rows(s: Scores, group_of_row: np.ndarray, output: tuple[Any, ...], what: str) -> Any:
    """The ``by`` columns of the result rows (see ``kappaframe._api.assemble.key_columns``)."""
    return key_columns(cast(Any, s), group_of_row, output, what)


def renderer(s: Scores, output: str) -> Any:
    """What renders the result: the eager adapter, or the stacked keys."""
    if isinstance(s.frame, KeysFrame):
        return s.frame
    if s.frame is None:
        return KeysFrame(s.keys(), output)
    return s.frame


def refuse_engine(frame: EngineFrame, what: str) -> KappaFrameError:
    """The error for a statistic that ranks the scores, on an engine input."""
    return KappaFrameError(
        f"{what} ranks each rater's scores over the items, which is not a sum the "
        f"{frame.engine} engine can add up; bring the scores into pandas or polars first "
        "(e.g. the relation's .pl() or .toPandas()). icc() computes its sums in the engine."
    )


def infinite_in_engine(layout: NumericLayout, raters: list[Hashable]) -> KappaFrameError:
    """The error for sums an engine returned not finite: an infinite score in its input."""
    where = f"column {layout.value!r} holds" if layout.long else f"the columns {raters} hold"
    return KappaFrameError(
        f"{where} an infinite score: a score must be a finite number. "
        "Replace them (with null to leave them out) first.",
        option="value" if layout.long else "raters",
    )
