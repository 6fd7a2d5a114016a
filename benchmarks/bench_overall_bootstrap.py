"""Benchmark overall(ci_method="bootstrap") against the floor of its own resampling.

A bootstrap replicate of a group resamples its items with replacement. kappaframe folds
the items into their distinct patterns (the per-item category counts; the labels rater by
rater for Conger and Light) and draws, per replicate, one multinomial of the group's
``n`` items over the patterns. The *floor* is that drawing alone, written here in NumPy
from the data (``np.unique`` of the patterns per group, then ``Generator.multinomial``
with ``size=n_boot`` per group, on one thread): no coefficient, no frame. The call is
``kf.overall(df, by="group", ci=0.95, ci_method="bootstrap", n_boot=1000, seed=1)``;
it also reads the frame, counts, computes the point estimates and the large-sample
columns, and finishes every coefficient of every replicate.

Workloads (defaults):

1. The coefficients of the category counts (fleiss, krippendorff, gwet_ac1,
   brennan_prediger, percent; one call), 200,000 items x 10 raters x 5 categories x 50
   groups, 10% missing.
2. The same data, Fleiss alone.
3. Conger and Light (patterns: the labels rater by rater), 40,000 items x 5 raters x 4
   categories x 20 groups, 10% missing.
4. Many small groups: fleiss, krippendorff and gwet_ac1, then conger and light, on
   100,000 items x 5 raters x 4 categories x 2,000 groups (50 items each), 10% missing.

Each prints the time of the floor, of the call (on every CPU the process may use, and
on one), of the same call without ``ci``, and the ratios call / floor (target <= 1.5)
and (call - call without ci) / floor: what finishing the coefficients adds to drawing.
It checks that one CPU and all give the same numbers, and that the bootstrap standard
errors are within 10% of the large-sample ones (on 50 items a group, on average within
5%). Times are the best of ``--repeat``
rounds, taking turns. Run from the repository root::

    python benchmarks/bench_overall_bootstrap.py                       # a few minutes
    python benchmarks/bench_overall_bootstrap.py --scale 0.1 --repeat 1  # smoke run
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench_stats import best_of  # noqa: E402

import kappaframe as kf  # noqa: E402
from kappaframe._stats import bootstrap as _bootstrap  # noqa: E402

N_BOOT = 1000


def team(
    rng: np.random.Generator, items: int, raters: int, k: int, groups: int, missing: float
) -> pd.DataFrame:
    """Raters who copy a latent label with probability 0.7; float labels with NaN."""
    latent = rng.integers(0, k, items)
    data: dict[str, Any] = {}
    for r in range(raters):
        codes = np.where(rng.random(items) < 0.7, latent, rng.integers(0, k, items))
        labels = codes.astype(float)
        labels[rng.random(items) < missing] = np.nan
        data[f"r{r:02d}"] = labels
    data["group"] = rng.integers(0, groups, items)
    return pd.DataFrame(data)


def floor_patterns(df: pd.DataFrame, k: int, by_rater: bool) -> list[np.ndarray]:
    """How many items share each distinct pattern, per group (NumPy, from the data)."""
    raters = [c for c in df.columns if c != "group"]
    out = []
    for _, sub in df.groupby("group", sort=True):
        codes = sub[raters].to_numpy()
        codes = np.where(np.isnan(codes), -1, codes).astype(np.int64)
        codes = codes[(codes >= 0).any(axis=1)]
        rows = codes if by_rater else np.stack([(codes == c).sum(axis=1) for c in range(k)], 1)
        out.append(np.unique(rows, axis=0, return_counts=True)[1])
    return out


def draw_floor(freqs: list[np.ndarray]) -> int:
    """The floor: every replicate's item counts over the patterns, group by group."""
    rng = np.random.default_rng(1)
    total = 0
    for freq in freqs:
        n = int(freq.sum())
        total += int(rng.multinomial(n, freq / n, size=N_BOOT)[:, 0].sum())
    return total


