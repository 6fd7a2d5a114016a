"""What overall(), per_category() and raters() share.

Every rating of the input (not only pair counts), the full K x K table of rater pairs, and
why their weights must be symmetric.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._count import kernel as _kernel
from .._errors import arg
from .plan import adapt, prepare_input
from .prepare import Prepared
from .settings.reading import ReadSpec

__all__ = ["WHY_SYMMETRIC", "pair_tables", "prepare_ratings"]


def prepare_ratings(data: Any, read: ReadSpec) -> Prepared:
    """Adapt and prepare, gathering every rating (not only pair counts) from parts.

    ``read.sets``: the labels are sets of labels, one category per distinct set.
    """
    return prepare_input(adapt(data), read)


#: Why the many-rater coefficients need a symmetric disagreement matrix.
WHY_SYMMETRIC = (
    "the rater summary pools each rater's pairs with the others, in which that rater is "
    "sometimes the rows and sometimes the columns"
)


def pair_tables(prep: Prepared, pairs: np.ndarray, what: str) -> np.ndarray:
    """Count the full K x K tables ``(n_pairs, G, K, K)`` of ``pairs``.

    From whatever counts them: the dense kernel, the crowd path or stored counts. ``what``
    names the public function, whose own arguments the size error suggests changing.
    """
    _kernel.check_count_size(
        len(pairs),
        prep.groups.n_groups,
        len(prep.categories),
        why=f"{what}() needs the full K x K table of every rater pair in every group, and ",
        ways_out=f"Pass fewer raters ({arg('raters', ...)}) or fewer groups ({arg('by')}), "
        "or merge rare categories first",
    )
    return np.asarray(prep.tables(pairs, None, full=True))
