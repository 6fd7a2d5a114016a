"""Every rating of every item, with the item's key: what per-item statistics read.

A unit is an item within its group. ``unit_ratings`` reads one eager frame into
``UnitRatings``: the label codes of each unit (the wide layout's code matrix, or the long
layout's ratings as (unit, rater, label) codes, which stay sparse for a crowd), and a frame
of the caller's library with one row per unit holding its group keys and its item key, read
back with their native types. ``stack_units`` puts the parts of an input read in parts back
together (``kappaframe._api.plan.unit_parts``); ``sorted_units`` gives the units' order:
groups sorted, then the long layout's items sorted by key, the wide layout's rows in order.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from .._count.kernel import code_dtype
from .._count.tables import merge_order
from .._encode.codes import encode_groups, is_index_column
from .._errors import KappaFrameError
from .._frames.native import concat, eager_adapter, take, take_with_index
from .._schema import ITEM_KEY
from .._stats.consensus import ItemCounts, sparse_item_counts
from .options import as_list, check_columns
from .prepare import Frame, prepare, read_long
from .settings.reading import ReadSpec

__all__ = [
    "RowKey",
    "UnitRatings",
    "key_raters",
    "sorted_units",
    "stack_units",
    "unit_ratings",
    "units_by_key",
]

#: How the wide layout names its items: by the frame's index (pandas, Dask) or by the row's
#: position (polars, files).
RowKey = Literal["index", "position"]

#: Up to this many categories, per-unit counts come from one comparison per category.
_FEW_CATEGORIES = 32


@dataclass
class UnitRatings:
    """Every rating of every unit, by codes; the units' keys as a native frame.

    Either ``codes`` (``(n_raters, n_units)``, -1 missing: the wide layout) or the observed
    ratings ``unit``, ``rater``, ``label`` (equal-length code arrays: the long layout).
    ``keys`` has one row per unit: the ``by`` columns, then ``item_column`` (the item key)
    unless the items are named by ``positions`` (the row of each unit in the input).
    """

    raters: list[Hashable]
    categories: list[Any]
    n_units: int
    keys: Any
    by: list[Hashable]
    output: str
    item_column: Hashable | None = None
    positions: np.ndarray | None = None
    codes: np.ndarray | None = None
    unit: np.ndarray | None = None
    rater: np.ndarray | None = None
    label: np.ndarray | None = None
    ordered: bool = False
    label_columns: Sequence[Hashable] = ()

    def ratings(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The observed ratings as ``(unit, rater, label)`` intp codes."""
        if self.codes is None:
            assert self.unit is not None and self.rater is not None and self.label is not None
            return (
                self.unit.astype(np.intp, copy=False),
                self.rater.astype(np.intp, copy=False),
                self.label.astype(np.intp, copy=False),
            )
        rater, unit = np.nonzero(self.codes >= 0)
        label = self.codes[rater, unit].astype(np.intp)
        order = np.argsort(unit, kind="stable")  # by unit, then rater
        return unit[order], rater[order], label[order]

    def counts(self, leave_out: int | None = None) -> np.ndarray:
        """``(n_units, K)`` int64: ratings per unit and category, without rater ``leave_out``."""
        k = len(self.categories)
        if self.codes is not None:
            codes = self.codes
            if leave_out is not None:
                codes = np.delete(codes, leave_out, axis=0)
            return _dense_counts(codes, k)
        unit, rater, label = self.ratings()
        if leave_out is not None:
            keep = rater != leave_out
            unit, label = unit[keep], label[keep]
        flat = np.bincount(unit * k + label, minlength=self.n_units * k)
        return flat.reshape(self.n_units, k).astype(np.int64, copy=False)

    def item_counts(self, order: np.ndarray, leave_out: int | None = None) -> ItemCounts:
        """``counts()[order]`` by the (unit, category) pairs that occur (``ItemCounts``).

        Units are numbered by their place in ``order``; memory grows with the ratings.
        """
        if self.codes is not None:
            rater, unit = np.nonzero(self.codes >= 0)
            label = self.codes[rater, unit].astype(np.intp)
        else:
            unit, rater, label = self.ratings()
        if leave_out is not None:
            keep = rater != leave_out
            unit, label = unit[keep], label[keep]
        position = np.empty(self.n_units, dtype=np.intp)
        position[order] = np.arange(self.n_units, dtype=np.intp)
        return sparse_item_counts(position[unit], label, self.n_units, len(self.categories))

    def rater_labels(self, rater: int) -> np.ndarray:
        """Rater ``rater``'s label code of each unit (-1: none)."""
        if self.codes is not None:
            return self.codes[rater].astype(np.intp)
        out = np.full(self.n_units, -1, dtype=np.intp)
        unit, raters, label = self.ratings()
        mine = raters == rater
        out[unit[mine]] = label[mine]
        return out

    def label_matrix(self, rows: np.ndarray, raters: np.ndarray) -> np.ndarray:
        """``(len(raters), len(rows))``: each rater's label code of each unit in ``rows``."""
        dtype = code_dtype(len(self.categories))
        if self.codes is not None:
            return self.codes[np.ix_(raters, rows)].astype(dtype, copy=False)
        out = np.full((len(raters), len(rows)), -1, dtype=dtype)
        where = np.full(self.n_units, -1, dtype=np.intp)
        where[rows] = np.arange(len(rows))
        which = np.full(len(self.raters), -1, dtype=np.intp)
        which[raters] = np.arange(len(raters))
        unit, rater, label = self.ratings()
        keep = (where[unit] >= 0) & (which[rater] >= 0)
        out[which[rater[keep]], where[unit[keep]]] = label[keep]
        return out


