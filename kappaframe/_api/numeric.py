"""Numeric ratings in: the one way in for every statistic of scores on a scale.

``icc``, ``kendall_w``, ``ccc``, ``bland_altman`` and the Bland-Altman plot take the
values themselves, not label codes. Here, once for all of them:

- the layout is checked before any data is read (``numeric_layout``: wide, or the long
  layout's ``item``, ``rater``, ``value``/``label``; ``by``; ``duplicates``);
- an eager frame (pandas, polars) is read once (``scores``): every rater's scores become
  a float64 column over the items (NaN where the rater gave none), with the items' group
  codes; a value that is not a number, a boolean, an infinite score, a column that
  numbers the rows are refused alike (``kappaframe._frames.numeric``);
- a reader of parts (LazyFrame batches, Dask partitions, files) is read part by part,
  the long layout keeping every rating of an item in one part;
- an engine (DuckDB, PySpark) computes the sums itself
  (``kappaframe._frames.numeric_engine``).

Each statistic gets what it needs: the intraclass correlation the sums over the items
every rater scored, per group (``icc_part_sums``, ``reduce_parts``,
``engine_icc_sums``); Kendall's W the scores themselves (``gather_parts``); Lin's CCC
and Bland-Altman the sums over each pair's complete cases (``read_pair_sums``), the plot
the ratings (``read_numeric``). Nothing here computes a statistic.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

import numpy as np

from .._encode.codes import Factorized, Groups, encode_groups, sort_ratings
from .._encode.ids import NotRatings, ScoresSeen, check_scores, seen_scores
from .._errors import KappaFrameError, missing_columns, too_few_raters
from .._frames.engines import EngineFrame
from .._frames.native import concat, eager_adapter, take
from .._frames.numeric import column_numbers, refuse_infinite
from .._frames.numeric_engine import (
    SUM_NAMES,
    engine_long_sums,
    engine_means,
    engine_pair_sums,
    long_sums,
    sum_column,
    wide_sums,
)
from .._frames.parts import PartReader
from .._stats.concordance import PairMoments
from .._stats.icc import IccSums, icc_sums
from .assemble import key_columns
from .options import LongLayout, as_list, check_columns
from .plan import adapt, each_part
from .prepare import Frame, KeysFrame, merge_keys, wide_raters
from .settings.reading import ReadSpec

__all__ = [
    "NumericLayout",
    "NumericRatings",
    "PairSums",
    "Part",
    "Scores",
    "chosen_ids",
    "combine_sums",
    "engine_icc_sums",
    "gather_parts",
    "icc_part_sums",
    "infinite_in_engine",
    "key_rows",
    "long_columns",
    "no_icc_sums",
    "numeric_input",
    "numeric_layout",
    "numeric_ratings",
    "read_numeric",
    "read_pair_sums",
    "reduce_parts",
    "refuse_engine",
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

    @property
    def columns(self) -> LongLayout:
        """The long layout's columns (the score column as its ``label``)."""
        return LongLayout(self.item, self.rater, self.value)

    def needed(self, names: Sequence[Hashable]) -> list[Hashable]:
        """The columns to read."""
        by = as_list(self.by, names)
        if self.long:
            return [*by, self.item, self.rater, self.value]
        return [*by, *wide_raters(names, self.raters, by)]


