"""pandas adapter: pandas columns -> codes, and result tables -> pandas frames."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._encode.codes import Factorized, compact_categorical, offset_codes, small_codes
from .._encode.sets import SetLabels, as_hashable, canonical_sets
from .._errors import KappaFrameError, KappaFrameTypeError, ways
from .._schema import MARK, Table

__all__ = ["PandasFrame", "cell_labels", "factorize_keys", "factorize_labels", "factorize_sets"]


def cell_labels(cells: pd.DataFrame, raters: Sequence[Hashable]) -> dict[Hashable, Factorized]:
    """The labels each rater has in pair count cells (``rater_a``/``label_a``, ``_b``)."""
    found = {}
    for r in raters:
        mine = [cells.loc[cells[f"rater_{s}"] == str(r), f"label_{s}"] for s in "ab"]
        found[r] = factorize_labels(pd.concat(mine, ignore_index=True))
    return found


def factorize_labels(series: pd.Series) -> Factorized:
    """Codes (-1 missing) and distinct labels of a pandas Series."""
    _check_arrow_scalar(series)
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        codes = series.cat.codes.to_numpy()
        cats = dtype.categories.tolist()
        if dtype.ordered:
            return Factorized(small_codes(codes, len(cats)), cats, cats)
        return compact_categorical(codes, cats)
    if isinstance(dtype, np.dtype) and dtype.kind in "iuf":
        coded = offset_codes(series.to_numpy())
        if coded is not None:  # whole numbers in a narrow range: no hashing
            codes, values = coded
            return Factorized(codes, values.tolist())
    try:
        codes, uniques = pd.factorize(series, use_na_sentinel=True)
    except TypeError:
        not_scalar = _not_scalar(series)
        if not_scalar is None:
            raise
        raise not_scalar from None
    return Factorized(small_codes(codes, len(uniques)), list(uniques.tolist()))


#: Where sets of labels (a list per cell) are measured: said when a label column holds lists.
SETS_HINT = (
    " For a set of labels per rating, see kappaframe.per_label and overall(..., "
    "method='krippendorff', distance='masi')."
)


def factorize_sets(series: pd.Series, sets: SetLabels) -> Factorized:
    """Codes (-1 missing) and distinct label sets of a column of set-valued labels.

    Cells are collections (lists, sets, tuples, arrays, a pyarrow list column) or, with
    a separator, text; see ``kappaframe._encode.sets``. Hashable cells are factorized at
    once; a column with lists or sets in it is made hashable first, cell by cell.
    """
    if isinstance(series.dtype, pd.CategoricalDtype):
        series = series.astype(object)
    values = series.to_numpy(dtype=object)
    try:
        codes, uniques = pd.factorize(values, use_na_sentinel=True)
    except TypeError:  # lists, sets or arrays in the cells
        hashable = np.empty(len(values), dtype=object)
        hashable[:] = [as_hashable(v, series.name) for v in values]
        codes, uniques = pd.factorize(hashable, use_na_sentinel=True)
    fact = Factorized(small_codes(codes, len(uniques)), list(uniques))
    return canonical_sets(fact, series.name, sets)


def _check_arrow_scalar(series: pd.Series, what: str = "labels") -> None:
    """Refuse a pyarrow list, struct or map column: kappa compares single values."""
    dtype = series.dtype
    if isinstance(dtype, pd.ArrowDtype):
        import pyarrow as pa

        if pa.types.is_nested(dtype.pyarrow_dtype):
            raise KappaFrameTypeError(
                f"column {series.name!r} has dtype {dtype}: {what} must be scalar values "
                "(numbers, strings, booleans, dates), not lists or structs; explode or pick a "
                f"field first, e.g. df.explode({series.name!r})."
            )


def _not_scalar(series: pd.Series, what: str = "labels") -> KappaFrameTypeError | None:
    """The error for a column of lists, dicts, sets or arrays (no hash: no label); else None."""
    for value in series:
        if isinstance(value, Hashable):
            continue
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        return KappaFrameTypeError(
            f"column {series.name!r} holds {type(value).__name__} values (e.g. {shown}): "
            f"{what} must be scalar values (numbers, strings, booleans, dates); explode or "
            f"pick a field first: df.explode({series.name!r}) for lists, "
            f"df[{series.name!r}].str.get(key) for dicts.{SETS_HINT if what == 'labels' else ''}"
        )
    return None


def factorize_keys(series: pd.Series, name: Hashable) -> tuple[np.ndarray, int]:
    """Codes of a group-key column in sorted key order (-1 missing) and the key count.

    An ordered Categorical sorts by its declared order; an unordered one by its values,
    like any other column (and like polars' Categorical): its category list is no order.
    """
    _check_arrow_scalar(series, "group keys")
    if isinstance(series.dtype, pd.CategoricalDtype) and not series.dtype.ordered:
        series = series.astype(series.dtype.categories.dtype)
    try:
        codes, uniques = pd.factorize(series, sort=True, use_na_sentinel=True)
    except TypeError as err:
        not_scalar = _not_scalar(series, "group keys")
        if not_scalar is not None:
            raise not_scalar from None
        raise KappaFrameError(
            f"group column {name!r} holds values that cannot be sorted ({err}); "
            + ways(
                "convert it to one type first, e.g. .astype(str).",
                "write its values as one type in the file.",
            )
        ) from None
    return np.asarray(codes, dtype=np.intp), len(uniques)


def factorize_array(values: Any, missing: np.ndarray | None = None) -> Factorized:
    """Factorize a 1-D array; NaN, None and pd.NA are missing (``-1``).

    ``missing`` marks extra positions to treat as missing (e.g. nulls a backend filled).
    """
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    uniques_list = list(uniques.tolist() if hasattr(uniques, "tolist") else uniques)
    if missing is not None and missing.any():
        codes[missing] = -1
        used = np.bincount(codes[codes >= 0], minlength=len(uniques_list)) > 0
        if not used.all():
            remap = np.append(np.cumsum(used) - 1, -1)
            codes = remap[codes]
            uniques_list = [u for u, keep in zip(uniques_list, used, strict=True) if keep]
    return Factorized(small_codes(codes, len(uniques_list)), uniques_list)


class PandasFrame:
    """A pandas DataFrame seen through the adapter interface."""

    output = "pandas"

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame

    def columns(self) -> list[Hashable]:
        return list(self.frame.columns)

    def load(self, needed: list[Hashable]) -> None:
        """Nothing to do: the frame is in memory."""

    @property
    def n_rows(self) -> int:
        return len(self.frame)

    def _column(self, name: Hashable) -> pd.Series:
        col = self.frame[name]
        if isinstance(col, pd.DataFrame):
            raise KappaFrameError(
                f"column name {name!r} appears {col.shape[1]} times in the frame; rename the "
                "duplicates first."
            )
        return col

    def labels(self, name: Hashable) -> Factorized:
        return factorize_labels(self._column(name))

    def set_labels(self, name: Hashable, sets: SetLabels) -> Factorized:
        return factorize_sets(self._column(name), sets)

    def keys(self, name: Hashable) -> tuple[np.ndarray, int]:
        return factorize_keys(self._column(name), name)

    def render(self, table: Table) -> pd.DataFrame:
        return render(table, self.frame)


def _labels(values: list[Any]) -> pd.Series:
    """Labels as a Series: whole-number labels with missing ones stay whole (``Int64``).

    pandas would make them floats (4 -> 4.0) to hold NaN; text and booleans with missing
    ones stay objects, as they are.
    """
    series = pd.Series(values)
    if series.dtype.kind == "f" and series.hasnans:
        given = [v for v in values if v is not None]
        if given and all(isinstance(v, (int, np.integer)) for v in given):
            return series.astype("Int64")
    return series


def render(table: Table, source: pd.DataFrame | None = None) -> pd.DataFrame:
    """Build the pandas frame a ``Table`` describes."""
    data: dict[Hashable, Any] = {}
    for col in table.columns:
        if col.kind == "key":
            assert source is not None
            values = source[col.source].iloc[col.values]
            data[col.name] = values.reset_index(drop=True)
        elif col.kind == "enum":
            dtype = pd.CategoricalDtype(list(col.categories), ordered=True)
            data[col.name] = pd.Categorical.from_codes(np.asarray(col.values), dtype=dtype)
        elif col.kind == "flag":
            codes = np.asarray(col.values)
            flags = pd.array(codes == 1, dtype="boolean")
            flags[codes < 0] = pd.NA
            data[col.name] = flags
        elif col.kind == "name" and len(col.categories):
            # Infer the dtype once on the distinct names, then gather.
            # tupleize_cols=False: tuple names (MultiIndex columns) stay tuples.
            names = pd.Index(list(col.categories), tupleize_cols=False)
            data[col.name] = pd.Series(names.take(col.values))
        elif col.kind == "label":
            data[col.name] = _labels(list(col.values))
        elif col.kind == "name":
            data[col.name] = pd.Series(list(col.values))
        else:
            data[col.name] = col.values
    out = pd.DataFrame(data, copy=False)  # the columns are new arrays: no copy, no stacking
    if table.index:
        out = out.set_index(table.index)
    if table.columns_name is not None:
        out.columns.name = table.columns_name
    if table.mark is not None:
        out.attrs[MARK] = dict(table.mark)
    return out
