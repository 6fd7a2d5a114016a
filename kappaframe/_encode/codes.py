"""Labels and group keys -> small integer codes. NumPy (and pandas' hash factorize) only.

The backend adapters turn each native column into a ``Factorized`` (local codes plus
the distinct values they stand for); everything after that is shared: one category index
across all rater columns, one group index across all ``by`` columns, and the long layout
(one row per rating) pivoted into the wide code matrix the kernel reads.
"""

from __future__ import annotations

import datetime
import numbers
import re
import sys
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._count.kernel import code_dtype
from .._errors import KappaFrameError, MissingTokenWarning, arg, user_stacklevel, ways

__all__ = [
    "Factorized",
    "Groups",
    "canonical_order",
    "codes_of_offsets",
    "encode_groups",
    "encode_labels",
    "is_index_column",
    "long_to_wide",
    "needs_order",
    "offset_codes",
    "order_is_known",
    "require_order",
    "shared_categories",
    "small_codes",
    "sort_ratings",
    "warn_missing_tokens",
]


@dataclass(frozen=True)
class Factorized:
    """One column as codes into its own distinct values.

    ``codes`` are small signed integers with ``-1`` for a missing label; ``uniques``
    are Python scalars; ``declared`` is the category order the column's dtype declares
    (an ordered pandas Categorical or a polars Enum), else ``None``.
    """

    codes: np.ndarray
    uniques: list[Any]
    declared: list[Any] | None = None


def small_codes(codes: Any, n_uniques: int) -> np.ndarray:
    """Codes in the smallest signed dtype that holds ``-1 .. n_uniques - 1``.

    Every rater column is held as codes until the shared category index is known, so
    keeping them small (int8 for up to 126 labels) keeps the peak memory of a call near
    the size of the input.
    """
    return np.asarray(codes).astype(code_dtype(n_uniques), copy=False)


#: Whole numbers are coded by their distance from the minimum only below these magnitudes,
#: where every one is exact (floats) and ``value - min`` cannot overflow (integers).
_EXACT = {"f4": 2**24, "f8": 2**53, "i": 2**62, "u": 2**62}

#: Up to this many distinct offsets, one comparison each finds the ones that occur.
_SCAN_SPAN = 16


