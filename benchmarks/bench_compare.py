"""Benchmark: a paired bootstrap comparison against one pairwise bootstrap, on W1-small.

W1-small is W1 (``bench_w1.py``'s ``make_frame``) at a tenth of its items: 100,000 items x
20 raters x 5 categories x 100 groups, float labels with 10% NaN, the same seeded
generator. The comparison is two rater pairs that share a rater, ``("r01", "r00")`` and
``("r02", "r00")`` (two models against one gold), per group, on the items all three
labeled.

One run measures, side by side (best of ``--repeat``, taking turns):

1. ``kf.compare(df, ("r01", "r00"), ("r02", "r00"), by="group", method="bootstrap",
   n_boot=1000)``: both kappas from one set of resampled items per replicate;
2. one pairwise bootstrap of the same data: ``kf.pairwise(df, ["r01", "r00"], by="group",
   ci=0.95, ci_method="bootstrap", n_boot=1000)``, one pair's kappa (target: the
   comparison within 2x of it);
3. for scale, the pairwise bootstrap of the three raters involved (three pairs), and the
   delta-method comparison (no resampling).

It checks that the bootstrap's standard error of the difference is within 15% of the
delta method's in every group on average, and prints the ratios.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_stats import best_of
from bench_w1 import make_frame

import kappaframe as kf


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
    args = parser.parse_args(argv)
    df = make_frame(args.items, args.raters, args.categories, args.groups, args.missing, args.seed)
    pairs = (("r01", "r00"), ("r02", "r00"))
    boot = {"n_boot": args.n_boot, "seed": 1}
    runs = best_of(
        args.repeat,
        {
            "compare": lambda: kf.compare(df, *pairs, by="group", method="bootstrap", **boot),
            "pairwise": lambda: kf.pairwise(
                df, ["r01", "r00"], by="group", ci=0.95, ci_method="bootstrap", **boot
            ),
            "pairwise3": lambda: kf.pairwise(
                df, ["r00", "r01", "r02"], by="group", ci=0.95, ci_method="bootstrap", **boot
            ),
            "delta": lambda: kf.compare(df, *pairs, by="group"),
        },
    )
    res, delta = runs["compare"][1], runs["delta"][1]
    ratio_se = (res["se"] / delta["se"]).to_numpy()
    assert abs(np.nanmean(ratio_se) - 1) < 0.15, np.nanmean(ratio_se)
    np.testing.assert_allclose(res["difference"], delta["difference"], rtol=1e-14)
    print(
        f"W1-small: {args.items:,} items x {args.raters} raters x {args.categories} categories "
        f"x {args.groups} groups, {args.missing:.0%} missing; {args.n_boot} replicates"
    )
    print(f"  compare, paired bootstrap (2 pairs)   {runs['compare'][0]:8.3f} s")
    print(f"  pairwise bootstrap, one pair          {runs['pairwise'][0]:8.3f} s")
    print(f"  pairwise bootstrap, the three raters  {runs['pairwise3'][0]:8.3f} s")
    print(f"  compare, delta method                 {runs['delta'][0]:8.3f} s")
    ratio = runs["compare"][0] / runs["pairwise"][0]
    print(
        f"  paired bootstrap / one pairwise bootstrap: {ratio:.2f}x "
        f"(target <= 2.0: {'OK' if ratio <= 2.0 else 'MISSED'})"
    )
    ratio3 = runs["compare"][0] / runs["pairwise3"][0]
    print(f"  paired bootstrap / pairwise bootstrap of the three raters: {ratio3:.2f}x")
    print(f"  bootstrap se / delta se, mean over groups: {np.nanmean(ratio_se):.3f}")


if __name__ == "__main__":
    main()
