"""Bootstrap intervals for kappa, straight from the count tensor.

Resampling the items a pair of raters both labeled, with replacement, only changes how
many items fall in each cell of the pair's K x K table: a bootstrap table is one
multinomial draw of ``n`` items over the observed cell proportions. So every replicate of
every pair and group is drawn at once with ``Generator.multinomial`` (no per-item loop),
in chunks of tables that bound the memory, and kappa is recomputed by the same
``kappaframe._stats.agreement.agreement`` as the point estimate.

The exact multinomial draw costs one binomial draw per cell and replicate, and that is
most of the time. Chunks of tables are drawn side by side on the CPUs this process may
use, each chunk from its own child of the call's seed, so the numbers do not depend on
how many CPUs there are.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .._encode.codes import canonical_order
from .._errors import KappaFrameError, KappaFrameTypeError
from .agreement import agreement, finish_agreement

__all__ = [
    "CHUNK_BYTES",
    "MAX_THREADS",
    "bootstrap_kappa",
    "check_bootstrap",
    "make_rng",
    "percentile_summary",
]

#: Memory for one chunk of bootstrap tables (bytes); one chunk is in flight per thread. The
#: chunk sizes follow from this, K and ``n_boot`` only, so a call with a seed gives the
#: same numbers on every machine.
CHUNK_BYTES = 64 * 1024**2
#: From this many categories on, a replicate is drawn over the table's occupied cells only
#: and kappa is summed from them and the categories that occur: time and memory grow with
#: the labels observed, not with K^2 (2,000 labels: seconds, not minutes). Below it, the
#: whole K x K tables are drawn at once.
SPARSE_CATEGORIES = 64

#: At most this many threads draw at once (so at most 8 chunks, 512 MB, are in flight).
MAX_THREADS = 8


def make_rng(seed: Any) -> np.random.Generator:
    """Return a NumPy Generator from ``None`` (fresh entropy), an int, or a Generator."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or (isinstance(seed, numbers.Integral) and not isinstance(seed, bool)):
        if seed is not None and int(seed) < 0:
            raise KappaFrameError(f"seed must be a non-negative integer; got {seed!r}.")
        return np.random.default_rng(None if seed is None else int(seed))
    raise KappaFrameTypeError(
        f"seed must be None, a non-negative integer or a numpy.random.Generator; got {seed!r}."
    )


def check_bootstrap(n_boot: Any) -> int:
    """Validate ``n_boot``: an integer of at least 2."""
    if isinstance(n_boot, bool) or not isinstance(n_boot, numbers.Integral) or n_boot < 2:
        raise KappaFrameError(
            f"n_boot must be an integer of at least 2 (1000 or more for a 95% interval); "
            f"got {n_boot!r}."
        )
    return int(n_boot)


