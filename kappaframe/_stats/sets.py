"""Distances between sets of labels, and sets as present/absent per label. NumPy only.

The categories of set-valued ratings are the distinct sets observed (sorted tuples of
labels, ``kappaframe._encode.sets``). Their ``(K, L)`` indicator matrix ``B`` (1 where
set k holds label l) gives every pairwise intersection at once, ``B B^T``, and from it
the distance matrices that Krippendorff's alpha takes as its ``delta``
(``kappaframe._stats.multirater``), or, read per label, the present/absent ratings of
``kappaframe.per_label``.

``label_rows`` reads the ratings per label by what is there: an (item, label) pair gets a
row of its own only where some rater gave the label; the items of a group where nobody
did are alike, one row per pattern of raters standing for all of them (its weight), so
memory grows with the ratings, not with items x labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, get_args

import numpy as np

from .._count.kernel import MAX_COUNT_BYTES
from .._encode.sets import indicators
from .._errors import KappaFrameError, arg, bad_option
from .._types import Distance

__all__ = [
    "DISTANCES",
    "LabelRows",
    "label_pair_tables",
    "label_rows",
    "per_label_codes",
    "set_distances",
]

DISTANCES: tuple[str, ...] = get_args(Distance)


def set_distances(
    categories: Sequence[tuple[Any, ...]], labels: Sequence[Any], distance: str
) -> np.ndarray:
    """The ``(K, K)`` distance between every two set categories.

    With ``|A n B|`` the labels two sets share and ``|A u B|`` those either holds,
    ``"jaccard"`` is ``1 - |A n B| / |A u B|`` and ``"masi"`` (Passonneau 2006) is
    ``1 - M |A n B| / |A u B|``, where the monotonicity ``M`` is 1 when the sets are
    equal, 2/3 when one is a subset of the other, 1/3 when they overlap otherwise and 0
    when they are disjoint (NLTK's ``masi_distance``, ``jaccard_distance``). Two empty
    sets are at distance 0 (equal; NLTK divides by zero there); the empty set and any
    other set at distance 1.

    Parameters
    ----------
    categories : sequence of tuple
        The distinct sets, as sorted tuples of labels.
    labels : sequence
        Every label that occurs in them.
    distance : {"masi", "jaccard"}

    Returns
    -------
    ndarray of shape (K, K)
        Symmetric, 0 on the diagonal, values in [0, 1].

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic
    and pragmatic annotation. *Proceedings of LREC 2006*, 831-836.

    Examples
    --------
    >>> d = set_distances([(1, 2), (1, 2, 3, 4), (3, 4, 5)], [1, 2, 3, 4, 5], "masi")
    >>> [round(float(x), 4) for x in d[0]]
    [0.0, 0.6667, 1.0]
    >>> round(float(set_distances([(1, 2, 3, 4), (3, 4, 5)], range(1, 6), "jaccard")[0, 1]), 4)
    0.6
    """
    if distance not in DISTANCES:
        raise bad_option("distance", distance, DISTANCES)
    k = len(categories)
    if k * k * 8 * 4 > MAX_COUNT_BYTES:
        raise KappaFrameError(
            f"{arg('distance')}={distance!r} compares every two distinct sets, and there are "
            f"{k} of them ({k * k * 32 / 1024**3:.1f} GiB of distances); use "
            f"kappaframe.per_label (one present/absent coefficient per label), or fewer "
            "items per call."
        )
    member = indicators(categories, labels).astype(np.float64)
    size = member.sum(axis=1)
    inter = member @ member.T
    union = size[:, None] + size[None, :] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(union > 0, inter / np.where(union > 0, union, 1.0), 1.0)
    if distance == "jaccard":
        return 1.0 - share
    equal = (inter == size[:, None]) & (inter == size[None, :])
    subset = inter == np.minimum(size[:, None], size[None, :])
    monotonicity = np.select([equal, subset, inter > 0], [1.0, 2.0 / 3.0, 1.0 / 3.0], 0.0)
    return 1.0 - share * monotonicity


def per_label_codes(
    codes: np.ndarray, member: np.ndarray, group: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """Each rating read per label: present (1), absent (0) or missing (-1).

    ``codes[rater, item]`` are set categories (``-1`` missing) and ``member[k, l]`` says
    whether set ``k`` holds label ``l``. Returns the codes ``(n_raters, n_items * L)``
    of the binary ratings, item-major (item ``i``'s label ``l`` at ``i * L + l``), and
    the key of each: ``group * L + l``, so one count over (key, code) counts every
    label of every group at once. No loop over labels: one gather of ``member``'s rows.
    """
    n_raters, n_items = codes.shape
    n_labels = member.shape[1]
    lookup = np.vstack([member.astype(np.int8), np.full((1, n_labels), -1, dtype=np.int8)])
    binary = lookup[codes].reshape(n_raters, n_items * n_labels)
    base = np.zeros(n_items, dtype=np.intp) if group is None else np.asarray(group, np.intp)
    keys = (base[:, None] * n_labels + np.arange(n_labels, dtype=np.intp)).reshape(-1)
    return binary, keys


class LabelRows(NamedTuple):
    """The present/absent ratings of every (group, label) key, by what is there.

    ``codes`` ``(n_raters, rows)``: 1 present, 0 absent, -1 missing; ``key`` each row's
    ``group * L + label``; ``weight`` the items each row stands for (float: 1 for the
    first ``n_given`` rows, one per (item, label) pair some rater gave; the rest, one per
    key and pattern of raters, stand for the items of the group where nobody gave the
    label). ``given`` ``(G * L,)``: ratings holding each label, ``rated`` ``(G,)``:
    ratings in each group.
    """

    codes: np.ndarray
    key: np.ndarray
    weight: np.ndarray
    n_given: int
    given: np.ndarray
    rated: np.ndarray


#: Bytes a row of ``LabelRows`` costs beyond its codes, through the coefficients'
#: per-item arrays (float counts, shares, terms: about 290 measured with every method
#: and ``ci`` in one call).
ROW_BYTES = 320

#: Bytes a (rating, label) membership costs while the rows are built.
MEMBER_BYTES = 48


def label_rows_bytes(n_raters: int, n_members: int, n_rows: int) -> int:
    """The peak bytes ``label_rows`` and the coefficients on its rows allocate."""
    return n_members * MEMBER_BYTES + n_rows * (3 * n_raters + ROW_BYTES)


def _members(
    codes: np.ndarray, pairs: tuple[np.ndarray, np.ndarray], n_sets: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each (rating, label of its set): rater, item and label codes."""
    rater, item = np.nonzero(codes >= 0)
    sets = codes[rater, item].astype(np.intp)
    set_of, label_of = pairs
    size = np.bincount(set_of, minlength=n_sets)
    start = np.cumsum(size) - size
    many = size[sets]
    which = np.repeat(np.arange(len(sets)), many)
    offset = np.arange(len(which)) - np.repeat(np.cumsum(many) - many, many)
    return rater[which], item[which], label_of[start[sets[which]] + offset]


def count_members(codes: np.ndarray, pairs: tuple[np.ndarray, np.ndarray], n_sets: int) -> int:
    """How many (rating, label) memberships the ratings hold (before building them)."""
    rated = codes[codes >= 0].astype(np.intp)
    return int(np.bincount(pairs[0], minlength=n_sets)[rated].sum())


def label_rows(
    codes: np.ndarray,
    pairs: tuple[np.ndarray, np.ndarray],
    n_sets: int,
    n_labels: int,
    group: np.ndarray | None,
    n_groups: int,
    absent: bool = True,
) -> LabelRows:
    """Every rating read per label, one row per (item, label) pair given, plus weights.

    ``codes[rater, item]`` are set categories (-1 missing); ``pairs`` the (set, label)
    cells of their indicator matrix (``kappaframe._encode.sets.indicator_pairs``). With
    ``absent``, the rows of the items where nobody gave a label follow: per group and
    pattern of raters (which raters rated the item), one row for each label, weighted by
    how many such items the group holds (rows of weight 0 left out). Items nobody rated
    have no row. Without ``absent`` (Cohen's tables need only the pairs given), those
    rows are left out.
    """
    n_items = codes.shape[1]
    big_l = max(n_labels, 1)
    grp = np.zeros(n_items, dtype=np.intp) if group is None else np.asarray(group, np.intp)
    rater, item, label = _members(codes, pairs, n_sets)
    given = np.bincount(grp[item] * big_l + label, minlength=n_groups * n_labels)
    rated_mask = codes >= 0
    rated = np.bincount(grp[np.nonzero(rated_mask)[1]], minlength=n_groups)
    pair_ids, row_of = np.unique(item.astype(np.int64) * big_l + label, return_inverse=True)
    row_item = (pair_ids // big_l).astype(np.intp)
    row_label = (pair_ids % big_l).astype(np.intp)
    shown = np.where(rated_mask[:, row_item], 0, -1).astype(np.int8)
    shown[rater, row_of.reshape(-1)] = 1
    key = grp[row_item] * big_l + row_label
    weight = np.ones(len(pair_ids))
    if not absent:
        return LabelRows(shown, key, weight, len(pair_ids), given, rated)
    any_rating = rated_mask.any(axis=0)
    seen = np.flatnonzero(any_rating)
    patterns, pattern_of = np.unique(rated_mask[:, seen].T, axis=0, return_inverse=True)
    n_patterns = max(len(patterns), 1)
    # (group, pattern) cells that hold items, and how many items each
    cell_of_item = grp[seen] * n_patterns + pattern_of.reshape(-1)
    cells, items_in = np.unique(cell_of_item, return_counts=True)
    cell_index = np.full(n_items, -1, dtype=np.intp)
    cell_index[seen] = np.searchsorted(cells, cell_of_item)
    # items of each (cell, label) with a row of their own
    own = np.bincount(cell_index[row_item] * big_l + row_label, minlength=len(cells) * n_labels)
    left = np.repeat(items_in, n_labels) - own
    keep = np.flatnonzero(left > 0)
    cell, lab = keep // big_l, keep % big_l
    pattern_codes = np.where(patterns.T, 0, -1).astype(np.int8)  # (raters, patterns)
    rest = pattern_codes[:, cells[cell] % n_patterns]
    return LabelRows(
        np.concatenate([shown, rest], axis=1),
        np.concatenate([key, (cells[cell] // n_patterns) * big_l + lab]),
        np.concatenate([weight, left[keep].astype(np.float64)]),
        len(pair_ids),
        given,
        rated,
    )


def label_pair_tables(
    rows: LabelRows,
    codes: np.ndarray,
    pairs: np.ndarray,
    group: np.ndarray | None,
    n_groups: int,
    n_labels: int,
) -> np.ndarray:
    """``(P, G * L, 2, 2)`` int64: each rater pair's present/absent table per key.

    From the rows of the pairs given (``label_rows(..., absent=False)``); the items both
    raters rated where neither gave the label fill the (absent, absent) cell: the items
    they both rated in the group, less the other three cells.
    """
    n_keys = n_groups * n_labels
    n_items = codes.shape[1]
    grp = np.zeros(n_items, dtype=np.intp) if group is None else np.asarray(group, np.intp)
    out = np.zeros((len(pairs), n_keys, 2, 2), dtype=np.int64)
    group_of_key = np.repeat(np.arange(n_groups), n_labels)
    given = rows.codes[:, : rows.n_given]
    key = rows.key[: rows.n_given]
    for p, (a, b) in enumerate(pairs):
        both_rated = np.bincount(grp[(codes[a] >= 0) & (codes[b] >= 0)], minlength=n_groups)
        x, y = given[a], given[b]
        ok = (x >= 0) & (y >= 0)
        cell = (key[ok] * 2 + x[ok]) * 2 + y[ok]
        table = np.bincount(cell, minlength=n_keys * 4).reshape(n_keys, 2, 2)
        table[:, 0, 0] = both_rated[group_of_key] - table[:, 0, 1] - table[:, 1, 0] - table[:, 1, 1]
        out[p] = table
    return out
