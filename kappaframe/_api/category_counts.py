"""Ratings -> the item x category table of counts that ``overall(layout="counts")`` reads.

kappaframe's counterpart of statsmodels' ``aggregate_raters``: every rating of every item
(``kappaframe._api.plan.gather_units``, any way in) -> per-item category counts -> a frame of
the caller's library with the ``by`` columns, the ``item`` key and one count column per
category, in the category order.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, TypeVar

import numpy as np

from .._errors import KappaFrameError
from .._frames.render import render
from .._schema import ITEM_KEY, Column, Table
from .._types import Duplicates
from .plan import adapt, gather_units
from .settings.bind import declared
from .settings.reading import ReadSpec
from .units import sorted_units

__all__ = ["category_counts"]

FrameT = TypeVar("FrameT")


@declared
def category_counts(
    data: FrameT,
    raters: Hashable | Sequence[Hashable] | None = None,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    categories: Sequence[Any] | None = None,
    duplicates: Duplicates = "raise",
) -> FrameT:
    """How many raters put each item in each category: the item x category table.

    ``r_ik``, the number of ratings of item ``i`` in category ``k``, is what every
    many-rater coefficient reads (statsmodels' ``aggregate_raters`` and ``fleiss_kappa``
    table, irrCAC's ``*.dist`` input). ``kappaframe.overall(table, layout="counts",
    item="item", by=...)`` reads the result back to the same numbers as the ratings give
    for the methods that need no rater identity (all but "conger" and "light").

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    DataFrame
        One row per item (groups sorted, then the long layout's items sorted by key; the
        wide layout's rows in order): the ``by`` columns, ``item`` (the item key: the
        pandas index, the row's position for polars and files, the ``item`` column's
        value in the long layout), then one integer column per category, named by the
        category (as text for polars, whose column names are text). Items with no label
        have all counts 0. The columns depend on the labels, so a LazyFrame is read when
        this is called (as polars' own ``pivot`` needs) and the result is a LazyFrame of
        the counted table.

    Raises
    ------
    KappaFrameError
        As ``kappaframe.pairwise``; a category or ``by`` column named ``item``.

    See Also
    --------
    overall : with ``layout="counts"``, reads this table.
    items : per-item agreement and a consensus label.

    Notes
    -----
    ``categories`` also gives the order of the count columns (default: every label,
    sorted: text labels in their sorted order are only columns here, not an order
    anything is computed from).

    Examples
    --------
    Fleiss' (1971) first three patients, six psychiatrists each:

    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame(
    ...     [[4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5]],
    ...     columns=["r1", "r2", "r3", "r4", "r5", "r6"],
    ... )
    >>> kf.category_counts(df)
       item  2  3  4  5
    0     0  0  0  6  0
    1     1  3  0  0  3
    2     2  1  4  0  1
    >>> table = kf.category_counts(df)
    >>> a = kf.overall(table, layout="counts", item="item")["value"].item()
    >>> b = kf.overall(df)["value"].item()
    >>> round(a, 12) == round(b, 12)
    True
    """
    key = item if rater is None and label is None else None  # the wide layout's item key
    read = ReadSpec.of(locals(), item=None if key is not None else item)
    units = gather_units(adapt(data), read, min_raters=1, key=key)
    order, _, _ = sorted_units(units)
    counts = units.counts()[order].astype(np.int64)
    text_names = units.output in ("polars", "lazy")
    names = [str(c) if text_names else c for c in units.categories]
    clash = [n for n in names if n == ITEM_KEY or n in units.by]
    if clash:
        raise KappaFrameError(
            f"the category {clash[0]!r} would be a column of its own, but that name holds "
            f"the {'item key' if clash[0] == ITEM_KEY else 'group key'}; relabel it "
            "(e.g. with a prefix) before counting.",
            option="categories",
        )
    keys = [Column(b, "key", order, source=b) for b in units.by]
    if units.positions is not None:
        item_column = Column(ITEM_KEY, "int", units.positions[order])
    else:
        item_column = Column(ITEM_KEY, "key", order, source=units.item_column)
    columns = [*keys, item_column]
    columns += [Column(name, "int", counts[:, j]) for j, name in enumerate(names)]
    return render(Table(columns), units.keys, units.output)