def numeric_layout(read: ReadSpec) -> NumericLayout:
    """How to read the scores, from the call's reading (checked when ``read`` was made).

    The score column is ``read.label``, named by the caller ``value`` or ``label``
    (``kappaframe._api.settings.reading.score_column``).
    """
    if read.layout is None:
        return NumericLayout(read.raters, read.by, duplicates=str(read.duplicates))
    item, rater, value = read.layout.item, read.layout.rater, read.layout.label
    return NumericLayout(read.raters, read.by, item, rater, value, str(read.duplicates))


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
    ids: Any = None,
) -> Scores:
    """Read the scores of one eager frame, wide or long layout.

    ``raters``: the long layout's ids, if known (a part of an input whose ids were read
    first). ``min_raters=0`` reads a part of a bigger input: its long layout keeps the ids
    asked for that occur in it (the others are looked for in the whole input) and may
    hold fewer than two raters. ``ids``: how the wide layout's columns, when taken as
    raters by default, are checked (``kappaframe._encode.ids.check_scores``; by default
    as the whole input).
    """
    names = frame.columns()
    by = as_list(layout.by, names)
    check_columns(by, names, "by column")
    if layout.long:
        return _long_scores(frame, names, by, layout, raters, min_raters)
    rater_list = wide_raters(names, layout.raters, by, min_raters)
    frame.load([*by, *rater_list])
    columns = [column_numbers(frame, r) for r in rater_list]
    check = ids if ids is not None else not as_list(layout.raters)
    check_scores(check, dict(zip(rater_list, columns, strict=True)))
    groups = encode_groups([frame.keys(b) for b in by], frame.n_rows)
    return Scores(frame, rater_list, columns, groups, by)


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


def chosen_ids(
    found: Sequence[Hashable], raters: Any, column: Hashable, min_raters: int = 2
) -> list[Hashable]:
    """The long layout's raters: the ids asked for (each must occur), else every id found.

    Every id found is sorted (in the order found when ids cannot be compared); fewer
    than ``min_raters`` is refused.
    """
    wanted = as_list(raters)
    err = missing_columns(wanted, list(found), f"rater id in column {column!r}")
    if err is not None:
        raise err
    chosen = list(wanted) or _sorted(list(found))
    if len(chosen) < min_raters:
        raise too_few_raters(min_raters, chosen, column)
    return chosen


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
    #: What the rule for columns that are not scores saw of this part (``SEEN``).
    seen: dict[Hashable, ScoresSeen] | None = None


#: How parts read elsewhere (Dask) are checked: each sends back what the rule needs of
#: its columns (``seen_scores``), and the rule reads them in order once all are read.
SEEN = "seen"


def _seen(ids: Any, raters: Sequence[Hashable], columns: Any) -> dict[Hashable, ScoresSeen] | None:
    """What the rule needs of a part's columns, when its parts are gathered so (``SEEN``)."""
    if ids != SEEN:
        return None
    return {r: seen_scores(c) for r, c in zip(raters, columns, strict=True)}


def _part(
    part: Any,
    wrap: Any,
    layout: NumericLayout,
    raters: list[Hashable] | None,
    reduce: Callable[[Scores], Any],
    ids: Any = None,
) -> Part:
    s = scores(wrap(part), layout, raters, ids=False if ids == SEEN else ids)
    seen = _seen(ids, s.raters, s.columns)
    return Part(s.by, s.keys(), s.n_groups, s.raters, reduce(s), seen)


def _not_ratings(reader: PartReader, layout: NumericLayout, raters: Any) -> Any:
    """How the parts' columns are checked when taken as raters by default (else ``None``).

    Parts read here, one after the other, add to one rule, decided once all are read;
    parts read elsewhere (Dask) send back what the rule needs (``SEEN``).
    """
    if layout.long or as_list(raters):
        return None
    return SEEN if reader.distributed else NotRatings("scores")


def _settle(ids: Any, seen: Sequence[dict[Hashable, ScoresSeen] | None] = ()) -> None:
    """Every part read: refuse the columns that are not scores, over the whole input.

    ``seen``: what each part read elsewhere saw, in row order (``SEEN``).
    """
    if ids == SEEN:
        ids = NotRatings("scores")
        for part in seen:
            for name, columns in (part or {}).items():
                ids.follow(name, columns)
    if isinstance(ids, NotRatings):
        ids.refuse()


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
    found = each_part(reader, [layout.rater], _ids_part, layout.rater)
    ids = list(dict.fromkeys(x for f in found for x in f))
    return chosen_ids(ids, layout.raters, layout.rater)


def _ids_part(part: Any, wrap: Any, rater: Hashable) -> list[Any]:
    frame = wrap(part)
    frame.load([rater])
    return list(frame.labels(rater).uniques)


