"""Set-valued labels -> one category per distinct set. NumPy only.

A rater who gives an item several labels (tags, intents, medical codes) gives a set. The
adapters of ``kappaframe._frames`` factorize a column of such cells as they come (text
with a separator, or collections made hashable); here the distinct values are turned into
one canonical form each, a sorted tuple of labels, and values that name the same set
(``"b|a"`` and ``"a|b"``, ``["a", "b"]`` and ``("b", "a")``) share one code. Only the
distinct values are split and sorted, never every cell.

What a cell means:

- a collection (``set``, ``frozenset``, ``list``, ``tuple``, a 1-D array; a polars
  ``List``): the set of its elements (repeats count once). An empty one is the empty
  set: "no labels", a category like any other.
- text, with a separator given: the labels between the separators; the empty string is
  the empty set. Without a separator, text is refused: a plain string where sets are
  expected is never split by guessing.
- a number or boolean, with a separator given: the set of that one label (a file reader
  reads a column whose cells hold no separator as numbers); without one, refused.
- missing (None, NaN, pd.NA, null): missing, as everywhere (no rating), not the empty set.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import KappaFrameError, KappaFrameTypeError, arg
from .codes import Factorized, shared_categories, small_codes

__all__ = [
    "COLLECTIONS",
    "SetLabels",
    "as_hashable",
    "canonical_sets",
    "check_multi_sep",
    "indicator_pairs",
    "indicators",
    "set_categories",
    "vocabulary",
]

#: The Python cells read as sets (besides 1-D NumPy arrays, which Parquet lists become).
COLLECTIONS = (set, frozenset, list, tuple)


@dataclass(frozen=True)
class SetLabels:
    """How to read set-valued label cells: ``sep`` splits text (``None``: collections only)."""

    sep: str | None = None


def check_multi_sep(multi_sep: Any) -> str | None:
    """``multi_sep`` must be a non-empty string (or ``None``)."""
    if multi_sep is None:
        return None
    if not isinstance(multi_sep, str) or not multi_sep:
        raise KappaFrameError(
            f"{arg('multi_sep')} must be a non-empty string, the separator written between "
            f"the labels of one cell (e.g. '|'); got {multi_sep!r}.",
            option="multi_sep",
        )
    return multi_sep


def as_hashable(value: Any, name: Hashable) -> Any:
    """A cell with a collection made hashable (a ``frozenset``); other cells as they are."""
    if type(value) is list or type(value) is set:  # the usual cells, without the checks below
        try:
            return frozenset(value)
        except TypeError:
            pass
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if not isinstance(value, (set, list, tuple)):
        return value
    try:
        return frozenset(value)
    except TypeError:
        raise KappaFrameTypeError(
            f"column {name!r} has the set {_shown(value)}, whose elements are not all "
            "single labels (numbers, strings or booleans): a set holds labels, not lists."
        ) from None


def _missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    try:
        return bool(value != value)  # NaN-like scalars (pd.NA compares as NA: TypeError)
    except TypeError:
        return True


def _kind(value: Any) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "boolean"
    if isinstance(value, numbers.Number):
        return "number"
    if isinstance(value, str):
        return "string"
    return type(value).__name__


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _one_set(value: Any, name: Hashable, sep: str | None) -> tuple[Any, ...]:
    """The labels of one distinct cell value, as a sorted tuple."""
    if type(value) is frozenset and all(type(x) is str for x in value):
        return tuple(sorted(value))  # the usual cell: text labels, nothing to check
    if isinstance(value, str):
        if sep is None:
            printed = value[:1] + value[-1:] in ("[]", "{}", "()")
            raise KappaFrameError(
                f"column {name!r} holds text ({_shown(value)}) where sets of labels are "
                f"expected; say how the labels of a cell are separated with "
                f"{arg('multi_sep', '|')}, or give each cell as a list or set."
                + (
                    " It looks like a list printed as text: Dask turns list cells into "
                    "text unless dask.config.set({'dataframe.convert-string': False}) is "
                    "set before the frame is made."
                    if printed
                    else ""
                ),
                option="multi_sep",
            )
        if value == "":
            return ()
        pieces = value.split(sep)
        for piece in pieces:
            if piece == "" or piece != piece.strip():
                raise KappaFrameError(
                    f"column {name!r} has the cell {_shown(value)}, which splits on "
                    f"{sep!r} into {pieces!r}: an empty label or one with spaces around it. "
                    f"Write the labels without spaces around the separator (or include the "
                    f"spaces in {arg('multi_sep')}), and no separator at the ends.",
                    option="multi_sep",
                )
        elements: Any = pieces
    elif isinstance(value, frozenset | set | list | tuple):
        elements = value
    elif isinstance(value, np.ndarray):
        elements = value.tolist()
    elif sep is not None and isinstance(value, numbers.Number | np.bool_):
        elements = [value.item() if isinstance(value, np.generic) else value]
    else:
        raise KappaFrameTypeError(
            f"column {name!r} holds {type(value).__name__} values (e.g. {_shown(value)}) "
            "where sets of labels are expected: give each cell as a list or set of labels, "
            f"or as text with the labels separated by {arg('multi_sep', '|')}."
        )
    kinds: dict[str, Any] = {}
    for element in elements:
        if not isinstance(element, Hashable) or isinstance(element, frozenset | tuple):
            raise KappaFrameTypeError(
                f"column {name!r} has the set {_shown(value)}, whose element "
                f"{_shown(element)} is not a single label (a number, string or boolean)."
            )
        if _missing(element):
            raise KappaFrameError(
                f"column {name!r} has the set {_shown(value)}, with a missing value in it; "
                "a missing rating is a missing cell (None), no labels an empty set. Drop "
                "the missing element first."
            )
        kinds.setdefault(_kind(element), element)
    if len(kinds) > 1:
        examples = ", ".join(f"{v!r} ({k})" for k, v in kinds.items())
        raise KappaFrameError(
            f"column {name!r} has the set {_shown(value)}, which mixes label types that "
            f"cannot be compared: {examples}. Convert the labels to one type first."
        )
    distinct = {
        element.item() if isinstance(element, np.generic) else element for element in elements
    }
    return tuple(sorted(distinct))


def canonical_sets(fact: Factorized, name: Hashable, sets: SetLabels) -> Factorized:
    """The distinct values of a factorized column as sets: one code per distinct set.

    ``fact`` is the column as the adapter factorized it (collections made hashable with
    ``as_hashable``); its uniques become sorted tuples of labels, and the codes of
    values that name the same set are merged. No declared order: a set has none.
    """
    canonical = [_one_set(u, name, sets.sep) for u in fact.uniques]
    position: dict[tuple[Any, ...], int] = {}
    lookup = np.empty(len(canonical) + 1, dtype=np.intp)
    lookup[-1] = -1
    for i, labels in enumerate(canonical):
        lookup[i] = position.setdefault(labels, len(position))
    uniques = list(position)
    codes = np.asarray(fact.codes)
    if len(uniques) != len(canonical):
        codes = lookup[codes]
    return Factorized(small_codes(codes, len(uniques)), uniques)


def set_categories(
    columns: dict[Hashable, Factorized], categories: Sequence[Any] | None = None
) -> list[tuple[Any, ...]]:
    """The one index of distinct sets across the label columns, sorted.

    ``categories`` (sets found beforehand, e.g. in a first pass over parts): every set
    must be in it. Sets whose labels cannot be compared (numbers in one column, text in
    another) are refused, naming the columns.
    """
    if categories is not None:
        return shared_categories(columns, categories)
    distinct: dict[tuple[Any, ...], None] = {}
    kinds: dict[str, Hashable] = {}
    for name, col in columns.items():
        distinct.update(dict.fromkeys(col.uniques))
        for labels in col.uniques[:1000]:
            for label in labels[:1]:
                kinds.setdefault(_kind(label), name)
    try:
        return sorted(distinct)
    except TypeError:
        shown = "; ".join(f"{kind} labels in {name!r}" for kind, name in kinds.items())
        raise KappaFrameError(
            f"the label columns hold sets of labels that cannot be compared: {shown}. "
            "Convert the labels to one type first (e.g. .astype(str) on the cells' labels)."
        ) from None


def vocabulary(categories: Sequence[tuple[Any, ...]], labels: Sequence[Any] | None) -> list[Any]:
    """The single labels of the set categories: ``labels`` if given, else sorted.

    Every label in a set must be in ``labels`` when it is given.
    """
    found: dict[Any, None] = {}
    for category in categories:
        found.update(dict.fromkeys(category))
    if labels is not None:
        chosen = list(labels)
        allowed = set(chosen)
        extra = [x for x in found if x not in allowed]
        if extra:
            shown = chosen if len(chosen) <= 20 else [*chosen[:20], "..."]
            raise KappaFrameError(
                f"label {extra[0]!r} is in the ratings but not in {arg('categories')} "
                f"{shown}; add it, or drop it from the sets first.",
                option="categories",
            )
        return chosen
    try:
        return sorted(found)
    except TypeError:
        kinds: dict[str, Any] = {}
        for x in found:
            kinds.setdefault(_kind(x), x)
        examples = ", ".join(f"{v!r} ({k})" for k, v in kinds.items())
        raise KappaFrameError(
            f"the sets hold label types that cannot be compared: {examples}. Convert the "
            f"labels to one type, or list them in order with {arg('categories', ...)}.",
            option="categories",
        ) from None


def indicator_pairs(
    categories: Sequence[tuple[Any, ...]], labels: Sequence[Any]
) -> tuple[np.ndarray, np.ndarray]:
    """``indicators``' nonzero cells: the (set, label) pairs, sorted by set then label."""
    where = {label: i for i, label in enumerate(labels)}
    rows = np.asarray([k for k, category in enumerate(categories) for _ in category], np.intp)
    cols = np.asarray([where[x] for category in categories for x in category], np.intp)
    order = np.lexsort((cols, rows))
    return rows[order], cols[order]


def indicators(categories: Sequence[tuple[Any, ...]], labels: Sequence[Any]) -> np.ndarray:
    """``(K, L)`` int8: 1 where set category k holds label l."""
    where = {label: i for i, label in enumerate(labels)}
    out = np.zeros((len(categories), len(labels)), dtype=np.int8)
    rows = [k for k, category in enumerate(categories) for _ in category]
    cols = [where[x] for category in categories for x in category]
    out[np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp)] = 1
    return out
