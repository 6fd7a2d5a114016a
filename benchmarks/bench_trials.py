"""Benchmark repeated trials (``trial=``) against the same calls without trials.

Workload (defaults): 200,000 items x 5 raters x 2 trials in 20 groups, float scores (an
item effect, rater bias, noise) and their labels (the scores cut in 4 bands), one pandas
frame in the wide layout with a row per item and trial (2,000,000 ratings). Side by side,
in one run:

1. ``kf.icc(df, item=, trial=, by="group")``, against ``kf.icc`` of the same scores as
   one row per item and a column per rater and trial (10 columns): what the repeated
   trials add to reading and summing the ratings (the melt, the cube, the model with
   replicates);
2. ``kf.pairwise(df, item=, trial=, by="group")`` (each rater's two trials), against
   ``kf.pairwise`` of the one-row-per-item frame restricted to the same five pairs of
   columns (rater, trial 1) and (rater, trial 2);
3. ``kf.bland_altman(df, item=, trial=, by="group")`` against ``kf.bland_altman`` of the
   one-row-per-item frame (the ten columns' 45 pairs).

It prints each time and the ratio ``trial= / without``, and checks that the intra-rater
kappas equal the plain pairs' kappas to 1e-12.

Times are the best of ``--repeat`` rounds (``time.perf_counter``, taking turns). Run from
the repository root::

    python benchmarks/bench_trials.py                       # about half a minute
    python benchmarks/bench_trials.py --items 20000 --repeat 1   # smoke
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

from bench_stats import best_of  # noqa: E402  (run from benchmarks/: one timer)

import kappaframe as kf  # noqa: E402


def workload(
    rng: np.random.Generator, items: int, raters: int, groups: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The wide frame with a row per item and trial, and the same with a row per item."""
    group = np.repeat(np.arange(groups), items // groups)
    n = len(group)
    item = rng.normal(50, 10, n)
    per_item: dict[str, Any] = {"group": group, "item": np.arange(n)}
    for r in range(raters):
        bias = rng.normal(0, 2)
        for t in (1, 2):
            per_item[f"r{r}_t{t}"] = item + bias + rng.normal(0, 5, n)
    wide = pd.DataFrame(per_item)
    rows = []
    for t in (1, 2):
        part = wide[["group", "item"]].assign(trial=t)
        for r in range(raters):
            part[f"r{r}"] = wide[f"r{r}_t{t}"]
        rows.append(part)
    return pd.concat(rows, ignore_index=True), wide


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=200_000)
    parser.add_argument("--raters", type=int, default=5)
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    trials, per_item = workload(rng, args.items, args.raters, args.groups)
    raters = [f"r{r}" for r in range(args.raters)]
    columns = [f"r{r}_t{t}" for r in range(args.raters) for t in (1, 2)]
    cut = [35.0, 50.0, 65.0]
    labels = trials.assign(**{r: np.digitize(trials[r], cut) for r in raters})
    plain = per_item.assign(**{c: np.digitize(per_item[c], cut) for c in columns})
    pairs = [(f"r{r}_t1", f"r{r}_t2") for r in range(args.raters)]
    opts: dict[str, Any] = {"item": "item", "trial": "trial", "by": "group"}
    print(f"{len(per_item):,} items x {args.raters} raters x 2 trials, {args.groups} groups")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        runs = best_of(
            args.repeat,
            {
                "icc trial=": lambda: kf.icc(trials, raters, **opts),
                "icc without": lambda: kf.icc(per_item, columns, by="group"),
                "pairwise trial=": lambda: kf.pairwise(labels, raters, **opts),
                "pairwise without": lambda: pd.concat(
                    [kf.pairwise(plain, list(p), by="group") for p in pairs]
                ),
                "bland_altman trial=": lambda: kf.bland_altman(trials, raters, **opts),
                "bland_altman without": lambda: kf.bland_altman(per_item, columns, by="group"),
            },
        )
    for what in ("icc", "pairwise", "bland_altman"):
        ours, base = runs[f"{what} trial="][0], runs[f"{what} without"][0]
        print(f"  {what:<13} trial= {ours:7.3f} s   without {base:7.3f} s   {ours / base:5.2f} x")
    got = runs["pairwise trial="][1].sort_values(["rater", "group"])["kappa"].to_numpy()
    want = runs["pairwise without"][1]["kappa"].to_numpy()
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    print("  intra-rater kappas equal the plain pairs' kappas (1e-12)")


if __name__ == "__main__":
    main()
