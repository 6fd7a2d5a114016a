"""Benchmark the statistics layer: overall(), per_category() and the bootstrap.

Each comparison times kappaframe and the code people write today on the same seeded
data, side by side in one run, checks that both give the same numbers, and prints the
ratio. Workloads (defaults):

1. Fleiss' kappa per group: 200,000 items x 10 raters x 5 categories x 50 groups, no
   missing label (statsmodels needs complete data). kappaframe:
   ``df.kappa.overall(by="group")``; today: per group, statsmodels'
   ``aggregate_raters`` then ``fleiss_kappa``.
2. Krippendorff's alpha (interval) with 10% missing labels: 200,000 items x 8 raters x
   5 categories. kappaframe: ``overall(method="krippendorff", level="interval")``;
   today: the ``krippendorff`` package's ``alpha``.
3. Per-category (one-vs-rest) Fleiss' kappa on workload 1 without groups: kappaframe's
   ``per_category()`` against statsmodels on each collapsed two-category table.
4. Bootstrap intervals for every pair: 20,000 items x 6 raters (15 pairs) x 4
   categories, 500 replicates. kappaframe: ``pairwise(ci=0.95, ci_method="bootstrap")``
   (one multinomial draw per pair and replicate); today: per pair and replicate,
   resample the item indices and recount the table with ``np.bincount``. The two use
   different random draws, so both are checked against the large-sample standard error
   (each within 15%) and against each other on average (within 3%).
5. What a bootstrap interval costs: ``pairwise(by="group", ci=0.95,
   ci_method="bootstrap", n_boot=1000)`` against the same call without ``ci`` on 200,000
   items x 10 raters x 5 categories x 50 groups (2,250 tables); also on one CPU (the
   bootstrap draws chunks of tables on every CPU the process may use, with the same
   numbers, which the script checks). Both intervals are checked against the
   large-sample standard error.

Times are the best of ``--repeat`` rounds (``time.perf_counter``, taking turns). Run from
the repository root::

    python benchmarks/bench_stats.py            # about a minute
    python benchmarks/bench_stats.py --scale 0.1 --repeat 1   # smoke run
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa  # noqa: E402

import kappaframe as kf  # noqa: E402


def team(
    rng: np.random.Generator, items: int, raters: int, categories: int, missing: float
) -> pd.DataFrame:
    truth = rng.integers(0, categories, items)
    data = {}
    for r in range(raters):
        skill = rng.uniform(0.5, 0.8)
        labels = np.where(rng.random(items) < skill, truth, rng.integers(0, categories, items))
        labels = labels.astype(float)
        labels[rng.random(items) < missing] = np.nan
        data[f"r{r:02d}"] = labels
    return pd.DataFrame(data)


def best_of(repeat: int, contenders: dict[str, Callable[[], Any]]) -> dict[str, tuple[float, Any]]:
    best: dict[str, float] = dict.fromkeys(contenders, np.inf)
    results: dict[str, Any] = {}
    for _ in range(repeat):
        for name, run in contenders.items():
            start = time.perf_counter()
            results[name] = run()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: (best[name], results[name]) for name in contenders}


def report(title: str, ours: tuple[float, Any], theirs: tuple[float, Any], what: str) -> None:
    print(f"\n{title}")
    print(f"  kappaframe      {ours[0]:8.3f} s")
    print(f"  {what:<15} {theirs[0]:8.3f} s")
    ratio = theirs[0] / ours[0]
    word = f"{ratio:.1f}x faster" if ratio >= 1 else f"{1 / ratio:.1f}x slower"
    print(f"  kappaframe vs {what}: {word} (time ratio {what} / kappaframe = {ratio:.2f})")


def bench_fleiss(rng: np.random.Generator, scale: float, repeat: int) -> None:
    items, groups = int(200_000 * scale), 50
    df = team(rng, items, 10, 5, 0.0)
    df["group"] = rng.integers(0, groups, items)
    raters = [c for c in df.columns if c != "group"]

    def statsmodels_loop() -> np.ndarray:
        out = []
        for _, part in df.groupby("group", sort=True):
            table, _ = aggregate_raters(part[raters].to_numpy().astype(int), n_cat=5)
            out.append(fleiss_kappa(table, method="fleiss"))
        return np.asarray(out)

    runs = best_of(
        repeat,
        {
            "kappaframe": lambda: df.kappa.overall(raters, by="group")["value"].to_numpy(),
            "statsmodels": statsmodels_loop,
        },
    )
    np.testing.assert_allclose(runs["kappaframe"][1], runs["statsmodels"][1], rtol=1e-10)
    report(
        f"1. Fleiss' kappa, {items:,} items x 10 raters x 5 categories x {groups} groups",
        runs["kappaframe"],
        runs["statsmodels"],
        "statsmodels",
    )


def bench_krippendorff(rng: np.random.Generator, scale: float, repeat: int) -> None:
    import krippendorff

    items = int(200_000 * scale)
    df = team(rng, items, 8, 5, 0.1)
    runs = best_of(
        repeat,
        {
            "kappaframe": lambda: float(
                df.kappa.overall(method="krippendorff", level="interval")["value"].iloc[0]
            ),
            "krippendorff": lambda: float(
                krippendorff.alpha(
                    reliability_data=df.to_numpy().T, level_of_measurement="interval"
                )
            ),
        },
    )
    assert abs(runs["kappaframe"][1] - runs["krippendorff"][1]) < 1e-12
    report(
        f"2. Krippendorff's alpha (interval), {items:,} items x 8 raters, 10% missing",
        runs["kappaframe"],
        runs["krippendorff"],
        "krippendorff",
    )


def bench_per_category(rng: np.random.Generator, scale: float, repeat: int) -> None:
    items = int(200_000 * scale)
    df = team(rng, items, 10, 5, 0.0)
    codes = df.to_numpy().astype(int)

    def statsmodels_loop() -> np.ndarray:
        out = []
        for category in range(5):
            table, _ = aggregate_raters((codes == category).astype(int), n_cat=2)
            out.append(fleiss_kappa(table))
        return np.asarray(out)

    runs = best_of(
        repeat,
        {
            "kappaframe": lambda: df.kappa.per_category()["kappa"].to_numpy(),
            "statsmodels": statsmodels_loop,
        },
    )
    # 200,000 items: sums in a different order differ in the 12th digit
    np.testing.assert_allclose(runs["kappaframe"][1], runs["statsmodels"][1], rtol=1e-10)
    report(
        f"3. Fleiss' kappa per category, {items:,} items x 10 raters x 5 categories",
        runs["kappaframe"],
        runs["statsmodels"],
        "statsmodels",
    )


def bench_bootstrap(rng: np.random.Generator, scale: float, repeat: int) -> None:
    items, n_boot, k = int(20_000 * scale), 500, 4
    df = team(rng, items, 6, k, 0.05)
    raters = list(df.columns)

    def loop() -> np.ndarray:
        local = np.random.default_rng(1)
        codes = df.to_numpy()
        ses = []
        for a, b in combinations(range(len(raters)), 2):
            both = ~(np.isnan(codes[:, a]) | np.isnan(codes[:, b]))
            x, y = codes[both, a].astype(int), codes[both, b].astype(int)
            n = len(x)
            kappas = np.empty(n_boot)
            for rep in range(n_boot):
                pick = local.integers(0, n, n)
                table = np.bincount(x[pick] * k + y[pick], minlength=k * k).reshape(k, k) / n
                p_o = np.trace(table)
                p_e = table.sum(1) @ table.sum(0)
                kappas[rep] = (p_o - p_e) / (1 - p_e)
            ses.append(kappas.std(ddof=1))
        return np.asarray(ses)

    def ours() -> np.ndarray:
        res = df.kappa.pairwise(ci=0.95, ci_method="bootstrap", n_boot=n_boot, seed=1)
        return res["se"].to_numpy()

    runs = best_of(repeat, {"kappaframe": ours, "loop": loop})
    # Different draws: each bootstrap se within 15% of the large-sample one, and on
    # average the two bootstraps within 3% of each other.
    analytic = df.kappa.pairwise(ci=0.95)["se"].to_numpy()
    for name in runs:
        np.testing.assert_allclose(runs[name][1], analytic, rtol=0.15)
    assert abs(runs["kappaframe"][1].mean() / runs["loop"][1].mean() - 1) < 0.03
    report(
        f"4. Bootstrap se of 15 pairs, {items:,} items x {k} categories, {n_boot} replicates",
        runs["kappaframe"],
        runs["loop"],
        "resample loop",
    )


def bench_bootstrap_cost(rng: np.random.Generator, scale: float, repeat: int) -> None:
    """What a bootstrap interval costs: the same call with and without it."""
    from kappaframe._stats import bootstrap as _bootstrap

    items, groups, n_boot = int(200_000 * scale), 50, 1000
    df = team(rng, items, 10, 5, 0.0)
    df["group"] = rng.integers(0, groups, items)
    boot = {"ci": 0.95, "ci_method": "bootstrap", "n_boot": n_boot, "seed": 1}
    cpus = _bootstrap._workers()
    all_cpus = _bootstrap._workers

    def one_cpu() -> pd.DataFrame:
        _bootstrap._workers = lambda: 1
        try:
            return df.kappa.pairwise(by="group", **boot)
        finally:
            _bootstrap._workers = all_cpus

    runs = best_of(
        repeat,
        {
            "plain": lambda: df.kappa.pairwise(by="group"),
            "bootstrap": lambda: df.kappa.pairwise(by="group", **boot),
            "one_cpu": one_cpu,
        },
    )
    plain, boot_res = runs["plain"][1], runs["bootstrap"][1]
    pd.testing.assert_frame_equal(runs["one_cpu"][1], boot_res)  # same draws on 1 or n CPUs
    np.testing.assert_allclose(boot_res["kappa"], plain["kappa"], rtol=0, atol=1e-12)
    analytic = df.kappa.pairwise(by="group", ci=0.95)
    # 1000 replicates estimate each se to a few percent; on average within 1%
    spread = boot_res["se"] / analytic["se"]
    assert abs(spread.mean() - 1) < 0.01 and spread.between(0.85, 1.15).all()
    tables = len(plain)
    print(
        f"\n5. Bootstrap cost: pairwise(by=group, ci=0.95, ci_method='bootstrap', "
        f"n_boot={n_boot}), {items:,} items x 10 raters x 5 categories x {groups} groups "
        f"({tables:,} tables)"
    )
    print(f"  without ci             {runs['plain'][0]:8.3f} s")
    print(f"  bootstrap, {cpus} CPU(s)    {runs['bootstrap'][0]:8.3f} s")
    print(f"  bootstrap, 1 CPU       {runs['one_cpu'][0]:8.3f} s")
    ratio = runs["bootstrap"][0] / runs["plain"][0]
    print(f"  bootstrap call / call without ci: {ratio:.1f}x (target <= 30)")
    print(
        "  bootstrap se / large-sample se: "
        f"mean {spread.mean():.3f}, range {spread.min():.3f}..{spread.max():.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the item counts")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best is kept")
    parser.add_argument("--seed", type=int, default=20261121)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"kappaframe {kf.__version__}, numpy {np.__version__}, pandas {pd.__version__}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bench_fleiss(rng, args.scale, args.repeat)
        bench_krippendorff(rng, args.scale, args.repeat)
        bench_per_category(rng, args.scale, args.repeat)
        bench_bootstrap(rng, args.scale, args.repeat)
        bench_bootstrap_cost(rng, args.scale, args.repeat)


if __name__ == "__main__":
    main()
