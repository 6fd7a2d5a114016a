"""Benchmark ``kf.icc`` against pingouin's ``intraclass_corr`` per group and a NumPy floor.

Workload (defaults): 1,000,000 items x 10 raters in 100 groups (10,000 items each), float
scores (a target effect plus rater bias and noise), 1% of one rater's scores missing, in
a pandas frame (wide layout: one column per rater). Three ways to get the six ICCs of
every group, side by side in one run:

1. ``kf.icc(df, by="group")``: every group at once, from additive sums (``np.bincount``);
2. pingouin's ``intraclass_corr`` looped over the groups, as people write it today: each
   group's rows melted to the long layout pingouin takes, then ``intraclass_corr(...,
   nan_policy="omit")``. It takes about a second per group here, so it runs on
   ``--pingouin-groups`` groups (default 5) and its time is scaled to all groups (said in
   the output);
3. a NumPy floor: the same sums written as tightly as NumPy allows, from arrays already
   extracted (the (n, k) score matrix and integer group codes: no frame, no group keys),
   one pass, then the six ICC formulas.

It prints ``pingouin / kappaframe`` (target >= 50x) and ``kappaframe / floor`` (target
<= 2x), and checks that the three agree (pingouin on its groups to 1e-9, the floor on all
groups to 1e-9).

Times are the best of ``--repeat`` rounds (``time.perf_counter``, taking turns). Run from
the repository root::

    python benchmarks/bench_icc.py                                  # about a minute
    python benchmarks/bench_icc.py --items 100000 --pingouin-groups 2 --repeat 1  # smoke
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

from bench_stats import best_of  # noqa: E402  (run from benchmarks/: one timer)

import kappaframe as kf  # noqa: E402


def workload(rng: np.random.Generator, items: int, raters: int, groups: int) -> pd.DataFrame:
    group = np.repeat(np.arange(groups), items // groups)
    target = rng.normal(50, 10, len(group))
    data: dict[str, Any] = {"group": group}
    for r in range(raters):
        data[f"r{r}"] = target + rng.normal(0, 2) + rng.normal(0, 5, len(group))
    frame = pd.DataFrame(data)
    frame.loc[rng.random(len(frame)) < 0.01, "r1"] = np.nan
    return frame


def floor(scores: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    """The six ICCs per group, (G, 6), from one pass of sums over the (n, k) matrix."""
    k = scores.shape[1]
    row = scores.sum(axis=1)
    row_sq = np.einsum("ij,ij->i", scores, scores)
    complete = ~np.isnan(row)
    gc = np.where(complete, group, n_groups)

    def per_group(w: np.ndarray | None = None) -> np.ndarray:
        return np.bincount(gc, weights=w, minlength=n_groups + 1)[:n_groups]

    n = per_group()
    total, squares, item_sq = per_group(row), per_group(row_sq), per_group(row * row)
    rater = np.stack([per_group(scores[:, j]) for j in range(k)], axis=1)
    c = total**2 / (n * k)
    ssr = item_sq / k - c
    ssc = (rater**2).sum(axis=1) / n - c
    sse = squares - c - ssr - ssc
    msr, msc = ssr / (n - 1), ssc / (k - 1)
    mse, msw = sse / ((n - 1) * (k - 1)), (ssc + sse) / (n * (k - 1))
    return np.stack(
        [
            (msr - msw) / (msr + (k - 1) * msw),
            (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n),
            (msr - mse) / (msr + (k - 1) * mse),
            (msr - msw) / msr,
            (msr - mse) / (msr + (msc - mse) / n),
            (msr - mse) / msr,
        ],
        axis=1,
    )


def pingouin_loop(pg: Any, frame: pd.DataFrame, raters: list[str], groups: list[Any]) -> Any:
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for g in groups:
            part = frame[frame["group"] == g]
            long = part[raters].reset_index(names="item").melt("item", var_name="rater")
            res = pg.intraclass_corr(long, "item", "rater", "value", nan_policy="omit")
            out[g] = res["ICC"].to_numpy()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--raters", type=int, default=10)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--pingouin-groups", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    import pingouin as pg

    rng = np.random.default_rng(20261125)
    frame = workload(rng, args.items, args.raters, args.groups)
    raters = [f"r{r}" for r in range(args.raters)]
    print(
        f"{len(frame):,} items x {args.raters} raters in {args.groups} groups "
        f"(1% of r1 missing), pandas wide frame"
    )
    # The floor starts from arrays already out of the frame (not timed).
    matrix = frame[raters].to_numpy(dtype=float)
    codes = frame["group"].to_numpy()

    timed = best_of(
        args.repeat,
        {
            "kappaframe": lambda: kf.icc(frame, raters, by="group", ci=None),
            "floor": lambda: floor(matrix, codes, args.groups),
        },
    )
    subset = list(range(min(args.pingouin_groups, args.groups)))
    start = time.perf_counter()
    theirs = pingouin_loop(pg, frame, raters, subset)
    pingouin_time = (time.perf_counter() - start) * args.groups / len(subset)

    ours_time, ours = timed["kappaframe"]
    floor_time, floor_icc = timed["floor"]
    got = ours["icc"].to_numpy().reshape(args.groups, 6)
    np.testing.assert_allclose(got, floor_icc, rtol=1e-9)
    for g in subset:
        np.testing.assert_allclose(got[g], theirs[g], rtol=1e-9)
    with_ci = best_of(1, {"ci": lambda: kf.icc(frame, raters, by="group")})["ci"][0]

    print(f"  kappaframe icc (ci=None)   {ours_time:8.3f} s")
    print(f"  kappaframe icc (ci=0.95)   {with_ci:8.3f} s")
    print(f"  NumPy floor (one pass)     {floor_time:8.3f} s")
    print(
        f"  pingouin, looped           {pingouin_time:8.3f} s  (run on {len(subset)} of "
        f"{args.groups} groups, scaled x{args.groups / len(subset):g})"
    )
    print(f"pingouin / kappaframe: {pingouin_time / ours_time:8.1f}x  (target >= 50x)")
    print(f"kappaframe / floor:    {ours_time / floor_time:8.2f}x  (target <= 2x)")
    print("checked: kappaframe == floor (all groups) == pingouin (its groups), rtol 1e-9")


if __name__ == "__main__":
    main()