def _workers() -> int:
    """How many threads draw: the CPUs this process may run on, at most ``MAX_THREADS``."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_THREADS))


def percentile_summary(values: np.ndarray, level: float) -> dict[str, np.ndarray]:
    """``se``, ``ci_low``, ``ci_high`` of each row of bootstrap replicates ``values[T, B]``.

    ``se`` is the standard deviation of the defined (finite) replicates (``ddof=1``); the
    interval their ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles (linear
    interpolation). A row with fewer than two defined replicates gets NaN.
    """
    values = np.asarray(values, dtype=float)
    out = {key: np.full(len(values), np.nan) for key in ("se", "ci_low", "ci_high")}
    defined = np.isfinite(values)
    enough = defined.sum(axis=1) >= 2
    if not enough.any():
        return out
    rows = np.flatnonzero(enough)
    sub = values[rows]
    quantiles = np.array([(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    if defined[rows].all():
        out["se"][rows] = sub.std(axis=1, ddof=1)
        qs = np.quantile(sub, quantiles, axis=1)
    else:
        out["se"][rows] = np.nanstd(sub, axis=1, ddof=1)
        qs = np.nanquantile(sub, quantiles, axis=1)
    out["ci_low"][rows] = qs[0]
    out["ci_high"][rows] = qs[1]
    return out


def bootstrap_kappa(
    counts: np.ndarray,
    weights: np.ndarray,
    level: float,
    n_boot: int = 1000,
    seed: Any = None,
    chunk_bytes: int = CHUNK_BYTES,
    workers: int | None = None,
    categories: Sequence[Any] | None = None,
) -> dict[str, np.ndarray]:
    """Percentile bootstrap of (weighted) kappa for each table of ``counts[..., K, K]``.

    Returns ``se`` (standard deviation of the replicates, ``ddof=1``), ``ci_low`` and
    ``ci_high`` (the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of the
    replicates, linear interpolation), shaped like the leading axes of ``counts``.
    Replicates whose kappa is undefined (every resampled item in one shared category) are
    left out; a table with fewer than two defined replicates, or no items, gets NaN.

    The draws depend only on ``seed``, the tables (in order) and ``n_boot``: the chunk
    sizes are a function of K and ``n_boot`` alone and each chunk of tables draws from its
    own child of ``seed``, so the same call with the same seed gives the same numbers with
    any number of ``workers`` (threads; default: the CPUs this process may use). (Adding a
    pair or a group changes the draws of the others.)

    ``categories`` (the labels the rows and columns stand for): the draws are made over
    the categories that occur, in the order of the labels themselves
    (``kappaframe._encode.codes.canonical_order``), so the same ratings give the same
    numbers however they were coded (a declared order, another backend, a file).
    """
    if not 0 < level < 1:
        raise KappaFrameError(f"ci must be a confidence level between 0 and 1; got {level!r}.")
    n_boot = check_bootstrap(n_boot)
    rng = make_rng(seed)
    counts = np.asarray(counts)
    if categories is not None and len(categories) == counts.shape[-1]:
        counts, weights = _canonical_tables(counts, weights, categories)
    lead = counts.shape[:-2]
    k = counts.shape[-1]
    cells = k * k
    flat = counts.reshape(int(np.prod(lead)), cells).astype(np.int64)
    n_tables = flat.shape[0]
    se = np.full(n_tables, np.nan)
    low = np.full(n_tables, np.nan)
    high = np.full(n_tables, np.nan)
    totals = flat.sum(axis=1)
    live = np.flatnonzero(totals > 0)
    if cells == 0 or live.size == 0:
        shaped = (se.reshape(lead), low.reshape(lead), high.reshape(lead))
        return dict(zip(("se", "ci_low", "ci_high"), shaped, strict=True))

    per_replicate = cells * 8 * 3  # the draw, its float copy and the agreement temporaries
    reps_per_chunk = max(1, min(n_boot, chunk_bytes // per_replicate))
    tables_per_chunk = max(1, chunk_bytes // (per_replicate * reps_per_chunk))
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    starts = range(0, live.size, tables_per_chunk)
    # One child seed per chunk of tables, drawn from the call's generator (which advances).
    children = np.random.SeedSequence(rng.integers(0, 2**63, size=4).tolist()).spawn(len(starts))

    def run(start: int, child: np.random.SeedSequence) -> None:
        draw = np.random.Generator(np.random.PCG64(child)).multinomial
        idx = live[start : start + tables_per_chunk]
        n = totals[idx]
        kappas = np.empty((idx.size, n_boot))
        if k >= SPARSE_CATEGORIES:
            for row, table in enumerate(idx):
                kappas[row] = _occupied_replicates(
                    flat[table], int(totals[table]), k, weights, n_boot, draw, chunk_bytes
                )
        else:
            probs = flat[idx] / n[:, None]
            for r0 in range(0, n_boot, reps_per_chunk):
                reps = min(reps_per_chunk, n_boot - r0)
                draws = draw(np.broadcast_to(n[:, None], (idx.size, reps)), probs[:, None, :])
                tables = draws.reshape(idx.size, reps, k, k)
                kappas[:, r0 : r0 + reps] = agreement(tables, weights)["kappa"]
        summary = percentile_summary(kappas, level)
        se[idx] = summary["se"]
        low[idx] = summary["ci_low"]
        high[idx] = summary["ci_high"]

    threads = min(len(starts), _workers() if workers is None else max(1, int(workers)))
    if threads == 1:
        for start, child in zip(starts, children, strict=True):
            run(start, child)
    else:
        # numpy draws and reduces without the GIL; each chunk writes its own tables.
        with ThreadPoolExecutor(threads) as pool:
            for done in [pool.submit(run, s, c) for s, c in zip(starts, children, strict=True)]:
                done.result()
    return {"se": se.reshape(lead), "ci_low": low.reshape(lead), "ci_high": high.reshape(lead)}


def _canonical_tables(
    counts: np.ndarray, weights: np.ndarray, categories: Sequence[Any]
) -> tuple[np.ndarray, np.ndarray]:
    """The tables and weights over the categories that occur, in the labels' own order.

    Kappa is the same for any order of the categories (rows, columns and weights turned
    alike); the multinomial draws are not, so they are made in an order fixed by the labels.
    """
    k = counts.shape[-1]
    if k == 0:
        return counts, weights
    occurs = counts.reshape(-1, k, k)
    occurs = (occurs.sum(axis=(0, 1)) + occurs.sum(axis=(0, 2))) > 0
    order = canonical_order(categories)
    order = order[occurs[order]]
    if order.size == k and np.array_equal(order, np.arange(k)):
        return counts, weights
    turned = counts[..., order, :][..., order]
    return turned, np.asarray(weights, dtype=np.float64)[np.ix_(order, order)]


def _occupied_replicates(
    table: np.ndarray,
    n: int,
    k: int,
    weights: np.ndarray,
    n_boot: int,
    draw: Any,
    chunk_bytes: int,
) -> np.ndarray:
    """``n_boot`` bootstrap kappas of one flat K x K table, drawn over its occupied cells.

    A resampled table has items only where the table has them, so one multinomial draw
    over the occupied cells is the same draw as over all K^2 cells; the disagreement sums
    of ``kappaframe._stats.agreement.finish_agreement`` need only those cells and the
    marginals of the categories that occur.
    """
    cells = np.flatnonzero(table)
    probs = table[cells] / n
    row_of, col_of = np.divmod(cells, k)
    used_rows, row_pos = np.unique(row_of, return_inverse=True)
    used_cols, col_pos = np.unique(col_of, return_inverse=True)
    cell_weights = weights[row_of, col_of]
    sub_weights = weights[np.ix_(used_rows, used_cols)]
    per_replicate = (cells.size + used_rows.size + used_cols.size) * 8 * 3
    reps_per_chunk = max(1, min(n_boot, chunk_bytes // per_replicate))
    out = np.empty(n_boot)
    for r0 in range(0, n_boot, reps_per_chunk):
        reps = min(reps_per_chunk, n_boot - r0)
        draws = draw(n, probs, size=reps).astype(np.float64)  # (reps, occupied cells)
        rows = np.zeros((used_rows.size, reps))
        cols = np.zeros((used_cols.size, reps))
        np.add.at(rows, row_pos, draws.T)
        np.add.at(cols, col_pos, draws.T)
        dis_obs = draws @ cell_weights
        dis_exp = np.einsum("ri,ir->r", rows.T @ sub_weights, cols)
        out[r0 : r0 + reps] = finish_agreement(np.full(reps, n), dis_obs, dis_exp)["kappa"]
    return out