def _dense_counts(codes: np.ndarray, k: int) -> np.ndarray:
    n_units = codes.shape[1]
    if k <= _FEW_CATEGORIES:  # row by row: adding booleans along a row is cheap
        out = np.zeros((k, n_units), dtype=np.int32)
        for j in range(k):
            for row in codes:
                out[j] += row == j
        return np.ascontiguousarray(out.T, dtype=np.int64)
    flat = np.zeros(n_units * k, dtype=np.int64)
    base = np.arange(n_units, dtype=np.int64) * k
    for row in codes:
        seen = row >= 0
        flat += np.bincount(base[seen] + row[seen], minlength=n_units * k)
    return flat.reshape(n_units, k)


def unit_ratings(
    frame: Frame,
    raters: Any,
    read: ReadSpec,
    *,
    min_raters: int = 2,
    inferred: Any = False,
    row_key: RowKey = "index",
    key: Hashable | None = None,
) -> UnitRatings:
    """Read one eager frame's ratings and item keys (``read`` was checked when made).

    ``raters``: the raters of this frame (``read.raters``, or those of a part). In the
    wide layout the item key is the column ``key``, if given (no rater then);
    else the frame's index (``row_key="index"``, a pandas frame) or the row's position
    (``"position"``).
    """
    names = frame.columns()
    by_list = as_list(read.by, names)
    check_columns(by_list, names, "by column")
    if key is not None:
        raters, inferred = key_raters(names, raters, by_list, key, inferred)
    if read.layout is not None:
        item, label = read.layout.item, read.layout.label
        long = read_long(frame, names, raters, by_list, read, min_raters)
        kept = long.ratings.order
        seen = kept[long.labels[kept] >= 0]
        n_units = long.ratings.n_units
        unit_of_row = long.ratings.unit
        first = np.zeros(n_units, dtype=np.intp)
        first[unit_of_row[::-1]] = np.arange(len(unit_of_row) - 1, -1, -1, dtype=np.intp)
        if long.rows is not None:
            first = long.rows[first]
        native = frame.frame  # type: ignore[attr-defined]  # loaded by read_long
        return UnitRatings(
            raters=list(long.raters.uniques),
            categories=long.categories,
            n_units=n_units,
            keys=take(native, [*by_list, item], first),
            by=by_list,
            output=frame.output,
            item_column=item,
            unit=unit_of_row[seen].astype(np.intp),
            rater=long.raters.codes[seen].astype(np.intp),
            label=long.labels[seen],
            ordered=long.ordered,
            label_columns=[label],
        )
    prep = prepare(frame, raters, read, min_raters=min_raters, inferred=inferred)
    n_units = prep.codes.shape[1]
    rows = np.arange(n_units, dtype=np.intp)
    native = frame.frame  # type: ignore[attr-defined]  # loaded by prepare
    wide = UnitRatings(
        raters=list(prep.raters),
        categories=prep.categories,
        n_units=n_units,
        keys=take(native, by_list, rows),
        by=by_list,
        output=frame.output,
        codes=prep.codes,
        ordered=prep.ordered,
        label_columns=list(prep.label_columns),
    )
    if key is not None:
        frame.load([*by_list, key])  # a LazyFrame's key column, read now
        wide.keys = take(frame.frame, [*by_list, key], rows)  # type: ignore[attr-defined]
        wide.item_column = key
    elif row_key == "index":
        wide.keys = take_with_index(native, by_list, rows, ITEM_KEY)
        wide.item_column = ITEM_KEY
    else:
        wide.positions = rows.astype(np.int64)
    return wide