def _mapped(
    reader: PartReader, layout: NumericLayout, reduce: Callable[[Scores], Any]
) -> tuple[Any, list[Hashable] | None, list[Any]]:
    """The first part's layout, the rater ids asked for, and ``reduce`` of every part.

    A long layout's ratings of one item stay in one part (``together``).
    """
    first = _first(reader, layout)
    known = _rater_ids(reader, layout)
    together = layout.item if layout.long else None
    compact = [layout.item, layout.rater, layout.value] if layout.long else []
    ids = _not_ratings(reader, layout, layout.raters)
    parts = each_part(
        reader,
        layout.needed(reader.columns()),
        _part,
        layout,
        known,
        reduce,
        ids,
        together=together,
        compact=compact,
    )
    _settle(ids, [p.seen for p in parts])
    return first, known, parts


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
    first, known, parts = _mapped(reader, layout, reduce)
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
    first, _, parts = _mapped(reader, layout, _keep)
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


def refuse_engine(frame: EngineFrame, what: str, needs: str) -> KappaFrameError:
    """The error for a use of the scores that is not a sum, on an engine input.

    ``needs``: what ``what`` does with the scores that an engine cannot add up.
    """
    way_out = frame.way_out or "e.g. relation.pl() in DuckDB, spark_frame.toPandas()"
    return KappaFrameError(
        f"{what} {needs}, which is not a sum the {frame.engine} engine can add up; bring "
        f"the ratings into pandas or polars first ({way_out}). icc(), ccc() and "
        "bland_altman() compute their sums in the engine."
    )


def infinite_in_engine(layout: NumericLayout, raters: list[Hashable]) -> KappaFrameError:
    """The error for sums an engine returned not finite: an infinite score in its input."""
    where = f"column {layout.value!r} holds" if layout.long else f"the columns {raters} hold"
    return KappaFrameError(
        f"{where} an infinite score: a score must be a finite number. "
        "Replace them (with null to leave them out) first.",
        option="value" if layout.long else "raters",
    )


# ---- what the intraclass correlation needs: sums over the complete items, per group ----


def icc_part_sums(s: Scores) -> IccSums:
    sums = icc_sums(s.columns, s.group, s.n_groups)
    if not np.isfinite(sums.squares).all():  # an infinite score: say where
        refuse_infinite(s.columns, s.raters, s.value)
    return sums


def no_icc_sums(n_groups: int, k: int) -> IccSums:
    zeros = np.zeros(n_groups)
    return IccSums(
        np.zeros(n_groups, np.int64),
        np.zeros(n_groups, np.int64),
        zeros,
        zeros,
        zeros,
        np.zeros((n_groups, k)),
    )


def _sorted_groups(frames: list[Any], by: list[Hashable]) -> tuple[Any, list[np.ndarray]]:
    """The sorted union of the group keys of ``frames``; each frame's rows' group codes."""
    stacked = concat(frames)
    adapter = eager_adapter(stacked)
    adapter.load(by)
    groups = encode_groups([adapter.keys(b) for b in by], adapter.n_rows)
    codes = groups.codes if groups.codes is not None else np.zeros(adapter.n_rows, np.intp)
    keys = take(stacked, by, groups.first_row[: groups.n_groups])
    bounds = np.cumsum([0] + [len(f) for f in frames])
    return keys, [codes[bounds[i] : bounds[i + 1]] for i in range(len(frames))]


def _answer_groups(answer: Any, by: list[Hashable]) -> tuple[np.ndarray, int, Any]:
    """An engine answer's rows' group codes, the number of groups and their sorted keys."""
    if not by:
        return np.zeros(len(answer), dtype=np.intp), 1, None
    keys, (codes,) = _sorted_groups([answer[[str(b) for b in by]]], by)
    return np.asarray(codes, dtype=np.intp), len(keys), keys


