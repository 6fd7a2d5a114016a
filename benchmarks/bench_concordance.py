"""Benchmark: Lin's CCC and Bland-Altman of every rater pair, per group.

Workload: ``--items`` items (default 1,000,000) x ``--raters`` raters (default 10) on a
continuous scale (5% missing), in ``--groups`` groups (default 100), in a pandas frame.
One run times, side by side and taking turns (best of ``--repeat``):

1. ``kf.ccc(df, by="group")``: every pair in every group, with the interval;
2. ``kf.bland_altman(df, by="group")``;
3. what one writes without kappaframe: a loop over the groups (``groupby``) and the pairs,
   each pair's complete cases and the coefficient from NumPy (R's ``epi.ccc`` formula);
4. the floor: one pass of matrix products over a ready NumPy array (the sums alone, no
   frame, no missing-value handling, no statistics).

It checks that kappaframe's ``ccc`` equals the loop's (1e-9) and prints the ratios.

Run from the repository root::

    python benchmarks/bench_concordance.py             # about a minute
    python benchmarks/bench_concordance.py --items 100000 --repeat 1
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench_stats import best_of  # noqa: E402

import kappaframe as kf  # noqa: E402


def make_scores(items: int, raters: int, groups: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.normal(50, 15, items)
    data: dict[str, Any] = {"group": rng.integers(0, groups, items)}
    for i in range(raters):
        score = i * 0.5 + (1 + 0.02 * i) * truth + rng.normal(0, 5, items)
        score[rng.random(items) < 0.05] = np.nan
        data[f"r{i}"] = score
    return pd.DataFrame(data)


def loop_ccc(df: pd.DataFrame, raters: list[str]) -> pd.DataFrame:
    """The loop one writes: per group, per pair, complete cases, then the coefficient."""
    rows = []
    for key, part in df.groupby("group", sort=True):
        values = {r: part[r].to_numpy() for r in raters}
        for i, a in enumerate(raters):
            for b in raters[i + 1 :]:
                x, y = values[a], values[b]
                keep = ~np.isnan(x) & ~np.isnan(y)
                x, y = x[keep], y[keep]
                sx2, sy2 = x.var(), y.var()
                sxy = np.mean((x - x.mean()) * (y - y.mean()))
                ccc = 2 * sxy / (sx2 + sy2 + (x.mean() - y.mean()) ** 2)
                rows.append((key, a, b, len(x), ccc))
    return pd.DataFrame(rows, columns=["group", "rater_a", "rater_b", "n", "ccc"])


def floor(values: np.ndarray) -> np.ndarray:
    """One pass of the sums over a ready array: four matrix products, no groups, no NaN."""
    mask = np.ones_like(values)
    return np.stack([mask @ mask.T, values @ mask.T, (values * values) @ mask.T, values @ values.T])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--raters", type=int, default=10)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    df = make_scores(args.items, args.raters, args.groups, args.seed)
    raters = [c for c in df.columns if c != "group"]
    ready = np.nan_to_num(df[raters].to_numpy().T)
    print(
        f"{args.items:,} items x {args.raters} raters ({len(raters) * (len(raters) - 1) // 2} "
        f"pairs) in {args.groups} groups, 5% missing; best of {args.repeat}"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        timed = best_of(
            args.repeat,
            {
                "kf.ccc": lambda: kf.ccc(df, by="group"),
                "kf.bland_altman": lambda: kf.bland_altman(df, by="group"),
                "loop over groups and pairs": lambda: loop_ccc(df, raters),
                "floor (sums of a ready array)": lambda: floor(ready),
            },
        )
    ours, loop = timed["kf.ccc"][1], timed["loop over groups and pairs"][1]
    np.testing.assert_array_equal(ours["n"].to_numpy(), loop["n"].to_numpy())
    np.testing.assert_allclose(ours["ccc"].to_numpy(), loop["ccc"].to_numpy(), atol=1e-9)
    print("kappaframe's ccc equals the loop's (n exactly, ccc to 1e-9)\n")
    base = timed["kf.ccc"][0]
    for name, (seconds, _) in timed.items():
        print(f"  {name:<32} {seconds:8.3f} s   {seconds / base:6.2f} x kf.ccc")
    loop_time, floor_time = (
        timed["loop over groups and pairs"][0],
        timed["floor (sums of a ready array)"][0],
    )
    print(f"\n  the loop / kf.ccc:  {loop_time / base:6.1f}")
    print(f"  kf.ccc / the floor: {base / floor_time:6.1f}")


if __name__ == "__main__":
    main()
