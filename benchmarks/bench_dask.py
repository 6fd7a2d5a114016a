"""Benchmark: W1 on a Dask DataFrame, one worker against two.

Workload W1 (defaults): 1,000,000 items x 20 raters (190 pairs) x 5 categories x 100 groups,
float labels with 10% NaN, built partition by partition *on the workers* (``dd.from_map``,
seeded) and persisted there, as data on a cluster would be.

For a ``distributed.LocalCluster`` of 1 and of 2 worker processes (one thread each), one
run measures ``ddf.kappa.pairwise(by="group")``:

- as users call it (a first pass discovers the categories, a second counts), and
- with ``categories=`` given (one pass),

best of ``--repeat``; the ratio 1 worker / 2 workers is the speed-up. For scale, the same
call on the same data as one in-memory pandas frame, and a correctness check: the Dask
results equal the pandas result to 1e-12.

Run from the repository root::

    python benchmarks/bench_dask.py        # about a minute
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import dask  # noqa: E402
import dask.dataframe as dd  # noqa: E402
from distributed import Client, LocalCluster, wait  # noqa: E402

import kappaframe as kf  # noqa: E402

CATEGORIES = [1.0, 2.0, 3.0, 4.0, 5.0]


def make_partition(spec: tuple[int, int, int, int, float, int]) -> pd.DataFrame:
    """One partition of W1: ``items`` rows, correlated float labels with NaN, a group."""
    seed, items, raters, groups, missing, categories = spec
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, categories + 1, size=items)
    accuracy = np.random.default_rng(0).uniform(0.6, 0.8, size=raters)  # same raters everywhere
    columns: dict[str, Any] = {}
    for r, p_copy in enumerate(accuracy):
        guess = rng.integers(1, categories + 1, size=items)
        labels = np.where(rng.random(items) < p_copy, truth, guess).astype(np.float64)
        labels[rng.random(items) < missing] = np.nan
        columns[f"r{r:02d}"] = labels
    columns["group"] = rng.integers(0, groups, size=items)
    return pd.DataFrame(columns)


def burn(seed: int) -> float:
    """A pure NumPy task of fixed work (bincounts), to see what 2 workers can give here."""
    x = np.random.default_rng(seed).integers(0, 100, 2_000_000)
    for _ in range(20):
        np.bincount(x, minlength=100)
    return 0.0


def best(repeat: int, fn: Any) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--raters", type=int, default=20)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--missing", type=float, default=0.1)
    parser.add_argument("--partitions", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore", kf.UndefinedKappaWarning)

    per = args.items // args.partitions
    specs = [
        (1000 + i, per, args.raters, args.groups, args.missing, len(CATEGORIES))
        for i in range(args.partitions)
    ]
    print(
        f"W1 on Dask: {per * args.partitions:,} items x {args.raters} raters x "
        f"{len(CATEGORIES)} categories x {args.groups} groups, {args.missing:.0%} missing, "
        f"{args.partitions} partitions built on the workers"
    )
    rows = []
    results = {}
    local_frame = None
    for workers in (1, 2):
        with (
            LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            Client(cluster) as client,
        ):
            client.submit(burn, 99).result()
            t_burn, _ = best(
                args.repeat, lambda c=client: c.gather(c.map(burn, range(8), pure=False))
            )
            ddf = dd.from_map(make_partition, specs).persist()
            wait(ddf)
            t_two, res = best(args.repeat, lambda d=ddf: d.kappa.pairwise(by="group").compute())
            t_one, res_cats = best(
                args.repeat,
                lambda d=ddf: d.kappa.pairwise(by="group", categories=CATEGORIES).compute(),
            )
            results[workers] = (res, res_cats)
            rows.append((workers, t_two, t_one, t_burn))
            if local_frame is None:
                local_frame = ddf.compute()
            client.cancel(ddf)

    assert local_frame is not None
    with dask.config.set(scheduler="sync"):
        t_pd, expected = best(args.repeat, lambda: kf.pairwise(local_frame, by="group"))
    for res, res_cats in results.values():
        for got in (res, res_cats):
            np.testing.assert_array_equal(got["n"].to_numpy(), expected["n"].to_numpy())
            np.testing.assert_allclose(
                got["kappa"].to_numpy(), expected["kappa"].to_numpy(), rtol=0, atol=1e-12
            )
    print(
        f"check: every Dask result == pandas kf.pairwise on the same data ({len(expected):,} "
        "rows, kappa to 1e-12)"
    )
    print(
        f"{'workers':>8} {'as called (2 passes)':>22} {'categories= (1 pass)':>22} "
        f"{'NumPy-only task':>17}"
    )
    for workers, t_two, t_one, t_burn in rows:
        print(f"{workers:>8} {t_two:>20.2f} s {t_one:>20.2f} s {t_burn:>15.2f} s")
    (_, two1, one1, burn1), (_, two2, one2, burn2) = rows
    print(
        f"speed-up 1 -> 2 workers: {two1 / two2:.2f}x as called, {one1 / one2:.2f}x with "
        f"categories=; the NumPy-only task: {burn1 / burn2:.2f}x (what this machine's free "
        "cores allow right now)"
    )
    print(f"in-memory pandas kf.pairwise on the same data: {t_pd:.2f} s (one process, for scale)")


if __name__ == "__main__":
    main()
