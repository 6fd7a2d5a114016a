"""Two methods on one numeric scale: Lin's CCC and Bland-Altman limits of every rater pair.

Frame -> numeric ratings (``numeric_ratings``: one float per rater and item, NaN where
not rated; wide or long layout, groups) -> per-pair sums (``PairSums``: additive over
parts of the input, see ``kappaframe._stats.concordance.PairMoments``) -> statistics
-> tidy frame. Every way in that ``pairwise`` takes (pandas, polars, LazyFrame, Dask,
files) is read part by part through the same readers; a part's ratings become sums at
once, so an input read in parts is never held whole (the long layout holds an item's
ratings together, as everywhere).

The numeric preparation (``numeric_ratings``, ``read_numeric``, ``numeric_values``)
knows nothing of concordance: any statistic of numeric ratings can read its input
through it.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

import numpy as np

from .._encode.codes import encode_groups
from .._errors import _QUIET_UNDEFINED as _QUIET
from .._errors import (
    KappaFrameError,
    KappaFrameTypeError,
    UndefinedKappaWarning,
    missing_columns,
    too_few_raters,
    user_stacklevel,
)
from .._frames.engines import EngineFrame
from .._frames.native import eager_adapter, take
from .._frames.numeric import refuse_infinite
from .._frames.numeric_engine import (
    SUM_NAMES,
    engine_long_sums,
    engine_means,
    engine_pair_sums,
    sum_column,
)
from .._frames.parts import PartReader
from .._schema import (
    BLAND_ALTMAN_CI_COLUMNS,
    BLAND_ALTMAN_COLUMNS,
    CCC_CI_COLUMNS,
    CCC_COLUMNS,
    MATRIX_KEY,
    Column,
    Table,
    check_names,
)
from .._stats.concordance import PairMoments, bland_altman_stats, lin_ccc
from .._types import Duplicates
from .assemble import matrix_columns
from .lazy import Planned, lazy_result, planned_layout
from .numeric import NumericLayout, infinite_in_engine, numeric_layout, scores
from .options import (
    as_list,
    check_level,
    check_reference,
    rater_pairs,
    with_reference,
)
from .plan import adapt
from .prepare import Frame, KeysFrame, merge_keys

__all__ = [
    "NumericRatings",
    "PairSums",
    "bland_altman",
    "ccc",
    "check_agreement",
    "numeric_ratings",
    "read_numeric",
    "read_pair_sums",
]

FrameT = TypeVar("FrameT")


# ----------------------------------------------------------------------------- options


def _check_ci(ci: Any) -> float | None:
    return None if ci is None else check_level(ci)


def _check_flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise KappaFrameTypeError(f"{name} must be True or False; got {value!r}.", option=name)
    return bool(value)


def check_agreement(agreement: Any) -> float:
    """The limits' distance from the bias in SDs: a positive, finite number, as a float."""
    if (
        isinstance(agreement, (bool, np.bool_))
        or not isinstance(agreement, numbers.Real)
        or not 0 < float(agreement) < np.inf
    ):
        raise KappaFrameError(
            f"agreement must be the multiple of the standard deviation of the differences "
            f"that the limits lie at (a positive number: 1.96 for 95% of the differences, "
            f"2 as Bland & Altman 1986 rounded it); got {agreement!r}.",
            option="agreement",
        )
    return float(agreement)


# ----------------------------------------------------------------------------- reading


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
    frame: Frame, raters: Any, layout: NumericLayout, min_raters: int = 2
) -> NumericRatings:
    """Read the numeric ratings of one eager frame, wide or long layout (``scores``).

    Wide: ``raters`` are the rater columns (default: every column not in ``by``).
    Long: ``raters`` are the rater ids to keep (default: every id, sorted); with
    ``min_raters=0`` (a part of a bigger input) ids asked for that this frame lacks are
    left out.
    """
    s = scores(frame, replace(layout, raters=raters), min_raters=min_raters)
    # No rater here: a part of the long layout lacking those asked for.
    none = np.empty((0, 0 if layout.long else frame.n_rows))
    values = np.stack(s.columns) if s.columns else none
    return NumericRatings(s.raters, values, s.group, s.n_groups, s.keys(), s.by, s.value)