def key_raters(
    names: Sequence[Hashable], raters: Any, by: list[Hashable], key: Hashable, inferred: bool
) -> tuple[list[Hashable], bool]:
    """The wide layout's raters beside an item key column, and whether they were inferred.

    The key column is checked, and is no rater: by default the raters are every column
    but ``by`` and ``key`` (checked as columns the caller did not name).
    """
    check_columns([key], names, "item column")
    if key in set(by):
        raise KappaFrameError(f"by column {key!r} is also the item column.", option="item")
    listed = as_list(raters, names)
    if key in set(listed):
        raise KappaFrameError(
            f"column {key!r} is both a rater and the item column; an item's name is not a label.",
            option="item",
        )
    if listed:
        return listed, inferred
    taken = [c for c in names if c not in set(by) and c != key and not is_index_column(c)]
    return taken, True


def stack_units(parts: Sequence[UnitRatings], raters: Sequence[Hashable] = ()) -> UnitRatings:
    """One input's units from its parts': raters and categories aligned, units in part order.

    ``raters``: the raters in order when known beforehand (else merged from the parts').
    """
    parts = list(parts)
    first = parts[0]
    if len(parts) == 1 and (not raters or list(raters) == first.raters):
        return first
    known = set(raters)
    if raters and all(set(p.raters) <= known for p in parts):
        raters = list(raters)
    else:
        raters = merge_order([p.raters for p in parts], "rater")
    categories = merge_order([p.categories for p in parts], "category")
    rater_pos = {x: i for i, x in enumerate(raters)}
    cat_pos = {x: i for i, x in enumerate(categories)}
    offsets = np.cumsum([0] + [p.n_units for p in parts])
    dtype = code_dtype(len(categories))

    def labels_of(part: UnitRatings, codes: np.ndarray) -> np.ndarray:
        lookup = np.array([cat_pos[c] for c in part.categories] + [-1], dtype=dtype)
        return lookup[codes]

    keys = concat([p.keys for p in parts])
    positions = None
    if first.positions is not None:
        positions = np.concatenate(
            [p.positions + off for p, off in zip(parts, offsets, strict=False)]
        )
    stacked = replace(
        first,
        raters=raters,
        categories=categories,
        n_units=int(offsets[-1]),
        keys=keys,
        positions=positions,
        ordered=all(p.ordered for p in parts),
    )
    if first.codes is not None:
        codes = np.full((len(raters), stacked.n_units), -1, dtype=dtype)
        for part, start in zip(parts, offsets, strict=False):
            assert part.codes is not None
            rows = np.array([rater_pos[r] for r in part.raters], dtype=np.intp)
            codes[rows, start : start + part.n_units] = labels_of(part, part.codes)
        stacked.codes = codes
        return stacked
    units, who, what = [], [], []
    for part, start in zip(parts, offsets, strict=False):
        unit, rater, label = part.ratings()
        ids = np.array([rater_pos[r] for r in part.raters], dtype=np.intp)
        units.append(unit + start)
        who.append(ids[rater])
        what.append(labels_of(part, label))
    stacked.unit = np.concatenate(units)
    stacked.rater = np.concatenate(who)
    stacked.label = np.concatenate(what)
    return stacked


def sorted_units(units: UnitRatings) -> tuple[np.ndarray, np.ndarray, int]:
    """The units' output order, each unit's group code, and the number of groups.

    Groups are sorted by key (a missing key last), as in every output; within a group the
    long layout's items are sorted by key, the wide layout's rows kept in their order.
    """
    n = units.n_units
    long = units.codes is None
    keyed = [*units.by, *([units.item_column] if long else [])]
    adapter: Any = eager_adapter(units.keys) if keyed else None
    if adapter is not None:
        adapter.load(keyed)
    groups = encode_groups([adapter.keys(b) for b in units.by], n)
    group = np.zeros(n, dtype=np.intp) if groups.codes is None else groups.codes
    within = np.arange(n, dtype=np.intp)
    if long:
        try:
            within = adapter.keys(units.item_column)[0]
        except KappaFrameError:
            raise KappaFrameError(
                f"item column {units.item_column!r} holds ids that cannot be sorted (values "
                "of several types); convert them to one type first, e.g. .astype(str)."
            ) from None
    return np.lexsort((within, group)), group, groups.n_groups


def units_by_key(units: UnitRatings, order: np.ndarray, group: np.ndarray) -> np.ndarray | None:
    """The output rows (the units in ``order``, of groups ``group``) sorted by item key.

    The order a draw over the items is made in, whatever the order of the input rows:
    groups by key, then items by key. ``None`` where the output order is that order
    already (the long layout's items, or wide rows named by their position).
    """
    if units.codes is None or units.item_column is None:
        return None
    adapter: Any = eager_adapter(units.keys)
    adapter.load([units.item_column])
    try:
        within = adapter.keys(units.item_column)[0]
    except KappaFrameError:  # keys of several types: the rows' order
        return None
    return np.lexsort((np.asarray(within)[order], group))