def one_cpu(call: Callable[[], pd.DataFrame]) -> Callable[[], pd.DataFrame]:
    def run() -> pd.DataFrame:
        all_cpus = _bootstrap._workers
        _bootstrap._workers = lambda: 1
        try:
            return call()
        finally:
            _bootstrap._workers = all_cpus

    return run


def bench(title: str, df: pd.DataFrame, k: int, methods: list[str], repeat: int) -> None:
    by_rater = bool({"conger", "light"} & set(methods))
    freqs = floor_patterns(df, k, by_rater)
    options = {"by": "group", "method": methods}
    boot = {"ci": 0.95, "ci_method": "bootstrap", "n_boot": N_BOOT, "seed": 1}

    def call() -> pd.DataFrame:
        return kf.overall(df, **options, **boot)

    runs = best_of(
        repeat,
        {
            "floor": lambda: draw_floor(freqs),
            "call": call,
            "one_cpu": one_cpu(call),
            "plain": lambda: kf.overall(df, **options),
        },
    )
    got = runs["call"][1]
    pd.testing.assert_frame_equal(runs["one_cpu"][1], got)  # same draws on 1 or n CPUs
    analytic = kf.overall(df, **options, ci=0.95)
    spread = (got["se"] / analytic["se"]).to_numpy()
    # each within 10% (on 50 items a group: on average within 5%)
    assert np.all(np.abs(spread - 1) < 0.10) or abs(np.mean(spread) - 1) < 0.05, spread
    floor, whole, single, plain = (runs[name][0] for name in ("floor", "call", "one_cpu", "plain"))
    patterns = sum(len(f) for f in freqs)
    print(f"\n{title}")
    print(f"  {len(freqs)} groups, {patterns:,} patterns, {N_BOOT} replicates, {len(got)} rows")
    print(f"  floor (draws alone, 1 CPU)     {floor:8.3f} s")
    print(f"  bootstrap call, {_bootstrap._workers()} CPU(s)       {whole:8.3f} s")
    print(f"  bootstrap call, 1 CPU          {single:8.3f} s")
    print(f"  call without ci                {plain:8.3f} s")
    print(f"  call / floor: {whole / floor:.2f} (1 CPU: {single / floor:.2f}; target <= 1.5)")
    print(
        f"  (call - call without ci) / floor: {(whole - plain) / floor:.2f} "
        f"(1 CPU: {(single - plain) / floor:.2f})"
    )
    print(
        f"  bootstrap se / large-sample se: mean {spread.mean():.3f}, "
        f"range {spread.min():.3f}..{spread.max():.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the item counts")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best is kept")
    parser.add_argument("--seed", type=int, default=20261125)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"kappaframe {kf.__version__}, numpy {np.__version__}, pandas {pd.__version__}")
    counted = ["fleiss", "krippendorff", "gwet_ac1", "brennan_prediger", "percent"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = team(rng, int(200_000 * args.scale), 10, 5, 50, 0.1)
        bench(
            f"1. {', '.join(counted)}: {len(df):,} items x 10 raters x 5 categories",
            df,
            5,
            counted,
            args.repeat,
        )
        bench(f"2. fleiss: {len(df):,} items x 10 raters x 5 categories", df, 5, ["fleiss"], 3)
        df = team(rng, int(40_000 * args.scale), 5, 4, 20, 0.1)
        bench(
            f"3. conger, light: {len(df):,} items x 5 raters x 4 categories",
            df,
            4,
            ["conger", "light"],
            args.repeat,
        )
        groups = max(10, int(2000 * args.scale))
        df = team(rng, int(100_000 * args.scale), 5, 4, groups, 0.1)
        title = f"{len(df):,} items x 5 raters x 4 categories in {groups:,} groups"
        bench(f"4a. fleiss, krippendorff, gwet_ac1: {title}", df, 4, counted[:3], args.repeat)
        bench(f"4b. conger, light: {title}", df, 4, ["conger", "light"], args.repeat)


if __name__ == "__main__":
    main()
