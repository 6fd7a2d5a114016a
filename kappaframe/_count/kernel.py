"""The one counting kernel every backend feeds.

Input: small integer label codes, one row per rater (``-1`` = missing), optional group
codes per item. Output: ``counts[pair, group, K, K]``, the K x K contingency table of
every rater pair in every group. One ``np.bincount`` per pair does all the work.

Missing labels are shifted to an extra category ``0`` (codes become ``code + 1``), so a
pair needs no mask: its table is the ``[1:, 1:]`` corner of a ``(K + 1) x (K + 1)`` count.
That drops the missing items pair by pair without copying anything.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._errors import KappaFrameError, arg

__all__ = [
    "MAX_COUNT_BYTES",
    "add_diagonal",
    "all_pairs",
    "check_count_size",
    "code_dtype",
    "diagonal_counts",
    "diagonal_sums",
    "empty_diagonal",
    "pair_counts",
]

#: Items counted per block (the index buffers of a block fit in the CPU cache).
BLOCK_ITEMS = 1 << 17

#: Pairs x items counted per call when there are many pairs of few items (a thousand
#: raters): the pairs are counted together, in chunks of about this many ratings.
PAIR_CHUNK_RATINGS = 1 << 20

#: ... where items are this few or fewer: there a pair's own call costs more than its
#: ratings. From about a thousand items on, the block walk below is faster (2-3x at
#: 100,000 items, whose chunk temporaries leave the CPU cache).
PAIR_CHUNK_ITEMS = 1 << 10

#: ... and, with few categories (cells per pair, groups x (K + 1)^2, up to this and up
#: to the number of items), the diagonal sums of such chunks are read off full tables.
SMALL_TABLE_CELLS = 4096

#: Refuse to allocate a count tensor bigger than this (bytes) unless told otherwise.
MAX_COUNT_BYTES = 2 * 1024**3


def code_dtype(n_categories: int) -> np.dtype:
    """Return the smallest signed integer dtype holding codes ``-1 .. n_categories``."""
    for dtype in (np.int8, np.int16, np.int32):
        if n_categories < np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(np.int64)


def check_count_size(
    n_pairs: int,
    n_groups: int,
    n_categories: int,
    limit: int | None = None,
    why: str = "",
    ways_out: str | None = None,
) -> None:
    """Raise before allocating ``n_pairs x n_groups x K x K`` counts over ``limit`` bytes.

    ``why`` names what needs the full tables (e.g. a custom weight matrix) in the message;
    ``ways_out`` the caller's own options that make them smaller.
    """
    limit = MAX_COUNT_BYTES if limit is None else limit
    if ways_out is None:
        ways_out = (
            f"Pass {arg('min_overlap', 1)} to keep only the pairs that share items, fewer "
            "raters or groups, or merge rare categories"
        )
    size = n_pairs * n_groups * (n_categories + 1) ** 2 * 8
    if size > limit:
        raise KappaFrameError(
            f"{why}the pair counts would take {_size(size)} ({n_pairs} pairs x {n_groups} "
            f"groups x {n_categories}^2 categories), over the {_size(limit)} limit. "
            f"{ways_out}, or raise kappaframe._count.kernel.MAX_COUNT_BYTES if the memory "
            "is there."
        )


def _size(n_bytes: float) -> str:
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.1f} {unit}"
    return f"{n_bytes:.0f} bytes"


def all_pairs(n_raters: int) -> np.ndarray:
    """Every pair ``(a, b)`` with ``a < b``, in rater order, as an ``(n_pairs, 2)`` array."""
    a, b = np.triu_indices(n_raters, 1)
    return np.column_stack([a, b]).astype(np.intp, copy=False)


def pair_counts(
    codes: np.ndarray,
    pairs: Sequence[tuple[int, int]] | np.ndarray,
    n_categories: int,
    group_codes: np.ndarray | None = None,
    n_groups: int = 1,
    sample_weight: np.ndarray | None = None,
) -> np.ndarray:
    """Count the contingency table of each rater pair in each group.

    Parameters
    ----------
    codes : ndarray of shape (n_raters, n_items), signed integers
        Label codes in ``0 .. n_categories - 1``; ``-1`` marks a missing label.
    pairs : sequence of (int, int)
        Row indices into ``codes``; ``(a, b)`` counts rater ``a`` on the rows of the
        table and rater ``b`` on its columns. ``(a, a)`` is allowed.
    n_categories : int
        K, the number of categories.
    group_codes : ndarray of shape (n_items,), optional
        Group of each item in ``0 .. n_groups - 1``; ``None`` means one group.
    n_groups : int, default 1
    sample_weight : ndarray of shape (n_items,), optional
        Weight of each item; counts become float sums of weights.

    Returns
    -------
    ndarray of shape (n_pairs, n_groups, K, K)
        ``int64`` counts (``float64`` with ``sample_weight``).
    """
    codes = np.asarray(codes)
    n_items = codes.shape[1]
    k1 = n_categories + 1
    cells = n_groups * k1 * k1
    check_count_size(len(pairs), n_groups, n_categories)
    dtype = np.float64 if sample_weight is not None else np.int64
    out = np.zeros((len(pairs), n_groups, n_categories, n_categories), dtype=dtype)
    if not len(pairs) or n_items == 0 or n_categories == 0:
        return out

    weights = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if _pair_chunk(len(pairs), n_items) > 1:
        return _chunked_pair_counts(codes, pairs, n_categories, group_codes, n_groups, weights, out)

    # Shift codes so missing (-1) becomes 0 (still small integers; widened when added),
    # then walk the items in blocks: each block's index buffers stay in the CPU cache
    # while every pair is counted, which is faster than streaming all items per pair.
    shifted = codes + 1
    if group_codes is None:
        base = np.zeros(n_items, dtype=np.intp)
    else:
        base = np.asarray(group_codes, dtype=np.intp) * (k1 * k1)

    tables = np.zeros((len(pairs), cells), dtype=dtype)
    block = min(BLOCK_ITEMS, n_items)
    left_buffer = np.empty(block, dtype=np.intp)
    index_buffer = np.empty(block, dtype=np.intp)
    for start in range(0, n_items, block):
        stop = min(start + block, n_items)
        left = left_buffer[: stop - start]
        index = index_buffer[: stop - start]
        block_weights = None if weights is None else weights[start:stop]
        current = -1
        for p, (a, b) in enumerate(pairs):
            if a != current:
                np.copyto(left, shifted[a, start:stop])
                left *= k1
                left += base[start:stop]
                current = a
            np.add(left, shifted[b, start:stop], out=index)
            tables[p] += np.bincount(index, weights=block_weights, minlength=cells)
    out[...] = tables.reshape(len(pairs), n_groups, k1, k1)[:, :, 1:, 1:]
    return out


def _pair_chunk(n_pairs: int, n_items: int) -> int:
    """How many pairs to count in one call: 1 (pair by pair) unless items are few."""
    if n_items == 0 or n_items > PAIR_CHUNK_ITEMS:
        return 1
    return max(1, min(n_pairs, PAIR_CHUNK_RATINGS // n_items))


def _chunk_cells(
    n_pairs: int, n_items: int, group_codes: np.ndarray | None, n_groups: int
) -> np.ndarray:
    """Cell (pair in chunk x group) of every rating of the chunk, shape (chunk, n_items)."""
    offset = np.arange(n_pairs, dtype=np.intp)[:, None] * n_groups
    if group_codes is None:
        return np.broadcast_to(offset, (n_pairs, n_items))
    return offset + np.asarray(group_codes, dtype=np.intp)[None, :]


def _chunked_pair_counts(
    codes: np.ndarray,
    pairs: Sequence[tuple[int, int]] | np.ndarray,
    n_categories: int,
    group_codes: np.ndarray | None,
    n_groups: int,
    weights: np.ndarray | None,
    out: np.ndarray,
) -> np.ndarray:
    """``pair_counts`` for many pairs of few items: one bincount per chunk of pairs.

    A thousand raters make half a million pairs; counting them one by one costs a Python
    step each. Here a chunk of pairs is one index array (pair, group, label a, label b),
    written straight into ``out``: no buffer beyond one chunk.
    """
    pair_array = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
    n_items = codes.shape[1]
    k1 = n_categories + 1
    step = _pair_chunk(len(pair_array), n_items)
    shifted = codes.astype(np.intp) + 1  # missing (-1) is 0
    for start in range(0, len(pair_array), step):
        stop = min(start + step, len(pair_array))
        a, b = pair_array[start:stop, 0], pair_array[start:stop, 1]
        cells = _chunk_cells(stop - start, n_items, group_codes, n_groups)
        index = (cells * k1 + shifted[a]) * k1 + shifted[b]
        w = None if weights is None else np.broadcast_to(weights, index.shape).ravel()
        total = np.bincount(index.ravel(), weights=w, minlength=(stop - start) * n_groups * k1 * k1)
        if weights is None:
            total = total.astype(np.int64, copy=False)
        out[start:stop] = total.reshape(stop - start, n_groups, k1, k1)[:, :, 1:, 1:]
    return out


def diagonal_counts(
    codes: np.ndarray,
    pairs: Sequence[tuple[int, int]] | np.ndarray,
    n_categories: int,
    group_codes: np.ndarray | None = None,
    n_groups: int = 1,
) -> dict[str, np.ndarray]:
    """Sum the diagonal and the marginals of each rater pair in each group, O(K) per pair.

    Everything unweighted and linear or quadratic weighted kappa need, without the K x K
    table: for the items both raters labeled, ``n``; ``agree``, how many got the same
    label; ``abs_diff`` and ``sq_diff``, the sums of ``|a - b|`` and ``(a - b)^2`` over
    the label codes; and the two marginals ``rows[..., K]`` (rater ``a``) and
    ``cols[..., K]`` (rater ``b``).

    Parameters are those of ``pair_counts``.

    Returns
    -------
    dict of ndarray
        ``n``, ``agree``, ``abs_diff``, ``sq_diff`` of shape (n_pairs, n_groups);
        ``rows`` and ``cols`` of shape (n_pairs, n_groups, K).
    """
    codes = np.asarray(codes)
    n_pairs = len(pairs)
    k = n_categories
    out = empty_diagonal(n_pairs, n_groups, k)
    if not n_pairs or codes.shape[1] == 0 or k == 0:
        return out
    step = _pair_chunk(n_pairs, codes.shape[1])
    table_cells = n_groups * (k + 1) ** 2
    if step > 1 and table_cells <= min(codes.shape[1], SMALL_TABLE_CELLS):
        # Many pairs of few items, and fewer table cells than items: one integer bincount
        # of a chunk's full tables is faster than the six sums, and its tables are small.
        step = max(1, min(step, PAIR_CHUNK_RATINGS // table_cells))
        for start in range(0, n_pairs, step):
            stop = min(start + step, n_pairs)
            chunk = pair_counts(codes, pairs[start:stop], k, group_codes, n_groups)
            for name, value in sums_of_tables(chunk).items():
                out[name][start:stop] = value
        return out
    if step > 1:  # many pairs of few items: a chunk of pairs per call
        pair_array = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
        n_items = codes.shape[1]
        for start in range(0, n_pairs, step):
            stop = min(start + step, n_pairs)
            left = codes[pair_array[start:stop, 0]]
            right = codes[pair_array[start:stop, 1]]
            valid = (left >= 0) & (right >= 0)
            cells = _chunk_cells(stop - start, n_items, group_codes, n_groups)
            add_diagonal(
                out,
                slice(start, stop),
                cells[valid],
                left[valid].astype(np.intp),
                right[valid].astype(np.intp),
                (stop - start) * n_groups,
                k,
            )
        return out
    groups = None if group_codes is None else np.asarray(group_codes, dtype=np.intp)
    for p, (a, b) in enumerate(pairs):
        left, right = codes[a], codes[b]
        valid = (left >= 0) & (right >= 0)
        x = left[valid].astype(np.intp)
        y = right[valid].astype(np.intp)
        g = np.zeros(len(x), dtype=np.intp) if groups is None else groups[valid]
        add_diagonal(out, p, g, x, y, n_groups, k)
    return out


def weighted_diagonal_counts(
    x: np.ndarray, y: np.ndarray, n_categories: int, sample_weight: np.ndarray
) -> dict[str, np.ndarray]:
    """``diagonal_counts`` of one pair whose items carry weights (float sums).

    ``x`` and ``y`` are the two raters' codes (negative: missing), ``sample_weight`` one
    non-negative weight per item; every sum is of shape (1, 1) (one pair, one group).
    """
    valid = (x >= 0) & (y >= 0)
    left = x[valid].astype(np.intp)
    right = y[valid].astype(np.intp)
    w = np.asarray(sample_weight, dtype=np.float64)[valid]
    diff = (left - right).astype(np.float64)
    k = n_categories
    return {
        "n": np.array([[w.sum()]]),
        "agree": np.array([[w[diff == 0].sum()]]),
        "abs_diff": np.array([[w @ np.abs(diff)]]),
        "sq_diff": np.array([[w @ (diff * diff)]]),
        "rows": np.bincount(left, weights=w, minlength=k).reshape(1, 1, k),
        "cols": np.bincount(right, weights=w, minlength=k).reshape(1, 1, k),
    }


def sums_of_tables(tables: np.ndarray) -> dict[str, np.ndarray]:
    """The sums of ``diagonal_counts``, read off full tables ``[..., K, K]``."""
    k = tables.shape[-1]
    i = np.arange(k)
    dist = np.abs(i[:, None] - i[None, :])
    return {
        "n": tables.sum(axis=(-2, -1)),
        "agree": np.trace(tables, axis1=-2, axis2=-1),
        "abs_diff": np.einsum("...ij,ij->...", tables, dist),
        "sq_diff": np.einsum("...ij,ij->...", tables, dist * dist),
        "rows": tables.sum(axis=-1),
        "cols": tables.sum(axis=-2),
    }


def empty_diagonal(n_pairs: int, n_groups: int, n_categories: int) -> dict[str, np.ndarray]:
    """Zeroed diagonal-plus-marginals sums (see ``diagonal_counts``)."""
    shape = (n_pairs, n_groups)
    return {
        "n": np.zeros(shape, dtype=np.int64),
        "agree": np.zeros(shape, dtype=np.int64),
        "abs_diff": np.zeros(shape, dtype=np.int64),
        "sq_diff": np.zeros(shape, dtype=np.int64),
        "rows": np.zeros((*shape, n_categories), dtype=np.int64),
        "cols": np.zeros((*shape, n_categories), dtype=np.int64),
    }


def diagonal_sums(
    cell: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    n_cells: int,
    n_categories: int,
    starts: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """The diagonal-and-marginal sums of rated pairs ``(x, y)`` falling in ``cell``.

    Shaped ``(n_cells,)`` and ``(n_cells, K)`` like ``empty_diagonal``'s arrays. The
    marginals are two integer bincounts. ``n``, ``agree``, ``abs_diff`` and ``sq_diff``
    come from the histogram of the distances ``|x - y|`` in each cell, or, when ``cell``
    is sorted and ``starts`` gives the first position of every cell (none empty), from
    sums over those runs (no ``n_cells x K`` histogram).
    """
    k = n_categories
    base = cell * k
    distance = np.abs(x - y)
    if starts is not None:
        ends = np.append(starts[1:], len(cell)) - 1

        def run_sums(values: np.ndarray) -> np.ndarray:
            total = np.cumsum(values, dtype=np.int64)
            out = total[ends]
            out[1:] -= total[ends[:-1]]
            return out

        sums = {
            "n": (ends - starts + 1).astype(np.int64),
            "agree": run_sums(distance == 0),
            "abs_diff": run_sums(distance),
            "sq_diff": run_sums(np.square(distance, dtype=np.int64)),
        }
    else:
        hist = np.bincount(base + distance, minlength=n_cells * k).reshape(n_cells, k)
        steps = np.arange(k, dtype=np.int64)
        sums = {  # (a matrix product is faster than a sum along a short last axis)
            "n": hist @ np.ones(k, dtype=np.int64),
            "agree": hist[:, 0].copy(),
            "abs_diff": hist @ steps,
            "sq_diff": hist @ (steps * steps),
        }
    sums["rows"] = np.bincount(base + x, minlength=n_cells * k).reshape(n_cells, k)
    sums["cols"] = np.bincount(base + y, minlength=n_cells * k).reshape(n_cells, k)
    return sums


def add_diagonal(
    out: dict[str, np.ndarray],
    pair: int | slice,
    cell: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    n_cells: int,
    n_categories: int,
) -> None:
    """Add rated pairs ``(x, y)`` falling in ``cell`` (group, or pair x group) to ``out``.

    ``out[name][pair]`` reshaped to ``n_cells`` cells receives ``diagonal_sums``.
    """
    shape = out["n"][pair].shape
    for name, sums in diagonal_sums(cell, x, y, n_cells, n_categories).items():
        out[name][pair] += sums.reshape(*shape, *sums.shape[1:])
