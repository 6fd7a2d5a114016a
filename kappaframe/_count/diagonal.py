"""Kappa from the diagonal and the two marginals: the many-categories path.

The full K x K table of every pair in every group costs ``pairs x groups x K^2``; with
hundreds of categories (free-text-like labels) that is too much. Unweighted and linear or
quadratic weighted kappa need far less. With label codes ``i`` (rater a) and ``j``
(rater b), the marginals ``r`` and ``c`` of the ``n`` items both rated, and the
disagreement weights of ``kappaframe._stats.agreement.weight_matrix``:

- unweighted, ``w_ij = [i != j]``: the observed disagreement is ``n - #{i = j}`` and the
  chance one ``n^2 - sum_i r_i c_i``;
- linear, ``w_ij = |i - j| / (K - 1)``: observed ``sum |i - j|`` over the items (a
  per-item quantity, summed by a weighted bincount), chance ``sum_i r_i F_i`` with
  ``F_i = sum_j |i - j| c_j = 2 i C_i - 2 S_i + S - i n`` (``C_i``, ``S_i`` the cumulative
  sums of ``c_j`` and ``j c_j`` up to ``i``, ``S`` the total of ``j c_j``);
- quadratic, ``w_ij = (i - j)^2 / (K - 1)^2``: observed ``sum (i - j)^2``, chance
  ``n sum_i i^2 r_i + n sum_j j^2 c_j - 2 (sum_i i r_i)(sum_j j c_j)``.

So each pair and group keeps ``n``, three sums and two marginals: O(K), not O(K^2). The
statistics (``kappaframe._stats.agreement.diagonal_agreement``) follow
``kappaframe._stats.agreement.agreement`` line for line
(``p_o = 1 - D_o / n``, ``p_e = 1 - D_e / n^2``, ``kappa = 1 - n D_o / D_e``).
A custom weight matrix, or standard errors (``ci=``), need the full table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import arg
from . import kernel as _kernel

__all__ = [
    "DIAGONAL_MIN_CATEGORIES",
    "FULL_TABLE_BYTES",
    "DiagonalCounts",
    "use_diagonal",
]

#: Above this many categories, kappa comes from the diagonal and the marginals when it can.
DIAGONAL_MIN_CATEGORIES = 32
#: ... and so it does whenever the full tables would take more than this many bytes (e.g.
#: a crowd's million co-rating pairs): the O(K) sums are smaller and faster to finalise.
FULL_TABLE_BYTES = 64 * 1024**2

_NAMED = (None, "linear", "quadratic")


def is_named(weights: Any) -> bool:
    return weights is None or (isinstance(weights, str) and weights in _NAMED)


def use_diagonal(
    n_pairs: int, n_groups: int, n_categories: int, weights: Any, full: bool = False
) -> bool:
    """Whether to count the diagonal and the marginals instead of the full K x K tables.

    Full tables while they are small (at most ``DIAGONAL_MIN_CATEGORIES`` categories
    and ``FULL_TABLE_BYTES``); beyond that the diagonal path, unless the statistic
    needs the table (a custom weight matrix, or ``full`` for standard errors): then full
    tables if they fit under ``kappaframe._count.kernel.MAX_COUNT_BYTES``, else a clear error.
    """
    size = n_pairs * n_groups * n_categories * n_categories * 8
    if n_categories <= DIAGONAL_MIN_CATEGORIES and size <= FULL_TABLE_BYTES:
        return False
    if is_named(weights) and not full:
        return True
    needs = "a custom weights matrix" if not is_named(weights) else f"{arg('ci')} (standard errors)"
    _kernel.check_count_size(
        n_pairs,
        n_groups,
        n_categories,
        why=(f"{needs} needs the full K x K table of every pair and group, and "),
    )
    return False


@dataclass(frozen=True)
class DiagonalCounts:
    """Diagonal-plus-marginals counts of each pair in each group.

    ``n``, ``agree``, ``abs_diff``, ``sq_diff`` (shape (P, G)) and the marginals ``rows``,
    ``cols`` (shape (P, G, K)); see ``kappaframe._count.kernel.diagonal_counts``.
    """

    n: np.ndarray
    agree: np.ndarray
    abs_diff: np.ndarray
    sq_diff: np.ndarray
    rows: np.ndarray
    cols: np.ndarray

    @classmethod
    def from_sums(cls, sums: dict[str, np.ndarray]) -> DiagonalCounts:
        return cls(**{name: sums[name] for name in cls.__dataclass_fields__})

    @classmethod
    def from_tables(cls, tables: np.ndarray) -> DiagonalCounts:
        """Read the same sums off full tables ``[..., K, K]``."""
        return cls.from_sums(_kernel.sums_of_tables(np.asarray(tables)))

    def take(self, index: Any) -> DiagonalCounts:
        """Return the sums of the pairs (leading axis) at ``index``."""
        return DiagonalCounts(*(getattr(self, name)[index] for name in self.__dataclass_fields__))

    @classmethod
    def zeros(cls, n_pairs: int, n_groups: int, n_categories: int) -> DiagonalCounts:
        """Return zeroed sums."""
        return cls.from_sums(_kernel.empty_diagonal(n_pairs, n_groups, n_categories))

    @property
    def shape(self) -> tuple[int, ...]:
        """``(n_pairs, n_groups, K)``."""
        return tuple(self.rows.shape)

    def fields(self) -> list[np.ndarray]:
        """Return the arrays, in field order."""
        return [getattr(self, name) for name in self.__dataclass_fields__]

    def flipped(self, mask: np.ndarray) -> DiagonalCounts:
        """Return the same sums with the two raters swapped on the pairs in ``mask``."""
        out = DiagonalCounts(*(f.copy() for f in self.fields()))
        out.rows[mask], out.cols[mask] = self.cols[mask], self.rows[mask]
        return out

    def add_at(self, rows: np.ndarray, groups: np.ndarray, other: DiagonalCounts) -> None:
        """Add ``other`` (same categories) into pairs ``rows`` and groups ``groups``."""
        for mine, theirs in zip(self.fields(), other.fields(), strict=True):
            mine[np.ix_(rows, groups)] += theirs

    def equals(self, other: DiagonalCounts) -> bool:
        """Whether every sum is equal."""
        return all(np.array_equal(a, b) for a, b in zip(self.fields(), other.fields(), strict=True))
