"""Distances between sets of labels, and sets as present/absent per label. NumPy only.

The categories of set-valued ratings are the distinct sets observed (sorted tuples of
labels, ``kappaframe._encode.sets``). Their ``(K, L)`` indicator matrix ``B`` (1 where
set k holds label l) gives every pairwise intersection at once, ``B B^T``, and from it
the distance matrices that Krippendorff's alpha takes as its ``delta``
(``kappaframe._stats.multirater``), or, read per label, the present/absent ratings of
``kappaframe.per_label``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, get_args

import numpy as np

from .._count.kernel import MAX_COUNT_BYTES
from .._encode.sets import indicators
from .._errors import KappaFrameError, arg, bad_option
from .._types import Distance

__all__ = ["DISTANCES", "per_label_codes", "set_distances"]

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