def offset_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Codes of whole numbers in a narrow range, by their distance from the minimum.

    ``values`` is a 1-D integer or float array (NaN missing). Returns the codes (``-1``
    missing, the smallest dtype) and the distinct values, sorted, that the codes ``0, 1,
    ...`` stand for: what a hash factorize gives, with the values in sorted order, from a
    few passes of arithmetic. ``None`` when a value is not a whole number, is beyond the
    exact range, or the range is longer than the column: hash those instead.
    """
    values = np.asarray(values)
    kind = values.dtype.kind
    limit = _EXACT.get(kind) or _EXACT.get(f"{kind}{values.dtype.itemsize}")
    if limit is None or values.ndim != 1:
        return None
    n = len(values)
    missing = np.isnan(values) if kind == "f" else None
    if n == 0 or (missing is not None and missing.all()):
        return np.full(n, -1, dtype=np.int8), values[:0]
    reduce_min, reduce_max = (np.fmin, np.fmax) if kind == "f" else (np.minimum, np.maximum)
    low, high = reduce_min.reduce(values).item(), reduce_max.reduce(values).item()
    if not -limit < low <= high < limit:  # also refuses infinity
        return None
    span = int(high - low) + 1
    if span > max(n, 1024):
        return None
    dtype = code_dtype(span)  # offsets 0 (missing) .. span
    if missing is not None:
        shifted = values - (low - 1)
        shifted[missing] = 0
        offsets = shifted.astype(dtype)
        if not np.array_equal(offsets, shifted):  # a fraction
            return None
    else:
        offsets = np.empty(n, dtype=dtype)
        np.subtract(values, low - 1, out=offsets, dtype=np.int64, casting="unsafe")
    codes, kept = codes_of_offsets(offsets, span)
    return codes, (kept + low).astype(values.dtype)


def codes_of_offsets(offsets: np.ndarray, span: int) -> tuple[np.ndarray, np.ndarray]:
    """Codes from offsets ``0`` (missing) and ``1 .. span`` (the minimum, ..., the maximum).

    Returns the codes (``-1`` missing; ``offsets`` is reused) and the offsets minus one
    that occur, sorted: the values the codes stand for, less the minimum. Offsets ``1``
    and ``span`` must occur.
    """
    if span <= _SCAN_SPAN:  # one comparison per offset
        inner = [bool((offsets == v).any()) for v in range(2, span)]
        present = np.array([True, *inner, True][:span])
    else:
        present = np.bincount(offsets, minlength=span + 1)[1:] > 0
    kept = np.flatnonzero(present)
    if len(kept) == span:
        offsets -= 1
        return offsets, kept
    lookup = np.empty(span + 1, dtype=code_dtype(len(kept)))
    lookup[0] = -1
    lookup[1:] = np.cumsum(present) - 1
    return lookup.take(offsets), kept


def compact_categorical(codes: np.ndarray, categories: list[Any]) -> Factorized:
    """Keep only the categories that occur (for an unordered categorical column)."""
    codes = np.asarray(codes)
    used = np.bincount(codes[codes >= 0], minlength=len(categories)) > 0
    if used.all():
        return Factorized(small_codes(codes, len(categories)), list(categories))
    remap = np.append(np.cumsum(used) - 1, -1)
    kept = [c for c, keep in zip(categories, used, strict=True) if keep]
    return Factorized(small_codes(remap[codes], len(kept)), kept)


def _kind(value: Any) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "boolean"
    if isinstance(value, numbers.Number):
        return "number"
    if isinstance(value, str):
        return "string"
    return type(value).__name__


#: From this many distinct labels on, labels of one Python type are checked, merged and
#: looked up as arrays (the same answers as one label at a time: float labels hash and
#: compare as their values do in NumPy).
MANY_LABELS = 1024


def floats_of(values: Sequence[Any]) -> np.ndarray | None:
    """``values`` as float64 when they are many and every one a Python float; else None."""
    if len(values) < MANY_LABELS or set(map(type, values)) != {float}:
        return None
    array = np.array(values, dtype=np.float64)
    return None if np.isnan(array).any() else array


def _column_kind(name: Hashable, uniques: Sequence[Any]) -> str | None:
    if len(uniques) >= MANY_LABELS and len(set(map(type, uniques))) == 1:
        return _kind(uniques[0])  # one type is one kind
    kinds: dict[str, Any] = {}
    for value in uniques:
        kinds.setdefault(_kind(value), value)
    if len(kinds) > 1:
        examples = ", ".join(f"{v!r} ({k})" for k, v in kinds.items())
        raise KappaFrameError(
            f"column {name!r} mixes label types that cannot be compared: {examples}. "
            + ways(
                "Convert the column to one type first, e.g. .astype(str).",
                "Write the column's labels as one type in the file, or list them with "
                f"{arg('categories', ...)}.",
            )
        )
    return next(iter(kinds), None)


def shared_categories(
    columns: dict[Hashable, Factorized],
    categories: Sequence[Any] | None = None,
    option: str = "categories",
) -> list[Any]:
    """The one category index shared by every rater column.

    ``categories`` if given (every label must be in it); else the order an ordered
    Categorical / Enum declares (all declaring columns must agree); else the sorted
    distinct labels of all columns.
    """
    by_kind: dict[str, list[Hashable]] = {}
    for name, col in columns.items():
        kind = _column_kind(name, col.declared if col.declared is not None else col.uniques)
        if kind is not None:
            by_kind.setdefault(kind, []).append(name)
    if categories is None and len(by_kind) > 1:
        described = "; ".join(
            f"{kind} in {', '.join(repr(c) for c in cols[:5])}{', ...' if len(cols) > 5 else ''}"
            for kind, cols in by_kind.items()
        )
        raise KappaFrameError(
            f"rater columns hold label types that cannot be compared: {described}. "
            + ways(
                "Convert them to one type (e.g. .astype(str) on the numeric ones), or pass ",
                "Write them as one type in the file, or pass ",
            )
            + f"{arg(option, ...)} listing every label."
        )

    if categories is not None:
        cats = list(categories)
        _check_unique_categories(cats, option)
        source = arg(option)
    else:
        declared = {name: col.declared for name, col in columns.items() if col.declared is not None}
        if declared:
            names = list(declared)
            cats = list(declared[names[0]])
            for other in names[1:]:
                if list(declared[other]) != cats:
                    raise KappaFrameError(
                        f"columns {names[0]!r} and {other!r} declare different category orders "
                        f"({cats} vs {list(declared[other])}); pass {arg('categories', ...)} "
                        "to choose one."
                    )
            source = f"the ordered categories of column {names[0]!r}"
        else:
            merged = _merged_floats([col.uniques for col in columns.values()])
            if merged is not None:
                return merged
            distinct: dict[Any, None] = {}
            for col in columns.values():
                distinct.update(dict.fromkeys(col.uniques))
            try:
                return sorted(distinct)
            except TypeError as err:  # pragma: no cover - guarded by the kind check above
                raise KappaFrameError(
                    f"labels cannot be sorted: {err}; pass {arg('categories', ...)}."
                ) from None

    allowed = set(cats)
    for name, col in columns.items():
        for value in col.uniques:
            if value not in allowed:
                shown = cats if len(cats) <= 20 else [*cats[:20], "..."]
                raise KappaFrameError(
                    f"column {name!r} has label {value!r}, which is not in {source} {shown}. "
                    f"Add it to {arg(option)}, "
                    + ways(
                        "or recode or drop those rows first.",
                        f"treat it as missing with {arg('drop_labels', 'LABEL')}, or rename it "
                        f"with {arg('map', 'LABEL=NEW')}.",
                    )
                )
    return cats


_INDEX_COLUMN = re.compile(r"__index_level_\d+__")


def canonical_order(categories: Sequence[Any]) -> np.ndarray:
    """The positions of ``categories`` in the order of the labels themselves.

    Labels of one kind sort as they are (numbers numerically, text alphabetically), label
    sets by their sorted members; labels that cannot be compared sort by type, then text.
    What a random draw reads in this order depends on the labels, not on how a backend or
    a declared order coded them, so every way in to the same ratings draws alike.
    """
    values = list(categories)
    if not any(isinstance(v, (set, frozenset)) for v in values):
        try:
            return np.array(sorted(range(len(values)), key=values.__getitem__), dtype=np.intp)
        except TypeError:
            pass
    keys = [_label_key(v) for v in values]
    return np.array(sorted(range(len(values)), key=keys.__getitem__), dtype=np.intp)


def _label_key(value: Any) -> tuple[str, Any]:
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(_label_key(v) for v in value)))
    if isinstance(value, np.generic):
        value = value.item()
    return (_kind(value), repr(value))


def is_index_column(name: Hashable) -> bool:
    """Whether ``name`` is an index column that pandas writes into files (never a rater)."""
    return isinstance(name, str) and _INDEX_COLUMN.fullmatch(name) is not None


#: Labels that often stand for a missing value in exported files (R writes NA, Excel
#: #N/A, databases NULL). They are labels unless the caller says they are missing.
MISSING_TOKENS = frozenset(
    ["NA", "N/A", "n/a", "#N/A", "NaN", "nan", "NULL", "null", "None", "<NA>", "missing"]
)


def warn_missing_tokens(
    columns: dict[Hashable, Factorized], categories: Sequence[Any] | None = None
) -> None:
    """Say once when a label is a usual missing token (counted as a category).

    Labels listed in ``categories`` are the caller's own: no warning for them.
    """
    declared = set(categories) if categories is not None else set()
    found: dict[str, list[Hashable]] = {}
    for name, col in columns.items():
        types = set(map(type, col.uniques)) if len(col.uniques) >= MANY_LABELS else {str}
        if not any(issubclass(t, str) for t in types):
            continue  # no text, no token
        for value in col.uniques:
            if isinstance(value, str) and value in MISSING_TOKENS and value not in declared:
                found.setdefault(value, []).append(name)
    if not found:
        return
    where = "; ".join(
        f"{token!r} in {', '.join(repr(c) for c in cols[:5])}{', ...' if len(cols) > 5 else ''}"
        for token, cols in found.items()
    )
    tokens = list(found)
    warnings.warn(
        f"labels that often mean missing are counted as categories: {where}. Only an empty "
        "cell is missing; if these are missing values, name them: "
        + ways(
            f"null_values={tokens!r} (a file read by kf.scan), or replace them with None in "
            "the frame.",
            f"{arg('null_values', tokens)}.",
        ),
        MissingTokenWarning,
        stacklevel=user_stacklevel(),
    )


def order_is_known(categories: Sequence[Any], declared: bool) -> bool:
    """Whether the order of ``categories`` was given rather than guessed.

    It was given when the caller declared it (``categories=``, an ordered pandas
    Categorical, a polars Enum) or when every label has an order of its own: numbers
    (booleans included), dates and times. Text sorted alphabetically is a guess.
    """
    if declared:
        return True
    return all(_orders_itself(c) for c in categories)


def _orders_itself(value: Any) -> bool:
    if isinstance(value, (numbers.Real, np.datetime64, np.timedelta64)):
        return True
    return isinstance(value, (datetime.date, datetime.time, datetime.timedelta))


def needs_order(weights: Any, k: int) -> bool:
    """Whether ``weights`` over ``k`` categories give different numbers in another order.

    ``None`` (plain agreement) never; a pandas frame labelled by category names its own
    order; named weights ("linear", "quadratic", Gwet's) not for two categories, where
    every order gives the same disagreement; a caller's vector or matrix for two or more.
    """
    if weights is None:
        return False
    pd = sys.modules.get("pandas")  # a frame of weights implies pandas is imported
    if pd is not None and isinstance(weights, pd.DataFrame):
        return False
    if isinstance(weights, str):
        return k > 2
    return k > 1


def require_order(
    categories: Sequence[Any],
    *,
    declared: bool,
    columns: Sequence[Hashable],
    weights: Any = None,
    why: str | None = None,
    option: str = "categories",
) -> None:
    """Refuse to sort text labels into an order that ``weights`` (or ``why``) depend on.

    ``why`` names what needs the order when it is not the weights (e.g. an ordinal
    level). ``columns`` are the columns the labels came from (named in the message);
    ``option`` is the argument that declares the order (``categories``, or ``labels``
    for arrays).
    """
    if why is None:
        if not needs_order(weights, len(categories)):
            return
        why = arg("weights", weights) if isinstance(weights, str) else "a weights matrix"
    if order_is_known(categories, declared):
        return
    text = [c for c in categories if not _orders_itself(c)]
    shown = ", ".join(repr(c) for c in list(categories)[:10])
    more = ", ..." if len(categories) > 10 else ""
    where = ", ".join(repr(c) for c in list(columns)[:5]) + (", ..." if len(columns) > 5 else "")
    source = (
        f"the labels of column{'s' if len(columns) != 1 else ''} {where}"
        if columns
        else "the labels"
    )
    raise KappaFrameError(
        f"{why} needs the order of the categories, and {source} are text "
        f"({text[0]!r}) with no declared order: sorting them alphabetically ([{shown}{more}]) "
        f"would guess it. Pass {arg(option, ...)} listing every label in order"
        + ways(", or use an ordered pandas Categorical or a polars Enum.", "."),
        option=option,
    )


def _check_unique_categories(cats: list[Any], what: str) -> None:
    seen: set[Any] = set()
    for c in cats:
        if _is_missing(c):
            raise KappaFrameError(
                f"{what} contains a missing value ({c!r}); list real labels only."
            )
        if c in seen:
            raise KappaFrameError(f"{what} lists {c!r} more than once.")
        seen.add(c)


def _is_missing(value: Any) -> bool:
    pd = sys.modules.get("pandas")  # pd.NA can only come from an imported pandas
    if value is None or (pd is not None and value is pd.NA):
        return True
    return isinstance(value, float) and value != value


def _merged_floats(uniques: Sequence[Sequence[Any]]) -> list[float] | None:
    """``sorted(dict.fromkeys(...))`` of many float labels, as arrays; else None.

    Equal to the dict and the sort label for label: of ``0.0`` and ``-0.0`` (one key) the
    first seen is kept, as a dict keeps it.
    """
    arrays = []
    for values in uniques:
        array = floats_of(values)
        if array is None:
            return None
        arrays.append(array)
    if not arrays:
        return None
    merged = np.unique(np.concatenate(arrays))
    zero = np.flatnonzero(merged == 0)
    if len(zero):
        merged[zero] = next(a[a == 0][0] for a in arrays if (a == 0).any())
    return list(merged.tolist())


def _float_lookup(
    categories: np.ndarray, sorter: np.ndarray | None, uniques: Sequence[Any]
) -> np.ndarray | None:
    """Position of each of ``uniques`` in float ``categories`` (None: not all found).

    ``sorter`` sorts ``categories`` (None: they are sorted). The labels are looked up in
    sorted order, so the search walks the categories once rather than at random.
    """
    values = floats_of(uniques)
    if values is None:
        return None
    order = np.argsort(values, kind="stable")
    ordered = categories if sorter is None else categories[sorter]
    at = np.minimum(np.searchsorted(ordered, values[order]), len(ordered) - 1)
    found = np.empty(len(values), dtype=np.intp)
    found[order] = at if sorter is None else sorter[at]
    return found if np.array_equal(categories[found], values) else None


def encode_labels(columns: Sequence[Factorized], categories: Sequence[Any]) -> np.ndarray:
    """Codes of every rater column over ``categories``: shape (n_raters, n_items), -1 missing."""
    dtype = code_dtype(len(categories))
    n_items = len(columns[0].codes) if columns else 0
    out = np.empty((len(columns), n_items), dtype=dtype)
    floats = floats_of(categories)
    sorter = None
    if floats is not None and not (floats[1:] > floats[:-1]).all():
        sorter = np.argsort(floats, kind="stable")
    index: dict[Any, int] | None = None
    for r, col in enumerate(columns):
        found = None if floats is None else _float_lookup(floats, sorter, col.uniques)
        if found is not None:
            lookup = np.append(found, -1).astype(dtype)
        else:
            if index is None:
                index = {c: i for i, c in enumerate(categories)}
            lookup = np.array([index[u] for u in col.uniques] + [-1], dtype=dtype)
        if np.array_equal(lookup[:-1], np.arange(len(col.uniques))):
            out[r] = col.codes  # the codes already number the shared categories: a copy
        else:
            np.take(lookup, col.codes, out=out[r])
    return out


@dataclass(frozen=True)
class Groups:
    """Group code of each row, and the first row of each group.

    Codes run ``0 .. n_groups - 1`` in sorted key order; the first rows let a backend read
    the key values back from the frame with their native types.
    """

    codes: np.ndarray | None
    n_groups: int
    first_row: np.ndarray


def encode_groups(keys: Sequence[tuple[np.ndarray, int]], n_rows: int) -> Groups:
    """Combine sorted key codes into groups sorted by the keys (missing keys last).

    ``keys`` holds, per ``by`` column, codes in sorted key order (``-1`` = missing) and the
    number of distinct keys. Missing keys form a group of their own: no row is dropped.
    """
    if not keys:
        return Groups(None, 1, np.zeros(1, dtype=np.intp))
    if len(keys) == 1 and n_rows and keys[0][1] and keys[0][0].min() >= 0:
        codes, n_unique = keys[0]  # one key, none missing: its codes, if every one occurs
        first = np.full(n_unique, -1, dtype=np.intp)
        first[codes[::-1]] = np.arange(n_rows - 1, -1, -1, dtype=np.intp)
        if first.min() >= 0:
            return Groups(np.asarray(codes, dtype=np.intp), n_unique, first)
    combined = np.zeros(n_rows, dtype=np.int64)
    size = 1
    for codes, n_unique in keys:
        radix = n_unique + 1
        if size * radix > 2**62:
            return _groups_by_unique(keys, n_rows)
        combined *= radix
        combined += np.where(codes < 0, n_unique, codes)
        size *= radix
    if size <= max(4 * n_rows, 1024):
        present = np.bincount(combined, minlength=size) > 0
        lookup = np.cumsum(present) - 1
        group = lookup[combined]
        n_groups = int(present.sum())
    else:
        _, group = np.unique(combined, return_inverse=True)
        n_groups = int(group.max()) + 1 if n_rows else 0
    first = np.empty(n_groups, dtype=np.intp)
    first[group[::-1]] = np.arange(n_rows - 1, -1, -1, dtype=np.intp)
    return Groups(group.astype(np.intp), n_groups, first)


def _groups_by_unique(keys: Sequence[tuple[np.ndarray, int]], n_rows: int) -> Groups:
    stacked = np.stack([np.where(c < 0, n, c) for c, n in keys], axis=1)
    _, first, group = np.unique(stacked, axis=0, return_index=True, return_inverse=True)
    return Groups(group.reshape(-1).astype(np.intp), len(first), first.astype(np.intp))


@dataclass(frozen=True)
class Wide:
    """The long layout pivoted into codes of shape (n_raters, n_units).

    ``groups`` holds the group of each unit and an input row per group (to read the
    group keys back).
    """

    codes: np.ndarray
    groups: Groups


@dataclass(frozen=True)
class Ratings:
    """The long layout's rows as units (an item within its group), deduplicated.

    ``unit`` is the unit of every input row; ``order`` the rows kept, sorted by unit
    and then rater (one rating per unit and rater); ``unit_groups`` the group of each unit.
    """

    unit: np.ndarray
    n_units: int
    order: np.ndarray
    unit_groups: Groups


def sort_ratings(
    items: Factorized,
    raters: Factorized,
    groups: Groups,
    duplicates: str = "raise",
    item_name: Hashable = "item",
    rater_name: Hashable = "rater",
) -> Ratings:
    """Units of the long layout's rows, and the rows sorted by (unit, rater), one per pair.

    Rows with a missing item or rater id are an error; so is a rater rating a unit twice
    unless ``duplicates`` is ``"first"`` or ``"last"``.
    """
    n_rows = len(items.codes)
    for fact, name in ((items, item_name), (raters, rater_name)):
        bad = np.flatnonzero(fact.codes < 0)
        if bad.size:
            raise KappaFrameError(
                f"column {name!r} is missing on {bad.size} row(s) (first at position "
                f"{int(bad[0])}); every rating needs an item and a rater. Drop those rows first."
            )
    n_items = len(items.uniques)
    n_raters = len(raters.uniques)
    unit_key = items.codes.astype(np.int64)
    if groups.codes is not None:
        unit_key = groups.codes.astype(np.int64) * n_items + unit_key
    unit_groups = encode_groups([(unit_key, int(unit_key.max()) + 1 if n_rows else 0)], n_rows)
    unit = unit_groups.codes if unit_groups.codes is not None else np.zeros(n_rows, np.intp)
    n_units = unit_groups.n_groups if n_rows else 0
    first_row = unit_groups.first_row[:n_units]

    key = unit.astype(np.int64) * n_raters + raters.codes
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    repeated = sorted_key[1:] == sorted_key[:-1]
    keep = order
    if repeated.any():
        if duplicates == "raise":
            pos = order[1:][repeated]
            first = int(order[np.flatnonzero(repeated)[0]])
            n_dup = int(repeated.sum())
            raise KappaFrameError(
                f"rater {raters.uniques[raters.codes[first]]!r} rated item "
                f"{items.uniques[items.codes[first]]!r} more than once (rows {first} and "
                f"{int(pos[0])}); {n_dup} duplicate rating(s) in all. Remove them, or pass "
                f"{arg('duplicates', 'first')} or {arg('duplicates', 'last')} to keep one "
                "rating per item and rater."
            )
        if duplicates == "first":
            keep = order[np.concatenate([[True], ~repeated])]
        elif duplicates == "last":
            keep = order[np.concatenate([~repeated, [True]])]
    if groups.codes is None:
        per_unit = Groups(None, 1, first_row[:1] if n_units else np.zeros(1, np.intp))
    else:
        per_unit = Groups(groups.codes[first_row], groups.n_groups, groups.first_row)
    return Ratings(unit, n_units, keep, per_unit)


def long_to_wide(
    items: Factorized,
    raters: Factorized,
    labels: np.ndarray,
    groups: Groups,
    duplicates: str = "raise",
    item_name: Hashable = "item",
    rater_name: Hashable = "rater",
    ratings: Ratings | None = None,
) -> Wide:
    """Pivot one-row-per-rating into the (rater x unit) code matrix.

    A unit is an item within its group (the same item id in two groups is two units).
    ``labels`` are already encoded over the shared categories. Rows with a missing item or
    rater id are an error; a missing label is a missing rating. ``ratings`` is the result
    of ``sort_ratings`` when the caller has it already.
    """
    if ratings is None:
        ratings = sort_ratings(items, raters, groups, duplicates, item_name, rater_name)
    keep = ratings.order
    wide = np.full((len(raters.uniques), ratings.n_units), -1, dtype=labels.dtype)
    wide[raters.codes[keep], ratings.unit[keep]] = labels[keep]
    return Wide(wide, ratings.unit_groups)


def object_array(values: Sequence[Any]) -> np.ndarray:
    """A 1-D object array of ``values`` (tuples stay single elements)."""
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out
