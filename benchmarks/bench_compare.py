"""Benchmark: a paired bootstrap comparison against one pairwise bootstrap, on two data sets.

1. W1-small is W1 (``bench_w1.py``'s ``make_frame``) at a tenth of its items: 100,000
   items x 20 raters x 5 categories x 100 groups, float labels with 10% NaN, the same
   seeded generator. The comparison is two rater pairs that share a rater,
   ``("r01", "r00")`` and ``("r02", "r00")`` (two models against one gold), per group,
   on the items all three labeled (about 730 a group: resampled item by item).
2. One large sample: 200,000 items x 3 raters x 5 categories, 10% NaN, no groups (the
   same generator), the same two pairs: about 146,000 complete items over the 125 joint
   labels of the three raters (resampled as one multinomial draw over them).

On each, one run measures, side by side (best of ``--repeat``, taking turns):

1. ``kf.compare(df, ("r01", "r00"), ("r02", "r00"), by=..., method="bootstrap",
   n_boot=1000)``: both kappas from one set of resampled items per replicate;
2. one pairwise bootstrap of the same data: ``kf.pairwise(df, ["r01", "r00"], by=...,
   ci=0.95, ci_method="bootstrap", n_boot=1000)``, one pair's kappa (target: the
   comparison within 2x of it);
3. for scale, the pairwise bootstrap of the three raters involved (three pairs), and the
   delta-method comparison (no resampling); on the large sample also the seeded draws
   alone, in NumPy: 1,000 multinomial draws over the 125 joint labels (what the
   comparison must draw) and over the 25 cells of one pair's table (what the pairwise
   bootstrap draws).

It checks that the bootstrap's standard error of the difference is within 15% of the
delta method's (on average over the groups) and prints the ratios.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_stats import best_of
from bench_w1 import make_frame

import kappaframe as kf

PAIRS = (("r01", "r00"), ("r02", "r00"))
TARGET = 2.0


def contenders(df: pd.DataFrame, by: str | None, n_boot: int) -> dict[str, Callable[[], Any]]:
    boot = {"n_boot": n_boot, "seed": 1}
    return {
        "compare": lambda: kf.compare(df, *PAIRS, by=by, method="bootstrap", **boot),
        "pairwise": lambda: kf.pairwise(
            df, ["r01", "r00"], by=by, ci=0.95, ci_method="bootstrap", **boot
        ),
        "pairwise3": lambda: kf.pairwise(
            df, ["r00", "r01", "r02"], by=by, ci=0.95, ci_method="bootstrap", **boot
        ),
        "delta": lambda: kf.compare(df, *PAIRS, by=by),
    }


def draws_alone(df: pd.DataFrame, n_boot: int) -> dict[str, Callable[[], Any]]:
    """The multinomial draws each bootstrap must make on one sample, in plain NumPy."""
    labels = df[["r01", "r00", "r02"]].to_numpy()
    labels = labels[~np.isnan(labels).any(axis=1)]
    patterns = np.unique(labels, axis=0, return_counts=True)[1]
    pairs = df[["r01", "r00"]].to_numpy()
    cells = np.unique(pairs[~np.isnan(pairs).any(axis=1)], axis=0, return_counts=True)[1]

    def draw(count: np.ndarray) -> Callable[[], Any]:
        probs = np.sort(count)[::-1] / count.sum()
        return lambda: np.random.default_rng(1).multinomial(count.sum(), probs, size=n_boot)

    return {"draw patterns": draw(patterns), "draw cells": draw(cells)}


def report(title: str, runs: dict[str, tuple[float, Any]]) -> float:
    res, delta = runs["compare"][1], runs["delta"][1]
    ratio_se = (res["se"] / delta["se"]).to_numpy()
    assert abs(np.nanmean(ratio_se) - 1) < 0.15, np.nanmean(ratio_se)
    np.testing.assert_allclose(res["difference"], delta["difference"], rtol=1e-14)
    print(title)
    print(f"  compare, paired bootstrap (2 pairs)   {runs['compare'][0]:8.3f} s")
    print(f"  pairwise bootstrap, one pair          {runs['pairwise'][0]:8.3f} s")
    print(f"  pairwise bootstrap, the three raters  {runs['pairwise3'][0]:8.3f} s")
    print(f"  compare, delta method                 {runs['delta'][0]:8.3f} s")
    if "draw patterns" in runs:
        print(f"  the draws alone: 125 joint labels     {runs['draw patterns'][0]:8.3f} s")
        print(f"  the draws alone: one pair's 25 cells  {runs['draw cells'][0]:8.3f} s")
    ratio = runs["compare"][0] / runs["pairwise"][0]
    print(
        f"  paired bootstrap / one pairwise bootstrap: {ratio:.2f}x "
        f"(target <= {TARGET}: {'OK' if ratio <= TARGET else 'MISSED'})"
    )
    ratio3 = runs["compare"][0] / runs["pairwise3"][0]
    print(f"  paired bootstrap / pairwise bootstrap of the three raters: {ratio3:.2f}x")
    if "draw patterns" in runs:
        floor = runs["draw patterns"][0] / runs["pairwise"][0]
        print(f"  the joint labels' draws alone / one pairwise bootstrap: {floor:.2f}x")
    print(f"  bootstrap se / delta se, mean over groups: {np.nanmean(ratio_se):.3f}")
    return ratio


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--raters", type=int, default=20)
    parser.add_argument("--categories", type=int, default=5)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--missing", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--large-items", type=int, default=200_000)
    parser.add_argument(
        "--large-repeat", type=int, default=15, help="rounds on the large sample (fast)"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    df = make_frame(args.items, args.raters, args.categories, args.groups, args.missing, args.seed)
    small = best_of(args.repeat, contenders(df, "group", args.n_boot))
    large_df = make_frame(args.large_items, 3, args.categories, 1, args.missing, args.seed)
    large_df = large_df.drop(columns="group")
    large = best_of(
        args.large_repeat,
        {**contenders(large_df, None, args.n_boot), **draws_alone(large_df, args.n_boot)},
    )
    ratios = [
        report(
            f"W1-small: {args.items:,} items x {args.raters} raters x {args.categories} "
            f"categories x {args.groups} groups, {args.missing:.0%} missing; "
            f"{args.n_boot} replicates",
            small,
        ),
        report(
            f"One sample: {args.large_items:,} items x 3 raters x {args.categories} "
            f"categories, {args.missing:.0%} missing, no groups; {args.n_boot} replicates",
            large,
        ),
    ]
    print(
        "paired bootstrap / one pairwise bootstrap: "
        + ", ".join(f"{r:.2f}x" for r in ratios)
        + f" (target <= {TARGET}); {time.perf_counter() - start:.0f} s in all"
    )


if __name__ == "__main__":
    main()
