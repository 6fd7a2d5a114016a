"""Benchmark ``cluster=``: what the cluster-robust intervals cost next to the item-level ones.

The clustered calls count each pair's K x K table per cluster (the cluster as one more
group) and sum the items' influences (or draw whole clusters) from those tables; the
item-level calls count per group only. Each line prints the time of the call without
``cluster``, with it, and their ratio, measured side by side in this run (the machine is
shared: ratios, not absolute times).

Workload (defaults): 200,000 items x 5 raters x 5 categories, 10 groups, clusters of 10
items (20,000 clusters), 10% missing labels.

1. ``pairwise(ci=0.95)``: Fleiss, Cohen & Everitt against the linearisation by cluster.
2. ``pairwise(ci=0.95, ci_method="bootstrap", n_boot=200)``: items against clusters drawn.
3. ``overall(method=["fleiss", "gwet_ac1"], ci=0.95)``: Gwet's linearization, by item and by
   cluster.
4. ``compare(data, (r0, r1), (r2, r1))``: the delta method, by item and by cluster.

Run from the repository root::

    python benchmarks/bench_cluster.py                        # a minute or so
    python benchmarks/bench_cluster.py --scale 0.1 --repeat 1  # smoke run
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

import kappaframe as kf


def ratings(n_items: int, cluster_size: int, seed: int = 0) -> pd.DataFrame:
    """Five raters' labels of clustered items (items of a cluster alike), 10 groups."""
    rng = np.random.default_rng(seed)
    n_clusters = max(2, n_items // cluster_size)
    cluster = rng.integers(0, n_clusters, n_items)
    base = rng.integers(0, 5, n_clusters)[cluster]
    data: dict[str, Any] = {"group": cluster % 10, "patient": cluster}
    for r in range(5):
        labels = np.where(rng.random(n_items) < 0.7, base, rng.integers(0, 5, n_items))
        data[f"r{r}"] = np.where(rng.random(n_items) < 0.1, np.nan, labels)
    return pd.DataFrame(data)


def best(call: Callable[[], Any], repeat: int) -> float:
    """The best of ``repeat`` timings of ``call``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="items times this")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (the best is shown)")
    args = parser.parse_args()
    n_items = int(200_000 * args.scale)
    df = ratings(n_items, 10)
    raters = [f"r{r}" for r in range(5)]
    boot = {"ci_method": "bootstrap", "n_boot": 200, "seed": 1}
    cases: list[tuple[str, Callable[..., Any]]] = [
        ("pairwise, analytic", lambda **o: kf.pairwise(df, raters, by="group", ci=0.95, **o)),
        (
            "pairwise, bootstrap",
            lambda **o: kf.pairwise(df, raters, by="group", ci=0.95, **boot, **o),
        ),
        (
            "overall, analytic",
            lambda **o: kf.overall(
                df, raters, by="group", method=["fleiss", "gwet_ac1"], ci=0.95, **o
            ),
        ),
        (
            "compare, delta",
            lambda **o: kf.compare(df, ("r0", "r1"), ("r2", "r1"), by="group", **o),
        ),
    ]
    print(f"{n_items:,} items x 5 raters x 5 categories, 10 groups, {n_items // 10:,} clusters")
    print(f"{'call':<22} {'items (s)':>10} {'clusters (s)':>13} {'ratio':>7}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, call in cases:
            plain = best(lambda call=call: call(), args.repeat)
            clustered = best(lambda call=call: call(cluster="patient"), args.repeat)
            print(f"{name:<22} {plain:>10.3f} {clustered:>13.3f} {clustered / plain:>7.2f}")


if __name__ == "__main__":
    main()