def engine_icc_sums(
    engine: EngineFrame, layout: NumericLayout
) -> tuple[IccSums, Any, list[Hashable], list[Hashable]]:
    """The sums computed in the engine, checked finite (no infinite score)."""
    sums, keys, raters, by = _engine_query(engine, layout)
    if not (np.isfinite(sums.squares).all() and np.isfinite(sums.rater_sums).all()):
        raise infinite_in_engine(layout, raters)
    return sums, keys, raters, by


def _engine_query(
    engine: EngineFrame, layout: NumericLayout
) -> tuple[IccSums, Any, list[Hashable], list[Hashable]]:
    """The sums computed in the engine; checks first on an empty frame of its schema."""
    empty = eager_adapter(engine.empty())
    names = empty.columns()
    by = as_list(layout.by, names)
    check_columns(by, names, "by column")
    if not layout.long:
        raters = wide_raters(names, layout.raters, by)
        table, shift = wide_sums(engine, raters, by)
        if not as_list(layout.raters, names):  # the rule, from one aggregate query
            engine.refuse_not_ratings(raters, "scores")
        k = len(raters)
        sums = IccSums(
            table["count"].to_numpy(np.int64),
            table["dropped"].to_numpy(np.int64),
            table["total"].to_numpy(float),
            table["squares"].to_numpy(float),
            table["item_squares"].to_numpy(float),
            np.column_stack([table[f"rater_{j}"].to_numpy(float) for j in range(k)]),
            shift,
        )
        if not by:
            return sums, None, raters, by
        keys, (codes,) = _sorted_groups([table[[str(b) for b in by]]], by)
        return sums.take(codes, len(keys)), keys, raters, by
    scores(empty, layout, [])  # the columns and the value's type, with pandas' messages
    wanted = as_list(layout.raters)
    ids, groups, totals, dropped, shift = long_sums(
        engine,
        by,
        layout.columns,
        wanted,
        layout.duplicates,
        lambda found: chosen_ids(found, wanted, layout.rater),
    )
    k = len(ids)
    if by:
        cols = [str(b) for b in by]
        keys, (g1, g2, g3) = _sorted_groups([groups[cols], totals[cols], dropped[cols]], by)
        n_groups = len(keys)
    else:
        keys, n_groups = None, 1
        g1 = np.zeros(len(groups), np.intp)
        g2 = np.zeros(len(totals), np.intp)
        g3 = np.zeros(len(dropped), np.intp)
    sums = no_icc_sums(n_groups, k)
    sums.shift = shift
    np.add.at(sums.count, g1, groups["count"].to_numpy(np.int64))
    sums.total = np.bincount(g1, groups["total"].to_numpy(float), minlength=n_groups)
    sums.squares = np.bincount(g1, groups["squares"].to_numpy(float), minlength=n_groups)
    sums.item_squares = np.bincount(g1, groups["item_squares"].to_numpy(float), minlength=n_groups)
    np.add.at(sums.dropped, g3, dropped["dropped"].to_numpy(np.int64))
    position = {r: j for j, r in enumerate(ids)}
    rater_of = np.array([position.get(r, -1) for r in totals[str(layout.rater)]], np.intp)
    known = rater_of >= 0
    np.add.at(
        sums.rater_sums,
        (g2[known], rater_of[known]),
        totals["rater_total"].to_numpy(float)[known],
    )
    return sums, keys, ids, by


# ---- what ccc and bland_altman need: sums over each pair's complete cases -------------