def _keys(frame: Frame, by: list[Hashable], groups: Any) -> Any:
    if not by:
        return None
    native = frame.frame  # type: ignore[attr-defined]
    return take(native, by, groups.first_row[: groups.n_groups])


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
    return PairSums(raters, total, keys, parts[0].by, sum(p.n_items for p in parts))


def _union(lists: list[list[Hashable]]) -> list[Hashable]:
    """The raters of every part: as they are when the parts agree, else in order met.

    Parts of the wide layout read the same columns; the long layout's parts may each lack
    some rater ids, and their order is settled once all are known (``_rater_order``).
    """
    if all(lst == lists[0] for lst in lists[1:]):
        return list(lists[0])
    return list(dict.fromkeys(r for lst in lists for r in lst))


def _rater_order(found: list[Hashable], raters: Any) -> list[Hashable]:
    """The long layout's raters: the ids asked for, in that order, else every id sorted."""
    wanted = as_list(raters)
    if wanted:
        return [r for r in wanted if r in set(found)]
    try:
        return sorted(found)  # type: ignore[type-var]
    except TypeError:
        return list(found)


def _sums_part(part: Any, wrap: Any, raters: Any, layout: NumericLayout) -> PairSums:
    return numeric_ratings(wrap(part), raters, layout, min_raters=0).sums()


def _ratings_part(part: Any, wrap: Any, raters: Any, layout: NumericLayout) -> NumericRatings:
    return numeric_ratings(wrap(part), raters, layout, min_raters=0)


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


def _refuse_engine(data: Any) -> None:
    if isinstance(data, EngineFrame):
        raise KappaFrameError(
            f"this needs every numeric rating of the {data.engine} input in Python (ccc() "
            "and bland_altman() sum them in the engine instead); bring the ratings into "
            "pandas or polars first (e.g. relation.pl() in DuckDB, spark_frame.toPandas())."
        )


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
    answer = engine_pair_sums(frame, names, by, shift.tolist())
    if by:
        keys_of = cast(Frame, eager_adapter(answer))
        groups = encode_groups([keys_of.keys(b) for b in by], len(answer))
        codes = np.asarray(groups.codes, dtype=np.intp)
        n_groups, keys = groups.n_groups, _keys(keys_of, by, groups)
    else:
        codes, n_groups, keys = np.zeros(len(answer), dtype=np.intp), 1, None
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
    answer, origin, found = engine_long_sums(
        frame, by, layout.item, layout.rater, layout.value, wanted, layout.duplicates
    )
    if wanted:
        err = missing_columns(wanted, found, f"rater id in column {layout.rater!r}")
        if err is not None:
            raise err
        names = list(wanted)
    else:
        try:
            names = sorted(found)
        except TypeError:
            names = found
    if len(names) < min_raters:
        raise too_few_raters(min_raters, names, layout.rater)
    if by:
        keys_of = cast(Frame, eager_adapter(answer))
        groups = encode_groups([keys_of.keys(b) for b in by], len(answer))
        codes = np.asarray(groups.codes, dtype=np.intp)
        n_groups, keys = groups.n_groups, _keys(keys_of, by, groups)
    else:
        codes, n_groups, keys = np.zeros(len(answer), dtype=np.intp), 1, None
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
        total = frame.reduce(
            needed,
            _sums_part,
            _combine_two,
            frame.wrap(),
            over,
            layout,
            together=together,
            compact=compact,
        )
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


def _combine_two(parts: list[PairSums]) -> PairSums:
    return combine_sums(parts)


def _check_ids(total: PairSums, raters: Any, layout: NumericLayout, min_raters: int) -> PairSums:
    """The long layout: every id asked for found, enough raters, ids in their order."""
    wanted = as_list(raters)
    if wanted:
        err = missing_columns(wanted, total.raters, f"rater id in column {layout.rater!r}")
        if err is not None:
            raise err
        order = wanted
    else:
        try:
            order = sorted(total.raters)  # type: ignore[type-var]
        except TypeError:
            order = list(total.raters)
    if len(order) < min_raters:
        raise too_few_raters(min_raters, order, layout.rater)
    if order != total.raters:
        position = {r: i for i, r in enumerate(total.raters)}
        idx = np.asarray([position[r] for r in order], dtype=np.intp)
        m = total.moments
        where = np.ix_(np.arange(m.n.shape[0]), idx, idx)
        moved = PairMoments(m.n[where], m.mean[where], m.ss[where], m.cross[where])
        total = PairSums(list(order), moved, total.keys, total.by, total.n_items)
    return total


