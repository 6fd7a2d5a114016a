"""Frame -> codes: resolve columns, encode labels and group keys, pivot the long layout.

``prepare`` turns one eager frame (through its adapter in ``kappaframe._frames``)
into a ``Prepared``: label codes over one shared category index, group codes, and
where the pair counts come from. Inputs read in parts are prepared part by part by the
loop of ``kappaframe._api.plan``; the helpers at the end put their parts back together.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import numpy as np

from .._count import crowd as _crowd
from .._count.diagonal import DiagonalCounts, use_diagonal
from .._count.kernel import all_pairs, code_dtype, diagonal_counts, pair_counts
from .._count.tables import merge_order
from .._encode.codes import (
    Factorized,
    Groups,
    Ratings,
    encode_groups,
    encode_labels,
    is_index_column,
    long_to_wide,
    require_order,
    shared_categories,
    sort_ratings,
    warn_missing_tokens,
)
from .._encode.ids import NotRatings, check_labels
from .._encode.sets import SetLabels, set_categories
from .._errors import KappaFrameError, arg, missing_columns, too_few_raters
from .._frames.native import concat, eager_adapter, take
from .._frames.render import render
from .._schema import Table
from .options import LongLayout, as_list, check_columns
from .settings.reading import ReadSpec

__all__ = [
    "Frame",
    "ItemCodes",
    "KeysFrame",
    "LongRatings",
    "Prepared",
    "distinct_labels",
    "eager_adapter",
    "group_keys",
    "long_columns",
    "merge_categories",
    "merge_keys",
    "prepare",
    "read_labels",
    "read_long",
    "same_keys",
    "stack_items",
    "wide_raters",
]


class Frame(Protocol):
    """What an adapter offers the shared code."""

    def columns(self) -> list[Hashable]: ...
    def load(self, needed: list[Hashable]) -> None: ...
    @property
    def n_rows(self) -> int: ...
    def labels(self, name: Hashable) -> Factorized: ...
    def set_labels(self, name: Hashable, sets: SetLabels) -> Factorized: ...
    def keys(self, name: Hashable) -> tuple[np.ndarray, int]: ...
    def render(self, table: Table) -> Any: ...
    @property
    def output(self) -> str: ...


@dataclass
class Prepared:
    """Everything the statistics need, independent of the frame library."""

    frame: Frame
    raters: list[Hashable]
    codes: np.ndarray
    categories: list[Any]
    groups: Groups
    by: list[Hashable]
    #: Where the pair counts come from when not from ``codes`` by the dense kernel: the
    #: crowd path (``kappaframe._count.crowd.CrowdCounts``) or stored counts
    #: (``kappaframe.Counts``: Dask, files, streams). See ``tables``.
    source: Any = None
    #: Report only (pair, group) cells whose ``n`` reaches this (``None``: every cell).
    min_overlap: int | None = None
    #: Whether the category order was declared (``categories=``, an ordered pandas
    #: Categorical, a polars Enum) rather than taken from sorting the labels.
    ordered: bool = False
    #: The columns the labels came from: the rater columns (wide layout) or the label
    #: column (long layout); named when an order would have to be guessed.
    label_columns: Sequence[Hashable] = ()

    def require_order(self, weights: Any = None, why: str | None = None) -> None:
        """Refuse ``weights`` (or what ``why`` describes) on text labels with no order.

        See ``kappaframe._encode.codes.require_order``: the order comes from
        ``categories=``, an ordered Categorical / Enum, or labels that are numbers.
        """
        require_order(
            self.categories,
            declared=self.ordered,
            columns=self.label_columns,
            weights=weights,
            why=why,
        )

    def pairs(self) -> np.ndarray:
        """Return the ``(n_pairs, 2)`` rater pairs ``a < b`` to report, in rater order.

        Every pair; on the sparse paths with ``min_overlap``, only the pairs that share
        at least that many items (in all groups together).
        """
        if self.source is not None:
            return self.source.pairs(self.min_overlap)
        return all_pairs(len(self.raters))

    def tables(
        self, pairs: np.ndarray, weights: Any = None, full: bool = False
    ) -> np.ndarray | DiagonalCounts:
        """Count each pair in each group.

        ``(n_pairs, G, K, K)`` tables, or, for many categories and a statistic that
        allows it, ``DiagonalCounts``.

        ``weights`` is the caller's option (the diagonal path serves ``None``,
        ``"linear"`` and ``"quadratic"``); ``full`` asks for the tables whatever the cost
        (e.g. for standard errors).
        """
        if self.source is not None:
            return self.source.tables(pairs, weights, full)
        k, g = len(self.categories), self.groups.n_groups
        if use_diagonal(len(pairs), g, k, weights, full):
            sums = diagonal_counts(self.codes, pairs, k, self.groups.codes, g)
            return DiagonalCounts.from_sums(sums)
        return pair_counts(self.codes, pairs, k, self.groups.codes, g)

    def kept(self, n: np.ndarray) -> np.ndarray:
        """Mask of the (pair, group) cells to report: all, or ``n >= min_overlap``."""
        if not self.min_overlap:
            return np.ones(np.shape(n), dtype=bool)
        return np.asarray(n) >= self.min_overlap


def prepare(
    frame: Frame,
    raters: Any,
    read: ReadSpec,
    *,
    min_raters: int = 2,
    min_overlap: int | None = None,
    inferred: bool | str | NotRatings = False,
) -> Prepared:
    """Resolve columns, encode labels and groups, pivot the long layout, of one eager frame.

    ``read`` says how to read the ratings, checked when it was made; here only what needs
    the frame: its columns and its labels. ``raters``: the raters of this frame (the
    caller's ``read.raters``, or, for a part of a bigger input, the ones found in it).
    ``inferred``: ``raters`` were
    not named by the caller but taken as every other column (a part of a bigger input:
    ``"part"``, or the ``NotRatings`` gathering the parts); with ``raters=None`` they
    are too. ``read.sets``: the labels are sets
    (``kappaframe._encode.sets``), one category per distinct set. Such columns must look like labels
    (``kappaframe._encode.ids``: not ids or scores), and index columns that
    pandas writes into files (``__index_level_0__``) are never taken. The long layout is counted
    sparsely (``kappaframe._count.crowd``) when
    ``kappaframe._count.crowd.use_crowd`` says it beats the dense pivot; the numbers
    are the same either way.
    """
    names = frame.columns()
    by_list = as_list(read.by, names)
    check_columns(by_list, names, "by column")
    if read.layout is not None:
        return _prepare_long(frame, names, raters, by_list, read, min_raters, min_overlap)
    categories, sets = read.categories, read.sets
    rater_list = wide_raters(names, raters, by_list, min_raters)
    inferred = inferred or not as_list(raters, names)
    frame.load([*by_list, *rater_list])
    facts = {r: read_labels(frame, r, sets) for r in rater_list}
    if inferred and sets is None:  # distinct sets are many by nature: no id check
        check_labels(inferred, facts)
    warn_missing_tokens(facts, categories)
    cats = (
        shared_categories(facts, categories) if sets is None else set_categories(facts, categories)
    )
    codes = encode_labels(list(facts.values()), cats)
    groups = encode_groups([frame.keys(b) for b in by_list], frame.n_rows)
    ordered = categories is not None or any(f.declared is not None for f in facts.values())
    return Prepared(
        frame,
        rater_list,
        codes,
        cats,
        groups,
        by_list,
        min_overlap=min_overlap,
        ordered=ordered,
        label_columns=rater_list,
    )


def read_labels(frame: Frame, name: Hashable, sets: SetLabels | None) -> Factorized:
    """A label column's codes: single labels, or, with ``sets``, one code per distinct set."""
    if sets is None:
        return frame.labels(name)
    return frame.set_labels(name, sets)


def wide_raters(
    names: Sequence[Hashable], raters: Any, by: list[Hashable], min_raters: int = 2
) -> list[Hashable]:
    """The rater columns of the wide layout: those named, or every column not in ``by``.

    Needs the column names only (a schema): index columns written by pandas are never
    raters; a rater that is missing, or also a ``by`` column, or too few raters, is refused.
    """
    rater_list = as_list(raters, names)
    if not rater_list:
        rater_list = [c for c in names if c not in set(by) and not is_index_column(c)]
    check_columns(rater_list, names, "rater column")
    overlap = [c for c in rater_list if c in set(by)]
    if overlap:
        raise KappaFrameError(
            f"column {overlap[0]!r} is both a rater and a by column; a group key cannot be rated."
        )
    if len(rater_list) < min_raters:
        raise too_few_raters(min_raters, rater_list)
    return rater_list


def long_columns(names: Sequence[Hashable], by: list[Hashable], layout: LongLayout) -> None:
    """Check the long layout's columns against the column names (a schema is enough)."""
    item, rater, label = layout.item, layout.rater, layout.label
    roles = {"item": item, "rater": rater, "label": label}
    for role, col in roles.items():
        check_columns([col], names, f"{role} column")
    if len({item, rater, label}) < 3:
        raise KappaFrameError(
            f"{arg('item')}, {arg('rater')} and {arg('label')} must be three different "
            f"columns; got {roles}.",
            option="item",
        )
    for col in by:
        if col in roles.values():
            raise KappaFrameError(f"by column {col!r} is also the item, rater or label column.")


@dataclass
class LongRatings:
    """The long layout's rows, read and checked: codes, and the rows sorted into units.

    ``items``, ``raters`` and ``labels`` hold a code per row kept (the rows of the rater
    ids asked for; every row without ``raters=``), ``rows`` those rows' positions in the
    frame (``None``: every row), ``ratings`` the units (an item within its group) and the
    rows sorted by unit and rater, one per rater and unit (``duplicates`` applied).
    """

    items: Factorized
    raters: Factorized
    labels: np.ndarray
    categories: list[Any]
    ordered: bool
    ratings: Ratings
    rows: np.ndarray | None
    row_groups: Groups


def read_long(
    frame: Frame,
    names: list[Hashable],
    raters: Any,
    by_list: list[Hashable],
    read: ReadSpec,
    min_raters: int,
) -> LongRatings:
    """Read the long layout's columns of one eager frame into codes sorted by unit."""
    layout = cast(LongLayout, read.layout)
    categories, sets = read.categories, read.sets
    long_columns(names, by_list, layout)
    item, rater, label = layout.item, layout.rater, layout.label
    frame.load([*by_list, item, rater, label])
    items = frame.labels(item)
    rater_fact = _sorted_ids(frame.labels(rater))
    wanted = as_list(raters)
    if wanted:
        rater_fact = _select_ids(rater_fact, wanted, rater)
    label_fact = read_labels(frame, label, sets)
    warn_missing_tokens({label: label_fact}, categories)
    one = {label: label_fact}
    cats = shared_categories(one, categories) if sets is None else set_categories(one, categories)
    label_codes = encode_labels([label_fact], cats)[0]
    ordered = categories is not None or label_fact.declared is not None
    keep = rater_fact.codes >= 0 if wanted else None
    row_groups = encode_groups([frame.keys(b) for b in by_list], frame.n_rows)
    rows = None
    if keep is not None and not keep.all():
        rows = np.flatnonzero(keep)
        items = Factorized(items.codes[rows], items.uniques)
        rater_fact = Factorized(rater_fact.codes[rows], rater_fact.uniques)
        label_codes = label_codes[rows]
        row_groups = _subset_groups(row_groups, rows)
    ratings = sort_ratings(items, rater_fact, row_groups, read.duplicates, item, rater)
    if len(rater_fact.uniques) < min_raters:
        raise too_few_raters(min_raters, rater_fact.uniques, rater)
    return LongRatings(items, rater_fact, label_codes, cats, ordered, ratings, rows, row_groups)


def _prepare_long(
    frame: Frame,
    names: list[Hashable],
    raters: Any,
    by_list: list[Hashable],
    read: ReadSpec,
    min_raters: int,
    min_overlap: int | None = None,
) -> Prepared:
    long = read_long(frame, names, raters, by_list, read, min_raters)
    ratings, rater_fact, label_codes, cats = long.ratings, long.raters, long.labels, long.categories
    label = cast(LongLayout, read.layout).label
    n_raters = len(rater_fact.uniques)
    labeled = label_codes[ratings.order] >= 0
    rated = ratings.order if labeled.all() else ratings.order[labeled]
    rated_unit = ratings.unit[rated]
    n_rating_pairs = _crowd.rating_pairs(rated_unit, ratings.n_units)
    if _crowd.use_crowd(n_raters, ratings.n_units, n_rating_pairs):
        unit_groups = ratings.unit_groups
        source = _crowd.CrowdCounts(
            rater_fact.codes[rated],
            rated_unit,
            label_codes[rated],
            unit_groups.codes,
            n_raters,
            unit_groups.n_groups,
            len(cats),
        )
        groups = Groups(None, unit_groups.n_groups, unit_groups.first_row)
        return Prepared(
            frame,
            list(rater_fact.uniques),
            np.zeros((n_raters, 0), np.int8),
            cats,
            groups,
            by_list,
            source=source,
            min_overlap=min_overlap,
            ordered=long.ordered,
            label_columns=[label],
        )
    wide = long_to_wide(long.items, rater_fact, label_codes, long.row_groups, ratings=ratings)
    return Prepared(
        frame,
        list(rater_fact.uniques),
        wide.codes,
        cats,
        wide.groups,
        by_list,
        min_overlap=min_overlap,
        ordered=long.ordered,
        label_columns=[label],
    )


def _subset_groups(groups: Groups, idx: np.ndarray) -> Groups:
    if groups.codes is None:
        return groups
    codes = groups.codes[idx]
    n = groups.n_groups
    present = np.bincount(codes, minlength=n) > 0
    lookup = np.cumsum(present) - 1
    first = groups.first_row[present]
    return Groups(lookup[codes], int(present.sum()), first)


def _sorted_ids(fact: Factorized) -> Factorized:
    """Rater ids in sorted order (order of appearance when they cannot be sorted)."""
    try:
        order = sorted(range(len(fact.uniques)), key=lambda i: fact.uniques[i])
    except TypeError:
        return fact
    rank = np.empty(len(order) + 1, dtype=np.intp)
    rank[np.asarray(order, dtype=np.intp)] = np.arange(len(order))
    rank[-1] = -1
    return Factorized(rank[fact.codes], [fact.uniques[i] for i in order])


def _select_ids(fact: Factorized, wanted: list[Hashable], column: Hashable) -> Factorized:
    err = missing_columns(wanted, fact.uniques, f"rater id in column {column!r}")
    if err is not None:
        raise err
    position = {u: i for i, u in enumerate(fact.uniques)}
    lookup = np.full(len(fact.uniques) + 1, -1, dtype=np.intp)
    for new, rid in enumerate(wanted):
        lookup[position[rid]] = new
    return Factorized(lookup[fact.codes], list(wanted))


@dataclass
class ItemCodes:
    """One part's items: label codes ``(n_raters, n_items)``, group codes, group keys."""

    raters: list[Hashable]
    categories: list[Any]
    codes: np.ndarray
    group: np.ndarray | None
    keys: Any
    by: list[Hashable]
    ordered: bool = False
    label_columns: Sequence[Hashable] = ()

    @classmethod
    def of(cls, prep: Any) -> ItemCodes:
        """Take the codes of a prepared part (dense: the crowd path keeps no codes)."""
        if prep.source is not None:
            raise KappaFrameError(
                "this statistic needs every rating of every item, but this input is "
                "counted per rater pair (the sparse path for many raters with few items "
                "each); pass the wide layout, or fewer raters per call."
            )
        keys = group_keys(prep)
        return cls(
            prep.raters,
            prep.categories,
            prep.codes,
            prep.groups.codes,
            keys,
            prep.by,
            prep.ordered,
            prep.label_columns,
        )


class KeysFrame:
    """Renders with stored group keys (what a stacked or counted input prepares)."""

    def __init__(self, keys: Any, output: str) -> None:
        self.keys = keys
        self.output = output

    def render(self, table: Table) -> Any:
        return render(table, self.keys, self.output)


def stack_items(parts: Sequence[ItemCodes], output: str, min_overlap: int | None = None) -> Any:
    """One prepared input from the parts' item codes: raters, categories, groups aligned."""
    parts = list(parts)
    raters = merge_order([p.raters for p in parts], "rater")
    categories = merge_order([p.categories for p in parts], "category")
    keys, group_maps = merge_keys(parts)
    n_groups = n_groups_of(keys, parts[0].by)
    rater_pos = {x: i for i, x in enumerate(raters)}
    cat_pos = {x: i for i, x in enumerate(categories)}
    n_items = sum(p.codes.shape[1] for p in parts)
    codes = np.full((len(raters), n_items), -1, dtype=code_dtype(len(categories)))
    group = np.zeros(n_items, dtype=np.intp)
    start = 0
    for part, gmap in zip(parts, group_maps, strict=True):
        stop = start + part.codes.shape[1]
        rows = np.array([rater_pos[r] for r in part.raters], dtype=np.intp)
        lookup = np.array([cat_pos[c] for c in part.categories] + [-1], dtype=codes.dtype)
        codes[rows, start:stop] = lookup[part.codes]
        if part.group is not None:
            group[start:stop] = gmap[part.group]
        start = stop
    groups = Groups(group if parts[0].by else None, n_groups, np.arange(n_groups))
    return Prepared(
        cast(Any, KeysFrame(keys, output)),
        raters,
        codes,
        categories,
        groups,
        parts[0].by,
        min_overlap=min_overlap,
        ordered=all(p.ordered for p in parts),
        label_columns=parts[0].label_columns,
    )


def distinct_labels(
    frame: Any,
    columns: Sequence[Hashable],
    rater: Hashable | None,
    inferred: bool = False,
    sets: SetLabels | None = None,
) -> dict[Any, Any]:
    """Per column of an adapter: distinct labels and declared order; the rater ids.

    ``inferred``: the columns were not named by the caller, and must look like labels.
    ``sets``: the labels are sets (one per distinct set).
    """
    facts = {col: read_labels(frame, col, sets) for col in columns}
    out: dict[Any, Any] = {col: (fact.uniques, fact.declared) for col, fact in facts.items()}
    out["__raters__"] = frame.labels(rater).uniques if rater is not None else []
    if inferred and sets is None:  # labelled rows, for the rule over the whole input
        out["__labelled__"] = {c: int(np.count_nonzero(f.codes >= 0)) for c, f in facts.items()}
    return out


def merge_categories(
    found: Iterable[dict[Any, Any]], columns: Sequence[Hashable], sets: Any = None
) -> list[Any]:
    """One category index from the parts' distinct labels, as one frame would give it.

    ``sets``: the labels are sets (``kappaframe._encode.sets``).
    """
    found = list(found)
    merged: dict[Hashable, Factorized] = {}
    for col in columns:
        uniques = list(dict.fromkeys(x for f in found for x in f[col][0]))
        declared = [f[col][1] for f in found if f[col][1] is not None]
        if any(list(d) != list(declared[0]) for d in declared[1:]):
            raise KappaFrameError(
                f"column {col!r} declares different category orders in different parts; "
                f"pass {arg('categories', ...)} (or, in Dask, make the categories known).",
                option="categories",
            )
        merged[col] = Factorized(
            np.zeros(0, dtype=np.intp), uniques, list(declared[0]) if declared else None
        )
    return shared_categories(merged, None) if sets is None else set_categories(merged)


def merge_keys(parts: Sequence[Any]) -> tuple[Any, list[np.ndarray]]:
    """Sort the union of the parts' group keys; say, per part, where its groups went."""
    first = parts[0]
    if not first.by:
        return None, [np.zeros(1, dtype=np.intp) for _ in parts]
    if all(same_keys(first.keys, p.keys) for p in parts[1:]):
        ident = np.arange(len(first.keys), dtype=np.intp)
        return first.keys, [ident for _ in parts]
    stacked = concat([p.keys for p in parts])
    frame = cast(Frame, eager_adapter(stacked))
    frame.load(list(first.by))
    groups = encode_groups([frame.keys(b) for b in first.by], frame.n_rows)
    codes = groups.codes if groups.codes is not None else np.zeros(frame.n_rows, np.intp)
    keys = take(stacked, first.by, groups.first_row[: groups.n_groups])
    bounds = np.cumsum([0] + [len(p.keys) for p in parts])
    return keys, [codes[bounds[i] : bounds[i + 1]] for i in range(len(parts))]


def same_keys(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if type(a) is not type(b) or len(a) != len(b):
        return False
    try:
        return bool(a.equals(b))
    except Exception:  # pragma: no cover - exotic frames compare by merging instead
        return False


def n_groups_of(keys: Any, by: list[Hashable]) -> int:
    return 1 if not by else len(keys)


def group_keys(prep: Prepared) -> Any:
    """The group keys of a prepared eager frame: one row per group, sorted; None without ``by``."""
    if not prep.by:
        return None
    first_rows = prep.groups.first_row[: prep.groups.n_groups]
    return take(prep.frame.frame, prep.by, first_rows)  # type: ignore[attr-defined]
