"""Benchmark what Student's t intervals cost: ``ci_dist="t"`` against ``ci_dist="normal"``.

With ``ci_dist="t"`` every row needs its own quantile ``t_(1 - alpha/2, n - 1)`` and its
p-value from the t distribution, so the cost grows with the number of rows and of distinct
item counts. Workload (defaults): 2,000 groups of 5 to 200 items each (about 200,000
items, so hundreds of distinct ``n``), 6 raters x 5 categories, 10% missing labels, in a
pandas frame. Two calls, each with both distributions, side by side in one run:

1. ``kf.overall(df, by="group", ci=0.95, ci_dist=...)`` (Fleiss' kappa: one row, one
   quantile per group);
2. ``kf.pairwise(df, by="group", ci=0.95, ci_dist=...)`` (15 pairs x 2,000 groups: 30,000
   rows, each with the items of its own pair).

Each prints ``t / normal: N.NNx`` (target <= 1.5). It checks that both distributions give
the same coefficients and standard errors, that the t interval's half width is
``scipy.stats.t.ppf(0.975, n - 1) * se`` (1e-12) and that it is wider than the normal one.

Times are the best of ``--repeat`` rounds (``time.perf_counter``, taking turns). Run from
the repository root::

    python benchmarks/bench_ci_dist.py                       # about half a minute
    python benchmarks/bench_ci_dist.py --groups 200 --repeat 1   # smoke run
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
from scipy import stats

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench_stats import best_of  # noqa: E402  (run from benchmarks/: one timer)

import kappaframe as kf  # noqa: E402

LEVEL = 0.95


def workload(
    rng: np.random.Generator, groups: int, raters: int, categories: int, missing: float
) -> pd.DataFrame:
    sizes = rng.integers(5, 201, groups)
    group = np.repeat(np.arange(groups), sizes)
    items = len(group)
    truth = rng.integers(0, categories, items)
    data: dict[str, Any] = {"group": group}
    for r in range(raters):
        skill = rng.uniform(0.5, 0.8)
        labels = np.where(rng.random(items) < skill, truth, rng.integers(0, categories, items))
        labels = labels.astype(float)
        labels[rng.random(items) < missing] = np.nan
        data[f"r{r}"] = labels
    return pd.DataFrame(data)


def check(normal: pd.DataFrame, student: pd.DataFrame, value: str, n: str) -> None:
    for column in (value, "se"):
        np.testing.assert_array_equal(normal[column].to_numpy(), student[column].to_numpy())
    ok = (student["se"] > 0) & (student[n] >= 2)
    ok &= (student["ci_high"] < 1) & (normal["ci_high"] < 1)  # not clipped
    rows = student[ok]
    half = (rows["ci_high"] - rows[value]).to_numpy()
    expected = stats.t.ppf(0.5 + LEVEL / 2, rows[n].to_numpy() - 1) * rows["se"].to_numpy()
    np.testing.assert_allclose(half, expected, rtol=1e-12, atol=1e-14)
    assert (half > (normal["ci_high"] - normal[value])[ok].to_numpy()).all()
    assert ok.sum() > len(student) // 2, "too few rows checked"


def bench(title: str, call: Callable[[str], pd.DataFrame], value: str, n: str, repeat: int) -> None:
    call("normal")  # warm up: imports, first allocations
    got = best_of(repeat, {"normal": lambda: call("normal"), "t": lambda: call("t")})
    (t_normal, normal), (t_student, student) = got["normal"], got["t"]
    check(normal, student, value, n)
    print(f"{title}: {len(student):,} rows, {student[n].nunique():,} distinct {n}")
    print(f"  ci_dist='normal': {t_normal:.3f} s")
    print(f"  ci_dist='t':      {t_student:.3f} s")
    print(f"  t / normal: {t_student / t_normal:.2f}x (target <= 1.5)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=2000)
    parser.add_argument("--raters", type=int, default=6)
    parser.add_argument("--categories", type=int, default=5)
    parser.add_argument("--missing", type=float, default=0.1)
    parser.add_argument("--repeat", type=int, default=5, help="rounds; the best is kept")
    parser.add_argument("--seed", type=int, default=20261121)
    args = parser.parse_args()
    # A few small groups have a pair that used one category only: undefined, as it should be.
    warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
    rng = np.random.default_rng(args.seed)
    df = workload(rng, args.groups, args.raters, args.categories, args.missing)
    print(
        f"{len(df):,} items x {args.raters} raters x {args.categories} categories in "
        f"{args.groups:,} groups of 5 to 200 items, {args.missing:.0%} missing; "
        f"best of {args.repeat}"
    )

    def overall(dist: str) -> pd.DataFrame:
        return kf.overall(df, by="group", ci=LEVEL, ci_dist=dist)

    def pairwise(dist: str) -> pd.DataFrame:
        return kf.pairwise(df, by="group", ci=LEVEL, ci_dist=dist)

    bench('overall(by="group", ci=0.95)', overall, "value", "n_items", args.repeat)
    bench('pairwise(by="group", ci=0.95)', pairwise, "kappa", "n", args.repeat)


if __name__ == "__main__":
    main()
