"""The backend-free description of a result frame, built once and rendered per backend.

Output schema (column names, order, dtypes) lives here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

__all__ = ["CI_COLUMNS", "MARK", "TIDY_COLUMNS", "Column", "Kind", "Table"]

#: Key of ``DataFrame.attrs`` under which a result says what it is (see :class:`Table`).
MARK = "kappaframe"

TIDY_COLUMNS = ("rater_a", "rater_b", "n", "p_o", "p_e", "kappa", "interpretation")
CI_COLUMNS = ("se", "ci_low", "ci_high", "z", "p_value")

Kind = Literal["key", "name", "int", "float", "bool", "enum", "label"]


@dataclass(frozen=True)
class Column:
    """One output column.

    kind ``"key"``: values are row positions into the input column ``source`` (group keys,
    read back with their native dtype); ``"name"``: rater names (an object array, or,
    when ``categories`` holds the distinct names, int codes into them: much faster to
    render for millions of rows);
    ``"int"`` / ``"float"`` / ``"bool"``: NumPy arrays; ``"enum"``: int8 codes (-1 missing) into
    ``categories``, an ordered categorical / polars Enum; ``"label"``: category labels.
    """

    name: Hashable
    kind: Kind
    values: np.ndarray
    source: Hashable = None
    categories: Sequence[Any] = ()


@dataclass(frozen=True)
class Table:
    """Columns in output order; ``index`` names the columns pandas makes the index.

    ``mark`` is stored in a pandas result's ``attrs["kappaframe"]`` (e.g. ``{"kind":
    "matrix", "stat": "kappa"}``): what the notebook display reads to colour a matrix.
    """

    columns: list[Column]
    index: list[Hashable] = field(default_factory=list)
    columns_name: Hashable = None
    mark: dict[str, Any] | None = None