@dataclass
class NumericRatings:
    """Numeric ratings of one eager frame: one float per rater and item (NaN: not rated).

    ``values`` has shape ``(R, N)``; an item of the long layout is an item id within
    its group. ``group`` holds each item's group code (``None``: no ``by``); ``keys``
    the group keys, one row per group in sorted order (a frame of the input's library;
    ``None`` without ``by``).
    """

    raters: list[Hashable]
    values: np.ndarray
    group: np.ndarray | None
    n_groups: int
    keys: Any
    by: list[Hashable]

    #: The long layout's rating column (``None``: the wide layout, one column per rater).
    value: Hashable | None = None

    def refuse_infinite(self) -> None:
        """Refuse an infinite rating, naming where it is."""
        refuse_infinite(self.values, self.raters, self.value)

    def sums(self) -> PairSums:
        """The per-pair sums of these ratings."""
        with np.errstate(invalid="ignore", over="ignore"):  # an infinity: refused below
            moments = PairMoments.of(self.values, self.group, self.n_groups)
        if not (np.isfinite(moments.mean).all() and np.isfinite(moments.ss).all()):
            self.refuse_infinite()
        return PairSums(list(self.raters), moments, self.keys, self.by, self.values.shape[1])


def numeric_ratings(
    frame: Frame, raters: Any, layout: NumericLayout, min_raters: int = 2, ids: Any = None
) -> NumericRatings:
    """Read the numeric ratings of one eager frame, wide or long layout (``scores``).

    Wide: ``raters`` are the rater columns (default: every column not in ``by``).
    Long: ``raters`` are the rater ids to keep (default: every id, sorted); with
    ``min_raters=0`` (a part of a bigger input) ids asked for that this frame lacks are
    left out. ``ids``: how columns taken as raters by default are checked (``scores``).
    """
    s = scores(frame, replace(layout, raters=raters), min_raters=min_raters, ids=ids)
    return _as_ratings(s, layout, frame.n_rows)


def _as_ratings(s: Scores, layout: NumericLayout, n_rows: int) -> NumericRatings:
    """Scores as one ``(R, N)`` array (``n_rows``: the wide layout's items when no rater)."""
    # No rater: a part of the long layout lacking those asked for.
    none = np.empty((0, 0 if layout.long else n_rows))
    values = np.stack(s.columns) if s.columns else none
    return NumericRatings(s.raters, values, s.group, s.n_groups, s.keys(), s.by, s.value)


# ----------------------------------------------------------------------------- sums


@dataclass
class PairSums:
    """Per-pair sums of numeric ratings (``PairMoments``) with their raters and groups.

    Sums of parts of one input add up (``combine_sums``): raters and groups are aligned
    by name and key.
    """

    raters: list[Hashable]
    moments: PairMoments
    keys: Any
    by: list[Hashable]
    n_items: int
    output: str = "pandas"
    #: What the rule for columns that are not scores saw of each part, in order (``SEEN``).
    seen: list[dict[Hashable, ScoresSeen] | None] = field(default_factory=list)


def combine_sums(parts: list[PairSums]) -> PairSums:
    """The sums of several parts of one input: raters and groups aligned, moments added."""
    parts = [p for p in parts if p is not None]
    if len(parts) == 1:
        return parts[0]
    raters = _union([p.raters for p in parts])
    keys, group_maps = merge_keys(parts)
    n_groups = 1 if not parts[0].by else len(keys)
    position = {r: i for i, r in enumerate(raters)}
    total = PairMoments.empty(n_groups, len(raters))
    for part, gmap in zip(parts, group_maps, strict=True):
        where = np.asarray([position[r] for r in part.raters], dtype=np.intp)
        groups = np.asarray(gmap, dtype=np.intp)[: part.moments.n.shape[0]]
        total = total + part.moments.placed(where, len(raters), groups, n_groups)
    seen = [s for p in parts for s in p.seen]
    return PairSums(raters, total, keys, parts[0].by, sum(p.n_items for p in parts), seen=seen)


def _union(lists: list[list[Hashable]]) -> list[Hashable]:
    """The raters of every part: as they are when the parts agree, else in order met.

    Parts of the wide layout read the same columns; the long layout's parts may each lack
    some rater ids, and their order is settled once all are known (``chosen_ids``).
    """
    if all(lst == lists[0] for lst in lists[1:]):
        return list(lists[0])
    return list(dict.fromkeys(r for lst in lists for r in lst))