def read_numeric(
    data: Any, raters: Any, layout: NumericLayout, min_raters: int = 2
) -> NumericRatings:
    """Every numeric rating of any input, as one ``NumericRatings`` (parts stacked).

    The long layout's raters are the ids asked for, in that order (each must occur), else
    every id, sorted.
    """
    frame = adapt(data)
    _refuse_engine(frame)
    if not isinstance(frame, PartReader):
        ratings = numeric_ratings(cast(Frame, frame), raters, layout, min_raters)
    else:
        ratings = _stacked(frame, raters, layout, min_raters)
    ratings.refuse_infinite()
    if layout.long:
        wanted = as_list(raters)
        err = missing_columns(wanted, ratings.raters, f"rater id in column {layout.rater!r}")
        if err is not None:
            raise err
        if len(ratings.raters) < min_raters:
            raise too_few_raters(min_raters, ratings.raters, layout.rater)
    return ratings


def _stacked(
    reader: PartReader, raters: Any, layout: NumericLayout, min_raters: int
) -> NumericRatings:
    """The parts' ratings side by side: raters and groups aligned."""
    needed, over = _reader_plan(reader, raters, layout, min_raters)
    together = layout.item if layout.long else None
    parts = reader.map(needed, _ratings_part, reader.wrap(), over, layout, together=together)
    if not parts:
        return _ratings_part(reader.empty(), reader.wrap(), over, layout)
    raters_all = _union([p.raters for p in parts])
    if layout.long:
        raters_all = _rater_order(raters_all, raters)
    keys, group_maps = merge_keys(parts)
    position = {r: i for i, r in enumerate(raters_all)}
    blocks, groups = [], []
    for part, gmap in zip(parts, group_maps, strict=True):
        block = np.full((len(raters_all), part.values.shape[1]), np.nan)
        mine = [i for i, r in enumerate(part.raters) if r in position]
        block[[position[part.raters[i]] for i in mine]] = part.values[mine]
        blocks.append(block)
        codes = np.zeros(part.values.shape[1], np.intp) if part.group is None else part.group
        groups.append(np.asarray(gmap, dtype=np.intp)[codes])
    by = parts[0].by
    values = np.concatenate(blocks, axis=1)
    group = np.concatenate(groups) if by else None
    return NumericRatings(raters_all, values, group, 1 if not by else len(keys), keys, by)


# ----------------------------------------------------------------------------- results


def _warn_undefined(undefined: np.ndarray, n: np.ndarray, what: str, why: str) -> None:
    """One warning per call: how many results are undefined, and why."""
    count = int(np.count_nonzero(undefined))
    if not count or _QUIET.get():
        return
    few = int(np.count_nonzero(undefined & (n < 2)))
    parts = []
    if few:
        parts.append(f"{few} with fewer than 2 items rated by both")
    if count - few:
        parts.append(f"{count - few} {why}")
    warnings.warn(
        f"{what} is undefined (NaN) for {count} of {undefined.size} pair x group cells: "
        f"{'; '.join(parts)}.",
        UndefinedKappaWarning,
        stacklevel=user_stacklevel(),
    )


def _require_items(sums: PairSums) -> None:
    if sums.n_items < 2:
        raise KappaFrameError(
            f"agreement on a numeric scale needs at least 2 items; the input has "
            f"{sums.n_items}. Pass more ratings (or, with by=, check that the groups "
            "are not empty)."
        )


