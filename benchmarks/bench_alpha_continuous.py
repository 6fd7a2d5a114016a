"""Benchmark: Krippendorff's alpha on real-valued scores (every score its own category).

Workload: ``items`` x 3 raters of real-valued scores (a latent score plus rater noise, 12
significant digits, so almost every score is a distinct value: K is about 3 x items),
10% missing, from a seeded ``numpy.random.Generator``.

One run prints, per number of items:

1. the statistic alone: ``compute(..., "krippendorff", level=...)`` on the code matrix
   (what ``overall`` runs after reading the frame), on the sums path
   (``kappaframe._stats.alpha_sums``: interval and ordinal O(N log N), ratio quadratic in
   the distinct values);
2. the same call on the K x K matrix path (``SUMS_FROM`` moved past K), where it can run
   (small sizes: it costs items x K^2), and the ``krippendorff`` package (items x K^2
   too), at still smaller sizes;
3. ``kf.overall(df, method="krippendorff", level=...)`` end to end on the pandas frame
   (reading and coding the labels included);
4. the ratios, and a check that every way agrees to 1e-9.

Times are the best of ``--repeat`` rounds (``time.perf_counter``); the slow baselines
run once. Compare the ratios, not the seconds, on a shared machine.

Run from the repository root::

    python benchmarks/bench_alpha_continuous.py
    python benchmarks/bench_alpha_continuous.py --items 1000,10000 --repeat 1   # smoke
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import kappaframe as kf
import kappaframe._stats.alpha_sums as alpha_sums
from kappaframe._stats.multirater import compute, ratings_of

RATERS = 3


def make(n: int, seed: int) -> np.ndarray:
    """(items, raters) real-valued scores with 10% missing (NaN)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(5.0, 1.0, (n, 1)) + 0.5 * rng.normal(size=(n, RATERS))
    x = np.abs(x).round(12)  # non-negative, for the ratio level
    x[rng.random(x.shape) < 0.1] = np.nan
    return x


def coded(x: np.ndarray) -> tuple[Any, list[float]]:
    """The code matrix (raters x items) and the sorted distinct values, as ``overall`` has them."""
    rated = np.isfinite(x)
    cats, inverse = np.unique(x[rated], return_inverse=True)
    codes = np.full(x.shape, -1, dtype=np.int32)
    codes[rated] = inverse.reshape(-1)
    return ratings_of(codes.T.copy(), None, 1, len(cats)), cats.tolist()


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def statistic(rt: Any, cats: list[float], level: str, start: int) -> float:
    saved = alpha_sums.SUMS_FROM
    alpha_sums.SUMS_FROM = start
    try:
        out = compute(
            rt,
            "krippendorff",
            np.zeros((0, 0)),
            weighted=False,
            level=level,
            categories=cats,
            with_variance=False,
        )
    finally:
        alpha_sums.SUMS_FROM = saved
    return float(out["value"][0])


def fmt(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.4f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", default="1000,10000,100000,1000000")
    parser.add_argument("--ratio-items", default="1000,3000")
    parser.add_argument("--matrix-items", type=int, default=600, help="matrix path up to this")
    parser.add_argument("--package-items", type=int, default=200, help="krippendorff up to this")
    parser.add_argument("--frame-items", type=int, default=1_000_000, help="overall() up to this")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    try:
        import krippendorff
    except ImportError:  # pragma: no cover - a test dependency
        krippendorff = None

    small = [100, 200, 400, 600]
    sizes = {
        "interval": sorted({*small, *map(int, args.items.split(","))}),
        "ordinal": sorted({*small, *map(int, args.items.split(","))}),
        "ratio": sorted({*small, *map(int, args.ratio_items.split(","))}),
    }
    print(f"Krippendorff's alpha, real-valued scores, {RATERS} raters, 10% missing")
    print(
        f"{'level':8} {'items':>9} {'K':>9} {'sums':>10} {'matrix':>10} {'matrix/sums':>11} "
        f"{'package':>10} {'package/sums':>12} {'overall()':>10}  alpha"
    )
    for level, ns in sizes.items():
        for n in ns:
            x = make(n, args.seed)
            rt, cats = coded(x)
            t_sums, value = best(partial(statistic, rt, cats, level, 1), args.repeat)
            t_matrix = t_package = t_frame = None
            if n <= args.matrix_items:
                t_matrix, other = best(partial(statistic, rt, cats, level, 10**12), 1)
                assert abs(other - value) < 1e-9, (level, n, other, value)
            if krippendorff is not None and n <= args.package_items:
                package = partial(krippendorff.alpha, reliability_data=x.T)
                t_package, other = best(partial(package, level_of_measurement=level), 1)
                assert abs(other - value) < 1e-9, (level, n, other, value)
            if (n <= args.frame_items and level != "ratio") or n <= 1000:
                df = pd.DataFrame(x, columns=[f"r{i}" for i in range(RATERS)])
                raters = list(df.columns)
                call = partial(kf.overall, df, raters=raters, method="krippendorff")
                t_frame, res = best(partial(call, level=level), 1 if n > 100_000 else args.repeat)
                assert abs(float(res["value"].iloc[0]) - value) < 1e-9
            ratio_m = f"{t_matrix / t_sums:.0f}x" if t_matrix else "-"
            ratio_p = f"{t_package / t_sums:.0f}x" if t_package else "-"
            print(
                f"{level:8} {n:>9,} {len(cats):>9,} {fmt(t_sums):>10} {fmt(t_matrix):>10} "
                f"{ratio_m:>11} {fmt(t_package):>10} {ratio_p:>12} {fmt(t_frame):>10}  {value:.6f}",
                flush=True,
            )
    print("sums: the statistic on the code matrix; matrix: the same on the K x K path;")
    print("package: krippendorff.alpha; overall(): the whole call on the pandas frame.")
    print("Every value agrees with the others to 1e-9.")


if __name__ == "__main__":
    main()