def _sums_part(
    part: Any, wrap: Any, raters: Any, layout: NumericLayout, ids: Any = None
) -> PairSums:
    check = False if ids == SEEN else ids
    ratings = numeric_ratings(wrap(part), raters, layout, min_raters=0, ids=check)
    sums = ratings.sums()
    if ids == SEEN:
        sums.seen = [_seen(ids, ratings.raters, ratings.values)]
    return sums


def _reader_plan(
    reader: PartReader, raters: Any, layout: NumericLayout, min_raters: int
) -> tuple[list[Hashable], Any]:
    """The columns each part needs, and the raters to read it over.

    Checked first on an empty frame of the input's schema (the messages of an eager
    input); that also tells a file reader which columns are group keys, before any batch
    is read (its CSV cells become numbers per column set).
    """
    first = numeric_ratings(
        reader.wrap()(reader.empty()), raters, layout, 0 if layout.long else min_raters
    )
    by = first.by
    if layout.long:
        return [*by, layout.item, layout.rater, layout.value], as_list(raters)
    return [*by, *first.raters], list(first.raters)


def _engine_sums(
    frame: EngineFrame, raters: Any, layout: NumericLayout, min_raters: int
) -> PairSums:
    """The per-pair sums of a DuckDB or PySpark input, summed in its engine."""
    total = (
        _engine_long_sums(frame, raters, layout, min_raters)
        if layout.long
        else _engine_wide_sums(frame, raters, layout, min_raters)
    )
    m = total.moments
    if not (np.isfinite(m.mean).all() and np.isfinite(m.ss).all()):
        raise infinite_in_engine(layout, total.raters)
    return total


def _engine_wide_sums(
    frame: EngineFrame, raters: Any, layout: NumericLayout, min_raters: int
) -> PairSums:
    """The wide layout's per-pair sums, one query for the means, one for the sums."""
    first = numeric_ratings(cast(Frame, eager_adapter(frame.empty())), raters, layout, min_raters)
    by, names = first.by, list(first.raters)
    shift = np.asarray(engine_means(frame, names), dtype=np.float64)
    if not as_list(raters, names):  # the rule, from one aggregate query
        frame.refuse_not_ratings(names, "scores")
    answer = engine_pair_sums(frame, names, by, shift.tolist())
    codes, n_groups, keys = _answer_groups(answer, by)
    r = len(names)
    n, s, q, c = (np.zeros((n_groups, r, r)) for _ in range(4))
    for i in range(r):
        for j in range(i, r):
            got = {
                k: answer[sum_column(k, i, j)].to_numpy(dtype=np.float64, na_value=0.0)
                for k in SUM_NAMES
            }
            n[codes, i, j] = n[codes, j, i] = got["n"]
            s[codes, i, j], s[codes, j, i] = got["s_a"], got["s_b"]
            q[codes, i, j], q[codes, j, i] = got["q_a"], got["q_b"]
            c[codes, i, j] = c[codes, j, i] = got["c"]
    moments = PairMoments.from_sums(n, s, q, c, shift)
    rated = int(np.diagonal(moments.n, axis1=1, axis2=2).max(axis=1, initial=0).sum())
    return PairSums(names, moments, keys, by, rated)


def _engine_long_sums(
    frame: EngineFrame, raters: Any, layout: NumericLayout, min_raters: int
) -> PairSums:
    """The long layout's per-pair sums, from the engine's self-join on the item."""
    first = numeric_ratings(cast(Frame, eager_adapter(frame.empty())), raters, layout, 0)
    by = first.by
    wanted = as_list(raters)
    answer, origin, found = engine_long_sums(frame, by, layout.columns, wanted, layout.duplicates)
    names = chosen_ids(found, wanted, layout.rater, min_raters)
    codes, n_groups, keys = _answer_groups(answer, by)
    position = {r: i for i, r in enumerate(names)}
    i = np.asarray([position[r] for r in answer["rater_a"]], dtype=np.intp)
    j = np.asarray([position[r] for r in answer["rater_b"]], dtype=np.intp)
    got = {k: answer[k].to_numpy(dtype=np.float64, na_value=0.0) for k in SUM_NAMES}
    r = len(names)
    n, s, q, c = (np.zeros((n_groups, r, r)) for _ in range(4))
    n[codes, i, j] = n[codes, j, i] = got["n"]
    s[codes, i, j], s[codes, j, i] = got["s_a"], got["s_b"]
    q[codes, i, j], q[codes, j, i] = got["q_a"], got["q_b"]
    c[codes, i, j] = c[codes, j, i] = got["c"]
    moments = PairMoments.from_sums(n, s, q, c, np.full(r, origin))
    rated = int(np.diagonal(moments.n, axis1=1, axis2=2).max(axis=1, initial=0).sum())
    return PairSums(names, moments, keys, by, rated)