def _pair_rows(
    sums: PairSums, reference: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Rows group-major: each row's group, rater a, rater b; the pairs' moments flat."""
    pairs = rater_pairs(sums.raters, reference)
    moments = sums.moments.pairs(pairs[:, 0], pairs[:, 1])  # (P, G) each
    n_pairs, n_groups = len(pairs), sums.moments.n.shape[0]
    group = np.repeat(np.arange(n_groups), n_pairs)
    a, b = np.tile(pairs[:, 0], n_groups), np.tile(pairs[:, 1], n_groups)
    flat = {k: np.swapaxes(v, 0, 1).reshape(-1) for k, v in moments.items()}
    return group, a, b, flat


def _table(
    sums: PairSums,
    group: np.ndarray,
    pair: tuple[np.ndarray, np.ndarray],
    n: np.ndarray,
    values: dict[str, np.ndarray],
    names: Sequence[str],
) -> Table:
    keys = [Column(b, "key", _first_rows(sums, group), source=b) for b in sums.by]
    columns = [
        *keys,
        Column("rater_a", "name", pair[0], categories=sums.raters),
        Column("rater_b", "name", pair[1], categories=sums.raters),
        Column("n", "int", np.asarray(n, dtype=np.int64)),
    ]
    columns += [Column(name, "float", np.asarray(values[name], dtype=float)) for name in names]
    # Marked as what it is: the notebook display colours kappa tables, not these.
    kind = "ccc" if "ccc" in values else "bland_altman"
    return Table(columns, mark={"kind": kind})


def _first_rows(sums: PairSums, group: np.ndarray) -> np.ndarray:
    """Rows of ``sums.keys`` (one per group, in order) of each output row's group."""
    return np.asarray(group, dtype=np.intp)


def _render(sums: PairSums, table: Table, output: str) -> Any:
    return KeysFrame(sums.keys, output).render(table)


def _ccc_names(ci: float | None) -> tuple[str, ...]:
    return (*CCC_COLUMNS[3:], *(CCC_CI_COLUMNS if ci is not None else ()))


def _ba_names(ci: float | None) -> tuple[str, ...]:
    return (*BLAND_ALTMAN_COLUMNS[3:], *(BLAND_ALTMAN_CI_COLUMNS if ci is not None else ()))


def _plan_numeric(names: list[Hashable], o: dict[str, Any], columns: tuple[str, ...]) -> Planned:
    """The result of ``ccc`` / ``bland_altman`` with no rows, from the input's schema."""
    layout = numeric_layout(
        o["raters"], by=o["by"], item=o["item"], rater=o["rater"], value=o["value"],
        label=o["label"], duplicates=o["duplicates"],
    )  # fmt: skip
    check_reference(o["reference"])
    raters = with_reference(o["raters"], o["reference"])
    options = {
        "raters": raters,
        "by": layout.by,
        "item": layout.item,
        "rater": layout.rater,
        "label": layout.value,
        "categories": None,
        "duplicates": layout.duplicates,
    }
    by, rater_list, count = planned_layout(names, options, raters)
    if rater_list and o["reference"] is not None:
        rater_pairs(rater_list, o["reference"])
    check_names(by, ("rater_a", "rater_b", "n", *columns), "the numeric agreement function")
    none = np.zeros(0, dtype=np.intp)
    empty = PairSums(rater_list, PairMoments.empty(0, len(rater_list)), None, by, 0)
    table = _table(empty, none, (none, none), none, {c: np.zeros(0) for c in columns}, columns)
    return Planned.of(table, raters, count, rater_list)


def _plan_ccc(names: list[Hashable], o: dict[str, Any]) -> Planned | None:
    if _check_flag("matrix", o["matrix"]):
        return None
    return _plan_numeric(names, o, _ccc_names(_check_ci(o["ci"])))


def _plan_bland_altman(names: list[Hashable], o: dict[str, Any]) -> Planned:
    check_agreement(o["agreement"])
    return _plan_numeric(names, o, _ba_names(_check_ci(o["ci"])))


@lazy_result(_plan_ccc, counted=False)
def ccc(
    data: FrameT,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    value: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    reference: Hashable | None = None,
    ci: float | None = 0.95,
    duplicates: Duplicates = "raise",
    matrix: bool = False,
) -> FrameT:
    """Lin's concordance correlation coefficient of every pair of raters (per group).

    For the ``n`` items both raters rated, with means ``m_a``, ``m_b``, variances
    ``s_a^2``, ``s_b^2`` and covariance ``s_ab`` (divided by ``n``, as Lin defines them)::

        ccc = 2 s_ab / (s_a^2 + s_b^2 + (m_a - m_b)^2)

    the agreement of two measurements on one scale: 1 when every item gets the same value
    from both, below Pearson's ``r`` by the factor ``bias_correction`` (Lin's ``C_b``)
    when one rater is shifted or stretched against the other. The interval is Lin's,
    on Fisher's z-transform ``atanh(ccc)`` with the variance of Lin (2000)::

        var(z) = [ (1 - r^2) ccc^2 / ((1 - ccc^2) r^2)
                   + 2 ccc^3 (1 - ccc) u^2 / (r (1 - ccc^2)^2)
                   - ccc^4 u^4 / (2 r^2 (1 - ccc^2)^2) ] / (n - 2)

    with ``u = (m_a - m_b) / sqrt(s_a s_b)``; the interval is ``tanh(z -/+ q sqrt(var))``
    (``q`` the normal quantile), as R's ``epiR::epi.ccc`` and ``DescTools::CCC`` give it
    with ``ci = "z-transform"``.

    Parameters
    ----------
    data : pandas.DataFrame, polars.DataFrame or polars.LazyFrame, or files, Dask, DuckDB, PySpark
        Wide layout: one row per item, one numeric column per rater. Long layout (with
        ``item``, ``rater`` and ``value``): one row per rating. A LazyFrame gives a lazy
        plan; a Dask DataFrame a Dask frame; files are read in batches (see
        ``kappaframe.scan``); a DuckDB relation or PySpark DataFrame is summed in its
        engine and gives a pandas frame.
    raters : column name or list of names, optional
        Wide layout: the rater columns, in the order pairs are formed; default every
        column not in ``by``. Long layout: the rater ids to keep (default all, sorted).
    item, rater, value : column name, optional
        The long layout's columns; ``value`` holds the numeric ratings (``label`` is
        accepted for it, as in ``pairwise``). A rater rating an item twice is an error
        (see ``duplicates``). Items are identified within their group.
    label : column name, optional
        Another name of ``value``.
    by : column name or list of names, optional
        Group keys; one block of pairs per group, groups sorted by key.
    reference : column name (long layout: rater id), optional
        Pair every other rater with this one only (methods against a gold standard):
        ``rater_a`` is the rater, ``rater_b`` the reference.
    ci : float or None, default 0.95
        Confidence level of the interval; ``None`` leaves out ``ci_low``, ``ci_high``
        and ``se``.
    duplicates : {"raise", "first", "last"}, default "raise"
        Long layout: what to do when a rater rated the same item more than once.
    matrix : bool, default False
        Return the rater x rater frame of ``ccc`` instead (as ``kappaframe.matrix``
        lays it out; the diagonal is 1, NaN for a rater whose ratings do not vary).

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library with the columns: the ``by`` columns;
        ``rater_a``, ``rater_b``; ``n``, the items both rated (pairwise complete cases:
        an item one of the two left missing is left out of that pair only); ``ccc``;
        ``pearson_r`` (precision); ``bias_correction`` (accuracy, ``ccc / r``);
        ``scale_shift`` (``s_a / s_b``); ``location_shift``
        (``(m_a - m_b) / sqrt(s_a s_b)``); with ``ci``, ``se`` (the standard error of
        ``ccc``), ``ci_low``, ``ci_high``.

    Raises
    ------
    KappaFrameError
        Unknown columns, fewer than two raters, fewer than two items, a value that is
        not a number (the column and the value named), a duplicate rating in the long
        layout, ``ci`` not between 0 and 1.

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, when some ``ccc`` is NaN: a pair sharing fewer
        than two items, or a rater whose ratings of the shared items are all equal
        (no variance: Pearson's ``r``, and R's ``epi.ccc``, have no value there).

    See Also
    --------
    bland_altman : the bias and limits of agreement of the same pairs.
    bland_altman_plot : the differences against the means, for one pair.

    Notes
    -----
    Each pair's statistics come from six sums over the items both rated (``n``,
    ``sum a``, ``sum b``, ``sum a^2``, ``sum b^2``, ``sum ab``, each rating less its
    rater's mean), computed for all pairs at once by matrix products and added over the
    parts of an input read in parts; an engine computes them in one ``GROUP BY`` query.
    Below three items ``se`` and the interval are NaN; so is the interval of a pair in
    perfect agreement (``ccc = 1``: ``se`` 0, and ``atanh(1)`` infinite), as in R's
    ``epi.ccc``.

    References
    ----------
    Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate
    reproducibility. *Biometrics* 45(1), 255-268.

    Lin, L. I.-K. (2000). A note on the concordance correlation coefficient.
    *Biometrics* 56(1), 324-325.

    Examples
    --------
    Peak expiratory flow rate (l/min) of 17 people, by the Wright peak flow meter and the
    mini Wright meter (Bland & Altman 1986, first readings):

    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> pefr = pd.DataFrame({
    ...     "wright": [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267,
    ...                478, 178, 423, 427],
    ...     "mini_wright": [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260,
    ...                     477, 259, 350, 451],
    ... })
    >>> res = kf.ccc(pefr, ["wright", "mini_wright"])
    >>> int(res["n"].iloc[0]), round(float(res["ccc"].iloc[0]), 4)
    (17, 0.9427)
    >>> round(float(res["ci_low"].iloc[0]), 4), round(float(res["ci_high"].iloc[0]), 4)
    (0.8505, 0.9787)
    """
    layout = numeric_layout(
        raters, by=by, item=item, rater=rater, value=value, label=label, duplicates=duplicates
    )
    check_reference(reference)
    level = _check_ci(ci)
    as_matrix = _check_flag("matrix", matrix)
    sums, output = read_pair_sums(data, with_reference(raters, reference), layout)
    _require_items(sums)
    if as_matrix:
        return cast(FrameT, _render(sums, _ccc_matrix(sums), output))
    check_names(sums.by, ("rater_a", "rater_b", "n", *_ccc_names(level)), "ccc")
    group, a, b, m = _pair_rows(sums, reference)
    stats = lin_ccc(**m, ci=level)
    _warn_undefined(stats["undefined"], m["n"], "ccc", "where a rater's ratings do not vary")
    table = _table(sums, group, (a, b), m["n"], stats, _ccc_names(level))
    return cast(FrameT, _render(sums, table, output))


def _ccc_matrix(sums: PairSums) -> Table:
    """The rater x rater frame of ``ccc``, one block of rows per group."""
    n_raters = len(sums.raters)
    if MATRIX_KEY in sums.raters:
        raise KappaFrameError(
            f"a rater is named {MATRIX_KEY!r}, the name of the matrix's rater column; "
            "rename that rater first (or leave matrix=False)."
        )
    check_names(sums.by, (MATRIX_KEY, *sums.raters), "ccc")
    a, b = np.meshgrid(np.arange(n_raters), np.arange(n_raters), indexing="ij")
    m = sums.moments.pairs(a.reshape(-1), b.reshape(-1))  # (R * R, G)
    stats = lin_ccc(**m, ci=None)
    upper = (a < b).reshape(-1)
    _warn_undefined(
        stats["undefined"][upper], m["n"][upper], "ccc", "where a rater's ratings do not vary"
    )
    n_groups = sums.moments.n.shape[0]
    square = stats["ccc"].T.reshape(n_groups * n_raters, n_raters)
    group = np.repeat(np.arange(n_groups), n_raters)
    rater_of_row = np.tile(np.arange(n_raters), n_groups)
    keys = [Column(b_, "key", _first_rows(sums, group), source=b_) for b_ in sums.by]
    table = matrix_columns(keys, list(sums.raters), rater_of_row, square, "float", "ccc")
    return table


@lazy_result(_plan_bland_altman, counted=False)
def bland_altman(
    data: FrameT,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    value: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    reference: Hashable | None = None,
    agreement: float = 1.96,
    ci: float | None = 0.95,
    duplicates: Duplicates = "raise",
) -> FrameT:
    """Bland-Altman bias and limits of agreement of every pair of raters (per group).

    For the differences ``d = a - b`` (``rater_a`` less ``rater_b``) of the ``n`` items
    both rated::

        bias = mean(d),   sd = sqrt(sum (d - bias)^2 / (n - 1))
        loa_low, loa_high = bias -/+ agreement * sd

    the range that holds about 95% of the differences (``agreement=1.96``; Bland &
    Altman 1986 rounded it to 2). The intervals are Bland & Altman's (1986)
    approximate ones: the bias ``-/+ t sd / sqrt(n)``, each limit
    ``-/+ t sqrt(3 sd^2 / n)``, ``t`` the Student quantile on ``n - 1`` degrees of
    freedom (R's ``BlandAltmanLeh::bland.altman.stats``).

    Parameters
    ----------
    data, raters, item, rater, value, label, by, reference, duplicates
        As in ``kappaframe.ccc``. With ``reference``, ``d`` is each rater less the
        reference.
    agreement : float, default 1.96
        The limits' distance from the bias, in standard deviations of the differences
        (pingouin's ``agreement``, BlandAltmanLeh's ``two``).
    ci : float or None, default 0.95
        Confidence level of the intervals; ``None`` leaves them out.

    Returns
    -------
    DataFrame or LazyFrame
        A frame of the input's library with the columns: the ``by`` columns;
        ``rater_a``, ``rater_b``; ``n``, the items both rated (pairwise complete cases);
        ``bias``; ``sd``; ``loa_low``; ``loa_high``; with ``ci``, ``bias_ci_low``,
        ``bias_ci_high``, ``loa_low_ci_low``, ``loa_low_ci_high``, ``loa_high_ci_low``,
        ``loa_high_ci_high``.

    Raises
    ------
    KappaFrameError
        As ``kappaframe.ccc``; ``agreement`` not a positive number.

    Warns
    -----
    UndefinedKappaWarning
        Once per call, with a count, when a pair shares fewer than two items (no
        standard deviation: NaN).

    See Also
    --------
    bland_altman_plot : the differences against the means, with these lines.
    ccc : Lin's concordance correlation of the same pairs.

    Notes
    -----
    ``bias`` and ``sd`` come from the same six sums per pair as ``ccc``
    (``sum d = sum a - sum b``, ``sum d^2 = sum a^2 - 2 sum ab + sum b^2``). The
    approximation ``sqrt(3 sd^2 / n)`` is Bland & Altman's (1986) for limits at two
    standard deviations; Bland & Altman (1999) give ``sd sqrt(1/n + z^2 / (2 (n - 1)))``,
    nearly the same for ``z = 1.96``.

    References
    ----------
    Bland, J. M., & Altman, D. G. (1986). Statistical methods for assessing agreement
    between two methods of clinical measurement. *The Lancet* 327(8476), 307-310.

    Bland, J. M., & Altman, D. G. (1999). Measuring agreement in method comparison
    studies. *Statistical Methods in Medical Research* 8(2), 135-160.

    Examples
    --------
    The peak flow meters of Bland & Altman (1986): the mean difference is -2.1 l/min,
    the standard deviation 38.8, the limits (at 2 SD) -79.7 and 75.5 l/min.

    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> pefr = pd.DataFrame({
    ...     "wright": [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267,
    ...                478, 178, 423, 427],
    ...     "mini_wright": [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260,
    ...                     477, 259, 350, 451],
    ... })
    >>> res = kf.bland_altman(pefr, ["wright", "mini_wright"], agreement=2)
    >>> round(float(res["bias"].iloc[0]), 1), round(float(res["sd"].iloc[0]), 1)
    (-2.1, 38.8)
    >>> round(float(res["loa_low"].iloc[0]), 1), round(float(res["loa_high"].iloc[0]), 1)
    (-79.6, 75.4)
    """
    layout = numeric_layout(
        raters, by=by, item=item, rater=rater, value=value, label=label, duplicates=duplicates
    )
    check_reference(reference)
    level = _check_ci(ci)
    k = check_agreement(agreement)
    sums, output = read_pair_sums(data, with_reference(raters, reference), layout)
    _require_items(sums)
    check_names(sums.by, ("rater_a", "rater_b", "n", *_ba_names(level)), "bland_altman")
    group, a, b, m = _pair_rows(sums, reference)
    stats = bland_altman_stats(**m, agreement=k, ci=level)
    _warn_undefined(stats["undefined"], m["n"], "the standard deviation of the differences", "")
    table = _table(sums, group, (a, b), m["n"], stats, _ba_names(level))
    return cast(FrameT, _render(sums, table, output))