def read_pair_sums(
    data: Any, raters: Any, layout: NumericLayout, min_raters: int = 2
) -> tuple[PairSums, str]:
    """The per-pair sums of any input, and the kind of frame results come back as.

    An eager frame is read at once; a reader of parts (LazyFrame batches, Dask
    partitions, file batches) part by part, each part's sums added to the others'.
    """
    frame = adapt(data)
    if isinstance(frame, EngineFrame):
        total = _engine_sums(frame, raters, layout, min_raters)
        total.output = frame.output
        return total, frame.output
    if isinstance(frame, PartReader):
        needed, over = _reader_plan(frame, raters, layout, min_raters)
        together = layout.item if layout.long else None
        compact = [layout.item, layout.rater, layout.value] if layout.long else []
        ids = _not_ratings(frame, layout, raters)
        total = each_part(
            frame,
            needed,
            _sums_part,
            over,
            layout,
            ids,
            add=combine_sums,
            together=together,
            compact=compact,
        )
        _settle(ids, total.seen if total is not None else ())
        if total is None:
            total = _sums_part(frame.empty(), frame.wrap(), over, layout)
        output = frame.output
    else:
        eager = cast(Frame, frame)
        total = numeric_ratings(eager, raters, layout, min_raters).sums()
        output = eager.output
    if layout.long:
        total = _check_ids(total, raters, layout, min_raters)
    total.output = output
    return total, output


def _check_ids(total: PairSums, raters: Any, layout: NumericLayout, min_raters: int) -> PairSums:
    """The long layout: every id asked for found, enough raters, ids in their order."""
    order = chosen_ids(total.raters, raters, layout.rater, min_raters)
    if order != total.raters:
        position = {r: i for i, r in enumerate(total.raters)}
        idx = np.asarray([position[r] for r in order], dtype=np.intp)
        m = total.moments
        where = np.ix_(np.arange(m.n.shape[0]), idx, idx)
        moved = PairMoments(m.n[where], m.mean[where], m.ss[where], m.cross[where])
        total = PairSums(list(order), moved, total.keys, total.by, total.n_items)
    return total


def read_numeric(
    data: Any, raters: Any, layout: NumericLayout, min_raters: int = 2, what: str = "this"
) -> NumericRatings:
    """Every numeric rating of any input, as one ``NumericRatings`` (parts stacked).

    The long layout's raters are the ids asked for, in that order (each must occur), else
    every id, sorted. ``what``: the caller, as an engine input's refusal names it.
    """
    frame = adapt(data)
    if isinstance(frame, EngineFrame):
        raise refuse_engine(frame, what, "draws every rating")
    if not isinstance(frame, PartReader):
        ratings = numeric_ratings(cast(Frame, frame), raters, layout, min_raters)
    else:  # the parts' scores stacked, as kendall_w reads them
        ratings = _as_ratings(gather_parts(frame, replace(layout, raters=raters)), layout, 0)
    ratings.refuse_infinite()
    if layout.long:
        wanted = as_list(raters)
        err = missing_columns(wanted, ratings.raters, f"rater id in column {layout.rater!r}")
        if err is not None:
            raise err
        if len(ratings.raters) < min_raters:
            raise too_few_raters(min_raters, ratings.raters, layout.rater)
    return ratings
